/*
 * lat: lmbench lat_mem_rd on the lead.  For each stride, sizes from 512 B in
 * lmbench's steps up to lat_max: the backward-stride chain and (lat_random)
 * a random chain over the same elements; loads per point
 * max(lat_loads, elements) rounded up to the kernel's 100; `warmups`
 * unmeasured runs, then the median of `reps`.  One `lat` record per point.
 * Only the warm-ups, the measured runs and the build's last pass
 * (chain_random, chain_stride) are timed: the rest is a set-up phase
 * (pm_setup_phase), which a simulator may run untimed.
 */
#include "platform.h"
#include "rvmess/kernels.h"
#include "rvmess/rt.h"
#include "suites/suites.h"

static volatile uint64_t sink;

static uint32_t count_points(const struct rvm_config *c)
{
	uint32_t pts = 0;

	for (uint32_t s = 0; s < c->lat_nstrides; s++)
		for (uint64_t size = 512; size <= c->lat_max; size = lm_step(size))
			if (size / c->lat_strides[s] >= 2)
				pts += 1 + (c->lat_random ? 1 : 0);
	return pts;
}

static void point(const char *chain, uint64_t stride, uint64_t size)
{
	const struct rvm_config *c = &rvm.cfg;
	void *base = rvm_heap();
	uint64_t n = size / stride, bad_at, bad_val;
	uint64_t loads = round_up(c->lat_loads > n ? c->lat_loads : n, RVM_CHASE_UNROLL);
	uint64_t iters = loads / RVM_CHASE_UNROLL;
	struct meas m[MAX_REPS];
	void *p = base;

	if (chain[0] == 's')
		chain_stride(base, n, stride);
	else
		chain_random(base, n, stride, c->seed ^ size ^ (stride << 32));
	pm_setup_phase(0);
	for (uint32_t w = 0; w < c->warmups; w++)
		p = rvm_chase(p, iters);
	for (uint32_t rep = 0; rep < c->reps; rep++) {
		struct stamp a, b;
		stamp_now(&a);
		p = rvm_chase(p, iters);
		stamp_now(&b);
		meas_take(&m[rep], &a, &b, loads);
	}
	pm_setup_phase(1);
	sink = (uint64_t)(uintptr_t)p;
	if (chain_check(base, n, stride, &bad_at, &bad_val)) {
		rvm_err_at("lat-chain", "chain_is_not_one_cycle_of_the_built_length", bad_at, n,
		           bad_val);
		return;
	}

	const struct meas *md = meas_median(m, c->reps);
	struct rec r;
	rec_begin(&r, REC_LAT);
	rec_s(&r, "chain", chain);
	rec_u(&r, "stride", stride);
	rec_u(&r, "size", size);
	rec_meas(&r, md);
	rec_emit(&r);
}

static void suite_lat(void)
{
	const struct rvm_config *c = &rvm.cfg;
	uint32_t total = count_points(c), done = 0;

	pm_setup_phase(1); /* point() times its warm-ups and measured runs only */
	prog_note("lat", 0, total);
	for (uint32_t s = 0; s < c->lat_nstrides; s++) {
		uint64_t stride = c->lat_strides[s];
		for (int pass = 0; pass < (c->lat_random ? 2 : 1); pass++)
			for (uint64_t size = 512; size <= c->lat_max; size = lm_step(size)) {
				if (size / stride < 2)
					continue;
				point(pass ? "random" : "stride", stride, size);
				prog_note("lat", ++done, total);
			}
	}
	pm_setup_phase(0);
}

const struct suite lat_suite = { "lat", RVM_SUITE_LAT, suite_lat, 0, 0 };
