/*
 * hostsim's machine profiles (--machine virt|cva6|openpiton, docs/hostsim.md):
 * the same core and memory system behind the device map, device tree, timer,
 * counters and end-of-run convention of one target.  virt (the default) is
 * QEMU virt; cva6 the CVA6 testharness; openpiton OpenPiton + Ariane.
 */
#ifndef HOSTSIM_PROFILES_H
#define HOSTSIM_PROFILES_H

#include <stddef.h>
#include <stdint.h>

struct sim;
struct sim_dev;

/* --machine: id, name, and the core clock (MHz) and RAM it sets (later
 * options override).  opts.c takes these; the rest is profiles.c's table. */
#define SIM_MACHINES(X) \
	X(VIRT, "virt", 1000, 256ull << 20) \
	X(CVA6, "cva6", 50, 256ull << 20) \
	X(OPENPITON, "openpiton", 50, 1ull << 30)
enum {
#define SIM_MACH_ENUM_(id, name, mhz, mem) SIM_MACH_##id,
	SIM_MACHINES(SIM_MACH_ENUM_)
#undef SIM_MACH_ENUM_
	SIM_NMACHINES
};
extern const char *const sim_machine_names[SIM_NMACHINES]; /* opts.c */

struct sim_machine {
	const char *name;
	const struct sim_dev *const *devs;   /* device table, in /soc order */
	const unsigned *ndevs;               /* its length */
	unsigned mtime_div;                  /* mtime ticks every this many core clocks; 0: --timebase */
	uint64_t dtb_timebase;               /* the DTB's timebase-frequency; 0: the true one */
	uint64_t fdt_rom;                    /* the DTB's address in a boot ROM; 0: top of RAM */
	const char *stdout_suffix;           /* appended to /chosen stdout-path */
	int hpm_dtb;                         /* the DTB names hostsim's HPM event ids (virt) */
	int cache_dtb;                       /* the DTB describes the caches (virt; the RTL
	                                        profiles' trees, like their RTL's, name none) */
	int no_time_csr;                     /* reading `time` traps */
	/* mhpmevent ids -> memsys events (memsys.h); NULL: the same numbers */
	const uint8_t *ev_map;
	unsigned ev_map_len;
	/* fixed-function counters: mhpmcounter3.. count these memsys events,
	 * mhpmevent and mcountinhibit trap; NULL: programmable */
	const uint8_t *fixed_ev;
	unsigned fixed_ev_len;
	/* Ariane's DCACHE CSR 0x701 (bit 0 = L1D on, reset 1; switching it on
	 * flushes the L1D, counted per hart: dev_piton.c; with --inject
	 * lost-inval it clears the hart's L1D copies, l1d.h) */
	int dcache_csr;
	/* ELF symbols the profile needs (tohost, pass/fail); NULL: none */
	int (*symbols)(struct sim *s, const uint8_t *elf, size_t len, char *err, size_t errlen);
	/* called at the start of every scheduler turn: the end conventions
	 * that are not device accesses; NULL: none */
	void (*poll)(struct sim *s);
};

/* Symbol addresses a profile found in the image (struct sim). */
struct sim_msym {
	uint64_t tohost;
	uint64_t pass_lo, pass_hi, fail_lo, fail_hi;
};

const struct sim_machine *sim_machine_get(unsigned id);
/* The profile of s (virt when s has none, e.g. a unit test's bare sim):
 * sim_mach(s) in sim.h. */
extern const struct sim_machine sim_machine_virt;
/* After the ELF is loaded: the profile's symbols.  0 or -1 (err). */
int sim_mach_symbols(struct sim *s, const char *path, char *err, size_t errlen);
/* Put the DTB (n bytes) where the profile has it; sets s->fdt_addr.  0, or
 * 1 when the profile keeps it in RAM (the caller places it), -1 too big. */
int sim_mach_place_fdt(struct sim *s, const void *fdt, size_t n);
/* A status as a process exit status: 0 stays 0, others 1..255. */
int sim_exit_status(uint64_t status);

/* The profiles' own parts (dev_cva6.c, dev_piton.c) */
int sim_cva6_symbols(struct sim *s, const uint8_t *elf, size_t len, char *err, size_t errlen);
void sim_cva6_poll(struct sim *s);
int sim_piton_symbols(struct sim *s, const uint8_t *elf, size_t len, char *err, size_t errlen);
void sim_piton_poll(struct sim *s);

/* The boot ROM's bytes (dev_rom.c) */
#define SIM_ROM_SIZE 0x10000u

#endif
