/*
 * rvmess-relocs ELF: make a position-independent image's relocation table.
 *
 * The OpenSBI payload (sbi.elf) runs wherever the boot loader puts it
 * (0x80200000 on the HiFive Unmatched, 0x40200000 on the JH7110 boards).
 * Its code is PC-relative (-mcmodel=medany, no GOT), so only the 64-bit
 * words that hold an address (pointer tables, the platform struct) must
 * move; the image does that itself on entry (platform/sbi/entry.S) from the
 * table this tool writes at its rvm_relocs symbol.
 *
 * The ELF is linked with --emit-relocs (-Wl,-q), so its relocation sections
 * say where every address went.  For every relocation into a loaded
 * section:
 *   - PC-relative and label-difference types (branches, auipc pairs,
 *     ADD/SUB pairs, RELAX, ALIGN) are position-independent: nothing to do
 *     (SET6..SET32 write a symbol's value: refused like any absolute type);
 *   - R_RISCV_64 against a symbol in the image: its location (an offset
 *     from __image_start, 8-byte aligned, inside the loaded bytes) goes into
 *     the table;
 *   - anything against an absolute symbol (SHN_ABS) is a constant;
 *   - any other type (R_RISCV_32, HI20/LO12 absolute addressing, GOT, TLS)
 *     fails the build with file, section, address, symbol and type: such an
 *     image would not run at another address.
 * Table (at the symbol rvm_relocs): u64 magic "RVMRELOC", u64 link base,
 * u32 count, u32 capacity (set by the image), u32 offsets[capacity]; the
 * ELF is rewritten in place.
 * Exit status: 0, 1 when the image is not position-independent or the table
 * is too small, 2 for usage or I/O errors and malformed ELF files.
 */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RELOC_MAGIC 0x434f4c45524d5652ull /* "RVMRELOC" little-endian */
#define HDR_BYTES 24u

static const char *path;

static int die(int rc, const char *fmt, const char *a)
{
	fprintf(stderr, "rvmess-relocs: %s: ", path);
	fprintf(stderr, fmt, a);
	fputc('\n', stderr);
	return rc;
}

/* Types that stay right wherever the image is loaded. */
static int pc_relative(uint32_t t)
{
	switch (t) {
	case R_RISCV_NONE:
	case R_RISCV_BRANCH:
	case R_RISCV_JAL:
	case R_RISCV_CALL:
	case R_RISCV_CALL_PLT:
	case R_RISCV_PCREL_HI20:
	case R_RISCV_PCREL_LO12_I:
	case R_RISCV_PCREL_LO12_S:
	case R_RISCV_ADD8: case R_RISCV_ADD16: case R_RISCV_ADD32: case R_RISCV_ADD64:
	case R_RISCV_SUB8: case R_RISCV_SUB16: case R_RISCV_SUB32: case R_RISCV_SUB64:
	case R_RISCV_SUB6: case R_RISCV_32_PCREL:
	case R_RISCV_ALIGN:
	case R_RISCV_RVC_BRANCH:
	case R_RISCV_RVC_JUMP:
	case R_RISCV_RELAX:
		return 1;
	default:
		return 0;
	}
}

static int in_file(size_t n, uint64_t off, uint64_t len)
{
	return off <= n && len <= n - off;
}

int main(int argc, char **argv)
{
	FILE *f;
	unsigned char *b;
	long n;
	Elf64_Ehdr eh;
	const Elf64_Shdr *sh;
	const char *shstr;
	const Elf64_Shdr *tab = NULL, *symtab = NULL;
	uint64_t base = 0, end = 0, tab_addr = 0, tab_off;
	int have_base = 0, bad = 0;
	uint32_t count = 0, cap;
	char msg[512];

	if (argc != 2) {
		fprintf(stderr, "usage: rvmess-relocs ELF   (rewrites ELF's .rvm_relocs table in place)\n");
		return 2;
	}
	path = argv[1];
	f = fopen(path, "rb");
	if (!f)
		return die(2, "cannot open: %s", strerror(errno));
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		return die(2, "cannot size: %s", strerror(errno));
	b = malloc((size_t)n + 1);
	if (!b || fread(b, 1, (size_t)n, f) != (size_t)n)
		return die(2, "cannot read: %s", strerror(errno));
	fclose(f);

	if ((size_t)n < sizeof eh || memcmp(b, ELFMAG, SELFMAG))
		return die(2, "%s", "not an ELF file");
	memcpy(&eh, b, sizeof eh);
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_machine != EM_RISCV)
		return die(2, "%s", "not a little-endian 64-bit RISC-V ELF file");
	if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shstrndx >= eh.e_shnum ||
	    !in_file((size_t)n, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr)) ||
	    eh.e_shoff % 8)
		return die(2, "%s", "bad section header table");
	sh = (const Elf64_Shdr *)(b + eh.e_shoff);
	if (!in_file((size_t)n, sh[eh.e_shstrndx].sh_offset, sh[eh.e_shstrndx].sh_size))
		return die(2, "%s", "bad section name table");
	shstr = (const char *)b + sh[eh.e_shstrndx].sh_offset;
	b[n] = 0; /* names end inside the buffer even in a corrupt file */
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		if (sh[i].sh_name >= sh[eh.e_shstrndx].sh_size)
			return die(2, "%s", "bad section name offset");
		if (sh[i].sh_type != SHT_NOBITS && !in_file((size_t)n, sh[i].sh_offset, sh[i].sh_size))
			return die(2, "section %s lies outside the file", shstr + sh[i].sh_name);
		if (sh[i].sh_type == SHT_SYMTAB)
			symtab = &sh[i];
		/* the loaded bytes end with the last allocated PROGBITS section */
		if ((sh[i].sh_flags & SHF_ALLOC) && sh[i].sh_type == SHT_PROGBITS &&
		    sh[i].sh_addr + sh[i].sh_size > end)
			end = sh[i].sh_addr + sh[i].sh_size;
	}
	if (!symtab || symtab->sh_entsize != sizeof(Elf64_Sym) || symtab->sh_link >= eh.e_shnum ||
	    symtab->sh_offset % 8)
		return die(2, "%s", "no usable symbol table");
	const Elf64_Sym *syms = (const Elf64_Sym *)(b + symtab->sh_offset);
	size_t nsyms = symtab->sh_size / sizeof(Elf64_Sym);
	const Elf64_Shdr *strsh = &sh[symtab->sh_link];
	const char *strs = (const char *)b + strsh->sh_offset;
	if (!in_file((size_t)n, symtab->sh_offset, symtab->sh_size) ||
	    !in_file((size_t)n, strsh->sh_offset, strsh->sh_size))
		return die(2, "%s", "bad symbol table");
	for (size_t i = 0; i < nsyms; i++) {
		const char *nm = syms[i].st_name < strsh->sh_size ? strs + syms[i].st_name : "";
		if (!strcmp(nm, "__image_start")) {
			base = syms[i].st_value;
			have_base = 1;
		} else if (!strcmp(nm, "rvm_relocs") && syms[i].st_shndx < eh.e_shnum) {
			tab = &sh[syms[i].st_shndx];
			tab_addr = syms[i].st_value;
		}
	}
	if (!have_base)
		return die(1, "%s", "no __image_start symbol (linker/sections.ld)");
	/* the table: the rvm_relocs symbol, in a loaded section, its header and
	 * the capacity the image declares inside the file */
	if (!tab || tab->sh_type != SHT_PROGBITS || tab_addr < tab->sh_addr ||
	    tab_addr - tab->sh_addr > tab->sh_size || tab->sh_size - (tab_addr - tab->sh_addr) < HDR_BYTES)
		return die(1, "%s", "no rvm_relocs table (is platform/sbi/entry.S linked in?)");
	tab_off = tab->sh_offset + (tab_addr - tab->sh_addr);
	memcpy(&cap, b + tab_off + 20, 4);
	if (tab->sh_size - (tab_addr - tab->sh_addr) - HDR_BYTES < (uint64_t)cap * 4)
		return die(2, "%s", "the rvm_relocs table's capacity runs past its section");
	uint32_t *offs = (uint32_t *)(b + tab_off + HDR_BYTES);

	for (unsigned i = 0; i < eh.e_shnum; i++) {
		const Elf64_Shdr *rs = &sh[i];
		if (rs->sh_type == SHT_REL)
			return die(1, "%s", "REL relocations: want RELA (--emit-relocs on RISC-V)");
		if (rs->sh_type != SHT_RELA || rs->sh_info >= eh.e_shnum ||
		    !(sh[rs->sh_info].sh_flags & SHF_ALLOC))
			continue;
		if (rs->sh_entsize != sizeof(Elf64_Rela) || rs->sh_offset % 8)
			return die(2, "bad relocation section %s", shstr + rs->sh_name);
		const Elf64_Shdr *target = &sh[rs->sh_info];
		const char *tname = shstr + target->sh_name;
		const Elf64_Rela *r = (const Elf64_Rela *)(b + rs->sh_offset);
		size_t nr = rs->sh_size / sizeof(Elf64_Rela);
		for (size_t k = 0; k < nr; k++) {
			uint32_t type = (uint32_t)ELF64_R_TYPE(r[k].r_info);
			size_t si = ELF64_R_SYM(r[k].r_info);
			const char *sname = "?";
			if (pc_relative(type))
				continue;
			if (si >= nsyms)
				return die(2, "relocation in %s names a symbol out of range", tname);
			if (syms[si].st_name < strsh->sh_size && syms[si].st_name)
				sname = strs + syms[si].st_name;
			else if (syms[si].st_shndx < eh.e_shnum)
				sname = shstr + sh[syms[si].st_shndx].sh_name; /* a section symbol */
			if (syms[si].st_shndx == SHN_ABS)
				continue; /* a constant, not an address */
			if (type == R_RISCV_64 && r[k].r_offset % 8 == 0 && r[k].r_offset >= base &&
			    r[k].r_offset + 8 <= end &&
			    (r[k].r_offset + 8 <= tab_addr || r[k].r_offset >= tab_addr + HDR_BYTES + 4ull * cap)) {
				if (count < cap)
					offs[count] = (uint32_t)(r[k].r_offset - base);
				count++;
				continue;
			}
			snprintf(msg, sizeof msg,
				 "%s+0x%llx (address 0x%llx): relocation type %u against '%s' is not "
				 "position-independent%s",
				 tname, (unsigned long long)(r[k].r_offset - target->sh_addr),
				 (unsigned long long)r[k].r_offset, type, sname,
				 type == R_RISCV_64 ? " (unaligned or outside the loaded image)"
				 : type == R_RISCV_HI20 || type == R_RISCV_LO12_I || type == R_RISCV_LO12_S
				 ? " (absolute addressing: lui/%hi; use lla / -mcmodel=medany)" : "");
			die(1, "%s", msg);
			if (++bad >= 20)
				return 1;
		}
	}
	if (bad)
		return 1;
	if (count > cap) {
		snprintf(msg, sizeof msg, "%u addresses to relocate, the table holds %u "
			 "(raise RELOC_CAP in platform/sbi/entry.S)", count, cap);
		return die(1, "%s", msg);
	}
	uint64_t magic = RELOC_MAGIC;
	memcpy(b + tab_off, &magic, 8);
	memcpy(b + tab_off + 8, &base, 8);
	memcpy(b + tab_off + 16, &count, 4);
	f = fopen(path, "r+b");
	if (!f || fseek(f, (long)tab_off, SEEK_SET) ||
	    fwrite(b + tab_off, 1, HDR_BYTES + 4u * count, f) != HDR_BYTES + 4u * count || fclose(f))
		return die(2, "cannot write the table: %s", strerror(errno));
	free(b);
	return 0;
}
