/* ns16550-compatible UART transmit: QEMU virt, hostsim, the JH7110's
 * DesignWare 8250 (reg-shift 2, 32-bit access), OpenPiton's and CVA6's
 * 16550-style UARTs. */
#include "common/uart.h"

#define THR 0
#define LSR 5
#define LSR_THRE 0x20u

static void ns16550_putc(const struct uart *u, char c)
{
	/* bounded wait: a wedged UART must not hang the run forever */
	if (!(u->flags & UART_WRITE_ONLY))
		for (uint32_t i = 0; i < 1000000u && !(uart_rd(u, LSR) & LSR_THRE); i++)
			;
	uart_wr(u, THR, (uint8_t)c);
}

static const char *const compatible[] = { "ns16550a", "ns16550", "snps,dw-apb-uart", 0 };
const struct uart_driver uart_ns16550 = { "ns16550", compatible, ns16550_putc, 0 };
