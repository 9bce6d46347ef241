#!/usr/bin/env bash
# Sweeps (docs/sweeps.md): rvmess plan -> local runner / Slurm job array -> rvmess merge,
# on real hostsim runs of a small Mess grid (2 mixes x 4 pauses = 8 points, 4 harts).
#   sweep-plan-*         one job per point; each job's image holds exactly its point
#   sweep-local-kill     2 parallel jobs, one killed mid-run: the runner says so, only it is left
#   sweep-resume-*       a second run runs only that job; the other logs are untouched
#   sweep-merge-*        the merged family has every point, each within 2 % of the same grid
#                        run as one boot; a missing log is named by point and the rest kept
#   sweep-todo-*         what a resumed run runs: the jobs without a log or with one cut short
#   sweep-configs-*      two hostsim configurations: one family each and compare.csv side by side
#   sweep-adaptive-*     run --adaptive stops with every gap between measured pauses within 10 %
#   sweep-slurm-*        a real single-node Slurm (munged, slurmctld, slurmd in a temp dir):
#                        the plan as one job array, per-task logs, merged = one boot within 2 %,
#                        every daemon gone afterwards (also when a case fails: trap)
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
scratch sweep
T=$TMP
ROOT=$(pwd)
RVMESS=$ROOT/$BUILD/bin/rvmess
SIM=$ROOT/$BUILD/bin/hostsim
IMG=$ROOT/$BUILD/images/virt.elf
for b in "$RVMESS" "$SIM" "$IMG"; do
	[ -e "$b" ] || { fail build "$b not built (make)"; exit 1; }
done

cat >"$T/grid.cfg" <<'EOF'
suites=mess
reps=1
mess_chase_size=4M
mess_gen_size=1M
mess_window_loads=2000
mess_mix=0,100
mess_pause=0,64,1024,16384
EOF
# the grid, written out by hand: mix,pause of every point
GRID="0,0 0,64 0,1024 0,16384 100,0 100,64 100,1024 100,16384"
HARTS=(--harts 4 --mem-size 64M)

# the same grid as one boot: the reference
"$RVMESS" config "$IMG" --file "$T/grid.cfg" -o "$T/one.elf" >/dev/null &&
	"$SIM" --harts 4 --mem-size 64M "$T/one.elf" >"$T/one.log" 2>/dev/null &&
	"$RVMESS" parse "$T/one.log" -o "$T/one" -q >/dev/null ||
	{ fail sweep-one-boot "the one-boot reference run failed"; exit 1; }

points() { awk -F, 'NR > 1 { print $2 "," $3 }' "$1/mess_raw.csv" | sort | tr '\n' ' '; }
want_points=$(echo "$GRID" | tr ' ' '\n' | sort | tr '\n' ' ')
# every point's latency (mess_raw.csv nspl) within 2 % of the one-boot run's: "" or the worst.
# A loaded point depends a little on the state the points before it left (the
# LLC's dirty lines): a shard that boots fresh differs by up to 1.07 % (100 %
# stores, pause 64, at 4478adf), while points of this grid that a wrong merge
# could swap differ by far more
compare_one_boot() { # DIR
	awk -F, 'NR == FNR { if (FNR > 1) ref[$2 "," $3 "," $4] = $11; next }
		FNR > 1 { k = $2 "," $3 "," $4; if (!(k in ref)) { print "point " k " not in the one-boot run"; bad = 1; next }
			d = ($11 - ref[k]) / ref[k]; if (d < 0) d = -d
			if (d > 0.02) { printf "point %s: %s ns vs %s ns one boot (%.2f %%)\n", k, $11, ref[k], 100 * d; bad = 1 }
			if (d > w) w = d }
		END { if (!bad) printf "ok %.3f\n", 100 * w }' "$T/one/mess_raw.csv" "$1/mess_raw.csv"
}

# ---- plan ------------------------------------------------------------------------
P=$T/plan
if ! "$RVMESS" plan "$IMG" -o "$P" --file "$T/grid.cfg" "${HARTS[@]}" >"$T/plan.out" 2>&1; then
	fail sweep-plan "rvmess plan failed: $(head -3 "$T/plan.out" | tr '\n' '|')"
	exit 1
fi
jobs=$(awk -F'\t' '$1 == "job" { print $5 "," $6 }' "$P/manifest.tsv" | sort | tr '\n' ' ')
if [ "$jobs" = "$want_points" ]; then pass sweep-plan-manifest
else fail sweep-plan-manifest "manifest jobs '$jobs', want one per point '$want_points'"; fi
bad=""
while IFS=$'\t' read -r kind id _ _ mix pause; do
	[ "$kind" = job ] || continue
	got=$("$RVMESS" config "$P/images/$id.elf" | grep -E '^(mess_mix|mess_pause)=' | tr '\n' ' ')
	[ "$got" = "mess_mix=$mix mess_pause=$pause " ] || bad="$bad job $id: $got;"
done <"$P/manifest.tsv"
if [ -z "$bad" ]; then pass sweep-plan-images
else fail sweep-plan-images "$bad"; fi

# ---- local runner: 2 jobs, one killed mid-run, resume ------------------------------
VICTIM=5
# the victim's command waits before it runs hostsim, so the kill lands mid-job
# however fast the other jobs run (a real job takes about 0.3 s here); the
# plan's command is restored for the resume
printf '#!/bin/sh\ncase $IMAGE in */%s.elf) sleep 60 ;; esac\nexec "$@"\n' "$VICTIM" >"$T/slow.sh"
chmod +x "$T/slow.sh"
cp "$P/manifest.tsv" "$T/manifest.orig"
awk -F'\t' -v OFS='\t' -v w="$T/slow.sh" '$1 == "command" { $2 = w " " $2 } 1' "$T/manifest.orig" >"$P/manifest.tsv"
"$P/run.sh" -j 2 --progress off >"$T/run1.out" 2>&1 &
rpid=$!
killed=""
for _ in $(seq 600); do
	if [ -f "$P/logs/$VICTIM.pid" ]; then
		sleep 0.2
		kill "$(cat "$P/logs/$VICTIM.pid")" 2>/dev/null && killed=1
		break
	fi
	sleep 0.05
done
wait "$rpid"; rc=$?
cp "$T/manifest.orig" "$P/manifest.tsv"
todo=$("$RVMESS" merge "$P" --todo | tr '\n' ' ')
if [ -n "$killed" ] && [ "$rc" = 1 ] && [ "$todo" = "$VICTIM " ] &&
	! grep -aq ' end h=' "$P/logs/$VICTIM.log" && grep -q "without a complete log: $VICTIM " "$T/run1.out"; then
	pass sweep-local-kill
else
	fail sweep-local-kill "killed=${killed:-no} runner exit $rc (want 1), todo '$todo' (want '$VICTIM '): $(tail -2 "$T/run1.out" | tr '\n' '|')"
fi
sums() { for i in $(seq 0 7); do if [ "$i" != "$VICTIM" ]; then stat -c "$i %i %Y" "$P/logs/$i.log"; md5sum <"$P/logs/$i.log"; fi; done; }
before=$(sums)
"$P/run.sh" -j 2 --progress off >"$T/run2.out" 2>&1; rc=$?
after=$(sums)
if [ "$rc" = 0 ] && grep -q "running 1 of 8 jobs, 2 at a time: $VICTIM\$" "$T/run2.out" && grep -aqE ' end h=[0-9]+ status=ok' "$P/logs/$VICTIM.log"; then
	pass sweep-resume-reruns-only-killed
else fail sweep-resume-reruns-only-killed "exit $rc: $(head -2 "$T/run2.out" | tr '\n' '|')"; fi
if [ "$before" = "$after" ]; then pass sweep-resume-others-untouched
else fail sweep-resume-others-untouched "another job's log changed on resume"; fi

# ---- merge -------------------------------------------------------------------------
"$RVMESS" merge "$P" -o "$T/m" -q >"$T/merge.out" 2>&1; rc=$?
got=$(points "$T/m")
if [ "$rc" = 0 ] && [ "$got" = "$want_points" ] && grep -q 'points=8 good=8 missing=0 failed=0 duplicated=0' "$T/merge.out"; then
	pass sweep-merge-complete
else fail sweep-merge-complete "exit $rc, points '$got': $(tail -2 "$T/merge.out" | tr '\n' '|')"; fi
res=$(compare_one_boot "$T/m")
case "$res" in
ok*) pass "sweep-merge-vs-one-boot (largest latency difference ${res#ok } %)" ;;
*) fail sweep-merge-vs-one-boot "$(echo "$res" | head -3 | tr '\n' '|')" ;;
esac
# one log gone: named by its point, the 7 others kept; another log cut before its end record:
# its job is to be run again, but its point, recorded before the cut, is kept meanwhile
cp -r "$P" "$T/p7"
rm "$T/p7/logs/6.log"
grep -av ' end h=' "$P/logs/2.log" >"$T/p7/logs/2.log"
pt6=$(awk -F'\t' '$1 == "job" && $2 == 6 { print "mix=" $5 " pause=" $6 " rep=0" }' "$P/manifest.tsv")
"$RVMESS" merge "$T/p7" -o "$T/m7" -q >"$T/m7.out" 2>&1; rc=$?
n=$(awk 'NR > 1' "$T/m7/mess_raw.csv" 2>/dev/null | wc -l)
if [ "$rc" = 1 ] && grep -q "rvmess merge: $pt6: missing (job 6: no record)" "$T/m7.out" && [ "$n" = 7 ] &&
	grep -q 'points=8 good=7 missing=1' "$T/m7.out" && grep -q 'job 2 (.*): incomplete log (no end record)' "$T/m7.out"; then
	pass sweep-merge-missing-named
else fail sweep-merge-missing-named "exit $rc, $n rows: $(grep -v '^rvmess parse' "$T/m7.out" | head -3 | tr '\n' '|')"; fi
todo=$("$RVMESS" merge "$T/p7" --todo | tr '\n' ' ')
if [ "$todo" = "2 6 " ]; then pass sweep-todo-missing-and-incomplete
else fail sweep-todo-missing-and-incomplete "todo '$todo', want '2 6 ' (job 2's log has no end record, job 6 has none)"; fi

# ---- a design-space sweep: two hostsim configurations ------------------------------
# fixed memory latency vs simple-dram, mix=100 at full pressure and at rest: compare.csv
# must hold each configuration's own merged latencies (a second path: parse's mess_raw.csv),
# the fixed model is flat under load while simple-dram's full-pressure latency is higher
PD=$T/dplan
"$RVMESS" plan "$IMG" -o "$PD" --file "$T/grid.cfg" mess_mix=100 mess_pause=0,16384 "${HARTS[@]}" \
	--sim fixed="--mem-model fixed" --sim dram="--mem-model simple-dram" >/dev/null &&
	"$PD/run.sh" -j 2 --progress off >/dev/null 2>&1 && "$RVMESS" merge "$PD" -o "$T/md" -q >"$T/md.out" 2>&1; rc=$?
lat() { awk -F, -v p="$2" 'NR > 1 && $3 == p { print $11 }' "$T/md/$1/mess_raw.csv" 2>/dev/null; }
cmpcol() { awk -F, -v p="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i } NR > 1 && $2 == p { print $k }' "$T/md/compare.csv" 2>/dev/null; }
f0=$(lat fixed 0) f1=$(lat fixed 16384) d0=$(lat dram 0) d1=$(lat dram 16384)
if [ "$rc" = 0 ] && [ -n "$f0" ] && [ -n "$d0" ] && [ "$(cmpcol 0 fixed_lat_ns)" = "$f0" ] && [ "$(cmpcol 16384 fixed_lat_ns)" = "$f1" ] &&
	[ "$(cmpcol 0 dram_lat_ns)" = "$d0" ] && [ "$(cmpcol 16384 dram_lat_ns)" = "$d1" ] &&
	awk -v a="$f0" -v b="$f1" -v c="$d0" -v d="$d1" 'BEGIN { x = (a - b) / b; if (x < 0) x = -x; exit !(x < 0.03 && c > 1.1 * d) }' &&
	grep -q '^fixed ' "$T/md/compare.txt" && grep -q '^dram ' "$T/md/compare.txt"; then
	pass "sweep-configs-compare (fixed $f0/$f1 ns, simple-dram $d0/$d1 ns at pause 0/16384)"
else fail sweep-configs-compare "merge exit $rc; fixed '$f0' '$f1', dram '$d0' '$d1'; compare.csv: $(tr '\n' '|' <"$T/md/compare.csv" 2>/dev/null)"; fi

# ---- adaptive placement: run, refine, run ... until every gap is within the tolerance ----
# checked from the merged mess_raw.csv by a second computation of the stopping rule: between
# neighbouring measured pauses with candidates left out, latency changes by <= 10 % of the
# smaller one and bandwidth by <= 10 % of the curve's highest
PA=$T/aplan
CAND=0,8,16,32,64,1024,16384
"$RVMESS" plan "$IMG" -o "$PA" --file "$T/grid.cfg" mess_mix=100 mess_pause=$CAND "${HARTS[@]}" \
	--adaptive 10 --coarse 3 >/dev/null &&
	"$PA/run.sh" --adaptive -j 2 --progress off >"$T/ad.out" 2>&1 && "$RVMESS" merge "$PA" -o "$T/ma" -q >/dev/null 2>&1; rc=$?
res=$(awk -F, -v cand="$CAND" 'BEGIN { nc = split(cand, c, ",") }
	NR > 1 { lat[$3] = $11; bw[$3] = $20 / 1000; if ($20 / 1000 > bmax) bmax = $20 / 1000; n++ }
	END { prev = ""; for (i = 1; i <= nc; i++) { p = c[i]; if (!(p in lat)) { gap = 1; continue }
			if (prev != "" && gap) { l0 = lat[prev]; l1 = lat[p]; lm = l0 < l1 ? l0 : l1
				dl = (l1 - l0) / lm; if (dl < 0) dl = -dl; db = (bw[p] - bw[prev]) / bmax; if (db < 0) db = -db
				if (dl > 0.10 || db > 0.10) bad = bad " " prev "-" p }
			prev = p; gap = 0 }
		printf "%d%s\n", n, bad ? " gaps over 10 %:" bad : "" }' "$T/ma/mess_raw.csv" 2>/dev/null)
rounds=$(grep -c 'refine: ' "$T/ad.out")
if [ "$rc" = 0 ] && [ "${res%% *}" -gt 3 ] && [ "${res%% *}" -lt 7 ] && [ "$res" = "${res%% *}" ] && [ "$rounds" -ge 2 ] &&
	grep -q 'refine: 0 new jobs' "$T/ad.out"; then
	pass "sweep-adaptive-converges ($res of 7 pauses, $rounds refine rounds)"
else fail sweep-adaptive-converges "exit $rc, '$res' (points and gaps), $rounds rounds: $(tail -3 "$T/ad.out" | tr '\n' '|')"; fi

# ---- Slurm -------------------------------------------------------------------------
slurm_cases="sweep-slurm-array sweep-slurm-task-logs sweep-slurm-merge-vs-one-boot sweep-slurm-cleanup"
t0=$(date +%s)
slurm_cluster $slurm_cases || { finish; exit $?; }
PS=$T/splan
"$RVMESS" plan "$IMG" -o "$PS" --file "$T/grid.cfg" "${HARTS[@]}" --time 120 --mem 300 >/dev/null
timeout 300 "$PS/run.sh" --slurm --wait >"$T/sbatch.out" 2>&1; rc=$?
ntask=$(find "$PS/slurm" -name '*_*.out' 2>/dev/null | wc -l)
if [ "$rc" = 0 ] && grep -q -- '--array=0,1,2,3,4,5,6,7 --wait' "$T/sbatch.out" && [ -z "$("$RVMESS" merge "$PS" --todo)" ]; then
	pass sweep-slurm-array
else fail sweep-slurm-array "exit $rc: $(tail -3 "$T/sbatch.out" | tr '\n' '|')"; fi
if [ "$ntask" = 8 ] && grep -q '^#SBATCH --time=2:0$' "$PS/slurm.sbatch" && grep -q '^#SBATCH --mem=300$' "$PS/slurm.sbatch"; then
	pass sweep-slurm-task-logs
else fail sweep-slurm-task-logs "$ntask task logs (want 8), sbatch script: $(grep '^#SBATCH' "$PS/slurm.sbatch" | tr '\n' '|')"; fi
"$RVMESS" merge "$PS" -o "$T/ms" -q >"$T/ms.out" 2>&1; rc=$?
res=$(compare_one_boot "$T/ms")
got=$(points "$T/ms")
case "$rc $res" in
"0 ok"*) [ "$got" = "$want_points" ] && pass "sweep-slurm-merge-vs-one-boot (largest latency difference ${res#ok } %, $(( $(date +%s) - t0 )) s with the cluster's start)" ||
	fail sweep-slurm-merge-vs-one-boot "points '$got'" ;;
*) fail sweep-slurm-merge-vs-one-boot "merge exit $rc: $(echo "$res" | head -3 | tr '\n' '|')" ;;
esac
tools/slurm-local.sh stop "$SLURM_DIR"
alive=""
for p in $SLURM_PIDS; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
if [ -n "$SLURM_PIDS" ] && [ -z "$alive" ] && ! ls "$SLURM_DIR"/*.pid >/dev/null 2>&1; then pass sweep-slurm-cleanup
else fail sweep-slurm-cleanup "daemons still running:$alive (pids were: $(echo $SLURM_PIDS))"; fi
finish
