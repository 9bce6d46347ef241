/*
 * Boot: the AMO lottery, the lead's initialisation (BSS, FDT, platform,
 * timer, heap, config), the header records, starting/releasing the other
 * harts, the first rendezvous, the suites and the end of the run.  The top
 * of the firmware's layers (docs/layers.md): nothing below calls in here.
 */
#include "platform.h"
#include "rvmess/rt.h"
#include "cfg.h"
#include "sync.h"
#include "suites/suites.h"

#ifndef RVM_VERSION
#define RVM_VERSION "dev"
#endif

_Static_assert(RVM_MAX_HARTS == 64, "firmware/start.S and linker/sections.ld assume 64 harts");

extern char __bss_start[], __bss_end[], _end[], _start[];
extern volatile uint32_t rvm_console_ready;

/* In .data, not .bss: they are used before the lead clears .bss. */
static volatile uint32_t lottery __attribute__((section(".data"))) = 0;
static volatile uint32_t boot_go __attribute__((section(".data"))) = 0;

static uint32_t ncpus_fdt;            /* enabled harts in the FDT (or default) */
static uint32_t cnt_start_failed;
static int time_src;                  /* 0 time CSR, 1 CLINT mtime, 2 none, 3 dead (2, 3: cycles) */

#define FDT_MAXLEN (2u << 20)

/*
 * The blob is read once into this buffer and parsed there (fdt_copy): on
 * OpenPiton it lies in the boot ROM, uncached, where each of the parser's
 * byte loads was a NoC round trip (docs/platforms.md).  32 KiB holds every
 * tree rvmess targets have at 64 harts (QEMU virt's is 27 KiB, OpenPiton's
 * 22 KiB, hostsim's 23 KiB); a larger blob is parsed in place, as before.
 * Not in .bss: nothing reads it before the copy writes it, so the lead need
 * not clear it (linker/sections.ld, .noinit).
 */
#define FDT_COPY_MAX (32u << 10)
static uint8_t fdt_copy_buf[FDT_COPY_MAX] __attribute__((section(".noinit"), aligned(64)));

static void read_time_csr(void)
{
	uint64_t t;
	__asm__ volatile("rdtime %0" : "=r"(t));
	(void)t;
}

/*
 * Cycles per second of the calling hart, measured over 5 ms of timebase from
 * one timer edge to another: the cycle count is exact to a loop iteration at
 * each end (a few cycles in millions), and every ns the suites print derives
 * from it (meas_take).
 */
static uint64_t measure_hz(void)
{
	uint64_t want = rvm.timebase / 200, t0, t1, c0, c1;
	uint32_t guard = 0;

	if (!want)
		want = 1;
	t1 = pm_time();
	do /* wait for an edge of the timer */
		t0 = pm_time();
	while (t0 == t1 && ++guard < 200000000u);
	c0 = pm_cycles();
	guard = 0;
	do {
		t1 = pm_time();
	} while (t1 - t0 < want && ++guard < 200000000u);
	c1 = pm_cycles();
	if (t1 == t0)
		return 0;
	return rvm_muldiv(c1 - c0, rvm.timebase, t1 - t0);
}

/* this hart's `hart` record (every participant, at the first rendezvous) */
static void hart_record(void)
{
	unsigned h = rvm_hartid();
	uint32_t idx = 0;
	struct rec r;

	for (uint32_t i = 0; i < rvm.nharts; i++)
		if (rvm.hartids[i] == h)
			idx = i;
	rec_begin(&r, REC_HART);
	rec_u(&r, "idx", idx);
	rec_u(&r, "cpu_hz", rvm.cpu_hz[h]);
	rec_u(&r, "cycle", pm_cycles());
	rec_u(&r, "instret", pm_instret());
	rec_emit(&r);
}

static void clear_bss(void)
{
	for (volatile uint64_t *p = (volatile uint64_t *)__bss_start;
	     p < (volatile uint64_t *)__bss_end; p++)
		*p = 0;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static const volatile uint32_t *probe_addr;

static void read_probe_addr(void)
{
	(void)*probe_addr;
}

/* FDT, memory, harts, timebase: from the blob or the platform defaults. */
static void discover(unsigned long hartid, const void *fdt)
{
	uintptr_t f = (uintptr_t)fdt;

	rvm.fdt_state = 2;
	probe_addr = (const volatile uint32_t *)f;
	if (f && !(f & 7) && rvm_probe(read_probe_addr)) {
		/* a1 points at nothing readable: refuse it instead of faulting */
		rvm.fdt_state = 1;
		rvm_fdt.reason = "unreadable";
		rvm_fdt.err_off = 0;
	} else if (f && !(f & 7)) {
		/* bounded by the end of RAM: the default window when the blob lies in
		 * it, else 2 MiB (QEMU puts the blob 2 MiB below the end of RAM) */
		uint64_t maxlen = FDT_MAXLEN;
		uint64_t wend = plat.default_mem_base + plat.default_mem_size;
		if (f >= plat.default_mem_base && f < wend && wend - f < maxlen)
			maxlen = wend - f;
		size_t len;
		const void *p = fdt_copy(fdt, (size_t)maxlen, fdt_copy_buf, sizeof fdt_copy_buf, &len);
		rvm.fdt_state = fdt_parse(p, len, &rvm_fdt) == 0 ? 0 : 1;
	}

	rvm.mem_base = plat.default_mem_base;
	rvm.mem_size = plat.default_mem_size;
	rvm.timebase = plat.default_timebase;
	rvm.isa = "unknown";
	rvm.nharts = 0;
	if (rvm.fdt_state == 0) {
		if (rvm_fdt.mem_size) {
			rvm.mem_base = rvm_fdt.mem_base;
			rvm.mem_size = rvm_fdt.mem_size;
		}
		if (rvm_fdt.timebase)
			rvm.timebase = rvm_fdt.timebase;
		ncpus_fdt = 0;
		for (uint32_t i = 0; i < rvm_fdt.nharts && i < RVM_MAX_HARTS; i++) {
			const struct fdt_hart *fh = &rvm_fdt.harts[i];
			if (!fh->enabled)
				continue;
			ncpus_fdt++;
			if (fh->hartid == hartid && fh->isa[0])
				rvm.isa = fh->isa;
			if (fh->hartid < RVM_MAX_HARTS)
				rvm.hartids[rvm.nharts++] = fh->hartid;
		}
	} else {
		ncpus_fdt = plat.default_harts;
		for (uint32_t i = 0; i < plat.default_harts && i < RVM_MAX_HARTS; i++)
			rvm.hartids[rvm.nharts++] = i;
	}
	if (plat.timebase) /* the platform knows its DTB's timebase is wrong */
		rvm.timebase = plat.timebase;
	/* the lead always takes part */
	int seen = 0;
	for (uint32_t i = 0; i < rvm.nharts; i++)
		seen |= rvm.hartids[i] == hartid;
	if (!seen) {
		if (rvm.nharts == RVM_MAX_HARTS)
			rvm.nharts--;
		rvm.hartids[rvm.nharts++] = (uint32_t)hartid;
	}
}

static void limit_harts(uint32_t max)
{
	uint32_t n = 0;

	if (!max || rvm.nharts <= max)
		return;
	/* keep the lead, then the first others in FDT order */
	uint32_t keep[RVM_MAX_HARTS];
	keep[n++] = rvm.lead;
	for (uint32_t i = 0; i < rvm.nharts && n < max; i++)
		if (rvm.hartids[i] != rvm.lead)
			keep[n++] = rvm.hartids[i];
	/* back into FDT order */
	uint32_t m = 0;
	for (uint32_t i = 0; i < rvm.nharts; i++)
		for (uint32_t j = 0; j < n; j++)
			if (keep[j] == rvm.hartids[i])
				rvm.hartids[m++] = rvm.hartids[i];
	rvm.nharts = m;
}

/* The heap: from the end of the image to the end of RAM, below the FDT blob
 * and any reserved region above the image.  It starts on a 2 MiB boundary so
 * that the image growing by some code does not move it: every address the
 * suites use, and with them cache-set and DRAM-bank placement, stays put.
 * The blob is the one a1 points to, even when the image parses its own
 * copy: where it lies in RAM the heap's top holds the chase rings, which
 * freeing it would move; a blob too large for the copy is still read there;
 * and the firmware below may still use its tree (docs/platforms.md, "The
 * device-tree copy"). */
#define HEAP_ALIGN (2ull << 20)

static void heap_setup(const void *fdt)
{
	uint64_t lo = align_up((uint64_t)(uintptr_t)_end, HEAP_ALIGN);
	uint64_t hi = rvm.mem_base + rvm.mem_size;
	uint64_t f = (uint64_t)(uintptr_t)fdt;

	if (f > lo && f < hi)
		hi = f;
	if (rvm.fdt_state == 0)
		for (uint32_t i = 0; i < rvm_fdt.nrsv && i < RVM_FDT_MAX_RSV; i++) {
			uint64_t b = rvm_fdt.rsv[i].base, e = b + rvm_fdt.rsv[i].size;
			if (e > lo && b < hi) {
				if (b >= lo)
					hi = b;
				else
					lo = align_up(e, 4096); /* overlaps the start: skip past it */
			}
		}
	hi &= ~(uint64_t)4095;
	rvm.heap_base = lo;
	rvm.heap_size = hi > lo ? hi - lo : 0;
}

/*
 * Cycles the timer gets to advance once before it is taken for dead: it
 * ticks every cpu_hz / timebase cycles (100 on hostsim, 128 on OpenPiton, a
 * few thousand for a 1 MHz timer on a GHz core).  A dead timer (a chipset
 * whose real-time clock input is tied off) would otherwise stop the image in
 * its calibration and leave every timeout unable to fire.
 */
#define TIMER_DEAD_CYCLES (1u << 20)
#define CYCLES_TIMEBASE 1000000000u /* the timebase assumed when time is cycles */

static int timer_advances(void)
{
	uint64_t t0 = pm_time(), c0 = pm_cycles();

	for (uint32_t i = 0; i < 200000000u; i++) { /* bounded even without a cycle counter */
		if (pm_time() != t0)
			return 1;
		if (pm_cycles() - c0 > TIMER_DEAD_CYCLES)
			return 0;
	}
	return 0;
}

static void timer_setup(void)
{
	time_src = 0;
	if (rvm_probe(read_time_csr)) { /* reading `time` traps here */
		time_src = 2;
		if (rvm.fdt_state == 0 && rvm_fdt.clint_base) {
			pm_set_mtime((volatile uint64_t *)(uintptr_t)(rvm_fdt.clint_base + 0xbff8));
			time_src = 1;
		}
	}
	if (time_src != 2 && !timer_advances())
		time_src = 3;
	rvm.time_shared = time_src <= 1;
	if (time_src >= 2) { /* see the warn record */
		pm_time_from_cycles();
		rvm.timebase = CYCLES_TIMEBASE;
	}
}

static void hdr_record(void)
{
	struct rec r;

	rec_begin(&r, REC_HDR);
	rec_u(&r, "proto", 1);
	rec_s(&r, "platform", plat.name);
	rec_s(&r, "mode", plat.mode);
	rec_u(&r, "harts", ncpus_fdt);
	rec_ulist(&r, "hartids", rvm.hartids, rvm.nharts);
	rec_s(&r, "isa", rvm.isa);
	rec_u(&r, "timebase", rvm.timebase);
	rec_x(&r, "mem_base", rvm.mem_base);
	rec_u(&r, "mem_size", rvm.mem_size);
	rec_x(&r, "heap_base", rvm.heap_base);
	rec_u(&r, "heap_size", rvm.heap_size);
	rec_s(&r, "fdt", rvm.fdt_state == 0 ? "ok" : rvm.fdt_state == 1 ? "bad" : "none");
	rec_u(&r, "cpu_hz", rvm.cpu_hz[rvm.lead]);
	rec_s(&r, "version", RVM_VERSION);
	/* the largest cache the FDT describes, 0: none (rvmess parse names
	 * the last lat plateau memory only beyond it, docs/formats.md) */
	rec_u(&r, "cache_max", rvm.fdt_state == 0 ? rvm_fdt.cache_max : 0);
	rec_emit(&r);
}

static void start_others(const void *fdt)
{
	if (!plat.start_hart)
		return;
	for (uint32_t i = 0; i < rvm.nharts; i++) {
		uint32_t h = rvm.hartids[i];
		if (h == rvm.lead)
			continue;
		long rc = plat.start_hart(h, (uintptr_t)_start, (uintptr_t)fdt);
		if (rc) {
			struct rec r;
			rec_begin(&r, REC_START);
			rec_u(&r, "hart", h);
			rec_u(&r, "rc", (uint64_t)-rc); /* SBI errors are negative: rc=3 is -3 */
			rec_emit(&r);
			sync_mark(h, HS_MISSING);
			cnt_start_failed++;
		}
	}
}

/* A hart that was written off (missing/hung) must not print any more. */
static int may_print(void)
{
	unsigned h = rvm_hartid();
	uint32_t st = rvm_hstate[h] & 0xffu;

	return h == rvm.lead || (st != HS_MISSING && st != HS_HUNG);
}

/* S-mode: what the SBI PMU extension gives (platform.h, pm_pmu_check) */
static void pmu_record(void)
{
	struct pm_pmu_check c;
	struct rec r;

	if (pm_pmu_check(&c) < 0)
		return;
	rec_begin(&r, REC_PMU);
	rec_u(&r, "counters", c.counters);
	rec_x(&r, "cycles_csr", c.cycles_csr);
	rec_s(&r, "cycles_err", c.cycles_err);
	rec_x(&r, "instret_csr", c.instret_csr);
	rec_s(&r, "instret_err", c.instret_err);
	rec_u(&r, "loop_insns", c.loop_insns);
	rec_u(&r, "cycles", c.cycles);
	rec_u(&r, "instret", c.instret);
	rec_u(&r, "rdcycle", c.rdcycle);
	rec_u(&r, "rdinstret", c.rdinstret);
	rec_s(&r, "l1d", c.l1d);
	rec_s(&r, "llc", c.llc);
	rec_emit(&r);
}

static void lead_main(unsigned long hartid, const void *fdt)
{
	clear_bss();
	rvm.lead = (uint32_t)hartid;
	cfg_load(&rvm.cfg);
	discover(hartid, fdt);
	plat.init(rvm.fdt_state == 0 ? &rvm_fdt : 0);
	pm_counters_init(rvm.fdt_state == 0 ? &rvm_fdt : 0);
	rec_gate = may_print;
	rvm_console_ready = 1;
	timer_setup();
	heap_setup(fdt);
	rvm.cpu_hz[hartid] = measure_hz();
	if (rvm.cfg.max_harts <= RVM_MAX_HARTS)
		limit_harts(rvm.cfg.max_harts);

	hdr_record();
	if (rvm.fdt_state == 1) {
		struct rec r;
		rec_begin(&r, REC_FDT);
		rec_s(&r, "status", "bad");
		rec_s(&r, "reason", rvm_fdt.reason);
		rec_u(&r, "off", rvm_fdt.err_off);
		rec_emit(&r);
	}
	cfg_record(&rvm.cfg);
	pmu_record();
	rvm.cfg_ok = cfg_check(&rvm.cfg, rvm.heap_size) == 0;
	if (time_src == 2)
		rvm_warn("timer", "no_time_csr_and_no_clint:_time_is_cycles_at_an_assumed_1_GHz");
	if (time_src == 3)
		rvm_warn("timer", "the_timer_does_not_advance:_time_is_cycles_at_an_assumed_1_GHz");
	if (rvm.cfg_ok) {
		if (rvm.cfg.inject_hang == hartid + 1)
			rvm_warn("inject_hang", "the_lead_cannot_hang:_ignored");
		suites_check(&rvm.cfg);
	}

	sync_init();
	rvm_fence();
	rvm_store_pub(&boot_go, 1);
	start_others(fdt);
	sync_first();
	rvm_lead_release(CMD_HART_RECORD, 0);
	hart_record();
	rvm_lead_collect(CMD_HART_RECORD, "hart");
	sync_report_missing();

	if (rvm.cfg_ok)
		suites_run_all();
	rvm_finish();
}

/* A follower's part of a rendezvous the boot code or a suite released. */
static void follow_cmd(uint32_t cmd, uint32_t arg)
{
	if (cmd == CMD_HART_RECORD)
		hart_record();
	else
		suites_follow(cmd, arg);
}

void rvm_entry(unsigned long hartid, const void *fdt)
{
	pm_trap_init();
	if (__atomic_exchange_n(&lottery, 1u, __ATOMIC_ACQ_REL) == 0)
		lead_main(hartid, fdt);

	struct rvm_wait w;
	uint32_t go;
	rvm_wait_begin(&w, "boot");
	while (rvm_wait_poll(&w), !(go = __atomic_load_n(&boot_go, __ATOMIC_ACQUIRE)))
		;
	rvm_wait_saw(&w, &boot_go, go);
	if ((rvm_hstate[hartid] & 0xffu) != HS_ALIVE)
		rvm_park(); /* not taking part (max_harts, failed start) */
	rvm.cpu_hz[hartid] = measure_hz();
	if (rvm.cfg_ok && rvm.cfg.inject_hang == hartid + 1)
		rvm_park(); /* fault injection: never arrive */
	if (!sync_arrive(1, HS_ALIVE))
		rvm_park(); /* too late: written off as missing */
	rvm_follow(follow_cmd);
}
