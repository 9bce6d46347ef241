/*
 * rvmess parse's writers in the order they run and their files appear in
 * the summary (writers.h).  Each row: the error name, whether the log has
 * its records, the function that writes them.
 */
#include <string.h>

#include "cli/writers.h"
#include "cli/csv.h"
#include "cli/mess_out.h"

void parse_files_add(struct parse_run *r, const char *names)
{
	strncat(r->files, " ", sizeof(r->files) - strlen(r->files) - 1);
	strncat(r->files, names, sizeof(r->files) - strlen(r->files) - 1);
}

static int has_chase(const struct parse_run *r) { return rvm_log_count(r->log, "chase") != 0; }

static int write_chase(struct parse_run *r, const struct parse_writer *w)
{
	(void)w;
	if (write_chase_csv(r->log, r->od, r->diag, r->invalid) < 0)
		return -1;
	parse_files_add(r, "chase.csv");
	return 0;
}

static int has_lat(const struct parse_run *r) { return r->sets.n != 0; }

/* lat.csv, the xgraph files, the cache levels found in them, lat.svg */
static int write_lat(struct parse_run *r, const struct parse_writer *w)
{
	(void)w;
	if (write_lat_outputs(&r->sets, r->od) < 0)
		return -1;
	parse_files_add(r, "lat.csv lat_*.xg");
	for (size_t i = 0; i < r->sets.n; i++)
		if (strcmp(r->sets.sets[i].chain, "stride") == 0) {
			parse_files_add(r, "lat.xg");
			break;
		}
	cache_levels_find(lat_levels_source(&r->sets), r->po, &r->cf, &r->cl);
	r->what = "cache_levels.txt / cache_levels.csv";
	if (write_cache_levels(&r->cl, r->od) < 0)
		return -1;
	parse_files_add(r, "cache_levels.txt cache_levels.csv");
	r->what = "lat.svg";
	if (lat_write_svg(&r->sets, r->od, "lat.svg") < 0)
		return -1;
	parse_files_add(r, "lat.svg");
	return 0;
}

static int has_par(const struct parse_run *r)
{
	return rvm_log_count(r->log, "par") || rvm_log_count(r->log, "parmax");
}

static int write_par(struct parse_run *r, const struct parse_writer *w)
{
	(void)w;
	if (write_par_outputs(r->log, r->od, r->diag, r->invalid) < 0)
		return -1;
	if (rvm_log_count(r->log, "par"))
		parse_files_add(r, "par.csv");
	if (rvm_log_count(r->log, "parmax")) {
		parse_files_add(r, "parmax.csv");
		r->what = "par.svg";
		if (par_write_svg(r->log, r->od, "par.svg") < 0)
			return -1;
		parse_files_add(r, "par.svg");
	}
	return 0;
}

static int has_mess(const struct parse_run *r) { return rvm_log_count(r->log, "mess") != 0; }

/* the Mess files; their metrics table is kept for stdout */
static int write_mess(struct parse_run *r, const struct parse_writer *w)
{
	(void)w;
	r->mess_table = open_memstream(&r->mess_buf, &r->mess_len);
	if (mess_write_outputs(r->log, r->od, r->peak, r->issued, r->diag, r->quiet ? NULL : r->mess_table,
	                       r->invalid) < 0)
		return -1;
	parse_files_add(r, "mess_raw.csv mess.csv bwlat/ mess_metrics.txt mess.svg mess_read.svg");
	return 0;
}

static int has_litmus(const struct parse_run *r)
{
	return rvm_log_count(r->log, "litmus") || rvm_log_count(r->log, "bug");
}

static int write_litmus(struct parse_run *r, const struct parse_writer *w)
{
	(void)w;
	r->have_lit = 1;
	if (litmus_write_outputs(r->log, r->od, r->diag, r->invalid, &r->lit) < 0)
		return -1;
	parse_files_add(r, "litmus.csv");
	return 0;
}

static int has_integ(const struct parse_run *r) { return rvm_log_count(r->log, "integ") != 0; }

static int write_integ(struct parse_run *r, const struct parse_writer *w)
{
	(void)w;
	r->have_ig = 1;
	if (integ_write_outputs(r->log, r->od, r->diag, r->invalid, &r->ig) < 0)
		return -1;
	parse_files_add(r, "integrity.csv");
	return 0;
}

int parse_write_records_csv(struct parse_run *r, const struct parse_writer *w)
{
	const struct rvm_rec *first = NULL;
	char header[1024] = "line,hart";
	struct csv c;

	for (size_t i = 0; i < r->log->nrecs && !first; i++)
		if (strcmp(r->log->recs[i].type, w->type) == 0)
			first = &r->log->recs[i];
	for (size_t k = 0; first && k < first->nfields; k++) {
		strncat(header, ",", sizeof(header) - strlen(header) - 1);
		strncat(header, first->fields[k].key, sizeof(header) - strlen(header) - 1);
	}
	if (csv_open(&c, r->od, w->what, header) < 0)
		return -1;
	for (size_t i = 0; i < r->log->nrecs; i++) {
		const struct rvm_rec *rec = &r->log->recs[i];
		if (strcmp(rec->type, w->type) != 0)
			continue;
		csv_u64(&c, rec->line);
		csv_u64(&c, rec->hart);
		for (size_t k = 0; k < first->nfields; k++) {
			const char *v = logrec_get(rec, first->fields[k].key);
			if (v)
				csv_str(&c, v);
			else
				csv_empty(&c);
		}
		csv_row_end(&c);
	}
	if (csv_close(&c) < 0)
		return -1;
	parse_files_add(r, w->what);
	return 0;
}

/* The writers in the order they run; a new suite's output is a row here. */
const struct parse_writer parse_writers[] = {
	{ "chase.csv", NULL, has_chase, write_chase },
	{ "lat.csv / lat*.xg", NULL, has_lat, write_lat },
	{ "par.csv / parmax.csv", NULL, has_par, write_par },
	{ "the mess outputs", NULL, has_mess, write_mess },
	{ "litmus.csv", NULL, has_litmus, write_litmus },
	{ "integrity.csv", NULL, has_integ, write_integ },
};
const size_t parse_nwriters = sizeof parse_writers / sizeof parse_writers[0];
