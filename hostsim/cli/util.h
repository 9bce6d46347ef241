/* Small helpers shared by the rvmess CLI library. */
#ifndef RVMESS_CLI_UTIL_H
#define RVMESS_CLI_UTIL_H

#include <stddef.h>

/* realloc that never returns NULL: out of memory ends the tool (status 2). */
void *xrealloc(void *p, size_t n);

#endif
