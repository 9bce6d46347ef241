/* hostsim's MSHR ring (sim/mshr.h) against the multiset of (completion,
 * line) entries it stands for: random misses (each takes the oldest entry,
 * or the latest when every entry is free) and merges that complete later,
 * with completion times drawn around the current ones so that entries
 * often complete out of order, for 1, 3, 8 and 16 MSHRs.  After every step the ring is in completion order from
 * mshr_head, mshr_min / mshr_max are its ends, and it holds exactly the
 * reference's entries.  Completion times here are all distinct (the step
 * in the low bits): of entries tied at the oldest, the core's ring and the
 * reference may drop different ones, and no result can tell which (the
 * core replaces the oldest entry only when it is free, or after waiting
 * for it, and then its twins are free too). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "sim/mshr.h"

struct ent { uint64_t done, line; };

static int by_done_line(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;
	if (x->done != y->done)
		return x->done < y->done ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static void check(const struct sim_hart *h, const struct ent *ref, unsigned n, unsigned step)
{
	struct ent got[16], want[16];
	for (unsigned k = 0; k < n; k++) {
		unsigned i = (h->mshr_head + k) % n;
		got[k] = (struct ent){ h->mshr[i], h->mshr_line[i] };
		if (k && got[k].done < got[k - 1].done)
			fail_msg("n %u step %u: rank %u completes at %llu, before rank %u (%llu)", n, step, k,
			         (unsigned long long)got[k].done, k - 1, (unsigned long long)got[k - 1].done);
		want[k] = ref[k];
	}
	if (h->mshr_min != got[0].done || h->mshr_max != got[n - 1].done)
		fail_msg("n %u step %u: min/max %llu/%llu, ring ends %llu/%llu", n, step,
		         (unsigned long long)h->mshr_min, (unsigned long long)h->mshr_max,
		         (unsigned long long)got[0].done, (unsigned long long)got[n - 1].done);
	qsort(got, n, sizeof *got, by_done_line);
	qsort(want, n, sizeof *want, by_done_line);
	for (unsigned k = 0; k < n; k++)
		if (got[k].done != want[k].done || got[k].line != want[k].line)
			fail_msg("n %u step %u: entry %u is (%llu, %llu), the multiset has (%llu, %llu)", n, step, k,
			         (unsigned long long)got[k].done, (unsigned long long)got[k].line,
			         (unsigned long long)want[k].done, (unsigned long long)want[k].line);
}

static void test_mshr_ring(void **state)
{
	(void)state;
	static const unsigned ns[] = { 1, 3, 8, 16 };
	uint64_t rnd = 0x2545f4914f6cdd1dull;
	static struct sim_hart hart;
	struct sim_hart *h = &hart;
	for (unsigned ni = 0; ni < sizeof ns / sizeof ns[0]; ni++) {
		const unsigned n = ns[ni];
		struct ent ref[16] = { { 0, 0 } }; /* every entry free: completes at 0 */
		memset(h, 0, sizeof *h);
		uint64_t now = 100, line = 1;
		unsigned raised = 0, moved = 0, free_takes = 0;
		for (unsigned step = 0; step < 20000; step++) {
			rnd ^= rnd << 13;
			rnd ^= rnd >> 7;
			rnd ^= rnd << 17;
			/* now and then every entry is free by now */
			now = (rnd >> 4) % 16 == 0 ? (h->mshr_max >> 20) + rnd % 8 : now + rnd % 8;
			if ((rnd >> 8) % 4 == 0) {
				/* a merge into a random entry that then completes later */
				unsigned i = (unsigned)(rnd >> 16) % n;
				uint64_t done = ((h->mshr[i] >> 20) + 1 + (rnd >> 24) % 200) << 20 | step;
				for (unsigned k = 0; k < n; k++)
					if (ref[k].done == h->mshr[i] && ref[k].line == h->mshr_line[i]) {
						ref[k].done = done;
						break;
					}
				mshr_place(h, i, done, h->mshr_line[i], n);
				raised++;
			} else {
				/* a miss: the reference drops its oldest entry, or
				 * its latest when every entry is free (what
				 * mshr_take_free is for) */
				uint64_t done = (now + 20 + (rnd >> 24) % 300) << 20 | step;
				int all_free = h->mshr_max < now << 20;
				unsigned o = 0;
				for (unsigned k = 1; k < n; k++)
					if (all_free ? ref[k].done > ref[o].done : ref[k].done < ref[o].done)
						o = k;
				ref[o] = (struct ent){ done, line };
				if (all_free) {
					mshr_take_free(h, done, line++, n);
					free_takes++;
				} else {
					moved += done < h->mshr_max;
					mshr_take(h, done, line++, n);
				}
			}
			check(h, ref, n, step);
		}
		/* both ways of moving happened often (a ring of one never moves),
		 * and misses with every entry free */
		assert_true(raised > 1000);
		assert_true(free_takes > 500);
		if (n > 1)
			assert_true(moved > 1000);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mshr_ring),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
