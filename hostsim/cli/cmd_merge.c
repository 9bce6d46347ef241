/*
 * rvmess merge PLAN -o OUT: the per-job logs of a plan directory as one
 * family per configuration, with every output parse writes (docs/sweeps.md).
 * rvmess merge PLAN --todo: the jobs whose log is missing or incomplete.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmds.h"
#include "cli/curves.h"
#include "cli/mess_out.h"
#include "cli/out.h"
#include "cli/plan.h"
#include "cli/sweep.h"

#define USAGE "usage: rvmess merge PLAN -o OUT [--quiet] [--peak GBPS] [--issued]\n" \
	      "       rvmess merge PLAN --todo\n"

static int usage(void)
{
	fprintf(stderr, USAGE "(rvmess merge --help explains)\n");
	return 2;
}

static int help(void)
{
	printf(USAGE
	       "Read every job log of the plan directory PLAN (PLAN/logs/<job>.log), validate each as\n"
	       "`rvmess parse` does, name every planned point that is missing, failed (the image\n"
	       "reported an error after it) or duplicated, and write the good points as one family\n"
	       "per configuration: OUT/merged.log and every file parse writes (with several\n"
	       "configurations: OUT/<name>/ each, plus OUT/compare.csv and OUT/compare.txt side by\n"
	       "side).  --quiet, --peak and --issued go to parse.\n"
	       "--todo prints the ids of the jobs whose log is missing, incomplete or damaged, one a\n"
	       "line: what a resumed run runs.\n"
	       "Exit status: 0 every point good and every parse clean; 1 points missing, failed or\n"
	       "duplicated, or a parse not clean (the outputs are written anyway); 2 usage or I/O\n"
	       "error, or a manifest with problems (each named as FILE:LINE: reason).\n");
	return 0;
}

static const char *job_state(const struct rvm_log *g)
{
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

/* metrics of a merged log, for compare.txt */
static int family_metrics(const char *logpath, struct mess_metrics *m)
{
	struct rvm_log g;
	struct mess_sample *s = NULL;
	struct mess_family f = { 0 };
	long n;
	int rc = -1;

	if (rvm_log_read(logpath, NULL, &g) < 0)
		return -1;
	n = mess_collect(&g, NULL, &s, NULL, 0);
	if (n > 0 && mess_family_build(s, (size_t)n, &f) == 0) {
		rc = mess_metrics(&f, mess_log_peak_gbps(&g) , MESS_WAVE_TOL, m);
		mess_family_free(&f);
	}
	free(s);
	rvm_log_free(&g);
	return rc;
}

static int write_compare(const struct sweep_logs *L, const struct plan *p, const char *out, char dirs[][PATH_MAX])
{
	struct outdir od;
	FILE *f;

	if (outdir_open(&od, out, "merge") < 0)
		goto fail;
	f = outdir_create(&od, "compare.csv");
	if (!f)
		goto fail_od;
	fprintf(f, "mix,pause");
	for (size_t c = 0; c < p->nconfigs; c++)
		fprintf(f, ",%s_lat_ns,%s_bw_gbps", p->configs[c].name, p->configs[c].name);
	fputc('\n', f);
	{
		unsigned mix[PLAN_MAX_LIST];
		uint64_t pause[PLAN_MAX_LIST];
		size_t nm = 0, np = 0;

		for (size_t i = 0; i < L->set.n; i++) {
			size_t k;

			for (k = 0; k < nm && mix[k] != L->set.pt[i].mix; k++)
				;
			if (k == nm && nm < PLAN_MAX_LIST)
				mix[nm++] = L->set.pt[i].mix;
			for (k = 0; k < np && pause[k] != L->set.pt[i].pause; k++)
				;
			if (k == np && np < PLAN_MAX_LIST)
				pause[np++] = L->set.pt[i].pause;
		}
		for (size_t k = 1; k < np; k++)
			for (size_t q = k; q > 0 && pause[q] < pause[q - 1]; q--) {
				uint64_t t = pause[q];

				pause[q] = pause[q - 1];
				pause[q - 1] = t;
			}
		for (size_t a = 0; a < nm; a++)
			for (size_t b = 0; b < np; b++) {
				int any = 0;
				char row[4096];
				int n = snprintf(row, sizeof(row), "%u,%llu", mix[a], (unsigned long long)pause[b]);

				for (size_t c = 0; c < p->nconfigs; c++) {
					double lat, bw;

					if (sweep_point_value(L, p, (unsigned)c, mix[a], pause[b], &lat, &bw) == 0) {
						n += snprintf(row + n, sizeof(row) - (size_t)n, ",%.3f,%.3f", lat, bw);
						any = 1;
					} else {
						n += snprintf(row + n, sizeof(row) - (size_t)n, ",,");
					}
				}
				if (any)
					fprintf(f, "%s\n", row);
			}
	}
	if (outdir_close(&od, f) < 0)
		goto fail_od;
	f = outdir_create(&od, "compare.txt");
	if (!f)
		goto fail_od;
	fprintf(f, "%-12s %12s %22s %22s %6s  %s\n", "config", "unloaded_ns", "sat_bw_gbps(min-max)",
		"max_lat_ns(min-max)", "waves", "hostsim options");
	for (size_t c = 0; c < p->nconfigs; c++) {
		struct mess_metrics m;
		char path[PATH_MAX + 16];

		snprintf(path, sizeof(path), "%s/merged.log", dirs[c]);
		if (family_metrics(path, &m) < 0) {
			fprintf(f, "%-12s %12s %22s %22s %6s  %s\n", p->configs[c].name, "-", "-", "-", "-",
				p->configs[c].sim);
			continue;
		}
		fprintf(f, "%-12s %12.1f %10.2f-%-11.2f %10.1f-%-11.1f %6u  %s\n", p->configs[c].name,
			m.unloaded_lat_ns, m.sat_bw_min, m.sat_bw_max, m.max_lat_min, m.max_lat_max, m.wave_curves,
			p->configs[c].sim);
		mess_metrics_free(&m);
	}
	if (outdir_close(&od, f) < 0)
		goto fail_od;
	return outdir_commit(&od) < 0 ? -1 : 0;
fail_od:
	fprintf(stderr, "rvmess merge: %s\n", outdir_error(&od));
	outdir_abort(&od);
	return -1;
fail:
	fprintf(stderr, "rvmess merge: %s\n", outdir_error(&od));
	return -1;
}

int cmd_merge(int argc, char **argv)
{
	const char *plandir = NULL, *out = NULL, *peak = NULL;
	int todo = 0, quiet = 0, issued = 0, rc = 0;
	struct plan p;
	struct sweep_logs L;
	struct merge_counts mc;
	char path[PATH_MAX];
	char (*dirs)[PATH_MAX] = NULL;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return help();
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			out = argv[++i];
		else if (strcmp(argv[i], "--peak") == 0 && i + 1 < argc)
			peak = argv[++i];
		else if (strcmp(argv[i], "--todo") == 0)
			todo = 1;
		else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0)
			quiet = 1;
		else if (strcmp(argv[i], "--issued") == 0)
			issued = 1;
		else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "rvmess merge: unknown option (or one without its value) '%s'\n", argv[i]);
			return usage();
		} else if (!plandir)
			plandir = argv[i];
		else {
			fprintf(stderr, "rvmess merge: unexpected argument '%s'\n", argv[i]);
			return usage();
		}
	}
	if (!plandir || (!out && !todo) || (out && todo))
		return usage();
	snprintf(path, sizeof(path), "%s/%s", plandir, PLAN_MANIFEST);
	switch (plan_read_file(path, stderr, &p)) {
	case 0:
		break;
	case -1:
		fprintf(stderr, "rvmess merge: %s: %s\n", path, strerror(errno));
		return 2;
	default:
		fprintf(stderr, "rvmess merge: %s: not a usable plan (problems above)\n", path);
		return 2;
	}
	sweep_logs_read(&L, &p, plandir, todo ? NULL : stderr);
	if (todo) {
		for (size_t i = 0; i < p.njobs; i++)
			if (!merge_log_done(L.log[i]))
				printf("%zu\n", i);
		goto done;
	}

	/* the report: jobs, then points */
	for (size_t i = 0; i < p.njobs; i++) {
		const char *st = job_state(L.log[i]);

		if (st)
			fprintf(stderr, "rvmess merge: job %zu (%s/logs/%zu.log): %s\n", i, plandir, i, st);
		else if (L.log[i]->status != RVM_STATUS_OK)
			fprintf(stderr, "rvmess merge: job %zu (%s/logs/%zu.log): the run ended with status=fail\n", i,
				plandir, i);
	}
	for (size_t i = 0; i < L.set.n; i++) {
		const struct merge_point *q = &L.set.pt[i];
		char name[96];

		if (q->state == PT_GOOD && q->copies <= 1)
			continue;
		plan_point_name(&p, q->config, q->mix, q->pause, q->rep, name, sizeof(name));
		if (q->state == PT_GOOD)
			fprintf(stderr, "rvmess merge: %s: duplicated (%u records; the one in job %u's log is kept)\n",
				name, q->copies, q->from_job);
		else
			fprintf(stderr, "rvmess merge: %s: %s (job %u: %s)\n", name,
				q->state == PT_FAILED ? "failed" : "missing", q->job, q->why);
	}
	merge_count(&L.set, &mc);

	dirs = calloc(p.nconfigs, sizeof(*dirs));
	if (!dirs)
		abort();
	for (size_t c = 0; c < p.nconfigs; c++) {
		char logpath[PATH_MAX + 16], tmp[PATH_MAX + 32];
		FILE *f;
		long n;
		int prc;

		if (p.nconfigs == 1)
			snprintf(dirs[c], PATH_MAX, "%s", out);
		else
			snprintf(dirs[c], PATH_MAX, "%s/%s", out, p.configs[c].name);
		if (mkdir_p(dirs[c]) < 0) {
			fprintf(stderr, "rvmess merge: %s: %s\n", dirs[c], strerror(errno));
			rc = 2;
			goto done;
		}
		snprintf(logpath, sizeof(logpath), "%s/merged.log", dirs[c]);
		snprintf(tmp, sizeof(tmp), "%s/.merged.log.tmp", dirs[c]);
		f = fopen(tmp, "w");
		if (!f) {
			fprintf(stderr, "rvmess merge: %s: %s\n", tmp, strerror(errno));
			rc = 2;
			goto done;
		}
		n = sweep_write_merged(&L, &p, (unsigned)c, f);
		if (fclose(f) != 0 || n < 0) {
			unlink(tmp);
			if (n < 0)
				fprintf(stderr, "rvmess merge: configuration %s: no job log with a hdr record: nothing to merge\n",
					p.configs[c].name);
			else
				fprintf(stderr, "rvmess merge: %s: %s\n", tmp, strerror(errno));
			rc = 2;
			continue;
		}
		if (rename(tmp, logpath) < 0) {
			fprintf(stderr, "rvmess merge: %s: %s\n", logpath, strerror(errno));
			unlink(tmp);
			rc = 2;
			continue;
		}
		{
			char *pa[12];
			int na = 0;

			pa[na++] = "parse";
			pa[na++] = logpath;
			pa[na++] = "-o";
			pa[na++] = dirs[c];
			pa[na++] = "--target";
			pa[na++] = p.target;
			if (quiet)
				pa[na++] = "--quiet";
			if (issued)
				pa[na++] = "--issued";
			if (peak) {
				pa[na++] = "--peak";
				pa[na++] = (char *)peak;
			}
			pa[na] = NULL;
			if (p.nconfigs > 1)
				printf("rvmess merge: configuration %s (%s)\n", p.configs[c].name, p.configs[c].sim);
			fflush(stdout);
			prc = cmd_parse(na, pa);
		}
		if (prc == 2)
			rc = 2;
		else if (prc != 0 && rc == 0)
			rc = 1;
	}
	if (p.nconfigs > 1 && rc != 2 && write_compare(&L, &p, out, dirs) < 0)
		rc = 2;
	if (rc == 0 && (mc.missing || mc.failed || mc.duplicated || L.set.unexpected))
		rc = 1;
	printf("rvmess merge: points=%zu good=%zu missing=%zu failed=%zu duplicated=%zu unexpected=%zu configurations=%zu\n",
	       L.set.n, mc.good, mc.missing, mc.failed, mc.duplicated, L.set.unexpected, p.nconfigs);
done:
	free(dirs);
	sweep_logs_free(&L);
	plan_free(&p);
	return rc;
}
