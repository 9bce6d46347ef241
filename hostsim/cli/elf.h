/* Just enough ELF64 to find a section's bytes in a RISC-V image file. */
#ifndef RVMESS_CLI_ELF_H
#define RVMESS_CLI_ELF_H

#include <stddef.h>
#include <stdint.h>

#define RVM_EM_RISCV 243

struct elf_section {
	uint64_t offset;   /* in the file */
	uint64_t size;
	uint64_t addr;     /* sh_addr */
};

/*
 * Check that buf is a little-endian ELF64 RISC-V file with an in-bounds
 * section header table and section-name string table, then look up NAME.
 * Returns 0 (found, sec filled, its bytes in bounds), 1 (no such section),
 * or -1 (not a RISC-V ELF64 image / section unusable: reason in why).
 */
int elf_find_section(const unsigned char *buf, size_t len, const char *name,
		     struct elf_section *sec, char *why, size_t whylen);

#endif
