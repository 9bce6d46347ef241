/*
 * Memory models behind hostsim's LLC (see memsys.h, docs/memsys.md).
 *
 * A model serves line transfers: request() gets the line address, the
 * direction and the cycle the request leaves the LLC, and returns the cycle
 * the transfer completes (read data back at the LLC; for writes, the cycle
 * the controller has accepted it), and the requesting hart (the source).  Requests may come slightly out of time
 * order; a model never returns a completion earlier than `now`.
 *
 * Models count their own served transfers (the truth memsys's counters are
 * tested against).  Each model owns its parameters: their keys (option
 * name, type, range, help: --help and option parsing come from them), their
 * defaults and their checks.  One file per model (memmodel_fixed.c,
 * memmodel_md1.c, memmodel_simple_dram.c, memmodel_ddrctl.c,
 * memmodel_ddr_resv.c, memmodel_mess.c; the two ddr models share
 * memmodel_ddr_config.c's keys, checks and address map); adding a model:
 * a file defining its memmodel_ops with its functions and keys, a
 * declaration below and a row in memmodel.c's table.
 */
#ifndef HOSTSIM_MEMMODEL_H
#define HOSTSIM_MEMMODEL_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include "sim/memsys.h"

struct memmodel;

/* One configuration key (--KEY VALUE, KEY=VALUE in a config file): a field
 * of struct memsys_cfg at offset `off`, with its range and help line. */
enum memsys_ktype { K_U32, K_SIZE, K_DBL, K_STR };
struct memsys_key {
	const char *name;
	enum memsys_ktype type;
	size_t off;
	double min, max;
	const char *help;
};

struct memmodel_ops {
	const char *name;
	const char *help;                   /* one line for --help */
	const struct memsys_key *keys;      /* the model's own parameters */
	size_t nkeys;
	/* Set the model's parameters in *cfg to their defaults (may be NULL). */
	void (*defaults)(struct memsys_cfg *cfg);
	/* Check the model's parameters, whichever model is selected: 0, or -1
	 * + err (may be NULL). */
	int (*check)(const struct memsys_cfg *cfg, char *err, size_t errlen);
	/* NULL + err on a refused configuration. */
	void *(*create)(const struct memsys_cfg *cfg, char *err, size_t errlen);
	/* src: the requesting hart (for a write-back, the hart whose miss
	 * evicted the line); models may ignore it (only ddr's --ddr-fair
	 * looks at it). */
	uint64_t (*request)(void *st, uint64_t line_addr, int is_write, uint64_t now, unsigned src);
	void (*stats)(const void *st, struct memsys_model_stats *s);
	/* Peak bandwidth in MB/s, 0 = unlimited. */
	uint64_t (*peak_mbps)(const void *st);
	void (*destroy)(void *st);
	/* NULL, or: the earliest cycle >= now at which a read of line_addr
	 * from src arriving at `now` can enter the controller (now when it
	 * can at once).  Nothing changes: memsys asks before a demand read
	 * and, while the answer is later, holds the access (memsys.h's
	 * MEMSYS_HELD), so a read that waits at the controller's ingress is
	 * not committed ahead of requests that arrive while it waits.  A
	 * model may remember a refusal (ddr: the wait is counted from the
	 * first); see MEMMODEL_PF for a prefetch's. */
	uint64_t (*admit)(void *st, uint64_t line_addr, uint64_t now, unsigned src);
};

/* src | MEMMODEL_PF: a read for memsys's stream prefetcher, in admit and
 * request.  It is dropped when refused, not held, so admit remembers
 * nothing; ddr's per-source share (ddr-src-rq) does not count it. */
#define MEMMODEL_PF 0x10000u

struct memmodel {
	const struct memmodel_ops *ops;
	void *st;
};

/* The models, one file each (memmodel_<name>.c). */
extern const struct memmodel_ops memmodel_fixed;
extern const struct memmodel_ops memmodel_md1;
extern const struct memmodel_ops memmodel_simple_dram;

/* The ddr-resv model (memmodel_ddr_resv.c), and its address mapping (for
 * tests; the ddr models' configuration and map: memmodel_ddr_config.h). */
extern const struct memmodel_ops memmodel_ddr_resv;
void memmodel_ddr_map(const void *st, uint64_t line_addr, unsigned *ch, unsigned *rank, unsigned *bg,
                      unsigned *bank, uint64_t *row);

/*
 * The ddr model (memmodel_ddrctl.c): a controller per channel that decides
 * when each command issues (FR-FCFS over the queued reads or writes), so a
 * read's completion is known only once its column command has issued.
 * request() returns a read's completion as MEMSYS_PEND | ticket (memsys.h)
 * and memsys asks for it later: ddrctl_sync(st, t) tells the controller
 * that no request will come with `now` < t (it decides every command that
 * can no longer change), ddrctl_resolve() gives a ticket's completion (0
 * while it is not known), ddrctl_lb() a cycle no unknown completion is
 * earlier than (UINT64_MAX: none unknown), ddrctl_wait() runs the
 * controller until the ticket is known (for callers without a scheduler:
 * later requests with an earlier `now` then count as late).
 */
extern const struct memmodel_ops memmodel_ddrctl;
void ddrctl_sync(void *st, uint64_t t);
uint64_t ddrctl_resolve(void *st, uint64_t pend);
uint64_t ddrctl_lb(const void *st);
uint64_t ddrctl_wait(void *st, uint64_t pend);
uint64_t ddrctl_known(const void *st); /* completions found so far */
/* From now on call fn(ctx, sent, done) as each read's completion is found:
 * the cycle it was sent (request's now) and its completion (fn NULL:
 * stop).  For a caller that wants every read's latency (--profile-mem,
 * --replay-mem).  0, or -1 out of memory. */
typedef void ddrctl_watch_fn(void *ctx, uint64_t sent, uint64_t done);
int ddrctl_watch(void *st, ddrctl_watch_fn *fn, void *ctx);

/* The mess model (memmodel_mess.c). */
extern const struct memmodel_ops memmodel_mess;
/* --trace-mem, --profile-mem: if either file is set, wrap mm so that every
 * transfer is also written to the trace as "cycle r|w address source" and counted in the
 * profile's windows (memmodel_trace.c).  0 or -1 + err. */
int memmodel_trace(struct memmodel *mm, const struct memsys_cfg *cfg, char *err, size_t errlen);
/* The wrapper's keys (trace-mem, profile-mem, profile-window) and defaults. */
extern const struct memsys_key memmodel_trace_keys[];
extern const size_t memmodel_trace_nkeys;
void memmodel_trace_defaults(struct memsys_cfg *cfg);
/* Key group g in *keys, *n: model g's keys for g < the number of models,
 * then the trace wrapper's; returns 0 past the end. */
int memmodel_keys_at(size_t g, const struct memsys_key **keys, size_t *n);

/* hostsim --replay-mem (memmodel_replay.c): the trace in `in` (a
 * --trace-mem file with addresses; `name` for messages) sent through a
 * fresh model of cfg open loop, each transfer at its cycle, in cycle
 * order; the model's counts in *ms.  0, or -1 + err ("NAME:LINE: reason"
 * for a bad line). */
struct memmodel_replay {
	uint64_t reads, writes;
	uint64_t first, last;        /* cycles: the first transfer sent, the last completion (ddr: data) */
	uint64_t lat_sum, lat_max;   /* reads, cycles from sent to completion */
};
int memmodel_replay(const struct memsys_cfg *cfg, FILE *in, const char *name, struct memmodel_replay *r,
                    struct memsys_model_stats *ms, char *err, size_t errlen);

/* Look a model up by name ("dram" is simple-dram); NULL if unknown. */
const struct memmodel_ops *memmodel_find(const char *name);
/* The i-th model of the table, NULL past the end. */
const struct memmodel_ops *memmodel_at(size_t i);
/* Every model's parameter defaults, and checks (first failure). */
void memmodel_defaults(struct memsys_cfg *cfg);
int memmodel_check(const struct memsys_cfg *cfg, char *err, size_t errlen);
/* Space-separated list of model names, for messages. */
const char *memmodel_names(void);

/* 0, or -1 + err (unknown name or refused configuration). */
int memmodel_open(struct memmodel *mm, const struct memsys_cfg *cfg, char *err, size_t errlen);
void memmodel_close(struct memmodel *mm);

/* A transfer for source src (a hart, < MEMSYS_MAX_HARTS). */
static inline uint64_t memmodel_request_src(struct memmodel *mm, uint64_t line_addr, int is_write, uint64_t now,
                                            unsigned src)
{
	return mm->ops->request(mm->st, line_addr, is_write, now, src);
}

/* The same from source 0 (tests, single-source callers). */
static inline uint64_t memmodel_request(struct memmodel *mm, uint64_t line_addr, int is_write, uint64_t now)
{
	return mm->ops->request(mm->st, line_addr, is_write, now, 0);
}

#endif
