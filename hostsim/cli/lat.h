/*
 * lmbench-style outputs of a parsed log: the lat (lat_mem_rd), par (par_mem)
 * and chase suites as CSV and xgraph text, and the cache levels detected on
 * the lat curves.  Column lists: docs/formats.md.
 */
#ifndef RVMESS_CLI_LAT_H
#define RVMESS_CLI_LAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/log.h"
#include "cli/plateau.h"

struct lat_point {
	uint64_t size, loads, cycles, ns;
	double cpl, nspl;          /* cycles and ns per load, from the raw integers */
	unsigned long line;
};

struct lat_set {
	char chain[16];            /* "stride" or "random" */
	uint64_t stride;
	struct lat_point *pts;     /* ascending size */
	size_t n;
};

struct lat_sets {
	struct lat_set *sets;      /* in order of first appearance */
	size_t n;
};

/* Gather the lat records into datasets.  Records with a missing or bad
 * field are reported on diag ("LOG:LINE: ...") and counted in *invalid. */
void lat_collect(const struct rvm_log *log, FILE *diag, struct lat_sets *out, size_t *invalid);
void lat_sets_free(struct lat_sets *s);

/* One dataset as lmbench xgraph text: "\"stride=N" title, "%.5f %.3f"
 * lines (MB, ns/load), one blank line. */
void lat_write_xgraph(FILE *f, const struct lat_set *s);

/* The dataset cache levels are detected on: random chain at stride 64, else
 * the stride chain at stride 64, else the random chain with the smallest
 * stride, else the stride chain with the smallest stride.  NULL if none. */
const struct lat_set *lat_levels_source(const struct lat_sets *s);

struct cache_levels {
	const struct lat_set *src;
	struct plateau_opts opts;
	struct plateau *lv;
	size_t n;
	int rising;                /* latency keeps rising after the last plateau */
};
void cache_levels_find(const struct lat_set *src, const struct plateau_opts *o,
		       struct cache_levels *cl);
void cache_levels_free(struct cache_levels *cl);
/* Level i is memory when it is the last plateau and the sweep ends on it; when
 * latency keeps rising after the last plateau (lat_max below memory), every
 * plateau is a cache level. */
int cache_level_is_memory(const struct cache_levels *cl, size_t i);
/* "L1", "L2", ... or "memory" */
void cache_level_name(char *buf, size_t len, const struct cache_levels *cl, size_t i);
/* The human table (cache_levels.txt and the parse command's stdout). */
void cache_levels_print(FILE *f, const struct cache_levels *cl);

/* "32 KiB", "1.5 MiB", "640 B" ... */
void fmt_size(char *buf, size_t len, uint64_t bytes);

/*
 * Writers: each creates <file> in the output directory (out.h); they return
 * 0, or -1 with errno set on an I/O error (the reason in outdir_error()).
 * Invalid records are reported on diag and counted.
 */
struct outdir;
int write_lat_outputs(const struct lat_sets *s, struct outdir *od);       /* lat.csv, *.xg */
int write_cache_levels(const struct cache_levels *cl, struct outdir *od); /* cache_levels.{txt,csv} */
int write_par_outputs(const struct rvm_log *log, struct outdir *od, FILE *diag, size_t *invalid);
int write_chase_csv(const struct rvm_log *log, struct outdir *od, FILE *diag, size_t *invalid);

#endif
