/* Privilege-mode layer for M-mode images: machine counters and mtvec.  The
 * HPM events: platform/common/mhpmevent.c, or the platform's own. */
#include "platform.h"

#define PM_CYCLE    "csrr %0, mcycle"
#define PM_INSTRET  "csrr %0, minstret"
#define PM_TVEC     "mtvec"
#define PM_IE       "mie"
#define PM_SOFT_IE  8ul /* MSIE */
#define PM_HPM_BASE "0xb00"
#include "pmode.inc"
