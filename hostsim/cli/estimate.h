/*
 * Estimates of an RTL plan (docs/sweeps.md, "Estimates on RTL"): each job's
 * simulated cycles and CPU hours before it runs, and against the truth
 * (each job's sim.txt) after.
 *
 * A job's cycles = its image's shadow count (tools/rtl-shadow.sh: hostsim's
 * count of the job's work on the target's profile) x the model's ratio of
 * cycles to shadow counts, measured on the newest clean run of the model
 * in its record (tools/rtl-record.sh; one with the plan's memory when there
 * is one).  Its CPU time = cycles / the model's cycles per CPU-second, from
 * the newest run in the record.
 *
 * PLAN/estimate.tsv: tab-separated lines, `#` comments, first line
 * `rvmess-estimate<TAB>1`, then `shadow TARGET HARTS`, `record PATH`,
 * `memory DESC`, optional `ratio R SIM_TXT same|other` and `speed CPS
 * SIM_TXT`, and `job ID SHADOW` (SHADOW: a count, or - when unknown).
 */
#ifndef RVMESS_CLI_ESTIMATE_H
#define RVMESS_CLI_ESTIMATE_H

#include <stddef.h>
#include <stdio.h>

#include "cli/plan.h"

#define EST_FILE    "estimate.tsv"
#define EST_VERSION 1
#define EST_RECORD  "rvmess-runs.tsv"

struct estimate {
	char *target;            /* the shadow's hostsim profile: openpiton, cva6 */
	unsigned harts;
	char *record;            /* the model's record of runs */
	char *memory;            /* the plan's memory (run.sh's description, or "own") */
	double ratio;            /* model cycles per shadow count; 0: unknown */
	char *ratio_src;         /* the sim.txt it was measured on */
	int ratio_same;          /* 1: that run had the plan's memory */
	double cps;              /* model cycles per CPU-second; 0: unknown */
	char *cps_src;
	size_t njobs;
	double *shadow;          /* per job (index = job id): the count, or -1 */
};

void est_free(struct estimate *e);

/* The ratio and speed from a model's record (tools/rtl-record.sh's lines):
 * ratio from the newest clean line with a shadow count and the memory
 * `memory`, else from the newest clean one with any memory (ratio_same =
 * 0); speed from the newest line with cycles per CPU-second, one with the
 * plan's memory before others and a clean one before an unclean.  A bad
 * line is named on diag (FILE:LINE: reason) and skipped.  Returns 0, or -1
 * when the record cannot be read (errno; a missing record is not an error:
 * 0 with nothing known). */
int est_from_record(struct estimate *e, const char *record, const char *memory, FILE *diag);

/* Read / write PLAN/estimate.tsv.  Reading names every problem on diag as
 * FILE:LINE: reason and returns their number (0: usable), -1 on an I/O
 * error. */
int est_read(const char *path, FILE *diag, struct estimate *e);
int est_write(const struct estimate *e, FILE *out);

/* Job j's estimated cycles and CPU seconds; -1 when unknown. */
double est_cycles(const struct estimate *e, size_t j);
double est_cpu_seconds(const struct estimate *e, size_t j);

/* What a job's run gave (its sim.txt): -1 for what it does not say. */
struct est_truth {
	double cycles, wall_s, cpu_s;
	double end;              /* when it ended (the file's time, epoch seconds) */
};
int est_truth_read(const char *simtxt, struct est_truth *t);

/* The wall time of running the given CPU times on `parallel` cores at once,
 * longest first, each on the core free first. */
double est_schedule(const double *cpu_s, size_t n, unsigned parallel);

/* Print the estimate of plan p (directory dir) per job and in total, with
 * the truth of every job whose DIR/runs/<id>/sim.txt exists; with parallel >
 * 0 also the wall time of the jobs still to run at that many at once. */
void est_report(const struct estimate *e, const struct plan *p, const char *dir, unsigned parallel, FILE *out);

#endif
