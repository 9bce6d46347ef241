/* Weak memory and fault injection: see wmem.h. */
#include "sim/wmem.h"
#include "sim/memsys.h"
#include "sim/l1d.h"
#include "rvmess/rng.h"

#include <stdlib.h>
#include <string.h>

#define WM_SB_MAX   128   /* functional entries per hart (beyond the timing depth) */
#define WM_STALE    16    /* stale entries per hart */
#define WM_STALE_CYCLES 4000

/* rvwmo: the write history (the last WM_HIST commits of 8-byte words, with
 * hash chains per word) and the knobs of the relaxations it allows. */
#define WM_HIST     16384u  /* versions kept (a power of two) */
#define WM_BUCKETS  65536u  /* hash chains (a power of two) */
#define WM_CAND     8       /* versions a load chooses among */

struct wm_entry {
	uint64_t off, val, due;
	uint64_t dview;   /* rvwmo: view of the store's address and data registers */
	unsigned size;
};

struct wm_stale {
	uint64_t off, val, until;
	unsigned size;
};

/* One committed write's version of an aligned 8-byte word (rvwmo). */
struct wm_ver {
	uint64_t ts;      /* commit number (0: slot unused) */
	uint64_t word;    /* RAM offset / 8 */
	uint64_t val;     /* the word after the write */
	uint64_t cycle;   /* when it became visible */
	uint64_t seen;    /* harts that read or wrote it (bit per hart) */
	uint64_t prev;    /* ts of the previous version in the same hash chain, 0 none */
};

struct wm_hart {
	struct wm_entry e[WM_SB_MAX];
	unsigned head, count;
	uint64_t last_due;
	struct wm_stale st[WM_STALE];
	unsigned st_next;
	/* rvwmo views (commit numbers): the newest version read (vr_old) and
	 * written (vw_old), the lower bound of later loads' versions (vr_new,
	 * raised by fences, AMOs and LR/SC), each register's (reg) */
	uint64_t vr_old, vw_old, vr_new;
	uint64_t floor;   /* rvwmo: stores after a fence w,w drain no earlier than this */
	uint64_t reg[33];
};

struct wm {
	int order;               /* SIM_MO_* */
	int weak;                /* --memory-order tso|rvwmo or an --inject (else only l1d) */
	struct l1d *l1d;         /* --inject lost-inval: one per hart (l1d.h), else NULL */
	uint64_t fault_lo;       /* faults touch RAM offsets at or above this (the heap) */
	struct rng rng;
	uint8_t *last_writer;    /* lost-write: hart + 1 of the last store per line, 0 none */
	uint64_t nlines;
	uint64_t forwards, buffered, drained;
	uint64_t reordered, old_loads; /* rvwmo: stores drained past an older one, loads of an older version */
	uint64_t events[SIM_NFAULTS];
	struct wm_hart *h;
	uint64_t ts;             /* rvwmo: commits so far */
	struct wm_ver *hist;     /* [WM_HIST], by ts % WM_HIST */
	uint64_t *chain;         /* [WM_BUCKETS]: ts of the newest version in each chain */
};

int wm_init(struct sim *s, char *err, size_t errlen)
{
	int any = 0;

	for (unsigned i = 0; i < SIM_NFAULTS; i++)
		any |= s->opt.inject[i] != 0 && i != SIM_F_TIMER_STUCK; /* csr.c: no memory path */
	any |= s->opt.mem_order != SIM_MO_SC;
	int l1d = s->opt.inject[SIM_F_LOST_INVAL] != 0; /* the L1D copies live on this path */
	if (!any)
		return 0;
	if (!s->opt.timing)
		return sim_fail(err, errlen, "--memory-order tso|rvwmo and --inject need the timing model (not --no-timing)");
	struct wm *w = calloc(1, sizeof(*w));
	if (!w || !(w->h = calloc(s->nharts, sizeof(*w->h))))
		goto oom;
	if (l1d && !(w->l1d = calloc(s->nharts, sizeof(*w->l1d))))
		goto oom;
	w->weak = any;
	w->order = s->opt.mem_order;
	w->fault_lo = s->image_hi > s->ram_base ? s->image_hi - s->ram_base : 0;
	rng_seed(&w->rng, s->opt.seed);
	if (s->opt.inject[SIM_F_LOST_WRITE]) {
		w->nlines = s->ram_size / 64;
		if (!(w->last_writer = calloc(w->nlines, 1)))
			goto oom;
	}
	if (w->order == SIM_MO_RVWMO &&
	    (!(w->hist = calloc(WM_HIST, sizeof(*w->hist))) || !(w->chain = calloc(WM_BUCKETS, sizeof(*w->chain)))))
		goto oom;
	if (s->opt.inject[SIM_F_CLEAN_WB] && s->ms)
		memsys_inject_clean_wb(s->ms, s->opt.inject[SIM_F_CLEAN_WB], s->opt.seed);
	s->wm = w;
	return 0;
oom:
	if (w) {
		s->wm = w;
		wm_free(s);
	}
	return sim_fail(err, errlen, "out of memory");
}

void wm_free(struct sim *s)
{
	if (!s->wm)
		return;
	free(s->wm->hist);
	free(s->wm->chain);
	free(s->wm->last_writer);
	free(s->wm->l1d);
	free(s->wm->h);
	free(s->wm);
	s->wm = NULL;
}

int wm_fault(struct sim *s, unsigned fault, uint64_t off)
{
	struct wm *w = s->wm;
	unsigned rate;

	if (!w || !(rate = s->opt.inject[fault]))
		return 0;
	if (off != ~0ull && off < w->fault_lo)
		return 0;
	if (rate < 100 && (rng_next(&w->rng) >> 33) % 100 >= rate)
		return 0;
	w->events[fault]++;
	return 1;
}

static uint64_t ram_get(const struct sim *s, uint64_t off, unsigned size)
{
	uint64_t v = 0;
	memcpy(&v, s->ram + off, size); /* little-endian host */
	return v;
}

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* ---- rvwmo: versions -------------------------------------------------------- */

static unsigned bucket(uint64_t word)
{
	return (unsigned)((word * 0x9e3779b97f4a7c15ull) >> 48) & (WM_BUCKETS - 1);
}

/* The version with commit number ts, or NULL when it has left the history. */
static struct wm_ver *ver_at(struct wm *w, uint64_t ts)
{
	struct wm_ver *v = &w->hist[ts % WM_HIST];
	return ts && v->ts == ts ? v : NULL;
}

/* A write by h of [off, off+size) just reached RAM at `cycle`: one new
 * version of each word it touched. */
static void ver_add(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t cycle)
{
	struct wm *w = s->wm;
	struct wm_hart *b = &w->h[h->id];

	for (uint64_t word = off >> 3; word <= (off + size - 1) >> 3; word++) {
		uint64_t ts = ++w->ts;
		struct wm_ver *v = &w->hist[ts % WM_HIST];
		unsigned k = bucket(word);
		v->ts = ts;
		v->word = word;
		v->val = ram_get(s, word * 8, 8);
		v->cycle = cycle;
		v->seen = 1ull << h->id;
		v->prev = w->chain[k];
		w->chain[k] = ts;
		b->vw_old = ts;
	}
}

/*
 * The value an rvwmo load of [off, off+size) (within one word) by h reads
 * at `now`, at least as new as `vpre` (its ordering view): the newest
 * version, or with probability 1/2 one of the older ones it may still see.
 * A version is readable when no newer version of the word is at or below
 * vpre, h has not read or written a newer one (coherence), and the next
 * newer one became visible less than WM_RV_WINDOW cycles ago (an
 * invalidation still on its way).  *vpost gets the load's view.
 */
static uint64_t ver_load(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t now,
                         uint64_t vpre, uint64_t *vpost)
{
	struct wm *w = s->wm;
	uint64_t word = off >> 3, bit = 1ull << h->id;
	struct wm_ver *cand[WM_CAND];
	unsigned n = 0;

	for (struct wm_ver *v = ver_at(w, w->chain[bucket(word)]); v; v = ver_at(w, v->prev)) {
		if (v->word != word)
			continue;
		if (n && cand[n - 1]->cycle + WM_RV_WINDOW <= now)
			break; /* the newer one is everywhere by now */
		cand[n++] = v;
		if (v->ts <= vpre || (v->seen & bit) || n == WM_CAND)
			break;
	}
	if (!n) { /* not written within the history: older than all of it */
		*vpost = max64(vpre, w->ts > WM_HIST ? w->ts - WM_HIST : 0);
		return ram_get(s, off, size);
	}
	unsigned k = 0;
	if (n > 1 && (rng_next(&w->rng) >> 63))
		k = 1 + (unsigned)((rng_next(&w->rng) >> 33) % (n - 1));
	struct wm_ver *v = cand[k];
	v->seen |= bit;
	*vpost = max64(vpre, v->ts);
	if (k) {
		w->old_loads++;
		uint64_t x = v->val >> (8 * (off & 7));
		return size == 8 ? x : x & ((1ull << (8 * size)) - 1);
	}
	return ram_get(s, off, size);
}

/* ---- the store buffer -------------------------------------------------------- */

/* The store's way to RAM: the faults that act there, then the write. */
static void commit(struct sim *s, struct sim_hart *h, const struct wm_entry *e)
{
	struct wm *w = s->wm;

	if (s->opt.inject[SIM_F_LOST_WRITE] && e->off >= w->fault_lo) {
		uint64_t line = e->off / 64;
		uint8_t prev = w->last_writer[line];
		w->last_writer[line] = (uint8_t)(h->id + 1);
		if (prev && prev != h->id + 1 && wm_fault(s, SIM_F_LOST_WRITE, e->off))
			return; /* the line moved between caches and the write went missing */
	}
	if (s->opt.inject[SIM_F_STALE_READ] && e->off >= w->fault_lo) {
		uint64_t old = ram_get(s, e->off, e->size);
		for (unsigned i = 0; i < s->nharts; i++) {
			struct wm_hart *o = &w->h[i];
			if (i == h->id || !wm_fault(s, SIM_F_STALE_READ, e->off))
				continue;
			/* hart i missed the invalidation: it keeps the old value a while */
			struct wm_stale *st = &o->st[o->st_next++ % WM_STALE];
			st->off = e->off;
			st->size = e->size;
			st->val = old;
			st->until = e->due + WM_STALE_CYCLES;
		}
		struct wm_hart *me = &w->h[h->id];
		for (unsigned i = 0; i < WM_STALE; i++)
			if (me->st[i].size && me->st[i].off < e->off + e->size && e->off < me->st[i].off + me->st[i].size)
				me->st[i].size = 0;
	}
	sim_ram_write(s, h, e->off, e->size, e->val);
	if (w->l1d) { /* write-through: the hart's own copy follows */
		l1d_store(&w->l1d[h->id], e->off, e->size, e->val);
		wm_l1d_inval(s, h, e->off, e->size);
	}
	if (w->hist)
		ver_add(s, h, e->off, e->size, e->due);
}

static struct wm_entry *sb_at(struct wm_hart *b, unsigned k)
{
	return &b->e[(b->head + k) % WM_SB_MAX];
}

/* rvwmo: the index of the entry below RAM offset `lo` to drain next at
 * `now` (the smallest due, the oldest among equals), or count when none is
 * due. */
static unsigned rv_next(const struct wm_hart *b, uint64_t now, uint64_t lo)
{
	unsigned best = b->count;
	uint64_t due = now;
	for (unsigned k = 0; k < b->count; k++) {
		const struct wm_entry *e = &b->e[(b->head + k) % WM_SB_MAX];
		if (e->off >= lo)
			continue;
		if (e->due < due || (e->due == due && best == b->count)) {
			best = k;
			due = e->due;
		}
	}
	return best;
}

/* Drain the entries below RAM offset lo due at `now` (rvwmo; tso and sc:
 * all, in order). */
static void drain(struct sim *s, struct sim_hart *h, uint64_t now, uint64_t lo)
{
	struct wm *w = s->wm;
	struct wm_hart *b = &w->h[h->id];

	if (w->order != SIM_MO_RVWMO) {
		while (b->count && b->e[b->head].due <= now) {
			struct wm_entry e = b->e[b->head];
			b->head = (b->head + 1) % WM_SB_MAX;
			b->count--;
			w->drained++;
			commit(s, h, &e);
		}
		return;
	}
	for (unsigned k; (k = rv_next(b, now, lo)) < b->count;) {
		struct wm_entry e = *sb_at(b, k);
		if (k)
			w->reordered++;
		for (unsigned i = k; i + 1 < b->count; i++) /* close the gap */
			*sb_at(b, i) = *sb_at(b, i + 1);
		b->count--;
		w->drained++;
		commit(s, h, &e);
	}
}

void wm_drain(struct sim *s, struct sim_hart *h, uint64_t now)
{
	drain(s, h, now, UINT64_MAX);
}

void wm_drain_all(struct sim *s, struct sim_hart *h)
{
	wm_drain(s, h, UINT64_MAX);
}

static void defer(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t v,
                  uint64_t due, uint64_t now, uint64_t dview);

uint64_t wm_load_v(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t now,
                   uint64_t vaddr, uint64_t *vpost)
{
	struct wm *w = s->wm;
	struct wm_hart *b = &w->h[h->id];
	uint64_t vpre = max64(vaddr, b->vr_new), v;

	wm_drain(s, h, now);
	*vpost = vpre;
	for (unsigned k = b->count; k-- > 0;) {
		const struct wm_entry *e = sb_at(b, k);
		if (e->off >= off + size || off >= e->off + e->size)
			continue;
		if (off >= e->off && off + size <= e->off + e->size) {
			v = e->val >> (8 * (off - e->off));
			w->forwards++;
			*vpost = max64(vpre, e->dview);
			return size == 8 ? v : v & ((1ull << (8 * size)) - 1);
		}
		wm_drain_all(s, h); /* partly covered: let the buffer out first */
		break;
	}
	for (unsigned i = 0; i < WM_STALE; i++) {
		struct wm_stale *st = &b->st[i];
		if (st->size == size && st->off == off && now < st->until)
			return st->val;
	}
	if (w->l1d && (h->dcache & 1)) /* never with rvwmo (sim_init) */
		return l1d_load(&w->l1d[h->id], s->ram, off, size);
	if (!w->hist)
		return ram_get(s, off, size);
	if ((off & 7) + size > 8) { /* across two words: the newest of both */
		*vpost = max64(vpre, w->ts);
		v = ram_get(s, off, size);
	} else {
		v = ver_load(s, h, off, size, now, vpre, vpost);
	}
	b->vr_old = max64(b->vr_old, *vpost);
	return v;
}

uint64_t wm_load(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t now)
{
	uint64_t vp;
	return wm_load_v(s, h, off, size, now, 0, &vp);
}

void wm_store_v(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t v,
                uint64_t due, uint64_t now, uint64_t dview)
{
	struct wm *w = s->wm;

	if (w->order == SIM_MO_SC) {
		if (w->h[h->id].count == 0) { /* sc: visible at once */
			struct wm_entry e = { off, v, now, 0, size };
			w->drained++;
			commit(s, h, &e);
			return;
		}
		due = now; /* behind a lagging AMO store: in order after it */
	} else if (w->order == SIM_MO_RVWMO) {
		due += (rng_next(&w->rng) >> 33) % WM_RV_JITTER;
	}
	defer(s, h, off, size, v, due, now, dview);
}

void wm_store(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t v,
              uint64_t due, uint64_t now)
{
	wm_store_v(s, h, off, size, v, due, now, 0);
}

static void defer(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t v,
                  uint64_t due, uint64_t now, uint64_t dview)
{
	struct wm *w = s->wm;
	struct wm_hart *b = &w->h[h->id];

	if (b->count == WM_SB_MAX)
		wm_drain_all(s, h);
	if (w->order == SIM_MO_RVWMO) {
		/* not before a fence w,w's floor, nor before an older store to
		 * the same line (coherence) */
		due = max64(due, b->floor);
		for (unsigned k = 0; k < b->count; k++) {
			const struct wm_entry *o = sb_at(b, k);
			if (o->off / 64 <= (off + size - 1) / 64 && off / 64 <= (o->off + o->size - 1) / 64)
				due = max64(due, o->due);
		}
	} else if (due < b->last_due)
		due = b->last_due; /* tso, sc: in order */
	b->last_due = due;
	struct wm_entry *e = sb_at(b, b->count++);
	e->off = off;
	e->size = size;
	e->val = size == 8 ? v : v & ((1ull << (8 * size)) - 1);
	e->due = due;
	e->dview = dview;
	w->buffered++;
	wm_drain(s, h, now);
}

void wm_defer(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t v,
              uint64_t due, uint64_t now)
{
	defer(s, h, off, size, v, due, now, 0);
}

/* ---- rvwmo: ordering points ------------------------------------------------- */

uint64_t *wm_regview(struct sim *s, struct sim_hart *h)
{
	return s->wm->h[h->id].reg;
}

int wm_wrong_ack(struct sim *s, struct sim_hart *h, uint64_t now)
{
	struct wm_hart *b = &s->wm->h[h->id];

	/* eligible: some stores buffered, all of them in the heap (like the
	 * other faults, it leaves the image's own data alone) */
	if (!b->count)
		return 0;
	for (unsigned k = 0; k < b->count; k++)
		if (sb_at(b, k)->off < s->wm->fault_lo)
			return 0;
	if (!wm_fault(s, SIM_F_WRONG_ACK, ~0ull))
		return 0;
	/* acknowledged now, visible only WM_ACK_LAG cycles later */
	for (unsigned k = 0; k < b->count; k++) {
		struct wm_entry *e = sb_at(b, k);
		e->due = max64(e->due, now + WM_ACK_LAG);
		b->last_due = max64(b->last_due, e->due);
	}
	return 1;
}

void wm_fence(struct sim *s, struct sim_hart *h, unsigned bits, int heap_passes)
{
	struct wm_hart *b = &s->wm->h[h->id];
	uint64_t lo = heap_passes ? s->wm->fault_lo : UINT64_MAX; /* the stores it orders: below lo */
	unsigned fm = bits >> 8, pred = bits >> 4 & 15, succ = bits & 15;
	int pr = (pred & 0xa) != 0, pw = (pred & 0x5) != 0; /* I counts as R, O as W */
	int sr = (succ & 0xa) != 0, sw = (succ & 0x5) != 0;
	int tso = fm == 8 && pred == 3 && succ == 3;

	if (pr && sr)
		b->vr_new = max64(b->vr_new, b->vr_old);
	/* R -> W holds without a fence: a store reaches RAM only after the
	 * loads before it have read */
	if (pw && sr && !tso) {
		drain(s, h, UINT64_MAX, lo);
		b->vr_new = max64(b->vr_new, b->vw_old);
	}
	if (pw && sw)
		for (unsigned k = 0; k < b->count; k++)
			if (sb_at(b, k)->off < lo)
				b->floor = max64(b->floor, sb_at(b, k)->due);
}

uint64_t wm_sync(struct sim *s, struct sim_hart *h)
{
	struct wm *w = s->wm;
	struct wm_hart *b = &w->h[h->id];
	b->vr_new = b->vr_old = max64(b->vr_new, w->ts);
	return w->ts;
}

void wm_write(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t v, uint64_t now)
{
	/* not through commit(): the faults that act on buffered stores leave
	 * AMOs and SCs alone, as under tso */
	sim_ram_write(s, h, off, size, v);
	if (s->wm->hist)
		ver_add(s, h, off, size, now);
}

void wm_l1d_drop(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size)
{
	if (s->wm->l1d)
		l1d_drop(&s->wm->l1d[h->id], off, size);
}

void wm_l1d_inval(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size)
{
	struct wm *w = s->wm;

	if (!w->l1d)
		return;
	for (unsigned i = 0; i < s->nharts; i++)
		if (i != h->id && l1d_holds(&w->l1d[i], off, size) && !wm_fault(s, SIM_F_LOST_INVAL, ~0ull))
			l1d_drop(&w->l1d[i], off, size); /* delivered */
}

void wm_l1d_clear(struct sim *s, struct sim_hart *h)
{
	if (s->wm && s->wm->l1d)
		l1d_clear(&s->wm->l1d[h->id]);
}

void wm_print_stats(const struct sim *s, FILE *f)
{
	const struct wm *w = s->wm;
	static const char *const names[] = { "sc", "tso", "rvwmo" };

	if (!w)
		return;
	if (w->l1d) {
		uint64_t hit = 0, miss = 0, stale = 0;
		for (unsigned i = 0; i < s->nharts; i++) {
			hit += w->l1d[i].hits;
			miss += w->l1d[i].misses;
			stale += w->l1d[i].stale_hits;
		}
		fprintf(f, "  lost-inval: l1d line_hits=%llu line_misses=%llu stale_hits=%llu\n",
		        (unsigned long long)hit, (unsigned long long)miss, (unsigned long long)stale);
	}
	if (!w->weak)
		return;
	fprintf(f, "  memory-order: %s buffered=%llu drained=%llu forwards=%llu", names[w->order],
	        (unsigned long long)w->buffered, (unsigned long long)w->drained,
	        (unsigned long long)w->forwards);
	if (w->order == SIM_MO_RVWMO)
		fprintf(f, " reordered=%llu old_loads=%llu", (unsigned long long)w->reordered,
		        (unsigned long long)w->old_loads);
	fprintf(f, "\n  injected:");
	for (unsigned i = 0; i < SIM_NFAULTS; i++)
		if (s->opt.inject[i] && i != SIM_F_TIMER_STUCK)
			fprintf(f, " %s=%llu", sim_fault_names[i],
			        (unsigned long long)(i == SIM_F_CLEAN_WB && s->ms ? memsys_clean_wb_events(s->ms) : w->events[i]));
	fprintf(f, "\n");
}
