/* rvmess curves CSV [-o DIR] [--peak GBPS]: metrics and plots from a Mess 2 CSV file. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cmds.h"
#include "cli/curves.h"
#include "cli/lat.h"
#include "cli/mess_out.h"
#include "cli/out.h"
#include "mess/textin.h"

#define USAGE "usage: rvmess curves MESS.csv [-o DIR] [--peak GBPS]\n"

static int usage(void)
{
	fprintf(stderr, USAGE "(rvmess curves --help explains the options)\n");
	return 2;
}

static int help(void)
{
	printf(USAGE
	       "Read a Mess 2 curve CSV (docs/formats.md; e.g. a parse's mess.csv) and print\n"
	       "its Mess metrics.  A bad file is refused as FILE:LINE: reason.\n"
	       "  -o DIR        also write DIR/bwlat/ (the Mess simulator's 51 curve files),\n"
	       "                DIR/mess.svg, mess_read.svg and mess.csv (its smoothing recomputed from\n"
	       "                the measured columns), replaced all at once or not at all\n"
	       "  --peak GBPS   the memory's theoretical peak in GB/s (0.001..%g): saturated\n"
	       "                bandwidth is also shown as %% of it\n"
	       "Exit status: 0 ok; 1 bad CSV; 2 usage or I/O error.\n", MESS_MAX_GBPS);
	return 0;
}

int cmd_curves(int argc, char **argv)
{
	const char *csv = NULL, *dir = NULL;
	double peak = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
			dir = argv[++i];
		} else if (strcmp(argv[i], "--peak") == 0 && i + 1 < argc) {
			if (mess_parse_peak(argv[++i], &peak) < 0) {
				fprintf(stderr, "rvmess curves: --peak wants a bandwidth in GB/s in 0.001..%g, got '%s'\n", MESS_MAX_GBPS, argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			return help();
		} else if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--peak") == 0) {
			fprintf(stderr, "rvmess curves: option '%s' needs a value\n", argv[i]);
			return usage();
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "rvmess curves: unknown option '%s'\n", argv[i]);
			return usage();
		} else if (!csv) {
			csv = argv[i];
		} else {
			fprintf(stderr, "rvmess curves: unexpected argument '%s'\n", argv[i]);
			return usage();
		}
	}
	if (!csv)
		return usage();
	FILE *in = mess_text_open(csv); /* a regular file, as every curve reader wants */
	if (!in) {
		fprintf(stderr, "rvmess curves: %s: %s\n", csv, mess_text_strerror(errno));
		return 2;
	}
	struct mess_family f;
	char err[512];
	int rc = mess_read_csv(in, &f, err, sizeof err);
	fclose(in);
	if (rc < 0) {
		fprintf(stderr, "rvmess curves: %s:%s\n", csv, err);
		return 1;
	}
	struct mess_metrics m;
	if (mess_metrics(&f, peak, 0, &m) < 0) {
		mess_family_free(&f);
		fprintf(stderr, "rvmess curves: out of memory\n");
		return 2;
	}
	mess_metrics_print(&m, stdout);
	double unl = m.unloaded_lat_ns;
	mess_metrics_free(&m);
	rc = 0;
	if (dir) {
		struct outdir od;
		FILE *o = NULL;
		int bad = outdir_open(&od, dir, "curves") < 0 ||
		          (outdir_input(&od, csv), !(o = outdir_create(&od, "mess.csv"))) || mess_write_csv(&f, o) < 0 ||
		          outdir_close(&od, o) < 0 ||
		          mess_write_svg(&f, NULL, &od, "mess.svg", csv, peak, unl) < 0 ||
		          mess_write_svg_by_read(&f, &od, "mess_read.svg", csv, peak, unl) < 0 ||
		          mess_write_bwlat_dir(&f, &od, "bwlat", err, sizeof err) < 0;

		if (outdir_finish(&od, bad, "curves", err) < 0)
			rc = 2;
		else
			printf("rvmess curves: wrote %s/ (mess.csv mess.svg mess_read.svg bwlat/)\n", dir);
	}
	mess_family_free(&f);
	return rc;
}
