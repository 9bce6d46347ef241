#!/usr/bin/env bash
# The Mess simulator's speed (docs/mess.md "Speed"): `rvmess sim bench` on
# four request streams, each measured two ways:
#   - host instructions per request in messsim_request (callgrind, its
#     inclusive count over the stream's requests: the window's work
#     included), the figure that does not depend on the machine's load;
#   - requests per second (wall time of the calls alone, best of --runs).
# Streams, 70 % reads, at the clock --freq-mhz (2000):
#   steady       periodic, at half the 70 %-reads curve's highest bandwidth
#   bursty       the same mean rate in bursts of 64 requests at one cycle
#   closed       256 requests always outstanding (a closed loop: the loop's
#                own min-heap is in its wall time, not in its instructions)
#   closed-deep  4096 outstanding, more than a window (1000 requests)
# plus each stream's result (its mean latency; the closed loops' bandwidth).
#
#   tools/bench-messsim.sh [--family DIR] [--curve-mhz F] [--freq-mhz F]
#                          [--requests N] [--runs R] [--no-wall] [--no-callgrind]
#                          [--out DIR]
#
# --family: default a synthetic 285 GB/s server family (tools/mess-synth-family.sh);
# --requests: per wall run (default 100000000; the closed loops a fifth);
# callgrind runs 2000000 requests a stream.  Exit status 1 when the steady
# stream costs more than 8 host instructions a request.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
OUT=out/bench-messsim FAM= CMHZ=0 MHZ=2000 N=100000000 RUNS=3 WALL=1 CG=1
while [ $# -gt 0 ]; do
	case $1 in
	--family) FAM=$2; shift ;;
	--curve-mhz) CMHZ=$2; shift ;;
	--freq-mhz) MHZ=$2; shift ;;
	--requests) N=$2; shift ;;
	--runs) RUNS=$2; shift ;;
	--no-wall) WALL=0 ;;
	--no-callgrind) CG=0 ;;
	--out) OUT=$2; shift ;;
	*) echo "usage: $0 [--family DIR] [--curve-mhz F] [--freq-mhz F] [--requests N] [--runs R] [--no-wall] [--no-callgrind] [--out DIR]" >&2; exit 2 ;;
	esac
	shift
done
make --no-print-directory host >/dev/null
mkdir -p "$OUT"
if [ -z "$FAM" ]; then
	FAM=$OUT/family
	tools/mess-synth-family.sh -o "$FAM" >/dev/null
fi
if [ "$CG" = 1 ] && ! command -v valgrind >/dev/null; then
	echo "$0: valgrind not installed: no instruction counts (--no-callgrind)" >&2
	CG=0
fi
bench() { # STREAM REQUESTS
	local st=$1 n=$2 k=256
	case $st in closed-deep) st=closed k=4096 ;; esac
	"$BUILD/bin/rvmess" sim bench "$FAM" --stream "$st" --outstanding "$k" --read 70 --freq-mhz "$MHZ" \
		--curve-mhz "$CMHZ" --requests "$n" 2>/dev/null
}
printf '%-12s %22s %24s   %s\n' stream "M requests/s (wall)" "instructions/request" "result"
bad=0
for st in steady bursty closed closed-deep; do
	n=$N
	case $st in closed*) n=$((N / 5)) ;; esac
	rate=- ins=- res=
	if [ "$WALL" = 1 ]; then
		rate=0
		for _ in $(seq "$RUNS"); do
			out=$(bench "$st" "$n")
			r=$(echo "$out" | sed -n 's/.* \([0-9.]*\) M requests\/s.*/\1/p')
			rate=$(awk -v a="$rate" -v b="$r" 'BEGIN { print (b > a ? b : a) }')
		done
		res=$out
	fi
	if [ "$CG" = 1 ]; then
		out=$(valgrind --tool=callgrind --callgrind-out-file="$OUT/cg.$st" "$BUILD/bin/rvmess" sim bench "$FAM" \
			--stream "${st%-deep}" --outstanding "$([ "$st" = closed-deep ] && echo 4096 || echo 256)" --read 70 \
			--freq-mhz "$MHZ" --curve-mhz "$CMHZ" --requests 2000000 2>/dev/null)
		ins=$(callgrind_annotate --inclusive=yes "$OUT/cg.$st" 2>/dev/null |
			awk '/ctrl\.c:messsim_request/ { gsub(",", "", $1); printf "%.2f", $1 / 2000000; exit }')
		[ -n "$res" ] || res=$out
		if [ "$st" = steady ] && awk -v i="$ins" 'BEGIN { exit !(i == "" || i > 8) }'; then bad=1; fi
	fi
	res=$(echo "$res" | sed -n 's/.*; \([0-9.]* MB\/s\), \(latency [0-9.]* ns\).*/\1, \2/p; t; s/.*\(latency [0-9.]* ns\).*/\1/p' | tail -1)
	printf '%-12s %22s %24s   %s\n' "$st" "$rate" "$ins" "$res"
done
echo "(family $FAM; 70 % reads; clock $MHZ MHz; wall: best of $RUNS runs of $N requests, the closed loops $((N / 5)); callgrind: 2000000 requests)"
[ "$bad" = 0 ] || { echo "$0: the steady stream costs more than 8 host instructions a request" >&2; exit 1; }
