/*
 * rt_wraplist — build-time helper: prints the linker flags that route the
 * intercepted POSIX, STDIO and HDF5 calls of a static link through
 * libioatlas.a (-Wl,--wrap=NAME for every line of rt_calls.h and
 * rt_hdf5_calls.h).  CMake bakes its output
 * into ioatlas-config and ioatlas.pc, so the list is never written by hand.
 */
#include <stdio.h>

#include "rt_calls.h"
#include "rt_hdf5_calls.h"

int main(void)
{
	const char *sep = "-Wl";

#define RT_WRAP_FLAG(ret, name, ...)        \
	printf("%s,--wrap=%s", sep, #name); \
	sep = "";
	RT_POSIX_CALLS(RT_WRAP_FLAG)
	RT_STDIO_CALLS(RT_WRAP_FLAG)
	RT_HDF5_CALLS(RT_WRAP_FLAG)
#undef RT_WRAP_FLAG
	printf("\n");
	return 0;
}
