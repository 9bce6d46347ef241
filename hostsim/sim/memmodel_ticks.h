/*
 * What the memory models share (memmodel_*.c): time in ticks of 1/256
 * cycle, so that fractional transfer times (64 B at 25.6 B/cycle = 2.5
 * cycles) add up without drift, rounded up to whole cycles in results; the
 * line transfer time at a bandwidth; and the key table's field offsets.
 */
#ifndef HOSTSIM_MEMMODEL_TICKS_H
#define HOSTSIM_MEMMODEL_TICKS_H

#include <stddef.h>
#include <stdint.h>
#include "sim/memmodel.h"

#define OFF(f) offsetof(struct memsys_cfg, f)
static inline int pow2(uint64_t v) { return v && !(v & (v - 1)); }

#define TSH 8                       /* ticks per cycle = 1 << TSH */
#define CYC2T(c) ((uint64_t)(c) << TSH)

static inline uint64_t t2cyc_up(uint64_t t) { return (t + (1u << TSH) - 1) >> TSH; }
static inline uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Ticks to move one line at `gbps` (GB/s) with a `ghz` clock; 0 if invalid. */
static inline uint64_t line_ticks(unsigned line, double gbps, double ghz)
{
	if (!(gbps > 0) || !(ghz > 0))
		return 0;
	double bytes_per_cycle = gbps / ghz;
	double t = (double)line / bytes_per_cycle * (double)(1u << TSH) + 0.5;
	if (t < 1)
		t = 1;
	if (t > 1e15)
		return 0;
	return (uint64_t)t;
}

/* MB/s moved by one line per `ticks` per server, with `servers` servers. */
static inline uint64_t mbps_of(unsigned line, uint64_t ticks, unsigned servers, double ghz)
{
	double lines_per_s = ghz * 1e9 * (double)(1u << TSH) / (double)ticks;
	return (uint64_t)(lines_per_s * line * servers / 1e6 + 0.5);
}

#endif
