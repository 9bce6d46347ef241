#!/usr/bin/env bash
# What a user of `make run` / tools/run.sh sees, on real hostsim runs:
#   quiet-build        "  CC  file" lines by default, the commands with V=1
#   platform-mismatch  make PLATFORM=sbi run refuses (hostsim runs M-mode images)
#   rundir-*           each run in RUNS/<date>-<target>/, RUNS/latest -> the newest
#   reproduce-*        run.txt (git revision, dirty flag, command), image.cfg,
#                      hostsim.cfg (reloadable: --print-config round trip)
#   stats-*            hostsim statistics only with --stats, never as "stderr"
#   progress           one plain line per new prog record, totals = the records
#   summary-json       valid JSON whose figures equal the CSVs' and the log's
#   compare-*          rvmess compare of two runs whose memory latencies differ
#                      by 100 cycles (fixed model, 1 GHz) reports +100 ns
#   qemu-warning-*     a QEMU target's results carry "no memory timing"
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
scratch run
T=$TMP
RVMESS=$BUILD/bin/rvmess
SIM=$BUILD/bin/hostsim
for b in "$RVMESS" "$SIM" "$BUILD/images/virt.elf"; do
	[ -e "$b" ] || { fail build "$b not built (make)"; exit 1; }
done

# JSON: jq when installed, else python3; "" when neither is
jget() { # FILE FILTER (jq syntax, simple paths only)
	if command -v jq >/dev/null; then
		jq -r "$2" "$1"
	elif command -v python3 >/dev/null; then
		python3 -c 'import json,sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].lstrip(".").replace("[", ".[").split("."):
	if not k: continue
	v = v[int(k[1:-1])] if k.startswith("[") else v[k]
print("null" if v is None else str(v).lower() if isinstance(v, bool) else v)' "$1" "$2"
	fi
}
json_ok() {
	if command -v jq >/dev/null; then jq -e . "$1" >/dev/null
	elif command -v python3 >/dev/null; then python3 -m json.tool "$1" >/dev/null
	else return 2; fi
}
within() { awk -v v="$1" -v w="$2" -v tol="$3" 'BEGIN { d = v - w; if (d < 0) d = -d; exit !(v != "" && d <= tol * (w < 0 ? -w : w)) }'; }

# ---- quiet builds ------------------------------------------------------------------
obj=$T/b/host/hostsim/cli/json.o
out=$(make --no-print-directory BUILD="$T/b" "$obj" 2>&1)
if [ "$out" = "  CC      $obj" ]; then pass quiet-build
else fail quiet-build "make printed '$(echo "$out" | head -3 | tr '\n' '|')', want '  CC      $obj'"; fi
rm -f "$obj"
out=$(make --no-print-directory BUILD="$T/b" V=1 "$obj" 2>&1)
if echo "$out" | grep -q -- "-c hostsim/cli/json.c -o $obj" && ! echo "$out" | grep -q '^  CC  '; then
	pass quiet-build-v1
else fail quiet-build-v1 "make V=1 printed '$(echo "$out" | head -3 | tr '\n' '|')'"; fi

# ---- PLATFORM=sbi run --------------------------------------------------------------
out=$(make --no-print-directory PLATFORM=sbi run OUT="$T/mm" 2>&1)
if echo "$out" | grep -q "hostsim runs M-mode images only" && echo "$out" | grep -q "RUN_TARGET=qemu-sbi" &&
	[ ! -e "$T/mm" ]; then
	pass platform-mismatch
else fail platform-mismatch "make PLATFORM=sbi run: '$(echo "$out" | tail -2 | tr '\n' '|')'"; fi
out=$(make -n --no-print-directory PLATFORM=sbi run RUN_TARGET=qemu-sbi OUT="$T/mm" 2>&1)
if echo "$out" | tr -d '\\\n' | grep -q -- "--target qemu-sbi .*--image $BUILD/images/sbi.elf"; then pass platform-match
else fail platform-match "make -n PLATFORM=sbi run RUN_TARGET=qemu-sbi: '$(echo "$out" | grep run.sh | tr '\n' '|')'"; fi

# ---- two hostsim runs: memory latency 80 and 180 cycles -------------------------------
cat >"$T/tiny.cfg" <<'EOF'
suites=chase,lat,mess
reps=1
warmups=1
chase_size=4M
chase_loads=2000
chase_all_harts=0
lat_max=4M
lat_loads=500
lat_strides=64
lat_random=1
mess_chase_size=8M
mess_gen_size=256K
mess_window_loads=1000
mess_mix=0,100
mess_pause=0,64,4096
EOF
RUNS=$T/runs
run_one() { # NAME LATENCY [run.sh options]
	local name=$1 lat=$2
	shift 2
	tools/run.sh --target hostsim --harts 2 --config "$T/tiny.cfg" --runs "$RUNS" --timeout 300 \
		--sim "--llc-size 512K --mem-model fixed --mem-latency $lat" "$@" >"$T/$name.out" 2>"$T/$name.err"
	echo $? >"$T/$name.rc"
	readlink "$RUNS/latest" >"$T/$name.latest"
}
run_one a 80
sleep 1
run_one b 180 --stats
A=$RUNS/$(cat "$T/a.latest") B=$RUNS/$(cat "$T/b.latest")
for r in a b; do
	[ "$(cat "$T/$r.rc")" = 0 ] || fail "run-$r" "run.sh exited $(cat "$T/$r.rc"): $(tail -3 "$T/$r.err" | tr '\n' '|')"
done

pat='^[0-9]{8}-[0-9]{6}-hostsim(-[0-9]+)?$'
if [ "$(ls "$RUNS" | grep -cE "$pat")" = 2 ] && [ "$A" != "$B" ] && [ -L "$RUNS/latest" ] &&
	[ "$(readlink "$RUNS/latest")" = "$(basename "$B")" ] && [ -s "$A/console.log" ] && [ -s "$B/console.log" ]; then
	pass rundir-each
else fail rundir-each "runs: $(ls "$RUNS" | tr '\n' ' '); latest -> $(readlink "$RUNS/latest")"; fi
# the directory's date is the run's (run.txt, UTC) in local time
d=$(sed -n 's/^date: //p' "$A/run.txt")
if [ -n "$d" ] && [ "$(basename "$A" | cut -c1-15)" = "$(date -d "$d" +%Y%m%d-%H%M%S)" ]; then pass rundir-date
else fail rundir-date "$(basename "$A") vs run.txt date '$d'"; fi

# ---- reproduce ------------------------------------------------------------------------
rev=$(git rev-parse HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then dirty=yes; else dirty=no; fi
if grep -qx "git_revision: $rev" "$B/run.txt" && grep -qx "git_dirty: $dirty" "$B/run.txt" &&
	grep -qx "target: hostsim" "$B/run.txt" && grep -q "^command: .*hostsim .*--mem-latency 180 .*image.elf$" "$B/run.txt"; then
	pass reproduce-run-txt
else fail reproduce-run-txt "$(tr '\n' '|' <"$B/run.txt")"; fi
# image.cfg: the configured copy's block; 4M is 4194304 bytes
if cmp -s "$B/image.cfg" <("$RVMESS" config "$B/image.elf") && grep -qx 'lat_max=4194304' "$B/image.cfg" &&
	grep -qx 'mess_pause=0,64,4096' "$B/image.cfg"; then
	pass reproduce-image-cfg
else fail reproduce-image-cfg "$(head -c 300 "$B/image.cfg" | tr '\n' '|')"; fi
if grep -q '^mem-latency=180 ' "$B/hostsim.cfg" && grep -q '^mem-model=fixed ' "$B/hostsim.cfg" &&
	grep -qx 'harts=2' "$B/hostsim.cfg" && grep -q '^llc-size=524288 ' "$B/hostsim.cfg" &&
	cmp -s "$B/hostsim.cfg" <("$SIM" --config "$B/hostsim.cfg" --print-config); then
	pass reproduce-hostsim-cfg
else fail reproduce-hostsim-cfg "$(head -c 400 "$B/hostsim.cfg" | tr '\n' '|')"; fi

# ---- stats only when asked ----------------------------------------------------------------
if ! grep -q "hostsim stats" "$T/a.out" "$T/a.err" && ! grep -qi "stderr" "$T/a.out" "$T/a.err" &&
	[ ! -e "$A/stats.txt" ]; then
	pass stats-default-off
else fail stats-default-off "$(grep -i 'stats\|stderr' "$T/a.out" "$T/a.err" | head -3 | tr '\n' '|')"; fi
if [ "$(head -1 "$B/stats.txt")" = "hostsim stats: harts=2 timing=on" ] && grep -q "^memctl: reads" "$B/stats.txt" &&
	grep -q "hostsim statistics" "$T/b.out" && ! grep -qi "stderr" "$T/b.out" "$T/b.err"; then
	pass stats-asked
else fail stats-asked "stats.txt '$(head -1 "$B/stats.txt" 2>&1)'; $(grep -i 'stderr' "$T/b.out" "$T/b.err" | head -2)"; fi

# ---- progress (stderr is not a terminal: a plain line per prog record) -------------------------
nlat=$(grep -c '@RVM [0-9]* lat ' "$A/console.log")
nmess=$(grep -c '@RVM [0-9]* mess ' "$A/console.log")
want=$(sed -n 's/.*@RVM [0-9]* prog h=[0-9]* suite=\([a-z]*\) done=\([0-9]*\) total=\([0-9]*\) .*/\1 \2\/\3/p' "$A/console.log")
got=$(sed -n 's/^run: \([a-z]*\) \([0-9]*\/[0-9]*\) points, [0-9]*:[0-9][0-9] elapsed.*/\1 \2/p' "$T/a.err")
if [ -n "$want" ] && [ "$got" = "$want" ] && echo "$got" | grep -qx "lat $nlat/$nlat" &&
	echo "$got" | grep -qx "mess $nmess/6"; then
	pass progress
else fail progress "progress lines '$(echo "$got" | tr '\n' '|')', prog records '$(echo "$want" | tr '\n' '|')' ($nlat lat, $nmess mess records)"; fi

# ---- summary.json ------------------------------------------------------------------------
S=$A/summary.json
if ! json_ok "$S"; then
	[ $? = 2 ] && skip summary-json "neither jq nor python3" || fail summary-json "$S is not valid JSON"
else
	good=$(grep -c '@RVM ' "$A/console.log")
	memcsv=$(grep '^memory,' "$A/cache_levels.csv" | cut -d, -f6)
	l1cap=$(grep '^L1,' "$A/cache_levels.csv" | cut -d, -f4)
	mu=$(sed -n 's/^unloaded latency *\([0-9.]*\) ns/\1/p' "$A/mess_metrics.txt")
	why=""
	[ "$(jget "$S" .counts.good)" = "$good" ] || why="$why good=$(jget "$S" .counts.good) want $good;"
	[ "$(jget "$S" .counts.records_by_type.lat)" = "$nlat" ] || why="$why lat count;"
	within "$(jget "$S" '.cache_levels[2].ns_per_load')" "$memcsv" 0.0000001 || why="$why memory level;"
	[ "$(jget "$S" '.cache_levels[0].capacity_bytes')" = "$l1cap" ] || why="$why L1 capacity;"
	within "$(jget "$S" .unloaded_latency_ns.lat_memory)" "$memcsv" 0.0000001 || why="$why lat_memory;"
	within "$(jget "$S" .mess.unloaded_latency_ns)" "$mu" 0.001 || why="$why mess unloaded $(jget "$S" .mess.unloaded_latency_ns) vs $mu;"
	[ "$(jget "$S" .run.target)" = hostsim ] && [ "$(jget "$S" .run.memory_timing)" = true ] &&
		[ "$(jget "$S" .run.warning)" = null ] || why="$why run;"
	[ "$(jget "$S" .clean)" = true ] || why="$why clean;"
	if [ -z "$why" ]; then pass summary-json; else fail summary-json "$why"; fi
fi

# ---- compare --------------------------------------------------------------------------------
"$RVMESS" compare "$A" "$B" -o "$T" >"$T/cmp.out" 2>"$T/cmp.err"
rc=$?
d=$(sed -n 's/^  memory latency  *[0-9.]*  *[0-9.]*  *\([-+][0-9.]*\) ns$/\1/p' "$T/cmp.out")
u=$(grep -A1 '^mess metrics' "$T/cmp.out" | sed -n 's/^  unloaded latency  *[0-9.]*  *[0-9.]*  *\([-+][0-9.]*\) ns$/\1/p')
if [ $rc = 0 ] && within "$d" 100 0.01 && within "$u" 100 0.02; then pass "compare-latency (memory $d ns, Mess unloaded $u ns)"
else fail compare-latency "exit $rc, memory level $d, Mess unloaded $u (want +100 ns): $(head -3 "$T/cmp.err")"; fi
# per mix at the same pause: every curve's mean difference about +100 ns
rows=$(sed -n '/^mess curves/,/^lat curves/p' "$T/cmp.out" | awk '$1 ~ /^[0-9]+$/ && NF == 9')
if [ "$(echo "$rows" | wc -l)" = 2 ] && echo "$rows" | awk '$4 != 3 || $5 < 95 || $5 > 105 { exit 1 }'; then
	pass compare-curves
else fail compare-curves "$(echo "$rows" | tr '\n' '|')"; fi
na=$(grep -c '<polyline' "$T/compare.svg" 2>/dev/null)
if [ "$na" = 4 ] && grep -q '>A: 0% st<' "$T/compare.svg" && grep -q '>B: 100% st<' "$T/compare.svg" &&
	[ "$(grep -c 'stroke-dasharray' "$T/compare.svg")" -ge 2 ] &&
	cmp -s <(head -n -1 "$T/cmp.out") "$T/compare.txt"; then
	pass compare-files
else fail compare-files "compare.svg has $na polylines (want 2 runs x 2 curves)"; fi

# ---- QEMU: no memory timing -------------------------------------------------------------------
"$RVMESS" parse "$A/console.log" -o "$T/q" --target qemu-virt >"$T/q.out" 2>&1
w="no memory timing"
if grep -q "^WARNING: QEMU: $w" "$T/q/summary.txt" && [ "$(jget "$T/q/summary.json" .run.memory_timing)" = false ] &&
	jget "$T/q/summary.json" .run.warning | grep -q "$w" && grep -q "WARNING: QEMU: $w" "$T/q.out" &&
	grep -q "$w" "$T/q/lat.svg" && grep -q "$w" "$T/q/mess.svg"; then
	pass qemu-warning-target
else fail qemu-warning-target "summary.txt: $(grep -i warn "$T/q/summary.txt")"; fi
mkdir -p "$T/qd"
cp "$A/console.log" "$T/qd/"
printf 'date: x\ntarget: qemu-spike\n' >"$T/qd/run.txt"
"$RVMESS" parse "$T/qd/console.log" -o "$T/qd" >/dev/null 2>&1
if grep -q "^WARNING: QEMU: $w" "$T/qd/summary.txt" && grep -qx "target: qemu-spike (from run.txt)" "$T/qd/summary.txt" &&
	grep -q "$w" "$T/qd/lat.svg"; then
	pass qemu-warning-run-txt
else fail qemu-warning-run-txt "$(grep -i 'warn\|target' "$T/qd/summary.txt" | tr '\n' '|')"; fi
if ! grep -qi "warning" "$A/summary.txt" "$A/lat.svg" "$A/mess.svg"; then pass qemu-warning-not-hostsim
else fail qemu-warning-not-hostsim "a hostsim run carries a warning"; fi
finish
