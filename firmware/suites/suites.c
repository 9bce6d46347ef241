#include "platform.h"
#include "rvmess/rt.h"
#include "suites/suites.h"

static int chase_all(const struct rvm_config *c)
{
	return c->chase_all_harts != 0;
}

const struct suite rvm_suites[] = {
	{ "chase", RVM_SUITE_CHASE, suite_chase, chase_all, 0 },
	{ "lat", RVM_SUITE_LAT, suite_lat, 0, 0 },
	{ "par", RVM_SUITE_PAR, suite_par, 0, 0 },
	{ "mess", RVM_SUITE_MESS, suite_mess, 0, 1 },
};
const uint32_t rvm_nsuites = sizeof(rvm_suites) / sizeof(rvm_suites[0]);

void suites_check(const struct rvm_config *c)
{
	uint32_t built = 0;

	for (uint32_t i = 0; i < rvm_nsuites; i++)
		built |= rvm_suites[i].bit;
	if (c->suites & RVM_SUITE_CHECK & ~built)
		rvm_warn("suite", "check_not_in_this_image:_skipped");
}

void suite_run_here(uint32_t idx)
{
	if (idx < rvm_nsuites)
		rvm_suites[idx].run();
}

void suites_run_all(void)
{
	for (uint32_t s = 0; s < rvm_nsuites; s++) {
		const struct suite *su = &rvm_suites[s];
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
	rec_begin(&r, "prog");
	rec_s(&r, "suite", suite);
	rec_u(&r, "done", done);
	rec_u(&r, "total", total);
	rec_emit(&r);
}
