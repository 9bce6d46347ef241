/*
 * hostsim's DTB (sim/fdtgen.c), read back by the firmware's own FDT reader
 * (firmware/lib/fdt.c) and by libfdt: what the image will see.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include <libfdt.h>
#include "rvmess/fdt.h"
#include "sim/sim.h"
#include "sim/timing.h"

static uint8_t blob[64 * 1024];

static int build(unsigned harts, uint64_t mem, uint64_t timebase, int timing)
{
	static struct sim s;
	char err[256];
	memset(&s, 0, sizeof(s));
	sim_opts_default(&s.opt);
	s.opt.harts = harts;
	s.opt.timebase = timebase;
	s.opt.timing = timing;
	s.nharts = harts;
	s.ram_base = SIM_RAM_BASE;
	s.ram_size = mem;
	s.opt.timing = 0; /* tm_init: configuration only, no memsys instance */
	assert_int_equal(tm_init(&s, err, sizeof(err)), 0);
	s.opt.timing = timing;
	return sim_build_fdt(&s, blob, sizeof(blob));
}

static void test_firmware_reader(void **state)
{
	(void)state;
	static const unsigned counts[] = { 1, 4, 16, 64 };
	for (size_t k = 0; k < 4; k++) {
		unsigned n = counts[k];
		int size = build(n, 128ull << 20, 4000000, 1);
		assert_true(size > 0);
		static struct fdt_info fi;
		memset(&fi, 0, sizeof(fi));
		int rc = fdt_parse(blob, (size_t)size, &fi);
		if (rc != 0)
			fail_msg("%u harts: fdt_parse refused: %s at %u", n, fi.reason, fi.err_off);
		assert_int_equal(fi.nharts, n);
		for (unsigned i = 0; i < n; i++) {
			assert_int_equal(fi.harts[i].hartid, i);
			assert_int_equal(fi.harts[i].enabled, 1);
			assert_string_equal(fi.harts[i].isa, "rv64ima_zicsr_zifencei");
		}
		assert_int_equal(fi.timebase, 4000000);
		assert_int_equal(fi.mem_base, SIM_RAM_BASE);
		assert_int_equal(fi.mem_size, 128ull << 20);
		assert_int_equal(fi.console.base, sim_dev_find("serial")->base);
		assert_string_equal(fi.console.compat, "ns16550a");
		assert_int_equal(fi.clint_base, sim_dev_find("clint")->base);
		assert_int_equal(fi.test_base, sim_dev_find("test")->base);
		assert_int_equal(fi.memctl_base, sim_dev_find("memctl")->base);
		assert_int_equal(fi.has_htif, 0);
	}
}

static void test_libfdt(void **state)
{
	(void)state;
	int size = build(2, 256ull << 20, 10000000, 0);
	assert_true(size > 0);
	assert_int_equal(fdt_check_header(blob), 0);
	assert_int_equal((int)fdt_totalsize(blob), size);
	int off = fdt_path_offset(blob, "/chosen");
	assert_true(off >= 0);
	const char *p = fdt_getprop(blob, off, "stdout-path", NULL);
	assert_string_equal(p, "/soc/serial@10000000");
	assert_true(fdt_path_offset(blob, p) >= 0);
	off = fdt_node_offset_by_compatible(blob, -1, "rvmess,memctl-counters");
	assert_true(off >= 0);
	off = fdt_node_offset_by_compatible(blob, -1, "sifive,test0");
	assert_true(off >= 0);
	off = fdt_path_offset(blob, "/rvmess-hostsim");
	assert_true(off >= 0);
	const char *t = fdt_getprop(blob, off, "timing", NULL);
	assert_string_equal(t, "none");
	int len;
	const void *l1 = fdt_getprop(blob, off, "l1d-size", &len);
	assert_int_equal(len, 8);
	fdt64_t v64;
	memcpy(&v64, l1, 8); /* properties are only 4-byte aligned */
	assert_true(fdt64_to_cpu(v64) >= 1024);
	const fdt32_t *ie = fdt_getprop(blob, fdt_node_offset_by_compatible(blob, -1, "riscv,clint0"),
	                                "interrupts-extended", &len);
	assert_int_equal(len, 2 * 4 * 4);
	assert_int_equal(fdt32_to_cpu(ie[1]), 3);
	assert_int_equal(fdt32_to_cpu(ie[3]), 7);
}

static void test_too_small(void **state)
{
	(void)state;
	static struct sim s;
	char err[256];
	memset(&s, 0, sizeof(s));
	sim_opts_default(&s.opt);
	s.opt.timing = 0;
	s.nharts = 64;
	s.ram_base = SIM_RAM_BASE;
	s.ram_size = 1 << 20;
	assert_int_equal(tm_init(&s, err, sizeof(err)), 0);
	assert_int_equal(sim_build_fdt(&s, blob, 512), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_firmware_reader),
		cmocka_unit_test(test_libfdt),
		cmocka_unit_test(test_too_small),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
