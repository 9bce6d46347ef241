/*
 * The sifive,test0 finisher (QEMU virt): a write to +0 of 0x5555 ends the run
 * with status 0, (code<<16)|0x3333 with `code` (1 when 0), 0x7777 asks for a
 * reset (hostsim stops with SIM_EXIT_RESET); other values are ignored.
 * Reads 0.
 */
#include <stdio.h>
#include <libfdt.h>
#include "sim/sim.h"
#include "sim/dev.h"

static int test_load(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t *v)
{
	(void)s; (void)h; (void)st; (void)off; (void)size;
	*v = 0;
	return 0;
}

static int test_store(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t v)
{
	(void)h; (void)st; (void)size;
	if (off != 0)
		return 0;
	switch (v & 0xffff) {
	case 0x5555:
		s->stop = 1;
		s->exit_code = 0;
		break;
	case 0x3333: {
		unsigned code = (unsigned)(v >> 16) & 0xff;
		s->stop = 1;
		s->exit_code = code ? (int)code : 1;
		break;
	}
	case 0x7777:
		fprintf(stderr, "hostsim: the image requested a reset (0x7777 to the test finisher): stopping\n");
		s->stop = 1;
		s->exit_code = SIM_EXIT_RESET;
		break;
	default:
		break;
	}
	return 0;
}

static int test_fdt(const struct sim *s, const struct sim_dev *d, void *fdt)
{
	static const char compat[] = "sifive,test1\0sifive,test0\0syscon";
	int e = 0;
	(void)s;
	e |= fdt_property(fdt, "compatible", compat, sizeof(compat));
	e |= sim_fdt_reg(fdt, d->base, d->size);
	return e;
}

const struct sim_dev dev_test = {
	.name = "test", .base = 0x100000, .size = 0x1000,
	.load = test_load, .store = test_store, .fdt = test_fdt,
};
