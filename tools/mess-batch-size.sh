#!/usr/bin/env bash
# Which batch size makes a Mess point's batch means independent, as its
# interval assumes (docs/mess.md, "When a point's window ends").  Runs a
# grid of make run's Mess family on make run's hostsim system with fixed
# long windows (mess_tol=0) at each batch size, and prints per batch size
# the mean over the points of the record's `vr` (variance of pairs of
# consecutive batches over twice the batches' own: 1 + their lag-1
# correlation) and the mean interval half-width as % of the latency, for
# the light points (latency below 1.5x the grid's lowest) and the loaded
# ones apart.  A benchmark, not a test.
#   tools/mess-batch-size.sh [--batches "100 200 500 1000 2000"] [--loads N]
#                            [--grid "mess_mix=... mess_pause=..."] [-o DIR] [-j N]
set -eu
cd "$(dirname "$0")/.."
BATCHES="100 200 500 1000 2000"
LOADS=20000
GRID="mess_mix=0,60,100 mess_pause=0,16,64,256,512,1024,4096,16384"
OUT=out/mess-batch-size
JOBS=2
while [ $# -gt 0 ]; do
	case $1 in
	--batches) BATCHES=$2; shift 2 ;;
	--loads) LOADS=$2; shift 2 ;;
	--grid) GRID=$2; shift 2 ;;
	-o) OUT=$2; shift 2 ;;
	-j) JOBS=$2; shift 2 ;;
	*) echo "usage: $0 [--batches LIST] [--loads N] [--grid KEYS] [-o DIR] [-j N]" >&2; exit 2 ;;
	esac
done
make --no-print-directory -s all >/dev/null
mkdir -p "$OUT"
grep -v '^suites=' tools/configs/hostsim.cfg >"$OUT/base.cfg"
echo "suites=mess" >>"$OUT/base.cfg"
run() { # B
	cp build/images/virt.elf "$OUT/b$1.elf"
	# shellcheck disable=SC2086
	build/bin/rvmess config "$OUT/b$1.elf" --file "$OUT/base.cfg" $GRID mess_tol=0 \
		mess_window_loads="$LOADS" mess_batch_loads="$1" >/dev/null
	build/bin/hostsim --harts 8 --mem-size 512M --config tools/configs/hostsim-ddr4.sim \
		"$OUT/b$1.elf" >"$OUT/b$1.log" 2>/dev/null
}
n=0
for b in $BATCHES; do
	run "$b" &
	n=$((n + 1))
	[ $((n % JOBS)) != 0 ] || wait
done
wait
echo "batch loads x $LOADS-load windows; vr = var(pairs) / (2 var(batches)) = 1 + lag-1 correlation;"
echo "'indep.': vr's mean for independent batches, (n - 1) / (n - 3) with n batches; ci as % of nspl"
printf '%-7s %7s %8s %8s %8s   %8s %8s %8s\n' batch indep. "vr light" "ci%" points "vr load" "ci%" points
for b in $BATCHES; do
	grep -ao '@RVM [0-9]* mess .*' "$OUT/b$b.log" | awk -v b="$b" -v loads="$LOADS" '
		function f(k) { return match($0, " " k "=[0-9.]*") ? substr($0, RSTART + length(k) + 2, RLENGTH - length(k) - 2) + 0 : -1 }
		{ n++; lat[n] = f("nspl"); vr[n] = f("vr"); ci[n] = f("ci"); if (!lo || lat[n] < lo) lo = lat[n] }
		END { for (i = 1; i <= n; i++) { c = lat[i] < 1.5 * lo ? 1 : 2
				if (vr[i] < 0) continue
				sv[c] += vr[i]; sc[c] += 100 * ci[i] / lat[i]; k[c]++ }
			nb = int(loads / b); printf "%-7s %7.3f %8.3f %8.3f %8d   %8.3f %8.3f %8d\n", b, (nb - 1) / (nb - 3), k[1] ? sv[1] / k[1] : 0, k[1] ? sc[1] / k[1] : 0, k[1],
				k[2] ? sv[2] / k[2] : 0, k[2] ? sc[2] / k[2] : 0, k[2] }'
done
