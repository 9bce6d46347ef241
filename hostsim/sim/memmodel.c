/*
 * Memory models: fixed, md1, simple-dram (alias dram); ddr is in
 * memmodel_ddr.c.  See memmodel.h and docs/memsys.md.
 *
 * Internal time is in ticks of 1/256 cycle so that fractional transfer
 * times (64 B at 25.6 B/cycle = 2.5 cycles) add up without drift.  Results
 * are rounded up to whole cycles.
 */
#include "sim/memmodel.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OFF(f) offsetof(struct memsys_cfg, f)
static int pow2(uint64_t v) { return v && !(v & (v - 1)); }

#define TSH 8                       /* ticks per cycle = 1 << TSH */
#define CYC2T(c) ((uint64_t)(c) << TSH)

static uint64_t t2cyc_up(uint64_t t) { return (t + (1u << TSH) - 1) >> TSH; }
static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Ticks to move one line at `gbps` (GB/s) with a `ghz` clock; 0 if invalid. */
static uint64_t line_ticks(unsigned line, double gbps, double ghz)
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
static uint64_t mbps_of(unsigned line, uint64_t ticks, unsigned servers, double ghz)
{
	double lines_per_s = ghz * 1e9 * (double)(1u << TSH) / (double)ticks;
	return (uint64_t)(lines_per_s * line * servers / 1e6 + 0.5);
}

/* ---- fixed: constant latency, unlimited bandwidth ---------------------- */

struct fixed {
	uint64_t lat;
	uint64_t reads, writes;
};

static void *fixed_create(const struct memsys_cfg *cfg, char *err, size_t errlen)
{
	(void)err; (void)errlen;
	struct fixed *f = calloc(1, sizeof *f);
	if (f)
		f->lat = cfg->mem_latency;
	return f;
}

static uint64_t fixed_request(void *st, uint64_t la, int w, uint64_t now, unsigned src)
{
	struct fixed *f = st;
	(void)la;
	(void)src;
	if (w)
		f->writes++;
	else
		f->reads++;
	return now + f->lat;
}

static void fixed_stats(const void *st, struct memsys_model_stats *s)
{
	const struct fixed *f = st;
	memset(s, 0, sizeof *s);
	s->reads = f->reads;
	s->writes = f->writes;
}

static uint64_t fixed_peak(const void *st) { (void)st; return 0; }

/* ---- md1: one FIFO server, deterministic service ------------------------ */

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

/* ---- simple-dram: channels, banks, open rows, shared data bus per channel  */

#define MAX_ROWBUFS 16
struct bank {
	int64_t row[MAX_ROWBUFS];   /* rows counted as open, most recent first */
	unsigned nrows;
	uint64_t free_t;            /* next command may start */
};

struct chan {
	uint64_t bus_free_t;
	int last_write;             /* direction of the last bus transfer */
	unsigned wq;                /* posted writes waiting for a drain */
	uint64_t act[4];            /* the last four activates (ring) ... */
	unsigned act_i;             /* ... act[act_i] is the oldest */
	uint64_t busy_t;
};

struct dram {
	unsigned nch, nbanks, bank_shift, lpr_shift;   /* lines per row = 1 << lpr_shift */
	uint64_t burst_t, ctrl_t, trcd_t, tcl_t, trp_t, trtw_t, twtr_t, tfaw_t;
	unsigned wq_max, rowbufs;
	uint64_t reads, writes, hits, misses, conflicts, peak;
	struct chan *ch;
	struct bank *bk;            /* nch * nbanks */
	uint16_t *fold;             /* the bank hash's fold of rows 0 .. FOLD_ROWS - 1 (dram_map) */
};

#define FOLD_ROWS (1u << 14)   /* rows per bank covered by the table: 2 GiB with the defaults */
static uint64_t dram_fold(const struct dram *d, uint64_t rw);

static unsigned log2u(uint64_t v) { unsigned n = 0; while (v > 1) { v >>= 1; n++; } return n; }

static const struct memsys_key dram_keys[] = {
	{ "dram-channels", K_U32, OFF(dram_channels), 1, 64, "dram: channels" },
	{ "dram-banks", K_U32, OFF(dram_banks), 1, 1024, "dram: banks per channel (power of two)" },
	{ "dram-row", K_U32, OFF(dram_row), 16, 1u << 20, "dram: row size per bank, bytes (power of two)" },
	{ "dram-trcd", K_U32, OFF(dram_trcd), 0, 10000, "dram: activate to read, cycles" },
	{ "dram-tcl", K_U32, OFF(dram_tcl), 0, 10000, "dram: read to data, cycles" },
	{ "dram-trp", K_U32, OFF(dram_trp), 0, 10000, "dram: precharge, cycles" },
	{ "dram-trtw", K_U32, OFF(dram_trtw), 0, 10000, "dram: bus turnaround read->write, cycles" },
	{ "dram-twtr", K_U32, OFF(dram_twtr), 0, 10000, "dram: bus turnaround write->read, cycles" },
	{ "dram-tfaw", K_U32, OFF(dram_tfaw), 0, 10000, "dram: window for four activates per channel, cycles (0 = no limit)" },
	{ "dram-wq", K_U32, OFF(dram_wq), 1, 4096, "dram: writes drained in batches of this many" },
	{ "dram-rowbufs", K_U32, OFF(dram_rowbufs), 1, 16, "dram: recent rows per bank served as row hits (FR-FCFS batching; 1 = strict open page)" },
};

static void dram_defaults(struct memsys_cfg *c)
{
	c->dram_channels = 1;
	c->dram_banks = 16;
	c->dram_row = 8192;
	c->dram_trcd = 14;
	c->dram_tcl = 14;
	c->dram_trp = 14;
	c->dram_trtw = 8;
	c->dram_twtr = 20;
	c->dram_wq = 16;
	c->dram_rowbufs = 4;
	c->dram_tfaw = 21;
}

static int dram_check(const struct memsys_cfg *c, char *err, size_t errlen)
{
	if (!pow2(c->dram_banks) || !pow2(c->dram_row) || c->dram_row < c->line) {
		snprintf(err, errlen, "memsys: dram-banks (%u) and dram-row (%u) must be powers of two, dram-row >= line",
		         c->dram_banks, c->dram_row);
		return -1;
	}
	if (c->dram_channels < 1 || c->dram_wq < 1) {
		snprintf(err, errlen, "memsys: dram-channels and dram-wq must be >= 1");
		return -1;
	}
	return 0;
}

static void *dram_create(const struct memsys_cfg *cfg, char *err, size_t errlen)
{
	if (cfg->dram_channels < 1 || cfg->dram_banks < 1 || cfg->dram_wq < 1) {
		snprintf(err, errlen, "dram: dram-channels, dram-banks and dram-wq must be >= 1");
		return NULL;
	}
	/* peak-gbps is the total over channels */
	uint64_t burst = line_ticks(cfg->line, cfg->peak_gbps / cfg->dram_channels, cfg->freq_ghz);
	if (!burst) {
		snprintf(err, errlen, "dram: peak-gbps and freq-ghz must be > 0");
		return NULL;
	}
	uint64_t fixed_part = CYC2T((uint64_t)cfg->dram_trp + cfg->dram_trcd + cfg->dram_tcl) + burst;
	if (CYC2T(cfg->mem_latency) < fixed_part) {
		snprintf(err, errlen,
		         "dram: mem-latency %u is below dram-trp + dram-trcd + dram-tcl + one burst (%llu cycles)",
		         cfg->mem_latency, (unsigned long long)t2cyc_up(fixed_part));
		return NULL;
	}
	struct dram *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->nch = cfg->dram_channels;
	d->nbanks = cfg->dram_banks;
	d->bank_shift = log2u(cfg->dram_banks);
	d->lpr_shift = log2u(cfg->dram_row / cfg->line);
	d->burst_t = burst;
	d->ctrl_t = CYC2T(cfg->mem_latency) - fixed_part;
	d->trcd_t = CYC2T(cfg->dram_trcd);
	d->tcl_t = CYC2T(cfg->dram_tcl);
	d->trp_t = CYC2T(cfg->dram_trp);
	d->trtw_t = CYC2T(cfg->dram_trtw);
	d->twtr_t = CYC2T(cfg->dram_twtr);
	d->tfaw_t = CYC2T(cfg->dram_tfaw);
	d->wq_max = cfg->dram_wq;
	d->rowbufs = cfg->dram_rowbufs < 1 ? 1 : cfg->dram_rowbufs > MAX_ROWBUFS ? MAX_ROWBUFS : cfg->dram_rowbufs;
	d->peak = mbps_of(cfg->line, burst, d->nch, cfg->freq_ghz);
	d->ch = calloc(d->nch, sizeof *d->ch);
	d->bk = calloc((size_t)d->nch * d->nbanks, sizeof *d->bk);
	d->fold = malloc(FOLD_ROWS * sizeof *d->fold);
	if (!d->ch || !d->bk || !d->fold) {
		free(d->ch);
		free(d->bk);
		free(d->fold);
		free(d);
		return NULL;
	}
	/* dram_fold(rw) = rw ^ dram_fold(rw >> bank_shift), a smaller row */
	d->fold[0] = 0;
	for (uint64_t rw = 1; rw < FOLD_ROWS; rw++)
		d->fold[rw] = d->bank_shift ? (uint16_t)((rw ^ d->fold[rw >> d->bank_shift]) & (d->nbanks - 1)) : 0;
	return d;
}

/*
 * Line address -> channel (line interleave), then column (consecutive lines
 * of a channel share a row), bank (XOR-hashed with the row's low bits), row.
 * The hash folds the row number bank_shift bits at a time; the folds of
 * the first FOLD_ROWS rows are a table (dram_open), larger rows fold here.
 * A write needs only its channel (dram_request).
 */
static uint64_t dram_fold(const struct dram *d, uint64_t rw)
{
	uint64_t fold = 0;
	if (d->bank_shift)
		for (uint64_t v = rw; v; v >>= d->bank_shift)
			fold ^= v;
	return fold;
}

/* The channel of line address la, and the line address within it in *r. */
static inline unsigned dram_chan(const struct dram *d, uint64_t la, uint64_t *r)
{
	if (d->nch > 1) {
		*r = la / d->nch;
		return (unsigned)(la % d->nch);
	}
	*r = la;
	return 0;
}

static inline void dram_map(const struct dram *d, uint64_t r, unsigned *bank, int64_t *row)
{
	uint64_t rb = r >> d->lpr_shift;
	uint64_t rw = rb >> d->bank_shift;
	uint64_t fold = rw < FOLD_ROWS ? d->fold[rw] : dram_fold(d, rw);
	*bank = (unsigned)((rb ^ fold) & (d->nbanks - 1));
	*row = (int64_t)rw;
}

/* An activate wanted at t: at most four per tFAW window per channel.
 * Returns the time it happens. */
static uint64_t dram_activate(struct dram *d, struct chan *ch, uint64_t t)
{
	if (d->tfaw_t) {
		uint64_t earliest = ch->act[ch->act_i] + d->tfaw_t;
		if (ch->act[ch->act_i] && t < earliest)
			t = earliest;
		ch->act[ch->act_i] = t ? t : 1;
		ch->act_i = (ch->act_i + 1) & 3;
	}
	return t;
}

static uint64_t dram_request(void *st, uint64_t la, int w, uint64_t now, unsigned src)
{
	struct dram *d = st;
	uint64_t r;
	unsigned c = dram_chan(d, la, &r), b;
	int64_t row;
	(void)src;
	struct chan *ch = &d->ch[c];
	uint64_t t = CYC2T(now);

	if (w) {
		/* Posted: accepted now, moved to the bus in batches of wq_max. */
		d->writes++;
		if (++ch->wq >= d->wq_max) {
			uint64_t turn = ch->last_write ? 0 : d->trtw_t;
			uint64_t start = max64(t, ch->bus_free_t + turn);
			uint64_t len = (uint64_t)ch->wq * d->burst_t;
			ch->bus_free_t = start + len;
			ch->busy_t += len + turn;
			ch->last_write = 1;
			ch->wq = 0;
		}
		return now + t2cyc_up(d->ctrl_t) + 1;
	}

	d->reads++;
	dram_map(d, r, &b, &row);
	struct bank *bk = &d->bk[(size_t)c * d->nbanks + b];
	uint64_t t0 = max64(t, bk->free_t);
	uint64_t ready;
	unsigned j = 0;
	while (j < bk->nrows && bk->row[j] != row)
		j++;
	if (j < bk->nrows) {
		d->hits++;
		ready = t0 + d->tcl_t;
		bk->free_t = t0 + d->burst_t;
	} else if (bk->nrows < d->rowbufs) {
		d->misses++;
		t0 = dram_activate(d, ch, t0);
		ready = t0 + d->trcd_t + d->tcl_t;
		bk->free_t = t0 + d->trcd_t + d->burst_t;
		j = bk->nrows++;
	} else {
		d->conflicts++;
		t0 = dram_activate(d, ch, t0 + d->trp_t) - d->trp_t;
		ready = t0 + d->trp_t + d->trcd_t + d->tcl_t;
		bk->free_t = t0 + d->trp_t + d->trcd_t + d->burst_t;
		j = bk->nrows - 1;
	}
	for (; j > 0; j--) /* most recent first */
		bk->row[j] = bk->row[j - 1];
	bk->row[0] = row;
	uint64_t turn = ch->last_write ? d->twtr_t : 0;
	uint64_t ds = max64(ready, ch->bus_free_t + turn);
	ch->bus_free_t = ds + d->burst_t;
	ch->busy_t += d->burst_t + turn;
	ch->last_write = 0;
	return t2cyc_up(ch->bus_free_t + d->ctrl_t);
}

static void dram_stats(const void *st, struct memsys_model_stats *s)
{
	const struct dram *d = st;
	memset(s, 0, sizeof *s);
	s->reads = d->reads;
	s->writes = d->writes;
	uint64_t busy = 0;
	for (unsigned i = 0; i < d->nch; i++)
		busy += d->ch[i].busy_t;
	s->busy = t2cyc_up(busy);
	s->row_hits = d->hits;
	s->row_misses = d->misses;
	s->row_conflicts = d->conflicts;
}

static uint64_t dram_peak(const void *st) { return ((const struct dram *)st)->peak; }

static void dram_destroy(void *st)
{
	struct dram *d = st;
	if (d) {
		free(d->ch);
		free(d->bk);
		free(d->fold);
		free(d);
	}
}

/* ---- table ----------------------------------------------------------- */

#define NOKEYS NULL, 0
#define KEYS(k) k, sizeof(k) / sizeof(k[0])
static const struct memmodel_ops fixed_ops = {
	"fixed", "mem-latency cycles for every transfer, unlimited bandwidth", NOKEYS, NULL, NULL,
	fixed_create, fixed_request, fixed_stats, fixed_peak, free, NULL,
};
static const struct memmodel_ops md1_ops = {
	"md1", "one FIFO server at peak-gbps plus mem-latency (M/D/1 queue)", NOKEYS, NULL, NULL,
	md1_create, md1_request, md1_stats, md1_peak, free, NULL,
};
static const struct memmodel_ops dram_ops = {
	"simple-dram", "banks, open rows and a shared data bus per channel, no JEDEC timing (the dram-* keys; "
	"alias: dram)",
	KEYS(dram_keys), dram_defaults, dram_check,
	dram_create, dram_request, dram_stats, dram_peak, dram_destroy, NULL,
};
static const struct memmodel_ops *const models[] = { &fixed_ops, &md1_ops, &dram_ops, &memmodel_ddrctl, &memmodel_ddr,
                                                     &memmodel_mess };
#define NMODELS (sizeof models / sizeof models[0])

const struct memmodel_ops *memmodel_at(size_t i)
{
	return i < NMODELS ? models[i] : NULL;
}

void memmodel_defaults(struct memsys_cfg *cfg)
{
	for (size_t i = 0; i < NMODELS; i++)
		if (models[i]->defaults)
			models[i]->defaults(cfg);
}

int memmodel_check(const struct memsys_cfg *cfg, char *err, size_t errlen)
{
	for (size_t i = 0; i < NMODELS; i++)
		if (models[i]->check && models[i]->check(cfg, err, errlen))
			return -1;
	return 0;
}

const struct memmodel_ops *memmodel_find(const char *name)
{
	if (strcmp(name, "dram") == 0) /* the simple model's first name */
		name = dram_ops.name;
	for (size_t i = 0; i < NMODELS; i++)
		if (strcmp(models[i]->name, name) == 0)
			return models[i];
	return NULL;
}

const char *memmodel_names(void)
{
	static char names[128];
	if (!names[0])
		for (size_t i = 0; i < NMODELS; i++)
			snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? " " : "", models[i]->name);
	return names;
}

int memmodel_open(struct memmodel *mm, const struct memsys_cfg *cfg, char *err, size_t errlen)
{
	mm->ops = memmodel_find(cfg->mem_model);
	mm->st = NULL;
	if (!mm->ops) {
		snprintf(err, errlen, "mem-model: unknown model '%s' (known: %s)", cfg->mem_model,
		         memmodel_names());
		return -1;
	}
	if (errlen)
		err[0] = 0;
	mm->st = mm->ops->create(cfg, err, errlen);
	if (!mm->st) {
		if (errlen && !err[0])
			snprintf(err, errlen, "mem-model %s: out of memory", cfg->mem_model);
		return -1;
	}
	return 0;
}

void memmodel_close(struct memmodel *mm)
{
	if (mm->ops && mm->st)
		mm->ops->destroy(mm->st);
	mm->st = NULL;
}
