/*
 * Console log reader: finds the records of docs/protocol.md in a captured
 * console log, validates each one (prefix, sequence number, type, h= field,
 * key=value syntax, CRC-32) and keeps the good ones in sequence order.
 *
 * Diagnostics go to a FILE (stderr in the CLI) as "LOG:LINE: reason" so every
 * later command that reads a log reports problems the same way.
 */
#ifndef RVMESS_CLI_LOG_H
#define RVMESS_CLI_LOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct rvm_field {
	char *key;
	char *val;
};

struct rvm_rec {
	uint64_t seq;
	char *type;              /* lowercase word */
	uint64_t hart;           /* the h= field */
	unsigned long line;      /* 1-based line number in the log */
	size_t nfields;          /* fields after h=, in order */
	struct rvm_field *fields;
	char *text;              /* the record from '@' up to (not including) " *" */
	int known;               /* 1 when the type is one of docs/protocol.md */
};

enum rvm_status { RVM_STATUS_NONE = 0, RVM_STATUS_OK, RVM_STATUS_FAIL };

struct rvm_log {
	char *path;              /* name used in diagnostics */
	struct rvm_rec *recs;    /* good records, ascending seq, one per seq */
	size_t nrecs;
	size_t bad;              /* prefix occurrences that failed validation,
	                          * plus same-seq records with different content */
	size_t duplicates;       /* identical repeats, dropped */
	size_t conflicts;        /* same seq, different content (counted in bad) */
	uint64_t missing;        /* sequence numbers absent between 0 and the end */
	size_t unknown;          /* records of unknown types (kept) */
	size_t harts;            /* distinct harts that printed a `hart` record */
	int has_hdr;             /* seq 0 is a hdr record */
	int has_end;
	int complete;            /* hdr, end, and every seq in between */
	enum rvm_status status;  /* the end record's status */
	unsigned long lines;     /* lines in the file */
	size_t runs;             /* hdr records that start a run: more than 1 is
	                          * two runs in one log, refused (not clean) */
	size_t out_of_order;     /* records whose seq is below one on an earlier
	                          * line (the lines were reordered): a notice */
};

/* Read and validate a log file.  Returns 0 on success (whatever the log's
 * quality), -1 on an I/O error with errno set: ENODEV for a device (a log is
 * a file or a stream), EISDIR, EFBIG past RVM_LOG_MAX bytes (/dev/zero
 * through a pipe ends there, not when memory runs out).  diag may be NULL. */
#define RVM_LOG_MAX (1ull << 30)
int rvm_log_read(const char *path, FILE *diag, struct rvm_log *log);
/* The same with another size limit (tests). */
int rvm_log_read_max(const char *path, size_t max, FILE *diag, struct rvm_log *log);
/* errno of rvm_log_read as a reason: ENODEV and EFBIG in words, else strerror. */
const char *rvm_log_strerror(int e);

/* Same on a buffer (may contain NULs; need not end with a newline). */
int rvm_log_read_mem(const char *name, const char *buf, size_t len, FILE *diag,
		     struct rvm_log *log);

void rvm_log_free(struct rvm_log *log);

/* 1 when complete, one run, no bad record and end status=ok. */
int rvm_log_clean(const struct rvm_log *log);

/* Validate one record (text from '@', without line ending).  Returns 0 and
 * fills rec (caller frees with rvm_rec_free), or -1 with a reason in why. */
int rvm_rec_parse(const char *s, size_t len, struct rvm_rec *rec, char *why, size_t whylen);
void rvm_rec_free(struct rvm_rec *rec);

/* Field access.  logrec_get returns the value string or NULL. */
const char *logrec_get(const struct rvm_rec *rec, const char *key);
/* Unsigned decimal or 0x hex; 0 on success, -1 when missing or not a number. */
int logrec_u64(const struct rvm_rec *rec, const char *key, uint64_t *v);
/* A number that may be fixed point ("12.345") or integer; 0 on success. */
int logrec_double(const struct rvm_rec *rec, const char *key, double *v);

/* Next record of a type at index >= *it; NULL at the end.  Start with *it = 0. */
const struct rvm_rec *rvm_log_next(const struct rvm_log *log, const char *type, size_t *it);
size_t rvm_log_count(const struct rvm_log *log, const char *type);

const char *rvm_status_name(enum rvm_status s);

#endif
