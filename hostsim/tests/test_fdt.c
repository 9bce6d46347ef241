/*
 * Unit tests for the FDT reader (firmware/lib/fdt.c).
 *
 * Good trees: dtc-compiled blobs from hostsim/tests/data/ (*.dts) and the real
 * QEMU virt/spike trees, both dumped at build time (see fdt.mk).
 * Bad trees: mutations of the good ones, and small blobs built by hand here.
 * Trees describing caches: built here with libfdt's sequential-write API.
 * Every blob handed to fdt_parse sits in a heap buffer of exactly `maxlen`
 * bytes, so the ASan build catches any read past the limit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>
#include <libfdt.h>

#include "rvmess/fdt.h"
#include "common/uart.h"

#ifndef FDT_TEST_DATA
#define FDT_TEST_DATA "build/tests/data"
#endif

struct blob {
	uint8_t *p;
	size_t   n;
};

static const char *data_dir(void)
{
	const char *d = getenv("FDT_TEST_DATA");
	return d && *d ? d : FDT_TEST_DATA;
}

static struct blob load(const char *name)
{
	char path[512];
	struct blob b = {0, 0};
	FILE *f;
	long n;

	snprintf(path, sizeof path, "%s/%s", data_dir(), name);
	f = fopen(path, "rb");
	if (!f) {
		print_error("cannot open %s (run from the repo root after `make unit-bins`)\n", path);
		fail();
	}
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	b.p = malloc((size_t)n);
	assert_non_null(b.p);
	assert_int_equal(fread(b.p, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	b.n = (size_t)n;
	return b;
}

static uint32_t be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

#define H_TOTALSIZE 4
#define H_OFF_STRUCT 8
#define H_OFF_STRINGS 12
#define H_OFF_RSV 16
#define H_VERSION 20
#define H_LAST_COMP 24
#define H_SIZE_STRINGS 32
#define H_SIZE_STRUCT 36

static struct fdt_info info; /* big: keep it off the stack */

/* Parse a private heap copy of exactly n bytes of src. */
static int parse_copy(const uint8_t *src, size_t n, struct fdt_info *out)
{
	uint8_t *q = malloc(n ? n : 1);
	int st;
	assert_non_null(q);
	if (n)
		memcpy(q, src, n);
	st = fdt_parse(q, n, out);
	free(q);
	return st;
}

/* The UART driver table (platform/common/uart.c) picks `drv` at `base` with
 * that layout from the tree; the default is never used. */
static void check_uart(const struct fdt_info *fi, const struct uart_driver *drv, uint64_t base,
		       uint32_t shift, uint32_t width)
{
	static const struct uart dflt = { &uart_ns16550, 0xdead0000, 7, 4, 0 };
	struct uart u;

	assert_int_equal(uart_setup(&u, fi, &dflt), 0);
	assert_ptr_equal(u.drv, drv);
	assert_int_equal(u.base, base);
	assert_int_equal(u.shift, shift);
	assert_int_equal(u.width, width);
	assert_int_equal(u.flags, 0);
}

/* The contract for every refusal. */
static void assert_refused(const struct fdt_info *fi, int st, size_t maxlen)
{
	assert_int_equal(st, fi->status);
	assert_true(st < 0);
	assert_non_null(fi->reason);
	assert_true(strlen(fi->reason) > 0);
	assert_string_not_equal(fi->reason, "ok");
	assert_true(fi->err_off <= maxlen);
	/* nothing half-filled is left behind */
	assert_int_equal(fi->nharts, 0);
	assert_int_equal(fi->nrsv, 0);
	assert_int_equal(fi->console.base, 0);
	assert_null(fi->blob);
	assert_int_equal(fi->mem_size, 0);
	assert_int_equal(fi->cache_max, 0);
}

static void expect_refusal(const uint8_t *p, size_t n, const char *reason)
{
	int st = parse_copy(p, n, &info);
	if (st == 0)
		print_error("accepted a blob that should fail with %s\n", reason);
	assert_refused(&info, st, n);
	if (reason)
		assert_string_equal(info.reason, reason);
}

/* In place: b->p is a heap buffer of exactly b->n bytes, and stays there
 * for fdt_find_compatible (the UART drivers) until the test frees it. */
static void parse_ok(const struct blob *b)
{
	int st = fdt_parse(b->p, b->n, &info);
	if (st != 0)
		print_error("refused: %s at %u\n", info.reason, info.err_off);
	assert_int_equal(st, 0);
	assert_int_equal(info.status, 0);
	assert_string_equal(info.reason, "ok");
}

/* ---- good trees ----------------------------------------------------------- */

static void test_virt_like(void **state)
{
	struct blob b = load("virt-like.dtb");
	(void)state;
	parse_ok(&b);
	assert_int_equal(info.totalsize, b.n);
	assert_int_equal(info.nharts, 4);
	for (uint32_t i = 0; i < 4; i++) {
		assert_int_equal(info.harts[i].hartid, i);
		assert_int_equal(info.harts[i].enabled, 1); /* cpu@2 has no status: enabled */
	}
	assert_string_equal(info.harts[0].isa, "rv64imafdc");
	/* 63 characters kept of a longer riscv,isa */
	assert_int_equal(strlen(info.harts[3].isa), 63);
	assert_memory_equal(info.harts[3].isa, "rv64imafdc_zicsr_zifencei", 25);
	assert_int_equal(info.timebase, 10000000);
	assert_int_equal(info.mem_base, 0x80000000);
	assert_int_equal(info.mem_size, 0x10000000);
	/* the node stdout-path (with :options) names */
	assert_int_equal(info.console.base, 0x10000000);
	assert_int_equal(info.console.size, 0x100);
	assert_string_equal(info.console.compat, "ns16550a");
	assert_int_equal(info.console.compat_len, 9);
	assert_int_equal(info.console.reg_shift, 0);
	assert_int_equal(info.console.reg_io_width, 0); /* absent */
	/* ... beats the decoy sifive,uart0 earlier on */
	check_uart(&info, &uart_ns16550, 0x10000000, 0, 1);
	assert_int_equal(info.clint_base, 0x2000000);
	assert_int_equal(info.test_base, 0x100000);
	assert_int_equal(info.has_htif, 0);
	assert_int_equal(info.memctl_base, 0);
	assert_int_equal(info.nrsv, 0);
	free(b.p);
}

static void test_virt_like_v16(void **state)
{
	struct blob b = load("virt-like-v16.dtb");
	(void)state;
	assert_int_equal(be32(b.p + H_VERSION), 16);
	parse_ok(&b);
	assert_int_equal(info.nharts, 4);
	assert_int_equal(info.console.base, 0x10000000);
	assert_int_equal(info.test_base, 0x100000);
	free(b.p);
}

static void test_jh7110_like(void **state)
{
	struct blob b = load("jh7110-like.dtb");
	(void)state;
	parse_ok(&b);
	assert_int_equal(info.nharts, 5);
	assert_int_equal(info.harts[0].hartid, 0);
	assert_int_equal(info.harts[0].enabled, 0); /* the S7 monitor core */
	assert_string_equal(info.harts[0].isa, "rv64imac_zba_zbb");
	for (uint32_t i = 1; i < 5; i++) {
		assert_int_equal(info.harts[i].hartid, i);
		assert_int_equal(info.harts[i].enabled, 1);
	}
	assert_int_equal(info.timebase, 4000000);
	assert_int_equal(info.mem_base, 0x40000000);
	assert_int_equal(info.mem_size, 0x100000000ull);
	/* alias serial0 -> uart0, although uart1 comes first (and is disabled) */
	assert_int_equal(info.console.base, 0x10000000);
	assert_string_equal(info.console.compat, "snps,dw-apb-uart");
	assert_int_equal(info.console.reg_shift, 2);
	assert_int_equal(info.console.reg_io_width, 4);
	/* the DesignWare 8250 is the ns16550 driver's, registers 4 bytes apart */
	check_uart(&info, &uart_ns16550, 0x10000000, 2, 4);
	assert_int_equal(info.clint_base, 0x2000000);
	assert_int_equal(info.test_base, 0);
	assert_int_equal(info.nrsv, 1);
	assert_int_equal(info.rsv[0].base, 0x40000000);
	assert_int_equal(info.rsv[0].size, 0x80000);
	free(b.p);
}

/* The FPGA boards' trees (docs/platforms.md, "FPGA boards"): what the
 * image reads from them. */
static void test_cva6_genesys2_like(void **state)
{
	struct blob b = load("cva6-genesys2-like.dtb");
	(void)state;
	parse_ok(&b);
	assert_int_equal(info.nharts, 1);
	assert_int_equal(info.harts[0].enabled, 1);
	assert_int_equal(info.timebase, 25000000); /* clk/2: right, unlike the testharness's tree */
	assert_int_equal(info.mem_base, 0x80000000);
	assert_int_equal(info.mem_size, 0x40000000);
	assert_int_equal(info.console.base, 0x10000000); /* stdout-path */
	check_uart(&info, &uart_ns16550, 0x10000000, 2, 4);
	assert_int_equal(info.clint_base, 0x2000000);
	assert_int_equal(info.test_base, 0); /* no finisher: the run ends in wfi */
	assert_int_equal(info.hpm_l1d_miss, 0);
	assert_int_equal(info.hpm_llc_miss, 0);
	free(b.p);
}

/* the same tree with the two properties the JTAG recipe adds on /cpus */
static void test_cva6_genesys2_rvmess(void **state)
{
	struct blob b = load("cva6-genesys2-rvmess.dtb");
	(void)state;
	parse_ok(&b);
	assert_int_equal(info.timebase, 25000000);
	check_uart(&info, &uart_ns16550, 0x10000000, 2, 4);
	assert_int_equal(info.hpm_l1d_miss, 2);
	assert_int_equal(info.hpm_llc_miss, 2);
	free(b.p);
}

static void test_openpiton_genesys2_like(void **state)
{
	struct blob b = load("openpiton-genesys2-like.dtb");
	(void)state;
	parse_ok(&b);
	assert_int_equal(info.nharts, 2);
	assert_int_equal(info.harts[1].hartid, 1);
	assert_int_equal(info.timebase, 520835);
	assert_int_equal(info.mem_base, 0x80000000);
	assert_int_equal(info.mem_size, 0x40000000);
	/* stdout-path "uart0:..." names a label, not an alias: no console from
	 * it, and the UART table takes the first 16550 node instead */
	assert_int_equal(info.console.base, 0);
	check_uart(&info, &uart_ns16550, 0xfff0c2c000ull, 0, 1);
	assert_int_equal(info.clint_base, 0xfff1020000ull);
	assert_int_equal(info.test_base, 0);
	free(b.p);
}

static void test_cells1(void **state)
{
	struct blob b = load("cells1.dtb");
	(void)state;
	parse_ok(&b);
	assert_int_equal(info.nharts, 2); /* not-a-cpu@9 has no device_type */
	assert_int_equal(info.harts[0].hartid, 5);
	assert_int_equal(info.harts[0].enabled, 1);
	assert_int_equal(info.harts[1].hartid, 7);
	assert_int_equal(info.harts[1].enabled, 1); /* status = "ok" */
	assert_int_equal(info.timebase, 1000000);   /* first cpu's, /cpus has none */
	assert_int_equal(info.mem_base, 0x80000000); /* first entry of the first node */
	assert_int_equal(info.mem_size, 0x10000000);
	/* no stdout-path: no console node; the UART drivers take the first
	 * node in document order one of them knows (by its second compatible
	 * string: the SiFive driver, not the ns16550 one at 0x30000) */
	assert_int_equal(info.console.base, 0);
	check_uart(&info, &uart_sifive, 0x20000, 0, 1);
	{
		static const char *const want[] = { "ns16550a", NULL };
		struct fdt_node n;
		assert_int_equal(fdt_find_compatible(&info, want, &n), 1);
		assert_int_equal(n.base, 0x30000);
		assert_int_equal(n.size, 0x100);
		assert_true(fdt_node_compatible(&n, "ns16550a"));
		assert_false(fdt_node_compatible(&n, "ns16550"));
	}
	assert_int_equal(info.clint_base, 0x2000000);
	/* syscon-poweroff -> regmap phandle -> syscon@4000, + offset 8 */
	assert_int_equal(info.test_base, 0x4008);
	free(b.p);
}

static void test_cells2(void **state)
{
	struct blob b = load("cells2.dtb");
	(void)state;
	parse_ok(&b);
	assert_int_equal(info.nharts, 2);
	assert_int_equal(info.harts[1].hartid, 1);
	assert_int_equal(info.timebase, 0x100000000ull); /* a 64-bit value */
	assert_int_equal(info.mem_base, 0x1000000000ull);
	assert_int_equal(info.mem_size, 0x200000000ull);
	/* "/soc/uart" names uart@100000000 without its unit address */
	assert_int_equal(info.console.base, 0x100000000ull);
	assert_string_equal(info.console.compat, "ns16550a");
	assert_int_equal(info.console.reg_io_width, 1);
	check_uart(&info, &uart_ns16550, 0x100000000ull, 0, 1);
	assert_int_equal(info.memctl_base, 0xfff0000000ull);
	assert_int_equal(info.has_htif, 1);
	assert_int_equal(info.clint_base, 0x2000000);
	free(b.p);
}

static void test_reserved(void **state)
{
	struct blob b = load("rsv.dtb");
	static const struct fdt_region want[RVM_FDT_MAX_RSV] = {
		{0x80000000, 0x200000}, {0x87000000, 0x1000},    /* /memreserve/ */
		{0x80000000, 0x40000},  {0x88000000, 0x1000},    /* reserved-memory */
		{0x88100000, 0x2000},   {0x8a000000, 0x1000},    /* (off@ is disabled, */
		{0x8b000000, 0x1000},   {0x8c000000, 0x1000},    /*  dynamic has no reg) */
	};
	(void)state;
	parse_ok(&b);
	assert_int_equal(info.nrsv, RVM_FDT_MAX_RSV); /* d@8d000000 did not fit */
	for (int i = 0; i < RVM_FDT_MAX_RSV; i++) {
		assert_int_equal(info.rsv[i].base, want[i].base);
		assert_int_equal(info.rsv[i].size, want[i].size);
	}
	assert_int_equal(info.mem_base, 0x80000000);
	assert_int_equal(info.nharts, 0);
	assert_int_equal(info.console.base, 0);
	free(b.p);
}

static void test_many_cpus(void **state)
{
	struct blob b = load("manycpus.dtb");
	(void)state;
	parse_ok(&b);
	assert_int_equal(info.nharts, RVM_MAX_HARTS);
	assert_int_equal(info.harts[0].hartid, 100);
	assert_int_equal(info.harts[RVM_MAX_HARTS - 1].hartid, 100 + RVM_MAX_HARTS - 1);
	free(b.p);
}

static void test_qemu_virt(void **state)
{
	struct blob b = load("qemu-virt.dtb");
	(void)state;
	parse_ok(&b);
	assert_true(info.totalsize < b.n); /* QEMU pads the dump to 1 MiB */
	assert_int_equal(info.nharts, 4);
	for (uint32_t i = 0; i < 4; i++) {
		assert_int_equal(info.harts[i].hartid, i);
		assert_int_equal(info.harts[i].enabled, 1);
		assert_memory_equal(info.harts[i].isa, "rv64ima", 7);
	}
	assert_int_equal(info.timebase, 10000000);
	assert_int_equal(info.mem_base, 0x80000000);
	assert_int_equal(info.mem_size, 128u << 20);
	assert_int_equal(info.console.base, 0x10000000);
	assert_string_equal(info.console.compat, "ns16550a");
	check_uart(&info, &uart_ns16550, 0x10000000, 0, 1);
	assert_int_equal(info.clint_base, 0x2000000);
	assert_int_equal(info.test_base, 0x100000);
	assert_int_equal(info.has_htif, 0);
	assert_int_equal(info.cache_max, 0); /* QEMU's virt tree names no cache */
	/* also exactly totalsize as the limit */
	assert_int_equal(parse_copy(b.p, info.totalsize, &info), 0);
	free(b.p);
}

/* QEMU 7.2 sifive_u (docs/platforms.md): hart 0 is the E51 (rv64imac, no
 * MMU), the others U54s; timebase 1 MHz (RTCCLK); the console is the first
 * SiFive UART at 0x10010000; there is no test finisher, so the image must
 * not write one. */
static void test_qemu_sifive_u(void **state)
{
	struct blob b = load("qemu-sifive_u.dtb");
	(void)state;
	parse_ok(&b);
	assert_int_equal(info.nharts, 4);
	for (uint32_t i = 0; i < 4; i++) {
		assert_int_equal(info.harts[i].hartid, i);
		assert_int_equal(info.harts[i].enabled, 1);
	}
	assert_memory_equal(info.harts[0].isa, "rv64imac_", 9);
	assert_memory_equal(info.harts[1].isa, "rv64imafdc_", 11);
	assert_int_equal(info.timebase, 1000000);
	assert_int_equal(info.mem_base, 0x80000000);
	assert_int_equal(info.mem_size, 128u << 20);
	assert_int_equal(info.console.base, 0x10010000);
	check_uart(&info, &uart_sifive, 0x10010000, 0, 1);
	assert_int_equal(info.clint_base, 0x2000000);
	assert_int_equal(info.test_base, 0);
	assert_int_equal(info.has_htif, 0);
	/* its FU540 L2: cache-controller@2010000, compatible
	 * "sifive,fu540-c000-ccache" (no "cache" string of its own),
	 * cache-level 2, cache-size 2 MiB */
	assert_int_equal(info.cache_max, 2u << 20);
	free(b.p);
}

static void test_qemu_spike(void **state)
{
	struct blob b = load("qemu-spike.dtb");
	(void)state;
	parse_ok(&b);
	assert_int_equal(info.nharts, 4);
	assert_int_equal(info.harts[3].hartid, 3);
	assert_int_equal(info.timebase, 10000000);
	assert_int_equal(info.mem_base, 0x80000000);
	assert_int_equal(info.mem_size, 128u << 20);
	assert_int_equal(info.has_htif, 1);
	assert_int_equal(info.clint_base, 0x2000000);
	/* stdout-path is /htif: that is the console node, whatever it is ... */
	assert_int_equal(info.console.base, 0x1000000);
	assert_string_equal(info.console.compat, "ucb,htif0");
	/* ... no UART driver takes it, and there is no UART: the default */
	{
		struct uart u;
		static const struct uart dflt = { NULL, 0x1234, 0, 1, UART_WRITE_ONLY };
		assert_int_equal(uart_setup(&u, &info, &dflt), 1);
		assert_null(u.drv);
		assert_int_equal(u.base, 0x1234);
	}
	assert_int_equal(info.test_base, 0);
	free(b.p);
}

/* Byte reads only: a blob at an odd address parses the same. */
static void test_unaligned(void **state)
{
	struct blob b = load("jh7110-like.dtb");
	uint8_t *q = malloc(b.n + 1);
	(void)state;
	assert_non_null(q);
	memcpy(q + 1, b.p, b.n);
	assert_int_equal(fdt_parse(q + 1, b.n, &info), 0);
	assert_int_equal(info.nharts, 5);
	assert_int_equal(info.console.base, 0x10000000);
	assert_int_equal(info.mem_size, 0x100000000ull);
	free(q);
	free(b.p);
}

/* The parser must only read the blob, never write it. */
static void test_blob_untouched(void **state)
{
	struct blob b = load("jh7110-like.dtb");
	uint8_t *copy = malloc(b.n);
	(void)state;
	assert_non_null(copy);
	memcpy(copy, b.p, b.n);
	assert_int_equal(fdt_parse(b.p, b.n, &info), 0);
	assert_memory_equal(copy, b.p, b.n);
	free(copy);
	free(b.p);
}

/* ---- caches (trees built with libfdt) -------------------------------------- */

static uint8_t swbuf[16384];

/* The root and /cpus opened; cpu nodes follow through sw_cpu. */
static void *sw_begin(void)
{
	void *f = swbuf;
	assert_int_equal(fdt_create(f, sizeof swbuf), 0);
	assert_int_equal(fdt_finish_reservemap(f), 0);
	assert_int_equal(fdt_begin_node(f, ""), 0);
	assert_int_equal(fdt_property_u32(f, "#address-cells", 2), 0);
	assert_int_equal(fdt_property_u32(f, "#size-cells", 2), 0);
	assert_int_equal(fdt_begin_node(f, "cpus"), 0);
	assert_int_equal(fdt_property_u32(f, "#address-cells", 1), 0);
	assert_int_equal(fdt_property_u32(f, "#size-cells", 0), 0);
	assert_int_equal(fdt_property_u32(f, "timebase-frequency", 1000000), 0);
	return f;
}

/* cpu@id, enabled or not, with one size property (NULL: none); the node is
 * left open for children when `open` is set. */
static void sw_cpu(void *f, uint32_t id, int enabled, const char *prop, uint32_t size, int open)
{
	char name[32];
	snprintf(name, sizeof name, "cpu@%u", id);
	assert_int_equal(fdt_begin_node(f, name), 0);
	assert_int_equal(fdt_property_string(f, "device_type", "cpu"), 0);
	assert_int_equal(fdt_property_u32(f, "reg", id), 0);
	assert_int_equal(fdt_property_string(f, "status", enabled ? "okay" : "disabled"), 0);
	assert_int_equal(fdt_property_string(f, "riscv,isa", "rv64imac"), 0);
	if (prop)
		assert_int_equal(fdt_property_u32(f, prop, size), 0);
	if (!open)
		assert_int_equal(fdt_end_node(f), 0);
}

/* A cache node as the devicetree specification has them: compatible (a
 * NUL-separated list of len bytes; NULL: none), cache-level (0: none),
 * cache-unified, cache-size (0: none) with its sets and block size, status
 * (NULL: none). */
static void sw_cache(void *f, const char *name, const char *compat, int len, uint32_t level,
		     uint32_t size, const char *status)
{
	assert_int_equal(fdt_begin_node(f, name), 0);
	if (compat)
		assert_int_equal(fdt_property(f, "compatible", compat, len), 0);
	if (level)
		assert_int_equal(fdt_property_u32(f, "cache-level", level), 0);
	assert_int_equal(fdt_property(f, "cache-unified", NULL, 0), 0);
	if (size) {
		assert_int_equal(fdt_property_u32(f, "cache-size", size), 0);
		assert_int_equal(fdt_property_u32(f, "cache-sets", size / (16 * 64)), 0);
		assert_int_equal(fdt_property_u32(f, "cache-block-size", 64), 0);
	}
	if (status)
		assert_int_equal(fdt_property_string(f, "status", status), 0);
	assert_int_equal(fdt_end_node(f), 0);
}

/* Close the root, finish, and parse a heap copy of exactly totalsize
 * bytes; returns cache_max. */
static uint64_t sw_end(void *f)
{
	assert_int_equal(fdt_end_node(f), 0); /* root */
	assert_int_equal(fdt_finish(f), 0);
	assert_int_equal(fdt_check_header(f), 0);
	assert_int_equal(parse_copy(f, fdt_totalsize(f), &info), 0);
	return info.cache_max;
}

/* cpu nodes with their L1s and an L2 cache-controller in /soc, as on the
 * FU740 (HiFive Unmatched): the largest is the L2 */
static void test_caches_sifive_soc(void **state)
{
	static const char compat[] = "sifive,fu740-c000-ccache\0cache";
	void *f = sw_begin();
	(void)state;
	sw_cpu(f, 0, 1, "d-cache-size", 8192, 0); /* the S7 monitor core */
	for (uint32_t i = 1; i < 5; i++)
		sw_cpu(f, i, 1, "d-cache-size", 32768, 0);
	assert_int_equal(fdt_end_node(f), 0); /* cpus */
	assert_int_equal(fdt_begin_node(f, "soc"), 0);
	assert_int_equal(fdt_property_u32(f, "#address-cells", 2), 0);
	assert_int_equal(fdt_property_u32(f, "#size-cells", 2), 0);
	assert_int_equal(fdt_property_string(f, "compatible", "simple-bus"), 0);
	assert_int_equal(fdt_begin_node(f, "cache-controller@2010000"), 0);
	assert_int_equal(fdt_property(f, "compatible", compat, sizeof compat), 0);
	assert_int_equal(fdt_property_u32(f, "cache-block-size", 64), 0);
	assert_int_equal(fdt_property_u32(f, "cache-level", 2), 0);
	assert_int_equal(fdt_property_u32(f, "cache-sets", 2048), 0);
	assert_int_equal(fdt_property_u32(f, "cache-size", 2u << 20), 0);
	assert_int_equal(fdt_property(f, "cache-unified", NULL, 0), 0);
	assert_int_equal(fdt_end_node(f), 0);
	assert_int_equal(fdt_end_node(f), 0); /* soc */
	assert_int_equal(sw_end(f), 2u << 20);
	assert_int_equal(info.nharts, 5);
}

/* Which nodes and properties count, one tree at a time. */
static void test_caches_which(void **state)
{
	void *f;
	(void)state;

	/* nothing about caches: 0 */
	f = sw_begin();
	sw_cpu(f, 0, 1, NULL, 0, 0);
	assert_int_equal(fdt_end_node(f), 0);
	assert_int_equal(sw_end(f), 0);

	/* an L1 only: the cpus' d-cache-size (an i-cache-size does not count) */
	f = sw_begin();
	sw_cpu(f, 0, 1, "d-cache-size", 16384, 0);
	sw_cpu(f, 1, 1, "i-cache-size", 65536, 0);
	assert_int_equal(fdt_end_node(f), 0);
	assert_int_equal(sw_end(f), 16384);

	/* a unified L1: the cpu's cache-size */
	f = sw_begin();
	sw_cpu(f, 0, 1, "cache-size", 8192, 0);
	assert_int_equal(fdt_end_node(f), 0);
	assert_int_equal(sw_end(f), 8192);

	/* a disabled cpu's L1 does not count */
	f = sw_begin();
	sw_cpu(f, 0, 0, "d-cache-size", 1u << 20, 0);
	sw_cpu(f, 1, 1, "d-cache-size", 32768, 0);
	assert_int_equal(fdt_end_node(f), 0);
	assert_int_equal(sw_end(f), 32768);

	/* an L3 under a cpu node, an L2 in /cpus (compatible "cache", as on
	 * the TH1520) and an L4 at the root with a cache-level and no
	 * compatible: the largest of all */
	f = sw_begin();
	sw_cpu(f, 0, 1, "d-cache-size", 32768, 1);
	sw_cache(f, "l3-cache", "cache", 6, 3, 4u << 20, NULL);
	assert_int_equal(fdt_end_node(f), 0); /* cpu@0 */
	sw_cache(f, "l2-cache", "cache", 6, 2, 1u << 20, NULL);
	assert_int_equal(fdt_end_node(f), 0); /* cpus */
	sw_cache(f, "l4-cache", NULL, 0, 4, 32u << 20, NULL);
	assert_int_equal(sw_end(f), 32u << 20);
	assert_int_equal(info.nharts, 1);

	/* ... the one under a cpu node alone, the root's alone */
	f = sw_begin();
	sw_cpu(f, 0, 1, NULL, 0, 1);
	sw_cache(f, "l3-cache", "cache", 6, 3, 4u << 20, NULL);
	assert_int_equal(fdt_end_node(f), 0);
	assert_int_equal(fdt_end_node(f), 0);
	assert_int_equal(sw_end(f), 4u << 20);
	f = sw_begin();
	assert_int_equal(fdt_end_node(f), 0);
	sw_cache(f, "l2-cache", NULL, 0, 2, 3u << 19, NULL);
	assert_int_equal(sw_end(f), 3u << 19);

	/* a compatible that only contains "cache" (QEMU's sifive_u) and no
	 * cache-level; a list holding one as its second string */
	f = sw_begin();
	assert_int_equal(fdt_end_node(f), 0);
	sw_cache(f, "cache-controller", "sifive,fu540-c000-ccache", 25, 0, 2u << 20, NULL);
	assert_int_equal(sw_end(f), 2u << 20);
	f = sw_begin();
	assert_int_equal(fdt_end_node(f), 0);
	sw_cache(f, "cache-controller", "vendor,l2\0sifive,ccache0", 25, 0, 1u << 20, NULL);
	assert_int_equal(sw_end(f), 1u << 20);

	/* a disabled cache node does not count */
	f = sw_begin();
	sw_cpu(f, 0, 1, "d-cache-size", 32768, 0);
	assert_int_equal(fdt_end_node(f), 0);
	sw_cache(f, "l2-cache", "cache", 6, 2, 8u << 20, "disabled");
	assert_int_equal(sw_end(f), 32768);

	/* neither a cache-level nor a compatible containing "cache": not a
	 * cache node, whatever its properties say */
	f = sw_begin();
	assert_int_equal(fdt_end_node(f), 0);
	sw_cache(f, "dma@1000", "vendor,dma", 11, 0, 64u << 20, NULL);
	assert_int_equal(sw_end(f), 0);

	/* a 64-bit cache-size counts; one of another length does not */
	f = sw_begin();
	assert_int_equal(fdt_end_node(f), 0);
	assert_int_equal(fdt_begin_node(f, "l3-cache"), 0);
	assert_int_equal(fdt_property_u32(f, "cache-level", 3), 0);
	assert_int_equal(fdt_property_u64(f, "cache-size", 6ull << 30), 0);
	assert_int_equal(fdt_end_node(f), 0);
	assert_int_equal(sw_end(f), 6ull << 30);
	f = sw_begin();
	assert_int_equal(fdt_end_node(f), 0);
	assert_int_equal(fdt_begin_node(f, "l3-cache"), 0);
	assert_int_equal(fdt_property_u32(f, "cache-level", 3), 0);
	assert_int_equal(fdt_property(f, "cache-size", "\0\0\x10", 3), 0);
	assert_int_equal(fdt_end_node(f), 0);
	assert_int_equal(sw_end(f), 0);
}

/* ---- header refusals -------------------------------------------------------- */

/* m = b's bytes with the big-endian word at `field` set to val; returns m */
static uint8_t *with_field(uint8_t *m, const struct blob *b, uint32_t field, uint32_t val)
{
	memcpy(m, b->p, b->n);
	put32(m + field, val);
	return m;
}

static void test_bad_header(void **state)
{
	struct blob b = load("virt-like.dtb");
	uint32_t tsz = be32(b.p + H_TOTALSIZE);
	uint8_t *m = malloc(b.n);
	(void)state;
	assert_non_null(m);

#define MUT(field, val, why) expect_refusal(with_field(m, &b, (field), (val)), b.n, why)

	MUT(0, 0xd00dfeee, "bad-magic");
	MUT(0, 0xedfe0dd0, "bad-magic"); /* little-endian magic */
	MUT(H_TOTALSIZE, tsz + 1, "totalsize-exceeds-maxlen");
	MUT(H_TOTALSIZE, 0xffffffff, "totalsize-exceeds-maxlen");
	MUT(H_TOTALSIZE, 20, "totalsize-too-small");
	MUT(H_VERSION, 15, "version-too-old");
	MUT(H_LAST_COMP, 18, "incompatible-version");
	MUT(H_OFF_STRUCT, tsz, "bad-struct-offset");
	MUT(H_OFF_STRUCT, 0xfffffffc, "bad-struct-offset");
	MUT(H_OFF_STRUCT, be32(b.p + H_OFF_STRUCT) + 2, "bad-struct-offset"); /* unaligned */
	MUT(H_OFF_STRUCT, 8, "bad-struct-offset");                            /* in the header */
	MUT(H_OFF_STRINGS, tsz, "bad-strings-block");
	MUT(H_OFF_STRINGS, 0xffffffff, "bad-strings-block");
	MUT(H_SIZE_STRINGS, 0xffffffff, "bad-strings-block");
	MUT(H_SIZE_STRINGS, be32(b.p + H_SIZE_STRINGS) + 1, "bad-strings-block");
	MUT(H_SIZE_STRUCT, 0xfffffff0, "bad-struct-size");
	MUT(H_SIZE_STRUCT, tsz - be32(b.p + H_OFF_STRUCT) + 4, "bad-struct-size");
	MUT(H_OFF_RSV, tsz, "bad-rsvmap-offset");
	MUT(H_OFF_RSV, 4, "bad-rsvmap-offset");
	MUT(H_OFF_RSV, be32(b.p + H_OFF_RSV) + 4, "bad-rsvmap-offset"); /* unaligned */
	MUT(H_OFF_RSV, be32(b.p + H_OFF_STRUCT), "blocks-overlap");
	/* strings block moved onto the structure block */
	MUT(H_OFF_STRINGS, be32(b.p + H_OFF_STRUCT) + 8, "blocks-overlap");
#undef MUT

	/* the limit is the caller's buffer, whatever totalsize says */
	expect_refusal(b.p, tsz - 1, "totalsize-exceeds-maxlen");
	expect_refusal(b.p, 7, "truncated-header");
	expect_refusal(b.p, 0, "truncated-header");
	assert_int_equal(fdt_parse(NULL, 100, &info), -1);
	assert_string_equal(info.reason, "null-blob");
	free(m);
	free(b.p);
}

/* Truncated at every length: once with the true header (totalsize now exceeds
 * the buffer), once with totalsize patched down to the new length so that
 * the block checks and the walk are what must catch it. */
static void test_truncated_everywhere(void **state)
{
	static const char *const names[] = {"virt-like.dtb", "jh7110-like.dtb", "rsv.dtb",
					     "virt-like-v16.dtb", "qemu-spike.dtb"};
	(void)state;
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		struct blob b = load(names[k]);
		uint32_t tsz = be32(b.p + H_TOTALSIZE);
		uint8_t *m = malloc(tsz);
		assert_non_null(m);
		for (uint32_t n = 0; n < tsz; n++) {
			int st = parse_copy(b.p, n, &info);
			assert_refused(&info, st, n);
			if (n >= 8) {
				memcpy(m, b.p, n);
				put32(m + H_TOTALSIZE, n);
				st = parse_copy(m, n, &info);
				if (st == 0)
					print_error("%s: accepted with totalsize %u\n", names[k], n);
				assert_refused(&info, st, n);
			}
		}
		/* the untruncated one still parses */
		assert_int_equal(parse_copy(b.p, tsz, &info), 0);
		free(m);
		free(b.p);
	}
}

/* ---- structure-block refusals on a real blob ------------------------------ */

/* Offset of the n-th token of type `type` in the structure block of b. */
static uint32_t find_token(const uint8_t *p, uint32_t type, int nth)
{
	uint32_t off = be32(p + H_OFF_STRUCT), end = off + be32(p + H_SIZE_STRUCT);
	while (off + 4 <= end) {
		uint32_t t = be32(p + off);
		if (t == type && nth-- == 0)
			return off;
		if (t == 1) {
			off += 4;
			while (p[off])
				off++;
			off = (off + 1 + 3) & ~3u;
		} else if (t == 3) {
			off = (off + 12 + be32(p + off + 4) + 3) & ~3u;
		} else {
			off += 4;
		}
	}
	fail_msg("token %u not found", type);
	return 0;
}

static void test_bad_structure(void **state)
{
	struct blob b = load("virt-like.dtb");
	uint8_t *m = malloc(b.n);
	uint32_t prop, node, end, soff = be32(b.p + H_OFF_STRUCT);
	(void)state;
	assert_non_null(m);

	/* string offset out of range / exactly at the end */
	prop = find_token(b.p, 3, 0);
	memcpy(m, b.p, b.n);
	put32(m + prop + 8, be32(b.p + H_SIZE_STRINGS));
	expect_refusal(m, b.n, "bad-string-offset");
	assert_int_equal(info.err_off, prop);
	memcpy(m, b.p, b.n);
	put32(m + prop + 8, 0x80000000u);
	expect_refusal(m, b.n, "bad-string-offset");

	/* property name not terminated inside the strings block */
	memcpy(m, b.p, b.n);
	{
		uint32_t so = be32(m + H_OFF_STRINGS), ss = be32(m + H_SIZE_STRINGS), last = ss - 1;
		while (last > 0 && m[so + last - 1] != 0)
			last--;
		/* the block now ends just before the last string's NUL (which
		 * still sits in the blob, so only the block bound catches it) */
		put32(m + H_SIZE_STRINGS, ss - 1);
		put32(m + prop + 8, last);
		expect_refusal(m, b.n, "unterminated-prop-name");
		assert_int_equal(info.err_off, prop);
	}

	/* property lengths running past the end of the structure block */
	memcpy(m, b.p, b.n);
	put32(m + prop + 4, be32(b.p + H_SIZE_STRUCT));
	expect_refusal(m, b.n, "prop-len-past-end");
	memcpy(m, b.p, b.n);
	put32(m + prop + 4, 0xfffffff0u);
	expect_refusal(m, b.n, "prop-len-past-end");
	/* unknown token */
	node = find_token(b.p, 1, 1);
	memcpy(m, b.p, b.n);
	put32(m + node, 7);
	expect_refusal(m, b.n, "bad-token");
	assert_int_equal(info.err_off, node);

	/* missing FDT_END: the block ends right after the root's END_NODE */
	end = find_token(b.p, 9, 0);
	memcpy(m, b.p, b.n);
	put32(m + H_SIZE_STRUCT, end - soff);
	expect_refusal(m, b.n, "missing-end");
	/* FDT_END replaced by a NOP: the walk runs off the block */
	memcpy(m, b.p, b.n);
	put32(m + end, 4);
	expect_refusal(m, b.n, "missing-end");
	/* FDT_END inside a node: the root's END_NODE becomes END */
	memcpy(m, b.p, b.n);
	put32(m + end - 4, 9);
	expect_refusal(m, b.n, "end-inside-node");
	/* an extra END_NODE */
	memcpy(m, b.p, b.n);
	put32(m + end, 2);
	expect_refusal(m, b.n, "unbalanced-end-node");

	/* node name not terminated: the block ends inside the name of cpus */
	node = find_token(b.p, 1, 3);
	memcpy(m, b.p, b.n);
	put32(m + H_SIZE_STRUCT, node + 4 + 2 - soff);
	expect_refusal(m, b.n, "unterminated-node-name");

	free(m);
	free(b.p);
}

/* ---- hand-built blobs ---------------------------------------------------------- */

struct bld {
	uint8_t  s[16384]; /* structure block */
	uint32_t ns;
	char     str[256];
	uint32_t nstr;
};

static void b_u32(struct bld *b, uint32_t v)
{
	assert_true(b->ns + 4 <= sizeof b->s);
	put32(b->s + b->ns, v);
	b->ns += 4;
}

static void b_begin(struct bld *b, const char *name)
{
	size_t n = strlen(name) + 1;
	b_u32(b, 1);
	assert_true(b->ns + n + 3 <= sizeof b->s);
	memcpy(b->s + b->ns, name, n);
	b->ns += (uint32_t)n;
	while (b->ns & 3)
		b->s[b->ns++] = 0;
}

static uint32_t b_string(struct bld *b, const char *name)
{
	uint32_t off = b->nstr;
	size_t n = strlen(name) + 1;
	assert_true(b->nstr + n <= sizeof b->str);
	memcpy(b->str + b->nstr, name, n);
	b->nstr += (uint32_t)n;
	return off;
}

static void b_prop(struct bld *b, const char *name, const void *val, uint32_t len)
{
	b_u32(b, 3);
	b_u32(b, len);
	b_u32(b, b_string(b, name));
	assert_true(b->ns + len + 3 <= sizeof b->s);
	memcpy(b->s + b->ns, val, len);
	b->ns += len;
	while (b->ns & 3)
		b->s[b->ns++] = 0;
}

/* Header (v17) + empty reservation map + structure + strings; malloc'd. */
static uint8_t *b_finish(const struct bld *b, size_t *n)
{
	uint32_t off_rsv = 40, off_struct = 56, off_str = off_struct + b->ns;
	uint32_t tsz = off_str + b->nstr;
	uint8_t *p = calloc(1, tsz);
	assert_non_null(p);
	put32(p + 0, 0xd00dfeed);
	put32(p + H_TOTALSIZE, tsz);
	put32(p + H_OFF_STRUCT, off_struct);
	put32(p + H_OFF_STRINGS, off_str);
	put32(p + H_OFF_RSV, off_rsv);
	put32(p + H_VERSION, 17);
	put32(p + H_LAST_COMP, 16);
	put32(p + H_SIZE_STRINGS, b->nstr);
	put32(p + H_SIZE_STRUCT, b->ns);
	memcpy(p + off_struct, b->s, b->ns);
	memcpy(p + off_str, b->str, b->nstr);
	*n = tsz;
	return p;
}

static void check_built(struct bld *b, const char *reason)
{
	size_t n;
	uint8_t *p = b_finish(b, &n);
	if (reason) {
		expect_refusal(p, n, reason);
	} else {
		int st = parse_copy(p, n, &info);
		if (st)
			print_error("refused: %s at %u\n", info.reason, info.err_off);
		assert_int_equal(st, 0);
	}
	free(p);
}

static void test_built(void **state)
{
	static struct bld b;
	static const uint8_t one[4] = {0, 0, 0, 1};
	(void)state;

	/* the minimal tree is fine */
	memset(&b, 0, sizeof b);
	b_begin(&b, "");
	b_u32(&b, 2);
	b_u32(&b, 9);
	check_built(&b, NULL);
	assert_int_equal(info.nharts, 0);
	assert_int_equal(info.console.base, 0);

	/* NOPs anywhere are fine */
	memset(&b, 0, sizeof b);
	b_u32(&b, 4);
	b_begin(&b, "");
	b_u32(&b, 4);
	b_prop(&b, "x", one, 4);
	b_u32(&b, 4);
	b_u32(&b, 2);
	b_u32(&b, 4);
	b_u32(&b, 9);
	check_built(&b, NULL);

	/* depth: 32 levels pass, 33 do not */
	for (int depth = 32; depth <= 33; depth++) {
		memset(&b, 0, sizeof b);
		for (int i = 0; i < depth; i++)
			b_begin(&b, i ? "n" : "");
		for (int i = 0; i < depth; i++)
			b_u32(&b, 2);
		b_u32(&b, 9);
		check_built(&b, depth == 32 ? NULL : "too-deep");
	}
	/* a very deep, never closed tree */
	memset(&b, 0, sizeof b);
	for (int i = 0; i < 1000; i++)
		b_begin(&b, "deep");
	b_u32(&b, 9);
	check_built(&b, "too-deep");

	/* empty structure block (then it starts at totalsize: a bad offset) */
	memset(&b, 0, sizeof b);
	check_built(&b, "bad-struct-offset");
	memset(&b, 0, sizeof b);
	b_string(&b, "unused");
	check_built(&b, "missing-end");
	/* a complete root, then the block ends */
	memset(&b, 0, sizeof b);
	b_begin(&b, "");
	b_u32(&b, 2);
	check_built(&b, "missing-end");
	/* END with no root */
	memset(&b, 0, sizeof b);
	b_u32(&b, 9);
	check_built(&b, "no-root-node");
	/* two roots */
	memset(&b, 0, sizeof b);
	b_begin(&b, "");
	b_u32(&b, 2);
	b_begin(&b, "");
	b_u32(&b, 2);
	b_u32(&b, 9);
	check_built(&b, "multiple-roots");
	/* property outside any node */
	memset(&b, 0, sizeof b);
	b_prop(&b, "x", one, 4);
	b_begin(&b, "");
	b_u32(&b, 2);
	b_u32(&b, 9);
	check_built(&b, "prop-outside-node");
	/* property after a subnode */
	memset(&b, 0, sizeof b);
	b_begin(&b, "");
	b_begin(&b, "a");
	b_u32(&b, 2);
	b_prop(&b, "x", one, 4);
	b_u32(&b, 2);
	b_u32(&b, 9);
	check_built(&b, "prop-after-subnode");
	/* END_NODE with nothing open */
	memset(&b, 0, sizeof b);
	b_u32(&b, 2);
	b_u32(&b, 9);
	check_built(&b, "unbalanced-end-node");
	/* a property header cut by the end of the block */
	memset(&b, 0, sizeof b);
	b_begin(&b, "");
	b_u32(&b, 3);
	b_u32(&b, 0);
	check_built(&b, "truncated-prop");
	/* a node name running to the end of the block, no NUL */
	memset(&b, 0, sizeof b);
	b_begin(&b, "");
	b_u32(&b, 1);
	memcpy(b.s + b.ns, "abcdefgh", 8);
	b.ns += 8;
	check_built(&b, "unterminated-node-name");
	/* a value running past the end by one byte */
	memset(&b, 0, sizeof b);
	b_begin(&b, "");
	b_prop(&b, "x", one, 4);
	b.ns -= 4;
	b_u32(&b, 0);
	put32(b.s + 8 + 4, 5); /* props header at 8: len = 5 */
	check_built(&b, "prop-len-past-end");
	/* odd #address-cells make reg unusable, not a crash */
	memset(&b, 0, sizeof b);
	{
		static const uint8_t big[4] = {0, 0, 0, 9};
		static const uint8_t reg[8] = {0, 0, 0x10, 0, 0, 0, 0x10, 0};
		b_begin(&b, "");
		b_prop(&b, "#address-cells", big, 4);
		b_begin(&b, "memory@0");
		b_prop(&b, "device_type", "memory", 7);
		b_prop(&b, "reg", reg, 8);
		b_u32(&b, 2);
		b_u32(&b, 2);
		b_u32(&b, 9);
		check_built(&b, NULL);
		assert_int_equal(info.mem_size, 0);
	}
}

/* A bad /memreserve/ map: no terminator before the structure block. */
static void test_bad_rsvmap(void **state)
{
	struct blob b = load("jh7110-like.dtb");
	uint32_t rsv = be32(b.p + H_OFF_RSV), soff = be32(b.p + H_OFF_STRUCT);
	(void)state;
	/* fill the map up to the structure block with nonzero entries */
	for (uint32_t o = rsv; o + 16 <= soff; o += 16)
		for (int i = 0; i < 16; i++)
			b.p[o + i] = 0x11;
	expect_refusal(b.p, b.n, "rsvmap-unterminated");
	free(b.p);
}

/* ---- random mutation ---------------------------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	uint64_t x = rng_state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	rng_state = x;
	return (uint32_t)(x >> 16);
}

static const char *const mutation_names[] = {"virt-like.dtb", "jh7110-like.dtb", "cells1.dtb",
					      "cells2.dtb", "rsv.dtb", "virt-like-v16.dtb",
					      "qemu-virt.dtb", "qemu-spike.dtb", "qemu-sifive_u.dtb"};

/* m = the first tsz bytes of src with 1 to 6 random edits; returns the
 * length to parse (tsz, or one time in 8 a random shorter one). */
static uint32_t mutate(uint8_t *m, const uint8_t *src, uint32_t tsz)
{
	static const uint32_t interesting[] = {0, 1, 2, 3, 4, 9, 0xff, 0x7fffffff, 0x80000000,
					       0xfffffffc, 0xffffffff, 0xd00dfeed};
	uint32_t n = tsz, edits = 1 + rnd() % 6;

	memcpy(m, src, tsz);
	for (uint32_t e = 0; e < edits; e++) {
		uint32_t at = rnd() % tsz;
		switch (rnd() % 4) {
		case 0: /* random byte */
			m[at] = (uint8_t)rnd();
			break;
		case 1: /* flip a bit */
			m[at] ^= (uint8_t)(1u << (rnd() % 8));
			break;
		case 2: /* an interesting word, aligned */
			at &= ~3u;
			if (at + 4 <= tsz)
				put32(m + at, interesting[rnd() % (sizeof interesting / sizeof interesting[0])]);
			break;
		default: /* a header field nudged */
			at = 4 + 4 * (rnd() % 9);
			put32(m + at, be32(m + at) + (rnd() % 9) - 4);
			break;
		}
	}
	if (rnd() % 8 == 0)
		n = rnd() % tsz;
	return n;
}

static void test_random_mutations(void **state)
{
	int ok = 0, refused = 0;
	(void)state;
	for (size_t k = 0; k < sizeof mutation_names / sizeof mutation_names[0]; k++) {
		struct blob b = load(mutation_names[k]);
		uint32_t tsz = be32(b.p + H_TOTALSIZE);
		uint8_t *m = malloc(tsz);
		assert_non_null(m);
		for (int it = 0; it < 1000; it++) {
			uint32_t n = mutate(m, b.p, tsz);
			{
				int st = parse_copy(m, n, &info);
				if (st == 0) {
					ok++;
					assert_string_equal(info.reason, "ok");
					assert_true(info.nharts <= RVM_MAX_HARTS);
					assert_true(info.nrsv <= RVM_FDT_MAX_RSV);
					for (uint32_t h = 0; h < info.nharts; h++)
						assert_true(memchr(info.harts[h].isa, 0, sizeof info.harts[h].isa) != NULL);
					assert_true(info.console.compat_len <= sizeof info.console.compat);
					assert_true(info.console.compat_len == 0 ||
						    info.console.compat[info.console.compat_len - 1] == 0);
				} else {
					refused++;
					assert_refused(&info, st, n);
				}
			}
		}
		free(m);
		free(b.p);
	}
	/* the mutator must exercise both outcomes, or it is not testing much */
	print_message("random mutations: %d accepted, %d refused\n", ok, refused);
	assert_true(ok > 100);
	assert_true(refused > 1000);
}

/* ---- the copy (fdt_copy) ------------------------------------------------------- */

static struct fdt_info info_in_place; /* big: off the stack */

#define SENTINEL 0xa5

/* One fdt_copy call, set up so that ASan and UBSan see every slip: the blob
 * is the last n bytes of a heap block, `shift` bytes past an 8-byte
 * boundary; the buffer the last cap bytes of another, `bshift` past one,
 * filled with SENTINEL.  r->p and r->len: fdt_copy's answer. */
struct copy_run {
	uint8_t *blk, *blob, *bblk, *buf;
	size_t   cap, len;
	const void *p;
};

static void copy_run(struct copy_run *r, const uint8_t *src, size_t n, unsigned shift, size_t cap,
		     unsigned bshift)
{
	r->blk = malloc(n + shift ? n + shift : 1);
	r->bblk = malloc(cap + bshift);
	assert_non_null(r->blk);
	assert_non_null(r->bblk);
	assert_int_equal((uintptr_t)r->blk & 7u, 0);
	assert_int_equal((uintptr_t)r->bblk & 7u, 0);
	r->blob = r->blk + shift;
	if (n)
		memcpy(r->blob, src, n);
	r->buf = r->bblk + bshift;
	r->cap = cap;
	memset(r->buf, SENTINEL, cap);
	r->p = fdt_copy(r->blob, n, r->buf, cap, &r->len);
}

static void copy_free(struct copy_run *r)
{
	free(r->blk);
	free(r->bblk);
}

/* No byte of the buffer was written. */
static void assert_buf_untouched(const struct copy_run *r)
{
	for (size_t i = 0; i < r->cap; i++)
		if (r->buf[i] != SENTINEL)
			fail_msg("buffer byte %zu written (%#x) though the blob was not copied", i, r->buf[i]);
}

/* The blob was copied: to buf at its own address modulo 8, exactly its
 * totalsize bytes, nothing around them written. */
static void assert_copied(const struct copy_run *r, const uint8_t *src, uint32_t tsz)
{
	const uint8_t *p = r->p;
	size_t at;
	assert_true(p >= r->buf && p < r->buf + r->cap);
	assert_int_equal((uintptr_t)p & 7u, (uintptr_t)r->blob & 7u);
	assert_true(p - r->buf < 8);
	assert_int_equal(r->len, tsz);
	assert_memory_equal(p, src, tsz);
	at = (size_t)(p - r->buf);
	for (size_t i = 0; i < r->cap; i++)
		if ((i < at || i >= at + tsz) && r->buf[i] != SENTINEL)
			fail_msg("buffer byte %zu written outside the copy [%zu, %zu)", i, at, at + tsz);
}

/* fdt_parse of what fdt_copy returned gives what fdt_parse of the blob in
 * place gives (the blob pointer aside): status, reason, offset, every field. */
static void assert_same_parse(const struct copy_run *r, const uint8_t *src, size_t n)
{
	int st_in = parse_copy(src, n, &info_in_place);
	int st = fdt_parse(r->p, r->len, &info);
	const void *blob = info.blob;
	const char *reason = info.reason;
	assert_int_equal(st, st_in);
	assert_string_equal(info.reason, info_in_place.reason);
	assert_int_equal(info.err_off, info_in_place.err_off);
	assert_ptr_equal(blob, st == 0 ? r->p : NULL);
	info.blob = info_in_place.blob = NULL;
	info.reason = info_in_place.reason = NULL;
	assert_memory_equal(&info, &info_in_place, sizeof info);
	info.blob = blob; /* for fdt_find_compatible */
	info.reason = reason;
}

/* Good trees, at every alignment of blob and buffer: copied, parsed the
 * same, and every later reader (the UART table's fdt_find_compatible) reads
 * the copy: the original is wiped before it runs. */
static void test_copy_good(void **state)
{
	static const struct {
		const char *name;
		const struct uart_driver *drv;
		uint64_t base;
		uint32_t shift, width;
	} t[] = {
		{"virt-like.dtb", &uart_ns16550, 0x10000000, 0, 1},
		{"jh7110-like.dtb", &uart_ns16550, 0x10000000, 2, 4},
		{"openpiton-genesys2-like.dtb", &uart_ns16550, 0xfff0c2c000ull, 0, 1}, /* by compatible */
		{"qemu-virt.dtb", &uart_ns16550, 0x10000000, 0, 1}, /* 1 MiB dump: maxlen > totalsize */
		{"qemu-sifive_u.dtb", &uart_sifive, 0x10010000, 0, 1},
		{"virt-like-v16.dtb", &uart_ns16550, 0x10000000, 0, 1},
	};
	static const unsigned sh[][2] = {{0, 0}, {1, 0}, {2, 0}, {4, 0}, {7, 0}, {0, 3}, {5, 5}, {6, 1}, {3, 4}};
	(void)state;
	for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
		struct blob b = load(t[k].name);
		uint32_t tsz = be32(b.p + H_TOTALSIZE);
		for (size_t j = 0; j < sizeof sh / sizeof sh[0]; j++) {
			struct copy_run r;
			copy_run(&r, b.p, b.n, sh[j][0], 32768, sh[j][1]);
			assert_copied(&r, b.p, tsz);
			assert_same_parse(&r, b.p, b.n);
			memset(r.blob, 0, b.n);
			check_uart(&info, t[k].drv, t[k].base, t[k].shift, t[k].width);
			copy_free(&r);
		}
		free(b.p);
	}
}

/* A blob larger than the buffer is parsed in place, as without the copy;
 * one that just fits (its alignment offset counted) is copied. */
static void test_copy_too_big(void **state)
{
	struct blob b = load("jh7110-like.dtb");
	uint32_t tsz = be32(b.p + H_TOTALSIZE);
	struct copy_run r;
	(void)state;
	for (unsigned shift = 0; shift < 8; shift++) {
		/* buffer 8-aligned: the copy starts shift bytes in */
		copy_run(&r, b.p, b.n, shift, tsz + shift - 1, 0);
		assert_ptr_equal(r.p, r.blob);
		assert_int_equal(r.len, b.n);
		assert_buf_untouched(&r);
		assert_same_parse(&r, b.p, b.n);
		assert_ptr_equal(info.blob, r.blob);
		check_uart(&info, &uart_ns16550, 0x10000000, 2, 4);
		copy_free(&r);

		copy_run(&r, b.p, b.n, shift, tsz + shift, 0);
		assert_copied(&r, b.p, tsz);
		assert_same_parse(&r, b.p, b.n);
		copy_free(&r);
	}
	free(b.p);
}

/* Headers fdt_parse refuses are parsed in place (no byte of the buffer
 * written) and refused exactly as without the copy; every truncation of a
 * tree, with its header's totalsize or with totalsize patched down to it,
 * and random mutations too (copied or not, the parse is the same). */
static void test_copy_refusals(void **state)
{
	struct blob b = load("virt-like.dtb");
	uint32_t tsz = be32(b.p + H_TOTALSIZE);
	uint8_t *m = malloc(b.n);
	struct copy_run r;
	size_t len = 1;
	(void)state;
	assert_non_null(m);

#define IN_PLACE(src, n, why)                                   \
	do {                                                    \
		copy_run(&r, (src), (n), 0, 32768, 0);          \
		assert_ptr_equal(r.p, r.blob);                  \
		assert_int_equal(r.len, (n));                   \
		assert_buf_untouched(&r);                       \
		assert_same_parse(&r, (src), (n));              \
		assert_string_equal(info.reason, (why));        \
		copy_free(&r);                                  \
	} while (0)
#define MUT(field, val, why)                              \
	do {                                              \
		with_field(m, &b, (field), (val));        \
		IN_PLACE(m, b.n, why);                    \
	} while (0)

	MUT(0, 0xd00dfeee, "bad-magic");
	MUT(0, 0xedfe0dd0, "bad-magic");
	MUT(H_TOTALSIZE, tsz + 1, "totalsize-exceeds-maxlen"); /* the truncated totalsize */
	MUT(H_TOTALSIZE, 0xffffffff, "totalsize-exceeds-maxlen");
	MUT(H_TOTALSIZE, 35, "totalsize-too-small");
	MUT(H_TOTALSIZE, 7, "totalsize-too-small");
	MUT(H_TOTALSIZE, 0, "totalsize-too-small");
	IN_PLACE(b.p, tsz - 1, "totalsize-exceeds-maxlen");
	IN_PLACE(b.p, 7, "truncated-header");
	IN_PLACE(b.p, 0, "truncated-header");
#undef MUT
#undef IN_PLACE
	/* nothing to read, nowhere to copy */
	assert_null(fdt_copy(NULL, 100, m, b.n, &len));
	assert_int_equal(len, 100);
	assert_ptr_equal(fdt_copy(b.p, b.n, NULL, 0, &len), b.p);
	assert_int_equal(len, b.n);

	/* every truncation */
	for (uint32_t n = 0; n < tsz; n++) {
		copy_run(&r, b.p, n, n % 8, 32768, 0);
		assert_ptr_equal(r.p, r.blob);
		assert_same_parse(&r, b.p, n);
		copy_free(&r);
		if (n >= 8) {
			memcpy(m, b.p, n);
			put32(m + H_TOTALSIZE, n);
			copy_run(&r, m, n, n % 8, 32768, 0);
			if (n >= 36)
				assert_copied(&r, m, n);
			assert_same_parse(&r, m, n);
			assert_true(info.status < 0);
			copy_free(&r);
		}
	}
	free(m);
	free(b.p);

	/* random mutations of every tree */
	for (size_t k = 0; k < sizeof mutation_names / sizeof mutation_names[0]; k++) {
		struct blob t = load(mutation_names[k]);
		uint32_t tt = be32(t.p + H_TOTALSIZE);
		uint8_t *mm = malloc(tt);
		assert_non_null(mm);
		for (int it = 0; it < 300; it++) {
			uint32_t n = mutate(mm, t.p, tt);
			copy_run(&r, mm, n, it % 8, 32768, (unsigned)(it / 8) % 8);
			assert_same_parse(&r, mm, n);
			copy_free(&r);
		}
		free(mm);
		free(t.p);
	}
}

/* A blob that already lies in the buffer is parsed where it is, unharmed. */
static void test_copy_overlap(void **state)
{
	struct blob b = load("virt-like.dtb");
	uint32_t tsz = be32(b.p + H_TOTALSIZE);
	size_t cap = 4 * (size_t)tsz, len;
	uint8_t *buf = malloc(cap);
	static const size_t at[] = {0, 1, 8, 100};
	(void)state;
	assert_non_null(buf);
	for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
		memset(buf, SENTINEL, cap);
		memcpy(buf + at[k], b.p, tsz);
		assert_ptr_equal(fdt_copy(buf + at[k], tsz, buf, cap, &len), buf + at[k]);
		assert_int_equal(len, tsz);
		assert_memory_equal(buf + at[k], b.p, tsz);
	}
	/* ... and so is one whose end reaches into it */
	memset(buf, SENTINEL, cap);
	memcpy(buf, b.p, tsz);
	assert_ptr_equal(fdt_copy(buf, tsz, buf + tsz - 1, cap - tsz + 1, &len), buf);
	assert_memory_equal(buf, b.p, tsz);
	free(buf);
	free(b.p);
}

/* ---- the UART drivers' register layouts ---------------------------------- */

/* ns16550 with reg-shift 2 and 32-bit access (the JH7110's DesignWare 8250):
 * LSR is polled at +20, THR written at +0 as a 32-bit word. */
static void test_uart_ns16550_layout(void **state)
{
	uint32_t r32[8] = {0};
	uint8_t r8[8] = {0};
	struct uart u = { &uart_ns16550, (uintptr_t)r32, 2, 4, 0 };
	(void)state;

	r32[5] = 0x20; /* LSR: THR empty */
	memset(r32, 0xff, 4 * 5); /* THR and the registers between */
	uart_putc(&u, 'A');
	assert_int_equal(r32[0], 'A');  /* the whole word written */
	for (int i = 1; i < 5; i++)
		assert_int_equal(r32[i], 0xffffffffu);

	u = (struct uart){ &uart_ns16550, (uintptr_t)r8, 0, 1, 0 };
	r8[5] = 0x20;
	r8[1] = 0x77;
	uart_putc(&u, 'B');
	assert_int_equal(r8[0], 'B');
	assert_int_equal(r8[1], 0x77);
}

/* A UART that cannot be read: with UART_WRITE_ONLY the driver never touches
 * the status register, here on a page that faults when read. */
static void test_uart_write_only(void **state)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *m = mmap(NULL, (size_t)pg * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	(void)state;

	assert_true(m != MAP_FAILED);
	assert_int_equal(mprotect(m + pg, (size_t)pg, PROT_NONE), 0);
	/* THR in the last word of the good page, LSR (+20) beyond it */
	struct uart u = { &uart_ns16550, (uintptr_t)(m + pg - 4), 2, 4, UART_WRITE_ONLY };
	uart_putc(&u, 'Z');
	assert_int_equal(*(uint32_t *)(m + pg - 4), 'Z');
	u.drv = &uart_sifive; /* the SiFive driver polls txdata itself: not either */
	uart_putc(&u, 'Y');
	assert_int_equal(*(uint32_t *)(m + pg - 4), 'Y');
	munmap(m, (size_t)pg * 2);
}

/* SiFive: txdata +0, bit 31 = FIFO full; 32-bit access whatever the tree
 * says; uart_init sets txctrl.txen (+8, bit 0) and keeps txctrl's other
 * fields (nstop bit 1, txcnt bits 18:16). */
static void test_uart_sifive(void **state)
{
	uint32_t r[4] = { 0, 0x55, 0x00030002, 0x66 };
	struct uart u = { &uart_sifive, (uintptr_t)r, 0, 1, 0 };
	(void)state;

	uart_init(&u);
	assert_int_equal(r[2], 0x00030003);
	assert_int_equal(r[0], 0);
	assert_int_equal(r[1], 0x55);
	assert_int_equal(r[3], 0x66);
	uart_putc(&u, 'S');
	assert_int_equal(r[0], 'S');
	assert_int_equal(r[1], 0x55);
	assert_int_equal(r[2], 0x00030003);
}

/* The ns16550 driver (also the DesignWare 8250) needs no init: uart_init
 * writes nothing. */
static void test_uart_ns16550_no_init(void **state)
{
	uint32_t r[8];
	struct uart u = { &uart_ns16550, (uintptr_t)r, 2, 4, 0 };
	(void)state;

	memset(r, 0xa5, sizeof r);
	uart_init(&u);
	for (int i = 0; i < 8; i++)
		assert_int_equal(r[i], 0xa5a5a5a5u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_virt_like),
		cmocka_unit_test(test_virt_like_v16),
		cmocka_unit_test(test_jh7110_like),
		cmocka_unit_test(test_cva6_genesys2_like),
		cmocka_unit_test(test_cva6_genesys2_rvmess),
		cmocka_unit_test(test_openpiton_genesys2_like),
		cmocka_unit_test(test_cells1),
		cmocka_unit_test(test_cells2),
		cmocka_unit_test(test_reserved),
		cmocka_unit_test(test_many_cpus),
		cmocka_unit_test(test_qemu_virt),
		cmocka_unit_test(test_qemu_spike),
		cmocka_unit_test(test_qemu_sifive_u),
		cmocka_unit_test(test_caches_sifive_soc),
		cmocka_unit_test(test_caches_which),
		cmocka_unit_test(test_unaligned),
		cmocka_unit_test(test_blob_untouched),
		cmocka_unit_test(test_bad_header),
		cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_bad_structure),
		cmocka_unit_test(test_built),
		cmocka_unit_test(test_bad_rsvmap),
		cmocka_unit_test(test_random_mutations),
		cmocka_unit_test(test_copy_good),
		cmocka_unit_test(test_copy_too_big),
		cmocka_unit_test(test_copy_refusals),
		cmocka_unit_test(test_copy_overlap),
		cmocka_unit_test(test_uart_ns16550_layout),
		cmocka_unit_test(test_uart_write_only),
		cmocka_unit_test(test_uart_sifive),
		cmocka_unit_test(test_uart_ns16550_no_init),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
