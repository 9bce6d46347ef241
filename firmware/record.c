/*
 * Records (docs/protocol.md): a tiny formatter, one line buffer per call,
 * CRC-32, a console spinlock so that lines never interleave, and the global
 * sequence number (assigned under the lock, so seq order = console order).
 */
#include "platform.h"
#include "rvmess/crc32.h"
#include "rvmess/rt.h"

/* In .data, not .bss: a trap before the lead cleared .bss may print. */
static volatile uint32_t con_lock __attribute__((section(".data"))) = 0; /* hartid + 1 */
static volatile uint64_t next_seq __attribute__((section(".data"))) = 0;
volatile uint32_t rvm_nerr __attribute__((section(".data"))) = 0;
int (*rec_gate)(void);

static void put(struct rec *r, char c)
{
	if (r->n < RVM_REC_MAX - 1)
		r->b[r->n++] = c;
}

static void puts_raw(struct rec *r, const char *s)
{
	while (*s)
		put(r, *s++);
}

static void put_dec(struct rec *r, uint64_t v)
{
	char t[20];
	int i = 0;

	do {
		t[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (i)
		put(r, t[--i]);
}

static void put_hex(struct rec *r, uint64_t v)
{
	char t[16];
	int i = 0;

	do {
		t[i++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	put(r, '0');
	put(r, 'x');
	while (i)
		put(r, t[--i]);
}

static void key(struct rec *r, const char *k)
{
	put(r, ' ');
	puts_raw(r, k);
	put(r, '=');
}

void rec_begin(struct rec *r, enum rvm_rec_type type)
{
	const char *name = rvm_rec_name(type);

	r->n = 0;
	puts_raw(r, name ? name : "?");
	rec_u(r, "h", rvm_hartid());
}

void rec_u(struct rec *r, const char *k, uint64_t v)
{
	key(r, k);
	put_dec(r, v);
}

void rec_x(struct rec *r, const char *k, uint64_t v)
{
	key(r, k);
	put_hex(r, v);
}

void rec_s(struct rec *r, const char *k, const char *s)
{
	key(r, k);
	if (!s || !*s) {
		put(r, '-');
		return;
	}
	for (; *s; s++) {
		char c = *s;
		if (c == ' ' || c == '\t')
			c = '_';
		else if (c == '*' || c < 0x21 || c > 0x7e)
			c = '?';
		put(r, c);
	}
}

void rec_fx(struct rec *r, const char *k, uint64_t num, uint64_t den)
{
	uint64_t q = 0, ip, fp;

	if (den) {
		q = rvm_muldiv(num, 1000, den);
		/* remainder of num*1000 - q*den is < den: the low 64 bits suffice */
		uint64_t rem = num * 1000u - q * den;
		if (rem >= den - rem && q != UINT64_MAX)
			q++;
	}
	ip = q / 1000;
	fp = q % 1000;
	key(r, k);
	put_dec(r, ip);
	put(r, '.');
	put(r, (char)('0' + fp / 100));
	put(r, (char)('0' + fp / 10 % 10));
	put(r, (char)('0' + fp % 10));
}

void rec_ulist(struct rec *r, const char *k, const uint32_t *v, uint32_t n)
{
	key(r, k);
	if (!n)
		put(r, '-');
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			put(r, ',');
		put_dec(r, v[i]);
	}
}

/* The lock is taken by compare-and-swap alone, with a pause between tries:
 * no plain load of the lock word, which a data cache that misses
 * invalidations could keep (firmware/wait.c) and which would leave this
 * below the waits' check (records are what it reports with). */
static void lock(void)
{
	uint32_t me = rvm_hartid() + 1;
	for (;;) {
		uint32_t z = 0;
		if (__atomic_compare_exchange_n(&con_lock, &z, me, 0, __ATOMIC_ACQUIRE,
		                                 __ATOMIC_RELAXED))
			return;
		for (int i = 0; i < 64; i++)
			__asm__ volatile("" ::: "memory");
	}
}

static void unlock(void)
{
	__atomic_store_n(&con_lock, 0, __ATOMIC_RELEASE);
}

void rec_trap_unlock(void)
{
	if (con_lock == rvm_hartid() + 1) {
		plat.putc('\n'); /* end a half-printed line: it fails its CRC on the host */
		unlock();
	}
}

uint64_t rec_emit(struct rec *r)
{
	char head[32]; /* "@RVM <seq> " */
	char t[20];
	uint32_t crc, n = 0;
	int k = 0;
	uint64_t seq, v;

	if (rec_gate && !rec_gate())
		return 0;
	lock();
	/* an AMO: the previous holder's increment, even if this hart's data
	 * cache kept an old copy of the line (firmware/wait.c) */
	seq = __atomic_fetch_add(&next_seq, 1, __ATOMIC_RELAXED);
	for (const char *p = "@RVM "; *p; p++)
		head[n++] = *p;
	v = seq;
	do {
		t[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (k)
		head[n++] = t[--k];
	head[n++] = ' ';
	crc = rvm_crc32(0, head, n);
	crc = rvm_crc32(crc, r->b, r->n);
	for (uint32_t i = 0; i < n; i++)
		plat.putc(head[i]);
	for (uint32_t i = 0; i < r->n; i++)
		plat.putc(r->b[i]);
	plat.putc(' ');
	plat.putc('*');
	for (int sh = 28; sh >= 0; sh -= 4)
		plat.putc("0123456789abcdef"[(crc >> sh) & 15]);
	plat.putc('\n');
	unlock();
	return seq;
}

uint64_t rec_count(void)
{
	return __atomic_fetch_add(&next_seq, 0, __ATOMIC_RELAXED);
}

void rvm_warn(const char *what, const char *msg)
{
	struct rec r;
	rec_begin(&r, REC_WARN);
	rec_s(&r, "what", what);
	rec_s(&r, "msg", msg);
	rec_emit(&r);
}

static void err_rec(const char *what, const char *msg, int with, uint64_t addr, uint64_t want,
                    uint64_t got)
{
	struct rec r;
	__atomic_fetch_add(&rvm_nerr, 1, __ATOMIC_RELAXED);
	rec_begin(&r, REC_ERR);
	rec_s(&r, "what", what);
	rec_s(&r, "msg", msg);
	if (with) {
		rec_x(&r, "addr", addr);
		rec_x(&r, "want", want);
		rec_x(&r, "got", got);
	}
	rec_emit(&r);
}

void rvm_err(const char *what, const char *msg)
{
	err_rec(what, msg, 0, 0, 0, 0);
}

void rvm_err_at(const char *what, const char *msg, uint64_t addr, uint64_t want, uint64_t got)
{
	err_rec(what, msg, 1, addr, want, got);
}
