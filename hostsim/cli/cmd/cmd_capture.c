/*
 * rvmess capture DEVICE|- -o LOG: record a board's (or any target's) console.
 *
 * Reads a serial port (set raw at --baud) or stdin, appends every byte to
 * LOG the moment it arrives (plain write(2), nothing buffered: LOG can be
 * followed live, and an interrupted capture keeps all it read), and stops
 * after the line that holds the `end` record (docs/protocol.md:
 * `@RVM <seq> end ` anywhere in a line), at --timeout, when the input ends or
 * on SIGINT, SIGTERM or SIGHUP.  Bytes after the end line are not written.
 * Then it parses LOG like `rvmess parse LOG -o DIR` (DIR: --out, default
 * LOG's directory) and exits with the parse status.
 *
 * LOG is a regular file or nothing yet (a symlink, a FIFO, a device, a
 * folder at its path is refused), never an input or one of the parse's
 * outputs: the device itself, the file behind stdin, or a name parse writes
 * into DIR (records.csv, summary.txt, ...) is refused before anything is
 * read or LOG is touched.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cli/cmd/cmds.h"
#include "cli/util.h"

static const struct {
	unsigned long baud;
	speed_t speed;
} speeds[] = {
	{ 9600, B9600 }, { 19200, B19200 }, { 38400, B38400 }, { 57600, B57600 },
	{ 115200, B115200 }, { 230400, B230400 }, { 460800, B460800 }, { 921600, B921600 },
	{ 1000000, B1000000 }, { 1500000, B1500000 }, { 2000000, B2000000 }, { 3000000, B3000000 },
};

struct capture_args {
	const char *logp, *dir;
	unsigned long baud;
	double timeout;          /* 0: none */
	int quiet;
};

static int set_baud(void *args, const char *val, char *why, size_t len)
{
	struct capture_args *a = args;
	char *e;
	size_t k;

	errno = 0;
	a->baud = strtoul(val, &e, 10);
	for (k = 0; k < sizeof speeds / sizeof speeds[0] && speeds[k].baud != a->baud; k++)
		;
	if (errno || *e || e == val || k == sizeof speeds / sizeof speeds[0]) {
		snprintf(why, len, "--baud wants one of 9600 19200 38400 57600 115200 230400 460800 921600 1000000 "
			 "1500000 2000000 3000000, got '" TOKF "'", TOKA(val));
		return -1;
	}
	return 0;
}

#define F(x) offsetof(struct capture_args, x)
static const struct cli_opt capture_options[] = {
	{ .name = "-o", .kind = CLI_STR, .off = F(logp), .meta = "LOG", .lines = 1, .req = 1,
	  .help = "the log file, written as bytes arrive (a symlink, FIFO or other non-regular file, the input "
		  "itself or a name the parse writes into its folder is refused)" },
	{ .name = "--baud", .kind = CLI_CALL, .call = set_baud, .meta = "N", .lines = 1,
	  .help = "serial speed (default 115200); ignored for non-terminals" },
	{ .name = "--timeout", .kind = CLI_DBL, .off = F(timeout), .meta = "S", .lo = 0, .hi = 1e7, .flags = CLI_GT,
	  .what = "seconds", .lines = 1,
	  .help = "stop after S seconds without the end record (default: wait for ever, until the end record or "
		  "the end of the input)" },
	{ .name = "--out", .kind = CLI_STR, .off = F(dir), .meta = "DIR", .lines = 1,
	  .help = "where the parse writes its files (default: LOG's directory)" },
	{ .name = "--quiet", .alias = "-q", .kind = CLI_FLAG, .off = F(quiet), .lines = 1,
	  .help = "the parse prints only its summary lines" },
};
#undef F
static const struct cli_line capture_usage[] = { { .args = "DEVICE|-" } };
const struct cli_cmd capture_command = {
	.name = "capture", .run = cmd_capture,
	.summary = "record a serial console until the end record, then parse it",
	.lines = capture_usage, .nlines = CLI_N(capture_usage), .opts = capture_options,
	.nopts = CLI_N(capture_options), .max_pos = 1,
};

static int help(void)
{
	cli_print_usage(stdout, &capture_command, "usage: ", "       ");
	printf("Record a console (a board's serial port, or stdin with -) into LOG as it\n"
	       "arrives, until the line with the `end` record (or SIGINT, SIGTERM, SIGHUP),\n"
	       "then parse LOG.\n"
	       "  DEVICE        a serial port (e.g. /dev/ttyUSB0), set raw (8N1, no flow\n"
	       "                control, no echo) at --baud; or - for stdin\n");
	cli_print_options(stdout, &capture_command);
	printf("Exit status: the parse's (0 clean, 1 errors or incomplete, as after a\n"
	       "timeout or an input that ended early, 3 a detected bug); 2 usage or I/O\n"
	       "error.\n");
	return 0;
}

static int set_raw(int fd, unsigned long baud, const char *dev)
{
	struct termios t;
	size_t i;

	for (i = 0; i < sizeof speeds / sizeof speeds[0] && speeds[i].baud != baud; i++)
		;
	if (tcgetattr(fd, &t) < 0) {
		fprintf(stderr, "rvmess capture: %s: cannot read the terminal settings: %s\n", dev, strerror(errno));
		return -1;
	}
	cfmakeraw(&t);
	t.c_cflag |= CLOCAL | CREAD;
	t.c_cflag &= ~(tcflag_t)(CSTOPB | CRTSCTS);
	t.c_iflag &= ~(tcflag_t)(IXON | IXOFF | IXANY);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (cfsetispeed(&t, speeds[i].speed) < 0 || cfsetospeed(&t, speeds[i].speed) < 0 ||
	    tcsetattr(fd, TCSANOW, &t) < 0) {
		fprintf(stderr, "rvmess capture: %s: cannot set %lu baud raw mode: %s\n", dev, baud, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Is `@RVM <digits> end ` somewhere in the current line?  A matcher fed one
 * byte at a time, so that a line of any length is seen whole (the end record
 * may follow megabytes of noise on its line).  st counts the pattern's
 * characters matched so far: 0..5 of "@RVM ", 6 while in the digits, then
 * 7..11 for " end ".  '@' only ever starts the pattern, so a mismatch
 * restarts at 0, or at 1 when the byte is '@'.
 */
struct end_match {
	unsigned st;
	int found;
};

static void end_feed(struct end_match *m, char c)
{
	static const char pre[] = "@RVM ", post[] = " end ";

	if (m->found)
		return;
	if (m->st < 5) {
		if (c == pre[m->st]) {
			m->st++;
			return;
		}
	} else if (m->st == 5 || m->st == 6) { /* digits: at least one, then " end " */
		if (c >= '0' && c <= '9') {
			m->st = 6;
			return;
		}
		if (m->st == 6 && c == ' ') {
			m->st = 8;
			return;
		}
	} else if (c == post[m->st - 7]) {
		if (++m->st == 12)
			m->found = 1;
		return;
	}
	m->st = c == '@' ? 1 : 0;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

enum how { HOW_END, HOW_TIMEOUT, HOW_EOF, HOW_SIGNAL };

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

/* Copy in -> out until the end line, the timeout (0: none) or EOF. */
static int pump(int in, int out, const char *dev, const char *logp, double timeout,
		enum how *how, unsigned long long *total)
{
	struct end_match m = { 0, 0 };
	char buf[4096];
	double t0 = now_s();

	*total = 0;
	for (;;) {
		int wait_ms = -1;
		if (stop_sig) {
			*how = HOW_SIGNAL;
			return 0;
		}
		if (timeout > 0) {
			double left = timeout - (now_s() - t0);
			if (left <= 0) {
				*how = HOW_TIMEOUT;
				return 0;
			}
			wait_ms = (int)(left * 1000) + 1;
		}
		struct pollfd p = { in, POLLIN, 0 };
		int pr = poll(&p, 1, wait_ms);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0) {
			fprintf(stderr, "rvmess capture: %s: poll: %s\n", dev, strerror(errno));
			return -1;
		}
		if (pr == 0)
			continue; /* the deadline check above ends it */
		ssize_t n = read(in, buf, sizeof buf);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue; /* (a stop signal is seen at the top) */
		if (n == 0 || (n < 0 && errno == EIO)) { /* end of input; a hung-up terminal */
			*how = HOW_EOF;
			return 0;
		}
		if (n < 0) {
			fprintf(stderr, "rvmess capture: %s: read: %s\n", dev, strerror(errno));
			return -1;
		}
		size_t keep = (size_t)n;
		int found = 0;
		for (size_t i = 0; i < (size_t)n; i++) {
			if (buf[i] == '\n') {
				if (m.found) {
					keep = i + 1;
					found = 1;
					break;
				}
				m.st = 0;
			} else {
				end_feed(&m, buf[i]);
			}
		}
		if (write_all(out, buf, keep) < 0) {
			fprintf(stderr, "rvmess capture: %s: write: %s\n", logp, strerror(errno));
			return -1;
		}
		*total += keep;
		if (found) {
			*how = HOW_END;
			return 0;
		}
	}
}

int cmd_capture(int argc, char **argv)
{
	struct capture_args a = { .baud = 115200 };
	struct cli_res res;
	const char *dev, *logp, *dir;
	unsigned long baud;
	double timeout;
	int quiet, in, out, rc;
	enum how how = HOW_EOF;
	unsigned long long total = 0;
	double t0;

	rc = cli_parse(&capture_command, argc, argv, &a, &res);
	dev = res.npos ? argv[res.pos[0]] : NULL;
	cli_res_free(&res);
	if (rc)
		return rc == CLI_HELP ? help() : rc;
	if (!dev || !a.logp)
		return cli_usage(&capture_command);
	logp = a.logp, dir = a.dir, baud = a.baud, timeout = a.timeout, quiet = a.quiet;

	/* where LOG goes and what it must not be */
	char *ldir;
	const char *base;
	{
		const char *slash = strrchr(logp, '/');
		base = slash ? slash + 1 : logp;
		ldir = !slash ? strdup(".") : slash == logp ? strdup("/") : strndup(logp, (size_t)(slash - logp));
		if (!ldir)
			return 2;
		if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
			fprintf(stderr, "rvmess capture: %s: not a file name\n", logp);
			free(ldir);
			return 2;
		}
	}
	struct stat lst, ist;
	int have_log = lstat(logp, &lst) == 0;
	if (have_log && !S_ISREG(lst.st_mode)) {
		fprintf(stderr, "rvmess capture: %s: %s; capture writes a regular file, never through one\n", logp,
			S_ISLNK(lst.st_mode) ? "a symlink: refused" : "exists and is not a regular file");
		free(ldir);
		return 2;
	}
	{
		/* parse writes its files into DIR: LOG must not be one of them */
		char rd[PATH_MAX], rl[PATH_MAX];
		const char *pd = dir ? dir : ldir;
		if (parse_output_name(base) && realpath(ldir, rl) && realpath(pd, rd) && !strcmp(rl, rd)) {
			fprintf(stderr, "rvmess capture: %s is a name the parse writes into %s; the parse would replace "
				"the log (choose another name, or --out DIR)\n", logp, pd);
			free(ldir);
			return 2;
		}
	}

	if (!strcmp(dev, "-")) {
		in = 0;
		dev = "stdin";
	} else {
		in = open(dev, O_RDONLY | O_NOCTTY | O_CLOEXEC);
		if (in < 0) {
			fprintf(stderr, "rvmess capture: %s: cannot open: %s\n", dev, strerror(errno));
			free(ldir);
			return 2;
		}
	}
	if (have_log && fstat(in, &ist) == 0 && ist.st_dev == lst.st_dev && ist.st_ino == lst.st_ino) {
		fprintf(stderr, "rvmess capture: %s is the input itself (%s); capture never writes over its input\n",
			logp, dev);
		if (in != 0)
			close(in);
		free(ldir);
		return 2;
	}
	if (isatty(in) && set_raw(in, baud, dev) < 0) {
		free(ldir);
		return 2;
	}

	/* LOG itself: created or truncated only now, never through a link, and
	 * only a regular file (a FIFO's open would block: O_NONBLOCK, then
	 * checked) */
	out = open(logp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	if (out < 0 || fstat(out, &lst) < 0 || !S_ISREG(lst.st_mode) ||
	    fcntl(out, F_SETFL, fcntl(out, F_GETFL) & ~O_NONBLOCK) < 0) {
		int e = out < 0 ? errno : ENODEV;
		fprintf(stderr, "rvmess capture: %s: cannot write: %s%s\n", logp, strerror(e),
			e == ELOOP ? " (a symlink: refused)" : e == ENODEV || e == ENXIO ? " (not a regular file)" : "");
		if (out >= 0)
			close(out);
		if (in != 0)
			close(in);
		free(ldir);
		return 2;
	}
	{
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_stop; /* no SA_RESTART: poll returns */
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
	}
	fprintf(stderr, "rvmess capture: reading %s into %s until the end record%s\n", dev, logp,
		timeout > 0 ? "" : " (no timeout: Ctrl-C stops, the log keeps what arrived)");
	t0 = now_s();
	rc = pump(in, out, dev, logp, timeout, &how, &total);
	if (rc == 0 && fsync(out) < 0 && errno != EINVAL && errno != EROFS) {
		fprintf(stderr, "rvmess capture: %s: %s\n", logp, strerror(errno));
		rc = -1;
	}
	if (close(out) < 0 && rc == 0) {
		fprintf(stderr, "rvmess capture: %s: %s\n", logp, strerror(errno));
		rc = -1;
	}
	if (in != 0)
		close(in);
	if (rc < 0) {
		free(ldir);
		return 2;
	}
	switch (how) {
	case HOW_END:
		fprintf(stderr, "rvmess capture: end record after %.1f s, %llu bytes in %s\n",
			now_s() - t0, total, logp);
		break;
	case HOW_TIMEOUT:
		fprintf(stderr, "rvmess capture: TIMEOUT after %g s without the end record, %llu bytes in %s\n",
			timeout, total, logp);
		break;
	case HOW_EOF:
		fprintf(stderr, "rvmess capture: %s ended before the end record, %llu bytes in %s\n",
			dev, total, logp);
		break;
	case HOW_SIGNAL:
		fprintf(stderr, "rvmess capture: stopped by signal %d before the end record, %llu bytes in %s\n",
			(int)stop_sig, total, logp);
		break;
	}

	/* the parse, as `rvmess parse LOG -o DIR [-q]` */
	if (!dir)
		dir = ldir;
	char *pargv[] = { "parse", (char *)logp, "-o", (char *)dir, "-q", NULL };
	rc = cmd_parse(quiet ? 5 : 4, pargv);
	free(ldir);
	return rc;
}
