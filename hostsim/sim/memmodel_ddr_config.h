/*
 * The ddr memory models' configuration, apart from their schedulers.
 *
 * Two models serve the same JEDEC-timed DDR4/DDR5 devices with different
 * controllers: "ddr" (memmodel_ddrctl.c) decides each command when it can
 * issue, "ddr-resv" (memmodel_ddr_resv.c) books each request when it
 * arrives.  What they share is here, so that both see the same devices
 * and a test can run the same requests on either: the presets (JEDEC
 * speed bins), the ddr-* keys with their defaults and checks, the
 * configuration resolved into ticks, the address map from a line address
 * to channel, rank, bank group, bank and row, and the statistics report.
 * docs/memsys.md ("The ddr model", "ddr-resv") gives the presets' sources
 * and the map.
 *
 * Time is in ticks of 1/256 core cycle (memmodel_ticks.h); the keys give
 * DRAM timings in DRAM clocks (nCK), converted here with the data rate.
 */
#ifndef HOSTSIM_MEMMODEL_DDR_CONFIG_H
#define HOSTSIM_MEMMODEL_DDR_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include "sim/memmodel.h"

/* The timings, in the order of struct memsys_cfg's ddr_t[] (the keys
 * ddr-tcl ... ddr-trefi, then ddr-bl, the burst length in beats). */
enum ddr_timing {
	T_CL, T_CWL, T_RCD, T_RP, T_RAS, T_RC, T_RRD_S, T_RRD_L, T_CCD_S, T_CCD_L, T_FAW,
	T_WTR_S, T_WTR_L, T_RTP, T_WR, T_RTW, T_RTRS, T_RFC, T_REFI, T_BL, T_COUNT
};

/* The configuration, resolved: a preset with the keys that override it. */
struct ddr_config {
	/* the devices (each count a power of two) */
	unsigned channels;
	unsigned ranks;            /* per channel */
	unsigned bank_groups;      /* per rank */
	unsigned banks_per_group;
	uint64_t tck;              /* one DRAM clock in whole ticks: commands issue on its edges */
	uint64_t burst;            /* one burst (one line) on the data bus, ticks */
	uint64_t t[T_COUNT];       /* the timings, ticks (t[T_BL] unused) */
	uint64_t peak_mbps;        /* data rate x width x channels */
	/* the controller */
	uint64_t frontend;         /* ddr-frontend: LLC -> controller -> LLC, ticks */
	int closed_page;           /* ddr-page closed: a column command precharges */
	unsigned rq_entries;       /* ddr-rq, per channel */
	unsigned wq_entries;       /* ddr-wq, per channel */
	unsigned wq_high, wq_low;  /* ddr-wq-hi, ddr-wq-lo: a write drain's start and end */
	unsigned starve_cap;       /* ddr-cap */
	unsigned fair_kept;        /* ddr-fair: read-queue entries kept for a source with none queued */
	unsigned src_rq;           /* ddr-src-rq; 0 when it is ddr-rq or more: no share of its own */
	int pf_room;               /* ddr-pf-room with a share: prefetches see the room the shares leave */
	/* the address map (ddr_map): what each byte of a line address
	 * contributes, the contributions XORed together; the row is the line
	 * address from bit row_shift up */
	uint64_t (*map_by_byte)[256];
	unsigned row_shift;
};

/* Where a line lives. */
struct ddr_loc {
	unsigned channel, rank, bank_group, bank_in_group;
	unsigned bank;             /* (rank, bank group, bank) as one number: the channel's bank index */
	unsigned rank_bg;          /* (rank, bank group) as one number */
	int64_t row;
};

/* The positions of a ddr_loc's fields in a map_by_byte entry. */
enum { MAP_CHANNEL = 0, MAP_RANK = 8, MAP_BANK_GROUP = 16, MAP_BANK_IN_GROUP = 24, MAP_BANK = 32, MAP_RANK_BG = 48 };

/* The ddr-* keys (listed once, in the ddr model's row of memmodel.c's
 * table; both models read them), their defaults and their checks (made
 * whichever model is selected; those that involve other keys, such as
 * line, are made by ddr_config_resolve). */
#define DDR_CONFIG_NKEYS 40 /* (more: test_memsys fails on an empty key; fewer: no build) */
extern const struct memsys_key ddr_config_keys[DDR_CONFIG_NKEYS];
void ddr_config_defaults(struct memsys_cfg *c);
int ddr_config_check(const struct memsys_cfg *c, char *err, size_t errlen);

/* Resolve cfg into *dc: 0, or -1 + err (then nothing is held).
 * ddr_config_free releases what a resolved one holds. */
int ddr_config_resolve(const struct memsys_cfg *cfg, struct ddr_config *dc, char *err, size_t errlen);
void ddr_config_free(struct ddr_config *dc);

/* A ddr model's statistics (times in ticks) as memmodel_ops.stats reports
 * them (times in core cycles). */
void ddr_stats_report(const struct ddr_stats *st, struct memsys_model_stats *s);

/* The location of line address `line` (on every request: inline). */
static inline void ddr_map(const struct ddr_config *dc, uint64_t line, struct ddr_loc *loc)
{
	/* (with ddr-xor every row bit is folded into bank group and bank: lines
	 * that share their low address bits, such as a line and the LLC
	 * victim it replaces, land in different banks; see ddr_config_resolve) */
	uint64_t m = dc->map_by_byte[0][line & 255] ^ dc->map_by_byte[1][line >> 8 & 255] ^
	             dc->map_by_byte[2][line >> 16 & 255] ^ dc->map_by_byte[3][line >> 24 & 255];
	unsigned i = 4;
	for (uint64_t x = line >> 32; x; x >>= 8, i++)
		m ^= dc->map_by_byte[i][x & 255];
	loc->channel = m >> MAP_CHANNEL & 255;
	loc->rank = m >> MAP_RANK & 255;
	loc->bank_group = m >> MAP_BANK_GROUP & 255;
	loc->bank_in_group = m >> MAP_BANK_IN_GROUP & 255;
	loc->bank = m >> MAP_BANK & 0xffff;
	loc->rank_bg = (unsigned)(m >> MAP_RANK_BG);
	loc->row = (int64_t)(line >> dc->row_shift);
}

#endif
