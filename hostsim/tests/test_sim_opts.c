/* hostsim options and --config files (sim/opts.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "sim/sim.h"

static void test_defaults(void **state)
{
	(void)state;
	struct sim_opts o;
	sim_opts_default(&o);
	assert_int_equal(o.harts, 1);
	assert_int_equal(o.mem_size, 256ull << 20);
	assert_int_equal(o.timebase, 10000000);
	assert_int_equal(o.freq_mhz, 1000);
	assert_int_equal(o.timing, 1);
	assert_int_equal(o.mshrs, 8);
	assert_int_equal(o.sb_depth, 8);
	assert_null(o.console);
}

static void test_sizes(void **state)
{
	(void)state;
	uint64_t v;
	assert_int_equal(sim_parse_u64("4096", &v), 0); assert_int_equal(v, 4096);
	assert_int_equal(sim_parse_u64("64K", &v), 0); assert_int_equal(v, 65536);
	assert_int_equal(sim_parse_u64("256M", &v), 0); assert_int_equal(v, 256ull << 20);
	assert_int_equal(sim_parse_u64("2GiB", &v), 0); assert_int_equal(v, 2ull << 30);
	/* the one parser (rvmess/numparse.h): decimal only, binary suffixes */
	assert_int_equal(sim_parse_u64("0x1000", &v), -1);
	assert_int_equal(sim_parse_u64("0400M", &v), 0); assert_int_equal(v, 400ull << 20);
	assert_int_equal(sim_parse_u64("64MiB", &v), 0); assert_int_equal(v, 64ull << 20);
	assert_int_equal(sim_parse_u64("1T", &v), 0); assert_int_equal(v, 1ull << 40);
	assert_int_equal(sim_parse_u64("64MB", &v), -1);
	assert_int_equal(sim_parse_u64("010", &v), 0); assert_int_equal(v, 10);
	assert_int_equal(sim_parse_u64("0x10", &v), -1);
	assert_int_equal(sim_parse_u64("18446744073709551616", &v), -1);
	assert_int_equal(sim_parse_u64("", &v), -1);
	assert_int_equal(sim_parse_u64("-1M", &v), -1);
	assert_int_equal(sim_parse_u64("12Q", &v), -1);
	assert_int_equal(sim_parse_u64("1MM", &v), -1);
	assert_int_equal(sim_parse_u64("99999999999999999999", &v), -1);
	assert_int_equal(sim_parse_u64("17179869184G", &v), -1); /* overflows */
	assert_int_equal(sim_parse_u64("12", &v), 0); assert_int_equal(v, 12);
	assert_int_equal(sim_parse_u64("12x", &v), -1);
	assert_int_equal(sim_parse_u64(" 1", &v), -1);
}

static void expect_err(struct sim_opts *o, const char *k, const char *v, const char *want)
{
	char err[256] = "";
	int rc = sim_opts_set(o, k, v, err, sizeof(err));
	if (rc != -1 || !strstr(err, want))
		fail_msg("%s=%s: rc=%d err='%s', want '%s'", k, v ? v : "(null)", rc, err, want);
}

static void test_set(void **state)
{
	(void)state;
	struct sim_opts o;
	char err[256];
	sim_opts_default(&o);
	assert_int_equal(sim_opts_set(&o, "harts", "010", err, sizeof(err)), 0); /* not octal 8 */
	assert_int_equal(o.harts, 10);
	assert_int_equal(sim_opts_set(&o, "mem-size", "0400M", err, sizeof(err)), 0); /* not 256M */
	assert_int_equal(o.mem_size, 400ull << 20);
	assert_int_equal(sim_opts_set(&o, "harts", "16", err, sizeof(err)), 0);
	assert_int_equal(o.harts, 16);
	assert_int_equal(sim_opts_set(&o, "mem_size", "64M", err, sizeof(err)), 0); /* '_' accepted */
	assert_int_equal(o.mem_size, 64ull << 20);
	assert_int_equal(sim_opts_set(&o, "no-timing", NULL, err, sizeof(err)), 0);
	assert_int_equal(o.timing, 0);
	assert_int_equal(sim_opts_set(&o, "no-timing", "0", err, sizeof(err)), 0);
	assert_int_equal(o.timing, 1);
	assert_int_equal(sim_opts_set(&o, "console", "out.txt", err, sizeof(err)), 0);
	assert_string_equal(o.console, "out.txt");
	assert_int_equal(sim_opts_set(&o, "mem-model", "fixed", err, sizeof(err)), 0);
	assert_int_equal(sim_opts_set(&o, "mem-latency", "120", err, sizeof(err)), 0);
	assert_int_equal(sim_opts_set(&o, "mem-model", "md1", err, sizeof(err)), 0); /* replaces */
	assert_int_equal(o.nmemsys, 2);
	assert_string_equal(o.memsys[0].key, "mem-model");
	assert_string_equal(o.memsys[0].val, "md1");

	expect_err(&o, "harts", "0", "out of range 1..64");
	expect_err(&o, "harts", "65", "out of range 1..64");
	expect_err(&o, "harts", NULL, "needs a value");
	expect_err(&o, "harts", "x", "not a number");
	expect_err(&o, "harts", "0x10", "not a number");
	expect_err(&o, "mem-size", "1000", "multiple of 4K");
	expect_err(&o, "mem-size", "32G", "1M..16G");
	expect_err(&o, "freq-mhz", "0", "out of range");
	expect_err(&o, "stats", "2", "must be 0 or 1");
	expect_err(&o, "bogus", "1", "unknown option 'bogus'");
	expect_err(&o, "mem-model", "nonsense", "mem-model");
	expect_err(&o, "store-buffer", "64", "out of range");
	assert_int_equal(o.harts, 16); /* refused values leave the options alone */
}

static char *write_tmp(const char *text)
{
	static char path[64];
	strcpy(path, "/tmp/test_sim_opts.XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_file(void **state)
{
	(void)state;
	struct sim_opts o;
	char err[512];
	sim_opts_default(&o);
	char *p = write_tmp("# comment\n\n  harts = 4   # trailing comment\nmax_insns=1000\nstats\nconsole = log.txt\nllc-size = 1M\n");
	assert_int_equal(sim_opts_load_file(&o, p, err, sizeof(err)), 0);
	assert_int_equal(o.harts, 4);
	assert_int_equal(o.max_insns, 1000);
	assert_int_equal(o.stats, 1);
	assert_string_equal(o.console, "log.txt");
	assert_int_equal(o.nmemsys, 1);
	remove(p);

	struct { const char *text, *want; } bad[] = {
		{ "harts=2\nharts=99\n", ":2: option harts: 99 is out of range" },
		{ "harts=2\n\nfoo=bar\n", ":3: unknown option 'foo'" },
		{ "=5\n", ":1: missing key before '='" },
		{ "harts=\n", ":1: harts: empty value" },
		{ "config=other.cfg\n", ":1: 'config' cannot be nested" },
		{ "harts\n", ":1: option harts needs a value" },
		{ "l1d-ways=0\n", ":1:" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sim_opts_default(&o);
		p = write_tmp(bad[i].text);
		err[0] = 0;
		int rc = sim_opts_load_file(&o, p, err, sizeof(err));
		if (rc != -1 || strncmp(err, p, strlen(p)) != 0 || !strstr(err, bad[i].want))
			fail_msg("'%s': rc=%d err='%s', want '%s%s'", bad[i].text, rc, err, p, bad[i].want);
		remove(p);
	}
	/* a line longer than the buffer */
	char *longl = malloc(3000);
	memset(longl, 'a', 2998);
	longl[2998] = '\n';
	longl[2999] = 0;
	p = write_tmp(longl);
	free(longl);
	assert_int_equal(sim_opts_load_file(&o, p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":1: line too long"));
	remove(p);
	assert_int_equal(sim_opts_load_file(&o, "/nonexistent/x.cfg", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/x.cfg: cannot open"));
}

/* Which options exist and which take a value (main.c asks before it takes
 * the next argument): every option of docs/hostsim.md's table, and the
 * names sim_opts_set accepts agree with it. */
static void test_kind(void **state)
{
	(void)state;
	static const char *const values[] = {
		"harts", "mem-size", "timebase", "freq-mhz", "max-insns", "max-cycles", "seed", "console",
		"config", "quantum", "mshrs", "store-buffer", "mul-latency", "div-latency",
		"llc-size", "llc_size", "mem-model", "dram-rowbufs",
	};
	static const char *const flags[] = { "no-timing", "timing", "stats" };
	static const char *const unknown[] = { "frobnicate", "freq-ghz", "version", "", "harts2", "l1d-sise" };
	char err[256];
	struct sim_opts o;
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		if (sim_opts_kind(values[i]) != SIM_OPT_VALUE)
			fail_msg("%s: kind %d, want a value", values[i], sim_opts_kind(values[i]));
		sim_opts_default(&o);
		if (!strcmp(values[i], "config"))
			continue; /* main.c reads the file (sim_opts_load_file) */
		assert_int_equal(sim_opts_set(&o, values[i], NULL, err, sizeof(err)), -1);
		if (!strstr(err, "needs a value") && !strstr(err, "needs a file name"))
			fail_msg("%s without a value: %s", values[i], err);
	}
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		assert_int_equal(sim_opts_kind(flags[i]), SIM_OPT_FLAG);
		sim_opts_default(&o);
		assert_int_equal(sim_opts_set(&o, flags[i], NULL, err, sizeof(err)), 0);
	}
	/* --help lists the core's command-line options (not the memsys keys,
	 * which tm_print_options lists, nor the config-file-only "timing") */
	char *help = NULL, want[40];
	size_t len = 0;
	FILE *f = open_memstream(&help, &len);
	sim_opts_print_help(f);
	fclose(f);
	for (size_t i = 0; i < 14; i++) { /* values[0..13]: the core's */
		snprintf(want, sizeof(want), "  --%s ", values[i]);
		if (!strstr(help, want))
			fail_msg("--help lacks --%s", values[i]);
	}
	assert_non_null(strstr(help, "  --no-timing "));
	assert_non_null(strstr(help, "  --stats "));
	assert_null(strstr(help, "--llc-size"));
	free(help);
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		if (sim_opts_kind(unknown[i]) != SIM_OPT_UNKNOWN)
			fail_msg("'%s' is not an option", unknown[i]);
		sim_opts_default(&o);
		assert_int_equal(sim_opts_set(&o, unknown[i], "1", err, sizeof(err)), -1);
		assert_non_null(strstr(err, "unknown option"));
	}
}

/* o printed as --config lines (into *txt) and read back into *back */
static void print_and_load(const struct sim_opts *o, struct sim_opts *back, char **txt)
{
	char err[256], path[] = "/tmp/test_sim_opts_XXXXXX";
	size_t len = 0;
	*txt = NULL;
	FILE *f = open_memstream(txt, &len);
	sim_opts_print(o, f);
	fclose(f);
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, *txt, len), (ssize_t)len);
	close(fd);
	sim_opts_default(back);
	assert_int_equal(sim_opts_load_file(back, path, err, sizeof(err)), 0);
	unlink(path);
}

/* --memory-order and --inject: parsed, refused with reasons, and printed
 * so that --config reads the same options back (hostsim.cfg of a run). */
static void test_memory_order_inject(void **state)
{
	(void)state;
	struct sim_opts o, back;
	char err[256], *txt = NULL;

	sim_opts_default(&o);
	assert_int_equal(o.mem_order, SIM_MO_SC);
	for (unsigned i = 0; i < SIM_NFAULTS; i++)
		assert_int_equal(o.inject[i], 0);
	assert_int_equal(sim_opts_set(&o, "memory-order", "tso", err, sizeof(err)), 0);
	assert_int_equal(o.mem_order, SIM_MO_TSO);
	assert_int_equal(sim_opts_set(&o, "inject", "stale-read:5", err, sizeof(err)), 0);
	assert_int_equal(sim_opts_set(&o, "inject", "fence-noop", err, sizeof(err)), 0);
	assert_int_equal(o.inject[SIM_F_STALE_READ], 5);
	assert_int_equal(o.inject[SIM_F_FENCE_NOOP], 100); /* its default rate */
	assert_int_equal(o.inject[SIM_F_LOST_WRITE], 0);

	assert_int_equal(sim_opts_set(&o, "memory-order", "rvwmo2", err, sizeof(err)), -1);
	assert_string_equal(err, "option memory-order: 'rvwmo2' is not sc, tso or rvwmo");
	assert_int_equal(sim_opts_set(&o, "inject", "stale-read:101", err, sizeof(err)), -1);
	assert_string_equal(err, "option inject: rate '101' must be a percentage 1..100");
	assert_int_equal(sim_opts_set(&o, "inject", "stale", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown fault 'stale' (known: fence-noop, amo-nonatomic, "));
	assert_int_equal(o.inject[SIM_F_STALE_READ], 5); /* a refused value changes nothing */

	print_and_load(&o, &back, &txt);
	assert_non_null(strstr(txt, "\nmemory-order=tso\n"));
	assert_non_null(strstr(txt, "\ninject=fence-noop:100\n"));
	assert_non_null(strstr(txt, "\ninject=stale-read:5\n"));
	assert_int_equal(back.mem_order, SIM_MO_TSO);
	assert_memory_equal(back.inject, o.inject, sizeof(o.inject));
	free(txt);

	/* rvwmo and the two later faults read back the same */
	assert_int_equal(sim_opts_set(&o, "memory-order", "rvwmo", err, sizeof(err)), 0);
	assert_int_equal(sim_opts_set(&o, "inject", "wrong-ack:30", err, sizeof(err)), 0);
	assert_int_equal(sim_opts_set(&o, "inject", "clean-writeback", err, sizeof(err)), 0);
	assert_int_equal(o.mem_order, SIM_MO_RVWMO);
	assert_int_equal(o.inject[SIM_F_WRONG_ACK], 30);
	assert_int_equal(o.inject[SIM_F_CLEAN_WB], 100);
	print_and_load(&o, &back, &txt);
	assert_non_null(strstr(txt, "\nmemory-order=rvwmo\n"));
	assert_non_null(strstr(txt, "\ninject=wrong-ack:30\n"));
	assert_non_null(strstr(txt, "\ninject=clean-writeback:100\n"));
	assert_int_equal(back.mem_order, SIM_MO_RVWMO);
	assert_memory_equal(back.inject, o.inject, sizeof(o.inject));
	free(txt);

	/* the defaults print neither (a default run's hostsim.cfg is unchanged) */
	sim_opts_default(&o);
	print_and_load(&o, &back, &txt);
	assert_null(strstr(txt, "memory-order"));
	assert_null(strstr(txt, "inject"));
	free(txt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_kind),
		cmocka_unit_test(test_memory_order_inject),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
