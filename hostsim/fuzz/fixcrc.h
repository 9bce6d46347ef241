/*
 * For the fuzz targets that read console logs (log, merge, capture): every
 * record candidate "@RVM ... *XXXXXXXX" gets the right checksum, so that a
 * mutated field reaches the code behind the checksum test rather than
 * stopping at "bad crc".  The 8 characters after the first '*' of each
 * candidate (when they are on its line) become the CRC of what the reader
 * checks, the bytes from '@' up to the space before '*'.
 */
#ifndef RVMESS_FUZZ_FIXCRC_H
#define RVMESS_FUZZ_FIXCRC_H

#include <stddef.h>
#include <string.h>

#include "rvmess/crc32.h"

static inline void fuzz_fix_crcs(char *b, size_t n)
{
	for (size_t i = 0; i + 5 <= n; i++) {
		size_t j = i + 5, k;
		uint32_t c;

		if (memcmp(b + i, "@RVM ", 5) != 0)
			continue;
		while (j < n && b[j] != '*' && b[j] != '\n')
			j++;
		if (j >= n || b[j] != '*' || b[j - 1] != ' ' || n - j - 1 < 8)
			continue;
		for (k = 1; k <= 8 && b[j + k] != '\n'; k++)
			;
		if (k <= 8)
			continue;
		c = rvm_crc32(0, b + i, j - 1 - i);
		for (k = 0; k < 8; k++)
			b[j + 1 + k] = "0123456789abcdef"[(c >> (28 - 4 * k)) & 15];
	}
}

#endif
