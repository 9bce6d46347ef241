/*
 * hostsim's adapter between the core (cpu.c / machine.c) and the memory
 * system timing model (memsys.h).  Only called with timing on (s->ms != NULL),
 * except the memctl block and the HPM event source, which read zeros when
 * timing is off.
 */
#ifndef HOSTSIM_TIMING_H
#define HOSTSIM_TIMING_H

#include "sim/sim.h"
#include "sim/memsys.h"

/* Create s->ms from s->opt (memsys options); 0 ok, -1 with err. */
int tm_init(struct sim *s, char *err, size_t errlen);
void tm_free(struct sim *s);
/* Print the memory-system options in effect as --config lines; 0, or -1 with err. */
int tm_print_config(const struct sim_opts *o, FILE *f, char *err, size_t errlen);
/* --replay-mem TRACE: the trace through the memory model of o, open loop
 * (memmodel_replay); its figures to f.  0, or -1 with err. */
int tm_replay_mem(const struct sim_opts *o, const char *trace, FILE *f, char *err, size_t errlen);

/*
 * Data-side accesses issued by hart `h` at cycle `now` (through h->msh,
 * its part of memsys, set by sim_hart_reset).  Return the cycle at
 * which the access completes (>= now + 1).  *miss is set when the access
 * missed the first-level cache (it then occupies an MSHR until completion).
 * A load or store may come back MEMSYS_HELD | c (memsys.h; *miss is then
 * set): not made, the core issues it again at c (cpu.c).
 * Inline: they are on the simulator's hot path.
 */
extern uint64_t tm_line_mask;   /* ~(line size - 1) of the memsys config */
extern uint64_t tm_l1_hit;      /* L1D load-to-use cycles */

/* An access that crosses a line: one memsys access per line. */
uint64_t tm_access_split(struct sim *s, struct sim_hart *h, uint64_t addr, uint64_t last, int wr, uint64_t now);

static inline uint64_t tm_access(struct sim *s, struct sim_hart *h, uint64_t addr, unsigned size, int wr, uint64_t now)
{
	/* an aligned access (the test the core's constant sizes make one
	 * instruction) never crosses a line: lines are at least 16 bytes; the
	 * line test before the call, so that nothing but the call's result is
	 * live after it */
	if (__builtin_expect((addr & (size - 1)) != 0, 0)) {
		uint64_t last = addr + size - 1;
		if ((addr ^ last) & tm_line_mask) /* crosses a line */
			return tm_access_split(s, h, addr, last, wr, now);
	}
	return memsys_access_h(s->ms, h->msh, addr, wr, now);
}

static inline uint64_t tm_load(struct sim *s, struct sim_hart *h, uint64_t addr, unsigned size, uint64_t now, int *miss)
{
	uint64_t done = tm_access(s, h, addr, size, 0, now);
	*miss = done - now > tm_l1_hit;
	return done;
}

static inline uint64_t tm_store(struct sim *s, struct sim_hart *h, uint64_t addr, unsigned size, uint64_t now)
{
	return tm_access(s, h, addr, size, 1, now);
}

/* An AMO (or LR/SC) waits for its result, so one that memsys holds
 * (MEMSYS_HELD) is issued again from here until it is made. */
uint64_t tm_amo_held(struct sim *s, struct sim_hart *h, uint64_t addr, unsigned size, uint64_t done);
static inline uint64_t tm_amo(struct sim *s, struct sim_hart *h, uint64_t addr, unsigned size, uint64_t now)
{
	uint64_t done = tm_access(s, h, addr, size, 1, now);
	if (__builtin_expect((done & MEMSYS_HELD) != 0, 0))
		done = tm_amo_held(s, h, addr, size, done);
	return done;
}

/*
 * Completions memsys knows later (MEMSYS_PEND: the ddr controller; on
 * with sequential consistency, tm_defer): a hart keeps them where it
 * keeps cycles (its registers' ready times, MSHRs, store buffer) and
 * waits on one as on a cycle later than its turn, so its turn ends there
 * (h->clock = a MEMSYS_PEND value, h->blk_t its cycle; machine.c).
 *  - tm_patch: every such value of h that is known now replaced by its
 *    cycle; returns the earliest of them (0: none);
 *  - tm_wake: h waits (clock & MEMSYS_PEND): 1 when it may go on, its
 *    clock then the cycle it waited from or its completion (force: look
 *    even when nothing new is known);
 *  - tm_settle: before a fence, AMO or LR/SC at cycle now: 1 while some
 *    of the store buffer's or MSHRs' completions are not known.
 */
int tm_defer(struct sim *s);
/* h->blk_tk: a MEMSYS_PEND value (that completion), or the first of any
 * of h's, or of its MSHRs' */
#define TM_WAIT_ANY 0
#define TM_WAIT_MSHR 1
uint64_t tm_patch(struct sim *s, struct sim_hart *h);
int tm_wake(struct sim *s, struct sim_hart *h, int force);
int tm_settle(struct sim *s, struct sim_hart *h, uint64_t now);
/* h's MSHRs whose completion is known by now replaced by it (issue at now
 * found them busy): 1 when some were */
int tm_mshr_fresh(struct sim *s, struct sim_hart *h, uint64_t now);

/* memsys's LRU clocks renumbered where due (memsys_check_ages; the
 * timing scheduler calls it every 2^20 simulated instructions). */
static inline void tm_check_ages(struct sim *s)
{
	memsys_check_ages(s->ms);
}

/* Event count for mhpmevent id `event` on hart h (0 when unknown / no timing). */
uint64_t tm_event(struct sim *s, unsigned h, uint64_t event);

/* The memory-controller counter block (offset inside SIM_MEMCTL_*). */
uint64_t tm_memctl_read(struct sim *s, uint64_t off, unsigned size);
void tm_memctl_write(struct sim *s, uint64_t off, unsigned size, uint64_t val);

/* Extra DTB properties describing the caches: called inside /rvmess-hostsim. */
int tm_fdt_props(const struct sim *s, void *fdt);
/* The caches in the devicetree's standard properties (specification
 * v0.4, 3.7.3 and 3.8), from the memsys configuration: a cpu node's L1D
 * (d-cache-size, -sets, -block-size, next-level-cache = llc), called
 * inside each cpu node; the LLC's cache node (/cpus/l2-cache: cache-level
 * 2, unified, size, sets, block size, phandle llc), called inside /cpus. */
int tm_fdt_cpu_cache(const struct sim *s, void *fdt, uint32_t llc);
int tm_fdt_llc_node(const struct sim *s, void *fdt, uint32_t llc);

/* Print memsys counters (for --stats). */
void tm_print_stats(struct sim *s, FILE *f);

/* Is `key` a memsys option? (so --KEY VALUE and config key=value reach it) */
int tm_is_option(const char *key);
/* One line per memsys option for --help. */
void tm_print_options(FILE *f);

#endif
