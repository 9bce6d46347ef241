#!/usr/bin/env bash
# Parse-time benchmark: a synthetic valid log of about 100 MB (correct CRCs,
# every record type the parser groups: lat, par, mess, chase, and one record
# with 40 000 fields) from build/bin/rvmess-genlog, timed through
# `rvmess parse`.  Then the three shapes that once took minutes, one by one.
#   tools/bench-parse.sh [OUTDIR] [SCALE]     (default out/bench-parse, 1)
# SCALE multiplies the record counts (SCALE=1: ~100 MB, ~900 k records).
# With CALLGRIND=1 it also counts instructions of a parse of a 1/100 log
# (repeatable across machines, unlike wall time).
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-out/bench-parse}
SCALE=${2:-1}
make --no-print-directory build/bin/rvmess build/bin/rvmess-genlog >/dev/null
mkdir -p "$OUT"
GEN=build/bin/rvmess-genlog
RVMESS=build/bin/rvmess

wall() { # label log -> prints seconds of `rvmess parse`
	local s e
	rm -rf "$OUT/o"
	s=$(date +%s.%N)
	"$RVMESS" parse "$2" -o "$OUT/o" -q >/dev/null 2>"$OUT/err.txt" || {
		echo "rvmess parse failed on $2: $(head -2 "$OUT/err.txt")" >&2; exit 1; }
	e=$(date +%s.%N)
	awk -v l="$1" -v a="$s" -v b="$e" -v m="$(du -m "$2" | cut -f1)" \
		'BEGIN { printf "%-34s %5d MB  %7.2f s\n", l, m, b - a }'
}

n() { echo $(($1 * SCALE)); }
"$GEN" --lat "$(n 300000)" --par "$(n 300000)" --mess "$(n 150000)" --chase "$(n 20000)" \
	--wide 40000 >"$OUT/big.log"
wall "mixed log, $(grep -c '@RVM ' "$OUT/big.log") records" "$OUT/big.log"
"$GEN" --wide 40000 >"$OUT/wide.log"
wall "one record with 40 k fields" "$OUT/wide.log"
"$GEN" --par 20000 >"$OUT/par.log"
wall "20 k par records" "$OUT/par.log"
"$GEN" --latflat 40000 >"$OUT/lat.log"
wall "40 k lat records, one dataset" "$OUT/lat.log"

if [ "${CALLGRIND:-0}" = 1 ]; then
	"$GEN" --lat 3000 --par 3000 --mess 1500 --chase 200 --wide 4000 --latflat 2000 >"$OUT/small.log"
	rm -rf "$OUT/o"
	valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out" \
		"$RVMESS" parse "$OUT/small.log" -o "$OUT/o" -q >/dev/null 2>"$OUT/cg.txt"
	echo "callgrind, $(du -k "$OUT/small.log" | cut -f1) KB log: $(grep -o 'refs: *[0-9,]*' "$OUT/cg.txt" | tr -s ' ') instructions"
fi
