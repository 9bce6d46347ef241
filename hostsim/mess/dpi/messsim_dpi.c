/*
 * Verilator / SystemVerilog DPI-C adapter of messsim (docs/mess.md,
 * "Verilator"), with the names the OpenPiton-Mess integration calls from its
 * fake memory controller:
 *   delay_init(curve_path, freq_MHz)   open the family; 0, or -1 (message on
 *                                      stderr): the first call's family is
 *                                      used until delay_finish()
 *   got_a_read_req(clk), got_a_write_req(clk)
 *                                      the latency in cycles of the clock
 *                                      freq_MHz of a request at cycle clk
 * plus delay_init_opts(...) for the controller's options and delay_finish().
 * One simulator per process (DPI functions have no handle).  Built as C:
 * link it and hostsim/mess/{family,ctrl}.c compiled by a C compiler.
 *
 * With RVMESS_MESS_LOG=FILE in the environment, delay_init_opts also opens
 * FILE and writes a line per closed window: what the controller saw and
 * read from the family, and the latencies the adapter gave its requests
 * since the line before (docs/mess.md, "The window log").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mess/messsim.h"
#include "messsim_dpi.h"

static struct messsim *sim;

/* ---- the window log (RVMESS_MESS_LOG) ---- */
static FILE *wlog;
static struct {
	uint64_t windows;          /* closed windows when the last line was written */
	uint64_t n[2], lat[2];     /* reads, writes since it, and their latencies' sums */
	long long first, last;     /* their clocks */
} wl;

static void wlog_line(const char *end, const struct messsim_stats *x)
{
	uint64_t n = wl.n[0] + wl.n[1];
	fprintf(wlog, "%s\t%lld\t%lld\t%llu\t%llu\t%llu\t", end, wl.first, wl.last,
	        (unsigned long long)x->windows, (unsigned long long)n, (unsigned long long)wl.n[0]);
	for (int k = 0; k < 2; k++)
		if (wl.n[k])
			fprintf(wlog, "%.3f\t", (double)wl.lat[k] / (double)wl.n[k]);
		else
			fputs("-\t", wlog);
	fprintf(wlog, "%.3f\t%.3f\t%u\t%.3f\t%llu\n", (double)x->obs_kbps / 1000.0, (double)x->est_kbps / 1000.0,
	        x->read_pct, (double)x->curve_ps / 1000.0, (unsigned long long)x->hold_cycles);
	wl.n[0] = wl.n[1] = wl.lat[0] = wl.lat[1] = 0;
	wl.windows = x->windows;
}

static void wlog_req(int w, long long clk, uint64_t l)
{
	struct messsim_stats x;
	if (wl.n[0] + wl.n[1] == 0)
		wl.first = clk;
	wl.last = clk;
	wl.n[w]++;
	wl.lat[w] += l;
	messsim_stats(sim, &x);
	if (x.windows != wl.windows)
		wlog_line("closed", &x);
}

static void wlog_open(const char *curve_path, int freq_MHz, int window)
{
	const char *path = getenv("RVMESS_MESS_LOG");
	memset(&wl, 0, sizeof wl);
	if (!path || !*path)
		return;
	wlog = fopen(path, "w");
	if (!wlog) {
		fprintf(stderr, "messsim: RVMESS_MESS_LOG=%s: cannot write it; no window log\n", path);
		return;
	}
	/* a line at a time: an RTL run may end without delay_finish() */
	setvbuf(wlog, NULL, _IOLBF, 0);
	fprintf(wlog, "# messsim window log: %s at %d MHz, window %d requests\n", curve_path, freq_MHz,
	        window > 0 ? window : 1000);
	fputs("# end\tfirst\tlast\twindows\trequests\treads\trd_lat\twr_lat\tobs_mbps\test_mbps\tread_pct\tcurve_ns\thold\n",
	      wlog);
}

int delay_init_opts(const char *curve_path, int freq_MHz, int window, double convergence, double onchip_ns)
{
	struct messsim_opts o;
	char err[600];
	if (wlog)
		fclose(wlog);
	wlog = NULL;
	messsim_close(sim);
	messsim_opts_default(&o);
	o.freq_mhz = freq_MHz;
	if (window > 0)
		o.window = (unsigned)window;
	if (convergence > 0)
		o.convergence = convergence;
	if (onchip_ns > 0)
		o.onchip_ns = onchip_ns;
	sim = messsim_open(curve_path, &o, err, sizeof err);
	if (!sim) {
		fprintf(stderr, "messsim: %s\n", err);
		return -1;
	}
	/* rows the loader clamped or dropped: one line per file */
	for (const char *w = messsim_family_of(sim)->warnings; w && *w;) {
		const char *n = strchr(w, '\n');
		int len = n ? (int)(n - w) : (int)strlen(w);
		fprintf(stderr, "messsim: warning: %.*s\n", len, w);
		w += len + (n != NULL);
	}
	wlog_open(curve_path, freq_MHz, window);
	return 0;
}

int delay_init(const char *curve_path, int freq_MHz)
{
	return delay_init_opts(curve_path, freq_MHz, 0, 0, 0);
}

static int req(int w, long long clk)
{
	if (!sim || clk < 0)
		return -1;
	uint64_t l = messsim_request(sim, w, (uint64_t)clk);
	if (wlog)
		wlog_req(w, clk, l);
	return l > 0x7fffffff ? 0x7fffffff : (int)l;
}

int got_a_read_req(long long clk) { return req(0, clk); }
int got_a_write_req(long long clk) { return req(1, clk); }

void delay_finish(void)
{
	if (sim) {
		struct messsim_stats x;
		messsim_stats(sim, &x);
		fprintf(stderr, "messsim: %llu requests (%llu reads), %llu windows, %llu overflow windows\n",
		        (unsigned long long)x.requests, (unsigned long long)x.reads, (unsigned long long)x.windows,
		        (unsigned long long)x.overflow_windows);
		if (wlog) {
			if (wl.n[0] + wl.n[1])
				wlog_line("open", &x);
			fclose(wlog);
			wlog = NULL;
		}
	}
	messsim_close(sim);
	sim = NULL;
}
