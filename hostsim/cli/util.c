#include "cli/util.h"

#include <stdio.h>
#include <stdlib.h>

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q) {
		fprintf(stderr, "rvmess: out of memory\n");
		exit(2);
	}
	return q;
}
