/*
 * Memory model "ddr-resv": the ddr devices (the ddr-* keys, presets and
 * address map of memmodel_ddr_config.c) behind the earlier controller, a
 * reservation scheduler, kept selectable to compare with the controller
 * of model "ddr" (memmodel_ddrctl.c).  See memmodel.h for the interface
 * and docs/memsys.md ("ddr-resv") for what is modelled and its figures.
 *
 * hostsim asks for one line at a time, in (nearly) time order, and this
 * model answers with its completion at once, so its controller is a
 * reservation scheduler: each request is given the earliest command and
 * data-bus slots that every timing constraint allows, given what is
 * already committed, and those slots are then committed.  Nothing already
 * committed moves, so the model is causal and deterministic:
 *  - the data bus is slotted (a burst starts at a multiple of the burst
 *    length; see bus_find); a read takes the earliest free slot that every
 *    spacing rule allows against the bursts around it (tCCD_S/L,
 *    turnarounds, tRTRS), at most ddr-cap slots before the latest committed
 *    burst, so a younger read overtakes older requests that wait for their
 *    bank and reads overtake a drained batch of writes (the "first ready"
 *    and "reads first" of FR-FCFS, the cap bounding the starvation).
 *    Drained writes go behind everything committed, as one batch;
 *  - within a bank, row hits first (see transfer): a hit needs only tRCD
 *    from its row's activate; a hit to the row the bank had open before its
 *    last committed precharge goes in before that precharge if it fits;
 *    activates (and their precharges) go as late as their burst's slot
 *    allows, keeping the replaced row open for the hits still to come; the
 *    activates of a rank keep tRRD_S/L and tFAW on either side;
 *  - a read waits to enter the read queue while it is full (its slot frees
 *    when its column command issues), or while its source (the requesting
 *    hart) holds ddr-src-rq entries of it; the wait is part of its
 *    latency.  Such a read is not committed while it waits: memsys asks
 *    first (resv_admit) and the core holds the access until it can enter,
 *    so reads that arrive meanwhile from other harts are not queued behind
 *    reads that could not have been in the queue yet;
 *  - ddr-fair N (0 = off): N read-queue entries are kept for a source (the
 *    requesting hart) with no read queued, which takes one when the shared
 *    ones are full, without the cap, the ring looking 4096 cycles back (see
 *    resv_request);
 *  - writes are posted into the write queue and drained when it holds the
 *    high watermark, down to the low one, oldest first with the other writes
 *    to the same row right behind it; a write waits to enter a full queue;
 *    a read of a line still in the write queue is served from it;
 *  - refresh: rank r is blocked for tRFC from r*tREFI/ranks + k*tREFI
 *    (k >= 1); its rows are closed by it; a command never falls inside.
 *
 * Time is in ticks of 1/256 core cycle (memmodel_ticks.h).
 */
#include "sim/memmodel.h"
#include "sim/memmodel_ddr_config.h"
#include "sim/memmodel_ticks.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOTIME UINT64_MAX
/* the steps of one request, inlined into it: their calls cost as much as their work */
#define ALWAYS_INLINE static inline __attribute__((always_inline))

struct resv;
static void bus_rules_init(struct resv *d);

/* ---- the state ------------------------------------------------------------------ */

struct resv_bank {
	int64_t open_row;      /* -1: closed */
	uint64_t open_epoch;   /* the refresh epoch the row was opened in */
	uint64_t act_at;       /* its activate */
	uint64_t earliest_pre, earliest_act;
	int64_t prev_row;      /* the row open before the last committed precharge, -1 none */
	uint64_t prev_epoch, prev_act_at, prev_pre_at; /* its epoch, activate, the precharge */
};

struct pending_write { uint64_t line, at; struct ddr_loc loc; };

#define ACT_HISTORY 16
struct resv_rank {
	uint64_t acts[2 * ACT_HISTORY]; /* committed activates, sorted (may lie ahead): */
	uint16_t acts_bg[2 * ACT_HISTORY]; /* (and their bank groups) */
	unsigned acts_head, nacts; /* acts[acts_head .. acts_head + nacts), nacts <= ACT_HISTORY */
	uint64_t refresh_offset; /* first refresh at refresh_offset + tREFI */
	uint64_t epoch, epoch_start; /* cache: refresh epoch `epoch` begins at epoch_start (epoch >= 1) */
	uint64_t no_refresh_lo, no_refresh_hi; /* cache: no refresh within [lo, hi) */
};

/* Times at which queue slots free, sorted, the earliest first: a ring
 * (times mostly come in order, so an insertion moves few entries). */
struct free_times { uint64_t *times; unsigned mask, head, n; };

static void free_times_init(struct free_times *q, unsigned n);

#define WQ_BUCKETS 1024
struct resv_chan {
	uint64_t *slots;       /* the data bus: a ring of slots (see bus_find) */
	uint64_t ring_mask;    /* ring size - 1 */
	uint64_t latest_asked; /* the latest earliest slot asked for */
	uint64_t bus_end_slot; /* the slot after the latest committed burst */
	uint64_t *forbidden;   /* per word of the ring, d->bitmaps_per_word bitmaps of the
	                          slots a burst may not take (see BM_OWN_BG; words wholly
	                          behind lowest_kept cleared) */
	uint64_t lowest_kept;  /* latest_asked - ring_keep: no slot below is looked at */
	struct free_times rq_free; /* when each read-queue slot frees (the
	                          ddr-rq - ddr-fair shared ones) */
	struct free_times rq_kept; /* the same for the ddr-fair kept ones */
	struct free_times *src_rq; /* --ddr-src-rq: per source, the same for its entries */
	uint64_t src_last_col[MEMSYS_MAX_HARTS]; /* per source: its latest read's
	                          column command (none queued from then on) */
	struct free_times wq_free; /* the same for the write-queue slots not held
	                          by a pending write */
	struct pending_write *pending; /* writes queued, not yet scheduled, oldest first */
	struct pending_write *drain_group; /* drain: the writes to one row (scratch) */
	unsigned npending;
	uint16_t pending_per_bucket[WQ_BUCKETS]; /* pending writes per bucket line & (WQ_BUCKETS - 1) */
	struct resv_bank *banks; /* ranks * bank groups * banks */
	struct resv_rank *ranks;
};

struct resv {
	struct ddr_config cfg; /* the devices, queues and address map */
	unsigned rule_span;    /* slots within which one burst constrains another */
	unsigned gap_slots[2][2][2][2]; /* slots from a burst (its direction) to the next
	                          (direction, same rank, same bank group) */
	unsigned bitmaps_per_word; /* per word of the ring (BM_OWN_BG ...) */
	/* what a burst of direction xw marks (see forbid_around): the slots
	 * before and after it, as a bit pattern from slot x - before when it
	 * fits a word (else 0), in bitmap bitmap_base + rank * rank_stride +
	 * bg * bg_stride (BM_OWN_BG, BM_OWN_RANK) or, kind 2, BM_OTHER_RANKS of
	 * every other rank */
	struct bus_rule { unsigned before, after, bitmap_base, rank_stride, bg_stride, kind; uint64_t pattern; } rules[2][6];
	unsigned nrules[2];
	/* the same, when every rule of xw fits one word from slot x -
	 * word_rules_before: the patterns from there (with the slot itself, in
	 * BM_TAKEN), the rank's own first (word_rules_own of them, then the
	 * other ranks', kind 2); word_rules_width: the highest bit any of them
	 * sets; word_rules_fit: they fit */
	struct word_rule { unsigned bitmap_base, rank_stride, bg_stride; uint64_t pattern; } word_rules[2][7];
	unsigned word_rules_own[2], nword_rules[2], word_rules_before[2], word_rules_width[2], word_rules_fit[2];
	/* the rank's own ones resolved per (xw, rank * bank groups + bg):
	 * word_rules_own[xw] of them from own_rules + (xw * ranks * bank groups +
	 * that) * 7; own_rules_dir[xw]: xw's */
	struct own_rule { uint64_t pattern; unsigned bitmap; } *own_rules, *own_rules_dir[2];
	/* BM_OWN_BG(d, w, 0, 0), BM_OWN_RANK(d, w, 0), BM_OTHER_RANKS(d, w, 0) */
	unsigned bm_bg_base[2], bm_rank_base[2], bm_other_base[2];
	uint64_t ring_keep;    /* slots the ring keeps behind latest_asked */
	uint64_t act_window;   /* max(tRRD_S, tRRD_L, tFAW) */
	int no_cap;            /* --ddr-fair: a light source's read: no cap */
	int refresh_moved;     /* bus_find moved a command out of a refresh */
	/* per source: the read the ingress holds (resv_admit), from tick `since` (0: none) */
	struct held_read { uint64_t since, line; } held[MEMSYS_MAX_HARTS];
	struct resv_chan *chans;
	struct ddr_stats stats;
};

/* A scheduling loop that does not settle: an internal error. */
static void stuck(const char *where)
{
	fprintf(stderr, "ddr: internal error: %s does not settle\n", where);
	abort();
}

/* Resolve the configuration into d: the devices, then the bus's rules; 0
 * or -1 + err. */
static int resolve(const struct memsys_cfg *c, struct resv *d, char *err, size_t errlen)
{
	if (ddr_config_resolve(c, &d->cfg, err, errlen))
		return -1;
	d->rule_span = 1;
	bus_rules_init(d);
	d->act_window = max64(max64(d->cfg.t[T_RRD_S], d->cfg.t[T_RRD_L]), d->cfg.t[T_FAW]);
	/* the ring looks 256 cycles back from the latest slot asked for (requests
	 * come out of time order by far less); with --ddr-fair 4096, so that a
	 * light source's read can go before the bursts booked that far ahead */
	d->ring_keep = CYC2T(d->cfg.fair_kept ? 4096 : 256) / d->cfg.burst + d->rule_span;
	return 0;
}

static void resv_destroy(void *st)
{
	struct resv *d = st;
	if (!d)
		return;
	if (d->chans)
		for (unsigned i = 0; i < d->cfg.channels; i++) {
			struct resv_chan *ch = &d->chans[i];
			free(ch->slots);
			free(ch->forbidden);
			free(ch->rq_free.times);
			free(ch->rq_kept.times);
			for (unsigned k = 0; ch->src_rq && k < MEMSYS_MAX_HARTS; k++)
				free(ch->src_rq[k].times);
			free(ch->src_rq);
			free(ch->wq_free.times);
			free(ch->pending);
			free(ch->drain_group);
			free(ch->banks);
			free(ch->ranks);
		}
	free(d->chans);
	ddr_config_free(&d->cfg);
	free(d->own_rules);
	free(d);
}

static void *resv_create(const struct memsys_cfg *cfg, char *err, size_t errlen)
{
	struct resv *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	if (resolve(cfg, d, err, errlen)) {
		free(d);
		return NULL;
	}
	d->chans = calloc(d->cfg.channels, sizeof *d->chans);
	if (!d->chans)
		goto oom;
	size_t nbk = (size_t)d->cfg.ranks * d->cfg.bank_groups * d->cfg.banks_per_group;
	for (unsigned i = 0; i < d->cfg.channels; i++) {
		struct resv_chan *ch = &d->chans[i];
		ch->ring_mask = 1023;
		ch->slots = calloc(ch->ring_mask + 1, sizeof *ch->slots);
		ch->forbidden = calloc((ch->ring_mask + 1) / 64 * d->bitmaps_per_word, sizeof *ch->forbidden);
		free_times_init(&ch->rq_free, d->cfg.rq_entries - d->cfg.fair_kept);
		free_times_init(&ch->rq_kept, d->cfg.fair_kept ? d->cfg.fair_kept : 1);
		free_times_init(&ch->wq_free, d->cfg.wq_entries);
		ch->pending = calloc(d->cfg.wq_entries, sizeof *ch->pending);
		ch->drain_group = calloc(d->cfg.wq_entries, sizeof *ch->drain_group);
		ch->banks = calloc(nbk, sizeof *ch->banks);
		ch->ranks = calloc(d->cfg.ranks, sizeof *ch->ranks);
		if (!ch->slots || !ch->forbidden || !ch->rq_free.times || !ch->rq_kept.times || !ch->wq_free.times ||
		    !ch->pending || !ch->drain_group || !ch->banks || !ch->ranks)
			goto oom;
		if (d->cfg.src_rq) {
			if (!(ch->src_rq = calloc(MEMSYS_MAX_HARTS, sizeof *ch->src_rq)))
				goto oom;
			for (unsigned k = 0; k < MEMSYS_MAX_HARTS; k++) {
				free_times_init(&ch->src_rq[k], d->cfg.src_rq);
				if (!ch->src_rq[k].times)
					goto oom;
			}
		}
		for (size_t b = 0; b < nbk; b++)
			ch->banks[b].open_row = ch->banks[b].prev_row = -1;
		for (unsigned r = 0; r < d->cfg.ranks; r++)
			ch->ranks[r].refresh_offset = d->cfg.t[T_REFI] / d->cfg.tck * r / d->cfg.ranks * d->cfg.tck;
	}
	return d;
oom:
	resv_destroy(d);
	snprintf(err, errlen, "ddr: out of memory");
	return NULL;
}

/* ---- mapping ------------------------------------------------------------------ */

void memmodel_ddr_map(const void *st, uint64_t la, unsigned *ch, unsigned *ra, unsigned *bg, unsigned *ba,
                      uint64_t *row)
{
	struct ddr_loc l;
	ddr_map(&((const struct resv *)st)->cfg, la, &l);
	*ch = l.channel;
	*ra = l.rank;
	*bg = l.bank_group;
	*ba = l.bank_in_group;
	*row = (uint64_t)l.row;
}

/* ---- refresh ------------------------------------------------------------------ */

/* Refresh epoch of t for rank rk: the number of refreshes begun by t (the
 * last answer is cached: time mostly moves forward). */
static uint64_t refresh_epoch(const struct resv *d, const struct resv_rank *rk, uint64_t t)
{
	struct resv_rank *w = (struct resv_rank *)rk;
	if (t - w->epoch_start < d->cfg.t[T_REFI]) /* (t < epoch_start wraps round: no) */
		return w->epoch;
	uint64_t s = rk->refresh_offset + d->cfg.t[T_REFI];
	if (t < s) /* (the cache starts as epoch 0 over [0, tREFI), inside it) */
		return 0;
	w->epoch = (t - s) / d->cfg.t[T_REFI] + 1;
	w->epoch_start = rk->refresh_offset + w->epoch * d->cfg.t[T_REFI];
	return w->epoch;
}

/* The earliest time >= t outside the rank's refresh windows (the last
 * stretch between two windows found is cached). */
static uint64_t past_refresh_slow(const struct resv *d, const struct resv_rank *rk, uint64_t t)
{
	struct resv_rank *w = (struct resv_rank *)rk;
	uint64_t e = refresh_epoch(d, rk, t);
	uint64_t ws = rk->refresh_offset + e * d->cfg.t[T_REFI];
	if (e && t < ws + d->cfg.t[T_RFC])
		return ws + d->cfg.t[T_RFC];
	w->no_refresh_lo = e ? ws + d->cfg.t[T_RFC] : 0;
	w->no_refresh_hi = ws + d->cfg.t[T_REFI];
	return t;
}

static inline uint64_t past_refresh(const struct resv *d, const struct resv_rank *rk, uint64_t t)
{
	if (t - rk->no_refresh_lo < rk->no_refresh_hi - rk->no_refresh_lo) /* (t < no_refresh_lo wraps round: no) */
		return t;
	return past_refresh_slow(d, rk, t);
}

/* ---- the data bus ------------------------------------------------------------- */

/*
 * The data bus of a channel is slotted: slot k carries the burst whose data
 * starts at k * burst (bursts are aligned to the burst length, a whole
 * number of DRAM clocks), so spacing rules that are not a multiple of the
 * burst (tCCD_L of 7 nCK against a 4-nCK burst) round up to whole slots
 * instead of leaving holes shorter than a burst.  The slots are a ring of
 * ring_mask + 1 entries; entry k & ring_mask holds k << 16 | SLOT_TAKEN |
 * direction | rank | bank group while slot k is taken (any other value:
 * free), so slots that fall behind need no clearing.
 */
#define SLOT_TAKEN 0x8000u
#define SLOT_WRITE 0x4000u
#define SLOT_ENTRY(rank, bg, w) (SLOT_TAKEN | ((w) ? SLOT_WRITE : 0u) | (unsigned)(rank) << 6 | (unsigned)(bg))
#define NO_SLOT UINT64_MAX

/* The bitmaps of a ring word, for a burst of direction w to rank r, bank
 * group g: the slots its own bank group's rules forbid, then its rank's
 * (another bank group's rules), then the other ranks' (never set with one
 * rank; see forbid_around), then the slots taken. */
#define BM_OWN_BG(d, w, r, g) (((w) * (d)->cfg.ranks + (r)) * (d)->cfg.bank_groups + (g))
#define BM_OWN_RANK(d, w, r) (2 * (d)->cfg.ranks * (d)->cfg.bank_groups + (w) * (d)->cfg.ranks + (r))
#define BM_OTHER_RANKS(d, w, r) \
	(2 * (d)->cfg.ranks * (d)->cfg.bank_groups + 2 * (d)->cfg.ranks + (w) * (d)->cfg.ranks + (r))
#define BM_TAKEN(d) BM_OTHER_RANKS(d, 2, 0) /* every slot taken */

/* Whole slots from a burst (direction xw) to the next one (w) of the same
 * or another rank and bank group, from the timings. */
static void bus_rules_init(struct resv *d)
{
	const struct ddr_config *c = &d->cfg;
	for (int xw = 0; xw < 2; xw++)
		for (int w = 0; w < 2; w++)
			for (int sr = 0; sr < 2; sr++)     /* same rank */
				for (int sb = 0; sb < 2; sb++) { /* same bank group */
					uint64_t g;
					if (xw == w)
						g = !sr ? c->burst + c->t[T_RTRS] : max64(c->burst, sb ? c->t[T_CCD_L] : c->t[T_CCD_S]);
					else if (!xw)                /* read -> write */
						g = c->burst + c->t[T_RTW];
					else if (!sr)                /* write -> read, other rank */
						g = c->burst + c->t[T_RTRS];
					else
						g = c->burst + (sb ? c->t[T_WTR_L] : c->t[T_WTR_S]) + c->t[T_CL];
					unsigned n = (unsigned)((g + c->burst - 1) / c->burst);
					d->gap_slots[xw][w][sr][sb] = n;
					if (n > d->rule_span)
						d->rule_span = n;
				}
	d->bitmaps_per_word = BM_TAKEN(d) + 1;
	for (int xw = 0; xw < 2; xw++) {
		unsigned n = 0;
		for (int w = 0; w < 2; w++) {
			unsigned gb = d->gap_slots[w][xw][1][1] - 1, ga = d->gap_slots[xw][w][1][1] - 1;
			unsigned rb = d->gap_slots[w][xw][1][0] - 1, ra = d->gap_slots[xw][w][1][0] - 1;
			if (gb != rb || ga != ra) /* (else the rank's covers it) */
				d->rules[xw][n++] = (struct bus_rule){ gb, ga, BM_OWN_BG(d, w, 0, 0), c->bank_groups, 1, 0, 0 };
			d->rules[xw][n++] = (struct bus_rule){ rb, ra, BM_OWN_RANK(d, w, 0), 1, 0, 1, 0 };
			if (c->ranks > 1)
				d->rules[xw][n++] = (struct bus_rule){ d->gap_slots[w][xw][0][0] - 1, d->gap_slots[xw][w][0][0] - 1,
				                                       BM_OTHER_RANKS(d, w, 0), 1, 0, 2, 0 };
		}
		unsigned m = 0;
		for (unsigned i = 0; i < n; i++) {
			struct bus_rule *e = &d->rules[xw][i];
			if (!e->before && !e->after)
				continue; /* the slot itself: BM_TAKEN has it */
			if (e->before + e->after < 64)
				e->pattern = ~0ull >> (63 - e->before - e->after);
			d->rules[xw][m++] = *e;
		}
		d->nrules[xw] = m;
		unsigned b = 0, hi = 0, q = 0;
		for (unsigned i = 0; i < m; i++) {
			b = b > d->rules[xw][i].before ? b : d->rules[xw][i].before;
			hi = hi > d->rules[xw][i].after ? hi : d->rules[xw][i].after;
		}
		d->word_rules_before[xw] = b;
		d->word_rules_width[xw] = b + hi;
		d->word_rules_fit[xw] = b + hi < 64;
		if (!d->word_rules_fit[xw])
			continue;
		d->word_rules[xw][q++] = (struct word_rule){ BM_TAKEN(d), 0, 0, 1ull << b };
		for (int k2 = 0; k2 < 2; k2++) { /* own rank's, then the others' */
			for (unsigned i = 0; i < m; i++) {
				const struct bus_rule *e = &d->rules[xw][i];
				if ((e->kind == 2) == k2)
					d->word_rules[xw][q++] = (struct word_rule){ e->bitmap_base, e->rank_stride, e->bg_stride,
					                                             e->pattern << (b - e->before) };
			}
			if (!k2)
				d->word_rules_own[xw] = q;
		}
		d->nword_rules[xw] = q;
	}
	for (int w = 0; w < 2; w++) {
		d->bm_bg_base[w] = BM_OWN_BG(d, w, 0, 0);
		d->bm_rank_base[w] = BM_OWN_RANK(d, w, 0);
		d->bm_other_base[w] = BM_OTHER_RANKS(d, w, 0);
	}
	d->own_rules = calloc((size_t)2 * c->ranks * c->bank_groups * 7, sizeof *d->own_rules);
	if (!d->own_rules)
		abort();
	d->own_rules_dir[0] = d->own_rules;
	d->own_rules_dir[1] = d->own_rules + (size_t)c->ranks * c->bank_groups * 7;
	for (int xw = 0; xw < 2; xw++)
		for (unsigned r = 0; r < c->ranks; r++)
			for (unsigned g = 0; g < c->bank_groups; g++)
				for (unsigned i = 0; d->word_rules_fit[xw] && i < d->word_rules_own[xw]; i++) {
					const struct word_rule *q = &d->word_rules[xw][i];
					d->own_rules[((xw * c->ranks + r) * c->bank_groups + g) * 7 + i] =
						(struct own_rule){ q->pattern, q->bitmap_base + r * q->rank_stride + g * q->bg_stride };
				}
}

/* Set the slots a..b (inclusive) in bitmap i of the ring's bitmaps
 * `forbidden` (nwords words). */
static inline void forbid_range(const struct resv *d, uint64_t *forbidden, uint64_t nwords, unsigned i, uint64_t a,
                                uint64_t b)
{
	uint64_t wa = a >> 6, wb = b >> 6;
	if (wa == wb) {
		forbidden[(wa & (nwords - 1)) * d->bitmaps_per_word + i] |= (~0ull << (a & 63)) & (~0ull >> (63 - (b & 63)));
		return;
	}
	if (wb == wa + 1) {
		forbidden[(wa & (nwords - 1)) * d->bitmaps_per_word + i] |= ~0ull << (a & 63);
		forbidden[(wb & (nwords - 1)) * d->bitmaps_per_word + i] |= ~0ull >> (63 - (b & 63));
		return;
	}
	for (;;) {
		uint64_t wi = a >> 6, last = (b >> 6) == wi;
		uint64_t m = (~0ull << (a & 63)) & (last ? ~0ull >> (63 - (b & 63)) : ~0ull);
		forbidden[(wi & (nwords - 1)) * d->bitmaps_per_word + i] |= m;
		if (last)
			return;
		a = (wi + 1) << 6;
	}
}

/*
 * Slot x taken by a burst (rank, bank group, direction xw): for each
 * direction w, the slots a burst of w may no longer take, per spacing
 * rule: within gap_slots[w][xw] before x (its own burst would be too close
 * to x's) or gap_slots[xw][w] after it.  A burst of (rank, bg) looks at
 * BM_OWN_BG(w, rank, bg) (its bank group's rule), BM_OWN_RANK(w, rank)
 * (another bank group's: it covers the bank group's own bursts too,
 * harmlessly, as tCCD_L >= tCCD_S and tWTR_L >= tWTR_S make a bank group's
 * own spacing the larger) and BM_OTHER_RANKS(w, rank) (another rank's),
 * and so sees every committed burst's rules at once; BM_TAKEN has the slot
 * itself (a rule of one slot marks nothing more).  rank_bg: the burst's
 * (rank, bank group) as one number.
 */
ALWAYS_INLINE void forbid_around(const struct resv *d, uint64_t *forbidden, uint64_t nwords, uint64_t x, unsigned rank,
                                 unsigned rank_bg, int xw)
{
	if (d->word_rules_fit[xw] && x >= d->word_rules_before[xw]) { /* every pattern from one slot a */
		uint64_t a = x - d->word_rules_before[xw], sh = a & 63;
		uint64_t *p0 = forbidden + ((a >> 6) & (nwords - 1)) * d->bitmaps_per_word;
		uint64_t *p1 = forbidden + (((a >> 6) + 1) & (nwords - 1)) * d->bitmaps_per_word;
		const struct word_rule *q = d->word_rules[xw];
		const struct own_rule *e = d->own_rules_dir[xw] + rank_bg * 7;
		unsigned n = d->word_rules_own[xw], nq = d->nword_rules[xw];
		if (sh + d->word_rules_width[xw] < 64) { /* within one word */
			for (unsigned i = 0; i < n; i++)
				p0[e[i].bitmap] |= e[i].pattern << sh;
			for (unsigned i = n; i < nq; i++)
				for (unsigned r = 0; r < d->cfg.ranks; r++)
					if (r != rank)
						p0[q[i].bitmap_base + r] |= q[i].pattern << sh;
		} else {
			for (unsigned i = 0; i < n; i++) {
				p0[e[i].bitmap] |= e[i].pattern << sh;
				p1[e[i].bitmap] |= e[i].pattern >> 1 >> (63 - sh);
			}
			for (unsigned i = n; i < nq; i++)
				for (unsigned r = 0; r < d->cfg.ranks; r++)
					if (r != rank) {
						p0[q[i].bitmap_base + r] |= q[i].pattern << sh;
						p1[q[i].bitmap_base + r] |= q[i].pattern >> 1 >> (63 - sh);
					}
		}
		return;
	}
	forbidden[((x >> 6) & (nwords - 1)) * d->bitmaps_per_word + BM_TAKEN(d)] |= 1ull << (x & 63);
	for (unsigned i = 0; i < d->nrules[xw]; i++) {
		const struct bus_rule *e = &d->rules[xw][i];
		if (e->kind == 2) { /* another rank's spacing, whatever the bank group */
			for (unsigned r = 0; r < d->cfg.ranks; r++)
				if (r != rank)
					forbid_range(d, forbidden, nwords, e->bitmap_base + r, x > e->before ? x - e->before : 0,
					             x + e->after);
			continue;
		}
		unsigned bitmap = e->bitmap_base + (e->kind == 0 ? rank_bg : rank); /* (BM_OWN_BG or BM_OWN_RANK) */
		if (e->pattern && x >= e->before) { /* the pattern, across at most two words */
			uint64_t a = x - e->before, sh = a & 63;
			forbidden[((a >> 6) & (nwords - 1)) * d->bitmaps_per_word + bitmap] |= e->pattern << sh;
			if (sh + e->before + e->after > 63)
				forbidden[(((a >> 6) + 1) & (nwords - 1)) * d->bitmaps_per_word + bitmap] |=
					e->pattern >> 1 >> (63 - sh);
		} else
			forbid_range(d, forbidden, nwords, bitmap, x > e->before ? x - e->before : 0, x + e->after);
	}
}

/* Move lowest_kept up to latest_asked - ring_keep, clearing the bitmap
 * words left wholly behind it; then make the ring hold every slot from
 * lowest_kept to k + rule_span (and a word more, so that a word is cleared
 * before its entries come round again). */
static void ring_fit(const struct resv *d, struct resv_chan *ch, uint64_t k)
{
	uint64_t low = ch->latest_asked > d->ring_keep ? ch->latest_asked - d->ring_keep : 0;
	uint64_t nwords = (ch->ring_mask + 1) / 64, word_size = d->bitmaps_per_word * sizeof *ch->forbidden;
	if (low >> 6 > ch->lowest_kept >> 6) {
		if ((low >> 6) - (ch->lowest_kept >> 6) >= nwords)
			memset(ch->forbidden, 0, nwords * word_size);
		else
			for (uint64_t w = ch->lowest_kept >> 6; w < low >> 6; w++)
				memset(ch->forbidden + (w & (nwords - 1)) * d->bitmaps_per_word, 0, word_size);
	}
	if (low > ch->lowest_kept)
		ch->lowest_kept = low;
	while (k + d->rule_span + 64 > ch->lowest_kept + ch->ring_mask) {
		uint64_t n = ch->ring_mask + 1;
		uint64_t *slots = calloc(2 * n, sizeof *slots);
		uint64_t *forbidden = calloc(2 * n / 64 * d->bitmaps_per_word, sizeof *forbidden);
		if (!slots || !forbidden)
			abort();
		for (uint64_t j = 0; j < n; j++) /* the slots still looked at */
			if (ch->slots[j] & SLOT_TAKEN && ch->slots[j] >> 16 >= ch->lowest_kept) {
				uint64_t x = ch->slots[j] >> 16;
				unsigned v = (unsigned)(ch->slots[j] & 0xffff), rank = v >> 6 & 15;
				slots[x & (2 * n - 1)] = ch->slots[j];
				forbid_around(d, forbidden, 2 * n / 64, x, rank, rank * d->cfg.bank_groups + (v & 63),
				              !!(v & SLOT_WRITE));
			}
		free(ch->slots);
		free(ch->forbidden);
		ch->slots = slots;
		ch->forbidden = forbidden;
		ch->ring_mask = 2 * n - 1;
		nwords = 2 * n / 64;
	}
}

/*
 * The earliest slot for a burst (rank, bg, w) whose column command may issue
 * at c0 or later (lat: command to data) and at most at cmax: every spacing
 * rule holds against the bursts within d->rule_span slots either side, the
 * column command lies outside the rank's refresh windows, a read overtakes
 * at most ddr-cap committed slots, a write goes behind everything committed
 * (a drain is one batch).  NO_SLOT if none by cmax.  Does not commit.
 */
ALWAYS_INLINE uint64_t bus_find(struct resv *d, struct resv_chan *ch, const struct resv_rank *rk,
                                const struct ddr_loc *l, int w, uint64_t c0, uint64_t lat, uint64_t cmax)
{
	uint64_t k = (c0 + lat + d->cfg.burst - 1) / d->cfg.burst;
	/* the ring holds the slots from latest_asked - 256 cycles on (requests
	 * come out of time order by far less): nothing older is looked at */
	if (k > ch->latest_asked) {
		ch->latest_asked = k;
		/* (ring_fit's work, when there is any) */
		uint64_t low = k > d->ring_keep ? k - d->ring_keep : 0;
		if (low >> 6 > ch->lowest_kept >> 6 || k + d->rule_span + 64 > max64(low, ch->lowest_kept) + ch->ring_mask)
			ring_fit(d, ch, k);
		else if (low > ch->lowest_kept)
			ch->lowest_kept = low;
	}
	uint64_t end = ch->bus_end_slot, cap = d->cfg.starve_cap;
	uint64_t lo = w ? end : end > cap && !d->no_cap ? end - cap : 0;
	uint64_t ks = d->ring_keep - d->rule_span;
	lo = max64(lo, ch->latest_asked > ks ? ch->latest_asked - ks : 0);
	if (k < lo)
		k = lo;
	/* the slots this burst may not take: its bank group's, its rank's and
	 * the other ranks' rules, and the slots taken */
	unsigned bm_bg = d->bm_bg_base[w] + l->rank_bg, bm_rank = d->bm_rank_base[w] + l->rank;
	unsigned bm_other = d->bm_other_base[w] + l->rank, bm_taken = d->bitmaps_per_word - 1;
	/* each step moves k forward; a full ring of steps is a bug */
	for (uint64_t step = 0;; step++) {
		if (step > 4 * (ch->ring_mask + 1) + 1000)
			stuck("bus_find");
		uint64_t c = k * d->cfg.burst - lat;
		if (c > cmax)
			return NO_SLOT;
		uint64_t cp = past_refresh(d, rk, c);
		if (cp != c) {
			k = (cp + lat + d->cfg.burst - 1) / d->cfg.burst;
			d->refresh_moved = 1;
			continue;
		}
		if (k + d->rule_span + 64 > ch->lowest_kept + ch->ring_mask)
			ring_fit(d, ch, k);
		const uint64_t *p = ch->forbidden + ((k >> 6) & (ch->ring_mask >> 6)) * d->bitmaps_per_word;
		uint64_t word = (p[bm_bg] | p[bm_rank] | p[bm_other] | p[bm_taken]) >> (k & 63);
		if (!(word & 1))
			return k;
		/* on to the next slot it may take */
		k += ~word ? (uint64_t)__builtin_ctzll(~word) : 64;
	}
}

/* Commit slot k; returns the data start. */
ALWAYS_INLINE uint64_t bus_take(struct resv *d, struct resv_chan *ch, uint64_t k, const struct ddr_loc *l, int w)
{
	ch->slots[k & ch->ring_mask] = k << 16 | SLOT_ENTRY(l->rank, l->bank_group, w);
	forbid_around(d, ch->forbidden, (ch->ring_mask + 1) / 64, k, l->rank, l->rank_bg, w);
	if (k + 1 > ch->bus_end_slot)
		ch->bus_end_slot = k + 1;
	uint64_t s = k * d->cfg.burst;
	d->stats.busy_t += d->cfg.burst;
	if (s + d->cfg.burst > d->stats.last_t)
		d->stats.last_t = s + d->cfg.burst;
	return s;
}

/* ---- one transfer: bank commands and the data burst -------------------------- */

/* The earliest activate at or after a (bank group bg) that the rank's
 * activate i allows (act, act_bg: the rank's n activates from its head):
 * tRRD_S/L from it on either side, and not a fifth activate in one tFAW
 * window with act[i..i+3].  a itself when neither binds. */
ALWAYS_INLINE uint64_t act_rule(const struct resv *d, const uint64_t *act, const uint16_t *act_bg, unsigned n,
                                unsigned i, unsigned bg, uint64_t a)
{
	uint64_t x = act[i], rrd = act_bg[i] == bg ? d->cfg.t[T_RRD_L] : d->cfg.t[T_RRD_S];
	if (a < x + rrd && x < a + rrd)
		a = x + rrd;
	if (i + 3 < n && max64(a, act[i + 3]) - (a < x ? a : x) < d->cfg.t[T_FAW] && a + d->cfg.t[T_FAW] > x)
		a = x + d->cfg.t[T_FAW];
	return a;
}

/* The earliest activate at or after a for bank group bg of rank rk: tRRD_S/L
 * from every committed activate on either side, at most four in any tFAW. */
ALWAYS_INLINE uint64_t act_slot(const struct resv *d, const struct resv_rank *rk, unsigned bg, uint64_t a)
{
	/* every pass that moves a moves it past one more activate: at most
	 * nacts + 1 passes (more is a bug: stop rather than spin) */
	const uint64_t *act = rk->acts + rk->acts_head;
	const uint16_t *act_bg = rk->acts_bg + rk->acts_head;
	unsigned n = rk->nacts;
	if (!n || act[n - 1] + d->act_window <= a)
		return a; /* (sorted: the latest lies a window or more behind) */
	/* (sorted: activates a window or more behind do not bind, nor later,
	 * as a only moves forward) */
	unsigned first = n - 1;
	while (first && act[first - 1] + d->act_window > a)
		first--;
	unsigned pass = 0;
	for (int moved = 1; moved; pass++) {
		if (pass > n + 1)
			stuck("act_slot");
		moved = 0;
		for (unsigned i = first; i < n; i++) {
			uint64_t x = act[i];
			if (x + d->act_window <= a)
				continue;
			if (x >= a + d->act_window)
				break;
			uint64_t b = act_rule(d, act, act_bg, n, i, bg, a);
			if (b != a) {
				a = b;
				moved = 1;
			}
		}
	}
	return a;
}

/* act_slot(d, rk, bg, a) == a: its first pass, stopping where a would move. */
ALWAYS_INLINE int act_free(const struct resv *d, const struct resv_rank *rk, unsigned bg, uint64_t a)
{
	const uint64_t *act = rk->acts + rk->acts_head;
	const uint16_t *act_bg = rk->acts_bg + rk->acts_head;
	unsigned n = rk->nacts;
	/* (a does not move: any order; from the latest back to the first a
	 * window or more behind) */
	for (unsigned i = n; i--;) {
		uint64_t x = act[i];
		if (x + d->act_window <= a)
			break;
		if (x >= a + d->act_window)
			continue;
		if (act_rule(d, act, act_bg, n, i, bg, a) != a)
			return 0;
	}
	return 1;
}

ALWAYS_INLINE void act_commit(const struct resv *d, struct resv_rank *rk, unsigned bg, uint64_t a, uint64_t te)
{
	/* forget activates that cannot constrain one at te or later (with a
	 * margin for requests that come slightly out of time order) */
	uint64_t old = te > d->cfg.t[T_FAW] + CYC2T(32) ? te - d->cfg.t[T_FAW] - CYC2T(32) : 0;
	unsigned n = rk->nacts;
	while (n && rk->acts[rk->acts_head] < old) { /* (the head moves; no copying) */
		rk->acts_head++;
		n--;
	}
	if (n == ACT_HISTORY) { /* forget the oldest */
		rk->acts_head++;
		n--;
	}
	if (rk->acts_head + n == 2 * ACT_HISTORY) { /* no room after: back to the start */
		memmove(rk->acts, rk->acts + rk->acts_head, n * sizeof rk->acts[0]);
		memmove(rk->acts_bg, rk->acts_bg + rk->acts_head, n * sizeof rk->acts_bg[0]);
		rk->acts_head = 0;
	}
	uint64_t *act = rk->acts + rk->acts_head;
	uint16_t *abg = rk->acts_bg + rk->acts_head;
	unsigned i = n;
	while (i > 0 && act[i - 1] > a) {
		act[i] = act[i - 1];
		abg[i] = abg[i - 1];
		i--;
	}
	act[i] = a;
	abg[i] = (uint16_t)bg;
	rk->nacts = n + 1;
}

/* The earliest activate at or after a outside the refresh windows. */
ALWAYS_INLINE uint64_t act_find(struct resv *d, const struct resv_rank *rk, unsigned bg, uint64_t a)
{
	a = act_slot(d, rk, bg, a);
	for (uint64_t ap; (ap = past_refresh(d, rk, a)) != a; d->refresh_moved = 1)
		a = act_slot(d, rk, bg, ap);
	return a;
}

/* What a request finds in its bank. */
enum row_outcome { ROW_HIT, ROW_EMPTY, ROW_CONFLICT };

static void count_row(struct resv *d, enum row_outcome kind)
{
	if (kind == ROW_HIT)
		d->stats.hits++;
	else if (kind == ROW_EMPTY)
		d->stats.empties++;
	else
		d->stats.conflicts++;
}

/*
 * Schedule a transfer that may start at te; returns the data start and sets
 * *colp to the column command.  Reads first, row hits first, within a bank
 * as far as nothing committed has to move:
 *  - a request to the row the bank had open before its last committed
 *    precharge goes in before that precharge when its column command (and
 *    tRTP, or the write data and tWR) fits by then: a younger row hit
 *    overtakes the older request that closes the row;
 *  - a hit to the open row needs only tRCD from its activate (it may go on
 *    the bus before older hits of the same row);
 *  - an activate (and the precharge before it) is issued as late as the
 *    data slot allows, so the row it replaces stays open for the requests
 *    that still hit it (a drained write's activate waits for its slot
 *    behind the reads already committed).
 */
ALWAYS_INLINE uint64_t transfer(struct resv *d, const struct ddr_loc *l, int w, uint64_t te, int keep,
                                uint64_t *colp)
{
	struct resv_chan *ch = &d->chans[l->channel];
	struct resv_rank *rk = &ch->ranks[l->rank];
	struct resv_bank *b = &ch->banks[l->bank];
	uint64_t lat = w ? d->cfg.t[T_CWL] : d->cfg.t[T_CL], k;
	d->refresh_moved = 0;
	if (b->prev_row == l->row && b->prev_pre_at > te && refresh_epoch(d, rk, te) == b->prev_epoch) {
		uint64_t need = w ? d->cfg.t[T_CWL] + d->cfg.burst + d->cfg.t[T_WR] : d->cfg.t[T_RTP];
		if (b->prev_pre_at >= need + max64(te, b->prev_act_at + d->cfg.t[T_RCD])) {
			k = bus_find(d, ch, rk, l, w, max64(te, b->prev_act_at + d->cfg.t[T_RCD]), lat,
			             b->prev_pre_at - need);
			if (k != NO_SLOT && refresh_epoch(d, rk, k * d->cfg.burst - lat) == b->prev_epoch) {
				uint64_t s = bus_take(d, ch, k, l, w);
				count_row(d, ROW_HIT);
				if (d->refresh_moved)
					d->stats.ref_stalls++;
				*colp = s - lat;
				return s;
			}
		}
	}
	d->refresh_moved = 0;
	enum row_outcome kind;
	uint64_t c0, a0 = 0, row_epoch; /* column command, activate; the refresh epoch of the row it uses */
	if (b->open_row == l->row && refresh_epoch(d, rk, max64(te, b->act_at)) == b->open_epoch) {
		kind = ROW_HIT;
		c0 = max64(te, b->act_at + d->cfg.t[T_RCD]);
		row_epoch = b->open_epoch;
	} else {
		uint64_t from = max64(te, b->earliest_pre);
		kind = b->open_row >= 0 && refresh_epoch(d, rk, from) == b->open_epoch ? ROW_CONFLICT : ROW_EMPTY;
		if (kind == ROW_CONFLICT) {
			uint64_t p = past_refresh(d, rk, from);
			if (refresh_epoch(d, rk, p) != b->open_epoch) {
				kind = ROW_EMPTY; /* a refresh closed it first */
				from = p;
			} else {
				from = p + d->cfg.t[T_RP];
			}
		}
		a0 = act_find(d, rk, l->bank_group, max64(from, b->earliest_act));
		c0 = a0 + d->cfg.t[T_RCD];
		row_epoch = refresh_epoch(d, rk, a0);
	}
	k = bus_find(d, ch, rk, l, w, c0, lat, NO_SLOT);
	uint64_t c = k * d->cfg.burst - lat;
	if (refresh_epoch(d, rk, c) != row_epoch) {
		/* a refresh between the activate (or the row's) and the column
		 * command would have closed the row: activate behind it (rare) */
		uint64_t refresh_start = rk->refresh_offset + refresh_epoch(d, rk, c) * d->cfg.t[T_REFI];
		a0 = act_find(d, rk, l->bank_group, max64(refresh_start, b->earliest_act));
		kind = ROW_EMPTY;
		row_epoch = refresh_epoch(d, rk, a0);
		k = bus_find(d, ch, rk, l, w, a0 + d->cfg.t[T_RCD], lat, NO_SLOT);
		c = k * d->cfg.burst - lat;
		d->refresh_moved = 1;
	}
	uint64_t s = bus_take(d, ch, k, l, w);
	if (d->refresh_moved)
		d->stats.ref_stalls++;
	count_row(d, kind);
	if (kind != ROW_HIT) {
		/* as late as the slot allows, if every rule holds there */
		uint64_t a = a0, aj = c - d->cfg.t[T_RCD];
		if (aj > a0 && refresh_epoch(d, rk, aj) == row_epoch && act_free(d, rk, l->bank_group, aj) &&
		    past_refresh(d, rk, aj) == aj &&
		    (kind == ROW_EMPTY || past_refresh(d, rk, aj - d->cfg.t[T_RP]) == aj - d->cfg.t[T_RP]))
			a = aj;
		if (kind == ROW_CONFLICT && !d->cfg.closed_page) { /* the row it closes, for later hits */
			b->prev_row = b->open_row;
			b->prev_epoch = b->open_epoch;
			b->prev_act_at = b->act_at;
			b->prev_pre_at = a - d->cfg.t[T_RP];
		}
		b->act_at = a;
		b->open_row = l->row;
		b->open_epoch = row_epoch;
		b->earliest_act = a + d->cfg.t[T_RC];
		b->earliest_pre = a + d->cfg.t[T_RAS];
		act_commit(d, rk, l->bank_group, a, te);
	}
	b->earliest_pre = max64(b->earliest_pre, w ? s + d->cfg.burst + d->cfg.t[T_WR] : c + d->cfg.t[T_RTP]);
	if (d->cfg.closed_page && !keep) { /* auto-precharge, unless a queued request hits */
		b->open_row = -1;
		b->earliest_act = max64(b->earliest_act, b->earliest_pre + d->cfg.t[T_RP]);
	}
	*colp = c;
	return s;
}

/* (one copy for reads, one for writes: w is a constant in each) */
static uint64_t transfer_rd(struct resv *d, const struct ddr_loc *l, uint64_t te, uint64_t *colp)
{
	return transfer(d, l, 0, te, 0, colp);
}

static uint64_t transfer_wr(struct resv *d, const struct ddr_loc *l, uint64_t te, int keep, uint64_t *colp)
{
	return transfer(d, l, 1, te, keep, colp);
}

/* ---- queues --------------------------------------------------------------------- */

/* A queue of n slot-free times, all 0 (n >= 1). */
static void free_times_init(struct free_times *q, unsigned n)
{
	unsigned sz = 1;
	while (sz < n)
		sz <<= 1;
	q->times = calloc(sz, sizeof *q->times);
	q->mask = sz - 1;
	q->head = 0;
	q->n = n;
}

static uint64_t free_times_first(const struct free_times *q) { return q->times[q->head]; }

static void free_times_pop(struct free_times *q)
{
	q->head = (q->head + 1) & q->mask;
	q->n--;
}

ALWAYS_INLINE void free_times_add(struct free_times *q, uint64_t x)
{
	unsigned i = q->n;
	for (; i && q->times[(q->head + i - 1) & q->mask] > x; i--)
		q->times[(q->head + i) & q->mask] = q->times[(q->head + i - 1) & q->mask];
	q->times[(q->head + i) & q->mask] = x;
	q->n++;
}

#define DRAINED UINT32_MAX

/* Drain pending writes of channel ch at time t down to the low watermark:
 * the oldest, then every other pending write to its row, and again. */
static void drain(struct resv *d, struct resv_chan *ch, uint64_t t)
{
	d->stats.drains++;
	/* a write taken out is marked (bank DRAINED) and the queue closed up
	 * once, at the end */
	unsigned left = ch->npending, first = 0;
	while (left > d->cfg.wq_low) {
		/* the oldest and the writes to its row, out of the queue */
		while (ch->pending[first].loc.bank == DRAINED)
			first++;
		unsigned bank = ch->pending[first].loc.bank, n = 1;
		int64_t row = ch->pending[first].loc.row;
		ch->drain_group[0] = ch->pending[first];
		ch->pending[first].loc.bank = DRAINED;
		ch->pending_per_bucket[ch->drain_group[0].line & (WQ_BUCKETS - 1)]--;
		for (unsigned i = first + 1; i < ch->npending; i++)
			if (ch->pending[i].loc.bank == bank && ch->pending[i].loc.row == row) {
				ch->drain_group[n++] = ch->pending[i];
				ch->pending[i].loc.bank = DRAINED;
				ch->pending_per_bucket[ch->pending[i].line & (WQ_BUCKETS - 1)]--;
			}
		left -= n;
		for (unsigned i = 0; i < n; i++) {
			uint64_t c;
			transfer_wr(d, &ch->drain_group[i].loc, max64(t, ch->drain_group[i].at), i + 1 < n, &c);
			free_times_add(&ch->wq_free, c);
			d->stats.wq_res_t += c - ch->drain_group[i].at;
		}
	}
	unsigned k = 0;
	for (unsigned i = first; i < ch->npending; i++)
		if (ch->pending[i].loc.bank != DRAINED)
			ch->pending[k++] = ch->pending[i];
	ch->npending = k;
}

/* Is line la in the channel's write queue (a read of it is served from there)? */
ALWAYS_INLINE int in_write_queue(const struct resv_chan *ch, uint64_t la)
{
	if (ch->pending_per_bucket[la & (WQ_BUCKETS - 1)])
		for (unsigned i = 0; i < ch->npending; i++)
			if (ch->pending[i].line == la)
				return 1;
	return 0;
}

/* The read-queue entries a read from src arriving at tick t takes.
 * --ddr-fair: a source with no read queued ("light", *light = 1) takes a
 * kept entry when the shared ones are full, so it never waits behind the
 * other sources' bursts to enter. */
ALWAYS_INLINE struct free_times *read_queue_pick(struct resv *d, struct resv_chan *ch, unsigned src, uint64_t t,
                                                 int *light) /* src < MEMSYS_MAX_HARTS */
{
	struct free_times *q = &ch->rq_free;
	*light = 0;
	if (d->cfg.fair_kept && ch->src_last_col[src] <= t) {
		*light = 1;
		if (free_times_first(q) > t && free_times_first(&ch->rq_kept) < free_times_first(q))
			q = &ch->rq_kept;
	}
	return q;
}

/* The earliest tick a read from src arriving at tick t can enter: its
 * queue's (read_queue_pick) first free entry, and with --ddr-src-rq its
 * source's own first free one (*sq; else NULL). */
ALWAYS_INLINE uint64_t read_queue_entry(struct resv *d, struct resv_chan *ch, unsigned src, int pf, uint64_t t,
                                        struct free_times **q, struct free_times **sq, int *light)
{
	*q = read_queue_pick(d, ch, src, t, light);
	*sq = d->cfg.src_rq && !pf ? &ch->src_rq[src] : NULL;
	return *sq ? max64(free_times_first(*q), free_times_first(*sq)) : free_times_first(*q);
}

/* The next clock edge at or after cycle c, in ticks. */
ALWAYS_INLINE uint64_t clock_edge(const struct resv *d, uint64_t c)
{
	return (CYC2T(c) + d->cfg.tck - 1) / d->cfg.tck * d->cfg.tck;
}

/* memmodel.h's admit: a read that finds the read queue full is held at
 * the ingress until an entry frees; the first refusal of a source's read
 * is remembered, so that its entry counts the whole wait (rq_waits). */
static uint64_t resv_admit(void *st, uint64_t la, uint64_t now, unsigned src)
{
	struct resv *d = st;
	struct ddr_loc l;
	ddr_map(&d->cfg, la, &l);
	struct resv_chan *ch = &d->chans[l.channel];
	uint64_t t = clock_edge(d, now);
	int pf = (src & MEMMODEL_PF) != 0;
	src &= MEMSYS_MAX_HARTS - 1;
	int light;
	struct free_times *q, *sq;
	uint64_t te = read_queue_entry(d, ch, src, pf, t, &q, &sq, &light);
	if (te <= t || in_write_queue(ch, la))
		return now;
	if (pf)
		return t2cyc_up(te);
	struct held_read *hd = &d->held[src];
	if (!hd->since || hd->line != la) {
		hd->since = t;
		hd->line = la;
	}
	return t2cyc_up(te);
}

static uint64_t resv_request(void *st, uint64_t la, int w, uint64_t now, unsigned src)
{
	struct resv *d = st;
	struct ddr_loc l;
	ddr_map(&d->cfg, la, &l);
	struct resv_chan *ch = &d->chans[l.channel];
	uint64_t t = clock_edge(d, now);
	if (!d->stats.first_t || t < d->stats.first_t)
		d->stats.first_t = t ? t : 1;
	if (w) {
		d->stats.writes++;
		/* a free slot exists: npending < ddr-wq-hi <= ddr-wq */
		uint64_t te = max64(t, free_times_first(&ch->wq_free));
		if (te > t) {
			d->stats.wq_waits++;
			d->stats.wq_wait_t += te - t;
		}
		free_times_pop(&ch->wq_free);
		ch->pending[ch->npending++] = (struct pending_write){ la, te, l };
		ch->pending_per_bucket[la & (WQ_BUCKETS - 1)]++;
		if (ch->npending >= d->cfg.wq_high)
			drain(d, ch, te);
		return t2cyc_up(te) + 1;
	}
	d->stats.reads++;
	int pf = (src & MEMMODEL_PF) != 0;
	src &= MEMSYS_MAX_HARTS - 1;
	/* a read the ingress held (resv_admit): its wait began there */
	struct held_read *hd = &d->held[src];
	uint64_t arr = t;
	if (!pf && hd->since && hd->line == la) {
		arr = hd->since < t ? hd->since : t;
		hd->since = 0;
	}
	if (in_write_queue(ch, la)) {
		d->stats.fwd++;
		return now + t2cyc_up(d->cfg.frontend) + 1;
	}
	/* a light source's read (--ddr-fair) entered before the reads still
	 * waiting to, so the cap (which counts their committed slots too)
	 * does not hold it back */
	int light;
	struct free_times *q, *sq;
	uint64_t te = max64(t, read_queue_entry(d, ch, src, pf, t, &q, &sq, &light));
	d->no_cap = light;
	if (te > arr) {
		d->stats.rq_waits++;
		d->stats.rq_wait_t += te - arr;
	}
	uint64_t c, s = transfer_rd(d, &l, te, &c);
	free_times_pop(q);
	free_times_add(q, c);
	if (sq) {
		free_times_pop(sq);
		free_times_add(sq, c);
	}
	d->no_cap = 0;
	uint64_t *sc = &ch->src_last_col[src];
	if (d->cfg.fair_kept && c > *sc)
		*sc = c;
	d->stats.rq_res_t += c - te;
	return t2cyc_up(s + d->cfg.burst + d->cfg.frontend);
}

static void resv_stats(const void *st, struct memsys_model_stats *s)
{
	ddr_stats_report(&((const struct resv *)st)->stats, s);
}

static uint64_t resv_peak(const void *st) { return ((const struct resv *)st)->cfg.peak_mbps; }

const struct memmodel_ops memmodel_ddr_resv = {
	"ddr-resv", "the ddr devices behind the earlier reservation scheduler (each request booked when it arrives; the ddr-* keys)",
	NULL, 0, NULL, NULL, /* (the ddr-* keys: memmodel_ddr_config.c, listed in the ddr model's row) */
	resv_create, resv_request, resv_stats, resv_peak, resv_destroy, resv_admit,
};
