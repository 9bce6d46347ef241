/*
 * Waiting for another hart's store, and the check that such a store becomes
 * visible at all.
 *
 * A hart that waits for a word another hart stores reads it in a loop:
 *
 *     struct rvm_wait w;
 *     rvm_wait_begin(&w, "boot");
 *     while (rvm_wait_poll(&w), (v = flag) == old)
 *         ;
 *     rvm_wait_saw(&w, &flag, v);
 *
 * and the hart that stores the word brackets the store with
 * rvm_pub_begin(&flag, v) and rvm_pub_end() (or calls rvm_store_pub).
 *
 * On a coherent memory system the new value reaches every reader within a
 * few hundred cycles of the store.  A private data cache that misses an
 * invalidation keeps the old copy for ever; a platform that can empty this
 * hart's data cache (plat.flush, e.g. OpenPiton's Ariane L1D through CSR
 * 0x701) lets the check find out.  A wait that has lasted 4 x stale_cycles
 * flushes once and looks again, then again after twice as long, and so on
 * (at most every 128 x stale_cycles).  When the awaited value is first seen
 * by the read right after such a flush, and the newest publication of that
 * value at that address was made more than stale_cycles earlier (the
 * writer's timestamp, taken after its store and a fence, so the store is at
 * least that old), the store stayed invisible to this hart for that long,
 * where a coherent memory system shows it within hundreds of cycles:
 * a `bug` record with test=visibility names the waiting hart, the writer,
 * the address, the cycles and the wait, and from then on this hart flushes
 * before every read of every wait (rvm_poll), so that the run still ends.
 * A store made while the hart waits is revealed by the next flush at an
 * age between 0 and the gap since the one before, so such a wait reports
 * it with a probability of at least 3/4 (the first gap is 4 x
 * stale_cycles); one made before the wait began, always.  A value still
 * missing after a flush is a store not made yet, or a hung writer: the
 * callers' timeouts report those as before.  A publication in
 * progress (stamped pending before the store) or none at all reports
 * nothing: the check only ever errs towards silence.  Timestamps are
 * compared only when every hart reads one shared timer (rvm.time_shared).
 *
 * wait_flush=1 (config) flushes before every read from the start and never
 * reports: for a platform known to need it.  Without plat.flush nothing here
 * flushes or reports (the platform is coherent, or cannot tell).
 */
#include "platform.h"
#include "rvmess/rt.h"
#include "cfg.h"

/* What each hart published last (rvm_pub_begin/end), a line each. */
struct pub {
	volatile uintptr_t addr;
	volatile uint64_t val;
	volatile uint64_t t;       /* pm_time() after the store; RVM_PUB_PENDING before */
	uint64_t pad[5];
};
#define RVM_PUB_PENDING (~0ull)
static struct pub pubs[RVM_MAX_HARTS] __attribute__((aligned(64)));

/* This hart flushes before every read of a wait (after its finding). */
static volatile uint8_t flushing[RVM_MAX_HARTS];

static uint64_t stale_cycles(void)
{
	const volatile struct rvm_config *c = &rvm_config_block;
	uint64_t s = c->stale_cycles;

	return s < RVM_STALE_MIN ? RVM_STALE_MIN : s;
}

static int flush_always(void)
{
	return rvm_config_block.wait_flush != 0;
}

int rvm_flushing(void)
{
	return plat.flush && (flush_always() || flushing[rvm_hartid()]);
}

void rvm_poll(void)
{
	if (rvm_flushing())
		plat.flush();
}

void (*rvm_poll_fn(void))(void)
{
	return plat.flush ? rvm_poll : 0;
}

void rvm_wait_begin_(struct rvm_wait *w, const char *where)
{
	w->where = where;
	w->flushed = 0;
	w->polls = 0;
	w->gap = RVM_STALE_FIRST * stale_cycles();
	w->next = pm_cycles() + w->gap;
}

void rvm_wait_poll_(struct rvm_wait *w)
{
	uint64_t c;

	w->flushed = 0;
	if (rvm_flushing()) {
		plat.flush();
		return;
	}
	if (++w->polls & (RVM_WAIT_LOOK - 1))
		return;
	c = pm_cycles();
	if ((int64_t)(c - w->next) < 0)
		return;
	plat.flush();
	w->flushed = 1;
	if (w->gap < RVM_STALE_GAP_MAX * stale_cycles())
		w->gap *= 2;
	w->next = c + w->gap;
}

/* The newest publication of val at addr by another hart: its hart and
 * timestamp.  0 when there is none, or when any hart is publishing to addr
 * just now (stamped pending: its store may be the one just seen). */
static int newest_pub(uintptr_t addr, uint64_t val, uint32_t *hart, uint64_t *t)
{
	unsigned me = rvm_hartid();
	int found = 0;

	for (uint32_t h = 0; h < RVM_MAX_HARTS; h++) {
		uint64_t ph, pv;
		if (h == me || pubs[h].addr != addr)
			continue;
		__atomic_thread_fence(__ATOMIC_SEQ_CST); /* the writer stamped pending before it wrote addr */
		ph = pubs[h].t;
		pv = pubs[h].val;
		if (ph == RVM_PUB_PENDING)
			return 0;
		if (pv == val && (!found || ph > *t)) {
			*t = ph;
			*hart = h;
			found = 1;
		}
	}
	return found;
}

void rvm_wait_saw_(struct rvm_wait *w, const volatile void *addr, uint64_t val)
{
	unsigned me = rvm_hartid();
	uint64_t t = 0, now, hz, age, cyc, bound = stale_cycles();
	uint32_t writer = 0;
	struct rec r;

	if (!w->flushed || flush_always() || flushing[me] || !rvm.time_shared)
		return;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!newest_pub((uintptr_t)addr, val, &writer, &t))
		return;
	now = pm_time();
	hz = rvm.cpu_hz[rvm.lead];
	if (now <= t || !hz || !rvm.timebase)
		return;
	age = now - t;
	cyc = rvm_muldiv(age, hz, rvm.timebase);
	if (cyc <= bound)
		return;
	flushing[me] = 1; /* first: the record's own console lock may wait */
	rec_begin(&r, REC_BUG);
	rec_s(&r, "test", "visibility");
	rec_u(&r, "waiter", me);
	rec_u(&r, "writer", writer);
	rec_x(&r, "addr", (uintptr_t)addr);
	rec_x(&r, "val", val);
	rec_u(&r, "cycles", cyc);
	rec_s(&r, "where", w->where);
	rec_emit(&r);
	__atomic_fetch_add(&rvm_nerr, 1, __ATOMIC_RELAXED);
}

/* Publications are read only by a waiter that flushed: the inline
 * rvm_pub_begin/end skip them where nothing can flush. */
void rvm_pub_begin_(const volatile void *addr, uint64_t val)
{
	struct pub *p = &pubs[rvm_hartid()];

	p->t = RVM_PUB_PENDING;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	p->addr = (uintptr_t)addr;
	p->val = val;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void rvm_pub_end_(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	/* before the lead has set up the timer (a trap's record) nothing is
	 * stamped: such a publication never reports */
	pubs[rvm_hartid()].t = rvm.time_shared ? pm_time() : RVM_PUB_PENDING;
}

void rvm_store_pub(volatile uint32_t *p, uint32_t v)
{
	rvm_pub_begin(p, v);
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
	rvm_pub_end();
}
