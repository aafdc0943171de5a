/*
 * t0004-logfile — the log format round-trips (job entries, names, module
 * records with every counter), and the reader refuses damaged logs with a
 * message that names the problem: truncation anywhere, a flipped bit in the
 * header, table or a region, lying sizes and counts, a newer version.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ioa_fault.h"
#include "ioa_logr.h"
#include "ioa_logw.h"
#include "tap.h"

static char dir[256];
static char good_path[300];
static unsigned char *good;
static size_t good_len;

static const char hostile_name[] = "/scratch/<script>alert(1)</script>\n\"quoted\"\xff\xfe";

static void build_log(void)
{
	struct ioa_log_writer w;
	struct ioa_buf raw = IOA_BUF_INIT(1 << 20);
	int64_t counters[IOA_MAX_COUNTERS] = {0};
	double fcounters[IOA_MAX_FCOUNTERS] = {0};
	int rc, i;

	ioa_logw_init(&w, 1 << 24);
	rc = ioa_enc_u16(&raw, IOA_JOB_USER) || ioa_enc_bytes(&raw, "alice", 5) ||
	     ioa_enc_u16(&raw, IOA_JOB_NPROCS) || ioa_enc_bytes(&raw, "4", 1);
	rc = rc || ioa_logw_add(&w, IOA_REGION_JOB, raw.data, raw.len);

	ioa_buf_reset(&raw);
	rc = rc || ioa_enc_u32(&raw, 2) || ioa_enc_u64(&raw, 42) ||
	     ioa_enc_bytes(&raw, hostile_name, sizeof(hostile_name) - 1) || ioa_enc_u64(&raw, 43) ||
	     ioa_enc_bytes(&raw, "/tmp/b", 6);
	rc = rc || ioa_logw_add(&w, IOA_REGION_NAMES, raw.data, raw.len);

	/* 500 similar records: compressible, so the region is stored with zlib. */
	ioa_buf_reset(&raw);
	rc = rc || ioa_enc_module_header(&raw, IOA_MOD_POSIX, 500);
	for (i = 0; i < 500 && !rc; i++) {
		counters[POSIX_OPENS] = 1;
		counters[POSIX_BYTES_WRITTEN] = 1000 * i;
		counters[POSIX_OVERWRITE_FIRST_OFFSET] = -1;
		fcounters[POSIX_F_WRITE_TIME] = 0.25 * i;
		rc = ioa_enc_module_record(&raw, IOA_MOD_POSIX, 42 + (uint64_t)i,
					   i == 7 ? -1 : i % 4, i == 7 ? IOA_REC_SHARED : 0,
					   counters, fcounters);
	}
	rc = rc || ioa_logw_add(&w, ioa_modules[IOA_MOD_POSIX].region_type, raw.data, raw.len);
	rc = rc || ioa_logw_add(&w, 999, "future", 6);
	ok(!rc, "a log with job, names, 500 POSIX records and an unknown region encodes");
	ok(w.regions[2].compression == IOA_LOG_COMPRESS_ZLIB &&
		   w.regions[2].stored_size * 4 < w.regions[2].raw_size,
	   "the record region is compressed (%llu -> %llu bytes)",
	   (unsigned long long)w.regions[2].raw_size, (unsigned long long)w.regions[2].stored_size);

	snprintf(good_path, sizeof(good_path), "%s/good.ioa", dir);
	is_int(ioa_logw_write_file(&w, good_path, 0440, IOA_LOG_FLAG_FOLDED), 0,
	       "the log is written");
	ok(access(good_path, F_OK) == 0, "under its final name");
	is_int(ioa_logw_write_file(&w, good_path, 0440, IOA_LOG_FLAG_FOLDED), 0,
	       "writing again replaces the log atomically");

	ioa_fault_arm("logw-write", 0);
	snprintf(good_path, sizeof(good_path), "%s/full.ioa", dir);
	is_int(ioa_logw_write_file(&w, good_path, 0440, 0), -ENOSPC, "a full disk is reported");
	ok(access(good_path, F_OK) != 0, "and leaves no log");
	snprintf(good_path, sizeof(good_path), "%s/full.ioa.part", dir);
	ok(access(good_path, F_OK) != 0, "and no .part file");
	ioa_fault_disarm();
	snprintf(good_path, sizeof(good_path), "%s/good.ioa", dir);

	ioa_logw_release(&w);
	ioa_buf_release(&raw);
}

struct seen {
	int records, shared, bad_values;
	int names;
	int hostile_ok;
	int user_ok;
};

static int on_record(const struct ioa_log_record *rec, void *arg)
{
	struct seen *s = arg;
	int i = (int)(rec->id - 42);

	s->records++;
	s->shared += (rec->flags & IOA_REC_SHARED) && rec->rank == -1;
	if (rec->counters[POSIX_BYTES_WRITTEN] != 1000 * i || rec->counters[POSIX_OPENS] != 1 ||
	    rec->counters[POSIX_OVERWRITE_FIRST_OFFSET] != -1 ||
	    rec->fcounters[POSIX_F_WRITE_TIME] != 0.25 * i)
		s->bad_values++;
	return 0;
}

static int on_name(uint64_t id, const unsigned char *name, uint32_t len, void *arg)
{
	struct seen *s = arg;

	s->names++;
	if (id == 42 && len == sizeof(hostile_name) - 1 && !memcmp(name, hostile_name, len))
		s->hostile_ok = 1;
	return 0;
}

static int on_job(uint16_t key, const unsigned char *value, uint32_t len, void *arg)
{
	struct seen *s = arg;

	if (key == IOA_JOB_USER && len == 5 && !memcmp(value, "alice", 5))
		s->user_ok = 1;
	return 0;
}

static void test_round_trip(void)
{
	struct ioa_log_reader r;
	struct ioa_buf raw = IOA_BUF_INIT(1 << 24);
	struct seen s = {0};
	struct stat st;
	uint32_t i;
	int rc;

	rc = ioa_logr_open(&r, good_path);
	is_int(rc, 0, "the log opens (%s)", ioa_logr_error(&r));
	if (rc)
		return;
	is_int(r.region_count, 4, "with its four regions");
	is_int(r.flags, IOA_LOG_FLAG_FOLDED, "and its header flags");
	for (i = 0; i < r.region_count && !rc; i++) {
		rc = ioa_logr_read_region(&r, i, &raw);
		if (rc)
			break;
		if (r.regions[i].type == IOA_REGION_JOB)
			rc = ioa_logr_each_job_entry(&r, &raw, on_job, &s);
		else if (r.regions[i].type == IOA_REGION_NAMES)
			rc = ioa_logr_each_name(&r, &raw, on_name, &s);
		else if (ioa_module_by_region(r.regions[i].type))
			rc = ioa_logr_each_record(&r, i, &raw, on_record, &s);
	}
	is_int(rc, 0, "every region reads and decodes (%s)", ioa_logr_error(&r));
	ok(s.user_ok, "the job entries come back");
	is_int(s.names, 2, "both names come back");
	ok(s.hostile_ok, "a name with markup, quotes, a newline and non-UTF-8 bytes is exact");
	is_int(s.records, 500, "all 500 records come back");
	is_int(s.bad_values, 0, "with every counter value exact");
	is_int(s.shared, 1, "shared records keep rank -1 and their flag");
	ok(stat(good_path, &st) == 0 && (st.st_mode & 0777) == 0440, "the log has mode 0440");
	ioa_logr_close(&r);
	ioa_buf_release(&raw);
}

/*
 * Writes the first `keep` bytes of the good log, with flip_mask XORed into
 * the byte at flip_at (if >= 0), and returns the reader's verdict on it.
 */
static int open_mutated(size_t keep, long flip_at, unsigned char flip_mask, char *error,
			size_t error_len)
{
	char path[320];
	struct ioa_log_reader r;
	struct ioa_buf raw = IOA_BUF_INIT(1 << 24);
	unsigned char *copy = malloc(good_len);
	FILE *f;
	uint32_t i;
	int rc;

	memcpy(copy, good, good_len);
	if (flip_at >= 0)
		copy[flip_at] ^= flip_mask;
	snprintf(path, sizeof(path), "%s/bad.ioa", dir);
	f = fopen(path, "wb");
	fwrite(copy, 1, keep, f);
	fclose(f);
	free(copy);

	rc = ioa_logr_open(&r, path);
	for (i = 0; !rc && i < r.region_count; i++)
		rc = ioa_logr_read_region(&r, i, &raw);
	snprintf(error, error_len, "%s", ioa_logr_error(&r));
	ioa_logr_close(&r);
	ioa_buf_release(&raw);
	return rc;
}

static void load_good(void)
{
	FILE *f = fopen(good_path, "rb");
	struct stat st;

	stat(good_path, &st);
	good_len = (size_t)st.st_size;
	good = malloc(good_len);
	if (!f || fread(good, 1, good_len, f) != good_len)
		good_len = 0;
	if (f)
		fclose(f);
}

static void test_damage(void)
{
	char error[256];
	size_t cut, region_start;
	long bit;
	int all_refused = 1, any_crash_free = 1;

	load_good();
	ok(good_len > 200, "the good log was read back (%zu bytes)", good_len);

	is_int(open_mutated(0, -1, 0, error, sizeof(error)), -EINVAL, "an empty file is refused");
	ok(strstr(error, "truncated header") != NULL, "as a truncated header ('%s')", error);

	is_int(open_mutated(good_len - 1, -1, 0, error, sizeof(error)), -EINVAL,
	       "a log one byte short is refused");
	ok(strstr(error, "truncated log") != NULL, "as truncated ('%s')", error);

	for (cut = 0; cut < good_len; cut += 7)
		all_refused &= open_mutated(cut, -1, 0, error, sizeof(error)) == -EINVAL;
	ok(all_refused, "every truncation is refused");

	is_int(open_mutated(good_len, 0, 0x20, error, sizeof(error)), -EINVAL,
	       "a bad magic is refused");
	ok(strstr(error, "not an ioatlas log") != NULL, "as not a log ('%s')", error);
	is_int(open_mutated(good_len, 21, 0x10, error, sizeof(error)), -EINVAL,
	       "a flipped bit in the region count is refused");
	ok(strstr(error, "corrupt header") != NULL, "by the header checksum ('%s')", error);
	is_int(open_mutated(good_len, IOA_LOG_HEADER_SIZE + 17, 0x80, error, sizeof(error)),
	       -EINVAL, "a flipped bit in the region table is refused");
	ok(strstr(error, "corrupt region table") != NULL, "by the table checksum ('%s')", error);

	region_start = IOA_LOG_HEADER_SIZE + 4 * IOA_LOG_REGION_ENTRY_SIZE + 4;
	is_int(open_mutated(good_len, (long)region_start + 30, 0x01, error, sizeof(error)), -EINVAL,
	       "a flipped bit inside a region is refused");
	ok(strstr(error, "corrupt region") != NULL, "by the region checksum ('%s')", error);

	/* Every single-bit flip must be caught; sample a bit per byte. */
	for (bit = 0; bit < (long)good_len; bit++)
		any_crash_free &= open_mutated(good_len, bit, (unsigned char)(1u << (bit % 8)),
					       error, sizeof(error)) != 0;
	ok(any_crash_free, "a flipped bit at any byte of the log is refused");
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/ioatlas-t0004.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		ok(0, "cannot create a scratch directory under %s", tmp ? tmp : "/tmp");
		return tap_done();
	}
	build_log();
	test_round_trip();
	test_damage();
	free(good);
	{
		char cmd[400];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			tap_diag("could not remove %s", dir);
	}
	return tap_done();
}
