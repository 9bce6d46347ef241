/*
 * rvmess sim loop / bench: request streams for the Mess simulator without a
 * CPU (docs/mess.md "Closed loop" and "Speed"): a closed loop of K requests
 * always outstanding, the bandwidth where such a loop settles on a curve,
 * and timed streams (steady, bursty, closed) for the benchmark.
 */
#ifndef SIMLOOP_H
#define SIMLOOP_H

#include <stdint.h>

#include "mess/messsim.h"

struct simloop {
	double freq_mhz;   /* the simulator's clock */
	double onchip_ns;  /* the part of each round trip the CPU side spends (the
	                      simulator returns the rest) */
	double read_pct;   /* reads per hundred requests (error diffusion) */
	unsigned line;     /* bytes per request */
};

struct simloop_result {
	uint64_t requests;
	double mbps;       /* bandwidth over the second half */
	double lat_ns;     /* mean load-to-use latency over the second half (on-chip included) */
	double seconds;    /* host time in messsim_request (bench; 0 otherwise) */
};

/* K requests always outstanding, each issued again the cycle it returns
 * (its latency plus the on-chip part), n requests in all.  0, or -1 when
 * out of memory. */
int simloop_closed(struct messsim *s, const struct simloop *o, unsigned k, uint64_t n, struct simloop_result *r);

/* Where K outstanding settle on curve c: on the lower branch the bandwidth
 * B with K x line / L(B) = B; when even the latency of the curve's highest
 * bandwidth asks for more, on the throttle the first latency T above it
 * where K x line / T <= B(T).  MB/s and ns. */
void simloop_equilibrium(const struct messsim_curve *c, const struct simloop *o, double k, double *mbps,
                         double *ns);

/* The family as the controller reads it at read share read_pct (the two
 * curves around it blended by its place between them): the latency at mbps
 * on the lower branch, the unloaded latency (at 0 MB/s), the bandwidth where
 * the latency first reaches `sat_ns` (0: twice the unloaded latency; the
 * Mess metric's saturated bandwidth; the highest bandwidth when it never
 * does), the highest bandwidth and the curve's highest latency.  MB/s, ns. */
struct simloop_ref { double lat, unloaded, sat2x, bmax, maxlat; };
void simloop_reference(const struct messsim_family *f, double read_pct, double mbps, double sat_ns,
                       struct simloop_ref *r);

enum simloop_stream { SIMLOOP_STEADY, SIMLOOP_BURSTY, SIMLOOP_CLOSED };

/* The benchmark: n requests of the stream (steady: periodic at mbps;
 * bursty: bursts of `burst` requests at one cycle, the same mean rate;
 * closed: k outstanding), timing the calls of messsim_request.  0 or -1. */
int simloop_bench(struct messsim *s, const struct simloop *o, enum simloop_stream kind, double mbps, unsigned burst,
                  unsigned k, uint64_t n, struct simloop_result *r);

#endif
