#include "platform.h"
#include "rvmess/rt.h"
#include "suites/suites.h"

/*
 * The suites built into the image, in the order they run: one line each.
 * Each suite's file defines `const struct suite <name>_suite`.
 */
#define SUITES(X) \
	X(chase)  \
	X(lat)    \
	X(par)    \
	X(mess)   \
	X(litmus) \
	X(integ)

#define SUITE_DECL(n) extern const struct suite n##_suite;
#define SUITE_PTR(n) &n##_suite,
SUITES(SUITE_DECL)
static const struct suite *const rvm_suites[] = { SUITES(SUITE_PTR) };
static const uint32_t rvm_nsuites = sizeof(rvm_suites) / sizeof(rvm_suites[0]);

void suites_check(const struct rvm_config *c)
{
	uint32_t built = 0;

	for (uint32_t i = 0; i < rvm_nsuites; i++)
		built |= rvm_suites[i]->bit;
	if (c->suites & RVM_SUITE_CHECK & ~built)
		rvm_warn("suite", "check_not_in_this_image:_skipped");
}

void suites_follow(uint32_t cmd, uint32_t arg)
{
	uint32_t idx = arg & 0xffu;

	if (idx >= rvm_nsuites)
		return;
	if ((cmd == CMD_RUN && (arg >> 8) == rvm_hartid()) || cmd == CMD_RUN_ALL)
		rvm_suites[idx]->run();
}

void suites_run_all(void)
{
	for (uint32_t s = 0; s < rvm_nsuites; s++) {
		const struct suite *su = rvm_suites[s];
		if (!(rvm.cfg.suites & su->bit))
			continue;
		if (su->together) {
			rvm_lead_release(CMD_RUN_ALL, s);
			su->run();
			rvm_lead_collect(CMD_RUN_ALL, su->name);
			continue;
		}
		if (!su->all_harts || !su->all_harts(&rvm.cfg)) {
			su->run();
			continue;
		}
		for (uint32_t i = 0; i < rvm.nharts; i++) {
			uint32_t h = rvm.hartids[i];
			if (h == rvm.lead) {
				su->run();
				continue;
			}
			if ((rvm_hstate[h] & 0xffu) != HS_ALIVE)
				continue;
			rvm_lead_step(CMD_RUN, (h << 8) | s, su->name);
		}
	}
}
