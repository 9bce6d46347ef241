/*
 * Memory model "ddr": JEDEC-timed DDR4/DDR5 devices (the ddr-* keys,
 * presets and address map of memmodel_ddr_config.c) behind one controller
 * per channel that decides when each command issues, as a real one does
 * (FR-FCFS reorders among everything queued; "ddr-resv",
 * memmodel_ddr_resv.c, books each request on arrival and could not).  See
 * memmodel.h for how memsys drives it and docs/memsys.md ("The ddr
 * model") for the design and its figures.
 *
 * Each channel steps from one command to the next (event-driven on DRAM
 * clock edges): at each step it takes the requests that have arrived into
 * its read and write queues, and among the requests of the queue being
 * served (reads, or writes while draining) issues the command that can go
 * first, a row hit's column command before an activate or precharge that
 * can go at the same clock, the oldest first among equals (FR-FCFS); a
 * bank's row stays open while a queued request hits it (up to ddr-cap
 * hits before an older request of the bank); writes drain from ddr-wq-hi
 * queued writes down to ddr-wq-lo, or when no read is queued; refresh
 * closes a rank's rows and blocks it for tRFC every tREFI.  A read's
 * completion is known only when its column command issues: request()
 * returns MEMSYS_PEND | ticket and memsys asks later (ddrctl_sync,
 * ddrctl_resolve).  A request reaches the controller ddr-frontend / 2
 * after memsys sends it, and its data the LLC ddr-frontend - that after
 * the burst: that half is the look-ahead ddrctl_sync relies on.
 *
 * Time is in ticks of 1/256 core cycle; every command issues on a DRAM
 * clock edge (a multiple of tck).
 */
#include "sim/memmodel.h"
#include "sim/memmodel_ddr_config.h"
#include "sim/memmodel_ticks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOTIME UINT64_MAX

/* a request in a queue (or waiting to enter one) */
struct creq {
	uint64_t la, arr, id;  /* arr: ticks it reached the controller; id: a read's ticket */
	int64_t row;
	uint64_t seq;          /* age: order of entering the queue */
	uint64_t in;           /* ticks it entered the queue */
	unsigned bank, src;
	int next;              /* the bank's list, oldest first (-1: end) */
	unsigned char w, kind; /* kind: 0 not yet known, 1 hit, 2 empty, 3 conflict */
	unsigned char pf;      /* a prefetch: outside its source's share */
};

struct cbank {
	int64_t row;           /* open row, -1 closed */
	uint64_t act_t, pre_ok, act_ok;
	int head[2], tail[2];  /* queued reads [0] and writes [1] */
	unsigned n[2], bypass[2];
	unsigned rank, rg;     /* rank, rank * bgs + bg */
};

struct crank {
	uint64_t act, faw[4];  /* latest activate; the last four (ring) */
	unsigned fawi;
	uint64_t col, wr_end;  /* latest column command; end of the latest write's data */
	uint64_t ref_due, ref_end; /* next refresh due; the latest one's end */
};

struct crg { uint64_t act, col, wr_end; }; /* per (rank, bank group) */

/* a bank's next command in one direction, as far as the bank decides it */
struct bcand { uint64_t bt, seq; int kind, req, prev, valid; };

struct carr { uint64_t la, arr, id, ord; unsigned src, w; }; /* arrived or arriving, not
	queued (ord: the order requests came in); src | MEMMODEL_PF: a prefetch (outside its
	source's share) */

/* arrived requests waiting for a queue entry, oldest first */
struct cfifo { struct carr *v; unsigned head, n, cap; };
#define NWAIT (MEMSYS_MAX_HARTS + 2) /* reads per source, prefetches, writes */
#define W_PF MEMSYS_MAX_HARTS
#define W_WR (MEMSYS_MAX_HARTS + 1)

struct cchan {
	struct creq *e;        /* rq + wq entries */
	int freel;             /* free entries' list */
	struct cbank *bk;
	struct bcand *bc;      /* per bank and direction (bank_local), valid until the bank changes */
	struct crank *rk;
	struct crg *rg;
	uint64_t *bm[2];       /* banks with queued reads / writes, a bit each */
	unsigned nbmw;
	unsigned nq[2];        /* queued reads, writes */
	uint64_t now;          /* every command before now is decided */
	uint64_t bus_end;      /* end of the latest burst */
	unsigned bus_rank, bus_w, bus_any;
	int wmode;
	uint64_t seq;
	struct carr *in;       /* not queued yet, by arrival (then by request order) */
	unsigned in_head, in_n, in_cap;
	int in_retry;          /* an entry freed: look at the waiting ones again */
	struct cfifo wt[NWAIT]; /* arrived, waiting for an entry: reads per source, prefetches, writes */
	uint64_t wmask[2];     /* which of wt[] hold some (bit i of word i / 64) */
	uint64_t next_ev;      /* the earliest tick anything can happen, as of the last step (valid
	                          while no request came since: !dirty) */
	int dirty;
	unsigned rd_pend;      /* reads queued or waiting to enter */
	unsigned src_n[MEMSYS_MAX_HARTS]; /* reads queued per source (ddr-src-rq) */
	uint16_t wcnt[1024];   /* writes queued or waiting per bucket la & 1023 */
};

struct ctl {
	struct ddr_config cfg; /* the devices, queues and address map */
	uint64_t fwd, back;    /* ticks: request to the controller, data back to the LLC */
	uint64_t rd_lat;       /* tCL + burst + back: column command to completion */
	uint64_t base;         /* ticks: internal time is core time + base, so that the
	                          state's zero times ("no command yet") bind nothing */
	unsigned nbk;
	struct cchan *ch;
	/* tickets: a ring of (id, completion cycle; 0 unknown) */
	uint64_t *tk_id, *tk_done, tk_mask, next_id;
	uint64_t synced;       /* cycles: the latest sync */
	uint64_t frontier;     /* ticks: no channel has a command to decide before it */
	uint64_t pending;      /* reads with no completion yet */
	uint64_t known;        /* completions found so far */
	uint64_t ord;          /* requests so far */
	struct ddr_stats st;
};

/* ---- tickets ----------------------------------------------------------------- */

static void tk_grow(struct ctl *d)
{
	uint64_t n = (d->tk_mask + 1) * 2;
	uint64_t *id = calloc(n, sizeof *id), *dn = calloc(n, sizeof *dn);
	if (!id || !dn) {
		fprintf(stderr, "ddr: out of memory (tickets)\n");
		abort();
	}
	for (uint64_t i = 0; i <= d->tk_mask; i++)
		if (d->tk_id[i]) {
			id[d->tk_id[i] & (n - 1)] = d->tk_id[i];
			dn[d->tk_id[i] & (n - 1)] = d->tk_done[i];
		}
	free(d->tk_id);
	free(d->tk_done);
	d->tk_id = id;
	d->tk_done = dn;
	d->tk_mask = n - 1;
}

static uint64_t tk_new(struct ctl *d)
{
	uint64_t id = ++d->next_id;
	/* a ticket is dropped from the ring only when known; an unknown one
	 * in the way makes the ring grow (its size depends on the run only) */
	while (d->tk_id[id & d->tk_mask] && !d->tk_done[id & d->tk_mask])
		tk_grow(d);
	d->tk_id[id & d->tk_mask] = id;
	d->tk_done[id & d->tk_mask] = 0;
	d->pending++;
	return id;
}

static void tk_set(struct ctl *d, uint64_t id, uint64_t done)
{
	d->tk_done[id & d->tk_mask] = done;
	d->pending--;
	d->known++;
}

uint64_t ddrctl_resolve(void *st, uint64_t pend)
{
	struct ctl *d = st;
	uint64_t id = pend & ~MEMSYS_PEND;
	if (d->tk_id[id & d->tk_mask] != id)
		return 1; /* known long ago (its place reused): any cycle before now */
	return d->tk_done[id & d->tk_mask];
}

uint64_t ddrctl_known(const void *st)
{
	return ((const struct ctl *)st)->known;
}

uint64_t ddrctl_lb(const void *st)
{
	const struct ctl *d = st;
	if (!d->pending)
		return UINT64_MAX;
	/* an unknown read's column command is at the frontier or later */
	return (d->frontier + d->rd_lat - d->base) >> TSH;
}

/* ---- queues -------------------------------------------------------------------- */

static void bm_set(uint64_t *bm, unsigned b) { bm[b >> 6] |= 1ull << (b & 63); }
static void bm_clr(uint64_t *bm, unsigned b) { bm[b >> 6] &= ~(1ull << (b & 63)); }

/* Request a of the arrivals into its queue at tick t. */
static void enqueue(struct ctl *d, struct cchan *ch, const struct carr *a, uint64_t t)
{
	int i = ch->freel;
	struct creq *q = &ch->e[i];
	ch->freel = q->next;
	struct ddr_loc l;
	ddr_map(&d->cfg, a->la, &l);
	q->la = a->la;
	q->arr = a->arr;
	q->id = a->id;
	q->row = l.row;
	q->seq = ch->seq++;
	q->in = t;
	q->bank = l.bank;
	q->src = a->src & (MEMSYS_MAX_HARTS - 1);
	q->pf = (a->src & MEMMODEL_PF) != 0;
	q->w = (unsigned char)a->w;
	q->kind = 0;
	q->next = -1;
	struct cbank *b = &ch->bk[q->bank];
	unsigned w = a->w;
	ch->bc[2 * q->bank + w].valid = 0;
	if (b->n[w])
		ch->e[b->tail[w]].next = i;
	else {
		b->head[w] = i;
		bm_set(ch->bm[w], q->bank);
	}
	b->tail[w] = i;
	b->n[w]++;
	ch->nq[w]++;
	if (!w && !q->pf)
		ch->src_n[q->src]++;
	if (t > a->arr) {
		if (w) {
			d->st.wq_waits++;
			d->st.wq_wait_t += t - a->arr;
		} else {
			d->st.rq_waits++;
			d->st.rq_wait_t += t - a->arr;
		}
	}
}

/* Entry i (of bank b's list w, after entry prev, -1 when first) leaves. */
static void dequeue(struct cchan *ch, struct cbank *b, int prev, int i)
{
	struct creq *q = &ch->e[i];
	unsigned w = q->w;
	ch->bc[2 * q->bank].valid = ch->bc[2 * q->bank + 1].valid = 0;
	if (prev < 0)
		b->head[w] = q->next;
	else
		ch->e[prev].next = q->next;
	if (b->tail[w] == i)
		b->tail[w] = prev;
	if (!--b->n[w])
		bm_clr(ch->bm[w], q->bank);
	ch->nq[w]--;
	if (!w) {
		if (!q->pf)
			ch->src_n[q->src]--;
		ch->rd_pend--;
	} else {
		ch->wcnt[q->la & 1023]--;
	}
	q->next = ch->freel;
	ch->freel = i;
	ch->in_retry = 1;
}

static void fifo_push(struct cfifo *f, const struct carr *a)
{
	if (f->n == f->cap) {
		unsigned cap = f->cap ? 2 * f->cap : 16;
		struct carr *v = malloc(cap * sizeof *v);
		if (!v) {
			fprintf(stderr, "ddr: out of memory (ingress)\n");
			abort();
		}
		for (unsigned i = 0; i < f->n; i++)
			v[i] = f->v[(f->head + i) % f->cap];
		free(f->v);
		f->v = v;
		f->head = 0;
		f->cap = cap;
	}
	f->v[(f->head + f->n++) % f->cap] = *a;
}

static void wt_push(struct cchan *ch, unsigned k, const struct carr *a)
{
	fifo_push(&ch->wt[k], a);
	ch->wmask[k >> 6] |= 1ull << (k & 63);
}

static struct carr wt_pop(struct cchan *ch, unsigned k)
{
	struct cfifo *f = &ch->wt[k];
	struct carr a = f->v[f->head];
	f->head = f->head + 1 == f->cap ? 0 : f->head + 1;
	if (!--f->n)
		ch->wmask[k >> 6] &= ~(1ull << (k & 63));
	return a;
}

/* Which waiting list request a goes to. */
static unsigned wt_of(const struct carr *a)
{
	return a->w ? W_WR : (a->src & MEMMODEL_PF) ? W_PF : a->src;
}

/* May a request of waiting list k enter its queue now? */
static int can_enter(const struct ctl *d, const struct cchan *ch, unsigned k)
{
	if (k == W_WR)
		return ch->nq[1] < d->cfg.wq_entries;
	return ch->nq[0] < d->cfg.rq_entries && (k == W_PF || !d->cfg.src_rq || ch->src_n[k] < d->cfg.src_rq);
}

/* The waiting requests into their queues while there is room (a demand
 * read also within its source's share), the oldest eligible first, then
 * the arrivals up to ch->now (waiting in their turn if they cannot). */
static void admit(struct ctl *d, struct cchan *ch)
{
	while (ch->wmask[1] & (1ull << (W_WR & 63)) && can_enter(d, ch, W_WR)) {
		struct carr a = wt_pop(ch, W_WR);
		enqueue(d, ch, &a, ch->now);
	}
	while ((ch->wmask[0] || (ch->wmask[1] & 1)) && ch->nq[0] < d->cfg.rq_entries) {
		unsigned best = NWAIT;
		for (unsigned w = 0; w < 2; w++)
			for (uint64_t m = ch->wmask[w] & (w ? 1 : ~0ull); m; m &= m - 1) {
				unsigned k = w * 64 + (unsigned)__builtin_ctzll(m);
				if (!can_enter(d, ch, k))
					continue;
				const struct carr *a = &ch->wt[k].v[ch->wt[k].head];
				if (best == NWAIT || a->ord < ch->wt[best].v[ch->wt[best].head].ord)
					best = k;
			}
		if (best == NWAIT)
			break;
		struct carr a = wt_pop(ch, best);
		enqueue(d, ch, &a, ch->now);
	}
	while (ch->in_n && ch->in[ch->in_head].arr <= ch->now) {
		struct carr *a = &ch->in[ch->in_head];
		unsigned k = wt_of(a);
		if (can_enter(d, ch, k) && !(ch->wmask[k >> 6] & (1ull << (k & 63))))
			enqueue(d, ch, a, ch->now);
		else
			wt_push(ch, k, a);
		ch->in_head++;
		ch->in_n--;
	}
	ch->in_retry = 0;
}

/* The first arrival after ch->now (NOTIME: none); the list is in arrival order. */
static uint64_t next_arrival(const struct cchan *ch)
{
	unsigned lo = ch->in_head, hi = ch->in_head + ch->in_n;
	if (lo == hi || ch->in[hi - 1].arr <= ch->now)
		return NOTIME;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (ch->in[mid].arr > ch->now)
			hi = mid;
		else
			lo = mid + 1;
	}
	return ch->in[lo].arr;
}

/* ---- the scheduler ---------------------------------------------------------------- */

enum { C_NONE, C_COL, C_ACT, C_PRE, C_REF };

struct cand {
	uint64_t t, seq;
	int kind, req, prev;
	unsigned bank, rank;
};

static inline uint64_t up(uint64_t t, uint64_t tck) { return (t + tck - 1) / tck * tck; }

/* Bank bi's next command in direction w, what of its earliest tick
 * depends on the bank alone (kept in ch->bc until the bank changes). */
static void bank_local(const struct ctl *d, struct cchan *ch, unsigned bi, unsigned w)
{
	const struct cbank *b = &ch->bk[bi];
	struct bcand *c = &ch->bc[2 * bi + w];
	int head = b->head[w];
	c->valid = 1;
	if (b->row >= 0) {
		/* the oldest row hit */
		int prev = -1, i = head;
		while (i >= 0 && ch->e[i].row != b->row) {
			prev = i;
			i = ch->e[i].next;
		}
		if (i >= 0 && (i == head || b->bypass[w] < d->cfg.starve_cap)) {
			c->kind = C_COL;
			c->req = i;
			c->prev = prev;
			c->seq = ch->e[i].seq;
			c->bt = b->act_t + d->cfg.t[T_RCD];
			return;
		}
		c->kind = C_PRE;
		c->req = head;
		c->seq = ch->e[head].seq;
		c->bt = b->pre_ok;
		return;
	}
	c->kind = C_ACT;
	c->req = head;
	c->seq = ch->e[head].seq;
	c->bt = b->act_ok;
}

/* Bank bi's next command in direction w, and its earliest tick. */
static inline void bank_cand(const struct ctl *d, struct cchan *ch, unsigned bi, unsigned w, struct cand *c)
{
	const struct cbank *b = &ch->bk[bi];
	const struct bcand *bc = &ch->bc[2 * bi + w];
	if (!bc->valid)
		bank_local(d, ch, bi, w);
	const struct crank *rk = &ch->rk[b->rank];
	const struct crg *rg = &ch->rg[b->rg];
	const uint64_t *T = d->cfg.t;
	uint64_t t = max64(ch->now, bc->bt);
	c->bank = bi;
	c->rank = b->rank;
	c->kind = bc->kind;
	c->req = bc->req;
	c->prev = bc->prev;
	c->seq = bc->seq;
	if (bc->kind == C_COL) {
		t = max64(t, rk->col + T[T_CCD_S]);
		t = max64(t, rg->col + T[T_CCD_L]);
		uint64_t bus = ch->bus_end;
		if (ch->bus_any && ch->bus_rank != b->rank)
			bus += T[T_RTRS];
		if (w) {
			if (ch->bus_any && !ch->bus_w)
				bus += T[T_RTW];
			t = max64(t, bus > T[T_CWL] ? bus - T[T_CWL] : 0);
		} else {
			t = max64(t, rk->wr_end + T[T_WTR_S]);
			t = max64(t, rg->wr_end + T[T_WTR_L]);
			t = max64(t, bus > T[T_CL] ? bus - T[T_CL] : 0);
		}
		c->t = t; /* (every time here is on a clock edge) */
	} else if (bc->kind == C_PRE) {
		c->t = t;
	} else {
		t = max64(t, rk->act + T[T_RRD_S]);
		t = max64(t, rg->act + T[T_RRD_L]);
		t = max64(t, rk->faw[rk->fawi] + T[T_FAW]);
		t = max64(t, rk->ref_end);
		c->t = t;
	}
}

/* Does a request queued in either direction hit row `row` of bank b? */
static int row_wanted(const struct cchan *ch, const struct cbank *b, int64_t row)
{
	for (unsigned w = 0; w < 2; w++)
		for (int i = b->head[w]; i >= 0; i = ch->e[i].next)
			if (ch->e[i].row == row)
				return 1;
	return 0;
}

static void issue(struct ctl *d, struct cchan *ch, const struct cand *c)
{
	const uint64_t *T = d->cfg.t;
	uint64_t t = c->t;
	if (c->kind == C_REF) {
		struct crank *rk = &ch->rk[c->rank];
		rk->ref_end = t + T[T_RFC];
		rk->ref_due += T[T_REFI];
		for (unsigned i = 0; i < d->nbk; i++) {
			struct cbank *b = &ch->bk[i];
			if (b->rank != c->rank)
				continue;
			b->row = -1;
			b->act_ok = max64(b->act_ok, rk->ref_end);
			ch->bc[2 * i].valid = ch->bc[2 * i + 1].valid = 0;
		}
		d->st.ref_stalls++;
		return;
	}
	struct cbank *b = &ch->bk[c->bank];
	struct crank *rk = &ch->rk[b->rank];
	struct crg *rg = &ch->rg[b->rg];
	struct creq *q = &ch->e[c->req];
	ch->bc[2 * c->bank].valid = ch->bc[2 * c->bank + 1].valid = 0;
	if (c->kind == C_PRE) {
		b->row = -1;
		b->act_ok = max64(b->act_ok, t + T[T_RP]);
		if (!q->kind)
			q->kind = 3;
		return;
	}
	if (c->kind == C_ACT) {
		b->row = q->row;
		b->act_t = t;
		b->pre_ok = t + T[T_RAS];
		b->act_ok = t + T[T_RC];
		rk->act = t;
		rk->faw[rk->fawi] = t;
		rk->fawi = (rk->fawi + 1) & 3;
		rg->act = t;
		if (!q->kind)
			q->kind = 2;
		return;
	}
	/* a column command */
	unsigned w = q->w;
	if (!q->kind)
		q->kind = 1;
	if (q->kind == 1)
		d->st.hits++;
	else if (q->kind == 2)
		d->st.empties++;
	else
		d->st.conflicts++;
	if (c->req == b->head[w])
		b->bypass[w] = 0;
	else
		b->bypass[w]++;
	rk->col = t;
	rg->col = t;
	uint64_t ds = t + (w ? T[T_CWL] : T[T_CL]), de = ds + d->cfg.burst;
	if (ch->bus_any && ch->bus_w != w) {
		if (w)
			d->st.rtw++;
		else
			d->st.wtr++;
	}
	ch->bus_end = de;
	ch->bus_rank = b->rank;
	ch->bus_w = w;
	ch->bus_any = 1;
	d->st.busy_t += d->cfg.burst;
	if (de - d->base > d->st.last_t)
		d->st.last_t = de - d->base;
	if (w) {
		rk->wr_end = de;
		rg->wr_end = de;
		b->pre_ok = max64(b->pre_ok, de + T[T_WR]);
		d->st.wq_res_t += t - q->in;
	} else {
		b->pre_ok = max64(b->pre_ok, t + T[T_RTP]);
		d->st.rq_res_t += t - q->in;
		tk_set(d, q->id, t2cyc_up(de + d->back - d->base));
	}
	int64_t row = q->row;
	dequeue(ch, b, c->prev, c->req);
	if (d->cfg.closed_page && !row_wanted(ch, b, row)) { /* auto-precharge */
		b->row = -1;
		b->act_ok = max64(b->act_ok, b->pre_ok + T[T_RP]);
	}
}

/* Read or write mode (write drain watermarks). */
static void mode(struct ctl *d, struct cchan *ch)
{
	if (!ch->wmode) {
		if (ch->nq[1] >= d->cfg.wq_high || (ch->nq[1] && !ch->nq[0])) {
			ch->wmode = 1;
			d->st.drains++;
		}
	} else if (!ch->nq[1] || (ch->nq[1] <= d->cfg.wq_low && ch->nq[0])) {
		ch->wmode = 0;
	}
}

/* Decide every command of ch that issues before tick end. */
static void run(struct ctl *d, struct cchan *ch, uint64_t end)
{
	const uint64_t tck = d->cfg.tck;
	if (!ch->dirty && end <= ch->next_ev) { /* nothing to decide before end */
		if (end > ch->now)
			ch->now = end / tck * tck;
		return;
	}
	ch->dirty = 0;
	for (;;) {
		if ((ch->in_retry && (ch->wmask[0] | ch->wmask[1])) || (ch->in_n && ch->in[ch->in_head].arr <= ch->now))
			admit(d, ch);
		mode(d, ch);
		struct cand best = { NOTIME, 0, C_NONE, -1, -1, 0, 0 }, c;
		unsigned w = (unsigned)ch->wmode;
		for (unsigned k = 0; k < ch->nbmw; k++)
			for (uint64_t m = ch->bm[w][k]; m; m &= m - 1) {
				unsigned bi = k * 64 + (unsigned)__builtin_ctzll(m);
				bank_cand(d, ch, bi, w, &c);
				if (c.t >= ch->rk[c.rank].ref_due) /* after its rank's refresh is due */
					continue;
				if (c.t < best.t ||
				    (c.t == best.t && ((c.kind == C_COL) > (best.kind == C_COL) ||
				                       ((c.kind == C_COL) == (best.kind == C_COL) && c.seq < best.seq))))
					best = c;
			}
		/* refresh: when due, after its rank's open rows can close (the
		 * precharge folded in); it wins a tie */
		for (unsigned r = 0; r < d->cfg.ranks; r++) {
			struct crank *rk = &ch->rk[r];
			if (rk->ref_due > best.t)
				continue;
			uint64_t t = max64(ch->now, rk->ref_due);
			for (unsigned i = r * d->cfg.bank_groups * d->cfg.banks_per_group; i < (r + 1) * d->cfg.bank_groups * d->cfg.banks_per_group; i++)
				if (ch->bk[i].row >= 0)
					t = max64(t, ch->bk[i].pre_ok + d->cfg.t[T_RP]);
			if (t <= best.t) {
				best.t = t;
				best.kind = C_REF;
				best.rank = r;
			}
		}
		uint64_t na = next_arrival(ch);
		if (na < end && na < best.t) { /* it may change the choice */
			ch->now = up(na, tck);
			continue;
		}
		if (best.kind == C_NONE || best.t >= end) {
			ch->next_ev = na < best.t ? na : best.t;
			if (end > ch->now)
				ch->now = end / tck * tck;
			return;
		}
		issue(d, ch, &best);
		ch->now = best.t + tck; /* one command per clock */
	}
}

void ddrctl_sync(void *st, uint64_t t)
{
	struct ctl *d = st;
	if (t <= d->synced)
		return;
	d->synced = t;
	uint64_t end = CYC2T(t) + d->fwd + d->base;
	for (unsigned i = 0; i < d->cfg.channels; i++)
		run(d, &d->ch[i], end);
	d->frontier = end;
}

uint64_t ddrctl_wait(void *st, uint64_t pend)
{
	struct ctl *d = st;
	uint64_t c;
	while (!(c = ddrctl_resolve(d, pend)))
		ddrctl_sync(d, d->synced + 64);
	return c;
}

/* ---- the model's functions ------------------------------------------------------------ */

static void ctl_destroy(void *st)
{
	struct ctl *d = st;
	if (!d)
		return;
	if (d->ch)
		for (unsigned i = 0; i < d->cfg.channels; i++) {
			struct cchan *ch = &d->ch[i];
			free(ch->e);
			free(ch->bk);
			free(ch->bc);
			free(ch->rk);
			free(ch->rg);
			free(ch->bm[0]);
			free(ch->bm[1]);
			free(ch->in);
			for (unsigned k = 0; k < NWAIT; k++)
				free(ch->wt[k].v);
		}
	free(d->ch);
	free(d->tk_id);
	free(d->tk_done);
	ddr_config_free(&d->cfg);
	free(d);
}

static void *ctl_create(const struct memsys_cfg *cfg, char *err, size_t errlen)
{
	struct ctl *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	if (ddr_config_resolve(cfg, &d->cfg, err, errlen)) {
		free(d);
		return NULL;
	}
	d->fwd = d->cfg.frontend / 2 / d->cfg.tck * d->cfg.tck; /* (a whole number of clocks) */
	d->back = d->cfg.frontend - d->fwd;
	d->rd_lat = d->cfg.t[T_CL] + d->cfg.burst + d->back;
	d->nbk = d->cfg.ranks * d->cfg.bank_groups * d->cfg.banks_per_group;
	d->base = d->cfg.tck << 32; /* (more than any timing: at most 10^6 clocks) */
	d->frontier = d->base;
	d->tk_mask = 4095;
	d->tk_id = calloc(d->tk_mask + 1, sizeof *d->tk_id);
	d->tk_done = calloc(d->tk_mask + 1, sizeof *d->tk_done);
	d->ch = calloc(d->cfg.channels, sizeof *d->ch);
	if (!d->tk_id || !d->tk_done || !d->ch)
		goto oom;
	unsigned ne = d->cfg.rq_entries + d->cfg.wq_entries;
	for (unsigned i = 0; i < d->cfg.channels; i++) {
		struct cchan *ch = &d->ch[i];
		ch->e = calloc(ne, sizeof *ch->e);
		ch->bk = calloc(d->nbk, sizeof *ch->bk);
		ch->bc = calloc(2 * (size_t)d->nbk, sizeof *ch->bc);
		ch->rk = calloc(d->cfg.ranks, sizeof *ch->rk);
		ch->rg = calloc((size_t)d->cfg.ranks * d->cfg.bank_groups, sizeof *ch->rg);
		ch->nbmw = (d->nbk + 63) / 64;
		ch->bm[0] = calloc(ch->nbmw, sizeof(uint64_t));
		ch->bm[1] = calloc(ch->nbmw, sizeof(uint64_t));
		ch->in_cap = 256;
		ch->in = calloc(ch->in_cap, sizeof *ch->in);
		if (!ch->e || !ch->bk || !ch->bc || !ch->rk || !ch->rg || !ch->bm[0] || !ch->bm[1] || !ch->in)
			goto oom;
		for (unsigned k = 0; k < ne; k++)
			ch->e[k].next = k + 1 < ne ? (int)k + 1 : -1;
		ch->freel = 0;
		for (unsigned b = 0; b < d->nbk; b++) {
			ch->bk[b].row = -1;
			ch->bk[b].head[0] = ch->bk[b].head[1] = ch->bk[b].tail[0] = ch->bk[b].tail[1] = -1;
			ch->bk[b].rank = b / (d->cfg.bank_groups * d->cfg.banks_per_group);
			ch->bk[b].rg = b / d->cfg.banks_per_group;
		}
		/* rank r refreshes at r * tREFI / ranks + k * tREFI, k >= 1 (as ddr-resv) */
		for (unsigned r = 0; r < d->cfg.ranks; r++)
			ch->rk[r].ref_due = d->cfg.t[T_REFI] / d->cfg.tck * r / d->cfg.ranks * d->cfg.tck + d->cfg.t[T_REFI] + d->base;
	}
	return d;
oom:
	ctl_destroy(d);
	snprintf(err, errlen, "ddr: out of memory");
	return NULL;
}

static uint64_t ctl_request(void *st, uint64_t la, int w, uint64_t now, unsigned src)
{
	struct ctl *d = st;
	struct ddr_loc l;
	ddr_map(&d->cfg, la, &l);
	struct cchan *ch = &d->ch[l.channel];
	uint64_t t = up(CYC2T(now) + d->fwd + d->base, d->cfg.tck);
	if (!d->st.first_t || CYC2T(now) < d->st.first_t)
		d->st.first_t = CYC2T(now) ? CYC2T(now) : 1;
	if (t < ch->now) { /* a request from before the frontier: a caller without look-ahead */
		d->st.late++;
		t = ch->now;
	}
	src &= (MEMSYS_MAX_HARTS - 1) | MEMMODEL_PF;
	if (!w && ch->wcnt[la & 1023]) {
		/* a read of a line still queued (or waiting) to be written */
		int found = 0;
		for (unsigned j = ch->in_head; j < ch->in_head + ch->in_n && !found; j++)
			found = ch->in[j].w && ch->in[j].la == la;
		const struct cfifo *f = &ch->wt[W_WR];
		for (unsigned j = 0; j < f->n && !found; j++)
			found = f->v[(f->head + j) % f->cap].la == la;
		if (found) {
			d->st.reads++;
			d->st.fwd++;
			return now + t2cyc_up(d->cfg.frontend) + 1;
		}
		struct cbank *b = &ch->bk[l.bank];
		for (int i = b->head[1]; i >= 0; i = ch->e[i].next)
			if (ch->e[i].la == la) {
				d->st.reads++;
				d->st.fwd++;
				return now + t2cyc_up(d->cfg.frontend) + 1;
			}
	}
	if (ch->in_head + ch->in_n == ch->in_cap) {
		if (ch->in_head) {
			memmove(ch->in, ch->in + ch->in_head, ch->in_n * sizeof *ch->in);
			ch->in_head = 0;
		} else {
			ch->in_cap *= 2;
			struct carr *n = realloc(ch->in, ch->in_cap * sizeof *ch->in);
			if (!n) {
				fprintf(stderr, "ddr: out of memory (ingress)\n");
				abort();
			}
			ch->in = n;
		}
	}
	/* in arrival order (requests come nearly in order: from the back) */
	unsigned j = ch->in_head + ch->in_n;
	while (j > ch->in_head && ch->in[j - 1].arr > t) {
		ch->in[j] = ch->in[j - 1];
		j--;
	}
	struct carr *a = &ch->in[j];
	ch->dirty = 1;
	a->la = la;
	a->arr = t;
	a->src = src;
	a->w = (unsigned)w;
	a->id = 0;
	a->ord = d->ord++;
	ch->in_n++;
	if (w) {
		d->st.writes++;
		ch->wcnt[la & 1023]++;
		return now + 1; /* posted */
	}
	d->st.reads++;
	ch->rd_pend++;
	a->id = tk_new(d);
	return MEMSYS_PEND | a->id;
}

/* A prefetch is dropped while the channel's reads fill its read queue. */
static uint64_t ctl_admit(void *st, uint64_t la, uint64_t now, unsigned src)
{
	struct ctl *d = st;
	if (!(src & MEMMODEL_PF))
		return now;
	struct ddr_loc l;
	ddr_map(&d->cfg, la, &l);
	return d->ch[l.channel].rd_pend >= d->cfg.rq_entries ? now + 1 : now;
}

static void ctl_stats(const void *st, struct memsys_model_stats *s)
{
	const struct ctl *d = st;
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
	s->ddr.ctl = 1;
	s->has_ddr = 1;
}

static uint64_t ctl_peak(const void *st) { return ((const struct ctl *)st)->cfg.peak_mbps; }

const struct memmodel_ops memmodel_ddrctl = {
	"ddr", "JEDEC-timed DDR4/DDR5 channels, ranks, bank groups, banks behind a controller that decides "
	"when each command issues: FR-FCFS, write drain, refresh (the ddr-* keys)",
	ddr_config_keys, DDR_CONFIG_NKEYS, ddr_config_defaults, ddr_config_check,
	ctl_create, ctl_request, ctl_stats, ctl_peak, ctl_destroy, ctl_admit,
};
