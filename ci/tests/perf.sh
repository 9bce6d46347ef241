#!/usr/bin/env bash
# hostsim's host cost against a committed baseline (issue 12: hostsim must
# not get slower).  valgrind --tool=callgrind counts the host instructions of
# small bounded runs (deterministic for one build of one toolchain); each
# case compares host instructions per simulated instruction with
# ci/perf-baseline.txt and fails when it is more than 10 % above it:
#   perf-timing1      1 hart, timing, virt.elf, first 2M simulated instructions
#   perf-functional1  1 hart, --no-timing, virt.elf, first 2M
#   perf-mess8        8 harts, the Mess config of tools/bench-hostsim.sh, first 2M
#   perf-mess64       64 harts, the same, first 2M (the scheduler's cost per turn)
# The counts depend on the compiler, the C library and valgrind: the
# baseline names the ones it was measured with, and with others the cases
# skip (rerun with --update on that machine to get a baseline there).
#   ci/tests/perf.sh --update   measure and rewrite the baseline
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
BASE=${PERF_BASELINE:-ci/perf-baseline.txt}
HOSTSIM=$BUILD/bin/hostsim
RVMESS=$BUILD/bin/rvmess
IMAGE=$BUILD/images/virt.elf
scratch perf
update=0
[ "${1:-}" = --update ] && update=1
CASES="timing1 functional1 mess8 mess64"

if ! command -v valgrind >/dev/null 2>&1; then
	for c in $CASES; do skip "perf-$c" "valgrind not installed"; done
	exit 0
fi
toolchain="$(${CC:-cc} --version 2>/dev/null | head -n 1); $(ldd --version 2>/dev/null | head -n 1); $(valgrind --version)"
"$RVMESS" config "$IMAGE" suites=mess mess_mix=0,100 mess_pause=0,256 reps=1 mess_window_loads=4000 \
	mess_chase_size=32M mess_gen_size=2M -o "$TMP/mess.elf" >/dev/null ||
	{ fail perf-config "rvmess config failed"; exit 1; }

args() {
	case $1 in
	timing1) echo "--harts 1 --max-insns 2000000 $IMAGE" ;;
	functional1) echo "--no-timing --harts 1 --max-insns 2000000 $IMAGE" ;;
	mess8) echo "--harts 8 --mem-size 512M --max-insns 2000000 $TMP/mess.elf" ;;
	mess64) echo "--harts 64 --mem-size 512M --max-insns 2000000 $TMP/mess.elf" ;;
	esac
}

# measure CASE -> "sim_insns host_insns"
measure() {
	# shellcheck disable=SC2046
	valgrind --tool=callgrind --callgrind-out-file="$TMP/cg.$1" "$HOSTSIM" --stats --console /dev/null \
		$(args "$1") >/dev/null 2>"$TMP/err.$1"
	local sim host
	sim=$(sed -n 's/.* total: instructions=\([0-9]*\).*/\1/p' "$TMP/err.$1")
	host=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$TMP/cg.$1" | head -n 1)
	[ -n "$host" ] || host=$(sed -n 's/^totals: \([0-9]*\).*/\1/p' "$TMP/cg.$1" | head -n 1)
	echo "$sim $host"
}

if [ "$update" = 1 ]; then
	{
		echo "# ci/tests/perf.sh baseline: CASE SIM_INSNS HOST_INSNS (callgrind), measured with"
		echo "toolchain $toolchain"
		for c in $CASES; do echo "$c $(measure "$c")"; done
	} >"$BASE.new" && mv "$BASE.new" "$BASE"
	cat "$BASE"
	exit 0
fi

[ -r "$BASE" ] || { fail perf-baseline "$BASE missing (ci/tests/perf.sh --update writes it)"; exit 1; }
btool=$(sed -n 's/^toolchain //p' "$BASE")
if [ "$btool" != "$toolchain" ]; then
	for c in $CASES; do skip "perf-$c" "baseline measured with '$btool', this machine has '$toolchain'"; done
	exit 0
fi
for c in $CASES; do
	read -r bsim bhost <<<"$(awk -v c="$c" '$1 == c { print $2, $3 }' "$BASE")"
	if [ -z "$bhost" ]; then
		fail "perf-$c" "no baseline line for $c in $BASE"
		continue
	fi
	read -r sim host <<<"$(measure "$c")"
	if [ -z "$sim" ] || [ -z "$host" ]; then
		fail "perf-$c" "the callgrind run gave no counts: $(tail -n 2 "$TMP/err.$c" | tr '\n' ' ')"
		continue
	fi
	# host instructions per simulated instruction, new vs baseline
	verdict=$(awk -v s="$sim" -v h="$host" -v bs="$bsim" -v bh="$bhost" 'BEGIN {
		r = h / s; b = bh / bs; d = (r / b - 1) * 100
		printf "%s %.1f host insns/sim insn (baseline %.1f, %+.1f %%)", (d > 10 ? "slow" : "ok"), r, b, d }')
	case $verdict in
	ok*) pass "perf-$c (${verdict#ok })" ;;
	*) fail "perf-$c" "${verdict#slow } > 10 % above the baseline" ;;
	esac
done
finish
