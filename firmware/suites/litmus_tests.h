/*
 * The litmus tests, listed once.  firmware/kernels/litmus.S expands every
 * entry into one function per thread (the asm below, as written), and
 * firmware/suites/litmus.c into the descriptor the suite runs.  Adding a
 * test is one X() line here.
 *
 * X(name, threads, cond, verdict, T0, T1, T2, T3)
 *   name     the test's name in records (C identifier; `_` reads as `+`)
 *   threads  1..4: how many harts it needs (skipped on fewer)
 *   cond     the outcome of interest, a conjunction of terms separated by
 *            spaces: `T:R=V` (thread T's result register R, 1..4, holds V),
 *            `L=V` (location L in x y z w holds V at the end), `!=` for
 *            "differs from".  The values these terms name are the outcome
 *            the suite counts (a histogram over them).
 *   verdict  LT_FORBID: RVWMO forbids cond (observing it is a bug);
 *            LT_ALLOW: RVWMO allows it (observing it shows relaxation).
 *            Every outcome that does not satisfy cond is allowed.
 *            `| LT_PACK` runs the test a second time, after the whole
 *            table, with x y z w packed into one line (8 bytes apart: false
 *            sharing), reported as <name>_packed.
 *   T0..T3   each thread's instructions, in parentheses; `()` for none.
 *
 * Instructions (all locations start at 0, each on its own 64-byte line):
 *   W(l, v)      store v to location l (x y z w)
 *   R(r, l)      load location l into result register r (1..4)
 *   RA(r, d, l)  load l into r with an address dependency on register d
 *   WA(l, v, d)  store v to l with an address dependency on register d
 *   WD(l, v, d)  store v to l with a data dependency on register d (the
 *                value is computed from d as (d xor d) + v)
 *   CTRL(d)      a branch on register d to the next instruction: what
 *                follows is control-dependent on d
 *   F(p, s)      fence p, s;  FTSO: fence.tso
 *   SWAPAR(l, v) amoswap.d.aqrl of v to l (result discarded)
 *   ORAR(r, l)   amoor.d.aqrl of 0 to l, the old value into r (a load with
 *                acquire and release)
 *   WI(v)        store (sw) the instruction `addi t2, zero, v` to the code
 *                line; the lead puts `addi t2, zero, 1; jalr zero, 0(t0)`
 *                there before every iteration
 *   FI           fence.i;  EXEC: call the code line (sets r2 to its v)
 *   LRSCW(r, l, n)  lr.d of l, n loop turns, sc.d of the same value back:
 *                r is the sc's result (0 stored, 1 failed)
 *   AMOADD(l, n) amoadd.d of 1 to l, n times;  LRSC(l, n): lr/sc increment, n times
 *   LOCKINC(l, k, n)  n times: take the amoswap.aq lock k, increment l with a
 *                plain load and store, release with amoswap.rl; after
 *                1000000 failed tries in a row it gives up and sets r4 = 1
 *                (a host that deschedules the holder, or a lock a broken
 *                AMO left taken: not a count to judge)
 * Result registers r1..r4 are t1..t4; t0, t5, t6 are scratch; a0..a3 hold
 * the addresses of x y z w, a5 that of the code line (its own line, in a
 * region of the heap that holds nothing else).
 *
 * Verdicts: docs/litmus.md names, for every test, the public litmus test
 * of the same shape and its herd result it was checked against.  Append new
 * tests at the end: litmus_test numbers the table in order.
 */
#ifndef RVMESS_LITMUS_TESTS_H
#define RVMESS_LITMUS_TESTS_H

#define LITMUS_TESTS(X) \
	X(mp,           2, "1:1=1 1:2=0", LT_ALLOW,  (W(x,1) W(y,1)), (R(1,y) R(2,x)), (), ()) \
	X(mp_fences,    2, "1:1=1 1:2=0", LT_FORBID | LT_PACK, (W(x,1) F(w,w) W(y,1)), (R(1,y) F(r,r) R(2,x)), (), ()) \
	X(mp_fence_addr,2, "1:1=1 1:2=0", LT_FORBID, (W(x,1) F(w,w) W(y,1)), (R(1,y) RA(2,1,x)), (), ()) \
	X(sb,           2, "0:1=0 1:1=0", LT_ALLOW | LT_PACK,  (W(x,1) R(1,y)), (W(y,1) R(1,x)), (), ()) \
	X(sb_fences,    2, "0:1=0 1:1=0", LT_FORBID | LT_PACK, (W(x,1) F(rw,rw) R(1,y)), (W(y,1) F(rw,rw) R(1,x)), (), ()) \
	X(lb,           2, "0:1=1 1:1=1", LT_ALLOW,  (R(1,x) W(y,1)), (R(1,y) W(x,1)), (), ()) \
	X(lb_fences,    2, "0:1=1 1:1=1", LT_FORBID | LT_PACK, (R(1,x) F(r,w) W(y,1)), (R(1,y) F(r,w) W(x,1)), (), ()) \
	X(corr,         2, "1:1=1 1:2=0", LT_FORBID, (W(x,1)), (R(1,x) R(2,x)), (), ()) \
	X(coww,         2, "1:1=2 1:2=1", LT_FORBID, (W(x,1) W(x,2)), (R(1,x) R(2,x)), (), ()) \
	X(cowr,         2, "0:1=0 1:1=0", LT_FORBID, (W(x,1) R(1,x)), (W(x,2) R(1,x)), (), ()) \
	X(w2_2,         2, "x=2 y=2",     LT_ALLOW,  (W(x,2) W(y,1)), (W(y,2) W(x,1)), (), ()) \
	X(w2_2_fences,  2, "x=2 y=2",     LT_FORBID | LT_PACK, (W(x,2) F(w,w) W(y,1)), (W(y,2) F(w,w) W(x,1)), (), ()) \
	X(amoadd2,      2, "x!=128",      LT_FORBID, (AMOADD(x,64)), (AMOADD(x,64)), (), ()) \
	X(amoadd4,      4, "x!=128",      LT_FORBID, (AMOADD(x,32)), (AMOADD(x,32)), (AMOADD(x,32)), (AMOADD(x,32))) \
	X(amoswap_lock, 2, "x!=64 0:4=0 1:4=0", LT_FORBID | LT_PACK, (LOCKINC(x,y,32)), (LOCKINC(x,y,32)), (), ()) \
	X(lrsc2,        2, "x!=128",      LT_FORBID, (LRSC(x,64)), (LRSC(x,64)), (), ()) \
	X(lrsc4,        4, "x!=128",      LT_FORBID, (LRSC(x,32)), (LRSC(x,32)), (LRSC(x,32)), (LRSC(x,32))) \
	X(iriw,         4, "2:1=1 2:2=0 3:1=1 3:2=0", LT_ALLOW, (W(x,1)), (W(y,1)), (R(1,x) R(2,y)), (R(1,y) R(2,x))) \
	X(iriw_fences,  4, "2:1=1 2:2=0 3:1=1 3:2=0", LT_FORBID | LT_PACK, (W(x,1)), (W(y,1)), \
	  (R(1,x) F(r,r) R(2,y)), (R(1,y) F(r,r) R(2,x))) \
	X(wrc,          3, "1:1=1 2:1=1 2:2=0", LT_ALLOW, (W(x,1)), (R(1,x) W(y,1)), (R(1,y) R(2,x)), ()) \
	X(wrc_fences,   3, "1:1=1 2:1=1 2:2=0", LT_FORBID | LT_PACK, (W(x,1)), (R(1,x) F(r,w) W(y,1)), \
	  (R(1,y) F(r,r) R(2,x)), ()) \
	X(isa2_fences,  3, "1:1=1 2:1=1 2:2=0", LT_FORBID | LT_PACK, (W(x,1) F(w,w) W(y,1)), (R(1,y) F(r,w) W(z,1)), \
	  (R(1,z) F(r,r) R(2,x)), ()) \
	X(r_fences,     2, "y=2 1:1=0",   LT_FORBID | LT_PACK, (W(x,1) F(w,w) W(y,1)), (W(y,2) F(rw,rw) R(1,x)), (), ()) \
	X(s_fences,     2, "1:1=1 x=2",   LT_FORBID | LT_PACK, (W(x,2) F(w,w) W(y,1)), (R(1,y) F(r,w) W(x,1)), (), ()) \
	X(corw,         2, "0:1=2 x=2",   LT_FORBID, (R(1,x) W(x,1)), (W(x,2)), (), ()) \
	X(isa2,         3, "1:1=1 2:1=1 2:2=0", LT_ALLOW, (W(x,1) W(y,1)), (R(1,y) W(z,1)), (R(1,z) R(2,x)), ()) \
	X(r,            2, "y=2 1:1=0",   LT_ALLOW,  (W(x,1) W(y,1)), (W(y,2) R(1,x)), (), ()) \
	X(s,            2, "1:1=1 x=2",   LT_ALLOW,  (W(x,2) W(y,1)), (R(1,y) W(x,1)), (), ()) \
	X(lb_datas,     2, "0:1=1 1:1=1", LT_FORBID, (R(1,x) WD(y,1,1)), (R(1,y) WD(x,1,1)), (), ()) \
	X(lb_addrs,     2, "0:1=1 1:1=1", LT_FORBID, (R(1,x) WA(y,1,1)), (R(1,y) WA(x,1,1)), (), ()) \
	X(lb_ctrls,     2, "0:1=1 1:1=1", LT_FORBID, (R(1,x) CTRL(1) W(y,1)), (R(1,y) CTRL(1) W(x,1)), (), ()) \
	X(wrc_addrs,    3, "1:1=1 2:1=1 2:2=0", LT_FORBID | LT_PACK, (W(x,1)), (R(1,x) WA(y,1,1)), \
	  (R(1,y) RA(2,1,x)), ()) \
	X(isa2_fence_addrs, 3, "1:1=1 2:1=1 2:2=0", LT_FORBID | LT_PACK, (W(x,1) F(w,w) W(y,1)), \
	  (R(1,y) WA(z,1,1)), (R(1,z) RA(2,1,x)), ()) \
	X(s_fence_data, 2, "1:1=1 x=2",   LT_FORBID, (W(x,2) F(w,w) W(y,1)), (R(1,y) WD(x,1,1)), (), ()) \
	X(mp_fence_ctrl,2, "1:1=1 1:2=0", LT_ALLOW,  (W(x,1) F(w,w) W(y,1)), (R(1,y) CTRL(1) R(2,x)), (), ()) \
	X(mp_fence_tsos,2, "1:1=1 1:2=0", LT_FORBID | LT_PACK, (W(x,1) FTSO W(y,1)), (R(1,y) FTSO R(2,x)), (), ()) \
	X(s_fence_tsos, 2, "1:1=1 x=2",   LT_FORBID, (W(x,2) FTSO W(y,1)), (R(1,y) FTSO W(x,1)), (), ()) \
	X(r_fence_tso,  2, "y=2 1:1=0",   LT_ALLOW,  (W(x,1) F(w,w) W(y,1)), (W(y,2) FTSO R(1,x)), (), ()) \
	X(sb_fence_tsos,2, "0:1=0 1:1=0", LT_ALLOW,  (W(x,1) FTSO R(1,y)), (W(y,1) FTSO R(1,x)), (), ()) \
	X(s_amo_aqrl,   2, "1:1=1 x=2",   LT_FORBID | LT_PACK, (W(x,2) SWAPAR(y,1)), (ORAR(1,y) W(x,1)), (), ()) \
	X(r_amo_aqrl,   2, "y=2 1:1=0",   LT_FORBID | LT_PACK, (W(x,1) SWAPAR(y,1)), (SWAPAR(y,2) R(1,x)), (), ()) \
	X(fencei_mp,    2, "1:1=1 1:2=1", LT_FORBID, (WI(2) F(w,w) W(y,1)), (R(1,y) FI EXEC), (), ()) \
	X(sc_neighbour, 2, "0:1=1",       LT_ALLOW | LT_PACK, (LRSCW(1,x,32)), (W(y,1)), (), ())

#endif
