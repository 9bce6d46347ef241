/*
 * The timing scheduler's choice (machine.c, docs/hostsim.md "Scheduler"):
 * the hart with the smallest clock, ties to the lowest id, and the
 * next-smallest clock, without a scan of every hart per turn.
 *
 * The harts are kept sorted by (clock, id) in a run of entries that slides
 * along a buffer: the front entry is the hart to run and the next one
 * holds the second-smallest clock.  Only the
 * running hart's clock changes during its turn, and it almost always ends
 * the turn past the next-smallest clock (its turn runs until then), among
 * the last harts of the order: so an update takes the running hart off the
 * front of the run and inserts it again from the back, moving up the few
 * harts whose (clock, id) is larger.  On the Mess config of
 * tools/bench-hostsim.sh at 64 harts an updated hart has 0 to 3 harts above
 * it in 99.8 % of the turns (docs/hostsim.md "Speed"); a hart that stays
 * the smallest stays in front after one comparison.  The worst case, an
 * insertion in the middle, moves up to harts - 1 entries.
 *
 * An entry's key is clock << 64 | id (one 128-bit comparison orders by
 * clock, then id).  One hart alone gets a second entry that never runs,
 * (UINT64_MAX, SCHED_MAX), so "the next entry's clock" needs no test.
 */
#ifndef HOSTSIM_SCHED_H
#define HOSTSIM_SCHED_H

#include <stdint.h>

#define SCHED_MAX 64   /* harts */
#define SCHED_BUF 1024 /* entries of the buffer the sorted run slides along */

typedef unsigned __int128 sched_key;

struct sched {
	sched_key *h;                /* the front: the smallest key */
	sched_key *t;                /* the back: h + n - 1 */
	unsigned n;                  /* entries: the harts (2 with one hart) */
	sched_key e[SCHED_BUF];      /* h[0 .. n-1] ascending, inside e */
};

static inline __attribute__((always_inline)) sched_key sched_mk(uint64_t c, unsigned id)
{
	return (sched_key)c << 64 | id;
}

/* Insert key k into the run f[0 .. j-1], which is sorted, f[j] being free,
 * from the back; the caller knows that k is larger than f[0], which stops
 * the walk. */
static inline __attribute__((always_inline)) void sched_insert(sched_key *f, unsigned j, sched_key k)
{
	sched_key *p = f + j;
	while (p[-1] > k) {
		p[0] = p[-1];
		p--;
	}
	p[0] = k;
}

/* n harts (1..SCHED_MAX) with clocks clk[0..n-1]. */
static inline void sched_init(struct sched *q, unsigned n, const uint64_t *clk)
{
	q->h = q->e;
	q->e[0] = sched_mk(clk[0], 0);
	for (unsigned i = 1; i < n; i++) {
		sched_key k = sched_mk(clk[i], i);
		if (k > q->e[0]) {
			sched_insert(q->e, i, k);
		} else { /* smaller than every entry so far: the others move up */
			for (unsigned j = i; j > 0; j--)
				q->e[j] = q->e[j - 1];
			q->e[0] = k;
		}
	}
	if (n == 1)
		q->e[n++] = sched_mk(UINT64_MAX, SCHED_MAX);
	q->n = n;
	q->t = q->e + n - 1;
}

/* The hart to run, and the smallest clock of the others (UINT64_MAX: none). */
static inline unsigned sched_best(const struct sched *q) { return (unsigned)q->h[0]; }
static inline uint64_t sched_second(const struct sched *q) { return (uint64_t)(q->h[1] >> 64); }

/* Any hart's clock changed (off the scheduler's path: an O(harts) walk). */
static __attribute__((noinline, unused)) void sched_update_any(struct sched *q, unsigned i, uint64_t c)
{
	sched_key *f = q->h;
	unsigned k = 0;
	while ((unsigned)f[k] != i)
		k++;
	/* take it out: the entries after it move down one */
	for (; k + 1 < q->n; k++)
		f[k] = f[k + 1];
	/* and in again: from the back, or in front */
	sched_key key = sched_mk(c, i);
	if (key > f[0]) {
		sched_insert(f, q->n - 1, key);
	} else {
		for (k = q->n - 1; k > 0; k--)
			f[k] = f[k - 1];
		f[0] = key;
	}
}

/* The hart to run (sched_best) has clock c now: the scheduler's case.  It
 * stays in front when it is still the smallest, else it leaves the front
 * (the run slides up one entry) and goes in from the back; at the end of
 * the buffer the run moves back to its start (once in SCHED_BUF - harts
 * turns). */
static inline void sched_update_best(struct sched *q, uint64_t c)
{
	sched_key *f = q->h;
	sched_key k = sched_mk(c, (unsigned)f[0]);
	if (k < f[1]) {
		f[0] = k;
		return;
	}
	f++;
	sched_key *t = q->t + 1;
	if (__builtin_expect(t == q->e + SCHED_BUF, 0)) {
		for (unsigned j = 0; j + 1 < q->n; j++)
			q->e[j] = f[j];
		f = q->e;
		t = f + q->n - 1;
	}
	q->h = f;
	q->t = t;
	sched_insert(t, 0, k);
}

/* Hart i's clock is now c. */
static inline void sched_update(struct sched *q, unsigned i, uint64_t c)
{
	if (i == sched_best(q))
		sched_update_best(q, c);
	else
		sched_update_any(q, i, c);
}

#endif
