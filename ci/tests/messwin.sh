#!/usr/bin/env bash
# Integration test of a Mess point's window rule (docs/mess.md, "When a
# point's window ends"), on hostsim.
#   messwin-records       the adaptive rule on the `dram` model (noisy, its
#                         batch means close to independent): every record
#                         has its warm-up, batch size, batches and interval;
#                         its loads are whole batches between mess_min_loads
#                         and mess_max_loads
#   messwin-stops-at-tolerance
#                         a point that stopped before mess_max_loads has an
#                         interval within mess_tol of its latency
#   messwin-adapts        some points stop at the minimum, some run past it
#                         (the rule reads the interval; neither bound alone)
#   messwin-interval-covers-reference
#                         with a tolerance of 0.2 % and at least ten batches
#                         (so that the interval's own spread is small), each
#                         point's latency is within twice its interval (plus
#                         the reference's own) of a fixed window four times
#                         the adaptive maximum on the same grid
#   messwin-fixed-window  mess_tol=0: every window holds exactly
#                         mess_window_loads (rounded up to 100), as before
#   messwin-final-load-check
#                         inject_corrupt at one light point that walks part
#                         of each 2 MiB load array: the wrong word in its
#                         second line is reported after the point, the one
#                         in its last line after the last point
#   messwin-turnover      make run's ddr system, 100 % stores at pause 1024:
#                         the write-backs start only once the LLC is full of
#                         the point's dirty lines, after a flat stretch at
#                         the unloaded latency; the warm-up waits for that
#                         (the generators' traffic past the LLC's size), so
#                         the adaptive point reads within 3 % of a 20000-load
#                         window (stopped on the flat stretch: 10-20 % low)
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
RVMESS=$BUILD/bin/rvmess
HOSTSIM=$BUILD/bin/hostsim
scratch messwin

[ -x "$HOSTSIM" ] || { fail hostsim "$HOSTSIM not built"; finish; exit; }

GRID="suites=mess reps=1 mess_chase_size=32M mess_gen_size=2M mess_mix=0,100 mess_pause=0,256,1024,16384"
TOL=5000 MIN=2000 MAX=20000
mk() { # NAME KEYS...
	local n=$1; shift
	cp "$BUILD/images/virt.elf" "$TMP/$n.elf" && "$RVMESS" config "$TMP/$n.elf" "$@" >/dev/null ||
		fail config "rvmess config refused: $*"
}
# LOG -> "mix/pause nspl ci loads batch batches settle" per mess record
recs() {
	grep -ao '@RVM [0-9]* mess .*' "$1" | awk '
		function f(k) { return match($0, " " k "=[0-9.]*") ? substr($0, RSTART + length(k) + 2, RLENGTH - length(k) - 2) : "-" }
		{ print f("mix") "/" f("pause"), f("nspl"), f("ci"), f("loads"), f("batch"), f("batches"), f("settle") }'
}
# shellcheck disable=SC2086
mk adapt $GRID mess_tol=$TOL mess_min_loads=$MIN mess_max_loads=$MAX
# shellcheck disable=SC2086
mk cover $GRID mess_tol=2000 mess_min_loads=5000 mess_max_loads=$MAX
# shellcheck disable=SC2086
mk ref $GRID mess_tol=0 mess_window_loads=$((4 * MAX))
# shellcheck disable=SC2086
mk fixed $GRID mess_tol=0 mess_window_loads=2050 mess_pause=0,1024
for n in adapt cover ref fixed; do
	timeout 600 "$HOSTSIM" --harts 8 --mem-size 512M --mem-model dram "$TMP/$n.elf" >"$TMP/$n.log" 2>&1 &
	[ $n != cover ] || wait
done
wait
for n in adapt cover ref fixed; do recs "$TMP/$n.log" >"$TMP/$n.r"; done

if [ "$(wc -l <"$TMP/adapt.r")" != 8 ]; then
	fail messwin-records "$(wc -l <"$TMP/adapt.r") mess records, want 8"
else
	why=$(awk -v min=$MIN -v max=$MAX '$3 == "-" || $5 != 500 || $4 != $5 * $6 || $4 < min || $4 > max || $7 < 1 {
		print $1 ": nspl " $2 " ci " $3 " loads " $4 " batch " $5 " batches " $6 " settle " $7; exit }' "$TMP/adapt.r")
	if [ -z "$why" ]; then pass messwin-records; else fail messwin-records "$why"; fi
	why=$(awk -v tol=$TOL -v max=$MAX '$4 < max && $3 > tol * 1e-6 * $2 + 0.0015 {
		printf "%s: stopped at %d loads with an interval of %.2f %% (tolerance %.2f %%)", $1, $4, 100 * $3 / $2, tol / 1e4; exit }' "$TMP/adapt.r")
	if [ -z "$why" ]; then pass messwin-stops-at-tolerance; else fail messwin-stops-at-tolerance "$why"; fi
	at_min=$(awk -v min=$MIN '$4 == min' "$TMP/adapt.r" | wc -l)
	past=$(awk -v min=$MIN '$4 > min' "$TMP/adapt.r" | wc -l)
	below=$(awk -v max=$MAX '$4 < max' "$TMP/adapt.r" | wc -l)
	if [ "$at_min" -ge 1 ] && [ "$past" -ge 1 ] && [ "$below" -ge 1 ]; then
		pass "messwin-adapts ($at_min at the minimum, $past past it)"
	else fail messwin-adapts "$at_min points at $MIN loads, $past past it, $below below $MAX"; fi
	why=$(awk 'NR == FNR { r[$1] = $2; rc[$1] = $3; next }
		!($1 in r) { print $1 ": no reference"; exit }
		$6 < 10 { print $1 ": " $6 " batches"; exit }
		{ d = $2 - r[$1]; d = d < 0 ? -d : d
		  if (d > 2 * ($3 + rc[$1]) + 0.0005 * r[$1]) { printf "%s: %.3f ns +- %.3f, reference %.3f +- %.3f", $1, $2, $3, r[$1], rc[$1]; exit } }' \
		"$TMP/ref.r" "$TMP/cover.r")
	if [ -z "$why" ] && [ "$(wc -l <"$TMP/ref.r")" = 8 ] && [ "$(wc -l <"$TMP/cover.r")" = 8 ]; then
		pass messwin-interval-covers-reference
	else fail messwin-interval-covers-reference "${why:-$(wc -l <"$TMP/ref.r") reference records, $(wc -l <"$TMP/cover.r") adaptive}"; fi
fi
why=$(awk '$4 != 2100 || $5 != 500 || $6 != 4 { print $1 ": loads " $4 " batch " $5 " batches " $6; exit }' "$TMP/fixed.r")
if [ -z "$why" ] && [ "$(wc -l <"$TMP/fixed.r")" = 4 ]; then pass messwin-fixed-window
else fail messwin-fixed-window "${why:-$(wc -l <"$TMP/fixed.r") records, want 4 of 2100 loads}"; fi

# the load arrays' blocks no point walked: checked after the last point
mk plant suites=mess reps=1 mess_chase_size=32M mess_gen_size=2M mess_mix=0 mess_pause=16384 inject_corrupt=1
timeout 600 "$HOSTSIM" --harts 3 --mem-size 512M --mem-model dram "$TMP/plant.elf" >"$TMP/plant.log" 2>&1
loads=$(grep -ao '@RVM [0-9]* integ .*check=mess-load .*' "$TMP/plant.log" | grep -c ' bad=1 ')
iters=$(grep -ao '@RVM [0-9]* mess .*' "$TMP/plant.log" | grep -o ' gen_iters=[0-9]*' | cut -d= -f2)
if [ "$loads" = 4 ] && [ "$(grep -ac ' integ .*check=mess-load ' "$TMP/plant.log")" = 4 ]; then
	pass "messwin-final-load-check (${iters:-?} generator blocks in the window, of 2 x 655)"
else fail messwin-final-load-check "$loads mess-load records with one wrong word, want 4 (2 generators x after the point and after the last)"; fi

# the LLC's dirty-line build-up (make run's memory system)
mk turn suites=mess reps=1 mess_chase_size=32M mess_gen_size=2M mess_mix=100 mess_pause=1024
mk turnref suites=mess reps=1 mess_chase_size=32M mess_gen_size=2M mess_mix=100 mess_pause=1024 \
	mess_tol=0 mess_window_loads=20000
for n in turn turnref; do
	timeout 600 "$HOSTSIM" --harts 8 --mem-size 512M --config tools/configs/hostsim-ddr4.sim "$TMP/$n.elf" >"$TMP/$n.log" 2>&1 &
done
wait
a=$(recs "$TMP/turn.log" | awk '{ print $2 }') r=$(recs "$TMP/turnref.log" | awk '{ print $2 }')
if [ -n "$a" ] && [ -n "$r" ] && awk -v a="$a" -v r="$r" 'BEGIN { exit !((a - r) ^ 2 <= (0.03 * r) ^ 2) }'; then
	pass "messwin-turnover ($a ns, 20000 loads $r ns)"
else fail messwin-turnover "100 % stores at pause 1024: ${a:-?} ns, a 20000-load window ${r:-?} ns (more than 3 % apart)"; fi
finish
