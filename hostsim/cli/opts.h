/*
 * The option tables of the rvmess commands.  A command describes its
 * options once, one row each (name, argument kind and range, where the
 * value goes, the argument's name, a line of help); cli_parse reads argv
 * by that table, checks every value and refuses a bad one naming the option
 * and the reason, and the usage lines (each command's and `rvmess help`'s)
 * and the option list of --help are printed from the same table.
 *
 * Values go into a struct of the command's own, named by offsetof, so that
 * a table is a constant that main.c's command list can print too.
 *
 * argv, as every rvmess command reads it: "-" and a word that does not
 * start with '-' are positional arguments; an option's value is the next
 * argument, whatever it is; -h and --help ask for the help (unless the
 * table has a --help row of its own); there is no "--opt=value" and no "--".
 */
#ifndef RVMESS_CLI_OPTS_H
#define RVMESS_CLI_OPTS_H

#include <stddef.h>
#include <stdio.h>

enum cli_kind {
	CLI_FLAG,       /* int: set to 1; no argument */
	CLI_STR,        /* const char *: the argument itself */
	CLI_UINT,       /* uint64_t: decimal or 0x hex, in lo..hi */
	CLI_DBL,        /* double (strtod), in lo..hi; CLI_GT/CLI_LT make an end open */
	CLI_ENUM,       /* int: the index of the argument among meta's words "a|b|c" */
	CLI_CALL,       /* call(args, value, why, len): repeated options, lists, odd checks */
};

/* struct cli_opt flags */
#define CLI_GT    1u   /* CLI_DBL: value > lo (not >=) */
#define CLI_LT    2u   /* CLI_DBL: value < hi (not <=) */
#define CLI_WHOLE 4u   /* CLI_DBL: a whole number */
#define CLI_MANY  8u   /* may be given again: "[--file CFG]..." in the usage */

struct cli_opt {
	const char *name;   /* "--tol" or "-o" */
	const char *alias;  /* another spelling ("-q"), or NULL */
	enum cli_kind kind;
	size_t off;         /* offsetof(the command's struct, the field) */
	const char *meta;   /* the argument's name ("PCT"); CLI_ENUM: its words; NULL for a flag */
	double lo, hi;      /* CLI_UINT, CLI_DBL: the range */
	unsigned flags;
	const char *what;   /* CLI_UINT, CLI_DBL: "--tol wants <what> in (0, 100)"; default "a number" */
	int (*call)(void *args, const char *val, char *why, size_t len); /* CLI_CALL: 0, or -1 and why */
	unsigned lines;     /* the usage lines that show it: bit i for line i; 0 none */
	unsigned req;       /* the lines where it shows without brackets (a mode's must) */
	const char *in;     /* shows inside the brackets of this option ("--adaptive") */
	const char *help;   /* its line in --help's option list; NULL: not listed */
};

/* A usage line: a form of the command ("rvmess merge PLAN --todo"), or the
 * next line of one (CLI_MORE). */
#define CLI_MORE    1u  /* continues the line above: no "rvmess NAME", indented */
#define CLI_OPTIONS 2u  /* ends with "[OPTIONS]" (the rows of no line) */
struct cli_line {
	const char *args;   /* what comes first: positional arguments, a mode's words */
	unsigned flags;
	const char *label;  /* CLI_MORE: a heading before args ("RTL targets:") */
	const char *tail;   /* what comes after the options ("< FILE") */
};

/* struct cli_cmd flags */
#define CLI_BARE 1u     /* "option -o needs a value", not "option '-o' ..." (rvmess config) */

struct cli_cmd {
	const char *name;       /* "parse": messages start "rvmess parse: " */
	int (*run)(int argc, char **argv);
	const char *summary;    /* its line in `rvmess help` */
	const struct cli_line *lines;
	size_t nlines;
	const struct cli_opt *opts;
	size_t nopts;
	int max_pos;            /* positional arguments at most (-1: any) */
	unsigned flags;
};

#define CLI_N(a) (sizeof(a) / sizeof((a)[0]))
/* A macro's value as text, for help lines: "(0.001.." CLI_TEXT(MESS_MAX_GBPS) ")" */
#define CLI_TEXT(x) CLI_TEXT_(x)
#define CLI_TEXT_(x) #x

/* What cli_parse found besides the values: the positional arguments (as
 * indices into argv, in order) and how often each row was given. */
struct cli_res {
	int npos;
	int *pos;               /* argv[pos[0]], argv[pos[1]], ... */
	unsigned *given;        /* given[i]: times row i was given */
};

#define CLI_HELP 1      /* cli_parse: -h or --help; print the help, exit 0 */

/* Read argv[1..argc-1] (argv[0] is the command's name) into args by c's
 * table.  0 ok; CLI_HELP; or 2 when refused: said on stderr as "rvmess
 * NAME: reason" (an unknown option, one without its value, one argument
 * too many: with the usage after it).  res is set in every case; free it
 * with cli_res_free. */
int cli_parse(const struct cli_cmd *c, int argc, char **argv, void *args, struct cli_res *res);
void cli_res_free(struct cli_res *res);

/* Times the option named name (a row of c) was given; a name that is no
 * row of c is a programming error (abort). */
unsigned cli_given(const struct cli_cmd *c, const struct cli_res *res, const char *name);

/* c's usage lines, the first starting with first ("usage: "), the others
 * with rest (as wide), wrapped at CLI_WIDTH columns. */
#define CLI_WIDTH 100
void cli_print_usage(FILE *f, const struct cli_cmd *c, const char *first, const char *rest);

/* A usage error: the usage on stderr and a pointer to --help.  Returns 2. */
int cli_usage(const struct cli_cmd *c);

/* --help's option list: "  NAME META    help", the help wrapped at 80
 * columns from column 16. */
void cli_print_options(FILE *f, const struct cli_cmd *c);

#endif
