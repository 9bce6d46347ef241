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
finish
