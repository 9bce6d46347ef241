# An image written for S-mode (an OpenSBI payload touches its supervisor CSRs
# first) traps with no M-mode handler: hostsim stops with 125, names the trap
# and says that it runs M-mode images and which image to use.
# expect-exit: 125
# expect-stderr: S-mode image (it used supervisor CSR 0x105), such as build/images/sbi.elf, an OpenSBI payload: hostsim runs M-mode images with no firmware below them; use build/images/virt.elf
#include "test.h"
	.section .text.init
	.globl _start
_start:
	la t0, 1f
	csrw stvec, t0             # illegal in hostsim (no S-mode)
1:	PASS
