/* CSV writer and reader: see csv.h. */
#include "cli/csv.h"
#include "cli/out.h"
#include "cli/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "mess/textin.h"


int csv_open(struct csv *c, struct outdir *od, const char *name, const char *header)
{
	memset(c, 0, sizeof(*c));
	c->f = outdir_create(od, name);
	if (!c->f)
		return -1;
	c->od = od;
	if (header && fprintf(c->f, "%s\n", header) < 0)
		c->err = errno ? errno : EIO;
	return 0;
}

void csv_write_cell(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
}

static void sep(struct csv *c)
{
	if (c->col++)
		fputc(',', c->f);
}

void csv_str(struct csv *c, const char *s)
{
	sep(c);
	csv_write_cell(c->f, s);
}

void csv_u64(struct csv *c, uint64_t v)
{
	sep(c);
	fprintf(c->f, "%llu", (unsigned long long)v);
}

void csv_fix(struct csv *c, double v, int decimals)
{
	sep(c);
	fprintf(c->f, "%.*f", decimals, v);
}

void csv_empty(struct csv *c)
{
	sep(c);
}

void csv_row_end(struct csv *c)
{
	if (fputc('\n', c->f) == EOF && !c->err)
		c->err = errno ? errno : EIO;
	c->col = 0;
}

int csv_close(struct csv *c)
{
	int err = c->err;

	if (!c->f)
		return 0;
	if (outdir_close(c->od, c->f) != 0 && !err)
		err = errno ? errno : EIO;
	memset(c, 0, sizeof(*c));
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

/* ---- reader ------------------------------------------------------------- */

static void add_cell(struct csv_table *t, const char *s, size_t n)
{
	size_t r = t->nrows - 1, k = t->ncells[r];
	char *d = xrealloc(NULL, n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	t->cells[r] = xrealloc(t->cells[r], (k + 1) * sizeof(char *));
	t->cells[r][k] = d;
	t->ncells[r] = k + 1;
}

static void add_row(struct csv_table *t)
{
	t->cells = xrealloc(t->cells, (t->nrows + 1) * sizeof(*t->cells));
	t->ncells = xrealloc(t->ncells, (t->nrows + 1) * sizeof(*t->ncells));
	t->cells[t->nrows] = NULL;
	t->ncells[t->nrows] = 0;
	t->nrows++;
}

int csv_parse(const char *buf, size_t len, struct csv_table *t)
{
	size_t i = 0;
	char *cell = xrealloc(NULL, len + 1);

	memset(t, 0, sizeof(*t));
	while (i < len) {
		add_row(t);
		for (;;) {
			size_t n = 0;

			if (i < len && buf[i] == '"') {
				i++;
				for (;;) {
					if (i >= len) {
						free(cell);
						csv_table_free(t);
						errno = EINVAL;
						return -1;
					}
					if (buf[i] == '"') {
						if (i + 1 < len && buf[i + 1] == '"') {
							cell[n++] = '"';
							i += 2;
							continue;
						}
						i++;
						break;
					}
					cell[n++] = buf[i++];
				}
			} else {
				while (i < len && buf[i] != ',' && buf[i] != '\n' && buf[i] != '\r')
					cell[n++] = buf[i++];
			}
			add_cell(t, cell, n);
			if (i < len && buf[i] == ',') {
				i++;
				continue;
			}
			if (i < len && buf[i] == '\r')
				i++;
			if (i < len && buf[i] == '\n')
				i++;
			break;
		}
	}
	free(cell);
	return 0;
}

int csv_read(const char *path, struct csv_table *t)
{
	FILE *f = mess_text_open(path); /* a regular file: never a FIFO that blocks */
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	int rc;

	memset(t, 0, sizeof(*t));
	if (!f)
		return -1;
	do {
		if (cap - len < 4096) {
			cap = cap ? 2 * cap : 65536;
			buf = xrealloc(buf, cap);
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		fclose(f);
		free(buf);
		errno = EIO;
		return -1;
	}
	fclose(f);
	rc = csv_parse(buf, len, t);
	free(buf);
	return rc;
}

void csv_table_free(struct csv_table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t k = 0; k < t->ncells[r]; k++)
			free(t->cells[r][k]);
		free(t->cells[r]);
	}
	free(t->cells);
	free(t->ncells);
	memset(t, 0, sizeof(*t));
}
