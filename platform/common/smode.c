/* Privilege-mode layer for S-mode images (OpenSBI payload): user-level counter
 * CSRs (OpenSBI enables them in mcounteren) and stvec.  HPM counters may be
 * inhibited (SBI PMU not started) and then read 0. */
#include "platform.h"

#define PM_CYCLE    "rdcycle %0"
#define PM_INSTRET  "rdinstret %0"
#define PM_TVEC     "stvec"
#define PM_IE       "sie"
#define PM_SOFT_IE  2ul /* SSIE */
#define PM_HPM_BASE "0xc00"
#include "pmode.inc"

/* S-mode would program events through the SBI PMU extension; not yet. */
int pm_event_setup(void)
{
	return -1;
}

uint64_t pm_event_read(enum pm_event e)
{
	(void)e;
	return 0;
}
