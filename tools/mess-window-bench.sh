#!/usr/bin/env bash
# make run's Mess family with today's fixed long windows and with the
# adaptive rule (docs/mess.md, "When a point's window ends"), on make run's
# hostsim system (tools/configs/hostsim.cfg with suites=mess, 8 harts,
# tools/configs/hostsim-ddr4.sim), same seed.  Prints per point the
# reference latency, the spread of the reference's own long windows (its
# scatter: the reference run and a run of REPS more windows per point), the
# new latency, their difference, the new point's 95 % interval and loads;
# then the Mess suite's simulated cycles of each (hostsim --console-stamps:
# from the last `hart` record to the `end` record) and their ratio.  Each
# point is within 1 % of the reference ("1%"), or within the 95 %
# prediction interval of the reference's own windows, t(n-1) s sqrt(1 +
# 1/n) about their mean ("PI"), or within that and its own interval
# together, sqrt(PI^2 + ci^2) ("PI+ci"), or outside; each reference window
# against the others by the first two tests says how well the reference
# reproduces itself.  A benchmark, not a test: about 10 G simulated cycles.
#
#   tools/mess-window-bench.sh [-o DIR] [--ref-tree DIR] [--reps N] [--new "KEY=VAL ..."] [--no-run]
#
#   --ref-tree DIR  the reference is DIR's build/images/virt.elf, configured
#                   by DIR's build/bin/rvmess (an older tree: today's main);
#                   default: this tree's image with mess_tol=0 (a fixed
#                   window of mess_window_loads)
#   --reps N        extra reference windows per point for its scatter (default 3)
#   --new KEYS      config keys for the new run (default: the image's defaults)
#   --no-run        only compare the logs already in DIR (ref, reps, new: .log
#                   and .stamps)
set -eu
cd "$(dirname "$0")/.."
OUT=out/mess-window-bench
REF_TREE=""
REPS=3
NEW=""
RUN=1
while [ $# -gt 0 ]; do
	case $1 in
	-o) OUT=$2; shift 2 ;;
	--ref-tree) REF_TREE=$2; shift 2 ;;
	--reps) REPS=$2; shift 2 ;;
	--new) NEW=$2; shift 2 ;;
	--no-run) RUN=0; shift ;;
	*) echo "usage: $0 [-o DIR] [--ref-tree DIR] [--reps N] [--new \"KEY=VAL ...\"]" >&2; exit 2 ;;
	esac
done
if [ $RUN = 1 ]; then
make --no-print-directory -s all >/dev/null
mkdir -p "$OUT"
grep -v '^suites=' tools/configs/hostsim.cfg >"$OUT/family.cfg"
echo "suites=mess" >>"$OUT/family.cfg"

if [ -n "$REF_TREE" ]; then
	REF_ELF=$REF_TREE/build/images/virt.elf REF_RV=$REF_TREE/build/bin/rvmess REF_KEYS=""
else
	REF_ELF=build/images/virt.elf REF_RV=build/bin/rvmess REF_KEYS="mess_tol=0"
fi
# shellcheck disable=SC2086
{
	cp "$REF_ELF" "$OUT/ref.elf" && "$REF_RV" config "$OUT/ref.elf" --file "$OUT/family.cfg" $REF_KEYS >/dev/null &&
	cp "$REF_ELF" "$OUT/reps.elf" && "$REF_RV" config "$OUT/reps.elf" --file "$OUT/family.cfg" $REF_KEYS reps="$REPS" >/dev/null &&
	cp build/images/virt.elf "$OUT/new.elf" && build/bin/rvmess config "$OUT/new.elf" --file "$OUT/family.cfg" $NEW >/dev/null
} || { echo "mess-window-bench: rvmess config failed" >&2; exit 1; }

run() { # NAME
	build/bin/hostsim --harts 8 --mem-size 512M --config tools/configs/hostsim-ddr4.sim \
		--console-stamps "$OUT/$1.stamps" "$OUT/$1.elf" >"$OUT/$1.log" 2>/dev/null
}
run new & run ref & wait
run reps
fi

# NAME -> "mix/pause nspl ci loads settle batch" per mess record, in order
points() {
	grep -ao '@RVM [0-9]* mess .*' "$OUT/$1.log" | awk '
		function f(k) { return match($0, " " k "=[0-9.]*") ? substr($0, RSTART + length(k) + 2, RLENGTH - length(k) - 2) : "-" }
		{ print f("mix") "/" f("pause"), f("nspl"), f("ci"), f("loads"), f("settle"), f("batch") }'
}
# NAME -> simulated cycles from the last `hart` record to the `end` record
cycles() {
	paste -d' ' <(cut -d' ' -f1 "$OUT/$1.stamps") <(cut -d' ' -f3 "$OUT/$1.log") |
		awk '$2 == "hart" { h = $1 } $2 == "end" { e = $1 } END { print e - h }'
}
points ref >"$OUT/ref.pts"; points reps >"$OUT/reps.pts"; points new >"$OUT/new.pts"
cref=$(cycles ref) cnew=$(cycles new)

awk -v cref="$cref" -v cnew="$cnew" '
# mean, and the half-width of the 95 % prediction interval for one more
# window, t(n-1) s sqrt(1 + 1/n), of the values v[1..n]
function pi(v, n,   i, m, q) { m = 0; for (i = 1; i <= n; i++) m += v[i]; m /= n
	q = 0; for (i = 1; i <= n; i++) q += (v[i] - m) ^ 2
	M = m; return (n == 4 ? 3.182 : n == 3 ? 4.303 : 12.706) * sqrt(q / (n - 1)) * sqrt(1 + 1 / n) }
FILENAME ~ /ref.pts$/ { r[$1] = $2; order[++n] = $1; next }
FILENAME ~ /reps.pts$/ { w[$1, ++k[$1]] = $2; next }
{ v[$1] = $2; ci[$1] = $3; ld[$1] = $4 + $5 * $6; next }
END {
	printf "%-10s %9s %19s %7s %9s %8s %7s %6s  %s\n", "point", "ref ns", "ref windows ns", "PI ns", "new ns", "new-ref", "ci", "loads", "pass"
	for (i = 1; i <= n; i++) {
		p = order[i]; lo = hi = r[p]; x[1] = r[p]; nw = 1
		for (j = 1; j <= k[p]; j++) { x[++nw] = w[p, j]; lo = w[p, j] < lo ? w[p, j] : lo; hi = w[p, j] > hi ? w[p, j] : hi }
		h = pi(x, nw); m = M
		d = (v[p] - r[p]) / r[p]
		how = (d * d <= 1e-4) ? "1%" : ((v[p] - m) ^ 2 <= h * h) ? "PI" : ((v[p] - m) ^ 2 <= h * h + ci[p] ^ 2) ? "PI+ci" : "OUT"
		pass[how]++
		printf "%-10s %9.2f %9.2f..%-9.2f %7.2f %9.2f %+7.2f%% %6.2f%% %6d  %s\n", p, r[p], lo, hi, h, v[p], 100 * d, 100 * ci[p] / v[p], ld[p], how
		# each reference window against the others: the same test
		for (j = 1; j <= nw; j++) {
			c = 0; for (q = 1; q <= nw; q++) if (q != j) y[++c] = x[q]
			h = pi(y, c); m = M
			self += (x[j] - y[1]) ^ 2 <= (0.01 * y[1]) ^ 2 || (x[j] - m) ^ 2 <= h * h; selfn++
		}
		sl += ld[p]
	}
	printf "\nnew rule: %d of %d points within 1 %% of the reference, %d more within the 95 %% prediction interval (PI) of its %d windows, %d more within that and the point'"'"'s own interval (sqrt(PI^2 + ci^2)), %d outside\n", pass["1%"], n, pass["PI"], nw, pass["PI+ci"], pass["OUT"]
	printf "the reference'"'"'s own windows, each against the others (1 %% of the first, or their interval): %.1f of %d\n", self * n / selfn, n
	printf "chase loads in the new windows and warm-ups: %d (%.0f a point)\n", sl, sl / n
	printf "Mess suite, simulated cycles (last hart record to end): reference %d, new %d, ratio %.2f\n", cref, cnew, cref / cnew
}' "$OUT/ref.pts" "$OUT/reps.pts" "$OUT/new.pts"
