/* Unit tests: the estimates of RTL plans (hostsim/cli/estimate.c): which run
 * of a model's record calibrates them, PLAN/estimate.tsv (round trip, bad
 * lines), the schedule of jobs on N cores, and the report against each job's
 * sim.txt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "cli/estimate.h"
#include "cli/plan.h"
#include "cli_testutil.h"

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static char *path_in(const char *name)
{
	static char p[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", tu_tmpdir(), name);
	return p[k];
}

/* An OpenPiton 2-hart estimate on its own memory: a ratio from one sim.txt,
 * a speed from another, three jobs' shadow counts. */
static void est_make(struct estimate *e, const char *record, double ratio, const char *ratio_src, double cps,
		     const char *cps_src, const double sh[3])
{
	e->target = strdup("openpiton");
	e->harts = 2;
	e->record = strdup(record);
	e->memory = strdup("own");
	e->ratio = ratio;
	e->ratio_src = strdup(ratio_src);
	e->ratio_same = 1;
	e->cps = cps;
	e->cps_src = strdup(cps_src);
	e->njobs = 3;
	e->shadow = malloc(3 * sizeof(*sh));
	memcpy(e->shadow, sh, 3 * sizeof(*sh));
}

#define HDR "# rvmess: RTL runs\n# date\tsim_txt\tstatus\tcycles\twall\tcpu\tcps\tshadow\tharts\tmemory\n"

/* The ratio comes from the newest clean run with a shadow count and the
 * plan's memory, else the newest clean one with any memory; the speed from
 * the plan's memory first, then a clean run, then the newest; bad lines are
 * named and skipped. */
static void test_est_record(void **state)
{
	struct estimate e = { 0 };
	struct diag d;
	const char *rec = path_in("rec.tsv");

	(void)state;
	write_text(rec, HDR
		   "2026-01-01T00:00:00Z\t/a/sim.txt\tclean\t3000\t1\t1\t100\t1000\t2\town\n"
		   "2026-01-02T00:00:00Z\t/b/sim.txt\tclean\t4000\t1\t1\t200\t1000\t2\town\n"
		   "2026-01-01T12:00:00Z\t/old/sim.txt\tclean\t9000\t1\t1\t900\t1000\t2\town\n" /* older, later line */
		   "2026-01-03T00:00:00Z\t/c/sim.txt\tunclean\t7000\t1\t1\t300\t1000\t2\town\n"
		   "2026-01-04T00:00:00Z\t/d/sim.txt\tclean\t5000\t1\t1\t400\t-\t2\town\n"     /* no shadow */
		   "2026-01-05T00:00:00Z\t/e/sim.txt\tclean\t6000\t1\t1\t500\t1000\t2\tmess F\n"
		   "2026-01-06T00:00:00Z\t/f/sim.txt\tclean\t6000\n");                          /* short */
	diag_open(&d);
	assert_int_equal(est_from_record(&e, rec, "own", d.f), 0);
	assert_true(e.ratio > 3.999 && e.ratio < 4.001);
	assert_string_equal(e.ratio_src, "/b/sim.txt");
	assert_int_equal(e.ratio_same, 1);
	assert_true(e.cps > 399 && e.cps < 401); /* /d: own, clean, newest (a shadow is not needed) */
	assert_string_equal(e.cps_src, "/d/sim.txt");
	assert_non_null(strstr(diag_text(&d), "rec.tsv:9: a run line has 10 tab-separated fields"));
	diag_close(&d);
	est_free(&e);

	/* other memory: only /e has it; for a third memory the newest clean run */
	assert_int_equal(est_from_record(&e, rec, "mess F", NULL), 0);
	assert_true(e.ratio > 5.999 && e.ratio < 6.001);
	assert_int_equal(e.ratio_same, 1);
	assert_true(e.cps > 499 && e.cps < 501);
	est_free(&e);
	assert_int_equal(est_from_record(&e, rec, "fixed 9", NULL), 0);
	assert_string_equal(e.ratio_src, "/e/sim.txt");
	assert_int_equal(e.ratio_same, 0);
	assert_string_equal(e.cps_src, "/e/sim.txt"); /* clean before unclean, then newest */
	est_free(&e);

	/* no record: nothing known, no error */
	assert_int_equal(est_from_record(&e, path_in("none.tsv"), "own", NULL), 0);
	assert_true(e.ratio == 0 && e.cps == 0);
	est_free(&e);
}

static void test_est_file(void **state)
{
	struct estimate e = { 0 }, r;
	double sh[3] = { 1000, -1, 2500 };
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	const char *path = path_in("estimate.tsv");

	(void)state;
	est_make(&e, "/m/rvmess-runs.tsv", 2.5, "/b/sim.txt", 4000, "/c/sim.txt", sh);
	m = open_memstream(&buf, &len);
	assert_int_equal(est_write(&e, m), 0);
	fclose(m);
	write_text(path, buf);
	assert_int_equal(est_read(path, NULL, &r), 0);
	assert_string_equal(r.target, "openpiton");
	assert_int_equal(r.harts, 2);
	assert_string_equal(r.memory, "own");
	assert_true(r.ratio == 2.5 && r.ratio_same == 1 && r.cps == 4000);
	assert_int_equal(r.njobs, 3);
	assert_true(est_cycles(&r, 0) == 2500 && est_cycles(&r, 1) == -1 && est_cycles(&r, 2) == 6250);
	assert_true(est_cpu_seconds(&r, 2) > 1.5624 && est_cpu_seconds(&r, 2) < 1.5626);
	assert_true(est_cycles(&r, 3) == -1);
	est_free(&r);
	/* without a ratio: no cycles; without a speed: no CPU time */
	e.cps = 0;
	free(buf);
	buf = NULL;
	m = open_memstream(&buf, &len);
	assert_int_equal(est_write(&e, m), 0);
	fclose(m);
	write_text(path, buf);
	assert_int_equal(est_read(path, NULL, &r), 0);
	assert_true(est_cycles(&r, 0) == 2500 && est_cpu_seconds(&r, 0) == -1);
	est_free(&r);
	est_free(&e);
	free(buf);
}

static void test_est_file_bad(void **state)
{
#define EH "rvmess-estimate\t1\nshadow\topenpiton\t2\nrecord\t/r\nmemory\town\n"
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "", "empty: not an rvmess estimate" },
		{ "rvmess-estimate\t2\n", ":1: not an rvmess estimate" },
		{ EH "job\t1\t5\n", ":5: job '1' out of order" },
		{ EH "job\t0\tx\n", ":5: job 0: shadow 'x' is not a count or -" },
		{ EH "ratio\t0\t/s\tsame\n", ":5: a ratio line is" },
		{ EH "ratio\t2\t/s\tmaybe\n", ":5: a ratio line is" },
		{ EH "speed\t-3\t/s\n", ":5: a speed line is" },
		{ EH "shadow\tcva6\t1\n", ":5: unknown or repeated line 'shadow'" },
		{ "rvmess-estimate\t1\nshadow\topenpiton\t0\nrecord\t/r\nmemory\town\n", ":2: shadow harts '0'" },
		{ "rvmess-estimate\t1\nrecord\t/r\n", "no shadow, record or memory line" },
	};
	const char *path = path_in("bad.tsv");

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct estimate e;
		struct diag d;
		int rc;

		write_text(path, cases[i].text);
		diag_open(&d);
		rc = est_read(path, d.f, &e);
		if (rc <= 0 || !strstr(diag_text(&d), cases[i].want))
			fail_msg("case %zu: rc %d, diagnostics '%s', want '%s'", i, rc, diag_text(&d), cases[i].want);
		assert_null(e.shadow); /* freed on problems */
		diag_close(&d);
	}
#undef EH
}

/* Longest first, each on the core free first. */
static void test_est_schedule(void **state)
{
	const double a[] = { 3, 3, 2, 2, 2 }, b[] = { 10, 1, 1, 1 };

	(void)state;
	assert_true(est_schedule(a, 5, 1) == 12);
	assert_true(est_schedule(a, 5, 2) == 7);   /* 3+2+2 | 3+2 */
	assert_true(est_schedule(a, 5, 8) == 3);
	assert_true(est_schedule(b, 4, 2) == 10);
	assert_true(est_schedule(b, 0, 2) == 0);
	assert_true(est_schedule(b, 4, 0) == 0);
}

/* The report pairs each job's estimate with its own sim.txt: job 1 ran 25 %
 * more cycles than estimated, job 0 exactly as many; job 2 has not run. */
static void test_est_report(void **state)
{
	struct plan p = { 0 };
	struct estimate e = { 0 };
	double sh[3] = { 1000, 2000, 4000 };
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	(void)state;
	p.reps = 1;
	for (unsigned i = 0; i < 3; i++) {
		struct plan_job *j = plan_add_job(&p, 0, "mess", 1);

		j->nmix = 1;
		j->npause = 1;
		j->pause[0] = i;
	}
	est_make(&e, "/r", 3, "/cal/sim.txt", 1000, "/cal/sim.txt", sh);
	assert_int_equal(mkdir(path_in("runs"), 0777), 0);
	assert_int_equal(mkdir(path_in("runs/0"), 0777), 0);
	assert_int_equal(mkdir(path_in("runs/1"), 0777), 0);
	write_text(path_in("runs/0/sim.txt"), "ended: by itself\nwall_seconds: 4.00\ncpu_seconds: 3.00\ncycles: 3000\n");
	write_text(path_in("runs/1/sim.txt"), "wall_seconds: 10.00\ncpu_seconds: 6.00\ncycles: 7500\n");
	m = open_memstream(&buf, &len);
	est_report(&e, &p, tu_tmpdir(), 2, m);
	fclose(m);
	if (!strstr(buf, "x 3.0000, this model's cycles per count on /cal/sim.txt") ||
	    !strstr(buf, "\n0     1              1000          3000    0:00:03 |          3000    +0.0%    0:00:03    0:00:04    +0.0%\n") ||
	    !strstr(buf, "\n1     1              2000          6000    0:00:06 |          7500   -20.0%    0:00:06    0:00:10    +0.0%\n") ||
	    !strstr(buf, "\n2     1              4000         12000    0:00:12 |             -        -          -          -        -\n") ||
	    !strstr(buf, "estimate: total 3 jobs: 21000 cycles, CPU time 0.01 h (21 s)") ||
	    !strstr(buf, "truth: 2 of 3 jobs ran (their sim.txt): 10500 cycles (estimate -14.3%), CPU time 0.00 h (9 s) (estimate +0.0%)") ||
	    !strstr(buf, "the whole plan about 0.00 h (12 s) of wall time; the 1 job without a sim.txt about 0.00 h (12 s)"))
		fail_msg("report:\n%s", buf);
	free(buf);
	est_free(&e);
	plan_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_est_record),
		cmocka_unit_test(test_est_file),
		cmocka_unit_test(test_est_file_bad),
		cmocka_unit_test(test_est_schedule),
		cmocka_unit_test(test_est_report),
	};

	return cmocka_run_group_tests(tests, tu_setup_tmpdir, tu_teardown_tmpdir);
}
