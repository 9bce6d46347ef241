/* Estimates of an RTL plan: see estimate.h and docs/sweeps.md. */
#include "cli/estimate.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/util.h"

void est_free(struct estimate *e)
{
	free(e->target);
	free(e->record);
	free(e->memory);
	free(e->ratio_src);
	free(e->cps_src);
	free(e->shadow);
	memset(e, 0, sizeof(*e));
}

/* A number >= 0 (digits, one optional point), or -1 */
static double num(const char *s)
{
	char *end;
	double v;

	if (!*s || strspn(s, "0123456789.") != strlen(s) || *s == '.')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	return *end || errno || !isfinite(v) ? -1 : v;
}

/* Split a line at tabs into at most max fields; the count (max + 1: more) */
static int split(char *line, char **f, int max)
{
	int n = 0;

	for (;;) {
		char *t = strchr(line, '\t');

		if (n == max)
			return max + 1;
		f[n++] = line;
		if (!t)
			return n;
		*t = '\0';
		line = t + 1;
	}
}

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

/* ---- the model's record ------------------------------------------------ */

/* Is line (score, date) better than the best so far?  Higher score first,
 * then the newer date (a later line wins a tie). */
static int better(int score, const char *date, int best_score, const char *best_date)
{
	return score > best_score || (score == best_score && strcmp(date, best_date) >= 0);
}

int est_from_record(struct estimate *e, const char *record, const char *memory, FILE *diag)
{
	FILE *f = fopen(record, "r");
	char *line = NULL, *f10[11];
	char ratio_date[64] = "", speed_date[64] = "";
	int ratio_score = -1, speed_score = -1;
	size_t cap = 0;
	unsigned long ln = 0;

	if (!f)
		return errno == ENOENT ? 0 : -1;
	while (getline(&line, &cap, f) >= 0) {
		double cyc, cps, sh;
		const char *date;
		int same, clean;

		ln++;
		chomp(line);
		if (!line[0] || line[0] == '#')
			continue;
		if (split(line, f10, 10) != 10) {
			if (diag)
				fprintf(diag, "%s:%lu: a run line has 10 tab-separated fields (tools/rtl-record.sh); skipped\n",
					record, ln);
			continue;
		}
		date = f10[0];
		if (strlen(date) >= sizeof(speed_date)) {
			if (diag)
				fprintf(diag, "%s:%lu: the date is too long; skipped\n", record, ln);
			continue;
		}
		cyc = num(f10[3]);
		cps = num(f10[6]);
		sh = num(f10[7]);
		same = strcmp(f10[9], memory) == 0;
		clean = strcmp(f10[2], "clean") == 0;
		/* speed: a run with the plan's memory first (the Mess stage has a
		 * cost of its own), then a clean one, then the newest */
		if (cps > 0 && better(2 * same + clean, date, speed_score, speed_date)) {
			speed_score = 2 * same + clean;
			strcpy(speed_date, date);
			e->cps = cps;
			free(e->cps_src);
			e->cps_src = xstrdup(f10[1]);
		}
		/* ratio: a clean run with a shadow count; the plan's memory first */
		if (clean && cyc > 0 && sh > 0 && better(same, date, ratio_score, ratio_date)) {
			ratio_score = same;
			strcpy(ratio_date, date);
			e->ratio = cyc / sh;
			e->ratio_same = same;
			free(e->ratio_src);
			e->ratio_src = xstrdup(f10[1]);
		}
	}
	free(line);
	fclose(f);
	return 0;
}

/* ---- PLAN/estimate.tsv ------------------------------------------------- */

static void problem(FILE *diag, const char *name, unsigned long ln, int *n, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void problem(FILE *diag, const char *name, unsigned long ln, int *n, const char *fmt, ...)
{
	va_list ap;

	(*n)++;
	if (!diag)
		return;
	fprintf(diag, "%s:%lu: ", name, ln);
	va_start(ap, fmt);
	vfprintf(diag, fmt, ap);
	va_end(ap);
	fputc('\n', diag);
}

int est_read(const char *path, FILE *diag, struct estimate *e)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *fl[8];
	size_t cap = 0;
	unsigned long ln = 0;
	int bad = 0, header = 0, nf;

	memset(e, 0, sizeof(*e));
	if (!f)
		return -1;
	while (getline(&line, &cap, f) >= 0) {
		ln++;
		chomp(line);
		if (strlen(line) == 0 || line[0] == '#')
			continue;
		nf = split(line, fl, 6);
		if (!header) {
			if (strcmp(fl[0], "rvmess-estimate") != 0 || nf != 2 || strcmp(fl[1], "1") != 0) {
				problem(diag, path, ln, &bad, "not an rvmess estimate (the first line is 'rvmess-estimate<TAB>%d')",
					EST_VERSION);
				break;
			}
			header = 1;
			continue;
		}
		if (strcmp(fl[0], "shadow") == 0 && nf == 3 && !e->target) {
			double h = num(fl[2]);

			if (!(h >= 1 && h <= 64) || h != floor(h)) {
				problem(diag, path, ln, &bad, "shadow harts '" TOKF "' is not a number in 1..64", TOKA(fl[2]));
				continue;
			}
			e->target = xstrdup(fl[1]);
			e->harts = (unsigned)h;
		} else if (strcmp(fl[0], "record") == 0 && nf == 2 && !e->record) {
			e->record = xstrdup(fl[1]);
		} else if (strcmp(fl[0], "memory") == 0 && nf == 2 && !e->memory) {
			e->memory = xstrdup(fl[1]);
		} else if (strcmp(fl[0], "ratio") == 0 && nf == 4 && !e->ratio_src) {
			e->ratio = num(fl[1]);
			if (!(e->ratio > 0) || (strcmp(fl[3], "same") != 0 && strcmp(fl[3], "other") != 0)) {
				problem(diag, path, ln, &bad, "a ratio line is 'ratio R SIM_TXT same|other' with R > 0");
				e->ratio = 0;
				continue;
			}
			e->ratio_src = xstrdup(fl[2]);
			e->ratio_same = strcmp(fl[3], "same") == 0;
		} else if (strcmp(fl[0], "speed") == 0 && nf == 3 && !e->cps_src) {
			e->cps = num(fl[1]);
			if (!(e->cps > 0)) {
				problem(diag, path, ln, &bad, "a speed line is 'speed CYCLES_PER_CPU_SECOND SIM_TXT' with a number > 0");
				e->cps = 0;
				continue;
			}
			e->cps_src = xstrdup(fl[2]);
		} else if (strcmp(fl[0], "job") == 0 && nf == 3) {
			double id = num(fl[1]), sh = strcmp(fl[2], "-") == 0 ? -1 : num(fl[2]);

			if (!(id >= 0) || id != floor(id) || id != (double)e->njobs) {
				problem(diag, path, ln, &bad, "job '" TOKF "' out of order: jobs are 0, 1, ... (want %zu)",
					TOKA(fl[1]), e->njobs);
				continue;
			}
			if (sh < 0 && strcmp(fl[2], "-") != 0) {
				problem(diag, path, ln, &bad, "job %zu: shadow '" TOKF "' is not a count or -", e->njobs,
					TOKA(fl[2]));
				continue;
			}
			e->shadow = xrealloc(e->shadow, (e->njobs + 1) * sizeof(*e->shadow));
			e->shadow[e->njobs++] = sh;
		} else {
			problem(diag, path, ln, &bad, "unknown or repeated line '" TOKF "' (or the wrong number of fields)",
				TOKA(fl[0]));
		}
	}
	free(line);
	if (ferror(f)) {
		fclose(f);
		est_free(e);
		errno = EIO;
		return -1;
	}
	fclose(f);
	if (!header && !bad)
		problem(diag, path, ln, &bad, "empty: not an rvmess estimate");
	else if (header && (!e->target || !e->record || !e->memory))
		problem(diag, path, ln, &bad, "no shadow, record or memory line");
	if (bad)
		est_free(e);
	return bad;
}

int est_write(const struct estimate *e, FILE *o)
{
	fprintf(o, "rvmess-estimate\t%d\n", EST_VERSION);
	fprintf(o, "# docs/sweeps.md, \"Estimates on RTL\": a job's cycles = its shadow count x ratio; its CPU "
		   "seconds = cycles / speed\n");
	fprintf(o, "shadow\t%s\t%u\nrecord\t%s\nmemory\t%s\n", e->target, e->harts, e->record, e->memory);
	if (e->ratio > 0)
		fprintf(o, "ratio\t%.6f\t%s\t%s\n", e->ratio, e->ratio_src, e->ratio_same ? "same" : "other");
	if (e->cps > 0)
		fprintf(o, "speed\t%.3f\t%s\n", e->cps, e->cps_src);
	for (size_t j = 0; j < e->njobs; j++) {
		if (e->shadow[j] < 0)
			fprintf(o, "job\t%zu\t-\n", j);
		else
			fprintf(o, "job\t%zu\t%.0f\n", j, e->shadow[j]);
	}
	return fflush(o) == 0 && !ferror(o) ? 0 : -1;
}

double est_cycles(const struct estimate *e, size_t j)
{
	if (j >= e->njobs || e->shadow[j] < 0 || !(e->ratio > 0))
		return -1;
	return e->shadow[j] * e->ratio;
}

double est_cpu_seconds(const struct estimate *e, size_t j)
{
	double c = est_cycles(e, j);

	return c < 0 || !(e->cps > 0) ? -1 : c / e->cps;
}

/* ---- the truth ----------------------------------------------------------- */

int est_truth_read(const char *simtxt, struct est_truth *t)
{
	FILE *f = fopen(simtxt, "r");
	char *line = NULL;
	size_t cap = 0;
	struct stat st;

	t->cycles = t->wall_s = t->cpu_s = t->end = -1;
	if (!f)
		return -1;
	if (fstat(fileno(f), &st) == 0)
		t->end = (double)st.st_mtim.tv_sec + st.st_mtim.tv_nsec * 1e-9;
	while (getline(&line, &cap, f) >= 0) {
		char *v = strstr(line, ": ");

		chomp(line);
		if (!v)
			continue;
		*v = '\0';
		v += 2;
		if (strcmp(line, "cycles") == 0)
			t->cycles = num(v);
		else if (strcmp(line, "wall_seconds") == 0)
			t->wall_s = num(v);
		else if (strcmp(line, "cpu_seconds") == 0)
			t->cpu_s = num(v);
	}
	free(line);
	fclose(f);
	return 0;
}

/* ---- the report ------------------------------------------------------------ */

static int cmp_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

double est_schedule(const double *cpu_s, size_t n, unsigned parallel)
{
	double *v, *slot, wall = 0;

	if (!n || !parallel)
		return 0;
	v = xrealloc(NULL, n * sizeof(*v));
	slot = calloc(parallel, sizeof(*slot));
	if (!slot)
		abort();
	memcpy(v, cpu_s, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_desc);
	for (size_t i = 0; i < n; i++) {
		unsigned k = 0;

		for (unsigned s = 1; s < parallel; s++)
			if (slot[s] < slot[k])
				k = s;
		slot[k] += v[i];
	}
	for (unsigned s = 0; s < parallel; s++)
		wall = fmax(wall, slot[s]);
	free(v);
	free(slot);
	return wall;
}

static const char *pct(double est, double truth, char *buf, size_t len)
{
	if (est < 0 || !(truth > 0))
		return "-";
	snprintf(buf, len, "%+.1f%%", 100 * (est - truth) / truth);
	return buf;
}

static const char *cnt(double v, char *buf, size_t len)
{
	if (v < 0)
		return "-";
	snprintf(buf, len, "%.0f", v);
	return buf;
}

static const char *hms(double s, char *buf, size_t len)
{
	unsigned long t;

	if (s < 0)
		return "-";
	t = (unsigned long)(s + 0.5);
	snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
	return buf;
}

static const char *hrs(double s, char *buf, size_t len)
{
	if (s < 0)
		return "-";
	snprintf(buf, len, "%.2f h (%.0f s)", s / 3600, s);
	return buf;
}

void est_report(const struct estimate *e, const struct plan *p, const char *dir, unsigned parallel, FILE *o)
{
	double sum_est = 0, sum_cpu_est = 0, m_est = 0, m_true = 0, m_cpu_est = 0, m_cpu_true = 0, t_cyc = 0, t_cpu = 0;
	double first = -1, last = -1, *todo_cpu, *all_cpu;
	size_t n_est = 0, n_cpu_est = 0, n_true = 0, n_m = 0, n_mc = 0, n_todo = 0, n_all = 0, todo_unknown = 0;
	char a[48], b[48], c[48], d[48], g[48], h[48], k[48], l[48], m[48];

	todo_cpu = xrealloc(NULL, (p->njobs ? p->njobs : 1) * sizeof(double));
	all_cpu = xrealloc(NULL, (p->njobs ? p->njobs : 1) * sizeof(double));
	fprintf(o, "estimate: a job's cycles = its shadow count (tools/rtl-shadow.sh: hostsim's count of its work on the "
		   "%s profile, %u hart%s)", e->target, e->harts, e->harts == 1 ? "" : "s");
	if (e->ratio > 0)
		fprintf(o, " x %.4f, this model's cycles per count on %s%s", e->ratio, e->ratio_src,
			e->ratio_same ? "" : " (a run with other memory than the plan's: less certain)");
	else
		fprintf(o, "; no clean run of this model with a shadow count in %s: no cycle estimate (run a job, "
			   "then `rvmess plan --estimate %s`)", e->record, dir);
	if (e->cps > 0)
		fprintf(o, "; its CPU time at %.0f cycles per CPU-second, from %s\n", e->cps, e->cps_src);
	else
		fprintf(o, "; no run of this model in %s says its cycles per CPU-second: no CPU time\n", e->record);
	fprintf(o, "%-5s %-6s %12s %13s %10s | %13s %8s %10s %10s %8s\n", "job", "points", "shadow", "est_cycles", "est_cpu",
		"cycles", "cyc_err", "cpu", "wall", "cpu_err");
	for (size_t i = 0; i < p->njobs; i++) {
		const struct plan_job *j = &p->jobs[i];
		double ec = est_cycles(e, i), es = est_cpu_seconds(e, i), sh = i < e->njobs ? e->shadow[i] : -1;
		char path[PATH_MAX], pts[24];
		struct est_truth t = { -1, -1, -1, -1 };
		int have = 0;

		if (snprintf(path, sizeof(path), "%s/runs/%zu/sim.txt", dir, i) < (int)sizeof(path))
			have = est_truth_read(path, &t) == 0;
		if (j->mess)
			snprintf(pts, sizeof(pts), "%zu", j->nmix * j->npause * p->reps);
		else
			snprintf(pts, sizeof(pts), "-");
		fprintf(o, "%-5zu %-6s %12s %13s %10s | %13s %8s %10s %10s %8s\n", i, pts, cnt(sh, a, sizeof(a)),
			cnt(ec, b, sizeof(b)), hms(es, c, sizeof(c)), cnt(t.cycles, d, sizeof(d)),
			pct(ec, t.cycles, g, sizeof(g)), hms(t.cpu_s, h, sizeof(h)), hms(t.wall_s, k, sizeof(k)),
			pct(es, t.cpu_s, l, sizeof(l)));
		if (ec >= 0)
			sum_est += ec, n_est++;
		if (es >= 0)
			sum_cpu_est += es, n_cpu_est++, all_cpu[n_all++] = es;
		if (have && t.cycles >= 0) {
			n_true++;
			t_cyc += t.cycles;
			if (t.cpu_s >= 0)
				t_cpu += t.cpu_s;
			if (ec >= 0)
				m_est += ec, m_true += t.cycles, n_m++;
			if (es >= 0 && t.cpu_s > 0)
				m_cpu_est += es, m_cpu_true += t.cpu_s, n_mc++;
			if (t.end > 0 && t.wall_s >= 0) {
				if (first < 0 || t.end - t.wall_s < first)
					first = t.end - t.wall_s;
				if (t.end > last)
					last = t.end;
			}
		} else if (es >= 0) {
			todo_cpu[n_todo++] = es;
		} else {
			todo_unknown++;
		}
	}
	fprintf(o, "estimate: total %zu jobs: %s cycles, CPU time %s%s\n", p->njobs, n_est ? cnt(sum_est, a, sizeof(a)) : "-",
		n_cpu_est ? hrs(sum_cpu_est, b, sizeof(b)) : "-",
		n_est < p->njobs ? " (jobs without an estimate left out)" : "");
	if (n_true)
		fprintf(o, "truth: %zu of %zu jobs ran (their sim.txt): %s cycles (estimate %s), CPU time %s (estimate %s), "
			   "wall time %s from the first one's start to the last one's end\n",
			n_true, p->njobs, cnt(t_cyc, c, sizeof(c)), n_m ? pct(m_est, m_true, d, sizeof(d)) : "-",
			hrs(t_cpu, g, sizeof(g)), n_mc ? pct(m_cpu_est, m_cpu_true, h, sizeof(h)) : "-",
			first >= 0 ? hrs(last - first, k, sizeof(k)) : "-");
	if (parallel && n_all) {
		fprintf(o, "estimate: %u at once: the whole plan about %s of wall time", parallel,
			hrs(est_schedule(all_cpu, n_all, parallel), l, sizeof(l)));
		if (n_todo + todo_unknown && n_true)
			fprintf(o, "; the %zu job%s without a sim.txt about %s%s", n_todo + todo_unknown,
				n_todo + todo_unknown == 1 ? "" : "s", hrs(est_schedule(todo_cpu, n_todo, parallel), m, sizeof(m)),
				todo_unknown ? " and those without an estimate" : "");
		fprintf(o, " (a core per job: longer on a busy machine)\n");
	}
	free(todo_cpu);
	free(all_cpu);
}
