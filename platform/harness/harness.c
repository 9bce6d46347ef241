/*
 * CVA6 testharness (corev_apu/tb, Verilator), M-mode: the core enters at
 * 0x80000000 with a0 = 0, a1 = the boot ROM's DTB (0x10080).
 * Console: the 16550-style UART at 0x10000000, registers on a 4-byte stride,
 * 32-bit accesses (the DTB's reg-shift 2 / reg-io-width 4), LSR polled before
 * every byte: back-to-back stores lose characters.
 * Exit: one UART read (the console's last stores have then left the core),
 * then a 64-bit store of (status << 1) | 1 to `tohost` (fesvr finds `tohost`
 * in the ELF and ends the run on it; the harness refuses +tohost_addr).  HTIF is
 * never used for the console: fesvr serves it only through the debug module.
 * Timebase: the DTB says 32768 Hz, but the testbench ticks mtime once every
 * 4 core clocks, so the true timebase is core clock / 4; the core clock is
 * the DTB's nominal cpu clock-frequency, 50 MHz (CVA6_CLK_HZ at build time).
 * HPM: mhpmevent ids 2 (L1D miss) for both pm_event counters: the L1D is
 * CVA6's last cache level (behind it is the harness's SRAM).
 */
#include "platform.h"
#include "rvmess/fdt.h"
#include "common/clint.h"
#include "common/uart.h"

#ifndef CVA6_CLK_HZ
#define CVA6_CLK_HZ 50000000u
#endif
#define CVA6_MTIME_DIV 4u           /* core clocks per mtime tick */
#define CVA6_EV_L1D_MISS 2u         /* mhpmevent ids: 1 L1I miss, 2 L1D miss, */
                                    /* 5 load, 6 store, 17 L1D access */

volatile uint64_t tohost __attribute__((section(".htif"), aligned(8), used));
volatile uint64_t fromhost __attribute__((section(".htif"), aligned(8), used));

static struct uart uart;
static const struct uart uart_default = { &uart_ns16550, 0x10000000u, 2, 4, 0 };

static void cva6_init(const struct fdt_info *f)
{
	uart_setup(&uart, f, &uart_default);
	clint_setup(f, 0x2000000u);
	pm_event_id[PM_EV_L1D_MISS] = CVA6_EV_L1D_MISS;
	pm_event_id[PM_EV_LLC_MISS] = CVA6_EV_L1D_MISS;
}

static void cva6_putc(char c)
{
	uart_putc(&uart, c);
}

static __attribute__((noreturn)) void cva6_exit(int status)
{
	if (uart.drv)
		(void)uart_rd(&uart, 5); /* LSR: the reply comes after the stores before it */
	__asm__ volatile("fence" ::: "memory");
	tohost = ((uint64_t)(uint32_t)status << 1) | 1u;
	__asm__ volatile("fence" ::: "memory");
	for (;;)
		__asm__ volatile("wfi");
}

const struct platform plat = {
	.name = "cva6",
	.mode = "M",
	.default_mem_base = 0x80000000u,
	.default_mem_size = 256u << 20,
	.default_timebase = CVA6_CLK_HZ / CVA6_MTIME_DIV,
	.default_harts = 1,
	.init = cva6_init,
	.putc = cva6_putc,
	.start_hart = 0,
	.ipi_send = clint_ipi_send,
	.ipi_clear = clint_ipi_clear,
	.exit = cva6_exit,
	.timebase = CVA6_CLK_HZ / CVA6_MTIME_DIV,
};
