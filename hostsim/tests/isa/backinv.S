# The inclusive LLC's back-invalidation, seen from a hart: line A sits in
# the L1D (8 KiB, 8 ways: 16 sets) and in its LLC set (16 KiB, 4 ways: 64
# sets); four more lines 4, 12, 20 and 28 KiB above it fill the same LLC
# set and the same L1D set (and other slots of the L1D's hint table).  The
# fourth evicts A from the LLC, so A must leave the L1D too (it had room
# there): the next load of A is exactly one L1D miss (event 2) and one LLC
# miss (event 4), and takes at least the memory latency.  An L1D that kept
# A would hit in 4 cycles, holding a line the LLC no longer tracks.
# modes: timing
# args: --mem-model fixed --mem-latency 80 --l1d-size 8K --llc-size 16K --llc-ways 4
#include "test.h"
#define A 0x80100000
#define STRIDE 0x2000
	.section .text.init
	.globl _start
_start:
	li a0, 2
	csrw mhpmevent3, a0
	li a0, 4
	csrw mhpmevent4, a0
	li s1, A
	ld a3, 0(s1)               # A: L1D and LLC
	li s2, STRIDE
	li t0, A + 0x1000
	ld a3, 0(t0)               # three more lines of the set: still room for A
	add t0, t0, s2
	ld a3, 0(t0)
	add t0, t0, s2
	ld a3, 0(t0)
	ld a3, 0(s1)               # A is in the L1D: a hit
	csrr s3, mhpmcounter3
	ld a3, 0(s1)
	csrr s4, mhpmcounter3
	sub a1, s4, s3
	EXPECT 1, a1, 0
	add t0, t0, s2
	ld a3, 0(t0)               # the fifth line of the set: A leaves the LLC
	fence
	csrr s3, mhpmcounter3
	csrr s5, mhpmcounter4
	csrr s6, mcycle
	ld a3, 0(s1)
	add a3, a3, zero           # wait for the load
	csrr s7, mcycle
	csrr s4, mhpmcounter3
	csrr s8, mhpmcounter4
	sub a1, s4, s3
	EXPECT 2, a1, 1
	sub a1, s8, s5
	EXPECT 3, a1, 1
	sub a1, s7, s6
	li t0, 80
	bgeu a1, t0, 1f
	FAIL 4
1:	PASS
