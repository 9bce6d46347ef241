/* Weak memory and fault injection: see wmem.h. */
#include "sim/wmem.h"
#include "rvmess/rng.h"

#include <stdlib.h>
#include <string.h>

#define WM_SB_MAX   128   /* functional entries per hart (beyond the timing depth) */
#define WM_STALE    16    /* stale entries per hart */
#define WM_STALE_CYCLES 4000

struct wm_entry {
	uint64_t off, val, due;
	unsigned size;
};

struct wm_stale {
	uint64_t off, val, until;
	unsigned size;
};

struct wm_hart {
	struct wm_entry e[WM_SB_MAX];
	unsigned head, count;
	uint64_t last_due;
	struct wm_stale st[WM_STALE];
	unsigned st_next;
};

struct wm {
	int tso;
	uint64_t fault_lo;       /* faults touch RAM offsets at or above this (the heap) */
	struct rng rng;
	uint8_t *last_writer;    /* lost-write: hart + 1 of the last store per line, 0 none */
	uint64_t nlines;
	uint64_t forwards, buffered, drained;
	uint64_t events[SIM_NFAULTS];
	struct wm_hart *h;
};

int wm_init(struct sim *s, char *err, size_t errlen)
{
	int any = 0;

	for (unsigned i = 0; i < SIM_NFAULTS; i++)
		any |= s->opt.inject[i] != 0;
	if (s->opt.mem_order == SIM_MO_SC && !any)
		return 0;
	if (!s->opt.timing)
		return sim_fail(err, errlen, "--memory-order tso and --inject need the timing model (not --no-timing)");
	struct wm *w = calloc(1, sizeof(*w));
	if (!w || !(w->h = calloc(s->nharts, sizeof(*w->h)))) {
		free(w);
		return sim_fail(err, errlen, "out of memory");
	}
	w->tso = s->opt.mem_order == SIM_MO_TSO;
	w->fault_lo = s->image_hi > s->ram_base ? s->image_hi - s->ram_base : 0;
	rng_seed(&w->rng, s->opt.seed);
	if (s->opt.inject[SIM_F_LOST_WRITE]) {
		w->nlines = s->ram_size / 64;
		w->last_writer = calloc(w->nlines, 1);
		if (!w->last_writer) {
			free(w->h);
			free(w);
			return sim_fail(err, errlen, "out of memory");
		}
	}
	s->wm = w;
	return 0;
}

void wm_free(struct sim *s)
{
	if (!s->wm)
		return;
	free(s->wm->last_writer);
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
	w->drained++;
}

void wm_drain(struct sim *s, struct sim_hart *h, uint64_t now)
{
	struct wm_hart *b = &s->wm->h[h->id];

	while (b->count && b->e[b->head].due <= now) {
		struct wm_entry e = b->e[b->head];
		b->head = (b->head + 1) % WM_SB_MAX;
		b->count--;
		commit(s, h, &e);
	}
}

void wm_drain_all(struct sim *s, struct sim_hart *h)
{
	wm_drain(s, h, UINT64_MAX);
}

uint64_t wm_load(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t now)
{
	struct wm *w = s->wm;
	struct wm_hart *b = &w->h[h->id];

	wm_drain(s, h, now);
	for (unsigned k = b->count; k-- > 0;) {
		const struct wm_entry *e = &b->e[(b->head + k) % WM_SB_MAX];
		if (e->off >= off + size || off >= e->off + e->size)
			continue;
		if (off >= e->off && off + size <= e->off + e->size) {
			uint64_t v = e->val >> (8 * (off - e->off));
			w->forwards++;
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
	return ram_get(s, off, size);
}

void wm_store(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t v,
              uint64_t due, uint64_t now)
{
	if (!s->wm->tso) {
		if (s->wm->h[h->id].count == 0) { /* sc: visible at once */
			struct wm_entry e = { off, v, now, size };
			commit(s, h, &e);
			return;
		}
		due = now; /* behind a lagging AMO store: in order after it */
	}
	wm_defer(s, h, off, size, v, due, now);
}

void wm_defer(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t v,
              uint64_t due, uint64_t now)
{
	struct wm *w = s->wm;
	struct wm_hart *b = &w->h[h->id];

	if (b->count == WM_SB_MAX)
		wm_drain_all(s, h);
	if (due < b->last_due)
		due = b->last_due;
	b->last_due = due;
	struct wm_entry *e = &b->e[(b->head + b->count++) % WM_SB_MAX];
	e->off = off;
	e->size = size;
	e->val = size == 8 ? v : v & ((1ull << (8 * size)) - 1);
	e->due = due;
	w->buffered++;
	wm_drain(s, h, now);
}

void wm_print_stats(const struct sim *s, FILE *f)
{
	const struct wm *w = s->wm;

	if (!w)
		return;
	fprintf(f, "  memory-order: %s buffered=%llu drained=%llu forwards=%llu\n", w->tso ? "tso" : "sc",
	        (unsigned long long)w->buffered, (unsigned long long)w->drained,
	        (unsigned long long)w->forwards);
	fprintf(f, "  injected:");
	for (unsigned i = 0; i < SIM_NFAULTS; i++)
		if (s->opt.inject[i])
			fprintf(f, " %s=%llu", sim_fault_names[i], (unsigned long long)w->events[i]);
	fprintf(f, "\n");
}
