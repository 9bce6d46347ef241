# A trap with mtvec == 0 stops the run with status 125 and names hart, pc,
# cause and tval on stderr.
# expect-exit: 125
# expect-stderr: hart 0 trapped with no handler (mtvec=0): pc=0x80000004 cause=0x2 tval=0xffffffff
#include "test.h"
	.section .text.init
	.globl _start
_start:
	nop
	.word 0xffffffff
	PASS
