#!/usr/bin/env bash
# The default Mess family (tools/configs/hostsim.cfg's mess keys, 6 mixes x 16
# pauses, hostsim 8 harts, --mem-model ddr as `make run`) run as one boot and
# as a local plan of one job per curve run 2 at a time, in one script so the
# two wall times share the machine's load: prints both, their ratio, and the
# largest latency difference of a point between the two, and the CPU time of
# both (what the wall-time ratio would be on an idle machine).
#   tools/sweep-bench.sh [OUTDIR] [-j N] [--split curve|point]
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
B=$ROOT/build
OUT=${1:-/tmp/rvmess-sweep-bench}
J=2 SPLIT=curve
shift || true
while [ $# -gt 0 ]; do
	case "$1" in
	-j) J=$2; shift 2 ;;
	--split) SPLIT=$2; shift 2 ;;
	*) echo "sweep-bench: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
rm -rf "$OUT" && mkdir -p "$OUT" || exit 2
grep -E '^(reps|warmups|mess_[a-z_]+)=' "$ROOT/tools/configs/hostsim.cfg" >"$OUT/grid.cfg"
echo "suites=mess" >>"$OUT/grid.cfg"
SIMOPTS="--mem-model ddr"

"$B/bin/rvmess" config "$B/images/virt.elf" --file "$OUT/grid.cfg" -o "$OUT/one.elf" >/dev/null || exit 2
t0=$(date +%s.%N)
# shellcheck disable=SC2086
/usr/bin/time -o "$OUT/one.cpu" -f '%U %S' "$B/bin/hostsim" --harts 8 --mem-size 512M $SIMOPTS "$OUT/one.elf" >"$OUT/one.log" 2>/dev/null || exit 1
t1=$(date +%s.%N)
"$B/bin/rvmess" parse "$OUT/one.log" -o "$OUT/one" -q >/dev/null || exit 1

"$B/bin/rvmess" plan "$B/images/virt.elf" -o "$OUT/plan" --file "$OUT/grid.cfg" --harts 8 --mem-size 512M \
	--sim "$SIMOPTS" --split "$SPLIT" >/dev/null || exit 1
t2=$(date +%s.%N)
/usr/bin/time -o "$OUT/plan.cpu" -f '%U %S' "$OUT/plan/run.sh" -j "$J" --progress off >"$OUT/plan.out" 2>&1 || { cat "$OUT/plan.out"; exit 1; }
t3=$(date +%s.%N)
"$B/bin/rvmess" merge "$OUT/plan" -o "$OUT/merged" -q >"$OUT/merge.out" 2>&1 || { cat "$OUT/merge.out"; exit 1; }

awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v j="$J" -v s="$SPLIT" -v n="$(awk -F'\t' '$1 == "job"' "$OUT/plan/manifest.tsv" | wc -l)" \
	'BEGIN { printf "one boot: %.1f s; plan (%d jobs, split %s, -j %d): %.1f s; ratio one boot / plan = %.2f\n", b - a, n, s, j, d - c, (b - a) / (d - c) }'
read -r u1 s1 <"$OUT/one.cpu"
read -r u2 s2 <"$OUT/plan.cpu"
awk -v a="$u1" -v b="$s1" -v c="$u2" -v d="$s2" -v j="$J" 'BEGIN { printf "CPU time: one boot %.1f s, plan %.1f s (all jobs and the runner; x%.2f); on an idle machine with %d cores the plan would take about %.1f s of wall time at best (ratio %.2f)\n", a + b, c + d, (c + d) / (a + b), j, (c + d) / j, (a + b) / ((c + d) / j) }'
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -F, 'NR == FNR { if (FNR > 1) ref[$2 "," $3 "," $4] = $11; next }
	FNR > 1 { k = $2 "," $3 "," $4; n++; if (!(k in ref)) { miss++; next }
		d = ($11 - ref[k]) / ref[k]; if (d < 0) d = -d; s += d; if (d > w) { w = d; wk = k } }
	END { printf "points: %d (%d not in the one-boot run); latency difference plan vs one boot: mean %.3f %%, largest %.3f %% (mix,pause,rep %s)\n", n, miss, 100 * s / n, 100 * w, wk }' \
	"$OUT/one/mess_raw.csv" "$OUT/merged/mess_raw.csv"
