/*
 * par: lmbench par_mem on the lead.  For each size (lmbench steps up to
 * par_max), one random cycle over 64-byte lines; for k = 1..par_kmax, k chains
 * started evenly spaced along it are walked together (one `par` record per
 * (size, k), the median of `reps`), then `parmax`: the largest
 * latency(1) / latency(k) and its k.  Sizes with fewer than 8 lines per chain
 * at k = par_kmax are skipped (the chains would overlap at once).
 * Only the warm-ups, the measured runs and the build's last pass
 * (chain_random, chain_stride; and the walk that records the ring's order) are timed: the rest is a set-up phase
 * (pm_setup_phase), which a simulator may run untimed.
 */
#include "platform.h"
#include "rvmess/kernels.h"
#include "rvmess/rt.h"
#include "suites/suites.h"

#define MIN_LINES_PER_CHAIN 8u

static uint64_t first_size(const struct rvm_config *c)
{
	uint64_t size = 512;
	while (size / RVM_LINE < (uint64_t)MIN_LINES_PER_CHAIN * c->par_kmax)
		size = lm_step(size);
	return size;
}

static void suite_par(void)
{
	const struct rvm_config *c = &rvm.cfg;
	uint32_t kmax = c->par_kmax, total = 0, done = 0;
	void *base = rvm_heap();

	for (uint64_t size = first_size(c); size <= c->par_max; size = lm_step(size))
		total++;
	pm_setup_phase(1); /* untimed but for each k's warm-ups and measured runs */
	prog_note("par", 0, total);

	for (uint64_t size = first_size(c); size <= c->par_max; size = lm_step(size)) {
		uint64_t n = size / RVM_LINE, bad_at, bad_val;
		/* the ring's order, to start chains evenly spaced along it */
		void **order = (void **)((char *)base + ((size + 4095) & ~(uint64_t)4095));
		uint64_t lat1 = 0, best_k = 1, best_num = 1, best_den = 1;

		chain_random(base, n, RVM_LINE, c->seed ^ size);
		/* timed: this walk leaves the caches as k = 1's warm-up finds them */
		pm_setup_phase(0);
		void *p = base;
		for (uint64_t i = 0; i < n; i++) {
			order[i] = p;
			p = *(void **)p;
		}
		pm_setup_phase(1);

		for (uint32_t k = 1; k <= kmax; k++) {
			uint64_t per_iter = (uint64_t)k * RVM_PAR_STEPS(k);
			uint64_t want = c->lat_loads > n ? c->lat_loads : n;
			uint64_t iters = (want + per_iter - 1) / per_iter;
			uint64_t loads = iters * per_iter;
			struct meas m[MAX_REPS];
			void *ptr[RVM_PAR_KMAX];
			rvm_par_fn fn = rvm_par_kernels[k - 1];

			for (uint32_t j = 0; j < k; j++)
				ptr[j] = order[(uint64_t)j * n / k];
			pm_setup_phase(0);
			for (uint32_t w = 0; w < c->warmups; w++)
				fn(ptr, iters);
			for (uint32_t rep = 0; rep < c->reps; rep++) {
				struct stamp a, b;
				stamp_now(&a);
				fn(ptr, iters);
				stamp_now(&b);
				meas_take(&m[rep], &a, &b, loads);
			}
			pm_setup_phase(1);
			const struct meas *md = meas_median(m, c->reps);
			struct rec r;
			rec_begin(&r, REC_PAR);
			rec_u(&r, "size", size);
			rec_u(&r, "k", k);
			rec_meas(&r, md);
			rec_emit(&r);

			/* latency per load in millionths of a cost unit */
			uint64_t lat = rvm_muldiv(meas_cost(md), 1000000, md->loads);
			if (k == 1)
				lat1 = lat;
			/* par(k) = lat1 / lat; keep the largest: a/b > c/d <=> a*d > c*b */
			if (lat && rvm_muldiv(lat1, best_den, 1) > rvm_muldiv(best_num, lat, 1)) {
				best_k = k;
				best_num = lat1;
				best_den = lat;
			}
		}
		if (chain_check(base, n, RVM_LINE, &bad_at, &bad_val))
			rvm_err_at("par-chain", "chain_is_not_one_cycle_of_the_built_length", bad_at,
			           n, bad_val);

		struct rec r;
		rec_begin(&r, REC_PARMAX);
		rec_u(&r, "size", size);
		rec_u(&r, "k", best_k);
		rec_fx(&r, "par", best_num, best_den);
		rec_emit(&r);
		prog_note("par", ++done, total);
	}
	pm_setup_phase(0);
}

const struct suite par_suite = { "par", RVM_SUITE_PAR, suite_par, 0, 0 };
