/*
 * Output directory: every file rvmess writes goes through here, so that no
 * command can lose or clobber data.
 *
 * - Each file is written to a temporary file in its final directory
 *   (".NAME.tmp.XXXXXX"), flushed and fdatasync'd.  Nothing replaces an
 *   existing file until outdir_commit(): then every temporary file is renamed
 *   over its destination and the directory is fsync'd.  A write error (full disk, I/O error) before the commit
 *   leaves every old file as it was; outdir_abort() removes the temporaries.
 * - A symlink at an output path is refused ("is a symbolic link; rvmess does
 *   not write through links"), as is any other non-regular file there (a
 *   directory, a FIFO).  The rename replaces a directory entry, never the
 *   target of a link, even if one appears after the check.  The output
 *   directory itself (and its parents) may be a symlink: `out/latest` is one.
 * - A manifest, DIR/.rvmess-manifest, lists what each command wrote there
 *   ("parse records.csv", "curves bwlat/bwlat_50.txt").  At the commit a
 *   command removes the files its previous run listed and this run did not
 *   write (stale bwlat/ ratios, a lat_*_stride*.xg of a dataset no longer in
 *   the log) and nothing else: a user's own file is never removed, nor a
 *   file another command wrote.
 * - A path that does not fit in PATH_MAX, or a name with "..", a leading '/'
 *   or more than one directory level, is refused (ENAMETOOLONG / EINVAL),
 *   never truncated.
 *
 * Errors: the first one is kept as "PATH: reason" in outdir_error().
 */
#ifndef RVMESS_CLI_OUT_H
#define RVMESS_CLI_OUT_H

#include <stddef.h>
#include <stdio.h>

#define OUTDIR_MANIFEST ".rvmess-manifest"

struct outfile;

struct outdir {
	char *dir;                /* as given, without trailing '/' (except "/") */
	const char *tag;          /* command name in the manifest: "parse", "curves" */
	struct outfile *files;    /* opened this run, in order */
	size_t nfiles;
	unsigned mode;            /* of new files: 0666 & ~umask */
	char err[4096 + 256];     /* first error: "PATH: reason" */
};

/* Create DIR (and its parents) if needed.  Returns 0, or -1 with errno set
 * and the reason in outdir_error(). */
int outdir_open(struct outdir *d, const char *dir, const char *tag);

/* Start the file NAME ("lat.csv", "bwlat/bwlat_50.txt") in DIR: returns a
 * stream on its temporary file, or NULL with errno set and the reason in
 * outdir_error().  Creating the same name twice makes the commit fail
 * (EEXIST). */
FILE *outdir_create(struct outdir *d, const char *name);

/* Finish a stream from outdir_create: flush, fdatasync, close.  Returns 0, or -1
 * with errno set (ENOSPC, EIO...) and "PATH: reason" in outdir_error().  The
 * destination is not touched yet. */
int outdir_close(struct outdir *d, FILE *f);

/* Rename every finished file into place, update the manifest and remove this
 * command's stale files.  Returns 0, or -1 (errno, outdir_error()).  Frees
 * what outdir_open allocated, whatever the result. */
int outdir_commit(struct outdir *d);

/* Remove the temporary files; the old outputs stay as they were.  Frees. */
void outdir_abort(struct outdir *d);

/* End a command's writes: commit when !failed; else, or when the commit
 * fails, say "rvmess CMD: reason" on stderr (outdir_error(), else why) and,
 * for a failure before the commit, that nothing in DIR was changed (then
 * abort).  0 when committed, else -1.  Frees either way. */
int outdir_finish(struct outdir *d, int failed, const char *cmd, const char *why);

const char *outdir_error(const struct outdir *d);

/* Join dir and name into buf; NULL with errno = ENAMETOOLONG when the result
 * does not fit in len (never a truncated path). */
char *path_join(char *buf, size_t len, const char *dir, const char *name);

/* mkdir -p; refuses an over-long path (ENAMETOOLONG) and a non-directory
 * (ENOTDIR).  0 or -1 with errno set. */
int mkdir_p(const char *dir);

#endif
