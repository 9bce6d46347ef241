/*
 * Minimal CSV (RFC 4180) writer and reader.  Cells holding a comma, a quote
 * or a line break are quoted; quotes are doubled.  Lines end with "\n".
 */
#ifndef RVMESS_CLI_CSV_H
#define RVMESS_CLI_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct outdir;

struct csv {
	FILE *f;
	struct outdir *od;
	size_t col;   /* cells written in the current row */
	int err;      /* an I/O error happened */
};

/* Start NAME in the output directory (see out.h: a temporary file until the
 * directory's commit) and write the header row: names separated by commas in
 * one string, e.g. "size,ns".  Returns 0, or -1 with errno set. */
int csv_open(struct csv *c, struct outdir *od, const char *name, const char *header);
void csv_str(struct csv *c, const char *s);
void csv_u64(struct csv *c, uint64_t v);
void csv_fix(struct csv *c, double v, int decimals);  /* "%.<decimals>f" */
void csv_empty(struct csv *c);
void csv_row_end(struct csv *c);
/* Finish (outdir_close); returns 0, or -1 with errno set when any write failed. */
int csv_close(struct csv *c);

/* Write one cell (quoted when needed) to any stream. */
void csv_write_cell(FILE *f, const char *s);

/* Reader: a whole file as rows of cells.  Returns 0, or -1 (errno set, or
 * EINVAL for an unterminated quote). */
struct csv_table {
	size_t nrows;
	size_t *ncells;
	char ***cells;  /* cells[row][col] */
};
int csv_read(const char *path, struct csv_table *t);
int csv_parse(const char *buf, size_t len, struct csv_table *t);
void csv_table_free(struct csv_table *t);

#endif
