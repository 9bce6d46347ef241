/*
 * hostsim: the functional core of rvmess's own RV64IMA M-mode platform.
 *
 * One `struct sim` holds the machine: flat RAM, the state of the devices in
 * the device table (dev.h: QEMU-virt-compatible UART, CLINT, finisher, and
 * the memsys counter block), the shared pre-decoded instruction cache
 * and 1..64 harts.  See docs/hostsim.md for the model and its choices.
 */
#ifndef HOSTSIM_SIM_H
#define HOSTSIM_SIM_H

#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#include "sim/dev.h"
#include "sim/profiles.h"

#define SIM_MAX_HARTS 64

/* Exit statuses of build/bin/hostsim that are not the image's own. */
#define SIM_EXIT_USAGE  2   /* bad option, config file or ELF */
#define SIM_EXIT_RESET  3   /* the image wrote 0x7777 (reset) to the finisher */
#define SIM_EXIT_LIMIT  124 /* --max-insns / --max-cycles reached */
#define SIM_EXIT_TRAP   125 /* a hart trapped with mtvec == 0 */

#define SIM_RAM_BASE     0x80000000ull /* devices: dev.h */

/* ---- options ------------------------------------------------------------ */

/* Memory orders (--memory-order) */
enum { SIM_MO_SC = 0, SIM_MO_TSO, SIM_MO_RVWMO };

/* Injectable faults (--inject NAME[:RATE], docs/hostsim.md): id, name,
 * default rate in percent of the eligible events. */
#define SIM_FAULTS(X) \
	X(FENCE_NOOP, "fence-noop", 100) \
	X(AMO_NONATOMIC, "amo-nonatomic", 100) \
	X(SC_SPURIOUS, "sc-spurious-success", 100) \
	X(STALE_READ, "stale-read", 10) \
	X(LOST_WRITE, "lost-write", 10) \
	X(WRONG_ACK, "wrong-ack", 100) \
	X(CLEAN_WB, "clean-writeback", 100) \
	X(TIMER_STUCK, "timer-stuck", 100) \
	X(LOST_INVAL, "lost-inval", 100)
enum {
#define SIM_FAULT_ENUM_(id, name, rate) SIM_F_##id,
	SIM_FAULTS(SIM_FAULT_ENUM_)
#undef SIM_FAULT_ENUM_
	SIM_NFAULTS
};
extern const char *const sim_fault_names[SIM_NFAULTS];

struct sim_opts {
	unsigned harts;          /* 1..64 */
	uint64_t mem_size;       /* bytes */
	uint64_t timebase;       /* Hz */
	uint64_t freq_mhz;       /* core frequency */
	uint64_t max_insns;      /* 0 = no limit (total over all harts) */
	uint64_t max_cycles;     /* 0 = no limit (any hart's clock) */
	uint64_t seed;
	uint64_t fdt_disabled;    /* --fdt-disabled: a bit per hart whose DTB cpu node says "disabled" */
	const char *console;     /* NULL = stdout */
	const char *stamps;      /* --console-stamps FILE, NULL none */
	int timing;              /* 1 = memsys timing, 0 = --no-timing */
	int stats;
	unsigned quantum;        /* --no-timing: instructions per hart per turn */
	unsigned mshrs;          /* outstanding load misses per hart */
	unsigned sb_depth;       /* store buffer entries per hart */
	unsigned mul_lat, div_lat;
	int mem_order;           /* SIM_MO_* */
	unsigned inject[SIM_NFAULTS]; /* rate in percent; 0 = not injected */
	/* timing options passed to memsys (name=value, kept verbatim) */
	unsigned nmemsys;
	struct { char key[32]; char val[256]; } memsys[128]; /* every memsys key fits (--print-config replays them all) */
	char strings[3][512];    /* storage for the console, stamps and DTB paths from a config file */
	const char *dtb;         /* --dtb FILE: this device tree instead of the one hostsim builds; NULL none */
	unsigned machine;        /* --machine: SIM_MACH_* (profiles.h) */
	int no_phase_hint;       /* --no-phase-hint: the memctl PHASE register is ignored */
	int no_loop_skip;        /* --no-loop-skip: countdown loops run one instruction at a time (cpu.c) */
	int no_piton_memctr;     /* --no-piton-memctr: openpiton's fake UART without rvmess's counter window */
	int piton_uart;          /* --piton-uart: SIM_UART_* (FAKE: sims' fake_uart, the default) */
};
enum { SIM_UART_FAKE = 0, SIM_UART_16550 };

void sim_opts_default(struct sim_opts *o);
/*
 * Set one option by its long name (without "--"), value may be NULL for
 * flags.  Returns 0, or -1 with a reason in err (errlen bytes).
 */
int sim_opts_set(struct sim_opts *o, const char *key, const char *val, char *err, size_t errlen);
/* Is key (without "--", '_' for '-') an option, and does it take a value? */
enum { SIM_OPT_UNKNOWN = 0, SIM_OPT_VALUE, SIM_OPT_FLAG };
int sim_opts_kind(const char *key);
/* One line per command-line option of the core (for --help). */
void sim_opts_print_help(FILE *f);
/* The same as a Markdown table (type, range, default, help): the options
 * table of docs/hostsim.md (hostsim --options-markdown, tools/gen-docs.sh). */
void sim_opts_print_markdown(FILE *f);
/* Read key=value lines ('#' comments, blank lines).  Errors "FILE:LINE: reason". */
int sim_opts_load_file(struct sim_opts *o, const char *path, char *err, size_t errlen);
/* The core options in effect as --config lines (key=value). */
void sim_opts_print(const struct sim_opts *o, FILE *f);
/* A number or size (rvmess/numparse.h: decimal, K/M/G/T or KiB..TiB suffix).  0 ok, -1 bad. */
int sim_parse_u64(const char *s, uint64_t *out);
/* A user's token quoted in a message: its first 40 characters, then "..."
 * when longer, so that the reason after it always fits in err. */
#define SIM_TOKF "%.40s%s"
#define SIM_TOKA(s) (s), (strnlen((s), 41) > 40 ? "..." : "")
/* Format a message into err (when errlen > 0) and return -1. */
int sim_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- pre-decoded instructions ------------------------------------------ */

struct dinsn {
	uint8_t op;        /* enum op; 0 = not decoded yet */
	uint8_t rd;        /* 32 when the encoding's rd is x0 (a sink register) */
	uint8_t rs1, rs2;  /* 0 when the instruction does not read them */
	int32_t imm;       /* immediate; raw instruction for OP_ILLEGAL; csr|zimm<<12 for CSR ops */
};

enum op {
	OP_UNDECODED = 0,
	OP_ILLEGAL,
	OP_LUI, OP_AUIPC, OP_JAL, OP_JALR,
	OP_BEQ, OP_BNE, OP_BLT, OP_BGE, OP_BLTU, OP_BGEU,
	OP_LB, OP_LH, OP_LW, OP_LD, OP_LBU, OP_LHU, OP_LWU,
	OP_SB, OP_SH, OP_SW, OP_SD,
	OP_ADDI, OP_SLTI, OP_SLTIU, OP_XORI, OP_ORI, OP_ANDI, OP_SLLI, OP_SRLI, OP_SRAI,
	OP_ADD, OP_SUB, OP_SLL, OP_SLT, OP_SLTU, OP_XOR, OP_SRL, OP_SRA, OP_OR, OP_AND,
	OP_ADDIW, OP_SLLIW, OP_SRLIW, OP_SRAIW,
	OP_ADDW, OP_SUBW, OP_SLLW, OP_SRLW, OP_SRAW,
	OP_MUL, OP_MULH, OP_MULHSU, OP_MULHU, OP_DIV, OP_DIVU, OP_REM, OP_REMU,
	OP_MULW, OP_DIVW, OP_DIVUW, OP_REMW, OP_REMUW,
	OP_LR_W, OP_SC_W, OP_LR_D, OP_SC_D,
	OP_AMOSWAP_W, OP_AMOADD_W, OP_AMOXOR_W, OP_AMOAND_W, OP_AMOOR_W,
	OP_AMOMIN_W, OP_AMOMAX_W, OP_AMOMINU_W, OP_AMOMAXU_W,
	OP_AMOSWAP_D, OP_AMOADD_D, OP_AMOXOR_D, OP_AMOAND_D, OP_AMOOR_D,
	OP_AMOMIN_D, OP_AMOMAX_D, OP_AMOMINU_D, OP_AMOMAXU_D,
	OP_FENCE, OP_FENCE_I, OP_ECALL, OP_EBREAK, OP_MRET, OP_WFI,
	OP_CSRRW, OP_CSRRS, OP_CSRRC, OP_CSRRWI, OP_CSRRSI, OP_CSRRCI,
	/* jal and the branches (in OP_BEQ's order) whose target is on their
	 * own page and aligned: set by the core's decode (cpu.c decode_at),
	 * which knows where the instruction is; sim_decode never gives them */
	OP_JAL_N, OP_BEQ_N, OP_BNE_N, OP_BLT_N, OP_BGE_N, OP_BLTU_N, OP_BGEU_N,
	/* addi rd, rd, -1 (rd not x0), set by the same decode unless
	 * --no-loop-skip: the head of a countdown loop when the next entry is
	 * `bnez rd` back to it (cpu_exec.h runs such a loop in closed form) */
	OP_ADDI_DEC,
	OP_COUNT
};

/* Decode one 32-bit instruction (pure; used by the core and the unit tests). */
void sim_decode(uint32_t raw, struct dinsn *d);
const char *sim_op_name(unsigned op);

/* ---- harts -------------------------------------------------------------- */

#define SIM_SB_MAX 64
#define SIM_MSHR_MAX 64

struct ms_hart;

struct sim_hart {
	uint64_t x[33];          /* x[32] is the sink for writes to x0 */
	uint64_t pc;
	unsigned id;
	uint64_t clock;          /* local cycle clock (mcycle source) */
	uint64_t instret;

	/* CSRs */
	uint64_t mstatus, mtvec, mepc, mcause, mtval, mscratch, mie, mip_sw;
	uint64_t mcounteren, mcountinhibit;
	uint64_t hpm_event[32];  /* mhpmevent3..31 */
	uint64_t cnt_off[32];    /* value = raw + off   (not inhibited) */
	uint64_t cnt_frozen[32]; /* value while inhibited */

	/* LR/SC */
	uint64_t resv_addr;      /* granule address; valid when resv_valid */
	int resv_valid;

	/* timing */
	struct ms_hart *msh;     /* memsys's part of this hart (memsys_hart) */
	uint64_t ready[33];      /* scoreboard: cycle each register's value is ready */
	uint64_t mshr[SIM_MSHR_MAX];      /* completion cycle of each MSHR's miss,
	                                     a ring of mshrs entries sorted by it
	                                     from mshr_head (sim/mshr.h) */
	uint64_t mshr_line[SIM_MSHR_MAX]; /* its line address (for merging) */
	uint64_t mshr_min, mshr_max;      /* the first and last entry's completion
	                                     (derivable from the ring; kept for the
	                                     issue check of every load) */
	unsigned mshr_head;
	uint64_t sb[SIM_SB_MAX]; /* store buffer completion times, ring */
	unsigned sb_head, sb_count;
	uint64_t sb_last;        /* latest completion time of the buffered stores */
	uint64_t sb_issue;       /* cycle the youngest store was sent to memsys */
	uint64_t stall_cycles;
	/* waiting for a completion memsys does not know yet (MEMSYS_PEND;
	 * clock is then one too): from cycle blk_t, for ticket blk_tk (an
	 * AMO's: its clock becomes the completion) or, 0, for any of the
	 * hart's (machine.c wakes it when one is known and tries again) */
	uint64_t blk_t, blk_tk, blk_seen;

	int halted;              /* stopped (no handler) */
	uint64_t wfi_count;
	uint64_t dcache;         /* Ariane's CSR 0x701 (machine profiles with dcache_csr) */
	uint64_t dcache_flushes; /* times it was switched on */

	/* set-up phase hint (memctl PHASE, docs/hostsim.md "Set-up phases"):
	 * while set, the timing scheduler runs this hart functionally */
	int untimed;
	uint64_t untimed_insns;  /* instructions it ran so */

	/* the executor's decoded page at the end of the last turn (cpu.c),
	 * NULL before the first: the next turn's first fetch starts there */
	const struct dinsn *cpg;
	uint64_t cpg_base;
};

struct memsys;

struct sim {
	struct sim_opts opt;
	uint8_t *ram;
	uint64_t ram_base, ram_size;
	struct dinsn **dpages;   /* per 4 KiB page of RAM, NULL until code runs there */
	uint64_t npages;

	unsigned nharts;
	struct sim_hart *harts;

	/* devices (dev.h): the CLINT's registers, which the CSR unit reads as
	 * the interrupt and time sources, and every other device's state */
	uint32_t msip[SIM_MAX_HARTS];
	uint64_t mtimecmp[SIM_MAX_HARTS];
	int64_t mtime_off;
	void *dev_state[SIM_MAX_DEVS];
	/* per row of the device table: accesses that reached the device
	 * (--stats: how often the image reads its boot ROM, polls its UART) */
	uint64_t dev_loads[SIM_MAX_DEVS], dev_load_bytes[SIM_MAX_DEVS], dev_stores[SIM_MAX_DEVS];
	FILE *console;           /* the UART's output */
	FILE *stamps;            /* per console line: "cycle instructions" (--console-stamps) */

	/* LR/SC: number of harts holding a reservation */
	unsigned nresv;

	/* run state */
	int stop;                /* set when the run must end */
	int yield;               /* end the running hart's turn after this store
	                            (it entered or left a set-up phase) */
	int exit_code;
	uint64_t total_insns;
	uint64_t fdt_addr, fdt_size;
	uint64_t entry;
	uint64_t image_lo, image_hi; /* RAM range written by the ELF loader */
	double host_seconds;     /* wall time of sim_run */

	struct memsys *ms;       /* NULL with --no-timing */
	struct wm *wm;           /* weak memory and faults (wmem.c); NULL for sc without faults */

	const struct sim_machine *mach; /* --machine profile (profiles.h); NULL: virt */
	struct sim_msym msym;    /* the symbols it found in the image */
	int no_time_csr;         /* mach->no_time_csr, where the time CSR read tests it */
};

static inline const struct sim_machine *sim_mach(const struct sim *s)
{
	return s->mach ? s->mach : &sim_machine_virt;
}

/* machine.c */
int sim_init(struct sim *s, const struct sim_opts *o, char *err, size_t errlen);
void sim_free(struct sim *s);
/* After the ELF is loaded: place the DTB at the top of RAM, reset the harts. */
int sim_start(struct sim *s, char *err, size_t errlen);
/* Run until the image ends or a limit; returns the process exit status. */
int sim_run(struct sim *s);
uint64_t sim_mtime(struct sim *s, struct sim_hart *h);
uint64_t sim_hpm_raw(struct sim *s, struct sim_hart *h, unsigned event);
void sim_print_stats(struct sim *s, FILE *f);

/* elfload.c: load an ELF64 RISC-V executable into RAM.  err gets "reason". */
int sim_load_elf(struct sim *s, const char *path, char *err, size_t errlen);
int sim_load_elf_buf(struct sim *s, const uint8_t *buf, size_t len, char *err, size_t errlen);
/* The global symbol `name` of an ELF64 image in buf: 0 with its value and
 * size, -1 when absent (or the symbol table is unreadable). */
int sim_elf_symbol(const uint8_t *buf, size_t len, const char *name, uint64_t *value, uint64_t *size);

/* fdtgen.c: build the DTB into buf; returns its size or -1. */
int sim_build_fdt(const struct sim *s, void *buf, int bufsize);
/* machine.c: write the DTB sim_start would place to the file path
 * (--dump-dtb); 0, or -1 with err. */
int sim_dump_fdt(const struct sim *s, const char *path, char *err, size_t errlen);

/* cpu.c */
/* A store's effect on RAM (code cache, other harts' reservations); off is
 * the offset in RAM.  Used by wmem.c when a buffered store drains. */
void sim_ram_write(struct sim *s, struct sim_hart *h, uint64_t off, unsigned size, uint64_t v);
void sim_hart_reset(struct sim *s, struct sim_hart *h, unsigned id);
/* Execute up to n instructions on h (functional). Returns executed. */
uint64_t sim_step_functional(struct sim *s, struct sim_hart *h, uint64_t n);
/* Execute on h until its clock reaches `until` or n instructions. */
uint64_t sim_step_timing(struct sim *s, struct sim_hart *h, uint64_t until, uint64_t n);
/* Take a pending enabled interrupt if any. */
void sim_check_irq(struct sim *s, struct sim_hart *h);

/* machine.c: the set-up phase hint.  Hart h wrote v to the memctl PHASE
 * register (1 enter, 0 leave); sim_phase_get reads it back. */
void sim_phase_set(struct sim *s, struct sim_hart *h, uint64_t v);
uint64_t sim_phase_get(const struct sim *s, const struct sim_hart *h);

#endif
