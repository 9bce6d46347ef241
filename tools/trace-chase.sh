#!/usr/bin/env bash
# The chase's load-to-use times, one by one, from an RTL instruction trace
# (OpenPiton's sims/trace_hart_NN.dasm, CVA6's trace_hart_0.dasm: lines
# "CYCLE PC MODE (0xINSN) ..."), read against the image's symbols.
#
#   tools/trace-chase.sh IMAGE TRACE [FROM [TO]] [--bin N] [--last N]
#
# rvm_chase is an unrolled run of dependent loads (each `ld` takes its
# address from the one before), so the cycles between the commits of two
# consecutive loads in it are one load's time.  Every pair of trace lines
# at PC and PC + 4 inside rvm_chase whose second instruction is an `ld`
# counts; FROM and TO (cycles, e.g. two `prog` records' `cycle=`) bound the
# window, and --last N keeps its last N loads (a Mess point's window of N
# loads ends its chase before the point's checks).  Prints
#   loads N mean M min A p10 B p50 C p90 D max E   (cycles)
# then one line per bin of N cycles (default 4) holding at least 1 % of
# the loads: "LO..HI count pct".  A mean hides two paths through the
# memory system; the bins show them (docs/findings.md 5).  Exit 2 on bad
# arguments or no chase load in the window.  Lines whose cycle goes back
# (another hart's blocks in OpenPiton's shared trace file) are left out
# and counted on stderr, as tools/trace-prof.sh does.
set -u
die() { echo "trace-chase.sh: $*" >&2; exit 2; }
bin=4 last=0 args=()
while [ $# -gt 0 ]; do
	case $1 in
	--bin) bin=${2:-}; shift 2 || die "--bin wants a number" ;;
	--last) last=${2:-}; shift 2 || die "--last wants a number" ;;
	*) args+=("$1"); shift ;;
	esac
done
set -- "${args[@]}"
if [ $# -lt 2 ] || [ $# -gt 4 ]; then die "usage: trace-chase.sh IMAGE TRACE [FROM [TO]] [--bin N] [--last N]"; fi
image=$1 trace=$2 from=${3:-0} to=${4:-}
[ -f "$image" ] || die "$image: no such image"
[ -r "$trace" ] || die "$trace: cannot read the trace"
case "$from" in '' | *[!0-9]*) die "FROM must be a cycle count, got '$from'" ;; esac
case "$to" in *[!0-9]*) die "TO must be a cycle count, got '$to'" ;; esac
case "$bin" in '' | *[!0-9]* | 0) die "--bin wants a whole number of cycles >= 1, got '$bin'" ;; esac
case "$last" in '' | *[!0-9]*) die "--last wants a number of loads, got '$last'" ;; esac
NM=${NM:-riscv64-unknown-elf-nm}
command -v "$NM" >/dev/null || NM="nm"
# rvm_chase's start and end (the next symbol's address: the kernel is asm,
# without a size)
read -r lo end < <("$NM" -n "$image" 2>/dev/null | awk 'f { print a, $1; exit } $3 == "rvm_chase" { a = $1; f = 1 }')
if [ -z "${lo:-}" ] || [ -z "${end:-}" ]; then die "$image: no rvm_chase symbol ($NM -n)"; fi
awk -v lo="$((16#$lo))" -v hi="$((16#$end))" -v from="$from" -v to="${to:-0}" -v bin="$bin" -v keep="$last" '
$1 !~ /^[0-9]+$/ || $2 !~ /^0x[0-9a-fA-F]+$/ { next }
{
	c = $1 + 0
	if (c < from) next
	if (to > 0 && c > to) exit
	if (seen && c < last) { back++; next }
	seen = 1; last = c
	pc = strtonum($2)
	insn = match($0, /\(0x[0-9a-fA-F]+\)/) ? strtonum(substr($0, RSTART + 1, RLENGTH - 2)) : -1
	# an ld: opcode LOAD (0x03), funct3 3
	isld = insn >= 0 && and(insn, 0x707f) == 0x3003
	if (pc >= lo && pc < hi) {
		if (have && pc == ppc + 4 && isld) v[n++] = c - pt
		have = 1; ppc = pc; pt = c
	} else have = 0
}
END {
	if (back) printf "trace-chase.sh: %d lines left out: their cycle is below the line before (another hart%ss blocks in a shared trace file?)\n", back, "\047" > "/dev/stderr"
	if (!n) { print "trace-chase.sh: no chase load in the window" > "/dev/stderr"; exit 2 }
	f0 = keep > 0 && keep < n ? n - keep : 0
	for (i = f0; i < n; i++) { cnt[v[i]]++; s += v[i] }
	n -= f0
	k = 0
	for (x in cnt) keys[k++] = x + 0
	for (i = 1; i < k; i++) { t = keys[i]; for (j = i - 1; j >= 0 && keys[j] > t; j--) keys[j + 1] = keys[j]; keys[j + 1] = t }
	# percentiles: the value at rank ceil(p n)
	split("10 50 90", P, " ")
	for (q = 1; q <= 3; q++) { r = int((P[q] * n + 99) / 100); acc = 0
		for (i = 0; i < k; i++) { acc += cnt[keys[i]]; if (acc >= r) { pv[q] = keys[i]; break } } }
	printf "loads %d mean %.1f min %d p10 %d p50 %d p90 %d max %d\n", n, s / n, keys[0], pv[1], pv[2], pv[3], keys[k - 1]
	for (i = 0; i < k; i++) b[int(keys[i] / bin)] += cnt[keys[i]]
	for (i = int(keys[0] / bin); i <= int(keys[k - 1] / bin); i++)
		if (b[i] * 100 >= n) printf "%d..%d %d %.1f%%\n", i * bin, i * bin + bin - 1, b[i], 100 * b[i] / n
}' "$trace"
