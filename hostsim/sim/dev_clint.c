/*
 * CLINT (riscv,clint0 at QEMU virt's address): msip[h] at +4h (bit 0),
 * mtimecmp[h] at +0x4000+8h, mtime at +0xbff8 (8-byte or 4-byte halves;
 * writes move mtime).  Its registers are the harts' interrupt and time
 * sources, so they live in struct sim (msip, mtimecmp, mtime_off) where the
 * CSR unit reads them.
 */
#include <libfdt.h>
#include "sim/sim.h"
#include "sim/dev.h"

static int clint_load(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t *v)
{
	(void)st; (void)size;
	if (off < 0x4000) {
		unsigned i = (unsigned)(off / 4);
		*v = (i < s->nharts && (off & 3) == 0) ? s->msip[i] : 0;
	} else if (off >= 0xbff8 && off < 0xc000) {
		*v = sim_mtime(s, h) >> (8 * (off - 0xbff8));
	} else if (off >= 0xbff8) {
		*v = 0;
	} else {
		unsigned i = (unsigned)((off - 0x4000) / 8);
		*v = i < s->nharts ? s->mtimecmp[i] >> (8 * ((off - 0x4000) & 7)) : 0;
	}
	return 0;
}

static int clint_store(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t v)
{
	(void)st;
	if (off < 0x4000) {
		unsigned i = (unsigned)(off / 4);
		if (i < s->nharts && (off & 3) == 0)
			s->msip[i] = (uint32_t)(v & 1);
	} else if (off >= 0xc000) {
		/* reserved: ignored */
	} else if (off >= 0xbff8) {
		uint64_t now = sim_mtime(s, h), nv;
		if (size == 8)
			nv = v;
		else if (off == 0xbff8)
			nv = (now & ~0xffffffffull) | (v & 0xffffffffull);
		else
			nv = (now & 0xffffffffull) | (v << 32);
		s->mtime_off += (int64_t)(nv - now);
	} else {
		unsigned i = (unsigned)((off - 0x4000) / 8);
		unsigned sh = (unsigned)(8 * ((off - 0x4000) & 7));
		if (i < s->nharts) {
			uint64_t mask = (size == 8 ? ~0ull : ((1ull << (8 * size)) - 1)) << sh;
			s->mtimecmp[i] = (s->mtimecmp[i] & ~mask) | ((v << sh) & mask);
		}
	}
	return 0;
}

static int clint_fdt(const struct sim *s, const struct sim_dev *d, void *fdt)
{
	/* "riscv,clint0" first: the firmware's reader keys on it */
	static const char compat[] = "riscv,clint0\0sifive,clint0";
	fdt32_t ie[SIM_MAX_HARTS * 4];
	int e = 0;
	e |= fdt_property(fdt, "compatible", compat, sizeof(compat));
	e |= sim_fdt_reg(fdt, d->base, d->size);
	for (unsigned i = 0; i < s->nharts; i++) {
		ie[4 * i + 0] = cpu_to_fdt32(SIM_INTC_PHANDLE(i));
		ie[4 * i + 1] = cpu_to_fdt32(3); /* machine software interrupt */
		ie[4 * i + 2] = cpu_to_fdt32(SIM_INTC_PHANDLE(i));
		ie[4 * i + 3] = cpu_to_fdt32(7); /* machine timer interrupt */
	}
	e |= fdt_property(fdt, "interrupts-extended", ie, (int)(s->nharts * 4 * sizeof(fdt32_t)));
	return e;
}

const struct sim_dev dev_clint = {
	.name = "clint", .base = 0x2000000, .size = 0x10000,
	.load = clint_load, .store = clint_store, .fdt = clint_fdt,
};

/* --machine openpiton: the same CLINT at OpenPiton's address */
const struct sim_dev dev_clint_piton = {
	.name = "clint", .base = 0xfff1020000ull, .size = 0x10000,
	.load = clint_load, .store = clint_store, .fdt = clint_fdt,
};
