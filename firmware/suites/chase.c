/*
 * chase: a random single cycle over 64-byte lines, chase_size bytes, built in
 * place (Sattolo) on the calling hart; warm-up, `reps` measured runs of
 * chase_loads dependent loads (rounded up to the kernel's 100), one `chase`
 * record per rep; then the ring must still be one cycle of the right length.
 * With chase_all_harts the live harts take turns (firmware/suites/suites.c).
 * The build (but for its last pass, chain_random) and the final check are
 * set-up phases (pm_setup_phase), which a simulator may run untimed.
 */
#include "platform.h"
#include "rvmess/kernels.h"
#include "rvmess/rt.h"
#include "suites/suites.h"

static volatile uint64_t sink;

/*
 * Where the calling hart builds its ring: its own slot at the top of the heap
 * when every hart's slot and the lat/par area at the bottom fit, so that a
 * hart written off as hung in the middle of its turn cannot disturb anyone
 * else's memory; otherwise the bottom of the heap, shared.
 */
static void *chase_area(const struct rvm_config *c)
{
	uint64_t slot = (c->chase_size + 4095) & ~(uint64_t)4095;
	uint64_t low = c->lat_max > c->par_max + c->par_max / 8 + 4096
	                       ? c->lat_max
	                       : c->par_max + c->par_max / 8 + 4096;
	uint32_t idx = 0;

	for (uint32_t i = 0; i < rvm.nharts; i++)
		if (rvm.hartids[i] == rvm_hartid())
			idx = i;
	if (slot * rvm.nharts + low > rvm.heap_size)
		return rvm_heap();
	return (char *)rvm_heap() + rvm.heap_size - (uint64_t)(idx + 1) * slot;
}

static void suite_chase(void)
{
	const struct rvm_config *c = &rvm.cfg;
	void *base = chase_area(c);
	uint64_t n = c->chase_size / RVM_LINE;
	uint64_t loads = round_up(c->chase_loads, RVM_CHASE_UNROLL);
	uint64_t iters = loads / RVM_CHASE_UNROLL;
	uint64_t bad_at, bad_val;
	void *p;

	pm_setup_phase(1);
	chain_random(base, n, RVM_LINE, c->seed);
	pm_setup_phase(0);
	/* warm-up: `warmups` runs, and at least the whole ring once, so that no
	 * line the build left in a cache is still there when the reps start */
	uint64_t warm = (uint64_t)c->warmups * iters, ring = (n + RVM_CHASE_UNROLL - 1) / RVM_CHASE_UNROLL;
	p = rvm_chase(base, warm > ring ? warm : ring);
	for (uint32_t rep = 0; rep < c->reps; rep++) {
		struct stamp a, b;
		struct meas m;
		struct rec r;
		stamp_now(&a);
		p = rvm_chase(p, iters);
		stamp_now(&b);
		meas_take(&m, &a, &b, loads);
		rec_begin(&r, REC_CHASE);
		rec_u(&r, "size", n * RVM_LINE);
		rec_u(&r, "lines", n);
		rec_u(&r, "rep", rep);
		rec_meas(&r, &m);
		rec_emit(&r);
	}
	sink = (uint64_t)(uintptr_t)p;
	pm_setup_phase(1);
	if (chain_check(base, n, RVM_LINE, &bad_at, &bad_val))
		rvm_err_at("chase-ring", "ring_is_not_one_cycle_of_the_built_length", bad_at,
		           n, bad_val);
	pm_setup_phase(0);
}

static int all_harts(const struct rvm_config *c)
{
	return c->chase_all_harts != 0;
}

const struct suite chase_suite = { "chase", RVM_SUITE_CHASE, suite_chase, all_harts, 0 };
