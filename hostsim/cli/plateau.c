/* Plateau detection on latency curves: see plateau.h. */
#include "cli/plateau.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void plateau_defaults(struct plateau_opts *o)
{
	o->tol = PLATEAU_TOL_DEFAULT;
	o->min_span = PLATEAU_SPAN_DEFAULT;
	o->min_points = PLATEAU_MINPTS_DEFAULT;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double rvm_median(const double *v, size_t n)
{
	double *t, m;

	if (n == 0)
		return 0;
	t = malloc(n * sizeof(*t));
	if (!t)
		abort();
	memcpy(t, v, n * sizeof(*t));
	qsort(t, n, sizeof(*t), cmp_double);
	m = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	free(t);
	return m;
}

static double med3(double a, double b, double c)
{
	if (a > b) { double t = a; a = b; b = t; }
	if (b > c) { double t = b; b = c; c = t; }
	if (a > b) { double t = a; a = b; b = t; }
	return b;
}

static void fill(struct plateau *p, const uint64_t *size, const double *y, const double *y2,
		 size_t first, size_t last)
{
	p->first = first;
	p->last = last;
	p->size_first = size[first];
	p->size_last = size[last];
	p->points = last - first + 1;
	p->y = rvm_median(y + first, p->points);
	p->y2 = y2 ? rvm_median(y2 + first, p->points) : 0;
}

/*
 * Running median of a growing set: a max-heap of the lower half and a
 * min-heap of the upper half, so each point costs log n and the greedy runs
 * below stay n log n (a median recomputed per point was n^2 log n on one long
 * plateau).  The median is the same number rvm_median gives.
 */
struct runmed {
	double *lo, *hi;   /* lo: max-heap, hi: min-heap; |lo| - |hi| is 0 or 1 */
	size_t nlo, nhi;
};

static void heap_push(double *h, size_t *n, double v, int max)
{
	size_t i = (*n)++;

	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (max ? h[p] >= v : h[p] <= v)
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = v;
}

static double heap_pop(double *h, size_t *n, int max)
{
	double top = h[0], v = h[--(*n)];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= *n)
			break;
		if (c + 1 < *n && (max ? h[c + 1] > h[c] : h[c + 1] < h[c]))
			c++;
		if (max ? v >= h[c] : v <= h[c])
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = v;
	return top;
}

static void runmed_reset(struct runmed *m)
{
	m->nlo = m->nhi = 0;
}

static void runmed_add(struct runmed *m, double v)
{
	if (m->nlo == 0 || v <= m->lo[0])
		heap_push(m->lo, &m->nlo, v, 1);
	else
		heap_push(m->hi, &m->nhi, v, 0);
	if (m->nlo > m->nhi + 1)
		heap_push(m->hi, &m->nhi, heap_pop(m->lo, &m->nlo, 1), 0);
	else if (m->nhi > m->nlo)
		heap_push(m->lo, &m->nlo, heap_pop(m->hi, &m->nhi, 0), 1);
}

static double runmed_get(const struct runmed *m)
{
	return m->nlo > m->nhi ? m->lo[0] : (m->lo[0] + m->hi[0]) / 2;
}

static int close_rel(double a, double b, double tol)
{
	double lo = a < b ? a : b;

	return fabs(a - b) <= tol * lo;
}

size_t plateau_find(const uint64_t *size, const double *y, const double *y2, size_t n,
		    const struct plateau_opts *o, struct plateau *out, size_t max)
{
	double *s;
	struct plateau *runs;
	struct runmed rm = { 0 }, rm2 = { 0 };
	size_t nruns = 0, nout = 0;

	if (n == 0)
		return 0;
	s = malloc(n * sizeof(*s));
	runs = malloc(n * sizeof(*runs));
	rm.lo = malloc(n * sizeof(double));
	rm.hi = malloc(n * sizeof(double));
	rm2.lo = malloc(n * sizeof(double));
	rm2.hi = malloc(n * sizeof(double));
	if (!s || !runs || !rm.lo || !rm.hi || !rm2.lo || !rm2.hi)
		abort();
	for (size_t i = 0; i < n; i++)
		s[i] = (i == 0 || i == n - 1) ? y[i] : med3(y[i - 1], y[i], y[i + 1]);

	/* 2. greedy runs */
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		runmed_reset(&rm);
		runmed_add(&rm, s[i]);
		while (j < n) {
			double ref = runmed_get(&rm);

			if (fabs(s[j] - ref) > o->tol * fabs(ref))
				break;
			runmed_add(&rm, s[j]);
			j++;
		}
		/* a run that continues the previous one without a step (a level
		 * whose latency drifts) is joined to it */
		if (nruns && runs[nruns - 1].last + 1 == i &&
		    fabs(s[i] - s[i - 1]) <= o->tol * fabs(s[i - 1]))
			runs[nruns - 1].last = j - 1;
		else
			runs[nruns++] = (struct plateau){ .first = i, .last = j - 1 };
		i = j;
	}
	/* 3. keep plateaus, 4. merge neighbours with close medians */
	{
		size_t kept = 0;

		for (size_t k = 0; k < nruns; k++) {
			size_t a = runs[k].first, b = runs[k].last;
			struct plateau p;

			if (b - a + 1 < o->min_points || (double)size[b] < o->min_span * (double)size[a])
				continue;
			fill(&p, size, y, y2, a, b);
			if (kept && close_rel(runs[kept - 1].y, p.y, o->tol)) {
				/* the kept level grows to b: extend its running medians */
				struct plateau *k = &runs[kept - 1];

				for (size_t q = k->last + 1; q <= b; q++) {
					runmed_add(&rm, y[q]);
					if (y2)
						runmed_add(&rm2, y2[q]);
				}
				k->last = b;
				k->size_last = size[b];
				k->points = b - k->first + 1;
				k->y = runmed_get(&rm);
				k->y2 = y2 ? runmed_get(&rm2) : 0;
			} else {
				runs[kept++] = p;
				runmed_reset(&rm);
				runmed_reset(&rm2);
				for (size_t q = a; q <= b; q++) {
					runmed_add(&rm, y[q]);
					if (y2)
						runmed_add(&rm2, y2[q]);
				}
			}
		}
		nruns = kept;
	}
	for (size_t k = 0; k < nruns; k++)
		if (nout < max)
			out[nout++] = runs[k];
	free(s);
	free(runs);
	free(rm.lo);
	free(rm.hi);
	free(rm2.lo);
	free(rm2.hi);
	return nruns;
}
