#!/usr/bin/env bash
# hostsim integration tests: ISA/trap/device programs (hostsim/tests/isa/*.S,
# built into build/tests/isa/ by `make unit-bins` / `make isa-tests`), both
# with memsys timing and with --no-timing; determinism; refusals of bad ELF
# files, options and config files; and the rvmess image build/images/virt.elf
# with 1, 4 and 16 harts when it exists.
#
# Prints PASS/FAIL/SKIP <case> lines; exits 1 if any case failed.
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
SIM=$BUILD/bin/hostsim
ISA=$BUILD/tests/isa
scratch hostsim
VIRT_TIMEOUT=${VIRT_TIMEOUT:-120}

# Build what we need if it is missing (make test has built it already).
need_build=0
[ -x "$SIM" ] || need_build=1
for s in hostsim/tests/isa/*.S; do
	[ -e "$ISA/$(basename "$s" .S).elf" ] || need_build=1
done
if [ $need_build = 1 ]; then
	make --no-print-directory -s "$SIM" isa-tests >"$TMP/build.log" 2>&1 || {
		fail build "make failed: $(tail -n 3 "$TMP/build.log" | tr '\n' ' ')"
		exit 1
	}
fi

hdr() { # file key -> value of "# key: value"
	sed -n "s/^# $2: //p" "$1" | head -n 1
}

# ---- ISA / trap / device programs ----------------------------------------
for src in hostsim/tests/isa/*.S; do
	name=$(basename "$src" .S)
	elf=$ISA/$name.elf
	args=$(hdr "$src" args)
	want_rc=$(hdr "$src" expect-exit); want_rc=${want_rc:-0}
	want_con=$(hdr "$src" expect-console)
	want_err=$(hdr "$src" expect-stderr)
	modes=$(hdr "$src" modes); modes=${modes:-timing functional}
	for mode in timing functional; do
		case " $modes " in *" $mode "*) ;; *) continue ;; esac
		flag=""; [ $mode = functional ] && flag=--no-timing
		# shellcheck disable=SC2086
		timeout 60 "$SIM" $flag $args "$elf" >"$TMP/out" 2>"$TMP/err"
		rc=$?
		case=isa/$name/$mode
		if [ "$rc" != "$want_rc" ]; then
			why="exit $rc, want $want_rc"
			if [ "$want_rc" = 0 ] && [ "$rc" -ge 4 ] && [ "$rc" -lt 124 ]; then
				why="$why (check $rc failed)"
			fi
			fail "$case" "$why: $(head -c 200 "$TMP/err" | tr '\n' ' ')"
		elif [ -n "$want_con" ] && ! { printf '%b' "$want_con" >"$TMP/want"; cmp -s "$TMP/want" "$TMP/out"; }; then
			fail "$case" "console '$(head -c 80 "$TMP/out" | tr '\n' '|')', want '$want_con'"
		elif [ -n "$want_err" ] && ! grep -qF -- "$want_err" "$TMP/err"; then
			fail "$case" "stderr lacks '$want_err': $(head -c 200 "$TMP/err" | tr '\n' ' ')"
		else
			pass "$case"
		fi
	done
done

# ---- determinism: two runs byte-identical (console and --stats) ----------
det() { # case args...
	local c=$1; shift
	timeout 60 "$SIM" --stats "$@" >"$TMP/d1" 2>"$TMP/e1"; local r1=$?
	timeout 60 "$SIM" --stats "$@" >"$TMP/d2" 2>"$TMP/e2"; local r2=$?
	grep -v host_seconds "$TMP/e1" >"$TMP/s1"; grep -v host_seconds "$TMP/e2" >"$TMP/s2"
	if [ $r1 != 0 ] || [ $r2 != 0 ]; then
		fail "$c" "exit $r1/$r2"
	elif ! cmp -s "$TMP/d1" "$TMP/d2"; then
		fail "$c" "console output differs"
	elif ! cmp -s "$TMP/s1" "$TMP/s2"; then
		fail "$c" "statistics differ: $(diff "$TMP/s1" "$TMP/s2" | head -n 4 | tr '\n' ' ')"
	elif ! grep -q 'hart 7: instret=' "$TMP/s1" && [ "$c" = determinism/mh_amo ]; then
		fail "$c" "no per-hart stats"
	else
		pass "$c"
	fi
}
det determinism/mh_amo --harts 8 "$ISA/mh_amo.elf"
det determinism/mh_amo-functional --no-timing --harts 8 "$ISA/mh_amo.elf"
det determinism/dev "$ISA/dev.elf"

# memsys/per-hart-events: each hart's accesses reach memsys as its own (its
# L1, its row of counts): in mh_amo on 8 harts every hart's AMOs hit its
# L1 and invalidate the others' copies, so every row of --stats' memsys
# table counts accesses, misses and invalidations received.
timeout 60 "$SIM" --harts 8 --stats "$ISA/mh_amo.elf" >/dev/null 2>"$TMP/pe"
bad=$(awk '/^hart +l1d_access/ { t = 1; next } t && $1 ~ /^[0-9]+$/ { n++; if ($2 < 1000 || $3 < 1000 || $11 < 1000) print "hart " $1 ": " $0 }
	t && $1 !~ /^[0-9]+$/ { t = 0 } END { if (n != 8) print n + 0, "rows" }' "$TMP/pe")
if [ -z "$bad" ]; then pass memsys/per-hart-events; else fail memsys/per-hart-events "$(echo "$bad" | head -n 2 | cut -c1-120 | tr '\n' '|')"; fi

# ---- bad ELF files --------------------------------------------------------
bad_elf() { # case file expected-reason
	timeout 10 "$SIM" "$2" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	if [ $rc != 2 ]; then
		fail "$1" "exit $rc, want 2"
	elif ! grep -F -- "hostsim: $2: " "$TMP/err" | grep -qF -- "$3"; then
		fail "$1" "message '$(head -c 200 "$TMP/err")' is not 'hostsim: $2: ...$3...'"
	else
		pass "$1"
	fi
}
patch_byte() { # file offset hexbyte
	printf "\\x$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
echo "just text" >"$TMP/text.elf"
bad_elf elf/not-elf "$TMP/text.elf" "not an ELF file"
: >"$TMP/empty.elf"
bad_elf elf/empty "$TMP/empty.elf" "not an ELF file"
cp "$ISA/alu.elf" "$TMP/class32.elf"; patch_byte "$TMP/class32.elf" 4 01
bad_elf elf/class32 "$TMP/class32.elf" "not a 64-bit ELF"
cp "$ISA/alu.elf" "$TMP/bigendian.elf"; patch_byte "$TMP/bigendian.elf" 5 02
bad_elf elf/big-endian "$TMP/bigendian.elf" "not a little-endian ELF"
cp "$ISA/alu.elf" "$TMP/x86.elf"; patch_byte "$TMP/x86.elf" 18 3e; patch_byte "$TMP/x86.elf" 19 00
bad_elf elf/wrong-machine "$TMP/x86.elf" "wrong machine 62"
cp "$ISA/alu.elf" "$TMP/rel.elf"; patch_byte "$TMP/rel.elf" 16 01
bad_elf elf/not-executable "$TMP/rel.elf" "not an executable"
head -c 40 "$ISA/alu.elf" >"$TMP/trunc-hdr.elf"
bad_elf elf/truncated-header "$TMP/trunc-hdr.elf" "truncated ELF header"
head -c 300 "$ISA/alu.elf" >"$TMP/trunc.elf"
bad_elf elf/truncated-segment "$TMP/trunc.elf" "truncated file"
if riscv64-unknown-elf-objcopy --change-section-lma '*-0x40000000' "$ISA/alu.elf" "$TMP/low.elf" 2>/dev/null; then
	bad_elf elf/segment-outside-ram "$TMP/low.elf" "outside RAM"
else
	fail elf/segment-outside-ram "objcopy failed"
fi
bad_elf elf/missing-file "$TMP/does-not-exist.elf" "cannot open"

# ---- bad options and config files ----------------------------------------
bad_opt() { # case expected-message args...
	local c=$1 msg=$2; shift 2
	timeout 10 "$SIM" "$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	if [ $rc != 2 ]; then
		fail "$c" "exit $rc, want 2"
	elif ! grep -qF -- "$msg" "$TMP/err"; then
		fail "$c" "message '$(head -c 200 "$TMP/err")' lacks '$msg'"
	else
		pass "$c"
	fi
}
A=$ISA/alu.elf
bad_opt opt/harts-0 "option harts: 0 is out of range 1..64" --harts 0 "$A"
bad_opt opt/harts-65 "option harts: 65 is out of range 1..64" --harts 65 "$A"
bad_opt opt/harts-text "option harts: 'four' is not a number" --harts four "$A"
bad_opt opt/mem-size "option mem-size: '12Q' is not a size" --mem-size 12Q "$A"
bad_opt opt/unknown "unknown option '--frobnicate'" --frobnicate 1 "$A"
# an unknown option last on the line is unknown, not "needs a value"
bad_opt opt/unknown-last "unknown option '--frobnicate'" "$A" --frobnicate
bad_opt opt/unknown-with-value "unknown option '--frobnicate'" --frobnicate=1 "$A"
# an inclusive LLC smaller than the L1D it includes
bad_opt opt/llc-smaller-than-l1 "llc-size 32768 is smaller than l1d-size 65536" --l1d-size 64K --llc-size 32K "$A"
# --version: both host binaries print the checkout's `git describe`
# (the checkout's state may change after the build: -dirty either way)
want_ver=$(git describe --always 2>/dev/null || echo dev)
check_version() { # case binary name
	local v
	if [ ! -x "$2" ]; then
		skip "$1" "$2 not built"
	elif ! v=$(timeout 10 "$2" --version 2>&1); then
		fail "$1" "exit $?: $v"
	elif [ "$v" != "$3 $want_ver" ] && [ "$v" != "$3 $want_ver-dirty" ]; then
		fail "$1" "'$v', want '$3 $want_ver' (or -dirty)"
	else
		pass "$1"
	fi
}
check_version version/hostsim "$SIM" hostsim
check_version version/rvmess "$BUILD/bin/rvmess" rvmess
bad_opt opt/missing-value "option --harts needs a value" "$A" --harts
bad_opt opt/no-image "usage: hostsim" --harts 2
bad_opt opt/two-images "more than one image" "$A" "$A"
bad_opt opt/mem-model "mem-model" --mem-model bogus "$A"
printf 'harts = 2\n# comment\n\nmax-insns=oops\n' >"$TMP/bad1.cfg"
bad_opt config/bad-value "$TMP/bad1.cfg:4: option max-insns: 'oops' is not a number" --config "$TMP/bad1.cfg" "$A"
printf 'harts=2\nwarp-drive=on\n' >"$TMP/bad2.cfg"
bad_opt config/unknown-key "$TMP/bad2.cfg:2: unknown option 'warp-drive'" --config "$TMP/bad2.cfg" "$A"
printf '=3\n' >"$TMP/bad3.cfg"
bad_opt config/missing-key "$TMP/bad3.cfg:1: missing key before '='" --config "$TMP/bad3.cfg" "$A"
printf 'harts=\n' >"$TMP/bad4.cfg"
bad_opt config/empty-value "$TMP/bad4.cfg:1: harts: empty value" --config "$TMP/bad4.cfg" "$A"
bad_opt config/missing-file "$TMP/nope.cfg: cannot open" --config "$TMP/nope.cfg" "$A"
# a good config file: harts=8 makes mh_amo pass (with 1 hart it would hang);
# --stats shows the file's harts and no-timing, and max-insns holds
printf '# test config\nharts = 8\nno-timing\nmax-insns = 50000000\nquantum=16\nstats\n' >"$TMP/good.cfg"
if ! timeout 60 "$SIM" --config "$TMP/good.cfg" "$ISA/mh_amo.elf" >/dev/null 2>"$TMP/err"; then
	fail config/good "exit $?: $(head -c 200 "$TMP/err")"
elif ! grep -qx 'hostsim stats: harts=8 timing=off' "$TMP/err"; then
	fail config/good "stats header '$(head -n 1 "$TMP/err")', want harts=8 timing=off"
elif [ "$(grep -c '^  hart [0-9]*: instret=[1-9]' "$TMP/err")" != 8 ]; then
	fail config/good "want 8 harts that ran: $(grep -c '^  hart ' "$TMP/err") per-hart lines"
elif ! awk '/total: instructions=/ { split($2, a, "="); n = a[2] } END { exit !(n > 0 && n <= 50000000) }' "$TMP/err"; then
	fail config/good "total instructions not in 1..50000000: $(grep total: "$TMP/err")"
else
	pass config/good
fi
# a config file with memsys keys, and the memsys keys on the command line
printf 'llc-size = 1M\nmem-model = fixed\nmem-latency = 50\n' >"$TMP/ms.cfg"
if timeout 20 "$SIM" --config "$TMP/ms.cfg" --stats "$ISA/alu.elf" >/dev/null 2>"$TMP/err" &&
	grep -q 'LLC 1024K.*model fixed' "$TMP/err"; then
	pass config/memsys-keys
else
	fail config/memsys-keys "$(head -c 300 "$TMP/err" | tr '\n' ' ')"
fi
bad_opt opt/freq-ghz "unknown option '--freq-ghz'" --freq-ghz 2 "$A"
# --max-cycles
timeout 20 "$SIM" --max-cycles 5000 "$ISA/limit.elf" >/dev/null 2>"$TMP/err"
rc=$?
if [ $rc = 124 ] && grep -q 'cycle limit reached' "$TMP/err"; then
	pass limit/max-cycles
else
	fail limit/max-cycles "exit $rc: $(head -c 200 "$TMP/err")"
fi
# 64 harts (the maximum) run a program, every one of them; 65 are refused above
if ! timeout 20 "$SIM" --harts 64 --stats "$ISA/alu.elf" >/dev/null 2>"$TMP/err"; then
	fail harts-64 "exit $?: $(head -c 200 "$TMP/err")"
elif ! grep -qx 'hostsim stats: harts=64 timing=on' "$TMP/err"; then
	fail harts-64 "stats header '$(head -n 1 "$TMP/err")', want harts=64 timing=on"
elif [ "$(grep -c '^  hart [0-9]*: instret=[1-9]' "$TMP/err")" != 64 ] || ! grep -q '^  hart 63: ' "$TMP/err"; then
	fail harts-64 "want harts 0..63 each with instructions retired: $(grep -c '^  hart [0-9]*: instret=[1-9]' "$TMP/err")"
else
	pass harts-64
fi
# an S-mode image (the OpenSBI payload) is not run as if it were M-mode code
SBI=$BUILD/images/sbi.elf
if [ ! -e "$SBI" ]; then
	skip smode-image "$SBI not built"
else
	timeout 20 "$SIM" "$SBI" >/dev/null 2>"$TMP/err"
	rc=$?
	if [ $rc != 125 ]; then
		fail smode-image "exit $rc, want 125"
	elif ! grep -qF 'its entry point 0x80200000 is not the start of RAM 0x80000000' "$TMP/err" ||
		! grep -qF 'hostsim runs M-mode images with no firmware below them; use build/images/virt.elf' "$TMP/err"; then
		fail smode-image "message: $(head -c 400 "$TMP/err" | tr '\n' ' ')"
	else
		pass smode-image
	fi
fi
# --console FILE
if timeout 20 "$SIM" --console "$TMP/con.txt" "$ISA/dev.elf" >"$TMP/out" 2>&1 &&
	[ "$(cat "$TMP/con.txt")" = "hostsim uart ok" ] && [ ! -s "$TMP/out" ]; then
	pass console-file
else
	fail console-file "console file '$(head -c 80 "$TMP/con.txt" 2>/dev/null)', stdout '$(head -c 80 "$TMP/out")'"
fi

# ---- the rvmess image ------------------------------------------------------
# virt/harts-1: the image as built, with timing.  The image's default config
# makes every hart wait (spinning) while the lead measures, so N harts cost
# about N times the instructions: virt/harts-4 and -16 run a copy with a
# smaller config (rvmess config) with timing, and the full image runs once
# more functionally (--no-timing) on 4 harts.
VIRT=$BUILD/images/virt.elf
RVMESS=$BUILD/bin/rvmess
run_virt() { # case harts image [hostsim options]
	local c=$1 n=$2 img=$3; shift 3
	timeout "$VIRT_TIMEOUT" "$SIM" --harts "$n" --console "$TMP/virt.log" "$@" "$img" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	if [ $rc != 0 ]; then
		fail "$c" "exit $rc: $(tail -c 300 "$TMP/err" | tr '\n' ' ') console tail: $(tail -n 2 "$TMP/virt.log" 2>/dev/null | tr '\n' ' ')"
		return
	fi
	if ! grep -q '@RVM [0-9]* end h=[0-9]* status=ok' "$TMP/virt.log"; then
		fail "$c" "no 'end status=ok' record: $(grep '@RVM [0-9]* end' "$TMP/virt.log" | head -c 200)"
		return
	fi
	# without rvmess the parse check is left out: the case passes as $c-noparse
	local as=$c
	if [ ! -x "$RVMESS" ]; then
		as=$c-noparse
	else
		if ! "$RVMESS" parse "$TMP/virt.log" -o "$TMP/parse" >"$TMP/parse.out" 2>&1; then
			fail "$c" "rvmess parse failed: $(head -c 300 "$TMP/parse.out" | tr '\n' ' ')"
			return
		fi
		if ! grep -q "harts=$n .* bad=0 .* complete=yes status=ok" "$TMP/parse.out"; then
			fail "$c" "rvmess parse: $(head -n 1 "$TMP/parse.out"), want harts=$n bad=0 complete=yes status=ok"
			return
		fi
	fi
	# what the image saw of the machine: hostsim's defaults (256 MiB RAM at
	# 0x80000000, 10 MHz timebase, 1 GHz clock)
	local hdr
	hdr=$(grep -a -m 1 '@RVM [0-9]* hdr ' "$TMP/virt.log")
	for kv in "harts=$n" mem_base=0x80000000 mem_size=268435456 timebase=10000000 mode=M fdt=ok; do
		case " $hdr " in *" $kv "*) ;; *) fail "$c" "hdr record lacks $kv: $hdr"; return ;; esac
	done
	local hz
	hz=$(echo "$hdr" | sed -n 's/.* cpu_hz=\([0-9]*\) .*/\1/p')
	if [ -z "$hz" ] || [ "$hz" -lt 990000000 ] || [ "$hz" -gt 1010000000 ]; then
		fail "$c" "cpu_hz '$hz' is not 1 GHz within 1 %"
		return
	fi
	pass "$as"
}
if [ ! -e "$VIRT" ]; then
	for c in virt/harts-1 virt/harts-1-l1d virt/harts-4 virt/harts-16 virt/harts-4-functional determinism/virt-harts-4; do
		skip "$c" "$VIRT not built"
	done
else
	run_virt virt/harts-1 1 "$VIRT"
	# the image's lat suite finds hostsim's default L1D: 32 KiB, 4-cycle hits (1 GHz)
	if [ ! -x "$RVMESS" ]; then
		skip virt/harts-1-l1d "$RVMESS not built"
	elif grep -qE '^L1 +[0-9]+ B \.\. 32 KiB +32 KiB +4\.[0-9]+ +(3\.9[0-9]*|4\.0[0-9]*) ' "$TMP/parse/cache_levels.txt" 2>/dev/null; then
		pass virt/harts-1-l1d
	else
		fail virt/harts-1-l1d "cache levels: $(head -n 3 "$TMP/parse/cache_levels.txt" 2>/dev/null | tr '\n' '|'), want L1 32 KiB at about 4 cycles/load"
	fi
	small=$VIRT
	if [ ! -x "$RVMESS" ]; then
		for c in harts-4 harts-16; do skip "virt/$c" "$RVMESS not built (needed for the small config)"; done
	elif "$RVMESS" config "$VIRT" suites=chase,lat,par reps=1 warmups=0 \
		chase_size=1048576 chase_loads=5000 chase_all_harts=0 lat_max=262144 lat_loads=2000 \
		lat_strides=64,256 par_max=262144 par_kmax=4 -o "$TMP/virt-small.elf" >"$TMP/cfg.out" 2>&1; then
		small=$TMP/virt-small.elf
		run_virt virt/harts-4 4 "$small"
		run_virt virt/harts-16 16 "$small"
	else
		for c in harts-4 harts-16; do fail "virt/$c" "rvmess config: $(head -c 200 "$TMP/cfg.out")"; done
	fi
	run_virt virt/harts-4-functional 4 "$VIRT" --no-timing
	# same image + options twice: byte-identical console
	timeout "$VIRT_TIMEOUT" "$SIM" --harts 4 "$small" >"$TMP/v1" 2>/dev/null
	timeout "$VIRT_TIMEOUT" "$SIM" --harts 4 "$small" >"$TMP/v2" 2>/dev/null
	if [ -s "$TMP/v1" ] && cmp -s "$TMP/v1" "$TMP/v2"; then
		pass determinism/virt-harts-4
	else
		fail determinism/virt-harts-4 "two runs differ (or are empty)"
	fi
	# a timer that never advances (--inject timer-stuck; a chipset with its
	# real-time clock tied off): the image says so, counts time in cycles at an
	# assumed 1 GHz, finishes, and a hung hart is still written off at the timeout
	if [ ! -x "$RVMESS" ]; then
		for c in timer-stuck timer-stuck-hang; do skip "virt/$c" "$RVMESS not built"; done
	elif "$RVMESS" config "$VIRT" suites=chase reps=1 warmups=0 timeout_ms=300 chase_size=1048576 \
		chase_loads=5000 -o "$TMP/ts.elf" >"$TMP/cfg.out" 2>&1; then
		timeout "$VIRT_TIMEOUT" "$SIM" --harts 4 --inject timer-stuck "$TMP/ts.elf" >"$TMP/ts.log" 2>"$TMP/err"
		rc=$?
		lead=$(sed -n 's/.*@RVM 0 hdr h=\([0-9]*\) .*/\1/p' "$TMP/ts.log")
		if [ $rc = 0 ] && grep -aq ' hdr .* timebase=1000000000 ' "$TMP/ts.log" &&
			grep -aq ' warn h=[0-9]* what=timer msg=the_timer_does_not_advance' "$TMP/ts.log" &&
			grep -aqE ' chase h=[0-9]+ .* ns=[1-9]' "$TMP/ts.log" &&
			grep -aq ' end h=[0-9]* status=ok errors=0 .*harts=4 ' "$TMP/ts.log"; then
			pass virt/timer-stuck
		else
			fail virt/timer-stuck "exit $rc: $(grep -a ' hdr \| warn \| end ' "$TMP/ts.log" | cut -c1-160 | tr '\n' '|')"
		fi
		x=$(( (${lead:-0} + 1) % 4 ))
		"$RVMESS" config "$TMP/ts.elf" inject_hang=$((x + 1)) -o "$TMP/tsh.elf" >/dev/null 2>&1
		timeout "$VIRT_TIMEOUT" "$SIM" --harts 4 --inject timer-stuck "$TMP/tsh.elf" >"$TMP/ts.log" 2>"$TMP/err"
		rc=$?
		if [ $rc = 1 ] && grep -aqE " missing h=[0-9]+ hart=$x where=boot " "$TMP/ts.log" &&
			grep -aqE " end .*status=fail .*states=.*(^|[=,])$x:missing" "$TMP/ts.log"; then
			pass virt/timer-stuck-hang
		else
			fail virt/timer-stuck-hang "exit $rc: $(grep -a ' missing \| end ' "$TMP/ts.log" | cut -c1-160 | tr '\n' '|')"
		fi
	else
		for c in timer-stuck timer-stuck-hang; do fail "virt/$c" "rvmess config: $(head -c 200 "$TMP/cfg.out")"; done
	fi
fi

# virt/fdt-disabled-lead, -other: --fdt-disabled D writes cpu@D "disabled"
# in the DTB while hart D still runs (as QEMU's do).  The image counts 3
# harts; the lead always takes part (boot.c adds it when the FDT left it
# out: hostsim's lottery is deterministic, so unlike qemu.sh's
# fdt-disabled-hart0-virt this always disables the lead); another disabled
# hart is left out and prints nothing.
if [ -f "$VIRT" ] && [ -x "$RVMESS" ]; then
	if "$RVMESS" config "$VIRT" suites=chase reps=1 warmups=0 chase_size=65536 chase_loads=1000 \
		-o "$TMP/fd.elf" >"$TMP/cfg.out" 2>&1 &&
		timeout "$VIRT_TIMEOUT" "$SIM" --harts 4 "$TMP/fd.elf" >"$TMP/fd.log" 2>&1; then
		lead=$(sed -n 's/.*@RVM 0 hdr h=\([0-9]*\) .*/\1/p' "$TMP/fd.log")
		other=$(( (${lead:-0} + 1) % 4 ))
		for c in lead other; do
			d=$lead; [ $c = other ] && d=$other
			want=$(for h in 0 1 2 3; do [ $h = "$d" ] && [ $c = other ] || printf '%s ' $h; done)
			timeout "$VIRT_TIMEOUT" "$SIM" --harts 4 --fdt-disabled "$d" "$TMP/fd.elf" >"$TMP/fd$c.log" 2>&1
			rc=$?
			ids=$(sed -n 's/.*@RVM 0 hdr .* hartids=\([0-9,]*\) .*/\1/p' "$TMP/fd$c.log" | tr ',' '\n' | sort -n | tr '\n' ' ')
			l2=$(sed -n 's/.*@RVM 0 hdr h=\([0-9]*\) .*/\1/p' "$TMP/fd$c.log")
			if [ $rc != 0 ] || ! grep -aq ' end h=[0-9]* status=ok ' "$TMP/fd$c.log"; then
				fail "virt/fdt-disabled-$c" "exit $rc: $(grep -a ' end ' "$TMP/fd$c.log" | cut -c1-160)"
			elif [ "$l2" != "$lead" ] || ! grep -aq ' hdr .* harts=3 ' "$TMP/fd$c.log" || [ "$ids" != "$want" ]; then
				fail "virt/fdt-disabled-$c" "disabled $d, lead $l2 (was $lead): hartids '$ids', want '$want' and harts=3"
			elif [ $c = other ] && grep -aqE "@RVM [0-9]+ [a-z]+ h=$d " "$TMP/fd$c.log"; then
				fail "virt/fdt-disabled-$c" "the disabled hart $d printed records"
			else
				pass "virt/fdt-disabled-$c (hart $d, lead $lead)"
			fi
		done
	else
		for c in lead other; do fail "virt/fdt-disabled-$c" "rvmess config or the plain run failed: $(head -c 200 "$TMP/cfg.out")"; done
	fi
fi
# virt/lru-renumber: memsys renumbers the caches' LRU ages once a use
# clock passes lru-age-limit (2^31, far beyond this run; docs/memsys.md
# "Speed").  With the limit at 64 (renumbered at every check, each 2^20
# instructions: both L1s and the LLC each time) a small
# lat/par config on 2 harts prints the same console and --stats, but for
# the line that counts the renumbering (which must be there).
if [ -f "$VIRT" ] && [ -x "$RVMESS" ]; then
	if "$RVMESS" config "$VIRT" suites=lat,par reps=1 warmups=1 lat_max=4M lat_strides=64 lat_random=1 \
		lat_loads=2000 par_max=256K par_kmax=4 -o "$TMP/lru.elf" >"$TMP/cfg.out" 2>&1; then
		for l in default 64; do
			o=""; [ $l = 64 ] && o="--lru-age-limit 64"
			# shellcheck disable=SC2086
			timeout "$VIRT_TIMEOUT" "$SIM" --harts 2 --stats $o "$TMP/lru.elf" >"$TMP/lru-$l.log" 2>"$TMP/lru-$l.err"
			echo "exit $?" >>"$TMP/lru-$l.log"
			sed 's/host_seconds=[0-9.]*//; s/mips=[0-9.]*//' "$TMP/lru-$l.err" | grep -v '^lru: ages renumbered' >"$TMP/lru-$l.stats"
		done
		n=$(sed -n 's/^lru: ages renumbered past lru-age-limit 64: L1s \([0-9]*\) times, LLC \([0-9]*\) times$/\1 \2/p' "$TMP/lru-64.err")
		# shellcheck disable=SC2086
		set -- $n
		if ! grep -aq ' end h=[0-9]* status=ok ' "$TMP/lru-default.log"; then
			fail virt/lru-renumber "the default run failed: $(tail -n 1 "$TMP/lru-default.log")"
		elif ! cmp -s "$TMP/lru-default.log" "$TMP/lru-64.log"; then
			fail virt/lru-renumber "console differs: $(diff "$TMP/lru-default.log" "$TMP/lru-64.log" | head -n 3 | cut -c1-120 | tr '\n' '|')"
		elif ! cmp -s "$TMP/lru-default.stats" "$TMP/lru-64.stats"; then
			fail virt/lru-renumber "--stats differ: $(diff "$TMP/lru-default.stats" "$TMP/lru-64.stats" | head -n 3 | cut -c1-120 | tr '\n' '|')"
		elif [ "${1:-0}" -lt 40 ] || [ "${2:-0}" -lt 20 ] || grep -q '^lru:' "$TMP/lru-default.err"; then
			fail virt/lru-renumber "renumbered (L1s, LLC) '${n:-never}' times at limit 64 (want >= 40, 20), default: $(grep '^lru:' "$TMP/lru-default.err")"
		else
			pass "virt/lru-renumber (L1s, LLC renumbered $1, $2 times, same results)"
		fi
	else
		fail virt/lru-renumber "rvmess config: $(head -c 200 "$TMP/cfg.out")"
	fi
fi

# --dump-dtb: the tree the image would get, valid for dtc, with the caches
# in the devicetree's standard properties (virt: every cpu's L1D and the LLC
# node they point at); the openpiton profile's, like the RTL's, names none
if ! command -v dtc >/dev/null; then
	skip dtb/dump "dtc not installed"
elif ! "$SIM" --harts 2 --llc-size 512K --dump-dtb "$TMP/v.dtb" >"$TMP/out" 2>"$TMP/err" ||
	! "$SIM" --machine openpiton --harts 2 --dump-dtb "$TMP/p.dtb" >>"$TMP/out" 2>>"$TMP/err"; then
	fail dtb/dump "hostsim --dump-dtb failed: $(head -c 200 "$TMP/err")"
elif ! dtc -I dtb -O dts -o "$TMP/v.dts" "$TMP/v.dtb" 2>"$TMP/dtc.err" || [ -s "$TMP/dtc.err" ] ||
	! dtc -I dtb -O dts -o "$TMP/p.dts" "$TMP/p.dtb" 2>"$TMP/dtc.err" || [ -s "$TMP/dtc.err" ] || [ -s "$TMP/out" ]; then
	fail dtb/dump "dtc: $(head -c 300 "$TMP/dtc.err")"
elif [ "$(grep -c 'd-cache-size = <0x8000>;' "$TMP/v.dts")" != 2 ] ||
	[ "$(grep -c 'next-level-cache = <0x100>;' "$TMP/v.dts")" != 2 ] ||
	! grep -q 'cache-size = <0x80000>;' "$TMP/v.dts" || ! grep -q 'cache-level = <0x02>;' "$TMP/v.dts" ||
	! grep -q 'phandle = <0x100>;' "$TMP/v.dts" || grep -q 'cache' "$TMP/p.dts" ||
	! grep -q 'uart@fff0c2c000' "$TMP/p.dts"; then
	fail dtb/dump "caches: $(grep -c cache "$TMP/v.dts") lines in virt's tree, $(grep -c cache "$TMP/p.dts") in openpiton's"
else
	pass dtb/dump
fi
if "$SIM" --dump-dtb >"$TMP/out" 2>"$TMP/err"; then fail dtb/dump-needs-file "exit 0"
elif grep -q 'option --dump-dtb needs a value' "$TMP/err"; then pass dtb/dump-needs-file
else fail dtb/dump-needs-file "$(head -c 200 "$TMP/err")"; fi

# a hart that does not exist is refused
if "$SIM" --harts 2 --fdt-disabled 2 "$ISA/alu.elf" >"$TMP/out" 2>"$TMP/err"; then
	fail bad-fdt-disabled "exit 0"
elif grep -q -- '--fdt-disabled 2: there are only 2 harts' "$TMP/err"; then pass bad-fdt-disabled
else fail bad-fdt-disabled "$(head -c 200 "$TMP/err")"; fi

finish
