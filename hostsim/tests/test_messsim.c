/*
 * Unit tests: messsim, the Mess analytical memory simulator (hostsim/mess/).
 *
 * Every expected value is worked out by hand in the comment next to it
 * (units: kB/s and ps inside the library, MB/s and ns in the files), or by
 * a second computation in this file (the closed-loop equilibria: bisection
 * on the curve and the CPU model's demand).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "mess/messsim.h"

static char err[512];
static char dir[64];

/* a fresh scratch directory per test */
static int setup(void **st)
{
	(void)st;
	snprintf(dir, sizeof dir, "/tmp/test_messsim.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void put(const char *name, const char *text)
{
	char p[256];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const char *at(const char *name)
{
	static char p[256];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return p;
}

static void load_ok(const char *path, double mhz, struct messsim_family *f)
{
	struct messsim_load_opts lo = { mhz };
	if (messsim_family_load(path, &lo, f, err, sizeof err))
		fail_msg("load %s: %s", path, err);
}

/* The load fails and the message contains `want` (file:line: reason). */
static void load_bad(const char *path, double mhz, const char *want)
{
	struct messsim_family f;
	struct messsim_load_opts lo = { mhz };
	err[0] = 0;
	assert_int_equal(messsim_family_load(path, &lo, &f, err, sizeof err), -1);
	if (!strstr(err, want))
		fail_msg("error '%s' lacks '%s'", err, want);
}

static void expect_curve(const struct messsim_curve *c, size_t n, const int64_t *kbps, const int64_t *ps)
{
	assert_int_equal(c->n, n);
	for (size_t i = 0; i < n; i++) {
		if (c->kbps[i] != kbps[i] || c->ps[i] != ps[i])
			fail_msg("read %u point %zu: %lld kB/s %lld ps, want %lld %lld", c->read_pct, i,
			         (long long)c->kbps[i], (long long)c->ps[i], (long long)kbps[i], (long long)ps[i]);
	}
}

/* ---- loader -------------------------------------------------------------- */

/* Descending bandwidth (the Mess simulator's own order), blank lines and
 * comments; 40 and 60 measured: 0..38 copies of 40, 62..100 of 60, 42..58
 * interpolated.  Sorted by latency: 40 = (1000 MB/s, 100 ns), (2000, 200);
 * 60 = (3000, 300), (5000, 400).  50 is halfway: (2000, 200), (3500, 300);
 * 44 is 0.2 of the way: (1400, 140), (2600, 240). */
static void bwlat_descending(void **st)
{
	(void)st;
	put("bwlat_40.txt", "# comment\n2000.000 200\n\n1000 100.000\n");
	put("bwlat_60.txt", "5000 400\r\n3000 300\r\n");
	put("README", "not a curve\n");
	struct messsim_family f;
	load_ok(dir, 0, &f);
	assert_string_equal(f.format, "bwlat directory");
	assert_int_equal(f.measured, 2);
	expect_curve(&f.c[20], 2, (int64_t[]){ 1000000, 2000000 }, (int64_t[]){ 100000, 200000 });
	expect_curve(&f.c[30], 2, (int64_t[]){ 3000000, 5000000 }, (int64_t[]){ 300000, 400000 });
	expect_curve(&f.c[25], 2, (int64_t[]){ 2000000, 3500000 }, (int64_t[]){ 200000, 300000 });
	expect_curve(&f.c[22], 2, (int64_t[]){ 1400000, 2600000 }, (int64_t[]){ 140000, 240000 });
	assert_int_equal(f.c[25].how, MESSSIM_INTERPOLATED);
	assert_int_equal(f.c[25].lo, 40);
	assert_int_equal(f.c[25].hi, 60);
	assert_int_equal(f.c[0].how, MESSSIM_EXTRAPOLATED);
	assert_int_equal(f.c[0].lo, 40);
	expect_curve(&f.c[0], 2, (int64_t[]){ 1000000, 2000000 }, (int64_t[]){ 100000, 200000 });
	assert_int_equal(f.c[50].how, MESSSIM_EXTRAPOLATED);
	assert_int_equal(f.c[50].lo, 60);
	assert_int_equal(f.c[20].how, MESSSIM_MEASURED);
	char desc[8192];
	messsim_family_describe(&f, desc, sizeof desc);
	assert_non_null(strstr(desc, " 50 interpolated from 40 and 60, 2 points, max 3500.000 MB/s at 300.000 ns\n"));
	assert_non_null(strstr(desc, "  0 extrapolated from 40"));
	messsim_family_free(&f);
}

/* A directory rvmess parse wrote: its README labels 42 as interpolated
 * between 40 and 44 and 38 as a copy of 40.  Those keep their own rows (not
 * recomputed: 42's file is not halfway) and count as not measured; a README
 * of another origin labels nothing. */
static void bwlat_rvmess_readme(void **st)
{
	(void)st;
	put("bwlat_38.txt", "2000 200\n1000 100\n");
	put("bwlat_40.txt", "2000 200\n1000 100\n");
	put("bwlat_42.txt", "2500 250\n1000 100\n");
	put("bwlat_44.txt", "4000 400\n1000 100\n");
	put("README", "Mess simulator curves written by rvmess (docs/formats.md).\n"
	              "bwlat_38.txt extrapolated: a copy of 40, the nearest measured\n"
	              "bwlat_40.txt measured (12 points)\n"
	              "bwlat_42.txt interpolated between 40 and 44 (1 points measured at this R: too few)\n"
	              "bwlat_44.txt measured (9 points)\n");
	struct messsim_family f;
	load_ok(dir, 0, &f);
	assert_int_equal(f.measured, 2);
	assert_int_equal(f.c[21].how, MESSSIM_INTERPOLATED);
	assert_int_equal(f.c[21].lo, 40);
	assert_int_equal(f.c[21].hi, 44);
	expect_curve(&f.c[21], 2, (int64_t[]){ 1000000, 2500000 }, (int64_t[]){ 100000, 250000 });
	assert_int_equal(f.c[19].how, MESSSIM_EXTRAPOLATED);
	assert_int_equal(f.c[19].lo, 40);
	assert_int_equal(f.c[20].how, MESSSIM_MEASURED);
	assert_int_equal(f.c[22].how, MESSSIM_MEASURED);
	messsim_family_free(&f);

	put("README", "Some other tool's notes\nbwlat_42.txt interpolated between 40 and 44\n");
	load_ok(dir, 0, &f);
	assert_int_equal(f.measured, 4);
	assert_int_equal(f.c[21].how, MESSSIM_MEASURED);
	messsim_family_free(&f);
}

/* The same rows ascending give the same family; a curve of unequal point
 * counts interpolates at index fractions: 40 has 3 points (1000,100),
 * (2000,200), (3000,300), 60 has 2: (3000,300), (5000,500); resampled at
 * fractions 0, 0.5, 1: 60 -> (3000,300), (4000,400), (5000,500); 50 =
 * halfway: (2000,200), (3000,300), (4000,400). */
static void bwlat_ascending_unequal(void **st)
{
	(void)st;
	put("bwlat_40.txt", "1000 100\n2000 200\n3000 300\n");
	put("bwlat_60.txt", "3000 300\n5000 500\n");
	struct messsim_family f;
	load_ok(dir, 0, &f);
	expect_curve(&f.c[25], 3, (int64_t[]){ 2000000, 3000000, 4000000 }, (int64_t[]){ 200000, 300000, 400000 });
	messsim_family_free(&f);
}

/* Latency in cycles at 2000 MHz: 300 cycles = 150 ns. */
static void bwlat_cycles(void **st)
{
	(void)st;
	put("bwlat_0.txt", "1000 300\n");
	put("bwlat_100.txt", "2000 500\n");
	struct messsim_family f;
	load_ok(dir, 2000, &f);
	expect_curve(&f.c[0], 1, (int64_t[]){ 1000000 }, (int64_t[]){ 150000 });
	expect_curve(&f.c[50], 1, (int64_t[]){ 2000000 }, (int64_t[]){ 250000 });
	/* 50: halfway between */
	expect_curve(&f.c[25], 1, (int64_t[]){ 1500000 }, (int64_t[]){ 200000 });
	messsim_family_free(&f);
}

/* A wave: bandwidth rises to 3000 MB/s at 250 ns, then falls to 2500 at
 * 400 ns while latency keeps rising.  It loads (rows in file order: by
 * bandwidth descending, the wave point in the middle), sorted by latency;
 * the highest bandwidth is point 2. */
static void bwlat_wave(void **st)
{
	(void)st;
	put("bwlat_0.txt", "3000 250\n2500 400\n2000 150\n1000 100\n");
	put("bwlat_100.txt", "3000 250\n2500 400\n2000 150\n1000 100\n");
	struct messsim_family f;
	load_ok(dir, 0, &f);
	const struct messsim_curve *c = &f.c[0];
	expect_curve(c, 4, (int64_t[]){ 1000000, 2000000, 3000000, 2500000 },
	             (int64_t[]){ 100000, 150000, 250000, 400000 });
	assert_int_equal(c->imax, 2);
	/* lower branch: 2500 MB/s is halfway between (2000,150) and (3000,250):
	 * 200 ns, not the wave's 400 */
	assert_int_equal(messsim_curve_ps_at(c, 2500000), 200000);
	/* below the first point: its latency; above the maximum: the maximum's */
	assert_int_equal(messsim_curve_ps_at(c, 500000), 100000);
	assert_int_equal(messsim_curve_ps_at(c, 9000000), 250000);
	/* bandwidth at a latency: 325 ns is halfway from (3000,250) to
	 * (2500,400): 2750 MB/s; past the end: the last point's */
	assert_int_equal(messsim_curve_kbps_at(c, 325000), 2750000);
	assert_int_equal(messsim_curve_kbps_at(c, 900000), 2500000);
	assert_int_equal(messsim_curve_kbps_at(c, 1000), 1000000);
	/* the throttle's: a curve ending on a wave is not extended */
	assert_int_equal(messsim_curve_kbps_past(c, 900000), 2500000);
	assert_int_equal(messsim_curve_kbps_past(c, 325000), 2750000);
	/* one still rising at its end goes on along its last segment:
	 * (1000,100) (2000,150): 20 MB/s per ns, 150 ns past the end +3000 */
	messsim_family_free(&f);
	put("bwlat_0.txt", "1000 100\n2000 150\n");
	put("bwlat_100.txt", "1000 100\n2000 150\n");
	load_ok(dir, 0, &f);
	const struct messsim_curve *r = &f.c[0];
	assert_int_equal(messsim_curve_kbps_past(r, 300000), 5000000);
	assert_int_equal(messsim_curve_kbps_past(r, 125000), 1500000);
	assert_int_equal(messsim_curve_kbps_at(r, 300000), 2000000);
	messsim_family_free(&f);
}

/* Mess 2 CSV: quoted header, empty cells in columns the simulator does
 * not use, the _smooth pair preferred; GB/s -> MB/s; read 99.4 rounds to
 * 100 (nearest even: 2 x round(49.7)), 47 to 48 (2 x round(23.5), half up). */
static void csv_mess2(void **st)
{
	(void)st;
	put("m2.csv", "\"read_pct_rounded\",\"pause\",\"bandwidth_mean\",\"bandwidth_std\",rd_percentage_actual_mean,"
	              "\"latency_mean\",latency_std,\"bandwidth_smooth\",\"latency_smooth\",rw_ratio\n"
	              "99.4,0,9.9,,,999,,1.5,120.5,\n"
	              "100,10,9.9,,,999,,0.5,110,\n"
	              "\n"
	              "47,0,9.9,,,999,,2.25,300,\n");
	struct messsim_family f;
	load_ok(at("m2.csv"), 0, &f);
	assert_string_equal(f.format, "Mess 2 CSV");
	assert_int_equal(f.measured, 2);
	expect_curve(&f.c[50], 2, (int64_t[]){ 500000, 1500000 }, (int64_t[]){ 110000, 120500 });
	expect_curve(&f.c[24], 1, (int64_t[]){ 2250000 }, (int64_t[]){ 300000 });
	assert_int_equal(f.c[24].how, MESSSIM_MEASURED);
	messsim_family_free(&f);
	/* without the smooth pair: the means */
	put("m2b.csv", "read_pct_rounded,bandwidth_mean,latency_mean\n0,1,100\n100,2,200\n");
	load_ok(at("m2b.csv"), 0, &f);
	expect_curve(&f.c[0], 1, (int64_t[]){ 1000000 }, (int64_t[]){ 100000 });
	messsim_family_free(&f);
}

/* Mess 1 CSV: latency in cycles, refused without a frequency; at 2100 MHz
 * 210 cycles = 100 ns, 420 = 200 ns; rd_percentage 67.3 -> 68. */
static void csv_mess1(void **st)
{
	(void)st;
	put("m1.csv", "type,rd_percentage,pause,bandwidth_mean,bandwidth_std,bandwidth_min,bandwidth_max,latency_mean,"
	              "latency_std,latency_min,latency_max,bandwidth_smooth,latency_smooth\n"
	              "x,67.3,0,5,,,,1,,,,4,420\n"
	              "x,100,0,5,,,,1,,,,8,210\n");
	load_bad(at("m1.csv"), 0, "m1.csv:1: a Mess 1 CSV gives latency in cycles");
	struct messsim_family f;
	load_ok(at("m1.csv"), 2100, &f);
	assert_string_equal(f.format, "Mess 1 CSV (latency in cycles)");
	expect_curve(&f.c[34], 1, (int64_t[]){ 4000000 }, (int64_t[]){ 200000 });
	expect_curve(&f.c[50], 1, (int64_t[]){ 8000000 }, (int64_t[]){ 100000 });
	messsim_family_free(&f);
}

/* A family folder (rvmess parse's output): bwlat/ preferred, else mess.csv. */
static void folder(void **st)
{
	(void)st;
	char p[256];
	put("mess.csv", "read_pct_rounded,bandwidth_mean,latency_mean\n0,1,100\n100,2,200\n");
	struct messsim_family f;
	load_ok(dir, 0, &f);
	assert_string_equal(f.format, "Mess 2 CSV");
	messsim_family_free(&f);
	snprintf(p, sizeof p, "%s/bwlat", dir);
	assert_int_equal(mkdir(p, 0777), 0);
	put("bwlat/bwlat_0.txt", "7 70\n");
	put("bwlat/bwlat_2.txt", "8 80\n");
	load_ok(dir, 0, &f);
	assert_string_equal(f.format, "bwlat directory");
	expect_curve(&f.c[50], 1, (int64_t[]){ 8000 }, (int64_t[]){ 80000 });
	messsim_family_free(&f);
}

/* What smoothing leaves in the families the Mess project publishes: a
 * 100 %-reads file in their order (highest latency first) ending with the
 * rows of a DDR5 server's unloaded end, -725.38 MB/s at 316.73 ns and
 * -1589.28 at 316.60; a row repeated (line 3 = line 2); a row on the rising
 * branch below the bandwidth a row of lower latency reached (line 5: 2500
 * MB/s at 420 ns after 3000 at 400); the wave after the highest bandwidth
 * (line 1: 3500 at 500 ns after 4000 at 450) is a curve's, kept.  Loaded:
 * the negative rows clamped to 0, lines 3 and 5 dropped; in latency order
 * (0, 316.60) (0, 316.73) (1451.78, 317.21) (3000, 400) (4000, 450) (3500,
 * 500).  One warning for the file, naming its first adjusted line and each
 * adjustment (clamps, repeats, then rows out of order). */
static void bwlat_smoothing_artefacts(void **st)
{
	(void)st;
	put("bwlat_100.txt", "3500 500\n"        /* 1: the wave */
	                     "4000 450\n"        /* 2 */
	                     "4000 450\n"        /* 3: the same as 2 */
	                     "3000 400\n"        /* 4 */
	                     "2500 420\n"        /* 5: below line 4's 3000 at a lower latency */
	                     "1451.78 317.21\n"  /* 6 */
	                     "-725.38 316.73\n"  /* 7: clamped */
	                     "-1589.28 316.60\n" /* 8: clamped */);
	put("bwlat_0.txt", "4000 450\n0 316.6\n");
	struct messsim_family f;
	load_ok(dir, 0, &f);
	expect_curve(&f.c[50], 6, (int64_t[]){ 0, 0, 1451780, 3000000, 4000000, 3500000 },
	             (int64_t[]){ 316600, 316730, 317210, 400000, 450000, 500000 });
	assert_int_equal(f.c[50].imax, 4);
	assert_non_null(f.warnings);
	char want[512];
	snprintf(want, sizeof want,
	         "%s/bwlat_100.txt:3: 4 rows adjusted (smoothing artefacts): line 7: bandwidth -725.380 MB/s clamped to 0; "
	         "line 8: bandwidth -1589.280 MB/s clamped to 0; line 3: the same as line 2, dropped; line 5: out of order "
	         "(2500.000 MB/s, below line 4's 3000.000 at a lower latency), dropped\n",
	         dir);
	assert_string_equal(f.warnings, want);
	/* the clean file of the same family says nothing */
	assert_null(strstr(f.warnings, "bwlat_0.txt"));
	messsim_family_free(&f);
	/* over four adjustments in a file: the first four, then a count; a
	 * CSV names each row's read % */
	put("bwlat_100.txt", "-1 100\n-2 100.5\n-3 101\n-4 101.5\n-5 102\n-6 102.5\n1000 200\n");
	load_ok(dir, 0, &f);
	assert_non_null(strstr(f.warnings, "bwlat_100.txt:1: 6 rows adjusted"));
	assert_non_null(strstr(f.warnings, "; and 2 more\n"));
	messsim_family_free(&f);
	put("m.csv", "read_pct_rounded,bandwidth_mean,latency_mean\n0,1,100\n100,2,200\n100,-0.001,150\n");
	load_ok(at("m.csv"), 0, &f);
	assert_non_null(strstr(f.warnings, "m.csv:4: 1 row adjusted (smoothing artefacts): line 4 (read 100 %): bandwidth -1.000 MB/s clamped to 0\n"));
	expect_curve(&f.c[50], 2, (int64_t[]){ 0, 2000000 }, (int64_t[]){ 150000, 200000 });
	messsim_family_free(&f);
}

/* Refusals, each with its file, line and reason. */
static void refusals(void **st)
{
	(void)st;
	put("one.csv", "read_pct_rounded,bandwidth_mean,latency_mean\n50,1,100\n52,1,100\n");
	/* 50 and 52 are two ratios: accepted; a single one is not */
	struct messsim_family f;
	load_ok(at("one.csv"), 0, &f);
	messsim_family_free(&f);
#define H "read_pct_rounded,bandwidth_mean,latency_mean\n"
	static const struct { const char *name, *text, *want; } bad[] = {
		{ "single.csv", H "50,1,100\n50,2,110\n", "single.csv: one read ratio (50 %); a family needs at least two" },
		{ "nonnum.csv", H "0,1,100\n100,x1,100\n", "nonnum.csv:3: 'x1' is not a number" },
		{ "allneg.csv", H "0,1,100\n\n100,-1,100\n", "allneg.csv: read 100 %: no row with a positive bandwidth" },
		{ "zero.csv", H "0,1,0\n100,1,100\n", "zero.csv:2: latency is not positive" },
		{ "hdr.csv", H, "hdr.csv:1: no data rows (header only)" },
		{ "empty.csv", "", "empty.csv:1: empty file (no header)" },
		{ "nohdr.csv", "1,2,3\n", "nohdr.csv:1: header has neither read_pct_rounded" },
		{ "emptycell.csv", H "0,1,100\n100,,100\n", "emptycell.csv:3: column 2 is empty" },
		{ "inf.csv", H "0,1,100\n100,inf,100\n", "inf.csv:3: 'inf' is not a number" },
		{ "pct.csv", H "0,1,100\n101,1,100\n", "pct.csv:3: read % 101 outside 0..100" },
	};
#undef H
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		put(bad[i].name, bad[i].text);
		load_bad(at(bad[i].name), 0, bad[i].want);
	}
	load_bad(at("missing.csv"), 0, "missing.csv: cannot open");
}

static void bwlat_refusals(void **st)
{
	(void)st;
	char p[256];
	snprintf(p, sizeof p, "%s/d1", dir);
	assert_int_equal(mkdir(p, 0777), 0);
	put("d1/bwlat_0.txt", "1 100\n");
	load_bad(p, 0, "1 measured read ratio; a family needs at least two");
	put("d1/bwlat_2.txt", "1 100\n2 abc\n");
	load_bad(p, 0, "d1/bwlat_2.txt:2: 'abc' is not a number");
	put("d1/bwlat_2.txt", "1 100\n2 -5\n");
	load_bad(p, 0, "d1/bwlat_2.txt:2: latency is not positive");
	put("d1/bwlat_2.txt", "-1 100\n0 110\n");
	load_bad(p, 0, "d1/bwlat_2.txt:2: no row with a positive bandwidth");
	put("d1/bwlat_2.txt", "1 100 7\n");
	load_bad(p, 0, "d1/bwlat_2.txt:1: 3 fields, want 2");
	put("d1/bwlat_2.txt", "# only a comment\n\n");
	load_bad(p, 0, "d1/bwlat_2.txt:2: no data rows");
	put("d1/bwlat_2.txt", "1 100\n");
	put("d1/bwlat_3.txt", "1 100\n");
	load_bad(p, 0, "d1/bwlat_3.txt: read % 3 is not one of 0, 2, ..., 100");
	snprintf(p, sizeof p, "%s/d2", dir);
	assert_int_equal(mkdir(p, 0777), 0);
	load_bad(p, 0, "d2: no bwlat_<R>.txt files");
}

/* ---- controller ------------------------------------------------------------ */

/* Linear curve for every ratio: (0 MB/s, 100 ns) .. (12800, 200). */
static struct messsim *linear(unsigned window, double conv, double onchip)
{
	struct messsim_family f;
	messsim_family_init(&f);
	double bw[] = { 0, 12800 }, ns[] = { 100, 200 };
	assert_int_equal(messsim_family_set(&f, 0, 2, bw, ns, err, sizeof err), 0);
	assert_int_equal(messsim_family_set(&f, 100, 2, bw, ns, err, sizeof err), 0);
	assert_int_equal(messsim_family_finish(&f, err, sizeof err), 0);
	struct messsim_opts o;
	messsim_opts_default(&o);
	o.freq_mhz = 1000;
	o.window = window;
	o.convergence = conv;
	o.onchip_ns = onchip;
	struct messsim *s = messsim_open_family(&f, &o, err, sizeof err);
	if (!s)
		fail_msg("open: %s", err);
	return s;
}

/* One 64-byte request every 10 cycles at 1 GHz = 6400 MB/s; with
 * convergence 1 the estimate is the observation.  The first window spans
 * 99 gaps (990 cycles: 6464.646 MB/s -> 150.505 ns), every later one 100
 * (1000 cycles: exactly 6400 MB/s -> 150 ns).  On-chip 30 ns: 120 cycles. */
static void ctrl_linear_exact(void **st)
{
	(void)st;
	struct messsim *s = linear(100, 1.0, 30);
	struct messsim_stats x;
	uint64_t t = 0;
	/* before the first window: the unloaded 100 ns - 30 = 70 cycles */
	assert_int_equal(messsim_request(s, 0, t), 70);
	for (int i = 1; i < 100; i++)
		messsim_request(s, 0, t += 10);
	messsim_stats(s, &x);
	assert_int_equal(x.windows, 1);
	assert_int_equal(x.obs_kbps, 6464646);             /* 6400 kB x 1e6 / 990 */
	assert_int_equal(x.curve_ps, 150505);              /* 100000 + 100000 x 6464646 / 12800000 */
	assert_int_equal(x.hold_cycles, 121);              /* 120.505 rounded */
	for (int i = 0; i < 100; i++)
		messsim_request(s, 0, t += 10);
	messsim_stats(s, &x);
	assert_int_equal(x.windows, 2);
	assert_int_equal(x.obs_kbps, 6400000);
	assert_int_equal(x.curve_ps, 150000);
	assert_int_equal(x.hold_cycles, 120);
	assert_int_equal(x.read_pct, 100);
	assert_int_equal(messsim_request(s, 1, t += 10), 120);
	messsim_close(s);
}

/* The held latency's fraction is carried: 150 ns - 29.75 on-chip = 120.25
 * cycles; 100 requests get 120 or 121 cycles, 12025 in all (one in four
 * gets 121). */
static void ctrl_fraction_carried(void **st)
{
	(void)st;
	struct messsim *s = linear(100, 1.0, 29.75);
	uint64_t t = 0, sum = 0;
	for (int i = 0; i < 200; i++) /* two windows: 6400 MB/s held */
		messsim_request(s, 0, t += 10);
	for (int i = 0; i < 100; i++) {
		uint64_t l = messsim_request(s, 0, t += 10);
		assert_true(l == 120 || l == 121);
		sum += l;
	}
	assert_int_equal(sum, 12025);
	messsim_close(s);
}

/* The estimate is the bandwidth over the last ~1/c windows: running sums
 * of the windows' bytes and cycles, each moving 0.05 of the way per window,
 * divided.  The first window sets both (est = its observation: 99 gaps of
 * 10 cycles, 6464.646 MB/s); then 6400 MB/s (100 requests per 1000 cycles)
 * for 199 windows, and the rate halves (2000 cycles per window): the
 * cycles' sum moves from 1000 to 2000 as 2000 - 1000 x 0.95^k, so the
 * estimate 6400 x 1000 / (2000 - 1000 x 0.95^k) MB/s is within 2 % of
 * 3200 once 0.95^k <= 2 - 2 / 1.02 = 0.0392: from k = 64 (0.95^63 =
 * 0.0395, 0.95^64 = 0.0375; the Q16 rounding of 0.05 is 3277 / 65536). */
static void ctrl_convergence_rate(void **st)
{
	(void)st;
	struct messsim *s = linear(100, 0.05, 0);
	struct messsim_stats x;
	uint64_t t = 0;
	int first = -1;
	for (int i = 0; i < 100; i++)
		messsim_request(s, 0, t += 10);
	messsim_stats(s, &x);
	assert_int_equal(x.windows, 1);
	assert_int_equal(x.est_kbps, 6464646);
	for (int w = 2; w <= 200; w++)
		for (int i = 0; i < 100; i++)
			messsim_request(s, 0, t += 10);
	messsim_stats(s, &x);
	assert_true(x.est_kbps >= 6399000 && x.est_kbps <= 6401000);
	uint64_t conv = x.converged_windows;
	for (int k = 1; k <= 100; k++) {
		for (int i = 0; i < 100; i++)
			messsim_request(s, 0, t += 20);
		messsim_stats(s, &x);
		double d = (double)(x.est_kbps - 3200000) / 3200000;
		if (k == 63)
			assert_true(d > 0.02);
		if (first < 0 && d <= 0.02)
			first = k;
	}
	assert_int_equal(first, 64);
	assert_int_equal(x.converged_windows - conv, 100 - 63);
	messsim_close(s);
}

/* The latency never reaches zero: an on-chip part above the curve gives
 * one cycle. */
static void ctrl_min_one_cycle(void **st)
{
	(void)st;
	struct messsim *s = linear(10, 1.0, 500);
	/* 64 B per 100 cycles: 640 MB/s, 105 ns on the curve, below 500 */
	for (int i = 0; i < 100; i++)
		assert_int_equal(messsim_request(s, i & 1, (uint64_t)i * 100), 1);
	messsim_close(s);
}

/* 0 % reads -> (0,100)..(10000,100) flat, 100 % reads -> (0,100)..(10000,300);
 * three windows of 100 requests at 5000 MB/s (64 B per 12.8 cycles), `reads`
 * of every 100 reads; the statistics after them. */
static void read_share_run(unsigned reads, struct messsim_stats *x)
{
	struct messsim_family f;
	messsim_family_init(&f);
	double bw[] = { 0, 10000 }, flat[] = { 100, 100 }, steep[] = { 100, 300 };
	assert_int_equal(messsim_family_set(&f, 0, 2, bw, flat, err, sizeof err), 0);
	assert_int_equal(messsim_family_set(&f, 100, 2, bw, steep, err, sizeof err), 0);
	assert_int_equal(messsim_family_finish(&f, err, sizeof err), 0);
	assert_int_equal(f.c[15].how, MESSSIM_INTERPOLATED);
	struct messsim_opts o;
	messsim_opts_default(&o);
	o.freq_mhz = 1000;
	o.window = 100;
	o.convergence = 1;
	struct messsim *s = messsim_open_family(&f, &o, err, sizeof err);
	assert_non_null(s);
	for (int w = 0; w < 3; w++)
		for (unsigned i = 0; i < 100; i++)
			messsim_request(s, i >= reads, (uint64_t)((w * 100 + (int)i + 1) * 64 / 5));
	messsim_stats(s, x);
	messsim_close(s);
}

/* The read share picks the curve: 30 % reads read curve 30 (interpolated
 * 0.3 of the way: (0,100), (10000,160)): 5000 MB/s -> 130 ns. */
static void ctrl_read_share(void **st)
{
	(void)st;
	struct messsim_stats x;
	read_share_run(30, &x);
	assert_int_equal(x.read_pct, 30);
	assert_int_equal(x.obs_kbps, 5000000);
	assert_int_equal(x.curve_ps, 130000);
}

/* Between two even ratios the curves are blended by the read share's place
 * between them, not rounded to one: 31 % reads at 5000 MB/s read
 * 100 + 0.31 x 200 x 0.5 = 131 ns (curve 30: 130, curve 32: 132; rounding
 * to either gives one of those). */
static void ctrl_read_share_blend(void **st)
{
	(void)st;
	struct messsim_stats x;
	read_share_run(31, &x);
	assert_int_equal(x.obs_kbps, 5000000);
	assert_true(x.curve_ps >= 130999 && x.curve_ps <= 131001);
}

/* A closed-loop CPU model: q requests always outstanding, each re-issued
 * when the previous one returns (64 B each, 1 GHz).  Runs `n` requests and
 * returns the bandwidth (MB/s) and mean latency (cycles) of the last half. */
static void closed_loop(struct messsim *s, unsigned q, unsigned n, double *mbps, double *lat, uint64_t *minlat)
{
	uint64_t next[64] = { 0 }, t0 = 0, sum = 0, cnt = 0, t = 0;
	*minlat = ~0ull;
	for (unsigned k = 0; k < n; k++) {
		unsigned j = 0;
		for (unsigned i = 1; i < q; i++)
			if (next[i] < next[j])
				j = i;
		t = next[j];
		uint64_t l = messsim_request(s, 0, t);
		if (l < *minlat)
			*minlat = l;
		next[j] = t + l;
		if (k == n / 2)
			t0 = t;
		if (k > n / 2) {
			sum += l;
			cnt++;
		}
	}
	*mbps = (double)cnt * 64 * 1e3 / (double)(t - t0);
	*lat = (double)sum / (double)cnt;
}

static struct messsim *family3(double b1, double l1, double b2, double l2, double b3, double l3)
{
	struct messsim_family f;
	messsim_family_init(&f);
	double bw[] = { 0, b1, b2, b3 }, ns[] = { 100, l1, l2, l3 };
	assert_int_equal(messsim_family_set(&f, 0, 4, bw, ns, err, sizeof err), 0);
	assert_int_equal(messsim_family_set(&f, 100, 4, bw, ns, err, sizeof err), 0);
	assert_int_equal(messsim_family_finish(&f, err, sizeof err), 0);
	struct messsim_opts o;
	messsim_opts_default(&o);
	o.freq_mhz = 1000;
	o.window = 200;
	struct messsim *s = messsim_open_family(&f, &o, err, sizeof err);
	assert_non_null(s);
	return s;
}

/* Saturating curve (0,100) (10000,150) (12000,300) (12800,600), 32
 * requests in flight: the CPU side asks for 32 x 64 B / L = 2048/L GB/s.
 * The equilibrium is where that meets the curve, found here by bisection
 * on the 150..300 ns segment (B = 10 + 2 (L - 150) / 150 GB/s): L = 193.2,
 * B = 10.58 GB/s.  The loop settles there within 2 %. */
/* The closed loop with q requests in flight (demand q x 64 B / L) settles
 * within 2 % where the demand meets the curve, B = seg(L) GB/s on the
 * segment lo..hi ns: found here by bisection. */
static void expect_equilibrium(struct messsim *s, unsigned q, double (*seg)(double), double lo, double hi,
                               const char *what)
{
	for (int i = 0; i < 60; i++) {
		double m = (lo + hi) / 2;
		if (q * 64 / m > seg(m))
			lo = m;
		else
			hi = m;
	}
	double leq = lo, beq = q * 64 / lo * 1000, mbps, lat;
	uint64_t minlat;
	closed_loop(s, q, 400000, &mbps, &lat, &minlat);
	print_message("%s: equilibrium %.1f ns %.0f MB/s; loop %.1f cycles %.0f MB/s\n", what, leq, beq, lat, mbps);
	assert_true(mbps > 0.98 * beq && mbps < 1.02 * beq);
	assert_true(lat > 0.98 * leq && lat < 1.02 * leq);
	assert_true(minlat >= 1);
}

static double seg_saturating(double l) { return 10 + 2 * (l - 150) / 150; }
static double seg_wave(double l) { return 12 - 2 * (l - 300) / 300; }

static void ctrl_closed_loop_saturating(void **st)
{
	(void)st;
	struct messsim *s = family3(10000, 150, 12000, 300, 12800, 600);
	expect_equilibrium(s, 32, seg_saturating, 150, 300, "saturating");
	struct messsim_stats x;
	messsim_stats(s, &x);
	/* only the start: 32 loads at once at the unloaded 100 ns ask for
	 * 20.5 GB/s, above the curve's 12.8 */
	assert_true(x.throttled_windows <= 5);
	messsim_close(s);
}

/* Overflow: curve (0,100) (5000,120) (6000,200) and 32 in flight.  At the
 * last point the CPU side still asks for 2048/200 = 10.24 GB/s > 6: the
 * throttle must raise the latency past the curve's end.  The curve still
 * gains bandwidth there (1 GB/s per 80 ns), so past it B(T) = 6 + (T -
 * 200) / 80 GB/s: the loop settles where 2048 / T = B(T), T = 288.3 ns at
 * 7.10 GB/s; 32 - 18.75 more requests in flight than at the end raise the
 * latency by 6.7 ns each, less than on the last segment (80 ns over 9.4
 * requests, 8.5).  Held at the end's bandwidth (the rule before), Little's
 * law put it at 341.3 ns: 10.7 ns a request, faster than the curve. */
static double seg_past_end(double l) { return 6 + (l - 200) / 80; }

static void ctrl_overflow_throttles(void **st)
{
	(void)st;
	struct messsim *s = family3(4000, 110, 5000, 120, 6000, 200);
	expect_equilibrium(s, 32, seg_past_end, 200, 400, "overflow past a rising end");
	struct messsim_stats x;
	messsim_stats(s, &x);
	assert_true(x.overflow_windows > 0);
	assert_true(x.throttled_windows > x.windows / 2);
	messsim_close(s);
}

/* A wave: (0,100) (10000,150) (12000,300) (10000,600): with 64 in flight
 * the demand 4096/L GB/s meets the curve on the falling branch, where
 * 4096/L = 12 - 2 (L - 300)/300: by bisection on 300..600, L = 351.4 ns,
 * 11.66 GB/s.  The throttle walks the falling branch to it. */
static void ctrl_wave_falling_branch(void **st)
{
	(void)st;
	struct messsim *s = family3(10000, 150, 12000, 300, 10000, 600);
	expect_equilibrium(s, 64, seg_wave, 300, 600, "wave");
	messsim_close(s);
}

/* A closed loop of K requests always outstanding for any K: each request is
 * issued again the cycle it returns (a min-heap of return cycles), 64 B
 * each at 1 GHz, one read in every `rd` hundred... all reads here.  Runs n
 * requests; the bandwidth (MB/s) of the last half. */
static double deep_loop(struct messsim *s, unsigned k, uint64_t n)
{
	uint64_t *h = calloc(k, sizeof *h), t = 0, t0 = 0;
	assert_non_null(h);
	for (uint64_t i = 0; i < n; i++) {
		t = h[0]; /* the earliest return: issue again */
		uint64_t v = t + messsim_request(s, 0, t);
		size_t j = 0; /* sift v down from the root */
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
		if (i == n / 2)
			t0 = t;
	}
	free(h);
	return (double)(n - n / 2) * 64 * 1e3 / (double)(t - t0);
}

/* Where K outstanding settle on curve c (1 GHz, so ns = cycles): on the
 * lower branch, the bandwidth B with K x 64 B / L(B) = B (bisection); when
 * even L_max asks more than B_max, on the throttle: the first latency T
 * from L_max up with K x 64 B / T <= B(T), the curve's bandwidth at that
 * latency (a scan, then bisection). */
static double deep_equilibrium(const struct messsim_curve *c, double k)
{
	double bmax = (double)c->kbps[c->imax] / 1e3, lmax = (double)c->ps[c->imax] / 1e3;
	if (k * 64000 / lmax <= bmax) {
		double lo = 0, hi = bmax;
		for (int i = 0; i < 100; i++) {
			double m = (lo + hi) / 2, l = (double)messsim_curve_ps_at(c, (int64_t)(m * 1e3)) / 1e3;
			if (k * 64000 / l > m)
				lo = m;
			else
				hi = m;
		}
		return lo;
	}
	double lo = lmax, hi = lmax;
	while (k * 64000 / hi > (double)messsim_curve_kbps_past(c, (int64_t)(hi * 1e3)) / 1e3)
		lo = hi, hi *= 1.01;
	for (int i = 0; i < 100; i++) {
		double m = (lo + hi) / 2;
		if (k * 64000 / m > (double)messsim_curve_kbps_past(c, (int64_t)(m * 1e3)) / 1e3)
			lo = m;
		else
			hi = m;
	}
	return k * 64000 / hi;
}

/* No collapse under deep traffic: a server-like curve (0, 90 ns),
 * (60 GB/s, 100), (100, 150), (110, 250), then a wave to (105, 400); K
 * from 100 to 10000 requests outstanding, windows of 10, 1000 (the
 * default) and 100000 requests.  Every loop settles within 0.5 % of its
 * equilibrium (from K = 430 on, past the curve's maximum: Little's law,
 * K x 64 B / T on the throttle) in its second half: a throttle fed by the
 * lagging estimate instead of the window's own bandwidth still rings there,
 * 0.7 % above.  A window shorter than a round trip of
 * the traffic collapsed it: K = 2000 outstanding with windows of 1000
 * requests arrive in bursts of 2000 one latency apart, a window inside a
 * burst read an enormous bandwidth, and the loop fell to 7 % of the curve's
 * maximum. */
static void ctrl_closed_loop_deep(void **st)
{
	(void)st;
	static const struct { unsigned k, window; } runs[] = {
		{ 100, 1000 }, { 1000, 1000 }, { 1500, 1000 }, { 2000, 1000 }, { 10000, 1000 },
		{ 2000, 10 }, { 2000, 100000 }, { 100, 100000 },
	};
	for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
		struct messsim_family f;
		messsim_family_init(&f);
		double bw[] = { 0, 60000, 100000, 110000, 105000 }, ns[] = { 90, 100, 150, 250, 400 };
		assert_int_equal(messsim_family_set(&f, 0, 5, bw, ns, err, sizeof err), 0);
		assert_int_equal(messsim_family_set(&f, 100, 5, bw, ns, err, sizeof err), 0);
		assert_int_equal(messsim_family_finish(&f, err, sizeof err), 0);
		struct messsim_opts o;
		messsim_opts_default(&o);
		o.freq_mhz = 1000;
		o.window = runs[r].window;
		struct messsim *s = messsim_open_family(&f, &o, err, sizeof err);
		assert_non_null(s);
		unsigned k = runs[r].k, w = runs[r].window;
		uint64_t n = 200 * (uint64_t)(k > w ? k : w);
		double want = deep_equilibrium(&messsim_family_of(s)->c[50], k), got = deep_loop(s, k, n < 400000 ? 400000 : n);
		print_message("K %u window %u: %.0f MB/s, equilibrium %.0f\n", k, w, got, want);
		if (!(got > 0.995 * want && got < 1.005 * want))
			fail_msg("K %u window %u: %.0f MB/s, want %.0f +- 0.5 %%", k, w, got, want);
		messsim_close(s);
	}
}

/* The throttle averages the windows' noise: 32 requests outstanding on
 * the overflow curve of ctrl_overflow_throttles, each issued again after
 * its latency and a random think time (exponential, mean 20 cycles: the
 * windows of 200 requests see rates a few % apart).  Over the second half
 * the held latency stays within 0.5 % (one standard deviation) of its
 * mean (0.08 %); a throttle that moved the whole way toward each window's
 * observation (no convergence factor in its step) follows the noise
 * (1.23 %). */
static void ctrl_throttle_noise(void **st)
{
	(void)st;
	struct messsim *s = family3(4000, 110, 5000, 120, 6000, 200);
	uint64_t next[32] = { 0 }, x = 12345, last = 0;
	double sum = 0, sum2 = 0;
	unsigned cnt = 0;
	for (unsigned k = 0; k < 400000; k++) {
		unsigned j = 0;
		for (unsigned i = 1; i < 32; i++)
			if (next[i] < next[j])
				j = i;
		uint64_t t = next[j], l = messsim_request(s, 0, t);
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		double u = ((double)(x >> 11) + 0.5) / 9007199254740992.0;
		next[j] = t + l + (uint64_t)(-20 * log(u));
		struct messsim_stats y;
		messsim_stats(s, &y);
		if (k > 200000 && y.windows != last) {
			sum += (double)y.hold_cycles;
			sum2 += (double)y.hold_cycles * (double)y.hold_cycles;
			cnt++;
		}
		last = y.windows;
	}
	double mean = sum / cnt, sd = sqrt(sum2 / cnt - mean * mean);
	print_message("throttle noise: held latency %.1f cycles, sd %.2f %% over %u windows\n", mean, 100 * sd / mean, cnt);
	assert_true(sd < 0.005 * mean);
	messsim_close(s);
}

/* Same inputs, same outputs: two simulators fed one irregular stream. */
static void ctrl_deterministic(void **st)
{
	(void)st;
	struct messsim *a = family3(10000, 150, 12000, 300, 12800, 600);
	struct messsim *b = family3(10000, 150, 12000, 300, 12800, 600);
	uint64_t t = 0, x = 1, ha = 0, hb = 0;
	for (int i = 0; i < 200000; i++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		t += x % 23;
		ha = ha * 31 + messsim_request(a, (int)(x >> 40) & 1, t);
		hb = hb * 31 + messsim_request(b, (int)(x >> 40) & 1, t);
	}
	assert_true(ha == hb);
	struct messsim_stats sa, sb;
	messsim_stats(a, &sa);
	messsim_stats(b, &sb);
	assert_memory_equal(&sa, &sb, sizeof sa);
	assert_int_equal(sa.requests, 200000);
	assert_int_equal(sa.windows, 1000);
	messsim_close(a);
	messsim_close(b);
}

/* Stress score: plateau (0,100) (6400,100) then (12800,300).  3200 MB/s:
 * latency 100 (position 0), flat (slope 0): 0.  9600: latency 200,
 * position 0.5, slope 200/6400 = the reference slope: 0.25 + 0.5 = 0.75.
 * 12800 and beyond: 1. */
static void stress_score(void **st)
{
	(void)st;
	struct messsim_family f;
	messsim_family_init(&f);
	double bw[] = { 0, 6400, 12800 }, ns[] = { 100, 100, 300 };
	assert_int_equal(messsim_family_set(&f, 0, 3, bw, ns, err, sizeof err), 0);
	const struct messsim_curve *c = &f.c[0];
	double lat;
	assert_true(messsim_stress_score(c, 3200000, &lat) == 0);
	assert_true(lat == 100);
	double sc = messsim_stress_score(c, 9600000, &lat);
	assert_true(sc > 0.7499 && sc < 0.7501);
	assert_true(lat == 200);
	assert_true(messsim_stress_score(c, 12800000, &lat) == 1);
	assert_true(messsim_stress_score(c, 20000000, &lat) == 1);
	messsim_family_free(&f);
}

/* ---- API errors ------------------------------------------------------------ */

static void api_errors(void **st)
{
	(void)st;
	struct messsim_opts o;
	messsim_opts_default(&o);
	assert_int_equal(o.window, 1000);
	assert_true(o.convergence == 0.05);
	put("bwlat_0.txt", "1000 100\n");
	put("bwlat_100.txt", "1000 100\n");
	struct { const char *field; double v; const char *want; } bad[] = {
		{ "freq", 0, "clock 0 MHz outside" },
		{ "window", 0, "window 0 requests outside" },
		{ "conv", 0, "convergence 0 outside" },
		{ "conv", 1.5, "convergence 1.5 outside" },
		{ "onchip", -1, "on-chip latency -1 ns outside" },
		{ "line", 0, "request size 0 bytes outside" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		messsim_opts_default(&o);
		o.freq_mhz = 1000;
		if (!strcmp(bad[i].field, "freq")) o.freq_mhz = bad[i].v;
		if (!strcmp(bad[i].field, "window")) o.window = (unsigned)bad[i].v;
		if (!strcmp(bad[i].field, "conv")) o.convergence = bad[i].v;
		if (!strcmp(bad[i].field, "onchip")) o.onchip_ns = bad[i].v;
		if (!strcmp(bad[i].field, "line")) o.line = (unsigned)bad[i].v;
		err[0] = 0;
		assert_null(messsim_open(dir, &o, err, sizeof err));
		if (!strstr(err, bad[i].want))
			fail_msg("'%s' lacks '%s'", err, bad[i].want);
	}
	messsim_opts_default(&o);
	o.freq_mhz = 1000;
	assert_null(messsim_open(at("nope"), &o, err, sizeof err));
	assert_non_null(strstr(err, "nope: cannot open"));
	struct messsim *s = messsim_open(dir, &o, err, sizeof err);
	assert_non_null(s);
	struct messsim_stats x;
	messsim_stats(s, &x);
	assert_int_equal(x.peak_kbps, 1000000);
	messsim_close(s);
	/* an unfinished family */
	struct messsim_family f;
	messsim_family_init(&f);
	double bw[] = { 1 }, ns[] = { 1 };
	assert_int_equal(messsim_family_set(&f, 0, 1, bw, ns, err, sizeof err), 0);
	assert_null(messsim_open_family(&f, &o, err, sizeof err));
	assert_non_null(strstr(err, "no curve for read % 2"));
	messsim_family_init(&f);
	assert_int_equal(messsim_family_set(&f, 40, 1, bw, ns, err, sizeof err), 0);
	assert_int_equal(messsim_family_finish(&f, err, sizeof err), -1);
	assert_non_null(strstr(err, "1 read ratio measured; a family needs at least two"));
	messsim_family_free(&f);
	messsim_family_init(&f);
	assert_int_equal(messsim_family_set(&f, 3, 1, bw, ns, err, sizeof err), -1);
	assert_non_null(strstr(err, "read % 3 is not one of"));
	assert_int_equal(messsim_family_finish(&f, err, sizeof err), -1);
	assert_non_null(strstr(err, "0 read ratios measured"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(bwlat_descending, setup, teardown),
		cmocka_unit_test_setup_teardown(bwlat_rvmess_readme, setup, teardown),
		cmocka_unit_test_setup_teardown(bwlat_ascending_unequal, setup, teardown),
		cmocka_unit_test_setup_teardown(bwlat_cycles, setup, teardown),
		cmocka_unit_test_setup_teardown(bwlat_wave, setup, teardown),
		cmocka_unit_test_setup_teardown(csv_mess2, setup, teardown),
		cmocka_unit_test_setup_teardown(csv_mess1, setup, teardown),
		cmocka_unit_test_setup_teardown(folder, setup, teardown),
		cmocka_unit_test_setup_teardown(bwlat_smoothing_artefacts, setup, teardown),
		cmocka_unit_test_setup_teardown(refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(bwlat_refusals, setup, teardown),
		cmocka_unit_test(ctrl_linear_exact),
		cmocka_unit_test(ctrl_fraction_carried),
		cmocka_unit_test(ctrl_convergence_rate),
		cmocka_unit_test(ctrl_min_one_cycle),
		cmocka_unit_test(ctrl_read_share),
		cmocka_unit_test(ctrl_read_share_blend),
		cmocka_unit_test(ctrl_closed_loop_saturating),
		cmocka_unit_test(ctrl_overflow_throttles),
		cmocka_unit_test(ctrl_wave_falling_branch),
		cmocka_unit_test(ctrl_throttle_noise),
		cmocka_unit_test(ctrl_closed_loop_deep),
		cmocka_unit_test(ctrl_deterministic),
		cmocka_unit_test(stress_score),
		cmocka_unit_test_setup_teardown(api_errors, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
