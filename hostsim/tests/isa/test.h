/*
 * Macros for hostsim's ISA test programs (assembled with
 * riscv64-unknown-elf-gcc, run with build/bin/hostsim).
 *
 * A program ends through the sifive,test0 finisher: PASS writes 0x5555
 * (exit 0), FAIL n writes (n << 16) | 0x3333 so the exit status names the
 * failing check (1..255).  Header comments read by ci/tests/hostsim.sh:
 *   # args: ...           extra hostsim options
 *   # expect-exit: N      expected exit status (default 0)
 *   # expect-console: T   the console output must equal T (\n escapes)
 *   # expect-stderr: T    stderr must contain T
 */
#define FINISHER 0x100000
#define UART     0x10000000
#define CLINT    0x2000000

.macro PASS
	li t6, FINISHER
	li t5, 0x5555
	sw t5, 0(t6)
990:	j 990b
.endm

.macro FAIL n
	li t6, FINISHER
	li t5, ((\n << 16) | 0x3333)
	sw t5, 0(t6)
990:	j 990b
.endm

/* check n: register reg must equal the 64-bit constant val */
.macro EXPECT n, reg, val
	li t4, \val
	beq \reg, t4, 991f
	FAIL \n
991:
.endm

/* check n: registers must be equal */
.macro EXPECTR n, ra_, rb_
	beq \ra_, \rb_, 991f
	FAIL \n
991:
.endm

/* a trap handler that records mcause/mepc/mtval in s9/s10/s11 and skips the
 * trapping instruction (mepc += 4) */
.macro SKIP_HANDLER
	.align 2
skip_handler:
	csrr s9, mcause
	csrr s10, mepc
	csrr s11, mtval
	addi t3, s10, 4
	csrw mepc, t3
	mret
.endm
