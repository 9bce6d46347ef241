#!/usr/bin/env bash
# The raw images beside each ELF (firmware/firmware.mk): <p>.bin holds the
# ELF's loaded bytes from the lowest load address, <p>.hex the same bytes as
# $readmemh 64-bit little-endian words.  Checked against the ELF's program
# headers (readelf + dd, not objcopy) and its first two instructions (objdump).
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
finish
