# Devices: ns16550a output (with the DLAB divisor latch not printing), CLINT
# mtime advancing and equal to the time CSR, msip raising a machine software
# interrupt (mip.MSIP, mcause 0x8000000000000003) only when enabled, mtimecmp
# raising a timer interrupt that wakes wfi, vectored mtvec.
# expect-console: hostsim uart ok\n
#include "test.h"
	.section .text.init
	.globl _start
_start:
	li s0, UART
	li a0, 0x80                # DLAB: the next write to +0 is the divisor, not output
	sb a0, 3(s0)
	li a0, 0x41
	sb a0, 0(s0)
	li a0, 0x03
	sb a0, 3(s0)
	lbu a1, 5(s0)
	EXPECT 1, a1, 0x60
	la a2, msg
1:	lbu a0, 0(a2)
	beqz a0, 3f
2:	lbu a1, 5(s0)
	andi a1, a1, 0x20
	beqz a1, 2b
	sb a0, 0(s0)
	addi a2, a2, 1
	j 1b
3:	# mtime advances with simulated time
	li s1, CLINT
	li t0, 0xbff8
	add s2, s1, t0             # &mtime
	ld a0, 0(s2)
	li a1, 2000
4:	addi a1, a1, -1
	bnez a1, 4b
	ld a2, 0(s2)
	bltu a0, a2, 5f
	FAIL 2
5:	# 2000 iterations = 4000+ cycles at 1 GHz; 10 MHz timebase: >= 40 ticks
	sub a3, a2, a0
	li a4, 40
	bgeu a3, a4, 6f
	FAIL 3
6:	csrr a3, time
	bgeu a3, a2, 7f
	FAIL 4
7:	# msip with interrupts disabled: pending in mip, not taken
	la t0, handler
	csrw mtvec, t0
	li s9, 0
	li a0, 1
	sw a0, 0(s1)               # msip[0] = 1
	lw a1, 0(s1)
	EXPECT 5, a1, 1
	csrr a1, mip
	andi a1, a1, 8
	EXPECT 6, a1, 8
	nop
	nop
	EXPECT 7, s9, 0
	# enable: taken
	li a0, 8
	csrs mie, a0
	csrsi mstatus, 8
	li a1, 1000
8:	bnez s9, 9f
	addi a1, a1, -1
	bnez a1, 8b
9:	EXPECT 8, s9, 0x8000000000000003
	lw a1, 0(s1)
	EXPECT 9, a1, 0            # handler cleared it
	csrci mstatus, 8
	csrw mie, zero
	# timer: mtimecmp = mtime + 50, wfi until it fires
	li s9, 0
	li t0, 0x4000
	add s3, s1, t0             # &mtimecmp[0]
	ld a0, 0(s2)
	addi a0, a0, 50
	mv s5, a0
	sd a0, 0(s3)
	li a0, 0x80
	csrs mie, a0
	csrsi mstatus, 8
	li a1, 100
10:	wfi
	bnez s9, 11f
	addi a1, a1, -1
	bnez a1, 10b
11:	EXPECT 10, s9, 0x8000000000000007
	ld a0, 0(s2)
	bgeu a0, s5, 12f
	FAIL 11
12:	csrci mstatus, 8
	# vectored mode: interrupt cause 3 goes to base + 12
	la t0, vtable
	ori t0, t0, 1
	csrw mtvec, t0
	li s9, 0
	csrw mie, 8
	li a0, 1
	sw a0, 0(s1)
	csrsi mstatus, 8
	nop
	nop
	csrci mstatus, 8
	EXPECT 12, s9, 33
	# reserved CLINT space past mtime reads 0, writes are ignored
	li t0, CLINT + 0xc000
	li a0, -1
	sd a0, 0(t0)
	ld a1, 0(t0)
	EXPECT 13, a1, 0
	# mtimecmp of a hart that does not exist reads 0
	li t0, CLINT + 0x4000 + 8 * 63
	ld a1, 0(t0)
	EXPECT 14, a1, 0
	PASS

	.align 2
handler:
	csrr s9, mcause
	li t3, 0x8000000000000003
	bne s9, t3, 1f
	sw zero, 0(s1)             # clear msip
	mret
1:	li t3, -1
	sd t3, 0(s3)               # timer: disarm
	mret

	.align 6
vtable:	j vbad
	j vbad
	j vbad
	j vmsi
vbad:	li s9, 99
	mret
vmsi:	li s9, 33
	sw zero, 0(s1)
	mret

	.data
msg:	.asciz "hostsim uart ok\n"
