/*
 * rvmess-adapt-replay LOG [PCT ...]: how many points adaptive pause placement
 * (rvmess plan --adaptive, hostsim/cli/plan.c) needs to reproduce a measured
 * family's Mess metrics, against a uniform subset of its pause grid.
 *
 * LOG is a one-boot run of the full grid.  Placement is replayed on it: a
 * point "measured" by the placement takes its value from the log (what a
 * per-point plan would measure, up to the per-point-vs-one-boot difference
 * docs/sweeps.md reports).  For each tolerance PCT (default 1 2 5 10 20) and
 * each coarse start 3..5: the points placed and the metrics of the family they
 * make (unloaded latency, saturated-bandwidth range, maximum-latency range)
 * relative to the full family's.  Then the uniform subsets: k of the n pauses
 * per curve, evenly spaced with both ends (adapt_coarse), k = 2..n.  The last
 * lines name the fewest points within 2 % of every metric, both ways.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/curves.h"
#include "cli/log.h"
#include "cli/mess_out.h"
#include "cli/plan.h"

#define MAXC 64
#define MAXP PLAN_MAX_LIST

struct curve {
	unsigned mix;
	size_t n;
	uint64_t pause[MAXP];
	double lat[MAXP], bw[MAXP];
};

static struct mess_sample *S;
static size_t NS;
static struct curve C[MAXC];
static size_t NC;

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static struct curve *curve_of(unsigned mix)
{
	for (size_t i = 0; i < NC; i++)
		if (C[i].mix == mix)
			return &C[i];
	if (NC == MAXC)
		return NULL;
	C[NC].mix = mix;
	return &C[NC++];
}

/* the mean of a point's samples */
static void point_value(unsigned mix, uint64_t pause, double *lat, double *bw)
{
	double l = 0, b = 0;
	unsigned n = 0;

	for (size_t i = 0; i < NS; i++)
		if (S[i].store_pct == mix && S[i].pause == pause) {
			l += S[i].lat_ns;
			b += S[i].bw_gbps;
			n++;
		}
	*lat = n ? l / n : 0;
	*bw = n ? b / n : 0;
}

/* metrics of the family made of the chosen points (have[c][i]) */
static int metrics_of(int have[][MAXP], struct mess_metrics *m)
{
	struct mess_sample *sub = malloc((NS ? NS : 1) * sizeof(*sub));
	struct mess_family f = { 0 };
	size_t n = 0;
	int rc;

	if (!sub)
		abort();
	for (size_t i = 0; i < NS; i++)
		for (size_t c = 0; c < NC; c++)
			if (C[c].mix == S[i].store_pct)
				for (size_t k = 0; k < C[c].n; k++)
					if (C[c].pause[k] == S[i].pause && have[c][k])
						sub[n++] = S[i];
	rc = mess_family_build(sub, n, &f) == 0 && mess_metrics(&f, 0, MESS_WAVE_TOL, m) == 0 ? 0 : -1;
	mess_family_free(&f);
	free(sub);
	return rc;
}

static double rel(double a, double b)
{
	return b != 0 ? fabs(a - b) / fabs(b) : (a != 0);
}

/* the largest relative metric error against the full family; prints them */
static double report(const char *what, size_t points, const struct mess_metrics *m, const struct mess_metrics *full)
{
	double e[5] = { rel(m->unloaded_lat_ns, full->unloaded_lat_ns), rel(m->sat_bw_min, full->sat_bw_min),
			rel(m->sat_bw_max, full->sat_bw_max), rel(m->max_lat_min, full->max_lat_min),
			rel(m->max_lat_max, full->max_lat_max) };
	double w = 0;

	for (int i = 0; i < 5; i++)
		w = fmax(w, e[i]);
	printf("%-26s %4zu  %8.2f  %6.2f-%-6.2f  %7.1f-%-7.1f  %5.2f %5.2f %5.2f %5.2f %5.2f  %5.2f\n", what, points,
	       m->unloaded_lat_ns, m->sat_bw_min, m->sat_bw_max, m->max_lat_min, m->max_lat_max, 100 * e[0],
	       100 * e[1], 100 * e[2], 100 * e[3], 100 * e[4], 100 * w);
	return w;
}

int main(int argc, char **argv)
{
	struct rvm_log g;
	struct mess_metrics full;
	static int have[MAXC][MAXP];
	double tols[16] = { 1, 2, 5, 10, 20 };
	int ntol = 5;
	size_t full_n = 0, best_ad = 0, best_un = 0;
	char best_ad_what[64] = "none";
	long n;

	if (argc < 2) {
		fprintf(stderr, "usage: rvmess-adapt-replay LOG [PCT ...]\n");
		return 2;
	}
	if (argc > 2) {
		ntol = 0;
		for (int i = 2; i < argc && ntol < 16; i++)
			tols[ntol++] = atof(argv[i]);
	}
	if (rvm_log_read(argv[1], stderr, &g) < 0) {
		perror(argv[1]);
		return 2;
	}
	n = mess_collect(&g, stderr, &S, NULL, 0);
	if (n <= 0) {
		fprintf(stderr, "%s: no mess records\n", argv[1]);
		return 2;
	}
	NS = (size_t)n;
	for (size_t i = 0; i < NS; i++) {
		struct curve *c = curve_of(S[i].store_pct);
		size_t k;

		if (!c)
			continue;
		for (k = 0; k < c->n && c->pause[k] != S[i].pause; k++)
			;
		if (k == c->n && c->n < MAXP)
			c->pause[c->n++] = S[i].pause;
	}
	for (size_t c = 0; c < NC; c++) {
		qsort(C[c].pause, C[c].n, sizeof(uint64_t), cmp_u64);
		for (size_t k = 0; k < C[c].n; k++) {
			point_value(C[c].mix, C[c].pause[k], &C[c].lat[k], &C[c].bw[k]);
			have[c][k] = 1;
		}
		full_n += C[c].n;
	}
	if (metrics_of(have, &full) < 0) {
		fprintf(stderr, "%s: no metrics\n", argv[1]);
		return 2;
	}
	printf("%-26s %4s  %8s  %13s  %15s  %-29s  %s\n", "placement", "pts", "unl_ns", "sat_bw_GB/s", "max_lat_ns",
	       "error % (unl sat- sat+ max- max+)", "worst");
	report("full grid", full_n, &full, &full);
	for (int t = 0; t < ntol; t++)
		for (size_t coarse = 3; coarse <= 5; coarse++) {
			struct mess_metrics m;
			size_t pts = 0;
			char what[64];

			for (size_t c = 0; c < NC; c++) {
				size_t idx[MAXP], k;
				struct adapt_curve ac = { C[c].n, C[c].pause, have[c], C[c].lat, C[c].bw };

				memset(have[c], 0, sizeof(have[c]));
				k = adapt_coarse(C[c].n, coarse, idx);
				for (size_t i = 0; i < k; i++)
					have[c][idx[i]] = 1;
				while ((k = adapt_next(&ac, tols[t] / 100, C[c].n, idx, MAXP)) > 0)
					for (size_t i = 0; i < k; i++)
						have[c][idx[i]] = 1;
				for (size_t i = 0; i < C[c].n; i++)
					pts += have[c][i];
			}
			snprintf(what, sizeof(what), "adaptive tol %g%% coarse %zu", tols[t], coarse);
			if (metrics_of(have, &m) == 0) {
				if (report(what, pts, &m, &full) <= 0.02 && (!best_ad || pts < best_ad)) {
					best_ad = pts;
					snprintf(best_ad_what, sizeof(best_ad_what), "%s", what);
				}
				mess_metrics_free(&m);
			}
		}
	for (size_t k = 2; k <= C[0].n; k++) {
		struct mess_metrics m;
		size_t pts = 0;
		char what[64];

		for (size_t c = 0; c < NC; c++) {
			size_t idx[MAXP], q = adapt_coarse(C[c].n, k, idx);

			memset(have[c], 0, sizeof(have[c]));
			for (size_t i = 0; i < q; i++)
				have[c][idx[i]] = 1;
			pts += q;
		}
		snprintf(what, sizeof(what), "uniform %zu per curve", k);
		if (metrics_of(have, &m) == 0) {
			if (report(what, pts, &m, &full) <= 0.02 && !best_un)
				best_un = pts;
			mess_metrics_free(&m);
		}
	}
	printf("fewest points within 2 %% of every metric: adaptive %zu (%s), uniform %zu, full grid %zu\n", best_ad,
	       best_ad_what, best_un, full_n);
	mess_metrics_free(&full);
	free(S);
	rvm_log_free(&g);
	return 0;
}
