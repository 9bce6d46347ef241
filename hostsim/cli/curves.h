/*
 * Mess bandwidth-latency curve family: combining measured points into
 * curves, smoothing, the paper's metrics (Table I), and the Mess file formats.
 *
 * Pure computation on arrays; the log reader and the mess record format live
 * elsewhere.  Units: bandwidth GB/s (1e9 B/s), latency ns.
 */
#ifndef RVMESS_CURVES_H
#define RVMESS_CURVES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Limits on what the readers accept (a Mess CSV, mess records): anything
 * beyond is a broken or hostile file, not a measurement, and is refused with
 * its line.  They keep every metric and plot finite.
 */
#define MESS_MAX_GBPS  1e6                 /* bandwidth: 1 PB/s */
#define MESS_MAX_NS    1e9                 /* latency: 1 s per load */
#define MESS_MAX_PAUSE 9007199254740992.0  /* 2^53: pause is an exact integer */

/* A user's --peak: a bandwidth in GB/s in 0.001..MESS_MAX_GBPS; 0 or -1. */
int mess_parse_peak(const char *s, double *gbps);

/* One measured window (one repetition of one grid point). */
struct mess_sample {
	unsigned store_pct;   /* the generators' kernel: % of stores in the block (0..100) */
	uint64_t pause;       /* nop-loop count */
	double   bw_gbps;     /* bandwidth at memory (counters if present, else issued) */
	double   rd_frac;     /* read share of that traffic, 0..1 */
	double   lat_ns;      /* chase latency per load */
};

/* One combined point of a curve. */
struct mess_point {
	unsigned store_pct;
	unsigned read_pct_rounded; /* round(rd_frac*100 / 2) * 2, clipped to 0..100 */
	uint64_t pause;
	unsigned n;                /* samples kept after outlier removal */
	unsigned dropped;          /* samples removed as outliers */
	double   bw_mean, bw_std;
	double   rd_frac_mean;
	double   lat_mean, lat_std;
	double   bw_smooth, lat_smooth;
};

/* A curve: all points of one kernel (store_pct), in order of decreasing pause
 * (increasing pressure), the order in which a wave shows. */
#define MESS_NO_KERNEL 1000u  /* store_pct of a by-read group (points of any kernel) */

struct mess_curve {
	unsigned store_pct;        /* the kernel, or MESS_NO_KERNEL for a by-read group */
	unsigned read_pct_rounded; /* kernel: mess_curve_read_pct(); group: its R */
	size_t   n;
	struct mess_point *pt;
	int      thin;             /* by-read group: too few points to be a curve */
	double   anchor_ns;        /* latency of the smoothing anchor; 0: the curve's lowest */
};

struct mess_family {
	size_t ncurves;
	struct mess_curve *curve;  /* sorted by read_pct_rounded descending (read-heavy first) */
};

/*
 * Group samples by (store_pct, pause), drop outliers (samples whose latency
 * or bandwidth lies more than 3 scaled median absolute deviations from the
 * group's median; never all of them), average the rest, build one curve per
 * store_pct and smooth it.  Returns 0, or -1 on allocation failure.
 */
int mess_family_build(const struct mess_sample *s, size_t n, struct mess_family *out);
void mess_family_free(struct mess_family *f);

/* Savitzky-Golay smoothing (Mess 2): window and order, and the share of a
 * curve's highest bandwidth above which its points count as saturated. */
#define MESS_SG_WINDOW   11
#define MESS_SG_ORDER    3
#define MESS_PLATEAU_TOL 0.03
/* How far smoothing may move a point: 2 standard deviations of its samples,
 * at least this share of its value. */
#define MESS_SMOOTH_BAND 0.02

/*
 * A kernel curve's read % (rounded to an even number): the mean measured read
 * share of its points at >= half its highest bandwidth (the loaded points;
 * idle points are dominated by the chase's reads).
 */
unsigned mess_curve_read_pct(const struct mess_curve *c);

/* The relative bandwidth drop that makes a wave (mess_metrics' default). */
#define MESS_WAVE_TOL 0.03

/*
 * The order smoothing and plotted lines follow (Mess 2: by bandwidth): by
 * measured bandwidth, except that the saturated points (bandwidth within
 * MESS_PLATEAU_TOL of the curve's highest) come last, by latency, so that
 * noise in a saturated bandwidth cannot make the line's latency fall.  A
 * kernel curve with a wave (mess_curve_follows_pressure) keeps its pressure
 * order (decreasing pause) instead: sorted by bandwidth, its falling branch
 * would interleave with the rising one and the line zig-zag between them.
 * Returns a malloc'd permutation of 0..n-1 (NULL on OOM).
 */
size_t *mess_curve_order(const struct mess_curve *c);
/* 1 for a kernel curve (not a by-read group) showing the wave (mess_metrics,
 * tolerance MESS_WAVE_TOL): its line and smoothing follow pressure order. */
int mess_curve_follows_pressure(const struct mess_curve *c);

/*
 * bw_smooth/lat_smooth (Mess 2): in mess_curve_order() (pressure order for a
 * waved kernel curve, else by bandwidth), after an anchor at
 * zero bandwidth and the curve's lowest latency, a Savitzky-Golay filter
 * (window 11, order 3, ends fitted on the first/last full window) on each
 * coordinate, kept within max(2 std, MESS_SMOOTH_BAND x value) of the point's
 * measured mean and inside the range the curve measured (a filter over a
 * sharp knee would otherwise draw latencies the data does not have; it only
 * removes noise).  A curve of fewer
 * than 10 points (11 with the anchor) keeps its measured values.  The
 * measured means are never changed.
 */
void mess_curve_smooth(struct mess_curve *c);

/*
 * The Mess 2 "per read" view: one curve per measured read % R, holding every
 * point (of any kernel) whose own read share rounds to R, in
 * mess_curve_order() and smoothed.  `thin` marks a group that is not a curve:
 * fewer than 0.6 x the mean points per group (Mess 2's filter) or a highest
 * bandwidth below half the family's.  A group's zero-bandwidth anchor is the
 * family's lowest latency (its own idle points are at other R: the chase's
 * reads dominate them).  Sorted by R, highest first.
 */
int mess_family_by_read(const struct mess_family *f, struct mess_family *g);

struct mess_metrics {
	double   unloaded_lat_ns;     /* median over curves of the latency at the curve's lowest bandwidth */
	double   sat_bw_min, sat_bw_max;  /* saturated bandwidth range (GB/s) over curves that reach it */
	unsigned sat_curves;          /* curves where latency reached 2x unloaded */
	double   max_lat_min, max_lat_max; /* maximum latency range over curves (ns) */
	double   peak_gbps;           /* theoretical peak given by the user, 0 = unknown */
	unsigned wave_curves;         /* curves showing the wave */
	/* per curve, indexed like family.curve */
	struct mess_curve_metrics {
		unsigned store_pct, read_pct_rounded;
		int      saturated;       /* latency reached 2x unloaded */
		double   sat_bw;          /* bandwidth where latency crosses 2x unloaded (linear
		                             between the points around the crossing) */
		double   max_bw, max_lat;
		int      wave;            /* bandwidth fell while latency kept rising */
		double   wave_drop_gbps;  /* how far bandwidth fell from its maximum */
	} *curve;
	size_t ncurves;
};

/*
 * Metrics as in the Mess paper's Table I.  The wave: walking a curve from its
 * lowest-latency point towards higher latency (decreasing pause), after the
 * bandwidth maximum a later point has lower bandwidth (by more than
 * `wave_tol` relative, default 0.03) and higher latency.
 */
int mess_metrics(const struct mess_family *f, double peak_gbps, double wave_tol,
                 struct mess_metrics *m);
void mess_metrics_free(struct mess_metrics *m);
void mess_metrics_print(const struct mess_metrics *m, FILE *out);

/* Mess 2 CSV: read_pct_rounded,pause,bandwidth_mean,...,rw_ratio. */
int mess_write_csv(const struct mess_family *f, FILE *out);
/*
 * Read a Mess 2 CSV back (header required, columns by name).  On error
 * returns -1 and writes "LINE: reason" into err.
 */
int mess_read_csv(FILE *in, struct mess_family *f, char *err, size_t errlen);
/*
 * The Mess simulator's curves: all 51 read percentages 0, 2, ..., 100.  A
 * measured R is a by-read group that is a curve (mess_family_by_read): the
 * anchor row (0, lowest latency) and the smoothed points, bandwidth and
 * latency each made a running maximum (anchor: the family's lowest latency).  An R between two measured ones is
 * interpolated: rows at the same index fractions of both neighbours, weighted
 * by the distance in R.  An R outside the measured range is a copy of the
 * nearest measured one (extrapolated).  Rows ascending here; written
 * descending.  Returns 0, or -1 (errno ENOMEM, or EINVAL: no points).
 */
#define MESS_NRATIOS 51
enum mess_bwlat_how { BWLAT_MEASURED, BWLAT_INTERPOLATED, BWLAT_EXTRAPOLATED };
struct mess_bwlat {
	unsigned read_pct;
	enum mess_bwlat_how how;
	unsigned lo, hi;   /* the measured R it comes from (itself when measured) */
	size_t points;     /* points measured at this R, also when too few */
	size_t n;
	double *mbps, *ns; /* ascending */
};
int mess_bwlat_build(const struct mess_family *f, struct mess_bwlat *b /* [MESS_NRATIOS] */);
void mess_bwlat_free(struct mess_bwlat *b);
/* bwlat/README: how each file was made. */
void mess_bwlat_readme(const struct mess_bwlat *b, FILE *o);

/*
 * Write SUB/bwlat_0.txt .. SUB/bwlat_100.txt and SUB/README in the output
 * directory (out.h), rows "bandwidth_MBps latency_ns" in descending
 * bandwidth.  On error returns -1 with errno set and the reason in err (and
 * outdir_error() for I/O errors).
 */
struct outdir;
int mess_write_bwlat_dir(const struct mess_family *f, struct outdir *od, const char *sub,
                         char *err, size_t errlen);

#endif
