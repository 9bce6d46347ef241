/*
 * Trap handling.  Probe mode (an expected trap: skip the 4-byte instruction)
 * is used to find out whether `rdtime` works.  Any other trap prints a `trap`
 * record and parks the hart; when the lead traps, it ends the run.
 */
#include "platform.h"
#include "rvmess/rt.h"
#include "sync.h"

static volatile uint8_t probing[RVM_MAX_HARTS], probe_hit[RVM_MAX_HARTS];
static volatile uint8_t in_trap[RVM_MAX_HARTS];
/* set once the console works (in .data: read before .bss is cleared) */
volatile uint32_t rvm_console_ready __attribute__((section(".data"))) = 0;

int rvm_probe(void (*fn)(void))
{
	unsigned h = rvm_hartid();

	probe_hit[h] = 0;
	probing[h] = 1;
	__asm__ volatile("" ::: "memory");
	fn();
	__asm__ volatile("" ::: "memory");
	probing[h] = 0;
	return probe_hit[h];
}

uintptr_t rvm_trap(uintptr_t cause, uintptr_t epc, uintptr_t tval)
{
	unsigned h = rvm_hartid();
	uint32_t st;

	if (probing[h]) {
		probe_hit[h] = 1;
		return epc + 4; /* the image has no compressed instructions */
	}
	if (in_trap[h] || !rvm_console_ready)
		rvm_park();
	in_trap[h] = 1;
	st = rvm_hstate[h] & 0xffu;
	if (h != rvm.lead && st != HS_ALIVE)
		rvm_park(); /* written off (missing/hung) or not taking part: stay silent */

	rec_trap_unlock();
	__atomic_fetch_add(&rvm_nerr, 1, __ATOMIC_RELAXED);
	struct rec r;
	rec_begin(&r, REC_TRAP);
	rec_x(&r, "cause", cause);
	rec_x(&r, "epc", epc);
	rec_x(&r, "tval", tval);
	rec_emit(&r);
	sync_mark(h, HS_TRAPPED);
	if (h == rvm.lead)
		rvm_finish();
	rvm_park();
}
