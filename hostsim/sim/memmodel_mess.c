/*
 * The mess memory model: a measured bandwidth-latency curve family replayed
 * by the Mess feedback controller (hostsim/mess/messsim.h, docs/mess.md).
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
};

static void mess_defaults(struct memsys_cfg *c)
{
	c->mess_window = 1000;
	c->mess_window_cycles = 10000;
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
