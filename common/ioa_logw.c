/*
 * ioa_logw — log writer: packs regions (zlib + CRC32), lays out the header
 * and region table, and writes a file atomically (.part, fsync, rename).
 * Used by the runtime at shutdown and by tests that build hostile logs.
 */
#include "ioa_logw.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include "ioa_fault.h"

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
	 * for logs about 3% larger.
	 */
	if (!rc && deflateInit2(zs, Z_BEST_SPEED, Z_DEFLATED, 15, 6, Z_DEFAULT_STRATEGY) != Z_OK)
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

int ioa_logw_write_file(struct ioa_log_writer *w, const char *path, mode_t mode, uint32_t flags)
{
	struct ioa_buf head = IOA_BUF_INIT((size_t)IOA_LOG_MAX_REGIONS * IOA_LOG_REGION_ENTRY_SIZE +
					   IOA_LOG_HEADER_SIZE + 4);
	struct ioa_buf part = IOA_BUF_INIT(4096);
	int fd = -1, rc;

	rc = ioa_logw_header(&head, w->regions, w->region_count, flags);
	if (!rc)
		rc = ioa_buf_addf(&part, "%s.part", path);
	if (rc)
		goto out;

	fd = open(part.data, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	rc = write_all(fd, head.data, head.len);
	if (!rc)
		rc = write_all(fd, w->stored.data, w->stored.len);
	if (!rc && fsync(fd))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	if (!rc && rename(part.data, path))
		rc = -errno;
	if (rc)
		unlink(part.data);
out:
	ioa_buf_release(&head);
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
