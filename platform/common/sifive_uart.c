/* SiFive UART transmit (FU540/FU740, QEMU sifive_u): txdata at +0, bit 31
 * reads 1 while the FIFO is full.  The boot loader has enabled the
 * transmitter (txctrl.txen); it is not reprogrammed. */
#include "common/uart.h"

#define TXDATA 0
#define TXDATA_FULL 0x80000000u

static void sifive_putc(const struct uart *u, char c)
{
	struct uart w = *u;

	w.width = 4; /* 32-bit registers whatever the FDT says */
	if (!(u->flags & UART_WRITE_ONLY))
		for (uint32_t i = 0; i < 1000000u && (uart_rd(&w, TXDATA) & TXDATA_FULL); i++)
			;
	uart_wr(&w, TXDATA, (uint8_t)c);
}

static const char *const compatible[] = { "sifive,uart0", 0 };
const struct uart_driver uart_sifive = { "sifive", compatible, sifive_putc };
