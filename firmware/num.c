/* Integer helpers: 64x64/64 scaling without overflow, ticks to ns, stamps (the PRNG: rvmess/rng.h). */
#include "platform.h"
#include "rvmess/rt.h"

uint64_t rvm_muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned __int128 p = (unsigned __int128)a * b; /* mul + mulhu, no libgcc */
	uint64_t hi = (uint64_t)(p >> 64), lo = (uint64_t)p, r, q = 0;

	if (!c)
		return 0;
	if (!hi)
		return lo / c;
	if (hi >= c)
		return UINT64_MAX;
	/* restoring division of hi:lo by c; hi < c so the quotient fits 64 bits */
	r = hi;
	for (int i = 63; i >= 0; i--) {
		uint64_t top = r >> 63;
		r = (r << 1) | ((lo >> i) & 1u);
		q <<= 1;
		if (top || r >= c) {
			r -= c;
			q |= 1;
		}
	}
	return q;
}

uint64_t rvm_ticks_ns(uint64_t ticks)
{
	return rvm_muldiv(ticks, 1000000000u, rvm.timebase);
}

uint64_t rvm_cycles_ns(uint64_t cycles, uint64_t hz)
{
	return rvm_muldiv(cycles, 1000000000u, hz);
}

void stamp_now(struct stamp *s)
{
	s->ticks = pm_time();
	s->cycles = pm_cycles();
	s->instret = pm_instret();
}

void stamp_diff(struct stamp *d, const struct stamp *a, const struct stamp *b)
{
	d->cycles = b->cycles - a->cycles;
	d->instret = b->instret - a->instret;
	d->ticks = b->ticks - a->ticks;
}

void rvm_delay_ticks(uint64_t ticks)
{
	uint64_t t0 = pm_time();
	while (pm_time() - t0 < ticks)
		;
}
