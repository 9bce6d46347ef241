#!/usr/bin/env bash
# hostsim's ddr controller and another DRAM simulator on the same request
# streams (docs/memsys.md, "Cross-check"): per mix of make run's Mess family
# three points, light (the largest pause), knee (the largest pause whose
# chase latency is at least 1.5x the light one's) and saturated (pause 0),
# each run alone on make run's system with --trace-mem; from each trace the
# stretch where the generators run steady (the last run of bins, each at
# least 50 000 cycles and 4 000 transfers long, within 15 % of the point's
# bw_ctr and 5 points of its read share; of it the last WIN cycles or
# 300 000 transfers' worth); and per mix one synthetic stream (sequential lines,
# the mix's read share, RATE GB/s offered).  Every trace is replayed open
# loop on hostsim (--replay-mem, the same system) and, with --dramsim3, on
# DRAMsim3 (its trace-driven front end; built by the user outside the repo:
# docs/memsys.md gives the commit and the build), and the table compares
# the sustained bandwidth and the mean read latency.
#   tools/ddr-xcheck.sh [-o DIR] [--dramsim3 DIR] [--mixes "0 20 40 60 80 100"] [--no-run]
# --no-run: the traces are there; replay only.  Environment: SIM (more
# hostsim options, after make run's system), WIN (cycles, 2000000), RATE
# (GB/s, 32: above the 25.6 GB/s peak), N (synthetic transfers, 400000),
# CMDQ (DRAMsim3's per-bank command queues, cmd_queue_size: 8, its own
# configurations' value), TRANSQ (DRAMsim3's read queue and write buffer,
# trans_queue_size: 64, hostsim's ddr-rq and ddr-wq), HOSTSIM.
set -eu
cd "$(dirname "$0")/.."
OUT=out/ddr-xcheck DS3= MIXES="0 20 40 60 80 100" RUN=1
while [ $# -gt 0 ]; do
	case $1 in
	-o) OUT=$2; shift 2 ;;
	--dramsim3) DS3=$2; shift 2 ;;
	--mixes) MIXES=$2; shift 2 ;;
	--no-run) RUN=0; shift ;;
	*) echo "usage: tools/ddr-xcheck.sh [-o DIR] [--dramsim3 DIR] [--mixes \"0 20 ...\"] [--no-run]" >&2; exit 2 ;;
	esac
done
SIM=${SIM:-} WIN=${WIN:-2000000} RATE=${RATE:-32} N=${N:-400000} CMDQ=${CMDQ:-8} TRANSQ=${TRANSQ:-64}
HS=${HOSTSIM:-build/bin/hostsim}
SYS="--config tools/configs/hostsim-ddr4.sim $SIM"
if [ -n "$DS3" ] && [ ! -x "$DS3/build/dramsim3main" ] && [ ! -x "$DS3/dramsim3main" ]; then
	echo "ddr-xcheck.sh: no dramsim3main under $DS3 (build DRAMsim3 there first: docs/memsys.md)" >&2
	exit 2
fi
make --no-print-directory all >/dev/null
mkdir -p "$OUT"
# the DRAMsim3 device and address conversion below are make run's: one
# DDR4-3200 channel and rank, the preset's geometry, map and XOR
if [ -n "$DS3" ]; then
	want="ddr-bankgroups=0 ddr-banks=0 ddr-channels=1 ddr-map=co2:bg:co:ch:ba:ra ddr-mts=0 ddr-preset=DDR4-3200 ddr-ranks=1 ddr-row=0 ddr-width=0 ddr-xor=1 freq-mhz=1000 line=64"
	got=$("$HS" $SYS --print-config | sed 's/  #.*//' | grep -E '^(ddr-(bankgroups|banks|channels|map|mts|preset|ranks|row|width|xor)|freq-mhz|line)=' | sort | tr '\n' ' ')
	[ "$got" = "$want " ] || { echo "ddr-xcheck.sh: --dramsim3 needs make run's device (want: $want; SIM gives: $got)" >&2; exit 2; }
fi

# field LOG MIX PAUSE KEY
field() { grep -ao "@RVM [0-9]* mess .* mix=$2 pause=$3 .*" "$1" | grep -o " $4=[0-9.]*" | head -1 | cut -d= -f2; }
image() { # OUT.elf key=value...
	local o=$1
	shift
	cp build/images/virt.elf "$o"
	build/bin/rvmess config "$o" --file tools/configs/hostsim.cfg >/dev/null
	build/bin/rvmess config "$o" suites=mess "$@" >/dev/null
}

if [ $RUN = 1 ]; then
	rm -f "$OUT/points.txt"
	for m in $MIXES; do
		# the curve, to choose the knee
		image "$OUT/m$m.elf" mess_mix="$m"
		"$HS" --harts 8 --mem-size 512M $SYS "$OUT/m$m.elf" >"$OUT/m$m.log"
		pauses=$(grep -ao "@RVM [0-9]* mess .* mix=$m pause=[0-9]* " "$OUT/m$m.log" | sed 's/.* pause=\([0-9]*\) /\1/' | sort -n | uniq)
		light=$(echo "$pauses" | tail -1)
		lat0=$(field "$OUT/m$m.log" "$m" "$light" nspl)
		knee=$(for p in $pauses; do echo "$p $(field "$OUT/m$m.log" "$m" "$p" nspl)"; done |
			awk -v l="$lat0" '$2 >= 1.5 * l { k = $1 } END { print k + 0 }')
		for pt in "light $light" "knee $knee" "sat 0"; do
			set -- $pt
			name=m$m-$1 p=$2
			image "$OUT/$name.elf" mess_mix="$m" mess_pause="$p"
			"$HS" --harts 8 --mem-size 512M $SYS --trace-mem "$OUT/$name.full" "$OUT/$name.elf" >"$OUT/$name.log"
			bw=$(field "$OUT/$name.log" "$m" "$p" bw_ctr) rd=$(field "$OUT/$name.log" "$m" "$p" rd_pct)
			lat=$(field "$OUT/$name.log" "$m" "$p" nspl)
			# bins of at least 50 000 cycles and 4 000 transfers at the point's
			# bandwidth; the last run of bins within 15 % of it and 5 points of
			# its read share; of that at most the last WIN cycles or 300 000
			# transfers' worth, whichever is longer
			range=$(awk -v bw="$bw" -v rd="$rd" -v win="$WIN" '
				BEGIN { B = int(4000 * 64000 / bw); if (B < 50000) B = 50000; w = int(300000 * 64000 / bw); if (w < win) w = win }
				{ b = int($1 / B); n[b]++; if ($2 == "r") r[b]++; if (b > hi) hi = b }
				END { for (b = hi; b >= 0; b--) { g = n[b] * 64000 / B; s = n[b] ? 100 * r[b] / n[b] : 0
						ok = g >= 0.85 * bw && g <= 1.15 * bw && s >= rd - 5 && s <= rd + 5
						if (ok && !e) e = b + 1; if (!ok && e) break; st = b }
					if (!e) exit 1
					lo = e * B - w; if (lo < st * B) lo = st * B
					print lo, e * B }' "$OUT/$name.full") ||
				{ echo "ddr-xcheck.sh: $name: no steady stretch near $bw MB/s, $rd % reads" >&2; exit 1; }
			set -- $range
			awk -v lo="$1" -v hi="$2" '$1 >= lo && $1 < hi' "$OUT/$name.full" >"$OUT/$name.trace"
			rm -f "$OUT/$name.full"
			echo "$name pause=$p bw_ctr=$bw rd_pct=$rd nspl=$lat cycles=$1..$2" >>"$OUT/points.txt"
		done
		# a synthetic stream: reads from one region, writes to another, the
		# saturated point's read share spread evenly, one transfer every
		# 64 / RATE ns, from seven sources (as make run's generators)
		awk -v n="$N" -v rate="$RATE" -v rd="$(field "$OUT/m$m-sat.log" "$m" 0 rd_pct)" 'BEGIN {
			for (i = 0; i < n; i++) { acc += rd; w = acc < 100; if (!w) acc -= 100
				a = w ? 2415919104 + 64 * nw++ : 2147483648 + 64 * nr++
				printf "%d %s 0x%x %d\n", int(i * 64 / rate), w ? "w" : "r", a, 1 + i % 7 } }' >"$OUT/m$m-stream.trace"
	done
fi

# ---- DRAMsim3 (with --dramsim3): the device as make run's, its trace -------
# The .ini: DDR4-3200 as hostsim's preset (memmodel_ddr_config.c), one
# channel and rank, 64-entry queues, open page; DRAMsim3 has no tRTW, so
# tRTRS 2 gives its read -> write spacing RL + BL/2 - WL + tRTRS the 2 idle
# clocks of hostsim's ddr-trtw; address_mapping rochrabacobg, into which the
# converter re-encodes hostsim's map (co2:bg:co:ch:ba:ra with the XOR), so
# both put a line in the same bank group, bank, row and column.
ds3_files() {
	cat >"$OUT/hostsim-ddr4-3200.ini" <<'INI'
[dram_structure]
protocol = DDR4
bankgroups = 4
banks_per_group = 4
rows = 65536
columns = 1024
device_width = 8
BL = 8
[timing]
tCK = 0.625
AL = 0
CL = 22
CWL = 16
tRCD = 22
tRP = 22
tRAS = 52
tRFC = 560
tRFC2 = 416
tRFC4 = 256
tREFI = 12480
tRPRE = 1
tWPRE = 1
tRRD_S = 4
tRRD_L = 8
tWTR_S = 4
tWTR_L = 12
tFAW = 34
tWR = 24
tWR2 = 25
tRTP = 12
tCCD_S = 4
tCCD_L = 8
tCKE = 8
tCKESR = 9
tXS = 576
tXP = 10
tRTRS = 2
[power]
VDD = 1.2
IDD0 = 57
IPP0 = 3.0
IDD2P = 25
IDD2N = 37
IDD3P = 43
IDD3N = 52
IDD4W = 150
IDD4R = 168
IDD5AB = 250
IDD6x = 30
[system]
channel_size = 8192
channels = 1
bus_width = 64
address_mapping = rochrabacobg
queue_structure = PER_BANK
refresh_policy = RANK_LEVEL_STAGGERED
row_buf_policy = OPEN_PAGE
cmd_queue_size = 8
trans_queue_size = 64
[other]
epoch_period = 1600000
output_level = 1
INI
	sed -i -e "s/^cmd_queue_size = 8\$/cmd_queue_size = $CMDQ/" \
		-e "s/^trans_queue_size = 64\$/trans_queue_size = $TRANSQ/" "$OUT/hostsim-ddr4-3200.ini"
	# "CYCLE r|w 0xADDR ..." (1 GHz core cycles, leaving the LLC) -> "0xADDR
	# READ|WRITE CLOCK": sorted by cycle (DRAMsim3 needs it), the clock the
	# request reaches the controller (ddr-frontend / 2 later, rounded up to
	# tCK 0.625 ns), less whole refresh intervals (7800 ns) so that both
	# refresh at the same times; the address re-encoded (above)
	cat >"$OUT/ds3-convert.py" <<'PY'
import sys
recs = []
for ln in sys.stdin:
    p = ln.split()
    recs.append((int(p[0]), p[1] == "w", int(p[2], 16) >> 6))
recs.sort(key=lambda t: t[0])
shift = (recs[0][0] + 20) // 7800 * 7800
for cyc, w, line in recs:
    co = (line & 3) | ((line >> 4) & 31) << 2
    bg, ba, row = (line >> 2) & 3, (line >> 9) & 3, line >> 11
    x, r = 0, row
    while r:
        x ^= r & 15
        r >>= 4
    bg ^= x & 3
    ba ^= x >> 2
    a = (bg | co << 2 | ba << 9 | (row % 65536) << 11) << 6
    print("0x%x %s %d" % (a, "WRITE" if w else "READ", ((cyc + 20 - shift) * 8 + 4) // 5))
PY
}
# One trace on DRAMsim3's own trace driver, run for the trace's span: the
# transfers done within it over it (what it sustains; a light trace's own
# rate) and its average_read_latency (a read entering its queue to its data
# back, clocks) -> "GB/s ns"
ds3() {
	local d=$OUT/ds3/$1 bin=$DS3/build/dramsim3main
	[ -x "$bin" ] || bin=$DS3/dramsim3main
	mkdir -p "$d"
	python3 "$OUT/ds3-convert.py" <"$OUT/$1.trace" >"$d/in.trace"
	local c0 c1
	c0=$(head -1 "$d/in.trace" | cut -d' ' -f3) c1=$(tail -1 "$d/in.trace" | cut -d' ' -f3)
	"$bin" "$OUT/hostsim-ddr4-3200.ini" -c "$c1" -t "$d/in.trace" -o "$d" >"$d/run.log" 2>&1
	python3 - "$d/dramsim3.json" "$c0" "$c1" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["0"]
c0, c1 = int(sys.argv[2]), int(sys.argv[3])
n = s["num_reads_done"] + s["num_writes_done"]
print("%.3f %.2f" % (n * 64 / ((c1 - c0) * 0.625), s["average_read_latency"] * 0.625))
PY
}
[ -z "$DS3" ] || ds3_files

# hostsim: --replay-mem on make run's system without the per-hart share
# (ddr-src-rq 0: DRAMsim3 knows no source, and open loop a share holds a
# hart's reads outside the queue however long), its latency in the same
# terms as DRAMsim3's: less the wait to enter the read queue and the front end
fe=$("$HS" $SYS --print-config | sed -n 's/^ddr-frontend=\([0-9]*\).*/\1/p')
printf '%-14s %9s %6s %8s | %8s %8s | %8s %8s | %7s %7s\n' trace transfers read% offered hs_GB/s hs_ns ds3_GB/s ds3_ns d_GB/s% d_ns% >"$OUT/table.txt"
ls "$OUT"/m*.trace >/dev/null 2>&1 || { echo "ddr-xcheck.sh: no traces in $OUT (run without --no-run first)" >&2; exit 2; }
for t in "$OUT"/m*.trace; do
	name=$(basename "$t" .trace)
	"$HS" $SYS --ddr-src-rq 0 --replay-mem "$t" >"$OUT/$name.replay"
	off=$(awk 'NR == 1 || $1 < lo { lo = $1 } $1 > hi { hi = $1 } END { printf "%.2f", NR * 64 / (hi - lo) }' "$t")
	set -- $(awk -v fe="$fe" '/transfers \(/ { n = $5; r = substr($7, 2) } /^replay: bandwidth/ { bw = $3 }
		/read latency mean/ { l = $5 } /read queue:/ { for (i = 1; i <= NF; i++) if ($i == "waited);") w = substr($(i - 2), 2) }
		END { printf "%s %.1f %s %.2f", n, 100 * r / n, bw, l - w / r - fe }' "$OUT/$name.replay")
	n=$1 rd=$2 hbw=$3 hlat=$4
	if [ -n "$DS3" ]; then
		set -- $(ds3 "$name")
		printf '%-14s %9s %6s %8s | %8s %8s | %8s %8s | %7.1f %7.1f\n' "$name" "$n" "$rd" "$off" "$hbw" "$hlat" "$1" "$2" \
			"$(awk -v a="$hbw" -v b="$1" 'BEGIN { print 100 * (a - b) / b }')" "$(awk -v a="$hlat" -v b="$2" 'BEGIN { print 100 * (a - b) / b }')"
	else
		printf '%-14s %9s %6s %8s | %8s %8s |\n' "$name" "$n" "$rd" "$off" "$hbw" "$hlat"
	fi >>"$OUT/table.txt"
done
cat "$OUT/table.txt"
