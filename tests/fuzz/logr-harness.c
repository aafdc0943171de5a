/*
 * logr-harness — reads a whole log the way every tool does, through the one
 * reader: header, table, every region, every decoder that applies.  Shared
 * by the fuzzer (fuzz-logr.c) and the corpus replay test (t0006), so what
 * the fuzzer explored is checked on every build, sanitizers included.
 */
#include "logr-harness.h"

#include "ioa_logr.h"

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

int logr_harness_read(const char *path, unsigned long *items)
{
	struct ioa_log_reader r;
	struct ioa_buf raw = IOA_BUF_INIT((size_t)64 << 20);
	uint32_t i;
	int rc = ioa_logr_open(&r, path);

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
	}
	ioa_logr_close(&r);
	ioa_buf_release(&raw);
	return rc;
}
