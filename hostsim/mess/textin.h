/*
 * The text inputs of the curve readers: one number rule and one way to open
 * a file, shared by messsim's family readers (family.c: `rvmess sim`,
 * `hostsim --mess-curves`, the DPI adapter) and rvmess's own (`rvmess curves`,
 * `rvmess compare`), so that a file one of them accepts the other accepts too;
 * and the memory-trace line that `rvmess sim trace` and `hostsim
 * --replay-mem` both read (hostsim --trace-mem writes it).
 * Header-only: the DPI adapter builds family.c alone.
 */
#ifndef RVMESS_MESS_TEXTIN_H
#define RVMESS_MESS_TEXTIN_H

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * A number cell: an optional sign, then digits with an optional '.' and
 * exponent ("12", "1.5", ".5", "2e3"); no hex ("0x10"), no inf or nan, no
 * blanks; finite.  A '-' passes here and is refused by the caller's range
 * check (a negative bandwidth), which names the column.  0, or -1.
 */
static inline int mess_text_num(const char *s, double *v)
{
	const char *p = s;
	char *e;

	if (*p == '-' || *p == '+')
		p++;
	if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
		return -1;
	for (const char *q = p; *q; q++)
		if (!isdigit((unsigned char)*q) && *q != '.' && *q != 'e' && *q != 'E' && *q != '-' && *q != '+')
			return -1;
	errno = 0;
	*v = strtod(s, &e);
	if (e == s || *e || errno || !isfinite(*v))
		return -1;
	return 0;
}

/*
 * Open a file to read only when it is a regular file: a FIFO (which would
 * block the open, or the read, for ever), a device or a directory at a curve
 * path is refused with errno ENODEV / EISDIR.  The open itself does not
 * block (O_NONBLOCK, cleared once the file is known to be regular).
 */
static inline FILE *mess_text_open(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int e = errno;

		if (fstat(fd, &st) == 0)
			e = S_ISDIR(st.st_mode) ? EISDIR : ENODEV;
		close(fd);
		errno = e;
		return NULL;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0 || !(f = fdopen(fd, "r"))) {
		int e = errno;

		close(fd);
		errno = e;
		return NULL;
	}
	return f;
}

/* A token quoted in a message: its first 40 characters, "..." when longer,
 * so that the reason after it always fits.  "'" MESS_TOKF "'", MESS_TOKA(s) */
#define MESS_TOKF "%.40s%s"
#define MESS_TOKA(s) (s), (strnlen((s), 41) > 40 ? "..." : "")

/* errno of mess_text_open as a reason. */
static inline const char *mess_text_strerror(int e)
{
	return e == ENODEV ? "not a regular file (a FIFO or a device)" : strerror(e);
}

/*
 * A memory-trace line: "CYCLE r|w", or as hostsim --trace-mem writes it
 * "CYCLE r|w 0xADDR SRC" with "p" after SRC for a prefetch (SRC may be
 * left out); one space between fields, then the end of the line.  The
 * caller says whether it needs the address and which sources exist.
 * 0, or -1 with the reason in *why.
 */
struct mess_trace_rec {
	unsigned long long cycle, addr;
	unsigned long src;
	int write, has_addr, prefetch;
};
static inline int mess_trace_line(const char *s, struct mess_trace_rec *t, const char **why)
{
	char *e;
	if (*s < '0' || *s > '9')
		return *why = "not a \"cycle r|w address [source]\" line", -1;
	errno = 0;
	t->cycle = strtoull(s, &e, 10);
	if (errno || *e != ' ' || (e[1] != 'r' && e[1] != 'w') || (e[2] != ' ' && e[2] != '\n' && e[2]))
		return *why = "not a \"cycle r|w address [source]\" line", -1;
	t->write = e[1] == 'w';
	t->has_addr = t->prefetch = 0;
	t->addr = t->src = 0;
	if (e[2] != ' ')
		return 0;
	s = e + 3;
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !isxdigit((unsigned char)s[2]))
		return *why = "no address (0x...) after r|w", -1;
	t->addr = strtoull(s, &e, 16);
	t->has_addr = 1;
	if (*e == ' ') {
		s = e + 1;
		if (!isdigit((unsigned char)*s))
			return *why = "source not a hart number", -1;
		t->src = strtoul(s, &e, 10);
		if (*e == 'p') {
			t->prefetch = 1;
			e++;
		}
	}
	if (*e != '\n' && *e)
		return *why = "text after the source", -1;
	return 0;
}

#endif
