# An endless loop ends at --max-insns with status 124.
# args: --max-insns 100000
# expect-exit: 124
# expect-stderr: instruction limit reached
#include "test.h"
	.section .text.init
	.globl _start
_start:
1:	j 1b
