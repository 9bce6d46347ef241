/* Unit tests: ELF section lookup, config block load/print/validate, and the
 * `rvmess config` command on an ELF fixture built in memory. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmd/cmds.h"
#include "cli/config.h"
#include "cli/elf.h"
#include "rvmess/cfgschema.h"
#include "rvmess/numparse.h"
#include "cli_testutil.h"


/* ---- a minimal RISC-V ELF64 with .rvmess_config -------------------------- */

#define CFG_OFF   64u
#define CFG_LEN   ((unsigned)sizeof(struct rvm_config))
#define STR_OFF   (CFG_OFF + CFG_LEN)
#define SHSTR     "\0.rvmess_config\0.shstrtab\0.bss\0"
#define SHSTR_LEN 31u
#define SH_OFF    ((STR_OFF + SHSTR_LEN + 7u) & ~7u)
#define NSECT     4u
#define ELF_LEN   (SH_OFF + NSECT * 64u)

static void put(unsigned char *b, size_t off, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		b[off + (size_t)i] = (unsigned char)(v >> (8 * i));
}

static void sect(unsigned char *b, unsigned idx, uint32_t name, uint32_t type, uint64_t off, uint64_t size)
{
	size_t sh = SH_OFF + idx * 64u;

	put(b, sh + 0, name, 4);
	put(b, sh + 4, type, 4);
	put(b, sh + 8, 2, 8);             /* SHF_ALLOC */
	put(b, sh + 16, 0x80001000 + off, 8);
	put(b, sh + 24, off, 8);
	put(b, sh + 32, size, 8);
	put(b, sh + 48, 8, 8);
}

static void make_elf(unsigned char *b, const struct rvm_config *c)
{
	memset(b, 0, ELF_LEN);
	memcpy(b, "\177ELF", 4);
	b[4] = 2;                         /* ELFCLASS64 */
	b[5] = 1;                         /* little-endian */
	b[6] = 1;
	put(b, 16, 2, 2);                 /* ET_EXEC */
	put(b, 18, 243, 2);               /* EM_RISCV */
	put(b, 20, 1, 4);
	put(b, 24, 0x80000000, 8);
	put(b, 40, SH_OFF, 8);
	put(b, 52, 64, 2);
	put(b, 54, 56, 2);
	put(b, 58, 64, 2);
	put(b, 60, NSECT, 2);
	put(b, 62, 2, 2);                 /* e_shstrndx */
	memcpy(b + CFG_OFF, c, sizeof(*c));
	memcpy(b + STR_OFF, SHSTR, SHSTR_LEN);
	sect(b, 1, 1, 1, CFG_OFF, CFG_LEN);   /* .rvmess_config PROGBITS */
	sect(b, 2, 16, 3, STR_OFF, SHSTR_LEN); /* .shstrtab STRTAB */
	sect(b, 3, 26, 8, 0, 4096);           /* .bss NOBITS */
}

static void write_file(const char *path, const void *b, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static size_t read_file(const char *path, unsigned char *b, size_t max)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	assert_non_null(f);
	n = fread(b, 1, max, f);
	fclose(f);
	return n;
}

/* Run cmd_config with stdout/stderr captured into out/err (may be NULL). */
static int run_config(char *out, size_t outlen, char *err, size_t errlen, int argc, ...)
{
	char *argv[32], po[256], pe[256];
	va_list ap;
	int so, se, fo, fe, rc;
	FILE *f;

	va_start(ap, argc);
	argv[0] = "config";
	for (int i = 1; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	argv[argc] = NULL;
	snprintf(po, sizeof(po), "%s/stdout", tu_tmpdir());
	snprintf(pe, sizeof(pe), "%s/stderr", tu_tmpdir());
	fflush(stdout);
	fflush(stderr);
	so = dup(1);
	se = dup(2);
	fo = open(po, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	fe = open(pe, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fo, 1);
	dup2(fe, 2);
	rc = cmd_config(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	close(fo);
	close(fe);
	if (out) {
		f = fopen(po, "r");
		out[fread(out, 1, outlen - 1, f)] = '\0';
		fclose(f);
	}
	if (err) {
		f = fopen(pe, "r");
		err[fread(err, 1, errlen - 1, f)] = '\0';
		fclose(f);
	}
	return rc;
}

static void fixture(const char *name, char *path, size_t len, struct rvm_config *c)
{
	unsigned char b[ELF_LEN];

	cfg_default(c);
	make_elf(b, c);
	snprintf(path, len, "%s/%s", tu_tmpdir(), name);
	write_file(path, b, ELF_LEN);
}

static void load(const char *path, struct rvm_config *c)
{
	unsigned char b[ELF_LEN + 16];
	size_t n = read_file(path, b, sizeof(b));
	struct elf_section s;
	char why[256];

	assert_int_equal(n, ELF_LEN);
	assert_int_equal(elf_find_section(b, n, RVM_CFG_SECTION, &s, why, sizeof(why)), 0);
	assert_int_equal(cfg_block_read(b + s.offset, (size_t)s.size, c, why, sizeof(why)), 0);
}

/* ---- tests ------------------------------------------------------------------ */

static void test_elf_find(void **state)
{
	unsigned char b[ELF_LEN];
	struct rvm_config c;
	struct elf_section s;
	char why[256];

	(void)state;
	cfg_default(&c);
	make_elf(b, &c);
	assert_int_equal(elf_find_section(b, ELF_LEN, ".rvmess_config", &s, why, sizeof(why)), 0);
	assert_int_equal(s.offset, CFG_OFF);
	assert_int_equal(s.size, CFG_LEN);
	assert_int_equal(elf_find_section(b, ELF_LEN, ".nothere", &s, why, sizeof(why)), 1);
	assert_int_equal(elf_find_section(b, ELF_LEN, ".bss", &s, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "SHT_NOBITS"));

#define BAD(mutate, text) do { \
		make_elf(b, &c); \
		mutate; \
		assert_int_equal(elf_find_section(b, ELF_LEN, ".rvmess_config", &s, why, sizeof(why)), -1); \
		assert_non_null(strstr(why, text)); \
	} while (0)
	BAD(b[0] = 'X', "no ELF magic");
	BAD(b[4] = 1, "not ELFCLASS64");
	BAD(b[5] = 2, "not little-endian");
	BAD(put(b, 18, 62, 2), "e_machine is 62, not EM_RISCV (243)");
	BAD(put(b, 60, 0, 2), "no section header table");
	BAD(put(b, 58, 40, 2), "bad e_shentsize 40");
	BAD(put(b, 40, ELF_LEN - 64, 8), "section header table out of bounds");
	BAD(put(b, 40, UINT64_MAX - 8, 8), "section header table out of bounds");
	BAD(put(b, 62, 7, 2), "bad e_shstrndx 7");
	BAD(put(b, SH_OFF + 2 * 64 + 32, 1u << 20, 8), "section name table out of bounds");
	BAD(put(b, SH_OFF + 2 * 64 + 4, 1, 4), "not SHT_STRTAB");
	BAD(put(b, SH_OFF + 1 * 64, 999, 4), "name offset 999 out of bounds");
	BAD(put(b, SH_OFF + 1 * 64 + 24, ELF_LEN - 100, 8), "section .rvmess_config out of bounds");
	BAD(put(b, SH_OFF + 1 * 64 + 32, UINT64_MAX, 8), "section .rvmess_config out of bounds");
#undef BAD
	assert_int_equal(elf_find_section(b, 10, ".rvmess_config", &s, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "too short"));
}

static void test_cfg_load_checks(void **state)
{
	struct rvm_config c, d;
	char why[256];

	(void)state;
	cfg_default(&c);
	assert_int_equal(cfg_block_read((unsigned char *)&c, sizeof(c), &d, why, sizeof(why)), 0);
	assert_memory_equal(&c, &d, sizeof(c));
	assert_int_equal(cfg_block_read((unsigned char *)&c, 100, &d, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "smaller than"));
	c.magic ^= 1;
	assert_int_equal(cfg_block_read((unsigned char *)&c, sizeof(c), &d, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "bad magic"));
	cfg_default(&c);
	c.version = RVM_CFG_VERSION + 1;
	assert_int_equal(cfg_block_read((unsigned char *)&c, sizeof(c), &d, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "config block version "));
	cfg_default(&c);
	c.size = 400;
	assert_int_equal(cfg_block_read((unsigned char *)&c, sizeof(c), &d, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "size 400"));
	cfg_default(&c);
	c.lat_nstrides = 9;
	assert_int_equal(cfg_block_read((unsigned char *)&c, sizeof(c), &d, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "lat_strides has 9 values, at most 8 fit"));
	cfg_default(&c);
	c.mess_npause = 49;
	assert_int_equal(cfg_block_read((unsigned char *)&c, sizeof(c), &d, why, sizeof(why)), -1);
	cfg_default(&c);
	c.mess_nmix = 52;
	assert_int_equal(cfg_block_read((unsigned char *)&c, sizeof(c), &d, why, sizeof(why)), -1);
}

/* The one number parser (rvmess/numparse.h), used by rvmess config, hostsim's
 * options and the memory-system keys: decimal only, binary suffixes. */
static void test_numbers(void **state)
{
	static const struct { const char *s; uint64_t v; } ok[] = {
		{ "0", 0 }, { "12", 12 },
		{ "010", 10 },                   /* not octal */
		{ "0400M", 400ull << 20 },       /* not 256M */
		{ "32K", 32768 }, { "32k", 32768 }, { "32KiB", 32768 }, { "32kiB", 32768 },
		{ "3m", 3u << 20 }, { "64MiB", 64ull << 20 }, { "2G", 2ull << 30 }, { "2GiB", 2ull << 30 },
		{ "1T", 1ull << 40 }, { "1TiB", 1ull << 40 }, { "1t", 1ull << 40 },
		{ "18446744073709551615", UINT64_MAX },
		{ "16777215T", 16777215ull << 40 },
	};
	static const struct { const char *s; int rc; } bad[] = {
		{ "", RVM_NUM_EMPTY },
		{ "0x40", RVM_NUM_NOT_DEC }, { "0X40", RVM_NUM_NOT_DEC }, { "0x", RVM_NUM_NOT_DEC },
		{ "-1", RVM_NUM_NOT_DEC }, { "+1", RVM_NUM_NOT_DEC }, { " 1", RVM_NUM_NOT_DEC },
		{ "K", RVM_NUM_NOT_DEC }, { "1 ", RVM_NUM_NOT_DEC }, { "1.5", RVM_NUM_NOT_DEC },
		{ "1,5", RVM_NUM_NOT_DEC },
		{ "12KB", RVM_NUM_SUFFIX }, { "12MB", RVM_NUM_SUFFIX }, { "12KIB", RVM_NUM_SUFFIX },
		{ "12Kib", RVM_NUM_SUFFIX }, { "12KiBx", RVM_NUM_SUFFIX }, { "1MM", RVM_NUM_SUFFIX },
		{ "12Q", RVM_NUM_SUFFIX }, { "12x", RVM_NUM_SUFFIX }, { "1P", RVM_NUM_SUFFIX },
		{ "18446744073709551616", RVM_NUM_OVERFLOW },
		{ "99999999999999999999", RVM_NUM_OVERFLOW },
		{ "17179869184G", RVM_NUM_OVERFLOW },
		{ "16777216T", RVM_NUM_OVERFLOW },
	};
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		v = 12345;
		if (rvm_parse_num(ok[i].s, &v) != RVM_NUM_OK || v != ok[i].v)
			fail_msg("'%s': got %llu, want %llu", ok[i].s, (unsigned long long)v,
				 (unsigned long long)ok[i].v);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc;

		v = 12345;
		rc = rvm_parse_num(bad[i].s, &v);
		if (rc != bad[i].rc || v != 12345)
			fail_msg("'%s': rc %d, want %d (value %llu)", bad[i].s, rc, bad[i].rc, (unsigned long long)v);
	}
	assert_int_equal(rvm_parse_num(NULL, &v), RVM_NUM_EMPTY);
	assert_non_null(strstr(rvm_num_why(RVM_NUM_NOT_DEC), "no 0x"));
}

/* Values the host accepts and stores as parsed. */
static void test_set_accepts(void **state)
{
	struct rvm_config c;
	char why[256];

	(void)state;
	cfg_default(&c);
	assert_int_equal(cfg_set(&c, "chase_size", "64MiB", why, sizeof(why)), 0);
	assert_int_equal(c.chase_size, 64ull << 20);
	assert_int_equal(cfg_set(&c, "lat_max", "1T", why, sizeof(why)), 0); /* the limit itself */
	assert_int_equal(c.lat_max, 1ull << 40);
	assert_int_equal(cfg_set(&c, "par_max", "0400M", why, sizeof(why)), 0);
	assert_int_equal(c.par_max, 400ull << 20);
	assert_int_equal(cfg_set(&c, "reps", "010", why, sizeof(why)), 0);
	assert_int_equal(c.reps, 10);
	assert_int_equal(cfg_set(&c, "reps", "100", why, sizeof(why)), 0);
	assert_int_equal(c.reps, 100);
	assert_int_equal(cfg_set(&c, "mess_gen_size", "3200", why, sizeof(why)), 0);
	assert_int_equal(c.mess_gen_size, 3200);
	assert_int_equal(cfg_set(&c, "lat_strides", "8,1G", why, sizeof(why)), 0);
	assert_int_equal(c.lat_nstrides, 2);
	assert_int_equal(c.lat_strides[1], 1u << 30);
	assert_int_equal(cfg_set(&c, "mess_pause", "0,4294967295", why, sizeof(why)), 0);
	assert_int_equal(c.mess_pause[1], UINT32_MAX);
}

/* Every key, at and beyond each end of its range (and off its multiple):
 * the host's cfg_set and the image's check (rvm_cfg_check_all, what
 * firmware/cfg.c runs at boot) agree. */
static int count_problems(const struct rvm_config *c)
{
	return rvm_cfg_check_all(c, NULL, NULL);
}

static void one_value(const struct rvm_cfg_key *k, uint64_t v, int want_ok)
{
	struct rvm_config c, d;
	char text[64], why[256];
	int host, image;

	cfg_default(&c);
	c.lat_max = 1ull << 40; /* strides up to the key's max stay within lat_max/2 */
	c.lat_nstrides = 1;     /* and lat_max down to its min stays above 2 strides */
	c.lat_strides[0] = 8;
	for (unsigned i = 1; i < RVM_CFG_MAX_STRIDES; i++)
		c.lat_strides[i] = 0;
	c.mess_min_loads = 100;               /* mess_max_loads down to its min stays above it */
	c.mess_max_loads = RVM_CFG_LOADS_MAX; /* and mess_min_loads up to its max below it */
	d = c;
	snprintf(text, sizeof(text), "%llu", (unsigned long long)v);
	/* what rvmess config does: the assignment, then the whole block */
	host = cfg_set(&c, k->name, text, why, sizeof(why)) == 0 && cfg_check_block(&c, NULL, "") == 0;
	/* the same value stored in the block directly, as an old tool might have */
	if (v <= (k->width == 1 ? 0xffull : k->width == 4 ? 0xffffffffull : UINT64_MAX)) {
		rvm_cfg_put(&d, k, 0, v);
		image = count_problems(&d) == 0;
	} else {
		image = 0; /* does not even fit the field */
	}
	if (host != want_ok || image != want_ok)
		fail_msg("%s=%s: host %s, image %s, want %s (%s)", k->name, text, host ? "accepts" : "refuses",
			 image ? "accepts" : "refuses", want_ok ? "accept" : "refuse", host ? "" : why);
	if (!host && (v < k->min || v > k->max) && !strstr(why, "out of range") && !strstr(why, "not 0 or 1"))
		fail_msg("%s=%s: '%s' does not name the range", k->name, text, why);
}

static void test_host_refuses_what_image_refuses(void **state)
{
	(void)state;
	for (unsigned i = 0; i < rvm_cfg_nkeys; i++) {
		const struct rvm_cfg_key *k = &rvm_cfg_keys[i];

		if (k->type == RVM_CFG_T_SUITES)
			continue; /* names, below */
		one_value(k, k->min, 1);
		one_value(k, k->max, 1);
		if (k->min > 0)
			one_value(k, k->min - 1, 0);
		if (k->max < UINT64_MAX)
			one_value(k, k->max + 1, 0);
		if (k->mult > 1)
			one_value(k, k->min + k->mult / 2, 0);
	}
	{
		struct rvm_config c;

		cfg_default(&c);
		c.suites = 0;
		assert_int_equal(count_problems(&c), 1);
		c.suites = RVM_SUITE_ALL + 1;
		assert_int_equal(count_problems(&c), 1);
		c.suites = RVM_SUITE_ALL;
		assert_int_equal(count_problems(&c), 0);
	}
}

static void code_of(const struct rvm_cfg_problem *p, char *out)
{
	char code[96];

	if (!out[0])
		strcpy(out, rvm_cfg_code(p, code, sizeof(code)));
}

static void first_code(void *ctx, const struct rvm_cfg_problem *p)
{
	code_of(p, ctx);
}

/* The image's err messages come from the table. */
static void test_image_codes(void **state)
{
	struct rvm_config c;
	char code[96];

	(void)state;
#define CODE(mutate, want) do { 		cfg_default(&c); 		mutate; 		code[0] = 0; 		assert_int_equal(rvm_cfg_check_all(&c, first_code, code), 1); 		assert_string_equal(code, want); 	} while (0)
	CODE(c.reps = 200, "reps_not_in_1..100");
	CODE(c.reps = 0, "reps_not_in_1..100");
	CODE(c.par_kmax = 17, "par_kmax_not_in_1..16");
	CODE(c.chase_size = 64, "chase_size_not_in_128..1099511627776");
	CODE(c.chase_size = 1000, "chase_size_not_a_multiple_of_64");
	CODE(c.lat_nstrides = 0, "lat_strides_count_not_in_1..8");
	CODE(c.lat_nstrides = 9, "lat_strides_count_not_in_1..8");
	CODE(c.mess_mix[3] = 51, "mess_mix_not_a_multiple_of_2");
	CODE(c.lat_strides[0] = 1u << 20, "lat_stride_over_lat_max/2");
	CODE(c.suites = 0, "suites_not_in_1..127"); /* seven suites: bits 0..6 */
	CODE(c.litmus_iters = 0, "litmus_iters_not_in_1..100000000");
	CODE(c.integ_slots = 0, "integ_slots_not_in_1..256");
	CODE(c.integ_lines = 1025, "integ_lines_not_in_1..1024");
	CODE(c.inject_corrupt = 2, "inject_corrupt_not_in_0..1");
	CODE(c.mess_tol = 1000001, "mess_tol_not_in_0..1000000");
	CODE(c.mess_batch_loads = 250, "mess_batch_loads_not_a_multiple_of_100");
	CODE(c.mess_max_loads = c.mess_min_loads - 1, "mess_min_loads_over_mess_max_loads");
	CODE(c.mess_check = 0, "mess_check_not_in_1..64");
	CODE(c.mess_check = 65, "mess_check_not_in_1..64");
#undef CODE
	cfg_default(&c);
	assert_int_equal(rvm_cfg_check_all(&c, NULL, NULL), 0); /* the default block passes */
}

static void test_set_refusals(void **state)
{
	static const char *const cases[][3] = {
		{ "nosuchkey", "1", "unknown key" },
		{ "lat_nstrides", "2", "derived from lat_strides" },
		{ "magic", "0", "fixed by the image format" },
		{ "reps", "0", "0 out of range 1..100" },
		{ "reps", "200", "200 out of range 1..100" },  /* the image's limit */
		{ "reps", "abc", "'abc' is not a number" },
		{ "reps", "0x10", "'0x10' is not a number: not a decimal number" },
		{ "reps", "", "'' is not a number" },
		{ "warmups", "101", "out of range 0..100" },
		{ "seed", "4294967296", "out of range" },
		{ "timeout_ms", "0", "out of range" },
		{ "timeout_ms", "3600001", "out of range 1..3600000" },
		{ "max_harts", "65", "out of range 0..64" },
		{ "inject_hang", "65", "out of range 0..64" },
		{ "par_kmax", "0", "out of range 1..16" },
		{ "par_kmax", "17", "out of range 1..16" },
		{ "chase_size", "1000", "1000 is not a multiple of 64" },
		{ "chase_size", "64", "64 out of range 128..1T" },
		{ "chase_size", "2T", "2T out of range 128..1T" },
		{ "lat_max", "2T", "2T out of range 512..1T" },
		{ "lat_max", "18446744073709551616", "above 2^64-1" },
		{ "lat_max", "64MB", "unknown suffix" },
		{ "par_max", "1025", "not a multiple of 64" },
		{ "mess_gen_size", "0", "out of range" },
		{ "mess_gen_size", "3136", "3136 out of range 3200..1T" },
		{ "mess_window_loads", "99", "out of range 100.." },
		{ "mess_batch_loads", "50", "out of range 100..1000000" },
		{ "mess_batch_loads", "550", "550 is not a multiple of 100" },
		{ "mess_tol", "2000000", "out of range 0..1000000" },
		{ "mess_min_loads", "99", "out of range 100.." },
		{ "mess_check", "0", "out of range 1..64" },
		{ "mess_check", "65", "65 out of range 1..64" },
		{ "chase_loads", "0", "out of range" },
		{ "chase_all_harts", "2", "not 0 or 1" },
		{ "lat_random", "yes", "not 0 or 1" },
		{ "lat_strides", "", "empty list" },
		{ "lat_strides", "64,,128", "empty element" },
		{ "lat_strides", "60", "element 1: 60 is not a multiple of 8" },
		{ "lat_strides", "64,0", "element 2: 0 out of range 8..1G" },
		{ "lat_strides", "8,16,24,32,40,48,56,64,72", "more than 8 values" },
		{ "mess_mix", "0,51", "element 2: 51 is not a multiple of 2" },
		{ "mess_mix", "102", "out of range 0..100" },
		{ "mess_pause", "x", "not a number" },
		{ "suites", "chase,foo", "unknown suite 'foo'" },
		{ "suites", "", "empty list" },
	};
	struct rvm_config c, before;
	char why[256];

	(void)state;
	cfg_default(&c);
	before = c;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = cfg_set(&c, cases[i][0], cases[i][1], why, sizeof(why));

		if (rc != -1 || !strstr(why, cases[i][2]))
			fail_msg("%s=%s: rc=%d why='%s', want '%s'", cases[i][0], cases[i][1], rc,
				 rc ? why : "", cases[i][2]);
		assert_memory_equal(&c, &before, sizeof(c)); /* untouched */
	}
	{
		/* 52 mixes and 49 pauses */
		char mix[400] = "", pause[400] = "";

		for (int i = 0; i < 52; i++)
			snprintf(mix + strlen(mix), sizeof(mix) - strlen(mix), "%s%d", i ? "," : "", (i % 51) * 2);
		for (int i = 0; i < 49; i++)
			snprintf(pause + strlen(pause), sizeof(pause) - strlen(pause), "%s%d", i ? "," : "", i);
		assert_int_equal(cfg_set(&c, "mess_mix", mix, why, sizeof(why)), -1);
		assert_non_null(strstr(why, "more than 51 values"));
		assert_int_equal(cfg_set(&c, "mess_pause", pause, why, sizeof(why)), -1);
		assert_non_null(strstr(why, "more than 48 values"));
		mix[strlen(mix) - 3] = '\0'; /* drop the 52nd: 51 ok */
		assert_int_equal(cfg_set(&c, "mess_mix", mix, why, sizeof(why)), 0);
		assert_int_equal(c.mess_nmix, 51);
	}
}

static void test_print_parse_round_trip(void **state)
{
	struct rvm_config c, d;
	char why[256], key[128], *buf = NULL, *line, *save;
	size_t len = 0;
	FILE *f;

	(void)state;
	cfg_default(&c);
	assert_int_equal(cfg_set(&c, "suites", "lat,mess,check", why, sizeof(why)), 0);
	assert_int_equal(cfg_set(&c, "lat_strides", "8,64,4K", why, sizeof(why)), 0);
	assert_int_equal(cfg_set(&c, "mess_mix", "0,2,100", why, sizeof(why)), 0);
	assert_int_equal(cfg_set(&c, "mess_pause", "0,5,1000000", why, sizeof(why)), 0);
	assert_int_equal(cfg_set(&c, "chase_size", "64M", why, sizeof(why)), 0);
	assert_int_equal(cfg_set(&c, "seed", "3735928559", why, sizeof(why)), 0);
	f = open_memstream(&buf, &len);
	cfg_print(f, &c);
	fclose(f);
	assert_non_null(strstr(buf, "suites=lat,mess,check\n"));
	assert_non_null(strstr(buf, "lat_strides=8,64,4096\n"));
	assert_non_null(strstr(buf, "chase_size=67108864\n"));
	assert_non_null(strstr(buf, "seed=3735928559\n"));
	assert_non_null(strstr(buf, "mess_pause=0,5,1000000\n"));

	memset(&d, 0, sizeof(d));
	cfg_default(&d);
	d.reps = 77;
	d.lat_nstrides = 8;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		assert_int_equal(cfg_assign(&d, line, key, sizeof(key), why, sizeof(why)), 0);
	assert_memory_equal(&c, &d, sizeof(c));
	free(buf);

	/* blanks around = are accepted by cfg_assign */
	assert_int_equal(cfg_assign(&d, "  reps =  9 ", key, sizeof(key), why, sizeof(why)), 0);
	assert_int_equal(d.reps, 9);
	assert_int_equal(cfg_assign(&d, "reps9", key, sizeof(key), why, sizeof(why)), -1);
	assert_string_equal(key, "reps9");
	assert_non_null(strstr(why, "not a key=value"));
	assert_int_equal(cfg_assign(&d, "=9", key, sizeof(key), why, sizeof(why)), -1);
	assert_non_null(strstr(why, "empty key"));
}

static void test_cmd_show_and_patch(void **state)
{
	char path[256], out[8192], err[4096];
	struct rvm_config c;
	struct stat st;

	(void)state;
	fixture("img.elf", path, sizeof(path), &c);
	chmod(path, 0751);
	assert_int_equal(run_config(out, sizeof(out), err, sizeof(err), 2, path), 0);
	assert_non_null(strstr(out, "suites=chase,lat,par\nreps=3\n"));
	assert_non_null(strstr(out, "lat_strides=64,128,256,512,1024,4096\n"));
	assert_string_equal(err, "");

	assert_int_equal(run_config(out, sizeof(out), err, sizeof(err), 6, path, "reps=5",
				    "lat_strides=64,256,4K", "suites=lat,mess", "chase_size=2M"), 0);
	load(path, &c);
	assert_int_equal(c.reps, 5);
	assert_int_equal(c.lat_nstrides, 3);
	assert_int_equal(c.lat_strides[2], 4096);
	assert_int_equal(c.suites, RVM_SUITE_LAT | RVM_SUITE_MESS);
	assert_int_equal(c.chase_size, 2u << 20);
	assert_int_equal(c.warmups, 1); /* untouched */
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0751);

	/* the printed block round-trips through the command */
	assert_int_equal(run_config(out, sizeof(out), err, sizeof(err), 2, path), 0);
	assert_non_null(strstr(out, "lat_strides=64,256,4096\n"));
	assert_non_null(strstr(out, "suites=lat,mess\n"));
}

static void test_cmd_file_and_out(void **state)
{
	char path[256], cfgp[256], outp[256], err[4096];
	unsigned char orig[ELF_LEN], now[ELF_LEN + 16];
	struct rvm_config c;

	(void)state;
	fixture("img2.elf", path, sizeof(path), &c);
	read_file(path, orig, sizeof(orig));
	snprintf(cfgp, sizeof(cfgp), "%s/run.cfg", tu_tmpdir());
	snprintf(outp, sizeof(outp), "%s/out.elf", tu_tmpdir());
	{
		const char text[] = "# a run config\n\nreps = 7   # trailing comment\npar_kmax=16\nmess_mix=0,50,100\r\n";

		write_file(cfgp, text, sizeof(text) - 1);
	}
	/* file first, then the command line overrides */
	assert_int_equal(run_config(NULL, 0, err, sizeof(err), 7, path, "--file", cfgp, "reps=9", "-o", outp), 0);
	assert_int_equal(read_file(path, now, sizeof(now)), ELF_LEN);
	assert_memory_equal(now, orig, ELF_LEN);  /* original untouched */
	load(outp, &c);
	assert_int_equal(c.reps, 9);
	assert_int_equal(c.par_kmax, 16);
	assert_int_equal(c.mess_nmix, 3);
	assert_int_equal(c.mess_mix[1], 50);
}

static void test_cmd_refusals(void **state)
{
	char path[256], cfgp[256], err[4096], junk[256];
	unsigned char orig[ELF_LEN], now[ELF_LEN + 16];
	struct rvm_config c;

	(void)state;
	fixture("img3.elf", path, sizeof(path), &c);
	read_file(path, orig, sizeof(orig));
	snprintf(cfgp, sizeof(cfgp), "%s/bad.cfg", tu_tmpdir());
	{
		const char text[] = "reps=4\nreps=0\n# fine\nbogus=1\nlat_strides=60\nnoequals\n";

		write_file(cfgp, text, sizeof(text) - 1);
	}
	assert_int_equal(run_config(NULL, 0, err, sizeof(err), 5, path, "--file", cfgp, "par_kmax=99"), 1);
	assert_non_null(strstr(err, ":2: reps: 0 out of range"));
	assert_non_null(strstr(err, ":4: bogus: unknown key"));
	assert_non_null(strstr(err, ":5: lat_strides: element 1: 60 is not a multiple of 8"));
	assert_non_null(strstr(err, ":6: noequals: not a key=value assignment"));
	assert_non_null(strstr(err, "argument 4: par_kmax: 99 out of range 1..16"));
	assert_non_null(strstr(err, "not changed (5 errors)"));
	assert_int_equal(read_file(path, now, sizeof(now)), ELF_LEN);
	assert_memory_equal(now, orig, ELF_LEN);

	/* not an ELF */
	snprintf(junk, sizeof(junk), "%s/junk.bin", tu_tmpdir());
	{
		const char t[] = "hello world, not an elf at all......................................";

		write_file(junk, t, sizeof(t) - 1);
	}
	assert_int_equal(run_config(NULL, 0, err, sizeof(err), 2, junk), 2);
	assert_non_null(strstr(err, "junk.bin: not a RISC-V ELF64 image: no ELF magic"));
	/* missing file */
	assert_int_equal(run_config(NULL, 0, err, sizeof(err), 2, "/nonexistent/x.elf"), 2);
	assert_non_null(strstr(err, "/nonexistent/x.elf: No such file or directory"));
	/* missing --file */
	assert_int_equal(run_config(NULL, 0, err, sizeof(err), 4, path, "--file", "/nonexistent/c.cfg"), 2);
	assert_non_null(strstr(err, "/nonexistent/c.cfg: No such file or directory"));
	/* ELF without the section */
	{
		unsigned char b[ELF_LEN];

		make_elf(b, &c);
		b[STR_OFF + 2] = 'X'; /* ".Xvmess_config" */
		write_file(junk, b, ELF_LEN);
		assert_int_equal(run_config(NULL, 0, err, sizeof(err), 2, junk), 2);
		assert_non_null(strstr(err, "no .rvmess_config section"));
		/* bad block version */
		make_elf(b, &c);
		put(b, CFG_OFF + 8, 9, 4);
		write_file(junk, b, ELF_LEN);
		assert_int_equal(run_config(NULL, 0, err, sizeof(err), 2, junk), 2);
		assert_non_null(strstr(err, "config block version 9"));
	}
	assert_int_equal(read_file(path, now, sizeof(now)), ELF_LEN);
	assert_memory_equal(now, orig, ELF_LEN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elf_find),
		cmocka_unit_test(test_cfg_load_checks),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_set_accepts),
		cmocka_unit_test(test_host_refuses_what_image_refuses),
		cmocka_unit_test(test_image_codes),
		cmocka_unit_test(test_set_refusals),
		cmocka_unit_test(test_print_parse_round_trip),
		cmocka_unit_test(test_cmd_show_and_patch),
		cmocka_unit_test(test_cmd_file_and_out),
		cmocka_unit_test(test_cmd_refusals),
	};

	return cmocka_run_group_tests(tests, tu_setup_tmpdir, tu_teardown_tmpdir);
}
