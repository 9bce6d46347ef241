/*
 * QEMU virt, M-mode (-bios none): every hart enters at 0x80000000.
 * Console: the UART the FDT names (platform/common/uart.c), default an
 * ns16550a at 0x10000000.
 * Exit: the sifive,test0 finisher from the FDT; without an FDT the one at
 * 0x100000.  A tree without a finisher (QEMU sifive_u, a board) gets none:
 * after the `end` record the lead waits in wfi and the runner ends the run.
 * The same image runs on QEMU sifive_u (-bios none): the FDT names its
 * SiFive UART, and the JH7110's DesignWare 8250 (docs/platforms.md).
 */
#include "platform.h"
#include "rvmess/fdt.h"
#include "common/clint.h"
#include "common/finisher.h"
#include "common/uart.h"

static struct uart uart;
static const struct uart uart_default = { &uart_ns16550, 0x10000000u, 0, 1, 0 };
static uint64_t test_base;

static void virt_init(const struct fdt_info *f)
{
	uart_setup(&uart, f, &uart_default);
	uart_init(&uart);
	clint_setup(f, 0x2000000u);
	test_base = f ? f->test_base : 0x100000u;
}

static void virt_putc(char c)
{
	uart_putc(&uart, c);
}

static __attribute__((noreturn)) void virt_exit(int status)
{
	if (test_base)
		finisher_exit(test_base, status);
	for (;;)
		__asm__ volatile("wfi");
}

const struct platform plat = {
	.name = "virt",
	.mode = "M",
	.default_mem_base = 0x80000000u,
	.default_mem_size = 128u << 20,
	.default_timebase = 10000000u,
	.default_harts = 1,
	.init = virt_init,
	.putc = virt_putc,
	.start_hart = 0,
	.ipi_send = clint_ipi_send,
	.ipi_clear = clint_ipi_clear,
	.exit = virt_exit,
};
