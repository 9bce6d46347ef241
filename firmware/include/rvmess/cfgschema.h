/*
 * The config keys: one table for the image and the host.
 *
 * RVM_CFG_KEYS below is the only list of the keys of struct rvm_config
 * (rvmess/config.h).  From it come:
 *   - the image's default config block (RVM_CFG_DEFAULTS, firmware/cfg.c);
 *   - the range, multiple-of and list-count checks and their `err` codes,
 *     run by the image at boot and by `rvmess config` before it writes an
 *     image (rvm_cfg_check_all, firmware/lib/cfgcheck.c);
 *   - the image's `cfg` record (firmware/cfg.c);
 *   - the host's parser and printer (`rvmess config`, hostsim/cli/config.c),
 *     `rvmess config --help` and the key table in docs/formats.md
 *     (`rvmess config --help --markdown`; ci/tests/cli.sh checks they match).
 *
 * Adding a key: a field in struct rvm_config (bump RVM_CFG_VERSION), one line
 * here, and the code that uses it.  Checks between keys that need no
 * knowledge of the target go in rvm_cfg_check_all's rule list; checks that
 * need the heap size stay in firmware/cfg.c.
 *
 * Scalar keys:  S(name, type, min, max, multiple, recif, default, help)
 * List keys:    L(name, type, count_field, max_count, min, max, multiple, recif, help, default...)
 *   name      the field of struct rvm_config and the key's name
 *   type      NUM (a number), SIZE (bytes), BOOL (0 or 1), SUITES (suite names);
 *             for lists, the type of each element
 *   min, max  accepted values (each element for lists), inclusive
 *   multiple  the value must be a multiple of this (1: any)
 *   recif     the cfg record lists the key only when one of these suites is
 *             selected (0: always)
 *   help      one line for `rvmess config --help` and the docs
 * A list's elements are comma-separated; its count field is set from the
 * number of elements and is not a key.
 */
#ifndef RVMESS_CFGSCHEMA_H
#define RVMESS_CFGSCHEMA_H

#include <stdint.h>

#include "rvmess/config.h"
#include "rvmess/fdt.h" /* RVM_MAX_HARTS */

#define RVM_CFG_SIZE_MAX  (1ull << 40) /* 1 TiB: no array of the image is larger */
#define RVM_CFG_LOADS_MAX (1ull << 40)

#define RVM_CFG_KEYS(S, L) \
	S(suites, SUITES, 1, RVM_SUITE_ALL, 1, 0, RVM_SUITE_CHASE | RVM_SUITE_LAT | RVM_SUITE_PAR, \
	  "suites to run, comma-separated: chase, lat, par, mess, check, litmus, integ, or all") \
	S(reps, NUM, 1, 100, 1, 0, 3, \
	  "measured repetitions per point (the median is reported)") \
	S(warmups, NUM, 0, 100, 1, 0, 1, \
	  "unmeasured runs before the first rep") \
	S(timeout_ms, NUM, 1, 3600000, 1, 0, 2000, \
	  "rendezvous timeout before a hart is declared missing, ms") \
	S(max_harts, NUM, 0, RVM_MAX_HARTS, 1, 0, 0, \
	  "use at most this many harts; 0 = all in the FDT") \
	S(seed, NUM, 0, UINT32_MAX, 1, 0, 1, \
	  "PRNG seed for random chains") \
	S(chase_size, SIZE, 128, RVM_CFG_SIZE_MAX, 64, 0, 8u << 20, \
	  "chase array, bytes (must fit the heap: checked at boot)") \
	S(chase_loads, NUM, 1, RVM_CFG_LOADS_MAX, 1, 0, 50000, \
	  "loads per chase measurement (the image rounds up to 100)") \
	S(chase_all_harts, BOOL, 0, 1, 1, 0, 1, \
	  "1: every hart runs the chase in turn; 0: lead only") \
	S(inject_hang, NUM, 0, RVM_MAX_HARTS, 1, 0, 0, \
	  "fault injection: hartid+1 of a hart that never arrives at the first rendezvous; 0 = none") \
	S(lat_max, SIZE, 512, RVM_CFG_SIZE_MAX, 64, 0, 1u << 20, \
	  "largest lat_mem_rd size, bytes (sizes from 512 B in lmbench steps; must fit the heap)") \
	S(lat_loads, NUM, 1, RVM_CFG_LOADS_MAX, 1, 0, 10000, \
	  "minimum loads per lat and par point (the image rounds up to 100)") \
	L(lat_strides, SIZE, lat_nstrides, RVM_CFG_MAX_STRIDES, 8, 1u << 30, 8, 0, \
	  "strides of the backward stride chains, bytes, each at most lat_max/2", \
	  64, 128, 256, 512, 1024, 4096) \
	S(lat_random, BOOL, 0, 1, 1, 0, 1, \
	  "1: also measure a random chain per lat size") \
	S(par_max, SIZE, 512, RVM_CFG_SIZE_MAX, 64, 0, 1u << 20, \
	  "largest par_mem size, bytes (plus 1/8 and 4 KiB must fit the heap)") \
	S(par_kmax, NUM, 1, 16, 1, 0, 16, \
	  "par_mem runs 1..par_kmax parallel chains") \
	S(mess_chase_size, SIZE, 128, RVM_CFG_SIZE_MAX, 64, RVM_SUITE_MESS, 16u << 20, \
	  "Mess chase array on the lead hart, bytes") \
	S(mess_gen_size, SIZE, 3200, RVM_CFG_SIZE_MAX, 64, RVM_SUITE_MESS, 2u << 20, \
	  "per-generator load and store array, bytes, used in whole 3200-byte blocks") \
	S(mess_window_loads, NUM, 100, RVM_CFG_LOADS_MAX, 1, RVM_SUITE_MESS, 10000, \
	  "chase loads per Mess window when mess_tol=0 (a fixed window; with mess_tol > 0 unused)") \
	L(mess_mix, NUM, mess_nmix, RVM_CFG_MAX_MIXES, 0, 100, 2, RVM_SUITE_MESS, \
	  "store percentage of the generators' kernel, one Mess curve each", \
	  0, 20, 40, 60, 80, 100) \
	L(mess_pause, NUM, mess_npause, RVM_CFG_MAX_PAUSES, 0, UINT32_MAX, 1, RVM_SUITE_MESS, \
	  "nop-loop counts of the generators, one point per curve each", \
	  0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384) \
	S(litmus_iters, NUM, 1, 100000000, 1, RVM_SUITE_LITMUS, 1000, \
	  "litmus: iterations per test") \
	S(litmus_delay, NUM, 0, 100000, 1, RVM_SUITE_LITMUS, 16, \
	  "litmus: largest random start delay of each thread per iteration, loop turns") \
	S(litmus_test, NUM, 0, 255, 1, RVM_SUITE_LITMUS, 0, \
	  "litmus: 0 runs every test; N runs only the Nth run: the table's tests in order, then their packed runs (docs/litmus.md)") \
	S(integ_rounds, NUM, 1, 100000000, 1, RVM_SUITE_INTEG, 500, \
	  "integ: rounds of the shared-line stress (every hart writes its signatures, all verify)") \
	S(integ_lines, NUM, 1, 1024, 1, RVM_SUITE_INTEG, 4, \
	  "integ: 64-byte lines shared by each group of 8 harts") \
	S(integ_msgs, NUM, 1, 100000000, 1, RVM_SUITE_INTEG, 4000, \
	  "integ: messages each hart sends to the next through its ring") \
	S(integ_slots, NUM, 1, 256, 1, RVM_SUITE_INTEG, 8, \
	  "integ: slots (64-byte lines) of each ring") \
	S(integ_delay, NUM, 0, 100000, 1, RVM_SUITE_INTEG, 16, \
	  "integ: largest random delay before a hart's writes, loop turns") \
	S(inject_corrupt, BOOL, 0, 1, 1, RVM_SUITE_MESS, 0, \
	  "fault injection: 1 = at each Mess curve's first point, plant wrong words in every load array (second and last line) and store array (the first store slot the point's check reads), and at the first point in the ring (the Mess checks must report them)") \
	S(wait_flush, BOOL, 0, 1, 1, 0, 0, \
	  "1: flush the data cache before every read of a wait for another hart's store, from the start (a platform known to need it); 0: flush only to check, and report a store that stays invisible (bug test=visibility), then flush") \
	S(stale_cycles, NUM, 1000, 1000000000, 1, 0, 20000, \
	  "cycles a store another hart waits for may stay invisible before the wait flushes, looks again and reports it") \
	S(mess_share, BOOL, 0, 1, 1, RVM_SUITE_MESS, 0, \
	  "1: every Mess generator's load array is the lead's chase ring (lines two harts read: coherence traffic, e.g. whether clean lines go back to memory); 0: each generator reads its own array") \
	S(mess_tol, NUM, 0, 1000000, 1, RVM_SUITE_MESS, 20000, \
	  "Mess window: ends when the 95 % confidence interval of the chase latency (batch means) is within this many ppm of its mean, between mess_min_loads and mess_max_loads; 0: a fixed window of mess_window_loads") \
	S(mess_batch_loads, NUM, 100, 1000000, 100, RVM_SUITE_MESS, 500, \
	  "chase loads per batch, the timed unit of a Mess point's warm-up and window (at most half of the window's largest: mess_max_loads, or mess_window_loads with mess_tol=0)") \
	S(mess_min_loads, NUM, 100, RVM_CFG_LOADS_MAX, 1, RVM_SUITE_MESS, 2000, \
	  "Mess window with mess_tol > 0: at least this many chase loads (and two batches)") \
	S(mess_max_loads, NUM, 100, RVM_CFG_LOADS_MAX, 1, RVM_SUITE_MESS, 10000, \
	  "Mess window with mess_tol > 0: at most this many chase loads (the point then reports an interval wider than mess_tol)") \
	S(mess_check, NUM, 1, 64, 1, RVM_SUITE_MESS, 1, \
	  "Mess generators' check after a point: 1 = every line of the blocks it walked; N > 1 = only their lines i with i mod N = the point's number mod N (each line once in N points), and the whole load array after the last point")


/* The default block: `struct rvm_config c = RVM_CFG_DEFAULTS;` */
#define RVM_CFG_DEF_S_(name, type, min, max, mult, recif, def, help) .name = (def),
#define RVM_CFG_DEF_L_(name, type, count, maxn, min, max, mult, recif, help, ...) \
	.name = { __VA_ARGS__ }, .count = sizeof((uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t),
#define RVM_CFG_DEFAULTS { \
	.magic = RVM_CFG_MAGIC, .version = RVM_CFG_VERSION, .size = sizeof(struct rvm_config), \
	RVM_CFG_KEYS(RVM_CFG_DEF_S_, RVM_CFG_DEF_L_) }

/* ---- the table as data (firmware/lib/cfgcheck.c) ---------------------------- */

enum { RVM_CFG_T_NUM, RVM_CFG_T_SIZE, RVM_CFG_T_BOOL, RVM_CFG_T_SUITES };

struct rvm_cfg_key {
	const char *name;
	uint8_t  type;      /* RVM_CFG_T_*, of each element for lists */
	uint8_t  list;      /* 1: a comma-separated list with a count field */
	uint8_t  width;     /* bytes of the value, of one element for lists: 1, 4 or 8 */
	uint16_t off;       /* offset of the field in struct rvm_config */
	uint16_t count_off; /* lists: offset of the uint32_t count field */
	uint16_t maxn;      /* lists: most elements; scalars: 1 */
	uint32_t recif;     /* see above */
	uint64_t min, max, mult;
};

extern const struct rvm_cfg_key rvm_cfg_keys[];
extern const unsigned rvm_cfg_nkeys;
extern const char *const rvm_suite_names[RVM_SUITE_COUNT];

/* The key called name, or 0. */
const struct rvm_cfg_key *rvm_cfg_find(const char *name);
/* Number of values of key k in c: its count field for lists (not clamped), 1 otherwise. */
uint32_t rvm_cfg_count(const struct rvm_config *c, const struct rvm_cfg_key *k);
/* Value (element i of a list) of key k in c. i < maxn. */
uint64_t rvm_cfg_get(const struct rvm_config *c, const struct rvm_cfg_key *k, uint32_t i);
void rvm_cfg_put(struct rvm_config *c, const struct rvm_cfg_key *k, uint32_t i, uint64_t v);

/* ---- checks -------------------------------------------------------------- */

enum { RVM_CFG_RANGE, RVM_CFG_MULT, RVM_CFG_COUNT, RVM_CFG_RULE };

struct rvm_cfg_problem {
	const struct rvm_cfg_key *key;
	int      why;       /* RVM_CFG_* above */
	uint64_t value;     /* the refused value (element or count) */
	uint32_t index;     /* list element */
	const char *rule;   /* RVM_CFG_RULE: the rule's err code */
	uint64_t limit;     /* RVM_CFG_RULE: the value it broke, if any */
};
typedef void rvm_cfg_report_fn(void *ctx, const struct rvm_cfg_problem *p);

/* One value of key k (element index for lists) against its range and
 * multiple: reports and returns 1 when refused, else 0. */
int rvm_cfg_check_value(const struct rvm_cfg_key *k, uint64_t v, uint32_t index,
                        rvm_cfg_report_fn *fn, void *ctx);
/* Every key (list counts, then the first refused element of each list), then
 * the rules between keys that do not depend on the target.  Reports each
 * problem; returns how many. */
int rvm_cfg_check_all(const struct rvm_config *c, rvm_cfg_report_fn *fn, void *ctx);
/* The image's `err what=config` message for a problem, e.g.
 * "reps_not_in_1..100"; no blanks.  Returns buf. */
const char *rvm_cfg_code(const struct rvm_cfg_problem *p, char *buf, unsigned len);

#endif
