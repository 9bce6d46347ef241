#!/usr/bin/env bash
# Known answers, end to end on hostsim: the image runs on a system whose
# answers follow from its options (latencies, sizes, MSHR count, peak), and
# every figure a user reads in summary.txt, summary.json, cache_levels.txt,
# chase.csv, parmax.csv, mess_metrics.txt, litmus.csv and integrity.csv is
# checked against that answer, computed here independently (the record
# counts from a model of the image's loops, the rest from the options).
#   known-summary-txt     every line of summary.txt (chase, lat, par run)
#   known-summary-json    every field of summary.json, the same run
#   known-cache-levels    L1, LLC and memory: capacity within one lmbench step
#                         below the configured size, latency l1d-hit,
#                         l1d-hit + llc-hit, + mem-latency (fixed model)
#   known-chase           every hart's chase latency = the memory latency
#   known-par-mshrs-N     par_mem's parallelism is the MSHR count (8, 4)
#   known-mess-fixed      unloaded latency, flat latency, 100 % loads at
#                         pause 0 = Little's law over the generators' MSHRs,
#                         read shares (100 %, about 51 % with write-allocate)
#   known-mess-md1        a 5 GB/s model: every curve saturates at 5 GB/s,
#                         the loads' maximum latency = (MSHRs + 1) lines / 5 GB/s,
#                         peak_gbps 5 (the controller's PEAK register)
#   known-mess-reports    mess_metrics.txt and summary.json's mess block, figure
#                         by figure, agree with each other and with what the
#                         runs must give: 2 curves (0 and 100 % stores), one
#                         point per pause, read shares 100 and 50-52 %, no
#                         wave, peak_gbps null on fixed memory (PEAK reads
#                         0) and 5 on md1, saturation only on md1, the
#                         latency range = the curves' own; summary.txt's
#                         record counts (mess points, prog, memctl)
#   known-litmus-sc       every test's outcomes add up to litmus_iters, the
#                         tests and skipped counts of the table for 2 harts,
#                         no relaxed outcome under sc but the one the table
#                         allows in any order (sc_neighbour_packed)
#   known-integrity       words compared = rounds x lines x harts and
#                         messages x 6 per hart, none wrong
#   known-rendezvous-timeout  a hart that never arrives is written off after
#                         timeout_ms of simulated time (console stamps)
# The device registers these rely on have their own known-answer programs
# (hostsim/tests/isa/clint_exact.S, memctl_exact.S, backinv.S).
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
RVMESS=$BUILD/bin/rvmess
SIM=$BUILD/bin/hostsim
IMG=$BUILD/images/virt.elf
scratch known
T=$TMP
for b in "$RVMESS" "$SIM" "$IMG"; do
	[ -e "$b" ] || { fail build "$b not built (make)"; exit 1; }
done

# NAME "KEY=VALUE ..." "HOSTSIM OPTIONS": configure, run, parse into $T/NAME/
run() {
	local name=$1 cfg=$2 opts=$3
	# shellcheck disable=SC2086
	"$RVMESS" config "$IMG" $cfg -o "$T/$name.elf" >/dev/null 2>"$T/$name.cfg.err" &&
		timeout 300 "$SIM" $opts "$T/$name.elf" >"$T/$name.log" 2>"$T/$name.sim.err" &&
		"$RVMESS" parse "$T/$name.log" -o "$T/$name" --target hostsim -q >"$T/$name.out" 2>"$T/$name.err"
}
within() { # A B FRACTION: |A - B| <= FRACTION x B
	awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= f * b) }'
}
# lmbench's sizes (firmware/suites/chain.c lm_step) from 512 B up to MAX
lm_sizes() { # MAX
	awk -v max="$1" 'BEGIN { for (k = 512; k <= max; ) { print k
		if (k < 1024) k *= 2; else if (k < 4096) k += 1024
		else { s = 32768; while (s <= k) s *= 2; k += s / 16 } } }'
}
# how many prog records a suite of TOTAL steps prints (firmware prog_note)
prog_count() { # TOTAL
	awk -v t="$1" 'BEGIN { last = 0; n = 0; if (t == 0) { print 1; exit }
		for (d = 1; d <= t; d++) { tenth = int(d * 10 / t)
			if (tenth == last && d != t) continue
			if (d == t && last == 10) continue
			last = tenth; n++ }
		print n }'
}
VERSION=$("$RVMESS" --version | awk '{ print $2 }')

# ---- chase, lat and par on a known system -----------------------------------------------
# 2 harts at 1 GHz, timebase 10 MHz; L1D 8 KiB at 4 cycles, LLC 64 KiB at
# +30, memory fixed at +80: 4, 34 and 114 cycles a dependent load
CFG1="suites=chase,lat,par reps=1 warmups=1 chase_size=512K chase_loads=2000 lat_max=512K lat_loads=2000 lat_strides=64 par_max=512K par_kmax=12"
SYS="--mem-size 64M --mem-model fixed --mem-latency 80 --l1d-size 8K --l1d-hit 4 --llc-size 64K --llc-hit 30"
L1=4 L2=34 MEM=114
if ! run r1 "$CFG1" "--harts 2 $SYS --mshrs 8"; then
	for c in known-summary-txt known-summary-json known-cache-levels known-chase known-par-mshrs-8; do
		fail "$c" "the run failed: $(cat "$T"/r1.*err | head -3 | tr '\n' '|')"
	done
else
	nlat=$(lm_sizes 524288 | awk '$1 / 64 >= 2' | wc -l)
	npar=$(lm_sizes 524288 | awk '$1 / 64 >= 8 * 12' | wc -l)
	nprog=$(( $(prog_count "$nlat") + $(prog_count "$npar") ))
	lines=$(awk 'END { print NR }' "$T/r1.log")
	good=$(grep -c '^@RVM ' "$T/r1.log")
	cpu_hz=$(sed -n 's/^cpu_hz: //p' "$T/r1/summary.txt")
	{
		echo "log: $T/r1.log"
		echo "lines: $lines"
		echo "good: $good"
		printf '%s: 0\n' bad missing duplicate conflicting unknown_types invalid_fields out_of_order
		echo "complete: yes"
		echo "status: ok"
		echo "result: clean"
		echo "harts: 2"
		echo "target: hostsim (from --target)"
		echo "memory_timing: yes"
		echo "platform: virt"
		echo "mode: M"
		echo "hdr_harts: 2"
		echo "cpu_hz: $cpu_hz"
		echo "timebase: 10000000"
		echo "version: $VERSION"
		echo "records_by_type: hdr=1 cfg=1 hart=2 chase=2 lat=$((2 * nlat)) par=$((12 * npar)) parmax=$npar prog=$nprog end=1"
		echo "files: records.csv summary.txt summary.json chase.csv lat.csv lat_*.xg lat.xg cache_levels.txt cache_levels.csv lat.svg par.csv parmax.csv par.svg"
	} >"$T/want-summary.txt"
	# cpu_hz is measured by the image against the timebase: 1 GHz within 0.01 %
	if within "$cpu_hz" 1000000000 0.0001 && [ $good = "$lines" ] && diff "$T/want-summary.txt" "$T/r1/summary.txt" >"$T/d.txt"; then
		pass "known-summary-txt ($good records: lat=$((2 * nlat)) par=$((12 * npar)) parmax=$npar prog=$nprog)"
	else fail known-summary-txt "cpu_hz $cpu_hz; $(head -6 "$T/d.txt" | tr '\n' '|')"; fi

	# summary.json: the same run, every field, and the levels and latencies below
	if python3 - "$T/r1/summary.json" "$T/want-summary.txt" "$T/r1/cache_levels.csv" "$MEM" <<'EOF' >"$T/json.txt" 2>&1
import json, sys
j = json.load(open(sys.argv[1]))
w = dict(l.split(": ", 1) for l in open(sys.argv[2]).read().splitlines())
lv = [r.split(",") for r in open(sys.argv[3]).read().splitlines()[1:]]
mem = float(sys.argv[4])
bad = []
def eq(what, got, want):
    if got != want:
        bad.append("%s: %r, want %r" % (what, got, want))
eq("log", j["log"], w["log"])
eq("run", j["run"], {"target": "hostsim", "target_from": "--target", "memory_timing": True, "warning": None})
eq("image", j["image"], {"platform": "virt", "mode": "M", "harts": 2, "cpu_hz": int(w["cpu_hz"]),
                         "timebase": 10000000, "version": w["version"]})
byt = dict(kv.split("=") for kv in w["records_by_type"].split())
c = j["counts"]
for k in ("lines", "good", "bad", "missing", "duplicate", "conflicting", "unknown_types", "invalid_fields", "harts"):
    eq("counts." + k, c[k], int(w[k]))
eq("counts.records_by_type", {k: v for k, v in c["records_by_type"].items()}, {k: int(v) for k, v in byt.items()})
eq("complete", j["complete"], True)
eq("status", j["status"], "ok")
eq("clean", j["clean"], True)
eq("levels", [(x["level"], x["first_size_bytes"], x["last_size_bytes"], x["capacity_bytes"], x["points"],
               x["ns_per_load"], x["cycles_per_load"]) for x in j["cache_levels"]],
   [(r[0], int(r[1]), int(r[2]), int(r[3]) if r[3] else None, int(r[4]), float(r[5]), float(r[6])) for r in lv])
u = j["unloaded_latency_ns"]
eq("unloaded_latency_ns.lat_memory", u["lat_memory"], float(lv[-1][5]))
if abs(u["chase_median"] - mem) > 0.01 * mem:
    bad.append("unloaded_latency_ns.chase_median %r, want %g within 1 %%" % (u["chase_median"], mem))
eq("mess", j["mess"], None)
print("; ".join(bad))
sys.exit(1 if bad else 0)
EOF
	then pass known-summary-json
	else fail known-summary-json "$(head -c 400 "$T/json.txt")"; fi

	# cache_levels.txt/.csv: three levels; a capacity is the last lmbench size
	# that fits (one step below the configured size at most), a latency the
	# configured one within 1 %
	step_below() { lm_sizes "$1" | tail -2 | head -1; } # the lmbench size before the one at SIZE
	res=$(awk -F, -v l1="$L1" -v l2="$L2" -v mem="$MEM" -v c1=8192 -v c1lo="$(step_below 8192)" \
		-v c2=65536 -v c2lo="$(step_below 65536)" '
		function near(a, b) { d = a - b; if (d < 0) d = -d; return d <= 0.01 * b }
		NR == 2 { if ($1 != "L1" || $4 < c1lo || $4 > c1 || !near($7, l1)) print "L1 " $0 }
		NR == 3 { if ($1 != "L2" || $4 < c2lo || $4 > c2 || !near($7, l2)) print "L2 " $0 }
		NR == 4 { if ($1 != "memory" || $4 != "" || !near($7, mem) || !near($6, mem)) print "memory " $0 }
		END { if (NR != 4) print NR - 1 " levels, want 3" }' "$T/r1/cache_levels.csv")
	txt=$(awk '$1 == "L1" || $1 == "L2" || $1 == "memory" { print $1, $(NF - 2), $(NF - 1) }' "$T/r1/cache_levels.txt" | tr '\n' ' ')
	csv=$(awk -F, 'NR > 1 { print $1, $6, $7 }' "$T/r1/cache_levels.csv" | tr '\n' ' ')
	if [ -z "$res" ] && [ "$txt" = "$csv" ]; then pass "known-cache-levels ($csv)"
	else fail known-cache-levels "$res; cache_levels.txt '$txt', csv '$csv'"; fi

	res=$(awk -F, -v mem="$MEM" 'NR > 1 { n++; d = $10 - mem; if (d < 0) d = -d; if (d > 0.01 * mem) print "hart " $1 ": " $10 " ns" }
		END { if (n != 2) print n " rows, want 2" }' "$T/r1/chase.csv")
	if [ -z "$res" ]; then pass known-chase; else fail known-chase "$res (want $MEM ns)"; fi
fi

# parmax: where every load misses the L1D (2x the L1D to half the LLC) or
# the LLC (from 2x the LLC), the parallelism is the MSHR count M: at least
# M chains (more add nothing), par within 5 % below M
par_case() { # MSHRS PARSED-DIR
	awk -F, -v m="$1" 'NR > 1 && (($1 >= 16384 && $1 <= 32768) || $1 >= 131072) { n++
			if ($3 < m || $4 > m * 1.005 || $4 < 0.95 * m) bad = bad " " $1 ":k=" $3 ",par=" $4 }
		END { if (n < 5) print "only " n " sizes"; else if (bad != "") print bad }' "$2/parmax.csv"
}
[ -d "$T/r1" ] && res=$(par_case 8 "$T/r1") || res="no run"
if [ -z "$res" ]; then pass known-par-mshrs-8; else fail known-par-mshrs-8 "$res"; fi
if run r2 "suites=par reps=1 warmups=1 par_max=256K par_kmax=8 lat_loads=2000" "--harts 1 $SYS --mshrs 4"; then
	res=$(par_case 4 "$T/r2")
else res="the run failed: $(cat "$T"/r2.*err | head -2 | tr '\n' '|')"; fi
if [ -z "$res" ]; then pass known-par-mshrs-4; else fail known-par-mshrs-4 "$res"; fi

# ---- the Mess family -------------------------------------------------------------------
# 4 harts: the lead's chase and 3 generators with 8 MSHRs each
CFGM="suites=mess reps=1 mess_chase_size=512K mess_gen_size=64K mess_window_loads=2000 mess_mix=0,100"
if run r3 "$CFGM mess_pause=0,16,256,4096" "--harts 4 $SYS --mshrs 8"; then
	# fixed memory: no queue, so every point's latency is the unloaded one; at
	# pause 0 the loads' bandwidth is Little's law, (3 x 8 lines + the chase's
	# one) in flight over 114 ns
	res=$(awk -F, -v mem="$MEM" 'function near(a, b, f) { d = a - b; if (d < 0) d = -d; return d <= f * b }
		NR > 1 { if (!near($6, mem, 0.01)) print "latency " $6 " at mix " 100 - $10 " pause " $2
			if ($2 == 0 && $10 == 100 && !near($3, (3 * 8 + 1) * 64 / mem, 0.03)) print "loads at pause 0: " $3 " GB/s"
			if ($2 == 0 && $10 == 100 && $5 < 0.99) print "read share of loads " $5
			if ($2 == 0 && $10 == 0 && ($5 < 0.50 || $5 > 0.52)) print "read share of stores " $5 }' "$T/r3/mess.csv")
	unl=$(sed -n 's/^unloaded latency *\([0-9.]*\) ns$/\1/p' "$T/r3/mess_metrics.txt")
	if [ -z "$res" ] && within "$unl" "$MEM" 0.01 &&
		grep -q '^saturated bandwidth *not reached' "$T/r3/mess_metrics.txt" &&
		python3 -c 'import json, sys; m = json.load(open(sys.argv[1]))["mess"]
sys.exit(not (abs(m["unloaded_latency_ns"] - float(sys.argv[2])) < 0.05 and m["saturated_curves"] == 0))' "$T/r3/summary.json" "$unl"; then
		pass "known-mess-fixed (unloaded $unl ns)"
	else fail known-mess-fixed "unloaded '$unl' (want $MEM ns): $(echo "$res" | head -3 | tr '\n' '|')"; fi
else fail known-mess-fixed "the run failed: $(cat "$T"/r3.*err | head -2 | tr '\n' '|')"; fi

if run r4 "$CFGM mess_pause=0,16,64,128,256,512,1024,4096" "--harts 4 $SYS --mem-model md1 --peak-gbps 5 --mshrs 8"; then
	# 5 GB/s: both curves end at 5 GB/s; the loads' latency there is (3 x 8 + 1)
	# lines of 64 B per 5 GB/s = 320 ns; each curve's saturated bandwidth
	# (where it crosses 2x unloaded) within 15 % below the peak
	res=$(awk '$1 == "0" || $1 == "100" { if ($4 > 5.0 * 1.001 || $4 < 5.0 * 0.99) print "curve " $1 ": max " $4 " GB/s"
			if ($3 == "-" || $3 > 5.0 * 1.001 || $3 < 5.0 * 0.85) print "curve " $1 ": saturated " $3 " GB/s"
			if ($1 == "0" && ($5 < 320 * 0.97 || $5 > 320 * 1.03)) print "loads: max latency " $5 " ns" }' "$T/r4/mess_metrics.txt")
	if [ -z "$res" ] && grep -q '"peak_gbps": 5.000' "$T/r4/summary.json" && grep -q '(2 of 2 curves reach 2x' "$T/r4/mess_metrics.txt"; then
		pass known-mess-md1
	else fail known-mess-md1 "$(echo "$res" | head -3 | tr '\n' '|') $(grep -o '"peak_gbps": [^,]*' "$T/r4/summary.json")"; fi
else fail known-mess-md1 "the run failed: $(cat "$T"/r4.*err | head -2 | tr '\n' '|')"; fi

# mess_metrics.txt, summary.json and summary.txt of both Mess runs
mess_reports() { # DIR NPAUSES PEAK(null|5)
	python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
d, npause, peak = sys.argv[1], int(sys.argv[2]), sys.argv[3]
bad = []
def eq(what, got, want):
    if got != want:
        bad.append("%s: %r, want %r" % (what, got, want))
def r(x, n):  # a json figure as the text prints it
    return None if x is None else "%.*f" % (n, x)
j = json.load(open(d + "/summary.json"))["mess"]
t = open(d + "/mess_metrics.txt").read().split("\n")
head = {l[:24].strip(): l[24:].strip() for l in t[:4]}
eq("unloaded", head.get("unloaded latency"), r(j["unloaded_latency_ns"], 1) + " ns")
rows = [l.split() for l in t[6:] if l.strip()]
curves = j["curves"]
eq("curves", len(rows), len(curves))
eq("curves in json", len(curves), 2)
for c, row in zip(curves, rows):
    k = "curve %s: " % c["store_pct"]
    eq(k + "row", row, [str(c["store_pct"]), str(c["read_pct"]), r(c["saturated_bw_gbps"], 2) or "-",
                        r(c["max_bw_gbps"], 2), r(c["max_latency_ns"], 1), "yes" if c["wave"] else "no"])
    eq(k + "points", c["points"], npause)
    eq(k + "wave", c["wave"], False)
eq("store_pct", [c["store_pct"] for c in curves], [0, 100])
if len(curves) == 2:
    eq("read_pct of loads", curves[0]["read_pct"], 100)
    if not 50 <= curves[1]["read_pct"] <= 52:
        bad.append("read_pct of stores %r, want 50..52" % curves[1]["read_pct"])
sat = [c["saturated_bw_gbps"] for c in curves if c["saturated_bw_gbps"] is not None]
eq("saturated_curves", j["saturated_curves"], len(sat))
eq("saturated_bw_min_gbps", j["saturated_bw_min_gbps"], min(sat) if sat else None)
eq("saturated_bw_max_gbps", j["saturated_bw_max_gbps"], max(sat) if sat else None)
if peak == "null":
    eq("saturated curves on fixed memory", len(sat), 0)
    eq("saturated line", head.get("saturated bandwidth"), "not reached (no curve reaches 2x unloaded latency)")
else:
    eq("saturated curves on md1", len(sat), 2)
    pk = float(peak)
    if sat:
        eq("saturated line", head.get("saturated bandwidth"),
           "%s (%.1f %%) .. %s GB/s (%.1f %%)  (%d of 2 curves reach 2x unloaded latency)" % (
               r(min(sat), 2), 100 * min(sat) / pk, r(max(sat), 2), 100 * max(sat) / pk, len(sat)))
eq("peak_gbps", j["peak_gbps"], None if peak == "null" else float(peak))
lat = [c["max_latency_ns"] for c in curves]
eq("max_latency_min_ns", j["max_latency_min_ns"], min(lat))
eq("max_latency_max_ns", j["max_latency_max_ns"], max(lat))
eq("maximum latency line", head.get("maximum latency"), "%s .. %s ns" % (r(min(lat), 1), r(max(lat), 1)))
eq("wave_curves", j["wave_curves"], 0)
eq("wave line", head.get("wave"), "0 of 2 curves")
print("; ".join(bad))
sys.exit(1 if bad else 0)
EOF
}
# summary.txt of a Mess run: one mess record a point, the prog records of
# that many steps, one memctl total
mess_counts() { # DIR NPOINTS
	local want
	want="records_by_type: hdr=1 cfg=1 hart=4 mess=$2 memctl=1 prog=$(prog_count "$2") end=1"
	grep -qx "$want" "$1/summary.txt" && grep -qx 'result: clean' "$1/summary.txt" ||
		echo "$(grep '^records_by_type' "$1/summary.txt") (want '$want')"
}
if [ -f "$T/r3/summary.json" ] && [ -f "$T/r4/summary.json" ]; then
	res=$({ mess_reports "$T/r3" 4 null; mess_reports "$T/r4" 8 5; mess_counts "$T/r3" 8; mess_counts "$T/r4" 16; } 2>&1 |
		awk 'NF' | paste -sd'|')
else res="a Mess run failed"; fi
if [ -z "$res" ]; then pass known-mess-reports; else fail known-mess-reports "$(printf '%s' "$res" | head -c 600)"; fi

# ---- litmus and integ under sc, 2 harts ---------------------------------------------------
ITERS=100 ROUNDS=20 LINES=4 MSGS=100
if run r5 "suites=litmus,integ reps=1 litmus_iters=$ITERS integ_rounds=$ROUNDS integ_lines=$LINES integ_msgs=$MSGS" \
	"--harts 2 --mem-size 64M --memory-order sc"; then
	# the table: every X(name, threads, cond, verdict...) runs once, and
	# again _packed with LT_PACK; with 2 harts the tests of 3 and 4 threads are skipped
	read -r ntests nskip <<<"$(awk '/^\tX\(/ { sub(/^\tX\(/, ""); n = split($0, f, ",")
		th = f[2] + 0; pk = ($0 ~ /LT_PACK/); t += 1 + pk; if (th > 2) s += 1 + pk }
		END { print t, s }' firmware/suites/litmus_tests.h)"
	res=$(awk -F, -v it=$ITERS 'NR > 1 { sum[$1] += $3; if ($4 != "ok" && !($1 == "sc_neighbour_packed" && $4 == "allowed")) print $1 " " $2 ": " $4 }
		END { for (t in sum) if (sum[t] != it) print t ": " sum[t] " outcomes, want " it }' "$T/r5/litmus.csv")
	nrun=$(awk -F, 'NR > 1 { print $1 }' "$T/r5/litmus.csv" | sort -u | wc -l)
	want="litmus: bugs=0 tests=$ntests relaxed=1 skipped=$nskip"
	if [ -z "$res" ] && [ "$nrun" = $((ntests - nskip)) ] && grep -qx "$want" "$T/r5/summary.txt"; then
		pass "known-litmus-sc ($ntests tests, $nskip skipped)"
	else fail known-litmus-sc "$(echo "$res" | head -3 | tr '\n' '|') $nrun tests in litmus.csv; summary: $(grep '^litmus:' "$T/r5/summary.txt") (want '$want')"; fi
	# integ: each hart reads every doubleword of its group's lines every
	# round (ROUNDS x LINES x 2 harts), and checks 5 payload words and the
	# checksum of each message (MSGS x 6)
	lw=$((ROUNDS * LINES * 2)) rw=$((MSGS * 6))
	printf 'check,hart,words,bad,addr,want,got\nlines,0,%s,0,,,\nlines,1,%s,0,,,\nring,0,%s,0,,,\nring,1,%s,0,,,\n' \
		$lw $lw $rw $rw >"$T/want-integ.csv"
	want="integrity: failed=0 checks=4 words=$((2 * lw + 2 * rw)) bad=0"
	if cmp -s "$T/want-integ.csv" "$T/r5/integrity.csv" && grep -qx "$want" "$T/r5/summary.txt"; then
		pass known-integrity
	else fail known-integrity "$(diff "$T/want-integ.csv" "$T/r5/integrity.csv" | tr '\n' '|') $(grep '^integrity:' "$T/r5/summary.txt")"; fi
else
	fail known-litmus-sc "the run failed: $(cat "$T"/r5.*err | head -2 | tr '\n' '|')"
	fail known-integrity "the run failed"
fi

# ---- the rendezvous timeout --------------------------------------------------------------
# hart 1 never arrives (inject_hang=2); the lead prints its cfg record, waits
# timeout_ms = 3 ms = 3 000 000 cycles at 1 GHz, writes hart 1 off and goes on:
# the hart record after it comes 3 ms later (console stamps: each line's cycle)
"$RVMESS" config "$IMG" suites=chase reps=1 chase_size=64K chase_loads=1000 inject_hang=2 timeout_ms=3 \
	-o "$T/hang.elf" >/dev/null 2>&1
timeout 300 "$SIM" --harts 2 --mem-size 64M --console-stamps "$T/hang.stamps" "$T/hang.elf" >"$T/hang.log" 2>/dev/null
gap=$(awk 'NR == FNR { if ($0 ~ / cfg h=/) c = FNR; if ($0 ~ / hart h=0 /) h = FNR; next }
	FNR == c { a = $1 } FNR == h { b = $1 } END { print b - a }' "$T/hang.log" "$T/hang.stamps")
if grep -q ' missing h=0 hart=1 where=boot ' "$T/hang.log" && [ "${gap:-0}" -ge 3000000 ] && [ "$gap" -le 3300000 ]; then
	pass "known-rendezvous-timeout ($gap cycles for 3 ms)"
else fail known-rendezvous-timeout "the lead waited ${gap:-?} cycles for a 3 ms timeout (want 3.0 to 3.3 M): $(grep -c missing "$T/hang.log") missing records"; fi

finish
