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

/* The devices of s's machine profile (profiles.h): sim_devs for virt. */
static const struct sim_dev *const *table(const struct sim *s, unsigned *n)
{
	const struct sim_machine *m = sim_mach(s);
	*n = *m->ndevs;
	return m->devs;
}

int sim_devs_init(struct sim *s)
{
	unsigned n;
	const struct sim_dev *const *devs = table(s, &n);
	for (unsigned i = 0; i < n; i++) {
		if (!devs[i]->state_size)
			continue;
		s->dev_state[i] = calloc(1, devs[i]->state_size);
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

/* The row of s's table holding a, or -1. */
static int dev_at(const struct sim *s, uint64_t a)
{
	unsigned n;
	const struct sim_dev *const *devs = table(s, &n);
	for (unsigned i = 0; i < n; i++)
		if (a - devs[i]->base < devs[i]->size)
			return (int)i;
	return -1;
}

int sim_dev_load(struct sim *s, struct sim_hart *h, uint64_t a, unsigned size, uint64_t *v)
{
	int i = dev_at(s, a);
	uint64_t x = 0;
	if (i < 0 || (a & (size - 1)))
		return -1;
	const struct sim_dev *d = sim_mach(s)->devs[i];
	if (d->load(s, h, s->dev_state[i], a - d->base, size, &x))
		return -1;
	if (size < 8)
		x &= (1ull << (8 * size)) - 1;
	*v = x;
	s->dev_loads[i]++;
	s->dev_load_bytes[i] += size;
	return 0;
}

int sim_dev_store(struct sim *s, struct sim_hart *h, uint64_t a, unsigned size, uint64_t v)
{
	int i = dev_at(s, a);
	if (i < 0 || (a & (size - 1)))
		return -1;
	const struct sim_dev *d = sim_mach(s)->devs[i];
	if (d->store(s, h, s->dev_state[i], a - d->base, size, v))
		return -1;
	s->dev_stores[i]++;
	return 0;
}

void sim_dev_print_stats(const struct sim *s, FILE *f)
{
	unsigned n;
	const struct sim_dev *const *devs = table(s, &n);
	for (unsigned i = 0; i < n; i++)
		if (s->dev_loads[i] || s->dev_stores[i])
			fprintf(f, "  device %s: loads=%llu load_bytes=%llu stores=%llu\n", devs[i]->name,
			        (unsigned long long)s->dev_loads[i], (unsigned long long)s->dev_load_bytes[i],
			        (unsigned long long)s->dev_stores[i]);
}

int sim_fdt_reg(void *fdt, uint64_t base, uint64_t size)
{
	fdt64_t r[2] = { cpu_to_fdt64(base), cpu_to_fdt64(size) };
	return fdt_property(fdt, "reg", r, sizeof(r));
}

int sim_fdt_uart(void *fdt, const struct sim_dev *d, const char *compat, unsigned reg_shift, unsigned io_width)
{
	int e = 0;
	e |= fdt_property_string(fdt, "compatible", compat);
	e |= sim_fdt_reg(fdt, d->base, d->size);
	e |= fdt_property_u32(fdt, "clock-frequency", 50000000u);
	e |= fdt_property_u32(fdt, "current-speed", 115200u);
	e |= fdt_property_u32(fdt, "reg-shift", reg_shift);
	if (io_width)
		e |= fdt_property_u32(fdt, "reg-io-width", io_width);
	return e;
}

int sim_devs_fdt(const struct sim *s, void *fdt)
{
	int e = 0;
	char name[64];
	unsigned n;
	const struct sim_dev *const *devs = table(s, &n);
	for (unsigned i = 0; i < n; i++) {
		const struct sim_dev *d = devs[i];
		if (!d->fdt)
			continue;
		snprintf(name, sizeof(name), "%s@%llx", d->name, (unsigned long long)d->base);
		e |= fdt_begin_node(fdt, name);
		e |= d->fdt(s, d, fdt);
		e |= fdt_end_node(fdt);
	}
	return e;
}

void *sim_dev_state(struct sim *s, const struct sim_dev *d)
{
	unsigned n;
	const struct sim_dev *const *devs = table(s, &n);
	for (unsigned i = 0; i < n; i++)
		if (devs[i] == d)
			return s->dev_state[i];
	return NULL;
}
