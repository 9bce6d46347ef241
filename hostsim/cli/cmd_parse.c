/* rvmess parse LOG -o DIR: validate a console log and write the per-suite files. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmds.h"
#include "cli/csv.h"
#include "cli/lat.h"
#include "cli/litmus_out.h"
#include "cli/log.h"
#include "cli/mess_out.h"
#include "rvmess/records.h"
#include "cli/summary.h"
#include "cli/svg.h"

static int mkdir_p(const char *dir)
{
	char buf[4096];
	size_t n = strlen(dir);

	if (n == 0 || n >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, dir, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (buf[i] == '/' || buf[i] == '\0') {
			char c = buf[i];
			struct stat st;

			buf[i] = '\0';
			if (mkdir(buf, 0777) < 0 && errno != EEXIST)
				return -1;
			if (stat(buf, &st) < 0)
				return -1;
			if (!S_ISDIR(st.st_mode)) {
				errno = ENOTDIR;
				return -1;
			}
			buf[i] = c;
		}
	}
	return 0;
}

/* Remove per-suite files a previous parse left in DIR, so that DIR only
 * holds the files of the suites present in this log. */
static void remove_stale(const char *dir)
{
	static const char *const names[] = {
		"chase.csv", "lat.csv", "lat.xg", "par.csv", "parmax.csv",
		"cache_levels.txt", "cache_levels.csv", "lat.svg", "mess_raw.csv", "mess.csv",
		"mess_metrics.txt", "mess.svg", "par.svg", "summary.json", "litmus.csv", NULL,
	};
	char path[4096];
	DIR *d;
	struct dirent *e;

	for (size_t i = 0; names[i]; i++)
		unlink(path_join(path, sizeof(path), dir, names[i]));
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (strncmp(e->d_name, "lat_", 4) == 0 && n > 3 && strcmp(e->d_name + n - 3, ".xg") == 0 &&
		    strstr(e->d_name, "_stride"))
			unlink(path_join(path, sizeof(path), dir, e->d_name));
	}
	closedir(d);
}

static int write_records_csv(const struct rvm_log *log, const char *dir)
{
	char path[4096];
	struct csv c;

	if (csv_open(&c, path_join(path, sizeof(path), dir, "records.csv"),
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
		*p = '\0';
		for (size_t k = 0; k < r->nfields; k++)
			p += sprintf(p, "%s%s=%s", k ? " " : "", r->fields[k].key, r->fields[k].val);
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
		v = rec_get(&log->recs[0], key);
	return v ? v : "-";
}

static int write_summary(const struct rvm_log *log, const char *dir, size_t invalid,
			 const char *files, int clean, const struct run_info *ri)
{
	char path[4096];
	FILE *f = fopen(path_join(path, sizeof(path), dir, "summary.txt"), "w");
	int bad;

	if (!f)
		return -1;
	fprintf(f, "log: %s\n", log->path);
	fprintf(f, "lines: %lu\n", log->lines);
	fprintf(f, "good: %zu\nbad: %zu\nmissing: %llu\nduplicate: %zu\nconflicting: %zu\n",
		log->nrecs, log->bad, (unsigned long long)log->missing, log->duplicates, log->conflicts);
	fprintf(f, "unknown_types: %zu\ninvalid_fields: %zu\n", log->unknown, invalid);
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
	bad = ferror(f);
	if (fclose(f) != 0 || bad)
		return -1;
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: rvmess parse LOG -o DIR [--quiet] [--tol PCT] [--peak GBPS] [--issued] [--target NAME]\n");
	return 2;
}

int cmd_parse(int argc, char **argv)
{
	const char *logp = NULL, *dir = NULL, *what = NULL, *target = NULL;
	struct run_info ri;
	int quiet = 0, clean;
	double peak = 0;
	int issued = 0;
	struct plateau_opts po;
	struct rvm_log log;
	struct lat_sets sets = { 0 };
	struct cache_levels cl = { 0 };
	size_t invalid = 0;
	char files[1024] = "records.csv summary.txt summary.json";
	char path[4096];
	char *mess_buf = NULL;
	size_t mess_len = 0;
	FILE *mess_table = NULL;
	struct litmus_sum lit = { 0 };
	int have_lit;

	plateau_defaults(&po);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
			dir = argv[++i];
		} else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
			quiet = 1;
		} else if (strcmp(argv[i], "--tol") == 0 && i + 1 < argc) {
			char *e;
			double t = strtod(argv[++i], &e);

			if (*e || !(t > 0 && t < 100)) {
				fprintf(stderr, "rvmess parse: --tol wants a percentage in (0, 100), got '%s'\n", argv[i]);
				return 2;
			}
			po.tol = t / 100;
		} else if (strcmp(argv[i], "--target") == 0 && i + 1 < argc) {
			target = argv[++i];
		} else if (strcmp(argv[i], "--issued") == 0) {
			issued = 1;
		} else if (strcmp(argv[i], "--peak") == 0 && i + 1 < argc) {
			char *e;

			peak = strtod(argv[++i], &e);
			if (*e || !(peak > 0)) {
				fprintf(stderr, "rvmess parse: --peak wants a bandwidth in GB/s > 0, got '%s'\n", argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage();
			return 0;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "rvmess parse: unknown option '%s'\n", argv[i]);
			return usage();
		} else if (!logp) {
			logp = argv[i];
		} else {
			fprintf(stderr, "rvmess parse: unexpected argument '%s'\n", argv[i]);
			return usage();
		}
	}
	if (!logp || !dir)
		return usage();

	if (rvm_log_read(logp, stderr, &log) < 0) {
		fprintf(stderr, "rvmess parse: %s: %s\n", logp, strerror(errno));
		return 2;
	}
	if (mkdir_p(dir) < 0) {
		fprintf(stderr, "rvmess parse: %s: %s\n", dir, strerror(errno));
		rvm_log_free(&log);
		return 2;
	}

	run_info_find(logp, target, &ri);
	svg_set_warning(run_info_warning(&ri));
	/* failures the image itself reported */
	for (size_t i = 0; i < log.nrecs; i++) {
		const struct rvm_rec *r = &log.recs[i];

		if (strcmp(r->type, "err") == 0 || strcmp(r->type, "trap") == 0)
			fprintf(stderr, "%s:%lu: the image reported: %s\n", logp, r->line, r->text);
	}
	remove_stale(dir);
	lat_collect(&log, stderr, &sets, &invalid);
	what = "records.csv";
	if (write_records_csv(&log, dir) < 0)
		goto io_error;
	if (rvm_log_count(&log, "chase")) {
		what = "chase.csv";
		if (write_chase_csv(&log, dir, stderr, &invalid) < 0)
			goto io_error;
		strcat(files, " chase.csv");
	}
	if (sets.n) {
		what = "lat.csv / lat*.xg";
		if (write_lat_outputs(&sets, dir) < 0)
			goto io_error;
		strcat(files, " lat.csv lat_*.xg");
		for (size_t i = 0; i < sets.n; i++)
			if (strcmp(sets.sets[i].chain, "stride") == 0) {
				strcat(files, " lat.xg");
				break;
			}
		cache_levels_find(lat_levels_source(&sets), &po, &cl);
		what = "cache_levels.txt / cache_levels.csv";
		if (write_cache_levels(&cl, dir) < 0)
			goto io_error;
		strcat(files, " cache_levels.txt cache_levels.csv");
		what = "lat.svg";
		if (lat_write_svg(&sets, path_join(path, sizeof(path), dir, "lat.svg")) < 0)
			goto io_error;
		strcat(files, " lat.svg");
	}
	if (rvm_log_count(&log, "par") || rvm_log_count(&log, "parmax")) {
		what = "par.csv / parmax.csv";
		if (write_par_outputs(&log, dir, stderr, &invalid) < 0)
			goto io_error;
		if (rvm_log_count(&log, "par"))
			strcat(files, " par.csv");
		if (rvm_log_count(&log, "parmax")) {
			strcat(files, " parmax.csv");
			what = "par.svg";
			if (par_write_svg(&log, path_join(path, sizeof(path), dir, "par.svg")) < 0)
				goto io_error;
			strcat(files, " par.svg");
		}
	}
	if (rvm_log_count(&log, "mess")) {
		mess_table = open_memstream(&mess_buf, &mess_len);
		if (mess_write_outputs(&log, dir, peak, issued, stderr, quiet ? NULL : mess_table, &invalid) < 0) {
			what = "the mess outputs";
			goto io_error;
		}
		strcat(files, " mess_raw.csv mess.csv bwlat/ mess_metrics.txt mess.svg");
	}
	have_lit = rvm_log_count(&log, "litmus") || rvm_log_count(&log, "bug");
	if (have_lit) {
		what = "litmus.csv";
		if (litmus_write_outputs(&log, dir, stderr, &invalid, &lit) < 0)
			goto io_error;
		strcat(files, " litmus.csv");
	}
	clean = rvm_log_clean(&log) && invalid == 0;
	what = "summary.txt";
	if (write_summary(&log, dir, invalid, files, clean, &ri) < 0)
		goto io_error;
	if (have_lit) {
		FILE *f = fopen(path_join(path, sizeof(path), dir, "summary.txt"), "a");
		if (!f)
			goto io_error;
		litmus_print_verdict(f, &lit);
		if (fclose(f) != 0)
			goto io_error;
	}
	what = "summary.json";
	{
		struct summary_in si = { &log, &ri, &cl, peak, invalid, clean };

		if (write_summary_json(&si, path_join(path, sizeof(path), dir, "summary.json")) < 0)
			goto io_error;
	}

	printf("rvmess parse: harts=%zu good=%zu bad=%zu missing=%llu duplicate=%zu complete=%s status=%s\n",
	       log.harts, log.nrecs, log.bad, (unsigned long long)log.missing, log.duplicates,
	       log.complete ? "yes" : "no", rvm_status_name(log.status));
	printf("rvmess parse: wrote %s/ (%s)\n", dir, files);
	if (invalid)
		fprintf(stderr, "%s: %zu record(s) with missing or bad fields left out of the suite files\n",
			logp, invalid);
	if (run_info_warning(&ri))
		printf("WARNING: %s\n", run_info_warning(&ri));
	if (have_lit) {
		fputs("rvmess parse: ", stdout);
		litmus_print_verdict(stdout, &lit);
	}
	if (!quiet && sets.n)
		cache_levels_print(stdout, &cl);
	if (mess_table)
		fclose(mess_table);
	if (!quiet && mess_len)
		fputs(mess_buf, stdout);
	free(mess_buf);
	cache_levels_free(&cl);
	lat_sets_free(&sets);
	rvm_log_free(&log);
	return lit.bugs ? LITMUS_EXIT_BUG : clean ? 0 : 1;

io_error:
	fprintf(stderr, "rvmess parse: %s: writing %s: %s\n", dir, what, strerror(errno));
	if (mess_table)
		fclose(mess_table);
	free(mess_buf);
	cache_levels_free(&cl);
	lat_sets_free(&sets);
	rvm_log_free(&log);
	return 2;
}
