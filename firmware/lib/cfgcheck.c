/*
 * The config key table as data, and the checks every key and the rules
 * between keys impose (rvmess/cfgschema.h).  Pure C, no libc: built into the
 * image (which runs the checks at boot) and, unchanged, into the host tool
 * (which runs them before it writes an image).
 */
#include <stddef.h>

#include "rvmess/cfgschema.h"
/* The image parses no text today; including the shared number parser here
 * keeps it building under the image's freestanding flags for when it does. */
#include "rvmess/numparse.h"

#define RVM_CFG_ROW_S_(name_, type_, min_, max_, mult_, recif_, def, help) \
	{ .name = #name_, .type = RVM_CFG_T_##type_, \
	  .width = sizeof(((struct rvm_config *)0)->name_), \
	  .off = offsetof(struct rvm_config, name_), .maxn = 1, .recif = (recif_), \
	  .min = (min_), .max = (max_), .mult = (mult_) },
#define RVM_CFG_ROW_L_(name_, type_, count_, maxn_, min_, max_, mult_, recif_, help, ...) \
	{ .name = #name_, .type = RVM_CFG_T_##type_, .list = 1, \
	  .width = sizeof(((struct rvm_config *)0)->name_[0]), \
	  .off = offsetof(struct rvm_config, name_), \
	  .count_off = offsetof(struct rvm_config, count_), .maxn = (maxn_), .recif = (recif_), \
	  .min = (min_), .max = (max_), .mult = (mult_) },

const struct rvm_cfg_key rvm_cfg_keys[] = { RVM_CFG_KEYS(RVM_CFG_ROW_S_, RVM_CFG_ROW_L_) };
const unsigned rvm_cfg_nkeys = sizeof(rvm_cfg_keys) / sizeof(rvm_cfg_keys[0]);
const char *const rvm_suite_names[RVM_SUITE_COUNT] = RVM_SUITE_NAMES;

/* Every list fits its field, every count field is a uint32_t. */
#define RVM_CFG_SIZE_S_(name, type, min, max, mult, recif, def, help)
#define RVM_CFG_SIZE_L_(name, type, count, maxn, min, max, mult, recif, help, ...) \
	_Static_assert(sizeof(((struct rvm_config *)0)->name) / sizeof(((struct rvm_config *)0)->name[0]) >= (maxn), \
	               #name " is shorter than its max count"); \
	_Static_assert(sizeof(((struct rvm_config *)0)->count) == 4, #count " is not a uint32_t");
RVM_CFG_KEYS(RVM_CFG_SIZE_S_, RVM_CFG_SIZE_L_)

static int streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

const struct rvm_cfg_key *rvm_cfg_find(const char *name)
{
	for (unsigned i = 0; i < rvm_cfg_nkeys; i++)
		if (streq(rvm_cfg_keys[i].name, name))
			return &rvm_cfg_keys[i];
	return 0;
}

uint32_t rvm_cfg_count(const struct rvm_config *c, const struct rvm_cfg_key *k)
{
	if (!k->list)
		return 1;
	return *(const uint32_t *)((const unsigned char *)c + k->count_off);
}

uint64_t rvm_cfg_get(const struct rvm_config *c, const struct rvm_cfg_key *k, uint32_t i)
{
	const unsigned char *p = (const unsigned char *)c + k->off + (size_t)i * k->width;

	switch (k->width) {
	case 1: return *p;
	case 4: return *(const uint32_t *)p;
	default: return *(const uint64_t *)p;
	}
}

void rvm_cfg_put(struct rvm_config *c, const struct rvm_cfg_key *k, uint32_t i, uint64_t v)
{
	unsigned char *p = (unsigned char *)c + k->off + (size_t)i * k->width;

	switch (k->width) {
	case 1: *p = (unsigned char)v; break;
	case 4: *(uint32_t *)p = (uint32_t)v; break;
	default: *(uint64_t *)p = v; break;
	}
}

static int report(rvm_cfg_report_fn *fn, void *ctx, const struct rvm_cfg_key *k, int why,
                  uint64_t v, uint32_t index, const char *rule, uint64_t limit)
{
	struct rvm_cfg_problem p = { k, why, v, index, rule, limit };

	if (fn)
		fn(ctx, &p);
	return 1;
}

int rvm_cfg_check_value(const struct rvm_cfg_key *k, uint64_t v, uint32_t index,
                        rvm_cfg_report_fn *fn, void *ctx)
{
	if (v < k->min || v > k->max)
		return report(fn, ctx, k, RVM_CFG_RANGE, v, index, 0, 0);
	if (k->mult > 1 && v % k->mult)
		return report(fn, ctx, k, RVM_CFG_MULT, v, index, 0, 0);
	return 0;
}

int rvm_cfg_check_all(const struct rvm_config *c, rvm_cfg_report_fn *fn, void *ctx)
{
	int n = 0;

	for (unsigned i = 0; i < rvm_cfg_nkeys; i++) {
		const struct rvm_cfg_key *k = &rvm_cfg_keys[i];
		uint32_t cnt = rvm_cfg_count(c, k);

		if (cnt < 1 || cnt > k->maxn) {
			n += report(fn, ctx, k, RVM_CFG_COUNT, cnt, 0, 0, 0);
			continue;
		}
		for (uint32_t j = 0; j < cnt; j++)
			if (rvm_cfg_check_value(k, rvm_cfg_get(c, k, j), j, fn, ctx)) {
				n++;
				break;
			}
	}

	/* rules between keys that hold on any target */
	if (c->lat_nstrides <= RVM_CFG_MAX_STRIDES)
		for (uint32_t j = 0; j < c->lat_nstrides; j++)
			if (c->lat_strides[j] > c->lat_max / 2) {
				n += report(fn, ctx, rvm_cfg_find("lat_strides"), RVM_CFG_RULE, c->lat_strides[j], j,
				            "lat_stride_over_lat_max/2", c->lat_max / 2);
				break;
			}
	if (c->mess_min_loads > c->mess_max_loads)
		n += report(fn, ctx, rvm_cfg_find("mess_min_loads"), RVM_CFG_RULE, c->mess_min_loads, 0,
		            "mess_min_loads_over_mess_max_loads", c->mess_max_loads);
	return n;
}

/* ---- the image's err codes ------------------------------------------------- */

struct buf {
	char *p;
	unsigned n, len;
};

static void put_s(struct buf *b, const char *s)
{
	while (*s && b->n + 1 < b->len)
		b->p[b->n++] = *s++;
	b->p[b->n] = 0;
}

static void put_u(struct buf *b, uint64_t v)
{
	char t[21];
	int i = 20;

	t[i] = 0;
	do {
		t[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put_s(b, t + i);
}

const char *rvm_cfg_code(const struct rvm_cfg_problem *p, char *out, unsigned len)
{
	struct buf b = { out, 0, len };

	if (!len)
		return out;
	out[0] = 0;
	if (p->why == RVM_CFG_RULE) {
		put_s(&b, p->rule);
		return out;
	}
	put_s(&b, p->key->name);
	switch (p->why) {
	case RVM_CFG_RANGE:
		put_s(&b, "_not_in_");
		put_u(&b, p->key->min);
		put_s(&b, "..");
		put_u(&b, p->key->max);
		break;
	case RVM_CFG_MULT:
		put_s(&b, "_not_a_multiple_of_");
		put_u(&b, p->key->mult);
		break;
	default:
		put_s(&b, "_count_not_in_1..");
		put_u(&b, p->key->maxn);
		break;
	}
	return out;
}
