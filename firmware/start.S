/*
 * _start: every hart (M-mode boot) or each hart started by SBI HSM (S-mode)
 * enters here with a0 = hartid, a1 = FDT (or the HSM opaque, also the FDT).
 * Each hart gets its own stack, indexed by hartid, from .stacks (not .bss:
 * the lead clears .bss while the others already run).  tp holds the hartid.
 * A hart with hartid >= RVM_MAX_HARTS parks without output.
 */
#define START_MAX_HARTS 64	/* RVM_MAX_HARTS, checked in firmware/boot.c */
#define START_STACK_SHIFT 14	/* 16 KiB stacks, RVM_STACK_SIZE in linker/sections.ld */

	.section .text.start, "ax"
	.globl _start
_start:
	li	t0, START_MAX_HARTS
	bgeu	a0, t0, 2f
	mv	tp, a0
	la	sp, __stacks_start
	addi	t1, a0, 1
	slli	t1, t1, START_STACK_SHIFT
	add	sp, sp, t1
	call	rvm_entry
2:
	wfi
	j	2b
