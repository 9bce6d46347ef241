/*
 * mess: the Mess bandwidth-latency curve family.
 *
 * The lead chases a random ring (mess_chase_size, far larger than the LLC)
 * while every other live hart runs a traffic generator: kernel
 * mess_kern_<S> (S stores per 50-operation block, mix = 2*S % stores) over
 * its own load and store arrays, then a nop loop of `pause` iterations.
 * For each grid point (mix x pause x rep) the lead starts the generators
 * and chases in timed batches (measure()): a warm-up until the point has
 * settled, then a window that ends when the chase latency is known to
 * mess_tol (a 95 % interval on the batch means; mess_tol=0: a fixed window
 * of mess_window_loads), with the generators' operation counts and the
 * platform's memory counters at its edges; it stops the generators and
 * prints one `mess` record.  After every point the generators check the
 * blocks of their arrays the point walked (with mess_check=N > 1, one line
 * in N of them: those whose number in the array equals the point's epoch
 * modulo N) and the lead checks that its chase ended where the ring's
 * numbering says (each element holds its place along the ring: a wrong
 * word followed on the way lands elsewhere); after the last point the
 * generators check the rest of their load arrays (with mess_check > 1,
 * all of it) and the lead walks the whole ring's cycle and numbers.
 * A check that finds wrong words prints an `integ` record (check
 * mess-load, mess-store, mess-ring or mess-cycle: first wrong address,
 * expected and found value, count), which fails the run.
 *
 * Timed: filling the load arrays, the ring's last build pass (chain_random),
 * the lead's warm-up walk, each point's batches, the generators' kernels,
 * and their per-point checks (they change what the caches hold for the
 * next point); the rest (the ring's shuffle and numbering, stopping the
 * generators and waiting for them, the records, the checks after the last
 * point) is a set-up phase (pm_setup_phase), which a simulator may run
 * untimed.
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

/* The words at ad[0..k) (k <= 8; lanes past k load ad[0] again) against
 * want ^ (their address if `mixed`): the eight loads issue before any
 * value is used, so an in-order core overlaps their misses. */
static void check_lanes(struct integ_tally *t, const uint64_t *ad, uint32_t k, uint64_t want, int mixed)
{
	uint64_t v0 = *(volatile uint64_t *)(uintptr_t)ad[0];
	uint64_t v1 = *(volatile uint64_t *)(uintptr_t)ad[k > 1 ? 1 : 0];
	uint64_t v2 = *(volatile uint64_t *)(uintptr_t)ad[k > 2 ? 2 : 0];
	uint64_t v3 = *(volatile uint64_t *)(uintptr_t)ad[k > 3 ? 3 : 0];
	uint64_t v4 = *(volatile uint64_t *)(uintptr_t)ad[k > 4 ? 4 : 0];
	uint64_t v5 = *(volatile uint64_t *)(uintptr_t)ad[k > 5 ? 5 : 0];
	uint64_t v6 = *(volatile uint64_t *)(uintptr_t)ad[k > 6 ? 6 : 0];
	uint64_t v7 = *(volatile uint64_t *)(uintptr_t)ad[k > 7 ? 7 : 0];
	__asm__ volatile("" : "+r"(v0), "+r"(v1), "+r"(v2), "+r"(v3), "+r"(v4), "+r"(v5), "+r"(v6), "+r"(v7));
	uint64_t v[8] = { v0, v1, v2, v3, v4, v5, v6, v7 };
	for (uint32_t j = 0; j < k; j++) {
		uint64_t w = want ^ (mixed ? ad[j] : 0);
		t->words++;
		if (v[j] != w)
			integ_bad(t, ad[j], 1, w, v[j]);
	}
}

/* The load array's lines at a, a + step, ... below end hold their words. */
static void verify_lines(struct integ_tally *t, uint64_t a, uint64_t end, uint64_t step)
{
	uint64_t ad[8];
	while (a < end) {
		uint32_t k = 0;
		for (; k < 8 && a < end; k++, a += step)
			ad[k] = a;
		check_lanes(t, ad, k, load_word(0), 1);
	}
}

/* Every line of the load array from block b0 to b1 holds its word. */
static void verify_loads(struct integ_tally *t, const struct mess_gen *g, uint64_t b0, uint64_t b1)
{
	verify_lines(t, g->ld_base + b0 * BLOCK_BYTES, g->ld_base + b1 * BLOCK_BYTES, RVM_LINE);
}

/* A point's check's records (mess-load, mess-store); its wrong words. */
static uint64_t report_checks(const struct integ_tally *ld, const struct integ_tally *st)
{
	if (ld->bad)
		integ_emit("mess-load", rvm_hartid(), ld);
	if (st->bad)
		integ_emit("mess-store", rvm_hartid(), st);
	return ld->bad + st->bad;
}

/* Check a generator's arrays after a point: the lines of the load array's
 * blocks the point walked still hold their words, every store slot of
 * those blocks the point's pattern.  (The load array's other blocks are
 * checked by the next point that walks them, and after the last point:
 * generator().)  A check with wrong words prints its `integ` record (first
 * wrong word, count); returns the number of wrong words. */
static uint64_t gen_verify(struct mess_gen *g, uint32_t stores, uint64_t covered)
{
	struct integ_tally ld = { 0 }, st = { 0 };
	uint64_t off[BLOCK_OPS], ad[8];
	uint32_t ns = 0;

	/* mess_share: the load array is the lead's ring, which the lead checks */
	if (!rvm.cfg.mess_share)
		verify_loads(&ld, g, 0, covered);
	for (uint32_t s = 0; s < BLOCK_OPS; s++)
		if (is_store_slot(s, stores))
			off[ns++] = s * RVM_LINE;
	for (uint64_t b = 0; b < covered && ns; b++)
		for (uint32_t s = 0; s < ns;) {
			uint32_t k = 0;
			for (; k < 8 && s < ns; k++, s++)
				ad[k] = g->st_base + b * BLOCK_BYTES + off[s];
			check_lanes(&st, ad, k, g->pattern, 0);
		}
	return report_checks(&ld, &st);
}

/*
 * mess_check=N > 1: a point's check reads only the lines of its walked
 * blocks whose number i in the array (line i is at base + 64 i) has
 * i % N == e % N, e the point's epoch, in the load array and among the
 * store slots alike; over N consecutive points every residue comes up
 * once.  The load array never changes, so a wrong word there is found
 * when its residue comes up, and by the whole array's check after the
 * last point at the latest; a store slot is rewritten by every point, so
 * a wrong word in a slot outside its point's sample is never seen.
 */

/* The point's epoch: the high word of its pattern (generator()). */
static uint32_t point_epoch(const struct mess_gen *g)
{
	return (uint32_t)(g->pattern >> 32);
}

/* The store slots among the store array's lines r, r + n, r + 2n, ... of
 * its first `covered` blocks, in order: slots_next() gives each one's
 * offset in the array, then UINT64_MAX. */
struct slots {
	uint64_t mask;    /* bit s: a block's line s is a store slot */
	uint64_t b, s;    /* the next line: block b, line s of it (s may be >= BLOCK_OPS) */
	uint64_t covered;
	uint32_t n;
};

static void slots_begin(struct slots *w, uint32_t stores, uint64_t covered, uint32_t n, uint32_t r)
{
	w->mask = 0;
	for (uint32_t s = 0; s < BLOCK_OPS; s++)
		if (is_store_slot(s, stores))
			w->mask |= 1ull << s;
	w->b = 0;
	w->s = r;
	w->covered = w->mask ? covered : 0;
	w->n = n;
}

static uint64_t slots_next(struct slots *w)
{
	for (;;) {
		while (w->s >= BLOCK_OPS) {
			w->s -= BLOCK_OPS;
			w->b++;
		}
		if (w->b >= w->covered)
			return UINT64_MAX;
		uint64_t s = w->s;
		w->s += w->n;
		if (w->mask >> s & 1)
			return w->b * BLOCK_BYTES + s * RVM_LINE;
	}
}

/* gen_verify() on the point's sample (mess_check > 1). */
static uint64_t gen_verify_sample(struct mess_gen *g, uint32_t stores, uint64_t covered)
{
	struct integ_tally ld = { 0 }, st = { 0 };
	uint32_t n = rvm.cfg.mess_check, r = point_epoch(g) % n;
	struct slots w;
	uint64_t ad[8], o;
	uint32_t k = 0;

	if (!rvm.cfg.mess_share)
		verify_lines(&ld, g->ld_base + (uint64_t)r * RVM_LINE, g->ld_base + covered * BLOCK_BYTES,
		             (uint64_t)n * RVM_LINE);
	slots_begin(&w, stores, covered, n, r);
	while ((o = slots_next(&w)) != UINT64_MAX) {
		ad[k++] = g->st_base + o;
		if (k == 8) {
			check_lanes(&st, ad, k, g->pattern, 0);
			k = 0;
		}
	}
	if (k)
		check_lanes(&st, ad, k, g->pattern, 0);
	return report_checks(&ld, &st);
}

/* The first store slot of the point's sample (mess_check > 1) in its
 * first `covered` blocks: its offset in the store array, or UINT64_MAX. */
static uint64_t sample_slot(const struct mess_gen *g, uint32_t stores, uint64_t covered)
{
	struct slots w;
	uint32_t n = rvm.cfg.mess_check;
	slots_begin(&w, stores, covered, n, point_epoch(g) % n);
	return slots_next(&w);
}

/* inject_corrupt: a wrong word in the load array's second line and in its
 * last (which a point that did not walk the whole array leaves to the
 * check after the last point), and in the first store slot (with
 * `sample`, the first one the point's sample checks in the blocks it
 * walked, if any), for the checks to find. */
static inline void plant(struct mess_gen *g, uint32_t stores, uint64_t nblocks, int sample)
{
	uint64_t a = g->ld_base + RVM_LINE, z = g->ld_base + g->len - RVM_LINE;
	if (!rvm.cfg.mess_share) { /* else the load array is the ring: left to the ring's check */
		*(volatile uint64_t *)(uintptr_t)a = load_word(a) ^ 0xff;
		*(volatile uint64_t *)(uintptr_t)z = load_word(z) ^ 0xff;
	}
	if (sample) {
		uint64_t o = sample_slot(g, stores, g->iters < nblocks ? g->iters : nblocks);
		if (o != UINT64_MAX)
			*(volatile uint64_t *)(uintptr_t)(g->st_base + o) = g->pattern ^ 0xff00;
		return;
	}
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
	int sample = rvm.cfg.mess_check > 1; /* each point checks one line in N */

	rvm_wait_change(&ctl.planned, 0, "mess-plan");
	rvm_fence();
	if (g->len == 0)
		return; /* no room for this generator's arrays */
	for (uint64_t a = g->ld_base; !rvm.cfg.mess_share && a < g->ld_base + g->len; a += RVM_LINE)
		*(volatile uint64_t *)(uintptr_t)a = load_word(a);
	pm_setup_phase(1); /* from here untimed but for the kernel */
	rvm_fence();
	rvm_store_pub(&ack[h].done, 0); /* ready */
	uint64_t nblocks = g->len / BLOCK_BYTES, covered = nblocks;
	for (;;) {
		uint32_t e = rvm_wait_change(&ctl.epoch, seen, "mess-epoch");
		if (ctl.quit) {
			/* the load array's blocks the last point did not walk (and so
			 * did not check) since the point that last walked them; with
			 * a sample, lines of every block went unchecked: all of it */
			struct integ_tally ld = { 0 };
			if (!rvm.cfg.mess_share)
				verify_loads(&ld, g, sample ? 0 : covered, nblocks);
			if (ld.bad) {
				integ_emit("mess-load", h, &ld);
				ack[h].errors += (uint32_t)ld.bad;
			}
			rvm_fence();
			rvm_store_pub(&ack[h].done, e); /* before the lead reads the totals */
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
			plant(g, stores, nblocks, sample);
		covered = g->iters < nblocks ? g->iters : nblocks;
		/* timed: reading the arrays evicts the point's dirty lines, as
		 * the next point expects (a sample evicts only its own) */
		if (sample)
			ack[h].errors += (uint32_t)gen_verify_sample(g, stores, covered);
		else
			ack[h].errors += (uint32_t)gen_verify(g, stores, covered);
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

/* ---- a point's batches: warm-up, window, interval ---------------------------- */

/*
 * A point is chased in batches of B loads, each timed alone (the cycle
 * counter read around rvm_chase; the timer where cycles do not count).
 * The batches first settle the point (the warm-up), then measure it (the
 * window), which ends when its latency is known to mess_tol: docs/mess.md
 * "Settled points" and "When a point's window ends".
 */
static int cost_in_cycles; /* batches are timed in cycles (else timer ticks) */

static inline uint64_t cost_now(void)
{
	return cost_in_cycles ? pm_cycles() : pm_time();
}

static inline uint64_t cost_at(const struct stamp *s)
{
	return cost_in_cycles ? s->cycles : s->ticks;
}

/* cost units to ns (linear: thousandths of a unit give thousandths of a ns) */
static uint64_t cost_ns(uint64_t v)
{
	return cost_in_cycles ? rvm_cycles_ns(v, rvm.cpu_hz[rvm_hartid()]) : rvm_ticks_ns(v);
}

static uint64_t point_loads; /* chase loads since the point began */

/*
 * Settle a point, then measure it.  The point before it has drained (its
 * generators stopped and verified their arrays: no memory operation of it
 * is in flight), but a memory system keeps state longer than its queues:
 * what the caches hold (the last point's lines, clean after the checks
 * read them, where this point's stores will leave dirty ones), a
 * controller's bandwidth estimate, a throttle, a refresh or page policy.
 * So the batches are first a warm-up, each starting with the window-edge
 * sample (the window may start there): the point is still moving
 *   - until its own traffic has replaced what the largest cache holds (the
 *     generators' blocks, read from their counts, plus the chase's loads,
 *     at least that cache's lines when the FDT gives its size): a store
 *     mix's write-backs begin only once the caches are full of its dirty
 *     lines, and till then the latency reads low, flat, however settled
 *     it looks;
 *   - while a batch moves the same way as the batch before it did, by more
 *     than 1/SETTLE_TOL; at least SETTLE_MIN batches, at most SETTLE_MAX
 *     once the caches have turned over, WARM_MAX in all.
 * The two batches that found the level are the window's first (the warm-up
 * measured them: they are not wasted); the window then goes on in batches
 * until it holds `cap` loads (a fixed window) or, with a tolerance, until
 * the 95 % interval of its batch means is within tol ppm of their mean
 * (bs_within()), between min and cap loads; a window whose halves still
 * differ (bs_halves_differ()) becomes warm-up and a new one starts.
 */
#define SETTLE_TOL 400 /* 0.25 % */
#define SETTLE_MIN 3
#define SETTLE_MAX 16
#define WARM_MAX   64
#define RESTART_MAX 64 /* window batches a point may give up to warm-up (a slow drift) */

static uint64_t cache_lines; /* the largest cache the FDT describes, in lines (0: unknown) */

#define WIN_XS 1024 /* the window's batch costs kept for the halves' test */

struct window {
	struct sample a, b;     /* the window's edges */
	struct bstats st;       /* its full batches */
	uint64_t xs[WIN_XS];    /* their costs (the first WIN_XS) */
	struct bstats pairs;    /* the sums of batches 1+2, 3+4, ... (vr) */
	uint64_t odd;           /* a batch waiting for its pair's second */
	uint64_t loads, cost;   /* chase loads and their cost (a last short batch too) */
	uint64_t half;          /* bs_half_milli() */
	uint32_t settle;        /* warm-up batches left out */
};

static struct sample warm_s[2]; /* the last two warm-up batches' starts */

static void win_add(struct window *w, uint64_t x)
{
	if (w->st.n < WIN_XS)
		w->xs[w->st.n] = x;
	bs_add(&w->st, x);
	if (w->st.n % 2 == 0)
		bs_add(&w->pairs, w->odd + x);
	else
		w->odd = x;
}

/* bs_vr_milli() of the window's batches */
static uint64_t win_vr_milli(const struct window *w)
{
	return bs_vr_milli(&w->st, &w->pairs);
}

static void *measure(void *p, struct window *w, uint64_t bl, uint64_t minl, uint64_t cap,
                     uint64_t tol, int have_mc, int have_hpm)
{
	uint64_t bit = bl / RVM_CHASE_UNROLL, x[2] = { 0, 0 }, lines[2] = { 0, 0 };
	int dir = 0;
	uint32_t k;

	for (k = 1;; k++) {
		struct sample *s = &warm_s[k & 1];
		sample(s, have_mc, have_hpm, 0); /* its stamp last: nothing else in the batch's time */
		p = rvm_chase(p, bit);
		x[k & 1] = cost_now() - cost_at(&s->st);
		point_loads += bl;
		/* lines the point had touched when this batch started: the
		 * generators' blocks and the chase's loads */
		uint64_t it = 0;
		for (uint32_t i = 0; i < ngen; i++)
			it += s->iters[i];
		lines[k & 1] = it * BLOCK_OPS + point_loads - bl;
		if (k == 1)
			continue;
		uint64_t c = x[k & 1], prev = x[(k - 1) & 1];
		uint64_t d = c > prev ? c - prev : prev - c;
		int now = c > prev ? 1 : c < prev ? -1 : 0;
		int turned = lines[(k - 1) & 1] >= cache_lines; /* before the window's first batch */
		if (k == WARM_MAX || (turned && (k >= SETTLE_MAX ||
		                                 (k >= SETTLE_MIN && (d * SETTLE_TOL <= prev || (dir && now != dir))))))
			break;
		dir = now;
	}
	uint32_t keep = cap >= 2 * bl ? 2 : 1;
	w->a = warm_s[(k - keep + 1) & 1];
	w->settle = k - keep;
	w->st = w->pairs = (struct bstats){ 0 };
	w->loads = w->cost = 0;
	for (uint32_t j = keep; j > 0; j--) {
		win_add(w, x[(k - j + 1) & 1]);
		w->cost += x[(k - j + 1) & 1];
		w->loads += bl;
	}
	int fresh = 0;                       /* the next batch starts a new window */
	uint64_t restart_left = RESTART_MAX; /* window batches the point may still give up */
	while (w->loads < cap) {
		if (tol && w->loads >= minl && w->st.n >= 2) {
			/* a window whose halves differ by more than their own
			 * noise and half the tolerance is still moving (a slow
			 * drift the batch-to-batch test missed): it was warm-up
			 * too, and a new window starts; else it ends once its
			 * latency is known to tol */
			if (w->st.n <= WIN_XS && restart_left >= w->st.n &&
			    bs_halves_differ(w->xs, w->st.n, bs_half_milli(&w->st), tol)) {
				restart_left -= w->st.n;
				w->settle += (uint32_t)w->st.n;
				w->st = w->pairs = (struct bstats){ 0 };
				w->loads = w->cost = 0;
				fresh = 1;
			} else if (bs_within(&w->st, tol))
				break;
		}
		uint64_t it = cap - w->loads < bl ? (cap - w->loads) / RVM_CHASE_UNROLL : bit;
		uint64_t t0;
		if (fresh) {
			sample(&w->a, have_mc, have_hpm, 0);
			t0 = cost_at(&w->a.st);
			fresh = 0;
		} else
			t0 = cost_now();
		p = rvm_chase(p, it);
		uint64_t c = cost_now() - t0;
		if (it == bit) /* a last short batch counts in the mean only */
			win_add(w, c);
		w->cost += c;
		w->loads += it * RVM_CHASE_UNROLL;
		point_loads += it * RVM_CHASE_UNROLL;
	}
	sample(&w->b, have_mc, have_hpm, 1);
	w->half = bs_half_milli(&w->st);
	return p;
}

static struct window win;

static void lead(void)
{
	const struct rvm_config *c = &rvm.cfg;
	void *ring = rvm_heap();
	uint64_t n = c->mess_chase_size / RVM_LINE;
	/* the window: fixed (mess_tol=0) or at most mess_max_loads; batches of
	 * at most half of it */
	uint64_t tol = c->mess_tol;
	uint64_t cap = round_up(tol ? c->mess_max_loads : c->mess_window_loads, RVM_CHASE_UNROLL);
	uint64_t bl = c->mess_batch_loads;
	if (bl > cap / 2)
		bl = cap / 2 / RVM_CHASE_UNROLL * RVM_CHASE_UNROLL;
	if (bl < RVM_CHASE_UNROLL)
		bl = RVM_CHASE_UNROLL;
	uint32_t epoch = 0, points = c->mess_nmix * c->mess_npause * c->reps, done = 0;
	struct pm_memctl peak;
	int have_mc = pm_memctl_read(&peak) == 0;
	int have_hpm = pm_event_setup() == 0;
	void *p;

	cost_in_cycles = rvm.cpu_hz[rvm_hartid()] != 0;
	pm_setup_phase(1);
	plan();
	chain_random(ring, n, RVM_LINE, c->seed);
	chain_number(ring, n); /* each element's place along the ring, for the checks */
	wait_gens(0, "generator_not_ready");
	if (ngen == 0) {
		rvm_err("mess", "no_generator_harts:_the_mess_suite_needs_at_least_2_harts");
		quit_gens();
		pm_setup_phase(0);
		return;
	}
	/* warm-up: no line the build left in a cache may be read by the first
	 * points.  The build's last pass leaves the ring's last lines in the
	 * caches; a walk of four times the largest cache the FDT describes
	 * evicts them (the chase then reads only lines it has not read since),
	 * and without that size, the whole ring once */
	cache_lines = (rvm.fdt_state == 0 ? rvm_fdt.cache_max : 0) / RVM_LINE;
	uint64_t warm = cache_lines && 4 * cache_lines < n ? 4 * cache_lines : n;
	pm_setup_phase(0);
	p = rvm_chase(ring, (warm + RVM_CHASE_UNROLL - 1) / RVM_CHASE_UNROLL);
	for (uint32_t mi = 0; mi < c->mess_nmix; mi++) {
		uint32_t mix = c->mess_mix[mi], stores = mix / 2;
		for (uint32_t pi = 0; pi < c->mess_npause; pi++)
			for (uint32_t rep = 0; rep < c->reps; rep++) {
				ctl.kernel = stores;
				ctl.corrupt = c->inject_corrupt && pi == 0 && rep == 0; /* each curve's first point */
				ctl.pause = c->mess_pause[pi];
				for (uint32_t i = 0; i < ngen; i++)
					gens[gen_hart[i]].stop = 0;
				rvm_fence();
				rvm_store_pub(&ctl.epoch, ++epoch);
				wake_gens();
				/* until every generator runs this point's kernel, then
				 * settle and measure the point (measure()) */
				uint64_t t0 = pm_time(), steps = 0;
				void *p0 = p;
				uint64_t pos0 = chain_pos(p0), right = 0;
				volatile uint64_t *e0 = (volatile uint64_t *)p0;
				if (ctl.corrupt && mi == 0) {
					/* while this point's chase reads it, the first element
					 * points at the ring's start (or the next line): a
					 * wrong word read once */
					uint64_t to = (uint64_t)(uintptr_t)ring;
					right = *e0;
					while (to == right || to == (uint64_t)(uintptr_t)p0)
						to += RVM_LINE;
					*e0 = to;
				}
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
				point_loads = steps * RVM_CHASE_UNROLL;
				p = measure(p, &win, bl, c->mess_min_loads, cap, tol, have_mc, have_hpm);
				struct sample *a = &win.a, *b = &win.b;
				pm_setup_phase(1);
				for (uint32_t i = 0; i < ngen; i++)
					gens[gen_hart[i]].stop = 1;
				rvm_fence();
				wait_gens(epoch, "generator_did_not_stop");

				/* the chase's time: its batches; the window's span (the
				 * lead's short sums between batches too) is what the
				 * counters saw, the generators' from their first count */
				struct meas w, span, wg;
				meas_take(&span, &a->st, &b->st, win.loads);
				meas_take(&wg, &a->gs, &b->st, win.loads);
				w = span;
				if (cost_in_cycles)
					w.cycles = win.cost;
				else
					w.ticks = win.cost;
				w.ns = cost_ns(win.cost);
				uint64_t ns = span.ns, it = 0;
				for (uint32_t i = 0; i < ngen; i++)
					it += b->iters[i] - a->iters[i];
				uint64_t gl = it * (BLOCK_OPS - stores), gs = it * stores;
				uint64_t iss_rd = (gl + gs) * RVM_LINE, iss_wr = gs * RVM_LINE;
				struct rec r;
				rec_begin(&r, REC_MESS);
				rec_u(&r, "mix", mix);
				rec_u(&r, "pause", c->mess_pause[pi]);
				rec_u(&r, "rep", rep);
				rec_u(&r, "gens", ngen);
				rec_u(&r, "settle", win.settle);
				rec_u(&r, "batch", bl);
				rec_u(&r, "batches", win.st.n);
				rec_meas(&r, &w);
				if (win.half != UINT64_MAX) /* ns per load, from ns x 1000 per batch */
					rec_fx(&r, "ci", cost_ns(win.half), bl * 1000);
				uint64_t vr = win_vr_milli(&win);
				if (vr != UINT64_MAX)
					rec_fx(&r, "vr", vr, 1000);
				rec_u(&r, "wall_ns", ns);
				rec_u(&r, "gen_iters", it);
				rec_u(&r, "gen_loads", gl);
				rec_u(&r, "gen_stores", gs);
				rec_u(&r, "iss_rd", iss_rd);
				rec_u(&r, "iss_wr", iss_wr);
				rec_u(&r, "gen_ns", wg.ns);
				rec_fx(&r, "bw_iss", (iss_rd + iss_wr) * 1000, wg.ns);
				uint64_t rd = iss_rd, wr = iss_wr;
				if (have_mc) {
					uint64_t cr = b->mc.reads - a->mc.reads, cw = b->mc.writes - a->mc.writes;
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
					uint64_t l1 = b->l1d_miss - a->l1d_miss, ll = b->llc_miss - a->llc_miss;
					rec_u(&r, "l1d_miss", l1);
					rec_u(&r, "llc_miss", ll);
					if (ll < win.loads / 2)
						rec_u(&r, "cached", 1);
				}
				rec_emit(&r);

				if (have_mc)
					check_traffic(b->mc.reads - a->mc.reads, b->mc.writes - a->mc.writes,
					              iss_rd / RVM_LINE + win.loads, iss_wr / RVM_LINE);
				/* the chase read what the ring holds: it ended as many
				 * places along the ring as it made loads (a wrong word
				 * read on the way sends it elsewhere) */
				struct integ_tally rw = { 0 };
				chain_moved(ring, n, RVM_LINE, pos0, point_loads, p, &rw);
				if (rw.bad)
					integ_emit("mess-ring", rvm_hartid(), &rw);
				if (ctl.corrupt && mi == 0) {
					/* the wrong word goes; a lasting one, for the ring's
					 * last check: the start's number */
					*e0 = right;
					((volatile uint64_t *)ring)[1] ^= 0xff;
				}
				pm_setup_phase(0);
				prog_note("mess", ++done, points);
			}
	}
	(void)p;
	/* the ring is still one cycle, every element where its number says:
	 * walked once after the last point (each point checked where its own
	 * chase ended), in a set-up phase: no point of this suite follows it */
	pm_setup_phase(1);
	struct integ_tally cy = { 0 };
	chain_cycle(ring, n, RVM_LINE, &cy);
	if (cy.bad)
		integ_emit("mess-cycle", rvm_hartid(), &cy);
	/* the generators check the rest of their load arrays and return */
	quit_gens();
	wait_gens(ctl.epoch, "generator_did_not_finish");
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
	pm_setup_phase(0);
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
