#!/usr/bin/env bash
# The integ suite on hostsim: clean runs (2, 4, 8 harts; sc and tso) report
# no wrong word and exactly the words the design compares; injected
# lost-write and stale-read faults are caught by both checks (parse exit 3,
# the integrity line, integrity.csv rows whose first wrong address lies in
# the check's own memory; a stale piece shows beside fresh bytes); no wrong
# word on QEMU -smp 4; the Mess suite's checks report the wrong words
# inject_corrupt plants, exactly (hostsim/tests/test_integ.c covers parse's
# refusals).
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
HS=$BUILD/bin/hostsim RV=$BUILD/bin/rvmess
[ -x "$HS" ] && [ -f "$BUILD/images/virt.elf" ] || { fail integ "build/bin/hostsim or virt.elf missing"; exit 1; }
scratch integ

ROUNDS=100 NLINES=4 MSGS=500 SLOTS=8
cp "$BUILD/images/virt.elf" "$TMP/i.elf" &&
	"$RV" config "$TMP/i.elf" suites=integ integ_rounds=$ROUNDS integ_lines=$NLINES integ_msgs=$MSGS \
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
	want_lines=$((ROUNDS * grp * NLINES)) want_ring=$((MSGS * 6))
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
# row lies in that check's memory.  Heap layout (docs/litmus.md): the
# group's lines, then one ring of SLOTS lines per hart; a ring row names
# its consumer, whose input is the previous hart's ring, and a wrong ring
# word is a payload word or the checksum (words 1-6).
H=4
for f in lost-write stale-read; do
	c=fault-$f
	timeout 120 "$HS" --harts $H --memory-order tso --inject "$f" --stats "$TMP/i.elf" >"$TMP/$c.log" 2>"$TMP/$c.err"
	"$RV" parse "$TMP/$c.log" -o "$TMP/$c" >/dev/null 2>&1; rc=$?
	hb=$(heap_base "$TMP/$c.log")
	lines=$hb rings=$((hb + NLINES * 64))
	check=$(awk -F, -v lo="$lines" -v rb="$rings" -v S=$SLOTS -v H=$H 'NR > 1 {
		if ($4 == 0) { print "no wrong word: " $0; next }
		a = $8
		if ($1 == "lines") ok = a >= lo && a < lo + 64 * '$NLINES'
		else { p = ($2 + H - 1) % H; base = rb + p * S * 64; off = (a - base) % 64
		       ok = a >= base && a < base + S * 64 && off >= 8 && off <= 48; pay += off <= 40 }
		if (!ok || ($6 "") == ($7 "") || $6 == "") print "first wrong word off its check: " $0
		seen[$1]++
	} END { if (seen["lines"] != H || seen["ring"] != H) print "rows lines=" seen["lines"] " ring=" seen["ring"]
		# 5 of a slot'"'"'s 6 checked words are payload: some ring'"'"'s first wrong word is one
		if (!pay) print "no ring row starts at a payload word" }' \
		< <(with_dec "$TMP/$c/integrity.csv") 2>&1 | head -2 | tr '\n' ' ')
	# a stale copy is kept per store (byte, half, word or doubleword) and the
	# verifier reads each piece at its width: a stale piece shows beside
	# fresh ones, so some first wrong word still holds a (nonzero) byte of
	# its signature; read as whole doublewords only the doubleword stores'
	# stale copies would show, a whole older signature
	if [ "$f" = stale-read ]; then
		part=0
		while IFS=, read -r chk _ _ _ _ want got; do
			[ "$chk" = lines ] || continue
			for ((k = 0; k < 8; k++)); do
				b=$(((want >> (8 * k)) & 0xff))
				[ $b != 0 ] && [ $b = $(((got >> (8 * k)) & 0xff)) ] && { part=$((part + 1)); break; }
			done
		done < <(tail -n +2 "$TMP/$c/integrity.csv" 2>/dev/null)
		[ $part -gt 0 ] || check="$check no lines row shows a stale piece beside fresh ones"
	fi
	n=$(grep -o "injected: $f=[0-9]*" "$TMP/$c.err" | cut -d= -f2)
	if [ $rc = 3 ] && [ -z "$check" ] && [ "${n:-0}" -gt 0 ] &&
		grep -q "^integrity: failed=$((2 * H)) checks=$((2 * H)) " "$TMP/$c/summary.txt" &&
		grep -aq ' end h=[0-9]* status=fail ' "$TMP/$c.log"; then
		pass "integ-detects-$f"
	else
		fail "integ-detects-$f" "parse exit $rc, injected '${n}', $check $(grep integrity: "$TMP/$c/summary.txt" 2>/dev/null)"
	fi
done

# QEMU (multi-threaded TCG: real concurrency between harts) with 4 harts:
# no wrong word; a ring that published before its checksum was written shows
# here as stale checksums, which hostsim's interleaving does not expose
if command -v qemu-system-riscv64 >/dev/null; then
	cp "$BUILD/images/virt.elf" "$TMP/q.elf" && "$RV" config "$TMP/q.elf" suites=integ integ_rounds=10 >/dev/null
	timeout 300 qemu-system-riscv64 -M virt -bios none -nographic -m 512M -smp 4 -kernel "$TMP/q.elf" \
		>"$TMP/q.log" 2>&1 </dev/null
	"$RV" parse "$TMP/q.log" -o "$TMP/q" --target qemu >/dev/null 2>&1; rc=$?
	if [ $rc = 0 ] && grep -qx "integrity: failed=0 checks=8 words=$((4 * (10 * 4 * 4 + 4000 * 6))) bad=0" "$TMP/q/summary.txt"; then
		pass integ-qemu-smp4-clean
	else
		fail integ-qemu-smp4-clean "parse exit $rc: $(grep integrity: "$TMP/q/summary.txt" 2>/dev/null) $(grep -a ' integ .*bad=[1-9]' "$TMP/q.log" | head -1)"
	fi
else
	skip integ-qemu-smp4-clean "qemu-system-riscv64 not installed"
fi

# the Mess checks: inject_corrupt plants, at each curve's first point, two
# wrong words in every generator's load array (its second line, the first
# reported: the word wanted is addr ^ 0x6d657373a5a5a5a5, the one found that
# ^ 0xff; and its last line: every point here walks the whole array) and one
# in its first store slot (wanted: the point's pattern epoch << 32 | hart << 8
# | 0x4d, found: that ^ 0xff00), and, while the first point's chase reads
# it, points the first ring element at the ring's start (heap_base): the
# chase follows it and ends at an element whose number is not its start's
# plus its loads (wanted: that number); after the point the element is
# right again and the ring's start holds a wrong number (0 ^ 0xff at
# heap_base + 8), which the last check finds.  Without the key: no integ
# record.
MGRID="suites=mess reps=1 mess_chase_size=2M mess_gen_size=64K mess_window_loads=1000 mess_mix=0,50,100 mess_pause=0,64"
cp "$BUILD/images/virt.elf" "$TMP/m.elf" && "$RV" config "$TMP/m.elf" $MGRID >/dev/null &&
	cp "$TMP/m.elf" "$TMP/mc.elf" && "$RV" config "$TMP/mc.elf" inject_corrupt=1 >/dev/null ||
	fail integ-mess-config "rvmess config refused the grid"
timeout 120 "$HS" --harts 3 "$TMP/m.elf" >"$TMP/m.log" 2>&1
"$RV" parse "$TMP/m.log" -o "$TMP/m" >/dev/null 2>&1; rc=$?
if [ $rc = 0 ] && ! grep -aq ' integ ' "$TMP/m.log" && [ ! -f "$TMP/m/integrity.csv" ]; then pass integ-mess-clean
else fail integ-mess-clean "parse exit $rc: $(grep -a ' integ ' "$TMP/m.log" | head -1)"; fi
timeout 120 "$HS" --harts 3 "$TMP/mc.elf" >"$TMP/mc.log" 2>&1
"$RV" parse "$TMP/mc.log" -o "$TMP/mc" >/dev/null 2>&1; rc=$?
hb=$(heap_base "$TMP/mc.log")
why=""
n_ld=0 n_st=0 n_rw=0 n_cy=0
while IFS=, read -r check hart words bad addr want got; do
	case $check in
	mess-load)
		n_ld=$((n_ld + 1))
		[ "$bad" = 2 ] && [ $((want)) = $((addr ^ 0x6d657373a5a5a5a5)) ] && [ $((got)) = $((want ^ 0xff)) ] ||
			why="$why load:$hart,$bad,$addr,$want,$got" ;;
	mess-store)
		n_st=$((n_st + 1))
		[ "$bad" = 1 ] && [ $((want & 0xffffffff)) = $((hart << 8 | 0x4d)) ] && [ $((got)) = $((want ^ 0xff00)) ] ||
			why="$why store:$hart,$bad,$want,$got" ;;
	mess-ring)
		n_rw=$((n_rw + 1))
		[ "$bad" = 1 ] && [ -n "$want" ] && [ "$want" != "$got" ] || why="$why ring:$bad,$want,$got" ;;
	mess-cycle)
		n_cy=$((n_cy + 1))
		[ "$bad" = 1 ] && [ $((want)) = 0 ] && [ $((got)) = 255 ] && [ $((addr)) = $((hb + 8)) ] ||
			why="$why cycle:$bad,$addr,$want,$got" ;;
	esac
done < <(tail -n +2 "$TMP/mc/integrity.csv" 2>/dev/null)
# 2 generators x 6 points of load checks; store checks at the first point of
# the two curves that store; the ring's end check once; the cycle after the last point
if [ $rc = 3 ] && [ -z "$why" ] && [ $n_ld = 12 ] && [ $n_st = 4 ] && [ $n_rw = 1 ] && [ $n_cy = 1 ]; then
	pass integ-mess-planted
else
	fail integ-mess-planted "parse exit $rc, rows load=$n_ld store=$n_st ring=$n_rw cycle=$n_cy:$why"
fi

# the sampled check (mess_check=4, docs/mess.md "The generators' check"):
# the point of epoch e (1..6 here, one per point) checks only the lines i
# (of the 1 000 in a 64K array: 20 blocks of 50) with i % 4 == e % 4, 250
# of them, in the load array and among the store slots alike; after the
# last point the whole load array.  The load plants (lines 1 and 999, made
# at epochs 1, 3 and 5 and lasting) are found at epochs 1 and 5 (residue 1:
# line 1) and 3 (residue 3: line 999), not at 2, 4 or 6, and both by the
# last check; the store plant goes to the first store slot the point
# reads: epoch 3 (50 % stores: the odd lines are the slots; residue 3:
# line 3) and 5 (100 %: every line; residue 1: line 1); epoch 1 has no
# store slot.  Records per generator, in log order, as
# words,bad,offset (from its array's start)[,epoch of want]: loads
# 250,1,64 250,1,63936 250,1,64 1000,2,64; stores 250,1,192,3 250,1,64,5.
# A sample that never rotates, a last check that stays per block, or a
# plant in a slot the point skips (the first slot: line 1 at epoch 3,
# line 0 at epoch 5) each change these rows.
cp "$TMP/m.elf" "$TMP/ms.elf" && "$RV" config "$TMP/ms.elf" mess_check=4 >/dev/null &&
	cp "$TMP/ms.elf" "$TMP/msc.elf" && "$RV" config "$TMP/msc.elf" inject_corrupt=1 >/dev/null ||
	fail integ-mess-sampled-config "rvmess config refused mess_check=4"
timeout 120 "$HS" --harts 3 "$TMP/ms.elf" >"$TMP/ms.log" 2>&1
if grep -aq ' end h=[0-9]* status=ok ' "$TMP/ms.log" && ! grep -aq ' integ ' "$TMP/ms.log" &&
	[ "$(grep -ac ' mess h=' "$TMP/ms.log")" = 6 ]; then pass integ-mess-sampled-clean
else fail integ-mess-sampled-clean "$(grep -a ' integ \| end ' "$TMP/ms.log" | head -2 | tr '\n' ' ')"; fi
timeout 120 "$HS" --harts 3 "$TMP/msc.elf" >"$TMP/msc.log" 2>&1
"$RV" parse "$TMP/msc.log" -o "$TMP/msc" >/dev/null 2>&1; rc=$?
hb=$(heap_base "$TMP/msc.log")
lead=$(grep -ao ' mess h=[0-9]*' "$TMP/msc.log" | head -1 | cut -d= -f2)
declare -A seq=()
why=""
while IFS=, read -r check hart words bad addr want got; do
	case $check in mess-load | mess-store) ;; *) continue ;; esac
	k=$((hart < ${lead:-0} ? hart : hart - 1)) # generator k: its two arrays follow the 2M ring
	base=$((hb + 2097152 + k * 128000))
	if [ "$check" = mess-load ]; then
		row="$words,$bad,$((addr - base))"
		[ $((want)) = $((addr ^ 0x6d657373a5a5a5a5)) ] && [ $((got)) = $((want ^ 0xff)) ] || why="$why load:$hart,$addr,$want,$got"
	else
		row="$words,$bad,$((addr - base - 64000)),$((want >> 32))"
		[ $((want & 0xffffffff)) = $((hart << 8 | 0x4d)) ] && [ $((got)) = $((want ^ 0xff00)) ] || why="$why store:$hart,$want,$got"
	fi
	seq["$check $hart"]="${seq["$check $hart"]:-} $row"
done < <(tail -n +2 "$TMP/msc/integrity.csv" 2>/dev/null)
got=$(for c in "${!seq[@]}"; do echo "$c:${seq[$c]}"; done | sort)
want=""
for h in 0 1 2; do
	[ "$h" = "$lead" ] && continue
	want="$want${want:+|}mess-load $h: 250,1,64 250,1,63936 250,1,64 1000,2,64|mess-store $h: 250,1,192,3 250,1,64,5"
done
want=$(echo "$want" | tr '|' '\n' | sort)
n_rw=$(grep -c '^mess-ring,' "$TMP/msc/integrity.csv" 2>/dev/null) n_cy=$(grep -c '^mess-cycle,' "$TMP/msc/integrity.csv" 2>/dev/null)
if [ $rc = 3 ] && [ -n "$lead" ] && [ -z "$why" ] && [ "$got" = "$want" ] && [ "$n_rw" = 1 ] && [ "$n_cy" = 1 ]; then
	pass integ-mess-sampled-planted
else
	fail integ-mess-sampled-planted "parse exit $rc, ring=$n_rw cycle=$n_cy,$why rows: $(echo "$got" | tr '\n' '|') want: $(echo "$want" | tr '\n' '|')"
fi
finish
