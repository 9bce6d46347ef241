# 8 harts x 10000 amoadd.w on one counter and 8 x 2000 LR/SC increments on
# another: the totals must be exact.
# args: --harts 8
#include "test.h"
#define N_AMO 10000
#define N_LRSC 2000
#define HARTS 8
	.section .text.init
	.globl _start
_start:
	la s0, counter
	la s1, counter2
	la s2, done
	li a1, N_AMO
	li a2, 1
1:	amoadd.w zero, a2, (s0)
	addi a1, a1, -1
	bnez a1, 1b
	li a1, N_LRSC
2:	lr.d a3, (s1)
	addi a3, a3, 1
	sc.d a4, a3, (s1)
	bnez a4, 2b
	addi a1, a1, -1
	bnez a1, 2b
	amoadd.w zero, a2, (s2)
	bnez a0, park
	li a5, HARTS
3:	lw a3, 0(s2)
	bne a3, a5, 3b
	lw a3, 0(s0)
	EXPECT 1, a3, HARTS * N_AMO
	ld a3, 0(s1)
	EXPECT 2, a3, HARTS * N_LRSC
	PASS
park:	j park
	.data
	.align 6
counter:	.word 0
	.align 6
counter2:	.dword 0
	.align 6
done:	.word 0
