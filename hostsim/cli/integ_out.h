/*
 * The integrity checks' outputs from a parsed log: integrity.csv (one row
 * per `integ` record: a check as seen by one hart) and the verdict line of
 * summary.txt.  Columns: docs/formats.md.
 */
#ifndef RVMESS_CLI_INTEG_OUT_H
#define RVMESS_CLI_INTEG_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/log.h"
#include "cli/out.h"

struct integ_sum {
	size_t checks;      /* integ records */
	size_t failed;      /* of them with a wrong word: detected bugs */
	uint64_t words;     /* words compared, all records */
	uint64_t bad;       /* wrong words, all records */
};

/*
 * Write integrity.csv into od (check,hart,words,bad,addr,want,got) from the
 * `integ` records and sum them into *sum.  A record with missing or bad
 * fields (bad > words, a failed check without addr and got) is named on
 * diag, counted in *invalid and left out.  Returns 0, or -1 with errno set
 * on an I/O error.
 */
int integ_write_outputs(const struct rvm_log *log, struct outdir *od, FILE *diag, size_t *invalid,
                        struct integ_sum *sum);

/* One line: "integrity: failed=N checks=C words=W bad=B". */
void integ_print_verdict(FILE *f, const struct integ_sum *sum);

#endif
