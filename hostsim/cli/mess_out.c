/* Mess suite outputs (see mess_out.h). */
#include "cli/mess_out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/csv.h"
#include "cli/out.h"
#include "cli/svg.h"

/* Fields of a mess record written to mess_raw.csv, in order. */
static const char *const raw_cols[] = {
	"mix", "pause", "rep", "gens", "loads", "cycles", "ticks", "ns", "cpl", "nspl",
	"gen_iters", "gen_loads", "gen_stores", "iss_rd", "iss_wr", "bw_iss", "ctr_rd", "ctr_wr",
	"bw_ctr", "rd_pct", "src", "l1d_miss", "llc_miss", "cached",
	/* the window (docs/mess.md "When a point's window ends"); empty in logs
	 * of images before it */
	"settle", "batch", "batches", "ci", "vr", "wall_ns",
};
#define NRAW (sizeof raw_cols / sizeof raw_cols[0])

long mess_collect(const struct rvm_log *log, FILE *diag, struct mess_sample **out,
                  size_t *invalid, int issued)
{
	size_t n = rvm_log_count(log, "mess"), k = 0, it = 0;
	const struct rvm_rec *r;

	*out = NULL;
	if (n == 0)
		return 0;
	struct mess_sample *s = calloc(n, sizeof *s);
	if (!s)
		return -1;
	while ((r = rvm_log_next(log, "mess", &it))) {
		uint64_t mix, pause;
		double nspl, rd, bw;
		const char *src = logrec_get(r, "src");
		const char *bwkey = !issued && src && strcmp(src, "ctr") == 0 ? "bw_ctr" : "bw_iss";
		uint64_t cached = 0;

		if (logrec_u64(r, "mix", &mix) || logrec_u64(r, "pause", &pause) ||
		    logrec_double(r, "nspl", &nspl) || logrec_double(r, "rd_pct", &rd) ||
		    logrec_double(r, bwkey, &bw) || mix > 100 || rd > 100 || !(nspl > 0) ||
		    nspl > MESS_MAX_NS || bw > MESS_MAX_GBPS * 1000 || pause > (uint64_t)MESS_MAX_PAUSE) {
			if (diag)
				fprintf(diag, "%s:%lu: mess record with a missing or bad field "
				        "(mix, pause <= 2^53, nspl <= %g, rd_pct, %s <= %g)\n", log->path, r->line,
				        MESS_MAX_NS, bwkey, MESS_MAX_GBPS * 1000);
			if (invalid)
				(*invalid)++;
			continue;
		}
		if (logrec_u64(r, "cached", &cached) == 0 && cached) {
			if (diag)
				fprintf(diag, "%s:%lu: mess window mix=%llu pause=%llu: the chase hit in "
				        "cache; left out of the curves\n", log->path, r->line,
				        (unsigned long long)mix, (unsigned long long)pause);
			continue;
		}
		s[k].store_pct = (unsigned)mix;
		s[k].pause = pause;
		s[k].bw_gbps = bw / 1000.0;
		s[k].rd_frac = rd / 100.0;
		s[k].lat_ns = nspl;
		k++;
	}
	*out = s;
	return (long)k;
}

static int write_raw(const struct rvm_log *log, struct outdir *od)
{
	char hdr[1024] = "line";
	struct csv c;
	size_t it = 0;
	const struct rvm_rec *r;

	for (size_t i = 0; i < NRAW; i++) {
		strcat(hdr, ",");
		strcat(hdr, raw_cols[i]);
	}
	if (csv_open(&c, od, "mess_raw.csv", hdr) < 0)
		return -1;
	while ((r = rvm_log_next(log, "mess", &it))) {
		csv_u64(&c, r->line);
		for (size_t i = 0; i < NRAW; i++) {
			const char *v = logrec_get(r, raw_cols[i]);
			if (v)
				csv_str(&c, v);
			else
				csv_empty(&c);
		}
		csv_row_end(&c);
	}
	return csv_close(&c);
}

/* Series storage for one plot: ns series sharing one array of points. */
struct plotbuf {
	struct svg_series *s;
	double *xy;
	char (*label)[48];
};

static int plotbuf_init(struct plotbuf *b, size_t ns, size_t npoints)
{
	b->s = calloc(ns ? ns : 1, sizeof *b->s);
	b->xy = malloc((2 * npoints + 1) * sizeof *b->xy);
	b->label = calloc(ns ? ns : 1, sizeof *b->label);
	if (b->s && b->xy && b->label)
		return 0;
	free(b->s);
	free(b->xy);
	free(b->label);
	errno = ENOMEM;
	return -1;
}

/* Write the plot to NAME in the output directory and free the buffer. */
static int plotbuf_write(struct plotbuf *b, size_t ns, const struct svg_plot *pl,
                         struct outdir *od, const char *name)
{
	FILE *o = outdir_create(od, name);
	int rc = o ? svg_write(o, pl, b->s, ns) : -1;
	if (o && outdir_close(od, o) != 0)
		rc = -1;
	free(b->s);
	free(b->xy);
	free(b->label);
	return rc;
}

/*
 * One plot of a family: per curve its measured points (markers) and its
 * smoothed line through them in mess_curve_order(); `issued` curves as dashed
 * lines.  By-read groups too thin to be curves show their points only.
 */
static int plot_family(const struct mess_family *f, const struct mess_family *issued,
                       struct outdir *od, const char *name, const char *title, double peak_gbps,
                       double unloaded_ns)
{
	struct plotbuf b;
	size_t nf = f->ncurves, ni = issued ? issued->ncurves : 0, nc = nf + ni, tot = 0, ns = 0;
	unsigned rmin = 100, rmax = 0;
	char vlab[64], hlab[64];

	for (size_t i = 0; i < nc; i++) {
		const struct mess_curve *c = i < nf ? &f->curve[i] : &issued->curve[i - nf];
		tot += 2 * c->n;
		rmin = c->read_pct_rounded < rmin ? c->read_pct_rounded : rmin;
		rmax = c->read_pct_rounded > rmax ? c->read_pct_rounded : rmax;
	}
	if (plotbuf_init(&b, 2 * nc, tot) < 0)
		return -1;
	double *p = b.xy;
	for (size_t i = 0; i < nc; i++) {
		const struct mess_curve *c = i < nf ? &f->curve[i] : &issued->curve[i - nf];
		int group = c->store_pct == MESS_NO_KERNEL;
		size_t *o = mess_curve_order(c);
		if (!o) {
			b.s[0].n = 0;
			free(b.s);
			free(b.xy);
			free(b.label);
			errno = ENOMEM;
			return -1;
		}
		char color[8];
		svg_ramp(rmax > rmin ? (double)(rmax - c->read_pct_rounded) / (rmax - rmin) : 0, color);
		for (int line = 0; line < 2; line++) {
			if (i >= nf && !line)
				continue; /* issued: the line only */
			if (line && group && c->thin)
				continue; /* not a curve: its points only */
			struct svg_series *s = &b.s[ns];
			s->x = p;
			s->y = p + c->n;
			for (size_t k = 0; k < c->n; k++) {
				const struct mess_point *q = &c->pt[line ? o[k] : k];
				p[k] = line ? q->bw_smooth : q->bw_mean;
				p[c->n + k] = line ? q->lat_smooth : q->lat_mean;
			}
			p += 2 * c->n;
			s->n = c->n;
			s->markers = !line;
			s->no_line = !line;
			s->dashed = i >= nf;
			memcpy(s->color, color, sizeof color);
			if (line) {
				if (i >= nf)
					snprintf(b.label[ns], sizeof b.label[ns], "%u%% st, issued", c->store_pct);
				else if (group)
					snprintf(b.label[ns], sizeof b.label[ns], "%u%% reads", c->read_pct_rounded);
				else
					snprintf(b.label[ns], sizeof b.label[ns], "%u%% reads (%u%% st)",
					         c->read_pct_rounded, c->store_pct);
				s->label = b.label[ns];
			}
			ns++;
		}
		free(o);
	}
	snprintf(vlab, sizeof vlab, "theoretical peak %.1f GB/s", peak_gbps);
	snprintf(hlab, sizeof hlab, "unloaded %.1f ns", unloaded_ns);
	struct svg_plot pl = {.title = title, .xlabel = "bandwidth at memory (GB/s); dots measured, lines smoothed",
	                      .ylabel = "load-to-use latency (ns)", .x_from_zero = 1,
	                      .y_from_zero = 1, .vline = peak_gbps, .vline_label = vlab,
	                      .hline = unloaded_ns, .hline_label = hlab, .colorbar = 1,
	                      .cb_lo = rmax, .cb_hi = rmin, .cb_title = "read % at memory"};
	return plotbuf_write(&b, ns, &pl, od, name);
}

int mess_write_svg(const struct mess_family *f, const struct mess_family *issued,
                   struct outdir *od, const char *name, const char *title, double peak_gbps,
                   double unloaded_ns)
{
	return plot_family(f, issued, od, name, title, peak_gbps, unloaded_ns);
}

int mess_write_svg_by_read(const struct mess_family *f, struct outdir *od, const char *name,
                           const char *title, double peak_gbps, double unloaded_ns)
{
	struct mess_family g;
	if (mess_family_by_read(f, &g) < 0) {
		errno = ENOMEM;
		return -1;
	}
	int rc = plot_family(&g, NULL, od, name, title, peak_gbps, unloaded_ns);
	mess_family_free(&g);
	return rc;
}

int lat_write_svg(const struct lat_sets *ls, struct outdir *od, const char *name)
{
	struct plotbuf b;
	size_t ns = ls->n, tot = 0;

	for (size_t i = 0; i < ns; i++)
		tot += ls->sets[i].n;
	if (plotbuf_init(&b, ns, tot) < 0)
		return -1;
	double *p = b.xy;
	for (size_t i = 0; i < ns; i++) {
		const struct lat_set *d = &ls->sets[i];
		struct svg_series *s = &b.s[i];
		s->x = p;
		s->y = p + d->n;
		for (size_t k = 0; k < d->n; k++) {
			p[k] = (double)d->pts[k].size;
			p[d->n + k] = d->pts[k].nspl;
		}
		p += 2 * d->n;
		s->n = d->n;
		s->dashed = strcmp(d->chain, "random") == 0;
		s->markers = 1;
		s->shape = (int)(i / 12) + (s->dashed ? 2 : 0);
		/* "stride 64 B" for the stride chains, "random, 64 B lines" for the random ones */
		if (s->dashed)
			snprintf(b.label[i], sizeof b.label[i], "random, %llu B lines", (unsigned long long)d->stride);
		else
			snprintf(b.label[i], sizeof b.label[i], "stride %llu B", (unsigned long long)d->stride);
		s->label = b.label[i];
		svg_palette(i, s->color);
	}
	struct svg_plot pl = {.title = "lat_mem_rd: load-to-use latency",
	                      .xlabel = "array size (bytes; K, M, G = KiB, MiB, GiB)",
	                      .ylabel = "latency (ns)", .xlog2 = 1, .y_from_zero = 1};
	return plotbuf_write(&b, ns, &pl, od, name);
}

int par_write_svg(const struct rvm_log *log, struct outdir *od, const char *name)
{
	struct plotbuf b;
	size_t n = rvm_log_count(log, "parmax"), k = 0, it = 0;
	const struct rvm_rec *r;

	if (plotbuf_init(&b, 1, n) < 0)
		return -1;
	while ((r = rvm_log_next(log, "parmax", &it))) {
		uint64_t size;
		double par;

		if (logrec_u64(r, "size", &size) == 0 && logrec_double(r, "par", &par) == 0) {
			b.xy[k] = (double)size;
			b.xy[n + k] = par;
			k++;
		}
	}
	b.s[0].x = b.xy;
	b.s[0].y = b.xy + n;
	b.s[0].n = k;
	b.s[0].markers = 1;
	b.s[0].label = "max over k";
	svg_palette(0, b.s[0].color);
	struct svg_plot pl = {.title = "par_mem: memory-level parallelism",
	                      .xlabel = "array size (bytes; K, M, G = KiB, MiB, GiB)",
	                      .ylabel = "parallelism (latency(1) / latency(k))", .xlog2 = 1,
	                      .y_from_zero = 1};
	return plotbuf_write(&b, 1, &pl, od, name);
}

/* The platform's own theoretical peak, if the log reported one (MB/s). */
double mess_log_peak_gbps(const struct rvm_log *log)
{
	size_t it = 0;
	const struct rvm_rec *r = rvm_log_next(log, "mess", &it);
	uint64_t mbps;
	if (r && logrec_u64(r, "peak", &mbps) == 0 && mbps)
		return (double)mbps / 1000.0;
	return 0;
}

int mess_write_outputs(const struct rvm_log *log, struct outdir *od, double peak_gbps,
                       int mark_issued, FILE *diag, FILE *summary_out, size_t *invalid)
{
	char err[512];
	struct mess_sample *s;
	struct mess_family f;
	struct mess_metrics m;
	long n;
	int rc = -1;
	FILE *o;

	if (write_raw(log, od) < 0)
		return -1;
	n = mess_collect(log, diag, &s, invalid, 0);
	if (n < 0) {
		fprintf(diag, "rvmess: out of memory\n");
		return -1;
	}
	if (mess_family_build(s, (size_t)n, &f) < 0) {
		free(s);
		fprintf(diag, "rvmess: out of memory\n");
		return -1;
	}
	free(s);
	if (peak_gbps <= 0)
		peak_gbps = mess_log_peak_gbps(log);
	o = outdir_create(od, "mess.csv");
	if (!o)
		goto out;
	mess_write_csv(&f, o);
	if (outdir_close(od, o) != 0)
		goto out;
	if (f.ncurves && mess_write_bwlat_dir(&f, od, "bwlat", err, sizeof err) < 0) {
		if (!outdir_error(od)[0])
			fprintf(diag, "rvmess: %s\n", err);
		goto out;
	}
	if (mess_metrics(&f, peak_gbps, 0, &m) < 0) {
		fprintf(diag, "rvmess: out of memory\n");
		goto out;
	}
	o = outdir_create(od, "mess_metrics.txt");
	if (!o) {
		mess_metrics_free(&m);
		goto out;
	}
	mess_metrics_print(&m, o);
	if (outdir_close(od, o) != 0) {
		mess_metrics_free(&m);
		goto out;
	}
	if (summary_out)
		mess_metrics_print(&m, summary_out);
	double unl = m.unloaded_lat_ns;
	mess_metrics_free(&m);
	struct mess_family fi = {0};
	if (mark_issued) {
		long ni = mess_collect(log, NULL, &s, NULL, 1);
		int bad = ni < 0 || mess_family_build(s, (size_t)(ni < 0 ? 0 : ni), &fi) < 0;
		free(s);
		if (bad) {
			fprintf(diag, "rvmess: out of memory\n");
			goto out;
		}
	}
	rc = mess_write_svg(&f, mark_issued ? &fi : NULL, od, "mess.svg",
	                    "Mess bandwidth-latency curves, one per kernel", peak_gbps, unl);
	if (rc == 0)
		rc = mess_write_svg_by_read(&f, od, "mess_read.svg",
		                            "Mess curves by measured read % (Mess 2 groups)", peak_gbps, unl);
	mess_family_free(&fi);
out:
	mess_family_free(&f);
	return rc;
}
