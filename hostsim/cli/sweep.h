/*
 * The logs of a plan directory (DIR/logs/<job>.log) and the merged family
 * they make (`rvmess merge`, `rvmess plan --refine`): see plan.h for the
 * manifest and the point bookkeeping, docs/sweeps.md for the commands.
 */
#ifndef RVMESS_CLI_SWEEP_H
#define RVMESS_CLI_SWEEP_H

#include <stdio.h>

#include "cli/log.h"
#include "cli/plan.h"

struct sweep_logs {
	size_t n;
	struct rvm_log **log;  /* per job: NULL when its log is absent or unreadable */
	struct merge_set set;  /* every planned point and where it was found */
};

/* Read every job's log (validated as parse does: problems on diag as
 * LOG:LINE: reason) and account its points.  diag may be NULL. */
void sweep_logs_read(struct sweep_logs *L, const struct plan *p, const char *dir, FILE *diag);
void sweep_logs_free(struct sweep_logs *L);

/* 1 when a job of configuration c plans Mess point (mix, pause). */
int sweep_point_planned(const struct plan *p, unsigned c, unsigned mix, uint64_t pause);

/* The mean chase latency (ns) and bandwidth (GB/s: counters, else issued) of
 * a point whose every rep is good; 0, or -1 when it is not (all) good. */
int sweep_point_value(const struct sweep_logs *L, const struct plan *p, unsigned c, unsigned mix,
		      uint64_t pause, double *lat_ns, double *bw_gbps);

/* Write configuration c's merged log: the hdr, cfg and hart records of the
 * first job's log that has them (its mess_mix/mess_pause/suites set to the
 * merged grid), every record of the configuration's non-Mess jobs, the good
 * points' mess records in plan order, and an end record; sequence numbers and
 * checksums renewed.  Returns the number of records, or -1 when no log has a
 * hdr record (nothing to merge) or on a write error. */
long sweep_write_merged(const struct sweep_logs *L, const struct plan *p, unsigned c, FILE *out);

#endif
