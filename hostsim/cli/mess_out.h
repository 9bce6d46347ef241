/*
 * The Mess suite's outputs from a parsed log: raw per-window CSV, the Mess 2
 * CSV, the Mess simulator curve directory, the metrics table and SVG plots.
 * File list and columns: docs/formats.md.
 */
#ifndef RVMESS_CLI_MESS_OUT_H
#define RVMESS_CLI_MESS_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "cli/curves.h"
#include "cli/lat.h"
#include "cli/log.h"

/*
 * Collect the `mess` records as samples.  Bandwidth is the counter figure
 * when the record has one (src=ctr), else the issued figure.  Windows the
 * image flagged cached=1 (the chase hit in cache) are reported on diag and
 * left out, as are records with missing or bad fields (counted in *invalid).
 * With `issued`, the bandwidth is always the issued (STREAM-like) figure.
 * diag and invalid may be NULL.  Returns the number of samples (0 with *out
 * NULL when none), -1 on OOM.
 */
long mess_collect(const struct rvm_log *log, FILE *diag, struct mess_sample **out,
                  size_t *invalid, int issued);

/*
 * Write mess_raw.csv, mess.csv, bwlat/, mess_metrics.txt and mess.svg into
 * the output directory (out.h).  peak_gbps: theoretical peak for the metrics (0 = unknown; when 0 the
 * platform's own figure from the log is used if it reported one).  With
 * mark_issued, mess.svg also shows each curve against the issued bandwidth.
 * Returns 0, or -1 (I/O errors: errno and outdir_error(); out of memory: a
 * message on diag).
 */
struct outdir;
int mess_write_outputs(const struct rvm_log *log, struct outdir *od, double peak_gbps,
                       int mark_issued, FILE *diag, FILE *summary_out, size_t *invalid);

/* The platform's theoretical peak from the log's mess records (GB/s), 0 if none. */
double mess_log_peak_gbps(const struct rvm_log *log);

/* Plot a family, one curve per kernel: its measured points and its smoothed
 * line; `issued`, when not NULL, is the same family against issued bandwidth,
 * drawn dashed.  peak_gbps and unloaded_ns (0: unknown) are drawn as reference
 * lines.  Many curves: a colour bar (read %) instead of the legend. */
int mess_write_svg(const struct mess_family *f, const struct mess_family *issued,
                   struct outdir *od, const char *name, const char *title, double peak_gbps,
                   double unloaded_ns);
/* The same for the Mess 2 groups by measured read % (mess_family_by_read). */
int mess_write_svg_by_read(const struct mess_family *f, struct outdir *od, const char *name,
                           const char *title, double peak_gbps, double unloaded_ns);

/* lat.svg: one line per dataset, latency vs size (log2 axis). */
int lat_write_svg(const struct lat_sets *s, struct outdir *od, const char *name);

/* par.svg: the parmax records' parallelism vs size (log2 axis). */
int par_write_svg(const struct rvm_log *log, struct outdir *od, const char *name);

#endif
