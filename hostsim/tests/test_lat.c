/* Unit tests: CSV writer/reader, lat outputs and xgraph format, plateau
 * (cache level) detection on synthetic curves with known answers. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <unistd.h>

#include "cli/csv.h"
#include "cli/lat.h"
#include "cli/log.h"
#include "cli/out.h"
#include "cli/plateau.h"
#include "cli_testutil.h"


/* ---- CSV ----------------------------------------------------------------- */

static void test_csv_round_trip(void **state)
{
	char path[256];
	struct csv c;
	struct csv_table t;
	struct outdir od;

	(void)state;
	snprintf(path, sizeof(path), "%s/t.csv", tu_tmpdir());
	assert_int_equal(outdir_open(&od, tu_tmpdir(), "test"), 0);
	assert_int_equal(csv_open(&c, &od, "t.csv", "a,b,c,d"), 0);
	csv_str(&c, "plain");
	csv_str(&c, "with,comma");
	csv_str(&c, "say \"hi\"");
	csv_empty(&c);
	csv_row_end(&c);
	csv_u64(&c, 18446744073709551615ull);
	csv_fix(&c, 3.14159, 3);
	csv_fix(&c, 2.0, 5);
	csv_str(&c, "x=1 y=2,3");
	csv_row_end(&c);
	assert_int_equal(csv_close(&c), 0);
	assert_int_equal(outdir_commit(&od), 0);

	assert_int_equal(csv_read(path, &t), 0);
	assert_int_equal(t.nrows, 3);
	assert_int_equal(t.ncells[0], 4);
	assert_string_equal(t.cells[0][3], "d");
	assert_int_equal(t.ncells[1], 4);
	assert_string_equal(t.cells[1][0], "plain");
	assert_string_equal(t.cells[1][1], "with,comma");
	assert_string_equal(t.cells[1][2], "say \"hi\"");
	assert_string_equal(t.cells[1][3], "");
	assert_string_equal(t.cells[2][0], "18446744073709551615");
	assert_string_equal(t.cells[2][1], "3.142");
	assert_string_equal(t.cells[2][2], "2.00000");
	assert_string_equal(t.cells[2][3], "x=1 y=2,3");
	csv_table_free(&t);

	/* unterminated quote is an error */
	assert_int_equal(csv_parse("a,\"b\n", 5, &t), -1);
	assert_int_equal(errno, EINVAL);
	/* an output directory that cannot exist is refused */
	assert_int_equal(outdir_open(&od, "/proc/rvmess_cannot", "test"), -1);
}

/* ---- lat outputs --------------------------------------------------------- */

static void lat_log(struct rvm_log *log)
{
	struct tbuf b = { 0 };
	unsigned long s = 0;

	tb_rec(&b, s++, "hdr", 0, "proto=1");
	/* out of size order on purpose; one random set, two stride sets */
	tb_rec(&b, s++, "lat", 0, "chain=stride stride=64 size=1048576 loads=10000 cycles=123456 ticks=1 ns=123456 cpl=12.346 nspl=12.346");
	tb_rec(&b, s++, "lat", 0, "chain=stride stride=64 size=512 loads=1000 cycles=4000 ticks=1 ns=4000 cpl=4.000 nspl=4.000");
	tb_rec(&b, s++, "lat", 0, "chain=random stride=64 size=512 loads=1000 cycles=5000 ticks=1 ns=5000 cpl=5.000 nspl=5.000");
	tb_rec(&b, s++, "lat", 0, "chain=stride stride=128 size=4096 loads=3 cycles=10 ticks=1 ns=10 cpl=3.333 nspl=3.333");
	tb_rec(&b, s++, "lat", 0, "chain=stride stride=128 size=8192 loads=0 cycles=10 ticks=1 ns=10 cpl=0.000 nspl=0.000");
	tb_rec(&b, s++, "lat", 0, "chain=zigzag stride=64 size=512 loads=1 cycles=1 ticks=1 ns=1 cpl=1.000 nspl=1.000");
	tb_rec(&b, s++, "lat", 0, "chain=stride stride=64 size=2048 loads=1000 ticks=1 ns=4000");
	tb_rec(&b, s++, "end", 0, "status=ok records=8");
	assert_int_equal(rvm_log_read_mem("lat.log", b.s, b.len, NULL, log), 0);
	tb_free(&b);
}

static void test_lat_collect_and_xgraph(void **state)
{
	struct rvm_log log;
	struct lat_sets sets;
	struct diag d;
	size_t invalid = 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	lat_log(&log);
	diag_open(&d);
	lat_collect(&log, d.f, &sets, &invalid);
	assert_int_equal(invalid, 3);
	assert_non_null(strstr(diag_text(&d), "lat.log:6: lat record: loads=0"));
	assert_non_null(strstr(diag_text(&d), "lat.log:7: lat record: bad chain 'zigzag'"));
	assert_non_null(strstr(diag_text(&d), "lat.log:8: lat record: missing field 'cycles'"));
	assert_int_equal(sets.n, 3);
	assert_string_equal(sets.sets[0].chain, "stride");
	assert_int_equal(sets.sets[0].stride, 64);
	assert_int_equal(sets.sets[0].n, 2);
	assert_int_equal(sets.sets[0].pts[0].size, 512);   /* sorted by size */
	assert_int_equal(sets.sets[0].pts[1].line, 2);

	/* exact lmbench xgraph text */
	f = open_memstream(&buf, &len);
	lat_write_xgraph(f, &sets.sets[0]);
	lat_write_xgraph(f, &sets.sets[2]);
	fclose(f);
	assert_string_equal(buf, "\"stride=64\n0.00049 4.000\n1.00000 12.346\n\n"
				 "\"stride=128\n0.00391 3.333\n\n");
	free(buf);

	/* source for cache levels: random 64 first */
	assert_ptr_equal(lat_levels_source(&sets), &sets.sets[1]);
	lat_sets_free(&sets);
	rvm_log_free(&log);
	diag_close(&d);
}

/* Records of two datasets interleaved (as a sweep over sizes with every stride
 * at each size prints them): one set per stride, each with all its points. */
static void test_lat_interleaved_sets(void **state)
{
	struct tbuf b = { 0 };
	struct rvm_log log;
	struct lat_sets sets;
	size_t invalid = 0;
	unsigned long s = 0;

	(void)state;
	tb_rec(&b, s++, "hdr", 0, "proto=1");
	tb_rec(&b, s++, "lat", 0, "chain=stride stride=64 size=512 loads=100 cycles=400 ticks=1 ns=400");
	tb_rec(&b, s++, "lat", 0, "chain=stride stride=128 size=512 loads=100 cycles=500 ticks=1 ns=500");
	tb_rec(&b, s++, "lat", 0, "chain=stride stride=64 size=1024 loads=100 cycles=600 ticks=1 ns=600");
	tb_rec(&b, s++, "lat", 0, "chain=stride stride=128 size=1024 loads=100 cycles=700 ticks=1 ns=700");
	tb_rec(&b, s++, "end", 0, "status=ok records=6");
	assert_int_equal(rvm_log_read_mem("il.log", b.s, b.len, NULL, &log), 0);
	tb_free(&b);
	lat_collect(&log, NULL, &sets, &invalid);
	assert_int_equal(invalid, 0);
	assert_int_equal(sets.n, 2);
	for (unsigned k = 0; k < 2; k++) {
		assert_int_equal(sets.sets[k].stride, 64u << k);
		assert_int_equal(sets.sets[k].n, 2);
		assert_int_equal(sets.sets[k].pts[0].size, 512);
		assert_int_equal(sets.sets[k].pts[1].size, 1024);
		assert_int_equal(sets.sets[k].pts[1].cycles, 600 + 100 * k);
	}
	lat_sets_free(&sets);
	rvm_log_free(&log);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = calloc(1, (size_t)n + 1);
	if (fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	fclose(f);
	return s;
}

static void test_lat_files(void **state)
{
	struct rvm_log log;
	struct lat_sets sets;
	size_t invalid = 0;
	struct csv_table t;
	struct outdir od;
	char path[256], *s;

	(void)state;
	lat_log(&log);
	lat_collect(&log, NULL, &sets, &invalid);
	assert_int_equal(outdir_open(&od, tu_tmpdir(), "test"), 0);
	assert_int_equal(write_lat_outputs(&sets, &od), 0);
	assert_int_equal(outdir_commit(&od), 0);
	snprintf(path, sizeof(path), "%s/lat.csv", tu_tmpdir());
	assert_int_equal(csv_read(path, &t), 0);
	assert_int_equal(t.nrows, 1 + 4);
	assert_int_equal(t.ncells[0], 9);
	assert_string_equal(t.cells[0][8], "ns_per_load");
	assert_string_equal(t.cells[2][0], "stride");
	assert_string_equal(t.cells[2][2], "1048576");
	assert_string_equal(t.cells[2][3], "1.00000");
	assert_string_equal(t.cells[2][7], "12.346");
	assert_string_equal(t.cells[3][0], "random");
	csv_table_free(&t);

	snprintf(path, sizeof(path), "%s/lat.xg", tu_tmpdir());
	s = slurp(path);
	assert_non_null(s);
	assert_string_equal(s, "\"stride=64\n0.00049 4.000\n1.00000 12.346\n\n"
			       "\"stride=128\n0.00391 3.333\n\n");
	free(s);
	snprintf(path, sizeof(path), "%s/lat_random_stride64.xg", tu_tmpdir());
	s = slurp(path);
	assert_non_null(s);
	assert_string_equal(s, "\"stride=64\n0.00049 5.000\n\n");
	free(s);
	snprintf(path, sizeof(path), "%s/lat_stride_stride128.xg", tu_tmpdir());
	assert_int_equal(access(path, R_OK), 0);
	/* a symlink at an output path: refused, its target untouched */
	snprintf(path, sizeof(path), "%s/lat.csv", tu_tmpdir());
	unlink(path);
	assert_int_equal(symlink("/etc/hostname", path), 0);
	assert_int_equal(outdir_open(&od, tu_tmpdir(), "test"), 0);
	assert_int_equal(write_lat_outputs(&sets, &od), -1);
	assert_int_equal(errno, ELOOP);
	assert_non_null(strstr(outdir_error(&od), "lat.csv: is a symbolic link"));
	outdir_abort(&od);
	unlink(path);
	lat_sets_free(&sets);
	rvm_log_free(&log);
}

/* cpl from cycles, nspl from ns (a 2 GHz hart: they differ) */
static void test_lat_cycles_and_ns(void **state)
{
	struct tbuf b = { 0 };
	struct rvm_log log;
	struct lat_sets sets;
	size_t invalid = 0;

	(void)state;
	tb_rec(&b, 0, "hdr", 0, "proto=1");
	tb_rec(&b, 1, "lat", 0, "chain=random stride=64 size=4096 loads=1000 cycles=3000 ticks=1 ns=1500 cpl=3.000 nspl=1.500");
	tb_rec(&b, 2, "end", 0, "status=ok records=2");
	assert_int_equal(rvm_log_read_mem("ns.log", b.s, b.len, NULL, &log), 0);
	tb_free(&b);
	lat_collect(&log, NULL, &sets, &invalid);
	assert_int_equal(invalid, 0);
	assert_int_equal(sets.n, 1);
	assert_int_equal(sets.sets[0].n, 1);
	assert_true(sets.sets[0].pts[0].cpl == 3.0);
	assert_true(sets.sets[0].pts[0].nspl == 1.5);
	lat_sets_free(&sets);
	rvm_log_free(&log);
}

/* ---- plateaus -------------------------------------------------------------- */

#define MAXP 200

struct curve {
	uint64_t size[MAXP];
	double y[MAXP];
	size_t n;
};

/* lmbench-like grid: 4 points per octave from 512 B to max */
static void grid(struct curve *c, uint64_t max)
{
	c->n = 0;
	for (uint64_t p = 512; p <= max; p *= 2)
		for (int q = 0; q < 4 && c->n < MAXP; q++) {
			uint64_t s = p + p * (uint64_t)q / 4;

			if (s > max)
				break;
			c->size[c->n++] = s;
		}
}

/* Random-chain model: fraction cap/size of the lines hit a level of
 * capacity cap, the rest go one level down. */
static double model(uint64_t s, const uint64_t *cap, const double *lat, int levels)
{
	double v = lat[levels - 1];

	for (int i = levels - 2; i >= 0; i--) {
		double hit = s <= cap[i] ? 1.0 : (double)cap[i] / (double)s;

		v = hit * lat[i] + (1 - hit) * v;
	}
	return v;
}

/* deterministic noise in [-a, a] */
static double noise(unsigned i, double a)
{
	uint32_t x = i * 2654435761u;

	x ^= x >> 13;
	x *= 0x5bd1e995u;
	x ^= x >> 15;
	return a * ((double)(x % 2001) / 1000.0 - 1.0);
}

static size_t find(const struct curve *c, struct plateau *p)
{
	struct plateau_opts o;

	plateau_defaults(&o);
	return plateau_find(c->size, c->y, NULL, c->n, &o, p, MAXP);
}

static void test_plateau_two_levels(void **state)
{
	struct curve c;
	struct plateau p[MAXP];
	double y2[MAXP];
	struct plateau_opts o;

	(void)state;
	c.n = 0;
	for (uint64_t s = 512; s <= (16u << 20); s *= 2) {
		c.size[c.n] = s;
		c.y[c.n] = s <= 65536 ? 5.0 : 100.0;
		y2[c.n] = c.y[c.n] * 2;
		c.n++;
	}
	plateau_defaults(&o);
	assert_int_equal(plateau_find(c.size, c.y, y2, c.n, &o, p, MAXP), 2);
	assert_int_equal(p[0].size_first, 512);
	assert_int_equal(p[0].size_last, 65536);
	assert_int_equal(p[0].points, 8);
	assert_true(p[0].y == 5.0);
	assert_true(p[0].y2 == 10.0);
	assert_int_equal(p[1].size_first, 131072);
	assert_int_equal(p[1].size_last, 16u << 20);
	assert_true(p[1].y == 100.0);
}

static void test_plateau_three_levels_gradual(void **state)
{
	static const uint64_t cap[] = { 32768, 1 << 20, 0 };
	static const double lat[] = { 4, 12, 100 };
	struct curve c;
	struct plateau p[MAXP];

	(void)state;
	grid(&c, 64u << 20);
	for (size_t i = 0; i < c.n; i++)
		c.y[i] = model(c.size[i], cap, lat, 3);
	assert_int_equal(find(&c, p), 3);
	assert_int_equal(p[0].size_first, 512);
	assert_int_equal(p[0].size_last, 32768);
	assert_true(fabs(p[0].y - 4) < 1e-9);
	assert_int_equal(p[1].size_last, 1 << 20);
	assert_true(p[1].y > 10 && p[1].y < 12.5);
	assert_int_equal(p[2].size_last, 64u << 20);
	assert_true(p[2].y > 85 && p[2].y <= 100);
}

static void test_plateau_noise(void **state)
{
	static const uint64_t cap[] = { 16384, 262144, 0 };
	static const double lat[] = { 3, 15, 150 };
	struct curve c;
	struct plateau p[MAXP];

	(void)state;
	grid(&c, 32u << 20);
	for (size_t i = 0; i < c.n; i++)
		c.y[i] = model(c.size[i], cap, lat, 3) * (1 + noise((unsigned)i, 0.03));
	c.y[3] *= 3;    /* one isolated spike inside L1 */
	c.y[40] *= 0.5; /* one dip in memory */
	assert_int_equal(find(&c, p), 3);
	assert_int_equal(p[0].size_first, 512);
	assert_int_equal(p[0].size_last, 16384);
	assert_true(p[0].y > 2.9 && p[0].y < 3.1);
	assert_int_equal(p[1].size_last, 262144);
	assert_int_equal(p[2].size_last, 32u << 20);
}

static void test_plateau_single_level(void **state)
{
	struct curve c;
	struct plateau p[MAXP];

	(void)state;
	grid(&c, 8u << 20);
	for (size_t i = 0; i < c.n; i++)
		c.y[i] = 50 * (1 + noise((unsigned)i + 7, 0.02));
	assert_int_equal(find(&c, p), 1);
	assert_int_equal(p[0].size_first, 512);
	assert_int_equal(p[0].size_last, 8u << 20);
	assert_int_equal(p[0].points, c.n);
	assert_true(p[0].y > 49 && p[0].y < 51);

	/* too few points: nothing */
	c.n = 1;
	assert_int_equal(find(&c, p), 0);
	c.n = 0;
	assert_int_equal(find(&c, p), 0);
}

/* Two levels split by a short hump (2 points over a quarter octave: too
 * short to be a plateau) are one plateau when their medians are within the
 * tolerance (10 and 10.5), two when they are not (10 and 15). */
static void test_plateau_merge_across_hump(void **state)
{
	struct curve c;
	struct plateau p[MAXP];

	(void)state;
	for (int far = 0; far <= 1; far++) {
		grid(&c, 4u << 20);
		for (size_t i = 0; i < c.n; i++)
			c.y[i] = c.size[i] < 131072 ? 10.0 : far ? 15.0 : 10.5;
		for (size_t i = 0; i < c.n; i++)
			if (c.size[i] == 131072 || c.size[i] == 163840)
				c.y[i] = 30.0;
		if (!far) {
			assert_int_equal(find(&c, p), 1);
			assert_int_equal(p[0].size_first, 512);
			assert_int_equal(p[0].size_last, 4u << 20);
			assert_int_equal(p[0].points, c.n);
			assert_true(p[0].y == 10.0); /* median of 32 x 10, 2 x 30, 19 x 10.5 */
		} else {
			assert_int_equal(find(&c, p), 2);
			assert_int_equal(p[0].size_last, 114688);
			assert_true(p[0].y == 10.0);
			assert_int_equal(p[1].size_first, 196608);
			assert_true(p[1].y == 15.0);
		}
	}
}

/* min_points, not the span, drops a short run: with min_span 1, a 3-point
 * level between two long ones is a plateau when min_points is 3, not when
 * it is 4 */
static void test_plateau_min_points(void **state)
{
	struct plateau_opts o;
	struct plateau p[MAXP];
	struct curve d;

	(void)state;
	grid(&d, 1u << 20);
	for (size_t i = 0; i < d.n; i++)
		d.y[i] = i < 20 ? 5.0 : i < 23 ? 50.0 : 200.0;
	plateau_defaults(&o);
	o.min_span = 1.0;
	o.min_points = 3;
	assert_int_equal(plateau_find(d.size, d.y, NULL, d.n, &o, p, MAXP), 3);
	assert_true(p[1].y == 50.0 && p[1].points == 3);
	o.min_points = 4;
	assert_int_equal(plateau_find(d.size, d.y, NULL, d.n, &o, p, MAXP), 2);
}

static void test_median(void **state)
{
	double a[] = { 5, 1, 3 }, b[] = { 4, 1, 3, 2 }, c[] = { 7 };

	(void)state;
	assert_true(rvm_median(a, 3) == 3);
	assert_true(rvm_median(b, 4) == 2.5);
	assert_true(rvm_median(c, 1) == 7);
	assert_true(rvm_median(b, 0) == 0);
	/* the caller's order is kept (rvm_median sorts a copy) */
	assert_true(a[0] == 5 && a[1] == 1 && a[2] == 3);
	assert_true(b[0] == 4 && b[1] == 1 && b[2] == 3 && b[3] == 2);
}

/* The cache levels of the random sweep s over pts[0..n-1] (sizes and ns per
 * load set by the caller; cycles per load: twice the ns, a 2 GHz core),
 * with the default plateau options. */
static void find_levels(struct lat_set *s, struct lat_point *pts, int n, struct cache_levels *cl)
{
	struct plateau_opts o;
	for (int i = 0; i < n; i++)
		pts[i].cpl = pts[i].nspl * 2;
	s->pts = pts;
	s->n = (size_t)n;
	plateau_defaults(&o);
	cache_levels_find(s, &o, cl);
}

static void test_cache_levels_files(void **state)
{
	struct lat_set s = { "random", 64, NULL, 0 };
	struct lat_point pts[16];
	struct cache_levels cl;
	struct csv_table t;
	struct outdir od;
	char path[256], *txt;

	(void)state;
	for (int i = 0; i < 16; i++) {
		pts[i].size = 512ull << i;
		pts[i].nspl = pts[i].size <= 32768 ? 2.0 : 60.0;
	}
	find_levels(&s, pts, 16, &cl);
	assert_int_equal(cl.n, 2);
	assert_int_equal(outdir_open(&od, tu_tmpdir(), "test"), 0);
	assert_int_equal(write_cache_levels(&cl, &od), 0);
	assert_int_equal(outdir_commit(&od), 0);
	snprintf(path, sizeof(path), "%s/cache_levels.csv", tu_tmpdir());
	assert_int_equal(csv_read(path, &t), 0);
	assert_int_equal(t.nrows, 3);
	assert_string_equal(t.cells[1][0], "L1");
	assert_string_equal(t.cells[1][3], "32768");
	assert_string_equal(t.cells[1][5], "2.000");
	assert_string_equal(t.cells[1][6], "4.000");
	assert_string_equal(t.cells[2][0], "memory");
	assert_string_equal(t.cells[2][3], "");
	assert_string_equal(t.cells[2][7], "random");
	csv_table_free(&t);
	snprintf(path, sizeof(path), "%s/cache_levels.txt", tu_tmpdir());
	txt = slurp(path);
	assert_non_null(txt);
	assert_non_null(strstr(txt, "L1      512 B .. 32 KiB"));
	assert_non_null(strstr(txt, "memory  64 KiB .. 16 MiB"));
	free(txt);
	cache_levels_free(&cl);
}

/* A sweep that ends while latency still rises (lat_max below memory): the
 * last plateau is a cache, not memory. */
static void test_cache_levels_rising_end(void **state)
{
	struct lat_set s = { "random", 64, NULL, 0 };
	struct lat_point pts[12];
	struct cache_levels cl;
	char name[32];

	(void)state;
	for (int i = 0; i < 12; i++) {
		pts[i].size = 512ull << i; /* 512 B .. 1 MiB */
		pts[i].nspl = pts[i].size <= 32768 ? 2.0 : pts[i].size <= 262144 ? 8.0 : 8.0 + 10 * (i - 9);
	}
	find_levels(&s, pts, 12, &cl);
	assert_int_equal(cl.n, 2);
	assert_true(cl.rising);
	assert_false(cache_level_is_memory(&cl, 1));
	cache_level_name(name, sizeof(name), &cl, 1);
	assert_string_equal(name, "L2");
	/* the same sweep ending on its plateau: memory */
	cache_levels_free(&cl);
	find_levels(&s, pts, 10, &cl);
	assert_int_equal(cl.n, 2);
	assert_false(cl.rising);
	cache_level_name(name, sizeof(name), &cl, 1);
	assert_string_equal(name, "memory");
	cache_levels_free(&cl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_round_trip),
		cmocka_unit_test(test_lat_collect_and_xgraph),
		cmocka_unit_test(test_lat_interleaved_sets),
		cmocka_unit_test(test_lat_cycles_and_ns),
		cmocka_unit_test(test_lat_files),
		cmocka_unit_test(test_plateau_two_levels),
		cmocka_unit_test(test_plateau_three_levels_gradual),
		cmocka_unit_test(test_plateau_noise),
		cmocka_unit_test(test_plateau_single_level),
		cmocka_unit_test(test_plateau_merge_across_hump),
		cmocka_unit_test(test_plateau_min_points),
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_cache_levels_files),
		cmocka_unit_test(test_cache_levels_rising_end),
	};

	return cmocka_run_group_tests(tests, tu_setup_tmpdir, tu_teardown_tmpdir);
}
