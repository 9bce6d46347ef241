/* Mess traffic generators: the state block the asm kernels use (firmware/kernels/mess.S). */
#ifndef RVMESS_MESS_H
#define RVMESS_MESS_H

#include <stdint.h>

/* Offsets are fixed: mess.S reads them as G_* constants. */
struct mess_gen {
	uint64_t ld_base;          /* 0: load array */
	uint64_t st_base;          /* 8: store array */
	uint64_t len;              /* 16: bytes per array, a multiple of 3200 */
	uint64_t pause;            /* 24: nop-loop iterations after each block */
	volatile uint64_t stop;    /* 32: the kernel returns once this is non-zero */
	volatile uint64_t iters;   /* 40: blocks done, published after every block */
	uint64_t pattern;          /* 48: the value every store writes */
	void (*poll)(void);        /* 56: called before each read of stop, if set (rvm_poll_fn()) */
} __attribute__((aligned(64)));

_Static_assert(__builtin_offsetof(struct mess_gen, stop) == 32, "mess.S layout");
_Static_assert(__builtin_offsetof(struct mess_gen, iters) == 40, "mess.S layout");
_Static_assert(__builtin_offsetof(struct mess_gen, pattern) == 48, "mess.S layout");
_Static_assert(__builtin_offsetof(struct mess_gen, poll) == 56, "mess.S layout");

#define RVM_MESS_BLOCK_OPS 50u   /* memory operations per block */
#define RVM_MESS_KERNELS   51u   /* 0..50 stores per block */

/* mess_kern_<S> for S = 0..50 stores per block. */
typedef void (*rvm_mess_fn)(struct mess_gen *g);
extern const rvm_mess_fn rvm_mess_kernels[RVM_MESS_KERNELS];

#endif
