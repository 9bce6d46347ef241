/* rvmess: the host tool.  Thin dispatcher over hostsim/cli/cmds.h. */
#include <stdio.h>
#include <string.h>

#include "cli/cmds.h"
#include "rvmess_version.h"

struct rvm_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;
};

static const struct rvm_cmd cmds[] = {
	{ "parse", cmd_parse, "parse LOG -o DIR [--quiet] [--tol PCT] [--peak GBPS] [--issued] [--target NAME]  validate a console log, write CSV/xgraph/cache levels" },
	{ "config", cmd_config, "config IMAGE [key=value ...] [--file CFG] [-o OUT]  show or rewrite an image's config block" },
	{ "curves", cmd_curves, "curves MESS.csv [-o DIR] [--peak GBPS]  metrics, SVG and Mess simulator curves from a Mess CSV" },
	{ "compare", cmd_compare, "compare RUN_A RUN_B [-o DIR]  two parsed runs side by side (levels, latency, Mess, curve differences)" },
	{ "plan", cmd_plan, "plan IMAGE -o DIR [key=value ...] [--target T] [--sim OPTS]... [--split point|curve] [--adaptive PCT]  split a grid into jobs (docs/sweeps.md)" },
	{ "merge", cmd_merge, "merge PLAN -o OUT | merge PLAN --todo  a plan's job logs as one family per configuration; the jobs left to run" },
	{ "sim", cmd_sim, "sim info|curves|run|trace|sweep|profile|loop|bench FAMILY ...  the Mess analytical simulator without a CPU (docs/mess.md)" },
	{ "capture", cmd_capture, "capture DEVICE|- -o LOG [--baud N] [--timeout S] [--out DIR]  record a serial console until the end record, then parse it" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: rvmess <command> [args]\ncommands:\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  rvmess %s\n", cmds[i].usage);
	fprintf(f, "  rvmess help\n  rvmess --version\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("rvmess %s\n", RVMESS_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].run(argc - 1, argv + 1);
	fprintf(stderr, "rvmess: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
