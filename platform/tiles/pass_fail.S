/*
 * The end of an OpenPiton run: the functions `pass` and `fail`.  sims ends
 * the simulation when every hart of its finish mask has reached `pass` (good
 * trap) or any has reached `fail` (bad trap), by pc; both then loop on
 * themselves, retiring instructions (an idle hart would trip -rtl_timeout).
 * With OPENPITON_END=metro, each first loads the Metro-MPI end-of-test
 * address: 0x8100000000 good, 0x8200000000 bad (Metro-MPI's monitors are
 * off; only that load ends its run).
 */
	.section .text.piton_end, "ax"

	.globl	pass
	.type	pass, @function
	.balign	4
pass:
#if OPENPITON_METRO
	li	t0, 0x8100000000
	ld	t0, 0(t0)
#endif
1:	j	1b
	.size	pass, . - pass

	.globl	fail
	.type	fail, @function
	.balign	4
fail:
#if OPENPITON_METRO
	li	t0, 0x8200000000
	ld	t0, 0(t0)
#endif
1:	j	1b
	.size	fail, . - fail
