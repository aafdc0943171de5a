/*
 * logr-harness — reads a whole log the way every tool does, through the one
 * reader: header, table, every region, every decoder that applies.  Shared
 * by the fuzzer (fuzz-logr.c) and the corpus replay test (t0006), so what
 * the fuzzer explored is checked on every build, sanitizers included.
 */
#include "logr-harness.h"

#include <errno.h>

#include "ioa_darshan.h"
#include "ioa_logr.h"
#include "ioa_trace.h"

static int on_record(const struct ioa_log_record *rec, void *arg)
{
	(void)rec;
	++*(unsigned long *)arg;
	return 0;
}

static int on_entry(uint16_t key, const unsigned char *value, uint32_t len, void *arg)
{
	(void)key;
	(void)value;
	(void)len;
	++*(unsigned long *)arg;
	return 0;
}

static int on_name(uint64_t id, const unsigned char *name, uint32_t len, void *arg)
{
	(void)id;
	(void)name;
	(void)len;
	++*(unsigned long *)arg;
	return 0;
}

static int on_mount(const unsigned char *path, uint32_t path_len, const unsigned char *type,
		    uint32_t type_len, void *arg)
{
	(void)path;
	(void)path_len;
	(void)type;
	(void)type_len;
	++*(unsigned long *)arg;
	return 0;
}

static int on_failure(const struct ioa_log_failure *f, void *arg)
{
	(void)f;
	++*(unsigned long *)arg;
	return 0;
}

static int on_bins(const struct ioa_log_bins *b, void *arg)
{
	(void)b;
	++*(unsigned long *)arg;
	return 0;
}

static int on_hints(uint64_t id, int32_t rank, const unsigned char *text, uint32_t len, void *arg)
{
	(void)id;
	(void)rank;
	(void)text;
	(void)len;
	++*(unsigned long *)arg;
	return 0;
}

static int on_folded(int32_t rank, uint64_t dropped, uint64_t id, enum ioa_module module, void *arg)
{
	(void)rank;
	(void)dropped;
	(void)id;
	(void)module;
	++*(unsigned long *)arg;
	return 0;
}

static int on_trace_leaf(void *arg, unsigned depth, const struct ioa_trace_leaf *leaf)
{
	(void)depth;
	(void)leaf;
	++*(unsigned long *)arg;
	return 0;
}

static int on_trace_event(void *arg, const struct ioa_trace_event *e)
{
	(void)e;
	++*(unsigned long *)arg;
	return 0;
}

/* Counts down the calls left in *arg; stops (1) at 0. */
static int on_trace_event_until(void *arg, const struct ioa_trace_event *e)
{
	(void)e;
	return --*(unsigned long *)arg == 0;
}

/* Expansions past this many calls are refused (a few bytes can claim any number). */
#define HARNESS_MAX_EVENTS 100000

int logr_harness_trace(const void *raw, size_t len, unsigned long *items)
{
	static const struct ioa_trace_visitor visitor = {NULL, NULL, on_trace_leaf};
	struct ioa_trace t = {0};
	size_t g;
	int rc = ioa_trace_decode(&t, raw, len);

	if (!rc)
		rc = ioa_trace_regroup(&t);
	for (g = 0; !rc && g < t.ngroups; g++) {
		struct ioa_trace_rank r;
		uint32_t k;

		for (k = 0; !rc && k < t.groups[g].nranks && k < 4; k++) {
			rc = ioa_trace_rank_open(&t, t.groups[g].ranks[k], &r);
			if (rc)
				break;
			rc = ioa_trace_walk(&r, &visitor, items);
			if (!rc)
				rc = ioa_trace_expand(&r, HARNESS_MAX_EVENTS, on_trace_event,
						      items);
			/*
			 * Much larger (times scaled from the means): as the analyses
			 * do, unbounded, the callback stopping early.
			 */
			if (rc == -E2BIG && r.calls > IOA_TRACE_EXACT_SCALING) {
				unsigned long left = HARNESS_MAX_EVENTS;

				rc = ioa_trace_expand(&r, UINT64_MAX, on_trace_event_until, &left);
				*items += HARNESS_MAX_EVENTS - left;
				rc = rc == 1 ? 0 : rc;
			} else if (rc == -E2BIG) {
				rc = 0;
			}
			ioa_trace_rank_close(&r);
		}
	}
	ioa_trace_free(&t);
	return rc;
}

static int on_segment(const struct ioa_log_segment *s, void *arg)
{
	(void)s;
	++*(unsigned long *)arg;
	return 0;
}

int logr_harness_read(const char *path, unsigned long *items)
{
	struct ioa_log_reader r;
	struct ioa_buf raw = IOA_BUF_INIT((size_t)64 << 20);
	uint32_t i;
	int rc = ioa_logr_open_any(&r, path);

	*items = 0;
	for (i = 0; !rc && i < r.region_count; i++) {
		uint32_t type = r.regions[i].type;

		rc = ioa_logr_read_region(&r, i, &raw);
		if (rc)
			break;
		if (ioa_module_by_region(type))
			rc = ioa_logr_each_record(&r, i, &raw, on_record, items);
		else if (type == IOA_REGION_JOB)
			rc = ioa_logr_each_job_entry(&r, &raw, on_entry, items);
		else if (type == IOA_REGION_NAMES)
			rc = ioa_logr_each_name(&r, &raw, on_name, items);
		else if (type == IOA_REGION_MOUNTS)
			rc = ioa_logr_each_mount(&r, &raw, on_mount, items);
		else if (type == IOA_REGION_ERRORS)
			rc = ioa_logr_each_failure(&r, &raw, on_failure, items);
		else if (type == IOA_REGION_BINS)
			rc = ioa_logr_each_bins(&r, &raw, on_bins, items);
		else if (type == IOA_REGION_HINTS)
			rc = ioa_logr_each_hints(&r, &raw, on_hints, items);
		else if (type == IOA_REGION_FOLDED)
			rc = ioa_logr_each_folded(&r, &raw, on_folded, items);
		else if (type == IOA_REGION_TRACE)
			rc = logr_harness_trace(raw.data, raw.len, items);
		else if (type == IOA_REGION_SEGMENTS)
			rc = ioa_logr_each_segment(&r, &raw, on_segment, items);
	}
	ioa_logr_close(&r);
	ioa_buf_release(&raw);
	return rc;
}
