/* rvmess parse LOG -o DIR: validate a console log and write the per-suite
 * files (the writers' table: writers.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd/cmds.h"
#include "cli/csv.h"
#include "cli/integ_out.h"
#include "cli/lat.h"
#include "cli/litmus_out.h"
#include "cli/log.h"
#include "cli/mess_out.h"
#include "cli/out.h"
#include "cli/summary.h"
#include "cli/svg.h"
#include "cli/writers.h"
#include "rvmess/records.h"

static int write_records_csv(const struct rvm_log *log, struct outdir *od)
{
	struct csv c;

	if (csv_open(&c, od, "records.csv",
		     "line,seq,type,hart,fields") < 0)
		return -1;
	for (size_t i = 0; i < log->nrecs; i++) {
		const struct rvm_rec *r = &log->recs[i];
		size_t n = 1;
		char *f, *p;

		for (size_t k = 0; k < r->nfields; k++)
			n += strlen(r->fields[k].key) + strlen(r->fields[k].val) + 2;
		f = p = malloc(n);
		if (!f)
			abort();
		for (size_t k = 0; k < r->nfields; k++) {
			size_t kn = strlen(r->fields[k].key), vn = strlen(r->fields[k].val);

			if (k)
				*p++ = ' ';
			memcpy(p, r->fields[k].key, kn);
			p[kn] = '=';
			memcpy(p + kn + 1, r->fields[k].val, vn);
			p += kn + 1 + vn;
		}
		*p = '\0';
		csv_u64(&c, r->line);
		csv_u64(&c, r->seq);
		csv_str(&c, r->type);
		csv_u64(&c, r->hart);
		csv_str(&c, f);
		csv_row_end(&c);
		free(f);
	}
	return csv_close(&c);
}

static const char *hdr_field(const struct rvm_log *log, const char *key)
{
	const char *v = NULL;

	if (log->has_hdr)
		v = logrec_get(&log->recs[0], key);
	return v ? v : "-";
}

static int write_summary(const struct rvm_log *log, struct outdir *od, size_t invalid,
			 const char *files, int clean, const struct run_info *ri,
			 const struct litmus_sum *lit, const struct integ_sum *ig)
{
	FILE *f = outdir_create(od, "summary.txt");

	if (!f)
		return -1;
	fprintf(f, "log: %s\n", log->path);
	fprintf(f, "lines: %lu\n", log->lines);
	fprintf(f, "good: %zu\nbad: %zu\nmissing: %llu\nduplicate: %zu\nconflicting: %zu\n",
		log->nrecs, log->bad, (unsigned long long)log->missing, log->duplicates, log->conflicts);
	fprintf(f, "unknown_types: %zu\ninvalid_fields: %zu\nout_of_order: %zu\n", log->unknown, invalid,
		log->out_of_order);
	fprintf(f, "complete: %s\nstatus: %s\nresult: %s\n", log->complete ? "yes" : "no",
		rvm_status_name(log->status), clean ? "clean" : "unclean");
	fprintf(f, "harts: %zu\n", log->harts);
	fprintf(f, "target: %s (from %s)\n", ri->target[0] ? ri->target : "unknown", ri->source);
	fprintf(f, "memory_timing: %s\n", ri->timing < 0 ? "unknown" : ri->timing ? "yes" : "no");
	if (run_info_warning(ri))
		fprintf(f, "WARNING: %s\n", run_info_warning(ri));
	fprintf(f, "platform: %s\nmode: %s\nhdr_harts: %s\ncpu_hz: %s\ntimebase: %s\nversion: %s\n",
		hdr_field(log, "platform"), hdr_field(log, "mode"), hdr_field(log, "harts"),
		hdr_field(log, "cpu_hz"), hdr_field(log, "timebase"), hdr_field(log, "version"));
	fprintf(f, "records_by_type:");
	for (unsigned t = 0; t < RVM_REC_NTYPES; t++) {
		size_t n = rvm_log_count(log, rvm_rec_name(t));

		if (n)
			fprintf(f, " %s=%zu", rvm_rec_name(t), n);
	}
	if (log->unknown)
		fprintf(f, " unknown=%zu", log->unknown);
	fprintf(f, "\nfiles: %s\n", files);
	if (lit)
		litmus_print_verdict(f, lit);
	if (ig)
		integ_print_verdict(f, ig);
	return outdir_close(od, f);
}

/* rvmess parse's options: parse_opts (shared with merge) and -o, --tol */
struct parse_args {
	struct parse_opts o;
	const char *dir;
	double tol;              /* --tol PCT */
};

#define F(x) offsetof(struct parse_args, x)
static const struct cli_opt parse_options[] = {
	{ .name = "-o", .kind = CLI_STR, .off = F(dir), .meta = "DIR", .lines = 1, .req = 1,
	  .help = "output directory, created if needed" },
	{ .name = "--quiet", .alias = "-q", .kind = CLI_FLAG, .off = F(o.quiet), .lines = 1,
	  .help = "print only the two summary lines" },
	{ .name = "--tol", .kind = CLI_DBL, .off = F(tol), .meta = "PCT", .lo = 0, .hi = 100, .flags = CLI_GT | CLI_LT,
	  .what = "a percentage", .lines = 1,
	  .help = "cache-level detection: a lat point joins a level while its latency is within PCT % "
		  "(0..100, default " CLI_TEXT(PLATEAU_TOL_DEFAULT_PCT) ") of the level's median" },
	{ .name = "--peak", .kind = CLI_DBL, .off = F(o.peak), .meta = "GBPS", .lo = 0.001, .hi = MESS_MAX_GBPS,
	  .what = "a bandwidth in GB/s", .lines = 1,
	  .help = "the memory's theoretical peak in GB/s (0.001.." CLI_TEXT(MESS_MAX_GBPS) "): saturated bandwidth "
		  "is also shown as % of it (default: the peak the log reports, if any)" },
	{ .name = "--issued", .kind = CLI_FLAG, .off = F(o.issued), .lines = 1,
	  .help = "mess.svg also draws each curve against the issued (STREAM-like) bandwidth, dashed, beside "
		  "the bandwidth at memory" },
	{ .name = "--target", .kind = CLI_STR, .off = F(o.target), .meta = "NAME", .lines = 1,
	  .help = "the target the log came from (qemu, hostsim, ...) when no run.txt beside LOG says it; QEMU "
		  "runs carry a no-timing warning" },
};
#undef F
static const struct cli_line parse_usage[] = { { .args = "LOG" } };
const struct cli_cmd parse_command = {
	.name = "parse", .run = cmd_parse, .summary = "validate a console log, write CSV/xgraph/cache levels",
	.lines = parse_usage, .nlines = CLI_N(parse_usage), .opts = parse_options, .nopts = CLI_N(parse_options), .max_pos = 1,
};

static int help(void)
{
	cli_print_usage(stdout, &parse_command, "usage: ", "       ");
	printf("Validate a console log (docs/protocol.md) and write its suites' files into DIR\n"
	       "(docs/formats.md).  Outputs are replaced all at once or not at all; symlinks\n"
	       "at output paths are refused; a re-parse removes only files parse wrote.\n");
	cli_print_options(stdout, &parse_command);
	printf("Exit status: 0 clean log; 1 log with errors (written anyway) or two runs in\n"
	       "one log (refused); 2 usage or I/O error (DIR left as it was); 3 a detected\n"
	       "bug: a `bug` record (litmus) or a failed integrity check (`integ` bad>0).\n");
	return 0;
}

void parse_opts_default(struct parse_opts *o)
{
	memset(o, 0, sizeof(*o));
	plateau_defaults(&o->po);
}

void parse_report_free(struct parse_report *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

void parse_report_print(const struct parse_report *r)
{
	if (r->out)
		fputs(r->out, stdout);
	fflush(stdout);
	if (r->err)
		fputs(r->err, stderr);
}

/* The names parse may write into its folder (parse_output_name). */
int parse_output_name(const char *name)
{
	static const char *const fixed[] = {
		"records.csv", "summary.txt", "summary.json", "chase.csv", "lat.csv", "lat.xg", "cache_levels.txt",
		"cache_levels.csv", "lat.svg", "par.csv", "parmax.csv", "par.svg", "mess_raw.csv", "mess.csv",
		"mess_metrics.txt", "mess.svg", "mess_read.svg", "litmus.csv", "integrity.csv", OUTDIR_MANIFEST,
		"bwlat",
	};
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!strcmp(name, fixed[i]))
			return 1;
	for (size_t i = 0; i < parse_nwriters; i++) /* RECORDS_CSV rows: TYPE.csv */
		if (parse_writers[i].type && !strcmp(name, parse_writers[i].what))
			return 1;
	return n > 7 && !strncmp(name, "lat_", 4) && !strcmp(name + n - 3, ".xg");
}

int parse_into(struct rvm_log *log, const char *logp, struct outdir *od, const struct parse_opts *o,
	       struct parse_report *rep)
{
	const char *dir = od->dir;
	struct run_info ri;
	int clean;
	size_t invalid = 0;
	size_t outlen = 0, errlen = 0;
	FILE *out = NULL, *err = NULL;
	struct parse_run pr = { 0 };
	struct parse_run *r = &pr;
	int rc = -1;
	double peak = o->peak;

	memset(rep, 0, sizeof(*rep));
	run_info_find(logp, o->target, &ri);
	svg_set_warning(run_info_warning(&ri));
	/* failures the image itself reported */
	for (size_t i = 0; i < log->nrecs; i++) {
		const struct rvm_rec *rec = &log->recs[i];

		if (strcmp(rec->type, "err") == 0 || strcmp(rec->type, "trap") == 0)
			fprintf(stderr, "%s:%lu: the image reported: %s\n", logp, rec->line, rec->text);
	}
	strcpy(r->files, "records.csv summary.txt summary.json");
	r->log = log;
	r->od = od;
	r->diag = stderr;
	r->invalid = &invalid;
	r->peak = peak;
	r->issued = o->issued;
	r->quiet = o->quiet;
	r->po = &o->po;
	lat_collect(log, stderr, &r->sets, &invalid);
	lat_hdr_cache_fdt(log, stderr, &r->cf, &invalid);
	r->what = "records.csv";
	if (write_records_csv(log, od) < 0)
		goto io_error;
	for (size_t i = 0; i < parse_nwriters; i++) {
		const struct parse_writer *w = &parse_writers[i];

		if (w->wanted ? !w->wanted(r) : !rvm_log_count(log, w->type))
			continue;
		r->what = w->what;
		if (w->write(r, w) < 0)
			goto io_error;
	}
	clean = rvm_log_clean(log) && invalid == 0;
	r->what = "summary.txt";
	if (write_summary(log, od, invalid, r->files, clean, &ri, r->have_lit ? &r->lit : NULL,
			  r->have_ig ? &r->ig : NULL) < 0)
		goto io_error;
	r->what = "summary.json";
	{
		struct summary_in si = { log, &ri, &r->cl, peak, invalid, clean };

		if (write_summary_json(&si, od, "summary.json") < 0)
			goto io_error;
	}

	/* what it prints once the files are in place */
	out = open_memstream(&rep->out, &outlen);
	err = open_memstream(&rep->err, &errlen);
	if (!out || !err)
		abort();
	fprintf(out, "rvmess parse: harts=%zu good=%zu bad=%zu missing=%llu duplicate=%zu complete=%s status=%s\n",
		log->harts, log->nrecs, log->bad, (unsigned long long)log->missing, log->duplicates,
		log->complete ? "yes" : "no", rvm_status_name(log->status));
	fprintf(out, "rvmess parse: wrote %s/ (%s)\n", dir, r->files);
	if (invalid)
		fprintf(err, "%s: %zu record(s) with missing or bad fields left out of the suite files\n",
			logp, invalid);
	if (run_info_warning(&ri))
		fprintf(out, "WARNING: %s\n", run_info_warning(&ri));
	if (r->have_lit) {
		fputs("rvmess parse: ", out);
		litmus_print_verdict(out, &r->lit);
	}
	if (r->have_ig) {
		fputs("rvmess parse: ", out);
		integ_print_verdict(out, &r->ig);
	}
	if (!o->quiet && r->sets.n)
		cache_levels_print(out, &r->cl);
	if (r->mess_table)
		fclose(r->mess_table);
	r->mess_table = NULL;
	if (!o->quiet && r->mess_len)
		fputs(r->mess_buf, out);
	fclose(out);
	fclose(err);
	rep->status = r->lit.bugs || r->lit.visibility || r->ig.failed ? LITMUS_EXIT_BUG : clean ? 0 : 1;
	rep->clean = clean;
	rc = 0;
	goto done;

io_error:
	if (outdir_error(od)[0])
		fprintf(stderr, "rvmess parse: %s\n", outdir_error(od));
	else
		fprintf(stderr, "rvmess parse: %s: writing %s: %s\n", dir, r->what, strerror(errno));
done:
	if (r->mess_table)
		fclose(r->mess_table);
	free(r->mess_buf);
	cache_levels_free(&r->cl);
	lat_sets_free(&r->sets);
	return rc;
}

int cmd_parse(int argc, char **argv)
{
	struct parse_args a = { .dir = NULL };
	struct parse_opts o;
	struct parse_report rep;
	struct rvm_log log;
	struct outdir od;
	struct cli_res res;
	const char *logp, *dir;
	int rc;

	parse_opts_default(&a.o);
	rc = cli_parse(&parse_command, argc, argv, &a, &res);
	if (cli_given(&parse_command, &res, "--tol"))
		a.o.po.tol = a.tol / 100;
	logp = res.npos ? argv[res.pos[0]] : NULL;
	cli_res_free(&res);
	if (rc)
		return rc == CLI_HELP ? help() : rc;
	if (!logp || !a.dir)
		return cli_usage(&parse_command);
	o = a.o;
	dir = a.dir;

	if (rvm_log_read(logp, stderr, &log) < 0) {
		fprintf(stderr, "rvmess parse: %s: %s\n", logp, rvm_log_strerror(errno));
		return 2;
	}
	if (log.runs > 1) {
		fprintf(stderr, "rvmess parse: %s holds %zu runs (see the lines above); refusing to merge them: "
			"split the log, one run per file (nothing written)\n", logp, log.runs);
		rvm_log_free(&log);
		return 1;
	}
	if (outdir_open(&od, dir, "parse") < 0) {
		fprintf(stderr, "rvmess parse: %s\n", outdir_error(&od));
		rvm_log_free(&log);
		return 2;
	}
	outdir_input(&od, logp);
	if (parse_into(&log, logp, &od, &o, &rep) < 0) {
		fprintf(stderr, "rvmess parse: nothing in %s was changed\n", dir);
		outdir_abort(&od);
		rvm_log_free(&log);
		return 2;
	}
	if (outdir_commit(&od) < 0) {
		fprintf(stderr, "rvmess parse: %s\n", outdir_error(&od));
		fprintf(stderr, "rvmess parse: nothing in %s was changed\n", dir);
		parse_report_free(&rep);
		rvm_log_free(&log);
		return 2;
	}
	{
		int status = rep.status;

		parse_report_print(&rep);
		parse_report_free(&rep);
		rvm_log_free(&log);
		return status;
	}
}
