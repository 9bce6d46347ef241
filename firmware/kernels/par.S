/*
 * void rvm_par_<k>(void **p, uint64_t iters), k = 1..16
 *
 * k interleaved pointer chains held in k registers; one step advances every
 * chain once (k independent loads); an iteration is 100/k steps, so 90..100
 * loads.  All sixteen kernels come from the PARFN macro; rvm_par_kernels is
 * the table of them (index k - 1).  Uses s1..s3 for chains 14..16.
 */
#define REGS t0,t1,t2,t3,t4,t5,t6,a2,a3,a4,a5,a6,a7,s1,s2,s3

/* op each of the first k chain registers: \op \reg, (8 * i)(a0) */
.macro FOREACH k, op
	.set i, 0
	.irp r, REGS
	.if i < \k
	\op	\r, (8 * i)(a0)
	.endif
	.set i, i + 1
	.endr
.endm

/* one step: every chain register r := *r */
.macro STEP k
	.set i, 0
	.irp r, REGS
	.if i < \k
	ld	\r, 0(\r)
	.endif
	.set i, i + 1
	.endr
.endm

.macro PARFN k
	.text
	.balign 64
	.globl rvm_par_\k
rvm_par_\k:
	addi	sp, sp, -32
	sd	s1, 0(sp)
	sd	s2, 8(sp)
	sd	s3, 16(sp)
	FOREACH	\k, ld
1:
	.rept	100 / \k
	STEP	\k
	.endr
	addi	a1, a1, -1
	bnez	a1, 1b
	FOREACH	\k, sd
	ld	s1, 0(sp)
	ld	s2, 8(sp)
	ld	s3, 16(sp)
	addi	sp, sp, 32
	ret
.endm

	.irp	k, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16
	PARFN	\k
	.endr

	.section .rodata
	.balign 8
	.globl rvm_par_kernels
rvm_par_kernels:
	.irp	k, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16
	.dword	rvm_par_\k
	.endr
