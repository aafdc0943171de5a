/*
 * ioa_logr — log reader (see ioa_logr.h).  Validation happens in layers:
 * the header (magic, version, byte order, CRC, sizes against the real file
 * size), the region table (CRC, each region inside the file and after the
 * table), each region on reading (CRC, decompressed size), and each payload
 * on decoding (every length against what is left).
 */
#include "ioa_logr.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "ioa_fault.h"
#include "ioa_trace.h"

/*
 * Fuzzing builds (tests/fuzz/run-fuzz) accept any checksum, so that the
 * fuzzer's mutations reach the decoders behind the checks instead of
 * stopping at them; every other check stays.
 */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define CRC_MISMATCH(computed, stored) ((void)(computed), (void)(stored), 0)
#else
#define CRC_MISMATCH(computed, stored) ((computed) != (stored))
#endif

static int fail(struct ioa_log_reader *r, int rc, const char *fmt, ...) IOA_PRINTF(3, 4);
static int fail(struct ioa_log_reader *r, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->error, sizeof(r->error), fmt, ap);
	va_end(ap);
	return rc;
}

const char *ioa_logr_error(const struct ioa_log_reader *r)
{
	return r->error[0] ? r->error : "no error";
}

/* Reads exactly len bytes at offset; -EINVAL with a message when the file is short. */
static int read_at(struct ioa_log_reader *r, void *buf, size_t len, uint64_t offset,
		   const char *what)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = IOA_FAULT("logr-read") ? (errno = EIO, -1)
						   : pread(r->fd, (char *)buf + got, len - got,
							   (off_t)(offset + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail(r, -errno, "cannot read %s: %s", what, strerror(errno));
		if (n == 0)
			return fail(r, -EINVAL, "truncated %s (expected %zu bytes, got %zu)", what,
				    len, got);
		got += (size_t)n;
	}
	return 0;
}

static int check_header(struct ioa_log_reader *r, const unsigned char *h, uint64_t *table_offset)
{
	uint32_t header_size, byte_order;
	uint64_t claimed_size;

	if (memcmp(h, IOA_LOG_MAGIC, IOA_LOG_MAGIC_LEN))
		return fail(r, -EINVAL, "not an ioatlas log (bad magic)");
	if (CRC_MISMATCH((uint32_t)crc32(0L, h, 60), ioa_get_u32(h + 60)))
		return fail(r, -EINVAL, "corrupt header (checksum mismatch)");
	r->version_major = ioa_get_u16(h + 8);
	r->version_minor = ioa_get_u16(h + 10);
	if (r->version_major != IOA_LOG_VERSION_MAJOR)
		return fail(r, -EINVAL,
			    "unsupported log format version %u.%u (this reader knows %u.x)",
			    r->version_major, r->version_minor, IOA_LOG_VERSION_MAJOR);
	byte_order = ioa_get_u32(h + 12);
	if (byte_order != IOA_LOG_BYTE_ORDER)
		return fail(r, -EINVAL, "unknown byte order mark 0x%08x", byte_order);
	header_size = ioa_get_u32(h + 16);
	if (header_size < IOA_LOG_HEADER_SIZE)
		return fail(r, -EINVAL, "header size %u is below the minimum %d", header_size,
			    IOA_LOG_HEADER_SIZE);
	r->region_count = ioa_get_u32(h + 20);
	if (r->region_count > IOA_LOG_MAX_REGIONS)
		return fail(r, -EINVAL, "region count %u exceeds the limit %u", r->region_count,
			    IOA_LOG_MAX_REGIONS);
	*table_offset = ioa_get_u64(h + 24);
	claimed_size = ioa_get_u64(h + 32);
	r->flags = ioa_get_u32(h + 40);
	if (claimed_size != r->file_size)
		return fail(r, -EINVAL, "truncated log (header says %llu bytes, file has %llu)",
			    (unsigned long long)claimed_size, (unsigned long long)r->file_size);
	if (*table_offset < header_size || *table_offset > r->file_size ||
	    r->file_size - *table_offset <
		    (uint64_t)r->region_count * IOA_LOG_REGION_ENTRY_SIZE + 4)
		return fail(r, -EINVAL, "region table of %u entries does not fit in the file",
			    r->region_count);
	return 0;
}

static int load_table(struct ioa_log_reader *r, uint64_t table_offset)
{
	size_t table_len = (size_t)r->region_count * IOA_LOG_REGION_ENTRY_SIZE;
	uint64_t data_start = table_offset + table_len + 4;
	unsigned char *table = IOA_FAULT("logr-alloc") ? NULL : malloc(table_len + 4);
	uint32_t i;
	int rc;

	r->regions = IOA_FAULT("logr-alloc")
			     ? NULL
			     : calloc(r->region_count ? r->region_count : 1, sizeof(*r->regions));
	if (!table || !r->regions) {
		free(table);
		return fail(r, -ENOMEM, "out of memory for a region table of %u entries",
			    r->region_count);
	}
	rc = read_at(r, table, table_len + 4, table_offset, "region table");
	if (!rc && CRC_MISMATCH((uint32_t)crc32(0L, table, (uInt)table_len),
				ioa_get_u32(table + table_len)))
		rc = fail(r, -EINVAL, "corrupt region table (checksum mismatch)");
	for (i = 0; !rc && i < r->region_count; i++) {
		const unsigned char *e = table + (size_t)i * IOA_LOG_REGION_ENTRY_SIZE;
		struct ioa_log_region *reg = &r->regions[i];

		reg->type = ioa_get_u32(e);
		reg->compression = ioa_get_u32(e + 4);
		reg->offset = ioa_get_u64(e + 8);
		reg->stored_size = ioa_get_u64(e + 16);
		reg->raw_size = ioa_get_u64(e + 24);
		reg->crc32 = ioa_get_u32(e + 32);
		if (reg->offset < data_start || reg->offset > r->file_size ||
		    reg->stored_size > r->file_size - reg->offset)
			rc = fail(r, -EINVAL,
				  "region %u lies outside the file (offset %llu, %llu bytes)", i,
				  (unsigned long long)reg->offset,
				  (unsigned long long)reg->stored_size);
		else if (reg->raw_size > IOA_LOG_MAX_REGION_RAW)
			rc = fail(r, -EINVAL, "region %u claims %llu bytes, over the limit", i,
				  (unsigned long long)reg->raw_size);
		else if (reg->compression > IOA_LOG_COMPRESS_ZLIB)
			rc = fail(r, -EINVAL, "region %u has unknown compression %u", i,
				  reg->compression);
		else if (reg->compression == IOA_LOG_COMPRESS_NONE &&
			 reg->raw_size != reg->stored_size)
			rc = fail(r, -EINVAL,
				  "region %u: stored and raw sizes differ without compression", i);
	}
	free(table);
	return rc;
}

int ioa_logr_open(struct ioa_log_reader *r, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		memset(r, 0, sizeof(*r));
		r->fd = -1;
		return fail(r, -errno, "%s", strerror(errno));
	}
	return ioa_logr_open_fd(r, fd);
}

int ioa_logr_open_fd(struct ioa_log_reader *r, int fd)
{
	unsigned char header[IOA_LOG_HEADER_SIZE];
	uint64_t table_offset = 0;
	struct stat st;
	int rc;

	memset(r, 0, sizeof(*r));
	r->fd = fd;
	if (fstat(r->fd, &st)) {
		rc = fail(r, -errno, "%s", strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = fail(r, -EINVAL, "not a regular file");
		goto out;
	}
	r->file_size = (uint64_t)st.st_size;
	rc = read_at(r, header, sizeof(header), 0, "header");
	if (!rc)
		rc = check_header(r, header, &table_offset);
	if (!rc)
		rc = load_table(r, table_offset);
out:
	if (rc) {
		char error[sizeof(r->error)];

		memcpy(error, r->error, sizeof(error));
		ioa_logr_close(r);
		memcpy(r->error, error, sizeof(error));
	}
	return rc;
}

void ioa_logr_close(struct ioa_log_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	free(r->regions);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

int ioa_mount_holds(const unsigned char *m, uint32_t mlen, const unsigned char *name, uint32_t len)
{
	return mlen <= len && !memcmp(m, name, mlen) &&
	       (mlen == len || mlen <= 1 || name[mlen] == '/');
}

int ioa_region_inflate(uint32_t compression, const void *stored, size_t stored_len,
		       uint64_t raw_size, struct ioa_buf *raw)
{
	uLongf out_len = (uLongf)raw_size;
	int z;

	ioa_buf_reset(raw);
	if (raw_size > raw->cap)
		return -EFBIG;
	if (ioa_buf_grow(raw, (size_t)raw_size))
		return -ENOMEM;
	if (compression == IOA_LOG_COMPRESS_NONE) {
		if (stored_len != raw_size)
			return -EINVAL;
		memcpy(raw->data, stored, stored_len);
	} else if (compression != IOA_LOG_COMPRESS_ZLIB) {
		return -EINVAL;
	} else {
		z = IOA_FAULT("logr-alloc") ? Z_MEM_ERROR
					    : uncompress((Bytef *)raw->data, &out_len,
							 (const Bytef *)stored, (uLong)stored_len);
		/* Out of memory is ours, not the log's. */
		if (z == Z_MEM_ERROR)
			return -ENOMEM;
		if (z != Z_OK || out_len != raw_size)
			return -EINVAL;
	}
	raw->len = (size_t)raw_size;
	raw->data[raw->len] = '\0';
	return 0;
}

int ioa_logr_read_region(struct ioa_log_reader *r, uint32_t i, struct ioa_buf *raw)
{
	const struct ioa_log_region *reg;
	struct ioa_buf stored = IOA_BUF_INIT(0);
	char what[64];
	int rc;

	if (i >= r->region_count)
		return fail(r, -EINVAL, "no region %u (the log has %u)", i, r->region_count);
	reg = &r->regions[i];
	ioa_buf_reset(raw);
	if (reg->raw_size > raw->cap)
		return fail(r, -EFBIG,
			    "region %u holds %llu bytes, over this reader's limit of %zu", i,
			    (unsigned long long)reg->raw_size, raw->cap);
	snprintf(what, sizeof(what), "region %u", i);

	if (reg->compression == IOA_LOG_COMPRESS_NONE) {
		rc = ioa_buf_grow(raw, (size_t)reg->raw_size);
		if (rc)
			return fail(r, rc, "out of memory for region %u", i);
		rc = read_at(r, raw->data, (size_t)reg->stored_size, reg->offset, what);
		if (rc)
			return rc;
		if (CRC_MISMATCH((uint32_t)crc32(0L, (Bytef *)raw->data, (uInt)reg->stored_size),
				 reg->crc32))
			return fail(r, -EINVAL, "corrupt region %u (checksum mismatch)", i);
		raw->len = (size_t)reg->raw_size;
		raw->data[raw->len] = '\0';
		return 0;
	}

	stored.cap = (size_t)reg->stored_size;
	rc = ioa_buf_grow(&stored, (size_t)reg->stored_size);
	if (!rc)
		rc = ioa_buf_grow(raw, (size_t)reg->raw_size);
	if (rc) {
		rc = fail(r, rc, "out of memory for region %u", i);
		goto out;
	}
	rc = read_at(r, stored.data, (size_t)reg->stored_size, reg->offset, what);
	if (rc)
		goto out;
	if (CRC_MISMATCH((uint32_t)crc32(0L, (Bytef *)stored.data, (uInt)reg->stored_size),
			 reg->crc32)) {
		rc = fail(r, -EINVAL, "corrupt region %u (checksum mismatch)", i);
		goto out;
	}
	rc = ioa_region_inflate(reg->compression, stored.data, (size_t)reg->stored_size,
				reg->raw_size, raw);
	if (rc == -ENOMEM)
		rc = fail(r, rc, "out of memory decompressing region %u", i);
	else if (rc)
		rc = fail(r, -EINVAL, "corrupt region %u (does not decompress to %llu bytes)", i,
			  (unsigned long long)reg->raw_size);
out:
	ioa_buf_release(&stored);
	return rc;
}

static struct ioa_cursor cursor_of(const struct ioa_buf *raw)
{
	struct ioa_cursor c = {(const unsigned char *)raw->data, raw->len, 0};

	return c;
}

/* Maps each counter name in the log to the table's index, or -1. */
static int map_names(struct ioa_cursor *c, uint32_t count, const char *const *names, unsigned known,
		     int *map)
{
	uint32_t i;
	unsigned k;

	for (i = 0; i < count; i++) {
		uint16_t len = ioa_cursor_u16(c);
		const unsigned char *name = ioa_cursor_take(c, len);

		map[i] = -1;
		if (!name)
			return -EINVAL;
		for (k = 0; k < known; k++) {
			if (strlen(names[k]) == len && !memcmp(names[k], name, len)) {
				map[i] = (int)k;
				break;
			}
		}
	}
	return 0;
}

/* ------------------------------------------------------ column encoding */

/* One column being read: where its next code is, its predictor and state. */
struct col {
	struct ioa_cursor c;
	unsigned mode;
	unsigned terms[4]; /* IOA_COL_TERMS: float column + 1, or 0 */
	int64_t last;
};

static int64_t unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static int is_columns(const struct ioa_buf *raw)
{
	return raw->len >= 4 && ioa_get_u32((const unsigned char *)raw->data) == IOA_REGION_COLUMNS;
}

/*
 * Notes where a column of count values starts (in col) and moves c past it.
 * Float columns (fk: the column's index among them, or -1 for an integer
 * column) hold float codes, and their terms name earlier float columns.
 * -1 when the column does not fit.
 */
static int col_skip(struct ioa_cursor *c, struct col *col, uint32_t count, int64_t fk)
{
	uint32_t i;
	unsigned k;

	col->mode = (unsigned)ioa_cursor_uvar(c);
	col->last = 0;
	memset(col->terms, 0, sizeof(col->terms));
	if (col->mode > (fk >= 0 ? IOA_COL_TERMS : IOA_COL_PREV))
		return -1;
	for (k = 0; k < 4 && col->mode == IOA_COL_TERMS; k++) {
		uint64_t term = ioa_cursor_uvar(c);

		if (term > (uint64_t)fk)
			return -1;
		col->terms[k] = (unsigned)term;
	}
	col->c = *c;
	for (i = 0; i < count && !c->overrun; i++)
		if (ioa_cursor_uvar(c) == 1 && fk >= 0)
			ioa_cursor_take(c, 8);
	return c->overrun ? -1 : 0;
}

static int64_t col_int(struct col *col)
{
	int64_t v = (int64_t)((uint64_t)(col->mode == IOA_COL_PREV ? col->last : 0) +
			      (uint64_t)unzigzag(ioa_cursor_uvar(&col->c)));

	col->last = v;
	return v;
}

/*
 * The next float of a column into *d, and its ticks into *ticks (0 when it
 * is not ticks); row: the ticks of the record's earlier float columns.
 */
static int col_float(struct col *col, double tick_s, const int64_t *row, int64_t *ticks, double *d)
{
	uint64_t code = ioa_cursor_uvar(&col->c), pred = 0;
	int64_t n;
	unsigned k;

	*ticks = 0;
	if (code == 0) {
		*d = 0;
		return 0;
	}
	if (code == 1) {
		*d = ioa_bits_f64(ioa_cursor_u64(&col->c));
		return 0;
	}
	if (col->mode == IOA_COL_PREV)
		pred = (uint64_t)col->last;
	for (k = 0; k < 4 && col->mode == IOA_COL_TERMS; k++) {
		uint64_t term = col->terms[k] ? (uint64_t)row[col->terms[k] - 1] : 0;

		pred = k % 2 ? pred - term : pred + term;
	}
	n = (int64_t)(pred + (uint64_t)unzigzag(code - 2));
	if (!(tick_s > 0) || n < -IOA_COL_MAX_TICK || n > IOA_COL_MAX_TICK)
		return -1;
	col->last = *ticks = n;
	*d = (double)n * tick_s;
	return 0;
}

/*
 * A record's id as the column encoding stores it: a name (uvar length,
 * bytes), then 0 (the id is the name's hash) or 1 and the id's 8 bytes.
 * Returns the id; a malformed entry sets c->overrun.
 */
static uint64_t id_next(struct ioa_cursor *c)
{
	uint64_t len = ioa_cursor_uvar(c), form;
	const unsigned char *name = len > c->left ? NULL : ioa_cursor_take(c, (size_t)len);

	form = ioa_cursor_uvar(c);
	if (!name || form > 1)
		c->overrun = 1;
	if (c->overrun)
		return 0;
	return form ? ioa_cursor_u64(c) : ioa_name_id(name, (size_t)len);
}

/* Moves c past count ids; -1 when they do not fit. */
static int ids_skip(struct ioa_cursor *c, uint64_t count)
{
	uint64_t i;

	for (i = 0; i < count && !c->overrun; i++)
		(void)id_next(c);
	return c->overrun ? -1 : 0;
}

/* Maps each counter name (uvar length, bytes) in the log to the table's index, or -1. */
static int map_var_names(struct ioa_cursor *c, uint64_t count, const char *const *names,
			 unsigned known, int *map)
{
	uint64_t i;
	unsigned k;

	for (i = 0; i < count; i++) {
		uint64_t len = ioa_cursor_uvar(c);
		const unsigned char *name = len > c->left ? NULL : ioa_cursor_take(c, (size_t)len);

		map[i] = -1;
		if (!name)
			return -EINVAL;
		for (k = 0; k < known; k++) {
			if (strlen(names[k]) == len && !memcmp(names[k], name, (size_t)len)) {
				map[i] = (int)k;
				break;
			}
		}
	}
	return 0;
}

static int each_record_columns(struct ioa_log_reader *r, uint32_t region,
			       const struct ioa_module_desc *mod, const struct ioa_buf *raw,
			       int (*fn)(const struct ioa_log_record *rec, void *arg), void *arg)
{
	struct ioa_cursor c = cursor_of(raw), ids;
	uint64_t ncounters, nfcounters, nrecords, i, k;
	struct ioa_log_record rec;
	unsigned char is_count[IOA_MAX_COUNTERS];
	struct col *cols = NULL;
	int64_t *row = NULL;
	int *map = NULL, rc = 0;
	double tick_s;

	(void)ioa_cursor_u32(&c);
	ncounters = ioa_cursor_uvar(&c);
	nfcounters = ioa_cursor_uvar(&c);
	/* Each name and each column takes at least a byte: counts past that are lies. */
	if (c.overrun || ncounters > c.left || nfcounters > c.left - ncounters)
		return fail(r, -EINVAL, "region %u: counter count out of range", region);
	map = IOA_FAULT("logr-alloc") ? NULL : malloc((ncounters + nfcounters + 1) * sizeof(*map));
	cols = IOA_FAULT("logr-alloc") ? NULL
				       : malloc((ncounters + nfcounters + 2) * sizeof(*cols));
	row = IOA_FAULT("logr-alloc") ? NULL : malloc((nfcounters + 1) * sizeof(*row));
	if (!map || !cols || !row) {
		rc = fail(r, -ENOMEM, "out of memory decoding region %u", region);
		goto out;
	}
	if (map_var_names(&c, ncounters, mod->counter_names, mod->counter_count, map) ||
	    map_var_names(&c, nfcounters, mod->fcounter_names, mod->fcounter_count,
			  map + ncounters)) {
		rc = fail(r, -EINVAL, "region %u: truncated counter names", region);
		goto out;
	}
	tick_s = ioa_bits_f64(ioa_cursor_u64(&c));
	nrecords = ioa_cursor_uvar(&c);
	if (c.overrun || !isfinite(tick_s) || tick_s < 0 || nrecords > c.left / 2) {
		rc = fail(r, -EINVAL, "region %u: bad column header", region);
		goto out;
	}
	ids = c;
	if (ids_skip(&c, nrecords)) {
		rc = fail(r, -EINVAL, "region %u: the record ids are malformed", region);
		goto out;
	}
	for (k = 0; k < ncounters + nfcounters + 2; k++) {
		if (col_skip(&c, &cols[k], (uint32_t)nrecords,
			     k >= ncounters + 2 ? (int64_t)(k - ncounters - 2) : -1)) {
			rc = fail(r, -EINVAL, "region %u: column %llu is malformed", region,
				  (unsigned long long)k);
			goto out;
		}
	}
	if (c.left) {
		rc = fail(r, -EINVAL, "region %u: %zu stray bytes after %llu records", region,
			  c.left, (unsigned long long)nrecords);
		goto out;
	}
	for (k = 0; k < mod->counter_count; k++)
		is_count[k] = ioa_counter_agg(mod->counter_names[k]) == IOA_AGG_SUM;
	for (i = 0; i < nrecords && !rc; i++) {
		int64_t rank, flags;

		memset(&rec, 0, sizeof(rec));
		rec.module = (enum ioa_module)(mod - ioa_modules);
		rec.id = id_next(&ids);
		rank = col_int(&cols[0]);
		flags = col_int(&cols[1]);
		if (rank < INT32_MIN || rank > INT32_MAX || flags < 0 || flags > UINT32_MAX) {
			rc = fail(r, -EINVAL, "region %u: record %llu: bad rank or flags", region,
				  (unsigned long long)i);
			goto out;
		}
		rec.rank = (int32_t)rank;
		rec.flags = (uint32_t)flags;
		for (k = 0; k < ncounters; k++) {
			int64_t v = col_int(&cols[2 + k]);

			if (map[k] < 0)
				continue;
			rec.counters[map[k]] = v;
			if (v < IOA_NOT_RECORDED && is_count[map[k]]) {
				rc = fail(r, -EINVAL,
					  "region %u: record %llu: count %s is negative (%lld)",
					  region, (unsigned long long)i, mod->counter_names[map[k]],
					  (long long)v);
				goto out;
			}
		}
		for (k = 0; k < nfcounters; k++) {
			double d;
			int bad = col_float(&cols[2 + ncounters + k], tick_s, row, &row[k], &d);

			if (map[ncounters + k] < 0 && !bad)
				continue;
			if (bad || !isfinite(d)) {
				rc = fail(r, -EINVAL,
					  "region %u: record %llu: float counter %llu is not a "
					  "finite number",
					  region, (unsigned long long)i, (unsigned long long)k);
				goto out;
			}
			rec.fcounters[map[ncounters + k]] = d;
		}
		rc = fn(&rec, arg);
	}
out:
	free(map);
	free(cols);
	free(row);
	return rc;
}

int ioa_logr_each_record(struct ioa_log_reader *r, uint32_t region, const struct ioa_buf *raw,
			 int (*fn)(const struct ioa_log_record *rec, void *arg), void *arg)
{
	const struct ioa_module_desc *mod = ioa_module_by_region(r->regions[region].type);
	struct ioa_cursor c = cursor_of(raw);
	uint32_t ncounters, nfcounters, nrecords, i, k;
	struct ioa_log_record rec;
	unsigned char is_count[IOA_MAX_COUNTERS]; /* summed over records: never negative */
	int *map = NULL, rc = 0;

	if (!mod)
		return fail(r, -EINVAL, "region %u is not a module region", region);
	if (is_columns(raw))
		return each_record_columns(r, region, mod, raw, fn, arg);
	ncounters = ioa_cursor_u32(&c);
	nfcounters = ioa_cursor_u32(&c);
	/* Each name takes at least 2 bytes: a count past that is a lie. */
	if (c.overrun || ncounters > c.left / 2 || nfcounters > c.left / 2)
		return fail(r, -EINVAL, "region %u: counter count out of range", region);
	map = IOA_FAULT("logr-alloc") ? NULL
				      : malloc(((size_t)ncounters + nfcounters + 1) * sizeof(*map));
	if (!map)
		return fail(r, -ENOMEM, "out of memory decoding region %u", region);
	if (map_names(&c, ncounters, mod->counter_names, mod->counter_count, map) ||
	    map_names(&c, nfcounters, mod->fcounter_names, mod->fcounter_count, map + ncounters)) {
		rc = fail(r, -EINVAL, "region %u: truncated counter names", region);
		goto out;
	}
	nrecords = ioa_cursor_u32(&c);
	if (c.overrun ||
	    (uint64_t)nrecords * (16 + 8 * ((uint64_t)ncounters + nfcounters)) != c.left) {
		rc = fail(r, -EINVAL, "region %u: %u records do not fill the region's %zu bytes",
			  region, nrecords, c.left);
		goto out;
	}
	for (k = 0; k < mod->counter_count; k++)
		is_count[k] = ioa_counter_agg(mod->counter_names[k]) == IOA_AGG_SUM;
	for (i = 0; i < nrecords && !rc; i++) {
		memset(&rec, 0, sizeof(rec));
		rec.module = (enum ioa_module)(mod - ioa_modules);
		rec.id = ioa_cursor_u64(&c);
		rec.rank = (int32_t)ioa_cursor_u32(&c);
		rec.flags = ioa_cursor_u32(&c);
		for (k = 0; k < ncounters; k++) {
			uint64_t v = ioa_cursor_u64(&c);

			if (map[k] < 0)
				continue;
			rec.counters[map[k]] = (int64_t)v;
			if ((int64_t)v < IOA_NOT_RECORDED && is_count[map[k]]) {
				rc = fail(r, -EINVAL,
					  "region %u: record %u: count %s is negative (%lld)",
					  region, i, mod->counter_names[map[k]], (long long)v);
				goto out;
			}
		}
		for (k = 0; k < nfcounters; k++) {
			uint64_t v = ioa_cursor_u64(&c);

			if (map[ncounters + k] < 0)
				continue;
			rec.fcounters[map[ncounters + k]] = ioa_bits_f64(v);
			if (!isfinite(ioa_bits_f64(v))) {
				rc = fail(r, -EINVAL,
					  "region %u: record %u: %s is not a finite number", region,
					  i, mod->fcounter_names[map[ncounters + k]]);
				goto out;
			}
		}
		rc = fn(&rec, arg);
	}
out:
	free(map);
	return rc;
}

int ioa_logr_each_job_entry(struct ioa_log_reader *r, const struct ioa_buf *raw,
			    int (*fn)(uint16_t key, const unsigned char *value, uint32_t len,
				      void *arg),
			    void *arg)
{
	struct ioa_cursor c = cursor_of(raw);
	int rc = 0;

	while (c.left && !rc) {
		uint16_t key = ioa_cursor_u16(&c);
		uint32_t len = ioa_cursor_u32(&c);
		const unsigned char *value = ioa_cursor_take(&c, len);

		if (!value)
			return fail(r, -EINVAL, "job region: truncated entry (key %u, %u bytes)",
				    key, len);
		rc = fn(key, value, len, arg);
	}
	return rc;
}

/* Names with their ids left out where an id is the name's hash. */
static int each_name_columns(struct ioa_log_reader *r, const struct ioa_buf *raw,
			     int (*fn)(uint64_t id, const unsigned char *name, uint32_t len,
				       void *arg),
			     void *arg)
{
	struct ioa_cursor c = cursor_of(raw);
	uint64_t count, i;
	int rc = 0;

	(void)ioa_cursor_u32(&c);
	count = ioa_cursor_uvar(&c);
	/* Each name takes at least two bytes. */
	if (c.overrun || count > c.left / 2)
		return fail(r, -EINVAL, "name table: %llu names do not fit",
			    (unsigned long long)count);
	for (i = 0; i < count && !rc; i++) {
		uint64_t len = ioa_cursor_uvar(&c), form, id;
		const unsigned char *name = len > c.left ? NULL : ioa_cursor_take(&c, (size_t)len);

		form = ioa_cursor_uvar(&c);
		id = form == 1 ? ioa_cursor_u64(&c) : 0;
		if (!name || c.overrun || form > 1)
			return fail(r, -EINVAL, "name table: bad entry %llu of %llu",
				    (unsigned long long)i, (unsigned long long)count);
		if (form == 0)
			id = ioa_name_id(name, (size_t)len);
		rc = fn(id, name, (uint32_t)len, arg);
	}
	if (!rc && c.left)
		return fail(r, -EINVAL, "name table: %zu stray bytes after %llu names", c.left,
			    (unsigned long long)count);
	return rc;
}

int ioa_logr_each_name(struct ioa_log_reader *r, const struct ioa_buf *raw,
		       int (*fn)(uint64_t id, const unsigned char *name, uint32_t len, void *arg),
		       void *arg)
{
	struct ioa_cursor c = cursor_of(raw);
	uint32_t count, i;
	int rc = 0;

	if (is_columns(raw))
		return each_name_columns(r, raw, fn, arg);
	count = ioa_cursor_u32(&c);
	for (i = 0; i < count && !rc; i++) {
		uint64_t id = ioa_cursor_u64(&c);
		uint32_t len = ioa_cursor_u32(&c);
		const unsigned char *name = ioa_cursor_take(&c, len);

		if (!name)
			return fail(r, -EINVAL, "name table: truncated entry %u of %u", i, count);
		rc = fn(id, name, len, arg);
	}
	if (!rc && (c.overrun || c.left))
		return fail(r, -EINVAL, "name table: %zu stray bytes after %u names", c.left,
			    count);
	return rc;
}

int ioa_logr_each_mount(struct ioa_log_reader *r, const struct ioa_buf *raw,
			int (*fn)(const unsigned char *path, uint32_t path_len,
				  const unsigned char *type, uint32_t type_len, void *arg),
			void *arg)
{
	struct ioa_cursor c = cursor_of(raw);
	uint32_t count = ioa_cursor_u32(&c), i;
	int rc = 0;

	for (i = 0; i < count && !rc; i++) {
		uint32_t path_len = ioa_cursor_u32(&c);
		const unsigned char *path = ioa_cursor_take(&c, path_len);
		uint32_t type_len = ioa_cursor_u32(&c);
		const unsigned char *type = ioa_cursor_take(&c, type_len);

		if (!path || !type)
			return fail(r, -EINVAL, "mount table: truncated entry %u of %u", i, count);
		rc = fn(path, path_len, type, type_len, arg);
	}
	if (!rc && (c.overrun || c.left))
		return fail(r, -EINVAL, "mount table: %zu stray bytes after %u mounts", c.left,
			    count);
	return rc;
}

/*
 * Segments: u32 host count, each host as u32 length and bytes; u64 segment
 * count; per segment u8 module, u8 write, u32 host index, i32 rank, u64
 * record id, i64 offset, i64 length, f64 start, f64 end.
 */
#define SEGMENT_SIZE (2 + 4 + 4 + 8 + 8 + 8 + 8 + 8)

int ioa_logr_each_segment(struct ioa_log_reader *r, const struct ioa_buf *raw,
			  int (*fn)(const struct ioa_log_segment *s, void *arg), void *arg)
{
	struct ioa_cursor c = cursor_of(raw);
	uint32_t nhosts = ioa_cursor_u32(&c), i;
	struct {
		const unsigned char *name;
		uint32_t len;
	} *hosts;
	uint64_t count, k;
	int rc = 0;

	/* Each host takes at least its 4-byte length: no more than the region holds. */
	if (c.overrun || nhosts > c.left / 4)
		return fail(r, -EINVAL, "segments: %u hosts in %zu bytes", nhosts, c.left);
	hosts = calloc(nhosts ? nhosts : 1, sizeof(*hosts));
	if (!hosts)
		return -ENOMEM;
	for (i = 0; i < nhosts && !c.overrun; i++) {
		hosts[i].len = ioa_cursor_u32(&c);
		hosts[i].name = ioa_cursor_take(&c, hosts[i].len);
	}
	count = ioa_cursor_u64(&c);
	if (c.overrun || count > c.left / SEGMENT_SIZE || count * SEGMENT_SIZE != c.left) {
		free(hosts);
		return fail(r, -EINVAL, "segments: %llu segments do not fill the region's %zu bytes",
			    (unsigned long long)count, c.left);
	}
	for (k = 0; k < count && !rc; k++) {
		const unsigned char *head = ioa_cursor_take(&c, 2);
		struct ioa_log_segment s;
		uint32_t host;

		memset(&s, 0, sizeof(s));
		s.write = head[1];
		host = ioa_cursor_u32(&c);
		s.rank = (int32_t)ioa_cursor_u32(&c);
		s.record_id = ioa_cursor_u64(&c);
		s.offset = (int64_t)ioa_cursor_u64(&c);
		s.length = (int64_t)ioa_cursor_u64(&c);
		s.start = ioa_bits_f64(ioa_cursor_u64(&c));
		s.end = ioa_bits_f64(ioa_cursor_u64(&c));
		if (head[0] >= IOA_MOD_COUNT || s.write > 1 || host >= nhosts || s.rank < -1 ||
		    !isfinite(s.start) || !isfinite(s.end)) {
			rc = fail(r, -EINVAL, "segments: segment %llu is malformed",
				  (unsigned long long)k);
			break;
		}
		s.module = (enum ioa_module)head[0];
		s.host = hosts[host].name;
		s.host_len = hosts[host].len;
		rc = fn(&s, arg);
	}
	free(hosts);
	return rc;
}

/* The entries of an errors region, or of the errors part of an MPI library region. */
static int each_failure_entry(struct ioa_log_reader *r, struct ioa_cursor *c, const char *what,
			      int (*fn)(const struct ioa_log_failure *f, void *arg), void *arg)
{
	uint32_t count = ioa_cursor_u32(c), i;
	int rc = 0;

	for (i = 0; i < count && !rc; i++) {
		struct ioa_log_failure f;
		uint16_t module;

		f.record_id = ioa_cursor_u64(c);
		f.rank = (int32_t)ioa_cursor_u32(c);
		module = ioa_cursor_u16(c);
		f.op_len = ioa_cursor_u32(c);
		f.op = ioa_cursor_take(c, f.op_len);
		f.err = (int32_t)ioa_cursor_u32(c);
		f.count = ioa_cursor_u64(c);
		if (c->overrun || module >= IOA_MOD_COUNT)
			return fail(r, -EINVAL, "%s region: bad entry %u of %u", what, i, count);
		f.module = (enum ioa_module)module;
		rc = fn ? fn(&f, arg) : 0;
	}
	if (!rc && (c->overrun || c->left))
		return fail(r, -EINVAL, "%s region: %zu stray bytes after %u entries", what,
			    c->left, count);
	return rc;
}

int ioa_logr_each_failure(struct ioa_log_reader *r, const struct ioa_buf *raw,
			  int (*fn)(const struct ioa_log_failure *f, void *arg), void *arg)
{
	struct ioa_cursor c = cursor_of(raw);

	return each_failure_entry(r, &c, "errors", fn, arg);
}

int ioa_logr_mpi_library(struct ioa_log_reader *r, const struct ioa_buf *raw,
			 struct ioa_log_mpi_library *lib,
			 int (*fn)(const struct ioa_log_failure *f, void *arg), void *arg)
{
	struct ioa_cursor c = cursor_of(raw);

	lib->rank = (int32_t)ioa_cursor_u32(&c);
	lib->calls = ioa_cursor_u64(&c);
	lib->failed = ioa_cursor_u64(&c);
	lib->failed_mpiio = ioa_cursor_u64(&c);
	if (c.overrun || lib->failed > lib->calls)
		return fail(r, -EINVAL, "MPI library region: bad header");
	return each_failure_entry(r, &c, "MPI library", fn, arg);
}

static int each_bins_columns(struct ioa_log_reader *r, const struct ioa_buf *raw,
			     struct ioa_log_bins *b,
			     int (*fn)(const struct ioa_log_bins *b, void *arg), void *arg)
{
	struct ioa_cursor c = cursor_of(raw), ids;
	uint64_t nbins, count, i, k;
	int64_t rank;
	struct col *cols = NULL;
	int rc = 0;

	(void)ioa_cursor_u32(&c);
	nbins = ioa_cursor_uvar(&c);
	b->width_s = ioa_bits_f64(ioa_cursor_u64(&c));
	b->start_ns = ioa_cursor_u64(&c);
	rank = ioa_cursor_svar(&c);
	count = ioa_cursor_uvar(&c);
	if (c.overrun || nbins == 0 || nbins > IOA_LOG_MAX_BINS || !(b->width_s > 0) ||
	    !isfinite(b->width_s) || rank < INT32_MIN || rank > INT32_MAX || count > c.left / 2)
		return fail(r, -EINVAL, "bins region: bad header (%llu bins, %llu records)",
			    (unsigned long long)nbins, (unsigned long long)count);
	b->nbins = (uint32_t)nbins;
	b->rank = (int32_t)rank;
	cols = IOA_FAULT("logr-alloc") ? NULL : malloc((4 * nbins + 1) * sizeof(*cols));
	if (!cols)
		return fail(r, -ENOMEM, "out of memory decoding a bins region");
	ids = c;
	if (ids_skip(&c, count))
		rc = fail(r, -EINVAL, "bins region: the record ids are malformed");
	for (k = 0; k < 4 * nbins + 1 && !rc; k++)
		if (col_skip(&c, &cols[k], (uint32_t)count, -1))
			rc = fail(r, -EINVAL, "bins region: column %llu is malformed",
				  (unsigned long long)k);
	if (!rc && c.left)
		rc = fail(r, -EINVAL, "bins region: %zu stray bytes after %llu records", c.left,
			  (unsigned long long)count);
	for (i = 0; i < count && !rc; i++) {
		int64_t module;

		b->record_id = id_next(&ids);
		module = col_int(&cols[0]);
		if (module < 0 || module >= IOA_MOD_COUNT) {
			rc = fail(r, -EINVAL, "bins region: unknown module %lld",
				  (long long)module);
			break;
		}
		b->module = (enum ioa_module)module;
		for (k = 0; k < nbins && !rc; k++) {
			int64_t reads, writes;

			b->read_bytes[k] = (uint64_t)col_int(&cols[1 + 4 * k]);
			b->write_bytes[k] = (uint64_t)col_int(&cols[2 + 4 * k]);
			reads = col_int(&cols[3 + 4 * k]);
			writes = col_int(&cols[4 + 4 * k]);
			if (reads < 0 || reads > UINT32_MAX || writes < 0 || writes > UINT32_MAX)
				rc = fail(r, -EINVAL, "bins region: record %llu: bad op count",
					  (unsigned long long)i);
			b->read_ops[k] = (uint32_t)reads;
			b->write_ops[k] = (uint32_t)writes;
		}
		rc = rc ? rc : fn(b, arg);
	}
	free(cols);
	return rc;
}

int ioa_logr_each_bins(struct ioa_log_reader *r, const struct ioa_buf *raw,
		       int (*fn)(const struct ioa_log_bins *b, void *arg), void *arg)
{
	struct ioa_cursor c = cursor_of(raw);
	struct ioa_log_bins *b = IOA_FAULT("logr-alloc") ? NULL : malloc(sizeof(*b));
	uint32_t count, i, k;
	int rc = 0;

	if (!b)
		return fail(r, -ENOMEM, "out of memory decoding a bins region");
	if (is_columns(raw)) {
		rc = each_bins_columns(r, raw, b, fn, arg);
		free(b);
		return rc;
	}
	b->nbins = ioa_cursor_u32(&c);
	b->width_s = ioa_bits_f64(ioa_cursor_u64(&c));
	b->start_ns = ioa_cursor_u64(&c);
	b->rank = (int32_t)ioa_cursor_u32(&c);
	count = ioa_cursor_u32(&c);
	if (c.overrun || b->nbins == 0 || b->nbins > IOA_LOG_MAX_BINS || !(b->width_s > 0) ||
	    (uint64_t)count * (10 + 24 * (uint64_t)b->nbins) != c.left) {
		uint32_t nbins = b->nbins;

		free(b);
		return fail(r, -EINVAL, "bins region: bad header (%u bins, %u records)", nbins,
			    count);
	}
	for (i = 0; i < count && !rc; i++) {
		uint16_t module;

		b->record_id = ioa_cursor_u64(&c);
		module = ioa_cursor_u16(&c);
		if (module >= IOA_MOD_COUNT) {
			rc = fail(r, -EINVAL, "bins region: unknown module %u", module);
			break;
		}
		b->module = (enum ioa_module)module;
		for (k = 0; k < b->nbins; k++) {
			b->read_bytes[k] = ioa_cursor_u64(&c);
			b->write_bytes[k] = ioa_cursor_u64(&c);
			b->read_ops[k] = ioa_cursor_u32(&c);
			b->write_ops[k] = ioa_cursor_u32(&c);
		}
		rc = fn(b, arg);
	}
	free(b);
	return rc;
}

int ioa_logr_each_hints(struct ioa_log_reader *r, const struct ioa_buf *raw,
			int (*fn)(uint64_t id, int32_t rank, const unsigned char *text,
				  uint32_t len, void *arg),
			void *arg)
{
	struct ioa_cursor c = cursor_of(raw);
	uint32_t count = ioa_cursor_u32(&c), i;
	int rc = 0;

	for (i = 0; i < count && !rc; i++) {
		uint64_t id = ioa_cursor_u64(&c);
		int32_t rank = (int32_t)ioa_cursor_u32(&c);
		uint32_t len = ioa_cursor_u32(&c);
		const unsigned char *text = ioa_cursor_take(&c, len);

		if (!text)
			return fail(r, -EINVAL, "hints region: truncated entry %u of %u", i, count);
		rc = fn(id, rank, text, len, arg);
	}
	if (!rc && (c.overrun || c.left))
		return fail(r, -EINVAL, "hints region: %zu stray bytes after %u entries", c.left,
			    count);
	return rc;
}

int ioa_logr_each_folded(struct ioa_log_reader *r, const struct ioa_buf *raw,
			 int (*fn)(int32_t rank, uint64_t dropped, uint64_t id,
				   enum ioa_module module, void *arg),
			 void *arg)
{
	struct ioa_cursor c = cursor_of(raw);
	int32_t rank = (int32_t)ioa_cursor_u32(&c);
	uint64_t dropped = ioa_cursor_u64(&c);
	uint32_t count = ioa_cursor_u32(&c), i;
	int rc = 0;

	if (c.overrun || (uint64_t)count * 10 != c.left)
		return fail(r, -EINVAL, "folded region: %u entries do not fill %zu bytes", count,
			    c.left);
	for (i = 0; i < count && !rc; i++) {
		uint64_t id = ioa_cursor_u64(&c);
		uint16_t module = ioa_cursor_u16(&c);

		if (module >= IOA_MOD_COUNT)
			return fail(r, -EINVAL, "folded region: unknown module %u", module);
		rc = fn(rank, dropped, id, (enum ioa_module)module, arg);
	}
	return rc;
}
