/*
 * hostsim's memory-mapped devices: one table, read by the bus (cpu.c sends
 * every access outside RAM to sim_dev_load / sim_dev_store) and by the DTB
 * generator (fdtgen.c writes one node per row under /soc), so the memory map
 * and the device tree cannot disagree.
 *
 * Adding a device: write hostsim/sim/dev_<name>.c defining
 * `const struct sim_dev dev_<name>` and add X(<name>) to SIM_DEVICES in
 * dev.c (the row's position is the node's position in /soc).
 */
#ifndef HOSTSIM_DEV_H
#define HOSTSIM_DEV_H

#include <stddef.h>
#include <stdint.h>

struct sim;
struct sim_hart;

#define SIM_DEV_STDOUT 1u  /* /chosen/stdout-path points at this node */

/* phandle of hart i's interrupt controller node (/cpus/cpu@i/interrupt-controller) */
#define SIM_INTC_PHANDLE(i) (1u + (unsigned)(i))
/* phandle of the LLC's cache node (/cpus/l2-cache), above every hart's */
#define SIM_LLC_PHANDLE 0x100u

struct sim_dev {
	const char *name;   /* the DTB node's name: <name>@<base> */
	uint64_t base, size;
	unsigned flags;     /* SIM_DEV_* */
	size_t state_size;  /* bytes of zeroed per-machine state (s->dev_state[i]) */
	/* Naturally aligned accesses at offset off (< size) of size 1/2/4/8
	 * bytes.  load's *v is masked to `size` bytes by the caller.  Return 0,
	 * or -1 for an access fault. */
	int (*load)(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t *v);
	int (*store)(struct sim *s, struct sim_hart *h, void *st, uint64_t off, unsigned size, uint64_t v);
	/* The node's properties (compatible, reg via sim_fdt_reg, ...);
	 * NULL: no node. */
	int (*fdt)(const struct sim *s, const struct sim_dev *d, void *fdt);
};

/* The table of the default machine (virt), in /soc order, and its length;
 * the other profiles' tables are in profiles.c, the bus uses the running one. */
extern const struct sim_dev *const sim_devs[];
extern const unsigned sim_ndevs;
#define SIM_MAX_DEVS 16  /* devices of any one profile */

/* The device named `name`, or NULL. */
const struct sim_dev *sim_dev_find(const char *name);

/* Allocate / free every device's state in s->dev_state. 0 or -1 (no memory). */
int sim_devs_init(struct sim *s);
void sim_devs_free(struct sim *s);

/* The bus: an access to address a outside RAM.  0 ok, -1 access fault (no
 * device there, misaligned, or refused by the device). */
int sim_dev_load(struct sim *s, struct sim_hart *h, uint64_t a, unsigned size, uint64_t *v);
int sim_dev_store(struct sim *s, struct sim_hart *h, uint64_t a, unsigned size, uint64_t v);
/* --stats: one line per device the image loaded from or stored to */
void sim_dev_print_stats(const struct sim *s, FILE *f);

/* The state of device d in s's machine, NULL when it has no such device. */
void *sim_dev_state(struct sim *s, const struct sim_dev *d);

/* A byte from a UART to the console (and --console-stamps at a newline). */
void sim_console_putc(struct sim *s, struct sim_hart *h, uint8_t c);

/* fdtgen helpers: "reg" = <base size> (2 cells each), and every device's
 * node (to be called inside /soc). */
int sim_fdt_reg(void *fdt, uint64_t base, uint64_t size);
int sim_devs_fdt(const struct sim *s, void *fdt);
/* An RTL target's 16550 node: compatible, reg, a 50 MHz clock, 115200 baud,
 * reg-shift and (when not 0) reg-io-width. */
int sim_fdt_uart(void *fdt, const struct sim_dev *d, const char *compat, unsigned reg_shift, unsigned io_width);

#endif
