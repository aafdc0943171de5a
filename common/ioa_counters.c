/*
 * ioa_counters — expands the counter table (ioa_counters.h) into the name
 * and description arrays that the writer, reader and tools look up.
 */
#include "ioa_counters.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#define NAME(name, desc) #name,
#define DESC(name, desc) desc,
#define COUNT(array)	 (unsigned)(sizeof(array) / sizeof(array[0]))
/* Float counter lists end in NULL: a module may have none (LUSTRE). */
#define MODULE_ARRAYS(id, label, region, counters, fcounters)               \
	static const char *const id##_names[] = {counters(NAME)};           \
	static const char *const id##_descs[] = {counters(DESC)};           \
	static const char *const id##_fnames[] = {fcounters(NAME) NULL};    \
	static const char *const id##_fdescs[] = {fcounters(DESC) NULL};    \
	_Static_assert(COUNT(id##_names) <= IOA_MAX_COUNTERS &&             \
			       COUNT(id##_fnames) - 1 <= IOA_MAX_FCOUNTERS, \
		       "raise IOA_MAX_COUNTERS or IOA_MAX_FCOUNTERS");
IOA_MODULES(MODULE_ARRAYS)
#undef MODULE_ARRAYS

#define MODULE_DESC(id, label, region, counters, fcounters) \
	[IOA_MOD_##id] = {                                  \
		.name = label,                              \
		.region_type = region,                      \
		.counter_count = COUNT(id##_names),         \
		.fcounter_count = COUNT(id##_fnames) - 1,   \
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

enum ioa_agg ioa_counter_agg(const char *name)
{
	if (strstr(name, "_START_TIMESTAMP"))
		return IOA_AGG_MIN;
	if (strstr(name, "_END_TIMESTAMP") || strstr(name, "_MAX_"))
		return IOA_AGG_MAX;
	if (strstr(name, "NOT_ALIGNED") || strstr(name, "ACCESS_CHECKS"))
		return IOA_AGG_SUM;
	if (strstr(name, "_MODE"))
		return IOA_AGG_LAST;
	if (strstr(name, "RANK") || strstr(name, "ACCESS") || strstr(name, "STRIDE") ||
	    strstr(name, "ALIGNMENT") || strstr(name, "RENAMED_FROM") ||
	    strstr(name, "FIRST_OFFSET") || strstr(name, "_REC_ID") || strstr(name, "NDIMS") ||
	    strstr(name, "NPOINTS") || strstr(name, "_SIZE_D") || strstr(name, "DATATYPE_SIZE") ||
	    strstr(name, "_USE_") || strstr(name, "_CACHE_") || strstr(name, "IS_RECORD_VAR") ||
	    !strncmp(name, "LUSTRE_", 7))
		return IOA_AGG_NONE;
	return IOA_AGG_SUM;
}

/*
 * The rules by counter, worked out from the names once: combining runs for
 * every shared record at shutdown and every record of `parse --total`.
 */
static unsigned char agg_rules[IOA_MOD_COUNT][2][IOA_MAX_COUNTERS];
static int agg_rules_ready;

static void agg_rules_fill(void)
{
	unsigned m, i;

	if (__atomic_load_n(&agg_rules_ready, __ATOMIC_ACQUIRE))
		return;
	for (m = 0; m < IOA_MOD_COUNT; m++) {
		for (i = 0; i < ioa_modules[m].counter_count; i++)
			agg_rules[m][0][i] =
				(unsigned char)ioa_counter_agg(ioa_modules[m].counter_names[i]);
		for (i = 0; i < ioa_modules[m].fcounter_count; i++)
			agg_rules[m][1][i] =
				(unsigned char)ioa_counter_agg(ioa_modules[m].fcounter_names[i]);
	}
	__atomic_store_n(&agg_rules_ready, 1, __ATOMIC_RELEASE);
}

void ioa_counters_combine(enum ioa_module module, int64_t *dst, double *fdst, const int64_t *src,
			  const double *fsrc)
{
	const struct ioa_module_desc *mod = &ioa_modules[module];
	unsigned i;

	agg_rules_fill();
	for (i = 0; i < mod->counter_count; i++) {
		switch ((enum ioa_agg)agg_rules[module][0][i]) {
		case IOA_AGG_SUM:
			/* Saturated: a sum past 2^63 - 1 (crafted, or a very long run) stays huge.
			 */
			if (dst[i] == IOA_NOT_RECORDED || src[i] == IOA_NOT_RECORDED)
				dst[i] = IOA_NOT_RECORDED;
			else if (__builtin_add_overflow(dst[i], src[i], &dst[i]))
				dst[i] = src[i] < 0 ? INT64_MIN : INT64_MAX;
			break;
		case IOA_AGG_MAX:
			if (src[i] > dst[i])
				dst[i] = src[i];
			break;
		case IOA_AGG_MIN:
			if (src[i] && (!dst[i] || src[i] < dst[i]))
				dst[i] = src[i];
			break;
		case IOA_AGG_NONE:
			if (!dst[i])
				dst[i] = src[i];
			break;
		case IOA_AGG_LAST:
			dst[i] = src[i];
			break;
		}
	}
	for (i = 0; i < mod->fcounter_count; i++) {
		switch ((enum ioa_agg)agg_rules[module][1][i]) {
		case IOA_AGG_SUM:
			fdst[i] += fsrc[i];
			if (!isfinite(fdst[i])) /* inf + -inf would be NaN: keep a number */
				fdst[i] = fdst[i] < 0 ? -DBL_MAX : DBL_MAX;
			break;
		case IOA_AGG_MAX:
			if (fsrc[i] > fdst[i])
				fdst[i] = fsrc[i];
			break;
		case IOA_AGG_MIN:
			if (fsrc[i] > 0 && (fdst[i] == 0 || fsrc[i] < fdst[i]))
				fdst[i] = fsrc[i];
			break;
		case IOA_AGG_NONE:
			if (fdst[i] == 0)
				fdst[i] = fsrc[i];
			break;
		case IOA_AGG_LAST:
			fdst[i] = fsrc[i];
			break;
		}
	}
}
