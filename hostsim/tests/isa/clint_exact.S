# CLINT known answers (what the image's timer and time base rely on):
# mip.MTIP is clear while mtime is one tick below mtimecmp and set at
# equality (mtime >= mtimecmp, not one tick later); mtime advances one tick
# per freq / timebase cycles (100 at 1 GHz and 10 MHz: over 1000 ticks
# mcycle moves 100000 +- 100); a second hart's mtimecmp does not touch hart
# 0's MTIP; msip reads back what was written, bit 0 only; msip[h] raises
# mip.MSIP of hart h alone (the image's wake-up): hart 0's own at once,
# hart 1's seen by hart 1 (it polls its mip and answers through memory)
# while hart 0's stays clear.
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
	# msip[0] is hart 0's mip.MSIP (bit 3)
	li a0, 1
	sw a0, 0(s1)
	csrr a1, mip
	andi a1, a1, 8
	EXPECT 9, a1, 8
	sw zero, 0(s1)
	csrr a1, mip
	andi a1, a1, 8
	EXPECT 10, a1, 0
	# msip[1]: hart 1's MSIP, not hart 0's; hart 1 answers in `seen`
	la s9, seen
	sw a0, 4(s1)
	csrr a1, mip
	andi a1, a1, 8
	EXPECT 11, a1, 0
	li a2, 200000
7:	lw a1, 0(s9)
	bnez a1, 8f
	addi a2, a2, -1
	bnez a2, 7b
	FAIL 12                    # hart 1 never saw its MSIP
8:	sw zero, 4(s1)
	PASS
park:
	# hart 1: poll its own mip.MSIP (no interrupt taken: mie is 0)
	la a3, seen
1:	csrr a1, mip
	andi a1, a1, 8
	beqz a1, 1b
	li a1, 1
	sw a1, 0(a3)
2:	wfi
	j 2b
	.data
	.align 6
seen:	.word 0
