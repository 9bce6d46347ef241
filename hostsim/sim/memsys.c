/*
 * hostsim memory system: private L1Ds (MESI), shared inclusive LLC with a
 * sharer directory, memory model behind it, counters.  See memsys.h and
 * docs/memsys.md.
 */
#include "sim/memsys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cache.h"
#include "sim/memmodel.h"
#include "rvmess/numparse.h"
#include "rvmess/rng.h"

/* L1 line states (cache.state): 0 invalid */
enum { ST_I = 0, ST_S = MEMSYS_L1_S, ST_E = MEMSYS_L1_E, ST_M = MEMSYS_L1_M };
/* LLC line states: 0 invalid, 1 clean, 2 dirty (relative to memory), 3
 * clean and brought by the prefetcher, no demand access yet */
enum { LLC_CLEAN = 1, LLC_DIRTY = 2, LLC_PF = 3 };

/* One page a hart's prefetcher tracks (memsys_cfg.pf_dist, docs/memsys.md
 * "Stream prefetch"): its latest missing line, and the next line to
 * prefetch. */
struct pf_stream {
	uint64_t last, next, use;
};

_Static_assert(sizeof(struct ms_hart) == 256, "struct ms_hart: adjust pad to 256 bytes");

struct memsys {
	struct memsys_hot hot;     /* first: memsys.h's inline L1 hit reads it */
	struct memsys_cfg cfg;
	unsigned nharts;
	uint64_t llc_lat, coh_lat;
	struct cache llc;          /* per slot: ready = the cycle the memory read
	                              completes, aux = a bit per hart holding the
	                              line in its L1 (the directory) */
	struct memmodel mm;
	/* the ddr controller (memmodel_ddrctl.c) under any --trace-mem wrapper,
	 * else NULL; defer: its completions come later (memsys_defer) */
	void *dc;
	int defer;
	uint64_t lat;              /* l1d-hit + llc-hit: a hart's request reaches the model that much after it issues */
	uint64_t c2;               /* memsys_bound: no other hart issues before this cycle */
	uint64_t synced;           /* the controller was told: nothing sent before this cycle */
	/* memory-controller counters, kept here (the model keeps its own) */
	uint64_t mc_reads, mc_writes;
	uint64_t base_reads, base_writes, base_busy;   /* at the last CTRL reset */
	int frozen;
	uint64_t frz_reads, frz_writes, frz_busy;
	/* injected fault clean-writeback (memsys_inject_clean_wb) */
	unsigned clean_wb;         /* percent of clean LLC evictions written back, 0 off */
	uint64_t clean_wb_events;
	struct rng clean_wb_rng;
	/* the stream prefetcher: pf_streams pages per hart (NULL: off) */
	struct pf_stream *pf;
	uint64_t pf_use, pf_page_mask;
	struct memsys_pf_stats pfs;
	uint64_t renumbers[2];     /* LRU ages renumbered (memsys_check_ages): L1s, LLC */
};

/* ---- configuration ------------------------------------------------------ */

void memsys_cfg_default(struct memsys_cfg *c)
{
	memset(c, 0, sizeof *c);
	c->line = 64;
	c->l1d_size = 32 << 10;
	c->l1d_ways = 8;
	c->l1d_hit = 4;
	c->llc_size = 2 << 20;
	c->llc_ways = 16;
	c->llc_hit = 30;
	c->coh_lat = 20;
	c->pf_streams = 16;
	c->lru_age_limit = CACHE_AGE_LIMIT;
	strcpy(c->mem_model, "dram");
	c->mem_latency = 80;
	c->peak_gbps = 25.6;
	c->freq_ghz = 1.0;
	memmodel_defaults(c);
}

/* The caches' and every model's keys; the models' own are in their files
 * (memmodel_*.c, listed by memmodel_keys_at). */
#define OFF(f) offsetof(struct memsys_cfg, f)
static const struct memsys_key keys[] = {
	{ "line", K_U32, OFF(line), 16, 256, "line size, bytes (power of two)" },
	{ "l1d-size", K_SIZE, OFF(l1d_size), 64, 1ull << 30, "L1D size per hart, bytes" },
	{ "l1d-ways", K_U32, OFF(l1d_ways), 1, 64, "L1D associativity" },
	{ "l1d-hit", K_U32, OFF(l1d_hit), 1, 1000, "L1D load-to-use, cycles" },
	{ "llc-size", K_SIZE, OFF(llc_size), 64, 1ull << 34, "shared LLC size, bytes" },
	{ "llc-ways", K_U32, OFF(llc_ways), 1, 64, "LLC associativity" },
	{ "llc-hit", K_U32, OFF(llc_hit), 0, 10000, "extra cycles for an L1 miss hitting the LLC" },
	{ "coh-lat", K_U32, OFF(coh_lat), 0, 10000, "extra cycles when another L1 holds the line Modified" },
	{ "pf-dist", K_U32, OFF(pf_dist), 0, 255, "stream prefetch into the LLC: lines ahead of unit-stride load misses, within a 4 KiB page (0 = off)" },
	{ "pf-streams", K_U32, OFF(pf_streams), 1, 64, "pages each hart's stream prefetcher tracks" },
	{ "pf-stores", K_U32, OFF(pf_stores), 0, 1, "1: store misses train the stream prefetcher too (0: loads only)" },
	{ "lru-age-limit", K_U32, OFF(lru_age_limit), 64, CACHE_AGE_LIMIT, "LRU ages renumbered once the use clock passes this (a test knob: no result depends on it)" },
	{ "mem-model", K_STR, OFF(mem_model), 0, 0, "memory model (see below)" },
	{ "mem-latency", K_U32, OFF(mem_latency), 0, 1000000, "unloaded memory latency, cycles" },
	{ "peak-gbps", K_DBL, OFF(peak_gbps), 0.001, 1e6, "peak memory bandwidth, GB/s (md1, simple-dram)" },
	{ "freq-ghz", K_DBL, OFF(freq_ghz), 0.001, 1000, "core clock, GHz" },
};
#define NKEYS (sizeof keys / sizeof keys[0])

/* The key named k (with '-'), from the table above or a model's; NULL. */
static const struct memsys_key *find_key(const char *k)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (strcmp(keys[i].name, k) == 0)
			return &keys[i];
	const struct memsys_key *g;
	size_t n;
	for (size_t m = 0; memmodel_keys_at(m, &g, &n); m++)
		for (size_t i = 0; i < n; i++)
			if (strcmp(g[i].name, k) == 0)
				return &g[i];
	return NULL;
}

static void seterr(char *err, size_t errlen, const char *fmt, const char *a, const char *b)
{
	if (errlen)
		snprintf(err, errlen, fmt, a, b);
}

int memsys_cfg_is_key(const char *key)
{
	char k[32];
	size_t n = strlen(key);
	if (n >= sizeof k)
		return 0;
	for (size_t i = 0; i <= n; i++)
		k[i] = key[i] == '_' ? '-' : key[i];
	return find_key(k) != NULL;
}

int memsys_cfg_set(struct memsys_cfg *c, const char *key, const char *value, char *err,
                   size_t errlen)
{
	char k[32];
	size_t n = strlen(key);
	if (errlen)
		err[0] = 0;
	if (n >= sizeof k) {
		seterr(err, errlen, "memsys: unknown key '%.40s%s'", key, "...");
		return -1;
	}
	for (size_t i = 0; i <= n; i++)
		k[i] = key[i] == '_' ? '-' : key[i];
	const struct memsys_key *kd = find_key(k);
	if (!kd) {
		seterr(err, errlen, "memsys: unknown key '%s'%s", key, "");
		return -1;
	}
	char *cp = (char *)c + kd->off;
	if (!value || !*value) {
		seterr(err, errlen, "memsys: key '%s': empty value%s", kd->name, "");
		return -1;
	}
	if (kd->type == K_STR) {
		/* every text key is a char[32]; the model's name is checked here,
		 * the others by their model's check */
		if (kd->off == OFF(mem_model) && !memmodel_find(value)) {
			if (errlen)
				snprintf(err, errlen, "memsys: key '%s': unknown model '%.40s' (known: %s)",
				         kd->name, value, memmodel_names());
			return -1;
		}
		size_t cap = kd->max > 0 ? (size_t)kd->max : sizeof c->mem_model; /* a text key's max: its size */
		if (strlen(value) >= cap) {
			if (errlen)
				snprintf(err, errlen, "memsys: key '%s': '%.40s' is too long (at most %zu characters)",
				         kd->name, value, cap - 1);
			return -1;
		}
		snprintf(cp, cap, "%s", value);
		return 0;
	}
	char *end;
	double dv;
	errno = 0;
	if (kd->type == K_DBL) {
		dv = strtod(value, &end);
		if (end == value || *end || errno || dv != dv) {
			if (errlen)
				snprintf(err, errlen, "memsys: key '%s': bad number '%.40s'", kd->name, value);
			return -1;
		}
	} else {
		/* the one number parser (rvmess/numparse.h): decimal, K/M/G/T suffixes */
		uint64_t u;
		int rc = rvm_parse_num(value, &u);
		if (rc != RVM_NUM_OK) {
			if (errlen)
				snprintf(err, errlen, "memsys: key '%s': bad number '%.40s' (%s)", kd->name, value,
				         rvm_num_why(rc));
			return -1;
		}
		dv = (double)u;
	}
	if (dv < kd->min || dv > kd->max) {
		if (errlen)
			snprintf(err, errlen, "memsys: key '%s': %.40s out of range %g..%g", kd->name, value,
			         kd->min, kd->max);
		return -1;
	}
	switch (kd->type) {
	case K_U32: *(unsigned *)(void *)cp = (unsigned)dv; break;
	case K_SIZE: *(uint64_t *)(void *)cp = (uint64_t)dv; break;
	case K_DBL: *(double *)(void *)cp = dv; break;
	case K_STR: break;
	}
	return 0;
}

static int pow2(uint64_t v) { return v && !(v & (v - 1)); }

int memsys_cfg_check(const struct memsys_cfg *c, char *err, size_t errlen)
{
	char e[200];
	if (errlen)
		err[0] = 0;
	if (!pow2(c->line) || c->line < 16 || c->line > 256) {
		snprintf(err, errlen, "memsys: line %u: not a power of two in 16..256", c->line);
		return -1;
	}
	struct cache t;
	if (cache_init(&t, "l1d", c->l1d_size, c->l1d_ways, c->line, e, sizeof e)) {
		snprintf(err, errlen, "memsys: %s", e);
		return -1;
	}
	cache_fini(&t);
	if (cache_init(&t, "llc", c->llc_size, c->llc_ways, c->line, e, sizeof e)) {
		snprintf(err, errlen, "memsys: %s", e);
		return -1;
	}
	cache_fini(&t);
	if (c->llc_size < c->l1d_size) {
		snprintf(err, errlen, "memsys: llc-size %llu is smaller than l1d-size %llu: the LLC includes every L1D "
		         "line, so it must be at least as large",
		         (unsigned long long)c->llc_size, (unsigned long long)c->l1d_size);
		return -1;
	}
	if (c->pf_dist >= 4096 / c->line) {
		snprintf(err, errlen, "memsys: pf-dist %u: the prefetcher stays within a 4 KiB page, so at most %u "
		         "lines ahead with %u-byte lines", c->pf_dist, 4096 / c->line - 1, c->line);
		return -1;
	}
	if (!memmodel_find(c->mem_model)) {
		snprintf(err, errlen, "memsys: mem-model: unknown model '%.20s' (known: %s)", c->mem_model,
		         memmodel_names());
		return -1;
	}
	if (!(c->freq_ghz > 0) || !(c->peak_gbps > 0)) {
		snprintf(err, errlen, "memsys: freq-ghz and peak-gbps must be > 0");
		return -1;
	}
	if (memmodel_check(c, err, errlen))
		return -1;
	/* the model's own checks (e.g. dram latency budget) */
	struct memmodel mm;
	if (memmodel_open(&mm, c, e, sizeof e)) {
		snprintf(err, errlen, "memsys: %s", e);
		return -1;
	}
	memmodel_close(&mm);
	return 0;
}

static void print_key(const struct memsys_key *k, const struct memsys_cfg *c, FILE *f)
{
	const char *cp = (const char *)c + k->off;
	char v[300];
	switch (k->type) {
	case K_U32: snprintf(v, sizeof v, "%u", *(const unsigned *)(const void *)cp); break;
	case K_SIZE: snprintf(v, sizeof v, "%llu", (unsigned long long)*(const uint64_t *)(const void *)cp); break;
	case K_DBL: snprintf(v, sizeof v, "%g", *(const double *)(const void *)cp); break;
	case K_STR: snprintf(v, sizeof v, "%s", cp); break;
	}
	fprintf(f, "%-14s %-10s # %s\n", k->name, v, k->help);
}

void memsys_cfg_print(const struct memsys_cfg *c, FILE *f)
{
	const struct memsys_key *g;
	size_t n;
	for (size_t i = 0; i < NKEYS; i++)
		print_key(&keys[i], c, f);
	for (size_t m = 0; memmodel_keys_at(m, &g, &n); m++)
		for (size_t i = 0; i < n; i++)
			print_key(&g[i], c, f);
}

void memsys_models_print(FILE *f)
{
	const struct memmodel_ops *mo;
	for (size_t m = 0; (mo = memmodel_at(m)) != NULL; m++)
		fprintf(f, "  %-6s %s\n", mo->name, mo->help);
}

/* ---- create / destroy ----------------------------------------------------- */

struct memsys *memsys_new(const struct memsys_cfg *cfg, unsigned nharts, char *err, size_t errlen)
{
	char e[200];
	if (nharts < 1 || nharts > MEMSYS_MAX_HARTS) {
		snprintf(err, errlen, "memsys: %u harts, supported 1..%d", nharts, MEMSYS_MAX_HARTS);
		return NULL;
	}
	if (memsys_cfg_check(cfg, err, errlen))
		return NULL;
	struct memsys *m = calloc(1, sizeof *m);
	if (!m)
		goto oom;
	m->cfg = *cfg;
	m->nharts = nharts;
	while ((1u << m->hot.lshift) < cfg->line)
		m->hot.lshift++;
	m->hot.l1_hit = cfg->l1d_hit;
	m->llc_lat = cfg->llc_hit;
	m->coh_lat = cfg->coh_lat;
	m->hot.h = calloc(nharts, sizeof *m->hot.h);
	if (!m->hot.h)
		goto oom;
	for (unsigned i = 0; i < nharts; i++) {
		if (cache_init(&m->hot.h[i].l1, "l1d", cfg->l1d_size, cfg->l1d_ways, cfg->line, e, sizeof e))
			goto fail;
		m->hot.h[i].l1.age_limit = cfg->lru_age_limit;
		m->hot.h[i].fast_miss = cfg->l1d_ways == 8 && !cfg->pf_dist ? 1ull << i : 0;
	}
	if (cfg->pf_dist) {
		m->pf = calloc((size_t)nharts * cfg->pf_streams, sizeof *m->pf);
		if (!m->pf)
			goto oom;
		m->pf_page_mask = 4096 / cfg->line - 1;
	}
	if (cache_init(&m->llc, "llc", cfg->llc_size, cfg->llc_ways, cfg->line, e, sizeof e))
		goto fail;
	m->llc.age_limit = cfg->lru_age_limit;
	if (memmodel_open(&m->mm, cfg, e, sizeof e))
		goto fail;
	if (m->mm.ops == &memmodel_ddrctl)
		m->dc = m->mm.st;
	m->lat = cfg->l1d_hit + cfg->llc_hit;
	m->c2 = UINT64_MAX;
	if (memmodel_trace(&m->mm, cfg, e, sizeof e))
		goto fail;
	return m;
oom:
	snprintf(e, sizeof e, "out of memory");
fail:
	snprintf(err, errlen, "memsys: %s", e);
	memsys_free(m);
	return NULL;
}

void memsys_free(struct memsys *m)
{
	if (!m)
		return;
	if (m->hot.h)
		for (unsigned i = 0; i < m->nharts; i++)
			cache_fini(&m->hot.h[i].l1);
	free(m->hot.h);
	free(m->pf);
	cache_fini(&m->llc);
	memmodel_close(&m->mm);
	free(m);
}

/* ---- the access path -------------------------------------------------------- */

/* Drop hart s's copy of `line` (which its directory bit says it holds).
 * Returns the state it had. */
static int l1_drop(struct memsys *m, unsigned s, uint64_t line)
{
	struct ms_hart *H = &m->hot.h[s];
	int64_t i = cache_find(&H->l1, line);
	if (i < 0)
		return ST_I; /* not reached while the directory is exact */
	int st = (int)cache_state(&H->l1, (uint64_t)i);
	cache_set_state(&H->l1, (uint64_t)i, ST_I);
	return st;
}

/* Hart s keeps `line` but loses write permission. Returns the old state. */
static int l1_downgrade(struct memsys *m, unsigned s, uint64_t line)
{
	struct ms_hart *H = &m->hot.h[s];
	int64_t i = cache_find(&H->l1, line);
	if (i < 0)
		return ST_I;
	int st = (int)cache_state(&H->l1, (uint64_t)i);
	cache_set_state(&H->l1, (uint64_t)i, ST_S);
	return st;
}

/* Issue a memory transfer for hart h and count it. */
static uint64_t mem_req(struct memsys *m, unsigned h, uint64_t line, int w, uint64_t t)
{
	if (w)
		m->mc_writes++;
	else
		m->mc_reads++;
	uint64_t done = memmodel_request_src(&m->mm, line, w, t, h);
	if (__builtin_expect((done & MEMSYS_PEND) != 0, 0) && !m->defer)
		done = ddrctl_wait(m->dc, done); /* no scheduler to wait for it: at once */
	return done < t ? t : done;
}

/* ---- completions known later (the ddr controller, memsys_defer) ---------- */

int memsys_defer(struct memsys *m, int on)
{
	if (!m->dc)
		return 0;
	m->defer = on;
	return 1;
}

void memsys_bound(struct memsys *m, uint64_t c2)
{
	m->c2 = c2;
}

int memsys_sync_to(struct memsys *m, uint64_t c)
{
	if (!m->defer || c + m->lat <= m->synced)
		return 0;
	m->synced = c + m->lat;
	ddrctl_sync(m->dc, m->synced);
	return 1;
}

void memsys_sync(struct memsys *m, uint64_t now)
{
	memsys_sync_to(m, now < m->c2 ? now : m->c2);
}

uint64_t memsys_resolve(struct memsys *m, uint64_t v)
{
	if (!(v & MEMSYS_PEND))
		return v;
	return ddrctl_resolve(m->dc, v);
}

uint64_t memsys_pend_lb(const struct memsys *m)
{
	return m->dc ? ddrctl_lb(m->dc) : UINT64_MAX;
}

uint64_t memsys_known(const struct memsys *m)
{
	return m->dc ? ddrctl_known(m->dc) : 0;
}

/* A slot's fill time *p at cycle now: a completion not known yet is asked
 * for (the controller told first what the bound allows), and kept when
 * known; still unknown, it is later than now + a hit (memsys.h). */
static __attribute__((noinline)) uint64_t ready_slow(struct memsys *m, uint64_t *p, uint64_t now)
{
	memsys_sync(m, now);
	uint64_t c = ddrctl_resolve(m->dc, *p);
	if (c)
		*p = c;
	return *p;
}

static inline uint64_t slot_ready(struct memsys *m, uint64_t *p, uint64_t now)
{
	return __builtin_expect((*p & MEMSYS_PEND) != 0, 0) ? ready_slow(m, p, now) : *p;
}

uint64_t memsys_pend_hit(struct memsys *m, uint64_t *p, uint64_t d, uint64_t now)
{
	uint64_t r = ready_slow(m, p, now);
	return d > r ? d : r;
}

/* Evict LLC slot v (valid): back-invalidate L1 copies, write back if dirty. */
static void llc_evict(struct memsys *m, unsigned h, uint64_t v, uint64_t t)
{
	uint64_t line = cache_line(&m->llc, v);
	uint64_t sh = m->llc.slot[v].aux;
	int dirty = cache_state(&m->llc, v) == LLC_DIRTY;
	while (sh) {
		unsigned s = (unsigned)__builtin_ctzll(sh);
		sh &= sh - 1;
		if (l1_drop(m, s, line) == ST_M)
			dirty = 1;
		m->hot.h[s].ev[MEMSYS_EV_BACK_INV]++;
	}
	m->llc.slot[v].aux = 0;
	cache_set_state(&m->llc, v, 0);
	if (!dirty && m->clean_wb && (m->clean_wb == 100 || (rng_next(&m->clean_wb_rng) >> 33) % 100 < m->clean_wb)) {
		m->clean_wb_events++;
		dirty = 1; /* the injected fault: a clean line written back */
	}
	if (dirty) {
		m->hot.h[h].ev[MEMSYS_EV_LLC_WB]++;
		mem_req(m, h, line, 1, t); /* (the hart whose miss evicted it) */
	}
}

void memsys_inject_clean_wb(struct memsys *m, unsigned rate, uint64_t seed)
{
	m->clean_wb = rate;
	rng_seed(&m->clean_wb_rng, seed);
}

uint64_t memsys_clean_wb_events(const struct memsys *m)
{
	return m->clean_wb_events;
}

/* Put `line` (state st, in LLC slot e, arriving at `ready`) in slot s of
 * hart H's L1 (bit: the hart's sharer bit).  Inclusive: a valid victim's
 * LLC slot, recorded at its fill, loses the bit, and a Modified victim
 * writes back into it. */
static inline __attribute__((always_inline)) void l1_replace(struct memsys *m, struct ms_hart *H, uint64_t bit,
                                                             uint64_t s, uint64_t line, unsigned st, uint64_t e,
                                                             uint64_t ready)
{
	struct cache *l1 = &H->l1;
	unsigned vst = cache_state(l1, s);
	if (vst) {
		uint64_t ve = l1->slot[s].aux;
		m->llc.slot[ve].aux &= ~bit;
		if (vst == ST_M) {
			cache_set_state(&m->llc, ve, LLC_DIRTY);
			H->ev[MEMSYS_EV_L1D_WB]++;
		}
	}
	cache_fill(l1, s, line, st);
	l1->slot[s].aux = e;
	l1->slot[s].ready = ready;
	cache_touch(l1, s);
	m->llc.slot[e].aux |= bit;
}

/* An LLC miss of hart h at cycle t: the memory read of `line` (src: h, or
 * h | MEMMODEL_PF), then the LRU victim's eviction, and the line in its
 * slot (state st, no L1 holding it, ready when the read completes).
 * Returns the slot. */
static inline __attribute__((always_inline)) uint64_t llc_fill(struct memsys *m, unsigned h, unsigned src,
                                                               uint64_t line, unsigned st, uint64_t t)
{
	uint64_t v = cache_victim(&m->llc, line);
	/* the victim's record (apart from the set's ages, which chose it) is
	 * likely not in the host's caches: fetched while the model works */
	__builtin_prefetch(&m->llc.slot[v], 1);
	/* the read goes first, the victim's write-back after it */
	uint64_t ready = mem_req(m, src, line, 0, t);
	if (cache_state(&m->llc, v))
		llc_evict(m, h, v, t);
	cache_fill_tagged(&m->llc, v, line, st);
	m->llc.slot[v].aux = 0;
	m->llc.slot[v].ready = ready;
	cache_touch(&m->llc, v);
	return v;
}

/* Bring `line` into the LLC for hart h's prefetcher at cycle t, as an LLC
 * miss would (no L1 gets it): 1, or 0 when the controller cannot take the
 * read now (the prefetch is dropped, not held; the stream asks again at
 * its next miss).  A line the LLC holds needs nothing. */
static int pf_fetch(struct memsys *m, unsigned h, uint64_t line, uint64_t t)
{
	if (cache_find_tagged(&m->llc, line) >= 0)
		return 1;
	if (m->mm.ops->admit && m->mm.ops->admit(m->mm.st, line, t, h | MEMMODEL_PF) > t) {
		m->pfs.dropped++;
		return 0;
	}
	m->pfs.reads++;
	llc_fill(m, h, h | MEMMODEL_PF, line, LLC_PF, t);
	return 1;
}

/* Hart h's L1 missed `line` at cycle t (its LLC access; a store's only
 * with pf-stores): the stream prefetcher.  Each hart tracks pf_streams
 * 4 KiB pages (the least recently missed replaced).  A miss on the line
 * after the page's previous miss (a unit stride) fetches the lines up to
 * pf_dist ahead of it within the page, from where the stream's earlier
 * prefetches stopped. */
static void pf_train(struct memsys *m, unsigned h, uint64_t line, uint64_t t)
{
	struct pf_stream *s = m->pf + (size_t)h * m->cfg.pf_streams, *old = s;
	uint64_t page = line & ~m->pf_page_mask;
	unsigned i;
	for (i = 0; i < m->cfg.pf_streams; i++, s++) {
		if ((s->last & ~m->pf_page_mask) == page && s->use)
			break;
		if (s->use < old->use)
			old = s;
	}
	if (i == m->cfg.pf_streams) { /* a page missed anew */
		*old = (struct pf_stream){ line, line + 1, ++m->pf_use };
		return;
	}
	int unit = line == s->last + 1;
	s->last = line;
	s->use = ++m->pf_use;
	if (!unit)
		return;
	uint64_t end = line + m->cfg.pf_dist, pend = page | m->pf_page_mask;
	if (end > pend)
		end = pend;
	if (s->next <= line)
		s->next = line + 1;
	while (s->next <= end && pf_fetch(m, h, s->next, t))
		s->next++;
}

/* Everything but an L1 hit found through the hint slot and the L1 miss
 * that memsys_access_miss handles (noinline: keeps that one free of
 * register saves). */
__attribute__((noinline)) static uint64_t access_slow(struct memsys *m, unsigned h, uint64_t line, int w, uint64_t now)
{
	struct ms_hart *H = &m->hot.h[h];
	struct cache *l1 = &H->l1;
	uint64_t bit = 1ull << h;
	/* The LLC is inclusive and its sharer bits are exact, so the L1 holds
	 * the line iff the LLC does and this hart's bit is set: an L1 miss
	 * (the common case on this path) needs no L1 tag search. */
	int64_t e = cache_find_tagged(&m->llc, line);
	int64_t i = e >= 0 && (m->llc.slot[e].aux & bit) ? cache_find(l1, line) : -1;
#ifdef MEMSYS_CHECK_DIR
	if (i != cache_find(l1, line)) abort();
#endif

	if (i >= 0) {
		int st = (int)cache_state(l1, (uint64_t)i);
		cache_touch(l1, (uint64_t)i);
		uint64_t r = slot_ready(m, &l1->slot[i].ready, now), d = now + m->hot.l1_hit;
		if (!w || st == ST_M)
			return d > r ? d : r;
		if (st == ST_E) { /* silent upgrade */
			cache_set_state(l1, (uint64_t)i, ST_M);
			return d > r ? d : r;
		}
		/* Shared: ask the LLC directory to invalidate the other copies. */
		H->ev[MEMSYS_EV_UPGRADE]++; /* LLC_ACCESS = L1D_MISS + UPGRADE */
		uint64_t ue = l1->slot[i].aux;
		{
			uint64_t others = m->llc.slot[ue].aux & ~bit;
			while (others) {
				unsigned s = (unsigned)__builtin_ctzll(others);
				others &= others - 1;
				l1_drop(m, s, line);
				m->hot.h[s].ev[MEMSYS_EV_INV_RECV]++;
				H->ev[MEMSYS_EV_INV_SENT]++;
			}
			m->llc.slot[ue].aux = bit;
			cache_touch(&m->llc, ue);
		}
		cache_set_state(l1, (uint64_t)i, ST_M);
		d += m->llc_lat;
		return d > r ? d : r;
	}

	/* L1 miss */
	H->ev[MEMSYS_EV_L1D_MISS]++; /* LLC_ACCESS = L1D_MISS + UPGRADE */
	uint64_t t = now + m->hot.l1_hit + m->llc_lat;
	uint64_t ready;
	int nst;
	if (e >= 0) {
		cache_touch(&m->llc, (uint64_t)e);
		uint64_t others = m->llc.slot[e].aux & ~bit;
		int keep_shared = 0;
		while (others) {
			unsigned s = (unsigned)__builtin_ctzll(others);
			others &= others - 1;
			int ost;
			if (w) {
				ost = l1_drop(m, s, line);
				m->llc.slot[e].aux &= ~(1ull << s);
				m->hot.h[s].ev[MEMSYS_EV_INV_RECV]++;
				H->ev[MEMSYS_EV_INV_SENT]++;
			} else {
				ost = l1_downgrade(m, s, line);
				keep_shared = 1;
			}
			if (ost == ST_M) { /* intervention: write back to the LLC */
				cache_set_state(&m->llc, (uint64_t)e, LLC_DIRTY);
				H->ev[MEMSYS_EV_COH_WB]++;
				t += m->coh_lat;
			}
		}
		/* the line may still be on its way from memory */
		uint64_t er = slot_ready(m, &m->llc.slot[e].ready, now);
		ready = t > er ? t : er;
		if (cache_state(&m->llc, (uint64_t)e) == LLC_PF) {
			m->pfs.used++;
			cache_set_state(&m->llc, (uint64_t)e, LLC_CLEAN);
		}
		nst = w ? ST_M : keep_shared ? ST_S : ST_E;
	} else {
		/* the set's ages (the victim search) fetched while the
		 * controller is asked */
		__builtin_prefetch(m->llc.age + cache_set_base(&m->llc, line));
		if (m->mm.ops->admit) {
			/* a read the controller cannot take yet: nothing has
			 * changed, so undo the counts and let the core issue
			 * the access again when it can enter */
			uint64_t te = m->mm.ops->admit(m->mm.st, line, t, h);
			if (te > t) {
				H->ev[MEMSYS_EV_L1D_MISS]--;
				H->ev[w ? MEMSYS_EV_STORE : MEMSYS_EV_LOAD]--;
				return MEMSYS_HELD | (now + (te - t));
			}
		}
		H->ev[MEMSYS_EV_LLC_MISS]++;
		e = (int64_t)llc_fill(m, h, h, line, LLC_CLEAN, t);
		ready = m->llc.slot[e].ready;
		nst = w ? ST_M : ST_E;
	}

	if (ready <= now)
		ready = now + 1;
	l1_replace(m, H, bit, cache_victim(l1, line), line, (unsigned)nst, (uint64_t)e, ready);
	if (m->pf && (!w || m->cfg.pf_stores))
		pf_train(m, h, line, t);
	return ready;
}

/* An L1 miss that hits the LLC at its hint slot, no L1 holding the line
 * (no sharer bit: nothing to invalidate, downgrade or look up in the L1):
 * the lat suite's nearly every load.  access_slow's steps for that case,
 * with 8-way L1s (the default: the unrolled victim search of another way
 * count would make this function save more registers), in a function
 * small enough to save few; anything else goes on to access_slow. */
uint64_t memsys_access_miss(struct memsys *m, struct ms_hart *H, uint64_t line, int w, uint64_t now)
{
	struct cache *llc = &m->llc;
	uint64_t e = llc->hint[line & llc->hint_mask];
	struct cache_slot *E = &llc->slot[e];
	struct cache *l1 = &H->l1;
	if (!cache_holds(llc, e, line) || E->aux || !H->fast_miss)
		return access_slow(m, (unsigned)(H - m->hot.h), line, w, now);
	H->ev[MEMSYS_EV_L1D_MISS]++;
	cache_touch(llc, e);
	uint64_t t = now + m->hot.l1_hit + m->llc_lat; /* > now: l1_hit >= 1 */
	uint64_t er = slot_ready(m, &E->ready, now);
	uint64_t ready = t > er ? t : er;
	uint64_t b = (line & l1->set_mask) << 3;
	l1_replace(m, H, H->fast_miss, b + cache_lru_in(l1->age + b, 8), line, w ? ST_M : ST_E, e, ready);
	return ready;
}

void memsys_check_ages(struct memsys *m)
{
	for (unsigned h = 0; h < m->nharts; h++)
		if (cache_aged(&m->hot.h[h].l1)) {
			cache_renumber(&m->hot.h[h].l1);
			m->renumbers[0]++;
		}
	if (cache_aged(&m->llc)) {
		cache_renumber(&m->llc);
		m->renumbers[1]++;
	}
}

uint64_t memsys_event(const struct memsys *m, unsigned h, unsigned event)
{
	if (h >= m->nharts || event >= MEMSYS_EV_COUNT || event == MEMSYS_EV_NONE)
		return 0;
	if (event == MEMSYS_EV_L1D_ACCESS)
		return m->hot.h[h].ev[MEMSYS_EV_LOAD] + m->hot.h[h].ev[MEMSYS_EV_STORE];
	if (event == MEMSYS_EV_LLC_ACCESS)
		return m->hot.h[h].ev[MEMSYS_EV_L1D_MISS] + m->hot.h[h].ev[MEMSYS_EV_UPGRADE];
	return m->hot.h[h].ev[event];
}

/* ---- counters --------------------------------------------------------------- */

static uint64_t model_busy(const struct memsys *m)
{
	struct memsys_model_stats s;
	m->mm.ops->stats(m->mm.st, &s);
	return s.busy;
}

uint64_t memsys_mmio_read(struct memsys *m, uint64_t off)
{
	switch (off) {
	case MEMSYS_MMIO_READS:
		return m->frozen ? m->frz_reads : m->mc_reads - m->base_reads;
	case MEMSYS_MMIO_WRITES:
		return m->frozen ? m->frz_writes : m->mc_writes - m->base_writes;
	case MEMSYS_MMIO_BUSY:
		return m->frozen ? m->frz_busy : model_busy(m) - m->base_busy;
	case MEMSYS_MMIO_PEAK:
		return m->mm.ops->peak_mbps(m->mm.st);
	case MEMSYS_MMIO_CTRL:
		return m->frozen ? 2 : 0;
	case MEMSYS_MMIO_FREQ:
		return (uint64_t)(m->cfg.freq_ghz * 1000 + 0.5);
	case MEMSYS_MMIO_LINE:
		return m->cfg.line;
	case MEMSYS_MMIO_MAGIC:
		return MEMSYS_MMIO_MAGIC_VALUE;
	default:
		return 0;
	}
}

void memsys_mmio_write(struct memsys *m, uint64_t off, uint64_t v)
{
	if (off != MEMSYS_MMIO_CTRL)
		return;
	if (v == 1) {
		m->base_reads = m->mc_reads;
		m->base_writes = m->mc_writes;
		m->base_busy = model_busy(m);
		m->frz_reads = m->frz_writes = m->frz_busy = 0;
	} else if (v == 2) {
		if (!m->frozen) {
			m->frz_reads = m->mc_reads - m->base_reads;
			m->frz_writes = m->mc_writes - m->base_writes;
			m->frz_busy = model_busy(m) - m->base_busy;
			m->frozen = 1;
		}
	} else if (v == 0) {
		m->frozen = 0;
	}
}

void memsys_model_stats(const struct memsys *m, struct memsys_model_stats *s)
{
	m->mm.ops->stats(m->mm.st, s);
}

void memsys_pf_stats(const struct memsys *m, struct memsys_pf_stats *s)
{
	*s = m->pfs;
}

static const char *const ev_names[MEMSYS_EV_COUNT] = {
	"-", "l1d_access", "l1d_miss", "llc_access", "llc_miss", "llc_wb", "load", "store",
	"l1d_wb", "inv_sent", "inv_recv", "coh_wb", "back_inv", "upgrade",
};

void memsys_print_ddr(FILE *f, const char *what, const struct ddr_stats *d)
{
	uint64_t n = d->hits + d->empties + d->conflicts;
	double el = d->last_t > d->first_t ? (double)(d->last_t - d->first_t) : 1;
	double pc = n ? 100.0 / (double)n : 0;
	fprintf(f, "%s: reads %llu writes %llu; rows hit %.1f %% empty %.1f %% conflict %.1f %%; "
	        "refresh stalls %llu; bus utilisation %.1f %%\n",
	        what, (unsigned long long)d->reads, (unsigned long long)d->writes, pc * (double)d->hits,
	        pc * (double)d->empties, pc * (double)d->conflicts, (unsigned long long)d->ref_stalls,
	        100.0 * (double)d->busy_t / el);
	fprintf(f, "%s: read queue: mean occupancy %.2f, full %llu times (%llu cycles waited); "
	        "write queue: mean occupancy %.2f, full %llu times (%llu cycles); drains %llu; "
	        "reads from the write queue %llu\n",
	        what, (double)d->rq_res_t / el, (unsigned long long)d->rq_waits, (unsigned long long)d->rq_wait_t,
	        (double)d->wq_res_t / el, (unsigned long long)d->wq_waits, (unsigned long long)d->wq_wait_t,
	        (unsigned long long)d->drains, (unsigned long long)d->fwd);
	if (d->ctl)
		fprintf(f, "%s: bus turnarounds read->write %llu, write->read %llu; requests later than the "
		        "controller's decisions %llu\n", what, (unsigned long long)d->rtw, (unsigned long long)d->wtr,
		        (unsigned long long)d->late);
}

void memsys_stats(const struct memsys *m, FILE *f)
{
	struct memsys_model_stats s;
	memsys_model_stats(m, &s);
	fprintf(f, "memsys: %u harts, L1D %lluK/%u-way/%u cyc, LLC %lluK/%u-way/+%u cyc (inclusive), model %s\n",
	        m->nharts, (unsigned long long)(m->cfg.l1d_size >> 10), m->cfg.l1d_ways, m->cfg.l1d_hit,
	        (unsigned long long)(m->cfg.llc_size >> 10), m->cfg.llc_ways, m->cfg.llc_hit,
	        m->cfg.mem_model);
	fprintf(f, "%-5s", "hart");
	for (unsigned e = 1; e < MEMSYS_EV_COUNT; e++)
		fprintf(f, " %12s", ev_names[e]);
	fputc('\n', f);
	for (unsigned h = 0; h < m->nharts; h++) {
		fprintf(f, "%-5u", h);
		for (unsigned e = 1; e < MEMSYS_EV_COUNT; e++)
			fprintf(f, " %12llu", (unsigned long long)memsys_event(m, h, e));
		fputc('\n', f);
	}
	fprintf(f, "memctl: reads %llu writes %llu (lines); model %s served reads %llu writes %llu, busy %llu cycles, peak %llu MB/s",
	        (unsigned long long)m->mc_reads, (unsigned long long)m->mc_writes, m->cfg.mem_model,
	        (unsigned long long)s.reads, (unsigned long long)s.writes, (unsigned long long)s.busy,
	        (unsigned long long)m->mm.ops->peak_mbps(m->mm.st));
	if (s.row_hits + s.row_misses + s.row_conflicts)
		fprintf(f, "; rows hit %llu miss %llu conflict %llu", (unsigned long long)s.row_hits,
		        (unsigned long long)s.row_misses, (unsigned long long)s.row_conflicts);
	fputc('\n', f);
	if (s.has_ddr)
		memsys_print_ddr(f, "ddr", &s.ddr);
	if (m->pf)
		fprintf(f, "prefetch: %u lines ahead, %u pages a hart, trained by %s; reads %llu, "
		        "used by a demand access %llu, dropped (controller full) %llu\n",
		        m->cfg.pf_dist, m->cfg.pf_streams, m->cfg.pf_stores ? "loads and stores" : "loads",
		        (unsigned long long)m->pfs.reads, (unsigned long long)m->pfs.used,
		        (unsigned long long)m->pfs.dropped);
	if (m->renumbers[0] || m->renumbers[1]) /* (only past lru-age-limit uses of a cache) */
		fprintf(f, "lru: ages renumbered past lru-age-limit %u: L1s %llu times, LLC %llu times\n",
		        m->cfg.lru_age_limit, (unsigned long long)m->renumbers[0], (unsigned long long)m->renumbers[1]);
}
