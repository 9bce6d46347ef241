# The finisher: 0x7777 (reset) stops the run with hostsim's reset status 3.
# expect-exit: 3
# expect-stderr: requested a reset
#include "test.h"
	.section .text.init
	.globl _start
_start:
	li t0, FINISHER
	li t1, 0x7777
	sw t1, 0(t0)
1:	j 1b
