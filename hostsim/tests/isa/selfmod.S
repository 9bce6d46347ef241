# Self-modifying code: a store over an already executed instruction takes
# effect (the decode cache entry is dropped), with and without fence.i.
#include "test.h"
	.section .text.init
	.globl _start
_start:
	li s0, 0
	jal ra, patch
	EXPECT 1, a0, 1
	la t0, patch
	lw t1, new_insn
	sw t1, 0(t0)
	fence.i
	jal ra, patch
	EXPECT 2, a0, 2
	PASS
patch:	li a0, 1
	ret
	.data
new_insn:
	li a0, 2
