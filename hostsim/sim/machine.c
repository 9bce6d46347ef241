/*
 * hostsim machine: RAM, devices state, DTB placement and the hart scheduler.
 *
 * Scheduler (documented in docs/hostsim.md):
 *  - functional (--no-timing): round robin, each hart runs `quantum`
 *    instructions per turn (default 64), hart 0 first; a wfi ends a turn.
 *  - timing: the hart with the smallest local clock runs (ties: lowest id)
 *    until its clock passes the next-smallest clock by TIMING_SLACK cycles
 *    (or TIMING_CHUNK instructions), then the choice is made again (the
 *    harts sorted by (clock, id), sched.h: the hart that ran is inserted
 *    again from the back, usually a few steps).
 * Pending interrupts are taken at the start of each turn (and right after
 * writes to mstatus/mie and after mret).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include "sim/sim.h"
#include "sim/wmem.h"
#include "sim/timing.h"
#include "sim/sched.h"
#include "sim/csr.h"
#include "sim/memsys.h"
#include "rvmess/memctl.h"

#define TIMING_SLACK 16u
#define TIMING_CHUNK 4096u
#define TIMING_AGES (1u << 20)
#define FDT_MAX (64 * 1024)

int sim_init(struct sim *s, const struct sim_opts *o, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->opt = *o;
	s->mach = sim_machine_get(o->machine);
	if (!s->mach) {
		snprintf(err, errlen, "unknown machine %u", o->machine);
		return -1;
	}
	s->no_time_csr = s->mach->no_time_csr;
	if (o->inject[SIM_F_LOST_INVAL] && o->machine != SIM_MACH_OPENPITON) {
		snprintf(err, errlen, "--inject lost-inval applies to --machine openpiton only (Ariane's L1D, flushed through CSR 0x701)");
		return -1;
	}
	if (o->no_piton_memctr && o->machine != SIM_MACH_OPENPITON) {
		snprintf(err, errlen, "--no-piton-memctr applies to --machine openpiton only");
		return -1;
	}
	if (o->piton_uart && o->machine != SIM_MACH_OPENPITON) {
		snprintf(err, errlen, "--piton-uart applies to --machine openpiton only");
		return -1;
	}
	if (o->inject[SIM_F_LOST_INVAL] && o->mem_order == SIM_MO_RVWMO) {
		snprintf(err, errlen, "--inject lost-inval does not combine with --memory-order rvwmo");
		return -1;
	}
	if (s->mach->mtime_div) { /* mtime ticks every mtime_div core clocks */
		s->opt.timebase = s->opt.freq_mhz * 1000000ull / s->mach->mtime_div;
		if (s->opt.timebase * s->mach->mtime_div != s->opt.freq_mhz * 1000000ull) {
			snprintf(err, errlen, "--machine %s: mtime ticks every %u clocks, and %llu MHz / %u is not a whole number of Hz: use an even --freq-mhz",
			         s->mach->name, s->mach->mtime_div, (unsigned long long)s->opt.freq_mhz, s->mach->mtime_div);
			return -1;
		}
	}
	if (s->opt.console)
		s->opt.console = s->opt.strings[0];
	if (s->opt.dtb)
		s->opt.dtb = s->opt.strings[2];
	s->ram_base = SIM_RAM_BASE;
	s->ram_size = o->mem_size;
	s->nharts = o->harts;
	if (o->harts < 64 && o->fdt_disabled >> o->harts) {
		snprintf(err, errlen, "--fdt-disabled %u: there are only %u harts", 63 - (unsigned)__builtin_clzll(o->fdt_disabled),
		         o->harts);
		return -1;
	}
	void *ram = mmap(NULL, s->ram_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (ram == MAP_FAILED) {
		snprintf(err, errlen, "cannot map %llu bytes of RAM", (unsigned long long)s->ram_size);
		return -1;
	}
	s->ram = ram;
	s->npages = (s->ram_size + 4095) >> 12;
	s->dpages = calloc(s->npages + 1, sizeof(*s->dpages));
	s->harts = calloc(s->nharts, sizeof(*s->harts));
	if (!s->dpages || !s->harts) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (unsigned i = 0; i < SIM_MAX_HARTS; i++)
		s->mtimecmp[i] = ~0ull;
	s->console = stdout;
	if (sim_devs_init(s)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (tm_init(s, err, errlen))
		return -1;
	return 0;
}

/* like QEMU virt: the DTB at the end of RAM, aligned down to 2 MiB (4 KiB
 * when RAM is small) */
static int fdt_to_ram(struct sim *s, const uint8_t *buf, int n, char *err, size_t errlen)
{
	uint64_t end = s->ram_base + s->ram_size;
	uint64_t align = s->ram_size >= (16ull << 20) ? (2ull << 20) : 4096;
	uint64_t a = (end - (uint64_t)n) & ~(align - 1);
	if (s->image_hi > a) {
		snprintf(err, errlen, "the image [0x%llx, 0x%llx) overlaps the device tree at 0x%llx: use a larger --mem-size",
		         (unsigned long long)s->image_lo, (unsigned long long)s->image_hi, (unsigned long long)a);
		return -1;
	}
	memcpy(s->ram + (a - s->ram_base), buf, (size_t)n);
	s->fdt_addr = a;
	s->fdt_size = (uint64_t)n;
	return 0;
}

/* --dtb FILE: a flattened device tree as it is (the image's own reader
 * judges its contents); only its header is checked here.  Bytes or -1. */
static int read_dtb(const char *path, uint8_t *buf, size_t cap, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "--dtb %s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	size_t n = fread(buf, 1, cap, f);
	int more = fgetc(f) != EOF;
	fclose(f);
	uint32_t magic = n >= 8 ? (uint32_t)buf[0] << 24 | (uint32_t)buf[1] << 16 | (uint32_t)buf[2] << 8 | buf[3] : 0;
	uint32_t total = n >= 8 ? (uint32_t)buf[4] << 24 | (uint32_t)buf[5] << 16 | (uint32_t)buf[6] << 8 | buf[7] : 0;
	if (magic != 0xd00dfeedu) {
		snprintf(err, errlen, "--dtb %s: not a flattened device tree (no magic 0xd00dfeed)", path);
		return -1;
	}
	if (more || total > cap) {
		snprintf(err, errlen, "--dtb %s: larger than %zu bytes", path, cap);
		return -1;
	}
	if (total < 40 || total > n) {
		snprintf(err, errlen, "--dtb %s: its header says %u bytes, the file has %zu", path, total, n);
		return -1;
	}
	return (int)total;
}

int sim_start(struct sim *s, char *err, size_t errlen)
{
	static uint8_t buf[FDT_MAX];
	int n;
	if (s->opt.dtb) {
		if ((n = read_dtb(s->opt.dtb, buf, sizeof(buf), err, errlen)) < 0)
			return -1;
	} else if ((n = sim_build_fdt(s, buf, sizeof(buf))) < 0) {
		snprintf(err, errlen, "cannot build the device tree");
		return -1;
	}
	int where = sim_mach_place_fdt(s, buf, (size_t)n); /* a profile's boot ROM, or RAM */
	if (where < 0) {
		snprintf(err, errlen, "the device tree does not fit the boot ROM");
		return -1;
	}
	if (where > 0 && fdt_to_ram(s, buf, n, err, errlen))
		return -1;
	for (unsigned i = 0; i < s->nharts; i++)
		sim_hart_reset(s, &s->harts[i], i);
	return wm_init(s, err, errlen);
}

int sim_dump_fdt(const struct sim *s, const char *path, char *err, size_t errlen)
{
	static uint8_t buf[FDT_MAX];
	int n = sim_build_fdt(s, buf, sizeof(buf));
	FILE *f;
	if (n < 0) {
		snprintf(err, errlen, "cannot build the device tree");
		return -1;
	}
	f = fopen(path, "wb");
	if (!f) {
		snprintf(err, errlen, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (fwrite(buf, 1, (size_t)n, f) != (size_t)n) {
		snprintf(err, errlen, "write error: %s", strerror(errno));
		fclose(f);
		return -1;
	}
	if (fclose(f) != 0) {
		snprintf(err, errlen, "write error: %s", strerror(errno));
		return -1;
	}
	return 0;
}

void sim_free(struct sim *s)
{
	wm_free(s);
	tm_free(s);
	sim_devs_free(s);
	if (s->dpages) {
		for (uint64_t i = 0; i <= s->npages; i++)
			free(s->dpages[i]);
		free(s->dpages);
	}
	free(s->harts);
	if (s->ram)
		munmap(s->ram, s->ram_size);
	memset(s, 0, sizeof(*s));
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int limit_reached(struct sim *s, const char *what, uint64_t v)
{
	fflush(s->console);
	fprintf(stderr, "hostsim: %s limit reached (%llu): stopping\n", what, (unsigned long long)v);
	s->stop = 1;
	s->exit_code = SIM_EXIT_LIMIT;
	return 1;
}

/* Cap a turn of n instructions at what --max-insns leaves after `total`
 * (max: the limit, UINT64_MAX for none); 0 when the run stops (a profile's
 * end of run, `poll`, or the limit reached).  The options are read once by
 * the caller; inline: it runs once a turn. */
static inline __attribute__((always_inline)) uint64_t turn_budget(struct sim *s, void (*poll)(struct sim *),
                                                                  uint64_t total, uint64_t max, uint64_t n)
{
	if (poll) { /* a profile's end of run (profiles.h) */
		poll(s);
		if (s->stop)
			return 0;
	}
	if (total >= max) {
		limit_reached(s, "instruction", s->opt.max_insns);
		return 0;
	}
	return n < max - total ? n : max - total;
}

/* sim_check_irq at the start of a turn, its first test inline (most turns
 * run with interrupts off or none enabled). */
static inline __attribute__((always_inline)) void turn_irq(struct sim *s, struct sim_hart *h)
{
	if ((h->mstatus & MSTATUS_MIE) && (h->mie & MIE_MASK))
		sim_check_irq(s, h);
}

static void run_functional(struct sim *s)
{
	const uint64_t q = s->opt.quantum;
	void (*const poll)(struct sim *) = sim_mach(s)->poll;
	const uint64_t max_insns = s->opt.max_insns ? s->opt.max_insns : UINT64_MAX;
	while (!s->stop) {
		for (unsigned i = 0; i < s->nharts && !s->stop; i++) {
			struct sim_hart *h = &s->harts[i];
			uint64_t n = turn_budget(s, poll, s->total_insns, max_insns, q);
			if (!n)
				break;
			turn_irq(s, h);
			if (s->stop)
				break;
			s->total_insns += sim_step_functional(s, h, n);
			if (s->opt.max_cycles && h->clock >= s->opt.max_cycles && !s->stop)
				limit_reached(s, "cycle", s->opt.max_cycles);
		}
	}
}

/*
 * Set-up phases (docs/hostsim.md): a hart that wrote 1 to the memctl PHASE
 * register runs functionally under the timing scheduler, one cycle per
 * instruction (so its clock, mcycle and mtime still advance), memsys not
 * called, until it writes 0.  The store that enters or leaves the phase ends
 * the turn (s->yield), so the switch is exact to the instruction.  Honoured
 * only with the timing model, sequential consistency and no fault injection
 * (the functional path bypasses the store buffers of wmem.c), and not with
 * --no-phase-hint.
 */
static int phase_offered(const struct sim *s)
{
	return !s->opt.no_phase_hint && s->ms && !s->wm;
}

void sim_phase_set(struct sim *s, struct sim_hart *h, uint64_t v)
{
	if (!phase_offered(s) || v > 1)
		return;
	if (h->untimed != (int)v)
		s->yield = 1;
	h->untimed = (int)v;
}

uint64_t sim_phase_get(const struct sim *s, const struct sim_hart *h)
{
	return phase_offered(s) ? RVM_MEMCTL_PHASE_OFFERED | (uint64_t)h->untimed : 0;
}

/* A turn of an untimed hart: as many instructions as cycles are left before
 * `until` (CPI 1), so the scheduler's order by clock still holds. */
static uint64_t step_untimed(struct sim *s, struct sim_hart *h, uint64_t until, uint64_t n)
{
	uint64_t left = until > h->clock ? until - h->clock : 0;
	uint64_t ran = sim_step_functional(s, h, n < left ? n : left);
	h->untimed_insns += ran;
	return ran;
}

/*
 * Completions known later (timing.h: MEMSYS_PEND, the ddr controller).  A
 * hart that waits for one ends its turn with a MEMSYS_PEND clock, so the
 * scheduler puts it after every other (waiting[] marks it).  Before each
 * turn the controller is told how far no request can come from (memsys
 * bound: the smallest clock of the harts that run, and, while some wait,
 * the earliest completion still unknown, as a waiting hart goes on no
 * earlier), and decides its commands up to there; a waiting hart whose
 * completion is then known goes on at it.  With every hart waiting, the
 * controller moves on by that earliest completion, each step at least a
 * column command's latency.  All of it depends on simulated time only.
 */
struct waits {
	uint64_t mask;         /* harts waiting */
	int on;                /* completions come later (tm_defer) */
};

static void wait_check(struct sim *s, struct sched *q, struct waits *w)
{
	for (;;) {
		/* the waiting harts whose completion is known go on first: the
		 * bound below must not pass their clocks */
		for (uint64_t m = w->mask; m; m &= m - 1) {
			unsigned i = (unsigned)__builtin_ctzll(m);
			if (tm_wake(s, &s->harts[i], 0)) {
				w->mask &= ~(1ull << i);
				sched_update_any(q, i, s->harts[i].clock);
			}
		}
		uint64_t b = (uint64_t)(q->h[0] >> 64); /* the smallest running clock */
		if (w->mask) {
			uint64_t lb = memsys_pend_lb(s->ms);
			if (lb < b)
				b = lb;
		}
		if (b & MEMSYS_PEND) { /* every hart waits, and nothing is unknown */
			fprintf(stderr, "hostsim: internal error: every hart waits for a memory completion that never comes\n");
			abort();
		}
		if (!memsys_sync_to(s->ms, b) || !w->mask)
			return;
	}
}

static void run_timing(struct sim *s)
{
	struct sched q;
	uint64_t clk[SIM_MAX_HARTS] = { 0 };
	for (unsigned i = 0; i < s->nharts; i++)
		clk[i] = s->harts[i].clock;
	sched_init(&q, s->nharts, clk);
	/* the once-a-turn tests with their options read once: a profile's end
	 * of run, --max-insns and --max-cycles (0: none, here UINT64_MAX) */
	void (*const poll)(struct sim *) = sim_mach(s)->poll;
	const uint64_t max_insns = s->opt.max_insns ? s->opt.max_insns : UINT64_MAX;
	const uint64_t max_cycles = s->opt.max_cycles ? s->opt.max_cycles : UINT64_MAX;
	uint64_t total = s->total_insns; /* kept in s->total_insns after every turn */
	/* memsys's LRU clocks are checked every TIMING_AGES instructions
	 * (memsys_check_ages: they must not wrap) */
	uint64_t ages_at = total + TIMING_AGES;
	struct waits w = { 0, tm_defer(s) };
	while (!s->stop) {
		if (__builtin_expect(total >= ages_at, 0)) {
			tm_check_ages(s);
			ages_at = total + TIMING_AGES;
		}
		if (w.on)
			wait_check(s, &q, &w);
		/* the hart furthest behind, and the next-smallest clock */
		unsigned best = sched_best(&q);
		uint64_t c2 = sched_second(&q);
		struct sim_hart *h = &s->harts[best];
		/* c2 + TIMING_SLACK (UINT64_MAX when c2 is: no other hart), at
		 * most max_cycles, and below every MEMSYS_PEND value */
		uint64_t until = c2 + TIMING_SLACK;
		if (until < c2)
			until = UINT64_MAX;
		if (until > max_cycles)
			until = max_cycles;
		if (w.on) {
			if (until > MEMSYS_PEND)
				until = MEMSYS_PEND;
			/* while harts wait, a waiting one may go on from the
			 * earliest completion still unknown */
			uint64_t lb = w.mask ? memsys_pend_lb(s->ms) : UINT64_MAX;
			memsys_bound(s->ms, c2 < lb ? c2 : lb);
		}
		uint64_t n = turn_budget(s, poll, total, max_insns, TIMING_CHUNK);
		if (!n)
			break;
		turn_irq(s, h);
		if (s->stop)
			break;
		total += h->untimed ? step_untimed(s, h, until, n) : sim_step_timing(s, h, until, n);
		s->total_insns = total;
		s->yield = 0;
		if (__builtin_expect((h->clock & MEMSYS_PEND) != 0, 0) && w.on) {
			/* it waits for a completion not known yet (or known:
			 * then it goes on at once) */
			if (tm_wake(s, h, 1))
				sched_update_best(&q, h->clock);
			else {
				w.mask |= 1ull << best;
				sched_update_best(&q, h->clock);
				continue;
			}
		} else {
			sched_update_best(&q, h->clock);
		}
		if (h->clock >= max_cycles && !s->stop)
			limit_reached(s, "cycle", s->opt.max_cycles);
	}
	/* harts still waiting at the end: their clock is where they waited from */
	for (uint64_t m = w.mask; m; m &= m - 1) {
		struct sim_hart *wh = &s->harts[__builtin_ctzll(m)];
		wh->clock = wh->blk_t;
		wh->blk_tk = 0;
	}
}

int sim_run(struct sim *s)
{
	double t0 = now_s();
	if (s->opt.timing)
		run_timing(s);
	else
		run_functional(s);
	s->host_seconds = now_s() - t0;
	fflush(s->console);
	return s->exit_code;
}

void sim_print_stats(struct sim *s, FILE *f)
{
	uint64_t maxc = 0;
	fprintf(f, "hostsim stats: harts=%u timing=%s\n", s->nharts, s->opt.timing ? "on" : "off");
	for (unsigned i = 0; i < s->nharts; i++) {
		struct sim_hart *h = &s->harts[i];
		fprintf(f, "  hart %u: instret=%llu cycles=%llu stall=%llu wfi=%llu pc=0x%llx\n", i,
		        (unsigned long long)h->instret, (unsigned long long)h->clock,
		        (unsigned long long)h->stall_cycles, (unsigned long long)h->wfi_count,
		        (unsigned long long)h->pc);
		if (h->clock > maxc)
			maxc = h->clock;
	}
	double mips = s->host_seconds > 0 ? (double)s->total_insns / s->host_seconds / 1e6 : 0;
	fprintf(f, "  total: instructions=%llu max_cycles=%llu host_seconds=%.3f mips=%.1f\n",
	        (unsigned long long)s->total_insns, (unsigned long long)maxc, s->host_seconds, mips);
	sim_dev_print_stats(s, f);
	uint64_t untimed = 0;
	for (unsigned i = 0; i < s->nharts; i++)
		untimed += s->harts[i].untimed_insns;
	if (untimed) /* only when the image used the hint */
		fprintf(f, "  set-up phases: untimed instructions=%llu (%.1f %%)\n", (unsigned long long)untimed,
		        s->total_insns ? 100.0 * (double)untimed / (double)s->total_insns : 0.0);
	tm_print_stats(s, f);
	wm_print_stats(s, f);
}
