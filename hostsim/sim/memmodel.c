/*
 * The memory model table (see memmodel.h, docs/memsys.md): every model's
 * ops, one file each (memmodel_fixed.c, memmodel_md1.c,
 * memmodel_simple_dram.c, memmodel_ddrctl.c, memmodel_ddr_resv.c,
 * memmodel_mess.c; the two ddr models' shared configuration is
 * memmodel_ddr_config.c), looked up by name; the --trace-mem wrapper any
 * of them can run under is memmodel_trace.c.
 */
#include "sim/memmodel.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Adding a model: its file defines `const struct memmodel_ops memmodel_X`
 * (memmodel.h declares it) and gets a row here; its keys, defaults and
 * checks come with it. */
static const struct memmodel_ops *const models[] = { &memmodel_fixed, &memmodel_md1, &memmodel_simple_dram, &memmodel_ddrctl,
                                                     &memmodel_ddr_resv, &memmodel_mess };
#define NMODELS (sizeof models / sizeof models[0])

const struct memmodel_ops *memmodel_at(size_t i)
{
	return i < NMODELS ? models[i] : NULL;
}

void memmodel_defaults(struct memsys_cfg *cfg)
{
	for (size_t i = 0; i < NMODELS; i++)
		if (models[i]->defaults)
			models[i]->defaults(cfg);
	memmodel_trace_defaults(cfg);
}

int memmodel_keys_at(size_t g, const struct memsys_key **keys, size_t *n)
{
	if (g < NMODELS) {
		*keys = models[g]->keys;
		*n = models[g]->nkeys;
		return 1;
	}
	if (g == NMODELS) {
		*keys = memmodel_trace_keys;
		*n = memmodel_trace_nkeys;
		return 1;
	}
	return 0;
}

int memmodel_check(const struct memsys_cfg *cfg, char *err, size_t errlen)
{
	for (size_t i = 0; i < NMODELS; i++)
		if (models[i]->check && models[i]->check(cfg, err, errlen))
			return -1;
	return 0;
}

const struct memmodel_ops *memmodel_find(const char *name)
{
	if (strcmp(name, "dram") == 0) /* the simple model's first name */
		name = memmodel_simple_dram.name;
	for (size_t i = 0; i < NMODELS; i++)
		if (strcmp(models[i]->name, name) == 0)
			return models[i];
	return NULL;
}

const char *memmodel_names(void)
{
	static char names[128];
	if (!names[0])
		for (size_t i = 0; i < NMODELS; i++)
			snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? " " : "", models[i]->name);
	return names;
}

int memmodel_open(struct memmodel *mm, const struct memsys_cfg *cfg, char *err, size_t errlen)
{
	mm->ops = memmodel_find(cfg->mem_model);
	mm->st = NULL;
	if (!mm->ops) {
		snprintf(err, errlen, "mem-model: unknown model '%s' (known: %s)", cfg->mem_model,
		         memmodel_names());
		return -1;
	}
	if (errlen)
		err[0] = 0;
	mm->st = mm->ops->create(cfg, err, errlen);
	if (!mm->st) {
		if (errlen && !err[0])
			snprintf(err, errlen, "mem-model %s: out of memory", cfg->mem_model);
		return -1;
	}
	return 0;
}

void memmodel_close(struct memmodel *mm)
{
	if (mm->ops && mm->st)
		mm->ops->destroy(mm->st);
	mm->st = NULL;
}