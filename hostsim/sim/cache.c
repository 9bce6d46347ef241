/* Set-associative tag array with true LRU: see cache.h. */
#include "sim/cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int pow2(uint64_t v) { return v && !(v & (v - 1)); }

int cache_init(struct cache *c, const char *what, uint64_t size, unsigned ways, unsigned line,
               char *err, size_t errlen)
{
	c->slot = NULL;
	c->tag = NULL;
	c->hint = NULL;
	c->age = NULL;
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
	c->age_limit = CACHE_AGE_LIMIT;
	/* calloc: every slot invalid (key 0, age 0) */
	c->slot = calloc(sets * ways, sizeof *c->slot);
	c->age = calloc(sets * ways, sizeof *c->age);
	c->tag = calloc(sets * ways, 1);
	c->sbits = 0;
	while ((1ull << c->sbits) < sets)
		c->sbits++;
	/* hint table: a power of two >= the slot count (entries start at slot
	 * 0, which holds no line yet) */
	uint64_t hn = 1;
	while (hn < sets * ways)
		hn <<= 1;
	c->hint_mask = hn - 1;
	c->hint = calloc(hn, sizeof *c->hint);
	if (!c->slot || !c->tag || !c->hint || !c->age) {
		cache_fini(c);
		snprintf(err, errlen, "%s: out of memory", what);
		return -1;
	}
	return 0;
}

void cache_fini(struct cache *c)
{
	free(c->slot);
	free(c->tag);
	free(c->hint);
	free(c->age);
	c->age = NULL;
	c->slot = NULL;
	c->tag = NULL;
	c->hint = NULL;
}

/* Each set's valid slots get the ages 1..k in their order (a rank: ages in
 * a set are distinct), invalid ones keep 0; the clock restarts above them. */
void cache_renumber(struct cache *c)
{
	uint32_t r[64];
	for (uint64_t set = 0; set < c->nsets; set++) {
		uint32_t *a = c->age + set * c->ways;
		for (unsigned w = 0; w < c->ways; w++) {
			r[w] = 0;
			if (a[w])
				for (unsigned v = 0; v < c->ways; v++)
					r[w] += a[v] && a[v] <= a[w];
		}
		memcpy(a, r, c->ways * sizeof *a);
	}
	c->clock = c->ways;
}
