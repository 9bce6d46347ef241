#!/usr/bin/env bash
# Nothing lost, mixed or clobbered: what rvmess and hostsim do with bad or
# hostile input, and with their outputs when something goes wrong.
#   msg-*       a refusal says why, whatever the input: the reason survives a
#               480-character token (every command that quotes one), the
#               config's bad-suite message lists every suite
#   nul-*       a NUL inside a config line is an error naming file, line and
#               column, not a silently shorter line
#   numbers-*   rvmess curves and rvmess sim curves read one Mess CSV alike:
#               0x10 refused by both, a duplicate row refused by both
#   fifo-*      a FIFO where a file is expected (a curve directory, a run
#               directory, run.txt beside a log) is refused at once, no hang
#   parse-device  parse /dev/zero is refused at once (a device is not a log)
#   capture-end-long-line  the end record after 5000 bytes on its line stops
#               capture at once (no timeout)
#   set-*       a whole output set at once: parse killed at each step of its
#               commit (RVMESS_KILL_AT) and at random moments: DIR holds the
#               old set or the new one, never a mix, a user's file is kept
#               (and one that appeared during the commit), the next run
#               leaves nothing behind; in the working directory, file by file
#   input-*     an input is never an output (capture, parse, curves)
#   link-*      no command writes through a link: merge, plan, the runner,
#               rvmess sim profile -o (nor over the profile it reads)
#   merge-*     merge is clean only over a whole set of the plan's own logs:
#               a bad CRC, no end record, two runs, a missing log, another
#               plan's, job's or configuration's log, another seed: exit 1,
#               (a plan from before ids keeps its logs by their cfg record)
#               an unclean summary, the job named, and --todo lists it;
#               a configuration named .. is refused; a full disk changes
#               nothing and says so; killed at random moments, OUT holds the
#               old merged set or the new one
#   runner-*    the runner fails when merge --todo fails (corrupt manifest,
#               no base.elf, a crashing rvmess), never "nothing to run", and
#               when --adaptive's plan --refine fails, never "done"
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
. ci/records.sh
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
RVMESS=$(abs "$BUILD/bin/rvmess")
HOSTSIM=$(abs "$BUILD/bin/hostsim")
IMG=$(abs "$BUILD/images/virt.elf")
scratch safety
T=$TMP
for b in "$RVMESS" "$HOSTSIM" "$IMG"; do
	[ -e "$b" ] || { fail build "$b not built (make)"; exit 1; }
done
SHIPPED=curves/hostsim-ddr4-3200

# ---- messages keep their reason ---------------------------------------------------
X=$(head -c 480 /dev/zero | tr '\0' x)
# the first message of COMMAND (on a 480-character bad token) holds REASON,
# quotes at most the token's first 40 characters, and is short
msg_case() { # NAME REASON COMMAND...
	local name=$1 reason=$2 line
	shift 2
	"$@" >/dev/null 2>"$T/msg.err"
	line=$(grep -m1 xxxxxxxxxxxxxxxxxxxx "$T/msg.err")
	if [ -n "$line" ] && [[ "$line" == *"$reason"* ]] && [ ${#line} -lt 400 ] && [[ "$line" != *"$X"* ]]; then
		pass "msg-long-token-$name"
	else fail "msg-long-token-$name" "want the reason '$reason' in a short line; got ${#line} characters: ${line: -120}"; fi
}
cp "$IMG" "$T/img.elf"
msg_case config-arg "is not a number" "$RVMESS" config "$T/img.elf" "reps=$X" -o "$T/o.elf"
printf 'reps=%s\n' "$X" >"$T/long.cfg"
msg_case config-file "is not a number" "$RVMESS" config "$T/img.elf" --file "$T/long.cfg" -o "$T/o.elf"
msg_case config-list "too long" "$RVMESS" config "$T/img.elf" "mess_pause=1,$X" -o "$T/o.elf"
msg_case hostsim-arg "is not a number" "$HOSTSIM" --harts "$X" "$IMG"
printf 'harts=%s\n' "$X" >"$T/long.sim"
msg_case hostsim-config "is not a number" "$HOSTSIM" --config "$T/long.sim" "$IMG"
sed "2s/^\([0-9]*\),[0-9]*,/\1,$X,/" "$SHIPPED/mess.csv" >"$T/long.csv"
msg_case curves "not a number" "$RVMESS" curves "$T/long.csv"
msg_case sim-curves "is not a number" "$RVMESS" sim curves "$T/long.csv" -o "$T/long-out"
mkdir -p "$T/lp/logs"
printf 'rvmess-plan\t1\ntarget\thostsim\ncommand\tx\nreps\t1\ntime\t60\nmem\t100\nconfig\tc0\t\njob\t0\tc0\tmess\t0\t%s\n' "$X" >"$T/lp/manifest.tsv"
msg_case manifest "a value is too long" "$RVMESS" merge "$T/lp" --todo

"$RVMESS" config "$T/img.elf" suites=chase,foo -o "$T/o.elf" >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 1 ] && grep -q "unknown suite 'foo' (want chase,lat,par,mess,check,litmus,integ or all)" "$T/err.txt"; then
	pass msg-config-suites-all
else fail msg-config-suites-all "exit $rc: $(head -1 "$T/err.txt")"; fi

# ---- a NUL inside a config line -----------------------------------------------------
printf 'reps=5\0x\nseed=7\n' >"$T/nul.cfg"
cp "$IMG" "$T/nul.elf"
"$RVMESS" config "$T/nul.elf" --file "$T/nul.cfg" >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 1 ] && grep -qx "$T/nul.cfg:1: a NUL byte in the line (column 7)" "$T/err.txt" && cmp -s "$T/nul.elf" "$IMG"; then
	pass nul-config-file
else fail nul-config-file "exit $rc (want 1, image untouched): $(head -2 "$T/err.txt" | tr '\n' '|')"; fi
printf '# two harts\nharts=2\0 0\n' >"$T/nul.sim"
timeout 20 "$HOSTSIM" --config "$T/nul.sim" --max-insns 1000 "$IMG" >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 2 ] && grep -q "$T/nul.sim:2: a NUL byte in the line (column 8)" "$T/err.txt"; then pass nul-hostsim-config
else fail nul-hostsim-config "exit $rc (want 2): $(head -2 "$T/err.txt" | tr '\n' '|')"; fi

# ---- one number and row policy for rvmess curves and rvmess sim curves ---------------
sed '2s/^\([0-9]*\),[0-9]*,/\1,0x10,/' "$SHIPPED/mess.csv" >"$T/hex.csv"
"$RVMESS" curves "$T/hex.csv" >/dev/null 2>"$T/c.err"; rc1=$?
"$RVMESS" sim curves "$T/hex.csv" -o "$T/hex-out" >/dev/null 2>"$T/s.err"; rc2=$?
if [ $rc1 != 0 ] && [ $rc2 != 0 ] && grep -q "hex.csv:2: column pause: not a number: '0x10'" "$T/c.err" &&
	grep -q "hex.csv:2: '0x10' is not a number" "$T/s.err"; then pass numbers-hex-refused-by-both
else fail numbers-hex-refused-by-both "curves exit $rc1 ($(head -1 "$T/c.err")), sim curves exit $rc2 ($(head -1 "$T/s.err"))"; fi
{ cat "$SHIPPED/mess.csv"; sed -n 2p "$SHIPPED/mess.csv"; } >"$T/dup.csv"
n=$(wc -l <"$T/dup.csv")
want="dup.csv:$n: duplicate row: rw_ratio 100 pause 16384 is already on line 2"
"$RVMESS" curves "$T/dup.csv" >/dev/null 2>"$T/c.err"; rc1=$?
"$RVMESS" sim curves "$T/dup.csv" -o "$T/dup-out" >/dev/null 2>"$T/s.err"; rc2=$?
if [ $rc1 != 0 ] && [ $rc2 != 0 ] && grep -q "$want" "$T/c.err" && grep -q "$want" "$T/s.err"; then
	pass numbers-duplicate-refused-by-both
else fail numbers-duplicate-refused-by-both "curves exit $rc1 ($(head -1 "$T/c.err")), sim curves exit $rc2 ($(head -1 "$T/s.err"))"; fi

# ---- FIFOs where files are expected ----------------------------------------------------
mkdir -p "$T/fam"
cp -r "$SHIPPED/bwlat" "$T/fam/"
rm "$T/fam/bwlat/bwlat_50.txt"
mkfifo "$T/fam/bwlat/bwlat_50.txt"
timeout 20 "$RVMESS" sim info "$T/fam" >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 2 ] && grep -q "bwlat_50.txt: cannot open: not a regular file" "$T/err.txt"; then pass fifo-curve-dir-sim
else fail fifo-curve-dir-sim "exit $rc (124: hung): $(head -1 "$T/err.txt")"; fi
timeout 20 "$HOSTSIM" --mem-model mess --mess-curves "$T/fam" --max-insns 1000 "$IMG" >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 2 ] && grep -q "bwlat_50.txt: cannot open: not a regular file" "$T/err.txt"; then pass fifo-curve-dir-hostsim
else fail fifo-curve-dir-hostsim "exit $rc (124: hung): $(head -1 "$T/err.txt")"; fi
mkfifo "$T/fifo.csv"
timeout 20 "$RVMESS" curves "$T/fifo.csv" >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 2 ] && grep -q "fifo.csv: not a regular file" "$T/err.txt"; then pass fifo-curves-csv
else fail fifo-curves-csv "exit $rc (124: hung): $(head -1 "$T/err.txt")"; fi
{ rec 0 hdr 0 proto=1 platform=virt; rec 1 end 0 status=ok errors=0 records=1; } >"$T/tiny.log"
mkdir -p "$T/run1" "$T/run2"
cp "$T/tiny.log" "$T/run1/console.log"
mkfifo "$T/run1/run.txt"
timeout 20 "$RVMESS" parse "$T/run1/console.log" -o "$T/run1" -q >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 0 ] && grep -qx 'target: unknown (from unknown)' "$T/run1/summary.txt"; then pass fifo-run-txt-beside-log
else fail fifo-run-txt-beside-log "exit $rc (124: hung): $(head -1 "$T/err.txt")"; fi
"$RVMESS" parse "$T/tiny.log" -o "$T/run2" -q >/dev/null 2>&1
rm "$T/run2/summary.txt"; mkfifo "$T/run2/summary.txt"
timeout 20 "$RVMESS" compare "$T/run1" "$T/run2" >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 2 ] && grep -q "summary.txt: not a regular file" "$T/err.txt"; then pass fifo-compare-run-dir
else fail fifo-compare-run-dir "exit $rc (124: hung): $(head -1 "$T/err.txt")"; fi

# ---- parse /dev/zero ---------------------------------------------------------------------
timeout 20 "$RVMESS" parse /dev/zero -o "$T/zero" >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 2 ] && grep -q "^rvmess parse: /dev/zero: a device, not a log file" "$T/err.txt" && [ ! -e "$T/zero" ]; then
	pass parse-device
else fail parse-device "exit $rc (124: still reading): $(head -1 "$T/err.txt")"; fi

# ---- rvmess sim profile -o: never through a link, never its own profile ---------------------
printf '# cycle requests MBps read_pct latency_ns\n1000 10 640.0 100 120.0\n2000 20 1280.0 50 150.0\n' >"$T/w.prof"
echo precious >"$T/svg-victim"; ln -s "$T/svg-victim" "$T/prof.svg"
"$RVMESS" sim profile "$SHIPPED" "$T/w.prof" -o "$T/prof.svg" >/dev/null 2>"$T/err.txt"; rc1=$?
cp "$T/w.prof" "$T/w2.prof"
"$RVMESS" sim profile "$SHIPPED" "$T/w2.prof" -o "$T/w2.prof" >/dev/null 2>"$T/err2.txt"; rc2=$?
if [ $rc1 = 0 ] && [ "$(cat "$T/svg-victim")" = precious ] && [ ! -L "$T/prof.svg" ] && grep -q '<svg' "$T/prof.svg" &&
	[ $rc2 = 2 ] && grep -q "is the profile it reads" "$T/err2.txt" && cmp -s "$T/w.prof" "$T/w2.prof"; then
	pass link-sim-profile-svg
else fail link-sim-profile-svg "link: exit $rc1, victim '$(head -c 20 "$T/svg-victim")'; -o = profile: exit $rc2 $(head -1 "$T/err2.txt")"; fi

# ---- capture: the end record after a long line of noise -----------------------------------
{
	rec 0 hdr 0 proto=1 platform=virt
	head -c 5000 /dev/zero | tr '\0' '#'; rec 1 end 0 status=ok errors=0 records=1
	echo "after the end: not captured"
} >"$T/longend.log"
mkfifo "$T/console"; mkdir -p "$T/cap"
(cat "$T/longend.log"; sleep 60) >"$T/console" &
wpid=$!
start=$(date +%s)
timeout 60 "$RVMESS" capture "$T/console" -o "$T/cap/console.log" --timeout 20 -q >/dev/null 2>"$T/err.txt"; rc=$?
took=$(( $(date +%s) - start ))
kill "$wpid" 2>/dev/null; wait "$wpid" 2>/dev/null
if [ $rc = 0 ] && grep -q "end record after" "$T/err.txt" && [ "$took" -lt 15 ] &&
	cmp -s <(head -2 "$T/longend.log") "$T/cap/console.log"; then pass "capture-end-long-line (${took}s)"
else fail capture-end-long-line "exit $rc after ${took}s: $(grep -m1 'capture:' "$T/err.txt" | tail -1)"; fi

# ---- a whole output set at once ------------------------------------------------------------
GEN=$BUILD/bin/rvmess-genlog
"$GEN" --lat 4000 --par 200 --mess 960 --chase 20 >"$T/setA.log"
"$GEN" --lat 20000 --par 2000 --mess 3000 --chase 200 >"$T/setB.log"
sum_tree() { # DIR: "path md5" of every file but rvmess's staging mark, sorted
	(cd "$1" && find . -type f ! -name .rvmess-stage -exec md5sum {} + | awk '{ print $2, $1 }' | sort)
}
leftovers() { # DIR: staging folders beside it or in it, temporaries, marks
	{ ls -a "$(dirname "$1")" | grep -F ".$(basename "$1").rvmess-"
	  find "$1" -name '.rvmess-stage*' -o -name '*.tmp.??????'; } 2>/dev/null | tr '\n' ' '
}
for x in A B; do
	mkdir -p "$T/ref$x"; echo mine >"$T/ref$x/notes.txt"
	"$RVMESS" parse "$T/set$x.log" -o "$T/ref$x" -q >/dev/null 2>&1
	sum_tree "$T/ref$x" | sed 's/^\.\/ref.\//.\//' >"$T/sum$x"
done
# at each step of the commit: before the swap DIR is the old set, after it the new one
for point in staged linked swapped; do
	D=$T/set-$point
	rm -rf "$D"; mkdir -p "$D"; echo mine >"$D/notes.txt"
	"$RVMESS" parse "$T/setA.log" -o "$D" -q >/dev/null 2>&1
	RVMESS_KILL_AT=$point "$RVMESS" parse "$T/setB.log" -o "$D" -q >/dev/null 2>&1 &
	wait $! 2>/dev/null; rc=$?
	sum_tree "$D" >"$T/sum-now"
	want=A; [ $point = swapped ] && want=B
	left=$(leftovers "$D")
	late=ok
	if [ $point = swapped ]; then # a file that appeared in DIR during the commit is in the old tree: kept
		old=$(ls -d "$T"/.set-swapped.rvmess-* 2>/dev/null | head -1)
		echo late >"$old/late.txt" 2>/dev/null || late="no old tree"
	fi
	"$RVMESS" parse "$T/setB.log" -o "$D" -q >/dev/null 2>&1; rc2=$?
	if [ $point = swapped ]; then
		[ "$(cat "$D/late.txt" 2>/dev/null)" = late ] || late="late.txt not moved into DIR"
		rm -f "$D/late.txt"
	fi
	sum_tree "$D" >"$T/sum-after"
	if [ $rc = 137 ] && cmp -s "$T/sum-now" "$T/sum$want" && [ -n "$left" ] && [ $rc2 = 0 ] && [ "$late" = ok ] &&
		cmp -s "$T/sum-after" "$T/sumB" && [ -z "$(leftovers "$D")" ]; then
		pass "set-kill-$point (set $want after the kill; left: ${left% })"
	else fail "set-kill-$point" "exit $rc (want 137), set after the kill: $(cmp -s "$T/sum-now" "$T/sumA" && echo A || { cmp -s "$T/sum-now" "$T/sumB" && echo B || echo mixed; }) (want $want); next run exit $rc2, left: $(leftovers "$D"); late file: $late"; fi
done
# killed at moments spread over a whole run (fractions of one run's time here)
D=$T/set-random
rm -rf "$D"; mkdir -p "$D"; echo mine >"$D/notes.txt"
"$RVMESS" parse "$T/setA.log" -o "$D" -q >/dev/null 2>&1
ms() { date +%s%3N; }
t0=$(ms); "$RVMESS" parse "$T/setB.log" -o "$D" -q >/dev/null 2>&1; took=$(( $(ms) - t0 ))
"$RVMESS" parse "$T/setA.log" -o "$D" -q >/dev/null 2>&1
mixed=0 nA=0 nB=0 kills=0
for pct in 3 8 15 25 35 45 55 65 75 85 92 97; do
	delay=$(awk -v t="$took" -v p="$pct" 'BEGIN { printf "%.3f", t * p / 100000 }')
	"$RVMESS" parse "$T/setB.log" -o "$D" -q >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null && kills=$((kills + 1))
	wait "$pid" 2>/dev/null
	sum_tree "$D" >"$T/sum-now"
	if cmp -s "$T/sum-now" "$T/sumA"; then nA=$((nA + 1))
	elif cmp -s "$T/sum-now" "$T/sumB"; then nB=$((nB + 1))
	else mixed=$((mixed + 1)); cp "$T/sum-now" "$T/sum-mixed"; fi
	# back to the old set for the next kill (that run cleans what the killed one left)
	"$RVMESS" parse "$T/setA.log" -o "$D" -q >/dev/null 2>&1
done
if [ $mixed = 0 ] && [ $kills -ge 6 ] && [ -z "$(leftovers "$D")" ] && cmp -s <(sum_tree "$D") "$T/sumA"; then
	pass "set-kill-random ($kills kills over a ${took} ms run: old set $nA, new set $nB, mixed 0)"
else fail set-kill-random "$kills kills: $mixed left a mixed set ($(diff "$T/sum-mixed" "$T/sumA" 2>/dev/null | grep -c '^>') files not the old), leftovers: $(leftovers "$D")"; fi
# an older rvmess's temporaries are removed by the next run; a user's look-alike is not
D=$T/set-temps
mkdir -p "$D/bwlat"
echo x >"$D/.records.csv.tmp.AbC123"; echo x >"$D/bwlat/.bwlat_50.txt.tmp.Zz9aBc"; echo mine >"$D/.mine.tmp.AbC123"
"$RVMESS" parse "$T/setA.log" -o "$D" -q >/dev/null 2>&1; rc=$?
if [ $rc = 0 ] && [ ! -e "$D/.records.csv.tmp.AbC123" ] && [ ! -e "$D/bwlat/.bwlat_50.txt.tmp.Zz9aBc" ] &&
	[ "$(cat "$D/.mine.tmp.AbC123")" = mine ]; then pass set-old-temporaries-removed
else fail set-old-temporaries-removed "exit $rc; left: $(ls -a "$D" "$D/bwlat" | grep tmp | tr '\n' ' ')"; fi
# the working directory itself: no swap (a shell there would be left in a removed folder), files one by one
D=$T/set-cwd
mkdir -p "$D"; echo mine >"$D/notes.txt"
ino=$(stat -c %i "$D")
(cd "$D" && "$RVMESS" parse "$T/setB.log" -o . -q >/dev/null 2>&1 && "$RVMESS" parse "$T/setA.log" -o . -q >/dev/null 2>&1); rc=$?
if [ $rc = 0 ] && [ "$(stat -c %i "$D")" = "$ino" ] && cmp -s <(sum_tree "$D") "$T/sumA" && [ -z "$(leftovers "$D")" ]; then
	pass set-cwd-filewise
else fail set-cwd-filewise "exit $rc, inode $(stat -c %i "$D") (was $ino), left: $(leftovers "$D")"; fi

# ---- an input is never an output ------------------------------------------------------------
D=$T/in1
"$RVMESS" parse "$T/tiny.log" -o "$D" -q >/dev/null 2>&1
cp "$D/records.csv" "$T/records.before"
"$RVMESS" capture - -o "$D/records.csv" <"$T/tiny.log" >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 2 ] && grep -q "records.csv is a name the parse writes into" "$T/err.txt" && cmp -s "$D/records.csv" "$T/records.before"; then
	pass input-capture-log-is-output
else fail input-capture-log-is-output "exit $rc: $(head -1 "$T/err.txt")"; fi
cp "$T/tiny.log" "$T/self.log"
"$RVMESS" capture - -o "$T/self.log" <"$T/self.log" >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 2 ] && grep -q "is the input itself" "$T/err.txt" && cmp -s "$T/self.log" "$T/tiny.log"; then
	pass input-capture-log-is-stdin
else fail input-capture-log-is-stdin "exit $rc: $(head -1 "$T/err.txt")"; fi
mkfifo "$T/fifo.log"; ln -s "$T/victim0" "$T/link.log"; echo precious >"$T/victim0"
bad=""
for L in fifo.log link.log; do
	timeout 20 "$RVMESS" capture - -o "$T/$L" <"$T/tiny.log" >/dev/null 2>"$T/err.txt"; rc=$?
	[ $rc = 2 ] && grep -q "capture writes a regular file" "$T/err.txt" || bad="$bad $L: exit $rc $(head -1 "$T/err.txt")"
done
if [ -z "$bad" ] && [ "$(cat "$T/victim0")" = precious ]; then pass input-capture-log-not-regular
else fail input-capture-log-not-regular "$bad"; fi
cp "$T/tiny.log" "$D/summary.txt"
"$RVMESS" parse "$D/summary.txt" -o "$D" >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 2 ] && grep -q "summary.txt: is an input of this command" "$T/err.txt" && cmp -s "$D/summary.txt" "$T/tiny.log"; then
	pass input-parse-log-named-like-output
else fail input-parse-log-named-like-output "exit $rc: $(head -1 "$T/err.txt")"; fi
mkdir -p "$T/in2"; cp "$SHIPPED/mess.csv" "$T/in2/mess.csv"
"$RVMESS" curves "$T/in2/mess.csv" -o "$T/in2" >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 2 ] && grep -q "mess.csv: is an input of this command" "$T/err.txt" && cmp -s "$T/in2/mess.csv" "$SHIPPED/mess.csv"; then
	pass input-curves-csv
else fail input-curves-csv "exit $rc: $(head -1 "$T/err.txt")"; fi
# capture stopped by a signal: the log holds what arrived, the parse runs
mkfifo "$T/console2"
{ rec 0 hdr 0 proto=1 platform=virt; rec 1 chase 0 size=4096 lines=64 rep=0 loads=100 cycles=400 ticks=4 ns=400 cpl=4.000 nspl=4.000; } >"$T/noend.log"
(cat "$T/noend.log"; sleep 60) >"$T/console2" &
wpid=$!
mkdir -p "$T/cap2"
"$RVMESS" capture "$T/console2" -o "$T/cap2/console.log" -q >"$T/out.txt" 2>"$T/err.txt" &
cpid=$!
sleep 1; kill -TERM "$cpid"; wait "$cpid"; rc=$?
kill "$wpid" 2>/dev/null; wait "$wpid" 2>/dev/null
if [ $rc = 1 ] && grep -q "stopped by signal 15" "$T/err.txt" && cmp -s "$T/cap2/console.log" "$T/noend.log" &&
	grep -q 'complete=no' "$T/out.txt" && [ -z "$(ls -a "$T/cap2" | grep capture)" ]; then pass input-capture-signal-keeps-log
else fail input-capture-signal-keeps-log "exit $rc: $(grep capture: "$T/err.txt" | tail -1)"; fi

# ---- a small plan, run once: the merge and runner cases' fixture ------------------------------------
cat >"$T/grid.cfg" <<'EOF'
suites=chase,mess
reps=1
chase_size=64K
chase_loads=1000
chase_all_harts=0
mess_chase_size=4M
mess_gen_size=64K
mess_window_loads=1000
mess_mix=0,100
mess_pause=0,1024
EOF
P=$T/plan
if ! "$RVMESS" plan "$IMG" -o "$P" --file "$T/grid.cfg" --harts 2 --mem-size 64M >"$T/plan.out" 2>&1 ||
	! "$P/run.sh" -j 2 --progress off >"$T/run.out" 2>&1 || ! "$RVMESS" merge "$P" -o "$T/m0" -q >"$T/m0.out" 2>&1 ||
	! grep -q 'points=4 good=4 missing=0 failed=0 duplicated=0 unexpected=0' "$T/m0.out"; then
	fail plan-fixture "the plan did not run and merge clean: $(tail -2 "$T/plan.out" "$T/run.out" "$T/m0.out" | tr '\n' '|')"
	finish; exit $?
fi
pass plan-fixture
dup_plan() { rm -rf "$2"; cp -a "$1" "$2"; }
# MERGE-CASE NAME JOB WHAT: merge of $T/p-NAME is unclean: exit 1, result=unclean,
# the merged summary unclean, job JOB named with WHAT, --todo lists exactly JOB
merge_unclean() { # NAME JOBS WHAT
	local name=$1 jobs=$2 what=$3 rc todo
	"$RVMESS" merge "$T/p-$name" -o "$T/mo-$name" -q >"$T/mo.out" 2>"$T/mo.err"; rc=$?
	todo=$("$RVMESS" merge "$T/p-$name" --todo | tr '\n' ' ')
	if [ $rc = 1 ] && grep -q 'result=unclean$' "$T/mo.out" && grep -qx 'result: unclean' "$T/mo-$name/summary.txt" &&
		grep -qx 'status: fail' "$T/mo-$name/summary.txt" && grep -q "job ${jobs%% *} (.*): .*$what" "$T/mo.err" &&
		[ "$todo" = "$jobs " ]; then pass "merge-unclean-$name"
	else fail "merge-unclean-$name" "exit $rc (want 1), todo '$todo' (want '$jobs '): $(grep -v '^rvmess parse' "$T/mo.err" | head -2 | tr '\n' '|') $(tail -1 "$T/mo.out")"; fi
}
dup_plan "$P" "$T/p-bad-crc"
sed -i '/ mess h=/s/nspl=/nspl=9/' "$T/p-bad-crc/logs/2.log"
merge_unclean bad-crc 2 "incomplete log (records missing)"
dup_plan "$P" "$T/p-no-end"
sed -i '/ end h=/d' "$T/p-no-end/logs/3.log"
merge_unclean no-end 3 "no end record"
dup_plan "$P" "$T/p-two-runs"
tail -n +2 "$P/logs/1.log" >>"$T/p-two-runs/logs/1.log"
merge_unclean two-runs 1 "two runs in one log"
dup_plan "$P" "$T/p-no-chase-log"
rm "$T/p-no-chase-log/logs/0.log"
merge_unclean no-chase-log 0 "no log"
# another plan: the same grid with another seed and another chase size
Q=$T/qplan
"$RVMESS" plan "$IMG" -o "$Q" --file "$T/grid.cfg" seed=2 mess_chase_size=8M --harts 2 --mem-size 64M >/dev/null 2>&1 &&
	"$Q/run.sh" --task 2 >/dev/null 2>&1
dup_plan "$P" "$T/p-other-plan"
cp "$Q/logs/2.log" "$T/p-other-plan/logs/2.log"
merge_unclean other-plan 2 "refused: another plan's log"
if ! awk -F, 'NR > 1 && $2 == 0 && $3 == 1024' "$T/mo-other-plan/mess_raw.csv" | grep -q .; then pass merge-foreign-point-left-out
else fail merge-foreign-point-left-out "mess_raw.csv holds the other plan's point mix=0 pause=1024"; fi
dup_plan "$P" "$T/p-forged"
{ head -1 "$P/logs/2.log"; tail -n +2 "$Q/logs/2.log"; } >"$T/p-forged/logs/2.log"
merge_unclean forged 2 "refused: its cfg record (line 3) is not the job's image's configuration: seed is 2, the plan's 1"
dup_plan "$P" "$T/p-other-job"
cp "$P/logs/1.log" "$T/p-other-job/logs/2.log"
merge_unclean other-job 2 "refused: another job's log"
dup_plan "$P" "$T/p-other-options"
sed -i 's/^config\tc0\t$/config\tc0\t--mem-model fixed/' "$T/p-other-options/manifest.tsv"
"$RVMESS" merge "$T/p-other-options" -o "$T/mo-other-options" -q >"$T/mo.out" 2>"$T/mo.err"; rc=$?
todo=$("$RVMESS" merge "$T/p-other-options" --todo | tr '\n' ' ')
if [ $rc = 2 ] && [ "$(grep -c 'refused: run with other options' "$T/mo.err")" = 5 ] && [ "$todo" = "0 1 2 3 4 " ]; then
	pass merge-refused-other-options
else fail merge-refused-other-options "exit $rc (want 2: nothing to merge), todo '$todo': $(head -2 "$T/mo.err" | tr '\n' '|')"; fi
# a plan from before ids: its logs (no runner line) are kept by their cfg record; another seed's is not
dup_plan "$P" "$T/p-legacy"
sed -i '/^id	/d' "$T/p-legacy/manifest.tsv"
for f in "$T/p-legacy"/logs/*.log; do tail -n +2 "$f" >"$f.x" && mv "$f.x" "$f"; done
"$RVMESS" merge "$T/p-legacy" -o "$T/mo-legacy" -q >"$T/mo.out" 2>"$T/mo.err"; rc=$?
tail -n +2 "$Q/logs/2.log" >"$T/p-legacy/logs/2.log"
todo=$("$RVMESS" merge "$T/p-legacy" --todo | tr '\n' ' ')
if [ $rc = 0 ] && grep -q 'result=clean$' "$T/mo.out" && [ "$todo" = "2 " ]; then pass merge-legacy-plan-logs
else fail merge-legacy-plan-logs "exit $rc: $(head -2 "$T/mo.err" | tr '\n' '|'), todo with another seed's log '$todo' (want '2 ')"; fi
# a configuration named ..: refused; nothing written beside OUT
dup_plan "$P" "$T/p-dotdot"
sed -i 's/^config\tc0\t$/config\t..\t/; s/^\(job\t[0-9]*\t\)c0/\1../' "$T/p-dotdot/manifest.tsv"
mkdir -p "$T/dd/out"; before=$(ls -a "$T/dd" | tr '\n' ' ')
"$RVMESS" merge "$T/p-dotdot" -o "$T/dd/out" >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 2 ] && grep -q "configuration name '..'" "$T/err.txt" && [ "$(ls -a "$T/dd" | tr '\n' ' ')" = "$before" ] &&
	[ -z "$(ls -A "$T/dd/out")" ]; then pass merge-config-dotdot-refused
else fail merge-config-dotdot-refused "exit $rc: $(head -1 "$T/err.txt"); beside OUT: $(ls -a "$T/dd" | tr '\n' ' ')"; fi
"$RVMESS" plan "$IMG" -o "$T/pdd" --file "$T/grid.cfg" --sim ..="--mem-model fixed" >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc != 0 ] && grep -q "a configuration name is 1..31 of .*not . or .." "$T/err.txt" && [ ! -e "$T/pdd/manifest.tsv" ]; then
	pass plan-config-dotdot-refused
else fail plan-config-dotdot-refused "exit $rc: $(head -1 "$T/err.txt")"; fi
# a full disk (a file size limit: EFBIG, as ENOSPC): named, nothing changed, nothing left
cp -a "$T/m0" "$T/m-full"
echo mine >"$T/m-full/notes.txt"
sum_tree "$T/m-full" >"$T/sum-full"
(trap '' XFSZ; ulimit -f 1; exec "$RVMESS" merge "$P" -o "$T/m-full" -q) >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 2 ] && grep -q "^rvmess merge: $T/m-full/.*: File too large" "$T/err.txt" &&
	grep -q "^rvmess merge: nothing in $T/m-full was changed" "$T/err.txt" && ! grep -q "nothing to merge" "$T/err.txt" &&
	cmp -s <(sum_tree "$T/m-full") "$T/sum-full" && [ -z "$(leftovers "$T/m-full")" ]; then pass merge-full-disk
else fail merge-full-disk "exit $rc: $(head -3 "$T/err.txt" | tr '\n' '|') left: $(leftovers "$T/m-full")"; fi
# merge killed at moments spread over a whole merge: the old merged set or the new one
cp -a "$T/mo-bad-crc" "$T/m-kill"
sum_tree "$T/m-kill" >"$T/sum-mA"
t0=$(ms); "$RVMESS" merge "$P" -o "$T/m-kill" -q >/dev/null 2>&1; took=$(( $(ms) - t0 ))
sum_tree "$T/m-kill" >"$T/sum-mB" # (the new set, merged into the same folder: its summary names it)
rm -rf "$T/m-kill"; cp -a "$T/mo-bad-crc" "$T/m-kill"
mixed=0 kills=0
for pct in 2 5 10 15 20 25 30 35 40 45 50 55 60 65 70 75 80 85 90 95; do
	delay=$(awk -v t="$took" -v p="$pct" 'BEGIN { printf "%.3f", t * p / 100000 }')
	"$RVMESS" merge "$P" -o "$T/m-kill" -q >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null && kills=$((kills + 1))
	wait "$pid" 2>/dev/null
	sum_tree "$T/m-kill" >"$T/sum-now"
	cmp -s "$T/sum-now" "$T/sum-mA" || cmp -s "$T/sum-now" "$T/sum-mB" || mixed=$((mixed + 1))
	rm -rf "$T/m-kill"; cp -a "$T/mo-bad-crc" "$T/m-kill"
done
if [ $mixed = 0 ] && [ $kills -ge 5 ]; then pass "merge-kill-random ($kills kills over a ${took} ms merge, mixed 0)"
else fail merge-kill-random "$mixed of $kills kills left a mixed set"; fi

# ---- never through a link -----------------------------------------------------------------------
printf 'precious\n' >"$T/victim"
cp -a "$T/m0" "$T/m-link"
rm "$T/m-link/merged.log"; ln -s "$T/victim" "$T/m-link/merged.log"
"$RVMESS" merge "$P" -o "$T/m-link" -q >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 2 ] && grep -q "m-link/merged.log: is a symbolic link" "$T/err.txt" && [ "$(cat "$T/victim")" = precious ] &&
	[ -L "$T/m-link/merged.log" ]; then pass link-merge-output
else fail link-merge-output "exit $rc: $(head -1 "$T/err.txt")"; fi
cp -a "$T/m0" "$T/m-link2"
ln -s "$T/victim" "$T/m-link2/.merged.log.tmp" # where an older merge wrote through
"$RVMESS" merge "$P" -o "$T/m-link2" -q >/dev/null 2>&1; rc=$?
if [ $rc = 0 ] && [ "$(cat "$T/victim")" = precious ] && [ -L "$T/m-link2/.merged.log.tmp" ]; then pass link-merge-old-temp
else fail link-merge-old-temp "exit $rc, victim: $(head -c 40 "$T/victim")"; fi
mkdir -p "$T/plink"; ln -s "$T/victim" "$T/plink/run.sh"
"$RVMESS" plan "$IMG" -o "$T/plink" --file "$T/grid.cfg" >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc != 0 ] && grep -q "plink/run.sh: is a symbolic link" "$T/err.txt" && [ "$(cat "$T/victim")" = precious ] &&
	[ ! -e "$T/plink/manifest.tsv" ]; then pass link-plan-file
else fail link-plan-file "exit $rc: $(head -1 "$T/err.txt")"; fi
dup_plan "$P" "$T/p-runlink"
rm "$T/p-runlink/logs/3.log"; ln -s "$T/victim" "$T/p-runlink/logs/3.log"
ln -sf "$T/victim" "$T/p-runlink/logs/3.err"
"$T/p-runlink/run.sh" -j 1 --progress off >"$T/run.out" 2>&1; rc=$?
if [ $rc = 0 ] && [ "$(cat "$T/victim")" = precious ] && [ ! -L "$T/p-runlink/logs/3.log" ] &&
	grep -aq ' end h=' "$T/p-runlink/logs/3.log"; then pass link-runner-job-log
else fail link-runner-job-log "exit $rc, victim: $(head -c 40 "$T/victim"): $(tail -1 "$T/run.out")"; fi
dup_plan "$P" "$T/p-logsdir"
mv "$T/p-logsdir/logs" "$T/elsewhere"; ln -s "$T/elsewhere" "$T/p-logsdir/logs"; rm "$T/elsewhere/1.log"
"$T/p-logsdir/run.sh" -j 1 --progress off >"$T/run.out" 2>&1; rc=$?
if [ $rc != 0 ] && grep -q "logs is not a folder (a link is refused" "$T/run.out" && [ ! -e "$T/elsewhere/1.log" ]; then
	pass link-runner-logs-folder
else fail link-runner-logs-folder "exit $rc: $(tail -1 "$T/run.out")"; fi

# ---- the runner fails when merge --todo fails ---------------------------------------------------
runner_fails() { # NAME PLAN [ENV...]: no log is run, exit 2, says why, never "nothing to run"
	local name=$1 plan=$2 rc
	shift 2
	env "$@" "$plan/run.sh" -j 1 --progress off >"$T/run.out" 2>&1; rc=$?
	if [ $rc = 2 ] && grep -q "merge .* --todo failed" "$T/run.out" && ! grep -q "nothing to run" "$T/run.out"; then
		pass "runner-fails-$name"
	else fail "runner-fails-$name" "exit $rc (want 2): $(tail -2 "$T/run.out" | tr '\n' '|')"; fi
}
dup_plan "$P" "$T/p-badman"; rm "$T/p-badman"/logs/*
printf 'job\tx\n' >>"$T/p-badman/manifest.tsv"
runner_fails corrupt-manifest "$T/p-badman"
dup_plan "$P" "$T/p-nobase"; rm "$T/p-nobase/base.elf"
runner_fails no-base-image "$T/p-nobase"
dup_plan "$P" "$T/p-crash"
runner_fails crashing-rvmess "$T/p-crash" RVMESS=/bin/false
# --adaptive: a refine that fails is the runner's failure too (exit 2), not "done"
dup_plan "$P" "$T/p-refine"
printf '#!/bin/sh\n[ "$1 $2" = "plan --refine" ] && { echo "refine broke" >&2; exit 3; }\nexec "%s" "$@"\n' \
	"$RVMESS" >"$T/rvmess-norefine"
chmod +x "$T/rvmess-norefine"
RVMESS=$T/rvmess-norefine "$T/p-refine/run.sh" --adaptive -j 1 --progress off >"$T/run.out" 2>&1; rc=$?
if [ $rc = 2 ] && grep -q "plan --refine .* failed (exit 3)" "$T/run.out"; then pass runner-fails-refine
else fail runner-fails-refine "exit $rc (want 2): $(tail -2 "$T/run.out" | tr '\n' '|')"; fi

finish
