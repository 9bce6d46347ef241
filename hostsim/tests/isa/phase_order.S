# The set-up phase hint keeps the scheduler's time order: hart 1 runs untimed
# (memctl PHASE = 1) and stores its mcycle to a shared word again and again;
# hart 0, timed, reads the word and then its own mcycle.  An untimed hart's
# turn ends at the next-smallest clock + 16 cycles like a timed one's, so
# what hart 0 reads was written no later than its own clock plus that slack
# (64 allowed); an untimed turn that ran its whole 4096-instruction chunk
# would show a stamp thousands of cycles in hart 0's future.
# args: --harts 2 --mem-model fixed
# modes: timing
#include "test.h"
#define MEMCTL 0x10010000
	.section .text.init
	.globl _start
_start:
	la s1, shared
	bnez a0, hart1
	li a2, 2000
1:	ld a3, 0(s1)
	rdcycle a4
	addi a4, a4, 64
	bleu a3, a4, 2f
	FAIL 4
2:	addi a2, a2, -1
	bnez a2, 1b
	ld a3, 0(s1)
	bnez a3, 3f
	FAIL 5                     # hart 1 never ran
3:	PASS
hart1:
	li s0, MEMCTL
	li a1, 1
	sd a1, 0x40(s0)
4:	rdcycle a3
	sd a3, 0(s1)
	j 4b
	.data
	.align 6
shared:	.dword 0
