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
	size_t nruns = 0, nout = 0;

	if (n == 0)
		return 0;
	s = malloc(n * sizeof(*s));
	runs = malloc(n * sizeof(*runs));
	if (!s || !runs)
		abort();
	for (size_t i = 0; i < n; i++)
		s[i] = (i == 0 || i == n - 1) ? y[i] : med3(y[i - 1], y[i], y[i + 1]);

	/* 2. greedy runs */
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		while (j < n) {
			double ref = rvm_median(s + i, j - i);

			if (fabs(s[j] - ref) > o->tol * fabs(ref))
				break;
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
			if (kept && close_rel(runs[kept - 1].y, p.y, o->tol))
				fill(&runs[kept - 1], size, y, y2, runs[kept - 1].first, b);
			else
				runs[kept++] = p;
		}
		nruns = kept;
	}
	for (size_t k = 0; k < nruns; k++)
		if (nout < max)
			out[nout++] = runs[k];
	free(s);
	free(runs);
	return nruns;
}
