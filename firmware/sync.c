/*
 * Hart states and the lead-driven rendezvous.
 *
 * rvm_hstate[h] = (generation << 8) | state.  A hart arrives at generation g
 * by CAS (ALIVE, g-1) -> (ALIVE, g); the lead, at the timeout, declares it
 * missing/hung by CAS (ALIVE, g-1) -> (MISSING|HUNG, g-1).  Exactly one of the
 * two wins, so a late hart either counts or finds itself written off and
 * parks without printing anything.
 *
 * The lead releases generation g (others may leave it) by posting a command
 * and storing g in `released`; the others wait for that without a timeout
 * (if the lead traps, the trap path ends the run).
 *
 * Below the suites and the boot code: what a command means is the business
 * of the handler the followers pass to rvm_follow(); only CMD_END is known
 * here.  Uses the run state (firmware/state.c), the records and the platform.
 */
#include "platform.h"
#include "rvmess/rt.h"
#include "sync.h"

static volatile uint32_t released;
static volatile uint32_t cmd_word, cmd_arg;
static uint32_t gen; /* lead: generation every live hart has arrived at */

#define ST(s)  ((s) & 0xffu)
#define GEN(s) ((s) >> 8)
#define MK(st, g) (((uint32_t)(g) << 8) | (st))

void sync_init(void)
{
	for (uint32_t i = 0; i < rvm.nharts; i++)
		rvm_hstate[rvm.hartids[i]] = MK(HS_ALIVE, 0);
	gen = 0;
	released = 0;
}

/* Calling hart arrives at generation g with state st (ALIVE or DONE). */
int sync_arrive(uint32_t g, uint32_t st)
{
	volatile uint32_t *p = &rvm_hstate[rvm_hartid()];
	uint32_t want = MK(HS_ALIVE, g - 1);
	int ok;

	rvm_pub_begin(p, MK(st, g));
	ok = __atomic_compare_exchange_n(p, &want, MK(st, g), 0, __ATOMIC_ACQ_REL,
	                                 __ATOMIC_ACQUIRE);
	rvm_pub_end();
	return ok;
}

void sync_mark(uint32_t hartid, uint32_t st)
{
	__atomic_store_n(&rvm_hstate[hartid], MK(st, GEN(rvm_hstate[hartid])), __ATOMIC_RELEASE);
}

static void missing_record(uint32_t h, const char *where)
{
	struct rec r;
	rec_begin(&r, REC_MISSING);
	rec_u(&r, "hart", h);
	rec_s(&r, "where", where);
	rec_emit(&r);
}

/*
 * Lead: wait until every live participant arrived at generation g, at most
 * timeout_ms; write off the others with state `fail`.  With `report`, print
 * a `missing` record for each written-off hart.  Returns how many were
 * written off.
 */
static uint32_t collect(uint32_t g, uint32_t fail, const char *where, int report)
{
	uint64_t limit = rvm_muldiv(rvm.cfg_ok ? rvm.cfg.timeout_ms : 2000, rvm.timebase, 1000);
	uint64_t t0 = pm_time(), waiting = ~0ull; /* bit i: participant i not arrived */
	uint32_t lost = 0;
	struct rvm_wait w;

	rvm_wait_begin(&w, where);
	for (;;) {
		uint64_t pending = 0;
		rvm_wait_poll(&w);
		for (uint32_t i = 0; i < rvm.nharts; i++) {
			uint32_t s = rvm_hstate[rvm.hartids[i]];
			if (rvm.hartids[i] != rvm.lead && ST(s) == HS_ALIVE && GEN(s) < g)
				pending |= 1ull << i;
			else if (w.flushed && (waiting >> i & 1))
				rvm_wait_saw(&w, &rvm_hstate[rvm.hartids[i]], s);
		}
		waiting = pending;
		if (!pending)
			break;
		if (pm_time() - t0 <= limit)
			continue;
		for (uint32_t i = 0; i < rvm.nharts; i++) {
			uint32_t h = rvm.hartids[i];
			uint32_t s = rvm_hstate[h];
			if (h == rvm.lead || ST(s) != HS_ALIVE || GEN(s) >= g)
				continue;
			if (__atomic_compare_exchange_n(&rvm_hstate[h], &s, MK(fail, GEN(s)), 0,
			                                __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
				lost++;
				if (report)
					missing_record(h, where);
			}
		}
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return lost;
}

uint32_t sync_first(void)
{
	/* the lead arrives at generation 1 and waits for the others */
	gen = 1;
	rvm_hstate[rvm.lead] = MK(HS_ALIVE, 1);
	return collect(1, HS_MISSING, "boot", 0);
}

uint32_t sync_gen(void)
{
	return gen;
}

void sync_report_missing(void)
{
	for (uint32_t i = 0; i < rvm.nharts; i++)
		if (ST(rvm_hstate[rvm.hartids[i]]) == HS_MISSING)
			missing_record(rvm.hartids[i], "boot");
}

uint32_t rvm_wait_change(volatile uint32_t *p, uint32_t old, const char *where)
{
	uint32_t v;

	if (!plat.ipi_send || !plat.ipi_clear) {
		struct rvm_wait w;
		rvm_wait_begin(&w, where);
		while (rvm_wait_poll(&w), (v = __atomic_load_n(p, __ATOMIC_ACQUIRE)) == old)
			;
		rvm_wait_saw(&w, p, v);
		return v;
	}
	for (;;) {
		plat.ipi_clear();
		rvm_poll();
		if ((v = __atomic_load_n(p, __ATOMIC_ACQUIRE)) != old)
			return v;
		pm_idle();
	}
}

void rvm_wake(uint32_t hartid)
{
	if (plat.ipi_send)
		plat.ipi_send(hartid);
}

/* Followers sleep in wfi between steps when the platform can wake them. */
static void wait_released(uint32_t g)
{
	if (!plat.ipi_send || !plat.ipi_clear) {
		struct rvm_wait w;
		uint32_t r;
		rvm_wait_begin(&w, "release");
		while (rvm_wait_poll(&w), (r = __atomic_load_n(&released, __ATOMIC_ACQUIRE)) < g)
			;
		rvm_wait_saw(&w, &released, r);
		return;
	}
	for (;;) {
		plat.ipi_clear();
		rvm_poll();
		if (__atomic_load_n(&released, __ATOMIC_ACQUIRE) >= g)
			return;
		pm_idle();
	}
}

static void wake_all(void)
{
	if (!plat.ipi_send)
		return;
	for (uint32_t i = 0; i < rvm.nharts; i++) {
		uint32_t h = rvm.hartids[i];
		if (h != rvm.lead && (rvm_hstate[h] & 0xffu) == HS_ALIVE)
			plat.ipi_send(h);
	}
}

void rvm_lead_release(uint32_t cmd, uint32_t arg)
{
	cmd_word = cmd;
	cmd_arg = arg;
	rvm_store_pub(&released, gen);
	wake_all();
}

void rvm_lead_step(uint32_t cmd, uint32_t arg, const char *where)
{
	rvm_lead_release(cmd, arg);
	rvm_lead_collect(cmd, where);
}

void rvm_lead_collect(uint32_t cmd, const char *where)
{
	gen++;
	if (ST(rvm_hstate[rvm.lead]) != HS_TRAPPED) /* a trapped lead still ends the run */
		rvm_hstate[rvm.lead] = MK(cmd == CMD_END ? HS_DONE : HS_ALIVE, gen);
	collect(gen, HS_HUNG, where, 1);
}

void rvm_follow(rvm_cmd_fn fn)
{
	uint32_t g = 1; /* arrived at generation 1 */

	if (plat.ipi_send)
		pm_idle_init();
	for (;;) {
		wait_released(g);
		uint32_t cmd = cmd_word, arg = cmd_arg;
		if (cmd != CMD_END)
			fn(cmd, arg);
		if (!sync_arrive(g + 1, cmd == CMD_END ? HS_DONE : HS_ALIVE))
			rvm_park(); /* written off as hung: stay silent */
		if (cmd == CMD_END)
			rvm_park();
		g++;
	}
}
