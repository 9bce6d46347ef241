/*
 * Unit tests: the ddr memory model (sim/memmodel_ddr_resv.c).
 *
 * Every expected latency is derived by hand from the timings set in mk()
 * below: a 1 GHz core and 2000 MT/s, so one DRAM clock (nCK) is one core
 * cycle and a burst of 8 beats is 4 cycles; the frontend adds 20 cycles.
 * The data bus is slotted: a burst starts at a multiple of the burst
 * length (up() below), its column command CL (CWL) before; an activate
 * goes as late as the burst's slot allows (tRCD before the column command)
 * when every rule holds there.
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
	set(&c, "mem-model", "ddr-resv");
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
		{ "ddr-trefi", REFI }, { "ddr-frontend", FRONT }, { "ddr-src-rq", 0 },
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

/* the slot of a burst that could start at t: the next multiple of BURST */
static uint64_t mx(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint64_t up(uint64_t t) { return (t + BURST - 1) / BURST * BURST; }

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
	assert_int_equal(rd(&mm, 0, 1000), up(1000 + RCD + CL) - 1000 + BURST + FRONT);
	/* same row again, later: closed by auto-precharge, so no hit */
	assert_int_equal(rd(&mm, 1, 2000), up(2000 + RCD + CL) - 2000 + BURST + FRONT);
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
	/* second write's data: 1020 + tCCD_L = 1026, slot 1028..1032; PRE at
	 * 1032 + tWR, ACT tRP later, data tRCD + tCL after that */
	uint64_t wend = up(1000 + RCD + CWL + CCD_L) + BURST;
	assert_int_equal(memmodel_request(&mm, 2, 0, 1001), up(wend + WR + RP + RCD + CL) + BURST + FRONT);
	memmodel_close(&mm);
}

/* open page: empty, hit, conflict */
static void test_open_page_hit_conflict(void **state)
{
	(void)state;
	struct memmodel mm = mk(NULL);
	assert_int_equal(rd(&mm, 0, 1000), up(1000 + RCD + CL) - 1000 + BURST + FRONT);         /* empty */
	assert_int_equal(rd(&mm, 1, 2000), up(2000 + CL) - 2000 + BURST + FRONT);               /* hit */
	assert_int_equal(rd(&mm, 128, 3000), up(3000 + RP + RCD + CL) - 3000 + BURST + FRONT);  /* other row */
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
	/* data slot 1024, RD 1014, ACT as late as that allows: 1002 */
	uint64_t a1 = up(1000 + RCD + CL) - CL - RCD;
	rd(&mm, 0, 1000);
	/* PRE at max(ACT + tRAS, RD + tRTP) = 1032, ACT at 1032 + tRP = 1046
	 * (= ACT + tRC), RD 1058, data 1068..1072 */
	assert_int_equal(memmodel_request(&mm, 128, 0, 1001), up(a1 + RC + RCD + CL) + BURST + FRONT);
	memmodel_close(&mm);
	/* tRC alone: ACT + 60 */
	mm = mk("ddr-trc", "60", NULL);
	rd(&mm, 0, 1000);
	assert_int_equal(memmodel_request(&mm, 128, 0, 1001), up(a1 + 60 + RCD + CL) + BURST + FRONT);
	memmodel_close(&mm);
	/* tRAS alone (tRC short): PRE at ACT + tRAS, ACT tRP later */
	mm = mk("ddr-trc", "10", NULL);
	rd(&mm, 0, 1000);
	assert_int_equal(memmodel_request(&mm, 128, 0, 1001), up(a1 + RAS + RP + RCD + CL) + BURST + FRONT);
	memmodel_close(&mm);
}

/* read -> write -> read on the bus: tRTW idle, then tWTR_L + tCL */
static void test_write_after_read(void **state)
{
	(void)state;
	struct memmodel mm = mk("ddr-wq", "1", "ddr-wq-hi", "1", "ddr-wq-lo", "0", NULL);
	rd(&mm, 0, 1000);                    /* data 1024..1028 */
	memmodel_request(&mm, 1, 1, 1000);   /* write data >= 1028 + tRTW: slot 1032..1036 */
	/* read: RD >= 1036 + tWTR_L, data >= 1053: slot 1056..1060 (the
	 * free slot 1028 is too close to both neighbours) */
	uint64_t wr = up(up(1000 + RCD + CL) + BURST + RTW);
	assert_int_equal(memmodel_request(&mm, 2, 0, 1000), up(wr + BURST + WTR_L + CL) + BURST + FRONT);
	memmodel_close(&mm);
}

/* refresh: rank blocked [tREFI, tREFI + tRFC); it closes the open row */
static void test_refresh(void **state)
{
	(void)state;
	struct memmodel mm = mk(NULL);
	/* a read inside the window waits for its end, then activates */
	assert_int_equal(rd(&mm, 0, REFI + 50), up(REFI + RFC + RCD + CL) - (REFI + 50) + BURST + FRONT);
	assert_int_equal(stats(&mm).ddr.ref_stalls, 1);
	memmodel_close(&mm);

	mm = mk(NULL);
	rd(&mm, 0, REFI - 1000);                                   /* opens row 0 */
	assert_int_equal(rd(&mm, 1, REFI + RFC + 100), up(REFI + RFC + 100 + RCD + CL) - (REFI + RFC + 100) + BURST + FRONT); /* closed by it */
	assert_int_equal(stats(&mm).row_misses, 2);
	/* the next refresh is tREFI later */
	assert_int_equal(rd(&mm, 2, 2 * REFI + 10), up(2 * REFI + RFC + RCD + CL) - (2 * REFI + 10) + BURST + FRONT);
	memmodel_close(&mm);

	/* two ranks refresh half a tREFI apart: rank 1 (line 128, the bit above
	 * the column) from tREFI/2 + tREFI, not at rank 0's tREFI */
	mm = mk("ddr-ranks", "2", NULL);
	assert_int_equal(rd(&mm, 128, REFI + 50), up(REFI + 50 + RCD + CL) - (REFI + 50) + BURST + FRONT);
	assert_int_equal(rd(&mm, 128 + 1, REFI / 2 + REFI + 50),
	                 up(REFI / 2 + REFI + RFC + RCD + CL) - (REFI / 2 + REFI + 50) + BURST + FRONT);
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
	/* read, same row: RD >= 1024 + tWTR_L = 1031, data >= 1041: slot 1044 */
	assert_int_equal(memmodel_request(&mm, 1, 0, 1001), up(1000 + RCD + CWL + BURST + WTR_L + CL) + BURST + FRONT);
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
	rd(&mm, 0, 1000); /* bg 0: data slot 1024, RD 1014, ACT 1002 */
	/* bg 1: ACT 1002 + tRRD_S, RD 1018, data 1028 = 1024 + tCCD_S */
	assert_int_equal(rd(&mm, 1, 1000), up(up(1000 + RCD + CL) - CL - RCD + RRD_S + RCD + CL) + BURST + FRONT - 1000);
	memmodel_close(&mm);

	mm = mk("ddr-bankgroups", "2", "ddr-map", "bg:co:ch:ba:ra", "ddr-rq", "1", NULL);
	rd(&mm, 0, 1000);
	/* enters at 1014 (first RD issued): ACT 1014, RD 1026, data 1036 */
	uint64_t enter = up(1000 + RCD + CL) - CL;
	assert_int_equal(rd(&mm, 1, 1000), up(enter + RCD + CL) + BURST + FRONT - 1000);
	struct memsys_model_stats s = stats(&mm);
	assert_int_equal(s.ddr.rq_waits, 1);
	assert_int_equal(s.ddr.rq_wait_t, enter - 1000);
	memmodel_close(&mm);

	/* the earliest freed slot first, whatever order the reads came in:
	 * line 1 opens its row (bg 1); at 5000 line 0 needs an activate (RD
	 * 5014), line 3 hits bg 1's row (data slot up(5000 + CL) = 5012, RD
	 * 5002); line 5 (bg 1) enters when line 3's RD frees its slot */
	mm = mk("ddr-bankgroups", "2", "ddr-map", "bg:co:ch:ba:ra", "ddr-rq", "2", NULL);
	rd(&mm, 1, 1000);
	rd(&mm, 0, 5000);
	rd(&mm, 3, 5000);
	rd(&mm, 5, 5000);
	s = stats(&mm);
	assert_int_equal(s.ddr.rq_waits, 1);
	assert_int_equal(s.ddr.rq_wait_t, up(5000 + CL) - CL - 5000);
	memmodel_close(&mm);

	/* a drain takes the oldest write's row first: lines 0 and 1 share row
	 * 0 (128 lines a row), line 128 is row 1 of the same bank; drained as
	 * 0, 1, 128: empty, hit, conflict (in arrival order row 0 would
	 * conflict twice: line 1's column command cannot fit before the
	 * precharge that line 128's activate needs) */
	mm = mk("ddr-wq", "4", "ddr-wq-hi", "3", "ddr-wq-lo", "0", NULL);
	memmodel_request(&mm, 0, 1, 1000);
	memmodel_request(&mm, 128, 1, 1000);
	memmodel_request(&mm, 1, 1, 1000);
	s = stats(&mm);
	assert_int_equal(s.ddr.drains, 1);
	assert_int_equal(s.row_misses, 1);
	assert_int_equal(s.row_hits, 1);
	assert_int_equal(s.row_conflicts, 1);
	memmodel_close(&mm);

	mm = mk("ddr-wq", "1", "ddr-wq-hi", "1", "ddr-wq-lo", "0", NULL);
	assert_int_equal(memmodel_request(&mm, 0, 1, 1000), 1001);      /* WR at 1012 */
	assert_int_equal(memmodel_request(&mm, 1, 1, 1000), 1012 + 1);  /* waits for it */
	assert_int_equal(stats(&mm).ddr.wq_waits, 1);
	memmodel_close(&mm);
}

/* the ingress (memmodel.h's admit): with the read queue full a read is
 * held until the first entry frees, and asking commits nothing; entering
 * then, it is the read back-pressure made wait above, its wait counted
 * from the first refusal; a read of a line in the write queue is served
 * from there, never held */
static void test_ingress_admit(void **state)
{
	(void)state;
	struct memmodel mm = mk("ddr-bankgroups", "2", "ddr-map", "bg:co:ch:ba:ra", "ddr-rq", "1", NULL);
	assert_non_null(mm.ops->admit);
	assert_int_equal(mm.ops->admit(mm.st, 0, 1000, 0), 1000);
	rd(&mm, 0, 1000); /* ACT 1002, RD 1014: its entry frees at 1014 */
	uint64_t enter = up(1000 + RCD + CL) - CL;
	assert_int_equal(mm.ops->admit(mm.st, 1, 1000, 1), enter);
	assert_int_equal(mm.ops->admit(mm.st, 1, 1005, 1), enter);
	assert_int_equal(mm.ops->admit(mm.st, 1, enter, 1), enter);
	struct memsys_model_stats s = stats(&mm);
	assert_int_equal(s.ddr.reads, 1);
	assert_int_equal(s.ddr.rq_waits, 0);
	assert_int_equal(memmodel_request_src(&mm, 1, 0, enter, 1), up(enter + RCD + CL) + BURST + FRONT);
	s = stats(&mm);
	assert_int_equal(s.ddr.rq_waits, 1);
	assert_int_equal(s.ddr.rq_wait_t, enter - 1000);
	/* line 1's RD goes at enter + RCD: until then the queue is full */
	memmodel_request(&mm, 7, 1, enter + 1);
	assert_int_equal(mm.ops->admit(mm.st, 7, enter + 2, 0), enter + 2);
	assert_int_equal(mm.ops->admit(mm.st, 9, enter + 2, 0), enter + RCD);
	memmodel_close(&mm);
}

/* src | MEMMODEL_PF (memsys's prefetcher: dropped when refused, not
 * held) asks the same question of a full queue and leaves no trace: a
 * read refused later counts its wait from its own first refusal; and the
 * per-source share does not count it: with its source's share taken, a
 * prefetch enters while a demand read would wait, and takes no share
 * entry */
static void test_ingress_pf(void **state)
{
	(void)state;
	struct memmodel mm = mk("ddr-bankgroups", "2", "ddr-map", "bg:co:ch:ba:ra", "ddr-rq", "1", NULL);
	rd(&mm, 0, 1000);
	uint64_t enter = up(1000 + RCD + CL) - CL;
	assert_int_equal(mm.ops->admit(mm.st, 1, 1000, 1 | MEMMODEL_PF), enter);
	assert_int_equal(mm.ops->admit(mm.st, 1, 1005, 1), enter);
	memmodel_request_src(&mm, 1, 0, enter, 1);
	struct memsys_model_stats s = stats(&mm);
	assert_int_equal(s.ddr.rq_waits, 1);
	assert_int_equal(s.ddr.rq_wait_t, enter - 1005);
	memmodel_close(&mm);

	mm = mk("ddr-bankgroups", "2", "ddr-map", "bg:co:ch:ba:ra", "ddr-rq", "8", "ddr-src-rq", "2", NULL);
	memmodel_request_src(&mm, 0, 0, 1000, 1);
	memmodel_request_src(&mm, 2, 0, 1000, 1);
	assert_int_equal(mm.ops->admit(mm.st, 4, 1000, 1), enter);
	assert_int_equal(mm.ops->admit(mm.st, 4, 1000, 1 | MEMMODEL_PF), 1000);
	memmodel_request_src(&mm, 4, 0, 1000, 1 | MEMMODEL_PF);
	assert_int_equal(mm.ops->admit(mm.st, 6, 1000, 1), enter);
	s = stats(&mm);
	assert_int_equal(s.ddr.rq_waits, 0);
	memmodel_close(&mm);
}

/* --ddr-src-rq: a source with that many reads queued waits to enter until
 * its own first one's column command, with room in the queue for others;
 * the wait is part of its latency, as a full queue's */
static void test_src_rq(void **state)
{
	(void)state;
	struct memmodel mm = mk("ddr-bankgroups", "2", "ddr-map", "bg:co:ch:ba:ra", "ddr-rq", "8", "ddr-src-rq", "2", NULL);
	memmodel_request_src(&mm, 0, 0, 1000, 1); /* bg 0: ACT 1002, RD 1014 */
	memmodel_request_src(&mm, 2, 0, 1000, 1); /* bg 0, the same row: RD 1014 + tCCD_L */
	uint64_t enter = up(1000 + RCD + CL) - CL;
	assert_int_equal(mm.ops->admit(mm.st, 4, 1000, 1), enter);
	assert_int_equal(mm.ops->admit(mm.st, 1, 1000, 2), 1000);
	memmodel_request_src(&mm, 4, 0, 1000, 1);
	struct memsys_model_stats s = stats(&mm);
	assert_int_equal(s.ddr.rq_waits, 1);
	assert_int_equal(s.ddr.rq_wait_t, enter - 1000);
	memmodel_close(&mm);
	/* ddr-rq or more: the queue's own limit only */
	mm = mk("ddr-rq", "2", "ddr-src-rq", "4", NULL);
	memmodel_request_src(&mm, 0, 0, 1000, 1);
	assert_int_equal(mm.ops->admit(mm.st, 1, 1000, 1), 1000);
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
	/* one bank: tCCD_L (6) between its bursts, two slots (8), and a row
	 * change every 128 lines exposes RD -> PRE -> ACT -> RD = tRTP + tRP
	 * + tRCD = 31, 8 slots (32): a row's 128 bursts (512 busy cycles) take
	 * 127 x 8 + 32 = 1048 cycles; refresh takes up to 1.5 % more (tRFC and
	 * a re-activation per tREFI). */
	mm = mk("ddr-rq", "64", NULL);
	u = stream_util(&mm, 40000);
	double row = 128.0 * BURST / (127 * up(CCD_L) + up(RTP + RP + RCD));
	print_message("stream in one bank group: bus utilisation %.4f (bound %.4f)\n", u, row);
	assert_true(u <= row && u >= row * (1 - 0.015));
	memmodel_close(&mm);
	/* two banks of one bank group taking turns: tCCD_L still spaces the
	 * bursts (4 / 8 at most: two slots); row changes overlap with the
	 * other bank */
	mm = mk("ddr-banks", "2", "ddr-map", "ba:co:ch:bg:ra", "ddr-rq", "64", NULL);
	u = stream_util(&mm, 40000);
	print_message("stream over two banks of one bank group: bus utilisation %.4f\n", u);
	assert_true(u <= (double)BURST / up(CCD_L) && u >= (double)BURST / up(CCD_L) * (1 - 0.015 - 0.02));
	memmodel_close(&mm);
}

/* A sequential stream on each preset with its own timings and the default
 * map and XOR, offered one line per core cycle (faster than the bus) at
 * 1 GHz.  With the map, consecutive bursts alternate bank groups (tCCD_S is
 * the burst: the bus can be full), and each bank's tCCD_L (DDR4-2666: 7
 * nCK against a 4-nCK burst) leaves the other bank groups room.  Bounds by
 * hand, in DRAM clocks: no column command issues inside a refresh window,
 * so tRFC of every tREFI carries no data start (upper bound, plus one
 * window's worth for where the measured span starts and ends); after it the
 * closed rows cost at most tRCD + tCL more, and the row changes every 512
 * lines at most 1 % (lower bound). */
static void test_stream_presets(void **state)
{
	(void)state;
	static const struct { const char *name; unsigned mts, bl, rfc, refi, rcd, cl; } p[] = {
		{ "DDR4-2666", 2666, 8, 467, 10400, 19, 19 },
		{ "DDR4-3200", 3200, 8, 560, 12480, 22, 22 },
		{ "DDR5-4800", 4800, 16, 708, 9360, 39, 40 },
	};
	for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
		struct memsys_cfg c;
		memsys_cfg_default(&c);
		set(&c, "mem-model", "ddr-resv");
		set(&c, "ddr-preset", p[i].name);
		/* the device's bound, not the share among harts (one source
		 * with ddr-src-rq 4: DDR4-2666 0.927, below the bound) */
		set(&c, "ddr-src-rq", "0");
		struct memmodel mm;
		if (memmodel_open(&mm, &c, err, sizeof err))
			fail_msg("%s", err);
		unsigned n = 100000;
		uint64_t first = 0, last = 0;
		for (unsigned k = 0; k < n; k++) {
			uint64_t done = memmodel_request(&mm, k, 0, 1000 + k);
			if (!k || done < first)
				first = done;
			if (done > last)
				last = done;
		}
		double tck = 2000.0 / p[i].mts, burst = p[i].bl / 2 * tck; /* ns = core cycles */
		double span = (double)(last - first), u = (n - 1) * burst / span;
		double ref = (double)p[i].rfc / p[i].refi;
		double hi = 1 - ref + p[i].rfc * tck / span;
		double lo = 1 - (p[i].rfc + p[i].rcd + p[i].cl) / (double)p[i].refi - 0.01;
		print_message("%s stream: bus utilisation %.4f (bounds %.4f .. %.4f)\n", p[i].name, u, lo, hi);
		if (u < lo || u > hi)
			fail_msg("%s: stream bus utilisation %.4f outside %.4f .. %.4f", p[i].name, u, lo, hi);
		memmodel_close(&mm);
	}
}

/* the address map, DDR4-3200 geometry (4 bank groups x 4 banks, 8 KiB row
 * = 128 lines): default map co2:bg:co:ch:ba:ra (line-address bits 0-1
 * column, 2-3 bank group, 4-8 column, 9-10 bank, row from bit 11) */
/* four activates in any tFAW: with four bank groups of two banks, five row
 * misses at once activate tRRD_S apart (1002 (as late as its slot 1024
 * allows), 1006, 1010, 1014); the fifth (bank group 0 again, its other
 * bank: tRRD_L from 1002 is no bound) would go at 1018, but the window from
 * the first holds it to 1002 + tFAW */
static void test_faw(void **state)
{
	(void)state;
	struct memmodel mm = mk("ddr-bankgroups", "4", "ddr-banks", "2", NULL);
	for (uint64_t k = 0; k < 4; k++) /* lines 128 apart: the next bank group */
		assert_int_equal(memmodel_request(&mm, 128 * k, 0, 1000), up(1000 + RCD + CL) + 4 * k + BURST + FRONT);
	uint64_t a1 = up(1000 + RCD + CL) - CL - RCD;
	assert_int_equal(memmodel_request(&mm, 512, 0, 1000), up(a1 + FAW + RCD + CL) + BURST + FRONT);
	assert_int_equal(stats(&mm).row_misses, 5);
	memmodel_close(&mm);
}

/* row hits first within a bank: a read to row 0 (data 1024, RD 1014, ACT
 * 1002), then a conflict to row 128 (PRE at ACT + tRAS = 1032, ACT 1046,
 * data 1068), then another read to row 0: its RD may go in before the
 * committed precharge while RD + tRTP <= 1032; it can issue at 1014, the
 * slot 1028 is within tCCD_L of the first burst, so data in slot 1032 (RD
 * 1022).  Arriving at 1030 it is too late: it reopens row 0 after row 128
 * (PRE at max(ACT 1046 + tRAS, RD 1058 + tRTP) = 1076, ACT 1090) */
static void test_hit_before_precharge(void **state)
{
	(void)state;
	uint64_t a1 = up(1000 + RCD + CL) - CL - RCD, pre = a1 + RAS, a2 = pre + RP;
	struct memmodel mm = mk(NULL);
	rd(&mm, 0, 1000);
	assert_int_equal(memmodel_request(&mm, 128, 0, 1001), up(a2 + RCD + CL) + BURST + FRONT);
	assert_int_equal(memmodel_request(&mm, 1, 0, 1002), up(up(1000 + RCD + CL) + CCD_L) + BURST + FRONT);
	struct memsys_model_stats s = stats(&mm);
	assert_int_equal(s.row_hits, 1);
	assert_int_equal(s.row_conflicts, 1);
	memmodel_close(&mm);

	mm = mk(NULL);
	rd(&mm, 0, 1000);
	memmodel_request(&mm, 128, 0, 1001);
	uint64_t pre2 = mx(a2 + RAS, a2 + RCD + RTP), a3 = pre2 + RP;
	assert_int_equal(memmodel_request(&mm, 2, 0, 1030), up(a3 + RCD + CL) + BURST + FRONT);
	assert_int_equal(stats(&mm).row_conflicts, 2);
	memmodel_close(&mm);
}

/* reads first: a drained batch of writes goes behind everything committed,
 * and a read may take a slot up to ddr-cap slots before the latest one.
 * Bank group 0's row is open (a read at 500); writes to lines 1, 2, 3, 5
 * (bank groups 1, 2, 3, 1) drain at 1000 by row: line 1 in slot 1020 (ACT
 * 1000), line 5, its row's other write, tCCD_L behind (1028), then lines 2
 * and 3 (ACTs tRRD_S apart) behind everything: 1032, 1036.  A read hit in
 * bank group 0 at 1001 can have data at 1011: slot 1012, two slots before
 * the first write (read -> write: burst + tRTW = 6 cycles).  With a cap of
 * 2 it may not go before slot 1032: behind the batch, tWTR_S + tCL after the
 * last write's data (another bank group): 1053, slot 1056. */
static void test_reads_overtake_writes(void **state)
{
	(void)state;
	for (int cap = 0; cap < 2; cap++) {
		struct memmodel mm = mk("ddr-bankgroups", "4", "ddr-map", "bg:co:ch:ba:ra", "ddr-wq", "4", "ddr-wq-hi", "4",
		                        "ddr-wq-lo", "0", "ddr-cap", cap ? "2" : "64", NULL);
		rd(&mm, 4, 500);
		for (uint64_t la = 1; la <= 5; la += la == 3 ? 2 : 1)
			memmodel_request(&mm, la, 1, 1000);
		uint64_t want = cap ? up(1036 + BURST + WTR_S + CL) : up(1001 + CL);
		assert_int_equal(memmodel_request(&mm, 0, 0, 1001), want + BURST + FRONT);
		memmodel_close(&mm);
	}
	/* the spacing to the bursts after a slot counts too: the same read
	 * arriving at 1005 could have data at 1015, slot 1016, but read ->
	 * write needs two slots (burst + tRTW = 6) before the write in slot
	 * 1020; the free slot 1024 and every one up to 1052 start within
	 * tWTR_S + tCL (13) of a write's data end (1024, 1032, 1036, 1040):
	 * slot up(1040 + 13) = 1056, as with the cap */
	struct memmodel mm = mk("ddr-bankgroups", "4", "ddr-map", "bg:co:ch:ba:ra", "ddr-wq", "4", "ddr-wq-hi", "4",
	                        "ddr-wq-lo", "0", NULL);
	rd(&mm, 4, 500);
	for (uint64_t la = 1; la <= 5; la += la == 3 ? 2 : 1)
		memmodel_request(&mm, la, 1, 1000);
	assert_int_equal(memmodel_request(&mm, 0, 0, 1005), up(1036 + BURST + WTR_S + CL) + BURST + FRONT);
	memmodel_close(&mm);
}

/* tRRD_S / tRRD_L longer than a burst: two row misses at once in other
 * bank groups (lines 0 and 128) activate tRRD_S apart, in two banks of one
 * bank group (lines 0 and 512 with two banks) tRRD_L apart.  The first
 * activates as late as its slot allows (1002); the second at 1002 + tRRD */
static void test_rrd(void **state)
{
	(void)state;
	uint64_t a1 = up(1000 + RCD + CL) - CL - RCD;
	struct memmodel mm = mk("ddr-bankgroups", "4", "ddr-trrd-s", "10", NULL);
	rd(&mm, 0, 1000);
	assert_int_equal(memmodel_request(&mm, 128, 0, 1000), up(a1 + 10 + RCD + CL) + BURST + FRONT);
	memmodel_close(&mm);
	mm = mk("ddr-banks", "2", "ddr-trrd-s", "10", "ddr-trrd-l", "13", NULL);
	rd(&mm, 0, 1000);
	assert_int_equal(memmodel_request(&mm, 128, 0, 1000), up(a1 + 13 + RCD + CL) + BURST + FRONT);
	memmodel_close(&mm);
	/* the latest activate binds even when an older one lies a window or
	 * more behind: ACT 1002 (line 0), then at 1030 line 128 (bank group 1)
	 * activates at once (1030 - 1002 >= tFAW): data slot up(1030 + RCD +
	 * CL) = 1052, ACT 1030; line 256 (bank group 2) at 1030 activates
	 * tRRD_S after it, 1040: data slot up(1040 + RCD + CL) = 1064 (with no
	 * tRRD, slot 1056) */
	mm = mk("ddr-bankgroups", "4", "ddr-trrd-s", "10", NULL);
	rd(&mm, 0, 1000);
	assert_int_equal(memmodel_request(&mm, 128, 0, 1030), up(1030 + RCD + CL) + BURST + FRONT);
	assert_int_equal(memmodel_request(&mm, 256, 0, 1030), up(1030 + 10 + RCD + CL) + BURST + FRONT);
	memmodel_close(&mm);
}

/* tRTRS: a burst of the other rank keeps that many idle cycles after the
 * previous one (rank 1 is the bit above the column: line 128).  Both reads
 * could start at 1022: the first takes slot 1024, the second needs 1028 +
 * tRTRS = 1031: slot 1032 (without tRTRS, slot 1028) */
static void test_rtrs(void **state)
{
	(void)state;
	struct memmodel mm = mk("ddr-ranks", "2", "ddr-trtrs", "3", NULL);
	rd(&mm, 0, 1000);
	assert_int_equal(memmodel_request(&mm, 128, 0, 1000), up(up(1000 + RCD + CL) + BURST + 3) + BURST + FRONT);
	/* a write of rank 0 then a read of rank 1 keep tRTRS too, not tWTR */
	memmodel_close(&mm);
	mm = mk("ddr-ranks", "2", "ddr-trtrs", "3", "ddr-wq", "1", "ddr-wq-hi", "1", "ddr-wq-lo", "0", NULL);
	memmodel_request(&mm, 0, 1, 1000); /* write data 1020..1024 */
	assert_int_equal(memmodel_request(&mm, 128, 0, 1000), up(up(1000 + RCD + CWL) + BURST + 3) + BURST + FRONT);
	memmodel_close(&mm);
}

/* Rules longer than a word of slots (tWTR 300 nCK: 75 slots) take the
 * general marking path (fb_take): a write committed first still keeps a
 * read that arrives earlier from a slot too close before it (tRTW, and
 * tRTRS for another rank's read).  Write data at 1120..1124; the read's
 * earliest slot, 1116..1120, would end without the gap, so it goes after
 * the write: tWTR later in its rank, tRTRS later in the other rank. */
static void test_long_rules(void **state)
{
	(void)state;
	struct memmodel mm = mk("ddr-bankgroups", "2", "ddr-map", "bg:co:ch:ba:ra", "ddr-twtr-s", "300", "ddr-twtr-l",
	                        "300", "ddr-wq", "1", "ddr-wq-hi", "1", "ddr-wq-lo", "0", NULL);
	memmodel_request(&mm, 1, 1, 1100); /* bg 1: ACT 1100, data 1120..1124 */
	assert_int_equal(memmodel_request(&mm, 0, 0, 1094), up(1124 + 300 + CL) + BURST + FRONT);
	memmodel_close(&mm);
	mm = mk("ddr-ranks", "2", "ddr-trtrs", "3", "ddr-twtr-s", "300", "ddr-twtr-l", "300", "ddr-wq", "1", "ddr-wq-hi",
	        "1", "ddr-wq-lo", "0", NULL);
	memmodel_request(&mm, 0, 1, 1100); /* rank 0: data 1120..1124 */
	assert_int_equal(memmodel_request(&mm, 128, 0, 1094), up(1124 + 3) + BURST + FRONT);
	memmodel_close(&mm);
	/* the same path for reads (a read's rules reach tWTR back): two banks
	 * of one bank group, bank 1's row opened long before; read A (bank
	 * 0, RD at A) then a row hit B of bank 1 that could issue within
	 * tCCD_L of A, before it (slot 1120) or after it (A's slot 1280 on a
	 * word boundary of the slot ring, so its marks cross into the next
	 * word: slot 1284): B goes tCCD_L after A */
	static const uint64_t ab[2][2] = { { 1100, 1108 }, { 1256, 1272 } }; /* A, B arrive */
	for (int i = 0; i < 2; i++) {
		mm = mk("ddr-banks", "2", "ddr-map", "co:ch:ba:bg:ra", "ddr-twtr-s", "300", "ddr-twtr-l", "300", NULL);
		rd(&mm, 128, 500);
		uint64_t a = ab[i][0], b = ab[i][1];
		rd(&mm, 0, a);
		uint64_t ca = up(a + RCD + CL) - CL;
		assert_int_equal(memmodel_request(&mm, 129, 0, b), up(ca + CCD_L + CL) + BURST + FRONT);
		memmodel_close(&mm);
	}
}

static void test_mapping(void **state)
{
	(void)state;
	struct memsys_cfg c;
	memsys_cfg_default(&c);
	set(&c, "mem-model", "ddr-resv");
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
	set(&c, "mem-model", "ddr-resv");
	if (memsys_cfg_set(&c, k, v, err, sizeof err) == 0 && memsys_cfg_check(&c, err, sizeof err) == 0)
		fail_msg("%s=%s accepted", k, v);
	if (!strstr(err, want))
		fail_msg("%s=%s: '%s' lacks '%s'", k, v, err, want);
}

/* --ddr-fair: a burst of n reads from source 1 (bank group 0, lines 0, 2,
 * ... one row: hits behind one activate, tCCD_L apart), then at 1001 one
 * read from source 2 with nothing queued (bank group 1, line 1: empty
 * bank).  With a kept read-queue entry it enters at once (the 3 shared
 * ones are full), activates tRRD_S after source 1's activate (1002) and
 * takes the free slot between two of source 1's bursts (tCCD_S): its
 * latency does not depend on n (nor does the cap, counted over source 1's
 * slots far ahead, hold it back).  Without, it waits for a shared entry,
 * behind the burst's own first n - 3 column commands. */
static uint64_t burst_then_lone(const char *fair, unsigned n, uint64_t *again)
{
	struct memmodel mm = mk("ddr-bankgroups", "2", "ddr-map", "bg:co:ch:ba:ra", "ddr-rq", "4", "ddr-fair", fair,
	                        NULL);
	for (unsigned i = 0; i < n; i++)
		memmodel_request_src(&mm, 2 * i, 0, 1000, 1);
	uint64_t lat = memmodel_request_src(&mm, 1, 0, 1001, 2) - 1001;
	/* source 2 again at once: it has a read queued now, so it is not
	 * light: it waits for a shared entry like source 1 */
	*again = memmodel_request_src(&mm, 3, 0, 1002, 2) - 1002;
	memmodel_close(&mm);
	return lat;
}

static void test_fair(void **state)
{
	(void)state;
	uint64_t lone = up(1002 + RRD_S + RCD + CL) + BURST + FRONT - 1001, again;
	for (unsigned n = 4; n <= 100; n += 32) {
		assert_int_equal(burst_then_lone("1", n, &again), lone);
		if (n > 4)
			assert_true(again > 2 * lone);
		/* off: the lone read enters behind the burst (one tCCD_L
		 * slot pair per read of it) */
		if (n > 4)
			assert_true(burst_then_lone("0", n, &again) > 2 * (n - 4) * BURST);
	}
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
	refuse("ddr-wq-lo", "56", "ddr-wq-lo"); /* = the default ddr-wq-hi: no room between */
	refuse("ddr-bl", "4", "one burst");
	refuse("ddr-trfc", "20000", "ddr-trefi");
	refuse("ddr-tccd-l", "3", "ddr-tccd-l (3) >= ddr-tccd-s (4)"); /* JEDEC: a bank group's own is the longer */
	refuse("ddr-twtr-s", "13", "ddr-twtr-l (12) >= ddr-twtr-s (13)");
	refuse("ddr-fair", "32", "ddr-fair (32) < ddr-rq (32)"); /* no shared entry left */
	/* presets: DDR5-4800 moves a line in 16 beats of 4 bytes */
	struct memsys_cfg c;
	memsys_cfg_default(&c);
	set(&c, "mem-model", "ddr-resv");
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
		cmocka_unit_test(test_ingress_admit),
		cmocka_unit_test(test_ingress_pf),
		cmocka_unit_test(test_src_rq),
		cmocka_unit_test(test_stream_bus_utilisation),
		cmocka_unit_test(test_stream_presets),
		cmocka_unit_test(test_faw),
		cmocka_unit_test(test_hit_before_precharge),
		cmocka_unit_test(test_reads_overtake_writes),
		cmocka_unit_test(test_rrd),
		cmocka_unit_test(test_rtrs),
		cmocka_unit_test(test_long_rules),
		cmocka_unit_test(test_mapping),
		cmocka_unit_test(test_fair),
		cmocka_unit_test(test_config),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
