/*
 * Fuzz target: the image's flattened-device-tree reader (firmware/lib/fdt.c,
 * built for the host), on an exact-size buffer: fdt.h promises that it never
 * reads outside [blob, blob + maxlen) and always ends.  The fields of an
 * accepted tree are checked against the bounds fdt.h gives them.  The image
 * parses what fdt_copy returns: that parse must be the same, field for
 * field (the blob pointer aside).
 */
#include "fuzz/fuzz.h"

#include <string.h>

#include "rvmess/fdt.h"

static uint8_t copy_buf[32768] __attribute__((aligned(8)));

static void same_via_copy(const uint8_t *data, size_t size, const struct fdt_info *in_place)
{
	static struct fdt_info a, b;
	size_t len;
	const void *p = fdt_copy(data, size, copy_buf, sizeof copy_buf, &len);
	int rc = fdt_parse(p, len, &b);

	memcpy(&a, in_place, sizeof a);
	if (rc != a.status || strcmp(b.reason, a.reason) || b.err_off != a.err_off)
		fuzz_fail("through fdt_copy: %d %s at %u, in place %d %s at %u", rc, b.reason, b.err_off,
			  a.status, a.reason, a.err_off);
	a.blob = b.blob = NULL;
	a.reason = b.reason = NULL;
	if (memcmp(&a, &b, sizeof a))
		fuzz_fail("through fdt_copy: another fdt_info than in place");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fdt_info info;
	int rc = fdt_parse(data, size, &info);

	same_via_copy(data, size, &info);

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
