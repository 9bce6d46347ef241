/*
 * The rvmess config block: what one boot of the image runs.
 *
 * The block lives in its own ELF section (.rvmess_config) so that the host
 * tool (`rvmess config IMAGE key=value ...`) can rewrite it in an existing
 * image: RTL simulations have no input channel and rebuilding is slow.
 *
 * This header is shared by the firmware (freestanding) and the host tool.
 * Layout rules: fixed-width little-endian fields, no pointers, explicit
 * padding, the size is checked at compile time on both sides.  Any change
 * of layout bumps RVM_CFG_VERSION; the host refuses a block whose magic,
 * version or size it does not know.
 */
#ifndef RVMESS_CONFIG_H
#define RVMESS_CONFIG_H

#include <stdint.h>

#define RVM_CFG_MAGIC   0x3147464d56520a00ull /* "\0\nRVMFG1" little-endian */
#define RVM_CFG_VERSION 6u
#define RVM_CFG_SECTION ".rvmess_config"

/* suites bitmask: RVM_SUITE_CHASE ..., RVM_SUITE_ALL */
#include "rvmess/suite_list.h"

#define RVM_CFG_MAX_STRIDES 8
#define RVM_CFG_MAX_MIXES   51 /* 0..100 % stores, step 2 */
#define RVM_CFG_MAX_PAUSES  48

struct rvm_config {
	uint64_t magic;          /* RVM_CFG_MAGIC */
	uint32_t version;        /* RVM_CFG_VERSION */
	uint32_t size;           /* sizeof(struct rvm_config) */

	/* general */
	uint32_t suites;         /* RVM_SUITE_* bits */
	uint32_t reps;           /* measured repetitions per point (>= 1) */
	uint32_t warmups;        /* unmeasured runs before the first rep */
	uint32_t timeout_ms;     /* rendezvous timeout before a hart is declared missing */
	uint32_t max_harts;      /* use at most this many harts (0 = all in the FDT) */
	uint32_t seed;           /* PRNG seed for random chains */

	/* chase: random single-cycle chase over 64-byte lines */
	uint64_t chase_size;     /* bytes */
	uint64_t chase_loads;    /* loads per measurement (rounded up to 100) */
	uint32_t chase_all_harts;/* 1: every hart runs the chase in turn; 0: lead only */
	uint32_t inject_hang;    /* fault injection for tests: hartid + 1 of a hart that never
	                          * arrives at the first rendezvous; 0 = none */

	/* lat: lmbench lat_mem_rd */
	uint64_t lat_max;        /* largest size, bytes (sizes from 512 B, lmbench steps) */
	uint64_t lat_loads;      /* minimum loads per point (rounded up to 100) */
	uint32_t lat_nstrides;
	uint32_t lat_strides[RVM_CFG_MAX_STRIDES];
	uint32_t lat_random;     /* 1: also measure a random chain per size */

	/* par: lmbench par_mem */
	uint64_t par_max;        /* largest size, bytes */
	uint32_t par_kmax;       /* chains 1..kmax (<= 16) */
	uint32_t pad1;

	/* mess: bandwidth-latency curves (issue: mess suite) */
	uint64_t mess_chase_size;   /* chase array on the lead hart, bytes */
	uint64_t mess_gen_size;     /* per-generator array size (each of load and store), bytes */
	uint64_t mess_window_loads; /* chase loads per measured window */
	uint32_t mess_nmix;
	uint8_t  mess_mix[RVM_CFG_MAX_MIXES + 1]; /* store percentage per curve, even, 0..100 */
	uint32_t mess_npause;
	uint32_t mess_pause[RVM_CFG_MAX_PAUSES];  /* nop-loop counts */

	/* litmus: memory-model and atomicity tests (firmware/suites/litmus_tests.h) */
	uint32_t litmus_iters;   /* iterations per test */
	uint32_t litmus_delay;   /* largest random start delay per thread, loop turns */
	uint32_t litmus_test;    /* 0: every test; N: only test N (1-based, table order) */

	/* integ: integrity checks on every hart (firmware/suites/integ.c) */
	uint32_t integ_rounds;   /* shared-line stress rounds */
	uint32_t integ_lines;    /* lines every group of 8 harts shares */
	uint32_t integ_msgs;     /* messages each hart sends through its ring */
	uint32_t integ_slots;    /* slots (lines) per ring */
	uint32_t integ_delay;    /* largest random delay, loop turns */
	uint32_t inject_corrupt; /* fault injection for tests: 1 = the Mess suite plants a wrong
	                          * word in each memory its checks watch, at the first point */

	/* waits for another hart's store (firmware/wait.c) */
	uint32_t wait_flush;     /* 1: flush before every read of a wait from the start */
	uint32_t stale_cycles;   /* a store invisible this long is reported; waits flush then */
	uint32_t mess_share;     /* mess: 1 = the generators' load arrays are the chase ring */

	/* mess: when a point's window ends (firmware/suites/mess.c, docs/mess.md) */
	uint32_t mess_tol;          /* 95 % interval half-width / mean, ppm; 0: fixed window */
	uint32_t mess_batch_loads;  /* chase loads per batch (timed unit of warm-up and window) */
	uint64_t mess_min_loads;    /* adaptive window: at least this many loads */
	uint64_t mess_max_loads;    /* adaptive window: at most this many loads */
	uint32_t mess_check;        /* generators check 1 line in N after a point (1: every line) */
	uint32_t pad2;
};

#ifdef __cplusplus
#define RVM_STATIC_ASSERT static_assert
#else
#define RVM_STATIC_ASSERT _Static_assert
#endif
RVM_STATIC_ASSERT(sizeof(struct rvm_config) == 496, "rvm_config layout changed: bump RVM_CFG_VERSION");
RVM_STATIC_ASSERT(RVM_SUITE_CHASE == 1 && RVM_SUITE_LAT == 2 && RVM_SUITE_PAR == 4 &&
                  RVM_SUITE_MESS == 8 && RVM_SUITE_CHECK == 16 &&
                  RVM_SUITE_LITMUS == 32 && RVM_SUITE_INTEG == 64,
                  "suite bits are part of the config block: append new suites to RVM_SUITE_LIST");

#endif
