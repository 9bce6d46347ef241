# MSHRs with --mshrs 2: a load to the line of an outstanding miss merges into
# its MSHR (ld A, ld A+8, ld A+16, ld B costs about one miss: B still finds
# a free MSHR), while three misses to different lines need two rounds.
# With both MSHRs busy (A, B outstanding), ld A+8 merges into A's MSHR and
# issues at once: the next instruction issues well before A completes.
# modes: timing
# args: --mshrs 2
#include "test.h"
	.section .text.init
	.globl _start
_start:
	# one cold miss, for reference: s5 = its cost
	li s4, 0x80400000
	fence
	csrr s1, mcycle
	ld a0, 0(s4)
	add t1, a0, zero
	csrr s2, mcycle
	sub s5, s2, s1
	li t0, 20
	bgeu s5, t0, 1f
	FAIL 1                     # a cold miss must cost more than an L1 hit
1:	# A, A+8, A+16, B: merged -> about one miss
	li s4, 0x80500000
	fence
	csrr s1, mcycle
	ld a1, 0(s4)
	ld a2, 8(s4)
	ld a3, 16(s4)
	ld a4, 1024(s4)
	add t1, a4, a1
	csrr s2, mcycle
	sub s6, s2, s1
	srli t0, s5, 1
	add t0, t0, s5             # < 1.5 x one miss
	bltu s6, t0, 2f
	FAIL 2
2:	# A, B, C (three lines, two MSHRs): about two misses
	li s4, 0x80600000
	fence
	csrr s1, mcycle
	ld a2, 0(s4)
	ld a3, 1024(s4)
	addi s3, s4, 2040
	ld a4, 8(s3)
	add t1, a4, zero
	csrr s2, mcycle
	sub s7, s2, s1
	srli t0, s5, 1
	add t0, t0, s5             # > 1.5 x one miss
	bltu t0, s7, 3f
	FAIL 3
3:	# A, B (both MSHRs busy), A+8: merges, no stall (< half a miss)
	li s4, 0x80700000
	fence
	csrr s1, mcycle
	ld a2, 0(s4)
	ld a3, 1024(s4)
	ld a4, 8(s4)
	csrr s2, mcycle
	sub s8, s2, s1
	srli t0, s5, 1
	bltu s8, t0, 4f
	FAIL 4
4:	# A (cold), B (an LLC hit, done first), C, D (cold): C waits for the
	# oldest MSHR, B's (the second), and takes it; D then waits for A's.
	# Taking the first MSHR instead would drop A's and let D go at once.
	fence
	add t1, a4, a3
	li s4, 0x80900000          # B: in the LLC, not in the L1 (nine lines
	ld a2, 0(s4)               #    of its L1 set after it)
	li t2, 9
	li t3, 4096
	mv s3, s4
5:	add s3, s3, t3
	ld a3, 0(s3)
	addi t2, t2, -1
	bnez t2, 5b
	fence
	add t1, a3, a2
	li s3, 0x80a00000          # A
	li s7, 0x80b00000          # C
	li s9, 0x80c00000          # D
	csrr s1, mcycle
	ld a2, 0(s3)
	ld a3, 0(s4)
	ld a4, 0(s7)
	ld a5, 0(s9)
	csrr s2, mcycle
	sub s8, s2, s1
	srli t0, s5, 1             # D waited for A: more than half a miss
	bltu t0, s8, 6f
	FAIL 5
6:	fence
	add t1, a5, a4
	PASS
