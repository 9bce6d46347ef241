/* ELF64 section lookup: see elf.h.  Reads fields byte by byte (little
 * endian), so it is independent of the host's byte order and alignment. */
#include "cli/elf.h"

#include <stdio.h>
#include <string.h>

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

/* off + size <= len without overflow */
static int in_bounds(uint64_t off, uint64_t size, size_t len)
{
	return off <= len && size <= len - off;
}

#define WHY(...) (snprintf(why, whylen, __VA_ARGS__), -1)

int elf_find_section(const unsigned char *buf, size_t len, const char *name,
		     struct elf_section *sec, char *why, size_t whylen)
{
	uint64_t shoff, stroff, strsz;
	unsigned shentsize, shnum, shstrndx, machine;
	const unsigned char *strsh;

	if (len < 64)
		return WHY("file too short for an ELF64 header (%zu bytes)", len);
	if (memcmp(buf, "\177ELF", 4) != 0)
		return WHY("no ELF magic");
	if (buf[4] != 2)
		return WHY("not ELFCLASS64 (EI_CLASS=%u)", buf[4]);
	if (buf[5] != 1)
		return WHY("not little-endian (EI_DATA=%u)", buf[5]);
	machine = (unsigned)le(buf + 18, 2);
	if (machine != RVM_EM_RISCV)
		return WHY("e_machine is %u, not EM_RISCV (243)", machine);
	shoff = le(buf + 40, 8);
	shentsize = (unsigned)le(buf + 58, 2);
	shnum = (unsigned)le(buf + 60, 2);
	shstrndx = (unsigned)le(buf + 62, 2);
	if (shoff == 0 || shnum == 0)
		return WHY("no section header table");
	if (shentsize != 64)
		return WHY("bad e_shentsize %u (want 64)", shentsize);
	if (!in_bounds(shoff, (uint64_t)shnum * 64, len))
		return WHY("section header table out of bounds (offset %llu, %u entries, file %zu bytes)",
			   (unsigned long long)shoff, shnum, len);
	if (shstrndx == 0 || shstrndx >= shnum)
		return WHY("bad e_shstrndx %u (%u sections)", shstrndx, shnum);
	strsh = buf + shoff + (uint64_t)shstrndx * 64;
	if (le(strsh + 4, 4) != 3)
		return WHY("section name table (section %u) is not SHT_STRTAB", shstrndx);
	stroff = le(strsh + 24, 8);
	strsz = le(strsh + 32, 8);
	if (!in_bounds(stroff, strsz, len) || strsz == 0)
		return WHY("section name table out of bounds");

	for (unsigned i = 1; i < shnum; i++) {
		const unsigned char *sh = buf + shoff + (uint64_t)i * 64;
		uint64_t nm = le(sh, 4), nlen;
		const char *s;

		if (nm >= strsz)
			return WHY("section %u name offset %llu out of bounds", i, (unsigned long long)nm);
		s = (const char *)buf + stroff + nm;
		nlen = (uint64_t)(strnlen(s, (size_t)(strsz - nm)));
		if (nlen == strsz - nm)
			return WHY("section %u name not terminated inside the name table", i);
		if (strcmp(s, name) != 0)
			continue;
		if (le(sh + 4, 4) == 8)
			return WHY("section %s has no file data (SHT_NOBITS)", name);
		sec->addr = le(sh + 16, 8);
		sec->offset = le(sh + 24, 8);
		sec->size = le(sh + 32, 8);
		if (!in_bounds(sec->offset, sec->size, len))
			return WHY("section %s out of bounds (offset %llu size %llu, file %zu bytes)", name,
				   (unsigned long long)sec->offset, (unsigned long long)sec->size, len);
		return 0;
	}
	return 1;
}
