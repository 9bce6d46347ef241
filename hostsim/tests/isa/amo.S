# A extension on one hart: every AMO in .w and .d forms (rd gets the old
# value, sign-extended for .w), LR/SC success and failure, reservation lost
# by a trap and by SC, misaligned AMO/SC traps with cause 6, LR with cause 4.
#include "test.h"
	.section .text.init
	.globl _start
_start:
	la t0, skip_handler
	csrw mtvec, t0
	la s0, buf
	# .w: memory word 0x80000001 (negative as a word)
	li a0, 0x80000001
	sw a0, 0(s0)
	li a1, 2
	amoadd.w a2, a1, (s0)
	EXPECT 1, a2, 0xffffffff80000001
	lwu a3, 0(s0)
	EXPECT 2, a3, 0x80000003
	li a1, 0x0000ffff
	amoand.w a2, a1, (s0)
	lwu a3, 0(s0)
	EXPECT 3, a3, 0x3
	li a1, 0x10
	amoor.w a2, a1, (s0)
	lwu a3, 0(s0)
	EXPECT 4, a3, 0x13
	li a1, 0x11
	amoxor.w a2, a1, (s0)
	lwu a3, 0(s0)
	EXPECT 5, a3, 0x2
	li a1, -5
	amomin.w a2, a1, (s0)
	lw a3, 0(s0)
	EXPECT 6, a3, -5
	li a1, 3
	amomax.w a2, a1, (s0)
	lw a3, 0(s0)
	EXPECT 7, a3, 3
	li a1, -1                  # unsigned: 0xffffffff is the largest
	amominu.w a2, a1, (s0)
	lw a3, 0(s0)
	EXPECT 8, a3, 3
	amomaxu.w a2, a1, (s0)
	lw a3, 0(s0)
	EXPECT 9, a3, -1
	li a1, 0x12345678
	amoswap.w a2, a1, (s0)
	EXPECT 10, a2, -1
	lw a3, 0(s0)
	EXPECT 11, a3, 0x12345678
	lw a3, 4(s0)               # the neighbouring word is untouched
	EXPECT 12, a3, 0
	# .d
	li a0, 0x8000000000000000
	sd a0, 8(s0)
	addi s1, s0, 8
	li a1, 1
	amoadd.d a2, a1, (s1)
	EXPECT 13, a2, 0x8000000000000000
	ld a3, 0(s1)
	EXPECT 14, a3, 0x8000000000000001
	li a1, 0
	amomin.d a2, a1, (s1)
	ld a3, 0(s1)
	EXPECT 15, a3, 0x8000000000000001
	amominu.d a2, a1, (s1)
	ld a3, 0(s1)
	EXPECT 16, a3, 0
	li a1, -2
	amomax.d a2, a1, (s1)
	ld a3, 0(s1)
	EXPECT 17, a3, 0
	amomaxu.d a2, a1, (s1)
	ld a3, 0(s1)
	EXPECT 18, a3, -2
	li a1, 0xff
	amoand.d a2, a1, (s1)
	ld a3, 0(s1)
	EXPECT 19, a3, 0xfe
	li a1, 0x100
	amoor.d a2, a1, (s1)
	ld a3, 0(s1)
	EXPECT 20, a3, 0x1fe
	li a1, 0x1ff
	amoxor.d a2, a1, (s1)
	ld a3, 0(s1)
	EXPECT 21, a3, 1
	li a1, 77
	amoswap.d.aqrl a2, a1, (s1)
	EXPECT 22, a2, 1
	ld a3, 0(s1)
	EXPECT 23, a3, 77
	amoadd.d zero, a1, (s1)    # rd = x0: the store still happens
	ld a3, 0(s1)
	EXPECT 24, a3, 154
	# LR/SC
	lr.d a2, (s1)
	EXPECT 25, a2, 154
	addi a2, a2, 1
	sc.d a4, a2, (s1)
	EXPECT 26, a4, 0
	ld a3, 0(s1)
	EXPECT 27, a3, 155
	sc.d a4, a2, (s1)          # reservation consumed by the first SC
	EXPECT 28, a4, 1
	lr.w a2, (s0)
	EXPECT 29, a2, 0x12345678
	sc.w a4, zero, (s0)
	EXPECT 30, a4, 0
	lw a3, 0(s0)
	EXPECT 31, a3, 0
	# a trap clears the reservation
	lr.d a2, (s1)
	ecall
	sc.d a4, a2, (s1)
	EXPECT 32, a4, 1
	# SC to another granule fails
	lr.d a2, (s1)
	addi s2, s0, 128
	sc.d a4, a2, (s2)
	EXPECT 33, a4, 1
	ld a3, 0(s2)
	EXPECT 34, a3, 0
	# misaligned: AMO and SC trap with cause 6, LR with cause 4; memory unchanged
	li s9, 0
	addi s2, s0, 4
	amoadd.d a2, a1, (s2)
	EXPECT 35, s9, 6
	EXPECTR 36, s11, s2
	li s9, 0
	addi s2, s0, 2
	amoswap.w a2, a1, (s2)
	EXPECT 37, s9, 6
	li s9, 0
	lr.w a2, (s2)
	EXPECT 38, s9, 4
	li s9, 0
	sc.w a2, a1, (s2)
	EXPECT 39, s9, 6
	lw a3, 0(s0)
	EXPECT 40, a3, 0
	# AMO to a device address: store access fault
	li s9, 0
	li s2, 0x40000000
	amoadd.w a2, a1, (s2)
	EXPECT 41, s9, 7
	PASS
	SKIP_HANDLER
	.data
	.align 6
buf:	.zero 256
