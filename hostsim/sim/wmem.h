/*
 * hostsim weak memory and fault injection (docs/hostsim.md, "Memory order
 * and injected faults").
 *
 * Active (s->wm != NULL) with --memory-order tso or any --inject; the core
 * then runs its weak path (cpu.c), which sends every RAM store through a
 * per-hart functional store buffer: an entry becomes visible (is written to
 * RAM) when its memsys completion time has passed and every older entry of
 * the hart is visible (in order), and the hart's own loads forward from it.
 * Under sc an entry is due when it issues, so it is written at once.
 */
#ifndef HOSTSIM_WMEM_H
#define HOSTSIM_WMEM_H

#include <stdint.h>
#include <stdio.h>
#include "sim/sim.h"

/* Set up after the ELF is loaded; 0, or -1 with err. */
int wm_init(struct sim *s, char *err, size_t errlen);
void wm_free(struct sim *s);

/* Make the hart's entries due at or before `now` visible, in order. */
void wm_drain(struct sim *s, struct sim_hart *h, uint64_t now);
/* Make all of the hart's entries visible. */
void wm_drain_all(struct sim *s, struct sim_hart *h);
/* A load of [off, off+size) by h at `now`: forwarding, injected stale values. */
uint64_t wm_load(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t now);
/* A store by h: buffered, visible from `due` (not before the older ones). */
void wm_store(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t v,
              uint64_t due, uint64_t now);
/* Buffer a store visible from `due` whatever the memory order (an AMO's
 * lagging store under amo-nonatomic). */
void wm_defer(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t v,
              uint64_t due, uint64_t now);
/* Does an injected fault fire for this event?  (fault id SIM_F_*, RAM offset
 * of the access or ~0 for none; counts it when it does.) */
int wm_fault(struct sim *s, unsigned fault, uint64_t off);

/* Cycles an AMO's store lags behind its load under amo-nonatomic. */
#define WM_AMO_LAG 40

void wm_print_stats(const struct sim *s, FILE *f);

#endif
