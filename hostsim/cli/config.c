/* Config block: see config.h.  The keys: rvmess/cfgschema.h. */
#include "cli/config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/util.h"
#include "rvmess/cfgschema.h"
#include "rvmess/numparse.h"

/* fields that exist in the block but are not keys */
static const char *const derived[][2] = {
	{ "lat_nstrides", "derived from lat_strides" },
	{ "mess_nmix", "derived from mess_mix" },
	{ "mess_npause", "derived from mess_pause" },
	{ "magic", "fixed by the image format" },
	{ "version", "fixed by the image format" },
	{ "size", "fixed by the image format" },
	{ "pad1", "padding" },
};

/* help lines, in table order */
#define HELP_S(name, type, min, max, mult, recif, def, help) help,
#define HELP_L(name, type, count, maxn, min, max, mult, recif, help, ...) help,
static const char *const key_help[] = { RVM_CFG_KEYS(HELP_S, HELP_L) };

#define WHY(...) (snprintf(why, whylen, __VA_ARGS__), -1)

void cfg_default(struct rvm_config *c)
{
	static const struct rvm_config def = RVM_CFG_DEFAULTS;

	*c = def;
}

int cfg_block_read(const unsigned char *p, size_t n, struct rvm_config *c, char *why, size_t whylen)
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
	for (unsigned i = 0; i < rvm_cfg_nkeys; i++) {
		const struct rvm_cfg_key *k = &rvm_cfg_keys[i];

		if (k->list && rvm_cfg_count(c, k) > k->maxn)
			return WHY("corrupt block: %s has %u values, at most %u fit", k->name,
				   rvm_cfg_count(c, k), k->maxn);
	}
	return 0;
}

void cfg_block_write(const struct rvm_config *c, unsigned char *p)
{
	memcpy(p, c, sizeof(*c));
}

/* ---- printing ------------------------------------------------------------ */

/* A value as the parser reads it back: sizes that are whole K/M/G/T with the
 * suffix when pretty, else decimal. */
static const char *fmt(const struct rvm_cfg_key *k, uint64_t v, int pretty, char *buf, size_t len)
{
	static const char sfx[] = "KMGT";
	int s = -1;

	while (pretty && k->type == RVM_CFG_T_SIZE && s < 3 && v && v % (1ull << (10 * (s + 2))) == 0)
		s++;
	if (s >= 0)
		snprintf(buf, len, "%llu%c", (unsigned long long)(v >> (10 * (s + 1))), sfx[s]);
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

static void print_value(FILE *f, const struct rvm_config *c, const struct rvm_cfg_key *k, int pretty)
{
	char b[32];

	if (k->type == RVM_CFG_T_SUITES) {
		int first = 1;

		for (unsigned i = 0; i < RVM_SUITE_COUNT; i++) {
			if (c->suites & (1u << i)) {
				fprintf(f, "%s%s", first ? "" : ",", rvm_suite_names[i]);
				first = 0;
			}
		}
		if (c->suites & ~RVM_SUITE_ALL)
			fprintf(f, "%s0x%x", first ? "" : ",", c->suites & ~RVM_SUITE_ALL);
		return;
	}
	for (uint32_t i = 0; i < rvm_cfg_count(c, k) && i < k->maxn; i++)
		fprintf(f, "%s%s", i ? "," : "", fmt(k, rvm_cfg_get(c, k, i), pretty, b, sizeof(b)));
}

void cfg_print(FILE *f, const struct rvm_config *c)
{
	for (unsigned i = 0; i < rvm_cfg_nkeys; i++) {
		fprintf(f, "%s=", rvm_cfg_keys[i].name);
		print_value(f, c, &rvm_cfg_keys[i], 0);
		fputc('\n', f);
	}
}

/* ---- problems as text ------------------------------------------------------ */

struct why_buf {
	char *why;
	size_t whylen;
};

/* "200 out of range 1..100" (for list elements "element 2: ...") */
static void problem_text(const struct rvm_cfg_problem *p, char *why, size_t whylen)
{
	const struct rvm_cfg_key *k = p->key;
	char v[32], lo[32], hi[32], el[32] = "";

	if (k->list && p->why != RVM_CFG_COUNT)
		snprintf(el, sizeof(el), "element %u: ", p->index + 1);
	fmt(k, p->value, 1, v, sizeof(v));
	switch (p->why) {
	case RVM_CFG_RANGE:
		if (k->type == RVM_CFG_T_SUITES)
			snprintf(why, whylen, "0x%llx: no suite or an unknown bit", (unsigned long long)p->value);
		else
			snprintf(why, whylen, "%s%s out of range %s..%s", el, v, fmt(k, k->min, 1, lo, sizeof(lo)),
				 fmt(k, k->max, 1, hi, sizeof(hi)));
		break;
	case RVM_CFG_MULT:
		snprintf(why, whylen, "%s%s is not a multiple of %llu", el, v, (unsigned long long)k->mult);
		break;
	case RVM_CFG_COUNT:
		snprintf(why, whylen, "%llu values, want 1..%u", (unsigned long long)p->value, k->maxn);
		break;
	default: {
		char code[96];

		snprintf(why, whylen, "%s%s breaks the image's rule %s (limit %s)", el, v,
			 rvm_cfg_code(p, code, sizeof(code)), fmt(k, p->limit, 1, hi, sizeof(hi)));
		break;
	}
	}
}

static void first_problem(void *ctx, const struct rvm_cfg_problem *p)
{
	struct why_buf *w = ctx;

	if (!w->why[0])
		problem_text(p, w->why, w->whylen);
}

struct print_ctx {
	FILE *f;
	const char *prefix;
};

static void print_problem(void *ctx, const struct rvm_cfg_problem *p)
{
	struct print_ctx *pc = ctx;
	char why[256];

	problem_text(p, why, sizeof(why));
	if (pc->f)
		fprintf(pc->f, "%s: %s: %s\n", pc->prefix, p->key->name, why);
}

int cfg_check_block(const struct rvm_config *c, FILE *f, const char *prefix)
{
	struct print_ctx pc = { f, prefix };

	return rvm_cfg_check_all(c, print_problem, &pc);
}

/* ---- parsing --------------------------------------------------------------- */

static int parse_value(const struct rvm_cfg_key *k, const char *s, uint32_t index, uint64_t *v,
		       char *why, size_t whylen)
{
	struct why_buf w = { why, whylen };
	int rc;

	if (k->type == RVM_CFG_T_BOOL && strcmp(s, "0") != 0 && strcmp(s, "1") != 0)
		return WHY("'" TOKF "' is not 0 or 1", TOKA(s));
	rc = rvm_parse_num(s, v);
	if (rc != RVM_NUM_OK)
		return WHY("'" TOKF "' is not a number: %s", TOKA(s), rvm_num_why(rc));
	why[0] = '\0';
	if (rvm_cfg_check_value(k, *v, index, first_problem, &w))
		return -1;
	return 0;
}

/* Split a comma list into elements; returns count or -1 (message in why). */
static int split_list(const char *val, char elems[][32], unsigned max, char *why, size_t whylen)
{
	unsigned n = 0;
	const char *p = val;

	if (!*val)
		return WHY("empty list (want 1..%u values)", max);
	for (;;) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);

		if (len == 0)
			return WHY("empty element in list '" TOKF "'", TOKA(val));
		if (n == max)
			return WHY("more than %u values", max);
		if (len >= 32)
			return WHY("element '%.*s...' too long", 20, p);
		memcpy(elems[n], p, len);
		elems[n][len] = '\0';
		n++;
		if (!c)
			break;
		p = c + 1;
	}
	return (int)n;
}

/* "chase,lat,par,...": every suite the image knows, from its name table. */
static const char *suite_list(void)
{
	static char buf[RVM_SUITE_COUNT * 16];

	if (!buf[0])
		for (unsigned s = 0; s < RVM_SUITE_COUNT; s++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", s ? "," : "", rvm_suite_names[s]);
	return buf;
}

static int parse_suites(const char *val, uint32_t *bits, char *why, size_t whylen)
{
	char el[64][32];
	int n = split_list(val, el, 64, why, whylen);

	if (n < 0)
		return -1;
	*bits = 0;
	for (int i = 0; i < n; i++) {
		int found = 0;

		if (strcmp(el[i], "all") == 0) {
			*bits |= RVM_SUITE_ALL;
			continue;
		}
		for (unsigned s = 0; s < RVM_SUITE_COUNT; s++)
			if (strcmp(el[i], rvm_suite_names[s]) == 0) {
				*bits |= 1u << s;
				found = 1;
			}
		if (!found)
			return WHY("unknown suite '" TOKF "' (want %s or all)", TOKA(el[i]), suite_list());
	}
	return 0;
}

int cfg_set(struct rvm_config *c, const char *key, const char *val, char *why, size_t whylen)
{
	const struct rvm_cfg_key *k = rvm_cfg_find(key);
	struct rvm_config t = *c;
	char el[64][32];
	uint64_t v;
	int n;

	if (!k) {
		for (size_t i = 0; i < sizeof(derived) / sizeof(derived[0]); i++)
			if (strcmp(derived[i][0], key) == 0)
				return WHY("not settable (%s)", derived[i][1]);
		return WHY("unknown key");
	}
	if (k->type == RVM_CFG_T_SUITES) {
		if (parse_suites(val, &t.suites, why, whylen) < 0)
			return -1;
	} else if (!k->list) {
		if (parse_value(k, val, 0, &v, why, whylen) < 0)
			return -1;
		rvm_cfg_put(&t, k, 0, v);
	} else {
		n = split_list(val, el, k->maxn, why, whylen);
		if (n < 0)
			return -1;
		for (unsigned i = 0; i < k->maxn; i++)
			rvm_cfg_put(&t, k, i, 0);
		for (int i = 0; i < n; i++) {
			if (parse_value(k, el[i], (uint32_t)i, &v, why, whylen) < 0)
				return -1;
			rvm_cfg_put(&t, k, (uint32_t)i, v);
		}
		*(uint32_t *)((unsigned char *)&t + k->count_off) = (uint32_t)n;
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

/* ---- help ------------------------------------------------------------------ */

static void key_type(const struct rvm_cfg_key *k, char *buf, size_t len)
{
	static const char *const names[] = { "number", "bytes", "0/1", "suite names" };

	if (k->list)
		snprintf(buf, len, "list of %s", k->type == RVM_CFG_T_SIZE ? "bytes" : "numbers");
	else
		snprintf(buf, len, "%s", names[k->type]);
}

static void key_accepted(const struct rvm_cfg_key *k, char *buf, size_t len)
{
	char lo[32], hi[32];
	size_t n = 0;

	if (k->type == RVM_CFG_T_SUITES) {
		for (unsigned i = 0; i < RVM_SUITE_COUNT && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s, ", rvm_suite_names[i]);
		if (n < len)
			snprintf(buf + n, len - n, "all");
		return;
	}
	if (k->type == RVM_CFG_T_BOOL) {
		snprintf(buf, len, "0, 1");
		return;
	}
	if (k->list)
		n += (size_t)snprintf(buf + n, len - n, "1..%u values, each ", k->maxn);
	n += (size_t)snprintf(buf + n, len - n, "%s..%s", fmt(k, k->min, 1, lo, sizeof(lo)),
			      fmt(k, k->max, 1, hi, sizeof(hi)));
	if (k->mult > 1 && n < len)
		snprintf(buf + n, len - n, ", multiple of %llu", (unsigned long long)k->mult);
}

void cfg_help(FILE *f, int markdown)
{
	struct rvm_config def;
	char type[32], acc[96], *dv = NULL;
	size_t dlen = 0;

	cfg_default(&def);
	if (markdown)
		fprintf(f, "| key | type | default | accepted | meaning |\n|---|---|---|---|---|\n");
	else
		fprintf(f, "%-18s %-16s %-22s %s\n", "key", "type", "default", "accepted");
	for (unsigned i = 0; i < rvm_cfg_nkeys; i++) {
		const struct rvm_cfg_key *k = &rvm_cfg_keys[i];
		FILE *m = open_memstream(&dv, &dlen);

		if (!m)
			return;
		print_value(m, &def, k, 1);
		fclose(m);
		key_type(k, type, sizeof(type));
		key_accepted(k, acc, sizeof(acc));
		if (markdown)
			fprintf(f, "| `%s` | %s | `%s` | %s | %s |\n", k->name, type, dv, acc, key_help[i]);
		else
			fprintf(f, "%-18s %-16s %-22s %s\n%-18s %s\n", k->name, type, dv, acc, "", key_help[i]);
		free(dv);
		dv = NULL;
	}
}

/* ---- files: rvmess config's, plan's and sweep's (config.h) ---------------- */

unsigned char *cfg_read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	do {
		if (cap - *len < 65536) {
			unsigned char *nb;

			cap = cap ? 2 * cap : 1 << 20;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n > 0);
	if (ferror(f)) {
		int e = errno ? errno : EIO;

		free(buf);
		fclose(f);
		errno = e;
		return NULL;
	}
	fclose(f);
	return buf;
}

/* Write buf to target through a temp file in the same directory + rename. */
int cfg_write_atomic(const char *target, const unsigned char *buf, size_t len, mode_t mode)
{
	size_t n = strlen(target);
	char *tmp = malloc(n + 8);
	int fd, e;
	size_t off = 0;

	if (!tmp)
		return -1;
	memcpy(tmp, target, n);
	memcpy(tmp + n, ".XXXXXX", 8);
	fd = mkstemp(tmp);
	if (fd < 0) {
		e = errno;
		free(tmp);
		errno = e;
		return -1;
	}
	while (off < len) {
		ssize_t w = write(fd, buf + off, len - off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		off += (size_t)w;
	}
	if (fchmod(fd, mode) < 0 || fsync(fd) < 0)
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, target) < 0)
		goto fail;
	free(tmp);
	return 0;
fail:
	e = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	errno = e;
	return -1;
}

int cfg_apply_file(struct rvm_config *c, const char *path, int *errors)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, key[128], why[256];
	size_t cap = 0;
	ssize_t len;
	unsigned long ln = 0;

	if (!f) {
		fprintf(stderr, "rvmess: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		char *h, *p = line;
		size_t n = (size_t)len;

		ln++;
		if (n > 4095) {
			fprintf(stderr, "%s:%lu: line too long (%zu bytes, at most 4095)\n", path, ln, n);
			(*errors)++;
			continue;
		}
		if (strlen(line) != n) { /* the rest of the line would be lost unseen */
			fprintf(stderr, "%s:%lu: a NUL byte in the line (column %zu)\n", path, ln, strlen(line) + 1);
			(*errors)++;
			continue;
		}
		h = strchr(line, '#');
		if (h)
			*h = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		n = strlen(p);
		while (n && (p[n - 1] == '\n' || p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t'))
			p[--n] = '\0';
		if (!n)
			continue;
		if (cfg_assign(c, p, key, sizeof(key), why, sizeof(why)) < 0) {
			fprintf(stderr, "%s:%lu: %s: %s\n", path, ln, key, why);
			(*errors)++;
		}
	}
	free(line);
	if (ferror(f)) {
		fprintf(stderr, "rvmess: %s: read error\n", path);
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}
