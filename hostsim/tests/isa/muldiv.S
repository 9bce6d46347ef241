# RV64M: mul/mulh/mulhsu/mulhu, div/divu/rem/remu and W forms including
# division by zero and signed overflow.
#include "test.h"
	.section .text.init
	.globl _start
_start:
	li a0, 0x123456789
	li a1, 0x987654321
	mul a2, a0, a1
	EXPECT 1, a2, 0xd77d742cce1833a9
	li a0, -1
	li a1, -1
	mulh a2, a0, a1
	EXPECT 2, a2, 0
	mulhu a2, a0, a1
	EXPECT 3, a2, 0xfffffffffffffffe
	mulhsu a2, a0, a1          # -1 * (2^64-1) = -(2^64-1): high = -1
	EXPECT 4, a2, -1
	li a0, 0x8000000000000000
	li a1, 2
	mulh a2, a0, a1
	EXPECT 5, a2, -1
	mulhu a2, a0, a1
	EXPECT 6, a2, 1
	li a0, 0x7fffffff
	li a1, 2
	mulw a2, a0, a1
	EXPECT 7, a2, -2
	# division
	li a0, -7
	li a1, 2
	div a2, a0, a1
	EXPECT 8, a2, -3
	rem a2, a0, a1
	EXPECT 9, a2, -1
	divu a2, a0, a1
	EXPECT 10, a2, 0x7ffffffffffffffc
	remu a2, a0, a1
	EXPECT 11, a2, 1
	# by zero
	li a1, 0
	div a2, a0, a1
	EXPECT 12, a2, -1
	divu a2, a0, a1
	EXPECT 13, a2, -1
	rem a2, a0, a1
	EXPECT 14, a2, -7
	remu a2, a0, a1
	EXPECT 15, a2, -7
	# overflow
	li a0, 0x8000000000000000
	li a1, -1
	div a2, a0, a1
	EXPECT 16, a2, 0x8000000000000000
	rem a2, a0, a1
	EXPECT 17, a2, 0
	# W forms
	li a0, -7
	li a1, 2
	divw a2, a0, a1
	EXPECT 18, a2, -3
	remw a2, a0, a1
	EXPECT 19, a2, -1
	divuw a2, a0, a1           # 0xfffffff9 / 2 = 0x7ffffffc
	EXPECT 20, a2, 0x7ffffffc
	remuw a2, a0, a1
	EXPECT 21, a2, 1
	li a1, 0
	divw a2, a0, a1
	EXPECT 22, a2, -1
	divuw a2, a0, a1
	EXPECT 23, a2, -1
	remw a2, a0, a1
	EXPECT 24, a2, -7
	remuw a2, a0, a1           # 0xfffffff9 sign-extended
	EXPECT 25, a2, -7
	li a0, 0xffffffff80000000
	li a1, -1
	divw a2, a0, a1
	EXPECT 26, a2, 0xffffffff80000000
	remw a2, a0, a1
	EXPECT 27, a2, 0
	li a0, 0x100000010         # W ops ignore upper bits
	li a1, 0x100000004
	divw a2, a0, a1
	EXPECT 28, a2, 4
	divuw a2, a0, a1
	EXPECT 29, a2, 4
	remuw a2, a0, a1
	EXPECT 30, a2, 0
	li a0, 0x80000000
	li a1, 1
	divuw a2, a0, a1           # 0x80000000 sign-extended
	EXPECT 31, a2, 0xffffffff80000000
	PASS
