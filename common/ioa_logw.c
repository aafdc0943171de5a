/*
 * ioa_logw — log writer: packs regions (zlib + CRC32), lays out the header
 * and region table, and writes a file atomically (.part, fsync, rename).
 * Used by the runtime at shutdown and by tests that build hostile logs.
 */
#include "ioa_logw.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "ioa_fault.h"
#include "ioa_trace.h"

void ioa_logw_init(struct ioa_log_writer *w, size_t cap)
{
	ioa_buf_init(&w->stored, cap);
	w->stream = NULL;
	w->regions = NULL;
	w->region_count = 0;
	w->region_alloc = 0;
}

void ioa_logw_release(struct ioa_log_writer *w)
{
	if (w->stream)
		ioa_logw_region_end(w, -ECANCELED);
	ioa_buf_release(&w->stored);
	free(w->regions);
	w->regions = NULL;
	w->region_count = w->region_alloc = 0;
}

static int writer_new_region(struct ioa_log_writer *w, struct ioa_log_region **out)
{
	if (w->region_count == w->region_alloc) {
		uint32_t alloc = w->region_alloc ? 2 * w->region_alloc : 8;
		struct ioa_log_region *regions;

		if (alloc > IOA_LOG_MAX_REGIONS)
			return -EOVERFLOW;
		regions = IOA_FAULT("logw-alloc") ? NULL
						  : realloc(w->regions, alloc * sizeof(*regions));
		if (!regions)
			return -ENOMEM;
		w->regions = regions;
		w->region_alloc = alloc;
	}
	*out = &w->regions[w->region_count];
	return 0;
}

int ioa_logw_add(struct ioa_log_writer *w, uint32_t type, const void *raw, size_t raw_len)
{
	struct ioa_log_region *region;
	size_t start = w->stored.len;
	uLongf packed_len;
	int rc;

	if ((uint64_t)raw_len > IOA_LOG_MAX_REGION_RAW)
		return -EOVERFLOW;
	rc = writer_new_region(w, &region);
	if (rc)
		return rc;

	/* Try zlib into the buffer's spare room; keep the raw bytes if that
	 * does not make the region smaller. */
	packed_len = compressBound((uLong)raw_len);
	rc = ioa_buf_grow(&w->stored, packed_len);
	if (!rc &&
	    compress2((Bytef *)w->stored.data + start, &packed_len, raw, (uLong)raw_len,
		      Z_BEST_SPEED) == Z_OK &&
	    packed_len < raw_len) {
		region->compression = IOA_LOG_COMPRESS_ZLIB;
		w->stored.len += packed_len;
		w->stored.data[w->stored.len] = '\0';
	} else {
		region->compression = IOA_LOG_COMPRESS_NONE;
		rc = ioa_buf_add(&w->stored, raw, raw_len);
		if (rc)
			return rc;
	}
	region->type = type;
	region->offset = start;
	region->stored_size = w->stored.len - start;
	region->raw_size = raw_len;
	region->crc32 = (uint32_t)crc32(0L, (const Bytef *)w->stored.data + start,
					(uInt)region->stored_size);
	w->region_count++;
	return 0;
}

int ioa_logw_region_begin(struct ioa_log_writer *w, uint32_t type)
{
	z_stream *zs = calloc(1, sizeof(*zs));
	struct ioa_log_region *region;
	int rc;

	if (!zs)
		return -ENOMEM;
	rc = writer_new_region(w, &region);
	/*
	 * A smaller hash table (memLevel 6): about 160 KiB of state instead of
	 * zlib's default 256 KiB, which matters next to the runtime's budget,
	 * for logs about 3% larger.  Level 6, not 1: streamed regions are the
	 * runtime's records, bins and names in the column encoding, whose
	 * varints zlib's fastest level leaves 3 to 11% larger (bins the most),
	 * for a few milliseconds of a rank's shutdown (docs/performance.md).
	 */
	if (!rc && deflateInit2(zs, 6, Z_DEFLATED, 15, 6, Z_DEFAULT_STRATEGY) != Z_OK)
		rc = -ENOMEM;
	if (rc) {
		free(zs);
		return rc;
	}
	w->stream = zs;
	w->stream_start = w->stored.len;
	w->stream_raw = 0;
	w->stream_type = type;
	return 0;
}

/* Runs deflate over input (or to the end) until it needs no more room. */
static int region_deflate(struct ioa_log_writer *w, const void *raw, size_t len, int flush)
{
	z_stream *zs = w->stream;
	int zrc;

	zs->next_in = (Bytef *)(uintptr_t)raw;
	zs->avail_in = (uInt)len;
	do {
		size_t room = 65536;
		int rc = ioa_buf_grow(&w->stored, room);

		if (rc)
			return rc;
		zs->next_out = (Bytef *)w->stored.data + w->stored.len;
		zs->avail_out = (uInt)room;
		zrc = deflate(zs, flush);
		if (zrc == Z_STREAM_ERROR)
			return -EINVAL;
		w->stored.len += room - zs->avail_out;
	} while (zs->avail_out == 0 || (flush == Z_FINISH && zrc != Z_STREAM_END));
	return 0;
}

int ioa_logw_region_add(struct ioa_log_writer *w, const void *raw, size_t len)
{
	const char *p = raw;

	if (!w->stream)
		return -EINVAL;
	if (w->stream_raw + len > IOA_LOG_MAX_REGION_RAW)
		return -EOVERFLOW;
	w->stream_raw += len;
	/* zlib counts input in uInt: feed large inputs in slices. */
	while (len) {
		size_t slice = len > (1u << 30) ? (1u << 30) : len;
		int rc = region_deflate(w, p, slice, Z_NO_FLUSH);

		if (rc)
			return rc;
		p += slice;
		len -= slice;
	}
	return 0;
}

int ioa_logw_region_end(struct ioa_log_writer *w, int rc)
{
	struct ioa_log_region *region = &w->regions[w->region_count];

	if (!w->stream)
		return rc ? rc : -EINVAL;
	if (!rc)
		rc = region_deflate(w, NULL, 0, Z_FINISH);
	deflateEnd(w->stream);
	free(w->stream);
	w->stream = NULL;
	if (rc) {
		w->stored.len = w->stream_start;
		if (w->stored.data)
			w->stored.data[w->stored.len] = '\0';
		return rc;
	}
	w->stored.data[w->stored.len] = '\0';
	region->type = w->stream_type;
	region->compression = IOA_LOG_COMPRESS_ZLIB;
	region->offset = w->stream_start;
	region->stored_size = w->stored.len - w->stream_start;
	region->raw_size = w->stream_raw;
	region->crc32 = (uint32_t)crc32(0L, (const Bytef *)w->stored.data + w->stream_start,
					(uInt)region->stored_size);
	w->region_count++;
	return 0;
}

int ioa_logw_append(struct ioa_log_writer *w, const struct ioa_log_region *regions, uint32_t count,
		    const void *stored, size_t stored_len)
{
	size_t base = w->stored.len;
	uint32_t i, first = w->region_count;
	int rc;

	for (i = 0; i < count; i++)
		if (regions[i].offset > stored_len ||
		    regions[i].stored_size > stored_len - regions[i].offset)
			return -EINVAL;
	rc = ioa_buf_add(&w->stored, stored, stored_len);
	for (i = 0; !rc && i < count; i++) {
		struct ioa_log_region *region;

		rc = writer_new_region(w, &region);
		if (rc)
			break;
		*region = regions[i];
		region->offset += base;
		w->region_count++;
	}
	if (rc) {
		w->region_count = first;
		w->stored.len = base;
		if (w->stored.data)
			w->stored.data[base] = '\0';
	}
	return rc;
}

int ioa_logw_header(struct ioa_buf *out, struct ioa_log_region *regions, uint32_t count,
		    uint32_t flags)
{
	unsigned char header[IOA_LOG_HEADER_SIZE] = {0};
	unsigned char entry[IOA_LOG_REGION_ENTRY_SIZE];
	uint64_t table_size = (uint64_t)count * IOA_LOG_REGION_ENTRY_SIZE + 4;
	uint64_t offset = IOA_LOG_HEADER_SIZE + table_size;
	uint32_t i, table_crc = (uint32_t)crc32(0L, Z_NULL, 0);
	size_t start = out->len;
	int rc;

	if (count > IOA_LOG_MAX_REGIONS)
		return -EOVERFLOW;
	for (i = 0; i < count; i++) {
		regions[i].offset = offset;
		offset += regions[i].stored_size;
	}

	memcpy(header, IOA_LOG_MAGIC, IOA_LOG_MAGIC_LEN);
	ioa_put_u16(header + 8, IOA_LOG_VERSION_MAJOR);
	ioa_put_u16(header + 10, IOA_LOG_VERSION_MINOR);
	ioa_put_u32(header + 12, IOA_LOG_BYTE_ORDER);
	ioa_put_u32(header + 16, IOA_LOG_HEADER_SIZE);
	ioa_put_u32(header + 20, count);
	ioa_put_u64(header + 24, IOA_LOG_HEADER_SIZE);
	ioa_put_u64(header + 32, offset);
	ioa_put_u32(header + 40, flags);
	ioa_put_u32(header + 60, (uint32_t)crc32(0L, header, 60));
	rc = ioa_buf_add(out, header, sizeof(header));

	for (i = 0; !rc && i < count; i++) {
		ioa_put_u32(entry, regions[i].type);
		ioa_put_u32(entry + 4, regions[i].compression);
		ioa_put_u64(entry + 8, regions[i].offset);
		ioa_put_u64(entry + 16, regions[i].stored_size);
		ioa_put_u64(entry + 24, regions[i].raw_size);
		ioa_put_u32(entry + 32, regions[i].crc32);
		ioa_put_u32(entry + 36, 0);
		table_crc = (uint32_t)crc32(table_crc, entry, sizeof(entry));
		rc = ioa_buf_add(out, entry, sizeof(entry));
	}
	if (!rc)
		rc = ioa_enc_u32(out, table_crc);
	if (rc) {
		out->len = start;
		if (out->data)
			out->data[start] = '\0';
	}
	return rc;
}

static int write_all(int fd, const void *bytes, size_t len)
{
	const char *p = bytes;

	while (len) {
		ssize_t n = IOA_FAULT("logw-write") ? (errno = ENOSPC, -1) : write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int ioa_logw_write_fd(struct ioa_log_writer *w, int fd, uint32_t flags)
{
	struct ioa_buf head = IOA_BUF_INIT((size_t)IOA_LOG_MAX_REGIONS * IOA_LOG_REGION_ENTRY_SIZE +
					   IOA_LOG_HEADER_SIZE + 4);
	int rc = ioa_logw_header(&head, w->regions, w->region_count, flags);

	if (!rc)
		rc = write_all(fd, head.data, head.len);
	if (!rc)
		rc = write_all(fd, w->stored.data, w->stored.len);
	ioa_buf_release(&head);
	return rc;
}

int ioa_logw_write_file(struct ioa_log_writer *w, const char *path, mode_t mode, uint32_t flags)
{
	struct ioa_buf part = IOA_BUF_INIT(4096);
	int fd, rc = ioa_buf_addf(&part, "%s.part", path);

	if (rc)
		goto out;
	fd = open(part.data, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	rc = ioa_logw_write_fd(w, fd, flags);
	if (!rc && fsync(fd))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	if (!rc && rename(part.data, path))
		rc = -errno;
	if (rc)
		unlink(part.data);
out:
	ioa_buf_release(&part);
	return rc;
}

int ioa_enc_u16(struct ioa_buf *b, uint16_t v)
{
	unsigned char bytes[2];

	ioa_put_u16(bytes, v);
	return ioa_buf_add(b, bytes, sizeof(bytes));
}

int ioa_enc_u32(struct ioa_buf *b, uint32_t v)
{
	unsigned char bytes[4];

	ioa_put_u32(bytes, v);
	return ioa_buf_add(b, bytes, sizeof(bytes));
}

int ioa_enc_u64(struct ioa_buf *b, uint64_t v)
{
	unsigned char bytes[8];

	ioa_put_u64(bytes, v);
	return ioa_buf_add(b, bytes, sizeof(bytes));
}

int ioa_enc_bytes(struct ioa_buf *b, const void *bytes, size_t len)
{
	size_t start = b->len;
	int rc;

	if (len > UINT32_MAX)
		return -EOVERFLOW;
	rc = ioa_enc_u32(b, (uint32_t)len);
	if (!rc && (rc = ioa_buf_add(b, bytes, len))) {
		b->len = start;
		b->data[start] = '\0';
	}
	return rc;
}

static int enc_names(struct ioa_buf *b, const char *const *names, unsigned count)
{
	unsigned i;
	int rc = 0;

	for (i = 0; i < count && !rc; i++) {
		size_t len = strlen(names[i]);

		rc = ioa_enc_u16(b, (uint16_t)len);
		if (!rc)
			rc = ioa_buf_add(b, names[i], len);
	}
	return rc;
}

int ioa_enc_module_header(struct ioa_buf *b, enum ioa_module module, uint32_t record_count)
{
	const struct ioa_module_desc *mod = &ioa_modules[module];
	size_t start = b->len;
	int rc;

	rc = ioa_enc_u32(b, mod->counter_count);
	if (!rc)
		rc = ioa_enc_u32(b, mod->fcounter_count);
	if (!rc)
		rc = enc_names(b, mod->counter_names, mod->counter_count);
	if (!rc)
		rc = enc_names(b, mod->fcounter_names, mod->fcounter_count);
	if (!rc)
		rc = ioa_enc_u32(b, record_count);
	if (rc && b->data) {
		b->len = start;
		b->data[start] = '\0';
	}
	return rc;
}

int ioa_enc_module_record(struct ioa_buf *b, enum ioa_module module, uint64_t id, int32_t rank,
			  uint32_t flags, const int64_t *counters, const double *fcounters)
{
	const struct ioa_module_desc *mod = &ioa_modules[module];
	size_t len = 16 + 8 * ((size_t)mod->counter_count + mod->fcounter_count);
	unsigned char *p;
	unsigned i;
	int rc = ioa_buf_grow(b, len);

	if (rc)
		return rc;
	p = (unsigned char *)b->data + b->len;
	ioa_put_u64(p, id);
	ioa_put_u32(p + 8, (uint32_t)rank);
	ioa_put_u32(p + 12, flags);
	p += 16;
	for (i = 0; i < mod->counter_count; i++, p += 8)
		ioa_put_u64(p, (uint64_t)counters[i]);
	for (i = 0; i < mod->fcounter_count; i++, p += 8)
		ioa_put_u64(p, ioa_f64_bits(fcounters[i]));
	b->len += len;
	b->data[b->len] = '\0';
	return 0;
}

/* ------------------------------------------------------ column encoding */

#define COL_SLICE 65536

uint64_t ioa_name_id(const void *name, size_t len)
{
	uint64_t id = XXH3_64bits(name, len);

	return id ? id : 1;
}

static uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static size_t uvar_len(uint64_t v)
{
	size_t n = 1;

	while (v >>= 7)
		n++;
	return n;
}

/* What an integer column holds. */
enum col_what { COL_RANK, COL_FLAGS, COL_MODULE, COL_COUNTER, COL_BIN };

static int64_t int_value(const struct ioa_rec_ref *r, enum col_what what, unsigned index)
{
	const struct ioa_log_bin *bin;

	switch (what) {
	case COL_RANK:
		return r->rank;
	case COL_FLAGS:
		return r->flags;
	case COL_MODULE:
		return r->module;
	case COL_COUNTER:
		return r->counters[index];
	case COL_BIN:
		break;
	}
	bin = &r->bins[index / 4];
	switch (index % 4) {
	case 0:
		return (int64_t)bin->read_bytes;
	case 1:
		return (int64_t)bin->write_bytes;
	case 2:
		return bin->read_ops;
	default:
		return bin->write_ops;
	}
}

/* The code of an integer value: its zig-zagged difference from pred, wrapping. */
static uint64_t int_code(int64_t v, int64_t pred)
{
	return zigzag((int64_t)((uint64_t)v - (uint64_t)pred));
}

static int col_flush(struct ioa_buf *b, ioa_enc_flush flush, void *arg)
{
	return flush && b->len >= COL_SLICE ? flush(arg, b) : 0;
}

/* One integer column of count values: the predictor taking fewer bytes, then the codes. */
static int enc_int_column(struct ioa_buf *b, const struct ioa_rec_ref *recs, uint32_t count,
			  enum col_what what, unsigned index, ioa_enc_flush flush, void *arg)
{
	size_t plain = 0, prev = 0;
	int64_t last = 0;
	unsigned mode;
	uint32_t i;
	int rc;

	for (i = 0; i < count; i++) {
		int64_t v = int_value(&recs[i], what, index);

		plain += uvar_len(int_code(v, 0));
		prev += uvar_len(int_code(v, last));
		last = v;
	}
	mode = prev < plain ? IOA_COL_PREV : IOA_COL_PLAIN;
	rc = ioa_enc_uvar(b, mode);
	last = 0;
	for (i = 0; i < count && !rc; i++) {
		int64_t v = int_value(&recs[i], what, index);

		rc = ioa_enc_uvar(b, int_code(v, mode == IOA_COL_PREV ? last : 0));
		last = v;
		if (!rc)
			rc = col_flush(b, flush, arg);
	}
	return rc;
}

/* A float's whole number of ticks, when it is one: n x tick_s == d bit for bit. */
static int float_ticks(double d, double tick_s, int64_t *n)
{
	double q;
	int64_t k;
	int dk;

	if (!(tick_s > 0) || !isfinite(d) || ioa_f64_bits(d) == 0)
		return 0;
	q = d / tick_s;
	if (!(q < (double)IOA_COL_MAX_TICK && q > -(double)IOA_COL_MAX_TICK))
		return 0;
	k = (int64_t)(q < 0 ? q - 0.5 : q + 0.5);
	for (dk = -1; dk <= 1; dk++) {
		int64_t c = k + dk;

		if (c >= -IOA_COL_MAX_TICK && c <= IOA_COL_MAX_TICK &&
		    ioa_f64_bits((double)c * tick_s) == ioa_f64_bits(d)) {
			*n = c;
			return 1;
		}
	}
	return 0;
}

/*
 * A float value's code: 0 for +0.0, 1 for its 8 bytes (which follow), or
 * 2 + the zig-zagged difference of its ticks from pred.
 */
static uint64_t float_code(uint64_t bits, int is_ticks, int64_t ticks, int64_t pred)
{
	if (bits == 0)
		return 0;
	return is_ticks ? 2 + zigzag(ticks - pred) : 1;
}

/*
 * A module region's float counters in ticks, record by record (0 where a
 * value is not a whole number of ticks), and which columns have any.
 */
struct ticks_table {
	int64_t *ticks;	   /* count x nf */
	unsigned char *is; /* count x nf: the value is ticks */
	unsigned char any[IOA_MAX_FCOUNTERS];
	uint32_t count;
	unsigned nf;
};

/* The TERMS predictor of row i: terms are column + 1, or 0 for none. */
static int64_t terms_pred(const struct ticks_table *t, uint32_t i, const unsigned terms[4])
{
	const int64_t *row = t->ticks + (size_t)i * t->nf;
	uint64_t pred = 0;

	pred += terms[0] ? (uint64_t)row[terms[0] - 1] : 0;
	pred -= terms[1] ? (uint64_t)row[terms[1] - 1] : 0;
	pred += terms[2] ? (uint64_t)row[terms[2] - 1] : 0;
	pred -= terms[3] ? (uint64_t)row[terms[3] - 1] : 0;
	return (int64_t)pred;
}

/* Bytes of column k's tick values under TERMS with these terms, in every step-th row. */
static size_t terms_cost(const struct ticks_table *t, unsigned k, const unsigned terms[4],
			 uint32_t step)
{
	size_t size = 0;
	uint32_t i;

	for (i = 0; i < t->count; i += step) {
		size_t at = (size_t)i * t->nf + k;

		if (t->is[at])
			size += uvar_len(2 + zigzag(t->ticks[at] - terms_pred(t, i, terms)));
	}
	return size;
}

/*
 * The terms that predict column k best, two at a time (a - b, then c - d
 * beside them) among the earlier columns that hold ticks: timestamps
 * predict each other, and times are differences of timestamps.  Chosen
 * on a sample of about 128 rows; returns the bytes for all of them.
 */
#define TERMS_SAMPLE 128

static size_t best_terms(const struct ticks_table *t, unsigned k, unsigned terms[4])
{
	uint32_t step = t->count / TERMS_SAMPLE + 1;
	size_t best = terms_cost(t, k, terms, step);
	unsigned half, x, y;

	for (half = 0; half < 2; half++) {
		unsigned pick[2] = {terms[2 * half], terms[2 * half + 1]};

		for (x = 0; x <= k; x++) {
			for (y = 0; y <= k; y++) {
				size_t size;

				if ((x && !t->any[x - 1]) || (y && !t->any[y - 1]) || (x && x == y))
					continue;
				terms[2 * half] = x;
				terms[2 * half + 1] = y;
				size = terms_cost(t, k, terms, step);
				if (size < best) {
					best = size;
					pick[0] = x;
					pick[1] = y;
				}
			}
		}
		terms[2 * half] = pick[0];
		terms[2 * half + 1] = pick[1];
	}
	return terms_cost(t, k, terms, 1);
}

static int enc_float_column(struct ioa_buf *b, const struct ioa_rec_ref *recs,
			    const struct ticks_table *t, unsigned k, ioa_enc_flush flush, void *arg)
{
	size_t size[3] = {0, 0, 0};
	unsigned terms[4] = {0, 0, 0, 0}, mode, m;
	int64_t last = 0;
	uint32_t i;
	int rc;

	for (i = 0; i < t->count; i++) {
		size_t at = (size_t)i * t->nf + k;

		if (!t->is[at])
			continue;
		size[IOA_COL_PLAIN] += uvar_len(2 + zigzag(t->ticks[at]));
		size[IOA_COL_PREV] += uvar_len(2 + zigzag(t->ticks[at] - last));
		last = t->ticks[at];
	}
	/* The terms cost their four indices. */
	size[IOA_COL_TERMS] = t->any[k] && k ? best_terms(t, k, terms) + 4 : SIZE_MAX;
	for (mode = IOA_COL_PLAIN, m = 1; m < 3; m++)
		if (size[m] < size[mode])
			mode = m;
	rc = ioa_enc_uvar(b, mode);
	for (m = 0; m < 4 && mode == IOA_COL_TERMS && !rc; m++)
		rc = ioa_enc_uvar(b, terms[m]);
	last = 0;
	for (i = 0; i < t->count && !rc; i++) {
		size_t at = (size_t)i * t->nf + k;
		uint64_t bits = ioa_f64_bits(recs[i].fcounters[k]);
		int64_t pred = mode == IOA_COL_PREV    ? last
			       : mode == IOA_COL_TERMS ? terms_pred(t, i, terms)
						       : 0;
		uint64_t code = float_code(bits, t->is[at], t->ticks[at], pred);

		rc = ioa_enc_uvar(b, code);
		if (!rc && code == 1)
			rc = ioa_enc_u64(b, bits);
		if (t->is[at])
			last = t->ticks[at];
		if (!rc)
			rc = col_flush(b, flush, arg);
	}
	return rc;
}

static int enc_float_columns(struct ioa_buf *b, const struct ioa_rec_ref *recs, uint32_t count,
			     unsigned nf, double tick_s, ioa_enc_flush flush, void *arg)
{
	struct ticks_table t = {.count = count, .nf = nf};
	size_t cells = (size_t)count * nf, at;
	unsigned k;
	int rc = 0;

	t.ticks = malloc((cells ? cells : 1) * sizeof(*t.ticks));
	t.is = malloc(cells ? cells : 1);
	if (!t.ticks || !t.is)
		rc = -ENOMEM;
	memset(t.any, 0, sizeof(t.any));
	for (at = 0; at < cells && !rc; at++) {
		t.ticks[at] = 0;
		t.is[at] = (unsigned char)float_ticks(recs[at / nf].fcounters[at % nf], tick_s,
						      &t.ticks[at]);
		t.any[at % nf] |= t.is[at];
	}
	for (k = 0; k < nf && !rc; k++)
		rc = enc_float_column(b, recs, &t, k, flush, arg);
	free(t.ticks);
	free(t.is);
	return rc;
}

/* The records' ids, as their names where an id is its name's hash (see ioa_enc_name). */
static int enc_ids(struct ioa_buf *b, const struct ioa_rec_ref *recs, uint32_t count,
		   ioa_enc_flush flush, void *arg)
{
	uint32_t i;
	int rc = 0;

	for (i = 0; i < count && !rc; i++) {
		rc = ioa_enc_name(b, recs[i].id, recs[i].name ? recs[i].name : "",
				  recs[i].name ? recs[i].name_len : 0);
		if (!rc)
			rc = col_flush(b, flush, arg);
	}
	return rc;
}

static int enc_var_names(struct ioa_buf *b, const char *const *names, unsigned count)
{
	unsigned i;
	int rc = 0;

	for (i = 0; i < count && !rc; i++) {
		size_t len = strlen(names[i]);

		rc = ioa_enc_uvar(b, len);
		if (!rc)
			rc = ioa_buf_add(b, names[i], len);
	}
	return rc;
}

int ioa_enc_module_region(struct ioa_buf *b, enum ioa_module module, const struct ioa_rec_ref *recs,
			  uint32_t count, double tick_s, ioa_enc_flush flush, void *arg)
{
	const struct ioa_module_desc *mod = &ioa_modules[module];
	unsigned k;
	int rc;

	rc = ioa_enc_u32(b, IOA_REGION_COLUMNS);
	rc = rc ? rc : ioa_enc_uvar(b, mod->counter_count);
	rc = rc ? rc : ioa_enc_uvar(b, mod->fcounter_count);
	rc = rc ? rc : enc_var_names(b, mod->counter_names, mod->counter_count);
	rc = rc ? rc : enc_var_names(b, mod->fcounter_names, mod->fcounter_count);
	rc = rc ? rc : ioa_enc_u64(b, ioa_f64_bits(tick_s > 0 ? tick_s : 0));
	rc = rc ? rc : ioa_enc_uvar(b, count);
	rc = rc ? rc : enc_ids(b, recs, count, flush, arg);
	rc = rc ? rc : enc_int_column(b, recs, count, COL_RANK, 0, flush, arg);
	rc = rc ? rc : enc_int_column(b, recs, count, COL_FLAGS, 0, flush, arg);
	for (k = 0; k < mod->counter_count && !rc; k++)
		rc = enc_int_column(b, recs, count, COL_COUNTER, k, flush, arg);
	return rc ? rc
		  : enc_float_columns(b, recs, count, mod->fcounter_count, tick_s > 0 ? tick_s : 0,
				      flush, arg);
}

int ioa_enc_bins_region(struct ioa_buf *b, uint32_t nbins, double width_s, uint64_t start_ns,
			int32_t rank, const struct ioa_rec_ref *recs, uint32_t count,
			ioa_enc_flush flush, void *arg)
{
	unsigned k;
	int rc;

	rc = ioa_enc_u32(b, IOA_REGION_COLUMNS);
	rc = rc ? rc : ioa_enc_uvar(b, nbins);
	rc = rc ? rc : ioa_enc_u64(b, ioa_f64_bits(width_s));
	rc = rc ? rc : ioa_enc_u64(b, start_ns);
	rc = rc ? rc : ioa_enc_svar(b, rank);
	rc = rc ? rc : ioa_enc_uvar(b, count);
	rc = rc ? rc : enc_ids(b, recs, count, flush, arg);
	rc = rc ? rc : enc_int_column(b, recs, count, COL_MODULE, 0, flush, arg);
	for (k = 0; k < 4 * nbins && !rc; k++)
		rc = enc_int_column(b, recs, count, COL_BIN, k, flush, arg);
	return rc;
}

int ioa_enc_names_header(struct ioa_buf *b, uint32_t count)
{
	int rc = ioa_enc_u32(b, IOA_REGION_COLUMNS);

	return rc ? rc : ioa_enc_uvar(b, count);
}

int ioa_enc_name(struct ioa_buf *b, uint64_t id, const void *name, size_t len)
{
	int rc = ioa_enc_uvar(b, len);

	rc = rc ? rc : ioa_buf_add(b, name, len);
	if (!rc && id == ioa_name_id(name, len))
		rc = ioa_enc_uvar(b, 0);
	else if (!rc && !(rc = ioa_enc_uvar(b, 1)))
		rc = ioa_enc_u64(b, id);
	return rc;
}
