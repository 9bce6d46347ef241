/* Timebase: the `time` CSR, CLINT mtime when the firmware found that reading
 * `time` traps here (it probes once, see firmware/boot.c), or the cycle
 * counter when neither exists or the timer does not advance. */
#include "platform.h"

static volatile uint64_t *mtime_reg;
static int from_cycles;

void pm_set_mtime(volatile uint64_t *mtime)
{
	mtime_reg = mtime;
}

void pm_time_from_cycles(void)
{
	from_cycles = 1;
}

uint64_t pm_time(void)
{
	uint64_t t;

	if (from_cycles)
		return pm_cycles();
	if (mtime_reg)
		return *mtime_reg;
	__asm__ volatile("rdtime %0" : "=r"(t));
	return t;
}
