/*
 * The config block (firmware/include/rvmess/config.h): build-time defaults in
 * section .rvmess_config, rewritten in the ELF by `rvmess config`.  It is
 * `const volatile` so the compiler cannot fold the defaults into the code;
 * the lead copies it once at boot and validates the copy.
 */
#include "platform.h"
#include "rvmess/rt.h"
#include "cfg.h"

const volatile struct rvm_config rvm_config_block
	__attribute__((section(RVM_CFG_SECTION), used, aligned(8))) = {
	.magic = RVM_CFG_MAGIC,
	.version = RVM_CFG_VERSION,
	.size = sizeof(struct rvm_config),

	.suites = RVM_SUITE_CHASE | RVM_SUITE_LAT | RVM_SUITE_PAR,
	.reps = 3,
	.warmups = 1,
	.timeout_ms = 2000,
	.max_harts = 0,
	.seed = 1,

	.chase_size = 8u << 20,
	.chase_loads = 50000,
	.chase_all_harts = 1,
	.inject_hang = 0,

	.lat_max = 1u << 20,
	.lat_loads = 10000,
	.lat_nstrides = 6,
	.lat_strides = { 64, 128, 256, 512, 1024, 4096 },
	.lat_random = 1,

	.par_max = 1u << 20,
	.par_kmax = 16,

	.mess_chase_size = 16u << 20,
	.mess_gen_size = 2u << 20,
	.mess_window_loads = 10000,
	.mess_nmix = 6,
	.mess_mix = { 0, 20, 40, 60, 80, 100 },
	.mess_npause = 16,
	.mess_pause = { 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384 },
};

static const char *const suite_names[] = RVM_SUITE_NAMES;

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


int cfg_check(const struct rvm_config *c, uint64_t heap_size)
{
	int n = 0;

	if (c->magic != RVM_CFG_MAGIC)
		return bad("bad_magic");
	if (c->version != RVM_CFG_VERSION)
		return bad("unknown_version");
	if (c->size != sizeof(struct rvm_config))
		return bad("bad_size");

	if (!c->suites || (c->suites & ~RVM_SUITE_ALL))
		n += bad("suites_empty_or_unknown_bits");
	if (c->reps < 1 || c->reps > 100)
		n += bad("reps_not_in_1..100");
	if (c->warmups > 100)
		n += bad("warmups_over_100");
	if (c->timeout_ms < 1 || c->timeout_ms > 3600000)
		n += bad("timeout_ms_not_in_1..3600000");
	if (c->max_harts > RVM_MAX_HARTS)
		n += bad("max_harts_over_64");
	if (c->inject_hang > RVM_MAX_HARTS)
		n += bad("inject_hang_over_64");
	if (c->chase_all_harts > 1)
		n += bad("chase_all_harts_not_0_or_1");
	if (c->lat_random > 1)
		n += bad("lat_random_not_0_or_1");

	if (c->suites & RVM_SUITE_CHASE) {
		if (c->chase_size < 2 * RVM_LINE || c->chase_size % RVM_LINE)
			n += bad("chase_size_not_a_multiple_of_64_>=128");
		else if (c->chase_size > heap_size)
			n += bad("chase_size_exceeds_heap");
		if (c->chase_loads < 1 || c->chase_loads > (1ull << 40))
			n += bad("chase_loads_not_in_1..2^40");
	}
	if (c->suites & RVM_SUITE_LAT) {
		if (c->lat_max < 512)
			n += bad("lat_max_below_512");
		else if (c->lat_max > heap_size)
			n += bad("lat_max_exceeds_heap");
		if (c->lat_nstrides < 1 || c->lat_nstrides > RVM_CFG_MAX_STRIDES)
			n += bad("lat_nstrides_not_in_1..8");
		else
			for (uint32_t i = 0; i < c->lat_nstrides; i++)
				if (c->lat_strides[i] < 8 || c->lat_strides[i] % 8 ||
				    c->lat_strides[i] > c->lat_max / 2)
					n += bad("lat_stride_not_a_multiple_of_8_in_8..lat_max/2");
	}
	if (c->suites & RVM_SUITE_PAR) {
		if (c->par_kmax < 1 || c->par_kmax > 16)
			n += bad("par_kmax_not_in_1..16");
		if (c->par_max < 512)
			n += bad("par_max_below_512");
		else if (c->par_max + c->par_max / 8 + 4096 > heap_size)
			n += bad("par_max_exceeds_heap");
	}
	/* lat_loads is also the minimum loads per par point */
	if ((c->suites & (RVM_SUITE_LAT | RVM_SUITE_PAR)) &&
	    (c->lat_loads < 1 || c->lat_loads > (1ull << 40)))
		n += bad("lat_loads_not_in_1..2^40");
	if (c->suites & RVM_SUITE_MESS) {
		if (c->mess_nmix < 1 || c->mess_nmix > RVM_CFG_MAX_MIXES)
			n += bad("mess_nmix_not_in_1..51");
		else
			for (uint32_t i = 0; i < c->mess_nmix; i++)
				if (c->mess_mix[i] > 100 || c->mess_mix[i] % 2)
					n += bad("mess_mix_not_even_in_0..100");
		if (c->mess_npause < 1 || c->mess_npause > RVM_CFG_MAX_PAUSES)
			n += bad("mess_npause_not_in_1..48");
		if (c->mess_chase_size < 2 * RVM_LINE || c->mess_chase_size % RVM_LINE)
			n += bad("mess_chase_size_not_a_multiple_of_64_>=128");
		if (c->mess_gen_size < 3200)
			n += bad("mess_gen_size_below_one_3200-byte_block");
		if (c->mess_window_loads < 100 || c->mess_window_loads > (1ull << 40))
			n += bad("mess_window_loads_not_in_100..2^40");
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
	uint32_t v[RVM_CFG_MAX_MIXES];
	char names[64];
	uint32_t k = 0;

	for (unsigned i = 0; i < sizeof(suite_names) / sizeof(suite_names[0]); i++) {
		if (!(c->suites & (1u << i)))
			continue;
		if (k)
			names[k++] = ',';
		for (const char *p = suite_names[i]; *p; p++)
			names[k++] = *p;
	}
	names[k] = 0;

	rec_begin(&r, REC_CFG);
	rec_s(&r, "suites", names);
	rec_u(&r, "reps", c->reps);
	rec_u(&r, "warmups", c->warmups);
	rec_u(&r, "timeout_ms", c->timeout_ms);
	rec_u(&r, "max_harts", c->max_harts);
	rec_u(&r, "seed", c->seed);
	rec_u(&r, "chase_size", c->chase_size);
	rec_u(&r, "chase_loads", c->chase_loads);
	rec_u(&r, "chase_all_harts", c->chase_all_harts);
	rec_u(&r, "inject_hang", c->inject_hang);
	rec_u(&r, "lat_max", c->lat_max);
	rec_u(&r, "lat_loads", c->lat_loads);
	rec_ulist(&r, "lat_strides", c->lat_strides,
	          c->lat_nstrides <= RVM_CFG_MAX_STRIDES ? c->lat_nstrides : RVM_CFG_MAX_STRIDES);
	rec_u(&r, "lat_random", c->lat_random);
	rec_u(&r, "par_max", c->par_max);
	rec_u(&r, "par_kmax", c->par_kmax);
	if (c->suites & RVM_SUITE_MESS) {
		uint32_t nm = c->mess_nmix <= RVM_CFG_MAX_MIXES ? c->mess_nmix : RVM_CFG_MAX_MIXES;
		uint32_t np = c->mess_npause <= RVM_CFG_MAX_PAUSES ? c->mess_npause : RVM_CFG_MAX_PAUSES;
		rec_u(&r, "mess_chase_size", c->mess_chase_size);
		rec_u(&r, "mess_gen_size", c->mess_gen_size);
		rec_u(&r, "mess_window_loads", c->mess_window_loads);
		for (uint32_t i = 0; i < nm; i++)
			v[i] = c->mess_mix[i];
		rec_ulist(&r, "mess_mix", v, nm);
		rec_ulist(&r, "mess_pause", c->mess_pause, np);
	}
	rec_emit(&r);
}
