#!/usr/bin/env bash
# The Mess acceptance figures on hostsim: the default 6-mix x 16-pause family
# (tools/configs/hostsim.cfg, mess suite only) on the default system (8 harts)
# with each memory model.  Prints, per model: wall time of the family, the
# unloaded and maximum latency, the 100 %-loads bandwidth at pause 0 against
# the model's peak, the saturated bandwidth per mix, and the image's final
# counter reading against the model's own transfer count.
#   tools/bench-mess.sh [OUTDIR]        (default out/bench-mess)
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-out/bench-mess}
make --no-print-directory all >/dev/null
mkdir -p "$OUT"
grep -v '^suites=' tools/configs/hostsim.cfg >"$OUT/mess.cfg"
echo "suites=mess" >>"$OUT/mess.cfg"
cp build/images/virt.elf "$OUT/virt.elf"
build/bin/rvmess config "$OUT/virt.elf" --file "$OUT/mess.cfg" >/dev/null

field() { grep -o "@RVM [0-9]* mess .* mix=$2 pause=$3 .*" "$1" | grep -o " $4=[0-9.]*" | head -1 | cut -d= -f2; }

for model in fixed md1 dram ddr; do
	log=$OUT/$model.log
	start=$(date +%s.%N)
	build/bin/hostsim --harts 8 --mem-size 512M --stats --mem-model "$model" "$OUT/virt.elf" >"$log" 2>"$OUT/$model.stats"
	end=$(date +%s.%N)
	build/bin/rvmess parse "$log" -o "$OUT/$model" -q >/dev/null
	echo "== $model: family of $(grep -c '@RVM [0-9]* mess ' "$log") points in $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s wall"
	all=$(grep -o '@RVM [0-9]* mess .*' "$log" | grep -o ' nspl=[0-9.]*' | cut -d= -f2)
	idle=$(field "$log" 0 16384 nspl)
	echo "$all" | awk -v i="$idle" '{ d = ($1 - i) / i; if (d < 0) d = -d; if (d > w) w = d; if ($1 > m) m = $1 }
		END { printf "   latency: unloaded %.1f ns, max %.1f ns, max deviation from unloaded %.2f %%\n", i, m, 100 * w }'
	bw=$(field "$log" 0 0 bw_ctr); peak=$(field "$log" 0 0 peak)
	awk -v b="$bw" -v p="${peak:-0}" 'BEGIN { if (p > 0) printf "   100 %% loads, pause 0: %.0f MB/s = %.1f %% of the %d MB/s peak\n", b, 100 * b / p, p;
		else printf "   100 %% loads, pause 0: %.0f MB/s (the model has no bandwidth limit)\n", b }'
	sed -n 's/^\([0-9]*\) *\([0-9]*\) *\([0-9.-]*\) *\([0-9.]*\) *\([0-9.]*\) *\(yes\|no\)$/   stores \1 %: read \2 %, saturated at \3 GB\/s, max \4 GB\/s, max latency \5 ns, wave \6/p' "$OUT/$model/mess_metrics.txt"
	truth=$(sed -n 's/.*served reads \([0-9]*\) writes \([0-9]*\).*/\1 \2/p' "$OUT/$model.stats")
	seen=$(grep -o '@RVM [0-9]* memctl .*' "$log" | sed -n 's/.* reads=\([0-9]*\) writes=\([0-9]*\).*/\1 \2/p')
	echo "   counters read by the image (reads writes): $seen; model's own count at exit: $truth"
done
