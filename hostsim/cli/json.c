/* Streaming JSON writer (see json.h). */
#include "cli/json.h"

#include <math.h>
#include <stdlib.h>

void json_write_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

/* Comma, newline, indentation and "key": before a value. */
static void member(struct json *j, const char *key)
{
	if (j->count[j->depth]++)
		fputc(',', j->f);
	fputc('\n', j->f);
	for (int i = 0; i <= j->depth; i++)
		fputs("  ", j->f);
	if (key) {
		json_write_string(j->f, key);
		fputs(": ", j->f);
	}
}

static void open_level(struct json *j, const char *key, char c)
{
	member(j, key);
	fputc(c, j->f);
	if (j->depth + 1 >= JSON_MAX_DEPTH)
		abort(); /* a programming error: the nesting is fixed by the callers */
	j->depth++;
	j->count[j->depth] = 0;
	j->kind[j->depth] = c;
}

void json_begin(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->count[0] = 0;
	fputc('{', f);
	j->kind[0] = '{';
}

void json_obj(struct json *j, const char *key) { open_level(j, key, '{'); }
void json_arr(struct json *j, const char *key) { open_level(j, key, '['); }

static void close_level(struct json *j)
{
	if (j->count[j->depth]) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(j->kind[j->depth] == '{' ? '}' : ']', j->f);
}

void json_close(struct json *j)
{
	if (j->depth == 0)
		abort();
	close_level(j);
	j->depth--;
}

int json_end(struct json *j)
{
	while (j->depth > 0)
		json_close(j);
	if (j->count[0])
		fputc('\n', j->f);
	fputs("}\n", j->f);
	return ferror(j->f) ? -1 : 0;
}

void json_str(struct json *j, const char *key, const char *s)
{
	member(j, key);
	if (s)
		json_write_string(j->f, s);
	else
		fputs("null", j->f);
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	member(j, key);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void json_num(struct json *j, const char *key, double v, int decimals)
{
	member(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.*f", decimals, v);
	else
		fputs("null", j->f);
}

void json_bool(struct json *j, const char *key, int v)
{
	member(j, key);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
	member(j, key);
	fputs("null", j->f);
}
