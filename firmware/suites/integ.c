/*
 * integ: data-integrity checks on every hart at once.
 *
 * Two checks, each counting the words it compared, the wrong ones and the
 * first wrong one (address, expected value, found value):
 *
 * lines - shared-line stress.  Every group of up to 8 harts shares
 *   integ_lines 64-byte lines; hart k of a group owns doubleword k of each.
 *   For each of integ_rounds rounds every hart waits a random delay and
 *   writes its signature (a function of seed, round, hart and line) into
 *   its doubleword of every line, as 8 bytes, 4 halves, 2 words or one
 *   doubleword (the width is drawn per round, hart and line), so that a
 *   line assembled from the wrong copies, a store merged into a stale line
 *   or a lost or torn write changes some hart's doubleword.  After a
 *   barrier every hart reads every doubleword of its group (each piece at
 *   the width it was written) and compares it with the signature.
 *
 * ring - producer/consumer rings.  Hart i sends integ_msgs messages to hart
 *   i+1 (mod n) through a ring of integ_slots lines: slot word 0 the
 *   sequence number (published with an amoswap.rl after the payload),
 *   words 1-5 the payload, word 6 a checksum of sequence and payload, word
 *   7 the consumer's acknowledgement (amoswap).  The consumer waits for the
 *   slot's sequence number, checks payload and checksum against what the
 *   producer must have sent, clears the checksum word (a plain store into
 *   the producer's line) and acknowledges.  A ring that makes no progress
 *   for timeout_ms counts the word it waits on as wrong and stops.
 *
 * Records: one `integ` per check and hart (the verifying hart); a check
 * with a wrong word counts as an error, so the run fails.
 */
#include "platform.h"
#include "rvmess/rt.h"
#include "suites/suites.h"

#define GROUP 8u         /* harts sharing a set of lines: a doubleword each */
#define RING_WORDS 8u    /* seq, payload[5], checksum, ack */
#define PAYLOAD 5u

/* Lead -> everybody: the plan. */
static struct {
	volatile uint32_t go;         /* set once the plan is laid out */
	volatile uint32_t abort;      /* a barrier timed out: everybody leaves */
	uint32_t n;                   /* harts taking part */
	uint32_t hart[RVM_MAX_HARTS]; /* their ids, by index */
	uint64_t lines, rings;        /* bases in the heap */
} plan __attribute__((aligned(64)));

/* Each hart's tallies, published at the end (kept on the stack while the
 * checks run and here after: outside the heap, the memory under test). */
static struct res {
	struct integ_tally lines, ring;
} res[RVM_MAX_HARTS] __attribute__((aligned(64)));

static volatile uint32_t bar_count __attribute__((aligned(64)));
static volatile uint32_t bar_gen __attribute__((aligned(64)));

static uint64_t timeout_ticks(void)
{
	return rvm_muldiv(rvm.cfg.timeout_ms, rvm.timebase, 1000);
}

/* splitmix64's finaliser: the signatures, widths and payloads */
static uint64_t mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t key(uint32_t what, uint64_t a, uint64_t b, uint64_t c)
{
	return mix(mix(mix(((uint64_t)rvm.cfg.seed << 8 | what) ^ a) ^ b) ^ c);
}

/* hart index j's signature for round r, line l, and the width it is written with */
static uint64_t sig(uint32_t r, uint32_t j, uint32_t l) { return key(1, r, j, l); }
static unsigned width(uint32_t r, uint32_t j, uint32_t l) { return 1u << (key(2, r, j, l) & 3); }

/* word w (1..PAYLOAD) of message k from producer index p, and the checksum */
static uint64_t payload(uint32_t p, uint64_t k, uint32_t w) { return key(3, p, k, w); }
static uint64_t checksum(uint64_t seq, const uint64_t *pay)
{
	uint64_t c = seq;
	for (uint32_t w = 0; w < PAYLOAD; w++)
		c = mix(c ^ pay[w]);
	return c;
}

static void delay(uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		__asm__ volatile("nop");
}

/* Store v at a in pieces of w bytes, lowest first. */
static void put(uint64_t a, uint64_t v, unsigned w)
{
	for (unsigned o = 0; o < 8; o += w, v >>= 8 * (w & 7)) {
		uintptr_t p = (uintptr_t)(a + o);
		switch (w) {
		case 1: *(volatile uint8_t *)p = (uint8_t)v; break;
		case 2: *(volatile uint16_t *)p = (uint16_t)v; break;
		case 4: *(volatile uint32_t *)p = (uint32_t)v; break;
		default: *(volatile uint64_t *)p = v; break;
		}
	}
}

/* Load the doubleword at a in pieces of w bytes. */
static uint64_t get(uint64_t a, unsigned w)
{
	uint64_t v = 0;
	for (unsigned o = 0; o < 8; o += w) {
		uintptr_t p = (uintptr_t)(a + o);
		uint64_t x;
		switch (w) {
		case 1: x = *(volatile uint8_t *)p; break;
		case 2: x = *(volatile uint16_t *)p; break;
		case 4: x = *(volatile uint32_t *)p; break;
		default: x = *(volatile uint64_t *)p; break;
		}
		v |= x << (8 * o);
	}
	return v;
}

/* Every taking part meets here; -1 when one did not come within the
 * timeout (or another hart gave up): the suite is left. */
static int barrier(void)
{
	uint32_t g, v;
	uint64_t t0, lim = timeout_ticks() * (plan.n + 1);
	struct rvm_wait w;

	rvm_poll(); /* bar_gen as the last barrier's releaser left it */
	g = bar_gen;
	rvm_fence();
	if (__atomic_fetch_add(&bar_count, 1, __ATOMIC_SEQ_CST) == plan.n - 1) {
		bar_count = 0;
		rvm_fence();
		rvm_store_pub(&bar_gen, g + 1);
		rvm_fence();
		rvm_poll(); /* the last to come waits for nobody, but reads the others' words next */
		return 0;
	}
	t0 = pm_time();
	rvm_wait_begin(&w, "integ-barrier");
	for (uint32_t spins = 0; rvm_wait_poll(&w), (v = bar_gen) == g; spins++) {
		if (plan.abort)
			return -1;
		if ((spins & 1023) == 1023 && pm_time() - t0 > lim) {
			plan.abort = 1;
			rvm_err_at("integ-barrier", "a_hart_did_not_arrive", rvm_hartid(), plan.n, bar_count);
			return -1;
		}
	}
	rvm_wait_saw(&w, &bar_gen, v);
	rvm_fence();
	return 0;
}

/* ---- lines ----------------------------------------------------------------- */

static int run_lines(uint32_t i, struct rng *g, struct integ_tally *t)
{
	const struct rvm_config *c = &rvm.cfg;
	uint32_t grp = i / GROUP, first = grp * GROUP;
	uint32_t last = first + GROUP < plan.n ? first + GROUP : plan.n;
	uint64_t base = plan.lines + (uint64_t)grp * c->integ_lines * RVM_LINE;

	for (uint32_t r = 0; r < c->integ_rounds; r++) {
		if (barrier())
			return -1;
		delay((uint32_t)(rng_next(g) % (c->integ_delay + 1)));
		for (uint32_t l = 0; l < c->integ_lines; l++)
			put(base + l * RVM_LINE + (i % GROUP) * 8, sig(r, i, l), width(r, i, l));
		rvm_fence();
		if (barrier())
			return -1;
		for (uint32_t j = first; j < last; j++)
			for (uint32_t l = 0; l < c->integ_lines; l++) {
				uint64_t a = base + l * RVM_LINE + (j % GROUP) * 8;
				uint64_t want = sig(r, j, l), got = get(a, width(r, j, l));
				t->words++;
				if (got != want)
					integ_bad(t, a, 1, want, got);
			}
	}
	return 0;
}

/* ---- ring ------------------------------------------------------------------ */

#define W(slot, k) ((volatile uint64_t *)(uintptr_t)(slot))[k]

static void produce(uint64_t slot, uint32_t i, uint64_t k)
{
	uint64_t pay[PAYLOAD];
	for (uint32_t w = 0; w < PAYLOAD; w++) {
		pay[w] = payload(i, k, w + 1);
		W(slot, 1 + w) = pay[w];
	}
	W(slot, 6) = checksum(k + 1, pay);
	rvm_pub_begin(&W(slot, 0), k + 1);
	__atomic_exchange_n(&W(slot, 0), k + 1, __ATOMIC_RELEASE); /* publish */
	rvm_pub_end();
}

static void consume(uint64_t slot, uint32_t p, uint64_t k, struct integ_tally *t)
{
	uint64_t pay[PAYLOAD];
	rvm_poll(); /* the payload: not the copy an earlier message in this slot left */
	for (uint32_t w = 0; w < PAYLOAD; w++) {
		uint64_t got = W(slot, 1 + w);
		pay[w] = payload(p, k, w + 1);
		if (got != pay[w])
			integ_bad(t, slot + 8 * (1 + w), 1, pay[w], got);
	}
	uint64_t want = checksum(k + 1, pay), got = W(slot, 6);
	if (got != want)
		integ_bad(t, slot + 48, 1, want, got);
	t->words += PAYLOAD + 1;
	W(slot, 6) = 0; /* consumed: the producer's next message must rewrite it */
	rvm_pub_begin(&W(slot, 7), k + 1);
	__atomic_exchange_n(&W(slot, 7), k + 1, __ATOMIC_RELEASE);
	rvm_pub_end();
}

static void run_ring(uint32_t i, struct rng *g, struct integ_tally *t)
{
	const struct rvm_config *c = &rvm.cfg;
	uint32_t n = plan.n, p = (i + n - 1) % n, S = c->integ_slots;
	uint64_t out = plan.rings + (uint64_t)i * S * RVM_LINE;
	uint64_t in = plan.rings + (uint64_t)p * S * RVM_LINE;
	uint64_t kp = 0, kc = 0, M = c->integ_msgs, lim = timeout_ticks(), t0 = pm_time();
	struct rvm_wait w; /* while idle: for the consumer's ack or the producer's message */

	for (uint32_t idle = 0; kp < M || kc < M;) {
		int moved = 0;
		if (kp < M) {
			uint64_t s = out + (kp % S) * RVM_LINE, ack = kp < S ? 0 : W(s, 7);
			if (kp < S || ack == kp - S + 1) {
				if (idle && kp >= S)
					rvm_wait_saw(&w, &W(s, 7), ack);
				produce(s, i, kp++);
				delay((uint32_t)(rng_next(g) % (c->integ_delay + 1)));
				moved = 1;
			}
		}
		if (kc < M) {
			uint64_t s = in + (kc % S) * RVM_LINE;
			if (__atomic_load_n(&W(s, 0), __ATOMIC_ACQUIRE) == kc + 1) {
				if (idle)
					rvm_wait_saw(&w, &W(s, 0), kc + 1);
				consume(s, p, kc++, t);
				moved = 1;
			}
		}
		if (moved) {
			idle = 0;
			continue;
		}
		if (idle++ == 0) {
			t0 = pm_time(); /* no progress since t0 */
			rvm_wait_begin(&w, "integ-ring");
		}
		rvm_wait_poll(&w); /* before the next look at the other harts' words */
		if ((idle & 255) == 0 && pm_time() - t0 > lim) {
			/* stalled: the word waited on is wrong (a lost publish or acknowledgement) */
			if (kc < M) {
				uint64_t s = in + (kc % S) * RVM_LINE;
				integ_bad(t, s, 1, kc + 1, W(s, 0));
			} else {
				uint64_t s = out + (kp % S) * RVM_LINE;
				integ_bad(t, s + 56, 1, kp - S + 1, W(s, 7));
			}
			t->words++;
			return;
		}
	}
}

/* ---- the suite --------------------------------------------------------------- */

static void every_hart(uint32_t i)
{
	struct rng g;
	struct integ_tally lt = { 0 }, rt = { 0 };
	uint32_t S = rvm.cfg.integ_slots;

	rng_seed(&g, ((uint64_t)rvm.cfg.seed << 8) ^ (0x4900 + i));
	/* my ring, zeroed before anybody uses it */
	for (uint64_t a = 0; a < (uint64_t)S * RVM_LINE; a += 8)
		*(volatile uint64_t *)(uintptr_t)(plan.rings + (uint64_t)i * S * RVM_LINE + a) = 0;
	rvm_fence();
	if (run_lines(i, &g, &lt) == 0 && barrier() == 0)
		run_ring(i, &g, &rt);
	res[i].lines = lt;
	res[i].ring = rt;
	rvm_fence();
	barrier();
}

static void follower(void)
{
	uint32_t me = rvm_hartid();

	rvm_wait_change(&plan.go, 0, "integ-go");
	rvm_fence();
	for (uint32_t i = 0; i < plan.n; i++)
		if (plan.hart[i] == me) {
			every_hart(i);
			return;
		}
}

static void lead(void)
{
	const struct rvm_config *c = &rvm.cfg;
	uint32_t n = 0, me = 0;
	uint64_t lines;

	for (uint32_t i = 0; i < rvm.nharts; i++) {
		uint32_t h = rvm.hartids[i];
		if (h == rvm.lead)
			me = n;
		if (h == rvm.lead || (rvm_hstate[h] & 0xffu) == HS_ALIVE)
			plan.hart[n++] = h;
	}
	lines = (uint64_t)((n + GROUP - 1) / GROUP) * c->integ_lines * RVM_LINE;
	plan.n = n;
	if (lines + (uint64_t)n * c->integ_slots * RVM_LINE > rvm.heap_size) {
		rvm_err("config", "integ_arrays_exceed_heap");
		plan.n = 0; /* the followers find themselves in no plan and return */
		rvm_fence();
		rvm_store_pub(&plan.go, 1);
		for (uint32_t i = 0; i < n; i++)
			rvm_wake(plan.hart[i]);
		return;
	}
	plan.lines = rvm.heap_base;
	plan.rings = plan.lines + lines;
	plan.abort = 0;
	bar_count = 0;
	for (uint64_t a = 0; a < lines; a += 8)
		*(volatile uint64_t *)(uintptr_t)(plan.lines + a) = 0;
	rvm_fence();
	rvm_store_pub(&plan.go, 1);
	rvm_fence();
	for (uint32_t i = 0; i < n; i++)
		if (plan.hart[i] != rvm.lead)
			rvm_wake(plan.hart[i]);
	every_hart(me);
	prog_note("integ", 1, 2);
	for (uint32_t i = 0; i < n; i++)
		integ_emit("lines", plan.hart[i], &res[i].lines);
	for (uint32_t i = 0; i < n; i++)
		integ_emit("ring", plan.hart[i], &res[i].ring);
	prog_note("integ", 2, 2);
}

static void suite_integ(void)
{
	if (rvm_hartid() != rvm.lead) {
		follower();
		return;
	}
	lead();
}

/* together: every live hart runs it at once */
const struct suite integ_suite = { "integ", RVM_SUITE_INTEG, suite_integ, 0, 1 };
