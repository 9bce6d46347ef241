/* Timebase: the `time` CSR, or CLINT mtime when the firmware found that
 * reading `time` traps here (it probes once, see firmware/boot.c). */
#include "platform.h"

static volatile uint64_t *mtime_reg;

void pm_set_mtime(volatile uint64_t *mtime)
{
	mtime_reg = mtime;
}

uint64_t pm_time(void)
{
	uint64_t t;

	if (mtime_reg)
		return *mtime_reg;
	__asm__ volatile("rdtime %0" : "=r"(t));
	return t;
}
