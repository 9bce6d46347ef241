/* Chains of pointers, measurement and progress helpers shared by the suites. */
#include "platform.h"
#include "rvmess/rt.h"
#include "suites/suites.h"

#define AT(base, i, stride) ((uint64_t *)((char *)(base) + (i) * (stride)))

void chain_random(void *base, uint64_t n, uint64_t stride, uint64_t seed)
{
	struct rng g;

	rng_seed(&g, seed);
	/* first word of each element holds an index: identity ... */
	for (uint64_t i = 0; i < n; i++)
		*AT(base, i, stride) = i;
	/* ... Sattolo's shuffle: a uniformly random single cycle ... */
	for (uint64_t i = n - 1; i > 0; i--) {
		uint64_t j = rng_next(&g) % i;
		uint64_t *a = AT(base, i, stride), *b = AT(base, j, stride);
		uint64_t t = *a;
		*a = *b;
		*b = t;
	}
	/* ... then each index becomes the address of that element.  This pass
	 * is timed even inside a set-up phase: it reads and writes every
	 * element in address order, so it alone decides what the caches hold
	 * after the build (the last elements, dirty), and a simulator that
	 * runs the rest untimed leaves them as a timed build would */
	pm_setup_phase(0);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t *a = AT(base, i, stride);
		*a = (uint64_t)(uintptr_t)AT(base, *a, stride);
	}
	pm_setup_phase(1);
}

void chain_stride(void *base, uint64_t n, uint64_t stride)
{
	pm_setup_phase(0); /* one pass in address order: timed, as in chain_random */
	for (uint64_t i = 0; i < n; i++)
		*AT(base, i, stride) = (uint64_t)(uintptr_t)AT(base, i ? i - 1 : n - 1, stride);
	pm_setup_phase(1);
}

int chain_check(void *base, uint64_t n, uint64_t stride, uint64_t *bad_at, uint64_t *bad_val)
{
	uint64_t lo = (uint64_t)(uintptr_t)base, hi = lo + n * stride;
	uint64_t p = lo;

	for (uint64_t i = 1; i <= n; i++) {
		uint64_t next = *(volatile uint64_t *)(uintptr_t)p;
		if (next < lo || next >= hi || (next - lo) % stride) {
			*bad_at = p;
			*bad_val = next;
			return -1;
		}
		if (next == lo && i != n) {
			*bad_at = p;
			*bad_val = i; /* closed early: cycle of length i */
			return -2;
		}
		p = next;
	}
	if (p != lo) {
		*bad_at = p;
		*bad_val = n;
		return -3;
	}
	return 0;
}

uint64_t lm_step(uint64_t k)
{
	if (k < 1024)
		return k * 2;
	if (k < 4096)
		return k + 1024;
	uint64_t s = 32 * 1024;
	while (s <= k)
		s *= 2;
	return k + s / 16;
}

void meas_take(struct meas *m, const struct stamp *a, const struct stamp *b, uint64_t loads)
{
	struct stamp d;

	stamp_diff(&d, a, b);
	m->loads = loads;
	m->cycles = d.cycles;
	m->instret = d.instret;
	m->ticks = d.ticks;
	/* ns from the cycle counter at this hart's measured frequency: exact to a
	 * cycle, where the timer (10 MHz on virt) quantises a short window by
	 * +-1 tick; the timer only when the cycle counter does not count */
	uint64_t hz = rvm.cpu_hz[rvm_hartid()];
	m->ns = d.cycles && hz ? rvm_cycles_ns(d.cycles, hz) : rvm_ticks_ns(d.ticks);
}

void rec_meas(struct rec *r, const struct meas *m)
{
	rec_u(r, "loads", m->loads);
	rec_u(r, "cycles", m->cycles);
	rec_u(r, "ticks", m->ticks);
	rec_u(r, "ns", m->ns);
	rec_fx(r, "cpl", m->cycles, m->loads);
	rec_fx(r, "nspl", m->ns, m->loads);
}

uint64_t meas_cost(const struct meas *m)
{
	return m->cycles ? m->cycles : m->ticks;
}

const struct meas *meas_median(struct meas *m, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++)
		for (uint32_t j = i; j > 0 && meas_cost(&m[j]) < meas_cost(&m[j - 1]); j--) {
			struct meas t = m[j];
			m[j] = m[j - 1];
			m[j - 1] = t;
		}
	return &m[(n - 1) / 2];
}

uint64_t round_up(uint64_t v, uint64_t unit)
{
	if (!v)
		v = 1;
	return (v + unit - 1) / unit * unit;
}

static uint32_t prog_last;

void prog_note(const char *suite, uint32_t done, uint32_t total)
{
	uint32_t tenth = total ? (uint32_t)((uint64_t)done * 10 / total) : 10;

	if (done == 0)
		prog_last = 0;
	if (tenth == prog_last && done != total)
		return;
	if (done == total && prog_last == 10)
		return;
	prog_last = tenth;
	struct rec r;
	rec_begin(&r, REC_PROG);
	rec_s(&r, "suite", suite);
	rec_u(&r, "done", done);
	rec_u(&r, "total", total);
	rec_u(&r, "cycle", pm_cycles()); /* the raw counter: a suite's cost between two of them */
	rec_emit(&r);
}

void integ_bad(struct integ_tally *t, uint64_t addr, int want_known, uint64_t want, uint64_t got)
{
	if (t->bad++ == 0) {
		t->addr = addr;
		t->want = want;
		t->got = got;
		t->want_known = want_known != 0;
	}
}

void integ_emit(const char *check, uint32_t hart, const struct integ_tally *t)
{
	struct rec r;

	rec_begin(&r, REC_INTEG);
	rec_s(&r, "check", check);
	rec_u(&r, "hart", hart);
	rec_u(&r, "words", t->words);
	rec_u(&r, "bad", t->bad);
	if (t->bad) {
		rec_x(&r, "addr", t->addr);
		if (t->want_known)
			rec_x(&r, "want", t->want);
		rec_x(&r, "got", t->got);
		__atomic_fetch_add(&rvm_nerr, 1, __ATOMIC_RELAXED);
	}
	rec_emit(&r);
}

void chain_number(void *base, uint64_t n)
{
	volatile uint64_t *e = (volatile uint64_t *)base;

	for (uint64_t i = 0; i < n; i++) {
		e[1] = i;
		e = (volatile uint64_t *)(uintptr_t)e[0];
	}
}

void chain_moved(void *base, uint64_t n, uint64_t stride, uint64_t pos0, uint64_t loads, void *end,
                 struct integ_tally *t)
{
	uint64_t lo = (uint64_t)(uintptr_t)base, e = (uint64_t)(uintptr_t)end, want = (pos0 + loads) % n;

	t->words += loads;
	if (e < lo || e >= lo + n * stride || (e - lo) % stride)
		integ_bad(t, e, 0, 0, e); /* not even an element */
	else if (chain_pos(end) != want)
		integ_bad(t, e, 1, want, chain_pos(end));
}

/* The whole ring is one cycle of n elements, numbered from base. */
void chain_cycle(void *base, uint64_t n, uint64_t stride, struct integ_tally *t)
{
	uint64_t lo = (uint64_t)(uintptr_t)base, hi = lo + n * stride, p = lo;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t next = *(volatile uint64_t *)(uintptr_t)p, num = chain_pos((void *)(uintptr_t)p);
		t->words += 2;
		if (num != i)
			integ_bad(t, p + 8, 1, i, num);
		if (next < lo || next >= hi || (next - lo) % stride) { /* points off the ring */
			integ_bad(t, p, 0, 0, next);
			return;
		}
		if (next == lo && i != n - 1) { /* back at the start after i + 1 < n steps */
			integ_bad(t, p, 0, 0, lo);
			return;
		}
		p = next;
	}
	if (p != lo) /* not back at the start after n steps */
		integ_bad(t, p, 1, lo, p);
}
