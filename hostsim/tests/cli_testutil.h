/* Helpers for the CLI unit tests: build record lines with a computed CRC,
 * capture diagnostics in memory. */
#ifndef RVMESS_TESTS_CLI_TESTUTIL_H
#define RVMESS_TESTS_CLI_TESTUTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rvmess/crc32.h"

/* A scratch directory for a test group: tu_tmpdir() is its path, set up by
 * tu_setup_tmpdir and removed with its contents by tu_teardown_tmpdir (use
 * them as the group's setup and teardown). */
static inline char *tu_tmpdir(void)
{
	static char dir[64];
	return dir;
}

static inline int tu_setup_tmpdir(void **state)
{
	(void)state;
	snprintf(tu_tmpdir(), 64, "/tmp/rvmess_test.XXXXXX");
	return mkdtemp(tu_tmpdir()) ? 0 : -1;
}

static inline int tu_teardown_tmpdir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tu_tmpdir());
	return system(cmd) == 0 ? 0 : -1;
}

/* A growing text buffer. */
struct tbuf {
	char *s;
	size_t len, cap;
};

static inline void tb_put(struct tbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			abort();
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static inline void tb_printf(struct tbuf *b, const char *fmt, ...)
{
	char tmp[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	tb_put(b, tmp, (size_t)n);
}

static inline void tb_free(struct tbuf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

/* One record line "@RVM <seq> <type> h=<hart>[ fields] *crc" (no newline)
 * into out; fields is "" or "key=value key=value". */
static inline void make_rec(char *out, size_t len, unsigned long seq, const char *type,
			    unsigned hart, const char *fields)
{
	char body[2048];
	int n = snprintf(body, sizeof(body), "@RVM %lu %s h=%u%s%s", seq, type, hart,
			 *fields ? " " : "", fields);

	char crc[16];

	if (n < 0 || (size_t)n + 11 > len)
		abort();
	snprintf(crc, sizeof(crc), " *%08x", rvm_crc32(0, body, (size_t)n));
	memcpy(out, body, (size_t)n);
	memcpy(out + n, crc, 11);
}

/* Append a record line plus "\n". */
static inline void tb_rec(struct tbuf *b, unsigned long seq, const char *type, unsigned hart,
			  const char *fields)
{
	char line[2200];

	make_rec(line, sizeof(line), seq, type, hart, fields);
	tb_printf(b, "%s\n", line);
}

/* Diagnostics captured in memory. */
struct diag {
	char *buf;
	size_t len;
	FILE *f;
};

static inline void diag_open(struct diag *d)
{
	d->buf = NULL;
	d->len = 0;
	d->f = open_memstream(&d->buf, &d->len);
	if (!d->f)
		abort();
}

static inline const char *diag_text(struct diag *d)
{
	fflush(d->f);
	return d->buf ? d->buf : "";
}

static inline void diag_close(struct diag *d)
{
	fclose(d->f);
	free(d->buf);
}

#endif
