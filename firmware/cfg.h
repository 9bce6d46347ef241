/* Config block access (firmware/cfg.c). */
#ifndef RVMESS_CFG_INTERNAL_H
#define RVMESS_CFG_INTERNAL_H

#include "rvmess/config.h"

/* The block as linked (or rewritten by `rvmess config`); never written at
 * run time, so any hart may read it before the lead has copied it. */
extern const volatile struct rvm_config rvm_config_block;

void cfg_load(struct rvm_config *c);
/* Prints one `err what=config` per problem; returns the number of problems. */
int cfg_check(const struct rvm_config *c, uint64_t heap_size);
void cfg_record(const struct rvm_config *c);

#endif
