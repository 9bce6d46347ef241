# Sourced by integration scripts that write console logs by hand: a CRC-32
# computed in bash and a record generator, so that every expected value
# follows from the input, not from a stored file (docs/protocol.md).
#   crc32 STRING                 8 lowercase hex digits
#   rec SEQ TYPE HART [FIELDS]   one record line "@RVM SEQ TYPE h=HART FIELDS *CRC"
CRC_TABLE=()
for ((i = 0; i < 256; i++)); do
	c=$i
	for ((k = 0; k < 8; k++)); do
		if ((c & 1)); then c=$(((c >> 1) ^ 0xEDB88320)); else c=$((c >> 1)); fi
	done
	CRC_TABLE[i]=$c
done
crc32() { # string -> 8 hex digits
	local s=$1 c=0xFFFFFFFF i b
	for ((i = 0; i < ${#s}; i++)); do
		printf -v b '%d' "'${s:i:1}"
		c=$((CRC_TABLE[(c ^ b) & 0xFF] ^ (c >> 8)))
	done
	printf '%08x' $((c ^ 0xFFFFFFFF))
}
rec() { # seq type hart fields...
	local seq=$1 type=$2 hart=$3 body
	shift 3
	body="@RVM $seq $type h=$hart${*:+ $*}"
	printf '%s *%s\n' "$body" "$(crc32 "$body")"
}
