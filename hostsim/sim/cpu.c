/*
 * hostsim hart execution: RV64IMA + Zicsr + Zifencei, M-mode only.
 * Accesses outside RAM go to the device table (dev.h).
 *
 * Instructions are decoded once into the shared per-page cache s->dpages
 * (lazily, one entry per 32-bit word) and executed with threaded dispatch
 * (each op's handler ends with an indirect jump through a table of labels to
 * the next one's); after a sequential instruction the next entry is the next
 * word's, and the table sends an entry that is not decoded to the slow
 * fetch, so the fetch costs no test of its own.  A store into a page that holds decoded code
 * clears exactly the entries it overlaps, so self-modifying code works
 * without fence.i (fence.i is a nop).
 *
 * The executor is written once (cpu_exec.h) and included four times: the
 * functional path (no timing bookkeeping) and the timing paths (scoreboard,
 * MSHRs, store buffer, calls into memsys through timing.h) for sc, tso and
 * rvwmo.
 */
#include <string.h>
#include <stdlib.h>
#include "sim/sim.h"
#include "sim/timing.h"
#include "sim/dev.h"
#include "sim/csr.h"
#include "sim/wmem.h"
#include "sim/mshr.h"

#define RESV_GRANULE 64ull

#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define ALWAYS_INLINE inline __attribute__((always_inline))

/* A store by hart `by` to [addr, addr+size): other harts lose a reservation on
 * the granule(s) it touches. */
static void resv_kill_others(struct sim *s, struct sim_hart *by, uint64_t addr, unsigned size)
{
	uint64_t g0 = addr & ~(RESV_GRANULE - 1), g1 = (addr + size - 1) & ~(RESV_GRANULE - 1);
	for (unsigned i = 0; i < s->nharts; i++) {
		struct sim_hart *o = &s->harts[i];
		if (o != by && o->resv_valid && (o->resv_addr == g0 || o->resv_addr == g1)) {
			o->resv_valid = 0;
			s->nresv--;
		}
	}
}

/* ---- devices (dev.h): 0 ok, else an exception cause ------------------------ */

static int mmio_load(struct sim *s, struct sim_hart *h, uint64_t a, unsigned size, uint64_t *out)
{
	return sim_dev_load(s, h, a, size, out) ? CAUSE_LOAD_ACCESS : 0;
}

static int mmio_store(struct sim *s, struct sim_hart *h, uint64_t a, unsigned size, uint64_t v)
{
	return sim_dev_store(s, h, a, size, v) ? CAUSE_STORE_ACCESS : 0;
}

/* ---- RAM access ----------------------------------------------------------- */

static void inval_code(struct sim *s, uint64_t off, unsigned size)
{
	uint64_t w0 = off >> 2, w1 = (off + size - 1) >> 2;
	for (uint64_t w = w0; w <= w1; w++) {
		struct dinsn *p = s->dpages[w >> 10];
		if (p)
			p[w & 1023].op = OP_UNDECODED;
	}
}

static ALWAYS_INLINE uint64_t ram_read(const uint8_t *p, unsigned size)
{
	switch (size) {
	case 1: return *p;
	case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
	case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
	default: { uint64_t v; memcpy(&v, p, 8); return v; }
	}
}

static ALWAYS_INLINE int load(struct sim *s, struct sim_hart *h, uint64_t a, unsigned size, uint64_t *out)
{
	uint64_t off = a - s->ram_base;
	if (LIKELY(off <= s->ram_size - size)) {
		const uint8_t *p = s->ram + off;
		switch (size) {
		case 1: *out = *p; break;
		case 2: { uint16_t v; memcpy(&v, p, 2); *out = v; break; }
		case 4: { uint32_t v; memcpy(&v, p, 4); *out = v; break; }
		default: { uint64_t v; memcpy(&v, p, 8); *out = v; break; }
		}
		return 0;
	}
	return mmio_load(s, h, a, size, out);
}

static ALWAYS_INLINE void ram_write(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t v)
{
	uint8_t *p = s->ram + off;
	switch (size) {
	case 1: *p = (uint8_t)v; break;
	case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
	case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
	default: memcpy(p, &v, 8); break;
	}
	if (UNLIKELY(s->dpages[off >> 12] != NULL) || UNLIKELY(s->dpages[(off + size - 1) >> 12] != NULL))
		inval_code(s, off, size);
	if (UNLIKELY(s->nresv != 0))
		resv_kill_others(s, h, s->ram_base + off, size);
}

void sim_ram_write(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t v)
{
	ram_write(s, h, off, size, v);
}

/* ---- the executor --------------------------------------------------------- */

static ALWAYS_INLINE uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* A decoded page holds 1024 words and one more entry that is never decoded:
 * the executor steps its instruction pointer d by one entry after a
 * sequential instruction, and stepping off the page lands on that sentinel,
 * which sends the fetch down the slow path (as an invalidated entry does). */
#define DPAGE_ENTRIES 1025

/* the executor finds an entry from a pc offset as offset / 4 entries of 8 bytes */
_Static_assert(sizeof(struct dinsn) == 8, "struct dinsn is 8 bytes");

static struct dinsn *decode_at(struct sim *s, uint64_t off)
{
	uint64_t pg = off >> 12;
	struct dinsn *p = s->dpages[pg];
	if (!p) {
		p = calloc(DPAGE_ENTRIES, sizeof(*p));
		if (!p) {
			fprintf(stderr, "hostsim: out of memory (decode cache)\n");
			exit(1);
		}
		s->dpages[pg] = p;
	}
	struct dinsn *d = &p[(off >> 2) & 1023];
	uint32_t raw;
	memcpy(&raw, s->ram + off, 4);
	sim_decode(raw, d);
	/* a jump whose target is aligned and on this page: its "near" op,
	 * whose handler moves to the target's entry without the alignment
	 * and page tests (a store to the page re-decodes the entry) */
	if ((d->op == OP_JAL || (d->op >= OP_BEQ && d->op <= OP_BGEU)) && !(d->imm & 3) &&
	    (uint64_t)((int64_t)(off & 4095) + d->imm) < 4096)
		d->op = d->op == OP_JAL ? OP_JAL_N : (uint8_t)(OP_BEQ_N + (d->op - OP_BEQ));
	/* a countdown loop's decrement (its handler checks for the branch) */
	if (d->op == OP_ADDI && d->imm == -1 && d->rd == d->rs1 && !s->opt.no_loop_skip)
		d->op = OP_ADDI_DEC;
	return d;
}

/* Store buffer / MSHR helpers (timing path). */

/* The first cycle at which a load finds a free MSHR (0 when one is free;
 * the smallest completion time, kept in h->mshr_min). */
static ALWAYS_INLINE uint64_t mshr_free_at(const struct sim *s, const struct sim_hart *h)
{
	(void)s;
	return h->mshr_min;
}

/* The first cycle at which a store finds a free store-buffer entry. */
static ALWAYS_INLINE uint64_t sb_free_at(const struct sim *s, const struct sim_hart *h)
{
	return h->sb_count >= s->opt.sb_depth ? h->sb[h->sb_head] : 0;
}
static ALWAYS_INLINE void sb_drain_all(struct sim_hart *h, uint64_t *t)
{
	if (h->sb_count) {
		*t = max64(*t, h->sb_last);
		h->sb_count = 0;
	}
}

/* A cycle and the hart's clock after it, returned in two registers by the
 * timing helpers that are not inlined (the clock, a local of the executor,
 * never has its address taken, so it can live in a register there). */
struct tdone {
	uint64_t done, t;
};

/*
 * A store enters the store buffer at issue and is sent to memsys from there,
 * one per cycle at most, without waiting for the previous one (stores to
 * different lines overlap, like MSHRs for writes).  Entries free in program
 * order when they complete; a full buffer stalls issue until the oldest
 * completes.  Fences, AMOs and LR/SC wait for all of them (sb_drain_all).
 */
static struct tdone sb_push(struct sim *s, struct sim_hart *h, uint64_t t, uint64_t addr, unsigned size)
{
	unsigned depth = s->opt.sb_depth;
	while (h->sb_count && h->sb[h->sb_head] <= t) {
		h->sb_head = (h->sb_head + 1) % SIM_SB_MAX;
		h->sb_count--;
	}
	if (h->sb_count >= depth) {
		uint64_t t0 = h->sb[h->sb_head];
		h->stall_cycles += t0 - t;
		t = t0;
		h->sb_head = (h->sb_head + 1) % SIM_SB_MAX;
		h->sb_count--;
	}
	uint64_t start = max64(t, h->sb_issue + 1);
	uint64_t done = tm_store(s, h, addr, size, start);
	while (UNLIKELY(done & MEMSYS_HELD)) {
		/* its line must be read and the controller cannot take the
		 * read yet: the buffer sends in order, so nothing behind it
		 * goes first, and issue stalls until it has gone (a store
		 * buffer that took more stores would commit them to memory
		 * ahead of what other harts send meanwhile) */
		start = done & ~MEMSYS_HELD;
		h->stall_cycles += start - t;
		t = start + 1;
		done = tm_store(s, h, addr, size, start);
	}
	h->sb[(h->sb_head + h->sb_count) % SIM_SB_MAX] = done;
	h->sb_count++;
	h->sb_issue = start;
	if (done > h->sb_last)
		h->sb_last = done;
	return (struct tdone){ done, t };
}

/* The rest of a load that missed (memsys said so): merge into the busy MSHR
 * that holds a miss to the same line, else take the oldest (n of them),
 * waiting for it when none is free. */
static ALWAYS_INLINE uint64_t load_miss_n(struct sim_hart *h, uint64_t *t, uint64_t ti, uint64_t line,
                                          uint64_t done, unsigned n)
{
	if (h->mshr_max > ti) {
		/* some MSHR is busy (not the common case of dependent misses) */
#pragma GCC unroll 8
		for (unsigned i = 0; i < n; i++)
			if (h->mshr_line[i] == line && h->mshr[i] > ti) {
				if (done > h->mshr[i]) /* the merge completes later */
					mshr_place(h, i, done, line, n);
				return done;
			}
		if (h->mshr_min > ti) {
			/* merged above but the line's MSHR is gone: wait for one */
			h->stall_cycles += h->mshr_min - ti;
			*t = max64(*t, h->mshr_min + 1);
		}
		mshr_take(h, done, line, n);
		return done;
	}
	mshr_take_free(h, done, line, n);
	return done;
}

/* A load memsys held (MEMSYS_HELD | c): issue stalls until cycle c, when
 * it is issued again (load_held below load_timing). */
static struct tdone load_held(struct sim *s, struct sim_hart *h, uint64_t t, uint64_t ti, uint64_t addr,
                              unsigned size, uint64_t held);

static __attribute__((noinline)) struct tdone load_miss_any(struct sim *s, struct sim_hart *h, uint64_t t, uint64_t ti,
                                                            uint64_t line, uint64_t done)
{
	uint64_t r = load_miss_n(h, &t, ti, line, done, s->opt.mshrs);
	return (struct tdone){ r, t };
}

/*
 * A load issued at cycle ti while every MSHR is busy: merge into an
 * outstanding miss to its line, else stall until the oldest frees (before
 * the access is sent to memsys, so memsys sees the request at the cycle it
 * really leaves the core).
 */
static ALWAYS_INLINE uint64_t load_busy_n(struct sim *s, struct sim_hart *h, uint64_t *t, uint64_t ti, uint64_t addr, unsigned size, unsigned n)
{
	uint64_t line = addr & tm_line_mask;
	uint64_t oldest = h->mshr_min;
	int waited = 1;
#pragma GCC unroll 8
	for (unsigned i = 0; i < n; i++)
		if (h->mshr_line[i] == line) {
			waited = 0;
			break;
		}
	if (LIKELY(waited)) {
		h->stall_cycles += oldest - ti;
		ti = oldest;
		*t = oldest + 1;
	}
	int miss = 0;
	uint64_t done = tm_load(s, h, addr, size, ti, &miss);
	if (!miss)
		return done;
	if (UNLIKELY(done & MEMSYS_HELD)) {
		struct tdone r = load_held(s, h, *t, ti, addr, size, done);
		*t = r.t;
		return r.done;
	}
	if (LIKELY(waited)) {
		/* it waited for the oldest MSHR, which is free now, and no
		 * MSHR holds its line */
		mshr_take(h, done, line, n);
		return done;
	}
	return load_miss_n(h, t, ti, line, done, n);
}

static __attribute__((noinline)) struct tdone load_busy(struct sim *s, struct sim_hart *h, uint64_t t, uint64_t ti,
                                                        uint64_t addr, unsigned size)
{
	uint64_t r = s->opt.mshrs == 8 ? load_busy_n(s, h, &t, ti, addr, size, 8)
	                               : load_busy_n(s, h, &t, ti, addr, size, s->opt.mshrs);
	return (struct tdone){ r, t };
}

/*
 * A load issued at cycle ti (the instruction's issue cycle; *t is already
 * ti + 1).  Returns the cycle its value is ready for a dependent instruction
 * (the memsys completion: load-to-use = memsys latency).
 *
 * MSHRs: a load whose latency exceeds the L1 hit time is a miss and holds an
 * MSHR until it completes, unless an MSHR already holds a miss to the same
 * line (a secondary miss merges into it).  When every MSHR is busy, issue
 * stalls until the oldest frees *before* the access is sent to memsys
 * (load_busy; a load that would have hit also waits: documented).  The
 * number of MSHRs matters only on a miss or when all are busy: the loops
 * there are unrolled for the default 8.
 */
static ALWAYS_INLINE uint64_t load_timing(struct sim *s, struct sim_hart *h, uint64_t *t, uint64_t ti, uint64_t addr, unsigned size)
{
	struct tdone r;
	if (UNLIKELY(h->mshr_min > ti) && (!(h->mshr_max & MEMSYS_PEND) || !tm_mshr_fresh(s, h, ti) || h->mshr_min > ti)) {
		r = load_busy(s, h, *t, ti, addr, size);
		*t = r.t;
		return r.done;
	}
	int miss = 0;
	uint64_t done = tm_load(s, h, addr, size, ti, &miss);
	if (miss) {
		if (UNLIKELY(done & MEMSYS_HELD)) {
			r = load_held(s, h, *t, ti, addr, size, done);
			*t = r.t;
			return r.done;
		}
		if (LIKELY(s->opt.mshrs == 8))
			return load_miss_n(h, t, ti, addr & tm_line_mask, done, 8);
		r = load_miss_any(s, h, *t, ti, addr & tm_line_mask, done);
		*t = r.t;
		return r.done;
	}
	return done;
}

static __attribute__((noinline)) struct tdone load_held(struct sim *s, struct sim_hart *h, uint64_t t, uint64_t ti,
                                                        uint64_t addr, unsigned size, uint64_t held)
{
	uint64_t at = held & ~MEMSYS_HELD;
	h->stall_cycles += at - ti;
	t = max64(t, at + 1);
	uint64_t r = load_timing(s, h, &t, at, addr, size);
	return (struct tdone){ r, t };
}

static ALWAYS_INLINE void wait_loads(struct sim *s, struct sim_hart *h, uint64_t *t)
{
	(void)s;
	*t = max64(*t, h->mshr_max);
}

static uint32_t raw_at(struct sim *s, uint64_t pc)
{
	uint32_t raw = 0;
	uint64_t off = pc - s->ram_base;
	if (off <= s->ram_size - 4)
		memcpy(&raw, s->ram + off, 4);
	return raw;
}

static struct dinsn no_page[DPAGE_ENTRIES]; /* all OP_UNDECODED: forces the slow fetch path */

/* The executor, one body per variant (cpu_exec.h: threaded dispatch). */
#if defined(__GNUC__) && !defined(__clang__)
#define EXEC_ATTR __attribute__((optimize("no-crossjumping", "no-gcse")))
#else
#define EXEC_ATTR
#endif
#define EXEC_NAME exec_functional
#define EXEC_TIMING 0
#define EXEC_WEAK 0
#include "sim/cpu_exec.h"
#define EXEC_NAME exec_timing
#define EXEC_TIMING 1
#define EXEC_WEAK 0
#include "sim/cpu_exec.h"
#define EXEC_NAME exec_timing_tso
#define EXEC_TIMING 1
#define EXEC_WEAK 1
#include "sim/cpu_exec.h"
#define EXEC_NAME exec_timing_rvwmo
#define EXEC_TIMING 1
#define EXEC_WEAK 2
#include "sim/cpu_exec.h"

uint64_t sim_step_functional(struct sim *s, struct sim_hart *h, uint64_t n)
{
	/* functional clock: one cycle per instruction (plus wfi sleeps) */
	return exec_functional(s, h, n, 0);
}

uint64_t sim_step_timing(struct sim *s, struct sim_hart *h, uint64_t until, uint64_t n)
{
	if (UNLIKELY(s->wm != NULL))
		return s->opt.mem_order == SIM_MO_RVWMO ? exec_timing_rvwmo(s, h, n, until) : exec_timing_tso(s, h, n, until);
	return exec_timing(s, h, n, until);
}
