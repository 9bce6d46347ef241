#!/usr/bin/env bash
# Integration test: the board ports on QEMU (docs/platforms.md, "Boards").
#
#   sifive_u-5     virt.elf (M-mode, -bios none) on QEMU sifive_u with all 5
#                  harts (the E51 monitor core and 4 U54s): the console is the
#                  SiFive UART the FDT names, QEMU has no finisher so
#                  tools/run.sh must stop it at the `end` record; every hart
#                  (hart 0 included) reports, nothing traps, the log parses
#                  clean with harts=5.
# KEEP_TMP=1 keeps the scratch directory.
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
RVMESS=$BUILD/bin/rvmess
CASES="sifive_u-5"

if ! command -v qemu-system-riscv64 >/dev/null; then
	for c in $CASES; do skip "$c" "qemu-system-riscv64 not installed"; done
	exit 0
fi
for f in "$BUILD/images/virt.elf" "$RVMESS"; do
	[ -e "$f" ] || { fail boards-build "$f missing (make)"; exit 1; }
done
scratch boards

# a reduced config: every M-mode suite of the default set, small sizes
cat >"$TMP/small.cfg" <<'CFG'
suites=chase,lat,par
reps=2
warmups=1
timeout_ms=1500
chase_size=256K
chase_loads=5000
lat_max=64K
lat_loads=2000
lat_strides=64,256
par_max=32K
par_kmax=4
CFG

# parse_clean DIR HARTS: '' when `rvmess parse` exits 0 with harts=HARTS and
# complete=yes, else why not
parse_clean() {
	local sum prc
	sum=$("$RVMESS" parse "$1/console.log" -o "$1/parsed" 2>"$1/parse.err")
	prc=$?
	if [ $prc != 0 ]; then
		echo "rvmess parse exited $prc: $(head -c 200 "$1/parse.err" | tr '\n' '|')"
	elif ! echo "$sum" | grep -qE "(^| )harts=$2 .*complete=yes status=ok"; then
		echo "parse summary: $sum"
	fi
}
distinct_harts() { # LOG TYPE
	grep -aoE "@RVM [0-9]+ $2 h=[0-9]+" "$1" | awk '{print $4}' | sort -u | tr '\n' ' '
}

sifive_u_case() {
	local name=sifive_u-5 d=$TMP/sifive_u why=""
	tools/run.sh --target qemu-sifive_u --harts 5 --config "$TMP/small.cfg" --out "$d" \
		--timeout 60 --progress off >"$TMP/$name.out" 2>&1
	local log=$d/console.log
	if ! grep -q 'end record arrived; target did not exit by itself and was stopped' "$TMP/$name.out"; then
		why="run.sh did not stop QEMU at the end record: $(tail -n 4 "$TMP/$name.out" | tr '\n' '|')"
	elif [ "$(cat "$d/exit.status" 2>/dev/null)" != 0 ]; then
		why="exit.status $(cat "$d/exit.status" 2>/dev/null), want 0"
	elif ! grep -aqE '@RVM 0 hdr h=[0-9]+ .* harts=5 hartids=0,1,2,3,4 .*timebase=1000000 ' "$log"; then
		why="hdr lacks harts=5 hartids=0..4 timebase=1000000 (sifive_u's RTCCLK)"
	elif [ "$(distinct_harts "$log" hart)" != "h=0 h=1 h=2 h=3 h=4 " ] ||
		[ "$(distinct_harts "$log" chase)" != "h=0 h=1 h=2 h=3 h=4 " ]; then
		why="hart/chase records from '$(distinct_harts "$log" chase)', want harts 0..4"
	elif grep -aqE '@RVM [0-9]+ (err|trap|missing) ' "$log"; then
		why="unexpected $(grep -aoE '@RVM [0-9]+ (err|trap|missing) [^*]*' "$log" | head -1)"
	elif [ "$(grep -acE '@RVM [0-9]+ end ' "$log")" != 1 ]; then
		why="$(grep -acE '@RVM [0-9]+ end ' "$log") end records, want 1"
	else
		why=$(parse_clean "$d" 5)
	fi
	if [ -n "$why" ]; then fail $name "$why"; else pass $name; fi
}
sifive_u_case

finish
