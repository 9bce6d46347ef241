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
struct mess_curve {
	unsigned store_pct;
	unsigned read_pct_rounded; /* of the curve: rounded mean over its points */
	size_t   n;
	struct mess_point *pt;
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

/*
 * Smoothing used for bw_smooth/lat_smooth: a local quadratic least-squares
 * fit (Savitzky-Golay style, window up to 7 points) on each coordinate, then
 * clamped to the range of the raw values inside the window.  The clamp makes
 * negative or out-of-range values impossible; with < 5 points the raw means
 * are copied.
 */
void mess_curve_smooth(struct mess_curve *c);

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
		double   sat_bw;          /* bandwidth of the first point at >= 2x unloaded latency */
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
 * Mess simulator curve directory: SUB/bwlat_<R>.txt in the output directory
 * (out.h) per read percentage R, rows "bandwidth_MBps latency_ns" from the
 * smoothed values, ascending in bandwidth.  Curves that round to the same R
 * are merged (points sorted).  On error returns -1 with errno set and the
 * reason in err (and outdir_error() for I/O errors).
 */
struct outdir;
int mess_write_bwlat_dir(const struct mess_family *f, struct outdir *od, const char *sub,
                         char *err, size_t errlen);

#endif
