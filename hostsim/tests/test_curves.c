/* Unit tests: Mess curve combination, smoothing, metrics, formats, SVG. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/curves.h"
#include "cli/mess_out.h"
#include "cli/out.h"
#include "cli/svg.h"

#define NP 12
static const uint64_t pauses[NP] = {100000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 0};

/* A family whose curve for store share s follows lat = L0 / (1 - bw/peak_s),
 * peak_s = peak * (1 - 0.4 * s/100): more writes saturate lower. */
static size_t make_family(struct mess_sample *out, double L0, double peak, int flat)
{
	size_t n = 0;
	for (unsigned s = 0; s <= 100; s += 20)
		for (int k = 0; k < NP; k++) {
			double peak_s = peak * (1.0 - 0.4 * s / 100.0);
			double bw = peak_s * 0.95 * k / (NP - 1);
			out[n].store_pct = s;
			out[n].pause = pauses[k];
			out[n].bw_gbps = bw;
			out[n].rd_frac = 100.0 / (100.0 + s);
			out[n].lat_ns = flat ? L0 : L0 / (1.0 - bw / peak_s);
			n++;
		}
	return n;
}

static void test_flat_family(void **st)
{
	(void)st;
	struct mess_sample s[6 * NP];
	size_t n = make_family(s, 80.0, 20.0, 1);
	struct mess_family f;
	assert_int_equal(mess_family_build(s, n, &f), 0);
	assert_int_equal(f.ncurves, 6);
	/* read-heavy first: 0 % stores -> 100 % reads; 100 % stores -> 50 % reads */
	assert_int_equal(f.curve[0].store_pct, 0);
	assert_int_equal(f.curve[0].read_pct_rounded, 100);
	assert_int_equal(f.curve[5].store_pct, 100);
	assert_int_equal(f.curve[5].read_pct_rounded, 50);
	assert_int_equal(f.curve[2].read_pct_rounded, 72); /* 100/140 = 71.4 % -> 72 */
	struct mess_metrics m;
	assert_int_equal(mess_metrics(&f, 25.6, 0, &m), 0);
	assert_float_equal(m.unloaded_lat_ns, 80.0, 1e-9);
	assert_int_equal(m.sat_curves, 0);
	assert_int_equal(m.wave_curves, 0);
	assert_float_equal(m.max_lat_min, 80.0, 1e-9);
	assert_float_equal(m.max_lat_max, 80.0, 1e-9);
	for (size_t i = 0; i < f.ncurves; i++)
		for (size_t k = 0; k < f.curve[i].n; k++)
			assert_float_equal(f.curve[i].pt[k].lat_smooth, 80.0, 1e-9);
	mess_metrics_free(&m);
	mess_family_free(&f);
}

static void test_saturation(void **st)
{
	(void)st;
	struct mess_sample s[6 * NP];
	size_t n = make_family(s, 100.0, 20.0, 0);
	struct mess_family f;
	assert_int_equal(mess_family_build(s, n, &f), 0);
	struct mess_metrics m;
	assert_int_equal(mess_metrics(&f, 20.0, 0, &m), 0);
	assert_float_equal(m.unloaded_lat_ns, 100.0, 1e-9);
	assert_int_equal(m.sat_curves, 6);
	for (size_t i = 0; i < f.ncurves; i++) {
		/* lat = L0 / (1 - bw/peak_s) crosses 2 L0 at bw = peak_s / 2; the
		 * metric is the straight line between the two samples around it */
		double peak_s = 20.0 * (1.0 - 0.4 * f.curve[i].store_pct / 100.0), want = -1;
		for (int k = 1; k < NP; k++) {
			double b2 = peak_s * 0.95 * k / (NP - 1), b1 = peak_s * 0.95 * (k - 1) / (NP - 1);
			double l1 = 100.0 / (1 - b1 / peak_s), l2 = 100.0 / (1 - b2 / peak_s);
			if (l2 >= 200.0) {
				want = b1 + (200.0 - l1) / (l2 - l1) * (b2 - b1);
				break;
			}
		}
		assert_true(m.curve[i].saturated);
		assert_float_equal(m.curve[i].sat_bw, want, 1e-9);
		assert_true(m.curve[i].sat_bw < peak_s / 2); /* the chord lies above a convex curve */
	}
	/* more writes -> lower saturated bandwidth */
	assert_true(m.curve[0].sat_bw > m.curve[5].sat_bw);
	assert_float_equal(m.sat_bw_max, m.curve[0].sat_bw, 1e-9);
	assert_float_equal(m.sat_bw_min, m.curve[5].sat_bw, 1e-9);
	assert_int_equal(m.wave_curves, 0);
	mess_metrics_free(&m);
	mess_family_free(&f);
}

/* Curves with different unloaded latencies (80, 90, 100, 110, 120, 200 ns for
 * 0..100 % stores): the family's unloaded latency is their median, 105 ns
 * (not the first curve's 80, the last's 200 nor the mean 116.7), and each
 * curve saturates at its first point whose latency reaches 2 x 105 ns. */
static void test_unloaded_is_median_over_curves(void **st)
{
	(void)st;
	static const double L0[6] = {80, 90, 100, 110, 120, 200};
	struct mess_sample s[6 * NP];
	size_t n = 0;
	for (unsigned c = 0; c < 6; c++)
		for (int k = 0; k < NP; k++) {
			double peak_s = 20.0 * (1.0 - 0.4 * c / 5.0);
			double bw = peak_s * 0.95 * k / (NP - 1);
			s[n].store_pct = 20 * c;
			s[n].pause = pauses[k];
			s[n].bw_gbps = bw;
			s[n].rd_frac = 100.0 / (100.0 + 20 * c);
			s[n].lat_ns = L0[c] / (1.0 - bw / peak_s);
			n++;
		}
	struct mess_family f;
	assert_int_equal(mess_family_build(s, n, &f), 0);
	assert_int_equal(f.ncurves, 6);
	struct mess_metrics m;
	assert_int_equal(mess_metrics(&f, 20.0, 0, &m), 0);
	assert_float_equal(m.unloaded_lat_ns, 105.0, 1e-9);
	unsigned nsat = 0;
	for (unsigned c = 0; c < 6; c++) {
		/* the 2x crossing (2 * 105 ns), interpolated between the samples around it */
		double peak_s = 20.0 * (1.0 - 0.4 * c / 5.0), want = -1;
		for (int k = 0; k < NP; k++) {
			double bw = peak_s * 0.95 * k / (NP - 1), lat = L0[c] / (1.0 - bw / peak_s);
			if (lat >= 210.0) {
				want = bw;
				if (k > 0) {
					double bq = peak_s * 0.95 * (k - 1) / (NP - 1);
					double lq = L0[c] / (1.0 - bq / peak_s);
					want = bq + (210.0 - lq) / (lat - lq) * (bw - bq);
				}
				break;
			}
		}
		assert_int_equal(f.curve[c].store_pct, 20 * c);
		assert_int_equal(m.curve[c].saturated, want >= 0);
		if (want >= 0) {
			assert_float_equal(m.curve[c].sat_bw, want, 1e-9);
			nsat++;
		}
		assert_float_equal(m.curve[c].max_lat, L0[c] / (1.0 - 0.95), 1e-6);
	}
	assert_int_equal(m.sat_curves, nsat);
	assert_float_equal(m.max_lat_min, 80.0 / 0.05, 1e-6);
	assert_float_equal(m.max_lat_max, 200.0 / 0.05, 1e-6);
	mess_metrics_free(&m);
	mess_family_free(&f);
}

/* repeated samples of one point: mean and sample standard deviation (n - 1) */
static void test_point_mean_and_std(void **st)
{
	(void)st;
	struct mess_sample s[3];
	for (int i = 0; i < 3; i++) {
		s[i].store_pct = 0;
		s[i].pause = 100;
		s[i].bw_gbps = 1.0 + i;     /* 1 2 3: mean 2, sample std 1 */
		s[i].lat_ns = 100.0 + 2 * i; /* 100 102 104: mean 102, sample std 2 */
		s[i].rd_frac = 1.0;
	}
	struct mess_family f;
	assert_int_equal(mess_family_build(s, 3, &f), 0);
	assert_int_equal(f.ncurves, 1);
	assert_int_equal(f.curve[0].n, 1);
	assert_float_equal(f.curve[0].pt[0].bw_mean, 2.0, 1e-12);
	assert_float_equal(f.curve[0].pt[0].bw_std, 1.0, 1e-12);
	assert_float_equal(f.curve[0].pt[0].lat_mean, 102.0, 1e-12);
	assert_float_equal(f.curve[0].pt[0].lat_std, 2.0, 1e-12);
	mess_family_free(&f);
}

static void test_wave(void **st)
{
	(void)st;
	/* bandwidth rises to 10 then falls to 8 while latency keeps rising */
	const double bw[6] = {1, 4, 8, 10, 9, 8};
	const double lat[6] = {90, 95, 120, 200, 300, 400};
	struct mess_sample s[6];
	for (int k = 0; k < 6; k++)
		s[k] = (struct mess_sample){.store_pct = 0, .pause = (uint64_t)(600 - 100 * k),
		                            .bw_gbps = bw[k], .rd_frac = 1.0, .lat_ns = lat[k]};
	struct mess_family f;
	assert_int_equal(mess_family_build(s, 6, &f), 0);
	struct mess_metrics m;
	assert_int_equal(mess_metrics(&f, 0, 0.03, &m), 0);
	assert_int_equal(m.wave_curves, 1);
	assert_true(m.curve[0].wave);
	assert_float_equal(m.curve[0].wave_drop_gbps, 2.0, 1e-9);
	assert_float_equal(m.curve[0].max_bw, 10.0, 1e-9);
	mess_metrics_free(&m);
	/* a 2 % dip is within the default tolerance: no wave */
	s[4].bw_gbps = 9.9;
	s[5].bw_gbps = 9.85;
	mess_family_free(&f);
	assert_int_equal(mess_family_build(s, 6, &f), 0);
	assert_int_equal(mess_metrics(&f, 0, 0, &m), 0);
	assert_int_equal(m.wave_curves, 0);
	mess_metrics_free(&m);
	mess_family_free(&f);
}

static void test_outliers(void **st)
{
	(void)st;
	struct mess_sample s[5];
	const double lat[5] = {100, 101, 99, 100.5, 400};
	for (int k = 0; k < 5; k++)
		s[k] = (struct mess_sample){.store_pct = 10, .pause = 7, .bw_gbps = 5.0,
		                            .rd_frac = 0.9, .lat_ns = lat[k]};
	struct mess_family f;
	assert_int_equal(mess_family_build(s, 5, &f), 0);
	assert_int_equal(f.ncurves, 1);
	assert_int_equal(f.curve[0].n, 1);
	const struct mess_point *p = &f.curve[0].pt[0];
	assert_int_equal(p->n, 4);
	assert_int_equal(p->dropped, 1);
	assert_float_equal(p->lat_mean, (100 + 101 + 99 + 100.5) / 4, 1e-9);
	assert_true(p->lat_std > 0 && p->lat_std < 1.0);
	assert_int_equal(p->read_pct_rounded, 90);
	mess_family_free(&f);
	/* two identical samples: nothing is dropped, std 0 */
	s[1] = s[0];
	assert_int_equal(mess_family_build(s, 2, &f), 0);
	assert_int_equal(f.curve[0].pt[0].dropped, 0);
	assert_float_equal(f.curve[0].pt[0].lat_std, 0.0, 0);
	mess_family_free(&f);
}

/* A 3-point curve by hand: unloaded 100 ns (its largest pause), 2x = 200 ns
 * between (5 GB/s, 150 ns) and (9 GB/s, 300 ns): 5 + 50/150 * 4. */
static void test_crossing_by_hand(void **st)
{
	(void)st;
	struct mess_sample s[3] = {
		{.store_pct = 0, .pause = 100, .bw_gbps = 1, .rd_frac = 1, .lat_ns = 100},
		{.store_pct = 0, .pause = 10, .bw_gbps = 5, .rd_frac = 1, .lat_ns = 150},
		{.store_pct = 0, .pause = 0, .bw_gbps = 9, .rd_frac = 1, .lat_ns = 300},
	};
	struct mess_family f;
	struct mess_metrics m;
	assert_int_equal(mess_family_build(s, 3, &f), 0);
	assert_int_equal(mess_metrics(&f, 0, 0, &m), 0);
	assert_true(m.curve[0].saturated);
	assert_float_equal(m.curve[0].sat_bw, 5.0 + 50.0 / 150.0 * 4.0, 1e-12);
	mess_metrics_free(&m);
	mess_family_free(&f);
}

/* The kernel curve's read %: its loaded points, not the chase-dominated idle ones. */
static void test_read_label(void **st)
{
	(void)st;
	const double bw[5] = {1, 2, 10, 19, 19.1}, rd[5] = {0.98, 0.84, 0.505, 0.505, 0.504};
	struct mess_sample s[5];
	for (int k = 0; k < 5; k++)
		s[k] = (struct mess_sample){.store_pct = 100, .pause = (uint64_t)(50 - 10 * k),
		                            .bw_gbps = bw[k], .rd_frac = rd[k], .lat_ns = 100 + k};
	struct mess_family f;
	assert_int_equal(mess_family_build(s, 5, &f), 0);
	assert_int_equal(f.curve[0].read_pct_rounded, 50); /* the mean of all five is 66 % */
	assert_int_equal(f.curve[0].pt[0].read_pct_rounded, 98); /* per point: its own */
	assert_int_equal(f.curve[0].pt[4].read_pct_rounded, 50);
	mess_family_free(&f);
}

/* The knee of a real curve (hostsim dram, 60 % stores) plus noise: the smoothed
 * values stay inside the curve's measured range and near each point; the
 * measured means are untouched. */
static void test_smoothing_stays_in_range(void **st)
{
	(void)st;
	const double bw[16] = {1.15, 2.02, 3.86, 7.38, 13.28, 20.59, 21.37, 21.36,
	                       21.35, 21.36, 21.36, 21.36, 21.36, 21.36, 21.36, 21.36};
	const double lat[16] = {114.1, 114.8, 116.4, 119.6, 126.8, 167.3, 313.7, 379.9,
	                        391.9, 393.6, 394.2, 394.4, 394.5, 394.5, 394.4, 394.4};
	struct mess_point pt[16];
	struct mess_curve c = {.store_pct = 60, .n = 16, .pt = pt};
	for (int noisy = 0; noisy < 2; noisy++) {
		for (int k = 0; k < 16; k++)
			pt[k] = (struct mess_point){.pause = (uint64_t)(16 - k),
			                            .bw_mean = bw[k] * (noisy && k % 2 ? 1.01 : 1),
			                            .lat_mean = lat[k] * (noisy && k % 3 ? 0.99 : 1)};
		double bmin = 1e9, bmax = 0, lmin = 1e9, lmax = 0;
		for (int k = 0; k < 16; k++) {
			bmin = fmin(bmin, pt[k].bw_mean), bmax = fmax(bmax, pt[k].bw_mean);
			lmin = fmin(lmin, pt[k].lat_mean), lmax = fmax(lmax, pt[k].lat_mean);
		}
		struct mess_point before[16];
		memcpy(before, pt, sizeof pt);
		mess_curve_smooth(&c);
		for (int k = 0; k < 16; k++) {
			assert_true(pt[k].bw_smooth >= bmin && pt[k].bw_smooth <= bmax);
			assert_true(pt[k].lat_smooth >= lmin && pt[k].lat_smooth <= lmax);
			assert_true(fabs(pt[k].bw_smooth - pt[k].bw_mean) <= MESS_SMOOTH_BAND * pt[k].bw_mean + 1e-12);
			assert_true(fabs(pt[k].lat_smooth - pt[k].lat_mean) <= MESS_SMOOTH_BAND * pt[k].lat_mean + 1e-12);
			assert_true(pt[k].bw_mean == before[k].bw_mean && pt[k].lat_mean == before[k].lat_mean);
			assert_true(pt[k].pause == before[k].pause); /* rows stay in pressure order */
		}
	}
	/* the smoothing removes noise: a flat latency with +-1 ns alternating noise */
	for (int k = 0; k < 16; k++)
		pt[k] = (struct mess_point){.pause = (uint64_t)(16 - k), .bw_mean = 1.0 + k,
		                            .lat_mean = 100.0 + (k % 2 ? 1 : -1)};
	mess_curve_smooth(&c);
	for (int k = 4; k < 12; k++)
		assert_true(fabs(pt[k].lat_smooth - 100.0) < 0.7);
	/* fewer than 10 points: nothing to smooth, the measured values */
	c.n = 9;
	mess_curve_smooth(&c);
	for (int k = 0; k < 9; k++)
		assert_true(pt[k].lat_smooth == pt[k].lat_mean && pt[k].bw_smooth == pt[k].bw_mean);
}

/* The anchor (zero bandwidth at the family's lowest latency) is the first
 * point of the fit: a lower anchor pulls the smoothed latency of the least
 * loaded points down with it (within their band), the rest stays put. */
static void test_smoothing_anchor(void **st)
{
	(void)st;
	struct mess_point pt[12];
	struct mess_curve c = {.store_pct = 0, .n = 12, .pt = pt};
	double own[12];
	for (int a = 0; a < 2; a++) {
		for (int k = 0; k < 12; k++) /* lat grows with the square of bw */
			pt[k] = (struct mess_point){.pause = (uint64_t)(12 - k), .bw_mean = 1.0 + k,
			                            .lat_mean = 100.0 + 2.0 * k * k};
		c.anchor_ns = a ? 60.0 : 0; /* 0: the curve's own lowest latency, 100 */
		mess_curve_smooth(&c);
		for (int k = 0; k < 12; k++)
			if (!a)
				own[k] = pt[k].lat_smooth;
	}
	/* own anchor: the fit follows the smooth curve closely */
	for (int k = 0; k < 12; k++)
		assert_true(fabs(own[k] - pt[k].lat_mean) < 0.5);
	/* 40 ns lower: the first point is held at the curve's lowest latency,
	 * the next three at the edge of their band (mean + 2 %), the window
	 * that does not reach the anchor is the same as before */
	assert_float_equal(pt[1].lat_smooth, 100.0, 1e-9);
	for (int k = 2; k <= 4; k++)
		assert_float_equal(pt[k].lat_smooth, (1 + MESS_SMOOTH_BAND) * pt[k].lat_mean, 1e-9);
	for (int k = 5; k < 12; k++)
		assert_float_equal(pt[k].lat_smooth, own[k], 1e-9);
}

/* At saturation the line follows latency, not the noise in bandwidth. */
static void test_order_saturated(void **st)
{
	(void)st;
	const double bw[6] = {1, 5, 10, 10.02, 9.99, 10.01}, lat[6] = {100, 110, 150, 200, 250, 300};
	struct mess_point pt[6];
	struct mess_curve c = {.n = 6, .pt = pt};
	for (int k = 0; k < 6; k++)
		pt[k] = (struct mess_point){.pause = (uint64_t)(6 - k), .bw_mean = bw[k], .lat_mean = lat[k]};
	size_t *o = mess_curve_order(&c);
	assert_non_null(o);
	for (size_t k = 0; k < 6; k++)
		assert_int_equal(o[k], k);
	free(o);
}

/* A waved curve: bandwidth rises to its maximum, then falls while latency
 * keeps rising (16 points in pressure order, as a memory with a wave shows).
 * Sorted by bandwidth, the falling branch's points would sit between the
 * rising branch's and the line would jump between 300 and 600 ns. */
#define WN 16
static const double wave_bw[WN] = {1, 2, 4, 6, 8, 10, 12, 13, 14, 13.5, 13, 12.5, 12, 11.5, 11, 10.5};
static const double wave_lat[WN] = {100, 101, 103, 106, 110, 116, 130, 160, 220, 280, 340,
                                    400, 460, 520, 580, 640};

/* Along a drawn line (x, y): how often x changes direction, and whether y
 * ever goes back (a step against the overall direction by more than eps). */
static void line_shape(const double *x, const double *y, size_t n, int ydown, double eps,
                       int *xturns, int *yback)
{
	int dir = 0;
	*xturns = 0;
	*yback = 0;
	for (size_t k = 1; k < n; k++) {
		double dx = x[k] - x[k - 1], dy = y[k] - y[k - 1];
		int d = dx > eps ? 1 : dx < -eps ? -1 : 0;
		if (d && dir && d != dir)
			(*xturns)++;
		if (d)
			dir = d;
		if (ydown ? dy > eps : dy < -eps)
			(*yback)++;
	}
}

static void test_wave_line(void **st)
{
	(void)st;
	struct mess_sample s[WN + NP];
	for (int k = 0; k < WN; k++)
		s[k] = (struct mess_sample){.store_pct = 40, .pause = (uint64_t)(1000 - 10 * k),
		                            .bw_gbps = wave_bw[k], .rd_frac = 0.7, .lat_ns = wave_lat[k]};
	/* and a curve without a wave, which keeps the Mess 2 order by bandwidth */
	for (int k = 0; k < NP; k++)
		s[WN + k] = (struct mess_sample){.store_pct = 0, .pause = pauses[k], .bw_gbps = 1.0 + k,
		                                 .rd_frac = 1.0, .lat_ns = 100.0 + k * k};
	struct mess_family f;
	assert_int_equal(mess_family_build(s, WN + NP, &f), 0);
	assert_int_equal(f.ncurves, 2);
	const struct mess_curve *w = &f.curve[1], *plain = &f.curve[0];
	assert_int_equal(w->store_pct, 40);
	assert_true(mess_curve_follows_pressure(w));
	assert_false(mess_curve_follows_pressure(plain));

	/* the smoothed line in the drawn order: bandwidth turns once (up, then
	 * down the wave), latency never goes back */
	size_t *o = mess_curve_order(w);
	assert_non_null(o);
	double x[WN], y[WN];
	for (int k = 0; k < WN; k++) {
		x[k] = w->pt[o[k]].bw_smooth;
		y[k] = w->pt[o[k]].lat_smooth;
		/* inside the measured range, within the band of its own point */
		assert_true(x[k] >= 1 && x[k] <= 14 && y[k] >= 100 && y[k] <= 640);
		assert_true(fabs(y[k] - w->pt[o[k]].lat_mean) <= MESS_SMOOTH_BAND * w->pt[o[k]].lat_mean + 1e-9);
	}
	int xturns, yback;
	line_shape(x, y, WN, 0, 1e-9, &xturns, &yback);
	assert_int_equal(xturns, 1);
	assert_int_equal(yback, 0);
	free(o);
	o = mess_curve_order(plain);
	for (size_t k = 1; k < plain->n; k++)
		assert_true(plain->pt[o[k]].bw_mean >= plain->pt[o[k - 1]].bw_mean);
	free(o);

	/* by-read groups keep Mess 2's order by bandwidth, wave or not (their
	 * points come from any kernel: they have no pressure order) */
	struct mess_family g;
	assert_int_equal(mess_family_by_read(&f, &g), 0);
	for (size_t i = 0; i < g.ncurves; i++) {
		const struct mess_curve *gc = &g.curve[i];
		assert_false(mess_curve_follows_pressure(gc));
		o = mess_curve_order(gc);
		assert_non_null(o);
		double bmax = 0;
		for (size_t k = 0; k < gc->n; k++)
			bmax = fmax(bmax, gc->pt[k].bw_mean);
		for (size_t k = 1; k < gc->n; k++) /* up to the saturated points, by bandwidth */
			if (gc->pt[o[k]].bw_mean < (1.0 - MESS_PLATEAU_TOL) * bmax)
				assert_true(gc->pt[o[k]].bw_mean >= gc->pt[o[k - 1]].bw_mean);
		free(o);
	}
	mess_family_free(&g);

	/* the same on the SVG's polyline (y grows downwards there) */
	char dir[] = "/tmp/rvmess-wave-XXXXXX", path[512];
	assert_non_null(mkdtemp(dir));
	struct outdir od;
	assert_int_equal(outdir_open(&od, dir, "test"), 0);
	assert_int_equal(mess_write_svg(&f, NULL, &od, "w.svg", "wave", 0, 100), 0);
	assert_int_equal(outdir_commit(&od), 0);
	snprintf(path, sizeof path, "%s/w.svg", dir);
	FILE *in = fopen(path, "r");
	assert_non_null(in);
	static char svg[1 << 16];
	svg[fread(svg, 1, sizeof svg - 1, in)] = 0;
	fclose(in);
	const char *pl = strstr(svg, "<polyline");
	assert_non_null(pl);
	pl = strstr(pl + 1, "<polyline"); /* the second curve: 40 % stores */
	assert_non_null(pl);
	pl = strstr(pl, "points=\"") + 8;
	double sx[WN], sy[WN];
	size_t n = 0;
	while (n < WN && sscanf(pl, "%lf,%lf", &sx[n], &sy[n]) == 2) {
		n++;
		pl = strchr(pl, ' ') + 1;
	}
	assert_int_equal(n, WN);
	line_shape(sx, sy, WN, 1, 0.05, &xturns, &yback);
	assert_int_equal(xturns, 1);
	assert_int_equal(yback, 0);
	unlink(path);
	snprintf(path, sizeof path, "%s/" OUTDIR_MANIFEST, dir);
	unlink(path);
	rmdir(dir);
	mess_family_free(&f);
}

static void test_csv_roundtrip(void **st)
{
	(void)st;
	struct mess_sample s[6 * NP];
	size_t n = make_family(s, 90.0, 20.0, 0);
	struct mess_family f, g;
	assert_int_equal(mess_family_build(s, n, &f), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&buf, &len);
	assert_non_null(o);
	assert_int_equal(mess_write_csv(&f, o), 0);
	fclose(o);
	assert_non_null(strstr(buf, "read_pct_rounded,pause,bandwidth_mean,bandwidth_std,"
	                            "rd_percentage_actual_mean,latency_mean,latency_std,"
	                            "bandwidth_smooth,latency_smooth,rw_ratio\n"));
	FILE *in = fmemopen(buf, len, "r");
	char err[256];
	assert_int_equal(mess_read_csv(in, &g, err, sizeof err), 0);
	fclose(in);
	assert_int_equal(g.ncurves, f.ncurves);
	for (size_t i = 0; i < f.ncurves; i++) {
		assert_int_equal(g.curve[i].store_pct, f.curve[i].store_pct);
		assert_int_equal(g.curve[i].n, f.curve[i].n);
		for (size_t k = 0; k < f.curve[i].n; k++) {
			assert_int_equal(g.curve[i].pt[k].pause, f.curve[i].pt[k].pause);
			assert_float_equal(g.curve[i].pt[k].bw_mean, f.curve[i].pt[k].bw_mean, 1e-6);
			assert_float_equal(g.curve[i].pt[k].lat_mean, f.curve[i].pt[k].lat_mean, 1e-3);
			assert_float_equal(g.curve[i].pt[k].lat_smooth, f.curve[i].pt[k].lat_smooth, 1e-3);
		}
	}
	mess_family_free(&g);
	mess_family_free(&f);
	free(buf);
}

static void expect_csv_error(const char *text, const char *want)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	struct mess_family g;
	char err[256] = "";
	assert_int_equal(mess_read_csv(in, &g, err, sizeof err), -1);
	fclose(in);
	if (!strstr(err, want))
		fail_msg("error '%s' lacks '%s'", err, want);
}

static void test_csv_errors(void **st)
{
	(void)st;
	const char *hdr = "read_pct_rounded,pause,bandwidth_mean,bandwidth_std,"
	                  "rd_percentage_actual_mean,latency_mean,latency_std,"
	                  "bandwidth_smooth,latency_smooth,rw_ratio\n";
	char buf[1024];
	expect_csv_error("", "1: empty");
	expect_csv_error(hdr, "1: no data rows");
	snprintf(buf, sizeof buf, "%s\n\n", hdr);
	expect_csv_error(buf, "3: no data rows");
	snprintf(buf, sizeof buf, "%s100,0,1.0,0,1.0,80,0,1.0,80,100\n100,5,1,0,1,80,0,1,80,100\n"
	         "100,0,2.0,0,1.0,90,0,2.0,90,100\n", hdr);
	expect_csv_error(buf, "4: duplicate row: rw_ratio 100 pause 0 is already on line 2");
	expect_csv_error("read_pct_rounded,pause\n", "1: header lacks column bandwidth_mean");
	snprintf(buf, sizeof buf, "%s100,0,1.0,0,1.0,80,0,1.0,80,100\n100,5,x,0,1,80,0,1,80,100\n", hdr);
	expect_csv_error(buf, "3: column bandwidth_mean: not a number");
	snprintf(buf, sizeof buf, "%s100,0,-1.0,0,1.0,80,0,1.0,80,100\n", hdr);
	expect_csv_error(buf, "2: value out of range");
	snprintf(buf, sizeof buf, "%s100,0,1.0\n", hdr);
	expect_csv_error(buf, "2: missing column");
	/* non-finite and absurd values: refused by name, with the limit; a
	 * pause >= 2^64 was cast to uint64_t (undefined behaviour) */
	static const char *const bad[][2] = {
		{"100,0,inf,0,1.0,80,0,1.0,80,100", "2: column bandwidth_mean: not a number: 'inf'"},
		{"100,0,nan,0,1.0,80,0,1.0,80,100", "2: column bandwidth_mean: not a number: 'nan'"},
		{"100,0,1.7e308,0,1.0,80,0,1.0,80,100",
		 "2: column bandwidth_mean: 1.7e308 is beyond the limit 1e+06 GB/s"},
		{"100,0,1.0,0,1.0,80,0,1.0,1.5e9,100",
		 "2: column latency_smooth: 1.5e9 is beyond the limit 1e+09 ns"},
		{"100,0,1.0,0,1.0,80,0,2e6,80,100", "2: column bandwidth_smooth: 2e6 is beyond the limit"},
		{"100,1e30,1.0,0,1.0,80,0,1.0,80,100", "2: column pause: '1e30' is not an integer in 0..2^53"},
		{"100,2.5,1.0,0,1.0,80,0,1.0,80,100", "2: column pause: '2.5' is not an integer"},
		/* two groups would share bwlat_50.txt (the curves fuzzer: a leak) */
		{"51,0,1.0,0,1.0,80,0,1.0,80,100", "2: column read_pct_rounded: '51' is not an even percentage 0..100"},
		{"50.5,0,1.0,0,1.0,80,0,1.0,80,100", "2: column read_pct_rounded: '50.5' is not an even"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(buf, sizeof buf, "%s%s\n", hdr, bad[i][0]);
		expect_csv_error(buf, bad[i][1]);
	}
	/* the limits themselves are accepted */
	snprintf(buf, sizeof buf, "%s100,9007199254740992,1e6,1e6,1.0,1e9,1e9,1e6,1e9,100\n", hdr);
	FILE *in = fmemopen(buf, strlen(buf), "r");
	struct mess_family g;
	char err[256] = "";
	assert_int_equal(mess_read_csv(in, &g, err, sizeof err), 0);
	fclose(in);
	assert_true(g.curve[0].pt[0].pause == 9007199254740992ull);
	mess_family_free(&g);
}

/* Values near DBL_MAX once made the tick loop run to infinity (x1 overflowed
 * to inf and x += step never passed it): the plot must stay small and finite. */
static void test_svg_huge_values(void **st)
{
	(void)st;
	const double x[3] = {1.0, 1.6e308, DBL_MAX}, y[3] = {1e-300, DBL_MAX, -DBL_MAX};
	struct svg_series s = {.label = "huge", .x = x, .y = y, .n = 3, .markers = 1};
	for (int variant = 0; variant < 3; variant++) {
		struct svg_plot p = {.title = "t", .xlabel = "x", .ylabel = "y",
		                     .x_from_zero = variant != 1, .y_from_zero = variant != 2};
		char *buf = NULL;
		size_t len = 0;
		FILE *o = open_memstream(&buf, &len);
		assert_int_equal(svg_write(o, &p, &s, 1), 0);
		fclose(o);
		assert_true(len < 20000);
		assert_null(strstr(buf, "inf"));
		assert_null(strstr(buf, "nan"));
		assert_non_null(strstr(buf, "</svg>\n"));
		free(buf);
	}
}

/* Two kernels whose read share is the same at every point: R = 50 and R = 60,
 * 8 points each (too few to smooth: the rows are the measured values). */
static size_t two_groups(struct mess_sample *s)
{
	size_t n = 0;
	for (int g = 0; g < 2; g++)
		for (int k = 1; k <= 8; k++)
			s[n++] = (struct mess_sample){.store_pct = g ? 80u : 100u, .pause = (uint64_t)(100 - k),
			                              .bw_gbps = g ? 2.0 * k : k, .rd_frac = g ? 0.6 : 0.5,
			                              .lat_ns = 100 + (g ? 20.0 : 10.0) * (k - 1)};
	return n;
}

static void test_bwlat_layout(void **st)
{
	(void)st;
	struct mess_sample s[16];
	struct mess_family f;
	struct mess_bwlat b[MESS_NRATIOS];
	assert_int_equal(mess_family_build(s, two_groups(s), &f), 0);
	assert_int_equal(mess_bwlat_build(&f, b), 0);
	for (unsigned r = 0; r <= 100; r += 2) {
		const struct mess_bwlat *x = &b[r / 2];
		assert_int_equal(x->read_pct, r);
		assert_int_equal(x->n, 9); /* the anchor and 8 points */
		enum mess_bwlat_how want = r == 50 || r == 60 ? BWLAT_MEASURED
		                         : r > 50 && r < 60   ? BWLAT_INTERPOLATED
		                                              : BWLAT_EXTRAPOLATED;
		assert_int_equal(x->how, want);
		double w = r <= 50 ? 0 : r >= 60 ? 1 : (r - 50) / 10.0;
		for (int i = 0; i < 9; i++) { /* row i: anchor (0, 100 ns), then point i */
			double b50 = 1000.0 * i, l50 = i ? 100 + 10.0 * (i - 1) : 100;
			double b60 = 2000.0 * i, l60 = i ? 100 + 20.0 * (i - 1) : 100;
			assert_float_equal(x->mbps[i], (1 - w) * b50 + w * b60, 1e-9);
			assert_float_equal(x->ns[i], (1 - w) * l50 + w * l60, 1e-9);
		}
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&buf, &len);
	mess_bwlat_readme(b, o);
	fclose(o);
	assert_non_null(strstr(buf, "\nbwlat_50.txt measured (8 points)\n"));
	assert_non_null(strstr(buf, "\nbwlat_54.txt interpolated between 50 and 60\n"));
	assert_non_null(strstr(buf, "\nbwlat_0.txt extrapolated: a copy of 50, the nearest measured\n"));
	assert_non_null(strstr(buf, "\nbwlat_100.txt extrapolated: a copy of 60, the nearest measured\n"));
	free(buf);
	mess_bwlat_free(b);
	mess_family_free(&f);
}

/* At the plateau (points within MESS_PLATEAU_TOL of the peak, in latency
 * order) bandwidth falls back a little while latency keeps rising: the rows
 * keep the highest bandwidth reached, so that bandwidth never decreases as
 * latency grows (the simulator wants a monotonic curve). */
static void test_bwlat_wave(void **st)
{
	(void)st;
	struct mess_sample s[16];
	struct mess_family f;
	struct mess_bwlat b[MESS_NRATIOS];
	size_t n = two_groups(s);
	s[13].bw_gbps = 12.0; /* R = 60, k = 6, 7, 8: 12, 11.9, 11.8 GB/s (not 12, 14, 16) */
	s[14].bw_gbps = 11.9;
	s[15].bw_gbps = 11.8;
	assert_int_equal(mess_family_build(s, n, &f), 0);
	assert_int_equal(mess_bwlat_build(&f, b), 0);
	const struct mess_bwlat *x = &b[30];
	assert_int_equal(x->how, BWLAT_MEASURED);
	assert_int_equal(x->n, 9);
	for (int i = 0; i < 9; i++) {
		assert_float_equal(x->mbps[i], 2000.0 * (i < 6 ? i : 6), 1e-9); /* 12000 from row 6 */
		assert_float_equal(x->ns[i], i ? 100 + 20.0 * (i - 1) : 100, 1e-9);
	}
	mess_bwlat_free(b);
	mess_family_free(&f);
}

/* A group of idle points only (the chase's reads: R = 98) is not a curve. */
static void test_bwlat_thin_group(void **st)
{
	(void)st;
	struct mess_sample s[19];
	size_t n = two_groups(s);
	for (int k = 0; k < 3; k++)
		s[n++] = (struct mess_sample){.store_pct = 100, .pause = 1000u + (unsigned)k, .bw_gbps = 0.1,
		                              .rd_frac = 0.98, .lat_ns = 100};
	struct mess_family f;
	struct mess_bwlat b[MESS_NRATIOS];
	assert_int_equal(mess_family_build(s, n, &f), 0);
	assert_int_equal(mess_bwlat_build(&f, b), 0);
	assert_int_equal(b[49].how, BWLAT_EXTRAPOLATED);
	assert_int_equal(b[49].points, 3);
	assert_float_equal(b[49].mbps[b[49].n - 1], 16000.0, 1e-9); /* a copy of R = 60 */
	mess_bwlat_free(b);
	mess_family_free(&f);
}

static void test_bwlat_dir(void **st)
{
	(void)st;
	struct mess_sample s[6 * NP];
	size_t n = make_family(s, 90.0, 20.0, 0);
	struct mess_family f;
	assert_int_equal(mess_family_build(s, n, &f), 0);
	char dir[] = "/tmp/rvmess-bwlat-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char err[256];
	struct outdir od;
	assert_int_equal(outdir_open(&od, dir, "test"), 0);
	assert_int_equal(mess_write_bwlat_dir(&f, &od, ".", err, sizeof err), -1); /* not a name */
	outdir_abort(&od);
	assert_int_equal(outdir_open(&od, dir, "test"), 0);
	assert_int_equal(mess_write_bwlat_dir(&f, &od, "bwlat", err, sizeof err), 0);
	assert_int_equal(outdir_commit(&od), 0);
	char path[512], sub[256];
	snprintf(sub, sizeof sub, "%s/bwlat", dir);
	for (unsigned r = 0; r <= 100; r += 2) {
		snprintf(path, sizeof path, "%s/bwlat_%u.txt", sub, r);
		FILE *in = fopen(path, "r");
		assert_non_null(in);
		double mbps, ns, prev = INFINITY, prevns = INFINITY;
		int rows = 0;
		while (fscanf(in, "%lf %lf", &mbps, &ns) == 2) {
			assert_true(mbps <= prev); /* descending bandwidth, latency with it */
			assert_true(ns <= prevns && ns > 0);
			prev = mbps;
			prevns = ns;
			rows++;
		}
		fclose(in);
		assert_true(rows >= 2);
		assert_float_equal(prev, 0.0, 0); /* the anchor last */
		unlink(path);
	}
	snprintf(path, sizeof path, "%s/README", sub);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(sub), 0);
	snprintf(path, sizeof path, "%s/" OUTDIR_MANIFEST, dir);
	unlink(path);
	rmdir(dir);
	mess_family_free(&f);
}

static void test_metrics_empty(void **st)
{
	(void)st;
	struct mess_family f = {0};
	struct mess_metrics m;
	assert_int_equal(mess_metrics(&f, 0, 0, &m), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&buf, &len);
	mess_metrics_print(&m, o);
	fclose(o);
	assert_null(strstr(buf, "0.0 ns"));
	assert_non_null(strstr(buf, "no Mess curve points"));
	free(buf);
	mess_metrics_free(&m);
}

static void test_svg(void **st)
{
	(void)st;
	const double x[4] = {512, 4096, NAN, 1 << 20}, y[4] = {1.5, 2.0, 3, 80};
	struct svg_series s[2] = {{.label = "stride<64>", .x = x, .y = y, .n = 4, .markers = 1},
	                          {.label = "b", .x = x, .y = y, .n = 2, .dashed = 1}};
	svg_ramp(0, s[0].color);
	svg_ramp(1, s[1].color);
	assert_string_equal(s[0].color, "#2166ac");
	assert_string_equal(s[1].color, "#b2182b");
	struct svg_plot p = {.title = "t & u", .xlabel = "size", .ylabel = "ns", .xlog2 = 1};
	char *buf = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&buf, &len);
	assert_int_equal(svg_write(o, &p, s, 2), 0);
	fclose(o);
	assert_non_null(strstr(buf, "<svg "));
	assert_non_null(strstr(buf, "</svg>\n"));
	assert_non_null(strstr(buf, "t &amp; u"));
	assert_non_null(strstr(buf, "stride&lt;64&gt;"));
	assert_null(strstr(buf, "nan"));
	size_t lines = 0, dots = 0;
	for (char *q = buf; (q = strstr(q, "<polyline")); q++)
		lines++;
	for (char *q = buf; (q = strstr(q, "<circle")); q++)
		dots++;
	assert_int_equal(lines, 2);
	assert_int_equal(dots, 4); /* 3 points (the NaN one is skipped) and the legend's */
	assert_non_null(strstr(buf, ">1M<"));
	free(buf);
}

/* The largest y of any <text> in an SVG (the legend's last line among them). */
static double max_text_y(const char *svg)
{
	double m = 0;
	for (const char *q = svg; (q = strstr(q, "<text ")); q++) {
		const char *y = strstr(q, " y=\"");
		if (y)
			m = fmax(m, atof(y + 4));
	}
	return m;
}

/* 51 curves (the full Mess family): the legend must stay inside the 600-pixel
 * canvas: a colour bar when asked for, else "N more"; the reference lines. */
static void test_svg_many_curves(void **st)
{
	(void)st;
	static double x[2] = {1, 20}, y[2] = {100, 300};
	struct svg_series s[51];
	char lab[51][16];
	for (int i = 0; i < 51; i++) {
		snprintf(lab[i], sizeof lab[i], "%d%% reads", 100 - i);
		s[i] = (struct svg_series){.label = lab[i], .x = x, .y = y, .n = 2};
		svg_ramp(i / 50.0, s[i].color);
	}
	for (int bar = 0; bar < 2; bar++) {
		struct svg_plot p = {.title = "t", .xlabel = "x", .ylabel = "y", .colorbar = bar,
		                     .cb_lo = 100, .cb_hi = 50, .cb_title = "read %",
		                     .vline = 25.6, .vline_label = "peak 25.6", .hline = 114, .hline_label = "unloaded"};
		char *buf = NULL;
		size_t len = 0;
		FILE *o = open_memstream(&buf, &len);
		assert_int_equal(svg_write(o, &p, s, 51), 0);
		fclose(o);
		assert_true(max_text_y(buf) < 600);
		if (bar) {
			assert_non_null(strstr(buf, "class=\"colorbar\""));
			assert_null(strstr(buf, ">100% reads<"));
		} else {
			assert_non_null(strstr(buf, "... 22 more"));
		}
		assert_non_null(strstr(buf, "class=\"vline\""));
		assert_non_null(strstr(buf, ">peak 25.6<"));
		assert_non_null(strstr(buf, "class=\"hline\""));
		/* the x axis reaches the peak although no point does */
		assert_non_null(strstr(buf, ">30</text>"));
		free(buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat_family),
		cmocka_unit_test(test_saturation),
		cmocka_unit_test(test_unloaded_is_median_over_curves),
		cmocka_unit_test(test_point_mean_and_std),
		cmocka_unit_test(test_wave),
		cmocka_unit_test(test_outliers),
		cmocka_unit_test(test_crossing_by_hand),
		cmocka_unit_test(test_read_label),
		cmocka_unit_test(test_smoothing_stays_in_range),
		cmocka_unit_test(test_smoothing_anchor),
		cmocka_unit_test(test_order_saturated),
		cmocka_unit_test(test_wave_line),
		cmocka_unit_test(test_bwlat_layout),
		cmocka_unit_test(test_bwlat_wave),
		cmocka_unit_test(test_bwlat_thin_group),
		cmocka_unit_test(test_metrics_empty),
		cmocka_unit_test(test_csv_roundtrip),
		cmocka_unit_test(test_csv_errors),
		cmocka_unit_test(test_bwlat_dir),
		cmocka_unit_test(test_svg),
		cmocka_unit_test(test_svg_huge_values),
		cmocka_unit_test(test_svg_many_curves),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
