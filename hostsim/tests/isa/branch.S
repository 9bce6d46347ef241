# Branches (taken / not taken, signed / unsigned), jal, jalr (low bit
# cleared, rd == rs1), misaligned jump target traps (cause 0), and jumps
# to the last entry of a page, to the next page's first and back across the
# boundary (the core's decode gives a jump whose target is aligned and on
# its own page a "near" op: cpu.c decode_at).
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
18:	li a2, 0
	la t1, 50f
	jr t1
	.balign 4096
	.skip 4096 - 16
	# page offsets 4080 .. 4092, then the next page's 0 .. 16
50:	addi a2, a2, 1             # 4080: a2 = 1
	beq a2, a2, 51f            # 4084: near, to the page's last entry
52:	j 53f                      # 4088: to the next page's first entry
51:	j 54f                      # 4092: to the next page's third
53:	addi a2, a2, 100           # next page, 0: a2 = 111
	j 55f                      # 4: near
54:	addi a2, a2, 10            # 8: a2 = 11
	j 52b                      # 12: back to the previous page
55:	nop                        # 16
	EXPECT 19, a2, 111
	# misaligned branch and jal targets (taken): cause 0 on the jump,
	# mepc = the jump, mtval = the target
	li s9, -1
55:	beq zero, zero, 57f + 2    # the handler skips it
	EXPECT 20, s9, 0
	la t2, 55b
	EXPECTR 21, s10, t2
	la t2, 57f
	addi t2, t2, 2
	EXPECTR 22, s11, t2
	li s9, -1
56:	jal zero, 57f + 2
	EXPECT 23, s9, 0
	la t2, 56b
	EXPECTR 24, s10, t2
	j 58f
57:	FAIL 25
	FAIL 26
58:	PASS
	SKIP_HANDLER
