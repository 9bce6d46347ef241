/* S-mode trap vector (see trapvec.inc). */
#define XCAUSE scause
#define XEPC   sepc
#define XTVAL  stval
#define XRET   sret
#include "trapvec.inc"
