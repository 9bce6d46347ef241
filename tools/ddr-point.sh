#!/usr/bin/env bash
# One Mess point on hostsim's ddr model, what the controller did inside the
# measured window (docs/memsys.md, "The ddr model", "Measured"): the point
# (mess_mix=MIX, mess_pause=PAUSE) runs twice, with 10000 and 30000 chase
# loads, and the --stats counts of the two runs are subtracted, so boot and
# the chase ring's set-up cancel out.  Prints the chase latency and the
# bandwidth (the 30000-load run's record), reads and writes in the window,
# row hit / empty / conflict shares, cycles waited to enter the read queue
# per read and the write queue per write, and drains per 1000 writes.
#   tools/ddr-point.sh MIX PAUSE MSHRS SB [hostsim options...]
# (8 harts, 512 MiB, make run's memory system tools/configs/hostsim-ddr4.sim,
# --mshrs MSHRS --store-buffer SB;
# outputs in ${OUT:-out/ddr-point}; HOSTSIM= another hostsim binary)
set -eu
cd "$(dirname "$0")/.."
[ $# -ge 4 ] || { echo "usage: tools/ddr-point.sh MIX PAUSE MSHRS SB [hostsim options...]" >&2; exit 2; }
mix=$1 p=$2 mr=$3 sb=$4
shift 4
OUT=${OUT:-out/ddr-point}
HS=${HOSTSIM:-build/bin/hostsim}
make --no-print-directory all >/dev/null
d=$OUT/m$mix-p$p-$mr-$sb
mkdir -p "$d"
for n in 10000 30000; do
	cp build/images/virt.elf "$d/$n.elf"
	build/bin/rvmess config "$d/$n.elf" --file tools/configs/hostsim.cfg >/dev/null
	build/bin/rvmess config "$d/$n.elf" suites=mess mess_mix="$mix" mess_pause="$p" mess_tol=0 mess_window_loads=$n >/dev/null
	"$HS" --harts 8 --mem-size 512M --config tools/configs/hostsim-ddr4.sim --mshrs "$mr" --store-buffer "$sb" "$@" --stats "$d/$n.elf" \
		>"$d/$n.out" 2>"$d/$n.stats"
done
# nspl bw_ctr reads writes hit empty conflict rq-full rq-waited wq-full wq-waited drains
counts() {
	r=$(grep -o ' mess h=0 .*' "$d/$1.out" | head -1)
	echo "$r" | grep -o ' nspl=[0-9.]*' | cut -d= -f2
	echo "$r" | grep -o ' bw_ctr=[0-9.]*' | cut -d= -f2
	sed -n 's/^memctl: reads \([0-9]*\) writes \([0-9]*\) .* rows hit \([0-9]*\) miss \([0-9]*\) conflict \([0-9]*\)/\1 \2 \3 \4 \5/p' "$d/$1.stats"
	sed -n 's/^ddr: read queue: .*full \([0-9]*\) times (\([0-9]*\) cycles waited); write queue: .*full \([0-9]*\) times (\([0-9]*\) cycles); drains \([0-9]*\).*/\1 \2 \3 \4 \5/p' "$d/$1.stats"
}
{ counts 10000; counts 30000; } | tr '\n' ' ' | awk -v lbl="mix $mix pause $p mshrs $mr sb $sb${*:+ $*}" '{
	n = NF / 2; for (i = 3; i <= n; i++) D[i] = $(n + i) - $i
	rd = D[3]; wr = D[4]; t = D[5] + D[6] + D[7]
	if (rd <= 0 || wr <= 0 || t <= 0) { print "ddr-point: no window counts" > "/dev/stderr"; exit 1 }
	# two runs subtracted: a window with few writes can show fewer drains
	# in the longer run; say so rather than print a negative rate
	dr = (D[12] >= 0 && wr >= 1000) ? sprintf("%.1f drains per 1000 writes", 1000 * D[12] / wr) : sprintf("drains not counted (%d in the window, from %d writes)", D[12], wr)
	printf "%s: %.1f ns at %.2f GB/s; window: %d reads %d writes, rows hit %.1f %% empty %.1f %% conflict %.1f %%, read-queue wait %.1f cycles/read, write-queue wait %.1f cycles/write, %s\n",
		lbl, $(n + 1), $(n + 2) / 1000, rd, wr, 100 * D[5] / t, 100 * D[6] / t, 100 * D[7] / t, D[9] / rd, D[11] / wr, dr }'
