#include "cli/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q) {
		fprintf(stderr, "rvmess: out of memory\n");
		exit(2);
	}
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xrealloc(NULL, n), s, n);
}

char *xprintf(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *s;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = xrealloc(NULL, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

int rvm_parse_u64(const char *s, uint64_t *v)
{
	size_t n;

	if (!s)
		return -1;
	n = strlen(s);
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		uint64_t x = 0;

		if (n - 2 > 16)
			return -1;
		for (size_t i = 2; i < n; i++) {
			int h = rvm_hexval((unsigned char)s[i]);

			if (h < 0)
				return -1;
			x = (x << 4) | (uint64_t)h;
		}
		*v = x;
		return 0;
	}
	return rvm_parse_dec(s, n, v);
}
