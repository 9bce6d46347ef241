/*
 * hostsim's executor (sim/cpu.c) over its decoded-instruction pages: the
 * instruction pointer steps from one decoded entry to the next, so straight
 * code that runs off the end of a 4 KiB page must fall into the slow fetch
 * (each page's extra, never decoded entry) and go on in the next page; a
 * jump moves straight to its target's entry only when the target is on the
 * jump's own page ("near" ops), else through the slow fetch; and a store
 * over the very next instruction, already decoded, must take effect.
 * Built with ASan too: a page without its extra entry, or a jump taken as
 * near whose target is on another page, is read past its page's entries.
 * The encodings are hand-assembled (RISC-V unprivileged spec, I/S/B/J-type).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "sim/sim.h"

#define LI_A2_3      0x00300613u /* addi a2, x0, 3 */
#define ADDI_A2_1    0x00160613u /* addi a2, a2, 1 */
#define ADDI_A2_2    0x00260613u /* addi a2, a2, 2 */
#define ADDI_A2_100  0x06460613u /* addi a2, a2, 100 */
#define SW_T2_4_T0   0x0072a223u /* sw t2, 4(t0) */

/* jal x0, imm and beq x0, x0, imm */
static uint32_t j_imm(int32_t imm)
{
	uint32_t u = (uint32_t)imm;
	return ((u >> 20 & 1) << 31) | ((u >> 1 & 0x3ff) << 21) | ((u >> 11 & 1) << 20) |
	       ((u >> 12 & 0xff) << 12) | 0x6fu;
}
static uint32_t beqz0_imm(int32_t imm)
{
	uint32_t u = (uint32_t)imm;
	return ((u >> 12 & 1) << 31) | ((u >> 5 & 0x3f) << 25) | ((u >> 1 & 0xf) << 8) |
	       ((u >> 11 & 1) << 7) | 0x63u;
}

static void put(struct sim *s, uint64_t addr, uint32_t insn)
{
	memcpy(s->ram + (addr - s->ram_base), &insn, 4);
}

static void init(struct sim *s)
{
	char err[256];
	struct sim_opts o;
	sim_opts_default(&o);
	o.harts = 1;
	o.mem_size = 1 << 20;
	o.timing = 0;
	assert_int_equal(sim_init(s, &o, err, sizeof(err)), 0);
	sim_hart_reset(s, &s->harts[0], 0);
}

static void test_across_page(void **state)
{
	(void)state;
	struct sim s;
	init(&s);
	struct sim_hart *h = &s.harts[0];
	uint64_t a = SIM_RAM_BASE + 4096 - 8; /* the last two words of page 0 */
	put(&s, a, LI_A2_3);
	put(&s, a + 4, ADDI_A2_1);
	put(&s, a + 8, ADDI_A2_2); /* page 1 */
	h->pc = a;
	assert_int_equal(sim_step_functional(&s, h, 3), 3);
	assert_int_equal(h->x[12], 3 + 1 + 2);
	assert_int_equal(h->pc, a + 12);
	/* again, with both pages decoded */
	h->pc = a;
	assert_int_equal(sim_step_functional(&s, h, 3), 3);
	assert_int_equal(h->x[12], 6);
	sim_free(&s);
}

static void test_jumps_across_page(void **state)
{
	(void)state;
	struct sim s;
	init(&s);
	struct sim_hart *h = &s.harts[0];
	uint64_t a = SIM_RAM_BASE + 4096 - 8; /* page 0's last two words, then page 1 */
	put(&s, a, LI_A2_3);
	put(&s, a + 4, j_imm(12));         /* page 0, 4092: to page 1, 8 (another page) */
	put(&s, a + 8, ADDI_A2_100);       /* page 1, 0 */
	put(&s, a + 12, j_imm(12));        /* 4: to 16 (near) */
	put(&s, a + 16, ADDI_A2_1);        /* 8 */
	put(&s, a + 20, beqz0_imm(-12));   /* 12: to 0, the page's first entry (near) */
	put(&s, a + 24, j_imm(-20));       /* 16: to page 0, 4092 (another page) */
	h->pc = a;
	assert_int_equal(sim_step_functional(&s, h, 6), 6);
	assert_int_equal(h->x[12], 3 + 1 + 100);
	assert_int_equal(h->pc, a + 24);
	/* again from page 1, everything decoded: back to page 0 and round */
	assert_int_equal(sim_step_functional(&s, h, 6), 6);
	assert_int_equal(h->x[12], 104 + 1 + 100);
	assert_int_equal(h->pc, a + 24);
	sim_free(&s);
}

static void test_store_over_next(void **state)
{
	(void)state;
	struct sim s;
	init(&s);
	struct sim_hart *h = &s.harts[0];
	uint64_t a = SIM_RAM_BASE + 0x100;
	put(&s, a, SW_T2_4_T0);
	put(&s, a + 4, ADDI_A2_1);
	h->x[5] = a;             /* t0 */
	h->x[7] = ADDI_A2_1;     /* t2: the store leaves the instruction as it is */
	h->pc = a;
	assert_int_equal(sim_step_functional(&s, h, 2), 2); /* decodes both */
	assert_int_equal(h->x[12], 1);
	h->x[7] = ADDI_A2_100;   /* now the store turns it into addi a2, a2, 100 */
	h->pc = a;
	assert_int_equal(sim_step_functional(&s, h, 2), 2);
	assert_int_equal(h->x[12], 1 + 100);
	sim_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_across_page),
		cmocka_unit_test(test_jumps_across_page),
		cmocka_unit_test(test_store_over_next),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
