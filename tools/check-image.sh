#!/usr/bin/env bash
# Build-time check of one image (firmware/firmware.mk runs it after linking;
# the build fails on any problem, naming the image and what is wrong):
#
#   tools/check-image.sh ELF [--base ADDR] [--max-size SIZE] [--one-load]
#                            [--symbols NAME,NAME...]
#
#   always      the ELF's entry point is its lowest load address; the loaded
#               bytes are contiguous from there (no gap between PT_LOAD file
#               contents: `objcopy -O binary` must give a loadable blob);
#               <p>.bin beside it holds exactly those bytes' extent and
#               <p>.hex one 16-digit line per 8 of them
#   --base      the lowest load address must be ADDR
#   --max-size  the loaded image, .bss and stacks included (memory size),
#               must fit SIZE bytes (K/M suffixes)
#   --one-load  exactly one PT_LOAD segment (CVA6's harness preloads one)
#   --symbols   each NAME is a global symbol of the image (tohost, pass, ...)
set -u
export LC_ALL=C
CROSS=${CROSS:-riscv64-unknown-elf-}
elf=${1:?usage: check-image.sh ELF [options]}
shift
base="" max="" one=0 syms=""
while [ $# -gt 0 ]; do
	case $1 in
	--base) base=$2; shift ;;
	--max-size) max=$2; shift ;;
	--one-load) one=1 ;;
	--symbols) syms=$2; shift ;;
	*) echo "check-image.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
	shift
done
p=$(basename "$elf" .elf)
bad=0
say() { echo "$elf: image check ($p): $*" >&2; bad=1; }
size_of() { # 16M -> bytes
	local v=$1
	case $v in *K) echo $((${v%K} << 10)) ;; *M) echo $((${v%M} << 20)) ;; *) echo $((v)) ;; esac
}

hdr=$("${CROSS}readelf" -hlW "$elf" 2>&1) || { say "not a readable ELF: $hdr"; exit 1; }
entry=$(awk '/Entry point address:/ { print $4 }' <<<"$hdr")
# PT_LOAD rows: vaddr filesz memsz
loads=$(awk '$1 == "LOAD" { print $3, $5, $6 }' <<<"$hdr")
nload=$(grep -c . <<<"$loads")
[ -n "$loads" ] || { say "no PT_LOAD segment"; exit 1; }
lo=-1 fend=0 mend=0
while read -r va fs ms; do
	((lo < 0 || va < lo)) && lo=$((va))
	((fs > 0 && va + fs > fend)) && fend=$((va + fs))
	((va + ms > mend)) && mend=$((va + ms))
done <<<"$loads"
# contiguous file contents: every segment with bytes starts where the bytes so far end
cover=$lo
while read -r va fs ms; do
	((fs == 0)) && continue
	((va > cover)) && say "$(printf 'a gap in the loaded bytes: [0x%x, 0x%x) has none (objcopy -O binary would fill it with zeros)' "$cover" "$((va))")"
	((va + fs > cover)) && cover=$((va + fs))
done < <(sort -k1,1 <<<"$loads")
((entry == lo)) || say "$(printf 'entry point 0x%x is not the lowest load address 0x%x' "$((entry))" "$lo")"
[ -z "$base" ] || ((lo == base)) || say "$(printf 'loads at 0x%x, must start at %s' "$lo" "$base")"
((one == 0 || nload == 1)) || say "$nload PT_LOAD segments, the target loads exactly one"
if [ -n "$max" ] && ((mend - lo > $(size_of "$max"))); then
	say "$(printf 'needs %d bytes from 0x%x (with .bss and stacks), more than %s' "$((mend - lo))" "$lo" "$max")"
fi
if [ -n "$syms" ]; then
	defined=$("${CROSS}nm" -g --defined-only "$elf" | awk '{ print $3 }')
	for s in ${syms//,/ }; do
		grep -qx -- "$s" <<<"$defined" || say "no global symbol '$s' (the target needs it)"
	done
fi
bin=${elf%.elf}.bin hex=${elf%.elf}.hex
if [ ! -f "$bin" ]; then
	say "$bin is missing"
elif (($(stat -c %s "$bin") != fend - lo)); then
	say "$bin has $(stat -c %s "$bin") bytes, the loaded bytes span $((fend - lo))"
fi
if [ ! -f "$hex" ]; then
	say "$hex is missing"
elif [ -f "$bin" ] && (($(grep -c '^[0-9a-f]\{16\}$' "$hex") != ($(stat -c %s "$bin") + 7) / 8)) ||
	(($(wc -l <"$hex") != ($(stat -c %s "$bin") + 7) / 8)); then
	say "$hex does not have one 16-digit line per 8 bytes of $bin"
fi
exit $bad
