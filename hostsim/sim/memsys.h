/*
 * hostsim memory system: timing, coherence and counters for data accesses.
 *
 * The simulator core keeps the functional RAM (a flat array); this module
 * holds only tags, coherence state, timing and counts.  The core calls
 * memsys_access() for every data load/store/AMO to RAM and uses the returned
 * cycle as the time the data is available (loads) or the line is owned
 * (stores: the core's store buffer may hide it).  See docs/memsys.md.
 *
 * Hierarchy: one private L1D per hart (MESI among the L1s, directory kept in
 * the LLC tags) and one shared INCLUSIVE LLC (an LLC eviction invalidates
 * the L1 copies; a dirty copy is written back with it).  Write-back,
 * write-allocate, true LRU, sets indexed by physical line address.  LLC
 * misses are memory reads, dirty LLC evictions are memory writes, both one
 * line each, served by the selected memory model (memmodel.h: fixed, md1,
 * simple-dram alias dram, ddr, ddr-resv, mess; one file each,
 * memmodel_*.c, the ddr pair's configuration in memmodel_ddr_config.c).
 *
 * Not thread-safe: one memsys is driven by one simulator thread.  At most
 * MEMSYS_MAX_HARTS harts.
 */
#ifndef HOSTSIM_MEMSYS_H
#define HOSTSIM_MEMSYS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/cache.h"

#define MEMSYS_MAX_HARTS 64

struct memsys_cfg {
	unsigned line;          /* line size, bytes (power of two 16..256): 64 */

	uint64_t l1d_size;      /* bytes: 32 KiB */
	unsigned l1d_ways;      /* 8 */
	unsigned l1d_hit;       /* load-to-use on an L1 hit, cycles: 4 */

	uint64_t llc_size;      /* bytes: 2 MiB */
	unsigned llc_ways;      /* 16 */
	unsigned llc_hit;       /* extra cycles on an L1 miss that hits the LLC: 30 */
	unsigned coh_lat;       /* extra cycles when another L1 holds the line
	                           Modified (forced write-back): 20 */
	unsigned pf_dist;       /* stream prefetch into the LLC: lines ahead of
	                           a hart's unit-stride load misses, 0 = off: 0 */
	unsigned pf_streams;    /* pages each hart's prefetcher tracks: 16 */
	unsigned pf_stores;     /* 1: store misses train it too (0: loads only): 0 */
	unsigned lru_age_limit; /* the caches' LRU ages are renumbered once their
	                           use clock passes this (cache.h; a test knob:
	                           no result depends on it): 2^31 */

	char mem_model[32];     /* "fixed" | "md1" | "simple-dram" (alias "dram") | "ddr" | "ddr-resv" | "mess": "dram" */
	unsigned mem_latency;   /* unloaded memory latency, cycles, added after
	                           l1d_hit + llc_hit; for dram: the latency of a
	                           read that finds its bank's row closed by another
	                           row (the random / pointer-chase case): 80 */
	double peak_gbps;       /* md1/dram peak bandwidth, GB/s (1e9 B/s): 25.6 */
	double freq_ghz;        /* core clock, GHz, to turn GB/s and ns into
	                           cycles: 1.0 */

	/* dram model (cycles of the core clock) */
	unsigned dram_channels; /* channels, interleaved by line address: 1 */
	unsigned dram_banks;    /* banks per channel (power of two): 16 */
	unsigned dram_row;      /* row (page) size per bank, bytes: 8192 */
	unsigned dram_trcd;     /* activate to read: 14 */
	unsigned dram_tcl;      /* read to data: 14 */
	unsigned dram_trp;      /* precharge: 14 */
	unsigned dram_trtw;     /* bus turnaround read -> write: 8 */
	unsigned dram_twtr;     /* bus turnaround write -> read
	                           (incl. tWTR): 20 */
	unsigned dram_tfaw;     /* at most four activates per channel in this
	                           many cycles (limits scattered reads): 21 */
	unsigned dram_wq;       /* write queue: writes are posted and drained in
	                           batches of this many lines: 16 */
	unsigned dram_rowbufs;  /* rows per bank that count as open (the most
	                           recent ones): approximates a controller that
	                           batches row hits of interleaved streams
	                           (FR-FCFS); 1 = strict open-page: 4 */

	/* ddr models (memmodel_ddr_config.c; docs/memsys.md "The ddr model"): a
	 * preset, and every device value overridable (0 = the preset's) */
	char ddr_preset[32];    /* DDR4-2666 | DDR4-3200 | DDR5-4800 */
	unsigned ddr_channels, ddr_ranks;   /* 1, 1 */
	unsigned ddr_bgs, ddr_banks, ddr_row, ddr_mts, ddr_width; /* 0 = preset */
#define MEMSYS_DDR_NT 20
	unsigned ddr_t[MEMSYS_DDR_NT]; /* timings, nCK (last: burst length) */
	char ddr_page[32];      /* open | closed */
	char ddr_map[32];       /* address fields from the line address up */
	unsigned ddr_xor;       /* bank bits XOR low row bits: 1 */
	unsigned ddr_rq, ddr_wq, ddr_wq_hi, ddr_wq_lo; /* queues: 32 64 48 16 */
	unsigned ddr_cap;       /* starvation cap, bus slots: 64 */
	unsigned ddr_fair;      /* read-queue entries kept for sources with none queued: 0 */
	unsigned ddr_src_rq;    /* read-queue entries one source may hold: 4 (0: up to ddr-rq) */
	unsigned ddr_pf_room;   /* 1: prefetches dropped only when the shares leave no room: 0 */
	unsigned ddr_frontend;  /* LLC <-> controller path, cycles: 40 */

	/* mess model (memmodel_mess.c, docs/mess.md): a measured curve family
	 * replayed by the Mess feedback controller (hostsim/mess/messsim.h) */
	char mess_curves[256];  /* family: bwlat directory, rvmess folder or CSV */
	unsigned mess_window;   /* requests per window: 1000 */
	uint64_t mess_window_cycles; /* ... or this many cycles, first reached: 10000 */
	double mess_conv;       /* convergence factor: 0.05 */
	double mess_onchip;     /* on-chip part of the curves' latency, ns;
	                           -1: l1d-hit + llc-hit cycles at the clock */
	double mess_curve_mhz;  /* curve latencies in cycles at this clock; 0: ns */
	/* every memory transfer as a "cycle r|w address source" line (any model) */
	char trace_mem[256];
	/* per window of profile_window cycles: bandwidth, read share and mean
	 * read latency the image produced (any model; docs/mess.md) */
	char profile_mem[256];
	uint64_t profile_window; /* cycles: 100000 */
};

/* Fill *c with the defaults above. */
void memsys_cfg_default(struct memsys_cfg *c);

/*
 * Set one key from text (for the CLI and config files).  Key names are the
 * option names without "--": memsys's own (line, the l1d-*, llc-*, pf-*
 * keys, coh-lat, lru-age-limit, mem-model, mem-latency, peak-gbps,
 * freq-ghz: the table in memsys.c) and every model's (dram-*, mess-*, in
 * the model's file; ddr-*, memmodel_ddr_config.c) and the trace wrapper's (trace-mem,
 * profile-mem, profile-window: memmodel_trace.c); memsys_cfg_print and
 * `hostsim --help` list them all.  '_' is accepted for '-'.  Sizes take an
 * optional K/M/G suffix (binary).  Returns 0, or -1 with a message naming
 * the key and the reason in err (always NUL-terminated when errlen > 0).
 */
int memsys_cfg_set(struct memsys_cfg *c, const char *key, const char *value,
                   char *err, size_t errlen);

/* Is `key` one of the keys above ('_' accepted for '-')? */
int memsys_cfg_is_key(const char *key);

/* Check a whole configuration (geometry, ranges).  0 or -1 + err. */
int memsys_cfg_check(const struct memsys_cfg *c, char *err, size_t errlen);

/* One line per key: "key value  # meaning" (help text / run record). */
void memsys_cfg_print(const struct memsys_cfg *c, FILE *f);
/* One line per memory model: "  name  what it models" (help text). */
void memsys_models_print(FILE *f);

/*
 * Create a memory system for nharts (1..MEMSYS_MAX_HARTS) harts.  Returns
 * NULL if the configuration is refused (then err says why) or on no memory.
 */
struct memsys *memsys_new(const struct memsys_cfg *cfg, unsigned nharts,
                          char *err, size_t errlen);
void memsys_free(struct memsys *m);

/*
 * The caches' LRU use clocks (cache.h: 32 bits) renumbered where they have
 * passed lru-age-limit (at most 2^31).  The caller calls it at least once
 * every 2^30 uses of a cache (hostsim: every 2^20 simulated instructions,
 * each of which uses a cache at most a few hundred times).
 */
void memsys_check_ages(struct memsys *m);

/*
 * A data access by hart h (0 .. nharts - 1: not checked, the call is on
 * the simulator's hot path) to physical address a, issued at cycle `now`
 * of that hart.  is_write: 0 load, 1 store or AMO (needs the line owned).
 * Returns the cycle at which the data is available to the hart (loads) or
 * the line is owned (stores); always > now.  Accesses are line-granular:
 * the core splits a misaligned access that crosses a line into two calls.
 * A hit on a line whose fill is still in flight returns the fill's arrival.
 * Calls may come slightly out of time order across harts (quanta); results
 * stay causal.
 *
 * MEMSYS_HELD | c: the access was not made (nothing changed, nothing
 * counted): it needs a memory read that the memory controller cannot take
 * before its queue has room (a model with back-pressure at its ingress:
 * ddr).  The core issues it again at cycle c (> now), and meanwhile does
 * not go on past it (an in-order core stalls on it).
 */
#define MEMSYS_HELD (1ull << 63)
/*
 * MEMSYS_PEND | k: a completion not known yet (the ddr model decides a
 * read's commands later than the read arrives; memmodel.h).  Only with
 * memsys_defer() on; the caller keeps the value where it would keep the
 * cycle, treats it as later than every cycle (its issue checks), and asks
 * memsys_resolve() for the cycle once the scheduler has moved time on
 * (memsys_bound, memsys_sync).  k = 0 stands for "any of the hart's".
 */
#define MEMSYS_PEND (1ull << 62)
static inline uint64_t memsys_access(struct memsys *m, unsigned h, uint64_t a, int is_write,
                                     uint64_t now);

/*
 * Completions known later (MEMSYS_PEND; only the ddr model has them).
 * memsys_defer(m, 1): hand them out (a caller with a scheduler: hostsim);
 * returns 0 when the model has none.  Off (the default), memsys runs the
 * controller until each read's completion is known, as if no request
 * could come before it.  memsys_bound(m, c): no hart but the one issuing
 * will send a request issued before cycle c; memsys_sync(m, now): the
 * controller decides what it can, given that and that the issuing hart is
 * at `now` (memsys_sync_to(m, c): given that no hart issues before c);
 * memsys_resolve(m, v): v's cycle, or 0 while unknown (a plain cycle is
 * returned as is); memsys_pend_lb(m): no unknown completion is earlier
 * (UINT64_MAX: none); memsys_known(m): completions found so far (a count
 * that changes when memsys_resolve may give more).
 */
int memsys_defer(struct memsys *m, int on);
void memsys_bound(struct memsys *m, uint64_t c);
void memsys_sync(struct memsys *m, uint64_t now);
int memsys_sync_to(struct memsys *m, uint64_t c); /* 1 when the controller moved on */
uint64_t memsys_resolve(struct memsys *m, uint64_t v);
uint64_t memsys_pend_lb(const struct memsys *m);
uint64_t memsys_known(const struct memsys *m);

/*
 * Per-hart event counts (for HPM counters).  Event ids (mhpmevent values):
 */
enum memsys_event {
	MEMSYS_EV_NONE = 0,
	MEMSYS_EV_L1D_ACCESS = 1,  /* every memsys_access() */
	MEMSYS_EV_L1D_MISS = 2,    /* line not present in this L1 */
	MEMSYS_EV_LLC_ACCESS = 3,  /* L1 misses + upgrades (store to a Shared line) */
	MEMSYS_EV_LLC_MISS = 4,    /* LLC misses = memory reads caused by this hart */
	MEMSYS_EV_LLC_WB = 5,      /* dirty LLC evictions = memory writes caused by this hart */
	MEMSYS_EV_LOAD = 6,
	MEMSYS_EV_STORE = 7,
	MEMSYS_EV_L1D_WB = 8,      /* dirty L1 evictions (to the LLC) */
	MEMSYS_EV_INV_SENT = 9,    /* copies in other L1s invalidated by this hart's stores */
	MEMSYS_EV_INV_RECV = 10,   /* lines of this L1 invalidated by other harts' stores */
	MEMSYS_EV_COH_WB = 11,     /* Modified lines in other L1s forced to write back by
	                              this hart's accesses (intervention) */
	MEMSYS_EV_BACK_INV = 12,   /* lines of this L1 invalidated by LLC evictions */
	MEMSYS_EV_UPGRADE = 13,    /* stores that hit a Shared line in this L1 */
	MEMSYS_EV_COUNT = 14
};
/* Count of `event` for hart h; 0 for unknown ids or harts. */
uint64_t memsys_event(const struct memsys *m, unsigned h, unsigned event);

/* Injected fault (hostsim --inject clean-writeback[:RATE]): the LLC writes
 * back `rate` percent of the clean lines it evicts (extra memory writes and
 * LLC_WB events; drawn from a generator seeded with `seed`); the count of
 * such write-backs. */
void memsys_inject_clean_wb(struct memsys *m, unsigned rate, uint64_t seed);
uint64_t memsys_clean_wb_events(const struct memsys *m);

/* Memory-controller counter block: registers in rvmess/memctl.h (shared
 * with the image); MEMSYS_MMIO_* are the simulator's names for them. */
#include "rvmess/memctl.h"
#define MEMSYS_MMIO_SIZE        RVM_MEMCTL_SIZE
#define MEMSYS_MMIO_READS       RVM_MEMCTL_READS
#define MEMSYS_MMIO_WRITES      RVM_MEMCTL_WRITES
#define MEMSYS_MMIO_BUSY        RVM_MEMCTL_BUSY
#define MEMSYS_MMIO_PEAK        RVM_MEMCTL_PEAK
#define MEMSYS_MMIO_CTRL        RVM_MEMCTL_CTRL
#define MEMSYS_MMIO_FREQ        RVM_MEMCTL_FREQ
#define MEMSYS_MMIO_LINE        RVM_MEMCTL_LINE
#define MEMSYS_MMIO_MAGIC       RVM_MEMCTL_MAGIC
#define MEMSYS_MMIO_MAGIC_VALUE RVM_MEMCTL_MAGIC_VALUE
uint64_t memsys_mmio_read(struct memsys *m, uint64_t off);
void memsys_mmio_write(struct memsys *m, uint64_t off, uint64_t v);

/*
 * Truth for tests: the memory model's own counts of the transfers it
 * served (independent of the counters above, which memsys keeps itself).
 */
struct ddr_stats {
	uint64_t reads, writes, hits, empties, conflicts;
	uint64_t ref_stalls;      /* transfers whose commands a refresh delayed */
	uint64_t rq_waits, rq_wait_t;  /* reads that waited for a read-queue slot; cycles */
	uint64_t wq_waits, wq_wait_t;  /* same for writes */
	uint64_t rq_res_t, wq_res_t;   /* cycles spent in the queues (occupancy x time) */
	uint64_t busy_t;          /* data-bus cycles */
	uint64_t first_t, last_t; /* first request, last data (cycles) */
	uint64_t fwd;             /* reads served from the write queue */
	uint64_t drains;          /* write drains */
	/* ddr's controller (not ddr-resv): */
	uint64_t rtw, wtr;        /* bus turnarounds read -> write, write -> read */
	uint64_t late;            /* requests that came after the controller had decided their time */
	int ctl;
};
struct memsys_model_stats {
	uint64_t reads, writes;   /* line transfers */
	uint64_t busy;            /* cycles, as MMIO BUSY */
	uint64_t row_hits, row_misses, row_conflicts; /* dram, ddr (misses: row empty) */
	int has_ddr;              /* ddr only: */
	struct ddr_stats ddr;     /* (times in core cycles) */
};
void memsys_model_stats(const struct memsys *m, struct memsys_model_stats *s);
/* The ddr lines of memsys_stats (--stats), each starting with `what`. */
void memsys_print_ddr(FILE *f, const char *what, const struct ddr_stats *d);

/* The stream prefetcher's counts (pf-dist): reads it sent, lines of them
 * a demand access used, prefetches dropped because the controller could
 * not take them. */
struct memsys_pf_stats {
	uint64_t reads, used, dropped;
};
void memsys_pf_stats(const struct memsys *m, struct memsys_pf_stats *s);

/* Human-readable summary: config, per-hart events, model counts. */
void memsys_stats(const struct memsys *m, FILE *f);

/* ---- the L1 hit, inline in the caller (the simulator's every load and
 * store); the layout it needs, and memsys.c's entry for the rest --------- */

/* L1 line states (a slot's key & 3): 0 invalid, then MESI's S, E, M */
enum { MEMSYS_L1_S = 1, MEMSYS_L1_E = 2, MEMSYS_L1_M = 3 };

struct ms_hart {
	uint64_t ev[MEMSYS_EV_COUNT];
	struct cache l1;           /* per slot: ready = the cycle its fill completes
	                              (a hit on a line still in flight waits for
	                              it), aux = the LLC slot of its line */
	uint64_t fast_miss;         /* the hart's sharer bit when memsys_access_miss
	                              may take its short path (8-way L1, no
	                              prefetcher to train), else 0 */
	uint64_t pad[7];            /* to 256 bytes: &h[i] is a shift, not a multiply */
};

/* The first member of struct memsys (memsys.c). */
struct memsys_hot {
	struct ms_hart *h;         /* per hart */
	unsigned lshift;           /* log2(line) */
	uint64_t l1_hit;           /* l1d-hit */
};

/* Everything but an L1 hit through the L1's hint slot (memsys.c). */
uint64_t memsys_pend_hit(struct memsys *m, uint64_t *p, uint64_t d, uint64_t now);
uint64_t memsys_access_miss(struct memsys *m, struct ms_hart *H, uint64_t line, int is_write, uint64_t now);

/* Hart h's part of memsys: a caller that keeps it saves finding it at
 * every access (memsys_access_h). */
static inline struct ms_hart *memsys_hart(struct memsys *m, unsigned h)
{
	return &((const struct memsys_hot *)(void *)m)->h[h];
}

/* memsys_access for the hart whose part is H (memsys_hart). */
static inline uint64_t memsys_access_h(struct memsys *m, struct ms_hart *H, uint64_t a, int is_write, uint64_t now)
{
	const struct memsys_hot *k = (const struct memsys_hot *)(void *)m;
	uint64_t line = a >> k->lshift;
	H->ev[is_write ? MEMSYS_EV_STORE : MEMSYS_EV_LOAD]++; /* L1D_ACCESS = LOAD + STORE */
	/* L1 hit through the L1's hint slot, needing no LLC or directory
	 * lookup: a load, or a store to a line held Exclusive (silent
	 * upgrade) or Modified; anything else (the hint slot holds another
	 * line, a store to a Shared line) takes memsys_access_miss, which
	 * finds the same slot when the hint fails (cache.h: only a hint). */
	struct cache *l1 = &H->l1;
	uint64_t sl = l1->hint[line & l1->hint_mask];
	uint64_t st = (l1->slot[sl].key ^ (line << 2)) - 1; /* state - 1 when the slot holds line, else >= 3 */
	if (__builtin_expect(st < 3, 1) && (!is_write || st != MEMSYS_L1_S - 1)) {
		cache_touch(l1, sl);
		uint64_t r = l1->slot[sl].ready, d = now + k->l1_hit;
		if (is_write && st == MEMSYS_L1_E - 1) /* silent upgrade */
			cache_set_state(l1, sl, MEMSYS_L1_M);
		uint64_t v = d > r ? d : r;
		if (__builtin_expect(v >= MEMSYS_PEND, 0)) /* a fill not known yet */
			return memsys_pend_hit(m, &l1->slot[sl].ready, d, now);
		return v;
	}
	return memsys_access_miss(m, H, line, is_write, now);
}

static inline uint64_t memsys_access(struct memsys *m, unsigned h, uint64_t a, int is_write, uint64_t now)
{
	return memsys_access_h(m, memsys_hart(m, h), a, is_write, now);
}

#endif
