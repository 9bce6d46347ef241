/* lat / par / chase outputs and cache levels: see lat.h. */
#include "cli/lat.h"
#include "cli/util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/csv.h"
#include "cli/out.h"

#define MB (1024.0 * 1024.0)


/* Fetch required numeric fields; report the first missing/bad one. */
static int need(const struct rvm_log *log, const struct rvm_rec *r, FILE *diag,
		const char *const *keys, uint64_t *vals)
{
	for (size_t i = 0; keys[i]; i++) {
		if (logrec_u64(r, keys[i], &vals[i]) < 0) {
			const char *v = logrec_get(r, keys[i]);

			if (diag)
				fprintf(diag, "%s:%lu: %s record: %s field '%s'%s" TOKF "%s, record skipped\n",
					log->path, r->line, r->type, v ? "bad" : "missing", keys[i],
					v ? " ('" : "", TOKA(v ? v : ""), v ? "')" : "");
			return -1;
		}
	}
	return 0;
}

static int zero_loads(const struct rvm_log *log, const struct rvm_rec *r, FILE *diag, uint64_t loads)
{
	if (loads)
		return 0;
	if (diag)
		fprintf(diag, "%s:%lu: %s record: loads=0, record skipped\n", log->path, r->line, r->type);
	return 1;
}

/* ---- lat ---------------------------------------------------------------- */

/* A valid lat record while grouping: its dataset key and its log order. */
struct lat_tmp {
	int chain;                 /* 0 stride, 1 random */
	uint64_t stride;
	size_t order;              /* index among the valid records */
	struct lat_point p;
};

static int cmp_lat_set(const void *a, const void *b)
{
	const struct lat_tmp *x = a, *y = b;

	if (x->chain != y->chain)
		return x->chain - y->chain;
	if (x->stride != y->stride)
		return x->stride < y->stride ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_lat_size(const void *a, const void *b)
{
	const struct lat_tmp *x = a, *y = b;

	if (x->p.size != y->p.size)
		return x->p.size < y->p.size ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* A dataset: [first, end) of the set-sorted array; order of its first record */
struct lat_group {
	size_t first, end, order;
};

static int cmp_group(const void *a, const void *b)
{
	size_t x = ((const struct lat_group *)a)->order, y = ((const struct lat_group *)b)->order;

	return x < y ? -1 : x > y;
}

/* Sorting, not searching: n log n in the records whatever the number of
 * datasets or the order of the sizes. */
void lat_collect(const struct rvm_log *log, FILE *diag, struct lat_sets *out, size_t *invalid)
{
	static const char *const keys[] = { "stride", "size", "loads", "cycles", "ns", NULL };
	const struct rvm_rec *r;
	size_t it = 0, n = 0, ng = 0;
	struct lat_tmp *t = xrealloc(NULL, (rvm_log_count(log, "lat") + 1) * sizeof(*t));
	struct lat_group *g;

	memset(out, 0, sizeof(*out));
	while ((r = rvm_log_next(log, "lat", &it))) {
		uint64_t v[5];
		const char *chain = logrec_get(r, "chain");
		struct lat_point *p;

		if (!chain || (strcmp(chain, "stride") != 0 && strcmp(chain, "random") != 0)) {
			if (diag)
				fprintf(diag, "%s:%lu: lat record: %s chain '" TOKF "' (want stride|random), record skipped\n",
					log->path, r->line, chain ? "bad" : "missing", TOKA(chain ? chain : ""));
			(*invalid)++;
			continue;
		}
		if (need(log, r, diag, keys, v) < 0 || zero_loads(log, r, diag, v[2])) {
			(*invalid)++;
			continue;
		}
		t[n].chain = strcmp(chain, "random") == 0;
		t[n].stride = v[0];
		t[n].order = n;
		p = &t[n].p;
		p->size = v[1];
		p->loads = v[2];
		p->cycles = v[3];
		p->ns = v[4];
		p->cpl = (double)v[3] / (double)v[2];
		p->nspl = (double)v[4] / (double)v[2];
		p->line = r->line;
		n++;
	}
	if (n == 0) {
		free(t);
		return;
	}
	qsort(t, n, sizeof(*t), cmp_lat_set);
	g = xrealloc(NULL, n * sizeof(*g));
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || t[i].chain != t[i - 1].chain || t[i].stride != t[i - 1].stride) {
			g[ng].first = i;
			g[ng++].order = t[i].order;
		}
		g[ng - 1].end = i + 1;
	}
	qsort(g, ng, sizeof(*g), cmp_group);
	out->sets = xrealloc(NULL, ng * sizeof(*out->sets));
	out->n = ng;
	for (size_t k = 0; k < ng; k++) {
		struct lat_set *s = &out->sets[k];
		struct lat_tmp *gt = &t[g[k].first];

		memset(s, 0, sizeof(*s));
		snprintf(s->chain, sizeof(s->chain), "%s", gt->chain ? "random" : "stride");
		s->stride = gt->stride;
		s->n = g[k].end - g[k].first;
		/* ascending size, log order among equal sizes */
		qsort(gt, s->n, sizeof(*gt), cmp_lat_size);
		s->pts = xrealloc(NULL, s->n * sizeof(*s->pts));
		for (size_t i = 0; i < s->n; i++)
			s->pts[i] = gt[i].p;
	}
	free(g);
	free(t);
}

void lat_sets_free(struct lat_sets *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->sets[i].pts);
	free(s->sets);
	memset(s, 0, sizeof(*s));
}

void lat_write_xgraph(FILE *f, const struct lat_set *s)
{
	fprintf(f, "\"stride=%" PRIu64 "\n", s->stride);
	for (size_t i = 0; i < s->n; i++)
		fprintf(f, "%.5f %.3f\n", (double)s->pts[i].size / MB, s->pts[i].nspl);
	fputc('\n', f);
}

const struct lat_set *lat_levels_source(const struct lat_sets *s)
{
	static const char *const order[] = { "random", "stride" };

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < s->n; i++)
			if (strcmp(s->sets[i].chain, order[k]) == 0 && s->sets[i].stride == 64)
				return &s->sets[i];
	for (int k = 0; k < 2; k++) {
		const struct lat_set *best = NULL;

		for (size_t i = 0; i < s->n; i++)
			if (strcmp(s->sets[i].chain, order[k]) == 0 &&
			    (!best || s->sets[i].stride < best->stride))
				best = &s->sets[i];
		if (best)
			return best;
	}
	return NULL;
}

int write_lat_outputs(const struct lat_sets *s, struct outdir *od)
{
	char name[96];
	struct csv c;
	FILE *all = NULL;

	if (csv_open(&c, od, "lat.csv",
		     "chain,stride,size_bytes,size_mb,loads,cycles,ns,cycles_per_load,ns_per_load") < 0)
		return -1;
	for (size_t i = 0; i < s->n; i++) {
		const struct lat_set *d = &s->sets[i];

		for (size_t k = 0; k < d->n; k++) {
			const struct lat_point *p = &d->pts[k];

			csv_str(&c, d->chain);
			csv_u64(&c, d->stride);
			csv_u64(&c, p->size);
			csv_fix(&c, (double)p->size / MB, 5);
			csv_u64(&c, p->loads);
			csv_u64(&c, p->cycles);
			csv_u64(&c, p->ns);
			csv_fix(&c, p->cpl, 3);
			csv_fix(&c, p->nspl, 3);
			csv_row_end(&c);
		}
	}
	if (csv_close(&c) < 0)
		return -1;

	for (size_t i = 0; i < s->n; i++) {
		const struct lat_set *d = &s->sets[i];
		FILE *f;

		snprintf(name, sizeof(name), "lat_%s_stride%" PRIu64 ".xg", d->chain, d->stride);
		f = outdir_create(od, name);
		if (!f)
			return -1;
		lat_write_xgraph(f, d);
		if (outdir_close(od, f) < 0)
			return -1;
		if (strcmp(d->chain, "stride") == 0) {
			if (!all && !(all = outdir_create(od, "lat.xg")))
				return -1;
			lat_write_xgraph(all, d);
		}
	}
	return all ? outdir_close(od, all) : 0;
}

/* ---- cache levels --------------------------------------------------------- */

void fmt_size(char *buf, size_t len, uint64_t b)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;
	double v = (double)b;

	while (u < 4 && b >= 1024 && v >= 1024) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%" PRIu64 " B", b);
	else if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%" PRIu64 " %s", (uint64_t)v, unit[u]);
	else
		snprintf(buf, len, "%.2f %s", v, unit[u]);
}

void lat_hdr_cache_fdt(const struct rvm_log *log, FILE *diag, struct cache_fdt *out, size_t *invalid)
{
	const struct rvm_rec *h = log->has_hdr ? &log->recs[0] : NULL;
	const char *v = h ? logrec_get(h, "cache_max") : NULL;

	memset(out, 0, sizeof(*out));
	if (!v)
		return;
	if (logrec_u64(h, "cache_max", &out->max) < 0) {
		if (diag)
			fprintf(diag, "%s:%lu: hdr record: bad field 'cache_max' ('%s'), taken as absent\n",
				log->path, h->line, v);
		(*invalid)++;
		out->max = 0;
		return;
	}
	out->known = 1;
}

/*
 * What the last plateau is (docs/formats.md, "Cache levels").  Memory only
 * with evidence: the hdr's cache_max, the largest cache the FDT describes,
 * lies below where the plateau starts, and no earlier plateau starts beyond
 * it too.  A plateau that starts inside that cache is a cache level by the
 * FDT's account, unless it stays flat to twice that size and beyond: sizes
 * no cache the FDT describes holds show the plateau's latency, so it is
 * memory and the FDT overstates what caches (ways disabled, locked as
 * scratchpad).  Without cache_max the sweep cannot tell a last cache from
 * memory.
 */
static enum cache_last classify(const struct cache_levels *cl)
{
	const struct plateau *last;
	uint64_t max = cl->fdt.max;
	size_t beyond = 0;

	if (!cl->n)
		return CL_LAST_NONE;
	if (cl->rising)
		return CL_LAST_RISING;
	if (!max)
		return CL_LAST_NO_FDT;
	for (size_t i = 0; i < cl->n; i++)
		beyond += cl->lv[i].size_first > max;
	last = &cl->lv[cl->n - 1];
	if (beyond > 1)
		return CL_LAST_UNDESCRIBED;
	if (last->size_first > max)
		return CL_LAST_MEMORY;
	if (last->size_last / 2 >= max)
		return CL_LAST_MEMORY_FLAT;
	return CL_LAST_INSIDE;
}

void cache_levels_find(const struct lat_set *src, const struct plateau_opts *o,
		       const struct cache_fdt *fdt, struct cache_levels *cl)
{
	uint64_t *size;
	double *ns, *cyc;

	memset(cl, 0, sizeof(*cl));
	cl->src = src;
	cl->opts = *o;
	if (fdt)
		cl->fdt = *fdt;
	if (!src || !src->n)
		return;
	size = xrealloc(NULL, src->n * sizeof(*size));
	ns = xrealloc(NULL, src->n * sizeof(*ns));
	cyc = xrealloc(NULL, src->n * sizeof(*cyc));
	for (size_t i = 0; i < src->n; i++) {
		size[i] = src->pts[i].size;
		ns[i] = src->pts[i].nspl;
		cyc[i] = src->pts[i].cpl;
	}
	cl->lv = xrealloc(NULL, src->n * sizeof(*cl->lv));
	cl->n = plateau_find(size, ns, cyc, src->n, o, cl->lv, src->n);
	if (cl->n) {
		const struct plateau *last = &cl->lv[cl->n - 1];

		cl->rising = last->last + 1 < src->n && ns[src->n - 1] > last->y * (1 + o->tol);
	}
	cl->last = classify(cl);
	free(size);
	free(ns);
	free(cyc);
}

void cache_levels_free(struct cache_levels *cl)
{
	free(cl->lv);
	memset(cl, 0, sizeof(*cl));
}

int cache_level_is_memory(const struct cache_levels *cl, size_t i)
{
	return i + 1 == cl->n && (cl->last == CL_LAST_MEMORY || cl->last == CL_LAST_MEMORY_FLAT);
}

int cache_level_capacity(const struct cache_levels *cl, size_t i, uint64_t *bytes)
{
	if (i >= cl->n || (i + 1 == cl->n && cl->last != CL_LAST_RISING))
		return 0;
	*bytes = cl->lv[i].size_last;
	return 1;
}

void cache_level_name(char *buf, size_t len, const struct cache_levels *cl, size_t i)
{
	if (cache_level_is_memory(cl, i))
		snprintf(buf, len, "memory");
	else
		snprintf(buf, len, "L%zu", i + 1);
}

int cache_levels_note(char *buf, size_t len, const struct cache_levels *cl)
{
	const struct plateau *last = cl->n ? &cl->lv[cl->n - 1] : NULL;
	char name[32], first[32], end[32], max[32];

	if (!last || cl->last == CL_LAST_MEMORY)
		return 0;
	cache_level_name(name, sizeof(name), cl, cl->n - 1);
	fmt_size(first, sizeof(first), last->size_first);
	fmt_size(end, sizeof(end), last->size_last);
	fmt_size(max, sizeof(max), cl->fdt.max);
	switch (cl->last) {
	case CL_LAST_RISING: {
		const struct lat_point *p = &cl->src->pts[cl->src->n - 1];

		fmt_size(end, sizeof(end), p->size);
		snprintf(buf, len, "latency keeps rising after the last plateau (%.3f ns at %s): "
			 "memory may lie beyond lat_max; raise lat_max", p->nspl, end);
		break;
	}
	case CL_LAST_NO_FDT:
		snprintf(buf, len, "the sweep ends on %s (at %s, its last size) without showing what lies beyond, "
			 "and %s, so %s may be a cache as well as memory: raise lat_max past the last-level cache",
			 name, end, cl->fdt.known ? "the FDT names no cache size (hdr cache_max=0)"
			 : "the log's hdr has no cache_max (an image older than that key)", name);
		break;
	case CL_LAST_INSIDE:
		snprintf(buf, len, "%s starts at %s, inside the largest cache the FDT describes (%s, hdr cache_max), "
			 "so it is a cache level, not memory (were its latency memory's, the caches would hold "
			 "less than the FDT says): raise lat_max past %s", name, first, max, max);
		break;
	case CL_LAST_MEMORY_FLAT:
		snprintf(buf, len, "memory starts at %s, inside the largest cache the FDT describes (%s, hdr "
			 "cache_max), but its latency stays flat to %s, beyond any cache the FDT describes: "
			 "the caches hold less than the FDT says (ways disabled or locked?)", first, max, end);
		break;
	case CL_LAST_UNDESCRIBED: {
		size_t k = 0;

		while (k < cl->n && cl->lv[k].size_first <= cl->fdt.max)
			k++;
		snprintf(buf, len, "L%zu to %s start beyond the largest cache the FDT describes (%s, hdr cache_max): "
			 "it does not describe every cache, so %s is not named memory", k + 1, name, max, name);
		break;
	}
	default:
		return 0;
	}
	return 1;
}

void cache_levels_print(FILE *f, const struct cache_levels *cl)
{
	char note[512];

	if (!cl->src) {
		fprintf(f, "cache levels: no lat data\n");
		return;
	}
	fprintf(f, "cache levels from lat chain=%s stride=%" PRIu64 " (%zu points, tolerance %.0f%%, min span %.1fx)\n",
		cl->src->chain, cl->src->stride, cl->src->n, cl->opts.tol * 100, cl->opts.min_span);
	if (cl->n == 0) {
		fprintf(f, "no plateau found\n");
		return;
	}
	fprintf(f, "%-7s %-24s %-10s %10s %12s %6s\n", "level", "sizes", "capacity", "ns/load",
		"cycles/load", "points");
	for (size_t i = 0; i < cl->n; i++) {
		const struct plateau *p = &cl->lv[i];
		char name[32], a[32], b[32], range[72], cap[40];
		uint64_t bytes;

		cache_level_name(name, sizeof(name), cl, i);
		fmt_size(a, sizeof(a), p->size_first);
		fmt_size(b, sizeof(b), p->size_last);
		snprintf(range, sizeof(range), "%s .. %s", a, b);
		if (cache_level_capacity(cl, i, &bytes))
			fmt_size(cap, sizeof(cap), bytes);
		else if (cache_level_is_memory(cl, i))
			snprintf(cap, sizeof(cap), "-");
		else
			snprintf(cap, sizeof(cap), ">= %s", b);
		fprintf(f, "%-7s %-24s %-10s %10.3f %12.3f %6zu\n", name, range, cap, p->y, p->y2,
			p->points);
	}
	if (cache_levels_note(note, sizeof(note), cl))
		fprintf(f, "note: %s\n", note);
}

int write_cache_levels(const struct cache_levels *cl, struct outdir *od)
{
	struct csv c;
	FILE *f = outdir_create(od, "cache_levels.txt");

	if (!f)
		return -1;
	cache_levels_print(f, cl);
	if (outdir_close(od, f) < 0)
		return -1;
	if (csv_open(&c, od, "cache_levels.csv",
		     "level,first_size_bytes,last_size_bytes,capacity_bytes,points,ns_per_load,cycles_per_load,chain,stride") < 0)
		return -1;
	for (size_t i = 0; i < cl->n; i++) {
		const struct plateau *p = &cl->lv[i];
		char name[32];
		uint64_t bytes;

		cache_level_name(name, sizeof(name), cl, i);
		csv_str(&c, name);
		csv_u64(&c, p->size_first);
		csv_u64(&c, p->size_last);
		if (cache_level_capacity(cl, i, &bytes))
			csv_u64(&c, bytes);
		else
			csv_empty(&c);
		csv_u64(&c, p->points);
		csv_fix(&c, p->y, 3);
		csv_fix(&c, p->y2, 3);
		csv_str(&c, cl->src->chain);
		csv_u64(&c, cl->src->stride);
		csv_row_end(&c);
	}
	return csv_close(&c);
}

/* ---- par / parmax --------------------------------------------------------- */

struct par1 {
	uint64_t size;
	size_t order;
	double nspl;
};

static int cmp_par1(const void *a, const void *b)
{
	const struct par1 *x = a, *y = b;

	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

int write_par_outputs(const struct rvm_log *log, struct outdir *od, FILE *diag, size_t *invalid)
{
	struct par1 *ones = NULL;
	size_t none = 0;
	static const char *const pkeys[] = { "size", "k", "loads", "cycles", "ns", NULL };
	static const char *const mkeys[] = { "size", "k", NULL };
	struct csv c;
	const struct rvm_rec *r;
	size_t it = 0;

	if (rvm_log_count(log, "par")) {
		if (csv_open(&c, od, "par.csv",
			     "size_bytes,size_mb,k,loads,cycles,ns,cycles_per_load,ns_per_load,parallelism") < 0)
			return -1;
		/* k=1 points by size (the first in log order for each size) */
		ones = xrealloc(NULL, (rvm_log_count(log, "par") + 1) * sizeof(*ones));
		while ((r = rvm_log_next(log, "par", &it))) {
			uint64_t w[5];

			if (need(log, r, NULL, pkeys, w) == 0 && w[1] == 1 && w[2]) {
				ones[none].size = w[0];
				ones[none].order = none;
				ones[none].nspl = (double)w[4] / (double)w[2];
				none++;
			}
		}
		if (none)
			qsort(ones, none, sizeof(*ones), cmp_par1);
		it = 0;
		while ((r = rvm_log_next(log, "par", &it))) {
			uint64_t v[5];
			double nspl1 = -1;

			if (need(log, r, diag, pkeys, v) < 0 || zero_loads(log, r, diag, v[2])) {
				(*invalid)++;
				continue;
			}
			/* the k=1 point of the same size gives parallelism */
			{
				size_t lo = 0, hi = none;

				while (lo < hi) { /* first entry with size >= v[0] */
					size_t mid = lo + (hi - lo) / 2;

					if (ones[mid].size < v[0])
						lo = mid + 1;
					else
						hi = mid;
				}
				if (lo < none && ones[lo].size == v[0])
					nspl1 = ones[lo].nspl;
			}
			csv_u64(&c, v[0]);
			csv_fix(&c, (double)v[0] / MB, 5);
			csv_u64(&c, v[1]);
			csv_u64(&c, v[2]);
			csv_u64(&c, v[3]);
			csv_u64(&c, v[4]);
			csv_fix(&c, (double)v[3] / (double)v[2], 3);
			csv_fix(&c, (double)v[4] / (double)v[2], 3);
			if (nspl1 >= 0 && v[4])
				csv_fix(&c, nspl1 / ((double)v[4] / (double)v[2]), 3);
			else
				csv_empty(&c);
			csv_row_end(&c);
		}
		free(ones);
		if (csv_close(&c) < 0)
			return -1;
	}
	if (rvm_log_count(log, "parmax")) {
		it = 0;
		if (csv_open(&c, od, "parmax.csv",
			     "size_bytes,size_mb,k,par") < 0)
			return -1;
		while ((r = rvm_log_next(log, "parmax", &it))) {
			uint64_t v[2];
			double par;

			if (need(log, r, diag, mkeys, v) < 0) {
				(*invalid)++;
				continue;
			}
			if (logrec_double(r, "par", &par) < 0) {
				if (diag)
					fprintf(diag, "%s:%lu: parmax record: missing or bad field 'par', record skipped\n",
						log->path, r->line);
				(*invalid)++;
				continue;
			}
			csv_u64(&c, v[0]);
			csv_fix(&c, (double)v[0] / MB, 5);
			csv_u64(&c, v[1]);
			csv_fix(&c, par, 3);
			csv_row_end(&c);
		}
		if (csv_close(&c) < 0)
			return -1;
	}
	return 0;
}

/* ---- chase ------------------------------------------------------------------ */

int write_chase_csv(const struct rvm_log *log, struct outdir *od, FILE *diag, size_t *invalid)
{
	static const char *const keys[] = { "size", "lines", "rep", "loads", "cycles", "ticks", "ns", NULL };
	struct csv c;
	const struct rvm_rec *r;
	size_t it = 0;

	if (csv_open(&c, od, "chase.csv",
		     "hart,size_bytes,lines,rep,loads,cycles,ticks,ns,cycles_per_load,ns_per_load") < 0)
		return -1;
	while ((r = rvm_log_next(log, "chase", &it))) {
		uint64_t v[7];

		if (need(log, r, diag, keys, v) < 0 || zero_loads(log, r, diag, v[3])) {
			(*invalid)++;
			continue;
		}
		csv_u64(&c, r->hart);
		for (int i = 0; i < 7; i++)
			csv_u64(&c, v[i]);
		csv_fix(&c, (double)v[4] / (double)v[3], 3);
		csv_fix(&c, (double)v[6] / (double)v[3], 3);
		csv_row_end(&c);
	}
	return csv_close(&c);
}
