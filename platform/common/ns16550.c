#include "common/ns16550.h"
#include "rvmess/fdt.h"

#define THR 0
#define LSR 5
#define LSR_THRE 0x20u

void ns16550_setup(struct ns16550 *u, const struct fdt_info *f, uintptr_t default_base)
{
	u->base = default_base;
	u->shift = 0;
	u->width = 1;
	if (f && f->uart_base) {
		u->base = (uintptr_t)f->uart_base;
		u->shift = f->uart_reg_shift;
		u->width = f->uart_reg_io_width == 4 ? 4 : 1;
	}
}

static uint32_t rd(const struct ns16550 *u, unsigned reg)
{
	uintptr_t a = u->base + ((uintptr_t)reg << u->shift);
	if (u->width == 4)
		return *(volatile uint32_t *)a;
	return *(volatile uint8_t *)a;
}

static void wr(const struct ns16550 *u, unsigned reg, uint32_t v)
{
	uintptr_t a = u->base + ((uintptr_t)reg << u->shift);
	if (u->width == 4)
		*(volatile uint32_t *)a = v;
	else
		*(volatile uint8_t *)a = (uint8_t)v;
}

void ns16550_putc(const struct ns16550 *u, char c)
{
	/* bounded wait: a wedged UART must not hang the run forever */
	for (uint32_t i = 0; i < 1000000u && !(rd(u, LSR) & LSR_THRE); i++)
		;
	wr(u, THR, (uint8_t)c);
}
