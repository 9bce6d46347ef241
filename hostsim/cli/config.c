/* Config block: see config.h.  Keys and limits: docs/formats.md. */
#include "cli/config.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum kind { K_U32, K_U64, K_SIZE, K_BOOL, K_SUITES, K_STRIDES, K_MIX, K_PAUSE };

struct key {
	const char *name;
	enum kind kind;
	size_t off;
	uint64_t min, max;
};

#define SIZE_MIN 512ull
#define SIZE_MAX_ (1ull << 40)
#define LOADS_MAX (1ull << 40)

#define F(field) offsetof(struct rvm_config, field)
static const struct key keys[] = {
	{ "suites",            K_SUITES,  F(suites),            0, 0 },
	{ "reps",              K_U32,     F(reps),              1, 1000000 },
	{ "warmups",           K_U32,     F(warmups),           0, 1000000 },
	{ "timeout_ms",        K_U32,     F(timeout_ms),        1, UINT32_MAX },
	{ "max_harts",         K_U32,     F(max_harts),         0, 4096 },
	{ "seed",              K_U32,     F(seed),              0, UINT32_MAX },
	{ "chase_size",        K_SIZE,    F(chase_size),        SIZE_MIN, SIZE_MAX_ },
	{ "chase_loads",       K_U64,     F(chase_loads),       1, LOADS_MAX },
	{ "chase_all_harts",   K_BOOL,    F(chase_all_harts),   0, 1 },
	{ "inject_hang",       K_U32,     F(inject_hang),       0, 4096 },
	{ "lat_max",           K_SIZE,    F(lat_max),           SIZE_MIN, SIZE_MAX_ },
	{ "lat_loads",         K_U64,     F(lat_loads),         1, LOADS_MAX },
	{ "lat_strides",       K_STRIDES, F(lat_strides),       8, 1u << 30 },
	{ "lat_random",        K_BOOL,    F(lat_random),        0, 1 },
	{ "par_max",           K_SIZE,    F(par_max),           SIZE_MIN, SIZE_MAX_ },
	{ "par_kmax",          K_U32,     F(par_kmax),          1, 16 },
	{ "mess_chase_size",   K_SIZE,    F(mess_chase_size),   SIZE_MIN, SIZE_MAX_ },
	{ "mess_gen_size",     K_SIZE,    F(mess_gen_size),     SIZE_MIN, SIZE_MAX_ },
	{ "mess_window_loads", K_U64,     F(mess_window_loads), 1, LOADS_MAX },
	{ "mess_mix",          K_MIX,     F(mess_mix),          0, 100 },
	{ "mess_pause",        K_PAUSE,   F(mess_pause),        0, UINT32_MAX },
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

/* fields that exist in the block but are not keys */
static const char *const derived[][2] = {
	{ "lat_nstrides", "derived from lat_strides" },
	{ "mess_nmix", "derived from mess_mix" },
	{ "mess_npause", "derived from mess_pause" },
	{ "magic", "fixed by the image format" },
	{ "version", "fixed by the image format" },
	{ "size", "fixed by the image format" },
	{ "pad1", "padding" },
	{ "pad2", "padding" },
};

static const char *const suite_names[] = RVM_SUITE_NAMES;

#define WHY(...) (snprintf(why, whylen, __VA_ARGS__), -1)

void cfg_default(struct rvm_config *c)
{
	memset(c, 0, sizeof(*c));
	c->magic = RVM_CFG_MAGIC;
	c->version = RVM_CFG_VERSION;
	c->size = sizeof(*c);
	c->suites = RVM_SUITE_CHASE | RVM_SUITE_LAT | RVM_SUITE_PAR;
	c->reps = 3;
	c->warmups = 1;
	c->timeout_ms = 2000;
	c->seed = 1;
	c->chase_size = 1 << 20;
	c->chase_loads = 100000;
	c->lat_max = 1 << 20;
	c->lat_loads = 10000;
	c->lat_nstrides = 1;
	c->lat_strides[0] = 64;
	c->lat_random = 1;
	c->par_max = 1 << 20;
	c->par_kmax = 8;
	c->mess_chase_size = 1 << 22;
	c->mess_gen_size = 1 << 22;
	c->mess_window_loads = 10000;
	c->mess_nmix = 2;
	c->mess_mix[0] = 0;
	c->mess_mix[1] = 100;
	c->mess_npause = 2;
	c->mess_pause[0] = 0;
	c->mess_pause[1] = 100;
}

int cfg_load(const unsigned char *p, size_t n, struct rvm_config *c, char *why, size_t whylen)
{
	uint16_t one = 1;

	if (*(const unsigned char *)&one != 1)
		return WHY("this host is big-endian; the block is little-endian (unsupported)");
	if (n < sizeof(*c))
		return WHY("section is %zu bytes, smaller than the %zu-byte config block", n, sizeof(*c));
	memcpy(c, p, sizeof(*c));
	if (c->magic != RVM_CFG_MAGIC)
		return WHY("bad magic 0x%016llx (want 0x%016llx)", (unsigned long long)c->magic,
			   (unsigned long long)RVM_CFG_MAGIC);
	if (c->version != RVM_CFG_VERSION)
		return WHY("config block version %u, this tool knows version %u", c->version, RVM_CFG_VERSION);
	if (c->size != sizeof(*c))
		return WHY("config block size %u, this tool knows %zu", c->size, sizeof(*c));
	if (c->lat_nstrides > RVM_CFG_MAX_STRIDES)
		return WHY("corrupt block: lat_nstrides=%u > %d", c->lat_nstrides, RVM_CFG_MAX_STRIDES);
	if (c->mess_nmix > RVM_CFG_MAX_MIXES)
		return WHY("corrupt block: mess_nmix=%u > %d", c->mess_nmix, RVM_CFG_MAX_MIXES);
	if (c->mess_npause > RVM_CFG_MAX_PAUSES)
		return WHY("corrupt block: mess_npause=%u > %d", c->mess_npause, RVM_CFG_MAX_PAUSES);
	return 0;
}

void cfg_store(const struct rvm_config *c, unsigned char *p)
{
	memcpy(p, c, sizeof(*c));
}

/* ---- printing ------------------------------------------------------------ */

static void print_key(FILE *f, const struct rvm_config *c, const struct key *k)
{
	const unsigned char *base = (const unsigned char *)c + k->off;

	fprintf(f, "%s=", k->name);
	switch (k->kind) {
	case K_U32:
	case K_BOOL: {
		uint32_t v;

		memcpy(&v, base, sizeof(v));
		fprintf(f, "%u", v);
		break;
	}
	case K_U64:
	case K_SIZE: {
		uint64_t v;

		memcpy(&v, base, sizeof(v));
		fprintf(f, "%llu", (unsigned long long)v);
		break;
	}
	case K_SUITES: {
		int first = 1;

		for (unsigned i = 0; i < RVM_SUITE_COUNT; i++) {
			if (c->suites & (1u << i)) {
				fprintf(f, "%s%s", first ? "" : ",", suite_names[i]);
				first = 0;
			}
		}
		if (c->suites & ~RVM_SUITE_ALL)
			fprintf(f, "%s0x%x", first ? "" : ",", c->suites & ~RVM_SUITE_ALL);
		break;
	}
	case K_STRIDES:
		for (uint32_t i = 0; i < c->lat_nstrides; i++)
			fprintf(f, "%s%u", i ? "," : "", c->lat_strides[i]);
		break;
	case K_MIX:
		for (uint32_t i = 0; i < c->mess_nmix; i++)
			fprintf(f, "%s%u", i ? "," : "", c->mess_mix[i]);
		break;
	case K_PAUSE:
		for (uint32_t i = 0; i < c->mess_npause; i++)
			fprintf(f, "%s%u", i ? "," : "", c->mess_pause[i]);
		break;
	}
	fputc('\n', f);
}

void cfg_print(FILE *f, const struct rvm_config *c)
{
	for (size_t i = 0; i < NKEYS; i++)
		print_key(f, c, &keys[i]);
}

/* ---- parsing --------------------------------------------------------------- */

int cfg_parse_num(const char *s, uint64_t *v)
{
	uint64_t x = 0, mul = 1;
	size_t n = strlen(s), i = 0;
	int hex = 0, digits = 0;

	if (n && strchr("kKmMgG", s[n - 1])) {
		switch (tolower((unsigned char)s[n - 1])) {
		case 'k': mul = 1ull << 10; break;
		case 'm': mul = 1ull << 20; break;
		default: mul = 1ull << 30; break;
		}
		n--;
	}
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		hex = 1;
		i = 2;
	}
	for (; i < n; i++) {
		unsigned d;
		int ch = (unsigned char)s[i];

		if (ch >= '0' && ch <= '9')
			d = (unsigned)(ch - '0');
		else if (hex && ch >= 'a' && ch <= 'f')
			d = (unsigned)(ch - 'a' + 10);
		else if (hex && ch >= 'A' && ch <= 'F')
			d = (unsigned)(ch - 'A' + 10);
		else
			return -1;
		if (x > (UINT64_MAX - d) / (hex ? 16 : 10))
			return -1;
		x = x * (hex ? 16 : 10) + d;
		digits++;
	}
	if (!digits || x > UINT64_MAX / mul)
		return -1;
	*v = x * mul;
	return 0;
}

static int num_in_range(const char *s, const struct key *k, uint64_t *v, char *why, size_t whylen)
{
	if (cfg_parse_num(s, v) < 0)
		return WHY("'%s' is not a number (decimal or 0x hex, optional K/M/G suffix, up to 2^64-1)", s);
	if (*v < k->min || *v > k->max)
		return WHY("%llu out of range %llu..%llu", (unsigned long long)*v,
			   (unsigned long long)k->min, (unsigned long long)k->max);
	return 0;
}

/* Split a comma list into elements; returns count or -1 (message in why).
 * what is the plural used in messages, e.g. "strides". */
static int split_list(const char *val, char elems[][32], int max, const char *what, char *why, size_t whylen)
{
	int n = 0;
	const char *p = val;

	if (!*val)
		return WHY("empty list (want 1..%d %s)", max, what);
	for (;;) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);

		if (len == 0)
			return WHY("empty element in list '%s'", val);
		if (n == max)
			return WHY("more than %d %s", max, what);
		if (len >= 32)
			return WHY("element '%.*s...' too long", 20, p);
		memcpy(elems[n], p, len);
		elems[n][len] = '\0';
		n++;
		if (!c)
			break;
		p = c + 1;
	}
	return n;
}

int cfg_set(struct rvm_config *c, const char *key, const char *val, char *why, size_t whylen)
{
	const struct key *k = NULL;
	struct rvm_config t = *c;
	unsigned char *base;
	char el[64][32];
	uint64_t v;
	int n;

	for (size_t i = 0; i < NKEYS; i++)
		if (strcmp(keys[i].name, key) == 0)
			k = &keys[i];
	if (!k) {
		for (size_t i = 0; i < sizeof(derived) / sizeof(derived[0]); i++)
			if (strcmp(derived[i][0], key) == 0)
				return WHY("not settable (%s)", derived[i][1]);
		return WHY("unknown key");
	}
	base = (unsigned char *)&t + k->off;
	switch (k->kind) {
	case K_U32:
	case K_BOOL: {
		uint32_t w;

		if (k->kind == K_BOOL && strcmp(val, "0") != 0 && strcmp(val, "1") != 0)
			return WHY("'%s' is not 0 or 1", val);
		if (num_in_range(val, k, &v, why, whylen) < 0)
			return -1;
		w = (uint32_t)v;
		memcpy(base, &w, sizeof(w));
		break;
	}
	case K_U64:
		if (num_in_range(val, k, &v, why, whylen) < 0)
			return -1;
		memcpy(base, &v, sizeof(v));
		break;
	case K_SIZE:
		if (num_in_range(val, k, &v, why, whylen) < 0)
			return -1;
		if (v % 64)
			return WHY("%llu bytes is not a multiple of 64", (unsigned long long)v);
		memcpy(base, &v, sizeof(v));
		break;
	case K_SUITES:
		n = split_list(val, el, 64, "suites", why, whylen);
		if (n < 0)
			return -1;
		t.suites = 0;
		for (int i = 0; i < n; i++) {
			int found = 0;

			if (strcmp(el[i], "all") == 0) {
				t.suites |= RVM_SUITE_ALL;
				continue;
			}
			for (unsigned s = 0; s < RVM_SUITE_COUNT; s++)
				if (strcmp(el[i], suite_names[s]) == 0) {
					t.suites |= 1u << s;
					found = 1;
				}
			if (!found)
				return WHY("unknown suite '%s' (want chase,lat,par,mess,check or all)", el[i]);
		}
		break;
	case K_STRIDES:
		n = split_list(val, el, RVM_CFG_MAX_STRIDES, "strides", why, whylen);
		if (n < 0)
			return -1;
		for (int i = 0; i < n; i++) {
			if (num_in_range(el[i], k, &v, why, whylen) < 0)
				return -1;
			if (v % 8)
				return WHY("stride %llu is not a multiple of 8", (unsigned long long)v);
			t.lat_strides[i] = (uint32_t)v;
		}
		for (int i = n; i < RVM_CFG_MAX_STRIDES; i++)
			t.lat_strides[i] = 0;
		t.lat_nstrides = (uint32_t)n;
		break;
	case K_MIX:
		n = split_list(val, el, RVM_CFG_MAX_MIXES, "mixes", why, whylen);
		if (n < 0)
			return -1;
		for (int i = 0; i < n; i++) {
			if (num_in_range(el[i], k, &v, why, whylen) < 0)
				return -1;
			if (v % 2)
				return WHY("mix %llu %% stores is odd (want even 0..100)", (unsigned long long)v);
			t.mess_mix[i] = (uint8_t)v;
		}
		for (int i = n; i <= RVM_CFG_MAX_MIXES; i++)
			t.mess_mix[i] = 0;
		t.mess_nmix = (uint32_t)n;
		break;
	case K_PAUSE:
		n = split_list(val, el, RVM_CFG_MAX_PAUSES, "pauses", why, whylen);
		if (n < 0)
			return -1;
		for (int i = 0; i < n; i++) {
			if (num_in_range(el[i], k, &v, why, whylen) < 0)
				return -1;
			t.mess_pause[i] = (uint32_t)v;
		}
		for (int i = n; i < RVM_CFG_MAX_PAUSES; i++)
			t.mess_pause[i] = 0;
		t.mess_npause = (uint32_t)n;
		break;
	}
	*c = t;
	return 0;
}

int cfg_assign(struct rvm_config *c, const char *text, char *key, size_t keylen,
	       char *why, size_t whylen)
{
	const char *eq = strchr(text, '='), *ks = text, *ke, *vs, *ve;
	char val[1024];

	while (*ks == ' ' || *ks == '\t')
		ks++;
	if (!eq) {
		snprintf(key, keylen, "%s", ks);
		return WHY("not a key=value assignment");
	}
	ke = eq;
	while (ke > ks && (ke[-1] == ' ' || ke[-1] == '\t'))
		ke--;
	vs = eq + 1;
	while (*vs == ' ' || *vs == '\t')
		vs++;
	ve = vs + strlen(vs);
	while (ve > vs && (ve[-1] == ' ' || ve[-1] == '\t' || ve[-1] == '\r' || ve[-1] == '\n'))
		ve--;
	snprintf(key, keylen, "%.*s", (int)(ke - ks), ks);
	if (ke == ks) {
		snprintf(key, keylen, "%s", text);
		return WHY("empty key");
	}
	if ((size_t)(ve - vs) >= sizeof(val))
		return WHY("value too long");
	memcpy(val, vs, (size_t)(ve - vs));
	val[ve - vs] = '\0';
	return cfg_set(c, key, val, why, whylen);
}
