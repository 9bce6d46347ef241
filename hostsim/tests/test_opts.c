/* Unit tests: the option tables of the rvmess commands (hostsim/cli/opts.c):
 * parsing by the table, values refused naming the option and the reason,
 * positional arguments, repeated options, and the usage and option list
 * printed from the table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli/opts.h"

struct targs {
	int quiet, mode;
	const char *out;
	uint64_t harts;
	double tol;
	const char *files[4];
	int nfiles;
};

static int add_file(void *args, const char *val, char *why, size_t len)
{
	struct targs *a = args;

	if (a->nfiles == 4) {
		snprintf(why, len, "at most 4 --file options");
		return -1;
	}
	a->files[a->nfiles++] = val;
	return 0;
}

#define F(x) offsetof(struct targs, x)
static const struct cli_opt topts[] = {
	{ .name = "-o", .kind = CLI_STR, .off = F(out), .meta = "DIR", .lines = 1, .req = 1,
	  .help = "output directory" },
	{ .name = "--quiet", .alias = "-q", .kind = CLI_FLAG, .off = F(quiet), .lines = 1, .help = "say less" },
	{ .name = "--harts", .kind = CLI_UINT, .off = F(harts), .meta = "N", .lo = 1, .hi = 64, .lines = 1,
	  .help = "harts of the target, a long line of help that wraps once it goes past the eightieth column" },
	{ .name = "--tol", .kind = CLI_DBL, .off = F(tol), .meta = "PCT", .lo = 0, .hi = 100, .flags = CLI_GT | CLI_LT,
	  .what = "a percentage", .lines = 1 },
	{ .name = "--file", .kind = CLI_CALL, .call = add_file, .meta = "CFG", .flags = CLI_MANY, .lines = 1,
	  .help = "a config file" },
	{ .name = "--mode", .kind = CLI_ENUM, .off = F(mode), .meta = "point|curve|both", .lines = 1, .in = "--tol" },
	{ .name = "--todo", .kind = CLI_FLAG, .off = F(quiet), .lines = 2, .req = 2 },
};
static const struct cli_line tlines[] = {
	{ .args = "PLAN [key=value ...]" },
	{ .args = "PLAN" },
};
static const struct cli_cmd tcmd = {
	.name = "t", .lines = tlines, .nlines = CLI_N(tlines), .opts = topts, .nopts = CLI_N(topts), .max_pos = 3,
};

/* cli_parse on a NULL-terminated list, its stderr kept in err. */
static int parse_list(struct targs *a, struct cli_res *res, char *err, size_t errlen, ...)
{
	char *argv[32], path[] = "/tmp/rvmess_test_opts.XXXXXX";
	int argc = 0, fd = mkstemp(path), save, rc;
	va_list ap;
	FILE *f;

	assert_true(fd >= 0);
	memset(a, 0, sizeof(*a));
	argv[argc++] = "t";
	va_start(ap, errlen);
	for (char *s; (s = va_arg(ap, char *)) != NULL;)
		argv[argc++] = s;
	va_end(ap);
	argv[argc] = NULL;
	fflush(stderr);
	save = dup(2);
	dup2(fd, 2);
	rc = cli_parse(&tcmd, argc, argv, a, res);
	fflush(stderr);
	dup2(save, 2);
	close(save);
	f = fdopen(fd, "r");
	rewind(f);
	err[fread(err, 1, errlen - 1, f)] = '\0';
	fclose(f);
	unlink(path);
	return rc;
}

static void test_flag_and_values(void **state)
{
	struct targs a;
	struct cli_res r;
	char err[2048];

	(void)state;
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "-q", "-o", "d", "--harts", "0x10", "--tol", "2.5",
				    "--mode", "curve", NULL), 0);
	assert_int_equal(a.quiet, 1);
	assert_string_equal(a.out, "d");
	assert_int_equal(a.harts, 16);
	assert_true(a.tol == 2.5);
	assert_int_equal(a.mode, 1);
	assert_int_equal(cli_given(&tcmd, &r, "--quiet"), 1);
	assert_int_equal(cli_given(&tcmd, &r, "--todo"), 0);
	assert_string_equal(err, "");
	cli_res_free(&r);
	/* the value of an option is the next argument, whatever it is */
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "-o", "--quiet", NULL), 0);
	assert_string_equal(a.out, "--quiet");
	assert_int_equal(a.quiet, 0);
	cli_res_free(&r);
}

static void test_range_refused(void **state)
{
	struct targs a;
	struct cli_res r;
	char err[2048];

	(void)state;
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "--harts", "65", NULL), 2);
	assert_string_equal(err, "rvmess t: --harts wants a number in 1..64, got '65'\n");
	cli_res_free(&r);
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "--harts", "0", NULL), 2);
	assert_string_equal(err, "rvmess t: --harts wants a number in 1..64, got '0'\n");
	cli_res_free(&r);
	/* both ends of the range are in it */
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "--harts", "64", NULL), 0);
	assert_int_equal(a.harts, 64);
	cli_res_free(&r);
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "--harts", "1", NULL), 0);
	cli_res_free(&r);
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "--harts", "8K", NULL), 2);
	cli_res_free(&r);
	/* an open end is out */
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "--tol", "100", NULL), 2);
	assert_string_equal(err, "rvmess t: --tol wants a percentage in (0, 100), got '100'\n");
	cli_res_free(&r);
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "--tol", "99.99", NULL), 0);
	cli_res_free(&r);
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "--tol", "nan", NULL), 2);
	cli_res_free(&r);
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "--tol", "5x", NULL), 2);
	cli_res_free(&r);
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "--mode", "line", NULL), 2);
	assert_string_equal(err, "rvmess t: --mode wants point, curve or both, got 'line'\n");
	cli_res_free(&r);
	/* a long value is shown cut */
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "--harts",
				    "123456789012345678901234567890123456789012345678901234567890", NULL), 2);
	assert_non_null(strstr(err, "got '1234567890123456789012345678901234567890...'\n"));
	cli_res_free(&r);
}

static void test_usage_errors(void **state)
{
	struct targs a;
	struct cli_res r;
	char err[2048];

	(void)state;
	/* a missing value */
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "P", "--harts", NULL), 2);
	assert_non_null(strstr(err, "rvmess t: option '--harts' needs a value\nusage: rvmess t PLAN"));
	assert_non_null(strstr(err, "(rvmess t --help explains the options)\n"));
	cli_res_free(&r);
	/* an unknown option, even last */
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "P", "--frob", NULL), 2);
	assert_non_null(strstr(err, "rvmess t: unknown option '--frob'\nusage: "));
	cli_res_free(&r);
	/* one positional argument too many */
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "a", "b", "c", "d", NULL), 2);
	assert_non_null(strstr(err, "rvmess t: unexpected argument 'd'\nusage: "));
	cli_res_free(&r);
	/* help, unless something before it was refused */
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "P", "-h", "--frob", NULL), CLI_HELP);
	cli_res_free(&r);
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "--frob", "--help", NULL), 2);
	cli_res_free(&r);
}

static void test_positional_order(void **state)
{
	struct targs a;
	struct cli_res r;
	char err[2048];

	(void)state;
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "one", "-q", "-", "-o", "x", "three", NULL), 0);
	assert_int_equal(r.npos, 3);
	assert_int_equal(r.pos[0], 1); /* argv indices: "argument 3" in a message is argv[3] */
	assert_int_equal(r.pos[1], 3);
	assert_int_equal(r.pos[2], 6);
	cli_res_free(&r);
}

static void test_repeated(void **state)
{
	struct targs a;
	struct cli_res r;
	char err[2048];

	(void)state;
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "--file", "a", "P", "--file", "b", "--file", "c", NULL), 0);
	assert_int_equal(a.nfiles, 3);
	assert_string_equal(a.files[0], "a");
	assert_string_equal(a.files[2], "c");
	assert_int_equal(cli_given(&tcmd, &r, "--file"), 3);
	cli_res_free(&r);
	assert_int_equal(parse_list(&a, &r, err, sizeof(err), "--file", "a", "--file", "b", "--file", "c", "--file", "d",
				    "--file", "e", NULL), 2);
	assert_string_equal(err, "rvmess t: at most 4 --file options\n");
	cli_res_free(&r);
}

static char *usage_text(void (*fn)(FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f);
	fclose(f);
	return buf;
}

static void print_usage(FILE *f) { cli_print_usage(f, &tcmd, "usage: ", "       "); }
static void print_options(FILE *f) { cli_print_options(f, &tcmd); }

static void test_usage_text(void **state)
{
	char *u = usage_text(print_usage), *o = usage_text(print_options);

	(void)state;
	assert_string_equal(u, "usage: rvmess t PLAN [key=value ...] -o DIR [--quiet] [--harts N]\n"
			       "                [--tol PCT [--mode point|curve|both]] [--file CFG]...\n"
			       "       rvmess t PLAN --todo\n");
	assert_string_equal(o, "  -o DIR        output directory\n"
			       "  -q, --quiet   say less\n"
			       "  --harts N     harts of the target, a long line of help that wraps once it goes\n"
			       "                past the eightieth column\n"
			       "  --file CFG    a config file\n");
	free(u);
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flag_and_values),
		cmocka_unit_test(test_range_refused),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_positional_order),
		cmocka_unit_test(test_repeated),
		cmocka_unit_test(test_usage_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
