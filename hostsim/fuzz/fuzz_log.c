/*
 * Fuzz target: the console log (docs/protocol.md) and everything
 * `rvmess parse` computes from it.
 *
 * The input is read as it is by the in-memory reader, on an exact-size
 * buffer (a read past the input is caught; bad checksums, truncation and
 * noise are exercised here).  Then every record candidate gets a correct
 * checksum, so that a mutated field reaches the suite code rather than
 * stopping at "bad crc", and `rvmess parse LOG -o DIR --issued` runs on that
 * copy, writing every output (records.csv, per-suite CSVs, .xg files, cache
 * levels, plots, Mess curves, summary) into the scratch folder.  The
 * fixed copy goes through the in-memory reader too; with RVMESS_FUZZ_LOADER=1
 * that is where the input ends (the loader alone, fuzz.h).
 */
#include "fuzz/fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "cli/cmd/cmds.h"
#include "cli/log.h"
#include "fuzz/fixcrc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char in[4200], out[4200];
	struct rvm_log log;
	char *fixed;

	if (rvm_log_read_mem("fuzz.log", (const char *)data, size, NULL, &log) == 0)
		rvm_log_free(&log);

	fixed = malloc(size ? size : 1);
	if (!fixed)
		abort();
	memcpy(fixed, data, size);
	fuzz_fix_crcs(fixed, size);
	if (rvm_log_read_mem("fixed.log", fixed, size, NULL, &log) == 0)
		rvm_log_free(&log);
	if (fuzz_loader_only()) {
		free(fixed);
		return 0;
	}
	fuzz_write(fuzz_path(in, sizeof(in), "in.log"), fixed, size);
	free(fixed);
	fuzz_path(out, sizeof(out), "out");
	fuzz_cmd(cmd_parse, NULL, "parse", in, "-o", out, "--issued", (char *)NULL);
	return 0;
}
