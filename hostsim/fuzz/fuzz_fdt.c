/*
 * Fuzz target: the image's flattened-device-tree reader (firmware/lib/fdt.c,
 * built for the host), on an exact-size buffer: fdt.h promises that it never
 * reads outside [blob, blob + maxlen) and always ends.  The fields of an
 * accepted tree are checked against the bounds fdt.h gives them.
 */
#include "fuzz/fuzz.h"

#include <string.h>

#include "rvmess/fdt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fdt_info info;
	int rc = fdt_parse(data, size, &info);

	if (rc != info.status)
		fuzz_fail("fdt_parse returned %d, status %d", rc, info.status);
	if (rc < 0) {
		if (!info.reason || !*info.reason)
			fuzz_fail("refused (%d) without a reason", rc);
		return 0;
	}
	if (info.totalsize > size)
		fuzz_fail("accepted totalsize %u > %zu bytes given", info.totalsize, size);
	if (info.nharts > RVM_MAX_HARTS)
		fuzz_fail("nharts %u > %d", info.nharts, RVM_MAX_HARTS);
	if (info.nrsv > RVM_FDT_MAX_RSV)
		fuzz_fail("nrsv %u > %d", info.nrsv, RVM_FDT_MAX_RSV);
	for (uint32_t i = 0; i < info.nharts; i++)
		if (strnlen(info.harts[i].isa, sizeof(info.harts[i].isa)) == sizeof(info.harts[i].isa))
			fuzz_fail("hart %u: isa not NUL-terminated", i);
	return 0;
}
