/*
 * ioa_logw — writes ioatlas logs (format: docs/log-format.md).
 *
 * Regions are packed one at a time (encoded by the caller into a raw
 * buffer, then compressed and checksummed here); the header and region
 * table are built last, once every region's size is known.  That split lets
 * MPI ranks pack their own regions in parallel and have rank 0 write only
 * the header (runtime/rt_shutdown.c), while a single process writes the
 * whole file with ioa_logw_write_file().
 *
 * Not thread-safe per writer; different writers are independent.
 */
#ifndef IOA_LOGW_H
#define IOA_LOGW_H

#include <stdint.h>
#include <sys/types.h>

#include "ioa_buf.h"
#include "ioa_counters.h"
#include "ioa_logfmt.h"

struct ioa_log_region {
	uint32_t type;
	uint32_t compression;
	uint64_t offset; /* from the start of the file */
	uint64_t stored_size;
	uint64_t raw_size;
	uint32_t crc32; /* of the stored bytes */
};

struct ioa_log_writer {
	struct ioa_buf stored; /* packed regions, back to back */
	void *stream;	       /* zlib state of the region being streamed */
	size_t stream_start;   /* where that region's bytes begin in stored */
	uint64_t stream_raw;   /* raw bytes fed to it so far */
	uint32_t stream_type;
	struct ioa_log_region *regions; /* offsets relative to `stored` until placed */
	uint32_t region_count;
	uint32_t region_alloc;
};

/* cap bounds the packed regions' total size. */
void ioa_logw_init(struct ioa_log_writer *w, size_t cap);
void ioa_logw_release(struct ioa_log_writer *w);

/*
 * Compresses raw (raw_len bytes) with zlib when that saves space and appends
 * it as a region of the given type.  0, -ENOMEM, -ENOBUFS, -EOVERFLOW.
 */
int ioa_logw_add(struct ioa_log_writer *w, uint32_t type, const void *raw, size_t raw_len);

/*
 * Streams a region of any size through a small buffer: begin, any number
 * of add calls with raw bytes, end.  Memory is the compressed region plus
 * zlib's state, never the raw region.  Streamed regions are always stored
 * zlib-compressed.  Each returns 0 or a negative errno; after a failure
 * ioa_logw_region_end() must still be called to release the stream (it
 * then discards the region and returns the first error).
 */
int ioa_logw_region_begin(struct ioa_log_writer *w, uint32_t type);
int ioa_logw_region_add(struct ioa_log_writer *w, const void *raw, size_t len);
int ioa_logw_region_end(struct ioa_log_writer *w, int rc);

/*
 * Appends regions packed elsewhere (another rank's writer): their entries,
 * whose offsets are relative to `stored`, and the stored bytes themselves.
 * 0, -ENOMEM, -ENOBUFS, -EOVERFLOW, -EINVAL (an entry outside `stored`).
 */
int ioa_logw_append(struct ioa_log_writer *w, const struct ioa_log_region *regions, uint32_t count,
		    const void *stored, size_t stored_len);

/*
 * Builds the header and region table for `count` regions whose stored bytes
 * follow the table in the given order, sets each region's offset, and
 * appends the bytes to out.  The regions may come from several writers.
 */
int ioa_logw_header(struct ioa_buf *out, struct ioa_log_region *regions, uint32_t count,
		    uint32_t flags);

/*
 * Writes a complete log of w's regions to path: first to "<path>.part"
 * (created exclusively with `mode`), synced, then renamed to path.  On
 * failure the .part file is removed.  0 or a negative errno.
 */
int ioa_logw_write_file(struct ioa_log_writer *w, const char *path, mode_t mode, uint32_t flags);

/* Writes the complete log to fd, from where it stands: 0 or a negative errno. */
int ioa_logw_write_fd(struct ioa_log_writer *w, int fd, uint32_t flags);

/* Little-endian encoders for region payloads; all-or-nothing like ioa_buf_add. */
int ioa_enc_u16(struct ioa_buf *b, uint16_t v);
int ioa_enc_u32(struct ioa_buf *b, uint32_t v);
int ioa_enc_u64(struct ioa_buf *b, uint64_t v);
/* A length-prefixed (u32) byte string. */
int ioa_enc_bytes(struct ioa_buf *b, const void *bytes, size_t len);

/*
 * The 1.0 layout of a module region, row by row: its header (the module's
 * counter names and the record count) followed by exactly that many
 * records, each with every counter of the module in table order.  Readers
 * keep reading it; writers use the column encoding below.
 */
int ioa_enc_module_header(struct ioa_buf *b, enum ioa_module module, uint32_t record_count);
int ioa_enc_module_record(struct ioa_buf *b, enum ioa_module module, uint64_t id, int32_t rank,
			  uint32_t flags, const int64_t *counters, const double *fcounters);

/*
 * The column encoding (format 1.1, docs/log-format.md): a region's records
 * stored counter by counter, each value as a varint difference from a
 * predictor chosen per column, so that zlib sees runs of small, similar
 * bytes.  A record as the encoders read it:
 */
struct ioa_log_bin {
	uint64_t read_bytes;
	uint64_t write_bytes;
	uint32_t read_ops;
	uint32_t write_ops;
};

struct ioa_rec_ref {
	uint64_t id;
	const char *name; /* the file's name, whose hash id is (or NULL) */
	size_t name_len;
	int32_t rank;
	uint32_t flags;
	uint16_t module;		/* bins regions */
	const int64_t *counters;	/* module regions */
	const double *fcounters;	/* module regions */
	const struct ioa_log_bin *bins; /* bins regions: nbins of them */
};

/*
 * Called whenever the encoded bytes in b reach 64 KiB, to take them (and
 * reset b): a region streams out without its whole raw form in memory.
 * NULL: b takes the whole region.  Bytes left in b at the end are the
 * caller's.
 */
typedef int (*ioa_enc_flush)(void *arg, struct ioa_buf *b);

/*
 * A module region of count records.  tick_s: float counters that are a
 * whole number of ticks times tick_s (the runtime's timestamps and times)
 * are stored as that number; 0 stores every float as its 8 bytes.  Every
 * value reads back bit for bit either way.
 */
int ioa_enc_module_region(struct ioa_buf *b, enum ioa_module module, const struct ioa_rec_ref *recs,
			  uint32_t count, double tick_s, ioa_enc_flush flush, void *arg);

/* A bins region (see ioa_logr_each_bins): recs[i].id, .module and .bins. */
int ioa_enc_bins_region(struct ioa_buf *b, uint32_t nbins, double width_s, uint64_t start_ns,
			int32_t rank, const struct ioa_rec_ref *recs, uint32_t count,
			ioa_enc_flush flush, void *arg);

/*
 * A names region: the header, then count names.  An id that is the name's
 * own hash (ioa_name_id) is not stored.
 */
int ioa_enc_names_header(struct ioa_buf *b, uint32_t count);
int ioa_enc_name(struct ioa_buf *b, uint64_t id, const void *name, size_t len);

/* A file's record id: the XXH3 64-bit hash of its name, 1 for a hash of 0. */
uint64_t ioa_name_id(const void *name, size_t len);

#endif
