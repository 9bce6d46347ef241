#!/usr/bin/env bash
# Run an rvmess image and collect its console log.
#
#   tools/run.sh --target hostsim|qemu-virt|qemu-sbi|qemu-spike [--harts N]
#                [--image ELF] [--config CFG] [--bios PATH] [--out DIR]
#                [--timeout SEC] [--mem SIZE] [--dtb DTB] [--sim "HOSTSIM OPTIONS"]
#
# Captures the console to DIR/console.log, stops the target once the `end`
# record has arrived (or at the timeout: then it says so and exits non-zero),
# reports the target's exit status (also in DIR/exit.status), then, if
# build/bin/rvmess exists, runs `rvmess parse DIR/console.log -o DIR`.
# --config CFG runs a copy of the image (DIR/image.elf) whose config block
# `rvmess config` rewrote from the key=value file CFG.
# Exit status: 0 only when the `end` record arrived, the target exited 0 (or
# was stopped after `end status=ok`) and the parse (if any) exited 0.
#
# Adding a target: write a target_<name> function (dashes become
# underscores) that fills CMD (the command line) from IMAGE, HARTS, BIOS and
# MEM (and DTB if it supports one), defaulting IMAGE when it is empty.
set -u
# Paths on the command line are relative to the caller's directory; the
# default images and the rvmess CLI come from the checkout's build/.
ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
BUILD=${BUILD:-$ROOT/build}

TARGET="" HARTS=1 IMAGE="" BIOS="" OUT=out/run TIMEOUT=60 MEM=512M DTB="" CFG="" SIMARGS=""
usage() {
	sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case "$1" in
	--target) TARGET=${2:-}; shift 2 ;;
	--harts) HARTS=${2:-}; shift 2 ;;
	--image) IMAGE=${2:-}; shift 2 ;;
	--bios) BIOS=${2:-}; shift 2 ;;
	--out) OUT=${2:-}; shift 2 ;;
	--timeout) TIMEOUT=${2:-}; shift 2 ;;
	--mem) MEM=${2:-}; shift 2 ;;
	--dtb) DTB=${2:-}; shift 2 ;;
	--config) CFG=${2:-}; shift 2 ;;
	--sim) SIMARGS=${2:-}; shift 2 ;;
	-h|--help) usage ;;
	*) echo "run.sh: unknown argument '$1'" >&2; usage ;;
	esac
done
[ -n "$TARGET" ] || { echo "run.sh: --target is required" >&2; usage; }
case "$HARTS" in ''|*[!0-9]*|0) echo "run.sh: --harts must be a positive number, got '$HARTS'" >&2; exit 2 ;; esac
case "$TIMEOUT" in ''|*[!0-9]*|0) echo "run.sh: --timeout must be a positive number of seconds, got '$TIMEOUT'" >&2; exit 2 ;; esac

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

target_hostsim() {
	IMAGE=${IMAGE:-$BUILD/images/virt.elf}
	# shellcheck disable=SC2206
	CMD=("$BUILD/bin/hostsim" --harts "$HARTS" --mem-size "$MEM" --stats $SIMARGS "$IMAGE")
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

mkdir -p "$OUT" || exit 2
if [ -n "$CFG" ]; then
	[ -x "$BUILD/bin/rvmess" ] || { echo "run.sh: --config needs $BUILD/bin/rvmess (make host)" >&2; exit 2; }
	cp "$IMAGE" "$OUT/image.elf" || exit 2
	"$BUILD/bin/rvmess" config "$OUT/image.elf" --file "$CFG" -o "$OUT/image.elf" >/dev/null || exit 2
	orig=$IMAGE
	IMAGE=$OUT/image.elf
	"$fn"
	echo "run.sh: $orig configured from $CFG"
fi
LOG=$OUT/console.log
: >"$LOG"
rm -f "$OUT/exit.status"
echo "run.sh: ${CMD[*]}"
"${CMD[@]}" </dev/null >"$LOG" 2>"$OUT/target.stderr" &
pid=$!

end_seen() { grep -aqE '@RVM [0-9]+ end ' "$LOG"; }
start=$(date +%s) status="" how=""
while :; do
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid"; status=$?; how=exited; break
	fi
	if end_seen; then
		# give the target a moment to end itself and report its own status
		for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
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
		kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
		how=timeout status=124
		break
	fi
	sleep 0.1
done
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
if [ -s "$OUT/target.stderr" ]; then
	echo "run.sh: target stderr:" >&2
	sed 's/^/  /' "$OUT/target.stderr" | head -20 >&2
fi

if [ -x "$BUILD/bin/rvmess" ]; then
	"$BUILD/bin/rvmess" parse "$LOG" -o "$OUT"
	prc=$?
	echo "run.sh: rvmess parse exited $prc"
	[ $prc = 0 ] || rc=1
else
	echo "run.sh: $BUILD/bin/rvmess not built: log not parsed"
fi
echo "run.sh: outputs in $OUT/ (console.log, exit.status$( [ -x "$BUILD/bin/rvmess" ] && echo ', parsed files'))"
exit $rc
