#!/usr/bin/env bash
# Host speed of hostsim's memory-system model (docs/memsys.md, "Speed").
#   tools/bench-memsys.sh [MEM_MODEL]     (default dram)
# Builds a small driver against hostsim/sim/{memsys,cache,memmodel*}.c in a
# temporary directory and prints accesses per second for three patterns.
set -eu
cd "$(dirname "$0")/.."
model=${1:-dram}
tmp=$(mktemp -d /tmp/bench-memsys.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/bench.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "sim/memsys.h"
static double now_s(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(int argc, char **argv)
{
	struct memsys_cfg c; char err[256];
	memsys_cfg_default(&c);
	if (argc > 1 && memsys_cfg_set(&c, "mem-model", argv[1], err, sizeof err)) { fprintf(stderr, "%s\n", err); return 2; }
	struct memsys *m = memsys_new(&c, 4, err, sizeof err);
	if (!m) { fprintf(stderr, "%s\n", err); return 2; }
	uint64_t t = 0, n; double t0, d;
	n = 100000000; t0 = now_s();
	for (uint64_t i = 0; i < n; i++) t = memsys_access(m, 0, 0x1000 + (i & 7) * 8, (i & 7) == 3, t);
	d = now_s() - t0; printf("same-line L1 hits (fast path): %7.1f M accesses/s\n", n / d / 1e6);
	n = 50000000; t0 = now_s();
	for (uint64_t i = 0; i < n; i++) t = memsys_access(m, 1, (1u << 20) + (((i * 0x9E3779B97F4A7C15ull) >> 40) & 16383 & ~7ull), 0, t);
	d = now_s() - t0; printf("random L1 hits (16 KiB):       %7.1f M accesses/s\n", n / d / 1e6);
	n = 5000000; t0 = now_s();
	for (uint64_t i = 0; i < n; i++) {
		unsigned h = (i >> 10) & 3; uint64_t x = i * 0x9E3779B97F4A7C15ull;
		t = memsys_access(m, h, ((uint64_t)h << 28) + ((x >> 30) & ((1u << 26) - 8)), (i & 7) == 3, t);
	}
	d = now_s() - t0; printf("random over 4 x 64 MiB (%s):  %7.1f M accesses/s\n", c.mem_model, n / d / 1e6);
	memsys_free(m);
	return 0;
}
C
${CC:-cc} -std=c11 -D_DEFAULT_SOURCE -O2 -Wall -Wextra -Werror -Ihostsim -Ifirmware/include "$tmp/bench.c" \
	hostsim/sim/memsys.c hostsim/sim/cache.c hostsim/sim/memmodel*.c hostsim/mess/family.c hostsim/mess/ctrl.c -lm -o "$tmp/bench"
timeout 120 "$tmp/bench" "$model"
