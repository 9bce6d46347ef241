/* Output directory: one transaction per command, committed by one swap (see out.h). */
#define _GNU_SOURCE /* renameat2 */
#include "cli/out.h"
#include "cli/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

#define STAGE_MARK  ".rvmess-stage"        /* in a staging folder: whose it is */
#define INNER_STAGE ".rvmess-stage."       /* a staging folder inside DIR (no swap) */
#define LINK_LIMIT  100000                 /* entries hard-linked for a swap, at most */

struct outfile {
	char *rel;      /* relative to the root: "c0/bwlat/bwlat_50.txt" */
	char *mdir;     /* its manifest folder relative to the root: "" or "c0" */
	char *name;     /* relative to mdir: "bwlat/bwlat_50.txt" */
	char *shown;    /* its path as the user named it, for messages */
	const char *tag;
	unsigned mode;
	FILE *f;
	int ok;
};

struct input {
	dev_t dev;
	ino_t ino;
	char *path;
};

struct outset {
	char *dir;      /* the root as given */
	char *real;     /* its real path */
	char *parent;   /* real's parent folder */
	char *base;     /* real's last component */
	char *stage;    /* the staging folder, once the first file is created */
	int sibling;    /* stage is beside real: a swap is possible */
	int lockfd;
	int flags;
	unsigned mode;  /* of new files */
	struct outfile *files;
	size_t nfiles;
	struct input *in;
	size_t nin;
	char **stale;   /* relative paths the commit removes (sorted) */
	size_t nstale;
	size_t linked;  /* entries hard-linked so far */
	char err[4096 + 256];
};

static const char *last_commit = "none";

/* The tests' kill points: RVMESS_KILL_AT=staged|linked|swapped|filewise
 * makes the process SIGKILL itself there (ci/tests/safety.sh checks what a
 * reader sees then, and that the next run cleans up). */
static void kill_point(const char *point)
{
	const char *k = getenv("RVMESS_KILL_AT");

	if (k && !strcmp(k, point))
		raise(SIGKILL);
}

const char *outdir_last_commit(void)
{
	return last_commit;
}

static char *errbuf(struct outdir *d)
{
	return d->set ? d->set->err : d->err;
}

/* Keep the first error; errno is preserved. */
static void seterr(struct outdir *d, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void seterr(struct outdir *d, const char *path, const char *fmt, ...)
{
	int e = errno;
	char *err = errbuf(d);
	size_t len = sizeof(d->err), n;
	va_list ap;

	if (!err[0]) {
		n = (size_t)snprintf(err, len, "%s: ", path);
		if (n < len) {
			va_start(ap, fmt);
			vsnprintf(err + n, len - n, fmt, ap);
			va_end(ap);
		}
	}
	errno = e;
}

const char *outdir_error(const struct outdir *d)
{
	return d->set ? d->set->err : d->err;
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

/* A name: [A-Za-z0-9._-] components, at most `max` of them, no "." or ".."
 * component. */
static int name_ok_n(const char *name, int max)
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
		if (++parts > max)
			return 0;
		if (!e)
			return 1;
		p = e + 1;
	}
}

/* A manifest name: at most "sub/file". */
static int name_ok(const char *name)
{
	return name_ok_n(name, 2);
}

/* An output path: absent, or a regular file (a directory when dir is set);
 * never a symlink. */
static int check_path(struct outdir *d, const char *path, const char *shown, int dir)
{
	struct stat st;

	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		seterr(d, shown, "%s", strerror(errno));
		return -1;
	}
	if (S_ISLNK(st.st_mode)) {
		errno = ELOOP;
		seterr(d, shown, "is a symbolic link; rvmess does not write through links "
		       "(remove it, or write to another directory)");
		return -1;
	}
	if (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) {
		errno = dir ? ENOTDIR : S_ISDIR(st.st_mode) ? EISDIR : EEXIST;
		seterr(d, shown, "exists and is not a %s", dir ? "directory" : "regular file");
		return -1;
	}
	return 0;
}

/* ---- trees ------------------------------------------------------------------- */

/* Remove a folder of rvmess's own (a staging folder: new files and links to
 * DIR's): every entry, no link followed.  Best effort. */
static void rmtree(const char *path)
{
	DIR *dh = opendir(path);
	struct dirent *e;

	if (dh) {
		while ((e = readdir(dh))) {
			struct stat st;
			char *p;

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			p = xprintf("%s/%s", path, e->d_name);
			if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
				rmtree(p);
			else
				unlink(p);
			free(p);
		}
		closedir(dh);
	}
	rmdir(path);
}

static void fsync_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* fsync a folder and every folder below it */
static void fsync_tree(const char *path)
{
	DIR *dh = opendir(path);
	struct dirent *e;

	if (!dh)
		return;
	while ((e = readdir(dh))) {
		struct stat st;
		char *p;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		p = xprintf("%s/%s", path, e->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			fsync_tree(p);
		free(p);
	}
	closedir(dh);
	fsync_path(path);
}

/* mkdir -p of rel's folders below root (root exists), each new folder with
 * the mode of the same folder below like (when it exists there). */
static int mkdirs_below(const char *root, const char *rel, const char *like)
{
	char *r = xstrdup(rel), *slash;
	int rc = 0;

	for (slash = strchr(r, '/'); slash && !rc; slash = strchr(slash + 1, '/')) {
		char *p, *q;
		struct stat st, lst;

		*slash = '\0';
		p = xprintf("%s/%s", root, r);
		if (mkdir(p, 0777) == 0) {
			q = like ? xprintf("%s/%s", like, r) : NULL;
			if (q && lstat(q, &lst) == 0 && S_ISDIR(lst.st_mode))
				chmod(p, lst.st_mode & 07777);
			free(q);
		} else if (errno != EEXIST || lstat(p, &st) < 0 || !S_ISDIR(st.st_mode)) {
			rc = -1;
		}
		free(p);
		*slash = '/';
	}
	free(r);
	return rc;
}

/* ---- manifests -------------------------------------------------------------- */

/* The previous manifest as one string (NULL when absent or unreadable). */
static char *read_manifest(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return NULL;
	}
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

/* Is rel (relative to root) listed in a manifest of root, whatever the tag?
 * A name is at most two levels below its manifest's folder. */
static int listed(const char *root, const char *rel)
{
	const char *s1 = strrchr(rel, '/'), *s2 = NULL;
	int found = 0;

	if (s1)
		for (const char *p = s1; p > rel;)
			if (*--p == '/') {
				s2 = p;
				break;
			}
	for (int k = 0; k < 2 && !found; k++) {
		/* k = 0: the manifest of rel's folder; k = 1: of its parent */
		const char *cut = k == 0 ? s1 : s2;
		char *mpath, *m, *name;

		if (k == 1 && !s1)
			break;
		if (cut)
			mpath = xprintf("%s/%.*s/%s", root, (int)(cut - rel), rel, OUTDIR_MANIFEST);
		else
			mpath = xprintf("%s/%s", root, OUTDIR_MANIFEST);
		name = (char *)(cut ? cut + 1 : rel);
		m = read_manifest(mpath);
		for (char *line = m, *nl; line && *line && !found; line = nl ? nl + 1 : line + strlen(line)) {
			char *sp;

			nl = strchr(line, '\n');
			if (nl)
				*nl = '\0';
			sp = strchr(line, ' ');
			if (line[0] != '#' && sp && strcmp(sp + 1, name) == 0)
				found = 1;
		}
		free(m);
		free(mpath);
	}
	return found;
}

/* An older rvmess's temporary file: ".NAME.tmp.XXXXXX" (mkstemp's six
 * characters) of a NAME rvmess writes (its extensions, README, the
 * manifest). */
static int old_temp(const char *n)
{
	static const char *const ext[] = { ".csv", ".txt", ".json", ".xg", ".svg", ".log", "README",
					   OUTDIR_MANIFEST };
	size_t len = strlen(n);

	if (n[0] != '.' || len < 13 || memcmp(n + len - 11, ".tmp.", 5) != 0 || !name_ok_n(n + 1, 1))
		return 0;
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		size_t el = strlen(ext[i]), nl = len - 11; /* NAME ends at n + nl */

		if (nl > el && !memcmp(n + nl - el, ext[i], el))
			return 1;
	}
	return 0;
}

/* A name only rvmess makes in an output folder: its manifest, its staging
 * mark, an older rvmess's temporary file. */
static int own_name(const char *n)
{
	return !strcmp(n, OUTDIR_MANIFEST) || !strcmp(n, STAGE_MARK) || old_temp(n);
}

/* Remove old temporaries in path and the folders below it, depth levels. */
static void drop_old_temps(const char *path, int depth)
{
	DIR *dh = opendir(path);
	struct dirent *e;

	if (!dh)
		return;
	while ((e = readdir(dh))) {
		char *p;
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		p = xprintf("%s/%s", path, e->d_name);
		if (lstat(p, &st) == 0) {
			if (S_ISREG(st.st_mode) && old_temp(e->d_name))
				unlink(p);
			else if (S_ISDIR(st.st_mode) && depth > 0 && e->d_name[0] != '.')
				drop_old_temps(p, depth - 1);
		}
		free(p);
	}
	closedir(dh);
}

/* ---- retiring an old tree --------------------------------------------------- */

/*
 * old: the folder DIR was before a swap (or what a killed swap left), real:
 * DIR now.  Every entry of old, rel its path below both:
 * - a link of real's entry (same inode), an old version of an output real
 *   lists now, a name only rvmess makes: removed;
 * - absent from real: a stale output (old's manifests list it) is removed;
 *   anything else appeared during the commit and is moved into real;
 * - another file at the same name in real that is no output: the one in
 *   old is newer (replaced during the commit) and is moved over it.
 */
/* The names in a folder (not "." and ".."), read before anything there
 * changes; NULL-terminated, *n of them. */
static char **names_of(const char *path, size_t *n)
{
	DIR *dh = opendir(path);
	struct dirent *e;
	char **v = NULL;

	*n = 0;
	if (!dh)
		return NULL;
	while ((e = readdir(dh)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			v = xrealloc(v, (*n + 2) * sizeof(*v));
			v[(*n)++] = xstrdup(e->d_name);
			v[*n] = NULL;
		}
	closedir(dh);
	return v;
}

static void retire_dir(const char *old, const char *real, const char *rel)
{
	char *here = rel[0] ? xprintf("%s/%s", old, rel) : xstrdup(old);
	size_t n;
	char **names = names_of(here, &n);

	/* the manifest last: the others are judged by it */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++) {
			const char *name = names[i];
			char *p, *po, *pr;
			struct stat so, sr;

			if ((pass == 0) == !strcmp(name, OUTDIR_MANIFEST))
				continue;
			p = rel[0] ? xprintf("%s/%s", rel, name) : xstrdup(name);
			po = xprintf("%s/%s", old, p);
			pr = xprintf("%s/%s", real, p);
			if (lstat(po, &so) == 0 && S_ISDIR(so.st_mode)) {
				retire_dir(old, real, p); /* each entry by the rules: a folder of stale files goes */
				rmdir(po);
			} else if (lstat(pr, &sr) == 0) {
				if ((sr.st_dev == so.st_dev && sr.st_ino == so.st_ino) || own_name(name) || listed(real, p))
					unlink(po);
				else if (!S_ISDIR(sr.st_mode))
					rename(po, pr); /* replaced during the commit: the newer one */
			} else if (own_name(name) || listed(old, p)) {
				unlink(po);
			} else if (mkdirs_below(real, p, NULL) == 0) {
				rename(po, pr); /* appeared during the commit */
			}
			free(p);
			free(po);
			free(pr);
		}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(here);
}

static void retire(const char *old, const char *real)
{
	char *mark = xprintf("%s/%s", old, STAGE_MARK);

	unlink(mark); /* (a pre-swap staging folder's own mark: never one of DIR's) */
	free(mark);
	retire_dir(old, real, "");
	rmdir(old);
}

/* ---- the transaction ---------------------------------------------------------- */

/* The mark's second line: the staging folder's own name. */
static char *mark_name(const char *markpath)
{
	char *m = read_manifest(markpath), *l2, *nl;

	if (!m)
		return NULL;
	l2 = strchr(m, '\n');
	if (!l2 || strncmp(m, "rvmess staging folder", 21) != 0) {
		free(m);
		return NULL;
	}
	l2++;
	nl = strchr(l2, '\n');
	if (nl)
		*nl = '\0';
	memmove(m, l2, strlen(l2) + 1);
	return m;
}

/* What a killed transaction on real left: an old tree after a swap (its
 * name in real's mark), staging folders beside real (with their own mark)
 * or inside it, an older rvmess's temporary files. */
static void recover(struct outset *s)
{
	char *mark = xprintf("%s/%s", s->real, STAGE_MARK), *name;
	DIR *dh;
	struct dirent *e;
	size_t bl = strlen(s->base);

	name = mark_name(mark);
	if (name) { /* killed after its swap: the old tree is beside real */
		char *old = xprintf("%s/%s", s->parent, name), *omark = xprintf("%s/%s", old, STAGE_MARK);
		struct stat st;

		if (name_ok_n(name, 1) && lstat(old, &st) == 0 && S_ISDIR(st.st_mode) && access(omark, F_OK) != 0)
			retire(old, s->real);
		free(old);
		free(omark);
		free(name);
	}
	unlink(mark);
	free(mark);
	if ((dh = opendir(s->parent))) { /* staging folders of killed transactions */
		while ((e = readdir(dh))) {
			const char *n = e->d_name;
			char *p, *m, *own;

			if (!(n[0] == '.' && !strncmp(n + 1, s->base, bl) && !strncmp(n + 1 + bl, ".rvmess-", 8) &&
			      strlen(n + 1 + bl + 8) == 6))
				continue;
			p = xprintf("%s/%s", s->parent, n);
			m = xprintf("%s/%s", p, STAGE_MARK);
			own = mark_name(m);
			if (own && !strcmp(own, n))
				rmtree(p);
			else
				rmdir(p); /* marked nothing yet: only when empty */
			free(own);
			free(m);
			free(p);
		}
		closedir(dh);
	}
	if ((dh = opendir(s->real))) { /* inside real: inner staging folders */
		while ((e = readdir(dh))) {
			const char *n = e->d_name;
			char *p = xprintf("%s/%s", s->real, n);
			struct stat st;

			if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode) && !strncmp(n, INNER_STAGE, strlen(INNER_STAGE)) &&
			    strlen(n) == strlen(INNER_STAGE) + 6)
				rmtree(p);
			free(p);
		}
		closedir(dh);
	}
	drop_old_temps(s->real, 2); /* DIR, DIR/bwlat, DIR/c0/bwlat */
}

/* Is the working directory real or below it?  (A swap would leave a shell
 * there in a removed folder.) */
static int cwd_inside(const char *real)
{
	char cwd[PATH_MAX];
	size_t n = strlen(real);

	if (!getcwd(cwd, sizeof(cwd)))
		return 1;
	return !strncmp(cwd, real, n) && (cwd[n] == '\0' || cwd[n] == '/' || n == 1);
}

/* The staging folder, made on the first file: beside real when a swap is
 * possible, else inside it.  Cleans what killed transactions left first. */
static int stage_open(struct outdir *d)
{
	struct outset *s = d->set;
	struct stat sr, sp;
	char *mark;
	FILE *m;

	if (s->stage)
		return 0;
	s->lockfd = open(s->parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->lockfd >= 0 && flock(s->lockfd, LOCK_EX | LOCK_NB) < 0) {
		fprintf(stderr, "rvmess: %s: another rvmess is writing here; waiting\n", s->dir);
		flock(s->lockfd, LOCK_EX);
	}
	recover(s);
	if (!(s->flags & OUTDIR_FILEWISE) && lstat(s->real, &sr) == 0 && lstat(s->parent, &sp) == 0 &&
	    sr.st_dev == sp.st_dev && strcmp(s->real, "/") != 0 && !cwd_inside(s->real) &&
	    (sr.st_uid == geteuid() || geteuid() == 0)) {
		char *t = xprintf("%s/.%s.rvmess-XXXXXX", s->parent, s->base);

		if (strlen(t) < PATH_MAX && mkdtemp(t)) {
			s->stage = t;
			s->sibling = 1;
		} else {
			free(t);
		}
	}
	if (!s->stage) {
		char *t = xprintf("%s/%sXXXXXX", s->real, INNER_STAGE);

		if (strlen(t) >= PATH_MAX) {
			errno = ENAMETOOLONG;
			seterr(d, s->dir, "path longer than PATH_MAX (%d) with the staging folder", PATH_MAX);
			free(t);
			return -1;
		}
		if (!mkdtemp(t)) {
			seterr(d, s->dir, "cannot create a staging folder: %s", strerror(errno));
			free(t);
			return -1;
		}
		s->stage = t;
	}
	if (s->sibling) {
		mark = xprintf("%s/%s", s->stage, STAGE_MARK);
		m = fopen(mark, "wx");
		if (!m || fprintf(m, "rvmess staging folder of %s\n%s\n", s->real, strrchr(s->stage, '/') + 1) < 0 ||
		    fclose(m) != 0) {
			seterr(d, mark, "%s", strerror(errno ? errno : EIO));
			free(mark);
			return -1;
		}
		free(mark);
	}
	return 0;
}

static void set_free(struct outset *s)
{
	for (size_t i = 0; i < s->nfiles; i++) {
		struct outfile *o = &s->files[i];

		if (o->f)
			fclose(o->f);
		free(o->rel);
		free(o->mdir);
		free(o->name);
		free(o->shown);
	}
	for (size_t i = 0; i < s->nin; i++)
		free(s->in[i].path);
	for (size_t i = 0; i < s->nstale; i++)
		free(s->stale[i]);
	if (s->lockfd >= 0)
		close(s->lockfd);
	free(s->stale);
	free(s->in);
	free(s->files);
	free(s->dir);
	free(s->real);
	free(s->parent);
	free(s->base);
	free(s->stage);
	free(s);
}

static void free_view(struct outdir *d)
{
	if (d->set && d->set->err[0] && !d->err[0])
		snprintf(d->err, sizeof(d->err), "%s", d->set->err);
	free(d->dir);
	free(d->sub);
	d->dir = NULL;
	d->sub = NULL;
	d->set = NULL;
}

int outdir_open_flags(struct outdir *d, const char *dir, const char *tag, int flags)
{
	size_t n = strlen(dir);
	struct outset *s;
	char real[PATH_MAX], *slash;

	memset(d, 0, sizeof(*d));
	d->tag = tag;
	d->root = 1;
	if (mkdir_p(dir) < 0) {
		seterr(d, dir, "%s", strerror(errno));
		return -1;
	}
	if (!realpath(dir, real)) {
		seterr(d, dir, "%s", strerror(errno));
		return -1;
	}
	while (n > 1 && dir[n - 1] == '/')
		n--;
	d->dir = xrealloc(NULL, n + 1);
	memcpy(d->dir, dir, n);
	d->dir[n] = '\0';
	d->sub = xstrdup("");
	s = xrealloc(NULL, sizeof(*s));
	memset(s, 0, sizeof(*s));
	s->dir = xstrdup(d->dir);
	s->real = xstrdup(real);
	slash = strrchr(real, '/');
	s->base = xstrdup(slash[1] ? slash + 1 : "");
	*slash = '\0';
	s->parent = xstrdup(real[0] ? real : "/");
	s->flags = flags;
	s->mode = file_mode();
	s->lockfd = -1;
	d->set = s;
	return 0;
}

int outdir_open(struct outdir *d, const char *dir, const char *tag)
{
	return outdir_open_flags(d, dir, tag, 0);
}

int outdir_sub(struct outdir *d, struct outdir *parent, const char *sub, const char *tag)
{
	memset(d, 0, sizeof(*d));
	d->tag = tag;
	d->set = parent->set;
	if (sub && *sub && !name_ok_n(sub, 1)) {
		errno = EINVAL;
		seterr(d, sub, "not a valid output folder name");
		d->set = NULL;
		return -1;
	}
	d->sub = xstrdup(sub ? sub : "");
	d->dir = d->sub[0] ? xprintf("%s/%s", parent->set->dir, d->sub) : xstrdup(parent->set->dir);
	return 0;
}

void outdir_input(struct outdir *d, const char *path)
{
	struct outset *s = d->set;
	struct stat st;

	if (!s || stat(path, &st) < 0)
		return;
	s->in = xrealloc(s->in, (s->nin + 1) * sizeof(*s->in));
	s->in[s->nin].dev = st.st_dev;
	s->in[s->nin].ino = st.st_ino;
	s->in[s->nin++].path = xstrdup(path);
}

static FILE *create(struct outdir *d, const char *name, unsigned mode, int manifest)
{
	struct outset *s = d->set;
	char dest[PATH_MAX], shown[PATH_MAX], staged[PATH_MAX], rel[PATH_MAX];
	struct outfile *o;
	FILE *f;
	int fd;

	if (!s) {
		errno = EINVAL;
		return NULL;
	}
	if (!name_ok(name)) {
		errno = EINVAL;
		seterr(d, name, "not a valid output name");
		return NULL;
	}
	if (!path_join(shown, sizeof(shown), d->dir, name) ||
	    (d->sub[0] ? !path_join(rel, sizeof(rel), d->sub, name) : snprintf(rel, sizeof(rel), "%s", name) < 0) ||
	    !path_join(dest, sizeof(dest), s->real, rel)) {
		seterr(d, d->dir, "path of '%s' longer than PATH_MAX (%d)", name, PATH_MAX);
		return NULL;
	}
	/* every folder on the way must be a folder (or not exist yet), the
	 * destination a regular file or absent: never a link */
	for (char *p = strchr(rel, '/'); p; p = strchr(p + 1, '/')) {
		char sub[PATH_MAX], subshown[PATH_MAX];

		*p = '\0';
		if (!path_join(sub, sizeof(sub), s->real, rel) ||
		    !path_join(subshown, sizeof(subshown), s->dir, rel) || check_path(d, sub, subshown, 1) < 0) {
			*p = '/';
			return NULL;
		}
		*p = '/';
	}
	if (check_path(d, dest, shown, 0) < 0)
		return NULL;
	if (stage_open(d) < 0)
		return NULL;
	if (!path_join(staged, sizeof(staged), s->stage, rel)) {
		seterr(d, shown, "path longer than PATH_MAX (%d) in the staging folder", PATH_MAX);
		return NULL;
	}
	if (mkdirs_below(s->stage, rel, s->real) < 0) {
		seterr(d, shown, "cannot create its folder in the staging folder: %s", strerror(errno));
		return NULL;
	}
	fd = open(staged, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		if (errno == EEXIST)
			seterr(d, shown, "written twice in one run");
		else
			seterr(d, shown, "cannot create it: %s", strerror(errno));
		return NULL;
	}
	f = fchmod(fd, mode) == 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		int e = errno;

		close(fd);
		unlink(staged);
		errno = e;
		seterr(d, shown, "%s", strerror(errno));
		return NULL;
	}
	s->files = xrealloc(s->files, (s->nfiles + 1) * sizeof(*s->files));
	o = &s->files[s->nfiles++];
	memset(o, 0, sizeof(*o));
	o->f = f;
	o->rel = xstrdup(rel);
	o->mdir = xstrdup(d->sub);
	o->name = xstrdup(name);
	o->shown = xstrdup(shown);
	o->tag = manifest ? NULL : d->tag;
	o->mode = mode;
	return f;
}

FILE *outdir_create_mode(struct outdir *d, const char *name, unsigned mode)
{
	return create(d, name, mode, 0);
}

FILE *outdir_create(struct outdir *d, const char *name)
{
	return create(d, name, d->set ? d->set->mode : 0644, 0);
}

int outdir_close(struct outdir *d, FILE *f)
{
	struct outset *s = d->set;
	struct outfile *o = NULL;
	int e = 0;

	for (size_t i = s ? s->nfiles : 0; i-- > 0 && !o;) /* usually the last one */
		if (s->files[i].f == f)
			o = &s->files[i];
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
		seterr(d, o->shown, "%s", strerror(e));
		return -1;
	}
	o->ok = 1;
	return 0;
}

void outdir_abort(struct outdir *d)
{
	if (d->set && d->set->err[0] && !d->err[0]) /* the first error outlives the set */
		snprintf(d->err, sizeof(d->err), "%s", d->set->err);
	if (d->root && d->set) {
		if (d->set->stage)
			rmtree(d->set->stage);
		set_free(d->set);
		d->set = NULL;
	}
	free_view(d);
}

int outdir_finish(struct outdir *d, int failed, const char *cmd, const char *why)
{
	if (!failed) {
		if (outdir_commit(d) == 0)
			return 0;
		fprintf(stderr, "rvmess %s: %s\n", cmd, outdir_error(d));
		return -1;
	}
	fprintf(stderr, "rvmess %s: %s\n", cmd, outdir_error(d)[0] ? outdir_error(d) : why);
	if (d->dir)
		fprintf(stderr, "rvmess %s: nothing in %s was changed\n", cmd, d->dir);
	outdir_abort(d);
	return -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int in_sorted(char **v, size_t n, const char *s)
{
	return n && bsearch(&s, v, n, sizeof(*v), cmp_str) != NULL;
}

/* Is (mdir, name) written by this transaction? */
static int written(const struct outset *s, const char *mdir, const char *name)
{
	for (size_t i = 0; i < s->nfiles; i++)
		if (!strcmp(s->files[i].mdir, mdir) && !strcmp(s->files[i].name, name))
			return 1;
	return 0;
}

static int tag_here(const struct outset *s, const char *mdir, const char *tag)
{
	for (size_t i = 0; i < s->nfiles; i++)
		if (s->files[i].tag && !strcmp(s->files[i].mdir, mdir) && !strcmp(s->files[i].tag, tag))
			return 1;
	return 0;
}

/* The new manifest of folder mdir (written into the staging folder) and
 * the stale files it drops: other commands' entries (minus names written
 * now), then this transaction's, in the order they were created. */
static int write_manifest(struct outdir *d, const char *mdir)
{
	struct outset *s = d->set;
	char *mpath = mdir[0] ? xprintf("%s/%s/%s", s->real, mdir, OUTDIR_MANIFEST)
			      : xprintf("%s/%s", s->real, OUTDIR_MANIFEST);
	char *mshown = mdir[0] ? xprintf("%s/%s/%s", s->dir, mdir, OUTDIR_MANIFEST)
			       : xprintf("%s/%s", s->dir, OUTDIR_MANIFEST);
	char *old = NULL, *oend;
	struct outdir view;
	FILE *m;
	int rc = -1;
	size_t nfiles = s->nfiles;

	if (check_path(d, mpath, mshown, 0) < 0)
		goto out;
	old = read_manifest(mpath);
	oend = old ? old + strlen(old) : NULL;
	for (char *p = old; p && p < oend; p++) /* one string per line */
		if (*p == '\n')
			*p = '\0';
	view = *d;
	view.sub = (char *)mdir;
	view.dir = mdir[0] ? xprintf("%s/%s", s->dir, mdir) : xstrdup(s->dir);
	m = create(&view, OUTDIR_MANIFEST, s->mode, 1);
	free(view.dir);
	if (!m)
		goto out;
	fprintf(m, "# Files rvmess wrote in this directory (command name).  A later run of the\n"
		   "# same command removes the ones it does not write again, and nothing else.\n");
	for (char *p = old; p && p < oend; p += strlen(p) + 1) {
		char *sp = strchr(p, ' ');

		if (p[0] == '#' || !sp || !name_ok(sp + 1))
			continue;
		*sp = '\0';
		if (!tag_here(s, mdir, p) && !written(s, mdir, sp + 1))
			fprintf(m, "%s %s\n", p, sp + 1);
		else if (tag_here(s, mdir, p) && !written(s, mdir, sp + 1)) { /* stale */
			s->stale = xrealloc(s->stale, (s->nstale + 1) * sizeof(*s->stale));
			s->stale[s->nstale++] = mdir[0] ? xprintf("%s/%s", mdir, sp + 1) : xstrdup(sp + 1);
		}
		*sp = ' ';
	}
	for (size_t i = 0; i < nfiles; i++)
		if (s->files[i].tag && !strcmp(s->files[i].mdir, mdir))
			fprintf(m, "%s %s\n", s->files[i].tag, s->files[i].name);
	rc = outdir_close(d, m);
out:
	free(old);
	free(mpath);
	free(mshown);
	return rc;
}

/* Hard-link into the staging folder what real/rel holds that the
 * transaction neither writes nor removes; folders recreated with their
 * mode.  -1 when an entry cannot be linked (then no swap). */
static int link_in(struct outset *s, const char *rel)
{
	char *src = rel[0] ? xprintf("%s/%s", s->real, rel) : xstrdup(s->real);
	DIR *dh = opendir(src);
	struct dirent *e;
	int rc = 0;

	if (!dh) {
		free(src);
		return -1;
	}
	while (!rc && (e = readdir(dh))) {
		char *p, *from, *to;
		struct stat sf, st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!rel[0] && (!strcmp(e->d_name, STAGE_MARK) || !strncmp(e->d_name, INNER_STAGE, strlen(INNER_STAGE))))
			continue;
		p = rel[0] ? xprintf("%s/%s", rel, e->d_name) : xstrdup(e->d_name);
		from = xprintf("%s/%s", s->real, p);
		to = xprintf("%s/%s", s->stage, p);
		if (++s->linked > LINK_LIMIT || lstat(from, &sf) < 0) {
			rc = -1;
		} else if (lstat(to, &st) == 0) {
			/* written now: a file replaces it; a folder of ours holds more */
			if (S_ISDIR(st.st_mode) && S_ISDIR(sf.st_mode))
				rc = link_in(s, p);
		} else if (in_sorted(s->stale, s->nstale, p)) {
			; /* removed by this commit */
		} else if (S_ISDIR(sf.st_mode)) {
			if (mkdir(to, 0700) < 0 || chmod(to, sf.st_mode & 07777) < 0)
				rc = -1;
			if (!rc && geteuid() == 0 && lchown(to, sf.st_uid, sf.st_gid) < 0)
				rc = -1;
			if (!rc)
				rc = link_in(s, p);
			if (!rc && s->nstale) { /* a folder only stale files made: gone with them */
				int stale_inside = 0, empty = 1;
				DIR *sd;
				struct dirent *f;
				size_t pl = strlen(p);

				for (size_t i = 0; i < s->nstale; i++)
					if (!strncmp(s->stale[i], p, pl) && s->stale[i][pl] == '/')
						stale_inside = 1;
				if (stale_inside && (sd = opendir(to))) {
					while ((f = readdir(sd)))
						if (strcmp(f->d_name, ".") && strcmp(f->d_name, ".."))
							empty = 0;
					closedir(sd);
					if (empty)
						rmdir(to);
				}
			}
		} else if (link(from, to) < 0) { /* (link(2) does not follow a symlink) */
			rc = -1;
		}
		free(p);
		free(from);
		free(to);
	}
	closedir(dh);
	free(src);
	return rc;
}

/* An input of the command at a path the commit replaces or removes. */
static int input_clash(struct outdir *d, const char *rel, const char *shown)
{
	struct outset *s = d->set;
	char *p = xprintf("%s/%s", s->real, rel);
	struct stat st;
	int rc = 0;

	if (lstat(p, &st) == 0)
		for (size_t i = 0; i < s->nin && !rc; i++)
			if (s->in[i].dev == st.st_dev && s->in[i].ino == st.st_ino) {
				errno = EEXIST;
				seterr(d, shown, "is an input of this command (%s); rvmess never replaces its input "
				       "(write to another directory)", s->in[i].path);
				rc = -1;
			}
	free(p);
	return rc;
}

/* One at a time: every staged file renamed to its place, then the stale
 * files removed. */
static int commit_filewise(struct outdir *d)
{
	struct outset *s = d->set;
	int rc = 0;

	for (size_t i = 0; i < s->nfiles; i++) {
		struct outfile *o = &s->files[i];
		char *from = xprintf("%s/%s", s->stage, o->rel), *to = xprintf("%s/%s", s->real, o->rel);

		if (mkdirs_below(s->real, o->rel, s->stage) < 0 || rename(from, to) < 0) {
			seterr(d, o->shown, "cannot rename it into place: %s", strerror(errno));
			rc = -1;
		}
		if (i == s->nfiles / 2)
			kill_point("filewise");
		free(from);
		free(to);
	}
	for (size_t i = 0; i < s->nstale; i++) {
		char *p = xprintf("%s/%s", s->real, s->stale[i]);
		struct stat st;

		if (lstat(p, &st) == 0 && S_ISREG(st.st_mode))
			unlink(p);
		if (strchr(s->stale[i], '/')) { /* its folder, if now empty */
			*strrchr(p, '/') = '\0';
			rmdir(p);
		}
		free(p);
	}
	for (size_t i = 0; i < s->nfiles; i++) { /* the folders written to */
		char *p = xprintf("%s/%s", s->real, s->files[i].rel);

		*strrchr(p, '/') = '\0';
		fsync_path(p);
		free(p);
	}
	rmtree(s->stage);
	if (!rc)
		last_commit = "filewise";
	return rc;
}

/* At once: the staging folder completed into the new DIR and swapped with
 * it; 1 when the swap is not possible (nothing changed in DIR then). */
static int commit_swap(struct outdir *d)
{
	struct outset *s = d->set;
	struct stat sr;
	char *mark;

	if (lstat(s->real, &sr) < 0 || link_in(s, "") < 0)
		return 1;
	if (chmod(s->stage, sr.st_mode & 07777) < 0 ||
	    (geteuid() == 0 && chown(s->stage, sr.st_uid, sr.st_gid) < 0))
		return 1;
	fsync_tree(s->stage);
	kill_point("linked");
	if (renameat2(AT_FDCWD, s->stage, AT_FDCWD, s->real, RENAME_EXCHANGE) < 0)
		return 1;
	/* DIR is the new set now; the old one is at the staging name */
	fsync_path(s->parent);
	kill_point("swapped");
	retire(s->stage, s->real);
	mark = xprintf("%s/%s", s->real, STAGE_MARK);
	unlink(mark);
	free(mark);
	fsync_path(s->real);
	last_commit = "swap";
	return 0;
}

int outdir_commit(struct outdir *d)
{
	struct outset *s = d->set;
	char **mdirs = NULL;
	size_t nm = 0;
	int rc = -1;

	if (!d->root) {
		free_view(d);
		return 0;
	}
	for (size_t i = 0; i < s->nfiles; i++) {
		if (s->files[i].f && outdir_close(d, s->files[i].f) < 0)
			goto fail;
		if (!s->files[i].ok) {
			errno = EIO;
			seterr(d, s->files[i].shown, "not written completely");
			goto fail;
		}
	}
	if (!s->nfiles) { /* nothing written: nothing to replace, nothing stale */
		rc = 0;
		goto done;
	}
	if (!(s->flags & OUTDIR_NO_MANIFEST)) {
		size_t n = s->nfiles;

		mdirs = xrealloc(NULL, (n + 1) * sizeof(*mdirs));
		for (size_t i = 0; i < n; i++)
			if (!in_sorted(mdirs, nm, s->files[i].mdir)) {
				mdirs[nm++] = s->files[i].mdir;
				qsort(mdirs, nm, sizeof(*mdirs), cmp_str);
			}
		for (size_t i = 0; i < nm; i++)
			if (write_manifest(d, mdirs[i]) < 0)
				goto fail;
		if (s->nstale)
			qsort(s->stale, s->nstale, sizeof(*s->stale), cmp_str);
	}
	kill_point("staged");
	for (size_t i = 0; i < s->nfiles; i++)
		if (input_clash(d, s->files[i].rel, s->files[i].shown) < 0)
			goto fail;
	for (size_t i = 0; i < s->nstale; i++) {
		char *shown = xprintf("%s/%s", s->dir, s->stale[i]);
		int c = input_clash(d, s->stale[i], shown);

		free(shown);
		if (c < 0)
			goto fail;
	}
	if (s->sibling && !(s->flags & OUTDIR_FILEWISE) && commit_swap(d) == 0)
		rc = 0;
	else
		rc = commit_filewise(d);
done:
	free(mdirs);
	{
		int e = errno;

		if (s->err[0])
			snprintf(d->err, sizeof(d->err), "%s", s->err);
		set_free(s);
		d->set = NULL;
		free_view(d);
		errno = e;
	}
	return rc;
fail:
	free(mdirs);
	{
		int e = errno;

		outdir_abort(d);
		errno = e;
	}
	return -1;
}
