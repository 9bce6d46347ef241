/*
 * hostsim options: defaults, one-option setter shared by the command line and
 * --config files, and the config-file reader.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sim/sim.h"
#include "sim/timing.h"
#include "sim/memsys.h"
#include "rvmess/numparse.h"

void sim_opts_default(struct sim_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->harts = 1;
	o->mem_size = 256ull << 20;
	o->timebase = 10000000;
	o->freq_mhz = 1000;
	o->seed = 1;
	o->timing = 1;
	o->quantum = 64;
	o->mshrs = 8;
	o->sb_depth = 8;
	o->mul_lat = 3;
	o->div_lat = 20;
}

const char *const sim_machine_names[SIM_NMACHINES] = {
#define SIM_MACH_NAME_(id, name, mhz, mem) name,
	SIM_MACHINES(SIM_MACH_NAME_)
#undef SIM_MACH_NAME_
};
static const struct { uint64_t freq_mhz, mem_size; } machine_defaults[SIM_NMACHINES] = {
#define SIM_MACH_DEF_(id, name, mhz, mem) { mhz, mem },
	SIM_MACHINES(SIM_MACH_DEF_)
#undef SIM_MACH_DEF_
};

const char *const sim_fault_names[SIM_NFAULTS] = {
#define SIM_FAULT_NAME_(id, name, rate) name,
	SIM_FAULTS(SIM_FAULT_NAME_)
#undef SIM_FAULT_NAME_
};
static const unsigned fault_default_rate[SIM_NFAULTS] = {
#define SIM_FAULT_RATE_(id, name, rate) rate,
	SIM_FAULTS(SIM_FAULT_RATE_)
#undef SIM_FAULT_RATE_
};

void sim_opts_print(const struct sim_opts *o, FILE *f)
{
	if (o->machine) /* first: it sets the options below */
		fprintf(f, "machine=%s\n", sim_machine_names[o->machine]);
	fprintf(f, "harts=%u\nmem-size=%llu\ntimebase=%llu\nfreq-mhz=%llu\nseed=%llu\ntiming=%d\n",
	        o->harts, (unsigned long long)o->mem_size, (unsigned long long)o->timebase,
	        (unsigned long long)o->freq_mhz, (unsigned long long)o->seed, o->timing);
	fprintf(f, "quantum=%u\nmshrs=%u\nstore-buffer=%u\nmul-latency=%u\ndiv-latency=%u\n",
	        o->quantum, o->mshrs, o->sb_depth, o->mul_lat, o->div_lat);
	if (o->max_insns)
		fprintf(f, "max-insns=%llu\n", (unsigned long long)o->max_insns);
	if (o->max_cycles)
		fprintf(f, "max-cycles=%llu\n", (unsigned long long)o->max_cycles);
	if (o->mem_order != SIM_MO_SC)
		fprintf(f, "memory-order=%s\n", o->mem_order == SIM_MO_TSO ? "tso" : "rvwmo");
	for (unsigned i = 0; i < SIM_NFAULTS; i++)
		if (o->inject[i])
			fprintf(f, "inject=%s:%u\n", sim_fault_names[i], o->inject[i]);
	if (o->no_phase_hint)
		fprintf(f, "no-phase-hint=1\n");
	if (o->no_loop_skip)
		fprintf(f, "no-loop-skip=1\n");
	if (o->no_piton_memctr)
		fprintf(f, "no-piton-memctr=1\n");
	for (unsigned i = 0; i < 64; i++)
		if (o->fdt_disabled >> i & 1)
			fprintf(f, "fdt-disabled=%u\n", i);
	if (o->piton_uart)
		fprintf(f, "piton-uart=16550\n");
	if (o->dtb)
		fprintf(f, "dtb=%s\n", o->dtb);
}

/* --inject NAME[:RATE] */
static int set_inject(struct sim_opts *o, const char *val, char *err, size_t errlen)
{
	const char *colon;
	size_t n;
	uint64_t rate;

	if (!val || !*val)
		return sim_fail(err, errlen, "option inject needs a fault name");
	colon = strchr(val, ':');
	n = colon ? (size_t)(colon - val) : strlen(val);
	for (unsigned i = 0; i < SIM_NFAULTS; i++) {
		if (strlen(sim_fault_names[i]) != n || strncmp(val, sim_fault_names[i], n))
			continue;
		rate = fault_default_rate[i];
		if (colon && (sim_parse_u64(colon + 1, &rate) || rate < 1 || rate > 100))
			return sim_fail(err, errlen, "option inject: rate '" SIM_TOKF "' must be a percentage 1..100", SIM_TOKA(colon + 1));
		o->inject[i] = (unsigned)rate;
		return 0;
	}
	char names[256];
	size_t k = 0;
	for (unsigned i = 0; i < SIM_NFAULTS; i++)
		k += (size_t)snprintf(names + k, sizeof(names) - k, "%s%s", i ? ", " : "", sim_fault_names[i]);
	return sim_fail(err, errlen, "option inject: unknown fault '%.*s%s' (known: %s)", (int)(n > 40 ? 40 : n), val, n > 40 ? "..." : "", names);
}

/* Numbers and sizes: the one parser of rvmess (rvmess/numparse.h): decimal,
 * optional K/M/G/T or KiB/MiB/GiB/TiB suffix, overflow refused. */
int sim_parse_u64(const char *s, uint64_t *out)
{
	return rvm_parse_num(s, out) == RVM_NUM_OK ? 0 : -1;
}


static int num(const char *key, const char *val, uint64_t lo, uint64_t hi, uint64_t *out, char *err, size_t errlen)
{
	uint64_t v;
	if (!val)
		return sim_fail(err, errlen, "option %s needs a value", key);
	if (sim_parse_u64(val, &v))
		return sim_fail(err, errlen, "option %s: '" SIM_TOKF "' is not a number", key, SIM_TOKA(val));
	if (v < lo || v > hi)
		return sim_fail(err, errlen, "option %s: " SIM_TOKF " is out of range %llu..%llu", key, SIM_TOKA(val),
		            (unsigned long long)lo, (unsigned long long)hi);
	*out = v;
	return 0;
}

/* The core's options (sim_opts_set below sets them): name, argument (NULL
 * for a flag) and help line (NULL: config files only); --help and the
 * command line's "does it take a value" come from here, the memory
 * system's options from tm_is_option / tm_print_options. */
static const struct { const char *name, *arg, *help; } core_opts[] = {
	{ "machine", "virt|cva6|openpiton", "the target's memory map, devices, DTB, counters and end of run (default virt; sets freq-mhz and mem-size: give those after it)" },
	{ "harts", "N", "harts (1..64, default 1)" },
	{ "mem-size", "SIZE", "RAM at 0x80000000 (default 256M; K/M/G suffixes)" },
	{ "timebase", "HZ", "CLINT mtime frequency (default 10000000)" },
	{ "freq-mhz", "MHZ", "core clock (default 1000); mtime = cycles * timebase / freq" },
	{ "max-insns", "N", "stop after N instructions in total (exit 124)" },
	{ "max-cycles", "N", "stop when a hart's clock reaches N (exit 124)" },
	{ "seed", "N", "seed (recorded in the DTB; runs are deterministic)" },
	{ "fdt-disabled", "HART", "the DTB's cpu@HART says status \"disabled\" (repeatable); the hart still runs, as QEMU's do" },
	{ "console", "FILE", "UART output to FILE instead of stdout" },
	{ "console-stamps", "FILE", "per console line, the writing hart's cycle and all harts' instructions so far, to FILE" },
	{ "config", "FILE", "key=value lines with the same keys as these options" },
	{ "no-timing", NULL, "functional only: 1 cycle per instruction, no memsys" },
	{ "timing", NULL, NULL },
	{ "quantum", "N", "--no-timing: instructions per hart per turn (default 64)" },
	{ "mshrs", "N", "outstanding load misses per hart (default 8)" },
	{ "store-buffer", "N", "store buffer entries per hart (default 8)" },
	{ "mul-latency", "N", "multiply result latency, cycles (default 3)" },
	{ "div-latency", "N", "divide result latency, cycles (default 20)" },
	{ "stats", NULL, "per-hart counts, cycles and memsys counters on stderr" },
	{ "memory-order", "sc|tso|rvwmo", "sc (default): stores visible at once; tso: functional store buffers; rvwmo: also stores drain and loads read out of order" },
	{ "inject", "FAULT[:RATE]", "inject a fault (repeatable): fence-noop, amo-nonatomic, sc-spurious-success, stale-read, lost-write, wrong-ack, clean-writeback, timer-stuck, lost-inval (--machine openpiton: Ariane's L1D misses other harts' invalidations)" },
	{ "no-phase-hint", NULL, "ignore the image's set-up phase hint (memctl PHASE): time every instruction" },
	{ "phase-hint", NULL, NULL },
	{ "no-loop-skip", NULL, "run countdown loops (addi r,r,-1; bnez r back to it) instruction by instruction, not in closed form (same results; for checking that)" },
	{ "loop-skip", NULL, NULL },
	{ "no-piton-memctr", NULL, "--machine openpiton: the fake UART without the memory counter window that tools/rtl-prep.sh memctr adds to the RTL (the image then counts L2 misses)" },
	{ "piton-memctr", NULL, NULL },
	{ "piton-uart", "fake|16550", "--machine openpiton: fake (default): sims' fake_uart, every read returns 0xef; 16550: an FPGA board's 16550 at the same address, 115200 baud, a 16-byte FIFO that drops bytes written while full" },
	{ "dtb", "FILE", "this device tree blob instead of the one hostsim builds, placed where the profile puts its own (a board's DTB: docs/platforms.md)" },
};
_Static_assert(SIM_EXIT_LIMIT == 124, "the --max-* help lines name exit 124");

void sim_opts_print_help(FILE *f)
{
	char opt[40];
	for (size_t i = 0; i < sizeof(core_opts) / sizeof(core_opts[0]); i++) {
		if (!core_opts[i].help)
			continue;
		snprintf(opt, sizeof(opt), "--%s%s%s", core_opts[i].name, core_opts[i].arg ? " " : "",
		         core_opts[i].arg ? core_opts[i].arg : "");
		fprintf(f, "  %-18s %s\n", opt, core_opts[i].help);
	}
}

int sim_opts_kind(const char *key)
{
	char k[40];
	size_t n = strlen(key);
	if (n >= sizeof(k))
		return SIM_OPT_UNKNOWN;
	for (size_t i = 0; i <= n; i++)
		k[i] = key[i] == '_' ? '-' : key[i];
	for (size_t i = 0; i < sizeof(core_opts) / sizeof(core_opts[0]); i++)
		if (!strcmp(core_opts[i].name, k))
			return core_opts[i].arg ? SIM_OPT_VALUE : SIM_OPT_FLAG;
	return tm_is_option(k) ? SIM_OPT_VALUE : SIM_OPT_UNKNOWN;
}

int sim_opts_set(struct sim_opts *o, const char *key, const char *val, char *err, size_t errlen)
{
	uint64_t v;
	char k[40];
	size_t n = strlen(key);
	if (n >= sizeof(k))
		return sim_fail(err, errlen, "unknown option '" SIM_TOKF "'", SIM_TOKA(key));
	for (size_t i = 0; i <= n; i++)
		k[i] = key[i] == '_' ? '-' : key[i];

	if (!strcmp(k, "machine")) {
		unsigned i;
		if (!val) return sim_fail(err, errlen, "option machine needs a value");
		for (i = 0; i < SIM_NMACHINES && strcmp(val, sim_machine_names[i]); i++)
			;
		if (i == SIM_NMACHINES)
			return sim_fail(err, errlen, "option machine: '" SIM_TOKF "' is not virt, cva6 or openpiton", SIM_TOKA(val));
		o->machine = i;
		o->freq_mhz = machine_defaults[i].freq_mhz;
		o->mem_size = machine_defaults[i].mem_size;
	} else if (!strcmp(k, "harts")) {
		if (num(k, val, 1, SIM_MAX_HARTS, &v, err, errlen)) return -1;
		o->harts = (unsigned)v;
	} else if (!strcmp(k, "mem-size")) {
		if (!val) return sim_fail(err, errlen, "option mem-size needs a value");
		if (sim_parse_u64(val, &v)) return sim_fail(err, errlen, "option mem-size: '" SIM_TOKF "' is not a size", SIM_TOKA(val));
		if (v < (1ull << 20) || v > (16ull << 30) || (v & 0xfff))
			return sim_fail(err, errlen, "option mem-size: %s must be 1M..16G and a multiple of 4K", val);
		o->mem_size = v;
	} else if (!strcmp(k, "timebase")) {
		if (num(k, val, 1, 0xffffffffull, &v, err, errlen)) return -1;
		o->timebase = v;
	} else if (!strcmp(k, "freq-mhz")) {
		if (num(k, val, 1, 4000, &v, err, errlen)) return -1;
		o->freq_mhz = v;
	} else if (!strcmp(k, "max-insns")) {
		if (num(k, val, 0, ~0ull, &v, err, errlen)) return -1;
		o->max_insns = v;
	} else if (!strcmp(k, "max-cycles")) {
		if (num(k, val, 0, ~0ull, &v, err, errlen)) return -1;
		o->max_cycles = v;
	} else if (!strcmp(k, "seed")) {
		if (num(k, val, 0, ~0ull, &v, err, errlen)) return -1;
		o->seed = v;
	} else if (!strcmp(k, "fdt-disabled")) {
		if (num(k, val, 0, SIM_MAX_HARTS - 1, &v, err, errlen)) return -1;
		o->fdt_disabled |= 1ull << v;
	} else if (!strcmp(k, "quantum")) {
		if (num(k, val, 1, 1000000, &v, err, errlen)) return -1;
		o->quantum = (unsigned)v;
	} else if (!strcmp(k, "mshrs")) {
		if (num(k, val, 1, SIM_MSHR_MAX, &v, err, errlen)) return -1;
		o->mshrs = (unsigned)v;
	} else if (!strcmp(k, "store-buffer")) {
		if (num(k, val, 1, SIM_SB_MAX - 1, &v, err, errlen)) return -1;
		o->sb_depth = (unsigned)v;
	} else if (!strcmp(k, "mul-latency")) {
		if (num(k, val, 1, 1000, &v, err, errlen)) return -1;
		o->mul_lat = (unsigned)v;
	} else if (!strcmp(k, "div-latency")) {
		if (num(k, val, 1, 1000, &v, err, errlen)) return -1;
		o->div_lat = (unsigned)v;
	} else if (!strcmp(k, "memory-order")) {
		if (!val) return sim_fail(err, errlen, "option memory-order needs a value");
		if (!strcmp(val, "sc")) o->mem_order = SIM_MO_SC;
		else if (!strcmp(val, "tso")) o->mem_order = SIM_MO_TSO;
		else if (!strcmp(val, "rvwmo")) o->mem_order = SIM_MO_RVWMO;
		else return sim_fail(err, errlen, "option memory-order: '" SIM_TOKF "' is not sc, tso or rvwmo", SIM_TOKA(val));
	} else if (!strcmp(k, "piton-uart")) {
		if (!val) return sim_fail(err, errlen, "option piton-uart needs a value");
		if (!strcmp(val, "fake")) o->piton_uart = SIM_UART_FAKE;
		else if (!strcmp(val, "16550")) o->piton_uart = SIM_UART_16550;
		else return sim_fail(err, errlen, "option piton-uart: '" SIM_TOKF "' is not fake or 16550", SIM_TOKA(val));
	} else if (!strcmp(k, "dtb")) {
		if (!val || !*val) return sim_fail(err, errlen, "option dtb needs a file name");
		if (strlen(val) >= sizeof(o->strings[2])) return sim_fail(err, errlen, "option dtb: file name too long");
		strcpy(o->strings[2], val);
		o->dtb = o->strings[2];
	} else if (!strcmp(k, "inject")) {
		if (set_inject(o, val, err, errlen)) return -1;
	} else if (!strcmp(k, "console")) {
		if (!val || !*val) return sim_fail(err, errlen, "option console needs a file name");
		if (strlen(val) >= sizeof(o->strings[0])) return sim_fail(err, errlen, "option console: file name too long");
		strcpy(o->strings[0], val);
		o->console = o->strings[0];
	} else if (!strcmp(k, "console-stamps")) {
		if (!val || !*val) return sim_fail(err, errlen, "option console-stamps needs a file name");
		if (strlen(val) >= sizeof(o->strings[1])) return sim_fail(err, errlen, "option console-stamps: file name too long");
		strcpy(o->strings[1], val);
		o->stamps = o->strings[1];
	} else if (!strcmp(k, "no-timing") || !strcmp(k, "timing") || !strcmp(k, "stats") ||
	           !strcmp(k, "no-phase-hint") || !strcmp(k, "phase-hint") || !strcmp(k, "no-loop-skip") ||
	           !strcmp(k, "loop-skip") || !strcmp(k, "no-piton-memctr") || !strcmp(k, "piton-memctr")) {
		/* flags; in a config file they take an optional 0/1 value */
		uint64_t on = 1;
		if (val && (sim_parse_u64(val, &on) || on > 1))
			return sim_fail(err, errlen, "option %s: '" SIM_TOKF "' must be 0 or 1", k, SIM_TOKA(val));
		if (!strcmp(k, "no-timing")) o->timing = !on;
		else if (!strcmp(k, "timing")) o->timing = (int)on;
		else if (!strcmp(k, "no-phase-hint")) o->no_phase_hint = (int)on;
		else if (!strcmp(k, "phase-hint")) o->no_phase_hint = !on;
		else if (!strcmp(k, "no-loop-skip")) o->no_loop_skip = (int)on;
		else if (!strcmp(k, "loop-skip")) o->no_loop_skip = !on;
		else if (!strcmp(k, "no-piton-memctr")) o->no_piton_memctr = (int)on;
		else if (!strcmp(k, "piton-memctr")) o->no_piton_memctr = !on;
		else o->stats = (int)on;
	} else if (tm_is_option(k)) {
		struct memsys_cfg c;
		if (!val) return sim_fail(err, errlen, "option %s needs a value", k);
		memsys_cfg_default(&c);
		if (memsys_cfg_set(&c, k, val, err, errlen))
			return -1;
		if (strlen(val) >= sizeof(o->memsys[0].val))
			return sim_fail(err, errlen, "option %s: value too long", k);
		unsigned i;
		for (i = 0; i < o->nmemsys; i++)
			if (!strcmp(o->memsys[i].key, k))
				break;
		if (i == o->nmemsys) {
			if (o->nmemsys >= sizeof(o->memsys) / sizeof(o->memsys[0]))
				return sim_fail(err, errlen, "too many memory-system options");
			o->nmemsys++;
		}
		strcpy(o->memsys[i].key, k);
		strcpy(o->memsys[i].val, val);
	} else {
		return sim_fail(err, errlen, "unknown option '" SIM_TOKF "'", SIM_TOKA(key));
	}
	return 0;
}

int sim_opts_load_file(struct sim_opts *o, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return sim_fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
	char *line = NULL, why[256];
	size_t cap = 0;
	ssize_t len;
	unsigned lineno = 0;
	int rc = 0;
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		size_t n = strlen(line);
		if (len > 1023) {
			rc = sim_fail(err, errlen, "%s:%u: line too long", path, lineno);
			break;
		}
		if (n != (size_t)len) { /* the rest of the line would be lost unseen */
			rc = sim_fail(err, errlen, "%s:%u: a NUL byte in the line (column %zu)", path, lineno, n + 1);
			break;
		}
		char *p = line, *e;
		char *hash = strchr(p, '#');
		if (hash)
			*hash = 0;
		while (isspace((unsigned char)*p))
			p++;
		e = p + strlen(p);
		while (e > p && isspace((unsigned char)e[-1]))
			*--e = 0;
		if (!*p)
			continue;
		char *eq = strchr(p, '=');
		char *val = NULL;
		if (eq) {
			char *ke = eq;
			while (ke > p && isspace((unsigned char)ke[-1]))
				ke--;
			*ke = 0;
			val = eq + 1;
			while (isspace((unsigned char)*val))
				val++;
		}
		if (!*p) {
			rc = sim_fail(err, errlen, "%s:%u: missing key before '='", path, lineno);
			break;
		}
		if (!strcmp(p, "config")) {
			rc = sim_fail(err, errlen, "%s:%u: 'config' cannot be nested", path, lineno);
			break;
		}
		if (eq && !*val) {
			rc = sim_fail(err, errlen, "%s:%u: %s: empty value", path, lineno, p);
			break;
		}
		if (sim_opts_set(o, p, val, why, sizeof(why))) {
			rc = sim_fail(err, errlen, "%s:%u: %s", path, lineno, why);
			break;
		}
	}
	if (!rc && ferror(f))
		rc = sim_fail(err, errlen, "%s: read error", path);
	free(line);
	fclose(f);
	return rc;
}
