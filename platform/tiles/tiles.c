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
 * 0xAA.., misses at 0xAB...  Memory traffic: where the checkout was
 * prepared with tools/rtl-prep.sh memctr, the fake memory controller's own
 * counts of 64-byte reads and write-backs, in the rvmess,memctl-counters
 * layout at the UART's base + 0x800, a byte per read (reading byte 0 of
 * READS takes a snapshot of both); else the sum of every L2 slice's misses
 * (line fills; write-backs not counted).
 */
#include "platform.h"
#include "rvmess/fdt.h"
#include "rvmess/memctl.h"
#include "common/uart.h"

#define PITON_L2_CTL    0xA900000000ull
#define PITON_L2_MISSES 0xAB00000000ull
#define PITON_L2_ENABLE 0x0C00000000000000ull
#define PITON_TILE(t)   ((uint64_t)(t) << 24)
#define PITON_MAX_TILES 64u
#define PITON_HPM_L1D_MISS 4u /* CSR 0xB04 */
#define PITON_MEMCTR    0x800u /* the counter window in the fake UART (rtl-prep.sh memctr) */

extern void pass(void) __attribute__((noreturn));
extern void fail(void) __attribute__((noreturn));

#ifndef OPENPITON_UART_POLL
#define OPENPITON_UART_POLL 0
#endif
#define PITON_UART_FLAGS (OPENPITON_UART_POLL ? 0u : UART_WRITE_ONLY)

static struct uart uart;
static const struct uart uart_default = { &uart_ns16550, 0xfff0c2c000ull, 0, 1, PITON_UART_FLAGS };
static uint32_t ntiles;
static uintptr_t memctr; /* the counter window, 0 when the model has none */
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

/* A register of the counter window, a byte at a time, little-endian (byte
 * 0 first: for READS that takes the snapshot). */
static uint64_t memctr_reg(uint32_t reg)
{
	uint64_t v = 0;
	for (uint32_t i = 0; i < 8; i++)
		v |= (uint64_t)*(volatile uint8_t *)(memctr + reg + i) << (8 * i);
	return v;
}

/* The platform's counters (platform.h; instead of platform/common/counters.c
 * and mhpmevent.c): one L2 slice per tile, a tile per cpu node, and the
 * memory controller's window when the model has it (its MAGIC reads back;
 * an unprepared fake UART answers 0xef). */
void pm_counters_init(const struct fdt_info *f)
{
	ntiles = f && f->nharts ? f->nharts : 1;
	if (ntiles > PITON_MAX_TILES)
		ntiles = PITON_MAX_TILES;
	for (uint32_t t = 0; t < ntiles; t++)
		*(volatile uint64_t *)(uintptr_t)(PITON_L2_CTL | PITON_TILE(t)) = PITON_L2_ENABLE;
	memctr = uart.base + PITON_MEMCTR;
	if (memctr_reg(RVM_MEMCTL_MAGIC) != RVM_MEMCTL_MAGIC_VALUE)
		memctr = 0;
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
	if (memctr) {
		m->reads = memctr_reg(RVM_MEMCTL_READS); /* first: the snapshot */
		m->writes = memctr_reg(RVM_MEMCTL_WRITES);
	} else {
		m->reads = l2_misses();
		m->writes = 0;
	}
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
 * plat.flush: empty this tile's Ariane L1D by switching it off and on (CSR
 * 0x701, DCACHE, bit 0: switched on, the L1D invalidates every line).
 * OpenPiton keeps the write-through L1D coherent: the L1.5 forwards the L2
 * directory's invalidations to it.  A model whose L1D misses them (the
 * pinned Ariane under Verilator 5: docs/findings.md) keeps a stale copy for
 * ever, and `fence` does not flush a write-through L1D: the firmware's waits
 * flush to check for that and report it (firmware/wait.c).  Leaving the L1D
 * off is no cure: an SC then never succeeds (seen on the 2x1 model).
 */
static void piton_flush(void)
{
	__asm__ volatile("csrwi 0x701, 0\n\tcsrwi 0x701, 1" ::: "memory");
}

/* Parked harts look at piton_end, with a flush every 256 looks: the run is
 * over (nothing is measured any more), and a copy kept by an L1D that missed
 * the invalidation must not keep them here. */
static __attribute__((noreturn)) void piton_park(void)
{
	uint32_t e;
	for (uint32_t n = 0; !(e = __atomic_load_n(&piton_end, __ATOMIC_ACQUIRE)); n++)
		if ((n & 255) == 255)
			piton_flush();
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
	.flush = piton_flush,
};
