/*
 * Run-wide state: what the lead discovered (`rvm`, `rvm_fdt`) and every
 * participant's hart state (`rvm_hstate`, written by the rendezvous).  Data
 * only: the bottom of the firmware's layers (docs/layers.md).
 */
#include "rvmess/rt.h"

struct rvm_run rvm;
struct fdt_info rvm_fdt;
volatile uint32_t rvm_hstate[RVM_MAX_HARTS];

const char *rvm_state_name(uint32_t st)
{
	switch (st & 0xffu) {
	case HS_ALIVE:
	case HS_DONE:
		return "done";
	case HS_MISSING:
		return "missing";
	case HS_TRAPPED:
		return "trapped";
	case HS_HUNG:
		return "hung";
	default:
		return "none";
	}
}
