/*
 * Unit tests: the ddr memory model (sim/memmodel_ddr.c).
 *
 * Every expected latency is derived by hand from the timings set in base()
 * below: a 1 GHz core and 2000 MT/s, so one DRAM clock (nCK) is one core
 * cycle and a burst of 8 beats is 4 cycles; the frontend adds 20 cycles.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "sim/memmodel.h"
#include "sim/memsys.h"

static char err[256];

enum { CL = 10, CWL = 8, RCD = 12, RP = 14, RAS = 30, RC = 44, RRD_S = 4, RRD_L = 6, CCD_S = 4, CCD_L = 6,
       FAW = 20, WTR_S = 3, WTR_L = 7, RTP = 5, WR = 15, RTW = 2, RFC = 100, REFI = 10000, BURST = 4,
       FRONT = 20 };

static void set(struct memsys_cfg *c, const char *k, const char *v)
{
	if (memsys_cfg_set(c, k, v, err, sizeof err))
		fail_msg("%s=%s: %s", k, v, err);
}

/* One channel, one rank, one bank group of one bank, row of 128 lines,
 * open page, no XOR; then "key", "value" pairs (NULL-terminated). */
static struct memmodel mk(const char *k, ...)
{
	struct memsys_cfg c;
	char v[32];
	memsys_cfg_default(&c);
	set(&c, "mem-model", "ddr");
	set(&c, "ddr-mts", "2000");
	set(&c, "ddr-bankgroups", "1");
	set(&c, "ddr-banks", "1");
	set(&c, "ddr-row", "8192");
	set(&c, "ddr-xor", "0");
	set(&c, "ddr-map", "co:ch:bg:ba:ra");
	static const struct { const char *k; int v; } t[] = {
		{ "ddr-tcl", CL }, { "ddr-tcwl", CWL }, { "ddr-trcd", RCD }, { "ddr-trp", RP }, { "ddr-tras", RAS },
		{ "ddr-trc", RC }, { "ddr-trrd-s", RRD_S }, { "ddr-trrd-l", RRD_L }, { "ddr-tccd-s", CCD_S },
		{ "ddr-tccd-l", CCD_L }, { "ddr-tfaw", FAW }, { "ddr-twtr-s", WTR_S }, { "ddr-twtr-l", WTR_L },
		{ "ddr-trtp", RTP }, { "ddr-twr", WR }, { "ddr-trtw", RTW }, { "ddr-trfc", RFC },
		{ "ddr-trefi", REFI }, { "ddr-frontend", FRONT },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		snprintf(v, sizeof v, "%d", t[i].v);
		set(&c, t[i].k, v);
	}
	va_list ap;
	va_start(ap, k);
	for (; k; k = va_arg(ap, const char *))
		set(&c, k, va_arg(ap, const char *));
	va_end(ap);
	assert_int_equal(memsys_cfg_check(&c, err, sizeof err), 0);
	struct memmodel mm;
	if (memmodel_open(&mm, &c, err, sizeof err))
		fail_msg("%s", err);
	return mm;
}

static uint64_t rd(struct memmodel *mm, uint64_t line, uint64_t t) { return memmodel_request(mm, line, 0, t) - t; }

static struct memsys_model_stats stats(struct memmodel *mm)
{
	struct memsys_model_stats s;
	mm->ops->stats(mm->st, &s);
	return s;
}

/* closed page: every read activates; an idle read costs tRCD + tCL + burst */
static void test_closed_page_read(void **state)
{
	(void)state;
	struct memmodel mm = mk("ddr-page", "closed", NULL);
	assert_int_equal(rd(&mm, 0, 1000), RCD + CL + BURST + FRONT);
	/* same row again, later: closed by auto-precharge, so no hit */
	assert_int_equal(rd(&mm, 1, 2000), RCD + CL + BURST + FRONT);
	struct memsys_model_stats s = stats(&mm);
	assert_int_equal(s.row_misses, 2);
	assert_int_equal(s.row_hits, 0);
	memmodel_close(&mm);
}

/* closed page: a drained write keeps its row open for the queued writes
 * to the same row; the last one precharges (after tWR) */
static void test_closed_page_write_batch(void **state)
{
	(void)state;
	struct memmodel mm = mk("ddr-page", "closed", "ddr-wq", "2", "ddr-wq-hi", "2", "ddr-wq-lo", "0", NULL);
	memmodel_request(&mm, 0, 1, 1000);
	memmodel_request(&mm, 1, 1, 1000); /* drains both: ACT 1000, WR 1012, WR 1018 */
	struct memsys_model_stats s = stats(&mm);
	assert_int_equal(s.row_misses, 1);
	assert_int_equal(s.row_hits, 1);
	/* second write's data: 1020 + tCCD_L = 1026..1030; PRE at 1030 + tWR,
	 * ACT tRP later, data tRCD + tCL after that */
	uint64_t wend = 1000 + RCD + CWL + CCD_L + BURST;
	assert_int_equal(memmodel_request(&mm, 2, 0, 1001), wend + WR + RP + RCD + CL + BURST + FRONT);
	memmodel_close(&mm);
}

/* open page: empty, hit, conflict */
static void test_open_page_hit_conflict(void **state)
{
	(void)state;
	struct memmodel mm = mk(NULL);
	assert_int_equal(rd(&mm, 0, 1000), RCD + CL + BURST + FRONT);         /* empty */
	assert_int_equal(rd(&mm, 1, 2000), CL + BURST + FRONT);               /* hit */
	assert_int_equal(rd(&mm, 128, 3000), RP + RCD + CL + BURST + FRONT);  /* other row */
	struct memsys_model_stats s = stats(&mm);
	assert_int_equal(s.row_misses, 1);
	assert_int_equal(s.row_hits, 1);
	assert_int_equal(s.row_conflicts, 1);
	memmodel_close(&mm);
}

/* a conflict right behind an activate waits for tRAS + tRP = tRC */
static void test_conflict_waits_trc(void **state)
{
	(void)state;
	struct memmodel mm = mk(NULL);
	rd(&mm, 0, 1000); /* ACT 1000, RD 1012 */
	/* PRE at max(ACT + tRAS, RD + tRTP) = 1030, ACT at 1030 + tRP = 1044
	 * (= ACT + tRC), RD 1056, data 1066..1070 */
	assert_int_equal(memmodel_request(&mm, 128, 0, 1001), 1000 + RC + RCD + CL + BURST + FRONT);
	memmodel_close(&mm);
	/* tRC alone: ACT + 60 */
	mm = mk("ddr-trc", "60", NULL);
	rd(&mm, 0, 1000);
	assert_int_equal(memmodel_request(&mm, 128, 0, 1001), 1000 + 60 + RCD + CL + BURST + FRONT);
	memmodel_close(&mm);
	/* tRAS alone (tRC short): PRE at ACT + tRAS, ACT tRP later */
	mm = mk("ddr-trc", "10", NULL);
	rd(&mm, 0, 1000);
	assert_int_equal(memmodel_request(&mm, 128, 0, 1001), 1000 + RAS + RP + RCD + CL + BURST + FRONT);
	memmodel_close(&mm);
}

/* read -> write -> read on the bus: tRTW idle, then tWTR_L + tCL */
static void test_write_after_read(void **state)
{
	(void)state;
	struct memmodel mm = mk("ddr-wq", "1", "ddr-wq-hi", "1", "ddr-wq-lo", "0", NULL);
	rd(&mm, 0, 1000);                    /* ACT 1000, RD 1012, data 1022..1026 */
	memmodel_request(&mm, 1, 1, 1000);   /* write data 1026 + tRTW = 1028..1032 */
	/* read: RD >= 1032 + tWTR_L, data 1049..1053 */
	assert_int_equal(memmodel_request(&mm, 2, 0, 1000),
	                 1000 + RCD + CL + BURST + RTW + BURST + WTR_L + CL + BURST + FRONT);
	memmodel_close(&mm);
}

/* refresh: rank blocked [tREFI, tREFI + tRFC); it closes the open row */
static void test_refresh(void **state)
{
	(void)state;
	struct memmodel mm = mk(NULL);
	/* a read inside the window waits for its end, then activates */
	assert_int_equal(rd(&mm, 0, REFI + 50), (RFC - 50) + RCD + CL + BURST + FRONT);
	assert_int_equal(stats(&mm).ddr.ref_stalls, 1);
	memmodel_close(&mm);

	mm = mk(NULL);
	rd(&mm, 0, REFI - 1000);                                   /* opens row 0 */
	assert_int_equal(rd(&mm, 1, REFI + RFC + 100), RCD + CL + BURST + FRONT); /* closed by it */
	assert_int_equal(stats(&mm).row_misses, 2);
	/* the next refresh is tREFI later */
	assert_int_equal(rd(&mm, 2, 2 * REFI + 10), (RFC - 10) + RCD + CL + BURST + FRONT);
	memmodel_close(&mm);

	/* two ranks refresh half a tREFI apart: rank 1 (line 128, the bit above
	 * the column) from tREFI/2 + tREFI, not at rank 0's tREFI */
	mm = mk("ddr-ranks", "2", NULL);
	assert_int_equal(rd(&mm, 128, REFI + 50), RCD + CL + BURST + FRONT);
	assert_int_equal(rd(&mm, 128 + 1, REFI / 2 + REFI + 50), (RFC - 50) + RCD + CL + BURST + FRONT);
	assert_int_equal(stats(&mm).ddr.ref_stalls, 1);
	memmodel_close(&mm);
}

/* a read after a write to the same bank group: RD waits for the end of the
 * write data + tWTR_L */
static void test_read_after_write(void **state)
{
	(void)state;
	/* a one-entry write queue drained at once */
	struct memmodel mm = mk("ddr-wq", "1", "ddr-wq-hi", "1", "ddr-wq-lo", "0", NULL);
	/* write: ACT 1000, WR 1012, data 1020..1024; accepted at once */
	assert_int_equal(memmodel_request(&mm, 0, 1, 1000), 1001);
	/* read, same row: RD >= 1024 + tWTR_L = 1031, data 1041..1045 */
	assert_int_equal(memmodel_request(&mm, 1, 0, 1001), 1000 + RCD + CWL + BURST + WTR_L + CL + BURST + FRONT);
	struct memsys_model_stats s = stats(&mm);
	assert_int_equal(s.writes, 1);
	assert_int_equal(s.row_misses, 1); /* the write activated the row */
	assert_int_equal(s.row_hits, 1);
	memmodel_close(&mm);
}

/* a read of a line still waiting in the write queue is served from it */
static void test_read_from_write_queue(void **state)
{
	(void)state;
	struct memmodel mm = mk(NULL);
	memmodel_request(&mm, 5, 1, 1000);
	assert_int_equal(rd(&mm, 5, 1010), FRONT + 1);
	assert_int_equal(stats(&mm).ddr.fwd, 1);
	memmodel_close(&mm);
}

/* back-pressure: a read waits for a read-queue slot, a write for a
 * write-queue slot; a slot frees when its column command issues */
static void test_queue_backpressure(void **state)
{
	(void)state;
	/* two bank groups, the bank group is the lowest field */
	struct memmodel mm = mk("ddr-bankgroups", "2", "ddr-map", "bg:co:ch:ba:ra", "ddr-rq", "2", NULL);
	rd(&mm, 0, 1000); /* bg 0: ACT 1000, RD 1012, data 1022..1026 */
	/* bg 1: ACT 1000 + tRRD_S, RD 1016, data max(1026, 1022 + tCCD_S) */
	assert_int_equal(rd(&mm, 1, 1000), 1026 + BURST + FRONT - 1000);
	memmodel_close(&mm);

	mm = mk("ddr-bankgroups", "2", "ddr-map", "bg:co:ch:ba:ra", "ddr-rq", "1", NULL);
	rd(&mm, 0, 1000);
	/* enters at 1012 (first RD issued): ACT 1012, RD 1024, data 1034 */
	assert_int_equal(rd(&mm, 1, 1000), 1012 + RCD + CL + BURST + FRONT - 1000);
	struct memsys_model_stats s = stats(&mm);
	assert_int_equal(s.ddr.rq_waits, 1);
	assert_int_equal(s.ddr.rq_wait_t, 12);
	memmodel_close(&mm);

	mm = mk("ddr-wq", "1", "ddr-wq-hi", "1", "ddr-wq-lo", "0", NULL);
	assert_int_equal(memmodel_request(&mm, 0, 1, 1000), 1001);      /* WR at 1012 */
	assert_int_equal(memmodel_request(&mm, 1, 1, 1000), 1012 + 1);  /* waits for it */
	assert_int_equal(stats(&mm).ddr.wq_waits, 1);
	memmodel_close(&mm);
}

/* Offer n sequential reads, one per cycle; the data bus's busy share of the
 * time from the first to the last data. */
static double stream_util(struct memmodel *mm, unsigned n)
{
	uint64_t first = UINT64_MAX, last = 0;
	for (unsigned i = 0; i < n; i++) {
		uint64_t done = memmodel_request(mm, i, 0, 1000 + i);
		if (done - FRONT - BURST < first)
			first = done - FRONT - BURST;
		if (done - FRONT > last)
			last = done - FRONT;
	}
	return (double)n * BURST / (double)(last - first);
}

static void test_stream_bus_utilisation(void **state)
{
	(void)state;
	/* four bank groups taking turns: one burst per max(burst, tCCD_S) = 4
	 * cycles is the bus limit.  Losses: refresh blocks 100 of every
	 * 10000 cycles (1 %), and each refresh and each row change (all four
	 * banks every 512 lines = 2048 bus cycles) costs at most one exposed
	 * PRE + ACT + RD, tRP + tRCD + tCL = 36 cycles (1.8 %).  So the
	 * utilisation lies in [1 - 0.01 - 0.018 - 0.004, 0.99]. */
	struct memmodel mm = mk("ddr-bankgroups", "4", "ddr-map", "bg:co:ch:ba:ra", "ddr-rq", "64", NULL);
	double u = stream_util(&mm, 40000);
	print_message("stream over 4 bank groups: bus utilisation %.4f\n", u);
	assert_true(u >= 0.968 && u <= 0.99);
	memmodel_close(&mm);
	/* one bank: tCCD_L between its bursts, and a row change every 128
	 * lines exposes RD -> PRE -> ACT -> RD = tRTP + tRP + tRCD: a row's 128
	 * bursts (512 busy cycles) take 127 tCCD_L + 31 = 793 cycles; refresh
	 * takes up to 1.5 % more (tRFC and a re-activation per tREFI). */
	mm = mk("ddr-rq", "64", NULL);
	u = stream_util(&mm, 40000);
	double row = 128.0 * BURST / (127 * CCD_L + RTP + RP + RCD);
	print_message("stream in one bank group: bus utilisation %.4f (bound %.4f)\n", u, row);
	assert_true(u <= row && u >= row * (1 - 0.015));
	memmodel_close(&mm);
	/* two banks of one bank group taking turns: tCCD_L still spaces the
	 * bursts (4 / 6 at most); row changes overlap with the other bank */
	mm = mk("ddr-banks", "2", "ddr-map", "ba:co:ch:bg:ra", "ddr-rq", "64", NULL);
	u = stream_util(&mm, 40000);
	print_message("stream over two banks of one bank group: bus utilisation %.4f\n", u);
	assert_true(u <= (double)BURST / CCD_L && u >= (double)BURST / CCD_L * (1 - 0.015 - 0.02));
	memmodel_close(&mm);
}

/* the address map, DDR4-3200 geometry (4 bank groups x 4 banks, 8 KiB row
 * = 128 lines): default map co2:bg:co:ch:ba:ra (line-address bits 0-1
 * column, 2-3 bank group, 4-8 column, 9-10 bank, row from bit 11) */
/* four activates in any tFAW: with four bank groups of two banks, five row
 * misses at once activate tRRD_S apart (1000, 1004, 1008, 1012); the fifth
 * (bank group 0 again, its other bank: tRRD_L from 1000 is no bound) would
 * go at 1016, but the window from the first holds it to 1000 + tFAW */
static void test_faw(void **state)
{
	(void)state;
	struct memmodel mm = mk("ddr-bankgroups", "4", "ddr-banks", "2", NULL);
	for (uint64_t k = 0; k < 4; k++) /* lines 128 apart: the next bank group */
		assert_int_equal(memmodel_request(&mm, 128 * k, 0, 1000), 1000 + 4 * k + RCD + CL + BURST + FRONT);
	assert_int_equal(memmodel_request(&mm, 512, 0, 1000), 1000 + FAW + RCD + CL + BURST + FRONT);
	assert_int_equal(stats(&mm).row_misses, 5);
	memmodel_close(&mm);
}

static void test_mapping(void **state)
{
	(void)state;
	struct memsys_cfg c;
	memsys_cfg_default(&c);
	set(&c, "mem-model", "ddr");
	set(&c, "ddr-xor", "0");
	struct memmodel mm;
	assert_int_equal(memmodel_open(&mm, &c, err, sizeof err), 0);
	unsigned ch, ra, bg, ba;
	uint64_t row, la = 3 | 2 << 2 | 5 << 4 | 1 << 9 | 7ull << 11;
	memmodel_ddr_map(mm.st, la, &ch, &ra, &bg, &ba, &row);
	assert_int_equal(bg, 2);
	assert_int_equal(ba, 1);
	assert_int_equal(row, 7);
	assert_int_equal(ch, 0);
	memmodel_close(&mm);
	/* XOR: bank group ^= fold bits 0-1, bank ^= fold bits 2-3 ... */
	set(&c, "ddr-xor", "1");
	assert_int_equal(memmodel_open(&mm, &c, err, sizeof err), 0);
	memmodel_ddr_map(mm.st, la, &ch, &ra, &bg, &ba, &row);
	assert_int_equal(bg, 2 ^ 3);
	assert_int_equal(ba, 1 ^ 1);
	/* ... of the whole row folded into 4 bits: row 0x10 -> 0x1 (a line
	 * 2 MiB away, as an LLC victim, must not share the bank) */
	memmodel_ddr_map(mm.st, (la & 2047) | 0x10ull << 11, &ch, &ra, &bg, &ba, &row);
	assert_int_equal(row, 0x10);
	assert_int_equal(bg, 2 ^ 1);
	assert_int_equal(ba, 1);
	memmodel_close(&mm);
	/* two channels interleaved by line, two ranks above the bank */
	set(&c, "ddr-xor", "0");
	set(&c, "ddr-channels", "2");
	set(&c, "ddr-ranks", "2");
	set(&c, "ddr-map", "ch:co2:bg:co:ba:ra");
	assert_int_equal(memmodel_open(&mm, &c, err, sizeof err), 0);
	la = 1 | 2 << 3 | 3ull << 10 | 1ull << 12 | 9ull << 13;
	memmodel_ddr_map(mm.st, la, &ch, &ra, &bg, &ba, &row);
	assert_int_equal(ch, 1);
	assert_int_equal(bg, 2);
	assert_int_equal(ba, 3);
	assert_int_equal(ra, 1);
	assert_int_equal(row, 9);
	assert_int_equal(mm.ops->peak_mbps(mm.st), 2 * 3200 * 8);
	memmodel_close(&mm);
}

static void refuse(const char *k, const char *v, const char *want)
{
	struct memsys_cfg c;
	memsys_cfg_default(&c);
	set(&c, "mem-model", "ddr");
	if (memsys_cfg_set(&c, k, v, err, sizeof err) == 0 && memsys_cfg_check(&c, err, sizeof err) == 0)
		fail_msg("%s=%s accepted", k, v);
	if (!strstr(err, want))
		fail_msg("%s=%s: '%s' lacks '%s'", k, v, err, want);
}

static void test_config(void **state)
{
	(void)state;
	refuse("ddr-preset", "DDR3-1600", "unknown ddr-preset");
	refuse("ddr-page", "half", "open or closed");
	refuse("ddr-map", "co:bg", "ba has"); /* (ch and ra have no bits here) */
	refuse("ddr-map", "co2:co2:co:xx:ba:ra:ch:bg", "pieces");
	refuse("ddr-map", "co9:bg:co:ch:ba:ra", "pieces"); /* 9 > 7 column bits */
	refuse("ddr-wq-hi", "100", "ddr-wq-lo");
	refuse("ddr-wq-lo", "48", "ddr-wq-lo"); /* = the default ddr-wq-hi: no room between */
	refuse("ddr-bl", "4", "one burst");
	refuse("ddr-trfc", "20000", "ddr-trefi");
	/* presets: DDR5-4800 moves a line in 16 beats of 4 bytes */
	struct memsys_cfg c;
	memsys_cfg_default(&c);
	set(&c, "mem-model", "ddr");
	set(&c, "ddr-preset", "DDR5-4800");
	struct memmodel mm;
	assert_int_equal(memmodel_open(&mm, &c, err, sizeof err), 0);
	assert_int_equal(mm.ops->peak_mbps(mm.st), 4800 * 4);
	memmodel_close(&mm);
	/* "dram" is the simple model's other name */
	assert_ptr_equal(memmodel_find("dram"), memmodel_find("simple-dram"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_closed_page_read),
		cmocka_unit_test(test_closed_page_write_batch),
		cmocka_unit_test(test_open_page_hit_conflict),
		cmocka_unit_test(test_conflict_waits_trc),
		cmocka_unit_test(test_refresh),
		cmocka_unit_test(test_read_after_write),
		cmocka_unit_test(test_write_after_read),
		cmocka_unit_test(test_read_from_write_queue),
		cmocka_unit_test(test_queue_backpressure),
		cmocka_unit_test(test_stream_bus_utilisation),
		cmocka_unit_test(test_faw),
		cmocka_unit_test(test_mapping),
		cmocka_unit_test(test_config),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
