/*
 * A hart's MSHRs in timing mode (struct sim_hart: mshr, mshr_line,
 * mshr_head, mshr_min, mshr_max), kept by the core (cpu.c) and tested
 * against a plain multiset by hostsim/tests/test_sim_mshr.c.
 */
#ifndef HOSTSIM_MSHR_H
#define HOSTSIM_MSHR_H

#include "sim/sim.h"

/*
 * The MSHRs: n entries (completion cycle, line) in a ring sorted by
 * completion, the oldest at mshr_head.  Which MSHR a miss takes changes no
 * result, only the set of busy entries does (a free entry's line matters to
 * nothing: a merge needs a busy one, and a hart's issue cycles never go
 * back), so a miss always takes the oldest entry: it is free whenever any
 * is, and the one to wait for when none is.  In a full steady stream (each
 * miss completing after the others) that is the ring's next step and no
 * entry moves.
 */
static inline __attribute__((always_inline)) unsigned mshr_next(unsigned i, unsigned n) { return i + 1 == n ? 0 : i + 1; }
static inline __attribute__((always_inline)) unsigned mshr_prev(unsigned i, unsigned n) { return i ? i - 1 : n - 1; }

/* Entry i of the ring now holds (done, line): it moves to its place in
 * completion order, back past the entries that complete later (a miss
 * that completes before others) or on past those that complete earlier (a
 * merge that completes later). */
static __attribute__((noinline)) void mshr_place(struct sim_hart *h, unsigned i, uint64_t done, uint64_t line,
                                                 unsigned n)
{
	unsigned head = h->mshr_head, last = mshr_prev(head, n), q;
	for (; i != head && h->mshr[q = mshr_prev(i, n)] > done; i = q) {
		h->mshr[i] = h->mshr[q];
		h->mshr_line[i] = h->mshr_line[q];
	}
	for (; i != last && h->mshr[q = mshr_next(i, n)] < done; i = q) {
		h->mshr[i] = h->mshr[q];
		h->mshr_line[i] = h->mshr_line[q];
	}
	h->mshr[i] = done;
	h->mshr_line[i] = line;
	h->mshr_min = h->mshr[head];
	h->mshr_max = h->mshr[last];
}

/* A miss takes the oldest entry: (done, line) in its place, which is the
 * ring's last once mshr_head moves on (no entry moves when it completes
 * last: dependent misses, a full stream). */
static inline __attribute__((always_inline)) void mshr_take(struct sim_hart *h, uint64_t done, uint64_t line, unsigned n)
{
	unsigned last = h->mshr_head;
	h->mshr_head = mshr_next(last, n);
	if (__builtin_expect(done < h->mshr_max, 0)) {
		mshr_place(h, last, done, line, n);
		return;
	}
	h->mshr[last] = done;
	h->mshr_line[last] = line;
	h->mshr_max = done;
	h->mshr_min = h->mshr[h->mshr_head];
}

/* The same when every entry is free (mshr_max <= the miss's issue cycle,
 * which done is after): the last entry, which is free, takes it instead
 * of the oldest, and the order holds with no step of the head (dependent
 * misses, one at a time). */
static inline __attribute__((always_inline)) void mshr_take_free(struct sim_hart *h, uint64_t done, uint64_t line,
                                                                  unsigned n)
{
	unsigned last = mshr_prev(h->mshr_head, n);
	h->mshr[last] = done;
	h->mshr_line[last] = line;
	h->mshr_max = done;
	if (n == 1)
		h->mshr_min = done;
}

#endif
