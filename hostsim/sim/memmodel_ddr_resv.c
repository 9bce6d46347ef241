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
 *    first (ddr_admit) and the core holds the access until it can enter,
 *    so reads that arrive meanwhile from other harts are not queued behind
 *    reads that could not have been in the queue yet;
 *  - ddr-fair N (0 = off): N read-queue entries are kept for a source (the
 *    requesting hart) with no read queued, which takes one when the shared
 *    ones are full, without the cap, the ring looking 4096 cycles back (see
 *    ddr_request);
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
#define INL static inline __attribute__((always_inline))

struct ddr;
static void bus_need(struct ddr *d);

/* ---- the state ------------------------------------------------------------------ */

struct dbank {
	int64_t row;          /* open row, -1 closed */
	uint64_t row_ep;      /* refresh epoch the row was opened in */
	uint64_t act_t, pre_ok, act_ok;
	int64_t prow;         /* the row open before the last committed precharge, -1 none */
	uint64_t prow_ep, pact, pre_t; /* its epoch, activate, the precharge */
};

struct pwrite { uint64_t la, t; struct ddr_loc l; };

#define NACT 16
struct drank {
	uint64_t act[2 * NACT]; /* committed activates, sorted (may lie ahead): */
	uint16_t act_bg[2 * NACT];
	unsigned a0, nact;    /* act[a0 .. a0 + nact), nact <= NACT */
	uint64_t ref_off;     /* first refresh at ref_off + tREFI */
	uint64_t ep, ep_t;    /* cache: epoch ep begins at ep_t (ep >= 1) */
	uint64_t fr_lo, fr_hi; /* cache: no refresh within [fr_lo, fr_hi) */
};

/* Times at which queue slots free, sorted, the earliest first: a ring
 * (times mostly come in order, so an insertion moves few entries). */
struct fq { uint64_t *v; unsigned mask, head, n; };

static void fq_init(struct fq *q, unsigned n);

#define PBUCKETS 1024
struct dchan {
	uint64_t *slot;       /* the data bus: a ring of slots (see bus_find) */
	uint64_t smask, shi, slast; /* ring size - 1; latest earliest slot asked for; last busy + 1 */
	uint64_t *occ;        /* per word of the ring, d->nbm bitmaps of the slots a burst
	                         may not take (see FB_G; words wholly behind slow cleared) */
	uint64_t slow;        /* shi - keep: no slot below is looked at */
	struct fq rq_free;    /* when each read-queue slot frees (the
	                         ddr-rq - ddr-fair shared ones) */
	struct fq rq_kept;    /* the same for the ddr-fair kept ones */
	struct fq *src_rq;    /* --ddr-src-rq: per source, the same for its entries */
	uint64_t src_col[MEMSYS_MAX_HARTS]; /* per source: its latest read's
	                         column command (none queued from then on) */
	struct fq wq_free;    /* the same for the write-queue slots not held
	                         by a pending write */
	struct pwrite *pend;  /* writes queued, not yet scheduled, oldest first */
	struct pwrite *grp;   /* drain: the writes to one row (scratch) */
	unsigned npend;
	uint16_t pcnt[PBUCKETS]; /* pending writes per bucket la & (PBUCKETS - 1) */
	struct dbank *bk;     /* ranks * bgs * banks */
	struct drank *rk;
};

struct ddr {
	struct ddr_config cfg; /* the devices, queues and address map */
	unsigned span;        /* slots within which one burst constrains another */
	unsigned need[2][2][2][2]; /* slots from a burst (dir) to the next (dir, same rank, same bg) */
	unsigned nbm;         /* bitmaps per ring word (FB_G ...) */
	/* what a burst of direction xw marks (see fb_take): the slots before
	 * and after it, as a bit pattern from slot x - before when it fits a
	 * word (else 0), in bitmap base + rank * rmul + bg * gmul (FB_G, FB_R)
	 * or, kind 2, FB_O of every other rank */
	struct fbe { unsigned before, after, base, rmul, gmul, kind; uint64_t pat; } fbe[2][6];
	unsigned nfbe[2];
	/* the same, when every rule of xw fits one word from slot x - fbb:
	 * the patterns from there (with the slot itself, in FB_T), the rank's
	 * own first (fbn of them, then the other ranks', kind 2); fbw: the
	 * highest bit any of them sets; fbok: they fit */
	struct fbq { unsigned base, rmul, gmul; uint64_t pat; } fbq[2][7];
	unsigned fbn[2], fbnq[2], fbb[2], fbw[2], fbok[2];
	/* the rank's own ones resolved per (xw, rank * bg count + bg): fbn[xw]
	 * of them from fbx + (xw * ranks * bgs + that) * 7 */
	struct fbx { uint64_t pat; unsigned bm; } *fbx, *fbxw[2]; /* fbxw[xw]: xw's */
	unsigned fbg0[2], fbr0[2], fbo0[2]; /* FB_G(d, w, 0, 0), FB_R(d, w, 0), FB_O(d, w, 0) */
	uint64_t keep;        /* slots the ring keeps behind shi */
	uint64_t actwin;      /* max(tRRD_S, tRRD_L, tFAW) */
	uint64_t peak;
	int nocap;            /* --ddr-fair: a light source's read: no cap */
	int refpushed;        /* bus_find moved a command out of a refresh */
	/* per source: the read the ingress holds (ddr_admit), from tick t (0: none) */
	struct held { uint64_t t, la; } held[MEMSYS_MAX_HARTS];
	struct dchan *ch;
	struct ddr_stats st;
};

/* A scheduling loop that does not settle: an internal error. */
static void stuck(const char *where)
{
	fprintf(stderr, "ddr: internal error: %s does not settle\n", where);
	abort();
}

/* Resolve the configuration into d: the devices, then the bus's rules; 0
 * or -1 + err. */
static int resolve(const struct memsys_cfg *c, struct ddr *d, char *err, size_t errlen)
{
	if (ddr_config_resolve(c, &d->cfg, err, errlen))
		return -1;
	d->span = 1;
	bus_need(d);
	d->actwin = max64(max64(d->cfg.t[T_RRD_S], d->cfg.t[T_RRD_L]), d->cfg.t[T_FAW]);
	/* the ring looks 256 cycles back from the latest slot asked for (requests
	 * come out of time order by far less); with --ddr-fair 4096, so that a
	 * light source's read can go before the bursts booked that far ahead */
	d->keep = CYC2T(d->cfg.fair_kept ? 4096 : 256) / d->cfg.burst + d->span;
	return 0;
}


static void ddr_destroy(void *st)
{
	struct ddr *d = st;
	if (!d)
		return;
	if (d->ch)
		for (unsigned i = 0; i < d->cfg.channels; i++) {
			struct dchan *ch = &d->ch[i];
			free(ch->slot);
			free(ch->occ);
			free(ch->rq_free.v);
			free(ch->rq_kept.v);
			for (unsigned k = 0; ch->src_rq && k < MEMSYS_MAX_HARTS; k++)
				free(ch->src_rq[k].v);
			free(ch->src_rq);
			free(ch->wq_free.v);
			free(ch->pend);
			free(ch->grp);
			free(ch->bk);
			free(ch->rk);
		}
	free(d->ch);
	ddr_config_free(&d->cfg);
	free(d->fbx);
	free(d);
}

static void *ddr_create(const struct memsys_cfg *cfg, char *err, size_t errlen)
{
	struct ddr *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	if (resolve(cfg, d, err, errlen)) {
		free(d);
		return NULL;
	}
	d->ch = calloc(d->cfg.channels, sizeof *d->ch);
	if (!d->ch)
		goto oom;
	size_t nbk = (size_t)d->cfg.ranks * d->cfg.bank_groups * d->cfg.banks_per_group;
	for (unsigned i = 0; i < d->cfg.channels; i++) {
		struct dchan *ch = &d->ch[i];
		ch->smask = 1023;
		ch->slot = calloc(ch->smask + 1, sizeof *ch->slot);
		ch->occ = calloc((ch->smask + 1) / 64 * d->nbm, sizeof *ch->occ);
		fq_init(&ch->rq_free, d->cfg.rq_entries - d->cfg.fair_kept);
		fq_init(&ch->rq_kept, d->cfg.fair_kept ? d->cfg.fair_kept : 1);
		fq_init(&ch->wq_free, d->cfg.wq_entries);
		ch->pend = calloc(d->cfg.wq_entries, sizeof *ch->pend);
		ch->grp = calloc(d->cfg.wq_entries, sizeof *ch->grp);
		ch->bk = calloc(nbk, sizeof *ch->bk);
		ch->rk = calloc(d->cfg.ranks, sizeof *ch->rk);
		if (!ch->slot || !ch->occ || !ch->rq_free.v || !ch->rq_kept.v || !ch->wq_free.v || !ch->pend || !ch->grp ||
		    !ch->bk || !ch->rk)
			goto oom;
		if (d->cfg.src_rq) {
			if (!(ch->src_rq = calloc(MEMSYS_MAX_HARTS, sizeof *ch->src_rq)))
				goto oom;
			for (unsigned k = 0; k < MEMSYS_MAX_HARTS; k++) {
				fq_init(&ch->src_rq[k], d->cfg.src_rq);
				if (!ch->src_rq[k].v)
					goto oom;
			}
		}
		for (size_t b = 0; b < nbk; b++)
			ch->bk[b].row = ch->bk[b].prow = -1;
		for (unsigned r = 0; r < d->cfg.ranks; r++)
			ch->rk[r].ref_off = d->cfg.t[T_REFI] / d->cfg.tck * r / d->cfg.ranks * d->cfg.tck;
	}
	return d;
oom:
	ddr_destroy(d);
	snprintf(err, errlen, "ddr: out of memory");
	return NULL;
}

/* ---- mapping ------------------------------------------------------------------ */

void memmodel_ddr_map(const void *st, uint64_t la, unsigned *ch, unsigned *ra, unsigned *bg, unsigned *ba,
                      uint64_t *row)
{
	struct ddr_loc l;
	ddr_map(&((const struct ddr *)st)->cfg, la, &l);
	*ch = l.channel;
	*ra = l.rank;
	*bg = l.bank_group;
	*ba = l.bank_in_group;
	*row = (uint64_t)l.row;
}

/* ---- refresh ------------------------------------------------------------------ */

/* Refresh epoch of t for rank rk: the number of refreshes begun by t (the
 * last answer is cached: time mostly moves forward). */
static uint64_t epoch(const struct ddr *d, const struct drank *rk, uint64_t t)
{
	struct drank *w = (struct drank *)rk;
	if (t - w->ep_t < d->cfg.t[T_REFI]) /* (t < ep_t wraps round: no) */
		return w->ep;
	uint64_t s = rk->ref_off + d->cfg.t[T_REFI];
	if (t < s) /* (the cache starts as epoch 0 over [0, tREFI), inside it) */
		return 0;
	w->ep = (t - s) / d->cfg.t[T_REFI] + 1;
	w->ep_t = rk->ref_off + w->ep * d->cfg.t[T_REFI];
	return w->ep;
}

/* The earliest time >= t outside the rank's refresh windows (the last
 * stretch between two windows found is cached). */
static uint64_t ref_push_slow(const struct ddr *d, const struct drank *rk, uint64_t t)
{
	struct drank *w = (struct drank *)rk;
	uint64_t e = epoch(d, rk, t);
	uint64_t ws = rk->ref_off + e * d->cfg.t[T_REFI];
	if (e && t < ws + d->cfg.t[T_RFC])
		return ws + d->cfg.t[T_RFC];
	w->fr_lo = e ? ws + d->cfg.t[T_RFC] : 0;
	w->fr_hi = ws + d->cfg.t[T_REFI];
	return t;
}

static inline uint64_t ref_push(const struct ddr *d, const struct drank *rk, uint64_t t)
{
	if (t - rk->fr_lo < rk->fr_hi - rk->fr_lo) /* (t < fr_lo wraps round: no) */
		return t;
	return ref_push_slow(d, rk, t);
}

/* ---- the data bus ------------------------------------------------------------- */

/*
 * The data bus of a channel is slotted: slot k carries the burst whose data
 * starts at k * burst (bursts are aligned to the burst length, a whole
 * number of DRAM clocks), so spacing rules that are not a multiple of the
 * burst (tCCD_L of 7 nCK against a 4-nCK burst) round up to whole slots
 * instead of leaving holes shorter than a burst.  The slots are a ring of
 * smask + 1 entries; entry k & smask holds k << 16 | SL_BUSY | direction |
 * rank | bank group while slot k is taken (any other value: free), so
 * slots that fall behind need no clearing.
 */
#define SL_BUSY 0x8000u
#define SL_W 0x4000u
#define SL(rank, bg, w) (SL_BUSY | ((w) ? SL_W : 0u) | (unsigned)(rank) << 6 | (unsigned)(bg))
#define NOSLOT UINT64_MAX

/* The bitmaps of a ring word: per direction, rank and bank group, then per
 * direction and rank, then per direction and rank for the other ranks'
 * bursts (never set with one rank; see fb_take), then the slots taken. */
#define FB_G(d, w, r, g) (((w) * (d)->cfg.ranks + (r)) * (d)->cfg.bank_groups + (g))
#define FB_R(d, w, r) (2 * (d)->cfg.ranks * (d)->cfg.bank_groups + (w) * (d)->cfg.ranks + (r))
#define FB_O(d, w, r) (2 * (d)->cfg.ranks * (d)->cfg.bank_groups + 2 * (d)->cfg.ranks + (w) * (d)->cfg.ranks + (r))
#define FB_T(d) FB_O(d, 2, 0) /* every slot taken */

/* Whole slots from a burst (direction xw) to the next one (w) of the same
 * or another rank and bank group, from the timings. */
static void bus_need(struct ddr *d)
{
	for (int xw = 0; xw < 2; xw++)
		for (int w = 0; w < 2; w++)
			for (int sr = 0; sr < 2; sr++)
				for (int sb = 0; sb < 2; sb++) {
					uint64_t g;
					if (xw == w)
						g = !sr ? d->cfg.burst + d->cfg.t[T_RTRS] : max64(d->cfg.burst, sb ? d->cfg.t[T_CCD_L] : d->cfg.t[T_CCD_S]);
					else if (!xw)                /* read -> write */
						g = d->cfg.burst + d->cfg.t[T_RTW];
					else if (!sr)                /* write -> read, other rank */
						g = d->cfg.burst + d->cfg.t[T_RTRS];
					else
						g = d->cfg.burst + (sb ? d->cfg.t[T_WTR_L] : d->cfg.t[T_WTR_S]) + d->cfg.t[T_CL];
					unsigned n = (unsigned)((g + d->cfg.burst - 1) / d->cfg.burst);
					d->need[xw][w][sr][sb] = n;
					if (n > d->span)
						d->span = n;
				}
	d->nbm = FB_T(d) + 1;
	for (int xw = 0; xw < 2; xw++) {
		unsigned n = 0;
		for (int w = 0; w < 2; w++) {
			unsigned gb = d->need[w][xw][1][1] - 1, ga = d->need[xw][w][1][1] - 1;
			unsigned rb = d->need[w][xw][1][0] - 1, ra = d->need[xw][w][1][0] - 1;
			if (gb != rb || ga != ra) /* (else the rank's covers it) */
				d->fbe[xw][n++] = (struct fbe){ gb, ga, FB_G(d, w, 0, 0), d->cfg.bank_groups, 1, 0, 0 };
			d->fbe[xw][n++] = (struct fbe){ rb, ra, FB_R(d, w, 0), 1, 0, 1, 0 };
			if (d->cfg.ranks > 1)
				d->fbe[xw][n++] = (struct fbe){ d->need[w][xw][0][0] - 1, d->need[xw][w][0][0] - 1,
				                                FB_O(d, w, 0), 1, 0, 2, 0 };
		}
		unsigned m = 0;
		for (unsigned i = 0; i < n; i++) {
			struct fbe *e = &d->fbe[xw][i];
			if (!e->before && !e->after)
				continue; /* the slot itself: FB_T has it */
			if (e->before + e->after < 64)
				e->pat = ~0ull >> (63 - e->before - e->after);
			d->fbe[xw][m++] = *e;
		}
		d->nfbe[xw] = m;
		unsigned b = 0, hi = 0, q = 0;
		for (unsigned i = 0; i < m; i++) {
			b = b > d->fbe[xw][i].before ? b : d->fbe[xw][i].before;
			hi = hi > d->fbe[xw][i].after ? hi : d->fbe[xw][i].after;
		}
		d->fbb[xw] = b;
		d->fbw[xw] = b + hi;
		d->fbok[xw] = b + hi < 64;
		if (!d->fbok[xw])
			continue;
		d->fbq[xw][q++] = (struct fbq){ FB_T(d), 0, 0, 1ull << b };
		for (int k2 = 0; k2 < 2; k2++) { /* own rank's, then the others' */
			for (unsigned i = 0; i < m; i++) {
				const struct fbe *e = &d->fbe[xw][i];
				if ((e->kind == 2) == k2)
					d->fbq[xw][q++] = (struct fbq){ e->base, e->rmul, e->gmul, e->pat << (b - e->before) };
			}
			if (!k2)
				d->fbn[xw] = q;
		}
		d->fbnq[xw] = q;
	}
	for (int w = 0; w < 2; w++) {
		d->fbg0[w] = FB_G(d, w, 0, 0);
		d->fbr0[w] = FB_R(d, w, 0);
		d->fbo0[w] = FB_O(d, w, 0);
	}
	d->fbx = calloc((size_t)2 * d->cfg.ranks * d->cfg.bank_groups * 7, sizeof *d->fbx);
	if (!d->fbx)
		abort();
	d->fbxw[0] = d->fbx;
	d->fbxw[1] = d->fbx + (size_t)d->cfg.ranks * d->cfg.bank_groups * 7;
	for (int xw = 0; xw < 2; xw++)
		for (unsigned r = 0; r < d->cfg.ranks; r++)
			for (unsigned g = 0; g < d->cfg.bank_groups; g++)
				for (unsigned i = 0; d->fbok[xw] && i < d->fbn[xw]; i++) {
					const struct fbq *q = &d->fbq[xw][i];
					d->fbx[((xw * d->cfg.ranks + r) * d->cfg.bank_groups + g) * 7 + i] =
						(struct fbx){ q->pat, q->base + r * q->rmul + g * q->gmul };
				}
}

/* Set the slots a..b (inclusive) in bitmap i of the ring occ (nw words). */
static inline void fb_set(const struct ddr *d, uint64_t *occ, uint64_t nw, unsigned i, uint64_t a, uint64_t b)
{
	uint64_t wa = a >> 6, wb = b >> 6;
	if (wa == wb) {
		occ[(wa & (nw - 1)) * d->nbm + i] |= (~0ull << (a & 63)) & (~0ull >> (63 - (b & 63)));
		return;
	}
	if (wb == wa + 1) {
		occ[(wa & (nw - 1)) * d->nbm + i] |= ~0ull << (a & 63);
		occ[(wb & (nw - 1)) * d->nbm + i] |= ~0ull >> (63 - (b & 63));
		return;
	}
	for (;;) {
		uint64_t wi = a >> 6, last = (b >> 6) == wi;
		uint64_t m = (~0ull << (a & 63)) & (last ? ~0ull >> (63 - (b & 63)) : ~0ull);
		occ[(wi & (nw - 1)) * d->nbm + i] |= m;
		if (last)
			return;
		a = (wi + 1) << 6;
	}
}

/*
 * Slot x taken by a burst (rank, bg, xw): for each direction w, the slots
 * a burst of w may no longer take, per spacing rule: within need[w][xw]
 * before x (its own burst would be too close to x's) or need[xw][w] after
 * it.  A burst of (rank, bg) looks at FB_G(w, rank, bg) (its bank group's
 * rule), FB_R(w, rank) (another bank group's: it covers the bank group's
 * own bursts too, harmlessly, as tCCD_L >= tCCD_S and tWTR_L >= tWTR_S
 * make a bank group's own spacing the larger) and FB_O(w, rank) (another
 * rank's), and so sees every committed burst's rules at once; FB_T has
 * the slot itself (a rule of one slot marks nothing more).
 */
INL void fb_take(const struct ddr *d, uint64_t *occ, uint64_t nw, uint64_t x, unsigned rank, unsigned rg, int xw)
{
	if (d->fbok[xw] && x >= d->fbb[xw]) { /* every pattern from one slot a */
		uint64_t a = x - d->fbb[xw], sh = a & 63;
		uint64_t *p0 = occ + ((a >> 6) & (nw - 1)) * d->nbm, *p1 = occ + (((a >> 6) + 1) & (nw - 1)) * d->nbm;
		const struct fbq *q = d->fbq[xw];
		const struct fbx *e = d->fbxw[xw] + rg * 7;
		unsigned n = d->fbn[xw], nq = d->fbnq[xw];
		if (sh + d->fbw[xw] < 64) { /* within one word */
			for (unsigned i = 0; i < n; i++)
				p0[e[i].bm] |= e[i].pat << sh;
			for (unsigned i = n; i < nq; i++)
				for (unsigned r = 0; r < d->cfg.ranks; r++)
					if (r != rank)
						p0[q[i].base + r] |= q[i].pat << sh;
		} else {
			for (unsigned i = 0; i < n; i++) {
				p0[e[i].bm] |= e[i].pat << sh;
				p1[e[i].bm] |= e[i].pat >> 1 >> (63 - sh);
			}
			for (unsigned i = n; i < nq; i++)
				for (unsigned r = 0; r < d->cfg.ranks; r++)
					if (r != rank) {
						p0[q[i].base + r] |= q[i].pat << sh;
						p1[q[i].base + r] |= q[i].pat >> 1 >> (63 - sh);
					}
		}
		return;
	}
	occ[((x >> 6) & (nw - 1)) * d->nbm + FB_T(d)] |= 1ull << (x & 63);
	for (unsigned i = 0; i < d->nfbe[xw]; i++) {
		const struct fbe *e = &d->fbe[xw][i];
		if (e->kind == 2) { /* another rank's spacing, whatever the bank group */
			for (unsigned r = 0; r < d->cfg.ranks; r++)
				if (r != rank)
					fb_set(d, occ, nw, e->base + r, x > e->before ? x - e->before : 0, x + e->after);
			continue;
		}
		unsigned bm = e->base + (e->kind == 0 ? rg : rank); /* (FB_G or FB_R) */
		if (e->pat && x >= e->before) { /* the pattern, across at most two words */
			uint64_t a = x - e->before, sh = a & 63;
			occ[((a >> 6) & (nw - 1)) * d->nbm + bm] |= e->pat << sh;
			if (sh + e->before + e->after > 63)
				occ[(((a >> 6) + 1) & (nw - 1)) * d->nbm + bm] |= e->pat >> 1 >> (63 - sh);
		} else
			fb_set(d, occ, nw, bm, x > e->before ? x - e->before : 0, x + e->after);
	}
}

/* Move slow up to shi - keep, clearing the occupancy words left wholly
 * behind it; then make the ring hold every slot from slow to k + span (and
 * a word more, so that a word is cleared before its entries come round
 * again). */
static void ring_fit(const struct ddr *d, struct dchan *ch, uint64_t k)
{
	uint64_t low = ch->shi > d->keep ? ch->shi - d->keep : 0, nw = (ch->smask + 1) / 64;
	if (low >> 6 > ch->slow >> 6) {
		if ((low >> 6) - (ch->slow >> 6) >= nw)
			memset(ch->occ, 0, nw * d->nbm * sizeof *ch->occ);
		else
			for (uint64_t w = ch->slow >> 6; w < low >> 6; w++)
				memset(ch->occ + (w & (nw - 1)) * d->nbm, 0, d->nbm * sizeof *ch->occ);
	}
	if (low > ch->slow)
		ch->slow = low;
	while (k + d->span + 64 > ch->slow + ch->smask) {
		uint64_t n = ch->smask + 1;
		uint64_t *ns = calloc(2 * n, sizeof *ns), *no = calloc(2 * n / 64 * d->nbm, sizeof *no);
		if (!ns || !no)
			abort();
		for (uint64_t j = 0; j < n; j++) /* the slots still looked at */
			if (ch->slot[j] & SL_BUSY && ch->slot[j] >> 16 >= ch->slow) {
				uint64_t x = ch->slot[j] >> 16;
				unsigned v = (unsigned)(ch->slot[j] & 0xffff);
				ns[x & (2 * n - 1)] = ch->slot[j];
				fb_take(d, no, 2 * n / 64, x, v >> 6 & 15, (v >> 6 & 15) * d->cfg.bank_groups + (v & 63), !!(v & SL_W));
			}
		free(ch->slot);
		free(ch->occ);
		ch->slot = ns;
		ch->occ = no;
		ch->smask = 2 * n - 1;
		nw = 2 * n / 64;
	}
}

/*
 * The earliest slot for a burst (rank, bg, w) whose column command may issue
 * at c0 or later (lat: command to data) and at most at cmax: every spacing
 * rule holds against the bursts within d->span slots either side, the
 * column command lies outside the rank's refresh windows, a read overtakes
 * at most ddr-cap committed slots, a write goes behind everything committed
 * (a drain is one batch).  NOSLOT if none by cmax.  Does not commit.
 */
INL uint64_t bus_find(struct ddr *d, struct dchan *ch, const struct drank *rk, const struct ddr_loc *l, int w,
                      uint64_t c0, uint64_t lat, uint64_t cmax)
{
	uint64_t k = (c0 + lat + d->cfg.burst - 1) / d->cfg.burst;
	/* the ring holds the slots from shi - 256 cycles on (requests come
	 * out of time order by far less): nothing older is looked at */
	if (k > ch->shi) {
		ch->shi = k;
		/* (ring_fit's work, when there is any) */
		uint64_t low = k > d->keep ? k - d->keep : 0;
		if (low >> 6 > ch->slow >> 6 || k + d->span + 64 > max64(low, ch->slow) + ch->smask)
			ring_fit(d, ch, k);
		else if (low > ch->slow)
			ch->slow = low;
	}
	uint64_t lo = w ? ch->slast : ch->slast > d->cfg.starve_cap && !d->nocap ? ch->slast - d->cfg.starve_cap : 0;
	uint64_t ks = d->keep - d->span;
	lo = max64(lo, ch->shi > ks ? ch->shi - ks : 0);
	if (k < lo)
		k = lo;
	/* the slots this burst may not take: its bank group's, its rank's and
	 * the other ranks' rules */
	unsigned ig = d->fbg0[w] + l->rank_bg, ir = d->fbr0[w] + l->rank, io = d->fbo0[w] + l->rank, it = d->nbm - 1;
	/* each step moves k forward; a full ring of steps is a bug */
	for (uint64_t step = 0;; step++) {
		if (step > 4 * (ch->smask + 1) + 1000)
			stuck("bus_find");
		uint64_t c = k * d->cfg.burst - lat;
		if (c > cmax)
			return NOSLOT;
		uint64_t cp = ref_push(d, rk, c);
		if (cp != c) {
			k = (cp + lat + d->cfg.burst - 1) / d->cfg.burst;
			d->refpushed = 1;
			continue;
		}
		if (k + d->span + 64 > ch->slow + ch->smask)
			ring_fit(d, ch, k);
		const uint64_t *p = ch->occ + ((k >> 6) & (ch->smask >> 6)) * d->nbm;
		uint64_t word = (p[ig] | p[ir] | p[io] | p[it]) >> (k & 63);
		if (!(word & 1))
			return k;
		/* on to the next slot it may take */
		k += ~word ? (uint64_t)__builtin_ctzll(~word) : 64;
	}
}

/* Commit slot k; returns the data start. */
INL uint64_t bus_take(struct ddr *d, struct dchan *ch, uint64_t k, const struct ddr_loc *l, int w)
{
	ch->slot[k & ch->smask] = k << 16 | SL(l->rank, l->bank_group, w);
	fb_take(d, ch->occ, (ch->smask + 1) / 64, k, l->rank, l->rank_bg, w);
	if (k + 1 > ch->slast)
		ch->slast = k + 1;
	uint64_t s = k * d->cfg.burst;
	d->st.busy_t += d->cfg.burst;
	if (s + d->cfg.burst > d->st.last_t)
		d->st.last_t = s + d->cfg.burst;
	return s;
}

/* ---- one transfer: bank commands and the data burst -------------------------- */

/* The earliest activate at or after a (bank group bg) that the rank's
 * activate i allows (act, abg: the rank's n activates from its head):
 * tRRD_S/L from it on either side, and not a fifth activate in one tFAW
 * window with act[i..i+3].  a itself when neither binds. */
INL uint64_t act_rule(const struct ddr *d, const uint64_t *act, const uint16_t *abg, unsigned n, unsigned i,
                      unsigned bg, uint64_t a)
{
	uint64_t x = act[i], rrd = abg[i] == bg ? d->cfg.t[T_RRD_L] : d->cfg.t[T_RRD_S];
	if (a < x + rrd && x < a + rrd)
		a = x + rrd;
	if (i + 3 < n && max64(a, act[i + 3]) - (a < x ? a : x) < d->cfg.t[T_FAW] && a + d->cfg.t[T_FAW] > x)
		a = x + d->cfg.t[T_FAW];
	return a;
}

/* The earliest activate at or after a for bank group bg of rank rk: tRRD_S/L
 * from every committed activate on either side, at most four in any tFAW. */
INL uint64_t act_slot(const struct ddr *d, const struct drank *rk, unsigned bg, uint64_t a)
{
	/* every pass that moves a moves it past one more activate: at most
	 * nact + 1 passes (more is a bug: stop rather than spin) */
	const uint64_t *act = rk->act + rk->a0;
	const uint16_t *abg = rk->act_bg + rk->a0;
	unsigned n = rk->nact;
	if (!n || act[n - 1] + d->actwin <= a)
		return a; /* (sorted: the latest lies a window or more behind) */
	/* (sorted: activates a window or more behind do not bind, nor later,
	 * as a only moves forward) */
	unsigned first = n - 1;
	while (first && act[first - 1] + d->actwin > a)
		first--;
	unsigned pass = 0;
	for (int moved = 1; moved; pass++) {
		if (pass > n + 1)
			stuck("act_slot");
		moved = 0;
		for (unsigned i = first; i < n; i++) {
			uint64_t x = act[i];
			if (x + d->actwin <= a)
				continue;
			if (x >= a + d->actwin)
				break;
			uint64_t b = act_rule(d, act, abg, n, i, bg, a);
			if (b != a) {
				a = b;
				moved = 1;
			}
		}
	}
	return a;
}

/* act_slot(d, rk, bg, a) == a: its first pass, stopping where a would move. */
INL int act_free(const struct ddr *d, const struct drank *rk, unsigned bg, uint64_t a)
{
	const uint64_t *act = rk->act + rk->a0;
	const uint16_t *abg = rk->act_bg + rk->a0;
	unsigned n = rk->nact;
	/* (a does not move: any order; from the latest back to the first a
	 * window or more behind) */
	for (unsigned i = n; i--;) {
		uint64_t x = act[i];
		if (x + d->actwin <= a)
			break;
		if (x >= a + d->actwin)
			continue;
		if (act_rule(d, act, abg, n, i, bg, a) != a)
			return 0;
	}
	return 1;
}

INL void act_commit(const struct ddr *d, struct drank *rk, unsigned bg, uint64_t a, uint64_t te)
{
	/* forget activates that cannot constrain one at te or later (with a
	 * margin for requests that come slightly out of time order) */
	uint64_t old = te > d->cfg.t[T_FAW] + CYC2T(32) ? te - d->cfg.t[T_FAW] - CYC2T(32) : 0;
	unsigned n = rk->nact;
	while (n && rk->act[rk->a0] < old) { /* (the head moves; no copying) */
		rk->a0++;
		n--;
	}
	if (n == NACT) { /* forget the oldest */
		rk->a0++;
		n--;
	}
	if (rk->a0 + n == 2 * NACT) { /* no room after: back to the start */
		memmove(rk->act, rk->act + rk->a0, n * sizeof rk->act[0]);
		memmove(rk->act_bg, rk->act_bg + rk->a0, n * sizeof rk->act_bg[0]);
		rk->a0 = 0;
	}
	uint64_t *act = rk->act + rk->a0;
	uint16_t *abg = rk->act_bg + rk->a0;
	unsigned i = n;
	while (i > 0 && act[i - 1] > a) {
		act[i] = act[i - 1];
		abg[i] = abg[i - 1];
		i--;
	}
	act[i] = a;
	abg[i] = (uint16_t)bg;
	rk->nact = n + 1;
}

/* The earliest activate at or after a outside the refresh windows. */
INL uint64_t act_find(struct ddr *d, const struct drank *rk, unsigned bg, uint64_t a)
{
	a = act_slot(d, rk, bg, a);
	for (uint64_t ap; (ap = ref_push(d, rk, a)) != a; d->refpushed = 1)
		a = act_slot(d, rk, bg, ap);
	return a;
}

static void count(struct ddr *d, int kind)
{
	if (kind == 0)
		d->st.hits++;
	else if (kind == 1)
		d->st.empties++;
	else
		d->st.conflicts++;
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
INL uint64_t transfer(struct ddr *d, const struct ddr_loc *l, int w, uint64_t te, int keep, uint64_t *colp)
{
	struct dchan *ch = &d->ch[l->channel];
	struct drank *rk = &ch->rk[l->rank];
	struct dbank *b = &ch->bk[l->bank];
	uint64_t lat = w ? d->cfg.t[T_CWL] : d->cfg.t[T_CL], k;
	d->refpushed = 0;
	if (b->prow == l->row && b->pre_t > te && epoch(d, rk, te) == b->prow_ep) {
		uint64_t need = w ? d->cfg.t[T_CWL] + d->cfg.burst + d->cfg.t[T_WR] : d->cfg.t[T_RTP];
		if (b->pre_t >= need + max64(te, b->pact + d->cfg.t[T_RCD])) {
			k = bus_find(d, ch, rk, l, w, max64(te, b->pact + d->cfg.t[T_RCD]), lat, b->pre_t - need);
			if (k != NOSLOT && epoch(d, rk, k * d->cfg.burst - lat) == b->prow_ep) {
				uint64_t s = bus_take(d, ch, k, l, w);
				count(d, 0);
				if (d->refpushed)
					d->st.ref_stalls++;
				*colp = s - lat;
				return s;
			}
		}
	}
	d->refpushed = 0;
	int kind; /* 0 hit, 1 empty, 2 conflict */
	uint64_t c0, a0 = 0, rowep;
	if (b->row == l->row && epoch(d, rk, max64(te, b->act_t)) == b->row_ep) {
		kind = 0;
		c0 = max64(te, b->act_t + d->cfg.t[T_RCD]);
		rowep = b->row_ep;
	} else {
		uint64_t from = max64(te, b->pre_ok);
		kind = b->row >= 0 && epoch(d, rk, from) == b->row_ep ? 2 : 1;
		if (kind == 2) {
			uint64_t p = ref_push(d, rk, from);
			if (epoch(d, rk, p) != b->row_ep) {
				kind = 1; /* a refresh closed it first */
				from = p;
			} else {
				from = p + d->cfg.t[T_RP];
			}
		}
		a0 = act_find(d, rk, l->bank_group, max64(from, b->act_ok));
		c0 = a0 + d->cfg.t[T_RCD];
		rowep = epoch(d, rk, a0);
	}
	k = bus_find(d, ch, rk, l, w, c0, lat, NOSLOT);
	uint64_t c = k * d->cfg.burst - lat;
	if (epoch(d, rk, c) != rowep) {
		/* a refresh between the activate (or the row's) and the column
		 * command would have closed the row: activate behind it (rare) */
		a0 = act_find(d, rk, l->bank_group, max64(rk->ref_off + epoch(d, rk, c) * d->cfg.t[T_REFI], b->act_ok));
		kind = 1;
		rowep = epoch(d, rk, a0);
		k = bus_find(d, ch, rk, l, w, a0 + d->cfg.t[T_RCD], lat, NOSLOT);
		c = k * d->cfg.burst - lat;
		d->refpushed = 1;
	}
	uint64_t s = bus_take(d, ch, k, l, w);
	if (d->refpushed)
		d->st.ref_stalls++;
	count(d, kind);
	if (kind) {
		/* as late as the slot allows, if every rule holds there */
		uint64_t a = a0, aj = c - d->cfg.t[T_RCD];
		if (aj > a0 && epoch(d, rk, aj) == rowep && act_free(d, rk, l->bank_group, aj) && ref_push(d, rk, aj) == aj &&
		    (kind == 1 || ref_push(d, rk, aj - d->cfg.t[T_RP]) == aj - d->cfg.t[T_RP]))
			a = aj;
		if (kind == 2 && !d->cfg.closed_page) { /* the row it closes, for later hits */
			b->prow = b->row;
			b->prow_ep = b->row_ep;
			b->pact = b->act_t;
			b->pre_t = a - d->cfg.t[T_RP];
		}
		b->act_t = a;
		b->row = l->row;
		b->row_ep = rowep;
		b->act_ok = a + d->cfg.t[T_RC];
		b->pre_ok = a + d->cfg.t[T_RAS];
		act_commit(d, rk, l->bank_group, a, te);
	}
	b->pre_ok = max64(b->pre_ok, w ? s + d->cfg.burst + d->cfg.t[T_WR] : c + d->cfg.t[T_RTP]);
	if (d->cfg.closed_page && !keep) { /* auto-precharge, unless a queued request hits */
		b->row = -1;
		b->act_ok = max64(b->act_ok, b->pre_ok + d->cfg.t[T_RP]);
	}
	*colp = c;
	return s;
}

/* (one copy for reads, one for writes: w is a constant in each) */
static uint64_t transfer_rd(struct ddr *d, const struct ddr_loc *l, uint64_t te, uint64_t *colp)
{
	return transfer(d, l, 0, te, 0, colp);
}

static uint64_t transfer_wr(struct ddr *d, const struct ddr_loc *l, uint64_t te, int keep, uint64_t *colp)
{
	return transfer(d, l, 1, te, keep, colp);
}

/* ---- queues --------------------------------------------------------------------- */

/* A queue of n slot-free times, all 0 (cap >= 1). */
static void fq_init(struct fq *q, unsigned n)
{
	unsigned sz = 1;
	while (sz < n)
		sz <<= 1;
	q->v = calloc(sz, sizeof *q->v);
	q->mask = sz - 1;
	q->head = 0;
	q->n = n;
}

static uint64_t fq_min(const struct fq *q) { return q->v[q->head]; }

static void fq_pop(struct fq *q)
{
	q->head = (q->head + 1) & q->mask;
	q->n--;
}

INL void fq_add(struct fq *q, uint64_t x)
{
	unsigned i = q->n;
	for (; i && q->v[(q->head + i - 1) & q->mask] > x; i--)
		q->v[(q->head + i) & q->mask] = q->v[(q->head + i - 1) & q->mask];
	q->v[(q->head + i) & q->mask] = x;
	q->n++;
}

#define DRAINED UINT32_MAX

/* Drain pending writes of channel ch at time t down to the low watermark:
 * the oldest, then every other pending write to its row, and again. */
static void drain(struct ddr *d, struct dchan *ch, uint64_t t)
{
	d->st.drains++;
	/* a write taken out is marked (bank DRAINED) and the queue closed up
	 * once, at the end */
	unsigned left = ch->npend, first = 0;
	while (left > d->cfg.wq_low) {
		/* the oldest and the writes to its row, out of the queue */
		while (ch->pend[first].l.bank == DRAINED)
			first++;
		unsigned bank = ch->pend[first].l.bank, n = 1;
		int64_t row = ch->pend[first].l.row;
		ch->grp[0] = ch->pend[first];
		ch->pend[first].l.bank = DRAINED;
		ch->pcnt[ch->grp[0].la & (PBUCKETS - 1)]--;
		for (unsigned i = first + 1; i < ch->npend; i++)
			if (ch->pend[i].l.bank == bank && ch->pend[i].l.row == row) {
				ch->grp[n++] = ch->pend[i];
				ch->pend[i].l.bank = DRAINED;
				ch->pcnt[ch->pend[i].la & (PBUCKETS - 1)]--;
			}
		left -= n;
		for (unsigned i = 0; i < n; i++) {
			uint64_t c;
			transfer_wr(d, &ch->grp[i].l, max64(t, ch->grp[i].t), i + 1 < n, &c);
			fq_add(&ch->wq_free, c);
			d->st.wq_res_t += c - ch->grp[i].t;
		}
	}
	unsigned k = 0;
	for (unsigned i = first; i < ch->npend; i++)
		if (ch->pend[i].l.bank != DRAINED)
			ch->pend[k++] = ch->pend[i];
	ch->npend = k;
}

/* Is line la in the channel's write queue (a read of it is served from there)? */
INL int in_wq(const struct dchan *ch, uint64_t la)
{
	if (ch->pcnt[la & (PBUCKETS - 1)])
		for (unsigned i = 0; i < ch->npend; i++)
			if (ch->pend[i].la == la)
				return 1;
	return 0;
}

/* The read-queue entries a read from src arriving at tick t takes.
 * --ddr-fair: a source with no read queued ("light", *light = 1) takes a
 * kept entry when the shared ones are full, so it never waits behind the
 * other sources' bursts to enter. */
INL struct fq *rq_pick(struct ddr *d, struct dchan *ch, unsigned src, uint64_t t, int *light) /* src < MEMSYS_MAX_HARTS */
{
	struct fq *q = &ch->rq_free;
	*light = 0;
	if (d->cfg.fair_kept && ch->src_col[src] <= t) {
		*light = 1;
		if (fq_min(q) > t && fq_min(&ch->rq_kept) < fq_min(q))
			q = &ch->rq_kept;
	}
	return q;
}

/* The earliest tick a read from src arriving at tick t can enter: its
 * queue's (rq_pick) first free entry, and with --ddr-src-rq its source's
 * own first free one (*sq; else NULL). */
INL uint64_t rq_entry(struct ddr *d, struct dchan *ch, unsigned src, int pf, uint64_t t, struct fq **q,
                      struct fq **sq, int *light)
{
	*q = rq_pick(d, ch, src, t, light);
	*sq = d->cfg.src_rq && !pf ? &ch->src_rq[src] : NULL;
	return *sq ? max64(fq_min(*q), fq_min(*sq)) : fq_min(*q);
}

/* The next clock edge at or after cycle c, in ticks. */
INL uint64_t edge(const struct ddr *d, uint64_t c)
{
	return (CYC2T(c) + d->cfg.tck - 1) / d->cfg.tck * d->cfg.tck;
}

/* memmodel.h's admit: a read that finds the read queue full is held at
 * the ingress until an entry frees; the first refusal of a source's read
 * is remembered, so that its entry counts the whole wait (rq_waits). */
static uint64_t ddr_admit(void *st, uint64_t la, uint64_t now, unsigned src)
{
	struct ddr *d = st;
	struct ddr_loc l;
	ddr_map(&d->cfg, la, &l);
	struct dchan *ch = &d->ch[l.channel];
	uint64_t t = edge(d, now);
	int pf = (src & MEMMODEL_PF) != 0;
	src &= MEMSYS_MAX_HARTS - 1;
	int light;
	struct fq *q, *sq;
	uint64_t te = rq_entry(d, ch, src, pf, t, &q, &sq, &light);
	if (te <= t || in_wq(ch, la))
		return now;
	if (pf)
		return t2cyc_up(te);
	struct held *hd = &d->held[src];
	if (!hd->t || hd->la != la) {
		hd->t = t;
		hd->la = la;
	}
	return t2cyc_up(te);
}

static uint64_t ddr_request(void *st, uint64_t la, int w, uint64_t now, unsigned src)
{
	struct ddr *d = st;
	struct ddr_loc l;
	ddr_map(&d->cfg, la, &l);
	struct dchan *ch = &d->ch[l.channel];
	uint64_t t = edge(d, now);
	if (!d->st.first_t || t < d->st.first_t)
		d->st.first_t = t ? t : 1;
	if (w) {
		d->st.writes++;
		/* a free slot exists: npend < ddr-wq-hi <= ddr-wq */
		uint64_t te = max64(t, fq_min(&ch->wq_free));
		if (te > t) {
			d->st.wq_waits++;
			d->st.wq_wait_t += te - t;
		}
		fq_pop(&ch->wq_free);
		ch->pend[ch->npend++] = (struct pwrite){ la, te, l };
		ch->pcnt[la & (PBUCKETS - 1)]++;
		if (ch->npend >= d->cfg.wq_high)
			drain(d, ch, te);
		return t2cyc_up(te) + 1;
	}
	d->st.reads++;
	int pf = (src & MEMMODEL_PF) != 0;
	src &= MEMSYS_MAX_HARTS - 1;
	/* a read the ingress held (ddr_admit): its wait began there */
	struct held *hd = &d->held[src];
	uint64_t arr = t;
	if (!pf && hd->t && hd->la == la) {
		arr = hd->t < t ? hd->t : t;
		hd->t = 0;
	}
	if (in_wq(ch, la)) {
		d->st.fwd++;
		return now + t2cyc_up(d->cfg.frontend) + 1;
	}
	/* a light source's read (--ddr-fair) entered before the reads still
	 * waiting to, so the cap (which counts their committed slots too)
	 * does not hold it back */
	int light;
	struct fq *q, *sq;
	uint64_t te = max64(t, rq_entry(d, ch, src, pf, t, &q, &sq, &light));
	d->nocap = light;
	if (te > arr) {
		d->st.rq_waits++;
		d->st.rq_wait_t += te - arr;
	}
	uint64_t c, s = transfer_rd(d, &l, te, &c);
	fq_pop(q);
	fq_add(q, c);
	if (sq) {
		fq_pop(sq);
		fq_add(sq, c);
	}
	d->nocap = 0;
	uint64_t *sc = &ch->src_col[src];
	if (d->cfg.fair_kept && c > *sc)
		*sc = c;
	d->st.rq_res_t += c - te;
	return t2cyc_up(s + d->cfg.burst + d->cfg.frontend);
}

static void ddr_stats(const void *st, struct memsys_model_stats *s)
{
	const struct ddr *d = st;
	memset(s, 0, sizeof *s);
	s->reads = d->st.reads;
	s->writes = d->st.writes;
	s->busy = t2cyc_up(d->st.busy_t);
	s->row_hits = d->st.hits;
	s->row_misses = d->st.empties;
	s->row_conflicts = d->st.conflicts;
	s->ddr = d->st;
	s->ddr.busy_t = t2cyc_up(d->st.busy_t);
	s->ddr.rq_wait_t = t2cyc_up(d->st.rq_wait_t);
	s->ddr.wq_wait_t = t2cyc_up(d->st.wq_wait_t);
	s->ddr.rq_res_t = t2cyc_up(d->st.rq_res_t);
	s->ddr.wq_res_t = t2cyc_up(d->st.wq_res_t);
	s->ddr.first_t = d->st.first_t >> TSH;
	s->ddr.last_t = t2cyc_up(d->st.last_t);
	s->has_ddr = 1;
}

static uint64_t ddr_peak(const void *st) { return ((const struct ddr *)st)->cfg.peak_mbps; }

const struct memmodel_ops memmodel_ddr_resv = {
	"ddr-resv", "the ddr devices behind the earlier reservation scheduler (each request booked when it arrives; the ddr-* keys)",
	NULL, 0, NULL, NULL, /* (the ddr-* keys: memmodel_ddr_config.c, listed in the ddr model's row) */
	ddr_create, ddr_request, ddr_stats, ddr_peak, ddr_destroy, ddr_admit,
};
