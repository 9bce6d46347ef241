#!/usr/bin/env bash
# What the Mess memory did over a span of an RTL run: the adapter's window
# log (RVMESS_MESS_LOG; tools/run.sh writes RUN/mess-windows.tsv) summed
# over the lines whose requests all fall within [FROM, TO] (the stage's
# clock; an RTL run's cycle counts, e.g. two `prog` records' `cycle=`).
#
#   tools/mess-windows.sh LOG [FROM [TO]] [--mhz F]
#
# Prints one line:
#   windows N requests N reads N (P %) span C cycles  MB/s X at F MHz
#   rd_lat X wr_lat X cycles (the means the adapter gave)  curve_ns A..B
# MB/s is requests x 64 B over the span from the first line's first request
# to the last line's last.  docs/mess.md, "The window log".  Exit 2 on bad
# arguments or no line in the span.
set -u
die() { echo "mess-windows.sh: $*" >&2; exit 2; }
log="" from=0 to="" mhz=1000 n=0
while [ $# -gt 0 ]; do
	case $1 in
	--mhz) mhz=${2:-}; shift 2 ;;
	-*) die "unknown option $1" ;;
	*) case $n in 0) log=$1 ;; 1) from=$1 ;; 2) to=$1 ;; *) die "too many arguments" ;; esac
	   n=$((n + 1)); shift ;;
	esac
done
[ -n "$log" ] || die "usage: mess-windows.sh LOG [FROM [TO]] [--mhz F]"
[ -r "$log" ] || die "$log: cannot read it"
case "$from" in ''|*[!0-9]*) die "FROM must be a cycle count, got '$from'" ;; esac
case "$to" in *[!0-9]*) die "TO must be a cycle count, got '$to'" ;; esac
case "$mhz" in ''|*[!0-9]*|0) die "--mhz wants a clock in MHz, got '$mhz'" ;; esac
awk -F'\t' -v from="$from" -v to="$to" -v mhz="$mhz" -v file="$log" '
	/^#/ { next }
	NF != 13 { printf "mess-windows.sh: %s:%d: %d fields, not 13; left out\n", file, NR, NF > "/dev/stderr"; next }
	$2 < from || (to != "" && $3 > to) { next }
	{
		if (!w++) a = $2
		b = $3; req += $5; rd += $6
		if ($6 > 0) { rl += $7 * $6 }
		if ($5 > $6) { wl += $8 * ($5 - $6) }
		if (w == 1 || $12 < lo) lo = $12
		if (w == 1 || $12 > hi) hi = $12
	}
	END {
		if (!w) { printf "mess-windows.sh: %s: no line within %s..%s\n", file, from, to > "/dev/stderr"; exit 2 }
		span = b - a
		printf "windows %d requests %d reads %d (%.1f %%) span %d cycles  %.1f MB/s at %d MHz  ", w, req, rd,
		       100 * rd / req, span, (span > 0 ? req * 64 * mhz / span : 0), mhz
		printf "rd_lat %s wr_lat %s cycles  curve_ns %.3f..%.3f\n", (rd ? sprintf("%.3f", rl / rd) : "-"),
		       (req > rd ? sprintf("%.3f", wl / (req - rd)) : "-"), lo, hi
	}' "$log"
