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
