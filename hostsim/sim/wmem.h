/*
 * hostsim weak memory and fault injection (docs/hostsim.md, "Memory order
 * and injected faults").
 *
 * Active (s->wm != NULL) with --memory-order tso|rvwmo or any --inject
 * (lost-inval: the per-hart L1D copies of l1d.h, which wm_load consults,
 * on --machine openpiton); the core then runs its weak
 * path (cpu.c), which sends every RAM store through a per-hart functional
 * store buffer: an entry becomes visible (is written
 * to RAM) when its memsys completion time has passed and, under tso, every
 * older entry of the hart is visible (in order); the hart's own loads
 * forward from it.  Under sc an entry is due when it issues, so it is
 * written at once.
 *
 * rvwmo: entries drain in the order they are due (plus a seeded jitter),
 * except that a store never passes an older one to the same line, nor one
 * before a fence w,w.  Every write that reaches RAM becomes a version of
 * its 8-byte word in a history of the last commits, numbered in commit
 * order; a load may read a version older than the newest (ver_load) within
 * the limits of views in the style of the Promising-ARM/RISC-V model: the
 * hart's register views (address dependencies), vr_new (raised by fences
 * whose predecessor set holds R or W and successor set R, by AMOs and
 * LR/SC) and coherence (never older than a version the hart has read or
 * written).  docs/hostsim.md lists what is modelled and what is not.
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
/* The same with rvwmo's views: vaddr is the view of the address register,
 * *vpost receives the loaded register's view; dview the view of a store's
 * address and data registers (a load it forwards to inherits it). */
uint64_t wm_load_v(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t now,
                   uint64_t vaddr, uint64_t *vpost);
void wm_store_v(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t v,
                uint64_t due, uint64_t now, uint64_t dview);
/* rvwmo: the hart's register views (33 entries, x[32] the sink). */
uint64_t *wm_regview(struct sim *s, struct sim_hart *h);
/* rvwmo: a fence (bits: the encoding's fm|pred|succ, instruction >> 20).
 * heap_passes: it orders only the stores below the heap (wrong-ack fired,
 * or fence-noop: the heap's count as drained). */
void wm_fence(struct sim *s, struct sim_hart *h, unsigned bits, int heap_passes);
/* rvwmo: after an AMO or LR/SC (both drain the buffer first): later loads
 * read versions at least as new as every commit so far.  Returns that view. */
uint64_t wm_sync(struct sim *s, struct sim_hart *h);
/* An AMO's or SC's write: to RAM now (a version under rvwmo; the faults
 * on buffered stores do not act on it). */
void wm_write(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t v, uint64_t now);
/* wrong-ack: does this ordering point (fence, AMO, LR/SC) at `now` take
 * the hart's buffered stores as drained while they are not?  (only when
 * some are buffered, all to the heap; they then become visible WM_ACK_LAG
 * cycles after now at the earliest) */
int wm_wrong_ack(struct sim *s, struct sim_hart *h, uint64_t now);
/* Buffer a store visible from `due` whatever the memory order (an AMO's
 * lagging store under amo-nonatomic). */
void wm_defer(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t v,
              uint64_t due, uint64_t now);
/* Does an injected fault fire for this event?  (fault id SIM_F_*, RAM offset
 * of the access or ~0 for none; counts it when it does.) */
int wm_fault(struct sim *s, unsigned fault, uint64_t off);

/* Cycles an AMO's store lags behind its load under amo-nonatomic. */
#define WM_AMO_LAG 40
/* Cycles between a wrong-ack and the stores' visibility. */
#define WM_ACK_LAG 200
/* rvwmo: extra cycles (0..N-1, seeded) a store may take to drain, and how
 * long after a newer version became visible a load may still read the one
 * before it. */
#define WM_RV_JITTER 64
#define WM_RV_WINDOW 500

/* --inject lost-inval (l1d.h): an AMO, LR or SC by h drops h's copy of the
 * line(s) of [off, off+size); CSR 0x701 switched off or on clears h's
 * table (no-ops without the model). */
void wm_l1d_drop(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size);
/* --inject lost-inval: h wrote [off, off+size); every other hart's L1D copy
 * of the lines is dropped unless the fault loses that invalidation. */
void wm_l1d_inval(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size);
void wm_l1d_clear(struct sim *s, struct sim_hart *h);

void wm_print_stats(const struct sim *s, FILE *f);

#endif
