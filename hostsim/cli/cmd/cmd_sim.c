/*
 * rvmess sim: the Mess analytical simulator without a CPU (docs/mess.md).
 *
 *   rvmess sim info FAMILY              what was read, interpolated, copied
 *   rvmess sim curves MESS.csv -o DIR   a bwlat directory from few kernels
 *   rvmess sim run FAMILY --bw MBPS --read PCT [--arrivals poisson|periodic]
 *   rvmess sim trace FAMILY TRACE       replay "cycle r|w [address source]" lines
 *   rvmess sim sweep FAMILY [--read PCT] the self-check: the synthetic rate
 *                                       swept over a curve reproduces it
 *   rvmess sim profile FAMILY PROFILE [-o SVG]
 *                                       hostsim --profile-mem windows placed on
 *                                       the family: the memory stress score
 *   rvmess sim loop FAMILY --outstanding K
 *                                       a closed loop of K requests always in
 *                                       flight, against where it should settle
 *   rvmess sim bench FAMILY --stream steady|bursty|closed
 *                                       requests per second of the simulator
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cmd/cmds.h"
#include "cli/config.h"
#include "cli/simloop.h"
#include "cli/svg.h"
#include "mess/messsim.h"
#include "mess/textin.h"

struct args {
	const char *family, *file, *out;
	struct messsim_opts o;
	double bw, read;
	int poisson;
	uint64_t requests, seed, every;
	int have_read, have_requests;
	unsigned outstanding, burst;
	const char *stream;
	/* as the options give them (numbers of strtod, --stream's index) */
	double requests_d, seed_d, every_d, outstanding_d, burst_d, window_d;
	int stream_k;
};

static const char *const stream_names[] = { "steady", "bursty", "closed" };

/* the usage lines, one per action */
enum { INFO = 1, CURVES = 2, RUN = 4, TRACE = 8, SWEEP = 16, PROFILE = 32, LOOP = 64, REF = 128, BENCH = 256 };

#define F(x) offsetof(struct args, x)
static const struct cli_opt sim_options[] = {
	{ .name = "-o", .kind = CLI_STR, .off = F(out), .meta = "OUT", .lines = CURVES | PROFILE, .req = CURVES,
	  .help = "curves: the bwlat directory to write; profile: an SVG of the windows over the measured curves" },
	{ .name = "--stream", .kind = CLI_ENUM, .off = F(stream_k), .meta = "steady|bursty|closed", .lines = BENCH,
	  .help = "bench's stream (default steady)" },
	{ .name = "--bw", .kind = CLI_DBL, .off = F(bw), .meta = "MBPS", .lo = 0.001, .hi = MESSSIM_MAX_MBPS,
	  .what = "MB/s", .lines = RUN | BENCH, .req = RUN, .help = "the synthetic rate in MB/s" },
	{ .name = "--burst", .kind = CLI_DBL, .off = F(burst_d), .meta = "B", .lo = 1, .hi = 1e6, .flags = CLI_WHOLE,
	  .what = "a whole number of requests", .lines = BENCH, .help = "requests per burst of bench's bursty stream" },
	{ .name = "--outstanding", .kind = CLI_DBL, .off = F(outstanding_d), .meta = "K", .lo = 1, .hi = 1e7,
	  .flags = CLI_WHOLE, .what = "a whole number of requests", .lines = LOOP | BENCH, .req = LOOP,
	  .help = "requests always in flight (loop; bench's closed stream)" },
	{ .name = "--read", .kind = CLI_DBL, .off = F(read), .meta = "PCT", .lo = 0, .hi = 100, .what = "a percentage",
	  .lines = RUN | SWEEP | LOOP | BENCH, .req = RUN, .help = "% of reads (default 100; sweep: that curve only)" },
	{ .name = "--arrivals", .kind = CLI_ENUM, .off = F(poisson), .meta = "periodic|poisson", .lines = RUN,
	  .help = "run's arrivals (default periodic)" },
	{ .name = "--poisson", .kind = CLI_FLAG, .off = F(poisson) },
	{ .name = "--requests", .kind = CLI_DBL, .off = F(requests_d), .meta = "N", .lo = 1, .hi = 1e10,
	  .what = "a number of requests", .lines = RUN | LOOP | BENCH, .help = "requests to simulate" },
	{ .name = "--seed", .kind = CLI_DBL, .off = F(seed_d), .meta = "S", .lo = 0, .hi = 1e18, .lines = RUN,
	  .help = "run's random seed (default 1)" },
	{ .name = "--every", .kind = CLI_DBL, .off = F(every_d), .meta = "K", .lo = 0, .hi = 1e10,
	  .what = "a number of windows", .lines = RUN, .help = "run prints the timeline every K windows (default 0: none)" },
	{ .name = "--freq-mhz", .kind = CLI_DBL, .off = F(o.freq_mhz), .meta = "F", .lo = 0.001, .hi = 1e6,
	  .what = "MHz", .help = "the clock (default 1000)" },
	{ .name = "--window", .kind = CLI_DBL, .off = F(window_d), .meta = "N", .lo = 1, .hi = 1e8,
	  .what = "a number of requests", .help = "requests per window (default 1000)" },
	{ .name = "--convergence", .kind = CLI_DBL, .off = F(o.convergence), .meta = "C", .lo = 1.0 / 65536, .hi = 1,
	  .help = "share of the way the estimate moves per window (default 0.05)" },
	{ .name = "--onchip", .kind = CLI_DBL, .off = F(o.onchip_ns), .meta = "NS", .lo = 0, .hi = 1e9, .what = "ns",
	  .help = "on-chip part of the curves' latency (default 0)" },
	{ .name = "--curve-mhz", .kind = CLI_DBL, .off = F(o.curve_mhz), .meta = "F", .lo = 0, .hi = 1e6,
	  .what = "MHz", .help = "curve latencies in cycles at F MHz (default 0: in ns)" },
};
#undef F
static const struct cli_line sim_usage[] = {
	{ .args = "info FAMILY", .flags = CLI_OPTIONS },
	{ .args = "curves MESS.csv" },
	{ .args = "run FAMILY", .flags = CLI_OPTIONS },
	{ .args = "trace FAMILY TRACE", .flags = CLI_OPTIONS },
	{ .args = "sweep FAMILY", .flags = CLI_OPTIONS },
	{ .args = "profile FAMILY PROFILE" },
	{ .args = "loop FAMILY", .flags = CLI_OPTIONS },
	{ .args = "ref FAMILY", .flags = CLI_OPTIONS, .tail = "< \"READ_PCT MBPS [SAT_NS]\" lines" },
	{ .args = "bench FAMILY", .flags = CLI_OPTIONS },
};
const struct cli_cmd sim_command = {
	.name = "sim", .run = cmd_sim, .summary = "the Mess analytical simulator without a CPU (docs/mess.md)",
	.lines = sim_usage, .nlines = CLI_N(sim_usage), .opts = sim_options, .nopts = CLI_N(sim_options), .max_pos = 2,
};

static int usage(const char *why, const char *arg)
{
	if (why)
		fprintf(stderr, "rvmess sim: %s%s%s\n", why, arg ? " " : "", arg ? arg : "");
	return cli_usage(&sim_command);
}

static int help(void)
{
	cli_print_usage(stdout, &sim_command, "usage: ", "       ");
	printf("The Mess analytical memory simulator (hostsim/mess/messsim.h) on its own.  FAMILY is\n"
	       "a bwlat directory, an rvmess output folder or a Mess 1/Mess 2 CSV.\n"
	       "  info          one line per read ratio: measured, interpolated or extrapolated\n"
	       "  curves        a bwlat directory (51 files + README) built from a Mess 2 CSV of a\n"
	       "                few kernels by interpolating between kernels at equal pause\n"
	       "  run           open-loop synthetic traffic at --bw MB/s with --read %% reads\n"
	       "                (default 100), --arrivals periodic (default) or poisson, --requests N\n"
	       "                (default 1000000), --seed S; prints the timeline every --every K\n"
	       "                windows (default 0: none) and a summary\n"
	       "  trace         replay a file of \"cycle r|w [address source]\" lines (hostsim --trace-mem writes one)\n"
	       "  sweep         for each point of each measured curve (or --read PCT), run the\n"
	       "                synthetic rate at the point's bandwidth and compare the simulated\n"
	       "                latency with the curve's: exit 1 if one is off by more than 1 %%\n"
	       "                (or one cycle)\n"
	       "  profile       place the windows of hostsim --profile-mem FILE on the family: per\n"
	       "                window the curve latency at its bandwidth and the memory stress score\n"
	       "                (0 on the unloaded plateau, 1 at the curve's highest bandwidth; docs/mess.md);\n"
	       "                -o SVG plots the windows over the measured curves\n"
	       "  loop          a closed loop: --outstanding K requests always in flight (each issued\n"
	       "                again when it returns: its latency plus --onchip), --read %% reads,\n"
	       "                --requests N (default 200 x the larger of K and the window, at least\n"
	       "                1000000); prints the bandwidth and latency of the second half and\n"
	       "                where such a loop settles on the curve (the equilibrium)\n"
	       "  ref           for each line \"READ_PCT MBPS [SAT_NS]\" on stdin, the family as the\n"
	       "                controller reads it there (the curves around READ_PCT blended):\n"
	       "                \"READ_PCT MBPS LATENCY_NS UNLOADED_NS SAT_MBPS HIGHEST_MBPS MAXLAT_NS\"\n"
	       "                (SAT_MBPS: where the latency first reaches SAT_NS, default twice the\n"
	       "                unloaded one)\n"
	       "  bench         the simulator's speed on a stream: steady (periodic at --bw MB/s,\n"
	       "                default half the curve's highest bandwidth), bursty (bursts of --burst\n"
	       "                requests, default 64, at one cycle, the same mean rate) or closed (K\n"
	       "                outstanding, default 256); --requests N (default 100000000); prints\n"
	       "                requests per second of messsim_request (closed: of the whole loop)\n"
	       "options (OPTIONS: the last five):\n");
	cli_print_options(stdout, &sim_command);
	printf("Exit status: 0 ok; 1 sweep mismatch; 2 usage error, unreadable or refused input.\n");
	return 0;
}

/* argv[0] is the action */
static int parse(int argc, char **argv, struct args *a)
{
	struct cli_res res;
	int rc;

	memset(a, 0, sizeof *a);
	messsim_opts_default(&a->o);
	a->o.freq_mhz = 1000;
	a->read = 100;
	a->requests_d = 1000000;
	a->seed_d = 1;
	a->burst_d = 64;
	a->window_d = a->o.window;
	rc = cli_parse(&sim_command, argc, argv, a, &res);
	a->family = res.npos > 0 ? argv[res.pos[0]] : NULL;
	a->file = res.npos > 1 ? argv[res.pos[1]] : NULL;
	a->have_read = cli_given(&sim_command, &res, "--read") > 0;
	a->have_requests = cli_given(&sim_command, &res, "--requests") > 0;
	cli_res_free(&res);
	if (rc)
		return rc == CLI_HELP ? -1 : rc;
	a->requests = (uint64_t)a->requests_d;
	a->seed = (uint64_t)a->seed_d;
	a->every = (uint64_t)a->every_d;
	a->outstanding = (unsigned)a->outstanding_d;
	a->burst = (unsigned)a->burst_d;
	a->o.window = (unsigned)a->window_d;
	a->stream = stream_names[a->stream_k];
	return 0;
}

/* The loader's warnings (rows it clamped or dropped), one line per file, on
 * stderr. */
static void print_warnings(const struct messsim_family *f)
{
	for (const char *w = f->warnings; w && *w;) {
		const char *e = strchr(w, '\n');
		int len = e ? (int)(e - w) : (int)strlen(w);
		fprintf(stderr, "rvmess sim: warning: %.*s\n", len, w);
		w += len + (e != NULL);
	}
}

static struct messsim *open_sim(const struct args *a)
{
	char err[600];
	struct messsim *s = messsim_open(a->family, &a->o, err, sizeof err);
	if (!s)
		fprintf(stderr, "rvmess sim: %s\n", err);
	return s;
}

static double cyc2ns(const struct args *a, uint64_t c) { return (double)c * 1e3 / a->o.freq_mhz + a->o.onchip_ns; }

static uint64_t rng(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Summary accumulator: mean latency (ns, incl. on-chip) of the second half,
 * summed in whole cycles (the per-request part stays a few instructions). */
struct acc { uint64_t n, half, cnt, lsum, last_windows; };

static void acc_every(struct acc *c, const struct args *a, struct messsim *s, uint64_t cycle)
{
	struct messsim_stats x;
	messsim_stats(s, &x);
	if (x.windows != c->last_windows) {
		c->last_windows = x.windows;
		if (x.windows % a->every == 0)
			printf("window %llu cycle %llu read %u%% observed %.1f MB/s estimate %.1f MB/s latency %.2f ns\n",
			       (unsigned long long)x.windows, (unsigned long long)cycle, x.read_pct,
			       (double)x.obs_kbps / 1e3, (double)x.est_kbps / 1e3, cyc2ns(a, x.hold_cycles));
	}
}

static inline void acc_add(struct acc *c, const struct args *a, struct messsim *s, uint64_t lat, uint64_t cycle)
{
	if (++c->n > c->half) {
		c->lsum += lat;
		c->cnt++;
	}
	if (a->every)
		acc_every(c, a, s, cycle);
}

static void summary(const struct args *a, struct messsim *s, const struct acc *c)
{
	struct messsim_stats x;
	messsim_stats(s, &x);
	printf("requests %llu (reads %llu, writes %llu), windows %llu, overflow windows %llu, throttled windows %llu\n",
	       (unsigned long long)x.requests, (unsigned long long)x.reads, (unsigned long long)x.writes,
	       (unsigned long long)x.windows, (unsigned long long)x.overflow_windows,
	       (unsigned long long)x.throttled_windows);
	printf("last window: read %u%%, observed %.1f MB/s, estimate %.1f MB/s, curve latency %.3f ns\n", x.read_pct,
	       (double)x.obs_kbps / 1e3, (double)x.est_kbps / 1e3, (double)x.curve_ps / 1e3);
	printf("mean latency, second half: %.3f ns (on-chip %.3f ns included)\n",
	       c->cnt ? (double)c->lsum / (double)c->cnt * 1e3 / a->o.freq_mhz + a->o.onchip_ns : 0, a->o.onchip_ns);
}

/* Open-loop synthetic traffic; returns the latency (ns) held at the end. */
static double synth(const struct args *a, struct messsim *s, double bw, double read, uint64_t n, struct acc *c)
{
	/* gap in 1/65536 cycle: line bytes at bw MB/s = line / bw us */
	double gap = (double)a->o.line * a->o.freq_mhz / bw * 65536;
	uint64_t x = a->seed * 0x9E3779B97F4A7C15ull + 1, t = 0, g = (uint64_t)(gap + 0.5);
	double err = 0;
	if (!g)
		g = 1;
	if (a->poisson) {
		for (uint64_t i = 0; i < n; i++) {
			double u = ((double)(rng(&x) >> 11) + 0.5) / 9007199254740992.0;
			t += (uint64_t)(-log(u) * gap + 0.5);
			int w = (double)(rng(&x) >> 11) / 9007199254740992.0 * 100 >= read;
			uint64_t l = messsim_request(s, w, t >> 16);
			if (c)
				acc_add(c, a, s, l, t >> 16);
		}
	} else if (!c || a->every) {
		for (uint64_t i = 0; i < n; i++) {
			t += g;
			err += read; /* error diffusion: exactly `read` % over every 100 */
			int w = err < 100;
			if (!w)
				err -= 100;
			uint64_t l = messsim_request(s, w, t >> 16);
			if (c)
				acc_add(c, a, s, l, t >> 16);
		}
	} else { /* the same, its summary summed here (sim run: the usual case, kept short) */
		uint64_t half = c->half, lsum = 0, cnt = 0;
		for (uint64_t i = 0; i < n; i++) {
			t += g;
			err += read;
			int w = err < 100;
			if (!w)
				err -= 100;
			uint64_t l = messsim_request(s, w, t >> 16);
			if (i >= half) {
				lsum += l;
				cnt++;
			}
		}
		c->n += n;
		c->lsum += lsum;
		c->cnt += cnt;
	}
	struct messsim_stats st;
	messsim_stats(s, &st);
	return cyc2ns(a, st.hold_cycles);
}

static int do_trace(const struct args *a, struct messsim *s)
{
	FILE *in = fopen(a->file, "r");
	if (!in) {
		fprintf(stderr, "rvmess sim: %s: cannot open: %s\n", a->file, strerror(errno));
		return 2;
	}
	char line[256];
	size_t lineno = 0, n = 0;
	/* two passes: count (for the second half), then replay */
	while (fgets(line, sizeof line, in))
		n++;
	rewind(in);
	struct acc c = { 0, n / 2, 0, 0, 0 };
	while (fgets(line, sizeof line, in)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(in)) {
			fprintf(stderr, "rvmess sim: %s:%zu: line too long\n", a->file, lineno);
			fclose(in);
			return 2;
		}
		struct mess_trace_rec t;
		const char *why; /* (the message below names the form; the address is not the Mess simulator's business) */
		if (mess_trace_line(line, &t, &why)) {
			fprintf(stderr, "rvmess sim: %s:%zu: not a \"cycle r|w [address source]\" line\n", a->file, lineno);
			fclose(in);
			return 2;
		}
		acc_add(&c, a, s, messsim_request(s, t.write, t.cycle), t.cycle);
	}
	fclose(in);
	if (!lineno) {
		fprintf(stderr, "rvmess sim: %s: empty trace\n", a->file);
		return 2;
	}
	summary(a, s, &c);
	return 0;
}

/* Every point of curve R below its maximum (and above zero bandwidth):
 * drive that bandwidth until the estimate has settled and compare. */
static int sweep_curve(const struct args *a, const struct messsim_curve *cv, double *worst, unsigned *npts)
{
	int bad = 0;
	for (size_t i = 0; i <= cv->imax; i++) {
		if (cv->kbps[i] <= 0)
			continue;
		/* a point on a flat stretch is not where the lower branch reads */
		double bw = (double)cv->kbps[i] / 1e3;
		double want = (double)messsim_curve_ps_at(cv, cv->kbps[i]) / 1e3;
		struct messsim *s = open_sim(a);
		if (!s)
			return -1;
		/* 300 windows: the estimate is within 0.95^300 of the rate */
		double got = synth(a, s, bw, cv->read_pct, (uint64_t)a->o.window * 300, NULL);
		messsim_close(s);
		/* points of one bandwidth make the curve vertical there: any
		 * latency between theirs is the curve's (the estimate a hair
		 * above the rate reads the top of the stretch) */
		double lo = want, hi = want;
		for (size_t j = 0; j <= cv->imax; j++)
			if (cv->kbps[j] == cv->kbps[i]) {
				double v = (double)cv->ps[j] / 1e3;
				lo = v < lo ? v : lo;
				hi = v > hi ? v : hi;
			}
		double ref = got < lo ? lo : got > hi ? hi : got;
		double e = fabs(got - ref) / ref * 100, tol_ns = 1e3 / a->o.freq_mhz;
		int ok = e <= 1 || fabs(got - ref) <= tol_ns;
		printf("%3u %5zu %12.3f %10.3f %10.3f %7.3f %s\n", cv->read_pct, i, bw, want, got, e, ok ? "ok" : "MISMATCH");
		if (e > *worst)
			*worst = e;
		(*npts)++;
		bad |= !ok;
	}
	return bad;
}

static int do_profile(const struct args *a, struct messsim *s)
{
	const struct messsim_family *f = messsim_family_of(s);
	FILE *in = fopen(a->file, "r");
	if (!in) {
		fprintf(stderr, "rvmess sim: %s: cannot open: %s\n", a->file, strerror(errno));
		return 2;
	}
	char line[512];
	size_t lineno = 0, n = 0, cap = 0, hi = 0;
	double *bx = NULL, *ly = NULL, *sc = NULL, sum = 0;
	int rc = 0;
	printf("%12s %10s %6s %10s %10s %6s\n", "cycle", "MB/s", "read%", "lat ns", "curve ns", "score");
	while (fgets(line, sizeof line, in)) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		unsigned long long cyc, req;
		double mbps, rd, lat;
		char extra;
		if (sscanf(line, "%llu %llu %lf %lf %lf %c", &cyc, &req, &mbps, &rd, &lat, &extra) != 5 || !(mbps >= 0) ||
		    !(mbps <= MESSSIM_MAX_MBPS) || !(rd >= 0 && rd <= 100) || !(lat >= 0 && lat <= MESSSIM_MAX_NS)) {
			fprintf(stderr, "rvmess sim: %s:%zu: not a \"cycle requests MBps read_pct latency_ns\" line\n", a->file,
			        lineno);
			rc = 2;
			break;
		}
		const struct messsim_curve *c = &f->c[(unsigned)floor(rd / 2 + 0.5)];
		double cl, score = messsim_stress_score(c, (int64_t)(mbps * 1e3 + 0.5), &cl);
		printf("%12llu %10.1f %6.1f %10.1f %10.1f %6.3f\n", cyc, mbps, rd, lat, cl, score);
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			double *nb = realloc(bx, cap * sizeof *nb), *nl = nb ? realloc(ly, cap * sizeof *nl) : NULL,
			       *ns = nl ? realloc(sc, cap * sizeof *ns) : NULL;
			if (nb) bx = nb;
			if (nl) ly = nl;
			if (ns) sc = ns;
			if (!ns) {
				fprintf(stderr, "rvmess sim: out of memory\n");
				rc = 2;
				break;
			}
		}
		bx[n] = mbps / 1e3;
		ly[n] = lat;
		sc[n++] = score;
		sum += score;
		hi += score > 0.5;
	}
	fclose(in);
	if (!rc)
		printf("profile: %zu windows, mean stress score %.3f, %zu above 0.5\n", n, n ? sum / (double)n : 0, hi);
	if (!rc && a->out) {
		/* the measured curves (lines) and the windows in five score bands */
		struct svg_series ser[MESSSIM_NRATIOS + 5];
		double *cx[MESSSIM_NRATIOS] = { 0 }, *cy[MESSSIM_NRATIOS] = { 0 };
		char labels[MESSSIM_NRATIOS + 5][40];
		size_t ns = 0;
		for (unsigned i = 0; i < MESSSIM_NRATIOS; i++) {
			const struct messsim_curve *c = &f->c[i];
			if (c->how != MESSSIM_MEASURED || !(cx[i] = malloc(c->n * sizeof(double))) ||
			    !(cy[i] = malloc(c->n * sizeof(double))))
				continue;
			for (size_t j = 0; j < c->n; j++) {
				cx[i][j] = (double)c->kbps[j] / 1e6;
				cy[i][j] = (double)c->ps[j] / 1e3;
			}
			memset(&ser[ns], 0, sizeof ser[ns]);
			snprintf(labels[ns], sizeof labels[ns], "%u %% reads", c->read_pct);
			ser[ns].label = labels[ns];
			ser[ns].x = cx[i];
			ser[ns].y = cy[i];
			ser[ns].n = c->n;
			svg_palette(ns, ser[ns].color);
			ns++;
		}
		double *wx[5], *wy[5];
		for (int b = 0; b < 5; b++) {
			size_t k = 0;
			wx[b] = malloc((n ? n : 1) * sizeof(double));
			wy[b] = malloc((n ? n : 1) * sizeof(double));
			if (!wx[b] || !wy[b])
				continue;
			for (size_t j = 0; j < n; j++)
				if ((int)(sc[j] * 5) == b || (b == 4 && sc[j] >= 1)) {
					wx[b][k] = bx[j];
					wy[b][k++] = ly[j];
				}
			memset(&ser[ns], 0, sizeof ser[ns]);
			snprintf(labels[ns], sizeof labels[ns], "windows, score %.1f-%.1f", b / 5.0, (b + 1) / 5.0);
			ser[ns].label = labels[ns];
			ser[ns].x = wx[b];
			ser[ns].y = wy[b];
			ser[ns].n = k;
			ser[ns].markers = 1;
			ser[ns].no_line = 1;
			svg_ramp(b / 4.0, ser[ns].color);
			ns++;
		}
		struct svg_plot pl = { .title = "memory stress: profile windows over the curve family",
		                       .xlabel = "bandwidth (GB/s)", .ylabel = "latency (ns)", .x_from_zero = 1 };
		/* written whole beside it and renamed over it: a link or a FIFO
		 * at the path is replaced, never written through; never the
		 * profile itself */
		char *buf = NULL;
		size_t len = 0;
		struct stat si, so;
		mode_t um = umask(0);
		int bad;
		FILE *o;

		umask(um);
		if (stat(a->file, &si) == 0 && stat(a->out, &so) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
			fprintf(stderr, "rvmess sim: %s: is the profile it reads; not replaced\n", a->out);
			rc = 2;
		} else if (!(o = open_memstream(&buf, &len))) {
			fprintf(stderr, "rvmess sim: %s: cannot write: %s\n", a->out, strerror(errno));
			rc = 2;
		} else {
			bad = svg_write(o, &pl, ser, ns) != 0;
			bad |= fclose(o) != 0;
			if (bad) {
				fprintf(stderr, "rvmess sim: %s: cannot write: out of memory (nothing changed)\n", a->out);
				rc = 2;
			} else if (cfg_write_atomic(a->out, (const unsigned char *)buf, len, 0666 & ~um) < 0) {
				fprintf(stderr, "rvmess sim: %s: cannot write: %s (nothing changed)\n", a->out, strerror(errno));
				rc = 2;
			} else
				printf("%s written\n", a->out);
		}
		free(buf);
		for (unsigned i = 0; i < MESSSIM_NRATIOS; i++) {
			free(cx[i]);
			free(cy[i]);
		}
		for (int b = 0; b < 5; b++) {
			free(wx[b]);
			free(wy[b]);
		}
	}
	free(bx);
	free(ly);
	free(sc);
	return rc;
}

static struct simloop loop_opts(const struct args *a)
{
	struct simloop o = { a->o.freq_mhz, a->o.onchip_ns, a->read, a->o.line };
	return o;
}

/* The curve of --read (its nearest even ratio): where the equilibrium is
 * worked out and whose maximum a loop is compared with. */
static const struct messsim_curve *read_curve(const struct args *a, struct messsim *s)
{
	return &messsim_family_of(s)->c[(unsigned)floor(a->read / 2 + 0.5)];
}

static int do_loop(const struct args *a, struct messsim *s)
{
	if (!a->outstanding)
		return usage("loop needs --outstanding K", NULL);
	uint64_t big = a->outstanding > a->o.window ? a->outstanding : a->o.window;
	uint64_t n = a->have_requests ? a->requests : 200 * big < 1000000 ? 1000000 : 200 * big;
	struct simloop o = loop_opts(a);
	struct simloop_result r;
	if (simloop_closed(s, &o, a->outstanding, n, &r)) {
		fprintf(stderr, "rvmess sim: out of memory\n");
		return 2;
	}
	const struct messsim_curve *c = read_curve(a, s);
	double bmax = (double)c->kbps[c->imax] / 1e3, eb, el;
	simloop_equilibrium(c, &o, a->outstanding, &eb, &el);
	struct messsim_stats x;
	messsim_stats(s, &x);
	printf("loop: %u outstanding, read %g %%, window %u: %.1f MB/s (%.2f %% of the curve's highest, %.1f MB/s), "
	       "latency %.2f ns, %llu windows (%llu throttled)\n",
	       a->outstanding, a->read, a->o.window, r.mbps, 100 * r.mbps / bmax, bmax, r.lat_ns,
	       (unsigned long long)x.windows, (unsigned long long)x.throttled_windows);
	printf("equilibrium: %.1f MB/s at %.2f ns; bandwidth error %.2f %%\n", eb, el, 100 * (r.mbps - eb) / eb);
	return 0;
}

/* Lines "READ_PCT MBPS [SAT_NS]" on stdin: the family at that read share
 * and bandwidth as the controller reads it (simloop_reference), one line
 * each: "READ_PCT MBPS LAT_NS UNLOADED_NS SAT_MBPS HIGHEST_MBPS MAXLAT_NS",
 * SAT_MBPS where the latency first reaches SAT_NS (default twice the
 * unloaded latency). */
static int do_ref(const struct args *a, struct messsim *s)
{
	(void)a;
	char line[256];
	size_t lineno = 0;
	while (fgets(line, sizeof line, stdin)) {
		lineno++;
		double rd, bw, th = 0;
		char extra;
		int n = sscanf(line, "%lf %lf %lf %c", &rd, &bw, &th, &extra);
		if ((n != 2 && n != 3) || !(rd >= 0 && rd <= 100) || !(bw >= 0 && bw <= MESSSIM_MAX_MBPS) ||
		    !(th >= 0 && th <= MESSSIM_MAX_NS)) {
			fprintf(stderr, "rvmess sim: stdin:%zu: not a \"read_pct MBps [sat_ns]\" line\n", lineno);
			return 2;
		}
		struct simloop_ref r;
		simloop_reference(messsim_family_of(s), rd, bw, th, &r);
		printf("%g %.3f %.3f %.3f %.3f %.3f %.3f\n", rd, bw, r.lat, r.unloaded, r.sat2x, r.bmax, r.maxlat);
	}
	return 0;
}

static int do_bench(const struct args *a, struct messsim *s)
{
	enum simloop_stream k = !strcmp(a->stream, "bursty") ? SIMLOOP_BURSTY
	                      : !strcmp(a->stream, "closed") ? SIMLOOP_CLOSED : SIMLOOP_STEADY;
	const struct messsim_curve *c = read_curve(a, s);
	double bw = a->bw > 0 ? a->bw : (double)c->kbps[c->imax] / 2e3;
	unsigned out = a->outstanding ? a->outstanding : 256;
	uint64_t n = a->have_requests ? a->requests : 100000000;
	struct simloop o = loop_opts(a);
	struct simloop_result r;
	if (simloop_bench(s, &o, k, bw, a->burst, out, n, &r)) {
		fprintf(stderr, "rvmess sim: out of memory\n");
		return 2;
	}
	struct messsim_stats x;
	messsim_stats(s, &x);
	if (k == SIMLOOP_CLOSED)
		printf("bench closed: %u outstanding, read %g %%, window %u: %llu requests in %.3f s (the loop included), "
		       "%.1f M requests/s; %.1f MB/s, latency %.2f ns, %llu windows\n",
		       out, a->read, a->o.window, (unsigned long long)r.requests, r.seconds, r.requests / r.seconds / 1e6,
		       r.mbps, r.lat_ns, (unsigned long long)x.windows);
	else
		printf("bench %s: %.1f MB/s%s, read %g %%, window %u: %llu requests in %.3f s, %.1f M requests/s; "
		       "latency %.2f ns, %llu windows\n",
		       a->stream, bw, k == SIMLOOP_BURSTY ? " in bursts" : "", a->read, a->o.window,
		       (unsigned long long)r.requests, r.seconds, r.requests / r.seconds / 1e6, r.lat_ns,
		       (unsigned long long)x.windows);
	return 0;
}

int cmd_sim(int argc, char **argv)
{
	if (argc < 2)
		return usage(NULL, NULL);
	const char *what = argv[1];
	if (!strcmp(what, "-h") || !strcmp(what, "--help"))
		return help();
	struct args a;
	int rc = parse(argc - 1, argv + 1, &a);
	if (rc)
		return rc < 0 ? help() : rc;
	if (!a.family)
		return usage("missing FAMILY", NULL);
	char err[600];

	if (!strcmp(what, "curves")) {
		if (!a.out)
			return usage("curves needs -o DIR", NULL);
		struct messsim_family f;
		if (messsim_family_from_kernels(a.family, &f, err, sizeof err)) {
			fprintf(stderr, "rvmess sim: %s\n", err);
			return 2;
		}
		if (mkdir(a.out, 0777) && errno != EEXIST) {
			fprintf(stderr, "rvmess sim: %s: %s\n", a.out, strerror(errno));
			messsim_family_free(&f);
			return 2;
		}
		rc = messsim_family_write(&f, a.out, a.family, err, sizeof err);
		if (rc)
			fprintf(stderr, "rvmess sim: %s\n", err);
		else
			printf("%s: 51 curve files, %u ratios built from kernels\n", a.out, f.measured);
		messsim_family_free(&f);
		return rc ? 2 : 0;
	}
	struct messsim *s = open_sim(&a);
	if (!s)
		return 2;
	const struct messsim_family *f = messsim_family_of(s);
	print_warnings(f);
	if (!strcmp(what, "info")) {
		char *d = malloc(1 << 16);
		if (d) {
			messsim_family_describe(f, d, 1 << 16);
			printf("%s: %s, %u ratios read\n%s", a.family, f->format, f->measured, d);
			if (f->warnings)
				printf("rows adjusted:\n%s", f->warnings);
			free(d);
		}
		rc = d ? 0 : 2;
	} else if (!strcmp(what, "run")) {
		if (!(a.bw > 0)) {
			messsim_close(s);
			return usage("run needs --bw MBPS", NULL);
		}
		struct acc c = { 0, a.requests / 2, 0, 0, 0 };
		synth(&a, s, a.bw, a.read, a.requests, &c);
		summary(&a, s, &c);
	} else if (!strcmp(what, "trace")) {
		if (!a.file) {
			messsim_close(s);
			return usage("trace needs a TRACE file", NULL);
		}
		rc = do_trace(&a, s);
	} else if (!strcmp(what, "ref")) {
		rc = do_ref(&a, s);
	} else if (!strcmp(what, "profile")) {
		if (!a.file) {
			messsim_close(s);
			return usage("profile needs a PROFILE file", NULL);
		}
		rc = do_profile(&a, s);
	} else if (!strcmp(what, "loop")) {
		rc = do_loop(&a, s);
	} else if (!strcmp(what, "bench")) {
		rc = do_bench(&a, s);
	} else if (!strcmp(what, "sweep")) {
		double worst = 0;
		unsigned npts = 0;
		printf("%3s %5s %12s %10s %10s %7s\n", "R", "point", "MB/s", "curve ns", "sim ns", "err%");
		for (unsigned i = 0; i < MESSSIM_NRATIOS && rc >= 0; i++) {
			const struct messsim_curve *cv = &f->c[i];
			if (a.have_read ? cv->read_pct != 2 * (unsigned)floor(a.read / 2 + 0.5) : cv->how != MESSSIM_MEASURED)
				continue;
			int r = sweep_curve(&a, cv, &worst, &npts);
			rc = r < 0 ? -1 : rc | r;
		}
		if (rc < 0)
			rc = 2;
		else
			printf("sweep: %u points, worst error %.3f %%: %s\n", npts, worst, rc ? "MISMATCH" : "the curve is reproduced");
	} else {
		messsim_close(s);
		return usage("unknown action", what);
	}
	messsim_close(s);
	return rc;
}
