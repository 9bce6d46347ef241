/* Unit tests: the JSON writer, run identification (--target, run.txt, the
 * QEMU no-timing warning) and summary.json's values. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <unistd.h>

#include "cli/json.h"
#include "cli/lat.h"
#include "cli/log.h"
#include "cli/summary.h"
#include "cli_testutil.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* in's summary.json, written into the test's folder and read back. */
static char *summary_text(const struct summary_in *in)
{
	struct outdir od;
	char path[256];

	assert_int_equal(outdir_open(&od, tu_tmpdir(), "test"), 0);
	assert_int_equal(write_summary_json(in, &od, "summary.json"), 0);
	assert_int_equal(outdir_commit(&od), 0);
	snprintf(path, sizeof(path), "%s/summary.json", tu_tmpdir());
	return slurp(path);
}

static void test_json_writer(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	(void)state;
	json_begin(&j, f);
	json_str(&j, "s", "a\"b\\c\nd\x01");
	json_obj(&j, "o");
	json_u64(&j, "u", 18446744073709551615ull);
	json_num(&j, "x", 1.5, 3);
	json_num(&j, "nan", NAN, 3);
	json_num(&j, "inf", -INFINITY, 3);
	json_close(&j);
	json_arr(&j, "a");
	json_bool(&j, NULL, 1);
	json_null(&j, NULL);
	json_str(&j, NULL, NULL);
	json_close(&j);
	json_arr(&j, "empty");
	json_close(&j);
	assert_int_equal(json_end(&j), 0);
	fclose(f);
	assert_string_equal(buf,
		"{\n"
		"  \"s\": \"a\\\"b\\\\c\\nd\\u0001\",\n"
		"  \"o\": {\n"
		"    \"u\": 18446744073709551615,\n"
		"    \"x\": 1.500,\n"
		"    \"nan\": null,\n"
		"    \"inf\": null\n"
		"  },\n"
		"  \"a\": [\n"
		"    true,\n"
		"    null,\n"
		"    null\n"
		"  ],\n"
		"  \"empty\": []\n"
		"}\n");
	free(buf);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void test_run_info(void **state)
{
	char log[256], runtxt[256];
	struct run_info ri;

	(void)state;
	snprintf(log, sizeof(log), "%s/console.log", tu_tmpdir());
	snprintf(runtxt, sizeof(runtxt), "%s/run.txt", tu_tmpdir());
	unlink(runtxt);

	run_info_find(log, NULL, &ri);
	assert_string_equal(ri.target, "");
	assert_int_equal(ri.timing, -1);
	assert_null(run_info_warning(&ri));

	write_file(runtxt, "date: x\ntarget: qemu-sbi\nharts: 4\n");
	run_info_find(log, NULL, &ri);
	assert_string_equal(ri.target, "qemu-sbi");
	assert_string_equal(ri.source, "run.txt");
	assert_int_equal(ri.timing, 0);
	assert_non_null(strstr(run_info_warning(&ri), "no memory timing"));

	/* the option wins over run.txt */
	run_info_find(log, "hostsim", &ri);
	assert_string_equal(ri.target, "hostsim");
	assert_string_equal(ri.source, "--target");
	assert_int_equal(ri.timing, 1);
	assert_null(run_info_warning(&ri));

	run_info_find(log, "qemu-virt", &ri);
	assert_int_equal(ri.timing, 0);
	run_info_find(log, "myboard", &ri);
	assert_int_equal(ri.timing, -1);
	assert_null(run_info_warning(&ri));
	unlink(runtxt);
}

/* A log with three chase records (80, 100, 81 ns per load: median 81) and a
 * lat curve with two levels (10 ns up to 32 KiB, 90 ns beyond), from an
 * image whose FDT describes a 32 KiB cache: the second level is memory.
 * Without the hdr's cache_max it is L2, of unknown capacity. */
static void test_summary_json(void **state)
{
	struct tbuf b = { 0 };
	struct rvm_log log;
	struct lat_sets sets;
	struct cache_levels cl;
	struct cache_fdt cf;
	struct plateau_opts po;
	struct run_info ri;
	size_t invalid = 0;
	unsigned long s = 0;
	char f[256], *text;

	(void)state;
	tb_rec(&b, s++, "hdr", 0, "proto=1 platform=virt mode=M harts=1 cpu_hz=1000000000 version=t\"q cache_max=32768");
	tb_rec(&b, s++, "hart", 0, "idx=0");
	tb_rec(&b, s++, "chase", 0, "size=1 lines=1 rep=0 loads=100 cycles=1 ticks=1 ns=8000");
	tb_rec(&b, s++, "chase", 0, "size=1 lines=1 rep=1 loads=100 cycles=1 ticks=1 ns=10000");
	tb_rec(&b, s++, "chase", 0, "size=1 lines=1 rep=2 loads=100 cycles=1 ticks=1 ns=8100");
	for (uint64_t size = 1024; size <= (1u << 22); size *= 2) {
		snprintf(f, sizeof(f), "chain=random stride=64 size=%llu loads=100 cycles=%d ticks=1 ns=%d",
			 (unsigned long long)size, size <= 32768 ? 1000 : 9000, size <= 32768 ? 1000 : 9000);
		tb_rec(&b, s++, "lat", 0, f);
	}
	snprintf(f, sizeof(f), "status=ok errors=0 records=%lu harts=1 states=0:done", s);
	tb_rec(&b, s, "end", 0, f);
	assert_int_equal(rvm_log_read_mem("mem.log", b.s, b.len, NULL, &log), 0);
	lat_collect(&log, NULL, &sets, &invalid);
	plateau_defaults(&po);
	lat_hdr_cache_fdt(&log, NULL, &cf, &invalid);
	assert_true(cf.known && cf.max == 32768);
	cache_levels_find(lat_levels_source(&sets), &po, &cf, &cl);
	assert_int_equal(cl.n, 2);
	run_info_find("mem.log", "qemu-virt", &ri);

	struct summary_in in = { &log, &ri, &cl, 0, invalid, rvm_log_clean(&log) };
	text = summary_text(&in);
	assert_non_null(strstr(text, "\"memory_timing\": false"));
	assert_non_null(strstr(text, "\"warning\": \"QEMU: no memory timing"));
	assert_non_null(strstr(text, "\"version\": \"t\\\"q\""));
	assert_non_null(strstr(text, "\"harts\": 1,"));
	assert_non_null(strstr(text, "\"chase\": 3"));
	assert_non_null(strstr(text, "\"lat\": 13"));
	assert_non_null(strstr(text, "\"chase_median\": 81.000"));
	assert_non_null(strstr(text, "\"lat_memory\": 90.000"));
	assert_non_null(strstr(text, "\"level\": \"L1\""));
	assert_non_null(strstr(text, "\"capacity_bytes\": 32768"));
	assert_non_null(strstr(text, "\"mess\": null"));
	assert_non_null(strstr(text, "\"clean\": true"));
	assert_non_null(strstr(text, "\"level\": \"memory\""));
	free(text);
	cache_levels_free(&cl);

	cache_levels_find(lat_levels_source(&sets), &po, NULL, &cl);
	text = summary_text(&in);
	assert_non_null(strstr(text, "\"lat_memory\": null"));
	assert_null(strstr(text, "\"level\": \"memory\""));
	assert_non_null(strstr(text, "\"level\": \"L2\",\n      \"first_size_bytes\": 65536,\n      "
				     "\"last_size_bytes\": 4194304,\n      \"capacity_bytes\": null"));
	free(text);
	cache_levels_free(&cl);
	lat_sets_free(&sets);
	rvm_log_free(&log);
	tb_free(&b);
}

/* A version is a string whatever its characters: a hash of digits only
 * (one short hash in 27) must not turn the field into a number. */
static void test_summary_version_digits(void **state)
{
	struct tbuf b = { 0 };
	struct rvm_log log;
	struct run_info ri;
	unsigned long s = 0;
	char f[128], *text;

	(void)state;
	tb_rec(&b, s++, "hdr", 0, "proto=1 platform=virt mode=M harts=1 cpu_hz=1000000000 version=2577264");
	tb_rec(&b, s++, "hart", 0, "idx=0");
	snprintf(f, sizeof(f), "status=ok errors=0 records=%lu harts=1 states=0:done", s);
	tb_rec(&b, s, "end", 0, f);
	assert_int_equal(rvm_log_read_mem("mem.log", b.s, b.len, NULL, &log), 0);
	run_info_find("mem.log", "hostsim", &ri);
	struct summary_in in = { &log, &ri, NULL, 0, 0, rvm_log_clean(&log) };
	text = summary_text(&in);
	assert_non_null(strstr(text, "\"version\": \"2577264\""));
	assert_non_null(strstr(text, "\"cpu_hz\": 1000000000"));
	free(text);
	rvm_log_free(&log);
	tb_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_writer),
		cmocka_unit_test(test_run_info),
		cmocka_unit_test(test_summary_json),
		cmocka_unit_test(test_summary_version_digits),
	};
	return cmocka_run_group_tests(tests, tu_setup_tmpdir, tu_teardown_tmpdir);
}
