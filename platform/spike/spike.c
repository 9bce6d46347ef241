/*
 * Spike / HTIF, M-mode (qemu-system-riscv64 -M spike -bios none, Spike, CVA6
 * testharness): every hart enters at 0x80000000.
 * Console: HTIF device 1 (console), command 1 (putchar).
 * Exit: tohost = (code << 1) | 1.
 * QEMU and Spike find the mailboxes through the ELF symbols tohost/fromhost.
 */
#include "platform.h"
#include "rvmess/fdt.h"
#include "common/clint.h"

volatile uint64_t tohost __attribute__((section(".htif"), aligned(8), used));
volatile uint64_t fromhost __attribute__((section(".htif"), aligned(8), used));

static void htif_send(uint64_t cmd, int wait_reply)
{
	uint32_t i;

	for (i = 0; i < 10000000u && tohost; i++)
		;
	tohost = cmd;
	if (!wait_reply)
		return;
	for (i = 0; i < 10000000u && !fromhost; i++)
		;
	fromhost = 0;
}

static void spike_init(const struct fdt_info *f)
{
	clint_setup(f, 0x2000000u);
}

static void spike_putc(char c)
{
	htif_send((1ull << 56) | (1ull << 48) | (unsigned char)c, 1);
}

static __attribute__((noreturn)) void spike_exit(int status)
{
	htif_send(((uint64_t)(status ? status : 0) << 1) | 1u, 0);
	for (;;)
		__asm__ volatile("wfi");
}

const struct platform plat = {
	.name = "spike",
	.mode = "M",
	.default_mem_base = 0x80000000u,
	.default_mem_size = 128u << 20,
	.default_timebase = 10000000u,
	.default_harts = 1,
	.init = spike_init,
	.putc = spike_putc,
	.start_hart = 0,
	.ipi_send = clint_ipi_send,
	.ipi_clear = clint_ipi_clear,
	.exit = spike_exit,
};
