/*
 * hostsim's device table (sim/dev.c): the rows do not overlap each other or
 * RAM, the bus reaches each device at its row's address and nowhere else,
 * and the DTB has one node per row with the row's reg, so the memory map and
 * the device tree agree.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <libfdt.h>
#include "sim/sim.h"
#include "sim/dev.h"
#include "sim/timing.h"
#include "sim/wmem.h"

static struct sim s;
static uint8_t blob[64 * 1024];

static int setup(void **state)
{
	char err[256];
	struct sim_opts o;
	(void)state;
	sim_opts_default(&o);
	o.harts = 2;
	o.mem_size = 1 << 20;
	o.timing = 0;
	if (sim_init(&s, &o, err, sizeof(err)))
		return -1;
	s.console = tmpfile();
	return s.console ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	fclose(s.console);
	sim_free(&s);
	return 0;
}

static void test_rows_disjoint(void **state)
{
	(void)state;
	assert_true(sim_ndevs >= 4);
	for (unsigned i = 0; i < sim_ndevs; i++) {
		const struct sim_dev *a = sim_devs[i];
		assert_non_null(a->name);
		assert_non_null(a->load);
		assert_non_null(a->store);
		assert_true(a->size > 0);
		/* not in RAM, which the bus never sends to the table */
		assert_true(a->base + a->size <= SIM_RAM_BASE || a->base >= SIM_RAM_BASE + (16ull << 30));
		for (unsigned j = i + 1; j < sim_ndevs; j++) {
			const struct sim_dev *b = sim_devs[j];
			assert_string_not_equal(a->name, b->name);
			if (a->base < b->base + b->size && b->base < a->base + a->size)
				fail_msg("%s [0x%llx, +0x%llx) overlaps %s", a->name, (unsigned long long)a->base,
				         (unsigned long long)a->size, b->name);
		}
		assert_ptr_equal(sim_dev_find(a->name), a);
	}
	assert_null(sim_dev_find("nonesuch"));
}

/* QEMU virt's addresses: the image built for QEMU runs unchanged. */
static void test_qemu_virt_map(void **state)
{
	(void)state;
	assert_int_equal(sim_dev_find("serial")->base, 0x10000000);
	assert_int_equal(sim_dev_find("clint")->base, 0x2000000);
	assert_int_equal(sim_dev_find("test")->base, 0x100000);
}

static void test_bus(void **state)
{
	(void)state;
	struct sim_hart *h = &s.harts[0];
	uint64_t uart = sim_dev_find("serial")->base, v = 0;
	/* the UART's THR reaches the console, LSR says "empty and idle" */
	assert_int_equal(sim_dev_store(&s, h, uart, 1, 'k'), 0);
	assert_int_equal(sim_dev_load(&s, h, uart + 5, 1, &v), 0);
	assert_int_equal(v, 0x60);
	fflush(s.console);
	rewind(s.console);
	assert_int_equal(fgetc(s.console), 'k');
	/* misaligned, just past a device, or where there is none: access fault */
	assert_int_equal(sim_dev_load(&s, h, sim_dev_find("clint")->base + 2, 4, &v), -1);
	assert_int_equal(sim_dev_load(&s, h, uart + sim_dev_find("serial")->size, 1, &v), -1);
	assert_int_equal(sim_dev_store(&s, h, 0x1000, 4, 0), -1);
	/* CLINT msip of hart 1, read back masked to the access size */
	uint64_t clint = sim_dev_find("clint")->base;
	assert_int_equal(sim_dev_store(&s, h, clint + 4, 4, 0xffffffffu), 0);
	assert_int_equal(s.msip[1], 1);
	assert_int_equal(sim_dev_load(&s, h, clint + 0x4000, 1, &v), 0);
	assert_int_equal(v, 0xff); /* mtimecmp starts at ~0: one byte of it */
	/* mtimecmp is 8 bytes a hart: hart 1's at +0x4008, hart 0's untouched */
	assert_int_equal(sim_dev_store(&s, h, clint + 0x4008, 8, 0x1122334455667788ull), 0);
	assert_int_equal(s.mtimecmp[1], 0x1122334455667788ull);
	assert_int_equal(s.mtimecmp[0], ~0ull);
	assert_int_equal(sim_dev_load(&s, h, clint + 0x400c, 4, &v), 0);
	assert_int_equal(v, 0x11223344u);
	/* mtime's upper word written alone keeps the lower one (the clock
	 * does not move here: no instruction runs) */
	assert_int_equal(sim_dev_store(&s, h, clint + 0xbff8, 8, 0x500000007ull), 0);
	assert_int_equal(sim_dev_store(&s, h, clint + 0xbffc, 4, 9), 0);
	assert_int_equal(sim_dev_load(&s, h, clint + 0xbff8, 8, &v), 0);
	assert_int_equal(v, 0x900000007ull);
	assert_int_equal(sim_dev_store(&s, h, clint + 0xbff8, 4, 3), 0);
	assert_int_equal(sim_dev_load(&s, h, clint + 0xbff8, 8, &v), 0);
	assert_int_equal(v, 0x900000003ull);
	/* the finisher ends the run with its code */
	assert_int_equal(sim_dev_store(&s, h, sim_dev_find("test")->base, 4, (7u << 16) | 0x3333), 0);
	assert_int_equal(s.stop, 1);
	assert_int_equal(s.exit_code, 7);
}

static void test_fdt_matches_table(void **state)
{
	(void)state;
	int size = sim_build_fdt(&s, blob, sizeof(blob));
	assert_true(size > 0);
	int n = 0;
	for (unsigned i = 0; i < sim_ndevs; i++) {
		const struct sim_dev *d = sim_devs[i];
		char path[80];
		int len;
		snprintf(path, sizeof(path), "/soc/%s@%llx", d->name, (unsigned long long)d->base);
		int off = fdt_path_offset(blob, path);
		if (off < 0)
			fail_msg("no node %s", path);
		const fdt64_t *reg = fdt_getprop(blob, off, "reg", &len);
		assert_int_equal(len, 16);
		fdt64_t r[2];
		memcpy(r, reg, sizeof(r));
		assert_int_equal(fdt64_to_cpu(r[0]), d->base);
		assert_int_equal(fdt64_to_cpu(r[1]), d->size);
		n++;
	}
	/* and nothing else under /soc */
	int soc = fdt_path_offset(blob, "/soc"), sub, m = 0;
	fdt_for_each_subnode(sub, blob, soc)
		m++;
	assert_int_equal(m, n);
}

/* tso: a hart's store buffer is a FIFO.  A later store that the memory
 * system would finish sooner (a hit behind a miss) still waits for the older
 * one, so no other hart sees y = 1 while x is 0. */
static void test_tso_store_order(void **state)
{
	(void)state;
	char err[256];
	struct sim_opts o;
	struct sim t;
	sim_opts_default(&o);
	o.harts = 2;
	o.mem_size = 1 << 20;
	o.timing = 1;
	o.mem_order = SIM_MO_TSO;
	assert_int_equal(sim_init(&t, &o, err, sizeof(err)), 0);
	assert_int_equal(wm_init(&t, err, sizeof(err)), 0);
	struct sim_hart *h0 = &t.harts[0], *h1 = &t.harts[1];
	sim_hart_reset(&t, h0, 0); /* (sim_start does this) */
	sim_hart_reset(&t, h1, 1);
	uint64_t x = 0x1000, y = 0x2000;
	wm_store(&t, h0, x, 8, 1, 100, 0); /* x: visible from 100 */
	wm_store(&t, h0, y, 8, 1, 50, 0);  /* y: done at 50, but after x */
	assert_int_equal(wm_load(&t, h0, y, 8, 10), 1); /* its own stores: forwarded */
	wm_drain(&t, h0, 60);
	assert_int_equal(wm_load(&t, h1, y, 8, 60), 0);
	assert_int_equal(wm_load(&t, h1, x, 8, 60), 0);
	wm_drain(&t, h0, 100);
	assert_int_equal(wm_load(&t, h1, x, 8, 100), 1);
	assert_int_equal(wm_load(&t, h1, y, 8, 100), 1);
	wm_free(&t);
	sim_free(&t);

	/* an injected stale read lasts the same while from the moment the store
	 * became visible, whether or not it waited behind an older one: y (done
	 * at 50, visible with x at 100) and a lone store z due at 100 */
	o.inject[SIM_F_STALE_READ] = 100;
	uint64_t end[2];
	for (int lone = 0; lone < 2; lone++) {
		assert_int_equal(sim_init(&t, &o, err, sizeof(err)), 0);
		assert_int_equal(wm_init(&t, err, sizeof(err)), 0);
		h0 = &t.harts[0], h1 = &t.harts[1];
		sim_hart_reset(&t, h0, 0);
		sim_hart_reset(&t, h1, 1);
		if (!lone)
			wm_store(&t, h0, x, 8, 1, 100, 0);
		wm_store(&t, h0, y, 8, 1, lone ? 100 : 50, 0);
		wm_drain(&t, h0, 100);
		assert_int_equal(wm_load(&t, h1, y, 8, 100), 0); /* stale */
		end[lone] = 100;
		while (end[lone] < 1000000 && wm_load(&t, h1, y, 8, end[lone]) == 0)
			end[lone]++;
		assert_true(end[lone] > 100 && end[lone] < 1000000);
		wm_free(&t);
		sim_free(&t);
	}
	assert_int_equal(end[0], end[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_disjoint),
		cmocka_unit_test(test_qemu_virt_map),
		cmocka_unit_test(test_bus),
		cmocka_unit_test(test_fdt_matches_table),
		cmocka_unit_test(test_tso_store_order),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
