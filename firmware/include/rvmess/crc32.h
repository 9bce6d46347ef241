/* CRC-32 (IEEE 802.3 / zlib): the record checksum.  Shared by the image and the host. */
#ifndef RVMESS_CRC32_H
#define RVMESS_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* Continue a CRC: start with crc = 0; rvm_crc32(0, "123456789", 9) == 0xcbf43926. */
uint32_t rvm_crc32(uint32_t crc, const void *buf, size_t len);

#endif
