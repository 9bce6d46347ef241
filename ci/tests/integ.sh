#!/usr/bin/env bash
# The integ suite on hostsim: clean runs (2, 4, 8 harts; sc and tso) report
# no wrong word and exactly the words the design compares; injected
# lost-write and stale-read faults are caught by both checks (parse exit 3,
# the integrity line, integrity.csv rows whose first wrong address lies in
# the check's own memory); the Mess suite's checks report a lost write of
# its ring (hostsim/tests/test_integ.c covers parse's refusals).
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
HS=$BUILD/bin/hostsim RV=$BUILD/bin/rvmess
[ -x "$HS" ] && [ -f "$BUILD/images/virt.elf" ] || { fail integ "build/bin/hostsim or virt.elf missing"; exit 1; }
scratch integ

ROUNDS=100 LINES=4 MSGS=500 SLOTS=8
cp "$BUILD/images/virt.elf" "$TMP/i.elf" &&
	"$RV" config "$TMP/i.elf" suites=integ integ_rounds=$ROUNDS integ_lines=$LINES integ_msgs=$MSGS \
		integ_slots=$SLOTS >/dev/null || { fail integ-config "rvmess config refused"; exit 1; }

# integrity.csv with the first wrong address in decimal appended (column 8)
with_dec() {
	local l
	while IFS= read -r l; do
		case $l in *,0x*) a=${l#*,*,*,*,}; a=${a%%,*}; echo "$l,$((a))" ;; *) echo "$l,0" ;; esac
	done <"$1"
}
# hdr's heap_base of a log, in decimal
heap_base() { printf '%d' "$(grep -ao 'heap_base=0x[0-9a-f]*' "$1" | head -1 | cut -d= -f2)"; }

# clean runs: every hart's two rows, no wrong word, the words the design
# compares: lines = rounds x (harts of the group) x lines, ring = msgs x 6
# (5 payload words and the checksum)
for run in sc-2 sc-4 sc-8 tso-4; do
	order=${run%-*} h=${run#*-}
	c=clean-$run
	timeout 120 "$HS" --harts "$h" --memory-order "$order" "$TMP/i.elf" >"$TMP/$c.log" 2>&1
	"$RV" parse "$TMP/$c.log" -o "$TMP/$c" >/dev/null 2>&1; rc=$?
	grp=$((h < 8 ? h : 8))
	want_lines=$((ROUNDS * grp * LINES)) want_ring=$((MSGS * 6))
	csv=$TMP/$c/integrity.csv
	bad=$(awk -F, -v wl="$want_lines" -v wr="$want_ring" 'NR > 1 {
		n[$1]++
		if ($4 != 0 || ($1 == "lines" && $3 != wl) || ($1 == "ring" && $3 != wr) || $5 != "") print
	}' "$csv" 2>/dev/null | head -2 | tr '\n' ' ')
	nl=$(grep -c '^lines,' "$csv" 2>/dev/null) nr=$(grep -c '^ring,' "$csv" 2>/dev/null)
	if [ $rc = 0 ] && [ -z "$bad" ] && [ "$nl" = "$h" ] && [ "$nr" = "$h" ] &&
		grep -qx "integrity: failed=0 checks=$((2 * h)) words=$((h * (want_lines + want_ring))) bad=0" "$TMP/$c/summary.txt"; then
		pass "integ-$c"
	else
		fail "integ-$c" "parse exit $rc, rows lines=$nl ring=$nr, off rows: $bad $(grep integrity: "$TMP/$c/summary.txt" 2>/dev/null)"
	fi
done

# injected faults: both checks see wrong words, and the first one of each
# row lies in that check's memory.  Heap layout (docs/litmus.md): a 128-byte
# tally per hart, then the group's lines, then one ring of SLOTS lines per
# hart; a ring row names its consumer, whose input is the previous hart's
# ring, and a wrong ring word is a payload word or the checksum (words 1-6).
H=4
for f in lost-write stale-read; do
	c=fault-$f
	timeout 120 "$HS" --harts $H --memory-order tso --inject "$f" --stats "$TMP/i.elf" >"$TMP/$c.log" 2>"$TMP/$c.err"
	"$RV" parse "$TMP/$c.log" -o "$TMP/$c" >/dev/null 2>&1; rc=$?
	hb=$(heap_base "$TMP/$c.log")
	lines=$((hb + H * 128)) rings=$((hb + H * 128 + LINES * 64))
	check=$(awk -F, -v lo="$lines" -v rb="$rings" -v S=$SLOTS -v H=$H 'NR > 1 {
		if ($4 == 0) { print "no wrong word: " $0; next }
		a = $8
		if ($1 == "lines") ok = a >= lo && a < lo + 64 * '$LINES'
		else { p = ($2 + H - 1) % H; base = rb + p * S * 64; off = (a - base) % 64
		       ok = a >= base && a < base + S * 64 && off >= 8 && off <= 48 }
		if (!ok || $6 == $7 || $6 == "") print "first wrong word off its check: " $0
		seen[$1]++
	} END { if (seen["lines"] != H || seen["ring"] != H) print "rows lines=" seen["lines"] " ring=" seen["ring"] }' \
		< <(with_dec "$TMP/$c/integrity.csv") 2>&1 | head -2 | tr '\n' ' ')
	n=$(grep -o "injected: $f=[0-9]*" "$TMP/$c.err" | cut -d= -f2)
	if [ $rc = 3 ] && [ -z "$check" ] && [ "${n:-0}" -gt 0 ] &&
		grep -q "^integrity: failed=$((2 * H)) checks=$((2 * H)) " "$TMP/$c/summary.txt" &&
		grep -aq ' end h=[0-9]* status=fail ' "$TMP/$c.log"; then
		pass "integ-detects-$f"
	else
		fail "integ-detects-$f" "parse exit $rc, injected '${n}', $check $(grep integrity: "$TMP/$c/summary.txt" 2>/dev/null)"
	fi
done

finish
