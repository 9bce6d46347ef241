/* Rendezvous internals (firmware/sync.c, firmware/boot.c). */
#ifndef RVMESS_SYNC_H
#define RVMESS_SYNC_H

#include <stdint.h>

void sync_init(void);               /* lead: participants ALIVE at generation 0 */
int sync_arrive(uint32_t g, uint32_t st);
void sync_mark(uint32_t hartid, uint32_t st);
uint32_t sync_first(void);          /* lead: the boot rendezvous (generation 1) */
uint32_t sync_gen(void);
void sync_hart_record(void);        /* boot.c: print this hart's `hart` record */

#endif
