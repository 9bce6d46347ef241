# The finisher: 0x3333 with code 0 is still a failure: exit status 1.
# expect-exit: 1
#include "test.h"
	.section .text.init
	.globl _start
_start:
	li t0, FINISHER
	li t1, 0x3333
	sw t1, 0(t0)
1:	j 1b
