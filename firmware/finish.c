/*
 * The end of the run (lead only): the final rendezvous, the `end` record
 * with every participant's state, and the platform's exit.  Reached from
 * boot.c after the suites and from trap.c when the lead traps.
 */
#include "platform.h"
#include "rvmess/records.h"
#include "rvmess/rt.h"

/* "h:state,h:state,..." of the participants, in index order */
static void format_states(char *states)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < rvm.nharts; i++) {
		uint32_t h = rvm.hartids[i];
		const char *name = rvm_state_name(rvm_hstate[h]);
		char t[4];
		int k = 0;
		if (n)
			states[n++] = ',';
		do {
			t[k++] = (char)('0' + h % 10);
			h /= 10;
		} while (h);
		while (k)
			states[n++] = t[--k];
		states[n++] = ':';
		while (*name)
			states[n++] = *name++;
	}
	states[n] = 0;
}

void rvm_finish(void)
{
	uint32_t ok, done = 0, bad = 0;
	struct rec r;
	char states[RVM_MAX_HARTS * 12];

	/* also after a trap on the lead: the others then finish cleanly */
	rvm_lead_step(CMD_END, 0, "end");

	for (uint32_t i = 0; i < rvm.nharts; i++) {
		uint32_t st = rvm_hstate[rvm.hartids[i]] & 0xffu;
		if (st == HS_ALIVE || st == HS_DONE)
			done++;
		else
			bad++;
	}
	format_states(states);
	ok = rvm.cfg_ok && !rvm_nerr && !bad;

	rec_begin(&r, REC_END);
	rec_s(&r, "status", ok ? "ok" : "fail");
	rec_u(&r, "errors", rvm_nerr);
	rec_u(&r, "records", rec_count());
	rec_u(&r, "harts", done);
	rec_s(&r, "states", states);
	rec_emit(&r);
	plat.exit(ok ? 0 : 1);
}
