/*
 * Fuzz target: a Mess curve CSV (docs/formats.md), as `rvmess curves CSV -o
 * DIR` reads it: metrics, mess.svg and the bwlat/ folder, written into the
 * scratch folder.  The generic CSV reader (csv_parse) gets the same bytes on
 * an exact-size buffer.
 */
#include "fuzz/fuzz.h"

#include "cli/cmds.h"
#include "cli/csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char in[4200], out[4200];
	struct csv_table t;

	if (csv_parse((const char *)data, size, &t) == 0)
		csv_table_free(&t);

	fuzz_write(fuzz_path(in, sizeof(in), "mess.csv"), data, size);
	fuzz_path(out, sizeof(out), "out");
	fuzz_cmd(cmd_curves, NULL, "curves", in, "-o", out, "--peak", "25.6", (char *)NULL);
	return 0;
}
