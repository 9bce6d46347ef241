/* Privilege-mode layer for M-mode images: machine counters and mtvec. */
#include "platform.h"

extern char pm_trap_vector[];

uint64_t pm_cycles(void)
{
	uint64_t v;
	__asm__ volatile("csrr %0, mcycle" : "=r"(v));
	return v;
}

uint64_t pm_instret(void)
{
	uint64_t v;
	__asm__ volatile("csrr %0, minstret" : "=r"(v));
	return v;
}

void pm_trap_init(void)
{
	__asm__ volatile("csrw mtvec, %0" ::"r"(pm_trap_vector));
}

void pm_idle_init(void)
{
	__asm__ volatile("csrs mie, %0" ::"r"(8ul));
}

void pm_idle(void)
{
	__asm__ volatile("wfi" ::: "memory");
}

#define HPM_CASE(n)                                                                   \
	case n:                                                                       \
		__asm__ volatile("csrr %0, " #n "+0xb00" : "=r"(v));                  \
		break;

uint64_t pm_hpm_read(unsigned n)
{
	uint64_t v = 0;

	switch (n) {
#include "hpm_cases.inc"
	default:
		break;
	}
	return v;
}

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
