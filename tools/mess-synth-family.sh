#!/usr/bin/env bash
# A synthetic server-class Mess curve family with the features of the
# families the Mess project publishes (docs/mess.md "Synthetic families"):
# 51 files bwlat_<R>.txt (R = read % 0..100 step 2), rows "MB/s ns" in the
# public files' order (highest latency first), about 43 rows a curve; a
# knee, a wave after the highest bandwidth (bandwidth falling while latency
# still rises), and the artefacts of their smoothing: two rows of negative
# bandwidth at the unloaded end (latency a hair below the unloaded one), a
# row out of order on the steep part (its bandwidth below that of a row of
# lower latency) and a duplicated row.
#
#   tools/mess-synth-family.sh -o DIR [--peak GBPS] [--unloaded NS] [--maxlat X]
#                              [--write-peak F] [--wave PCT] [--no-artefacts]
#
# --peak: the 100 %-reads curve's highest bandwidth (default 285 GB/s);
# ratio R peaks at peak x (F + (1 - F) x R / 100), F = --write-peak (0.85);
# --unloaded: the latency at zero bandwidth (default 122 ns);
# --maxlat: the latency at the highest bandwidth over the unloaded one, for
#   100 % reads (default 2.4; 40 % reads reach 1.5 x that, as in the DDR5
#   server family, and every curve ends 8 % past its maximum's latency);
# --wave: how far the bandwidth falls after its highest (default 1.5 %).
# Shape (u = bandwidth / the curve's highest): L(u) = L0 (1 + a u +
# b u / (1.03 - u)), a = 0.08, b chosen so that L(1) = maxlat x L0; the
# rows sit at u = 1 - (1 - j / 36)^2, denser near the knee.
set -eu
OUT= PEAK=285 UNL=122 MAXLAT=2.4 WP=0.85 WAVE=1.5 ART=1
while [ $# -gt 0 ]; do
	case $1 in
	-o) OUT=$2; shift ;;
	--peak) PEAK=$2; shift ;;
	--unloaded) UNL=$2; shift ;;
	--maxlat) MAXLAT=$2; shift ;;
	--write-peak) WP=$2; shift ;;
	--wave) WAVE=$2; shift ;;
	--no-artefacts) ART=0 ;;
	*) echo "usage: $0 -o DIR [--peak GBPS] [--unloaded NS] [--maxlat X] [--write-peak F] [--wave PCT] [--no-artefacts]" >&2; exit 2 ;;
	esac
	shift
done
[ -n "$OUT" ] || { echo "$0: -o DIR is required" >&2; exit 2; }
mkdir -p "$OUT"
for R in $(seq 0 2 100); do
	awk -v R="$R" -v P="$PEAK" -v L0="$UNL" -v F="$MAXLAT" -v WP="$WP" -v W="$WAVE" -v ART="$ART" 'BEGIN {
		peak = P * 1000 * (WP + (1 - WP) * R / 100)          # MB/s
		# the maximum latency: highest near 40 % reads (x 1.5), as measured
		d = (R - 40) / 60; if (d < 0) d = -d * 60 / 40
		f = 1 + (F - 1) * (1.5 - 0.5 * d)
		a = 0.08; e = 0.03; b = (f - 1 - a) * e
		n = 0
		for (j = 0; j <= 36; j++) {
			u = 1 - (1 - j / 36) ^ 2
			bw[n] = u * peak; lat[n] = L0 * (1 + a * u + b * u / (1 + e - u)); n++
		}
		lmax = lat[n - 1]
		for (k = 1; k <= 4; k++) {                             # the wave
			bw[n] = peak * (1 - W / 100 * k / 4); lat[n] = lmax * (1 + 0.02 * k); n++
		}
		if (ART) {
			# smoothing artefacts: negative bandwidth at the unloaded end
			bw[n] = -0.0025 * peak; lat[n] = L0 - 0.05; n++
			bw[n] = -0.0055 * peak; lat[n] = L0 - 0.1; n++
			# out of order on the steep part: the row of u = 0.99 gets a
			# bandwidth below the one before it
			for (i = 0; i < n; i++) if (bw[i] > 0.985 * peak && bw[i] < 0.995 * peak) { bw[i] = 0.97 * peak; break }
			bw[n] = bw[10]; lat[n] = lat[10]; n++               # a duplicate row
		}
		# highest latency first, as the public files are
		for (i = 0; i < n; i++) ord[i] = i
		for (i = 1; i < n; i++) { v = ord[i]; for (j = i - 1; j >= 0 && lat[ord[j]] < lat[v]; j--) ord[j + 1] = ord[j]; ord[j + 1] = v }
		for (i = 0; i < n; i++) printf "%.3f %.3f\n", bw[ord[i]], lat[ord[i]]
	}' >"$OUT/bwlat_$R.txt"
done
cat >"$OUT/README" <<EOF
A synthetic Mess curve family (tools/mess-synth-family.sh --peak $PEAK --unloaded $UNL
--maxlat $MAXLAT --write-peak $WP --wave $WAVE$([ "$ART" = 1 ] || echo " --no-artefacts")): rows "MB/s ns", highest latency first.
EOF
