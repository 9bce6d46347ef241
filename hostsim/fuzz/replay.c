/*
 * Corpus replay driver: the main() a fuzz target is linked with when it is
 * built without libFuzzer (gcc, ASan+UBSan; see docs/fuzzing.md).
 *
 *   fuzz_<name> [-t SECONDS] [-v] FILE|DIR...
 *
 * Runs LLVMFuzzerTestOneInput once on every file given and every regular
 * file in each DIR (sorted by name), each in its own child process with an
 * exact-size copy of the input, so that one crash does not hide the next and
 * a read one byte past the input is caught.  A child that exits non-zero
 * (a sanitizer report, an abort), dies from a signal or runs past the time
 * limit (default 60 s) is reported as
 *   FAIL PATH: how it ended
 * followed by the report's key lines; at the end
 *   replay: N inputs, M failed
 * Exit status: 0 when all passed, 1 when some failed, 2 on usage errors or
 * when there was no input at all.  -v lets the target's own output through.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz/fuzz.h"

/* UBSan's reports name the input's path through the call chain. */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return "print_stacktrace=1";
}

static unsigned timeout_s = 60;
static int verbose;
static char tmpdir[4096], logpath[4096 + 16];
static unsigned ninputs, nfailed;

static unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		/* exactly n bytes (malloc(0) may return NULL: ask for 1 then) */
		buf = malloc(n ? (size_t)n : 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

/* The lines of a failed child's stderr worth showing: the sanitizer's
 * headline and summary, the first stack frames, and our own fuzz_fail. */
static void show_report(void)
{
	FILE *f = fopen(logpath, "r");
	char line[1024];
	int frames = 0, shown = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && shown < 24) {
		int frame = strncmp(line, "    #", 5) == 0;

		if (frame && frames >= 8)
			continue;
		if (frame || strstr(line, "ERROR:") || strstr(line, "runtime error") ||
		    strstr(line, "SUMMARY:") || strncmp(line, "fuzz: ", 6) == 0) {
			printf("    %s", line);
			frames += frame;
			shown++;
		}
	}
	fclose(f);
}

static void run_one(const char *path)
{
	size_t len = 0;
	unsigned char *data = read_file(path, &len);
	pid_t pid;
	int st;

	ninputs++;
	if (!data) {
		printf("FAIL %s: cannot read: %s\n", path, strerror(errno));
		nfailed++;
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("replay: fork");
		exit(2);
	}
	if (pid == 0) {
		if (!verbose) {
			int null = open("/dev/null", O_WRONLY);
			int log = open(logpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (null < 0 || log < 0 || dup2(null, STDOUT_FILENO) < 0 || dup2(log, STDERR_FILENO) < 0)
				_exit(2);
		}
		alarm(timeout_s);
		LLVMFuzzerTestOneInput(data, len);
		free(data);
		exit(0);
	}
	free(data);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			perror("replay: waitpid");
			exit(2);
		}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return;
	nfailed++;
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
		printf("FAIL %s: still running after %u s\n", path, timeout_s);
	else if (WIFSIGNALED(st))
		printf("FAIL %s: killed by signal %d (%s)\n", path, WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		printf("FAIL %s: exit status %d\n", path, WEXITSTATUS(st));
	if (!verbose)
		show_report();
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static void run_dir(const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, by_name);
	size_t dl = strlen(dir);

	while (dl > 1 && dir[dl - 1] == '/')
		dl--;

	if (n < 0) {
		printf("FAIL %s: cannot read the folder: %s\n", dir, strerror(errno));
		ninputs++;
		nfailed++;
		return;
	}
	for (int i = 0; i < n; i++) {
		char path[8192];
		struct stat st;

		if (ents[i]->d_name[0] != '.' &&
		    (size_t)snprintf(path, sizeof(path), "%.*s/%s", (int)dl, dir, ents[i]->d_name) < sizeof(path) &&
		    stat(path, &st) == 0 && S_ISREG(st.st_mode))
			run_one(path);
		free(ents[i]);
	}
	free(ents);
}

static int usage(void)
{
	fprintf(stderr, "usage: fuzz_<name> [-t SECONDS] [-v] FILE|DIR...\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *t = getenv("TMPDIR");
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) {
			char *e;
			unsigned long v = strtoul(argv[++i], &e, 10);

			if (*e || v == 0 || v > 86400)
				return usage();
			timeout_s = (unsigned)v;
		} else if (strcmp(argv[i], "-v") == 0) {
			verbose = 1;
		} else {
			return usage();
		}
	}
	if (i == argc)
		return usage();

	/* one folder for every child's scratch files and stderr, removed at the end */
	snprintf(tmpdir, sizeof(tmpdir), "%s/rvmess-replay.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("replay: mkdtemp");
		return 2;
	}
	snprintf(logpath, sizeof(logpath), "%s/stderr.txt", tmpdir);
	setenv("TMPDIR", tmpdir, 1);

	for (; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			run_dir(argv[i]);
		else
			run_one(argv[i]);
	}
	fuzz_rmtree(tmpdir);
	printf("replay: %u inputs, %u failed\n", ninputs, nfailed);
	if (ninputs == 0)
		return 2;
	return nfailed ? 1 : 0;
}
