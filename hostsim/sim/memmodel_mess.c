/*
 * The mess memory model: a measured bandwidth-latency curve family replayed
 * by the Mess feedback controller (hostsim/mess/messsim.h, docs/mess.md),
 * and the --trace-mem wrapper any model can be run under.
 *
 * A transfer completes `latency` cycles after it leaves the LLC, the
 * latency the controller holds for the current window; there is no
 * bandwidth limit of its own: the CPU side is throttled through the
 * latency, as in the Mess paper.  The curves hold load-to-use latencies, so
 * the on-chip part (by default hostsim's l1d-hit + llc-hit) is subtracted.
 */
#include "sim/memmodel.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mess/messsim.h"

#define OFF(f) offsetof(struct memsys_cfg, f)

static const struct memsys_key mess_keys[] = {
	{ "mess-curves", K_STR, OFF(mess_curves), 0, sizeof(((struct memsys_cfg *)0)->mess_curves),
	  "mess: curve family (bwlat directory, rvmess output folder, Mess CSV)" },
	{ "mess-window", K_U32, OFF(mess_window), 1, 100000000, "mess: requests per controller window" },
	{ "mess-window-cycles", K_SIZE, OFF(mess_window_cycles), 0, 1e12, "mess: a window also closes after this many cycles (0: never)" },
	{ "mess-convergence", K_DBL, OFF(mess_conv), 1.0 / 65536, 1, "mess: share of the way the bandwidth estimate moves per window" },
	{ "mess-onchip", K_DBL, OFF(mess_onchip), -1, 1e9, "mess: on-chip part of the curves' latency, ns (-1: l1d-hit + llc-hit)" },
	{ "mess-curve-mhz", K_DBL, OFF(mess_curve_mhz), 0, 1e6, "mess: the curves' latencies are cycles at this clock (0: ns)" },
	{ "trace-mem", K_STR, OFF(trace_mem), 0, sizeof(((struct memsys_cfg *)0)->trace_mem),
	  "write every memory transfer to this file as \"cycle r|w\" lines (any model)" },
	{ "profile-mem", K_STR, OFF(profile_mem), 0, sizeof(((struct memsys_cfg *)0)->profile_mem),
	  "write bandwidth, read share and read latency per profile-window cycles to this file (any model)" },
	{ "profile-window", K_SIZE, OFF(profile_window), 1, 1e12, "cycles per profile-mem window" },
};

static void mess_defaults(struct memsys_cfg *c)
{
	c->mess_window = 1000;
	c->mess_window_cycles = 10000;
	c->profile_window = 100000;
	c->mess_conv = 0.05;
	c->mess_onchip = -1;
}

static void *mess_create(const struct memsys_cfg *cfg, char *err, size_t errlen)
{
	if (!cfg->mess_curves[0]) {
		snprintf(err, errlen, "mess: no curve family (--mess-curves DIR|CSV)");
		return NULL;
	}
	struct messsim_opts o;
	messsim_opts_default(&o);
	o.freq_mhz = cfg->freq_ghz * 1e3;
	o.window = cfg->mess_window;
	o.window_cycles = cfg->mess_window_cycles;
	o.convergence = cfg->mess_conv;
	o.onchip_ns = cfg->mess_onchip >= 0 ? cfg->mess_onchip
	                                    : (double)(cfg->l1d_hit + cfg->llc_hit) / cfg->freq_ghz;
	o.line = cfg->line;
	o.curve_mhz = cfg->mess_curve_mhz;
	char e[400];
	struct messsim *s = messsim_open(cfg->mess_curves, &o, e, sizeof e);
	if (!s) {
		snprintf(err, errlen, "mess: %s", e);
		return NULL;
	}
	/* rows the loader clamped or dropped: one line per file, once (the
	 * options are checked by opening the model before the run opens it) */
	static char warned[sizeof cfg->mess_curves];
	if (!strcmp(warned, cfg->mess_curves))
		return s;
	snprintf(warned, sizeof warned, "%s", cfg->mess_curves);
	for (const char *w = messsim_family_of(s)->warnings; w && *w;) {
		const char *n = strchr(w, '\n');
		int len = n ? (int)(n - w) : (int)strlen(w);
		fprintf(stderr, "hostsim: mess: warning: %.*s\n", len, w);
		w += len + (n != NULL);
	}
	return s;
}

static uint64_t mess_request(void *st, uint64_t la, int w, uint64_t now, unsigned src)
{
	(void)la;
	(void)src;
	return now + messsim_request(st, w, now);
}

static void mess_stats(const void *st, struct memsys_model_stats *s)
{
	struct messsim_stats x;
	messsim_stats(st, &x);
	memset(s, 0, sizeof *s);
	s->reads = x.reads;
	s->writes = x.writes;
}

static uint64_t mess_peak(const void *st)
{
	struct messsim_stats x;
	messsim_stats(st, &x);
	return (x.peak_kbps + 500) / 1000;
}

static void mess_destroy(void *st) { messsim_close(st); }

const struct memmodel_ops memmodel_mess = {
	"mess", "a measured curve family replayed by the Mess feedback controller (the mess-* keys; docs/mess.md)",
	mess_keys, sizeof mess_keys / sizeof mess_keys[0], mess_defaults, NULL,
	mess_create, mess_request, mess_stats, mess_peak, mess_destroy, NULL,
};

/* ---- --trace-mem, --profile-mem -------------------------------------------- */

struct trace {
	struct memmodel inner;
	FILE *f, *p;                 /* trace, profile (either may be NULL) */
	uint64_t win, cur;           /* profile window, cycles; its index */
	uint64_t n, nw, nr, lat_sum; /* the window's requests, writes, reads, read latency */
	double onchip, mhz;          /* cycles added to a read's latency; clock */
	unsigned line;
};

static void profile_flush(struct trace *t)
{
	if (!t->n)
		return;
	double mbps = (double)t->n * t->line * t->mhz / (double)t->win;
	double lat = t->nr ? ((double)t->lat_sum / (double)t->nr + t->onchip) * 1e3 / t->mhz : 0;
	fprintf(t->p, "%llu %llu %.3f %.3f %.3f\n", (unsigned long long)(t->cur * t->win), (unsigned long long)t->n,
	        mbps, 100.0 * (double)(t->n - t->nw) / (double)t->n, lat);
	t->n = t->nw = t->nr = t->lat_sum = 0;
}

static uint64_t trace_request(void *st, uint64_t la, int w, uint64_t now, unsigned src)
{
	struct trace *t = st;
	if (t->f)
		fprintf(t->f, "%llu %c\n", (unsigned long long)now, w ? 'w' : 'r');
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
		else {
			t->nr++;
			t->lat_sum += done > now ? done - now : 0;
		}
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
		t->line = cfg->line;
		fprintf(t->p, "# cycle requests MBps read_pct read_latency_ns (per %llu cycles; latency load-to-use: "
		        "+ l1d-hit + llc-hit)\n", (unsigned long long)t->win);
	}
	t->inner = *mm;
	mm->ops = mm->ops->admit ? &trace_admit_ops : &trace_ops;
	mm->st = t;
	return 0;
}
