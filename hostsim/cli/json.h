/*
 * A small streaming JSON writer (RFC 8259): objects and arrays nested up to
 * JSON_MAX_DEPTH, commas and indentation handled here.  Keys are given for
 * members of an object and NULL for elements of an array.  Numbers that are
 * not finite are written as null (JSON has no NaN or infinity).
 */
#ifndef RVMESS_CLI_JSON_H
#define RVMESS_CLI_JSON_H

#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *f;
	int depth;
	int count[JSON_MAX_DEPTH];  /* members written at each level */
	char kind[JSON_MAX_DEPTH];  /* '{' or '[' */
};

void json_begin(struct json *j, FILE *f);           /* the top-level object */
int json_end(struct json *j);                       /* closes it; 0, or -1 on a write error */
void json_obj(struct json *j, const char *key);     /* open a nested object */
void json_arr(struct json *j, const char *key);     /* open a nested array */
void json_close(struct json *j);                    /* close the innermost object or array */
void json_str(struct json *j, const char *key, const char *s);  /* NULL s: null */
void json_u64(struct json *j, const char *key, uint64_t v);
void json_num(struct json *j, const char *key, double v, int decimals);
void json_bool(struct json *j, const char *key, int v);
void json_null(struct json *j, const char *key);

/* A JSON string literal of s (with quotes), escaped. */
void json_write_string(FILE *f, const char *s);

#endif
