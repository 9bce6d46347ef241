/*
 * Synthetic rvmess console log for benchmarks and scaling tests: a valid run
 * (hdr, cfg, harts, suite records, end) with correct CRC-32s, so every record
 * passes validation and `rvmess parse` does its full work on it.
 *
 *   rvmess-genlog [--lat N] [--par N] [--mess N] [--chase N] [--wide NFIELDS]
 *
 *   --lat N     N lat records: 2 chains x 4 strides, sizes cycling 512 B..16 MiB
 *   --par N     N par records: sizes x k = 1..8 (every size has its k=1 point)
 *   --mess N    N mess records: 6 mixes x 16 pauses x reps
 *   --chase N   N chase records over 2 harts
 *   --latflat N N lat records of one dataset (random, stride 64), growing
 *               sizes, one flat latency: one long plateau
 *   --latsets N N lat records, each its own stride: N datasets
 *   --wide F    one extra `warn` record with F distinct fields
 *   --unknown N N records of 500 unknown types (kept, one warning per type)
 *
 * Built as build/bin/rvmess-genlog (with the image's own firmware/lib/crc32.c),
 * used by tools/bench-parse.sh and ci/tests/cli.sh; writes the log on stdout.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rvmess/crc32.h"

static unsigned long seq;
static char *body;
static size_t cap;

/* One record "@RVM <seq> <type> h=<hart> <fields> *<crc>" on stdout. */
static void rec(const char *type, unsigned hart, const char *fmt, ...)
{
	va_list ap;
	int n, m;

	for (;;) {
		n = snprintf(body, cap, "@RVM %lu %s h=%u ", seq, type, hart);
		if ((size_t)n < cap) {
			va_start(ap, fmt);
			m = vsnprintf(body + n, cap - (size_t)n, fmt, ap);
			va_end(ap);
			if ((size_t)(n + m) < cap)
				break;
		}
		cap *= 2;
		body = realloc(body, cap);
		if (!body)
			exit(2);
	}
	printf("%s *%08x\n", body, rvm_crc32(0, body, (size_t)(n + m)));
	seq++;
}

static unsigned long arg(int argc, char **argv, const char *name)
{
	for (int i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return strtoul(argv[i + 1], NULL, 10);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long nlat = arg(argc, argv, "--lat"), npar = arg(argc, argv, "--par");
	unsigned long nmess = arg(argc, argv, "--mess"), nchase = arg(argc, argv, "--chase");
	unsigned long wide = arg(argc, argv, "--wide");
	unsigned long nflat = arg(argc, argv, "--latflat"), nsets = arg(argc, argv, "--latsets");
	unsigned long nunknown = arg(argc, argv, "--unknown");
	static const unsigned strides[] = { 64, 128, 256, 4096 };
	static const unsigned mixes[] = { 0, 20, 40, 60, 80, 100 };

	body = malloc(cap = 4096);
	if (!body)
		return 2;
	rec("hdr", 0, "proto=1 platform=virt mode=M harts=2 hartids=0,1 timebase=10000000 cpu_hz=1000000000 version=bench");
	rec("cfg", 0, "suites=chase,lat,par,mess reps=1 lat_strides=64,128,256,4096");
	rec("hart", 0, "idx=0 cpu_hz=1000000000 cycle=1 instret=1");
	rec("hart", 1, "idx=1 cpu_hz=1000000000 cycle=1 instret=1");
	for (unsigned long i = 0; i < nchase; i++)
		rec("chase", (unsigned)(i & 1), "size=1048576 lines=16384 rep=%lu loads=10000 cycles=%lu ticks=8000 ns=%lu cpl=80.000 nspl=80.000",
		    i / 2, 800000 + i % 1000, 800000 + i % 1000);
	for (unsigned long i = 0; i < nlat; i++) {
		unsigned long set = i % 8, size = 512ul << (i / 8 % 16);
		unsigned long ns = size <= 32768 ? 40000 : size <= 1048576 ? 120000 : 900000;

		rec("lat", 0, "chain=%s stride=%u size=%lu loads=10000 cycles=%lu ticks=1 ns=%lu cpl=0.000 nspl=0.000",
		    set < 4 ? "stride" : "random", strides[set % 4], size, ns + i % 97, ns + i % 97);
	}
	for (unsigned long i = 0; i < nflat; i++)
		rec("lat", 0, "chain=random stride=64 size=%lu loads=1000 cycles=4000 ticks=1 ns=%lu cpl=0.000 nspl=0.000",
		    4096 + 64 * i, 4000 + i % 3);
	for (unsigned long i = 0; i < nsets; i++)
		rec("lat", 0, "chain=stride stride=%lu size=4096 loads=1000 cycles=4000 ticks=1 ns=4000 cpl=0.000 nspl=0.000",
		    64 + 8 * i);
	for (unsigned long i = 0; i < npar; i++) {
		unsigned long k = 1 + i % 8, size = 4096 * (1 + i / 8);

		rec("par", 0, "size=%lu k=%lu loads=%lu cycles=12000 ticks=1 ns=%lu cpl=0.000 nspl=0.000",
		    size, k, 1000 * k, 12000 + i % 13);
	}
	for (unsigned long i = 0; i < nmess; i++) {
		unsigned mix = mixes[i % 6];
		unsigned long pause = 1ul << (i / 6 % 16), rep = i / 96;
		unsigned long bw = 20000000 / (pause + 10), ns = 80000 + 200000 / (pause + 1);

		rec("mess", 0, "mix=%u pause=%lu rep=%lu gens=1 loads=1000 cycles=%lu ticks=1 ns=%lu cpl=0.000 nspl=%lu.%03lu "
		    "gen_iters=100 gen_loads=100 gen_stores=0 iss_rd=6400 iss_wr=0 bw_iss=%lu.000 rd_pct=%u.000 src=iss",
		    mix, pause, rep, ns, ns, ns / 1000, ns % 1000 + rep % 7, bw + rep % 11, 100 - mix / 2);
	}
	for (unsigned long i = 0; i < nunknown; i++) {
		char type[16];

		snprintf(type, sizeof(type), "new%lu", i % 500);
		rec(type, 0, "x=%lu", i);
	}
	if (wide) {
		size_t len = 0, fcap = wide * 16 + 1;
		char *f = malloc(fcap);

		if (!f)
			return 2;
		for (unsigned long i = 0; i < wide; i++)
			len += (size_t)snprintf(f + len, fcap - len, "%sk%lu=%lu", i ? " " : "", i, i);
		rec("warn", 0, "%s", f);
		free(f);
	}
	rec("end", 0, "status=ok errors=0 records=%lu harts=2 states=0:done,1:done", seq);
	free(body);
	return ferror(stdout) ? 2 : 0;
}
