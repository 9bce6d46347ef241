# Counters: mcycle/minstret advance, cycle/instret aliases, writes honoured
# as offsets, mcountinhibit freezes, mhpmevent selects a memsys event (L1D
# accesses, id 1) counted per hart, mcounteren is a plain register.
# modes: timing
#include "test.h"
	.section .text.init
	.globl _start
_start:
	csrr a0, minstret
	nop
	nop
	nop
	csrr a1, minstret
	sub a2, a1, a0
	EXPECT 1, a2, 4            # 3 nops + the csrr
	csrr a0, instret
	csrr a1, minstret
	sub a2, a1, a0
	EXPECT 2, a2, 1
	csrr a0, mcycle
	csrr a1, cycle
	bgeu a1, a0, 1f
	FAIL 3
1:	# writes are offsets: the counter continues from the written value
	li a0, 1000000
	csrw minstret, a0
	csrr a1, minstret
	sub a2, a1, a0
	li a3, 3
	bltu a2, a3, 2f
	FAIL 4
2:	csrw mcycle, zero
	csrr a1, mcycle
	li a3, 1000
	bltu a1, a3, 3f
	FAIL 5
3:	# inhibit instret (bit 2): frozen
	csrwi mcountinhibit, 4
	csrr a0, minstret
	nop
	nop
	csrr a1, minstret
	EXPECTR 6, a0, a1
	li a0, 500
	csrw minstret, a0          # write while inhibited
	csrr a1, minstret
	EXPECT 7, a1, 500
	csrwi mcountinhibit, 0
	nop
	csrr a1, minstret
	li a2, 500
	bltu a2, a1, 4f
	FAIL 8
4:	# mhpmevent3 = 1 (L1D accesses): 10 loads advance it by >= 10 with timing
	li a0, 1
	csrw mhpmevent3, a0
	csrr a0, mhpmevent3
	EXPECT 9, a0, 1
	csrw mhpmcounter3, zero
	la s0, buf
	.rept 10
	ld a1, 0(s0)
	.endr
	csrr a2, mhpmcounter3
	csrr a3, hpmcounter3
	EXPECTR 10, a2, a3
	li a4, 10
	bgeu a2, a4, 5f
	FAIL 11
5:	# inhibit mhpmcounter3 (bit 3)
	csrwi mcountinhibit, 8
	csrr a2, mhpmcounter3
	.rept 5
	ld a1, 0(s0)
	.endr
	csrr a3, mhpmcounter3
	EXPECTR 12, a2, a3
	csrwi mcountinhibit, 0
	# event 0: reads 0 (plus the written offset)
	csrw mhpmevent4, zero
	csrw mhpmcounter4, zero
	ld a1, 0(s0)
	csrr a2, mhpmcounter4
	EXPECT 13, a2, 0
	li a0, -1
	csrw mcounteren, a0
	csrr a2, mcounteren
	EXPECT 14, a2, 0xffffffff
	PASS
	.data
	.align 6
buf:	.zero 64
