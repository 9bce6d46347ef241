/*
 * Fuzz target: a hostsim --config file (key=value lines, docs/hostsim.md),
 * read by sim_opts_load_file into the default options.
 */
#include "fuzz/fuzz.h"

#include "sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sim_opts o;
	char path[4200], err[512];

	fuzz_write(fuzz_path(path, sizeof(path), "hostsim.cfg"), data, size);
	sim_opts_default(&o);
	if (sim_opts_load_file(&o, path, err, sizeof(err)) == 0 && (o.harts < 1 || o.harts > SIM_MAX_HARTS))
		fuzz_fail("accepted harts=%u", o.harts);
	return 0;
}
