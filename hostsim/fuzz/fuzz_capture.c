/*
 * Fuzz target: a console as `rvmess capture - -o LOG` records it (and
 * parses it: every record gets its right checksum first, fixcrc.h).
 *
 * The property: LOG holds exactly the input up to and including the first
 * line that holds "@RVM <digits> end " (a second, plain matcher here), or
 * the whole input when no line does.  Capture's signal handlers are put
 * back after each run.
 */
#include "fuzz/fuzz.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd/cmds.h"
#include "fuzz/fixcrc.h"

/* Where the log ends: after the first line with the end pattern. */
static size_t reference_end(const char *b, size_t n)
{
	size_t line = 0;

	for (size_t i = 0; i < n; i++) {
		if (b[i] != '\n')
			continue;
		for (size_t k = line; k + 5 <= i; k++) {
			size_t d = k + 5;

			if (memcmp(b + k, "@RVM ", 5) != 0)
				continue;
			while (d < i && b[d] >= '0' && b[d] <= '9')
				d++;
			if (d > k + 5 && i - d >= 5 && memcmp(b + d, " end ", 5) == 0)
				return i + 1;
		}
		line = i + 1;
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char in[4200], log[4200], dir[4200];
	char *buf = malloc(size ? size : 1), *got;
	struct sigaction old[3];
	static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
	int fd, saved;
	size_t want, glen;

	if (!buf)
		abort();
	memcpy(buf, data, size);
	fuzz_fix_crcs(buf, size);
	fuzz_write(fuzz_path(in, sizeof(in), "console.in"), buf, size);
	fuzz_path(dir, sizeof(dir), "out");
	fuzz_path(log, sizeof(log), "console.log");
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], NULL, &old[i]);
	fd = open(in, O_RDONLY);
	saved = dup(0);
	if (fd < 0 || saved < 0 || dup2(fd, 0) < 0)
		fuzz_fail("cannot put the input on standard input");
	close(fd);
	fuzz_cmd(cmd_capture, NULL, "capture", "-", "-o", log, "--out", dir, "-q", (char *)NULL);
	dup2(saved, 0);
	close(saved);
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	want = reference_end(buf, size);
	got = fuzz_read(log, &glen);
	if (!got)
		fuzz_fail("capture wrote no log");
	if (glen != want || memcmp(got, buf, want) != 0)
		fuzz_fail("the log holds %zu bytes, want the first %zu of the input", glen, want);
	free(got);
	free(buf);
	return 0;
}
