/*
 * litmus: memory-model, coherence and atomicity tests on every hart.
 *
 * The tests are the table in litmus_tests.h (their threads' asm is generated
 * from it in firmware/kernels/litmus.S).  Every live hart runs the suite
 * together; the lead drives it.  It runs every test of the table, then
 * every LT_PACK test again with packed locations.  For each run and each of
 * litmus_iters iterations the lead picks the locations (a fresh 256-byte
 * slot of the heap, one 64-byte line per location, zeroed; for a packed run
 * all four 8 bytes apart in the slot's first line), writes the old code to
 * the slot's code line, picks which hart runs each thread (rotated over all
 * live harts) and each thread's random start delay (a PRNG seeded from
 * `seed` and the run), then releases every hart through a barrier; the
 * chosen harts meet at a start line, wait their delay and run their thread,
 * everybody meets at a second barrier, and the lead reads the results and
 * the locations, counts the outcome (the values the test's condition names)
 * and checks it against the condition.
 *
 * Records: one `litmus` per run (the outcome histogram with each outcome's
 * verdict), and one `bug` per test that showed a forbidden outcome (the
 * first one seen, the count of all, the harts that ran its threads, how
 * many distinct forbidden outcomes), counted as an error: the run fails.
 */
#include "platform.h"
#include "rvmess/rt.h"
#include "suites/litmus_tests.h"
#include "suites/suites.h"

enum { LT_ALLOW, LT_FORBID, LT_PACK = 2 /* also run packed */ };

typedef void lt_fn(uint64_t x, uint64_t y, uint64_t z, uint64_t w, volatile uint64_t *res, uint64_t code);

#define LT_DECL(name, n, cond, verdict, p0, p1, p2, p3) \
	extern lt_fn lt_##name##_0, lt_##name##_1, lt_##name##_2, lt_##name##_3;
LITMUS_TESTS(LT_DECL)

struct lt_test {
	const char *name;
	uint32_t threads;
	const char *cond;
	int flags; /* LT_ALLOW or LT_FORBID, | LT_PACK */
	lt_fn *fn[4];
};

#define LT_DESC(name, n, cond, verdict, p0, p1, p2, p3) \
	{ #name, n, cond, verdict, { lt_##name##_0, lt_##name##_1, lt_##name##_2, lt_##name##_3 } },
static const struct lt_test lt_tests[] = { LITMUS_TESTS(LT_DESC) };
#define LT_NTESTS (sizeof(lt_tests) / sizeof(lt_tests[0]))

#define LT_MAX_TERMS 8
#define LT_MAX_OUTS  16
#define LT_SLOTS     64              /* location slots, used in turn */
#define LT_SLOT      (4 * RVM_LINE)  /* x y z w, a line each */
#define LT_PACKED    8u              /* distance of the locations in a packed run */
/* The code lines follow the slots, one per slot, in pages of their own. */
#define LT_CODE_OLD  0x00100393u     /* addi t2, zero, 1 */
#define LT_CODE_RET  0x00028067u     /* jalr zero, 0(t0) */

/* A term of a condition: thread t's register r (t < 4), or location r (t == 4). */
struct term {
	uint8_t t, r, ne;
	uint64_t v;
};

/* Lead -> everybody, one line. */
static struct {
	volatile uint32_t done;            /* leave the suite at the next release */
	volatile uint32_t test;
	volatile uint32_t hart_of[4];      /* hart id running each thread */
	volatile uint32_t delay[4];
	volatile uint64_t loc[4];
	volatile uint64_t code;
} ctl __attribute__((aligned(64)));

/* The start line: the threads of an iteration count themselves in here and
 * start together, so that a hart slow to leave the barrier (asleep, or a
 * host thread not running) does not decide the outcome. */
static volatile uint32_t ready __attribute__((aligned(64)));

/* Each thread's results, a line each. */
static volatile uint64_t res[4][8] __attribute__((aligned(64)));

/* The barrier: arrivals counted by the followers, released by the lead. */
static volatile uint32_t bar_arrived __attribute__((aligned(64)));
static volatile uint32_t bar_gen __attribute__((aligned(64)));

static uint32_t nlive;               /* harts taking part (lead) */
static uint32_t live[RVM_MAX_HARTS]; /* their ids */

/* Parse a condition ("1:1=1 1:2=0", "x!=128"): number of terms, 0 if bad. */
static uint32_t parse_cond(const char *s, struct term *tm)
{
	uint32_t n = 0;

	while (*s) {
		struct term *p = &tm[n];
		if (*s == ' ') {
			s++;
			continue;
		}
		if (n == LT_MAX_TERMS)
			return 0;
		if (*s >= '0' && *s <= '3' && s[1] == ':' && s[2] >= '1' && s[2] <= '4') {
			p->t = (uint8_t)(*s - '0');
			p->r = (uint8_t)(s[2] - '1');
			s += 3;
		} else if (*s >= 'w' && *s <= 'z') {
			p->t = 4;
			p->r = (uint8_t)(*s == 'w' ? 3 : *s - 'x');
			s++;
		} else {
			return 0;
		}
		p->ne = *s == '!';
		s += p->ne;
		if (*s++ != '=' || *s < '0' || *s > '9')
			return 0;
		for (p->v = 0; *s >= '0' && *s <= '9'; s++)
			p->v = p->v * 10 + (uint64_t)(*s - '0');
		n++;
	}
	return n;
}

static uint64_t timeout_ticks(void)
{
	return rvm_muldiv(rvm.cfg.timeout_ms, rvm.timebase, 1000);
}

/*
 * Waiting spins for LT_SPIN polls, then sleeps in wfi (when the platform can
 * wake harts): on hostsim a barrier is over long before that, while on QEMU,
 * whose vCPU threads may outnumber the host's cores, spinning harts would
 * take the host time the others need.  Followers wake the lead when they
 * arrive, the lead wakes the followers when it releases them.
 */
#define LT_SPIN 20000

/* Lead: wait for every other live hart, then release them.  0, or -1 when
 * one did not arrive within timeout_ms (the suite stops). */
static int bar_lead(void)
{
	uint64_t t0 = pm_time(), lim = timeout_ticks();
	uint32_t spins = 0, v;
	struct rvm_wait w;

	rvm_wait_begin(&w, "litmus-barrier");
	for (;;) {
		if (spins > LT_SPIN && plat.ipi_clear)
			plat.ipi_clear();
		rvm_wait_poll(&w);
		if ((v = bar_arrived) == nlive - 1) {
			rvm_wait_saw(&w, &bar_arrived, v);
			break;
		}
		if (pm_time() - t0 > lim) {
			rvm_err_at("litmus-barrier", "a_hart_did_not_arrive", 0, nlive - 1, bar_arrived);
			return -1;
		}
		if (++spins > LT_SPIN && plat.ipi_send && plat.ipi_clear)
			pm_idle();
	}
	bar_arrived = 0;
	rvm_fence();
	rvm_store_pub(&bar_gen, bar_gen + 1);
	rvm_fence();
	for (uint32_t i = 0; i < nlive; i++)
		if (live[i] != rvm.lead)
			rvm_wake(live[i]);
	return 0;
}

static void bar_follow(void)
{
	rvm_poll();
	uint32_t g = bar_gen, v;
	struct rvm_wait w;

	rvm_fence();
	rvm_pub_begin(&bar_arrived, 0); /* the value it reaches: known after the add */
	v = __atomic_fetch_add(&bar_arrived, 1, __ATOMIC_SEQ_CST) + 1;
	rvm_pub_begin(&bar_arrived, v);
	rvm_pub_end();
	rvm_wake(rvm.lead);
	rvm_wait_begin(&w, "litmus-release");
	for (uint32_t spins = 0; rvm_wait_poll(&w), (v = bar_gen) == g;)
		if (++spins > LT_SPIN) {
			v = rvm_wait_change(&bar_gen, g, "litmus-release");
			break;
		}
	rvm_wait_saw(&w, &bar_gen, v);
	rvm_fence();
}

static void delay(uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		__asm__ volatile("nop");
}

/* Run this hart's thread of the current iteration, if it has one. */
static void run_thread(void)
{
	const struct lt_test *t = &lt_tests[ctl.test];
	uint32_t me = rvm_hartid();

	for (uint32_t i = 0; i < t->threads; i++)
		if (ctl.hart_of[i] == me) {
			struct rvm_wait w;
			uint32_t v;
			rvm_pub_begin(&ready, 0);
			v = __atomic_fetch_add(&ready, 1, __ATOMIC_SEQ_CST) + 1;
			rvm_pub_begin(&ready, v);
			rvm_pub_end();
			rvm_wait_begin(&w, "litmus-start");
			while (rvm_wait_poll(&w), (v = ready) != t->threads)
				;
			rvm_wait_saw(&w, &ready, v);
			delay(ctl.delay[i]);
			t->fn[i](ctl.loc[0], ctl.loc[1], ctl.loc[2], ctl.loc[3], res[i], ctl.code);
		}
}

static void follower(void)
{
	for (;;) {
		bar_follow();
		if (ctl.done)
			return;
		run_thread();
		bar_follow();
	}
}

/* ---- lead ------------------------------------------------------------------ */

struct hist {
	uint32_t n;
	uint64_t vals[LT_MAX_OUTS][LT_MAX_TERMS];
	uint64_t count[LT_MAX_OUTS];
	uint32_t harts[LT_MAX_OUTS][4]; /* thread -> hart the first time it was seen */
	uint64_t other;                 /* outcomes beyond LT_MAX_OUTS distinct ones */
};

static int matches(const struct term *tm, uint32_t nt, const uint64_t *v)
{
	for (uint32_t i = 0; i < nt; i++)
		if ((v[i] == tm[i].v) == tm[i].ne)
			return 0;
	return 1;
}

static void hist_add(struct hist *h, uint32_t nt, const uint64_t *v)
{
	for (uint32_t i = 0; i < h->n; i++) {
		uint32_t k = 0;
		while (k < nt && h->vals[i][k] == v[k])
			k++;
		if (k == nt) {
			h->count[i]++;
			return;
		}
	}
	if (h->n == LT_MAX_OUTS) {
		h->other++;
		return;
	}
	for (uint32_t k = 0; k < nt; k++)
		h->vals[h->n][k] = v[k];
	for (uint32_t k = 0; k < 4; k++)
		h->harts[h->n][k] = ctl.hart_of[k];
	h->count[h->n++] = 1;
}

/* "a.b.c" into r */
static void rec_outcome(struct rec *r, const uint64_t *v, uint32_t nt)
{
	for (uint32_t k = 0; k < nt; k++) {
		char d[24];
		uint32_t n = 0;
		uint64_t x = v[k];
		do
			d[n++] = (char)('0' + x % 10);
		while ((x /= 10) && n < sizeof(d));
		if (k && r->n < RVM_REC_MAX - 1)
			r->b[r->n++] = '.';
		while (n && r->n < RVM_REC_MAX - 1)
			r->b[r->n++] = d[--n];
	}
}

static void rec_raw(struct rec *r, const char *s)
{
	while (*s && r->n < RVM_REC_MAX - 1)
		r->b[r->n++] = *s++;
}

static void report(const struct lt_test *t, const char *name, const struct term *tm, uint32_t nt,
                   const struct hist *h, uint64_t iters)
{
	int verdict = t->flags & LT_FORBID;
	uint64_t relaxed = 0;
	struct rec r;

	rec_begin(&r, REC_LITMUS);
	rec_s(&r, "test", name);
	rec_u(&r, "threads", t->threads);
	rec_u(&r, "iters", iters);
	rec_raw(&r, " obs=");
	for (uint32_t k = 0; k < nt; k++) {
		char o[5] = { (char)('0' + tm[k].t), ':', (char)('1' + tm[k].r), 0, 0 };
		if (tm[k].t == 4)
			o[0] = "xyzw"[tm[k].r], o[1] = 0;
		if (k)
			rec_raw(&r, ".");
		rec_raw(&r, o);
	}
	rec_raw(&r, " outs=");
	for (uint32_t i = 0; i < h->n; i++) {
		int m = matches(tm, nt, h->vals[i]);
		if (i)
			rec_raw(&r, ",");
		rec_outcome(&r, h->vals[i], nt);
		rec_raw(&r, ":");
		rec_outcome(&r, &h->count[i], 1);
		rec_raw(&r, !m ? ":ok" : verdict ? ":forbidden" : ":allowed");
		if (m)
			relaxed += h->count[i];
	}
	if (h->other) {
		rec_raw(&r, h->n ? ",other:" : "other:");
		rec_outcome(&r, &h->other, 1);
		rec_raw(&r, ":unknown");
	}
	rec_u(&r, "relaxed", relaxed);
	rec_s(&r, "verdict", relaxed == 0 ? "ok" : verdict ? "bug" : "relaxed");
	rec_emit(&r);

	/* one bug record per test: its first forbidden outcome, all of them counted */
	uint32_t first = h->n, kinds = 0;
	if (!verdict || relaxed == 0)
		return;
	for (uint32_t i = 0; i < h->n; i++)
		if (matches(tm, nt, h->vals[i])) {
			kinds++;
			if (first == h->n)
				first = i;
		}
	rec_begin(&r, REC_BUG);
	rec_s(&r, "test", name);
	rec_raw(&r, " outcome=");
	rec_outcome(&r, h->vals[first], nt);
	rec_u(&r, "count", relaxed);
	rec_ulist(&r, "harts", h->harts[first], t->threads);
	rec_u(&r, "kinds", kinds);
	rec_emit(&r);
	__atomic_fetch_add(&rvm_nerr, 1, __ATOMIC_RELAXED);
}

/* One iteration of test t (locations `stride` bytes apart): 0, or -1 when
 * the barrier timed out. */
static int iterate(const struct lt_test *t, uint32_t stride, struct rng *g, uint64_t it)
{
	uint64_t slot = rvm.heap_base + (it % LT_SLOTS) * LT_SLOT;
	uint32_t n = nlive, rot = (uint32_t)(it % n), rev = (uint32_t)(it / n) & 1;
	volatile uint32_t *code;

	for (uint32_t l = 0; l < 4; l++) {
		ctl.loc[l] = slot + l * stride;
		*(volatile uint64_t *)(uintptr_t)ctl.loc[l] = 0;
	}
	ctl.code = rvm.heap_base + LT_SLOTS * LT_SLOT + (it % LT_SLOTS) * RVM_LINE;
	code = (volatile uint32_t *)(uintptr_t)ctl.code;
	code[0] = LT_CODE_OLD;
	code[1] = LT_CODE_RET;
	for (uint32_t i = 0; i < 4; i++) {
		uint32_t k = rev ? t->threads - 1 - i : i;
		ctl.hart_of[i] = i < t->threads ? live[(rot + k) % n] : ~0u;
		ctl.delay[i] = rvm.cfg.litmus_delay ? (uint32_t)(rng_next(g) % (rvm.cfg.litmus_delay + 1)) : 0;
		for (uint32_t k2 = 0; k2 < 4; k2++)
			res[i][k2] = 0;
	}
	ready = 0;
	rvm_fence();
	if (bar_lead())
		return -1;
	run_thread();
	if (bar_lead())
		return -1;
	return 0;
}

static void collect(const struct term *tm, uint32_t nt, uint64_t *v)
{
	rvm_fence();
	for (uint32_t k = 0; k < nt; k++)
		v[k] = tm[k].t == 4 ? *(volatile uint64_t *)(uintptr_t)ctl.loc[tm[k].r]
		                    : res[tm[k].t][tm[k].r];
}

/* A run's name: the test's, with "_packed" for its packed run. */
static void lt_name(char *d, uint32_t size, const char *name, uint32_t packed)
{
	const char *suf = packed ? "_packed" : "";
	uint32_t n = 0;

	while (*name && n < size - 1)
		d[n++] = *name++;
	while (*suf && n < size - 1)
		d[n++] = *suf++;
	d[n] = 0;
}

static void lead(void)
{
	const struct rvm_config *c = &rvm.cfg;
	static struct hist h;
	uint32_t sel, done = 0, nruns = 0;

	if (plat.ipi_send)
		pm_idle_init(); /* the followers wake the lead out of wfi */
	nlive = 0;
	for (uint32_t i = 0; i < rvm.nharts; i++) {
		uint32_t hid = rvm.hartids[i];
		if (hid == rvm.lead || (rvm_hstate[hid] & 0xffu) == HS_ALIVE)
			live[nlive++] = hid;
	}
	/* the runs: every test, then the packed run of every LT_PACK one */
	for (uint32_t ri = 0; ri < 2 * LT_NTESTS; ri++)
		if (ri < LT_NTESTS || (lt_tests[ri - LT_NTESTS].flags & LT_PACK))
			nruns++;
	sel = c->litmus_test ? 1 : nruns;
	if (c->litmus_test > nruns)
		rvm_err("config", "litmus_test_beyond_the_table");
	for (uint32_t ri = 0, run = 0; ri < 2 * LT_NTESTS; ri++) {
		uint32_t ti = ri % LT_NTESTS, packed = ri >= LT_NTESTS;
		const struct lt_test *t = &lt_tests[ti];
		struct term tm[LT_MAX_TERMS];
		uint32_t nt = parse_cond(t->cond, tm);
		char name[40];
		struct rng g;
		uint64_t it = 0;

		if (packed && !(t->flags & LT_PACK))
			continue;
		if (c->litmus_test && c->litmus_test != ++run)
			continue;
		lt_name(name, sizeof(name), t->name, packed);
		if (nt == 0) {
			rvm_err("litmus-table", name);
			continue;
		}
		h.n = 0;
		h.other = 0;
		if (t->threads <= nlive) {
			rng_seed(&g, ((uint64_t)c->seed << 8) ^ (ri + 1));
			ctl.test = ti;
			for (; it < c->litmus_iters; it++) {
				uint64_t v[LT_MAX_TERMS];
				if (iterate(t, packed ? LT_PACKED : RVM_LINE, &g, it))
					return; /* followers stay behind: written off by the suite runner */
				collect(tm, nt, v);
				hist_add(&h, nt, v);
			}
		}
		report(t, name, tm, nt, &h, it);
		prog_note("litmus", ++done, sel);
	}
	ctl.done = 1;
	rvm_fence();
	bar_lead();
}

static void suite_litmus(void)
{
	if (rvm_hartid() != rvm.lead) {
		follower();
		return;
	}
	lead();
}

/* together: every live hart runs it at once (the lead drives the iterations) */
const struct suite litmus_suite = { "litmus", RVM_SUITE_LITMUS, suite_litmus, 0, 1 };
