/*
 * ioa_counters — expands the counter table (ioa_counters.h) into the name
 * and description arrays that the writer, reader and tools look up.
 */
#include "ioa_counters.h"

#include <stddef.h>

#define NAME(name, desc) #name,
#define DESC(name, desc) desc,
#define MODULE_ARRAYS(id, label, region, counters, fcounters)       \
	static const char *const id##_names[] = {counters(NAME)};   \
	static const char *const id##_descs[] = {counters(DESC)};   \
	static const char *const id##_fnames[] = {fcounters(NAME)}; \
	static const char *const id##_fdescs[] = {fcounters(DESC)};
IOA_MODULES(MODULE_ARRAYS)
#undef MODULE_ARRAYS

_Static_assert((int)POSIX_NUM_INDICES <= IOA_MAX_COUNTERS &&
		       (int)STDIO_NUM_INDICES <= IOA_MAX_COUNTERS &&
		       (int)MPIIO_NUM_INDICES <= IOA_MAX_COUNTERS,
	       "raise IOA_MAX_COUNTERS");
_Static_assert((int)POSIX_F_NUM_INDICES <= IOA_MAX_FCOUNTERS &&
		       (int)STDIO_F_NUM_INDICES <= IOA_MAX_FCOUNTERS &&
		       (int)MPIIO_F_NUM_INDICES <= IOA_MAX_FCOUNTERS,
	       "raise IOA_MAX_FCOUNTERS");

#define COUNT(array) (unsigned)(sizeof(array) / sizeof(array[0]))
#define MODULE_DESC(id, label, region, counters, fcounters) \
	[IOA_MOD_##id] = {                                  \
		.name = label,                              \
		.region_type = region,                      \
		.counter_count = COUNT(id##_names),         \
		.fcounter_count = COUNT(id##_fnames),       \
		.counter_names = id##_names,                \
		.counter_descs = id##_descs,                \
		.fcounter_names = id##_fnames,              \
		.fcounter_descs = id##_fdescs,              \
	},
const struct ioa_module_desc ioa_modules[IOA_MOD_COUNT] = {IOA_MODULES(MODULE_DESC)};
#undef MODULE_DESC
#undef NAME
#undef DESC

const struct ioa_module_desc *ioa_module_by_region(unsigned region_type)
{
	size_t i;

	for (i = 0; i < IOA_MOD_COUNT; i++)
		if (ioa_modules[i].region_type == region_type)
			return &ioa_modules[i];
	return NULL;
}
