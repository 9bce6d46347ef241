/* Minimal SVG line plots (see svg.h). */
#include "cli/svg.h"

#include <math.h>
#include <string.h>

enum { W = 900, H = 600, ML = 80, MR = 190, MT = 50, MB = 60 };

static const char *plot_warning;

void svg_set_warning(const char *w)
{
	plot_warning = w;
}

void svg_palette(size_t i, char out[8])
{
	/* matplotlib's "tab10" plus black and a light blue: every two differ
	 * by >= 100 in |dR| + |dG| + |dB| */
	static const char *const pal[12] = {
		"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
		"#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#000000", "#aec7e8",
	};
	snprintf(out, 8, "%s", pal[i % 12]);
}

/* A marker of the series' shape centred on (x, y), in the legend too. */
static void marker(FILE *o, int shape, double x, double y, const char *color)
{
	switch (shape & 3) {
	case 1:
		fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"5\" height=\"5\" fill=\"%s\"/>\n", x - 2.5, y - 2.5, color);
		break;
	case 2:
		fprintf(o, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\"/>\n",
		        x, y - 3.5, x - 3, y + 2.5, x + 3, y + 2.5, color);
		break;
	case 3:
		fprintf(o, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\"/>\n",
		        x, y - 3.5, x + 3.5, y, x, y + 3.5, x - 3.5, y, color);
		break;
	default:
		fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n", x, y, color);
	}
}

void svg_ramp(double t, char out[8])
{
	if (!(t >= 0))
		t = 0;
	if (t > 1)
		t = 1;
	/* blue (33,102,172) -> purple -> red (178,24,43) */
	int r = (int)lround(33 + t * (178 - 33));
	int g = (int)lround(102 + t * (24 - 102));
	int b = (int)lround(172 + t * (43 - 172));
	snprintf(out, 8, "#%02x%02x%02x", r, g, b);
}

static void xml_text(FILE *o, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", o); break;
		case '>': fputs("&gt;", o); break;
		case '&': fputs("&amp;", o); break;
		case '"': fputs("&quot;", o); break;
		default: fputc(*s, o);
		}
	}
}

/* A tick step of 1, 2 or 5 times a power of ten giving about 6 ticks. */
static double nice_step(double span)
{
	if (!(span > 0))
		return 1;
	double raw = span / 6, p = pow(10, floor(log10(raw))), m = raw / p;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

static void size_label(double bytes, char *buf, size_t n)
{
	if (bytes >= 1 << 30)
		snprintf(buf, n, "%gG", bytes / (1 << 30));
	else if (bytes >= 1 << 20)
		snprintf(buf, n, "%gM", bytes / (1 << 20));
	else if (bytes >= 1 << 10)
		snprintf(buf, n, "%gK", bytes / (1 << 10));
	else
		snprintf(buf, n, "%g", bytes);
}

/* Coordinates are clamped to +-SVG_LIMIT: beyond it a point is drawn at the
 * edge.  Spans then stay finite and x + 1 > x, so every axis has a finite,
 * non-empty range and the tick loops below a bounded count. */
#define SVG_LIMIT 1e15
#define SVG_MAX_TICKS 64

static double clampv(double v)
{
	return v > SVG_LIMIT ? SVG_LIMIT : v < -SVG_LIMIT ? -SVG_LIMIT : v;
}

/* Ticks lo, lo + step, ... up to hi: how many (at least 1, at most SVG_MAX_TICKS). */
static int nticks(double lo, double hi, double step)
{
	double n = floor((hi - lo) / step + 1e-6) + 1;
	return !(n >= 1) ? 1 : n > SVG_MAX_TICKS ? SVG_MAX_TICKS : (int)n;
}

int svg_write(FILE *o, const struct svg_plot *p, const struct svg_series *s, size_t ns)
{
	double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
	for (size_t i = 0; i < ns; i++)
		for (size_t k = 0; k < s[i].n; k++) {
			double x = s[i].x[k], y = clampv(s[i].y[k]);
			if (!isfinite(s[i].x[k]) || !isfinite(s[i].y[k]) || (p->xlog2 && x <= 0))
				continue;
			x = p->xlog2 ? log2(x) : clampv(x);
			x0 = fmin(x0, x); x1 = fmax(x1, x);
			y0 = fmin(y0, y); y1 = fmax(y1, y);
		}
	if (!isfinite(x0)) { x0 = 0; x1 = 1; y0 = 0; y1 = 1; }
	if (p->vline > 0 && isfinite(p->vline) && !p->xlog2) { x0 = fmin(x0, clampv(p->vline)); x1 = fmax(x1, clampv(p->vline)); }
	if (p->hline > 0 && isfinite(p->hline)) { y0 = fmin(y0, clampv(p->hline)); y1 = fmax(y1, clampv(p->hline)); }
	if (p->y_from_zero && y0 > 0) y0 = 0;
	if (p->x_from_zero && !p->xlog2 && x0 > 0) x0 = 0;
	if (x1 <= x0) x1 = x0 + 1;
	if (y1 <= y0) y1 = y0 + 1;
	double ys = nice_step(y1 - y0);
	y0 = floor(y0 / ys) * ys;
	y1 = ceil(y1 / ys) * ys;
	double xs = p->xlog2 ? 1 : nice_step(x1 - x0);
	if (p->xlog2) { x0 = floor(x0); x1 = ceil(x1); if (x1 - x0 > 12) xs = 2; }
	else { x0 = floor(x0 / xs) * xs; x1 = ceil(x1 / xs) * xs; }
	if (x1 <= x0) x1 = x0 + xs;
	if (y1 <= y0) y1 = y0 + ys;

	const double pw = W - ML - MR, ph = H - MT - MB;
#define PX(x) (ML + ((x) - x0) / (x1 - x0) * pw)
#define PY(y) (MT + ph - ((y) - y0) / (y1 - y0) * ph)
	fprintf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	        "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
	        "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, H, W, H);
	fprintf(o, "<text x=\"%d\" y=\"28\" font-size=\"16\" text-anchor=\"middle\">", ML + (int)pw / 2);
	xml_text(o, p->title);
	fputs("</text>\n", o);
	if (plot_warning) {
		fprintf(o, "<text x=\"%d\" y=\"44\" font-size=\"11\" fill=\"#c00\" text-anchor=\"middle\" "
		        "class=\"warning\">WARNING: ", ML + (int)pw / 2);
		xml_text(o, plot_warning);
		fputs("</text>\n", o);
	}
	/* grid and ticks */
	for (int t = 0, nt = nticks(y0, y1, ys); t < nt; t++) {
		double y = y0 + t * ys;
		fprintf(o, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
		        "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
		        ML, PY(y), ML + pw, PY(y), ML - 6, PY(y) + 4, y);
	}
	for (int t = 0, nt = nticks(x0, x1, xs); t < nt; t++) {
		double x = x0 + t * xs;
		char lab[32];
		if (p->xlog2)
			size_label(exp2(x), lab, sizeof lab);
		else
			snprintf(lab, sizeof lab, "%g", x);
		fprintf(o, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
		        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
		        PX(x), MT, PX(x), MT + ph, PX(x), MT + ph + 18, lab);
	}
	fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#444\"/>\n",
	        ML, MT, pw, ph);
	fprintf(o, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", ML + pw / 2, H - 15);
	xml_text(o, p->xlabel);
	fprintf(o, "</text>\n<text transform=\"translate(20,%.1f) rotate(-90)\" text-anchor=\"middle\">",
	        MT + ph / 2);
	xml_text(o, p->ylabel);
	fputs("</text>\n", o);

	if (p->vline > 0 && isfinite(p->vline) && !p->xlog2) {
		double x = PX(clampv(p->vline));
		fprintf(o, "<line class=\"vline\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\" "
		        "stroke-dasharray=\"2,3\"/><text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">",
		        x, MT, x, MT + ph, x - 4, MT + 14);
		xml_text(o, p->vline_label);
		fputs("</text>\n", o);
	}
	if (p->hline > 0 && isfinite(p->hline)) {
		double y = PY(clampv(p->hline));
		fprintf(o, "<line class=\"hline\" x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\" "
		        "stroke-dasharray=\"2,3\"/><text x=\"%d\" y=\"%.1f\" font-size=\"11\">",
		        ML, y, ML + pw, y, ML + 4, y - 4);
		xml_text(o, p->hline_label);
		fputs("</text>\n", o);
	}
	size_t nlab = 0, shown = 0;
	for (size_t i = 0; i < ns; i++)
		nlab += s[i].label != NULL;
	int bar = nlab > SVG_LEGEND_MAX && p->colorbar;
	if (bar) { /* the colour bar: t = 0 at the top */
		const double bx = W - MR + 20, by = MT + 24, bh = ph - 40;
		fprintf(o, "<text x=\"%.1f\" y=\"%d\" class=\"colorbar\">", bx, MT + 10);
		xml_text(o, p->cb_title);
		fputs("</text>\n", o);
		for (int k = 0; k < 50; k++) {
			char c[8];
			svg_ramp(k / 49.0, c);
			fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"%.2f\" fill=\"%s\"/>\n", bx,
			        by + bh * k / 50.0, bh / 50.0 + 0.3, c);
		}
		for (int k = 0; k <= 4; k++)
			fprintf(o, "<text x=\"%.1f\" y=\"%.1f\">%g</text>\n", bx + 22, by + bh * k / 4.0 + 4,
			        p->cb_lo + (p->cb_hi - p->cb_lo) * k / 4.0);
	}
	for (size_t i = 0; i < ns; i++) {
		if (!s[i].no_line) {
			fprintf(o, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"%s points=\"",
			        s[i].color, s[i].dashed ? " stroke-dasharray=\"5,4\"" : "");
			for (size_t k = 0; k < s[i].n; k++) {
				double x = s[i].x[k], y = clampv(s[i].y[k]);
				if (!isfinite(s[i].x[k]) || !isfinite(s[i].y[k]) || (p->xlog2 && x <= 0))
					continue;
				x = p->xlog2 ? log2(x) : clampv(x);
				fprintf(o, "%.1f,%.1f ", PX(x), PY(y));
			}
			fputs("\"/>\n", o);
		}
		if (s[i].markers)
			for (size_t k = 0; k < s[i].n; k++) {
				double x = s[i].x[k], y = clampv(s[i].y[k]);
				if (!isfinite(s[i].x[k]) || !isfinite(s[i].y[k]) || (p->xlog2 && x <= 0))
					continue;
				x = p->xlog2 ? log2(x) : clampv(x);
				marker(o, s[i].shape, PX(x), PY(y), s[i].color);
			}
		/* legend: inside the canvas; beyond SVG_LEGEND_MAX entries a colour
		 * bar, or the count of the ones left out */
		if (!s[i].label || bar)
			continue;
		if (shown == SVG_LEGEND_MAX - 1 && nlab > SVG_LEGEND_MAX) {
			fprintf(o, "<text x=\"%d\" y=\"%.1f\">... %zu more</text>\n", W - MR + 12,
			        MT + 10 + 16.0 * (double)shown + 4, nlab - shown);
			shown++;
			continue;
		}
		if (shown >= SVG_LEGEND_MAX)
			continue;
		double ly = MT + 10 + 16.0 * (double)shown++;
		if (!s[i].no_line)
			fprintf(o, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"%s/>",
			        W - MR + 12, ly, W - MR + 36, ly, s[i].color,
			        s[i].dashed ? " stroke-dasharray=\"5,4\"" : "");
		fprintf(o, "<text x=\"%d\" y=\"%.1f\">", W - MR + 42, ly + 4);
		xml_text(o, s[i].label);
		fputs("</text>\n", o);
		if (s[i].markers)
			marker(o, s[i].shape, W - MR + 24, ly, s[i].color);
	}
	fputs("</svg>\n", o);
#undef PX
#undef PY
	return ferror(o) ? -1 : 0;
}
