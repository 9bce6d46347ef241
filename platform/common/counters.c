/* Memory-system counters described by the FDT (see platform.h). */
#include "platform.h"
#include "rvmess/fdt.h"
#include "rvmess/memctl.h"

static volatile uint64_t *memctl;
static volatile uint64_t *phase; /* memctl's PHASE register, when offered */
uint64_t pm_event_id[2];

void pm_counters_init(const struct fdt_info *fdt)
{
	if (!fdt)
		return;
	if (fdt->memctl_base) {
		volatile uint64_t *m = (volatile uint64_t *)(uintptr_t)fdt->memctl_base;
		if (m[RVM_MEMCTL_MAGIC / 8] == RVM_MEMCTL_MAGIC_VALUE)
			memctl = m;
		if (memctl && (m[RVM_MEMCTL_PHASE / 8] & RVM_MEMCTL_PHASE_OFFERED))
			phase = &m[RVM_MEMCTL_PHASE / 8];
	}
	/* the FDT's ids when it names them; else what plat.init preset */
	if (fdt->hpm_l1d_miss)
		pm_event_id[PM_EV_L1D_MISS] = fdt->hpm_l1d_miss;
	if (fdt->hpm_llc_miss)
		pm_event_id[PM_EV_LLC_MISS] = fdt->hpm_llc_miss;
}

int pm_memctl_read(struct pm_memctl *mc)
{
	if (!memctl)
		return -1;
	mc->reads = memctl[RVM_MEMCTL_READS / 8];
	mc->writes = memctl[RVM_MEMCTL_WRITES / 8];
	mc->peak_mbps = memctl[RVM_MEMCTL_PEAK / 8];
	return 0;
}

void pm_setup_phase(int on)
{
	if (phase)
		*phase = on ? 1 : 0;
}
