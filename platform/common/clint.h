/* CLINT software interrupts (msip, one 32-bit word per hart at the base):
 * the M-mode platforms' IPI.  Base from the FDT, else the given default. */
#ifndef RVMESS_CLINT_H
#define RVMESS_CLINT_H

#include <stdint.h>

struct fdt_info;

void clint_setup(const struct fdt_info *f, uintptr_t default_base);
void clint_ipi_send(unsigned long hartid);
void clint_ipi_clear(void);

#endif
