#!/usr/bin/env bash
# Add an RTL run to its model's record of runs, which the estimates of RTL
# plans read (docs/sweeps.md, "Estimates on RTL").  tools/run.sh calls it
# after every cva6 or openpiton run; it also takes a run directory made
# before run.sh kept records (then name the model's build folder).
#
#   tools/rtl-record.sh RUNDIR [--model MODEL_DIR]
#
# RUNDIR is a run directory of tools/run.sh (run.txt, sim.txt,
# console.log).  The record is MODEL_DIR/rvmess-runs.tsv (MODEL_DIR: run.txt's
# `model:` line, else --model), one tab-separated line a run, appended under
# a lock (jobs of a plan end at once):
#
#   date  sim_txt  status  cycles  wall_seconds  cpu_seconds
#   cycles_per_cpu_second  shadow_cycles  harts  memory
#
# date: the run's start (run.txt), UTC; sim_txt: the run's sim.txt
# (absolute); status: clean (the `end` record said status=ok, the target
# exited 0 and was not stopped at the timeout) or unclean; shadow_cycles:
# tools/rtl-shadow.sh's count of the run's image (run.txt's `image:`), for a
# clean run whose image is still there, else -; memory: run.txt's `memory:`
# line, or `own` (the model's own memory timing).  A value that is not
# known is -.  Exit status: 0 added; 1 not added (no sim.txt, no model
# folder, the record not writable: said why); 2 bad arguments.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
die() { echo "rtl-record.sh: $*" >&2; exit "${2:-2}"; }
[ $# -ge 1 ] || die "usage: rtl-record.sh RUNDIR [--model MODEL_DIR]"
run=$1; shift
model=""
while [ $# -gt 0 ]; do
	case $1 in
	--model) [ $# -ge 2 ] || die "--model needs a folder"; model=$2; shift 2 ;;
	*) die "unknown argument '$1'" ;;
	esac
done
[ -d "$run" ] || die "$run: no such run directory" 1
run=$(cd "$run" && pwd)
[ -f "$run/sim.txt" ] || die "$run/sim.txt not found: not an RTL run of tools/run.sh" 1
[ -f "$run/run.txt" ] || die "$run/run.txt not found: not a run directory of tools/run.sh" 1
field() { sed -n "s/^$1: //p" "$2" | head -n 1; }
[ -n "$model" ] || model=$(field model "$run/run.txt")
[ -n "$model" ] || die "$run/run.txt names no model (a run made before run.sh kept records): pass --model MODEL_DIR" 1
[ -d "$model" ] || die "$model: no such model folder" 1
model=$(cd "$model" && pwd)
rec=$model/rvmess-runs.tsv

date=$(field date "$run/run.txt")
target=$(field target "$run/run.txt")
harts=$(field harts "$run/run.txt")
memory=$(field memory "$run/run.txt")
image=$(field image "$run/run.txt")
image=${image%% (a copy of *}
cycles=$(field cycles "$run/sim.txt")
wall=$(field wall_seconds "$run/sim.txt")
cpu=$(field cpu_seconds "$run/sim.txt")
cps=$(field cycles_per_cpu_second "$run/sim.txt")
ended=$(field ended "$run/sim.txt")
num() { case $1 in ''|*[!0-9.]*|.*) echo - ;; *) echo "$1" ;; esac; }
cycles=$(num "$cycles") wall=$(num "$wall") cpu=$(num "$cpu") cps=$(num "$cps") harts=$(num "$harts")
status=unclean
if grep -aqE '@RVM [0-9]+ end .*status=ok' "$run/console.log" 2>/dev/null &&
	[ "$(cat "$run/exit.status" 2>/dev/null)" = 0 ] && [ "${ended#stopped at the timeout}" = "$ended" ]; then
	status=clean
fi
shadow=-
if [ "$status" = clean ] && [ -f "$image" ] && [ "$harts" != - ]; then
	shadow=$(BUILD=${BUILD:-$ROOT/build} "$ROOT/tools/rtl-shadow.sh" "$target" "$harts" "$image") || shadow=-
fi
line=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "${date:--}" "$run/sim.txt" "$status" "$cycles" "$wall" "$cpu" \
	"$cps" "$shadow" "$harts" "${memory:-own}")
{
	flock 9 || exit 1
	if [ ! -s "$rec" ]; then
		printf '# rvmess: RTL runs of this model (tools/run.sh, tools/rtl-record.sh; docs/sweeps.md)\n'
		printf '# date\tsim_txt\tstatus\tcycles\twall_seconds\tcpu_seconds\tcycles_per_cpu_second\tshadow_cycles\tharts\tmemory\n'
	fi >&9
	printf '%s\n' "$line" >&9
} 9>>"$rec" 2>/dev/null || die "cannot append to $rec (the model's folder is not writable?)" 1
echo "rtl-record.sh: $rec: added $run/sim.txt ($status, $cycles cycles, $cps cycles per CPU-second, shadow $shadow)"
