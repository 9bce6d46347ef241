/* Privilege-mode layer for S-mode images (OpenSBI payload): user-level counter
 * CSRs (OpenSBI enables them in mcounteren) and stvec.  HPM counters are
 * inhibited until started through the SBI PMU extension, which is how
 * pm_event_setup programs them (and pm_pmu_check tests the extension). */
#include "platform.h"
#include "rvmess/fdt.h" /* RVM_MAX_HARTS */
#include "common/sbi_call.h"

#define PM_CYCLE    "rdcycle %0"
#define PM_INSTRET  "rdinstret %0"
#define PM_TVEC     "stvec"
#define PM_IE       "sie"
#define PM_SOFT_IE  2ul /* SSIE */
#define PM_HPM_BASE "0xc00"
#define PM_SBI_PMU  1 /* pm_pmu_check below */
#include "pmode.inc"

unsigned rvm_hartid(void); /* firmware/hart.c */

/* SBI PMU extension (SBI spec v1.0, chapter 11) */
#define SBI_EXT_BASE            0x10
#define SBI_BASE_PROBE_EXT      3
#define SBI_EXT_PMU             0x504d55
#define SBI_PMU_NUM_COUNTERS    0
#define SBI_PMU_COUNTER_INFO    1
#define SBI_PMU_CONFIG_MATCHING 2
#define SBI_PMU_COUNTER_STOP    4
#define SBI_PMU_STOP_RESET      1ul /* stop and release the counter */
#define SBI_PMU_CFG_AUTO_START  4ul /* no CLEAR_VALUE: cycle and instret are the */
#define SBI_PMU_CFG_CLEAR_VALUE 2ul /* CSRs the image times with; never reset them */
/* event_idx: type << 16 | code.  Hardware general events (type 0), and
 * hardware cache events (type 1): cache_id << 3 | op << 1 | result. */
#define SBI_PMU_HW_CPU_CYCLES   0x00001
#define SBI_PMU_HW_INSTRUCTIONS 0x00002
#define SBI_PMU_CACHE(id, op, result) (0x10000 | (id) << 3 | (op) << 1 | (result))
#define SBI_PMU_L1D_READ_MISS   SBI_PMU_CACHE(0, 0, 1)
#define SBI_PMU_LL_READ_MISS    SBI_PMU_CACHE(2, 0, 1)
#define PM_PMU_LOOP 10000 /* iterations of pm_pmu_check's 2-instruction loop */

static int have_pmu(void)
{
	struct sbiret r = sbi_call(SBI_EXT_BASE, SBI_BASE_PROBE_EXT, SBI_EXT_PMU, 0, 0);
	return r.error == 0 && r.value != 0;
}

/*
 * Find a counter for `event` on the calling hart and start it.  Returns the
 * user CSR number that reads it (cycle 0xc00 .. hpmcounter31 0xc1f) and its
 * SBI index in *idx, or 0 with the SBI error in *err (firmware counters have
 * no CSR: refused).
 */
static unsigned counter_for(unsigned long event, unsigned long flags, long *err, long *idx)
{
	/* any counter: the mask must not name more than the firmware has */
	long n = sbi_call(SBI_EXT_PMU, SBI_PMU_NUM_COUNTERS, 0, 0, 0).value;
	long mask = n >= 64 ? -1L : n > 0 ? (long)((1ul << n) - 1) : 0;
	struct sbiret r = sbi_call5(SBI_EXT_PMU, SBI_PMU_CONFIG_MATCHING, 0, mask,
				    (long)(SBI_PMU_CFG_AUTO_START | flags), (long)event, 0);
	if (r.error) {
		*err = r.error;
		return 0;
	}
	*idx = r.value;
	struct sbiret info = sbi_call(SBI_EXT_PMU, SBI_PMU_COUNTER_INFO, r.value, 0, 0);
	unsigned csr = (unsigned)(info.value & 0xfff);
	if (info.error || info.value < 0 || csr < 0xc00 || csr > 0xc1f) {
		*err = info.error ? info.error : -1;
		return 0;
	}
	*err = 0;
	return csr;
}

static uint64_t read_counter_csr(unsigned csr)
{
	unsigned n = csr - 0xc00;
	if (n == 0)
		return pm_cycles();
	if (n == 2)
		return pm_instret();
	return pm_hpm_read(n);
}

static const char *sbi_err_name(long e)
{
	static const char *const names[] = { "ok", "failed", "not_supported", "invalid_param",
					     "denied", "invalid_address", "already_available",
					     "already_started", "already_stopped" };
	return e <= 0 && e >= -8 ? names[-e] : "error";
}

/* The calling hart's counters for the pm_event set, by hartid. */
static uint16_t ev_csr[RVM_MAX_HARTS][2];

/* Once per hart: the counters stay with it for the rest of the run. */
int pm_event_setup(void)
{
	unsigned h = rvm_hartid();
	long err, idx;

	if (h >= RVM_MAX_HARTS)
		return -1;
	if (ev_csr[h][PM_EV_L1D_MISS] && ev_csr[h][PM_EV_LLC_MISS])
		return 0;
	if (ev_csr[h][PM_EV_L1D_MISS] || ev_csr[h][PM_EV_LLC_MISS] || !have_pmu())
		return -1; /* tried before, and only one event could be counted */
	ev_csr[h][PM_EV_L1D_MISS] = (uint16_t)counter_for(SBI_PMU_L1D_READ_MISS, SBI_PMU_CFG_CLEAR_VALUE, &err, &idx);
	ev_csr[h][PM_EV_LLC_MISS] = (uint16_t)counter_for(SBI_PMU_LL_READ_MISS, SBI_PMU_CFG_CLEAR_VALUE, &err, &idx);
	return ev_csr[h][PM_EV_L1D_MISS] && ev_csr[h][PM_EV_LLC_MISS] ? 0 : -1;
}

uint64_t pm_event_read(enum pm_event e)
{
	unsigned h = rvm_hartid();
	if (h >= RVM_MAX_HARTS || !ev_csr[h][e])
		return 0;
	return read_counter_csr(ev_csr[h][e]);
}

/* Whether the firmware counts the cache event (a riscv,pmu node maps it):
 * its SBI error name; a counter it gave is released again. */
static const char *cache_event(unsigned long event)
{
	long err, idx;

	if (counter_for(event, SBI_PMU_CFG_CLEAR_VALUE, &err, &idx)) {
		sbi_call(SBI_EXT_PMU, SBI_PMU_COUNTER_STOP, idx, 1, (long)SBI_PMU_STOP_RESET);
		err = 0;
	}
	return sbi_err_name(err);
}

int pm_pmu_check(struct pm_pmu_check *c)
{
	long err, idx;
	unsigned cyc, ins;
	unsigned long n = PM_PMU_LOOP;
	uint64_t c0, i0, rc0, ri0, c1, i1, rc1, ri1;

	if (!have_pmu())
		return -1;
	c->counters = (uint32_t)sbi_call(SBI_EXT_PMU, SBI_PMU_NUM_COUNTERS, 0, 0, 0).value;
	/* cycle and instret are left running: the image times with them */
	cyc = counter_for(SBI_PMU_HW_CPU_CYCLES, 0, &err, &idx);
	c->cycles_err = sbi_err_name(err);
	ins = counter_for(SBI_PMU_HW_INSTRUCTIONS, 0, &err, &idx);
	c->instret_err = sbi_err_name(err);
	c->cycles_csr = cyc;
	c->instret_csr = ins;
	c->loop_insns = 2 * PM_PMU_LOOP;
	rc0 = pm_cycles();
	ri0 = pm_instret();
	c0 = cyc ? read_counter_csr(cyc) : 0;
	i0 = ins ? read_counter_csr(ins) : 0;
	/* exactly 2 instructions per iteration */
	__asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n) : : "memory");
	i1 = ins ? read_counter_csr(ins) : 0;
	c1 = cyc ? read_counter_csr(cyc) : 0;
	ri1 = pm_instret();
	rc1 = pm_cycles();
	c->cycles = c1 - c0;
	c->instret = i1 - i0;
	c->rdcycle = rc1 - rc0;
	c->rdinstret = ri1 - ri0;
	c->l1d = cache_event(SBI_PMU_L1D_READ_MISS);
	c->llc = cache_event(SBI_PMU_LL_READ_MISS);
	return 0;
}
