#!/usr/bin/env bash
# Run an rvmess image on an OpenPiton+Ariane Verilator model through the
# checkout's own `sims`, streaming its fake UART (fake_uart.log) to stdout.
# tools/run.sh --target openpiton calls it; it also runs on its own.
#
#   tools/piton-sim.sh [--metro] PITON_ROOT XxY BUILD_ID IMAGE WORKDIR [SIMS_OPTION...]
#   tools/piton-sim.sh [--metro] --check PITON_ROOT XxY BUILD_ID
#
# --metro: a Metro-MPI checkout (sims -sys=metro_chipset: mpirun runs the
# chipset model build/metro_chipset/BUILD_ID and one rank per tile of
# build/metro_tile/rel-0.1, the path sims looks in).  Its monitors are off,
# so there is no verdict: the image (built with OPENPITON_END=metro) ends
# the run with its good- or bad-end load, the cycles come from the
# chipset's "ticks: T , cycles: N" line, and the exit status from the log's
# `end` record.
#
# The model must have been built beforehand in the checkout PITON_ROOT for
# X x Y tiles under BUILD_ID (docs/platforms.md, "OpenPiton + Ariane"): this
# script builds nothing.  The image (ELF) is copied to WORKDIR/rvmess.riscv,
# and sims runs there (-vlt_run -ariane -precompiled) with every tile in the
# finish mask, -max_cycle=2000000000 (the model's own limit is 1.5 M cycles)
# and -rtl_timeout=1000000000: with Ariane, sims' monitor counts the three
# SPARC thread slots of each tile that never retire anything as idle and
# fails the run after -rtl_timeout cycles (manycore.config: 50000).
# SIMS_OPTIONs come after and may set them back.  sims' own output goes to
# WORKDIR/sims.log.  On SIGTERM the
# simulation is stopped.  At the end, sims' verdict (status.log) and the
# simulated cycles are printed on stderr as "piton-sim.sh: VERDICT after N
# cycles".  Exit status: 0 for PASS, 1 for any other verdict or none, 2 for
# bad arguments or a missing checkout or model.
set -u
die() { echo "piton-sim.sh: $*" >&2; exit 2; }
check=0 metro=0
[ "${1:-}" = --metro ] && { metro=1; shift; }
[ "${1:-}" = --check ] && { check=1; shift; }
[ $# -ge $((check ? 3 : 5)) ] || die "usage: piton-sim.sh [--check] PITON_ROOT XxY BUILD_ID [IMAGE WORKDIR [SIMS_OPTION...]]"
root=$1 tiles=$2 build=$3
case "$tiles" in [1-9]*x[1-9]*) x=${tiles%%x*} y=${tiles#*x} ;; *) x="" y="" ;; esac
case "$x$y" in ''|*[!0-9]*) die "tiles must be XxY (e.g. 2x1), got '$tiles'" ;; esac
case "$build" in ''|*/*) die "bad build id '$build'" ;; esac
[ -d "$root" ] || die "$root: no such directory"
root=$(cd "$root" && pwd)
[ -x "$root/piton/tools/bin/sims" ] && [ -f "$root/piton/piton_settings.bash" ] ||
	die "$root is not an OpenPiton checkout (no piton/tools/bin/sims)"
if [ "$metro" = 1 ]; then
	mdir=$root/build/metro_chipset/$build
	model=$mdir/obj_dir/Vmetro_chipset
	tile=$root/build/metro_tile/rel-0.1/obj_dir/Vmetro_tile
	[ -x "$model" ] && [ -x "$tile" ] ||
		die "$root: no built Metro-MPI models $model and $tile (build both for ${tiles} tiles first: docs/platforms.md, \"Metro-MPI\")"
else
	mdir=$root/build/manycore/$build
	model=$mdir/obj_dir/Vcmp_top
fi
[ -x "$model" ] || die "$root: no built Verilator model $model (build it for ${tiles} tiles under build id $build first: docs/platforms.md, \"OpenPiton + Ariane\")"
# the tile count is fixed when the model is built: sims' config.v has a
# `define RTL_TILE<n> for each tile
built=$(grep -c '^`define RTL_TILE[0-9]' "$mdir/config.v" 2>/dev/null)
if [ -n "$built" ] && [ "$built" != 0 ] && [ "$built" != $((x * y)) ]; then
	die "the model in $mdir was built for $built tile(s), not ${tiles}"
fi
[ "$check" = 1 ] && exit 0

image=$4 work=$5
shift 5
[ -f "$image" ] || die "$image: no such image"
mkdir -p "$work" || die "cannot create $work"
work=$(cd "$work" && pwd)
cp "$image" "$work/rvmess.riscv" || die "cannot copy $image to $work"
cd "$work" || exit 2
rm -f fake_uart.log status.log

export PITON_ROOT=$root
export ARIANE_ROOT=$root/piton/design/chip/tile/ariane/
set +u # the checkout's settings read unset variables
# shellcheck disable=SC1091
. "$root/piton/piton_settings.bash" >/dev/null || die "$root/piton/piton_settings.bash failed"
set -u
# sims' monitor (pc_cmp) has four thread slots a tile: tile t is bit 4t
# (with 0x3 on 2x1 it waited for ever for tile 0's thread 1)
mask=0
for ((t = 0; t < x * y; t++)); do mask=$((mask | 1 << (4 * t))); done
mask=$(printf '0x%x' "$mask")

# sims (perl) runs the model as its child: a session of its own lets a stop
# reach both
if [ "$metro" = 1 ]; then
	# Open MPI refuses to run as root unless told
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	setsid sims -sys=metro_chipset -x_tiles="$x" -y_tiles="$y" -build_id="$build" -vlt_run -ariane \
		-precompiled -asm_diag_path="$work" rvmess.riscv -model_dir="$root/build" "$@" \
		</dev/null >sims.log 2>&1 &
else
	setsid sims -sys=manycore -x_tiles="$x" -y_tiles="$y" -build_id="$build" -vlt_run -ariane \
		-precompiled -asm_diag_path="$work" rvmess.riscv -finish_mask="$mask" -rtl_timeout=1000000000 -max_cycle=2000000000 "$@" \
		</dev/null >sims.log 2>&1 &
fi
spid=$!
stopped=0
stop() { stopped=1; kill -TERM -- "-$spid" 2>/dev/null; }
trap stop TERM INT
tail -n +1 -F -s 0.2 --pid="$spid" fake_uart.log 2>/dev/null &
tpid=$!
wait "$tpid"
while kill -0 "$spid" 2>/dev/null; do wait "$spid"; done
wait "$tpid" 2>/dev/null

if [ "$metro" = 1 ]; then
	cycles=$(sed -n 's/^ticks: *[0-9]* *, *cycles: *\([0-9][0-9]*\).*/\1/p' sims.log | tail -n 1)
	if [ "$stopped" = 1 ]; then verdict=stopped
	elif grep -aqE '@RVM [0-9]+ end .*status=ok' fake_uart.log; then verdict="ended (end status=ok)"
	else verdict="no clean end record (see $work/sims.log)"; fi
	echo "piton-sim.sh: Metro-MPI: $verdict${cycles:+ after $cycles cycles}" >&2
	case "$verdict" in ended*) exit 0 ;; *) exit 1 ;; esac
fi
# status.log (sims' regreport): "Diag: NAME   VERDICT" on its first line
verdict=$(sed -n '/[^[:space:]]/{s/^[[:space:]]*Diag:[[:space:]]*[^[:space:]]*[[:space:]]*//;p;q}' status.log 2>/dev/null)
[ "$stopped" = 1 ] && verdict=${verdict:-stopped}
verdict=${verdict:-no verdict (see $work/sims.log)}
# the monitor's verdict line ("855924750: Simulation -> PASS (HIT GOOD
# TRAP)", "25157750 : Simulation -> FAIL(TIMEOUT)") carries the simulated
# time in ps; the model's
# main loop (piton/tools/verilator/my_top.cpp) advances 250 ps per clock edge
ps=$(sed -n 's/^ *\([0-9][0-9]*\) *: Simulation -> .*/\1/p' sims.log | tail -n 1)
cycles=${ps:+$((ps / 500))}
if [ -n "$cycles" ]; then
	echo "piton-sim.sh: $verdict after $cycles cycles" >&2
else
	echo "piton-sim.sh: $verdict" >&2
fi
case "$verdict" in PASS*) exit 0 ;; *) exit 1 ;; esac
