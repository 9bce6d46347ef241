/* The pm_event set on M-mode harts with programmable counters: mhpmevent3/4
 * take the event ids pm_counters_init found in the FDT (or the platform
 * preset in its init). */
#include "platform.h"

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
