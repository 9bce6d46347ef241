/*
 * Output directory: every file rvmess writes goes through here, so that no
 * command can lose, mix or clobber data.
 *
 * A command's outputs in DIR are one set, committed at once:
 *
 * - outdir_open() starts a transaction on DIR: the new files are written
 *   into a staging directory (".NAME.rvmess-XXXXXX" beside DIR, on the same
 *   file system), each flushed and fdatasync'd.  Nothing in DIR changes
 *   before outdir_commit().  A write error (full disk, I/O error) or a kill
 *   leaves DIR as it was; outdir_abort() removes the staging directory.
 * - outdir_commit() completes the staging directory into the new DIR (what
 *   DIR holds that this command does not write is hard-linked into it: the
 *   log, run.txt, a user's notes, other commands' outputs, its subfolders),
 *   writes the manifests, and swaps it with DIR in one rename
 *   (renameat2 RENAME_EXCHANGE).  A reader sees the old complete set or the
 *   new complete set, never a mix, whenever the process is killed.  The
 *   old tree is then removed; a file that appeared in DIR during the commit
 *   is moved into the new one.
 * - When the swap is not possible (DIR is the working directory or holds
 *   it, DIR's parent is not writable or on another file system, DIR is
 *   another user's, a file cannot be hard-linked, the kernel or file system
 *   has no RENAME_EXCHANGE, more than 100000 entries to link), or with
 *   OUTDIR_FILEWISE, the new files are renamed into DIR one at a time
 *   (each atomically, the set not).
 * - The next transaction on DIR first cleans what a killed one left: a
 *   staging directory (removed), an old tree after a swap (retired as
 *   above), temporary files of an older rvmess (".NAME.tmp.XXXXXX").
 *   Transactions on one directory run one at a time (a lock on its parent).
 * - A symlink at an output path is refused ("is a symbolic link; rvmess does
 *   not write through links"), as is any other non-regular file there (a
 *   directory, a FIFO).  DIR itself (and its parents) may be a symlink:
 *   `out/latest` is one; the directory it names is the one replaced.
 * - An input of the command (outdir_input) is never replaced or removed:
 *   `rvmess capture - -o DIR/records.csv` or a log named like one of parse's
 *   outputs in its own folder is refused ("is an input of this command").
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
 * Several commands' outputs can be one set: outdir_sub() gives a view of a
 * transaction with another tag and, optionally, a subfolder ("c0"), whose
 * files are committed with the root's (merge: merged.log, parse's outputs of
 * each configuration and compare.csv, at once).
 *
 * Errors: the first one is kept as "PATH: reason" in outdir_error().
 */
#ifndef RVMESS_CLI_OUT_H
#define RVMESS_CLI_OUT_H

#include <stddef.h>
#include <stdio.h>

#define OUTDIR_MANIFEST ".rvmess-manifest"

/* outdir_open_flags */
#define OUTDIR_FILEWISE    1   /* never swap DIR: rename file by file */
#define OUTDIR_NO_MANIFEST 2   /* no .rvmess-manifest, no stale removal */

struct outset;

struct outdir {
	char *dir;                /* as given (root, or root/sub), without trailing '/' */
	const char *tag;          /* command name in the manifest: "parse", "curves" */
	struct outset *set;       /* the transaction (owned by the root) */
	char *sub;                /* "" for the root, else the subfolder */
	int root;
	char err[4096 + 256];     /* a failure before the transaction exists */
};

/* Create DIR (and its parents) if needed and start a transaction on it.
 * Returns 0, or -1 with errno set and the reason in outdir_error(). */
int outdir_open(struct outdir *d, const char *dir, const char *tag);
int outdir_open_flags(struct outdir *d, const char *dir, const char *tag, int flags);

/* A view of parent's transaction writing into its subfolder sub (NULL or ""
 * for parent's own folder) under another tag.  Its files are committed by
 * the root's outdir_commit; commit and abort of a view do nothing but free
 * it.  0, or -1 (a bad subfolder name). */
int outdir_sub(struct outdir *d, struct outdir *parent, const char *sub, const char *tag);

/* Register an input of the command (a log, a CSV): the commit refuses to
 * replace or remove it.  A path that does not exist is ignored. */
void outdir_input(struct outdir *d, const char *path);

/* Start the file NAME ("lat.csv", "bwlat/bwlat_50.txt") in DIR: returns a
 * stream on its staged copy, or NULL with errno set and the reason in
 * outdir_error().  Creating the same name twice fails (EEXIST).
 * outdir_create_mode gives its permission bits (else 0666 & ~umask). */
FILE *outdir_create(struct outdir *d, const char *name);
FILE *outdir_create_mode(struct outdir *d, const char *name, unsigned mode);

/* Finish a stream from outdir_create: flush, fdatasync, close.  Returns 0, or -1
 * with errno set (ENOSPC, EIO...) and "PATH: reason" in outdir_error().  The
 * destination is not touched yet. */
int outdir_close(struct outdir *d, FILE *f);

/* Commit the set (above).  Returns 0, or -1 (errno, outdir_error()): then
 * DIR is as it was.  Frees what outdir_open allocated, whatever the result. */
int outdir_commit(struct outdir *d);

/* Drop the staged files; DIR stays as it was.  Frees. */
void outdir_abort(struct outdir *d);

/* End a command's writes: commit when !failed; else, or when the commit
 * fails, say "rvmess CMD: reason" on stderr (outdir_error(), else why) and
 * that nothing in DIR was changed (then abort).  0 when committed, else -1.
 * Frees either way. */
int outdir_finish(struct outdir *d, int failed, const char *cmd, const char *why);

const char *outdir_error(const struct outdir *d);

/* How the last successful outdir_commit of this process replaced its files:
 * "swap" (one rename) or "filewise" (tests, tools/bench). */
const char *outdir_last_commit(void);

/* Join dir and name into buf; NULL with errno = ENAMETOOLONG when the result
 * does not fit in len (never a truncated path). */
char *path_join(char *buf, size_t len, const char *dir, const char *name);

/* mkdir -p; refuses an over-long path (ENAMETOOLONG) and a non-directory
 * (ENOTDIR).  0 or -1 with errno set. */
int mkdir_p(const char *dir);

#endif
