#!/usr/bin/env bash
# Byte identity of two hostsim binaries on the ddr memory models' usual runs:
# for a change meant to keep behaviour (a refactor, a speed-up), run the old
# binary (built from the base revision in a scratch copy) and the new one on
# the same images and options, and compare the console (stdout), --stats
# and any message (stderr, without the host's own figures: host_seconds and
# mips) and the exit status, byte for byte.
#
#   tools/hostsim-same.sh OLD_HOSTSIM [--quick] [--jobs N] [--keep DIR] [--list]
#
# NEW is $HOSTSIM (default build/bin/hostsim, built through the Makefile
# with the images).  Cases (--list prints them; NAME|IMAGE|OPTIONS):
#   make-*   make run's hostsim job (tools/configs/hostsim.cfg on 8 harts,
#            512 MiB, --config tools/configs/hostsim-ddr4.sim) under ddr and
#            ddr-resv, each with the presets DDR4-3200 (make run's),
#            DDR4-2666 and DDR5-4800: 2 to 3 minutes a run; --quick skips them
#   mess-*   a small Mess grid (8 harts, mixes 0/50/100 %, pauses 0/64/1024)
#            under both models: default keys, two channels of two ranks with
#            another address map, closed pages and no XOR, --ddr-fair with no
#            per-source share, DDR5-4800
#   lat-*    lat up to 16 MiB on one hart, under both models
#   refuse-* configurations the ddr keys refuse, under both models, and
#            --help, --print-config
# Each case runs once per binary, --jobs at a time (default 2).  Prints one
# line a case (same / DIFFERS and the first lines of the diff) and a total;
# exits 1 if any case differs.  --keep DIR keeps the outputs (else a
# temporary directory, removed).
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
HOSTSIM=${HOSTSIM:-$BUILD/bin/hostsim}
old="" quick=0 jobs=2 keep="" list=0
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1; shift ;;
	--jobs) jobs=$2; shift 2 ;;
	--keep) keep=$2; shift 2 ;;
	--list) list=1; shift ;;
	-h|--help) sed -n '2,28p' "$0"; exit 0 ;;
	-*) echo "hostsim-same: unknown option '$1'" >&2; exit 2 ;;
	*) [ -z "$old" ] || { echo "hostsim-same: one old binary, got '$old' and '$1'" >&2; exit 2; }
	   old=$1; shift ;;
	esac
done
case "$jobs" in ''|*[!0-9]*|0) echo "hostsim-same: --jobs wants a positive number, got '$jobs'" >&2; exit 2 ;; esac

# NAME|IMAGE|OPTIONS (IMAGE: make, mess or lat, configured below)
cases() {
	local m p
	for m in ddr ddr-resv; do
		for p in DDR4-3200 DDR4-2666 DDR5-4800; do
			[ "$quick" = 1 ] || echo "make-$m-$p|make|--harts 8 --mem-size 512M --config tools/configs/hostsim-ddr4.sim --mem-model $m --ddr-preset $p"
		done
	done
	for m in ddr ddr-resv; do
		echo "mess-$m|mess|--harts 8 --mem-size 512M --mem-model $m"
		echo "mess-$m-2ch2ra|mess|--harts 8 --mem-size 512M --mem-model $m --ddr-channels 2 --ddr-ranks 2 --ddr-map ch:ra:bg:ba:co --ddr-xor 0 --ddr-page closed"
		echo "mess-$m-fair|mess|--harts 8 --mem-size 512M --mem-model $m --ddr-fair 4 --ddr-src-rq 0 --pf-dist 16"
		echo "mess-$m-ddr5|mess|--harts 8 --mem-size 512M --mem-model $m --ddr-preset DDR5-4800 --ddr-rq 64 --ddr-src-rq 3"
		echo "lat-$m|lat|--harts 1 --mem-model $m"
		echo "refuse-$m-preset|lat|--mem-model $m --ddr-preset DDR9-1"
		echo "refuse-$m-map|lat|--mem-model $m --ddr-map ch:bg"
		echo "refuse-$m-map-piece|lat|--mem-model $m --ddr-map co9:bg:ba:ra:ch"
		echo "refuse-$m-ccd|lat|--mem-model $m --ddr-tccd-l 2 --ddr-tccd-s 4"
		echo "refuse-$m-wq|lat|--mem-model $m --ddr-wq-lo 56"
		echo "refuse-$m-fair|lat|--mem-model $m --ddr-fair 32"
		echo "refuse-$m-burst|lat|--mem-model $m --ddr-bl 4"
		echo "refuse-$m-refresh|lat|--mem-model $m --ddr-trefi 100 --ddr-trfc 200"
		echo "refuse-$m-pow2|lat|--mem-model $m --ddr-channels 3"
		echo "refuse-$m-page|lat|--mem-model $m --ddr-page half"
	done
	echo "help|lat|--help"
	echo "print-config|lat|--print-config --config tools/configs/hostsim-ddr4.sim"
}
if [ "$list" = 1 ]; then
	cases
	exit 0
fi
[ -n "$old" ] || { echo "usage: tools/hostsim-same.sh OLD_HOSTSIM [--quick] [--jobs N] [--keep DIR] [--list]" >&2; exit 2; }
[ -x "$old" ] || { echo "hostsim-same: $old is not an executable" >&2; exit 2; }

make --no-print-directory -s "$HOSTSIM" "$BUILD/bin/rvmess" "$BUILD/images/virt.elf" >&2
tmp=${keep:-$(mktemp -d /tmp/hostsim-same.XXXXXX)}
[ -n "$keep" ] || trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
cp "$BUILD/images/virt.elf" "$tmp/make.elf"
"$BUILD/bin/rvmess" config "$tmp/make.elf" --file tools/configs/hostsim.cfg >/dev/null
cp "$BUILD/images/virt.elf" "$tmp/mess.elf"
"$BUILD/bin/rvmess" config "$tmp/mess.elf" suites=mess mess_mix=0,50,100 mess_pause=0,64,1024 reps=1 \
	mess_window_loads=2000 mess_chase_size=16M mess_gen_size=1M >/dev/null
cp "$BUILD/images/virt.elf" "$tmp/lat.elf"
"$BUILD/bin/rvmess" config "$tmp/lat.elf" suites=lat lat_max=16M lat_loads=1000 lat_strides=64,4096 \
	reps=1 warmups=0 >/dev/null

# one NAME SIDE BIN IMAGE OPTIONS: a run's outputs in $tmp/NAME.SIDE.*
one() {
	local rc=0
	# shellcheck disable=SC2086
	timeout 3600 "$3" $5 --stats "$tmp/$4.elf" >"$tmp/$1.$2.out" 2>"$tmp/$1.$2.raw" || rc=$?
	sed -E 's/ host_seconds=[0-9.]+ mips=[0-9.]+//' "$tmp/$1.$2.raw" >"$tmp/$1.$2.err"
	echo "$rc" >"$tmp/$1.$2.rc"
}

n=0
while IFS='|' read -r name image opts; do
	for side in old new; do
		bin=$HOSTSIM
		[ "$side" = old ] && bin=$old
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
		one "$name" "$side" "$bin" "$image" "$opts" &
	done
	n=$((n + 1))
done < <(cases)
wait

same=0 differ=0
while IFS='|' read -r name _ _; do
	d=""
	for f in out err rc; do
		cmp -s "$tmp/$name.old.$f" "$tmp/$name.new.$f" || d="$d $f"
	done
	if [ -z "$d" ]; then
		same=$((same + 1))
		printf '%-28s same (exit %s, %s console lines)\n' "$name" "$(cat "$tmp/$name.new.rc")" "$(wc -l <"$tmp/$name.new.out")"
	else
		differ=$((differ + 1))
		printf '%-28s DIFFERS:%s\n' "$name" "$d"
		for f in $d; do diff "$tmp/$name.old.$f" "$tmp/$name.new.$f" | head -n 6 | sed 's/^/    /'; done
	fi
done < <(cases)
echo "hostsim-same: $same of $n cases byte-identical, $differ differ (old $old, new $HOSTSIM)"
[ "$differ" = 0 ]
