/*
 * rvmess plan IMAGE -o DIR ...: split a run's grid into jobs (docs/sweeps.md).
 * rvmess plan --refine DIR: the next points of an adaptive plan.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cmd/cmds.h"
#include "cli/config.h"
#include "cli/elf.h"
#include "cli/estimate.h"
#include "cli/out.h"
#include "cli/plan.h"
#include "cli/sweep.h"
#include "cli/util.h"
#include "rvmess/cfgschema.h"
#include "rvmess/numparse.h"

struct plan_args {
	const char *dir, *target, *memsize, *cmd, *files[16], *sims[16];
	const char *piton_root, *tiles, *piton_build, *cva6, *mess_curves, *mess_mhz, *mess_onchip, *mess_window;
	const char *mem_fixed, *refine, *estimate;
	int nfiles, nsims, split, network, no_estimate;   /* split: 0 point, 1 curve */
	uint64_t harts, ppj, point_time, job_time, time_s, mem_mb, budget, coarse, jobs;
	double adaptive;
};

static int add_file(void *args, const char *val, char *why, size_t len)
{
	struct plan_args *a = args;

	if (a->nfiles == 16) {
		snprintf(why, len, "too many --file options");
		return -1;
	}
	a->files[a->nfiles++] = val;
	return 0;
}

static int add_sim(void *args, const char *val, char *why, size_t len)
{
	struct plan_args *a = args;

	if (a->nsims == 16) {
		snprintf(why, len, "at most 16 --sim configurations");
		return -1;
	}
	a->sims[a->nsims++] = val;
	return 0;
}

#define F(x) offsetof(struct plan_args, x)
#define SECS .lo = 1, .hi = 366.0 * 86400
static const struct cli_opt plan_options[] = {
	{ .name = "-o", .kind = CLI_STR, .off = F(dir), .meta = "DIR", .lines = 1, .req = 1 },
	{ .name = "--file", .kind = CLI_CALL, .call = add_file, .meta = "CFG", .flags = CLI_MANY, .lines = 1,
	  .help = "the grid (with key=value): the image's config keys, as rvmess config" },
	{ .name = "--target", .kind = CLI_STR, .off = F(target), .meta = "T", .lines = 1,
	  .help = "hostsim (default), qemu-virt, qemu-spike, the RTL targets openpiton and cva6 (below), or any name "
		  "with --cmd" },
	{ .name = "--harts", .kind = CLI_UINT, .off = F(harts), .meta = "N", .lo = 1, .hi = RVM_MAX_HARTS, .lines = 1,
	  .help = "harts of the target (default 8)" },
	{ .name = "--mem-size", .kind = CLI_STR, .off = F(memsize), .meta = "SIZE", .lines = 1,
	  .help = "its RAM (default 512M)" },
	{ .name = "--sim", .kind = CLI_CALL, .call = add_sim, .meta = "[NAME=]OPTIONS", .flags = CLI_MANY, .lines = 1,
	  .help = "hostsim options of one configuration; several give a design-space sweep, every point on each "
		  "(names c0, c1, ... by default)" },
	{ .name = "--cmd", .kind = CLI_STR, .off = F(cmd), .meta = "COMMAND", .lines = 1,
	  .help = "the target command (sh syntax): $IMAGE is the job's image, $SIM its configuration's options; "
		  "its standard output is the log" },
	{ .name = "--split", .kind = CLI_ENUM, .off = F(split), .meta = "point|curve", .lines = 1,
	  .help = "one job per point (default), or one job per mix" },
	{ .name = "--points-per-job", .kind = CLI_UINT, .off = F(ppj), .meta = "N", .lo = 1, .hi = PLAN_MAX_LIST,
	  .lines = 1, .help = "consecutive pauses of one mix per job" },
	{ .name = "--point-time", .kind = CLI_UINT, .off = F(point_time), .meta = "SEC", SECS, .lines = 1,
	  .help = "with --job-time: as many points per job as fit in the job time" },
	{ .name = "--job-time", .kind = CLI_UINT, .off = F(job_time), .meta = "SEC", SECS, .lines = 1, .req = 1,
	  .in = "--point-time" },
	{ .name = "--time", .kind = CLI_UINT, .off = F(time_s), .meta = "SEC", SECS, .lines = 1,
	  .help = "a job's time limit (default: 3 x its points' time + 60 s with --point-time, else 3600)" },
	{ .name = "--mem", .kind = CLI_UINT, .off = F(mem_mb), .meta = "MB", .lo = 1, .hi = 1u << 30, .lines = 1,
	  .help = "a job's memory (default RAM + 512)" },
	{ .name = "--adaptive", .kind = CLI_DBL, .off = F(adaptive), .meta = "PCT", .lo = 0, .hi = 100,
	  .flags = CLI_GT | CLI_LT, .what = "a percentage", .lines = 1,
	  .help = "run --coarse N (default 4) of the pauses per curve, then `rvmess plan --refine DIR` adds points "
		  "where the curve changes by more than PCT % between measured ones, up to --budget N per curve" },
	{ .name = "--budget", .kind = CLI_UINT, .off = F(budget), .meta = "N", .lo = 2, .hi = PLAN_MAX_LIST, .lines = 1,
	  .in = "--adaptive" },
	{ .name = "--coarse", .kind = CLI_UINT, .off = F(coarse), .meta = "N", .lo = 2, .hi = PLAN_MAX_LIST, .lines = 1,
	  .in = "--adaptive" },
	{ .name = "--no-estimate", .kind = CLI_FLAG, .off = F(no_estimate), .lines = 1 },
	/* tools/run.sh's options for the RTL targets, checked by it */
	{ .name = "--piton-root", .kind = CLI_STR, .off = F(piton_root), .meta = "DIR", .lines = 2, .req = 2 },
	{ .name = "--tiles", .kind = CLI_STR, .off = F(tiles), .meta = "XxY", .lines = 2 },
	{ .name = "--piton-build", .kind = CLI_STR, .off = F(piton_build), .meta = "ID", .lines = 2 },
	{ .name = "--cva6", .kind = CLI_STR, .off = F(cva6), .meta = "DIR", .lines = 4, .req = 4 },
	{ .name = "--mess-curves", .kind = CLI_STR, .off = F(mess_curves), .meta = "FAMILY", .lines = 8 },
	{ .name = "--mess-mhz", .kind = CLI_STR, .off = F(mess_mhz), .meta = "F", .lines = 8, .in = "--mess-curves" },
	{ .name = "--mess-onchip", .kind = CLI_STR, .off = F(mess_onchip), .meta = "NS", .lines = 8,
	  .in = "--mess-curves" },
	{ .name = "--mess-window", .kind = CLI_STR, .off = F(mess_window), .meta = "N", .lines = 8,
	  .in = "--mess-curves" },
	{ .name = "--mem-fixed", .kind = CLI_STR, .off = F(mem_fixed), .meta = "CYCLES", .lines = 8 },
	{ .name = "--network", .kind = CLI_FLAG, .off = F(network), .lines = 8 },
	/* the other forms */
	{ .name = "--refine", .kind = CLI_STR, .off = F(refine), .meta = "DIR", .lines = 16, .req = 16 },
	{ .name = "--estimate", .kind = CLI_STR, .off = F(estimate), .meta = "DIR", .lines = 32, .req = 32 },
	{ .name = "-j", .kind = CLI_UINT, .off = F(jobs), .meta = "N", .lo = 1, .hi = 4096, .lines = 32 },
};
#undef SECS
#undef F
static const struct cli_line plan_usage[] = {
	{ .args = "IMAGE [key=value ...]" },
	{ .flags = CLI_MORE, .label = "RTL targets:", .args = "--target openpiton" },
	{ .flags = CLI_MORE, .args = "--target cva6" },
	{ .flags = CLI_MORE },
	{ .args = NULL },
	{ .args = NULL },
};
const struct cli_cmd plan_command = {
	.name = "plan", .run = cmd_plan, .summary = "split a grid into jobs (docs/sweeps.md)",
	.lines = plan_usage, .nlines = CLI_N(plan_usage), .opts = plan_options, .nopts = CLI_N(plan_options),
	.max_pos = -1,
};

static int help(void)
{
	cli_print_usage(stdout, &plan_command, "usage: ", "       ");
	printf("Write a plan directory: DIR/images/<job>.elf (IMAGE with its config block rewritten to\n"
	       "the job's points; nothing is rebuilt), DIR/manifest.tsv (job -> configuration, suites,\n"
	       "mixes, pauses; the target command; time and memory per job) and DIR/run.sh (runs the\n"
	       "plan: locally, `DIR/run.sh -j N`; on Slurm, `DIR/run.sh --slurm`).  Then\n"
	       "`rvmess merge DIR -o OUT` puts the logs together.\n");
	cli_print_options(stdout, &plan_command);
	printf("RTL targets: openpiton and cva6 are Verilator models run by tools/run.sh (its options:\n"
	       "--piton-root, --tiles, --piton-build, --cva6, the Mess memory's --mess-* or --mem-fixed,\n"
	       "--network), checked when the plan is made; each job runs in DIR/runs/<job>/.  The plan\n"
	       "prints each job's estimated cycles and CPU hours (DIR/estimate.tsv; --no-estimate: none),\n"
	       "from the model's record of runs; `rvmess plan --estimate DIR [-j N]` prints them again,\n"
	       "with the truth of the jobs that ran.  docs/sweeps.md has the details.\n");
	return 0;
}

static int strip_mess(const char *suites, char *out, size_t len)
{
	char buf[256];
	char *tok, *save = NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", suites);
	out[0] = '\0';
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "mess") == 0)
			continue;
		snprintf(out + strlen(out), len - strlen(out), "%s%s", n++ ? "," : "", tok);
	}
	return n;
}

static void suites_text(uint32_t suites, char *out, size_t len)
{
	out[0] = '\0';
	for (unsigned i = 0; i < RVM_SUITE_COUNT; i++)
		if (suites & (1u << i))
			snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? "," : "", rvm_suite_names[i]);
}

/* A file of the plan: into od (staged, committed with the others). */
static int write_file(struct outdir *od, const char *name, const unsigned char *buf, size_t len, unsigned mode)
{
	FILE *f = outdir_create_mode(od, name, mode);

	if (!f || fwrite(buf, 1, len, f) != len || outdir_close(od, f) < 0) {
		if (f && !outdir_error(od)[0])
			outdir_close(od, f);
		fprintf(stderr, "rvmess plan: %s\n", outdir_error(od));
		return -1;
	}
	return 0;
}

/* The image of job j: base with the job's suites and points, into od as
 * images/<id>.elf. */
static int write_job_image(struct outdir *od, const struct plan_job *j, unsigned char *buf, size_t len,
			   const struct elf_section *sec, const struct rvm_config *base)
{
	struct rvm_config c;
	char name[64], key[64], why[256];

	if (sweep_job_config(base, j, &c, key, sizeof(key), why, sizeof(why)) < 0) {
		fprintf(stderr, "rvmess plan: job %u: %s: %s\n", j->id, key, why);
		return -1;
	}
	if (cfg_check_block(&c, stderr, "rvmess plan: the image would refuse"))
		return -1;
	cfg_block_write(&c, buf + sec->offset);
	snprintf(name, sizeof(name), "images/%u.elf", j->id);
	return write_file(od, name, buf, len, 0644);
}

/* Read an rvmess image and its config block. */
static unsigned char *load_image(const char *path, size_t *len, struct elf_section *sec, struct rvm_config *c)
{
	char why[256];
	unsigned char *buf = cfg_read_all(path, len);

	if (!buf) {
		fprintf(stderr, "rvmess plan: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	if (elf_find_section(buf, *len, RVM_CFG_SECTION, sec, why, sizeof(why)) != 0 ||
	    cfg_block_read(buf + sec->offset, (size_t)sec->size, c, why, sizeof(why)) < 0) {
		fprintf(stderr, "rvmess plan: %s: not an rvmess image with a readable config block\n", path);
		free(buf);
		return NULL;
	}
	return buf;
}

static int write_manifest(struct outdir *od, const struct plan *p)
{
	FILE *f = outdir_create_mode(od, PLAN_MANIFEST, 0644);

	if (!f || plan_write(p, f) < 0 || outdir_close(od, f) < 0) {
		fprintf(stderr, "rvmess plan: %s\n", outdir_error(od)[0] ? outdir_error(od) : strerror(errno));
		return -1;
	}
	return 0;
}

/* 32 hex digits from the kernel's random source: the plan's id. */
static char *new_plan_id(void)
{
	unsigned char r[16];
	char *id = malloc(33);
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (!id || fd < 0 || read(fd, r, sizeof(r)) != (ssize_t)sizeof(r)) {
		fprintf(stderr, "rvmess plan: /dev/urandom: cannot read the plan's id\n");
		if (fd >= 0)
			close(fd);
		free(id);
		return NULL;
	}
	close(fd);
	for (int i = 0; i < 16; i++)
		snprintf(id + 2 * i, 3, "%02x", r[i]);
	return id;
}

/* A tool next to this rvmess: BIN/../../tools/NAME ("" when not there) */
static void tool_path(const char *name, char *out, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *s;

	out[0] = '\0';
	if (n <= 0)
		return;
	exe[n] = '\0';
	for (int up = 0; up < 3; up++) {
		s = strrchr(exe, '/');
		if (!s)
			return;
		*s = '\0';
	}
	if ((size_t)snprintf(out, len, "%s/tools/%s", exe, name) >= len || access(out, X_OK) != 0)
		out[0] = '\0';
}

static int write_runner(struct outdir *od)
{
	char runner[PATH_MAX], *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int rc;

	if (!m)
		abort();
	tool_path("sweep-run.sh", runner, sizeof(runner));
	fprintf(m, "#!/bin/sh\n# Runs this plan: ./run.sh [-j N] (local), ./run.sh --slurm [--wait] (Slurm),\n"
		   "# ./run.sh --task ID (one job).  docs/sweeps.md.\n");
	if (runner[0])
		fprintf(m, "exec '%s' \"$(dirname \"$0\")\" \"$@\"\n", runner);
	else
		fprintf(m, "echo 'run.sh: tools/sweep-run.sh was not found beside this rvmess; "
			   "run it by hand: tools/sweep-run.sh DIR' >&2\nexit 2\n");
	fclose(m);
	rc = write_file(od, "run.sh", (const unsigned char *)text, len, 0755);
	free(text);
	return rc;
}

/* DIR/logs, where the runner writes: a folder of its own, never a link */
static int logs_dir(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;

	if (!path_join(path, sizeof(path), dir, "logs")) {
		fprintf(stderr, "rvmess plan: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if (mkdir(path, 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "rvmess plan: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "rvmess plan: %s: not a folder (a link is refused: the runner writes the job logs here)\n",
			path);
		return -1;
	}
	return 0;
}

/* ---- RTL targets (openpiton, cva6): tools/run.sh runs each job -------------- */

/* text appended to the string *buf (length *len) */
static void str_add(char **buf, size_t *len, const char *text, size_t n)
{
	*buf = xrealloc(*buf, *len + n + 1);
	memcpy(*buf + *len, text, n);
	*len += n;
	(*buf)[*len] = '\0';
}

/* s appended to *buf as one sh word, single-quoted */
static void sh_word(char **buf, size_t *len, const char *s)
{
	str_add(buf, len, *len ? " '" : "'", *len ? 2 : 1);
	for (; *s; s++)
		if (*s == '\'')
			str_add(buf, len, "'\\''", 4);
		else
			str_add(buf, len, s, 1);
	str_add(buf, len, "'", 1);
}

/* text appended to *buf as it is (sh syntax) */
static void sh_raw(char **buf, size_t *len, const char *text)
{
	if (*len)
		str_add(buf, len, " ", 1);
	str_add(buf, len, text, strlen(text));
}

/* What `tools/run.sh --check` says of the target */
struct rtl_check {
	char model[PATH_MAX], record[PATH_MAX], memory[1024];
	unsigned harts;
};

static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int rtl_check(const char *runargs, const char *image, struct rtl_check *rc)
{
	char *cmd = NULL, line[PATH_MAX + 64];
	size_t len = 0;
	FILE *f;
	int st;

	memset(rc, 0, sizeof(*rc));
	sh_raw(&cmd, &len, runargs);
	sh_raw(&cmd, &len, "--check --image");
	sh_word(&cmd, &len, image);
	fflush(NULL);
	f = popen(cmd, "r");
	free(cmd);
	if (!f) {
		fprintf(stderr, "rvmess plan: cannot run tools/run.sh --check: %s\n", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		if (strncmp(line, "model: ", 7) == 0)
			copy_str(rc->model, sizeof(rc->model), line + 7);
		else if (strncmp(line, "record: ", 8) == 0)
			copy_str(rc->record, sizeof(rc->record), line + 8);
		else if (strncmp(line, "memory: ", 8) == 0)
			copy_str(rc->memory, sizeof(rc->memory), line + 8);
		else if (strncmp(line, "harts: ", 7) == 0)
			rc->harts = (unsigned)strtoul(line + 7, NULL, 10);
	}
	st = pclose(f);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "rvmess plan: tools/run.sh refuses the target (above): no plan written\n");
		return -1;
	}
	if (!rc->harts || !rc->record[0] || !rc->memory[0]) {
		fprintf(stderr, "rvmess plan: tools/run.sh --check did not name the model's record, harts and memory\n");
		return -1;
	}
	return 0;
}

/* tools/rtl-shadow.sh on job j's image (base with the job's points):
 * the count, or -1 (the reason on stderr) */
static double job_shadow(const char *tool, const struct estimate *e, const struct plan_job *j, const unsigned char *buf,
			 size_t len, const struct elf_section *sec, const struct rvm_config *base)
{
	char tmp[] = "/tmp/rvmess-shadow.XXXXXX", key[64], why[256], line[128], hs[16];
	unsigned char *copy;
	struct rvm_config c;
	char *cmd = NULL, *end;
	size_t clen = 0;
	double v = -1;
	FILE *f;
	int fd, st;

	if (sweep_job_config(base, j, &c, key, sizeof(key), why, sizeof(why)) < 0)
		return -1;
	copy = xrealloc(NULL, len);
	memcpy(copy, buf, len);
	cfg_block_write(&c, copy + sec->offset);
	fd = mkstemp(tmp);
	if (fd < 0 || write(fd, copy, len) != (ssize_t)len) {
		fprintf(stderr, "rvmess plan: %s: %s: no estimate\n", tmp, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(copy);
		return -1;
	}
	close(fd);
	free(copy);
	snprintf(hs, sizeof(hs), "%u", e->harts);
	sh_word(&cmd, &clen, tool);
	sh_word(&cmd, &clen, e->target);
	sh_word(&cmd, &clen, hs);
	sh_word(&cmd, &clen, tmp);
	fflush(NULL);
	f = popen(cmd, "r");
	free(cmd);
	if (f) {
		if (fgets(line, sizeof(line), f)) {
			errno = 0;
			v = strtod(line, &end);
			if (end == line || (*end && *end != '\n') || errno || !(v > 0))
				v = -1;
		}
		st = pclose(f);
		if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			v = -1;
	}
	unlink(tmp);
	if (v < 0)
		fprintf(stderr, "rvmess plan: job %u: no estimate: its shadow run failed (above)\n", j->id);
	return v;
}

/* Every job's shadow count from index `from` on, into e (grown to the plan's jobs) */
static void shadow_jobs(struct estimate *e, const struct plan *p, size_t from, const unsigned char *buf, size_t len,
			const struct elf_section *sec, const struct rvm_config *base)
{
	char tool[PATH_MAX];

	tool_path("rtl-shadow.sh", tool, sizeof(tool));
	e->shadow = xrealloc(e->shadow, (p->njobs ? p->njobs : 1) * sizeof(*e->shadow));
	for (size_t i = e->njobs; i < p->njobs; i++)
		e->shadow[i] = -1;
	e->njobs = p->njobs;
	if (!tool[0]) {
		fprintf(stderr, "rvmess plan: tools/rtl-shadow.sh not found beside this rvmess: no estimate\n");
		return;
	}
	if (p->njobs > from)
		fprintf(stderr, "rvmess plan: counting the work of %zu job%s on hostsim (tools/rtl-shadow.sh) ...\n",
			p->njobs - from, p->njobs - from == 1 ? "" : "s");
	for (size_t i = from; i < p->njobs; i++)
		e->shadow[i] = job_shadow(tool, e, &p->jobs[i], buf, len, sec, base);
}

static int write_estimate(struct outdir *od, const struct estimate *e)
{
	FILE *f = outdir_create_mode(od, EST_FILE, 0644);

	if (!f || est_write(e, f) < 0 || outdir_close(od, f) < 0) {
		fprintf(stderr, "rvmess plan: %s\n", outdir_error(od)[0] ? outdir_error(od) : strerror(errno));
		return -1;
	}
	return 0;
}

static unsigned online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

/* rvmess plan --estimate DIR [-j N] */
static int show_estimate(const char *dir, unsigned parallel)
{
	struct plan p;
	struct estimate e;
	char path[PATH_MAX];
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, PLAN_MANIFEST);
	switch (plan_read_file(path, stderr, &p)) {
	case 0: break;
	case -1: fprintf(stderr, "rvmess plan: %s: %s\n", path, strerror(errno)); return 2;
	default: return 2;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, EST_FILE);
	rc = est_read(path, stderr, &e);
	if (rc != 0) {
		if (rc < 0)
			fprintf(stderr, "rvmess plan: %s: %s (plans of the RTL targets have one)\n", path, strerror(errno));
		plan_free(&p);
		return 2;
	}
	if (!(e.ratio > 0) || !(e.cps > 0)) {
		/* not known when the plan was made: what the model's record says now */
		struct estimate now = { 0 };

		if (est_from_record(&now, e.record, e.memory, stderr) == 0 &&
		    ((!(e.ratio > 0) && now.ratio > 0) || (!(e.cps > 0) && now.cps > 0)))
			printf("estimate: the model's record had no %s when the plan was made: taken from it now (%s)\n",
			       !(e.ratio > 0) && !(e.cps > 0) ? "calibration or speed" : !(e.ratio > 0) ? "calibration" : "speed",
			       e.record);
		{
			if (!(e.ratio > 0) && now.ratio > 0) {
				e.ratio = now.ratio;
				e.ratio_same = now.ratio_same;
				free(e.ratio_src);
				e.ratio_src = now.ratio_src;
				now.ratio_src = NULL;
			}
			if (!(e.cps > 0) && now.cps > 0) {
				e.cps = now.cps;
				free(e.cps_src);
				e.cps_src = now.cps_src;
				now.cps_src = NULL;
			}
		}
		est_free(&now);
	}
	est_report(&e, &p, dir, parallel ? parallel : online_cpus(), stdout);
	est_free(&e);
	plan_free(&p);
	return fflush(stdout) == 0 ? 0 : 2;
}

static int refine(const char *dir);

int cmd_plan(int argc, char **argv)
{
	struct plan_args a = { .target = "hostsim", .memsize = "512M", .harts = 8, .coarse = 4 };
	struct cli_res res;
	const char *image, *assign[256];
	int nassign = 0, errors = 0, rc, rtl = 0, harts_set;
	unsigned jobs_given;
	char *runargs = NULL;
	size_t runargs_len = 0;
	struct estimate est = { 0 };
	struct rtl_check chk;
	struct plan p = { 0 };
	unsigned char *buf = NULL;
	size_t len;
	struct elf_section sec;
	struct rvm_config cfg;
	char key[128], why[256], path[PATH_MAX], rest[256], absimg[PATH_MAX];
	struct stat st;
	struct outdir od;

	rc = cli_parse(&plan_command, argc, argv, &a, &res);
	image = res.npos ? argv[res.pos[0]] : NULL;
	for (int k = 1; k < res.npos; k++)
		if (nassign++ < 256)
			assign[nassign - 1] = argv[res.pos[k]];
	harts_set = cli_given(&plan_command, &res, "--harts") > 0;
	jobs_given = cli_given(&plan_command, &res, "-j");
	cli_res_free(&res);
	if (rc)
		return rc == CLI_HELP ? help() : rc;
	/* the other forms, each alone: --refine DIR, --estimate DIR [-j N] */
	if (a.refine)
		return argc == 3 ? refine(a.refine) : cli_usage(&plan_command);
	if (a.estimate)
		return argc == 3 || (argc == 5 && jobs_given == 1) ? show_estimate(a.estimate, (unsigned)a.jobs)
								    : cli_usage(&plan_command);
	if (jobs_given) {
		fprintf(stderr, "rvmess plan: -j goes with --estimate\n");
		return cli_usage(&plan_command);
	}
	rc = 2;
	if (!image || !a.dir || nassign > 256)
		return cli_usage(&plan_command);
	if ((a.point_time != 0) != (a.job_time != 0)) {
		fprintf(stderr, "rvmess plan: --point-time and --job-time go together\n");
		return 2;
	}
	if (a.nsims && strcmp(a.target, "hostsim") != 0 && !a.cmd) {
		fprintf(stderr, "rvmess plan: --sim configurations are hostsim options (or name $SIM in --cmd)\n");
		return 2;
	}
	rtl = !a.cmd && (strcmp(a.target, "openpiton") == 0 || strcmp(a.target, "cva6") == 0);
	{
		/* the runner's options: each for its target, none with --cmd or another target */
		const struct { const char *name, *val, *target; } ro[] = {
			{ "--piton-root", a.piton_root, "openpiton" }, { "--tiles", a.tiles, "openpiton" },
			{ "--piton-build", a.piton_build, "openpiton" }, { "--cva6", a.cva6, "cva6" },
			{ "--mess-curves", a.mess_curves, NULL }, { "--mess-mhz", a.mess_mhz, NULL },
			{ "--mess-onchip", a.mess_onchip, NULL }, { "--mess-window", a.mess_window, NULL },
			{ "--mem-fixed", a.mem_fixed, NULL }, { "--network", a.network ? "" : NULL, NULL },
		};

		for (size_t k = 0; k < sizeof(ro) / sizeof(ro[0]); k++) {
			if (!ro[k].val)
				continue;
			if (!rtl || (ro[k].target && strcmp(ro[k].target, a.target) != 0)) {
				fprintf(stderr, "rvmess plan: %s is an option of tools/run.sh's %s target%s\n", ro[k].name,
					ro[k].target ? ro[k].target : "RTL (openpiton, cva6)",
					a.cmd ? ", not of a plan with --cmd" : "");
				return 2;
			}
		}
		if (rtl && (a.mess_mhz || a.mess_onchip || a.mess_window) && !a.mess_curves) {
			fprintf(stderr, "rvmess plan: --mess-mhz, --mess-onchip and --mess-window go with --mess-curves\n");
			return 2;
		}
	}
	buf = load_image(image, &len, &sec, &cfg);
	if (!buf)
		return 2;
	for (int i = 0; i < a.nfiles; i++)
		if (cfg_apply_file(&cfg, a.files[i], &errors) < 0)
			goto done;
	for (int i = 0; i < nassign; i++)
		if (cfg_assign(&cfg, assign[i], key, sizeof(key), why, sizeof(why)) < 0) {
			fprintf(stderr, "argument '%s': %s: %s\n", assign[i], key, why);
			errors++;
		}
	if (!errors)
		errors = cfg_check_block(&cfg, stderr, "rvmess plan: the image would refuse");
	if (errors) {
		fprintf(stderr, "rvmess plan: no plan written (%d error%s)\n", errors, errors == 1 ? "" : "s");
		rc = 1;
		goto done;
	}
	if (!(cfg.suites & RVM_SUITE_MESS) && a.adaptive > 0) {
		fprintf(stderr, "rvmess plan: --adaptive places Mess points; the grid has no mess suite\n");
		goto done;
	}
	if (rtl) {
		/* the runner's arguments (paths absolute: jobs run anywhere), checked by it */
		char runner[PATH_MAX], abspath[PATH_MAX];
		const char *paths[][2] = { { "--piton-root", a.piton_root }, { "--cva6", a.cva6 }, { "--mess-curves", a.mess_curves } };
		const char *vals[][2] = { { "--tiles", a.tiles }, { "--piton-build", a.piton_build }, { "--mess-mhz", a.mess_mhz },
					  { "--mess-onchip", a.mess_onchip }, { "--mess-window", a.mess_window },
					  { "--mem-fixed", a.mem_fixed } };

		tool_path("run.sh", runner, sizeof(runner));
		if (!runner[0]) {
			fprintf(stderr, "rvmess plan: tools/run.sh not found beside this rvmess: it runs the %s jobs\n", a.target);
			goto done;
		}
		sh_word(&runargs, &runargs_len, runner);
		sh_raw(&runargs, &runargs_len, "--target");
		sh_word(&runargs, &runargs_len, a.target);
		for (size_t k = 0; k < sizeof(paths) / sizeof(paths[0]); k++)
			if (paths[k][1]) {
				sh_raw(&runargs, &runargs_len, paths[k][0]);
				sh_word(&runargs, &runargs_len, realpath(paths[k][1], abspath) ? abspath : paths[k][1]);
			}
		for (size_t k = 0; k < sizeof(vals) / sizeof(vals[0]); k++)
			if (vals[k][1]) {
				sh_raw(&runargs, &runargs_len, vals[k][0]);
				sh_word(&runargs, &runargs_len, vals[k][1]);
			}
		if (a.network)
			sh_raw(&runargs, &runargs_len, "--network");
		if (rtl_check(runargs, image, &chk) < 0)
			goto done;
		if (harts_set && a.harts != chk.harts) {
			fprintf(stderr, "rvmess plan: --harts %llu, but the %s model has %u (%s)\n", (unsigned long long)a.harts,
				a.target, chk.harts, strcmp(a.target, "openpiton") == 0 ? "--tiles sets it" : "one core");
			goto done;
		}
		a.harts = chk.harts;
		if ((cfg.suites & RVM_SUITE_MESS) && a.harts < 2) {
			fprintf(stderr, "rvmess plan: the mess suite needs 2 harts or more (the chase and a traffic generator); "
				"the %s model has %u: no plan written\n", a.target, chk.harts);
			goto done;
		}
	}

	/* the plan */
	p.target = strdup(a.target);
	if (a.cmd) {
		p.command = strdup(a.cmd);
	} else if (strcmp(a.target, "hostsim") == 0) {
		char exe[PATH_MAX], c[PATH_MAX + 256];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		char *s;

		exe[n > 0 ? n : 0] = '\0';
		s = strrchr(exe, '/');
		snprintf(c, sizeof(c), "%s%shostsim --harts %llu --mem-size %s $SIM \"$IMAGE\"", s ? exe : "",
			 s ? (s[1] = '\0', "") : "", (unsigned long long)a.harts, a.memsize);
		p.command = strdup(c);
	} else if (strcmp(a.target, "qemu-virt") == 0 || strcmp(a.target, "qemu-spike") == 0) {
		char c[512];

		snprintf(c, sizeof(c), "qemu-system-riscv64 -M %s -bios none -nographic -smp %llu -m %s -kernel \"$IMAGE\"",
			 a.target + 5, (unsigned long long)a.harts, a.memsize);
		p.command = strdup(c);
	} else if (!rtl) {
		fprintf(stderr, "rvmess plan: target '%s' needs --cmd (the simulation command; $IMAGE is the image)\n",
			a.target);
		goto done;
	}
	if (!realpath(image, absimg))
		snprintf(absimg, sizeof(absimg), "%s", image);
	p.image = strdup(absimg);
	{
		char exe[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

		exe[n > 0 ? n : 0] = '\0';
		p.rvmess = strdup(exe);
	}
	p.reps = cfg.reps;
	if (!a.ppj)
		a.ppj = a.split == 1 ? PLAN_MAX_LIST : 1;
	if (a.job_time)
		a.ppj = a.job_time / a.point_time ? a.job_time / a.point_time : 1;
	if (!a.mem_mb) {
		uint64_t m;

		/* an RTL model's memory is sparse: OpenPiton 2x1's resident set is 8 MB */
		a.mem_mb = rtl ? 512 : rvm_parse_num(a.memsize, &m) == 0 ? (m >> 20) + 512 : 1024;
	}
	for (int i = 0; i < (a.nsims ? a.nsims : 1); i++) {
		struct plan_config *c;
		const char *s = a.nsims ? a.sims[i] : "", *eq = strchr(s, '=');

		p.configs = xrealloc(p.configs, (p.nconfigs + 1) * sizeof(*p.configs));
		c = &p.configs[p.nconfigs++];
		snprintf(c->name, sizeof(c->name), "c%d", i);
		if (eq && s[0] != '-' && (size_t)(eq - s) < sizeof(c->name) && !memchr(s, ' ', (size_t)(eq - s))) {
			memcpy(c->name, s, (size_t)(eq - s));
			c->name[eq - s] = '\0';
			s = eq + 1;
			if (!plan_name_ok(c->name)) {
				fprintf(stderr, "rvmess plan: --sim %s=...: a configuration name is 1..%d of "
					"[A-Za-z0-9_.-], not . or .. (merge writes OUT/NAME/)\n", c->name, PLAN_NAME_MAX - 1);
				goto done;
			}
		}
		c->sim = strdup(s);
		for (int k = 0; k < i; k++)
			if (strcmp(p.configs[k].name, c->name) == 0) {
				fprintf(stderr, "rvmess plan: two configurations named '%s'\n", c->name);
				goto done;
			}
	}
	if (a.adaptive > 0) {
		uint64_t *cd = p.cand;

		p.ncand = cfg.mess_npause;
		for (size_t i = 0; i < p.ncand; i++)
			cd[i] = cfg.mess_pause[i];
		for (size_t i = 1; i < p.ncand; i++) /* ascending, unique */
			for (size_t k = i; k > 0 && cd[k] < cd[k - 1]; k--) {
				uint64_t t = cd[k];

				cd[k] = cd[k - 1];
				cd[k - 1] = t;
			}
		for (size_t i = 1; i < p.ncand; i++)
			if (cd[i] == cd[i - 1]) {
				memmove(&cd[i], &cd[i + 1], (p.ncand - i - 1) * sizeof(*cd));
				p.ncand--;
				i--;
			}
		p.adapt_tol = a.adaptive / 100;
		p.adapt_budget = (unsigned)(a.budget ? a.budget : p.ncand);
	}
	for (size_t c = 0; c < p.nconfigs; c++) {
		char sfx[256];

		suites_text(cfg.suites, sfx, sizeof(sfx));
		if (strip_mess(sfx, rest, sizeof(rest)))
			plan_add_job(&p, (unsigned)c, rest, 0);
		if (!(cfg.suites & RVM_SUITE_MESS))
			continue;
		for (uint32_t m = 0; m < cfg.mess_nmix; m++) {
			uint64_t pauses[PLAN_MAX_LIST];
			size_t np = 0;

			if (a.adaptive > 0) {
				size_t idx[PLAN_MAX_LIST];

				np = adapt_coarse(p.ncand, a.coarse, idx);
				for (size_t k = 0; k < np; k++)
					pauses[k] = p.cand[idx[k]];
			} else {
				for (uint32_t k = 0; k < cfg.mess_npause; k++)
					pauses[np++] = cfg.mess_pause[k];
			}
			for (size_t k = 0; k < np; k += a.ppj) {
				struct plan_job *j = plan_add_job(&p, (unsigned)c, "mess", 1);

				j->nmix = 1;
				j->mix[0] = cfg.mess_mix[m];
				for (size_t q = k; q < np && q < k + a.ppj; q++)
					j->pause[j->npause++] = pauses[q];
			}
		}
	}
	p.mem_mb = a.mem_mb;
	p.time_s = a.time_s ? a.time_s : a.point_time ? 3 * a.ppj * a.point_time + 60 : 3600;
	if (rtl) {
		double longest = 0;
		int all = 1;
		char t[32];

		est.target = strdup(a.target);
		est.harts = (unsigned)a.harts;
		est.record = strdup(chk.record);
		est.memory = strdup(chk.memory);
		if (est_from_record(&est, chk.record, chk.memory, stderr) < 0)
			fprintf(stderr, "rvmess plan: %s: %s: estimates without the model's record\n", chk.record, strerror(errno));
		if (!a.no_estimate)
			shadow_jobs(&est, &p, 0, buf, len, &sec, &cfg);
		for (size_t i = 0; i < p.njobs; i++) {
			double c = est_cpu_seconds(&est, i);

			all &= c >= 0;
			longest = fmax(longest, c);
		}
		/* a job's time limit: 10 x the longest estimate (a busy machine runs
		 * a job at a fraction of a core), at least an hour; a day without
		 * estimates */
		if (!a.time_s && !a.point_time)
			p.time_s = all && p.njobs ? (uint64_t)fmax(3600, ceil(10 * longest + 600)) : 86400;
		/* the job: run.sh with the job's own folder, the console log on
		 * stdout; its own time-out a minute before the runner's */
		sh_raw(&runargs, &runargs_len, "--image \"$IMAGE\" --out \"$RUNDIR\" --progress off --console-stdout --timeout");
		snprintf(t, sizeof(t), "%llu", (unsigned long long)(p.time_s > 120 ? p.time_s - 60 : p.time_s));
		sh_raw(&runargs, &runargs_len, t);
		p.command = strdup(runargs);
	}

	p.id = new_plan_id();
	if (!p.id)
		goto done;

	/* the directory: every file staged, then renamed in (the manifest last) */
	snprintf(path, sizeof(path), "%s/%s", a.dir, PLAN_MANIFEST);
	if (lstat(path, &st) == 0) {
		fprintf(stderr, "rvmess plan: %s already holds a plan (%s); choose a new directory\n", a.dir, path);
		goto done;
	}
	if (outdir_open_flags(&od, a.dir, "plan", OUTDIR_FILEWISE | OUTDIR_NO_MANIFEST) < 0) {
		fprintf(stderr, "rvmess plan: %s\n", outdir_error(&od));
		goto done;
	}
	outdir_input(&od, image);
	cfg_block_write(&cfg, buf + sec.offset);
	if (write_file(&od, "base.elf", buf, len, 0644) < 0) {
		outdir_abort(&od);
		goto done;
	}
	for (size_t i = 0; i < p.njobs; i++)
		if (write_job_image(&od, &p.jobs[i], buf, len, &sec, &cfg) < 0) {
			outdir_abort(&od);
			goto done;
		}
	if (rtl && write_estimate(&od, &est) < 0) {
		outdir_abort(&od);
		goto done;
	}
	if (write_runner(&od) < 0 || write_manifest(&od, &p) < 0) {
		outdir_abort(&od);
		goto done;
	}
	if (outdir_commit(&od) < 0) {
		fprintf(stderr, "rvmess plan: %s\n", outdir_error(&od));
		goto done;
	}
	if (logs_dir(a.dir) < 0)
		goto done;
	{
		size_t pts = 0;

		for (size_t i = 0; i < p.njobs; i++)
			pts += p.jobs[i].nmix * p.jobs[i].npause;
		printf("rvmess plan: wrote %s/ (%zu jobs, %zu Mess points x %u reps, %zu configuration%s, target %s)\n",
		       a.dir, p.njobs, pts, p.reps, p.nconfigs, p.nconfigs == 1 ? "" : "s", p.target);
		if (rtl) {
			char dirabs[PATH_MAX];

			est_report(&est, &p, a.dir, online_cpus(), stdout);
			printf("rvmess plan: each job runs tools/run.sh in %s/runs/<job>/ (time limit %llu s a job)\n",
			       realpath(a.dir, dirabs) ? dirabs : a.dir, (unsigned long long)p.time_s);
		}
		printf("rvmess plan: run it: %s/run.sh -j N  (or --slurm); then rvmess merge %s -o OUT\n", a.dir, a.dir);
	}
	rc = 0;
done:
	plan_free(&p);
	est_free(&est);
	free(runargs);
	free(buf);
	return rc;
}

/* ---- --refine -------------------------------------------------------------- */

static int refine(const char *dir)
{
	struct plan p;
	struct sweep_logs L;
	char path[PATH_MAX];
	unsigned char *buf = NULL;
	size_t len, added = 0, before;
	struct elf_section sec;
	struct rvm_config cfg;
	int rc = 2;

	snprintf(path, sizeof(path), "%s/%s", dir, PLAN_MANIFEST);
	switch (plan_read_file(path, stderr, &p)) {
	case 0: break;
	case -1: fprintf(stderr, "rvmess plan: %s: %s\n", path, strerror(errno)); return 2;
	default: return 1;
	}
	if (!p.ncand) {
		fprintf(stderr, "rvmess plan: %s is not an adaptive plan (no adaptive line)\n", path);
		plan_free(&p);
		return 2;
	}
	snprintf(path, sizeof(path), "%s/base.elf", dir);
	buf = load_image(path, &len, &sec, &cfg);
	if (!buf) {
		plan_free(&p);
		return 2;
	}
	if (sweep_logs_read(&L, &p, dir, stderr) < 0) {
		sweep_logs_free(&L);
		plan_free(&p);
		free(buf);
		return 2;
	}
	before = p.njobs;
	for (size_t c = 0; c < p.nconfigs; c++) {
		unsigned mixes[PLAN_MAX_LIST];
		size_t nm = 0;

		for (size_t i = 0; i < p.njobs; i++) /* the curves of this configuration */
			if (p.jobs[i].config == c && p.jobs[i].mess)
				for (size_t k = 0; k < p.jobs[i].nmix; k++) {
					size_t q;

					for (q = 0; q < nm && mixes[q] != p.jobs[i].mix[k]; q++)
						;
					if (q == nm && nm < PLAN_MAX_LIST)
						mixes[nm++] = p.jobs[i].mix[k];
				}
		for (size_t m = 0; m < nm; m++) {
			int have[PLAN_MAX_LIST];
			double lat[PLAN_MAX_LIST], bw[PLAN_MAX_LIST];
			size_t idx[PLAN_MAX_LIST], n, planned = 0;
			struct adapt_curve ac = { p.ncand, p.cand, have, lat, bw };

			for (size_t k = 0; k < p.ncand; k++) {
				int pl = sweep_point_planned(&p, (unsigned)c, mixes[m], p.cand[k]);

				have[k] = sweep_point_value(&L, &p, (unsigned)c, mixes[m], p.cand[k], &lat[k], &bw[k]) == 0;
				planned += pl;
				if (pl && !have[k]) /* planned, not measured yet: nothing to refine on */
					goto next_curve;
			}
			n = adapt_next(&ac, p.adapt_tol, p.adapt_budget > planned ? p.adapt_budget : planned, idx,
				       PLAN_MAX_LIST);
			for (size_t k = 0; k < n; k++) {
				struct plan_job *j = plan_add_job(&p, (unsigned)c, "mess", 1);

				j->nmix = 1;
				j->mix[0] = mixes[m];
				j->npause = 1;
				j->pause[0] = p.cand[idx[k]];
				added++;
			}
next_curve:;
		}
	}
	if (added) {
		struct outdir od;
		struct estimate e;
		int have_est = 0;

		snprintf(path, sizeof(path), "%s/%s", dir, EST_FILE);
		if (access(path, F_OK) == 0) {
			/* the new jobs' shadow counts (an RTL plan's estimate) */
			if (est_read(path, stderr, &e) != 0) {
				fprintf(stderr, "rvmess plan: %s: unreadable (above): the new jobs have no estimate\n", path);
			} else {
				have_est = 1;
				shadow_jobs(&e, &p, before, buf, len, &sec, &cfg);
			}
		}

		if (outdir_open_flags(&od, dir, "plan", OUTDIR_FILEWISE | OUTDIR_NO_MANIFEST) < 0) {
			fprintf(stderr, "rvmess plan: %s\n", outdir_error(&od));
			goto out;
		}
		for (size_t i = before; i < p.njobs; i++)
			if (write_job_image(&od, &p.jobs[i], buf, len, &sec, &cfg) < 0) {
				outdir_abort(&od);
				goto out;
			}
		if ((have_est && write_estimate(&od, &e) < 0) || write_manifest(&od, &p) < 0) {
			outdir_abort(&od);
			if (have_est)
				est_free(&e);
			goto out;
		}
		if (have_est)
			est_free(&e);
		if (outdir_commit(&od) < 0) {
			fprintf(stderr, "rvmess plan: %s\n", outdir_error(&od));
			goto out;
		}
	}
	printf("rvmess plan: refine: %zu new job%s\n", added, added == 1 ? "" : "s");
	rc = 0;
out:
	sweep_logs_free(&L);
	plan_free(&p);
	free(buf);
	return rc;
}
