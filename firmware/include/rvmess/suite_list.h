/*
 * The suites the config block can select, listed once: their names (as
 * `suites=` takes and the `cfg` record prints them) and, by position, their
 * bit in rvm_config.suites.  Shared by the image (firmware/cfg.c, the suite
 * table in firmware/suites/suites.c) and the host tool (hostsim/cli/config.c).
 * A new suite is appended (the bits of the others stay); `check` has a bit
 * but no suite in this image yet.
 */
#ifndef RVMESS_SUITE_LIST_H
#define RVMESS_SUITE_LIST_H

#define RVM_SUITE_LIST(X) \
	X(CHASE, chase)   \
	X(LAT, lat)       \
	X(PAR, par)       \
	X(MESS, mess)     \
	X(CHECK, check)   \
	X(LITMUS, litmus) \
	X(INTEG, integ)

enum {
#define RVM_SUITE_IDX_(id, name) RVM_SUITE_IDX_##id,
	RVM_SUITE_LIST(RVM_SUITE_IDX_)
#undef RVM_SUITE_IDX_
	RVM_SUITE_COUNT
};

enum {
#define RVM_SUITE_BIT_(id, name) RVM_SUITE_##id = 1u << RVM_SUITE_IDX_##id,
	RVM_SUITE_LIST(RVM_SUITE_BIT_)
#undef RVM_SUITE_BIT_
	RVM_SUITE_ALL = (1u << RVM_SUITE_COUNT) - 1
};

/* initialiser of a name table indexed by bit position */
#define RVM_SUITE_NAME_(id, name) #name,
#define RVM_SUITE_NAMES { RVM_SUITE_LIST(RVM_SUITE_NAME_) }

#endif
