#!/usr/bin/env bash
# Integration test of hostsim's ddr memory model (docs/memsys.md, "ddr: a
# controller that decides when each command issues") with the mess suite on
# a small grid (100/50/0 % loads, pause 0 and 16384), make run's memory
# system (tools/configs/hostsim-ddr4.sim: one DDR4-3200 channel, the LLC
# stream prefetch), 8 harts:
#   ddr-loads-saturate    100 % loads at pause 0 move 80..95 % of the peak
#                         (refresh, bank timing and row changes cost the rest);
#   ddr-writes-lower      100 % stores (half the traffic writes) move less,
#                         but at least 75 % of 100 % loads' bandwidth (write
#                         drains and turnarounds cost moderately);
#   ddr-mix-saturates     50 % stores at pause 0 move at least 65 % of the
#                         peak (the reservation scheduler, ddr-resv, reached
#                         41..57 % on the mixes with stores);
#   ddr-latency-2x-<mix>  the loaded latency is >= 2x the unloaded one, for
#                         100, 50 and 0 % stores (100 % loads reach it with
#                         the prefetcher's reads in flight: without it, the
#                         64 misses of 8 MSHRs per hart bound it by Little's
#                         law at 1.33x, tools/ddr-anchors.sh);
#   ddr-stats             --stats: hit + empty + conflict = 100 %, the model's
#                         reads/writes equal the memory-controller counts;
#   ddr-prefetch-reads    the prefetcher sent reads, most of them used, and
#                         the memory reads are the harts' LLC misses plus
#                         its reads;
#   ddr-trace-mem         the same run's --trace-mem: as many r and w lines
#                         as the model served, "p" lines as the prefetcher's
#                         reads, every address a line of RAM, every source a hart;
#   ddr-replay            hostsim --replay-mem of that trace: the ddr model
#                         gets every transfer and none late (the trace steps
#                         back between harts); on the fixed model every read
#                         takes its mem-latency exactly; a trace without
#                         addresses is refused with its line;
#   ddr-profile-mem       the run's --profile-mem: every window's read
#                         latency between 80 ns and 5 us (the ddr model
#                         answers a read later: its latency is taken then);
#   ddr-xcheck-table      tools/ddr-xcheck.sh --no-run on 200 000 lines of the
#                         trace: its hostsim columns are the replay's own
#                         (transfers, read share, bandwidth, and the latency
#                         less the read-queue wait and the 40-cycle front end).
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
RVMESS=$BUILD/bin/rvmess
HOSTSIM=$BUILD/bin/hostsim
scratch ddr
[ -x "$HOSTSIM" ] || { fail ddr "$HOSTSIM not built"; finish; exit; }

cp "$BUILD/images/virt.elf" "$TMP/virt.elf"
"$RVMESS" config "$TMP/virt.elf" suites=mess mess_mix=0,50,100 mess_pause=0,16384 reps=1 \
	mess_window_loads=4000 mess_chase_size=32M mess_gen_size=2M >/dev/null || fail config "rvmess config refused the grid"

field() { # LOG MIX PAUSE KEY
	grep -o "@RVM [0-9]* mess .* mix=$2 pause=$3 .*" "$1" | grep -o " $4=[0-9.]*" | head -1 | cut -d= -f2
}

timeout 300 "$HOSTSIM" --harts 8 --mem-size 512M --stats --config tools/configs/hostsim-ddr4.sim \
	--trace-mem "$TMP/ddr.trace" --profile-mem "$TMP/ddr.prof" "$TMP/virt.elf" >"$TMP/ddr.log" 2>"$TMP/ddr.err"
rc=$?
n=$(grep -c "@RVM [0-9]* mess " "$TMP/ddr.log")
if [ $rc != 0 ] || [ "$n" != 6 ]; then fail ddr-grid "exit $rc, $n mess records (want 6)"; finish; exit; fi

rd=$(field "$TMP/ddr.log" 0 0 bw_ctr); wr=$(field "$TMP/ddr.log" 100 0 bw_ctr); peak=$(field "$TMP/ddr.log" 0 0 peak)
if awk -v r="$rd" -v p="$peak" 'BEGIN { exit !(p == 25600 && r >= 0.80 * p && r <= 0.95 * p) }'
then pass "ddr-loads-saturate ($rd of $peak MB/s)"
else fail ddr-loads-saturate "100 % loads at pause 0: $rd MB/s, peak $peak MB/s (want 80..95 % of 25600)"; fi
if awk -v r="$rd" -v w="$wr" 'BEGIN { exit !(w < r && w >= 0.75 * r) }'; then pass "ddr-writes-lower ($rd vs $wr MB/s)"
else fail ddr-writes-lower "100 % loads $rd MB/s, 100 % stores $wr MB/s (want below, and at least 75 %)"; fi
mx=$(field "$TMP/ddr.log" 50 0 bw_ctr)
if awk -v m="$mx" -v p="$peak" 'BEGIN { exit !(m >= 0.65 * p) }'; then pass "ddr-mix-saturates (50 % stores: $mx MB/s)"
else fail ddr-mix-saturates "50 % stores at pause 0: $mx MB/s (want >= 65 % of $peak)"; fi
for m in 0 50 100; do
	idle=$(field "$TMP/ddr.log" $m 16384 nspl); busy=$(field "$TMP/ddr.log" $m 0 nspl)
	if awk -v i="$idle" -v b="$busy" 'BEGIN { exit !(i > 0 && b >= 2 * i) }'; then pass "ddr-latency-2x-$m ($idle -> $busy ns)"
	else fail "ddr-latency-2x-$m" "stores $m %: unloaded $idle ns, pause 0 $busy ns (want >= 2x)"; fi
done

rows=$(sed -n 's/^ddr: .* rows hit \([0-9.]*\) % empty \([0-9.]*\) % conflict \([0-9.]*\) %.*/\1 \2 \3/p' "$TMP/ddr.err")
truth=$(sed -n 's/^ddr: reads \([0-9]*\) writes \([0-9]*\);.*/\1 \2/p' "$TMP/ddr.err")
ctl=$(sed -n 's/^memctl: reads \([0-9]*\) writes \([0-9]*\) (lines).*/\1 \2/p' "$TMP/ddr.err")
if [ -n "$rows" ] && [ -n "$truth" ] && [ "$truth" = "$ctl" ] &&
	awk -v r="$rows" 'BEGIN { split(r, a, " "); s = a[1] + a[2] + a[3]; exit !(s > 99.8 && s < 100.2 && a[1] > 0 && a[3] > 0) }'
then pass "ddr-stats (rows hit/empty/conflict $rows %, reads/writes $truth)"
else fail ddr-stats "rows '$rows', model '$truth', memctl '$ctl'"; fi

# prefetch: reads R, used U; memctl reads = sum of the harts' llc_miss + R
pf=$(sed -n 's/^prefetch: .*; reads \([0-9]*\), used by a demand access \([0-9]*\),.*/\1 \2/p' "$TMP/ddr.err")
misses=$(awk '/^hart / { for (i = 1; i <= NF; i++) if ($i == "llc_miss") c = i; on = 1; next }
	on && /^[0-9]+ / { s += $c; next } on { exit } END { print s + 0 }' "$TMP/ddr.err")
if [ -n "$pf" ] && awk -v p="$pf" -v m="$misses" -v c="${ctl%% *}" 'BEGIN { split(p, a, " ");
	exit !(a[1] > 0 && a[2] > 0.5 * a[1] && m + a[1] == c) }'
then pass "ddr-prefetch-reads (prefetch reads / used $pf, demand misses $misses, memctl reads ${ctl%% *})"
else fail ddr-prefetch-reads "prefetch '$pf', demand misses '$misses', memctl reads '${ctl%% *}'"; fi

# the trace: "cycle r|w 0xADDR HART[p]"; RAM is 512 MiB from 0x80000000
tr=$(awk '{ c[$2]++ } $4 ~ /p$/ { p++ } { a = strtonum($3); h = $4 + 0
	if (NF != 4 || a % 64 || a < 2147483648 || a >= 2147483648 + 536870912 || h > 7 || ($4 ~ /p$/ && $2 != "r")) { print "bad line " NR ": " $0; exit } }
	END { print c["r"] + 0, c["w"] + 0, p + 0 }' "$TMP/ddr.trace")
if [ -n "$truth" ] && [ "$tr" = "$truth ${pf%% *}" ]; then pass "ddr-trace-mem (r w p: $tr)"
else fail ddr-trace-mem "trace '$tr', model served '$truth', prefetch reads '${pf%% *}'"; fi

"$HOSTSIM" --config tools/configs/hostsim-ddr4.sim --replay-mem "$TMP/ddr.trace" >"$TMP/replay.out" 2>&1; rc=$?
got=$(sed -n 's/^replay: reads \([0-9]*\) writes \([0-9]*\);.*/\1 \2/p' "$TMP/replay.out")
late=$(sed -n 's/^replay: .*later than the controller.s decisions \([0-9]*\).*/\1/p' "$TMP/replay.out")
"$HOSTSIM" --mem-model fixed --mem-latency 80 --replay-mem "$TMP/ddr.trace" >"$TMP/replayf.out" 2>&1; rc2=$?
fx=$(sed -n 's/^replay: read latency mean \([0-9.]*\) ns, max \([0-9.]*\) ns.*/\1 \2/p' "$TMP/replayf.out")
printf '10 r 0x80000000 0\n20 r\n' >"$TMP/old.trace"
"$HOSTSIM" --replay-mem "$TMP/old.trace" >"$TMP/replayo.out" 2>&1; rc3=$?
if [ $rc = 0 ] && [ -n "$truth" ] && [ "$got" = "$truth" ] && [ "$late" = 0 ] && [ $rc2 = 0 ] && [ "$fx" = "80.00 80.00" ] &&
	[ $rc3 = 2 ] && grep -q "old.trace:2: no address" "$TMP/replayo.out"
then pass "ddr-replay (reads writes $got, late $late; fixed: $fx ns)"
else fail ddr-replay "exit $rc, replayed '$got' of '$truth', late '$late'; fixed exit $rc2 '$fx'; old trace exit $rc3 $(head -1 "$TMP/replayo.out")"; fi
# "cycle requests MBps read_pct latency_ns" per window; latency load-to-use
why=$(awk '/^#/ { next } { n++ } $4 > 0 && ($5 < 80 || $5 > 5000) { print "window " $1 ": " $5 " ns"; exit }
	END { if (!n) print "no windows" }' "$TMP/ddr.prof")
if [ -z "$why" ]; then pass "ddr-profile-mem ($(grep -vc '^#' "$TMP/ddr.prof") windows)"
else fail ddr-profile-mem "$why"; fi

mkdir -p "$TMP/xc"
head -200000 "$TMP/ddr.trace" >"$TMP/xc/m0-t.trace"
HOSTSIM=$HOSTSIM tools/ddr-xcheck.sh -o "$TMP/xc" --no-run >"$TMP/xc.out" 2>&1; rc=$?
row=$(awk '$1 == "m0-t" { gsub(/\|/, ""); $0 = $0; print $2, $3, $5, $6 }' "$TMP/xc/table.txt" 2>/dev/null)
want=$("$HOSTSIM" --config tools/configs/hostsim-ddr4.sim --ddr-src-rq 0 --replay-mem "$TMP/xc/m0-t.trace" |
	awk '/^replay: .* transfers \(/ { n = $5; r = substr($7, 2) } /^replay: bandwidth/ { bw = $3 }
	/^replay: read latency mean/ { l = $5 } /^replay: read queue:/ { w = $0; sub(/ cycles waited.*/, "", w); sub(/.*\(/, "", w) }
	END { printf "%d %.1f %s %.2f", n, 100 * r / n, bw, l - w / r - 40 }')
if [ $rc = 0 ] && [ -n "$row" ] && [ "$row" = "$want" ]; then pass "ddr-xcheck-table ($row)"
else fail ddr-xcheck-table "exit $rc, table '$row', replay '$want': $(tail -1 "$TMP/xc.out")"; fi
finish
