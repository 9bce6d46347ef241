/*
 * hostsim --replay-mem TRACE: a --trace-mem trace sent through a fresh
 * memory model open loop (each transfer at its cycle, whatever the model
 * does with the ones before it), so that one stream of requests can be
 * compared across models, or with another DRAM simulator fed the same
 * trace (docs/memsys.md, "Cross-check").  Lines "cycle r|w address
 * [source]", sent in file order, the order the run sent them, which a
 * controller's ages follow (harts run in quanta, so a trace steps back a
 * little between harts): before each, the ddr controller is told that
 * nothing comes earlier than the least cycle still to come.
 */
#include "sim/memmodel.h"
#include "mess/textin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct xfer { uint64_t at, line, min; unsigned src; int w; }; /* min: the least cycle from here on */

/* "cycle r|w 0xADDR [SRC[p]]" (mess/textin.h), the address needed: 0, or
 * -1 with the reason */
static int parse(const char *s, unsigned line_bytes, struct xfer *x, const char **why)
{
	struct mess_trace_rec t;
	if (mess_trace_line(s, &t, why))
		return -1;
	if (!t.has_addr)
		return *why = "no address (0x...): a trace from a hostsim before addresses were traced?", -1;
	if (t.addr % line_bytes)
		return *why = "address not on a line boundary", -1;
	if (t.src >= MEMSYS_MAX_HARTS)
		return *why = "source not a hart number", -1;
	x->at = t.cycle;
	x->w = t.write;
	x->line = t.addr / line_bytes;
	x->src = (unsigned)t.src | (t.prefetch ? MEMMODEL_PF : 0);
	return 0;
}

/* a read's latency (also the ddr controller's watch: ctx is r) */
static void add_read(void *ctx, uint64_t sent, uint64_t done)
{
	struct memmodel_replay *r = ctx;
	uint64_t l = done > sent ? done - sent : 0;
	r->lat_sum += l;
	if (l > r->lat_max)
		r->lat_max = l;
	if (done > r->last)
		r->last = done;
}

int memmodel_replay(const struct memsys_cfg *cfg, FILE *in, const char *name, struct memmodel_replay *r,
                    struct memsys_model_stats *ms, char *err, size_t errlen)
{
	struct xfer *x = NULL;
	size_t n = 0, cap = 0, lineno = 0;
	char buf[256];
	int rc = -1;
	struct memmodel mm = { NULL, NULL };

	memset(r, 0, sizeof *r);
	while (fgets(buf, sizeof buf, in)) {
		lineno++;
		const char *why = NULL;
		if (!strchr(buf, '\n') && !feof(in))
			why = "line too long";
		if (n == cap) {
			cap = cap ? cap * 2 : 1 << 16;
			struct xfer *nx = realloc(x, cap * sizeof *x);
			if (!nx) {
				snprintf(err, errlen, "%s: out of memory at line %zu", name, lineno);
				goto out;
			}
			x = nx;
		}
		if (why || parse(buf, cfg->line, &x[n], &why)) {
			snprintf(err, errlen, "%s:%zu: %s", name, lineno, why);
			goto out;
		}
		n++;
	}
	if (ferror(in)) {
		snprintf(err, errlen, "%s: read error", name);
		goto out;
	}
	if (!n) {
		snprintf(err, errlen, "%s: empty trace", name);
		goto out;
	}
	x[n - 1].min = x[n - 1].at;
	for (size_t i = n - 1; i--;)
		x[i].min = x[i].at < x[i + 1].min ? x[i].at : x[i + 1].min;
	char e[256];
	if (memmodel_open(&mm, cfg, e, sizeof e)) {
		snprintf(err, errlen, "%s", e);
		goto out;
	}
	int ctl = mm.ops == &memmodel_ddrctl; /* its reads' completions: add_read */
	if (ctl && ddrctl_watch(mm.st, add_read, r)) {
		snprintf(err, errlen, "%s: out of memory", name);
		goto out;
	}
	r->first = x[0].min;
	uint64_t latest = 0;
	for (size_t i = 0; i < n; i++) {
		latest = x[i].at > latest ? x[i].at : latest;
		if (ctl)
			ddrctl_sync(mm.st, x[i].min); /* nothing is sent before it any more */
		uint64_t done = memmodel_request_src(&mm, x[i].line, x[i].w, x[i].at, x[i].src);
		if (x[i].w)
			r->writes++;
		else
			r->reads++;
		if (done & MEMSYS_PEND)
			continue;
		if (!x[i].w)
			add_read(r, x[i].at, done);
		else if (!ctl && done > r->last) /* (ddr posts writes: its last data is in its stats) */
			r->last = done;
	}
	if (ctl) { /* run the controller on until every read is known and the writes are out */
		uint64_t t = latest;
		while (ddrctl_lb(mm.st) != UINT64_MAX)
			ddrctl_sync(mm.st, t += 1000);
		ddrctl_sync(mm.st, t + 1000000);
		ddrctl_watch(mm.st, NULL, NULL);
	}
	mm.ops->stats(mm.st, ms);
	if (ms->has_ddr && ms->ddr.last_t > r->last)
		r->last = ms->ddr.last_t;
	rc = 0;
out:
	if (mm.ops)
		memmodel_close(&mm);
	free(x);
	return rc;
}
