#!/usr/bin/env bash
# RTL plans (docs/sweeps.md): rvmess plan --target openpiton | cva6, run by
# tools/run.sh on a stand-in OpenPiton checkout whose "model" is hostsim
# (CI has no Verilator model): its sims runs the job's image on hostsim's
# openpiton profile as tools/rtl-shadow.sh does, reports R times hostsim's
# cycles as the simulation's (R in $P/ratio), burns CPU in proportion and
# records where it ran and when.
#   rtlplan-refused-*   what the plan refuses, naming the reason, writing nothing:
#                       no checkout, an unbuilt model, other tiles, a refused
#                       Mess family, the mess suite on CVA6 (one hart), an
#                       option of the other target or without --mess-curves
#   rtlplan-check       tools/run.sh --check: model, record, harts, memory; no
#                       run directory
#   rtlplan-no-record   a model without runs: the plan says there is no estimate
#   rtlplan-record-unclean  a run stopped at its time-out: unclean, no shadow count
#   rtlplan-record      a run of tools/run.sh adds a line to the model's record:
#                       clean, its cycles, CPU seconds (as the stand-in's own
#                       count of its CPU), the shadow count (= cycles / R)
#   rtlplan-command     the job's command: run.sh with absolute paths, the job's
#                       own folder, the console log on stdout
#   rtlplan-estimate    every job's estimate = R x its shadow count, from the
#                       newest clean run with the plan's memory (not a newer
#                       unclean one, nor one with other memory)
#   rtlplan-local-*     PLAN/run.sh -j 2 prints the estimate first; two jobs ran
#                       at once, each sims in its own PLAN/runs/<job>/sims; each
#                       job log is the runner's line and the console log
#   rtlplan-merge-*     merged clean; the estimate against the truth per job
#                       (the model ran R' = 4/3 R: every job -25.0 %) and in total
#   rtlplan-slurm-*     the same plan as a Slurm array on tools/slurm-local.sh's
#                       cluster (2 CPUs: the estimate runs 2 of the 4 tasks at
#                       once), merged (the points of the local run), its
#                       estimate now calibrated on a job of the local run:
#                       +0.0 % on each job
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
scratch rtlplan
T=$TMP
ROOT=$(pwd)
RVMESS=$ROOT/$BUILD/bin/rvmess
IMG=$ROOT/$BUILD/images/openpiton.elf
for b in "$RVMESS" "$ROOT/$BUILD/bin/hostsim" "$IMG"; do
	[ -e "$b" ] || { fail build "$b not built (make)"; exit 1; }
done
export HOSTSIM=$ROOT/$BUILD/bin/hostsim
export RTL_END_GRACE=5 # tenths of a second the stand-in gets to end by itself
NETOPT=()
unshare -n true 2>/dev/null || unshare -rn true 2>/dev/null || NETOPT=(--network)

cat >"$T/grid.cfg" <<'EOF'
suites=mess
reps=1
warmups=0
mess_chase_size=256K
mess_gen_size=32K
mess_window_loads=1000
mess_mix=0,100
mess_pause=0,64
EOF

# ---- the stand-in checkout --------------------------------------------------------
P=$T/piton
mkdir -p "$P/piton/tools/bin" "$P/build/manycore/b2/obj_dir"
echo 'export PATH=$PITON_ROOT/piton/tools/bin:$PATH' >"$P/piton/piton_settings.bash"
printf '#!/bin/sh\n' >"$P/build/manycore/b2/obj_dir/Vcmp_top"
chmod +x "$P/build/manycore/b2/obj_dir/Vcmp_top"
printf '`define RTL_TILE0\n`define RTL_TILE1\n' >"$P/build/manycore/b2/config.v"
echo 3 >"$P/ratio"
# sims -vlt_run: hostsim on rvmess.riscv (the shadow's options), R x its
# cycles as the simulation's (sims.log's verdict line: 500 ps a cycle),
# CPU burnt in proportion (its own count in cpu.txt: bash's `times`), the
# console written to fake_uart.log after that, then it waits to be stopped
# at the end record; start and end times in started/ended
cat >"$P/piton/tools/bin/sims" <<'EOF'
#!/usr/bin/env bash
date +%s.%N >started
pwd >where
printf '%s\n' "$@" >args
x=1 y=1
for a; do case $a in -x_tiles=*) x=${a#*=} ;; -y_tiles=*) y=${a#*=} ;; esac; done
h=$((x * y))
: >fake_uart.log
"$HOSTSIM" --machine openpiton --harts $h --l1d-size 8192 --llc-size $((65536 * h)) --mem-model fixed --mem-latency 1 \
	--no-phase-hint --stats --console uart.tmp rvmess.riscv 2>hs.err >/dev/null
cyc=$(sed -n 's/.* max_cycles=\([0-9]*\) .*/\1/p' hs.err)
model=$(awk -v c="$cyc" -v r="$(cat "$PITON_ROOT/ratio")" 'BEGIN { printf "%d", c * r }')
awk -v n=$((model * 2)) 'BEGIN { for (i = 0; i < n; i++) s += i }'
times >times.txt # (not in a pipeline: a subshell has no children of its own)
tail -n 1 times.txt | awk '{ split($1, u, /[ms]/); split($2, s, /[ms]/); print u[1] * 60 + u[2] + s[1] * 60 + s[2] }' >cpu.txt
echo "$((model * 500)): Simulation -> PASS (HIT GOOD TRAP)"
printf 'Diag: rvmess.riscv %30s\n' PASS >status.log
while IFS= read -r l; do printf '%s\n' "$l" >>fake_uart.log; done <uart.tmp
date +%s.%N >ended
sleep 60 & wait
EOF
chmod +x "$P/piton/tools/bin/sims"
OP=(--target openpiton --piton-root "$P" --tiles 2x1 --piton-build b2 "${NETOPT[@]}")

# ---- refused at plan time ---------------------------------------------------------
refused() { # CASE MESSAGE PLAN-ARGS...
	local c=$1 want=$2 rc img=$IMG
	shift 2
	rm -rf "$T/rp"
	[ "$c" = rtlplan-refused-cva6-mess ] && img=$ROOT/$BUILD/images/cva6.elf
	"$RVMESS" plan "$img" -o "$T/rp" --file "$T/grid.cfg" "$@" >"$T/out" 2>&1
	rc=$?
	if [ "$rc" != 0 ] && grep -qF -- "$want" "$T/out" && [ ! -e "$T/rp/manifest.tsv" ]; then pass "$c"
	else fail "$c" "exit $rc, want non-zero with '$want' and no plan; got: $(head -c 300 "$T/out" | tr '\n' '|')"; fi
}
refused rtlplan-refused-no-root "needs --piton-root DIR" --target openpiton
refused rtlplan-refused-not-checkout "is not an OpenPiton checkout" --target openpiton --piton-root "$T" --tiles 2x1
refused rtlplan-refused-unbuilt "no built Verilator model" --target openpiton --piton-root "$P" --tiles 2x1 --piton-build nob
refused rtlplan-refused-tiles "built for 2 tile(s), not 4x1" --target openpiton --piton-root "$P" --tiles 4x1 --piton-build b2
mkdir -p "$T/badfam" && printf '0 100\n' >"$T/badfam/bwlat_100.txt"
refused rtlplan-refused-family "the family is refused" "${OP[@]}" --mess-curves "$T/badfam"
refused rtlplan-refused-mess-stage "was not built with the Mess stage" "${OP[@]}" --mess-curves curves/hostsim-ddr4-3200
refused rtlplan-refused-other-target "--cva6 is an option of tools/run.sh's cva6 target" "${OP[@]}" --cva6 "$T"
refused rtlplan-refused-mhz-alone "go with --mess-curves" "${OP[@]}" --mess-mhz 800
mkdir -p "$T/cva6/work-ver"
printf '#!/bin/sh\n' >"$T/cva6/work-ver/Variane_testharness"
chmod +x "$T/cva6/work-ver/Variane_testharness"
refused rtlplan-refused-cva6-mess "the mess suite needs 2 harts or more" --target cva6 --cva6 "$T/cva6" "${NETOPT[@]}"

# ---- run.sh --check: what the plan reads ------------------------------------------------
rm -rf "$T/runs"
tools/run.sh --check "${OP[@]}" --image "$IMG" --runs "$T/runs" >"$T/check.out" 2>&1
rc=$?
if [ "$rc" = 0 ] && grep -qx "model: $P/build/manycore/b2" "$T/check.out" &&
	grep -qx "record: $P/build/manycore/b2/rvmess-runs.tsv" "$T/check.out" && grep -qx "harts: 2" "$T/check.out" &&
	grep -qx "memory: own" "$T/check.out" && [ ! -e "$T/runs" ]; then
	pass rtlplan-check
else fail rtlplan-check "exit $rc: $(tr '\n' '|' <"$T/check.out")"; fi

# ---- a model without runs: no estimate --------------------------------------------------
"$RVMESS" plan "$IMG" -o "$T/p0" --file "$T/grid.cfg" "${OP[@]}" >"$T/p0.out" 2>&1
rc=$?
if [ "$rc" = 0 ] && grep -q "no clean run of this model with a shadow count in $P/build/manycore/b2/rvmess-runs.tsv: no cycle estimate" "$T/p0.out" &&
	grep -q '^time	86400$' "$T/p0/manifest.tsv"; then
	pass rtlplan-no-record
else fail rtlplan-no-record "exit $rc: $(head -5 "$T/p0.out" | tr '\n' '|')"; fi

# ---- a run recorded: the calibration ---------------------------------------------------
"$RVMESS" config "$IMG" --file "$T/grid.cfg" mess_pause=0 mess_mix=0 -o "$T/cal.elf" >/dev/null
tools/run.sh "${OP[@]}" --image "$T/cal.elf" --out "$T/cal" --progress off >"$T/cal.out" 2>&1
rc=$?
REC=$P/build/manycore/b2/rvmess-runs.tsv
line=$(tail -n 1 "$REC" 2>/dev/null)
IFS=$'\t' read -r _ f_sim f_st f_cyc _ f_cpu f_cps f_sh f_h f_mem <<<"$line"
own=$(cat "$T/cal/sims/cpu.txt" 2>/dev/null)
if [ "$rc" = 0 ] && [ "$f_sim" = "$T/cal/sim.txt" ] && [ "$f_st" = clean ] && [ "$f_h" = 2 ] && [ "$f_mem" = own ] &&
	[ "$f_cyc" = "$(sed -n 's/^cycles: //p' "$T/cal/sim.txt")" ] && [ -n "$f_sh" ] && [ "$f_cyc" = $((f_sh * 3)) ] &&
	awk -v a="$f_cpu" -v b="$own" -v c="$f_cps" -v y="$f_cyc" \
		'BEGIN { exit !(b > 0.1 && a >= 0.9 * b && a <= 1.5 * b + 0.1 && c > 0.95 * y / a && c < 1.05 * y / a) }'; then
	pass "rtlplan-record (cycles $f_cyc = 3 x shadow $f_sh; $f_cpu CPU seconds, the stand-in counted $own)"
else fail rtlplan-record "exit $rc, record line '$line' (the stand-in's CPU: '$own'): $(tail -3 "$T/cal.out" | tr '\n' '|')"; fi
# a run stopped at its time-out: recorded unclean, without a shadow count (a fixed window of
# 500 000 loads, tens of seconds on the stand-in, so that the 1 s time-out always stops it)
"$RVMESS" config "$IMG" --file "$T/grid.cfg" mess_pause=0 mess_mix=0 mess_tol=0 mess_window_loads=500000 \
	-o "$T/cut.elf" >/dev/null
tools/run.sh "${OP[@]}" --image "$T/cut.elf" --out "$T/cut" --progress off --timeout 1 >"$T/cut.out" 2>&1
rc=$?
line=$(tail -n 1 "$REC" 2>/dev/null)
IFS=$'\t' read -r _ f_sim f_st _ _ _ _ f_sh _ _ <<<"$line"
if [ "$rc" != 0 ] && [ "$f_sim" = "$T/cut/sim.txt" ] && [ "$f_st" = unclean ] && [ "$f_sh" = - ]; then
	pass rtlplan-record-unclean
else fail rtlplan-record-unclean "exit $rc, record line '$line'"; fi
# newer lines the estimate must not use: an unclean run, and a clean one with other memory
{
	printf '2999-01-01T00:00:00Z\t/x/sim.txt\tunclean\t70000000\t1\t1\t70000000\t1000000\t2\town\n'
	printf '2999-01-02T00:00:00Z\t/y/sim.txt\tclean\t50000000\t1\t1\t50000000\t1000000\t2\tfixed 9 cycles (rvmess_mem_delay)\n'
} >>"$REC"

# ---- the plan ----------------------------------------------------------------------
PL=$T/plan
rel=$(realpath --relative-to=. "$P")
"$RVMESS" plan "$IMG" -o "$PL" --file "$T/grid.cfg" --target openpiton --piton-root "$rel" --tiles 2x1 --piton-build b2 \
	"${NETOPT[@]}" >"$T/plan.out" 2>&1
rc=$?
cmd=$(awk -F'\t' '$1 == "command" { print $2 }' "$PL/manifest.tsv" 2>/dev/null)
if [ "$rc" = 0 ] && [ "$cmd" = "'$ROOT/tools/run.sh' --target 'openpiton' --piton-root '$P' --tiles '2x1' --piton-build 'b2'${NETOPT:+ --network} --image \"\$IMAGE\" --out \"\$RUNDIR\" --progress off --console-stdout --timeout $(($(awk -F'\t' '$1 == "time" { print $2 }' "$PL/manifest.tsv") - 60))" ]; then
	pass rtlplan-command
else fail rtlplan-command "exit $rc, command '$cmd': $(head -3 "$T/plan.out" | tr '\n' '|')"; fi
# every job: est_cycles = 3 x shadow (the table's columns 3 and 4)
est=$(awk '$1 ~ /^[0-9]+$/ && NF >= 5 { n++; if ($4 != sprintf("%.0f", 3 * $3)) bad = bad " job " $1 ": " $3 " -> " $4 }
	END { print n + 0 (bad ? bad : "") }' "$T/plan.out")
if [ "$est" = 4 ] && grep -q "x 3.0000, this model's cycles per count on $T/cal/sim.txt;" "$T/plan.out" &&
	grep -q "^ratio	3.000000	$T/cal/sim.txt	same$" "$PL/estimate.tsv"; then
	pass "rtlplan-estimate (4 jobs at 3 x their shadow count)"
else fail rtlplan-estimate "'$est' (want 4 jobs at 3 x shadow): $(grep -v '^ ' "$T/plan.out" | head -4 | tr '\n' '|')"; fi

# ---- run it locally, two at a time -------------------------------------------------------
echo 4 >"$P/ratio" # the model now runs 4/3 of the calibration's cycles a count
"$PL/run.sh" -j 2 --progress off >"$T/run.out" 2>&1
rc=$?
first_est=$(grep -n '^estimate: a job' "$T/run.out" | head -1 | cut -d: -f1)
running=$(grep -n '^sweep-run: running 4 of 4 jobs' "$T/run.out" | cut -d: -f1)
if [ "$rc" = 0 ] && [ -n "$first_est" ] && [ -n "$running" ] && [ "$first_est" -lt "$running" ]; then
	pass rtlplan-local-estimate-first
else fail rtlplan-local-estimate-first "exit $rc; estimate at line '$first_est', running at '$running': $(head -3 "$T/run.out" | tr '\n' '|')"; fi
bad="" overlap=""
for i in 0 1 2 3; do
	[ "$(cat "$PL/runs/$i/sims/where" 2>/dev/null)" = "$PL/runs/$i/sims" ] || bad="$bad job $i ran in '$(cat "$PL/runs/$i/sims/where" 2>/dev/null)';"
	tail -n +2 "$PL/logs/$i.log" | cmp -s - "$PL/runs/$i/console.log" && [ -s "$PL/runs/$i/console.log" ] ||
		bad="$bad job $i's log is not the runner's line + its console log;"
	head -n 1 "$PL/logs/$i.log" | grep -q "^rvmess-job: plan=[0-9a-f]* job=$i " || bad="$bad job $i's first line;"
done
# two stand-in simulations at once: some job started before another ended
overlap=$(for i in 0 1 2 3; do echo "$(cat "$PL/runs/$i/sims/started" 2>/dev/null) $(cat "$PL/runs/$i/sims/ended" 2>/dev/null)"; done |
	awk 'NF == 2 { s[NR] = $1; e[NR] = $2 } END { for (a in s) for (b in s) if (a != b && s[a] <= s[b] && s[b] < e[a]) n++; print n + 0 }')
if [ -z "$bad" ] && [ "$overlap" -gt 0 ]; then pass "rtlplan-local-own-folders ($overlap overlapping pairs)"
else fail rtlplan-local-own-folders "$bad overlapping pairs: $overlap"; fi

"$RVMESS" merge "$PL" -o "$T/m" -q >"$T/merge.out" 2>&1
rc=$?
if [ "$rc" = 0 ] && grep -q 'points=4 good=4 missing=0 failed=0 duplicated=0 .* result=clean' "$T/merge.out" &&
	[ "$(awk 'NR > 1' "$T/m/mess_raw.csv" | wc -l)" = 4 ]; then
	pass rtlplan-merge-clean
else fail rtlplan-merge-clean "exit $rc: $(tail -3 "$T/merge.out" | tr '\n' '|')"; fi
# estimate vs truth: the model ran 4 a count, the estimate said 3: -25.0 % on each job
vs() { # OUT ERROR -> "" or what is wrong (in the last table of OUT)
	awk -v want="$2" '/^estimate: a job/ { n = 0; bad = ""; t = 0 }
		$1 ~ /^[0-9]+$/ && $6 == "|" { n++; if ($8 != want || $7 != sprintf("%.0f", 4 * $3)) bad = bad " job " $1 ": " $7 " " $8 }
		/^truth: 4 of 4 jobs ran/ && index($0, "cycles (estimate " want ")") { t = 1 }
		END { if (n != 4 || bad || !t) print "jobs " n + 0 ":" bad (t ? "" : " no truth line at " want) }' "$1"
}
res=$(vs "$T/merge.out" -25.0%)
if [ -z "$res" ]; then pass "rtlplan-merge-vs-truth (every job -25.0 %: estimate at 3, the model at 4 a count)"
else fail rtlplan-merge-vs-truth "$res: $(grep -E '^(truth|estimate)' "$T/merge.out" | tr '\n' '|')"; fi
# the runner's own summary has it too, and the CPU estimate in total within reason
# (the stand-in burns CPU in proportion to its cycles)
res=$(vs "$T/run.out" -25.0%)
cpu=$(sed -n 's/^truth: .*CPU time .* (estimate \([-+0-9.]*\)%).*/\1/p' "$T/run.out")
if [ -z "$res" ] && [ -n "$cpu" ] && awk -v c="$cpu" 'BEGIN { exit !(c > -60 && c < 0) }'; then
	pass "rtlplan-local-summary (CPU estimate ${cpu} %: the model ran 4/3 the cycles)"
else fail rtlplan-local-summary "$res; CPU estimate '$cpu' % (want -60..0): $(grep '^truth' "$T/run.out")"; fi

# ---- Slurm ------------------------------------------------------------------------
slurm_cases="rtlplan-slurm-array rtlplan-slurm-merge rtlplan-slurm-vs-truth"
slurm_cluster $slurm_cases || { finish; exit $?; }
PS=$T/splan
"$RVMESS" plan "$IMG" -o "$PS" --file "$T/grid.cfg" "${OP[@]}" --mem 300 >/dev/null 2>&1
timeout 300 "$PS/run.sh" --slurm --wait >"$T/sbatch.out" 2>&1
rc=$?
ntask=$(find "$PS/slurm" -name '*_*.out' 2>/dev/null | wc -l)
if [ "$rc" = 0 ] && grep -q -- '--array=0,1,2,3 --wait' "$T/sbatch.out" && [ "$ntask" = 4 ] &&
	[ -z "$("$RVMESS" merge "$PS" --todo)" ] && grep -q '^estimate: a job' "$T/sbatch.out" &&
	[ "$(grep -c '^estimate: 2 at once: ' "$T/sbatch.out")" = 2 ] &&
	grep -q '^sweep-run: the partition has 2 CPUs for 4 tasks' "$T/sbatch.out"; then
	pass rtlplan-slurm-array
else fail rtlplan-slurm-array "exit $rc, $ntask task logs: $(tail -3 "$T/sbatch.out" | tr '\n' '|')"; fi
"$RVMESS" merge "$PS" -o "$T/ms" -q >"$T/ms.out" 2>&1
rc=$?
if [ "$rc" = 0 ] && grep -q 'points=4 good=4 .* result=clean' "$T/ms.out" &&
	cmp -s <(cut -d, -f2- "$T/m/mess_raw.csv" | cut -d, -f1-3) <(cut -d, -f2- "$T/ms/mess_raw.csv" | cut -d, -f1-3); then
	pass rtlplan-slurm-merge
else fail rtlplan-slurm-merge "exit $rc: $(tail -2 "$T/ms.out" | tr '\n' '|')"; fi
# (calibrated now on the newest clean run with its memory: a job of the local run, at 4 a count)
res=$(vs "$T/ms.out" +0.0%)
if [ -z "$res" ] && grep -q "x 4.0000, this model's cycles per count on $PL/runs/" "$T/ms.out"; then pass rtlplan-slurm-vs-truth
else fail rtlplan-slurm-vs-truth "$res"; fi
tools/slurm-local.sh stop "$SLURM_DIR"
finish
