/* The console UART: the driver table and choosing a UART from the FDT. */
#include "common/uart.h"
#include "rvmess/fdt.h"

/* One line per driver; the first one whose compatible matches wins. */
static const struct uart_driver *const drivers[] = {
	&uart_ns16550,
	&uart_sifive,
};
#define NDRIVERS (sizeof drivers / sizeof drivers[0])
#define MAX_COMPAT 16 /* all drivers' compatible strings together */

static const struct uart_driver *driver_for(const struct fdt_node *n)
{
	for (unsigned i = 0; i < NDRIVERS; i++)
		for (const char *const *c = drivers[i]->compatible; *c; c++)
			if (fdt_node_compatible(n, *c))
				return drivers[i];
	return 0;
}

static int from_node(struct uart *u, const struct fdt_node *n, uint32_t flags)
{
	const struct uart_driver *d = driver_for(n);

	if (!d || !n->base)
		return 0;
	u->drv = d;
	u->base = (uintptr_t)n->base;
	u->shift = n->reg_shift < 8 ? n->reg_shift : 0;
	u->width = n->reg_io_width == 4 ? 4 : 1;
	u->flags = flags;
	return 1;
}

int uart_setup(struct uart *u, const struct fdt_info *f, const struct uart *dflt)
{
	const char *all[MAX_COMPAT + 1];
	struct fdt_node n;
	unsigned k = 0;

	if (f && from_node(u, &f->console, dflt->flags))
		return 0;
	for (unsigned i = 0; i < NDRIVERS; i++)
		for (const char *const *c = drivers[i]->compatible; *c && k < MAX_COMPAT; c++)
			all[k++] = *c;
	all[k] = 0;
	if (f && fdt_find_compatible(f, all, &n) && from_node(u, &n, dflt->flags))
		return 0;
	*u = *dflt;
	return 1;
}

void uart_init(const struct uart *u)
{
	if (u->drv && u->drv->init)
		u->drv->init(u);
}

void uart_putc(const struct uart *u, char c)
{
	if (u->drv)
		u->drv->putc(u, c);
}
