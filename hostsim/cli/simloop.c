/* Request streams for rvmess sim loop / bench (simloop.h). */
#include "cli/simloop.h"

#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* the next request's kind: `read_pct` reads per hundred, spread evenly */
static int next_write(double *acc, double read_pct)
{
	*acc += read_pct;
	if (*acc < 100)
		return 1;
	*acc -= 100;
	return 0;
}

/* A min-heap of return cycles: take the earliest, put back its next one. */
static void heap_replace_top(uint64_t *h, size_t k, uint64_t v)
{
	size_t j = 0;
	for (;;) {
		size_t c = 2 * j + 1;
		if (c >= k)
			break;
		if (c + 1 < k && h[c + 1] < h[c])
			c++;
		if (h[c] >= v)
			break;
		h[j] = h[c];
		j = c;
	}
	h[j] = v;
}

static int closed(struct messsim *s, const struct simloop *o, unsigned k, uint64_t n, struct simloop_result *r,
                  int timed)
{
	uint64_t *h = calloc(k ? k : 1, sizeof *h), t = 0, t0 = 0, onchip = (uint64_t)(o->onchip_ns * o->freq_mhz / 1e3 + 0.5);
	if (!h)
		return -1;
	double acc = 0, sum = 0, t_start = timed ? now_s() : 0;
	/* the bandwidth of the second half over a whole number of round
	 * trips: from the middle request to the one K x m requests later (in a
	 * steady loop request i + K is the one issued when request i returns;
	 * K requests issued at one cycle then count whole, not in part) */
	uint64_t cnt = 0, i0 = n / 2, i1 = n - 1 - i0 >= k ? i0 + (n - 1 - i0) / k * k : n - 1, t1 = 0;
	for (uint64_t i = 0; i < n; i++) {
		t = h[0];
		uint64_t l = messsim_request(s, next_write(&acc, o->read_pct), t) + onchip;
		heap_replace_top(h, k, t + l);
		if (i == i0)
			t0 = t;
		if (i == i1)
			t1 = t;
		if (i > i0) {
			sum += (double)l;
			cnt++;
		}
	}
	r->seconds = timed ? now_s() - t_start : 0;
	free(h);
	r->requests = n;
	r->mbps = t1 > t0 ? (double)(i1 - i0) * o->line * o->freq_mhz / (double)(t1 - t0) : 0;
	r->lat_ns = cnt ? sum / (double)cnt * 1e3 / o->freq_mhz : 0;
	return 0;
}

int simloop_closed(struct messsim *s, const struct simloop *o, unsigned k, uint64_t n, struct simloop_result *r)
{
	return closed(s, o, k, n, r, 0);
}

void simloop_equilibrium(const struct messsim_curve *c, const struct simloop *o, double k, double *mbps, double *ns)
{
	double q = k * o->line * 1e3; /* K x line in MB/s x ns */
	double bmax = (double)c->kbps[c->imax] / 1e3, lmax = (double)c->ps[c->imax] / 1e3;
	if (q / lmax <= bmax) { /* the lower branch: bisection on the bandwidth */
		double lo = 0, hi = bmax;
		for (int i = 0; i < 100; i++) {
			double m = (lo + hi) / 2, l = (double)messsim_curve_ps_at(c, (int64_t)(m * 1e3)) / 1e3;
			if (q / l > m)
				lo = m;
			else
				hi = m;
		}
		*mbps = lo;
		*ns = (double)messsim_curve_ps_at(c, (int64_t)(lo * 1e3)) / 1e3;
		return;
	}
	/* the throttle: from L_max up in 1 % steps to the first latency where
	 * the loop asks no more than the curve gives, then bisection */
	double lo = lmax, hi = lmax;
	while (q / hi > (double)messsim_curve_kbps_past(c, (int64_t)(hi * 1e3)) / 1e3 && hi < MESSSIM_MAX_NS)
		lo = hi, hi *= 1.01;
	for (int i = 0; i < 100; i++) {
		double m = (lo + hi) / 2;
		if (q / m > (double)messsim_curve_kbps_past(c, (int64_t)(m * 1e3)) / 1e3)
			lo = m;
		else
			hi = m;
	}
	*mbps = q / hi;
	*ns = hi;
}

static double lat_at(const struct messsim_curve *a, const struct messsim_curve *b, double w, double mbps)
{
	int64_t k = (int64_t)(mbps * 1e3 + 0.5);
	return ((1 - w) * (double)messsim_curve_ps_at(a, k) + w * (double)messsim_curve_ps_at(b, k)) / 1e3;
}

void simloop_reference(const struct messsim_family *f, double read_pct, double mbps, double sat_ns,
                       struct simloop_ref *r)
{
	double x = read_pct / 2;
	x = x < 0 ? 0 : x > MESSSIM_NRATIOS - 1 ? MESSSIM_NRATIOS - 1 : x;
	unsigned lo = (unsigned)x;
	double w = x - lo;
	const struct messsim_curve *a = &f->c[lo], *b = &f->c[w > 0 ? lo + 1 : lo];
	double maxa = 0, maxb = 0;
	for (size_t i = 0; i < a->n; i++)
		maxa = (double)a->ps[i] > maxa ? (double)a->ps[i] : maxa;
	for (size_t i = 0; i < b->n; i++)
		maxb = (double)b->ps[i] > maxb ? (double)b->ps[i] : maxb;
	r->bmax = ((1 - w) * (double)a->kbps[a->imax] + w * (double)b->kbps[b->imax]) / 1e3;
	r->maxlat = ((1 - w) * maxa + w * maxb) / 1e3;
	r->unloaded = lat_at(a, b, w, 0);
	r->lat = lat_at(a, b, w, mbps);
	/* the first bandwidth (steps of 0.1 % of the highest, then bisection)
	 * where the latency reaches sat_ns */
	double th = sat_ns > 0 ? sat_ns : 2 * r->unloaded, lo_b = 0, hi_b = r->bmax;
	for (int i = 1; i <= 1000; i++) {
		double m = r->bmax * i / 1000;
		if (lat_at(a, b, w, m) >= th) {
			hi_b = m;
			break;
		}
		lo_b = m;
	}
	for (int i = 0; i < 60; i++) {
		double m = (lo_b + hi_b) / 2;
		if (lat_at(a, b, w, m) >= th)
			hi_b = m;
		else
			lo_b = m;
	}
	r->sat2x = hi_b;
}

#define CHUNK 65536

int simloop_bench(struct messsim *s, const struct simloop *o, enum simloop_stream kind, double mbps, unsigned burst,
                  unsigned k, uint64_t n, struct simloop_result *r)
{
	if (kind == SIMLOOP_CLOSED)
		return closed(s, o, k, n, r, 1);
	uint64_t *cyc = malloc(CHUNK * sizeof *cyc);
	int *wr = malloc(CHUNK * sizeof *wr);
	if (!cyc || !wr) {
		free(cyc);
		free(wr);
		return -1;
	}
	/* the gap between requests (bursts: between bursts) in 2^-16 cycle */
	double gap = (double)o->line * o->freq_mhz / mbps * 65536 * (kind == SIMLOOP_BURSTY ? burst : 1);
	uint64_t g = (uint64_t)(gap + 0.5), t = 0, done = 0, cnt = 0;
	double acc = 0, sum = 0, secs = 0;
	if (!g)
		g = 1;
	while (done < n) {
		uint64_t m = n - done < CHUNK ? n - done : CHUNK;
		for (uint64_t i = 0; i < m; i++) {
			if (kind == SIMLOOP_STEADY || (done + i) % burst == 0)
				t += g;
			cyc[i] = t >> 16;
			wr[i] = next_write(&acc, o->read_pct);
		}
		/* the timed part: the simulator alone (the sum of latencies keeps
		 * the calls from being optimised away and gives the mean) */
		uint64_t lsum = 0, from = done < n / 2 ? n / 2 - done : 0;
		double t0 = now_s();
		for (uint64_t i = 0; i < from && i < m; i++)
			messsim_request(s, wr[i], cyc[i]);
		for (uint64_t i = from; i < m; i++)
			lsum += messsim_request(s, wr[i], cyc[i]);
		secs += now_s() - t0;
		if (from < m) {
			sum += (double)lsum;
			cnt += m - from;
		}
		done += m;
	}
	free(cyc);
	free(wr);
	r->requests = n;
	r->seconds = secs;
	r->mbps = mbps;
	r->lat_ns = cnt ? (sum / (double)cnt + o->onchip_ns * o->freq_mhz / 1e3) * 1e3 / o->freq_mhz : 0;
	return 0;
}
