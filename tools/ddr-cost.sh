#!/usr/bin/env bash
# Host cost of the ddr memory model against simple-dram (issue 8: at most
# 1.25x), counted in host instructions by callgrind, so the figure does not
# depend on the machine's load: one short Mess run (8 harts, the mess suite
# alone: 50 % stores at pause 0, an 8 MiB chase of 2000 loads, 1 MiB per
# generator) under each model; prints both counts, the ratio of the totals
# and the ratio per simulated instruction (the two models run the same
# image, but a slower memory lets the generators run fewer iterations).
#   tools/ddr-cost.sh [OUTDIR]        (default out/ddr-cost; a few minutes)
# Environment: HOSTSIM (default build/bin/hostsim), SIM (more options for
# both runs, given before --mem-model, which a --config in them cannot
# undo), BASE (the model compared against: simple-dram; ddr-resv compares
# the controller with the reservation scheduler, e.g. BASE=ddr-resv
# SIM="--config tools/configs/hostsim-ddr4.sim" for make run's system),
# IMAGE (default build/images/virt.elf, built first; set, nothing is
# built: an older and a newer HOSTSIM then run the same bytes, as the
# image names the revision it was built from).
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-out/ddr-cost}
HOSTSIM=${HOSTSIM:-build/bin/hostsim}
SIM=${SIM:-}
BASE=${BASE:-simple-dram}
command -v valgrind >/dev/null || { echo "ddr-cost.sh: valgrind not found" >&2; exit 2; }
if [ -z "${IMAGE:-}" ]; then
	make --no-print-directory all >/dev/null
	IMAGE=build/images/virt.elf
fi
mkdir -p "$OUT"
cp "$IMAGE" "$OUT/virt.elf"
build/bin/rvmess config "$OUT/virt.elf" suites=mess reps=1 warmups=0 mess_chase_size=8M mess_gen_size=1M \
	mess_tol=0 mess_window_loads=2000 mess_mix=50 mess_pause=0 >/dev/null
for model in "$BASE" ddr; do
	valgrind --tool=callgrind --callgrind-out-file="$OUT/$model.cg" "$HOSTSIM" --harts 8 --mem-size 512M --stats \
		$SIM --mem-model "$model" "$OUT/virt.elf" >"$OUT/$model.log" 2>"$OUT/$model.err"
	grep -q '@RVM [0-9]* end .*status=ok' "$OUT/$model.log" || { echo "ddr-cost.sh: $model run failed (see $OUT/$model.log)" >&2; exit 1; }
done
ir() { sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$OUT/$1.err" | tr -d ,; }
insns() { sed -n 's/^ *hart [0-9]*: instret=\([0-9]*\).*/\1/p' "$OUT/$1.err" | awk '{ s += $1 } END { print s }'; }
a=$(ir "$BASE") b=$(ir ddr) ia=$(insns "$BASE") ib=$(insns ddr)
awk -v a="$a" -v b="$b" -v ia="$ia" -v ib="$ib" -v base="$BASE" 'BEGIN {
	printf "%-12s %.0f host instructions, %.0f simulated (%.1f per simulated)\n", base ":", a, ia, a / ia
	printf "%-12s %.0f host instructions, %.0f simulated (%.1f per simulated)\n", "ddr:", b, ib, b / ib
	printf "ddr / %s: %.3f x host instructions, %.3f x per simulated instruction\n", base, b / a, (b / ib) / (a / ia) }'
