/*
 * Fuzz target: the console log (docs/protocol.md) and everything
 * `rvmess parse` computes from it.
 *
 * The input is read twice: by the in-memory reader, on an exact-size buffer
 * (a read past the input is caught), and as a file by `rvmess parse LOG -o
 * DIR --issued`, which writes every output (records.csv, per-suite CSVs, .xg
 * files, cache levels, plots, Mess curves, summary) into the scratch folder.
 */
#include "fuzz/fuzz.h"

#include "cli/cmds.h"
#include "cli/log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char in[4200], out[4200];
	struct rvm_log log;

	if (rvm_log_read_mem("fuzz.log", (const char *)data, size, NULL, &log) == 0)
		rvm_log_free(&log);

	fuzz_write(fuzz_path(in, sizeof(in), "in.log"), data, size);
	fuzz_path(out, sizeof(out), "out");
	fuzz_cmd(cmd_parse, NULL, "parse", in, "-o", out, "--issued", (char *)NULL);
	return 0;
}
