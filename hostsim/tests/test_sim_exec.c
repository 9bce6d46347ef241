/*
 * hostsim's executor (sim/cpu.c) over its decoded-instruction pages: the
 * instruction pointer steps from one decoded entry to the next, so straight
 * code that runs off the end of a 4 KiB page must fall into the slow fetch
 * (each page's extra, never decoded entry) and go on in the next page; and a
 * store over the very next instruction, already decoded, must take effect.
 * Built with ASan too: a page without its extra entry is read past its end.
 * The encodings are hand-assembled (RISC-V unprivileged spec, I-type/S-type).
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
		cmocka_unit_test(test_store_over_next),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
