/* Unit tests: the sweep manifest (read, bad input, round trip), merge's point
 * bookkeeping (missing, failed, duplicated, unexpected) and adaptive pause
 * placement on synthetic curves with known knees. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli/log.h"
#include "cli/plan.h"
#include "cli_testutil.h"

static const char good_manifest[] =
	"rvmess-plan\t1\n"
	"# a comment\n"
	"target\thostsim\n"
	"command\t/x/hostsim --harts 8 $SIM \"$IMAGE\"\n"
	"reps\t2\n"
	"time\t600\n"
	"mem\t1024\n"
	"adaptive\t0.02\t9\t0,4,16,64\n"
	"config\tsmall\t--llc-size 1M --mem-model ddr\n"
	"config\tbig\t\n"
	"job\t0\tsmall\tchase,lat\t-\t-\n"
	"job\t1\tsmall\tmess\t0,20\t0,4\n"
	"job\t2\tbig\tmess\t0\t0,4,16,64\n";

static int read_text(const char *text, struct plan *p, struct diag *d)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	assert_non_null(f);
	rc = plan_read("m.tsv", f, d ? d->f : NULL, p);
	fclose(f);
	return rc;
}

static void test_manifest_good(void **state)
{
	struct plan p;

	(void)state;
	assert_int_equal(read_text(good_manifest, &p, NULL), 0);
	assert_string_equal(p.target, "hostsim");
	assert_string_equal(p.command, "/x/hostsim --harts 8 $SIM \"$IMAGE\"");
	assert_int_equal(p.reps, 2);
	assert_int_equal(p.time_s, 600);
	assert_int_equal(p.mem_mb, 1024);
	assert_int_equal(p.ncand, 4);
	assert_int_equal(p.cand[3], 64);
	assert_true(fabs(p.adapt_tol - 0.02) < 1e-12);
	assert_int_equal(p.adapt_budget, 9);
	assert_int_equal(p.nconfigs, 2);
	assert_string_equal(p.configs[0].sim, "--llc-size 1M --mem-model ddr");
	assert_string_equal(p.configs[1].sim, "");
	assert_int_equal(p.njobs, 3);
	assert_false(p.jobs[0].mess);
	assert_string_equal(p.jobs[0].suites, "chase,lat");
	assert_true(p.jobs[1].mess);
	assert_int_equal(p.jobs[1].nmix, 2);
	assert_int_equal(p.jobs[1].mix[1], 20);
	assert_int_equal(p.jobs[1].npause, 2);
	assert_int_equal(p.jobs[2].config, 1);
	assert_int_equal(p.jobs[2].pause[3], 64);
	assert_int_equal(p.jobs[2].line, 13);
	plan_free(&p);
}

static void test_manifest_roundtrip(void **state)
{
	struct plan p, q;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(read_text(good_manifest, &p, NULL), 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(plan_write(&p, f), 0);
	fclose(f);
	assert_int_equal(read_text(buf, &q, NULL), 0);
	assert_string_equal(q.command, p.command);
	assert_int_equal(q.njobs, p.njobs);
	assert_int_equal(q.nconfigs, p.nconfigs);
	assert_string_equal(q.configs[0].sim, p.configs[0].sim);
	assert_int_equal(q.ncand, p.ncand);
	assert_int_equal(q.adapt_budget, p.adapt_budget);
	for (size_t i = 0; i < p.njobs; i++) {
		assert_int_equal(q.jobs[i].config, p.jobs[i].config);
		assert_int_equal(q.jobs[i].nmix, p.jobs[i].nmix);
		assert_int_equal(q.jobs[i].npause, p.jobs[i].npause);
		assert_memory_equal(q.jobs[i].pause, p.jobs[i].pause, p.jobs[i].npause * sizeof(uint64_t));
		assert_string_equal(q.jobs[i].suites, p.jobs[i].suites);
	}
	plan_free(&p);
	plan_free(&q);
	free(buf);
}

#define HEAD "rvmess-plan\t1\ntarget\thostsim\ncommand\tx\nreps\t1\ntime\t60\nmem\t100\nconfig\tc0\t\n"

static void test_manifest_bad(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "", "m.tsv:0: empty: not an rvmess plan manifest" },
		{ "job\t0\tc0\tmess\t0\t0\n", "m.tsv:1: not an rvmess plan manifest" },
		{ "rvmess-plan\t2\n", "m.tsv:1: manifest version '2', this rvmess reads version 1" },
		{ HEAD "job\t1\tc0\tmess\t0\t0\n", "m.tsv:8: job id 1 out of order" },
		{ HEAD "job\t0\tc9\tmess\t0\t0\n", "m.tsv:8: job 0: configuration 'c9' is not defined above" },
		{ HEAD "job\t0\tc0\tmess\t3\t0\n", "m.tsv:8: job 0: mix 3 is not an even store percentage" },
		{ HEAD "job\t0\tc0\tmess\t0\t1,x\n", "m.tsv:8: job 0: pauses '1,x': a value is not a number" },
		{ HEAD "job\t0\tc0\tmess\t0\t1,,2\n", "m.tsv:8: job 0: pauses '1,,2': an empty value" },
		{ HEAD "job\t0\tc0\tmess\t0\t1,\n", "m.tsv:8: job 0: pauses '1,': an empty value" },
		{ HEAD "job\t0\tc0\tmess\t0\t4294967296\n", "m.tsv:8: job 0: pause 4294967296 is over" },
		{ HEAD "job\t0\tc0\tmess\t0\n", "m.tsv:8: a job line has 6 fields" },
		{ HEAD "job\t0\tc0\tmess\t-\t4\n", "m.tsv:8: job 0: mixes and pauses are both '-' or both lists" },
		{ HEAD "job\t0\tc0\tMESS\t0\t4\n", "m.tsv:8: job 0: suites 'MESS' is not" },
		{ HEAD "job\t0\tc0\tmess\t0,20\t4,8\njob\t1\tc0\tmess\t20\t8\n",
		  "m.tsv:9: job 1 plans mix=20 pause=8 of configuration c0 again (job 0, line 8)" },
		{ HEAD "jobs\t0\n", "m.tsv:8: unknown line kind 'jobs'" },
		{ HEAD "config\tc0\t-x\n", "m.tsv:8: configuration 'c0' defined twice" },
		{ HEAD "config\tc 1\t-x\n", "m.tsv:8: configuration name 'c 1'" },
		{ HEAD "time\t5\n", "m.tsv:8: second time line" },
		{ HEAD "adaptive\t0.02\t8\t0,16,4\n", "m.tsv:8: adaptive pauses are not strictly ascending (4 after 16)" },
		{ HEAD "adaptive\t2\t8\t0,4\n", "m.tsv:8: adaptive tolerance '2' is not a fraction" },
		{ "rvmess-plan\t1\ntarget\thostsim\ncommand\tx\nreps\t1\nmem\t100\nconfig\tc0\t\njob\t0\tc0\tmess\t0\t0\n",
		  "m.tsv:8: no time line" },
		{ "rvmess-plan\t1\ntarget\thostsim\ncommand\tx\nreps\t0\ntime\t1\nmem\t1\n", "m.tsv:4: reps: '0' is not a number in 1..100" },
		{ HEAD, "m.tsv:8: no job line" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct plan p;
		struct diag d;
		int rc;

		diag_open(&d);
		rc = read_text(cases[i].text, &p, &d);
		if (rc <= 0 || !strstr(diag_text(&d), cases[i].want))
			fail_msg("case %zu: rc %d, diagnostics '%s', want '%s'", i, rc, diag_text(&d), cases[i].want);
		/* nothing allocated is left behind: p was freed (ASan checks) */
		assert_null(p.jobs);
		diag_close(&d);
	}
}

/* One bad line is one problem: the jobs after a bad job line are still in
 * order (each job line takes the next id, good or bad), a long field is
 * echoed as its first 40 characters, and "." or ".." is no configuration
 * name (merge writes OUT/<name>/). */
static void test_manifest_one_bad_line(void **state)
{
	struct tbuf t = { 0 };
	char *big = malloc(600001);
	struct plan p;
	struct diag d;

	(void)state;
	assert_non_null(big);
	memset(big, 'x', 600000);
	big[600000] = '\0';
	tb_printf(&t, "%s", HEAD);
	tb_printf(&t, "job\t0\tc0\tmess\t0\t0\n");
	tb_printf(&t, "job\t1\tc0\tmess\t20\t");
	tb_put(&t, big, strlen(big));
	tb_printf(&t, "\n");
	for (int i = 2; i < 40; i++)
		tb_printf(&t, "job\t%d\tc0\tmess\t%d\t0\n", i, 2 * i);
	diag_open(&d);
	assert_int_equal(read_text(t.s, &p, &d), 1);
	assert_non_null(strstr(diag_text(&d), "m.tsv:9: job 1: pauses 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...': "
					 "a value is too long"));
	assert_null(strstr(diag_text(&d), "out of order"));
	assert_true(strlen(diag_text(&d)) < 200);
	diag_close(&d);
	tb_free(&t);
	free(big);
	for (int k = 0; k < 2; k++) {
		char m[256];

		/* HEAD defines c0; a config line for "." or ".." */
		snprintf(m, sizeof(m), "%sconfig\t%s\t\njob\t0\tc0\tmess\t0\t0\n", HEAD, k ? ".." : ".");
		diag_open(&d);
		assert_true(read_text(m, &p, &d) > 0);
		assert_non_null(strstr(diag_text(&d), k ? "m.tsv:8: configuration name '..'" : "m.tsv:8: configuration name '.'"));
		diag_close(&d);
	}
	assert_true(plan_name_ok("c0") && plan_name_ok("...") && plan_name_ok("a.b"));
	assert_false(plan_name_ok(".") || plan_name_ok("..") || plan_name_ok("") || plan_name_ok("a/b"));
}

/* ---- merge ------------------------------------------------------------------ */

static const char merge_manifest[] =
	"rvmess-plan\t1\ntarget\thostsim\ncommand\tx\nreps\t1\ntime\t60\nmem\t100\nconfig\tc0\t\n"
	"job\t0\tc0\tmess\t0\t1,2\n"
	"job\t1\tc0\tmess\t20\t1\n"
	"job\t2\tc0\tmess\t20\t2\n";

static void mess_rec(struct tbuf *b, unsigned long seq, unsigned mix, unsigned pause)
{
	char f[256];

	snprintf(f, sizeof(f), "mix=%u pause=%u rep=0 gens=3 loads=100 cycles=10000 ticks=100 ns=10000 cpl=100.000 "
		 "nspl=100.000 bw_iss=1000.000 rd_pct=100.000 src=iss", mix, pause);
	tb_rec(b, seq, "mess", 0, f);
}

static void make_log(struct rvm_log *g, const char *name, const unsigned (*pts)[2], size_t n, const char *after,
		     int end)
{
	struct tbuf b = { 0 };
	unsigned long s = 0;

	tb_rec(&b, s++, "hdr", 0, "proto=1 platform=virt harts=4");
	for (size_t i = 0; i < n; i++) {
		mess_rec(&b, s++, pts[i][0], pts[i][1]);
		if (after && i == 0)
			tb_rec(&b, s++, "integ", 0, after);
	}
	if (end) {
		char f[64];

		snprintf(f, sizeof(f), "status=ok errors=0 records=%lu", s);
		tb_rec(&b, s, "end", 0, f);
	}
	assert_int_equal(rvm_log_read_mem(name, b.s, b.len, NULL, g), 0);
	tb_free(&b);
}

static const struct merge_point *pt(const struct merge_set *m, unsigned mix, unsigned pause)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->pt[i].mix == mix && m->pt[i].pause == pause)
			return &m->pt[i];
	fail_msg("no point %u/%u", mix, pause);
	return NULL;
}

static void test_merge_points(void **state)
{
	struct plan p;
	struct merge_set m;
	struct merge_counts c;
	struct rvm_log g0, g1;
	struct diag d;
	static const unsigned j0[][2] = { { 0, 1 }, { 0, 2 } };
	static const unsigned j1[][2] = { { 20, 1 }, { 0, 2 }, { 40, 8 } };

	(void)state;
	assert_int_equal(read_text(merge_manifest, &p, NULL), 0);
	merge_init(&m, &p);
	assert_int_equal(m.n, 4);
	make_log(&g0, "j0.log", j0, 2, NULL, 1);
	/* job 1 also gives job 0's point 0/2 (a duplicate) and a point nobody planned */
	make_log(&g1, "j1.log", j1, 3, NULL, 0);
	diag_open(&d);
	merge_add_log(&m, &p, 0, &g0, d.f);
	merge_add_log(&m, &p, 1, &g1, d.f);
	merge_add_log(&m, &p, 2, NULL, d.f); /* job 2: no log */
	merge_count(&m, &c);
	assert_int_equal(c.good, 3);
	assert_int_equal(c.missing, 1);
	assert_int_equal(c.failed, 0);
	assert_int_equal(c.duplicated, 1);
	assert_int_equal(m.unexpected, 1);
	assert_int_equal(pt(&m, 20, 2)->state, PT_MISSING);
	assert_int_equal(pt(&m, 20, 2)->job, 2);
	assert_int_equal(pt(&m, 0, 2)->copies, 2);
	assert_int_equal(pt(&m, 0, 2)->from_job, 0); /* the first stays */
	assert_int_equal(pt(&m, 0, 2)->rec, 2);
	assert_int_equal(pt(&m, 20, 1)->from_job, 1);
	assert_non_null(strstr(diag_text(&d), "j1.log:3: mix=0 pause=2 rep=0: duplicated (also in job 0's log"));
	assert_non_null(strstr(diag_text(&d), "j1.log:4: mix=40 pause=8 rep=0: a point no job of the plan runs"));
	assert_true(merge_log_done(&g0));
	assert_false(merge_log_done(&g1)); /* no end record */
	assert_false(merge_log_done(NULL));
	diag_close(&d);
	rvm_log_free(&g0);
	rvm_log_free(&g1);
	merge_free(&m);
	plan_free(&p);
}

static void test_merge_failed(void **state)
{
	struct plan p;
	struct merge_set m;
	struct merge_counts c;
	struct rvm_log g0, g1;
	static const unsigned j0[][2] = { { 0, 1 }, { 0, 2 } };
	static const unsigned j1[][2] = { { 20, 1 } };

	(void)state;
	assert_int_equal(read_text(merge_manifest, &p, NULL), 0);
	merge_init(&m, &p);
	/* a wrong word found right after job 0's first point: that point fails, the next stays good */
	make_log(&g0, "j0.log", j0, 2, "check=mess-load hart=1 words=10 bad=1 addr=0x1 got=0x2", 1);
	/* a clean check (bad=0) fails nothing */
	make_log(&g1, "j1.log", j1, 1, "check=mess-load hart=1 words=10 bad=0", 1);
	merge_add_log(&m, &p, 0, &g0, NULL);
	merge_add_log(&m, &p, 1, &g1, NULL);
	merge_count(&m, &c);
	assert_int_equal(pt(&m, 0, 1)->state, PT_FAILED);
	assert_int_equal(pt(&m, 0, 2)->state, PT_GOOD);
	assert_int_equal(pt(&m, 20, 1)->state, PT_GOOD);
	assert_int_equal(c.failed, 1);
	assert_int_equal(c.good, 2);
	rvm_log_free(&g0);
	rvm_log_free(&g1);
	merge_free(&m);
	plan_free(&p);
}

/* ---- adaptive ------------------------------------------------------------------ */

static void test_adapt_coarse(void **state)
{
	size_t idx[16];

	(void)state;
	/* 16 candidates, 5 points: round(i * 15 / 4) = 0, 4 (3.75), 8 (7.5 rounds up), 11 (11.25), 15 */
	assert_int_equal(adapt_coarse(16, 5, idx), 5);
	assert_int_equal(idx[0], 0);
	assert_int_equal(idx[1], 4);
	assert_int_equal(idx[2], 8);
	assert_int_equal(idx[3], 11);
	assert_int_equal(idx[4], 15);
	assert_int_equal(adapt_coarse(3, 5, idx), 3);
	assert_int_equal(idx[2], 2);
	assert_int_equal(adapt_coarse(10, 1, idx), 2); /* at least both ends */
	assert_int_equal(idx[1], 9);
}

#define NC 32

/* Run placement on a synthetic curve to the end; returns points measured. */
static size_t place(const double *lat, const double *bw, double tol, size_t budget, int *have)
{
	uint64_t pause[NC];
	size_t idx[NC], n, total;
	struct adapt_curve c = { NC, pause, have, lat, bw };

	for (size_t i = 0; i < NC; i++) {
		pause[i] = i * 10;
		have[i] = 0;
	}
	n = adapt_coarse(NC, 5, idx);
	for (size_t i = 0; i < n; i++)
		have[idx[i]] = 1;
	total = n;
	for (int round = 0; round < 100; round++) {
		n = adapt_next(&c, tol, budget, idx, NC);
		if (!n)
			break;
		for (size_t i = 0; i < n; i++) {
			assert_false(have[idx[i]]); /* never a point twice */
			have[idx[i]] = 1;
		}
		total += n;
	}
	return total;
}

/* Every unmeasured candidate is within tol of the line between its measured neighbours. */
static double worst_interp(const double *v, const int *have, double scale)
{
	double worst = 0;
	size_t lo = 0;

	for (size_t i = 1; i < NC; i++) {
		if (!have[i])
			continue;
		for (size_t k = lo + 1; k < i; k++) {
			double e = v[lo] + (v[i] - v[lo]) * (double)(k - lo) / (double)(i - lo);
			double d = fabs(e - v[k]) / (scale > 0 ? scale : v[k]);

			if (d > worst)
				worst = d;
		}
		lo = i;
	}
	return worst;
}

static void test_adapt_latency_knee(void **state)
{
	double lat[NC], bw[NC];
	int have[NC];
	size_t n, flat = 0;
	const size_t K = 13; /* latency flat at 100 ns from candidate K on, rising by 50 ns per step below */

	(void)state;
	for (size_t i = 0; i < NC; i++) {
		lat[i] = i < K ? 100 + 50.0 * (double)(K - i) : 100;
		bw[i] = 10;
	}
	n = place(lat, bw, 0.02, NC, have);
	/* the knee is located exactly, the curve is known within 2 % everywhere, and the flat part
	 * stays coarse: the coarse points 16, 23, 31 and at most one between the knee and 16 */
	assert_true(have[K - 1] && have[K]);
	assert_true(worst_interp(lat, have, 0) <= 0.02);
	for (size_t i = K + 1; i < NC; i++)
		flat += have[i];
	assert_true(flat <= 4);
	assert_true(n < NC);
	/* a budget stops it */
	assert_int_equal(place(lat, bw, 0.02, 8, have), 8);
}

static void test_adapt_bandwidth_step(void **state)
{
	double lat[NC], bw[NC];
	int have[NC];
	size_t n;
	const size_t K = 21; /* bandwidth drops from 20 to 2 GB/s at K, latency flat */

	(void)state;
	for (size_t i = 0; i < NC; i++) {
		lat[i] = 120;
		bw[i] = i < K ? 20 : 2;
	}
	n = place(lat, bw, 0.02, NC, have);
	assert_true(have[K - 1] && have[K]);
	/* bisection: the step costs about log2 of the gap, not the gap */
	assert_true(n <= 5 + 3);
}

static void test_adapt_flat(void **state)
{
	double lat[NC], bw[NC];
	int have[NC];

	(void)state;
	for (size_t i = 0; i < NC; i++) {
		lat[i] = 100 + 0.01 * (double)i; /* changes far less than 2 % between coarse points */
		bw[i] = 5;
	}
	assert_int_equal(place(lat, bw, 0.02, NC, have), 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_manifest_good),
		cmocka_unit_test(test_manifest_roundtrip),
		cmocka_unit_test(test_manifest_bad),
		cmocka_unit_test(test_manifest_one_bad_line),
		cmocka_unit_test(test_merge_points),
		cmocka_unit_test(test_merge_failed),
		cmocka_unit_test(test_adapt_coarse),
		cmocka_unit_test(test_adapt_latency_knee),
		cmocka_unit_test(test_adapt_bandwidth_step),
		cmocka_unit_test(test_adapt_flat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
