/*
 * The timing scheduler's choice (machine.c, docs/hostsim.md "Scheduler"):
 * the hart with the smallest clock, ties to the lowest id, and the
 * next-smallest clock, kept in a tournament tree instead of a scan of every
 * hart per turn.  Leaves are the harts in id order (padded to a power of two
 * with empty leaves whose clock is UINT64_MAX and whose id is above every
 * hart's); each inner node holds the winner of its two children (the
 * smaller clock, ties to the left child, which has the lower id) and the
 * second-smallest clock of its subtree.  So the root holds the hart a scan
 * for the smallest clock (first on ties) picks, and the smallest clock of
 * the others.  Only the running hart's clock changes during its turn, so
 * one path is replayed per turn: O(log harts).
 */
#ifndef HOSTSIM_SCHED_H
#define HOSTSIM_SCHED_H

#include <stdint.h>

#define SCHED_MAX 64 /* harts */

struct sched {
	unsigned size;                /* leaves: a power of two >= the harts */
	uint8_t node[2 * SCHED_MAX];  /* node[size + i] = leaf i; node[1] = root */
	uint64_t sec[2 * SCHED_MAX];  /* second-smallest clock under node k */
	uint64_t clk[SCHED_MAX + 1];  /* the harts' clocks; [SCHED_MAX] = an empty leaf's */
};

static inline __attribute__((always_inline)) void sched_node(struct sched *q, unsigned k)
{
	unsigned a = q->node[2 * k], b = q->node[2 * k + 1];
	uint64_t ca = q->clk[a], cb = q->clk[b];
	if (cb < ca) {
		q->node[k] = (uint8_t)b;
		q->sec[k] = ca < q->sec[2 * k + 1] ? ca : q->sec[2 * k + 1];
	} else {
		q->node[k] = (uint8_t)a;
		q->sec[k] = cb < q->sec[2 * k] ? cb : q->sec[2 * k];
	}
}

/* n harts (1..SCHED_MAX) with clocks clk[0..n-1]. */
static inline void sched_init(struct sched *q, unsigned n, const uint64_t *clk)
{
	q->size = 1;
	while (q->size < n)
		q->size <<= 1;
	for (unsigned i = 0; i < n; i++)
		q->clk[i] = clk[i];
	q->clk[SCHED_MAX] = UINT64_MAX;
	for (unsigned i = 0; i < q->size; i++) {
		q->node[q->size + i] = (uint8_t)(i < n ? i : SCHED_MAX);
		q->sec[q->size + i] = UINT64_MAX;
	}
	for (unsigned k = q->size - 1; k >= 1; k--)
		sched_node(q, k);
}

/* The hart to run, and the smallest clock of the others (UINT64_MAX: none). */
static inline unsigned sched_best(const struct sched *q) { return q->node[1]; }
static inline uint64_t sched_second(const struct sched *q) { return q->sec[1]; }

/* Hart i's clock is now c: replay its path to the root. */
static inline void sched_update(struct sched *q, unsigned i, uint64_t c)
{
	q->clk[i] = c;
	for (unsigned k = (q->size + i) >> 1; k >= 1; k >>= 1)
		sched_node(q, k);
}

#endif
