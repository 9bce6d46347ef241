/*
 * The suites table.  Adding a suite = its own file defining
 * `const struct suite <name>_suite`, one line in suites.c's SUITES() and its
 * name in rvmess/suite_list.h (the config bit).  A suite either runs on the
 * lead only or, when its `all_harts` says so for this config, on every live
 * hart in turn (the others wait at the rendezvous), or `together` on every
 * live hart at once.
 */
#ifndef RVMESS_SUITES_H
#define RVMESS_SUITES_H

#include <stdint.h>

#include "rvmess/config.h"
#include "rvmess/rt.h"

struct suite {
	const char *name;
	uint32_t bit;                                  /* RVM_SUITE_* */
	void (*run)(void);                             /* on the calling hart */
	int (*all_harts)(const struct rvm_config *c);  /* NULL: lead only */
	int together;  /* every live hart runs it at the same time (roles by hart) */
};

void suites_check(const struct rvm_config *c);   /* warn about selected suites not built in */
void suites_run_all(void);                       /* lead */
/* A follower's part of CMD_RUN (arg = hartid << 8 | suite: that hart's
 * turn) or CMD_RUN_ALL (arg = suite: every live hart at once). */
void suites_follow(uint32_t cmd, uint32_t arg);

/* ---- shared by the suites (suites/chain.c) ---- */

/* One random single cycle over n elements `stride` bytes apart (Sattolo, in place). */
void chain_random(void *base, uint64_t n, uint64_t stride, uint64_t seed);
/* lmbench's backward chain: element i -> i - 1, element 0 -> n - 1. */
void chain_stride(void *base, uint64_t n, uint64_t stride);
/* Both are called inside a set-up phase (pm_setup_phase(1)) and end with
 * one timed pass over the elements in address order (see chain_random). */
/* 0 if following `base` returns to it after exactly n steps, staying on elements. */
int chain_check(void *base, uint64_t n, uint64_t stride, uint64_t *bad_at, uint64_t *bad_val);

/* lmbench lat_mem_rd size steps */
uint64_t lm_step(uint64_t k);

/* One measured run of a kernel. */
struct meas {
	uint64_t loads, cycles, instret, ticks, ns;
};
/* The measurement between two stamps, over `loads` loads. */
void meas_take(struct meas *m, const struct stamp *a, const struct stamp *b, uint64_t loads);
/* The timing fields every measuring record carries:
 * loads cycles ticks ns cpl nspl. */
void rec_meas(struct rec *r, const struct meas *m);
/* Cost used to rank and compare measurements: cycles if they count, else ticks. */
uint64_t meas_cost(const struct meas *m);
/* Median (by cost) of n measurements; sorts in place; returns the median one. */
const struct meas *meas_median(struct meas *m, uint32_t n);
uint64_t round_up(uint64_t v, uint64_t unit);

#define MAX_REPS 100

/* progress: `prog` record when done crosses a 10 % step */
void prog_note(const char *suite, uint32_t done, uint32_t total);

/* An integrity check's tally: words compared, how many were wrong, and the
 * first wrong one (its address, the value it should hold when the check
 * knows it, the value found). */
struct integ_tally {
	uint64_t words, bad;
	uint64_t addr, want, got;
	uint32_t want_known;
};
/* The integrity checks of a ring built by chain_random and numbered by
 * chain_number (tallied in t).  chain_number walks the ring from base once
 * and writes each element's place along it (0 .. n-1) into its second
 * word; chain_pos reads it.  chain_moved: a chase of `loads` pointers that
 * started at the element numbered pos0 must have ended at `end`, the
 * element numbered pos0 + loads (mod n) — a wrong word it followed on the
 * way sends it elsewhere (reported at `end`: the number wanted, the one
 * found; an end off the ring: no number wanted).  chain_cycle: the ring is
 * one cycle of n elements, each numbered by its place from base (a
 * pointer off the ring or closing it early: a wrong word without a known
 * right value; a wrong number: the number wanted). */
void chain_number(void *base, uint64_t n); /* elements of at least 16 bytes */
static inline uint64_t chain_pos(const void *elem) { return ((const volatile uint64_t *)elem)[1]; }
void chain_moved(void *base, uint64_t n, uint64_t stride, uint64_t pos0, uint64_t loads, void *end,
                 struct integ_tally *t);
void chain_cycle(void *base, uint64_t n, uint64_t stride, struct integ_tally *t);
/*
 * Batch means in integers (suites/batch.c): a Mess point's batches of
 * chase loads, each one's cost (cycles or timer ticks).  Sums are kept as
 * deviations from the first batch; the sum of squares saturates.
 */
struct bstats {
	uint64_t n, sum, ref, sq; /* batches, sum of costs, the first cost, sum of squared deviations */
	int64_t dev;              /* sum of deviations from the first cost */
};
void bs_add(struct bstats *s, uint64_t x);
/* The sum of squares about the mean (variance = this / (n - 1)). */
uint64_t bs_ss(const struct bstats *s);
/* Student's t, 0.975 quantile, x 1000, for df degrees of freedom (0 for df 0). */
uint64_t bs_t975_milli(uint64_t df);
uint64_t bs_isqrt(uint64_t v);
/* Half-width of the 95 % interval of the mean cost, x 1000 (t(n-1) x s /
 * sqrt(n)); UINT64_MAX below two batches. */
uint64_t bs_half_milli(const struct bstats *s);
/* 1 when that half-width is at most tol_ppm millionths of the mean (two
 * batches at least). */
int bs_within(const struct bstats *s, uint64_t tol_ppm);
/* Whether the batch means are independent, as the interval assumes: the
 * variance of the sums of consecutive pairs (batches 1+2, 3+4, ...) over
 * twice the batches' own, x 1000: 1 + their lag-1 correlation (about 1000
 * when independent; well above, the batches are shorter than the memory's
 * own slow changes and the interval too narrow).  UINT64_MAX below four
 * pairs or with no variance. */
uint64_t bs_vr_milli(const struct bstats *x, const struct bstats *pairs);
/* Whether a window is still moving: the means of the first and the last
 * n/2 of its n batch costs x[] differ by more than twice the window's
 * half-width (half_milli, bs_half_milli()) and by more than half of tol_ppm
 * of the mean.  0 below four batches. */
int bs_halves_differ(const uint64_t *x, uint64_t n, uint64_t half_milli, uint64_t tol_ppm);

/* Count one wrong word (the first one is kept). */
void integ_bad(struct integ_tally *t, uint64_t addr, int want_known, uint64_t want, uint64_t got);
/* The `integ` record of check `check` as seen by hart `hart`; a tally with
 * wrong words also counts as an error (the run fails). */
void integ_emit(const char *check, uint32_t hart, const struct integ_tally *t);

#endif
