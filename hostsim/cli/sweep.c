/* The logs of a plan and the merged family: see sweep.h. */
#include "cli/sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli/elf.h"
#include "cli/util.h"
#include "rvmess/cfgschema.h"
#include "rvmess/crc32.h"

/* RVM_REC_MAX of firmware/include/rvmess/rt.h (which needs a platform.h):
 * the longest record an image prints. */
#define RVM_REC_MAX 1024

int sweep_job_config(const struct rvm_config *base, const struct plan_job *j, struct rvm_config *c, char *key,
		     size_t keylen, char *why, size_t whylen)
{
	char val[4096];
	int n;

	*c = *base;
	snprintf(val, sizeof(val), "suites=%s", j->suites);
	if (cfg_assign(c, val, key, keylen, why, whylen) < 0)
		return -1;
	if (!j->mess)
		return 0;
	n = snprintf(val, sizeof(val), "mess_mix=");
	for (size_t i = 0; i < j->nmix; i++)
		n += snprintf(val + n, sizeof(val) - (size_t)n, "%s%u", i ? "," : "", j->mix[i]);
	if (cfg_assign(c, val, key, keylen, why, whylen) < 0)
		return -1;
	n = snprintf(val, sizeof(val), "mess_pause=");
	for (size_t i = 0; i < j->npause; i++)
		n += snprintf(val + n, sizeof(val) - (size_t)n, "%s%llu", i ? "," : "", (unsigned long long)j->pause[i]);
	return cfg_assign(c, val, key, keylen, why, whylen);
}

/* The text of the cfg record an image configured as c prints, from its type
 * on ("cfg h=H key=value ..."), cut where the image cuts a record
 * (firmware/cfg.c cfg_record, firmware/record.c). */
static void cfg_record_body(const struct rvm_config *c, uint64_t hart, char *buf, size_t len)
{
	size_t n = 0;

#define PUTS(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
	PUTS("cfg h=%llu", (unsigned long long)hart);
	for (unsigned i = 0; i < rvm_cfg_nkeys; i++) {
		const struct rvm_cfg_key *k = &rvm_cfg_keys[i];

		if (k->recif && !(c->suites & k->recif))
			continue;
		PUTS(" %s=", k->name);
		if (k->list) {
			uint32_t m = rvm_cfg_count(c, k);

			if (m > k->maxn)
				m = k->maxn;
			if (m > 64)
				m = 64;
			if (!m)
				PUTS("-");
			for (uint32_t j = 0; j < m; j++)
				PUTS("%s%u", j ? "," : "", (uint32_t)rvm_cfg_get(c, k, j));
		} else if (k->type == RVM_CFG_T_SUITES) {
			int first = 1;

			for (unsigned su = 0; su < RVM_SUITE_COUNT; su++)
				if (c->suites & (1u << su)) {
					PUTS("%s%s", first ? "" : ",", rvm_suite_names[su]);
					first = 0;
				}
			if (first)
				PUTS("-");
		} else {
			PUTS("%llu", (unsigned long long)rvm_cfg_get(c, k, 0));
		}
	}
#undef PUTS
	if (n > RVM_REC_MAX - 1 && len > RVM_REC_MAX - 1)
		buf[RVM_REC_MAX - 1] = '\0';
}

/* The runner's first line of a log ("rvmess-job: ..."), or NULL. */
static char *job_line(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	char *buf, *nl;
	size_t len = 0;
	ssize_t got;
	struct stat st;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return NULL;
	}
	buf = xrealloc(NULL, 65537);
	while (len < 65536 && (got = read(fd, buf + len, 65536 - len)) > 0)
		len += (size_t)got;
	close(fd);
	buf[len] = '\0';
	nl = memchr(buf, '\n', len);
	if (!nl || strncmp(buf, SWEEP_JOB_LINE, strlen(SWEEP_JOB_LINE)) != 0) {
		free(buf);
		return NULL;
	}
	*nl = '\0';
	return buf;
}

/* Does job i's log belong to it?  NULL, or why not (allocated). */
static char *refusal(const struct plan *p, const char *dir, size_t i, const char *path, const struct rvm_log *log,
		     const struct rvm_config *base)
{
	const struct plan_job *j = &p->jobs[i];
	const struct plan_config *cf = &p->configs[j->config];
	char *line = job_line(path), *want, *why = NULL;
	const struct rvm_rec *cfg = NULL;
	struct rvm_config c;
	char key[64], r[256], body[RVM_REC_MAX + 64];
	size_t it = 0;

	if (!line && !p->id)
		goto cfg; /* a plan from before ids: its runner wrote no such line; the cfg record still */
	if (!line)
		return xprintf("the log does not start with the runner's \"rvmess-job:\" line: it cannot show "
				      "it was run for this job (run it with %s/run.sh --task %zu)", dir, i);
	want = xprintf(SWEEP_JOB_LINE "plan=%s job=%zu config=%s sim=%s", p->id ? p->id : "-", i, cf->name,
			      cf->sim);
	if (strcmp(line, want) != 0) {
		char got[160];
		unsigned long gj;

		snprintf(got, sizeof(got), "%s", line + strlen(SWEEP_JOB_LINE));
		if (p->id && !strstr(line, p->id))
			why = xprintf("another plan's log (its first line: %s; this plan's id is %s)", got, p->id);
		else if (sscanf(strstr(line, "job=") ? strstr(line, "job=") : "", "job=%lu", &gj) != 1 || gj != i)
			why = xprintf("another job's log (its first line: %s)", got);
		else
			why = xprintf("run with other options (its first line: %s; the manifest's configuration "
					     "%s is '%s')", got, cf->name, cf->sim);
	}
	free(want);
	free(line);
	if (why)
		return why;
cfg:
	cfg = rvm_log_next(log, "cfg", &it);
	if (!cfg)
		return log->nrecs ? xprintf("no cfg record: the log cannot show its image's configuration") : NULL;
	if (sweep_job_config(base, j, &c, key, sizeof(key), r, sizeof(r)) < 0)
		return xprintf("the job's configuration cannot be made from the plan's base image: %s: %s", key, r);
	cfg_record_body(&c, cfg->hart, body, sizeof(body));
	{
		const char *text = strchr(cfg->text + 5, ' '); /* "@RVM <seq> " */

		if (!text || strcmp(text + 1, body) != 0) {
			/* name the first field that differs */
			char wk[64] = "", wv[160] = "", gv[160] = "";
			const char *b = body, *t = text ? text + 1 : "";

			while (*b && *t) {
				const char *be = strchr(b, ' '), *te = strchr(t, ' ');
				size_t bl = be ? (size_t)(be - b) : strlen(b), tl = te ? (size_t)(te - t) : strlen(t);

				if (bl != tl || memcmp(b, t, bl)) {
					const char *eq = memchr(b, '=', bl), *teq = memchr(t, '=', tl);

					snprintf(wk, sizeof(wk), "%.*s", eq ? (int)(eq - b) : (int)bl, b);
					snprintf(wv, sizeof(wv), "%.*s", eq ? (int)(bl - (size_t)(eq + 1 - b)) : 0, eq ? eq + 1 : "");
					snprintf(gv, sizeof(gv), "%.*s", (int)(teq ? tl - (size_t)(teq + 1 - t) : tl), teq ? teq + 1 : t);
					break;
				}
				b += bl + (be ? 1 : 0);
				t += tl + (te ? 1 : 0);
			}
			return xprintf("its cfg record (line %lu) is not the job's image's configuration%s%s%s%s%s%s",
					      cfg->line, wk[0] ? ": " : "", wk, wk[0] ? " is " : "", gv,
					      wk[0] ? ", the plan's " : "", wv);
		}
	}
	return NULL;
}

int sweep_logs_read(struct sweep_logs *L, const struct plan *p, const char *dir, FILE *diag)
{
	char path[PATH_MAX], why[256];
	struct rvm_config base;
	int base_ok = 0, rc = 0;

	memset(L, 0, sizeof(*L));
	L->n = p->njobs;
	L->log = xrealloc(NULL, (p->njobs ? p->njobs : 1) * sizeof(*L->log));
	L->why = xrealloc(NULL, (p->njobs ? p->njobs : 1) * sizeof(*L->why));
	merge_init(&L->set, p);
	snprintf(path, sizeof(path), "%s/base.elf", dir);
	{
		size_t len;
		unsigned char *buf = cfg_read_all(path, &len);
		struct elf_section sec;

		if (!buf) {
			snprintf(why, sizeof(why), "%s", strerror(errno));
		} else if (elf_find_section(buf, len, RVM_CFG_SECTION, &sec, why, sizeof(why)) != 0 ||
			   cfg_block_read(buf + sec.offset, (size_t)sec.size, &base, why, sizeof(why)) < 0) {
			snprintf(why, sizeof(why), "not an rvmess image with a readable config block");
		} else {
			base_ok = 1;
		}
		free(buf);
		if (!base_ok) {
			if (diag)
				fprintf(diag, "rvmess: %s: %s: the plan's base image is needed to check that each job log "
					"is the job's\n", path, why);
			rc = -1;
		}
	}
	for (size_t i = 0; i < p->njobs; i++) {
		struct rvm_log *log = xrealloc(NULL, sizeof(*log));

		L->why[i] = NULL;
		snprintf(path, sizeof(path), "%s/logs/%zu.log", dir, i);
		if (rvm_log_read(path, diag, log) < 0) {
			free(log);
			log = NULL;
		} else if (!base_ok) {
			L->why[i] = xprintf("not checked: the plan's base.elf is unreadable");
		} else {
			L->why[i] = refusal(p, dir, i, path, log, &base);
		}
		if (log && L->why[i]) {
			rvm_log_free(log);
			free(log);
			log = NULL;
		}
		L->log[i] = log;
		merge_add_log(&L->set, p, (unsigned)i, log, diag);
	}
	return rc;
}

void sweep_logs_free(struct sweep_logs *L)
{
	for (size_t i = 0; i < L->n; i++) {
		if (L->log[i]) {
			rvm_log_free(L->log[i]);
			free(L->log[i]);
		}
		free(L->why[i]);
	}
	free(L->log);
	free(L->why);
	merge_free(&L->set);
	memset(L, 0, sizeof(*L));
}

const char *sweep_job_state(const struct sweep_logs *L, size_t i)
{
	const struct rvm_log *g = L->log[i];

	if (L->why[i])
		return L->why[i];
	if (!g)
		return "no log";
	if (g->runs > 1)
		return "two runs in one log";
	if (!g->has_hdr)
		return "no hdr record";
	if (!g->has_end)
		return "incomplete log (no end record)";
	if (g->missing)
		return "incomplete log (records missing)";
	if (g->bad)
		return "bad records in the log";
	return NULL;
}

int sweep_point_planned(const struct plan *p, unsigned c, unsigned mix, uint64_t pause)
{
	for (size_t i = 0; i < p->njobs; i++) {
		const struct plan_job *j = &p->jobs[i];

		if (j->config != c || !j->mess)
			continue;
		for (size_t a = 0; a < j->nmix; a++)
			for (size_t b = 0; b < j->npause; b++)
				if (j->mix[a] == mix && j->pause[b] == pause)
					return 1;
	}
	return 0;
}

int sweep_point_value(const struct sweep_logs *L, const struct plan *p, unsigned c, unsigned mix,
		      uint64_t pause, double *lat_ns, double *bw_gbps)
{
	double lat = 0, bw = 0;
	unsigned n = 0;

	for (size_t i = 0; i < L->set.n; i++) {
		const struct merge_point *q = &L->set.pt[i];
		const struct rvm_rec *r;
		double l, b;

		if (q->config != c || q->mix != mix || q->pause != pause)
			continue;
		if (q->state != PT_GOOD)
			return -1;
		r = &L->log[q->from_job]->recs[q->rec];
		if (logrec_double(r, "nspl", &l) ||
		    (logrec_double(r, "bw_ctr", &b) && logrec_double(r, "bw_iss", &b)))
			return -1;
		lat += l;
		bw += b / 1000;
		n++;
	}
	if (n != p->reps)
		return -1;
	*lat_ns = lat / n;
	*bw_gbps = bw / n;
	return 0;
}

/* ---- the merged log ---------------------------------------------------------- */

struct emit {
	FILE *out;
	uint64_t seq;
	size_t errors;
};

/* One record with a new seq; fields named in over[] (key, value pairs) get
 * those values. */
static void emit(struct emit *e, const struct rvm_rec *r, const char *const *over, size_t nover)
{
	size_t cap = 256, len;
	char *s;

	for (size_t k = 0; k < r->nfields; k++)
		cap += strlen(r->fields[k].key) + strlen(r->fields[k].val) + 2;
	for (size_t k = 0; k < nover; k++)
		cap += strlen(over[k]) + 2;
	s = xrealloc(NULL, cap);
	len = (size_t)snprintf(s, cap, "@RVM %llu %s h=%llu", (unsigned long long)e->seq, r->type,
			       (unsigned long long)r->hart);
	for (size_t k = 0; k < r->nfields; k++) {
		const char *v = r->fields[k].val;

		for (size_t o = 0; o + 1 < nover; o += 2)
			if (strcmp(over[o], r->fields[k].key) == 0)
				v = over[o + 1];
		len += (size_t)snprintf(s + len, cap - len, " %s=%s", r->fields[k].key, v);
	}
	fprintf(e->out, "%s *%08x\n", s, rvm_crc32(0, s, len));
	free(s);
	e->seq++;
	if (strcmp(r->type, "err") == 0 || strcmp(r->type, "trap") == 0)
		e->errors++;
}

/* The log whose run structure (hdr, cfg, hart records) the merged log takes:
 * the non-Mess job's (its cfg names the other suites), else the first Mess
 * job's with a hdr; *mess says which. */
static const struct rvm_log *lead_log(const struct sweep_logs *L, const struct plan *p, unsigned c, int *mess)
{
	const struct rvm_log *best = NULL;

	for (size_t i = 0; i < p->njobs; i++) {
		const struct rvm_log *g = L->log[i];

		if (p->jobs[i].config != c || !g || !g->has_hdr)
			continue;
		if (!p->jobs[i].mess) {
			*mess = 0;
			return g;
		}
		if (!best)
			best = g;
	}
	*mess = 1;
	return best;
}

/* Records of a Mess job's log that describe the run, not its points. */
static int run_record(const char *type)
{
	static const char *const keep[] = { "hdr", "cfg", "fdt", "hart", "missing", "start" };

	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (strcmp(type, keep[i]) == 0)
			return 1;
	return 0;
}

long sweep_write_merged(const struct sweep_logs *L, const struct plan *p, unsigned c, int clean, FILE *out)
{
	int lead_mess;
	const struct rvm_log *lead = lead_log(L, p, c, &lead_mess);
	struct emit e = { out, 0, 0 };
	char mixes[PLAN_MAX_LIST * 4 + 1] = "", pauses[PLAN_MAX_LIST * 21 + 1] = "", suites[256] = "";
	const struct rvm_rec *endr = NULL;
	size_t nm = 0;
	unsigned mixv[PLAN_MAX_LIST];
	uint64_t pv[PLAN_MAX_LIST];
	size_t np = 0;

	if (!lead)
		return -1;
	/* the merged grid and suites */
	for (size_t i = 0; i < p->njobs; i++) {
		const struct plan_job *j = &p->jobs[i];
		char buf[256], *tok, *save = NULL;

		if (j->config != c)
			continue;
		snprintf(buf, sizeof(buf), "%s", j->suites);
		for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			size_t n = strlen(tok);
			const char *s = suites;
			int have = 0;

			while ((s = strstr(s, tok)) != NULL) {
				if ((s == suites || s[-1] == ',') && (s[n] == ',' || s[n] == '\0'))
					have = 1;
				s += n;
			}
			if (!have)
				snprintf(suites + strlen(suites), sizeof(suites) - strlen(suites), "%s%s",
					 suites[0] ? "," : "", tok);
		}
		for (size_t a = 0; a < j->nmix; a++) {
			size_t k;

			for (k = 0; k < nm && mixv[k] != j->mix[a]; k++)
				;
			if (k == nm && nm < PLAN_MAX_LIST)
				mixv[nm++] = j->mix[a];
		}
		for (size_t b = 0; b < j->npause; b++) {
			size_t k;

			for (k = 0; k < np && pv[k] != j->pause[b]; k++)
				;
			if (k == np && np < PLAN_MAX_LIST)
				pv[np++] = j->pause[b];
		}
	}
	for (size_t k = 1; k < np; k++) /* pauses ascending, as one boot with a sorted list runs them */
		for (size_t q = k; q > 0 && pv[q] < pv[q - 1]; q--) {
			uint64_t t = pv[q];

			pv[q] = pv[q - 1];
			pv[q - 1] = t;
		}
	for (size_t k = 0; k < nm; k++)
		snprintf(mixes + strlen(mixes), sizeof(mixes) - strlen(mixes), "%s%u", k ? "," : "", mixv[k]);
	for (size_t k = 0; k < np; k++)
		snprintf(pauses + strlen(pauses), sizeof(pauses) - strlen(pauses), "%s%llu", k ? "," : "",
			 (unsigned long long)pv[k]);

	/* the lead log's records, but its Mess points, progress and end (of a Mess
	 * job's log, only those that describe the run) */
	for (size_t i = 0; i < lead->nrecs; i++) {
		const struct rvm_rec *r = &lead->recs[i];
		const char *over[] = { "suites", suites, "mess_mix", mixes, "mess_pause", pauses };

		if (strcmp(r->type, "end") == 0) {
			endr = r;
			continue;
		}
		if (strcmp(r->type, "mess") == 0 || strcmp(r->type, "prog") == 0 || strcmp(r->type, "memctl") == 0)
			continue;
		if (lead_mess && !run_record(r->type)) /* its point's warn, err, integ: merge judged the point */
			continue;
		emit(&e, r, over, strcmp(r->type, "cfg") == 0 ? 6 : 0);
	}
	/* the other non-Mess jobs of this configuration (a plan has one; a hand-made one may have more) */
	for (size_t i = 0; i < p->njobs; i++) {
		const struct rvm_log *g = L->log[i];

		if (p->jobs[i].config != c || p->jobs[i].mess || !g || g == lead)
			continue;
		for (size_t k = 0; k < g->nrecs; k++) {
			const struct rvm_rec *r = &g->recs[k];

			if (strcmp(r->type, "hdr") && strcmp(r->type, "cfg") && strcmp(r->type, "hart") &&
			    strcmp(r->type, "end") && strcmp(r->type, "prog"))
				emit(&e, r, NULL, 0);
		}
	}
	/* the good points: by mix in plan order, pause ascending, rep */
	for (size_t a = 0; a < nm; a++)
		for (size_t b = 0; b < np; b++)
			for (size_t i = 0; i < L->set.n; i++) {
				const struct merge_point *q = &L->set.pt[i];

				if (q->config == c && q->mix == mixv[a] && q->pause == pv[b] && q->state == PT_GOOD)
					emit(&e, &L->log[q->from_job]->recs[q->rec], NULL, 0);
			}
	{
		char recs[32], errs[32];
		const char *over[] = { "status", e.errors || !clean ? "fail" : "ok", "errors", errs, "records", recs };
		struct rvm_rec fake = { 0 };

		snprintf(recs, sizeof(recs), "%llu", (unsigned long long)e.seq);
		snprintf(errs, sizeof(errs), "%zu", e.errors);
		if (!endr) { /* the lead log ended early: an end record of our own */
			static struct rvm_field f[3] = { { "status", "" }, { "errors", "" }, { "records", "" } };

			fake.type = "end";
			fake.hart = lead->recs[0].hart;
			fake.nfields = 3;
			fake.fields = f;
			endr = &fake;
		}
		emit(&e, endr, over, 6);
	}
	if (fflush(out) != 0 || ferror(out))
		return -1;
	return (long)e.seq;
}
