# The finisher: (42 << 16) | 0x3333 ends the run with exit status 42.
# expect-exit: 42
#include "test.h"
	.section .text.init
	.globl _start
_start:
	li t0, FINISHER
	li t1, (42 << 16) | 0x3333
	sw t1, 0(t0)
1:	j 1b
