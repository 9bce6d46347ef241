#!/usr/bin/env bash
# Integration test of the mess suite.
#   kernels-*   the 51 generator kernels in the built image: every one has the
#               same instruction count; slot i is `sd` exactly when
#               floor((i+1)*S/50) > floor(i*S/50) (S stores per block), else
#               `ld`, and touches byte offset 64*i of its array's block.
#   qemu-*      a small grid on QEMU virt (M-mode) and sbi (S-mode): runs to
#               the end cleanly, one mess record per point, parse writes the
#               Mess files; every point's read share is the kernel's and its
#               mess.csv row carries the record's latency (QEMU has no memory
#               timing: latencies and bandwidths are not compared).
#   hostsim-*   a small grid on hostsim with each memory model:
#               fixed: every point's latency within 2 % of the unloaded one;
#               md1, dram: latency at pause 0 well above the idle latency;
#               dram: 100 % stores saturate below 100 % loads, and 100 %
#               loads at pause 0 reach >= 90 % of the model's peak;
#               counters: the last counter reading equals the memory model's
#               own transfer count printed by hostsim --stats (within 1 %);
#               files: mess.csv's measured columns are the raw values of
#               mess_raw.csv (one window per point), bwlat/ holds the 51
#               files bwlat_0..bwlat_100, each in descending bandwidth, no
#               row twice, loaded by the simulator without a warning.
#   window-edges-64-harts
#               64 harts at a fixed latency, light load: the chase reads the
#               fixed latency plus l1d-hit + llc-hit within 0.2 % (the
#               generators' counts are read outside its window);
#   warmup-*    fixed memory latency, chase ring 4x the LLC: the Mess chase
#               reads the same latency at every point of a pause, the first
#               one too (its warm-up walks the whole ring); the chase suite
#               reads the same latency over a ring 2x the LLC as over 16x.
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
RVMESS=$BUILD/bin/rvmess
HOSTSIM=$BUILD/bin/hostsim
OBJDUMP=${CROSS:-riscv64-unknown-elf-}objdump
scratch mess

# ---- kernel generation --------------------------------------------------------
$OBJDUMP -d "$BUILD/images/virt.elf" >"$TMP/virt.dis" || fail kernels-disassemble "objdump failed"
awk '
/^[0-9a-f]+ <mess_kern_[0-9]+>:/ { k = $2; gsub(/[<>:]|mess_kern_/, "", k); cur = k + 0; n[cur] = 0; slot[cur] = 0; seen++; next }
/^[0-9a-f]+ </ { cur = -1; next }
cur >= 0 && NF >= 3 {
	n[cur]++
	op = $3; arg = $4
	if ((op == "ld" || op == "sd") && arg ~ /\((a5|a6|t4|t5)\)$/) {
		i = slot[cur]++
		base = (arg ~ /\((t4|t5)\)$/) ? 1600 : 0
		off = arg; sub(/^[^,]*,/, "", off); sub(/\(.*/, "", off)
		want = (int((i + 1) * cur / 50) > int(i * cur / 50)) ? "sd" : "ld"
		if (op != want) { printf "kernel %d slot %d: %s, want %s\n", cur, i, op, want; bad++ }
		if (base + off != 64 * i) { printf "kernel %d slot %d: offset %d, want %d\n", cur, i, base + off, 64 * i; bad++ }
	}
}
END {
	if (seen != 51) { printf "found %d kernels, want 51\n", seen; bad++ }
	for (k = 0; k <= 50; k++) {
		if (slot[k] != 50) { printf "kernel %d has %d memory slots, want 50\n", k, slot[k]; bad++ }
		if (n[k] != n[0]) { printf "kernel %d has %d instructions, kernel 0 has %d\n", k, n[k], n[0]; bad++ }
	}
	exit bad ? 1 : 0
}' "$TMP/virt.dis" >"$TMP/kernels.out" 2>&1
if [ $? = 0 ]; then pass kernels-mix-and-layout; else fail kernels-mix-and-layout "$(head -3 "$TMP/kernels.out" | tr '\n' ';')"; fi

# ---- curve files ------------------------------------------------------------------
shipped=curves/hostsim-ddr4-3200/mess.csv
# the metrics, recomputed here from the CSV: a curve per store share (100 -
# rw_ratio); unloaded latency = the median over curves of latency_mean at the
# largest pause; per curve the largest bandwidth_mean and latency_mean
want_metrics() { # CSV -> "unloaded U" then "curve STORE% MAXGBS MAXNS" lines
	awk -F, 'NR > 1 { c = 100 - $10; if (!(c in pm) || $2 > pm[c]) { pm[c] = $2; ul[c] = $6 }
		if ($3 > bw[c]) bw[c] = $3; if ($6 > lt[c]) lt[c] = $6 }
	END { n = 0; for (c in ul) v[++n] = ul[c]
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		printf "unloaded %.1f\n", n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		for (c in ul) printf "curve %s %.2f %.1f\n", c, bw[c], lt[c] }' "$1" | sort
}
got_metrics() { # rvmess curves/parse metrics text -> the same lines
	awk '/^unloaded latency/ { printf "unloaded %.1f\n", $3 }
		/^[0-9]+ +[0-9]+ / && NF == 6 { printf "curve %s %.2f %.1f\n", $1, $4, $5 }' "$1" | sort
}
for fam in curves/*/mess.csv; do # every shipped family (each of one 25.6 GB/s channel)
	rm -rf "$TMP/curves"
	if "$RVMESS" curves "$fam" --peak 25.6 -o "$TMP/curves" >"$TMP/curves.out" 2>&1 &&
		[ -s "$TMP/curves/mess.svg" ] &&
		[ "$(ls "$TMP/curves/bwlat" | grep -c '^bwlat_[0-9]*\.txt$')" = 51 ] &&
		want_metrics "$fam" >"$TMP/want.m" && got_metrics "$TMP/curves.out" >"$TMP/got.m" &&
		[ "$(wc -l <"$TMP/want.m")" -ge 3 ] && cmp -s "$TMP/want.m" "$TMP/got.m" &&
		grep -v '^rvmess curves: wrote' "$TMP/curves.out" | cmp -s - "${fam%/mess.csv}/mess_metrics.txt"; then
		pass "curves-shipped-family ($fam)"
	else fail curves-shipped-family "$fam: metrics differ from the CSV's or from its mess_metrics.txt: $(diff "$TMP/want.m" "$TMP/got.m" | head -4 | tr '\n' ' ') $(tail -2 "$TMP/curves.out" | tr '\n' ' ')"; fi
done
sed '5s/,[0-9.]*,/,x1,/' "$shipped" >"$TMP/bad.csv"
"$RVMESS" curves "$TMP/bad.csv" >"$TMP/bad.out" 2>&1; rc=$?
if [ $rc = 1 ] && grep -q "bad.csv:5: column .*not a number" "$TMP/bad.out"; then pass curves-bad-file-refused
else fail curves-bad-file-refused "exit $rc: $(head -2 "$TMP/bad.out" | tr '\n' ' ')"; fi

# ---- small grids -----------------------------------------------------------------
GRID="suites=mess mess_mix=0,50,100 mess_pause=0,256,16384 reps=1 mess_window_loads=4000 mess_chase_size=32M mess_gen_size=2M"
npoints=9

field() { # LOG MIX PAUSE KEY -> value of KEY in the mess record of that point
	grep -o "@RVM [0-9]* mess .* mix=$2 pause=$3 .*" "$1" | grep -o " $4=[0-9.]*" | head -1 | cut -d= -f2
}

check_log() { # NAME LOG RC DIR
	local name=$1 log=$2 rc=$3 dir=$4 n
	if [ "$rc" != 0 ]; then fail "$name" "exit status $rc"; return 1; fi
	n=$(grep -c "@RVM [0-9]* mess " "$log")
	if [ "$n" != $npoints ]; then fail "$name" "$n mess records, want $npoints"; return 1; fi
	if grep -q "@RVM [0-9]* \(err\|trap\) " "$log"; then fail "$name" "err/trap: $(grep -m1 "@RVM [0-9]* \(err\|trap\) " "$log")"; return 1; fi
	if ! "$RVMESS" parse "$log" -o "$dir" -q >"$dir.parse" 2>&1; then fail "$name" "parse: $(tail -2 "$dir.parse" | tr '\n' ' ')"; return 1; fi
	for f in mess.csv mess_raw.csv mess_metrics.txt mess.svg; do
		[ -s "$dir/$f" ] || { fail "$name" "$f not written"; return 1; }
	done
	[ "$(ls "$dir/bwlat" | wc -l)" -ge 1 ] || { fail "$name" "no bwlat files"; return 1; }
	# each grid point: the kernel's read share of the traffic (issue counts:
	# loads + stores over loads + 2 x stores = 100 / (100 + mix) %), and
	# mess.csv's row (rw_ratio = 100 - mix) carries the record's latency
	local m p rec why=""
	for m in 0 50 100; do for p in 0 256 16384; do
		rec=$(grep -ao "@RVM [0-9]* mess .* mix=$m pause=$p .*" "$log" | head -1)
		why=$(echo "$rec" | awk -v m=$m -v p=$p -v csv="$dir/mess.csv" '{
			for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
			if (f["nspl"] == "" || f["nspl"] + 0 <= 0) { print "mix " m " pause " p ": no nspl"; exit }
			if (f["src"] == "iss" && (f["rd_pct"] - 10000 / (100 + m)) ^ 2 > 1e-4) {
				print "mix " m " pause " p ": rd_pct " f["rd_pct"] ", want " 10000 / (100 + m); exit }
			# a generator block is 50 accesses, mix/2 of them stores; a store
			# reads its line first (write-allocate) and writes it back
			if (f["gen_stores"] != f["gen_iters"] * m / 2 || f["gen_loads"] != f["gen_iters"] * (50 - m / 2) ||
			    f["iss_rd"] != (f["gen_loads"] + f["gen_stores"]) * 64 || f["iss_wr"] != f["gen_stores"] * 64) {
				print "mix " m " pause " p ": gen_iters " f["gen_iters"] " gen_loads " f["gen_loads"] " gen_stores " f["gen_stores"] " iss_rd " f["iss_rd"] " iss_wr " f["iss_wr"] " disagree"; exit }
			# bandwidths in MB/s = bytes * 1000 / ns (the issued traffic over the
			# window of the generators, gen_ns); the counters count 64-byte lines
			if (f["gen_ns"] + 0 < f["ns"] + 0) { print "mix " m " pause " p ": gen_ns " f["gen_ns"] " below ns " f["ns"]; exit }
			want = (f["iss_rd"] + f["iss_wr"]) * 1000 / f["gen_ns"]
			if ((f["bw_iss"] - want) ^ 2 > (0.001 + 1e-4 * want) ^ 2) {
				print "mix " m " pause " p ": bw_iss " f["bw_iss"] ", want " want; exit }
			# the counters over the span of the window (wall_ns; ns in older images)
			want = (f["ctr_rd"] + f["ctr_wr"]) * 64 * 1000 / (f["wall_ns"] != "" ? f["wall_ns"] : f["ns"])
			if (f["wall_ns"] != "" && f["wall_ns"] + 0 < f["ns"] + 0) { print "mix " m " pause " p ": wall_ns " f["wall_ns"] " below ns " f["ns"]; exit }
			if (f["src"] == "ctr" && (f["bw_ctr"] - want) ^ 2 > (0.001 + 1e-4 * want) ^ 2) {
				print "mix " m " pause " p ": bw_ctr " f["bw_ctr"] ", want " want; exit }
			while ((getline l < csv) > 0) { split(l, c, ",")
				if (c[10] == 100 - m && c[2] == p) { hit = 1
					if ((c[6] - f["nspl"]) ^ 2 > 1e-6) print "mix " m " pause " p ": mess.csv latency " c[6] ", record " f["nspl"]
					if ((c[5] - f["rd_pct"] / 100) ^ 2 > 1e-8) print "mix " m " pause " p ": mess.csv read share " c[5] ", record " f["rd_pct"] "%"
					bw = (f["src"] == "ctr" ? f["bw_ctr"] : f["bw_iss"]) / 1000	# at memory: the counters when there are some
					if ((c[3] - bw) ^ 2 > 1e-10) print "mix " m " pause " p ": mess.csv bandwidth " c[3] " GB/s, record " bw } }
			if (!hit) print "mix " m " pause " p ": no mess.csv row" }')
		[ -z "$why" ] || { fail "$name" "$why"; return 1; }
	done; done
	return 0
}

cp "$BUILD/images/virt.elf" "$TMP/virt.elf"
cp "$BUILD/images/sbi.elf" "$TMP/sbi.elf"
# shellcheck disable=SC2086
"$RVMESS" config "$TMP/virt.elf" $GRID >/dev/null && "$RVMESS" config "$TMP/sbi.elf" $GRID >/dev/null ||
	fail config "rvmess config refused the test grid"

if command -v qemu-system-riscv64 >/dev/null; then
	for t in virt sbi; do
		tools/run.sh --target qemu-$t --harts 4 --image "$TMP/$t.elf" --out "$TMP/q$t" --timeout 120 >"$TMP/q$t.run" 2>&1
		rc=$(cat "$TMP/q$t/exit.status" 2>/dev/null || echo none)
		check_log "qemu-$t-grid" "$TMP/q$t/console.log" "$rc" "$TMP/q$t/parsed" && pass "qemu-$t-grid"
	done
else
	for t in virt sbi; do skip "qemu-$t-grid" "qemu-system-riscv64 not installed"; done
fi

# mess.csv's measured columns against mess_raw.csv, and the bwlat/ layout
check_files() { # NAME DIR
	local name=$1 dir=$2 bad r
	bad=$(awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
		FILENAME ~ /mess_raw/ {
			bw = $col[FILENAME, "src"] == "ctr" ? $col[FILENAME, "bw_ctr"] : $col[FILENAME, "bw_iss"]
			k = (100 - $col[FILENAME, "mix"]) "," $col[FILENAME, "pause"]
			rbw[k] = bw / 1000; rlat[k] = $col[FILENAME, "nspl"]; rrd[k] = $col[FILENAME, "rd_pct"] / 100; n++; next }
		{ k = $col[FILENAME, "rw_ratio"] "," $col[FILENAME, "pause"]; m++
		  if (!(k in rbw)) { print "mess.csv row " k " not in mess_raw.csv"; exit }
		  d1 = $col[FILENAME, "bandwidth_mean"] - rbw[k]; d2 = $col[FILENAME, "latency_mean"] - rlat[k]
		  d3 = $col[FILENAME, "rd_percentage_actual_mean"] - rrd[k]
		  if (d1 * d1 > 1e-12 || d2 * d2 > 1e-6 || d3 * d3 > 1e-10) {
			print "point " k ": mess.csv " $col[FILENAME, "bandwidth_mean"] " GB/s " $col[FILENAME, "latency_mean"] " ns, raw " rbw[k] " GB/s " rlat[k] " ns"; exit } }
		END { if (m != n) print m " mess.csv rows for " n " raw windows" }' "$dir/mess_raw.csv" "$dir/mess.csv")
	[ -z "$bad" ] || { fail "$name-measured-columns" "$bad"; return; }
	pass "$name-measured-columns"
	for r in $(seq 0 2 100); do
		[ -s "$dir/bwlat/bwlat_$r.txt" ] || { bad="bwlat_$r.txt missing or empty"; break; }
		bad=$(awk -v f="bwlat_$r.txt" 'NR > 1 && $1 > prev { print f ":" NR ": " $1 " MB/s after " prev; exit }
			NR > 1 && $0 == pl { print f ":" NR ": the row before it again"; exit } { prev = $1; pl = $0 }' "$dir/bwlat/bwlat_$r.txt")
		[ -z "$bad" ] || break
	done
	n=$(ls "$dir/bwlat" | grep -c '^bwlat_[0-9]*\.txt$')
	# the simulator loads it without a warning (no row it would adjust)
	[ -n "$bad" ] || bad=$("$BUILD/bin/rvmess" sim info "$dir" 2>&1 >/dev/null | head -1)
	if [ -z "$bad" ] && [ "$n" = 51 ] && [ -s "$dir/bwlat/README" ]; then pass "$name-bwlat-51-descending"
	else fail "$name-bwlat-51-descending" "${bad:-$n bwlat files}"; fi
}

run_hostsim() { # NAME ARGS...
	local name=$1; shift
	timeout 300 "$HOSTSIM" --harts 8 --mem-size 512M --stats "$@" "$TMP/virt.elf" >"$TMP/$name.log" 2>"$TMP/$name.err"
	check_log "hostsim-$name" "$TMP/$name.log" $? "$TMP/$name.out"
}

if [ -x "$HOSTSIM" ]; then
	if run_hostsim fixed --mem-model fixed --mem-latency 100; then
		base=$(field "$TMP/fixed.log" 0 16384 nspl)
		# nine numbers, each within 2 % of the unloaded one (which is above
		# the model's own 100 ns); a missing one is a failure
		worst=$(for m in 0 50 100; do for p in 0 256 16384; do echo "x$(field "$TMP/fixed.log" $m $p nspl)"; done; done |
			awk -v b="$base" '{ v = substr($1, 2) } v == "" || b <= 100 { w = "missing"; exit }
				{ d = (v - b) / b; if (d < 0) d = -d; if (d > w) w = d; n++ }
				END { if (w == "missing" || n != 9) print "missing"; else printf "%.4f", w }')
		if awk -v w="$worst" 'BEGIN { exit !(w != "missing" && w <= 0.02) }'; then pass "hostsim-fixed-flat (max deviation $worst)"
		else fail hostsim-fixed-flat "latency deviates by $worst (> 2 %) from $base ns"; fi
	fi
	for model in md1 dram; do
		run_hostsim $model --mem-model $model || continue
		idle=$(field "$TMP/$model.log" 0 16384 nspl); busy=$(field "$TMP/$model.log" 0 0 nspl)
		if awk -v i="$idle" -v b="$busy" 'BEGIN { exit !(b > 1.15 * i) }'; then pass "hostsim-$model-latency-rises ($idle -> $busy ns)"
		else fail "hostsim-$model-latency-rises" "pause 0: $busy ns, idle: $idle ns"; fi
	done
	if [ -s "$TMP/dram.log" ]; then
		rd=$(field "$TMP/dram.log" 0 0 bw_ctr); wr=$(field "$TMP/dram.log" 100 0 bw_ctr)
		peak=$(field "$TMP/dram.log" 0 0 peak)
		if awk -v r="$rd" -v p="$peak" 'BEGIN { exit !(p > 0 && r >= 0.9 * p) }'; then pass "hostsim-dram-reaches-90pct-of-peak ($rd of $peak MB/s)"
		else fail hostsim-dram-reaches-90pct-of-peak "100 % loads at pause 0: $rd MB/s, peak $peak MB/s"; fi
		if awk -v r="$rd" -v w="$wr" 'BEGIN { exit !(w < r) }'; then pass "hostsim-dram-writes-saturate-lower ($rd vs $wr MB/s)"
		else fail hostsim-dram-writes-saturate-lower "100 % loads $rd MB/s, 100 % stores $wr MB/s"; fi
		check_files hostsim-dram "$TMP/dram.out"
		# the counters the image read vs the model's own count (--stats)
		truth=$(sed -n 's/.*model dram served reads \([0-9]*\) writes \([0-9]*\).*/\1 \2/p' "$TMP/dram.err")
		seen=$(grep -o "@RVM [0-9]* memctl .*" "$TMP/dram.log" | tail -1 | sed -n 's/.* reads=\([0-9]*\) writes=\([0-9]*\).*/\1 \2/p')
		if [ -n "$truth" ] && [ -n "$seen" ] && awk -v t="$truth" -v s="$seen" 'BEGIN {
			split(t, a, " "); split(s, b, " ");
			exit !(b[1] <= a[1] && b[2] <= a[2] && (a[1] - b[1]) <= 0.01 * a[1] && (a[2] - b[2]) <= 0.01 * a[2] + 16) }'
		then pass "hostsim-counters-truth (image $seen, model $truth)"
		else fail hostsim-counters-truth "image read '$seen', model served '$truth'"; fi
	fi
	# all arrays cached (mix 0 first takes the cold misses): the memory
	# counters see no traffic in a window, and
	# the point reports the kernel's nominal read share (write-allocate:
	# 50 reads per block, one write per store), 10000 / (100 + store %)
	cp "$BUILD/images/virt.elf" "$TMP/cached.elf"
	"$RVMESS" config "$TMP/cached.elf" suites=mess mess_mix=0,50,100 mess_pause=0 reps=1 \
		mess_window_loads=4000 mess_chase_size=256K mess_gen_size=3200 >/dev/null
	timeout 120 "$HOSTSIM" --harts 2 --mem-size 512M "$TMP/cached.elf" >"$TMP/cached.log" 2>&1
	got=""
	for m in 50 100; do
		got="$got $m:$(field "$TMP/cached.log" $m 0 ctr_rd)/$(field "$TMP/cached.log" $m 0 ctr_wr)/$(field "$TMP/cached.log" $m 0 rd_pct)"
	done
	if [ "$got" = " 50:0/0/66.667 100:0/0/50.000" ]; then pass hostsim-cached-nominal-share
	else fail hostsim-cached-nominal-share "mix:ctr_rd/ctr_wr/rd_pct =$got, want 50:0/0/66.667 100:0/0/50.000"; fi
	# warm-up: every point of a pause reads the same fixed latency, the first too
	cp "$BUILD/images/virt.elf" "$TMP/warm.elf"
	# shellcheck disable=SC2086
	"$RVMESS" config "$TMP/warm.elf" $GRID mess_chase_size=16M >/dev/null
	timeout 300 "$HOSTSIM" --harts 8 --mem-size 512M --mem-model fixed --mem-latency 100 --llc-size 4M \
		"$TMP/warm.elf" >"$TMP/warm.log" 2>"$TMP/warm.err"
	spread=$(for p in 0 256 16384; do echo "$p $(for m in 0 50 100; do field "$TMP/warm.log" $m $p nspl; done | tr '\n' ' ')"; done |
		awk 'NF == 4 { lo = $2; hi = $2; for (i = 3; i <= 4; i++) { if ($i < lo) lo = $i; if ($i > hi) hi = $i }
			d = (hi - lo) / lo; if (d > w) w = d; n++ } END { printf "%s", n == 3 ? sprintf("%.5f", w) : "missing" }')
	if awk -v w="$spread" 'BEGIN { exit !(w != "missing" && w <= 0.0005) }'; then pass "warmup-mess-first-point (spread $spread)"
	else fail warmup-mess-first-point "latency at one pause differs by $spread between mixes (> 0.05 %)"; fi
	chase_nspl() { # SIZE
		cp "$BUILD/images/virt.elf" "$TMP/chase.elf"
		"$RVMESS" config "$TMP/chase.elf" suites=chase chase_size="$1" chase_loads=20000 warmups=1 reps=1 chase_all_harts=0 >/dev/null
		timeout 300 "$HOSTSIM" --harts 1 --mem-size 128M --mem-model fixed --mem-latency 100 "$TMP/chase.elf" 2>/dev/null |
			grep -o "@RVM [0-9]* chase .*" | grep -o " nspl=[0-9.]*" | cut -d= -f2
	}
	# the window's edges: 63 generators on 64 harts at a fixed 88 ns, very
	# light load: the chase reads 88 + 34 (l1d-hit + llc-hit) ns; reading
	# the generators' counts inside the window (a coherence miss each) read
	# 123.07
	cp "$BUILD/images/virt.elf" "$TMP/edge.elf"
	"$RVMESS" config "$TMP/edge.elf" suites=mess reps=1 warmups=1 mess_mix=0 mess_pause=65536 mess_window_loads=4000 \
		mess_chase_size=32M mess_gen_size=2M >/dev/null
	timeout 300 "$HOSTSIM" --harts 64 --mem-size 2G --mem-model fixed --mem-latency 88 "$TMP/edge.elf" >"$TMP/edge.log" 2>&1
	edge=$(field "$TMP/edge.log" 0 65536 nspl)
	if awk -v l="$edge" 'BEGIN { exit !(l != "" && (l - 122) ^ 2 <= (0.002 * 122) ^ 2) }'; then pass "window-edges-64-harts ($edge ns)"
	else fail window-edges-64-harts "chase ${edge:-?} ns on 64 harts at a fixed 88 ns, want 122 +- 0.2 %"; fi
	small=$(chase_nspl 4M); big=$(chase_nspl 32M)
	if awk -v s="$small" -v b="$big" 'BEGIN { exit !(s > 0 && b > 0 && (s - b) / b <= 0.001 && (b - s) / b <= 0.001) }'; then
		pass "warmup-chase-whole-ring ($small vs $big ns)"
	else fail warmup-chase-whole-ring "4 MiB ring $small ns, 32 MiB ring $big ns (> 0.1 % apart)"; fi
else
	fail hostsim "$HOSTSIM not built"
fi
finish
