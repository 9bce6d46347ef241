# The memory-controller counter block (memsys MMIO at 0x10010000, in the DTB
# as rvmess,memctl-counters): MAGIC/LINE/FREQ, CTRL zeroing, READS counting
# the lines a fresh 1 MiB sweep brings from memory, and the same misses in
# mhpmcounter3 with event 4 (LLC miss).
# modes: timing
#include "test.h"
#define MEMCTL 0x10010000
#define LINES 16384
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
	li a0, 1
	sd a0, 0x20(s0)            # zero READS/WRITES/BUSY
	ld a1, 0x00(s0)
	EXPECT 4, a1, 0
	li a0, 4
	csrw mhpmevent3, a0
	csrw mhpmcounter3, zero
	li s1, 0x80100000          # 1 MiB in: never touched
	li a2, LINES
1:	ld a3, 0(s1)
	addi s1, s1, 64
	addi a2, a2, -1
	bnez a2, 1b
	fence
	ld a1, 0x00(s0)            # READS
	li a4, LINES
	bgeu a1, a4, 2f
	FAIL 5
2:	li a4, LINES + 64
	bltu a1, a4, 3f
	FAIL 6
3:	csrr a2, mhpmcounter3
	li a4, LINES
	bgeu a2, a4, 4f
	FAIL 7
4:	lw a5, 4(s0)               # 4-byte read of the upper half of READS
	EXPECT 8, a5, 0
	PASS
