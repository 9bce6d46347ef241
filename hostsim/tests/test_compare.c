/* Unit tests of rvmess compare: point matching and differences, loading a
 * run directory (hand-written CSVs), the report's figures. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sys/stat.h>

#include "cli/compare.h"
#include "cli_testutil.h"

static void test_lat_diff(void **state)
{
	uint64_t sa[] = { 1024, 2048, 4096, 8192 }, sb[] = { 512, 2048, 3000, 4096, 16384 };
	double na[] = { 1, 2, 3, 4 }, nb[] = { 9, 5, 9, 5, 9 };
	struct cmp_lat a = { "random", 64, 4, sa, na }, b = { "random", 64, 5, sb, nb };
	struct cmp_diff d;

	(void)state;
	cmp_lat_diff(&a, &b, &d);
	assert_int_equal(d.n, 2);           /* 2048 and 4096 */
	assert_true(fabs(d.mean - 2.5) < 1e-12);
	assert_true(fabs(d.min - 2) < 1e-12);
	assert_true(fabs(d.max - 3) < 1e-12);

	b.n = 0;
	cmp_lat_diff(&a, &b, &d);
	assert_int_equal(d.n, 0);
	assert_true(isnan(d.mean));
}

static void test_mess_diff(void **state)
{
	struct mess_point pa[3] = { 0 }, pb[2] = { 0 };
	struct mess_curve a = { .store_pct = 0, .read_pct_rounded = 100, .n = 3, .pt = pa },
	                  b = { .store_pct = 0, .read_pct_rounded = 100, .n = 2, .pt = pb };
	struct cmp_diff d;

	(void)state;
	pa[0].pause = 100, pa[0].lat_smooth = 110;
	pa[1].pause = 10, pa[1].lat_smooth = 120;
	pa[2].pause = 0, pa[2].lat_smooth = 200;
	pb[0].pause = 0, pb[0].lat_smooth = 260;   /* +60 */
	pb[1].pause = 100, pb[1].lat_smooth = 140; /* +30 */
	cmp_mess_diff(&a, &b, &d);
	assert_int_equal(d.n, 2);
	assert_true(fabs(d.mean - 45) < 1e-12);
	assert_true(fabs(d.min - 30) < 1e-12);
	assert_true(fabs(d.max - 60) < 1e-12);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* A run directory: levels 4 / 30 / mem ns, chase 50, 20, 10 (median 20). */
static void make_run(const char *dir, const char *target, double mem)
{
	char buf[1024];

	mkdir(dir, 0777);
	snprintf(buf, sizeof(buf), "log: x\ntarget: %s (from --target)\n", target);
	put(dir, "summary.txt", buf);
	snprintf(buf, sizeof(buf),
		 "level,first_size_bytes,last_size_bytes,capacity_bytes,points,ns_per_load,cycles_per_load,chain,stride\n"
		 "L1,512,32768,32768,7,4.000,4.000,random,64\n"
		 "L2,65536,1048576,1048576,5,30.000,30.000,random,64\n"
		 "memory,2097152,8388608,,3,%.3f,%.3f,random,64\n", mem, mem);
	put(dir, "cache_levels.csv", buf);
	put(dir, "chase.csv", "hart,size_bytes,lines,rep,loads,cycles,ticks,ns,cycles_per_load,ns_per_load\n"
			      "0,1,1,0,1,1,1,1,1,50.000\n0,1,1,1,1,1,1,1,1,20.000\n0,1,1,2,1,1,1,1,1,10.000\n");
	snprintf(buf, sizeof(buf),
		 "chain,stride,size_bytes,size_mb,loads,cycles,ns,cycles_per_load,ns_per_load\n"
		 "random,64,8388608,8,1,1,1,1,%.3f\n"
		 "random,64,1024,0,1,1,1,1,4.000\n", mem);
	put(dir, "lat.csv", buf);
}

static void test_load_and_report(void **state)
{
	char da[256], db[256], err[512];
	struct cmp_run a, b;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	snprintf(da, sizeof(da), "%s/a", tu_tmpdir());
	snprintf(db, sizeof(db), "%s/b", tu_tmpdir());
	make_run(da, "hostsim", 110);
	make_run(db, "qemu-virt", 210.5);
	assert_int_equal(cmp_run_load(da, &a, err, sizeof(err)), 0);
	assert_int_equal(cmp_run_load(db, &b, err, sizeof(err)), 0);
	assert_int_equal(a.nlv, 3);
	assert_string_equal(a.lv[2].name, "memory");
	assert_int_equal(a.lv[1].capacity, 1048576);
	assert_int_equal(a.lv[2].capacity, 0);
	assert_true(fabs(a.chase_ns - 20) < 1e-12);
	assert_int_equal(a.nlat, 1);
	assert_int_equal(a.lat[0].size[0], 1024);   /* sorted */
	assert_int_equal(a.ri.timing, 1);
	assert_int_equal(b.ri.timing, 0);
	assert_int_equal(a.has_mess, 0);

	f = open_memstream(&out, &len);
	cmp_report(f, &a, &b);
	fclose(f);
	assert_non_null(strstr(out, "memory latency                    110.000      210.500     +100.500 ns"));
	assert_non_null(strstr(out, "L2 capacity                         1 MiB        1 MiB"));
	assert_non_null(strstr(out, "WARNING: QEMU: no memory timing"));
	/* lat: sizes 1024 (+0) and 8 MiB (+100.5) */
	assert_non_null(strstr(out, "random         64        2    +50.250     +0.000   +100.500"));
	free(out);
	cmp_run_free(&a);
	cmp_run_free(&b);
}

static void test_load_errors(void **state)
{
	char d[256], err[512];
	struct cmp_run r;

	(void)state;
	snprintf(d, sizeof(d), "%s/none", tu_tmpdir());
	assert_int_equal(cmp_run_load(d, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a parsed run"));

	snprintf(d, sizeof(d), "%s/bad", tu_tmpdir());
	make_run(d, "hostsim", 100);
	put(d, "chase.csv", "hart,ns_per_load\n0,10\n0,abc\n");
	assert_int_equal(cmp_run_load(d, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/bad/chase.csv:3: bad or missing ns_per_load"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lat_diff),
		cmocka_unit_test(test_mess_diff),
		cmocka_unit_test(test_load_and_report),
		cmocka_unit_test(test_load_errors),
	};
	return cmocka_run_group_tests(tests, tu_setup_tmpdir, tu_teardown_tmpdir);
}
