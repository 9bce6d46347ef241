/*
 * Batch means in integers: a Mess point's chase is timed in batches of B
 * loads, and its window ends when the 95 % confidence interval of the
 * mean batch cost is within a tolerance of the mean (firmware/suites/
 * mess.c, docs/mess.md "When a point's window ends").  No floating point:
 * costs are cycles (or timer ticks) per batch, sums are kept as
 * deviations from the first batch, products through rvm_muldiv.
 */
#include "rvmess/rt.h"
#include "suites/suites.h"

/* Student's t, 0.975 quantile (a two-sided 95 % interval), x 1000, for
 * df = 1..30; beyond, the value at the next lower tabulated df (30, 40,
 * 60, 120, 1000), which errs wide. */
static const uint16_t t975[30] = {
	12706, 4303, 3182, 2776, 2571, 2447, 2365, 2306, 2262, 2228, 2201, 2179, 2160, 2145, 2131,
	2120,  2110, 2101, 2093, 2086, 2080, 2074, 2069, 2064, 2060, 2056, 2052, 2048, 2045, 2042,
};

uint64_t bs_t975_milli(uint64_t df)
{
	if (df <= 30)
		return df ? t975[df - 1] : 0;
	return df < 40 ? 2042 : df < 60 ? 2021 : df < 120 ? 2000 : df < 1000 ? 1980 : 1962;
}

uint64_t bs_isqrt(uint64_t v)
{
	uint64_t r = 0, bit = 1ull << 62;

	while (bit > v)
		bit >>= 2;
	while (bit) {
		if (v >= r + bit) {
			v -= r + bit;
			r = (r >> 1) + bit;
		} else
			r >>= 1;
		bit >>= 2;
	}
	return r;
}

void bs_add(struct bstats *s, uint64_t x)
{
	if (s->n == 0)
		s->ref = x;
	int64_t d = (int64_t)(x - s->ref);
	uint64_t a = d < 0 ? -(uint64_t)d : (uint64_t)d;
	uint64_t q = a >> 32 ? UINT64_MAX : a * a;

	s->sq = s->sq + q < s->sq ? UINT64_MAX : s->sq + q;
	s->dev += d;
	s->sum += x;
	s->n++;
}

uint64_t bs_ss(const struct bstats *s)
{
	uint64_t a = s->dev < 0 ? -(uint64_t)s->dev : (uint64_t)s->dev;
	uint64_t c = s->n ? rvm_muldiv(a, a, s->n) : 0;

	return s->sq > c ? s->sq - c : 0;
}

uint64_t bs_half_milli(const struct bstats *s)
{
	if (s->n < 2)
		return UINT64_MAX;
	/* h = t x s / sqrt(n), s^2 = ss / (n - 1): first r = 1000 x s / sqrt(n)
	 * (to a thousandth while ss / (n (n - 1)) < 2^44, else to a unit) */
	uint64_t ss = bs_ss(s), den = (s->n - 1) * s->n, r;
	if (ss / den < (1ull << 44))
		r = bs_isqrt(rvm_muldiv(ss, 1000000, den));
	else
		r = bs_isqrt(ss / den) * 1000;
	return rvm_muldiv(r, bs_t975_milli(s->n - 1), 1000);
}

int bs_within(const struct bstats *s, uint64_t tol_ppm)
{
	/* h <= tol x mean:  h x 1000 <= tol_ppm x (sum / n) / 1000 */
	return s->n >= 2 && bs_half_milli(s) <= rvm_muldiv(tol_ppm, s->sum, s->n * 1000);
}

uint64_t bs_vr_milli(const struct bstats *x, const struct bstats *pairs)
{
	if (pairs->n < 4 || x->n < 2) /* fewer pairs: no estimate at all */
		return UINT64_MAX;
	/* var(pairs) / (2 var(x)) = ss_pairs (n - 1) / (2 (m - 1) ss_x) */
	uint64_t sx = bs_ss(x), sy = bs_ss(pairs), m1 = 2 * (pairs->n - 1);
	if (!sx)
		return UINT64_MAX;
	if (sx > UINT64_MAX / m1) /* enormous spread: drop the low bits */
		return rvm_muldiv(sy / m1, 1000 * (x->n - 1), sx);
	return rvm_muldiv(sy, 1000 * (x->n - 1), sx * m1);
}

int bs_halves_differ(const uint64_t *x, uint64_t n, uint64_t half_milli, uint64_t tol_ppm)
{
	uint64_t m = n / 2, a = 0, b = 0, mean;

	if (m < 2 || half_milli == UINT64_MAX)
		return 0;
	for (uint64_t i = 0; i < m; i++) {
		a += x[i];
		b += x[n - m + i];
	}
	uint64_t d = a > b ? a - b : b - a; /* m x the halves' difference */
	mean = (a + b) / (2 * m);
	/* |A - B| > 2 h  and  |A - B| > tol / 2 x mean */
	return rvm_muldiv(d, 1000, m) > 2 * half_milli && rvm_muldiv(d, 2000000, m) > tol_ppm * mean;
}
