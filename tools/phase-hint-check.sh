#!/usr/bin/env bash
# Does the set-up phase hint (docs/hostsim.md "Set-up phases") change what
# the suites measure?  Runs one image configuration on hostsim with the hint
# and with --no-phase-hint, and, as the noise yardstick, with
# --no-phase-hint at other image seeds (the chains' random order is the only
# difference: a parameter the figures should not depend on).  Prints per
# suite and figure the largest relative difference hint vs no hint, and the
# largest between the seed runs and the seed-1 run (the noise), with the
# point where each occurs; then each run's simulated instructions, the
# untimed ones and the host seconds.
#
#   tools/phase-hint-check.sh [--config FILE] [--sim "OPTS"] [--seeds LIST]
#                             [--hostsim BIN] [--image ELF] [--keep DIR]
#
# Defaults: make run's job (--config tools/configs/hostsim.cfg, --sim
# "--harts 8 --mem-size 512M --mem-model ddr"), --seeds 2,3.  Figures:
# lat, par, chase: cpl (cycles per load); parmax: par; mess: cpl and bw_ctr.
# Runs two simulations at a time.  --keep DIR keeps the logs.
#
#   tools/phase-hint-check.sh --compare A.log B.log
# only compares two console logs (the table's first columns).
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
cfg=tools/configs/hostsim.cfg
sim="--harts 8 --mem-size 512M --mem-model ddr"
seeds=2,3
hs=$BUILD/bin/hostsim
image=$BUILD/images/virt.elf
keep=""

# records BASELOG -> "suite:figure:key value" lines
records() {
	awk '
	$1 == "@RVM" {
		kind = $3; delete f
		for (i = 4; i <= NF; i++) if (split($i, kv, "=") == 2) f[kv[1]] = kv[2]
		if (kind == "lat") { key = f["chain"] "/" f["stride"] "/" f["size"]; figs = "cpl" }
		else if (kind == "par") { key = f["size"] "/k" f["k"]; figs = "cpl" }
		else if (kind == "parmax") { key = f["size"]; figs = "par" }
		else if (kind == "chase") { key = "h" f["h"] "/" f["size"] "/" f["rep"]; figs = "cpl" }
		else if (kind == "mess") { key = f["mix"] "/" f["pause"] "/" f["rep"]; figs = "cpl bw_ctr" }
		else next
		n = split(figs, fl, " ")
		for (j = 1; j <= n; j++) if (fl[j] in f) print kind ":" fl[j] ":" key, f[fl[j]]
	}' "$1" | sort
}

# compare A B -> per suite:figure "points maxrel key a b"
compare() {
	join <(records "$1") <(records "$2") | awk '
	{
		split($1, p, ":"); sf = p[1] ":" p[2]
		a = $2 + 0; b = $3 + 0
		d = a > b ? a - b : b - a
		r = b != 0 ? d / b : (a != 0 ? 1 : 0)
		n[sf]++
		if (!(sf in m) || r > m[sf]) { m[sf] = r; at[sf] = p[3]; va[sf] = $2; vb[sf] = $3 }
	}
	END { for (sf in n) printf "%s %d %.5f %s %s %s\n", sf, n[sf], m[sf], at[sf], va[sf], vb[sf] }' | sort
}

if [ "${1:-}" = "--compare" ]; then
	[ $# -eq 3 ] || { echo "usage: $0 --compare A.log B.log" >&2; exit 2; }
	printf '%-14s %6s %9s  %s\n' suite:figure points max_rel "at (A B)"
	compare "$2" "$3" | awk '{ printf "%-14s %6s %8.3f%%  %s (%s %s)\n", $1, $2, 100 * $3, $4, $5, $6 }'
	exit 0
fi

while [ $# -gt 0 ]; do
	case $1 in
	--config) cfg=$2; shift 2 ;;
	--sim) sim=$2; shift 2 ;;
	--seeds) seeds=$2; shift 2 ;;
	--hostsim) hs=$2; shift 2 ;;
	--image) image=$2; shift 2 ;;
	--keep) keep=$2; shift 2 ;;
	-h|--help) sed -n '2,25p' "$0"; exit 0 ;;
	*) echo "phase-hint-check: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
case "$seeds" in *[!0-9,]*) echo "phase-hint-check: --seeds wants numbers separated by commas, got '$seeds'" >&2; exit 2 ;; esac
[ -x "$hs" ] || { echo "phase-hint-check: $hs is not an executable (make $BUILD/bin/hostsim)" >&2; exit 2; }
[ -f "$image" ] || { echo "phase-hint-check: $image does not exist (make $image)" >&2; exit 2; }
[ -f "$cfg" ] || { echo "phase-hint-check: $cfg does not exist" >&2; exit 2; }
if [ -n "$keep" ]; then
	mkdir -p "$keep"
	tmp=$keep
else
	tmp=$(mktemp -d /tmp/phase-hint.XXXXXX)
	trap 'rm -rf "$tmp"' EXIT
fi

# one NAME SEED HOSTSIM-OPTS: configure the image at SEED and run it
one() {
	"$BUILD/bin/rvmess" config "$image" --file "$cfg" seed="$2" -o "$tmp/$1.elf" >/dev/null
	# shellcheck disable=SC2086
	"$hs" $sim $3 --stats --console "$tmp/$1.log" "$tmp/$1.elf" 2>"$tmp/$1.stats" >/dev/null ||
		{ echo "phase-hint-check: run $1 failed:" >&2; tail -n 3 "$tmp/$1.stats" >&2; exit 1; }
	grep -q ' end h=[0-9]* status=ok' "$tmp/$1.log" ||
		{ echo "phase-hint-check: run $1 did not end with status=ok" >&2; exit 1; }
}

one hint 1 "" & p1=$!
one nohint 1 --no-phase-hint & p2=$!
wait $p1 && wait $p2
names=""
for sd in ${seeds//,/ }; do
	one "seed$sd" "$sd" --no-phase-hint & pids="${pids:-} $!"
	names="$names seed$sd"
	# two at a time
	if [ "$(echo "$pids" | wc -w)" -ge 2 ]; then for p in $pids; do wait "$p"; done; pids=""; fi
done
for p in ${pids:-}; do wait "$p"; done

compare "$tmp/hint.log" "$tmp/nohint.log" >"$tmp/effect"
: >"$tmp/noise"
for nm in $names; do compare "$tmp/$nm.log" "$tmp/nohint.log" >>"$tmp/noise"; done
echo "set-up phase hint: $image, $cfg, hostsim $sim; noise: seeds $seeds vs 1 (both --no-phase-hint)"
printf '%-14s %6s %9s  %-28s %9s  %s\n' suite:figure points hint/no "at (hint no-hint)" noise "at (seed seed-1)"
awk 'NR == FNR { if (!($1 in m) || $3 > m[$1]) { m[$1] = $3; at[$1] = $4 " (" $5 " " $6 ")" } next }
	{ printf "%-14s %6s %8.3f%%  %-28s %8.3f%%  %s\n", $1, $2, 100 * $3, $4 " (" $5 " " $6 ")", 100 * m[$1], at[$1] }' \
	"$tmp/noise" "$tmp/effect"
for nm in hint nohint $names; do
	sed -n "s/.* total: instructions=\([0-9]*\).*host_seconds=\([0-9.]*\).*/$nm instructions=\1 host_seconds=\2/p" "$tmp/$nm.stats" |
		tr '\n' ' '
	sed -n 's/.*untimed instructions=\([0-9]*\).*/untimed=\1/p' "$tmp/$nm.stats"
	echo
done | sed '/^$/d'
