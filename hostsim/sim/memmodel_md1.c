/*
 * The md1 memory model: one FIFO server with a deterministic service time
 * of one line at peak-gbps, plus mem-latency (an M/D/1 queue; see
 * memmodel.h, docs/memsys.md).  Bandwidth saturates at the peak, latency
 * grows with the queue; no reads-versus-writes difference.
 */
#include "sim/memmodel.h"
#include "sim/memmodel_ticks.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct md1 {
	uint64_t base_t, service_t, free_t, busy_t;
	uint64_t reads, writes, peak;
};

static void *md1_create(const struct memsys_cfg *cfg, char *err, size_t errlen)
{
	uint64_t svc = line_ticks(cfg->line, cfg->peak_gbps, cfg->freq_ghz);
	if (!svc) {
		snprintf(err, errlen, "md1: peak-gbps and freq-ghz must be > 0");
		return NULL;
	}
	struct md1 *q = calloc(1, sizeof *q);
	if (!q)
		return NULL;
	q->base_t = CYC2T(cfg->mem_latency);
	q->service_t = svc;
	q->peak = mbps_of(cfg->line, svc, 1, cfg->freq_ghz);
	return q;
}

/* completion = max(now, server_free) + service + base */
static uint64_t md1_request(void *st, uint64_t la, int w, uint64_t now, unsigned src)
{
	struct md1 *q = st;
	(void)la;
	(void)src;
	uint64_t start = max64(CYC2T(now), q->free_t);
	q->free_t = start + q->service_t;
	q->busy_t += q->service_t;
	if (w)
		q->writes++;
	else
		q->reads++;
	return t2cyc_up(q->free_t + q->base_t);
}

static void md1_stats(const void *st, struct memsys_model_stats *s)
{
	const struct md1 *q = st;
	memset(s, 0, sizeof *s);
	s->reads = q->reads;
	s->writes = q->writes;
	s->busy = t2cyc_up(q->busy_t);
}

static uint64_t md1_peak(const void *st) { return ((const struct md1 *)st)->peak; }

const struct memmodel_ops memmodel_md1 = {
	"md1", "one FIFO server at peak-gbps plus mem-latency (M/D/1 queue)", NULL, 0, NULL, NULL,
	md1_create, md1_request, md1_stats, md1_peak, free, NULL,
};
