/*
 * ns16550a UART (QEMU virt's address and clock): byte registers; THR writes
 * go to the console unless LCR.DLAB is set (then +0/+1 are the divisor
 * latch); LSR always reads "THR empty, idle", IIR "no interrupt", RBR 0.
 */
#include <stdio.h>
#include <libfdt.h>
#include "sim/sim.h"
#include "sim/dev.h"

#define UART_CLOCK 3686400u

struct uart {
	uint8_t regs[8];
	uint8_t dll, dlm;
};

void sim_console_putc(struct sim *s, struct sim_hart *h, uint8_t c)
{
	putc(c, s->console);
	if (s->stamps && c == '\n') {
		uint64_t n = 0;
		for (unsigned i = 0; i < s->nharts; i++)
			n += s->harts[i].instret;
		fprintf(s->stamps, "%llu %llu\n", (unsigned long long)h->clock, (unsigned long long)n);
	}
}

static int uart_load(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t *v)
{
	struct uart *u = st;
	unsigned r = (unsigned)off;
	int dlab = u->regs[3] & 0x80;
	(void)s; (void)h; (void)size;
	switch (r) {
	case 0: *v = dlab ? u->dll : 0; break;
	case 1: *v = dlab ? u->dlm : u->regs[1]; break;
	case 2: *v = 0x01; break; /* IIR: no interrupt pending */
	case 5: *v = 0x60; break; /* LSR: THR empty, transmitter idle */
	case 6: *v = 0; break;
	default: *v = r < 8 ? u->regs[r] : 0; break;
	}
	return 0;
}

static int uart_store(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t v)
{
	struct uart *u = st;
	unsigned r = (unsigned)off;
	int dlab = u->regs[3] & 0x80;
	(void)size;
	if (r == 0) {
		if (dlab) {
			u->dll = (uint8_t)v;
		} else {
			sim_console_putc(s, h, (uint8_t)v);
		}
	} else if (r == 1 && dlab) {
		u->dlm = (uint8_t)v;
	} else if (r < 8 && r != 2 && r != 5) {
		u->regs[r] = (uint8_t)v;
	}
	return 0;
}

static int uart_fdt(const struct sim *s, const struct sim_dev *d, void *fdt)
{
	int e = 0;
	(void)s;
	e |= fdt_property_string(fdt, "compatible", "ns16550a");
	e |= fdt_property_u32(fdt, "clock-frequency", UART_CLOCK);
	e |= sim_fdt_reg(fdt, d->base, d->size);
	return e;
}

const struct sim_dev dev_uart = {
	.name = "serial", .base = 0x10000000, .size = 0x100, .flags = SIM_DEV_STDOUT,
	.state_size = sizeof(struct uart),
	.load = uart_load, .store = uart_store, .fdt = uart_fdt,
};
