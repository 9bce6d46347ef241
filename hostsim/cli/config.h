/*
 * The image config block (firmware/include/rvmess/config.h) on the host:
 * read/check, print as key=value lines, validated assignments, and the key
 * list for --help and the docs.  Keys, defaults and limits come from the
 * shared table (firmware/include/rvmess/cfgschema.h), so the host refuses
 * what the image would refuse.
 */
#ifndef RVMESS_CLI_CONFIG_H
#define RVMESS_CLI_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rvmess/config.h"

/* Copy a block out of section bytes and check magic, version, size and the
 * list counts.  0, or -1 with a reason. */
int cfg_block_read(const unsigned char *p, size_t n, struct rvm_config *c, char *why, size_t whylen);
/* Copy a block back into section bytes (n >= sizeof). */
void cfg_block_write(const struct rvm_config *c, unsigned char *p);

/* All keys, one "key=value" line each, in block order. */
void cfg_print(FILE *f, const struct rvm_config *c);

/* Set one key from its text value after validating it against the key's
 * range (the image's limits).  0, or -1 with a reason (without the key) in
 * why; c is unchanged on error. */
int cfg_set(struct rvm_config *c, const char *key, const char *val, char *why, size_t whylen);

/* "key=value" with optional surrounding blanks.  On error, key receives the
 * key (or the whole text when there is no '=') for the message. */
int cfg_assign(struct rvm_config *c, const char *text, char *key, size_t keylen,
	       char *why, size_t whylen);

/* Every check the image makes that does not depend on the target (ranges,
 * multiples, list counts, rules between keys): prints "prefix: key: reason"
 * per problem to f (when f is not NULL) and returns the number of problems. */
int cfg_check_block(const struct rvm_config *c, FILE *f, const char *prefix);

/* The image's default block. */
void cfg_default(struct rvm_config *c);

/* The keys with type, default, accepted values and help: a text table, or
 * the Markdown table of docs/formats.md. */
void cfg_help(FILE *f, int markdown);

/* File helpers of `rvmess config`, shared with plan, sim and sweep.c:
 * a whole file (NULL with errno), an atomic replace through a temp file in
 * the same directory, and a key=value file applied to c (problems reported as
 * "FILE:LINE: key: reason" on stderr, counted in *errors; -1 on I/O error). */
#include <sys/types.h>
unsigned char *cfg_read_all(const char *path, size_t *len);
int cfg_write_atomic(const char *target, const unsigned char *buf, size_t len, mode_t mode);
int cfg_apply_file(struct rvm_config *c, const char *path, int *errors);

#endif
