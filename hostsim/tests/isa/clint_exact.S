# CLINT known answers (what the image's timer and time base rely on):
# mip.MTIP is clear while mtime is one tick below mtimecmp and set at
# equality (mtime >= mtimecmp, not one tick later); mtime advances one tick
# per freq / timebase cycles (100 at 1 GHz and 10 MHz: over 1000 ticks
# mcycle moves 100000 +- 100); a second hart's mtimecmp does not touch hart
# 0's MTIP; msip reads back what was written, bit 0 only.
# args: --harts 2
#include "test.h"
	.section .text.init
	.globl _start
_start:
	csrr a0, mhartid
	bnez a0, park
	li s1, CLINT
	li t0, 0xbff8
	add s2, s1, t0             # &mtime
	li t0, 0x4000
	add s3, s1, t0             # &mtimecmp[0]
	li t0, -1
	sd t0, 8(s3)               # hart 1 never fires
	ld a0, 0(s2)
	addi s4, a0, 20            # T = mtime + 20
	sd s4, 0(s3)
	addi s5, s4, -1            # T - 1
	# one tick below: not pending (read mip inside the same tick)
1:	ld a0, 0(s2)
	bltu a0, s5, 1b
	csrr a1, mip
	ld a2, 0(s2)
	bne a2, s5, 1b             # the tick passed between: (cannot, after T-1: then fail below)
	andi a1, a1, 0x80
	EXPECT 1, a1, 0
	# at equality: pending
2:	ld a0, 0(s2)
	bltu a0, s4, 2b
	csrr a1, mip
	ld a2, 0(s2)
	EXPECTR 2, a2, s4          # still the tick mtime == mtimecmp
	andi a1, a1, 0x80
	EXPECT 3, a1, 0x80
	# mtimecmp back above mtime: clear again; hart 1's compare at 0 does not matter
	li t0, -1
	sd t0, 0(s3)
	sd zero, 8(s3)
	csrr a1, mip
	andi a1, a1, 0x80
	EXPECT 4, a1, 0
	# the tick: 100 cycles at 1 GHz / 10 MHz, over 1000 ticks
	ld a0, 0(s2)
3:	ld a1, 0(s2)
	beq a1, a0, 3b             # the start of a tick
	csrr s6, mcycle
	addi s7, a1, 1000
4:	ld a1, 0(s2)
	bltu a1, s7, 4b
	csrr s8, mcycle
	sub s8, s8, s6             # cycles over exactly 1000 ticks (+ the loop's own delay)
	li t0, 100000 - 100
	bgeu s8, t0, 5f
	FAIL 5
5:	li t0, 100000 + 100
	bltu s8, t0, 6f
	FAIL 6
6:	# msip: bit 0 only
	li a0, 0xff
	sw a0, 0(s1)
	lw a1, 0(s1)
	EXPECT 7, a1, 1
	sw zero, 0(s1)
	lw a1, 0(s1)
	EXPECT 8, a1, 0
	PASS
park:
	wfi
	j park
