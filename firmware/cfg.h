/* Config block access (firmware/cfg.c). */
#ifndef RVMESS_CFG_INTERNAL_H
#define RVMESS_CFG_INTERNAL_H

#include "rvmess/config.h"

void cfg_load(struct rvm_config *c);
/* Prints one `err what=config` per problem; returns the number of problems. */
int cfg_check(const struct rvm_config *c, uint64_t heap_size);
void cfg_record(const struct rvm_config *c);

#endif
