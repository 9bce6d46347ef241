#!/usr/bin/env bash
# Countdown loops in closed form (docs/hostsim.md "Speed", "Countdown
# loops"): hostsim runs `addi r, r, -1; bnez r` back to it in one step where
# it can, and must give what running it one instruction at a time gives.
#   loop-skip-same-mess   a small Mess grid on 4 harts with the ddr model (the
#                         generators' pauses are such loops, cut by every
#                         turn's end): console and --stats byte-identical
#                         with and without --no-loop-skip (a closed form
#                         that runs one pair past the turn's end fails it)
# The unit test test_sim_exec checks the closed form against the stepped
# one at every budget and turn end, and that the loop is decoded for it.
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
SIM=$BUILD/bin/hostsim
scratch loopskip

"$BUILD/bin/rvmess" config "$BUILD/images/virt.elf" suites=mess mess_mix=0,60 mess_pause=0,16,256,4096 reps=1 \
	mess_window_loads=1000 mess_chase_size=8M mess_gen_size=256K -o "$TMP/mess.elf" >/dev/null ||
	{ fail loop-skip-config "rvmess config failed"; finish; exit 1; }

same() { # case image args...
	local c=$1 img=$2; shift 2
	for m in skip step; do
		f=""; [ $m = step ] && f=--no-loop-skip
		# shellcheck disable=SC2086
		timeout 300 "$SIM" --stats $f "$@" "$img" >"$TMP/$c.$m.out" 2>"$TMP/$c.$m.err" ||
			{ fail "$c" "$m: exit $?: $(tail -n 2 "$TMP/$c.$m.err" | tr '\n' ' ')"; return; }
		sed 's/host_seconds=[0-9.]*//; s/mips=[0-9.]*//' "$TMP/$c.$m.err" >"$TMP/$c.$m.stats"
	done
	if ! cmp -s "$TMP/$c.skip.out" "$TMP/$c.step.out"; then
		fail "$c" "console differs: $(diff "$TMP/$c.skip.out" "$TMP/$c.step.out" | head -n 3 | tr '\n' ' ')"
	elif ! cmp -s "$TMP/$c.skip.stats" "$TMP/$c.step.stats"; then
		fail "$c" "--stats differ: $(diff "$TMP/$c.skip.stats" "$TMP/$c.step.stats" | head -n 3 | tr '\n' ' ')"
	elif ! grep -q '^@RVM .* end ' "$TMP/$c.skip.out"; then
		fail "$c" "the run did not end cleanly: $(tail -n 1 "$TMP/$c.skip.out")"
	else
		pass "$c"
	fi
}
same loop-skip-same-mess "$TMP/mess.elf" --harts 4 --mem-size 256M --mem-model ddr
finish
