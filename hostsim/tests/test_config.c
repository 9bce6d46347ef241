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

#include "cli/cmds.h"
#include "cli/config.h"
#include "cli/elf.h"
#include "cli_testutil.h"


/* ---- a minimal RISC-V ELF64 with .rvmess_config -------------------------- */

#define CFG_OFF   64u
#define STR_OFF   (CFG_OFF + 416u)
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
	sect(b, 1, 1, 1, CFG_OFF, 416);       /* .rvmess_config PROGBITS */
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
	assert_int_equal(cfg_load(b + s.offset, (size_t)s.size, c, why, sizeof(why)), 0);
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
	assert_int_equal(s.size, 416);
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
	assert_int_equal(cfg_load((unsigned char *)&c, sizeof(c), &d, why, sizeof(why)), 0);
	assert_memory_equal(&c, &d, sizeof(c));
	assert_int_equal(cfg_load((unsigned char *)&c, 100, &d, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "smaller than"));
	c.magic ^= 1;
	assert_int_equal(cfg_load((unsigned char *)&c, sizeof(c), &d, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "bad magic"));
	cfg_default(&c);
	c.version = 2;
	assert_int_equal(cfg_load((unsigned char *)&c, sizeof(c), &d, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "version 2"));
	cfg_default(&c);
	c.size = 400;
	assert_int_equal(cfg_load((unsigned char *)&c, sizeof(c), &d, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "size 400"));
	cfg_default(&c);
	c.lat_nstrides = 9;
	assert_int_equal(cfg_load((unsigned char *)&c, sizeof(c), &d, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "lat_nstrides=9"));
	cfg_default(&c);
	c.mess_npause = 49;
	assert_int_equal(cfg_load((unsigned char *)&c, sizeof(c), &d, why, sizeof(why)), -1);
	cfg_default(&c);
	c.mess_nmix = 52;
	assert_int_equal(cfg_load((unsigned char *)&c, sizeof(c), &d, why, sizeof(why)), -1);
}

static void test_numbers(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(cfg_parse_num("32K", &v), 0);
	assert_int_equal(v, 32768);
	assert_int_equal(cfg_parse_num("3m", &v), 0);
	assert_int_equal(v, 3u << 20);
	assert_int_equal(cfg_parse_num("2G", &v), 0);
	assert_int_equal(v, 2ull << 30);
	assert_int_equal(cfg_parse_num("0x40", &v), 0);
	assert_int_equal(v, 64);
	assert_int_equal(cfg_parse_num("18446744073709551615", &v), 0);
	assert_int_equal(cfg_parse_num("18446744073709551616", &v), -1);
	assert_int_equal(cfg_parse_num("17179869184G", &v), -1);
	assert_int_equal(cfg_parse_num("", &v), -1);
	assert_int_equal(cfg_parse_num("K", &v), -1);
	assert_int_equal(cfg_parse_num("-1", &v), -1);
	assert_int_equal(cfg_parse_num("1.5", &v), -1);
	assert_int_equal(cfg_parse_num("12KB", &v), -1);
	assert_int_equal(cfg_parse_num("0x", &v), -1);
}

static void test_set_refusals(void **state)
{
	static const char *const cases[][3] = {
		{ "nosuchkey", "1", "unknown key" },
		{ "lat_nstrides", "2", "derived from lat_strides" },
		{ "magic", "0", "fixed by the image format" },
		{ "reps", "0", "0 out of range 1..1000000" },
		{ "reps", "abc", "'abc' is not a number" },
		{ "reps", "", "'' is not a number" },
		{ "seed", "4294967296", "out of range" },
		{ "timeout_ms", "0", "out of range" },
		{ "par_kmax", "0", "out of range 1..16" },
		{ "par_kmax", "17", "out of range 1..16" },
		{ "chase_size", "1000", "not a multiple of 64" },
		{ "chase_size", "256", "out of range 512.." },
		{ "lat_max", "2T", "not a number" },
		{ "par_max", "1025", "not a multiple of 64" },
		{ "mess_gen_size", "0", "out of range" },
		{ "chase_loads", "0", "out of range" },
		{ "chase_all_harts", "2", "not 0 or 1" },
		{ "lat_random", "yes", "not 0 or 1" },
		{ "lat_strides", "", "empty list" },
		{ "lat_strides", "64,,128", "empty element" },
		{ "lat_strides", "60", "stride 60 is not a multiple of 8" },
		{ "lat_strides", "0", "out of range 8.." },
		{ "lat_strides", "8,16,24,32,40,48,56,64,72", "more than 8 strides" },
		{ "mess_mix", "0,51", "odd" },
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
		assert_non_null(strstr(why, "more than 51 mixes"));
		assert_int_equal(cfg_set(&c, "mess_pause", pause, why, sizeof(why)), -1);
		assert_non_null(strstr(why, "more than 48 pauses"));
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
	assert_int_equal(cfg_set(&c, "seed", "0xdeadbeef", why, sizeof(why)), 0);
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
	assert_non_null(strstr(out, "lat_strides=64\n"));
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
	assert_non_null(strstr(err, ":5: lat_strides: stride 60 is not a multiple of 8"));
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
		cmocka_unit_test(test_set_refusals),
		cmocka_unit_test(test_print_parse_round_trip),
		cmocka_unit_test(test_cmd_show_and_patch),
		cmocka_unit_test(test_cmd_file_and_out),
		cmocka_unit_test(test_cmd_refusals),
	};

	return cmocka_run_group_tests(tests, tu_setup_tmpdir, tu_teardown_tmpdir);
}
