/*
 * rvmess image runtime: records, hart states and rendezvous, counters,
 * run-wide state.  Freestanding; shared by firmware/ C files and the suites.
 */
#ifndef RVMESS_RT_H
#define RVMESS_RT_H

#include <stddef.h>
#include <stdint.h>

#include "platform.h"
#include "rvmess/config.h"
#include "rvmess/fdt.h"
#include "rvmess/records.h"

#define RVM_LINE 64u /* cache-line size the chains are built on */

/* ---- harts ----------------------------------------------------------------- */

/* The calling hart's id (kept in tp since _start; firmware/hart.c). */
unsigned rvm_hartid(void);

static inline void rvm_fence(void) { __asm__ volatile("fence rw, rw" ::: "memory"); }

void rvm_park(void) __attribute__((noreturn));

/* ---- waiting for another hart's store (firmware/wait.c) -------------------- */

/*
 * A wait:  rvm_wait_begin(&w, "name");
 *          while (rvm_wait_poll(&w), (v = word) == old) ;
 *          rvm_wait_saw(&w, &word, v);
 * and the hart that stores the word: rvm_pub_begin(&word, v); store;
 * rvm_pub_end() (or rvm_store_pub).  Where the platform can flush this
 * hart's data cache (plat.flush), a wait that lasts 4 x stale_cycles
 * flushes and looks again (then after twice as long, and so on); a value
 * first seen right after a flush whose store was published more than
 * stale_cycles before is reported (`bug test=visibility`) and this hart
 * then flushes before every read of every wait.  wait_flush=1 flushes from
 * the start and reports nothing.
 */
struct rvm_wait {
	const char *where;  /* names the wait in a finding */
	uint64_t next;      /* this hart's cycles at the next flush */
	uint64_t gap;       /* cycles to the next flush: doubles from 4 x stale_cycles */
	uint32_t polls;
	uint32_t flushed;   /* the last poll flushed */
};
#define RVM_WAIT_LOOK      16u   /* polls between two looks at the cycle counter */
#define RVM_STALE_MIN      1000u /* stale_cycles below this are taken as this */
#define RVM_STALE_FIRST    4u    /* the first flush after 4 x stale_cycles */
#define RVM_STALE_GAP_MAX  128u  /* flushes at least every 128 x stale_cycles */
/* The work of the calls below (firmware/wait.c); on a platform that cannot
 * flush they do nothing, and the calls cost a test of plat.flush. */
void rvm_wait_begin_(struct rvm_wait *w, const char *where);
void rvm_wait_poll_(struct rvm_wait *w);
void rvm_wait_saw_(struct rvm_wait *w, const volatile void *addr, uint64_t val);
void rvm_pub_begin_(const volatile void *addr, uint64_t val);
void rvm_pub_end_(void);
static inline void rvm_wait_begin(struct rvm_wait *w, const char *where)
{
	w->flushed = 0;
	if (plat.flush)
		rvm_wait_begin_(w, where);
}
/* Before each read of the awaited word(s). */
static inline void rvm_wait_poll(struct rvm_wait *w)
{
	if (plat.flush)
		rvm_wait_poll_(w);
}
/* The wait ended on value `val` stored at `addr` by another hart. */
static inline void rvm_wait_saw(struct rvm_wait *w, const volatile void *addr, uint64_t val)
{
	if (w->flushed)
		rvm_wait_saw_(w, addr, val);
}
/* The store of `val` to `addr` that other harts wait for: begin before it,
 * end after it. */
static inline void rvm_pub_begin(const volatile void *addr, uint64_t val)
{
	if (plat.flush)
		rvm_pub_begin_(addr, val);
}
static inline void rvm_pub_end(void)
{
	if (plat.flush)
		rvm_pub_end_();
}
/* A 32-bit store of v to *p, published (release ordering). */
void rvm_store_pub(volatile uint32_t *p, uint32_t v);
/* Before reading data another hart stored (not in a wait: its payload,
 * its counts): flushes when this hart flushes for its waits. */
void rvm_poll(void);
/* 1 when this hart flushes before its reads (wait_flush=1, or after its
 * visibility finding). */
int rvm_flushing(void);
/* rvm_poll when the platform can flush, else NULL: for asm loops that call
 * it only where it matters (firmware/kernels/mess.S). */
void (*rvm_poll_fn(void))(void);

/* Wait until *p differs from old and return the new value, sleeping in wfi
 * when the platform can wake harts (else spinning, as an rvm_wait named
 * `where`).  Whoever changes *p publishes the store (rvm_store_pub) and
 * calls rvm_wake() for each waiting hart afterwards. */
uint32_t rvm_wait_change(volatile uint32_t *p, uint32_t old, const char *where);
void rvm_wake(uint32_t hartid);

/* Hart states (low byte of rvm_hstate[]; the rendezvous generation is above it). */
enum {
	HS_NONE = 0,    /* not taking part */
	HS_ALIVE,       /* taking part, arrived at generation (state >> 8) */
	HS_MISSING,     /* did not arrive at the first rendezvous */
	HS_TRAPPED,     /* took an unexpected trap and parked */
	HS_HUNG,        /* did not arrive at a later rendezvous */
	HS_DONE,        /* arrived at the final rendezvous */
};
extern volatile uint32_t rvm_hstate[RVM_MAX_HARTS];
const char *rvm_state_name(uint32_t st);

/* What the lead tells the others when it releases a rendezvous.  The
 * rendezvous (firmware/sync.c) interprets only CMD_END; the others are the
 * business of the follower's handler (boot.c: the hart record, suites.c:
 * a suite's turn). */
enum { CMD_NONE = 0, CMD_HART_RECORD, CMD_RUN, CMD_RUN_ALL, CMD_END };

/* What a follower does when the lead releases a rendezvous with cmd/arg
 * (never called for CMD_END). */
typedef void (*rvm_cmd_fn)(uint32_t cmd, uint32_t arg);
/* Non-lead harts: follow the lead until CMD_END, running `fn` for every
 * other command (never returns). */
void rvm_follow(rvm_cmd_fn fn) __attribute__((noreturn));
/* Lead: release generation g with a command, then collect generation g+1. */
void rvm_lead_step(uint32_t cmd, uint32_t arg, const char *where);
/* The two halves of rvm_lead_step, for work the lead does while the others
 * run (CMD_RUN_ALL): release, do the lead's part, then collect. */
void rvm_lead_release(uint32_t cmd, uint32_t arg);
void rvm_lead_collect(uint32_t cmd, const char *where);

/* ---- run state ------------------------------------------------------------- */

struct rvm_run {
	struct rvm_config cfg;    /* copy of the config block as validated */
	int      cfg_ok;
	int      fdt_state;       /* 0 ok, 1 bad, 2 none */
	uint64_t mem_base, mem_size;
	uint64_t heap_base, heap_size;
	uint64_t timebase;        /* Hz */
	uint32_t lead;
	uint32_t nharts;          /* participants */
	uint32_t hartids[RVM_MAX_HARTS]; /* participants in logical-index order */
	uint64_t cpu_hz[RVM_MAX_HARTS];  /* by hartid */
	const char *isa;
	int      time_shared;     /* pm_time() reads one timer shared by every hart */
};
extern struct rvm_run rvm;
extern struct fdt_info rvm_fdt;

/* ---- records (firmware/record.c) ------------------------------------------- */

#define RVM_REC_MAX 1024
struct rec {
	uint32_t n;
	char b[RVM_REC_MAX];
};

void rec_begin(struct rec *r, enum rvm_rec_type type);
void rec_u(struct rec *r, const char *key, uint64_t v);
void rec_x(struct rec *r, const char *key, uint64_t v);
void rec_s(struct rec *r, const char *key, const char *s);
/* num/den as fixed point with three decimals, rounded half up; den 0 gives 0.000 */
void rec_fx(struct rec *r, const char *key, uint64_t num, uint64_t den);
void rec_ulist(struct rec *r, const char *key, const uint32_t *v, uint32_t n);
/* Print the record (takes the console lock, assigns the sequence number). */
uint64_t rec_emit(struct rec *r);
uint64_t rec_count(void); /* records printed so far */
/* When set and it returns 0, rec_emit drops the record (a written-off hart). */
extern int (*rec_gate)(void);

/* Convenience records; err also counts towards the run's status. */
void rvm_warn(const char *what, const char *msg);
void rvm_err(const char *what, const char *msg);
void rvm_err_at(const char *what, const char *msg, uint64_t addr, uint64_t want, uint64_t got);
extern volatile uint32_t rvm_nerr;   /* err + trap records */

/* Called by the trap path: forget the console lock if this hart holds it. */
void rec_trap_unlock(void);

/* ---- numbers (firmware/num.c) ---------------------------------------------- */

/* floor(a * b / c) without intermediate overflow; saturates; c == 0 gives 0. */
uint64_t rvm_muldiv(uint64_t a, uint64_t b, uint64_t c);
/* ticks of the timebase to nanoseconds */
uint64_t rvm_ticks_ns(uint64_t ticks);
/* cycles -> ns at hz cycles per second (0 when hz is 0) */
uint64_t rvm_cycles_ns(uint64_t cycles, uint64_t hz);

/* xorshift64* PRNG */
#include "rvmess/rng.h"

/* ---- counters -------------------------------------------------------------- */

struct stamp { uint64_t cycles, instret, ticks; };
void stamp_now(struct stamp *s);
/* delta b - a */
void stamp_diff(struct stamp *d, const struct stamp *a, const struct stamp *b);

/* ---- traps (firmware/trap.c) ----------------------------------------------- */

/* Run `fn` in probe mode: a trap skips the instruction.  Returns 1 if it trapped. */
int rvm_probe(void (*fn)(void));

/* ---- end of the run (firmware/finish.c) ------------------------------------ */

/* Finish the run (lead only): end record, exit.  Never returns. */
void rvm_finish(void) __attribute__((noreturn));

/* ---- heap ------------------------------------------------------------------ */

/* The suites' memory: [rvm.heap_base, +heap_size), 4 KiB aligned.  Each suite
 * owns all of it while it runs. */
static inline void *rvm_heap(void) { return (void *)(uintptr_t)rvm.heap_base; }

/* ---- time ------------------------------------------------------------------ */

void rvm_delay_ticks(uint64_t ticks);

#endif
