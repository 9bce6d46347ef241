/*
 * The one number parser of rvmess: image config values (`rvmess config`),
 * hostsim's options and its --config files, the memory-system keys.
 * Header-only and freestanding (stdint only), so the image, the host tool and
 * hostsim all include the same code.
 *
 * Syntax (docs/formats.md, "Numbers"):
 *   - decimal digits only, at least one; leading zeros do not mean octal
 *     ("010" is 10); no sign, no blanks, no hex ("0x10" is refused);
 *   - an optional binary suffix: K, M, G or T (2^10, 2^20, 2^30, 2^40), the
 *     letter in either case, optionally followed by "iB" ("64M", "64m",
 *     "64MiB", "1T", "1TiB"); "KB"/"MB"/... are refused as ambiguous;
 *   - a value above 2^64-1, with or without the suffix, is refused.
 */
#ifndef RVMESS_NUMPARSE_H
#define RVMESS_NUMPARSE_H

#include <stdint.h>

enum {
	RVM_NUM_OK = 0,
	RVM_NUM_EMPTY = -1,     /* no digits */
	RVM_NUM_NOT_DEC = -2,   /* sign, blank, hex prefix or another non-digit */
	RVM_NUM_SUFFIX = -3,    /* something after the digits that is not a suffix */
	RVM_NUM_OVERFLOW = -4,  /* above 2^64-1 */
};

/* Parse s as described above.  RVM_NUM_OK and *out set, or a negative
 * RVM_NUM_* code and *out untouched. */
static inline int rvm_parse_num(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	unsigned shift = 0;
	const char *p = s;

	if (!s || !*s)
		return RVM_NUM_EMPTY;
	if (*p < '0' || *p > '9')
		return RVM_NUM_NOT_DEC;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return RVM_NUM_NOT_DEC;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return RVM_NUM_OVERFLOW;
		v = v * 10 + d;
	}
	switch (*p) {
	case 0: break;
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	case 't': case 'T': shift = 40; break;
	default:
		return (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ? RVM_NUM_SUFFIX : RVM_NUM_NOT_DEC;
	}
	if (shift) {
		p++;
		if (p[0] == 'i' && p[1] == 'B')
			p += 2;
		if (*p)
			return RVM_NUM_SUFFIX;
		if (v > (UINT64_MAX >> shift))
			return RVM_NUM_OVERFLOW;
		v <<= shift;
	}
	*out = v;
	return RVM_NUM_OK;
}

/* Why rvm_parse_num refused, for messages ("'0x10' is not a number: ..."). */
static inline const char *rvm_num_why(int code)
{
	switch (code) {
	case RVM_NUM_OK: return "ok";
	case RVM_NUM_EMPTY: return "empty";
	case RVM_NUM_SUFFIX: return "unknown suffix (want K, M, G, T or KiB, MiB, GiB, TiB)";
	case RVM_NUM_OVERFLOW: return "above 2^64-1";
	default: return "not a decimal number (digits only; no sign, no 0x)";
	}
}

#endif
