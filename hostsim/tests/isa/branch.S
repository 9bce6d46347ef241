# Branches (taken / not taken, signed / unsigned), jal, jalr (low bit
# cleared, rd == rs1), misaligned jump target traps (cause 0).
#include "test.h"
	.section .text.init
	.globl _start
_start:
	la t0, skip_handler
	csrw mtvec, t0
	li a0, -1
	li a1, 1
	blt a0, a1, 1f
	FAIL 1
1:	bltu a0, a1, 2f
	j 3f
2:	FAIL 2
3:	bge a1, a0, 4f
	FAIL 3
4:	bgeu a0, a1, 5f
	FAIL 4
5:	beq a0, a0, 6f
	FAIL 5
6:	bne a0, a0, 7f
	j 8f
7:	FAIL 6
8:	bge a0, a0, 9f
	FAIL 7
9:	# equal operands: bgeu taken, bltu and blt not
	bgeu a1, a1, 22f
	FAIL 17
22:	bltu a1, a1, 23f
	blt a1, a1, 23f
	j 24f
23:	FAIL 18
24:	li a2, 0
	# backward branch loop: 10 iterations
	li a3, 10
10:	addi a2, a2, 1
	bne a2, a3, 10b
	EXPECT 8, a2, 10
	# jal links pc+4
	jal ra, 11f
12:	j 13f
11:	la t1, 12b
	EXPECTR 9, ra, t1
	ret
13:	# jalr clears bit 0 of the target; rd == rs1 gets the link
	la t1, 14f
	addi t1, t1, 1
21:	jalr t1, 0(t1)
	FAIL 10
14:	la t2, 21b
	addi t2, t2, 4
	EXPECTR 16, t1, t2
	# jalr with offset
	la t1, 15f
	jalr ra, 8(t1)
15:	j 19f
	j 19f
	j 20f
19:	FAIL 11
20:	# misaligned jump target: cause 0 on the jump, mepc = the jump
	li s9, -1
	la t1, 16f
	addi t1, t1, 2
17:	jalr zero, 0(t1)           # the handler skips it
	EXPECT 12, s9, 0
	la t2, 17b
	EXPECTR 13, s10, t2
	EXPECTR 14, s11, t1
	j 18f
16:	FAIL 15
18:	PASS
	SKIP_HANDLER
