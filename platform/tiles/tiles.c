/*
 * OpenPiton + Ariane (sims -sys=manycore -ariane, any tile count; Metro-MPI),
 * M-mode: every hart enters at 0x80000000 with a0 = hartid (x + y * X_TILES)
 * and a1 = the boot ROM's DTB (0xfff1010000).
 * Console: the UART at 0xfff0c2c000 the DTB names (its stdout-path is an
 * alias the DTB lacks, so the reader takes the first UART node).  In sims it
 * is fake_uart.v: it prints every byte written to offset 0 and every read
 * returns 0xef, so by default it is written without polling
 * (UART_WRITE_ONLY: a read would cost an uncached NoC round trip per byte).
 * On an FPGA board it is a real 16550 at the same address (byte registers),
 * whose 16-byte FIFO overflows unless LSR is polled: OPENPITON_UART=16550
 * builds the polling console (0xef has LSR.THRE set, so that image runs in
 * sims too).  Never programmed: the board's chipset sets 115200 baud.
 * Timer: CLINT mtime at 0xfff1020000 + 0xbff8 (DTB), once per 128 core
 * clocks; the DTB's timebase (clk/128, 390625 Hz at 50 MHz) is right.  No
 * `time` CSR (the firmware's probe finds that).
 * No IPIs: a hart idle in `wfi` longer than sims' -rtl_timeout fails the
 * run, so waiting harts spin.
 * End: every hart of sims' finish mask must reach the function `pass` (or
 * any one `fail`): the lead sets `piton_end`, every other hart spins in
 * piton_park() (rvm_park) until it is set and goes where it says, and the
 * lead follows (pass_fail.S; OPENPITON_END=metro adds the Metro-MPI load there).
 * The QEMU finisher is never touched (a store to 0x100000 hangs in the L2).
 * Counters: Ariane's fixed-function HPM CSRs (0xB03 L1I miss, 0xB04 L1D
 * miss, 0xB05 ITLB, 0xB06 DTLB, 0xB07 loads, 0xB08 stores; no mhpmevent) and
 * each tile's L2 slice counters (MMIO, values byte-swapped): enable by
 * writing 0x0C00000000000000 to 0xA900000000 | tile << 24, accesses at
 * 0xAA.., misses at 0xAB...  The Mess suite's memory traffic is the sum of
 * every slice's misses (64-byte line fills; write-backs are not counted).
 */
#include "platform.h"
#include "rvmess/fdt.h"
#include "common/uart.h"

#define PITON_L2_CTL    0xA900000000ull
#define PITON_L2_MISSES 0xAB00000000ull
#define PITON_L2_ENABLE 0x0C00000000000000ull
#define PITON_TILE(t)   ((uint64_t)(t) << 24)
#define PITON_MAX_TILES 64u
#define PITON_HPM_L1D_MISS 4u /* CSR 0xB04 */

extern void pass(void) __attribute__((noreturn));
extern void fail(void) __attribute__((noreturn));

#ifndef OPENPITON_UART_POLL
#define OPENPITON_UART_POLL 0
#endif
#define PITON_UART_FLAGS (OPENPITON_UART_POLL ? 0u : UART_WRITE_ONLY)

static struct uart uart;
static const struct uart uart_default = { &uart_ns16550, 0xfff0c2c000ull, 0, 1, PITON_UART_FLAGS };
static uint32_t ntiles;
/* 0 while the run goes on, 1 pass, 2 fail; in .data: a hart may park
 * before the lead clears .bss */
static volatile uint32_t piton_end __attribute__((section(".data"))) = 0;

static uint64_t bswap64(uint64_t v)
{
	uint64_t r = 0;
	for (int i = 0; i < 8; i++, v >>= 8)
		r = (r << 8) | (v & 0xff);
	return r;
}

static void piton_init(const struct fdt_info *f)
{
	uart_setup(&uart, f, &uart_default);
}

/* The platform's counters (platform.h; instead of platform/common/counters.c
 * and mhpmevent.c): one L2 slice per tile, a tile per cpu node. */
void pm_counters_init(const struct fdt_info *f)
{
	ntiles = f && f->nharts ? f->nharts : 1;
	if (ntiles > PITON_MAX_TILES)
		ntiles = PITON_MAX_TILES;
	for (uint32_t t = 0; t < ntiles; t++)
		*(volatile uint64_t *)(uintptr_t)(PITON_L2_CTL | PITON_TILE(t)) = PITON_L2_ENABLE;
}

static void piton_putc(char c)
{
	uart_putc(&uart, c);
}

static uint64_t l2_misses(void)
{
	uint64_t sum = 0;
	for (uint32_t t = 0; t < ntiles; t++)
		sum += bswap64(*(volatile uint64_t *)(uintptr_t)(PITON_L2_MISSES | PITON_TILE(t)));
	return sum;
}

int pm_memctl_read(struct pm_memctl *m)
{
	m->reads = l2_misses();
	m->writes = 0;
	m->peak_mbps = 0;
	return 0;
}

int pm_event_setup(void)
{
	return 0; /* fixed-function counters: nothing to program */
}

void pm_setup_phase(int on)
{
	(void)on; /* no simulator hint on the RTL */
}

/* L1D misses: the calling hart's own; LLC misses: every L2 slice's (the
 * slices count by home address, not by requester). */
uint64_t pm_event_read(enum pm_event e)
{
	return e == PM_EV_L1D_MISS ? pm_hpm_read(PITON_HPM_L1D_MISS) : l2_misses();
}

/*
 * plat.poll: flush this tile's Ariane L1D by switching it off and on (CSR
 * 0x701, DCACHE, bit 0: switched on, the L1D invalidates every line).  On
 * OpenPiton the L1D is write-through below a coherent L1.5, but another
 * tile's store never invalidates a line this L1D holds, and `fence` does not
 * flush it (WT_DCACHE): a hart spinning on a flag it has read once reads the
 * stale copy for ever (on the 2x1 model the follower spun on `boot_go` while
 * the lead waited for it).  Leaving the L1D off is no cure: an SC then never
 * succeeds (the console lock's LR/SC loop spun for ever on the 2x1 model).
 */
static void piton_poll(void)
{
	__asm__ volatile("csrwi 0x701, 0\n\tcsrwi 0x701, 1" ::: "memory");
}

static __attribute__((noreturn)) void piton_park(void)
{
	uint32_t e;
	while (piton_poll(), !(e = __atomic_load_n(&piton_end, __ATOMIC_ACQUIRE)))
		;
	if (e == 1)
		pass();
	fail();
}

static __attribute__((noreturn)) void piton_exit(int status)
{
	/* a read from the UART returns after the console's stores before it */
	(void)*(volatile uint8_t *)uart.base;
	__atomic_store_n(&piton_end, status ? 2u : 1u, __ATOMIC_RELEASE);
	if (status)
		fail();
	pass();
}

const struct platform plat = {
	.name = "openpiton",
	.mode = "M",
	.default_mem_base = 0x80000000u,
	.default_mem_size = 1u << 30,
	.default_timebase = 390625u, /* 50 MHz / 128 */
	.default_harts = 1,
	.init = piton_init,
	.putc = piton_putc,
	.start_hart = 0,
	.ipi_send = 0,
	.ipi_clear = 0,
	.exit = piton_exit,
	.park = piton_park,
	.poll = piton_poll,
};
