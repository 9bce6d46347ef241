/*
 * What ran a log, and the machine-readable summary of a parse (summary.json).
 *
 * The log alone does not say whether its times mean anything: QEMU boots the
 * same virt.elf as hostsim and reports the same hdr.  The target comes from
 * `rvmess parse --target NAME` (tools/run.sh passes it), else from the
 * "target:" line of run.txt beside the log (tools/run.sh writes it), else it
 * is unknown.  Targets named qemu* have no memory timing: their cycle counter
 * follows the host clock, so latencies and bandwidths are not the memory
 * system's.
 */
#ifndef RVMESS_CLI_SUMMARY_H
#define RVMESS_CLI_SUMMARY_H

#include <stddef.h>

#include "cli/lat.h"
#include "cli/log.h"
#include "cli/out.h"

struct run_info {
	char target[64];        /* "" when unknown */
	const char *source;     /* "--target", "run.txt" or "unknown" */
	int timing;             /* 1 simulated or measured, 0 none (QEMU), -1 unknown */
};

/* target_opt (may be NULL) wins over run.txt in the log's directory. */
void run_info_find(const char *logpath, const char *target_opt, struct run_info *ri);

/* The warning to show with every result of this run, or NULL. */
const char *run_info_warning(const struct run_info *ri);

struct summary_in {
	const struct rvm_log *log;
	const struct run_info *run;
	const struct cache_levels *levels;  /* may be NULL or empty */
	double peak_gbps;                   /* for the Mess metrics; 0 = the log's, else unknown */
	size_t invalid;                     /* records left out of the suite files */
	int clean;
};

/* Write summary.json (docs/formats.md) as NAME in od; 0, or -1 with errno set. */
int write_summary_json(const struct summary_in *in, struct outdir *od, const char *name);

/* Median of the chase records' ns per load (NAN when none). */
double chase_median_ns(const struct rvm_log *log);

#endif
