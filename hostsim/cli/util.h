/* Small helpers shared by the rvmess CLI library. */
#ifndef RVMESS_CLI_UTIL_H
#define RVMESS_CLI_UTIL_H

#include <stddef.h>

/* realloc that never returns NULL: out of memory ends the tool (status 2). */
void *xrealloc(void *p, size_t n);

/* A user's token quoted in a message: its first 40 characters, then "..."
 * when it is longer, so that a long token can never push the reason out of
 * a fixed-size message (nor echo a megabyte).  printf("'" TOKF "'", TOKA(s)). */
#define TOK_SHOWN 40
#define TOKF "%.40s%s"
#define TOKA(s) (s), (strnlen((s), TOK_SHOWN + 1) > TOK_SHOWN ? "..." : "")

#endif
