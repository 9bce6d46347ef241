/* hostsim's timing scheduler choice (sim/sched.h) against the scan it
 * replaces: the smallest clock, the lowest id among equal clocks, and the
 * smallest clock of the other harts. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "sim/sched.h"

/* The specification: one pass over the harts, first on ties. */
static void scan(const uint64_t *clk, unsigned n, unsigned *best, uint64_t *second)
{
	unsigned b = 0;
	for (unsigned i = 1; i < n; i++)
		if (clk[i] < clk[b])
			b = i;
	uint64_t c2 = UINT64_MAX;
	for (unsigned i = 0; i < n; i++)
		if (i != b && clk[i] < c2)
			c2 = clk[i];
	*best = b;
	*second = c2;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Every hart count, clocks drawn from a few values (many ties) and
 * advanced like turns: the running hart's clock grows by 0..40. */
static void test_matches_scan(void **state)
{
	(void)state;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	for (unsigned n = 1; n <= SCHED_MAX; n++) {
		uint64_t clk[SCHED_MAX];
		for (unsigned i = 0; i < n; i++)
			clk[i] = rnd(&seed) % 4;
		struct sched q;
		sched_init(&q, n, clk);
		for (unsigned turn = 0; turn < 3000; turn++) {
			unsigned b;
			uint64_t c2;
			scan(clk, n, &b, &c2);
			assert_int_equal(sched_best(&q), b);
			assert_int_equal(sched_second(&q), c2);
			clk[b] += rnd(&seed) % 41;
			sched_update(&q, b, clk[b]);
		}
	}
}

/* Hand cases: ties go to the lowest id, also across subtrees; one hart has
 * no second clock; a hart whose clock is UINT64_MAX still wins over the
 * empty leaves of a padded tree. */
static void test_ties_and_edges(void **state)
{
	(void)state;
	struct sched q;
	uint64_t c5[5] = { 7, 3, 9, 3, 3 };
	sched_init(&q, 5, c5);
	assert_int_equal(sched_best(&q), 1);
	assert_int_equal(sched_second(&q), 3);
	sched_update(&q, 1, 4);     /* 7 4 9 3 3 */
	assert_int_equal(sched_best(&q), 3);
	assert_int_equal(sched_second(&q), 3);
	sched_update(&q, 3, 5);     /* 7 4 9 5 3 */
	assert_int_equal(sched_best(&q), 4);
	assert_int_equal(sched_second(&q), 4);

	uint64_t c1[1] = { 42 };
	sched_init(&q, 1, c1);
	assert_int_equal(sched_best(&q), 0);
	assert_true(sched_second(&q) == UINT64_MAX);

	uint64_t c3[3] = { UINT64_MAX, UINT64_MAX, UINT64_MAX };
	sched_init(&q, 3, c3);
	assert_int_equal(sched_best(&q), 0);
	assert_true(sched_second(&q) == UINT64_MAX);
	sched_update(&q, 2, 10);
	assert_int_equal(sched_best(&q), 2);
	assert_true(sched_second(&q) == UINT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matches_scan),
		cmocka_unit_test(test_ties_and_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
