/*
 * Minimal SVG line plots: axes with "nice" ticks, one polyline per series,
 * optional markers, a legend.  Self-contained files, viewable in a browser.
 */
#ifndef RVMESS_SVG_H
#define RVMESS_SVG_H

#include <stddef.h>
#include <stdio.h>

struct svg_series {
	const char   *label;
	const double *x, *y;
	size_t        n;
	char          color[8];  /* "#rrggbb" */
	int           markers;   /* draw a marker at each point */
	int           shape;     /* its shape: 0 circle, 1 square, 2 triangle, 3 diamond */
	int           dashed;
	int           no_line;   /* markers only (measured points) */
};

struct svg_plot {
	const char *title, *xlabel, *ylabel;
	int         xlog2;       /* x axis logarithmic, base 2 (values must be > 0) */
	int         y_from_zero; /* y axis starts at 0 */
	int         x_from_zero;
	/* reference lines, drawn when > 0 and always inside the axes: a vertical
	 * one at x = vline (a theoretical peak), a horizontal one at y = hline */
	double      vline, hline;
	const char *vline_label, *hline_label;
	/* a colour bar instead of the legend (svg_ramp from cb_lo at t = 0 to
	 * cb_hi at t = 1), when the series with a label would not fit */
	int         colorbar;
	double      cb_lo, cb_hi;
	const char *cb_title;
};

/* Legend entries that fit the canvas; beyond, a colour bar or "N more". */
#define SVG_LEGEND_MAX 30

/* Write the plot; returns 0 or -1 on a write error.  Non-finite points are
 * skipped.  Series without a label have no legend entry. */
int svg_write(FILE *out, const struct svg_plot *p, const struct svg_series *s, size_t ns);

/* A warning drawn in red under the title of every plot written after this
 * call (NULL for none), e.g. that the run had no memory timing.  The string
 * must outlive the plots. */
void svg_set_warning(const char *w);

/* The i-th of 12 distinguishable colours (a qualitative palette; repeats
 * after 12), as "#rrggbb". */
void svg_palette(size_t i, char out[8]);

/* Colour on a ramp from blue (t = 0) to red (t = 1), as "#rrggbb". */
void svg_ramp(double t, char out[8]);

#endif
