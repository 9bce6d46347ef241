# The set-up phase hint (memctl PHASE at +0x40, docs/hostsim.md "Set-up
# phases").  With timing: PHASE reads 2 (offered); after writing 1 it reads 3
# and the hart runs untimed: a chain built over 256 lines advances mcycle by
# exactly the instructions retired (one cycle each) and memsys sees none of
# its accesses (L1D access event unchanged), so the caches stay cold; after
# writing 0 it reads 2 and timing is back: the first chase over the chain
# misses every line (at least l1d-hit + llc-hit = 34 cycles a load, the
# fixed model's defaults), the second hits L1 (4 cycles a load, plus the
# loop's issue slots at most).  With --no-timing the block reads 0.
# args: --mem-model fixed
#include "test.h"
#define MEMCTL 0x10010000
#define N 256
	.section .text.init
	.globl _start
_start:
	li s0, MEMCTL
	ld a0, 0x40(s0)
	ld a1, 0x38(s0)            # MAGIC: 0 without timing
	bnez a1, 1f
	EXPECT 4, a0, 0            # --no-timing: no hint offered
	PASS
1:	EXPECT 5, a0, 2
	li a0, 1
	csrw mhpmevent3, a0        # L1D accesses
	li a0, 1
	sd a0, 0x40(s0)            # enter the set-up phase
	ld a0, 0x40(s0)
	EXPECT 6, a0, 3
	csrr s2, mhpmcounter3
	rdcycle s3
	rdinstret s4
	# build: line i points at line i + 1, the last at the first
	li s1, 0x80100000
	mv a1, s1
	li a2, N - 1
2:	addi a3, a1, 64
	sd a3, 0(a1)
	mv a1, a3
	addi a2, a2, -1
	bnez a2, 2b
	sd s1, 0(a1)
	ld a4, 0(s1)               # and loads too
	rdcycle s5
	rdinstret s6
	csrr s7, mhpmcounter3
	sub s5, s5, s3
	sub s6, s6, s4
	EXPECTR 7, s5, s6          # one cycle per instruction
	EXPECTR 8, s7, s2          # memsys not called
	sd zero, 0x40(s0)          # leave it
	ld a0, 0x40(s0)
	EXPECT 9, a0, 2
	# timed chase, cold: every load misses
	mv a0, s1
	li a2, N
	rdcycle s3
3:	ld a0, 0(a0)
	addi a2, a2, -1
	bnez a2, 3b
	rdcycle s5
	EXPECTR 10, a0, s1          # back at the start: the chain is right
	sub s5, s5, s3
	li a4, N * 34
	bgeu s5, a4, 4f
	FAIL 11
4:	csrr s7, mhpmcounter3
	sub s7, s7, s2
	EXPECT 12, s7, N            # memsys saw exactly the chase's loads
	# timed chase, warm: L1 hits
	li a2, N
	rdcycle s3
5:	ld a0, 0(a0)
	addi a2, a2, -1
	bnez a2, 5b
	rdcycle s5
	sub s5, s5, s3
	li a4, N * 4
	bgeu s5, a4, 6f
	FAIL 13
6:	li a4, N * 4 + 8
	bltu s5, a4, 7f
	FAIL 14
7:	PASS
