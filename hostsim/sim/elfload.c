/*
 * ELF loader: ELF64 little-endian EM_RISCV executables whose PT_LOAD
 * segments (by physical address) lie inside RAM.  Anything else is refused
 * with a reason; nothing is written to RAM unless the whole file checks out.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sim/sim.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif


static int in_ram(const struct sim *s, uint64_t a, uint64_t len)
{
	uint64_t off = a - s->ram_base;
	return a >= s->ram_base && off <= s->ram_size && len <= s->ram_size - off;
}

struct seg {
	uint64_t lo, hi;
	unsigned idx;
};

static int seg_cmp(const void *a, const void *b)
{
	const struct seg *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Two PT_LOAD segments that share an address: which one's bytes end up in
 * RAM depends on the load order, so the image is refused, naming both.
 * Sorted by address: n log n in the segment count.  The headers are checked
 * for bounds already. */
static int overlap(const uint8_t *buf, const Elf64_Ehdr *eh, char *err, size_t errlen)
{
	struct seg *v = malloc((size_t)eh->e_phnum * sizeof(*v));
	size_t n = 0;
	int rc = 0;

	if (!v)
		return sim_fail(err, errlen, "out of memory");
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;
		memcpy(&ph, buf + eh->e_phoff + (uint64_t)i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
			continue;
		v[n].lo = ph.p_paddr;
		v[n].hi = ph.p_paddr + ph.p_memsz; /* in RAM: no wrap */
		v[n++].idx = i;
	}
	qsort(v, n, sizeof(*v), seg_cmp);
	for (size_t k = 1; k < n && !rc; k++) {
		/* if any two overlap, two neighbours in address order do: the one
		 * after the lower of the two starts inside it */
		if (v[k].lo < v[k - 1].hi)
			rc = sim_fail(err, errlen, "segments %u [0x%llx, 0x%llx) and %u [0x%llx, 0x%llx) overlap",
			              v[k - 1].idx, (unsigned long long)v[k - 1].lo, (unsigned long long)v[k - 1].hi,
			              v[k].idx, (unsigned long long)v[k].lo, (unsigned long long)v[k].hi);
	}
	free(v);
	return rc;
}

int sim_load_elf_buf(struct sim *s, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
	Elf64_Ehdr eh;
	if (len < EI_NIDENT || memcmp(buf, ELFMAG, SELFMAG) != 0)
		return sim_fail(err, errlen, "not an ELF file");
	if (buf[EI_CLASS] != ELFCLASS64)
		return sim_fail(err, errlen, "not a 64-bit ELF (class %u)", buf[EI_CLASS]);
	if (buf[EI_DATA] != ELFDATA2LSB)
		return sim_fail(err, errlen, "not a little-endian ELF");
	if (len < sizeof(eh))
		return sim_fail(err, errlen, "truncated ELF header (%zu bytes)", len);
	memcpy(&eh, buf, sizeof(eh));
	if (eh.e_machine != EM_RISCV)
		return sim_fail(err, errlen, "wrong machine %u (want RISC-V, %u)", eh.e_machine, EM_RISCV);
	if (eh.e_type != ET_EXEC)
		return sim_fail(err, errlen, "not an executable (e_type %u)", eh.e_type);
	if (eh.e_phnum == 0)
		return sim_fail(err, errlen, "no program headers");
	if (eh.e_phentsize != sizeof(Elf64_Phdr))
		return sim_fail(err, errlen, "bad program header size %u", eh.e_phentsize);
	if (eh.e_phoff > len || (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr) > len - eh.e_phoff)
		return sim_fail(err, errlen, "truncated file: program headers past the end");

	int nload = 0;
	uint64_t lo = ~0ull, hi = 0;
	for (unsigned pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < eh.e_phnum; i++) {
			Elf64_Phdr ph;
			memcpy(&ph, buf + eh.e_phoff + (uint64_t)i * sizeof(ph), sizeof(ph));
			if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
				continue;
			if (pass == 0) {
				if (ph.p_filesz > ph.p_memsz)
					return sim_fail(err, errlen, "segment %u: file size larger than memory size", i);
				if (ph.p_offset > len || ph.p_filesz > len - ph.p_offset)
					return sim_fail(err, errlen, "truncated file: segment %u data past the end", i);
				if (!in_ram(s, ph.p_paddr, ph.p_memsz))
					return sim_fail(err, errlen, "segment %u [0x%llx, 0x%llx) outside RAM [0x%llx, 0x%llx)", i,
					            (unsigned long long)ph.p_paddr,
					            (unsigned long long)(ph.p_paddr + ph.p_memsz),
					            (unsigned long long)s->ram_base,
					            (unsigned long long)(s->ram_base + s->ram_size));
				nload++;
				if (ph.p_paddr < lo) lo = ph.p_paddr;
				if (ph.p_paddr + ph.p_memsz > hi) hi = ph.p_paddr + ph.p_memsz;
			} else {
				uint64_t off = ph.p_paddr - s->ram_base;
				memcpy(s->ram + off, buf + ph.p_offset, ph.p_filesz);
				memset(s->ram + off + ph.p_filesz, 0, ph.p_memsz - ph.p_filesz);
			}
		}
		if (pass == 0) {
			if (nload == 0)
				return sim_fail(err, errlen, "no loadable segment");
			if (overlap(buf, &eh, err, errlen))
				return -1;
			if (!in_ram(s, eh.e_entry, 4))
				return sim_fail(err, errlen, "entry point 0x%llx outside RAM", (unsigned long long)eh.e_entry);
			if (eh.e_entry & 3)
				return sim_fail(err, errlen, "entry point 0x%llx not 4-byte aligned", (unsigned long long)eh.e_entry);
		}
	}
	s->entry = eh.e_entry;
	s->image_lo = lo;
	s->image_hi = hi;
	return 0;
}

int sim_load_elf(struct sim *s, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return sim_fail(err, errlen, "cannot open: %s", strerror(errno));
	if (fseek(f, 0, SEEK_END) != 0) {
		fclose(f);
		return sim_fail(err, errlen, "cannot seek (not a regular file?)");
	}
	long n = ftell(f);
	if (n < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return sim_fail(err, errlen, "cannot read size");
	}
	if ((unsigned long)n > s->ram_size + (64ull << 20)) {
		fclose(f);
		return sim_fail(err, errlen, "file too large (%ld bytes) for %llu bytes of RAM", n,
		            (unsigned long long)s->ram_size);
	}
	uint8_t *buf = malloc(n ? (size_t)n : 1);
	if (!buf) {
		fclose(f);
		return sim_fail(err, errlen, "out of memory");
	}
	size_t got = fread(buf, 1, (size_t)n, f);
	fclose(f);
	if (got != (size_t)n) {
		free(buf);
		return sim_fail(err, errlen, "read error");
	}
	int rc = sim_load_elf_buf(s, buf, got, err, errlen);
	free(buf);
	return rc;
}

int sim_elf_symbol(const uint8_t *buf, size_t len, const char *name, uint64_t *value, uint64_t *size)
{
	Elf64_Ehdr eh;
	size_t nl = strlen(name);
	if (len < sizeof(eh) || memcmp(buf, ELFMAG, SELFMAG) != 0 || buf[EI_CLASS] != ELFCLASS64)
		return -1;
	memcpy(&eh, buf, sizeof(eh));
	if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > len ||
	    (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) > len - eh.e_shoff)
		return -1;
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr sh, st;
		memcpy(&sh, buf + eh.e_shoff + (uint64_t)i * sizeof(sh), sizeof(sh));
		if (sh.sh_type != SHT_SYMTAB || sh.sh_link >= eh.e_shnum || sh.sh_entsize != sizeof(Elf64_Sym) ||
		    sh.sh_offset > len || sh.sh_size > len - sh.sh_offset)
			continue;
		memcpy(&st, buf + eh.e_shoff + (uint64_t)sh.sh_link * sizeof(st), sizeof(st));
		if (st.sh_offset > len || st.sh_size > len - st.sh_offset)
			continue;
		for (uint64_t k = 0; k < sh.sh_size / sizeof(Elf64_Sym); k++) {
			Elf64_Sym sym;
			memcpy(&sym, buf + sh.sh_offset + k * sizeof(sym), sizeof(sym));
			if (sym.st_shndx == SHN_UNDEF || sym.st_name >= st.sh_size ||
			    nl >= st.sh_size - sym.st_name || ELF64_ST_BIND(sym.st_info) != STB_GLOBAL)
				continue;
			const char *n = (const char *)buf + st.sh_offset + sym.st_name;
			if (!memcmp(n, name, nl + 1)) {
				*value = sym.st_value;
				*size = sym.st_size;
				return 0;
			}
		}
	}
	return -1;
}
