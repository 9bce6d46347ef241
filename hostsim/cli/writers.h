/*
 * rvmess parse's writers, one row each in parse_writers (writers.c): which
 * records a writer wants, and the function that writes its files from the
 * validated log and names them in the summary's `files:` list.  Adding a
 * suite's output is one row there: RECORDS_CSV("type") for a plain table of
 * its records, or a writer function of its own (docs/developers.md, "Adding
 * a suite").
 */
#ifndef RVMESS_CLI_WRITERS_H
#define RVMESS_CLI_WRITERS_H

#include <stddef.h>
#include <stdio.h>

#include "cli/integ_out.h"
#include "cli/lat.h"
#include "cli/litmus_out.h"
#include "cli/log.h"
#include "cli/out.h"
#include "cli/plateau.h"

/* One parse: its inputs, what the writers share, what they leave for the
 * summary (cmd/cmd_parse.c). */
struct parse_run {
	const struct rvm_log *log;
	struct outdir *od;
	FILE *diag;                   /* bad records are named here (stderr) */
	size_t *invalid;              /* records left out of the suite files */
	double peak;                  /* --peak GB/s, 0: the log's */
	int issued;                   /* --issued */
	int quiet;                    /* --quiet: no Mess table on stdout */
	const struct plateau_opts *po;
	struct lat_sets sets;         /* lat_collect's, before the writers run */
	struct cache_fdt cf;
	struct cache_levels cl;
	char *mess_buf;               /* the Mess metrics table for stdout */
	size_t mess_len;
	FILE *mess_table;
	struct litmus_sum lit;
	struct integ_sum ig;
	int have_lit, have_ig;
	char files[1024];             /* the summary's `files:` list */
	const char *what;             /* the file being written, for an error */
};

struct parse_writer {
	const char *what;                          /* for "writing WHAT" errors */
	const char *type;                          /* RECORDS_CSV's record type, else NULL */
	/* does the log hold its records? (NULL: records of `type`) */
	int (*wanted)(const struct parse_run *r);
	/* 0, or -1 with errno / the outdir's error */
	int (*write)(struct parse_run *r, const struct parse_writer *w);
};
/* A row for a suite whose records need no more than a table: TYPE.csv with
 * the columns line, hart and the first record's keys, one row per record. */
#define RECORDS_CSV(type) { type ".csv", type, NULL, parse_write_records_csv }
int parse_write_records_csv(struct parse_run *r, const struct parse_writer *w);
extern const struct parse_writer parse_writers[];
extern const size_t parse_nwriters;

/* " NAMES" appended to r->files */
void parse_files_add(struct parse_run *r, const char *names);

#endif
