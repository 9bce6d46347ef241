/* rvmess config IMAGE [key=value ...] [--file CFG] [-o OUT]; rvmess config --help [--markdown] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmds.h"
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

static void usage_text(FILE *f)
{
	fprintf(f, "usage: rvmess config IMAGE [key=value ...] [--file CFG] [-o OUT]\n"
		   "       rvmess config --help [--markdown]\n"
		   "  no assignment: print the image's config block as key=value lines\n"
		   "  assignments (--file first, then the command line): validate all against\n"
		   "  the limits the image applies, then write the patched image to OUT\n"
		   "  (default: IMAGE, or the file a symbolic link IMAGE points to, replaced\n"
		   "  atomically; an OUT that is a symbolic link is refused)\n"
		   "  numbers: decimal, optional suffix K, M, G, T or KiB, MiB, GiB, TiB (x1024^n)\n");
}

static int usage(void)
{
	usage_text(stderr);
	return 2;
}

static int help(int markdown)
{
	if (!markdown) {
		usage_text(stdout);
		printf("\nkeys:\n");
	}
	cfg_help(stdout, markdown);
	return 0;
}

int cmd_config(int argc, char **argv)
{
	const char *image = NULL, *out = NULL;
	const char *files[16];
	char *target = NULL;
	int nfiles = 0, nassign = 0, errors = 0, rc = 2, want_help = 0, markdown = 0;
	unsigned char *buf;
	size_t len;
	struct elf_section sec;
	struct rvm_config cfg;
	struct stat st, lst;
	char why[256], key[128];

	for (int i = 1; i < argc; i++) {
		if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--file") == 0) && i + 1 == argc) {
			fprintf(stderr, "rvmess config: option %s needs a value\n", argv[i]);
			return usage();
		} else if (strcmp(argv[i], "-o") == 0) {
			out = argv[++i];
		} else if (strcmp(argv[i], "--file") == 0) {
			if (nfiles == 16) {
				fprintf(stderr, "rvmess config: too many --file options\n");
				return 2;
			}
			files[nfiles++] = argv[++i];
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			want_help = 1;
		} else if (strcmp(argv[i], "--markdown") == 0) {
			markdown = 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "rvmess config: unknown option '%s'\n", argv[i]);
			return usage();
		} else if (!image) {
			image = argv[i];
		} else {
			nassign++;
		}
	}
	if (want_help)
		return help(markdown);
	if (markdown) {
		fprintf(stderr, "rvmess config: --markdown goes with --help\n");
		return usage();
	}
	if (!image)
		return usage();

	buf = cfg_read_all(image, &len);
	if (!buf) {
		fprintf(stderr, "rvmess: %s: %s\n", image, strerror(errno));
		return 2;
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
	if (nfiles == 0 && nassign == 0 && !out) {
		cfg_print(stdout, &cfg);
		rc = 0;
		goto done;
	}

	for (int i = 0; i < nfiles; i++)
		if (cfg_apply_file(&cfg, files[i], &errors) < 0)
			goto done;
	{
		int seen_image = 0;

		for (int i = 1; i < argc; i++) {
			if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--file") == 0) && i + 1 < argc) {
				i++;
				continue;
			}
			if (!seen_image) {
				seen_image = 1;
				continue;
			}
			if (cfg_assign(&cfg, argv[i], key, sizeof(key), why, sizeof(why)) < 0) {
				fprintf(stderr, "argument %d: %s: %s\n", i, key, why);
				errors++;
			}
		}
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
	free(target);
	free(buf);
	return rc;
}
