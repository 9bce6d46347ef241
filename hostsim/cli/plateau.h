/*
 * Cache-level detection: segment a latency-vs-size curve into plateaus.
 *
 * Method (docs/formats.md, "Cache levels"):
 *  1. points sorted by size; the latency is smoothed with a running median
 *     of 3 (the two end points are kept), which removes isolated spikes
 *     without moving the steps;
 *  2. greedy runs: a run starts at a point; the next point joins while its
 *     smoothed latency is within a relative tolerance `tol` of the median of
 *     the run so far; a run that starts without a step from the previous
 *     point (|s[i] - s[i-1]| <= tol * s[i-1]) continues the previous run
 *     (a level whose latency drifts slowly is one level);
 *  3. a run is a plateau when it has >= min_points points and its last size
 *     is >= min_span x its first size (transitions between levels are steep
 *     or short and are dropped);
 *  4. adjacent plateaus whose median latencies are within `tol` of each
 *     other are merged (a spike or dip that split one level);
 *  5. each plateau reports its size range and the median of the raw
 *     latencies of its points; the capacity of a level is the last size of
 *     its plateau; the last plateau is memory.
 */
#ifndef RVMESS_CLI_PLATEAU_H
#define RVMESS_CLI_PLATEAU_H

#include <stddef.h>
#include <stdint.h>

struct plateau_opts {
	double tol;         /* relative tolerance, e.g. 0.10 */
	double min_span;    /* last size / first size, e.g. 2.0 */
	size_t min_points;  /* e.g. 2 */
};

#define PLATEAU_TOL_DEFAULT_PCT  10     /* written in rvmess parse --help */
#define PLATEAU_TOL_DEFAULT      (PLATEAU_TOL_DEFAULT_PCT / 100.0)
#define PLATEAU_SPAN_DEFAULT     2.0
#define PLATEAU_MINPTS_DEFAULT   2

struct plateau {
	size_t first, last;        /* indexes into the input arrays */
	uint64_t size_first, size_last;
	size_t points;
	double y;                  /* median of y over the plateau */
	double y2;                 /* median of y2 (0 when y2 is NULL) */
};

void plateau_defaults(struct plateau_opts *o);

/* size[] ascending, y[] (the metric segmented, e.g. ns/load) and optional
 * y2[] (reported only, e.g. cycles/load).  Returns the number of plateaus
 * (at most max are stored). */
size_t plateau_find(const uint64_t *size, const double *y, const double *y2, size_t n,
		    const struct plateau_opts *o, struct plateau *out, size_t max);

/* Median of n values (n > 0); does not modify v. */
double rvm_median(const double *v, size_t n);

#endif
