/* Mess curve family: combine, smooth, metrics, Mess file formats (see curves.h). */
#include "cli/curves.h"
#include "cli/out.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int mess_parse_peak(const char *s, double *gbps)
{
	char *e;
	double v = strtod(s, &e);

	if (e == s || *e || !(v >= 0.001 && v <= MESS_MAX_GBPS))
		return -1;
	*gbps = v;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n) /* sorts v */
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Outlier test: |x - med| above 3 scaled MADs, with a floor of 0.5 % of the
 * median so that tiny noise around identical samples is never "an outlier". */
static double outlier_limit(const double *v, size_t n, double *med_out, double *tmp)
{
	memcpy(tmp, v, n * sizeof *v);
	double med = median(tmp, n);
	for (size_t i = 0; i < n; i++)
		tmp[i] = fabs(v[i] - med);
	double mad = median(tmp, n);
	double lim = 3.0 * 1.4826 * mad;
	double floor = 0.005 * fabs(med);
	*med_out = med;
	return lim > floor ? lim : floor;
}

static unsigned round_read_pct(double rd_frac)
{
	double r = rd_frac * 100.0 / 2.0;
	long k = lround(r) * 2;
	if (k < 0)
		k = 0;
	if (k > 100)
		k = 100;
	return (unsigned)k;
}

static int cmp_sample(const void *a, const void *b)
{
	const struct mess_sample *x = a, *y = b;
	if (x->store_pct != y->store_pct)
		return x->store_pct < y->store_pct ? -1 : 1;
	if (x->pause != y->pause)
		return x->pause > y->pause ? -1 : 1; /* decreasing pause */
	return 0;
}

static int cmp_curve(const void *a, const void *b)
{
	const struct mess_curve *x = a, *y = b;
	if (x->read_pct_rounded != y->read_pct_rounded)
		return x->read_pct_rounded > y->read_pct_rounded ? -1 : 1;
	return (x->store_pct > y->store_pct) - (x->store_pct < y->store_pct);
}

/* Combine samples s[0..n) (one group) into p. */
static void combine(const struct mess_sample *s, size_t n, struct mess_point *p, double *buf)
{
	double *bw = buf, *lat = buf + n, *tmp = buf + 2 * n;
	double bw_med, lat_med;

	for (size_t i = 0; i < n; i++) {
		bw[i] = s[i].bw_gbps;
		lat[i] = s[i].lat_ns;
	}
	double bw_lim = outlier_limit(bw, n, &bw_med, tmp);
	double lat_lim = outlier_limit(lat, n, &lat_med, tmp);

	double sb = 0, sl = 0, sr = 0, sbb = 0, sll = 0;
	unsigned k = 0;
	for (int pass = 0; pass < 2 && k == 0; pass++) {
		for (size_t i = 0; i < n; i++) {
			int out = fabs(bw[i] - bw_med) > bw_lim || fabs(lat[i] - lat_med) > lat_lim;
			if (pass == 0 && out)
				continue;
			sb += bw[i];
			sl += lat[i];
			sr += s[i].rd_frac;
			k++;
		}
	}
	p->n = k;
	p->dropped = (unsigned)n - k;
	p->bw_mean = sb / k;
	p->lat_mean = sl / k;
	p->rd_frac_mean = sr / k;
	for (size_t i = 0; i < n; i++) {
		int out = fabs(bw[i] - bw_med) > bw_lim || fabs(lat[i] - lat_med) > lat_lim;
		if (out && k != n)
			continue;
		sbb += (bw[i] - p->bw_mean) * (bw[i] - p->bw_mean);
		sll += (lat[i] - p->lat_mean) * (lat[i] - p->lat_mean);
	}
	/* sample standard deviation, 0 for a single sample */
	p->bw_std = k > 1 ? sqrt(sbb / (k - 1)) : 0.0;
	p->lat_std = k > 1 ? sqrt(sll / (k - 1)) : 0.0;
	p->store_pct = s[0].store_pct;
	p->pause = s[0].pause;
	p->read_pct_rounded = round_read_pct(p->rd_frac_mean);
}

int mess_family_build(const struct mess_sample *in, size_t n, struct mess_family *out)
{
	memset(out, 0, sizeof *out);
	if (n == 0)
		return 0;
	struct mess_sample *s = malloc(n * sizeof *s);
	double *buf = malloc(3 * n * sizeof *buf);
	struct mess_point *pts = malloc(n * sizeof *pts);
	struct mess_curve *curves = calloc(n, sizeof *curves);
	if (!s || !buf || !pts || !curves)
		goto fail;
	memcpy(s, in, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_sample);

	size_t npts = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && cmp_sample(&s[i], &s[j]) == 0)
			j++;
		combine(&s[i], j - i, &pts[npts++], buf);
		i = j;
	}

	size_t nc = 0;
	for (size_t i = 0; i < npts;) {
		size_t j = i + 1;
		while (j < npts && pts[j].store_pct == pts[i].store_pct)
			j++;
		struct mess_curve *c = &curves[nc++];
		c->store_pct = pts[i].store_pct;
		c->n = j - i;
		c->pt = malloc(c->n * sizeof *c->pt);
		if (!c->pt) {
			out->curve = curves;
			out->ncurves = nc;
			goto fail;
		}
		memcpy(c->pt, &pts[i], c->n * sizeof *c->pt);
		double rd = 0;
		for (size_t k = 0; k < c->n; k++)
			rd += c->pt[k].rd_frac_mean;
		c->read_pct_rounded = round_read_pct(rd / (double)c->n);
		mess_curve_smooth(c);
		i = j;
	}
	qsort(curves, nc, sizeof *curves, cmp_curve);
	out->curve = curves;
	out->ncurves = nc;
	free(s);
	free(buf);
	free(pts);
	return 0;
fail:
	free(s);
	free(buf);
	free(pts);
	if (out->curve)
		mess_family_free(out);
	else
		free(curves);
	return -1;
}

void mess_family_free(struct mess_family *f)
{
	for (size_t i = 0; i < f->ncurves; i++)
		free(f->curve[i].pt);
	free(f->curve);
	f->curve = NULL;
	f->ncurves = 0;
}

/* Quadratic least-squares fit of y over t = j - i, j in [lo, hi], evaluated at t = 0. */
static double local_quad(const double *y, size_t lo, size_t hi, size_t i)
{
	double S[5] = {0}, T[3] = {0};
	for (size_t j = lo; j <= hi; j++) {
		double t = (double)j - (double)i, tk = 1;
		for (int k = 0; k < 5; k++) {
			S[k] += tk;
			if (k < 3)
				T[k] += tk * y[j];
			tk *= t;
		}
	}
	/* normal equations [S0 S1 S2; S1 S2 S3; S2 S3 S4] [a b c]' = T; need a */
	double m[3][4] = {
		{S[0], S[1], S[2], T[0]},
		{S[1], S[2], S[3], T[1]},
		{S[2], S[3], S[4], T[2]},
	};
	for (int c = 0; c < 3; c++) {
		int piv = c;
		for (int r = c + 1; r < 3; r++)
			if (fabs(m[r][c]) > fabs(m[piv][c]))
				piv = r;
		if (fabs(m[piv][c]) < 1e-12)
			return y[i];
		if (piv != c)
			for (int k = 0; k < 4; k++) {
				double t = m[c][k];
				m[c][k] = m[piv][k];
				m[piv][k] = t;
			}
		for (int r = 0; r < 3; r++) {
			if (r == c)
				continue;
			double f = m[r][c] / m[c][c];
			for (int k = c; k < 4; k++)
				m[r][k] -= f * m[c][k];
		}
	}
	return m[0][3] / m[0][0];
}

static void smooth_series(const double *y, double *out, size_t n)
{
	const size_t w = n >= 7 ? 7 : n;
	for (size_t i = 0; i < n; i++) {
		size_t lo = i >= w / 2 ? i - w / 2 : 0;
		if (lo + w > n)
			lo = n - w;
		size_t hi = lo + w - 1;
		double v = local_quad(y, lo, hi, i);
		double mn = y[lo], mx = y[lo];
		for (size_t j = lo; j <= hi; j++) {
			mn = y[j] < mn ? y[j] : mn;
			mx = y[j] > mx ? y[j] : mx;
		}
		out[i] = v < mn ? mn : v > mx ? mx : v;
	}
}

void mess_curve_smooth(struct mess_curve *c)
{
	size_t n = c->n;
	if (n < 5) {
		for (size_t i = 0; i < n; i++) {
			c->pt[i].bw_smooth = c->pt[i].bw_mean;
			c->pt[i].lat_smooth = c->pt[i].lat_mean;
		}
		return;
	}
	double *y = malloc(2 * n * sizeof *y);
	if (!y) { /* keep raw values rather than nothing */
		for (size_t i = 0; i < n; i++) {
			c->pt[i].bw_smooth = c->pt[i].bw_mean;
			c->pt[i].lat_smooth = c->pt[i].lat_mean;
		}
		return;
	}
	double *o = y + n;
	for (size_t i = 0; i < n; i++)
		y[i] = c->pt[i].bw_mean;
	smooth_series(y, o, n);
	for (size_t i = 0; i < n; i++)
		c->pt[i].bw_smooth = o[i];
	for (size_t i = 0; i < n; i++)
		y[i] = c->pt[i].lat_mean;
	smooth_series(y, o, n);
	for (size_t i = 0; i < n; i++)
		c->pt[i].lat_smooth = o[i];
	free(y);
}

int mess_metrics(const struct mess_family *f, double peak_gbps, double wave_tol,
                 struct mess_metrics *m)
{
	memset(m, 0, sizeof *m);
	m->peak_gbps = peak_gbps;
	if (wave_tol <= 0)
		wave_tol = 0.03;
	if (f->ncurves == 0)
		return 0;
	m->curve = calloc(f->ncurves, sizeof *m->curve);
	double *unl = malloc(f->ncurves * sizeof *unl);
	if (!m->curve || !unl) {
		free(unl);
		free(m->curve);
		m->curve = NULL;
		return -1;
	}
	m->ncurves = f->ncurves;
	size_t nu = 0;
	for (size_t i = 0; i < f->ncurves; i++)
		if (f->curve[i].n)
			unl[nu++] = f->curve[i].pt[0].lat_mean; /* largest pause */
	m->unloaded_lat_ns = nu ? median(unl, nu) : 0;
	free(unl);

	int first_sat = 1, first_max = 1;
	for (size_t i = 0; i < f->ncurves; i++) {
		const struct mess_curve *c = &f->curve[i];
		struct mess_curve_metrics *cm = &m->curve[i];
		cm->store_pct = c->store_pct;
		cm->read_pct_rounded = c->read_pct_rounded;
		if (c->n == 0)
			continue;
		size_t imax = 0;
		for (size_t k = 0; k < c->n; k++) {
			const struct mess_point *p = &c->pt[k];
			if (p->bw_mean > c->pt[imax].bw_mean)
				imax = k;
			if (p->lat_mean > cm->max_lat)
				cm->max_lat = p->lat_mean;
			if (!cm->saturated && p->lat_mean >= 2.0 * m->unloaded_lat_ns) {
				cm->saturated = 1;
				cm->sat_bw = p->bw_mean;
			}
		}
		cm->max_bw = c->pt[imax].bw_mean;
		double low = cm->max_bw;
		for (size_t k = imax + 1; k < c->n; k++) {
			const struct mess_point *p = &c->pt[k];
			if (p->bw_mean < cm->max_bw * (1.0 - wave_tol) &&
			    p->lat_mean > c->pt[imax].lat_mean && p->bw_mean < low) {
				cm->wave = 1;
				low = p->bw_mean;
			}
		}
		cm->wave_drop_gbps = cm->max_bw - low;
		m->wave_curves += (unsigned)cm->wave;
		if (cm->saturated) {
			m->sat_curves++;
			if (first_sat || cm->sat_bw < m->sat_bw_min)
				m->sat_bw_min = cm->sat_bw;
			if (first_sat || cm->sat_bw > m->sat_bw_max)
				m->sat_bw_max = cm->sat_bw;
			first_sat = 0;
		}
		if (first_max || cm->max_lat < m->max_lat_min)
			m->max_lat_min = cm->max_lat;
		if (first_max || cm->max_lat > m->max_lat_max)
			m->max_lat_max = cm->max_lat;
		first_max = 0;
	}
	return 0;
}

void mess_metrics_free(struct mess_metrics *m)
{
	free(m->curve);
	m->curve = NULL;
	m->ncurves = 0;
}

static void pct_of_peak(FILE *out, double v, double peak)
{
	if (peak > 0)
		fprintf(out, " (%.1f %%)", 100.0 * v / peak);
}

void mess_metrics_print(const struct mess_metrics *m, FILE *out)
{
	fprintf(out, "unloaded latency        %.1f ns\n", m->unloaded_lat_ns);
	if (m->sat_curves) {
		fprintf(out, "saturated bandwidth     %.2f", m->sat_bw_min);
		pct_of_peak(out, m->sat_bw_min, m->peak_gbps);
		fprintf(out, " .. %.2f GB/s", m->sat_bw_max);
		pct_of_peak(out, m->sat_bw_max, m->peak_gbps);
		fprintf(out, "  (%u of %zu curves reach 2x unloaded latency)\n", m->sat_curves, m->ncurves);
	} else {
		fprintf(out, "saturated bandwidth     not reached (no curve reaches 2x unloaded latency)\n");
	}
	fprintf(out, "maximum latency         %.1f .. %.1f ns\n", m->max_lat_min, m->max_lat_max);
	fprintf(out, "wave                    %u of %zu curves\n", m->wave_curves, m->ncurves);
	fprintf(out, "\n%-7s %-6s %10s %10s %10s %5s\n", "stores", "read%", "sat GB/s", "max GB/s",
	        "max ns", "wave");
	for (size_t i = 0; i < m->ncurves; i++) {
		const struct mess_curve_metrics *c = &m->curve[i];
		char sat[32];
		if (c->saturated)
			snprintf(sat, sizeof sat, "%.2f", c->sat_bw);
		else
			snprintf(sat, sizeof sat, "-");
		fprintf(out, "%-7u %-6u %10s %10.2f %10.1f %5s\n", c->store_pct, c->read_pct_rounded,
		        sat, c->max_bw, c->max_lat, c->wave ? "yes" : "no");
	}
}

static const char *const csv_cols[] = {
	"read_pct_rounded", "pause", "bandwidth_mean", "bandwidth_std",
	"rd_percentage_actual_mean", "latency_mean", "latency_std",
	"bandwidth_smooth", "latency_smooth", "rw_ratio",
};
#define NCOLS (sizeof csv_cols / sizeof csv_cols[0])

int mess_write_csv(const struct mess_family *f, FILE *out)
{
	for (size_t k = 0; k < NCOLS; k++)
		fprintf(out, "%s%s", k ? "," : "", csv_cols[k]);
	fputc('\n', out);
	for (size_t i = 0; i < f->ncurves; i++)
		for (size_t k = 0; k < f->curve[i].n; k++) {
			const struct mess_point *p = &f->curve[i].pt[k];
			fprintf(out, "%u,%llu,%.6f,%.6f,%.6f,%.3f,%.3f,%.6f,%.3f,%u\n",
			        p->read_pct_rounded, (unsigned long long)p->pause, p->bw_mean, p->bw_std,
			        p->rd_frac_mean, p->lat_mean, p->lat_std, p->bw_smooth, p->lat_smooth,
			        100u - p->store_pct);
		}
	return ferror(out) ? -1 : 0;
}

/* Split a CSV line in place on commas; returns the field count (at most max). */
static size_t split(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *p = line;
	while (n < max) {
		f[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = '\0';
	}
	return n;
}

static int parse_num(const char *s, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return end != s && *end == '\0' && errno == 0 && isfinite(*v) ? 0 : -1;
}

struct row_key {
	struct mess_sample s;
	size_t i;
};

static int cmp_row_key(const void *a, const void *b)
{
	const struct row_key *x = a, *y = b;
	int c = cmp_sample(&x->s, &y->s);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

int mess_read_csv(FILE *in, struct mess_family *f, char *err, size_t errlen)
{
	char line[4096];
	char *fld[32];
	int idx[NCOLS];
	size_t lineno = 1;
	struct mess_sample *s = NULL;
	struct mess_point *pts = NULL;
	size_t n = 0, cap = 0;

	memset(f, 0, sizeof *f);
	if (!fgets(line, sizeof line, in)) {
		snprintf(err, errlen, "1: empty file (no header)");
		return -1;
	}
	line[strcspn(line, "\r\n")] = '\0';
	size_t nf = split(line, fld, 32);
	for (size_t k = 0; k < NCOLS; k++) {
		idx[k] = -1;
		for (size_t j = 0; j < nf; j++)
			if (strcmp(fld[j], csv_cols[k]) == 0)
				idx[k] = (int)j;
		if (idx[k] < 0) {
			snprintf(err, errlen, "1: header lacks column %s", csv_cols[k]);
			return -1;
		}
	}
	while (fgets(line, sizeof line, in)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(in)) {
			snprintf(err, errlen, "%zu: line too long", lineno);
			goto fail;
		}
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '\0')
			continue;
		size_t got = split(line, fld, 32);
		double v[NCOLS];
		for (size_t k = 0; k < NCOLS; k++) {
			if ((size_t)idx[k] >= got) {
				snprintf(err, errlen, "%zu: missing column %s", lineno, csv_cols[k]);
				goto fail;
			}
			if (parse_num(fld[idx[k]], &v[k]) != 0) {
				snprintf(err, errlen, "%zu: column %s: not a number: '%s'", lineno,
				         csv_cols[k], fld[idx[k]]);
				goto fail;
			}
		}
		if (v[0] < 0 || v[0] > 100 || v[9] < 0 || v[9] > 100 || v[1] < 0 || v[2] < 0 ||
		    v[3] < 0 || v[4] < 0 || v[4] > 1 || v[5] <= 0 || v[6] < 0 || v[7] < 0 || v[8] <= 0) {
			snprintf(err, errlen, "%zu: value out of range (negative bandwidth, "
			         "non-positive latency, or a percentage outside 0..100)", lineno);
			goto fail;
		}
		if (v[1] > MESS_MAX_PAUSE || v[1] != floor(v[1])) {
			snprintf(err, errlen, "%zu: column pause: '%s' is not an integer in 0..2^53",
			         lineno, fld[idx[1]]);
			goto fail;
		}
		for (size_t k = 2; k <= 8; k++) {
			double lim = k == 4 ? 1 : (k == 2 || k == 3 || k == 7) ? MESS_MAX_GBPS : MESS_MAX_NS;
			if (v[k] > lim) {
				snprintf(err, errlen, "%zu: column %s: %s is beyond the limit %g %s", lineno,
				         csv_cols[k], fld[idx[k]], lim,
				         (k == 2 || k == 3 || k == 7) ? "GB/s" : "ns");
				goto fail;
			}
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			void *ns = realloc(s, cap * sizeof *s), *np;
			if (!ns)
				goto oom;
			s = ns;
			np = realloc(pts, cap * sizeof *pts);
			if (!np)
				goto oom;
			pts = np;
		}
		struct mess_point *p = &pts[n];
		memset(p, 0, sizeof *p);
		p->read_pct_rounded = (unsigned)v[0];
		p->pause = (uint64_t)v[1];
		p->bw_mean = v[2];
		p->bw_std = v[3];
		p->rd_frac_mean = v[4];
		p->lat_mean = v[5];
		p->lat_std = v[6];
		p->bw_smooth = v[7];
		p->lat_smooth = v[8];
		p->store_pct = 100u - (unsigned)v[9];
		p->n = 1;
		s[n].store_pct = p->store_pct;
		s[n].pause = p->pause;
		n++;
	}
	/* group rows into curves (same order rules as mess_family_build) */
	{
		size_t *order = malloc((n ? n : 1) * sizeof *order);
		struct row_key *key = malloc((n ? n : 1) * sizeof *key);
		if (!order || !key) {
			free(order);
			free(key);
			goto oom;
		}
		/* by (store_pct, pause desc), file order among equals: n log n */
		for (size_t i = 0; i < n; i++)
			key[i] = (struct row_key){s[i], i};
		if (n)
			qsort(key, n, sizeof *key, cmp_row_key);
		for (size_t i = 0; i < n; i++)
			order[i] = key[i].i;
		free(key);
		f->curve = calloc(n ? n : 1, sizeof *f->curve);
		if (!f->curve) {
			free(order);
			goto oom;
		}
		for (size_t i = 0; i < n;) {
			size_t j = i + 1;
			while (j < n && s[order[j]].store_pct == s[order[i]].store_pct)
				j++;
			struct mess_curve *c = &f->curve[f->ncurves++];
			c->store_pct = s[order[i]].store_pct;
			c->n = j - i;
			c->pt = malloc(c->n * sizeof *c->pt);
			if (!c->pt) {
				free(order);
				goto oom;
			}
			double rd = 0;
			for (size_t k = 0; k < c->n; k++) {
				c->pt[k] = pts[order[i + k]];
				rd += c->pt[k].rd_frac_mean;
			}
			c->read_pct_rounded = round_read_pct(rd / (double)c->n);
			i = j;
		}
		free(order);
		qsort(f->curve, f->ncurves, sizeof *f->curve, cmp_curve);
	}
	free(s);
	free(pts);
	return 0;
oom:
	snprintf(err, errlen, "%zu: out of memory", lineno);
fail:
	free(s);
	free(pts);
	mess_family_free(f);
	return -1;
}

struct bwlat_row {
	double mbps, ns;
};

static int cmp_row(const void *a, const void *b)
{
	const struct bwlat_row *x = a, *y = b;
	return (x->mbps > y->mbps) - (x->mbps < y->mbps);
}

int mess_write_bwlat_dir(const struct mess_family *f, struct outdir *od, const char *sub,
                         char *err, size_t errlen)
{
	for (unsigned r = 0; r <= 100; r += 2) {
		size_t n = 0;
		for (size_t i = 0; i < f->ncurves; i++)
			if (f->curve[i].read_pct_rounded == r)
				n += f->curve[i].n;
		if (n == 0)
			continue;
		struct bwlat_row *rows = malloc(n * sizeof *rows);
		if (!rows) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		size_t k = 0;
		for (size_t i = 0; i < f->ncurves; i++)
			if (f->curve[i].read_pct_rounded == r)
				for (size_t j = 0; j < f->curve[i].n; j++) {
					rows[k].mbps = f->curve[i].pt[j].bw_smooth * 1000.0;
					rows[k].ns = f->curve[i].pt[j].lat_smooth;
					k++;
				}
		qsort(rows, n, sizeof *rows, cmp_row);
		char name[256];
		if (snprintf(name, sizeof name, "%s/bwlat_%u.txt", sub, r) >= (int)sizeof name) {
			free(rows);
			errno = ENAMETOOLONG;
			snprintf(err, errlen, "%s: name too long", sub);
			return -1;
		}
		FILE *o = outdir_create(od, name);
		if (!o) {
			snprintf(err, errlen, "%s", outdir_error(od));
			free(rows);
			return -1;
		}
		for (size_t j = 0; j < n; j++)
			fprintf(o, "%.3f %.3f\n", rows[j].mbps, rows[j].ns);
		free(rows);
		if (outdir_close(od, o) != 0) {
			snprintf(err, errlen, "%s", outdir_error(od));
			return -1;
		}
	}
	return 0;
}
