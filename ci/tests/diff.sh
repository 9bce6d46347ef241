#!/usr/bin/env bash
# Differential check: the same M-mode image (build/images/virt.elf, one
# reduced config) on QEMU virt and on hostsim must print the same records up
# to the fields that measure time or describe the machine:
#   dropped everywhere: h= (which hart wins the lead lottery differs), the
#   checksum, cycles ticks ns cpl nspl cpu_hz cycle instret; hdr's isa and
#   version of the FDT, and its cache_max (hostsim's tree describes its
#   caches, QEMU's names none); parmax's k and par (they rank timings).
# Every other field (sizes, chain lengths, loads, strides, k, rep, record
# order and count, status, hart states) must be equal.
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
if ! command -v qemu-system-riscv64 >/dev/null; then
	for h in 1 4; do skip "diff-qemu-hostsim-$h" "qemu-system-riscv64 not installed"; done
	exit 0
fi
[ -x "$BUILD/bin/hostsim" ] && [ -x "$BUILD/bin/rvmess" ] || { fail diff "build/bin/hostsim or rvmess missing"; exit 1; }
scratch diff

cp "$BUILD/images/virt.elf" "$TMP/virt.elf"
"$BUILD/bin/rvmess" config "$TMP/virt.elf" suites=chase,lat,par reps=2 warmups=1 \
	chase_size=256K chase_loads=2000 chase_all_harts=1 lat_max=256K lat_loads=1000 \
	lat_strides=64,512 par_max=64K par_kmax=4 >/dev/null || { fail diff-config "rvmess config"; exit 1; }

norm() { # LOG OUT: normalised records (the harts' own `hart` records, whose
	# order is a race, sorted at the end)
	grep -ao '@RVM [0-9]* [a-z]* .*' "$1" | sed 's/ \*[0-9a-f]*\r\?$//' | awk '{
		out = ($3 == "hart" ? "~" : $2) " " $3
		for (i = 4; i <= NF; i++) {
			split($i, kv, "="); k = kv[1]
			if (k ~ /^(h|cycles|ticks|ns|cpl|nspl|cpu_hz|cycle|instret)$/) continue
			if ($3 == "hdr" && (k == "isa" || k == "version" || k == "cache_max")) continue
			if ($3 == "parmax" && (k == "k" || k == "par")) continue
			out = out " " $i
		}
		print out
	}' >"$2.all"
	grep -v '^~ ' "$2.all" >"$2"
	grep '^~ ' "$2.all" | sort >>"$2"
}

for harts in 1 4; do
	tools/run.sh --target qemu-virt --harts $harts --image "$TMP/virt.elf" --out "$TMP/q$harts" --timeout 120 >/dev/null 2>&1
	tools/run.sh --target hostsim --harts $harts --image "$TMP/virt.elf" --out "$TMP/h$harts" --timeout 300 >/dev/null 2>&1
	norm "$TMP/q$harts/console.log" "$TMP/q$harts.rec"
	norm "$TMP/h$harts/console.log" "$TMP/h$harts.rec"
	n=$(wc -l <"$TMP/q$harts.rec")
	if [ "$n" -lt 10 ]; then
		fail "diff-qemu-hostsim-$harts" "only $n records from QEMU"
	elif ! grep -q ' end status=ok' "$TMP/q$harts.rec"; then
		fail "diff-qemu-hostsim-$harts" "QEMU run did not end ok"
	elif diff -u "$TMP/q$harts.rec" "$TMP/h$harts.rec" >"$TMP/d$harts.diff"; then
		pass "diff-qemu-hostsim-$harts ($n records equal)"
	else
		fail "diff-qemu-hostsim-$harts" "$(head -8 "$TMP/d$harts.diff" | tr '\n' ' ')"
	fi
done
finish
