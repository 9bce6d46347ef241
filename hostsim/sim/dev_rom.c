/*
 * Boot ROMs holding the DTB (--machine cva6: 0x10000, the DTB at 0x10080;
 * --machine openpiton: 0xfff1010000, the DTB at its start).  Read-only: a
 * store is an access fault.  sim_mach_place_fdt fills it (profiles.c).
 */
#include <string.h>
#include "sim/sim.h"
#include "sim/dev.h"

static int rom_load(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t *v)
{
	(void)s; (void)h;
	*v = 0;
	memcpy(v, (const uint8_t *)st + off, size); /* little-endian host */
	return 0;
}

static int rom_store(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t v)
{
	(void)s; (void)h; (void)st; (void)off; (void)size; (void)v;
	return -1;
}

const struct sim_dev dev_rom_cva6 = {
	.name = "bootrom", .base = 0x10000, .size = SIM_ROM_SIZE, .state_size = SIM_ROM_SIZE,
	.load = rom_load, .store = rom_store,
};

const struct sim_dev dev_rom_piton = {
	.name = "bootrom", .base = 0xfff1010000ull, .size = SIM_ROM_SIZE, .state_size = SIM_ROM_SIZE,
	.load = rom_load, .store = rom_store,
};
