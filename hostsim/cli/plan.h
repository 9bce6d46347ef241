/*
 * Sweeps (docs/sweeps.md): a plan directory splits a run's grid into jobs,
 * one config-rewritten image each; the manifest says which points each job
 * runs; `rvmess merge` puts the per-job logs back together as one family per
 * hostsim configuration.
 *
 * This header: the manifest (read, check, write), the point bookkeeping of
 * merge (which logs hold which points: missing, failed, duplicated) and the
 * adaptive pause placement.  The commands are cmd/cmd_plan.c and cmd/cmd_merge.c.
 */
#ifndef RVMESS_CLI_PLAN_H
#define RVMESS_CLI_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/log.h"

#define PLAN_MANIFEST "manifest.tsv"
#define PLAN_VERSION  1
#define PLAN_MAX_LIST 256   /* mixes or pauses of one job */
#define PLAN_NAME_MAX 32    /* a configuration's name */

struct plan_config {
	char name[PLAN_NAME_MAX];
	char *sim;               /* hostsim options of this configuration ("" = none) */
};

struct plan_job {
	unsigned id;             /* = its index; the Slurm array index */
	unsigned config;         /* index into plan.configs */
	int mess;                /* 1: the job runs Mess points (mixes x pauses) */
	char *suites;            /* the suites it runs (the image's `suites` key) */
	size_t nmix, npause;
	unsigned mix[PLAN_MAX_LIST];
	uint64_t pause[PLAN_MAX_LIST];
	unsigned long line;      /* its manifest line */
};

struct plan {
	char *target;            /* hostsim, qemu-virt, qemu-spike, verilator, ... */
	char *command;           /* shell command; $IMAGE = the job's image, $SIM = its options */
	char *image;             /* the image the plan was made from */
	char *rvmess;            /* the rvmess that made it (the runner's --todo) */
	char *id;                /* the plan's own id (32 hex digits; NULL in an older
	                          * manifest): the runner writes it into every job log */
	unsigned reps;           /* the image's reps: records per point */
	uint64_t time_s;         /* a job's time limit (Slurm --time) */
	uint64_t mem_mb;         /* a job's memory (Slurm --mem) */
	/* adaptive placement (0 when the plan is not adaptive): the candidate
	 * pauses (ascending), the tolerance (fraction) and the point budget per
	 * curve */
	size_t ncand;
	uint64_t cand[PLAN_MAX_LIST];
	double adapt_tol;
	unsigned adapt_budget;
	size_t nconfigs;
	struct plan_config *configs;
	size_t njobs;
	struct plan_job *jobs;
};

/* Read a manifest.  Every problem is reported on diag as "FILE:LINE: reason"
 * (the file as `name` says); returns the number of problems (0: the plan is
 * usable), or -1 on an I/O error (errno set).  On success the caller frees
 * with plan_free; on problems p is freed already. */
int plan_read(const char *name, FILE *in, FILE *diag, struct plan *p);
int plan_read_file(const char *path, FILE *diag, struct plan *p);
void plan_free(struct plan *p);

/* A configuration name: 1..PLAN_NAME_MAX-1 of [A-Za-z0-9_.-], not "." or
 * ".." (merge writes OUT/<name>/).  1 when good. */
int plan_name_ok(const char *s);

/* Write p as a manifest.  0, or -1 on a write error. */
int plan_write(const struct plan *p, FILE *out);

/* Add a job (copies suites); returns it. */
struct plan_job *plan_add_job(struct plan *p, unsigned config, const char *suites, int mess);

/* A point's name in reports: "c0 mix=20 pause=64 rep=0" (no config name when
 * the plan has one configuration). */
void plan_point_name(const struct plan *p, unsigned config, unsigned mix, uint64_t pause,
		     unsigned rep, char *buf, size_t len);

/* ---- merge: what the logs hold ------------------------------------------- */

enum point_state { PT_MISSING = 0, PT_GOOD, PT_FAILED };

struct merge_point {
	unsigned config, mix, rep;
	uint64_t pause;
	unsigned job;            /* the job planned to run it */
	enum point_state state;
	unsigned from_job;       /* the job whose log gave the kept record */
	size_t rec;              /* index of the kept record in that job's log */
	unsigned copies;         /* good records found for it (> 1: duplicated) */
	const char *why;         /* missing or failed: the reason */
};

struct merge_set {
	size_t n;
	struct merge_point *pt;  /* every planned point, in plan order */
	size_t unexpected;       /* mess records of points no job planned (dropped) */
};

/* Every planned point, missing. */
void merge_init(struct merge_set *m, const struct plan *p);
void merge_free(struct merge_set *m);

/* Account job `job`'s log (NULL: no log).  A point is good when each of its
 * reps has a valid mess record; failed when an err, trap, bug or integ
 * record with bad > 0 follows its record before the next mess record (or
 * precedes every mess record of the log: then all of the log's points fail);
 * its records are looked for in every log (a record for a point another job
 * also gave is a duplicate: the first stays).  Mess records of points this
 * plan has nowhere are counted in m->unexpected and named on diag. */
void merge_add_log(struct merge_set *m, const struct plan *p, unsigned job,
		   const struct rvm_log *log, FILE *diag);

/* 1 when the job's log is done: read, complete, no bad record. */
int merge_log_done(const struct rvm_log *log);

/* Counts of the set. */
struct merge_counts {
	size_t good, missing, failed, duplicated;
};
void merge_count(const struct merge_set *m, struct merge_counts *c);

/* ---- adaptive pause placement -------------------------------------------- */

/* One curve as measured so far: the candidate pauses (ascending) and, for
 * each, whether it was measured and what it gave. */
struct adapt_curve {
	size_t n;
	const uint64_t *pause;
	const int *have;
	const double *lat_ns;
	const double *bw_gbps;
};

/* The first points of a curve: both ends of the candidate list and evenly
 * spaced ones between, `coarse` in all (at least 2, at most n).  Writes
 * candidate indices, ascending; returns how many. */
size_t adapt_coarse(size_t n, size_t coarse, size_t *idx);

/*
 * The next points of a curve.  Between two neighbouring measured candidates
 * with unmeasured ones between them the curve is unknown; its error there is
 * the larger of the latency change relative to the smaller latency and the
 * bandwidth change relative to the curve's highest bandwidth.  Every gap
 * whose error exceeds tol gets its middle candidate, largest error first, as
 * long as the curve's measured points stay within budget.  Writes candidate
 * indices (at most max); returns how many (0: the curve is known within tol,
 * or the budget is spent).
 */
size_t adapt_next(const struct adapt_curve *c, double tol, size_t budget, size_t *idx, size_t max);

#endif
