/* Run identification and summary.json (see summary.h). */
#include "cli/summary.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/curves.h"
#include "cli/json.h"
#include "cli/mess_out.h"
#include "cli/plateau.h"
#include "cli/util.h"
#include "mess/textin.h"

static void set_target(struct run_info *ri, const char *t, size_t n, const char *source)
{
	if (n >= sizeof(ri->target))
		n = sizeof(ri->target) - 1;
	memcpy(ri->target, t, n);
	ri->target[n] = '\0';
	ri->source = source;
	if (strncmp(ri->target, "qemu", 4) == 0)
		ri->timing = 0;
	else if (strcmp(ri->target, "hostsim") == 0)
		ri->timing = 1;
	else
		ri->timing = -1;
}

void run_info_find(const char *logpath, const char *target_opt, struct run_info *ri)
{
	char path[4096], line[256];
	const char *slash = strrchr(logpath, '/');
	FILE *f;

	memset(ri, 0, sizeof(*ri));
	ri->source = "unknown";
	ri->timing = -1;
	if (target_opt) {
		set_target(ri, target_opt, strlen(target_opt), "--target");
		return;
	}
	/* an over-long path is not truncated into another file's name: no run.txt */
	if (slash ? snprintf(path, sizeof(path), "%.*s/run.txt", (int)(slash - logpath), logpath) >=
			    (int)sizeof(path)
		  : snprintf(path, sizeof(path), "run.txt") < 0)
		return;
	f = mess_text_open(path); /* a FIFO named run.txt would block */
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "target: ", 8) == 0) {
			set_target(ri, line + 8, strcspn(line + 8, " \r\n"), "run.txt");
			break;
		}
	}
	fclose(f);
}

const char *run_info_warning(const struct run_info *ri)
{
	if (ri->timing == 0)
		return "QEMU: no memory timing (the cycle counter follows the host clock; "
		       "latencies, cache levels and bandwidths are not the memory system's)";
	return NULL;
}

double chase_median_ns(const struct rvm_log *log)
{
	size_t n = rvm_log_count(log, "chase"), k = 0, it = 0;
	const struct rvm_rec *r;
	double *v, med;

	if (!n)
		return NAN;
	v = xrealloc(NULL, n * sizeof(*v));
	while ((r = rvm_log_next(log, "chase", &it))) {
		uint64_t loads, ns;

		if (logrec_u64(r, "loads", &loads) == 0 && logrec_u64(r, "ns", &ns) == 0 && loads)
			v[k++] = (double)ns / (double)loads;
	}
	med = k ? rvm_median(v, k) : NAN;
	free(v);
	return med;
}

/* A header field: a number when `numeric` and it reads as one, else a
 * string (a version is a string even when its hash is all digits). */
static void hdr_member(struct json *j, const struct rvm_log *log, const char *key, int numeric)
{
	const char *v = log->has_hdr ? logrec_get(&log->recs[0], key) : NULL;
	uint64_t u;

	if (numeric && v && rvm_parse_u64(v, &u) == 0 && v[0] != '0')
		json_u64(j, key, u);
	else
		json_str(j, key, v);
}

static void levels(struct json *j, const struct cache_levels *cl)
{
	json_arr(j, "cache_levels");
	for (size_t i = 0; cl && i < cl->n; i++) {
		const struct plateau *p = &cl->lv[i];
		char name[32];
		uint64_t cap;
		int known = cache_level_capacity(cl, i, &cap);

		cache_level_name(name, sizeof(name), cl, i);
		json_obj(j, NULL);
		json_str(j, "level", name);
		json_u64(j, "first_size_bytes", p->size_first);
		json_u64(j, "last_size_bytes", p->size_last);
		if (known)
			json_u64(j, "capacity_bytes", cap);
		else
			json_null(j, "capacity_bytes");
		json_num(j, "ns_per_load", p->y, 3);
		json_num(j, "cycles_per_load", p->y2, 3);
		json_u64(j, "points", p->points);
		json_close(j);
	}
	json_close(j);
}

/* The Mess metrics of the log's mess records (as mess_metrics.txt), or null. */
static void mess(struct json *j, const struct rvm_log *log, double peak)
{
	struct mess_sample *s;
	struct mess_family f;
	struct mess_metrics m;
	long n = mess_collect(log, NULL, &s, NULL, 0);

	if (n <= 0 || mess_family_build(s, (size_t)n, &f) < 0) {
		free(s);
		json_null(j, "mess");
		return;
	}
	free(s);
	if (peak <= 0)
		peak = mess_log_peak_gbps(log);
	if (mess_metrics(&f, peak, 0, &m) < 0) {
		mess_family_free(&f);
		json_null(j, "mess");
		return;
	}
	json_obj(j, "mess");
	json_num(j, "unloaded_latency_ns", m.unloaded_lat_ns, 3);
	if (m.sat_curves) {
		json_num(j, "saturated_bw_min_gbps", m.sat_bw_min, 3);
		json_num(j, "saturated_bw_max_gbps", m.sat_bw_max, 3);
	} else {
		json_null(j, "saturated_bw_min_gbps");
		json_null(j, "saturated_bw_max_gbps");
	}
	json_u64(j, "saturated_curves", m.sat_curves);
	json_num(j, "max_latency_min_ns", m.max_lat_min, 3);
	json_num(j, "max_latency_max_ns", m.max_lat_max, 3);
	if (m.peak_gbps > 0)
		json_num(j, "peak_gbps", m.peak_gbps, 3);
	else
		json_null(j, "peak_gbps");
	json_u64(j, "wave_curves", m.wave_curves);
	json_arr(j, "curves");
	for (size_t i = 0; i < m.ncurves; i++) {
		const struct mess_curve_metrics *c = &m.curve[i];

		json_obj(j, NULL);
		json_u64(j, "store_pct", c->store_pct);
		json_u64(j, "read_pct", c->read_pct_rounded);
		json_u64(j, "points", f.curve[i].n);
		if (c->saturated)
			json_num(j, "saturated_bw_gbps", c->sat_bw, 3);
		else
			json_null(j, "saturated_bw_gbps");
		json_num(j, "max_bw_gbps", c->max_bw, 3);
		json_num(j, "max_latency_ns", c->max_lat, 3);
		json_bool(j, "wave", c->wave);
		json_close(j);
	}
	json_close(j);
	json_close(j);
	mess_metrics_free(&m);
	mess_family_free(&f);
}

struct type_count {
	const char *type;
	size_t first, n;        /* index of its first record, how many */
};

static int cmp_rec_type(const void *a, const void *b)
{
	const struct rvm_rec *x = *(const struct rvm_rec *const *)a, *y = *(const struct rvm_rec *const *)b;
	int c = strcmp(x->type, y->type);

	return c ? c : (x > y) - (x < y);
}

static int cmp_first(const void *a, const void *b)
{
	const struct type_count *x = a, *y = b;

	return (x->first > y->first) - (x->first < y->first);
}

/* "records_by_type": {type: count} in order of first appearance; n log n
 * however many (unknown) types the log holds: the records grouped by
 * sorting, the groups put back in line order. */
static void records_by_type(struct json *j, const struct rvm_log *log)
{
	size_t n = log->nrecs, ng = 0;
	const struct rvm_rec **p = xrealloc(NULL, (n ? n : 1) * sizeof(*p));
	struct type_count *g = xrealloc(NULL, (n ? n : 1) * sizeof(*g));

	for (size_t i = 0; i < n; i++)
		p[i] = &log->recs[i];
	if (n)
		qsort(p, n, sizeof(*p), cmp_rec_type);
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || strcmp(p[i]->type, p[i - 1]->type) != 0)
			g[ng++] = (struct type_count){ p[i]->type, (size_t)(p[i] - log->recs), 0 };
		g[ng - 1].n++;
	}
	if (ng)
		qsort(g, ng, sizeof(*g), cmp_first);
	json_obj(j, "records_by_type");
	for (size_t i = 0; i < ng; i++)
		json_u64(j, g[i].type, g[i].n);
	json_close(j);
	free(p);
	free(g);
}

int write_summary_json(const struct summary_in *in, struct outdir *od, const char *name)
{
	const struct rvm_log *log = in->log;
	const struct cache_levels *cl = in->levels;
	FILE *f = outdir_create(od, name);
	struct json j;
	int rc;

	if (!f)
		return -1;
	json_begin(&j, f);
	json_str(&j, "log", log->path);
	json_obj(&j, "run");
	json_str(&j, "target", in->run->target[0] ? in->run->target : NULL);
	json_str(&j, "target_from", in->run->source);
	if (in->run->timing < 0)
		json_null(&j, "memory_timing");
	else
		json_bool(&j, "memory_timing", in->run->timing);
	json_str(&j, "warning", run_info_warning(in->run));
	json_close(&j);
	json_obj(&j, "image");
	hdr_member(&j, log, "platform", 0);
	hdr_member(&j, log, "mode", 0);
	hdr_member(&j, log, "harts", 1);
	hdr_member(&j, log, "cpu_hz", 1);
	hdr_member(&j, log, "timebase", 1);
	hdr_member(&j, log, "version", 0);
	json_close(&j);
	json_obj(&j, "counts");
	json_u64(&j, "lines", log->lines);
	json_u64(&j, "good", log->nrecs);
	json_u64(&j, "bad", log->bad);
	json_u64(&j, "missing", log->missing);
	json_u64(&j, "duplicate", log->duplicates);
	json_u64(&j, "conflicting", log->conflicts);
	json_u64(&j, "unknown_types", log->unknown);
	json_u64(&j, "invalid_fields", in->invalid);
	json_u64(&j, "harts", log->harts);
	records_by_type(&j, log);
	json_close(&j);
	json_bool(&j, "complete", log->complete);
	json_str(&j, "status", rvm_status_name(log->status));
	json_bool(&j, "clean", in->clean);
	levels(&j, cl);
	json_obj(&j, "unloaded_latency_ns");
	if (cl && cl->n && cache_level_is_memory(cl, cl->n - 1))
		json_num(&j, "lat_memory", cl->lv[cl->n - 1].y, 3);
	else
		json_null(&j, "lat_memory");
	json_num(&j, "chase_median", chase_median_ns(log), 3);
	json_close(&j);
	mess(&j, log, in->peak_gbps);
	rc = json_end(&j);
	if (outdir_close(od, f) != 0)
		return -1;
	if (rc < 0) {
		errno = EIO;
		return -1;
	}
	return 0;
}
