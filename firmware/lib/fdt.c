/*
 * Defensive flattened-device-tree reader (devicetree specification v0.4,
 * chapter 5: format version 17, compatible with 16).
 *
 * Rules this file keeps:
 *  - every byte read goes through rd8() et al. after an explicit range check
 *    against the blob's validated bounds (never beyond `maxlen`);
 *  - no recursion, no allocation, no libc (not even memset/memcpy: the
 *    compiler may turn plain loops into such calls, so the few bulk loops
 *    write through volatile pointers);
 *  - every loop is bounded by the size of the region it walks, plus an
 *    explicit token budget in the structure walk;
 *  - a malformed blob yields status < 0, a static reason string and the
 *    byte offset where parsing stopped.
 *
 * Addresses: `reg` values are taken as CPU physical addresses, i.e. every bus
 * is assumed to have identity (or empty) `ranges`; no translation is done.
 * This holds on QEMU virt/spike, the JH7110, the FU740 and OpenPiton.
 *
 * Console: /chosen stdout-path (or the older linux,stdout-path), which is a
 * path or an alias from /aliases, with ":options" stripped, names the console
 * node; it is returned (out->console) when it is enabled and has a `reg`,
 * whatever its compatible.  The reader knows no UART: which compatibles a
 * driver takes, and what to use when the console node is none of them, is
 * the driver's business (platform/common/uart.c, through fdt_find_compatible).
 *
 * Caches: out->cache_max is the largest cache size the tree states, from
 * the standard properties only (devicetree specification v0.4, 3.7.3 and
 * 3.8): an enabled cpu node's d-cache-size (or cache-size, a unified L1)
 * and an enabled cache node's cache-size (or d-cache-size), where a cache
 * node is any node with a cache-level property or a compatible string
 * containing "cache" ("cache", SiFive's "sifive,ccache0", ...), under
 * /cpus, a cpu node or /soc alike.  Sizes are not added up: a cache split
 * into slices is as large as the tree's largest node says.
 *
 * Several passes over the structure block are made (the main one, then at
 * most one to resolve the stdout-path node and one to resolve the
 * syscon-poweroff regmap phandle, and one per fdt_find_compatible call);
 * each re-validates what it reads.  The passes read the same bytes many
 * times over, a byte at a time: fdt_copy first brings the blob into the
 * caller's RAM buffer in 8-byte loads, for a blob in uncached I/O (the
 * OpenPiton boot ROM), where every load is a round trip.
 */
#include "rvmess/fdt.h"
#include "rvmess/memctl.h"

#define FDT_MAGIC      0xd00dfeedu
#define FDT_BEGIN_NODE 0x1u
#define FDT_END_NODE   0x2u
#define FDT_PROP       0x3u
#define FDT_NOP        0x4u
#define FDT_END        0x9u

#define FDT_HDR_V16    36u /* header without size_dt_struct */
#define FDT_HDR_V17    40u
#define FDT_MAX_DEPTH  32   /* root is depth 1 */
#define CELLS_BAD      0xffu

/* status codes (all < 0) */
#define E_HDR    (-1) /* header / block layout */
#define E_STRUCT (-2) /* structure block contents */
#define E_LIMIT  (-3) /* depth / token budget */

enum { MODE_MAIN, MODE_PATH, MODE_PHANDLE, MODE_COMPAT };

enum {
	K_OTHER = 0,
	K_ROOT,
	K_CPUS,
	K_CPU,      /* direct child of /cpus */
	K_RSVMEM,   /* /reserved-memory */
	K_RSVCHILD, /* child of /reserved-memory */
	K_CHOSEN,
	K_ALIASES,
};

struct prop {
	uint32_t off, len; /* value; off == 0: absent (offset 0 is the header) */
};

struct tok {
	uint32_t type, next;
	uint32_t name_off, name_len; /* node name, or property name in strings */
	uint32_t val_off, val_len;   /* property value */
};

struct level {
	uint32_t name_off, name_len;
	uint32_t ppos;   /* MODE_PATH: next unmatched byte of the path */
	uint8_t  acells, scells; /* this node's #address-cells/#size-cells */
	uint8_t  kind, done, match;
};

struct node {
	struct prop reg, compat, status, dtype, isa, tbf, shift, width, ev_l1d, ev_llc;
	struct prop csize, dcsize, clevel;
	struct prop stdout_path, lstdout_path, phandle, regmap, poff, pval;
};

struct ctx {
	const uint8_t  *b;
	uint32_t        size;      /* totalsize (validated <= maxlen) */
	uint32_t        soff, send;   /* structure block [soff, send) */
	uint32_t        stroff, strsize;
	struct fdt_info *info;     /* NULL in MODE_COMPAT */
	int             mode;
	int             status;    /* first failure (then reason, err_off) */
	const char     *reason;
	uint32_t        err_off;

	struct level lv[FDT_MAX_DEPTH + 1];
	struct node  cur;

	/* gathered in the main pass */
	struct prop stdout_path;     /* value of stdout-path (whole property) */
	uint32_t    aliases_props;   /* first token after /aliases' BEGIN_NODE, 0 if none */
	int         have_poweroff;
	uint32_t    poweroff_phandle;
	uint32_t    poweroff_offset;

	/* MODE_PATH */
	uint32_t path_off, path_end;
	/* MODE_PHANDLE */
	uint32_t want_phandle;
	/* MODE_COMPAT */
	const char *const *want_compat;
	struct fdt_node   *want_node;
	/* result of a MODE_PATH / MODE_PHANDLE pass */
	int      found;
	uint64_t found_base;
};

/* ---- tiny helpers (no libc) --------------------------------------------- */

static uint32_t rd32(const struct ctx *c, uint32_t off)
{
	const uint8_t *p = c->b + off;
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static uint64_t rd64(const struct ctx *c, uint32_t off)
{
	return ((uint64_t)rd32(c, off) << 32) | rd32(c, off + 4);
}

static uint32_t slen(const char *s)
{
	uint32_t n = 0;
	while (s[n])
		n++;
	return n;
}

/* Length of the NUL-terminated string at off, which must end before lim.
 * Returns -1 when there is no NUL in [off, lim). */
static int64_t bstrlen(const struct ctx *c, uint32_t off, uint32_t lim)
{
	uint32_t i;
	for (i = off; i < lim; i++)
		if (c->b[i] == 0)
			return (int64_t)(i - off);
	return -1;
}

/* blob bytes [off, off+len) equal to the C string s (exactly, no NUL needed) */
static int bytes_eq(const struct ctx *c, uint32_t off, uint32_t len, const char *s)
{
	uint32_t i;
	for (i = 0; i < len; i++)
		if (s[i] == 0 || c->b[off + i] != (uint8_t)s[i])
			return 0;
	return s[len] == 0;
}

static int fail(struct ctx *c, int status, const char *reason, uint32_t off)
{
	if (c->status == 0) {
		c->status = status;
		c->reason = reason;
		c->err_off = off;
	}
	return status;
}

static void zero(void *p, size_t n)
{
	volatile uint8_t *q = p;
	size_t i;
	for (i = 0; i < n; i++)
		q[i] = 0;
}

/* Copy the first string of a property (bounded by its length) into dst. */
static void copy_str(const struct ctx *c, struct prop pr, char *dst, uint32_t cap)
{
	volatile char *d = dst;
	uint32_t i;
	for (i = 0; i + 1 < cap && i < pr.len && c->b[pr.off + i] != 0; i++)
		d[i] = (char)c->b[pr.off + i];
	d[i] = 0;
}

/* ---- property value helpers --------------------------------------------- */

/* The property is a single string equal to s (trailing NUL inside len). */
static int prop_streq(const struct ctx *c, struct prop pr, const char *s)
{
	uint32_t n = slen(s);
	if (!pr.off || pr.len < n + 1)
		return 0;
	return bytes_eq(c, pr.off, n, s) && c->b[pr.off + n] == 0;
}

/* A string list (compatible) contains s. */
static int prop_has(const struct ctx *c, struct prop pr, const char *s)
{
	uint32_t n = slen(s), i = 0;
	if (!pr.off)
		return 0;
	while (i < pr.len) {
		uint32_t j = i;
		while (j < pr.len && c->b[pr.off + j] != 0)
			j++;
		/* [i, j) is one string; j == len means unterminated last one */
		if (j < pr.len && j - i == n && bytes_eq(c, pr.off + i, n, s))
			return 1;
		i = j + 1;
	}
	return 0;
}

/* A string list (compatible) has a string containing s. */
static int prop_has_sub(const struct ctx *c, struct prop pr, const char *s)
{
	uint32_t n = slen(s), i;
	if (!pr.off)
		return 0;
	/* a match may not run past a string's NUL: s has none */
	for (i = 0; i + n <= pr.len; i++)
		if (bytes_eq(c, pr.off + i, n, s))
			return 1;
	return 0;
}

/* u32 or u64 number property; returns 0 when absent or of another size. */
static int prop_num(const struct ctx *c, struct prop pr, uint64_t *v)
{
	if (pr.off && pr.len == 4) {
		*v = rd32(c, pr.off);
		return 1;
	}
	if (pr.off && pr.len == 8) {
		*v = rd64(c, pr.off);
		return 1;
	}
	return 0;
}

static int status_ok(const struct ctx *c, struct prop st)
{
	return !st.off || prop_streq(c, st, "okay") || prop_streq(c, st, "ok");
}

/* Entry idx of a reg property with the given cells (each at most 2). */
static int reg_entry(const struct ctx *c, struct prop pr, uint32_t ac, uint32_t sc,
		     uint32_t idx, uint64_t *base, uint64_t *size)
{
	uint32_t esz = (ac + sc) * 4, o, k;
	uint64_t v;
	if (!pr.off || ac == 0 || ac > 2 || sc > 2)
		return 0;
	if (idx >= pr.len / esz)
		return 0;
	o = pr.off + idx * esz;
	for (v = 0, k = 0; k < ac; k++, o += 4)
		v = (v << 32) | rd32(c, o);
	*base = v;
	for (v = 0, k = 0; k < sc; k++, o += 4)
		v = (v << 32) | rd32(c, o);
	*size = v;
	return 1;
}

/* A device node as fdt_node describes it: the first reg entry, the
 * compatible list (whole strings only, as many as fit), reg-shift and
 * reg-io-width (0 when absent). */
static void fill_node(const struct ctx *c, const struct node *n, uint64_t base, uint64_t size,
		      struct fdt_node *out)
{
	volatile char *d = out->compat;
	uint32_t i = 0, keep = 0;
	uint64_t v;

	out->base = base;
	out->size = size;
	/* copy up to the last string that fits with its NUL */
	while (i < n->compat.len && i < sizeof out->compat) {
		d[i] = (char)c->b[n->compat.off + i];
		if (d[i] == 0)
			keep = i + 1;
		i++;
	}
	for (i = keep; i < sizeof out->compat; i++)
		d[i] = 0;
	out->compat_len = keep;
	out->reg_shift = prop_num(c, n->shift, &v) ? (uint32_t)v : 0;
	out->reg_io_width = prop_num(c, n->width, &v) ? (uint32_t)v : 0;
}

/* name is `base` or `base@...` */
static int name_is(const struct ctx *c, const struct level *l, const char *base)
{
	uint32_t n = slen(base);
	if (l->name_len < n || !bytes_eq(c, l->name_off, n, base))
		return 0;
	return l->name_len == n || c->b[l->name_off + n] == '@';
}

/* ---- tokens --------------------------------------------------------------- */

/* 4-byte alignment in 64 bits: callers compare the result with send */
static uint64_t align4(uint64_t x)
{
	return (x + 3u) & ~(uint64_t)3u;
}

static int next_tok(struct ctx *c, uint32_t p, struct tok *t)
{
	uint64_t next;

	if (p >= c->send || c->send - p < 4)
		return fail(c, E_STRUCT, "missing-end", p);
	t->type = rd32(c, p);
	switch (t->type) {
	case FDT_BEGIN_NODE: {
		int64_t n = bstrlen(c, p + 4, c->send);
		if (n < 0)
			return fail(c, E_STRUCT, "unterminated-node-name", p);
		t->name_off = p + 4;
		t->name_len = (uint32_t)n;
		next = align4((uint64_t)p + 4 + (uint64_t)n + 1);
		if (next > c->send)
			return fail(c, E_STRUCT, "truncated-node-name", p);
		t->next = (uint32_t)next;
		return 0;
	}
	case FDT_PROP: {
		uint32_t len, nameoff;
		int64_t n;
		if (c->send - p < 12)
			return fail(c, E_STRUCT, "truncated-prop", p);
		len = rd32(c, p + 4);
		nameoff = rd32(c, p + 8);
		if (len > c->send - (p + 12))
			return fail(c, E_STRUCT, "prop-len-past-end", p);
		if (nameoff >= c->strsize)
			return fail(c, E_STRUCT, "bad-string-offset", p);
		n = bstrlen(c, c->stroff + nameoff, c->stroff + c->strsize);
		if (n < 0)
			return fail(c, E_STRUCT, "unterminated-prop-name", p);
		t->name_off = c->stroff + nameoff;
		t->name_len = (uint32_t)n;
		t->val_off = p + 12;
		t->val_len = len;
		next = align4((uint64_t)p + 12 + len);
		if (next > c->send)
			return fail(c, E_STRUCT, "prop-len-past-end", p);
		t->next = (uint32_t)next;
		return 0;
	}
	case FDT_END_NODE:
	case FDT_NOP:
	case FDT_END:
		t->next = p + 4;
		return 0;
	default:
		return fail(c, E_STRUCT, "bad-token", p);
	}
}

/* ---- what a finished node contributes --------------------------------------- */

static void node_main(struct ctx *c, int d)
{
	struct fdt_info *fi = c->info;
	const struct node *n = &c->cur;
	const struct level *l = &c->lv[d], *pl = &c->lv[d - 1];
	uint64_t base, size, v;
	uint32_t i;

	if (l->kind == K_CPUS && prop_num(c, n->tbf, &v))
		fi->timebase = v;
	if (l->kind == K_CPUS && prop_num(c, n->ev_l1d, &v))
		fi->hpm_l1d_miss = v;
	if (l->kind == K_CPUS && prop_num(c, n->ev_llc, &v))
		fi->hpm_llc_miss = v;

	/* caches: a cpu's L1 (d-cache-size, or cache-size when unified), a
	 * cache node's size (cache-size, or d-cache-size when split) */
	if (status_ok(c, n->status)) {
		int cpu = l->kind == K_CPU && prop_streq(c, n->dtype, "cpu");
		if (cpu || n->clevel.off || prop_has_sub(c, n->compat, "cache")) {
			if (prop_num(c, n->dcsize, &v) && v > fi->cache_max)
				fi->cache_max = v;
			if (prop_num(c, n->csize, &v) && v > fi->cache_max)
				fi->cache_max = v;
		}
	}

	if (l->kind == K_CPU && prop_streq(c, n->dtype, "cpu")) {
		if (reg_entry(c, n->reg, pl->acells, pl->scells, 0, &base, &size) &&
		    fi->nharts < RVM_MAX_HARTS) {
			struct fdt_hart *h = &fi->harts[fi->nharts++];
			h->hartid = (uint32_t)base;
			h->enabled = (uint8_t)status_ok(c, n->status);
			copy_str(c, n->isa, h->isa, sizeof h->isa);
		}
		if (fi->timebase == 0 && prop_num(c, n->tbf, &v))
			fi->timebase = v;
		return;
	}

	if (d == 2 && fi->mem_size == 0 &&
	    (prop_streq(c, n->dtype, "memory") || name_is(c, l, "memory")) &&
	    reg_entry(c, n->reg, pl->acells, pl->scells, 0, &base, &size) && size != 0) {
		fi->mem_base = base;
		fi->mem_size = size;
	}

	if (l->kind == K_CHOSEN) {
		if (n->stdout_path.off)
			c->stdout_path = n->stdout_path;
		else if (n->lstdout_path.off)
			c->stdout_path = n->lstdout_path;
	}

	if (l->kind == K_RSVCHILD && status_ok(c, n->status)) {
		for (i = 0; fi->nrsv < RVM_FDT_MAX_RSV &&
			    reg_entry(c, n->reg, pl->acells, pl->scells, i, &base, &size); i++) {
			if (size == 0)
				continue;
			fi->rsv[fi->nrsv].base = base;
			fi->rsv[fi->nrsv].size = size;
			fi->nrsv++;
		}
	}

	if (!n->compat.off || !status_ok(c, n->status))
		return;

	if (prop_has(c, n->compat, "ucb,htif0"))
		fi->has_htif = 1;

	if (!reg_entry(c, n->reg, pl->acells, pl->scells, 0, &base, &size)) {
		/* syscon-poweroff has no reg of its own */
		if (!c->have_poweroff && prop_has(c, n->compat, "syscon-poweroff") &&
		    n->regmap.len == 4 && (!n->pval.off || (n->pval.len == 4 && rd32(c, n->pval.off) == 0x5555))) {
			c->have_poweroff = 1;
			c->poweroff_phandle = rd32(c, n->regmap.off);
			c->poweroff_offset = (n->poff.off && n->poff.len == 4) ? rd32(c, n->poff.off) : 0;
		}
		return;
	}

	if (!fi->clint_base && (prop_has(c, n->compat, "riscv,clint0") ||
				prop_has(c, n->compat, "sifive,clint0")))
		fi->clint_base = base;
	if (!fi->test_base && (prop_has(c, n->compat, "sifive,test0") ||
			       prop_has(c, n->compat, "sifive,test1")))
		fi->test_base = base;
	if (!fi->memctl_base && prop_has(c, n->compat, RVM_MEMCTL_COMPATIBLE))
		fi->memctl_base = base;
}

static void node_path(struct ctx *c, int d)
{
	const struct node *n = &c->cur;
	const struct level *l = &c->lv[d], *pl = &c->lv[d - 1];
	uint64_t base, size;

	if (c->found || d < 2 || !l->match || l->ppos != c->path_end)
		return;
	c->found = 1;
	if (!status_ok(c, n->status) ||
	    !reg_entry(c, n->reg, pl->acells, pl->scells, 0, &base, &size))
		return;
	fill_node(c, n, base, size, &c->info->console);
}

/* MODE_COMPAT: the first enabled node with a reg and one of the compatibles. */
static void node_compat(struct ctx *c, int d)
{
	const struct node *n = &c->cur;
	const struct level *pl = &c->lv[d - 1];
	uint64_t base, size;
	int hit = 0;

	if (c->found || d < 2 || !n->compat.off || !status_ok(c, n->status))
		return;
	for (const char *const *w = c->want_compat; *w && !hit; w++)
		hit = prop_has(c, n->compat, *w);
	if (!hit || !reg_entry(c, n->reg, pl->acells, pl->scells, 0, &base, &size))
		return;
	c->found = 1;
	fill_node(c, n, base, size, c->want_node);
}

static void node_phandle(struct ctx *c, int d)
{
	const struct node *n = &c->cur;
	const struct level *pl = &c->lv[d - 1];
	uint64_t base, size;

	if (c->found || n->phandle.len != 4 || rd32(c, n->phandle.off) != c->want_phandle)
		return;
	c->found = 1;
	if (reg_entry(c, n->reg, pl->acells, pl->scells, 0, &base, &size)) {
		c->found_base = base;
		c->found = 2;
	}
}

static void finish_node(struct ctx *c, int d)
{
	c->lv[d].done = 1;
	if (c->mode == MODE_MAIN)
		node_main(c, d);
	else if (c->mode == MODE_PATH)
		node_path(c, d);
	else if (c->mode == MODE_PHANDLE)
		node_phandle(c, d);
	else
		node_compat(c, d);
}

/* MODE_PATH: does the new node at depth d continue the match of the path? */
static void path_step(struct ctx *c, int d)
{
	struct level *l = &c->lv[d];
	const struct level *pl = &c->lv[d - 1];
	uint32_t s, e, clen, i;
	int has_at = 0;

	l->match = 0;
	if (!pl->match || pl->ppos >= c->path_end)
		return;
	s = pl->ppos;
	for (e = s; e < c->path_end && c->b[e] != '/'; e++)
		if (c->b[e] == '@')
			has_at = 1;
	clen = e - s;
	if (clen == 0 || l->name_len < clen)
		return;
	for (i = 0; i < clen; i++)
		if (c->b[s + i] != c->b[l->name_off + i])
			return;
	/* exact, or the path omits the unit address */
	if (l->name_len != clen && (has_at || c->b[l->name_off + clen] != '@'))
		return;
	l->match = 1;
	l->ppos = (e < c->path_end) ? e + 1 : e;
}

static int walk(struct ctx *c, int mode)
{
	uint32_t p = c->soff, iter = 0, budget = (c->send - c->soff) / 4 + 1;
	int depth = 0, seen_root = 0;
	struct tok t;

	c->mode = mode;
	c->found = 0;
	for (;;) {
		if (++iter > budget)
			return fail(c, E_LIMIT, "too-many-tokens", p);
		if (next_tok(c, p, &t))
			return c->status;
		switch (t.type) {
		case FDT_BEGIN_NODE: {
			struct level *l;
			if (depth == 0 && seen_root)
				return fail(c, E_STRUCT, "multiple-roots", p);
			if (depth >= FDT_MAX_DEPTH)
				return fail(c, E_LIMIT, "too-deep", p);
			if (depth > 0 && !c->lv[depth].done)
				finish_node(c, depth);
			seen_root = 1;
			depth++;
			l = &c->lv[depth];
			l->name_off = t.name_off;
			l->name_len = t.name_len;
			l->acells = 2;
			l->scells = 1;
			l->done = 0;
			l->kind = K_OTHER;
			if (depth == 1) {
				l->kind = K_ROOT;
			} else if (depth == 2) {
				if (name_is(c, l, "cpus"))
					l->kind = K_CPUS;
				else if (name_is(c, l, "reserved-memory"))
					l->kind = K_RSVMEM;
				else if (name_is(c, l, "chosen"))
					l->kind = K_CHOSEN;
				else if (name_is(c, l, "aliases"))
					l->kind = K_ALIASES;
			} else if (c->lv[depth - 1].kind == K_CPUS) {
				l->kind = K_CPU;
			} else if (c->lv[depth - 1].kind == K_RSVMEM) {
				l->kind = K_RSVCHILD;
			}
			if (mode == MODE_MAIN && l->kind == K_ALIASES && !c->aliases_props)
				c->aliases_props = t.next;
			if (mode == MODE_PATH) {
				if (depth == 1) {
					l->match = 1;
					l->ppos = c->path_off + 1;
				} else {
					path_step(c, depth);
				}
			}
			zero(&c->cur, sizeof c->cur);
			break;
		}
		case FDT_END_NODE:
			if (depth == 0)
				return fail(c, E_STRUCT, "unbalanced-end-node", p);
			if (!c->lv[depth].done)
				finish_node(c, depth);
			depth--;
			break;
		case FDT_PROP: {
			struct node *n = &c->cur;
			struct prop v;
			if (depth == 0)
				return fail(c, E_STRUCT, "prop-outside-node", p);
			if (c->lv[depth].done)
				return fail(c, E_STRUCT, "prop-after-subnode", p);
			v.off = t.val_off;
			v.len = t.val_len;
			if (bytes_eq(c, t.name_off, t.name_len, "#address-cells") ||
			    bytes_eq(c, t.name_off, t.name_len, "#size-cells")) {
				uint8_t cells = CELLS_BAD;
				if (v.len == 4 && rd32(c, v.off) <= 4)
					cells = (uint8_t)rd32(c, v.off);
				if (c->b[t.name_off + 1] == 'a')
					c->lv[depth].acells = cells;
				else
					c->lv[depth].scells = cells;
			}
#define P(field, name) else if (bytes_eq(c, t.name_off, t.name_len, name)) n->field = v
			P(reg, "reg");
			P(compat, "compatible");
			P(status, "status");
			P(dtype, "device_type");
			P(isa, "riscv,isa");
			P(tbf, "timebase-frequency");
			P(ev_l1d, "rvmess,hpm-event-l1d-miss");
			P(ev_llc, "rvmess,hpm-event-llc-miss");
			P(csize, "cache-size");
			P(dcsize, "d-cache-size");
			P(clevel, "cache-level");
			P(shift, "reg-shift");
			P(width, "reg-io-width");
			P(stdout_path, "stdout-path");
			P(lstdout_path, "linux,stdout-path");
			P(phandle, "phandle");
			P(regmap, "regmap");
			P(poff, "offset");
			P(pval, "value");
#undef P
			/* linux,phandle is the pre-v0.1 spelling; phandle wins */
			if (!n->phandle.off && bytes_eq(c, t.name_off, t.name_len, "linux,phandle"))
				n->phandle = v;
			break;
		}
		case FDT_NOP:
			break;
		case FDT_END:
			if (depth != 0)
				return fail(c, E_STRUCT, "end-inside-node", p);
			if (!seen_root)
				return fail(c, E_STRUCT, "no-root-node", p);
			return 0;
		}
		p = t.next;
	}
}

/* The value of property `name` of /aliases, as a path without its NUL. */
static int alias_lookup(struct ctx *c, uint32_t name_off, uint32_t name_len,
			uint32_t *path_off, uint32_t *path_len)
{
	uint32_t p = c->aliases_props, iter = 0, budget = (c->send - c->soff) / 4 + 1;
	struct tok t;

	if (!p)
		return 0;
	while (++iter <= budget) {
		uint32_t i;
		int64_t n;
		if (next_tok(c, p, &t))
			return 0;
		if (t.type == FDT_PROP) {
			if (t.name_len == name_len) {
				for (i = 0; i < name_len; i++)
					if (c->b[t.name_off + i] != c->b[name_off + i])
						break;
				if (i == name_len) {
					n = bstrlen(c, t.val_off, t.val_off + t.val_len);
					if (n <= 0 || c->b[t.val_off] != '/')
						return 0;
					*path_off = t.val_off;
					*path_len = (uint32_t)n;
					return 1;
				}
			}
		} else if (t.type != FDT_NOP) {
			return 0;
		}
		p = t.next;
	}
	return 0;
}

static void resolve_console(struct ctx *c)
{
	struct prop sp = c->stdout_path;
	uint32_t i, len = 0, off = sp.off;

	if (!sp.off)
		return;
	/* up to the NUL (or the end of the value) and the first ':' */
	while (len < sp.len && c->b[off + len] != 0 && c->b[off + len] != ':')
		len++;
	if (len == 0)
		return;
	if (c->b[off] != '/') {
		/* an alias, possibly followed by "/sub/path" (not supported: whole-name only) */
		for (i = 0; i < len; i++)
			if (c->b[off + i] == '/')
				return;
		if (!alias_lookup(c, off, len, &off, &len))
			return;
		/* the alias value may itself carry options */
		for (i = 0; i < len; i++)
			if (c->b[off + i] == ':') {
				len = i;
				break;
			}
	}
	if (len < 2)
		return; /* "/" is the root: not a console */
	c->path_off = off;
	c->path_end = off + len;
	walk(c, MODE_PATH);
}

static void resolve_poweroff(struct ctx *c)
{
	if (!c->have_poweroff || c->info->test_base)
		return;
	c->want_phandle = c->poweroff_phandle;
	if (walk(c, MODE_PHANDLE) == 0 && c->found == 2)
		c->info->test_base = c->found_base + c->poweroff_offset;
}

/* ---- header and memory reservation block ------------------------------------ */

static int check_header(struct ctx *c, const uint8_t *blob, size_t maxlen)
{
	uint32_t tsz, off_struct, off_strings, off_rsv, version, last_comp, size_strings, size_struct, hdr;
	uint64_t send;

	c->b = blob;
	if (!blob)
		return fail(c, E_HDR, "null-blob", 0);
	if (maxlen < 8)
		return fail(c, E_HDR, "truncated-header", 0);
	if (rd32(c, 0) != FDT_MAGIC)
		return fail(c, E_HDR, "bad-magic", 0);
	tsz = rd32(c, 4);
	if (c->info)
		c->info->totalsize = tsz;
	if ((uint64_t)tsz > (uint64_t)maxlen)
		return fail(c, E_HDR, "totalsize-exceeds-maxlen", 4);
	if (tsz < FDT_HDR_V16)
		return fail(c, E_HDR, "totalsize-too-small", 4);
	c->size = tsz;
	version = rd32(c, 20);
	last_comp = rd32(c, 24);
	if (version < 16)
		return fail(c, E_HDR, "version-too-old", 20);
	if (last_comp > 17)
		return fail(c, E_HDR, "incompatible-version", 24);
	hdr = version >= 17 ? FDT_HDR_V17 : FDT_HDR_V16;
	if (tsz < hdr)
		return fail(c, E_HDR, "totalsize-too-small", 4);
	off_struct = rd32(c, 8);
	off_strings = rd32(c, 12);
	off_rsv = rd32(c, 16);
	size_strings = rd32(c, 32);

	if (off_rsv < hdr || off_rsv >= tsz || (off_rsv & 7u))
		return fail(c, E_HDR, "bad-rsvmap-offset", 16);
	if (off_struct < hdr || off_struct >= tsz || (off_struct & 3u))
		return fail(c, E_HDR, "bad-struct-offset", 8);
	if (off_strings < hdr || off_strings > tsz || size_strings > tsz - off_strings)
		return fail(c, E_HDR, "bad-strings-block", 12);
	if (version >= 17) {
		size_struct = rd32(c, 36);
		if (size_struct > tsz - off_struct)
			return fail(c, E_HDR, "bad-struct-size", 36);
		send = (uint64_t)off_struct + size_struct;
	} else {
		/* v16 has no size_dt_struct: it ends at the strings block or at totalsize */
		send = (off_strings > off_struct) ? off_strings : tsz;
	}
	/* the structure and strings blocks must not overlap */
	if (size_strings && off_strings < send && (uint64_t)off_strings + size_strings > off_struct)
		return fail(c, E_HDR, "blocks-overlap", 12);
	/* nor may the reservation map start inside the structure block */
	if (off_rsv >= off_struct && off_rsv < send)
		return fail(c, E_HDR, "blocks-overlap", 16);
	c->soff = off_struct;
	c->send = (uint32_t)send;
	c->stroff = off_strings;
	c->strsize = size_strings;
	return 0;
}

static int read_rsvmap(struct ctx *c)
{
	struct fdt_info *fi = c->info;
	uint32_t p = rd32(c, 16), end = c->size;

	/* the map ends where the next block starts */
	if (c->soff > p && c->soff < end)
		end = c->soff;
	if (c->strsize && c->stroff > p && c->stroff < end)
		end = c->stroff;
	while (end - p >= 16) {
		uint64_t base = rd64(c, p), size = rd64(c, p + 8);
		if (base == 0 && size == 0)
			return 0;
		if (size != 0 && fi->nrsv < RVM_FDT_MAX_RSV) {
			fi->rsv[fi->nrsv].base = base;
			fi->rsv[fi->nrsv].size = size;
			fi->nrsv++;
		}
		p += 16;
	}
	return fail(c, E_HDR, "rsvmap-unterminated", p);
}

int fdt_parse(const void *blob, size_t maxlen, struct fdt_info *out)
{
	struct ctx c;

	zero(out, sizeof *out);
	zero(&c, sizeof c);
	c.info = out;

	if (check_header(&c, blob, maxlen) == 0 && read_rsvmap(&c) == 0 &&
	    walk(&c, MODE_MAIN) == 0) {
		resolve_console(&c);
		resolve_poweroff(&c);
	}
	if (c.status < 0) {
		/* refused: leave nothing half-filled */
		uint32_t tsz = out->totalsize;
		zero(out, sizeof *out);
		out->status = c.status;
		out->reason = c.reason;
		out->err_off = c.err_off;
		out->totalsize = tsz;
		return c.status;
	}
	out->reason = "ok";
	out->blob = blob;
	out->blob_len = c.size;
	return 0;
}

/* ---- the copy (fdt_copy) ---------------------------------------------------- */

/* Wide accesses to the bytes of a blob: a uint8_t array to C. */
typedef volatile uint64_t __attribute__((may_alias)) vu64;
typedef volatile uint32_t __attribute__((may_alias)) vu32;

static uint32_t be32v(const volatile uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* d[i, end) = s[i, end), d and s at the same address modulo 8: every load
 * naturally aligned, 8 bytes wide but at the ends (bytes up to a 4-byte
 * boundary, 4 bytes up to an 8-byte one, and the reverse at the end).
 * Volatile both ways: s may be I/O, and a plain loop could become memcpy. */
static void copy_range(volatile uint8_t *d, const volatile uint8_t *s, uint32_t i, uint32_t end)
{
	while (i < end && ((uintptr_t)(s + i) & 7u)) {
		if (!((uintptr_t)(s + i) & 3u) && end - i >= 4) {
			*(vu32 *)(d + i) = *(const vu32 *)(s + i);
			i += 4;
		} else {
			d[i] = s[i];
			i++;
		}
	}
	for (; end - i >= 8; i += 8)
		*(vu64 *)(d + i) = *(const vu64 *)(s + i);
	if (end - i >= 4) {
		*(vu32 *)(d + i) = *(const vu32 *)(s + i);
		i += 4;
	}
	for (; i < end; i++)
		d[i] = s[i];
}

const void *fdt_copy(const void *blob, size_t maxlen, void *buf, size_t cap, size_t *len)
{
	const volatile uint8_t *s = blob;
	volatile uint8_t *h, *d;
	uint64_t hb[2]; /* the header's first 8 bytes, at blob's address modulo 8 */
	uint64_t sa = (uintptr_t)blob, ba = (uintptr_t)buf, shift;
	uint32_t tsz, i;

	*len = maxlen;
	if (!blob || !buf || maxlen < 8)
		return blob;
	/* the header's own read: magic and totalsize */
	h = (volatile uint8_t *)hb + (sa & 7u);
	copy_range(h, s, 0, 8);
	tsz = be32v(h + 4);
	shift = (sa - ba) & 7u;
	if (be32v(h) != FDT_MAGIC || tsz < FDT_HDR_V16 || tsz > maxlen || cap < shift || tsz > cap - shift)
		return blob;
	if (sa < ba + cap && ba < sa + tsz) /* a blob inside buf is parsed where it is */
		return blob;
	d = (volatile uint8_t *)buf + shift;
	for (i = 0; i < 8; i++)
		d[i] = h[i];
	copy_range(d, s, 8, tsz);
	*len = tsz;
	return (const void *)(uintptr_t)d;
}

int fdt_find_compatible(const struct fdt_info *fi, const char *const *compat,
			struct fdt_node *out)
{
	struct ctx c;

	zero(out, sizeof *out);
	if (!fi || fi->status != 0 || !fi->blob || !compat || !compat[0])
		return 0;
	zero(&c, sizeof c);
	c.want_compat = compat;
	c.want_node = out;
	/* the blob passed fdt_parse: this cannot fail, but is checked again */
	if (check_header(&c, fi->blob, fi->blob_len) != 0 || walk(&c, MODE_COMPAT) != 0 || !c.found) {
		zero(out, sizeof *out);
		return 0;
	}
	return 1;
}

int fdt_node_compatible(const struct fdt_node *n, const char *compat)
{
	uint32_t i = 0;

	while (i < n->compat_len) {
		uint32_t k = 0;
		while (compat[k] && i + k < n->compat_len && n->compat[i + k] == compat[k])
			k++;
		if (!compat[k] && i + k < n->compat_len && n->compat[i + k] == 0)
			return 1;
		while (i < n->compat_len && n->compat[i])
			i++;
		i++;
	}
	return 0;
}
