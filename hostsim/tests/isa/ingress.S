# The ddr controller's ingress (--ddr-src-rq 2: a hart may hold two
# read-queue entries): three loads that miss to three lines, back to back,
# without using their values.  The third cannot enter until the first's
# column command, and the in-order core stalls on it, so the instruction
# after them issues well after the loads (> 10 cycles; three loads alone
# issue in 3).  The same for three stores whose lines must be read (their
# store-buffer entries free, the third's read still waits to enter).  And
# two such loads (room for both) issue at once.
# modes: timing
# args: --mem-model ddr --ddr-src-rq 2 --mshrs 8 --store-buffer 8
#include "test.h"
	.section .text.init
	.globl _start
_start:
	li s4, 0x80400000
	fence
	csrr s1, mcycle
	ld a1, 0(s4)
	ld a2, 640(s4)
	csrr s2, mcycle
	sub s5, s2, s1
	li t0, 10
	bltu s5, t0, 1f
	FAIL 1                     # two loads: room for both, no stall
1:	fence
	add t1, a1, a2
	li s4, 0x80500000
	csrr s1, mcycle
	ld a1, 0(s4)
	ld a2, 640(s4)
	ld a3, 1280(s4)
	csrr s2, mcycle
	sub s5, s2, s1
	li t0, 10
	bgeu s5, t0, 2f
	FAIL 2                     # the third load must wait to enter
2:	fence
	add t1, a3, a2
	li s4, 0x80600000
	csrr s1, mcycle
	sd zero, 0(s4)
	sd zero, 640(s4)
	sd zero, 1280(s4)
	csrr s2, mcycle
	sub s5, s2, s1
	li t0, 10
	bgeu s5, t0, 3f
	FAIL 3                     # the third store's read must wait to enter
3:	fence
	PASS
