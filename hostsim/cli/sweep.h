/*
 * The logs of a plan directory (DIR/logs/<job>.log) and the merged family
 * they make (`rvmess merge`, `rvmess plan --refine`): see plan.h for the
 * manifest and the point bookkeeping, docs/sweeps.md for the commands.
 */
#ifndef RVMESS_CLI_SWEEP_H
#define RVMESS_CLI_SWEEP_H

#include <stdio.h>

#include "cli/config.h"
#include "cli/log.h"
#include "cli/plan.h"

struct sweep_logs {
	size_t n;
	struct rvm_log **log;  /* per job: NULL when its log is absent, unreadable or refused */
	char **why;            /* per job: why its log is refused (not the plan's), or NULL */
	struct merge_set set;  /* every planned point and where it was found */
};

/* The line the runner writes first into every job log (tools/sweep-run.sh):
 * "rvmess-job: plan=ID job=N config=NAME sim=OPTIONS" (plan=- for a plan
 * without an id). */
#define SWEEP_JOB_LINE "rvmess-job: "

/*
 * Read every job's log (validated as parse does: problems on diag as
 * LOG:LINE: reason) and account its points.  A log must prove it belongs to
 * its job of this plan, or it is refused (its points missing, L->why[i]
 * says why): its first line, the runner's, names the manifest's plan id,
 * the job, its configuration and that configuration's hostsim options, and
 * its cfg record is the one the job's image prints (PLAN/base.elf with the
 * job's suites, mixes and pauses: another seed, other sizes, other points
 * are seen there).  diag may be NULL.  Returns 0, or -1 when PLAN/base.elf
 * cannot be read (said on diag; no log is accepted then).
 */
int sweep_logs_read(struct sweep_logs *L, const struct plan *p, const char *dir, FILE *diag);
void sweep_logs_free(struct sweep_logs *L);

/* Why job i's log is not done (to be run again), or NULL when it is: no
 * log, refused (another plan's, job's or configuration's), two runs, no
 * hdr, no end, records missing, bad records. */
const char *sweep_job_state(const struct sweep_logs *L, size_t i);

/* The config block of job j's image: base with the job's suites (and for a
 * Mess job its mixes and pauses), as `rvmess plan` writes it.  0, or -1 with
 * the key and the reason. */
int sweep_job_config(const struct rvm_config *base, const struct plan_job *j, struct rvm_config *c, char *key,
		     size_t keylen, char *why, size_t whylen);

/* 1 when a job of configuration c plans Mess point (mix, pause). */
int sweep_point_planned(const struct plan *p, unsigned c, unsigned mix, uint64_t pause);

/* The mean chase latency (ns) and bandwidth (GB/s: counters, else issued) of
 * a point whose every rep is good; 0, or -1 when it is not (all) good. */
int sweep_point_value(const struct sweep_logs *L, const struct plan *p, unsigned c, unsigned mix,
		      uint64_t pause, double *lat_ns, double *bw_gbps);

/* Write configuration c's merged log: the hdr, cfg and hart records of the
 * first job's log that has them (its mess_mix/mess_pause/suites set to the
 * merged grid), every record of the configuration's non-Mess jobs, the good
 * points' mess records in plan order, and an end record (status=fail when
 * the image reported an error, or when clean is 0: the set is incomplete or
 * damaged); sequence numbers and checksums renewed.  Returns the number of
 * records, or -1 when no log has a hdr record (nothing to merge) or on a
 * write error. */
long sweep_write_merged(const struct sweep_logs *L, const struct plan *p, unsigned c, int clean, FILE *out);

#endif
