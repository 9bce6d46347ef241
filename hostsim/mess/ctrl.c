/*
 * messsim feedback controller (messsim.h, docs/mess.md "The controller").
 *
 * Per request: count it, note the latest cycle, return the held latency.
 * Per window of N requests (integer arithmetic throughout):
 *   obs  = N x line bytes / (cycles since the last window closed), kB/s
 *   R    = the read share, estimated like est; every curve quantity below
 *          (B_max, L_max, L(est), B(T)) is the blend of the two curves
 *          whose even ratios bracket R, weighted by R's place between them
 *   est += (obs - est) x convergence            (Q16 fixed point)
 *   lower branch (est within the curve's highest bandwidth B_max, not
 *   throttled): L = the curve's latency at est on the rising branch, the
 *   first crossing in increasing latency (messsim_curve_ps_at);
 *   throttle (est above B_max, or still throttled): a latency T that starts
 *   at the highest bandwidth's latency L_max and moves every window by
 *   (est - B(T)) x T / B_max x convergence (an integral term as slow as
 *   the estimate, so the two do not oscillate against each other: without
 *   the convergence factor it settles 16 % off on a wave, see test_messsim
 *   ctrl_wave_falling_branch; relative to T, so that a large overflow,
 *   which only open-loop traffic builds, unwinds as fast as it grew),
 *   where B(T) is the curve's bandwidth at
 *   latency T (past the last point: the last point's).  T walks on along a
 *   wave's falling branch while the CPU side still asks for more than the
 *   curve gives there, and grows past the curve's end (the overflow term)
 *   while it asks for more than the last point; when T falls back to L_max
 *   the lower branch takes over again.  L = T.
 *   held latency = (L - on-chip) x clock in 1/65536 cycle, at least one
 *   cycle; each request gets whole cycles and carries the fraction to the
 *   next (so the mean over requests is exact).
 */
#include "mess/messsim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct messsim {
	struct messsim_family fam;
	uint64_t freq_khz, line, window, window_cycles;
	int64_t conv_q16, onchip_ps;
	/* the open window */
	uint64_t n, nw, start, last;
	int started;
	/* controller state */
	int64_t est, lt, rd_est;
	uint64_t hold_q16, frac;  /* held latency, 1/65536 cycle; carried fraction */
	int throttled;
	struct messsim_stats st;
};

#define LT_MAX 1000000000000ll /* 1 s in ps (the loader's limit): the throttle's ceiling */

void messsim_opts_default(struct messsim_opts *o)
{
	memset(o, 0, sizeof *o);
	o->window = 1000;
	o->convergence = 0.05;
	o->line = 64;
}

static struct messsim *fail(struct messsim *s, char *err, size_t errlen, const char *fmt, ...)
{
	if (errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	if (s) {
		messsim_family_free(&s->fam);
		free(s);
	}
	return NULL;
}

/* Latency in 1/65536 cycle, at least one cycle. */
static uint64_t to_q16(const struct messsim *s, int64_t ps)
{
	ps -= s->onchip_ps;
	__extension__ unsigned __int128 c = ps > 0 ? (unsigned __int128)ps * s->freq_khz * 65536 / 1000000000u : 0;
	return c < 65536 ? 65536 : (uint64_t)c;
}

static void hold(struct messsim *s, int64_t ps)
{
	s->hold_q16 = to_q16(s, ps);
	s->st.hold_cycles = (s->hold_q16 + 32768) >> 16;
}

struct messsim *messsim_open_family(struct messsim_family *f, const struct messsim_opts *o, char *err,
                                    size_t errlen)
{
	struct messsim *s = calloc(1, sizeof *s);
	if (!s) {
		messsim_family_free(f);
		return fail(NULL, err, errlen, "out of memory");
	}
	s->fam = *f;
	memset(f, 0, sizeof *f); /* taken over */
	for (unsigned i = 0; i < MESSSIM_NRATIOS; i++)
		if (!s->fam.c[i].n)
			return fail(s, err, errlen, "family has no curve for read %% %u (not finished?)", 2 * i);
	if (!(o->freq_mhz >= 0.001 && o->freq_mhz <= 1e6))
		return fail(s, err, errlen, "clock %g MHz outside 0.001..1e6", o->freq_mhz);
	if (o->window < 1 || o->window > 100000000)
		return fail(s, err, errlen, "window %u requests outside 1..100000000", o->window);
	if (!(o->convergence >= 1.0 / 65536 && o->convergence <= 1))
		return fail(s, err, errlen, "convergence %g outside 1/65536..1", o->convergence);
	if (!(o->onchip_ns >= 0 && o->onchip_ns <= MESSSIM_MAX_NS))
		return fail(s, err, errlen, "on-chip latency %g ns outside 0..1e9", o->onchip_ns);
	if (o->line < 1 || o->line > 65536)
		return fail(s, err, errlen, "request size %u bytes outside 1..65536", o->line);
	s->freq_khz = (uint64_t)(o->freq_mhz * 1e3 + 0.5);
	s->line = o->line;
	s->window = o->window;
	s->window_cycles = o->window_cycles;
	s->conv_q16 = (int64_t)(o->convergence * 65536 + 0.5);
	s->onchip_ps = (int64_t)(o->onchip_ns * 1e3 + 0.5);
	/* until the first window closes: the unloaded latency of the all-reads curve */
	const struct messsim_curve *c = &s->fam.c[MESSSIM_NRATIOS - 1];
	s->st.curve_ps = c->ps[0];
	s->st.read_pct = 100;
	s->rd_est = 1 << 20;
	hold(s, c->ps[0]);
	for (unsigned i = 0; i < MESSSIM_NRATIOS; i++) {
		const struct messsim_curve *k = &s->fam.c[i];
		if ((uint64_t)k->kbps[k->imax] > s->st.peak_kbps)
			s->st.peak_kbps = (uint64_t)k->kbps[k->imax];
	}
	return s;
}

struct messsim *messsim_open(const char *path, const struct messsim_opts *o, char *err, size_t errlen)
{
	struct messsim_family f;
	struct messsim_load_opts lo = { o->curve_mhz };
	if (messsim_family_load(path, &lo, &f, err, errlen))
		return NULL;
	return messsim_open_family(&f, o, err, errlen);
}

/* a + (b - a) x w / 2^20, rounded to nearest */
static int64_t blend(int64_t a, int64_t b, int64_t w)
{
	__extension__ __int128 d = (__int128)(b - a) * w;
	return a + (int64_t)((d + (d < 0 ? -(1 << 19) : 1 << 19)) / (1 << 20));
}

static void window_close(struct messsim *s)
{
	uint64_t el = s->last - s->start;
	if (!el)
		el = 1;
	__extension__ unsigned __int128 bytes = (unsigned __int128)s->n * s->line * s->freq_khz;
	/* (a window closed by time has fewer than N requests: n counts them) */
	int64_t obs = (int64_t)(bytes / el);
	/* read share in parts per 2^20, estimated like the bandwidth */
	int64_t rd = (int64_t)(((s->n - s->nw) << 20) / s->n);
	s->rd_est += (rd - s->rd_est) * s->conv_q16 / 65536;
	/* the two curves whose ratios bracket the estimate, and its place
	 * between them (w, parts per 2^20): every curve quantity below is
	 * blended, so a read share near an odd percentage does not flip
	 * between two curves window by window */
	int64_t x = s->rd_est * 50;
	x = x < 0 ? 0 : x > (int64_t)(MESSSIM_NRATIOS - 1) << 20 ? (int64_t)(MESSSIM_NRATIOS - 1) << 20 : x;
	unsigned lo = (unsigned)(x >> 20), idx = (unsigned)((x + (1 << 19)) >> 20);
	int64_t w = x & ((1 << 20) - 1);
	const struct messsim_curve *c = &s->fam.c[lo], *c2 = &s->fam.c[w ? lo + 1 : lo];
	s->est += (obs - s->est) * s->conv_q16 / 65536;

	int64_t bmax = blend(c->kbps[c->imax], c2->kbps[c2->imax], w), lmax = blend(c->ps[c->imax], c2->ps[c2->imax], w), lat;
	if (bmax < 1)
		bmax = 1;
	if (s->est > bmax)
		s->st.overflow_windows++;
	if (s->throttled && s->lt <= lmax) /* the ratio changed to a curve whose maximum lies later */
		s->throttled = 0;
	if (!s->throttled && s->est > bmax) {
		s->throttled = 1;
		s->lt = lmax;
	}
	if (s->throttled) {
		int64_t bt = blend(messsim_curve_kbps_at(c, s->lt), messsim_curve_kbps_at(c2, s->lt), w);
		__extension__ __int128 step = (__int128)(s->est - bt) * s->lt / bmax * s->conv_q16 / 65536;
		if (step > LT_MAX - s->lt)
			step = LT_MAX - s->lt;
		s->lt += (int64_t)step;
		if (s->lt <= lmax) {
			s->throttled = 0;
			lat = blend(messsim_curve_ps_at(c, s->est), messsim_curve_ps_at(c2, s->est), w);
		} else {
			lat = s->lt;
			s->st.throttled_windows++;
		}
	} else {
		lat = blend(messsim_curve_ps_at(c, s->est), messsim_curve_ps_at(c2, s->est), w);
	}
	int64_t d = obs - s->est;
	if ((d < 0 ? -d : d) * 50 <= obs)
		s->st.converged_windows++;
	s->st.windows++;
	s->st.obs_kbps = obs;
	s->st.est_kbps = s->est;
	s->st.read_pct = 2 * idx;
	s->st.curve_ps = lat;
	hold(s, lat);
	s->n = s->nw = 0;
	s->start = s->last;
}

uint64_t messsim_request(struct messsim *s, int is_write, uint64_t cycle)
{
	if (!s->started) {
		s->started = 1;
		s->start = s->last = cycle;
	}
	if (cycle > s->last)
		s->last = cycle;
	s->st.requests++;
	if (is_write) {
		s->nw++;
		s->st.writes++;
	} else {
		s->st.reads++;
	}
	/* whole cycles, the fraction carried to the next request: the mean is
	 * the curve's latency, not its rounding */
	uint64_t f = s->frac + (s->hold_q16 & 0xffff), lat = s->hold_q16 >> 16;
	s->frac = f & 0xffff;
	lat += f >> 16;
	if (++s->n >= s->window || (s->window_cycles && s->last - s->start >= s->window_cycles))
		window_close(s);
	return lat;
}

const struct messsim_family *messsim_family_of(const struct messsim *s) { return &s->fam; }

void messsim_stats(const struct messsim *s, struct messsim_stats *st) { *st = s->st; }

void messsim_close(struct messsim *s)
{
	if (!s)
		return;
	messsim_family_free(&s->fam);
	free(s);
}
