# Timing hooks: a dependent chain of L1-hit loads costs l1d-hit cycles per
# load (load-to-use = memsys latency), independent hits issue one per cycle,
# a dependent mul chain costs mul-latency per mul, independent misses
# overlap in the MSHRs (8 misses in parallel are much faster than 8 in a
# dependent chain), a full store buffer stalls, and stores to different
# lines that fit in it overlap (a fence still waits for them), and a value
# read only as rs2 is waited for as one read as rs1.
# modes: timing
# args: --l1d-hit 4 --mul-latency 3 --mshrs 8 --store-buffer 4
#include "test.h"
	.section .text.init
	.globl _start
_start:
	la s0, buf
	sd s0, 0(s0)               # buf[0] = &buf[0]: ld a0,0(a0) stays put
	mv a0, s0
	ld a0, 0(a0)               # warm the line
	fence                      # wait for it (and the store)
	# 1. 100 dependent L1 hits: 400 cycles (+ a few)
	csrr s1, mcycle
	.rept 100
	ld a0, 0(a0)
	.endr
	add t1, a0, zero           # issues when the last load's value is ready
	csrr s2, mcycle
	sub s3, s2, s1
	li t0, 400
	bgeu s3, t0, 1f
	FAIL 1
1:	li t0, 410
	bltu s3, t0, 2f
	FAIL 2
2:	# 2. 100 independent L1 hits: about 100 cycles
	csrr s1, mcycle
	.rept 100
	ld a1, 0(s0)
	.endr
	csrr s2, mcycle
	sub s3, s2, s1
	li t0, 100
	bgeu s3, t0, 3f
	FAIL 3
3:	li t0, 110
	bltu s3, t0, 4f
	FAIL 4
4:	# 3. 50 dependent muls: 150 cycles
	li a2, 3
	csrr s1, mcycle
	.rept 50
	mul a2, a2, a2
	.endr
	add t1, a2, zero
	csrr s2, mcycle
	sub s3, s2, s1
	li t0, 150
	bgeu s3, t0, 5f
	FAIL 5
5:	li t0, 160
	bltu s3, t0, 6f
	FAIL 6
6:	# 4. 8 independent misses (cold lines) vs 8 dependent misses
	li s4, 0x80400000
	csrr s1, mcycle
	.set i, 0
	.rept 8
	ld a3, (i * 256)(s4)
	.set i, i + 1
	.endr
	add a3, a3, a3             # waits for the last load
	csrr s2, mcycle
	sub s5, s2, s1             # parallel
	# dependent: each address depends on the previous load's value (0:
	# never-written RAM), through other cold lines
	li s7, 0x80800000
	csrr s1, mcycle
	.rept 8
	ld a4, 0(s7)
	add s7, s7, a4
	addi s7, s7, 256
	.endr
	csrr s2, mcycle
	sub s8, s2, s1             # serial
	slli t0, s5, 2             # parallel * 4 < serial
	bltu t0, s8, 8f
	FAIL 7
8:	# 5. 12 stores to cold lines with a 4-entry store buffer stall issue
	li s4, 0x81000000
	csrr s1, mcycle
	.set i, 0
	.rept 12
	sd zero, (i * 128)(s4)
	.set i, i + 1
	.endr
	csrr s2, mcycle
	sub s3, s2, s1
	li t0, 100                 # 12 stores would be ~12 cycles without stalls
	bgeu s3, t0, 9f
	FAIL 8
9:	# 6. 4 stores to cold lines fit the buffer and overlap: draining them
	# (fence) costs about one miss, not four (< 2 misses = serial / 4)
	li s4, 0x81800000
	fence
	csrr s1, mcycle
	.set i, 0
	.rept 4
	sd zero, (i * 128)(s4)
	.set i, i + 1
	.endr
	fence
	csrr s2, mcycle
	sub s3, s2, s1
	srli t0, s8, 2
	bltu s3, t0, 10f
	FAIL 9
10:	srli t0, s8, 4             # but the fence waits for them: > half a miss
	bgeu s3, t0, 11f
	FAIL 10
11:	# 7. a register read only as rs2 waits too (the issue check is
	# specialised per instruction): 20 dependent L1 hits, the last
	# value read only as the add's rs2: 80 cycles (+ a few)
	ld a0, 0(a0)               # warm the line again
	fence
	csrr s1, mcycle
	.rept 20
	ld a0, 0(a0)
	.endr
	add t1, zero, a0           # rs2 only
	csrr s2, mcycle
	sub s3, s2, s1
	li t0, 80
	bgeu s3, t0, 12f
	FAIL 11
12:	li t0, 90
	bltu s3, t0, 13f
	FAIL 12
13:	PASS
	.data
	.align 6
buf:	.zero 64
