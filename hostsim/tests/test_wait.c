/*
 * The image's waits and its check that a store becomes visible
 * (firmware/wait.c), on the host.  wait.c, record.c, num.c and state.c are
 * the image's own files; the platform and the hart primitives are stubs: one
 * hart at a time (the test switches `me` between writer and waiter), a cycle
 * counter that advances by STEP on every read, a timer that ticks once per
 * TICK cycles, and a data cache the test models with two copies of the
 * awaited word: `*flag` (memory, where the writer stores and publishes) and
 * `seen` (what the waiter's loads return), which only plat.flush copies
 * across when the invalidation is lost, or the store itself when it is not.
 * wait.c keeps what each hart published and which harts flush for good:
 * each case waits on a word of its own with a waiter of its own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "platform.h"
#include "rvmess/cfgschema.h"
#include "rvmess/rt.h"

#define STEP 10u      /* cycles per read of the cycle counter */
#define TICK 1000u    /* cycles per timer tick: 1 GHz over a 1 MHz timebase */
#define STALE 20000u  /* stale_cycles */

/* ---- stubs ------------------------------------------------------------------ */
static char out[16384];
static size_t outn;
static unsigned me;
static uint64_t cycles;
static unsigned flushes;
static volatile uint32_t words[16];
static volatile uint32_t *flag; /* the word in memory (this case's) */
static uint32_t seen;          /* this hart's cached copy of it */
static int lost;               /* the invalidation of flag's store is lost */

static void cap_putc(char c)
{
	if (outn < sizeof out - 1)
		out[outn++] = c;
	out[outn] = 0;
}
static void stub_flush(void)
{
	flushes++;
	seen = *flag;
}
const struct platform plat = { .name = "test", .mode = "M", .putc = cap_putc, .flush = stub_flush };
/* const volatile in the image (firmware/cfg.h, which only wait.c includes):
 * writable here, for the cases' settings */
struct rvm_config rvm_config_block = RVM_CFG_DEFAULTS;
#define cfg_ rvm_config_block

unsigned rvm_hartid(void) { return me; }
uint64_t pm_cycles(void) { return cycles += STEP; }
uint64_t pm_time(void) { return cycles / TICK; }
uint64_t pm_instret(void) { return 0; }

/* case k: its word and its waiter (hart 10 + k; hart 1 writes) */
static unsigned setup_run(unsigned k)
{
	memset(&rvm, 0, sizeof(rvm));
	rvm.lead = 0;
	rvm.timebase = 1000000;
	rvm.cpu_hz[0] = 1000000000;
	rvm.time_shared = 1;
	cfg_.wait_flush = 0;
	cfg_.stale_cycles = STALE;
	outn = 0;
	out[0] = 0;
	flushes = 0;
	cycles = 1000000;
	flag = &words[k];
	seen = 0;
	lost = 1;
	rvm_nerr = 0;
	return 10 + k;
}

/* hart w stores v to flag (published) at the current time */
static void store(unsigned w, uint32_t v)
{
	unsigned was = me;
	me = w;
	rvm_store_pub(flag, v);
	if (!lost)
		seen = v; /* the invalidation arrived: the next load misses */
	me = was;
}

/* hart `waiter` waits for flag != old, the cycles passing by STEP per poll;
 * `store_at` (cycles from now, or ~0 none) makes hart 1 store `v` then.
 * Returns the value seen; *polls the polls it took. */
static uint32_t wait_for(unsigned waiter, uint32_t old, uint64_t store_at, uint32_t v, uint64_t *polls)
{
	struct rvm_wait w;
	uint64_t when = cycles + store_at, n = 0;
	uint32_t got;

	me = waiter;
	rvm_wait_begin(&w, "test");
	for (;;) {
		if (store_at != ~0ull && cycles >= when) {
			store(1, v);
			store_at = ~0ull;
		}
		rvm_wait_poll(&w);
		n++;
		cycles += STEP;
		if ((got = seen) != old)
			break;
		if (n > 100000000)
			fail_msg("the wait never ended");
	}
	rvm_wait_saw(&w, flag, got);
	if (polls)
		*polls = n;
	return got;
}

static int findings(void)
{
	int n = 0;
	for (const char *p = out; (p = strstr(p, " bug h=")); p++)
		n++;
	return n;
}

/* ---- cases ------------------------------------------------------------------ */

/* Coherent: the store shows up without a flush: no finding, and a wait
 * shorter than 4 x stale_cycles never flushes. */
static void test_coherent_no_flush(void **state)
{
	unsigned h;
	(void)state;
	h = setup_run(0);
	lost = 0;
	assert_int_equal(wait_for(h, 0, 5000, 7, NULL), 7);
	assert_int_equal(flushes, 0);
	assert_int_equal(findings(), 0);
	assert_int_equal(rvm_flushing(), 0);
}

/* The store was made long before the waiter began and its invalidation was
 * lost: the first flush, after 4 x stale_cycles, shows it: one finding naming
 * both harts, the address, the value and cycles > stale_cycles; then the
 * hart flushes before every read. */
static void test_lost_store_reported(void **state)
{
	char want[64];
	const char *b;
	uint64_t polls, cyc;
	unsigned h;
	(void)state;
	h = setup_run(1);
	store(1, 5);
	cycles += 100000;
	assert_int_equal(wait_for(h, 0, ~0ull, 0, &polls), 5);
	assert_int_equal(flushes, 1);
	assert_int_equal(findings(), 1);
	b = strstr(out, " bug h=11 test=visibility waiter=11 writer=1 ");
	assert_non_null(b);
	snprintf(want, sizeof want, " addr=0x%llx val=0x5 ", (unsigned long long)(uintptr_t)flag);
	assert_non_null(strstr(b, want));
	assert_non_null(strstr(b, " where=test "));
	assert_int_equal(sscanf(strstr(b, " cycles=") + 8, "%llu", (unsigned long long *)&cyc), 1);
	assert_true(cyc > 100000 + 4 * STALE - 2000 && cyc < 100000 + 4 * STALE + 2000);
	assert_int_equal(rvm_nerr, 1);
	/* the fall-back: every poll flushes, and no second finding */
	assert_int_equal(rvm_flushing(), 1);
	rvm_poll();
	assert_int_equal(flushes, 2);
	store(1, 6);
	cycles += 100000;
	assert_int_equal(wait_for(h, 5, ~0ull, 0, &polls), 6);
	assert_int_equal(polls, 1);
	assert_int_equal(findings(), 1);
}

/* The store happens while the waiter waits, a little before its first
 * flush: it has not been invisible for stale_cycles, so the flush that
 * shows it reports nothing. */
static void test_young_store_not_reported(void **state)
{
	unsigned h;
	(void)state;
	h = setup_run(2);
	/* flushes at 4 x stale_cycles (and 12, 28 ... later): store 1000 cycles before */
	assert_int_equal(wait_for(h, 0, 4 * STALE - 1000, 9, NULL), 9);
	assert_int_equal(flushes, 1);
	assert_int_equal(findings(), 0);
	assert_int_equal(rvm_flushing(), 0);
}

/* A store during a long wait, old enough at the next flush: reported. */
static void test_store_during_wait_reported(void **state)
{
	unsigned h;
	(void)state;
	h = setup_run(3);
	/* flushes at 4, 12, 28 ... x stale_cycles: store at 5, seen at 12 */
	assert_int_equal(wait_for(h, 0, 5 * STALE, 3, NULL), 3);
	assert_int_equal(flushes, 2);
	assert_int_equal(findings(), 1);
}

/* The flushes back off: after 4 x stale_cycles, then twice as long each
 * time, at most 128 x stale_cycles apart. */
static void test_backoff(void **state)
{
	uint64_t polls;
	unsigned h;
	(void)state;
	h = setup_run(4);
	/* the store comes at 300 x stale_cycles: gaps 4, 8, 16 .. 128, 128 */
	assert_int_equal(wait_for(h, 0, 300ull * STALE, 1, &polls), 1);
	/* flushes at 4, 12, 28, 60, 124, 252, then 380 x stale_cycles (seen there) */
	assert_int_equal(flushes, 7);
	assert_int_equal(findings(), 1);
}

/* A publication in progress (pending stamp) at the address, or none at all,
 * or an old one of another value: no finding. */
static void test_pending_or_unknown_silent(void **state)
{
	unsigned h;
	(void)state;
	h = setup_run(5);
	me = 1;
	rvm_pub_begin(flag, 4);
	*flag = 4; /* the store, its stamp not written yet */
	cycles += 100000;
	assert_int_equal(wait_for(h, 0, ~0ull, 0, NULL), 4);
	assert_int_equal(flushes, 1);
	assert_int_equal(findings(), 0);

	h = setup_run(6);
	*flag = 8; /* a store nobody published */
	cycles += 100000;
	assert_int_equal(wait_for(h, 0, ~0ull, 0, NULL), 8);
	assert_int_equal(findings(), 0);

	h = setup_run(7);
	store(1, 2); /* published 2; memory then holds 3, unpublished */
	*flag = 3;
	cycles += 100000;
	assert_int_equal(wait_for(h, 0, ~0ull, 0, NULL), 3);
	assert_int_equal(findings(), 0);
}

/* The newest publication of the value counts: hart 2 published it long
 * ago, hart 1 just now: nothing reported. */
static void test_newest_publication(void **state)
{
	unsigned h;
	(void)state;
	h = setup_run(8);
	me = 2;
	rvm_store_pub(flag, 5);
	cycles += 1000000;
	*flag = 0;
	/* hart 1 stores 5 again a little before the waiter's first flush */
	assert_int_equal(wait_for(h, 0, 4 * STALE - 1000, 5, NULL), 5);
	assert_int_equal(findings(), 0);
}

/* wait_flush=1: a flush before every read from the start, no finding. */
static void test_wait_flush_always(void **state)
{
	uint64_t polls;
	unsigned h;
	(void)state;
	h = setup_run(9);
	cfg_.wait_flush = 1;
	store(1, 5);
	cycles += 100000;
	assert_int_equal(wait_for(h, 0, ~0ull, 0, &polls), 5);
	assert_int_equal(polls, 1);
	assert_int_equal(flushes, 1);
	assert_int_equal(findings(), 0);
}

/* No shared timer (time counted in each hart's cycles): nothing is
 * reported.  (A platform without plat.flush: test_fwcore and test_sync.) */
static void test_no_timer_silent(void **state)
{
	unsigned h;
	(void)state;
	h = setup_run(10);
	rvm.time_shared = 0;
	store(1, 5);
	cycles += 100000;
	assert_int_equal(wait_for(h, 0, ~0ull, 0, NULL), 5);
	assert_int_equal(flushes, 1);
	assert_int_equal(findings(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_coherent_no_flush),
		cmocka_unit_test(test_lost_store_reported),
		cmocka_unit_test(test_young_store_not_reported),
		cmocka_unit_test(test_store_during_wait_reported),
		cmocka_unit_test(test_backoff),
		cmocka_unit_test(test_pending_or_unknown_silent),
		cmocka_unit_test(test_newest_publication),
		cmocka_unit_test(test_wait_flush_always),
		cmocka_unit_test(test_no_timer_silent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
