/*
 * Fuzz targets of rvmess's input formats (docs/fuzzing.md).
 *
 * Each hostsim/fuzz/fuzz_<name>.c defines LLVMFuzzerTestOneInput and is
 * linked two ways: with clang's libFuzzer (`make fuzz`), and with replay.c's
 * main(), under gcc's ASan+UBSan, to run a corpus once (`make test`).
 *
 * The helpers below give a target a private scratch folder for the files the
 * commands it drives read and write.
 */
#ifndef RVMESS_FUZZ_H
#define RVMESS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* Largest file a target may write (RLIMIT_FSIZE; SIGXFSZ is ignored, so a
 * longer write fails with EFBIG instead of filling the disk). */
#define FUZZ_FILE_MAX (64ull << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The process's scratch folder, $TMPDIR/rvmess-fuzz.XXXXXX (TMPDIR
 * defaults to /tmp): made on first use, removed at exit. */
const char *fuzz_scratch(void);

/* buf = scratch folder + "/" + name; returns buf.  Aborts if it does not fit. */
char *fuzz_path(char *buf, size_t len, const char *name);

/* Remove a folder and everything in it (no error reported). */
void fuzz_rmtree(const char *dir);

/* Write size bytes to path (created or truncated).  Aborts on error: the
 * scratch folder is the harness's, not the code under test's. */
void fuzz_write(const char *path, const void *data, size_t size);

/* Run a command entry point (int cmd_x(int argc, char **argv)) on a
 * NULL-terminated argument list, with getopt's state reset first.  Standard
 * output goes to out_path when it is not NULL, to /dev/null otherwise.
 * Returns the command's exit status. */
int fuzz_cmd(int (*cmd)(int, char **), const char *out_path, const char *arg0, ...);

/* A whole file (NULL when unreadable); *len its size.  The caller frees. */
char *fuzz_read(const char *path, size_t *len);

/* Copy a file (aborts on error: the harness's). */
void fuzz_copy(const char *from, const char *to);

/* A file's size, or -1. */
long long fuzz_file_size(const char *path);

/* `rvmess merge --todo`'s output in path, its exit status rc: when 0, only
 * ascending job ids, one a line. */
void fuzz_check_todo(const char *path, int rc);

/* 1 when RVMESS_FUZZ_LOADER=1 (tools/fuzz.sh -l, make fuzz FUZZ_LOADER=1):
 * the log, manifest and curves targets then stop after their loader stage
 * (the readers in memory), without the commands and their files, so that a
 * campaign reaches millions of inputs (docs/fuzzing.md). */
int fuzz_loader_only(void);

/* Report a broken property of the code under test and abort (a crash for
 * the fuzzer and the replay alike). */
_Noreturn void fuzz_fail(const char *fmt, ...);

#endif
