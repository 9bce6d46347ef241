/* Sweep plans: see plan.h; the manifest format is in docs/sweeps.md. */
#include "cli/plan.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/util.h"

void plan_free(struct plan *p)
{
	free(p->target);
	free(p->command);
	free(p->image);
	free(p->rvmess);
	free(p->id);
	for (size_t i = 0; i < p->nconfigs; i++)
		free(p->configs[i].sim);
	free(p->configs);
	for (size_t i = 0; i < p->njobs; i++)
		free(p->jobs[i].suites);
	free(p->jobs);
	memset(p, 0, sizeof(*p));
}

struct plan_job *plan_add_job(struct plan *p, unsigned config, const char *suites, int mess)
{
	struct plan_job *j;

	p->jobs = xrealloc(p->jobs, (p->njobs + 1) * sizeof(*p->jobs));
	j = &p->jobs[p->njobs];
	memset(j, 0, sizeof(*j));
	j->id = (unsigned)p->njobs++;
	j->config = config;
	j->suites = xstrdup(suites);
	j->mess = mess;
	return j;
}

/* ---- reading ----------------------------------------------------------- */

struct rd {
	const char *name;
	FILE *diag;
	unsigned long line;
	int problems;
	size_t job_lines;        /* job lines so far, good or bad: the next id */
};

static void problem(struct rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(struct rd *r, const char *fmt, ...)
{
	va_list ap;

	r->problems++;
	if (!r->diag)
		return;
	fprintf(r->diag, "%s:%lu: ", r->name, r->line);
	va_start(ap, fmt);
	vfprintf(r->diag, fmt, ap);
	va_end(ap);
	fputc('\n', r->diag);
}

static int num(const char *s, uint64_t *v)
{
	return rvm_parse_u64(s, v);
}

/* "a,b,c" into v (at most max); count or -1 with the reason in why */
static long list(const char *s, uint64_t *v, size_t max, const char **why)
{
	size_t n = 0;
	char buf[32];

	while (*s) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s);

		if (len == 0 || len >= sizeof(buf)) {
			*why = len ? "a value is too long" : "an empty value";
			return -1;
		}
		if (n == max) {
			*why = "too many values";
			return -1;
		}
		memcpy(buf, s, len);
		buf[len] = '\0';
		if (num(buf, &v[n])) {
			*why = "a value is not a number";
			return -1;
		}
		n++;
		s += len + (e ? 1 : 0);
		if (e && !*s) {
			*why = "an empty value";
			return -1;
		}
	}
	if (!n)
		*why = "no value";
	return n ? (long)n : -1;
}

int plan_name_ok(const char *s)
{
	/* a directory under merge's OUT: never "." or ".." */
	if (!*s || strlen(s) >= PLAN_NAME_MAX || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '-' || *s == '.'))
			return 0;
	return 1;
}

#define MAXF 8

static void set_str(struct rd *r, char **dst, const char *key, char **f, int nf)
{
	if (nf != 2) {
		problem(r, "%s wants one value, has %d", key, nf - 1);
		return;
	}
	if (*dst) {
		problem(r, "second %s line", key);
		return;
	}
	*dst = xstrdup(f[1]);
}

static void set_num(struct rd *r, uint64_t *dst, int *seen, const char *key, char **f, int nf,
		    uint64_t min, uint64_t max)
{
	uint64_t v;

	if (nf != 2) {
		problem(r, "%s wants one value, has %d", key, nf - 1);
		return;
	}
	if (*seen) {
		problem(r, "second %s line", key);
		return;
	}
	*seen = 1;
	if (num(f[1], &v) || v < min || v > max) {
		problem(r, "%s: '" TOKF "' is not a number in %llu..%llu", key, TOKA(f[1]), (unsigned long long)min,
			(unsigned long long)max);
		return;
	}
	*dst = v;
}

static void read_job(struct rd *r, struct plan *p, char **f, int nf)
{
	uint64_t id, v[PLAN_MAX_LIST];
	size_t c;
	long n;
	const char *why = "";
	struct plan_job *j;

	if (nf != 6) {
		problem(r, "a job line has 6 fields (job ID CONFIG SUITES MIXES PAUSES), this one %d", nf);
		return;
	}
	/* a bad job line still takes its place: one bad line is one problem,
	 * not a reason to call every later job out of order */
	r->job_lines++;
	if (num(f[1], &id)) {
		problem(r, "job id '" TOKF "' is not a number", TOKA(f[1]));
		return;
	}
	if (id != r->job_lines - 1) {
		problem(r, "job id %llu out of order: jobs are numbered 0, 1, ... in order (want %zu)",
			(unsigned long long)id, r->job_lines - 1);
		return;
	}
	for (c = 0; c < p->nconfigs; c++)
		if (strcmp(p->configs[c].name, f[2]) == 0)
			break;
	if (c == p->nconfigs) {
		problem(r, "job %llu: configuration '" TOKF "' is not defined above", (unsigned long long)id, TOKA(f[2]));
		return;
	}
	if (!*f[3] || strspn(f[3], "abcdefghijklmnopqrstuvwxyz,") != strlen(f[3])) {
		problem(r, "job %llu: suites '" TOKF "' is not a comma-separated list of suite names",
			(unsigned long long)id, TOKA(f[3]));
		return;
	}
	{
		int mess = strcmp(f[4], "-") != 0 || strcmp(f[5], "-") != 0;

		if (mess && (strcmp(f[4], "-") == 0 || strcmp(f[5], "-") == 0)) {
			problem(r, "job %llu: mixes and pauses are both '-' or both lists", (unsigned long long)id);
			return;
		}
		j = plan_add_job(p, (unsigned)c, f[3], mess);
		j->line = r->line;
		if (!mess)
			return;
	}
	n = list(f[4], v, PLAN_MAX_LIST, &why);
	if (n < 0) {
		problem(r, "job %llu: mixes '" TOKF "': %s", (unsigned long long)id, TOKA(f[4]), why);
		goto bad;
	}
	for (long i = 0; i < n; i++) {
		if (v[i] > 100 || v[i] % 2) {
			problem(r, "job %llu: mix %llu is not an even store percentage 0..100", (unsigned long long)id,
				(unsigned long long)v[i]);
			goto bad;
		}
		j->mix[i] = (unsigned)v[i];
	}
	j->nmix = (size_t)n;
	n = list(f[5], v, PLAN_MAX_LIST, &why);
	if (n < 0) {
		problem(r, "job %llu: pauses '" TOKF "': %s", (unsigned long long)id, TOKA(f[5]), why);
		goto bad;
	}
	for (long i = 0; i < n; i++) {
		if (v[i] > UINT32_MAX) {
			problem(r, "job %llu: pause %llu is over the image's limit %u", (unsigned long long)id,
				(unsigned long long)v[i], UINT32_MAX);
			goto bad;
		}
		j->pause[i] = v[i];
	}
	j->npause = (size_t)n;
	return;
bad:
	free(j->suites);
	p->njobs--;
}

/* Two jobs of one configuration that plan the same point. */
static void check_overlap(struct rd *r, struct plan *p)
{
	for (size_t a = 0; a < p->njobs; a++)
		for (size_t b = a + 1; b < p->njobs; b++) {
			const struct plan_job *x = &p->jobs[a], *y = &p->jobs[b];

			if (x->config != y->config || !x->mess || !y->mess)
				continue;
			for (size_t i = 0; i < x->nmix; i++)
				for (size_t k = 0; k < y->nmix; k++) {
					if (x->mix[i] != y->mix[k])
						continue;
					for (size_t u = 0; u < x->npause; u++)
						for (size_t w = 0; w < y->npause; w++)
							if (x->pause[u] == y->pause[w]) {
								r->line = y->line;
								problem(r, "job %u plans mix=%u pause=%llu of "
									"configuration %s again (job %u, line %lu)",
									y->id, x->mix[i],
									(unsigned long long)x->pause[u],
									p->configs[x->config].name, x->id, x->line);
								return;
							}
				}
		}
}

int plan_read(const char *name, FILE *in, FILE *diag, struct plan *p)
{
	struct rd r = { name, diag, 0, 0, 0 };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int seen_reps = 0, seen_time = 0, seen_mem = 0, header = 0;
	uint64_t v = 0;

	memset(p, 0, sizeof(*p));
	while ((len = getline(&line, &cap, in)) >= 0) {
		char *f[MAXF + 1], *s = line;
		int nf = 0;

		r.line++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if ((size_t)len != strlen(line)) {
			problem(&r, "a NUL byte in the line");
			continue;
		}
		if (!len || line[0] == '#')
			continue;
		for (;;) {
			char *t = strchr(s, '\t');

			if (nf == MAXF) {
				nf++;
				break;
			}
			f[nf++] = s;
			if (!t)
				break;
			*t = '\0';
			s = t + 1;
		}
		if (nf > MAXF) {
			problem(&r, "more than %d tab-separated fields", MAXF);
			continue;
		}
		if (!header) {
			if (strcmp(f[0], "rvmess-plan") != 0) {
				problem(&r, "not an rvmess plan manifest (the first line is 'rvmess-plan<TAB>%d')",
					PLAN_VERSION);
				break;
			}
			if (nf != 2 || num(f[1], &v) || v != PLAN_VERSION) {
				problem(&r, "manifest version '" TOKF "', this rvmess reads version %d", TOKA(nf > 1 ? f[1] : ""),
					PLAN_VERSION);
				break;
			}
			header = 1;
			continue;
		}
		if (strcmp(f[0], "target") == 0) {
			set_str(&r, &p->target, f[0], f, nf);
		} else if (strcmp(f[0], "command") == 0) {
			set_str(&r, &p->command, f[0], f, nf);
		} else if (strcmp(f[0], "image") == 0) {
			set_str(&r, &p->image, f[0], f, nf);
		} else if (strcmp(f[0], "rvmess") == 0) {
			set_str(&r, &p->rvmess, f[0], f, nf);
		} else if (strcmp(f[0], "id") == 0) {
			set_str(&r, &p->id, f[0], f, nf);
			if (p->id && (strlen(p->id) != 32 || strspn(p->id, "0123456789abcdef") != 32))
				problem(&r, "id '" TOKF "' is not 32 lowercase hex digits", TOKA(p->id));
		} else if (strcmp(f[0], "reps") == 0) {
			set_num(&r, &v, &seen_reps, f[0], f, nf, 1, 100);
			p->reps = (unsigned)v;
		} else if (strcmp(f[0], "time") == 0) {
			set_num(&r, &p->time_s, &seen_time, f[0], f, nf, 1, 366ull * 86400);
		} else if (strcmp(f[0], "mem") == 0) {
			set_num(&r, &p->mem_mb, &seen_mem, f[0], f, nf, 1, 1ull << 30);
		} else if (strcmp(f[0], "adaptive") == 0) {
			const char *why = "";
			char *e;
			long n;

			if (nf != 4) {
				problem(&r, "adaptive wants TOLERANCE BUDGET PAUSES, has %d values", nf - 1);
				continue;
			}
			if (p->ncand) {
				problem(&r, "second adaptive line");
				continue;
			}
			p->adapt_tol = strtod(f[1], &e);
			if (*e || e == f[1] || !(p->adapt_tol > 0 && p->adapt_tol < 1)) {
				problem(&r, "adaptive tolerance '" TOKF "' is not a fraction in (0, 1)", TOKA(f[1]));
				continue;
			}
			if (num(f[2], &v) || v < 2 || v > PLAN_MAX_LIST) {
				problem(&r, "adaptive budget '" TOKF "' is not a number of points in 2..%d", TOKA(f[2]),
					PLAN_MAX_LIST);
				continue;
			}
			p->adapt_budget = (unsigned)v;
			n = list(f[3], p->cand, PLAN_MAX_LIST, &why);
			if (n < 2) {
				problem(&r, "adaptive pauses '" TOKF "': %s", TOKA(f[3]), n < 0 ? why : "want at least 2");
				continue;
			}
			for (long i = 1; i < n; i++)
				if (p->cand[i] <= p->cand[i - 1]) {
					problem(&r, "adaptive pauses are not strictly ascending (%llu after %llu)",
						(unsigned long long)p->cand[i], (unsigned long long)p->cand[i - 1]);
					n = 0;
					break;
				}
			p->ncand = n > 0 ? (size_t)n : 0;
		} else if (strcmp(f[0], "config") == 0) {
			if (nf != 3) {
				problem(&r, "a config line has 3 fields (config NAME HOSTSIM-OPTIONS), this one %d", nf);
				continue;
			}
			if (!plan_name_ok(f[1])) {
				problem(&r, "configuration name '" TOKF "': want 1..%d of [A-Za-z0-9_.-], not . or ..", TOKA(f[1]),
					PLAN_NAME_MAX - 1);
				continue;
			}
			for (size_t c = 0; c < p->nconfigs; c++)
				if (strcmp(p->configs[c].name, f[1]) == 0) {
					problem(&r, "configuration '" TOKF "' defined twice", TOKA(f[1]));
					goto next;
				}
			p->configs = xrealloc(p->configs, (p->nconfigs + 1) * sizeof(*p->configs));
			strcpy(p->configs[p->nconfigs].name, f[1]);
			p->configs[p->nconfigs++].sim = xstrdup(f[2]);
		} else if (strcmp(f[0], "job") == 0) {
			read_job(&r, p, f, nf);
		} else {
			problem(&r, "unknown line kind '" TOKF "'", TOKA(f[0]));
		}
next:;
	}
	free(line);
	if (ferror(in)) {
		int e = errno ? errno : EIO;

		plan_free(p);
		errno = e;
		return -1;
	}
	if (!header) {
		if (!r.problems) {
			r.line = 0;
			problem(&r, "empty: not an rvmess plan manifest");
		}
	} else {
		static const char *const need[] = { "target", "command", "reps", "time", "mem" };
		const int have[] = { p->target != NULL, p->command != NULL, seen_reps, seen_time, seen_mem };

		r.line++;
		for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
			if (!have[i])
				problem(&r, "no %s line", need[i]);
		if (!p->njobs && !r.problems)
			problem(&r, "no job line");
		check_overlap(&r, p);
	}
	if (r.problems)
		plan_free(p);
	return r.problems;
}

int plan_read_file(const char *path, FILE *diag, struct plan *p)
{
	FILE *f = fopen(path, "r");
	int rc;

	if (!f)
		return -1;
	rc = plan_read(path, f, diag, p);
	fclose(f);
	return rc;
}

/* ---- writing ----------------------------------------------------------- */

static void put_list(FILE *o, const uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(o, "%s%llu", i ? "," : "", (unsigned long long)v[i]);
}

int plan_write(const struct plan *p, FILE *o)
{
	fprintf(o, "rvmess-plan\t%d\n", PLAN_VERSION);
	fprintf(o, "# docs/sweeps.md: run with tools/sweep-run.sh DIR (local) or DIR --slurm; merge with rvmess merge DIR -o OUT\n");
	fprintf(o, "target\t%s\n", p->target);
	fprintf(o, "command\t%s\n", p->command);
	if (p->image)
		fprintf(o, "image\t%s\n", p->image);
	if (p->rvmess)
		fprintf(o, "rvmess\t%s\n", p->rvmess);
	if (p->id)
		fprintf(o, "id\t%s\n", p->id);
	fprintf(o, "reps\t%u\ntime\t%llu\nmem\t%llu\n", p->reps, (unsigned long long)p->time_s,
		(unsigned long long)p->mem_mb);
	if (p->ncand) {
		fprintf(o, "adaptive\t%g\t%u\t", p->adapt_tol, p->adapt_budget);
		put_list(o, p->cand, p->ncand);
		fputc('\n', o);
	}
	for (size_t c = 0; c < p->nconfigs; c++)
		fprintf(o, "config\t%s\t%s\n", p->configs[c].name, p->configs[c].sim);
	for (size_t i = 0; i < p->njobs; i++) {
		const struct plan_job *j = &p->jobs[i];

		fprintf(o, "job\t%u\t%s\t%s\t", j->id, p->configs[j->config].name, j->suites);
		if (!j->mess) {
			fprintf(o, "-\t-\n");
			continue;
		}
		for (size_t k = 0; k < j->nmix; k++)
			fprintf(o, "%s%u", k ? "," : "", j->mix[k]);
		fputc('\t', o);
		put_list(o, j->pause, j->npause);
		fputc('\n', o);
	}
	return fflush(o) == 0 && !ferror(o) ? 0 : -1;
}

void plan_point_name(const struct plan *p, unsigned config, unsigned mix, uint64_t pause,
		     unsigned rep, char *buf, size_t len)
{
	snprintf(buf, len, "%s%smix=%u pause=%llu rep=%u", p->nconfigs > 1 ? p->configs[config].name : "",
		 p->nconfigs > 1 ? " " : "", mix, (unsigned long long)pause, rep);
}

/* ---- merge --------------------------------------------------------------- */

void merge_init(struct merge_set *m, const struct plan *p)
{
	size_t n = 0;

	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < p->njobs; i++)
		if (p->jobs[i].mess)
			n += p->jobs[i].nmix * p->jobs[i].npause * p->reps;
	m->pt = xrealloc(NULL, (n ? n : 1) * sizeof(*m->pt));
	for (size_t i = 0; i < p->njobs; i++) {
		const struct plan_job *j = &p->jobs[i];

		if (!j->mess)
			continue;
		for (size_t a = 0; a < j->nmix; a++)
			for (size_t b = 0; b < j->npause; b++)
				for (unsigned r = 0; r < p->reps; r++) {
					struct merge_point *q = &m->pt[m->n++];

					memset(q, 0, sizeof(*q));
					q->config = j->config;
					q->mix = j->mix[a];
					q->pause = j->pause[b];
					q->rep = r;
					q->job = j->id;
					q->why = "no record";
				}
	}
}

void merge_free(struct merge_set *m)
{
	free(m->pt);
	memset(m, 0, sizeof(*m));
}

int merge_log_done(const struct rvm_log *log)
{
	return log && log->complete && log->bad == 0 && log->runs <= 1;
}

static int failing(const struct rvm_rec *r)
{
	uint64_t bad;

	if (strcmp(r->type, "err") == 0 || strcmp(r->type, "trap") == 0 || strcmp(r->type, "bug") == 0)
		return 1;
	return strcmp(r->type, "integ") == 0 && logrec_u64(r, "bad", &bad) == 0 && bad > 0;
}

static struct merge_point *find_point(struct merge_set *m, unsigned config, unsigned mix, uint64_t pause,
				      unsigned rep)
{
	for (size_t i = 0; i < m->n; i++) {
		struct merge_point *q = &m->pt[i];

		if (q->config == config && q->mix == mix && q->pause == pause && q->rep == rep)
			return q;
	}
	return NULL;
}

void merge_add_log(struct merge_set *m, const struct plan *p, unsigned job, const struct rvm_log *log,
		   FILE *diag)
{
	const struct plan_job *j = &p->jobs[job];
	int fail_all = 0;
	char name[96];

	if (!log)
		return;
	for (size_t i = 0; i < log->nrecs; i++) {
		const struct rvm_rec *r = &log->recs[i];
		uint64_t mix, pause, rep;
		struct merge_point *q;

		if (failing(r) && !fail_all) {
			/* the point whose record precedes it, else all of the log's points */
			size_t k = i;

			while (k > 0 && strcmp(log->recs[k - 1].type, "mess") != 0)
				k--;
			if (k == 0) {
				fail_all = 1;
				continue;
			}
			r = &log->recs[k - 1];
			if (logrec_u64(r, "mix", &mix) || logrec_u64(r, "pause", &pause) || logrec_u64(r, "rep", &rep))
				continue;
			q = find_point(m, j->config, (unsigned)mix, pause, (unsigned)rep);
			if (q && q->state == PT_GOOD && q->from_job == job && q->rec == k - 1) {
				q->state = PT_FAILED;
				q->why = "the image reported a failure after it";
			}
			continue;
		}
		if (strcmp(r->type, "mess") != 0)
			continue;
		if (logrec_u64(r, "mix", &mix) || logrec_u64(r, "pause", &pause) || logrec_u64(r, "rep", &rep) ||
		    mix > 100 || rep > 100) {
			if (diag)
				fprintf(diag, "%s:%lu: a mess record without a valid mix, pause or rep\n", log->path,
					r->line);
			continue;
		}
		q = find_point(m, j->config, (unsigned)mix, pause, (unsigned)rep);
		if (!q) {
			m->unexpected++;
			plan_point_name(p, j->config, (unsigned)mix, pause, (unsigned)rep, name, sizeof(name));
			if (diag)
				fprintf(diag, "%s:%lu: %s: a point no job of the plan runs (left out)\n", log->path,
					r->line, name);
			continue;
		}
		q->copies++;
		if (q->copies > 1) {
			plan_point_name(p, j->config, (unsigned)mix, pause, (unsigned)rep, name, sizeof(name));
			if (diag)
				fprintf(diag, "%s:%lu: %s: duplicated (also in job %u's log; that one is kept)\n",
					log->path, r->line, name, q->from_job);
			continue;
		}
		q->state = PT_GOOD;
		q->from_job = job;
		q->rec = i;
		q->why = NULL;
	}
	if (fail_all)
		for (size_t i = 0; i < m->n; i++)
			if (m->pt[i].state == PT_GOOD && m->pt[i].from_job == job) {
				m->pt[i].state = PT_FAILED;
				m->pt[i].why = "the image reported a failure before its first point";
			}
}

void merge_count(const struct merge_set *m, struct merge_counts *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < m->n; i++) {
		switch (m->pt[i].state) {
		case PT_GOOD: c->good++; break;
		case PT_FAILED: c->failed++; break;
		default: c->missing++; break;
		}
		if (m->pt[i].copies > 1)
			c->duplicated++;
	}
}

/* ---- adaptive ------------------------------------------------------------ */

size_t adapt_coarse(size_t n, size_t coarse, size_t *idx)
{
	size_t k = 0;

	if (n == 0)
		return 0;
	if (coarse < 2)
		coarse = 2;
	if (coarse > n)
		coarse = n;
	if (n == 1) {
		idx[0] = 0;
		return 1;
	}
	for (size_t i = 0; i < coarse; i++) {
		size_t v = (i * (n - 1) + (coarse - 1) / 2) / (coarse - 1);

		if (k == 0 || v != idx[k - 1])
			idx[k++] = v;
	}
	return k;
}

struct gap {
	size_t lo, hi;
	double err;
};

static int gap_cmp(const void *a, const void *b)
{
	const struct gap *x = a, *y = b;

	if (x->err != y->err)
		return x->err < y->err ? 1 : -1;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

size_t adapt_next(const struct adapt_curve *c, double tol, size_t budget, size_t *idx, size_t max)
{
	size_t have = 0, ngap = 0, out = 0, prev = (size_t)-1;
	double bwmax = 0;
	struct gap *g;

	for (size_t i = 0; i < c->n; i++)
		if (c->have[i]) {
			have++;
			if (c->bw_gbps[i] > bwmax)
				bwmax = c->bw_gbps[i];
		}
	if (have >= budget || !max || c->n == 0)
		return 0;
	g = xrealloc(NULL, c->n * sizeof(*g));
	for (size_t i = 0; i < c->n; i++) {
		if (!c->have[i])
			continue;
		if (prev != (size_t)-1 && i - prev > 1) {
			double l0 = c->lat_ns[prev], l1 = c->lat_ns[i];
			double lmin = fmin(l0, l1), dl = fabs(l1 - l0) / (lmin > 0 ? lmin : 1);
			double db = bwmax > 0 ? fabs(c->bw_gbps[i] - c->bw_gbps[prev]) / bwmax : 0;

			g[ngap].lo = prev;
			g[ngap].hi = i;
			g[ngap].err = fmax(dl, db);
			ngap++;
		}
		prev = i;
	}
	qsort(g, ngap, sizeof(*g), gap_cmp);
	for (size_t i = 0; i < ngap && out < max && have + out < budget; i++) {
		if (!(g[i].err > tol))
			break;
		idx[out++] = (g[i].lo + g[i].hi) / 2;
	}
	free(g);
	return out;
}
