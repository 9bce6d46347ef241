/* Privilege-mode layer for S-mode images (OpenSBI payload): user-level counter
 * CSRs (OpenSBI enables them in mcounteren) and stvec. */
#include "platform.h"

extern char pm_trap_vector[];

uint64_t pm_cycles(void)
{
	uint64_t v;
	__asm__ volatile("rdcycle %0" : "=r"(v));
	return v;
}

uint64_t pm_instret(void)
{
	uint64_t v;
	__asm__ volatile("rdinstret %0" : "=r"(v));
	return v;
}

void pm_trap_init(void)
{
	__asm__ volatile("csrw stvec, %0" ::"r"(pm_trap_vector));
}

void pm_idle_init(void)
{
	__asm__ volatile("csrs sie, %0" ::"r"(2ul));
}

void pm_idle(void)
{
	__asm__ volatile("wfi" ::: "memory");
}

#define HPM_CASE(n)                                                                   \
	case n:                                                                       \
		__asm__ volatile("csrr %0, " #n "+0xc00" : "=r"(v));                  \
		break;

uint64_t pm_hpm_read(unsigned n)
{
	uint64_t v = 0;

	/* HPM counters may be inhibited (SBI PMU not started) and then read 0. */
	switch (n) {
#include "hpm_cases.inc"
	default:
		break;
	}
	return v;
}

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
