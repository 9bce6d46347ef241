/* Scratch folder and command helpers of the fuzz targets: see fuzz.h. */
#define _XOPEN_SOURCE 700
#include "fuzz/fuzz.h"

#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static char scratch[4096];

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void fuzz_rmtree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void scratch_remove(void)
{
	if (scratch[0])
		fuzz_rmtree(scratch);
}

_Noreturn void fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("fuzz: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

const char *fuzz_scratch(void)
{
	const char *t = getenv("TMPDIR");
	struct rlimit rl;

	if (scratch[0])
		return scratch;
	if (!t || !*t)
		t = "/tmp";
	if ((size_t)snprintf(scratch, sizeof(scratch), "%s/rvmess-fuzz.XXXXXX", t) >= sizeof(scratch) ||
	    !mkdtemp(scratch)) {
		scratch[0] = '\0';
		fuzz_fail("cannot make a scratch folder under %s", t);
	}
	atexit(scratch_remove);
	if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > FUZZ_FILE_MAX)) {
		rl.rlim_cur = FUZZ_FILE_MAX;
		setrlimit(RLIMIT_FSIZE, &rl);
	}
	signal(SIGXFSZ, SIG_IGN);
	return scratch;
}

int fuzz_loader_only(void)
{
	static int v = -1;

	if (v < 0) {
		const char *e = getenv("RVMESS_FUZZ_LOADER");

		v = e && !strcmp(e, "1");
	}
	return v;
}

char *fuzz_path(char *buf, size_t len, const char *name)
{
	if ((size_t)snprintf(buf, len, "%s/%s", fuzz_scratch(), name) >= len)
		fuzz_fail("scratch path for %s too long", name);
	return buf;
}

void fuzz_write(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
		fuzz_fail("cannot write %s", path);
}

int fuzz_cmd(int (*cmd)(int, char **), const char *out_path, const char *arg0, ...)
{
	char *argv[32];
	int argc = 0, saved, fd, rc;
	va_list ap;

	argv[argc++] = (char *)arg0;
	va_start(ap, arg0);
	while ((argv[argc] = va_arg(ap, char *)) != NULL)
		if (++argc == 31)
			fuzz_fail("fuzz_cmd: too many arguments");
	va_end(ap);

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	fd = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (saved < 0 || fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
		fuzz_fail("fuzz_cmd: cannot redirect standard output");
	close(fd);
	optind = 0; /* glibc: a full getopt reset */
	rc = cmd(argc, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	return rc;
}

char *fuzz_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	do {
		if (cap - *len < 65536) {
			cap = cap ? 2 * cap : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n > 0);
	fclose(f);
	return buf;
}

void fuzz_copy(const char *from, const char *to)
{
	size_t len;
	char *buf = fuzz_read(from, &len);

	if (!buf)
		fuzz_fail("cannot read %s", from);
	fuzz_write(to, buf, len);
	free(buf);
}

long long fuzz_file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

void fuzz_check_todo(const char *path, int rc)
{
	size_t len;
	char *t = fuzz_read(path, &len);
	long long prev = -1;

	if (rc != 0) { /* refused (a bad manifest, no base image): nothing to check */
		free(t);
		return;
	}
	for (size_t i = 0; t && i < len;) {
		long long v = 0;
		size_t j = i;

		while (j < len && t[j] >= '0' && t[j] <= '9' && v < (1ll << 40))
			v = v * 10 + (t[j++] - '0');
		if (j == i || j >= len || t[j] != '\n' || v <= prev)
			fuzz_fail("merge --todo printed something that is not ascending job ids, one a line");
		prev = v;
		i = j + 1;
	}
	free(t);
}
