/* Output directory: temporary files, rename at commit, manifest (see out.h). */
#include "cli/out.h"
#include "cli/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

struct outfile {
	char *name;   /* relative to the directory */
	char *path;   /* destination */
	char *tmp;    /* temporary file beside it */
	FILE *f;      /* open stream, NULL once closed */
	int ok;       /* closed without error */
};

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xrealloc(NULL, n), s, n);
}

/* Keep the first error; errno is preserved. */
static void seterr(struct outdir *d, const char *path, const char *fmt, ...)
{
	int e = errno;
	va_list ap;
	size_t n;

	if (!d->err[0]) {
		n = (size_t)snprintf(d->err, sizeof(d->err), "%s: ", path);
		if (n < sizeof(d->err)) {
			va_start(ap, fmt);
			vsnprintf(d->err + n, sizeof(d->err) - n, fmt, ap);
			va_end(ap);
		}
	}
	errno = e;
}

const char *outdir_error(const struct outdir *d)
{
	return d->err;
}

char *path_join(char *buf, size_t len, const char *dir, const char *name)
{
	size_t n = strlen(dir);
	int w = snprintf(buf, len, "%s%s%s", dir, (n && dir[n - 1] == '/') ? "" : "/", name);

	if (w < 0 || (size_t)w >= len) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return buf;
}

int mkdir_p(const char *dir)
{
	char buf[PATH_MAX];
	size_t n = strlen(dir);

	if (n == 0) {
		errno = ENOENT;
		return -1;
	}
	if (n >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, dir, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (buf[i] == '/' || buf[i] == '\0') {
			char c = buf[i];
			struct stat st;

			buf[i] = '\0';
			if (mkdir(buf, 0777) < 0 && errno != EEXIST)
				return -1;
			if (stat(buf, &st) < 0)
				return -1;
			if (!S_ISDIR(st.st_mode)) {
				errno = ENOTDIR;
				return -1;
			}
			buf[i] = c;
		}
	}
	return 0;
}

static mode_t file_mode(void)
{
	mode_t m = umask(0);

	umask(m);
	return 0666 & ~m;
}

int outdir_open(struct outdir *d, const char *dir, const char *tag)
{
	size_t n = strlen(dir);

	memset(d, 0, sizeof(*d));
	d->tag = tag;
	d->mode = file_mode();
	if (mkdir_p(dir) < 0) {
		seterr(d, dir, "%s", strerror(errno));
		return -1;
	}
	while (n > 1 && dir[n - 1] == '/')
		n--;
	d->dir = xrealloc(NULL, n + 1);
	memcpy(d->dir, dir, n);
	d->dir[n] = '\0';
	return 0;
}

/* A manifest name: [A-Za-z0-9._-] components, at most "sub/file", no "."
 * or ".." component. */
static int name_ok(const char *name)
{
	int parts = 0;
	const char *p = name;

	for (;;) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		for (size_t i = 0; i < n; i++) {
			char c = p[i];

			if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			      c == '.' || c == '_' || c == '-'))
				return 0;
		}
		if (++parts > 2)
			return 0;
		if (!e)
			return 1;
		p = e + 1;
	}
}

/* An output path: absent (a directory is then created when dir is set), or
 * a regular file (a directory when dir is set); never a symlink. */
static int check_path(struct outdir *d, const char *path, int dir)
{
	struct stat st;

	if (lstat(path, &st) < 0) {
		if (errno == ENOENT && (!dir || mkdir(path, 0777) == 0))
			return 0;
		seterr(d, path, "%s", strerror(errno));
		return -1;
	}
	if (S_ISLNK(st.st_mode)) {
		errno = ELOOP;
		seterr(d, path, "is a symbolic link; rvmess does not write through links "
		       "(remove it, or write to another directory)");
		return -1;
	}
	if (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) {
		errno = dir ? ENOTDIR : S_ISDIR(st.st_mode) ? EISDIR : EEXIST;
		seterr(d, path, "exists and is not a %s", dir ? "directory" : "regular file");
		return -1;
	}
	return 0;
}

FILE *outdir_create(struct outdir *d, const char *name)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	const char *slash = strrchr(name, '/'), *base = slash ? slash + 1 : name;
	struct outfile *o;
	FILE *f;
	int fd, w;

	if (!name_ok(name)) {
		errno = EINVAL;
		seterr(d, name, "not a valid output name");
		return NULL;
	}
	if (!path_join(path, sizeof(path), d->dir, name)) {
		seterr(d, d->dir, "path of '%s' longer than PATH_MAX (%d)", name, PATH_MAX);
		return NULL;
	}
	if (slash) {
		char sub[PATH_MAX];

		memcpy(sub, path, (size_t)(strrchr(path, '/') - path));
		sub[strrchr(path, '/') - path] = '\0';
		if (check_path(d, sub, 1) < 0)
			return NULL;
	}
	if (check_path(d, path, 0) < 0)
		return NULL;
	w = snprintf(tmp, sizeof(tmp), "%.*s.%s.tmp.XXXXXX", (int)(strlen(path) - strlen(base)), path, base);
	if (w < 0 || (size_t)w >= sizeof(tmp)) {
		errno = ENAMETOOLONG;
		seterr(d, path, "path longer than PATH_MAX (%d) with the temporary suffix", PATH_MAX);
		return NULL;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		seterr(d, path, "cannot create a temporary file: %s", strerror(errno));
		return NULL;
	}
	f = fchmod(fd, d->mode) == 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		int e = errno;

		close(fd);
		unlink(tmp);
		errno = e;
		seterr(d, tmp, "%s", strerror(errno));
		return NULL;
	}
	d->files = xrealloc(d->files, (d->nfiles + 1) * sizeof(*d->files));
	o = &d->files[d->nfiles];
	memset(o, 0, sizeof(*o));
	o->f = f;
	o->name = xstrdup(name);
	o->path = xstrdup(path);
	o->tmp = xstrdup(tmp);
	d->nfiles++;
	return o->f;
}

int outdir_close(struct outdir *d, FILE *f)
{
	struct outfile *o = NULL;
	int e = 0;

	for (size_t i = d->nfiles; i-- > 0 && !o;) /* usually the last one */
		if (d->files[i].f == f)
			o = &d->files[i];
	if (!o) {
		errno = EINVAL;
		return -1;
	}
	if (fflush(f) != 0 || ferror(f))
		e = errno ? errno : EIO;
	if (!e && fdatasync(fileno(f)) < 0 && errno != EINVAL && errno != EROFS)
		e = errno;
	if (fclose(f) != 0 && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	if (e) {
		errno = e;
		seterr(d, o->path, "%s", strerror(e));
		return -1;
	}
	o->ok = 1;
	return 0;
}

static void free_files(struct outdir *d)
{
	for (size_t i = 0; i < d->nfiles; i++) {
		struct outfile *o = &d->files[i];

		if (o->f)
			fclose(o->f);
		if (o->tmp)
			unlink(o->tmp);
		free(o->name);
		free(o->path);
		free(o->tmp);
	}
	free(d->files);
	free(d->dir);
	d->files = NULL;
	d->nfiles = 0;
	d->dir = NULL;
}

void outdir_abort(struct outdir *d)
{
	free_files(d);
}

int outdir_finish(struct outdir *d, int failed, const char *cmd, const char *why)
{
	if (!failed) {
		if (outdir_commit(d) == 0)
			return 0;
		fprintf(stderr, "rvmess %s: %s\n", cmd, outdir_error(d));
		return -1;
	}
	fprintf(stderr, "rvmess %s: %s\n", cmd, d->err[0] ? d->err : why);
	if (d->dir)
		fprintf(stderr, "rvmess %s: nothing in %s was changed\n", cmd, d->dir);
	outdir_abort(d);
	return -1;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Is name among this run's files?  names: sorted, n of them. */
static int written(char **names, size_t n, const char *name)
{
	return bsearch(&name, names, n, sizeof(*names), cmp_name) != NULL;
}

/* The previous manifest as one string (NULL when absent or unreadable). */
static char *read_manifest(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW);
	char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;

	if (fd < 0)
		return NULL;
	do {
		if (cap - len < 4096)
			buf = xrealloc(buf, cap = cap ? 2 * cap : 8192);
		n = read(fd, buf + len, cap - len - 1);
		if (n > 0)
			len += (size_t)n;
	} while (n > 0);
	close(fd);
	buf[len] = '\0';
	return buf;
}

static void fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

int outdir_commit(struct outdir *d)
{
	char mpath[PATH_MAX], path[PATH_MAX];
	char *old = NULL, *oend, **names = NULL;
	FILE *m;
	int rc = 0;
	size_t nreal = d->nfiles;

	for (size_t i = 0; i < nreal; i++) {
		if (d->files[i].f && outdir_close(d, d->files[i].f) < 0)
			goto fail;
		if (!d->files[i].ok) {
			errno = EIO;
			seterr(d, d->files[i].path, "not written completely");
			goto fail;
		}
	}
	names = xrealloc(NULL, (nreal ? nreal : 1) * sizeof(*names));
	for (size_t i = 0; i < nreal; i++)
		names[i] = d->files[i].name;
	qsort(names, nreal, sizeof(*names), cmp_name);
	for (size_t i = 1; i < nreal; i++) {
		if (strcmp(names[i - 1], names[i]) == 0) {
			errno = EEXIST;
			seterr(d, names[i], "written twice in one run");
			goto fail;
		}
	}
	if (!path_join(mpath, sizeof(mpath), d->dir, OUTDIR_MANIFEST)) {
		seterr(d, d->dir, "path longer than PATH_MAX");
		goto fail;
	}
	if (check_path(d, mpath, 0) < 0)
		goto fail;
	old = read_manifest(mpath);
	oend = old ? old + strlen(old) : NULL;
	for (char *p = old; p && p < oend; p++) /* one string per line */
		if (*p == '\n')
			*p = '\0';

	/* The new manifest: other commands' entries (minus names this command
	 * now writes), then ours. */
	m = outdir_create(d, OUTDIR_MANIFEST);
	if (!m)
		goto fail;
	fprintf(m, "# Files rvmess wrote in this directory (command name).  A later run of the\n"
		   "# same command removes the ones it does not write again, and nothing else.\n");
	for (char *p = old; p && p < oend; p += strlen(p) + 1) {
		char *sp = strchr(p, ' ');

		if (p[0] == '#' || !sp || !name_ok(sp + 1))
			continue;
		*sp = '\0';
		if (strcmp(p, d->tag) != 0 && !written(names, nreal, sp + 1))
			fprintf(m, "%s %s\n", p, sp + 1);
		*sp = ' ';
	}
	for (size_t i = 0; i < nreal; i++)
		fprintf(m, "%s %s\n", d->tag, d->files[i].name);
	if (outdir_close(d, m) < 0)
		goto fail;

	/* Everything is on disk: replace the old files. */
	for (size_t i = 0; i < d->nfiles; i++) {
		struct outfile *o = &d->files[i];

		if (rename(o->tmp, o->path) < 0) {
			seterr(d, o->path, "cannot rename %s into place: %s", o->tmp, strerror(errno));
			rc = -1;
			continue;
		}
		free(o->tmp);
		o->tmp = NULL;
	}
	if (rc < 0)
		goto fail;

	/* Stale files: this command's previous entries it did not write now.
	 * Only regular files are removed (a link or directory a user put
	 * there stays). */
	if (old) {
		for (char *p = old; p < oend; p += strlen(p) + 1) {
			char *sp = strchr(p, ' ');
			struct stat st;

			if (!sp || strncmp(p, d->tag, (size_t)(sp - p)) != 0 || d->tag[sp - p] != '\0')
				continue;
			if (!name_ok(sp + 1) || written(names, nreal, sp + 1) ||
			    !path_join(path, sizeof(path), d->dir, sp + 1))
				continue;
			if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
				unlink(path);
			if (strchr(sp + 1, '/')) { /* its folder, if now empty */
				*strrchr(path, '/') = '\0';
				rmdir(path);
			}
		}
	}
	fsync_dir(d->dir);
	free(old);
	free(names);
	free_files(d);
	return 0;
fail:
	{
		int e = errno;

		free(old);
		free(names);
		free_files(d);
		errno = e;
	}
	return -1;
}
