/* rvmess curves CSV [-o DIR] [--peak GBPS]: metrics and plots from a Mess 2 CSV file. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cmd/cmds.h"
#include "cli/curves.h"
#include "cli/lat.h"
#include "cli/mess_out.h"
#include "cli/out.h"
#include "mess/textin.h"

struct curves_args {
	const char *dir;
	double peak;
};

#define F(x) offsetof(struct curves_args, x)
static const struct cli_opt curves_options[] = {
	{ .name = "-o", .kind = CLI_STR, .off = F(dir), .meta = "DIR", .lines = 1,
	  .help = "also write DIR/bwlat/ (the Mess simulator's 51 curve files), DIR/mess.svg, mess_read.svg and "
		  "mess.csv (its smoothing recomputed from the measured columns), replaced all at once or not at all" },
	{ .name = "--peak", .kind = CLI_DBL, .off = F(peak), .meta = "GBPS", .lo = 0.001, .hi = MESS_MAX_GBPS,
	  .what = "a bandwidth in GB/s", .lines = 1,
	  .help = "the memory's theoretical peak in GB/s (0.001.." CLI_TEXT(MESS_MAX_GBPS) "): saturated "
		  "bandwidth is also shown as % of it" },
};
#undef F
static const struct cli_line curves_usage[] = { { .args = "MESS.csv" } };
const struct cli_cmd curves_command = {
	.name = "curves", .run = cmd_curves,
	.summary = "metrics, SVG and Mess simulator curves from a Mess CSV",
	.lines = curves_usage, .nlines = CLI_N(curves_usage), .opts = curves_options,
	.nopts = CLI_N(curves_options), .max_pos = 1,
};

static int help(void)
{
	cli_print_usage(stdout, &curves_command, "usage: ", "       ");
	printf("Read a Mess 2 curve CSV (docs/formats.md; e.g. a parse's mess.csv) and print\n"
	       "its Mess metrics.  A bad file is refused as FILE:LINE: reason.\n");
	cli_print_options(stdout, &curves_command);
	printf("Exit status: 0 ok; 1 bad CSV; 2 usage or I/O error.\n");
	return 0;
}

int cmd_curves(int argc, char **argv)
{
	struct curves_args a = { NULL, 0 };
	struct cli_res res;
	int rc = cli_parse(&curves_command, argc, argv, &a, &res);
	const char *csv = res.npos ? argv[res.pos[0]] : NULL, *dir = a.dir;
	double peak = a.peak;

	cli_res_free(&res);
	if (rc)
		return rc == CLI_HELP ? help() : rc;
	if (!csv)
		return cli_usage(&curves_command);
	FILE *in = mess_text_open(csv); /* a regular file, as every curve reader wants */
	if (!in) {
		fprintf(stderr, "rvmess curves: %s: %s\n", csv, mess_text_strerror(errno));
		return 2;
	}
	struct mess_family f;
	char err[512];
	rc = mess_read_csv(in, &f, err, sizeof err);
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
