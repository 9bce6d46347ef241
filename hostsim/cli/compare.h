/*
 * rvmess compare RUN_A RUN_B: two parsed runs side by side.
 *
 * A run is a directory `rvmess parse` wrote (tools/run.sh's run directory):
 * compare reads cache_levels.csv, chase.csv, lat.csv and mess.csv where they
 * exist (each part is skipped when either run lacks it), and run.txt / the
 * parse's --target for the platform (a run without memory timing is flagged).
 * Curves are compared point by point where both runs measured the same
 * point: lat datasets (chain, stride) at the same size, Mess curves (the same
 * store share of the generators' kernel) at the same pause.  Differences are
 * B - A.
 */
#ifndef RVMESS_CLI_COMPARE_H
#define RVMESS_CLI_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/curves.h"
#include "cli/out.h"
#include "cli/summary.h"

struct cmp_level {
	char name[16];          /* L1, L2, ..., memory */
	uint64_t capacity;      /* 0 for memory */
	double ns, cycles;      /* per load */
};

struct cmp_lat {
	char chain[16];
	uint64_t stride;
	size_t n;
	uint64_t *size;         /* ascending */
	double *ns;
};

struct cmp_run {
	const char *dir;
	struct run_info ri;
	struct cmp_level *lv;
	size_t nlv;
	double chase_ns;        /* median ns per load of chase.csv, NAN if none */
	struct cmp_lat *lat;
	size_t nlat;
	int has_mess;
	struct mess_family mess;
};

/* Read a run directory.  Returns 0, or -1 with "FILE:LINE: reason" in err
 * (a missing part is not an error; a malformed file is). */
int cmp_run_load(const char *dir, struct cmp_run *r, char *err, size_t errlen);
void cmp_run_free(struct cmp_run *r);

/* Points two curves share, and the B - A latency differences over them. */
struct cmp_diff {
	size_t n;               /* points matched */
	double mean, min, max;  /* of the latency differences (ns); NAN when n == 0 */
};

/* lat: points at the same size. */
void cmp_lat_diff(const struct cmp_lat *a, const struct cmp_lat *b, struct cmp_diff *d);
/* Mess: points at the same pause (smoothed latency). */
void cmp_mess_diff(const struct mess_curve *a, const struct mess_curve *b, struct cmp_diff *d);

/* The text report (stdout of the command). */
void cmp_report(FILE *f, const struct cmp_run *a, const struct cmp_run *b);
/* compare.svg: Mess curves of both runs (A solid, B dashed), else the lat
 * datasets of both.  0, or -1 with errno set. */
int cmp_write_svg(const struct cmp_run *a, const struct cmp_run *b, struct outdir *od, const char *name);

#endif
