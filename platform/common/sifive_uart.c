/* SiFive UART transmit (FU540/FU740, QEMU sifive_u): txdata at +0, bit 31
 * reads 1 while the FIFO is full; txctrl at +8, bit 0 (txen) enables the
 * transmitter.  A boot loader (U-Boot, OpenSBI) normally sets txen; an
 * M-mode image booted without one (QEMU -bios none, a bare board) sets it
 * itself, keeping the other txctrl fields (stop bits, watermark). */
#include "common/uart.h"

#define TXDATA 0
#define TXDATA_FULL 0x80000000u
#define TXCTRL 2 /* +8: registers are 32-bit words */
#define TXCTRL_TXEN 1u

static struct uart word_access(const struct uart *u)
{
	struct uart w = *u;

	w.width = 4; /* 32-bit registers whatever the FDT says */
	w.shift = 2;
	return w;
}

static void sifive_putc(const struct uart *u, char c)
{
	struct uart w = word_access(u);

	if (!(u->flags & UART_WRITE_ONLY))
		for (uint32_t i = 0; i < 1000000u && (uart_rd(&w, TXDATA) & TXDATA_FULL); i++)
			;
	uart_wr(&w, TXDATA, (uint8_t)c);
}

static void sifive_init(const struct uart *u)
{
	struct uart w = word_access(u);

	uart_wr(&w, TXCTRL, uart_rd(&w, TXCTRL) | TXCTRL_TXEN);
}

static const char *const compatible[] = { "sifive,uart0", 0 };
const struct uart_driver uart_sifive = { "sifive", compatible, sifive_putc, sifive_init };
