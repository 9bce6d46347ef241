/* hostsim ELF loader: accepted images and every refusal (sim/elfload.c). */
#include <elf.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "sim/sim.h"

#define RAM_BASE 0x80000000ull
#define RAM_SIZE (1u << 20)

struct img {
	Elf64_Ehdr eh;
	Elf64_Phdr ph[2];
	uint8_t data[64];
};

static struct sim *new_sim(void)
{
	struct sim *s = calloc(1, sizeof(*s));
	s->ram = calloc(1, RAM_SIZE);
	s->ram_base = RAM_BASE;
	s->ram_size = RAM_SIZE;
	memset(s->ram, 0x5a, RAM_SIZE); /* to see what the loader writes */
	return s;
}

static void free_sim(struct sim *s)
{
	free(s->ram);
	free(s);
}

/* A valid image: segment 0 = 16 data bytes + 16 bss bytes at RAM_BASE+0x100,
 * segment 1 = 8 bytes at RAM_BASE+0x1000 */
static void make(struct img *m)
{
	memset(m, 0, sizeof(*m));
	memcpy(m->eh.e_ident, ELFMAG, SELFMAG);
	m->eh.e_ident[EI_CLASS] = ELFCLASS64;
	m->eh.e_ident[EI_DATA] = ELFDATA2LSB;
	m->eh.e_ident[EI_VERSION] = EV_CURRENT;
	m->eh.e_type = ET_EXEC;
	m->eh.e_machine = 243;
	m->eh.e_version = EV_CURRENT;
	m->eh.e_entry = RAM_BASE + 0x100;
	m->eh.e_phoff = offsetof(struct img, ph);
	m->eh.e_ehsize = sizeof(Elf64_Ehdr);
	m->eh.e_phentsize = sizeof(Elf64_Phdr);
	m->eh.e_phnum = 2;
	m->ph[0].p_type = PT_LOAD;
	m->ph[0].p_offset = offsetof(struct img, data);
	m->ph[0].p_paddr = m->ph[0].p_vaddr = RAM_BASE + 0x100;
	m->ph[0].p_filesz = 16;
	m->ph[0].p_memsz = 32;
	m->ph[1].p_type = PT_LOAD;
	m->ph[1].p_offset = offsetof(struct img, data) + 16;
	m->ph[1].p_paddr = m->ph[1].p_vaddr = RAM_BASE + 0x1000;
	m->ph[1].p_filesz = 8;
	m->ph[1].p_memsz = 8;
	for (int i = 0; i < 64; i++)
		m->data[i] = (uint8_t)(i + 1);
}

static void test_valid(void **state)
{
	(void)state;
	struct sim *s = new_sim();
	struct img m;
	char err[256] = "";
	make(&m);
	assert_int_equal(sim_load_elf_buf(s, (uint8_t *)&m, sizeof(m), err, sizeof(err)), 0);
	assert_int_equal(s->entry, RAM_BASE + 0x100);
	assert_memory_equal(s->ram + 0x100, m.data, 16);
	for (int i = 16; i < 32; i++)
		assert_int_equal(s->ram[0x100 + i], 0); /* bss zeroed */
	assert_int_equal(s->ram[0x100 + 32], 0x5a);  /* nothing past memsz */
	assert_memory_equal(s->ram + 0x1000, m.data + 16, 8);
	assert_int_equal(s->image_lo, RAM_BASE + 0x100);
	assert_int_equal(s->image_hi, RAM_BASE + 0x1008);
	free_sim(s);
}

/* Refused: returns -1, the reason contains `want`, RAM untouched. */
static void refuse(struct img *m, size_t len, const char *want)
{
	struct sim *s = new_sim();
	char err[256] = "";
	int rc = sim_load_elf_buf(s, (uint8_t *)m, len, err, sizeof(err));
	if (rc != -1 || !strstr(err, want))
		fail_msg("rc=%d err='%s', want -1 and '%s'", rc, err, want);
	for (size_t i = 0; i < 0x2000; i++)
		if (s->ram[i] != 0x5a)
			fail_msg("RAM written at +0x%zx although the image was refused (%s)", i, want);
	free_sim(s);
}

static void test_refusals(void **state)
{
	(void)state;
	struct img m;

	make(&m); m.eh.e_ident[1] = 'X';                 refuse(&m, sizeof(m), "not an ELF file");
	make(&m);                                        refuse(&m, 3, "not an ELF file");
	make(&m); m.eh.e_ident[EI_CLASS] = ELFCLASS32;   refuse(&m, sizeof(m), "not a 64-bit ELF");
	make(&m); m.eh.e_ident[EI_DATA] = ELFDATA2MSB;   refuse(&m, sizeof(m), "not a little-endian ELF");
	make(&m);                                        refuse(&m, 40, "truncated ELF header");
	make(&m); m.eh.e_machine = 62;                   refuse(&m, sizeof(m), "wrong machine 62");
	make(&m); m.eh.e_type = ET_DYN;                  refuse(&m, sizeof(m), "not an executable");
	make(&m); m.eh.e_phnum = 0;                      refuse(&m, sizeof(m), "no program headers");
	make(&m); m.eh.e_phentsize = 32;                 refuse(&m, sizeof(m), "bad program header size");
	make(&m); m.eh.e_phoff = sizeof(m) - 8;          refuse(&m, sizeof(m), "truncated file");
	make(&m); m.eh.e_phoff = ~0ull - 8;              refuse(&m, sizeof(m), "truncated file");
	make(&m);                 refuse(&m, offsetof(struct img, data) + 8, "truncated file: segment 0");
	make(&m); m.ph[1].p_offset = ~0ull - 2;          refuse(&m, sizeof(m), "truncated file: segment 1");
	make(&m); m.ph[0].p_filesz = 40;                 refuse(&m, sizeof(m), "file size larger");
	make(&m); m.ph[1].p_paddr = 0x1000;              refuse(&m, sizeof(m), "segment 1 [0x1000, 0x1008) outside RAM");
	make(&m); m.ph[1].p_paddr = RAM_BASE + RAM_SIZE - 4; refuse(&m, sizeof(m), "outside RAM");
	make(&m); m.ph[1].p_paddr = RAM_BASE + RAM_SIZE;     refuse(&m, sizeof(m), "outside RAM");
	make(&m); m.ph[1].p_paddr = ~0ull - 3;               refuse(&m, sizeof(m), "outside RAM");
	make(&m); m.ph[1].p_memsz = ~0ull;                   refuse(&m, sizeof(m), "outside RAM");
	make(&m); m.ph[0].p_type = PT_NOTE; m.ph[1].p_type = PT_NULL; refuse(&m, sizeof(m), "no loadable segment");
	make(&m); m.eh.e_entry = 0x1000;                 refuse(&m, sizeof(m), "entry point 0x1000 outside RAM");
	make(&m); m.eh.e_entry = RAM_BASE + 0x102;       refuse(&m, sizeof(m), "not 4-byte aligned");
	/* two segments on one address: which bytes load would depend on their
	 * order (seg 0 is [+0x100, +0x120)) */
	make(&m); m.ph[1].p_paddr = RAM_BASE + 0x118;
	refuse(&m, sizeof(m), "segments 0 [0x80000100, 0x80000120) and 1 [0x80000118, 0x80000120) overlap");
	make(&m); m.ph[1].p_paddr = RAM_BASE + 0xf0; m.ph[1].p_memsz = 0x100;
	refuse(&m, sizeof(m), "segments 1 [0x800000f0, 0x800001f0) and 0 [0x80000100, 0x80000120) overlap");
	make(&m); m.ph[1].p_paddr = RAM_BASE + 0x100;    refuse(&m, sizeof(m), "overlap");
}

/* segments that touch without sharing a byte are fine */
static void test_adjacent_segments(void **state)
{
	(void)state;
	struct sim *s = new_sim();
	struct img m;
	char err[256] = "";
	make(&m);
	m.ph[1].p_paddr = RAM_BASE + 0x120;
	assert_int_equal(sim_load_elf_buf(s, (uint8_t *)&m, sizeof(m), err, sizeof(err)), 0);
	assert_memory_equal(s->ram + 0x120, m.data + 16, 8);
	free_sim(s);
}

/* a non-LOAD segment anywhere is ignored */
static void test_ignores_other_segments(void **state)
{
	(void)state;
	struct sim *s = new_sim();
	struct img m;
	char err[256];
	make(&m);
	m.ph[1].p_type = PT_NOTE;
	m.ph[1].p_paddr = 0x1000;
	assert_int_equal(sim_load_elf_buf(s, (uint8_t *)&m, sizeof(m), err, sizeof(err)), 0);
	assert_int_equal(s->ram[0x1000], 0x5a);
	free_sim(s);
}

static void test_file(void **state)
{
	(void)state;
	struct sim *s = new_sim();
	char err[256] = "";
	assert_int_equal(sim_load_elf(s, "/nonexistent/hostsim.elf", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot open"));
	char path[] = "/tmp/test_sim_elf.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	struct img m;
	make(&m);
	FILE *f = fdopen(fd, "wb");
	fwrite(&m, 1, sizeof(m), f);
	fclose(f);
	assert_int_equal(sim_load_elf(s, path, err, sizeof(err)), 0);
	assert_memory_equal(s->ram + 0x1000, m.data + 16, 8);
	remove(path);
	free_sim(s);
}

/* sim_elf_symbol: global symbols by name from .symtab/.strtab; locals,
 * undefined symbols, names past the string table and a symbol table past
 * the end of the file are not found. */
struct symimg {
	Elf64_Ehdr eh;
	Elf64_Shdr sh[3];
	Elf64_Sym sym[5];
	char str[32];
};

static void test_symbols(void **state)
{
	static struct symimg m;
	static const char str[] = "\0tohost\0pass\0fail\0undef";
	uint64_t v = 0, size = 0;
	(void)state;
	memset(&m, 0, sizeof(m));
	memcpy(m.eh.e_ident, ELFMAG, SELFMAG);
	m.eh.e_ident[EI_CLASS] = ELFCLASS64;
	m.eh.e_shoff = offsetof(struct symimg, sh);
	m.eh.e_shentsize = sizeof(Elf64_Shdr);
	m.eh.e_shnum = 3;
	m.sh[1].sh_type = SHT_SYMTAB;
	m.sh[1].sh_link = 2;
	m.sh[1].sh_entsize = sizeof(Elf64_Sym);
	m.sh[1].sh_offset = offsetof(struct symimg, sym);
	m.sh[1].sh_size = sizeof(m.sym);
	m.sh[2].sh_type = SHT_STRTAB;
	m.sh[2].sh_offset = offsetof(struct symimg, str);
	m.sh[2].sh_size = sizeof(str);
	memcpy(m.str, str, sizeof(str));
	/* 1 tohost global, 2 pass local, 3 fail global, 4 undef (undefined) */
	m.sym[1] = (Elf64_Sym){ .st_name = 1, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT), .st_shndx = 1,
	                        .st_value = 0x80017b80, .st_size = 8 };
	m.sym[2] = (Elf64_Sym){ .st_name = 8, .st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC), .st_shndx = 1,
	                        .st_value = 0x80000100, .st_size = 4 };
	m.sym[3] = (Elf64_Sym){ .st_name = 13, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), .st_shndx = 1,
	                        .st_value = 0x80000104, .st_size = 12 };
	m.sym[4] = (Elf64_Sym){ .st_name = 18, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE), .st_shndx = SHN_UNDEF };
	const uint8_t *b = (const uint8_t *)&m;
	assert_int_equal(sim_elf_symbol(b, sizeof(m), "tohost", &v, &size), 0);
	assert_int_equal(v, 0x80017b80);
	assert_int_equal(size, 8);
	assert_int_equal(sim_elf_symbol(b, sizeof(m), "fail", &v, &size), 0);
	assert_int_equal(v, 0x80000104);
	assert_int_equal(size, 12);
	assert_int_equal(sim_elf_symbol(b, sizeof(m), "pass", &v, &size), -1);
	assert_int_equal(sim_elf_symbol(b, sizeof(m), "undef", &v, &size), -1);
	assert_int_equal(sim_elf_symbol(b, sizeof(m), "tohos", &v, &size), -1);
	m.sym[3].st_name = sizeof(str) - 2; /* the name runs off the string table */
	assert_int_equal(sim_elf_symbol(b, sizeof(m), "fail", &v, &size), -1);
	m.sh[1].sh_size = 1u << 20; /* past the end of the file */
	assert_int_equal(sim_elf_symbol(b, sizeof(m), "tohost", &v, &size), -1);
	assert_int_equal(sim_elf_symbol(b, 16, "tohost", &v, &size), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_ignores_other_segments),
		cmocka_unit_test(test_adjacent_segments),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_symbols),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
