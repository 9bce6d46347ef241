/*
 * The OpenSBI payload's entry (first in the image: linker/sections.ld puts
 * .text.entry before .text.start).  The boot hart arrives here, at wherever
 * the boot loader loaded the image, with a0 = hartid and a1 = FDT.  The code
 * is PC-relative; the 64-bit words holding addresses are listed in
 * rvm_relocs (filled after the link by tools/relocs.c), and each gets
 * (load address - link address) added before anything reads them.  Then on
 * to _start.  Harts started later through SBI HSM enter _start directly.
 * a0 and a1 are kept; only t0..t6 and a2 are used.
 */
#define RELOC_CAP 2048	/* addresses in the table; tools/relocs.c checks */
#define RELOC_MAGIC_LO 0x524d5652	/* "RVMR" */
#define RELOC_MAGIC_HI 0x434f4c45	/* "ELOC" */

	.section .text.entry, "ax"
	.globl _sbi_entry
_sbi_entry:
	lla	t0, __image_start	/* where the image runs */
	lla	t1, rvm_relocs
	lwu	t2, 0(t1)		/* a table the tool never filled: run as linked */
	li	t3, RELOC_MAGIC_LO
	bne	t2, t3, 3f
	lwu	t2, 4(t1)
	li	t3, RELOC_MAGIC_HI
	bne	t2, t3, 3f
	ld	t2, 8(t1)		/* where it was linked */
	sub	t3, t0, t2		/* delta */
	beqz	t3, 3f
	lwu	t4, 16(t1)		/* count */
	addi	t5, t1, 24		/* offsets from __image_start */
1:	beqz	t4, 2f
	lwu	t6, 0(t5)
	add	t6, t6, t0
	ld	a2, 0(t6)
	add	a2, a2, t3
	sd	a2, 0(t6)
	addi	t5, t5, 4
	addi	t4, t4, -1
	j	1b
2:	fence
3:	j	_start

	.section .rvm_relocs, "aw"
	.balign 8
	.globl rvm_relocs
rvm_relocs:
	.dword 0		/* magic */
	.dword 0		/* link base */
	.word 0			/* count */
	.word RELOC_CAP		/* capacity */
	.space 4 * RELOC_CAP
