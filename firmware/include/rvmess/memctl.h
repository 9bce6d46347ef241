/*
 * The rvmess,memctl-counters register block, defined once: hostsim's memory
 * system implements it (hostsim/sim/memsys.c), the image reads it
 * (platform/common/counters.c).  docs/memsys.md describes it for users.
 *
 * MMIO, 64 bytes, 64-bit registers (8-byte accesses):
 *   +0x00 R  READS   line (64 B) transfers read from memory (= LLC misses)
 *   +0x08 R  WRITES  line transfers written to memory (= dirty LLC evictions)
 *   +0x10 R  BUSY    cycles the model's data path was busy (md1: server busy
 *                    time; dram: data-bus time incl. turnarounds, summed over
 *                    channels; fixed: 0)
 *   +0x18 R  PEAK    the model's peak bandwidth, MB/s (0 = unlimited)
 *   +0x20 RW CTRL    write 1: zero READS/WRITES/BUSY; write 2: freeze (reads
 *                    return the values at the freeze); write 0: unfreeze.
 *                    Reads: bit 1 = frozen.
 *   +0x28 R  FREQ    core clock, MHz
 *   +0x30 R  LINE    line (transfer) size, bytes
 *   +0x38 R  MAGIC   RVM_MEMCTL_MAGIC_VALUE
 *   +0x40 RW PHASE   per hart (the accessing one): write 1 before code whose
 *                    timing nothing measures (building a chain, filling a
 *                    buffer), 0 after it.  A simulator may run that hart
 *                    untimed in between (hostsim: functional, 1 cycle per
 *                    instruction, caches not updated); hardware ignores it.
 *                    Reads: bit 1 (RVM_MEMCTL_PHASE_OFFERED) when the hint
 *                    is honoured here (an image writes PHASE only then),
 *                    bit 0 while this hart is in a set-up phase.
 * Other offsets read 0 and ignore writes.
 */
#ifndef RVMESS_MEMCTL_H
#define RVMESS_MEMCTL_H

#define RVM_MEMCTL_COMPATIBLE  "rvmess,memctl-counters"
#define RVM_MEMCTL_SIZE        0x48u
#define RVM_MEMCTL_READS       0x00u
#define RVM_MEMCTL_WRITES      0x08u
#define RVM_MEMCTL_BUSY        0x10u
#define RVM_MEMCTL_PEAK        0x18u
#define RVM_MEMCTL_CTRL        0x20u
#define RVM_MEMCTL_FREQ        0x28u
#define RVM_MEMCTL_LINE        0x30u
#define RVM_MEMCTL_MAGIC       0x38u
#define RVM_MEMCTL_PHASE       0x40u
#define RVM_MEMCTL_PHASE_OFFERED 2u
#define RVM_MEMCTL_MAGIC_VALUE 0x31304d4d53535652ull /* "RVSSMM01" little-endian */

#endif
