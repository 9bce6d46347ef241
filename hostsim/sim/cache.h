/*
 * Set-associative tag array with true LRU (per-slot use stamps), used by
 * memsys for the L1Ds and the LLC.  Tags are full line addresses (address
 * >> log2(line)); sets are indexed by the low bits of the line address.
 * Each slot keeps its line and a 2-bit state (0 = invalid, 1..3 the user's)
 * in one word next to its LRU stamp, so a set is one contiguous block.
 */
#ifndef HOSTSIM_CACHE_H
#define HOSTSIM_CACHE_H

#include <stddef.h>
#include <stdint.h>

struct cache_slot {
	uint64_t key;             /* line << 2 | state; 0 = invalid */
	uint64_t stamp;           /* LRU: larger = more recently used */
};

struct cache {
	unsigned ways;
	uint64_t nsets, set_mask;
	uint64_t clock;           /* last stamp handed out */
	struct cache_slot *s;     /* nsets * ways */
};

/* size and line in bytes; sets = size / (line * ways) must be a power of two.
 * 0, or -1 + err (`what` names the cache in the message). */
int cache_init(struct cache *c, const char *what, uint64_t size, unsigned ways, unsigned line,
               char *err, size_t errlen);
void cache_fini(struct cache *c);

static inline uint64_t cache_set_base(const struct cache *c, uint64_t line)
{
	return (line & c->set_mask) * c->ways;
}

static inline unsigned cache_state(const struct cache *c, uint64_t slot)
{
	return (unsigned)(c->s[slot].key & 3);
}

static inline uint64_t cache_line(const struct cache *c, uint64_t slot)
{
	return c->s[slot].key >> 2;
}

/* Change the state of a valid slot (0 invalidates it). */
static inline void cache_set_state(struct cache *c, uint64_t slot, unsigned st)
{
	c->s[slot].key = st ? (c->s[slot].key & ~3ull) | st : 0;
}

/* Put `line` with state st (1..3) in a slot. */
static inline void cache_fill(struct cache *c, uint64_t slot, uint64_t line, unsigned st)
{
	c->s[slot].key = line << 2 | st;
}

/* Slot holding `line`, or -1. */
static inline int64_t cache_find(const struct cache *c, uint64_t line)
{
	uint64_t b = cache_set_base(c, line), key = line << 2;
	const struct cache_slot *s = c->s + b;
	for (unsigned w = 0; w < c->ways; w++)
		if ((s[w].key & ~3ull) == key && (s[w].key & 3))
			return (int64_t)(b + w);
	return -1;
}

/* Mark a slot most recently used. */
static inline void cache_touch(struct cache *c, uint64_t slot)
{
	c->s[slot].stamp = ++c->clock;
}

/* Slot to fill for `line`: an invalid way if any, else the LRU way. */
uint64_t cache_victim(const struct cache *c, uint64_t line);

#endif
