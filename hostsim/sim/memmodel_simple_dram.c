/*
 * The simple-dram memory model (alias dram): channels of banks with open
 * rows, a shared data bus per channel with read/write turnarounds, posted
 * writes drained in batches and a four-activate window, but no JEDEC
 * timing (that is the ddr models, memmodel_ddr_config.c).  See memmodel.h and
 * docs/memsys.md.
 */
#include "sim/memmodel.h"
#include "sim/memmodel_ticks.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const struct memmodel_ops memmodel_simple_dram = {
	"simple-dram", "banks, open rows and a shared data bus per channel, no JEDEC timing (the dram-* keys; "
	"alias: dram)",
	dram_keys, sizeof dram_keys / sizeof dram_keys[0], dram_defaults, dram_check,
	dram_create, dram_request, dram_stats, dram_peak, dram_destroy, NULL,
};
