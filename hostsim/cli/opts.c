/* The option tables of the rvmess commands: see opts.h. */
#include "cli/opts.h"
#include "cli/util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void say(const struct cli_cmd *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "rvmess %s: ", c->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static const struct cli_opt *find(const struct cli_cmd *c, const char *a)
{
	for (size_t i = 0; i < c->nopts; i++)
		if (!strcmp(a, c->opts[i].name) || (c->opts[i].alias && !strcmp(a, c->opts[i].alias)))
			return &c->opts[i];
	return NULL;
}

/* "1..64", "0.001..1e+06", "(0, 100)", "(0, 1e+07]" */
static void range_text(const struct cli_opt *o, char *buf, size_t len)
{
	if (o->kind == CLI_UINT)
		snprintf(buf, len, "%llu..%llu", (unsigned long long)o->lo, (unsigned long long)o->hi);
	else if (!(o->flags & (CLI_GT | CLI_LT)))
		snprintf(buf, len, "%g..%g", o->lo, o->hi);
	else
		snprintf(buf, len, "%c%g, %g%c", o->flags & CLI_GT ? '(' : '[', o->lo, o->hi,
			 o->flags & CLI_LT ? ')' : ']');
}

/* CLI_ENUM: the index of val among meta's words, or -1; choices gets
 * "a, b or c" when not NULL. */
static int enum_index(const char *meta, const char *val, char *choices, size_t len)
{
	int idx = -1, k = 0, nw = 1;
	size_t used = 0;

	for (const char *p = meta; *p; p++)
		nw += *p == '|';
	if (choices)
		choices[0] = '\0';
	for (const char *w = meta;; k++) {
		const char *e = strchr(w, '|');
		size_t n = e ? (size_t)(e - w) : strlen(w);

		if (strlen(val) == n && !strncmp(val, w, n) && idx < 0)
			idx = k;
		if (choices && used < len)
			used += (size_t)snprintf(choices + used, len - used, "%s%.*s",
						 k == 0 ? "" : k == nw - 1 ? " or " : ", ", (int)n, w);
		if (!e)
			break;
		w = e + 1;
	}
	return idx;
}

/* Store val into args by row o; 0, or -1 said. */
static int store(const struct cli_cmd *c, const struct cli_opt *o, const char *val, void *args)
{
	char *dst = (char *)args + o->off, rng[64], why[512];

	switch (o->kind) {
	case CLI_FLAG:
		*(int *)dst = 1;
		return 0;
	case CLI_STR:
		*(const char **)dst = val;
		return 0;
	case CLI_UINT: {
		uint64_t v;

		if (rvm_parse_u64(val, &v) == 0 && (double)v >= o->lo && (double)v <= o->hi) {
			*(uint64_t *)dst = v;
			return 0;
		}
		break;
	}
	case CLI_DBL: {
		char *e;
		double v;

		errno = 0;
		v = strtod(val, &e);
		if (e != val && !*e && !errno && (o->flags & CLI_GT ? v > o->lo : v >= o->lo) &&
		    (o->flags & CLI_LT ? v < o->hi : v <= o->hi) && (!(o->flags & CLI_WHOLE) || v == floor(v))) {
			*(double *)dst = v;
			return 0;
		}
		break;
	}
	case CLI_ENUM: {
		int k = enum_index(o->meta, val, why, sizeof(why));

		if (k >= 0) {
			*(int *)dst = k;
			return 0;
		}
		say(c, "%s wants %s, got '" TOKF "'", o->name, why, TOKA(val));
		return -1;
	}
	case CLI_CALL:
		why[0] = '\0';
		if (o->call(args, val, why, sizeof(why)) == 0)
			return 0;
		say(c, "%s", why);
		return -1;
	}
	range_text(o, rng, sizeof(rng));
	say(c, "%s wants %s in %s, got '" TOKF "'", o->name, o->what ? o->what : "a number", rng, TOKA(val));
	return -1;
}

void cli_res_free(struct cli_res *res)
{
	free(res->pos);
	free(res->given);
	res->pos = NULL;
	res->given = NULL;
	res->npos = 0;
}

int cli_parse(const struct cli_cmd *c, int argc, char **argv, void *args, struct cli_res *res)
{
	res->npos = 0;
	res->pos = xrealloc(NULL, sizeof(int) * (size_t)(argc > 0 ? argc : 1));
	res->given = xrealloc(NULL, sizeof(unsigned) * (c->nopts ? c->nopts : 1));
	memset(res->given, 0, sizeof(unsigned) * c->nopts);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct cli_opt *o;

		if (a[0] != '-' || !a[1]) {
			if (c->max_pos >= 0 && res->npos >= c->max_pos) {
				say(c, "unexpected argument '" TOKF "'", TOKA(a));
				return cli_usage(c);
			}
			res->pos[res->npos++] = i;
			continue;
		}
		o = find(c, a);
		if (!o && (!strcmp(a, "-h") || !strcmp(a, "--help")))
			return CLI_HELP;
		if (!o) {
			say(c, "unknown option '" TOKF "'", TOKA(a));
			return cli_usage(c);
		}
		res->given[o - c->opts]++;
		if (o->kind == CLI_FLAG) {
			store(c, o, NULL, args);
			continue;
		}
		if (i + 1 >= argc) {
			say(c, c->flags & CLI_BARE ? "option %s needs a value" : "option '%s' needs a value", a);
			return cli_usage(c);
		}
		if (store(c, o, argv[++i], args) < 0)
			return 2;
	}
	return 0;
}

unsigned cli_given(const struct cli_cmd *c, const struct cli_res *res, const char *name)
{
	for (size_t i = 0; i < c->nopts; i++)
		if (!strcmp(c->opts[i].name, name))
			return res->given ? res->given[i] : 0;
	fprintf(stderr, "rvmess %s: internal error: no option %s in the table\n", c->name, name);
	abort();
}

/* ---- usage -------------------------------------------------------------- */

struct line {
	FILE *f;
	int col, indent;   /* the current column; where a wrapped line goes on */
	int fresh;         /* nothing after the indentation yet */
};

static void put(struct line *l, const char *s)
{
	int n = (int)strlen(s);

	if (!n)
		return;
	if (!l->fresh && l->col + 1 + n > CLI_WIDTH) {
		fprintf(l->f, "\n%*s", l->indent, "");
		l->col = l->indent;
		l->fresh = 1;
	}
	if (!l->fresh) {
		fputc(' ', l->f);
		l->col++;
	}
	fputs(s, l->f);
	l->col += n;
	l->fresh = 0;
}

/* Row o as shown on line k ("[--tol PCT]", "--todo", "[--file CFG]..."),
 * with the rows inside its brackets. */
static void piece(const struct cli_cmd *c, const struct cli_opt *o, unsigned k, char *buf, size_t len)
{
	int req = (o->req >> k) & 1;
	size_t n = (size_t)snprintf(buf, len, "%s%s%s%s", req ? "" : "[", o->name, o->meta ? " " : "",
				    o->meta ? o->meta : "");

	for (size_t i = 0; i < c->nopts && n < len; i++) {
		const struct cli_opt *in = &c->opts[i];

		if (in->in && !strcmp(in->in, o->name) && ((in->lines >> k) & 1)) {
			buf[n++] = ' ';
			piece(c, in, k, buf + n, len - n);
			n += strlen(buf + n);
		}
	}
	if (n < len)
		snprintf(buf + n, len - n, "%s%s", req ? "" : "]", o->flags & CLI_MANY ? "..." : "");
}

void cli_print_usage(FILE *f, const struct cli_cmd *c, const char *first, const char *rest)
{
	struct line l = { f, 0, 0, 1 };
	char head[64], buf[512];

	snprintf(head, sizeof(head), "rvmess %s", c->name);
	for (size_t k = 0; k < c->nlines; k++) {
		const struct cli_line *ln = &c->lines[k];

		if (k)
			fputc('\n', f);
		if (!(ln->flags & CLI_MORE)) {
			fprintf(f, "%s%s", k ? rest : first, head);
			l.col = (int)strlen(rest) + (int)strlen(head);
			l.indent = l.col + 1;
			l.fresh = 0;
		} else if (ln->label) {
			fprintf(f, "%s  %s", rest, ln->label);
			l.col = (int)strlen(rest) + 2 + (int)strlen(ln->label);
			l.indent = l.col + 1;
			l.fresh = 0;
		} else {
			fprintf(f, "%*s", l.indent, "");
			l.col = l.indent;
			l.fresh = 1;
		}
		if (ln->args)
			put(&l, ln->args);
		for (size_t i = 0; i < c->nopts; i++)
			if (!c->opts[i].in && ((c->opts[i].lines >> k) & 1)) {
				piece(c, &c->opts[i], (unsigned)k, buf, sizeof(buf));
				put(&l, buf);
			}
		if (ln->flags & CLI_OPTIONS)
			put(&l, "[OPTIONS]");
		if (ln->tail)
			put(&l, ln->tail);
	}
	fputc('\n', f);
}

int cli_usage(const struct cli_cmd *c)
{
	cli_print_usage(stderr, c, "usage: ", "       ");
	fprintf(stderr, "(rvmess %s --help explains the options)\n", c->name);
	return 2;
}

void cli_print_options(FILE *f, const struct cli_cmd *c)
{
	for (size_t i = 0; i < c->nopts; i++) {
		const struct cli_opt *o = &c->opts[i];
		char name[128];
		int col;

		if (!o->help)
			continue;
		col = snprintf(name, sizeof(name), "  %s%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "",
			       o->name, o->meta ? " " : "", o->meta ? o->meta : "");
		fputs(name, f);
		fprintf(f, "%*s", col < 16 ? 16 - col : 2, ""); /* a long name: two spaces */
		col = col < 16 ? 16 : col + 2;
		for (const char *w = o->help; *w;) { /* word by word, wrapped at 80 */
			size_t n = strcspn(w, " \n");

			if (*w == ' ' || *w == '\n') {
				if (*w++ == '\n')
					fprintf(f, "\n%16s", ""), col = 16;
				continue;
			}
			if (col > 16 && col + 1 + (int)n > 80)
				fprintf(f, "\n%16s", ""), col = 16;
			int sp = col > 16 && w != o->help; /* a word before it on this line */
			fprintf(f, "%s%.*s", sp ? " " : "", (int)n, w);
			col += sp + (int)n;
			w += n;
		}
		fputc('\n', f);
	}
}
