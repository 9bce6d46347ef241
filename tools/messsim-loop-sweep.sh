#!/usr/bin/env bash
# The controller under closed loops of every depth (docs/mess.md, "Closed
# loops of any depth"): `rvmess sim loop` with K requests always outstanding
# for every K and window of the grid; per cell the loop's bandwidth as a
# share of the curve's highest, and its error against the equilibrium (where
# K x 64 B / latency meets the curve: on the lower branch, or past the
# curve's highest bandwidth on the throttle).
#
#   tools/messsim-loop-sweep.sh FAMILY [--ks "1 10 ..."] [--windows "1 10 ..."]
#                               [--read PCT] [--tol PCT] [-- SIM OPTIONS]
#
# Defaults: K = 1 10 100 1000 10000 100000, windows = 1 10 100 1000 10000
# 100000 requests, 100 % reads, tolerance 2 %; options after -- go to every
# `rvmess sim loop` (--freq-mhz, --curve-mhz, --convergence, ...).
# Prints one table of "% of the curve's highest / error %" and the worst
# error; exit status 1 when a cell is off by more than the tolerance, 2 on a
# failed run.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
FAM= KS="1 10 100 1000 10000 100000" WINS="1 10 100 1000 10000 100000" READ=100 TOL=2
while [ $# -gt 0 ]; do
	case $1 in
	--ks) KS=$2; shift ;;
	--windows) WINS=$2; shift ;;
	--read) READ=$2; shift ;;
	--tol) TOL=$2; shift ;;
	--) shift; break ;;
	-*) echo "usage: $0 FAMILY [--ks LIST] [--windows LIST] [--read PCT] [--tol PCT] [-- SIM OPTIONS]" >&2; exit 2 ;;
	*) FAM=$1 ;;
	esac
	shift
done
[ -n "$FAM" ] || { echo "$0: FAMILY is required" >&2; exit 2; }
printf '%-8s' "K \\ win"
for w in $WINS; do printf ' %16s' "$w"; done
printf '\n'
worst=0 bad=0
for k in $KS; do
	printf '%-8s' "$k"
	for w in $WINS; do
		out=$("$BUILD/bin/rvmess" sim loop "$FAM" --outstanding "$k" --window "$w" --read "$READ" "$@" 2>/dev/null) ||
			{ echo; echo "$0: rvmess sim loop $FAM --outstanding $k --window $w failed" >&2; exit 2; }
		cell=$(echo "$out" | awk '/^loop:/ { p = $11; sub(/^\(/, "", p) } /^equilibrium:/ { e = $NF; sub(/%$/, "", e); e = $(NF - 1) }
			END { printf "%s %s", p, e }')
		pc=${cell% *} er=${cell#* }
		printf ' %7.2f%% %+6.2f%%' "$pc" "$er"
		a=$(awk -v e="$er" 'BEGIN { print (e < 0 ? -e : e) }')
		worst=$(awk -v a="$a" -v w="$worst" 'BEGIN { print (a > w ? a : w) }')
		awk -v a="$a" -v t="$TOL" 'BEGIN { exit !(a > t) }' && bad=$((bad + 1))
	done
	printf '\n'
done
echo "(each cell: bandwidth as % of the curve's highest, error against the equilibrium)"
echo "worst error $worst %, $bad cell(s) beyond $TOL %"
[ "$bad" = 0 ]
