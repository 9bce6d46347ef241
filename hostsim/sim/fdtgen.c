/*
 * The device tree hostsim passes in a1, built with libfdt's sequential-write
 * API.  Layout follows QEMU virt (see docs/hostsim.md for the tree); the
 * /soc nodes come from the machine profile's device table (dev.h, profiles.h).
 */
#include <stdio.h>
#include <string.h>
#include <libfdt.h>
#include "sim/sim.h"
#include "sim/timing.h"
#include "sim/dev.h"

int sim_build_fdt(const struct sim *s, void *buf, int bufsize)
{
	void *f = buf;
	int e = 0;
	char name[64], path[64];

	e |= fdt_create(f, bufsize);
	e |= fdt_finish_reservemap(f);
	e |= fdt_begin_node(f, "");
	e |= fdt_property_u32(f, "#address-cells", 2);
	e |= fdt_property_u32(f, "#size-cells", 2);
	e |= fdt_property_string(f, "compatible", "rvmess,hostsim");
	e |= fdt_property_string(f, "model", "rvmess hostsim");

	const struct sim_machine *m = sim_mach(s);
	e |= fdt_begin_node(f, "chosen");
	for (unsigned i = 0; i < *m->ndevs; i++)
		if (m->devs[i]->flags & SIM_DEV_STDOUT) {
			snprintf(path, sizeof(path), "/soc/%s@%llx%s", m->devs[i]->name,
			         (unsigned long long)m->devs[i]->base, m->stdout_suffix ? m->stdout_suffix : "");
			e |= fdt_property_string(f, "stdout-path", path);
			break;
		}
	e |= fdt_end_node(f);

	snprintf(name, sizeof(name), "memory@%llx", (unsigned long long)s->ram_base);
	e |= fdt_begin_node(f, name);
	e |= fdt_property_string(f, "device_type", "memory");
	e |= sim_fdt_reg(f, s->ram_base, s->ram_size);
	e |= fdt_end_node(f);

	e |= fdt_begin_node(f, "cpus");
	e |= fdt_property_u32(f, "#address-cells", 1);
	e |= fdt_property_u32(f, "#size-cells", 0);
	/* a profile's DTB may state another timebase than mtime's (cva6) */
	e |= fdt_property_u32(f, "timebase-frequency", (uint32_t)(m->dtb_timebase ? m->dtb_timebase : s->opt.timebase));
	if (m->hpm_dtb) {
		/* the mhpmevent ids that count a hart's L1D and LLC misses (memsys.h) */
		e |= fdt_property_u32(f, "rvmess,hpm-event-l1d-miss", MEMSYS_EV_L1D_MISS);
		e |= fdt_property_u32(f, "rvmess,hpm-event-llc-miss", MEMSYS_EV_LLC_MISS);
	}
	/* the caches, when the profile's tree has them and there are any
	 * (--no-timing: every access costs the same, no cache to describe) */
	int caches = m->cache_dtb && s->opt.timing;
	for (unsigned i = 0; i < s->nharts; i++) {
		snprintf(name, sizeof(name), "cpu@%u", i);
		e |= fdt_begin_node(f, name);
		e |= fdt_property_string(f, "device_type", "cpu");
		e |= fdt_property_u32(f, "reg", i);
		e |= fdt_property_string(f, "status", s->opt.fdt_disabled >> i & 1 ? "disabled" : "okay");
		e |= fdt_property_string(f, "compatible", "riscv");
		e |= fdt_property_string(f, "riscv,isa", "rv64ima_zicsr_zifencei");
		e |= fdt_property_u32(f, "clock-frequency", (uint32_t)(s->opt.freq_mhz * 1000000ull));
		if (caches && tm_fdt_cpu_cache(s, f, SIM_LLC_PHANDLE))
			e = -1;
		e |= fdt_begin_node(f, "interrupt-controller");
		e |= fdt_property_u32(f, "#address-cells", 0);
		e |= fdt_property_u32(f, "#interrupt-cells", 1);
		e |= fdt_property(f, "interrupt-controller", NULL, 0);
		e |= fdt_property_string(f, "compatible", "riscv,cpu-intc");
		e |= fdt_property_u32(f, "phandle", SIM_INTC_PHANDLE(i));
		e |= fdt_end_node(f);
		e |= fdt_end_node(f);
	}
	if (caches && tm_fdt_llc_node(s, f, SIM_LLC_PHANDLE))
		e = -1;
	e |= fdt_end_node(f);

	e |= fdt_begin_node(f, "soc");
	e |= fdt_property_u32(f, "#address-cells", 2);
	e |= fdt_property_u32(f, "#size-cells", 2);
	e |= fdt_property_string(f, "compatible", "simple-bus");
	e |= fdt_property(f, "ranges", NULL, 0);

	e |= sim_devs_fdt(s, f);
	e |= fdt_end_node(f); /* soc */

	e |= fdt_begin_node(f, "rvmess-hostsim");
	e |= fdt_property_string(f, "compatible", "rvmess,hostsim-config");
	e |= fdt_property_u64(f, "seed", s->opt.seed);
	e |= fdt_property_u32(f, "core-frequency-mhz", (uint32_t)s->opt.freq_mhz);
	if (tm_fdt_props(s, f))
		e = -1;
	e |= fdt_end_node(f);

	e |= fdt_end_node(f); /* root */
	e |= fdt_finish(f);
	if (e)
		return -1;
	return (int)fdt_totalsize(f);
}
