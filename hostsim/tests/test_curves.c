/* Unit tests: Mess curve combination, smoothing, metrics, formats, SVG. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/curves.h"
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
		/* first point with bw >= peak_s / 2 is where latency reaches 2x */
		double peak_s = 20.0 * (1.0 - 0.4 * f.curve[i].store_pct / 100.0);
		double want = -1;
		for (int k = 0; k < NP; k++) {
			double bw = peak_s * 0.95 * k / (NP - 1);
			if (bw >= peak_s / 2) {
				want = bw;
				break;
			}
		}
		assert_true(m.curve[i].saturated);
		assert_float_equal(m.curve[i].sat_bw, want, 1e-9);
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
		double peak_s = 20.0 * (1.0 - 0.4 * c / 5.0), want = -1;
		for (int k = 0; k < NP; k++) {
			double bw = peak_s * 0.95 * k / (NP - 1);
			if (L0[c] / (1.0 - bw / peak_s) >= 210.0) {
				want = bw;
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

static void test_smoothing_never_unphysical(void **st)
{
	(void)st;
	/* a quadratic is reproduced exactly; noisy data near zero never goes negative */
	struct mess_point pt[11];
	struct mess_curve c = {.store_pct = 0, .n = 11, .pt = pt};
	for (int k = 0; k < 11; k++)
		pt[k] = (struct mess_point){.bw_mean = 0.5 * k * k + 1, .lat_mean = 3.0 * k + 50};
	mess_curve_smooth(&c);
	for (int k = 0; k < 11; k++) {
		assert_float_equal(pt[k].bw_smooth, 0.5 * k * k + 1, 1e-6);
		assert_float_equal(pt[k].lat_smooth, 3.0 * k + 50, 1e-6);
	}
	const double bw[11] = {0, 0.01, 0, 5, 0, 0.02, 0, 7, 0.01, 0, 0};
	for (int k = 0; k < 11; k++)
		pt[k] = (struct mess_point){.bw_mean = bw[k], .lat_mean = k % 2 ? 1000 : 1};
	mess_curve_smooth(&c);
	for (int k = 0; k < 11; k++) {
		assert_true(pt[k].bw_smooth >= 0.0);
		assert_true(pt[k].bw_smooth <= 7.0);
		assert_true(pt[k].lat_smooth >= 1.0 && pt[k].lat_smooth <= 1000.0);
	}
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
	expect_csv_error("read_pct_rounded,pause\n", "1: header lacks column bandwidth_mean");
	snprintf(buf, sizeof buf, "%s100,0,1.0,0,1.0,80,0,1.0,80,100\n100,5,x,0,1,80,0,1,80,100\n", hdr);
	expect_csv_error(buf, "3: column bandwidth_mean: not a number");
	snprintf(buf, sizeof buf, "%s100,0,-1.0,0,1.0,80,0,1.0,80,100\n", hdr);
	expect_csv_error(buf, "2: value out of range");
	snprintf(buf, sizeof buf, "%s100,0,1.0\n", hdr);
	expect_csv_error(buf, "2: missing column");
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
	assert_int_equal(mess_write_bwlat_dir(&f, dir, err, sizeof err), 0);
	char path[512];
	unsigned want[] = {100, 84, 72, 62, 56, 50};
	for (size_t i = 0; i < 6; i++) {
		snprintf(path, sizeof path, "%s/bwlat_%u.txt", dir, want[i]);
		FILE *in = fopen(path, "r");
		assert_non_null(in);
		double mbps, ns, prev = -1;
		int rows = 0;
		while (fscanf(in, "%lf %lf", &mbps, &ns) == 2) {
			assert_true(mbps >= prev);
			assert_true(ns > 0);
			prev = mbps;
			rows++;
		}
		fclose(in);
		assert_int_equal(rows, NP);
		unlink(path);
	}
	snprintf(path, sizeof path, "%s/bwlat_98.txt", dir);
	assert_int_equal(access(path, F_OK), -1);
	rmdir(dir);
	mess_family_free(&f);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat_family),
		cmocka_unit_test(test_saturation),
		cmocka_unit_test(test_unloaded_is_median_over_curves),
		cmocka_unit_test(test_point_mean_and_std),
		cmocka_unit_test(test_wave),
		cmocka_unit_test(test_outliers),
		cmocka_unit_test(test_smoothing_never_unphysical),
		cmocka_unit_test(test_csv_roundtrip),
		cmocka_unit_test(test_csv_errors),
		cmocka_unit_test(test_bwlat_dir),
		cmocka_unit_test(test_svg),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
