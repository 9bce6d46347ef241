/*
 * The image config block (firmware/include/rvmess/config.h) on the host:
 * load/check, print as key=value lines, and validated assignments.
 */
#ifndef RVMESS_CLI_CONFIG_H
#define RVMESS_CLI_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rvmess/config.h"

/* Copy a block out of section bytes and check magic, version, size and the
 * list counts.  0, or -1 with a reason. */
int cfg_load(const unsigned char *p, size_t n, struct rvm_config *c, char *why, size_t whylen);
/* Copy a block back into section bytes (n >= sizeof). */
void cfg_store(const struct rvm_config *c, unsigned char *p);

/* All keys, one "key=value" line each, in block order. */
void cfg_print(FILE *f, const struct rvm_config *c);

/* Set one key from its text value after validating it.  0, or -1 with a
 * reason (without the key) in why; c is unchanged on error. */
int cfg_set(struct rvm_config *c, const char *key, const char *val, char *why, size_t whylen);

/* "key=value" with optional surrounding blanks.  On error, key receives the
 * key (or the whole text when there is no '=') for the message. */
int cfg_assign(struct rvm_config *c, const char *text, char *key, size_t keylen,
	       char *why, size_t whylen);

/* Number: decimal or 0x hex, optional K/M/G suffix (x1024^n). 0 or -1. */
int cfg_parse_num(const char *s, uint64_t *v);

/* A default block (what the tests and fixtures use as a starting point). */
void cfg_default(struct rvm_config *c);

#endif
