/* A hart's non-coherent L1D data copy: see l1d.h. */
#include "sim/l1d.h"

#include <string.h>

void l1d_clear(struct l1d *c)
{
	for (unsigned i = 0; i < L1D_SETS; i++)
		for (unsigned w = 0; w < L1D_WAYS; w++)
			c->set[i][w].tag = 0;
	c->clears++;
}

static struct l1d_line *find(struct l1d *c, uint64_t line)
{
	struct l1d_line *s = c->set[line % L1D_SETS];
	for (unsigned w = 0; w < L1D_WAYS; w++)
		if (s[w].tag == line + 1)
			return &s[w];
	return NULL;
}

/* the line's copy, filled from RAM on a miss into the set's LRU way */
static struct l1d_line *fill(struct l1d *c, const uint8_t *ram, uint64_t line, uint64_t lo, uint64_t hi)
{
	struct l1d_line *l = find(c, line);
	if (l) {
		c->hits++;
		if (memcmp(l->data + lo, ram + line * L1D_LINE + lo, hi - lo))
			c->stale_hits++;
	} else {
		struct l1d_line *s = c->set[line % L1D_SETS];
		l = &s[0];
		for (unsigned w = 1; w < L1D_WAYS && l->tag; w++)
			if (!s[w].tag || s[w].used < l->used)
				l = &s[w];
		l->tag = line + 1;
		memcpy(l->data, ram + line * L1D_LINE, L1D_LINE);
		c->misses++;
	}
	l->used = ++c->tick;
	return l;
}

uint64_t l1d_load(struct l1d *c, const uint8_t *ram, uint64_t off, unsigned size)
{
	uint8_t b[8];
	for (unsigned k = 0; k < size;) {
		uint64_t a = off + k, line = a / L1D_LINE, lo = a % L1D_LINE;
		uint64_t hi = lo + (size - k) < L1D_LINE ? lo + (size - k) : L1D_LINE;
		struct l1d_line *l = fill(c, ram, line, lo, hi);
		memcpy(b + k, l->data + lo, hi - lo);
		k += (unsigned)(hi - lo);
	}
	uint64_t v = 0;
	memcpy(&v, b, size); /* little-endian host */
	return v;
}

void l1d_store(struct l1d *c, uint64_t off, unsigned size, uint64_t v)
{
	uint8_t b[8];
	memcpy(b, &v, sizeof(b));
	for (unsigned k = 0; k < size; k++) {
		struct l1d_line *l = find(c, (off + k) / L1D_LINE);
		if (l)
			l->data[(off + k) % L1D_LINE] = b[k];
	}
}

int l1d_holds(struct l1d *c, uint64_t off, unsigned size)
{
	for (uint64_t line = off / L1D_LINE; line <= (off + size - 1) / L1D_LINE; line++)
		if (find(c, line))
			return 1;
	return 0;
}

void l1d_drop(struct l1d *c, uint64_t off, unsigned size)
{
	for (uint64_t line = off / L1D_LINE; line <= (off + size - 1) / L1D_LINE; line++) {
		struct l1d_line *l = find(c, line);
		if (l)
			l->tag = 0;
	}
}
