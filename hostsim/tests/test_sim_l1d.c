/*
 * The L1D table of --machine openpiton --inject lost-inval (sim/l1d.c): a
 * load returns the copy while RAM changes under it (another hart's store
 * whose invalidation was lost), a miss fills
 * from RAM, the hart's own store updates a present copy without
 * allocating, a drop and a clear make the next load read RAM, LRU evicts
 * the least recently used of a set's 4 ways, and a load across two lines
 * assembles both copies.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "sim/l1d.h"

static struct l1d c;
static uint8_t ram[64 * 1024];

static void put(uint64_t off, uint64_t v) { memcpy(ram + off, &v, 8); } /* another hart's store */

static int setup(void **state)
{
	(void)state;
	memset(&c, 0, sizeof(c));
	memset(ram, 0, sizeof(ram));
	return 0;
}

static void test_stale_copy(void **state)
{
	(void)state;
	put(0x100, 1);
	assert_int_equal(l1d_load(&c, ram, 0x100, 8), 1);
	assert_int_equal(c.misses, 1);
	put(0x100, 2);
	assert_int_equal(l1d_load(&c, ram, 0x100, 8), 1); /* the copy, not RAM */
	assert_int_equal(c.hits, 1);
	assert_int_equal(c.stale_hits, 1);
	put(0x108, 7); /* same 16-byte line */
	assert_int_equal(l1d_load(&c, ram, 0x108, 8), 0);
	assert_int_equal(l1d_load(&c, ram, 0x110, 8), 0); /* next line: a miss, RAM's */
	put(0x110, 9);
	assert_int_equal(l1d_load(&c, ram, 0x110, 4), 0);
	l1d_clear(&c);
	assert_int_equal(l1d_load(&c, ram, 0x100, 8), 2);
	assert_int_equal(l1d_load(&c, ram, 0x108, 8), 7);
}

static void test_own_store(void **state)
{
	(void)state;
	l1d_store(&c, 0x200, 8, 5); /* not present: no allocation */
	put(0x200, 6);
	assert_int_equal(l1d_load(&c, ram, 0x200, 8), 6);
	put(0x200, 0x1111111111111111ull); /* write-through: RAM and the copy */
	l1d_store(&c, 0x202, 2, 0xabcd);
	assert_int_equal(l1d_load(&c, ram, 0x200, 8), 0xabcd0006ull);
	put(0x200, 3);
	l1d_drop(&c, 0x204, 4);
	assert_int_equal(l1d_load(&c, ram, 0x200, 8), 3);
}

static void test_lru(void **state)
{
	(void)state;
	const uint64_t way = L1D_SETS * L1D_LINE; /* the same set, another line */
	for (unsigned i = 0; i < L1D_WAYS; i++) {
		put(0x30 + i * way, i + 1);
		assert_int_equal(l1d_load(&c, ram, 0x30 + i * way, 8), i + 1);
	}
	for (unsigned i = 0; i < L1D_WAYS; i++)
		put(0x30 + i * way, 100 + i);
	assert_int_equal(l1d_load(&c, ram, 0x30, 8), 1); /* way 0 used again: line 1 is the LRU */
	put(0x30 + 4 * way, 50);
	assert_int_equal(l1d_load(&c, ram, 0x30 + 4 * way, 8), 50); /* evicts line 1 */
	assert_int_equal(l1d_load(&c, ram, 0x30 + way, 8), 101);   /* refilled (evicts line 2) */
	assert_int_equal(l1d_load(&c, ram, 0x30, 8), 1);           /* still the copy */
	assert_int_equal(l1d_load(&c, ram, 0x30 + 3 * way, 8), 4); /* still the copy */
}

static void test_across_lines(void **state)
{
	(void)state;
	put(0x408, 0x8877665544332211ull);
	put(0x410, 0xffeeddccbbaa9988ull);
	assert_int_equal(l1d_load(&c, ram, 0x40c, 8), 0xbbaa998888776655ull);
	assert_int_equal(c.misses, 2);
	put(0x410, 0);
	assert_int_equal(l1d_load(&c, ram, 0x40c, 8), 0xbbaa998888776655ull);
	l1d_drop(&c, 0x40e, 4); /* both lines */
	put(0x408, 0);
	assert_int_equal(l1d_load(&c, ram, 0x40c, 8), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_stale_copy, setup),
		cmocka_unit_test_setup(test_own_store, setup),
		cmocka_unit_test_setup(test_lru, setup),
		cmocka_unit_test_setup(test_across_lines, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
