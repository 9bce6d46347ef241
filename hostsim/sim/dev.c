/*
 * The device table and the bus (see dev.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libfdt.h>
#include "sim/sim.h"
#include "sim/dev.h"

/* One row per device, in /soc order. */
#define SIM_DEVICES(X) X(uart) X(clint) X(test) X(memctl)

#define DECLARE(n) extern const struct sim_dev dev_##n;
SIM_DEVICES(DECLARE)
#undef DECLARE
#define ROW(n) &dev_##n,
const struct sim_dev *const sim_devs[] = { SIM_DEVICES(ROW) };
#undef ROW
const unsigned sim_ndevs = sizeof(sim_devs) / sizeof(sim_devs[0]);
_Static_assert(sizeof(sim_devs) / sizeof(sim_devs[0]) <= SIM_MAX_DEVS, "raise SIM_MAX_DEVS");

const struct sim_dev *sim_dev_find(const char *name)
{
	for (unsigned i = 0; i < sim_ndevs; i++)
		if (!strcmp(sim_devs[i]->name, name))
			return sim_devs[i];
	return NULL;
}

int sim_devs_init(struct sim *s)
{
	for (unsigned i = 0; i < sim_ndevs; i++) {
		if (!sim_devs[i]->state_size)
			continue;
		s->dev_state[i] = calloc(1, sim_devs[i]->state_size);
		if (!s->dev_state[i])
			return -1;
	}
	return 0;
}

void sim_devs_free(struct sim *s)
{
	for (unsigned i = 0; i < SIM_MAX_DEVS; i++) {
		free(s->dev_state[i]);
		s->dev_state[i] = NULL;
	}
}

/* The row holding a, or -1. */
static int dev_at(uint64_t a)
{
	for (unsigned i = 0; i < sim_ndevs; i++)
		if (a - sim_devs[i]->base < sim_devs[i]->size)
			return (int)i;
	return -1;
}

int sim_dev_load(struct sim *s, struct sim_hart *h, uint64_t a, unsigned size, uint64_t *v)
{
	int i = dev_at(a);
	uint64_t x = 0;
	if (i < 0 || (a & (size - 1)))
		return -1;
	const struct sim_dev *d = sim_devs[i];
	if (d->load(s, h, s->dev_state[i], a - d->base, size, &x))
		return -1;
	if (size < 8)
		x &= (1ull << (8 * size)) - 1;
	*v = x;
	return 0;
}

int sim_dev_store(struct sim *s, struct sim_hart *h, uint64_t a, unsigned size, uint64_t v)
{
	int i = dev_at(a);
	if (i < 0 || (a & (size - 1)))
		return -1;
	const struct sim_dev *d = sim_devs[i];
	return d->store(s, h, s->dev_state[i], a - d->base, size, v);
}

int sim_fdt_reg(void *fdt, uint64_t base, uint64_t size)
{
	fdt64_t r[2] = { cpu_to_fdt64(base), cpu_to_fdt64(size) };
	return fdt_property(fdt, "reg", r, sizeof(r));
}

int sim_devs_fdt(const struct sim *s, void *fdt)
{
	int e = 0;
	char name[64];
	for (unsigned i = 0; i < sim_ndevs; i++) {
		const struct sim_dev *d = sim_devs[i];
		if (!d->fdt)
			continue;
		snprintf(name, sizeof(name), "%s@%llx", d->name, (unsigned long long)d->base);
		e |= fdt_begin_node(fdt, name);
		e |= d->fdt(s, d, fdt);
		e |= fdt_end_node(fdt);
	}
	return e;
}
