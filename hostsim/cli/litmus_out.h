/*
 * The litmus suite's outputs from a parsed log: litmus.csv (one row per
 * observed outcome of each test) and the verdict line of summary.txt.
 * Columns: docs/formats.md.
 */
#ifndef RVMESS_CLI_LITMUS_OUT_H
#define RVMESS_CLI_LITMUS_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "cli/log.h"
#include "cli/out.h"

/* rvmess parse's exit status for a log with at least one `bug` record */
#define LITMUS_EXIT_BUG 3

struct litmus_sum {
	size_t tests;    /* litmus records */
	size_t relaxed;  /* tests whose allowed relaxed outcome was observed */
	size_t skipped;  /* tests that ran no iteration (too few harts) */
	size_t bugs;     /* bug records of the litmus tests */
	size_t visibility; /* bug records test=visibility: a store another hart never saw */
	const struct rvm_rec *first_vis; /* the first of those, or NULL */
};

/*
 * Write litmus.csv into the output directory od (test,outcome,count,verdict) from the `litmus`
 * records and count the `bug` records into *sum.  A litmus record whose
 * obs/outs fields cannot be read is named on diag and counted in *invalid.
 * Returns 0, or -1 with errno set on an I/O error.
 */
int litmus_write_outputs(const struct rvm_log *log, struct outdir *od, FILE *diag, size_t *invalid,
                         struct litmus_sum *sum);

/* One line: "litmus: bugs=N tests=T relaxed=R skipped=S"; and, when the
 * log reports stores that never became visible, a second line:
 * "visibility: N store(s) never became visible (first: ...)". */
void litmus_print_verdict(FILE *f, const struct litmus_sum *sum);

#endif
