/*
 * The memory-controller counter block: memsys's MMIO registers (memsys.h),
 * reached through timing.c; reads 0 with --no-timing.  PHASE is the
 * writing hart's own (the set-up phase hint, machine.c).
 */
#include <libfdt.h>
#include "sim/sim.h"
#include "sim/dev.h"
#include "sim/timing.h"
#include "rvmess/memctl.h"

static int memctl_load(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t *v)
{
	(void)st;
	if (off == RVM_MEMCTL_PHASE && size == 8) {
		*v = sim_phase_get(s, h);
		return 0;
	}
	*v = tm_memctl_read(s, off, size);
	return 0;
}

static int memctl_store(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t v)
{
	(void)st;
	if (off == RVM_MEMCTL_PHASE && size == 8) {
		sim_phase_set(s, h, v);
		return 0;
	}
	tm_memctl_write(s, off, size, v);
	return 0;
}

static int memctl_fdt(const struct sim *s, const struct sim_dev *d, void *fdt)
{
	int e = 0;
	(void)s;
	e |= fdt_property_string(fdt, "compatible", RVM_MEMCTL_COMPATIBLE);
	e |= sim_fdt_reg(fdt, d->base, d->size);
	return e;
}

const struct sim_dev dev_memctl = {
	.name = "memctl", .base = 0x10010000, .size = 0x1000,
	.load = memctl_load, .store = memctl_store, .fdt = memctl_fdt,
};
