# Loads and stores of every width with sign/zero extension; misaligned
# loads and stores to RAM are performed (documented in docs/hostsim.md);
# a load from an unmapped address is an access fault (cause 5).
#include "test.h"
	.section .text.init
	.globl _start
_start:
	la t0, skip_handler
	csrw mtvec, t0
	la s0, buf
	li a0, 0x8877665544332211
	sd a0, 0(s0)
	ld a1, 0(s0)
	EXPECTR 1, a0, a1
	lb a1, 7(s0)
	EXPECT 2, a1, 0xffffffffffffff88
	lbu a1, 7(s0)
	EXPECT 3, a1, 0x88
	lh a1, 6(s0)
	EXPECT 4, a1, 0xffffffffffff8877
	lhu a1, 6(s0)
	EXPECT 5, a1, 0x8877
	lw a1, 4(s0)
	EXPECT 6, a1, 0xffffffff88776655
	lwu a1, 4(s0)
	EXPECT 7, a1, 0x88776655
	lw a1, 0(s0)
	EXPECT 8, a1, 0x44332211
	sb zero, 0(s0)
	sh zero, 2(s0)
	ld a1, 0(s0)
	EXPECT 9, a1, 0x8877665500002200
	li a0, -1
	sw a0, 4(s0)
	ld a1, 0(s0)
	EXPECT 10, a1, 0xffffffff00002200
	# negative offsets
	addi s1, s0, 16
	sd a0, -8(s1)
	ld a1, 8(s0)
	EXPECT 11, a1, -1
	# misaligned: performed
	li a0, 0x1122334455667788
	sd a0, 17(s0)
	ld a1, 17(s0)
	EXPECTR 12, a0, a1
	lw a1, 19(s0)
	EXPECT 13, a1, 0x33445566
	lh a1, 23(s0)
	EXPECT 14, a1, 0x1122
	li s9, 0
	EXPECT 15, s9, 0
	# load from an unmapped address: access fault, cause 5, mtval = address
	li s0, 0x40000000
	ld a1, 0(s0)
	EXPECT 16, s9, 5
	EXPECT 17, s11, 0x40000000
	# store to an unmapped address: cause 7
	sd a1, 8(s0)
	EXPECT 18, s9, 7
	EXPECT 19, s11, 0x40000008
	# past the end of RAM (default 256 MiB)
	li s0, 0x90000000
	lw a1, 0(s0)
	EXPECT 20, s9, 5
	li s0, 0x8ffffffc          # last word of RAM is fine
	sw a0, 0(s0)
	lwu a1, 0(s0)
	EXPECT 21, a1, 0x55667788
	PASS
	SKIP_HANDLER
	.data
	.align 3
buf:	.zero 64
