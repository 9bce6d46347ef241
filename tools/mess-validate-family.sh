#!/usr/bin/env bash
# Closed loop on a given curve family (docs/mess.md "Closed loop on server
# families"): replay FAMILY in hostsim --mem-model mess with enough harts
# and MSHRs to saturate it, re-measure it with the Mess suite, and compare
# what the suite measured with the family itself, as the controller reads it
# at each point's read share (`rvmess sim ref`: the two curves around the
# share blended).
#
#   tools/mess-validate-family.sh FAMILY [--small] [--curve-mhz F] [--harts N]
#                                 [--mshrs N] [--store-buffer N] [--loads N]
#                                 [--window N] [--out DIR] [--grid "KEY=V ..."]
#
# Defaults: 64 harts, 32 MSHRs and store-buffer entries each, 16 000 chase
# loads per point, the controller's window 1000 (hostsim's default), mixes
# 0, 20, ..., 100 % stores, pauses from saturation to light load for 64
# harts (--small: mixes 0, 50, 100 and 7 pauses: the CI grid).
# The table per mix: the unloaded latency (the largest pause: measured, and
# the family's at that point's bandwidth and read share), the saturated
# bandwidth (where the latency reaches twice the unloaded one:
# mess_metrics.txt, and the family's at the same threshold), the maximum
# latency (the family's: the highest latency of its curve at the heaviest
# point's read share), then the latency error against the family at the
# same bandwidth and read share, mean and max over the points below twice
# the unloaded latency where the family's curve is not near-vertical
# (elasticity (dL/L)/(dB/B) <= 10).  Then the goals over all mixes:
# unloaded <= 1 %, saturated bandwidth range <= 1 %, maximum latency range
# <= 2 %, mean per-point latency error <= 2 %, and a last line
# "verdict: ..." naming each met or missed.  Exit 0 once the table is
# printed, 1 when a run fails.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
FAM= OUT=out/mess-validate-family SMALL=0 CMHZ=0 HARTS=64 MSHRS=32 SB=32 LOADS=16000 WIN=1000 GRID=
while [ $# -gt 0 ]; do
	case $1 in
	--small) SMALL=1 ;;
	--curve-mhz) CMHZ=$2; shift ;;
	--harts) HARTS=$2; shift ;;
	--mshrs) MSHRS=$2; shift ;;
	--store-buffer) SB=$2; shift ;;
	--loads) LOADS=$2; shift ;;
	--window) WIN=$2; shift ;;
	--out) OUT=$2; shift ;;
	--grid) GRID=$2; shift ;;
	-*) echo "usage: $0 FAMILY [--small] [--curve-mhz F] [--harts N] [--mshrs N] [--store-buffer N] [--loads N] [--window N] [--out DIR] [--grid \"KEY=V ...\"]" >&2; exit 2 ;;
	*) FAM=$1 ;;
	esac
	shift
done
[ -n "$FAM" ] || { echo "$0: FAMILY is required" >&2; exit 2; }
if [ -z "$GRID" ]; then
	if [ "$SMALL" = 1 ]; then
		GRID="mess_mix=0,50,100 mess_pause=0,128,256,512,1024,4096,65536"
	else
		GRID="mess_mix=0,20,40,60,80,100 mess_pause=0,64,128,192,256,384,512,768,1024,2048,4096,16384,65536"
	fi
fi
mkdir -p "$OUT"
cp "$BUILD/images/virt.elf" "$OUT/virt.elf"
# shellcheck disable=SC2086
"$BUILD/bin/rvmess" config "$OUT/virt.elf" suites=mess reps=1 warmups=1 mess_chase_size=32M mess_gen_size=2M \
	mess_tol=0 mess_window_loads="$LOADS" $GRID >/dev/null
"$BUILD/bin/hostsim" --harts "$HARTS" --mshrs "$MSHRS" --store-buffer "$SB" --mem-size 2G --stats --mem-model mess \
	--mess-curves "$FAM" --mess-curve-mhz "$CMHZ" --mess-window "$WIN" "$OUT/virt.elf" >"$OUT/mess.log" 2>"$OUT/mess.err" ||
	{ echo "mess run failed: $(tail -2 "$OUT/mess.err")" >&2; exit 1; }
rm -rf "$OUT/mess"
"$BUILD/bin/rvmess" parse "$OUT/mess.log" -o "$OUT/mess" -q >/dev/null || { echo "parse of the mess run failed" >&2; exit 1; }

# "mix pause bw_MBps lat_ns rd_pct" per mess record (counter bandwidth)
grep -ao '@RVM [0-9]* mess .*' "$OUT/mess.log" | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	print f["mix"], f["pause"], (f["src"] == "ctr" ? f["bw_ctr"] : f["bw_iss"]), f["nspl"], f["rd_pct"] }' >"$OUT/mess.pts"
# the family at each point, and at 1 % more bandwidth (the curve's elasticity there)
awk '{ print $5, $3; print $5, $3 * 1.01 }' "$OUT/mess.pts" |
	"$BUILD/bin/rvmess" sim ref "$FAM" --curve-mhz "$CMHZ" >"$OUT/ref.pts" 2>/dev/null
# the unloaded latency the metrics use: the median over mixes of the
# largest pause's latency, measured and the family's
unl=$(awk 'NR == FNR { r[FNR] = $3; next } { n++; lat[n] = $4; ref[n] = r[2 * n - 1]; mix[n] = $1; p[n] = $2 }
	END { for (i = 1; i <= n; i++) if (!(mix[i] in big) || p[i] > big[mix[i]]) { big[mix[i]] = p[i]; m[mix[i]] = lat[i]; f[mix[i]] = ref[i] }
		k = 0; for (x in m) { k++; a[k] = m[x]; b[k] = f[x] }
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) { if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } if (b[j] < b[i]) { t = b[i]; b[i] = b[j]; b[j] = t } }
		printf "%.6f %.6f", k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2, k % 2 ? b[(k + 1) / 2] : (b[k / 2] + b[k / 2 + 1]) / 2 }' \
	"$OUT/ref.pts" "$OUT/mess.pts")
unl_ref=${unl#* }
# per mix, the family at the heaviest point's read share: its saturated
# bandwidth at twice its own unloaded latency, its highest latency
awk '{ if (!($1 in p) || $2 < p[$1]) { p[$1] = $2; r[$1] = $5 } } END { for (m in r) print m, r[m] }' "$OUT/mess.pts" | sort -n >"$OUT/mix.rd"
awk -v u="$unl_ref" '{ print $2, 0, 2 * u }' "$OUT/mix.rd" | "$BUILD/bin/rvmess" sim ref "$FAM" --curve-mhz "$CMHZ" 2>/dev/null |
	paste -d' ' "$OUT/mix.rd" - >"$OUT/mix.ref"
awk '/^stores/ { t = 1; next } t && NF == 6 { print $1, $3, $5 }' "$OUT/mess/mess_metrics.txt" >"$OUT/mess.sat"

echo "closed loop on $FAM: $HARTS harts, $MSHRS MSHRs, store buffer $SB; window $WIN; $LOADS chase loads per point"
awk -v goal_unl=1 -v goal_max=2 -v goal_sat=1 -v goal_pt=2 -v U="${unl% *}" -v UR="$unl_ref" '
function abs(x) { return x < 0 ? -x : x }
function pct(a, b) { return b == 0 ? 0 : 100 * (a - b) / b }
FILENAME ~ /ref\.pts$/ { n1++; if (n1 % 2) { rl[(n1 + 1) / 2] = $3 } else { rl2[n1 / 2] = $3 }; next }
FILENAME ~ /mess\.pts$/ { k++; mx[k] = $1; mp[k] = $2; mb[k] = $3; ml[k] = $4; mixes[$1] = 1; next }
FILENAME ~ /mix\.ref$/ { rsat[$1] = $7 / 1000; rmax[$1] = $9; next }
FILENAME ~ /mess\.sat$/ { msat[$1] = $2; mmax[$1] = $3; next }
END {
	printf "%-4s %8s %8s %6s | %7s %7s %6s | %7s %7s %6s | %13s\n", "mix", "unl fam", "unl mess", "err%",
		"sat fam", "sat mes", "err%", "max fam", "max mes", "err%", "lat@bw mn/mx"
	for (m = 0; m <= 100; m++) {
		if (!(m in mixes)) continue
		big = -1; s1 = w1 = c1 = 0
		for (i = 1; i <= k; i++) {
			if (mx[i] != m) continue
			if (mp[i] > big) { big = mp[i]; ul = ml[i]; ur = rl[i] }
			el = rl[i] > 0 ? ((rl2[i] - rl[i]) / rl[i]) / 0.01 : 0
			if (ml[i] < 2 * U && el <= 10) { e = abs(pct(ml[i], rl[i])); s1 += e; c1++; if (e > w1) w1 = e }
		}
		S1 += s1; C1 += c1; if (w1 > W1) W1 = w1
		eu = pct(ul, ur); if (abs(eu) > wu) wu = abs(eu)
		ms = msat[m]; rs = rsat[m]
		es = ms == "-" || ms == "" ? "-" : sprintf("%.2f", pct(ms, rs))
		em = pct(mmax[m], rmax[m])
		printf "%-4d %8.2f %8.2f %6.2f | %7.2f %7s %6s | %7.1f %7.1f %6.2f | %6.2f %6.2f\n", m, ur, ul, eu,
			rs, ms, es, rmax[m], mmax[m], em, c1 ? s1 / c1 : 0, w1
		if (ms != "-" && ms != "") { if (!ns || ms < smlo) smlo = ms; if (!ns || ms > smhi) smhi = ms
			if (!ns || rs < srlo) srlo = rs; if (!ns || rs > srhi) srhi = rs; ns++ }
		if (!nx || mmax[m] < xmlo) xmlo = mmax[m]; if (!nx || mmax[m] > xmhi) xmhi = mmax[m]
		if (!nx || rmax[m] < xrlo) xrlo = rmax[m]; if (!nx || rmax[m] > xrhi) xrhi = rmax[m]; nx++
	}
	esat = ns ? (abs(pct(smlo, srlo)) > abs(pct(smhi, srhi)) ? abs(pct(smlo, srlo)) : abs(pct(smhi, srhi))) : -1
	emax = abs(pct(xmlo, xrlo)) > abs(pct(xmhi, xrhi)) ? abs(pct(xmlo, xrlo)) : abs(pct(xmhi, xrhi))
	mean = C1 ? S1 / C1 : 0
	printf "\nunloaded latency, worst mix          %6.2f %%  (goal <= %s %%)\n", wu, goal_unl
	if (esat >= 0) printf "saturated bandwidth range            %6.2f %%  (goal <= %s %%)  family %.2f..%.2f GB/s, mess %.2f..%.2f GB/s\n", esat, goal_sat, srlo, srhi, smlo, smhi
	else printf "saturated bandwidth range                 -    (no mix reaches 2x unloaded)\n"
	printf "maximum latency range                %6.2f %%  (goal <= %s %%)  family %.1f..%.1f ns, mess %.1f..%.1f ns\n", emax, goal_max, xrlo, xrhi, xmlo, xmhi
	printf "latency at equal bandwidth           mean %.2f %%, max %.2f %% over %d points below 2x unloaded  (goal: mean <= %s %%)\n", mean, W1, C1, goal_pt
	v = (wu <= goal_unl ? "unloaded met" : sprintf("unloaded MISSED by %.2f points", wu - goal_unl))
	v = v ", " (esat < 0 ? "saturated n/a" : esat <= goal_sat ? "saturated met" : sprintf("saturated MISSED by %.2f points", esat - goal_sat))
	v = v ", " (emax <= goal_max ? "max-latency met" : sprintf("max-latency MISSED by %.2f points", emax - goal_max))
	v = v ", " (mean <= goal_pt ? "per-point met" : sprintf("per-point MISSED by %.2f points", mean - goal_pt))
	print "verdict: " v
}' "$OUT/ref.pts" "$OUT/mess.pts" "$OUT/mix.ref" "$OUT/mess.sat"
