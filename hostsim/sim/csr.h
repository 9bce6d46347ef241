/*
 * hostsim's CSRs and traps (csr.c): the M-mode CSR file, the counters, the
 * interrupt sources (CLINT msip/mtimecmp), trap entry, mret and wfi.  Used
 * by the executor in cpu.c.
 */
#ifndef HOSTSIM_CSR_H
#define HOSTSIM_CSR_H

#include "sim/sim.h"

#define MSTATUS_MIE  (1ull << 3)
#define MSTATUS_MPIE (1ull << 7)
#define MSTATUS_MPP  (3ull << 11)
#define MIP_MSIP (1ull << 3)
#define MIP_MTIP (1ull << 7)
#define MIP_MEIP (1ull << 11)
#define MIE_MASK (MIP_MSIP | MIP_MTIP | MIP_MEIP)

#define CAUSE_MISALIGNED_FETCH 0
#define CAUSE_FETCH_ACCESS     1
#define CAUSE_ILLEGAL          2
#define CAUSE_BREAKPOINT       3
#define CAUSE_MISALIGNED_LOAD  4
#define CAUSE_LOAD_ACCESS      5
#define CAUSE_MISALIGNED_STORE 6
#define CAUSE_STORE_ACCESS     7
#define CAUSE_ECALL_M          11

/* Read CSR csr; 0 ok, -1 illegal. */
int sim_csr_read(struct sim *s, struct sim_hart *h, unsigned csr, uint64_t *v);
/* Write CSR (already known readable and not read-only); 0 ok, -1 illegal. */
int sim_csr_write(struct sim *s, struct sim_hart *h, unsigned csr, uint64_t v);
/* Enter the trap handler (or stop the run when mtvec is 0); h->pc is the
 * trapping pc. */
void sim_take_trap(struct sim *s, struct sim_hart *h, uint64_t cause, uint64_t tval);
/* mret: restore MIE from MPIE and continue at mepc (h->pc). */
void sim_mret(struct sim_hart *h);
/* wfi: when no enabled interrupt is pending, sleep until the timer fires
 * (at most 10000 cycles, so another hart's msip is noticed; h->clock advances). */
void sim_wfi(struct sim *s, struct sim_hart *h);

/* LR/SC: h loses its reservation. */
static inline void sim_resv_drop(struct sim *s, struct sim_hart *h)
{
	if (h->resv_valid) {
		h->resv_valid = 0;
		s->nresv--;
	}
}

#endif
