/*
 * --machine cva6: the CVA6 testharness's devices and end of run.
 *
 * UART (16550-style mock at 0x10000000): registers on a 4-byte stride, 32-bit
 * accesses only (others are access faults).  A byte written to THR sits in
 * the transmitter until the next LSR read sends it; a second THR write before
 * that is dropped, as back-to-back stores lose characters on the harness
 * (poll LSR before every byte).  A byte still in the transmitter when the
 * image ends is lost (read the UART before the exit).  LSR reads "THR empty,
 * idle".
 * Exit: the image's 64-bit store of (status << 1) | 1 to its `tohost`
 * symbol, as the harness's RVFI tracer sees it: checked at every scheduler
 * turn; the run ends with `status`.
 * The CLINT is QEMU virt's (0x2000000), mtime every 4 core clocks; the DTB
 * (boot ROM, 0x10080) says timebase 32768 Hz, as the harness's does.
 */
#include <stdio.h>
#include <string.h>
#include "sim/sim.h"
#include "sim/dev.h"

struct uart4 {
	uint8_t regs[8];
	uint8_t dll, dlm;
	uint8_t pending, byte;   /* a byte in the transmitter */
	uint64_t dropped;
};

static int uart4_load(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t *v)
{
	struct uart4 *u = st;
	unsigned r = (unsigned)(off >> 2);
	if (size != 4 || (off & 3))
		return -1;
	switch (r) {
	case 0: *v = (u->regs[3] & 0x80) ? u->dll : 0; break;
	case 1: *v = (u->regs[3] & 0x80) ? u->dlm : u->regs[1]; break;
	case 2: *v = 0x01; break;
	case 5:
		if (u->pending) {
			sim_console_putc(s, h, u->byte);
			u->pending = 0;
		}
		*v = 0x60;
		break;
	default: *v = r < 8 ? u->regs[r] : 0; break;
	}
	return 0;
}

static int uart4_store(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t v)
{
	struct uart4 *u = st;
	unsigned r = (unsigned)(off >> 2);
	int dlab = u->regs[3] & 0x80;
	(void)h;
	if (size != 4 || (off & 3))
		return -1;
	if (r == 0 && !dlab) {
		if (u->pending) {
			if (!u->dropped++)
				fprintf(stderr, "hostsim: cva6 UART: byte 0x%02x dropped: written before the previous one "
				        "left (poll LSR before every byte)\n", (unsigned)(v & 0xff));
		} else {
			u->pending = 1;
			u->byte = (uint8_t)v;
		}
	} else if (r == 0) {
		u->dll = (uint8_t)v;
	} else if (r == 1 && dlab) {
		u->dlm = (uint8_t)v;
	} else if (r < 8 && r != 2 && r != 5) {
		u->regs[r] = (uint8_t)v;
	}
	(void)s;
	return 0;
}

static int uart4_fdt(const struct sim *s, const struct sim_dev *d, void *fdt)
{
	(void)s;
	return sim_fdt_uart(fdt, d, "ns16550a", 2, 4);
}

const struct sim_dev dev_uart_cva6 = {
	.name = "uart", .base = 0x10000000, .size = 0x1000,
	.state_size = sizeof(struct uart4),
	.load = uart4_load, .store = uart4_store, .fdt = uart4_fdt,
};

int sim_cva6_symbols(struct sim *s, const uint8_t *elf, size_t len, char *err, size_t errlen)
{
	uint64_t size;
	if (sim_elf_symbol(elf, len, "tohost", &s->msym.tohost, &size))
		return sim_fail(err, errlen, "--machine cva6 needs the image's `tohost` symbol (its exit): "
		                "build it with make PLATFORM=cva6");
	if (s->msym.tohost < s->ram_base || s->msym.tohost - s->ram_base > s->ram_size - 8 || (s->msym.tohost & 7))
		return sim_fail(err, errlen, "`tohost` at 0x%llx is not an aligned doubleword in RAM",
		                (unsigned long long)s->msym.tohost);
	return 0;
}

void sim_cva6_poll(struct sim *s)
{
	uint64_t v;
	memcpy(&v, s->ram + (s->msym.tohost - s->ram_base), 8);
	if (!(v & 1))
		return;
	struct uart4 *u = sim_dev_state(s, &dev_uart_cva6);
	if (u && u->pending)
		fprintf(stderr, "hostsim: cva6 UART: byte 0x%02x lost at the exit (read the UART before the "
		        "tohost store)\n", u->byte);
	s->stop = 1;
	s->exit_code = sim_exit_status(v >> 1);
}
