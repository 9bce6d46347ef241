/*
 * The adapter between hostsim's core and memsys (hostsim/sim/memsys.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libfdt.h>
#include "sim/timing.h"
#include "sim/memsys.h"
#include "sim/memmodel.h"

static struct memsys_cfg g_cfg; /* the configuration s->ms was built with */
uint64_t tm_line_mask = ~63ull;
uint64_t tm_l1_hit = 4;

uint64_t tm_access_split(struct sim *s, struct sim_hart *h, uint64_t addr, uint64_t last, int wr, uint64_t now)
{
	uint64_t done = memsys_access_h(s->ms, h->msh, addr, wr, now);
	if (done & MEMSYS_HELD) /* nothing made: the core issues it again */
		return done;
	/* the first line is made: the second waits at the ingress in here */
	uint64_t d2;
	while ((d2 = memsys_access_h(s->ms, h->msh, last, wr, now)) & MEMSYS_HELD)
		now = d2 & ~MEMSYS_HELD;
	return d2 > done ? d2 : done;
}

uint64_t tm_amo_held(struct sim *s, struct sim_hart *h, uint64_t addr, unsigned size, uint64_t done)
{
	while (done & MEMSYS_HELD)
		done = tm_access(s, h, addr, size, 1, done & ~MEMSYS_HELD);
	return done;
}

int tm_defer(struct sim *s)
{
	return s->ms && !s->wm && memsys_defer(s->ms, 1);
}

/* *v resolved when known: its cycle, folded into *min */
static inline int patch1(struct memsys *ms, uint64_t *v, uint64_t *min)
{
	if (!(*v & MEMSYS_PEND))
		return 0;
	uint64_t c = memsys_resolve(ms, *v);
	if (!c)
		return 0;
	*v = c;
	if (c < *min)
		*min = c;
	return 1;
}

/* h's MSHRs whose completion is known: 1 when some were */
static int mshr_patch(struct sim *s, struct sim_hart *h, uint64_t *pmin)
{
	struct memsys *ms = s->ms;
	uint64_t min = *pmin;
	unsigned n = s->opt.mshrs, moved = 0;
	for (unsigned i = 0; i < n; i++)
		moved |= (unsigned)patch1(ms, &h->mshr[i], &min);
	if (moved) { /* the ring in completion order again, from entry 0 */
		uint64_t v[SIM_MSHR_MAX], l[SIM_MSHR_MAX];
		for (unsigned i = 0, k = h->mshr_head; i < n; i++, k = k + 1 == n ? 0 : k + 1) {
			unsigned j = i;
			while (j > 0 && v[j - 1] > h->mshr[k]) {
				v[j] = v[j - 1];
				l[j] = l[j - 1];
				j--;
			}
			v[j] = h->mshr[k];
			l[j] = h->mshr_line[k];
		}
		for (unsigned i = 0; i < n; i++) {
			h->mshr[i] = v[i];
			h->mshr_line[i] = l[i];
		}
		h->mshr_head = 0;
		h->mshr_min = v[0];
		h->mshr_max = v[n - 1];
	}
	*pmin = min;
	return moved != 0;
}

int tm_mshr_fresh(struct sim *s, struct sim_hart *h, uint64_t now)
{
	uint64_t min = UINT64_MAX;
	memsys_sync(s->ms, now);
	return mshr_patch(s, h, &min);
}

uint64_t tm_patch(struct sim *s, struct sim_hart *h)
{
	struct memsys *ms = s->ms;
	uint64_t min = UINT64_MAX;
	for (unsigned r = 0; r < 33; r++)
		patch1(ms, &h->ready[r], &min);
	mshr_patch(s, h, &min);
	if (h->sb_last & MEMSYS_PEND) { /* (an unknown store is still in the buffer) */
		uint64_t last = 0;
		for (unsigned i = 0; i < h->sb_count; i++) {
			uint64_t *e = &h->sb[(h->sb_head + i) % SIM_SB_MAX];
			patch1(ms, e, &min);
			if (*e > last)
				last = *e;
		}
		if (h->sb_count)
			h->sb_last = last;
		else
			patch1(ms, &h->sb_last, &min);
	}
	return min == UINT64_MAX ? 0 : min;
}

int tm_wake(struct sim *s, struct sim_hart *h, int force)
{
	uint64_t known = memsys_known(s->ms);
	if (!force && known == h->blk_seen)
		return 0;
	h->blk_seen = known;
	uint64_t c;
	if (h->blk_tk > TM_WAIT_MSHR) { /* that completion (then every other known one) */
		c = memsys_resolve(s->ms, h->blk_tk);
		if (!c)
			return 0;
		tm_patch(s, h);
	} else if (h->blk_tk == TM_WAIT_MSHR) { /* the first of its MSHRs' */
		c = UINT64_MAX;
		for (unsigned i = 0; i < s->opt.mshrs; i++) {
			uint64_t v = memsys_resolve(s->ms, h->mshr[i]);
			if (v && v < c)
				c = v;
		}
		if (c == UINT64_MAX)
			return 0;
		tm_patch(s, h);
	} else if (!(c = tm_patch(s, h))) {
		return 0;
	}
	h->clock = c > h->blk_t ? c : h->blk_t;
	h->blk_tk = 0;
	return 1;
}

int tm_settle(struct sim *s, struct sim_hart *h, uint64_t now)
{
	memsys_sync(s->ms, now);
	tm_patch(s, h);
	return ((h->sb_last | h->mshr_max) & MEMSYS_PEND) != 0;
}

int tm_is_option(const char *key)
{
	/* the core clock is --freq-mhz (it also drives mtime); memsys gets it
	 * from there, so its own freq-ghz key is not offered */
	if (!strcmp(key, "freq-ghz") || !strcmp(key, "freq_ghz"))
		return 0;
	return memsys_cfg_is_key(key);
}

void tm_print_options(FILE *f)
{
	struct memsys_cfg c;
	memsys_cfg_default(&c);
	fprintf(f, "memory-system timing options (--KEY VALUE or KEY=VALUE in --config; defaults):\n");
	memsys_cfg_print(&c, f);
	fprintf(f, "memory models (mem-model):\n");
	memsys_models_print(f);
}

/* Build the memsys configuration from the options (also used to validate). */
static int build_cfg(const struct sim_opts *o, struct memsys_cfg *c, char *err, size_t errlen)
{
	memsys_cfg_default(c);
	for (unsigned i = 0; i < o->nmemsys; i++)
		if (memsys_cfg_set(c, o->memsys[i].key, o->memsys[i].val, err, errlen))
			return -1;
	c->freq_ghz = (double)o->freq_mhz / 1000.0;
	return memsys_cfg_check(c, err, errlen);
}

/* --print-config: the memory system as run, as --config lines ("key=value  # help"). */
int tm_print_config(const struct sim_opts *o, FILE *f, char *err, size_t errlen)
{
	struct memsys_cfg c;
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *m;

	if (build_cfg(o, &c, err, errlen))
		return -1;
	m = open_memstream(&buf, &len);
	if (!m)
		return sim_fail(err, errlen, "out of memory");
	memsys_cfg_print(&c, m);
	fclose(m);
	/* memsys prints "key value  # help"; freq-ghz comes from --freq-mhz */
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char key[64], val[300];
		const char *help = strchr(line, '#');

		/* an empty text key (mess-curves, trace-mem) prints as its help */
		if (sscanf(line, "%63s %299s", key, val) != 2 || val[0] == '#' || !tm_is_option(key))
			continue;
		fprintf(f, "%s=%s%s%s\n", key, val, help ? "  " : "", help ? help : "");
	}
	free(buf);
	return 0;
}

int tm_replay_mem(const struct sim_opts *o, const char *trace, FILE *f, char *err, size_t errlen)
{
	struct memsys_cfg c;
	struct memmodel_replay r;
	struct memsys_model_stats ms;
	if (build_cfg(o, &c, err, errlen))
		return -1;
	FILE *in = fopen(trace, "r");
	if (!in)
		return sim_fail(err, errlen, "%s: cannot open: %s", trace, strerror(errno));
	int rc = memmodel_replay(&c, in, trace, &r, &ms, err, errlen);
	fclose(in);
	if (rc)
		return -1;
	double ns = 1.0 / c.freq_ghz, span = (double)(r.last - r.first) * ns;
	uint64_t n = r.reads + r.writes;
	fprintf(f, "replay: %s on %s: %llu transfers (%llu reads, %.1f %%), cycles %llu..%llu\n", trace,
	        c.mem_model, (unsigned long long)n, (unsigned long long)r.reads, 100.0 * (double)r.reads / (double)n,
	        (unsigned long long)r.first, (unsigned long long)r.last);
	fprintf(f, "replay: bandwidth %.3f GB/s (%u-byte lines, first sent to last done, %.1f ns)\n",
	        span > 0 ? (double)n * c.line / span : 0.0, c.line, span);
	if (r.reads)
		fprintf(f, "replay: read latency mean %.2f ns, max %.2f ns (sent to data at the LLC)\n",
		        (double)r.lat_sum / (double)r.reads * ns, (double)r.lat_max * ns);
	if (ms.has_ddr) /* (its rows line among them) */
		memsys_print_ddr(f, "replay", &ms.ddr);
	else if (ms.row_hits + ms.row_misses + ms.row_conflicts)
		fprintf(f, "replay: rows hit %llu empty %llu conflict %llu\n", (unsigned long long)ms.row_hits,
		        (unsigned long long)ms.row_misses, (unsigned long long)ms.row_conflicts);
	return 0;
}

int tm_init(struct sim *s, char *err, size_t errlen)
{
	if (build_cfg(&s->opt, &g_cfg, err, errlen))
		return -1;
	if (!s->opt.timing) {
		s->ms = NULL;
		return 0;
	}
	tm_line_mask = ~((uint64_t)g_cfg.line - 1);
	tm_l1_hit = g_cfg.l1d_hit;
	s->ms = memsys_new(&g_cfg, s->nharts, err, errlen);
	return s->ms ? 0 : -1;
}

void tm_free(struct sim *s)
{
	if (s->ms)
		memsys_free(s->ms);
	s->ms = NULL;
}

uint64_t tm_event(struct sim *s, unsigned h, uint64_t event)
{
	if (!s->ms || event > 0xffffffffull)
		return 0;
	return memsys_event(s->ms, h, (unsigned)event);
}

uint64_t tm_memctl_read(struct sim *s, uint64_t off, unsigned size)
{
	if (!s->ms)
		return 0;
	uint64_t v = memsys_mmio_read(s->ms, off & ~7ull);
	v >>= 8 * (off & 7);
	if (size < 8)
		v &= (1ull << (8 * size)) - 1;
	return v;
}

void tm_memctl_write(struct sim *s, uint64_t off, unsigned size, uint64_t val)
{
	(void)size;
	if (!s->ms || (off & 7))
		return;
	memsys_mmio_write(s->ms, off, val);
}

int tm_fdt_props(const struct sim *s, void *fdt)
{
	int e = 0;
	e |= fdt_property_string(fdt, "timing", s->opt.timing ? "memsys" : "none");
	e |= fdt_property_u32(fdt, "line-size", g_cfg.line);
	e |= fdt_property_u64(fdt, "l1d-size", g_cfg.l1d_size);
	e |= fdt_property_u32(fdt, "l1d-ways", g_cfg.l1d_ways);
	e |= fdt_property_u32(fdt, "l1d-hit-cycles", g_cfg.l1d_hit);
	e |= fdt_property_u64(fdt, "llc-size", g_cfg.llc_size);
	e |= fdt_property_u32(fdt, "llc-ways", g_cfg.llc_ways);
	e |= fdt_property_u32(fdt, "llc-hit-cycles", g_cfg.llc_hit);
	e |= fdt_property_string(fdt, "mem-model", g_cfg.mem_model);
	e |= fdt_property_u32(fdt, "mem-latency-cycles", g_cfg.mem_latency);
	e |= fdt_property_u32(fdt, "mshrs", s->opt.mshrs);
	e |= fdt_property_u32(fdt, "store-buffer", s->opt.sb_depth);
	return e ? -1 : 0;
}

/* A size as one cell when it fits (the specification's <u32>), else two. */
static int fdt_size_prop(void *fdt, const char *name, uint64_t v)
{
	return v <= 0xffffffffull ? fdt_property_u32(fdt, name, (uint32_t)v) : fdt_property_u64(fdt, name, v);
}

int tm_fdt_cpu_cache(const struct sim *s, void *fdt, uint32_t llc)
{
	int e = 0;
	(void)s;
	e |= fdt_size_prop(fdt, "d-cache-size", g_cfg.l1d_size);
	e |= fdt_size_prop(fdt, "d-cache-sets", g_cfg.l1d_size / ((uint64_t)g_cfg.l1d_ways * g_cfg.line));
	e |= fdt_property_u32(fdt, "d-cache-block-size", g_cfg.line);
	e |= fdt_property_u32(fdt, "next-level-cache", llc);
	return e ? -1 : 0;
}

int tm_fdt_llc_node(const struct sim *s, void *fdt, uint32_t llc)
{
	int e = 0;
	(void)s;
	e |= fdt_begin_node(fdt, "l2-cache");
	e |= fdt_property_string(fdt, "compatible", "cache");
	e |= fdt_property_u32(fdt, "cache-level", 2);
	e |= fdt_property(fdt, "cache-unified", NULL, 0);
	e |= fdt_size_prop(fdt, "cache-size", g_cfg.llc_size);
	e |= fdt_size_prop(fdt, "cache-sets", g_cfg.llc_size / ((uint64_t)g_cfg.llc_ways * g_cfg.line));
	e |= fdt_property_u32(fdt, "cache-block-size", g_cfg.line);
	e |= fdt_property_u32(fdt, "phandle", llc);
	e |= fdt_end_node(fdt);
	return e ? -1 : 0;
}

void tm_print_stats(struct sim *s, FILE *f)
{
	if (s->ms)
		memsys_stats(s->ms, f);
	else
		fprintf(f, "memsys: timing off (--no-timing)\n");
}
