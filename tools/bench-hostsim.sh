#!/usr/bin/env bash
# hostsim speed benchmark.
#
#   tools/bench-hostsim.sh [--harts N] [--image ELF] [--runs N] [--no-callgrind]
#                          [--callgrind-insns N] [--mem-size SIZE]
#
# Builds build/bin/hostsim and build/images/virt.elf (through the Makefile),
# then runs the virt image with a fixed configuration (the image's own config
# block, default hostsim options: 256 MiB, 1 GHz, 10 MHz timebase, memsys
# defaults) twice:
#   functional  --no-timing
#   timing      memsys timing (default)
# and prints, per mode: simulated instructions, host seconds and MIPS
# (= simulated instructions / host seconds / 1e6).  With --runs N each mode
# runs N times and the fastest run is reported (wall time on a shared machine
# is noisy).  It also prints a repeatable figure: host instructions per
# simulated instruction, measured with valgrind --tool=callgrind over the
# first N simulated instructions (--max-insns; default 20M functional, 40M
# timing: the first 5M are mostly boot, the memory-bound part starts later;
# --callgrind-insns 0 = the whole run, several minutes).
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
harts=1
image=$BUILD/images/virt.elf
callgrind=1
cg_func=20000000
cg_time=40000000
runs=1
memsize=""
while [ $# -gt 0 ]; do
	case $1 in
	--harts) harts=$2; shift 2 ;;
	--image) image=$2; shift 2 ;;
	--no-callgrind) callgrind=0; shift ;;
	--runs) runs=$2; shift 2 ;;
	--mem-size) memsize="--mem-size $2"; shift 2 ;;
	--callgrind-insns) cg_func=$2; cg_time=$2; shift 2 ;;
	-h|--help) sed -n '2,24p' "$0"; exit 0 ;;
	*) echo "bench-hostsim: unknown argument '$1'" >&2; exit 2 ;;
	esac
done

make --no-print-directory -s "$BUILD/bin/hostsim" >&2
if [ "$image" = "$BUILD/images/virt.elf" ]; then
	make --no-print-directory -s "$image" >&2
fi
[ -e "$image" ] || { echo "bench-hostsim: $image does not exist" >&2; exit 2; }
SIM=$BUILD/bin/hostsim
tmp=$(mktemp -d /tmp/bench-hostsim.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

echo "hostsim benchmark: image=$image harts=$harts host=$(uname -m) $(nproc) cpus"
printf '%-11s %14s %10s %9s %s\n' mode instructions seconds MIPS exit
for mode in functional timing; do
	flag=""; [ $mode = functional ] && flag=--no-timing
	best_mips=""; best=""
	r=0
	while [ $r -lt "$runs" ]; do
		r=$((r + 1))
		set +e
		# shellcheck disable=SC2086
		timeout 900 "$SIM" $flag $memsize --stats --harts "$harts" --console "$tmp/console.log" "$image" 2>"$tmp/stats.$mode"
		rc=$?
		set -e
		line=$(grep ' total: ' "$tmp/stats.$mode" || true)
		insns=$(echo "$line" | sed -n 's/.*instructions=\([0-9]*\).*/\1/p')
		secs=$(echo "$line" | sed -n 's/.*host_seconds=\([0-9.]*\).*/\1/p')
		if [ -z "$insns" ] || [ -z "$secs" ]; then
			echo "bench-hostsim: $mode run gave no statistics (exit $rc)" >&2
			cat "$tmp/stats.$mode" >&2
			exit 1
		fi
		mips=$(awk -v i="$insns" -v s="$secs" 'BEGIN { if (s > 0) printf "%.1f", i / s / 1e6; else print "inf" }')
		if [ -z "$best_mips" ] || awk -v a="$mips" -v b="$best_mips" 'BEGIN { exit !(a > b) }'; then
			best_mips=$mips
			best=$(printf '%-11s %14s %10s %9s %s' "$mode" "$insns" "$secs" "$mips" "$rc")
		fi
		if ! grep -q '@RVM [0-9]* end h=[0-9]* status=ok' "$tmp/console.log"; then
			echo "bench-hostsim: warning: the $mode run did not end with status=ok" >&2
		fi
	done
	echo "$best"
done

if [ $callgrind = 1 ]; then
	if ! command -v valgrind >/dev/null 2>&1; then
		echo "bench-hostsim: valgrind not installed: no callgrind figures" >&2
		exit 0
	fi
	echo "callgrind (host instructions per simulated instruction, first N simulated instructions):"
	printf '%-11s %12s %16s %12s\n' mode sim_insns host_insns host/sim
	for mode in functional timing; do
		flag=""; n=$cg_time
		[ $mode = functional ] && { flag=--no-timing; n=$cg_func; }
		lim=""; [ "$n" != 0 ] && lim="--max-insns $n"
		set +e
		# shellcheck disable=SC2086
		timeout 1800 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$mode" \
			"$SIM" $flag $memsize --stats $lim --harts "$harts" --console /dev/null "$image" \
			2>"$tmp/cgstats.$mode" >/dev/null
		set -e
		sim=$(sed -n 's/.* total: instructions=\([0-9]*\).*/\1/p' "$tmp/cgstats.$mode")
		host=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$tmp/cg.$mode" 2>/dev/null | head -n 1)
		[ -n "$host" ] || host=$(sed -n 's/^totals: \([0-9]*\).*/\1/p' "$tmp/cg.$mode" | head -n 1)
		if [ -z "$sim" ] || [ -z "$host" ]; then
			echo "bench-hostsim: callgrind $mode run failed" >&2
			tail -n 5 "$tmp/cgstats.$mode" >&2
			continue
		fi
		ratio=$(awk -v h="$host" -v s="$sim" 'BEGIN { printf "%.1f", h / s }')
		printf '%-11s %12s %16s %12s\n' "$mode" "$sim" "$host" "$ratio"
	done
fi
