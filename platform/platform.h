/*
 * The one interface between the rvmess firmware and a target.
 *
 * Each platform/<name>/ folder provides `const struct platform plat` and a
 * platform.mk that names its sources, its boot mode (M or S) and its link
 * script.  The firmware never tests which platform it runs on; everything
 * that differs is a field or an operation here.
 *
 * Privilege-mode specifics (which counter CSRs, which trap CSRs) are
 * implemented once in platform/common/{mmode,smode}.c and chosen by the
 * platform's makefile fragment.
 */
#ifndef RVMESS_PLATFORM_H
#define RVMESS_PLATFORM_H

#include <stdint.h>

struct fdt_info; /* firmware/include/rvmess/fdt.h */

struct platform {
	const char *name;      /* "virt", "sbi", "spike", ... */
	const char *mode;      /* "M" or "S" */

	/* Defaults used when no FDT is passed or it is refused. */
	uint64_t default_mem_base, default_mem_size;
	uint64_t default_timebase;   /* Hz */
	uint32_t default_harts;      /* harts 0..n-1 */

	/*
	 * Called once on the lead hart before anything is printed, with the
	 * parsed FDT (zero fields mean "not found"), or NULL when there is no
	 * usable FDT (then platform defaults).  Finds the console, exit and
	 * IPI devices.
	 */
	void (*init)(const struct fdt_info *fdt);

	/* Write one byte to the console (the caller holds the console lock). */
	void (*putc)(char c);

	/*
	 * Start hart `hartid` at `entry` with a1 = `opaque`.  NULL when all harts
	 * enter the image together (M-mode boot).  Returns 0 or an SBI error.
	 */
	long (*start_hart)(unsigned long hartid, uintptr_t entry, uintptr_t opaque);

	/*
	 * Wake hart `hartid` out of pm_idle() (a software interrupt: CLINT msip
	 * or SBI IPI), and clear the calling hart's pending wake-up.  NULL when
	 * the platform has none; waiting harts then spin.
	 */
	void (*ipi_send)(unsigned long hartid);
	void (*ipi_clear)(void);

	/* End the run: status 0 = success.  Never returns. */
	void (*exit)(int status) __attribute__((noreturn));

	/*
	 * Optional (0 / NULL: the common behaviour), for targets whose device
	 * tree or end of run need help (platform/harness: cva6, platform/tiles: openpiton).
	 */
	/* Hz: the true timebase, used instead of the FDT's (a DTB known to lie). */
	uint64_t timebase;
	/* rvm_park() calls it instead of sleeping in `wfi` forever: a target
	 * whose end needs every hart at a given pc (OpenPiton's `pass`). */
	void (*park)(void) __attribute__((noreturn));
	/* Empty the calling hart's private data cache, so that its next loads
	 * read what the other harts stored (OpenPiton: Ariane's L1D, through
	 * CSR 0x701).  Where it exists, a wait for another hart's store that
	 * lasts long flushes and looks again, which tells a store that never
	 * became visible from one not made yet (firmware/wait.c). */
	void (*flush)(void);
};

extern const struct platform plat;

/*
 * Privilege-mode layer (platform/common/mmode.c or smode.c).
 */
uint64_t pm_cycles(void);
uint64_t pm_instret(void);
/* Timebase ticks: the `time` CSR if it works here, else CLINT mtime, or the
 * cycle counter after pm_time_from_cycles(). */
uint64_t pm_time(void);
/* Point the timer at a CLINT mtime register (M-mode without a time CSR). */
void pm_set_mtime(volatile uint64_t *mtime);
/* Count time in cycles (no timer here, or it does not advance). */
void pm_time_from_cycles(void);
/* Install the trap vector on the calling hart. */
void pm_trap_init(void);
/*
 * Let a software interrupt end `wfi` on the calling hart (enabled in mie/sie
 * only: interrupts stay globally disabled, nothing is taken), and wait for one.
 * pm_idle() may also return early.
 */
void pm_idle_init(void);
void pm_idle(void);
/* Read the HPM counter n (3..31), or 0 when it cannot be read here. */
uint64_t pm_hpm_read(unsigned n);

/*
 * Memory-system counters found through the FDT (platform/common/counters.c):
 * a memory-controller block (compatible "rvmess,memctl-counters": 64-byte
 * read and write transfers, layout in docs/memsys.md) and the HPM event ids
 * that count the calling hart's L1D and LLC misses.  Called once by the lead
 * after plat.init (fdt NULL: none of them).
 */
void pm_counters_init(const struct fdt_info *fdt);

struct pm_memctl {
	uint64_t reads, writes;  /* 64-byte transfers since reset */
	uint64_t peak_mbps;      /* the controller's theoretical peak, 0 if unknown */
};
/* 0 and the counters, or -1 when the platform has none. */
int pm_memctl_read(struct pm_memctl *m);

/*
 * The calling hart enters (on = 1) or leaves (on = 0) code whose timing no
 * measurement reads: building a chain, filling a buffer.  A simulator may run
 * it untimed (hostsim: the memctl block's PHASE register, when reading it
 * says the hint is offered; docs/hostsim.md "Set-up phases"); everywhere
 * else it does nothing.  Calls pair up and do not nest.
 */
void pm_setup_phase(int on);

enum pm_event { PM_EV_L1D_MISS = 0, PM_EV_LLC_MISS = 1 };
/* Program the calling hart's counters for the pm_event set: 0, or -1 when
 * this platform or mode cannot count them.  (Privilege-mode layer.) */
int pm_event_setup(void);
uint64_t pm_event_read(enum pm_event e);
/* The event ids pm_counters_init found (0 = unknown), for the mode layer. */
extern uint64_t pm_event_id[2];

/*
 * The SBI PMU extension's self-check (S-mode; the lead, once, at boot): the
 * firmware's counters for cycles and instructions (SBI config-matching, auto
 * start) read around a loop of loop_insns instructions, beside the cycle and
 * instret CSRs read around the same loop; and whether the firmware maps the
 * L1D and last-level read-miss cache events.  Returns 0, or -1 when there is
 * no SBI PMU (M-mode, old firmware): then nothing is filled.
 */
struct pm_pmu_check {
	uint32_t counters;                /* the SBI PMU's number of counters */
	uint32_t cycles_csr, instret_csr; /* the CSRs of the counters it gave (0: none) */
	const char *cycles_err, *instret_err; /* "ok" or the SBI error's name */
	uint64_t loop_insns;              /* instructions in the measured loop */
	uint64_t cycles, instret;         /* deltas on the SBI PMU's counters */
	uint64_t rdcycle, rdinstret;      /* deltas on the cycle / instret CSRs */
	const char *l1d, *llc;            /* the cache events: "ok" or the SBI error's name */
};
int pm_pmu_check(struct pm_pmu_check *c);

/*
 * Trap entry calls this (firmware/trap.c) with the trap CSRs of the current
 * mode.  Returns the pc to resume at.
 */
uintptr_t rvm_trap(uintptr_t cause, uintptr_t epc, uintptr_t tval);

#endif
