/*
 * The config block (firmware/include/rvmess/config.h): build-time defaults in
 * section .rvmess_config, rewritten in the ELF by `rvmess config`.  It is
 * `const volatile` so the compiler cannot fold the defaults into the code;
 * the lead copies it once at boot and validates the copy.  Defaults, ranges
 * and the record's keys come from the key table (rvmess/cfgschema.h).
 */
#include "platform.h"
#include "rvmess/cfgschema.h"
#include "rvmess/rt.h"
#include "cfg.h"

const volatile struct rvm_config rvm_config_block
	__attribute__((section(RVM_CFG_SECTION), used, aligned(8))) = RVM_CFG_DEFAULTS;

void cfg_load(struct rvm_config *c)
{
	const volatile uint64_t *s = (const volatile uint64_t *)&rvm_config_block;
	uint64_t *d = (uint64_t *)c;

	for (size_t i = 0; i < sizeof(*c) / 8; i++)
		d[i] = s[i];
}

static int bad(const char *msg)
{
	rvm_err("config", msg);
	return 1;
}

static void report(void *ctx, const struct rvm_cfg_problem *p)
{
	char code[96];

	(void)ctx;
	bad(rvm_cfg_code(p, code, sizeof(code)));
}

int cfg_check(const struct rvm_config *c, uint64_t heap_size)
{
	int n;

	if (c->magic != RVM_CFG_MAGIC)
		return bad("bad_magic");
	if (c->version != RVM_CFG_VERSION)
		return bad("unknown_version");
	if (c->size != sizeof(struct rvm_config))
		return bad("bad_size");

	n = rvm_cfg_check_all(c, report, 0);

	/* what depends on this target's heap */
	if ((c->suites & RVM_SUITE_CHASE) && c->chase_size > heap_size)
		n += bad("chase_size_exceeds_heap");
	if ((c->suites & RVM_SUITE_LAT) && c->lat_max > heap_size)
		n += bad("lat_max_exceeds_heap");
	if ((c->suites & RVM_SUITE_PAR) && c->par_max + c->par_max / 8 + 4096 > heap_size)
		n += bad("par_max_exceeds_heap");
	if (c->suites & RVM_SUITE_MESS) {
		/* the ring plus a load and a store array for every other hart */
		uint64_t others = rvm.nharts > 1 ? rvm.nharts - 1 : 0;
		uint64_t gen = c->mess_gen_size / 3200 * 3200;
		if (c->mess_chase_size > heap_size || others * 2 * gen > heap_size - c->mess_chase_size)
			n += bad("mess_arrays_exceed_heap");
	}
	return n;
}

void cfg_record(const struct rvm_config *c)
{
	struct rec r;
	uint32_t v[64];
	char names[64];

	rec_begin(&r, REC_CFG);
	for (unsigned i = 0; i < rvm_cfg_nkeys; i++) {
		const struct rvm_cfg_key *k = &rvm_cfg_keys[i];
		uint32_t n = 0;

		if (k->recif && !(c->suites & k->recif))
			continue;
		if (k->list) {
			n = rvm_cfg_count(c, k);
			if (n > k->maxn)
				n = k->maxn;
			if (n > sizeof(v) / sizeof(v[0]))
				n = sizeof(v) / sizeof(v[0]);
			for (uint32_t j = 0; j < n; j++)
				v[j] = (uint32_t)rvm_cfg_get(c, k, j);
			rec_ulist(&r, k->name, v, n);
		} else if (k->type == RVM_CFG_T_SUITES) {
			for (unsigned s = 0; s < RVM_SUITE_COUNT; s++) {
				if (!(c->suites & (1u << s)))
					continue;
				if (n)
					names[n++] = ',';
				for (const char *p = rvm_suite_names[s]; *p; p++)
					names[n++] = *p;
			}
			names[n] = 0;
			rec_s(&r, k->name, names);
		} else {
			rec_u(&r, k->name, rvm_cfg_get(c, k, 0));
		}
	}
	rec_emit(&r);
}
