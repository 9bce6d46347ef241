#include "common/clint.h"
#include "rvmess/fdt.h"

static uintptr_t clint;

void clint_setup(const struct fdt_info *f, uintptr_t default_base)
{
	clint = (f && f->clint_base) ? (uintptr_t)f->clint_base : default_base;
}

void clint_ipi_send(unsigned long hartid)
{
	__asm__ volatile("fence" ::: "memory"); /* the flag it announces before the wake-up */
	*(volatile uint32_t *)(clint + 4 * hartid) = 1;
}

void clint_ipi_clear(void)
{
	unsigned long h;
	__asm__ volatile("csrr %0, mhartid" : "=r"(h));
	*(volatile uint32_t *)(clint + 4 * h) = 0;
	__asm__ volatile("fence" ::: "memory");
}
