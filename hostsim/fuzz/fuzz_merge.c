/*
 * Fuzz target: a whole plan folder as `rvmess merge` reads it: the manifest
 * and the job logs.
 *
 * The input is the manifest, then each job's log in job order, separated by
 * lines "@@" (logs/0.log, logs/1.log, ...; at most 16); every record gets
 * its right checksum (fixcrc.h).  The plan's base.elf is FUZZ_MERGE_BASE (a
 * seed's plan was made from an image with that config block, so its logs'
 * cfg records are the jobs' own).  `rvmess merge PLAN --todo` and `rvmess
 * merge PLAN -o OUT --issued` run on it; the properties: --todo lists only
 * job ids, ascending, and merge never says clean (exit 0) while --todo lists
 * a job.  OUT is the same folder from run to run: each merge replaces the
 * set of the one before.
 */
#define _GNU_SOURCE /* memmem */
#include "fuzz/fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cmd/cmds.h"
#include "fuzz/fixcrc.h"

#ifndef FUZZ_MERGE_BASE
#error "FUZZ_MERGE_BASE (the plans' base image) must be defined"
#endif

#define SEP "\n@@\n"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char plan[4200], path[4200], out[4200], todo[4200];
	char *buf = malloc(size + 1), *p, *end;
	int rc, part = 0;

	if (!buf)
		abort();
	memcpy(buf, data, size);
	buf[size] = '\0';
	fuzz_fix_crcs(buf, size);
	fuzz_path(plan, sizeof(plan), "plan");
	fuzz_rmtree(plan);
	if (mkdir(plan, 0777) < 0 || mkdir(fuzz_path(path, sizeof(path), "plan/logs"), 0777) < 0)
		fuzz_fail("cannot make %s", plan);
	fuzz_copy(FUZZ_MERGE_BASE, fuzz_path(path, sizeof(path), "plan/base.elf"));
	for (p = buf, end = buf + size; p <= end && part <= 16; part++) {
		char *s = memmem(p, (size_t)(end - p), SEP, strlen(SEP));
		size_t n = s ? (size_t)(s - p) + 1 : (size_t)(end - p); /* a part keeps its last newline */

		char name[64];

		if (part == 0)
			snprintf(name, sizeof(name), "plan/manifest.tsv");
		else
			snprintf(name, sizeof(name), "plan/logs/%d.log", part - 1);
		fuzz_path(path, sizeof(path), name);
		fuzz_write(path, p, n);
		if (!s)
			break;
		p = s + strlen(SEP);
	}
	free(buf);
	fuzz_path(todo, sizeof(todo), "todo.txt");
	rc = fuzz_cmd(cmd_merge, todo, "merge", plan, "--todo", (char *)NULL);
	fuzz_check_todo(todo, rc);
	fuzz_path(out, sizeof(out), "out"); /* kept from run to run: each merge replaces the last one's set */
	rc = fuzz_cmd(cmd_merge, NULL, "merge", plan, "-o", out, "-q", "--issued", (char *)NULL);
	if (rc == 0 && fuzz_file_size(todo) > 0)
		fuzz_fail("merge exits 0 while --todo lists jobs");
	return 0;
}
