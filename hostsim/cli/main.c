/* rvmess: the host tool.  Thin dispatcher over the commands of
 * hostsim/cli/cmd/ (cmds.h). */
#include <stdio.h>
#include <string.h>

#include "cli/cmd/cmds.h"
#include "rvmess_version.h"

static const struct cli_cmd *const cmds[] = {
	&parse_command, &config_command, &curves_command, &compare_command,
	&plan_command, &merge_command, &sim_command, &capture_command,
};

/* Every command's usage lines (from its option table) and what it does. */
static void usage(FILE *f)
{
	fprintf(f, "usage: rvmess <command> [args]   (rvmess <command> --help explains its options)\ncommands:\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		cli_print_usage(f, cmds[i], "  ", "  ");
		fprintf(f, "      %s\n", cmds[i]->summary);
	}
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
		if (strcmp(argv[1], cmds[i]->name) == 0)
			return cmds[i]->run(argc - 1, argv + 1);
	fprintf(stderr, "rvmess: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
