/* hostsim decoder: encodings -> ops, registers, immediates (sim/decode.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "sim/sim.h"

static struct dinsn dec(uint32_t raw)
{
	struct dinsn d;
	memset(&d, 0xaa, sizeof(d));
	sim_decode(raw, &d);
	return d;
}

struct row {
	uint32_t raw;
	unsigned op, rd, rs1, rs2;
	int32_t imm;
};

/* Encodings produced by riscv64-unknown-elf-as (objdump-checked). */
static const struct row rows[] = {
	{ 0x800005b7u, OP_LUI, 11, 0, 0, (int32_t)0x80000000 },   /* lui a1,0x80000 */
	{ 0x00001517u, OP_AUIPC, 10, 0, 0, 0x1000 },              /* auipc a0,0x1 */
	{ 0x008000efu, OP_JAL, 1, 0, 0, 8 },                      /* jal ra,+8 */
	{ 0xffdff06fu, OP_JAL, 32, 0, 0, -4 },                    /* j -4 (rd=x0 -> sink) */
	{ 0x00008067u, OP_JALR, 32, 1, 0, 0 },                    /* ret */
	{ 0xfe0798e3u, OP_BNE, 32, 15, 0, -16 },                  /* bnez a5,-16 */
	{ 0x00b54463u, OP_BLT, 32, 10, 11, 8 },                   /* blt a0,a1,+8 */
	{ 0x80b57063u, OP_BGEU, 32, 10, 11, -4096 },              /* bgeu a0,a1,-4096 */
	{ 0xff853503u, OP_LD, 10, 10, 0, -8 },                    /* ld a0,-8(a0) */
	{ 0x0005c583u, OP_LBU, 11, 11, 0, 0 },                    /* lbu a1,0(a1) */
	{ 0x00a5b423u, OP_SD, 32, 11, 10, 8 },                    /* sd a0,8(a1) */
	{ 0xfea5ae23u, OP_SW, 32, 11, 10, -4 },                   /* sw a0,-4(a1) */
	{ 0x80050513u, OP_ADDI, 10, 10, 0, -2048 },               /* addi a0,a0,-2048 */
	{ 0x03f51513u, OP_SLLI, 10, 10, 0, 63 },                  /* slli a0,a0,63 */
	{ 0x43f55513u, OP_SRAI, 10, 10, 0, 63 },                  /* srai a0,a0,63 */
	{ 0x41f5551bu, OP_SRAIW, 10, 10, 0, 31 },                 /* sraiw a0,a0,31 */
	{ 0x40b50533u, OP_SUB, 10, 10, 11, 0 },                   /* sub a0,a0,a1 */
	{ 0x02b50533u, OP_MUL, 10, 10, 11, 0 },                   /* mul a0,a0,a1 */
	{ 0x02b5453bu, OP_DIVW, 10, 10, 11, 0 },                  /* divw a0,a0,a1 */
	{ 0x02b5753bu, OP_REMUW, 10, 10, 11, 0 },                 /* remuw a0,a0,a1 */
	{ 0x1005352fu, OP_LR_D, 10, 10, 0, 0 },                   /* lr.d a0,(a0) */
	{ 0x18b5352fu, OP_SC_D, 10, 10, 11, 0 },                  /* sc.d a0,a1,(a0) */
	{ 0x00b5202fu, OP_AMOADD_W, 32, 10, 11, 0 },              /* amoadd.w zero,a1,(a0) */
	{ 0x0eb5362fu, OP_AMOSWAP_D, 12, 10, 11, 0 },             /* amoswap.d.aqrl a2,a1,(a0) */
	{ 0xe0b5262fu, OP_AMOMAXU_W, 12, 10, 11, 0 },             /* amomaxu.w a2,a1,(a0) */
	{ 0x0ff0000fu, OP_FENCE, 32, 0, 0, 0 },                   /* fence */
	{ 0x0000100fu, OP_FENCE_I, 32, 0, 0, 0 },                 /* fence.i */
	{ 0x00000073u, OP_ECALL, 32, 0, 0, 0 },
	{ 0x00100073u, OP_EBREAK, 32, 0, 0, 0 },
	{ 0x30200073u, OP_MRET, 32, 0, 0, 0 },
	{ 0x10500073u, OP_WFI, 32, 0, 0, 0 },
	{ 0x34011073u, OP_CSRRW, 32, 2, 0, 0x340 },               /* csrw mscratch,sp */
	{ 0xb0002573u, OP_CSRRS, 10, 0, 0, 0xb00 },               /* csrr a0,mcycle */
	{ 0x3004f073u, OP_CSRRCI, 32, 0, 0, 0x300 | (9 << 12) },  /* csrci mstatus,9 */
};

static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct dinsn d = dec(rows[i].raw);
		if (d.op != rows[i].op || d.rd != rows[i].rd || d.rs1 != rows[i].rs1 ||
		    d.rs2 != rows[i].rs2 || d.imm != rows[i].imm)
			fail_msg("0x%08x: got %s rd=%u rs1=%u rs2=%u imm=%d, want %s rd=%u rs1=%u rs2=%u imm=%d",
			         rows[i].raw, sim_op_name(d.op), d.rd, d.rs1, d.rs2, d.imm,
			         sim_op_name(rows[i].op), rows[i].rd, rows[i].rs1, rows[i].rs2, rows[i].imm);
	}
}

static void test_illegal(void **state)
{
	(void)state;
	static const uint32_t bad[] = {
		0x00000000u, 0xffffffffu,
		0x0000700fu,                 /* misc-mem funct3 7 */
		0x02b5153bu,                 /* 0x3b, funct7 1, funct3 1: no such W op */
		0x0000d513u | (0x08u << 26), /* srli with funct6 0x08 */
		0x80b51513u,                 /* slli with funct6 0x20 */
		0x0200202fu | (0x05u << 27), /* AMO funct5 0x05 */
		0x1005352fu | (1u << 20),    /* lr.d with rs2 != 0 */
		0x0000402fu,                 /* AMO funct3 4 */
		0x00000007u,                 /* flw: no F extension */
		0x00000027u,                 /* fsw */
		0x00100173u,                 /* ebreak with rd != 0 */
		0x00004073u,                 /* SYSTEM funct3 4 */
		0x10200073u,                 /* sret: no S mode */
		0x00057003u,                 /* load funct3 7 */
		0x00004023u,                 /* store funct3 4 */
		0x00002063u,                 /* branch funct3 2 */
		0x00001067u,                 /* jalr funct3 1 */
		0x0000105bu,                 /* 0x5b: custom-2 */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint32_t raw = bad[i];
		struct dinsn d = dec(raw);
		if (d.op != OP_ILLEGAL)
			fail_msg("0x%08x decoded as %s, want illegal", raw, sim_op_name(d.op));
		assert_int_equal((uint32_t)d.imm, raw); /* raw bits kept for mtval */
	}
}

/* x0 destinations go to the sink register 32; unused sources read x0 */
static void test_x0_sink(void **state)
{
	(void)state;
	struct dinsn d = dec(0x00500013u); /* addi zero,zero,5 */
	assert_int_equal(d.op, OP_ADDI);
	assert_int_equal(d.rd, 32);
	assert_int_equal(d.rs1, 0);
	assert_int_equal(d.rs2, 0);
	d = dec(0x123450b7u); /* lui ra,0x12345: no sources */
	assert_int_equal(d.rs1, 0);
	assert_int_equal(d.rs2, 0);
	assert_int_equal(d.rd, 1);
}

/* every op has a name; decode of every major opcode never leaves garbage */
static void test_names_and_sweep(void **state)
{
	(void)state;
	/* every op has its own lower-case mnemonic (a hole in the name table
	 * is NULL or "", a copy-paste slip a duplicate) */
	for (unsigned op = 0; op < OP_COUNT; op++) {
		const char *n = sim_op_name(op);
		assert_non_null(n);
		assert_true(n[0] >= 'a' && n[0] <= 'z');
		for (const char *c = n; *c; c++)
			assert_true((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '.' || *c == '_');
		for (unsigned o = 0; o < op; o++)
			if (strcmp(n, sim_op_name(o)) == 0)
				fail_msg("ops %u and %u are both named %s", o, op, n);
	}
	assert_string_equal(sim_op_name(OP_COUNT), "?");
	assert_string_equal(sim_op_name(OP_AMOMAXU_D), "amomaxu.d");
	assert_string_equal(sim_op_name(OP_CSRRCI), "csrrci");
	assert_string_equal(sim_op_name(OP_BGEU_N), "bgeu.near");
	uint32_t x = 12345;
	for (int i = 0; i < 200000; i++) {
		x = x * 1664525u + 1013904223u;
		struct dinsn d = dec(x);
		/* (the near jumps are the core's, never sim_decode's) */
		assert_true(d.op > OP_UNDECODED && d.op < OP_JAL_N);
		assert_true(d.rd >= 1 && d.rd <= 32);
		assert_true(d.rs1 < 32 && d.rs2 < 32);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_illegal),
		cmocka_unit_test(test_x0_sink),
		cmocka_unit_test(test_names_and_sweep),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
