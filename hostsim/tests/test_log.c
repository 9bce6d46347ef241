/* Unit tests: the console log reader (hostsim/cli/log.c). */
#include <errno.h>
#include <unistd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli/log.h"
#include "cli_testutil.h"

/* A complete clean run of n_lat lat records: returns the next seq. */
static unsigned long good_run(struct tbuf *b, int with_end)
{
	unsigned long s = 0;

	tb_rec(b, s++, "hdr", 0, "proto=1 platform=virt mode=M harts=2 hartids=0,1 cpu_hz=1000000000");
	tb_rec(b, s++, "cfg", 0, "suites=chase,lat lat_strides=64");
	tb_rec(b, s++, "hart", 0, "idx=0 cpu_hz=1000000000 cycle=100 instret=90");
	tb_rec(b, s++, "hart", 1, "idx=1 cpu_hz=1000000000 cycle=110 instret=95");
	tb_rec(b, s++, "lat", 0, "chain=stride stride=64 size=512 loads=1000 cycles=4000 ticks=40 ns=4000 cpl=4.000 nspl=4.000");
	tb_rec(b, s++, "lat", 0, "chain=stride stride=64 size=1024 loads=1000 cycles=4100 ticks=41 ns=4100 cpl=4.100 nspl=4.100");
	if (with_end) {
		char f[128];

		snprintf(f, sizeof(f), "status=ok errors=0 records=%lu harts=2 states=0:done,1:done", s);
		tb_rec(b, s++, "end", 0, f);
	}
	return s;
}

static void read_buf(struct tbuf *b, struct rvm_log *log, struct diag *d)
{
	diag_open(d);
	assert_int_equal(rvm_log_read_mem("t.log", b->s ? b->s : "", b->len, d->f, log), 0);
}

static void test_crc_check_value(void **state)
{
	(void)state;
	assert_int_equal(rvm_crc32(0, "123456789", 9), 0xcbf43926u);
}

static void test_good_log(void **state)
{
	struct tbuf b = { 0 };
	struct rvm_log log;
	struct diag d;
	uint64_t v;
	double x;

	(void)state;
	tb_printf(&b, "OpenSBI v1.1\nPlatform Name: riscv-virtio\n");
	good_run(&b, 1);
	read_buf(&b, &log, &d);
	assert_string_equal(diag_text(&d), "");
	assert_int_equal(log.nrecs, 7);
	assert_int_equal(log.bad, 0);
	assert_int_equal(log.missing, 0);
	assert_int_equal(log.duplicates, 0);
	assert_int_equal(log.harts, 2);
	assert_true(log.has_hdr);
	assert_true(log.has_end);
	assert_true(log.complete);
	assert_int_equal(log.status, RVM_STATUS_OK);
	assert_true(rvm_log_clean(&log));
	/* records: seq, type, hart, line, fields */
	assert_int_equal(log.recs[0].line, 3);
	assert_string_equal(log.recs[0].type, "hdr");
	assert_int_equal(log.recs[3].hart, 1);
	assert_string_equal(logrec_get(&log.recs[0], "platform"), "virt");
	assert_string_equal(logrec_get(&log.recs[0], "hartids"), "0,1");
	assert_int_equal(logrec_u64(&log.recs[5], "cycles", &v), 0);
	assert_int_equal(v, 4100);
	assert_int_equal(logrec_double(&log.recs[5], "nspl", &x), 0);
	assert_true(x > 4.0999 && x < 4.1001);
	assert_int_equal(logrec_u64(&log.recs[5], "nspl", &v), -1); /* not an integer */
	assert_int_equal(logrec_u64(&log.recs[5], "nothere", &v), -1);
	assert_int_equal(logrec_u64(&log.recs[3], "h", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(rvm_log_count(&log, "lat"), 2);
	assert_null(logrec_get(&log.recs[0], "h")); /* h is the hart, not a field */
	rvm_log_free(&log);
	diag_close(&d);
	tb_free(&b);
}

static void test_corrupt_crc(void **state)
{
	struct tbuf b = { 0 };
	struct rvm_log log;
	struct diag d;
	char *p;

	(void)state;
	good_run(&b, 1);
	/* flip one digit of the second lat record's cycles (line 6) */
	p = strstr(b.s, "cycles=4100");
	assert_non_null(p);
	p[8] = '2';
	read_buf(&b, &log, &d);
	assert_non_null(strstr(diag_text(&d), "t.log:6: bad crc"));
	assert_non_null(strstr(diag_text(&d), "missing records 5..5"));
	assert_int_equal(log.bad, 1);
	assert_int_equal(log.nrecs, 6);
	assert_int_equal(log.missing, 1);
	assert_false(log.complete);
	assert_false(rvm_log_clean(&log));
	assert_int_equal(log.status, RVM_STATUS_OK);
	rvm_log_free(&log);
	diag_close(&d);
	tb_free(&b);
}

static void test_truncated_last_line(void **state)
{
	struct tbuf b = { 0 };
	struct rvm_log log;
	struct diag d;
	char line[512];

	(void)state;
	good_run(&b, 0);
	make_rec(line, sizeof(line), 6, "lat", 0, "chain=stride stride=64 size=2048 loads=1000 cycles=1 ticks=1 ns=1");
	line[30] = '\0';                   /* power lost mid-line, no newline */
	tb_printf(&b, "%s", line);
	read_buf(&b, &log, &d);
	assert_non_null(strstr(diag_text(&d), "t.log:7: truncated record"));
	assert_non_null(strstr(diag_text(&d), "no end record"));
	assert_int_equal(log.bad, 1);
	assert_int_equal(log.nrecs, 6);
	assert_false(log.complete);
	assert_int_equal(log.status, RVM_STATUS_NONE);
	rvm_log_free(&log);
	diag_close(&d);
	tb_free(&b);

	/* checksum cut short: by three digits, and by one */
	for (int cut = 3; cut >= 1; cut -= 2) {
		char want[64];

		memset(&b, 0, sizeof(b));
		good_run(&b, 0);
		make_rec(line, sizeof(line), 6, "prog", 0, "suite=lat done=1 total=2");
		line[strlen(line) - (size_t)cut] = '\0';
		tb_printf(&b, "%s\n", line);
		read_buf(&b, &log, &d);
		snprintf(want, sizeof(want), "t.log:7: truncated record (checksum has %d of 8", 8 - cut);
		assert_non_null(strstr(diag_text(&d), want));
		assert_int_equal(log.bad, 1);
		rvm_log_free(&log);
		diag_close(&d);
		tb_free(&b);
	}
}

static void test_truncated_log(void **state)
{
	struct tbuf b = { 0 };
	struct rvm_log log;
	struct diag d;

	(void)state;
	good_run(&b, 0);
	read_buf(&b, &log, &d);
	assert_int_equal(log.bad, 0);
	assert_int_equal(log.nrecs, 6);
	assert_int_equal(log.missing, 0);
	assert_false(log.has_end);
	assert_false(log.complete);
	assert_int_equal(log.status, RVM_STATUS_NONE);
	assert_non_null(strstr(diag_text(&d), "no end record (log ends after seq 5, line 6)"));
	rvm_log_free(&log);
	diag_close(&d);
	tb_free(&b);
}

static void test_duplicates_and_conflicts(void **state)
{
	struct tbuf b = { 0 };
	struct rvm_log log;
	struct diag d;
	unsigned long s = 0;

	(void)state;
	tb_rec(&b, s++, "hdr", 0, "proto=1");
	tb_rec(&b, s, "hart", 0, "idx=0");
	tb_rec(&b, s++, "hart", 0, "idx=0");        /* identical repeat: line 3 */
	tb_rec(&b, s++, "warn", 0, "what=x msg=a");
	tb_rec(&b, s - 1, "warn", 0, "what=x msg=b"); /* same seq, different: line 5 */
	tb_rec(&b, s, "end", 0, "status=ok records=3");
	read_buf(&b, &log, &d);
	assert_int_equal(log.duplicates, 1);
	assert_int_equal(log.conflicts, 1);
	assert_int_equal(log.bad, 1);
	assert_int_equal(log.nrecs, 4);
	assert_string_equal(logrec_get(&log.recs[2], "msg"), "a"); /* first kept */
	assert_non_null(strstr(diag_text(&d), "t.log:3: duplicate of record seq 1 (line 2), dropped"));
	assert_non_null(strstr(diag_text(&d), "t.log:5: record seq 2 conflicts with line 4"));
	assert_true(log.complete);
	assert_false(rvm_log_clean(&log));
	rvm_log_free(&log);
	diag_close(&d);
	tb_free(&b);

	/* duplicates alone keep a log clean */
	memset(&b, 0, sizeof(b));
	tb_rec(&b, 0, "hdr", 0, "proto=1");
	tb_rec(&b, 0, "hdr", 0, "proto=1");
	tb_rec(&b, 1, "end", 0, "status=ok records=1");
	read_buf(&b, &log, &d);
	assert_int_equal(log.duplicates, 1);
	assert_true(rvm_log_clean(&log));
	rvm_log_free(&log);
	diag_close(&d);
	tb_free(&b);
}

static void test_gaps(void **state)
{
	struct tbuf b = { 0 };
	struct rvm_log log;
	struct diag d;

	(void)state;
	tb_rec(&b, 0, "hdr", 0, "proto=1");
	tb_rec(&b, 1, "cfg", 0, "reps=1");
	tb_rec(&b, 4, "prog", 0, "suite=lat done=1 total=3");
	tb_rec(&b, 5, "prog", 0, "suite=lat done=2 total=3");
	tb_rec(&b, 9, "end", 0, "status=fail records=9");
	read_buf(&b, &log, &d);
	assert_int_equal(log.missing, 5);
	assert_non_null(strstr(diag_text(&d), "missing records 2..3"));
	assert_non_null(strstr(diag_text(&d), "missing records 6..8"));
	assert_false(log.complete);
	assert_int_equal(log.status, RVM_STATUS_FAIL);
	rvm_log_free(&log);
	diag_close(&d);
	tb_free(&b);

	/* no hdr: gap at the start */
	memset(&b, 0, sizeof(b));
	tb_rec(&b, 2, "prog", 0, "suite=lat done=1 total=3");
	read_buf(&b, &log, &d);
	assert_int_equal(log.missing, 2);
	assert_false(log.has_hdr);
	assert_non_null(strstr(diag_text(&d), "missing records 0..1"));
	assert_non_null(strstr(diag_text(&d), "no hdr record"));
	rvm_log_free(&log);
	diag_close(&d);
	tb_free(&b);
}

static void test_garbage(void **state)
{
	struct tbuf b = { 0 };
	struct rvm_log log;
	struct diag d;
	char line[512], *big;
	const char junk[] = { 'x', 0, 1, (char)0xff, (char)0x80, '\r', 0, 'y', '\n' };
	size_t bigsz = 100 * 1024;

	(void)state;
	tb_printf(&b, "\n\n");
	make_rec(line, sizeof(line), 0, "hdr", 0, "proto=1");
	tb_printf(&b, "OpenSBI boot banner without newline%s\n", line);  /* noise before prefix */
	tb_put(&b, junk, sizeof(junk));                                   /* binary junk with NULs */
	big = malloc(bigsz);
	assert_non_null(big);
	memset(big, 'A', bigsz);
	big[500] = '\0';
	big[600] = '@';
	tb_put(&b, big, bigsz);                                           /* 100 KB line ... */
	make_rec(line, sizeof(line), 1, "cfg", 0, "reps=3");
	tb_printf(&b, "%s\n", line);                                      /* ... ending in a record */
	tb_put(&b, big, bigsz);                                           /* 100 KB pure noise */
	tb_printf(&b, "\n@RVM\n@RV\n@@@@RVM@\n");
	tb_put(&b, "\0\0\0\n", 4);
	make_rec(line, sizeof(line), 2, "hart", 0, "idx=0");
	tb_printf(&b, "%s\r\n", line);                                    /* CRLF */
	make_rec(line, sizeof(line), 3, "end", 0, "status=ok records=3");
	tb_printf(&b, "%s", line);                                        /* no final newline */
	read_buf(&b, &log, &d);
	assert_string_equal(diag_text(&d), "");
	assert_int_equal(log.nrecs, 4);
	assert_int_equal(log.bad, 0);
	assert_true(rvm_log_clean(&log));
	assert_int_equal(log.recs[0].line, 3);
	assert_int_equal(log.recs[1].line, 5);
	assert_int_equal(log.recs[2].line, 11);
	assert_int_equal(log.recs[3].line, 12);
	assert_int_equal(log.harts, 1);
	rvm_log_free(&log);
	diag_close(&d);
	tb_free(&b);
	free(big);
}

static void test_two_prefixes_on_a_line(void **state)
{
	struct tbuf b = { 0 };
	struct rvm_log log;
	struct diag d;
	char a[256], c[256];

	(void)state;
	make_rec(a, sizeof(a), 0, "hdr", 0, "proto=1");
	make_rec(c, sizeof(c), 1, "end", 0, "status=ok records=1");
	a[15] = '\0';  /* a record cut off, its newline lost, then the next one */
	tb_printf(&b, "%s%s\n", a, c);
	read_buf(&b, &log, &d);
	assert_int_equal(log.bad, 1);
	assert_int_equal(log.nrecs, 1);
	assert_string_equal(log.recs[0].type, "end");
	assert_non_null(strstr(diag_text(&d), "t.log:1: truncated record (another record starts at column 16)"));
	rvm_log_free(&log);
	diag_close(&d);
	tb_free(&b);
}

static void test_unknown_type(void **state)
{
	struct tbuf b = { 0 };
	struct rvm_log log;
	struct diag d;

	(void)state;
	tb_rec(&b, 0, "hdr", 0, "proto=1");
	tb_rec(&b, 1, "future", 0, "x=1");
	tb_rec(&b, 2, "future", 1, "x=2");
	tb_rec(&b, 3, "end", 0, "status=ok records=3");
	read_buf(&b, &log, &d);
	assert_int_equal(log.nrecs, 4);
	assert_int_equal(log.unknown, 2);
	assert_non_null(strstr(diag_text(&d), "t.log:2: warning: unknown record type 'future' (kept)"));
	assert_null(strstr(diag_text(&d), "t.log:3:")); /* warned once per type */
	assert_true(rvm_log_clean(&log));
	assert_false(log.recs[1].known);
	rvm_log_free(&log);
	diag_close(&d);
	tb_free(&b);
}

/* rvm_rec_parse on one line; returns the reason or "" when accepted. */
static const char *why_of(const char *body_or_line, int add_crc)
{
	static char why[256];
	char line[1024];
	struct rvm_rec r;

	if (add_crc)
		snprintf(line, sizeof(line), "%s *%08x", body_or_line,
			 rvm_crc32(0, body_or_line, strlen(body_or_line)));
	else
		snprintf(line, sizeof(line), "%s", body_or_line);
	if (rvm_rec_parse(line, strlen(line), &r, why, sizeof(why)) == 0) {
		rvm_rec_free(&r);
		return "";
	}
	return why;
}

static void test_record_syntax(void **state)
{
	(void)state;
	assert_string_equal(why_of("@RVM 7 lat h=0 a=1 b=0x1f c=", 1), "");
	assert_non_null(strstr(why_of("@RVM 07 lat h=0", 1), "bad sequence number"));
	assert_non_null(strstr(why_of("@RVM x lat h=0", 1), "bad sequence number"));
	assert_non_null(strstr(why_of("@RVM 99999999999999999999 lat h=0", 1), "bad sequence number"));
	assert_non_null(strstr(why_of("@RVM 1 Lat h=0", 1), "bad record type"));
	assert_non_null(strstr(why_of("@RVM 1 lat", 1), "truncated record"));
	assert_non_null(strstr(why_of("@RVM 1 lat x=0", 1), "first field is 'x=0', not h=<hart>"));
	assert_non_null(strstr(why_of("@RVM 1 lat h=z", 1), "bad hart number"));
	assert_non_null(strstr(why_of("@RVM 1 lat h=0  a=1", 1), "empty field"));
	assert_non_null(strstr(why_of("@RVM 1 lat h=0 a=1 ", 1), "empty field"));
	assert_non_null(strstr(why_of("@RVM 1 lat h=0 A=1", 1), "key must be"));
	assert_non_null(strstr(why_of("@RVM 1 lat h=0 novalue", 1), "want key=value"));
	assert_non_null(strstr(why_of("@RVM 1 lat h=0 =1", 1), "want key=value"));
	assert_non_null(strstr(why_of("@RVM 1 lat h=0 a=1 a=2", 1), "duplicate key 'a'"));
	assert_non_null(strstr(why_of("@RVM 1 lat h=0 h=2", 1), "duplicate key 'h'"));
	assert_non_null(strstr(why_of("@RVM 1 lat h=0 a=\001", 1), "non-printable byte 0x01"));
	assert_non_null(strstr(why_of("@RVM 1 lat h=0 a=x*y", 1), "malformed"));
	assert_non_null(strstr(why_of("@RVM 1 lat h=0 a=1 *0000000g", 0), "malformed checksum"));
	assert_non_null(strstr(why_of("@RVM 1 lat h=0 a=1 *ABCDEF01", 0), "malformed checksum"));
	assert_non_null(strstr(why_of("@RVM 1 lat h=0 a=1 *00000000", 0), "bad crc"));
	assert_non_null(strstr(why_of("@RVM 1 lat h=0 a=1 *0000000000", 0), "unexpected bytes after the checksum"));
	assert_non_null(strstr(why_of("@RVM 1 lat h=0 a=1", 0), "no ' *crc' checksum"));
}

/* A record that is only the prefix and a checksum ("@RVM *<crc of "@RVM">"):
 * the checksummed part ends before the sequence number would start.  The
 * reader once searched it with a length of SIZE_MAX (ASan: overflow; a
 * release build crashed on a long line).  Each text on an exact-size heap
 * buffer, so that a read past it is caught. */
static void test_prefix_only_record(void **state)
{
	static const char *const bodies[] = { "@RVM", "@RVM ", "@RVM 1", "@RVM 1 ", "@RVM 1 x" };
	char why[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
		char line[64];
		int n = snprintf(line, sizeof(line), "%s *%08x", bodies[i], rvm_crc32(0, bodies[i], strlen(bodies[i])));
		char *buf = malloc((size_t)n);
		struct rvm_rec r;
		struct rvm_log log;
		struct diag d;

		assert_non_null(buf);
		memcpy(buf, line, (size_t)n);
		assert_int_equal(rvm_rec_parse(buf, (size_t)n, &r, why, sizeof(why)), -1);
		assert_non_null(strstr(why, "truncated record"));
		diag_open(&d);
		assert_int_equal(rvm_log_read_mem("t.log", buf, (size_t)n, d.f, &log), 0);
		assert_int_equal(log.nrecs, 0);
		assert_int_equal(log.bad, 1);
		assert_non_null(strstr(diag_text(&d), "t.log:1: truncated record"));
		rvm_log_free(&log);
		diag_close(&d);
		free(buf);
	}
}

/* An empty log or one without records: no records, no crash.  The reader
 * once called qsort(NULL, 0, ...), undefined behaviour UBSan reports. */
static void test_empty_log(void **state)
{
	static const char *const texts[] = { "", "just console noise\n", "@RVM\n" };
	struct rvm_log log;
	struct diag d;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		diag_open(&d);
		assert_int_equal(rvm_log_read_mem("t.log", i ? texts[i] : NULL, strlen(texts[i]), d.f, &log), 0);
		assert_int_equal(log.nrecs, 0);
		assert_int_equal(log.runs, 0);
		assert_false(rvm_log_clean(&log));
		assert_non_null(strstr(diag_text(&d), "t.log: no records found"));
		rvm_log_free(&log);
		diag_close(&d);
	}
}

/* Two identical runs in one log once passed as one clean run (every record
 * of the second a "duplicate"): the second hdr is named with both lines. */
static void test_two_runs(void **state)
{
	struct tbuf b = { 0 };
	struct rvm_log log;
	struct diag d;

	(void)state;
	good_run(&b, 1);              /* lines 1..7 */
	tb_printf(&b, "reboot\n");    /* line 8 */
	good_run(&b, 1);              /* lines 9..15 */
	read_buf(&b, &log, &d);
	assert_int_equal(log.runs, 2);
	assert_false(rvm_log_clean(&log));
	assert_non_null(strstr(diag_text(&d), "t.log:9: a second run starts here (hdr, seq 0, after seq 6 "
					      "at line 7; the first run's hdr is at line 1)"));
	rvm_log_free(&log);
	diag_close(&d);
	tb_free(&b);

	/* a run cut short and restarted: also two runs */
	good_run(&b, 0);
	good_run(&b, 1);
	read_buf(&b, &log, &d);
	assert_int_equal(log.runs, 2);
	assert_false(rvm_log_clean(&log));
	rvm_log_free(&log);
	diag_close(&d);
	tb_free(&b);
}

/* Lines in another order than their seq: taken in seq order, one notice. */
static void test_shuffled_lines(void **state)
{
	struct tbuf b = { 0 }, sh = { 0 };
	struct rvm_log log;
	struct diag d;
	char *line[16] = { 0 }, *p;
	size_t n = 0;

	(void)state;
	good_run(&b, 1);
	for (p = strtok(b.s, "\n"); p; p = strtok(NULL, "\n"))
		line[n++] = p;
	assert_int_equal(n, 7);
	/* hdr first, then 5 4 3 2 1... reversed, end last */
	tb_printf(&sh, "%s\n", line[0]);
	for (size_t i = n - 2; i >= 1; i--)
		tb_printf(&sh, "%s\n", line[i]);
	tb_printf(&sh, "%s\n", line[n - 1]);
	read_buf(&sh, &log, &d);
	assert_int_equal(log.out_of_order, 4);   /* seq 4, 3, 2, 1 after seq 5 */
	assert_int_equal(log.runs, 1);
	assert_int_equal(log.nrecs, 7);
	for (size_t i = 0; i < log.nrecs; i++)
		assert_int_equal(log.recs[i].seq, i);
	assert_non_null(strstr(diag_text(&d), "t.log:3: notice: records out of order (seq 4 after seq 5 "
					      "at line 2); they are taken in seq order"));
	assert_true(rvm_log_clean(&log));        /* a notice, not an error */
	rvm_log_free(&log);
	diag_close(&d);
	tb_free(&b);
	tb_free(&sh);
}

/* A record with many fields parses in n log n (the duplicate-key check was
 * quadratic: 7 s for 40 k fields); a duplicate is still found. */
static void test_wide_record(void **state)
{
	enum { NF = 20000 };
	struct tbuf f = { 0 }, line = { 0 };
	struct rvm_rec rec;
	char why[160], kv[48];

	(void)state;
	tb_printf(&f, "@RVM 3 warn h=0");
	for (int i = 0; i < NF; i++) {
		snprintf(kv, sizeof kv, " k%d=%d", i, i);
		tb_printf(&f, "%s", kv);
	}
	tb_put(&line, f.s, f.len); /* tb_printf holds 4 KiB at most */
	tb_printf(&line, " *%08x", rvm_crc32(0, f.s, f.len));
	assert_int_equal(rvm_rec_parse(line.s, line.len, &rec, why, sizeof why), 0);
	assert_int_equal(rec.nfields, NF);
	assert_string_equal(logrec_get(&rec, "k19999"), "19999");
	assert_string_equal(logrec_get(&rec, "k0"), "0");
	rvm_rec_free(&rec);
	tb_free(&line);
	tb_printf(&f, " k17=x");
	tb_put(&line, f.s, f.len); /* tb_printf holds 4 KiB at most */
	tb_printf(&line, " *%08x", rvm_crc32(0, f.s, f.len));
	assert_int_equal(rvm_rec_parse(line.s, line.len, &rec, why, sizeof why), -1);
	assert_string_equal(why, "duplicate key 'k17'");
	tb_free(&line);
	tb_free(&f);
}

static void test_io_error(void **state)
{
	struct rvm_log log;

	(void)state;
	assert_int_equal(rvm_log_read("/nonexistent/dir/x.log", NULL, &log), -1);
	assert_int_equal(errno, ENOENT);
}

/* What is not a log is refused, never read until memory runs out: a device
 * (parse /dev/zero once did), a directory, a stream past the size limit (a
 * file of exactly the limit is read). */
static void test_read_limits(void **state)
{
	char path[] = "/tmp/rvmess_test_log.XXXXXX";
	struct rvm_log log;
	int fd = mkstemp(path);
	static char chunk[65536];
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	memset(chunk, 'x', sizeof(chunk));
	for (int i = 0; i < 32; i++) /* 2 MiB */
		assert_int_equal(fwrite(chunk, 1, sizeof(chunk), f), sizeof(chunk));
	assert_int_equal(fclose(f), 0);
	errno = 0;
	assert_int_equal(rvm_log_read_max(path, (2u << 20) - 1, NULL, &log), -1);
	assert_int_equal(errno, EFBIG);
	assert_int_equal(rvm_log_read_max(path, 2u << 20, NULL, &log), 0);
	assert_int_equal(log.lines, 1);
	rvm_log_free(&log);
	assert_int_equal(rvm_log_read_max(path, 1u << 20, NULL, &log), -1);
	assert_int_equal(errno, EFBIG);
	unlink(path);
	assert_int_equal(rvm_log_read("/dev/zero", NULL, &log), -1);
	assert_int_equal(errno, ENODEV);
	assert_non_null(strstr(rvm_log_strerror(errno), "a device, not a log file"));
	assert_int_equal(rvm_log_read("/tmp", NULL, &log), -1);
	assert_int_equal(errno, EISDIR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc_check_value),
		cmocka_unit_test(test_good_log),
		cmocka_unit_test(test_corrupt_crc),
		cmocka_unit_test(test_truncated_last_line),
		cmocka_unit_test(test_truncated_log),
		cmocka_unit_test(test_duplicates_and_conflicts),
		cmocka_unit_test(test_gaps),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_two_prefixes_on_a_line),
		cmocka_unit_test(test_unknown_type),
		cmocka_unit_test(test_record_syntax),
		cmocka_unit_test(test_prefix_only_record),
		cmocka_unit_test(test_io_error),
		cmocka_unit_test(test_read_limits),
		cmocka_unit_test(test_empty_log),
		cmocka_unit_test(test_two_runs),
		cmocka_unit_test(test_shuffled_lines),
		cmocka_unit_test(test_wide_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
