/*
 * --machine openpiton: OpenPiton + Ariane's devices and end of run.
 *
 * UART at 0xfff0c2c000, by --piton-uart: `fake` (the default) is sims'
 * fake_uart.v: a byte written to offset 0 is printed, writes elsewhere are
 * ignored, every read returns 0xef; but for the memory counter window at
 * +0x800 that tools/rtl-prep.sh memctr adds to the RTL (unless
 * --no-piton-memctr): the rvmess,memctl-counters layout (READS, WRITES,
 * LINE, MAGIC; other registers 0), a byte per read (the RTL's bridge answers
 * one byte, replicated over the lanes), READS and WRITES from a snapshot
 * taken when byte 0 of READS is read.  `16550` is an FPGA board's 16550 at
 * the same address (byte registers, 115200 baud set by the chipset, 16-byte
 * transmit FIFO): a byte written to THR is printed and queued; it takes 10
 * bit times of the writing hart's clock to leave; a byte written while the
 * FIFO holds 16 is dropped (stderr says so once), as on the board an image
 * that does not poll LSR loses bytes.  LSR.THRE reads 1 once the FIFO is
 * empty (at most the byte in the shift register left), TEMT once that one
 * has left too.  No counter window there (the board has no fake memory).
 * L2 counters: per tile t (= hart t), 64-bit registers at 0xA900000000 |
 * t << 24 (control: 0x0C00000000000000 enables, anything else disables),
 * 0xAA.. (accesses) and 0xAB.. (misses), values byte-swapped; disabled they
 * read 0.  hostsim's LLC is one shared cache, not a slice per tile, so tile
 * t counts hart t's LLC accesses and misses (by requester, not by home
 * slice); their sum over the tiles is the same.
 * End of test: a load from 0x8100000000 ends the run with status 0, from
 * 0x8200000000 with status 1 (Metro-MPI); and, as sims watches the pc, the
 * run ends with 0 once every hart is inside the function `pass` and with 1
 * as soon as one is inside `fail` (checked at every scheduler turn).
 * The CLINT is at 0xfff1020000, mtime every 128 core clocks; the DTB in the
 * boot ROM at 0xfff1010000 (a1) says so (timebase clk/128).
 * Ariane's DCACHE CSR 0x701 (bit 0: L1D on, the reset value) reads and
 * writes; switching it on flushes Ariane's L1D.  OpenPiton keeps the L1D
 * coherent, and so does hostsim; with --inject lost-inval each hart's loads
 * read its own copy of the L1D's lines, which misses other harts'
 * invalidations (l1d.h, through wmem.c), as the pinned Ariane does under
 * Verilator 5 (docs/findings.md), and switching CSR 0x701 clears it.  The
 * flushes are counted and printed per hart at a good end.
 */
#include <stdio.h>
#include "sim/sim.h"
#include "sim/dev.h"
#include "sim/memsys.h"
#include "sim/timing.h"
#include "rvmess/memctl.h"

/* ---- UART: fake_uart.v or an FPGA board's 16550 ---- */

#define UART_BAUD 115200u
#define UART_FIFO 16u

struct puart {
	uint8_t ier, lcr, mcr, scr, dll, dlm;
	uint64_t done;      /* the hart clock at which the last byte queued has left */
	uint64_t dropped;
	uint64_t snap_rd, snap_wr; /* fake: the counter window's snapshot */
};

/* core clocks per byte on the line: 10 bits (start, 8 data, stop) */
static uint64_t byte_cycles(const struct sim *s)
{
	return (s->opt.freq_mhz * 1000000ull * 10 + UART_BAUD - 1) / UART_BAUD;
}

#define MEMCTR_WIN 0x800u /* the counter window: [0x800, 0x900) */

static uint64_t memctr_reg(struct sim *s, struct puart *u, uint64_t reg)
{
	switch (reg) {
	case RVM_MEMCTL_READS: return u->snap_rd;
	case RVM_MEMCTL_WRITES: return u->snap_wr;
	case RVM_MEMCTL_LINE: return 64;
	case RVM_MEMCTL_MAGIC: return RVM_MEMCTL_MAGIC_VALUE;
	default: (void)s; return 0;
	}
}

static int fuart_load(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t *v)
{
	struct puart *u = st;
	uint64_t now = h->clock, bt = byte_cycles(s), b;
	(void)size;
	if (s->opt.piton_uart == SIM_UART_FAKE) {
		if (s->opt.no_piton_memctr || off < MEMCTR_WIN || off >= MEMCTR_WIN + 0x100) {
			*v = 0xefefefefefefefefull;
			return 0;
		}
		off -= MEMCTR_WIN;
		if (off == RVM_MEMCTL_READS) {
			u->snap_rd = tm_memctl_read(s, RVM_MEMCTL_READS, 8);
			u->snap_wr = tm_memctl_read(s, RVM_MEMCTL_WRITES, 8);
		}
		b = (memctr_reg(s, u, off & ~7ull) >> (8 * (off & 7))) & 0xff;
		*v = b * 0x0101010101010101ull;
		return 0;
	}
	switch (off & 7) {
	case 0: *v = (u->lcr & 0x80) ? u->dll : 0; break;           /* RBR: nothing received */
	case 1: *v = (u->lcr & 0x80) ? u->dlm : u->ier; break;
	case 2: *v = 0xc1; break;                                   /* IIR: FIFOs on, no interrupt */
	case 3: *v = u->lcr; break;
	case 4: *v = u->mcr; break;
	case 5: *v = (now + bt >= u->done ? 0x20u : 0) | (now >= u->done ? 0x40u : 0); break; /* LSR */
	case 6: *v = 0; break;
	default: *v = u->scr; break;
	}
	return 0;
}

static int fuart_store(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t v)
{
	struct puart *u = st;
	(void)size;
	if (s->opt.piton_uart == SIM_UART_FAKE) {
		if (off == 0)
			sim_console_putc(s, h, (uint8_t)v);
		return 0;
	}
	uint64_t now = h->clock, bt = byte_cycles(s);
	switch (off & 7) {
	case 0:
		if (u->lcr & 0x80) {
			u->dll = (uint8_t)v;
		} else if (u->done > now + UART_FIFO * bt) { /* 16 waiting besides the one leaving */
			if (!u->dropped++)
				fprintf(stderr, "hostsim: openpiton 16550: byte 0x%02x dropped: written while its %u-byte FIFO "
				        "was full (poll LSR before every byte)\n", (unsigned)(v & 0xff), UART_FIFO);
		} else {
			sim_console_putc(s, h, (uint8_t)v);
			u->done = (u->done > now ? u->done : now) + bt;
		}
		break;
	case 1: if (u->lcr & 0x80) u->dlm = (uint8_t)v; else u->ier = (uint8_t)v; break;
	case 3: u->lcr = (uint8_t)v; break;
	case 4: u->mcr = (uint8_t)v; break;
	case 7: u->scr = (uint8_t)v; break;
	default: break;                                             /* FCR, LSR, MSR */
	}
	return 0;
}

static int fuart_fdt(const struct sim *s, const struct sim_dev *d, void *fdt)
{
	(void)s;
	return sim_fdt_uart(fdt, d, "ns16550", 0, 0);
}

const struct sim_dev dev_uart_piton = {
	.name = "uart", .base = 0xfff0c2c000ull, .size = 0x1000, .flags = SIM_DEV_STDOUT,
	.state_size = sizeof(struct puart),
	.load = fuart_load, .store = fuart_store, .fdt = fuart_fdt,
};

/* ---- L2 counters ---- */

#define L2_ENABLE 0x0C00000000000000ull
#define L2_REG_CTL 0u
#define L2_REG_ACCESSES 1u
#define L2_REG_MISSES 2u

struct l2ctr {
	uint8_t on[SIM_MAX_HARTS];
	uint64_t base_acc[SIM_MAX_HARTS], base_miss[SIM_MAX_HARTS];
};

static uint64_t bswap64(uint64_t v)
{
	return __builtin_bswap64(v);
}

/* register and tile of an offset, or -1 */
static int l2_decode(const struct sim *s, uint64_t off, unsigned size, unsigned *reg, unsigned *tile)
{
	*reg = (unsigned)(off >> 32);
	*tile = (unsigned)((off >> 24) & 0xff);
	if (size != 8 || (off & 0xffffff) || *reg > L2_REG_MISSES || *tile >= s->nharts)
		return -1;
	return 0;
}

static int l2_load(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t *v)
{
	struct l2ctr *c = st;
	unsigned reg, t;
	(void)h;
	if (l2_decode(s, off, size, &reg, &t))
		return -1;
	if (reg == L2_REG_CTL)
		*v = c->on[t] ? L2_ENABLE : 0;
	else if (!c->on[t])
		*v = 0;
	else if (reg == L2_REG_ACCESSES)
		*v = bswap64(tm_event(s, t, MEMSYS_EV_LLC_ACCESS) - c->base_acc[t]);
	else
		*v = bswap64(tm_event(s, t, MEMSYS_EV_LLC_MISS) - c->base_miss[t]);
	return 0;
}

static int l2_store(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t v)
{
	struct l2ctr *c = st;
	unsigned reg, t;
	(void)h;
	if (l2_decode(s, off, size, &reg, &t) || reg != L2_REG_CTL)
		return -1;
	c->on[t] = v == L2_ENABLE;
	c->base_acc[t] = tm_event(s, t, MEMSYS_EV_LLC_ACCESS);
	c->base_miss[t] = tm_event(s, t, MEMSYS_EV_LLC_MISS);
	return 0;
}

const struct sim_dev dev_l2ctr_piton = {
	.name = "l2-counters", .base = 0xA900000000ull, .size = 0x300000000ull,
	.state_size = sizeof(struct l2ctr), .load = l2_load, .store = l2_store,
};

/* stderr: how often each hart flushed its L1D (switched CSR 0x701 on) */
static void l1d_flushes(struct sim *s)
{
	fprintf(stderr, "hostsim: openpiton: L1D flushes (CSR 0x701 switched on) per hart:");
	for (unsigned i = 0; i < s->nharts; i++)
		fprintf(stderr, "%s%llu", i ? "," : " ", (unsigned long long)s->harts[i].dcache_flushes);
	fprintf(stderr, "\n");
}

/* ---- Metro-MPI end of test ---- */

#define METRO_GOOD 0x8100000000ull
#define METRO_BAD  0x8200000000ull

static int metro_load(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t *v)
{
	(void)st; (void)size;
	if (off != 0 && off != METRO_BAD - METRO_GOOD)
		return -1;
	*v = 0;
	fflush(s->console);
	fprintf(stderr, "hostsim: openpiton: hart %u loaded 0x%llx: Metro-MPI %s end\n", h->id,
	        (unsigned long long)(METRO_GOOD + off), off ? "bad" : "good");
	s->stop = 1;
	s->exit_code = off ? 1 : 0;
	l1d_flushes(s);
	return 0;
}

static int metro_store(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t v)
{
	(void)s; (void)h; (void)st; (void)off; (void)size; (void)v;
	return -1;
}

const struct sim_dev dev_metro_piton = {
	.name = "metro-end", .base = METRO_GOOD, .size = METRO_BAD - METRO_GOOD + 8,
	.load = metro_load, .store = metro_store,
};

/* ---- pass / fail by pc ---- */

static int symbol_range(const uint8_t *elf, size_t len, const char *name, uint64_t *lo, uint64_t *hi)
{
	uint64_t v, size;
	if (sim_elf_symbol(elf, len, name, &v, &size))
		return -1;
	*lo = v;
	*hi = v + (size ? size : 4);
	return 0;
}

int sim_piton_symbols(struct sim *s, const uint8_t *elf, size_t len, char *err, size_t errlen)
{
	if (symbol_range(elf, len, "pass", &s->msym.pass_lo, &s->msym.pass_hi) ||
	    symbol_range(elf, len, "fail", &s->msym.fail_lo, &s->msym.fail_hi))
		return sim_fail(err, errlen, "--machine openpiton needs the image's functions `pass` and `fail` "
		                "(the end of test): build it with make PLATFORM=openpiton");
	return 0;
}

void sim_piton_poll(struct sim *s)
{
	unsigned at_pass = 0;
	for (unsigned i = 0; i < s->nharts; i++) {
		uint64_t pc = s->harts[i].pc;
		if (pc >= s->msym.fail_lo && pc < s->msym.fail_hi) {
			fflush(s->console);
			fprintf(stderr, "hostsim: openpiton: hart %u reached `fail` (bad trap)\n", i);
			s->stop = 1;
			s->exit_code = 1;
			return;
		}
		at_pass += pc >= s->msym.pass_lo && pc < s->msym.pass_hi;
	}
	if (at_pass == s->nharts) {
		fflush(s->console);
		fprintf(stderr, "hostsim: openpiton: every hart reached `pass` (good trap)\n");
		s->stop = 1;
		s->exit_code = 0;
		l1d_flushes(s);
	}
}
