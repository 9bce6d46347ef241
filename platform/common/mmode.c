/* Privilege-mode layer for M-mode images: machine counters, mtvec, and the
 * HPM events the FDT names. */
#include "platform.h"

#define PM_CYCLE    "csrr %0, mcycle"
#define PM_INSTRET  "csrr %0, minstret"
#define PM_TVEC     "mtvec"
#define PM_IE       "mie"
#define PM_SOFT_IE  8ul /* MSIE */
#define PM_HPM_BASE "0xb00"
#include "pmode.inc"

/* mhpmcounter3 counts L1D misses, mhpmcounter4 LLC misses, when the FDT
 * named the event ids. */
int pm_event_setup(void)
{
	if (!pm_event_id[PM_EV_L1D_MISS] || !pm_event_id[PM_EV_LLC_MISS])
		return -1;
	__asm__ volatile("csrw mhpmevent3, %0" ::"r"(pm_event_id[PM_EV_L1D_MISS]));
	__asm__ volatile("csrw mhpmevent4, %0" ::"r"(pm_event_id[PM_EV_LLC_MISS]));
	__asm__ volatile("csrc mcountinhibit, %0" ::"r"(0x18ul));
	return 0;
}

uint64_t pm_event_read(enum pm_event e)
{
	return pm_hpm_read(e == PM_EV_L1D_MISS ? 3 : 4);
}
