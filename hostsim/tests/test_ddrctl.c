/*
 * Unit tests: the ddr controller (sim/memmodel_ddrctl.c), known answers
 * derived by hand.  The timings are test_ddr.c's: a 1 GHz core and 2000
 * MT/s, so one DRAM clock is one cycle and a burst is 4; ddr-frontend 20,
 * so a request reaches the controller 10 cycles after it is sent and its
 * data the LLC 10 after the burst.  One channel, rank, bank group and bank;
 * lines 0..127 are row 0, 128..255 row 1, and so on.
 *
 * TEST_MODEL=ddr-resv runs the same requests on the reservation scheduler:
 * every test here fails there (the reordering it cannot do).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/memmodel.h"
#include "sim/memsys.h"

static char err[256];

static void set(struct memsys_cfg *c, const char *k, const char *v)
{
	if (memsys_cfg_set(c, k, v, err, sizeof err))
		fail_msg("%s=%s: %s", k, v, err);
}

/* the configuration above, and k, v, ... (NULL-terminated) */
static void cfg_of(struct memsys_cfg *cp, const char *k, va_list ap)
{
	struct memsys_cfg c;
	memsys_cfg_default(&c);
	const char *model = getenv("TEST_MODEL");
	set(&c, "mem-model", model ? model : "ddr");
	static const char *const kv[][2] = {
		{ "ddr-mts", "2000" }, { "ddr-bankgroups", "1" }, { "ddr-banks", "1" }, { "ddr-row", "8192" },
		{ "ddr-xor", "0" }, { "ddr-map", "co:ch:bg:ba:ra" }, { "ddr-tcl", "10" }, { "ddr-tcwl", "8" },
		{ "ddr-trcd", "12" }, { "ddr-trp", "14" }, { "ddr-tras", "30" }, { "ddr-trc", "44" },
		{ "ddr-trrd-s", "4" }, { "ddr-trrd-l", "6" }, { "ddr-tccd-s", "4" }, { "ddr-tccd-l", "6" },
		{ "ddr-tfaw", "20" }, { "ddr-twtr-s", "3" }, { "ddr-twtr-l", "7" }, { "ddr-trtp", "5" },
		{ "ddr-twr", "15" }, { "ddr-trtw", "2" }, { "ddr-trfc", "100" }, { "ddr-trefi", "10000" },
		{ "ddr-frontend", "20" }, { "ddr-src-rq", "0" },
	};
	for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
		set(&c, kv[i][0], kv[i][1]);
	for (; k; k = va_arg(ap, const char *))
		set(&c, k, va_arg(ap, const char *));
	*cp = c;
}

static struct memsys_cfg cfg(const char *k, ...)
{
	struct memsys_cfg c;
	va_list ap;
	va_start(ap, k);
	cfg_of(&c, k, ap);
	va_end(ap);
	return c;
}

static struct memmodel mk(const char *k, ...)
{
	struct memsys_cfg c;
	va_list ap;
	va_start(ap, k);
	cfg_of(&c, k, ap);
	va_end(ap);
	struct memmodel mm;
	if (memmodel_open(&mm, &c, err, sizeof err))
		fail_msg("%s", err);
	return mm;
}

/* n requests (line, write, cycle sent), in that order; then every read's
 * completion in done[] (writes: 0) */
struct rq { uint64_t line; int w; uint64_t now; };
static void run(struct memmodel *mm, const struct rq *r, size_t n, uint64_t *done)
{
	for (size_t i = 0; i < n; i++)
		done[i] = memmodel_request(mm, r[i].line, r[i].w, r[i].now);
	if (mm->ops == &memmodel_ddrctl)
		ddrctl_sync(mm->st, 100000);
	for (size_t i = 0; i < n; i++) {
		if (r[i].w)
			done[i] = 0;
		else if (done[i] & MEMSYS_PEND)
			done[i] = ddrctl_resolve(mm->st, done[i]);
	}
}

static struct memsys_model_stats stats(struct memmodel *mm)
{
	struct memsys_model_stats s;
	mm->ops->stats(mm->st, &s);
	return s;
}

/*
 * A row hit that arrives after two conflicts to its bank goes first.
 * A (row 0) reaches the controller at 10: activate 10, read 22 (tRCD),
 * data 32..36, done 46; the bank may precharge from 40 (tRAS).  X (row 1)
 * and Z (row 2) arrive at 12 and 14: each needs a precharge.  Y (row 0)
 * arrives at 30, before that precharge can issue: a row hit, its read at
 * 30 (tCCD_L from 22: 28; the bus from 36), data 40..44, done 54.  Then X:
 * precharge 40, activate 54 (tRP; tRC from 10), read 66, data 76..80,
 * done 90; Z: precharge 84 (tRAS from 54), activate 98, read 110, done 134.
 * The reservation scheduler booked X's and Z's precharges when they came,
 * so Y, which no longer fits before the last of them, reopens row 0 after Z.
 */
static void test_hit_overtakes_conflicts(void **state)
{
	(void)state;
	struct memmodel mm = mk(NULL);
	const struct rq r[] = { { 0, 0, 0 }, { 128, 0, 2 }, { 256, 0, 4 }, { 1, 0, 20 } };
	uint64_t done[4];
	run(&mm, r, 4, done);
	assert_true(done[3] < done[1]); /* Y before X */
	assert_int_equal(done[0], 46);
	assert_int_equal(done[3], 54);
	assert_int_equal(done[1], 90);
	assert_int_equal(done[2], 134);
	struct memsys_model_stats s = stats(&mm);
	assert_int_equal(s.row_hits, 1);
	assert_int_equal(s.row_misses, 1);
	assert_int_equal(s.row_conflicts, 2);
	memmodel_close(&mm);
}

/*
 * A write drain by watermarks (ddr-wq-hi 4, ddr-wq-lo 1): four writes and
 * four reads of row 0 reach the controller at 10.  With four writes queued
 * it drains: activate 10, writes at 22, 28, 34 (tCCD_L), data to 46; down
 * to one write, the reads go: the first at 53 (tWTR_L after the write
 * data), then every 6: done 77, 83, 89, 95; with no read queued the last
 * write goes at 79 (its data 87: tRTW after the last read's data at 85).
 * Two turnarounds (write -> read, read -> write), two write drains.
 */
static void test_write_drain_batch(void **state)
{
	(void)state;
	struct memmodel mm = mk("ddr-wq", "8", "ddr-wq-hi", "4", "ddr-wq-lo", "1", NULL);
	const struct rq r[] = { { 0, 1, 0 }, { 1, 1, 0 }, { 2, 1, 0 }, { 3, 1, 0 },
	                        { 4, 0, 0 }, { 5, 0, 0 }, { 6, 0, 0 }, { 7, 0, 0 } };
	uint64_t done[8];
	run(&mm, r, 8, done);
	assert_int_equal(done[4], 77);
	assert_int_equal(done[5], 83);
	assert_int_equal(done[6], 89);
	assert_int_equal(done[7], 95);
	struct memsys_model_stats s = stats(&mm);
	assert_int_equal(s.ddr.wtr, 1);
	assert_int_equal(s.ddr.rtw, 1);
	assert_int_equal(s.ddr.drains, 2);
	assert_int_equal(s.busy, 32); /* eight bursts */
	memmodel_close(&mm);
}

/*
 * Turnarounds: reads and writes that alternate one at a time, each with
 * nothing else queued, turn the bus every time (a write goes while no read
 * is queued): read 0 at 0 (arrives 10, read 22, data 32..36), write 1 at 40
 * (arrives 50: write 50, data 58..62), read 2 at 80 (arrives 90, read 90 >=
 * 62 + tWTR_L, data 100..104, done 114), write 3 at 120, read 4 at 160
 * (done 194): two write -> read and two read -> write turnarounds.
 */
static void test_turnarounds(void **state)
{
	(void)state;
	struct memmodel mm = mk(NULL);
	const struct rq r[] = { { 0, 0, 0 }, { 1, 1, 40 }, { 2, 0, 80 }, { 3, 1, 120 }, { 4, 0, 160 } };
	uint64_t done[5];
	run(&mm, r, 5, done);
	assert_int_equal(done[0], 46);
	assert_int_equal(done[2], 114);
	assert_int_equal(done[4], 194);
	struct memsys_model_stats s = stats(&mm);
	assert_int_equal(s.ddr.rtw, 2);
	assert_int_equal(s.ddr.wtr, 2);
	memmodel_close(&mm);
}

/* The controller decides nothing it could still have to change: a sync to
 * cycle t (no request sent before t from then on) leaves unknown a read
 * whose column command may still be overtaken. */
static void test_sync_lookahead(void **state)
{
	(void)state;
	struct memmodel mm = mk(NULL);
	if (mm.ops != &memmodel_ddrctl)
		skip();
	uint64_t a = memmodel_request(&mm, 0, 0, 0);
	uint64_t x = memmodel_request(&mm, 128, 0, 2);
	assert_true(a & MEMSYS_PEND);
	ddrctl_sync(mm.st, 12); /* decided: up to 22 (12 + 10): A's read at 22 not yet */
	assert_int_equal(ddrctl_resolve(mm.st, a), 0);
	assert_true(ddrctl_lb(mm.st) >= 22 + 10 + 4 + 10);
	ddrctl_sync(mm.st, 13); /* up to 23: A's read at 22 */
	assert_int_equal(ddrctl_resolve(mm.st, a), 46);
	uint64_t y = memmodel_request(&mm, 1, 0, 20); /* still in time to overtake X */
	ddrctl_sync(mm.st, 1000);
	assert_int_equal(ddrctl_resolve(mm.st, y), 54);
	assert_int_equal(ddrctl_resolve(mm.st, x), 90);
	assert_int_equal(stats(&mm).ddr.late, 0);
	memmodel_close(&mm);
}

/*
 * ddr-pf-room: a prefetch sees the read-queue room the harts' shares leave.
 * ddr-rq 8, ddr-src-rq 2; hart 1 sends 8 reads at cycle 0: 2 of them may
 * be queued (its share), 6 wait outside.  Without ddr-pf-room the 8
 * pending fill the queue and a prefetch of hart 2 is dropped (admit says
 * the next cycle); with it the shares hold 2 entries, so 6 prefetches
 * enter and the 7th is dropped; a read of hart 3 takes one more share
 * entry, leaving none.  Once every read has issued, 8 prefetches enter
 * again, and a 9th is dropped.
 */
static void test_pf_room(void **state)
{
	(void)state;
	for (int room = 0; room < 2; room++) {
		struct memmodel mm = mk("ddr-rq", "8", "ddr-src-rq", "2", "ddr-pf-room", room ? "1" : "0", NULL);
		if (mm.ops != &memmodel_ddrctl)
			skip();
		for (uint64_t i = 0; i < 8; i++)
			memmodel_request_src(&mm, i, 0, 0, 1);
		if (!room) {
			assert_int_equal(mm.ops->admit(mm.st, 128, 0, 2 | MEMMODEL_PF), 1);
			memmodel_close(&mm);
			continue;
		}
		unsigned in = 0;
		for (uint64_t i = 0; i < 8; i++)
			if (mm.ops->admit(mm.st, 128 + i, 0, 2 | MEMMODEL_PF) == 0) {
				memmodel_request_src(&mm, 128 + i, 0, 0, 2 | MEMMODEL_PF);
				in++;
			}
		assert_int_equal(in, 6);
		memmodel_close(&mm);

		mm = mk("ddr-rq", "8", "ddr-src-rq", "2", "ddr-pf-room", "1", NULL);
		for (uint64_t i = 0; i < 8; i++)
			memmodel_request_src(&mm, i, 0, 0, 1);
		memmodel_request_src(&mm, 8, 0, 0, 3);
		for (uint64_t i = 0; i < 5; i++) {
			assert_int_equal(mm.ops->admit(mm.st, 128 + i, 0, 2 | MEMMODEL_PF), 0);
			memmodel_request_src(&mm, 128 + i, 0, 0, 2 | MEMMODEL_PF);
		}
		assert_int_equal(mm.ops->admit(mm.st, 133, 0, 2 | MEMMODEL_PF), 1);
		ddrctl_sync(mm.st, 100000);
		for (uint64_t i = 0; i < 8; i++) { /* the whole queue: nothing left counted */
			assert_int_equal(mm.ops->admit(mm.st, 256 + i, 100000, 2 | MEMMODEL_PF), 100000);
			memmodel_request_src(&mm, 256 + i, 0, 100000, 2 | MEMMODEL_PF);
		}
		assert_int_equal(mm.ops->admit(mm.st, 264, 100000, 2 | MEMMODEL_PF), 100001);
		memmodel_close(&mm);
	}
}

/* hostsim --replay-mem's core on a trace given as text */
static int replay(const char *text, struct memmodel_replay *r, struct memsys_model_stats *ms)
{
	struct memsys_cfg c = cfg(NULL);
	FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
	assert_non_null(f);
	int rc = memmodel_replay(&c, f, "t", r, ms, err, sizeof err);
	fclose(f);
	return rc;
}

/*
 * The requests of test_hit_overtakes_conflicts as a --trace-mem trace,
 * replayed open loop: reads done at 46, 90, 134 and 54 (sent at 0, 2, 4,
 * 20): mean (46 + 88 + 130 + 34) / 4, longest 130, last done 134.  The
 * same with Y's line first after A's (the order a hart running ahead
 * sends it; the trace steps back from 20 to 2): the controller must not
 * have decided anything past 2 when X comes, so nothing is late and the
 * answers are the same.  Bad lines are refused with their line number.
 */
static void test_replay(void **state)
{
	(void)state;
	static const char *const tr[] = {
		"0 r 0x0 0\n2 r 0x2000 0\n4 r 0x4000 0\n20 r 0x40 0\n",
		"0 r 0x0 0\n20 r 0x40 0\n2 r 0x2000 0\n4 r 0x4000 0\n",
	};
	struct memmodel_replay r;
	struct memsys_model_stats ms;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(replay(tr[i], &r, &ms), 0);
		assert_int_equal(r.reads, 4);
		assert_int_equal(r.writes, 0);
		assert_int_equal(r.lat_sum, 46 + 88 + 130 + 34);
		assert_int_equal(r.lat_max, 130);
		assert_int_equal(r.first, 0);
		assert_int_equal(r.last, 134);
		assert_int_equal(ms.ddr.late, 0);
		assert_int_equal(ms.row_hits, 1);
		assert_int_equal(ms.row_conflicts, 2);
	}
	static const char *const bad[][2] = {
		{ "0 r 0x0 0\n10 r\n", "t:2: no address" },
		{ "0 x 0x0 0\n", "t:1: not a \"cycle r|w address [source]\" line" },
		{ "0 r 0x41 0\n", "t:1: address not on a line boundary" },
		{ "0 r 0x40 64\n", "t:1: source not a hart number" },
		{ "0 r 0x40 1p x\n", "t:1: text after the source" },
		{ "", "t: empty trace" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(replay(bad[i][0], &r, &ms), -1);
		if (strncmp(err, bad[i][1], strlen(bad[i][1])))
			fail_msg("trace %zu: \"%s\", want \"%s...\"", i, err, bad[i][1]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hit_overtakes_conflicts),
		cmocka_unit_test(test_write_drain_batch),
		cmocka_unit_test(test_turnarounds),
		cmocka_unit_test(test_sync_lookahead),
		cmocka_unit_test(test_pf_room),
		cmocka_unit_test(test_replay),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
