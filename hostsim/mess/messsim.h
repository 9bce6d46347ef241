/*
 * messsim: the Mess analytical memory simulator (docs/mess.md).
 *
 * A memory model driven by measured bandwidth-latency curves: every window
 * of N requests (lasting at least the held latency) it measures the
 * bandwidth and read share the CPU side produced, moves its estimates part
 * of the way toward them, reads the latency of the curve for that read
 * share at that bandwidth, subtracts the on-chip part of the load-to-use
 * latency and returns that latency for every request of the next window.
 * Beyond a curve's highest bandwidth a throttle latency grows until the
 * CPU side is back on the curve.
 *
 * Plain C11, no global state, no exit(): every error is a message in the
 * caller's buffer.  A Verilator, gem5 or other simulator includes this
 * header and links the sources of hostsim/mess/ (family.c, ctrl.c).
 *
 * Units inside: bandwidth in kB/s (1e3 B/s), latency in ps, time in cycles
 * of the caller's clock; the controller runs in integer arithmetic.
 */
#ifndef MESSSIM_H
#define MESSSIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MESSSIM_NRATIOS 51        /* read % 0, 2, ..., 100 */
#define MESSSIM_MAX_MBPS 1e9      /* 1 PB/s: larger values are refused */
#define MESSSIM_MAX_NS 1e9        /* 1 s per load */
#define MESSSIM_MAX_POINTS 100000 /* rows per curve */

/* ---- curve family ------------------------------------------------------- */

enum messsim_how {
	MESSSIM_ABSENT = 0,       /* not measured, no neighbour (only before finish) */
	MESSSIM_MEASURED,         /* read from the input */
	MESSSIM_INTERPOLATED,     /* between the measured neighbours lo and hi */
	MESSSIM_EXTRAPOLATED,     /* a copy of the nearest measured ratio lo */
};

/* One curve: points in increasing latency (ties: increasing bandwidth), the
 * order along which load grows, also through a wave. */
struct messsim_curve {
	unsigned read_pct;
	enum messsim_how how;
	unsigned lo, hi;          /* the measured ratios it comes from */
	size_t n;
	int64_t *kbps;            /* bandwidth, kB/s */
	int64_t *ps;              /* latency, ps */
	size_t imax;              /* first point of the highest bandwidth */
};

struct messsim_family {
	struct messsim_curve c[MESSSIM_NRATIOS];
	char format[48];          /* what was read: "bwlat directory", "Mess 2 CSV", ... */
	unsigned measured;        /* ratios read from the input */
	char *warnings;           /* NULL, or one line per file whose rows were adjusted:
	                             "FILE:LINE: N rows adjusted (smoothing artefacts):
	                             line L: ...; ..." (messsim_family_load) */
};

/* How to read latencies: ns (curve_mhz 0), or cycles at curve_mhz MHz. */
struct messsim_load_opts {
	double curve_mhz;
};

/*
 * Load a family.  `path` is one of:
 *   - a Mess simulator curve directory: bwlat_<R>.txt, R = 0, 2, ..., 100
 *     (some may be missing), rows "bandwidth_MBps latency" in any order,
 *     blank lines and '#' comments ignored;
 *   - a folder holding such a directory as bwlat/ (rvmess parse's output),
 *     or, without one, a mess.csv;
 *   - a Mess 2 CSV (read_pct_rounded, bandwidth_smooth|bandwidth_mean GB/s,
 *     latency_smooth|latency_mean ns) or a Mess 1 CSV (rd_percentage,
 *     bandwidth_smooth|bandwidth_mean GB/s, latency_smooth|latency_mean in
 *     cycles: needs curve_mhz), columns by name, quoted headers and empty
 *     cells in other columns accepted; the _smooth pair when the header
 *     has both, else the _mean pair.
 * Missing ratios are interpolated between measured neighbours, ratios
 * outside the measured range copied from the nearest (see `how`).
 * Returns 0, or -1 with "FILE:LINE: reason" (or "FILE: reason") in err.
 */
int messsim_family_load(const char *path, const struct messsim_load_opts *lo, struct messsim_family *f,
                        char *err, size_t errlen);

/* Building a family by hand (tests, synthetic curves): init, set measured
 * curves (points in any order; MB/s and ns), finish (sort, check, fill the
 * missing ratios).  0 or -1 + err. */
void messsim_family_init(struct messsim_family *f);
int messsim_family_set(struct messsim_family *f, unsigned read_pct, size_t n, const double *mbps,
                       const double *ns, char *err, size_t errlen);
int messsim_family_finish(struct messsim_family *f, char *err, size_t errlen);
void messsim_family_free(struct messsim_family *f);
/* One line per ratio: "R measured|interpolated from A and B|extrapolated
 * from A, N points, max MBPS MB/s at NS ns". */
void messsim_family_describe(const struct messsim_family *f, char *buf, size_t len);

/*
 * A family from few kernels (docs/mess.md "Curves from a few kernels"): a
 * Mess 2 CSV with the columns pause, rw_ratio (the kernel),
 * rd_percentage_actual_mean (a fraction 0..1), bandwidth_mean (GB/s) and
 * latency_mean (ns).  At every pause, the kernels' points are ordered by
 * their measured read share; ratio R gets the point interpolated between
 * the two kernels whose shares bracket R; outside the kernels' range at
 * that pause, the nearest kernel's point (a copy, as ratios outside the
 * measured range are copied).  Each curve also gets a zero-bandwidth
 * anchor at the family's lowest latency.
 * 0, or -1 + "FILE:LINE: reason".
 */
int messsim_family_from_kernels(const char *csv, struct messsim_family *f, char *err, size_t errlen);
/* Write dir/bwlat_0.txt .. bwlat_100.txt (rows "MB/s ns", highest latency
 * first: descending bandwidth on a curve without a wave) and dir/README
 * (messsim_family_describe).  dir must exist.  0 or -1 + err. */
int messsim_family_write(const struct messsim_family *f, const char *dir, const char *origin, char *err,
                         size_t errlen);

/*
 * Latency of curve c at bandwidth kbps on the lower branch: the first point
 * (in increasing latency) where the curve reaches kbps, linear between the
 * points around it; the first point's latency below it, the highest
 * bandwidth's latency above it.
 */
int64_t messsim_curve_ps_at(const struct messsim_curve *c, int64_t kbps);
/* Bandwidth of curve c at latency ps (points in latency order, linear; the
 * end values outside). */
int64_t messsim_curve_kbps_at(const struct messsim_curve *c, int64_t ps);
/* The throttle's B(T): the same, but past the last point of a curve whose
 * last segment still gains bandwidth, the curve goes on along that segment
 * (a curve ending on a wave or a plateau keeps its last point's bandwidth).
 * A closed loop's latency past the end then rises with the requests in
 * flight no faster than on the curve's last segment (docs/mess.md "The
 * controller"). */
int64_t messsim_curve_kbps_past(const struct messsim_curve *c, int64_t ps);

/*
 * The memory stress score of a window at bandwidth kbps on curve c (Mess's
 * profiling; docs/mess.md): 0.5 x position + 0.5 x slope.  position =
 * (L(b) - L0) / (Lmax - L0), L(b) the curve's latency at b (lower branch),
 * L0 its first point's, Lmax its highest bandwidth's; slope = the local
 * dL/db over the slope of the last segment before the highest bandwidth,
 * at most 1.  0 on the unloaded plateau, 1 at or beyond the highest
 * bandwidth.  *lat_ns gets L(b).
 */
double messsim_stress_score(const struct messsim_curve *c, int64_t kbps, double *lat_ns);

/* ---- the simulator ------------------------------------------------------ */

struct messsim_opts {
	double freq_mhz;          /* the clock of `cycle` and of returned latencies (required) */
	unsigned window;          /* requests per window: 1000 (a window also lasts
	                             at least the held latency: one round trip) */
	uint64_t window_cycles;   /* a window also closes within a few requests of
	                             this many cycles after it opened (0: never):
	                             more windows at low bandwidth, where N requests
	                             take long; 0 */
	double convergence;       /* share of the way the estimate moves per window: 0.05 */
	double onchip_ns;         /* on-chip part of the curves' load-to-use latency: 0 */
	unsigned line;            /* bytes per request: 64 */
	double curve_mhz;         /* curves' latencies in cycles at this clock; 0: ns */
};
void messsim_opts_default(struct messsim_opts *o);

struct messsim;

/* Open a family (messsim_family_load) with options; NULL + err. */
struct messsim *messsim_open(const char *path, const struct messsim_opts *o, char *err, size_t errlen);
/* Open with a finished family, which the simulator takes over (freed by
 * messsim_close, also on failure).  NULL + err. */
struct messsim *messsim_open_family(struct messsim_family *f, const struct messsim_opts *o, char *err,
                                    size_t errlen);
/* The latency in cycles (>= 1) of one request issued at `cycle`; is_write
 * is 0 for a read, 1 for a write (it is added to the window's write count
 * as it is).  Whole cycles; over each chunk of requests the held latency's
 * fraction is given as one cycle more to some of them, the rest carried, so
 * the mean is exact.  The per-request path is a count and a compare; the
 * window's work runs once per chunk. */
uint64_t messsim_request(struct messsim *s, int is_write, uint64_t cycle);
const struct messsim_family *messsim_family_of(const struct messsim *s);

struct messsim_stats {
	uint64_t requests, reads, writes;
	uint64_t windows;         /* closed windows */
	uint64_t overflow_windows;/* windows whose estimate exceeded the curve's highest bandwidth */
	uint64_t throttled_windows;/* windows held on the throttle (past the highest bandwidth) */
	uint64_t converged_windows;/* windows whose estimate was within 2 % of the observed bandwidth */
	/* the last closed window */
	int64_t obs_kbps, est_kbps;
	unsigned read_pct;        /* its read share, rounded to the curve's ratio */
	int64_t curve_ps;         /* latency read from the curve (incl. throttle) */
	uint64_t hold_cycles;     /* latency held until the next window closes, rounded
	                             (requests get whole cycles, the fraction carried) */
	uint64_t peak_kbps;       /* highest bandwidth over the family */
};
void messsim_stats(const struct messsim *s, struct messsim_stats *st);
void messsim_close(struct messsim *s);

#ifdef __cplusplus
}
#endif
#endif
