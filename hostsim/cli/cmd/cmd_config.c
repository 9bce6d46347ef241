/* rvmess config IMAGE [key=value ...] [--file CFG] [-o OUT]; rvmess config --help [--markdown] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cmd/cmds.h"
#include "cli/config.h"
#include "cli/elf.h"

struct config_args {
	const char *out, *files[16];
	int nfiles, help, markdown;
};

static int add_file(void *args, const char *val, char *why, size_t len)
{
	struct config_args *a = args;

	if (a->nfiles == 16) {
		snprintf(why, len, "too many --file options");
		return -1;
	}
	a->files[a->nfiles++] = val;
	return 0;
}

#define F(x) offsetof(struct config_args, x)
static const struct cli_opt config_options[] = {
	{ .name = "--file", .kind = CLI_CALL, .call = add_file, .meta = "CFG", .flags = CLI_MANY, .lines = 1,
	  .help = "assignments from a file, one key=value a line (# comments), before the command line's" },
	{ .name = "-o", .kind = CLI_STR, .off = F(out), .meta = "OUT", .lines = 1,
	  .help = "write the patched image to OUT (default: IMAGE, or the file a symbolic link IMAGE points to, "
		  "replaced atomically; an OUT that is a symbolic link is refused)" },
	{ .name = "--help", .alias = "-h", .kind = CLI_FLAG, .off = F(help), .lines = 2, .req = 2 },
	{ .name = "--markdown", .kind = CLI_FLAG, .off = F(markdown), .lines = 2,
	  .help = "with --help: the keys as the table of docs/formats.md" },
};
#undef F
static const struct cli_line config_usage[] = { { .args = "IMAGE [key=value ...]" }, { .args = NULL } };
const struct cli_cmd config_command = {
	.name = "config", .run = cmd_config, .summary = "show or rewrite an image's config block",
	.lines = config_usage, .nlines = CLI_N(config_usage), .opts = config_options, .nopts = CLI_N(config_options),
	.max_pos = -1, .flags = CLI_BARE,
};

static int help(int markdown)
{
	if (!markdown) {
		cli_print_usage(stdout, &config_command, "usage: ", "       ");
		printf("  no assignment: print the image's config block as key=value lines\n"
		       "  assignments (--file first, then the command line): validate all against\n"
		       "  the limits the image applies, then write the patched image\n"
		       "  numbers: decimal, optional suffix K, M, G, T or KiB, MiB, GiB, TiB (x1024^n)\n");
		cli_print_options(stdout, &config_command);
		printf("\nkeys:\n");
	}
	cfg_help(stdout, markdown);
	return 0;
}

int cmd_config(int argc, char **argv)
{
	struct config_args a = { .nfiles = 0 };
	struct cli_res res;
	const char *image = NULL, *out;
	char *target = NULL;
	int nassign, errors = 0, rc = cli_parse(&config_command, argc, argv, &a, &res);
	unsigned char *buf = NULL;
	size_t len;
	struct elf_section sec;
	struct rvm_config cfg;
	struct stat st, lst;
	char why[256], key[128];

	if (rc || a.help || a.markdown || !res.npos) {
		cli_res_free(&res);
		if (rc == 2)
			return 2;
		if (rc == CLI_HELP || a.help)
			return help(a.markdown);
		if (a.markdown)
			fprintf(stderr, "rvmess config: --markdown goes with --help\n");
		return cli_usage(&config_command);
	}
	rc = 2;
	image = argv[res.pos[0]];
	nassign = res.npos - 1;
	out = a.out;

	buf = cfg_read_all(image, &len);
	if (!buf) {
		fprintf(stderr, "rvmess: %s: %s\n", image, strerror(errno));
		goto done;
	}
	if (stat(image, &st) < 0) {
		fprintf(stderr, "rvmess: %s: %s\n", image, strerror(errno));
		goto done;
	}
	switch (elf_find_section(buf, len, RVM_CFG_SECTION, &sec, why, sizeof(why))) {
	case -1:
		fprintf(stderr, "rvmess: %s: not a RISC-V ELF64 image: %s\n", image, why);
		goto done;
	case 1:
		fprintf(stderr, "rvmess: %s: no %s section (not an rvmess image?)\n", image, RVM_CFG_SECTION);
		goto done;
	default:
		break;
	}
	if (cfg_block_read(buf + sec.offset, (size_t)sec.size, &cfg, why, sizeof(why)) < 0) {
		fprintf(stderr, "rvmess: %s: %s: %s\n", image, RVM_CFG_SECTION, why);
		goto done;
	}
	if (a.nfiles == 0 && nassign == 0 && !out) {
		cfg_print(stdout, &cfg);
		rc = 0;
		goto done;
	}

	for (int i = 0; i < a.nfiles; i++)
		if (cfg_apply_file(&cfg, a.files[i], &errors) < 0)
			goto done;
	for (int k = 1; k < res.npos; k++) /* named by their place in argv */
		if (cfg_assign(&cfg, argv[res.pos[k]], key, sizeof(key), why, sizeof(why)) < 0) {
			fprintf(stderr, "argument %d: %s: %s\n", res.pos[k], key, why);
			errors++;
		}
	if (!errors)
		errors = cfg_check_block(&cfg, stderr, "rvmess config: the image would refuse");
	if (errors) {
		fprintf(stderr, "rvmess config: %s not changed (%d error%s)\n", image, errors,
			errors == 1 ? "" : "s");
		rc = 1;
		goto done;
	}
	cfg_block_write(&cfg, buf + sec.offset);
	if (!out && lstat(image, &lst) == 0 && S_ISLNK(lst.st_mode)) {
		/* in place through a symbolic link: replace the file it names, in its directory */
		target = realpath(image, NULL);
		if (!target) {
			fprintf(stderr, "rvmess: %s: %s\n", image, strerror(errno));
			goto done;
		}
		out = target;
	} else if (!out) {
		out = image;
	} else if (lstat(out, &lst) == 0 && S_ISLNK(lst.st_mode)) {
		fprintf(stderr, "rvmess config: %s is a symbolic link; not writing through it "
				"(name the file itself, or no -o to patch IMAGE in place)\n", out);
		goto done;
	}
	if (cfg_write_atomic(out, buf, len, st.st_mode & 07777) < 0) {
		fprintf(stderr, "rvmess: %s: %s\n", out, strerror(errno));
		goto done;
	}
	if (target)
		printf("rvmess config: wrote %s (through %s)\n", target, image);
	else
		printf("rvmess config: wrote %s\n", out);
	rc = 0;
done:
	cli_res_free(&res);
	free(target);
	free(buf);
	return rc;
}
