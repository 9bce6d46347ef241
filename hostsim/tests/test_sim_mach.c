/*
 * hostsim's machine profiles (sim/profiles.c, dev_cva6.c, dev_piton.c, dev_rom.c):
 * each profile's DTB read back by the firmware's own FDT reader (what the
 * image sees, with the CVA6 DTB's 32768 Hz lie), its boot ROM, timer, time
 * CSR and counter CSRs, and the device quirks: CVA6's UART (4-byte stride,
 * 32-bit access, a byte written before LSR was read is dropped), OpenPiton's
 * write-only UART (reads 0xef) or, with --piton-uart 16550, an FPGA board's
 * 16550 (its FIFO fills and drops), its L2 counter block and the Metro-MPI
 * end-of-test loads; and --dtb (a given blob in the profile's boot ROM).  Expected values are the targets' documented facts
 * (docs/hostsim.md, DESIGN §4), not hostsim's output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <libfdt.h>
#include "rvmess/fdt.h"
#include "sim/sim.h"
#include "sim/csr.h"
#include "sim/dev.h"
#include "sim/memsys.h"

static struct sim s;
static char console[4096];
/* one more option for the next boot() (then cleared) */
static const char *extra_key, *extra_val;

static void boot(unsigned machine, unsigned harts)
{
	char err[256];
	struct sim_opts o;
	sim_opts_default(&o);
	assert_int_equal(sim_opts_set(&o, "machine", sim_machine_names[machine], err, sizeof(err)), 0);
	if (extra_key && sim_opts_set(&o, extra_key, extra_val, err, sizeof(err)))
		fail_msg("%s: %s", extra_key, err);
	extra_key = extra_val = NULL;
	o.harts = harts;
	o.mem_size = 16u << 20;
	o.timing = 0;
	if (sim_init(&s, &o, err, sizeof(err)))
		fail_msg("sim_init: %s", err);
	s.console = fmemopen(console, sizeof(console), "w");
	assert_non_null(s.console);
	setvbuf(s.console, NULL, _IONBF, 0);
	memset(console, 0, sizeof(console));
	if (sim_start(&s, err, sizeof(err)))
		fail_msg("sim_start: %s", err);
}

static int teardown(void **state)
{
	(void)state;
	if (s.console)
		fclose(s.console);
	s.console = NULL;
	sim_free(&s);
	return 0;
}

/* the DTB from where the hart's a1 points, byte by byte over the bus */
static uint8_t blob[SIM_ROM_SIZE];

static void read_dtb(struct fdt_info *fi)
{
	uint64_t a = s.harts[0].x[11], v;
	for (unsigned i = 0; i < sizeof(blob) && a + i < s.fdt_addr + s.fdt_size; i++) {
		assert_int_equal(sim_dev_load(&s, &s.harts[0], a + i, 1, &v), 0);
		blob[i] = (uint8_t)v;
	}
	assert_int_equal(fdt_parse(blob, s.fdt_size, fi), 0);
}

static void test_cva6_dtb_and_timer(void **state)
{
	struct fdt_info fi;
	uint64_t v;
	(void)state;
	boot(SIM_MACH_CVA6, 1);
	assert_int_equal(s.harts[0].x[11], 0x10080); /* a1: the boot ROM's DTB */
	read_dtb(&fi);
	assert_int_equal(fi.timebase, 32768);        /* what the harness's DTB says */
	/* no stdout-path, as on the harness: the UART is found by compatible */
	static const char *const uarts[] = { "ns16550a", 0 };
	struct fdt_node n;
	assert_int_equal(fi.console.base, 0);
	assert_int_equal(fdt_find_compatible(&fi, uarts, &n), 1);
	assert_int_equal(n.base, 0x10000000);
	assert_int_equal(n.reg_shift, 2);
	assert_int_equal(n.reg_io_width, 4);
	assert_int_equal(fi.clint_base, 0x2000000);
	assert_int_equal(fi.mem_base, 0x80000000u);
	assert_int_equal(fi.hpm_l1d_miss, 0);        /* no rvmess properties on a real target */
	/* the ROM is read-only */
	assert_int_equal(sim_dev_store(&s, &s.harts[0], 0x10080, 4, 0), -1);
	/* 50 MHz core, mtime every 4 clocks, no time CSR */
	assert_int_equal(s.opt.freq_mhz, 50);
	s.harts[0].clock = 4000;
	assert_int_equal(sim_dev_load(&s, &s.harts[0], 0x2000000 + 0xbff8, 8, &v), 0);
	assert_int_equal(v, 1000);
	assert_int_equal(sim_csr_read(&s, &s.harts[0], 0xc01, &v), -1);
	/* mhpmevent ids are CVA6's: 2 L1D miss, 5 load, 6 store, 17 L1D access */
	assert_int_equal(sim_csr_write(&s, &s.harts[0], 0x323, 2), 0);
	assert_int_equal(sim_csr_read(&s, &s.harts[0], 0x323, &v), 0);
	assert_int_equal(v, 2);
}

static void test_cva6_uart(void **state)
{
	struct sim_hart *h;
	uint64_t v;
	(void)state;
	boot(SIM_MACH_CVA6, 1);
	h = &s.harts[0];
	/* 32-bit accesses on a 4-byte stride only */
	assert_int_equal(sim_dev_store(&s, h, 0x10000000, 1, 'x'), -1);
	assert_int_equal(sim_dev_load(&s, h, 0x10000005, 1, &v), -1);
	/* polled: every byte arrives */
	assert_int_equal(sim_dev_store(&s, h, 0x10000000, 4, 'a'), 0);
	assert_int_equal(sim_dev_load(&s, h, 0x10000014, 4, &v), 0);
	assert_int_equal(v & 0x20, 0x20); /* THR empty */
	assert_int_equal(sim_dev_store(&s, h, 0x10000000, 4, 'b'), 0);
	assert_string_equal(console, "a"); /* 'b' still in the transmitter */
	/* back to back: the second byte is lost */
	assert_int_equal(sim_dev_store(&s, h, 0x10000000, 4, 'c'), 0);
	assert_int_equal(sim_dev_load(&s, h, 0x10000014, 4, &v), 0);
	assert_string_equal(console, "ab");
}

static void test_piton_dtb_and_counters(void **state)
{
	struct fdt_info fi;
	uint64_t v;
	(void)state;
	boot(SIM_MACH_OPENPITON, 2);
	assert_int_equal(s.harts[1].x[11], 0xfff1010000ull);
	assert_int_equal(s.harts[1].x[10], 1);
	read_dtb(&fi);
	assert_int_equal(fi.timebase, 390625);      /* 50 MHz / 128 */
	assert_int_equal(fi.nharts, 2);
	assert_int_equal(fi.console.base, 0xfff0c2c000ull); /* stdout-path with ":115200" */
	assert_int_equal(fi.clint_base, 0xfff1020000ull);
	s.harts[0].clock = 128 * 77;
	assert_int_equal(sim_dev_load(&s, &s.harts[0], 0xfff1020000ull + 0xbff8, 8, &v), 0);
	assert_int_equal(v, 77);
	assert_int_equal(sim_csr_read(&s, &s.harts[0], 0xc01, &v), -1);
	/* fixed counters: no mhpmevent, no mcountinhibit; 0xB04 counts L1D misses */
	assert_int_equal(sim_csr_write(&s, &s.harts[0], 0x323, 2), -1);
	assert_int_equal(sim_csr_read(&s, &s.harts[0], 0x324, &v), -1);
	assert_int_equal(sim_csr_write(&s, &s.harts[0], 0x320, 0), -1);
	assert_int_equal(sim_csr_read(&s, &s.harts[0], 0xb04, &v), 0);
	assert_int_equal(s.harts[0].hpm_event[4], MEMSYS_EV_L1D_MISS);
	assert_int_equal(s.harts[1].hpm_event[7], MEMSYS_EV_LOAD);
	assert_int_equal(s.harts[1].hpm_event[8], MEMSYS_EV_STORE);
	/* L2 counters: 64-bit registers per tile, enable read back, others fault */
	assert_int_equal(sim_dev_load(&s, &s.harts[0], 0xAB01000000ull, 8, &v), 0);
	assert_int_equal(v, 0); /* disabled */
	assert_int_equal(sim_dev_store(&s, &s.harts[0], 0xA901000000ull, 8, 0x0C00000000000000ull), 0);
	assert_int_equal(sim_dev_load(&s, &s.harts[0], 0xA901000000ull, 8, &v), 0);
	assert_int_equal(v, 0x0C00000000000000ull);
	assert_int_equal(sim_dev_load(&s, &s.harts[0], 0xAB02000000ull, 8, &v), -1); /* tile 2 of 2 */
	assert_int_equal(sim_dev_load(&s, &s.harts[0], 0xAB01000000ull, 4, &v), -1);
	assert_int_equal(sim_dev_store(&s, &s.harts[0], 0xAB01000000ull, 8, 0), -1);
}

static void test_piton_uart_and_end(void **state)
{
	uint64_t v;
	(void)state;
	boot(SIM_MACH_OPENPITON, 1);
	assert_int_equal(sim_dev_load(&s, &s.harts[0], 0xfff0c2c005ull, 1, &v), 0);
	assert_int_equal(v, 0xef);
	assert_int_equal(sim_dev_store(&s, &s.harts[0], 0xfff0c2c000ull, 1, 'q'), 0);
	assert_int_equal(sim_dev_store(&s, &s.harts[0], 0xfff0c2c001ull, 1, 'z'), 0);
	assert_string_equal(console, "q");
	/* the QEMU finisher is not there */
	assert_int_equal(sim_dev_store(&s, &s.harts[0], 0x100000, 4, 0x5555), -1);
	/* Metro-MPI: the bad-end load ends the run with 1, the good one with 0 */
	assert_int_equal(sim_dev_load(&s, &s.harts[0], 0x8200000000ull, 8, &v), 0);
	assert_int_equal(s.stop, 1);
	assert_int_equal(s.exit_code, 1);
	s.stop = 0;
	assert_int_equal(sim_dev_load(&s, &s.harts[0], 0x8100000000ull, 8, &v), 0);
	assert_int_equal(s.stop, 1);
	assert_int_equal(s.exit_code, 0);
	assert_int_equal(sim_dev_load(&s, &s.harts[0], 0x8100000008ull, 8, &v), -1);
}

/* --piton-uart 16550: an FPGA board's UART at the fake one's address, byte
 * registers, 115200 baud, a 16-byte FIFO behind the shift register; a byte
 * takes 10 bit times = 4341 clocks at 50 MHz to leave. */
static void test_piton_uart_16550(void **state)
{
	struct sim_hart *h;
	uint64_t v, bt = 4341;
	const uint64_t u = 0xfff0c2c000ull;
	(void)state;
	extra_key = "piton-uart", extra_val = "16550";
	boot(SIM_MACH_OPENPITON, 1);
	h = &s.harts[0];
	h->clock = 1000;
	assert_int_equal(sim_dev_load(&s, h, u + 5, 1, &v), 0);
	assert_int_equal(v, 0x60); /* idle: THR empty, transmitter empty */
	assert_int_equal(sim_dev_store(&s, h, u, 1, 'a'), 0);
	assert_int_equal(sim_dev_load(&s, h, u + 5, 1, &v), 0);
	assert_int_equal(v, 0x20); /* 'a' in the shift register, the FIFO empty */
	/* back to back: the FIFO takes 16 more, the next is dropped */
	for (char c = 'b'; c <= 'q'; c++)
		assert_int_equal(sim_dev_store(&s, h, u, 1, (uint64_t)c), 0);
	assert_int_equal(sim_dev_load(&s, h, u + 5, 1, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(sim_dev_store(&s, h, u, 1, 'Z'), 0);
	assert_string_equal(console, "abcdefghijklmnopq");
	/* one bit time before the 16th byte has left: still not empty */
	h->clock = 1000 + 16 * bt - 1;
	assert_int_equal(sim_dev_load(&s, h, u + 5, 1, &v), 0);
	assert_int_equal(v, 0);
	h->clock = 1000 + 16 * bt; /* only 'q' is left, in the shift register */
	assert_int_equal(sim_dev_load(&s, h, u + 5, 1, &v), 0);
	assert_int_equal(v, 0x20);
	h->clock = 1000 + 17 * bt;
	assert_int_equal(sim_dev_load(&s, h, u + 5, 1, &v), 0);
	assert_int_equal(v, 0x60);
	assert_int_equal(sim_dev_store(&s, h, u, 1, 'r'), 0);
	assert_string_equal(console, "abcdefghijklmnopqr");
	/* the other registers: scratch and the divisor latch keep what is
	 * written, IIR says FIFOs on and nothing pending, RBR nothing received */
	assert_int_equal(sim_dev_store(&s, h, u + 7, 1, 0x5a), 0);
	assert_int_equal(sim_dev_load(&s, h, u + 7, 1, &v), 0);
	assert_int_equal(v, 0x5a);
	assert_int_equal(sim_dev_load(&s, h, u + 2, 1, &v), 0);
	assert_int_equal(v, 0xc1);
	assert_int_equal(sim_dev_load(&s, h, u, 1, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(sim_dev_store(&s, h, u + 3, 1, 0x83), 0);
	assert_int_equal(sim_dev_store(&s, h, u, 1, 27), 0);
	assert_int_equal(sim_dev_load(&s, h, u, 1, &v), 0);
	assert_int_equal(v, 27);
	assert_int_equal(sim_dev_store(&s, h, u + 3, 1, 0x03), 0);
	assert_string_equal(console, "abcdefghijklmnopqr"); /* the divisor is no byte */
}

/* --dtb FILE: that blob, byte for byte, where the profile puts its own */
static void test_dtb_file(void **state)
{
	static uint8_t mine[4096];
	char path[] = "/tmp/rvmess-test-dtb-XXXXXX";
	struct fdt_info fi;
	(void)state;
	assert_int_equal(fdt_create_empty_tree(mine, sizeof(mine)), 0);
	int cpus = fdt_add_subnode(mine, 0, "cpus");
	assert_true(cpus >= 0);
	assert_int_equal(fdt_setprop_u32(mine, cpus, "timebase-frequency", 520835), 0);
	assert_int_equal(fdt_pack(mine), 0);
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(mine, 1, fdt_totalsize(mine), f), fdt_totalsize(mine));
	fclose(f);
	extra_key = "dtb", extra_val = path;
	boot(SIM_MACH_OPENPITON, 1);
	remove(path);
	assert_int_equal(s.harts[0].x[11], 0xfff1010000ull);
	assert_int_equal(s.fdt_size, fdt_totalsize(mine));
	read_dtb(&fi);
	assert_memory_equal(blob, mine, fdt_totalsize(mine));
	assert_int_equal(fi.timebase, 520835);
}

static void test_virt_unchanged(void **state)
{
	uint64_t v;
	(void)state;
	boot(SIM_MACH_VIRT, 1);
	assert_true(s.fdt_addr >= 0x80000000u); /* in RAM, as QEMU virt has it */
	assert_int_equal(sim_csr_read(&s, &s.harts[0], 0xc01, &v), 0);
	assert_int_equal(sim_dev_store(&s, &s.harts[0], 0x100000, 4, 0x5555), 0);
	assert_int_equal(s.exit_code, 0);
	assert_int_equal(s.stop, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_cva6_dtb_and_timer, teardown),
		cmocka_unit_test_teardown(test_cva6_uart, teardown),
		cmocka_unit_test_teardown(test_piton_dtb_and_counters, teardown),
		cmocka_unit_test_teardown(test_piton_uart_and_end, teardown),
		cmocka_unit_test_teardown(test_piton_uart_16550, teardown),
		cmocka_unit_test_teardown(test_dtb_file, teardown),
		cmocka_unit_test_teardown(test_virt_unchanged, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
