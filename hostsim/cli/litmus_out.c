/* litmus.csv and the litmus verdict: see litmus_out.h. */
#include "cli/litmus_out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/csv.h"

/* The i-th '.'-separated item of s into buf; 0, or -1 when there is none. */
static int item(const char *s, size_t i, char *buf, size_t len)
{
	while (i--) {
		s = strchr(s, '.');
		if (!s)
			return -1;
		s++;
	}
	size_t n = strcspn(s, ".");
	if (n == 0 || n >= len)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return 0;
}

/*
 * One "VALS:COUNT:VERDICT" entry of outs= as a row: the outcome written
 * herd-style from obs ("1:1=1 1:2=0"; "other" stays as it is).
 */
static int write_out(struct csv *c, const char *test, const char *obs, const char *ent)
{
	char vals[256], out[512], name[32], val[32], *cnt, *ver, *e;
	size_t n = strcspn(ent, ":"), o = 0;
	unsigned long long count;

	if (n >= sizeof(vals) || ent[n] != ':')
		return -1;
	memcpy(vals, ent, n);
	vals[n] = '\0';
	cnt = (char *)ent + n + 1;
	ver = strchr(cnt, ':');
	if (!ver)
		return -1;
	count = strtoull(cnt, &e, 10);
	if (e != ver || e == cnt)
		return -1;
	ver++;
	if (strcmp(vals, "other") == 0) {
		snprintf(out, sizeof(out), "other");
	} else {
		size_t i = 0;
		for (; item(obs, i, name, sizeof(name)) == 0; i++) {
			if (item(vals, i, val, sizeof(val)) < 0)
				return -1;
			o += (size_t)snprintf(out + o, sizeof(out) - o, "%s%s=%s", i ? " " : "", name, val);
			if (o >= sizeof(out))
				return -1;
		}
		if (i == 0 || item(vals, i, val, sizeof(val)) == 0) /* as many values as names */
			return -1;
	}
	if (strcmp(ver, "ok") && strcmp(ver, "allowed") && strcmp(ver, "forbidden") && strcmp(ver, "unknown"))
		return -1;
	csv_str(c, test);
	csv_str(c, out);
	csv_u64(c, count);
	csv_str(c, ver);
	csv_row_end(c);
	return 0;
}

int litmus_write_outputs(const struct rvm_log *log, struct outdir *od, FILE *diag, size_t *invalid,
                         struct litmus_sum *sum)
{
	struct csv c;

	memset(sum, 0, sizeof(*sum));
	for (size_t i = 0; i < log->nrecs; i++) {
		const struct rvm_rec *r = &log->recs[i];
		const char *t;
		if (strcmp(r->type, "bug") != 0)
			continue;
		t = logrec_get(r, "test");
		if (t && strcmp(t, "visibility") == 0) {
			if (!sum->visibility++)
				sum->first_vis = r;
		} else {
			sum->bugs++;
		}
	}
	if (csv_open(&c, od, "litmus.csv", "test,outcome,count,verdict") < 0)
		return -1;
	for (size_t i = 0; i < log->nrecs; i++) {
		const struct rvm_rec *r = &log->recs[i];
		const char *test, *obs, *outs, *verdict;
		uint64_t iters;

		if (strcmp(r->type, "litmus") != 0)
			continue;
		test = logrec_get(r, "test");
		obs = logrec_get(r, "obs");
		outs = logrec_get(r, "outs");
		verdict = logrec_get(r, "verdict");
		if (!test || !obs || !outs || !verdict || logrec_u64(r, "iters", &iters) < 0)
			goto bad;
		sum->tests++;
		sum->relaxed += strcmp(verdict, "relaxed") == 0;
		sum->skipped += iters == 0;
		for (const char *p = outs; *p;) {
			char ent[512];
			size_t n = strcspn(p, ",");
			if (n == 0 || n >= sizeof(ent))
				goto bad;
			memcpy(ent, p, n);
			ent[n] = '\0';
			if (write_out(&c, test, obs, ent) < 0)
				goto bad;
			p += n + (p[n] == ',');
		}
		continue;
bad:
		if (diag)
			fprintf(diag, "%s:%lu: litmus record with missing or bad fields\n", log->path, r->line);
		if (invalid)
			(*invalid)++;
	}
	return csv_close(&c);
}

void litmus_print_verdict(FILE *f, const struct litmus_sum *sum)
{
	const struct rvm_rec *v = sum->first_vis;
	const char *w, *r, *a, *c, *where;

	fprintf(f, "litmus: bugs=%zu tests=%zu relaxed=%zu skipped=%zu\n", sum->bugs, sum->tests,
	        sum->relaxed, sum->skipped);
	if (!v)
		return;
	w = logrec_get(v, "writer");
	r = logrec_get(v, "waiter");
	a = logrec_get(v, "addr");
	c = logrec_get(v, "cycles");
	where = logrec_get(v, "where");
	fprintf(f, "visibility: %zu store(s) never became visible (first: hart %s's store to %s, seen by hart %s only after a flush, %s cycles later, waiting in %s)\n",
	        sum->visibility, w ? w : "?", a ? a : "?", r ? r : "?", c ? c : "?", where ? where : "?");
}
