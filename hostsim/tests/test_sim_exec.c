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
 * A countdown loop (addi r, r, -1; bnez r back to it), which the executor
 * runs in closed form, must leave every register, pc, clock and count as
 * running it one instruction at a time (--no-loop-skip) does, wherever a
 * turn's budget or end cuts it.
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

#define ADDI_T2_M1   0xfff38393u /* addi t2, t2, -1 */
#define BNEZ_T2_M4   0xfe039ee3u /* bne t2, x0, -4 */
#define BNE_T2_A2_M4 0xfec39ee3u /* bne t2, a2, -4 */
#define BNEZ_T2_M8   0xfe039ce3u /* bne t2, x0, -8 */
#define BNEZ_X0_M4   0xfe001ee3u /* bne x0, x0, -4 (never taken) */
#define LI_T2_5      0x00500393u /* addi t2, x0, 5 */

/* Two harts' worth of state that must agree after every step. */
static void same_state(const struct sim_hart *a, const struct sim_hart *b, unsigned step)
{
	if (a->pc != b->pc || a->clock != b->clock || a->instret != b->instret || a->x[7] != b->x[7] ||
	    a->x[12] != b->x[12])
		fail_msg("step %u: closed form pc %#llx clock %llu instret %llu t2 %llu a2 %llu, stepped "
		         "pc %#llx clock %llu instret %llu t2 %llu a2 %llu", step,
		         (unsigned long long)a->pc, (unsigned long long)a->clock, (unsigned long long)a->instret,
		         (unsigned long long)a->x[7], (unsigned long long)a->x[12], (unsigned long long)b->pc,
		         (unsigned long long)b->clock, (unsigned long long)b->instret, (unsigned long long)b->x[7],
		         (unsigned long long)b->x[12]);
}

/*
 * The loop at a + 4 counts t2 down from t2's value; then a2 += 1, t2 = 5
 * and back to the loop.  Both sims (s[0] closed form, s[1] stepped) run the
 * same steps: budgets of 1 to 40 instructions and, timing, turns ending 0
 * to 24 cycles after the hart's clock (an LCG picks them), and after step
 * `change` a store makes the branch `to` (no countdown: bne t2, a2 leaves
 * the loop at t2 == a2, bnez t2, -8 also adds 1 to a2 each time round,
 * bne x0, x0, -4 is never taken).
 */
static void countdown(int timing, uint64_t t2, uint64_t a2, unsigned steps, unsigned change, uint32_t to)
{
	struct sim s[2];
	uint64_t a = SIM_RAM_BASE + 0x200;
	for (int k = 0; k < 2; k++) {
		char err[256];
		struct sim_opts o;
		sim_opts_default(&o);
		o.harts = 1;
		o.mem_size = 1 << 20;
		o.timing = timing;
		o.no_loop_skip = k;
		assert_int_equal(sim_init(&s[k], &o, err, sizeof(err)), 0);
		sim_hart_reset(&s[k], &s[k].harts[0], 0);
		put(&s[k], a, ADDI_A2_1);
		put(&s[k], a + 4, ADDI_T2_M1);
		put(&s[k], a + 8, BNEZ_T2_M4);
		put(&s[k], a + 12, ADDI_A2_1);
		put(&s[k], a + 16, LI_T2_5);
		put(&s[k], a + 20, j_imm(-16));
		s[k].harts[0].pc = a + 4;
		s[k].harts[0].x[7] = t2;
		s[k].harts[0].x[12] = a2;
	}
	uint32_t r = 12345;
	for (unsigned i = 0; i < steps; i++) {
		r = r * 1103515245u + 12345u;
		uint64_t n = 1 + (r >> 8) % 40, until = s[0].harts[0].clock + (r >> 20) % 25;
		uint64_t ran[2];
		for (int k = 0; k < 2; k++) {
			struct sim_hart *h = &s[k].harts[0];
			ran[k] = timing ? sim_step_timing(&s[k], h, until, n) : sim_step_functional(&s[k], h, n);
			if (i == change)
				sim_ram_write(&s[k], h, a + 8 - SIM_RAM_BASE, 4, to);
		}
		if (ran[0] != ran[1])
			fail_msg("step %u: closed form ran %llu instructions, stepped %llu", i, (unsigned long long)ran[0],
			         (unsigned long long)ran[1]);
		same_state(&s[0].harts[0], &s[1].harts[0], i);
	}
	/* the closed form was there to be taken (the stepped sim never has it) */
	assert_int_equal(s[0].dpages[0][(a + 4 - SIM_RAM_BASE) >> 2].op, OP_ADDI_DEC);
	assert_int_equal(s[1].dpages[0][(a + 4 - SIM_RAM_BASE) >> 2].op, OP_ADDI);
	for (int k = 0; k < 2; k++)
		sim_free(&s[k]);
}

/* The cases, with the timing executor (turns ending anywhere) or not. */
static void countdown_cases(int timing)
{
	countdown(timing, 1000, 0, 1000, 700, BNE_T2_A2_M4);
	countdown(timing, 1000, 2, 400, 3, BNE_T2_A2_M4);
	countdown(timing, 1000, 0, 400, 3, BNEZ_T2_M8);
	countdown(timing, 1000, 0, 400, 3, BNEZ_X0_M4);
	countdown(timing, 1, 0, 300, 1000, 0);
	countdown(timing, 0, 0, 50, 1000, 0); /* 0 - 1: the loop has 2^64 - 1 to go */
}

static void test_countdown_functional(void **state)
{
	(void)state;
	countdown_cases(0);
}

static void test_countdown_timing(void **state)
{
	(void)state;
	countdown_cases(1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_across_page),
		cmocka_unit_test(test_jumps_across_page),
		cmocka_unit_test(test_store_over_next),
		cmocka_unit_test(test_countdown_functional),
		cmocka_unit_test(test_countdown_timing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
