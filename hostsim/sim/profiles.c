/*
 * hostsim's machine profiles (profiles.h, docs/hostsim.md "Machine profiles").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/sim.h"
#include "sim/dev.h"
#include "sim/memsys.h"

extern const struct sim_dev dev_clint, dev_uart_cva6, dev_rom_cva6;
extern const struct sim_dev dev_uart_piton, dev_clint_piton, dev_rom_piton, dev_l2ctr_piton, dev_metro_piton;

static const struct sim_dev *const cva6_devs[] = { &dev_clint, &dev_uart_cva6, &dev_rom_cva6 };
static const unsigned cva6_ndevs = sizeof(cva6_devs) / sizeof(cva6_devs[0]);
static const struct sim_dev *const piton_devs[] = {
	&dev_clint_piton, &dev_uart_piton, &dev_rom_piton, &dev_l2ctr_piton, &dev_metro_piton,
};
static const unsigned piton_ndevs = sizeof(piton_devs) / sizeof(piton_devs[0]);

/* CVA6 mhpmevent ids: 1 L1I miss (hostsim has no I-cache: 0), 2 L1D miss,
 * 5 load, 6 store, 17 L1D access; the others count nothing here. */
static const uint8_t cva6_ev[18] = {
	[2] = MEMSYS_EV_L1D_MISS, [5] = MEMSYS_EV_LOAD, [6] = MEMSYS_EV_STORE, [17] = MEMSYS_EV_L1D_ACCESS,
};
/* OpenPiton's Ariane: mhpmcounter3 L1I miss, 4 L1D miss, 5 ITLB miss, 6 DTLB
 * miss (no I-cache, no TLB here: 0), 7 loads, 8 stores. */
static const uint8_t piton_fixed[9] = {
	[4] = MEMSYS_EV_L1D_MISS, [7] = MEMSYS_EV_LOAD, [8] = MEMSYS_EV_STORE,
};

const struct sim_machine sim_machine_virt = {
	.name = "virt", .devs = sim_devs, .ndevs = &sim_ndevs, .hpm_dtb = 1, .cache_dtb = 1,
};

static const struct sim_machine machines[SIM_NMACHINES] = {
	[SIM_MACH_CVA6] = {
		.name = "cva6", .devs = cva6_devs, .ndevs = &cva6_ndevs,
		.mtime_div = 4, .dtb_timebase = 32768,
		.fdt_rom = 0x10080, .no_time_csr = 1, .ev_map = cva6_ev, .ev_map_len = sizeof(cva6_ev),
		.symbols = sim_cva6_symbols, .poll = sim_cva6_poll,
	},
	[SIM_MACH_OPENPITON] = {
		.name = "openpiton", .devs = piton_devs, .ndevs = &piton_ndevs,
		.mtime_div = 128,
		.fdt_rom = 0xfff1010000ull, .stdout_suffix = ":115200", .no_time_csr = 1,
		.fixed_ev = piton_fixed, .fixed_ev_len = sizeof(piton_fixed), .dcache_csr = 1,
		.symbols = sim_piton_symbols, .poll = sim_piton_poll,
	},
};

const struct sim_machine *sim_machine_get(unsigned id)
{
	if (id == SIM_MACH_VIRT)
		return &sim_machine_virt;
	return id < SIM_NMACHINES ? &machines[id] : NULL;
}

int sim_exit_status(uint64_t status)
{
	if (!status)
		return 0;
	return (status & 0xff) ? (int)(status & 0xff) : 1;
}

int sim_mach_symbols(struct sim *s, const char *path, char *err, size_t errlen)
{
	const struct sim_machine *m = sim_mach(s);
	if (!m->symbols)
		return 0;
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n = -1;
	if (f && fseek(f, 0, SEEK_END) == 0)
		n = ftell(f);
	if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
		int rc = m->symbols(s, buf, (size_t)n, err, errlen);
		free(buf);
		fclose(f);
		return rc;
	}
	free(buf);
	if (f)
		fclose(f);
	return sim_fail(err, errlen, "cannot read its symbols");
}

int sim_mach_place_fdt(struct sim *s, const void *fdt, size_t n)
{
	const struct sim_machine *m = sim_mach(s);
	unsigned nd;
	if (!m->fdt_rom)
		return 1;
	nd = *m->ndevs;
	for (unsigned i = 0; i < nd; i++) {
		const struct sim_dev *d = m->devs[i];
		uint64_t off = m->fdt_rom - d->base;
		if (m->fdt_rom < d->base || off >= d->size)
			continue;
		if (n > d->state_size - off)
			return -1;
		memcpy((uint8_t *)s->dev_state[i] + off, fdt, n);
		s->fdt_addr = m->fdt_rom;
		s->fdt_size = n;
		return 0;
	}
	return -1;
}
