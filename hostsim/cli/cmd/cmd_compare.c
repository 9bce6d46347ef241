/* rvmess compare RUN_A RUN_B [-o DIR]: see compare.h. */
#include "cli/compare.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd/cmds.h"
#include "cli/csv.h"
#include "cli/lat.h"
#include "cli/plateau.h"
#include "cli/svg.h"
#include "cli/util.h"
#include "mess/textin.h"

/* ---- loading ------------------------------------------------------------------ */

/* Column index of name in the header row, or -1. */
static int col(const struct csv_table *t, const char *name)
{
	for (size_t i = 0; t->nrows && i < t->ncells[0]; i++)
		if (strcmp(t->cells[0][i], name) == 0)
			return (int)i;
	return -1;
}

static int cell_u64(const struct csv_table *t, size_t row, int c, uint64_t *v)
{
	char *e;

	if (c < 0 || (size_t)c >= t->ncells[row] || !t->cells[row][c][0])
		return -1;
	errno = 0;
	*v = strtoull(t->cells[row][c], &e, 10);
	return *e || errno ? -1 : 0;
}

static int cell_num(const struct csv_table *t, size_t row, int c, double *v)
{
	char *e;

	if (c < 0 || (size_t)c >= t->ncells[row] || !t->cells[row][c][0])
		return -1;
	*v = strtod(t->cells[row][c], &e);
	return *e || !isfinite(*v) ? -1 : 0;
}

/* Read DIR/name; 1 when absent, 0 when read, -1 on an error (err set). */
static int open_table(const char *dir, const char *name, struct csv_table *t, char *path,
		      size_t plen, char *err, size_t errlen)
{
	path_join(path, plen, dir, name);
	if (csv_read(path, t) == 0)
		return t->nrows ? 0 : (csv_table_free(t), 1);
	if (errno == ENOENT)
		return 1;
	snprintf(err, errlen, "%s: %s", path, strerror(errno));
	return -1;
}

static int bad_row(char *err, size_t errlen, const char *path, size_t row, const char *what)
{
	snprintf(err, errlen, "%s:%zu: bad or missing %s", path, row + 1, what);
	return -1;
}

static int load_levels(struct cmp_run *r, char *err, size_t errlen)
{
	char path[4096];
	struct csv_table t;
	int rc = open_table(r->dir, "cache_levels.csv", &t, path, sizeof(path), err, errlen);
	int cl, cc, cn, cy;

	if (rc)
		return rc < 0 ? -1 : 0;
	cl = col(&t, "level"), cc = col(&t, "capacity_bytes");
	cn = col(&t, "ns_per_load"), cy = col(&t, "cycles_per_load");
	r->lv = xrealloc(NULL, t.nrows * sizeof(*r->lv));
	for (size_t i = 1; i < t.nrows; i++) {
		struct cmp_level *l = &r->lv[r->nlv];

		if (cl < 0 || (size_t)cl >= t.ncells[i] || cell_num(&t, i, cn, &l->ns) ||
		    cell_num(&t, i, cy, &l->cycles)) {
			csv_table_free(&t);
			return bad_row(err, errlen, path, i, "level, ns_per_load or cycles_per_load");
		}
		snprintf(l->name, sizeof(l->name), "%s", t.cells[i][cl]);
		if (cell_u64(&t, i, cc, &l->capacity))
			l->capacity = 0;
		r->nlv++;
	}
	csv_table_free(&t);
	return 0;
}

static int load_chase(struct cmp_run *r, char *err, size_t errlen)
{
	char path[4096];
	struct csv_table t;
	int rc = open_table(r->dir, "chase.csv", &t, path, sizeof(path), err, errlen);
	double *v;
	size_t n = 0;
	int c;

	if (rc)
		return rc < 0 ? -1 : 0;
	c = col(&t, "ns_per_load");
	v = xrealloc(NULL, t.nrows * sizeof(*v));
	for (size_t i = 1; i < t.nrows; i++) {
		if (cell_num(&t, i, c, &v[n])) {
			free(v);
			csv_table_free(&t);
			return bad_row(err, errlen, path, i, "ns_per_load");
		}
		n++;
	}
	if (n)
		r->chase_ns = rvm_median(v, n);
	free(v);
	csv_table_free(&t);
	return 0;
}

static int load_lat(struct cmp_run *r, char *err, size_t errlen)
{
	char path[4096];
	struct csv_table t;
	int rc = open_table(r->dir, "lat.csv", &t, path, sizeof(path), err, errlen);
	int cch, cst, csz, cns;

	if (rc)
		return rc < 0 ? -1 : 0;
	cch = col(&t, "chain"), cst = col(&t, "stride"), csz = col(&t, "size_bytes"), cns = col(&t, "ns_per_load");
	for (size_t i = 1; i < t.nrows; i++) {
		uint64_t stride, size;
		double ns;
		struct cmp_lat *s = NULL;
		size_t k;

		if (cch < 0 || (size_t)cch >= t.ncells[i] || cell_u64(&t, i, cst, &stride) ||
		    cell_u64(&t, i, csz, &size) || cell_num(&t, i, cns, &ns)) {
			csv_table_free(&t);
			return bad_row(err, errlen, path, i, "chain, stride, size_bytes or ns_per_load");
		}
		for (k = 0; k < r->nlat; k++)
			if (strcmp(r->lat[k].chain, t.cells[i][cch]) == 0 && r->lat[k].stride == stride)
				s = &r->lat[k];
		if (!s) {
			r->lat = xrealloc(r->lat, (r->nlat + 1) * sizeof(*r->lat));
			s = &r->lat[r->nlat++];
			memset(s, 0, sizeof(*s));
			snprintf(s->chain, sizeof(s->chain), "%s", t.cells[i][cch]);
			s->stride = stride;
		}
		s->size = xrealloc(s->size, (s->n + 1) * sizeof(*s->size));
		s->ns = xrealloc(s->ns, (s->n + 1) * sizeof(*s->ns));
		for (k = s->n; k > 0 && s->size[k - 1] > size; k--) {
			s->size[k] = s->size[k - 1];
			s->ns[k] = s->ns[k - 1];
		}
		s->size[k] = size;
		s->ns[k] = ns;
		s->n++;
	}
	csv_table_free(&t);
	return 0;
}

static int load_mess(struct cmp_run *r, char *err, size_t errlen)
{
	char path[4096], why[256];
	FILE *f = mess_text_open(path_join(path, sizeof(path), r->dir, "mess.csv"));

	if (!f) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", path, mess_text_strerror(errno));
		return -1;
	}
	if (mess_read_csv(f, &r->mess, why, sizeof(why)) < 0) {
		fclose(f);
		snprintf(err, errlen, "%s:%s", path, why);
		return -1;
	}
	fclose(f);
	r->has_mess = r->mess.ncurves > 0;
	return 0;
}

int cmp_run_load(const char *dir, struct cmp_run *r, char *err, size_t errlen)
{
	char path[4096];
	FILE *f;

	memset(r, 0, sizeof(*r));
	r->dir = dir;
	r->chase_ns = NAN;
	/* every name read below fits if the longest does */
	if (!path_join(path, sizeof(path), dir, "cache_levels.csv")) {
		snprintf(err, errlen, "%.64s...: %s", dir, strerror(errno));
		return -1;
	}
	/* a run directory has at least the parse's summary */
	f = mess_text_open(path_join(path, sizeof(path), dir, "summary.txt"));
	if (!f) {
		snprintf(err, errlen, "%s: not a parsed run (%s: %s)", dir, path, mess_text_strerror(errno));
		return -1;
	}
	{
		/* the target the parse recorded ("target: NAME (from ...)") */
		char line[256], t[64] = "";

		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "target: %63s", t) == 1)
				break;
		fclose(f);
		run_info_find(path_join(path, sizeof(path), dir, "console.log"),
			      t[0] && strcmp(t, "unknown") != 0 ? t : NULL, &r->ri);
	}
	if (load_levels(r, err, errlen) || load_chase(r, err, errlen) || load_lat(r, err, errlen) ||
	    load_mess(r, err, errlen)) {
		cmp_run_free(r);
		return -1;
	}
	return 0;
}

void cmp_run_free(struct cmp_run *r)
{
	free(r->lv);
	for (size_t i = 0; i < r->nlat; i++) {
		free(r->lat[i].size);
		free(r->lat[i].ns);
	}
	free(r->lat);
	if (r->has_mess)
		mess_family_free(&r->mess);
	memset(r, 0, sizeof(*r));
}

/* ---- differences ------------------------------------------------------------- */

static void diff_add(struct cmp_diff *d, double v)
{
	if (d->n == 0) {
		d->min = d->max = v;
		d->mean = 0;
	}
	d->min = fmin(d->min, v);
	d->max = fmax(d->max, v);
	d->mean += v;
	d->n++;
}

static void diff_init(struct cmp_diff *d)
{
	d->n = 0;
	d->mean = d->min = d->max = NAN;
}

static void diff_done(struct cmp_diff *d)
{
	if (d->n)
		d->mean /= (double)d->n;
}

void cmp_lat_diff(const struct cmp_lat *a, const struct cmp_lat *b, struct cmp_diff *d)
{
	size_t i = 0, k = 0;

	diff_init(d);
	while (i < a->n && k < b->n) {
		if (a->size[i] < b->size[k]) {
			i++;
		} else if (a->size[i] > b->size[k]) {
			k++;
		} else {
			diff_add(d, b->ns[k] - a->ns[i]);
			i++;
			k++;
		}
	}
	diff_done(d);
}

void cmp_mess_diff(const struct mess_curve *a, const struct mess_curve *b, struct cmp_diff *d)
{
	diff_init(d);
	for (size_t i = 0; i < a->n; i++)
		for (size_t k = 0; k < b->n; k++)
			if (a->pt[i].pause == b->pt[k].pause) {
				diff_add(d, b->pt[k].lat_smooth - a->pt[i].lat_smooth);
				break;
			}
	diff_done(d);
}

/* ---- report ------------------------------------------------------------------ */

static void row(FILE *f, const char *what, double a, double b, const char *unit)
{
	fprintf(f, "  %-28s", what);
	if (isfinite(a))
		fprintf(f, " %12.3f", a);
	else
		fprintf(f, " %12s", "-");
	if (isfinite(b))
		fprintf(f, " %12.3f", b);
	else
		fprintf(f, " %12s", "-");
	if (isfinite(a) && isfinite(b))
		fprintf(f, " %+12.3f %s\n", b - a, unit);
	else
		fprintf(f, " %12s %s\n", "-", unit);
}

static const struct cmp_level *level(const struct cmp_run *r, const char *name)
{
	for (size_t i = 0; i < r->nlv; i++)
		if (strcmp(r->lv[i].name, name) == 0)
			return &r->lv[i];
	return NULL;
}

static void levels_report(FILE *f, const struct cmp_run *a, const struct cmp_run *b)
{
	const struct cmp_run *runs[2] = { a, b };

	fprintf(f, "cache levels\n");
	for (int w = 0; w < 2; w++)
		for (size_t i = 0; i < runs[w]->nlv; i++) {
			const char *name = runs[w]->lv[i].name;
			const struct cmp_level *la = level(a, name), *lb = level(b, name);
			char what[64], ca[32] = "-", cb[32] = "-";

			if (w == 1 && la)
				continue; /* already shown with A's levels */
			if (la && la->capacity)
				fmt_size(ca, sizeof(ca), la->capacity);
			if (lb && lb->capacity)
				fmt_size(cb, sizeof(cb), lb->capacity);
			if (strcmp(name, "memory") != 0)
				fprintf(f, "  %-28s %12s %12s\n", strcat(strcpy(what, name), " capacity"), ca, cb);
			snprintf(what, sizeof(what), "%s latency", name);
			row(f, what, la ? la->ns : NAN, lb ? lb->ns : NAN, "ns");
			snprintf(what, sizeof(what), "%s latency", name);
			row(f, strcat(what, " (cycles)"), la ? la->cycles : NAN, lb ? lb->cycles : NAN, "cycles");
		}
}

static double mem_ns(const struct cmp_run *r)
{
	const struct cmp_level *m = level(r, "memory");

	return m ? m->ns : NAN;
}

static void mess_report(FILE *f, const struct cmp_run *a, const struct cmp_run *b)
{
	struct mess_metrics ma, mb;

	if (!a->has_mess || !b->has_mess) {
		fprintf(f, "mess: %s\n", a->has_mess || b->has_mess ? "only one run has Mess curves" : "no Mess curves");
		return;
	}
	if (mess_metrics(&a->mess, 0, 0, &ma) < 0)
		abort();
	if (mess_metrics(&b->mess, 0, 0, &mb) < 0)
		abort();
	fprintf(f, "mess metrics\n");
	row(f, "unloaded latency", ma.unloaded_lat_ns, mb.unloaded_lat_ns, "ns");
	row(f, "saturated bandwidth min", ma.sat_curves ? ma.sat_bw_min : NAN, mb.sat_curves ? mb.sat_bw_min : NAN, "GB/s");
	row(f, "saturated bandwidth max", ma.sat_curves ? ma.sat_bw_max : NAN, mb.sat_curves ? mb.sat_bw_max : NAN, "GB/s");
	row(f, "maximum latency min", ma.max_lat_min, mb.max_lat_min, "ns");
	row(f, "maximum latency max", ma.max_lat_max, mb.max_lat_max, "ns");
	row(f, "curves with a wave", ma.wave_curves, mb.wave_curves, "");
	fprintf(f, "mess curves: latency at the same pause, B - A (ns)\n");
	fprintf(f, "  %-7s %6s %6s %8s %10s %10s %10s %10s %10s\n", "stores", "read%A", "read%B", "points",
		"mean", "min", "max", "max GB/s A", "max GB/s B");
	for (size_t i = 0; i < a->mess.ncurves; i++) {
		const struct mess_curve *ca = &a->mess.curve[i], *cb = NULL;
		struct cmp_diff d;

		for (size_t k = 0; k < b->mess.ncurves; k++)
			if (b->mess.curve[k].store_pct == ca->store_pct)
				cb = &b->mess.curve[k];
		if (!cb) {
			fprintf(f, "  %-7u %6u %6s  (not in B)\n", ca->store_pct, ca->read_pct_rounded, "-");
			continue;
		}
		cmp_mess_diff(ca, cb, &d);
		fprintf(f, "  %-7u %6u %6u %8zu %+10.3f %+10.3f %+10.3f %10.3f %10.3f\n", ca->store_pct,
			ca->read_pct_rounded, cb->read_pct_rounded, d.n, d.mean, d.min, d.max,
			ma.curve[i].max_bw, mb.curve[cb - b->mess.curve].max_bw);
	}
	mess_metrics_free(&ma);
	mess_metrics_free(&mb);
}

static void lat_report(FILE *f, const struct cmp_run *a, const struct cmp_run *b)
{
	if (!a->nlat || !b->nlat)
		return;
	fprintf(f, "lat curves: latency at the same size, B - A (ns)\n");
	fprintf(f, "  %-8s %8s %8s %10s %10s %10s\n", "chain", "stride", "points", "mean", "min", "max");
	for (size_t i = 0; i < a->nlat; i++)
		for (size_t k = 0; k < b->nlat; k++) {
			struct cmp_diff d;

			if (strcmp(a->lat[i].chain, b->lat[k].chain) != 0 || a->lat[i].stride != b->lat[k].stride)
				continue;
			cmp_lat_diff(&a->lat[i], &b->lat[k], &d);
			fprintf(f, "  %-8s %8" PRIu64 " %8zu %+10.3f %+10.3f %+10.3f\n", a->lat[i].chain,
				a->lat[i].stride, d.n, d.mean, d.min, d.max);
		}
}

void cmp_report(FILE *f, const struct cmp_run *a, const struct cmp_run *b)
{
	const struct cmp_run *runs[2] = { a, b };

	for (int w = 0; w < 2; w++) {
		const char *warn = run_info_warning(&runs[w]->ri);

		fprintf(f, "%s: %s (target %s)\n", w ? "B" : "A", runs[w]->dir,
			runs[w]->ri.target[0] ? runs[w]->ri.target : "unknown");
		if (warn)
			fprintf(f, "   WARNING: %s\n", warn);
	}
	fprintf(f, "  %-28s %12s %12s %12s\n", "", "A", "B", "B - A");
	levels_report(f, a, b);
	fprintf(f, "unloaded latency\n");
	row(f, "lat, memory level", mem_ns(a), mem_ns(b), "ns");
	row(f, "chase, median", a->chase_ns, b->chase_ns, "ns");
	mess_report(f, a, b);
	lat_report(f, a, b);
}

/* ---- plot ---------------------------------------------------------------------- */

int cmp_write_svg(const struct cmp_run *a, const struct cmp_run *b, struct outdir *od, const char *name)
{
	const struct cmp_run *runs[2] = { a, b };
	int mess = a->has_mess && b->has_mess;
	size_t ns = 0, tot = 0, si = 0;
	struct svg_series *s;
	double *xy, *p;
	char (*label)[64];
	FILE *o;
	int rc;

	for (int w = 0; w < 2; w++) {
		if (mess) {
			ns += runs[w]->mess.ncurves;
			for (size_t i = 0; i < runs[w]->mess.ncurves; i++)
				tot += runs[w]->mess.curve[i].n;
		} else {
			ns += runs[w]->nlat;
			for (size_t i = 0; i < runs[w]->nlat; i++)
				tot += runs[w]->lat[i].n;
		}
	}
	s = xrealloc(NULL, (ns ? ns : 1) * sizeof(*s));
	label = xrealloc(NULL, (ns ? ns : 1) * sizeof(*label));
	p = xy = xrealloc(NULL, (2 * tot + 1) * sizeof(*xy));
	for (int w = 0; w < 2; w++) {
		size_t n = mess ? runs[w]->mess.ncurves : runs[w]->nlat;

		for (size_t i = 0; i < n; i++, si++) {
			struct svg_series *e = &s[si];

			memset(e, 0, sizeof(*e));
			if (mess) {
				const struct mess_curve *c = &runs[w]->mess.curve[i];

				for (size_t k = 0; k < c->n; k++) {
					p[k] = c->pt[k].bw_smooth;
					p[c->n + k] = c->pt[k].lat_smooth;
				}
				e->n = c->n;
				snprintf(label[si], sizeof(label[si]), "%s: %u%% st", w ? "B" : "A", c->store_pct);
				svg_ramp(c->store_pct / 100.0, e->color);
			} else {
				const struct cmp_lat *l = &runs[w]->lat[i];

				for (size_t k = 0; k < l->n; k++) {
					p[k] = (double)l->size[k];
					p[l->n + k] = l->ns[k];
				}
				e->n = l->n;
				snprintf(label[si], sizeof(label[si]), "%s: %s %" PRIu64, w ? "B" : "A", l->chain, l->stride);
				svg_ramp(n > 1 ? (double)i / (double)(n - 1) : 0, e->color);
			}
			e->x = p;
			e->y = p + e->n;
			p += 2 * e->n;
			e->label = label[si];
			e->markers = 1;
			e->dashed = w == 1;
		}
	}
	struct svg_plot pl = { .title = mess ? "Mess curves: A solid, B dashed" : "lat_mem_rd: A solid, B dashed",
			       .xlabel = mess ? "bandwidth at memory (GB/s)" : "array size (bytes)",
			       .ylabel = "load-to-use latency (ns)", .xlog2 = !mess,
			       .x_from_zero = mess, .y_from_zero = 1 };
	o = outdir_create(od, name);
	rc = o ? svg_write(o, &pl, s, ns) : -1;
	if (o && outdir_close(od, o) != 0)
		rc = -1;
	free(s);
	free(label);
	free(xy);
	return rc;
}

/* ---- command ------------------------------------------------------------------- */

struct compare_args {
	const char *out;
};

static const struct cli_opt compare_options[] = {
	{ .name = "-o", .kind = CLI_STR, .off = offsetof(struct compare_args, out), .meta = "DIR", .lines = 1,
	  .help = "also write DIR/compare.txt and DIR/compare.svg (the overlay plot)" },
};
static const struct cli_line compare_usage[] = { { .args = "RUN_A RUN_B" } };
const struct cli_cmd compare_command = {
	.name = "compare", .run = cmd_compare,
	.summary = "two parsed runs side by side (levels, latency, Mess, curve differences)",
	.lines = compare_usage, .nlines = CLI_N(compare_usage), .opts = compare_options,
	.nopts = CLI_N(compare_options), .max_pos = 2,
};

static int help(void)
{
	cli_print_usage(stdout, &compare_command, "usage: ", "       ");
	printf("  RUN_A, RUN_B  directories written by rvmess parse (tools/run.sh run directories)\n");
	cli_print_options(stdout, &compare_command);
	printf("Prints cache levels, unloaded latency, Mess metrics and per-curve differences (B - A).\n");
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	const char *dirs[2] = { NULL, NULL }, *out;
	struct compare_args a = { NULL };
	struct cmp_run r[2];
	struct cli_res res;
	char err[4600];
	int nd, rc = cli_parse(&compare_command, argc, argv, &a, &res);

	nd = res.npos;
	for (int k = 0; k < nd; k++)
		dirs[k] = argv[res.pos[k]];
	cli_res_free(&res);
	if (rc)
		return rc == CLI_HELP ? help() : rc;
	if (nd != 2)
		return cli_usage(&compare_command);
	out = a.out;
	for (int w = 0; w < 2; w++)
		if (cmp_run_load(dirs[w], &r[w], err, sizeof(err)) < 0) {
			fprintf(stderr, "rvmess compare: %s\n", err);
			if (w)
				cmp_run_free(&r[0]);
			return 2;
		}
	cmp_report(stdout, &r[0], &r[1]);
	if (out) {
		const char *w0 = run_info_warning(&r[0].ri), *w1 = run_info_warning(&r[1].ri);
		struct outdir od;
		FILE *f = NULL;
		int bad;

		svg_set_warning(w0 ? w0 : w1);
		bad = outdir_open(&od, out, "compare") < 0;
		for (int w = 0; w < 2 && !bad; w++) { /* what it read is never replaced */
			static const char *const in[] = { "summary.txt", "cache_levels.csv", "chase.csv", "lat.csv",
							  "mess.csv" };
			char p[4096];

			for (size_t k = 0; k < sizeof(in) / sizeof(in[0]); k++)
				if (path_join(p, sizeof(p), dirs[w], in[k]))
					outdir_input(&od, p);
		}
		bad = bad || !(f = outdir_create(&od, "compare.txt"));
		if (f) {
			cmp_report(f, &r[0], &r[1]);
			bad = outdir_close(&od, f) != 0 || cmp_write_svg(&r[0], &r[1], &od, "compare.svg") < 0;
		}
		if (outdir_finish(&od, bad, "compare", strerror(errno)) < 0)
			rc = 2;
		else
			printf("rvmess compare: wrote %s/compare.txt and compare.svg\n", out);
	}
	cmp_run_free(&r[0]);
	cmp_run_free(&r[1]);
	return rc;
}
