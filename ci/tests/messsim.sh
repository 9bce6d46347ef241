#!/usr/bin/env bash
# Integration test of the Mess analytical simulator (docs/mess.md):
#   sim-sweep-shipped     rvmess sim sweep over the shipped family's 100 %
#                         curve: each point's "curve ns" is the file's own
#                         latency at that bandwidth and the simulated latency
#                         is within 1 % (or one cycle) of it, and every
#                         bandwidth of the file (but 0) is swept;
#   sim-sweep-vertical    a curve with two points of one bandwidth: a
#                         simulated latency between theirs is on the curve;
#   sim-run-*             open-loop synthetic traffic on a linear family
#                         (0 MB/s 100 ns .. 12800 MB/s 200 ns): at 6400 MB/s
#                         the curve's latency is 150 ns (periodic exact,
#                         Poisson within 2 %);
#   sim-trace             a "cycle r|w [address source]" trace of one request per 10 cycles
#                         (6400 MB/s at 1 GHz) replays to a mean of 150 ns;
#                         a bad trace line is refused with its line number;
#   sim-bench-streams     rvmess sim bench's steady, bursty and closed streams
#                         on the linear family read the curve (150 ns at
#                         6400 MB/s; 8 outstanding settle at 130.6 ns);
#   sim-ref               rvmess sim ref reads the family at a read share and
#                         bandwidth (latency, unloaded, where the latency
#                         reaches a threshold) and refuses a bad line;
#   sim-loop-little       rvmess sim loop on a flat family: K x 64 B / L
#                         exactly (measured over whole round trips);
#   loop-sweep            tools/messsim-loop-sweep.sh on a synthetic 285 GB/s
#                         family: K = 1 .. 100000 outstanding, windows of
#                         1 .. 100000 requests, each loop within 0.5 % of its
#                         equilibrium;
#   sim-curves-kernels    rvmess sim curves: the built bwlat of a mix's own
#                         read share at a pause holds that mix's point;
#   bad-<case>            malformed families: rvmess sim and hostsim both exit
#                         2 with FILE:LINE: reason;
#   real-family-artefacts a family with what the smoothing of published
#                         families leaves (negative bandwidths, a repeated
#                         row, a row out of order: tools/mess-synth-family.sh)
#                         loads, with one warning per file in rvmess sim
#                         (listed by sim info) and hostsim;
#   own-families-clean    the shipped family, and the bwlat/ rvmess curves
#                         writes from its mess.csv, load without a warning;
#   hostsim-mess-unloaded hostsim --mem-model mess on the shipped family: the
#                         idle chase reads the family's latency at the
#                         point's bandwidth (within 0.5 %);
#   hostsim-mess-counters the image's memory-controller counters against the
#                         model's own count (--stats), within 1 %;
#   hostsim-trace-mem     --trace-mem writes one line per transfer: as many r
#                         and w lines as the model served reads and writes;
#   settle-light-after-saturated
#                         a slow-draining memory (the mess model with
#                         --mess-convergence 0.001, 64 harts): the Mess suite's
#                         light point after a saturated one reads what it reads
#                         alone within 2 %, the saturated one is on the curve;
#   verilator-dpi         the DPI-C adapter (hostsim/mess/dpi/) built with
#                         Verilator into the SystemVerilog testbench
#                         tb_messsim.sv: 9 streams (3 rates x 100/50/0 %
#                         reads) on a linear family, each ending at the
#                         curve's latency within one cycle (the testbench
#                         computes it: 100 + (200 - R) x MB/s / 12800 ns);
#   verilator-mess-window-log  the adapter's RVMESS_MESS_LOG on the delay
#                         stage's flat family (below), 1000 reads then 3000
#                         writes: every request once, the reads given
#                         100 ns, the last window's writes 200 ns at 0 %
#                         reads;
#   mess-windows-summary  tools/mess-windows.sh over that log's reads: 99
#                         windows, 990 reads at 100 cycles; a broken line
#                         is named by file and line and left out;
#   verilator-mem-delay   the Mess delay stage on an RTL memory's response
#                         path (hostsim/mess/dpi/rvmess_mem_delay.sv, which
#                         OpenPiton's and CVA6's memories get) in its
#                         testbench tb_mem_delay.sv, messages ended by a
#                         length (OpenPiton) and by a last flit (CVA6): as a
#                         wire each head leaves as it arrives; held a fixed
#                         25 and 1 cycles each head leaves exactly then
#                         (behind earlier messages, in order), never early
#                         under a stalling sink; on a family flat at 100 ns
#                         (reads) and 200 ns (writes) at 1000 MHz, reads are
#                         held 100 cycles and writes end at 200; every flit
#                         once, in order, unchanged;
#   hostsim-profile-mem   --profile-mem: the windows' request counts add up to
#                         the model's transfers, each window's MB/s is its
#                         requests x 64 B over the window; rvmess sim profile
#                         scores every window in 0..1 and writes the SVG;
#   closed-loop-server    tools/mess-validate-family.sh on the synthetic 285
#                         GB/s family, 64 harts x 32 MSHRs, CI-sized: unloaded
#                         <= 1 %, latency at equal bandwidth mean <= 2 %,
#                         saturated points at 97..100 % of the family's
#                         highest bandwidth, one loader warning per file;
#   closed-loop-small     tools/mess-validate.sh --small: the four goals,
#                         unloaded <= 0.5 %, saturated bandwidth <= 1 %,
#                         maximum latency <= 2 %, latency at equal bandwidth
#                         mean <= 2 % (measured 0.21, 0.60, 0.20, 0.15; with
#                         the controller's convergence 1, 4000 loads per
#                         point, windows of 1000 requests or parse's bwlat/:
#                         saturated 3.3, 5.8, 1.6, 40 %; docs/mess.md).
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
RVMESS=$BUILD/bin/rvmess
HOSTSIM=$BUILD/bin/hostsim
SHIPPED=curves/hostsim-ddr4-3200
scratch messsim

# ---- sweep self-check on the shipped family ----------------------------------
"$RVMESS" sim sweep "$SHIPPED" --read 100 >"$TMP/sweep.out" 2>&1; rc=$?
# (rows of one bandwidth: the lowest latency is the curve's, any up to the
# highest is on it)
why=$(awk -v f="$SHIPPED/bwlat/bwlat_100.txt" 'BEGIN { while ((getline l < f) > 0) { split(l, a, " "); b = sprintf("%.3f", a[1])
		if (!(b in lo) || a[2] < lo[b]) lo[b] = a[2]; if (!(b in hi) || a[2] > hi[b]) hi[b] = a[2] } }
	$1 == 100 && NF == 7 { n++; b = sprintf("%.3f", $3)
		if (!(b in lo)) { print "no row at " b " MB/s"; exit }
		if (($4 - lo[b]) ^ 2 > 1e-6) { print b " MB/s: curve " $4 ", file " lo[b]; exit }
		r = $5 < lo[b] ? lo[b] : $5 > hi[b] ? hi[b] : $5; d = ($5 - r) / r; if (d < 0) d = -d
		if (d > 0.01 && ($5 - r) ^ 2 > 1) { print b " MB/s: simulated " $5 " ns, file " lo[b] ".." hi[b]; exit } }
	END { for (b in lo) nb += b + 0 > 0; if (n != nb || n < 5) print n " points swept, " nb " bandwidths in the file" }' "$TMP/sweep.out")
if [ $rc = 0 ] && [ -z "$why" ] && grep -q "the curve is reproduced" "$TMP/sweep.out"; then pass sim-sweep-shipped
else fail sim-sweep-shipped "exit $rc: ${why:-$(tail -1 "$TMP/sweep.out")}"; fi
# a vertical stretch (two points of one bandwidth, 150 and 160 ns): the
# rate's estimate a hair above 7000.5 MB/s reads 160 ns, which is on the
# curve, not 6.7 % off it
mkdir -p "$TMP/vert"
for r in 0 100; do printf '12800 200\n7000.5 160\n7000.5 150\n6400 120\n0 100\n' >"$TMP/vert/bwlat_$r.txt"; done
"$RVMESS" sim sweep "$TMP/vert" --read 100 >"$TMP/vert.out" 2>&1; rc=$?
if [ $rc = 0 ] && [ "$(grep -c ' ok$' "$TMP/vert.out")" = 4 ]; then pass sim-sweep-vertical
else fail sim-sweep-vertical "exit $rc: $(grep -v ' ok$' "$TMP/vert.out" | head -2 | tr '\n' ' ')"; fi

# ---- synthetic traffic on a linear family ------------------------------------
mkdir -p "$TMP/lin"
for r in 0 100; do printf '12800 200\n0 100\n' >"$TMP/lin/bwlat_$r.txt"; done
lastlat() { sed -n 's/^last window: .*curve latency \([0-9.]*\) ns$/\1/p' "$1"; }
"$RVMESS" sim run "$TMP/lin" --bw 6400 --read 50 --requests 400000 >"$TMP/run.out" 2>&1
got=$(lastlat "$TMP/run.out")
if awk -v g="$got" 'BEGIN { exit !(g != "" && (g - 150) ^ 2 < 0.75 ^ 2) }'; then pass "sim-run-periodic ($got ns)"
else fail sim-run-periodic "last window ${got:-?} ns, want 150: $(tail -1 "$TMP/run.out")"; fi
"$RVMESS" sim run "$TMP/lin" --bw 6400 --read 50 --arrivals poisson --requests 400000 >"$TMP/runp.out" 2>&1
got=$(sed -n 's/^mean latency, second half: \([0-9.]*\) ns.*/\1/p' "$TMP/runp.out")
if awk -v g="$got" 'BEGIN { exit !(g != "" && (g - 150) ^ 2 < 3 ^ 2) }'; then pass "sim-run-poisson ($got ns)"
else fail sim-run-poisson "mean ${got:-?} ns, want 150 +- 2 %"; fi

# (every fourth line in hostsim --trace-mem's form, with address and source)
awk 'BEGIN { for (i = 1; i <= 200000; i++) printf "%d %s%s\n", 10 * i, i % 2 ? "r" : "w", i % 4 ? "" : sprintf(" 0x%x %dp", 64 * i, i % 8) }' >"$TMP/t.trace"
"$RVMESS" sim trace "$TMP/lin" "$TMP/t.trace" >"$TMP/trace.out" 2>&1; rc=$?
got=$(sed -n 's/^mean latency, second half: \([0-9.]*\) ns.*/\1/p' "$TMP/trace.out")
printf '10 r\n20 x\n' >"$TMP/bad.trace"
"$RVMESS" sim trace "$TMP/lin" "$TMP/bad.trace" >"$TMP/badt.out" 2>&1; rc2=$?
if [ $rc = 0 ] && awk -v g="$got" 'BEGIN { exit !(g != "" && (g - 150) ^ 2 < 1.5 ^ 2) }' && [ $rc2 = 2 ] &&
	grep -q "bad.trace:2: not a \"cycle r|w \[address source\]\" line" "$TMP/badt.out"; then pass "sim-trace ($got ns)"
else fail sim-trace "exit $rc mean ${got:-?} ns (want 150); bad trace: exit $rc2 $(head -1 "$TMP/badt.out")"; fi

# the benchmark's streams on the same family (20 ns of each latency on chip):
# the steady one at 6400 MB/s
# reads 150 ns like sim run, the bursty one (64 requests a cycle, the same
# mean rate) too, the closed loop of 8 outstanding settles where 8 x 64 B /
# L = B on the line L = 100 + 100 B / 12.8 (GB/s, ns): L^2 - 100 L - 4000
# = 0, L = 130.6 ns (3.92 GB/s)
for st in steady bursty closed; do
	"$RVMESS" sim bench "$TMP/lin" --stream $st --bw 6400 --read 50 --outstanding 8 --onchip 20 --requests 400000 >"$TMP/bench.$st" 2>&1 || echo "exit $?" >>"$TMP/bench.$st"
done
why=$(awk 'FILENAME ~ /steady$|bursty$/ && /^bench/ { for (i = 1; i <= NF; i++) if ($i == "latency") l = $(i + 1) + 0; if ((l - 150) ^ 2 > 0.75 ^ 2 || !/M requests\/s/) { print FILENAME ": " $0; exit } n++ }
	FILENAME ~ /closed$/ && /^bench/ { for (i = 1; i <= NF; i++) if ($i == "latency") l = $(i + 1) + 0; if ((l - 130.6) ^ 2 > 1) { print "closed: " $0; exit } n++ }
	END { if (n != 3) print n " bench lines of 3" }' "$TMP/bench.steady" "$TMP/bench.bursty" "$TMP/bench.closed")
if [ -z "$why" ]; then pass sim-bench-streams
else fail sim-bench-streams "$why"; fi

# rvmess sim ref: the family as the controller reads it (the linear family:
# 150 ns at 6400 MB/s, 100 unloaded, twice that at 12800, 150 ns at 6400);
# a bad line is refused with its line number
ref=$(printf '50 6400\n50 6400 150\n' | "$RVMESS" sim ref "$TMP/lin" 2>&1 | tr '\n' ' ')
printf '50 6400\nx 1\n' | "$RVMESS" sim ref "$TMP/lin" >"$TMP/ref.bad" 2>&1; rc=$?
if [ "$ref" = "50 6400.000 150.000 100.000 12799.999 12800.000 200.000 50 6400.000 150.000 100.000 6399.999 12800.000 200.000 " ] &&
	[ $rc = 2 ] && grep -q 'stdin:2: not a' "$TMP/ref.bad"; then pass sim-ref
else fail sim-ref "got '$ref', bad line exit $rc: $(tail -1 "$TMP/ref.bad")"; fi

# ---- closed loops of any depth --------------------------------------------------------
# Little's law on a flat family (100 ns at any bandwidth up to 1 PB/s): K =
# 100000 outstanding move 100000 x 64 B per 100 ns, 64 TB/s, measured over
# whole round trips even when the second half holds one and a half
mkdir -p "$TMP/flat"
for r in 0 100; do printf '1000000000 100\n0 100\n' >"$TMP/flat/bwlat_$r.txt"; done
got=$("$RVMESS" sim loop "$TMP/flat" --outstanding 100000 --requests 300000 2>&1 | sed -n 's/^loop: .*window 1000: \([0-9.]*\) MB\/s.*latency \([0-9.]*\) ns.*/\1 \2/p')
if [ "$got" = "64000000.0 100.00" ]; then pass "sim-loop-little ($got)"
else fail sim-loop-little "got '$got' MB/s ns, want 64000000.0 100.00"; fi

# K = 1 .. 100000 requests always outstanding, windows of 1 .. 100000
# requests, on a synthetic 285 GB/s server family: every loop within 0.5 %
# of its equilibrium (tools/messsim-loop-sweep.sh; 0.11 % at worst; a
# window shorter than a round trip collapsed K >= 1000 to a few % of the
# maximum; a loop's bandwidth over a part of a burst read 0.7 % high)
tools/mess-synth-family.sh -o "$TMP/syn285" --peak 285 --unloaded 122 >/dev/null
tools/messsim-loop-sweep.sh "$TMP/syn285" --tol 0.5 -- --freq-mhz 2000 >"$TMP/sweep285.out" 2>&1; rc=$?
if [ $rc = 0 ] && [ "$(grep -c '%' "$TMP/sweep285.out")" -ge 6 ]; then pass "loop-sweep ($(tail -1 "$TMP/sweep285.out"))"
else fail loop-sweep "exit $rc: $(grep -v '^K' "$TMP/sweep285.out" | tail -3 | tr '\n' ' ')"; fi

# ---- a family from kernels ------------------------------------------------------
# two kernels at two pauses: at pause 0 read shares 50 % and 70 %, so R = 60
# is halfway: (15 GB/s, 300 ns) and (25, 500) -> 20000 MB/s 400 ns; at pause
# 100 they read 98 % and 100 %: R = 60 is below both and takes the nearer
# one's point, 1000 MB/s 100 ns; the anchor is 0 MB/s at the lowest, 100 ns.
cat >"$TMP/k.csv" <<'EOF'
read_pct_rounded,pause,bandwidth_mean,bandwidth_std,rd_percentage_actual_mean,latency_mean,latency_std,bandwidth_smooth,latency_smooth,rw_ratio
50,0,15,0,0.50,300,0,15,300,50
70,0,25,0,0.70,500,0,25,500,70
98,100,1,0,0.98,100,0,1,100,50
100,100,2,0,1.0,110,0,2,110,70
EOF
if "$RVMESS" sim curves "$TMP/k.csv" -o "$TMP/kc" >"$TMP/kc.out" 2>&1 &&
	[ "$(ls "$TMP/kc" | grep -c '^bwlat_[0-9]*\.txt$')" = 51 ] &&
	[ "$(cat "$TMP/kc/bwlat_60.txt" | tr '\n' ';')" = "20000.000 400.000;1000.000 100.000;0.000 100.000;" ]; then
	pass sim-curves-kernels
else fail sim-curves-kernels "bwlat_60: $(tr '\n' ';' <"$TMP/kc/bwlat_60.txt" 2>/dev/null) $(head -1 "$TMP/kc.out")"; fi

# ---- malformed families ----------------------------------------------------------
bad() { # CASE WANT (the family is $TMP/bad)
	local c=$1 want=$2 r1 r2
	"$RVMESS" sim info "$TMP/bad" >"$TMP/$c.1" 2>&1; r1=$?
	"$HOSTSIM" --mem-model mess --mess-curves "$TMP/bad" "$BUILD/images/virt.elf" >"$TMP/$c.2" 2>&1; r2=$?
	if [ $r1 = 2 ] && [ $r2 = 2 ] && grep -qF "$want" "$TMP/$c.1" && grep -qF "$want" "$TMP/$c.2"; then pass "bad-$c"
	else fail "bad-$c" "rvmess exit $r1, hostsim exit $r2, want 2 and '$want': $(head -1 "$TMP/$c.1") / $(head -1 "$TMP/$c.2")"; fi
}
rm -rf "$TMP/bad"; mkdir "$TMP/bad"; printf '1 100\n2 x9\n' >"$TMP/bad/bwlat_0.txt"; printf '1 100\n' >"$TMP/bad/bwlat_2.txt"
bad nonnumeric "bad/bwlat_0.txt:2: 'x9' is not a number"
printf '\n-2 100\n-1 101\n' >"$TMP/bad/bwlat_0.txt"
bad no-positive-row "bad/bwlat_0.txt:3: no row with a positive bandwidth"
printf '1 100\n' >"$TMP/bad/bwlat_0.txt"
rm "$TMP/bad/bwlat_0.txt"
bad one-ratio "1 measured read ratio; a family needs at least two"
rm -rf "$TMP/bad"; mkdir "$TMP/bad"; echo "read_pct_rounded,bandwidth_mean,latency_mean" >"$TMP/bad/mess.csv"
bad header-only "bad/mess.csv:1: no data rows (header only)"
rm -rf "$TMP/bad"; mkdir "$TMP/bad"
bad empty-dir "bad: no bwlat_<R>.txt files"

# ---- a family as the Mess project publishes them ---------------------------------
# tools/mess-synth-family.sh writes the artefacts of their smoothing into
# each of its 51 files (two rows of negative bandwidth, a row repeated, one
# out of order on the steep part): rvmess sim and hostsim load it, each
# with one warning per file naming FILE:LINE and the four rows, and
# `rvmess sim info` lists them
tools/mess-synth-family.sh -o "$TMP/syn" --peak 115 --unloaded 92 >/dev/null
"$RVMESS" sim info "$TMP/syn" >"$TMP/syn.out" 2>"$TMP/syn.err"; rc=$?
"$HOSTSIM" --mem-model mess --mess-curves "$TMP/syn" --max-insns 1000 "$BUILD/images/virt.elf" >/dev/null 2>"$TMP/synh.err"; rh=$?
why=$(awk -v d="$TMP/syn" 'FILENAME ~ /syn\.err$/ { n1++; f[$4]++
		if ($0 !~ /^rvmess sim: warning: .*\/bwlat_[0-9]+\.txt:[0-9]+: 4 rows adjusted \(smoothing artefacts\): line [0-9]+: bandwidth -[0-9.]+ MB\/s clamped to 0; line [0-9]+: bandwidth -[0-9.]+ MB\/s clamped to 0; line [0-9]+: the same as line [0-9]+, dropped; line [0-9]+: out of order/) { print "rvmess: " $0; exit } }
	FILENAME ~ /synh\.err$/ && /warning/ { n2++ }
	FILENAME ~ /syn\.out$/ && /^rows adjusted:$/ { listed = 1 } FILENAME ~ /syn\.out$/ && listed && /rows adjusted \(/ { n3++ }
	END { for (k in f) if (f[k] > 1) { print k " warned twice"; exit }
		if (n1 != 51 || n2 != 51 || n3 != 51) print "warnings: rvmess " n1 ", hostsim " n2 ", listed " n3 ", want 51 each" }' \
	"$TMP/syn.err" "$TMP/synh.err" "$TMP/syn.out")
if [ $rc = 0 ] && [ $rh = 124 ] && [ -z "$why" ]; then pass "real-family-artefacts (51 files, one warning each)"
else fail real-family-artefacts "rvmess exit $rc, hostsim exit $rh (want 0, 124): ${why:-$(head -1 "$TMP/syn.err")}"; fi

# rvmess's own families load without a warning: the shipped one, and the
# bwlat/ that `rvmess curves` writes again from its mess.csv (the running
# maxima of a saturated curve give equal rows, written once)
"$RVMESS" curves "$SHIPPED/mess.csv" -o "$TMP/own" >/dev/null 2>&1; rc=$?
w=$( { "$RVMESS" sim info "$SHIPPED" 2>&1 >/dev/null; "$RVMESS" sim info "$TMP/own" 2>&1 >/dev/null; } | head -1)
if [ $rc = 0 ] && [ -z "$w" ] && [ -s "$TMP/own/bwlat/bwlat_100.txt" ]; then pass own-families-clean
else fail own-families-clean "rvmess curves exit $rc: ${w:-no bwlat written}"; fi

# ---- hostsim with the mess model ----------------------------------------------
field() { # LOG MIX PAUSE KEY
	grep -ao "@RVM [0-9]* mess .* mix=$2 pause=$3 .*" "$1" | grep -o " $4=[0-9.]*" | head -1 | cut -d= -f2
}
cp "$BUILD/images/virt.elf" "$TMP/virt.elf"
"$RVMESS" config "$TMP/virt.elf" suites=mess mess_mix=0,100 mess_pause=0,16384 reps=1 \
	mess_window_loads=4000 mess_chase_size=32M mess_gen_size=2M >/dev/null || fail config "rvmess config refused the grid"
timeout 300 "$HOSTSIM" --harts 8 --mem-size 512M --stats --mem-model mess --mess-curves "$SHIPPED" \
	--trace-mem "$TMP/mess.trace" --profile-mem "$TMP/mess.prof" --profile-window 50000 "$TMP/virt.elf" >"$TMP/mess.log" 2>"$TMP/mess.err"
bw=$(field "$TMP/mess.log" 0 16384 bw_ctr); lat=$(field "$TMP/mess.log" 0 16384 nspl)
# the family's 100 % curve at that bandwidth (rows ascending by latency;
# the first row reaching it, linear)
want=$(sort -k2,2g -k1,1g "$SHIPPED/bwlat/bwlat_100.txt" | awk -v b="$bw" 'NR == 1 && b <= $1 { print $2; exit }
	NR > 1 && $1 >= b { print pl + ($2 - pl) * (b - pb) / ($1 - pb); exit } { pb = $1; pl = $2 }')
if awk -v l="$lat" -v w="$want" 'BEGIN { exit !(l != "" && w != "" && (l - w) ^ 2 <= (0.005 * w) ^ 2) }'; then
	pass "hostsim-mess-unloaded ($lat ns, curve $want ns at $bw MB/s)"
else fail hostsim-mess-unloaded "chase ${lat:-?} ns at ${bw:-?} MB/s, family ${want:-?} ns"; fi
truth=$(sed -n 's/.*model mess served reads \([0-9]*\) writes \([0-9]*\).*/\1 \2/p' "$TMP/mess.err")
seen=$(grep -ao "@RVM [0-9]* memctl .*" "$TMP/mess.log" | tail -1 | sed -n 's/.* reads=\([0-9]*\) writes=\([0-9]*\).*/\1 \2/p')
if [ -n "$truth" ] && [ -n "$seen" ] && awk -v t="$truth" -v s="$seen" 'BEGIN { split(t, a, " "); split(s, b, " ")
	exit !(b[1] <= a[1] && b[2] <= a[2] && (a[1] - b[1]) <= 0.01 * a[1] && (a[2] - b[2]) <= 0.01 * a[2] + 16) }'
then pass "hostsim-mess-counters (image $seen, model $truth)"
else fail hostsim-mess-counters "image read '$seen', model served '$truth'"; fi
tr=$(awk '{ c[$2]++ } END { print c["r"] + 0, c["w"] + 0 }' "$TMP/mess.trace")
if [ -n "$truth" ] && [ "$tr" = "$truth" ]; then pass "hostsim-trace-mem ($tr)"
else fail hostsim-trace-mem "trace r/w '$tr', model served '$truth'"; fi

why=$(awk -v t="$truth" 'BEGIN { split(t, a, " "); want = a[1] + a[2] }
	/^#/ { next } { n += $2; w++; b = $2 * 64 * 1000 / 50000; if ((b - $3) ^ 2 > 0.001) { print "window " $1 ": " $3 " MB/s, want " b; exit } }
	END { if (n != want) print n " requests in " w " windows, model served " want }' "$TMP/mess.prof")
"$RVMESS" sim profile "$SHIPPED" "$TMP/mess.prof" -o "$TMP/prof.svg" >"$TMP/prof.out" 2>&1; rc=$?
nw=$(grep -vc '^#' "$TMP/mess.prof")
bad=$(awk 'NF == 6 && $1 ~ /^[0-9]+$/ { n++; if ($6 < 0 || $6 > 1) { print "score " $6; exit } } END { if (n == 0) print "no windows" }' "$TMP/prof.out")
if [ -n "$truth" ] && [ -z "$why" ] && [ $rc = 0 ] && [ -z "$bad" ] && grep -q "^profile: $nw windows" "$TMP/prof.out" &&
	grep -q '<svg' "$TMP/prof.svg"; then pass "hostsim-profile-mem ($nw windows)"
else fail hostsim-profile-mem "${why:-$bad} exit $rc $(tail -1 "$TMP/prof.out")"; fi

# ---- settled points ------------------------------------------------------------------
# A memory system that keeps its state long after the traffic that made it
# (here the mess model with a controller 50 x slower than its default,
# --mess-convergence 0.001, 64 harts x 32 MSHRs on a 285 GB/s family): a
# light point measured right after a saturated one reads what it reads
# alone (within 2 %), and the saturated point sits on the curve (at most 1 %
# above its highest bandwidth), because the Mess suite discards chase
# windows until the latency stops moving (settle=).  Without that (three
# windows always), the light point read 242.1 ns against 122.1, the
# saturated one 384 GB/s.
[ -d "$TMP/syn285" ] || tools/mess-synth-family.sh -o "$TMP/syn285" --peak 285 --unloaded 122 >/dev/null
for g in 0,16384 16384; do
	cp "$BUILD/images/virt.elf" "$TMP/settle$g.elf"
	"$RVMESS" config "$TMP/settle$g.elf" suites=mess reps=1 warmups=1 mess_mix=0 mess_pause=$g mess_window_loads=4000 \
		mess_chase_size=32M mess_gen_size=64K >/dev/null
	timeout 600 "$HOSTSIM" --harts 64 --mshrs 32 --store-buffer 32 --mem-size 2G --mem-model mess --mess-curves "$TMP/syn285" \
		--mess-convergence 0.001 "$TMP/settle$g.elf" >"$TMP/settle$g.log" 2>/dev/null
done
after=$(field "$TMP/settle0,16384.log" 0 16384 nspl); alone=$(field "$TMP/settle16384.log" 0 16384 nspl)
satbw=$(field "$TMP/settle0,16384.log" 0 0 bw_ctr)
if awk -v a="$after" -v b="$alone" -v s="$satbw" 'BEGIN { exit !(a != "" && b != "" && s != "" && (a - b) ^ 2 <= (0.02 * b) ^ 2 && s <= 1.01 * 285000) }'
then pass "settle-light-after-saturated ($after ns after, $alone alone; saturated $satbw MB/s)"
else fail settle-light-after-saturated "light point ${after:-?} ns after a saturated one, ${alone:-?} alone; saturated ${satbw:-?} MB/s"; fi

# ---- Verilator ------------------------------------------------------------------------
if command -v verilator >/dev/null; then
	mkdir -p "$TMP/vl/fam"
	printf '12800 300\n0 100\n' >"$TMP/vl/fam/bwlat_0.txt"
	printf '12800 200\n0 100\n' >"$TMP/vl/fam/bwlat_100.txt"
	D=hostsim/mess/dpi
	for c in hostsim/mess/family.c hostsim/mess/ctrl.c $D/messsim_dpi.c; do
		${CC:-cc} -std=c11 -D_DEFAULT_SOURCE -O2 -Wall -Wextra -Werror -Ihostsim -c "$c" -o "$TMP/vl/$(basename "$c" .c).o" || break
	done
	if timeout 600 verilator --binary -j 2 -Wall -Wno-DECLFILENAME -Wno-UNUSEDSIGNAL $D/messsim_pkg.sv $D/tb_messsim.sv \
		"$TMP/vl/messsim_dpi.o" "$TMP/vl/family.o" "$TMP/vl/ctrl.o" --top-module tb_messsim -o tbsim -LDFLAGS -lm \
		--Mdir "$TMP/vl/obj" >"$TMP/vl/build.log" 2>&1; then
		"$TMP/vl/obj/tbsim" +curves="$TMP/vl/fam" >"$TMP/vl/run.out" 2>&1
		if [ "$(grep -c '^ok gap' "$TMP/vl/run.out")" = 9 ] && grep -q '^PASS 9 streams, 0 failed' "$TMP/vl/run.out"; then
			pass verilator-dpi
		else fail verilator-dpi "$(grep -m2 'FAIL' "$TMP/vl/run.out" | tr '\n' ' ')"; fi
	else fail verilator-dpi "build: $(grep -m2 -i error "$TMP/vl/build.log" | tr '\n' ' ')"; fi
	# the delay stage, on the same objects
	mkdir -p "$TMP/vl/flat"
	printf '0 200\n12800 200\n' >"$TMP/vl/flat/bwlat_0.txt"
	printf '0 100\n12800 100\n' >"$TMP/vl/flat/bwlat_100.txt"
	if timeout 600 verilator --binary -j 2 -Wall -Wno-DECLFILENAME -Wno-UNUSEDSIGNAL -Wno-BLKSEQ -Wno-INITIALDLY \
		$D/messsim_pkg.sv $D/rvmess_mem_delay.sv $D/tb_mem_delay.sv \
		"$TMP/vl/messsim_dpi.o" "$TMP/vl/family.o" "$TMP/vl/ctrl.o" --top-module tb_mem_delay -o tbdelay -LDFLAGS -lm \
		--Mdir "$TMP/vl/objd" >"$TMP/vl/buildd.log" 2>&1; then
		why="" n=0
		for a in "+mode=wire" "+mode=fixed +rvmess_mem_fixed=25" "+mode=fixed +rvmess_mem_fixed=1" \
			"+mode=mess +rvmess_mess_curves=$TMP/vl/flat +rvmess_mess_window=10"; do
			for l in "" +last; do
				# shellcheck disable=SC2086
				out=$(timeout 300 "$TMP/vl/objd/tbdelay" $a $l 2>&1)
				if grep -q '^PASS .*, 0 failed$' <<<"$out"; then n=$((n + 1))
				else why="$why [$a $l: $(grep -m3 FAIL <<<"$out" | tr '\n' ' ')]"; fi
			done
		done
		[ -z "$why" ] && [ $n = 8 ] && pass "verilator-mem-delay ($n runs)" || fail verilator-mem-delay "$why"
		# the adapter's window log on the mess run: 1000 reads, then 3000
		# writes, windows of 10; each line's requests and latencies are the
		# ones the adapter passed since the line before
		rm -f "$TMP/vl/wlog.tsv"
		RVMESS_MESS_LOG=$TMP/vl/wlog.tsv timeout 300 "$TMP/vl/objd/tbdelay" +mode=mess \
			+rvmess_mess_curves="$TMP/vl/flat" +rvmess_mess_window=10 >"$TMP/vl/wlog.out" 2>&1
		if got=$(awk -F'\t' '/^#/ { next }
			{ n++; req += $5; rd += $6; if ($6 > 0) { rl += $7 * $6; nr += $6 } if ($5 > $6) { wl += $8 * ($5 - $6); nw += $5 - $6 }
			  if ($2 > $3 || $4 != n || $1 != "closed") bad = bad " line " NR }
			END { if (!n || !nr || !nw) { print "no windows"; exit 1 }
			  printf "%d windows, %d requests, %d reads at %.3f, writes at %.3f, the last %s %s%%", n, req, rd, rl / nr, wl / nw, $8, $11
			  exit !(bad == "" && req > 3990 && req <= 4000 && rd == 1000 && rl / nr == 100 && $8 >= 199 && $8 <= 201 && $11 == 0) }' \
			"$TMP/vl/wlog.tsv" 2>&1); then pass "verilator-mess-window-log ($got)"
		else fail verilator-mess-window-log "${got:-no log} ($(head -c 300 "$TMP/vl/wlog.out"))"; fi
		# tools/mess-windows.sh over the reads' span, and a broken line named
		sum=$(tools/mess-windows.sh "$TMP/vl/wlog.tsv" 0 31000 2>&1)
		{ cat "$TMP/vl/wlog.tsv"; printf 'closed\t1\t2\n'; } >"$TMP/vl/wlog-bad.tsv"
		bad=$(tools/mess-windows.sh "$TMP/vl/wlog-bad.tsv" 2>&1 >/dev/null)
		if grep -q '^windows 99 requests 990 reads 990 (100.0 %) .* rd_lat 100.000 wr_lat - cycles  curve_ns 100.000..100.000$' <<<"$sum" &&
			[ "$bad" = "mess-windows.sh: $TMP/vl/wlog-bad.tsv:403: 3 fields, not 13; left out" ]; then
			pass "mess-windows-summary ($sum)"
		else fail mess-windows-summary "got '$sum' and '$bad'"; fi
	else fail verilator-mem-delay "build: $(grep -m2 -i error "$TMP/vl/buildd.log" | tr '\n' ' ')"; fi
else
	skip verilator-dpi "verilator not installed (tools/deps.sh installs it)"
	skip verilator-mem-delay "verilator not installed (tools/deps.sh installs it)"
	skip verilator-mess-window-log "verilator not installed (tools/deps.sh installs it)"
	skip mess-windows-summary "verilator not installed (tools/deps.sh installs it)"
fi

# ---- closed loop ---------------------------------------------------------------------
tools/mess-validate.sh --small --out "$TMP/val" >"$TMP/val.out" 2>&1; rc=$?
vals=$(awk '/^unloaded latency, worst mix/ { u = $5 } /^saturated bandwidth range/ { s = $4 }
	/^maximum latency range/ { m = $4 } /^latency at equal bandwidth/ { p = $6 }
	END { print u, s, m, p }' "$TMP/val.out")
if [ $rc = 0 ] && awk -v v="$vals" 'BEGIN { n = split(v, a, " "); exit !(n == 4 && a[1] <= 0.5 && a[2] <= 1 && a[3] <= 2 && a[4] <= 2) }'
then pass "closed-loop-small (unloaded/saturated/max/per-point % = $vals)"
else fail closed-loop-small "exit $rc; unloaded/saturated/max/per-point % = '$vals': $(tail -1 "$TMP/val.out")"; fi

# ---- closed loop on a server-class family (docs/mess.md "Closed loop on
# server families") ----------------------------------------------------------------
# The synthetic 285 GB/s family (a wave, negative rows, a repeated and an
# out-of-order row) replayed in hostsim on 64 harts x 32 MSHRs and
# re-measured by the Mess suite, CI-sized: 100 and 50 % reads x 4 pauses,
# 4000 chase loads a point.  Unloaded within 1 % and the light and loaded
# points within 2 % of the family at the same bandwidth and read share (the
# light-load points read 1 % high with the generators' counts inside the
# chase window, 3-8 % with a rate estimate from the mean of the windows'
# rates); every mix's saturated point holds 97..100 % of the family's
# highest bandwidth at its read share (the wave ends at 98.5 %: no collapse,
# no bandwidth past the end on a curve that ends on a wave).
[ -d "$TMP/syn285" ] || tools/mess-synth-family.sh -o "$TMP/syn285" --peak 285 --unloaded 122 >/dev/null
timeout 900 tools/mess-validate-family.sh "$TMP/syn285" --loads 4000 --out "$TMP/srv" \
	--grid "mess_mix=0,100 mess_pause=0,256,1024,65536" >"$TMP/srv.out" 2>&1; rc=$?
vals=$(awk '/^unloaded latency, worst mix/ { u = $5 } /^latency at equal bandwidth/ { p = $6 } END { print u, p }' "$TMP/srv.out")
why=$(awk 'NR == FNR { b[$1] = $8; next } $1 ~ /^[0-9]+$/ && NF == 6 { f = b[$1] / 1000
		if (!($4 >= 0.97 * f && $4 <= f)) print "mix " $1 ": saturated " $4 " GB/s, family highest " f }' \
	"$TMP/srv/mix.ref" "$TMP/srv/mess/mess_metrics.txt" 2>/dev/null)
nw=$(grep -c 'hostsim: mess: warning: .*bwlat_[0-9]*.txt:[0-9]*: ' "$TMP/srv/mess.err" 2>/dev/null)
if [ $rc = 0 ] && [ -z "$why" ] && [ "$nw" = 51 ] &&
	awk -v v="$vals" 'BEGIN { n = split(v, a, " "); exit !(n == 2 && a[1] <= 1 && a[2] <= 2) }'; then
	pass "closed-loop-server (unloaded/per-point % = $vals)"
else fail closed-loop-server "exit $rc; unloaded/per-point % = '$vals'; ${why:-}; $nw warnings: $(tail -1 "$TMP/srv.out")"; fi
finish
