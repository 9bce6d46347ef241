#!/usr/bin/env bash
# tools/run.sh --target cva6 | openpiton without RTL (CI has none): the
# argument and missing-model paths, and the run path on stand-in models that
# behave like the real ones where the runner depends on them.
#   cva6-* / openpiton-*  bad arguments, no checkout, an unbuilt checkout, an
#                         image without `tohost`, a model built for other tiles:
#                         exit 2, a message naming the problem, no run directory
#   cva6-elf-*            the harness's ELF helpers (hostsim/rtl/cva6_elf.cc)
#                         built with g++ -Werror into a driver and checked
#                         against readelf and nm: segments, bytes, symbols on
#                         every image and on two-segment ELFs of both classes,
#                         and the files read_elf refuses
#   cva6-stop-at-end      a harness that prints the log and never ends is
#                         stopped at the `end` record at once (no grace
#                         period); its "after N cycles" line (printed on
#                         SIGTERM) gives sim.txt
#   cva6-run-dir          the harness runs in the run directory (its traces
#                         land there) with +debug_disable=1, on the absolute
#                         image path
#   cva6-fesvr-poll       --fesvr-poll: no +debug_disable, and the harness gets
#                         the grace period to end by itself
#   cva6-netns(-listen)   the harness runs in a network namespace whose only
#                         interface is the loopback, up; a TCP server it
#                         opens on all interfaces is out of reach from outside
#   cva6-no-network-refused  without a working unshare: exit 2, a message
#                         naming --network, no run directory
#   cva6-network          --network: the host's namespace (the server in reach)
#   openpiton-stream      sims' fake_uart.log, written a record at a time,
#                         reaches console.log while sims runs: a sims that
#                         never ends is stopped at the `end` record, with the
#                         simulation it started (its session)
#   openpiton-netns       sims runs in a network namespace of its own
#   openpiton-interrupted run.sh itself sent TERM mid-run stops the simulation
#                         (sims' session) too and exits 143
#   openpiton-metro-*     --metro: refused without the chipset and tile models;
#                         with them, sims -sys=metro_chipset -model_dir=ROOT/build
#                         (no finish mask), the cycles from the chipset's
#                         "ticks: T , cycles: N" line, exit 0 on the log's clean
#                         `end` record and 1 without one
#   openpiton-pass/-fail  a sims that ends by itself: its status.log verdict
#                         decides the exit status (FAIL: 1 even on a clean log);
#                         the cycles are the verdict line's time / 500 ps
#   openpiton-sims-args   2x1 tiles: -x_tiles=2 -y_tiles=1, finish mask 0x11 (bit 4t a tile),
#                         the build id, the image copied as rvmess.riscv, and
#                         the limits lifted (the model stops at 1.5 M cycles;
#                         sims' idle-thread timeout fails any Ariane run)
#   rtl-mem-*             the RTL memory options: refused for hostsim, both
#                         at once, a bad number, a missing or refused
#                         family, a model built without the Mess stage;
#                         --mess-curves on a model built with it (config.v's
#                         RVMESS_MESS) passes the stage's plusargs through
#                         sims (-sim_run_args: the family's absolute path,
#                         the clock, the on-chip part in ps, the window),
#                         run.txt says so and RVMESS_MESS_LOG names the run
#                         directory's mess-windows.tsv; --mem-fixed N passes
#                         +rvmess_mem_fixed=N; CVA6 gets them as plusargs
#   trace-prof            tools/trace-prof.sh on a made-up trace over the image's
#                         own symbols: a call to pm_time from lead and the return,
#                         each function's self and inclusive cycles and calls,
#                         the window's bounds; refused without a line in it
#   trace-chase           tools/trace-chase.sh on a made-up trace: the chase's
#                         loads 100, 96, 104 cycles apart (min, percentiles,
#                         bins), a non-load and a line out of order left out,
#                         --last and --bin; refused without a load in the window
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
scratch rtlrun
T=$TMP
for b in "$BUILD/bin/rvmess" "$BUILD/bin/hostsim" "$BUILD/images/virt.elf" "$BUILD/images/spike.elf"; do
	[ -e "$b" ] || { fail build "$b not built (make)"; exit 1; }
done
RUN="tools/run.sh --progress off"
export RTL_END_GRACE=5 # tenths of a second the stand-ins get to end by themselves (real RTL: 60 s)

# refused: exit 2, MESSAGE on stderr, nothing created under --runs
refused() { # CASE MESSAGE ARGS...
	local c=$1 want=$2 rc
	shift 2
	rm -rf "$T/runs"
	$RUN --runs "$T/runs" "$@" >"$T/out" 2>&1
	rc=$?
	if [ "$rc" = 2 ] && grep -qF -- "$want" "$T/out" && [ ! -e "$T/runs" ]; then pass "$c"
	else fail "$c" "exit $rc, want 2 with '$want' and no run directory; got: $(head -c 300 "$T/out" | tr '\n' '|')"; fi
}

# ---- CVA6 ------------------------------------------------------------------------
refused cva6-needs-dir "needs --cva6 DIR" --target cva6
refused cva6-no-dir "--cva6 $T/nope: no such directory" --target cva6 --cva6 "$T/nope"
mkdir -p "$T/cva6/work-ver"
refused cva6-unbuilt "no built model $T/cva6/work-ver/Variane_testharness" --target cva6 --cva6 "$T/cva6"
refused cva6-harts "one hart" --target cva6 --cva6 "$T/cva6" --harts 2

# ---- the harness's ELF helpers (hostsim/rtl/cva6_elf.cc) -----------------------
# Built with the driver hostsim/rtl/cva6_elf_check.cc, which calls them as the
# harness does, and checked against readelf and nm: on every image, and on a
# two-segment ELF (text, then data + .bss) in both ELF classes with a symbol
# defined both locally and globally.
CROSS=${CROSS:-riscv64-unknown-elf-}
elf_check() { # CASE-SUFFIX ELF: the cva6-elf-* cases for one ELF
	local n=$1 e=$2 d=$T/elf-$1 want got bad="" off pa fs ms a
	mkdir -p "$d"
	# every symbol nm can name unambiguously: the global ones, and the local
	# ones whose name occurs once
	"${CROSS}nm" --defined-only "$e" | awk '
		{ n[$3]++; v[$3] = $1; if ($2 ~ /[A-Z]/) g[$3] = $1 }
		END { for (s in n) if (s in g) print s, g[s]; else if (n[s] == 1) print s, v[s] }' | sort >"$d/nm"
	# shellcheck disable=SC2046
	if ! "$T/elfcheck" "$e" "$d" $(cut -d' ' -f1 "$d/nm") nosuch_symbol >"$d/out" 2>"$d/err"; then
		fail "cva6-elf-run-$n" "the driver failed on $e: $(head -c 300 "$d/err")"
		return
	fi
	# sections: the PT_LOAD segments with memory, in order, at their physical
	# address and memory size (file offset, physical address, file and memory
	# sizes in $d/loads)
	readelf -lW "$e" | awk '$1 == "LOAD" { print $2, $4, $5, $6 }' | while read -r off pa fs ms; do
		[ $((ms)) -gt 0 ] && echo $((off)) $((pa)) $((fs)) $((ms))
	done >"$d/loads"
	while read -r off pa fs ms; do printf 'section 0x%x %d\n' "$pa" "$ms"; done <"$d/loads" >"$d/want.sec"
	grep '^section ' "$d/out" >"$d/got.sec"
	if [ -s "$d/want.sec" ] && cmp -s "$d/want.sec" "$d/got.sec"; then pass "cva6-elf-sections-$n"
	else fail "cva6-elf-sections-$n" "got '$(tr '\n' '|' <"$d/got.sec")', readelf says '$(tr '\n' '|' <"$d/want.sec")'"; fi
	# bytes: each segment's file bytes then zeros (dd from the ELF), through
	# read_section_void and read_section_sv (an array rounded up to 8 bytes)
	while read -r off pa fs ms; do
		a=$(printf '0x%x' "$pa")
		: >"$d/want"
		truncate -s "$ms" "$d/want"
		dd if="$e" of="$d/want" bs=1 skip="$off" count="$fs" conv=notrunc status=none
		cmp -s "$d/want" "$d/$a.void" || bad="$bad $a.void"
		truncate -s $(((ms + 7) / 8 * 8)) "$d/want"
		cmp -s "$d/want" "$d/$a.sv" || bad="$bad $a.sv"
		grep -qx "sv-elementwise $a ok" "$d/out" || bad="$bad $a.sv-elementwise"
		grep -qx "whole $a ok" "$d/out" || bad="$bad $a.whole"
		grep -qx "cut $a ok" "$d/out" && grep -q "segment at $a is $ms bytes; only the first 16 were copied" "$d/err" ||
			bad="$bad $a.cut"
	done <"$d/loads"
	grep -qx "badaddr throws" "$d/out" || bad="$bad no-throw-at-a-bad-address"
	if [ -z "$bad" ]; then pass "cva6-elf-bytes-$n"
	else fail "cva6-elf-bytes-$n" "wrong:$bad"; fi
	# symbols: every one nm names, with nm's value; none for a missing one
	sed -n 's/^symbol \([^ ]*\) 0x\([0-9a-f]*\)$/\1 \2/p' "$d/out" | sed 's/ 0*\([0-9a-f]\)/ \1/' | sort >"$d/got.sym"
	sed 's/ 0*\([0-9a-f]\)/ \1/' "$d/nm" | sort >"$d/want.sym"
	if [ "$(wc -l <"$d/want.sym")" -gt 2 ] && cmp -s "$d/want.sym" "$d/got.sym" &&
		grep -qx "symbol nosuch_symbol none" "$d/out"; then
		pass "cva6-elf-symbols-$n ($(wc -l <"$d/want.sym") symbols)"
	else
		fail "cva6-elf-symbols-$n" "$(diff "$d/want.sym" "$d/got.sym" | grep '^[<>]' | head -4 | tr '\n' '|') $(grep nosuch "$d/out")"
	fi
}
if ! command -v g++ >/dev/null; then
	skip cva6-elf "g++ not installed (tools/deps.sh --rtl installs it)"
elif ! g++ -std=c++17 -O2 -Wall -Wextra -Werror -pedantic -o "$T/elfcheck" hostsim/rtl/cva6_elf.cc \
	hostsim/rtl/cva6_elf_check.cc >"$T/elfcheck.log" 2>&1; then
	fail cva6-elf-build "g++ -Wall -Wextra -Werror: $(head -c 400 "$T/elfcheck.log")"
else
	pass cva6-elf-build
	for e in "$BUILD"/images/*.elf; do elf_check "$(basename "$e" .elf)" "$e"; done
	# both classes, two segments, .bss, a local and a global `dup`
	printf '\t.text\n\t.globl _start\n_start:\tj _start\ndup:\tnop\n\t.data\n\t.globl tohost\ntohost:\t.dword 0x1122334455667788\n\t.bss\nbuf:\t.zero 4096\n' >"$T/a.s"
	printf '\t.data\n\t.globl dup\ndup:\t.word 7\n' >"$T/b.s"
	for m in rv64i:lp64 rv32i:ilp32; do
		if "${CROSS}gcc" -march="${m%:*}" -mabi="${m#*:}" -nostdlib -Wl,-Ttext=0x80000000 -Wl,-Tdata=0x80100000 \
			"$T/a.s" "$T/b.s" -o "$T/two-${m%:*}.elf" 2>"$T/two.log" &&
			[ "$(readelf -lW "$T/two-${m%:*}.elf" | grep -c '^ *LOAD')" = 2 ]; then
			elf_check "two-${m%:*}" "$T/two-${m%:*}.elf"
		else fail "cva6-elf-two-${m%:*}" "could not link a two-segment test ELF: $(head -c 300 "$T/two.log")"; fi
	done
	# what read_elf refuses: exit 1, the reason named
	head -c 3000 "$BUILD/images/cva6.elf" >"$T/short.elf"
	bad=""
	for c in "$T/nope.elf:No such file" "$BUILD/images/cva6.bin:not an ELF file" "$T/short.elf:segment [0-9]* lies past the end of the file"; do
		"$T/elfcheck" "${c%%:*}" "$T" >/dev/null 2>"$T/err"
		rc=$?
		[ "$rc" = 1 ] && grep -q "^cva6_elf: ${c%%:*}: .*${c#*:}" "$T/err" || bad="$bad ${c##*/} (exit $rc: $(head -c 100 "$T/err"))"
	done
	if [ -z "$bad" ]; then pass cva6-elf-refuses; else fail cva6-elf-refuses "$bad"; fi
fi

# A log the stand-ins replay: a real run of the M-mode image on hostsim.
cat >"$T/tiny.cfg" <<'EOF'
suites=lat
reps=1
warmups=0
lat_max=1K
lat_loads=100
lat_strides=64
lat_random=0
EOF
"$BUILD/bin/rvmess" config "$BUILD/images/virt.elf" --file "$T/tiny.cfg" -o "$T/tiny.elf" >/dev/null &&
	"$BUILD/bin/hostsim" "$T/tiny.elf" >"$T/replay.log" 2>/dev/null
grep -q '@RVM [0-9]* end .*status=ok' "$T/replay.log" || { fail replay-log "hostsim gave no clean log to replay"; exit 1; }

# Can this machine run a command without network access (run.sh's
# `unshare -n`, or `unshare -rn` for a user other than root)?  If not,
# run.sh refuses RTL runs without --network, and the netns cases are skipped.
NETOPT=() isolate=1
unshare -n true 2>/dev/null || unshare -rn true 2>/dev/null || { isolate=0 NETOPT=(--network); }
OURNS=$(readlink /proc/$$/ns/net)

# The stand-in harness: records where and how it ran (directory, arguments,
# network namespace, its interfaces, the loopback's state), optionally (when $T/listen
# exists) listens on a TCP port on all interfaces as the real harness's
# remote-bitbang server does and waits until the test has tried to connect
# to it, prints the log, then runs until SIGTERM, on which it reports its
# cycles the way ariane_tb.cpp does (its SIGTERM handler stops fesvr, which
# ends the main loop: "... *** SUCCESS *** (tohost = 0) after N cycles").
cat >"$T/listen.py" <<'PY'
import os, socket, time
s = socket.socket()
s.bind(("0.0.0.0", 0))
s.listen(4)
port = s.getsockname()[1]
socket.create_connection(("127.0.0.1", port), timeout=5).close()  # reachable from inside
open("port.tmp", "w").write("%d\n" % port)
os.rename("port.tmp", "port")
for _ in range(300):
    if os.path.exists("probed"):
        break
    time.sleep(0.1)
PY
cat >"$T/cva6/work-ver/Variane_testharness" <<SH
#!/usr/bin/env bash
pwd >where
printf '%s\n' "\$@" >args
echo "\${RVMESS_MESS_LOG-}" >messlog
readlink /proc/self/ns/net >netns
awk -F: 'NR > 2 { gsub(/ /, "", \$1); print \$1 }' /proc/net/dev >ifaces
ip -o link show lo >lo 2>&1
trap 'date +%s.%N >stopped; echo "\${@: -1} *** SUCCESS *** (tohost = 0) after 7654321 cycles" >&2; exit 0' TERM
[ -f "$T/listen" ] && python3 "$T/listen.py"
cat "$T/replay.log"
date +%s.%N >ended
while :; do sleep 0.1; done
SH
chmod +x "$T/cva6/work-ver/Variane_testharness"
refused cva6-no-tohost "has no tohost symbol" --target cva6 --cva6 "$T/cva6" --image "$BUILD/images/virt.elf"

# spike.elf has the HTIF tohost the real harness needs
# --runs: the run directory is made after the target's command line is first
# put together.  The end record stops the harness at once: no grace period
# (RTL_END_GRACE, 10 s here, is for --fesvr-poll).
RTL_END_GRACE=100 $RUN --target cva6 --cva6 "$T/cva6" --image "$BUILD/images/spike.elf" --runs "$T/cr" --timeout 60 \
	"${NETOPT[@]}" >"$T/out" 2>&1
rc=$?
ln -sfn "$(readlink -f "$T/cr/latest")" "$T/c"
cyc=$(sed -n 's/^cycles: //p' "$T/c/sim.txt" 2>/dev/null)
wall=$(sed -n 's/^wall_seconds: //p' "$T/c/sim.txt" 2>/dev/null)
rate=$(sed -n 's/^cycles_per_second: //p' "$T/c/sim.txt" 2>/dev/null)
lag() { # DIR: seconds from the stand-in's end of the log to its SIGTERM
	awk -v a="$(cat "$1/ended" 2>/dev/null)" -v b="$(cat "$1/stopped" 2>/dev/null)" \
		'BEGIN { if (a != "" && b != "") printf "%.1f", b - a }'
}
lag=$(lag "$T/c")
if [ "$rc" = 0 ] && grep -q "was stopped" "$T/out" && [ "$cyc" = 7654321 ] &&
	grep -qx "ended: stopped at the end record" "$T/c/sim.txt" &&
	cmp -s "$T/replay.log" "$T/c/console.log" && [ -n "$lag" ] && awk -v l="$lag" 'BEGIN { exit !(l < 5) }' &&
	awk -v r="$rate" -v w="$wall" 'BEGIN { x = 7654321 / w; exit !(w > 0 && r > 0.95 * x && r < 1.05 * x) }'; then
	pass "cva6-stop-at-end (stopped ${lag} s after the end record)"
else fail cva6-stop-at-end "exit $rc, cycles '$cyc' (want 7654321), rate '$rate' over '$wall' s, stopped '$lag' s after the end record (want < 5: no grace); $(tr '\n' '|' <"$T/c/sim.txt" 2>/dev/null) $(tail -5 "$T/out" | tr '\n' '|')"; fi
if [ "$(cat "$T/c/where" 2>/dev/null)" = "$(cd "$T/c" && pwd -P)" ] &&
	[ "$(tail -n 1 "$T/c/args" 2>/dev/null)" = "$(realpath "$BUILD/images/spike.elf")" ] &&
	[ "$(grep -c '^+debug_disable=1$' "$T/c/args")" = 1 ]; then
	pass cva6-run-dir
else fail cva6-run-dir "ran in '$(cat "$T/c/where" 2>/dev/null)' with '$(tr '\n' ' ' <"$T/c/args" 2>/dev/null)' (want +debug_disable=1 and the image last)"; fi

# --fesvr-poll: no +debug_disable; the harness gets RTL_END_GRACE (1 s here)
# to end by itself before it is stopped
RTL_END_GRACE=10 $RUN --target cva6 --cva6 "$T/cva6" --image "$BUILD/images/spike.elf" --out "$T/cf" --timeout 60 \
	--fesvr-poll "${NETOPT[@]}" >"$T/out" 2>&1
rc=$?
lag=$(lag "$T/cf")
if [ "$rc" = 0 ] && [ -s "$T/cf/args" ] && ! grep -q debug_disable "$T/cf/args" && [ -n "$lag" ] &&
	awk -v l="$lag" 'BEGIN { exit !(l >= 1) }' && grep -qx "cycles: 7654321" "$T/cf/sim.txt" &&
	grep -qx "ended: stopped at the end record after 1 s for it to end by itself" "$T/cf/sim.txt"; then
	pass "cva6-fesvr-poll (stopped ${lag} s after the end record)"
else fail cva6-fesvr-poll "exit $rc, args '$(tr '\n' ' ' <"$T/cf/args" 2>/dev/null)', stopped '$lag' s after the end record (want >= 1); $(tr '\n' '|' <"$T/cf/sim.txt" 2>/dev/null)"; fi

# No network: the harness runs in a namespace of its own with only the
# loopback interface, up; its listening port is out of reach from here (and
# within reach with --network, which needs no unshare)
probe() { # OUTDIR -> reach=yes|no|none: the stand-in's port tried from here
	local port=""
	for _ in $(seq 1 150); do [ -s "$1/port" ] && break; sleep 0.1; done
	port=$(cat "$1/port" 2>/dev/null)
	reach=none
	if [ -n "$port" ]; then
		if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then reach=yes; else reach=no; fi
	fi
	touch "$1/probed"
}
mkdir -p "$T/nons"
printf '#!/bin/sh\necho "unshare: unshare failed: Operation not permitted" >&2\nexit 1\n' >"$T/nons/unshare"
chmod +x "$T/nons/unshare"
command -v python3 >/dev/null && touch "$T/listen"
if [ "$isolate" = 0 ]; then
	skip cva6-netns "this machine runs nothing without network access (neither unshare -n nor unshare -rn works)"
	skip cva6-netns-listen "this machine runs nothing without network access"
else
	$RUN --target cva6 --cva6 "$T/cva6" --image "$BUILD/images/spike.elf" --out "$T/cn" --timeout 60 >"$T/out" 2>&1 &
	rpid=$!
	reach=""
	[ -f "$T/listen" ] && probe "$T/cn"
	wait "$rpid"
	rc=$?
	if [ "$rc" = 0 ] && [ -s "$T/cn/netns" ] && [ "$(cat "$T/cn/netns")" != "$OURNS" ] &&
		[ "$(cat "$T/cn/ifaces" 2>/dev/null)" = lo ] && grep -q '<LOOPBACK,UP' "$T/cn/lo" &&
		grep -q '^network: none (unshare -r\{0,1\}n: ' "$T/cn/run.txt"; then
		pass "cva6-netns ($(sed -n 's/^network: none (\(unshare [-a-z]*\).*/\1/p' "$T/cn/run.txt"))"
	else fail cva6-netns "exit $rc; namespace '$(cat "$T/cn/netns" 2>/dev/null)' (ours $OURNS), interfaces '$(tr '\n' ' ' <"$T/cn/ifaces" 2>/dev/null)', lo '$(head -c 80 "$T/cn/lo" 2>/dev/null)', $(grep '^network' "$T/cn/run.txt" 2>/dev/null); $(tail -3 "$T/out" | tr '\n' '|')"; fi
	if [ ! -f "$T/listen" ]; then
		skip cva6-netns-listen "python3 not installed (the stand-in's TCP server)"
	elif [ "$reach" = no ]; then pass cva6-netns-listen
	else fail cva6-netns-listen "the stand-in's TCP server (listening on all interfaces) was reachable from here or not up: '$reach'"; fi
fi
rm -rf "$T/runs"
PATH="$T/nons:$PATH" $RUN --runs "$T/runs" --target cva6 --cva6 "$T/cva6" --image "$BUILD/images/spike.elf" >"$T/out" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q "cannot run the RTL model without network access" "$T/out" && grep -q -- "--network" "$T/out" &&
	[ ! -e "$T/runs" ]; then
	pass cva6-no-network-refused
else fail cva6-no-network-refused "exit $rc, want 2 with a message naming --network and no run directory; got: $(head -c 300 "$T/out" | tr '\n' '|')"; fi
PATH="$T/nons:$PATH" $RUN --target cva6 --cva6 "$T/cva6" --image "$BUILD/images/spike.elf" --out "$T/cw" --timeout 60 \
	--network >"$T/out" 2>&1 &
rpid=$!
reach=skipped
[ -f "$T/listen" ] && probe "$T/cw"
wait "$rpid"
rc=$?
if [ "$rc" = 0 ] && [ "$(cat "$T/cw/netns" 2>/dev/null)" = "$OURNS" ] && grep -qx "network: the host's (--network)" "$T/cw/run.txt" &&
	{ [ ! -f "$T/listen" ] || [ "$reach" = yes ]; }; then
	pass "cva6-network (the stand-in's server reachable from here: $reach)"
else fail cva6-network "exit $rc; namespace '$(cat "$T/cw/netns" 2>/dev/null)' (ours $OURNS), reachable '$reach', $(grep '^network' "$T/cw/run.txt" 2>/dev/null); $(tail -3 "$T/out" | tr '\n' '|')"; fi
rm -f "$T/listen"

# ---- OpenPiton -------------------------------------------------------------------
P=$T/piton
refused openpiton-needs-root "needs --piton-root DIR" --target openpiton
refused openpiton-bad-tiles "--tiles wants XxY" --target openpiton --piton-root "$P" --tiles 2by1
refused openpiton-zero-tiles "--tiles wants XxY" --target openpiton --piton-root "$P" --tiles 0x1
mkdir -p "$P"
refused openpiton-not-checkout "is not an OpenPiton checkout" --target openpiton --piton-root "$P"
mkdir -p "$P/piton/tools/bin" "$P/build/manycore/b2/obj_dir"
echo 'export PATH=$PITON_ROOT/piton/tools/bin:$PATH' >"$P/piton/piton_settings.bash"
# The stand-in sims: records where and how it ran, writes the log to
# fake_uart.log a record at a time, then (by $P/mode) runs on like a
# simulation that does not end (its child "model" sleeps), or writes the
# verdict to status.log and sims.log's last line as real sims does.
cat >"$P/piton/tools/bin/sims" <<EOF
#!/usr/bin/env bash
pwd >where
readlink /proc/self/ns/net >netns
printf '%s\n' "\$@" >args
echo "\${RVMESS_MESS_LOG-}" >messlog
: >fake_uart.log
while IFS= read -r l; do printf '%s\n' "\$l" >>fake_uart.log; sleep 0.02; done <"$T/replay.log"
case \$(cat "$P/mode") in
hang) sleep 60 & echo \$! >model.pid; wait ;;
pass) echo "12345000: Simulation -> PASS (HIT GOOD TRAP)"; printf 'Diag: sims %30s\\n' PASS >status.log ;;
fail) printf 'Diag: sims %30s\\n' "FAIL (HIT BAD TRAP)" >status.log ;;
metro) echo "ticks: 12345000 , cycles: 24690" ;;
esac
EOF
chmod +x "$P/piton/tools/bin/sims"
refused openpiton-unbuilt "no built Verilator model $P/build/manycore/b2/obj_dir/Vcmp_top" \
	--target openpiton --piton-root "$P" --piton-build b2 --tiles 2x1
printf '#!/bin/sh\n' >"$P/build/manycore/b2/obj_dir/Vcmp_top"
chmod +x "$P/build/manycore/b2/obj_dir/Vcmp_top"
printf '`define RTL_TILE0\n`define RTL_ARIANE0\n' >"$P/build/manycore/b2/config.v"
refused openpiton-tiles-mismatch "built for 1 tile(s), not 2x1" \
	--target openpiton --piton-root "$P" --piton-build b2 --tiles 2x1
printf '`define RTL_TILE0\n`define RTL_TILE1\n' >"$P/build/manycore/b2/config.v"

piton() { # MODE OUT
	echo "$1" >"$P/mode"
	$RUN --target openpiton --piton-root "$P" --piton-build b2 --tiles 2x1 --image "$BUILD/images/virt.elf" "${NETOPT[@]}" \
		--out "$2" --timeout 50 >"$T/out" 2>&1
}
t0=$(date +%s)
piton hang "$T/p"
rc=$? t=$(($(date +%s) - t0))
mpid=$(cat "$T/p/sims/model.pid" 2>/dev/null)
# a stopped process may linger a moment until it is reaped
for _ in $(seq 1 30); do [ -n "$mpid" ] && kill -0 "$mpid" 2>/dev/null || break; sleep 0.1; done
if [ "$rc" = 0 ] && [ "$t" -lt 40 ] && grep -q "was stopped" "$T/out" && cmp -s "$T/replay.log" "$T/p/console.log" &&
	grep -q '^harts: 2$' "$T/p/run.txt" && [ -n "$mpid" ] && ! kill -0 "$mpid" 2>/dev/null; then
	pass openpiton-stream
else
	fail openpiton-stream "exit $rc after ${t}s, model pid '$mpid'; $(tail -5 "$T/out" | tr '\n' '|')"
	[ -n "$mpid" ] && kill "$mpid" 2>/dev/null
fi
if [ "$isolate" = 0 ]; then
	skip openpiton-netns "this machine runs nothing without network access"
elif [ -s "$T/p/sims/netns" ] && [ "$(cat "$T/p/sims/netns")" != "$OURNS" ] && grep -q '^network: none' "$T/p/run.txt"; then
	pass openpiton-netns
else fail openpiton-netns "sims ran in namespace '$(cat "$T/p/sims/netns" 2>/dev/null)' (ours $OURNS); $(grep '^network' "$T/p/run.txt" 2>/dev/null)"; fi
echo hang >"$P/mode"
$RUN --target openpiton --piton-root "$P" --piton-build b2 --tiles 2x1 --image "$BUILD/images/virt.elf" "${NETOPT[@]}" \
	--out "$T/pi" --timeout 50 >"$T/out" 2>&1 &
rpid=$!
for _ in $(seq 1 100); do [ -s "$T/pi/sims/model.pid" ] && break; sleep 0.1; done
mpid=$(cat "$T/pi/sims/model.pid" 2>/dev/null)
kill -TERM "$rpid"
wait "$rpid"
rc=$?
for _ in $(seq 1 30); do [ -n "$mpid" ] && kill -0 "$mpid" 2>/dev/null || break; sleep 0.1; done
if [ "$rc" = 143 ] && grep -q "interrupted; target stopped" "$T/out" && [ -n "$mpid" ] && ! kill -0 "$mpid" 2>/dev/null; then
	pass openpiton-interrupted
else
	fail openpiton-interrupted "exit $rc, model pid '$mpid' $( [ -n "$mpid" ] && kill -0 "$mpid" 2>/dev/null && echo still running); $(tail -3 "$T/out" | tr '\n' '|')"
	[ -n "$mpid" ] && kill "$mpid" 2>/dev/null
fi
piton pass "$T/pp"
rc=$?
# 12345000 ps at 500 ps a clock (my_top.cpp: 250 ps an edge)
if [ "$rc" = 0 ] && grep -q "target exited with status 0" "$T/out" && grep -q "piton-sim.sh: PASS" "$T/pp/target.stderr" &&
	grep -qx "cycles: 24690" "$T/pp/sim.txt"; then
	pass openpiton-pass
else fail openpiton-pass "exit $rc; $(tail -5 "$T/out" | tr '\n' '|')"; fi
piton fail "$T/pf"
rc=$?
if [ "$rc" = 1 ] && grep -q "target exited with status 1" "$T/out" &&
	grep -q "piton-sim.sh: FAIL (HIT BAD TRAP)" "$T/pf/target.stderr" && cmp -s "$T/replay.log" "$T/pf/console.log"; then
	pass openpiton-fail
else fail openpiton-fail "exit $rc; $(tail -5 "$T/out" | tr '\n' '|')"; fi
# ---- Metro-MPI (--metro) ----
refused openpiton-metro-unbuilt "no built Metro-MPI models" \
	--target openpiton --metro --piton-root "$P" --piton-build b2 --tiles 2x1
for m in metro_chipset/b2/obj_dir/Vmetro_chipset metro_tile/rel-0.1/obj_dir/Vmetro_tile; do
	mkdir -p "$P/build/${m%/*}" && printf '#!/bin/sh\n' >"$P/build/$m" && chmod +x "$P/build/$m"
done
echo metro >"$P/mode"
$RUN --target openpiton --metro --piton-root "$P" --piton-build b2 --tiles 2x1 --image "$BUILD/images/virt.elf" "${NETOPT[@]}" \
	--out "$T/pm" --timeout 50 >"$T/out" 2>&1
rc=$?
a=$T/pm/sims/args
if [ "$rc" = 0 ] && grep -qx -- -sys=metro_chipset "$a" && grep -qx -- "-model_dir=$(cd "$P" && pwd)/build" "$a" &&
	grep -qx -- -build_id=b2 "$a" && ! grep -q -- -finish_mask "$a" && grep -qx "cycles: 24690" "$T/pm/sim.txt" &&
	grep -q "Metro-MPI: ended (end status=ok) after 24690 cycles" "$T/pm/target.stderr" && cmp -s "$T/replay.log" "$T/pm/console.log"; then
	pass openpiton-metro-run
else fail openpiton-metro-run "exit $rc; sims ran with: $(tr '\n' ' ' <"$a" 2>/dev/null); $(tail -3 "$T/out" | tr '\n' '|')"; fi
grep -v ' end ' "$T/replay.log" >"$T/replay.full" && mv "$T/replay.log" "$T/replay.keep" && mv "$T/replay.full" "$T/replay.log"
$RUN --target openpiton --metro --piton-root "$P" --piton-build b2 --tiles 2x1 --image "$BUILD/images/virt.elf" "${NETOPT[@]}" \
	--out "$T/pm2" --timeout 50 >"$T/out" 2>&1
rc=$?
mv "$T/replay.keep" "$T/replay.log"
if [ "$rc" != 0 ] && grep -q "Metro-MPI: no clean end record" "$T/pm2/target.stderr"; then
	pass openpiton-metro-no-end
else fail openpiton-metro-no-end "exit $rc; $(tail -3 "$T/pm2/target.stderr" "$T/out" | tr '\n' '|')"; fi

a=$T/p/sims/args
if [ "$(cat "$T/p/sims/where" 2>/dev/null)" = "$(cd "$T/p/sims" 2>/dev/null && pwd)" ] &&
	grep -qx -- -x_tiles=2 "$a" && grep -qx -- -y_tiles=1 "$a" && grep -qx -- -finish_mask=0x11 "$a" &&
	grep -qx -- -build_id=b2 "$a" && grep -qx -- -vlt_run "$a" && grep -qx rvmess.riscv "$a" &&
	grep -qx -- -max_cycle=2000000000 "$a" && grep -qx -- -rtl_timeout=1000000000 "$a" &&
	cmp -s "$BUILD/images/virt.elf" "$T/p/sims/rvmess.riscv"; then
	pass openpiton-sims-args
else fail openpiton-sims-args "sims ran with: $(tr '\n' ' ' <"$a" 2>/dev/null)"; fi

# ---- the RTL memory: --mess-curves, --mem-fixed ----
PB=(--target openpiton --piton-root "$P" --piton-build b2 --tiles 2x1 --image "$BUILD/images/virt.elf")
FAM=curves/hostsim-ddr4-3200
refused rtl-mem-hostsim "are for the RTL targets" --target hostsim --mess-curves "$FAM"
refused rtl-mem-both "exclude each other" "${PB[@]}" --mess-curves "$FAM" --mem-fixed 5
refused rtl-mem-bad-fixed "--mem-fixed wants a number" "${PB[@]}" --mem-fixed x
refused rtl-mem-bad-mhz "--mess-mhz wants a whole number" "${PB[@]}" --mess-curves "$FAM" --mess-mhz 0
refused rtl-mem-bad-onchip "--mess-onchip wants ns" "${PB[@]}" --mess-curves "$FAM" --mess-onchip -3
refused rtl-mem-no-family "$T/nofam: no such file" "${PB[@]}" --mess-curves "$T/nofam"
mkdir -p "$T/badfam" && printf '0 100\n' >"$T/badfam/bwlat_100.txt"
refused rtl-mem-bad-family "the family is refused" "${PB[@]}" --mess-curves "$T/badfam"
refused rtl-mem-not-built "was not built with the Mess stage" "${PB[@]}" --mess-curves "$FAM"
printf '`define RTL_TILE0\n`define RTL_TILE1\n`define RVMESS_MESS\n' >"$P/build/manycore/b2/config.v"
echo pass >"$P/mode"
$RUN "${PB[@]}" "${NETOPT[@]}" --out "$T/pmess" --timeout 50 --mess-curves "$FAM" --mess-mhz 800 --mess-onchip 12.5 \
	--mess-window 4000 >"$T/out" 2>&1
rc=$?
a=$T/pmess/sims/args
fam=$(realpath "$FAM")
if [ "$rc" = 0 ] && grep -qx -- "-sim_run_args=+rvmess_mess_curves=$fam" "$a" && grep -qx -- -sim_run_args=+rvmess_mess_mhz=800 "$a" &&
	grep -qx -- -sim_run_args=+rvmess_mess_onchip_ps=12500 "$a" && grep -qx -- -sim_run_args=+rvmess_mess_window=4000 "$a" &&
	grep -qx "memory: mess $fam at 800 MHz, on-chip 12.5 ns, window 4000 (rvmess_mem_delay)" "$T/pmess/run.txt" &&
	[ "$(cat "$T/pmess/sims/messlog")" = "$(realpath "$T/pmess")/mess-windows.tsv" ]; then
	pass rtl-mem-mess-openpiton
else fail rtl-mem-mess-openpiton "exit $rc; sims ran with: $(tr '\n' ' ' <"$a" 2>/dev/null); $(grep memory "$T/pmess/run.txt"); RVMESS_MESS_LOG='$(cat "$T/pmess/sims/messlog" 2>/dev/null)'"; fi
$RUN "${PB[@]}" "${NETOPT[@]}" --out "$T/pfix" --timeout 50 --mem-fixed 120 >"$T/out" 2>&1
rc=$?
a=$T/pfix/sims/args
if [ "$rc" = 0 ] && grep -qx -- -sim_run_args=+rvmess_mem_fixed=120 "$a" && ! grep -q rvmess_mess "$a" &&
	[ -z "$(cat "$T/pfix/sims/messlog")" ] &&
	grep -qx "memory: fixed 120 cycles (rvmess_mem_delay)" "$T/pfix/run.txt"; then
	pass rtl-mem-fixed-openpiton
else fail rtl-mem-fixed-openpiton "exit $rc; sims ran with: $(tr '\n' ' ' <"$a" 2>/dev/null)"; fi
# CVA6: refused on a harness without the stage, plusargs on one with it
refused rtl-mem-cva6-not-built "has no Mess delay stage" --target cva6 --cva6 "$T/cva6" --image "$BUILD/images/spike.elf" --mem-fixed 9
printf '# rvmess_mem_delay\n' >>"$T/cva6/work-ver/Variane_testharness"
$RUN --target cva6 --cva6 "$T/cva6" --image "$BUILD/images/spike.elf" --out "$T/cmess" --timeout 60 "${NETOPT[@]}" \
	--mess-curves "$FAM" >"$T/out" 2>&1
rc=$?
a=$T/cmess/args
if [ "$rc" = 0 ] && grep -qx -- "+rvmess_mess_curves=$fam" "$a" && grep -qx -- +rvmess_mess_mhz=1000 "$a" &&
	grep -qx -- +rvmess_mess_onchip_ps=0 "$a" && ! grep -q rvmess_mess_window "$a" &&
	[ "$(cat "$T/cmess/messlog")" = "$(realpath "$T/cmess")/mess-windows.tsv" ]; then
	pass rtl-mem-mess-cva6
else fail rtl-mem-mess-cva6 "exit $rc; the harness ran with: $(tr '\n' ' ' <"$a" 2>/dev/null)"; fi
# ---- tools/trace-prof.sh: cycles by function from an instruction trace -------------------
IMGV=$BUILD/images/virt.elf
NMT=riscv64-unknown-elf-nm
command -v "$NMT" >/dev/null || NMT=nm
la=$("$NMT" "$IMGV" | awk '$3 == "lead" { print $1; exit }') pa=$("$NMT" "$IMGV" | awk '$3 == "pm_time" { print $1; exit }')
ca=$("$NMT" "$IMGV" | awk '$3 == "rvm_crc32" { print $1; exit }')
if [ -n "$la" ] && [ -n "$pa" ] && [ -n "$ca" ]; then
	A=$((16#$la)) B=$((16#$pa)) C=$((16#$ca))
	# inside rvm_crc32 (not at its start: the stack's bottom), a call to lead (its
	# first instruction), one to pm_time, back into lead's middle and into rvm_crc32's
	# (the returns); one line before the window and one after; a line whose cycle goes
	# back (another hart's block in OpenPiton's shared file) is left out and counted
	{
		echo "header line the trace may have"
		printf '%20d 0x%x M (0x00000013) DASM(00000013)\n' 90 $((A + 16)) 100 $((C + 4)) 105 $A 110 $((A + 4)) \
			120 $B 150 $((B + 4)) 200 $((A + 8)) 160 $((C + 12)) 210 $((A + 12)) 220 $((C + 8)) 400 $((A + 16))
	} >"$T/trace.dasm"
	tools/trace-prof.sh "$IMGV" "$T/trace.dasm" 100 220 >"$T/prof.out" 2>&1
	rc=$?
	# 100-220: rvm_crc32 self 5 and inclusive all 120; lead self 5+10+10+10, inclusive 115,
	# called once; pm_time 30+50, called once
	if [ "$rc" = 0 ] && grep -Eq '^ +5   4\.2% +120 100\.0% +0  rvm_crc32$' "$T/prof.out" &&
		grep -Eq '^ +35  29\.2% +115  95\.8% +1  lead$' "$T/prof.out" &&
		grep -Eq '^ +80  66\.7% +80  66\.7% +1  pm_time$' "$T/prof.out" &&
		grep -qx 'total 120 from 100 to 220' "$T/prof.out" && grep -q '^trace-prof.sh: 1 lines left out' "$T/prof.out" &&
		[ "$(wc -l <"$T/prof.out")" = 5 ]; then
		pass trace-prof
	else fail trace-prof "exit $rc: $(tr '\n' '|' <"$T/prof.out")"; fi
	tools/trace-prof.sh "$IMGV" "$T/trace.dasm" 500 600 >"$T/prof.out" 2>&1
	rc=$?
	if [ "$rc" = 2 ] && grep -q 'no trace line in the window' "$T/prof.out"; then pass trace-prof-empty
	else fail trace-prof-empty "exit $rc: $(tr '\n' '|' <"$T/prof.out")"; fi
else fail trace-prof "no lead, pm_time or rvm_crc32 symbol in $IMGV"; fi

# ---- tools/trace-chase.sh: the chase's load-to-use times from the trace --------------------
ka=$("$NMT" "$IMGV" | awk '$3 == "rvm_chase" { print $1; exit }')
if [ -n "$ka" ]; then
	K=$((16#$ka))
	# four loads of rvm_chase (ld a0,0(a0)) 100, 96 and 104 cycles apart; then an
	# add at PC + 4 (not a load: not counted), a line another hart wrote earlier
	# (left out), and a load after a jump back to the kernel's start (no pair)
	{
		printf '%20d 0x%x M (0x00053503) DASM(00053503)\n' 100 $K 200 $((K + 4)) 296 $((K + 8)) 400 $((K + 12))
		printf '%20d 0x%x M (0xfff58593) DASM(fff58593)\n' 410 $((K + 16))
		printf '%20d 0x%x M (0x00053503) DASM(00053503)\n' 300 $((K + 20)) 500 $K
	} >"$T/chase.dasm"
	tools/trace-chase.sh "$IMGV" "$T/chase.dasm" >"$T/tc.out" 2>"$T/tc.err"
	rc=$?
	tools/trace-chase.sh "$IMGV" "$T/chase.dasm" 0 1000 --last 2 --bin 8 >"$T/tc2.out" 2>/dev/null
	rc2=$?
	if [ "$rc" = 0 ] && [ "$rc2" = 0 ] &&
		cmp -s "$T/tc.out" <(printf '%s\n' 'loads 3 mean 100.0 min 96 p10 96 p50 100 p90 104 max 104' \
			'96..99 1 33.3%' '100..103 1 33.3%' '104..107 1 33.3%') &&
		grep -q '^trace-chase.sh: 1 lines left out' "$T/tc.err" &&
		cmp -s "$T/tc2.out" <(printf '%s\n' 'loads 2 mean 100.0 min 96 p10 96 p50 96 p90 104 max 104' \
			'96..103 1 50.0%' '104..111 1 50.0%'); then
		pass trace-chase
	else fail trace-chase "exit $rc/$rc2: $(cat "$T/tc.out" "$T/tc.err" "$T/tc2.out" | tr '\n' '|')"; fi
	tools/trace-chase.sh "$IMGV" "$T/chase.dasm" 600 700 >"$T/tc.out" 2>&1
	rc=$?
	if [ "$rc" = 2 ] && grep -q 'no chase load in the window' "$T/tc.out"; then pass trace-chase-empty
	else fail trace-chase-empty "exit $rc: $(tr '\n' '|' <"$T/tc.out")"; fi
else fail trace-chase "no rvm_chase symbol in $IMGV"; fi
finish
