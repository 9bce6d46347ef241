/*
 * The fixed memory model: every transfer takes mem-latency cycles, with no
 * bandwidth limit (see memmodel.h, docs/memsys.md).  The baseline the
 * other models and the Mess family are checked against.
 */
#include "sim/memmodel.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fixed {
	uint64_t lat;
	uint64_t reads, writes;
};

static void *fixed_create(const struct memsys_cfg *cfg, char *err, size_t errlen)
{
	(void)err; (void)errlen;
	struct fixed *f = calloc(1, sizeof *f);
	if (f)
		f->lat = cfg->mem_latency;
	return f;
}

static uint64_t fixed_request(void *st, uint64_t la, int w, uint64_t now, unsigned src)
{
	struct fixed *f = st;
	(void)la;
	(void)src;
	if (w)
		f->writes++;
	else
		f->reads++;
	return now + f->lat;
}

static void fixed_stats(const void *st, struct memsys_model_stats *s)
{
	const struct fixed *f = st;
	memset(s, 0, sizeof *s);
	s->reads = f->reads;
	s->writes = f->writes;
}

static uint64_t fixed_peak(const void *st) { (void)st; return 0; }

const struct memmodel_ops memmodel_fixed = {
	"fixed", "mem-latency cycles for every transfer, unlimited bandwidth", NULL, 0, NULL, NULL,
	fixed_create, fixed_request, fixed_stats, fixed_peak, free, NULL,
};
