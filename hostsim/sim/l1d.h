/*
 * A hart's copy of Ariane's L1D data that misses invalidations (--machine
 * openpiton --inject lost-inval: docs/hostsim.md "Machine profiles").
 *
 * OpenPiton keeps Ariane's write-through L1D coherent: the L1.5 forwards the
 * L2 directory's invalidations to it.  The pinned Ariane under Verilator 5
 * loses them (docs/findings.md): a line another tile stores to stays in the
 * L1D, and `fence` does not flush it; only switching Ariane's DCACHE CSR
 * 0x701 off and on does.  This table is the data of one such L1D, with the
 * RTL's geometry (OpenPiton's l15.tmp.h:
 * CONFIG_L1D_SIZE 8192, CONFIG_L1D_ASSOCIATIVITY 4,
 * CONFIG_L1D_CACHELINE_WIDTH 128): 4 ways x 128 sets of 16-byte lines,
 * 8 KiB, indexed by the line's address.  Replacement is LRU (Ariane's
 * wt_dcache picks a random way by an LFSR once all ways are valid: LRU
 * keeps runs deterministic and independent of the seed).
 *
 * A load reads the line's copy when it holds one, else fills a copy from
 * RAM (evicting the least recently used way of the set).  The hart's own
 * stores write RAM (write-through) and update its copy when present, with
 * no allocation; another hart's store drops the copy only when its
 * invalidation is not lost (wmem.c rolls the fault's rate for each).  The table knows
 * nothing of harts or RAM beyond the pointer a load passes: wmem.c keeps
 * one per hart and calls it.
 */
#ifndef HOSTSIM_L1D_H
#define HOSTSIM_L1D_H

#include <stdint.h>

#define L1D_LINE 16u
#define L1D_WAYS 4u
#define L1D_SETS 128u

struct l1d_line {
	uint64_t tag;             /* RAM offset / L1D_LINE + 1; 0: empty */
	uint64_t used;            /* LRU stamp */
	uint8_t data[L1D_LINE];
};

struct l1d {
	struct l1d_line set[L1D_SETS][L1D_WAYS];
	uint64_t tick;
	uint64_t hits, misses;    /* loads, per line touched */
	uint64_t stale_hits;      /* hits whose bytes differed from RAM's */
	uint64_t clears;          /* l1d_clear calls */
};

/* Every line empty (the flush: CSR 0x701 switched off or on). */
void l1d_clear(struct l1d *c);
/* A load of [off, off+size) (size 1..8, may cross a line): the copies'
 * bytes, missing lines filled from ram + their offset. */
uint64_t l1d_load(struct l1d *c, const uint8_t *ram, uint64_t off, unsigned size);
/* The hart's own store of [off, off+size): its copies updated where present. */
void l1d_store(struct l1d *c, uint64_t off, unsigned size, uint64_t v);
/* The lines holding [off, off+size) dropped (an AMO, LR or SC; a delivered
 * invalidation). */
void l1d_drop(struct l1d *c, uint64_t off, unsigned size);
/* 1 when a line holding part of [off, off+size) is in the copy. */
int l1d_holds(struct l1d *c, uint64_t off, unsigned size);

#endif
