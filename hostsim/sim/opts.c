/*
 * hostsim options: one table (core_opts below) gives every core option's
 * type, range, default and help; the setter shared by the command line and
 * --config files, the defaults, --help, --print-config and the docs' table
 * are read from it.  Also the config-file reader.
 */
#include <ctype.h>
#include <stddef.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sim/sim.h"
#include "sim/timing.h"
#include "sim/memsys.h"
#include "rvmess/numparse.h"

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


/*
 * The core's options, one row each: name, argument (NULL for a flag), type,
 * the field of struct sim_opts, range, default, when --print-config prints
 * it, and the help line (NULL: config files only).  Parsing and range
 * checks (sim_opts_set), defaults (sim_opts_default), --help
 * (sim_opts_print_help), --print-config (sim_opts_print) and the options
 * table of docs/hostsim.md (sim_opts_print_markdown, hostsim
 * --options-markdown, checked by ci/tests/docs.sh) all come from here.  The
 * memory system's options are memsys's keys (tm_is_option,
 * tm_print_options).  Adding an option: a row here (and its field in
 * struct sim_opts), then tools/gen-docs.sh.
 */
enum opt_type {
	OPT_UINT,   /* unsigned field: a number lo..hi */
	OPT_U64,    /* uint64_t field: a number lo..hi */
	OPT_SIZE,   /* uint64_t field: bytes lo..hi, a multiple of 4K */
	OPT_BIT,    /* uint64_t field: sets bit N, N in lo..hi (repeatable) */
	OPT_ENUM,   /* int or unsigned field: the index of the value in arg ("a|b|c") */
	OPT_PATH,   /* const char * field: a file name, kept in strings[lo] */
	OPT_FLAG,   /* int field: 1 (hi = 1: 0) when given; in a file an optional 0/1 */
	OPT_INJECT, /* --inject FAULT[:RATE] */
	OPT_CONFIG, /* --config FILE: read by main() and sim_opts_load_file */
};
enum opt_print {
	PR_NO,      /* never (paths of this run, --config, --stats) */
	PR_ALWAYS,  /* always, as key=value */
	PR_SET,     /* when not the default */
};
struct core_opt {
	const char *name, *arg;
	enum opt_type type;
	size_t off;
	uint64_t lo, hi;
	const char *def;         /* default value, NULL: none (0, off) */
	enum opt_print print;
	const char *help;
};
#define F(f) offsetof(struct sim_opts, f)
#define NOLIMIT 0, ~0ull
static const struct core_opt core_opts[] = {
	{ "machine", "virt|cva6|openpiton", OPT_ENUM, F(machine), 0, 0, "virt", PR_SET,
	  "the target's memory map, devices, DTB, counters and end of run; sets freq-mhz and mem-size: give those after it" },
	{ "harts", "N", OPT_UINT, F(harts), 1, SIM_MAX_HARTS, "1", PR_ALWAYS, "harts" },
	{ "mem-size", "SIZE", OPT_SIZE, F(mem_size), 1ull << 20, 16ull << 30, "256M", PR_ALWAYS,
	  "RAM at 0x80000000, a multiple of 4K; K/M/G suffixes" },
	{ "timebase", "HZ", OPT_U64, F(timebase), 1, 0xffffffffull, "10000000", PR_ALWAYS, "CLINT mtime frequency" },
	{ "freq-mhz", "MHZ", OPT_U64, F(freq_mhz), 1, 4000, "1000", PR_ALWAYS,
	  "core clock; mtime = cycles * timebase / freq" },
	{ "max-insns", "N", OPT_U64, F(max_insns), NOLIMIT, NULL, PR_SET, "stop after N instructions in total (exit 124; 0: no limit)" },
	{ "max-cycles", "N", OPT_U64, F(max_cycles), NOLIMIT, NULL, PR_SET, "stop when a hart's clock reaches N (exit 124; 0: no limit)" },
	{ "seed", "N", OPT_U64, F(seed), NOLIMIT, "1", PR_ALWAYS, "seed (recorded in the DTB; runs are deterministic)" },
	{ "fdt-disabled", "HART", OPT_BIT, F(fdt_disabled), 0, SIM_MAX_HARTS - 1, NULL, PR_SET,
	  "the DTB's cpu@HART says status \"disabled\" (repeatable); the hart still runs, as QEMU's do" },
	{ "console", "FILE", OPT_PATH, F(console), 0, 0, NULL, PR_NO, "UART output to FILE instead of stdout" },
	{ "console-stamps", "FILE", OPT_PATH, F(stamps), 1, 0, NULL, PR_NO,
	  "per console line, the writing hart's cycle and all harts' instructions so far, to FILE" },
	{ "config", "FILE", OPT_CONFIG, 0, 0, 0, NULL, PR_NO, "key=value lines with the same keys as these options" },
	{ "no-timing", NULL, OPT_FLAG, F(timing), 0, 1, NULL, PR_NO, "functional only: 1 cycle per instruction, no memsys" },
	{ "timing", NULL, OPT_FLAG, F(timing), 0, 0, "1", PR_ALWAYS, NULL },
	{ "quantum", "N", OPT_UINT, F(quantum), 1, 1000000, "64", PR_ALWAYS, "--no-timing: instructions per hart per turn" },
	{ "mshrs", "N", OPT_UINT, F(mshrs), 1, SIM_MSHR_MAX, "8", PR_ALWAYS, "outstanding load misses per hart" },
	{ "store-buffer", "N", OPT_UINT, F(sb_depth), 1, SIM_SB_MAX - 1, "8", PR_ALWAYS, "store buffer entries per hart" },
	{ "mul-latency", "N", OPT_UINT, F(mul_lat), 1, 1000, "3", PR_ALWAYS, "multiply result latency, cycles" },
	{ "div-latency", "N", OPT_UINT, F(div_lat), 1, 1000, "20", PR_ALWAYS, "divide result latency, cycles" },
	{ "stats", NULL, OPT_FLAG, F(stats), 0, 0, NULL, PR_NO, "per-hart counts, cycles and memsys counters on stderr" },
	{ "memory-order", "sc|tso|rvwmo", OPT_ENUM, F(mem_order), 0, 0, "sc", PR_SET,
	  "sc: stores visible at once; tso: functional store buffers; rvwmo: also stores drain and loads read out of order" },
	{ "inject", "FAULT[:RATE]", OPT_INJECT, F(inject), 1, 100, NULL, PR_SET,
	  "inject a fault (repeatable): fence-noop, amo-nonatomic, sc-spurious-success, stale-read, lost-write, wrong-ack, clean-writeback, timer-stuck, lost-inval (--machine openpiton: Ariane's L1D misses other harts' invalidations)" },
	{ "no-phase-hint", NULL, OPT_FLAG, F(no_phase_hint), 0, 0, NULL, PR_SET,
	  "ignore the image's set-up phase hint (memctl PHASE): time every instruction" },
	{ "phase-hint", NULL, OPT_FLAG, F(no_phase_hint), 0, 1, NULL, PR_NO, NULL },
	{ "no-loop-skip", NULL, OPT_FLAG, F(no_loop_skip), 0, 0, NULL, PR_SET,
	  "run countdown loops (addi r,r,-1; bnez r back to it) instruction by instruction, not in closed form (same results; for checking that)" },
	{ "loop-skip", NULL, OPT_FLAG, F(no_loop_skip), 0, 1, NULL, PR_NO, NULL },
	{ "no-piton-memctr", NULL, OPT_FLAG, F(no_piton_memctr), 0, 0, NULL, PR_SET,
	  "--machine openpiton: the fake UART without the memory counter window that tools/rtl-prep.sh memctr adds to the RTL (the image then counts L2 misses)" },
	{ "piton-memctr", NULL, OPT_FLAG, F(no_piton_memctr), 0, 1, NULL, PR_NO, NULL },
	{ "piton-uart", "fake|16550", OPT_ENUM, F(piton_uart), 0, 0, "fake", PR_SET,
	  "--machine openpiton: fake: sims' fake_uart, every read returns 0xef; 16550: an FPGA board's 16550 at the same address, 115200 baud, a 16-byte FIFO that drops bytes written while full" },
	{ "dtb", "FILE", OPT_PATH, F(dtb), 2, 0, NULL, PR_SET,
	  "this device tree blob instead of the one hostsim builds, placed where the profile puts its own (a board's DTB: docs/platforms.md)" },
};
#undef F
#define NCORE (sizeof(core_opts) / sizeof(core_opts[0]))
_Static_assert(SIM_EXIT_LIMIT == 124, "the --max-* help lines name exit 124");
_Static_assert(SIM_MO_SC == 0 && SIM_MO_TSO == 1 && SIM_MO_RVWMO == 2, "memory-order's values in table order");
_Static_assert(SIM_UART_FAKE == 0 && SIM_UART_16550 == 1, "piton-uart's values in table order");

static const struct core_opt *find_opt(const char *k)
{
	for (size_t i = 0; i < NCORE; i++)
		if (!strcmp(core_opts[i].name, k))
			return &core_opts[i];
	return NULL;
}

/* The i-th name of an enum's "a|b|c" (machine: sim_machine_names), its
 * length in *n; NULL past the end. */
static const char *enum_name(const struct core_opt *d, unsigned i, size_t *n)
{
	const char *p = d->arg;
	for (; i && p; i--)
		if ((p = strchr(p, '|')))
			p++;
	if (!p)
		return NULL;
	const char *e = strchr(p, '|');
	*n = e ? (size_t)(e - p) : strlen(p);
	return p;
}

/* "a, b or c" from "a|b|c", for messages */
static void enum_list(const struct core_opt *d, char *buf, size_t len)
{
	size_t n, k = 0, cnt = 0;
	while (enum_name(d, (unsigned)cnt, &n))
		cnt++;
	buf[0] = 0;
	for (unsigned i = 0; i < cnt && k < len; i++) {
		const char *p = enum_name(d, i, &n);
		k += (size_t)snprintf(buf + k, len - k, "%s%.*s", i == 0 ? "" : i + 1 == cnt ? " or " : ", ", (int)n, p);
	}
}

/* A byte count as the shortest of N, NK, NM, NG (exact). */
static void fmt_size(uint64_t v, char *buf, size_t len)
{
	static const char suf[] = "KMGT";
	int i = -1;
	while (i < 3 && v && !(v & 1023)) {
		v >>= 10;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)v, suf[i]);
}

static void *field(struct sim_opts *o, const struct core_opt *d) { return (char *)o + d->off; }
static const void *cfield(const struct sim_opts *o, const struct core_opt *d) { return (const char *)o + d->off; }

static int set_one(struct sim_opts *o, const struct core_opt *d, const char *val, char *err, size_t errlen)
{
	const char *k = d->name;
	uint64_t v;
	switch (d->type) {
	case OPT_UINT:
	case OPT_U64:
	case OPT_BIT:
		if (!val)
			return sim_fail(err, errlen, "option %s needs a value", k);
		if (sim_parse_u64(val, &v))
			return sim_fail(err, errlen, "option %s: '" SIM_TOKF "' is not a number", k, SIM_TOKA(val));
		if (v < d->lo || v > d->hi)
			return sim_fail(err, errlen, "option %s: " SIM_TOKF " is out of range %llu..%llu", k, SIM_TOKA(val),
			                (unsigned long long)d->lo, (unsigned long long)d->hi);
		if (d->type == OPT_UINT)
			*(unsigned *)field(o, d) = (unsigned)v;
		else if (d->type == OPT_U64)
			*(uint64_t *)field(o, d) = v;
		else
			*(uint64_t *)field(o, d) |= 1ull << v;
		return 0;
	case OPT_SIZE: {
		char lo[24], hi[24];
		if (!val)
			return sim_fail(err, errlen, "option %s needs a value", k);
		if (sim_parse_u64(val, &v))
			return sim_fail(err, errlen, "option %s: '" SIM_TOKF "' is not a size", k, SIM_TOKA(val));
		fmt_size(d->lo, lo, sizeof lo);
		fmt_size(d->hi, hi, sizeof hi);
		if (v < d->lo || v > d->hi || (v & 0xfff))
			return sim_fail(err, errlen, "option %s: %s must be %s..%s and a multiple of 4K", k, val, lo, hi);
		*(uint64_t *)field(o, d) = v;
		return 0;
	}
	case OPT_ENUM: {
		const char *p;
		size_t n;
		unsigned i;
		char names[64];
		if (!val)
			return sim_fail(err, errlen, "option %s needs a value", k);
		for (i = 0; (p = enum_name(d, i, &n)) != NULL; i++)
			if (strlen(val) == n && !strncmp(val, p, n))
				break;
		if (!p) {
			enum_list(d, names, sizeof names);
			return sim_fail(err, errlen, "option %s: '" SIM_TOKF "' is not %s", k, SIM_TOKA(val), names);
		}
		if (d->off == offsetof(struct sim_opts, mem_order))
			o->mem_order = (int)i;
		else
			*(unsigned *)field(o, d) = i;
		if (d->off == offsetof(struct sim_opts, machine)) { /* the profile's clock and memory */
			o->freq_mhz = machine_defaults[i].freq_mhz;
			o->mem_size = machine_defaults[i].mem_size;
		}
		return 0;
	}
	case OPT_PATH:
		if (!val || !*val)
			return sim_fail(err, errlen, "option %s needs a file name", k);
		if (strlen(val) >= sizeof(o->strings[d->lo]))
			return sim_fail(err, errlen, "option %s: file name too long", k);
		strcpy(o->strings[d->lo], val);
		*(const char **)field(o, d) = o->strings[d->lo];
		return 0;
	case OPT_FLAG: { /* in a config file flags take an optional 0/1 value */
		uint64_t on = 1;
		if (val && (sim_parse_u64(val, &on) || on > 1))
			return sim_fail(err, errlen, "option %s: '" SIM_TOKF "' must be 0 or 1", k, SIM_TOKA(val));
		*(int *)field(o, d) = d->hi ? !on : (int)on;
		return 0;
	}
	case OPT_INJECT:
		return set_inject(o, val, err, errlen);
	case OPT_CONFIG:
		break;
	}
	return sim_fail(err, errlen, "unknown option '" SIM_TOKF "'", SIM_TOKA(k));
}

void sim_opts_default(struct sim_opts *o)
{
	char err[128];
	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < NCORE; i++)
		if (core_opts[i].def && set_one(o, &core_opts[i], core_opts[i].def, err, sizeof err))
			abort(); /* a bad default in the table: test_sim_opts catches it */
}

void sim_opts_print(const struct sim_opts *o, FILE *f)
{
	struct sim_opts def;
	sim_opts_default(&def);
	for (size_t i = 0; i < NCORE; i++) {
		const struct core_opt *d = &core_opts[i];
		const void *p = cfield(o, d);
		size_t n;
		if (d->print == PR_NO)
			continue;
		if (d->print == PR_SET && !memcmp(p, cfield(&def, d), d->type == OPT_PATH ? sizeof(char *) :
		                                  d->type == OPT_INJECT ? sizeof(o->inject) :
		                                  d->type == OPT_FLAG || d->type == OPT_UINT || d->type == OPT_ENUM ?
		                                  sizeof(unsigned) : sizeof(uint64_t)))
			continue;
		switch (d->type) {
		case OPT_UINT:
			fprintf(f, "%s=%u\n", d->name, *(const unsigned *)p);
			break;
		case OPT_U64:
		case OPT_SIZE:
			fprintf(f, "%s=%llu\n", d->name, (unsigned long long)*(const uint64_t *)p);
			break;
		case OPT_BIT:
			for (unsigned b = 0; b < 64; b++)
				if (*(const uint64_t *)p >> b & 1)
					fprintf(f, "%s=%u\n", d->name, b);
			break;
		case OPT_ENUM: {
			unsigned v = *(const unsigned *)p;
			const char *s = enum_name(d, v, &n);
			fprintf(f, "%s=%.*s\n", d->name, (int)n, s);
			break;
		}
		case OPT_PATH:
			fprintf(f, "%s=%s\n", d->name, *(const char *const *)p);
			break;
		case OPT_FLAG:
			fprintf(f, d->print == PR_ALWAYS ? "%s=%d\n" : "%s=1\n", d->name, *(const int *)p);
			break;
		case OPT_INJECT:
			for (unsigned j = 0; j < SIM_NFAULTS; j++)
				if (o->inject[j])
					fprintf(f, "%s=%s:%u\n", d->name, sim_fault_names[j], o->inject[j]);
			break;
		case OPT_CONFIG:
			break;
		}
	}
}

/* " (lo..hi, default D)" for --help and the docs, "" when neither */
static void range_default(const struct core_opt *d, char *buf, size_t len)
{
	char r[64] = "", lo[24], hi[24];
	if (d->type == OPT_SIZE) {
		fmt_size(d->lo, lo, sizeof lo);
		fmt_size(d->hi, hi, sizeof hi);
		snprintf(r, sizeof r, "%s..%s", lo, hi);
	} else if ((d->type == OPT_UINT || d->type == OPT_U64 || d->type == OPT_BIT) && d->hi != ~0ull)
		snprintf(r, sizeof r, "%llu..%llu", (unsigned long long)d->lo, (unsigned long long)d->hi);
	if (r[0] && d->def)
		snprintf(buf, len, " (%s, default %s)", r, d->def);
	else if (r[0] || d->def)
		snprintf(buf, len, " (%s%s)", r[0] ? r : "default ", r[0] ? "" : d->def);
	else
		buf[0] = 0;
}

void sim_opts_print_help(FILE *f)
{
	char opt[40], rd[96];
	for (size_t i = 0; i < NCORE; i++) {
		const struct core_opt *d = &core_opts[i];
		if (!d->help)
			continue;
		snprintf(opt, sizeof(opt), "--%s%s%s", d->name, d->arg ? " " : "", d->arg ? d->arg : "");
		range_default(d, rd, sizeof rd);
		fprintf(f, "  %-18s %s%s\n", opt, d->help, rd);
	}
}

void sim_opts_print_markdown(FILE *f)
{
	static const char *const tname[] = { "number", "number", "size", "number", "one of", "file", "flag",
	                                     "fault", "file" };
	char opt[48], lo[24], hi[24];
	fprintf(f, "| option | type | range | default | meaning |\n|---|---|---|---|---|\n");
	for (size_t i = 0; i < NCORE; i++) {
		const struct core_opt *d = &core_opts[i];
		if (!d->help)
			continue;
		snprintf(opt, sizeof(opt), "--%s%s%s", d->name, d->arg ? " " : "", d->arg ? d->arg : "");
		fprintf(f, "| `");
		for (const char *p = opt; *p; p++) /* a '|' inside a table cell */
			fprintf(f, *p == '|' ? "\\|" : "%c", *p);
		fprintf(f, "` | %s | ", tname[d->type]);
		if (d->type == OPT_SIZE) {
			fmt_size(d->lo, lo, sizeof lo);
			fmt_size(d->hi, hi, sizeof hi);
			fprintf(f, "%s..%s", lo, hi);
		} else if (d->type == OPT_INJECT)
			fprintf(f, "RATE %llu..%llu %%", (unsigned long long)d->lo, (unsigned long long)d->hi);
		else if ((d->type == OPT_UINT || d->type == OPT_U64 || d->type == OPT_BIT) && d->hi != ~0ull)
			fprintf(f, "%llu..%llu", (unsigned long long)d->lo, (unsigned long long)d->hi);
		fprintf(f, " | %s | ", d->def ? d->def : d->type == OPT_FLAG ? "off" : "");
		for (const char *p = d->help; *p; p++)
			fprintf(f, *p == '|' ? "\\|" : "%c", *p);
		fprintf(f, " |\n");
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
	const struct core_opt *d = find_opt(k);
	if (d)
		return d->arg ? SIM_OPT_VALUE : SIM_OPT_FLAG;
	return tm_is_option(k) ? SIM_OPT_VALUE : SIM_OPT_UNKNOWN;
}

int sim_opts_set(struct sim_opts *o, const char *key, const char *val, char *err, size_t errlen)
{
	char k[40];
	size_t n = strlen(key);
	if (n >= sizeof(k))
		return sim_fail(err, errlen, "unknown option '" SIM_TOKF "'", SIM_TOKA(key));
	for (size_t i = 0; i <= n; i++)
		k[i] = key[i] == '_' ? '-' : key[i];

	const struct core_opt *d = find_opt(k);
	if (d && d->type != OPT_CONFIG)
		return set_one(o, d, val, err, errlen);
	if (!d && tm_is_option(k)) {
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
		return 0;
	}
	return sim_fail(err, errlen, "unknown option '" SIM_TOKF "'", SIM_TOKA(key));
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
