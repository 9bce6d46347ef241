/* Unit tests: integrity.csv and the integrity verdict from `integ` records
 * (rvmess parse), and the refusal of records that cannot be right. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli/integ_out.h"
#include "cli/log.h"
#include "cli_testutil.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 16);

	assert_non_null(f);
	assert_non_null(buf);
	assert_true(fread(buf, 1, (1 << 16) - 1, f) > 0);
	fclose(f);
	return buf;
}

/* Parse the records (after a hdr) into integrity.csv; returns its text. */
static char *run(const char *const *recs, size_t n, struct integ_sum *sum, size_t *invalid,
                 struct diag *d)
{
	struct tbuf b = { 0 };
	struct rvm_log log;
	struct outdir od;
	char path[256];
	unsigned long s = 0;

	tb_rec(&b, s++, "hdr", 0, "proto=1 platform=virt mode=M harts=2");
	for (size_t i = 0; i < n; i++)
		tb_rec(&b, s++, "integ", 0, recs[i]);
	assert_int_equal(rvm_log_read_mem("mem.log", b.s, b.len, NULL, &log), 0);
	*invalid = 0;
	assert_int_equal(outdir_open(&od, tu_tmpdir(), "test"), 0);
	assert_int_equal(integ_write_outputs(&log, &od, d->f, invalid, sum), 0);
	assert_int_equal(outdir_commit(&od), 0);
	rvm_log_free(&log);
	tb_free(&b);
	snprintf(path, sizeof(path), "%s/integrity.csv", tu_tmpdir());
	return slurp(path);
}

static void test_table_and_sums(void **state)
{
	static const char *const recs[] = {
		"check=lines hart=0 words=2000 bad=0",
		"check=ring hart=1 words=24000 bad=3 addr=0x8011c808 want=0xe5 got=0x8b",
		"check=mess-cycle hart=0 words=4096 bad=1 addr=0x80200040 got=0x1234",
	};
	struct integ_sum sum;
	struct diag d;
	size_t invalid;
	char *csv;

	(void)state;
	diag_open(&d);
	csv = run(recs, 3, &sum, &invalid, &d);
	assert_string_equal(csv, "check,hart,words,bad,addr,want,got\n"
	                         "lines,0,2000,0,,,\n"
	                         "ring,1,24000,3,0x8011c808,0xe5,0x8b\n"
	                         "mess-cycle,0,4096,1,0x80200040,,0x1234\n");
	assert_int_equal(invalid, 0);
	/* two failed checks of three; words and wrong words summed by hand */
	assert_int_equal(sum.checks, 3);
	assert_int_equal(sum.failed, 2);
	assert_int_equal(sum.words, 2000 + 24000 + 4096);
	assert_int_equal(sum.bad, 4);
	free(csv);
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		integ_print_verdict(f, &sum);
		fclose(f);
		assert_string_equal(buf, "integrity: failed=2 checks=3 words=30096 bad=4\n");
		free(buf);
	}
	diag_close(&d);
}

static void test_refusals(void **state)
{
	static const char *const recs[] = {
		"check=ring hart=1 words=5 bad=6 addr=0x10 want=0x1 got=0x2",   /* more wrong than compared */
		"check=lines hart=0 words=10 bad=1 want=0x1 got=0x2",           /* failed without addr */
		"check=lines hart=0 words=10 bad=1 addr=0x10 want=0x1",         /* failed without got */
		"check=lines hart=0 words=10 bad=1 addr=zz want=0x1 got=0x2",   /* addr not a number */
		"hart=0 words=10 bad=0",                                        /* no check */
		"check=lines hart=2 words=10 bad=0",                            /* the one good record */
	};
	struct integ_sum sum;
	struct diag d;
	size_t invalid;
	char *csv;

	(void)state;
	diag_open(&d);
	csv = run(recs, 6, &sum, &invalid, &d);
	assert_string_equal(csv, "check,hart,words,bad,addr,want,got\nlines,2,10,0,,,\n");
	assert_int_equal(invalid, 5);
	assert_int_equal(sum.checks, 1);
	assert_int_equal(sum.failed, 0);
	/* each refusal names its line (the hdr is line 1) */
	for (int line = 2; line <= 6; line++) {
		char want[64];
		snprintf(want, sizeof(want), "mem.log:%d: integ record with missing or bad fields", line);
		assert_non_null(strstr(diag_text(&d), want));
	}
	assert_null(strstr(diag_text(&d), "mem.log:7:"));
	free(csv);
	diag_close(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_and_sums),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, tu_setup_tmpdir, tu_teardown_tmpdir);
}
