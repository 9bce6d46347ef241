#!/usr/bin/env bash
# The image measures what hostsim was configured to be.  One non-default
# system: L1D 16 KiB (3-cycle hit), LLC 256 KiB (+20 cycles), fixed memory of
# 150 cycles, 1 GHz.  Expected:
#   chase (64 MiB ring): 3 + 20 + 150 = 173 cycles per load, within 1 %;
#   lat (random chain, stride 64): cache levels L1 = 16 KiB at 3 cycles and
#   L2 = 256 KiB at 23 cycles (within 1 %), then memory.  The caches also
#   hold the image's own lines (stack, code, data; the LLC is inclusive), so
#   the last size that still fits may be one lmbench step (at most 1/8) below
#   the configured capacity; where exactly depends on the image's layout.
#   The hdr's cache_max is the LLC's 256 KiB (hostsim's tree describes its
#   caches), so the plateau from beyond it to lat_max (4 MiB) is memory.
# The same system swept to lat_max=128K, inside the LLC: the last plateau is
# L2, not memory, and a note says it starts inside the FDT's 256 KiB cache.
# OpenPiton 2x1's L2 (two 64 KiB slices: --llc-size 128K, 8 KiB L1D) on
# hostsim's openpiton profile, swept to lat_max=64K: its tree, like the
# RTL's, names no cache (cache_max=0), so the 16-64 KiB plateau is L2, not
# memory (docs/formats.md, "Cache levels").
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
[ -x "$BUILD/bin/hostsim" ] && [ -x "$BUILD/bin/rvmess" ] || { fail sysconf "build/bin/hostsim or rvmess missing"; exit 1; }
scratch sysconf

cp "$BUILD/images/virt.elf" "$TMP/virt.elf"
"$BUILD/bin/rvmess" config "$TMP/virt.elf" suites=chase,lat reps=1 warmups=1 chase_size=64M \
	chase_loads=20000 chase_all_harts=0 lat_max=4M lat_loads=2000 lat_strides=64 lat_random=1 >/dev/null ||
	{ fail sysconf-config "rvmess config"; exit 1; }
tools/run.sh --target hostsim --harts 2 --image "$TMP/virt.elf" --out "$TMP/out" --timeout 300 \
	--sim "--l1d-size 16K --l1d-hit 3 --llc-size 256K --llc-hit 20 --mem-model fixed --mem-latency 150" \
	>"$TMP/run.out" 2>&1 || fail sysconf-run "run.sh failed: $(tail -3 "$TMP/run.out" | tr '\n' ' ')"

within() { awk -v v="$1" -v w="$2" -v tol="$3" 'BEGIN { d = (v - w) / w; if (d < 0) d = -d; exit !(d <= tol) }'; }

cpl=$(grep -o '@RVM [0-9]* chase .*' "$TMP/out/console.log" | grep -o ' cpl=[0-9.]*' | cut -d= -f2 | head -1)
if [ -n "$cpl" ] && within "$cpl" 173 0.01; then pass "sysconf-chase-latency ($cpl cycles, want 173)"
else fail sysconf-chase-latency "chase $cpl cycles per load, want 173 +- 1 %"; fi

csv=$TMP/out/cache_levels.csv
row() { grep "^$1," "$csv" | head -1; }
l1=$(row L1); l2=$(row L2)
# level,first_size_bytes,last_size_bytes,capacity_bytes,points,ns_per_load,cycles_per_load,chain,stride
fits() { # CAPACITY CONFIGURED: the last size that fits is at most one lmbench step (<= 1/8) below
	[ -n "$1" ] && [ "$1" -le "$2" ] && [ "$1" -ge $(($2 - $2 / 8)) ]
}
cap1=$(echo "$l1" | cut -d, -f4)
if fits "$cap1" 16384 && within "$(echo "$l1" | cut -d, -f7)" 3 0.01; then
	pass "sysconf-lat-l1 ($l1)"
else fail sysconf-lat-l1 "L1 row '$l1', want capacity 16 KiB (one lmbench step below is fine) at 3 cycles"; fi
cap2=$(echo "$l2" | cut -d, -f4)
if fits "$cap2" 262144 && within "$(echo "$l2" | cut -d, -f7)" 23 0.01; then
	pass "sysconf-lat-llc ($l2)"
else fail sysconf-lat-llc "L2 row '$l2', want capacity 256 KiB (one lmbench step below is fine) at 23 cycles"; fi
hdr=$(grep -ao '@RVM 0 hdr .*' "$TMP/out/console.log")
mem=$(row memory)
if [[ "$hdr" == *" cache_max=262144 "* ]] && [ -n "$mem" ] && [ "$(echo "$mem" | cut -d, -f2)" -gt 262144 ] &&
	[ "$(echo "$mem" | cut -d, -f3)" = 4194304 ] && ! grep -q '^note:' "$TMP/out/cache_levels.txt"; then
	pass "sysconf-lat-memory (cache_max=262144; $mem)"
else fail sysconf-lat-memory "hdr '${hdr:0:300}', memory row '$mem': want cache_max=262144 and memory from beyond 256 KiB to 4 MiB"; fi

# lat_max inside the LLC, then inside OpenPiton 2x1's L2: never memory
"$BUILD/bin/rvmess" config "$TMP/virt.elf" suites=lat reps=1 warmups=1 lat_max=128K lat_loads=2000 lat_strides=64 \
	lat_random=1 -o "$TMP/v128.elf" >/dev/null || fail sysconf-config "rvmess config lat_max=128K"
timeout 300 "$BUILD/bin/hostsim" --harts 2 --l1d-size 16K --l1d-hit 3 --llc-size 256K --llc-hit 20 --mem-model fixed \
	--mem-latency 150 "$TMP/v128.elf" >"$TMP/v128.log" 2>"$TMP/v128.err"
"$BUILD/bin/rvmess" parse "$TMP/v128.log" -o "$TMP/p128" >"$TMP/p128.out" 2>&1
last=$(tail -n 1 "$TMP/p128/cache_levels.csv")
if [ "$(echo "$last" | cut -d, -f1,3,4)" = L2,131072, ] && ! grep -q '^memory' "$TMP/p128/cache_levels.csv" &&
	grep -q '^note: L2 starts at .*, inside the largest cache the FDT describes (256 KiB, hdr cache_max), so it is a cache level, not memory' "$TMP/p128.out"; then
	pass "sysconf-lat-max-inside-llc ($last)"
else fail sysconf-lat-max-inside-llc "last level '$last', want L2 to 128 KiB, no capacity: $(tail -n 3 "$TMP/p128.out" | tr '\n' '|')"; fi

if [ -e "$BUILD/images/openpiton.elf" ]; then
	"$BUILD/bin/rvmess" config "$BUILD/images/openpiton.elf" suites=lat reps=1 warmups=1 lat_max=64K lat_loads=1000 \
		lat_strides=64 lat_random=1 -o "$TMP/op64.elf" >/dev/null || fail sysconf-config "rvmess config openpiton lat_max=64K"
	timeout 300 "$BUILD/bin/hostsim" --machine openpiton --harts 2 --l1d-size 8K --llc-size 128K "$TMP/op64.elf" \
		>"$TMP/op64.log" 2>"$TMP/op64.err"
	"$BUILD/bin/rvmess" parse "$TMP/op64.log" -o "$TMP/pop" >"$TMP/pop.out" 2>&1
	last=$(tail -n 1 "$TMP/pop/cache_levels.csv")
	if grep -aq '@RVM 0 hdr .* cache_max=0 ' "$TMP/op64.log" && [ "$(echo "$last" | cut -d, -f1,3,4)" = L2,65536, ] &&
		! grep -q '^memory' "$TMP/pop/cache_levels.csv" &&
		grep -qF 'and the FDT names no cache size (hdr cache_max=0), so L2 may be a cache as well as memory: raise lat_max past the last-level cache' "$TMP/pop.out"; then
		pass "sysconf-openpiton-lat-max-inside-l2 ($last)"
	else fail sysconf-openpiton-lat-max-inside-l2 "last level '$last', want L2 to 64 KiB, no capacity: $(tail -n 3 "$TMP/pop.out" | tr '\n' '|')"; fi
else
	skip sysconf-openpiton-lat-max-inside-l2 "$BUILD/images/openpiton.elf not built"
fi
finish
