/*
 * The ddr memory models' configuration (memmodel_ddr_config.h): the
 * presets, the ddr-* keys with their defaults and checks, their
 * resolution into ticks, the address map, and the statistics report.  Kept apart from the two
 * schedulers that read it (memmodel_ddrctl.c, memmodel_ddr_resv.c), so
 * that both model the same devices and neither holds the other's
 * configuration.  docs/memsys.md gives the presets' sources.
 */
#include "sim/memmodel_ddr_config.h"
#include "sim/memmodel_ticks.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(T_COUNT == MEMSYS_DDR_NT, "struct memsys_cfg ddr_t[] holds every timing");

/* ---- presets (JEDEC speed bins; see docs/memsys.md for sources) --------- */

struct ddr_preset {
	const char *name;
	unsigned mts;        /* data rate, MT/s */
	unsigned width;      /* bytes per beat of one channel */
	unsigned bank_groups, banks_per_group;
	unsigned row;        /* row (page) per rank, bytes */
	unsigned t[T_COUNT]; /* nCK (burst length in beats) */
};

static const struct ddr_preset presets[] = {
	/* DDR4-2666V 19-19-19, 8 Gb x8 (1 KiB page, 8 chips: 8 KiB row) */
	{ "DDR4-2666", 2666, 8, 4, 4, 8192,
	  { 19, 14, 19, 19, 43, 62, 4, 7, 4, 7, 28, 4, 10, 10, 20, 2, 2, 467, 10400, 8 } },
	/* DDR4-3200AA 22-22-22, 8 Gb x8 */
	{ "DDR4-3200", 3200, 8, 4, 4, 8192,
	  { 22, 16, 22, 22, 52, 74, 4, 8, 4, 8, 34, 4, 12, 12, 24, 2, 2, 560, 12480, 8 } },
	/* DDR5-4800B 40-39-39, 16 Gb x8, one 32-bit subchannel (4 chips: 4 KiB row) */
	{ "DDR5-4800", 4800, 4, 8, 4, 4096,
	  { 40, 38, 39, 39, 77, 116, 8, 12, 8, 12, 32, 6, 24, 18, 72, 2, 2, 708, 9360, 16 } },
};
#define NPRESETS (sizeof presets / sizeof presets[0])

static const struct ddr_preset *preset_find(const char *name)
{
	for (size_t i = 0; i < NPRESETS; i++)
		if (strcmp(presets[i].name, name) == 0)
			return &presets[i];
	return NULL;
}

/* The timings in nCK: each key's value, or its preset's where it is 0. */
static void timings_nck(const struct memsys_cfg *c, const struct ddr_preset *p, unsigned nck[T_COUNT])
{
	for (int i = 0; i < T_COUNT; i++)
		nck[i] = c->ddr_t[i] ? c->ddr_t[i] : p->t[i];
}

/* ---- keys ------------------------------------------------------------------ */

#define TIMING_KEY(n, f, h) \
	{ "ddr-" n, K_U32, OFF(ddr_t) + (f) * sizeof(unsigned), 0, 1000000, "ddr: " h ", nCK (0 = preset)" }
const struct memsys_key ddr_config_keys[] = {
	{ "ddr-preset", K_STR, OFF(ddr_preset), 0, 0, "ddr: device preset: DDR4-2666 DDR4-3200 DDR5-4800" },
	{ "ddr-channels", K_U32, OFF(ddr_channels), 1, 64, "ddr: channels (power of two)" },
	{ "ddr-ranks", K_U32, OFF(ddr_ranks), 1, 16, "ddr: ranks per channel (power of two)" },
	{ "ddr-bankgroups", K_U32, OFF(ddr_bgs), 0, 64, "ddr: bank groups per rank, power of two (0 = preset)" },
	{ "ddr-banks", K_U32, OFF(ddr_banks), 0, 64, "ddr: banks per bank group, power of two (0 = preset)" },
	{ "ddr-row", K_U32, OFF(ddr_row), 0, 1u << 20, "ddr: row (page) size per rank, bytes, power of two (0 = preset)" },
	{ "ddr-mts", K_U32, OFF(ddr_mts), 0, 20000, "ddr: data rate, MT/s (0 = preset)" },
	{ "ddr-width", K_U32, OFF(ddr_width), 0, 64, "ddr: channel width, bytes per beat (0 = preset)" },
	TIMING_KEY("tcl", T_CL, "read command to data"),
	TIMING_KEY("tcwl", T_CWL, "write command to data"),
	TIMING_KEY("trcd", T_RCD, "activate to column command"),
	TIMING_KEY("trp", T_RP, "precharge to activate"),
	TIMING_KEY("tras", T_RAS, "activate to precharge"),
	TIMING_KEY("trc", T_RC, "activate to activate, same bank"),
	TIMING_KEY("trrd-s", T_RRD_S, "activate to activate, other bank group"),
	TIMING_KEY("trrd-l", T_RRD_L, "activate to activate, same bank group"),
	TIMING_KEY("tccd-s", T_CCD_S, "column to column, other bank group"),
	TIMING_KEY("tccd-l", T_CCD_L, "column to column, same bank group"),
	TIMING_KEY("tfaw", T_FAW, "window for four activates per rank"),
	TIMING_KEY("twtr-s", T_WTR_S, "end of write data to read command, other bank group"),
	TIMING_KEY("twtr-l", T_WTR_L, "end of write data to read command, same bank group"),
	TIMING_KEY("trtp", T_RTP, "read command to precharge"),
	TIMING_KEY("twr", T_WR, "end of write data to precharge (write recovery)"),
	TIMING_KEY("trtw", T_RTW, "idle bus between read data and write data (turnaround)"),
	TIMING_KEY("trtrs", T_RTRS, "idle bus between bursts of two ranks"),
	TIMING_KEY("trfc", T_RFC, "refresh: rank blocked this long"),
	TIMING_KEY("trefi", T_REFI, "refresh interval"),
	{ "ddr-bl", K_U32, OFF(ddr_t) + T_BL * sizeof(unsigned), 0, 64, "ddr: burst length, beats (0 = preset)" },
	{ "ddr-page", K_STR, OFF(ddr_page), 0, 0, "ddr: page policy: open | closed" },
	{ "ddr-map", K_STR, OFF(ddr_map), 0, 0, "ddr: address pieces from the line address up: ch bg ba ra co, co2 = 2 bits of co (row above)" },
	{ "ddr-xor", K_U32, OFF(ddr_xor), 0, 1, "ddr: 1 = XOR bank group and bank with the folded row bits" },
	{ "ddr-rq", K_U32, OFF(ddr_rq), 1, 1024, "ddr: read queue entries per channel" },
	{ "ddr-wq", K_U32, OFF(ddr_wq), 1, 1024, "ddr: write queue entries per channel" },
	{ "ddr-wq-hi", K_U32, OFF(ddr_wq_hi), 1, 1024, "ddr: write drain starts with this many writes queued" },
	{ "ddr-wq-lo", K_U32, OFF(ddr_wq_lo), 0, 1024, "ddr: write drain stops at this many" },
	{ "ddr-cap", K_U32, OFF(ddr_cap), 0, 100000, "ddr: starvation cap: a read's burst goes at most this many bus slots before the latest committed one" },
	{ "ddr-fair", K_U32, OFF(ddr_fair), 0, 1023, "ddr: read-queue entries kept for a hart with no read queued (< ddr-rq; 0 = off: first come first served)" },
	{ "ddr-src-rq", K_U32, OFF(ddr_src_rq), 0, 1024, "ddr: read-queue entries one hart may hold, its further reads waiting to enter (0 = off: up to ddr-rq)" },
	{ "ddr-pf-room", K_U32, OFF(ddr_pf_room), 0, 1, "ddr: 1 = a prefetch is dropped when the read queue has no room left by the harts' shares (their reads beyond ddr-src-rq wait outside and leave room); 0 = when the reads pending fill ddr-rq" },
	{ "ddr-frontend", K_U32, OFF(ddr_frontend), 0, 100000, "ddr: on-chip path LLC -> controller -> LLC, core cycles" },
};

void ddr_config_defaults(struct memsys_cfg *c)
{
	snprintf(c->ddr_preset, sizeof c->ddr_preset, "DDR4-3200");
	c->ddr_channels = 1;
	c->ddr_ranks = 1;
	memset(c->ddr_t, 0, sizeof c->ddr_t);
	c->ddr_bgs = c->ddr_banks = c->ddr_row = c->ddr_mts = c->ddr_width = 0;
	snprintf(c->ddr_page, sizeof c->ddr_page, "open");
	snprintf(c->ddr_map, sizeof c->ddr_map, "co2:bg:co:ch:ba:ra");
	c->ddr_xor = 1;
	c->ddr_rq = 32;
	c->ddr_wq = 64;
	c->ddr_wq_hi = 56;
	c->ddr_wq_lo = 40;
	c->ddr_cap = 64;
	c->ddr_frontend = 40;
	c->ddr_fair = 0;
	c->ddr_src_rq = 4;
	c->ddr_pf_room = 0;
}

/* ---- checks ------------------------------------------------------------------ */

static unsigned log2u(uint64_t v) { unsigned n = 0; while (v > 1) { v >>= 1; n++; } return n; }

/* Checked whichever model is selected: the keys' own values.  The checks
 * that involve other keys (line) are made when the model is opened. */
int ddr_config_check(const struct memsys_cfg *c, char *err, size_t errlen)
{
	const struct ddr_preset *p = preset_find(c->ddr_preset);
	if (!p) {
		snprintf(err, errlen, "ddr: unknown ddr-preset '%.20s' (known: DDR4-2666 DDR4-3200 DDR5-4800)", c->ddr_preset);
		return -1;
	}
	if (strcmp(c->ddr_page, "open") && strcmp(c->ddr_page, "closed")) {
		snprintf(err, errlen, "ddr: ddr-page '%.15s': open or closed", c->ddr_page);
		return -1;
	}
	/* (memmodel_ddr_resv.c's bus bitmaps rely on it: see forbid_around) */
	unsigned nck[T_COUNT];
	timings_nck(c, p, nck);
	if (nck[T_CCD_L] < nck[T_CCD_S] || nck[T_WTR_L] < nck[T_WTR_S]) {
		snprintf(err, errlen, "ddr: a bank group's own spacing must be at least another's (JEDEC): ddr-tccd-l "
		         "(%u) >= ddr-tccd-s (%u), ddr-twtr-l (%u) >= ddr-twtr-s (%u)", nck[T_CCD_L], nck[T_CCD_S],
		         nck[T_WTR_L], nck[T_WTR_S]);
		return -1;
	}
	if (c->ddr_fair >= c->ddr_rq) {
		snprintf(err, errlen, "ddr: need ddr-fair (%u) < ddr-rq (%u)", c->ddr_fair, c->ddr_rq);
		return -1;
	}
	if (c->ddr_wq_hi > c->ddr_wq || c->ddr_wq_lo >= c->ddr_wq_hi) {
		snprintf(err, errlen, "ddr: need ddr-wq-lo (%u) < ddr-wq-hi (%u) <= ddr-wq (%u)", c->ddr_wq_lo,
		         c->ddr_wq_hi, c->ddr_wq);
		return -1;
	}
	return 0;
}

/* ---- the address map ------------------------------------------------------------ */

/* The fields of a location a ddr-map piece names. */
enum map_field { FIELD_CHANNEL, FIELD_BANK_GROUP, FIELD_BANK, FIELD_RANK, FIELD_COLUMN, NFIELDS };
static const char *const field_names[NFIELDS] = { "ch", "bg", "ba", "ra", "co" };
#define MAP_MAX_PIECES 12

/* Line address bit a flips bit j of field f (and of the bank's and the
 * rank's bank group's numbers, which hold bg_bits of bank group and
 * bank_bits of bank below the rank): in table (see ddr_map). */
static void map_flip(uint64_t (*table)[256], unsigned a, enum map_field f, unsigned j, unsigned bg_bits,
                     unsigned bank_bits)
{
	uint64_t m = f == FIELD_CHANNEL ? 1ull << (MAP_CHANNEL + j)
	           : f == FIELD_RANK ? 1ull << (MAP_RANK + j) | 1ull << (MAP_BANK + bg_bits + bank_bits + j) |
	                               1ull << (MAP_RANK_BG + bg_bits + j)
	           : f == FIELD_BANK_GROUP ? 1ull << (MAP_BANK_GROUP + j) | 1ull << (MAP_BANK + bank_bits + j) |
	                                     1ull << (MAP_RANK_BG + j)
	                                   : 1ull << (MAP_BANK_IN_GROUP + j) | 1ull << (MAP_BANK + j);
	for (unsigned v = 0; v < 256; v++)
		if (v >> (a & 7) & 1)
			table[a / 8][v] ^= m;
}

/* The map (ddr-map, ddr-xor) into dc->map_by_byte and dc->row_shift, for
 * fields of field_bits[f] bits: 0, or -1 + err. */
static int map_build(const struct memsys_cfg *c, const unsigned field_bits[NFIELDS], struct ddr_config *dc,
                     char *err, size_t errlen)
{
	/* the pieces of fields from the line address up, ':'-separated; "co2"
	 * is two bits of the column, "co" the rest of it; every field
	 * complete at the end; the row is above */
	struct { unsigned char field, bits, field_pos, addr_pos; } piece[MAP_MAX_PIECES];
	unsigned npieces = 0, used[NFIELDS] = { 0 }, addr_bit = 0;
	const char *s = c->ddr_map;
	while (*s) {
		size_t len = strcspn(s, ":");
		int f = -1;
		for (int i = 0; i < NFIELDS; i++)
			if (len >= 2 && strncmp(s, field_names[i], 2) == 0)
				f = i;
		unsigned nb = 0, digits = 0;
		for (size_t q = 2; q < len; q++, digits++)
			nb = s[q] >= '0' && s[q] <= '9' && nb < 100 ? nb * 10 + (unsigned)(s[q] - '0') : 1000;
		if (f < 0 || npieces == MAP_MAX_PIECES || nb > field_bits[f] - used[f]) {
			snprintf(err, errlen, "ddr: ddr-map '%.30s': pieces ch bg ba ra co (optionally with a bit count, "
			         "as co2), ':'-separated, each field complete", c->ddr_map);
			return -1;
		}
		if (!digits)
			nb = field_bits[f] - used[f];
		piece[npieces].field = (unsigned char)f;
		piece[npieces].bits = (unsigned char)nb;
		piece[npieces].field_pos = (unsigned char)used[f];
		piece[npieces].addr_pos = (unsigned char)addr_bit;
		npieces++;
		used[f] += nb;
		addr_bit += nb;
		s += len;
		if (*s == ':')
			s++;
	}
	for (int f = 0; f < NFIELDS; f++)
		if (used[f] != field_bits[f]) {
			snprintf(err, errlen, "ddr: ddr-map '%.30s': %s has %u bits, the map gives it %u", c->ddr_map,
			         field_names[f], field_bits[f], used[f]);
			return -1;
		}
	dc->row_shift = addr_bit;
	/* the map as a table per byte of the line address: each bit below the
	 * row lands in one bit of one field, each row bit (with ddr-xor) flips
	 * one bit of bank group or bank (the fold: row bit j flips bit j mod
	 * (bank group + bank bits) of bank group, then bank), so the bytes'
	 * parts XOR together */
	dc->map_by_byte = calloc(8, sizeof *dc->map_by_byte);
	if (!dc->map_by_byte) {
		snprintf(err, errlen, "ddr: out of memory");
		return -1;
	}
	unsigned bg_bits = field_bits[FIELD_BANK_GROUP], bank_bits = field_bits[FIELD_BANK];
	unsigned fold_bits = bg_bits + bank_bits;
	for (unsigned p = 0; p < npieces; p++)
		for (unsigned b = 0; b < piece[p].bits && piece[p].field != FIELD_COLUMN; b++)
			map_flip(dc->map_by_byte, piece[p].addr_pos + b, piece[p].field, piece[p].field_pos + b, bg_bits,
			         bank_bits);
	for (unsigned a = addr_bit; c->ddr_xor && fold_bits && a < 64; a++) {
		unsigned q = (a - addr_bit) % fold_bits;
		map_flip(dc->map_by_byte, a, q < bg_bits ? FIELD_BANK_GROUP : FIELD_BANK, q < bg_bits ? q : q - bg_bits,
		         bg_bits, bank_bits);
	}
	return 0;
}

/* ---- resolution ------------------------------------------------------------------ */

int ddr_config_resolve(const struct memsys_cfg *c, struct ddr_config *dc, char *err, size_t errlen)
{
	memset(dc, 0, sizeof *dc);
	if (ddr_config_check(c, err, errlen))
		return -1;
	const struct ddr_preset *p = preset_find(c->ddr_preset);
	unsigned nck[T_COUNT];
	timings_nck(c, p, nck);
	unsigned mts = c->ddr_mts ? c->ddr_mts : p->mts;
	unsigned width = c->ddr_width ? c->ddr_width : p->width;
	unsigned bgs = c->ddr_bgs ? c->ddr_bgs : p->bank_groups;
	unsigned banks = c->ddr_banks ? c->ddr_banks : p->banks_per_group;
	unsigned row = c->ddr_row ? c->ddr_row : p->row;
	if (!pow2(c->ddr_channels) || !pow2(c->ddr_ranks) || !pow2(bgs) || !pow2(banks) || !pow2(row) ||
	    row < c->line) {
		snprintf(err, errlen, "ddr: ddr-channels, ddr-ranks, ddr-bankgroups, ddr-banks and ddr-row must be powers "
		         "of two, ddr-row >= line");
		return -1;
	}
	if (nck[T_BL] < 2 || nck[T_BL] % 2 || width * nck[T_BL] != c->line) {
		snprintf(err, errlen, "ddr: one burst (ddr-width %u x ddr-bl %u) must move one line (%u bytes)", width,
		         nck[T_BL], c->line);
		return -1;
	}
	if (nck[T_REFI] <= nck[T_RFC]) {
		snprintf(err, errlen, "ddr: ddr-trefi (%u) must exceed ddr-trfc (%u)", nck[T_REFI], nck[T_RFC]);
		return -1;
	}
	dc->channels = c->ddr_channels;
	dc->ranks = c->ddr_ranks;
	dc->bank_groups = bgs;
	dc->banks_per_group = banks;
	unsigned field_bits[NFIELDS];
	field_bits[FIELD_CHANNEL] = log2u(dc->channels);
	field_bits[FIELD_RANK] = log2u(dc->ranks);
	field_bits[FIELD_BANK_GROUP] = log2u(bgs);
	field_bits[FIELD_BANK] = log2u(banks);
	field_bits[FIELD_COLUMN] = log2u(row / c->line);
	if (map_build(c, field_bits, dc, err, errlen))
		return -1;
	dc->closed_page = strcmp(c->ddr_page, "closed") == 0;
	dc->rq_entries = c->ddr_rq;
	dc->wq_entries = c->ddr_wq;
	dc->wq_high = c->ddr_wq_hi;
	dc->wq_low = c->ddr_wq_lo;
	dc->starve_cap = c->ddr_cap;
	dc->fair_kept = c->ddr_fair;
	dc->src_rq = c->ddr_src_rq < c->ddr_rq ? c->ddr_src_rq : 0; /* ddr-rq or more: no limit of its own */
	dc->pf_room = c->ddr_pf_room && dc->src_rq;
	/* nCK -> ticks: n * 2000 / mts ns * freq_ghz cycles/ns * 256 */
	/* one DRAM clock in whole ticks (within 0.3 % of the exact value at
	 * 1 GHz); every timing is a whole number of clocks and commands issue
	 * on clock edges, so committed bursts leave no slivers of a clock */
	dc->tck = (uint64_t)(2000.0 / mts * c->freq_ghz * (1u << TSH) + 0.5);
	if (!dc->tck)
		dc->tck = 1;
	for (int i = 0; i < T_COUNT; i++)
		dc->t[i] = nck[i] * dc->tck;
	dc->burst = nck[T_BL] / 2 * dc->tck;
	dc->frontend = CYC2T(c->ddr_frontend);
	dc->peak_mbps = (uint64_t)((double)mts * width * dc->channels + 0.5);
	return 0;
}

void ddr_config_free(struct ddr_config *dc)
{
	free(dc->map_by_byte);
	dc->map_by_byte = NULL;
}

/* ---- statistics -------------------------------------------------------------------- */

void ddr_stats_report(const struct ddr_stats *st, struct memsys_model_stats *s)
{
	memset(s, 0, sizeof *s);
	s->reads = st->reads;
	s->writes = st->writes;
	s->busy = t2cyc_up(st->busy_t);
	s->row_hits = st->hits;
	s->row_misses = st->empties;
	s->row_conflicts = st->conflicts;
	s->ddr = *st;
	s->ddr.busy_t = t2cyc_up(st->busy_t);
	s->ddr.rq_wait_t = t2cyc_up(st->rq_wait_t);
	s->ddr.wq_wait_t = t2cyc_up(st->wq_wait_t);
	s->ddr.rq_res_t = t2cyc_up(st->rq_res_t);
	s->ddr.wq_res_t = t2cyc_up(st->wq_res_t);
	s->ddr.first_t = st->first_t >> TSH;
	s->ddr.last_t = t2cyc_up(st->last_t);
	s->has_ddr = 1;
}
