/* Unit tests for the image's formatter, integer helpers and chain builders,
 * compiled for the host with stubs for the platform layer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>

#include "platform.h"
#include "rvmess/crc32.h"
#include "rvmess/cfgschema.h"
#include "rvmess/rt.h"
#include "suites/suites.h"

/* ---- stubs ------------------------------------------------------------------ */
static char out[8192];
static size_t outn;
static unsigned stub_hart = 3;

static void cap_putc(char c)
{
	if (outn < sizeof out - 1)
		out[outn++] = c;
	out[outn] = 0;
}
const struct platform plat = { .name = "test", .mode = "M", .putc = cap_putc };
struct rvm_run rvm;
unsigned rvm_hartid(void) { return stub_hart; }
/* the config block wait.c reads (firmware/cfg.c in the image) */
const volatile struct rvm_config rvm_config_block = RVM_CFG_DEFAULTS;
uint64_t pm_time(void) { return 0; }
uint64_t pm_cycles(void) { return 0; }
uint64_t pm_instret(void) { return 0; }
void pm_setup_phase(int on) { (void)on; } /* no simulator hint here */

static void reset_out(void)
{
	outn = 0;
	out[0] = 0;
}

/* ---- records ---------------------------------------------------------------- */

static void check_crc_line(const char *line)
{
	const char *star = strstr(line, " *");
	char want[9];

	assert_non_null(star);
	snprintf(want, sizeof want, "%08x", rvm_crc32(0, line, (size_t)(star - line)));
	assert_memory_equal(star + 2, want, 8);
	assert_int_equal(star[10], '\n');
}

/* A platform that cannot flush (this one): the waits neither flush nor
 * report, publications are skipped, rvm_poll does nothing. */
static void test_wait_without_flush(void **state)
{
	struct rvm_wait w;
	static volatile uint32_t word;
	(void)state;
	reset_out();
	assert_null(rvm_poll_fn());
	assert_int_equal(rvm_flushing(), 0);
	rvm_store_pub(&word, 7);
	rvm_wait_begin(&w, "t");
	for (int i = 0; i < 100000; i++)
		rvm_wait_poll(&w);
	assert_int_equal(w.flushed, 0);
	rvm_wait_saw(&w, &word, word);
	rvm_poll();
	assert_int_equal(word, 7);
	assert_int_equal(outn, 0);
}

static void test_crc_known(void **state)
{
	(void)state;
	assert_int_equal(rvm_crc32(0, "123456789", 9), 0xcbf43926u);
}

static void test_record_line(void **state)
{
	struct rec r;
	uint32_t l[3] = { 1, 20, 300 };
	uint64_t first;
	(void)state;

	reset_out();
	first = rec_count();
	rec_begin(&r, REC_WARN);
	rec_u(&r, "n", 42);
	rec_x(&r, "a", 0x1f);
	rec_s(&r, "s", "a b*c");
	rec_fx(&r, "f", 1, 3);
	rec_ulist(&r, "l", l, 3);
	rec_u(&r, "z", 0);
	rec_x(&r, "zx", 0);
	rec_s(&r, "e", "");
	assert_int_equal(rec_emit(&r), first);

	char want[256];
	int n = snprintf(want, sizeof want,
	                 "@RVM %llu warn h=3 n=42 a=0x1f s=a_b?c f=0.333 l=1,20,300 z=0 zx=0x0 e=-",
	                 (unsigned long long)first);
	assert_true(n > 0 && (size_t)n < outn);
	assert_memory_equal(out, want, (size_t)n);
	assert_memory_equal(out + n, " *", 2);
	check_crc_line(out);
	assert_int_equal(outn, (size_t)n + 11);
}

static void test_record_seq(void **state)
{
	struct rec r;
	(void)state;

	uint64_t s0 = rec_count();
	for (int i = 0; i < 3; i++) {
		reset_out();
		rec_begin(&r, REC_PROG);
		assert_int_equal(rec_emit(&r), s0 + (uint64_t)i);
		char pre[32];
		snprintf(pre, sizeof pre, "@RVM %llu prog h=3 *", (unsigned long long)(s0 + (uint64_t)i));
		assert_memory_equal(out, pre, strlen(pre));
		check_crc_line(out);
	}
	assert_int_equal(rec_count(), s0 + 3);
}

/* Every record type writes its name from the one list (rvmess/records.h). */
static void test_record_types(void **state)
{
	struct rec r;
	(void)state;

	assert_string_equal(rvm_rec_name(REC_HDR), "hdr");
	assert_string_equal(rvm_rec_name(REC_END), "end");
	assert_null(rvm_rec_name(RVM_REC_NTYPES));
	for (unsigned t = 0; t < RVM_REC_NTYPES; t++) {
		char want[48];
		reset_out();
		rec_begin(&r, (enum rvm_rec_type)t);
		rec_emit(&r);
		snprintf(want, sizeof want, " %s h=3 *", rvm_rec_name(t));
		assert_non_null(strstr(out, want));
		for (unsigned u = 0; u < t; u++) /* names are distinct */
			assert_string_not_equal(rvm_rec_name(u), rvm_rec_name(t));
		assert_non_null(rvm_rec_fields(t));
	}
}

static void test_record_truncated(void **state)
{
	struct rec r;
	char big[3000];
	(void)state;

	memset(big, 'q', sizeof big - 1);
	big[sizeof big - 1] = 0;
	reset_out();
	rec_begin(&r, REC_ERR);
	rec_s(&r, "m", big);
	rec_emit(&r);
	/* cut at the buffer, still one well-formed line with a valid CRC */
	assert_true(outn < RVM_REC_MAX + 40);
	check_crc_line(out);
	assert_null(memchr(out, '\n', outn - 1));
}

static void test_err_counts(void **state)
{
	(void)state;
	uint32_t before = rvm_nerr;
	reset_out();
	rvm_err("thing", "went wrong");
	assert_int_equal(rvm_nerr, before + 1);
	assert_non_null(strstr(out, " err h=3 what=thing msg=went_wrong *"));
	reset_out();
	rvm_warn("w", "m");
	assert_int_equal(rvm_nerr, before + 1);
	reset_out();
	rvm_err_at("chain", "bad", 0x80001000u, 5, 7);
	assert_non_null(strstr(out, " what=chain msg=bad addr=0x80001000 want=0x5 got=0x7 *"));
	assert_int_equal(rvm_nerr, before + 2);
}

/* An integrity tally keeps the first wrong word and counts all of them; its
 * record carries them, and counts as an error only when a word was wrong. */
static void test_integ_tally(void **state)
{
	struct integ_tally t = { 0 };
	uint32_t before = rvm_nerr;

	(void)state;
	t.words = 10;
	reset_out();
	integ_emit("ring", 5, &t);
	assert_non_null(strstr(out, " integ h=3 check=ring hart=5 words=10 bad=0 *"));
	assert_int_equal(rvm_nerr, before);
	integ_bad(&t, 0x80001008u, 1, 0x11, 0x22);
	integ_bad(&t, 0x80001010u, 1, 0x33, 0x44);
	integ_bad(&t, 0x80001018u, 0, 0, 0x55);
	reset_out();
	integ_emit("ring", 5, &t);
	assert_non_null(strstr(out, " check=ring hart=5 words=10 bad=3 addr=0x80001008 want=0x11 got=0x22 *"));
	assert_int_equal(rvm_nerr, before + 1);
	/* a first wrong word whose right value is not known: no want */
	struct integ_tally u = { .words = 4 };
	integ_bad(&u, 0x40, 0, 0, 0x99);
	integ_bad(&u, 0x80, 1, 1, 2);
	reset_out();
	integ_emit("mess-cycle", 0, &u);
	assert_non_null(strstr(out, " check=mess-cycle hart=0 words=4 bad=2 addr=0x40 got=0x99 *"));
	assert_int_equal(rvm_nerr, before + 2);
}

/* The Mess ring's checks on a real ring: clean, a pointer off the ring
 * (found at its element, no want), a pointer to another element (the cycle
 * closes early or the walk ends elsewhere). */
static void test_chain_ring_checks(void **state)
{
	enum { N = 64, STRIDE = 64 };
	static uint64_t buf[N * STRIDE / 8] __attribute__((aligned(64)));
	uint64_t base = (uint64_t)(uintptr_t)buf, k = 0;
	struct integ_tally t = { 0 };

	(void)state;
	chain_random(buf, N, STRIDE, 7);
	chain_number(buf, N);
	/* numbered along the ring from base */
	uint64_t p = base;
	for (uint64_t i = 0; i < N; i++) {
		assert_int_equal(chain_pos((void *)(uintptr_t)p), i);
		p = *(uint64_t *)(uintptr_t)p;
	}
	assert_int_equal(p, base);
	chain_cycle(buf, N, STRIDE, &t);
	assert_int_equal(t.words, 2 * N);
	assert_int_equal(t.bad, 0);
	/* a chase of 100 loads from the element numbered 10 ends at the one
	 * numbered 110 mod 64 = 46; any other end is reported there */
	p = base;
	for (int i = 0; i < 10; i++)
		p = *(uint64_t *)(uintptr_t)p;
	uint64_t q = p;
	for (int i = 0; i < 100; i++)
		q = *(uint64_t *)(uintptr_t)q;
	t = (struct integ_tally){ 0 };
	chain_moved(buf, N, STRIDE, 10, 100, (void *)(uintptr_t)q, &t);
	assert_int_equal(t.words, 100);
	assert_int_equal(t.bad, 0);
	uint64_t r = *(uint64_t *)(uintptr_t)q; /* one further: number 47 */
	chain_moved(buf, N, STRIDE, 10, 100, (void *)(uintptr_t)r, &t);
	assert_int_equal(t.bad, 1);
	assert_int_equal(t.addr, r);
	assert_int_equal(t.want, 46);
	assert_int_equal(t.got, 47);
	assert_int_equal(t.want_known, 1);
	t = (struct integ_tally){ 0 };
	chain_moved(buf, N, STRIDE, 10, 100, (void *)(uintptr_t)(base + N * STRIDE), &t); /* off the ring */
	assert_int_equal(t.bad, 1);
	assert_int_equal(t.want_known, 0);
	t = (struct integ_tally){ 0 };
	chain_moved(buf, N, STRIDE, 10, 100, (void *)(uintptr_t)(q + 8), &t); /* not an element */
	assert_int_equal(t.bad, 1);
	assert_int_equal(t.addr, q + 8);

	/* the element 10 steps along the ring from base points off the ring */
	p = base;
	for (int i = 0; i < 10; i++)
		p = *(uint64_t *)(uintptr_t)p;
	k = p;
	uint64_t saved = *(uint64_t *)(uintptr_t)k;
	*(uint64_t *)(uintptr_t)k = base + N * STRIDE;
	t = (struct integ_tally){ 0 };
	chain_cycle(buf, N, STRIDE, &t);
	assert_int_equal(t.bad, 1);
	assert_int_equal(t.addr, k);
	assert_int_equal(t.got, base + N * STRIDE);
	assert_int_equal(t.words, 22); /* eleven elements, two words each */

	/* now it points back to base: the cycle closes after 11 steps */
	*(uint64_t *)(uintptr_t)k = base;
	t = (struct integ_tally){ 0 };
	chain_cycle(buf, N, STRIDE, &t);
	assert_int_equal(t.bad, 1);
	assert_int_equal(t.addr, k);
	assert_int_equal(t.got, base);
	*(uint64_t *)(uintptr_t)k = saved;
	/* a wrong number: the first one reported, the walk goes on */
	((uint64_t *)(uintptr_t)k)[1] = 99;
	t = (struct integ_tally){ 0 };
	chain_cycle(buf, N, STRIDE, &t);
	assert_int_equal(t.bad, 1);
	assert_int_equal(t.addr, k + 8);
	assert_int_equal(t.want, 10);
	assert_int_equal(t.got, 99);
	assert_int_equal(t.words, 2 * N);
	((uint64_t *)(uintptr_t)k)[1] = 10;
}

/* Batch means against a double-precision computation: the mean, the sum of
 * squares, the 95 % half-width t(n-1) s / sqrt(n), the stop test and the
 * pair-variance ratio, for costs of every magnitude the suites see. */
static double t975_ref(unsigned df)
{
	static const double t[] = { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	                            2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	                            2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };
	return df <= 30 ? t[df - 1] : df < 40 ? 2.042 : df < 60 ? 2.021 : df < 120 ? 2.000 : df < 1000 ? 1.980 : 1.962;
}

static void test_batch_stats(void **state)
{
	static const uint64_t scale[] = { 100, 60000, 2000000, 400000000 };
	static const unsigned counts[] = { 2, 3, 5, 31, 45, 200, 1500 };
	uint64_t seed = 12345;

	(void)state;
	for (size_t si = 0; si < sizeof scale / sizeof scale[0]; si++)
		for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
			struct bstats s = { 0 }, pr = { 0 };
			double sum = 0, sq = 0, psum = 0, psq = 0, prev = 0;
			unsigned n = counts[ci];
			for (unsigned i = 0; i < n; i++) {
				seed = seed * 6364136223846793005ull + 1442695040888963407ull;
				/* a cost within +-12.5 % of the scale */
				uint64_t x = scale[si] - scale[si] / 8 + (seed >> 33) % (scale[si] / 4 + 1);
				bs_add(&s, x);
				sum += (double)x;
				sq += (double)x * (double)x;
				if (i % 2) {
					bs_add(&pr, (uint64_t)prev + x);
					psum += prev + (double)x;
					psq += (prev + (double)x) * (prev + (double)x);
				}
				prev = (double)x;
			}
			double mean = sum / n, ss = sq - sum * sum / n;
			double h = t975_ref(n - 1) * sqrt(ss / (n - 1) / n);
			assert_int_equal(s.n, n);
			assert_true(fabs((double)s.sum - sum) < 0.5);
			assert_true(fabs((double)bs_ss(&s) - ss) <= 1e-9 * sq + 2);
			/* the interval from the integer sum of squares (which rounds by at most one) */
			double hi = t975_ref(n - 1) * sqrt((double)bs_ss(&s) / (n - 1) / n);
			assert_true(fabs((double)bs_half_milli(&s) / 1000 - hi) <= 1e-5 * hi + 0.02);
			assert_true(fabs(hi - h) <= 1e-6 * h + h / (2 * ss) + 0.002);
			/* the stop test at tolerances just above and below the interval */
			double rel = h / mean;
			if (rel > 2e-6) {
				assert_true(bs_within(&s, (uint64_t)(rel * 1e6 * 1.01) + 1));
				assert_false(bs_within(&s, (uint64_t)(rel * 1e6 * 0.99)));
			}
			if (pr.n >= 4) {
				unsigned m = pr.n;
				double vy = (psq - psum * psum / m) / (m - 1), vx = ss / (n - 1);
				assert_true(fabs((double)bs_vr_milli(&s, &pr) / 1000 - vy / (2 * vx)) <= 2e-3 * vy / (2 * vx) + 0.002);
			}
		}
	/* below two batches: no interval, never within */
	struct bstats one = { 0 };
	bs_add(&one, 500);
	assert_int_equal(bs_half_milli(&one), UINT64_MAX);
	assert_false(bs_within(&one, 1000000));
	/* equal batches: no spread, within any tolerance; no variance ratio */
	struct bstats eq = { 0 }, eqp = { 0 };
	for (int i = 0; i < 6; i++)
		bs_add(&eq, 777);
	for (int i = 0; i < 3; i++)
		bs_add(&eqp, 1554);
	assert_int_equal(bs_half_milli(&eq), 0);
	assert_true(bs_within(&eq, 0));
	assert_int_equal(bs_vr_milli(&eq, &eqp), UINT64_MAX);
	bs_add(&eqp, 1554);
	assert_int_equal(bs_vr_milli(&eq, &eqp), UINT64_MAX); /* no variance */
	struct bstats three = { 0 }, p3 = { 0 };
	for (int i = 0; i < 7; i++) {
		bs_add(&three, 100 + i);
		if (i % 2)
			bs_add(&p3, 200 + 2 * i);
	}
	assert_int_equal(bs_vr_milli(&three, &p3), UINT64_MAX); /* three pairs */
	/* a window's halves: a drift beyond their noise and half the tolerance
	 * is still moving; noise alone, a drift within half the tolerance, or
	 * fewer than four batches are not */
	{
		uint64_t x[12];
		struct bstats w = { 0 };
		for (int i = 0; i < 12; i++) { /* 60000 cycles, +-60 of noise, 3 % down over the window */
			x[i] = 61000 - (uint64_t)i * 160 + (i % 2 ? 60 : 0);
			bs_add(&w, x[i]);
		}
		assert_true(bs_halves_differ(x, 12, bs_half_milli(&w), 20000));
		assert_false(bs_halves_differ(x, 12, bs_half_milli(&w), 100000)); /* within 5 %: no */
		assert_false(bs_halves_differ(x, 3, bs_half_milli(&w), 20000));
		assert_false(bs_halves_differ(x, 12, UINT64_MAX, 20000));
		static const int noise[12] = { 40, -50, 30, -20, 50, -40, -30, 60, -60, 20, -10, 10 };
		struct bstats f = { 0 };
		for (int i = 0; i < 12; i++) { /* no drift, noise whose halves differ a little */
			x[i] = (uint64_t)(60000 + noise[i]);
			bs_add(&f, x[i]);
		}
		assert_false(bs_halves_differ(x, 12, bs_half_milli(&f), 20000));
		assert_false(bs_halves_differ(x, 12, bs_half_milli(&f), 0)); /* within its noise */
	}
	/* t and the square root */
	assert_int_equal(bs_t975_milli(1), 12706);
	assert_int_equal(bs_t975_milli(30), 2042);
	assert_int_equal(bs_t975_milli(59), 2021);
	assert_int_equal(bs_t975_milli(100000), 1962);
	for (uint64_t v = 0; v < 100000; v += 7)
		assert_int_equal(bs_isqrt(v), (uint64_t)floor(sqrt((double)v)));
	assert_int_equal(bs_isqrt(UINT64_MAX), 4294967295ull);
	assert_int_equal(bs_isqrt(1ull << 62), 1ull << 31);
}

static void test_fixed_point(void **state)
{
	static const struct { uint64_t num, den; const char *want; } cases[] = {
		{ 1, 3, "0.333" }, { 2, 3, "0.667" }, { 0, 5, "0.000" }, { 7, 0, "0.000" },
		{ 1999, 1000, "1.999" }, { 19995, 10000, "2.000" }, { 19994, 10000, "1.999" },
		{ 5, 1, "5.000" }, { 1, 2000, "0.001" }, { 1, 2001, "0.000" },
		{ 68448100, 200000, "342.241" }, { 1306419200, 1000000, "1306.419" },
		{ UINT64_C(18446744073709551), 1, "18446744073709551.000" },
	};
	(void)state;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct rec r;
		char want[64];
		reset_out();
		rec_begin(&r, REC_PARMAX);
		rec_fx(&r, "v", cases[i].num, cases[i].den);
		rec_emit(&r);
		snprintf(want, sizeof want, " parmax h=3 v=%s *", cases[i].want);
		if (!strstr(out, want))
			fail_msg("case %zu: %llu/%llu: got '%s', want '%s'", i,
			         (unsigned long long)cases[i].num, (unsigned long long)cases[i].den, out,
			         want);
	}
}

/* ---- numbers ---------------------------------------------------------------- */

static void test_muldiv(void **state)
{
	struct rng g;
	(void)state;

	assert_int_equal(rvm_muldiv(5, 7, 0), 0);
	assert_int_equal(rvm_muldiv(UINT64_MAX, UINT64_MAX, 1), UINT64_MAX);
	assert_int_equal(rvm_muldiv(UINT64_MAX, UINT64_MAX, UINT64_MAX), UINT64_MAX);
	assert_int_equal(rvm_muldiv(UINT64_C(1) << 63, 4, 8), UINT64_C(1) << 62);
	rng_seed(&g, 42);
	for (int i = 0; i < 100000; i++) {
		uint64_t a = rng_next(&g) >> (rng_next(&g) % 64);
		uint64_t b = rng_next(&g) >> (rng_next(&g) % 64);
		uint64_t c = rng_next(&g) >> (rng_next(&g) % 64);
		if (!c)
			c = 1;
		unsigned __int128 q = (unsigned __int128)a * b / c;
		uint64_t want = q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
		if (rvm_muldiv(a, b, c) != want)
			fail_msg("muldiv(%llu, %llu, %llu)", (unsigned long long)a,
			         (unsigned long long)b, (unsigned long long)c);
	}
}

static void test_ticks_ns(void **state)
{
	(void)state;
	rvm.timebase = 10000000;
	assert_int_equal(rvm_ticks_ns(1), 100);
	assert_int_equal(rvm_ticks_ns(684481), 68448100);
	assert_int_equal(rvm_ticks_ns(UINT64_C(1) << 50), (UINT64_C(1) << 50) * 100);
	assert_int_equal(rvm_ticks_ns(UINT64_C(1) << 60), UINT64_MAX); /* saturates */
	rvm.timebase = 32768; /* not a divisor of 1e9 */
	assert_int_equal(rvm_ticks_ns(3), 91552);
	rvm.timebase = 4000000;
	assert_int_equal(rvm_ticks_ns(UINT64_C(4000000) * 86400 * 365), UINT64_C(31536000000000000));
}

/* A window's ns come from its cycles at the measuring hart's frequency, not
 * from the 10 MHz timer; the timer only without a cycle counter. */
static void test_meas_ns_from_cycles(void **state)
{
	(void)state;
	struct stamp a = {.cycles = 1000, .ticks = 7}, b = {.cycles = 1000 + 45678, .ticks = 7 + 5};
	struct meas m;
	rvm.timebase = 10000000;
	rvm.cpu_hz[stub_hart] = 1500000000; /* 1.5 GHz: 45678 cycles = 30452 ns */
	rvm.cpu_hz[0] = 1;                  /* another hart's frequency is not used */
	meas_take(&m, &a, &b, 100);
	assert_int_equal(m.cycles, 45678);
	assert_int_equal(m.ticks, 5);
	assert_int_equal(m.ns, 30452); /* the timer would say 500 */
	b.cycles = a.cycles;            /* no cycle counter: the timer */
	meas_take(&m, &a, &b, 100);
	assert_int_equal(m.ns, 500);
	b.cycles = a.cycles + 45678;    /* frequency unknown: the timer */
	rvm.cpu_hz[stub_hart] = 0;
	meas_take(&m, &a, &b, 100);
	assert_int_equal(m.ns, 500);
}

static void test_rng(void **state)
{
	struct rng a, b;
	(void)state;
	rng_seed(&a, 1);
	rng_seed(&b, 1);
	for (int i = 0; i < 100; i++)
		assert_int_equal(rng_next(&a), rng_next(&b));
	rng_seed(&b, 2);
	assert_int_not_equal(rng_next(&a), rng_next(&b));
	/* known answers of the documented algorithm (splitmix64 scramble of the
	 * seed, then xorshift64*: >>12 <<25 >>27, times 0x2545f4914f6cdd1d),
	 * from an independent implementation of it in Python */
	static const struct { uint64_t seed, v[3]; } ka[] = {
		{ 1, { 0x4b46a55df3611b9bull, 0xd7e1f1410e763ef4ull, 0x5f14ec66975f9b06ull } },
		{ 0, { 0x7bbcb40d550682d0ull, 0xde7fe413d00cc9fdull, 0xb3c638353c668c91ull } },
		{ 42, { 0x31b0ece7c4f697a2ull, 0x9008a3b1cb686f03ull, 0x7c7173abd97be16full } },
	};
	for (unsigned i = 0; i < sizeof ka / sizeof ka[0]; i++) {
		rng_seed(&a, ka[i].seed);
		for (unsigned k = 0; k < 3; k++)
			assert_int_equal(rng_next(&a), ka[i].v[k]);
	}
}

/* ---- chains ----------------------------------------------------------------- */

static void test_chain_random_single_cycle(void **state)
{
	static const uint64_t strides[] = { 8, 64, 200 };
	(void)state;

	for (size_t s = 0; s < 3; s++)
		for (uint64_t n = 2; n <= 300; n += 7) {
			uint64_t stride = strides[s], at, val;
			char *buf = aligned_alloc(64, (n * stride + 63) / 64 * 64);
			assert_non_null(buf);
			chain_random(buf, n, stride, n * 31 + s);
			assert_int_equal(chain_check(buf, n, stride, &at, &val), 0);
			/* every element visited exactly once */
			char *seen = calloc(n, 1);
			uint64_t p = (uint64_t)(uintptr_t)buf;
			for (uint64_t i = 0; i < n; i++) {
				uint64_t idx = (p - (uint64_t)(uintptr_t)buf) / stride;
				assert_true(idx < n);
				assert_false(seen[idx]);
				seen[idx] = 1;
				p = *(uint64_t *)(uintptr_t)p;
			}
			assert_int_equal(p, (uint64_t)(uintptr_t)buf);
			free(seen);
			free(buf);
		}
}

static void test_chain_check_detects(void **state)
{
	uint64_t n = 64, at, val;
	uint64_t *buf = aligned_alloc(64, n * 64);
	(void)state;

	chain_random(buf, n, 64, 7);
	/* pointer out of the array */
	uint64_t *e = &buf[5 * 8];
	uint64_t keep = *e;
	*e = (uint64_t)(uintptr_t)buf + n * 64;
	assert_int_equal(chain_check(buf, n, 64, &at, &val), -1);
	assert_int_equal(val, *e);
	/* pointer into the middle of a line */
	*e = (uint64_t)(uintptr_t)buf + 8;
	assert_int_equal(chain_check(buf, n, 64, &at, &val), -1);
	*e = keep;
	assert_int_equal(chain_check(buf, n, 64, &at, &val), 0);
	/* short-circuit: element 0's successor points back to element 0 */
	uint64_t *first = (uint64_t *)(uintptr_t)buf[0];
	keep = *first;
	*first = (uint64_t)(uintptr_t)buf;
	assert_int_equal(chain_check(buf, n, 64, &at, &val), -2);
	assert_int_equal(val, 2);
	*first = keep;
	/* cycle that does not come back to the start */
	buf[0] = (uint64_t)(uintptr_t)&buf[8];
	buf[8] = (uint64_t)(uintptr_t)&buf[8];
	assert_int_not_equal(chain_check(buf, n, 64, &at, &val), 0);
	free(buf);
}

static void test_chain_stride(void **state)
{
	uint64_t n = 10, at, val;
	uint64_t *buf = aligned_alloc(64, n * 128);
	(void)state;

	chain_stride(buf, n, 128);
	for (uint64_t i = 0; i < n; i++)
		assert_int_equal(buf[i * 16], (uint64_t)(uintptr_t)&buf[(i ? i - 1 : n - 1) * 16]);
	assert_int_equal(chain_check(buf, n, 128, &at, &val), 0);
	free(buf);
}

static void test_lm_step(void **state)
{
	static const uint64_t want[] = { 512,   1024,  2048,  3072,  4096,  6144,  8192,
	                                 10240, 12288, 14336, 16384, 18432, 20480, 22528,
	                                 24576, 26624, 28672, 30720, 32768, 36864, 40960 };
	uint64_t k = 512;
	(void)state;

	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++, k = lm_step(k))
		assert_int_equal(k, want[i]);
	/* 8 steps per doubling above 32 KiB: 1 MiB -> 2 MiB */
	k = 1 << 20;
	for (int i = 0; i < 8; i++)
		k = lm_step(k);
	assert_int_equal(k, 2 << 20);
}

static void test_median(void **state)
{
	struct meas m[5] = { { .cycles = 50 }, { .cycles = 10 }, { .cycles = 40 },
	                     { .cycles = 30 }, { .cycles = 20 } };
	struct meas t[2] = { { .cycles = 0, .ticks = 9 }, { .cycles = 0, .ticks = 3 } };
	(void)state;
	assert_int_equal(meas_median(m, 5)->cycles, 30);
	assert_int_equal(meas_median(m, 1)->cycles, 10);
	assert_int_equal(meas_median(t, 2)->ticks, 3); /* no cycle counter: by ticks */
	assert_int_equal(round_up(1, 100), 100);
	assert_int_equal(round_up(200, 100), 200);
	assert_int_equal(round_up(0, 100), 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wait_without_flush),
		cmocka_unit_test(test_crc_known),
		cmocka_unit_test(test_record_line),
		cmocka_unit_test(test_record_seq),
		cmocka_unit_test(test_record_types),
		cmocka_unit_test(test_record_truncated),
		cmocka_unit_test(test_err_counts),
		cmocka_unit_test(test_integ_tally),
		cmocka_unit_test(test_chain_ring_checks),
		cmocka_unit_test(test_batch_stats),
		cmocka_unit_test(test_fixed_point),
		cmocka_unit_test(test_muldiv),
		cmocka_unit_test(test_ticks_ns),
		cmocka_unit_test(test_meas_ns_from_cycles),
		cmocka_unit_test(test_rng),
		cmocka_unit_test(test_chain_random_single_cycle),
		cmocka_unit_test(test_chain_check_detects),
		cmocka_unit_test(test_chain_stride),
		cmocka_unit_test(test_lm_step),
		cmocka_unit_test(test_median),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
