#!/usr/bin/env bash
# Where an RTL run's cycles went, by firmware function: an Ariane/CVA6
# instruction trace (OpenPiton's sims/trace_hart_NN.dasm, lines "CYCLE PC
# ...") read against the image's symbols.
#
#   tools/trace-prof.sh IMAGE TRACE [FROM [TO]]
#
# Each trace line's cycles up to the next line go to the function holding
# its PC ("self"), and to every function on the call stack ("incl"): a
# transfer to a function's first instruction is a call, a transfer into the
# middle of a function on the stack a return to it.  FROM and TO (cycles;
# e.g. two `prog` records' `cycle=`) bound the window; without them, the
# whole trace.  Prints one line a function, most self cycles first:
#   cycles_self  self%  cycles_incl  incl%  calls  function
# then "total CYCLES from FROM to TO".  Exit 2 on bad arguments or a trace
# with no line in the window.  OpenPiton's tiles all write one file,
# trace_hart_00.dasm, over each other's blocks (docs/platforms.md): a line
# whose cycle goes back is left out and counted on stderr; check that the
# total covers the window and that the functions are the hart's.
set -u
die() { echo "trace-prof.sh: $*" >&2; exit 2; }
[ $# -ge 2 ] && [ $# -le 4 ] || die "usage: trace-prof.sh IMAGE TRACE [FROM [TO]]"
image=$1 trace=$2 from=${3:-0} to=${4:-}
[ -f "$image" ] || die "$image: no such image"
[ -r "$trace" ] || die "$trace: cannot read the trace"
case "$from" in ''|*[!0-9]*) die "FROM must be a cycle count, got '$from'" ;; esac
case "$to" in *[!0-9]*) die "TO must be a cycle count, got '$to'" ;; esac
NM=${NM:-riscv64-unknown-elf-nm}
command -v "$NM" >/dev/null || NM=nm
syms=$("$NM" -n "$image" 2>/dev/null | awk '$2 ~ /^[tT]$/ { print $1, $3 }')
[ -n "$syms" ] || die "$image: no function symbols ($NM -n)"
awk -v lo="$from" -v hi="${to:-0}" '
FNR == NR { a[n] = strtonum("0x" $1); s[n] = $2; n++; next }
$1 !~ /^[0-9]+$/ || $2 !~ /^0x[0-9a-fA-F]+$/ { next }
{
	c = $1 + 0
	if (c < lo) next
	if (hi > 0 && c > hi) exit
	if (seen && c < pc_c) { back++; next }
	pc = strtonum($2)
	l = 0; h = n - 1
	while (l < h) { m = int((l + h + 1) / 2); if (a[m] <= pc) l = m; else h = m - 1 }
	f = s[l]
	if (seen) {
		d = c - pc_c
		self[pf] += d
		delete on
		for (i = 0; i < sp; i++) if (!(st[i] in on)) { on[st[i]] = 1; incl[st[i]] += d }
	} else first = c
	seen = 1
	if (sp == 0 || st[sp - 1] != f) {
		if (pc == a[l]) { st[sp++] = f; calls[f]++ }
		else {
			for (j = sp - 1; j >= 0 && st[j] != f; j--) ;
			if (j >= 0) sp = j + 1; else { sp = 1; st[0] = f }
		}
	}
	pf = f; pc_c = c; last = c
}
END {
	if (!seen) { print "trace-prof.sh: no trace line in the window" > "/dev/stderr"; exit 2 }
	t = last - first
	for (f in self) if (!(f in incl)) incl[f] = self[f]
	for (f in incl) printf "%11d %5.1f%% %11d %5.1f%% %7d  %s\n", self[f], t ? 100 * self[f] / t : 0,
		incl[f], t ? 100 * incl[f] / t : 0, calls[f], f | "sort -k1,1nr"
	close("sort -k1,1nr")
	printf "total %d from %d to %d\n", t, first, last
	if (back) printf "trace-prof.sh: %d lines left out: their cycle is below the line before (another hart%ss blocks in a shared trace file?)\n", back, "\047" > "/dev/stderr"
}' <(printf '%s\n' "$syms") "$trace"
