# The ddr controller's ingress (--ddr-src-rq 2: a hart may hold two
# read-queue entries): three loads that miss to three lines, back to back,
# without using their values.  The third cannot enter until the first's
# column command, and the in-order core stalls on it, so the instruction
# after them issues well after the loads (> 10 cycles; three loads alone
# issue in 3).  The same for three stores whose lines must be read (their
# store-buffer entries free, the third's read still waits to enter).  And
# two such loads (room for both) issue at once.  An AMO to a third line
# (tm_amo issues it again until it enters) and a load split across two
# missing lines (its second line waits in tm_access_split, the first
# made once: the load counter says 4 for the block) complete, with their
# values, and take longer than the queued loads alone would (but under
# 2000 cycles: a held result is never taken for a completion).
# modes: timing
# args: --mem-model ddr-resv --ddr-src-rq 2 --ddr-xor 0 --mshrs 8 --store-buffer 8
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
	li t2, 5
	li s4, 0x80800000          # lines not touched yet
	addi s5, s4, 1280
	csrr s1, mcycle
	ld a1, 0(s4)
	ld a2, 640(s4)
	amoadd.d a3, t2, (s5)
	csrr s2, mcycle
	sub s6, s2, s1
	ld a4, 0(s5)
	li t0, 5
	bne a4, t0, 4f             # 0 + 5
	bnez a3, 4f
	li t0, 10
	bltu s6, t0, 4f
	li t0, 2000                # ... and complete at a real time
	bltu s6, t0, 5f
4:	FAIL 4                     # the AMO must wait to enter, then add
5:	fence
	li a0, 6                   # mhpmcounter3 counts loads (MEMSYS_EV_LOAD)
	csrw mhpmevent3, a0
	csrw mhpmcounter3, zero
	li s4, 0x80a00000          # lines not touched yet
	li s5, 0x80a20000          # the same bank, the next row (--ddr-xor 0)
	csrr s1, mcycle
	ld a1, 0(s4)
	ld a2, 0(s5)               # a conflict: its column command comes late
	/* crosses from line 1216 (line 0's row: it enters when line 0's
	 * entry frees) into line 1280, held until s5's entry frees */
	ld a3, 1276(s4)
	add t1, a3, zero
	csrr s2, mcycle
	csrr s3, mhpmcounter3
	sub s6, s2, s1
	bnez a3, 6f                # untouched memory reads zero
	li t0, 4                   # two loads and two lines: a held access is
	bne s3, t0, 6f             # not counted, a line made is not made again
	li t0, 10
	bltu s6, t0, 6f
	li t0, 2000
	bltu s6, t0, 7f
6:	FAIL 6                     # the split load waits for its lines
7:	fence
	PASS
