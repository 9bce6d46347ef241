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
