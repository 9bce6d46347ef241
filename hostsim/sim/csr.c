/*
 * hostsim's CSRs and traps: the M-mode CSR file (csr.h), counters (mcycle,
 * minstret, mhpmcounter3..31 over memsys events), the interrupt sources,
 * trap entry, mret and wfi.
 */
#include <string.h>
#include "sim/sim.h"
#include "sim/csr.h"
#include "sim/timing.h"
#include "sim/wmem.h"

#define WFI_MAX_SKIP 10000ull

/* ---- clocks and counters -------------------------------------------------- */

uint64_t sim_mtime(struct sim *s, struct sim_hart *h)
{
	if (s->opt.inject[SIM_F_TIMER_STUCK]) /* a timer whose clock input is tied off */
		return (uint64_t)s->mtime_off;
	unsigned __int128 t = (unsigned __int128)h->clock * s->opt.timebase;
	return (uint64_t)(t / (s->opt.freq_mhz * 1000000ull)) + (uint64_t)s->mtime_off;
}

uint64_t sim_hpm_raw(struct sim *s, struct sim_hart *h, unsigned event)
{
	const struct sim_machine *m = sim_mach(s);
	if (m->ev_map) /* the profile's event ids */
		event = event < m->ev_map_len ? m->ev_map[event] : 0;
	if (event == 0)
		return 0;
	return tm_event(s, h->id, event);
}

static uint64_t cnt_raw(struct sim *s, struct sim_hart *h, unsigned i)
{
	if (i == 0)
		return h->clock;
	if (i == 2)
		return h->instret;
	if (i >= 3 && i < 32)
		return sim_hpm_raw(s, h, (unsigned)h->hpm_event[i]);
	return 0;
}

static uint64_t cnt_read(struct sim *s, struct sim_hart *h, unsigned i)
{
	if (h->mcountinhibit & (1ull << i))
		return h->cnt_frozen[i];
	return cnt_raw(s, h, i) + h->cnt_off[i];
}

static void cnt_write(struct sim *s, struct sim_hart *h, unsigned i, uint64_t v)
{
	if (h->mcountinhibit & (1ull << i))
		h->cnt_frozen[i] = v;
	else
		h->cnt_off[i] = v - cnt_raw(s, h, i);
}

static uint64_t read_mip(struct sim *s, struct sim_hart *h)
{
	uint64_t mip = 0;
	if (s->msip[h->id] & 1)
		mip |= MIP_MSIP;
	if (sim_mtime(s, h) >= s->mtimecmp[h->id])
		mip |= MIP_MTIP;
	return mip;
}

void sim_hart_reset(struct sim *s, struct sim_hart *h, unsigned id)
{
	memset(h, 0, sizeof(*h));
	h->id = id;
	h->msh = s->ms ? memsys_hart(s->ms, id) : NULL; /* (tm_init made s->ms before) */
	h->pc = s->entry;
	h->x[10] = id;
	h->x[11] = s->fdt_addr;
	h->mstatus = MSTATUS_MPP;
	const struct sim_machine *m = sim_mach(s);
	for (unsigned i = 0; i < m->fixed_ev_len; i++) /* fixed-function counters */
		h->hpm_event[i] = m->fixed_ev[i];
	h->dcache = 1; /* Ariane: L1D on at reset */
}


/* ---- traps ------------------------------------------------------------- */

/* An S-mode CSR instruction (csrr*, csr[9:8] = 1): what an image written for
 * a supervisor (an OpenSBI payload) does first. */
static int is_smode_csr_insn(uint64_t raw)
{
	return (raw & 0x7f) == 0x73 && ((raw >> 12) & 3) != 0 && ((raw >> 28) & 3) == 1;
}

/* A trap with no handler in an image that was not written for M-mode: say
 * so, and which image to use. */
static void smode_hint(const struct sim *s, uint64_t cause, uint64_t tval)
{
	int scsr = cause == CAUSE_ILLEGAL && is_smode_csr_insn(tval);
	if (s->entry == s->ram_base && !scsr)
		return;
	fprintf(stderr, "hostsim: this looks like an S-mode image (");
	if (s->entry != s->ram_base)
		fprintf(stderr, "its entry point 0x%llx is not the start of RAM 0x%llx%s",
		        (unsigned long long)s->entry, (unsigned long long)s->ram_base, scsr ? ", and " : "");
	if (scsr)
		fprintf(stderr, "it used supervisor CSR 0x%03llx", (unsigned long long)(tval >> 20));
	fprintf(stderr, "), such as build/images/sbi.elf, an OpenSBI payload: hostsim runs M-mode images "
	                "with no firmware below them; use build/images/virt.elf\n");
}

void sim_take_trap(struct sim *s, struct sim_hart *h, uint64_t cause, uint64_t tval)
{
	int irq = (int)(cause >> 63);
	sim_resv_drop(s, h);
	if (!irq && h->instret)
		h->instret--; /* the trapping instruction did not retire */
	if ((h->mtvec & ~3ull) == 0) {
		fprintf(stderr, "hostsim: hart %u trapped with no handler (mtvec=0): pc=0x%llx cause=0x%llx tval=0x%llx\n",
		        h->id, (unsigned long long)h->pc, (unsigned long long)cause, (unsigned long long)tval);
		smode_hint(s, cause, tval);
		h->halted = 1;
		s->stop = 1;
		s->exit_code = SIM_EXIT_TRAP;
		return;
	}
	h->mepc = h->pc;
	h->mcause = cause;
	h->mtval = tval;
	h->mstatus = (h->mstatus & ~(MSTATUS_MIE | MSTATUS_MPIE)) |
	             ((h->mstatus & MSTATUS_MIE) ? MSTATUS_MPIE : 0) | MSTATUS_MPP;
	h->pc = h->mtvec & ~3ull;
	if (irq && (h->mtvec & 3) == 1)
		h->pc += 4 * (cause & 63);
}

void sim_check_irq(struct sim *s, struct sim_hart *h)
{
	if (!(h->mstatus & MSTATUS_MIE) || !(h->mie & MIE_MASK))
		return;
	uint64_t pend = read_mip(s, h) & h->mie;
	if (!pend)
		return;
	uint64_t cause = (pend & MIP_MEIP) ? 11 : (pend & MIP_MSIP) ? 3 : 7;
	sim_take_trap(s, h, (1ull << 63) | cause, 0);
}


void sim_mret(struct sim_hart *h)
{
	h->mstatus = (h->mstatus & ~(MSTATUS_MIE | MSTATUS_MPIE)) |
	             ((h->mstatus & MSTATUS_MPIE) ? MSTATUS_MIE : 0) | MSTATUS_MPIE | MSTATUS_MPP;
	h->pc = h->mepc;
}

void sim_wfi(struct sim *s, struct sim_hart *h)
{
	if (read_mip(s, h) & h->mie)
		return;
	/* sleep until the timer fires, at most WFI_MAX_SKIP cycles */
	uint64_t skip = WFI_MAX_SKIP;
	if (h->mie & MIP_MTIP) {
		uint64_t now = sim_mtime(s, h), cmp = s->mtimecmp[h->id];
		if (cmp > now) {
			unsigned __int128 c = (unsigned __int128)(cmp - now) * (s->opt.freq_mhz * 1000000ull);
			uint64_t cyc = (uint64_t)((c + s->opt.timebase - 1) / s->opt.timebase);
			if (cyc < skip) skip = cyc;
		}
	}
	h->clock += skip;
}

/* ---- CSRs ---------------------------------------------------------------- */

#define MISA_VAL ((2ull << 62) | (1ull << 0) | (1ull << 8) | (1ull << 12))

int sim_csr_read(struct sim *s, struct sim_hart *h, unsigned csr, uint64_t *v)
{
	if (csr >= 0xb00 && csr < 0xb20 && csr != 0xb01) { *v = cnt_read(s, h, csr - 0xb00); return 0; }
	if (csr >= 0xc00 && csr < 0xc20) {
		if (csr == 0xc01) {
			if (s->no_time_csr) return -1; /* cva6, openpiton */
			*v = sim_mtime(s, h);
		} else {
			*v = cnt_read(s, h, csr - 0xc00);
		}
		return 0;
	}
	if (csr >= 0x320 && csr < 0x340 && sim_mach(s)->fixed_ev) return -1; /* no mhpmevent, mcountinhibit */
	if (csr >= 0x323 && csr < 0x340) { *v = h->hpm_event[csr - 0x320]; return 0; }
	if (csr >= 0x3a0 && csr < 0x3f0) { *v = 0; return 0; } /* PMP: no entries (WARL zero) */
	if (csr == 0x701 && sim_mach(s)->dcache_csr) { *v = h->dcache; return 0; }
	switch (csr) {
	case 0x300: *v = h->mstatus; return 0;
	case 0x301: *v = MISA_VAL; return 0;
	case 0x304: *v = h->mie; return 0;
	case 0x305: *v = h->mtvec; return 0;
	case 0x306: *v = h->mcounteren; return 0;
	case 0x320: *v = h->mcountinhibit; return 0;
	case 0x340: *v = h->mscratch; return 0;
	case 0x341: *v = h->mepc; return 0;
	case 0x342: *v = h->mcause; return 0;
	case 0x343: *v = h->mtval; return 0;
	case 0x344: *v = read_mip(s, h); return 0;
	case 0xf11: case 0xf12: case 0xf13: case 0xf15: *v = 0; return 0;
	case 0xf14: *v = h->id; return 0;
	default: return -1;
	}
}

int sim_csr_write(struct sim *s, struct sim_hart *h, unsigned csr, uint64_t v)
{
	if (csr >= 0xb00 && csr < 0xb20 && csr != 0xb01) { cnt_write(s, h, csr - 0xb00, v); return 0; }
	if (csr >= 0x320 && csr < 0x340 && sim_mach(s)->fixed_ev) return -1;
	if (csr >= 0x323 && csr < 0x340) {
		unsigned i = csr - 0x320;
		uint64_t cur = cnt_read(s, h, i);
		h->hpm_event[i] = v;
		cnt_write(s, h, i, cur); /* the counter keeps its value across an event change */
		return 0;
	}
	if (csr >= 0x3a0 && csr < 0x3f0)
		return 0;
	if (csr == 0x701 && sim_mach(s)->dcache_csr) {
		h->dcache_flushes += (v & 1) && !(h->dcache & 1);
		if ((v & 1) != (h->dcache & 1)) /* off: it holds nothing; on: it starts empty */
			wm_l1d_clear(s, h);
		h->dcache = v & 1;
		return 0;
	}
	switch (csr) {
	case 0x300:
		h->mstatus = (v & (MSTATUS_MIE | MSTATUS_MPIE)) | MSTATUS_MPP;
		return 0;
	case 0x301: return 0; /* misa: not writable (WARL) */
	case 0x304: h->mie = v & MIE_MASK; return 0;
	case 0x305: h->mtvec = (v & 3) <= 1 ? v : (v & ~3ull); return 0;
	case 0x306: h->mcounteren = v & 0xffffffffull; return 0;
	case 0x320: {
		uint64_t nv = v & 0xfffffffdull, old = h->mcountinhibit;
		for (unsigned i = 0; i < 32; i++) {
			uint64_t b = 1ull << i;
			if ((nv & b) && !(old & b))
				h->cnt_frozen[i] = cnt_raw(s, h, i) + h->cnt_off[i];
			else if (!(nv & b) && (old & b))
				h->cnt_off[i] = h->cnt_frozen[i] - cnt_raw(s, h, i);
		}
		h->mcountinhibit = nv;
		return 0;
	}
	case 0x340: h->mscratch = v; return 0;
	case 0x341: h->mepc = v & ~3ull; return 0;
	case 0x342: h->mcause = v; return 0;
	case 0x343: h->mtval = v; return 0;
	case 0x344: return 0; /* MSIP/MTIP are read-only here */
	default: return -1;
	}
}

