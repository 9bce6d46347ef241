/*
 * The one seeded pseudo-random generator of rvmess (xorshift64* with a
 * splitmix-style seed scramble): the image's random chains, delays and
 * shuffles, and hostsim's fault injection.  Freestanding, header-only.
 */
#ifndef RVMESS_RNG_H
#define RVMESS_RNG_H

#include <stdint.h>

struct rng { uint64_t s; };

static inline void rng_seed(struct rng *g, uint64_t seed)
{
	/* splitmix-style scramble so that small seeds give unrelated streams */
	uint64_t z = seed + 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	g->s = z ? z : 0x2545f4914f6cdd1dull;
}

static inline uint64_t rng_next(struct rng *g)
{
	uint64_t x = g->s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	g->s = x;
	return x * 0x2545f4914f6cdd1dull;
}

#endif
