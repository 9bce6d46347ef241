/* The logs of a plan and the merged family: see sweep.h. */
#include "cli/sweep.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli/util.h"
#include "rvmess/crc32.h"

void sweep_logs_read(struct sweep_logs *L, const struct plan *p, const char *dir, FILE *diag)
{
	char path[PATH_MAX];

	L->n = p->njobs;
	L->log = xrealloc(NULL, (p->njobs ? p->njobs : 1) * sizeof(*L->log));
	merge_init(&L->set, p);
	for (size_t i = 0; i < p->njobs; i++) {
		struct rvm_log *log = xrealloc(NULL, sizeof(*log));

		snprintf(path, sizeof(path), "%s/logs/%zu.log", dir, i);
		if (rvm_log_read(path, diag, log) < 0) {
			free(log);
			log = NULL;
		}
		L->log[i] = log;
		merge_add_log(&L->set, p, (unsigned)i, log, diag);
	}
}

void sweep_logs_free(struct sweep_logs *L)
{
	for (size_t i = 0; i < L->n; i++)
		if (L->log[i]) {
			rvm_log_free(L->log[i]);
			free(L->log[i]);
		}
	free(L->log);
	merge_free(&L->set);
	memset(L, 0, sizeof(*L));
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

long sweep_write_merged(const struct sweep_logs *L, const struct plan *p, unsigned c, FILE *out)
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
		const char *over[] = { "status", e.errors ? "fail" : "ok", "errors", errs, "records", recs };
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
