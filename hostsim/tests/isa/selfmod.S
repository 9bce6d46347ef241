# Self-modifying code: a store over an already executed instruction takes
# effect (the decode cache entry is dropped), with and without fence.i;
# also when the patched instruction directly follows the store (reached by
# the executor's sequential step, not a jump), and straight-line code runs
# on across a 4 KiB page of decoded instructions into the next.
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

	/* pass 1 decodes nextp (li a1, 5); pass 2 patches it to li a1, 7
	 * with the store right before it */
	li s1, 0
	la t0, nextp
	lw t2, new_insn2
again:	beqz s1, nextp
	sw t2, 0(t0)
nextp:	li a1, 5
	addi s1, s1, 1
	li t3, 2
	blt s1, t3, again
	EXPECT 3, a1, 7

	/* the last two words of a page, then the first of the next */
	j cross
	.balign 4096
	.space 4096 - 8
cross:	li a2, 3
	addi a2, a2, 1
	addi a2, a2, 2
	EXPECT 4, a2, 6
	PASS
patch:	li a0, 1
	ret
	.data
new_insn:
	li a0, 2
new_insn2:
	li a1, 7
