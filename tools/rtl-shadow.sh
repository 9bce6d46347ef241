#!/usr/bin/env bash
# The work an image does, counted on hostsim: the "shadow" run behind the
# cycle estimates of RTL plans (docs/sweeps.md, "Estimates on RTL").
#
#   tools/rtl-shadow.sh TARGET HARTS IMAGE     TARGET: openpiton or cva6
#
# Runs IMAGE on hostsim's profile of the RTL target (--machine TARGET
# --harts HARTS) with the RTL's cache sizes (OpenPiton: L1D 8 KiB, 64 KiB of
# L2 per tile; CVA6: hostsim's defaults) and a memory of 1 cycle, timing
# every instruction (--no-phase-hint), and prints the cycles of its slowest
# hart.  The count is not the RTL's: it is the job's work (instructions and
# cache misses) in a unit that a single ratio, measured on a run of the same
# model with the same memory (the model's run record, tools/rtl-record.sh),
# turns into the model's cycles.  A memory of 1 cycle gave the steadiest
# ratio on the OpenPiton 2x1 runs here (docs/sweeps.md has the figures).
# Exit status: 0 with the count on stdout; 1 when hostsim did not end the
# image cleanly (its message on stderr); 2 for bad arguments.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
BUILD=${BUILD:-$ROOT/build}
die() { echo "rtl-shadow.sh: $*" >&2; exit 2; }
[ $# = 3 ] || die "usage: rtl-shadow.sh openpiton|cva6 HARTS IMAGE"
target=$1 harts=$2 image=$3
case "$harts" in ''|*[!0-9]*|0) die "HARTS must be a positive number, got '$harts'" ;; esac
[ -f "$image" ] || die "$image: no such image"
sim=$BUILD/bin/hostsim
[ -x "$sim" ] || die "$sim not built (make host)"
case "$target" in
openpiton) opts=(--l1d-size 8192 --llc-size $((65536 * harts))) ;;
cva6) opts=() ;;
*) die "no shadow for target '$target' (openpiton or cva6)" ;;
esac
err=$(mktemp "${TMPDIR:-/tmp}/rtl-shadow.XXXXXX") || exit 2
# 2e10 cycles: hours of hostsim; an image that never ends is stopped there
"$sim" --machine "$target" --harts "$harts" "${opts[@]}" --mem-model fixed --mem-latency 1 \
	--no-phase-hint --stats --max-cycles 20000000000 "$image" >/dev/null 2>"$err"
rc=$?
cycles=$(sed -n 's/.* max_cycles=\([0-9][0-9]*\) .*/\1/p' "$err" | tail -n 1)
if [ "$rc" != 0 ] || [ -z "$cycles" ]; then
	echo "rtl-shadow.sh: hostsim --machine $target ended $image with exit $rc: $(grep -v '^ \|^hostsim stats\|^memsys\|^hart \|^memctl' "$err" | head -3 | tr '\n' ' ')" >&2
	rm -f "$err"
	exit 1
fi
rm -f "$err"
echo "$cycles"
