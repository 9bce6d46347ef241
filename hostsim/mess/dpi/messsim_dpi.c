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
 */
#include <stdio.h>
#include <string.h>

#include "mess/messsim.h"
#include "messsim_dpi.h"

static struct messsim *sim;

int delay_init_opts(const char *curve_path, int freq_MHz, int window, double convergence, double onchip_ns)
{
	struct messsim_opts o;
	char err[600];
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
	}
	messsim_close(sim);
	sim = NULL;
}
