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

# ---- record generator --------------------------------------------------------
CRC_TABLE=()
for ((i = 0; i < 256; i++)); do
	c=$i
	for ((k = 0; k < 8; k++)); do
		if ((c & 1)); then c=$(((c >> 1) ^ 0xEDB88320)); else c=$((c >> 1)); fi
	done
	CRC_TABLE[i]=$c
done
crc32() { # string -> 8 hex digits
	local s=$1 c=0xFFFFFFFF i b
	for ((i = 0; i < ${#s}; i++)); do
		printf -v b '%d' "'${s:i:1}"
		c=$((CRC_TABLE[(c ^ b) & 0xFF] ^ (c >> 8)))
	done
	printf '%08x' $((c ^ 0xFFFFFFFF))
}
rec() { # seq type hart fields...
	local seq=$1 type=$2 hart=$3 body
	shift 3
	body="@RVM $seq $type h=$hart${*:+ $*}"
	printf '%s *%s\n' "$body" "$(crc32 "$body")"
}
[ "$(crc32 123456789)" = cbf43926 ] || { fail crc32_helper "crc32(123456789) != cbf43926"; exit 1; }

# A complete run: hdr, cfg, 2 harts, chase, lat (2 chains, 3-level curve),
# par, parmax, end.  Prints the log on stdout.
good_log() {
	local s=0 size ns chain
	echo "OpenSBI v1.1"
	echo "   ____                    _____ ____ _____"
	rec $((s++)) hdr 0 proto=1 platform=virt mode=M harts=2 hartids=0,1 timebase=10000000 cpu_hz=1000000000 version=test
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
if [ -n "$missing_files" ]; then fail parse_files "missing:$missing_files"; else pass parse_files; fi

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

# cache levels: L1 32 KiB, L2 1 MiB, memory
if grep -q '^L1,512,32768,32768,7,4.000,4.000,random,64$' "$T/o_good/cache_levels.csv" &&
	grep -q '^L2,65536,1048576,1048576,5,12.000,12.000,random,64$' "$T/o_good/cache_levels.csv" &&
	grep -q '^memory,2097152,16777216,,4,90.000,90.000,random,64$' "$T/o_good/cache_levels.csv" &&
	grep -q '^L1 .*32 KiB' "$T/out.txt" && grep -q '^memory ' "$T/out.txt"; then
	pass parse_cache_levels
else fail parse_cache_levels "$(cat "$T/o_good/cache_levels.csv" | tr '\n' ' ')"; fi

if grep -q '^65536,0.06250,2,2000,12000,12000,6.000,6.000,2.000$' "$T/o_good/par.csv" &&
	grep -q '^65536,0.06250,2,2.000$' "$T/o_good/parmax.csv" &&
	grep -q '^1,1048576,16384,0,10000,810000,8100,810000,81.000,81.000$' "$T/o_good/chase.csv"; then
	pass parse_par_chase
else fail parse_par_chase "par.csv/parmax.csv/chase.csv rows wrong"; fi

"$RVMESS" parse "$T/good.log" -o "$T/o_quiet" --quiet >"$T/q.txt" 2>&1
if [ "$(wc -l <"$T/q.txt")" = 2 ]; then pass parse_quiet; else fail parse_quiet "--quiet printed $(wc -l <"$T/q.txt") lines"; fi

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
	[ ! -e "$T/o_reuse/parmax.csv" ] && [ "$(wc -l <"$T/o_reuse/records.csv")" = 5 ]; then pass parse_reuse_dir
else fail parse_reuse_dir "left: $(ls "$T/o_reuse" | tr '\n' ' ')"; fi

# ---- parse: usage and I/O errors ------------------------------------------------
"$RVMESS" parse "$T/nope.log" -o "$T/o_nope" >/dev/null 2>"$T/err.txt"; rc=$?
if [ $rc = 2 ] && grep -q "$T/nope.log: No such file or directory" "$T/err.txt"; then pass parse_missing_log
else fail parse_missing_log "exit $rc: $(cat "$T/err.txt")"; fi
"$RVMESS" parse "$T/good.log" >/dev/null 2>&1; rc1=$?
"$RVMESS" nosuchcmd >/dev/null 2>&1; rc2=$?
"$RVMESS" parse "$T/good.log" -o /proc/rvmess_cannot >/dev/null 2>&1; rc3=$?
if [ $rc1 = 2 ] && [ $rc2 = 2 ] && [ $rc3 = 2 ]; then pass parse_usage
else fail parse_usage "exits $rc1 $rc2 $rc3, want 2 2 2"; fi

# ---- config on the real image -----------------------------------------------------
IMG=$BUILD/images/virt.elf
if [ ! -f "$IMG" ]; then
	skip config_image "$IMG not built"
else
	cp "$IMG" "$T/img.elf"
	"$RVMESS" config "$T/img.elf" >"$T/cfg0.txt" 2>"$T/err.txt"; rc=$?
	if [ $rc != 0 ] || ! grep -q '^suites=' "$T/cfg0.txt" || ! grep -q '^lat_strides=' "$T/cfg0.txt"; then
		fail config_image_show "exit $rc: $(head -2 "$T/err.txt")"
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
	if [ $rc = 0 ] && grep -q '^rvmess parse: harts=2 .* bad=0 missing=0 .*complete=yes status=ok$' "$T/out.txt" &&
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
			echo "$out2" | grep -q '^lat_strides=32,1024$' && echo "$out2" | grep -q '^suites=chase,lat,par,mess,check,litmus$'; then
			pass config_gcc_fixture
		else fail config_gcc_fixture "got: $(echo "$out1" "$out2" | tr '\n' ' ' | head -c 300)"; fi
	else
		fail config_gcc_fixture "cross compile failed: $(head -2 "$T/err.txt")"
	fi
else
	skip config_gcc_fixture "riscv64-unknown-elf-gcc not installed"
fi

finish
