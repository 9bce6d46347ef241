/* messsim curve family: the readers, sorting, interpolation (messsim.h). */
#include "mess/messsim.h"
#include "mess/textin.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	if (errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

void messsim_family_init(struct messsim_family *f)
{
	memset(f, 0, sizeof *f);
	for (unsigned i = 0; i < MESSSIM_NRATIOS; i++)
		f->c[i].read_pct = 2 * i;
}

void messsim_family_free(struct messsim_family *f)
{
	free(f->warnings);
	f->warnings = NULL;
	for (unsigned i = 0; i < MESSSIM_NRATIOS; i++) {
		free(f->c[i].kbps);
		free(f->c[i].ps);
		f->c[i].kbps = f->c[i].ps = NULL;
		f->c[i].n = 0;
	}
}

/* ---- one curve ------------------------------------------------------------ */

struct pt {
	int64_t kbps, ps;
	size_t line;              /* the file's line (0: not from a file) */
	double mbps;              /* as written (for the warnings) */
};

static int cmp_pt(const void *a, const void *b)
{
	const struct pt *x = a, *y = b;
	if (x->ps != y->ps)
		return x->ps < y->ps ? -1 : 1;
	return (x->kbps > y->kbps) - (x->kbps < y->kbps);
}

/* Store n points (any order) into c, sorted by latency. */
static int curve_store(struct messsim_curve *c, const struct pt *p, size_t n)
{
	struct pt *s = malloc(n * sizeof *s);
	int64_t *k = malloc(n * sizeof *k), *l = malloc(n * sizeof *l);
	if (!s || !k || !l) {
		free(s); free(k); free(l);
		return -1;
	}
	memcpy(s, p, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_pt);
	free(c->kbps);
	free(c->ps);
	c->kbps = k;
	c->ps = l;
	c->n = n;
	c->imax = 0;
	for (size_t i = 0; i < n; i++) {
		k[i] = s[i].kbps;
		l[i] = s[i].ps;
		if (k[i] > k[c->imax])
			c->imax = i;
	}
	free(s);
	return 0;
}

/* ---- rows a real family holds that cannot be curve points ------------------
 *
 * Families the Mess project publishes are smoothed (Savitzky-Golay), which
 * leaves rows no measurement gave: a negative bandwidth near the unloaded
 * end, a row whose bandwidth dips below that of a row of lower latency on
 * the rising branch (the curve would jump back there: the lower branch
 * never reads it), a row repeated.  They are clamped or dropped, and each
 * file says so in one warning (cleanlog). */

#define CLEAN_SHOWN 4 /* adjustments spelled out in a warning; the rest counted */

struct cleanlog {
	size_t first;             /* the lowest line adjusted */
	unsigned n;               /* adjustments */
	char shown[CLEAN_SHOWN][112];
};

static void clean_note(struct cleanlog *g, size_t line, const char *fmt, ...)
{
	if (!g->n || line < g->first)
		g->first = line;
	if (g->n < CLEAN_SHOWN) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(g->shown[g->n], sizeof g->shown[0], fmt, ap);
		va_end(ap);
	}
	g->n++;
}

/* Append "FILE:LINE: ..." (one line) to the family's warnings. */
static void clean_warn(struct messsim_family *f, const char *path, const struct cleanlog *g)
{
	if (!g->n)
		return;
	char w[1024];
	size_t k = (size_t)snprintf(w, sizeof w, "%s:%zu: %u row%s adjusted (smoothing artefacts): ", path, g->first, g->n,
	                            g->n == 1 ? "" : "s");
	for (unsigned i = 0; i < g->n && i < CLEAN_SHOWN && k < sizeof w; i++)
		k += (size_t)snprintf(w + k, sizeof w - k, "%s%s", i ? "; " : "", g->shown[i]);
	if (g->n > CLEAN_SHOWN && k < sizeof w)
		snprintf(w + k, sizeof w - k, "; and %u more", g->n - CLEAN_SHOWN);
	size_t old = f->warnings ? strlen(f->warnings) : 0, add = strlen(w);
	char *nw = realloc(f->warnings, old + add + 2);
	if (!nw)
		return; /* a warning lost to a full memory: the curve is loaded all the same */
	memcpy(nw + old, w, add);
	nw[old + add] = '\n';
	nw[old + add + 1] = 0;
	f->warnings = nw;
}

/* Clean the rows p[0..*n) of one curve (any order; `what` names it in the
 * notes, "" in a one-curve file): a negative bandwidth is clamped to 0;
 * sorted by latency, a row equal to the one before is dropped, and on the
 * rising branch (before the highest bandwidth) a row whose bandwidth is
 * below one of lower latency is dropped.  Sorts p; *n shrinks. */
static void curve_clean(struct pt *p, size_t *n, const char *what, struct cleanlog *g)
{
	for (size_t i = 0; i < *n; i++)
		if (p[i].kbps < 0) {
			clean_note(g, p[i].line, "line %zu%s: bandwidth %.3f MB/s clamped to 0", p[i].line, what, p[i].mbps);
			p[i].kbps = 0;
		}
	qsort(p, *n, sizeof *p, cmp_pt);
	size_t m = 0;
	for (size_t i = 0; i < *n; i++) {
		if (m && p[i].kbps == p[m - 1].kbps && p[i].ps == p[m - 1].ps) {
			clean_note(g, p[i].line, "line %zu%s: the same as line %zu, dropped", p[i].line, what, p[m - 1].line);
			continue;
		}
		p[m++] = p[i];
	}
	size_t imax = 0;
	for (size_t i = 1; i < m; i++)
		if (p[i].kbps > p[imax].kbps)
			imax = i;
	size_t k = 0;
	int64_t run = INT64_MIN;
	size_t runline = 0;
	for (size_t i = 0; i < m; i++) {
		if (i < imax && p[i].kbps < run) {
			clean_note(g, p[i].line, "line %zu%s: out of order (%.3f MB/s, below line %zu's %.3f at a lower latency), dropped",
			           p[i].line, what, (double)p[i].kbps / 1e3, runline, (double)run / 1e3);
			continue;
		}
		if (p[i].kbps > run) {
			run = p[i].kbps;
			runline = p[i].line;
		}
		p[k++] = p[i];
	}
	*n = k;
}

/* MB/s and ns (or cycles at mhz) -> kB/s and ps, range-checked: 0 or a
 * reason.  A negative bandwidth is refused unless `negative_ok` (a file's
 * row: curve_clean() clamps it, with a warning). */
static const char *to_pt(double mbps, double lat, double mhz, int negative_ok, struct pt *p)
{
	if (!(mbps >= 0) && !(negative_ok && mbps > -MESSSIM_MAX_MBPS))
		return "negative bandwidth";
	if (!(lat > 0))
		return "latency is not positive";
	if (mhz > 0)
		lat = lat * 1e3 / mhz;
	if (mbps > MESSSIM_MAX_MBPS)
		return "bandwidth above 1e9 MB/s";
	if (lat > MESSSIM_MAX_NS)
		return "latency above 1e9 ns";
	p->kbps = llround(mbps * 1e3);
	p->ps = llround(lat * 1e3);
	p->mbps = mbps;
	p->line = 0;
	if (p->ps < 1)
		p->ps = 1;
	return NULL;
}

int messsim_family_set(struct messsim_family *f, unsigned read_pct, size_t n, const double *mbps,
                       const double *ns, char *err, size_t errlen)
{
	if (read_pct > 100 || read_pct % 2)
		return fail(err, errlen, "read %% %u is not one of 0, 2, ..., 100", read_pct);
	if (n < 1 || n > MESSSIM_MAX_POINTS)
		return fail(err, errlen, "read %% %u: %zu points (1..%d)", read_pct, n, MESSSIM_MAX_POINTS);
	struct pt *p = malloc(n * sizeof *p);
	if (!p)
		return fail(err, errlen, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const char *why = to_pt(mbps[i], ns[i], 0, 0, &p[i]);
		if (why) {
			free(p);
			return fail(err, errlen, "read %% %u, point %zu: %s", read_pct, i, why);
		}
	}
	struct messsim_curve *c = &f->c[read_pct / 2];
	int rc = curve_store(c, p, n);
	free(p);
	if (rc)
		return fail(err, errlen, "out of memory");
	if (c->how != MESSSIM_MEASURED)
		f->measured++;
	c->how = MESSSIM_MEASURED;
	c->lo = c->hi = read_pct;
	return 0;
}

/* Curve c at index position x (0 .. n-1), linear between points. */
static void at_index(const struct messsim_curve *c, double x, double *kbps, double *ps)
{
	size_t i = (size_t)x;
	if (i >= c->n - 1) {
		*kbps = (double)c->kbps[c->n - 1];
		*ps = (double)c->ps[c->n - 1];
		return;
	}
	double t = x - (double)i;
	*kbps = (double)c->kbps[i] + t * (double)(c->kbps[i + 1] - c->kbps[i]);
	*ps = (double)c->ps[i] + t * (double)(c->ps[i + 1] - c->ps[i]);
}

/* R between measured a and b: both resampled at the same index fractions
 * (as many points as the longer one), weighted by the distance in R. */
static int interpolate(struct messsim_curve *r, const struct messsim_curve *a, const struct messsim_curve *b)
{
	size_t m = a->n > b->n ? a->n : b->n;
	double w = (double)(r->read_pct - a->read_pct) / (double)(b->read_pct - a->read_pct);
	struct pt *p = malloc(m * sizeof *p);
	if (!p)
		return -1;
	for (size_t j = 0; j < m; j++) {
		double f = m > 1 ? (double)j / (double)(m - 1) : 0, ka, pa, kb, pb;
		at_index(a, f * (double)(a->n - 1), &ka, &pa);
		at_index(b, f * (double)(b->n - 1), &kb, &pb);
		p[j].kbps = llround((1 - w) * ka + w * kb);
		p[j].ps = llround((1 - w) * pa + w * pb);
	}
	int rc = curve_store(r, p, m);
	free(p);
	r->how = MESSSIM_INTERPOLATED;
	r->lo = a->read_pct;
	r->hi = b->read_pct;
	return rc;
}

static int copy_curve(struct messsim_curve *r, const struct messsim_curve *a)
{
	struct pt *p = malloc(a->n * sizeof *p);
	if (!p)
		return -1;
	for (size_t i = 0; i < a->n; i++) {
		p[i].kbps = a->kbps[i];
		p[i].ps = a->ps[i];
	}
	int rc = curve_store(r, p, a->n);
	free(p);
	r->how = MESSSIM_EXTRAPOLATED;
	r->lo = r->hi = a->read_pct;
	return rc;
}

int messsim_family_finish(struct messsim_family *f, char *err, size_t errlen)
{
	if (f->measured < 2)
		return fail(err, errlen, "%u read ratio%s measured; a family needs at least two", f->measured,
		            f->measured == 1 ? "" : "s");
	int lo = -1;
	for (int i = 0; i < MESSSIM_NRATIOS; i++) {
		if (f->c[i].how == MESSSIM_MEASURED)
			lo = i;
		if (f->c[i].how != MESSSIM_ABSENT) /* measured, or labelled with its rows (a README) */
			continue;
		int hi = i + 1;
		while (hi < MESSSIM_NRATIOS && f->c[hi].how != MESSSIM_MEASURED)
			hi++;
		int rc;
		if (lo >= 0 && hi < MESSSIM_NRATIOS)
			rc = interpolate(&f->c[i], &f->c[lo], &f->c[hi]);
		else
			rc = copy_curve(&f->c[i], &f->c[lo >= 0 ? lo : hi]);
		if (rc)
			return fail(err, errlen, "out of memory");
	}
	return 0;
}

void messsim_family_describe(const struct messsim_family *f, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < MESSSIM_NRATIOS && k < len; i++) {
		const struct messsim_curve *c = &f->c[i];
		char how[48];
		if (c->how == MESSSIM_MEASURED)
			snprintf(how, sizeof how, "measured");
		else if (c->how == MESSSIM_INTERPOLATED)
			snprintf(how, sizeof how, "interpolated from %u and %u", c->lo, c->hi);
		else if (c->how == MESSSIM_EXTRAPOLATED)
			snprintf(how, sizeof how, "extrapolated from %u", c->lo);
		else
			snprintf(how, sizeof how, "absent");
		if (!c->n) {
			k += (size_t)snprintf(buf + k, len - k, "%3u %s\n", c->read_pct, how);
			continue;
		}
		k += (size_t)snprintf(buf + k, len - k, "%3u %s, %zu points, max %.3f MB/s at %.3f ns\n", c->read_pct,
		                      how, c->n, (double)c->kbps[c->imax] / 1e3, (double)c->ps[c->imax] / 1e3);
	}
}

/* ---- lookups (integer; the controller calls them once per window) ------- */

static int64_t lerp(int64_t y0, int64_t y1, int64_t x, int64_t x0, int64_t x1)
{
	if (x1 == x0)
		return y0;
	__extension__ __int128 d = (__int128)(y1 - y0) * (x - x0);
	return y0 + (int64_t)(d / (x1 - x0));
}

int64_t messsim_curve_ps_at(const struct messsim_curve *c, int64_t kbps)
{
	if (kbps <= c->kbps[0])
		return c->ps[0];
	for (size_t i = 0; i + 1 < c->n && i < c->imax; i++)
		if (c->kbps[i + 1] >= kbps) /* the first crossing: kbps[i] < kbps here */
			return lerp(c->ps[i], c->ps[i + 1], kbps, c->kbps[i], c->kbps[i + 1]);
	return c->ps[c->imax];
}

int64_t messsim_curve_kbps_at(const struct messsim_curve *c, int64_t ps)
{
	if (ps <= c->ps[0])
		return c->kbps[0];
	for (size_t i = 0; i + 1 < c->n; i++)
		if (c->ps[i + 1] >= ps)
			return lerp(c->kbps[i], c->kbps[i + 1], ps, c->ps[i], c->ps[i + 1]);
	return c->kbps[c->n - 1];
}

int64_t messsim_curve_kbps_past(const struct messsim_curve *c, int64_t ps)
{
	size_t e = c->n - 1;
	if (ps <= c->ps[e] || e == 0 || c->kbps[e] <= c->kbps[e - 1] || c->ps[e] <= c->ps[e - 1])
		return messsim_curve_kbps_at(c, ps);
	/* past the end of a curve still gaining bandwidth: on along its last
	 * segment */
	__extension__ __int128 d =
		(__int128)(c->kbps[e] - c->kbps[e - 1]) * (ps - c->ps[e]) / (c->ps[e] - c->ps[e - 1]);
	return d > INT64_MAX - c->kbps[e] ? INT64_MAX : c->kbps[e] + (int64_t)d;
}

/*
 * Memory stress score of bandwidth kbps on curve c (docs/mess.md):
 * 0.5 x position + 0.5 x slope, position = (L(b) - L0) / (Lmax - L0) with
 * L(b) the curve's latency at b (lower branch), L0 its first point's and
 * Lmax its highest bandwidth's; slope = the local dL/db over the slope of the
 * last segment before the highest bandwidth, at most 1; at or beyond the
 * highest bandwidth 1.  *lat gets L(b) in ns.
 */
double messsim_stress_score(const struct messsim_curve *c, int64_t kbps, double *lat)
{
	int64_t l = messsim_curve_ps_at(c, kbps);
	*lat = (double)l / 1e3;
	size_t im = c->imax;
	if (kbps >= c->kbps[im] || im == 0)
		return kbps >= c->kbps[im] ? 1 : 0;
	double l0 = (double)c->ps[0], lm = (double)c->ps[im];
	double pos = lm > l0 ? ((double)l - l0) / (lm - l0) : 0;
	pos = pos < 0 ? 0 : pos > 1 ? 1 : pos;
	double sref = (double)(c->ps[im] - c->ps[im - 1]) / (double)(c->kbps[im] - c->kbps[im - 1] ? c->kbps[im] - c->kbps[im - 1] : 1);
	double s = 0;
	if (kbps > c->kbps[0])
		for (size_t i = 0; i < im; i++)
			if (c->kbps[i + 1] >= kbps) {
				int64_t db = c->kbps[i + 1] - c->kbps[i];
				s = db > 0 ? (double)(c->ps[i + 1] - c->ps[i]) / (double)db : 0;
				break;
			}
	double sn = sref > 0 ? s / sref : 0;
	sn = sn < 0 ? 0 : sn > 1 ? 1 : sn;
	return 0.5 * pos + 0.5 * sn;
}

/* ---- text readers ------------------------------------------------------- */

/* A number cell: the rule of textin.h, shared with rvmess curves. */
static int parse_num(const char *s, double *v)
{
	return mess_text_num(s, v);
}

/* Read a whole line (any length); NULL at EOF.  *buf grows. */
static char *get_line(FILE *in, char **buf, size_t *cap)
{
	size_t n = 0;
	int ch;
	while ((ch = getc(in)) != EOF) {
		if (n + 2 > *cap) {
			size_t nc = *cap ? 2 * *cap : 256;
			char *nb = realloc(*buf, nc);
			if (!nb)
				return NULL;
			*buf = nb;
			*cap = nc;
		}
		if (ch == '\n')
			break;
		(*buf)[n++] = (char)ch;
	}
	if (ch == EOF && n == 0)
		return NULL;
	if (n && (*buf)[n - 1] == '\r')
		n--;
	(*buf)[n] = 0;
	return *buf;
}

struct ptbuf { struct pt *p; size_t n, cap; };

static int ptbuf_add(struct ptbuf *b, struct pt p)
{
	if (b->n == b->cap) {
		size_t nc = b->cap ? 2 * b->cap : 64;
		struct pt *np = realloc(b->p, nc * sizeof *np);
		if (!np)
			return -1;
		b->p = np;
		b->cap = nc;
	}
	b->p[b->n++] = p;
	return 0;
}

static int64_t curve_max_kbps(const struct pt *p, size_t n)
{
	int64_t m = 0;
	for (size_t i = 0; i < n; i++)
		m = p[i].kbps > m ? p[i].kbps : m;
	return m;
}

/* bwlat_<R>.txt: rows "bandwidth latency" (blank, '#' ignored). */
static int read_bwlat(const char *path, unsigned r, double mhz, struct messsim_family *f, char *err,
                      size_t errlen)
{
	FILE *in = mess_text_open(path);
	if (!in)
		return fail(err, errlen, "%s: cannot open: %s", path, mess_text_strerror(errno));
	struct ptbuf b = { 0 };
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	int rc = 0;
	while (!rc && get_line(in, &line, &cap)) {
		lineno++;
		char *tok[3], *save = NULL, *s = line;
		while (isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#')
			continue;
		int nt = 0;
		for (char *t = strtok_r(s, " \t,", &save); t; t = strtok_r(NULL, " \t,", &save))
			tok[nt < 3 ? nt : 2] = t, nt++;
		if (nt != 2) {
			rc = fail(err, errlen, "%s:%zu: %d fields, want 2 (bandwidth_MBps latency)", path, lineno, nt);
			break;
		}
		double v[2];
		for (int k = 0; k < 2; k++)
			if (parse_num(tok[k], &v[k])) {
				rc = fail(err, errlen, "%s:%zu: '" MESS_TOKF "' is not a number", path, lineno, MESS_TOKA(tok[k]));
				break;
			}
		if (rc)
			break;
		struct pt p;
		const char *why = to_pt(v[0], v[1], mhz, 1, &p);
		p.line = lineno;
		if (why)
			rc = fail(err, errlen, "%s:%zu: %s", path, lineno, why);
		else if (b.n >= MESSSIM_MAX_POINTS)
			rc = fail(err, errlen, "%s:%zu: more than %d rows", path, lineno, MESSSIM_MAX_POINTS);
		else if (ptbuf_add(&b, p))
			rc = fail(err, errlen, "%s: out of memory", path);
	}
	if (!rc && ferror(in))
		rc = fail(err, errlen, "%s: read error", path);
	if (!rc && !b.n)
		rc = fail(err, errlen, "%s:%zu: no data rows", path, lineno);
	if (!rc) {
		struct cleanlog g = { 0 };
		curve_clean(b.p, &b.n, "", &g);
		if (curve_max_kbps(b.p, b.n) <= 0)
			rc = fail(err, errlen, "%s:%zu: no row with a positive bandwidth", path, lineno);
		else
			clean_warn(f, path, &g);
	}
	if (!rc) {
		struct messsim_curve *c = &f->c[r / 2];
		if (curve_store(c, b.p, b.n))
			rc = fail(err, errlen, "%s: out of memory", path);
		else {
			c->how = MESSSIM_MEASURED;
			c->lo = c->hi = r;
			f->measured++;
		}
	}
	free(line);
	free(b.p);
	fclose(in);
	return rc;
}

/* A directory `rvmess parse` wrote has all 51 files; its README says which
 * ratios were measured and which it interpolated or copied.  Those keep the
 * rows of their file but are labelled as what they are (and do not count as
 * measured).  A README of any other origin, or a line naming a ratio whose
 * neighbours were not read, changes nothing. */
#define RVMESS_BWLAT_README "Mess simulator curves written by rvmess"

static void bwlat_readme_labels(const char *dir, struct messsim_family *f)
{
	char path[4096], line[256];
	snprintf(path, sizeof path, "%s/README", dir);
	FILE *in = mess_text_open(path);
	if (!in)
		return;
	if (!fgets(line, sizeof line, in) || strncmp(line, RVMESS_BWLAT_README, strlen(RVMESS_BWLAT_README))) {
		fclose(in);
		return;
	}
	while (fgets(line, sizeof line, in)) {
		unsigned r, a, b;
		enum messsim_how how;
		if (sscanf(line, "bwlat_%u.txt interpolated between %u and %u", &r, &a, &b) == 3)
			how = MESSSIM_INTERPOLATED;
		else if (sscanf(line, "bwlat_%u.txt extrapolated: a copy of %u", &r, &a) == 2)
			how = MESSSIM_EXTRAPOLATED, b = a;
		else
			continue;
		if (r > 100 || a > 100 || b > 100 || r % 2 || a % 2 || b % 2)
			continue;
		struct messsim_curve *c = &f->c[r / 2];
		if (c->how != MESSSIM_MEASURED || f->c[a / 2].how != MESSSIM_MEASURED ||
		    f->c[b / 2].how != MESSSIM_MEASURED || r == a || r == b)
			continue;
		c->how = how;
		c->lo = a;
		c->hi = b;
		f->measured--;
	}
	fclose(in);
}

static int load_bwlat_dir(const char *dir, double mhz, struct messsim_family *f, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	if (!d)
		return fail(err, errlen, "%s: cannot open directory: %s", dir, strerror(errno));
	struct dirent *e;
	int rc = 0;
	char path[4096];
	snprintf(f->format, sizeof f->format, "bwlat directory");
	while (!rc && (e = readdir(d))) {
		const char *n = e->d_name;
		if (strncmp(n, "bwlat_", 6))
			continue;
		char *end;
		errno = 0;
		unsigned long r = strtoul(n + 6, &end, 10);
		if (!isdigit((unsigned char)n[6]) || strcmp(end, ".txt")) {
			rc = fail(err, errlen, "%s/%s: not a bwlat_<R>.txt name", dir, n);
			break;
		}
		if (r > 100 || r % 2) {
			rc = fail(err, errlen, "%s/%s: read %% %lu is not one of 0, 2, ..., 100", dir, n, r);
			break;
		}
		if (f->c[r / 2].how == MESSSIM_MEASURED) {
			rc = fail(err, errlen, "%s/%s: read %% %lu given twice", dir, n, r);
			break;
		}
		snprintf(path, sizeof path, "%s/%s", dir, n);
		rc = read_bwlat(path, (unsigned)r, mhz, f, err, errlen);
	}
	closedir(d);
	if (!rc)
		bwlat_readme_labels(dir, f);
	if (!rc && f->measured == 0)
		rc = fail(err, errlen, "%s: no bwlat_<R>.txt files", dir);
	if (!rc && f->measured < 2)
		rc = fail(err, errlen, "%s: 1 measured read ratio; a family needs at least two", dir);
	return rc;
}

/* Split a CSV line in place (quotes around a cell removed, "" inside a
 * quoted cell kept as one "); returns the number of cells (at most max). */
static int csv_split(char *s, char **cell, int max)
{
	int n = 0;
	char *w = s;
	for (;;) {
		char *start = w;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '"') {
			s++;
			while (*s) {
				if (*s == '"' && s[1] == '"') { *w++ = '"'; s += 2; continue; }
				if (*s == '"') { s++; break; }
				*w++ = *s++;
			}
			while (*s && *s != ',')
				s++;
		} else {
			while (*s && *s != ',')
				*w++ = *s++;
			while (w > start && (w[-1] == ' ' || w[-1] == '\t'))
				w--;
		}
		int more = *s == ',';
		*w++ = 0;
		if (n < max)
			cell[n] = start;
		n++;
		if (!more)
			break;
		s++;
	}
	return n;
}

#define CSV_MAXCOLS 64

/* A data line's cells (csv_split), or -1 for a blank line. */
static int csv_row(char *line, char **cell)
{
	const char *p = line;
	while (isspace((unsigned char)*p))
		p++;
	return *p ? csv_split(line, cell, CSV_MAXCOLS) : -1;
}

static int load_csv(const char *path, double mhz, struct messsim_family *f, char *err, size_t errlen)
{
	FILE *in = mess_text_open(path);
	if (!in)
		return fail(err, errlen, "%s: cannot open: %s", path, mess_text_strerror(errno));
	char *line = NULL, *cell[CSV_MAXCOLS];
	size_t cap = 0, lineno = 0;
	struct ptbuf b[MESSSIM_NRATIOS] = { { 0 } };
	int rc = 0, ccol = -1, bcol = -1, lcol = -1, mess1 = 0, ncols = 0;
	double bw_scale = 1e3; /* GB/s -> MB/s */

	while (!rc && get_line(in, &line, &cap)) {
		lineno++;
		if (lineno == 1) {
			if (!strncmp(line, "\xEF\xBB\xBF", 3))
				memmove(line, line + 3, strlen(line + 3) + 1);
			ncols = csv_split(line, cell, CSV_MAXCOLS);
			if (ncols > CSV_MAXCOLS) {
				rc = fail(err, errlen, "%s:1: more than %d columns", path, CSV_MAXCOLS);
				break;
			}
			int c_r2 = -1, c_r1 = -1, bs = -1, bm = -1, ls = -1, lm = -1;
			for (int i = 0; i < ncols; i++) {
				const char *h = cell[i];
				if (!strcmp(h, "read_pct_rounded")) c_r2 = i;
				else if (!strcmp(h, "rd_percentage")) c_r1 = i;
				else if (!strcmp(h, "bandwidth_smooth")) bs = i;
				else if (!strcmp(h, "bandwidth_mean")) bm = i;
				else if (!strcmp(h, "latency_smooth")) ls = i;
				else if (!strcmp(h, "latency_mean")) lm = i;
			}
			if (c_r2 >= 0) {
				ccol = c_r2;
				snprintf(f->format, sizeof f->format, "Mess 2 CSV");
			} else if (c_r1 >= 0) {
				ccol = c_r1;
				mess1 = 1;
				snprintf(f->format, sizeof f->format, "Mess 1 CSV (latency in cycles)");
			} else {
				rc = fail(err, errlen, "%s:1: header has neither read_pct_rounded (Mess 2) nor rd_percentage "
				          "(Mess 1)", path);
				break;
			}
			if (bs >= 0 && ls >= 0) { bcol = bs; lcol = ls; }
			else if (bm >= 0 && lm >= 0) { bcol = bm; lcol = lm; }
			else {
				rc = fail(err, errlen, "%s:1: header lacks bandwidth_smooth+latency_smooth or "
				          "bandwidth_mean+latency_mean", path);
				break;
			}
			if (mess1 && !(mhz > 0)) {
				rc = fail(err, errlen, "%s:1: a Mess 1 CSV gives latency in cycles: state their frequency "
				          "(curve MHz)", path);
				break;
			}
			continue;
		}
		int n = csv_row(line, cell);
		if (n < 0)
			continue;
		int need = ccol > bcol ? ccol : bcol;
		need = lcol > need ? lcol : need;
		if (n <= need) {
			rc = fail(err, errlen, "%s:%zu: %d cells, the header has %d", path, lineno, n, ncols);
			break;
		}
		const int cols[3] = { ccol, bcol, lcol };
		double v[3];
		for (int k = 0; k < 3 && !rc; k++) {
			if (!*cell[cols[k]])
				rc = fail(err, errlen, "%s:%zu: column %d is empty", path, lineno, cols[k] + 1);
			else if (parse_num(cell[cols[k]], &v[k]))
				rc = fail(err, errlen, "%s:%zu: '" MESS_TOKF "' is not a number", path, lineno, MESS_TOKA(cell[cols[k]]));
		}
		if (rc)
			break;
		if (!(v[0] >= 0 && v[0] <= 100)) {
			rc = fail(err, errlen, "%s:%zu: read %% %g outside 0..100", path, lineno, v[0]);
			break;
		}
		/* nearest even ratio (Mess 2 rounds this way too) */
		unsigned r = 2u * (unsigned)floor(v[0] / 2 + 0.5);
		struct pt pt;
		const char *why = to_pt(v[1] * bw_scale, v[2], mess1 ? mhz : 0, 1, &pt);
		pt.line = lineno;
		if (why)
			rc = fail(err, errlen, "%s:%zu: %s", path, lineno, why);
		else if (b[r / 2].n >= MESSSIM_MAX_POINTS)
			rc = fail(err, errlen, "%s:%zu: more than %d rows for read %% %u", path, lineno,
			          MESSSIM_MAX_POINTS, r);
		else if (ptbuf_add(&b[r / 2], pt))
			rc = fail(err, errlen, "%s: out of memory", path);
	}
	if (!rc && ferror(in))
		rc = fail(err, errlen, "%s: read error", path);
	if (!rc && lineno == 0)
		rc = fail(err, errlen, "%s:1: empty file (no header)", path);
	unsigned nr = 0, lastr = 0;
	struct cleanlog g = { 0 };
	for (unsigned i = 0; !rc && i < MESSSIM_NRATIOS; i++) {
		if (!b[i].n)
			continue;
		char what[24];
		snprintf(what, sizeof what, " (read %u %%)", 2 * i);
		curve_clean(b[i].p, &b[i].n, what, &g);
		if (curve_max_kbps(b[i].p, b[i].n) <= 0) {
			rc = fail(err, errlen, "%s: read %u %%: no row with a positive bandwidth", path, 2 * i);
			break;
		}
		nr++;
		lastr = 2 * i;
		if (curve_store(&f->c[i], b[i].p, b[i].n)) {
			rc = fail(err, errlen, "%s: out of memory", path);
			break;
		}
		f->c[i].how = MESSSIM_MEASURED;
		f->c[i].lo = f->c[i].hi = 2 * i;
		f->measured++;
	}
	if (!rc)
		clean_warn(f, path, &g);
	if (!rc && nr == 0)
		rc = fail(err, errlen, "%s:%zu: no data rows (header only)", path, lineno);
	else if (!rc && nr < 2)
		rc = fail(err, errlen, "%s: one read ratio (%u %%); a family needs at least two", path, lastr);
	for (unsigned i = 0; i < MESSSIM_NRATIOS; i++)
		free(b[i].p);
	free(line);
	fclose(in);
	return rc;
}

/* After reading path: fill the missing ratios, or free the family on any
 * error.  Returns rc, or -1 when finishing fails. */
static int finish_or_free(struct messsim_family *f, const char *path, int rc, char *err, size_t errlen)
{
	char e2[256];
	if (!rc && messsim_family_finish(f, e2, sizeof e2))
		rc = fail(err, errlen, "%s: %s", path, e2);
	if (rc)
		messsim_family_free(f);
	return rc;
}

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

int messsim_family_load(const char *path, const struct messsim_load_opts *lo, struct messsim_family *f,
                        char *err, size_t errlen)
{
	double mhz = lo ? lo->curve_mhz : 0;
	char sub[4096];
	int rc;
	messsim_family_init(f);
	if (!(mhz >= 0))
		return fail(err, errlen, "curve frequency %g MHz is negative", mhz);
	if (is_dir(path)) {
		snprintf(sub, sizeof sub, "%s/bwlat", path);
		if (is_dir(sub)) {
			rc = load_bwlat_dir(sub, mhz, f, err, errlen);
		} else {
			snprintf(sub, sizeof sub, "%s/mess.csv", path);
			struct stat st;
			DIR *d;
			struct dirent *e;
			int has_bwlat = 0;
			if ((d = opendir(path))) {
				while ((e = readdir(d)))
					if (!strncmp(e->d_name, "bwlat_", 6))
						has_bwlat = 1;
				closedir(d);
			}
			if (!has_bwlat && stat(sub, &st) == 0)
				rc = load_csv(sub, mhz, f, err, errlen);
			else
				rc = load_bwlat_dir(path, mhz, f, err, errlen);
		}
	} else {
		rc = load_csv(path, mhz, f, err, errlen);
	}
	return finish_or_free(f, path, rc, err, errlen);
}

/* ---- a family from few kernels ---------------------------------------------- */

struct kpt { double pause, r, mbps, ns; double rw; size_t line; };

static int cmp_kpt(const void *a, const void *b)
{
	const struct kpt *x = a, *y = b;
	if (x->pause != y->pause)
		return x->pause < y->pause ? -1 : 1;
	if (x->r != y->r)
		return x->r < y->r ? -1 : 1;
	if (x->mbps != y->mbps) /* ties: any fixed order */
		return x->mbps < y->mbps ? -1 : 1;
	return (x->ns > y->ns) - (x->ns < y->ns);
}

/* by kernel, pause, then file line: a repeat follows its first row */
static int cmp_kernel_pause(const void *a, const void *b)
{
	const struct kpt *x = a, *y = b;
	if (x->rw != y->rw)
		return x->rw < y->rw ? -1 : 1;
	if (x->pause != y->pause)
		return x->pause < y->pause ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

int messsim_family_from_kernels(const char *path, struct messsim_family *f, char *err, size_t errlen)
{
	static const char *const want[] = { "pause", "rd_percentage_actual_mean", "bandwidth_mean", "latency_mean",
					    "rw_ratio" };
	messsim_family_init(f);
	snprintf(f->format, sizeof f->format, "Mess 2 CSV, kernels at equal pause");
	FILE *in = mess_text_open(path);
	if (!in)
		return fail(err, errlen, "%s: cannot open: %s", path, mess_text_strerror(errno));
	char *line = NULL, *cell[CSV_MAXCOLS];
	size_t cap = 0, lineno = 0, n = 0, kcap = 0;
	struct kpt *k = NULL;
	int col[5] = { -1, -1, -1, -1, -1 }, rc = 0, ncols = 0;
	double minns = 0;
	while (!rc && get_line(in, &line, &cap)) {
		lineno++;
		if (lineno == 1) {
			ncols = csv_split(line, cell, CSV_MAXCOLS);
			for (int i = 0; i < ncols && i < CSV_MAXCOLS; i++)
				for (int j = 0; j < 5; j++)
					if (!strcmp(cell[i], want[j]))
						col[j] = i;
			for (int j = 0; j < 4 && !rc; j++)
				if (col[j] < 0)
					rc = fail(err, errlen, "%s:1: header lacks column %s", path, want[j]);
			continue;
		}
		int nc = csv_row(line, cell);
		if (nc < 0)
			continue;
		double v[5] = { 0, 0, 0, 0, -1 };
		for (int j = 0; j < (col[4] < 0 ? 4 : 5) && !rc; j++) {
			if (col[j] >= nc || !*cell[col[j]])
				rc = fail(err, errlen, "%s:%zu: column %s is empty", path, lineno, want[j]);
			else if (parse_num(cell[col[j]], &v[j]))
				rc = fail(err, errlen, "%s:%zu: '" MESS_TOKF "' is not a number", path, lineno, MESS_TOKA(cell[col[j]]));
		}
		if (rc)
			break;
		struct pt chk;
		const char *why = to_pt(v[2] * 1e3, v[3], 0, 0, &chk);
		if (why) {
			rc = fail(err, errlen, "%s:%zu: %s", path, lineno, why);
			break;
		}
		if (!(v[0] >= 0) || !(v[1] >= 0 && v[1] <= 1)) {
			rc = fail(err, errlen, "%s:%zu: pause must be >= 0 and rd_percentage_actual_mean a fraction 0..1",
			          path, lineno);
			break;
		}
		if (n == kcap) {
			size_t nc2 = kcap ? 2 * kcap : 64;
			struct kpt *nk = n < MESSSIM_MAX_POINTS ? realloc(k, nc2 * sizeof *nk) : NULL;
			if (!nk) {
				rc = fail(err, errlen, "%s:%zu: out of memory or more than %d rows", path, lineno,
				          MESSSIM_MAX_POINTS);
				break;
			}
			k = nk;
			kcap = nc2;
		}
		k[n++] = (struct kpt){ v[0], v[1] * 100, v[2] * 1e3, v[3], v[4], lineno };
		if (n == 1 || v[3] < minns)
			minns = v[3];
	}
	if (!rc && ferror(in))
		rc = fail(err, errlen, "%s: read error", path);
	if (!rc && lineno == 0)
		rc = fail(err, errlen, "%s:1: empty file (no header)", path);
	if (!rc && n == 0)
		rc = fail(err, errlen, "%s:%zu: no data rows (header only)", path, lineno);
	free(line);
	fclose(in);
	/* one row per (kernel, pause), as rvmess curves reads the same file: a
	 * second one is a duplicate (without an rw_ratio column the kernel is
	 * not known, and rows are only points) */
	if (!rc && col[4] >= 0 && n > 1) {
		qsort(k, n, sizeof *k, cmp_kernel_pause);
		for (size_t i = 1; i < n && !rc; i++)
			if (k[i].rw == k[i - 1].rw && k[i].pause == k[i - 1].pause)
				rc = fail(err, errlen, "%s:%zu: duplicate row: rw_ratio %g pause %.0f is already on line %zu",
				          path, k[i].line, k[i].rw, k[i].pause, k[i - 1].line);
	}
	if (rc) {
		free(k);
		return rc;
	}
	qsort(k, n, sizeof *k, cmp_kpt);
	double *mb = malloc((n + 1) * sizeof *mb), *ns = malloc((n + 1) * sizeof *ns);
	if (!mb || !ns) {
		free(k); free(mb); free(ns);
		return fail(err, errlen, "out of memory");
	}
	for (unsigned r = 0; r <= 100 && !rc; r += 2) {
		size_t m = 0;
		for (size_t a = 0; a < n;) { /* one pause: k[a..b) sorted by read share */
			size_t b = a;
			while (b < n && k[b].pause == k[a].pause)
				b++;
			const struct kpt *lo = &k[a], *hi = &k[b - 1];
			if (r < lo->r) {
				mb[m] = lo->mbps; ns[m++] = lo->ns;
			} else if (r > hi->r) {
				mb[m] = hi->mbps; ns[m++] = hi->ns;
			} else {
				for (size_t i = a; i + 1 < b; i++)
					if (r >= k[i].r && r <= k[i + 1].r) {
						double w = k[i + 1].r > k[i].r ? (r - k[i].r) / (k[i + 1].r - k[i].r) : 0;
						mb[m] = k[i].mbps + w * (k[i + 1].mbps - k[i].mbps);
						ns[m++] = k[i].ns + w * (k[i + 1].ns - k[i].ns);
						break;
					}
				if (b - a == 1 && r == lo->r) {
					mb[m] = lo->mbps; ns[m++] = lo->ns;
				}
			}
			a = b;
		}
		if (!m)
			continue;
		mb[m] = 0;
		ns[m++] = minns;
		rc = messsim_family_set(f, r, m, mb, ns, err, errlen);
	}
	free(k); free(mb); free(ns);
	return finish_or_free(f, path, rc, err, errlen);
}

int messsim_family_write(const struct messsim_family *f, const char *dir, const char *origin, char *err,
                         size_t errlen)
{
	char p[4096];
	for (unsigned i = 0; i < MESSSIM_NRATIOS; i++) {
		const struct messsim_curve *c = &f->c[i];
		/* the rows the loader would drop (a repeated row, a dip on the
		 * rising branch: curve_clean) are not written */
		struct pt *q = malloc((c->n ? c->n : 1) * sizeof *q);
		if (!q)
			return fail(err, errlen, "out of memory");
		size_t m = c->n;
		for (size_t j = 0; j < m; j++)
			q[j] = (struct pt){ c->kbps[j], c->ps[j], j + 1, (double)c->kbps[j] / 1e3 };
		struct cleanlog g = { 0 };
		curve_clean(q, &m, "", &g);
		snprintf(p, sizeof p, "%s/bwlat_%u.txt", dir, c->read_pct);
		FILE *o = fopen(p, "w");
		if (!o) {
			free(q);
			return fail(err, errlen, "%s: %s", p, strerror(errno));
		}
		for (size_t j = m; j-- > 0;)
			fprintf(o, "%.3f %.3f\n", (double)q[j].kbps / 1e3, (double)q[j].ps / 1e3);
		free(q);
		if (fclose(o))
			return fail(err, errlen, "%s: write error", p);
	}
	snprintf(p, sizeof p, "%s/README", dir);
	FILE *o = fopen(p, "w");
	if (!o)
		return fail(err, errlen, "%s: %s", p, strerror(errno));
	char *d = malloc(1 << 16);
	if (!d) {
		fclose(o);
		return fail(err, errlen, "out of memory");
	}
	messsim_family_describe(f, d, 1 << 16);
	fprintf(o, "Mess simulator curves (bwlat_<R>.txt: rows \"bandwidth_MBps latency_ns\", highest\n"
	           "latency first) written by rvmess sim from %s (%s).\n\n%s", origin, f->format, d);
	free(d);
	if (fclose(o))
		return fail(err, errlen, "%s: write error", p);
	return 0;
}
