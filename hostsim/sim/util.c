/* Small helpers shared by hostsim's option, config and ELF code. */
#include <stdarg.h>
#include <stdio.h>

#include "sim/sim.h"

int sim_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (errlen)
		vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}
