#!/usr/bin/env bash
# The litmus detection matrix on hostsim: for every injected fault (and a
# clean row, "none"), the default litmus suite runs once per seed (the
# image's `seed` key and hostsim's --seed both set to it) and the row shows
# in how many seeds the suite reported a bug, the tests that caught it, the
# mean simulated time of the first bug record (from its position in the
# log: the fraction of litmus records before it times the run's cycles)
# and whether hostsim counted injected events.
#   tools/litmus-matrix.sh [--harts N] [--seeds N] [--order sc|tso] [--iters N]
#                          [--faults "f1 f2 ..."] [--suites LIST] [--out DIR]
# --suites (default litmus) takes e.g. litmus,integ or integ: an integrity
# check that found a wrong word (an `integ` record with bad > 0) counts as a
# detection like a bug record and shows as integ:CHECK in the tests column.
# Defaults: 4 harts, 10 seeds, tso, the image's litmus_iters, every fault
# of hostsim --help, out/litmus-matrix.  Exit 0 when every fault was
# detected in every seed and the clean row never reported a bug.
set -u
cd "$(dirname "$0")/.." || exit 2
HARTS=4 SEEDS=10 ORDER=tso ITERS= OUT=out/litmus-matrix SUITES=litmus
FAULTS="fence-noop amo-nonatomic sc-spurious-success stale-read lost-write"
while [ $# -gt 0 ]; do
	case $1 in
	--harts) HARTS=$2; shift 2 ;;
	--seeds) SEEDS=$2; shift 2 ;;
	--order) ORDER=$2; shift 2 ;;
	--iters) ITERS=$2; shift 2 ;;
	--faults) FAULTS=$2; shift 2 ;;
	--suites) SUITES=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	*) echo "usage: tools/litmus-matrix.sh [--harts N] [--seeds N] [--order sc|tso] [--iters N] [--faults LIST] [--suites LIST] [--out DIR]" >&2; exit 2 ;;
	esac
done
BUILD=${BUILD:-build}
[ -x "$BUILD/bin/hostsim" ] && [ -f "$BUILD/images/virt.elf" ] || make --no-print-directory -j2 all >/dev/null || exit 2
mkdir -p "$OUT" || exit 2
all_ok=1
printf '%-20s %-9s %-8s %-12s %s\n' fault detected injected first_bug_Mcyc tests
for f in none $FAULTS; do
	det=0 inj=0 cyc_sum=0 tests=""
	for s in $(seq 1 "$SEEDS"); do
		img=$OUT/$SUITES-s$s.elf
		if [ ! -f "$img" ]; then
			cp "$BUILD/images/virt.elf" "$img"
			"$BUILD/bin/rvmess" config "$img" suites="$SUITES" seed="$s" ${ITERS:+litmus_iters=$ITERS} >/dev/null || exit 2
		fi
		log=$OUT/$f-$SUITES-s$s.log
		inject=()
		[ "$f" = none ] || inject=(--inject "$f")
		timeout 600 "$BUILD/bin/hostsim" --harts "$HARTS" --memory-order "$ORDER" --seed "$s" "${inject[@]}" --stats \
			"$img" >"$log" 2>"$log.stats"
		"$BUILD/bin/rvmess" parse "$log" -o "$OUT/$f-s$s" -q >/dev/null 2>&1
		rc=$?
		n=$(grep -o 'injected:.*' "$log.stats" | grep -o '=[0-9]*' | tr -d = | awk '{ s += $1 } END { print s + 0 }')
		[ "$n" -gt 0 ] && inj=$((inj + 1))
		if [ $rc = 3 ]; then
			det=$((det + 1))
			first=$(grep -anE '@RVM [0-9]* (bug |integ .* bad=[1-9])' "$log" | head -1 | cut -d: -f1)
			total=$(wc -l <"$log")
			cyc=$(grep -o 'max_cycles=[0-9]*' "$log.stats" | cut -d= -f2)
			cyc_sum=$(awk -v a="$cyc_sum" -v c="$cyc" -v l="$first" -v t="$total" 'BEGIN { printf "%.0f", a + c * l / t }')
			tests="$tests $(grep -ao '@RVM [0-9]* bug h=[0-9]* test=[a-z0-9_]*' "$log" | sed 's/.*test=//')"
			tests="$tests $(grep -aoE '@RVM [0-9]* integ h=[0-9]* check=[a-z-]* hart=[0-9]* words=[0-9]* bad=[1-9]' "$log" |
				sed 's/.*check=\([a-z-]*\).*/integ:\1/' | sort -u)"
		fi
	done
	uniq_tests=$(echo "$tests" | tr ' ' '\n' | sed '/^$/d' | sort | uniq -c | sort -rn | awk '{ printf("%s%s(%d)", (NR > 1 ? "," : ""), $2, $1) }')
	mean=-
	[ $det -gt 0 ] && mean=$(awk -v a="$cyc_sum" -v d="$det" 'BEGIN { printf "%.1f", a / d / 1e6 }')
	printf '%-20s %-9s %-8s %-12s %s\n' "$f" "$det/$SEEDS" "$inj/$SEEDS" "$mean" "${uniq_tests:--}"
	if [ "$f" = none ]; then [ $det = 0 ] || all_ok=0; else [ $det = "$SEEDS" ] || all_ok=0; fi
done
[ $all_ok = 1 ]
