/*
 * The record types of the console protocol (docs/protocol.md), listed once.
 *
 * Shared by the image (its writers: rec_begin(&r, REC_CHASE)) and the host
 * tool (its reader accepts exactly these types and counts them in the
 * summary).  A new record type is one line here, its writer in the image
 * and its reader on the host.
 *
 * X(ID, name, fields): the fields are the keys every record of the type
 * carries after `h`, in order (optional keys in brackets); documentation
 * for the reader, kept beside the name so that the two do not drift.
 */
#ifndef RVMESS_RECORDS_H
#define RVMESS_RECORDS_H

#define RVM_RECORD_TYPES(X)                                                                   \
	X(HDR, hdr, "proto platform mode harts hartids isa timebase mem_base mem_size "      \
	            "heap_base heap_size fdt cpu_hz version [cache_max]")                      \
	X(CFG, cfg, "suites reps warmups timeout_ms max_harts seed chase_size chase_loads "  \
	            "chase_all_harts inject_hang lat_max lat_loads lat_strides lat_random "    \
	            "par_max par_kmax [mess_chase_size mess_gen_size mess_window_loads "        \
	            "mess_mix mess_pause] [litmus_iters litmus_delay litmus_test] "                       \
	            "[integ_rounds integ_lines integ_msgs integ_slots integ_delay] [inject_corrupt] "   \
	            "[wait_flush stale_cycles] [mess_share mess_tol mess_batch_loads mess_min_loads "  \
	            "mess_max_loads mess_check]")                 \
	X(FDT, fdt, "status reason off")                                                      \
	X(PMU, pmu, "counters cycles_csr cycles_err instret_csr instret_err loop_insns "     \
	            "cycles instret rdcycle rdinstret l1d llc")                                 \
	X(HART, hart, "idx cpu_hz cycle instret")                                             \
	X(MISSING, missing, "hart where")                                                     \
	X(START, start, "hart rc")                                                            \
	X(CHASE, chase, "size lines rep loads cycles ticks ns cpl nspl")                     \
	X(LAT, lat, "chain stride size loads cycles ticks ns cpl nspl")                      \
	X(PAR, par, "size k loads cycles ticks ns cpl nspl")                                 \
	X(PARMAX, parmax, "size k par")                                                       \
	X(MESS, mess, "mix pause rep gens [settle batch batches] loads cycles ticks ns cpl "  \
	              "nspl [ci wall_ns] gen_iters "                                           \
	              "gen_loads gen_stores iss_rd iss_wr bw_iss [ctr_rd ctr_wr bw_ctr] "     \
	              "rd_pct src [peak] [l1d_miss llc_miss [cached]]")                       \
	X(MEMCTL, memctl, "reads writes peak")                                                \
	X(PROG, prog, "suite done total [cycle]")                                                     \
	X(WARN, warn, "what msg [want got]")                                                  \
	X(ERR, err, "what msg [addr want got] [hart got]")                                  \
	X(TRAP, trap, "cause epc tval")                                                       \
	X(END, end, "status errors records harts states")                                     \
	X(LITMUS, litmus, "test threads iters obs outs relaxed verdict")                      \
	X(BUG, bug, "test [outcome count harts kinds] [waiter writer addr val cycles where]")                                        \
	X(INTEG, integ, "check hart words bad [addr [want] got]")

enum rvm_rec_type {
#define RVM_REC_ENUM_(id, name, fields) REC_##id,
	RVM_RECORD_TYPES(RVM_REC_ENUM_)
#undef RVM_REC_ENUM_
	RVM_REC_NTYPES
};

/* The type's name as it appears on the console; NULL for an unknown type. */
static inline const char *rvm_rec_name(unsigned t)
{
	switch (t) {
#define RVM_REC_NAME_(id, name, fields) case REC_##id: return #name;
	RVM_RECORD_TYPES(RVM_REC_NAME_)
#undef RVM_REC_NAME_
	default:
		return 0;
	}
}

/* The keys of the type (see above); NULL for an unknown type. */
static inline const char *rvm_rec_fields(unsigned t)
{
	switch (t) {
#define RVM_REC_FIELDS_(id, name, fields) case REC_##id: return fields;
	RVM_RECORD_TYPES(RVM_REC_FIELDS_)
#undef RVM_REC_FIELDS_
	default:
		return 0;
	}
}

#endif
