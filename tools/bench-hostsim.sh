#!/usr/bin/env bash
# hostsim speed benchmark (docs/hostsim.md "Speed", README's performance table).
#
#   tools/bench-hostsim.sh [--runs N] [--cases LIST] [--no-callgrind] [--no-wall]
#                          [--callgrind-insns N] [--old HOSTSIM] [--make-run [--no-phase-hint-old]]
#                          [--qemu] [--image ELF]
#
# Builds build/bin/hostsim, build/bin/rvmess and build/images/virt.elf
# (through the Makefile) and measures these cases (--cases: a comma list):
#   timing1     1 hart, timing (the default), virt.elf as built
#   functional1 1 hart, --no-timing, virt.elf as built
#   mess8       8 harts, the Mess config below, --mem-size 512M
#   mess64      64 harts, the same image and memory
# The Mess config is `rvmess config IMAGE suites=mess mess_mix=0,100
# mess_pause=0,256 reps=1 mess_tol=0 mess_window_loads=4000 mess_chase_size=32M
# mess_gen_size=2M`.  Per case it prints:
#   - host instructions per simulated instruction: valgrind --tool=callgrind
#     over the first N simulated instructions (--max-insns; default 40M for
#     timing1, 20M for the others; --callgrind-insns N sets all, 0 = the
#     whole run).  Deterministic: the figure the README and the CI check use.
#   - the best wall time of --runs N whole runs (default 3) and its MIPS
#     (simulated instructions / seconds); mess64 runs its first 200M
#     simulated instructions (its whole run is long).  Wall time on a shared
#     machine is noisy: compare ratios measured in one script.
# --old HOSTSIM also measures an older hostsim binary on the same cases (the
# runs alternate) and prints old/new ratios.
# --make-run adds `make run`'s hostsim job (tools/configs/hostsim.cfg, 8
# harts, 512 MiB, --mem-model ddr: make run's system before 94e6709's
# stream prefetch and 64-entry read queue, which older binaries cannot run;
# about a minute per run): its wall time,
# and with --old the old/new ratio (both binaries run the same image, best of
# --runs each, alternating).  No callgrind on it (hours).
# --make-run --no-phase-hint-old: the "old" side of the make-run ratio is the
# new binary with --no-phase-hint (every instruction timed: what hostsim did
# before the set-up phase hint, byte for byte), instead of --old; also
# prints both runs' simulated instructions and the untimed ones.
# --qemu adds QEMU TCG (qemu-system-riscv64 -M virt -bios none -smp 1) on
# virt.elf: best wall time of --runs runs.  Host instructions per simulated
# instruction need a hardware counter (perf stat -e instructions); the
# script says when the machine has none (valgrind on QEMU's TCG is not
# practical).
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
image=$BUILD/images/virt.elf
callgrind=1
wall=1
cg_n=""
runs=3
cases=timing1,functional1,mess8,mess64
old=""
makerun=0
nohintold=0
qemu=0
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--cases) cases=$2; shift 2 ;;
	--no-callgrind) callgrind=0; shift ;;
	--no-wall) wall=0; shift ;;
	--callgrind-insns) cg_n=$2; shift 2 ;;
	--old) old=$2; shift 2 ;;
	--make-run) makerun=1; shift ;;
	--no-phase-hint-old) nohintold=1; shift ;;
	--qemu) qemu=1; shift ;;
	--image) image=$2; shift 2 ;;
	-h|--help) sed -n '2,39p' "$0"; exit 0 ;;
	*) echo "bench-hostsim: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
case "$runs" in ''|*[!0-9]*|0) echo "bench-hostsim: --runs wants a positive number, got '$runs'" >&2; exit 2 ;; esac
[ -z "$cg_n" ] || case "$cg_n" in *[!0-9]*) echo "bench-hostsim: --callgrind-insns wants a number, got '$cg_n'" >&2; exit 2 ;; esac
[ -z "$old" ] || [ -x "$old" ] || { echo "bench-hostsim: --old $old is not an executable" >&2; exit 2; }

make --no-print-directory -s "$BUILD/bin/hostsim" "$BUILD/bin/rvmess" >&2
if [ "$image" = "$BUILD/images/virt.elf" ]; then
	make --no-print-directory -s "$image" >&2
fi
[ -e "$image" ] || { echo "bench-hostsim: $image does not exist" >&2; exit 2; }
NEW=$BUILD/bin/hostsim
tmp=$(mktemp -d /tmp/bench-hostsim.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
"$BUILD/bin/rvmess" config "$image" suites=mess mess_mix=0,100 mess_pause=0,256 reps=1 \
	mess_tol=0 mess_window_loads=4000 mess_chase_size=32M mess_gen_size=2M -o "$tmp/mess.elf" >/dev/null

# case -> "options|image|callgrind insns|wall insns (0 = whole run)"
spec() {
	case $1 in
	timing1) echo "--harts 1|$image|40000000|0" ;;
	functional1) echo "--no-timing --harts 1|$image|20000000|0" ;;
	mess8) echo "--harts 8 --mem-size 512M|$tmp/mess.elf|20000000|0" ;;
	mess64) echo "--harts 64 --mem-size 512M|$tmp/mess.elf|20000000|200000000" ;;
	*) echo "bench-hostsim: unknown case '$1' (known: timing1 functional1 mess8 mess64)" >&2; exit 2 ;;
	esac
}
for c in ${cases//,/ }; do spec "$c" >/dev/null; done

# stat FILE KEY: a field of hostsim's "total:" line
stat() { sed -n "s/.* total: .*$2=\([0-9.]*\).*/\1/p" "$1"; }

# run BIN OPTS IMAGE LIMIT -> "insns seconds" of one run (host_seconds: the
# simulation itself, without loading)
run() {
	local lim=""
	[ "$4" != 0 ] && lim="--max-insns $4"
	# shellcheck disable=SC2086
	timeout 1800 "$1" $2 $lim --stats --console /dev/null "$3" >/dev/null 2>"$tmp/stats" || true
	local i s
	i=$(stat "$tmp/stats" instructions)
	s=$(stat "$tmp/stats" host_seconds)
	if [ -z "$i" ] || [ -z "$s" ]; then
		echo "bench-hostsim: $1 $2 $3 gave no statistics" >&2
		tail -n 5 "$tmp/stats" >&2
		exit 1
	fi
	echo "$i $s"
}

# cg BIN OPTS IMAGE LIMIT -> "sim_insns host_insns"
cg() {
	local lim=""
	[ "$4" != 0 ] && lim="--max-insns $4"
	# shellcheck disable=SC2086
	timeout 3600 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
		"$1" $2 $lim --stats --console /dev/null "$3" >/dev/null 2>"$tmp/cgstats" || true
	local sim host
	sim=$(stat "$tmp/cgstats" instructions)
	host=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$tmp/cg.out" 2>/dev/null | head -n 1)
	[ -n "$host" ] || host=$(sed -n 's/^totals: \([0-9]*\).*/\1/p' "$tmp/cg.out" 2>/dev/null | head -n 1)
	if [ -z "$sim" ] || [ -z "$host" ]; then
		echo "bench-hostsim: callgrind on $1 $2 $3 failed" >&2
		tail -n 5 "$tmp/cgstats" >&2
		exit 1
	fi
	echo "$sim $host"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
per() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }'; }

# best BIN OPTS IMAGE LIMIT -> "insns best_seconds" over $runs runs
best() {
	local r=0 b="" bi="" x
	while [ $r -lt "$runs" ]; do
		r=$((r + 1))
		x=$(run "$@")
		if [ -z "$b" ] || awk -v a="${x#* }" -v c="$b" 'BEGIN { exit !(a < c) }'; then
			b=${x#* }
			bi=${x% *}
		fi
	done
	echo "$bi $b"
}

echo "hostsim benchmark: image=$image host=$(uname -m) $(nproc) cpus, runs=$runs${old:+, old=$old}"
if [ "$callgrind" = 1 ]; then
	if ! command -v valgrind >/dev/null 2>&1; then
		echo "bench-hostsim: valgrind not installed: no callgrind figures" >&2
		callgrind=0
	fi
fi
if [ "$callgrind" = 1 ]; then
	echo "callgrind: host instructions per simulated instruction (first N simulated instructions)"
	if [ -n "$old" ]; then
		printf '%-12s %10s %15s %9s %15s %9s %9s\n' case sim_insns host_insns host/sim old_host_insns old/sim old/new
	else
		printf '%-12s %10s %15s %9s\n' case sim_insns host_insns host/sim
	fi
	for c in ${cases//,/ }; do
		IFS='|' read -r opts img n _ <<<"$(spec "$c")"
		[ -n "$cg_n" ] && n=$cg_n
		read -r sim host <<<"$(cg "$NEW" "$opts" "$img" "$n")"
		if [ -n "$old" ]; then
			read -r osim ohost <<<"$(cg "$old" "$opts" "$img" "$n")"
			[ "$osim" = "$sim" ] || echo "bench-hostsim: $c: old ran $osim simulated instructions, new $sim" >&2
			printf '%-12s %10s %15s %9s %15s %9s %9s\n' "$c" "$sim" "$host" "$(per "$host" "$sim")" \
				"$ohost" "$(per "$ohost" "$osim")" "$(ratio "$ohost" "$host")"
		else
			printf '%-12s %10s %15s %9s\n' "$c" "$sim" "$host" "$(per "$host" "$sim")"
		fi
	done
fi

if [ "$wall" = 1 ]; then
	echo "wall time: best of $runs (simulation seconds from --stats; MIPS = simulated instructions / seconds)"
	if [ -n "$old" ]; then
		printf '%-12s %11s %9s %8s %9s %8s %9s\n' case sim_insns seconds MIPS old_secs old_MIPS old/new
	else
		printf '%-12s %11s %9s %8s\n' case sim_insns seconds MIPS
	fi
	for c in ${cases//,/ }; do
		IFS='|' read -r opts img _ n <<<"$(spec "$c")"
		if [ -n "$old" ]; then
			# alternate old and new, best of $runs each
			bn="" bo="" r=0
			while [ $r -lt "$runs" ]; do
				r=$((r + 1))
				read -r i s <<<"$(run "$NEW" "$opts" "$img" "$n")"
				{ [ -z "$bn" ] || awk -v a="$s" -v b="$bn" 'BEGIN { exit !(a < b) }'; } && bn=$s
				read -r oi os <<<"$(run "$old" "$opts" "$img" "$n")"
				{ [ -z "$bo" ] || awk -v a="$os" -v b="$bo" 'BEGIN { exit !(a < b) }'; } && bo=$os
			done
			printf '%-12s %11s %9s %8s %9s %8s %9s\n' "$c" "$i" "$bn" "$(per "$i" "$bn" | awk '{ printf "%.1f", $1 / 1e6 }')" \
				"$bo" "$(per "$oi" "$bo" | awk '{ printf "%.1f", $1 / 1e6 }')" "$(ratio "$bo" "$bn")"
		else
			read -r i s <<<"$(best "$NEW" "$opts" "$img" "$n")"
			printf '%-12s %11s %9s %8s\n' "$c" "$i" "$s" "$(per "$i" "$s" | awk '{ printf "%.1f", $1 / 1e6 }')"
		fi
	done
fi

if [ "$makerun" = 1 ]; then
	"$BUILD/bin/rvmess" config "$image" --file tools/configs/hostsim.cfg -o "$tmp/make.elf" >/dev/null
	opts="--harts 8 --mem-size 512M --mem-model ddr"
	echo "make run's hostsim job (tools/configs/hostsim.cfg, $opts): wall seconds, best of $runs"
	oldbin=$old oldopts=$opts
	if [ "$nohintold" = 1 ]; then
		oldbin=$NEW oldopts="$opts --no-phase-hint"
		old=$NEW
		echo "old = $NEW --no-phase-hint"
	fi
	bn="" bo="" r=0 pairs=""
	while [ $r -lt "$runs" ]; do
		r=$((r + 1))
		t0=$(date +%s.%N)
		run "$NEW" "$opts" "$tmp/make.elf" 0 >/dev/null
		cp "$tmp/stats" "$tmp/stats.new"
		s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
		{ [ -z "$bn" ] || awk -v a="$s" -v b="$bn" 'BEGIN { exit !(a < b) }'; } && bn=$s
		if [ -n "$old" ]; then
			t0=$(date +%s.%N)
			run "$oldbin" "$oldopts" "$tmp/make.elf" 0 >/dev/null
			so=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
			{ [ -z "$bo" ] || awk -v a="$so" -v b="$bo" 'BEGIN { exit !(a < b) }'; } && bo=$so
			pairs="$pairs $so/$s"
		fi
	done
	if [ -n "$old" ]; then
		echo "make-run     new ${bn} s, old ${bo} s, old/new $(ratio "$bo" "$bn")"
		# each round's old/new (the two ran back to back): the spread of
		# the ratio within this run of the script
		echo "make-run     rounds (old/new s):$pairs; ratios $(echo "$pairs" | tr ' /' '\n ' |
			awk 'NF == 2 { r = $1 / $2; s = s sprintf("%s%.2f", s == "" ? "" : " ", r); if (!n++ || r < lo) lo = r; if (r > hi) hi = r }
			     END { printf "%s (%.2f .. %.2f)", s, lo, hi }')"
		echo "make-run     simulated instructions: new $(stat "$tmp/stats.new" instructions)" \
			"(untimed $(sed -n 's/.*untimed instructions=\([0-9]*\).*/\1/p' "$tmp/stats.new")), old $(stat "$tmp/stats" instructions)"
	else
		echo "make-run     ${bn} s"
	fi
fi

if [ "$qemu" = 1 ]; then
	Q=${QEMU:-qemu-system-riscv64}
	if ! command -v "$Q" >/dev/null 2>&1; then
		echo "qemu: $Q not installed"
	else
		b="" r=0
		while [ $r -lt "$runs" ]; do
			r=$((r + 1))
			t0=$(date +%s.%N)
			timeout 600 "$Q" -M virt -bios none -nographic -m 256M -smp 1 -kernel "$image" >"$tmp/qemu.log" 2>&1 </dev/null || true
			s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
			grep -q '@RVM [0-9]* end h=[0-9]* status=ok' "$tmp/qemu.log" ||
				echo "bench-hostsim: warning: the QEMU run did not end with status=ok" >&2
			{ [ -z "$b" ] || awk -v a="$s" -v c="$b" 'BEGIN { exit !(a < c) }'; } && b=$s
		done
		echo "qemu-tcg     1 hart, $image: ${b} s wall (best of $runs, process start to exit)"
		if command -v perf >/dev/null 2>&1 &&
			perf stat -x, -e instructions true 2>&1 >/dev/null | grep -q '^[0-9]'; then
			n=$(perf stat -x, -e instructions "$Q" -M virt -bios none -nographic -m 256M -smp 1 \
				-kernel "$image" 2>&1 >/dev/null </dev/null | sed -n 's/^\([0-9]*\),.*instructions.*/\1/p' | tail -n 1)
			echo "qemu-tcg     host instructions (perf stat): $n"
		else
			echo "qemu-tcg     host instructions: not measurable here (perf stat -e instructions: no hardware counter)"
		fi
	fi
fi
