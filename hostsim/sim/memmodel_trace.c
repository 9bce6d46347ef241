/*
 * --trace-mem, --profile-mem: a wrapper any memory model can run under
 * (memmodel_trace(), called by memsys after memmodel_open).  Every transfer
 * goes to the inner model unchanged; the trace gets one "cycle r|w address
 * source" line per transfer (rvmess sim trace replays it on the Mess
 * simulator, hostsim --replay-mem on any model), the profile the bandwidth,
 * read share and read latency per window of profile-window cycles.  Its
 * keys are listed after the models' (memmodel_keys_at).
 */
#include "sim/memmodel.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OFF(f) offsetof(struct memsys_cfg, f)

const struct memsys_key memmodel_trace_keys[] = {
	{ "trace-mem", K_STR, OFF(trace_mem), 0, sizeof(((struct memsys_cfg *)0)->trace_mem),
	  "write every memory transfer to this file as \"cycle r|w address source\" lines (any model)" },
	{ "profile-mem", K_STR, OFF(profile_mem), 0, sizeof(((struct memsys_cfg *)0)->profile_mem),
	  "write bandwidth, read share and read latency per profile-window cycles to this file (any model)" },
	{ "profile-window", K_SIZE, OFF(profile_window), 1, 1e12, "cycles per profile-mem window" },
};
const size_t memmodel_trace_nkeys = sizeof memmodel_trace_keys / sizeof memmodel_trace_keys[0];

void memmodel_trace_defaults(struct memsys_cfg *c)
{
	c->profile_window = 100000;
}

struct trace {
	struct memmodel inner;
	FILE *f, *p;                 /* trace, profile (either may be NULL) */
	uint64_t win, cur;           /* profile window, cycles; its index */
	uint64_t n, nw, nl, lat_sum; /* the window's requests, writes; reads with a latency, their sum */
	double onchip, mhz;          /* cycles added to a read's latency; clock */
	unsigned line;
};

static void profile_flush(struct trace *t)
{
	if (!t->n)
		return;
	double mbps = (double)t->n * t->line * t->mhz / (double)t->win;
	double lat = t->nl ? ((double)t->lat_sum / (double)t->nl + t->onchip) * 1e3 / t->mhz : 0;
	fprintf(t->p, "%llu %llu %.3f %.3f %.3f\n", (unsigned long long)(t->cur * t->win), (unsigned long long)t->n,
	        mbps, 100.0 * (double)(t->n - t->nw) / (double)t->n, lat);
	t->n = t->nw = t->nl = t->lat_sum = 0;
}

/* a read's latency, in the window being counted (ddr: the one in which its
 * completion became known, a few hundred cycles after it was sent) */
static void add_lat(void *st, uint64_t sent, uint64_t done)
{
	struct trace *t = st;
	t->lat_sum += done > sent ? done - sent : 0;
	t->nl++;
}

static uint64_t trace_request(void *st, uint64_t la, int w, uint64_t now, unsigned src)
{
	struct trace *t = st;
	if (t->f) /* the source: the hart, "p" after it for a prefetch */
		fprintf(t->f, "%llu %c 0x%llx %u%s\n", (unsigned long long)now, w ? 'w' : 'r',
		        (unsigned long long)(la * t->line), src & ~MEMMODEL_PF, src & MEMMODEL_PF ? "p" : "");
	uint64_t done = memmodel_request_src(&t->inner, la, w, now, src);
	if (t->p) {
		uint64_t b = now / t->win;
		if (b > t->cur) { /* a request slightly late (another hart's quantum) counts in the current one */
			profile_flush(t);
			t->cur = b;
		}
		t->n++;
		if (w)
			t->nw++;
		else if (!(done & MEMSYS_PEND)) /* (else ddr tells add_lat later) */
			add_lat(t, now, done);
	}
	return done;
}

static void trace_stats(const void *st, struct memsys_model_stats *s)
{
	const struct trace *t = st;
	t->inner.ops->stats(t->inner.st, s);
}

static uint64_t trace_peak(const void *st)
{
	const struct trace *t = st;
	return t->inner.ops->peak_mbps(t->inner.st);
}

static void close_out(FILE *f, const char *what)
{
	if (f && fclose(f))
		fprintf(stderr, "hostsim: %s: write error: %s\n", what, strerror(errno));
}

static void trace_destroy(void *st)
{
	struct trace *t = st;
	memmodel_close(&t->inner);
	if (t->p)
		profile_flush(t);
	close_out(t->f, "trace-mem");
	close_out(t->p, "profile-mem");
	free(t);
}

static uint64_t trace_admit(void *st, uint64_t la, uint64_t now, unsigned src)
{
	const struct trace *t = st;
	return t->inner.ops->admit(t->inner.st, la, now, src);
}

static const struct memmodel_ops trace_ops = {
	"trace-mem", "", NULL, 0, NULL, NULL, NULL, trace_request, trace_stats, trace_peak, trace_destroy, NULL,
};
/* the same for a model with back-pressure at its ingress */
static const struct memmodel_ops trace_admit_ops = {
	"trace-mem", "", NULL, 0, NULL, NULL, NULL, trace_request, trace_stats, trace_peak, trace_destroy, trace_admit,
};

int memmodel_trace(struct memmodel *mm, const struct memsys_cfg *cfg, char *err, size_t errlen)
{
	if (!cfg->trace_mem[0] && !cfg->profile_mem[0])
		return 0;
	struct trace *t = calloc(1, sizeof *t);
	if (!t) {
		snprintf(err, errlen, "trace-mem: out of memory");
		return -1;
	}
	if (cfg->trace_mem[0] && !(t->f = fopen(cfg->trace_mem, "w"))) {
		snprintf(err, errlen, "trace-mem: %s: %s", cfg->trace_mem, strerror(errno));
		free(t);
		return -1;
	}
	if (cfg->profile_mem[0]) {
		if (!(t->p = fopen(cfg->profile_mem, "w"))) {
			snprintf(err, errlen, "profile-mem: %s: %s", cfg->profile_mem, strerror(errno));
			if (t->f)
				fclose(t->f);
			free(t);
			return -1;
		}
		t->win = cfg->profile_window;
		t->onchip = (double)(cfg->l1d_hit + cfg->llc_hit);
		t->mhz = cfg->freq_ghz * 1e3;
		fprintf(t->p, "# cycle requests MBps read_pct read_latency_ns (per %llu cycles; latency load-to-use: "
		        "+ l1d-hit + llc-hit)\n", (unsigned long long)t->win);
	}
	t->line = cfg->line;
	if (t->p && mm->ops == &memmodel_ddrctl && ddrctl_watch(mm->st, add_lat, t)) {
		snprintf(err, errlen, "profile-mem: out of memory");
		close_out(t->f, "trace-mem");
		close_out(t->p, "profile-mem");
		free(t);
		return -1;
	}
	t->inner = *mm;
	mm->ops = mm->ops->admit ? &trace_admit_ops : &trace_ops;
	mm->st = t;
	return 0;
}
