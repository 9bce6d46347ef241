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

#include "cli/cmds.h"
#include "cli/config.h"
#include "cli/elf.h"
#include "cli/estimate.h"
#include "cli/out.h"
#include "cli/plan.h"
#include "cli/sweep.h"
#include "cli/util.h"
#include "rvmess/cfgschema.h"
#include "rvmess/numparse.h"

#define USAGE \
	"usage: rvmess plan IMAGE -o DIR [--file CFG]... [key=value ...] [--target T] [--harts N]\n" \
	"                   [--mem-size SIZE] [--sim [NAME=]OPTIONS]... [--cmd COMMAND]\n" \
	"                   [--split point|curve] [--points-per-job N] [--point-time SEC --job-time SEC]\n" \
	"                   [--time SEC] [--mem MB] [--adaptive PCT [--budget N] [--coarse N]]\n" \
	"                   [--no-estimate]\n" \
	"         RTL targets: --target openpiton --piton-root DIR [--tiles XxY] [--piton-build ID]\n" \
	"                      --target cva6 --cva6 DIR\n" \
	"                      [--mess-curves FAMILY [--mess-mhz F] [--mess-onchip NS] [--mess-window N]]\n" \
	"                      [--mem-fixed CYCLES] [--network]\n" \
	"       rvmess plan --refine DIR\n" \
	"       rvmess plan --estimate DIR [-j N]\n"

static int usage(void)
{
	fprintf(stderr, USAGE "(rvmess plan --help explains the options)\n");
	return 2;
}

static int help(void)
{
	printf(USAGE
	       "Write a plan directory: DIR/images/<job>.elf (IMAGE with its config block rewritten to\n"
	       "the job's points; nothing is rebuilt), DIR/manifest.tsv (job -> configuration, suites,\n"
	       "mixes, pauses; the target command; time and memory per job) and DIR/run.sh (runs the\n"
	       "plan: locally, `DIR/run.sh -j N`; on Slurm, `DIR/run.sh --slurm`).  Then\n"
	       "`rvmess merge DIR -o OUT` puts the logs together.  docs/sweeps.md has the details.\n"
	       "  --file CFG, key=value   the grid: the image's config keys (as rvmess config)\n"
	       "  --target T      hostsim (default), qemu-virt, qemu-spike, openpiton, cva6, or any name\n"
	       "                  with --cmd\n"
	       "  openpiton, cva6 Verilator models run by tools/run.sh (its options: --piton-root,\n"
	       "                  --tiles, --piton-build, --cva6, the Mess memory's --mess-* or --mem-fixed,\n"
	       "                  --network), checked when the plan is made; each job runs in\n"
	       "                  DIR/runs/<job>/.  The plan prints each job's estimated cycles and CPU\n"
	       "                  hours (DIR/estimate.tsv; --no-estimate: none), from the model's record\n"
	       "                  of runs; `rvmess plan --estimate DIR [-j N]` prints them again, with\n"
	       "                  the truth of the jobs that ran\n"
	       "  --harts N       harts of the target (default 8); --mem-size SIZE its RAM (512M)\n"
	       "  --sim [NAME=]OPTIONS  hostsim options of one configuration; several give a\n"
	       "                  design-space sweep, every point on each (names c0, c1, ... by default)\n"
	       "  --cmd COMMAND   the target command (sh syntax): $IMAGE is the job's image, $SIM\n"
	       "                  its configuration's options; its standard output is the log\n"
	       "  --split point   one job per point (default); curve: one job per mix\n"
	       "  --points-per-job N  consecutive pauses of one mix per job\n"
	       "  --point-time SEC --job-time SEC  as many points per job as fit in the job time\n"
	       "  --time SEC      a job's time limit (default: 3 x its points' time + 60 s with\n"
	       "                  --point-time, else 3600); --mem MB its memory (default RAM + 512)\n"
	       "  --adaptive PCT  run --coarse N (default 4) of the pauses per curve, then\n"
	       "                  `rvmess plan --refine DIR` adds points where the curve changes by\n"
	       "                  more than PCT %% between measured ones, up to --budget N per curve\n"
	       "docs/sweeps.md has the details.\n");
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

static int parse_u64_arg(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	if (rvm_parse_u64(s, v) || *v < min || *v > max) {
		fprintf(stderr, "rvmess plan: %s wants a number in %llu..%llu, got '%s'\n", opt,
			(unsigned long long)min, (unsigned long long)max, s);
		return -1;
	}
	return 0;
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
	const char *image = NULL, *dir = NULL, *target = "hostsim", *cmd = NULL, *split = "point";
	const char *memsize = "512M";
	const char *files[16], *sims[16], *assign[256];
	const char *piton_root = NULL, *tiles = NULL, *piton_build = NULL, *cva6 = NULL, *mess_curves = NULL;
	const char *mess_mhz = NULL, *mess_onchip = NULL, *mess_window = NULL, *mem_fixed = NULL;
	int nfiles = 0, nsims = 0, nassign = 0, errors = 0, rc = 2, network = 0, no_estimate = 0, rtl = 0, harts_set = 0;
	char *runargs = NULL;
	size_t runargs_len = 0;
	struct estimate est = { 0 };
	struct rtl_check chk;
	uint64_t harts = 8, ppj = 0, point_time = 0, job_time = 0, time_s = 0, mem_mb = 0, budget = 0, coarse = 4;
	double adaptive = 0;
	struct plan p = { 0 };
	unsigned char *buf = NULL;
	size_t len;
	struct elf_section sec;
	struct rvm_config cfg;
	char key[128], why[256], path[PATH_MAX], rest[256], absimg[PATH_MAX];
	struct stat st;
	struct outdir od;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int has = i + 1 < argc;

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
			return help();
		if (strcmp(a, "--refine") == 0) {
			if (!has || argc != 3)
				return usage();
			return refine(argv[i + 1]);
		}
		if (strcmp(a, "--estimate") == 0) {
			uint64_t n = 0;

			if (i != 1 || !has || (argc != 3 && !(argc == 5 && strcmp(argv[3], "-j") == 0)))
				return usage();
			if (argc == 5 && parse_u64_arg("-j", argv[4], 1, 4096, &n))
				return 2;
			return show_estimate(argv[2], (unsigned)n);
		}
		if (strcmp(a, "--network") == 0) {
			network = 1;
			continue;
		}
		if (strcmp(a, "--no-estimate") == 0) {
			no_estimate = 1;
			continue;
		}
		if (a[0] == '-' && a[1] && !has) {
			fprintf(stderr, "rvmess plan: option '%s' needs a value (or is unknown)\n", a);
			return usage();
		}
		if (strcmp(a, "-o") == 0) {
			dir = argv[++i];
		} else if (strcmp(a, "--file") == 0) {
			if (nfiles == 16)
				return usage();
			files[nfiles++] = argv[++i];
		} else if (strcmp(a, "--target") == 0) {
			target = argv[++i];
		} else if (strcmp(a, "--harts") == 0) {
			if (parse_u64_arg(a, argv[++i], 1, RVM_MAX_HARTS, &harts))
				return 2;
			harts_set = 1;
		} else if (strcmp(a, "--piton-root") == 0) {
			piton_root = argv[++i];
		} else if (strcmp(a, "--tiles") == 0) {
			tiles = argv[++i];
		} else if (strcmp(a, "--piton-build") == 0) {
			piton_build = argv[++i];
		} else if (strcmp(a, "--cva6") == 0) {
			cva6 = argv[++i];
		} else if (strcmp(a, "--mess-curves") == 0) {
			mess_curves = argv[++i];
		} else if (strcmp(a, "--mess-mhz") == 0) {
			mess_mhz = argv[++i];
		} else if (strcmp(a, "--mess-onchip") == 0) {
			mess_onchip = argv[++i];
		} else if (strcmp(a, "--mess-window") == 0) {
			mess_window = argv[++i];
		} else if (strcmp(a, "--mem-fixed") == 0) {
			mem_fixed = argv[++i];
		} else if (strcmp(a, "--mem-size") == 0) {
			memsize = argv[++i];
		} else if (strcmp(a, "--sim") == 0) {
			if (nsims == 16) {
				fprintf(stderr, "rvmess plan: at most 16 --sim configurations\n");
				return 2;
			}
			sims[nsims++] = argv[++i];
		} else if (strcmp(a, "--cmd") == 0) {
			cmd = argv[++i];
		} else if (strcmp(a, "--split") == 0) {
			split = argv[++i];
			if (strcmp(split, "point") != 0 && strcmp(split, "curve") != 0) {
				fprintf(stderr, "rvmess plan: --split wants point or curve, got '%s'\n", split);
				return 2;
			}
		} else if (strcmp(a, "--points-per-job") == 0) {
			if (parse_u64_arg(a, argv[++i], 1, PLAN_MAX_LIST, &ppj))
				return 2;
		} else if (strcmp(a, "--point-time") == 0) {
			if (parse_u64_arg(a, argv[++i], 1, 366ull * 86400, &point_time))
				return 2;
		} else if (strcmp(a, "--job-time") == 0) {
			if (parse_u64_arg(a, argv[++i], 1, 366ull * 86400, &job_time))
				return 2;
		} else if (strcmp(a, "--time") == 0) {
			if (parse_u64_arg(a, argv[++i], 1, 366ull * 86400, &time_s))
				return 2;
		} else if (strcmp(a, "--mem") == 0) {
			if (parse_u64_arg(a, argv[++i], 1, 1ull << 30, &mem_mb))
				return 2;
		} else if (strcmp(a, "--budget") == 0) {
			if (parse_u64_arg(a, argv[++i], 2, PLAN_MAX_LIST, &budget))
				return 2;
		} else if (strcmp(a, "--coarse") == 0) {
			if (parse_u64_arg(a, argv[++i], 2, PLAN_MAX_LIST, &coarse))
				return 2;
		} else if (strcmp(a, "--adaptive") == 0) {
			char *e;

			adaptive = strtod(argv[++i], &e);
			if (*e || !(adaptive > 0 && adaptive < 100)) {
				fprintf(stderr, "rvmess plan: --adaptive wants a percentage in (0, 100), got '%s'\n",
					argv[i]);
				return 2;
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "rvmess plan: unknown option '%s'\n", a);
			return usage();
		} else if (!image) {
			image = a;
		} else {
			if (nassign == 256)
				return usage();
			assign[nassign++] = a;
		}
	}
	if (!image || !dir)
		return usage();
	if ((point_time != 0) != (job_time != 0)) {
		fprintf(stderr, "rvmess plan: --point-time and --job-time go together\n");
		return 2;
	}
	if (nsims && strcmp(target, "hostsim") != 0 && !cmd) {
		fprintf(stderr, "rvmess plan: --sim configurations are hostsim options (or name $SIM in --cmd)\n");
		return 2;
	}
	rtl = !cmd && (strcmp(target, "openpiton") == 0 || strcmp(target, "cva6") == 0);
	{
		/* the runner's options: each for its target, none with --cmd or another target */
		const struct { const char *name, *val, *target; } ro[] = {
			{ "--piton-root", piton_root, "openpiton" }, { "--tiles", tiles, "openpiton" },
			{ "--piton-build", piton_build, "openpiton" }, { "--cva6", cva6, "cva6" },
			{ "--mess-curves", mess_curves, NULL }, { "--mess-mhz", mess_mhz, NULL },
			{ "--mess-onchip", mess_onchip, NULL }, { "--mess-window", mess_window, NULL },
			{ "--mem-fixed", mem_fixed, NULL }, { "--network", network ? "" : NULL, NULL },
		};

		for (size_t k = 0; k < sizeof(ro) / sizeof(ro[0]); k++) {
			if (!ro[k].val)
				continue;
			if (!rtl || (ro[k].target && strcmp(ro[k].target, target) != 0)) {
				fprintf(stderr, "rvmess plan: %s is an option of tools/run.sh's %s target%s\n", ro[k].name,
					ro[k].target ? ro[k].target : "RTL (openpiton, cva6)",
					cmd ? ", not of a plan with --cmd" : "");
				return 2;
			}
		}
		if (rtl && (mess_mhz || mess_onchip || mess_window) && !mess_curves) {
			fprintf(stderr, "rvmess plan: --mess-mhz, --mess-onchip and --mess-window go with --mess-curves\n");
			return 2;
		}
	}
	buf = load_image(image, &len, &sec, &cfg);
	if (!buf)
		return 2;
	for (int i = 0; i < nfiles; i++)
		if (cfg_apply_file(&cfg, files[i], &errors) < 0)
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
	if (!(cfg.suites & RVM_SUITE_MESS) && adaptive > 0) {
		fprintf(stderr, "rvmess plan: --adaptive places Mess points; the grid has no mess suite\n");
		goto done;
	}
	if (rtl) {
		/* the runner's arguments (paths absolute: jobs run anywhere), checked by it */
		char runner[PATH_MAX], abspath[PATH_MAX];
		const char *paths[][2] = { { "--piton-root", piton_root }, { "--cva6", cva6 }, { "--mess-curves", mess_curves } };
		const char *vals[][2] = { { "--tiles", tiles }, { "--piton-build", piton_build }, { "--mess-mhz", mess_mhz },
					  { "--mess-onchip", mess_onchip }, { "--mess-window", mess_window },
					  { "--mem-fixed", mem_fixed } };

		tool_path("run.sh", runner, sizeof(runner));
		if (!runner[0]) {
			fprintf(stderr, "rvmess plan: tools/run.sh not found beside this rvmess: it runs the %s jobs\n", target);
			goto done;
		}
		sh_word(&runargs, &runargs_len, runner);
		sh_raw(&runargs, &runargs_len, "--target");
		sh_word(&runargs, &runargs_len, target);
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
		if (network)
			sh_raw(&runargs, &runargs_len, "--network");
		if (rtl_check(runargs, image, &chk) < 0)
			goto done;
		if (harts_set && harts != chk.harts) {
			fprintf(stderr, "rvmess plan: --harts %llu, but the %s model has %u (%s)\n", (unsigned long long)harts,
				target, chk.harts, strcmp(target, "openpiton") == 0 ? "--tiles sets it" : "one core");
			goto done;
		}
		harts = chk.harts;
		if ((cfg.suites & RVM_SUITE_MESS) && harts < 2) {
			fprintf(stderr, "rvmess plan: the mess suite needs 2 harts or more (the chase and a traffic generator); "
				"the %s model has %u: no plan written\n", target, chk.harts);
			goto done;
		}
	}

	/* the plan */
	p.target = strdup(target);
	if (cmd) {
		p.command = strdup(cmd);
	} else if (strcmp(target, "hostsim") == 0) {
		char exe[PATH_MAX], c[PATH_MAX + 256];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		char *s;

		exe[n > 0 ? n : 0] = '\0';
		s = strrchr(exe, '/');
		snprintf(c, sizeof(c), "%s%shostsim --harts %llu --mem-size %s $SIM \"$IMAGE\"", s ? exe : "",
			 s ? (s[1] = '\0', "") : "", (unsigned long long)harts, memsize);
		p.command = strdup(c);
	} else if (strcmp(target, "qemu-virt") == 0 || strcmp(target, "qemu-spike") == 0) {
		char c[512];

		snprintf(c, sizeof(c), "qemu-system-riscv64 -M %s -bios none -nographic -smp %llu -m %s -kernel \"$IMAGE\"",
			 target + 5, (unsigned long long)harts, memsize);
		p.command = strdup(c);
	} else if (!rtl) {
		fprintf(stderr, "rvmess plan: target '%s' needs --cmd (the simulation command; $IMAGE is the image)\n",
			target);
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
	if (!ppj)
		ppj = strcmp(split, "curve") == 0 ? PLAN_MAX_LIST : 1;
	if (job_time)
		ppj = job_time / point_time ? job_time / point_time : 1;
	if (!mem_mb) {
		uint64_t m;

		/* an RTL model's memory is sparse: OpenPiton 2x1's resident set is 8 MB */
		mem_mb = rtl ? 512 : rvm_parse_num(memsize, &m) == 0 ? (m >> 20) + 512 : 1024;
	}
	for (int i = 0; i < (nsims ? nsims : 1); i++) {
		struct plan_config *c;
		const char *s = nsims ? sims[i] : "", *eq = strchr(s, '=');

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
	if (adaptive > 0) {
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
		p.adapt_tol = adaptive / 100;
		p.adapt_budget = (unsigned)(budget ? budget : p.ncand);
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

			if (adaptive > 0) {
				size_t idx[PLAN_MAX_LIST];

				np = adapt_coarse(p.ncand, coarse, idx);
				for (size_t k = 0; k < np; k++)
					pauses[k] = p.cand[idx[k]];
			} else {
				for (uint32_t k = 0; k < cfg.mess_npause; k++)
					pauses[np++] = cfg.mess_pause[k];
			}
			for (size_t k = 0; k < np; k += ppj) {
				struct plan_job *j = plan_add_job(&p, (unsigned)c, "mess", 1);

				j->nmix = 1;
				j->mix[0] = cfg.mess_mix[m];
				for (size_t q = k; q < np && q < k + ppj; q++)
					j->pause[j->npause++] = pauses[q];
			}
		}
	}
	p.mem_mb = mem_mb;
	p.time_s = time_s ? time_s : point_time ? 3 * ppj * point_time + 60 : 3600;
	if (rtl) {
		double longest = 0;
		int all = 1;
		char t[32];

		est.target = strdup(target);
		est.harts = (unsigned)harts;
		est.record = strdup(chk.record);
		est.memory = strdup(chk.memory);
		if (est_from_record(&est, chk.record, chk.memory, stderr) < 0)
			fprintf(stderr, "rvmess plan: %s: %s: estimates without the model's record\n", chk.record, strerror(errno));
		if (!no_estimate)
			shadow_jobs(&est, &p, 0, buf, len, &sec, &cfg);
		for (size_t i = 0; i < p.njobs; i++) {
			double c = est_cpu_seconds(&est, i);

			all &= c >= 0;
			longest = fmax(longest, c);
		}
		/* a job's time limit: 10 x the longest estimate (a busy machine runs
		 * a job at a fraction of a core), at least an hour; a day without
		 * estimates */
		if (!time_s && !point_time)
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
	snprintf(path, sizeof(path), "%s/%s", dir, PLAN_MANIFEST);
	if (lstat(path, &st) == 0) {
		fprintf(stderr, "rvmess plan: %s already holds a plan (%s); choose a new directory\n", dir, path);
		goto done;
	}
	if (outdir_open_flags(&od, dir, "plan", OUTDIR_FILEWISE | OUTDIR_NO_MANIFEST) < 0) {
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
	if (logs_dir(dir) < 0)
		goto done;
	{
		size_t pts = 0;

		for (size_t i = 0; i < p.njobs; i++)
			pts += p.jobs[i].nmix * p.jobs[i].npause;
		printf("rvmess plan: wrote %s/ (%zu jobs, %zu Mess points x %u reps, %zu configuration%s, target %s)\n",
		       dir, p.njobs, pts, p.reps, p.nconfigs, p.nconfigs == 1 ? "" : "s", p.target);
		if (rtl) {
			char dirabs[PATH_MAX];

			est_report(&est, &p, dir, online_cpus(), stdout);
			printf("rvmess plan: each job runs tools/run.sh in %s/runs/<job>/ (time limit %llu s a job)\n",
			       realpath(dir, dirabs) ? dirabs : dir, (unsigned long long)p.time_s);
		}
		printf("rvmess plan: run it: %s/run.sh -j N  (or --slurm); then rvmess merge %s -o OUT\n", dir, dir);
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
