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
 * with the default plateau options and what the hdr says (fdt NULL: no
 * cache_max). */
static void find_levels(struct lat_set *s, struct lat_point *pts, int n, const struct cache_fdt *fdt,
			struct cache_levels *cl)
{
	struct plateau_opts o;
	for (int i = 0; i < n; i++)
		pts[i].cpl = pts[i].nspl * 2;
	s->pts = pts;
	s->n = (size_t)n;
	plateau_defaults(&o);
	cache_levels_find(s, &o, fdt, cl);
}

/* cache_levels.txt and .csv of cl, read back. */
static char *levels_files(const struct cache_levels *cl, struct csv_table *t)
{
	struct outdir od;
	char path[256];

	assert_int_equal(outdir_open(&od, tu_tmpdir(), "test"), 0);
	assert_int_equal(write_cache_levels(cl, &od), 0);
	assert_int_equal(outdir_commit(&od), 0);
	snprintf(path, sizeof(path), "%s/cache_levels.csv", tu_tmpdir());
	assert_int_equal(csv_read(path, t), 0);
	snprintf(path, sizeof(path), "%s/cache_levels.txt", tu_tmpdir());
	return slurp(path);
}

static void test_cache_levels_files(void **state)
{
	static const struct cache_fdt l1 = { 1, 32768 };
	struct lat_set s = { "random", 64, NULL, 0 };
	struct lat_point pts[16];
	struct cache_levels cl;
	struct csv_table t;
	char *txt;

	(void)state;
	for (int i = 0; i < 16; i++) {
		pts[i].size = 512ull << i;
		pts[i].nspl = pts[i].size <= 32768 ? 2.0 : 60.0;
	}
	/* the FDT's largest cache is the 32 KiB L1: the plateau beyond is memory */
	find_levels(&s, pts, 16, &l1, &cl);
	assert_int_equal(cl.n, 2);
	assert_int_equal(cl.last, CL_LAST_MEMORY);
	txt = levels_files(&cl, &t);
	assert_int_equal(t.nrows, 3);
	assert_string_equal(t.cells[1][0], "L1");
	assert_string_equal(t.cells[1][3], "32768");
	assert_string_equal(t.cells[1][5], "2.000");
	assert_string_equal(t.cells[1][6], "4.000");
	assert_string_equal(t.cells[2][0], "memory");
	assert_string_equal(t.cells[2][3], "");
	assert_string_equal(t.cells[2][7], "random");
	csv_table_free(&t);
	assert_non_null(txt);
	assert_non_null(strstr(txt, "L1      512 B .. 32 KiB"));
	assert_non_null(strstr(txt, "memory  64 KiB .. 16 MiB         -          "));
	assert_null(strstr(txt, "note:"));
	free(txt);
	cache_levels_free(&cl);

	/* the same sweep from an image older than cache_max: the last plateau
	 * is L2, its capacity unknown (16 MiB or more), and a note says why */
	find_levels(&s, pts, 16, NULL, &cl);
	assert_int_equal(cl.last, CL_LAST_NO_FDT);
	txt = levels_files(&cl, &t);
	assert_int_equal(t.nrows, 3);
	assert_string_equal(t.cells[2][0], "L2");
	assert_string_equal(t.cells[2][1], "65536");
	assert_string_equal(t.cells[2][2], "16777216");
	assert_string_equal(t.cells[2][3], "");
	csv_table_free(&t);
	assert_non_null(strstr(txt, "L2      64 KiB .. 16 MiB         >= 16 MiB      60.000"));
	assert_non_null(strstr(txt, "note: the sweep ends on L2 (at 16 MiB, its last size) without showing what "
				    "lies beyond, and the log's hdr has no cache_max (an image older than that key), "
				    "so L2 may be a cache as well as memory: raise lat_max past the last-level cache\n"));
	free(txt);
	cache_levels_free(&cl);
}

/* A sweep that ends while latency still rises (lat_max below memory): the
 * last plateau is a cache with its capacity, whatever the hdr says. */
static void test_cache_levels_rising_end(void **state)
{
	static const struct cache_fdt l1 = { 1, 32768 };
	struct lat_set s = { "random", 64, NULL, 0 };
	struct lat_point pts[12];
	struct cache_levels cl;
	char name[32], note[512];
	uint64_t cap;

	(void)state;
	for (int i = 0; i < 12; i++) {
		pts[i].size = 512ull << i; /* 512 B .. 1 MiB */
		pts[i].nspl = pts[i].size <= 32768 ? 2.0 : pts[i].size <= 262144 ? 8.0 : 8.0 + 10 * (i - 9);
	}
	for (int k = 0; k < 2; k++) {
		find_levels(&s, pts, 12, k ? &l1 : NULL, &cl);
		assert_int_equal(cl.n, 2);
		assert_true(cl.rising);
		assert_int_equal(cl.last, CL_LAST_RISING);
		assert_false(cache_level_is_memory(&cl, 1));
		cache_level_name(name, sizeof(name), &cl, 1);
		assert_string_equal(name, "L2");
		assert_true(cache_level_capacity(&cl, 1, &cap));
		assert_int_equal(cap, 262144);
		assert_true(cache_levels_note(note, sizeof(note), &cl));
		assert_string_equal(note, "latency keeps rising after the last plateau (28.000 ns at 1 MiB): "
					  "memory may lie beyond lat_max; raise lat_max");
		cache_levels_free(&cl);
	}
	/* the same sweep ending on its plateau: memory when the FDT's largest
	 * cache lies below it, L2 when the FDT names none */
	find_levels(&s, pts, 10, &l1, &cl);
	assert_int_equal(cl.n, 2);
	assert_false(cl.rising);
	cache_level_name(name, sizeof(name), &cl, 1);
	assert_string_equal(name, "memory");
	assert_false(cache_level_capacity(&cl, 1, &cap));
	cache_levels_free(&cl);
	find_levels(&s, pts, 10, &(struct cache_fdt){ 1, 0 }, &cl);
	cache_level_name(name, sizeof(name), &cl, 1);
	assert_string_equal(name, "L2");
	assert_false(cache_level_capacity(&cl, 1, &cap));
	assert_true(cache_levels_note(note, sizeof(note), &cl));
	assert_non_null(strstr(note, "and the FDT names no cache size (hdr cache_max=0), so L2 may be a cache"));
	cache_levels_free(&cl);
}

/* OpenPiton 2x1 (8 KiB L1D and L1.5, two 64 KiB L2 slices) swept to
 * lat_max=64K: the 16-64 KiB plateau is the L2, not memory, with no
 * cache_max (the image before the key), with cache_max=0 (OpenPiton's
 * tree names no cache) and with a tree that describes the 128 KiB L2. */
static void test_cache_levels_lat_max_inside_llc(void **state)
{
	struct lat_set s = { "random", 64, NULL, 0 };
	struct lat_point pts[8];
	struct cache_levels cl;
	char name[32], note[512];
	static const uint64_t sizes[] = { 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536 };
	static const double ns[] = { 4.8, 4.3, 4.4, 4.4, 5.7, 24.0, 25.1, 25.3 };

	(void)state;
	for (int i = 0; i < 8; i++) {
		pts[i].size = sizes[i];
		pts[i].nspl = ns[i];
	}
	for (int k = 0; k < 3; k++) {
		struct cache_fdt f = { k > 0, k == 2 ? 128u << 10 : 0 };

		find_levels(&s, pts, 8, k ? &f : NULL, &cl);
		assert_int_equal(cl.n, 2);
		assert_int_equal(cl.lv[1].size_first, 16384);
		assert_int_equal(cl.lv[1].size_last, 65536);
		assert_false(cache_level_is_memory(&cl, 1));
		cache_level_name(name, sizeof(name), &cl, 1);
		assert_string_equal(name, "L2");
		assert_int_equal(cl.last, k == 2 ? CL_LAST_INSIDE : CL_LAST_NO_FDT);
		assert_true(cache_levels_note(note, sizeof(note), &cl));
		if (k == 2)
			assert_string_equal(note, "L2 starts at 16 KiB, inside the largest cache the FDT describes "
						  "(128 KiB, hdr cache_max), so it is a cache level, not memory (were its "
						  "latency memory's, the caches would hold less than the FDT says): raise "
						  "lat_max past 128 KiB");
		cache_levels_free(&cl);
	}
}

/* make run's system on hostsim: L1 32 KiB, LLC 2 MiB, memory from 2.25 MiB
 * to lat_max, 16 MiB.  hostsim's tree describes the 2 MiB LLC: memory;
 * without cache_max the same sweep's last plateau is L3. */
static void test_cache_levels_hostsim(void **state)
{
	static const struct cache_fdt llc = { 1, 2u << 20 };
	struct lat_set s = { "random", 64, NULL, 0 };
	struct lat_point pts[64];
	struct cache_levels cl;
	char name[32];
	int n = 0;

	(void)state;
	for (uint64_t p = 512; p <= (16u << 20); p *= 2)
		for (int q = 0; q < 4 && p + p * (uint64_t)q / 4 <= (16u << 20); q++) {
			pts[n].size = p + p * (uint64_t)q / 4;
			pts[n].nspl = pts[n].size <= 32768 ? 4.0 : pts[n].size <= (2u << 20) ? 34.0 : 120.9;
			n++;
		}
	find_levels(&s, pts, n, &llc, &cl);
	assert_int_equal(cl.n, 3);
	assert_int_equal(cl.lv[2].size_first, 2621440);
	assert_int_equal(cl.last, CL_LAST_MEMORY);
	cache_level_name(name, sizeof(name), &cl, 2);
	assert_string_equal(name, "memory");
	cache_levels_free(&cl);
	find_levels(&s, pts, n, NULL, &cl);
	cache_level_name(name, sizeof(name), &cl, 2);
	assert_string_equal(name, "L3");
	cache_levels_free(&cl);
}

/* Where the FDT and the data disagree (docs/formats.md, "Cache levels"). */
static void test_cache_levels_fdt_contradicted(void **state)
{
	struct lat_set s = { "random", 64, NULL, 0 };
	struct lat_point pts[16];
	struct cache_levels cl;
	char name[32], note[512];

	(void)state;
	/* an L1 to 32 KiB, then 100 ns from 64 KiB to 16 MiB, flat: the FDT
	 * says 2 MiB of L2, yet sizes no cache it describes holds (4 MiB and
	 * more) show the same latency: memory, and a note says so */
	for (int i = 0; i < 16; i++) {
		pts[i].size = 512ull << i;
		pts[i].nspl = pts[i].size <= 32768 ? 2.0 : 100.0;
	}
	find_levels(&s, pts, 16, &(struct cache_fdt){ 1, 2u << 20 }, &cl);
	assert_int_equal(cl.last, CL_LAST_MEMORY_FLAT);
	cache_level_name(name, sizeof(name), &cl, 1);
	assert_string_equal(name, "memory");
	assert_true(cache_levels_note(note, sizeof(note), &cl));
	assert_string_equal(note, "memory starts at 64 KiB, inside the largest cache the FDT describes (2 MiB, hdr "
				  "cache_max), but its latency stays flat to 16 MiB, beyond any cache the FDT "
				  "describes: the caches hold less than the FDT says (ways disabled or locked?)");
	cache_levels_free(&cl);
	/* ... the same curve to 2 MiB only (lat_max inside the FDT's L2):
	 * however far above the L1 its latency, it is a cache level by the
	 * FDT's account, and the note says what to do */
	find_levels(&s, pts, 13, &(struct cache_fdt){ 1, 2u << 20 }, &cl);
	assert_int_equal(cl.last, CL_LAST_INSIDE);
	cache_level_name(name, sizeof(name), &cl, 1);
	assert_string_equal(name, "L2");
	cache_levels_free(&cl);
	/* ... to 3 MiB: past the FDT's 2 MiB but not twice it: still inside */
	pts[13].size = 3u << 20;
	find_levels(&s, pts, 14, &(struct cache_fdt){ 1, 2u << 20 }, &cl);
	assert_int_equal(cl.last, CL_LAST_INSIDE);
	cache_levels_free(&cl);

	/* the FDT names only the 32 KiB L1, and two plateaus lie beyond it: it
	 * misses a cache, so the last is not named memory */
	for (int i = 0; i < 16; i++) {
		pts[i].size = 512ull << i;
		pts[i].nspl = pts[i].size <= 32768 ? 2.0 : pts[i].size <= (1u << 20) ? 10.0 : 100.0;
	}
	find_levels(&s, pts, 16, &(struct cache_fdt){ 1, 32768 }, &cl);
	assert_int_equal(cl.n, 3);
	assert_int_equal(cl.last, CL_LAST_UNDESCRIBED);
	cache_level_name(name, sizeof(name), &cl, 2);
	assert_string_equal(name, "L3");
	assert_true(cache_levels_note(note, sizeof(note), &cl));
	assert_string_equal(note, "L2 to L3 start beyond the largest cache the FDT describes (32 KiB, hdr cache_max): "
				  "it does not describe every cache, so L3 is not named memory");
	cache_levels_free(&cl);
	/* ... with the 1 MiB L2 in the tree too: memory */
	find_levels(&s, pts, 16, &(struct cache_fdt){ 1, 1u << 20 }, &cl);
	assert_int_equal(cl.last, CL_LAST_MEMORY);
	cache_levels_free(&cl);
}

/* The hdr's cache_max: absent, a size, 0, not a number, no hdr at all; and
 * what it makes of make run's sweep on hostsim (2 MiB LLC): memory only when
 * the hdr says 2 MiB. */
static void test_cache_levels_hdr(void **state)
{
	static const char *const fields[] = { "proto=1 version=x", "proto=1 version=x cache_max=2097152",
					      "proto=1 version=x cache_max=0", "proto=1 version=x cache_max=2M" };
	struct lat_set s = { "random", 64, NULL, 0 };
	struct lat_point pts[16];
	struct cache_levels cl;
	struct cache_fdt f;
	struct rvm_log log;
	struct diag d;
	char name[32];

	(void)state;
	for (int i = 0; i < 16; i++) {
		pts[i].size = 512ull << i;
		pts[i].nspl = pts[i].size <= 32768 ? 4.0 : pts[i].size <= (2u << 20) ? 34.0 : 120.9;
	}
	for (int k = 0; k < 5; k++) {
		struct tbuf b = { 0 };
		size_t invalid = 0;

		tb_rec(&b, k == 4 ? 1 : 0, k == 4 ? "end" : "hdr", 0, k == 4 ? "status=ok" : fields[k]);
		assert_int_equal(rvm_log_read_mem("h.log", b.s, b.len, NULL, &log), 0);
		diag_open(&d);
		lat_hdr_cache_fdt(&log, d.f, &f, &invalid);
		assert_int_equal(f.known, k == 1 || k == 2);
		assert_int_equal(f.max, k == 1 ? 2097152 : 0);
		assert_int_equal(invalid, k == 3);
		if (k == 3)
			assert_string_equal(diag_text(&d), "h.log:1: hdr record: bad field 'cache_max' ('2M'), taken as absent\n");
		else
			assert_string_equal(diag_text(&d), "");
		diag_close(&d);
		find_levels(&s, pts, 16, &f, &cl);
		assert_int_equal(cl.n, 3);
		cache_level_name(name, sizeof(name), &cl, 2);
		assert_string_equal(name, k == 1 ? "memory" : "L3");
		cache_levels_free(&cl);
		rvm_log_free(&log);
		tb_free(&b);
	}
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
		cmocka_unit_test(test_cache_levels_lat_max_inside_llc),
		cmocka_unit_test(test_cache_levels_hostsim),
		cmocka_unit_test(test_cache_levels_fdt_contradicted),
		cmocka_unit_test(test_cache_levels_hdr),
	};

	return cmocka_run_group_tests(tests, tu_setup_tmpdir, tu_teardown_tmpdir);
}
