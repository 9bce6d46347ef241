/*
 * Set-associative tag array with true LRU (per-slot use stamps), used by
 * memsys for the L1Ds and the LLC.  Tags are full line addresses (address
 * >> log2(line)); sets are indexed by the low bits of the line address.
 *
 * Layout (for speed: memsys calls these on every access): one 32-byte
 * record per slot, with the two words memsys keeps per slot (an L1 hit
 * reads the key, the stamp and the fill time of one record):
 *   key:   line << 2 | state, 0 = invalid (state 0 is always stored as 0)
 *   stamp: LRU stamp, larger = more recently used; 0 for an invalid slot
 *          (valid slots have stamps >= 1, all distinct), so the victim
 *          "first invalid way, else the least recently used" is simply the
 *          first way with the smallest stamp.
 *   ready, aux: the user's (memsys: the cycle the line's fill completes;
 *          an L1 slot's LLC slot, an LLC slot's sharer bits); the cache
 *          functions never touch them.
 *   hint:  a direct-mapped table, indexed by the low bits of the line, of
 *          the slot where that line was last found or filled.  A search
 *          first checks the hinted slot's key and scans the set only when
 *          it does not hold the line.  Only a hint: a line is in at most one
 *          slot and the key decides, so results never depend on it.
 */
#ifndef HOSTSIM_CACHE_H
#define HOSTSIM_CACHE_H

#include <stddef.h>
#include <stdint.h>

struct cache_slot {
	uint64_t key, stamp;
	uint64_t ready, aux;
};

struct cache {
	unsigned ways;
	uint64_t nsets, set_mask;
	uint64_t clock;           /* last stamp handed out */
	struct cache_slot *slot;  /* nsets * ways */
	uint32_t *hint;           /* hint_mask + 1 slots */
	uint64_t hint_mask;
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
	return (unsigned)(c->slot[slot].key & 3);
}

static inline uint64_t cache_line(const struct cache *c, uint64_t slot)
{
	return c->slot[slot].key >> 2;
}

/* Does slot hold `line` (valid)? */
static inline int cache_holds(const struct cache *c, uint64_t slot, uint64_t line)
{
	/* key ^ (line << 2) is the state (1..3) exactly when the slot is valid
	 * and holds line; 0 - 1 wraps, so invalid and other lines fail */
	return (c->slot[slot].key ^ (line << 2)) - 1 < 3;
}

/* Change the state of a valid slot (0 invalidates it). */
static inline void cache_set_state(struct cache *c, uint64_t slot, unsigned st)
{
	if (st) {
		c->slot[slot].key = (c->slot[slot].key & ~3ull) | st;
	} else {
		c->slot[slot].key = 0;
		c->slot[slot].stamp = 0;
	}
}

/* Put `line` with state st (1..3) in a slot (then cache_touch it). */
static inline void cache_fill(struct cache *c, uint64_t slot, uint64_t line, unsigned st)
{
	c->slot[slot].key = line << 2 | st;
	c->hint[line & c->hint_mask] = (uint32_t)slot;
}

/* Way of the set at k holding the line whose key is lk, or -1 (n ways;
 * inlined with a constant n for the common associativities). */
static inline __attribute__((always_inline)) int cache_find_in(const struct cache_slot *k, uint64_t lk, unsigned n)
{
#pragma GCC unroll 16
	for (unsigned w = 0; w < n; w++)
		if ((k[w].key ^ lk) - 1 < 3)
			return (int)w;
	return -1;
}

/* Slot holding `line`, or -1. */
static inline int64_t cache_find(const struct cache *c, uint64_t line)
{
	uint64_t lk = line << 2;
	uint32_t *hp = &c->hint[line & c->hint_mask];
	if ((c->slot[*hp].key ^ lk) - 1 < 3)
		return *hp;
	uint64_t b = cache_set_base(c, line);
	const struct cache_slot *k = c->slot + b;
	int w;
	switch (c->ways) {
	case 8: w = cache_find_in(k, lk, 8); break;
	case 16: w = cache_find_in(k, lk, 16); break;
	default: w = cache_find_in(k, lk, c->ways); break;
	}
	if (w < 0)
		return -1;
	*hp = (uint32_t)(b + (unsigned)w);
	return (int64_t)*hp;
}

/* Mark a slot most recently used. */
static inline void cache_touch(struct cache *c, uint64_t slot)
{
	c->slot[slot].stamp = ++c->clock;
}

/* First way with the smallest stamp among n. */
static inline __attribute__((always_inline)) unsigned cache_lru_in(const struct cache_slot *st, unsigned n)
{
	unsigned best = 0;
	uint64_t bs = st[0].stamp;
#pragma GCC unroll 16
	for (unsigned w = 1; w < n; w++)
		if (st[w].stamp < bs) {
			bs = st[w].stamp;
			best = w;
		}
	return best;
}

/* Slot to fill for `line`: the first invalid way if any, else the LRU way. */
static inline uint64_t cache_victim(const struct cache *c, uint64_t line)
{
	uint64_t b = cache_set_base(c, line);
	const struct cache_slot *st = c->slot + b;
	switch (c->ways) {
	case 8: return b + cache_lru_in(st, 8);
	case 16: return b + cache_lru_in(st, 16);
	default: return b + cache_lru_in(st, c->ways);
	}
}

#endif
