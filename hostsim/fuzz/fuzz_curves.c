/*
 * Fuzz target: a Mess curve CSV (docs/formats.md), as `rvmess curves CSV -o
 * DIR` and `rvmess sim` read it.
 *
 * The loader stage, in memory: the generic CSV reader (csv_parse) and the
 * curve reader (mess_read_csv) on exact-size buffers; an accepted family's
 * metrics and its 51 bwlat curves (mess_bwlat_build), then the simulator's
 * own reader (messsim_family_load) on the same bytes in a file.  With
 * RVMESS_FUZZ_LOADER=1 the input ends there (fuzz.h); else `rvmess curves CSV
 * -o DIR --peak 25.6` runs on it: metrics, mess.svg and the bwlat/ folder,
 * written into the scratch folder.
 */
#include "fuzz/fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd/cmds.h"
#include "cli/csv.h"
#include "cli/curves.h"
#include "mess/messsim.h"

static void loaders(const uint8_t *data, size_t size, const char *path)
{
	struct csv_table t;
	struct mess_family f;
	struct messsim_family sf;
	char err[512];
	char *copy = malloc(size ? size : 1);
	FILE *in;

	if (!copy)
		abort();
	if (csv_parse((const char *)data, size, &t) == 0)
		csv_table_free(&t);
	memcpy(copy, data, size);
	in = size ? fmemopen(copy, size, "r") : fopen("/dev/null", "r");
	if (!in)
		abort();
	if (mess_read_csv(in, &f, err, sizeof err) == 0) {
		struct mess_metrics m;
		struct mess_bwlat b[MESS_NRATIOS];

		if (mess_metrics(&f, 25.6, 0, &m) == 0)
			mess_metrics_free(&m);
		memset(b, 0, sizeof(b));
		if (mess_bwlat_build(&f, b) == 0)
			mess_bwlat_free(b);
		mess_family_free(&f);
	}
	fclose(in);
	free(copy);
	if (messsim_family_load(path, NULL, &sf, err, sizeof err) == 0)
		messsim_family_free(&sf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char in[4200], out[4200];

	fuzz_write(fuzz_path(in, sizeof(in), "mess.csv"), data, size);
	loaders(data, size, in);
	if (fuzz_loader_only())
		return 0;
	fuzz_path(out, sizeof(out), "out");
	fuzz_cmd(cmd_curves, NULL, "curves", in, "-o", out, "--peak", "25.6", (char *)NULL);
	return 0;
}
