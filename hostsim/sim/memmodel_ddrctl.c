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

/* What a queued request found in its bank, once its first command issued. */
enum { ROW_UNKNOWN, ROW_HIT, ROW_EMPTY, ROW_CONFLICT };

/* a request in a queue (or waiting to enter one) */
struct queued_req {
	uint64_t line;
	uint64_t arrived;      /* ticks it reached the controller */
	uint64_t ticket;       /* a read's ticket */
	int64_t row;
	uint64_t age;          /* order of entering the queue */
	uint64_t entered;      /* ticks it entered the queue */
	unsigned bank, src;
	int next;              /* the bank's list, oldest first (-1: end) */
	unsigned char is_write;
	unsigned char outcome; /* ROW_* */
	unsigned char prefetch; /* outside its source's share */
};

struct ctl_bank {
	int64_t open_row;      /* -1: closed */
	uint64_t act_at, earliest_pre, earliest_act;
	int queue_head[2], queue_tail[2]; /* queued reads [0] and writes [1] */
	unsigned queued[2];
	unsigned hits_past_head[2]; /* column commands since the head's (ddr-cap) */
	unsigned rank, rank_bg; /* rank, rank * bank groups + bank group */
};

struct ctl_rank {
	uint64_t last_act;
	uint64_t faw_acts[4];  /* the last four activates (a ring) */
	unsigned faw_next;
	uint64_t last_col, last_write_end; /* latest column command; end of the latest write's data */
	uint64_t refresh_due, refresh_end; /* next refresh due; the latest one's end */
};

/* per (rank, bank group) */
struct ctl_bank_group { uint64_t last_act, last_col, last_write_end; };

/* a bank's next command in one direction, as far as the bank decides it:
 * the command (CMD_*), its request (and the one before it in the bank's
 * list), the earliest tick the bank allows */
struct bank_next { uint64_t ready, age; int cmd, req, prev, valid; };

/* a request arrived or arriving, not queued; order: the order requests
 * came in; src | MEMMODEL_PF: a prefetch (outside its source's share) */
struct arrival { uint64_t line, at, ticket, order; unsigned src, is_write; };

/* arrived requests waiting for a queue entry, oldest first */
struct arrival_fifo { struct arrival *items; unsigned head, n, cap; };
#define NWAITLISTS (MEMSYS_MAX_HARTS + 2) /* reads per source, prefetches, writes */
#define WAIT_PREFETCH MEMSYS_MAX_HARTS
#define WAIT_WRITES (MEMSYS_MAX_HARTS + 1)

struct ctl_chan {
	struct queued_req *entries; /* ddr-rq + ddr-wq entries */
	int free_list;         /* the free entries' list */
	struct ctl_bank *banks;
	struct bank_next *bank_next; /* per bank and direction (bank_next_update), valid
	                          until the bank changes */
	struct ctl_rank *ranks;
	struct ctl_bank_group *bank_groups;
	uint64_t *has_queued[2]; /* banks with queued reads / writes, a bit each */
	unsigned has_queued_words;
	unsigned queued[2];    /* queued reads, writes */
	uint64_t now;          /* every command before now is decided */
	uint64_t bus_end;      /* end of the latest burst */
	unsigned bus_rank, bus_write, bus_used; /* the latest burst's rank, direction; any burst yet */
	int draining;          /* serving the writes */
	uint64_t next_age;
	struct arrival *arrivals; /* not queued yet, by arrival (then by request order) */
	unsigned arrivals_head, narrivals, arrivals_cap;
	int recheck_waiting;   /* an entry freed: look at the waiting ones again */
	struct arrival_fifo waiting[NWAITLISTS]; /* arrived, waiting for an entry: reads per
	                          source, prefetches, writes */
	uint64_t waiting_mask[2]; /* which of waiting[] hold some (bit i of word i / 64) */
	uint64_t next_event;   /* the earliest tick anything can happen, as of the last
	                          step (valid while no request came since: !changed) */
	int changed;
	unsigned reads_pending; /* reads queued or waiting to enter */
	unsigned src_queued[MEMSYS_MAX_HARTS]; /* reads queued per source (ddr-src-rq) */
	/* ddr-pf-room: demand reads queued or waiting per source, and how
	 * many of them wait beyond their source's share (out of the queue) */
	unsigned src_pending[MEMSYS_MAX_HARTS], over_share;
	uint16_t writes_per_bucket[1024]; /* writes queued or waiting per bucket line & 1023 */
};

struct ddrctl {
	struct ddr_config cfg; /* the devices, queues and address map */
	uint64_t to_ctl, to_llc; /* ticks: request to the controller, data back to the LLC */
	uint64_t read_latency; /* tCL + burst + to_llc: column command to completion */
	uint64_t base;         /* ticks: internal time is core time + base, so that the
	                          state's zero times ("no command yet") bind nothing */
	unsigned nbanks;       /* per channel */
	struct ctl_chan *chans;
	/* tickets: a ring of (id, completion cycle; 0 unknown), and with a
	 * watch (ddrctl_watch) the cycle each read was sent */
	uint64_t *ticket_id, *ticket_done, *ticket_sent, ticket_mask, next_ticket;
	uint64_t synced;       /* cycles: the latest sync */
	uint64_t frontier;     /* ticks: no channel has a command to decide before it */
	uint64_t pending;      /* reads with no completion yet */
	uint64_t known;        /* completions found so far */
	uint64_t next_order;   /* requests so far */
	struct ddr_stats stats;
	ddrctl_watch_fn *watch; /* ddrctl_watch: told each completion found */
	void *watch_ctx;
};

/* ---- tickets ----------------------------------------------------------------- */

static void tickets_grow(struct ddrctl *d)
{
	uint64_t n = (d->ticket_mask + 1) * 2;
	uint64_t *id = calloc(n, sizeof *id), *dn = calloc(n, sizeof *dn);
	uint64_t *sn = d->ticket_sent ? calloc(n, sizeof *sn) : NULL;
	if (!id || !dn || (d->ticket_sent && !sn)) {
		fprintf(stderr, "ddr: out of memory (tickets)\n");
		abort();
	}
	for (uint64_t i = 0; i <= d->ticket_mask; i++)
		if (d->ticket_id[i]) {
			id[d->ticket_id[i] & (n - 1)] = d->ticket_id[i];
			dn[d->ticket_id[i] & (n - 1)] = d->ticket_done[i];
			if (sn)
				sn[d->ticket_id[i] & (n - 1)] = d->ticket_sent[i];
		}
	free(d->ticket_id);
	free(d->ticket_done);
	free(d->ticket_sent);
	d->ticket_id = id;
	d->ticket_done = dn;
	d->ticket_sent = sn;
	d->ticket_mask = n - 1;
}

static uint64_t ticket_new(struct ddrctl *d, uint64_t now)
{
	uint64_t id = ++d->next_ticket;
	/* a ticket is dropped from the ring only when known; an unknown one
	 * in the way makes the ring grow (its size depends on the run only) */
	while (d->ticket_id[id & d->ticket_mask] && !d->ticket_done[id & d->ticket_mask])
		tickets_grow(d);
	d->ticket_id[id & d->ticket_mask] = id;
	d->ticket_done[id & d->ticket_mask] = 0;
	if (d->ticket_sent)
		d->ticket_sent[id & d->ticket_mask] = now;
	d->pending++;
	return id;
}

static void ticket_set(struct ddrctl *d, uint64_t id, uint64_t done)
{
	d->ticket_done[id & d->ticket_mask] = done;
	d->pending--;
	d->known++;
	if (d->watch)
		d->watch(d->watch_ctx, d->ticket_sent[id & d->ticket_mask], done);
}

int ddrctl_watch(void *st, ddrctl_watch_fn *fn, void *ctx)
{
	struct ddrctl *d = st;
	if (fn && !d->ticket_sent && !(d->ticket_sent = calloc(d->ticket_mask + 1, sizeof *d->ticket_sent)))
		return -1;
	d->watch = fn;
	d->watch_ctx = ctx;
	return 0;
}

uint64_t ddrctl_resolve(void *st, uint64_t pend)
{
	struct ddrctl *d = st;
	uint64_t id = pend & ~MEMSYS_PEND;
	if (d->ticket_id[id & d->ticket_mask] != id)
		return 1; /* known long ago (its place reused): any cycle before now */
	return d->ticket_done[id & d->ticket_mask];
}

uint64_t ddrctl_known(const void *st)
{
	return ((const struct ddrctl *)st)->known;
}

uint64_t ddrctl_lb(const void *st)
{
	const struct ddrctl *d = st;
	if (!d->pending)
		return UINT64_MAX;
	/* an unknown read's column command is at the frontier or later */
	return (d->frontier + d->read_latency - d->base) >> TSH;
}

/* ---- queues -------------------------------------------------------------------- */

static void bit_set(uint64_t *bm, unsigned b) { bm[b >> 6] |= 1ull << (b & 63); }
static void bit_clear(uint64_t *bm, unsigned b) { bm[b >> 6] &= ~(1ull << (b & 63)); }

/* Request a of the arrivals into its queue at tick t. */
static void enqueue(struct ddrctl *d, struct ctl_chan *ch, const struct arrival *a, uint64_t t)
{
	int i = ch->free_list;
	struct queued_req *q = &ch->entries[i];
	ch->free_list = q->next;
	struct ddr_loc l;
	ddr_map(&d->cfg, a->line, &l);
	q->line = a->line;
	q->arrived = a->at;
	q->ticket = a->ticket;
	q->row = l.row;
	q->age = ch->next_age++;
	q->entered = t;
	q->bank = l.bank;
	q->src = a->src & (MEMSYS_MAX_HARTS - 1);
	q->prefetch = (a->src & MEMMODEL_PF) != 0;
	q->is_write = (unsigned char)a->is_write;
	q->outcome = ROW_UNKNOWN;
	q->next = -1;
	struct ctl_bank *b = &ch->banks[q->bank];
	unsigned w = a->is_write;
	ch->bank_next[2 * q->bank + w].valid = 0;
	if (b->queued[w])
		ch->entries[b->queue_tail[w]].next = i;
	else {
		b->queue_head[w] = i;
		bit_set(ch->has_queued[w], q->bank);
	}
	b->queue_tail[w] = i;
	b->queued[w]++;
	ch->queued[w]++;
	if (!w && !q->prefetch)
		ch->src_queued[q->src]++;
	if (t > a->at) {
		if (w) {
			d->stats.wq_waits++;
			d->stats.wq_wait_t += t - a->at;
		} else {
			d->stats.rq_waits++;
			d->stats.rq_wait_t += t - a->at;
		}
	}
}

/* Entry i (of bank b's list w, after entry prev, -1 when first) leaves. */
static void dequeue(const struct ddrctl *d, struct ctl_chan *ch, struct ctl_bank *b, int prev, int i)
{
	struct queued_req *q = &ch->entries[i];
	unsigned w = q->is_write;
	ch->bank_next[2 * q->bank].valid = ch->bank_next[2 * q->bank + 1].valid = 0;
	if (prev < 0)
		b->queue_head[w] = q->next;
	else
		ch->entries[prev].next = q->next;
	if (b->queue_tail[w] == i)
		b->queue_tail[w] = prev;
	if (!--b->queued[w])
		bit_clear(ch->has_queued[w], q->bank);
	ch->queued[w]--;
	if (!w) {
		if (!q->prefetch) {
			ch->src_queued[q->src]--;
			if (d->cfg.pf_room && --ch->src_pending[q->src] >= d->cfg.src_rq)
				ch->over_share--;
		}
		ch->reads_pending--;
	} else {
		ch->writes_per_bucket[q->line & 1023]--;
	}
	q->next = ch->free_list;
	ch->free_list = i;
	ch->recheck_waiting = 1;
}

static void fifo_push(struct arrival_fifo *f, const struct arrival *a)
{
	if (f->n == f->cap) {
		unsigned cap = f->cap ? 2 * f->cap : 16;
		struct arrival *v = malloc(cap * sizeof *v);
		if (!v) {
			fprintf(stderr, "ddr: out of memory (ingress)\n");
			abort();
		}
		for (unsigned i = 0; i < f->n; i++)
			v[i] = f->items[(f->head + i) % f->cap];
		free(f->items);
		f->items = v;
		f->head = 0;
		f->cap = cap;
	}
	f->items[(f->head + f->n++) % f->cap] = *a;
}

static void wait_push(struct ctl_chan *ch, unsigned k, const struct arrival *a)
{
	fifo_push(&ch->waiting[k], a);
	ch->waiting_mask[k >> 6] |= 1ull << (k & 63);
}

static struct arrival wait_pop(struct ctl_chan *ch, unsigned k)
{
	struct arrival_fifo *f = &ch->waiting[k];
	struct arrival a = f->items[f->head];
	f->head = f->head + 1 == f->cap ? 0 : f->head + 1;
	if (!--f->n)
		ch->waiting_mask[k >> 6] &= ~(1ull << (k & 63));
	return a;
}

/* Which waiting list request a goes to. */
static unsigned waitlist_of(const struct arrival *a)
{
	return a->is_write ? WAIT_WRITES : (a->src & MEMMODEL_PF) ? WAIT_PREFETCH : a->src;
}

/* May a request of waiting list k enter its queue now? */
static int can_enter(const struct ddrctl *d, const struct ctl_chan *ch, unsigned k)
{
	if (k == WAIT_WRITES)
		return ch->queued[1] < d->cfg.wq_entries;
	return ch->queued[0] < d->cfg.rq_entries &&
	       (k == WAIT_PREFETCH || !d->cfg.src_rq || ch->src_queued[k] < d->cfg.src_rq);
}

/* The waiting requests into their queues while there is room (a demand
 * read also within its source's share), the oldest eligible first, then
 * the arrivals up to ch->now (waiting in their turn if they cannot). */
static void admit_waiting(struct ddrctl *d, struct ctl_chan *ch)
{
	while (ch->waiting_mask[1] & (1ull << (WAIT_WRITES & 63)) && can_enter(d, ch, WAIT_WRITES)) {
		struct arrival a = wait_pop(ch, WAIT_WRITES);
		enqueue(d, ch, &a, ch->now);
	}
	while ((ch->waiting_mask[0] || (ch->waiting_mask[1] & 1)) && ch->queued[0] < d->cfg.rq_entries) {
		unsigned best = NWAITLISTS;
		for (unsigned w = 0; w < 2; w++)
			for (uint64_t m = ch->waiting_mask[w] & (w ? 1 : ~0ull); m; m &= m - 1) {
				unsigned k = w * 64 + (unsigned)__builtin_ctzll(m);
				if (!can_enter(d, ch, k))
					continue;
				const struct arrival *a = &ch->waiting[k].items[ch->waiting[k].head];
				if (best == NWAITLISTS || a->order < ch->waiting[best].items[ch->waiting[best].head].order)
					best = k;
			}
		if (best == NWAITLISTS)
			break;
		struct arrival a = wait_pop(ch, best);
		enqueue(d, ch, &a, ch->now);
	}
	while (ch->narrivals && ch->arrivals[ch->arrivals_head].at <= ch->now) {
		struct arrival *a = &ch->arrivals[ch->arrivals_head];
		unsigned k = waitlist_of(a);
		if (can_enter(d, ch, k) && !(ch->waiting_mask[k >> 6] & (1ull << (k & 63))))
			enqueue(d, ch, a, ch->now);
		else
			wait_push(ch, k, a);
		ch->arrivals_head++;
		ch->narrivals--;
	}
	ch->recheck_waiting = 0;
}

/* The first arrival after ch->now (NOTIME: none); the list is in arrival order. */
static uint64_t next_arrival(const struct ctl_chan *ch)
{
	unsigned lo = ch->arrivals_head, hi = ch->arrivals_head + ch->narrivals;
	if (lo == hi || ch->arrivals[hi - 1].at <= ch->now)
		return NOTIME;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (ch->arrivals[mid].at > ch->now)
			hi = mid;
		else
			lo = mid + 1;
	}
	return ch->arrivals[lo].at;
}

/* ---- the scheduler ---------------------------------------------------------------- */

/* a command: none, column (read or write), activate, precharge, refresh */
enum { CMD_NONE, CMD_COL, CMD_ACT, CMD_PRE, CMD_REF };

/* the command a step issues, and its tick */
struct cmd_choice {
	uint64_t t, age;
	int cmd, req, prev;
	unsigned bank, rank;
};

static inline uint64_t round_up(uint64_t t, uint64_t tck) { return (t + tck - 1) / tck * tck; }

/* Bank bi's next command in direction w, what of its earliest tick
 * depends on the bank alone (kept in ch->bank_next until the bank changes). */
static void bank_next_update(const struct ddrctl *d, struct ctl_chan *ch, unsigned bi, unsigned w)
{
	const struct ctl_bank *b = &ch->banks[bi];
	struct bank_next *c = &ch->bank_next[2 * bi + w];
	int head = b->queue_head[w];
	c->valid = 1;
	if (b->open_row >= 0) {
		/* the oldest row hit */
		int prev = -1, i = head;
		while (i >= 0 && ch->entries[i].row != b->open_row) {
			prev = i;
			i = ch->entries[i].next;
		}
		if (i >= 0 && (i == head || b->hits_past_head[w] < d->cfg.starve_cap)) {
			c->cmd = CMD_COL;
			c->req = i;
			c->prev = prev;
			c->age = ch->entries[i].age;
			c->ready = b->act_at + d->cfg.t[T_RCD];
			return;
		}
		c->cmd = CMD_PRE;
		c->req = head;
		c->age = ch->entries[head].age;
		c->ready = b->earliest_pre;
		return;
	}
	c->cmd = CMD_ACT;
	c->req = head;
	c->age = ch->entries[head].age;
	c->ready = b->earliest_act;
}

/* Bank bi's next command in direction w, and its earliest tick. */
static inline void bank_candidate(const struct ddrctl *d, struct ctl_chan *ch, unsigned bi, unsigned w,
                                  struct cmd_choice *c)
{
	const struct ctl_bank *b = &ch->banks[bi];
	const struct bank_next *local = &ch->bank_next[2 * bi + w];
	if (!local->valid)
		bank_next_update(d, ch, bi, w);
	const struct ctl_rank *rk = &ch->ranks[b->rank];
	const struct ctl_bank_group *group = &ch->bank_groups[b->rank_bg];
	const uint64_t *timing = d->cfg.t;
	uint64_t t = max64(ch->now, local->ready);
	c->bank = bi;
	c->rank = b->rank;
	c->cmd = local->cmd;
	c->req = local->req;
	c->prev = local->prev;
	c->age = local->age;
	if (local->cmd == CMD_COL) {
		t = max64(t, rk->last_col + timing[T_CCD_S]);
		t = max64(t, group->last_col + timing[T_CCD_L]);
		uint64_t bus = ch->bus_end;
		if (ch->bus_used && ch->bus_rank != b->rank)
			bus += timing[T_RTRS];
		if (w) {
			if (ch->bus_used && !ch->bus_write)
				bus += timing[T_RTW];
			t = max64(t, bus > timing[T_CWL] ? bus - timing[T_CWL] : 0);
		} else {
			t = max64(t, rk->last_write_end + timing[T_WTR_S]);
			t = max64(t, group->last_write_end + timing[T_WTR_L]);
			t = max64(t, bus > timing[T_CL] ? bus - timing[T_CL] : 0);
		}
		c->t = t; /* (every time here is on a clock edge) */
	} else if (local->cmd == CMD_PRE) {
		c->t = t;
	} else {
		t = max64(t, rk->last_act + timing[T_RRD_S]);
		t = max64(t, group->last_act + timing[T_RRD_L]);
		t = max64(t, rk->faw_acts[rk->faw_next] + timing[T_FAW]);
		t = max64(t, rk->refresh_end);
		c->t = t;
	}
}

/* Does a request queued in either direction hit row `row` of bank b? */
static int row_wanted(const struct ctl_chan *ch, const struct ctl_bank *b, int64_t row)
{
	for (unsigned w = 0; w < 2; w++)
		for (int i = b->queue_head[w]; i >= 0; i = ch->entries[i].next)
			if (ch->entries[i].row == row)
				return 1;
	return 0;
}

/* Issue command c: the state it changes, and for a column command its
 * burst, statistics and (a read) its ticket's completion. */
static void issue(struct ddrctl *d, struct ctl_chan *ch, const struct cmd_choice *c)
{
	const uint64_t *timing = d->cfg.t;
	uint64_t t = c->t;
	if (c->cmd == CMD_REF) {
		struct ctl_rank *rk = &ch->ranks[c->rank];
		rk->refresh_end = t + timing[T_RFC];
		rk->refresh_due += timing[T_REFI];
		for (unsigned i = 0; i < d->nbanks; i++) {
			struct ctl_bank *b = &ch->banks[i];
			if (b->rank != c->rank)
				continue;
			b->open_row = -1;
			b->earliest_act = max64(b->earliest_act, rk->refresh_end);
			ch->bank_next[2 * i].valid = ch->bank_next[2 * i + 1].valid = 0;
		}
		d->stats.ref_stalls++;
		return;
	}
	struct ctl_bank *b = &ch->banks[c->bank];
	struct ctl_rank *rk = &ch->ranks[b->rank];
	struct ctl_bank_group *group = &ch->bank_groups[b->rank_bg];
	struct queued_req *q = &ch->entries[c->req];
	ch->bank_next[2 * c->bank].valid = ch->bank_next[2 * c->bank + 1].valid = 0;
	if (c->cmd == CMD_PRE) {
		b->open_row = -1;
		b->earliest_act = max64(b->earliest_act, t + timing[T_RP]);
		if (q->outcome == ROW_UNKNOWN)
			q->outcome = ROW_CONFLICT;
		return;
	}
	if (c->cmd == CMD_ACT) {
		b->open_row = q->row;
		b->act_at = t;
		b->earliest_pre = t + timing[T_RAS];
		b->earliest_act = t + timing[T_RC];
		rk->last_act = t;
		rk->faw_acts[rk->faw_next] = t;
		rk->faw_next = (rk->faw_next + 1) & 3;
		group->last_act = t;
		if (q->outcome == ROW_UNKNOWN)
			q->outcome = ROW_EMPTY;
		return;
	}
	/* a column command */
	unsigned w = q->is_write;
	if (q->outcome == ROW_UNKNOWN)
		q->outcome = ROW_HIT;
	if (q->outcome == ROW_HIT)
		d->stats.hits++;
	else if (q->outcome == ROW_EMPTY)
		d->stats.empties++;
	else
		d->stats.conflicts++;
	if (c->req == b->queue_head[w])
		b->hits_past_head[w] = 0;
	else
		b->hits_past_head[w]++;
	rk->last_col = t;
	group->last_col = t;
	uint64_t data_start = t + (w ? timing[T_CWL] : timing[T_CL]), data_end = data_start + d->cfg.burst;
	if (ch->bus_used && ch->bus_write != w) {
		if (w)
			d->stats.rtw++;
		else
			d->stats.wtr++;
	}
	ch->bus_end = data_end;
	ch->bus_rank = b->rank;
	ch->bus_write = w;
	ch->bus_used = 1;
	d->stats.busy_t += d->cfg.burst;
	if (data_end - d->base > d->stats.last_t)
		d->stats.last_t = data_end - d->base;
	if (w) {
		rk->last_write_end = data_end;
		group->last_write_end = data_end;
		b->earliest_pre = max64(b->earliest_pre, data_end + timing[T_WR]);
		d->stats.wq_res_t += t - q->entered;
	} else {
		b->earliest_pre = max64(b->earliest_pre, t + timing[T_RTP]);
		d->stats.rq_res_t += t - q->entered;
		ticket_set(d, q->ticket, t2cyc_up(data_end + d->to_llc - d->base));
	}
	int64_t row = q->row;
	dequeue(d, ch, b, c->prev, c->req);
	if (d->cfg.closed_page && !row_wanted(ch, b, row)) { /* auto-precharge */
		b->open_row = -1;
		b->earliest_act = max64(b->earliest_act, b->earliest_pre + timing[T_RP]);
	}
}

/* Read or write mode (write drain watermarks). */
static void drain_mode(struct ddrctl *d, struct ctl_chan *ch)
{
	if (!ch->draining) {
		if (ch->queued[1] >= d->cfg.wq_high || (ch->queued[1] && !ch->queued[0])) {
			ch->draining = 1;
			d->stats.drains++;
		}
	} else if (!ch->queued[1] || (ch->queued[1] <= d->cfg.wq_low && ch->queued[0])) {
		ch->draining = 0;
	}
}

/* Decide every command of ch that issues before tick end. */
static void run_until(struct ddrctl *d, struct ctl_chan *ch, uint64_t end)
{
	const uint64_t tck = d->cfg.tck;
	if (!ch->changed && end <= ch->next_event) { /* nothing to decide before end */
		if (end > ch->now)
			ch->now = end / tck * tck;
		return;
	}
	ch->changed = 0;
	for (;;) {
		if ((ch->recheck_waiting && (ch->waiting_mask[0] | ch->waiting_mask[1])) ||
		    (ch->narrivals && ch->arrivals[ch->arrivals_head].at <= ch->now))
			admit_waiting(d, ch);
		drain_mode(d, ch);
		struct cmd_choice best = { NOTIME, 0, CMD_NONE, -1, -1, 0, 0 }, c;
		unsigned w = (unsigned)ch->draining;
		for (unsigned k = 0; k < ch->has_queued_words; k++)
			for (uint64_t m = ch->has_queued[w][k]; m; m &= m - 1) {
				unsigned bi = k * 64 + (unsigned)__builtin_ctzll(m);
				bank_candidate(d, ch, bi, w, &c);
				if (c.t >= ch->ranks[c.rank].refresh_due) /* after its rank's refresh is due */
					continue;
				if (c.t < best.t ||
				    (c.t == best.t && ((c.cmd == CMD_COL) > (best.cmd == CMD_COL) ||
				                       ((c.cmd == CMD_COL) == (best.cmd == CMD_COL) && c.age < best.age))))
					best = c;
			}
		/* refresh: when due, after its rank's open rows can close (the
		 * precharge folded in); it wins a tie */
		for (unsigned r = 0; r < d->cfg.ranks; r++) {
			struct ctl_rank *rk = &ch->ranks[r];
			if (rk->refresh_due > best.t)
				continue;
			uint64_t t = max64(ch->now, rk->refresh_due);
			unsigned rank_banks = d->cfg.bank_groups * d->cfg.banks_per_group;
			for (unsigned i = r * rank_banks; i < (r + 1) * rank_banks; i++)
				if (ch->banks[i].open_row >= 0)
					t = max64(t, ch->banks[i].earliest_pre + d->cfg.t[T_RP]);
			if (t <= best.t) {
				best.t = t;
				best.cmd = CMD_REF;
				best.rank = r;
			}
		}
		uint64_t arrival = next_arrival(ch);
		if (arrival < end && arrival < best.t) { /* it may change the choice */
			ch->now = round_up(arrival, tck);
			continue;
		}
		if (best.cmd == CMD_NONE || best.t >= end) {
			ch->next_event = arrival < best.t ? arrival : best.t;
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
	struct ddrctl *d = st;
	if (t <= d->synced)
		return;
	d->synced = t;
	uint64_t end = CYC2T(t) + d->to_ctl + d->base;
	for (unsigned i = 0; i < d->cfg.channels; i++)
		run_until(d, &d->chans[i], end);
	d->frontier = end;
}

uint64_t ddrctl_wait(void *st, uint64_t pend)
{
	struct ddrctl *d = st;
	uint64_t c;
	while (!(c = ddrctl_resolve(d, pend)))
		ddrctl_sync(d, d->synced + 64);
	return c;
}

/* ---- the model's functions ------------------------------------------------------------ */

static void ctl_destroy(void *st)
{
	struct ddrctl *d = st;
	if (!d)
		return;
	if (d->chans)
		for (unsigned i = 0; i < d->cfg.channels; i++) {
			struct ctl_chan *ch = &d->chans[i];
			free(ch->entries);
			free(ch->banks);
			free(ch->bank_next);
			free(ch->ranks);
			free(ch->bank_groups);
			free(ch->has_queued[0]);
			free(ch->has_queued[1]);
			free(ch->arrivals);
			for (unsigned k = 0; k < NWAITLISTS; k++)
				free(ch->waiting[k].items);
		}
	free(d->chans);
	free(d->ticket_id);
	free(d->ticket_done);
	free(d->ticket_sent);
	ddr_config_free(&d->cfg);
	free(d);
}

static void *ctl_create(const struct memsys_cfg *cfg, char *err, size_t errlen)
{
	struct ddrctl *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	if (ddr_config_resolve(cfg, &d->cfg, err, errlen)) {
		free(d);
		return NULL;
	}
	d->to_ctl = d->cfg.frontend / 2 / d->cfg.tck * d->cfg.tck; /* (a whole number of clocks) */
	d->to_llc = d->cfg.frontend - d->to_ctl;
	d->read_latency = d->cfg.t[T_CL] + d->cfg.burst + d->to_llc;
	d->nbanks = d->cfg.ranks * d->cfg.bank_groups * d->cfg.banks_per_group;
	d->base = d->cfg.tck << 32; /* (more than any timing: at most 10^6 clocks) */
	d->frontier = d->base;
	d->ticket_mask = 4095;
	d->ticket_id = calloc(d->ticket_mask + 1, sizeof *d->ticket_id);
	d->ticket_done = calloc(d->ticket_mask + 1, sizeof *d->ticket_done);
	d->chans = calloc(d->cfg.channels, sizeof *d->chans);
	if (!d->ticket_id || !d->ticket_done || !d->chans)
		goto oom;
	unsigned ne = d->cfg.rq_entries + d->cfg.wq_entries;
	for (unsigned i = 0; i < d->cfg.channels; i++) {
		struct ctl_chan *ch = &d->chans[i];
		ch->entries = calloc(ne, sizeof *ch->entries);
		ch->banks = calloc(d->nbanks, sizeof *ch->banks);
		ch->bank_next = calloc(2 * (size_t)d->nbanks, sizeof *ch->bank_next);
		ch->ranks = calloc(d->cfg.ranks, sizeof *ch->ranks);
		ch->bank_groups = calloc((size_t)d->cfg.ranks * d->cfg.bank_groups, sizeof *ch->bank_groups);
		ch->has_queued_words = (d->nbanks + 63) / 64;
		ch->has_queued[0] = calloc(ch->has_queued_words, sizeof(uint64_t));
		ch->has_queued[1] = calloc(ch->has_queued_words, sizeof(uint64_t));
		ch->arrivals_cap = 256;
		ch->arrivals = calloc(ch->arrivals_cap, sizeof *ch->arrivals);
		if (!ch->entries || !ch->banks || !ch->bank_next || !ch->ranks || !ch->bank_groups || !ch->has_queued[0] ||
		    !ch->has_queued[1] || !ch->arrivals)
			goto oom;
		for (unsigned k = 0; k < ne; k++)
			ch->entries[k].next = k + 1 < ne ? (int)k + 1 : -1;
		ch->free_list = 0;
		for (unsigned b = 0; b < d->nbanks; b++) {
			struct ctl_bank *bank = &ch->banks[b];
			bank->open_row = -1;
			bank->queue_head[0] = bank->queue_head[1] = bank->queue_tail[0] = bank->queue_tail[1] = -1;
			bank->rank = b / (d->cfg.bank_groups * d->cfg.banks_per_group);
			bank->rank_bg = b / d->cfg.banks_per_group;
		}
		/* rank r refreshes at r * tREFI / ranks + k * tREFI, k >= 1 (as ddr-resv) */
		uint64_t refi = d->cfg.t[T_REFI];
		for (unsigned r = 0; r < d->cfg.ranks; r++)
			ch->ranks[r].refresh_due = refi / d->cfg.tck * r / d->cfg.ranks * d->cfg.tck + refi + d->base;
	}
	return d;
oom:
	ctl_destroy(d);
	snprintf(err, errlen, "ddr: out of memory");
	return NULL;
}

static uint64_t ctl_request(void *st, uint64_t la, int w, uint64_t now, unsigned src)
{
	struct ddrctl *d = st;
	struct ddr_loc l;
	ddr_map(&d->cfg, la, &l);
	struct ctl_chan *ch = &d->chans[l.channel];
	uint64_t t = round_up(CYC2T(now) + d->to_ctl + d->base, d->cfg.tck);
	if (!d->stats.first_t || CYC2T(now) < d->stats.first_t)
		d->stats.first_t = CYC2T(now) ? CYC2T(now) : 1;
	if (t < ch->now) { /* a request from before the frontier: a caller without look-ahead */
		d->stats.late++;
		t = ch->now;
	}
	src &= (MEMSYS_MAX_HARTS - 1) | MEMMODEL_PF;
	if (!w && ch->writes_per_bucket[la & 1023]) {
		/* a read of a line still queued (or waiting) to be written */
		int found = 0;
		for (unsigned j = ch->arrivals_head; j < ch->arrivals_head + ch->narrivals && !found; j++)
			found = ch->arrivals[j].is_write && ch->arrivals[j].line == la;
		const struct arrival_fifo *f = &ch->waiting[WAIT_WRITES];
		for (unsigned j = 0; j < f->n && !found; j++)
			found = f->items[(f->head + j) % f->cap].line == la;
		if (found) {
			d->stats.reads++;
			d->stats.fwd++;
			return now + t2cyc_up(d->cfg.frontend) + 1;
		}
		struct ctl_bank *b = &ch->banks[l.bank];
		for (int i = b->queue_head[1]; i >= 0; i = ch->entries[i].next)
			if (ch->entries[i].line == la) {
				d->stats.reads++;
				d->stats.fwd++;
				return now + t2cyc_up(d->cfg.frontend) + 1;
			}
	}
	if (ch->arrivals_head + ch->narrivals == ch->arrivals_cap) {
		if (ch->arrivals_head) {
			memmove(ch->arrivals, ch->arrivals + ch->arrivals_head, ch->narrivals * sizeof *ch->arrivals);
			ch->arrivals_head = 0;
		} else {
			ch->arrivals_cap *= 2;
			struct arrival *n = realloc(ch->arrivals, ch->arrivals_cap * sizeof *ch->arrivals);
			if (!n) {
				fprintf(stderr, "ddr: out of memory (ingress)\n");
				abort();
			}
			ch->arrivals = n;
		}
	}
	/* in arrival order (requests come nearly in order: from the back) */
	unsigned j = ch->arrivals_head + ch->narrivals;
	while (j > ch->arrivals_head && ch->arrivals[j - 1].at > t) {
		ch->arrivals[j] = ch->arrivals[j - 1];
		j--;
	}
	struct arrival *a = &ch->arrivals[j];
	ch->changed = 1;
	a->line = la;
	a->at = t;
	a->src = src;
	a->is_write = (unsigned)w;
	a->ticket = 0;
	a->order = d->next_order++;
	ch->narrivals++;
	if (w) {
		d->stats.writes++;
		ch->writes_per_bucket[la & 1023]++;
		return now + 1; /* posted */
	}
	d->stats.reads++;
	ch->reads_pending++;
	if (d->cfg.pf_room && !(src & MEMMODEL_PF) && ch->src_pending[src & (MEMSYS_MAX_HARTS - 1)]++ >= d->cfg.src_rq)
		ch->over_share++;
	a->ticket = ticket_new(d, now);
	return MEMSYS_PEND | a->ticket;
}

/* A prefetch is dropped while the channel's reads fill its read queue:
 * those pending, less with ddr-pf-room those waiting beyond their hart's
 * share (outside the queue). */
static uint64_t ctl_admit(void *st, uint64_t la, uint64_t now, unsigned src)
{
	struct ddrctl *d = st;
	if (!(src & MEMMODEL_PF))
		return now;
	struct ddr_loc l;
	ddr_map(&d->cfg, la, &l);
	const struct ctl_chan *ch = &d->chans[l.channel];
	return ch->reads_pending - ch->over_share >= d->cfg.rq_entries ? now + 1 : now;
}

static void ctl_stats(const void *st, struct memsys_model_stats *s)
{
	ddr_stats_report(&((const struct ddrctl *)st)->stats, s);
	s->ddr.ctl = 1;
}

static uint64_t ctl_peak(const void *st) { return ((const struct ddrctl *)st)->cfg.peak_mbps; }

const struct memmodel_ops memmodel_ddrctl = {
	"ddr", "JEDEC-timed DDR4/DDR5 channels, ranks, bank groups, banks behind a controller that decides "
	"when each command issues: FR-FCFS, write drain, refresh (the ddr-* keys)",
	ddr_config_keys, DDR_CONFIG_NKEYS, ddr_config_defaults, ddr_config_check,
	ctl_create, ctl_request, ctl_stats, ctl_peak, ctl_destroy, ctl_admit,
};
