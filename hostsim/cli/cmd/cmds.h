/* The rvmess subcommands, one file each in this folder (cmd_<name>.c):
 * int cmd_<name>(int argc, char **argv), where argv[0] is the command name,
 * returns the process exit status.  Each has its option table,
 * <name>_command (cli/opts.h): its options, usage lines and its line in
 * `rvmess help`.  Adding a command = its file, its two declarations here
 * and one entry in main.c's list.  The libraries they share are the files
 * of hostsim/cli/, which never include this header. */
#ifndef RVMESS_CLI_CMDS_H
#define RVMESS_CLI_CMDS_H

#include "cli/opts.h"

int cmd_parse(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_curves(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_merge(int argc, char **argv);

extern const struct cli_cmd parse_command, capture_command, config_command, curves_command;
extern const struct cli_cmd compare_command, sim_command, plan_command, merge_command;

/* ---- parse as a part of another command's output set (merge) ---------- */

#include <stdio.h>

#include "cli/log.h"
#include "cli/out.h"
#include "cli/plateau.h"

struct parse_opts {
	int quiet, issued;
	double peak;             /* GB/s, 0: the log's own */
	const char *target;      /* --target, or NULL: run.txt beside the log */
	struct plateau_opts po;
};

/* What a parse prints once its files are committed. */
struct parse_report {
	char *out, *err;         /* its standard output and the standard error after it */
	int status;              /* parse's exit status: 0 clean, 1 unclean, 3 a detected bug */
	int clean;
};

void parse_opts_default(struct parse_opts *o);

/* Write every output of log (read from logp, the name its diagnostics and
 * summary use) into od, not committed: the caller commits od's set.
 * Diagnostics go to stderr now, the report after the commit
 * (parse_report_print).  0, or -1 on an I/O error (said on stderr). */
int parse_into(struct rvm_log *log, const char *logp, struct outdir *od, const struct parse_opts *o,
	       struct parse_report *rep);
void parse_report_print(const struct parse_report *r);
void parse_report_free(struct parse_report *r);

/* 1 when name is one parse may write into its folder (records.csv, bwlat,
 * lat_*.xg, ...): capture refuses a log of that name in parse's folder. */
int parse_output_name(const char *name);

#endif
