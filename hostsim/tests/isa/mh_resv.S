# Two harts: a store by another hart to the reserved 64-byte granule makes
# SC fail; a store to a different granule does not; hart 0 wakes hart 1 from
# wfi with a CLINT msip software interrupt.
# args: --harts 2
#include "test.h"
	.section .text.init
	.globl _start
_start:
	la s0, var
	la s1, flag
	li s4, CLINT
	bnez a0, hart1
	# hart 0: wait for flag=1, store into var's granule (another word), flag=2
1:	lw a1, 0(s1)
	li a2, 1
	bne a1, a2, 1b
	sw a2, 8(s0)
	li a2, 2
	sw a2, 0(s1)
	# wait for flag=3, store to another granule, flag=4
2:	lw a1, 0(s1)
	li a2, 3
	bne a1, a2, 2b
	sw a2, 64(s0)
	li a2, 4
	sw a2, 0(s1)
	# wait for flag=5 (hart 1 in wfi), send msip to hart 1
3:	lw a1, 0(s1)
	li a2, 5
	bne a1, a2, 3b
	li a2, 1
	sw a2, 4(s4)               # msip[1]
4:	lw a1, 0(s1)
	li a2, 6
	bne a1, a2, 4b
	lw a1, 0(s1)
	PASS

hart1:
	lr.d a3, (s0)
	li a2, 1
	sw a2, 0(s1)               # flag = 1 (flag is in another granule)
5:	lw a1, 0(s1)
	li a2, 2
	bne a1, a2, 5b
	sc.d a4, a3, (s0)
	EXPECT 1, a4, 1            # lost the reservation
	lr.d a3, (s0)
	li a2, 3
	sw a2, 0(s1)
6:	lw a1, 0(s1)
	li a2, 4
	bne a1, a2, 6b
	sc.d a4, a3, (s0)
	EXPECT 2, a4, 0            # store to another granule: kept
	la t0, h1
	csrw mtvec, t0
	csrwi mie, 8
	li s9, 0
	li a2, 5
	sw a2, 0(s1)
	csrsi mstatus, 8
7:	wfi
	beqz s9, 7b
	EXPECT 3, s9, 0x8000000000000003
	li a2, 6
	sw a2, 0(s1)
8:	j 8b
	.align 2
h1:	csrr s9, mcause
	sw zero, 4(s4)
	mret

	.data
	.align 6
var:	.zero 128
	.align 6
flag:	.word 0
