/* M-mode trap vector (see trapvec.inc). */
#define XCAUSE mcause
#define XEPC   mepc
#define XTVAL  mtval
#define XRET   mret
#include "trapvec.inc"
