/* CRC-32, reflected polynomial 0xEDB88320, bitwise (no table: the image is small
 * and a record line is ~100 bytes). */
#include "rvmess/crc32.h"

uint32_t rvm_crc32(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
	}
	return ~crc;
}
