/* rvmess config IMAGE [key=value ...] [--file CFG] [-o OUT]; rvmess config --help [--markdown] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmd/cmds.h"
#include "cli/config.h"
#include "cli/elf.h"

unsigned char *cfg_read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	do {
		if (cap - *len < 65536) {
			unsigned char *nb;

			cap = cap ? 2 * cap : 1 << 20;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n > 0);
	if (ferror(f)) {
		int e = errno ? errno : EIO;

		free(buf);
		fclose(f);
		errno = e;
		return NULL;
	}
	fclose(f);
	return buf;
}

/* Write buf to target through a temp file in the same directory + rename. */
int cfg_write_atomic(const char *target, const unsigned char *buf, size_t len, mode_t mode)
{
	size_t n = strlen(target);
	char *tmp = malloc(n + 8);
	int fd, e;
	size_t off = 0;

	if (!tmp)
		return -1;
	memcpy(tmp, target, n);
	memcpy(tmp + n, ".XXXXXX", 8);
	fd = mkstemp(tmp);
	if (fd < 0) {
		e = errno;
		free(tmp);
		errno = e;
		return -1;
	}
	while (off < len) {
		ssize_t w = write(fd, buf + off, len - off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		off += (size_t)w;
	}
	if (fchmod(fd, mode) < 0 || fsync(fd) < 0)
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, target) < 0)
		goto fail;
	free(tmp);
	return 0;
fail:
	e = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	errno = e;
	return -1;
}

int cfg_apply_file(struct rvm_config *c, const char *path, int *errors)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, key[128], why[256];
	size_t cap = 0;
	ssize_t len;
	unsigned long ln = 0;

	if (!f) {
		fprintf(stderr, "rvmess: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		char *h, *p = line;
		size_t n = (size_t)len;

		ln++;
		if (n > 4095) {
			fprintf(stderr, "%s:%lu: line too long (%zu bytes, at most 4095)\n", path, ln, n);
			(*errors)++;
			continue;
		}
		if (strlen(line) != n) { /* the rest of the line would be lost unseen */
			fprintf(stderr, "%s:%lu: a NUL byte in the line (column %zu)\n", path, ln, strlen(line) + 1);
			(*errors)++;
			continue;
		}
		h = strchr(line, '#');
		if (h)
			*h = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		n = strlen(p);
		while (n && (p[n - 1] == '\n' || p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t'))
			p[--n] = '\0';
		if (!n)
			continue;
		if (cfg_assign(c, p, key, sizeof(key), why, sizeof(why)) < 0) {
			fprintf(stderr, "%s:%lu: %s: %s\n", path, ln, key, why);
			(*errors)++;
		}
	}
	free(line);
	if (ferror(f)) {
		fprintf(stderr, "rvmess: %s: read error\n", path);
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

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
