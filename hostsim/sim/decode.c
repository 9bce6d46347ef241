/*
 * RV64IMA + Zicsr + Zifencei decoder into struct dinsn (see sim.h).
 *
 * Conventions: rd == 0 becomes 32 (a sink register), so the executor never
 * has to re-zero x0; rs1/rs2 are 0 when the instruction does not read them
 * (the timing scoreboard waits on both fields unconditionally).
 */
#include "sim/sim.h"

static int32_t imm_i(uint32_t r) { return (int32_t)r >> 20; }
static int32_t imm_s(uint32_t r) { return ((int32_t)(r & 0xfe000000u) >> 20) | (int32_t)((r >> 7) & 0x1f); }
static int32_t imm_b(uint32_t r)
{
	return ((int32_t)(r & 0x80000000u) >> 19) | (int32_t)((r & 0x80u) << 4) |
	       (int32_t)((r >> 20) & 0x7e0u) | (int32_t)((r >> 7) & 0x1eu);
}
static int32_t imm_u(uint32_t r) { return (int32_t)(r & 0xfffff000u); }
static int32_t imm_j(uint32_t r)
{
	return ((int32_t)(r & 0x80000000u) >> 11) | (int32_t)(r & 0xff000u) |
	       (int32_t)((r >> 9) & 0x800u) | (int32_t)((r >> 20) & 0x7feu);
}

static void illegal(uint32_t raw, struct dinsn *d)
{
	d->op = OP_ILLEGAL;
	d->rd = 32;
	d->rs1 = d->rs2 = 0;
	d->imm = (int32_t)raw;
}

void sim_decode(uint32_t r, struct dinsn *d)
{
	unsigned opc = r & 0x7f, rd = (r >> 7) & 31, f3 = (r >> 12) & 7;
	unsigned rs1 = (r >> 15) & 31, rs2 = (r >> 20) & 31, f7 = r >> 25;
	unsigned op = OP_ILLEGAL;
	int uses1 = 1, uses2 = 0;
	int32_t imm = 0;

	switch (opc) {
	case 0x37: op = OP_LUI; imm = imm_u(r); uses1 = 0; break;
	case 0x17: op = OP_AUIPC; imm = imm_u(r); uses1 = 0; break;
	case 0x6f: op = OP_JAL; imm = imm_j(r); uses1 = 0; break;
	case 0x67: if (f3 == 0) { op = OP_JALR; imm = imm_i(r); } break;
	case 0x63: {
		static const uint8_t b[8] = { OP_BEQ, OP_BNE, 0, 0, OP_BLT, OP_BGE, OP_BLTU, OP_BGEU };
		if (b[f3]) { op = b[f3]; imm = imm_b(r); uses2 = 1; }
		rd = 0;
		break;
	}
	case 0x03: {
		static const uint8_t l[8] = { OP_LB, OP_LH, OP_LW, OP_LD, OP_LBU, OP_LHU, OP_LWU, 0 };
		if (l[f3]) { op = l[f3]; imm = imm_i(r); }
		break;
	}
	case 0x23: {
		static const uint8_t s[8] = { OP_SB, OP_SH, OP_SW, OP_SD, 0, 0, 0, 0 };
		if (s[f3]) { op = s[f3]; imm = imm_s(r); uses2 = 1; }
		rd = 0;
		break;
	}
	case 0x13:
		imm = imm_i(r);
		switch (f3) {
		case 0: op = OP_ADDI; break;
		case 2: op = OP_SLTI; break;
		case 3: op = OP_SLTIU; break;
		case 4: op = OP_XORI; break;
		case 6: op = OP_ORI; break;
		case 7: op = OP_ANDI; break;
		case 1: if ((r >> 26) == 0) { op = OP_SLLI; imm = (r >> 20) & 63; } break;
		case 5:
			if ((r >> 26) == 0) { op = OP_SRLI; imm = (r >> 20) & 63; }
			else if ((r >> 26) == 0x10) { op = OP_SRAI; imm = (r >> 20) & 63; }
			break;
		}
		break;
	case 0x1b:
		imm = imm_i(r);
		switch (f3) {
		case 0: op = OP_ADDIW; break;
		case 1: if (f7 == 0) { op = OP_SLLIW; imm = rs2; } break;
		case 5:
			if (f7 == 0) { op = OP_SRLIW; imm = rs2; }
			else if (f7 == 0x20) { op = OP_SRAIW; imm = rs2; }
			break;
		}
		break;
	case 0x33:
		uses2 = 1;
		if (f7 == 0) {
			static const uint8_t a[8] = { OP_ADD, OP_SLL, OP_SLT, OP_SLTU, OP_XOR, OP_SRL, OP_OR, OP_AND };
			op = a[f3];
		} else if (f7 == 0x20) {
			if (f3 == 0) op = OP_SUB;
			else if (f3 == 5) op = OP_SRA;
		} else if (f7 == 1) {
			static const uint8_t m[8] = { OP_MUL, OP_MULH, OP_MULHSU, OP_MULHU, OP_DIV, OP_DIVU, OP_REM, OP_REMU };
			op = m[f3];
		}
		break;
	case 0x3b:
		uses2 = 1;
		if (f7 == 0) {
			if (f3 == 0) op = OP_ADDW;
			else if (f3 == 1) op = OP_SLLW;
			else if (f3 == 5) op = OP_SRLW;
		} else if (f7 == 0x20) {
			if (f3 == 0) op = OP_SUBW;
			else if (f3 == 5) op = OP_SRAW;
		} else if (f7 == 1) {
			static const uint8_t m[8] = { OP_MULW, 0, 0, 0, OP_DIVW, OP_DIVUW, OP_REMW, OP_REMUW };
			if (m[f3]) op = m[f3];
		}
		break;
	case 0x2f: {
		unsigned f5 = r >> 27;
		int dw;
		if (f3 == 2) dw = 0;
		else if (f3 == 3) dw = 1;
		else break;
		uses2 = 1;
		switch (f5) {
		case 0x02: if (rs2 == 0) { op = dw ? OP_LR_D : OP_LR_W; uses2 = 0; } break;
		case 0x03: op = dw ? OP_SC_D : OP_SC_W; break;
		case 0x01: op = dw ? OP_AMOSWAP_D : OP_AMOSWAP_W; break;
		case 0x00: op = dw ? OP_AMOADD_D : OP_AMOADD_W; break;
		case 0x04: op = dw ? OP_AMOXOR_D : OP_AMOXOR_W; break;
		case 0x0c: op = dw ? OP_AMOAND_D : OP_AMOAND_W; break;
		case 0x08: op = dw ? OP_AMOOR_D : OP_AMOOR_W; break;
		case 0x10: op = dw ? OP_AMOMIN_D : OP_AMOMIN_W; break;
		case 0x14: op = dw ? OP_AMOMAX_D : OP_AMOMAX_W; break;
		case 0x18: op = dw ? OP_AMOMINU_D : OP_AMOMINU_W; break;
		case 0x1c: op = dw ? OP_AMOMAXU_D : OP_AMOMAXU_W; break;
		}
		break;
	}
	case 0x0f:
		uses1 = 0;
		rd = 0;
		if (f3 == 0) op = OP_FENCE;      /* fence, fence.tso, pause: all ordering nops */
		else if (f3 == 1) op = OP_FENCE_I;
		break;
	case 0x73:
		if (f3 == 0) {
			uses1 = 0;
			if (rd != 0 || rs1 != 0) break;
			if (r == 0x00000073u) op = OP_ECALL;
			else if (r == 0x00100073u) op = OP_EBREAK;
			else if (r == 0x30200073u) op = OP_MRET;
			else if (r == 0x10500073u) op = OP_WFI;
		} else if (f3 != 4) {
			static const uint8_t c[8] = { 0, OP_CSRRW, OP_CSRRS, OP_CSRRC, 0, OP_CSRRWI, OP_CSRRSI, OP_CSRRCI };
			op = c[f3];
			imm = (int32_t)(r >> 20);
			if (f3 >= 5) {
				imm |= (int32_t)(rs1 << 12);
				uses1 = 0;
			}
		}
		break;
	}

	if (op == OP_ILLEGAL) {
		illegal(r, d);
		return;
	}
	d->op = (uint8_t)op;
	d->rd = (uint8_t)(rd == 0 ? 32 : rd);
	d->rs1 = (uint8_t)(uses1 ? rs1 : 0);
	d->rs2 = (uint8_t)(uses2 ? rs2 : 0);
	d->imm = imm;
}

static const char *const op_names[OP_COUNT] = {
	"undecoded", "illegal", "lui", "auipc", "jal", "jalr",
	"beq", "bne", "blt", "bge", "bltu", "bgeu",
	"lb", "lh", "lw", "ld", "lbu", "lhu", "lwu", "sb", "sh", "sw", "sd",
	"addi", "slti", "sltiu", "xori", "ori", "andi", "slli", "srli", "srai",
	"add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and",
	"addiw", "slliw", "srliw", "sraiw", "addw", "subw", "sllw", "srlw", "sraw",
	"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu",
	"mulw", "divw", "divuw", "remw", "remuw",
	"lr.w", "sc.w", "lr.d", "sc.d",
	"amoswap.w", "amoadd.w", "amoxor.w", "amoand.w", "amoor.w",
	"amomin.w", "amomax.w", "amominu.w", "amomaxu.w",
	"amoswap.d", "amoadd.d", "amoxor.d", "amoand.d", "amoor.d",
	"amomin.d", "amomax.d", "amominu.d", "amomaxu.d",
	"fence", "fence.i", "ecall", "ebreak", "mret", "wfi",
	"csrrw", "csrrs", "csrrc", "csrrwi", "csrrsi", "csrrci",
	"jal.near", "beq.near", "bne.near", "blt.near", "bge.near", "bltu.near", "bgeu.near",
	"addi.dec",
};

const char *sim_op_name(unsigned op)
{
	return op < OP_COUNT ? op_names[op] : "?";
}
