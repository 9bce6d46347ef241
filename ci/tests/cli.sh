#!/usr/bin/env bash
# End-to-end tests of build/bin/rvmess (parse, config) on crafted logs and a
# real image.  Records are generated here with a CRC-32 computed in bash, so
# every expected value below follows from the input, not from a stored file.
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
RVMESS=$BUILD/bin/rvmess
scratch cli
T=$TMP

if [ ! -x "$RVMESS" ]; then
	fail build "$RVMESS not built (make $RVMESS)"
	exit 1
fi

# ---- record generator (ci/records.sh: crc32, rec) ----------------------------
. ci/records.sh
[ "$(crc32 123456789)" = cbf43926 ] || { fail crc32_helper "crc32(123456789) != cbf43926"; exit 1; }

# A complete run: hdr, cfg, 2 harts, chase, lat (2 chains, 3-level curve),
# par, parmax, end.  Prints the log on stdout.  The hdr ends with
# cache_max=1048576 (the FDT describes a 1 MiB L2), or with $1 when given
# ("" leaves the key out: an image older than it).
good_log() {
	local s=0 size ns chain hx=${1-cache_max=1048576}
	echo "OpenSBI v1.1"
	echo "   ____                    _____ ____ _____"
	rec $((s++)) hdr 0 proto=1 platform=virt mode=M harts=2 hartids=0,1 timebase=10000000 cpu_hz=1000000000 version=test${hx:+ $hx}
	rec $((s++)) cfg 0 suites=chase,lat,par reps=1 lat_strides=64
	rec $((s++)) hart 0 idx=0 cpu_hz=1000000000 cycle=1 instret=1
	rec $((s++)) hart 1 idx=1 cpu_hz=1000000000 cycle=1 instret=1
	rec $((s++)) chase 0 size=1048576 lines=16384 rep=0 loads=10000 cycles=800000 ticks=8000 ns=800000 cpl=80.000 nspl=80.000
	rec $((s++)) chase 1 size=1048576 lines=16384 rep=0 loads=10000 cycles=810000 ticks=8100 ns=810000 cpl=81.000 nspl=81.000
	for chain in stride random; do
		for ((size = 512; size <= 16777216; size *= 2)); do
			if ((size <= 32768)); then ns=40000
			elif ((size <= 1048576)); then ns=120000
			else ns=900000; fi
			rec $((s++)) lat 0 chain=$chain stride=64 size=$size loads=10000 cycles=$ns ticks=1 ns=$ns cpl=0.000 nspl=0.000
		done
	done
	rec $((s++)) par 0 size=65536 k=1 loads=1000 cycles=12000 ticks=1 ns=12000 nspl=12.000
	rec $((s++)) par 0 size=65536 k=2 loads=2000 cycles=12000 ticks=1 ns=12000 nspl=6.000
	rec $((s++)) parmax 0 size=65536 k=2 par=2.000
	rec $((s)) end 0 status=ok errors=0 records=$s harts=2 states=0:done,1:done
}

run_parse() { # log outdir -> sets rc, $T/out.txt, $T/err.txt
	"$RVMESS" parse "$1" -o "$2" >"$T/out.txt" 2>"$T/err.txt"
	rc=$?
}

# ---- parse: good log -------------------------------------------------------
good_log >"$T/good.log"
nrec=$(grep -c '@RVM ' "$T/good.log")
run_parse "$T/good.log" "$T/o_good"
want="rvmess parse: harts=2 good=$nrec bad=0 missing=0 duplicate=0 complete=yes status=ok"
if [ $rc != 0 ]; then fail parse_good "exit $rc: $(head -3 "$T/err.txt")"
elif [ "$(head -1 "$T/out.txt")" != "$want" ]; then fail parse_good "summary '$(head -1 "$T/out.txt")'"
elif [ -s "$T/err.txt" ]; then fail parse_good "unexpected stderr: $(head -3 "$T/err.txt")"
else pass parse_good; fi

missing_files=""
for f in records.csv summary.txt chase.csv lat.csv lat.xg lat_stride_stride64.xg lat_random_stride64.xg \
	par.csv parmax.csv cache_levels.txt cache_levels.csv; do
	[ -s "$T/o_good/$f" ] || missing_files="$missing_files $f"
done
# contents: summary.txt from the log's own counts, records.csv's first row from
# the hdr line itself, each chain's xgraph from the ns/loads of good_log
hdr_fields=$(grep -m1 ' hdr h=0 ' "$T/good.log" | sed 's/^@RVM 0 hdr h=0 //; s/ \*[0-9a-f]*$//')
{ printf '"stride=64\n'; for ((s = 512; s <= 16777216; s *= 2)); do
	if ((s <= 32768)); then v=4.000; elif ((s <= 1048576)); then v=12.000; else v=90.000; fi
	awk -v s=$s -v v=$v 'BEGIN { printf "%.5f %s\n", s / 1048576, v }'; done; echo; } >"$T/want64.xg"
if [ -n "$missing_files" ]; then fail parse_files "missing:$missing_files"
elif ! grep -qx "good: $nrec" "$T/o_good/summary.txt" || ! grep -qx 'bad: 0' "$T/o_good/summary.txt" ||
	! grep -qx 'result: clean' "$T/o_good/summary.txt" || ! grep -qx 'harts: 2' "$T/o_good/summary.txt" ||
	! grep -qx 'records_by_type: hdr=1 cfg=1 hart=2 chase=2 lat=32 par=2 parmax=1 end=1' "$T/o_good/summary.txt"; then
	fail parse_files "summary.txt: $(tr '\n' ' ' <"$T/o_good/summary.txt")"
elif [ "$(sed -n 2p "$T/o_good/records.csv")" != "3,0,hdr,0,\"$hdr_fields\"" ]; then
	fail parse_files "records.csv row 1: $(sed -n 2p "$T/o_good/records.csv")"
elif ! cmp -s "$T/want64.xg" "$T/o_good/lat_random_stride64.xg" || ! cmp -s "$T/want64.xg" "$T/o_good/lat_stride_stride64.xg"; then
	fail parse_files "lat_*_stride64.xg differ from the log's values"
else pass parse_files; fi

# records.csv: header + one row per record; lat.csv: 2 x 16 points
r=$(($(wc -l <"$T/o_good/records.csv") - 1)); l=$(($(wc -l <"$T/o_good/lat.csv") - 1))
if [ "$r" != "$nrec" ] || [ "$l" != 32 ]; then fail parse_rows "records.csv $r rows (want $nrec), lat.csv $l (want 32)"
else pass parse_rows; fi

# lat.csv values are computed from the raw integers (ns/loads), not copied
if grep -q '^random,64,65536,0.06250,10000,120000,120000,12.000,12.000$' "$T/o_good/lat.csv" &&
	[ "$(head -1 "$T/o_good/lat.csv")" = "chain,stride,size_bytes,size_mb,loads,cycles,ns,cycles_per_load,ns_per_load" ]; then
	pass parse_lat_csv
else fail parse_lat_csv "row for random 64 KiB or header wrong"; fi

# xgraph: exact lmbench text
{ printf '"stride=64\n'; for ((s = 512; s <= 16777216; s *= 2)); do
	if ((s <= 32768)); then v=4.000; elif ((s <= 1048576)); then v=12.000; else v=90.000; fi
	awk -v s=$s -v v=$v 'BEGIN { printf "%.5f %s\n", s / 1048576, v }'; done; echo; } >"$T/want.xg"
if cmp -s "$T/want.xg" "$T/o_good/lat.xg"; then pass parse_xgraph; else fail parse_xgraph "lat.xg differs from lmbench format"; fi

# cache levels: L1 32 KiB, L2 1 MiB, memory (the hdr's cache_max, 1 MiB,
# lies below the last plateau's first size, 2 MiB)
if grep -q '^L1,512,32768,32768,7,4.000,4.000,random,64$' "$T/o_good/cache_levels.csv" &&
	grep -q '^L2,65536,1048576,1048576,5,12.000,12.000,random,64$' "$T/o_good/cache_levels.csv" &&
	grep -q '^memory,2097152,16777216,,4,90.000,90.000,random,64$' "$T/o_good/cache_levels.csv" &&
	grep -q '^L1 .*32 KiB' "$T/out.txt" && grep -q '^memory ' "$T/out.txt" && ! grep -q '^note:' "$T/out.txt"; then
	pass parse_cache_levels
else fail parse_cache_levels "$(cat "$T/o_good/cache_levels.csv" | tr '\n' ' ')"; fi
# the same sweep, which ends on its last plateau at 16 MiB, when the FDT
# names no cache (cache_max=0) or the image predates the key: nothing says
# what lies beyond, so that plateau is L3, its capacity unknown, and a note
# says why (docs/formats.md, "Cache levels")
for hx in cache_max=0 ""; do
	c=parse_cache_levels_old_hdr; [ "$hx" ] && c=parse_cache_levels_fdt_none
	good_log "$hx" >"$T/nofdt.log"
	"$RVMESS" parse "$T/nofdt.log" -o "$T/o_nofdt" >"$T/nofdt.out" 2>"$T/nofdt.err"; rc=$?
	why=""
	[ "$hx" ] && why="the FDT names no cache size (hdr cache_max=0)" || why="the log's hdr has no cache_max (an image older than that key)"
	if [ $rc = 0 ] && grep -q '^L2,65536,1048576,1048576,5,12.000,12.000,random,64$' "$T/o_nofdt/cache_levels.csv" &&
		grep -q '^L3,2097152,16777216,,4,90.000,90.000,random,64$' "$T/o_nofdt/cache_levels.csv" &&
		! grep -q '^memory' "$T/o_nofdt/cache_levels.csv" "$T/nofdt.out" &&
		grep -q '^L3  *2 MiB \.\. 16 MiB  *>= 16 MiB  *90\.000 ' "$T/nofdt.out" &&
		grep -qF "note: the sweep ends on L3 (at 16 MiB, its last size) without showing what lies beyond, and $why, so L3 may be a cache as well as memory: raise lat_max past the last-level cache" "$T/nofdt.out" &&
		cmp -s <(sed -n '/^cache levels from/,$p' "$T/nofdt.out") "$T/o_nofdt/cache_levels.txt" &&
		grep -q '"lat_memory": null' "$T/o_nofdt/summary.json"; then
		pass $c
	else fail $c "exit $rc: $(tr '\n' '|' <"$T/nofdt.out" | tail -c 600)"; fi
done

if grep -q '^65536,0.06250,2,2000,12000,12000,6.000,6.000,2.000$' "$T/o_good/par.csv" &&
	grep -q '^65536,0.06250,2,2.000$' "$T/o_good/parmax.csv" &&
	grep -q '^1,1048576,16384,0,10000,810000,8100,810000,81.000,81.000$' "$T/o_good/chase.csv"; then
	pass parse_par_chase
else fail parse_par_chase "par.csv/parmax.csv/chase.csv rows wrong"; fi

"$RVMESS" parse "$T/good.log" -o "$T/o_quiet" --quiet >"$T/q.txt" 2>&1
# the same two summary lines as without --quiet, and no cache-level table
if [ "$(wc -l <"$T/q.txt")" != 2 ]; then fail parse_quiet "--quiet printed $(wc -l <"$T/q.txt") lines"
elif [ "$(head -1 "$T/q.txt")" != "$want" ]; then fail parse_quiet "line 1: $(head -1 "$T/q.txt")"
elif [ "$(sed -n 2p "$T/q.txt")" != "$(sed -n 2p "$T/out.txt" | sed "s|$T/o_good/|$T/o_quiet/|")" ]; then fail parse_quiet "line 2: $(sed -n 2p "$T/q.txt")"
elif ! grep -q '^L1 ' "$T/out.txt"; then fail parse_quiet "the non-quiet run printed no cache-level table to compare with"
else pass parse_quiet; fi

# ---- plots: lat.svg legend, markers, colours; par.svg ---------------------------------
# legend texts are the last <text> elements, after the axis labels
svg_texts() { grep -o '<text[^>]*>[^<]*</text>' "$1" | sed 's/<[^>]*>//g'; }
leg=$(svg_texts "$T/o_good/lat.svg" | sed -n '/^latency (ns)$/,$p' | tail -n +2)
npts=$(grep -c '@RVM [0-9]* lat ' "$T/good.log")
# one marker per point plus one per legend entry
nmark=$(grep -cE '^<(circle|rect x=[^>]* fill="#|polygon)' "$T/o_good/lat.svg")
if [ "$leg" = "$(printf 'stride 64 B\nrandom, 64 B lines')" ] && [ "$nmark" = $((npts + 2)) ] &&
	svg_texts "$T/o_good/lat.svg" | grep -qx 'array size (bytes; K, M, G = KiB, MiB, GiB)'; then
	pass plot_lat_legend
else fail plot_lat_legend "legend '$(echo "$leg" | tr '\n' '|')', $nmark markers for $npts points"; fi
# 12 datasets (6 strides x 2 chains): 12 different colours
{
	s=0
	rec $((s++)) hdr 0 proto=1 platform=virt mode=M harts=1 hartids=0 timebase=10000000 cpu_hz=1000000000 version=test
	rec $((s++)) hart 0 idx=0 cpu_hz=1000000000 cycle=1 instret=1
	for chain in stride random; do
		for stride in 64 128 256 512 1024 4096; do
			for size in 4096 8192 16384; do
				rec $((s++)) lat 0 chain=$chain stride=$stride size=$size loads=100 cycles=100 ticks=1 ns=$((size / 64 + stride)) cpl=0.000 nspl=0.000
			done
		done
	done
	rec $((s)) end 0 status=ok errors=0 records=$s harts=1 states=0:done
} >"$T/twelve.log"
run_parse "$T/twelve.log" "$T/o_twelve"
# distinguishable: every two colours differ by >= 80 in |dR| + |dG| + |dB|
# (a 12-step blue-to-red ramp differs by about 32 between neighbours)
cols=$(grep -o '<polyline fill="none" stroke="#[0-9a-f]*"' "$T/o_twelve/lat.svg" | sed 's/.*#//; s/"//')
ncol=$(echo "$cols" | sort -u | wc -l)
mind=$(echo "$cols" | while read -r c; do echo $((16#${c:0:2})) $((16#${c:2:2})) $((16#${c:4:2})); done |
	awk '{ r[NR] = $1; g[NR] = $2; b[NR] = $3 }
	END { m = 999; for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) {
		d = (r[i] > r[j] ? r[i] - r[j] : r[j] - r[i]) + (g[i] > g[j] ? g[i] - g[j] : g[j] - g[i]) + (b[i] > b[j] ? b[i] - b[j] : b[j] - b[i])
		if (d < m) m = d }
	print m }')
if [ $rc = 0 ] && [ "$ncol" = 12 ] && [ "$mind" -ge 80 ]; then pass "plot_lat_12_colours (closest pair $mind apart)"
else fail plot_lat_12_colours "exit $rc, $ncol distinct colours for 12 datasets, closest pair $mind apart"; fi
# par.svg: one curve, a point per parmax record at its size and parallelism
pts=$(grep -o 'points="[^"]*"' "$T/o_good/par.svg" | head -1 | tr -cd ' ' | wc -c)
if [ "$pts" = "$(grep -c '@RVM [0-9]* parmax ' "$T/good.log")" ] &&
	svg_texts "$T/o_good/par.svg" | grep -qx 'parallelism (latency(1) / latency(k))'; then
	pass plot_par
else fail plot_par "par.svg has $pts points"; fi

# ---- parse: corrupt CRC on a known line ---------------------------------------
good_log >"$T/bad.log"
line=$(grep -n ' lat h=0 chain=stride stride=64 size=4096 ' "$T/bad.log" | cut -d: -f1)
sed -i "${line}s/cycles=40000/cycles=40001/" "$T/bad.log"
run_parse "$T/bad.log" "$T/o_bad"
if [ $rc != 1 ]; then fail parse_bad_crc "exit $rc, want 1"
elif ! grep -q "^$T/bad.log:$line: bad crc" "$T/err.txt"; then fail parse_bad_crc "stderr does not name line $line: $(head -2 "$T/err.txt")"
elif ! grep -q "bad=1 missing=1 duplicate=0 complete=no status=ok" "$T/out.txt"; then fail parse_bad_crc "summary: $(head -1 "$T/out.txt")"
elif [ "$(($(wc -l <"$T/o_bad/records.csv") - 1))" != $((nrec - 1)) ]; then fail parse_bad_crc "good records lost"
elif [ "$(($(wc -l <"$T/o_bad/lat.csv") - 1))" != 31 ]; then fail parse_bad_crc "lat.csv should keep 31 rows"
else pass parse_bad_crc; fi

# ---- parse: truncated log (power cut mid-line, no end) ------------------------
good_log | head -n 20 >"$T/trunc.log"
good_log | sed -n 21p | head -c 40 >>"$T/trunc.log"
run_parse "$T/trunc.log" "$T/o_trunc"
if [ $rc != 1 ]; then fail parse_truncated "exit $rc, want 1"
elif ! grep -q "trunc.log:21: truncated record" "$T/err.txt"; then fail parse_truncated "no line-21 message: $(head -3 "$T/err.txt")"
elif ! grep -q "complete=no status=none" "$T/out.txt"; then fail parse_truncated "summary: $(head -1 "$T/out.txt")"
elif [ ! -s "$T/o_trunc/lat.csv" ]; then fail parse_truncated "lat.csv not written"
else pass parse_truncated; fi

# ---- parse: gaps, duplicates ---------------------------------------------------
good_log | sed '/@RVM 7 /d; /@RVM 8 /d' >"$T/gap.log"
run_parse "$T/gap.log" "$T/o_gap"
if [ $rc = 1 ] && grep -q "missing records 7..8" "$T/err.txt" && grep -q "missing=2 " "$T/out.txt"; then pass parse_gap
else fail parse_gap "exit $rc: $(head -2 "$T/err.txt")"; fi

good_log | sed '/@RVM 5 /p' >"$T/dup.log"
run_parse "$T/dup.log" "$T/o_dup"
if [ $rc = 0 ] && grep -q "dup.log:9: duplicate of record seq 5 (line 8), dropped" "$T/err.txt" &&
	grep -q "good=$nrec bad=0 missing=0 duplicate=1 complete=yes" "$T/out.txt"; then pass parse_duplicate
else fail parse_duplicate "exit $rc: $(head -2 "$T/err.txt") / $(head -1 "$T/out.txt")"; fi

# ---- parse: console garbage ------------------------------------------------------
{
	good_log | head -n 6
	printf 'binary\0junk\377\376 with NULs\0\n'
	head -c 120000 /dev/zero | tr '\0' 'x'; echo
	printf 'noise before a record: '; good_log | sed -n 7p
	good_log | sed -n '8,$p' | sed 's/$/\r/'
} >"$T/noise.log"
truncate -s -1 "$T/noise.log" # drop the final newline
run_parse "$T/noise.log" "$T/o_noise"
if [ $rc = 0 ] && grep -q "good=$nrec bad=0" "$T/out.txt" && [ ! -s "$T/err.txt" ]; then pass parse_noise
else fail parse_noise "exit $rc: $(head -2 "$T/err.txt") / $(head -1 "$T/out.txt")"; fi

# ---- parse: only the suites present; unknown types kept --------------------------
{
	rec 0 hdr 0 proto=1 platform=virt
	rec 1 chase 0 size=4096 lines=64 rep=0 loads=100 cycles=400 ticks=4 ns=400 cpl=4.000 nspl=4.000
	rec 2 newthing 0 x=1
	rec 3 end 0 status=fail errors=1 records=3 harts=1 states=0:done
} >"$T/only.log"
run_parse "$T/only.log" "$T/o_only"
if [ $rc = 1 ] && [ -s "$T/o_only/chase.csv" ] && [ ! -e "$T/o_only/lat.csv" ] && [ ! -e "$T/o_only/par.csv" ] &&
	[ ! -e "$T/o_only/cache_levels.txt" ] && grep -q ',newthing,0,x=1$' "$T/o_only/records.csv" &&
	grep -q "only.log:3: warning: unknown record type 'newthing'" "$T/err.txt" &&
	grep -q "complete=yes status=fail" "$T/out.txt"; then pass parse_only_present
else fail parse_only_present "exit $rc: $(ls "$T/o_only" | tr '\n' ' ')"; fi

# re-parsing into a directory of an earlier parse leaves no stale suite files
cp -r "$T/o_good" "$T/o_reuse"
run_parse "$T/only.log" "$T/o_reuse"
if [ $rc = 1 ] && [ -s "$T/o_reuse/chase.csv" ] && [ ! -e "$T/o_reuse/lat.csv" ] && [ ! -e "$T/o_reuse/lat_random_stride64.xg" ] &&
	[ ! -e "$T/o_reuse/parmax.csv" ] && [ ! -e "$T/o_reuse/par.svg" ] && [ "$(wc -l <"$T/o_reuse/records.csv")" = 5 ] &&
	grep -qx 'parse summary.json' "$T/o_reuse/.rvmess-manifest" && ! grep -q 'par\.svg' "$T/o_reuse/.rvmess-manifest" &&
	grep -q '"good": 4,' "$T/o_reuse/summary.json"; then pass parse_reuse_dir
else fail parse_reuse_dir "left: $(ls "$T/o_reuse" | tr '\n' ' ')"; fi

# ---- parse: outputs never clobber data -------------------------------------------
# mess records: one curve per mix; rd_pct gives the bwlat_<R>.txt ratio
mess_log() { # mixes... (mix:rd_pct)
	local s=0 m mix rd p
	rec $((s++)) hdr 0 proto=1 platform=virt mode=M harts=2
	for m in "$@"; do
		mix=${m%%:*} rd=${m##*:}
		for p in 64 16 4 1 0; do
			rec $((s++)) mess 0 mix=$mix pause=$p rep=0 gens=1 loads=1000 cycles=1 ticks=1 ns=1 cpl=0.000 \
				nspl=$((100 + 64 - p)).000 bw_iss=$((1000 * (70 - p))).000 rd_pct=$rd.000 src=iss
		done
	done
	rec $((s)) end 0 status=ok errors=0 records=$s harts=1 states=0:done
}
mess_log 0:100 60:70 >"$T/mess2.log"
mess_log 0:100 >"$T/mess1.log"
run_parse "$T/mess2.log" "$T/o_stale"
have2=$(ls "$T/o_stale/bwlat" | wc -l)
printf 'mine\n' >"$T/o_stale/lat_foo_stride64.xg"
printf 'my notes\n' >"$T/o_stale/bwlat/notes.txt"
run_parse "$T/mess1.log" "$T/o_stale"
have1=$(ls "$T/o_stale/bwlat" | wc -l)
how1=$(grep '^bwlat_70.txt ' "$T/o_stale/bwlat/README")
run_parse "$T/only.log" "$T/o_stale"
have0=$(ls "$T/o_stale/bwlat" | tr '\n' ' ')
if [ "$have2" != 52 ]; then fail parse_stale_outputs "first parse wrote $have2 files into bwlat/, want 51 and README"
elif [ "$have1" != 53 ] || [ "$how1" != "bwlat_70.txt extrapolated: a copy of 100, the nearest measured" ]; then
	fail parse_stale_outputs "after the re-parse bwlat/ has $have1 files; README: $how1"
elif [ "$have0" != "notes.txt " ]; then fail parse_stale_outputs "after a parse without mess records bwlat/ has: $have0"
elif [ "$(cat "$T/o_stale/lat_foo_stride64.xg")" != mine ]; then fail parse_stale_outputs "the user's lat_foo_stride64.xg was removed or changed"
elif grep -q 'bwlat' "$T/o_stale/.rvmess-manifest"; then fail parse_stale_outputs "manifest: $(tr '\n' ' ' <"$T/o_stale/.rvmess-manifest")"
else pass parse_stale_outputs; fi

# a mess record of an image before the window rule (no batch .. wall_ns;
# settle counted windows) and one after: mess_raw.csv has the new columns,
# empty for the old record, and both points in mess.csv
{
	rec 0 hdr 0 proto=1 platform=virt mode=M harts=2
	rec 1 mess 0 mix=0 pause=64 rep=0 gens=1 settle=4 loads=1000 cycles=1 ticks=1 ns=1 cpl=0.000 \
		nspl=120.000 bw_iss=1000.000 rd_pct=100.000 src=iss
	rec 2 mess 0 mix=0 pause=0 rep=0 gens=1 settle=2 batch=500 batches=6 loads=3000 cycles=1 ticks=1 ns=1 \
		cpl=0.000 nspl=130.000 ci=1.234 vr=1.105 wall_ns=401234 bw_iss=2000.000 rd_pct=100.000 src=iss
	rec 3 end 0 status=ok errors=0 records=3 harts=1 states=0:done
} >"$T/window.log"
run_parse "$T/window.log" "$T/o_window"
cols=$(head -1 "$T/o_window/mess_raw.csv" | tr ',' '\n' | tail -6 | tr '\n' ' ')
old=$(sed -n 2p "$T/o_window/mess_raw.csv" | cut -d, -f26-) new=$(sed -n 3p "$T/o_window/mess_raw.csv" | cut -d, -f26-)
if [ $rc = 0 ] && [ "$cols" = "settle batch batches ci vr wall_ns " ] && [ "$old" = "4,,,,," ] &&
	[ "$new" = "2,500,6,1.234,1.105,401234" ] && [ "$(($(wc -l <"$T/o_window/mess.csv") - 1))" = 2 ]; then
	pass parse_mess_window_fields
else fail parse_mess_window_fields "exit $rc: columns '$cols', old record '$old', new '$new'"; fi

# `curves` into a parse directory removes none of parse's files, and a parse
# after it none of curves' (each command owns its manifest entries)
run_parse "$T/mess1.log" "$T/o_stale"
cp "$T/o_stale/mess.csv" "$T/stale-mess.csv" # (curves never replaces its input: not the parse's mess.csv)
"$RVMESS" curves "$T/stale-mess.csv" -o "$T/o_stale" >/dev/null 2>"$T/err.txt"; crc=$?
run_parse "$T/only.log" "$T/o_stale"
if [ $crc = 0 ] && [ -s "$T/o_stale/chase.csv" ] && [ -s "$T/o_stale/mess.svg" ] && [ -s "$T/o_stale/bwlat/bwlat_100.txt" ] &&
	[ ! -e "$T/o_stale/mess_raw.csv" ] && grep -qx 'curves mess.svg' "$T/o_stale/.rvmess-manifest"; then
	pass curves_parse_share_dir
else fail curves_parse_share_dir "curves exit $crc; left: $(ls "$T/o_stale" | tr '\n' ' ')"; fi

# a symlink at an output path is refused; its target and the old outputs stay
cp -r "$T/o_good" "$T/o_link"
printf 'precious\n' >"$T/victim.txt"
rm "$T/o_link/records.csv"; ln -s "$T/victim.txt" "$T/o_link/records.csv"
(cd "$T/o_link" && find . -type f -exec md5sum {} + | sort) >"$T/before.md5"
run_parse "$T/only.log" "$T/o_link"
(cd "$T/o_link" && find . -type f -exec md5sum {} + | sort) >"$T/after.md5"
if [ $rc != 2 ]; then fail parse_symlink_output "exit $rc, want 2"
elif ! grep -q "^rvmess parse: $T/o_link/records.csv: is a symbolic link" "$T/err.txt"; then fail parse_symlink_output "stderr: $(head -2 "$T/err.txt")"
elif [ "$(cat "$T/victim.txt")" != precious ] || [ ! -L "$T/o_link/records.csv" ]; then fail parse_symlink_output "link target or link changed"
elif ! cmp -s "$T/before.md5" "$T/after.md5"; then fail parse_symlink_output "other outputs changed"
else pass parse_symlink_output; fi

# compare -o goes through the same rules: its files are in the manifest, a
# symlinked compare.svg is refused with its target and the old compare.txt intact
"$RVMESS" compare "$T/o_good" "$T/o_good" -o "$T/o_cmp" >/dev/null 2>"$T/err.txt"; rc1=$?
cp "$T/o_cmp/compare.txt" "$T/cmp_before.txt" 2>/dev/null
printf 'precious\n' >"$T/victim2.txt"
rm -f "$T/o_cmp/compare.svg"; ln -s "$T/victim2.txt" "$T/o_cmp/compare.svg"
"$RVMESS" compare "$T/o_good" "$T/o_only" -o "$T/o_cmp" >/dev/null 2>"$T/err2.txt"; rc2=$?
if [ $rc1 != 0 ] || ! grep -qx 'compare compare.txt' "$T/o_cmp/.rvmess-manifest" ||
	! grep -qx 'compare compare.svg' "$T/o_cmp/.rvmess-manifest"; then fail compare_outputs "first compare exit $rc1: $(head -2 "$T/err.txt")"
elif [ $rc2 != 2 ] || ! grep -q "^rvmess compare: $T/o_cmp/compare.svg: is a symbolic link" "$T/err2.txt"; then fail compare_outputs "exit $rc2: $(head -2 "$T/err2.txt")"
elif [ "$(cat "$T/victim2.txt")" != precious ] || ! cmp -s "$T/cmp_before.txt" "$T/o_cmp/compare.txt"; then fail compare_outputs "link target or compare.txt changed"
else pass compare_outputs; fi

# a write error (file size limit: EFBIG, as a full disk gives ENOSPC) names the
# file and the error, and leaves every old output as it was, with no temporaries
{ good_log | sed '$d'; for ((i = 0; i < 300; i++)); do rec $((i + nrec - 1)) warn 0 what=filler msg=padding_the_log_so_records.csv_outgrows_the_limit_$i; done
	rec $((nrec + 299)) end 0 status=ok errors=0 records=$((nrec + 299)) harts=2 states=0:done,1:done; } >"$T/big.log"
cp -r "$T/o_good" "$T/o_full"
(cd "$T/o_full" && find . -exec md5sum {} + 2>/dev/null | sort) >"$T/before.md5"
(trap '' XFSZ; ulimit -f 16; exec "$RVMESS" parse "$T/big.log" -o "$T/o_full") >"$T/out.txt" 2>"$T/err.txt"; rc=$?
(cd "$T/o_full" && find . -exec md5sum {} + 2>/dev/null | sort) >"$T/after.md5"
if [ $rc != 2 ]; then fail parse_write_error "exit $rc, want 2 ($(wc -c <"$T/o_full/records.csv") bytes)"
elif ! grep -q "^rvmess parse: $T/o_full/records.csv: File too large" "$T/err.txt"; then fail parse_write_error "stderr: $(head -2 "$T/err.txt")"
elif ! cmp -s "$T/before.md5" "$T/after.md5" || [ "$(ls -A "$T/o_full" | grep -c tmp)" != 0 ]; then fail parse_write_error "outputs changed: $(diff "$T/before.md5" "$T/after.md5" | head -3)"
else pass parse_write_error; fi

# a path over PATH_MAX is refused, never truncated
long=$T/l; while [ ${#long} -lt 4070 ]; do long=$long/dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd; done
long=${long:0:4085}; mkdir -p "$long"
run_parse "$T/good.log" "$long"
if [ $rc = 2 ] && grep -q "path of 'records.csv' longer than PATH_MAX" "$T/err.txt" && [ -z "$(find "$T/l" -type f)" ]; then
	pass parse_long_path
else fail parse_long_path "exit $rc: $(head -2 "$T/err.txt" | cut -c1-100 ) / $(find "$T/l" -type f | head -2 | tail -c 80)"; fi

# ---- parse: usage and I/O errors ------------------------------------------------
"$RVMESS" parse "$T/nope.log" -o "$T/o_nope" >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 2 ] && grep -q "$T/nope.log: No such file or directory" "$T/err.txt"; then pass parse_missing_log
else fail parse_missing_log "exit $rc: $(cat "$T/err.txt")"; fi
"$RVMESS" parse "$T/good.log" >/dev/null 2>"$T/e1.txt"; rc1=$?
"$RVMESS" nosuchcmd >/dev/null 2>"$T/e2.txt"; rc2=$?
"$RVMESS" parse "$T/good.log" -o /proc/rvmess_cannot >/dev/null 2>"$T/e3.txt"; rc3=$?
"$RVMESS" parse "$T/good.log" -o >/dev/null 2>"$T/e4.txt"; rc4=$?
if [ $rc1 != 2 ] || [ $rc2 != 2 ] || [ $rc3 != 2 ] || [ $rc4 != 2 ]; then fail parse_usage "exits $rc1 $rc2 $rc3 $rc4, want 2 2 2 2"
elif [ "$(head -1 "$T/e1.txt")" != "usage: rvmess parse LOG -o DIR [--quiet] [--tol PCT] [--peak GBPS] [--issued] [--target NAME]" ]; then fail parse_usage "no -o: $(head -1 "$T/e1.txt")"
elif [ "$(head -1 "$T/e2.txt")" != "rvmess: unknown command 'nosuchcmd'" ]; then fail parse_usage "bad command: $(head -1 "$T/e2.txt")"
elif [ "$(cat "$T/e3.txt")" != "rvmess parse: /proc/rvmess_cannot: No such file or directory" ]; then fail parse_usage "bad -o: $(cat "$T/e3.txt")"
elif [ "$(head -1 "$T/e4.txt")" != "rvmess parse: option '-o' needs a value" ]; then fail parse_usage "-o without value: $(head -1 "$T/e4.txt")"
else pass parse_usage; fi

# --help: exit 0, on stdout, every option explained
"$RVMESS" parse --help >"$T/h1.txt" 2>"$T/e1.txt"; rc1=$?
"$RVMESS" curves --help >"$T/h2.txt" 2>"$T/e2.txt"; rc2=$?
if [ $rc1 != 0 ] || [ $rc2 != 0 ] || [ -s "$T/e1.txt" ] || [ -s "$T/e2.txt" ]; then fail help "exits $rc1 $rc2: $(cat "$T/e1.txt" "$T/e2.txt")"
elif ! grep -q '^  --tol PCT  .*cache-level' "$T/h1.txt" || ! grep -q '^  --peak GBPS  .*peak' "$T/h1.txt" ||
	! grep -q '^  --issued  .*issued' "$T/h1.txt" || ! grep -q '^  --target NAME .*target' "$T/h1.txt" || ! grep -q '^  -q, --quiet ' "$T/h1.txt"; then fail help "parse --help: $(tr '\n' ' ' <"$T/h1.txt")"
elif ! grep -q '^usage: rvmess curves MESS.csv' "$T/h2.txt" || ! grep -q '^  --peak GBPS  ' "$T/h2.txt" ||
	! grep -q '^  -o DIR  .*bwlat' "$T/h2.txt"; then fail help "curves --help: $(tr '\n' ' ' <"$T/h2.txt")"
else pass help; fi

# a directory given as the input says so
"$RVMESS" curves "$T" >/dev/null 2>"$T/e1.txt"; rc1=$?
"$RVMESS" parse "$T" -o "$T/o_dirin" >/dev/null 2>"$T/e2.txt"; rc2=$?
if [ $rc1 = 2 ] && [ "$(cat "$T/e1.txt")" = "rvmess curves: $T: Is a directory" ] &&
	[ $rc2 = 2 ] && [ "$(cat "$T/e2.txt")" = "rvmess parse: $T: Is a directory" ] && [ ! -e "$T/o_dirin" ]; then
	pass input_is_directory
else fail input_is_directory "exits $rc1 $rc2: $(cat "$T/e1.txt" "$T/e2.txt")"; fi

# ---- runs and order ---------------------------------------------------------------
# two runs in one log: refused, both hdr lines named, nothing written
{ good_log; good_log; } >"$T/two.log"
len=$(good_log | wc -l)
run_parse "$T/two.log" "$T/o_two"
if [ $rc = 1 ] && grep -q "^$T/two.log:$((len + 3)): a second run starts here (hdr, seq 0, after seq $((nrec - 1)) at line $len; the first run's hdr is at line 3)" "$T/err.txt" &&
	grep -q "holds 2 runs" "$T/err.txt" && [ ! -e "$T/o_two" ]; then pass parse_two_runs
else fail parse_two_runs "exit $rc: $(head -3 "$T/err.txt")"; fi

# shuffled lines: a notice, the same results as in order
{ good_log | sed -n '1,7p'; good_log | sed -n '8,20p' | tac; good_log | sed -n '21,$p'; } >"$T/shuf.log"
run_parse "$T/shuf.log" "$T/o_shuf"
if [ $rc = 0 ] && grep -q "^$T/shuf.log:9: notice: records out of order (seq 16 after seq 17 at line 8)" "$T/err.txt" &&
	grep -qx 'out_of_order: 12' "$T/o_shuf/summary.txt" && cmp -s "$T/o_shuf/lat.csv" "$T/o_good/lat.csv" &&
	cmp -s "$T/o_shuf/chase.csv" "$T/o_good/chase.csv"; then pass parse_shuffled
else fail parse_shuffled "exit $rc: $(head -2 "$T/err.txt") / $(grep out_of_order "$T/o_shuf/summary.txt")"; fi

# ---- finite values ----------------------------------------------------------------
# a curve CSV with values near DBL_MAX once wrote GBs of ticks: refused at once
{ echo "read_pct_rounded,pause,bandwidth_mean,bandwidth_std,rd_percentage_actual_mean,latency_mean,latency_std,bandwidth_smooth,latency_smooth,rw_ratio"
	echo "100,0,1.7976e308,0,1,1.7976e308,0,1.7976e308,1.7976e308,100"; } >"$T/huge.csv"
timeout 20 "$RVMESS" curves "$T/huge.csv" -o "$T/o_huge" >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 1 ] && [ "$(cat "$T/err.txt")" = "rvmess curves: $T/huge.csv:2: column bandwidth_mean: 1.7976e308 is beyond the limit 1e+06 GB/s" ] &&
	[ ! -e "$T/o_huge/mess.svg" ]; then pass curves_huge_values
else fail curves_huge_values "exit $rc: $(head -c 300 "$T/err.txt")"; fi
# the same in a log's mess record: named and left out
# (and a pause over 2^53, which mess.csv could not carry back into curves)
{ rec 0 hdr 0 proto=1; rec 1 mess 0 mix=0 pause=0 rep=0 nspl=1000000001.000 rd_pct=100.000 bw_iss=10.000 src=iss
	rec 2 mess 0 mix=0 pause=1152921504606846976 rep=0 nspl=100.000 rd_pct=100.000 bw_iss=10.000 src=iss
	rec 3 end 0 status=ok errors=0 records=3; } >"$T/hugemess.log"
run_parse "$T/hugemess.log" "$T/o_hugemess"
if [ $rc = 1 ] && grep -q "hugemess.log:2: mess record with a missing or bad field (mix, pause <= 2^53, nspl <= 1e+09," "$T/err.txt" &&
	grep -q "hugemess.log:3: mess record with a missing or bad field" "$T/err.txt" &&
	grep -qx 'invalid_fields: 2' "$T/o_hugemess/summary.txt"; then pass parse_huge_mess
else fail parse_huge_mess "exit $rc: $(head -2 "$T/err.txt")"; fi

# ---- parse time grows linearly -------------------------------------------------------
# Logs of the shapes that once took minutes (one record with many fields, many
# par records, one long lat dataset, many unknown types), at N and 4N: CPU time
# may grow 4x (n log n: a bit more), never 16x.  Fails only when the 4N parse
# also takes over a second of CPU, so a noisy small run cannot fail it.
GEN=$BUILD/bin/rvmess-genlog
if [ ! -x "$GEN" ]; then fail parse_scaling "$GEN not built"
else
	cpu() { # N -> CPU seconds (user + sys) of a parse of the N-sized log
		"$GEN" --wide $((2 * $1)) --par "$1" --latflat $((2 * $1)) --unknown "$1" >"$T/scale.log"
		rm -rf "$T/o_scale"
		( TIMEFORMAT='%3U %3S'; time timeout 120 "$RVMESS" parse "$T/scale.log" -o "$T/o_scale" -q >/dev/null 2>&1 ) 2>&1 |
			awk '{ print $1 + $2 }'
	}
	c1=$(cpu 4000); c4=$(cpu 16000)
	if awk -v a="$c1" -v b="$c4" 'BEGIN { exit !(b > 1 && b > 10 * (a > 0.01 ? a : 0.01)) }'; then
		fail parse_scaling "CPU ${c1}s at N, ${c4}s at 4N: grows faster than n log n"
	else pass parse_scaling; fi
fi

# ---- config on the real image -----------------------------------------------------
IMG=$BUILD/images/virt.elf
if [ ! -f "$IMG" ]; then
	skip config_image "$IMG not built"
else
	cp "$IMG" "$T/img.elf"
	"$RVMESS" config "$T/img.elf" >"$T/cfg0.txt" 2>"$T/err.txt"; rc=$?
	# the image as built holds the defaults docs/formats.md documents, every
	# key of its key table in order (sizes there with K/M suffixes, here in bytes)
	awk -F'|' '/^<!-- config keys/ { on = 1 } /^<!-- end of config keys/ { on = 0 }
		on && /^\| `[a-z_]+` \|/ { k = $2; d = $4; gsub(/[ `]/, "", k); gsub(/[ `]/, "", d)
		n = split(d, e, ","); out = ""
		for (i = 1; i <= n; i++) { v = e[i]; m = 1
			if (v ~ /^[0-9]+[KMGT]$/) { u = substr(v, length(v)); v = substr(v, 1, length(v) - 1)
				m = u == "K" ? 1024 : u == "M" ? 1048576 : u == "G" ? 1073741824 : 1099511627776 }
			out = out (i > 1 ? "," : "") (v ~ /^[0-9]+$/ ? sprintf("%.0f", v * m) : v) }
		print k "=" out }' docs/formats.md >"$T/cfg_doc.txt"
	if [ $rc != 0 ] || [ "$(wc -l <"$T/cfg_doc.txt")" -lt 10 ] || ! cmp -s "$T/cfg_doc.txt" "$T/cfg0.txt"; then
		fail config_image_show "exit $rc: $(head -2 "$T/err.txt") differs from the documented defaults: $(diff "$T/cfg_doc.txt" "$T/cfg0.txt" | head -4 | tr '\n' ' ')"
	else
		pass config_image_show
		"$RVMESS" config "$T/img.elf" reps=7 lat_strides=64,128,4K suites=lat,par chase_size=512K >/dev/null 2>"$T/err.txt"; rc=$?
		"$RVMESS" config "$T/img.elf" >"$T/cfg1.txt"
		# only the assigned keys changed
		diff "$T/cfg0.txt" "$T/cfg1.txt" | grep '^>' | sort >"$T/changed.txt"
		printf '%s\n' '> chase_size=524288' '> lat_strides=64,128,4096' '> reps=7' '> suites=lat,par' | sort >"$T/want.txt"
		if [ $rc = 0 ] && cmp -s "$T/changed.txt" "$T/want.txt"; then pass config_image_roundtrip
		else fail config_image_roundtrip "exit $rc, changed: $(tr '\n' ' ' <"$T/changed.txt")"; fi
		# restore the original values from the printed block
		sed 's/^/ /' "$T/cfg0.txt" >"$T/restore.cfg"
		"$RVMESS" config "$T/img.elf" --file "$T/restore.cfg" >/dev/null 2>"$T/err.txt"; rc=$?
		if [ $rc = 0 ] && cmp -s "$T/img.elf" "$IMG"; then pass config_image_restore
		else fail config_image_restore "exit $rc; image differs from the original after restoring"; fi
	fi
	# refusal: bad key in a file names file:line, image untouched
	cp "$IMG" "$T/img2.elf"
	printf '# comment\nreps=4\nbogus_key=1\nlat_strides=64,100\n' >"$T/bad.cfg"
	"$RVMESS" config "$T/img2.elf" --file "$T/bad.cfg" >/dev/null 2>"$T/err.txt"; rc=$?
	if [ $rc = 1 ] && grep -q "^$T/bad.cfg:3: bogus_key: unknown key" "$T/err.txt" &&
		grep -q "^$T/bad.cfg:4: lat_strides: element 2: 100 is not a multiple of 8" "$T/err.txt" &&
		cmp -s "$T/img2.elf" "$IMG"; then pass config_refuse_bad_key
	else fail config_refuse_bad_key "exit $rc: $(tr '\n' ' ' <"$T/err.txt")"; fi
	"$RVMESS" config "$T/img2.elf" par_kmax=17 >/dev/null 2>"$T/err.txt"; rc=$?
	if [ $rc = 1 ] && grep -q "^argument 2: par_kmax: 17 out of range 1..16" "$T/err.txt" && cmp -s "$T/img2.elf" "$IMG"; then
		pass config_refuse_argument
	else fail config_refuse_argument "exit $rc: $(tr '\n' ' ' <"$T/err.txt")"; fi
	"$RVMESS" config "$T/img2.elf" -o "$T/img3.elf" reps=2 >/dev/null 2>&1; rc=$?
	if [ $rc = 0 ] && cmp -s "$T/img2.elf" "$IMG" && "$RVMESS" config "$T/img3.elf" | grep -q '^reps=2$'; then
		pass config_out_file
	else fail config_out_file "exit $rc"; fi
fi

# ---- the config key table: host limits = image limits, one number syntax -----
if [ -f "$IMG" ]; then
	cp "$IMG" "$T/k.elf"
	# reps=200 is over the image's limit (reps_not_in_1..100 at boot): refused here first
	"$RVMESS" config "$T/k.elf" reps=200 >/dev/null 2>"$T/err.txt"; rc=$?
	if [ $rc = 1 ] && grep -q "^argument 2: reps: 200 out of range 1..100$" "$T/err.txt" && cmp -s "$T/k.elf" "$IMG"; then
		pass config_refuse_over_image_limit
	else fail config_refuse_over_image_limit "exit $rc: $(tr '\n' ' ' <"$T/err.txt")"; fi
	# a size beyond any image (the image's arrays are at most 1 TiB)
	cp "$IMG" "$T/k.elf"
	"$RVMESS" config "$T/k.elf" chase_size=2T >/dev/null 2>"$T/err.txt"; rc=$?
	if [ $rc = 1 ] && grep -q "^argument 2: chase_size: 2T out of range 128..1T$" "$T/err.txt" && cmp -s "$T/k.elf" "$IMG"; then
		pass config_refuse_size_over_limit
	else fail config_refuse_size_over_limit "exit $rc: $(tr '\n' ' ' <"$T/err.txt")"; fi
	# a rule between keys the image checks: a stride above lat_max/2
	cp "$IMG" "$T/k.elf"
	"$RVMESS" config "$T/k.elf" lat_max=4K lat_strides=64,4K >/dev/null 2>"$T/err.txt"; rc=$?
	if [ $rc = 1 ] && grep -q "the image would refuse: lat_strides: element 2: 4K breaks the image's rule lat_stride_over_lat_max/2" "$T/err.txt" &&
		cmp -s "$T/k.elf" "$IMG"; then pass config_refuse_cross_key_rule
	else fail config_refuse_cross_key_rule "exit $rc: $(tr '\n' ' ' <"$T/err.txt")"; fi
	# hex, unknown suffixes, garbage and overflowing numbers
	cp "$IMG" "$T/k.elf"
	bad=""
	for kv in reps=0x10 chase_size=64MB lat_max=1.5M reps=-1 chase_loads=18446744073709551616 chase_loads=16777216T; do
		"$RVMESS" config "$T/k.elf" "$kv" >/dev/null 2>"$T/err.txt" && bad="$bad $kv(accepted)"
		grep -q "is not a number" "$T/err.txt" || bad="$bad $kv($(head -c 80 "$T/err.txt"))"
	done
	if [ -z "$bad" ] && cmp -s "$T/k.elf" "$IMG"; then pass config_refuse_bad_numbers
	else fail config_refuse_bad_numbers "$bad"; fi
	# the suffixes and decimal-only reading: 64MiB, 1T (the limit itself), 010 = 10, 0400M = 400M
	"$RVMESS" config "$T/k.elf" chase_size=64MiB lat_max=1T reps=010 par_max=0400M >/dev/null 2>"$T/err.txt"; rc=$?
	"$RVMESS" config "$T/k.elf" >"$T/k.txt"
	if [ $rc = 0 ] && grep -qx "chase_size=$((64 << 20))" "$T/k.txt" && grep -qx "lat_max=$((1 << 40))" "$T/k.txt" &&
		grep -qx 'reps=10' "$T/k.txt" && grep -qx "par_max=$((400 << 20))" "$T/k.txt"; then
		pass config_number_syntax
	else fail config_number_syntax "exit $rc: $(tr '\n' ' ' <"$T/err.txt")"; fi

	# -o without a value
	cp "$IMG" "$T/o.elf"
	"$RVMESS" config "$T/o.elf" reps=2 -o >/dev/null 2>"$T/err.txt"; rc=$?
	if [ $rc = 2 ] && grep -q "^rvmess config: option -o needs a value$" "$T/err.txt" && cmp -s "$T/o.elf" "$IMG"; then
		pass config_o_needs_value
	else fail config_o_needs_value "exit $rc: $(head -1 "$T/err.txt")"; fi

	# a symbolic link to the image: the file it names is rewritten, the link stays
	mkdir -p "$T/real" "$T/links"
	cp "$IMG" "$T/real/img.elf"
	ln -s ../real/img.elf "$T/links/img.elf"
	"$RVMESS" config "$T/links/img.elf" reps=9 >"$T/out.txt" 2>"$T/err.txt"; rc=$?
	real=$(cd "$T/real" && pwd -P)/img.elf
	if [ $rc = 0 ] && [ -L "$T/links/img.elf" ] && [ "$(readlink "$T/links/img.elf")" = ../real/img.elf ] &&
		"$RVMESS" config "$T/real/img.elf" | grep -qx 'reps=9' &&
		grep -qxF "rvmess config: wrote $real (through $T/links/img.elf)" "$T/out.txt" &&
		[ -z "$(ls -A "$T/links" | grep -v '^img.elf$')" ] && [ -z "$(ls -A "$T/real" | grep -v '^img.elf$')" ]; then
		pass config_symlink_writes_target
	else fail config_symlink_writes_target "exit $rc: $(cat "$T/out.txt" "$T/err.txt" | tr '\n' ' '); $(ls -l "$T/links" | tail -n +2)"; fi
	# -o at a symbolic link: refused, the file it names untouched
	cp "$IMG" "$T/real/victim.elf"
	ln -s ../real/victim.elf "$T/links/out.elf"
	"$RVMESS" config "$T/o.elf" reps=2 -o "$T/links/out.elf" >/dev/null 2>"$T/err.txt"; rc=$?
	if [ $rc != 0 ] && grep -q "out.elf is a symbolic link" "$T/err.txt" && [ -L "$T/links/out.elf" ] &&
		cmp -s "$T/real/victim.elf" "$IMG"; then pass config_out_symlink_refused
	else fail config_out_symlink_refused "exit $rc: $(head -1 "$T/err.txt")"; fi
fi

# --help lists every key the image's block has, with its range; exit 0
"$RVMESS" config --help >"$T/help.txt" 2>"$T/err.txt"; rc=$?
missing=""
if [ -f "$IMG" ]; then
	for k in $("$RVMESS" config "$IMG" | sed 's/=.*//'); do
		grep -q "^$k " "$T/help.txt" || missing="$missing $k"
	done
else
	missing="(no image to list the keys)"
fi
if [ $rc = 0 ] && [ -z "$missing" ] && grep -qE '^reps +number +3 +1\.\.100$' "$T/help.txt"; then pass config_help_lists_keys
else fail config_help_lists_keys "exit $rc, missing:$missing"; fi

# the key table in docs/formats.md is the generated one
sed -n '/^<!-- config keys: generated/,/^<!-- end of config keys -->/p' docs/formats.md | sed '1d;$d' >"$T/doc_keys.md"
"$RVMESS" config --help --markdown >"$T/gen_keys.md"
if [ -s "$T/gen_keys.md" ] && diff -u "$T/doc_keys.md" "$T/gen_keys.md" >"$T/keys.diff"; then pass config_docs_table
else fail config_docs_table "docs/formats.md key table differs from 'rvmess config --help --markdown' (paste its output between the markers): $(head -c 300 "$T/keys.diff" | tr '\n' ' ')"; fi

# a rewritten image boots on hostsim and runs with the new values: the cfg
# record prints what was assigned; hostsim reads --harts 010 as 10 and
# --mem-size 0400M as 400 MiB (decimal, not octal)
SIM=$BUILD/bin/hostsim
if [ ! -f "$IMG" ] || [ ! -x "$SIM" ]; then
	skip hostsim_config_roundtrip "$IMG or $SIM not built"
else
	cp "$IMG" "$T/h.elf"
	"$RVMESS" config "$T/h.elf" suites=chase,lat reps=2 warmups=0 seed=4242 chase_size=64KiB chase_loads=1000 \
		chase_all_harts=0 lat_max=64K lat_loads=1000 lat_strides=64,256 lat_random=0 timeout_ms=5000 \
		>/dev/null 2>"$T/err.txt"; rc=$?
	timeout 300 "$SIM" --harts 010 --mem-size 0400M --console "$T/h.log" "$T/h.elf" >/dev/null 2>"$T/sim.err"; src=$?
	cfgrec=$(grep -a '@RVM [0-9]* cfg ' "$T/h.log" | head -1)
	hdr=$(grep -a '@RVM [0-9]* hdr ' "$T/h.log" | head -1)
	want="suites=chase,lat reps=2 warmups=0 timeout_ms=5000 max_harts=0 seed=4242 chase_size=65536 chase_loads=1000 chase_all_harts=0 inject_hang=0 lat_max=65536 lat_loads=1000 lat_strides=64,256 lat_random=0 "
	if [ $rc = 0 ] && [ $src = 0 ] && [[ "$cfgrec" == *" cfg h="[0-9]*" $want"* ]] &&
		[[ "$hdr" == *" harts=10 "* ]] && [[ "$hdr" == *" mem_size=$((400 << 20)) "* ]] &&
		grep -aq '@RVM [0-9]* end h=[0-9]* status=ok' "$T/h.log"; then
		pass hostsim_config_roundtrip
	else fail hostsim_config_roundtrip "config $rc, hostsim $src: cfg: ${cfgrec:0:300} hdr: ${hdr:0:200} $(head -c 200 "$T/sim.err")"; fi
fi

# a real run: configure a small image, boot it on QEMU virt, parse the log
if [ ! -f "$IMG" ]; then
	skip qemu_virt_parse "$IMG not built"
elif ! command -v qemu-system-riscv64 >/dev/null 2>&1; then
	skip qemu_virt_parse "qemu-system-riscv64 not installed"
else
	cp "$IMG" "$T/run.elf"
	"$RVMESS" config "$T/run.elf" suites=chase,lat,par lat_max=256K par_max=64K chase_size=64K \
		chase_loads=1000 lat_loads=1000 reps=1 lat_strides=64 par_kmax=4 >/dev/null 2>"$T/err.txt"
	timeout 60 qemu-system-riscv64 -M virt -bios none -kernel "$T/run.elf" -nographic -smp 2 -m 128M \
		</dev/null >"$T/run.log" 2>&1
	qrc=$?
	run_parse "$T/run.log" "$T/o_run"
	# the image powers QEMU off through the test device: exit 0 when every suite passed
	if [ $qrc = 0 ] && [ $rc = 0 ] && grep -q '^rvmess parse: harts=2 .* bad=0 missing=0 .*complete=yes status=ok$' "$T/out.txt" &&
		[ -s "$T/o_run/lat.csv" ] && [ -s "$T/o_run/par.csv" ] && [ -s "$T/o_run/chase.csv" ] &&
		grep -q ' cfg h=[0-9]* .* lat_max=262144 .* lat_strides=64 ' "$T/run.log"; then
		pass qemu_virt_parse
	else fail qemu_virt_parse "qemu exit $qrc, parse exit $rc: $(head -1 "$T/out.txt") $(head -2 "$T/err.txt")"; fi
fi

# refusal of a non-ELF (always runs)
printf 'this is not an ELF file at all, just text padding it out past 64 bytes....\n' >"$T/notelf.bin"
"$RVMESS" config "$T/notelf.bin" reps=2 >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 2 ] && grep -q "rvmess: $T/notelf.bin: not a RISC-V ELF64 image: no ELF magic" "$T/err.txt"; then pass config_refuse_non_elf
else fail config_refuse_non_elf "exit $rc: $(cat "$T/err.txt")"; fi
# a host (x86-64) ELF is refused by machine
if [ -f /bin/true ] && [ "$(head -c 4 /bin/true | tr -d '\177')" = ELF ]; then
	"$RVMESS" config /bin/true >/dev/null 2>"$T/err.txt"; rc=$?
	if [ $rc = 2 ] && grep -q "not a RISC-V ELF64 image: e_machine is" "$T/err.txt"; then pass config_refuse_host_elf
	else fail config_refuse_host_elf "exit $rc: $(cat "$T/err.txt")"; fi
else
	skip config_refuse_host_elf "/bin/true is not an ELF file"
fi

# a gcc-built RISC-V object holding a config block, if the cross compiler exists
if command -v riscv64-unknown-elf-gcc >/dev/null 2>&1; then
	cat >"$T/fix.c" <<'EOF'
#include "rvmess/cfgschema.h"
__attribute__((section(".rvmess_config"), used))
struct rvm_config rvm_cfg = RVM_CFG_DEFAULTS;
EOF
	if riscv64-unknown-elf-gcc -march=rv64ima_zicsr_zifencei -mabi=lp64 -ffreestanding -Ifirmware/include -c "$T/fix.c" -o "$T/fix.o" 2>"$T/err.txt"; then
		out1=$("$RVMESS" config "$T/fix.o" 2>&1)
		"$RVMESS" config "$T/fix.o" lat_strides=32,1K suites=all >/dev/null 2>&1; rc=$?
		out2=$("$RVMESS" config "$T/fix.o" 2>&1)
		if echo "$out1" | grep -q '^lat_strides=64,128,256,512,1024,4096$' && echo "$out1" | grep -q '^suites=chase,lat,par$' && [ $rc = 0 ] &&
			echo "$out2" | grep -q '^lat_strides=32,1024$' && echo "$out2" | grep -q '^suites=chase,lat,par,mess,check,litmus,integ$'; then
			pass config_gcc_fixture
		else fail config_gcc_fixture "got: $(echo "$out1" "$out2" | tr '\n' ' ' | head -c 300)"; fi
	else
		fail config_gcc_fixture "cross compile failed: $(head -2 "$T/err.txt")"
	fi
else
	skip config_gcc_fixture "riscv64-unknown-elf-gcc not installed"
fi

finish
