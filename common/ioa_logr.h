/*
 * ioa_logr — the only code that parses ioatlas logs.
 *
 * Logs are untrusted input: every length, offset and count is checked
 * against the file and against fixed limits before it is used, every region
 * is CRC-checked before it is decoded, and decompression stops at the size
 * the region table promised.  A truncated or corrupt log gets an error that
 * names the problem (ioa_logr_error()), never a crash or a misreading.
 *
 *	struct ioa_log_reader r;
 *	rc = ioa_logr_open(&r, path);
 *	for (i = 0; !rc && i < r.region_count; i++)
 *		rc = ioa_logr_read_region(&r, i, &raw);    ... decode raw ...
 *	ioa_logr_close(&r);
 *
 * Memory is bounded by the largest region read, never the log's size.  Not
 * thread-safe per reader.
 */
#ifndef IOA_LOGR_H
#define IOA_LOGR_H

#include <stdint.h>

#include "ioa_buf.h"
#include "ioa_counters.h"
#include "ioa_logw.h"

struct ioa_log_reader {
	int fd;
	uint64_t file_size;
	uint16_t version_major;
	uint16_t version_minor;
	uint32_t flags;
	uint32_t region_count;
	struct ioa_log_region *regions;
	char error[256]; /* what the last failure was, for messages */
};

/* 0, or a negative errno with r->error set (-EINVAL: not a valid log). */
int ioa_logr_open(struct ioa_log_reader *r, const char *path);
/* The same on an open file (a memory file, say), which the reader takes over and closes. */
int ioa_logr_open_fd(struct ioa_log_reader *r, int fd);
void ioa_logr_close(struct ioa_log_reader *r);

/* Describes the last failure: "truncated region 3 (expected 4096 bytes, got 12)". */
const char *ioa_logr_error(const struct ioa_log_reader *r);

/*
 * Reads region i into raw (reset first), checking its CRC and decompressing
 * it.  raw's cap bounds the memory used; -EFBIG if the region is larger.
 */
int ioa_logr_read_region(struct ioa_log_reader *r, uint32_t i, struct ioa_buf *raw);

/* One module record as decoded, in the current table's counter order. */
struct ioa_log_record {
	enum ioa_module module;
	uint64_t id;
	int32_t rank;
	uint32_t flags;
	int64_t counters[IOA_MAX_COUNTERS];
	double fcounters[IOA_MAX_FCOUNTERS];
};

/*
 * A region's raw bytes from its stored ones (as the warehouse keeps trace
 * regions): into raw, reset first.  0, -EFBIG (over raw's cap), -ENOMEM,
 * or -EINVAL (unknown compression, or the bytes do not decompress to
 * raw_size).
 */
int ioa_region_inflate(uint32_t compression, const void *stored, size_t stored_len,
		       uint64_t raw_size, struct ioa_buf *raw);

/*
 * Whether the mount point m (mlen bytes) holds the file name: a prefix of
 * it that ends at a '/' (or is all of it, or is the root).  Readers pick
 * the longest mount point that holds a name.
 */
int ioa_mount_holds(const unsigned char *m, uint32_t mlen, const unsigned char *name,
		    uint32_t len);

/*
 * Decodes a module region (raw, as read) record by record, calling fn for
 * each; counters the log has and this table lacks are skipped, counters the
 * table has and the log lacks read as 0.  Stops at fn's first non-zero
 * return and returns it; -EINVAL (with r->error set) for a malformed region.
 */
int ioa_logr_each_record(struct ioa_log_reader *r, uint32_t region, const struct ioa_buf *raw,
			 int (*fn)(const struct ioa_log_record *rec, void *arg), void *arg);

/*
 * Decodes key/value or id/name style regions: the job region (key, value),
 * the name table (record id, name bytes) and the mount table (mount point,
 * file-system type).  Values point into raw and are not NUL-terminated.
 */
int ioa_logr_each_job_entry(struct ioa_log_reader *r, const struct ioa_buf *raw,
			    int (*fn)(uint16_t key, const unsigned char *value, uint32_t len,
				      void *arg),
			    void *arg);
int ioa_logr_each_name(struct ioa_log_reader *r, const struct ioa_buf *raw,
		       int (*fn)(uint64_t id, const unsigned char *name, uint32_t len, void *arg),
		       void *arg);
int ioa_logr_each_mount(struct ioa_log_reader *r, const struct ioa_buf *raw,
			int (*fn)(const unsigned char *path, uint32_t path_len,
				  const unsigned char *type, uint32_t type_len, void *arg),
			void *arg);

/*
 * One record's time-resolved view from a bins region: nbins equal bins of
 * width_s seconds from the rank's start (start_ns, wall clock).
 */
#define IOA_LOG_MAX_BINS 1024
struct ioa_log_bins {
	uint64_t record_id;
	enum ioa_module module;
	int32_t rank;
	uint32_t nbins;
	double width_s;
	uint64_t start_ns;
	uint64_t read_bytes[IOA_LOG_MAX_BINS];
	uint64_t write_bytes[IOA_LOG_MAX_BINS];
	uint32_t read_ops[IOA_LOG_MAX_BINS];
	uint32_t write_ops[IOA_LOG_MAX_BINS];
};

int ioa_logr_each_bins(struct ioa_log_reader *r, const struct ioa_buf *raw,
		       int (*fn)(const struct ioa_log_bins *b, void *arg), void *arg);

/* The hints region: per file and rank, the MPI-IO hints given at open as "key=value\n" text. */
int ioa_logr_each_hints(struct ioa_log_reader *r, const struct ioa_buf *raw,
			int (*fn)(uint64_t id, int32_t rank, const unsigned char *text,
				  uint32_t len, void *arg),
			void *arg);

/*
 * The folded region: files a rank folded into its overflow records.  fn is
 * called once per file; dropped is that rank's count of folded-file lookups
 * its table had no room to name.
 */
int ioa_logr_each_folded(struct ioa_log_reader *r, const struct ioa_buf *raw,
			 int (*fn)(int32_t rank, uint64_t dropped, uint64_t id,
				   enum ioa_module module, void *arg),
			 void *arg);

/*
 * The segments region (IOA_REGION_SEGMENTS): operations with their exact
 * offsets, lengths and times, as another tool traced them (Darshan's DXT),
 * file by file.  Times are seconds from the job's start.
 */
struct ioa_log_segment {
	enum ioa_module module;
	int32_t rank;
	uint64_t record_id;
	const unsigned char *host; /* not NUL-terminated */
	uint32_t host_len;
	int write;
	int64_t offset;
	int64_t length;
	double start;
	double end;
};

int ioa_logr_each_segment(struct ioa_log_reader *r, const struct ioa_buf *raw,
			  int (*fn)(const struct ioa_log_segment *s, void *arg), void *arg);

/* One entry of the errors region: calls that failed, by operation and errno. */
struct ioa_log_failure {
	uint64_t record_id; /* 0: the call named no recorded file */
	int32_t rank;
	enum ioa_module module;
	const unsigned char *op; /* operation name, not NUL-terminated */
	uint32_t op_len;
	int32_t err;
	uint64_t count;
};

int ioa_logr_each_failure(struct ioa_log_reader *r, const struct ioa_buf *raw,
			  int (*fn)(const struct ioa_log_failure *f, void *arg), void *arg);

/*
 * A rank's MPI library region: the POSIX and STDIO calls its MPI library
 * made inside MPI_Init, MPI_Finalize and communication calls (calls, of
 * which failed failed), none of them among the records, and the calls
 * that failed inside MPI-IO calls (failed_mpiio); and, one fn call per
 * entry as in the errors region, the library's failed calls by operation
 * and errno, both kinds (those inside MPI-IO calls with their file's
 * record id, when the file is recorded).  Not the application's.
 */
struct ioa_log_mpi_library {
	int32_t rank;
	uint64_t calls;
	uint64_t failed;
	uint64_t failed_mpiio;
};

/* fn may be NULL: the header alone, the entries checked. */
int ioa_logr_mpi_library(struct ioa_log_reader *r, const struct ioa_buf *raw,
			 struct ioa_log_mpi_library *lib,
			 int (*fn)(const struct ioa_log_failure *f, void *arg), void *arg);

#endif
