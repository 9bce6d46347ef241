# The memory-controller counter block and the HPM events, exact counts on a
# known system (md1 at 25.6 GB/s, 1 GHz, 64-byte lines, L1D 8 KiB, LLC
# 64 KiB, no prefetch): PEAK reads 25600 (MB/s), FREQ 1000, LINE 64, MAGIC;
# after CTRL=1, 1024 loads to untouched lines are exactly 1024 READS, 0
# WRITES, BUSY = 1024 x 2.5 cycles (md1's service time) = 2560, and 1024
# L1D misses (event 2) and LLC misses (event 4) in mhpmcounter3/4; 512
# stores to untouched lines are 512 READS (write-allocate), and once a
# 256 KiB sweep has pushed them out, exactly 512 WRITES and 512 dirty LLC
# evictions (event 5, mhpmcounter5); CTRL=2 freezes the reads (bit 1 reads
# back), CTRL=0 shows what was counted meanwhile.
# modes: timing
# args: --mem-model md1 --peak-gbps 25.6 --l1d-size 8K --llc-size 64K
#include "test.h"
#define MEMCTL 0x10010000
#define N 1024
#define M 512
#define SWEEP 4096
	.section .text.init
	.globl _start
_start:
	li s0, MEMCTL
	ld a0, 0x38(s0)
	EXPECT 1, a0, 0x31304d4d53535652
	ld a0, 0x30(s0)
	EXPECT 2, a0, 64
	ld a0, 0x28(s0)
	EXPECT 3, a0, 1000
	ld a0, 0x18(s0)
	EXPECT 4, a0, 25600
	li a0, 2
	csrw mhpmevent3, a0        # L1D misses
	li a0, 4
	csrw mhpmevent4, a0        # LLC misses
	li a0, 5
	csrw mhpmevent5, a0        # dirty LLC evictions
	csrw mhpmcounter3, zero
	csrw mhpmcounter4, zero
	csrw mhpmcounter5, zero
	li a0, 1
	sd a0, 0x20(s0)            # zero READS/WRITES/BUSY
	# N loads, each to its own untouched line
	li s1, 0x80100000
	li a2, N
1:	ld a3, 0(s1)
	addi s1, s1, 64
	addi a2, a2, -1
	bnez a2, 1b
	fence
	ld a1, 0x00(s0)
	EXPECT 5, a1, N
	ld a1, 0x08(s0)
	EXPECT 6, a1, 0
	ld a1, 0x10(s0)
	EXPECT 7, a1, N * 5 / 2
	csrr a1, mhpmcounter3
	EXPECT 8, a1, N
	csrr a1, mhpmcounter4
	EXPECT 9, a1, N
	# M stores to untouched lines, then a sweep 4x the LLC pushes them out
	li a0, 1
	sd a0, 0x20(s0)
	li s1, 0x80200000
	li a2, M
2:	sd a2, 0(s1)
	addi s1, s1, 64
	addi a2, a2, -1
	bnez a2, 2b
	fence
	ld a1, 0x00(s0)
	EXPECT 10, a1, M
	li s1, 0x80300000
	li a2, SWEEP
3:	ld a3, 0(s1)
	addi s1, s1, 64
	addi a2, a2, -1
	bnez a2, 3b
	fence
	ld a1, 0x08(s0)
	EXPECT 11, a1, M
	ld a1, 0x00(s0)
	EXPECT 12, a1, M + SWEEP
	csrr a1, mhpmcounter5
	EXPECT 13, a1, M
	# freeze: the counters read what they held; unfreeze: what they counted meanwhile
	ld s2, 0x00(s0)
	li a0, 2
	sd a0, 0x20(s0)
	ld a1, 0x20(s0)
	EXPECT 14, a1, 2
	li s1, 0x80500000
	li a2, 16
4:	ld a3, 0(s1)
	addi s1, s1, 64
	addi a2, a2, -1
	bnez a2, 4b
	fence
	ld a1, 0x00(s0)
	EXPECTR 15, a1, s2
	sd zero, 0x20(s0)
	ld a1, 0x00(s0)
	addi s2, s2, 16
	EXPECTR 16, a1, s2
	PASS
