/*
 * void *rvm_chase(void *p, uint64_t iters)
 * iters * RVM_CHASE_UNROLL (100) dependent loads: p = *p.  iters >= 1.
 */
	.text
	.balign 64
	.globl rvm_chase
rvm_chase:
1:
	.rept 100
	ld	a0, 0(a0)
	.endr
	addi	a1, a1, -1
	bnez	a1, 1b
	ret
