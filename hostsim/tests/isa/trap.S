# Traps and CSRs: illegal instruction (cause 2, mtval = the bits), unknown
# CSR and writes to read-only CSRs are illegal, ecall (11), ebreak (3),
# mret restores MIE from MPIE, mscratch, misa, mhartid = a0, a1 = the DTB,
# vectored mtvec for interrupts.
#include "test.h"
	.section .text.init
	.globl _start
_start:
	mv s0, a0
	mv s1, a1
	la t0, skip_handler
	csrw mtvec, t0
	csrr a2, mtvec
	EXPECTR 1, a2, t0
	# illegal instruction word
	li s9, 0
1:	.word 0xffffffff
	EXPECT 2, s9, 2
	la t1, 1b
	EXPECTR 3, s10, t1
	EXPECT 4, s11, 0xffffffff
	# another illegal encoding: all zeros
	li s9, 0
	.word 0
	EXPECT 5, s9, 2
	# unknown CSR (0x7c0, custom) is illegal; mtval = the csrr bits
	li s9, 0
2:	csrr a2, 0x7c0
	EXPECT 6, s9, 2
	lwu t1, 2b
	EXPECTR 7, s11, t1
	# write to a read-only CSR (mhartid) is illegal, read is fine
	li s9, 0
	csrw mhartid, zero
	EXPECT 8, s9, 2
	csrr a2, mhartid
	EXPECTR 9, a2, s0
	EXPECT 10, a2, 0
	# satp does not exist (M-mode only)
	li s9, 0
	csrr a2, satp
	EXPECT 11, s9, 2
	# ecall: cause 11, mepc = the ecall
	li s9, 0
3:	ecall
	EXPECT 12, s9, 11
	la t1, 3b
	EXPECTR 13, s10, t1
	# ebreak: cause 3
	li s9, 0
	ebreak
	EXPECT 14, s9, 3
	# mscratch
	li a2, 0x1234567890abcdef
	csrw mscratch, a2
	csrr a3, mscratch
	EXPECTR 15, a2, a3
	csrrw a3, mscratch, zero
	EXPECTR 16, a2, a3
	csrr a3, mscratch
	EXPECT 17, a3, 0
	# misa: RV64 (MXL=2) with I, M, A
	csrr a2, misa
	EXPECT 18, a2, 0x8000000000001101
	csrr a2, mvendorid
	EXPECT 19, a2, 0
	csrr a2, marchid
	EXPECT 20, a2, 0
	csrr a2, mimpid
	EXPECT 21, a2, 0
	# a1 points at the DTB: magic 0xd00dfeed big-endian
	lwu a2, 0(s1)
	EXPECT 22, a2, 0xedfe0dd0
	# mstatus: MPP reads 3 (M only); MIE/MPIE writable
	csrr a2, mstatus
	srli a2, a2, 11
	andi a2, a2, 3
	EXPECT 23, a2, 3
	csrsi mstatus, 8
	csrr a2, mstatus
	andi a2, a2, 8
	EXPECT 24, a2, 8
	csrci mstatus, 8
	# a trap moves MIE to MPIE and clears MIE; mret moves it back
	csrsi mstatus, 8
	la t0, h2
	csrw mtvec, t0
	ecall
	# back from h2 via mret: MIE restored
	csrr a2, mstatus
	andi a2, a2, 8
	EXPECT 25, a2, 8
	EXPECT 26, s5, 0x80            # in the handler: MIE=0, MPIE=1
	csrci mstatus, 8
	# csrrs/csrrc/csrr*i forms on mscratch
	csrwi mscratch, 5
	csrrsi a2, mscratch, 2
	EXPECT 27, a2, 5
	csrrci a2, mscratch, 1
	EXPECT 28, a2, 7
	li a4, 0xf0
	csrrs a2, mscratch, a4
	EXPECT 29, a2, 6
	csrrc a2, mscratch, a4
	EXPECT 30, a2, 0xf6
	csrr a2, mscratch
	EXPECT 31, a2, 6
	# mepc is 4-byte aligned (no C extension)
	li a2, 0x80000003
	csrw mepc, a2
	csrr a3, mepc
	EXPECT 32, a3, 0x80000000
	# mret jumps to mepc
	la a2, 4f
	csrw mepc, a2
	mret
	FAIL 33
4:	# fetch from an unmapped address: cause 1
	la t0, h3
	csrw mtvec, t0
	li s9, 0
	li a2, 0x40000000
	jr a2
5:	EXPECT 34, s9, 1
	EXPECT 35, s11, 0x40000000
	PASS

	.align 2
h2:	csrr s5, mstatus
	andi s5, s5, 0x88
	csrr t3, mepc
	addi t3, t3, 4
	csrw mepc, t3
	mret
	.align 2
h3:	csrr s9, mcause
	csrr s11, mtval
	la t3, 5b
	csrw mepc, t3
	mret
	SKIP_HANDLER
