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
#include "cli/estimate.h"
#include "cli/mess_out.h"
#include "cli/out.h"
#include "cli/plan.h"
#include "cli/sweep.h"
#include "cli/util.h"

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
	       "`rvmess parse` does, refuse one that is not the job's (the runner's first line, the\n"
	       "cfg record against the plan), name every planned point that is missing, failed (the\n"
	       "image reported an error after it) or duplicated, and write the good points as one family\n"
	       "per configuration: OUT/merged.log and every file parse writes (with several\n"
	       "configurations: OUT/<name>/ each, plus OUT/compare.csv and OUT/compare.txt side by\n"
	       "side).  --quiet, --peak and --issued go to parse.\n"
	       "--todo prints the ids of the jobs whose log is missing, incomplete or damaged, one a\n"
	       "line: what a resumed run runs.\n"
	       "All of OUT is replaced at once.  A plan of an RTL target has its estimates printed against\n"
	       "the truth (each job's PLAN/runs/<job>/sim.txt).\n"
	       "Exit status: 0 every job's log done and the plan's, every point good, every parse\n"
	       "clean; 1 otherwise: a job --todo lists, points missing, failed or duplicated (the\n"
	       "outputs are written anyway, the merged log ends with status=fail); 2 usage or I/O\n"
	       "error, or a manifest with problems (each named as FILE:LINE: reason).\n");
	return 0;
}

/* metrics of a merged log (in memory), for compare.txt */
static int family_metrics(const char *buf, size_t len, struct mess_metrics *m)
{
	struct rvm_log g;
	struct mess_sample *s = NULL;
	struct mess_family f = { 0 };
	long n;
	int rc = -1;

	if (!buf || rvm_log_read_mem("merged.log", buf, len, NULL, &g) < 0)
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

/* compare.csv and compare.txt into od (OUT), from the merged logs in memory */
static int write_compare(const struct sweep_logs *L, const struct plan *p, struct outdir *od, char **mbuf,
			 size_t *mlen)
{
	FILE *f = outdir_create(od, "compare.csv");

	if (!f)
		return -1;
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
	if (outdir_close(od, f) < 0)
		return -1;
	f = outdir_create(od, "compare.txt");
	if (!f)
		return -1;
	fprintf(f, "%-12s %12s %22s %22s %6s  %s\n", "config", "unloaded_ns", "sat_bw_gbps(min-max)",
		"max_lat_ns(min-max)", "waves", "hostsim options");
	for (size_t c = 0; c < p->nconfigs; c++) {
		struct mess_metrics m;

		if (family_metrics(mbuf[c], mlen[c], &m) < 0) {
			fprintf(f, "%-12s %12s %22s %22s %6s  %s\n", p->configs[c].name, "-", "-", "-", "-",
				p->configs[c].sim);
			continue;
		}
		fprintf(f, "%-12s %12.1f %10.2f-%-11.2f %10.1f-%-11.1f %6u  %s\n", p->configs[c].name,
			m.unloaded_lat_ns, m.sat_bw_min, m.sat_bw_max, m.max_lat_min, m.max_lat_max, m.wave_curves,
			p->configs[c].sim);
		mess_metrics_free(&m);
	}
	return outdir_close(od, f);
}

/* Is configuration c's set whole: every job of it with a done log of the
 * plan, every point good, none twice, nothing unplanned?  (merge --todo
 * lists a job exactly when it makes this 0.) */
static int config_clean(const struct sweep_logs *L, const struct plan *p, unsigned c)
{
	for (size_t i = 0; i < p->njobs; i++)
		if (p->jobs[i].config == c && sweep_job_state(L, i))
			return 0;
	for (size_t i = 0; i < L->set.n; i++)
		if (L->set.pt[i].config == c && (L->set.pt[i].state != PT_GOOD || L->set.pt[i].copies > 1))
			return 0;
	return L->set.unexpected == 0;
}

int cmd_merge(int argc, char **argv)
{
	const char *plandir = NULL, *out = NULL, *peak = NULL;
	int todo = 0, rc = 0, read_rc;
	struct plan p;
	struct sweep_logs L;
	struct merge_counts mc;
	struct parse_opts po;
	struct parse_report *rep = NULL;
	struct outdir od;
	char path[PATH_MAX];
	char **mbuf = NULL;
	size_t *mlen = NULL, njobs_bad = 0, nforeign = 0, nmerged = 0;

	parse_opts_default(&po);
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
			po.quiet = 1;
		else if (strcmp(argv[i], "--issued") == 0)
			po.issued = 1;
		else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "rvmess merge: unknown option (or one without its value) '" TOKF "'\n", TOKA(argv[i]));
			return usage();
		} else if (!plandir)
			plandir = argv[i];
		else {
			fprintf(stderr, "rvmess merge: unexpected argument '" TOKF "'\n", TOKA(argv[i]));
			return usage();
		}
	}
	if (!plandir || (!out && !todo) || (out && todo))
		return usage();
	if (peak && mess_parse_peak(peak, &po.peak) < 0) {
		fprintf(stderr, "rvmess merge: --peak wants a bandwidth in GB/s in 0.001..%g, got '" TOKF "'\n",
			MESS_MAX_GBPS, TOKA(peak));
		return 2;
	}
	if (!path_join(path, sizeof(path), plandir, PLAN_MANIFEST)) {
		fprintf(stderr, "rvmess merge: %s: %s\n", plandir, strerror(errno));
		return 2;
	}
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
	read_rc = sweep_logs_read(&L, &p, plandir, todo ? NULL : stderr);
	if (read_rc < 0) {
		if (todo) /* (merge said why without --todo) */
			fprintf(stderr, "rvmess merge: %s/base.elf is needed to check the job logs: cannot say which "
				"jobs are done\n", plandir);
		rc = 2;
		goto done;
	}
	if (todo) {
		for (size_t i = 0; i < p.njobs; i++)
			if (sweep_job_state(&L, i))
				printf("%zu\n", i);
		if (fflush(stdout) != 0 || ferror(stdout))
			rc = 2;
		goto done;
	}

	/* the report: jobs, then points */
	for (size_t i = 0; i < p.njobs; i++) {
		const char *st = sweep_job_state(&L, i);

		if (st) {
			njobs_bad++;
			nforeign += L.why[i] != NULL;
			fprintf(stderr, "rvmess merge: job %zu (%s/logs/%zu.log): %s%s\n", i, plandir, i,
				L.why[i] ? "refused: " : "", st);
		} else if (L.log[i]->status != RVM_STATUS_OK)
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

	/* every output, one set: merged.log and parse's files per configuration,
	 * compare.csv and compare.txt, committed at once */
	if (outdir_open(&od, out, "merge") < 0) {
		fprintf(stderr, "rvmess merge: %s\n", outdir_error(&od));
		rc = 2;
		goto done;
	}
	outdir_input(&od, path);
	for (size_t i = 0; i < p.njobs; i++) {
		char lp[PATH_MAX];

		snprintf(lp, sizeof(lp), "%s/logs/%zu.log", plandir, i);
		outdir_input(&od, lp);
	}
	rep = calloc(p.nconfigs, sizeof(*rep));
	mbuf = calloc(p.nconfigs, sizeof(*mbuf));
	mlen = calloc(p.nconfigs, sizeof(*mlen));
	if (!rep || !mbuf || !mlen)
		abort();
	for (size_t c = 0; c < p.nconfigs; c++) {
		const char *sub = p.nconfigs == 1 ? NULL : p.configs[c].name;
		struct outdir mv, pv;
		struct rvm_log g;
		char shown[PATH_MAX + 64];
		FILE *mf;
		long n;

		mf = open_memstream(&mbuf[c], &mlen[c]);
		if (!mf)
			abort();
		n = sweep_write_merged(&L, &p, (unsigned)c, config_clean(&L, &p, (unsigned)c), mf);
		fclose(mf);
		if (n < 0) {
			fprintf(stderr, "rvmess merge: configuration %s: no job log with a hdr record: nothing to merge\n",
				p.configs[c].name);
			free(mbuf[c]);
			mbuf[c] = NULL;
			rc = 2;
			continue;
		}
		if (outdir_sub(&mv, &od, sub, "merge") < 0 || outdir_sub(&pv, &od, sub, "parse") < 0)
			goto io_error;
		snprintf(shown, sizeof(shown), "%s/merged.log", mv.dir);
		mf = outdir_create(&mv, "merged.log");
		if (!mf || fwrite(mbuf[c], 1, mlen[c], mf) != mlen[c] || outdir_close(&mv, mf) < 0) {
			outdir_commit(&mv);
			outdir_commit(&pv);
			goto io_error;
		}
		outdir_commit(&mv); /* (a view: frees it) */
		if (rvm_log_read_mem(shown, mbuf[c], mlen[c], stderr, &g) < 0)
			abort();
		po.target = p.target;
		if (parse_into(&g, shown, &pv, &po, &rep[c]) < 0) {
			rvm_log_free(&g);
			outdir_commit(&pv);
			fprintf(stderr, "rvmess merge: nothing in %s was changed\n", out);
			outdir_abort(&od);
			rc = 2;
			goto done;
		}
		rvm_log_free(&g);
		outdir_commit(&pv);
		nmerged++;
		if (rep[c].status == 2)
			rc = 2;
		else if (rep[c].status != 0 && rc == 0)
			rc = 1;
	}
	if (!nmerged) {
		fprintf(stderr, "rvmess merge: nothing in %s was changed\n", out);
		outdir_abort(&od);
		rc = 2;
		goto done;
	}
	if (p.nconfigs > 1 && write_compare(&L, &p, &od, mbuf, mlen) < 0)
		goto io_error;
	if (outdir_commit(&od) < 0) {
		fprintf(stderr, "rvmess merge: %s\n", outdir_error(&od));
		fprintf(stderr, "rvmess merge: nothing in %s was changed\n", out);
		rc = 2;
		goto done;
	}
	for (size_t c = 0; c < p.nconfigs; c++) {
		if (!mbuf[c])
			continue;
		if (p.nconfigs > 1)
			printf("rvmess merge: configuration %s (%s)\n", p.configs[c].name, p.configs[c].sim);
		parse_report_print(&rep[c]);
	}
	if (rc == 0 && (mc.missing || mc.failed || mc.duplicated || L.set.unexpected || njobs_bad))
		rc = 1;
	{
		/* an RTL plan: its estimates against the truth (each job's sim.txt) */
		struct estimate e;
		char ep[PATH_MAX];
		int erc;

		if (path_join(ep, sizeof(ep), plandir, EST_FILE) && access(ep, F_OK) == 0) {
			erc = est_read(ep, stderr, &e);
			if (erc == 0) {
				est_report(&e, &p, plandir, 0, stdout);
				est_free(&e);
			} else {
				fprintf(stderr, "rvmess merge: %s: %s: no estimate against the truth\n", ep,
					erc < 0 ? strerror(errno) : "problems above");
			}
		}
	}
	printf("rvmess merge: points=%zu good=%zu missing=%zu failed=%zu duplicated=%zu unexpected=%zu configurations=%zu"
	       " jobs=%zu todo=%zu refused=%zu result=%s\n",
	       L.set.n, mc.good, mc.missing, mc.failed, mc.duplicated, L.set.unexpected, p.nconfigs, p.njobs, njobs_bad,
	       nforeign, rc == 0 ? "clean" : "unclean");
	goto done;

io_error:
	fprintf(stderr, "rvmess merge: %s\n", outdir_error(&od));
	fprintf(stderr, "rvmess merge: nothing in %s was changed\n", out);
	outdir_abort(&od);
	rc = 2;
done:
	if (rep)
		for (size_t c = 0; c < p.nconfigs; c++)
			parse_report_free(&rep[c]);
	if (mbuf)
		for (size_t c = 0; c < p.nconfigs; c++)
			free(mbuf[c]);
	free(rep);
	free(mbuf);
	free(mlen);
	sweep_logs_free(&L);
	plan_free(&p);
	return rc;
}
