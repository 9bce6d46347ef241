/* Unit tests: hostsim memory system (sim/memsys.c, cache.c, memmodel.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "sim/cache.h"
#include "sim/memmodel.h"
#include "sim/memsys.h"

#define LINE 64u

static char err[256];

/* A memsys from the defaults plus "key=value" overrides (NULL-terminated). */
static struct memsys *mk(unsigned nharts, ...)
{
	struct memsys_cfg c;
	memsys_cfg_default(&c);
	va_list ap;
	va_start(ap, nharts);
	const char *kv;
	while ((kv = va_arg(ap, const char *)) != NULL) {
		char k[64];
		const char *eq = strchr(kv, '=');
		assert_non_null(eq);
		snprintf(k, sizeof k, "%.*s", (int)(eq - kv), kv);
		if (memsys_cfg_set(&c, k, eq + 1, err, sizeof err))
			fail_msg("cfg %s: %s", kv, err);
	}
	va_end(ap);
	struct memsys *m = memsys_new(&c, nharts, err, sizeof err);
	if (!m)
		fail_msg("memsys_new: %s", err);
	return m;
}

static uint64_t ev(struct memsys *m, unsigned h, unsigned e) { return memsys_event(m, h, e); }

static uint64_t ev_sum(struct memsys *m, unsigned n, unsigned e)
{
	uint64_t s = 0;
	for (unsigned h = 0; h < n; h++)
		s += memsys_event(m, h, e);
	return s;
}

/* ---- configuration ------------------------------------------------------- */

static void test_cfg_defaults(void **state)
{
	(void)state;
	struct memsys_cfg c;
	memsys_cfg_default(&c);
	assert_int_equal(memsys_cfg_check(&c, err, sizeof err), 0);
	assert_int_equal(c.line, 64);
	assert_int_equal(c.l1d_size, 32768);
	assert_string_equal(c.mem_model, "dram");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	memsys_cfg_print(&c, f);
	fclose(f);
	assert_non_null(strstr(buf, "l1d-size       32768"));
	assert_non_null(strstr(buf, "mem-model      dram"));
	free(buf);
}

/* Every model's own keys (memmodel.c) are options: known, settable to their
 * range's ends, listed by memsys_cfg_print with their defaults, and the
 * defaults pass the model's check. */
static void test_model_keys(void **state)
{
	(void)state;
	const struct memmodel_ops *mo;
	size_t nkeys = 0;
	for (size_t m = 0; (mo = memmodel_at(m)) != NULL; m++) {
		assert_ptr_equal(memmodel_find(mo->name), mo);
		assert_non_null(strstr(memmodel_names(), mo->name));
		for (size_t i = 0; i < mo->nkeys; i++, nkeys++) {
			const struct memsys_key *k = &mo->keys[i];
			struct memsys_cfg c;
			char v[64], *buf = NULL;
			size_t len = 0;
			memsys_cfg_default(&c);
			assert_true(memsys_cfg_is_key(k->name));
			FILE *f = open_memstream(&buf, &len);
			memsys_cfg_print(&c, f);
			fclose(f);
			assert_non_null(strstr(buf, k->name));
			free(buf);
			if (k->type == K_STR) /* ddr-preset, ddr-page, ddr-map: checked by the model */
				continue;
			if (k->type != K_U32) { /* mess's K_DBL, K_SIZE: the max is taken, twice it refused */
				snprintf(v, sizeof v, "%.17g", k->max);
				if (memsys_cfg_set(&c, k->name, v, err, sizeof err))
					fail_msg("%s %s: %s", k->name, v, err);
				snprintf(v, sizeof v, "%.17g", 2 * k->max + 1);
				assert_int_equal(memsys_cfg_set(&c, k->name, v, err, sizeof err), -1);
				continue;
			}
			snprintf(v, sizeof v, "%.0f", k->max);
			if (memsys_cfg_set(&c, k->name, v, err, sizeof err))
				fail_msg("%s %s: %s", k->name, v, err);
			assert_int_equal(*(const unsigned *)(const void *)((const char *)&c + k->off), (unsigned)k->max);
			snprintf(v, sizeof v, "%.0f", k->max + 1);
			assert_int_equal(memsys_cfg_set(&c, k->name, v, err, sizeof err), -1);
		}
	}
	assert_true(nkeys >= 11); /* dram's */
	struct memsys_cfg c;
	memsys_cfg_default(&c);
	assert_int_equal(memmodel_check(&c, err, sizeof err), 0);
	assert_int_equal(c.dram_banks, 16);
	c.dram_banks = 12; /* checked whichever model is selected */
	strcpy(c.mem_model, "fixed");
	assert_int_equal(memsys_cfg_check(&c, err, sizeof err), -1);
	assert_non_null(strstr(err, "dram-banks"));
}

static void test_cfg_set_ok(void **state)
{
	(void)state;
	struct memsys_cfg c;
	memsys_cfg_default(&c);
	assert_int_equal(memsys_cfg_set(&c, "l1d-size", "16K", err, sizeof err), 0);
	assert_int_equal(c.l1d_size, 16384);
	assert_int_equal(memsys_cfg_set(&c, "llc_size", "4MiB", err, sizeof err), 0);
	assert_int_equal(c.llc_size, 4u << 20);
	assert_int_equal(memsys_cfg_set(&c, "peak-gbps", "12.8", err, sizeof err), 0);
	assert_true(c.peak_gbps > 12.79 && c.peak_gbps < 12.81);
	assert_int_equal(memsys_cfg_set(&c, "mem-model", "md1", err, sizeof err), 0);
	assert_string_equal(c.mem_model, "md1");
	assert_int_equal(memsys_cfg_set(&c, "l1d-ways", "04", err, sizeof err), 0); /* decimal, not octal */
	assert_int_equal(c.l1d_ways, 4);
	assert_int_equal(memsys_cfg_set(&c, "llc-size", "010M", err, sizeof err), 0);
	assert_int_equal(c.llc_size, 10u << 20);
}

static void refuse(const char *key, const char *val, const char *want1, const char *want2)
{
	struct memsys_cfg c, before;
	memsys_cfg_default(&c);
	before = c;
	err[0] = 0;
	assert_int_equal(memsys_cfg_set(&c, key, val, err, sizeof err), -1);
	if (!strstr(err, want1) || (want2 && !strstr(err, want2)))
		fail_msg("%s=%s: message '%s' lacks '%s'/'%s'", key, val, err, want1, want2 ? want2 : "");
	/* nothing good is lost: the config is untouched */
	assert_memory_equal(&c, &before, sizeof c);
}

static void test_cfg_refusals(void **state)
{
	(void)state;
	assert_true(memsys_cfg_is_key("dram-rowbufs"));
	assert_true(memsys_cfg_is_key("llc_size"));
	assert_false(memsys_cfg_is_key("l1d-sise"));
	refuse("l1d-sise", "32K", "unknown key", "l1d-sise");
	refuse("l1d-size", "abc", "l1d-size", "bad number");
	refuse("l1d-size", "32Q", "l1d-size", "bad number");
	refuse("l1d-ways", "-4", "l1d-ways", "bad number");
	refuse("l1d-ways", "0x4", "l1d-ways", "not a decimal number");
	refuse("l1d-size", "32KB", "l1d-size", "unknown suffix");
	refuse("l1d-ways", "", "l1d-ways", "empty");
	refuse("llc-ways", "1000", "llc-ways", "out of range");
	refuse("peak-gbps", "fast", "peak-gbps", "bad number");
	refuse("peak-gbps", "0", "peak-gbps", "out of range");
	refuse("mem-model", "hbm", "mem-model", "unknown model");
	refuse("mem-model", "", "mem-model", "empty");
	refuse("mem-model", NULL, "mem-model", "empty");
	refuse("dram-wq", "99999999999999999999999", "dram-wq", "bad number");
}

static void test_cfg_check_refusals(void **state)
{
	(void)state;
	struct memsys_cfg c;
	memsys_cfg_default(&c);
	c.l1d_size = 48 << 10; /* 96 sets: not a power of two */
	assert_null(memsys_new(&c, 1, err, sizeof err));
	assert_non_null(strstr(err, "l1d-size"));
	memsys_cfg_default(&c);
	c.mem_latency = 20; /* below tRP + tRCD + tCL for dram */
	assert_null(memsys_new(&c, 1, err, sizeof err));
	assert_non_null(strstr(err, "mem-latency"));
	memsys_cfg_default(&c);
	c.l1d_size = 64 << 10; /* an inclusive LLC smaller than the L1D it includes */
	c.llc_size = 32 << 10;
	assert_null(memsys_new(&c, 1, err, sizeof err));
	assert_non_null(strstr(err, "llc-size 32768 is smaller than l1d-size 65536"));
	c.llc_size = 64 << 10; /* as large: accepted */
	assert_int_equal(memsys_cfg_check(&c, err, sizeof err), 0);
	memsys_cfg_default(&c);
	c.line = 48;
	assert_null(memsys_new(&c, 1, err, sizeof err));
	assert_non_null(strstr(err, "line"));
	memsys_cfg_default(&c);
	c.pf_dist = 64; /* past a 4 KiB page of 64-byte lines */
	assert_null(memsys_new(&c, 1, err, sizeof err));
	assert_non_null(strstr(err, "pf-dist 64: the prefetcher stays within a 4 KiB page, so at most 63"));
	c.pf_dist = 63;
	assert_int_equal(memsys_cfg_check(&c, err, sizeof err), 0);
	memsys_cfg_default(&c);
	assert_null(memsys_new(&c, 0, err, sizeof err));
	assert_null(memsys_new(&c, MEMSYS_MAX_HARTS + 1, err, sizeof err));
	assert_non_null(strstr(err, "harts"));
}

/* ---- latencies ------------------------------------------------------------ */

static void test_hit_miss_latency_fixed(void **state)
{
	(void)state;
	struct memsys *m = mk(2, "mem-model=fixed", "mem-latency=123", NULL);
	uint64_t a = 0x80001000;
	/* cold: L1 + LLC + memory */
	assert_int_equal(memsys_access(m, 0, a, 0, 1000), 1000 + 4 + 30 + 123);
	/* L1 hit, also elsewhere in the same line */
	assert_int_equal(memsys_access(m, 0, a + 8, 0, 2000), 2004);
	/* another hart: LLC hit */
	assert_int_equal(memsys_access(m, 1, a, 0, 2000), 2000 + 4 + 30);
	assert_int_equal(memsys_access(m, 1, a, 0, 3000), 3004);
	/* a fixed model is exact under any load */
	for (unsigned i = 0; i < 100; i++)
		assert_int_equal(memsys_access(m, 0, 0x90000000 + i * LINE, 0, 5000), 5000 + 157);
	struct memsys_model_stats s;
	memsys_model_stats(m, &s);
	assert_int_equal(s.reads, 101);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_PEAK), 0);
	memsys_free(m);
}

static void test_store_miss_and_exclusive(void **state)
{
	(void)state;
	struct memsys *m = mk(1, "mem-model=fixed", "mem-latency=50", NULL);
	/* store miss: write-allocate, owns the line after the read */
	assert_int_equal(memsys_access(m, 0, 0x1000, 1, 0), 84);
	assert_int_equal(memsys_access(m, 0, 0x1000, 1, 100), 104);
	/* load miss gets Exclusive: a later store is a silent L1 hit */
	assert_int_equal(memsys_access(m, 0, 0x2000, 0, 200), 284);
	assert_int_equal(memsys_access(m, 0, 0x2000, 1, 300), 304);
	assert_int_equal(ev(m, 0, MEMSYS_EV_UPGRADE), 0);
	assert_int_equal(ev(m, 0, MEMSYS_EV_LOAD), 1);
	assert_int_equal(ev(m, 0, MEMSYS_EV_STORE), 3);
	assert_int_equal(ev(m, 0, MEMSYS_EV_L1D_ACCESS), 4);
	assert_int_equal(ev(m, 0, MEMSYS_EV_L1D_MISS), 2);
	assert_int_equal(ev(m, 0, MEMSYS_EV_LLC_MISS), 2);
	memsys_free(m);
}

static void test_inflight_line_waits(void **state)
{
	(void)state;
	struct memsys *m = mk(2, "mem-model=fixed", "mem-latency=100", NULL);
	/* a miss at 0 brings the line at 134; accesses to it before then wait */
	assert_int_equal(memsys_access(m, 0, 0x100, 0, 0), 134);
	assert_int_equal(memsys_access(m, 0, 0x108, 0, 1), 134);   /* fast path */
	assert_int_equal(memsys_access(m, 0, 0x2000, 0, 2), 136);  /* another miss, overlapped */
	assert_int_equal(memsys_access(m, 0, 0x110, 1, 3), 134);   /* slow-path hit, E -> M */
	assert_int_equal(memsys_access(m, 0, 0x118, 0, 200), 204); /* arrived long ago */
	/* the LLC holds it in flight too: another hart waits for the same read */
	assert_int_equal(memsys_access(m, 1, 0x2000, 0, 10), 136);
	assert_int_equal(memsys_access(m, 1, 0x2000, 0, 300), 304);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_READS), 2);
	assert_int_equal(ev(m, 0, MEMSYS_EV_L1D_MISS), 2);
	memsys_free(m);
}

/* An L1 miss that hits the LLC with no L1 holding the line (memsys.c's
 * memsys_access_miss, 8-way L1s): its latency, a fill still in flight,
 * the state it fills (a store: Modified) and a dirty victim written back
 * on that path.  One L1 set of 8 ways; line n at n * 0x40. */
static void test_l1_miss_llc_hit(void **state)
{
	(void)state;
	struct memsys *m = mk(1, "l1d-size=512", "l1d-ways=8", "mem-model=fixed", "mem-latency=100", NULL);
#define L(n) ((uint64_t)(n) * 0x40)
	/* 0 at 0 arrives at 134; 1..8 evict it from the L1 while in flight */
	assert_int_equal(memsys_access(m, 0, L(0), 0, 0), 134);
	for (unsigned n = 1; n <= 8; n++)
		memsys_access(m, 0, L(n), 0, n);
	/* 0 again at 10: an LLC hit that waits for the read in flight */
	assert_int_equal(memsys_access(m, 0, L(0), 0, 10), 134);
	/* 1 (evicted by 0) at 1000: l1-hit + llc-hit */
	assert_int_equal(memsys_access(m, 0, L(1), 0, 1000), 1034);
	/* a store to 2 (evicted by 1) on the same path fills it Modified */
	assert_int_equal(memsys_access(m, 0, L(2), 1, 2000), 2034);
	assert_int_equal(ev(m, 0, MEMSYS_EV_UPGRADE), 0);
	/* the L1 holds 4..8, 0, 1, 2; seven new lines leave 2 its LRU line,
	 * and 3 (an LLC hit) evicts it: written back on this path */
	for (unsigned n = 9; n <= 15; n++)
		memsys_access(m, 0, L(n), 0, 3000 + n);
	assert_int_equal(ev(m, 0, MEMSYS_EV_L1D_WB), 0);
	assert_int_equal(memsys_access(m, 0, L(3), 0, 4000), 4034);
	assert_int_equal(ev(m, 0, MEMSYS_EV_L1D_WB), 1);
	/* 2 again: its victim (9) is clean, nothing more written back */
	assert_int_equal(memsys_access(m, 0, L(2), 0, 5000), 5034);
	assert_int_equal(ev(m, 0, MEMSYS_EV_L1D_WB), 1);
	assert_int_equal(ev(m, 0, MEMSYS_EV_LLC_MISS), 16);
	assert_int_equal(ev(m, 0, MEMSYS_EV_L1D_MISS), 21);
#undef L
	memsys_free(m);
}

/* An LLC miss whose LLC victim is in the requester's own L1: the L1 slot
 * that eviction frees is the one refilled (the first invalid way), not
 * the L1's LRU line.  L1 and LLC one set of 4 ways each; an L1 hit on A
 * makes B the L1's LRU line while A stays the LLC's. */
static void test_back_invalidated_slot_refilled(void **state)
{
	(void)state;
	struct memsys *m = mk(1, "l1d-size=256", "l1d-ways=4", "llc-size=256", "llc-ways=4", "mem-model=fixed", NULL);
	for (uint64_t i = 0; i < 4; i++)
		memsys_access(m, 0, i * 0x40, 0, i);
	assert_int_equal(memsys_access(m, 0, 0x000, 0, 500), 504); /* A: an L1 hit */
	memsys_access(m, 0, 4 * 0x40, 0, 600);                      /* E evicts A from both */
	assert_int_equal(ev(m, 0, MEMSYS_EV_BACK_INV), 1);
	/* B is still in the L1 */
	assert_int_equal(memsys_access(m, 0, 1 * 0x40, 0, 1000), 1004);
	assert_int_equal(ev(m, 0, MEMSYS_EV_L1D_MISS), 5);
	memsys_free(m);
}

/* ---- capacity and replacement --------------------------------------------- */

/* Walk n lines twice; return the L1 and LLC misses of the second pass. */
static void sweep(struct memsys *m, uint64_t n, uint64_t *l1miss, uint64_t *llcmiss)
{
	uint64_t t = 0;
	for (uint64_t i = 0; i < n; i++)
		t = memsys_access(m, 0, 0x80000000 + i * LINE, 0, t);
	uint64_t a = ev(m, 0, MEMSYS_EV_L1D_MISS), b = ev(m, 0, MEMSYS_EV_LLC_MISS);
	for (uint64_t i = 0; i < n; i++)
		t = memsys_access(m, 0, 0x80000000 + i * LINE, 0, t);
	*l1miss = ev(m, 0, MEMSYS_EV_L1D_MISS) - a;
	*llcmiss = ev(m, 0, MEMSYS_EV_LLC_MISS) - b;
}

static void test_capacity_sweep(void **state)
{
	(void)state;
	/* L1 32 KiB = 512 lines, LLC 256 KiB = 4096 lines */
	static const uint64_t sizes_kib[] = { 4, 16, 32, 48, 64, 128, 256, 384, 512, 1024 };
	for (size_t k = 0; k < sizeof sizes_kib / sizeof sizes_kib[0]; k++) {
		struct memsys *m = mk(1, "llc-size=256K", "mem-model=fixed", NULL);
		uint64_t n = sizes_kib[k] * 1024 / LINE, l1m, llcm;
		sweep(m, n, &l1m, &llcm);
		if (sizes_kib[k] <= 32)
			assert_int_equal(l1m, 0);
		else /* sequential sweep over LRU larger than the cache: every access misses */
			assert_int_equal(l1m, n);
		if (sizes_kib[k] <= 256)
			assert_int_equal(llcm, 0);
		else
			assert_int_equal(llcm, n);
		memsys_free(m);
	}
}

/* Mean latency of a dependent walk over `kib` KiB visiting lines in the
 * order (i * mul) mod n (a permutation: n is a power of two, mul odd). */
static uint64_t walk_latency(const char *model, uint64_t kib, uint64_t mul)
{
	struct memsys_cfg c;
	memsys_cfg_default(&c);
	assert_int_equal(memsys_cfg_set(&c, "mem-model", model, err, sizeof err), 0);
	struct memsys *m = memsys_new(&c, 1, err, sizeof err);
	assert_non_null(m);
	uint64_t n = kib * 1024 / LINE, t = 0;
	for (uint64_t i = 0; i < n; i++)
		t = memsys_access(m, 0, ((i * mul) % n) * LINE, 0, t);
	uint64_t t0 = t;
	for (uint64_t i = 0; i < n; i++)
		t = memsys_access(m, 0, ((i * mul) % n) * LINE, 0, t);
	memsys_free(m);
	return (t - t0) / n;
}

static void test_latency_by_level(void **state)
{
	(void)state;
	/* 4 in L1, 4 + 30 in the LLC, 4 + 30 + 80 beyond with a fixed model */
	assert_int_equal(walk_latency("fixed", 16, 17), 4);
	assert_int_equal(walk_latency("fixed", 1024, 17), 34);
	assert_int_equal(walk_latency("fixed", 8192, 17), 114);
	/* dram: a scattered walk mostly finds rows closed by another row (80),
	 * a short-stride walk mostly finds its row open (52) */
	uint64_t scattered = walk_latency("dram", 8192, 40503), near = walk_latency("dram", 8192, 17);
	print_message("dram walk latency: scattered %llu, stride-17 %llu\n",
	              (unsigned long long)scattered, (unsigned long long)near);
	assert_true(scattered >= 108 && scattered <= 116);
	assert_true(near >= 86 && near < 100);
}

static void test_lru_order(void **state)
{
	(void)state;
	/* L1: one set of 4 ways */
	struct memsys *m = mk(1, "l1d-size=256", "l1d-ways=4", "mem-model=fixed", NULL);
	uint64_t A = 0, B = 64, C = 128, D = 192, E = 256, t = 0;
#define MISS_AFTER(addr) (t = memsys_access(m, 0, (addr), 0, t), ev(m, 0, MEMSYS_EV_L1D_MISS))
	assert_int_equal(MISS_AFTER(A), 1);
	assert_int_equal(MISS_AFTER(B), 2);
	assert_int_equal(MISS_AFTER(C), 3);
	assert_int_equal(MISS_AFTER(D), 4);
	assert_int_equal(MISS_AFTER(A), 4);  /* hit; order now B C D A */
	assert_int_equal(MISS_AFTER(C), 4);  /* hit; order B D A C */
	assert_int_equal(MISS_AFTER(E), 5);  /* evicts B */
	assert_int_equal(MISS_AFTER(D), 5);  /* D A C E -> A C E D */
	assert_int_equal(MISS_AFTER(A), 5);
	assert_int_equal(MISS_AFTER(C), 5);
	assert_int_equal(MISS_AFTER(E), 5);
	assert_int_equal(MISS_AFTER(B), 6);  /* B was the one evicted; evicts D */
	assert_int_equal(MISS_AFTER(A), 6);
	assert_int_equal(MISS_AFTER(D), 7);
#undef MISS_AFTER
	memsys_free(m);
}

/* ---- write-backs ------------------------------------------------------------ */

static void test_writeback_counts(void **state)
{
	(void)state;
	/* 1 hart stores to N distinct lines: L1 512 lines, LLC 4096 lines */
	struct memsys *m = mk(1, "llc-size=256K", "mem-model=fixed", NULL);
	const uint64_t n = 10000;
	uint64_t t = 0;
	for (uint64_t i = 0; i < n; i++)
		t = memsys_access(m, 0, i * LINE, 1, t);
	assert_int_equal(ev(m, 0, MEMSYS_EV_L1D_WB), n - 512);
	assert_int_equal(ev(m, 0, MEMSYS_EV_LLC_WB), n - 4096);
	assert_int_equal(ev(m, 0, MEMSYS_EV_LLC_MISS), n);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_READS), n);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_WRITES), n - 4096);
	/* loads only: clean evictions are not written back */
	for (uint64_t i = 0; i < n; i++)
		t = memsys_access(m, 0, (1ull << 30) + i * LINE, 0, t);
	/* the first 4096 of these evict the remaining dirty lines, then clean ones */
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_WRITES), n);
	assert_int_equal(ev(m, 0, MEMSYS_EV_LLC_WB), n);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_READS), 2 * n);
	memsys_free(m);
}

/* Injected clean-writeback: loads only, so every eviction is of a clean
 * line; at 100 % each one is written back (N - 4096 of them, the LLC keeping
 * 4096), at 0 % (not injected) none, and at 50 % about half. */
static void test_clean_writeback(void **state)
{
	(void)state;
	const uint64_t n = 10000;
	for (unsigned rate = 0; rate <= 100; rate += 50) {
		struct memsys *m = mk(1, "llc-size=256K", "mem-model=fixed", NULL);
		if (rate)
			memsys_inject_clean_wb(m, rate, 1);
		uint64_t t = 0;
		for (uint64_t i = 0; i < n; i++)
			t = memsys_access(m, 0, i * LINE, 0, t);
		uint64_t w = memsys_mmio_read(m, MEMSYS_MMIO_WRITES);
		assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_READS), n);
		assert_int_equal(memsys_clean_wb_events(m), w);
		assert_int_equal(ev(m, 0, MEMSYS_EV_LLC_WB), w);
		if (rate == 100)
			assert_int_equal(w, n - 4096);
		else if (rate == 0)
			assert_int_equal(w, 0);
		else /* binomial(5904, 1/2): mean 2952, sd 38 */
			assert_true(w > 2952 - 200 && w < 2952 + 200);
		memsys_free(m);
	}
}

/* Mess traffic generator pattern: 100 % stores, write-allocate, gives
 * 50 % reads / 50 % writes at memory. */
static void test_store_stream_half_writes(void **state)
{
	(void)state;
	struct memsys *m = mk(1, NULL);
	const uint64_t n = 200000;
	uint64_t t = 0;
	for (uint64_t i = 0; i < n; i++)
		t = memsys_access(m, 0, i * LINE, 1, t);
	uint64_t r = memsys_mmio_read(m, MEMSYS_MMIO_READS), w = memsys_mmio_read(m, MEMSYS_MMIO_WRITES);
	assert_int_equal(r, n);
	assert_int_equal(w, n - 32768); /* the LLC (2 MiB) keeps the last 32768 dirty */
	memsys_free(m);
}

/* ---- coherence --------------------------------------------------------------- */

static void test_coherence_invalidate(void **state)
{
	(void)state;
	struct memsys *m = mk(4, "mem-model=fixed", "mem-latency=100", NULL);
	uint64_t a = 0x4000;
	for (unsigned h = 0; h < 4; h++)
		memsys_access(m, h, a, 0, 0);
	/* all four share it; hart 2 stores: upgrade, 3 invalidations */
	assert_int_equal(memsys_access(m, 2, a, 1, 1000), 1000 + 4 + 30);
	assert_int_equal(ev(m, 2, MEMSYS_EV_UPGRADE), 1);
	assert_int_equal(ev(m, 2, MEMSYS_EV_INV_SENT), 3);
	for (unsigned h = 0; h < 4; h++)
		assert_int_equal(ev(m, h, MEMSYS_EV_INV_RECV), h == 2 ? 0 : 1);
	/* hart 2 keeps ownership: store hits */
	assert_int_equal(memsys_access(m, 2, a, 1, 2000), 2004);
	/* hart 0 lost its copy (also its fast-path line): load goes to the LLC and
	 * forces hart 2's Modified copy to be written back */
	assert_int_equal(memsys_access(m, 0, a, 0, 3000), 3000 + 4 + 30 + 20);
	assert_int_equal(ev(m, 0, MEMSYS_EV_COH_WB), 1);
	/* hart 2 is downgraded to Shared: its next store is an upgrade again */
	assert_int_equal(memsys_access(m, 2, a, 0, 4000), 4004);
	assert_int_equal(memsys_access(m, 2, a, 1, 4100), 4100 + 34);
	assert_int_equal(ev(m, 2, MEMSYS_EV_UPGRADE), 2);
	assert_int_equal(ev(m, 2, MEMSYS_EV_INV_SENT), 4);
	assert_int_equal(ev(m, 0, MEMSYS_EV_INV_RECV), 2);
	/* hart 1 stores (line Modified in hart 2): intervention + invalidation */
	assert_int_equal(memsys_access(m, 1, a, 1, 5000), 5000 + 54);
	assert_int_equal(ev(m, 1, MEMSYS_EV_COH_WB), 1);
	assert_int_equal(ev(m, 1, MEMSYS_EV_INV_SENT), 1);
	assert_int_equal(ev(m, 2, MEMSYS_EV_INV_RECV), 1);
	/* LLC accesses are L1 misses plus upgrades: hart 2 missed once and
	 * upgraded twice; harts 0 and 1 missed again after losing their copies */
	assert_int_equal(ev(m, 2, MEMSYS_EV_LLC_ACCESS), 1 + 2);
	assert_int_equal(ev(m, 0, MEMSYS_EV_LLC_ACCESS), 2);
	assert_int_equal(ev(m, 1, MEMSYS_EV_LLC_ACCESS), 2);
	assert_int_equal(ev(m, 3, MEMSYS_EV_LLC_ACCESS), 1);
	/* none of this went to memory beyond the first read */
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_READS), 1);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_WRITES), 0);
	memsys_free(m);
}

/* A read miss to a line another hart holds gets it Shared, not Exclusive:
 * the reader's later store is an upgrade that invalidates the other copy. */
static void test_coherence_read_shared(void **state)
{
	(void)state;
	struct memsys *m = mk(2, "mem-model=fixed", "mem-latency=100", NULL);
	uint64_t a = 0x8000;
	memsys_access(m, 0, a, 0, 0);   /* hart 0: Exclusive */
	memsys_access(m, 1, a, 0, 500); /* hart 1: Shared, hart 0 downgraded */
	assert_int_equal(memsys_access(m, 1, a, 1, 1000), 1000 + 4 + 30);
	assert_int_equal(ev(m, 1, MEMSYS_EV_UPGRADE), 1);
	assert_int_equal(ev(m, 1, MEMSYS_EV_INV_SENT), 1);
	assert_int_equal(ev(m, 0, MEMSYS_EV_INV_RECV), 1);
	memsys_free(m);
}

static void test_coherence_pingpong_dirty_writeback(void **state)
{
	(void)state;
	/* Two harts alternately store to the same line; then the line is evicted
	 * from the LLC: exactly one memory write, whoever held it Modified. */
	struct memsys *m = mk(2, "llc-size=64K", "llc-ways=4", "l1d-size=1K", "l1d-ways=2",
	                      "mem-model=fixed", NULL);
	uint64_t t = 0;
	for (int i = 0; i < 10; i++)
		t = memsys_access(m, (unsigned)(i & 1), 0, 1, t);
	assert_int_equal(ev(m, 0, MEMSYS_EV_INV_SENT) + ev(m, 1, MEMSYS_EV_INV_SENT), 9);
	assert_int_equal(ev_sum(m, 2, MEMSYS_EV_COH_WB), 9);
	/* hart 0 streams over 2x the LLC: the shared line gets evicted */
	for (uint64_t i = 1; i <= 2048; i++)
		t = memsys_access(m, 0, i * LINE, 0, t);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_WRITES), 1);
	assert_int_equal(ev(m, 1, MEMSYS_EV_BACK_INV), 1); /* hart 1 held it last */
	memsys_free(m);
}

static void test_intervention_keeps_dirty(void **state)
{
	(void)state;
	/* hart 0 dirties a line, hart 1 reads it (both Shared after the forced
	 * write-back into the LLC): the LLC now owes memory that line */
	struct memsys *m = mk(2, "llc-size=64K", "mem-model=fixed", NULL);
	uint64_t t = memsys_access(m, 0, 0, 1, 0);
	t = memsys_access(m, 1, 0, 0, t);
	assert_int_equal(ev(m, 1, MEMSYS_EV_COH_WB), 1);
	for (uint64_t i = 1; i <= 2048; i++) /* evict it */
		t = memsys_access(m, 0, i * LINE, 0, t);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_WRITES), 1);
	assert_int_equal(ev(m, 0, MEMSYS_EV_BACK_INV) + ev(m, 1, MEMSYS_EV_BACK_INV), 1); /* hart 0's copy went by LRU in its L1 */
	memsys_free(m);
}

/* A store to a line held Exclusive upgrades it silently to Modified: no
 * upgrade event, L1-hit latency, yet a later read by another hart finds it
 * Modified and forces the write-back (intervention: + coh-lat). */
static void test_silent_upgrade_is_modified(void **state)
{
	(void)state;
	struct memsys *m = mk(2, "mem-model=fixed", "mem-latency=100", NULL);
	uint64_t a = 0xc000;
	assert_int_equal(memsys_access(m, 0, a, 0, 0), 4 + 30 + 100); /* Exclusive */
	assert_int_equal(memsys_access(m, 0, a + 8, 1, 1000), 1004);   /* silent upgrade */
	assert_int_equal(ev(m, 0, MEMSYS_EV_UPGRADE), 0);
	assert_int_equal(memsys_access(m, 1, a, 0, 2000), 2000 + 4 + 30 + 20);
	assert_int_equal(ev(m, 1, MEMSYS_EV_COH_WB), 1);
	memsys_free(m);
}

static void test_inclusive_back_invalidation(void **state)
{
	(void)state;
	/* hart 0 keeps one line hot in its L1 (L1 hits do not refresh the LLC's
	 * LRU); hart 1 streams: the LLC evicts it and takes it from hart 0 too */
	struct memsys *m = mk(2, "llc-size=64K", "mem-model=fixed", NULL);
	uint64_t t0 = memsys_access(m, 0, 0, 0, 0), t1 = 0;
	for (uint64_t i = 1; i <= 1024; i++) {
		t1 = memsys_access(m, 1, i * LINE, 0, t1);
		t0 = memsys_access(m, 0, 0, 0, t0);
	}
	assert_int_equal(ev(m, 0, MEMSYS_EV_BACK_INV), 1);
	assert_int_equal(ev(m, 0, MEMSYS_EV_L1D_MISS), 2);
	memsys_free(m);
}

/* ---- memory models directly ---------------------------------------------------- */

static struct memmodel open_model(const char *name, const char *k1, const char *v1)
{
	struct memsys_cfg c;
	memsys_cfg_default(&c);
	assert_int_equal(memsys_cfg_set(&c, "mem-model", name, err, sizeof err), 0);
	if (k1)
		assert_int_equal(memsys_cfg_set(&c, k1, v1, err, sizeof err), 0);
	struct memmodel mm;
	if (memmodel_open(&mm, &c, err, sizeof err))
		fail_msg("%s", err);
	return mm;
}

/* Open-loop: n reads with mean gap `gap` cycles, Poisson arrivals if
 * `poisson`, else evenly spaced; returns the mean latency; *bw_gbps. */
static double open_loop(struct memmodel *mm, uint64_t n, double gap, int poisson, int seq,
                        double *bw_gbps)
{
	double sum = 0, at = 0;
	uint64_t last = 0, x = 12345;
	for (uint64_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		double u = ((double)(x >> 11) + 0.5) / 9007199254740992.0;
		at += poisson ? -log(u) * gap : gap;
		uint64_t now = (uint64_t)at;
		uint64_t la = seq ? i : (x >> 20);
		uint64_t done = memmodel_request(mm, la, 0, now);
		assert_true(done >= now);
		sum += (double)(done - now);
		if (done > last)
			last = done;
	}
	if (bw_gbps)
		*bw_gbps = (double)n * LINE / (double)last; /* B/cycle = GB/s at 1 GHz */
	return sum / (double)n;
}

static void test_md1_load_latency(void **state)
{
	(void)state;
	/* service 2.5 cycles, base 80; Poisson arrivals at loads 10..95 %:
	 * mean latency = base + service + P-K wait rho*S/(2(1-rho)) (+ <1 cycle rounding) */
	static const double rho[] = { 0.1, 0.5, 0.8, 0.95 };
	double prev = 0, bw;
	for (int k = 0; k < 4; k++) {
		struct memmodel mm = open_model("md1", NULL, NULL);
		double lat = open_loop(&mm, 400000, 2.5 / rho[k], 1, 1, &bw);
		double pk = 82.5 + rho[k] * 2.5 / (2 * (1 - rho[k]));
		if (lat < pk * 0.97 || lat > pk * 1.03 + 1)
			fail_msg("md1 rho %.2f: mean latency %.2f, M/D/1 says %.2f", rho[k], lat, pk);
		assert_true(lat > prev);
		prev = lat;
		assert_true(bw < 25.6 * rho[k] * 1.03); /* carries the offered load */
		memmodel_close(&mm);
	}
	/* over-driven (2x): throughput capped at the peak */
	struct memmodel mm = open_model("md1", NULL, NULL);
	open_loop(&mm, 100000, 1.25, 0, 1, &bw);
	assert_true(bw > 25.6 * 0.99 && bw <= 25.6 * 1.001);
	memmodel_close(&mm);
}

static void test_dram_row_states(void **state)
{
	(void)state;
	struct memmodel mm = open_model("dram", "dram-rowbufs", "1"); /* strict open page */
	/* line 0: bank closed */
	uint64_t closed = memmodel_request(&mm, 0, 0, 1000) - 1000;
	/* line 1: same row, open */
	uint64_t hit = memmodel_request(&mm, 1, 0, 2000) - 2000;
	/* same bank, another row: 16 banks * 128 lines/row later, XOR-hash keeps bank 0
	 * when row 1 maps with bank bits 1 -> pick the line so (rb ^ row) & 15 == 0 */
	uint64_t la_conf = (16 + 1) * 128; /* rb = 17: row 1, bank (17 ^ 1) & 15 = 0 */
	uint64_t conf = memmodel_request(&mm, la_conf, 0, 3000) - 3000;
	assert_true(hit < closed);
	assert_true(closed < conf);
	assert_int_equal(conf, 80);          /* mem-latency is the row-conflict latency */
	assert_int_equal(closed, 80 - 14);
	assert_int_equal(hit, 80 - 28);
	struct memsys_model_stats s;
	mm.ops->stats(mm.st, &s);
	assert_int_equal(s.row_hits, 1);
	assert_int_equal(s.row_misses, 1);
	assert_int_equal(s.row_conflicts, 1);
	memmodel_close(&mm);
}

static void test_dram_saturated_read_bw(void **state)
{
	(void)state;
	/* sequential reads, all offered at once in batches: near the peak */
	struct memmodel mm = open_model("dram", NULL, NULL);
	double bw;
	open_loop(&mm, 100000, 0.25, 0, 1, &bw); /* offered 10x the peak */
	assert_true(bw > 25.6 * 0.97 && bw <= 25.6 * 1.001);
	memmodel_close(&mm);
	/* 2 channels double it */
	mm = open_model("dram", "dram-channels", "2");
	open_loop(&mm, 100000, 0.125, 0, 1, &bw);
	assert_true(bw > 25.6 * 0.97 && bw <= 25.6 * 1.001); /* peak-gbps is the total */
	memmodel_close(&mm);
	mm = open_model("dram", "peak-gbps", "51.2");
	open_loop(&mm, 100000, 0.125, 0, 1, &bw);
	assert_true(bw > 51.2 * 0.97 && bw <= 51.2 * 1.001);
	memmodel_close(&mm);
}

/* Saturated mixed traffic: reads sequential in one region, writes sequential
 * in another, `wr_pct` % writes; returns GB/s (total transfers). */
static double mix_bw(unsigned wr_pct)
{
	struct memmodel mm = open_model("dram", NULL, NULL);
	uint64_t last = 0, nr = 0, nw = 0, n = 100000;
	for (uint64_t i = 0; i < n; i++) {
		int w = (i * wr_pct) % 100 < wr_pct; /* writes spread evenly */
		uint64_t now = i / 8; /* 8 lines per cycle offered: far beyond peak */
		uint64_t la = w ? (1ull << 24) + nw++ : nr++;
		uint64_t done = memmodel_request(&mm, la, w, now);
		assert_true(done >= now);
		if (done > last)
			last = done;
	}
	struct memsys_model_stats s;
	mm.ops->stats(mm.st, &s);
	assert_int_equal(s.reads, nr);
	assert_int_equal(s.writes, nw);
	/* the bus time is the truth for a write-inclusive bandwidth */
	double bw = (double)(nr + nw) * LINE / (double)(s.busy > last ? s.busy : last);
	memmodel_close(&mm);
	return bw;
}

static void test_dram_bank_bound(void **state)
{
	(void)state;
	/* strict open page, every read to bank 0 in a new row: the bank, not the
	 * bus, limits: one line per tRP + tRCD + burst = 30.5 cycles */
	struct memmodel mm = open_model("dram", "dram-rowbufs", "1");
	uint64_t last = 0, n = 1000;
	for (uint64_t i = 0; i < n; i++) {
		/* row i+1 in bank 0: rb = 16 * (i + 1) + f, f = fold of the row bits */
		uint64_t row = i + 1, fold = 0;
		for (uint64_t v = row; v; v >>= 4)
			fold ^= v;
		uint64_t rb = (row << 4) | (fold & 15);
		last = memmodel_request(&mm, rb << 7, 0, 0);
	}
	double per = (double)last / (double)n;
	assert_true(per > 30.0 && per < 31.0);
	struct memsys_model_stats s;
	mm.ops->stats(mm.st, &s);
	assert_int_equal(s.row_conflicts, n - 1);
	memmodel_close(&mm);
	/* scattered reads saturate below sequential ones, even with batching */
	double seq, rnd;
	mm = open_model("dram", NULL, NULL);
	open_loop(&mm, 100000, 0.25, 0, 1, &seq);
	memmodel_close(&mm);
	mm = open_model("dram", NULL, NULL);
	open_loop(&mm, 100000, 0.25, 0, 0, &rnd);
	memmodel_close(&mm);
	print_message("dram saturated reads: sequential %.2f GB/s, scattered %.2f GB/s\n", seq, rnd);
	/* scattered: at most four activates per tFAW (21 cycles) = 12.19 GB/s;
	 * in-order service loses some more to bank collisions */
	assert_true(rnd > 12.19 * 0.6 && rnd < 12.19 * 1.001);
	assert_true(rnd < seq * 0.6);
}

static void test_dram_write_mix_saturates_lower(void **state)
{
	(void)state;
	double r100 = mix_bw(0), r75 = mix_bw(25), r50 = mix_bw(50);
	print_message("dram saturated GB/s: 0%% writes %.2f, 25%% %.2f, 50%% %.2f (peak 25.6)\n", r100, r75, r50);
	assert_true(r100 > 25.6 * 0.97);
	assert_true(r75 < r100 * 0.95);
	assert_true(r50 < r75 * 0.95);
	assert_true(r50 > 25.6 * 0.6); /* batched writes keep it reasonable */
}

static void test_causality_out_of_order(void **state)
{
	(void)state;
	static const char *models[] = { "fixed", "md1", "dram" };
	for (int k = 0; k < 3; k++) {
		struct memmodel mm = open_model(models[k], NULL, NULL);
		uint64_t x = 99;
		for (uint64_t i = 0; i < 50000; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			/* time goes forward but each arrival jitters up to 2000 cycles back */
			uint64_t now = i + 2000 - ((x >> 33) % 2000);
			uint64_t done = memmodel_request(&mm, (x >> 16) & 0xfffff, (int)((x >> 60) & 1), now);
			if (done < now)
				fail_msg("%s: completion %llu < now %llu", models[k], (unsigned long long)done,
				         (unsigned long long)now);
		}
		memmodel_close(&mm);
	}
	/* and through the whole memsys, 4 harts in quanta of 500 cycles */
	struct memsys *m = mk(4, "llc-size=128K", NULL);
	uint64_t tm[4] = { 0 }, x = 7;
	for (int q = 0; q < 200; q++)
		for (unsigned h = 0; h < 4; h++) {
			uint64_t end = (uint64_t)(q + 1) * 500;
			while (tm[h] < end) {
				x = x * 6364136223846793005ull + 1442695040888963407ull;
				uint64_t a = ((x >> 20) % (1u << 22)) * 8;
				uint64_t done = memsys_access(m, h, a, (x >> 62) == 0, tm[h]);
				assert_true(done > tm[h]);
				tm[h] = tm[h] + 1 + (done - tm[h]) / 4; /* some overlap, like MSHRs */
			}
		}
	memsys_free(m);
}

/* ---- a small Mess experiment through the whole hierarchy ------------------------ */

/* Hart 0 chases random lines over 64 MiB; harts 1..6 stream reads (or
 * stores) over private 64 MiB arrays with up to 10 lines in flight each
 * (MSHR-like closed loop) and `pause` cycles between issues.  Returns the
 * chase latency; *gbps = memory traffic (reads + writes) over the run. */
static double mess_point(unsigned pause, int stores, double *gbps)
{
	enum { NH = 7, K = 10 };
	struct memsys *m = mk(NH, NULL);
	uint64_t tm[NH] = { 0 }, inflight[NH][K] = { { 0 } }, pos[NH] = { 0 }, x = 1;
	uint64_t chase_n = 0, end = 400000;
	uint64_t chase_t0 = 0;
	for (;;) {
		/* the hart with the smallest clock goes next (like hostsim's scheduler) */
		unsigned h = 0;
		for (unsigned i = 1; i < NH; i++)
			if (tm[i] < tm[h])
				h = i;
		if (tm[h] >= end)
			break;
		if (h == 0) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			uint64_t a = ((x >> 24) % (1u << 20)) * LINE;
			tm[0] = memsys_access(m, 0, a, 0, tm[0]);
			if (tm[0] >= end / 4) { /* warm-up done */
				if (!chase_t0)
					chase_t0 = tm[0];
				chase_n++;
			}
		} else {
			uint64_t slot = pos[h] % K;
			uint64_t issue = tm[h] > inflight[h][slot] ? tm[h] : inflight[h][slot];
			uint64_t a = (uint64_t)h << 30 | (pos[h]++ % (1u << 20)) * LINE;
			inflight[h][slot] = memsys_access(m, h, a, stores, issue);
			tm[h] = issue + 1 + pause;
		}
	}
	struct memsys_model_stats s;
	memsys_model_stats(m, &s);
	*gbps = (double)(s.reads + s.writes) * LINE / (double)end;
	double lat = (double)(tm[0] - chase_t0) / (double)(chase_n ? chase_n : 1);
	memsys_free(m);
	return lat;
}

static void test_mess_curve(void **state)
{
	(void)state;
	static const unsigned pauses[] = { 0, 20, 50, 100, 400, 100000 };
	for (int st = 0; st <= 1; st++) {
		double prev_lat = 1e9, prev_bw = 1e9, bw;
		for (int k = 0; k < 6; k++) {
			double lat = mess_point(pauses[k], st, &bw);
			print_message("mess %s pause %6u: %6.2f GB/s, chase latency %7.1f cycles\n",
			              st ? "stores" : "reads ", pauses[k], bw, lat);
			assert_true(bw <= 25.6 * 1.001);
			assert_true(lat <= prev_lat * 1.02);  /* less pressure, lower latency */
			assert_true(bw <= prev_bw * 1.02);
			prev_lat = lat;
			prev_bw = bw;
			if (k == 0)
				assert_true(bw > 25.6 * (st ? 0.6 : 0.9));
		}
		/* unloaded: the chase sees the bare latency (row conflicts mostly) */
		assert_true(prev_lat >= 110 && prev_lat <= 118);
	}
}

/* ---- counters ------------------------------------------------------------------- */

static void counters_truth(const char *model)
{
	struct memsys *m;
	struct memsys_cfg c;
	memsys_cfg_default(&c);
	assert_int_equal(memsys_cfg_set(&c, "llc-size", "128K", err, sizeof err), 0);
	assert_int_equal(memsys_cfg_set(&c, "l1d-size", "8K", err, sizeof err), 0);
	assert_int_equal(memsys_cfg_set(&c, "mem-model", model, err, sizeof err), 0);
	m = memsys_new(&c, 4, err, sizeof err);
	assert_non_null(m);
	uint64_t x = 3, t[4] = { 0 };
	for (int i = 0; i < 300000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		unsigned h = (unsigned)(x >> 62);
		/* shared region (coherence) + private streams (capacity) */
		uint64_t a = ((x >> 40) & 7) == 0 ? ((x >> 20) & 0xfff) * 8
		                                 : (1ull << 28) * (h + 1) + ((x >> 16) % (1u << 21)) * 8;
		t[h] = memsys_access(m, h, a, (int)((x >> 30) & 1), t[h]);
	}
	struct memsys_model_stats s;
	memsys_model_stats(m, &s);
	uint64_t r = memsys_mmio_read(m, MEMSYS_MMIO_READS), w = memsys_mmio_read(m, MEMSYS_MMIO_WRITES);
	assert_true(r > 10000 && w > 5000);
	assert_int_equal(r, s.reads);
	assert_int_equal(w, s.writes);
	assert_int_equal(r, ev_sum(m, 4, MEMSYS_EV_LLC_MISS));
	assert_int_equal(w, ev_sum(m, 4, MEMSYS_EV_LLC_WB));
	assert_int_equal(ev_sum(m, 4, MEMSYS_EV_L1D_ACCESS), 300000);
	assert_int_equal(ev_sum(m, 4, MEMSYS_EV_LOAD) + ev_sum(m, 4, MEMSYS_EV_STORE), 300000);
	assert_int_equal(ev_sum(m, 4, MEMSYS_EV_INV_SENT), ev_sum(m, 4, MEMSYS_EV_INV_RECV));
	assert_true(ev_sum(m, 4, MEMSYS_EV_INV_SENT) > 100);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_BUSY), s.busy);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	memsys_stats(m, f);
	fclose(f);
	assert_non_null(strstr(buf, "memctl: reads"));
	free(buf);
	memsys_free(m);
}

static void test_counters_truth(void **state)
{
	(void)state;
	counters_truth("fixed");
	counters_truth("md1");
	counters_truth("dram");
}

/* A demand read the ddr controller cannot take yet comes back held
 * (memsys.h's MEMSYS_HELD): with a read queue of 2, hart 1's third read
 * to one bank at cycle 1000 is held until the first entry frees, and
 * nothing of it is made or counted; asked again a cycle early it is held
 * to the same cycle; issued then, it is made, and the model counts one
 * read that waited (from the first refusal: within a DRAM clock).  A load
 * of a line already filling is not held, with the queue full. */
static void test_ddr_ingress_held(void **state)
{
	(void)state;
	struct memsys *m = mk(2, "mem-model=ddr-resv", "ddr-xor=0", "ddr-rq=2", NULL);
	uint64_t d1 = memsys_access(m, 1, 1u << 17, 0, 1000);
	uint64_t d2 = memsys_access(m, 1, 2u << 17, 0, 1000);
	assert_false(d1 & MEMSYS_HELD);
	assert_false(d2 & MEMSYS_HELD);
	uint64_t h3 = memsys_access(m, 1, 3u << 17, 0, 1000);
	assert_true(h3 & MEMSYS_HELD);
	uint64_t at = h3 & ~MEMSYS_HELD;
	assert_true(at > 1000 && at < d1);
	assert_int_equal(ev(m, 1, MEMSYS_EV_LOAD), 2);
	assert_int_equal(ev(m, 1, MEMSYS_EV_L1D_MISS), 2);
	assert_int_equal(ev(m, 1, MEMSYS_EV_LLC_MISS), 2);
	struct memsys_model_stats s;
	memsys_model_stats(m, &s);
	assert_int_equal(s.reads, 2);
	assert_int_equal(memsys_access(m, 1, 3u << 17, 0, at - 1), h3);
	assert_int_equal(memsys_access(m, 1, 1u << 17, 0, 1001), d1);
	uint64_t d3 = memsys_access(m, 1, 3u << 17, 0, at);
	assert_false(d3 & MEMSYS_HELD);
	assert_true(d3 > d1);
	assert_int_equal(ev(m, 1, MEMSYS_EV_LLC_MISS), 3);
	memsys_model_stats(m, &s);
	assert_int_equal(s.reads, 3);
	assert_int_equal(s.ddr.rq_waits, 1);
	assert_in_range(s.ddr.rq_wait_t, at - 1000 - 1, at - 1000 + 1);
	memsys_free(m);
}

/* The stream prefetcher (pf-dist 4, fixed memory of 100 cycles): a miss
 * on the line after the page's previous miss fetches up to 4 lines ahead
 * into the LLC, issued with the demand's LLC access (t + 34); a demand
 * access to a prefetched line is an LLC hit (waiting for it while in
 * flight); a gap starts nothing; the page's end bounds it; pf-dist 0 is
 * off. */
static uint64_t reads(struct memsys *m) { return memsys_mmio_read(m, MEMSYS_MMIO_READS); }

static void test_prefetch_stream(void **state)
{
	(void)state;
	struct memsys_pf_stats p;
	for (unsigned on = 0; on < 2; on++) {
		struct memsys *m = mk(1, "mem-model=fixed", "mem-latency=100", on ? "pf-dist=4" : "pf-dist=0", NULL);
		uint64_t a = 0x80000000;
		assert_int_equal(memsys_access(m, 0, a, 0, 1000), 1134);
		assert_int_equal(reads(m), 1); /* a first miss in a page: no prefetch */
		assert_int_equal(memsys_access(m, 0, a + LINE, 0, 2000), 2134);
		if (!on) {
			assert_int_equal(reads(m), 2);
			assert_int_equal(memsys_access(m, 0, a + 2 * LINE, 0, 2001), 2135);
			memsys_free(m);
			continue;
		}
		assert_int_equal(reads(m), 6); /* lines 2..5, ready at 2034 + 100 */
		/* line 2 in flight: an LLC hit that waits; it fetches line 6 */
		assert_int_equal(memsys_access(m, 0, a + 2 * LINE, 0, 2001), 2134);
		assert_int_equal(ev(m, 0, MEMSYS_EV_LLC_MISS), 2);
		assert_int_equal(reads(m), 7);
		assert_int_equal(memsys_access(m, 0, a + 3 * LINE, 0, 5000), 5034);
		assert_int_equal(reads(m), 8);
		/* a gap (line 9 after 3): a demand miss, nothing fetched; then
		 * line 10 goes on from there */
		assert_int_equal(memsys_access(m, 0, a + 9 * LINE, 0, 6000), 6134);
		assert_int_equal(reads(m), 9);
		assert_int_equal(memsys_access(m, 0, a + 10 * LINE, 0, 7000), 7134);
		assert_int_equal(reads(m), 14);
		/* lines 62 and 63 of another page: nothing past its end */
		uint64_t b = a + 0x10000 + 62 * LINE;
		memsys_access(m, 0, b, 0, 8000);
		memsys_access(m, 0, b + LINE, 0, 9000);
		assert_int_equal(reads(m), 16);
		assert_int_equal(ev(m, 0, MEMSYS_EV_LLC_MISS), 6);
		memsys_pf_stats(m, &p);
		assert_int_equal(p.reads, 10);
		assert_int_equal(p.used, 2);
		assert_int_equal(p.dropped, 0);
		memsys_free(m);
	}
}

/* A stream's frontier: lines it prefetched are not asked for again, so a
 * prefetched line evicted before its use (a direct-mapped 8-line LLC:
 * line 4's slot taken by another page's line 68) is not fetched again;
 * the next unit stride fetches only the line past the frontier */
static void test_prefetch_frontier(void **state)
{
	(void)state;
	struct memsys *m = mk(1, "mem-model=fixed", "mem-latency=100", "pf-dist=4", "l1d-size=256", "l1d-ways=1",
	                      "llc-size=512", "llc-ways=1", NULL);
	uint64_t a = 0x80000000;
	memsys_access(m, 0, a, 0, 1000);
	memsys_access(m, 0, a + LINE, 0, 2000); /* lines 2..5 */
	assert_int_equal(reads(m), 6);
	memsys_access(m, 0, a + 68 * LINE, 0, 3000); /* evicts line 4 */
	assert_int_equal(reads(m), 7);
	assert_int_equal(memsys_access(m, 0, a + 2 * LINE, 0, 4000), 4034);
	assert_int_equal(reads(m), 8); /* line 6 only */
	memsys_free(m);
}

/* Store misses train the prefetcher with pf-stores=1 only: two stores to
 * lines 0 and 1 of a page fetch lines 2 and 3 with it, nothing without;
 * a load stream is trained either way */
static void test_prefetch_stores(void **state)
{
	(void)state;
	for (unsigned st = 0; st < 2; st++) {
		struct memsys *m = mk(1, "mem-model=fixed", "mem-latency=100", "pf-dist=2", st ? "pf-stores=1" : "pf-stores=0", NULL);
		memsys_access(m, 0, 0x80000000, 1, 1000);
		memsys_access(m, 0, 0x80000000 + LINE, 1, 2000);
		assert_int_equal(reads(m), st ? 4 : 2);
		memsys_access(m, 0, 0x80010000, 0, 3000);
		memsys_access(m, 0, 0x80010000 + LINE, 0, 4000);
		assert_int_equal(reads(m), st ? 8 : 6);
		memsys_free(m);
	}
}

/* Each hart's prefetcher tracks pf-streams pages, the least recently
 * missed replaced: with 2, three interleaved streams lose their state
 * before each next miss, and fetch nothing; with 3 they all prefetch. */
static void test_prefetch_streams_lru(void **state)
{
	(void)state;
	for (unsigned n = 2; n <= 3; n++) {
		char k[32];
		snprintf(k, sizeof k, "pf-streams=%u", n);
		struct memsys *m = mk(1, "mem-model=fixed", "mem-latency=100", "pf-dist=2", k, NULL);
		for (uint64_t i = 0; i < 4; i++)
			for (uint64_t pg = 0; pg < 3; pg++)
				memsys_access(m, 0, 0x80000000 + pg * 4096 + i * LINE, 0, 1000 * (i + 1));
		struct memsys_pf_stats p;
		memsys_pf_stats(m, &p);
		assert_int_equal(p.reads, n == 2 ? 0 : 3 * 4); /* lines 2, 3 then 4 and 5 */
		memsys_free(m);
	}
	/* a page's every miss renews it: with 2, page A missed between new
	 * pages B and C keeps its stream, and B's is the one replaced */
	struct memsys *m = mk(1, "mem-model=fixed", "mem-latency=100", "pf-dist=2", "pf-streams=2", NULL);
	uint64_t A = 0x80000000, B = A + 4096, C = B + 4096;
	memsys_access(m, 0, A, 0, 1000);
	memsys_access(m, 0, B, 0, 2000);
	memsys_access(m, 0, A + LINE, 0, 3000); /* lines 2, 3 */
	memsys_access(m, 0, C, 0, 4000);
	memsys_access(m, 0, A + 2 * LINE, 0, 5000); /* line 4 */
	struct memsys_pf_stats p;
	memsys_pf_stats(m, &p);
	assert_int_equal(p.reads, 3);
	memsys_free(m);
}

/* lines 0 and 1 of a page missed at cycle 1000 (neither held): the
 * memsys, and *d the second one's completion */
static struct memsys *two_misses(const char *queue, uint64_t *d)
{
	struct memsys *m = mk(1, "mem-model=ddr-resv", queue, "pf-dist=2", NULL);
	assert_false(memsys_access(m, 0, 0x80000000, 0, 1000) & MEMSYS_HELD);
	*d = memsys_access(m, 0, 0x80000000 + LINE, 0, 1000);
	assert_false(*d & MEMSYS_HELD);
	return m;
}

/* With ddr, a prefetch the read queue cannot take now is dropped, not
 * held (the core goes on): the queue's two entries taken by two demand
 * reads, the stream's prefetch of line 2 is dropped; it is fetched at the
 * stream's next miss, once entries have freed (test_ddr.c's
 * test_ingress_pf: a dropped prefetch leaves no trace at the ingress).
 * The per-hart share does not count prefetches: with a share of 2 and
 * room in the queue, both of line 1's prefetches go. */
static void test_prefetch_dropped(void **state)
{
	(void)state;
	struct memsys_pf_stats p;
	uint64_t d;
	struct memsys *m = two_misses("ddr-rq=2", &d);
	memsys_pf_stats(m, &p);
	assert_int_equal(p.reads, 0);
	assert_int_equal(p.dropped, 1);
	/* line 2, missed after both reads are done: a demand miss, then line
	 * 3, which takes the queue's second entry, and line 4 is dropped */
	assert_false(memsys_access(m, 0, 0x80000000 + 2 * LINE, 0, d) & MEMSYS_HELD);
	memsys_pf_stats(m, &p);
	assert_int_equal(p.reads, 1);
	assert_int_equal(p.dropped, 2);
	assert_int_equal(reads(m), 4);
	memsys_free(m);
	/* the share (2) taken, the queue not full: both prefetches go */
	m = two_misses("ddr-src-rq=2", &d);
	memsys_pf_stats(m, &p);
	assert_int_equal(p.reads, 2);
	assert_int_equal(p.dropped, 0);
	memsys_free(m);
}

/* The requesting hart reaches the memory model (memmodel.h's src): with
 * ddr --ddr-fair, hart 1 sends n row misses to one bank (rows 1..n, no
 * XOR: 128 KiB apart; the first 4 enter the read queue, the rest are
 * held, as hart 1 would stall on them), then hart 0 one load to another
 * bank.  Hart 0 has no read queued, so it enters at once (a kept entry).
 * Without, it is held until a shared entry frees (its latency counted
 * from its first issue, as the core's would be), later than with; and as
 * hart 1's held reads are not committed, it does not wait for them: its
 * latency does not depend on n either way. */
static uint64_t fair_lone(const char *fair, unsigned n)
{
	struct memsys *m = mk(2, "mem-model=ddr-resv", "ddr-xor=0", "ddr-rq=4", fair, NULL);
	for (unsigned r = 1; r <= n; r++)
		memsys_access(m, 1, (uint64_t)r << 17, 0, 1000);
	uint64_t d, at = 1001;
	while ((d = memsys_access(m, 0, 1u << 15, 0, at)) & MEMSYS_HELD)
		at = d & ~MEMSYS_HELD;
	memsys_free(m);
	return d - 1001;
}

static void test_ddr_fair_source(void **state)
{
	(void)state;
	assert_int_equal(fair_lone("ddr-fair=1", 24), fair_lone("ddr-fair=1", 8));
	assert_int_equal(fair_lone("ddr-fair=0", 24), fair_lone("ddr-fair=0", 8));
	assert_true(fair_lone("ddr-fair=0", 8) > fair_lone("ddr-fair=1", 8));
}

static void test_mmio_ctrl(void **state)
{
	(void)state;
	struct memsys *m = mk(1, "llc-size=64K", NULL);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_MAGIC), MEMSYS_MMIO_MAGIC_VALUE);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_PEAK), 25600);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_FREQ), 1000);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_LINE), 64);
	assert_int_equal(memsys_mmio_read(m, 0x1000), 0);
	uint64_t t = 0;
	for (uint64_t i = 0; i < 100; i++)
		t = memsys_access(m, 0, i * LINE, 0, t);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_READS), 100);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_BUSY), 250); /* 2.5 cycles each */
	memsys_mmio_write(m, MEMSYS_MMIO_CTRL, 1);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_READS), 0);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_BUSY), 0);
	for (uint64_t i = 100; i < 150; i++)
		t = memsys_access(m, 0, i * LINE, 0, t);
	memsys_mmio_write(m, MEMSYS_MMIO_CTRL, 2);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_CTRL), 2);
	for (uint64_t i = 150; i < 170; i++)
		t = memsys_access(m, 0, i * LINE, 0, t);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_READS), 50);
	memsys_mmio_write(m, MEMSYS_MMIO_CTRL, 0);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_READS), 70);
	/* the model itself never stopped counting */
	struct memsys_model_stats s;
	memsys_model_stats(m, &s);
	assert_int_equal(s.reads, 170);
	memsys_free(m);
}

/* CTRL zeroing and freezing of WRITES: a 64 KiB LLC (1024 lines) full of
 * dirty lines writes one back per new line.  3000 stores: READS 3000, WRITES
 * 3000 - 1024 (different bases).  After CTRL=1, 1000 stores: 1000 each; frozen
 * (CTRL=2), 500 more change nothing; thawed (CTRL=0), the live 1500. */
static void test_mmio_freeze_writes(void **state)
{
	(void)state;
	struct memsys *m = mk(1, "llc-size=64K", "mem-model=fixed", NULL);
	uint64_t t = 0, i = 0;
	for (; i < 3000; i++)
		t = memsys_access(m, 0, i * LINE, 1, t);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_READS), 3000);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_WRITES), 3000 - 1024);
	memsys_mmio_write(m, MEMSYS_MMIO_CTRL, 1);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_WRITES), 0);
	for (; i < 4000; i++)
		t = memsys_access(m, 0, i * LINE, 1, t);
	memsys_mmio_write(m, MEMSYS_MMIO_CTRL, 2);
	for (; i < 4500; i++)
		t = memsys_access(m, 0, i * LINE, 1, t);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_READS), 1000);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_WRITES), 1000);
	memsys_mmio_write(m, MEMSYS_MMIO_CTRL, 2); /* freezing again keeps the first values */
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_WRITES), 1000);
	memsys_mmio_write(m, MEMSYS_MMIO_CTRL, 0);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_CTRL), 0);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_READS), 1500);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_WRITES), 1500);
	memsys_free(m);
}

/* md1 BUSY: one 64-byte transfer at 25.6 GB/s and 1 GHz holds the server
 * 2.5 cycles, reads and writes alike; frozen BUSY stays put. */
static void test_mmio_busy_md1(void **state)
{
	(void)state;
	struct memsys *m = mk(1, "llc-size=64K", "mem-model=md1", "peak-gbps=25.6", NULL);
	uint64_t t = 0, i = 0;
	for (; i < 2000; i++)
		t = memsys_access(m, 0, i * LINE, 1, t);
	/* 2000 reads (write-allocate) and 2000 - 1024 write-backs */
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_BUSY), (2000 + 976) * 5 / 2);
	memsys_mmio_write(m, MEMSYS_MMIO_CTRL, 2);
	for (; i < 2100; i++)
		t = memsys_access(m, 0, i * LINE, 1, t);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_BUSY), (2000 + 976) * 5 / 2);
	memsys_mmio_write(m, MEMSYS_MMIO_CTRL, 0);
	assert_int_equal(memsys_mmio_read(m, MEMSYS_MMIO_BUSY), (2100 + 1076) * 5 / 2);
	memsys_free(m);
}

/* ---- the tag-byte search (cache.h, cache_find_tagged) ------------------------ */

/* The slot of the set holding line, by a scan of every way (no hint, no
 * tag byte), or -1. */
static int64_t find_ref(const struct cache *c, uint64_t line)
{
	uint64_t b = (line & c->set_mask) * c->ways;
	for (unsigned w = 0; w < c->ways; w++)
		if (c->slot[b + w].key >> 2 == line && (c->slot[b + w].key & 3))
			return (int64_t)(b + w);
	return -1;
}

/* Lines whose tag bytes are 0, 1 or 2 (many equal bytes in a set, and the
 * SWAR test's false positives: a byte one above a matching one), filled,
 * touched and invalidated at random in 8- and 16-way caches: every search
 * through the tag bytes agrees with a scan of the keys. */
static void test_cache_tag_search(void **state)
{
	(void)state;
	static const unsigned ways[] = { 8, 16 };
	uint64_t rnd = 0x2545f4914f6cdd1dull;
	for (unsigned wi = 0; wi < 2; wi++) {
		struct cache c;
		unsigned nsets = 4;
		assert_int_equal(cache_init(&c, "t", (uint64_t)nsets * ways[wi] * LINE, ways[wi], LINE, err, sizeof err), 0);
		uint64_t pool[4 * 3 * 8];
		unsigned np = 0;
		for (uint64_t set = 0; set < nsets; set++)
			for (uint64_t t = 0; t < 3; t++)
				for (uint64_t u = 0; u < 8; u++)
					pool[np++] = set + nsets * (t + 256 * u);
		for (unsigned step = 0; step < 20000; step++) {
			rnd ^= rnd << 13;
			rnd ^= rnd >> 7;
			rnd ^= rnd << 17;
			uint64_t line = pool[rnd % np];
			int64_t have = find_ref(&c, line);
			assert_int_equal(cache_find_tagged(&c, line), have);
			if (have < 0) {
				uint64_t v = cache_victim(&c, line);
				cache_fill_tagged(&c, v, line, 1 + (unsigned)(rnd >> 40) % 3);
				cache_touch(&c, v);
			} else if ((rnd >> 32) % 4 == 0) {
				cache_set_state(&c, (uint64_t)have, 0);
			} else {
				cache_touch(&c, (uint64_t)have);
			}
			/* every line of the pool, present or not, hint or not */
			for (unsigned i = 0; i < np; i += 7)
				assert_int_equal(cache_find_tagged(&c, pool[i]), find_ref(&c, pool[i]));
		}
		cache_fini(&c);
	}
}

/* The victim (cache_victim: the first invalid way, else the least recently
 * used) against a reference kept here: each way's last use (0: invalid),
 * over random fills, touches and invalidations of one set, for 8, 16 and
 * two way counts the code does not unroll (3, 12); the same from
 * cache_lru_scalar (the search without SSE4.1; this file is built with it
 * where the host has it).  The clock jumps ahead now and then (a legal
 * move: later uses stay larger) and the ages are renumbered whenever it
 * has passed CACHE_AGE_LIMIT, as memsys does, and at random. */
static void test_cache_lru_victim(void **state)
{
	(void)state;
	static const unsigned ways[] = { 3, 8, 12, 16 };
	uint64_t rnd = 0x9e3779b97f4a7c15ull;
	unsigned renumbered = 0;
	for (unsigned wi = 0; wi < 4; wi++) {
		const unsigned n = ways[wi];
		struct cache c;
		assert_int_equal(cache_init(&c, "t", 2ull * n * LINE, n, LINE, err, sizeof err), 0);
		uint64_t use[16] = { 0 }, now = 0; /* set 0's ways */
		for (unsigned step = 0; step < 20000; step++) {
			rnd ^= rnd << 13;
			rnd ^= rnd >> 7;
			rnd ^= rnd << 17;
			unsigned ref = 0;
			for (unsigned w = 1; w < n; w++)
				if (use[w] < use[ref])
					ref = w;
			uint64_t line = 2 * (rnd >> 20 & 0xffff); /* set 0 */
			assert_int_equal(cache_victim(&c, line), ref);
			assert_int_equal(cache_lru_scalar(c.age, n), ref);
			unsigned w = (unsigned)(rnd % n), op = (unsigned)(rnd >> 8) % 8;
			if (op < 3) { /* a miss fills the victim */
				cache_fill(&c, ref, line, 1);
				cache_touch(&c, ref);
				use[ref] = ++now;
			} else if (op < 7 && use[w]) { /* a hit */
				cache_touch(&c, w);
				use[w] = ++now;
			} else if (use[w]) { /* an invalidation */
				cache_set_state(&c, w, 0);
				use[w] = 0;
			}
			if (step % 1000 == 999)
				c.clock += CACHE_AGE_LIMIT / 3;
			if (cache_aged(&c) || (rnd >> 40) % 500 == 0) {
				cache_renumber(&c);
				renumbered++;
				assert_false(cache_aged(&c));
				for (unsigned v = 0; v < 2 * n; v++) /* both sets */
					assert_true(c.age[v] <= c.clock);
			}
		}
		cache_fini(&c);
	}
	assert_true(renumbered > 100);
}

/* memsys renumbers the LRU ages of the L1s and of the LLC once their
 * clocks have passed lru-age-limit (memsys_check_ages): two memsys given
 * the same random accesses of two harts (over more lines than the LLC
 * holds, so that victims matter), one with lru-age-limit=64 and checked
 * every 1000 accesses, return the same times and count the same events;
 * --stats' line says how often each cache was renumbered. */
static void test_lru_renumber_same(void **state)
{
	(void)state;
	struct memsys *a = mk(2, "llc-size=64K", "mem-model=fixed", NULL);
	struct memsys *b = mk(2, "llc-size=64K", "mem-model=fixed", "lru-age-limit=64", NULL);
	uint64_t rnd = 0x1234567887654321ull, t[2] = { 0, 0 };
	for (unsigned i = 0; i < 200000; i++) {
		rnd ^= rnd << 13;
		rnd ^= rnd >> 7;
		rnd ^= rnd << 17;
		unsigned h = (unsigned)(rnd & 1), w = (rnd >> 1) % 4 == 0;
		/* 4096 lines, half of them in a hot eighth */
		uint64_t line = (rnd >> 8) % 2 ? (rnd >> 20) % 512 : (rnd >> 20) % 4096;
		uint64_t da = memsys_access(a, h, 0x80000000 + line * LINE, (int)w, t[h]);
		uint64_t db = memsys_access(b, h, 0x80000000 + line * LINE, (int)w, t[h]);
		assert_int_equal(da, db);
		t[h] = da;
		if (i % 1000 == 999) {
			memsys_check_ages(a);
			memsys_check_ages(b);
		}
	}
	for (unsigned h = 0; h < 2; h++)
		for (unsigned e = 1; e < MEMSYS_EV_COUNT; e++)
			assert_int_equal(ev(a, h, e), ev(b, h, e));
	assert_true(ev(a, 0, MEMSYS_EV_LLC_MISS) > 10000 && ev(a, 1, MEMSYS_EV_BACK_INV) > 1000);
	char buf[4096];
	unsigned long long n1 = 0, n2 = 0;
	for (unsigned k = 0; k < 2; k++) {
		FILE *f = fmemopen(buf, sizeof buf, "w");
		assert_non_null(f);
		memsys_stats(k ? b : a, f);
		fclose(f);
		const char *l = strstr(buf, "lru: ");
		if (!k)
			assert_null(l); /* never at the default limit */
		else
			assert_int_equal(sscanf(l, "lru: ages renumbered past lru-age-limit 64: L1s %llu times, LLC %llu times",
			                        &n1, &n2), 2);
	}
	assert_true(n1 >= 300 && n2 >= 150); /* both L1s, the LLC: every check */
	memsys_free(a);
	memsys_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cfg_defaults),
		cmocka_unit_test(test_cfg_set_ok),
		cmocka_unit_test(test_model_keys),
		cmocka_unit_test(test_cfg_refusals),
		cmocka_unit_test(test_cfg_check_refusals),
		cmocka_unit_test(test_hit_miss_latency_fixed),
		cmocka_unit_test(test_store_miss_and_exclusive),
		cmocka_unit_test(test_inflight_line_waits),
		cmocka_unit_test(test_l1_miss_llc_hit),
		cmocka_unit_test(test_back_invalidated_slot_refilled),
		cmocka_unit_test(test_capacity_sweep),
		cmocka_unit_test(test_latency_by_level),
		cmocka_unit_test(test_lru_order),
		cmocka_unit_test(test_lru_renumber_same),
		cmocka_unit_test(test_cache_lru_victim),
		cmocka_unit_test(test_writeback_counts),
		cmocka_unit_test(test_clean_writeback),
		cmocka_unit_test(test_store_stream_half_writes),
		cmocka_unit_test(test_coherence_invalidate),
		cmocka_unit_test(test_coherence_read_shared),
		cmocka_unit_test(test_coherence_pingpong_dirty_writeback),
		cmocka_unit_test(test_intervention_keeps_dirty),
		cmocka_unit_test(test_silent_upgrade_is_modified),
		cmocka_unit_test(test_inclusive_back_invalidation),
		cmocka_unit_test(test_md1_load_latency),
		cmocka_unit_test(test_dram_row_states),
		cmocka_unit_test(test_dram_saturated_read_bw),
		cmocka_unit_test(test_dram_bank_bound),
		cmocka_unit_test(test_dram_write_mix_saturates_lower),
		cmocka_unit_test(test_causality_out_of_order),
		cmocka_unit_test(test_mess_curve),
		cmocka_unit_test(test_counters_truth),
		cmocka_unit_test(test_ddr_ingress_held),
		cmocka_unit_test(test_ddr_fair_source),
		cmocka_unit_test(test_prefetch_stream),
		cmocka_unit_test(test_prefetch_streams_lru),
		cmocka_unit_test(test_prefetch_stores),
		cmocka_unit_test(test_prefetch_frontier),
		cmocka_unit_test(test_prefetch_dropped),
		cmocka_unit_test(test_mmio_ctrl),
		cmocka_unit_test(test_mmio_freeze_writes),
		cmocka_unit_test(test_mmio_busy_md1),
		cmocka_unit_test(test_cache_tag_search),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
