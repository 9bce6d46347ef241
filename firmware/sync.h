/* Rendezvous internals (firmware/sync.c), for boot.c, trap.c and the tests. */
#ifndef RVMESS_SYNC_H
#define RVMESS_SYNC_H

#include <stdint.h>

void sync_init(void);               /* lead: participants ALIVE at generation 0 */
int sync_arrive(uint32_t g, uint32_t st);
void sync_mark(uint32_t hartid, uint32_t st);
uint32_t sync_first(void);          /* lead: the boot rendezvous (generation 1) */
uint32_t sync_gen(void);
/* lead: a `missing` record (where=boot) for each hart sync_first wrote off */
void sync_report_missing(void);

#endif
