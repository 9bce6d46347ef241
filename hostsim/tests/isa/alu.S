# RV64I integer ops: lui/auipc sign, immediates, shifts by 63/31, W-form sign
# extension, slt/sltu, x0 writes ignored.
#include "test.h"
	.section .text.init
	.globl _start
_start:
	lui a0, 0x80000            # sign-extends to 0xffffffff80000000
	EXPECT 1, a0, 0xffffffff80000000
	lui a0, 0x7ffff
	EXPECT 2, a0, 0x7ffff000
1:	auipc a1, 0x80000          # pc + 0xffffffff80000000
	la a2, 1b
	li a3, 0xffffffff80000000
	add a2, a2, a3
	EXPECTR 3, a1, a2
	li a0, 5
	addi a1, a0, -7
	EXPECT 4, a1, -2
	li a0, -1
	slli a1, a0, 63
	EXPECT 5, a1, 0x8000000000000000
	srli a2, a1, 63
	EXPECT 6, a2, 1
	srai a2, a1, 63
	EXPECT 7, a2, -1
	li a3, 63
	sll a4, a0, a3
	EXPECT 8, a4, 0x8000000000000000
	li a3, 127                 # only the low 6 bits count
	srl a4, a1, a3
	EXPECT 9, a4, 1
	sra a4, a1, a3
	EXPECT 10, a4, -1
	# W forms
	li a0, 0x7fffffff
	addiw a1, a0, 1
	EXPECT 11, a1, 0xffffffff80000000
	li a0, 0x1
	slliw a1, a0, 31
	EXPECT 12, a1, 0xffffffff80000000
	srliw a2, a1, 31
	EXPECT 13, a2, 1
	sraiw a2, a1, 31
	EXPECT 14, a2, -1
	li a0, 0xffffffff00000001  # upper bits ignored by W ops
	li a3, 63                  # shift amount uses the low 5 bits: 31
	sllw a1, a0, a3
	EXPECT 15, a1, 0xffffffff80000000
	srlw a2, a1, a3
	EXPECT 16, a2, 1
	sraw a2, a1, a3
	EXPECT 17, a2, -1
	li a0, 0x80000000
	li a1, 0x80000000
	addw a2, a0, a1
	EXPECT 18, a2, 0
	li a0, 0
	li a1, 1
	subw a2, a0, a1
	EXPECT 19, a2, -1
	li a0, 0x100000000
	subw a2, a0, a1
	EXPECT 20, a2, -1
	li a0, 0xfffffffe
	srliw a2, a0, 1
	EXPECT 21, a2, 0x7fffffff
	# compare
	li a0, -1
	li a1, 1
	slt a2, a0, a1
	EXPECT 22, a2, 1
	sltu a2, a0, a1
	EXPECT 23, a2, 0
	slti a2, a0, 0
	EXPECT 24, a2, 1
	sltiu a2, a1, -1           # 1 < 0xffff...ffff
	EXPECT 25, a2, 1
	sltiu a2, zero, 1          # seqz
	EXPECT 26, a2, 1
	# logic
	li a0, 0xf0f0f0f0f0f0f0f0
	li a1, 0x0ff00ff00ff00ff0
	and a2, a0, a1
	EXPECT 27, a2, 0x00f000f000f000f0
	or a2, a0, a1
	EXPECT 28, a2, 0xfff0fff0fff0fff0
	xor a2, a0, a1
	EXPECT 29, a2, 0xff00ff00ff00ff00
	andi a2, a0, -16
	EXPECT 30, a2, 0xf0f0f0f0f0f0f0f0
	ori a2, zero, -1
	EXPECT 31, a2, -1
	xori a2, a0, -1
	EXPECT 32, a2, 0x0f0f0f0f0f0f0f0f
	sub a2, zero, a1
	EXPECT 33, a2, 0xf00ff00ff00ff010
	add a2, a0, a1
	EXPECT 34, a2, 0x00e100e100e100e0
	srai a2, a0, 4
	EXPECT 35, a2, 0xff0f0f0f0f0f0f0f
	srli a2, a0, 4
	EXPECT 36, a2, 0x0f0f0f0f0f0f0f0f
	# x0 writes are ignored
	li zero, 5
	addi zero, zero, 1
	lui zero, 0x12345
	EXPECT 37, zero, 0
	mv a0, zero
	EXPECT 38, a0, 0
	addiw a0, zero, -1
	EXPECT 39, a0, -1
	sltu a2, zero, a1          # snez
	EXPECT 40, a2, 1
	PASS
