#!/usr/bin/env bash
# Run an rvmess image and collect its console log.
#
#   tools/run.sh --target hostsim|qemu-virt|qemu-sbi|qemu-spike|qemu-sifive_u [--harts N]
#                [--image ELF] [--config CFG] [--bios PATH] [--out DIR | --runs DIR]
#                [--timeout SEC] [--mem SIZE] [--dtb DTB] [--sim "HOSTSIM OPTIONS"]
#                [--stats] [--progress auto|line|plain|off]
#   tools/run.sh --target cva6 --cva6 DIR [--fesvr-poll] [--network] [--image ELF]
#                [--config CFG] ...
#   tools/run.sh --target openpiton --piton-root DIR [--tiles XxY]
#                [--piton-build ID] [--metro] [--network] [--image ELF] [--config CFG] ...
#   RTL memory (cva6, openpiton; a model built with the Mess stage):
#                [--mess-curves FAMILY [--mess-mhz F] [--mess-onchip NS] [--mess-window N]]
#                [--mem-fixed CYCLES]
#   tools/run.sh --check --target ... (the same options): check them, run nothing
#
# Results go to --out DIR, or (default) to a new run directory
# RUNS/<YYYYmmdd-HHMMSS>-<target>/ under --runs RUNS (default out), with the
# symlink RUNS/latest pointing at it.  The run directory holds the console
# log (console.log), the target's exit status (exit.status), what reproduces
# the run (run.txt: date, target, command line, git revision and dirty flag;
# image.cfg: the image's config block as `rvmess config` prints it;
# hostsim.cfg: hostsim's options in effect, from --print-config) and the
# files `rvmess parse` writes.  The target is stopped once the `end` record
# has arrived (or at the timeout: then it says so and exits non-zero).
# While it runs, the image's `prog` records give the progress (suite, points
# done/planned, elapsed, estimated time left in the suite) on stderr: one
# updating line on a terminal, a plain line per record otherwise (--progress
# picks; off for none).  --stats asks hostsim for its statistics (stats.txt,
# also printed).  --config CFG runs a copy of the image (DIR/image.elf) whose
# config block `rvmess config` rewrote from the key=value file CFG.
# Exit status: 0 only when the `end` record arrived, the target exited 0 (or
# was stopped after `end status=ok`) and the parse (if any) exited 0.
#
# RTL targets (docs/platforms.md has the prerequisites): --target cva6 runs
# the image on the Verilator model of a CVA6 checkout built beforehand in
# DIR (DIR/work-ver/Variane_testharness, config cv64a6_imafdc_sv39) with
# +debug_disable=1, so that fesvr never halts the hart to poll `tohost`, and
# stops it at the `end` record (--fesvr-poll: let fesvr poll `tohost`
# through the debug module and end the run itself, as CVA6 does by
# default); --target openpiton runs it
# on an OpenPiton+Ariane checkout's Verilator model, built beforehand with
# `sims -vlt_build` for --tiles XxY (default 1x1; --harts becomes X*Y) under
# build id ID (default rel-0.1), through the checkout's own `sims`
# (tools/piton-sim.sh streams its fake UART); with --metro, on a Metro-MPI
# checkout's chipset and tile models (sims -sys=metro_chipset, an image built
# with OPENPITON_END=metro).  Both stop at the `end` record
# like the others, default to --timeout 3600, and report the simulated
# cycles and cycles/s (sim.txt).  --sim "ARGS" adds simulator arguments
# (plusargs for cva6, sims options for openpiton).  RTL models run without
# network access, in a network namespace of their own with only a loopback
# interface (`unshare -n`, or `unshare -rn` for a user other than root):
# the CVA6 harness opens a TCP server on all interfaces on every run.  When
# neither works, run.sh refuses; --network runs the model with the host's
# network instead.
#
# --mess-curves FAMILY puts the Mess memory behind the RTL model's memory:
# the model must have been built with rvmess's delay stage (OpenPiton:
# tools/rtl-prep.sh's `mess` edit and tools/piton-build.sh --mess; CVA6:
# tools/cva6-prep.sh), which holds each read and write-back for the latency
# the Mess DPI adapter gives it at a clock of --mess-mhz (default 1000) MHz,
# with --mess-onchip NS (default 0) subtracted from the family's latencies
# and windows of --mess-window requests (default 1000); the family is
# checked (`rvmess sim info`) before the run; the adapter writes a line per
# closed window to DIR/mess-windows.tsv (RVMESS_MESS_LOG: the traffic it
# saw, the latency it read from the family and gave; docs/mess.md, "The
# window log").  --mem-fixed N instead holds each one N cycles.  Without either such a model keeps its memory's own
# timing.  run.txt's `memory` line says which it was.
#
# RTL runs are recorded for the estimates of RTL plans (docs/sweeps.md,
# "Estimates on RTL"): the CPU time is that of the simulation and
# everything it started, read from /proc once a second and when the `end`
# record arrives; after the run tools/rtl-record.sh appends a line for it
# (its sim.txt, cycles, CPU seconds, the hostsim shadow count of its image,
# the memory) to the model's record, rvmess-runs.tsv in the model's build
# folder (OpenPiton: PITON_ROOT/build/manycore/ID; CVA6: DIR/work-ver).
# --check checks the options, the checkout, the built model, the image, the
# Mess family and the network isolation as a run would, creates nothing,
# and prints `model:`, `record:`, `harts:` and `memory:` lines (what
# rvmess plan --target cva6|openpiton reads); exit 0, or 2 with the reason.
# --console-stdout copies the console log to standard output as it arrives
# (a plan job's log: tools/sweep-run.sh); run.sh's own messages then go to
# standard error.
#
# Adding a target: write a target_<name> function (dashes become
# underscores) that fills CMD (the command line) from IMAGE, HARTS, BIOS and
# MEM (and DTB if it supports one), defaulting IMAGE when it is empty.
set -u
# Paths on the command line are relative to the caller's directory; the
# default images and the rvmess CLI come from the checkout's build/.
ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
BUILD=${BUILD:-$ROOT/build}

TARGET="" HARTS=1 IMAGE="" BIOS="" OUT="" RUNS=out TIMEOUT=60 MEM=512M DTB="" CFG="" SIMARGS=""
STATS=0 PROGRESS=auto orig="" CHECK=0 CONSOLE_STDOUT=0 MODEL_DIR=""
CVA6_DIR="" PITON_ROOT="" TILES=1x1 PITON_BUILD=rel-0.1 METRO="" TIMEOUT_SET=0
MESS_CURVES="" MESS_MHZ=1000 MESS_ONCHIP=0 MESS_WINDOW=0 MEM_FIXED="" MEMARGS=()
FESVR_POLL=0 NETWORK=0 NETNS=() NETNS_SET=0
END_GRACE=30 # tenths of a second a target may take to end itself after `end`
usage() {
	sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case "$1" in
	--target) TARGET=${2:-}; shift 2 ;;
	--harts) HARTS=${2:-}; shift 2 ;;
	--image) IMAGE=${2:-}; shift 2 ;;
	--bios) BIOS=${2:-}; shift 2 ;;
	--out) OUT=${2:-}; shift 2 ;;
	--runs) RUNS=${2:-}; shift 2 ;;
	--stats) STATS=1; shift ;;
	--progress) PROGRESS=${2:-}; shift 2 ;;
	--timeout) TIMEOUT=${2:-}; TIMEOUT_SET=1; shift 2 ;;
	--mem) MEM=${2:-}; shift 2 ;;
	--dtb) DTB=${2:-}; shift 2 ;;
	--config) CFG=${2:-}; shift 2 ;;
	--sim) SIMARGS=${2:-}; shift 2 ;;
	--cva6) CVA6_DIR=${2:-}; shift 2 ;;
	--piton-root) PITON_ROOT=${2:-}; shift 2 ;;
	--tiles) TILES=${2:-}; shift 2 ;;
	--piton-build) PITON_BUILD=${2:-}; shift 2 ;;
	--metro) METRO=--metro; shift ;;
	--fesvr-poll) FESVR_POLL=1; shift ;;
	--mess-curves) MESS_CURVES=${2:-}; shift 2 ;;
	--mess-mhz) MESS_MHZ=${2:-}; shift 2 ;;
	--mess-onchip) MESS_ONCHIP=${2:-}; shift 2 ;;
	--mess-window) MESS_WINDOW=${2:-}; shift 2 ;;
	--mem-fixed) MEM_FIXED=${2:-}; shift 2 ;;
	--network) NETWORK=1; shift ;;
	--check) CHECK=1; shift ;;
	--console-stdout) CONSOLE_STDOUT=1; shift ;;
	-h|--help) usage ;;
	*) echo "run.sh: unknown argument '$1'" >&2; usage ;;
	esac
done
[ -n "$TARGET" ] || { echo "run.sh: --target is required" >&2; usage; }
# the console log on stdout (fd 5), everything else of run.sh on stderr
if [ "$CONSOLE_STDOUT" = 1 ]; then exec 5>&1 1>&2; fi
case "$HARTS" in ''|*[!0-9]*|0) echo "run.sh: --harts must be a positive number, got '$HARTS'" >&2; exit 2 ;; esac
case "$PROGRESS" in auto|line|plain|off) ;; *) echo "run.sh: --progress wants auto, line, plain or off, got '$PROGRESS'" >&2; exit 2 ;; esac
if [ "$PROGRESS" = auto ]; then
	if [ -t 2 ]; then PROGRESS=line; else PROGRESS=plain; fi
fi
case "$TIMEOUT" in ''|*[!0-9]*|0) echo "run.sh: --timeout must be a positive number of seconds, got '$TIMEOUT'" >&2; exit 2 ;; esac

# The RTL memory's plusargs (MEMARGS), for the delay stage
# (hostsim/mess/dpi/rvmess_mem_delay.sv); MEMDESC for run.txt.
MEMDESC=""
if [ -n "$MESS_CURVES$MEM_FIXED" ]; then
	case $TARGET in cva6|openpiton) ;; *) echo "run.sh: --mess-curves and --mem-fixed are for the RTL targets (cva6, openpiton); hostsim has --sim \"--mem-model mess --mess-curves FAMILY\"" >&2; exit 2 ;; esac
	[ -z "$MESS_CURVES" ] || [ -z "$MEM_FIXED" ] || { echo "run.sh: --mess-curves and --mem-fixed exclude each other" >&2; exit 2; }
	if [ -n "$MEM_FIXED" ]; then
		case $MEM_FIXED in ''|*[!0-9]*) echo "run.sh: --mem-fixed wants a number of cycles, got '$MEM_FIXED'" >&2; exit 2 ;; esac
		MEMARGS=("+rvmess_mem_fixed=$MEM_FIXED") MEMDESC="fixed $MEM_FIXED cycles (rvmess_mem_delay)"
	else
		case $MESS_MHZ in ''|*[!0-9]*|0) echo "run.sh: --mess-mhz wants a whole number of MHz, got '$MESS_MHZ'" >&2; exit 2 ;; esac
		case $MESS_WINDOW in ''|*[!0-9]*) echo "run.sh: --mess-window wants a number of requests, got '$MESS_WINDOW'" >&2; exit 2 ;; esac
		onchip_ps=$(awk -v v="$MESS_ONCHIP" 'BEGIN { if (v !~ /^[0-9]+(\.[0-9]*)?$/) exit 1; printf "%d", v * 1000 + 0.5 }') ||
			{ echo "run.sh: --mess-onchip wants ns (a number >= 0), got '$MESS_ONCHIP'" >&2; exit 2; }
		[ -e "$MESS_CURVES" ] || { echo "run.sh: --mess-curves $MESS_CURVES: no such file or directory" >&2; exit 2; }
		MESS_CURVES=$(realpath "$MESS_CURVES")
		if [ -x "$BUILD/bin/rvmess" ]; then
			"$BUILD/bin/rvmess" sim info "$MESS_CURVES" >/dev/null 2>"${TMPDIR:-/tmp}/run-mess.$$" || {
				echo "run.sh: --mess-curves: the family is refused:" >&2; cat "${TMPDIR:-/tmp}/run-mess.$$" >&2
				rm -f "${TMPDIR:-/tmp}/run-mess.$$"; exit 2; }
			rm -f "${TMPDIR:-/tmp}/run-mess.$$"
		fi
		MEMARGS=("+rvmess_mess_curves=$MESS_CURVES" "+rvmess_mess_mhz=$MESS_MHZ" "+rvmess_mess_onchip_ps=$onchip_ps")
		[ "$MESS_WINDOW" -gt 0 ] && MEMARGS+=("+rvmess_mess_window=$MESS_WINDOW")
		MEMDESC="mess $MESS_CURVES at $MESS_MHZ MHz, on-chip $MESS_ONCHIP ns, window $([ "$MESS_WINDOW" -gt 0 ] && echo "$MESS_WINDOW" || echo 1000) (rvmess_mem_delay)"
	fi
fi

QEMU=${QEMU:-qemu-system-riscv64}
qemu_common() { # machine bios
	CMD=("$QEMU" -M "$1" -bios "$2" -nographic -m "$MEM" -smp "$HARTS" -kernel "$IMAGE")
	[ -n "$DTB" ] && CMD+=(-dtb "$DTB")
}
target_qemu_virt() {
	IMAGE=${IMAGE:-$BUILD/images/virt.elf}
	qemu_common virt "${BIOS:-none}"
}
target_qemu_sbi() {
	IMAGE=${IMAGE:-$BUILD/images/sbi.elf}
	qemu_common virt "${BIOS:-default}"
}
target_qemu_spike() {
	IMAGE=${IMAGE:-$BUILD/images/spike.elf}
	qemu_common spike "${BIOS:-none}"
}
# QEMU sifive_u (the FU540: hart 0 the E51 monitor core, 1..4 U54s) runs
# virt.elf in M-mode; it has no test finisher, so it never exits by itself:
# the loop below stops it once the `end` record has arrived.
target_qemu_sifive_u() {
	IMAGE=${IMAGE:-$BUILD/images/virt.elf}
	case "$HARTS" in 2|3|4|5) ;; *)
		echo "run.sh: qemu-sifive_u has 2 to 5 harts (the E51 and 1 to 4 U54s), not $HARTS" >&2; exit 2 ;;
	esac
	qemu_common sifive_u "${BIOS:-none}"
}

target_hostsim() {
	IMAGE=${IMAGE:-$BUILD/images/virt.elf}
	# shellcheck disable=SC2206
	CMD=("$BUILD/bin/hostsim" --harts "$HARTS" --mem-size "$MEM" $SIMARGS "$IMAGE")
	[ "$STATS" = 1 ] && CMD=("${CMD[0]}" --stats "${CMD[@]:1}")
}

# RTL models under Verilator: the user's own checkout, built beforehand
# (docs/platforms.md, "RTL under Verilator"); nothing here builds them.
rtl_defaults() { # a slow simulation gets longer to end itself after `end`
	[ "$TIMEOUT_SET" = 1 ] || TIMEOUT=3600
	END_GRACE=${RTL_END_GRACE:-600}
}
# RTL models run without network access: the CVA6 harness starts a
# remote-bitbang (JTAG) TCP server on all interfaces on every run, even with
# JTAG off, and nothing in either model needs the network.  NETNS = the
# prefix that runs a command in a network namespace of its own with only the
# loopback interface, up (Metro-MPI's mpirun talks to its ranks through
# it): `unshare -n` (root), else `unshare -rn` (an unprivileged user
# namespace, where the command runs as root).
rtl_netns() {
	local up='ip link set lo up || exit 1; exec "$@"' how
	[ "$NETNS_SET" = 1 ] && return 0 # once: the target function runs up to three times
	NETNS_SET=1 NETNS=()
	[ "$NETWORK" = 1 ] && return 0
	command -v unshare >/dev/null && command -v ip >/dev/null || {
		echo "run.sh: RTL models run without network access, which needs unshare (util-linux) and ip (iproute2): tools/deps.sh --rtl installs them, or pass --network to run with the host's network" >&2
		exit 2
	}
	for how in -n -rn; do
		if unshare "$how" sh -c "$up" rvmess-netns true 2>/dev/null; then
			NETNS=(unshare "$how" sh -c "$up" rvmess-netns)
			return 0
		fi
	done
	echo "run.sh: cannot run the RTL model without network access: 'unshare -n' needs root and 'unshare -rn' unprivileged user namespaces, and neither worked here. The CVA6 harness opens a TCP server on all interfaces on every run (docs/platforms.md, \"RTL under Verilator\"); pass --network to run it with the host's network anyway" >&2
	exit 2
}
target_cva6() {
	local model tohost
	IMAGE=${IMAGE:-$BUILD/images/cva6.elf}
	rtl_defaults
	[ "$HARTS" = 1 ] || { echo "run.sh: the CVA6 testharness has one hart, got --harts $HARTS" >&2; exit 2; }
	[ -n "$CVA6_DIR" ] || { echo "run.sh: --target cva6 needs --cva6 DIR, a CVA6 checkout with a built Verilator model" >&2; exit 2; }
	[ -d "$CVA6_DIR" ] || { echo "run.sh: --cva6 $CVA6_DIR: no such directory" >&2; exit 2; }
	model=$CVA6_DIR/work-ver/Variane_testharness
	MODEL_DIR=$(cd "$CVA6_DIR/work-ver" 2>/dev/null && pwd)
	[ -x "$model" ] || { echo "run.sh: --cva6 $CVA6_DIR: no built model $model (build the testharness first: docs/platforms.md, \"CVA6 testharness\")" >&2; exit 2; }
	# the harness's fesvr finds `tohost` in the ELF for the image's exit store
	[ -f "$IMAGE" ] || return 0 # reported below
	tohost=$(readelf -sW "$IMAGE" 2>/dev/null | awk '$8 == "tohost" { print $2; exit }')
	[ -n "$tohost" ] || { echo "run.sh: $IMAGE has no tohost symbol: the CVA6 testharness could not end the run (build the cva6 image)" >&2; exit 2; }
	# +debug_disable=1: fesvr would otherwise halt the hart into debug mode
	# to poll `tohost` all through the run (mcycle stops meanwhile, mtime
	# does not); it then never sees the exit store, so the run ends at the
	# `end` record, stopped by the loop below at once
	local debug=+debug_disable=1
	if [ "$FESVR_POLL" = 1 ]; then debug=""; else END_GRACE=0; fi
	rtl_netns
	# in the run directory, where the harness writes its instruction traces;
	# line-buffered, so the end record reaches the log as it is printed
	# shellcheck disable=SC2206
	if [ ${#MEMARGS[@]} -gt 0 ] && ! grep -aq rvmess_mem_delay "$model"; then
		echo "run.sh: --cva6 $CVA6_DIR: the model has no Mess delay stage (tools/cva6-prep.sh, then rebuild it)" >&2; exit 2
	fi
	CMD=("${NETNS[@]}" env -C "${OUT:-.}" stdbuf -oL "$(realpath "$model")" +time_out=4000000000 $debug "${MEMARGS[@]}" $SIMARGS "$(realpath "$IMAGE")")
}
target_openpiton() {
	local x y
	IMAGE=${IMAGE:-$BUILD/images/openpiton.elf}
	rtl_defaults
	case "$TILES" in
	[1-9]*x[1-9]*) x=${TILES%%x*} y=${TILES#*x} ;;
	*) x="" y="" ;;
	esac
	case "$x$y" in ''|*[!0-9]*) echo "run.sh: --tiles wants XxY (e.g. 2x1), got '$TILES'" >&2; exit 2 ;; esac
	HARTS=$((x * y))
	[ -n "$PITON_ROOT" ] || { echo "run.sh: --target openpiton needs --piton-root DIR, an OpenPiton checkout with a built Verilator model" >&2; exit 2; }
	"$ROOT/tools/piton-sim.sh" $METRO --check "$PITON_ROOT" "$TILES" "$PITON_BUILD" || exit 2
	MODEL_DIR=$(cd "$PITON_ROOT/build/$([ -n "$METRO" ] && echo metro_chipset || echo manycore)/$PITON_BUILD" && pwd)
	rtl_netns
	# shellcheck disable=SC2206
	local m margs=()
	if [ ${#MEMARGS[@]} -gt 0 ]; then
		grep -q '^`define RVMESS_MESS' "$PITON_ROOT/build/manycore/$PITON_BUILD/config.v" 2>/dev/null || {
			echo "run.sh: the model $PITON_BUILD in $PITON_ROOT was not built with the Mess stage (tools/piton-build.sh --mess)" >&2; exit 2; }
		for m in "${MEMARGS[@]}"; do margs+=("-sim_run_args=$m"); done
	fi
	CMD=("${NETNS[@]}" "$ROOT/tools/piton-sim.sh" $METRO "$PITON_ROOT" "$TILES" "$PITON_BUILD" "$IMAGE" "${OUT:-.}/sims" "${margs[@]}" $SIMARGS)
}

fn=target_$(echo "$TARGET" | tr - _)
if ! declare -F "$fn" >/dev/null; then
	echo "run.sh: unknown target '$TARGET' (known: $(declare -F | sed -n 's/^declare -f target_//p' | tr _ - | tr '\n' ' '))" >&2
	exit 2
fi
CMD=()
"$fn"
[ -f "$IMAGE" ] || { echo "run.sh: image $IMAGE not found (build it with make images)" >&2; exit 2; }
command -v "${CMD[0]}" >/dev/null || { echo "run.sh: ${CMD[0]} not found (tools/deps.sh installs it)" >&2; exit 2; }
if [ "$CHECK" = 1 ]; then
	echo "run.sh: check: ok (target $TARGET, image $IMAGE)"
	if [ -n "$MODEL_DIR" ]; then
		echo "model: $MODEL_DIR"
		echo "record: $MODEL_DIR/rvmess-runs.tsv"
	fi
	echo "harts: $HARTS"
	echo "memory: ${MEMDESC:-own}"
	exit 0
fi

# One clock reading names the run directory and dates run.txt, so the two agree.
RUN_EPOCH=$(date +%s)
new_run_dir() { # RUNS TARGET -> OUT = a new RUNS/<date>-<target>, RUNS/latest -> it
	local stamp name i=1
	stamp=$(date -d "@$RUN_EPOCH" +%Y%m%d-%H%M%S)
	name=$stamp-$2
	mkdir -p "$1" || exit 2
	while ! mkdir "$1/$name" 2>/dev/null; do
		[ -d "$1/$name" ] || { echo "run.sh: cannot create $1/$name" >&2; exit 2; }
		i=$((i + 1)); name=$stamp-$2-$i
	done
	OUT=$1/$name
	if [ -e "$1/latest" ] && [ ! -L "$1/latest" ]; then
		echo "run.sh: $1/latest exists and is not a symlink; left alone" >&2
	else
		ln -sfn "$name" "$1/latest.tmp.$$" && mv -T "$1/latest.tmp.$$" "$1/latest"
	fi
}
if [ -n "$OUT" ]; then
	mkdir -p "$OUT" || exit 2
else
	new_run_dir "$RUNS" "$TARGET"
fi
echo "run.sh: run directory $OUT"
if [ -n "$CFG" ]; then
	[ -x "$BUILD/bin/rvmess" ] || { echo "run.sh: --config needs $BUILD/bin/rvmess (make host)" >&2; exit 2; }
	cp "$IMAGE" "$OUT/image.elf" || exit 2
	"$BUILD/bin/rvmess" config "$OUT/image.elf" --file "$CFG" -o "$OUT/image.elf" >/dev/null || exit 2
	orig=$IMAGE
	IMAGE=$OUT/image.elf
	"$fn"
	echo "run.sh: $orig configured from $CFG"
fi
case $TARGET in cva6|openpiton) "$fn" ;; esac # they run in the run directory
LOG=$OUT/console.log
: >"$LOG"
if [ -n "$MESS_CURVES" ]; then
	# the Mess adapter's window log (messsim_dpi.c), in the run directory
	RVMESS_MESS_LOG=$(cd "$OUT" && pwd)/mess-windows.tsv || exit 2
	export RVMESS_MESS_LOG
	rm -f "$RVMESS_MESS_LOG"
fi
rm -f "$OUT/exit.status" "$OUT/stats.txt" "$OUT/hostsim.cfg"

# What reproduces the run.
{
	echo "date: $(date -u -d "@$RUN_EPOCH" +%Y-%m-%dT%H:%M:%SZ)"
	echo "target: $TARGET"
	echo "harts: $HARTS"
	if [ "$NETNS_SET" = 1 ]; then
		if [ ${#NETNS[@]} -gt 0 ]; then echo "network: none (unshare ${NETNS[1]}: a network namespace with only loopback)"
		else echo "network: the host's (--network)"; fi
	fi
	echo "image: $IMAGE${orig:+ (a copy of $orig configured from $CFG)}"
	[ -n "$MEMDESC" ] && echo "memory: $MEMDESC"
	[ -n "$MODEL_DIR" ] && echo "model: $MODEL_DIR"
	printf 'command:'; printf ' %q' "${CMD[@]}"; echo
	rev=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null) || rev=unknown
	dirty=unknown
	if [ "$rev" != unknown ]; then
		if [ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ]; then dirty=yes; else dirty=no; fi
	fi
	echo "git_revision: $rev"
	echo "git_dirty: $dirty"
} >"$OUT/run.txt"
if [ -x "$BUILD/bin/rvmess" ]; then
	"$BUILD/bin/rvmess" config "$IMAGE" >"$OUT/image.cfg" 2>&1 ||
		echo "run.sh: rvmess config $IMAGE failed (see $OUT/image.cfg)" >&2
fi
if [ "$TARGET" = hostsim ]; then
	# the same options, printed instead of run
	"${CMD[0]}" --print-config "${CMD[@]:1:${#CMD[@]}-2}" >"$OUT/hostsim.cfg" 2>&1 ||
		echo "run.sh: hostsim --print-config failed (see $OUT/hostsim.cfg)" >&2
fi

t_launch=$(date +%s.%N)
rtl_cpu=0 rtl_tick=0 sent=0
echo "run.sh: ${CMD[*]}"
"${CMD[@]}" </dev/null >"$LOG" 2>"$OUT/target.stderr" &
pid=$!
# run.sh stopped from outside (Ctrl-C, a batch system's TERM): stop the
# target with it (piton-sim.sh passes it on to the simulation's session)
interrupted() {
	kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
	copy_console
	echo "run.sh: interrupted; target stopped, outputs so far in $OUT" >&2
	exit "$1"
}
trap 'interrupted 130' INT
trap 'interrupted 143' TERM

end_seen() { grep -aqE '@RVM [0-9]+ end ' "$LOG"; }
fmt_t() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
# Progress from the `prog` records: suite, done/total, elapsed, and the time
# left in that suite at the pace it kept since it was first seen.
# A terminal gets the latest record on one updating line; otherwise each
# record gets a plain line (at most one per tenth of a suite).
p_suite="" p_t0=0 p_d0=0 p_seen=0 p_tick=0
progress_line() { # suite done total now -> msg
	local left
	if [ "$1" != "$p_suite" ]; then p_suite=$1 p_t0=$4 p_d0=$2; fi
	msg="run: $1 $2/$3 points, $(fmt_t $(($4 - start))) elapsed"
	if [ "$2" -gt "$p_d0" ] && [ "$2" -lt "$3" ] && [ "$4" -gt "$p_t0" ]; then
		left=$(( ($4 - p_t0) * ($3 - $2) / ($2 - p_d0) ))
		msg="$msg, about $(fmt_t "$left") left in $1"
	fi
}
progress() {
	local now recs n=0 suite done total last="" msg=""
	now=$(date +%s)
	recs=$(grep -a ' prog h=' "$LOG" |
		sed -n 's/.* prog h=[0-9]* suite=\([a-z0-9_]*\) done=\([0-9]*\) total=\([0-9]*\).*/\1 \2 \3/p')
	while read -r suite done total; do
		[ -n "$suite" ] || continue
		n=$((n + 1))
		last="$suite $done $total"
		[ "$n" -gt "$p_seen" ] || continue
		progress_line "$suite" "$done" "$total" "$now"
		[ "$PROGRESS" = plain ] && echo "$msg" >&2
	done <<<"$recs"
	p_seen=$n
	if [ "$PROGRESS" = line ]; then
		# shellcheck disable=SC2086
		if [ -n "$last" ]; then progress_line $last "$now"
		else msg="run: $(grep -ac '@RVM ' "$LOG") records, $(fmt_t $((now - start))) elapsed"; fi
		printf '\r\033[K%s' "$msg" >&2
	fi
}
progress_end() { [ "$PROGRESS" = line ] && printf '\r\033[K' >&2; }
# RTL targets: the CPU time of the simulation (the target and everything it
# started), sampled once a second and at the `end` record, so that cycles/s
# can be told apart from a busy machine
# (/proc/PID/stat: utime + stime and the reaped children's cutime + cstime,
# in clock ticks; the command's name, in parentheses, may hold spaces)
CLK_TCK=$(getconf CLK_TCK 2>/dev/null || echo 100)
tree_cpu() { # PID -> CPU seconds of PID and its descendants so far
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v root="$1" -v hz="$CLK_TCK" '
		{ l = $0; sub(/^[0-9]+ \(.*\) /, "", l); split(l, f, " ")
		  par[$1] = f[2]; cpu[$1] = f[12] + f[13] + f[14] + f[15] }
		END {
			for (p in par)
				for (q = p; q != "" && q != 0; q = par[q])
					if (q == root) { s += cpu[p]; break }
			printf "%.2f\n", s / hz
		}'
}
rtl_sample() { # rtl_cpu = the largest CPU time seen
	local c
	case $TARGET in cva6|openpiton) ;; *) return 0 ;; esac
	c=$(tree_cpu "$pid")
	awk -v c="$c" -v m="$rtl_cpu" 'BEGIN { exit !(c > m) }' && rtl_cpu=$c
}
# --console-stdout: the console log's bytes from `sent` on to fd 5
copy_console() {
	local size
	[ "$CONSOLE_STDOUT" = 1 ] || return 0
	size=$(stat -c %s "$LOG" 2>/dev/null) || return 0
	[ "$size" -gt "$sent" ] || return 0
	tail -c +$((sent + 1)) "$LOG" | head -c $((size - sent)) >&5
	sent=$size
}
start=$(date +%s) status="" how=""
while :; do
	[ $((rtl_tick++ % 10)) = 0 ] && rtl_sample
	copy_console
	if [ "$PROGRESS" != off ] && [ $((p_tick++ % 10)) = 0 ]; then progress; fi
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid"; status=$?; how=exited; break
	fi
	if end_seen; then
		rtl_sample # the work is done: its CPU time, before the wind-down
		# give the target a moment to end itself and report its own status
		for _ in $(seq 1 "$END_GRACE"); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		if kill -0 "$pid" 2>/dev/null; then
			kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
			how=stopped
			grep -aqE '@RVM [0-9]+ end .*status=ok' "$LOG" && status=0 || status=1
		else
			wait "$pid"; status=$?; how=exited
		fi
		break
	fi
	if [ $(( $(date +%s) - start )) -ge "$TIMEOUT" ]; then
		rtl_sample
		kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
		how=timeout status=124
		break
	fi
	sleep 0.1
done
[ "$PROGRESS" != off ] && { progress; progress_end; }
copy_console
t_done=$(date +%s.%N)
echo "$status" >"$OUT/exit.status"

rc=0
case $how in
exited) echo "run.sh: target exited with status $status" ;;
stopped) echo "run.sh: end record arrived; target did not exit by itself and was stopped (status $status from the end record)" ;;
timeout) echo "run.sh: TIMEOUT after ${TIMEOUT}s without an end record; target stopped" >&2 ;;
esac
[ "$status" = 0 ] || rc=1
if ! end_seen; then
	echo "run.sh: no end record in $LOG" >&2
	rc=1
fi
if [ "$STATS" = 1 ] && [ "$TARGET" = hostsim ]; then
	# hostsim prints its statistics after any message of its own
	sed -n '/^hostsim stats:/,$p' "$OUT/target.stderr" >"$OUT/stats.txt"
	sed -i '/^hostsim stats:/,$d' "$OUT/target.stderr"
	echo "run.sh: hostsim statistics ($OUT/stats.txt):"
	sed 's/^/  /' "$OUT/stats.txt"
fi
# RTL targets: the simulated cycles as the simulation counts them (its
# "... after N cycles" line, also printed when it is stopped) and their rate
# over the wall time of the run
if [ "$TARGET" = cva6 ] || [ "$TARGET" = openpiton ]; then
	cycles=$(sed -n 's/.* after \([0-9][0-9]*\) cycles$/\1/p' "$OUT/target.stderr" | tail -n 1)
	case $how in
	exited) ended="by itself" ;;
	stopped) ended="stopped at the end record$([ "$END_GRACE" -gt 0 ] && echo " after $((END_GRACE / 10)) s for it to end by itself")" ;;
	*) ended="stopped at the timeout" ;;
	esac
	awk -v c="${cycles:-}" -v t0="$t_launch" -v t1="$t_done" -v cpu="$rtl_cpu" -v ended="$ended" 'BEGIN {
		w = t1 - t0
		printf "ended: %s\nwall_seconds: %.2f\ncpu_seconds: %.2f\n", ended, w, cpu
		if (c == "") print "cycles: unknown (the simulation did not report them)"
		else {
			printf "cycles: %d\ncycles_per_second: %.0f\n", c, (w > 0 ? c / w : 0)
			if (cpu > 0) printf "cycles_per_cpu_second: %.0f\n", c / cpu
		}
	}' >"$OUT/sim.txt"
	echo "run.sh: simulation: $(paste -sd' ' "$OUT/sim.txt")"
fi
if [ -s "$OUT/target.stderr" ]; then
	echo "run.sh: the target wrote on stderr ($OUT/target.stderr):" >&2
	sed 's/^/  /' "$OUT/target.stderr" | head -20 >&2
fi

if [ -x "$BUILD/bin/rvmess" ]; then
	"$BUILD/bin/rvmess" parse "$LOG" -o "$OUT" --target "$TARGET"
	prc=$?
	echo "run.sh: rvmess parse exited $prc"
	[ $prc = 0 ] || rc=1
else
	echo "run.sh: $BUILD/bin/rvmess not built: log not parsed"
fi
echo "run.sh: outputs in $OUT/ (console.log, exit.status, run.txt$( [ -x "$BUILD/bin/rvmess" ] && echo ', image.cfg, parsed files'))"
# the model's record of its runs: what RTL plans estimate from
if [ -n "$MODEL_DIR" ] && [ -f "$OUT/sim.txt" ]; then
	BUILD=$BUILD "$ROOT/tools/rtl-record.sh" "$OUT" ||
		echo "run.sh: the run was not added to the model's record (above); plans of this model estimate without it" >&2
fi
exit $rc
