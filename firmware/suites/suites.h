/*
 * The suites table.  Adding a suite = one file with a `void run(void)` and
 * one line in suites.c.  A suite either runs on the lead only or, when its
 * `all_harts` says so for this config, on every live hart in turn (the
 * others wait at the rendezvous).
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

extern const struct suite rvm_suites[];
extern const uint32_t rvm_nsuites;

void suites_check(const struct rvm_config *c);   /* warn about selected suites not built in */
void suites_run_all(void);                       /* lead */
void suite_run_here(uint32_t idx);               /* a non-lead hart's turn */

/* suite entry points */
void suite_chase(void);
void suite_lat(void);
void suite_par(void);
void suite_mess(void);

/* ---- shared by the suites (suites/chain.c) ---- */

/* One random single cycle over n elements `stride` bytes apart (Sattolo, in place). */
void chain_random(void *base, uint64_t n, uint64_t stride, uint64_t seed);
/* lmbench's backward chain: element i -> i - 1, element 0 -> n - 1. */
void chain_stride(void *base, uint64_t n, uint64_t stride);
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

#endif
