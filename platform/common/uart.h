/*
 * Console UARTs.  Each driver owns its compatible strings and its register
 * layout, as OpenSBI's and Spike's do; the FDT reader only finds nodes.
 * Adding a driver: its file (a `const struct uart_driver`) and one line in
 * uart.c's table.
 */
#ifndef RVMESS_UART_H
#define RVMESS_UART_H

#include <stdint.h>

struct fdt_info;
struct uart;

/* UART_WRITE_ONLY: never read the UART (no status polling), for targets
 * whose UART cannot be read; each byte is written straight away. */
#define UART_WRITE_ONLY 1u

struct uart_driver {
	const char *name;
	const char *const *compatible;                 /* NULL-terminated */
	void (*putc)(const struct uart *u, char c);
	/* Optional: make the UART able to transmit (NULL: nothing to do). */
	void (*init)(const struct uart *u);
};

struct uart {
	const struct uart_driver *drv;   /* NULL: no console */
	uintptr_t base;
	uint32_t  shift;                 /* register i at base + (i << shift) */
	uint32_t  width;                 /* access width in bytes: 1 or 4 */
	uint32_t  flags;                 /* UART_* */
};

/* The drivers (platform/common/ns16550.c, sifive_uart.c). */
extern const struct uart_driver uart_ns16550, uart_sifive;

/*
 * The console: the FDT's stdout-path node when a driver takes its
 * compatible, else the first enabled node in document order that a driver
 * takes, else `dflt` (base, driver, layout).  `dflt->flags` always apply
 * (a platform knows when its UART cannot be read).  Returns 0 when the FDT
 * gave the UART, 1 for the default.
 */
int uart_setup(struct uart *u, const struct fdt_info *f, const struct uart *dflt);
void uart_putc(const struct uart *u, char c);
/* Make the chosen UART transmit (the driver's init, if any), once, on the
 * lead, before the first uart_putc. */
void uart_init(const struct uart *u);

/* Register access for the drivers (reg-shift, reg-io-width). */
static inline uint32_t uart_rd(const struct uart *u, unsigned reg)
{
	uintptr_t a = u->base + ((uintptr_t)reg << u->shift);
	if (u->width == 4)
		return *(volatile uint32_t *)a;
	return *(volatile uint8_t *)a;
}

static inline void uart_wr(const struct uart *u, unsigned reg, uint32_t v)
{
	uintptr_t a = u->base + ((uintptr_t)reg << u->shift);
	if (u->width == 4)
		*(volatile uint32_t *)a = v;
	else
		*(volatile uint8_t *)a = (uint8_t)v;
}

#endif
