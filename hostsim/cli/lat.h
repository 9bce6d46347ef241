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

/* What the log's hdr says about the caches: its cache_max, the largest
 * cache the image's FDT describes (docs/protocol.md, "hdr cache_max"). */
struct cache_fdt {
	int known;                 /* the hdr carries cache_max (0: an image older than the key) */
	uint64_t max;              /* bytes; 0: the FDT describes no cache */
};
/* From the log's hdr; a cache_max that is not a number is reported on diag,
 * counted in *invalid and taken as absent. */
void lat_hdr_cache_fdt(const struct rvm_log *log, FILE *diag, struct cache_fdt *out, size_t *invalid);

/* What the last plateau is, and why (docs/formats.md, "Cache levels"). */
enum cache_last {
	CL_LAST_NONE,        /* no plateau */
	CL_LAST_RISING,      /* latency rises after it (lat_max below memory): a cache level */
	CL_LAST_MEMORY,      /* it starts beyond the largest cache the FDT describes: memory */
	CL_LAST_MEMORY_FLAT, /* it starts inside that cache but stays flat to twice its size
	                        and beyond: memory (the caches hold less than the FDT says) */
	CL_LAST_INSIDE,      /* it starts inside that cache (and ends before twice its size):
	                        a cache level */
	CL_LAST_UNDESCRIBED, /* it and an earlier one start beyond that cache: the FDT does
	                        not describe every cache, a cache level */
	CL_LAST_NO_FDT,      /* the sweep ends on it and the hdr names no cache size: a cache
	                        level for all the log shows */
};

struct cache_levels {
	const struct lat_set *src;
	struct plateau_opts opts;
	struct plateau *lv;
	size_t n;
	int rising;                /* latency keeps rising after the last plateau */
	struct cache_fdt fdt;      /* what the hdr says */
	enum cache_last last;      /* what the last plateau is */
};
/* fdt NULL: a log without cache_max. */
void cache_levels_find(const struct lat_set *src, const struct plateau_opts *o,
		       const struct cache_fdt *fdt, struct cache_levels *cl);
void cache_levels_free(struct cache_levels *cl);
/* Level i is memory when it is the last plateau, the sweep ends on it and
 * the hdr's cache_max places it beyond the caches (CL_LAST_MEMORY*); any
 * other plateau is a cache level. */
int cache_level_is_memory(const struct cache_levels *cl, size_t i);
/* 1 and *bytes when the sweep shows level i's capacity (its last size: the
 * latency rises after it); 0 for memory and for a last plateau the sweep
 * ends on (its capacity is its last size or more). */
int cache_level_capacity(const struct cache_levels *cl, size_t i, uint64_t *bytes);
/* "L1", "L2", ... or "memory" */
void cache_level_name(char *buf, size_t len, const struct cache_levels *cl, size_t i);
/* The note about the last plateau (without "note: "), or 0 when there is
 * none (CL_LAST_MEMORY, CL_LAST_NONE). */
int cache_levels_note(char *buf, size_t len, const struct cache_levels *cl);
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
