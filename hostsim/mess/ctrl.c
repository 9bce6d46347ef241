/*
 * messsim feedback controller (messsim.h, docs/mess.md "The controller").
 *
 * Per request (the fast path, messsim_request): count the write, count the
 * request down to the next check, return the latency armed for this part
 * of the chunk.  Nothing else: the window, and the held latency's fraction
 * (one cycle more for the last requests of a chunk, arm()), are kept by
 * the checks (check()), which run once or twice per chunk of requests.
 *
 * A window closes at the first check where it holds N requests, or has
 * lasted mess-window-cycles (when set), and has lasted at least the held
 * latency: a window shorter than one round trip of the traffic measures a
 * burst, not a rate (K requests always outstanding arrive in bursts of K
 * one latency apart; with K > N a window of N requests fell inside a burst,
 * read an enormous bandwidth, and the throttle collapsed the traffic).
 *
 * Per window (integer arithmetic throughout):
 *   bytes and cycles of the window move part of the way (convergence c,
 *   Q16) into running sums A and T; est = A / T, the bandwidth over the
 *   last ~1/c windows (the ratio of the sums, not the mean of the windows'
 *   rates, which bursty windows bias upward); the read share likewise;
 *   every curve quantity below (B_max, L_max, L(est), B(T)) is the blend
 *   of the two curves whose even ratios bracket the read share, weighted
 *   by its place between them;
 *   lower branch (est within the curve's highest bandwidth B_max, not
 *   throttled): L = the curve's latency at est on the rising branch, the
 *   first crossing in increasing latency (messsim_curve_ps_at);
 *   throttle (est above B_max, or still throttled): a latency T that starts
 *   at the highest bandwidth's latency L_max and moves every window by
 *   (obs - B(T)) x T / B_max x c, obs being the window's own bandwidth:
 *   not the estimate, which lags by ~1/c windows (an integral term fed by a
 *   lagging signal rings: test_messsim ctrl_closed_loop_deep), but with the
 *   convergence factor, which averages the windows' noise (without it T
 *   follows that noise: ctrl_throttle_noise); relative to T, so that a
 *   large overflow, which only open-loop traffic builds, unwinds as fast as
 *   it grew; B(T) is the curve's bandwidth at latency T (past the last
 *   point: on along the last segment when it still gains bandwidth, else
 *   the last point's: messsim_curve_kbps_past; a closed loop's latency
 *   past the end then rises with the requests in flight no faster than on
 *   the last segment).  T walks on along a wave's falling branch
 *   while the CPU side still asks for more than the curve gives there, and
 *   past the curve's end (the overflow term) while it asks for more than
 *   the end gives; when T falls back to L_max the lower branch takes over
 *   again.  L = T.  In a closed loop T settles where Little's law puts it.
 *   held latency = (L - on-chip) x clock in 2^-32 cycle, at least one
 *   cycle; requests get whole cycles, the fraction spread over each chunk
 *   and carried (arm()), so the mean over requests is exact.
 */
#include "mess/messsim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct messsim {
	/* the per-request path: these three, in one cache line */
	uint32_t left;            /* requests until the next check */
	uint32_t phase2;          /* then this many more, one cycle longer (the
	                             held latency's fraction: check()) */
	uint32_t nw;              /* writes in the open window (not beside `left`: a
	                             compiler would pair the two in a vector) */
	uint32_t armed;           /* the chunk `left` and `phase2` count down */
	uint64_t lat;             /* the latency of the requests until the next check */
	uint64_t step;            /* held latency, 2^-32 cycle (32.32) */
	uint64_t carry;           /* the fraction not yet given, 2^-32 cycle */
	/* the open window */
	uint64_t n;               /* requests before the current chunk */
	uint64_t start, last;     /* its first cycle; the latest cycle a check saw */
	uint64_t span;            /* the held latency in whole cycles: a window's least length */
	uint64_t prev_n, prev_el; /* the last closed window's requests and cycles */
	int started;
	/* options */
	struct messsim_family fam;
	uint64_t freq_khz, line, window, window_cycles;
	int64_t conv_q16, onchip_ps;
	/* controller state: running sums (Q16) of bytes, cycles, requests, reads */
	__extension__ unsigned __int128 sa, st_, sn, sr;
	int64_t est, lt;
	int throttled;
	/* closed windows' totals (requests in the open window are n + armed - left) */
	uint64_t done_req, done_wr;
	struct messsim_stats st;
};

#define LT_MAX 1000000000000ll /* 1 s in ps (the loader's limit): the throttle's ceiling */
#define WIN_CAP (1u << 31)     /* a window closes by this many requests whatever its length */

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

/* Hold latency ps (load-to-use) until the next window closes: in 2^-32
 * cycle after the on-chip part, at least one cycle. */
static void hold(struct messsim *s, int64_t ps)
{
	ps -= s->onchip_ps;
	__extension__ unsigned __int128 c =
		ps > 0 ? ((unsigned __int128)ps * s->freq_khz << 32) / 1000000000u : 0;
	uint64_t q = c < ((unsigned __int128)1 << 32) ? (uint64_t)1 << 32
	           : c > (unsigned __int128)UINT64_MAX >> 1 ? UINT64_MAX >> 1 : (uint64_t)c;
	s->step = q;
	s->span = q >> 32;
	s->st.hold_cycles = (q + ((uint64_t)1 << 31)) >> 32;
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
	/* the first request is a check: it opens the window */
	s->left = s->armed = 1;
	/* until the first window closes: the unloaded latency of the all-reads curve */
	const struct messsim_curve *c = &s->fam.c[MESSSIM_NRATIOS - 1];
	s->st.curve_ps = c->ps[0];
	s->st.read_pct = 100;
	hold(s, c->ps[0]);
	s->lat = s->step >> 32;
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

/* sum += (x - sum) x c, all Q16 (x given whole) */
static void ewma(const struct messsim *s, unsigned __int128 *sum, uint64_t x)
{
	__extension__ __int128 d = ((__int128)x << 16) - (__int128)*sum;
	*sum = (unsigned __int128)((__int128)*sum + d * s->conv_q16 / 65536);
}

static void window_close(struct messsim *s)
{
	uint64_t el = s->last - s->start, n = s->n, nw = s->nw < n ? s->nw : n;
	uint64_t bytes = n * s->line;
	/* what this window saw; the running sums move toward it */
	int64_t obs = (int64_t)((unsigned __int128)bytes * s->freq_khz / (el ? el : 1));
	ewma(s, &s->sa, bytes);
	ewma(s, &s->st_, el);
	ewma(s, &s->sn, n);
	ewma(s, &s->sr, n - nw);
	s->est = s->st_ ? (int64_t)(s->sa * s->freq_khz / s->st_) : obs;
	/* read share in parts per 2^20 */
	int64_t rd = s->sn ? (int64_t)((s->sr << 20) / s->sn) : 1 << 20;
	/* the two curves whose ratios bracket the read share, and its place
	 * between them (w, parts per 2^20): every curve quantity below is
	 * blended, so a read share near an odd percentage does not flip
	 * between two curves window by window */
	int64_t x = rd * 50;
	x = x < 0 ? 0 : x > (int64_t)(MESSSIM_NRATIOS - 1) << 20 ? (int64_t)(MESSSIM_NRATIOS - 1) << 20 : x;
	unsigned lo = (unsigned)(x >> 20), idx = (unsigned)((x + (1 << 19)) >> 20);
	int64_t w = x & ((1 << 20) - 1);
	const struct messsim_curve *c = &s->fam.c[lo], *c2 = &s->fam.c[w ? lo + 1 : lo];

	int64_t bmax = blend(c->kbps[c->imax], c2->kbps[c2->imax], w);
	int64_t lmax = blend(c->ps[c->imax], c2->ps[c2->imax], w), lat;
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
		int64_t bt = blend(messsim_curve_kbps_past(c, s->lt), messsim_curve_kbps_past(c2, s->lt), w);
		__extension__ __int128 step = (__int128)(obs - bt) * s->lt / bmax * s->conv_q16 / 65536;
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
	s->done_req += n;
	s->done_wr += nw;
	s->prev_n = n;
	s->prev_el = el;
	s->n = 0;
	s->nw = 0;
	s->start = s->last;
}

/*
 * Arm a chunk of r requests at the held latency: with its fraction f (and
 * the fraction carried from the chunks before), r x f cycles are owed on
 * top of r whole latencies; the last e = floor(r x f + carry) requests of
 * the chunk get one cycle more, the rest is carried.  The mean over
 * requests is the held latency, not its rounding, and the per-request path
 * only returns `lat`.
 */
static void arm(struct messsim *s, uint64_t r)
{
	uint64_t whole = s->step >> 32;
	__extension__ unsigned __int128 x = (unsigned __int128)(s->step & 0xffffffffu) * r + s->carry;
	uint64_t e = (uint64_t)(x >> 32);
	s->carry = (uint64_t)x & 0xffffffffu;
	s->armed = (uint32_t)r;
	if (e == r) {
		s->lat = whole + 1;
		s->left = (uint32_t)r;
		s->phase2 = 0;
	} else {
		s->lat = whole;
		s->left = (uint32_t)(r - e);
		s->phase2 = (uint32_t)e;
	}
}

/* The next chunk: half the requests expected before the window reaches
 * `until` cycles at its rate so far (the last window's when no cycle has
 * passed yet), at least one, at most `most`. */
static uint64_t expect(const struct messsim *s, uint64_t n, uint64_t el, uint64_t until, uint64_t most)
{
	uint64_t rn = el ? n : s->prev_n, re = el ? el : s->prev_el;
	if (!re || el >= until)
		return 1;
	__extension__ unsigned __int128 e = (unsigned __int128)(until - el) * rn / re / 2;
	return e < 1 ? 1 : e > most ? most : (uint64_t)e;
}

/*
 * A check: `left` has been counted down (this request is the last of it).
 * At the end of a chunk's first part, its last part gets one cycle more.
 * At the end of a chunk, close the window when it is due, then arm the
 * next chunk: the requests still missing to N, or, when the window also
 * closes by time, half of those expected before that time (expect()), so
 * that it closes within a few requests of it; while N is reached but the
 * window is shorter than the held latency, half of those expected before
 * it is that long, at most as many as it holds (a window inside a burst
 * reads no rate: its chunks only double).
 */
static __attribute__((noinline)) uint64_t check(struct messsim *s, uint64_t cycle)
{
	uint64_t lat = s->lat;
	if (s->phase2) {
		s->lat = lat + 1;
		s->left = s->phase2;
		s->phase2 = 0;
		return lat;
	}
	s->n += s->armed;
	if (!s->started) {
		s->started = 1;
		s->start = s->last = cycle;
	}
	if (cycle > s->last)
		s->last = cycle;
	uint64_t el = s->last - s->start, n = s->n;
	int due = n >= s->window || (s->window_cycles && el >= s->window_cycles);
	if (n >= WIN_CAP || (due && el >= s->span)) {
		window_close(s);
		n = el = 0;
	} else if (due) { /* long enough in requests, not yet in cycles */
		arm(s, expect(s, n, el, s->span, n));
		return lat;
	}
	uint64_t next = s->window - n;
	if (s->window_cycles)
		next = expect(s, n, el, s->window_cycles, next);
	arm(s, next);
	return lat;
}

uint64_t messsim_request(struct messsim *s, int is_write, uint64_t cycle)
{
	s->nw += (uint32_t)is_write;
	if (__builtin_expect(--s->left == 0, 0))
		return check(s, cycle);
	return s->lat;
}

const struct messsim_family *messsim_family_of(const struct messsim *s) { return &s->fam; }

void messsim_stats(const struct messsim *s, struct messsim_stats *st)
{
	*st = s->st;
	uint64_t open = s->n + s->armed - s->left - s->phase2;
	st->requests = s->done_req + open;
	st->writes = s->done_wr + s->nw;
	st->reads = st->requests - st->writes;
}

void messsim_close(struct messsim *s)
{
	if (!s)
		return;
	messsim_family_free(&s->fam);
	free(s);
}
