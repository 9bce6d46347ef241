#!/usr/bin/env bash
# Re-run the quick figures of docs/results.md and print them, each under the
# command that gives it (the long ones, marked "recorded" there, have their
# own scripts: tools/ddr-anchors.sh, tools/litmus-matrix.sh, ...).
#
#   tools/results.sh [--skip-make-run] [--skip-speed] [OUTDIR]   (default out/results)
#
# make run's job (about a minute of CPU on an idle machine; the cache levels
# and the Mess table), hostsim speed (tools/bench-hostsim.sh --no-wall: four
# callgrind runs, several minutes), the Mess simulator's self-check and
# rvmess parse speed (tools/bench-parse.sh).
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
mkrun=1 speed=1
while [ $# -gt 0 ]; do
	case $1 in
	--skip-make-run) mkrun=0; shift ;;
	--skip-speed) speed=0; shift ;;
	-h|--help) sed -n '2,12p' "$0"; exit 0 ;;
	*) break ;;
	esac
done
out=${1:-out/results}
mkdir -p "$out"
make -s all >/dev/null
say() { printf '\n== %s\n' "$*"; }

if [ $mkrun = 1 ]; then
	say "make run's job: rvmess config virt.elf --file tools/configs/hostsim.cfg; hostsim --harts 8 --mem-size 512M --config tools/configs/hostsim-ddr4.sim --stats; rvmess parse"
	"$BUILD/bin/rvmess" config "$BUILD/images/virt.elf" --file tools/configs/hostsim.cfg -o "$out/img.elf" >/dev/null
	"$BUILD/bin/hostsim" --harts 8 --mem-size 512M --config tools/configs/hostsim-ddr4.sim --stats "$out/img.elf" \
		>"$out/console.log" 2>"$out/stats.txt"
	"$BUILD/bin/rvmess" parse "$out/console.log" -o "$out/parse" | sed -n '3,$p'
	grep -E '^(ddr|prefetch|  set-up)' "$out/stats.txt"
fi
if [ $speed = 1 ]; then
	say "tools/bench-hostsim.sh --no-wall"
	tools/bench-hostsim.sh --no-wall | sed -n '/^callgrind/,$p'
fi
say "rvmess sim sweep curves/hostsim-ddr4-3200 --read 100"
"$BUILD/bin/rvmess" sim sweep curves/hostsim-ddr4-3200 --read 100 | tail -1
say "tools/bench-parse.sh $out/bench-parse"
tools/bench-parse.sh "$out/bench-parse"
