/*
 * hostsim's executor body (cpu.c), included once per variant: cpu.c defines
 * EXEC_NAME (the function), EXEC_TIMING (1: scoreboard, MSHRs, store buffer,
 * memsys) and EXEC_WEAK (0; 1: s->wm set, RAM stores go through wmem.c's
 * functional store buffer, loads forward from it, ordering points drain it,
 * faults act; 2: rvwmo, which also keeps the register views and lets loads
 * read older versions), then includes this file.  No include guard: it is
 * meant to be included several times.
 *
 * Threaded dispatch: every instruction's handler ends with the fetch of the
 * next one and an indirect jump through this variant's table of labels
 * (GCC's labels as values; a function with a computed goto is never
 * inlined, hence one body per variant instead of one inlined function).
 * Each handler does its own issue check (timing): it waits only for the
 * registers the decoder says it reads (rs1/rs2 are 0 when unused, and
 * ready[0] is always 0, so that is the same cycle as waiting for both), for
 * a free MSHR only if it is a load, for a store-buffer entry only if it is
 * a store.
 */
EXEC_ATTR static uint64_t EXEC_NAME(struct sim *s, struct sim_hart *h, uint64_t n, uint64_t until)
{
	const int timing = EXEC_TIMING, weak = EXEC_WEAK, derived = !EXEC_TIMING;
	uint64_t *x = h->x;
	uint64_t pc = h->pc;
	uint64_t t = h->clock;
	/* the budget: neg = (instructions done) - n, counted up to 0 after
	 * each instruction (one add and branch); inside an instruction's
	 * handler the instruction already counts as done, but neg counts it
	 * only at the handler's end */
	uint64_t neg = -n, po;
	/* instret = ibase + neg inside a handler (ins0 + done), functional
	 * clock = instret + cdelta (synced to the hart at CSR/MMIO accesses,
	 * traps and the end of the turn) */
	uint64_t ibase = h->instret + n + 1, cdelta = h->clock - h->instret;
	const uint64_t rbase = s->ram_base, rsize = s->ram_size;
	uint8_t *const ram = s->ram;
	/* the decoded page pc is in: the last turn's (decoded pages live as
	 * long as the run), checked like a jump's target below */
	const struct dinsn *cpg = h->cpg ? h->cpg : no_page;
	uint64_t cpg_base = h->cpg_base;
	/* pc's entry when it is decoded, else one that is not */
	const struct dinsn *d = pc - cpg_base < 4096 ? &cpg[(pc - cpg_base) >> 2] : no_page;
	uint64_t ti = t; /* issue cycle of the current instruction */
	uint64_t *const rv = weak == 2 ? wm_regview(s, h) : NULL; /* rvwmo register views */
	(void)until;

	/* the handler of each op; an entry that is not decoded (OP_UNDECODED:
	 * never decoded, invalidated by a store, or a page's extra entry) goes
	 * to the slow fetch */
	static const void *const tbl[OP_COUNT] = {
		[OP_UNDECODED] = &&fetch_slow, [OP_ILLEGAL] = &&L_ILLEGAL,
		[OP_LUI] = &&L_LUI, [OP_AUIPC] = &&L_AUIPC, [OP_JAL] = &&L_JAL, [OP_JALR] = &&L_JALR,
		[OP_BEQ] = &&L_BEQ, [OP_BNE] = &&L_BNE, [OP_BLT] = &&L_BLT, [OP_BGE] = &&L_BGE,
		[OP_BLTU] = &&L_BLTU, [OP_BGEU] = &&L_BGEU,
		[OP_LB] = &&L_LB, [OP_LH] = &&L_LH, [OP_LW] = &&L_LW, [OP_LD] = &&L_LD,
		[OP_LBU] = &&L_LBU, [OP_LHU] = &&L_LHU, [OP_LWU] = &&L_LWU,
		[OP_SB] = &&L_SB, [OP_SH] = &&L_SH, [OP_SW] = &&L_SW, [OP_SD] = &&L_SD,
		[OP_ADDI] = &&L_ADDI, [OP_SLTI] = &&L_SLTI, [OP_SLTIU] = &&L_SLTIU, [OP_XORI] = &&L_XORI,
		[OP_ORI] = &&L_ORI, [OP_ANDI] = &&L_ANDI, [OP_SLLI] = &&L_SLLI, [OP_SRLI] = &&L_SRLI,
		[OP_SRAI] = &&L_SRAI,
		[OP_ADD] = &&L_ADD, [OP_SUB] = &&L_SUB, [OP_SLL] = &&L_SLL, [OP_SLT] = &&L_SLT,
		[OP_SLTU] = &&L_SLTU, [OP_XOR] = &&L_XOR, [OP_SRL] = &&L_SRL, [OP_SRA] = &&L_SRA,
		[OP_OR] = &&L_OR, [OP_AND] = &&L_AND,
		[OP_ADDIW] = &&L_ADDIW, [OP_SLLIW] = &&L_SLLIW, [OP_SRLIW] = &&L_SRLIW, [OP_SRAIW] = &&L_SRAIW,
		[OP_ADDW] = &&L_ADDW, [OP_SUBW] = &&L_SUBW, [OP_SLLW] = &&L_SLLW, [OP_SRLW] = &&L_SRLW,
		[OP_SRAW] = &&L_SRAW,
		[OP_MUL] = &&L_MUL, [OP_MULH] = &&L_MULH, [OP_MULHSU] = &&L_MULHSU, [OP_MULHU] = &&L_MULHU,
		[OP_DIV] = &&L_DIV, [OP_DIVU] = &&L_DIVU, [OP_REM] = &&L_REM, [OP_REMU] = &&L_REMU,
		[OP_MULW] = &&L_MULW, [OP_DIVW] = &&L_DIVW, [OP_DIVUW] = &&L_DIVUW, [OP_REMW] = &&L_REMW,
		[OP_REMUW] = &&L_REMUW,
		[OP_LR_W] = &&L_LR, [OP_LR_D] = &&L_LR, [OP_SC_W] = &&L_SC, [OP_SC_D] = &&L_SC,
		[OP_AMOSWAP_W] = &&L_AMO, [OP_AMOADD_W] = &&L_AMO, [OP_AMOXOR_W] = &&L_AMO,
		[OP_AMOAND_W] = &&L_AMO, [OP_AMOOR_W] = &&L_AMO, [OP_AMOMIN_W] = &&L_AMO,
		[OP_AMOMAX_W] = &&L_AMO, [OP_AMOMINU_W] = &&L_AMO, [OP_AMOMAXU_W] = &&L_AMO,
		[OP_AMOSWAP_D] = &&L_AMO, [OP_AMOADD_D] = &&L_AMO, [OP_AMOXOR_D] = &&L_AMO,
		[OP_AMOAND_D] = &&L_AMO, [OP_AMOOR_D] = &&L_AMO, [OP_AMOMIN_D] = &&L_AMO,
		[OP_AMOMAX_D] = &&L_AMO, [OP_AMOMINU_D] = &&L_AMO, [OP_AMOMAXU_D] = &&L_AMO,
		[OP_FENCE] = &&L_FENCE, [OP_FENCE_I] = &&L_FENCE_I, [OP_ECALL] = &&L_ECALL,
		[OP_EBREAK] = &&L_EBREAK, [OP_MRET] = &&L_MRET, [OP_WFI] = &&L_WFI,
		[OP_CSRRW] = &&L_CSR, [OP_CSRRS] = &&L_CSR, [OP_CSRRC] = &&L_CSR,
		[OP_CSRRWI] = &&L_CSR, [OP_CSRRSI] = &&L_CSR, [OP_CSRRCI] = &&L_CSR,
		[OP_JAL_N] = &&L_JAL_N, [OP_BEQ_N] = &&L_BEQ_N, [OP_BNE_N] = &&L_BNE_N,
		[OP_BLT_N] = &&L_BLT_N, [OP_BGE_N] = &&L_BGE_N, [OP_BLTU_N] = &&L_BLTU_N,
		[OP_BGEU_N] = &&L_BGEU_N, [OP_ADDI_DEC] = &&L_ADDI_DEC,
	};

	/* the table's address in a register (else gcc recomputes it before
	 * every dispatch) */
	const void *const *tb = tbl;
	__asm__("" : "+r"(tb));

/* (the functional clock as instret + cdelta, not clk0 + done: gcc pairs two
 * `+ done` into one vector add and computes it on every instruction) */
#define SYNC_N(cur) do { h->instret = ibase + neg - 1 + (cur); if (timing) h->clock = t; else h->clock = h->instret + cdelta; } while (0)
#define SYNC() SYNC_N(1)
#define RESYNC() do { ibase = h->instret - neg; if (timing) t = h->clock; else cdelta = h->clock - h->instret; } while (0)
/* the current instruction's pc.  derived: from d, an entry of cpg inside
 * a handler (pc itself is set only where the flow jumps, for the slow
 * fetch): a sequential instruction does not add 4 to it, a jump computes
 * it; the functional variant is faster so, the timing ones (more jumps
 * per instruction in the turn-heavy runs) are not */
#define PC (derived ? cpg_base + (((uintptr_t)d - (uintptr_t)cpg) >> 1) : pc)
/* d is one of no_page's entries (then pc says where the flow is) */
#define D_NOPAGE() ((uintptr_t)d - (uintptr_t)no_page < sizeof(no_page))
#define TRAP_AT(where, cause, tval) do { h->pc = (where); SYNC(); sim_take_trap(s, h, (cause), (tval)); RESYNC(); pc = h->pc; if (s->stop) goto out_done; goto next; } while (0)
#define DISPATCH() goto *tb[d->op]
/* after a sequential instruction: count it against the budget, then the
 * next entry (the fetch's test that it is decoded is the table's
 * OP_UNDECODED entry) */
#define TRAP(cause, tval) TRAP_AT(PC, cause, tval)
#define NEXT() do { if (!derived) pc += 4; d++; if (UNLIKELY(++neg == 0)) { goto out; } DISPATCH(); } while (0)
/* pc moved: its entry if it is on the current page (checked for being
 * decoded by the dispatch), else the slow path */
#define NEXT_NOPC() do { po = pc - cpg_base; d = po < 4096 ? &cpg[po >> 2] : no_page; \
		if (UNLIKELY(++neg == 0)) { goto out; } DISPATCH(); } while (0)
/*
 * In-order issue (timing): wait for the nsrc source registers (0: none,
 * 1: rs1, 2: rs1 and rs2) and, for a load (kind 1) or a store (kind 2),
 * for a free MSHR / store-buffer entry.  An instruction that cannot issue
 * before the end of this turn does not run now: the hart's clock moves to
 * its issue cycle and the turn ends, so it reaches memsys only once the
 * other harts have caught up, and memsys sees requests in time order.  It
 * issues at `is` (a load or store waiting for its MSHR / store-buffer entry
 * stalls inside this turn, in load_timing / sb_push).
 */
#define ISSUE(nsrc, kind) do { \
		if (timing) { \
			uint64_t is_, go_; \
			for (;;) { \
				is_ = t; \
				if ((nsrc) >= 1) is_ = max64(is_, h->ready[d->rs1]); \
				if ((nsrc) >= 2) is_ = max64(is_, h->ready[d->rs2]); \
				go_ = is_; \
				if ((kind) == 1) go_ = max64(is_, mshr_free_at(s, h)); \
				if ((kind) == 2) go_ = max64(is_, sb_free_at(s, h)); \
				if (LIKELY(go_ < until)) \
					break; \
				/* MSHRs whose completion became known meanwhile */ \
				if ((kind) == 1 && UNLIKELY(h->mshr_max & MEMSYS_PEND) && is_ < until && tm_mshr_fresh(s, h, is_)) \
					continue; \
				if (t < until) { /* a turn already over keeps its clock */ \
					if (UNLIKELY(go_ & MEMSYS_PEND)) /* waits for a completion not known yet: \
						that one, or (every MSHR's unknown) the first of them */ \
						h->blk_t = t, h->blk_tk = (kind) == 1 && go_ == h->mshr_min ? TM_WAIT_MSHR : go_; \
					t = go_; \
				} \
				goto out; \
			} \
			ti = is_; \
			t = is_ + 1; \
		} \
	} while (0)
/* timing: a fence, AMO or LR/SC waits for the store buffer (and a fence
 * for the MSHRs); while some of their completions are not known yet
 * (MEMSYS_PEND), the instruction waits from its issue cycle and tries
 * again (machine.c), before it has changed anything */
#define SETTLE() do { \
		if (timing && UNLIKELY(((h->sb_last | h->mshr_max) & MEMSYS_PEND) != 0) && tm_settle(s, h, ti)) { \
			h->blk_t = ti; h->blk_tk = TM_WAIT_ANY; t = MEMSYS_PEND; goto out; \
		} \
	} while (0)
/* an AMO's (LR's, SC's) completion, when not known yet: the hart waits for it */
#define AMO_T(expr) do { uint64_t t0_ = t; t = (expr); \
		if (UNLIKELY(t & MEMSYS_PEND)) { h->blk_t = t0_ + 1; h->blk_tk = t; } } while (0)
/* the destination's ready time is "now" (unless a load/mul/div sets it) */
#define RD_NOW() do { if (timing) h->ready[d->rd] = 0; } while (0)
/* rvwmo: a result's view is its sources' (loads, AMOs and LR/SC set their
 * own afterwards); stores and branches write no register */
#define RV() do { if (weak == 2) rv[d->rd] = max64(rv[d->rs1], rv[d->rs2]); } while (0)
/* the common start of an instruction that writes rd */
#define OPR(nsrc) do { ISSUE(nsrc, 0); RD_NOW(); RV(); } while (0)
#define ALU(nsrc, expr) do { OPR(nsrc); x[d->rd] = (expr); NEXT(); } while (0)
/* mul/div: rd's ready time is set after the result */
#define MULDIV(expr, lat) do { ISSUE(2, 0); RV(); x[d->rd] = (expr); if (timing) h->ready[d->rd] = ti + (lat); NEXT(); } while (0)
/* timing: the host fetches guest RAM STREAM_AHEAD bytes past a load or
 * store at RAM offset o (w: for a store), which is where a stream (the
 * Mess generators' arrays) goes next (docs/hostsim.md "Stream
 * prefetch"); a prefetch never faults, so RAM's end needs no test */
#define STREAM_AHEAD 512u
#define STREAM_PREFETCH(o, w) __builtin_prefetch((const void *)((uintptr_t)ram + (o) + STREAM_AHEAD), (w))
#define LOAD(sz, conv) do { \
		ISSUE(1, 1); RV(); \
		uint64_t a_ = x[d->rs1] + (int64_t)d->imm, v_, o_ = a_ - rbase; \
		if (LIKELY(o_ <= rsize - sz)) { \
			if (weak == 2) { uint64_t vp_; v_ = wm_load_v(s, h, o_, sz, t, rv[d->rs1], &vp_); rv[d->rd] = vp_; } \
			else if (weak) v_ = wm_load(s, h, o_, sz, t); \
			else { \
				v_ = ram_read(ram + o_, sz); \
				/* a doubleword that points into RAM is likely the next \
				 * load's address (a chase): have the host fetch it now; \
				 * any other load, a stream's: the host fetches ahead */ \
				if (timing && sz == 8 && v_ - rbase < rsize) __builtin_prefetch(ram + (v_ - rbase)); \
				else if (timing) STREAM_PREFETCH(o_, 0); \
			} \
			/* timing: the value first, so that it need not live \
			 * across the timing's calls */ \
			if (timing) { x[d->rd] = conv; h->ready[d->rd] = load_timing(s, h, &t, ti, a_, sz); } \
		} else { \
			RD_NOW(); \
			SYNC(); \
			if (weak) wm_drain_all(s, h); \
			uint64_t mv_; /* (v_'s address not taken: a register) */ \
			int c_ = mmio_load(s, h, a_, sz, &mv_); \
			if (UNLIKELY(c_)) TRAP(c_, a_); \
			v_ = mv_; \
			if (timing) { h->ready[d->rd] = t; x[d->rd] = conv; } \
		} \
		if (!timing) x[d->rd] = conv; \
		NEXT(); \
	} while (0)
#define STORE(sz) do { \
		ISSUE(2, 2); \
		uint64_t a_ = x[d->rs1] + (int64_t)d->imm, o_ = a_ - rbase; \
		if (LIKELY(o_ <= rsize - sz)) { \
			if (weak) { \
				struct tdone sp_ = sb_push(s, h, t, a_, sz); \
				uint64_t due_ = sp_.done; \
				t = sp_.t; \
				if (weak == 2) wm_store_v(s, h, o_, sz, x[d->rs2], due_, t, max64(rv[d->rs1], rv[d->rs2])); \
				else wm_store(s, h, o_, sz, x[d->rs2], due_, t); \
			} else { \
				ram_write(s, h, o_, sz, x[d->rs2]); \
				if (timing) STREAM_PREFETCH(o_, 1); \
				if (timing) t = sb_push(s, h, t, a_, sz).t; \
			} \
		} else { \
			SYNC(); \
			if (weak) wm_drain_all(s, h); \
			int c_ = mmio_store(s, h, a_, sz, x[d->rs2]); \
			if (UNLIKELY(c_)) TRAP(c_, a_); \
			if (UNLIKELY(s->stop | s->yield)) { pc = PC + 4; goto out_done; } \
		} \
		NEXT(); \
	} while (0)
#define JUMP(target) do { uint64_t tg_ = (target); \
		if (UNLIKELY(tg_ & 3)) TRAP(CAUSE_MISALIGNED_FETCH, tg_); \
		pc = tg_; } while (0)
#define BR(cond) do { ISSUE(2, 0); if (cond) { JUMP(PC + (int64_t)d->imm); NEXT_NOPC(); } NEXT(); } while (0)
/* a near jump (OP_JAL_N, OP_B*_N): the target's entry is imm / 4 entries
 * away on the same page (an entry is 8 bytes per 4-byte instruction) */
#define NEXT_NEAR() do { if (!derived) pc += (int64_t)d->imm; \
		d = (const struct dinsn *)((const char *)d + 2 * (int64_t)d->imm); \
		if (UNLIKELY(++neg == 0)) { goto out; } DISPATCH(); } while (0)
#define BRN(cond) do { ISSUE(2, 0); if (cond) NEXT_NEAR(); NEXT(); } while (0)

	if (weak)
		wm_drain(s, h, t);
	if (UNLIKELY(n == 0))
		goto out;
	DISPATCH();

fetch_slow:
	if (derived && !D_NOPAGE())
		pc = PC; /* stepped onto an entry that is not decoded */
	if (po = pc - cpg_base, LIKELY(po < 4096) && LIKELY(cpg[po >> 2].op != OP_UNDECODED)) {
		d = &cpg[po >> 2];
	} else {
		/* a turn that is over ends before the fetch (no fetch fault, no
		 * decode); on the fast path the issue check makes the same test */
		if (timing && t >= until)
			goto out_pc;
		uint64_t off = pc - rbase;
		if (UNLIKELY(off >= rsize)) {
			/* the fetch fault counts as an instruction (TRAP counts
			 * it as done) */
			TRAP_AT(pc, CAUSE_FETCH_ACCESS, pc);
		}
		struct dinsn *pg = s->dpages[off >> 12];
		d = pg ? &pg[(off >> 2) & 1023] : NULL;
		if (!d || d->op == OP_UNDECODED)
			d = decode_at(s, off);
		cpg = s->dpages[off >> 12];
		cpg_base = pc - (off & 4095);
	}
	DISPATCH();

L_LUI: ALU(0, (uint64_t)(int64_t)d->imm);
L_AUIPC: ALU(0, PC + (int64_t)d->imm);
L_JAL: { OPR(0); uint64_t r = PC + 4; JUMP(PC + (int64_t)d->imm); x[d->rd] = r; NEXT_NOPC(); }
L_JAL_N: { OPR(0); x[d->rd] = PC + 4; NEXT_NEAR(); }
L_JALR: { OPR(1); uint64_t r = PC + 4; JUMP((x[d->rs1] + (int64_t)d->imm) & ~1ull); x[d->rd] = r; NEXT_NOPC(); }
/* each branch's condition, for its far (BR) and near (BRN) handler */
#define C_BEQ (x[d->rs1] == x[d->rs2])
#define C_BNE (x[d->rs1] != x[d->rs2])
#define C_BLT ((int64_t)x[d->rs1] < (int64_t)x[d->rs2])
#define C_BGE ((int64_t)x[d->rs1] >= (int64_t)x[d->rs2])
#define C_BLTU (x[d->rs1] < x[d->rs2])
#define C_BGEU (x[d->rs1] >= x[d->rs2])
L_BEQ: BR(C_BEQ);
L_BNE: BR(C_BNE);
L_BLT: BR(C_BLT);
L_BGE: BR(C_BGE);
L_BLTU: BR(C_BLTU);
L_BGEU: BR(C_BGEU);
L_BEQ_N: BRN(C_BEQ);
L_BNE_N: BRN(C_BNE);
L_BLT_N: BRN(C_BLT);
L_BGE_N: BRN(C_BGE);
L_BLTU_N: BRN(C_BLTU);
L_BGEU_N: BRN(C_BGEU);
#undef C_BEQ
#undef C_BNE
#undef C_BLT
#undef C_BGE
#undef C_BLTU
#undef C_BGEU
L_LB: LOAD(1, (uint64_t)(int64_t)(int8_t)v_);
L_LH: LOAD(2, (uint64_t)(int64_t)(int16_t)v_);
L_LW: LOAD(4, (uint64_t)(int64_t)(int32_t)v_);
L_LD: LOAD(8, v_);
L_LBU: LOAD(1, v_);
L_LHU: LOAD(2, v_);
L_LWU: LOAD(4, v_);
L_SB: STORE(1);
L_SH: STORE(2);
L_SW: STORE(4);
L_SD: STORE(8);
L_ADDI: ALU(1, x[d->rs1] + (int64_t)d->imm);
/*
 * addi rd, rd, -1 before `bnez rd` back to it (a countdown loop: the
 * firmware's pauses, delay loops): after this addi the loop's next pairs
 * (bnez taken, addi) run in closed form.  In them nothing but rd, the
 * clock and the count moves: each instruction issues the cycle after the
 * one before (an addi leaves rd ready at once, x0 always is), so a pair is
 * two cycles and two instructions, and the executor checks nothing but the
 * budget and the turn's end between instructions.  As many pairs as the
 * loop has left (rd stays nonzero at every bnez), the budget allows (it
 * does not run out inside them) and the turn allows (the last addi issues
 * before until); the rest runs one by one.  The weak variants (tso,
 * rvwmo, injected faults: not the speed path) step it.  A store into the
 * page re-decodes the branch's entry, so the check below sees a changed
 * branch.
 */
L_ADDI_DEC: {
	OPR(1);
	uint64_t v = x[d->rs1] - 1;
	if (!weak && v && d[1].op == OP_BNE_N && d[1].rs1 == d->rd && d[1].rs2 == 0 && d[1].imm == -4) {
		uint64_t m = (-neg - 1) / 2; /* (neg counts this addi at NEXT) */
		if (v < m)
			m = v;
		if (timing && (until - t) / 2 < m) /* (t <= until after an issue) */
			m = (until - t) / 2;
		v -= m;
		neg += 2 * m;
		if (timing)
			t += 2 * m;
	}
	x[d->rd] = v;
	NEXT();
}
L_SLTI: ALU(1, (int64_t)x[d->rs1] < (int64_t)d->imm);
L_SLTIU: ALU(1, x[d->rs1] < (uint64_t)(int64_t)d->imm);
L_XORI: ALU(1, x[d->rs1] ^ (uint64_t)(int64_t)d->imm);
L_ORI: ALU(1, x[d->rs1] | (uint64_t)(int64_t)d->imm);
L_ANDI: ALU(1, x[d->rs1] & (uint64_t)(int64_t)d->imm);
L_SLLI: ALU(1, x[d->rs1] << d->imm);
L_SRLI: ALU(1, x[d->rs1] >> d->imm);
L_SRAI: ALU(1, (uint64_t)((int64_t)x[d->rs1] >> d->imm));
L_ADD: ALU(2, x[d->rs1] + x[d->rs2]);
L_SUB: ALU(2, x[d->rs1] - x[d->rs2]);
L_SLL: ALU(2, x[d->rs1] << (x[d->rs2] & 63));
L_SLT: ALU(2, (int64_t)x[d->rs1] < (int64_t)x[d->rs2]);
L_SLTU: ALU(2, x[d->rs1] < x[d->rs2]);
L_XOR: ALU(2, x[d->rs1] ^ x[d->rs2]);
L_SRL: ALU(2, x[d->rs1] >> (x[d->rs2] & 63));
L_SRA: ALU(2, (uint64_t)((int64_t)x[d->rs1] >> (x[d->rs2] & 63)));
L_OR: ALU(2, x[d->rs1] | x[d->rs2]);
L_AND: ALU(2, x[d->rs1] & x[d->rs2]);
L_ADDIW: ALU(1, (uint64_t)(int64_t)(int32_t)(uint32_t)(x[d->rs1] + (int64_t)d->imm));
L_SLLIW: ALU(1, (uint64_t)(int64_t)(int32_t)((uint32_t)x[d->rs1] << d->imm));
L_SRLIW: ALU(1, (uint64_t)(int64_t)(int32_t)((uint32_t)x[d->rs1] >> d->imm));
L_SRAIW: ALU(1, (uint64_t)(int64_t)((int32_t)(uint32_t)x[d->rs1] >> d->imm));
L_ADDW: ALU(2, (uint64_t)(int64_t)(int32_t)(uint32_t)(x[d->rs1] + x[d->rs2]));
L_SUBW: ALU(2, (uint64_t)(int64_t)(int32_t)(uint32_t)(x[d->rs1] - x[d->rs2]));
L_SLLW: ALU(2, (uint64_t)(int64_t)(int32_t)((uint32_t)x[d->rs1] << (x[d->rs2] & 31)));
L_SRLW: ALU(2, (uint64_t)(int64_t)(int32_t)((uint32_t)x[d->rs1] >> (x[d->rs2] & 31)));
L_SRAW: ALU(2, (uint64_t)(int64_t)((int32_t)(uint32_t)x[d->rs1] >> (x[d->rs2] & 31)));
L_MUL: MULDIV(x[d->rs1] * x[d->rs2], s->opt.mul_lat);
L_MULH: MULDIV((uint64_t)(((__int128)(int64_t)x[d->rs1] * (__int128)(int64_t)x[d->rs2]) >> 64), s->opt.mul_lat);
L_MULHSU: MULDIV((uint64_t)(((__int128)(int64_t)x[d->rs1] * (__int128)(unsigned __int128)x[d->rs2]) >> 64), s->opt.mul_lat);
L_MULHU: MULDIV((uint64_t)(((unsigned __int128)x[d->rs1] * (unsigned __int128)x[d->rs2]) >> 64), s->opt.mul_lat);
L_DIV: {
	int64_t a = (int64_t)x[d->rs1], b = (int64_t)x[d->rs2];
	MULDIV(b == 0 ? ~0ull : (a == INT64_MIN && b == -1) ? (uint64_t)a : (uint64_t)(a / b), s->opt.div_lat);
}
L_DIVU: {
	uint64_t a = x[d->rs1], b = x[d->rs2];
	MULDIV(b == 0 ? ~0ull : a / b, s->opt.div_lat);
}
L_REM: {
	int64_t a = (int64_t)x[d->rs1], b = (int64_t)x[d->rs2];
	MULDIV(b == 0 ? (uint64_t)a : (a == INT64_MIN && b == -1) ? 0 : (uint64_t)(a % b), s->opt.div_lat);
}
L_REMU: {
	uint64_t a = x[d->rs1], b = x[d->rs2];
	MULDIV(b == 0 ? a : a % b, s->opt.div_lat);
}
L_MULW: MULDIV((uint64_t)(int64_t)(int32_t)(uint32_t)(x[d->rs1] * x[d->rs2]), s->opt.mul_lat);
L_DIVW: {
	int32_t a = (int32_t)x[d->rs1], b = (int32_t)x[d->rs2];
	int32_t r = b == 0 ? -1 : (a == INT32_MIN && b == -1) ? a : a / b;
	MULDIV((uint64_t)(int64_t)r, s->opt.div_lat);
}
L_DIVUW: {
	uint32_t a = (uint32_t)x[d->rs1], b = (uint32_t)x[d->rs2];
	uint32_t r = b == 0 ? ~0u : a / b;
	MULDIV((uint64_t)(int64_t)(int32_t)r, s->opt.div_lat);
}
L_REMW: {
	int32_t a = (int32_t)x[d->rs1], b = (int32_t)x[d->rs2];
	int32_t r = b == 0 ? a : (a == INT32_MIN && b == -1) ? 0 : a % b;
	MULDIV((uint64_t)(int64_t)r, s->opt.div_lat);
}
L_REMUW: {
	uint32_t a = (uint32_t)x[d->rs1], b = (uint32_t)x[d->rs2];
	uint32_t r = b == 0 ? a : a % b;
	MULDIV((uint64_t)(int64_t)(int32_t)r, s->opt.div_lat);
}
L_LR: {
	OPR(2);
	unsigned sz = d->op == OP_LR_W ? 4 : 8;
	uint64_t a = x[d->rs1], v, off2 = a - rbase;
	if (a & (sz - 1)) TRAP(CAUSE_MISALIGNED_LOAD, a);
	if (off2 > rsize - sz) TRAP(CAUSE_LOAD_ACCESS, a);
	SETTLE();
	int ack = weak && wm_wrong_ack(s, h, t);
	if (timing) { if (!ack) sb_drain_all(h, &t); AMO_T(tm_amo(s, h, a, sz, t)); }
	if (weak && !ack) wm_drain_all(s, h);
	if (weak) wm_l1d_drop(s, h, off2, sz); /* Ariane: AMOs and LR/SC bypass the L1D */
	load(s, h, a, sz, &v);
	x[d->rd] = sz == 4 ? (uint64_t)(int64_t)(int32_t)v : v;
	if (weak == 2) rv[d->rd] = wm_sync(s, h);
	if (!h->resv_valid) s->nresv++;
	h->resv_valid = 1;
	h->resv_addr = a & ~(RESV_GRANULE - 1);
	NEXT();
}
L_SC: {
	OPR(2);
	unsigned sz = d->op == OP_SC_W ? 4 : 8;
	uint64_t a = x[d->rs1], off2 = a - rbase;
	if (a & (sz - 1)) TRAP(CAUSE_MISALIGNED_STORE, a);
	if (off2 > rsize - sz) TRAP(CAUSE_STORE_ACCESS, a);
	SETTLE();
	int ok = h->resv_valid && h->resv_addr == (a & ~(RESV_GRANULE - 1));
	int ack = weak && wm_wrong_ack(s, h, t);
	if (weak) {
		if (!ack) wm_drain_all(s, h);
		if (!ok && wm_fault(s, SIM_F_SC_SPURIOUS, off2))
			ok = 1;
		wm_l1d_drop(s, h, off2, sz);
	}
	sim_resv_drop(s, h);
	if (timing) { if (!ack) sb_drain_all(h, &t); if (ok) AMO_T(tm_amo(s, h, a, sz, t)); }
	if (ok) {
		if (weak == 2) wm_write(s, h, off2, sz, x[d->rs2], t);
		else ram_write(s, h, off2, sz, x[d->rs2]);
		if (weak) wm_l1d_inval(s, h, off2, sz);
	}
	x[d->rd] = !ok;
	if (weak == 2) rv[d->rd] = wm_sync(s, h);
	NEXT();
}
L_AMO: {
	OPR(2);
	int w = d->op <= OP_AMOMAXU_W;
	unsigned sz = w ? 4 : 8, k = d->op - (w ? OP_AMOSWAP_W : OP_AMOSWAP_D);
	uint64_t a = x[d->rs1], off2 = a - rbase, old, b = x[d->rs2], nv;
	if (a & (sz - 1)) TRAP(CAUSE_MISALIGNED_STORE, a);
	if (off2 > rsize - sz) TRAP(CAUSE_STORE_ACCESS, a);
	SETTLE();
	int ack = weak && wm_wrong_ack(s, h, t);
	if (timing) { if (!ack) sb_drain_all(h, &t); AMO_T(tm_amo(s, h, a, sz, t)); }
	if (weak && !ack) wm_drain_all(s, h);
	if (weak) wm_l1d_drop(s, h, off2, sz);
	load(s, h, a, sz, &old);
	if (w) { old = (uint64_t)(int64_t)(int32_t)old; b = (uint64_t)(int64_t)(int32_t)b; }
	switch (k) {
	case 0: nv = b; break;
	case 1: nv = old + b; break;
	case 2: nv = old ^ b; break;
	case 3: nv = old & b; break;
	case 4: nv = old | b; break;
	case 5: nv = (int64_t)old < (int64_t)b ? old : b; break;
	case 6: nv = (int64_t)old > (int64_t)b ? old : b; break;
	case 7: nv = (w ? (uint32_t)old < (uint32_t)b : old < b) ? old : b; break;
	default: nv = (w ? (uint32_t)old > (uint32_t)b : old > b) ? old : b; break;
	}
	if (weak && wm_fault(s, SIM_F_AMO_NONATOMIC, off2))
		wm_defer(s, h, off2, sz, nv, t + WM_AMO_LAG, t); /* a separate, later store */
	else if (weak == 2)
		wm_write(s, h, off2, sz, nv, t);
	else
		ram_write(s, h, off2, sz, nv);
	if (weak) wm_l1d_inval(s, h, off2, sz);
	x[d->rd] = old;
	if (weak == 2) rv[d->rd] = wm_sync(s, h);
	NEXT();
}
L_FENCE: {
	/* reads no register (rs1 = rs2 = 0), writes none (rd is the sink) */
	ISSUE(0, 0);
	SETTLE();
	RV();
	unsigned fb = weak ? raw_at(s, PC) >> 20 : 0;
	if (weak && wm_fault(s, SIM_F_FENCE_NOOP, ~0ull)) {
		/* rvwmo: it still orders loads and the image's own stores
		 * (else the image's barriers break); tso, sc: nothing (TSO
		 * keeps those in order anyway) */
		if (weak == 2) wm_fence(s, h, fb, 1);
		NEXT();
	}
	/* wrong-ack: a fence ordering earlier stores (W or O in its
	 * predecessor set) takes the buffered ones as drained */
	int ack = weak && (fb & 0x50) && wm_wrong_ack(s, h, t);
	if (timing) { if (!ack) sb_drain_all(h, &t); wait_loads(s, h, &t); }
	if (weak == 2) wm_fence(s, h, fb, ack);
	else if (weak && !ack) wm_drain_all(s, h);
	NEXT();
}
L_FENCE_I:
	OPR(2);
	SETTLE();
	if (timing) sb_drain_all(h, &t);
	if (weak) wm_drain_all(s, h);
	NEXT();
L_ECALL:
	OPR(2);
	TRAP(CAUSE_ECALL_M, 0);
L_EBREAK:
	OPR(2);
	TRAP(CAUSE_BREAKPOINT, PC);
L_MRET:
	OPR(2);
	sim_mret(h);
	SYNC();
	sim_check_irq(s, h);
	RESYNC();
	pc = h->pc;
	if (s->stop) goto out_done;
	goto next_nopc;
L_WFI:
	OPR(2);
	h->pc = PC + 4;
	SYNC();
	if (weak) wm_drain_all(s, h);
	h->wfi_count++;
	sim_wfi(s, h);
	sim_check_irq(s, h);
	RESYNC();
	pc = h->pc;
	goto out_done; /* end the turn: let the other harts run */
L_CSR: {
	OPR(2);
	unsigned csr = (unsigned)d->imm & 0xfff;
	uint64_t src = d->op >= OP_CSRRWI ? (uint64_t)((unsigned)d->imm >> 12) : x[d->rs1];
	int srcz = d->op >= OP_CSRRWI ? ((unsigned)d->imm >> 12) == 0 : d->rs1 == 0;
	int wr = d->op == OP_CSRRW || d->op == OP_CSRRWI || !srcz;
	uint64_t old = 0, nv;
	SYNC();
	/* minstret/instret read the count of the instructions retired
	 * before this one (h->instret already counts it); a write (below)
	 * sets the value the next instruction reads */
	h->instret--;
	int bad = sim_csr_read(s, h, csr, &old);
	h->instret++;
	if (bad) TRAP(CAUSE_ILLEGAL, raw_at(s, PC));
	if (wr) {
		if ((csr >> 10) == 3) TRAP(CAUSE_ILLEGAL, raw_at(s, PC));
		if (d->op == OP_CSRRW || d->op == OP_CSRRWI) nv = src;
		else if (d->op == OP_CSRRS || d->op == OP_CSRRSI) nv = old | src;
		else nv = old & ~src;
		if (sim_csr_write(s, h, csr, nv)) TRAP(CAUSE_ILLEGAL, raw_at(s, PC));
	}
	x[d->rd] = old;
	if (wr && (csr == 0x300 || csr == 0x304)) {
		h->pc = PC + 4;
		sim_check_irq(s, h);
		RESYNC();
		pc = h->pc;
		if (s->stop) goto out_done;
		goto next_nopc;
	}
	NEXT();
}
L_ILLEGAL:
	OPR(2);
	TRAP(CAUSE_ILLEGAL, (uint32_t)d->imm);

next:
	if (s->stop) goto out_done;
next_nopc:
	NEXT_NOPC();

out: /* before an instruction: d is it, or pc when d is no_page's */
	if (derived && !D_NOPAGE())
		pc = PC;
	goto out_pc;
out_done: /* from inside a handler (pc set): its instruction counts */
	neg++;
out_pc:
	h->pc = pc;
	h->cpg = cpg;
	h->cpg_base = cpg_base;
	SYNC_N(0); /* no handler's instruction is pending */
	if (weak)
		wm_drain(s, h, t);
	return n + neg;
#undef SYNC
#undef SYNC_N
#undef RESYNC
#undef TRAP
#undef TRAP_AT
#undef PC
#undef D_NOPAGE
#undef DISPATCH
#undef NEXT
#undef NEXT_NOPC
#undef ISSUE
#undef SETTLE
#undef AMO_T
#undef RD_NOW
#undef RV
#undef OPR
#undef ALU
#undef MULDIV
#undef LOAD
#undef STREAM_AHEAD
#undef STREAM_PREFETCH
#undef STORE
#undef JUMP
#undef BR
#undef BRN
#undef NEXT_NEAR
}
#undef EXEC_NAME
#undef EXEC_TIMING
#undef EXEC_WEAK
