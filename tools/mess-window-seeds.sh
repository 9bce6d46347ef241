#!/usr/bin/env bash
# make run's Mess family with the window rule against the same family with
# fixed long windows, each run with several seeds, so every point's own
# run-to-run scatter is measured, not assumed (docs/mess.md, "When a
# point's window ends").  Both use this tree's image on make run's hostsim
# system (tools/configs/hostsim.cfg with suites=mess, 8 harts,
# tools/configs/hostsim-ddr4.sim): the rule with the image's defaults,
# seeds 1..N; the fixed windows with mess_tol=0 (mess_window_loads, 10 000
# loads), seeds 1..M.  Per point it prints the fixed windows' mean and
# standard deviation over their seeds, make run's point (seed 1) under each,
# the rule's mean and deviation over its seeds, and two verdicts:
#   - make run's point: its two values within 1 % ("1%"), or within their
#     own scatter, t(v) sqrt(sR^2 + sF^2) with Welch's v ("scatter"), or
#     "OUT";
#   - the rule's bias: its mean against the fixed windows' mean, "bias" when
#     they differ by more than 1 % and by more than t(v) times their
#     standard error.
# Then the counts, and how many points a 95 % test puts outside by chance
# (5 %).  A benchmark, not a test: about 16 x 0.5 G + 4 x 3.5 G simulated
# cycles (14 CPU-minutes here, 7 minutes of wall time with -j 2).
#
#   tools/mess-window-seeds.sh [-o DIR] [--rule-seeds N] [--fixed-seeds M] [-j J] [--no-run]
#
#   --rule-seeds N   seeds of the rule's runs (default 16)
#   --fixed-seeds M  seeds of the fixed windows' runs (default 4)
#   -j J             runs at once (default 2)
#   --no-run         only compare the logs already in DIR (rule-S.log, fixed-S.log)
set -eu
cd "$(dirname "$0")/.."
OUT=out/mess-window-seeds
NR=16 NF=4 J=2 RUN=1
while [ $# -gt 0 ]; do
	case $1 in
	-o) OUT=$2; shift 2 ;;
	--rule-seeds) NR=$2; shift 2 ;;
	--fixed-seeds) NF=$2; shift 2 ;;
	-j) J=$2; shift 2 ;;
	--no-run) RUN=0; shift ;;
	*) echo "usage: $0 [-o DIR] [--rule-seeds N] [--fixed-seeds M] [-j J] [--no-run]" >&2; exit 2 ;;
	esac
done
num() { case $1 in '' | *[!0-9]*) return 1 ;; esac; [ "$1" -ge "$2" ]; }
if ! { num "$NR" 2 && num "$NF" 2 && num "$J" 1; }; then
	echo "mess-window-seeds: seeds want 2 or more and -j 1 or more (got $NR, $NF, $J)" >&2
	exit 2
fi
mkdir -p "$OUT"
if [ $RUN = 1 ]; then
	make --no-print-directory -s all >/dev/null
	grep -v '^suites=' tools/configs/hostsim.cfg >"$OUT/family.cfg"
	echo "suites=mess" >>"$OUT/family.cfg"
	jobs=()
	for s in $(seq 1 "$NF"); do jobs+=("fixed $s mess_tol=0"); done
	for s in $(seq 1 "$NR"); do jobs+=("rule $s"); done
	one() { # KIND SEED [KEYS...]
		local k=$1 s=$2
		shift 2
		cp build/images/virt.elf "$OUT/$k-$s.elf"
		build/bin/rvmess config "$OUT/$k-$s.elf" --file "$OUT/family.cfg" seed="$s" "$@" >/dev/null &&
			build/bin/hostsim --harts 8 --mem-size 512M --config tools/configs/hostsim-ddr4.sim \
				"$OUT/$k-$s.elf" >"$OUT/$k-$s.log" 2>/dev/null
	}
	n=0
	for j in "${jobs[@]}"; do
		# shellcheck disable=SC2086
		one $j &
		n=$((n + 1))
		if [ "$n" -ge "$J" ]; then wait -n || { echo "mess-window-seeds: a run failed" >&2; exit 1; }; n=$((n - 1)); fi
	done
	while [ "$n" -gt 0 ]; do wait -n || { echo "mess-window-seeds: a run failed" >&2; exit 1; }; n=$((n - 1)); done
fi

# KIND SEED -> "KIND SEED mix/pause nspl" per mess record
for k in fixed rule; do
	[ $k = fixed ] && N=$NF || N=$NR
	for s in $(seq 1 "$N"); do
		f=$OUT/$k-$s.log
		[ -f "$f" ] || { echo "mess-window-seeds: $f missing" >&2; exit 1; }
		c=$(grep -ac '@RVM [0-9]* mess ' "$f" || true)
		[ "$c" = 96 ] || { echo "mess-window-seeds: $f has $c mess records, not 96" >&2; exit 1; }
		grep -ao '@RVM [0-9]* mess .*' "$f" | awk -v k=$k -v s="$s" '
			function f(x) { return match($0, " " x "=[0-9.]*") ? substr($0, RSTART + length(x) + 2, RLENGTH - length(x) - 2) : "-" }
			{ print k, s, f("mix") "/" f("pause"), f("nspl") }'
	done
done | awk '
# two-sided 95 % t quantile for v degrees of freedom (v >= 1, rounded down)
function tq(v,   T) { v = int(v); if (v < 1) v = 1
	split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", T, " ")
	return v <= 30 ? T[v] : v <= 40 ? 2.021 : v <= 60 ? 2.000 : v <= 120 ? 1.980 : 1.960 }
# Welch-Satterthwaite degrees of freedom of a/na + b/nb (a, b variances)
function welch(a, na, b, nb,   x, y) { x = a / na; y = b / nb
	return (x + y) ^ 2 / (x ^ 2 / (na - 1) + y ^ 2 / (nb - 1) + 1e-300) }
{ if (!(($3) in seen)) { seen[$3] = 1; order[++np] = $3 }
  n[$1, $3]++; v[$1, $3, n[$1, $3]] = $4; if ($2 == 1) one[$1, $3] = $4 }
function stats(k, p,   i, m, q, c) { c = n[k, p]; m = 0; for (i = 1; i <= c; i++) m += v[k, p, i]; m /= c
	q = 0; for (i = 1; i <= c; i++) q += (v[k, p, i] - m) ^ 2; MEAN = m; VAR = q / (c - 1); return c }
END {
	printf "%-10s %9s %6s %9s %9s %7s %9s %6s %7s %7s  %-7s %s\n", "point", "fixed", "sF%", "fixed s1", "rule s1", "s1 d%", "rule", "sR%", "bias%", "b/se", "s1", "bias"
	for (i = 1; i <= np; i++) {
		p = order[i]
		nf = stats("fixed", p); mf = MEAN; vf = VAR
		nr = stats("rule", p); mr = MEAN; vr = VAR
		f1 = one["fixed", p]; r1 = one["rule", p]
		d1 = r1 - f1
		# make run s point (seed 1): one draw of each
		h1 = tq(welch(vr, nr, vf, nf)) * sqrt(vr + vf)
		s1 = (d1 * d1 <= (0.01 * f1) ^ 2) ? "1%" : (d1 * d1 <= h1 * h1) ? "scatter" : "OUT"
		# the rule s bias: the two means
		se = sqrt(vr / nr + vf / nf); b = mr - mf
		bias = (b * b > (0.01 * mf) ^ 2 && b * b > (tq(welch(vr, nr, vf, nf)) * se) ^ 2) ? "bias" : "-"
		c1[s1]++; cb[bias]++
		printf "%-10s %9.2f %6.2f %9.2f %9.2f %+7.2f %9.2f %6.2f %+7.2f %+7.2f  %-7s %s\n", p, mf, 100 * sqrt(vf) / mf, f1, r1, 100 * d1 / f1, mr, 100 * sqrt(vr) / mr, 100 * b / mf, (se > 0 ? b / se : 0), s1, bias
	}
	printf "\nseed 1 (make run'"'"'s), the rule against fixed windows: %d of %d within 1 %%, %d more within their own scatter, %d outside (a 95 %% test puts %.1f outside by chance)\n", c1["1%"], np, c1["scatter"], c1["OUT"], 0.05 * (np - c1["1%"])
	printf "the rule'"'"'s mean over %d seeds against the fixed windows over %d: %d of %d points differ by more than 1 %% and more than their standard error allows (95 %%)\n", nr, nf, cb["bias"] + 0, np
}'
