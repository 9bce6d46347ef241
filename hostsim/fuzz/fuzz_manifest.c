/*
 * Fuzz target: a sweep plan's manifest (docs/sweeps.md), as `rvmess merge`
 * and the runner read it.
 *
 * plan_read on an exact-size copy; an accepted manifest must write back
 * (plan_write) to a text that reads again to the same text (every value the
 * tool writes, it reads back).  Then the manifest goes into a plan folder
 * with FUZZ_MERGE_BASE as its base.elf and no job log, and `rvmess merge
 * PLAN --todo` and `rvmess merge PLAN -o OUT` run on it: whatever the
 * manifest says, --todo lists only job ids in order, and merge never exits
 * 0 while --todo lists a job.  With RVMESS_FUZZ_LOADER=1 the input ends after
 * plan_read and the round trip (the loader alone, fuzz.h).
 */
#include "fuzz/fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cmd/cmds.h"
#include "cli/plan.h"

#ifndef FUZZ_MERGE_BASE
#error "FUZZ_MERGE_BASE (the plans' base image) must be defined"
#endif

static char *plan_text(const struct plan *p, size_t *len)
{
	char *t = NULL;
	FILE *f = open_memstream(&t, len);

	if (!f || plan_write(p, f) < 0 || fclose(f) != 0)
		fuzz_fail("plan_write failed on an accepted manifest");
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char plan[4200], path[4200], out[4200], todo[4200];
	char *copy = malloc(size ? size : 1);
	struct plan p;
	FILE *f;
	int rc;

	if (!copy)
		abort();
	memcpy(copy, data, size);
	f = size ? fmemopen(copy, size, "r") : fopen("/dev/null", "r");
	if (!f)
		abort();
	if (plan_read("m.tsv", f, NULL, &p) == 0) {
		size_t l1, l2;
		char *t1 = plan_text(&p, &l1), *t2;
		struct plan q;
		FILE *g = fmemopen(t1, l1, "r");

		if (!g || plan_read("again.tsv", g, stderr, &q) != 0)
			fuzz_fail("an accepted manifest, written back, is refused");
		fclose(g);
		t2 = plan_text(&q, &l2);
		if (l1 != l2 || memcmp(t1, t2, l1) != 0)
			fuzz_fail("an accepted manifest does not write back to the same text");
		free(t1);
		free(t2);
		plan_free(&q);
		plan_free(&p);
	}
	fclose(f);
	free(copy);
	if (fuzz_loader_only())
		return 0;

	fuzz_path(plan, sizeof(plan), "plan");
	fuzz_rmtree(plan);
	if (mkdir(plan, 0777) < 0 || mkdir(fuzz_path(path, sizeof(path), "plan/logs"), 0777) < 0)
		fuzz_fail("cannot make %s", plan);
	fuzz_write(fuzz_path(path, sizeof(path), "plan/manifest.tsv"), data, size);
	fuzz_copy(FUZZ_MERGE_BASE, fuzz_path(path, sizeof(path), "plan/base.elf"));
	fuzz_path(todo, sizeof(todo), "todo.txt");
	rc = fuzz_cmd(cmd_merge, todo, "merge", plan, "--todo", (char *)NULL);
	fuzz_check_todo(todo, rc);
	fuzz_path(out, sizeof(out), "out");
	rc = fuzz_cmd(cmd_merge, NULL, "merge", plan, "-o", out, "-q", (char *)NULL);
	if (rc == 0 && fuzz_file_size(todo) > 0)
		fuzz_fail("merge exits 0 while --todo lists jobs");
	return 0;
}
