#!/usr/bin/env bash
# The raw images beside each ELF (firmware/firmware.mk): <p>.bin holds the
# ELF's loaded bytes from the lowest load address, <p>.hex the same bytes as
# $readmemh 64-bit little-endian words.  Checked against the ELF's program
# headers (readelf + dd, not objcopy) and its first two instructions (objdump).
# Then the build-time image check (tools/check-image.sh) on images that break
# one of its rules each.
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
scratch images
T=$TMP
CROSS=${CROSS:-riscv64-unknown-elf-}

for elf in "$BUILD"/images/*.elf; do
	[ -f "$elf" ] || { skip images "no images built"; break; }
	p=$(basename "$elf" .elf)
	bin=${elf%.elf}.bin hex=${elf%.elf}.hex
	if [ ! -f "$bin" ] || [ ! -f "$hex" ]; then
		fail "bin-$p" "$bin or $hex missing (make images)"
		continue
	fi
	# PT_LOAD rows with file contents: offset vaddr filesz; the image starts at the lowest vaddr
	readelf -lW "$elf" | awk '$1 == "LOAD" && $5 !~ /^0x0+$/ { print $2, $3, $5 }' >"$T/load"
	base=-1 end=0
	while read -r off va sz; do
		((base < 0 || va < base)) && base=$((va))
		((va + sz > end)) && end=$((va + sz))
	done <"$T/load"
	: >"$T/want.bin"
	truncate -s $((end - base)) "$T/want.bin"
	while read -r off va sz; do
		dd if="$elf" of="$T/want.bin" bs=1 skip=$((off)) seek=$((va - base)) count=$((sz)) conv=notrunc status=none
	done <"$T/load"
	if cmp -s "$T/want.bin" "$bin"; then
		pass "bin-$p"
	else
		fail "bin-$p" "$bin differs from the ELF's loaded bytes ($(cmp "$T/want.bin" "$bin" 2>&1 | head -1))"
	fi

	# .hex back to bytes: each line is 16 hex digits, byte 0 in the low bits
	sed 's/\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)/\8\7\6\5\4\3\2\1/' "$hex" | xxd -r -p >"$T/hex.bin"
	cp "$bin" "$T/pad.bin"
	truncate -s $((($(stat -c %s "$bin") + 7) / 8 * 8)) "$T/pad.bin"
	bad=$(grep -cvE '^[0-9a-f]{16}$' "$hex")
	if [ "$bad" != 0 ]; then
		fail "hex-$p" "$bad line(s) of $hex are not 16 hex digits"
	elif ! cmp -s "$T/hex.bin" "$T/pad.bin"; then
		fail "hex-$p" "$hex does not hold the .bin's bytes as little-endian 64-bit words"
	else
		# word 0 = the first two instructions at the entry, second one in the high half
		read -r i0 i1 < <("${CROSS}objdump" -d --start-address=$base --stop-address=$((base + 8)) "$elf" |
			awk '/^ *[0-9a-f]+:\t/ { printf "%s ", $2 }')
		w0=$(head -1 "$hex")
		if [ "$w0" = "$(printf '%08s%08s' "$i1" "$i0")" ]; then
			pass "hex-$p"
		else
			fail "hex-$p" "word 0 of $hex is $w0, want the instructions $i1 $i0 at 0x$(printf %x "$base")"
		fi
	fi
done

# ---- the build-time check (tools/check-image.sh, run by firmware.mk) --------------
# each case: the check on an image that breaks one rule must fail and name it
chk() { CROSS=$CROSS tools/check-image.sh "$@" 2>&1; }
want_fail() { # CASE WHY-PATTERN ARGS...
	local c=$1 pat=$2 out
	shift 2
	if out=$(chk "$@"); then
		fail "$c" "the check passed: $*"
	elif grep -q -- "$pat" <<<"$out"; then
		pass "$c"
	else
		fail "$c" "the check failed without saying '$pat': $out"
	fi
}
E=$BUILD/images
if [ -f "$E/cva6.elf" ] && [ -f "$E/openpiton.elf" ] && [ -f "$E/virt.elf" ]; then
	if out=$(chk "$E/cva6.elf" --base 0x80000000 --one-load --max-size 16M --symbols tohost) &&
		out2=$(chk "$E/openpiton.elf" --base 0x80000000 --symbols pass,fail); then
		pass check-image-ok
	else
		fail check-image-ok "$out $out2"
	fi
	want_fail check-image-symbol "no global symbol 'tohost'" "$E/openpiton.elf" --symbols tohost
	want_fail check-image-base "must start at 0x80200000" "$E/virt.elf" --base 0x80200000
	want_fail check-image-size "more than 1M" "$E/cva6.elf" --max-size 1M
	# a .bin that is not the ELF's bytes' extent
	cp "$E/virt.elf" "$T/v.elf" && head -c 100 "$E/virt.bin" >"$T/v.bin" && cp "$E/virt.hex" "$T/v.hex"
	want_fail check-image-bin "v.bin has 100 bytes" "$T/v.elf"
	# two PT_LOADs with a gap between their bytes, entry not at the lowest address
	printf '\t.text\n\t.globl _start\n\tnop\n_start: nop\n\t.data\n\t.word 1\n' >"$T/gap.S"
	if "${CROSS}gcc" -nostdlib -static -Wl,-Ttext=0x80000000 -Wl,--section-start=.data=0x80100000 \
		-Wl,--no-warn-rwx-segments -o "$T/gap.elf" "$T/gap.S" 2>"$T/gap.err"; then
		"${CROSS}objcopy" -O binary "$T/gap.elf" "$T/gap.bin"
		: >"$T/gap.hex"
		want_fail check-image-gap "a gap in the loaded bytes" "$T/gap.elf"
		want_fail check-image-one-load "2 PT_LOAD segments" "$T/gap.elf" --one-load
		want_fail check-image-entry "entry point 0x[0-9a-f]* is not the lowest load address" "$T/gap.elf"
	else
		fail check-image-gap "cannot link the test ELF: $(head -c 200 "$T/gap.err")"
	fi
else
	skip check-image "cva6, openpiton or virt image missing"
fi
# The hdr record's version (git describe at build time): an incremental build
# after a commit must rebuild boot.c, or the image names an older revision.
mkdir -p "$T/v/obj"
cp -a "$BUILD/obj/virt" "$T/v/obj/"
vv=""
for v in rvm-version-one rvm-version-two; do
	if make --no-print-directory -s PLATFORM=virt BUILD="$T/v" FW_VERSION=$v images >"$T/v.build" 2>&1; then
		vv="$vv $(grep -c -a "$v" "$T/v/images/virt.elf")"
	else vv="$vv build-failed"; fi
done
if [ "$vv" = " 1 1" ]; then pass image-version-rebuilt
else fail image-version-rebuilt "image holding rvm-version-one, then rvm-version-two: want ' 1 1', got '$vv'"; fi

finish
