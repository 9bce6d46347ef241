/*
 * A small, defensive flattened-device-tree reader (firmware/lib/fdt.c).
 *
 * Pure C, no allocation, no libc: built into the image and, unchanged, into
 * the host unit tests.  It never reads outside [blob, blob + maxlen) and
 * never loops without bound: a malformed blob gives status < 0, a reason and
 * the offending offset, and the caller falls back to platform defaults.
 */
#ifndef RVMESS_FDT_H
#define RVMESS_FDT_H

#include <stddef.h>
#include <stdint.h>

#define RVM_MAX_HARTS 64
#define RVM_FDT_MAX_RSV 8

struct fdt_hart {
	uint32_t hartid;      /* reg of the cpu node */
	uint8_t  enabled;     /* status absent, "okay" or "ok" */
	char     isa[64];     /* riscv,isa (truncated, NUL-terminated) */
};

struct fdt_region {
	uint64_t base, size;
};

/* A device node; what device it is, is its driver's business. */
struct fdt_node {
	uint64_t base, size;      /* its first reg entry; base 0 and size 0: none */
	char     compat[64];      /* compatible: NUL-separated strings, whole ones only */
	uint32_t compat_len;      /* bytes of compat used, including each NUL */
	uint32_t reg_shift;       /* reg-shift, 0 if absent */
	uint32_t reg_io_width;    /* reg-io-width, 0 if absent */
};

struct fdt_info {
	int         status;    /* 0 ok, < 0 refused (then only `reason`/`err_off` are meaningful) */
	const char *reason;    /* static string, e.g. "bad-magic", "truncated", "bad-token" */
	uint32_t    err_off;   /* byte offset in the blob where parsing failed */
	uint32_t    totalsize; /* header totalsize */

	uint32_t         nharts;   /* cpu nodes found (enabled or not), at most RVM_MAX_HARTS */
	struct fdt_hart  harts[RVM_MAX_HARTS];
	uint64_t         timebase; /* /cpus timebase-frequency (or a cpu's), 0 if absent */

	uint64_t mem_base, mem_size;  /* first /memory reg, 0 if absent */

	/* the node /chosen stdout-path names, when enabled and with a reg
	 * (any compatible: a UART, an HTIF, ...); zero if none */
	struct fdt_node console;

	uint64_t clint_base;          /* riscv,clint0 / sifive,clint0 (mtime at +0xbff8) */
	uint64_t test_base;           /* sifive,test0 / sifive,test1 (the finisher) */
	int      has_htif;            /* a ucb,htif0 node exists */
	uint64_t memctl_base;         /* rvmess,memctl-counters (hostsim), 0 if absent */
	/* mhpmevent values counting the chase's misses: /cpus properties
	 * rvmess,hpm-event-l1d-miss and rvmess,hpm-event-llc-miss; 0 if absent */
	uint64_t hpm_l1d_miss, hpm_llc_miss;
	/* the size in bytes of the largest cache the tree describes, 0 if it
	 * describes none: the enabled cpu nodes' d-cache-size (or cache-size,
	 * a unified L1) and every enabled cache node's cache-size (or
	 * d-cache-size), a cache node being one with a cache-level property or
	 * a compatible string containing "cache" (devicetree specification,
	 * "Multi-level and Shared Cache Nodes"; SiFive's cache-controller) */
	uint64_t cache_max;

	uint32_t          nrsv;       /* /memreserve/ entries and /reserved-memory children */
	struct fdt_region rsv[RVM_FDT_MAX_RSV];

	/* the accepted blob, for fdt_find_compatible (NULL when refused) */
	const void *blob;
	uint32_t    blob_len;
};

/*
 * Read the blob once into buf ([buf, buf + cap)) and return where to parse
 * it: the copy, with *len its totalsize, or `blob` itself, with *len =
 * maxlen, when it is not copied.  Then fdt_parse(result, *len, ...).
 *
 * The parser reads many bytes several times over, and the second user
 * (fdt_find_compatible) walks the blob again: cheap in cached RAM, but
 * OpenPiton's boot ROM is uncached I/O, a NoC round trip per load.  The
 * copy reads each byte once, in naturally aligned loads of 8 bytes
 * (4-byte loads and single bytes only at the ends, when the blob is not
 * 8-byte aligned: the copy then sits at the same address modulo 8).
 *
 * The header's magic and totalsize are read first (at most 8 bytes, never
 * beyond maxlen); the blob is copied only when the magic is right, the
 * totalsize is at least a version-16 header and at most maxlen, it fits buf
 * (totalsize + (blob - buf) % 8 <= cap) and its range does not overlap
 * buf's.  Anything else is parsed in place, as before: a blob larger than
 * buf, or one fdt_parse will refuse, gets exactly the refusal (reason and
 * offset) it got without the copy, and so does a copied one, since fdt_parse
 * reads nothing beyond a totalsize it accepted.
 */
const void *fdt_copy(const void *blob, size_t maxlen, void *buf, size_t cap, size_t *len);

/*
 * Parse `blob` (at most `maxlen` bytes are ever read; pass the buffer size,
 * or a platform bound such as the end of RAM).  Fills `out` and returns
 * out->status.
 */
int fdt_parse(const void *blob, size_t maxlen, struct fdt_info *out);

/*
 * The first enabled node, in document order, with a reg and a compatible
 * string from the NULL-terminated list `compat`, in the blob fi accepted.
 * Returns 1 and fills out, or 0 (out zeroed).  The blob must still be where
 * fdt_parse read it (fdt_copy's copy, when it made one).
 */
int fdt_find_compatible(const struct fdt_info *fi, const char *const *compat,
			struct fdt_node *out);
/* 1 when the node's compatible list contains `compat`. */
int fdt_node_compatible(const struct fdt_node *n, const char *compat);

#endif
