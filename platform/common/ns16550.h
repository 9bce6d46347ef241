/* ns16550-compatible UART transmit (QEMU virt, JH7110 DW 8250, CVA6 mock UART). */
#ifndef RVMESS_NS16550_H
#define RVMESS_NS16550_H

#include <stdint.h>

struct fdt_info;

struct ns16550 {
	uintptr_t base;
	uint32_t shift;    /* reg-shift */
	uint32_t width;    /* reg-io-width: 1 or 4 */
};

/* From the FDT's console when it names a UART, else `default_base`, byte regs. */
void ns16550_setup(struct ns16550 *u, const struct fdt_info *f, uintptr_t default_base);
void ns16550_putc(const struct ns16550 *u, char c);

#endif
