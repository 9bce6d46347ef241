/* Mess curve family: combine, smooth, metrics, Mess file formats (see curves.h). */
#include "cli/curves.h"
#include "cli/out.h"
#include "cli/util.h"
#include "mess/textin.h"

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

/*
 * A kernel curve's read %: the mean measured read share of its loaded points,
 * those at >= half the curve's highest bandwidth, where the generators and not
 * the chase make the traffic.  Idle points are chase-dominated (close to 100 %
 * reads whatever the kernel) and would pull the label up.
 */
unsigned mess_curve_read_pct(const struct mess_curve *c)
{
	double bmax = 0, sum = 0;
	size_t k = 0;
	for (size_t i = 0; i < c->n; i++)
		bmax = c->pt[i].bw_mean > bmax ? c->pt[i].bw_mean : bmax;
	for (size_t i = 0; i < c->n; i++)
		if (c->pt[i].bw_mean >= 0.5 * bmax) {
			sum += c->pt[i].rd_frac_mean;
			k++;
		}
	return k ? round_read_pct(sum / (double)k) : 100;
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
		c->read_pct_rounded = mess_curve_read_pct(c);
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

/* Least-squares polynomial of degree `deg` (<= 3) through y[lo..hi] over
 * t = j - i, evaluated at t = 0 (at point i). */
static double local_poly(const double *y, size_t lo, size_t hi, size_t i, int deg)
{
	enum { D = 4 };
	double S[2 * D - 1] = {0}, T[D] = {0}, m[D][D + 1];
	int n = deg + 1;
	for (size_t j = lo; j <= hi; j++) {
		double t = (double)j - (double)i, tk = 1;
		for (int k = 0; k < 2 * n - 1; k++) {
			S[k] += tk;
			if (k < n)
				T[k] += tk * y[j];
			tk *= t;
		}
	}
	for (int r = 0; r < n; r++) {
		for (int c = 0; c < n; c++)
			m[r][c] = S[r + c];
		m[r][n] = T[r];
	}
	for (int c = 0; c < n; c++) {
		int piv = c;
		for (int r = c + 1; r < n; r++)
			if (fabs(m[r][c]) > fabs(m[piv][c]))
				piv = r;
		if (fabs(m[piv][c]) < 1e-12)
			return y[i];
		if (piv != c)
			for (int k = 0; k <= n; k++) {
				double t = m[c][k];
				m[c][k] = m[piv][k];
				m[piv][k] = t;
			}
		for (int r = 0; r < n; r++) {
			if (r == c)
				continue;
			double f = m[r][c] / m[c][c];
			for (int k = c; k <= n; k++)
				m[r][k] -= f * m[c][k];
		}
	}
	return m[0][n] / m[0][0];
}

/* Savitzky-Golay, window MESS_SG_WINDOW, order MESS_SG_ORDER; the ends use the
 * first and last full window (scipy's mode "interp"); n >= the window. */
static void savgol(const double *y, double *out, size_t n)
{
	const size_t w = MESS_SG_WINDOW;
	for (size_t i = 0; i < n; i++) {
		size_t lo = i >= w / 2 ? i - w / 2 : 0;
		if (lo + w > n)
			lo = n - w;
		out[i] = local_poly(y, lo, lo + w - 1, i, MESS_SG_ORDER);
	}
}

struct ord_key {
	int plateau;
	double key;
	uint64_t pause;
	size_t i;
};

static int cmp_ord(const void *a, const void *b)
{
	const struct ord_key *x = a, *y = b;
	if (x->plateau != y->plateau)
		return x->plateau - y->plateau;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->pause != y->pause) /* more pressure later */
		return x->pause > y->pause ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* The wave (mess_metrics): in pressure order, after the bandwidth maximum a
 * later point has lower bandwidth (by more than tol relative) and higher
 * latency.  1 if so; *imax the maximum's index, *low the lowest such
 * bandwidth (the maximum's when there is none). */
static int curve_wave(const struct mess_curve *c, double tol, size_t *imax_out, double *low_out)
{
	size_t imax = 0;
	int wave = 0;

	for (size_t k = 0; k < c->n; k++)
		if (c->pt[k].bw_mean > c->pt[imax].bw_mean)
			imax = k;
	double max = c->n ? c->pt[imax].bw_mean : 0, low = max;
	for (size_t k = imax + 1; k < c->n; k++) {
		const struct mess_point *p = &c->pt[k];
		if (p->bw_mean < max * (1.0 - tol) && p->lat_mean > c->pt[imax].lat_mean && p->bw_mean < low) {
			wave = 1;
			low = p->bw_mean;
		}
	}
	if (imax_out)
		*imax_out = imax;
	if (low_out)
		*low_out = low;
	return wave;
}

int mess_curve_follows_pressure(const struct mess_curve *c)
{
	return c->store_pct != MESS_NO_KERNEL && curve_wave(c, MESS_WAVE_TOL, NULL, NULL);
}

size_t *mess_curve_order(const struct mess_curve *c)
{
	size_t n = c->n;
	struct ord_key *k = malloc((n ? n : 1) * sizeof *k);
	size_t *o = malloc((n ? n : 1) * sizeof *o);
	double bmax = 0;
	if (!k || !o) {
		free(k);
		free(o);
		return NULL;
	}
	if (mess_curve_follows_pressure(c)) { /* a wave: the measurement's own order */
		for (size_t i = 0; i < n; i++)
			o[i] = i;
		free(k);
		return o;
	}
	for (size_t i = 0; i < n; i++)
		bmax = c->pt[i].bw_mean > bmax ? c->pt[i].bw_mean : bmax;
	for (size_t i = 0; i < n; i++) {
		const struct mess_point *p = &c->pt[i];
		int pl = p->bw_mean >= (1.0 - MESS_PLATEAU_TOL) * bmax;
		k[i] = (struct ord_key){pl, pl ? p->lat_mean : p->bw_mean, p->pause, i};
	}
	qsort(k, n, sizeof *k, cmp_ord);
	for (size_t i = 0; i < n; i++)
		o[i] = k[i].i;
	free(k);
	return o;
}

static void copy_raw(struct mess_curve *c)
{
	for (size_t i = 0; i < c->n; i++) {
		c->pt[i].bw_smooth = c->pt[i].bw_mean;
		c->pt[i].lat_smooth = c->pt[i].lat_mean;
	}
}

static double clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void mess_curve_smooth(struct mess_curve *c)
{
	size_t n = c->n, m = n + 1;
	if (m < MESS_SG_WINDOW) {
		copy_raw(c);
		return;
	}
	size_t *o = mess_curve_order(c);
	double *y = malloc(4 * m * sizeof *y);
	if (!o || !y) { /* keep the measured values rather than nothing */
		free(o);
		free(y);
		copy_raw(c);
		return;
	}
	double *bw = y, *lat = y + m, *sbw = y + 2 * m, *slat = y + 3 * m;
	double bmin = c->pt[0].bw_mean, bmax = bmin, lmin = c->pt[0].lat_mean, lmax = lmin;
	for (size_t i = 0; i < n; i++) {
		const struct mess_point *p = &c->pt[i];
		bmin = fmin(bmin, p->bw_mean);
		bmax = fmax(bmax, p->bw_mean);
		lmin = fmin(lmin, p->lat_mean);
		lmax = fmax(lmax, p->lat_mean);
	}
	/* the anchor: zero bandwidth at the lowest latency (Mess 2) */
	bw[0] = 0;
	lat[0] = c->anchor_ns > 0 ? c->anchor_ns : lmin;
	for (size_t i = 0; i < n; i++) {
		bw[i + 1] = c->pt[o[i]].bw_mean;
		lat[i + 1] = c->pt[o[i]].lat_mean;
	}
	savgol(bw, sbw, m);
	savgol(lat, slat, m);
	for (size_t i = 0; i < n; i++) {
		struct mess_point *p = &c->pt[o[i]];
		double db = fmax(2.0 * p->bw_std, MESS_SMOOTH_BAND * p->bw_mean);
		double dl = fmax(2.0 * p->lat_std, MESS_SMOOTH_BAND * p->lat_mean);
		p->bw_smooth = clamp(clamp(sbw[i + 1], p->bw_mean - db, p->bw_mean + db), bmin, bmax);
		p->lat_smooth = clamp(clamp(slat[i + 1], p->lat_mean - dl, p->lat_mean + dl), lmin, lmax);
	}
	free(o);
	free(y);
}

int mess_metrics(const struct mess_family *f, double peak_gbps, double wave_tol,
                 struct mess_metrics *m)
{
	memset(m, 0, sizeof *m);
	m->peak_gbps = peak_gbps;
	if (wave_tol <= 0)
		wave_tol = MESS_WAVE_TOL;
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
		size_t imax;
		double low;
		cm->wave = curve_wave(c, wave_tol, &imax, &low);
		for (size_t k = 0; k < c->n; k++) {
			const struct mess_point *p = &c->pt[k];
			if (p->lat_mean > cm->max_lat)
				cm->max_lat = p->lat_mean;
			if (!cm->saturated && p->lat_mean >= 2.0 * m->unloaded_lat_ns) {
				cm->saturated = 1;
				cm->sat_bw = p->bw_mean;
				if (k > 0) { /* the crossing, between this point and the one before */
					const struct mess_point *q = &c->pt[k - 1];
					double t = (2.0 * m->unloaded_lat_ns - q->lat_mean) /
					           (p->lat_mean - q->lat_mean);
					cm->sat_bw = q->bw_mean + t * (p->bw_mean - q->bw_mean);
				}
			}
		}
		cm->max_bw = c->pt[imax].bw_mean;
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
	if (m->ncurves == 0) {
		fprintf(out, "no Mess curve points (every window left out)\n");
		return;
	}
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

/* A number cell: one rule with the Mess simulator's readers (mess/textin.h) */
static int parse_num(const char *s, double *v)
{
	return mess_text_num(s, v);
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
	size_t *line_of = NULL;
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
				snprintf(err, errlen, "%zu: column %s: not a number: '" TOKF "'", lineno,
				         csv_cols[k], TOKA(fld[idx[k]]));
				goto fail;
			}
		}
		if (v[0] < 0 || v[0] > 100 || v[9] < 0 || v[9] > 100 || v[1] < 0 || v[2] < 0 ||
		    v[3] < 0 || v[4] < 0 || v[4] > 1 || v[5] <= 0 || v[6] < 0 || v[7] < 0 || v[8] <= 0) {
			snprintf(err, errlen, "%zu: value out of range (negative bandwidth, "
			         "non-positive latency, or a percentage outside 0..100)", lineno);
			goto fail;
		}
		/* the group's read % as Mess 2 rounds it: an even integer (it is the
		 * index of the group's bwlat file: 50 and 51 would share one) */
		if (v[0] != floor(v[0]) || (long)v[0] % 2) {
			snprintf(err, errlen, "%zu: column read_pct_rounded: '" TOKF "' is not an even percentage 0..100",
			         lineno, TOKA(fld[idx[0]]));
			goto fail;
		}
		if (v[1] > MESS_MAX_PAUSE || v[1] != floor(v[1])) {
			snprintf(err, errlen, "%zu: column pause: '" TOKF "' is not an integer in 0..2^53",
			         lineno, TOKA(fld[idx[1]]));
			goto fail;
		}
		for (size_t k = 2; k <= 8; k++) {
			double lim = k == 4 ? 1 : (k == 2 || k == 3 || k == 7) ? MESS_MAX_GBPS : MESS_MAX_NS;
			if (v[k] > lim) {
				snprintf(err, errlen, "%zu: column %s: " TOKF " is beyond the limit %g %s", lineno,
				         csv_cols[k], TOKA(fld[idx[k]]), lim,
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
			np = realloc(line_of, cap * sizeof *line_of);
			if (!np)
				goto oom;
			line_of = np;
		}
		line_of[n] = lineno;
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
	if (n == 0) {
		snprintf(err, errlen, "%zu: no data rows (a header alone is not a curve)", lineno);
		goto fail;
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
		/* one row per (kernel, pause): a second one is a duplicate */
		for (size_t i = 1; i < n; i++)
			if (cmp_sample(&key[i - 1].s, &key[i].s) == 0) {
				size_t a = key[i - 1].i, b = key[i].i;
				snprintf(err, errlen, "%zu: duplicate row: rw_ratio %u pause %llu is already on line %zu",
				         line_of[a > b ? a : b], 100u - key[i].s.store_pct,
				         (unsigned long long)key[i].s.pause, line_of[a < b ? a : b]);
				free(order);
				free(key);
				goto fail;
			}
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
			for (size_t k = 0; k < c->n; k++)
				c->pt[k] = pts[order[i + k]];
			c->read_pct_rounded = mess_curve_read_pct(c);
			mess_curve_smooth(c); /* the file's own smoothing is not trusted */
			i = j;
		}
		free(order);
		qsort(f->curve, f->ncurves, sizeof *f->curve, cmp_curve);
	}
	free(s);
	free(pts);
	free(line_of);
	return 0;
oom:
	snprintf(err, errlen, "%zu: out of memory", lineno);
fail:
	free(s);
	free(pts);
	free(line_of);
	mess_family_free(f);
	return -1;
}

static int cmp_group(const void *a, const void *b)
{
	const struct mess_point *x = *(const struct mess_point *const *)a;
	const struct mess_point *y = *(const struct mess_point *const *)b;
	if (x->read_pct_rounded != y->read_pct_rounded)
		return x->read_pct_rounded > y->read_pct_rounded ? -1 : 1;
	return (x < y) ? -1 : x > y;
}

int mess_family_by_read(const struct mess_family *f, struct mess_family *g)
{
	size_t tot = 0, ng = 0;
	double top = 0, lmin = 0;
	memset(g, 0, sizeof *g);
	for (size_t i = 0; i < f->ncurves; i++)
		for (size_t k = 0; k < f->curve[i].n; k++) {
			tot++;
			top = top > f->curve[i].pt[k].bw_mean ? top : f->curve[i].pt[k].bw_mean;
			if (tot == 1 || f->curve[i].pt[k].lat_mean < lmin)
				lmin = f->curve[i].pt[k].lat_mean;
		}
	if (tot == 0)
		return 0;
	const struct mess_point **pp = malloc(tot * sizeof *pp);
	g->curve = calloc(tot, sizeof *g->curve);
	if (!pp || !g->curve) {
		free(pp);
		free(g->curve);
		g->curve = NULL;
		return -1;
	}
	size_t k = 0;
	for (size_t i = 0; i < f->ncurves; i++)
		for (size_t j = 0; j < f->curve[i].n; j++)
			pp[k++] = &f->curve[i].pt[j];
	qsort(pp, tot, sizeof *pp, cmp_group);
	for (size_t i = 0; i < tot;) {
		size_t j = i + 1;
		while (j < tot && pp[j]->read_pct_rounded == pp[i]->read_pct_rounded)
			j++;
		struct mess_curve *c = &g->curve[ng++];
		c->store_pct = MESS_NO_KERNEL;
		c->read_pct_rounded = pp[i]->read_pct_rounded;
		c->anchor_ns = lmin; /* zero bandwidth: the family's unloaded latency */
		c->n = j - i;
		c->pt = malloc(c->n * sizeof *c->pt);
		size_t *o;
		if (!c->pt)
			goto oom;
		for (size_t q = 0; q < c->n; q++)
			c->pt[q] = *pp[i + q];
		/* points in the smoothing order: the line is drawn through them so */
		o = mess_curve_order(c);
		struct mess_point *tmp = malloc(c->n * sizeof *tmp);
		if (!o || !tmp) {
			free(o);
			free(tmp);
			goto oom;
		}
		for (size_t q = 0; q < c->n; q++)
			tmp[q] = c->pt[o[q]];
		free(c->pt);
		free(o);
		c->pt = tmp;
		mess_curve_smooth(c);
		i = j;
	}
	g->ncurves = ng;
	free(pp);
	/* a group is a curve when it holds >= 0.6 x the mean points per group
	 * (Mess 2's filter) and reaches half the family's highest bandwidth (a
	 * group of idle points only is not a curve) */
	int any = 0;
	for (size_t i = 0; i < ng; i++) {
		struct mess_curve *c = &g->curve[i];
		double bmax = 0;
		for (size_t q = 0; q < c->n; q++)
			bmax = fmax(bmax, c->pt[q].bw_mean);
		c->thin = !((double)c->n >= 0.6 * (double)tot / (double)ng && bmax >= 0.5 * top);
		any |= !c->thin;
	}
	if (!any) /* keep the group with the highest bandwidth */
		for (size_t i = 0; i < ng; i++)
			for (size_t q = 0; q < g->curve[i].n; q++)
				if (g->curve[i].pt[q].bw_mean == top)
					g->curve[i].thin = 0;
	return 0;
oom:
	g->ncurves = ng;
	free(pp);
	mess_family_free(g);
	return -1;
}

static int rows_alloc(struct mess_bwlat *b)
{
	b->mbps = malloc(b->n * sizeof *b->mbps);
	b->ns = malloc(b->n * sizeof *b->ns);
	return b->mbps && b->ns ? 0 : -1;
}

/* Rows of a measured group, ascending: the anchor, then the smoothed points
 * with bandwidth and latency each a running maximum (the simulator assumes a
 * monotonic curve). */
static int rows_of_group(const struct mess_curve *c, struct mess_bwlat *b)
{
	b->n = c->n + 1;
	if (rows_alloc(b) < 0)
		return -1;
	double lmin = c->pt[0].lat_mean, bw = 0, lat = 0;
	for (size_t q = 0; q < c->n; q++)
		lmin = fmin(lmin, c->pt[q].lat_mean);
	if (c->anchor_ns > 0)
		lmin = c->anchor_ns;
	b->mbps[0] = 0;
	b->ns[0] = lmin;
	for (size_t q = 0; q < c->n; q++) {
		bw = fmax(bw, c->pt[q].bw_smooth * 1000.0);
		lat = fmax(fmax(lat, lmin), c->pt[q].lat_smooth);
		b->mbps[q + 1] = bw;
		b->ns[q + 1] = lat;
	}
	return 0;
}

/* Curve c at index fraction t in [0, 1] (linear between rows). */
static void at_fraction(const struct mess_bwlat *c, double t, double *bw, double *ns)
{
	double x = t * (double)(c->n - 1);
	size_t i = (size_t)floor(x);
	if (i >= c->n - 1) {
		*bw = c->mbps[c->n - 1];
		*ns = c->ns[c->n - 1];
		return;
	}
	double u = x - (double)i;
	*bw = c->mbps[i] + u * (c->mbps[i + 1] - c->mbps[i]);
	*ns = c->ns[i] + u * (c->ns[i + 1] - c->ns[i]);
}

static int rows_copy(const struct mess_bwlat *from, struct mess_bwlat *b)
{
	b->n = from->n;
	if (rows_alloc(b) < 0)
		return -1;
	memcpy(b->mbps, from->mbps, b->n * sizeof *b->mbps);
	memcpy(b->ns, from->ns, b->n * sizeof *b->ns);
	return 0;
}

/* Between measured curves lo and hi: point by point at the same index
 * fraction, weighted by the distance in read %. */
static int rows_interp(const struct mess_bwlat *lo, const struct mess_bwlat *hi, unsigned r,
                       struct mess_bwlat *b)
{
	double w = (double)(r - lo->read_pct) / (double)(hi->read_pct - lo->read_pct);
	b->n = lo->n > hi->n ? lo->n : hi->n;
	if (rows_alloc(b) < 0)
		return -1;
	for (size_t i = 0; i < b->n; i++) {
		double t = b->n > 1 ? (double)i / (double)(b->n - 1) : 0, b1, n1, b2, n2;
		at_fraction(lo, t, &b1, &n1);
		at_fraction(hi, t, &b2, &n2);
		b->mbps[i] = (1 - w) * b1 + w * b2;
		b->ns[i] = (1 - w) * n1 + w * n2;
	}
	return 0;
}

void mess_bwlat_free(struct mess_bwlat *b)
{
	for (unsigned i = 0; i < MESS_NRATIOS; i++) {
		free(b[i].mbps);
		free(b[i].ns);
		b[i].mbps = b[i].ns = NULL;
		b[i].n = 0;
	}
}

int mess_bwlat_build(const struct mess_family *f, struct mess_bwlat *b)
{
	struct mess_family g;
	int measured[MESS_NRATIOS] = {0};

	memset(b, 0, MESS_NRATIOS * sizeof *b);
	for (unsigned i = 0; i < MESS_NRATIOS; i++)
		b[i].read_pct = 2 * i;
	if (mess_family_by_read(f, &g) < 0)
		return -1;
	if (g.ncurves == 0) {
		errno = EINVAL;
		return -1;
	}
	for (size_t i = 0; i < g.ncurves; i++) {
		struct mess_bwlat *x = &b[g.curve[i].read_pct_rounded / 2];
		x->points = g.curve[i].n;
		if (g.curve[i].thin)
			continue;
		measured[x->read_pct / 2] = 1;
		x->how = BWLAT_MEASURED;
		x->lo = x->hi = x->read_pct;
		if (rows_of_group(&g.curve[i], x) < 0)
			goto oom;
	}
	mess_family_free(&g);
	for (int i = 0; i < MESS_NRATIOS; i++) {
		if (measured[i])
			continue;
		int lo = i - 1, hi = i + 1;
		while (lo >= 0 && !measured[lo])
			lo--;
		while (hi < MESS_NRATIOS && !measured[hi])
			hi++;
		struct mess_bwlat *x = &b[i];
		if (lo >= 0 && hi < MESS_NRATIOS) {
			x->how = BWLAT_INTERPOLATED;
			x->lo = 2u * (unsigned)lo;
			x->hi = 2u * (unsigned)hi;
			if (rows_interp(&b[lo], &b[hi], x->read_pct, x) < 0)
				goto oom2;
		} else {
			int near = lo >= 0 ? lo : hi;
			x->how = BWLAT_EXTRAPOLATED;
			x->lo = x->hi = 2u * (unsigned)near;
			if (rows_copy(&b[near], x) < 0)
				goto oom2;
		}
	}
	return 0;
oom:
	mess_family_free(&g);
oom2:
	mess_bwlat_free(b);
	errno = ENOMEM;
	return -1;
}

void mess_bwlat_readme(const struct mess_bwlat *b, FILE *o)
{
	fprintf(o, "Mess simulator curves written by rvmess (docs/formats.md).\n"
	           "bwlat_<R>.txt: R = read %% at memory, 0..100 step 2; rows\n"
	           "\"bandwidth_MBps latency_ns\", descending bandwidth, the last row the\n"
	           "zero-bandwidth anchor at the family's lowest latency.\n"
	           "A measured R holds the points whose measured read share rounds to R\n"
	           "(over every kernel), smoothed; R with too few points (< 0.6 x the mean\n"
	           "per R, or not reaching half the highest bandwidth) count as not measured.\n\n");
	for (unsigned i = 0; i < MESS_NRATIOS; i++) {
		const struct mess_bwlat *x = &b[i];
		fprintf(o, "bwlat_%u.txt ", x->read_pct);
		if (x->how == BWLAT_MEASURED)
			fprintf(o, "measured (%zu points)\n", x->points);
		else if (x->how == BWLAT_INTERPOLATED)
			fprintf(o, "interpolated between %u and %u", x->lo, x->hi);
		else
			fprintf(o, "extrapolated: a copy of %u, the nearest measured", x->lo);
		if (x->how != BWLAT_MEASURED)
			fprintf(o, x->points ? " (%zu points measured at this R: too few)\n" : "\n",
			        x->points);
	}
}

int mess_write_bwlat_dir(const struct mess_family *f, struct outdir *od, const char *sub,
                         char *err, size_t errlen)
{
	struct mess_bwlat b[MESS_NRATIOS];
	char name[256];

	if (mess_bwlat_build(f, b) < 0) {
		snprintf(err, errlen, errno == ENOMEM ? "out of memory" : "no curve points");
		return -1;
	}
	for (unsigned i = 0; i <= MESS_NRATIOS; i++) {
		int len = i < MESS_NRATIOS ? snprintf(name, sizeof name, "%s/bwlat_%u.txt", sub, 2 * i)
		                           : snprintf(name, sizeof name, "%s/README", sub);
		if (len >= (int)sizeof name) {
			mess_bwlat_free(b);
			errno = ENAMETOOLONG;
			snprintf(err, errlen, "%s: name too long", sub);
			return -1;
		}
		FILE *o = outdir_create(od, name);
		if (!o) {
			snprintf(err, errlen, "%s", outdir_error(od));
			mess_bwlat_free(b);
			return -1;
		}
		if (i == MESS_NRATIOS)
			mess_bwlat_readme(b, o);
		else { /* a row the same as the one before it is not written again */
			char row[64], prev[64] = "";
			for (size_t j = b[i].n; j-- > 0;) {
				snprintf(row, sizeof row, "%.3f %.3f\n", b[i].mbps[j], b[i].ns[j]);
				if (strcmp(row, prev))
					fputs(row, o);
				memcpy(prev, row, sizeof row);
			}
		}
		if (outdir_close(od, o) != 0) {
			snprintf(err, errlen, "%s", outdir_error(od));
			mess_bwlat_free(b);
			return -1;
		}
	}
	mess_bwlat_free(b);
	return 0;
}
