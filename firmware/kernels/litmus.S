/*
 * The litmus tests' threads, generated from the one table
 * (firmware/suites/litmus_tests.h) by the C preprocessor: one function per
 * thread of every test,
 *
 *   void lt_<test>_<thread>(uint64_t x, uint64_t y, uint64_t z, uint64_t w, uint64_t res[4],
 *                           uint64_t code)
 *
 * a0..a3 hold the addresses of the locations, a4 the thread's result slot,
 * a5 the code line's.
 * The body is the table's instructions exactly as written; the result
 * registers t1..t4 start at 0 and are stored to res[0..3] after it.
 */
#include "../suites/litmus_tests.h"

#define LOC_x a0
#define LOC_y a1
#define LOC_z a2
#define LOC_w a3
#define REG_1 t1
#define REG_2 t2
#define REG_3 t3
#define REG_4 t4

#define W(l, v) li t0, v ; sd t0, 0(LOC_##l) ;
#define R(r, l) ld REG_##r, 0(LOC_##l) ;
#define RA(r, d, l) xor t0, REG_##d, REG_##d ; add t0, t0, LOC_##l ; ld REG_##r, 0(t0) ;
#define WA(l, v, d) xor t0, REG_##d, REG_##d ; add t0, t0, LOC_##l ; li t5, v ; sd t5, 0(t0) ;
#define WD(l, v, d) xor t0, REG_##d, REG_##d ; addi t0, t0, v ; sd t0, 0(LOC_##l) ;
#define CTRL(d) bne REG_##d, zero, 6f ; 6: 
#define F(p, s) fence p, s ;
#define FTSO fence.tso ;
#define SWAPAR(l, v) li t0, v ; amoswap.d.aqrl zero, t0, (LOC_##l) ;
#define ORAR(r, l) amoor.d.aqrl REG_##r, zero, (LOC_##l) ;
/* addi t2, zero, v: I-type, rd = t2 (7), opcode 0x13 */
#define WI(v) li t0, ((v) << 20) | (7 << 7) | 0x13 ; sw t0, 0(a5) ;
#define LRSCW(r, l, n) lr.d t0, (LOC_##l) ; li t5, n ; 7: addi t5, t5, -1 ; bnez t5, 7b ; \
	sc.d REG_##r, t0, (LOC_##l) ;
#define FI fence.i ;
#define EXEC jalr t0, 0(a5) ;
#define AMOADD(l, n) li t6, n ; 2: li t0, 1 ; amoadd.d zero, t0, (LOC_##l) ; \
	addi t6, t6, -1 ; bnez t6, 2b ;
#define LRSC(l, n) li t6, n ; 2: lr.d t0, (LOC_##l) ; addi t0, t0, 1 ; \
	sc.d t5, t0, (LOC_##l) ; bnez t5, 2b ; addi t6, t6, -1 ; bnez t6, 2b ;
/* the lock spin gives up after 1000000 tries in a row (a lock left taken by
 * a broken AMO must not hang the run) and sets t4 (result register 4) */
#define LOCKINC(l, k, n) li t6, n ; 2: li t5, 1000000 ; 3: li t0, 1 ; amoswap.d.aq t0, t0, (LOC_##k) ; \
	beqz t0, 4f ; addi t5, t5, -1 ; bnez t5, 3b ; li t4, 1 ; j 5f ; \
	4: ld t0, 0(LOC_##l) ; addi t0, t0, 1 ; sd t0, 0(LOC_##l) ; \
	amoswap.d.rl zero, zero, (LOC_##k) ; addi t6, t6, -1 ; bnez t6, 2b ; 5:

#define LT_UNPAREN(...) __VA_ARGS__
#define LT_FN(name, i, body) \
	.globl lt_##name##_##i ; .type lt_##name##_##i, @function ; lt_##name##_##i: \
	li t1, 0 ; li t2, 0 ; li t3, 0 ; li t4, 0 ; \
	LT_UNPAREN body \
	sd t1, 0(a4) ; sd t2, 8(a4) ; sd t3, 16(a4) ; sd t4, 24(a4) ; ret ; \
	.size lt_##name##_##i, . - lt_##name##_##i ;
#define LT_GEN(name, n, cond, verdict, p0, p1, p2, p3) \
	LT_FN(name, 0, p0) LT_FN(name, 1, p1) LT_FN(name, 2, p2) LT_FN(name, 3, p3)

	.text
	.balign 4
LITMUS_TESTS(LT_GEN)
