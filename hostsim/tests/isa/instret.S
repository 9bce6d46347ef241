# minstret / instret read by a CSR instruction: the count of the instructions
# retired before it (the reading instruction is not included, as in the
# privileged spec), and a value written to minstret is what the next
# instruction reads.  Exact counts, independent of timing.
#include "test.h"
	.section .text.init
	.globl _start
_start:
	csrr a0, minstret          # the first instruction: nothing retired yet
	EXPECT 1, a0, 0
	csrr a0, instret           # 1 csrr + 2 (li, beq of EXPECT) before it
	EXPECT 2, a0, 3
	li a0, 1000
	csrw minstret, a0
	csrr a1, minstret          # the instruction right after the write
	EXPECT 3, a1, 1000
	csrw minstret, zero
	nop                        # retires as instruction 0
	nop                        # 1
	csrr a1, instret           # 2 retired before it
	EXPECT 4, a1, 2
	# a trapping instruction does not retire: ecall skipped by the handler
	la t0, handler
	csrw mtvec, t0
	csrw minstret, zero
	ecall                      # not counted
	csrr a1, minstret          # after the ecall: the handler's 4 instructions
	EXPECT 5, a1, 4
	PASS
	.align 2
handler:
	csrr t1, mepc              # 0
	addi t1, t1, 4             # 1
	csrw mepc, t1              # 2
	mret                       # 3
