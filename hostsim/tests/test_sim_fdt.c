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

/* The DTB of a sim with these options, the memsys options `kv` (key, value,
 * ..., NULL; may be NULL) and machine profile `mach` (SIM_MACH_*). */
static int build_on(unsigned harts, uint64_t mem, uint64_t timebase, int timing, unsigned mach,
		    const char *const *kv)
{
	static struct sim s;
	char err[256];
	memset(&s, 0, sizeof(s));
	sim_opts_default(&s.opt);
	s.opt.harts = harts;
	s.opt.timebase = timebase;
	s.opt.timing = timing;
	for (; kv && kv[0]; kv += 2)
		assert_int_equal(sim_opts_set(&s.opt, kv[0], kv[1], err, sizeof(err)), 0);
	s.opt.machine = mach;
	s.mach = sim_machine_get(mach);
	s.nharts = harts;
	s.ram_base = SIM_RAM_BASE;
	s.ram_size = mem;
	s.opt.timing = 0; /* tm_init: configuration only, no memsys instance */
	assert_int_equal(tm_init(&s, err, sizeof(err)), 0);
	s.opt.timing = timing;
	return sim_build_fdt(&s, blob, sizeof(blob));
}

static int build(unsigned harts, uint64_t mem, uint64_t timebase, int timing)
{
	return build_on(harts, mem, timebase, timing, SIM_MACH_VIRT, NULL);
}

static uint64_t prop_num(int node, const char *name)
{
	int len;
	const uint8_t *p = fdt_getprop(blob, node, name, &len);
	uint64_t v = 0;
	if (!p)
		fail_msg("no property %s", name);
	assert_true(len == 4 || len == 8);
	for (int i = 0; i < len; i++)
		v = v << 8 | p[i];
	return v;
}

/* The caches in the devicetree's standard properties, from the memsys
 * configuration (virt with timing): every cpu's L1D, pointing at the LLC's
 * cache node; the firmware's reader takes the LLC's size as the largest. */
static void test_caches(void **state)
{
	static const char *const small[] = { "l1d-size", "16K", "l1d-ways", "4", "llc-size", "256K",
					      "llc-ways", "8", "line", "32", NULL };
	static const char *const huge[] = { "llc-size", "8G", NULL };
	static struct fdt_info fi;
	(void)state;

	for (int k = 0; k < 3; k++) {
		const char *const *kv = k == 0 ? NULL : k == 1 ? small : huge;
		uint64_t l1 = k == 1 ? 16384 : 32768, llc = k == 0 ? 2u << 20 : k == 1 ? 262144 : 8ull << 30;
		unsigned l1w = k == 1 ? 4 : 8, llcw = k == 1 ? 8 : 16, line = k == 1 ? 32 : 64;
		int size = build_on(4, 256ull << 20, 10000000, 1, SIM_MACH_VIRT, kv), len;
		assert_true(size > 0);
		memset(&fi, 0, sizeof(fi));
		assert_int_equal(fdt_parse(blob, (size_t)size, &fi), 0);
		assert_int_equal(fi.cache_max, llc);
		assert_int_equal(fi.nharts, 4); /* the cache node is no cpu */

		int c = fdt_path_offset(blob, "/cpus/l2-cache");
		assert_true(c >= 0);
		assert_int_equal(fdt_node_check_compatible(blob, c, "cache"), 0);
		assert_int_equal(prop_num(c, "cache-level"), 2);
		assert_non_null(fdt_getprop(blob, c, "cache-unified", &len));
		assert_int_equal(len, 0);
		assert_int_equal(prop_num(c, "cache-size"), llc);
		assert_int_equal(prop_num(c, "cache-sets"), llc / llcw / line);
		assert_int_equal(prop_num(c, "cache-block-size"), line);
		/* a size beyond 32 bits takes two cells */
		fdt_getprop(blob, c, "cache-size", &len);
		assert_int_equal(len, llc > 0xffffffffull ? 8 : 4);
		for (unsigned i = 0; i < 4; i++) {
			char path[32];
			snprintf(path, sizeof(path), "/cpus/cpu@%u", i);
			int cpu = fdt_path_offset(blob, path);
			assert_true(cpu >= 0);
			assert_int_equal(prop_num(cpu, "d-cache-size"), l1);
			assert_int_equal(prop_num(cpu, "d-cache-sets"), l1 / l1w / line);
			assert_int_equal(prop_num(cpu, "d-cache-block-size"), line);
			assert_int_equal(fdt_node_offset_by_phandle(blob, (uint32_t)prop_num(cpu, "next-level-cache")), c);
		}
	}
	/* no timing, no caches to describe; the RTL profiles' trees name none */
	for (int k = 0; k < 3; k++) {
		unsigned mach = k == 0 ? SIM_MACH_VIRT : k == 1 ? SIM_MACH_CVA6 : SIM_MACH_OPENPITON;
		int size = build_on(2, 256ull << 20, 10000000, k != 0, mach, NULL);
		assert_true(size > 0);
		memset(&fi, 0, sizeof(fi));
		assert_int_equal(fdt_parse(blob, (size_t)size, &fi), 0);
		assert_int_equal(fi.cache_max, 0);
		assert_true(fdt_path_offset(blob, "/cpus/l2-cache") < 0);
		assert_null(fdt_getprop(blob, fdt_path_offset(blob, "/cpus/cpu@0"), "d-cache-size", NULL));
	}
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
		assert_int_equal(fi.cache_max, 2u << 20); /* the default LLC */
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
		cmocka_unit_test(test_caches),
		cmocka_unit_test(test_too_small),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
