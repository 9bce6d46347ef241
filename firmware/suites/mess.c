/*
 * mess: the Mess bandwidth-latency curve family.
 *
 * The lead chases a random ring (mess_chase_size, far larger than the LLC)
 * while every other live hart runs a traffic generator: kernel
 * mess_kern_<S> (S stores per 50-operation block, mix = 2*S % stores) over
 * its own load and store arrays, then a nop loop of `pause` iterations.
 * For each grid point (mix x pause x rep) the lead starts the generators,
 * settles the point (settle(): chase windows discarded until the latency
 * stops moving), measures a window of mess_window_loads chase loads together with
 * the generators' operation counts and the platform's memory counters, stops
 * the generators, and prints one `mess` record.  After every point the
 * generators check their arrays and the lead re-walks the part of the ring
 * the point read; the whole ring's cycle structure is walked after every
 * curve.  A check that finds wrong words prints an `integ` record (check
 * mess-load, mess-store, mess-ring or mess-cycle: first wrong address,
 * expected and found value, count), which fails the run.
 *
 * Timed: filling the load arrays, the ring's last build pass (chain_random),
 * the lead's whole-ring warm-up, each point's settling and window, the
 * generators' kernels, and the checks (the generators' arrays, the lead's
 * ring re-walks: they change what the caches hold for the next point);
 * the rest (the ring's shuffle, stopping the generators and waiting for
 * them, the records) is a set-up phase (pm_setup_phase), which a simulator
 * may run untimed.
 */
#include "platform.h"
#include "rvmess/kernels.h"
#include "rvmess/mess.h"
#include "rvmess/rt.h"
#include "suites/suites.h"

#define BLOCK_OPS   50u
#define BLOCK_BYTES (BLOCK_OPS * RVM_LINE)

/* Per-hart generator state (the kernel reads it all and writes iters). */
static struct mess_gen gens[RVM_MAX_HARTS] __attribute__((aligned(64)));

/* Lead -> generators */
static struct {
	volatile uint32_t planned; /* gens[] and ack[] are laid out */
	volatile uint32_t epoch;   /* a new point starts when this changes */
	volatile uint32_t quit;
	volatile uint32_t kernel;  /* stores per block */
	volatile uint32_t corrupt; /* inject_corrupt: plant wrong words at this point */
	volatile uint64_t pause;
} ctl __attribute__((aligned(64)));

/* Generators -> lead: the epoch each one finished (and verified), one line each. */
static struct {
	volatile uint32_t started; /* the epoch whose kernel it is running */
	volatile uint32_t done;    /* the epoch it finished (and verified) */
	volatile uint32_t errors;  /* wrong words its checks found (their integ records tell) */
} ack[RVM_MAX_HARTS] __attribute__((aligned(64)));

static uint32_t ngen;                    /* generators taking part */
static uint32_t gen_hart[RVM_MAX_HARTS]; /* their hart ids */

static uint64_t load_word(uint64_t addr)
{
	return addr ^ 0x6d657373a5a5a5a5ull; /* what every load-array line holds */
}

static int is_store_slot(uint32_t slot, uint32_t stores)
{
	return (slot + 1) * stores / BLOCK_OPS != slot * stores / BLOCK_OPS;
}

static uint64_t timeout_ticks(void)
{
	return rvm_muldiv(rvm.cfg.timeout_ms, rvm.timebase, 1000);
}

/* ---- generator side ---------------------------------------------------- */

/* Check a generator's arrays after a point: every load-array line still
 * holds its word, every store slot the point's pattern.  A check with wrong
 * words prints its `integ` record (first wrong word, count); returns the
 * number of wrong words. */
static uint64_t gen_verify(struct mess_gen *g, uint32_t stores, uint64_t iters)
{
	struct integ_tally ld = { 0 }, st = { 0 };
	uint64_t nblocks = g->len / BLOCK_BYTES;
	uint64_t covered = iters < nblocks ? iters : nblocks;

	/* mess_share: the load array is the lead's ring, which the lead checks */
	for (uint64_t a = g->ld_base; !rvm.cfg.mess_share && a < g->ld_base + g->len; a += RVM_LINE) {
		uint64_t v = *(volatile uint64_t *)(uintptr_t)a;
		ld.words++;
		if (v != load_word(a))
			integ_bad(&ld, a, 1, load_word(a), v);
	}
	for (uint64_t b = 0; b < covered; b++)
		for (uint32_t s = 0; s < BLOCK_OPS; s++) {
			if (!is_store_slot(s, stores))
				continue;
			uint64_t a = g->st_base + b * BLOCK_BYTES + s * RVM_LINE;
			uint64_t v = *(volatile uint64_t *)(uintptr_t)a;
			st.words++;
			if (v != g->pattern)
				integ_bad(&st, a, 1, g->pattern, v);
		}
	if (ld.bad)
		integ_emit("mess-load", rvm_hartid(), &ld);
	if (st.bad)
		integ_emit("mess-store", rvm_hartid(), &st);
	return ld.bad + st.bad;
}

/* inject_corrupt: one wrong word in the load array (its second line) and
 * in the first store slot, for the checks to find. */
static void plant(struct mess_gen *g, uint32_t stores)
{
	uint64_t a = g->ld_base + RVM_LINE;
	if (!rvm.cfg.mess_share) /* else the load array is the ring: left to the ring's check */
		*(volatile uint64_t *)(uintptr_t)a = load_word(a) ^ 0xff;
	for (uint32_t s = 0; s < BLOCK_OPS; s++)
		if (is_store_slot(s, stores)) {
			*(volatile uint64_t *)(uintptr_t)(g->st_base + s * RVM_LINE) = g->pattern ^ 0xff00;
			break;
		}
}

static void generator(void)
{
	uint32_t h = rvm_hartid();
	struct mess_gen *g = &gens[h];
	uint32_t seen = 0;

	rvm_wait_change(&ctl.planned, 0, "mess-plan");
	rvm_fence();
	if (g->len == 0)
		return; /* no room for this generator's arrays */
	for (uint64_t a = g->ld_base; !rvm.cfg.mess_share && a < g->ld_base + g->len; a += RVM_LINE)
		*(volatile uint64_t *)(uintptr_t)a = load_word(a);
	pm_setup_phase(1); /* from here untimed but for the kernel */
	rvm_fence();
	rvm_store_pub(&ack[h].done, 0); /* ready */
	for (;;) {
		uint32_t e = rvm_wait_change(&ctl.epoch, seen, "mess-epoch");
		if (ctl.quit) {
			pm_setup_phase(0);
			return;
		}
		rvm_fence();
		seen = e;
		uint32_t stores = ctl.kernel;
		g->pause = ctl.pause;
		g->pattern = ((uint64_t)e << 32) | ((uint64_t)h << 8) | 0x4d;
		g->iters = 0;
		rvm_fence();
		pm_setup_phase(0);
		rvm_store_pub(&ack[h].started, e);
		rvm_mess_kernels[stores](g);
		rvm_fence();
		if (ctl.corrupt)
			plant(g, stores);
		/* timed: reading the arrays evicts the point's dirty lines, as
		 * the next point expects */
		ack[h].errors += (uint32_t)gen_verify(g, stores, g->iters);
		pm_setup_phase(1);
		rvm_fence();
		rvm_store_pub(&ack[h].done, e);
	}
}

/* ---- lead side ------------------------------------------------------------- */

static void plan(void);

static void wake_gens(void)
{
	for (uint32_t i = 0; i < ngen; i++)
		rvm_wake(gen_hart[i]);
}

/* Tell the generators to return (a new epoch with quit set). */
static void quit_gens(void)
{
	ctl.quit = 1;
	rvm_fence();
	rvm_store_pub(&ctl.epoch, ctl.epoch + 1);
	wake_gens();
}

/* Wait until every generator acknowledged epoch e; a late one is written off. */
static void wait_gens(uint32_t e, const char *where)
{
	uint64_t t0 = pm_time(), lim = timeout_ticks();
	uint32_t kept = 0;
	for (uint32_t i = 0; i < ngen; i++) {
		uint32_t h = gen_hart[i], d;
		struct rvm_wait w;
		rvm_wait_begin(&w, "mess-done");
		while (rvm_wait_poll(&w), (d = ack[h].done) != e && pm_time() - t0 <= lim)
			;
		if (d == e) {
			rvm_wait_saw(&w, &ack[h].done, d);
			gen_hart[kept++] = h;
			continue;
		}
		if (ack[h].done == e)
			gen_hart[kept++] = h;
		else /* written off: it takes no part in later points */
			rvm_err_at("mess-generator", where, h, e, ack[h].done);
	}
	ngen = kept;
	rvm_fence();
}

/* The generators' iteration counts (their stores: rvm_poll() first, so
 * that a target whose L1D keeps a line another hart stores to (OpenPiton)
 * reads them fresh, not the copy the last look left). */
static uint64_t gen_iters_sum(uint64_t *per)
{
	uint64_t s = 0;
	rvm_poll();
	for (uint32_t i = 0; i < ngen; i++) {
		per[i] = gens[gen_hart[i]].iters;
		s += per[i];
	}
	return s;
}

/*
 * Compare what the memory counters saw with what the program caused, in
 * lines.  Reads: the generators' loads and write-allocates plus the chase's
 * misses, within 10 %.  Writes lag (the LLC holds dirty lines for a while),
 * so they are only checked for excess: more write-backs than stores, beyond
 * what a quarter of the reads' evictions could carry over, is traffic the
 * program cannot cause (a cache writing back clean lines, for instance).
 */
static void warn_lines(const char *what, const char *msg, uint64_t want, uint64_t got)
{
	struct rec r;
	rec_begin(&r, REC_WARN);
	rec_s(&r, "what", what);
	rec_s(&r, "msg", msg);
	rec_u(&r, "want", want);
	rec_u(&r, "got", got);
	rec_emit(&r);
}

static void check_traffic(uint64_t ctr_rd, uint64_t ctr_wr, uint64_t want_rd, uint64_t want_wr)
{
	uint64_t d = ctr_rd > want_rd ? ctr_rd - want_rd : want_rd - ctr_rd;
	/* with mess_share the generators read lines the chase brought in:
	 * their loads are not memory reads, so only the writes are checked */
	if (!rvm.cfg.mess_share && d * 10 > want_rd && d > 1024)
		warn_lines("bw-disagree", "memory_reads_differ_from_issued_reads_by_more_than_10%",
		           want_rd, ctr_rd);
	if (ctr_wr > 2 * want_wr + ctr_rd / 4 + 1024)
		warn_lines("wr-excess", "memory_writes_exceed_what_the_stores_can_cause", want_wr,
		           ctr_wr);
}

struct sample {
	struct stamp st;          /* the chase window's edge */
	struct stamp gs;          /* the window start's: before the generators' counts */
	uint64_t iters[RVM_MAX_HARTS];
	struct pm_memctl mc;
	uint64_t l1d_miss, llc_miss;
};

/*
 * The counts at a window's edge, the slow reads outside the chase's time:
 * reading every generator's count is a coherence miss each (a line its
 * hart keeps writing), microseconds with 63 generators, which timed inside
 * the window read as chase latency (1 % at light load on 64 harts).  At
 * the start (end 0): the generators' counts, then the counters and the
 * stamp; at the end: the stamp, then the counters and the generators'
 * counts.  The generators' window runs from the stamp before their counts
 * at the start (gs) to the end's stamp: each count is read the same time
 * after its window's edge at both ends.
 */
static void sample(struct sample *s, int have_mc, int have_hpm, int end)
{
	if (end)
		stamp_now(&s->st);
	else {
		stamp_now(&s->gs);
		gen_iters_sum(s->iters);
	}
	if (have_hpm) {
		s->l1d_miss = pm_event_read(PM_EV_L1D_MISS);
		s->llc_miss = pm_event_read(PM_EV_LLC_MISS);
	}
	if (have_mc)
		pm_memctl_read(&s->mc);
	if (end)
		gen_iters_sum(s->iters);
	else
		stamp_now(&s->st);
}

/*
 * Settle a point before it is measured.  The point before it has drained
 * (its generators stopped and verified their arrays, the lead re-walked
 * its part of the ring: no memory operation of it is in flight), but a
 * memory system keeps state longer than its queues: a controller's
 * bandwidth estimate, a throttle, a refresh or page policy.  So the chase
 * runs windows of `win` iterations under the new point's traffic and
 * discards them while its latency still moves one way: until a window is
 * within 1/SETTLE_TOL of the one before it, or moves the other way than the
 * window before it did (the drift is below the noise), at least SETTLE_MIN
 * windows (two can agree while a store mix's dirty lines still build up)
 * and at most SETTLE_MAX.  Returns the chase pointer; adds the
 * iterations to *steps and sets *nwin to the windows it ran.
 */
#define SETTLE_TOL 400 /* 0.25 % */
#define SETTLE_MIN 3
#define SETTLE_MAX 16

static void *settle(void *p, uint64_t win, uint64_t *steps, uint32_t *nwin)
{
	uint64_t prev = 0;
	int dir = 0;
	uint32_t k;
	for (k = 1; k <= SETTLE_MAX; k++) {
		struct stamp a, b;
		struct meas m;
		stamp_now(&a);
		p = rvm_chase(p, win);
		stamp_now(&b);
		*steps += win;
		meas_take(&m, &a, &b, win * RVM_CHASE_UNROLL);
		uint64_t c = meas_cost(&m);
		if (k > 1) {
			uint64_t d = c > prev ? c - prev : prev - c;
			int now = c > prev ? 1 : c < prev ? -1 : 0;
			if (k >= SETTLE_MIN && (d * SETTLE_TOL <= prev || (dir && now != dir)))
				break;
			dir = now;
		}
		prev = c;
	}
	*nwin = k > SETTLE_MAX ? SETTLE_MAX : k;
	return p;
}

static void lead(void)
{
	const struct rvm_config *c = &rvm.cfg;
	void *ring = rvm_heap();
	uint64_t n = c->mess_chase_size / RVM_LINE;
	uint64_t iters = round_up(c->mess_window_loads, RVM_CHASE_UNROLL) / RVM_CHASE_UNROLL;
	uint64_t loads = iters * RVM_CHASE_UNROLL;
	uint64_t warm = iters / 8 ? iters / 8 : 1; /* a settling window (settle()) */
	uint32_t epoch = 0, points = c->mess_nmix * c->mess_npause * c->reps, done = 0;
	struct pm_memctl peak;
	int have_mc = pm_memctl_read(&peak) == 0;
	int have_hpm = pm_event_setup() == 0;
	void *p;

	pm_setup_phase(1);
	plan();
	chain_random(ring, n, RVM_LINE, c->seed);
	wait_gens(0, "generator_not_ready");
	if (ngen == 0) {
		rvm_err("mess", "no_generator_harts:_the_mess_suite_needs_at_least_2_harts");
		quit_gens();
		pm_setup_phase(0);
		return;
	}
	/* warm-up: the whole ring once, so that no line the build left in a
	 * cache is read by the first points */
	pm_setup_phase(0);
	p = rvm_chase(ring, (n + RVM_CHASE_UNROLL - 1) / RVM_CHASE_UNROLL);
	for (uint32_t mi = 0; mi < c->mess_nmix; mi++) {
		uint32_t mix = c->mess_mix[mi], stores = mix / 2;
		for (uint32_t pi = 0; pi < c->mess_npause; pi++)
			for (uint32_t rep = 0; rep < c->reps; rep++) {
				struct sample a, b;
				ctl.kernel = stores;
				ctl.corrupt = c->inject_corrupt && pi == 0 && rep == 0; /* each curve's first point */
				ctl.pause = c->mess_pause[pi];
				for (uint32_t i = 0; i < ngen; i++)
					gens[gen_hart[i]].stop = 0;
				rvm_fence();
				rvm_store_pub(&ctl.epoch, ++epoch);
				wake_gens();
				/* warm up: until every generator runs this point's kernel,
				 * then settle the point (settle()) */
				uint64_t t0 = pm_time(), steps = 0;
				void *p0 = p;
				for (uint32_t i = 0; i < ngen; i++) {
					uint32_t h = gen_hart[i], st;
					struct rvm_wait w;
					rvm_wait_begin(&w, "mess-start");
					while (rvm_wait_poll(&w), ((st = ack[h].started) != epoch || gens[h].iters == 0) &&
					       pm_time() - t0 < timeout_ticks())
						p = rvm_chase(p, 1), steps++;
					if (st == epoch)
						rvm_wait_saw(&w, &ack[h].started, st);
				}
				uint32_t nsettle;
				p = settle(p, warm, &steps, &nsettle);
				sample(&a, have_mc, have_hpm, 0);
				p = rvm_chase(p, iters);
				sample(&b, have_mc, have_hpm, 1);
				pm_setup_phase(1);
				for (uint32_t i = 0; i < ngen; i++)
					gens[gen_hart[i]].stop = 1;
				rvm_fence();
				wait_gens(epoch, "generator_did_not_stop");

				struct meas w, wg;
				meas_take(&w, &a.st, &b.st, loads);
				meas_take(&wg, &a.gs, &b.st, loads); /* the generators' window */
				uint64_t ns = w.ns, it = 0;
				for (uint32_t i = 0; i < ngen; i++)
					it += b.iters[i] - a.iters[i];
				uint64_t gl = it * (BLOCK_OPS - stores), gs = it * stores;
				uint64_t iss_rd = (gl + gs) * RVM_LINE, iss_wr = gs * RVM_LINE;
				struct rec r;
				rec_begin(&r, REC_MESS);
				rec_u(&r, "mix", mix);
				rec_u(&r, "pause", c->mess_pause[pi]);
				rec_u(&r, "rep", rep);
				rec_u(&r, "gens", ngen);
				rec_u(&r, "settle", nsettle);
				rec_meas(&r, &w);
				rec_u(&r, "gen_iters", it);
				rec_u(&r, "gen_loads", gl);
				rec_u(&r, "gen_stores", gs);
				rec_u(&r, "iss_rd", iss_rd);
				rec_u(&r, "iss_wr", iss_wr);
				rec_u(&r, "gen_ns", wg.ns);
				rec_fx(&r, "bw_iss", (iss_rd + iss_wr) * 1000, wg.ns);
				uint64_t rd = iss_rd, wr = iss_wr;
				if (have_mc) {
					uint64_t cr = b.mc.reads - a.mc.reads, cw = b.mc.writes - a.mc.writes;
					rec_u(&r, "ctr_rd", cr);
					rec_u(&r, "ctr_wr", cw);
					rec_fx(&r, "bw_ctr", (cr + cw) * RVM_LINE * 1000, ns);
					rd = cr;
					wr = cw;
				}
				if (rd + wr == 0) { /* no traffic seen: the kernel's nominal share */
					rd = BLOCK_OPS;
					wr = stores;
				}
				rec_fx(&r, "rd_pct", rd * 100, rd + wr);
				rec_s(&r, "src", have_mc ? "ctr" : "iss");
				if (have_mc && peak.peak_mbps)
					rec_u(&r, "peak", peak.peak_mbps);
				if (have_hpm) {
					uint64_t l1 = b.l1d_miss - a.l1d_miss, ll = b.llc_miss - a.llc_miss;
					rec_u(&r, "l1d_miss", l1);
					rec_u(&r, "llc_miss", ll);
					if (ll < loads / 2)
						rec_u(&r, "cached", 1);
				}
				rec_emit(&r);

				if (have_mc)
					check_traffic(b.mc.reads - a.mc.reads, b.mc.writes - a.mc.writes,
					              iss_rd / RVM_LINE + loads, iss_wr / RVM_LINE);
				steps = (steps + iters) * RVM_CHASE_UNROLL;
				if (ctl.corrupt && mi == 0) { /* the first element the point read: to the ring's start */
					volatile uint64_t *e = (volatile uint64_t *)p0;
					*e = *e == (uint64_t)(uintptr_t)ring ? (uint64_t)(uintptr_t)ring + RVM_LINE
					                                     : (uint64_t)(uintptr_t)ring;
				}
				/* timed again: the re-walk and the whole-ring check
				 * below read enough of the ring to change what the
				 * caches hold for the next point */
				pm_setup_phase(0);
				struct integ_tally rw = { 0 };
				chain_rewalk(ring, n, RVM_LINE, p0, steps, p, &rw);
				if (rw.bad)
					integ_emit("mess-ring", rvm_hartid(), &rw);
				prog_note("mess", ++done, points);
			}
		struct integ_tally cy = { 0 };
		chain_cycle(ring, n, RVM_LINE, &cy);
		if (cy.bad)
			integ_emit("mess-cycle", rvm_hartid(), &cy);
		/* the check walked the whole ring from its start back to it: the
		 * chase goes on from there, so the caches hold only the lines it
		 * reaches last (a full walk's warm-up) */
		p = ring;
	}
	(void)p;
	if (have_mc) { /* totals, comparable with the platform's own count */
		struct pm_memctl t;
		struct rec r;
		pm_memctl_read(&t);
		rec_begin(&r, REC_MEMCTL);
		rec_u(&r, "reads", t.reads);
		rec_u(&r, "writes", t.writes);
		rec_u(&r, "peak", t.peak_mbps);
		rec_emit(&r);
	}
	quit_gens();
}

/* Lay out the heap: the ring first, then two arrays per generator (with
 * mess_share, each generator loads from the ring instead of its first). */
static void plan(void)
{
	const struct rvm_config *c = &rvm.cfg;
	uint64_t base = rvm.heap_base + c->mess_chase_size;
	uint64_t len = c->mess_gen_size / BLOCK_BYTES * BLOCK_BYTES;
	uint64_t ring_len = c->mess_chase_size / BLOCK_BYTES * BLOCK_BYTES;

	if (c->mess_share && len > ring_len)
		len = ring_len;

	ngen = 0;
	for (uint32_t i = 0; i < rvm.nharts; i++) {
		uint32_t h = rvm.hartids[i];
		if (h == rvm.lead || (rvm_hstate[h] & 0xffu) != HS_ALIVE)
			continue;
		if (base + 2 * len > rvm.heap_base + rvm.heap_size)
			break; /* suite_mess_fits() refuses this before we get here */
		gens[h].ld_base = c->mess_share ? rvm.heap_base : base;
		gens[h].st_base = base + len;
		gens[h].len = len;
		gens[h].poll = rvm_poll_fn();
		gens[h].iters = 0;
		ack[h].done = ~0u;
		ack[h].errors = 0;
		base += 2 * len;
		gen_hart[ngen++] = h;
	}
	ctl.epoch = 0;
	ctl.quit = 0;
	rvm_fence();
	rvm_store_pub(&ctl.planned, 1);
	for (uint32_t i = 0; i < rvm.nharts; i++)
		if (rvm.hartids[i] != rvm.lead)
			rvm_wake(rvm.hartids[i]);
}

static void suite_mess(void)
{
	if (rvm_hartid() != rvm.lead) {
		generator();
		return;
	}
	lead();
}


/* together: every live hart runs it at once (lead: chase, others: generators) */
const struct suite mess_suite = { "mess", RVM_SUITE_MESS, suite_mess, 0, 1 };
