/*
 * Set-associative tag array with true LRU (per-slot use ages), used by
 * memsys for the L1Ds and the LLC.  Tags are full line addresses (address
 * >> log2(line)); sets are indexed by the low bits of the line address.
 *
 * Layout (for speed: memsys calls these on every access): one 32-byte
 * record per slot (one word spare), with the two words memsys keeps per
 * slot (an L1 hit reads the key and the fill time of one record), and
 * beside the records:
 *   key:   line << 2 | state, 0 = invalid (state 0 is always stored as 0)
 *   age:   (an array of 32-bit words, a set's contiguous) the cache's use
 *          clock at the slot's last use, larger = more recently used, 0
 *          for an invalid slot (valid slots' ages in a set are >= 1 and
 *          distinct).  The victim "first invalid way, else the least
 *          recently used" is the first way with the smallest age: with
 *          SSE4.1 and 8 or 16 ways, a vector minimum (PMINUD) and a
 *          compare, else one compare a way.  The clock is 32 bits: once
 *          it passes age_limit (CACHE_AGE_LIMIT or lower), cache_renumber
 *          gives each set's valid slots the ages 1..k in the same order
 *          (memsys_check_ages; hostsim checks every 2^20 simulated
 *          instructions, long before the clock could wrap).
 *   ready, aux: the user's (memsys: the cycle the line's fill completes;
 *          an L1 slot's LLC slot, an LLC slot's sharer bits); the cache
 *          functions never touch them.
 *   tag:   one byte per slot, the low 8 of the line's bits above the set index,
 *          written at a fill by cache_fill_tagged (never cleared: an
 *          invalid slot's key fails the check anyway), for caches searched
 *          with cache_find_tagged (memsys: the LLC; an L1 search nearly
 *          always finds its line at the hint, and the byte would cost more
 *          at each fill than it saves).  With 8 or 16 ways such a search
 *          that misses the hint compares the set's tag bytes 8 at a time (SWAR) and checks
 *          the key of each slot whose byte matches, instead of every key:
 *          an LLC miss, which must look at every way, costs about a
 *          quarter of the scan.  Only a filter: every slot holding the line
 *          has its byte, so results never depend on it.
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
#include <string.h>
#ifdef __SSE4_1__
#include <smmintrin.h>
#endif

struct cache_slot {
	uint64_t key, spare;      /* spare: 32 bytes a record, an index is a shift */
	uint64_t ready, aux;
};

struct cache {
	unsigned ways;
	uint64_t nsets, set_mask;
	uint32_t clock;           /* last use handed out */
	uint32_t age_limit;       /* cache_aged past it: CACHE_AGE_LIMIT, or lower (tests) */
	uint32_t *age;            /* nsets * ways: each slot's last use, 0 invalid */
	struct cache_slot *slot;  /* nsets * ways */
	uint8_t *tag;             /* nsets * ways */
	unsigned sbits;           /* log2(nsets) */
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
		c->age[slot] = 0;
	}
}

/* The tag byte of `line`: the low 8 of its bits above the set index. */
static inline uint64_t cache_tag(const struct cache *c, uint64_t line)
{
	return (uint8_t)(line >> c->sbits);
}

/* Put `line` with state st (1..3) in a slot (then cache_touch it). */
static inline void cache_fill(struct cache *c, uint64_t slot, uint64_t line, unsigned st)
{
	c->slot[slot].key = line << 2 | st;
	c->hint[line & c->hint_mask] = (uint32_t)slot;
}

/* The same for a cache searched with cache_find_tagged: every fill of such
 * a cache goes through here. */
static inline void cache_fill_tagged(struct cache *c, uint64_t slot, uint64_t line, unsigned st)
{
	cache_fill(c, slot, line, st);
	c->tag[slot] = (uint8_t)cache_tag(c, line);
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

/* Way of the set at b holding the line whose key is lk and tag byte tb, or
 * -1, through the tag bytes of its 8 * nw ways (SWAR: a byte equal to tb
 * becomes 0, and every 0 byte of x gets its high bit in z, with some
 * false positives above a 0 byte; every candidate's key decides). */
static inline __attribute__((always_inline)) int cache_find_tag(const struct cache *c, uint64_t b, uint64_t lk,
                                                                uint64_t tb, unsigned nw)
{
	const uint64_t ones = 0x0101010101010101ull;
	for (unsigned i = 0; i < nw; i++) {
		uint64_t x;
		memcpy(&x, c->tag + b + 8 * i, 8);
		x ^= tb * ones;
		uint64_t z = (x - ones) & ~x & (ones << 7);
		while (z) {
			unsigned w = 8 * i + ((unsigned)__builtin_ctzll(z) >> 3);
			if ((c->slot[b + w].key ^ lk) - 1 < 3)
				return (int)w;
			z &= z - 1;
		}
	}
	return -1;
}

/* Slot holding `line`, or -1: the hint, else a search of its set (through
 * the tag bytes when `tagged`: a cache filled with cache_fill_tagged). */
static inline __attribute__((always_inline)) int64_t cache_find_(const struct cache *c, uint64_t line, int tagged)
{
	uint64_t lk = line << 2;
	uint32_t *hp = &c->hint[line & c->hint_mask];
	if ((c->slot[*hp].key ^ lk) - 1 < 3)
		return *hp;
	uint64_t b = cache_set_base(c, line);
	const struct cache_slot *k = c->slot + b;
	int w;
	switch (c->ways) {
	case 8: w = tagged ? cache_find_tag(c, b, lk, cache_tag(c, line), 1) : cache_find_in(k, lk, 8); break;
	case 16: w = tagged ? cache_find_tag(c, b, lk, cache_tag(c, line), 2) : cache_find_in(k, lk, 16); break;
	default: w = cache_find_in(k, lk, c->ways); break;
	}
	if (w < 0)
		return -1;
	*hp = (uint32_t)(b + (unsigned)w);
	return (int64_t)*hp;
}

static inline int64_t cache_find(const struct cache *c, uint64_t line)
{
	return cache_find_(c, line, 0);
}

static inline __attribute__((always_inline)) int64_t cache_find_tagged(const struct cache *c, uint64_t line)
{
	return cache_find_(c, line, 1);
}

/* Mark a slot most recently used. */
static inline void cache_touch(struct cache *c, uint64_t slot)
{
	c->age[slot] = ++c->clock;
}

/* The clock's bound (age_limit: at most this): the owner calls
 * cache_renumber when the clock has passed it, before 2^31 more uses could
 * wrap it. */
#define CACHE_AGE_LIMIT (1u << 31)
static inline int cache_aged(const struct cache *c)
{
	return c->clock >= c->age_limit;
}
void cache_renumber(struct cache *c);

/* The first way with the smallest age among n (a branch-free minimum:
 * which way holds the oldest line is the host's guess, and a wrong guess
 * per set searched cost more than the search). */
static inline __attribute__((always_inline)) unsigned cache_lru_scalar(const uint32_t *a, unsigned n)
{
	uint64_t b = (uint64_t)a[0] << 6;
#pragma GCC unroll 16
	for (unsigned w = 1; w < n; w++) {
		uint64_t x = (uint64_t)a[w] << 6 | w;
		b = x < b ? x : b;
	}
	return (unsigned)(b & 63);
}

static inline __attribute__((always_inline)) unsigned cache_lru_in(const uint32_t *a, unsigned n)
{
#ifdef __SSE4_1__
	if (n == 8 || n == 16) {
		/* the minimum in every lane, then the first lane equal to it
		 * (ages are below 2^32: PMINUD compares them unsigned) */
		__m128i v0 = _mm_loadu_si128((const __m128i *)(const void *)a);
		__m128i v1 = _mm_loadu_si128((const __m128i *)(const void *)(a + 4));
		__m128i m = _mm_min_epu32(v0, v1), v2 = v0, v3 = v1;
		if (n == 16) {
			v2 = _mm_loadu_si128((const __m128i *)(const void *)(a + 8));
			v3 = _mm_loadu_si128((const __m128i *)(const void *)(a + 12));
			m = _mm_min_epu32(m, _mm_min_epu32(v2, v3));
		}
		m = _mm_min_epu32(m, _mm_shuffle_epi32(m, 0x4e));
		m = _mm_min_epu32(m, _mm_shuffle_epi32(m, 0xb1));
		unsigned k = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v0, m))) |
		             (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v1, m))) << 4;
		if (n == 16)
			k |= (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v2, m))) << 8 |
			     (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v3, m))) << 12;
		return (unsigned)__builtin_ctz(k);
	}
#endif
	return cache_lru_scalar(a, n);
}

/* Slot to fill for `line`: the first invalid way if any, else the LRU way. */
static inline uint64_t cache_victim(const struct cache *c, uint64_t line)
{
	uint64_t b = cache_set_base(c, line);
	const uint32_t *st = c->age + b;
	switch (c->ways) {
	case 8: return b + cache_lru_in(st, 8);
	case 16: return b + cache_lru_in(st, 16);
	default: return b + cache_lru_in(st, c->ways);
	}
}

#endif
