/* Memory-system counters described by the FDT (see platform.h). */
#include "platform.h"
#include "rvmess/fdt.h"

/* The rvmess,memctl-counters register block (docs/memsys.md). */
#define MC_READS  0x00
#define MC_WRITES 0x08
#define MC_PEAK   0x18
#define MC_MAGIC  0x38
#define MC_MAGIC_VALUE 0x31304d4d53535652ull /* "RVSSMM01" */

static volatile uint64_t *memctl;
uint64_t pm_event_id[2];

void pm_counters_init(const struct fdt_info *fdt)
{
	if (!fdt)
		return;
	if (fdt->memctl_base) {
		volatile uint64_t *m = (volatile uint64_t *)(uintptr_t)fdt->memctl_base;
		if (m[MC_MAGIC / 8] == MC_MAGIC_VALUE)
			memctl = m;
	}
	pm_event_id[PM_EV_L1D_MISS] = fdt->hpm_l1d_miss;
	pm_event_id[PM_EV_LLC_MISS] = fdt->hpm_llc_miss;
}

int pm_memctl_read(struct pm_memctl *mc)
{
	if (!memctl)
		return -1;
	mc->reads = memctl[MC_READS / 8];
	mc->writes = memctl[MC_WRITES / 8];
	mc->peak_mbps = memctl[MC_PEAK / 8];
	return 0;
}
