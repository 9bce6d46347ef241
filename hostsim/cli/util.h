/* Small helpers shared by the rvmess CLI library. */
#ifndef RVMESS_CLI_UTIL_H
#define RVMESS_CLI_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* realloc that never returns NULL: out of memory ends the tool (status 2). */
void *xrealloc(void *p, size_t n);
/* strdup and a printf into a new string, on xrealloc. */
char *xstrdup(const char *s);
char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The n characters at s as an unsigned decimal (digits only, at least one,
 * at most 2^64-1): 0 and *v set, or -1.  Inline: the log reader's hot path. */
static inline int rvm_parse_dec(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;

	if (n == 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned d;

		if (s[i] < '0' || s[i] > '9')
			return -1;
		d = (unsigned)(s[i] - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

/* A hex digit's value, or -1. */
static inline int rvm_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A whole string as unsigned decimal or 0x and 1 to 16 hex digits (the log's
 * fields, plan's numeric options); 0 on success, -1 for NULL or not a number. */
int rvm_parse_u64(const char *s, uint64_t *v);

/* A user's token quoted in a message: its first 40 characters, then "..."
 * when it is longer, so that a long token can never push the reason out of
 * a fixed-size message (nor echo a megabyte).  printf("'" TOKF "'", TOKA(s)). */
#define TOK_SHOWN 40
#define TOKF "%.40s%s"
#define TOKA(s) (s), (strnlen((s), TOK_SHOWN + 1) > TOK_SHOWN ? "..." : "")

#endif
