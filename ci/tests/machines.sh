#!/usr/bin/env bash
# The cva6 and openpiton images on hostsim's machine profiles of those
# targets (--machine cva6|openpiton, docs/hostsim.md), small configs:
#   cva6-1, openpiton-{1,2,4}   the run ends the target's way (tohost store /
#       every hart at `pass`) with status 0; rvmess parse is clean with
#       harts=N; the records expected (hart x N, chase x N, lat, par,
#       parmax, end status=ok harts=N); hdr timebase = the profile's true one
#       (50 MHz / 4 on cva6 although its DTB says 32768 Hz, 50 MHz / 128 on
#       openpiton); cpu_hz within 0.1 % of the profile's 50 MHz; every chase
#       record's ns = cycles x 20 and = ticks x 10^9 / timebase (1 %): with
#       the DTB's 32768 Hz every ns would be 381 times too large
#   cva6-fail, openpiton-fail   a config the image refuses at boot: exit 1
#       through tohost (its code) / through `fail`
#   cva6-1-rom-once, openpiton-{1,2,4}-rom-once   the image reads the boot
#       ROM's DTB once,
#       in 8-byte loads (hostsim --stats device bootrom), then parses a copy
#   openpiton-metro   the OPENPITON_END=metro build ends by its load from
#       0x8100000000 (hostsim says which convention ended the run)
#   openpiton-{2,4}-coherent   the profile's L1D is coherent: no `bug`
#       record (no visibility finding) and no fault injected
#   openpiton-integ, openpiton-litmus   2 harts: both suites clean
#   openpiton-lost-{integ,cycles,litmus,mess,flush}   --inject lost-inval (each
#       hart's L1D misses the other's invalidations, as the pinned Ariane
#       under Verilator 5): each hart reports its first wait's store as
#       never visible (`bug test=visibility`, both pairs, at boot, cycles
#       above stale_cycles), falls back to flushing and the run ends, integ
#       clean; litmus reports amoswap_lock's lost increments; the Mess
#       suite reads fresh generator counts; with wait_flush=1 no finding
#       and a clean run
#   openpiton-noflush-{lost,coherent}   an image whose plat.flush is a bare
#       `ret`: with the lost invalidations it cannot end clean (timeout or
#       --max-cycles), coherent it does
#   cva6-mess, openpiton-mess   2 harts, a ring far larger than the L1D
#       (cva6: within the LLC, so that L1D and LLC misses differ; openpiton:
#       ring and arrays far larger than the LLC): nearly every chase load
#       misses the L1D, so the HPM l1d_miss of each point is within 10 % of
#       its loads (CVA6 mhpmevent 2; OpenPiton's fixed CSR 0xB04); on openpiton
#       the fake UART's counter window (what tools/rtl-prep.sh memctr adds
#       to the RTL) is the memory traffic (src=ctr): no bw-disagree warning,
#       the memctl record's reads and writes at most, and within 1 % of,
#       what hostsim's memory served over the whole run
#   openpiton-mess-share-{none,clean-writeback}   mess_share=1, loads
#       only: fewer memory reads than unshared (the generator's loads hit
#       lines the chase brought in), no write-back counted, no warning;
#       with clean lines written
#       back, a wr-excess warning
#   openpiton-mess-l2   --no-piton-memctr (an unprepared checkout): the L2
#       slices' miss counters instead, no writes, within 5 % of the LLC
#       misses hostsim's --stats counted
#   machines-*   refusals (exit 2 and the reason): an image without the
#       profile's symbols, an unknown profile, an odd clock on openpiton,
#       --inject lost-inval off openpiton, with --no-timing or rvwmo;
#       --no-piton-memctr off openpiton
#   openpiton-16550*, openpiton-fpga-dtb*   the FPGA build (OPENPITON_UART=16550
#       OPENPITON_END=metro) polls LSR: clean on sims' fake UART and on
#       hostsim's model of the board's 16550 (--piton-uart 16550), ends by
#       the good-end load; with a Genesys 2-shaped tree (--dtb) its hdr has
#       that tree's timebase, memory and harts
#   openpiton-writeonly-on-16550   the default image loses bytes there
#   machines-uart-*, machines-dtb-*   --piton-uart off openpiton or a bad
#       value, --dtb of a missing file, of a file that is no DTB, of a
#       truncated one: refused
#   cva6-uart   the log has no byte dropped or lost at the exit (hostsim's
#       cva6 UART drops a byte written before LSR was read and loses one
#       still in it at the exit)
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
scratch machines
T=$TMP
HS=$BUILD/bin/hostsim RV=$BUILD/bin/rvmess
for f in "$HS" "$RV" "$BUILD/images/cva6.elf" "$BUILD/images/openpiton.elf"; do
	[ -x "$f" ] || [ -f "$f" ] || { fail "machines-setup" "$f missing (make)"; exit 1; }
done
SMALL="chase_size=64K chase_loads=2000 lat_max=64K lat_loads=1000 par_max=64K par_kmax=4 reps=1"
MESS="suites=mess mess_chase_size=4M mess_gen_size=4M mess_tol=0 mess_window_loads=1000 mess_mix=0,100 mess_pause=0 reps=1"

# run NAME MACHINE HARTS IMAGE CONFIG...: hostsim's exit status in $T/NAME.rc,
# console $T/NAME.log, stderr $T/NAME.err (--stats included)
run() {
	local n=$1 m=$2 h=$3 img=$4
	shift 4
	"$RV" config "$img" "$@" -o "$T/$n.elf" >/dev/null || { echo 2 >"$T/$n.rc"; return; }
	timeout 120 "$HS" --machine "$m" --harts "$h" --stats --max-cycles 300000000 "$T/$n.elf" \
		>"$T/$n.log" 2>"$T/$n.err"
	echo $? >"$T/$n.rc"
}
# field VALUE of key K in the records of type R: one line per record
field() { grep " $2 " "$1" | tr ' ' '\n' | sed -n "s/^$3=//p"; }
count() { grep -c " $2 " "$1"; }

# boot NAME MACHINE HARTS IMAGE TIMEBASE: the positive case's checks
boot() {
	local n=$1 m=$2 h=$3 tb=$5 log=$T/$1.log why=""
	run "$n" "$m" "$h" "$4" $SMALL
	local rc
	rc=$(cat "$T/$n.rc")
	[ "$rc" = 0 ] || why="hostsim exit $rc, want 0 ($(tail -n 2 "$T/$n.err" | tr '\n' ' '))"
	if [ -z "$why" ]; then
		"$RV" parse "$log" -o "$T/$n.out" >"$T/$n.parse" 2>&1 ||
			why="rvmess parse: $(head -n 3 "$T/$n.parse" | tr '\n' ' ')"
	fi
	[ -n "$why" ] || grep -q "harts=$h good=[0-9]* bad=0 missing=0 duplicate=0 complete=yes status=ok" "$T/$n.parse" ||
		why="parse: $(head -n 1 "$T/$n.parse")"
	if [ -z "$why" ]; then
		local c
		for c in "hart:$h" "chase:$h" "end:1"; do
			[ "$(count "$log" "${c%%:*}")" = "${c#*:}" ] || why="$why ${c%%:*} records: $(count "$log" "${c%%:*}"), want ${c#*:};"
		done
		for c in lat par parmax; do
			[ "$(count "$log" $c)" -gt 0 ] || why="$why no $c record;"
		done
		grep -q " end .*status=ok .*harts=$h " "$log" || why="$why end: $(grep ' end ' "$log")"
		grep -q " hdr .* platform=$m " "$log" || why="$why hdr platform is not $m"
	fi
	[ -z "$why" ] || { fail "$n" "$why"; return; }
	pass "$n"

	# time: the profile's clock and true timebase
	local got_tb hz
	got_tb=$(field "$log" hdr timebase) hz=$(field "$log" hdr cpu_hz)
	why=""
	[ "$got_tb" = "$tb" ] || why="hdr timebase=$got_tb, want $tb;"
	awk -v hz="$hz" 'BEGIN { exit !(hz > 49950000 && hz < 50050000) }' || why="$why cpu_hz=$hz, want 50 MHz;"
	# each chase: ns against cycles at 50 MHz and against ticks of the true timebase
	paste <(field "$log" chase cycles) <(field "$log" chase ticks) <(field "$log" chase ns) |
		awk -v tb="$tb" '{ a = $1 * 20; b = $2 * 1e9 / tb
			if ($3 < 0.99 * a || $3 > 1.01 * a || $3 < 0.99 * b || $3 > 1.01 * b) { bad = bad " ns=" $3 "(cycles " $1 " ticks " $2 ")" } }
			END { if (bad != "") { print bad; exit 1 } }' >"$T/$n.ns" || why="$why chase ns not at 50 MHz:$(head -c 200 "$T/$n.ns")"
	[ -z "$why" ] && pass "$n-time (timebase $got_tb, cpu_hz $hz)" || fail "$n-time" "$why"
}

boot cva6-1 cva6 1 "$BUILD/images/cva6.elf" 12500000
# no byte dropped or lost: hostsim says so on stderr, and the log ends with a full line
if grep -q "cva6 UART" "$T/cva6-1.err" || [ "$(tail -c 1 "$T/cva6-1.log" | od -An -c | tr -d ' ')" != '\n' ]; then
	fail cva6-uart "$(grep 'cva6 UART' "$T/cva6-1.err" | head -n 2 | tr '\n' ' ') last byte: $(tail -c 1 "$T/cva6-1.log" | od -An -c)"
else
	pass cva6-uart
fi
for h in 1 2 4; do
	boot "openpiton-$h" openpiton "$h" "$BUILD/images/openpiton.elf" 390625
done
# the boot ROM's DTB is read once, 8 bytes a load (fdt_copy): bootrom loads
# (--stats) at most totalsize/8 + 4 (the probe, the header, the ends) and
# totalsize + 4 bytes; parsed where it lies, byte by byte, it took thousands
for mh in cva6:1 openpiton:1 openpiton:2 openpiton:4; do
	m=${mh%:*} h=${mh#*:} why=""
	if ! "$HS" --machine "$m" --harts "$h" --dump-dtb "$T/rom-$m-$h.dtb" >/dev/null 2>&1; then
		why="hostsim --dump-dtb failed"
	else
		tsz=$((0x$(od -An -tx1 -j4 -N4 "$T/rom-$m-$h.dtb" | tr -d ' \n')))
		rom=$(grep '^  device bootrom: ' "$T/$m-$h.err")
		loads=$(echo "$rom" | sed -n 's/.* loads=\([0-9]*\) .*/\1/p')
		bytes=$(echo "$rom" | sed -n 's/.* load_bytes=\([0-9]*\) .*/\1/p')
		if [ -z "$loads" ] || [ -z "$bytes" ]; then
			why="no bootrom line in --stats: '$rom'"
		elif [ "$loads" -gt $((tsz / 8 + 4)) ] || [ "$bytes" -gt $((tsz + 4)) ] || [ "$bytes" -lt "$tsz" ]; then
			why="bootrom loads=$loads bytes=$bytes for a $tsz-byte DTB: want at most $((tsz / 8 + 4)) loads, $tsz to $((tsz + 4)) bytes"
		fi
	fi
	[ -z "$why" ] && pass "$m-$h-rom-once (bootrom loads=$loads bytes=$bytes, DTB $tsz bytes)" ||
		fail "$m-$h-rom-once" "$why"
done
grep -q "every hart reached \`pass\`" "$T/openpiton-4.err" && pass openpiton-pass-by-pc ||
	fail openpiton-pass-by-pc "hostsim did not end by pc at pass: $(tail -n 3 "$T/openpiton-4.err" | tr '\n' ' ')"

# ---- failing runs: the exit status through each convention ----------------------
# chase_size larger than the heap: the image refuses its config, ends status=fail, code 1
run cva6-fail cva6 1 "$BUILD/images/cva6.elf" $SMALL chase_size=512M
if [ "$(cat "$T/cva6-fail.rc")" = 1 ] && grep -q " end .*status=fail" "$T/cva6-fail.log"; then
	pass cva6-fail
else
	fail cva6-fail "exit $(cat "$T/cva6-fail.rc"), want 1 through tohost; $(grep ' end ' "$T/cva6-fail.log")"
fi
run openpiton-fail openpiton 2 "$BUILD/images/openpiton.elf" $SMALL chase_size=2G
if [ "$(cat "$T/openpiton-fail.rc")" = 1 ] && grep -q "reached \`fail\`" "$T/openpiton-fail.err" &&
	grep -q " end .*status=fail" "$T/openpiton-fail.log"; then
	pass openpiton-fail
else
	fail openpiton-fail "exit $(cat "$T/openpiton-fail.rc"), want 1 through fail; $(tail -n 2 "$T/openpiton-fail.err" | tr '\n' ' ')"
fi

# ---- Metro-MPI end: the OPENPITON_END=metro build, only the platform's objects rebuilt
mkdir -p "$T/b/obj"
cp -a "$BUILD/obj/openpiton" "$T/b/obj/"
if make --no-print-directory -s PLATFORM=openpiton OPENPITON_END=metro BUILD="$T/b" images >"$T/metro.build" 2>&1; then
	run openpiton-metro openpiton 2 "$T/b/images/openpiton.elf" $SMALL
	if [ "$(cat "$T/openpiton-metro.rc")" = 0 ] && grep -q "loaded 0x8100000000: Metro-MPI good end" "$T/openpiton-metro.err" &&
		grep -q " end .*status=ok" "$T/openpiton-metro.log"; then
		pass openpiton-metro
	else
		fail openpiton-metro "exit $(cat "$T/openpiton-metro.rc"); $(tail -n 2 "$T/openpiton-metro.err" | tr '\n' ' ')"
	fi
else
	fail openpiton-metro "make OPENPITON_END=metro failed: $(tail -n 3 "$T/metro.build" | tr '\n' ' ')"
fi

# ---- an FPGA board's console: the OPENPITON_UART=16550 build (with
# OPENPITON_END=metro, the image docs/platforms.md loads on a board) polls LSR
# before every byte.  On sims' fake UART (every read 0xef: LSR.THRE set) it
# runs as before; on hostsim's model of the board's 16550 (16-byte FIFO,
# 115200 baud) it loses nothing, where the default write-only image loses
# bytes; and with a tree shaped like the Genesys 2 bitstream's (--dtb) it
# takes that tree's timebase, memory and harts.
TINY="suites=lat lat_max=4K lat_loads=200 lat_strides=64 lat_random=0 reps=1 warmups=0"
mkdir -p "$T/f/obj"
cp -a "$BUILD/obj/openpiton" "$T/f/obj/"
dtc -q -I dts -O dtb -o "$T/op-g2.dtb" hostsim/tests/data/openpiton-genesys2-like.dts 2>"$T/op-g2.err" ||
	fail openpiton-fpga-dtb-compile "$(head -n 2 "$T/op-g2.err")"
# fpga NAME IMAGE CONFIG-ARGS -- HOSTSIM-ARGS...: rc, log, stderr, parse
fpga() {
	local n=$1 img=$2 opts=()
	shift 2
	"$RV" config "$img" $TINY -o "$T/$n.elf" >/dev/null || { echo 2 >"$T/$n.rc"; return; }
	timeout 120 "$HS" --machine openpiton --harts 2 --max-cycles 300000000 "$@" "$T/$n.elf" >"$T/$n.log" 2>"$T/$n.err"
	echo $? >"$T/$n.rc"
	"$RV" parse "$T/$n.log" -o "$T/$n.out" >"$T/$n.parse" 2>/dev/null
}
fclean() { # NAME: exit 0, a clean parse with 2 harts, no byte dropped
	if [ "$(cat "$T/$1.rc")" = 0 ] && ! grep -q dropped "$T/$1.err" &&
		grep -q "harts=2 good=[0-9]* bad=0 missing=0 duplicate=0 complete=yes status=ok" "$T/$1.parse"; then
		pass "$1${2:+ ($2)}"
	else
		fail "$1" "exit $(cat "$T/$1.rc"); $(head -n 1 "$T/$1.parse"); $(grep -a 'dropped' "$T/$1.err" | head -n 1)"
	fi
}
if make --no-print-directory -s PLATFORM=openpiton OPENPITON_UART=16550 OPENPITON_END=metro BUILD="$T/f" images >"$T/fpga.build" 2>&1; then
	F=$T/f/images/openpiton.elf
	fpga openpiton-16550-on-fake "$F" --piton-uart fake
	fclean openpiton-16550-on-fake "polled console on sims' fake UART"
	fpga openpiton-16550 "$F" --piton-uart 16550
	fclean openpiton-16550 "polled console on the board's 16550"
	grep -q "loaded 0x8100000000: Metro-MPI good end" "$T/openpiton-16550.err" &&
		pass "openpiton-16550-end (the good-end load the board's chipset watches)" ||
		fail openpiton-16550-end "$(tail -n 2 "$T/openpiton-16550.err" | tr '\n' ' ')"
	fpga openpiton-fpga-dtb "$F" --piton-uart 16550 --freq-mhz 66 --dtb "$T/op-g2.dtb"
	fclean openpiton-fpga-dtb "the Genesys 2 tree"
	log=$T/openpiton-fpga-dtb.log
	tb=$(field "$log" hdr timebase) mem=$(field "$log" hdr mem_size) hz=$(field "$log" hdr cpu_hz)
	# 66 MHz of hostsim clock against the tree's 520835 Hz (mtime here: 66 MHz / 128)
	if [ "$tb" = 520835 ] && [ "$mem" = 1073741824 ] && [ "$(field "$log" hdr harts)" = 2 ] &&
		awk -v hz="$hz" 'BEGIN { exit !(hz > 66600000 && hz < 66733000) }'; then
		pass "openpiton-fpga-dtb-hdr (timebase $tb, mem_size $mem, cpu_hz $hz)"
	else
		fail openpiton-fpga-dtb-hdr "$(grep -a ' hdr ' "$log" | cut -c1-300)"
	fi
else
	fail openpiton-16550 "make OPENPITON_UART=16550 OPENPITON_END=metro failed: $(tail -n 3 "$T/fpga.build" | tr '\n' ' ')"
fi
fpga openpiton-writeonly-on-16550 "$BUILD/images/openpiton.elf" --piton-uart 16550
if grep -q "openpiton 16550: byte 0x[0-9a-f]* dropped" "$T/openpiton-writeonly-on-16550.err" &&
	! grep -q "complete=yes status=ok" "$T/openpiton-writeonly-on-16550.parse"; then
	pass "openpiton-writeonly-on-16550 (the default image loses bytes on the board's UART)"
else
	fail openpiton-writeonly-on-16550 "the write-only console lost nothing: $(head -n 1 "$T/openpiton-writeonly-on-16550.parse")"
fi

# ---- Ariane's L1D: coherent on the profile, as OpenPiton is designed.  The
# image flushes nothing to make its waits work: on the coherent model no
# finding is reported (the clean parses above say so) and, for each hart, the
# flushes are only the periodic looks of waits longer than stale_cycles and
# the parked harts' looks at the end, far fewer than its waits' polls.
for h in 2 4; do
	fl=$(sed -n 's/^hostsim: openpiton: L1D flushes (CSR 0x701 switched on) per hart: //p' "$T/openpiton-$h.err")
	if [ -n "$fl" ] && ! grep -aq ' bug ' "$T/openpiton-$h.log" && ! grep -q "^  injected:\|lost-inval" "$T/openpiton-$h.err"; then
		pass "openpiton-$h-coherent (no finding; flushes per hart $fl)"
	else
		fail "openpiton-$h-coherent" "flushes '$fl'; $(grep -a ' bug ' "$T/openpiton-$h.log" | head -n 1)$(grep "injected:" "$T/openpiton-$h.err")"
	fi
done

# runl NAME ARGS -- CONFIG...: run with extra hostsim options, then rvmess parse
runl() {
	local n=$1 opts=()
	shift
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	"$RV" config "$BUILD/images/openpiton.elf" "$@" -o "$T/$n.elf" >/dev/null || { echo 2 >"$T/$n.rc"; return; }
	timeout 120 "$HS" --machine openpiton --stats --max-cycles 300000000 "${opts[@]}" "$T/$n.elf" \
		>"$T/$n.log" 2>"$T/$n.err"
	echo $? >"$T/$n.rc"
	"$RV" parse "$T/$n.log" -o "$T/$n.out" >"$T/$n.parse" 2>&1
	echo $? >"$T/$n.prc"
}
clean() { # NAME: exit 0 and a clean parse
	if [ "$(cat "$T/$1.rc")" = 0 ] && grep -q "bad=0 missing=0 duplicate=0 complete=yes status=ok" "$T/$1.parse"; then
		pass "$1"
	else
		fail "$1" "exit $(cat "$T/$1.rc"); $(head -n 1 "$T/$1.parse"); $(grep -a ' err \| integ .*bad=[1-9]\| bug ' "$T/$1.log" | head -n 2 | tr '\n' ' ')"
	fi
}
# visibility NAME WANT: the `bug test=visibility` records as "waiter<writer@where"
visibility() {
	grep -a ' bug h=[0-9]* test=visibility ' "$T/$1.log" |
		sed 's/.* waiter=\([0-9]*\) writer=\([0-9]*\) .* where=\([a-z-]*\) .*/\1<\2@\3/' | sort | tr '\n' ' '
}
runl openpiton-integ --harts 2 -- suites=integ integ_rounds=50 integ_lines=4 integ_msgs=300 integ_slots=8 reps=1
clean openpiton-integ
runl openpiton-litmus --harts 2 -- suites=litmus litmus_iters=50 reps=1
clean openpiton-litmus

# ---- the lost invalidation (--inject lost-inval: each hart's L1D keeps a line
# another hart stores to until CSR 0x701 flushes it, as the pinned Ariane does
# under Verilator 5; docs/findings.md).  The image finds it: each hart's first
# wait for the other's store (the follower's for boot_go, the lead's for the
# follower's arrival) flushes after stale_cycles, sees the store, whose writer
# stamped it long before, and reports it (bug test=visibility, naming both
# harts, the address and the cycles); then it flushes in every wait and the
# run ends: the integrity checks clean, the litmus suite's amoswap_lock with
# lost increments (its critical section's plain load reads the stale copy).
runl openpiton-lost-integ --harts 2 --inject lost-inval -- suites=integ integ_rounds=50 integ_lines=4 integ_msgs=300 integ_slots=8 reps=1
v=$(visibility openpiton-lost-integ)
if [ "$(cat "$T/openpiton-lost-integ.rc")" = 1 ] && [ "$v" = "0<1@boot 1<0@boot " ] &&
	[ "$(cat "$T/openpiton-lost-integ.prc")" = 3 ] && grep -q "complete=yes" "$T/openpiton-lost-integ.parse" &&
	grep -q "^visibility: 2 store(s) never became visible (first: hart [01]'s store to 0x" "$T/openpiton-lost-integ.out/summary.txt" &&
	grep -q "^litmus: bugs=0 tests=0 " "$T/openpiton-lost-integ.out/summary.txt" &&
	! grep -aqE ' integ .*bad=[1-9]| err ' "$T/openpiton-lost-integ.log" &&
	grep -q " end .*status=fail errors=2 .*harts=2 " "$T/openpiton-lost-integ.log"; then
	pass "openpiton-lost-integ (findings: $v; integ clean after the fall-back)"
else
	fail openpiton-lost-integ "exit $(cat "$T/openpiton-lost-integ.rc"), parse $(cat "$T/openpiton-lost-integ.prc"), findings '$v', want '0<1@boot 1<0@boot '; $(grep -a ' end \| err ' "$T/openpiton-lost-integ.log" | head -n 2 | tr '\n' ' ')"
fi
# each finding's cycles: more than stale_cycles (20000), less than the run
if grep -a ' test=visibility ' "$T/openpiton-lost-integ.log" | sed 's/.* cycles=\([0-9]*\) .*/\1/' |
	awk '{ n++; if ($1 <= 20000 || $1 > 300000000) bad = 1 } END { exit !(n == 2 && !bad) }'; then
	pass openpiton-lost-cycles
else
	fail openpiton-lost-cycles "$(grep -a ' test=visibility ' "$T/openpiton-lost-integ.log" | cut -c1-160 | tr '\n' ' ')"
fi
runl openpiton-lost-litmus --harts 2 --inject lost-inval -- suites=litmus litmus_iters=50 reps=1
bugs=$(grep -a ' bug h=' "$T/openpiton-lost-litmus.log" | grep -v ' test=visibility ' | sed 's/.* test=\([a-z0-9_]*\) .*/\1/' | sort -u | tr '\n' ' ')
if [ "$(cat "$T/openpiton-lost-litmus.rc")" = 1 ] && [ "$bugs" = "amoswap_lock " ] &&
	[ -n "$(visibility openpiton-lost-litmus)" ]; then
	pass "openpiton-lost-litmus (findings $(visibility openpiton-lost-litmus); litmus: $bugs)"
else
	fail openpiton-lost-litmus "exit $(cat "$T/openpiton-lost-litmus.rc"), litmus bugs in: '$bugs', findings '$(visibility openpiton-lost-litmus)'"
fi
# the Mess suite after the fall-back: the lead reads the generators' counts
# fresh (gen_iters > 0 and no bw-disagree), the generators see `stop`
runl openpiton-lost-mess --harts 2 --inject lost-inval -- $MESS
if [ "$(cat "$T/openpiton-lost-mess.rc")" = 1 ] && [ -n "$(visibility openpiton-lost-mess)" ] &&
	[ "$(grep -ac ' mess h=' "$T/openpiton-lost-mess.log")" = 2 ] &&
	! field "$T/openpiton-lost-mess.log" mess gen_iters | grep -qx 0 &&
	! grep -aq 'what=bw-disagree\| err ' "$T/openpiton-lost-mess.log"; then
	pass "openpiton-lost-mess (gen_iters $(field "$T/openpiton-lost-mess.log" mess gen_iters | tr '\n' ' '))"
else
	fail openpiton-lost-mess "exit $(cat "$T/openpiton-lost-mess.rc"), findings '$(visibility openpiton-lost-mess)', gen_iters $(field "$T/openpiton-lost-mess.log" mess gen_iters | tr '\n' ' '); $(grep -a 'bw-disagree\| err ' "$T/openpiton-lost-mess.log" | head -n 2 | cut -c1-120 | tr '\n' ' ')"
fi
# wait_flush=1: flush before every read of a wait from the start; no finding,
# the integrity checks clean, the run ends ok
runl openpiton-lost-flush --harts 2 --inject lost-inval -- suites=integ integ_rounds=50 integ_lines=4 integ_msgs=300 integ_slots=8 reps=1 wait_flush=1
clean openpiton-lost-flush

# an image that cannot flush (plat.flush's first instruction made a `ret`):
# with the lost invalidations no wait ever sees the other hart's store, so the
# run must not end clean (the rendezvous' timeout or --max-cycles stops it);
# on the coherent model it ends clean (the flush is only a check there)
"$RV" config "$BUILD/images/openpiton.elf" $SMALL timeout_ms=20 -o "$T/noflush.elf" >/dev/null &&
python3 - "$T/noflush.elf" <<'PY' || fail openpiton-noflush-image "cannot patch piton_flush"
import struct, sys
f = open(sys.argv[1], "r+b"); e = f.read()
shoff, = struct.unpack_from("<Q", e, 0x28); shentsize, shnum = struct.unpack_from("<HH", e, 0x3a)
phoff, = struct.unpack_from("<Q", e, 0x20); phentsize, phnum = struct.unpack_from("<HH", e, 0x36)
sh = [struct.unpack_from("<IIQQQQIIQQ", e, shoff + i * shentsize) for i in range(shnum)]
symtab = [s for s in sh if s[1] == 2][0]; strtab = sh[symtab[6]]
addr = None
for k in range(symtab[5] // 24):
    name, info, other, shndx, value, size = struct.unpack_from("<IBBHQQ", e, symtab[4] + k * 24)
    if e[strtab[4] + name:e.index(b"\0", strtab[4] + name)] == b"piton_flush":
        addr = value
for i in range(phnum):
    typ, flags, off, vaddr, paddr, filesz, memsz, align = struct.unpack_from("<IIQQQQQQ", e, phoff + i * phentsize)
    if typ == 1 and addr is not None and vaddr <= addr < vaddr + filesz:
        f.seek(off + addr - vaddr); f.write(struct.pack("<I", 0x00008067)); sys.exit(0)
sys.exit(1)
PY
for m in lost coherent; do
	n=openpiton-noflush-$m
	timeout 120 "$HS" --machine openpiton $([ $m = lost ] && echo --inject lost-inval) --harts 2 --stats --max-cycles $([ $m = lost ] && echo 20000000 || echo 300000000) "$T/noflush.elf" \
		>"$T/$n.log" 2>"$T/$n.err"
	rc=$?
	if [ $m = coherent ]; then
		[ $rc = 0 ] && grep -q " end .*status=ok .*harts=2 " "$T/$n.log" &&
			pass "$n (no flush needed)" ||
			fail "$n" "exit $rc: $(tail -n 2 "$T/$n.err" | tr '\n' ' ')"
	elif [ $rc != 0 ] && ! grep -q " end .*status=ok" "$T/$n.log" &&
		{ [ $rc = 124 ] || grep -aq " err \| end .*status=fail" "$T/$n.log"; }; then
		pass "$n (exit $rc: $(grep -ao ' err [^*]*\|limit[^*]*' "$T/$n.log" "$T/$n.err" | head -n 1 | cut -c1-80))"
	else
		fail "$n" "without a flush the lost invalidations must stop the run: exit $rc, $(grep -a ' end ' "$T/$n.log")"
	fi
done

# ---- refusals: an image without the profile's symbols, an unknown profile, a clock
# whose mtime rate is not whole (exit 2 and the reason)
refuse() { # CASE WANT-PATTERN ARGS...
	local c=$1 pat=$2 rc
	shift 2
	"$HS" "$@" >"$T/$c.out" 2>&1
	rc=$?
	if [ $rc = 2 ] && grep -q -- "$pat" "$T/$c.out"; then pass "$c"; else fail "$c" "exit $rc: $(head -c 200 "$T/$c.out")"; fi
}
refuse machines-no-tohost "needs the image's \`tohost\` symbol" --machine cva6 "$BUILD/images/openpiton.elf"
refuse machines-no-pass "needs the image's functions \`pass\` and \`fail\`" --machine openpiton "$BUILD/images/cva6.elf"
refuse machines-unknown "'nonesuch' is not virt, cva6 or openpiton" --machine nonesuch "$BUILD/images/cva6.elf"
refuse machines-odd-clock "not a whole number of Hz" --machine openpiton --freq-mhz 51 "$BUILD/images/openpiton.elf"
refuse machines-lost-virt "applies to --machine openpiton only" --inject lost-inval "$BUILD/images/virt.elf"
refuse machines-lost-no-timing "need the timing model" --machine openpiton --no-timing --inject lost-inval "$BUILD/images/openpiton.elf"
refuse machines-lost-rvwmo "does not combine with --memory-order rvwmo" --machine openpiton --memory-order rvwmo --inject lost-inval "$BUILD/images/openpiton.elf"
refuse machines-memctr-virt "applies to --machine openpiton only" --no-piton-memctr "$BUILD/images/virt.elf"
refuse machines-uart-virt "applies to --machine openpiton only" --piton-uart 16550 "$BUILD/images/virt.elf"
refuse machines-uart-bad "'real' is not fake or 16550" --machine openpiton --piton-uart real "$BUILD/images/openpiton.elf"
refuse machines-dtb-missing "cannot open" --dtb "$T/nonesuch.dtb" "$BUILD/images/virt.elf"
refuse machines-dtb-not-fdt "not a flattened device tree" --dtb "$BUILD/images/virt.elf" "$BUILD/images/virt.elf"
head -c 100 "$T/op-g2.dtb" >"$T/short.dtb"
refuse machines-dtb-short "its header says" --dtb "$T/short.dtb" "$BUILD/images/virt.elf"

# ---- counters in the mess suite ---------------------------------------------------
# l1d_miss of every point within 10 % of its loads
l1d_check() {
	paste <(field "$1" mess loads) <(field "$1" mess l1d_miss) |
		awk '{ n++; if ($2 < 0.9 * $1 || $2 > 1.1 * $1) bad = bad " " $2 "/" $1 } END { if (!n || bad != "") { print n " points:" bad; exit 1 } }'
}
# cva6: a ring (1 MiB) and arrays that fit the LLC but not the L1D, so that
# an L1D miss and an LLC miss differ: l1d_miss must follow the loads
run cva6-mess cva6 2 "$BUILD/images/cva6.elf" $MESS mess_chase_size=1M mess_gen_size=256K
if [ "$(cat "$T/cva6-mess.rc")" != 0 ]; then
	fail cva6-mess "exit $(cat "$T/cva6-mess.rc")"
elif ! r=$(l1d_check "$T/cva6-mess.log"); then
	fail cva6-mess "l1d_miss not within 10 % of the chase loads: $r"
else
	pass cva6-mess
fi
run openpiton-mess openpiton 2 "$BUILD/images/openpiton.elf" $MESS
log=$T/openpiton-mess.log
# the memory controller's reads and writes over the whole run (--stats)
read -r mreads mwrites < <(sed -n 's/^memctl: reads \([0-9]*\) writes \([0-9]*\) .*/\1 \2/p' "$T/openpiton-mess.err")
reads=$(field "$log" memctl reads) writes=$(field "$log" memctl writes)
if [ "$(cat "$T/openpiton-mess.rc")" != 0 ]; then
	fail openpiton-mess "exit $(cat "$T/openpiton-mess.rc")"
elif ! r=$(l1d_check "$log"); then
	fail openpiton-mess "l1d_miss (CSR 0xB04) not within 10 % of the chase loads: $r"
elif [ "$(field "$log" mess src | sort -u)" != ctr ] || grep -q "what=bw-disagree" "$log"; then
	fail openpiton-mess "the counter window is not the traffic source or disagrees with the issued traffic: $(grep -c bw-disagree "$log") warnings, src=$(field "$log" mess src | sort -u | tr '\n' ' ')"
elif ! awk -v r="$reads" -v w="$writes" -v mr="$mreads" -v mw="$mwrites" \
	'BEGIN { exit !(r <= mr && r >= 0.99 * mr && w <= mw && w >= 0.99 * mw && w > 10000 && r > 100000) }'; then
	fail openpiton-mess "memctl reads=$reads writes=$writes (the fake UART's window), hostsim's memory served $mreads / $mwrites"
else
	pass "openpiton-mess (window: reads $reads of $mreads, writes $writes of $mwrites)"
fi
# mess_share=1 (the generator loads the chase's ring: lines two harts read),
# loads only: the counter window sees no write-back, and the issued-reads
# check is off (the generator's loads hit lines the chase brought in); with
# clean lines written back (--inject clean-writeback) the writes check fires
for f in none clean-writeback; do
	n=openpiton-mess-share-$f
	"$RV" config "$BUILD/images/openpiton.elf" $MESS mess_mix=0 mess_share=1 -o "$T/$n.elf" >/dev/null &&
		timeout 120 "$HS" --machine openpiton --harts 2 $([ $f = none ] || echo --inject $f) "$T/$n.elf" >"$T/$n.log" 2>"$T/$n.err"
	rc=$? wr=$(field "$T/$n.log" mess ctr_wr) rd=$(field "$T/$n.log" mess ctr_rd)
	# the unshared run's loads-only point: every generator load a memory read
	rd0=$(grep -a ' mess h=[0-9]* mix=0 ' "$T/openpiton-mess.log" | tr ' ' '\n' | sed -n 's/^ctr_rd=//p')
	if [ $f = none ] && [ $rc = 0 ] && [ "$wr" -lt 100 ] && [ "$rd" -gt 1000 ] && [ $((rd * 10)) -lt $((rd0 * 9)) ] &&
		! grep -aq ' warn ' "$T/$n.log"; then
		pass "$n (ctr_rd $rd, unshared $rd0; ctr_wr $wr)"
	elif [ $f != none ] && [ "$wr" -gt 1000 ] && grep -aq 'what=wr-excess' "$T/$n.log"; then
		pass "$n (ctr_rd $rd ctr_wr $wr: wr-excess)"
	else
		fail "$n" "exit $rc, ctr_rd $rd ctr_wr $wr; $(grep -a ' warn ' "$T/$n.log" | cut -c1-100 | tr '\n' ' ')"
	fi
done
# a model without the window (a checkout not prepared by tools/rtl-prep.sh
# memctr): the image counts the L2 slices' misses, no writes
"$RV" config "$BUILD/images/openpiton.elf" $MESS -o "$T/openpiton-mess-l2.elf" >/dev/null &&
	timeout 120 "$HS" --machine openpiton --harts 2 --stats --max-cycles 300000000 --no-piton-memctr \
		"$T/openpiton-mess-l2.elf" >"$T/openpiton-mess-l2.log" 2>"$T/openpiton-mess-l2.err"
rc=$?
log=$T/openpiton-mess-l2.log
# LLC misses hostsim counted over the run: column 5 of the memsys table's hart rows
llc=$(awk '/^hart +l1d_access/ { t = 1; next } t && $1 ~ /^[0-9]+$/ { s += $5 } END { print s + 0 }' "$T/openpiton-mess-l2.err")
reads=$(field "$log" memctl reads) writes=$(field "$log" memctl writes)
if [ $rc != 0 ]; then
	fail openpiton-mess-l2 "exit $rc"
elif [ "$(field "$log" mess src | sort -u)" != ctr ] || grep -q "what=bw-disagree" "$log" ||
	[ "$(field "$log" mess ctr_wr | sort -u)" != 0 ] || [ "$writes" != 0 ]; then
	fail openpiton-mess-l2 "the L2 counters are not the traffic source, disagree, or count writes: src=$(field "$log" mess src | sort -u | tr '\n' ' ') writes=$writes"
elif ! awk -v r="$reads" -v l="$llc" 'BEGIN { exit !(r <= l && r >= 0.95 * l && l > 100000) }'; then
	fail openpiton-mess-l2 "memctl reads=$reads (L2 counters), hostsim counted $llc LLC misses"
else
	pass "openpiton-mess-l2 (L2 misses $reads of $llc)"
fi
finish
