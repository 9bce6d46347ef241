/* Console log reader: see log.h and docs/protocol.md. */
#include "cli/log.h"
#include "cli/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rvmess/crc32.h"
#include "rvmess/records.h"

#define PREFIX     "@RVM "
#define PREFIX_LEN 5



static char *xstrndup(const char *s, size_t n)
{
	char *d = xrealloc(NULL, n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static void diagf(FILE *diag, const char *name, unsigned long line, const char *fmt, ...)
{
	va_list ap;

	if (!diag)
		return;
	if (line)
		fprintf(diag, "%s:%lu: ", name, line);
	else
		fprintf(diag, "%s: ", name);
	va_start(ap, fmt);
	vfprintf(diag, fmt, ap);
	va_end(ap);
	fputc('\n', diag);
}

const char *rvm_status_name(enum rvm_status s)
{
	switch (s) {
	case RVM_STATUS_OK: return "ok";
	case RVM_STATUS_FAIL: return "fail";
	default: return "none";
	}
}

/* ---- one record --------------------------------------------------------- */

void rvm_rec_free(struct rvm_rec *rec)
{
	if (!rec)
		return;
	for (size_t i = 0; i < rec->nfields; i++) {
		free(rec->fields[i].key);
		free(rec->fields[i].val);
	}
	free(rec->fields);
	free(rec->type);
	free(rec->text);
	memset(rec, 0, sizeof(*rec));
}

static int is_lower_hex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static int is_key_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

#define WHY(...) (snprintf(why, whylen, __VA_ARGS__), -1)

static int cmp_field_key(const void *a, const void *b)
{
	return strcmp((*(const struct rvm_field *const *)a)->key, (*(const struct rvm_field *const *)b)->key);
}

/* A key that appears twice, or NULL: sorted, so n log n in the field count. */
static const char *duplicate_key(const struct rvm_rec *rec)
{
	const struct rvm_field **by_key;
	const char *dup = NULL;

	if (rec->nfields < 2)
		return NULL;
	by_key = xrealloc(NULL, rec->nfields * sizeof(*by_key));
	for (size_t i = 0; i < rec->nfields; i++)
		by_key[i] = &rec->fields[i];
	qsort(by_key, rec->nfields, sizeof(*by_key), cmp_field_key);
	for (size_t i = 1; i < rec->nfields && !dup; i++)
		if (strcmp(by_key[i - 1]->key, by_key[i]->key) == 0)
			dup = by_key[i]->key;
	free(by_key);
	return dup;
}

/* Checks the checksum first (a corrupted line is named as such), then the
 * syntax of everything it covers. */
int rvm_rec_parse(const char *s, size_t len, struct rvm_rec *rec, char *why, size_t whylen)
{
	const char *star, *body_end, *p;
	uint32_t crc_line = 0, crc;
	size_t ncrc;

	memset(rec, 0, sizeof(*rec));
	if (len < PREFIX_LEN || memcmp(s, PREFIX, PREFIX_LEN) != 0)
		return WHY("no '@RVM ' prefix");
	star = memchr(s, '*', len);
	if (!star)
		return WHY("truncated record (no ' *crc' checksum)");
	ncrc = len - (size_t)(star + 1 - s);
	for (size_t i = 0; i < ncrc && i < 8; i++)
		if (!is_lower_hex((unsigned char)star[1 + i]))
			return WHY("malformed checksum (want 8 lowercase hex digits after '*')");
	if (ncrc < 8)
		return WHY("truncated record (checksum has %zu of 8 hex digits)", ncrc);
	for (size_t i = 0; i < 8; i++)
		crc_line = (crc_line << 4) | (uint32_t)rvm_hexval((unsigned char)star[1 + i]);
	if (ncrc > 8)
		return WHY("%zu unexpected bytes after the checksum", ncrc - 8);
	if (star == s || star[-1] != ' ')
		return WHY("malformed record ('*' inside a value or no space before the checksum)");
	body_end = star - 1;
	crc = rvm_crc32(0, s, (size_t)(body_end - s));
	if (crc != crc_line)
		return WHY("bad crc (computed %08x, record says %08x)", crc, crc_line);
	/* Every length below is body_end - p with p <= body_end: a record that
	 * is only the prefix and a checksum ("@RVM *...") ends before p. */
	if (body_end < s + PREFIX_LEN)
		return WHY("truncated record (no sequence number, type and h= field)");

	/* Syntax of the checksummed part. */
	for (p = s; p < body_end; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c > 0x7e)
			return WHY("non-printable byte 0x%02x at column %zu", c, (size_t)(p - s) + 1);
	}
	p = s + PREFIX_LEN;
	{
		const char *tok_end = memchr(p, ' ', (size_t)(body_end - p));
		size_t n;

		if (!tok_end)
			return WHY("truncated record (no type and h= field)");
		n = (size_t)(tok_end - p);
		if (rvm_parse_dec(p, n, &rec->seq) < 0 || (n > 1 && p[0] == '0'))
			return WHY("bad sequence number '%.*s'", (int)(n > 40 ? 40 : n), p);
		p = tok_end + 1;
		tok_end = memchr(p, ' ', (size_t)(body_end - p));
		if (!tok_end)
			return WHY("truncated record (no h= field)");
		n = (size_t)(tok_end - p);
		if (n == 0 || n > 32 || p[0] < 'a' || p[0] > 'z')
			return WHY("bad record type '%.*s'", (int)(n > 40 ? 40 : n), p);
		for (size_t i = 0; i < n; i++)
			if (!is_key_char((unsigned char)p[i]))
				return WHY("bad record type '%.*s'", (int)(n > 40 ? 40 : n), p);
		rec->type = xstrndup(p, n);
		p = tok_end + 1;
	}
	/* Fields: h= first, then key=value separated by single spaces. */
	while (p <= body_end) {
		const char *tok_end = memchr(p, ' ', (size_t)(body_end - p));
		const char *eq;
		size_t n, kn;

		if (!tok_end)
			tok_end = body_end;
		n = (size_t)(tok_end - p);
		if (n == 0) {
			rvm_rec_free(rec);
			return WHY("malformed record (empty field: double space or trailing space)");
		}
		eq = memchr(p, '=', n);
		if (!eq || eq == p) {
			rvm_rec_free(rec);
			return WHY("malformed field '%.*s' (want key=value)", (int)(n > 40 ? 40 : n), p);
		}
		kn = (size_t)(eq - p);
		for (size_t i = 0; i < kn; i++) {
			if (!is_key_char((unsigned char)p[i])) {
				rvm_rec_free(rec);
				return WHY("malformed field '%.*s' (key must be [a-z0-9_]+)",
					   (int)(n > 40 ? 40 : n), p);
			}
		}
		if (rec->nfields == 0 && rec->text == NULL) {
			/* first field: h=<hart> */
			if (kn != 1 || p[0] != 'h') {
				rvm_rec_free(rec);
				return WHY("first field is '%.*s', not h=<hart>", (int)(n > 40 ? 40 : n), p);
			}
			if (rvm_parse_dec(eq + 1, (size_t)(tok_end - eq - 1), &rec->hart) < 0) {
				rvm_rec_free(rec);
				return WHY("bad hart number in '%.*s'", (int)(n > 40 ? 40 : n), p);
			}
			rec->text = xstrndup(s, (size_t)(body_end - s)); /* marks h= seen */
		} else {
			if (kn == 1 && p[0] == 'h') {
				rvm_rec_free(rec);
				return WHY("duplicate key 'h'");
			}
			if ((rec->nfields & (rec->nfields - 1)) == 0) /* 0, 1, 2, 4...: double */
				rec->fields = xrealloc(rec->fields, (rec->nfields ? 2 * rec->nfields : 1) *
						       sizeof(*rec->fields));
			rec->fields[rec->nfields].key = xstrndup(p, kn);
			rec->fields[rec->nfields].val = xstrndup(eq + 1, (size_t)(tok_end - eq - 1));
			rec->nfields++;
		}
		p = tok_end + 1;
	}
	if (!rec->text) {
		rvm_rec_free(rec);
		return WHY("truncated record (no h= field)");
	}
	{
		const char *dup = duplicate_key(rec);

		if (dup) {
			int n = (int)strlen(dup);

			snprintf(why, whylen, "duplicate key '%.*s'", n > 40 ? 40 : n, dup);
			rvm_rec_free(rec);
			return -1;
		}
	}
	rec->known = 0;
	for (unsigned t = 0; t < RVM_REC_NTYPES; t++)
		if (strcmp(rvm_rec_name(t), rec->type) == 0)
			rec->known = 1;
	return 0;
}

/* ---- field access ------------------------------------------------------- */

const char *logrec_get(const struct rvm_rec *rec, const char *key)
{
	for (size_t i = 0; i < rec->nfields; i++)
		if (strcmp(rec->fields[i].key, key) == 0)
			return rec->fields[i].val;
	return NULL;
}

int logrec_u64(const struct rvm_rec *rec, const char *key, uint64_t *v)
{
	if (strcmp(key, "h") == 0) {
		*v = rec->hart;
		return 0;
	}
	return rvm_parse_u64(logrec_get(rec, key), v);
}

int logrec_double(const struct rvm_rec *rec, const char *key, double *v)
{
	const char *s = logrec_get(rec, key), *dot;
	uint64_t ip, fp = 0;
	double scale = 1;

	if (!s)
		return -1;
	dot = strchr(s, '.');
	if (!dot)
		return rvm_parse_u64(s, &ip) < 0 ? -1 : (*v = (double)ip, 0);
	if (rvm_parse_dec(s, (size_t)(dot - s), &ip) < 0)
		return -1;
	if (dot[1] != '\0') {
		size_t fn = strlen(dot + 1);

		if (fn > 18 || rvm_parse_dec(dot + 1, fn, &fp) < 0)
			return -1;
		for (size_t i = 0; i < fn; i++)
			scale *= 10;
	} else {
		return -1;
	}
	*v = (double)ip + (double)fp / scale;
	return 0;
}

const struct rvm_rec *rvm_log_next(const struct rvm_log *log, const char *type, size_t *it)
{
	while (*it < log->nrecs) {
		const struct rvm_rec *r = &log->recs[(*it)++];

		if (!type || strcmp(r->type, type) == 0)
			return r;
	}
	return NULL;
}

size_t rvm_log_count(const struct rvm_log *log, const char *type)
{
	size_t n = 0, it = 0;

	while (rvm_log_next(log, type, &it))
		n++;
	return n;
}

/* ---- the whole log ------------------------------------------------------ */

static int cmp_seq_line(const void *a, const void *b)
{
	const struct rvm_rec *x = a, *y = b;

	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int seq_sorted(const struct rvm_rec *c, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (cmp_seq_line(&c[i - 1], &c[i]) > 0)
			return 0;
	return 1;
}

static const char *find_prefix(const char *p, const char *end)
{
	while (end - p >= PREFIX_LEN) {
		const char *at = memchr(p, '@', (size_t)(end - p - PREFIX_LEN + 1));

		if (!at)
			return NULL;
		if (memcmp(at, PREFIX, PREFIX_LEN) == 0)
			return at;
		p = at + 1;
	}
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Distinct harts that printed a hart record (sorted: n log n). */
static void count_harts(struct rvm_log *log)
{
	uint64_t *h = xrealloc(NULL, (log->nrecs ? log->nrecs : 1) * sizeof(*h));
	size_t n = 0;

	for (size_t i = 0; i < log->nrecs; i++)
		if (strcmp(log->recs[i].type, "hart") == 0)
			h[n++] = log->recs[i].hart;
	if (n)
		qsort(h, n, sizeof(*h), cmp_u64);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || h[i] != h[i - 1])
			log->harts++;
	free(h);
}

static int cmp_type_ptr(const void *a, const void *b)
{
	const struct rvm_rec *x = *(const struct rvm_rec *const *)a, *y = *(const struct rvm_rec *const *)b;
	int c = strcmp(x->type, y->type);

	return c ? c : x < y ? -1 : x > y;
}

/* Unknown types: kept, counted, one warning per type at its first record
 * (grouped by sorting, so n log n however many types there are). */
static void warn_unknown_types(struct rvm_log *log, FILE *diag)
{
	const struct rvm_rec **u = xrealloc(NULL, (log->nrecs ? log->nrecs : 1) * sizeof(*u));
	unsigned char *first = xrealloc(NULL, log->nrecs ? log->nrecs : 1);
	size_t n = 0;

	memset(first, 0, log->nrecs ? log->nrecs : 1);
	for (size_t i = 0; i < log->nrecs; i++)
		if (!log->recs[i].known)
			u[n++] = &log->recs[i];
	log->unknown = n;
	if (n)
		qsort(u, n, sizeof(*u), cmp_type_ptr);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || strcmp(u[i]->type, u[i - 1]->type) != 0)
			first[u[i] - log->recs] = 1;
	for (size_t i = 0; i < log->nrecs; i++)
		if (first[i])
			diagf(diag, log->path, log->recs[i].line, "warning: unknown record type '%s' (kept)",
			      log->recs[i].type);
	free(u);
	free(first);
}

/*
 * On the candidates in line order: a hdr after a record with seq > 0 starts a
 * second run (the image restarted, or two logs were concatenated): counted in
 * log->runs, and the log is refused by rvm_log_clean.  A record whose seq is
 * below one on an earlier line (not a repeat of the same seq) means the lines
 * were reordered: one notice, counted in log->out_of_order.
 */
static void check_order(struct rvm_log *log, const struct rvm_rec *c, size_t n, FILE *diag)
{
	uint64_t max = 0;
	unsigned long max_line = 0, hdr_line = 0;
	int seen_later = 0;

	log->runs = 0;
	for (size_t i = 0; i < n; i++) {
		if (c[i].seq == 0 && strcmp(c[i].type, "hdr") == 0) {
			if (!hdr_line || seen_later) {
				if (log->runs == 1)
					diagf(diag, log->path, c[i].line,
					      "a second run starts here (hdr, seq 0, after seq %llu at line %lu; "
					      "the first run's hdr is at line %lu): one run per log, split it",
					      (unsigned long long)max, max_line, hdr_line);
				if (log->runs == 0)
					hdr_line = c[i].line;
				log->runs++;
				max = 0;
				seen_later = 0;
				continue;
			}
		}
		if (c[i].seq > 0)
			seen_later = 1;
		if (c[i].seq < max) {
			if (log->out_of_order == 0)
				diagf(diag, log->path, c[i].line,
				      "notice: records out of order (seq %llu after seq %llu at line %lu); "
				      "they are taken in seq order",
				      (unsigned long long)c[i].seq, (unsigned long long)max, max_line);
			log->out_of_order++;
		} else {
			max = c[i].seq;
			max_line = c[i].line;
		}
	}
	if (log->runs == 0 && n)
		log->runs = 1;
}

int rvm_log_read_mem(const char *name, const char *buf, size_t len, FILE *diag,
		     struct rvm_log *log)
{
	struct rvm_rec *cand = NULL;
	size_t ncand = 0, cap = 0;
	const char *p = buf, *end = buf + len;
	unsigned long line = 0;
	char why[160];

	memset(log, 0, sizeof(*log));
	log->path = xstrndup(name, strlen(name));

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *at, *next;

		line++;
		if (le > p && le[-1] == '\r')
			le--;
		at = find_prefix(p, le);
		while (at) {
			next = find_prefix(at + PREFIX_LEN, le);
			if (next) {
				diagf(diag, name, line, "truncated record (another record starts at column %zu)",
				      (size_t)(next - p) + 1);
				log->bad++;
			} else {
				struct rvm_rec r;

				if (rvm_rec_parse(at, (size_t)(le - at), &r, why, sizeof(why)) < 0) {
					diagf(diag, name, line, "%s", why);
					log->bad++;
				} else {
					r.line = line;
					if (ncand == cap) {
						cap = cap ? 2 * cap : 256;
						cand = xrealloc(cand, cap * sizeof(*cand));
					}
					cand[ncand++] = r;
				}
			}
			at = next;
		}
		p = nl ? nl + 1 : end;
	}
	log->lines = line;

	check_order(log, cand, ncand, diag);
	/* seq order; a log in order (the usual case) needs no sort.  qsort's
	 * array must not be NULL, even when empty. */
	if (ncand && !seq_sorted(cand, ncand))
		qsort(cand, ncand, sizeof(*cand), cmp_seq_line);

	/* One record per seq: identical repeats are duplicates, different
	 * content under the same seq is an error (first one kept). */
	log->recs = xrealloc(NULL, (ncand ? ncand : 1) * sizeof(*log->recs));
	for (size_t i = 0; i < ncand; i++) {
		struct rvm_rec *last = log->nrecs ? &log->recs[log->nrecs - 1] : NULL;

		if (last && last->seq == cand[i].seq) {
			if (strcmp(last->text, cand[i].text) == 0) {
				diagf(diag, name, cand[i].line,
				      "duplicate of record seq %llu (line %lu), dropped",
				      (unsigned long long)cand[i].seq, last->line);
				log->duplicates++;
			} else {
				diagf(diag, name, cand[i].line,
				      "record seq %llu conflicts with line %lu (same seq, different content), dropped",
				      (unsigned long long)cand[i].seq, last->line);
				log->conflicts++;
				log->bad++;
			}
			rvm_rec_free(&cand[i]);
			continue;
		}
		log->recs[log->nrecs++] = cand[i];
	}
	free(cand);

	warn_unknown_types(log, diag);

	/* Structure: hdr at 0, gaps, end. */
	{
		uint64_t expect = 0;
		const struct rvm_rec *endr = NULL;

		for (size_t i = 0; i < log->nrecs; i++) {
			const struct rvm_rec *r = &log->recs[i];

			if (r->seq > expect) {
				diagf(diag, name, 0, "missing records %llu..%llu",
				      (unsigned long long)expect, (unsigned long long)(r->seq - 1));
				log->missing += r->seq - expect;
			}
			expect = r->seq + 1;
			if (strcmp(r->type, "end") == 0) {
				if (endr)
					diagf(diag, name, r->line, "warning: second end record (first at line %lu)",
					      endr->line);
				endr = r;
			} else if (endr) {
				diagf(diag, name, r->line, "warning: record seq %llu after the end record",
				      (unsigned long long)r->seq);
			}
		}
		if (log->nrecs && log->recs[0].seq == 0) {
			if (strcmp(log->recs[0].type, "hdr") == 0)
				log->has_hdr = 1;
			else
				diagf(diag, name, log->recs[0].line, "record seq 0 is '%s', not hdr",
				      log->recs[0].type);
		} else {
			diagf(diag, name, 0, "no hdr record (seq 0)");
		}
		if (endr) {
			const char *st = logrec_get(endr, "status");
			uint64_t nrec;

			log->has_end = 1;
			if (st && strcmp(st, "ok") == 0) {
				log->status = RVM_STATUS_OK;
			} else {
				log->status = RVM_STATUS_FAIL;
				if (!st || strcmp(st, "fail") != 0)
					diagf(diag, name, endr->line, "end record: bad status '%s'",
					      st ? st : "(missing)");
			}
			if (logrec_u64(endr, "records", &nrec) == 0 && nrec != endr->seq)
				diagf(diag, name, endr->line,
				      "warning: end says records=%llu but its seq is %llu",
				      (unsigned long long)nrec, (unsigned long long)endr->seq);
		} else if (log->nrecs) {
			diagf(diag, name, 0, "no end record (log ends after seq %llu, line %lu)",
			      (unsigned long long)log->recs[log->nrecs - 1].seq,
			      log->recs[log->nrecs - 1].line);
		} else {
			diagf(diag, name, 0, "no records found");
		}
		log->complete = log->has_hdr && log->has_end && log->missing == 0;
	}

	count_harts(log);
	return 0;
}

int rvm_log_read_max(const char *path, size_t max, FILE *diag, struct rvm_log *log)
{
	FILE *f;
	struct stat st;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int rc;

	memset(log, 0, sizeof(*log));
	f = fopen(path, "rb");
	if (!f)
		return -1;
	/* a log is a file or a stream; a device (/dev/zero, a serial port: that
	 * is what `rvmess capture` records) or a directory is not */
	if (fstat(fileno(f), &st) == 0 && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISDIR(st.st_mode))) {
		fclose(f);
		errno = S_ISDIR(st.st_mode) ? EISDIR : ENODEV;
		return -1;
	}
	for (;;) {
		size_t n;

		if (cap - len < 65536) {
			cap = cap ? 2 * cap : 1 << 20;
			if (cap > max + 65536)
				cap = max + 65536;
			buf = xrealloc(buf, cap);
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
		if (len > max) { /* more than max bytes: not a console log */
			fclose(f);
			free(buf);
			errno = EFBIG;
			return -1;
		}
	}
	if (ferror(f)) {
		int e = errno ? errno : EIO;

		fclose(f);
		free(buf);
		errno = e;
		return -1;
	}
	fclose(f);
	rc = rvm_log_read_mem(path, buf, len, diag, log);
	free(buf);
	return rc;
}

int rvm_log_read(const char *path, FILE *diag, struct rvm_log *log)
{
	return rvm_log_read_max(path, RVM_LOG_MAX, diag, log);
}

const char *rvm_log_strerror(int e)
{
	switch (e) {
	case EFBIG: return "longer than 1 GiB: not a console log (rvmess reads at most 1 GiB)";
	case ENODEV: return "a device, not a log file (rvmess capture DEVICE -o LOG records a console)";
	default: return strerror(e);
	}
}

void rvm_log_free(struct rvm_log *log)
{
	for (size_t i = 0; i < log->nrecs; i++)
		rvm_rec_free(&log->recs[i]);
	free(log->recs);
	free(log->path);
	memset(log, 0, sizeof(*log));
}

int rvm_log_clean(const struct rvm_log *log)
{
	return log->complete && log->bad == 0 && log->runs <= 1 && log->status == RVM_STATUS_OK;
}
