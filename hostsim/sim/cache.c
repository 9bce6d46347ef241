/* Set-associative tag array with true LRU: see cache.h. */
#include "sim/cache.h"

#include <stdio.h>
#include <stdlib.h>

static int pow2(uint64_t v) { return v && !(v & (v - 1)); }

int cache_init(struct cache *c, const char *what, uint64_t size, unsigned ways, unsigned line,
               char *err, size_t errlen)
{
	c->s = NULL;
	if (ways < 1 || ways > 64) {
		snprintf(err, errlen, "%s-ways: %u out of range 1..64", what, ways);
		return -1;
	}
	if (!line || size % ((uint64_t)line * ways) != 0 || size / ((uint64_t)line * ways) == 0) {
		snprintf(err, errlen, "%s-size: %llu is not a multiple of line (%u) x ways (%u)", what,
		         (unsigned long long)size, line, ways);
		return -1;
	}
	uint64_t sets = size / ((uint64_t)line * ways);
	if (!pow2(sets)) {
		snprintf(err, errlen, "%s-size: %llu gives %llu sets, not a power of two", what,
		         (unsigned long long)size, (unsigned long long)sets);
		return -1;
	}
	if (sets * ways > (1ull << 28)) {
		snprintf(err, errlen, "%s-size: %llu too large", what, (unsigned long long)size);
		return -1;
	}
	c->ways = ways;
	c->nsets = sets;
	c->set_mask = sets - 1;
	c->clock = 0;
	c->s = calloc(sets * ways, sizeof *c->s);
	if (!c->s) {
		snprintf(err, errlen, "%s: out of memory", what);
		return -1;
	}
	return 0;
}

void cache_fini(struct cache *c)
{
	free(c->s);
	c->s = NULL;
}

uint64_t cache_victim(const struct cache *c, uint64_t line)
{
	uint64_t b = cache_set_base(c, line), best = b;
	const struct cache_slot *s = c->s;
	for (unsigned w = 0; w < c->ways; w++) {
		if (!(s[b + w].key & 3))
			return b + w;
		if (s[b + w].stamp < s[best].stamp)
			best = b + w;
	}
	return best;
}
