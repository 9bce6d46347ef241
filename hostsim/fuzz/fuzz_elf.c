/*
 * Fuzz target: an ELF file, as both readers of ELF take it.
 *  - rvmess: the section lookup (cli/elf.c) on an exact-size buffer, then
 *    `rvmess config IMAGE`, which finds the config block and prints it;
 *  - hostsim: the loader (sim/elfload.c) into a 1 MiB RAM at 0x80000000;
 *    an accepted image must lie inside RAM with its entry point.
 */
#include "fuzz/fuzz.h"

#include <stdlib.h>

#include "cli/cmd/cmds.h"
#include "cli/elf.h"
#include "rvmess/config.h"
#include "sim/sim.h"

#define RAM_BASE 0x80000000ull
#define RAM_SIZE (1ull << 20)

static struct sim sim;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { RVM_CFG_SECTION, ".shstrtab", ".text", "" };
	char path[4200], why[256];
	struct elf_section sec;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (elf_find_section(data, size, names[i], &sec, why, sizeof(why)) == 0 &&
		    (sec.offset > size || sec.size > size - sec.offset))
			fuzz_fail("section %s [%llu, +%llu) outside the %zu-byte file", names[i],
				  (unsigned long long)sec.offset, (unsigned long long)sec.size, size);

	fuzz_write(fuzz_path(path, sizeof(path), "image.elf"), data, size);
	fuzz_cmd(cmd_config, NULL, "config", path, (char *)NULL);

	if (!sim.ram) {
		sim.ram = malloc(RAM_SIZE);
		if (!sim.ram)
			abort();
		sim.ram_base = RAM_BASE;
		sim.ram_size = RAM_SIZE;
	}
	if (sim_load_elf(&sim, path, why, sizeof(why)) == 0) {
		if (sim.entry < RAM_BASE || sim.entry - RAM_BASE > RAM_SIZE - 4)
			fuzz_fail("accepted entry 0x%llx outside RAM", (unsigned long long)sim.entry);
		if (sim.image_lo < RAM_BASE || sim.image_hi > RAM_BASE + RAM_SIZE || sim.image_lo >= sim.image_hi)
			fuzz_fail("accepted image [0x%llx, 0x%llx) outside RAM", (unsigned long long)sim.image_lo,
				  (unsigned long long)sim.image_hi);
	}
	return 0;
}
