/* integrity.csv and the integrity verdict: see integ_out.h. */
#include "cli/integ_out.h"

#include <string.h>

#include "cli/csv.h"

/* A hex field as the record has it ("" when absent); -1 when present and not a number. */
static int hex_field(const struct rvm_rec *r, const char *key, char *buf, size_t len)
{
	uint64_t v;

	buf[0] = '\0';
	if (!logrec_get(r, key))
		return 0;
	if (logrec_u64(r, key, &v) < 0)
		return -1;
	snprintf(buf, len, "0x%llx", (unsigned long long)v);
	return 0;
}

int integ_write_outputs(const struct rvm_log *log, struct outdir *od, FILE *diag, size_t *invalid,
                        struct integ_sum *sum)
{
	struct csv c;
	size_t it = 0;
	const struct rvm_rec *r;

	memset(sum, 0, sizeof(*sum));
	if (csv_open(&c, od, "integrity.csv", "check,hart,words,bad,addr,want,got") < 0)
		return -1;
	while ((r = rvm_log_next(log, "integ", &it))) {
		const char *check = logrec_get(r, "check");
		uint64_t hart, words, bad;
		char addr[24], want[24], got[24];

		if (!check || !*check || logrec_u64(r, "hart", &hart) < 0 || logrec_u64(r, "words", &words) < 0 ||
		    logrec_u64(r, "bad", &bad) < 0 || bad > words || hex_field(r, "addr", addr, sizeof(addr)) < 0 ||
		    hex_field(r, "want", want, sizeof(want)) < 0 || hex_field(r, "got", got, sizeof(got)) < 0 ||
		    (bad && (!addr[0] || !got[0]))) {
			if (diag)
				fprintf(diag, "%s:%lu: integ record with missing or bad fields\n", log->path, r->line);
			if (invalid)
				(*invalid)++;
			continue;
		}
		sum->checks++;
		sum->failed += bad != 0;
		sum->words += words;
		sum->bad += bad;
		csv_str(&c, check);
		csv_u64(&c, hart);
		csv_u64(&c, words);
		csv_u64(&c, bad);
		csv_str(&c, addr);
		csv_str(&c, want);
		csv_str(&c, got);
		csv_row_end(&c);
	}
	return csv_close(&c);
}

void integ_print_verdict(FILE *f, const struct integ_sum *sum)
{
	fprintf(f, "integrity: failed=%zu checks=%zu words=%llu bad=%llu\n", sum->failed, sum->checks,
	        (unsigned long long)sum->words, (unsigned long long)sum->bad);
}
