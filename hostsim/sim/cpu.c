/*
 * hostsim hart execution: RV64IMA + Zicsr + Zifencei, M-mode only.
 * Accesses outside RAM go to the device table (dev.h).
 *
 * Instructions are decoded once into the shared per-page cache s->dpages
 * (lazily, one entry per 32-bit word) and executed by one switch; after a
 * sequential instruction the next entry is the next word's, so the fetch is
 * one test that it is decoded.  A store into a page that holds decoded code
 * clears exactly the entries it overlaps, so self-modifying code works
 * without fence.i (fence.i is a nop).
 *
 * The executor is written once (exec_loop) and instantiated twice: the
 * functional path (no timing bookkeeping) and the timing path (scoreboard,
 * MSHRs, store buffer, calls into memsys through timing.h).
 */
#include <string.h>
#include <stdlib.h>
#include "sim/sim.h"
#include "sim/timing.h"
#include "sim/dev.h"
#include "sim/csr.h"
#include "sim/wmem.h"

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

static ALWAYS_INLINE int store(struct sim *s, struct sim_hart *h, uint64_t a, unsigned size, uint64_t v)
{
	uint64_t off = a - s->ram_base;
	if (LIKELY(off <= s->ram_size - size)) {
		ram_write(s, h, off, size, v);
		return 0;
	}
	return mmio_store(s, h, a, size, v);
}

/* ---- the executor --------------------------------------------------------- */

static ALWAYS_INLINE uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* A decoded page holds 1024 words and one more entry that is never decoded:
 * the executor steps its instruction pointer d by one entry after a
 * sequential instruction, and stepping off the page lands on that sentinel,
 * which sends the fetch down the slow path (as an invalidated entry does). */
#define DPAGE_ENTRIES 1025

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

/* Recompute h->mshr_min / mshr_max from mshr[0..n-1]. */
static ALWAYS_INLINE void mshr_minmax_n(struct sim_hart *h, unsigned n)
{
	uint64_t lo = UINT64_MAX, hi = 0;
#pragma GCC unroll 8
	for (unsigned i = 0; i < n; i++) {
		lo = h->mshr[i] < lo ? h->mshr[i] : lo;
		hi = h->mshr[i] > hi ? h->mshr[i] : hi;
	}
	h->mshr_min = lo;
	h->mshr_max = hi;
}

/* mshr[i] = v, keeping mshr_min / mshr_max exact without a rescan in the
 * common case (an MSHR whose value was not the minimum gets a later time). */
static ALWAYS_INLINE void mshr_set(struct sim_hart *h, unsigned i, uint64_t v, unsigned n)
{
	uint64_t old = h->mshr[i];
	h->mshr[i] = v;
	if (v >= old && old != h->mshr_min) {
		if (v > h->mshr_max)
			h->mshr_max = v;
	} else {
		mshr_minmax_n(h, n);
	}
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

/*
 * A store enters the store buffer at issue and is sent to memsys from there,
 * one per cycle at most, without waiting for the previous one (stores to
 * different lines overlap, like MSHRs for writes).  Entries free in program
 * order when they complete; a full buffer stalls issue until the oldest
 * completes.  Fences, AMOs and LR/SC wait for all of them (sb_drain_all).
 */
static uint64_t sb_push(struct sim *s, struct sim_hart *h, uint64_t *t, uint64_t addr, unsigned size)
{
	unsigned depth = s->opt.sb_depth;
	while (h->sb_count && h->sb[h->sb_head] <= *t) {
		h->sb_head = (h->sb_head + 1) % SIM_SB_MAX;
		h->sb_count--;
	}
	if (h->sb_count >= depth) {
		uint64_t t0 = h->sb[h->sb_head];
		h->stall_cycles += t0 - *t;
		*t = t0;
		h->sb_head = (h->sb_head + 1) % SIM_SB_MAX;
		h->sb_count--;
	}
	uint64_t start = max64(*t, h->sb_issue + 1);
	uint64_t done = tm_store(s, h->id, addr, size, start);
	h->sb[(h->sb_head + h->sb_count) % SIM_SB_MAX] = done;
	h->sb_count++;
	h->sb_issue = start;
	if (done > h->sb_last)
		h->sb_last = done;
	return done;
}

/*
 * A load issued at cycle ti (the instruction's issue cycle; *t is already
 * ti + 1).  Returns the cycle its value is ready for a dependent instruction
 * (the memsys completion: load-to-use = memsys latency).
 *
 * MSHRs: a load whose latency exceeds the L1 hit time is a miss and holds an
 * MSHR until it completes, unless an MSHR already holds a miss to the same
 * line (a secondary miss merges into it).  When every MSHR is busy, issue
 * stalls until the oldest frees *before* the access is sent to memsys, so
 * memsys sees the request at the cycle it really leaves the core (a load
 * that would have hit also waits: documented).
 */
static ALWAYS_INLINE uint64_t load_timing_n(struct sim *s, struct sim_hart *h, uint64_t *t, uint64_t ti, uint64_t addr, unsigned size, unsigned n)
{
	const uint64_t ti0 = ti;
	uint64_t line = addr & tm_line_mask;
	if (UNLIKELY(h->mshr_min > ti)) {
		/* all busy: merge into an outstanding miss to this line, else stall */
		uint64_t oldest = h->mshr_min;
#pragma GCC unroll 8
		for (unsigned i = 0; i < n; i++)
			if (h->mshr_line[i] == line)
				goto access;
		h->stall_cycles += oldest - ti;
		ti = oldest;
		*t = oldest + 1;
	}
access:;
	int miss = 0;
	uint64_t done = tm_load(s, h->id, addr, size, ti, &miss);
	if (miss) {
		if (h->mshr_max <= ti0) {
			/* every MSHR is free (the common case of dependent misses):
			 * no merge, the first one (what the general code below
			 * picks then) */
			mshr_set(h, 0, done, n);
			h->mshr_line[0] = line;
			return done;
		}
		/* the MSHR to use: the first one free at ti0, else the oldest
		 * (the first with the smallest completion time) */
		unsigned slot = 0;
		uint64_t oldest = UINT64_MAX;
#pragma GCC unroll 8
		for (unsigned i = 0; i < n; i++) {
			if (h->mshr[i] <= ti0) { slot = i; break; }
			if (h->mshr[i] < oldest) { oldest = h->mshr[i]; slot = i; }
		}
#pragma GCC unroll 8
		for (unsigned i = 0; i < n; i++)
			if (h->mshr_line[i] == line && h->mshr[i] > ti) {
				if (done > h->mshr[i])
					mshr_set(h, i, done, n);
				return done;
			}
		if (h->mshr[slot] > ti) {
			/* merged above but the line's MSHR is gone: wait for one */
			h->stall_cycles += h->mshr[slot] - ti;
			*t = max64(*t, h->mshr[slot] + 1);
		}
		mshr_set(h, slot, done, n);
		h->mshr_line[slot] = line;
	}
	return done;
}

static ALWAYS_INLINE uint64_t load_timing(struct sim *s, struct sim_hart *h, uint64_t *t, uint64_t ti, uint64_t addr, unsigned size)
{
	if (LIKELY(s->opt.mshrs == 8)) /* the default: loops unrolled */
		return load_timing_n(s, h, t, ti, addr, size, 8);
	return load_timing_n(s, h, t, ti, addr, size, s->opt.mshrs);
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

/* weak: s->wm is set (wmem.h): RAM stores go through the functional store
 * buffer, loads forward from it, ordering points drain it, faults act;
 * weak == 2 (rvwmo) also keeps the register views and lets loads read
 * older versions. */
static ALWAYS_INLINE uint64_t exec_loop(struct sim *s, struct sim_hart *h, uint64_t n, uint64_t until, const int timing,
                                        const int weak)
{
	uint64_t *x = h->x;
	uint64_t pc = h->pc;
	uint64_t t = h->clock;
	uint64_t done = 0;
	/* instret = ins0 + done, functional clock = instret + cdelta (synced to the
	 * hart at CSR/MMIO accesses, traps and the end of the turn) */
	uint64_t ins0 = h->instret, cdelta = h->clock - h->instret;
	const uint64_t rbase = s->ram_base, rsize = s->ram_size;
	uint8_t *const ram = s->ram;
	/* the decoded page pc is in: the last turn's (decoded pages live as
	 * long as the run), checked like a jump's target below */
	const struct dinsn *cpg = h->cpg ? h->cpg : no_page;
	uint64_t cpg_base = h->cpg_base;
	/* pc's entry when it is decoded, else one that is not */
	const struct dinsn *d = pc - cpg_base < 4096 ? &cpg[(pc - cpg_base) >> 2] : no_page;
	uint64_t ti = t; /* issue cycle of the current instruction */
	uint64_t *const rv = weak == 2 ? wm_regview(s, h) : NULL; /* rvwmo register views */

/* (the functional clock as instret + cdelta, not clk0 + done: gcc pairs two
 * `+ done` into one vector add and computes it on every instruction) */
#define SYNC() do { h->instret = ins0 + done; if (timing) h->clock = t; else h->clock = h->instret + cdelta; } while (0)
#define RESYNC() do { ins0 = h->instret - done; if (timing) t = h->clock; else cdelta = h->clock - h->instret; } while (0)
#define TRAP(cause, tval) do { h->pc = pc; SYNC(); sim_take_trap(s, h, (cause), (tval)); RESYNC(); pc = h->pc; if (s->stop) goto out; goto next; } while (0)
#define LOAD(sz, conv) do { \
		uint64_t a_ = x[d->rs1] + (int64_t)d->imm, v_, o_ = a_ - rbase; \
		if (LIKELY(o_ <= rsize - sz)) { \
			if (weak == 2) { uint64_t vp_; v_ = wm_load_v(s, h, o_, sz, t, rv[d->rs1], &vp_); rv[d->rd] = vp_; } \
			else if (weak) v_ = wm_load(s, h, o_, sz, t); \
			else v_ = ram_read(ram + o_, sz); \
			if (timing) h->ready[d->rd] = load_timing(s, h, &t, ti, a_, sz); \
		} else { \
			SYNC(); \
			if (weak) wm_drain_all(s, h); \
			int c_ = mmio_load(s, h, a_, sz, &v_); \
			if (UNLIKELY(c_)) TRAP(c_, a_); \
			if (timing) h->ready[d->rd] = t; \
		} \
		x[d->rd] = conv; \
	} while (0)
#define STORE(sz) do { \
		uint64_t a_ = x[d->rs1] + (int64_t)d->imm, o_ = a_ - rbase; \
		if (LIKELY(o_ <= rsize - sz)) { \
			if (weak) { \
				uint64_t due_ = sb_push(s, h, &t, a_, sz); \
				if (weak == 2) wm_store_v(s, h, o_, sz, x[d->rs2], due_, t, max64(rv[d->rs1], rv[d->rs2])); \
				else wm_store(s, h, o_, sz, x[d->rs2], due_, t); \
			} else { \
				ram_write(s, h, o_, sz, x[d->rs2]); \
				if (timing) sb_push(s, h, &t, a_, sz); \
			} \
		} else { \
			SYNC(); \
			if (weak) wm_drain_all(s, h); \
			int c_ = mmio_store(s, h, a_, sz, x[d->rs2]); \
			if (UNLIKELY(c_)) TRAP(c_, a_); \
			if (UNLIKELY(s->stop | s->yield)) { pc += 4; goto out; } \
		} \
	} while (0)
#define JUMP(target) do { uint64_t tg_ = (target); \
		if (UNLIKELY(tg_ & 3)) TRAP(CAUSE_MISALIGNED_FETCH, tg_); \
		pc = tg_; } while (0)
#define BR(cond) do { if (cond) { JUMP(pc + (int64_t)d->imm); goto next_nopc; } } while (0)

	if (weak)
		wm_drain(s, h, t);

	while (done < n) {
		uint64_t po;
		if (!timing || LIKELY(d->op != OP_UNDECODED)) {
			/* d follows pc: the next entry after a sequential
			 * instruction, the target's after a jump (next_nopc).
			 * Functional: the switch's OP_UNDECODED case comes back
			 * to fetch_slow (one test of d->op fewer per
			 * instruction); timing tests it here, before the issue
			 * check reads d's registers */
		} else
	fetch_slow:
		if (po = pc - cpg_base, LIKELY(po < 4096) && LIKELY(cpg[po >> 2].op != OP_UNDECODED)) {
			d = &cpg[po >> 2];
		} else {
			/* a turn that is over ends before the fetch (no fetch
			 * fault, no decode); on the fast path the issue check
			 * below makes the same test */
			if (timing && t >= until)
				break;
			uint64_t off = pc - rbase;
			if (UNLIKELY(off >= rsize)) {
				done++;
				TRAP(CAUSE_FETCH_ACCESS, pc);
			}
			struct dinsn *pg = s->dpages[off >> 12];
			d = pg ? &pg[(off >> 2) & 1023] : NULL;
			if (!d || d->op == OP_UNDECODED)
				d = decode_at(s, off);
			cpg = s->dpages[off >> 12];
			cpg_base = pc - (off & 4095);
		}
		if (timing) {
			/* in-order issue: wait for the sources (and, for a load or a
			 * store, for a free MSHR / store-buffer entry).  An instruction
			 * that cannot issue before the end of this turn does not run
			 * now: the hart's clock moves to its issue cycle and the turn
			 * ends, so it reaches memsys only once the other harts have
			 * caught up, and memsys sees requests in time order. */
			uint64_t is = max64(t, max64(h->ready[d->rs1], h->ready[d->rs2]));
			uint64_t go = is;
			if (d->op >= OP_LB && d->op <= OP_SD)
				go = max64(is, d->op >= OP_SB ? sb_free_at(s, h) : mshr_free_at(s, h));
			if (UNLIKELY(go >= until)) {
				if (t < until) /* a turn already over keeps its clock */
					t = go;
				break;
			}
			/* issue at `is` (a load or store waiting for its MSHR /
			 * store-buffer entry stalls inside this turn, in
			 * load_timing / sb_push); the destination's ready time is
			 * "now" unless a load/mul/div sets it below */
			ti = is;
			t = is + 1;
			h->ready[d->rd] = 0;
		}
		done++;
		/* rvwmo: a result's view is its sources' (loads, AMOs and LR/SC
		 * set their own below); stores and branches write no register */
		if (weak == 2 && !(d->op >= OP_BEQ && d->op <= OP_BGEU) && !(d->op >= OP_SB && d->op <= OP_SD))
			rv[d->rd] = max64(rv[d->rs1], rv[d->rs2]);
		switch (d->op) {
		case OP_UNDECODED: /* functional only (see the fetch above) */
			if (timing)
				__builtin_unreachable();
			done--;
			goto fetch_slow;
		case OP_LUI: x[d->rd] = (uint64_t)(int64_t)d->imm; break;
		case OP_AUIPC: x[d->rd] = pc + (int64_t)d->imm; break;
		case OP_JAL: { uint64_t r = pc + 4; JUMP(pc + (int64_t)d->imm); x[d->rd] = r; goto next_nopc; }
		case OP_JALR: { uint64_t r = pc + 4; JUMP((x[d->rs1] + (int64_t)d->imm) & ~1ull); x[d->rd] = r; goto next_nopc; }
		case OP_BEQ: BR(x[d->rs1] == x[d->rs2]); break;
		case OP_BNE: BR(x[d->rs1] != x[d->rs2]); break;
		case OP_BLT: BR((int64_t)x[d->rs1] < (int64_t)x[d->rs2]); break;
		case OP_BGE: BR((int64_t)x[d->rs1] >= (int64_t)x[d->rs2]); break;
		case OP_BLTU: BR(x[d->rs1] < x[d->rs2]); break;
		case OP_BGEU: BR(x[d->rs1] >= x[d->rs2]); break;
		case OP_LB: LOAD(1, (uint64_t)(int64_t)(int8_t)v_); break;
		case OP_LH: LOAD(2, (uint64_t)(int64_t)(int16_t)v_); break;
		case OP_LW: LOAD(4, (uint64_t)(int64_t)(int32_t)v_); break;
		case OP_LD: LOAD(8, v_); break;
		case OP_LBU: LOAD(1, v_); break;
		case OP_LHU: LOAD(2, v_); break;
		case OP_LWU: LOAD(4, v_); break;
		case OP_SB: STORE(1); break;
		case OP_SH: STORE(2); break;
		case OP_SW: STORE(4); break;
		case OP_SD: STORE(8); break;
		case OP_ADDI: x[d->rd] = x[d->rs1] + (int64_t)d->imm; break;
		case OP_SLTI: x[d->rd] = (int64_t)x[d->rs1] < (int64_t)d->imm; break;
		case OP_SLTIU: x[d->rd] = x[d->rs1] < (uint64_t)(int64_t)d->imm; break;
		case OP_XORI: x[d->rd] = x[d->rs1] ^ (uint64_t)(int64_t)d->imm; break;
		case OP_ORI: x[d->rd] = x[d->rs1] | (uint64_t)(int64_t)d->imm; break;
		case OP_ANDI: x[d->rd] = x[d->rs1] & (uint64_t)(int64_t)d->imm; break;
		case OP_SLLI: x[d->rd] = x[d->rs1] << d->imm; break;
		case OP_SRLI: x[d->rd] = x[d->rs1] >> d->imm; break;
		case OP_SRAI: x[d->rd] = (uint64_t)((int64_t)x[d->rs1] >> d->imm); break;
		case OP_ADD: x[d->rd] = x[d->rs1] + x[d->rs2]; break;
		case OP_SUB: x[d->rd] = x[d->rs1] - x[d->rs2]; break;
		case OP_SLL: x[d->rd] = x[d->rs1] << (x[d->rs2] & 63); break;
		case OP_SLT: x[d->rd] = (int64_t)x[d->rs1] < (int64_t)x[d->rs2]; break;
		case OP_SLTU: x[d->rd] = x[d->rs1] < x[d->rs2]; break;
		case OP_XOR: x[d->rd] = x[d->rs1] ^ x[d->rs2]; break;
		case OP_SRL: x[d->rd] = x[d->rs1] >> (x[d->rs2] & 63); break;
		case OP_SRA: x[d->rd] = (uint64_t)((int64_t)x[d->rs1] >> (x[d->rs2] & 63)); break;
		case OP_OR: x[d->rd] = x[d->rs1] | x[d->rs2]; break;
		case OP_AND: x[d->rd] = x[d->rs1] & x[d->rs2]; break;
		case OP_ADDIW: x[d->rd] = (uint64_t)(int64_t)(int32_t)(uint32_t)(x[d->rs1] + (int64_t)d->imm); break;
		case OP_SLLIW: x[d->rd] = (uint64_t)(int64_t)(int32_t)((uint32_t)x[d->rs1] << d->imm); break;
		case OP_SRLIW: x[d->rd] = (uint64_t)(int64_t)(int32_t)((uint32_t)x[d->rs1] >> d->imm); break;
		case OP_SRAIW: x[d->rd] = (uint64_t)(int64_t)((int32_t)(uint32_t)x[d->rs1] >> d->imm); break;
		case OP_ADDW: x[d->rd] = (uint64_t)(int64_t)(int32_t)(uint32_t)(x[d->rs1] + x[d->rs2]); break;
		case OP_SUBW: x[d->rd] = (uint64_t)(int64_t)(int32_t)(uint32_t)(x[d->rs1] - x[d->rs2]); break;
		case OP_SLLW: x[d->rd] = (uint64_t)(int64_t)(int32_t)((uint32_t)x[d->rs1] << (x[d->rs2] & 31)); break;
		case OP_SRLW: x[d->rd] = (uint64_t)(int64_t)(int32_t)((uint32_t)x[d->rs1] >> (x[d->rs2] & 31)); break;
		case OP_SRAW: x[d->rd] = (uint64_t)(int64_t)((int32_t)(uint32_t)x[d->rs1] >> (x[d->rs2] & 31)); break;
		case OP_MUL:
			x[d->rd] = x[d->rs1] * x[d->rs2];
			if (timing) h->ready[d->rd] = ti + s->opt.mul_lat;
			break;
		case OP_MULH:
			x[d->rd] = (uint64_t)(((__int128)(int64_t)x[d->rs1] * (__int128)(int64_t)x[d->rs2]) >> 64);
			if (timing) h->ready[d->rd] = ti + s->opt.mul_lat;
			break;
		case OP_MULHSU:
			x[d->rd] = (uint64_t)(((__int128)(int64_t)x[d->rs1] * (__int128)(unsigned __int128)x[d->rs2]) >> 64);
			if (timing) h->ready[d->rd] = ti + s->opt.mul_lat;
			break;
		case OP_MULHU:
			x[d->rd] = (uint64_t)(((unsigned __int128)x[d->rs1] * (unsigned __int128)x[d->rs2]) >> 64);
			if (timing) h->ready[d->rd] = ti + s->opt.mul_lat;
			break;
		case OP_DIV: {
			int64_t a = (int64_t)x[d->rs1], b = (int64_t)x[d->rs2];
			x[d->rd] = b == 0 ? ~0ull : (a == INT64_MIN && b == -1) ? (uint64_t)a : (uint64_t)(a / b);
			if (timing) h->ready[d->rd] = ti + s->opt.div_lat;
			break;
		}
		case OP_DIVU: {
			uint64_t a = x[d->rs1], b = x[d->rs2];
			x[d->rd] = b == 0 ? ~0ull : a / b;
			if (timing) h->ready[d->rd] = ti + s->opt.div_lat;
			break;
		}
		case OP_REM: {
			int64_t a = (int64_t)x[d->rs1], b = (int64_t)x[d->rs2];
			x[d->rd] = b == 0 ? (uint64_t)a : (a == INT64_MIN && b == -1) ? 0 : (uint64_t)(a % b);
			if (timing) h->ready[d->rd] = ti + s->opt.div_lat;
			break;
		}
		case OP_REMU: {
			uint64_t a = x[d->rs1], b = x[d->rs2];
			x[d->rd] = b == 0 ? a : a % b;
			if (timing) h->ready[d->rd] = ti + s->opt.div_lat;
			break;
		}
		case OP_MULW:
			x[d->rd] = (uint64_t)(int64_t)(int32_t)(uint32_t)(x[d->rs1] * x[d->rs2]);
			if (timing) h->ready[d->rd] = ti + s->opt.mul_lat;
			break;
		case OP_DIVW: {
			int32_t a = (int32_t)x[d->rs1], b = (int32_t)x[d->rs2];
			int32_t r = b == 0 ? -1 : (a == INT32_MIN && b == -1) ? a : a / b;
			x[d->rd] = (uint64_t)(int64_t)r;
			if (timing) h->ready[d->rd] = ti + s->opt.div_lat;
			break;
		}
		case OP_DIVUW: {
			uint32_t a = (uint32_t)x[d->rs1], b = (uint32_t)x[d->rs2];
			uint32_t r = b == 0 ? ~0u : a / b;
			x[d->rd] = (uint64_t)(int64_t)(int32_t)r;
			if (timing) h->ready[d->rd] = ti + s->opt.div_lat;
			break;
		}
		case OP_REMW: {
			int32_t a = (int32_t)x[d->rs1], b = (int32_t)x[d->rs2];
			int32_t r = b == 0 ? a : (a == INT32_MIN && b == -1) ? 0 : a % b;
			x[d->rd] = (uint64_t)(int64_t)r;
			if (timing) h->ready[d->rd] = ti + s->opt.div_lat;
			break;
		}
		case OP_REMUW: {
			uint32_t a = (uint32_t)x[d->rs1], b = (uint32_t)x[d->rs2];
			uint32_t r = b == 0 ? a : a % b;
			x[d->rd] = (uint64_t)(int64_t)(int32_t)r;
			if (timing) h->ready[d->rd] = ti + s->opt.div_lat;
			break;
		}
		case OP_LR_W: case OP_LR_D: {
			unsigned sz = d->op == OP_LR_W ? 4 : 8;
			uint64_t a = x[d->rs1], v, off2 = a - rbase;
			if (a & (sz - 1)) TRAP(CAUSE_MISALIGNED_LOAD, a);
			if (off2 > rsize - sz) TRAP(CAUSE_LOAD_ACCESS, a);
			int ack = weak && wm_wrong_ack(s, h, t);
			if (timing) { if (!ack) sb_drain_all(h, &t); t = tm_amo(s, h->id, a, sz, t); }
			if (weak && !ack) wm_drain_all(s, h);
			if (weak) wm_l1d_drop(s, h, off2, sz); /* Ariane: AMOs and LR/SC bypass the L1D */
			load(s, h, a, sz, &v);
			x[d->rd] = sz == 4 ? (uint64_t)(int64_t)(int32_t)v : v;
			if (weak == 2) rv[d->rd] = wm_sync(s, h);
			if (!h->resv_valid) s->nresv++;
			h->resv_valid = 1;
			h->resv_addr = a & ~(RESV_GRANULE - 1);
			break;
		}
		case OP_SC_W: case OP_SC_D: {
			unsigned sz = d->op == OP_SC_W ? 4 : 8;
			uint64_t a = x[d->rs1], off2 = a - rbase;
			if (a & (sz - 1)) TRAP(CAUSE_MISALIGNED_STORE, a);
			if (off2 > rsize - sz) TRAP(CAUSE_STORE_ACCESS, a);
			int ok = h->resv_valid && h->resv_addr == (a & ~(RESV_GRANULE - 1));
			int ack = weak && wm_wrong_ack(s, h, t);
			if (weak) {
				if (!ack) wm_drain_all(s, h);
				if (!ok && wm_fault(s, SIM_F_SC_SPURIOUS, off2))
					ok = 1;
				wm_l1d_drop(s, h, off2, sz);
			}
			sim_resv_drop(s, h);
			if (timing) { if (!ack) sb_drain_all(h, &t); if (ok) t = tm_amo(s, h->id, a, sz, t); }
			if (ok) {
				if (weak == 2) wm_write(s, h, off2, sz, x[d->rs2], t);
				else ram_write(s, h, off2, sz, x[d->rs2]);
			}
			x[d->rd] = !ok;
			if (weak == 2) rv[d->rd] = wm_sync(s, h);
			break;
		}
		case OP_AMOSWAP_W: case OP_AMOADD_W: case OP_AMOXOR_W: case OP_AMOAND_W: case OP_AMOOR_W:
		case OP_AMOMIN_W: case OP_AMOMAX_W: case OP_AMOMINU_W: case OP_AMOMAXU_W:
		case OP_AMOSWAP_D: case OP_AMOADD_D: case OP_AMOXOR_D: case OP_AMOAND_D: case OP_AMOOR_D:
		case OP_AMOMIN_D: case OP_AMOMAX_D: case OP_AMOMINU_D: case OP_AMOMAXU_D: {
			int w = d->op <= OP_AMOMAXU_W;
			unsigned sz = w ? 4 : 8, k = d->op - (w ? OP_AMOSWAP_W : OP_AMOSWAP_D);
			uint64_t a = x[d->rs1], off2 = a - rbase, old, b = x[d->rs2], nv;
			if (a & (sz - 1)) TRAP(CAUSE_MISALIGNED_STORE, a);
			if (off2 > rsize - sz) TRAP(CAUSE_STORE_ACCESS, a);
			int ack = weak && wm_wrong_ack(s, h, t);
			if (timing) { if (!ack) sb_drain_all(h, &t); t = tm_amo(s, h->id, a, sz, t); }
			if (weak && !ack) wm_drain_all(s, h);
			if (weak) wm_l1d_drop(s, h, off2, sz);
			load(s, h, a, sz, &old);
			if (w) { old = (uint64_t)(int64_t)(int32_t)old; b = (uint64_t)(int64_t)(int32_t)b; }
			switch (k) {
			case 0: nv = b; break;
			case 1: nv = old + b; break;
			case 2: nv = old ^ b; break;
			case 3: nv = old & b; break;
			case 4: nv = old | b; break;
			case 5: nv = (int64_t)old < (int64_t)b ? old : b; break;
			case 6: nv = (int64_t)old > (int64_t)b ? old : b; break;
			case 7: nv = (w ? (uint32_t)old < (uint32_t)b : old < b) ? old : b; break;
			default: nv = (w ? (uint32_t)old > (uint32_t)b : old > b) ? old : b; break;
			}
			if (weak && wm_fault(s, SIM_F_AMO_NONATOMIC, off2))
				wm_defer(s, h, off2, sz, nv, t + WM_AMO_LAG, t); /* a separate, later store */
			else if (weak == 2)
				wm_write(s, h, off2, sz, nv, t);
			else
				ram_write(s, h, off2, sz, nv);
			x[d->rd] = old;
			if (weak == 2) rv[d->rd] = wm_sync(s, h);
			break;
		}
		case OP_FENCE: {
			unsigned fb = weak ? raw_at(s, pc) >> 20 : 0;
			if (weak && wm_fault(s, SIM_F_FENCE_NOOP, ~0ull)) {
				/* rvwmo: it still orders loads and the image's own
				 * stores (else the image's barriers break); tso, sc:
				 * nothing (TSO keeps those in order anyway) */
				if (weak == 2) wm_fence(s, h, fb, 1);
				break;
			}
			/* wrong-ack: a fence ordering earlier stores (W or O in its
			 * predecessor set) takes the buffered ones as drained */
			int ack = weak && (fb & 0x50) && wm_wrong_ack(s, h, t);
			if (timing) { if (!ack) sb_drain_all(h, &t); wait_loads(s, h, &t); }
			if (weak == 2) wm_fence(s, h, fb, ack);
			else if (weak && !ack) wm_drain_all(s, h);
			break;
		}
		case OP_FENCE_I:
			if (timing) sb_drain_all(h, &t);
			if (weak) wm_drain_all(s, h);
			break;
		case OP_ECALL: TRAP(CAUSE_ECALL_M, 0);
		case OP_EBREAK: TRAP(CAUSE_BREAKPOINT, pc);
		case OP_MRET:
			sim_mret(h);
			SYNC();
			sim_check_irq(s, h);
			RESYNC();
			pc = h->pc;
			if (s->stop) goto out;
			goto next_nopc;
		case OP_WFI: {
			h->pc = pc + 4;
			SYNC();
			if (weak) wm_drain_all(s, h);
			h->wfi_count++;
			sim_wfi(s, h);
			sim_check_irq(s, h);
			RESYNC();
			pc = h->pc;
			goto out; /* end the turn: let the other harts run */
		}
		case OP_CSRRW: case OP_CSRRS: case OP_CSRRC: case OP_CSRRWI: case OP_CSRRSI: case OP_CSRRCI: {
			unsigned csr = (unsigned)d->imm & 0xfff;
			uint64_t src = d->op >= OP_CSRRWI ? (uint64_t)((unsigned)d->imm >> 12) : x[d->rs1];
			int srcz = d->op >= OP_CSRRWI ? ((unsigned)d->imm >> 12) == 0 : d->rs1 == 0;
			int wr = d->op == OP_CSRRW || d->op == OP_CSRRWI || !srcz;
			uint64_t old = 0, nv;
			SYNC();
			/* minstret/instret read the count of the instructions retired
			 * before this one (h->instret already counts it); a write
			 * (below) sets the value the next instruction reads */
			h->instret--;
			int bad = sim_csr_read(s, h, csr, &old);
			h->instret++;
			if (bad) TRAP(CAUSE_ILLEGAL, raw_at(s, pc));
			if (wr) {
				if ((csr >> 10) == 3) TRAP(CAUSE_ILLEGAL, raw_at(s, pc));
				if (d->op == OP_CSRRW || d->op == OP_CSRRWI) nv = src;
				else if (d->op == OP_CSRRS || d->op == OP_CSRRSI) nv = old | src;
				else nv = old & ~src;
				if (sim_csr_write(s, h, csr, nv)) TRAP(CAUSE_ILLEGAL, raw_at(s, pc));
			}
			x[d->rd] = old;
			if (wr && (csr == 0x300 || csr == 0x304)) {
				h->pc = pc + 4;
				sim_check_irq(s, h);
				RESYNC();
				pc = h->pc;
				if (s->stop) goto out;
				goto next_nopc;
			}
			break;
		}
		case OP_ILLEGAL:
		default:
			TRAP(CAUSE_ILLEGAL, (uint32_t)d->imm);
		}
		pc += 4;
		d++;
		continue;
	next:
		if (s->stop) goto out;
	next_nopc:
		/* pc moved: its entry if it is on the current page (checked
		 * for being decoded at the top), else the slow path */
		po = pc - cpg_base;
		d = po < 4096 ? &cpg[po >> 2] : no_page;
	}
out:
	h->pc = pc;
	h->cpg = cpg;
	h->cpg_base = cpg_base;
	SYNC();
	if (weak)
		wm_drain(s, h, t);
	return done;
#undef SYNC
#undef RESYNC
#undef TRAP
#undef LOAD
#undef STORE
#undef JUMP
#undef BR
}

uint64_t sim_step_functional(struct sim *s, struct sim_hart *h, uint64_t n)
{
	/* functional clock: one cycle per instruction (plus wfi sleeps) */
	return exec_loop(s, h, n, 0, 0, 0);
}

uint64_t sim_step_timing(struct sim *s, struct sim_hart *h, uint64_t until, uint64_t n)
{
	if (UNLIKELY(s->wm != NULL))
		return s->opt.mem_order == SIM_MO_RVWMO ? exec_loop(s, h, n, until, 1, 2) : exec_loop(s, h, n, until, 1, 1);
	return exec_loop(s, h, n, until, 1, 0);
}
