/*
 * The device tree hostsim passes in a1, built with libfdt's sequential-write
 * API.  Layout follows QEMU virt (see docs/hostsim.md for the tree).
 */
#include <stdio.h>
#include <string.h>
#include <libfdt.h>
#include "sim/sim.h"
#include "sim/timing.h"

static int reg2(void *fdt, uint64_t base, uint64_t size)
{
	fdt64_t r[2] = { cpu_to_fdt64(base), cpu_to_fdt64(size) };
	return fdt_property(fdt, "reg", r, sizeof(r));
}

int sim_build_fdt(const struct sim *s, void *buf, int bufsize)
{
	void *f = buf;
	int e = 0;
	char name[64], path[64];
	uint32_t phandle_intc0 = 1;

	e |= fdt_create(f, bufsize);
	e |= fdt_finish_reservemap(f);
	e |= fdt_begin_node(f, "");
	e |= fdt_property_u32(f, "#address-cells", 2);
	e |= fdt_property_u32(f, "#size-cells", 2);
	e |= fdt_property_string(f, "compatible", "rvmess,hostsim");
	e |= fdt_property_string(f, "model", "rvmess hostsim");

	e |= fdt_begin_node(f, "chosen");
	snprintf(path, sizeof(path), "/soc/serial@%llx", (unsigned long long)SIM_UART_BASE);
	e |= fdt_property_string(f, "stdout-path", path);
	e |= fdt_end_node(f);

	snprintf(name, sizeof(name), "memory@%llx", (unsigned long long)s->ram_base);
	e |= fdt_begin_node(f, name);
	e |= fdt_property_string(f, "device_type", "memory");
	e |= reg2(f, s->ram_base, s->ram_size);
	e |= fdt_end_node(f);

	e |= fdt_begin_node(f, "cpus");
	e |= fdt_property_u32(f, "#address-cells", 1);
	e |= fdt_property_u32(f, "#size-cells", 0);
	e |= fdt_property_u32(f, "timebase-frequency", (uint32_t)s->opt.timebase);
	/* the mhpmevent ids that count a hart's L1D and LLC misses (memsys.h) */
	e |= fdt_property_u32(f, "rvmess,hpm-event-l1d-miss", MEMSYS_EV_L1D_MISS);
	e |= fdt_property_u32(f, "rvmess,hpm-event-llc-miss", MEMSYS_EV_LLC_MISS);
	for (unsigned i = 0; i < s->nharts; i++) {
		snprintf(name, sizeof(name), "cpu@%u", i);
		e |= fdt_begin_node(f, name);
		e |= fdt_property_string(f, "device_type", "cpu");
		e |= fdt_property_u32(f, "reg", i);
		e |= fdt_property_string(f, "status", "okay");
		e |= fdt_property_string(f, "compatible", "riscv");
		e |= fdt_property_string(f, "riscv,isa", "rv64ima_zicsr_zifencei");
		e |= fdt_property_u32(f, "clock-frequency", (uint32_t)(s->opt.freq_mhz * 1000000ull));
		e |= fdt_begin_node(f, "interrupt-controller");
		e |= fdt_property_u32(f, "#address-cells", 0);
		e |= fdt_property_u32(f, "#interrupt-cells", 1);
		e |= fdt_property(f, "interrupt-controller", NULL, 0);
		e |= fdt_property_string(f, "compatible", "riscv,cpu-intc");
		e |= fdt_property_u32(f, "phandle", phandle_intc0 + i);
		e |= fdt_end_node(f);
		e |= fdt_end_node(f);
	}
	e |= fdt_end_node(f);

	e |= fdt_begin_node(f, "soc");
	e |= fdt_property_u32(f, "#address-cells", 2);
	e |= fdt_property_u32(f, "#size-cells", 2);
	e |= fdt_property_string(f, "compatible", "simple-bus");
	e |= fdt_property(f, "ranges", NULL, 0);

	snprintf(name, sizeof(name), "serial@%llx", (unsigned long long)SIM_UART_BASE);
	e |= fdt_begin_node(f, name);
	e |= fdt_property_string(f, "compatible", "ns16550a");
	e |= fdt_property_u32(f, "clock-frequency", SIM_UART_CLOCK);
	e |= reg2(f, SIM_UART_BASE, SIM_UART_SIZE);
	e |= fdt_end_node(f);

	snprintf(name, sizeof(name), "clint@%llx", (unsigned long long)SIM_CLINT_BASE);
	e |= fdt_begin_node(f, name);
	{
		/* "riscv,clint0" first: the firmware's reader keys on it */
		static const char compat[] = "riscv,clint0\0sifive,clint0";
		e |= fdt_property(f, "compatible", compat, sizeof(compat));
	}
	e |= reg2(f, SIM_CLINT_BASE, SIM_CLINT_SIZE);
	{
		fdt32_t ie[SIM_MAX_HARTS * 4];
		for (unsigned i = 0; i < s->nharts; i++) {
			ie[4 * i + 0] = cpu_to_fdt32(phandle_intc0 + i);
			ie[4 * i + 1] = cpu_to_fdt32(3);
			ie[4 * i + 2] = cpu_to_fdt32(phandle_intc0 + i);
			ie[4 * i + 3] = cpu_to_fdt32(7);
		}
		e |= fdt_property(f, "interrupts-extended", ie, (int)(s->nharts * 4 * sizeof(fdt32_t)));
	}
	e |= fdt_end_node(f);

	snprintf(name, sizeof(name), "test@%llx", (unsigned long long)SIM_TEST_BASE);
	e |= fdt_begin_node(f, name);
	{
		static const char compat[] = "sifive,test1\0sifive,test0\0syscon";
		e |= fdt_property(f, "compatible", compat, sizeof(compat));
	}
	e |= reg2(f, SIM_TEST_BASE, SIM_TEST_SIZE);
	e |= fdt_end_node(f);

	snprintf(name, sizeof(name), "memctl@%llx", (unsigned long long)SIM_MEMCTL_BASE);
	e |= fdt_begin_node(f, name);
	e |= fdt_property_string(f, "compatible", RVM_MEMCTL_COMPATIBLE);
	e |= reg2(f, SIM_MEMCTL_BASE, SIM_MEMCTL_SIZE);
	e |= fdt_end_node(f);
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
