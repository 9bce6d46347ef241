/*
 * The calling hart: its id (kept in tp since _start) and parking it.  The
 * only things here that need the target's instructions; the host unit tests
 * replace this file with stubs.
 */
#include "platform.h"
#include "rvmess/rt.h"

unsigned rvm_hartid(void)
{
	unsigned long t;
	__asm__ volatile("mv %0, tp" : "=r"(t));
	return (unsigned)t;
}

void rvm_park(void)
{
	if (plat.park)
		plat.park(); /* e.g. OpenPiton: every hart must end at `pass` */
	for (;;)
		__asm__ volatile("wfi");
}
