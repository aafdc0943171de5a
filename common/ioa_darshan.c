/*
 * ioa_darshan — Darshan logs (see ioa_darshan.h).  Written from the
 * format's documentation and checked against darshan-parser's output for
 * logs of every release from 3.0 to 3.5 (tests/common/t0014).
 *
 * A Darshan log is a header (version string, magic number, compression,
 * partial flags, the name table's and each module's place and version),
 * then the job region, the name table and one region per module, each
 * compressed on its own (sometimes as several streams back to back: one
 * per writer).  Integers are in the writer's byte order; the magic number
 * says which.
 */
#define _GNU_SOURCE
#include "ioa_darshan.h"

#include <bzlib.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "ioa_anon.h"
#include "ioa_counters.h"
#include "ioa_logfmt.h"
#include "ioa_logw.h"

#define DARSHAN_MAGIC 6567223
/* What one region may decompress to, whatever the log says. */
#define REGION_CAP   ((size_t)1 << 30)
#define CHUNK	     (64 * 1024)
#define METADATA_LEN 1024
/* Darshan's job region: the job, its metadata, the command line and mounts, in this many bytes. */
#define JOB_RECORD_SIZE 4096
/*
 * What an import may hold in all: the regions it inflates, summed, and the
 * records it keeps (1 KiB each), so that a small hostile log cannot ask for
 * more than about 2 GiB whatever its regions claim.
 */
#define IMPORT_BUDGET	   ((uint64_t)1 << 30)
#define IMPORT_RECORDS_MAX ((size_t)1 << 20)

static int fail(struct ioa_darshan *d, int rc, const char *fmt, ...) IOA_PRINTF(3, 4);
static int fail(struct ioa_darshan *d, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->error, sizeof(d->error), fmt, ap);
	va_end(ap);
	return rc;
}

static uint64_t get64(const struct ioa_darshan *d, const unsigned char *p)
{
	uint64_t v = ioa_get_u64(p);

	return d->swap ? __builtin_bswap64(v) : v;
}

static uint32_t get32(const struct ioa_darshan *d, const unsigned char *p)
{
	uint32_t v = ioa_get_u32(p);

	return d->swap ? __builtin_bswap32(v) : v;
}

/* ------------------------------------------------------------ header */

/* "3.41" -> 341; 0 when it is not a 3.x version string. */
static int format_of(const unsigned char *v)
{
	if (v[0] != '3' || v[1] != '.' || v[2] < '0' || v[2] > '9' || v[3] < '0' || v[3] > '9')
		return 0;
	for (int i = 4; i < 8; i++)
		if (v[i])
			return 0;
	return 300 + (v[2] - '0') * 10 + (v[3] - '0');
}

int ioa_darshan_sniff(const unsigned char *head, size_t len)
{
	uint64_t magic;

	if (len < 16 || !format_of(head))
		return 0;
	magic = ioa_get_u64(head + 8);
	return magic == DARSHAN_MAGIC || __builtin_bswap64(magic) == DARSHAN_MAGIC;
}

static int read_at(struct ioa_darshan *d, void *buf, size_t len, uint64_t off, const char *what)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(d->fd, (char *)buf + got, len - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail(d, -errno, "cannot read %s: %s", what, strerror(errno));
		if (n == 0)
			return fail(d, -EINVAL, "truncated %s (%zu of %zu bytes)", what, got, len);
		got += (size_t)n;
	}
	return 0;
}

/* A region inside the file, after the header. */
static int check_map(struct ioa_darshan *d, const struct ioa_darshan_map *m, uint64_t header,
		     const char *what)
{
	if (!m->len)
		return 0;
	if (m->off < header || m->off > d->file_size || m->len > d->file_size - m->off)
		return fail(d, -EINVAL,
			    "%s region (%llu bytes at %llu) lies outside the file (%llu bytes)",
			    what, (unsigned long long)m->len, (unsigned long long)m->off,
			    (unsigned long long)d->file_size);
	return 0;
}

int ioa_darshan_open(struct ioa_darshan *d, int fd)
{
	unsigned char h[8 + 8 + 16 + 16 + IOA_DARSHAN_MAX_MODS * 20];
	uint64_t header_size;
	size_t pos;
	struct stat st;
	int rc;

	memset(d, 0, sizeof(*d));
	d->fd = fd;
	if (fstat(fd, &st))
		return fail(d, -errno, "%s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return fail(d, -EINVAL, "not a regular file");
	d->file_size = (uint64_t)st.st_size;
	if (d->file_size < 16)
		return fail(d, -EINVAL, "not a Darshan log (%llu bytes)",
			    (unsigned long long)d->file_size);
	rc = read_at(d, h, 16, 0, "header");
	if (rc)
		return rc;
	if (!ioa_darshan_sniff(h, 16))
		return fail(d, -EINVAL, "not a Darshan log (bad version string or magic number)");
	memcpy(d->version, h, 8);
	d->format = format_of(h);
	d->swap = ioa_get_u64(h + 8) != DARSHAN_MAGIC;
	if (d->format > 341)
		return fail(d, -EINVAL,
			    "Darshan log format %s is newer than this reader knows (3.00 to 3.41)",
			    d->version);
	d->nmods = d->format >= 341 ? 64 : 16;
	pos = d->format >= 341 ? 32 : 24;
	header_size = (pos + 16 + d->nmods * 20 + 7) / 8 * 8;
	if (d->file_size < header_size)
		return fail(d, -EINVAL, "truncated header (%llu of %llu bytes)",
			    (unsigned long long)d->file_size, (unsigned long long)header_size);
	rc = read_at(d, h, (size_t)header_size, 0, "header");
	if (rc)
		return rc;
	d->comp = h[16];
	if (d->comp > IOA_DARSHAN_NONE)
		return fail(d, -EINVAL, "unknown compression %u", d->comp);
	d->partial = d->format >= 341 ? get64(d, h + 24) : get32(d, h + 20);
	d->names.off = get64(d, h + pos);
	d->names.len = get64(d, h + pos + 8);
	pos += 16;
	for (unsigned i = 0; i < d->nmods; i++) {
		d->mods[i].off = get64(d, h + pos + 16 * i);
		d->mods[i].len = get64(d, h + pos + 16 * i + 8);
		d->mod_ver[i] = get32(d, h + pos + 16 * d->nmods + 4 * i);
		rc = check_map(d, &d->mods[i], header_size, "a module's");
		if (rc)
			return rc;
	}
	rc = check_map(d, &d->names, header_size, "the name table's");
	if (rc)
		return rc;
	if (d->names.off < header_size)
		return fail(d, -EINVAL, "the name table starts inside the header");
	/* The job region fills the gap between the header and the name table. */
	d->job.off = header_size;
	d->job.len = d->names.off - header_size;
	if (!d->job.len)
		return fail(d, -EINVAL, "no job region");
	return 0;
}

/* ------------------------------------------------------------ modules */

/* Module ids by format: the enum grew (and split HDF5 and PnetCDF) between releases. */
static const enum ioa_darshan_kind kinds_300[] = {
	IOA_DK_UNKNOWN, IOA_DK_POSIX, IOA_DK_MPIIO, IOA_DK_HDF5, IOA_DK_PNETCDF, IOA_DK_BGQ,
};
static const enum ioa_darshan_kind kinds_310[] = {
	IOA_DK_UNKNOWN,	  IOA_DK_POSIX,	    IOA_DK_MPIIO,  IOA_DK_HDF5,
	IOA_DK_PNETCDF,	  IOA_DK_BGQ,	    IOA_DK_LUSTRE, IOA_DK_STDIO,
	IOA_DK_DXT_POSIX, IOA_DK_DXT_MPIIO, IOA_DK_MDHIM,
};
static const enum ioa_darshan_kind kinds_321[] = {
	IOA_DK_UNKNOWN,	  IOA_DK_POSIX, IOA_DK_MPIIO,  IOA_DK_H5F,   IOA_DK_H5D,
	IOA_DK_PNETCDF,	  IOA_DK_BGQ,	IOA_DK_LUSTRE, IOA_DK_STDIO, IOA_DK_DXT_POSIX,
	IOA_DK_DXT_MPIIO, IOA_DK_MDHIM, IOA_DK_APXC,   IOA_DK_APMPI, IOA_DK_HEATMAP,
};
static const enum ioa_darshan_kind kinds_341[] = {
	IOA_DK_UNKNOWN,	     IOA_DK_POSIX,	 IOA_DK_MPIIO, IOA_DK_H5F,    IOA_DK_H5D,
	IOA_DK_PNETCDF_FILE, IOA_DK_PNETCDF_VAR, IOA_DK_BGQ,   IOA_DK_LUSTRE, IOA_DK_STDIO,
	IOA_DK_DXT_POSIX,    IOA_DK_DXT_MPIIO,	 IOA_DK_MDHIM, IOA_DK_APXC,   IOA_DK_APMPI,
	IOA_DK_HEATMAP,	     IOA_DK_DFS,	 IOA_DK_DAOS,
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

enum ioa_darshan_kind ioa_darshan_kind(const struct ioa_darshan *d, unsigned id)
{
	const enum ioa_darshan_kind *k = kinds_341;
	size_t n = COUNT(kinds_341);

	if (d->format < 310) {
		k = kinds_300;
		n = COUNT(kinds_300);
	} else if (d->format < 320) {
		k = kinds_310;
		n = COUNT(kinds_310);
	} else if (d->format < 341) {
		k = kinds_321;
		n = COUNT(kinds_321);
	}
	return id < n ? k[id] : IOA_DK_UNKNOWN;
}

const char *ioa_darshan_kind_name(enum ioa_darshan_kind kind)
{
	static const char *const names[] = {
		[IOA_DK_UNKNOWN] = "unknown",
		[IOA_DK_POSIX] = "POSIX",
		[IOA_DK_MPIIO] = "MPI-IO",
		[IOA_DK_STDIO] = "STDIO",
		[IOA_DK_HDF5] = "HDF5",
		[IOA_DK_H5F] = "H5F",
		[IOA_DK_H5D] = "H5D",
		[IOA_DK_PNETCDF] = "PNETCDF",
		[IOA_DK_PNETCDF_FILE] = "PNETCDF_FILE",
		[IOA_DK_PNETCDF_VAR] = "PNETCDF_VAR",
		[IOA_DK_BGQ] = "BG/Q",
		[IOA_DK_LUSTRE] = "LUSTRE",
		[IOA_DK_DXT_POSIX] = "DXT_POSIX",
		[IOA_DK_DXT_MPIIO] = "DXT_MPIIO",
		[IOA_DK_MDHIM] = "MDHIM",
		[IOA_DK_APXC] = "APXC",
		[IOA_DK_APMPI] = "APMPI",
		[IOA_DK_HEATMAP] = "HEATMAP",
		[IOA_DK_DFS] = "DFS",
		[IOA_DK_DAOS] = "DAOS",
	};

	return (unsigned)kind < COUNT(names) && names[kind] ? names[kind] : "unknown";
}

/* ------------------------------------------------------------ regions */

/* Makes room for at least one more chunk of output; -EFBIG at the cap. */
static int room(struct ioa_buf *raw)
{
	size_t want = raw->cap - raw->len < CHUNK ? raw->cap - raw->len : CHUNK;

	if (raw->alloc > raw->len + 1)
		return 0;
	if (!want)
		return -EFBIG;
	return ioa_buf_grow(raw, want);
}

static int inflate_zlib(struct ioa_darshan *d, const unsigned char *in, size_t len,
			struct ioa_buf *raw)
{
	z_stream z;
	int zr, rc = 0;

	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return -ENOMEM;
	z.next_in = (Bytef *)in;
	while (len) {
		uInt take = len > (1u << 30) ? (1u << 30) : (uInt)len;

		z.avail_in = take;
		for (;;) {
			rc = room(raw);
			if (rc)
				goto out;
			z.next_out = (Bytef *)raw->data + raw->len;
			z.avail_out = (uInt)(raw->alloc - raw->len - 1);
			zr = inflate(&z, Z_NO_FLUSH);
			raw->len = (size_t)((char *)z.next_out - raw->data);
			if (zr == Z_STREAM_END) {
				/* Another stream may follow: one per writer. */
				inflateReset(&z);
				if (!z.avail_in)
					break;
				continue;
			}
			if (zr == Z_MEM_ERROR) {
				rc = -ENOMEM;
				goto out;
			}
			if (zr != Z_OK && zr != Z_BUF_ERROR) {
				rc = fail(d, -EINVAL, "corrupt zlib data (%s)",
					  z.msg ? z.msg : "unknown error");
				goto out;
			}
			if (!z.avail_in && z.avail_out) {
				if (len == take) {
					rc = fail(d, -EINVAL, "truncated zlib data");
					goto out;
				}
				break;
			}
		}
		len -= take;
	}
out:
	inflateEnd(&z);
	if (raw->data)
		raw->data[raw->len] = '\0';
	return rc;
}

static int inflate_bzip2(struct ioa_darshan *d, const unsigned char *in, size_t len,
			 struct ioa_buf *raw)
{
	bz_stream z;
	int zr, rc = 0, open = 0;

	memset(&z, 0, sizeof(z));
	z.next_in = (char *)in;
	z.avail_in = len > (1u << 30) ? (1u << 30) : (unsigned)len;
	if (len > z.avail_in)
		return fail(d, -EFBIG, "bzip2 region over 1 GiB");
	while (z.avail_in) {
		if (!open) {
			if (BZ2_bzDecompressInit(&z, 0, 0) != BZ_OK)
				return -ENOMEM;
			open = 1;
		}
		rc = room(raw);
		if (rc)
			break;
		z.next_out = raw->data + raw->len;
		z.avail_out = (unsigned)(raw->alloc - raw->len - 1);
		zr = BZ2_bzDecompress(&z);
		raw->len = (size_t)(z.next_out - raw->data);
		if (zr == BZ_STREAM_END) {
			BZ2_bzDecompressEnd(&z);
			open = 0;
			continue;
		}
		if (zr == BZ_MEM_ERROR) {
			rc = -ENOMEM;
			break;
		}
		if (zr != BZ_OK) {
			rc = fail(d, -EINVAL, "corrupt bzip2 data (error %d)", zr);
			break;
		}
		if (!z.avail_in && z.avail_out) {
			rc = fail(d, -EINVAL, "truncated bzip2 data");
			break;
		}
	}
	if (open)
		BZ2_bzDecompressEnd(&z);
	if (raw->data)
		raw->data[raw->len] = '\0';
	return rc;
}

int ioa_darshan_region(struct ioa_darshan *d, const struct ioa_darshan_map *m, struct ioa_buf *raw)
{
	unsigned char *stored;
	int rc;

	ioa_buf_reset(raw);
	if (!m->len)
		return 0;
	if (m->len > REGION_CAP)
		return fail(d, -EFBIG, "a region of %llu bytes", (unsigned long long)m->len);
	stored = malloc((size_t)m->len);
	if (!stored)
		return -ENOMEM;
	rc = read_at(d, stored, (size_t)m->len, m->off, "region");
	if (!rc && d->comp == IOA_DARSHAN_NONE)
		rc = m->len > raw->cap ? -EFBIG : ioa_buf_add(raw, stored, (size_t)m->len);
	else if (!rc && d->comp == IOA_DARSHAN_ZLIB)
		rc = inflate_zlib(d, stored, (size_t)m->len, raw);
	else if (!rc)
		rc = inflate_bzip2(d, stored, (size_t)m->len, raw);
	free(stored);
	if (rc == -EFBIG && !d->error[0])
		fail(d, rc, "a region decompresses to more than %zu bytes", raw->cap);
	return rc;
}

/* ------------------------------------------------------------ job and names */

int ioa_darshan_job(struct ioa_darshan *d, const struct ioa_buf *raw, struct ioa_darshan_job *job)
{
	const unsigned char *p = (const unsigned char *)raw->data;
	size_t fixed = d->format >= 341 ? 7 * 8 : 5 * 8, rest;
	const char *text, *end, *nl;

	memset(job, 0, sizeof(*job));
	if (raw->len < fixed + METADATA_LEN)
		return fail(d, -EINVAL, "truncated job region (%zu bytes)", raw->len);
	job->uid = (int64_t)get64(d, p);
	if (d->format >= 341) {
		job->start_sec = (int64_t)get64(d, p + 8);
		job->start_nsec = (int64_t)get64(d, p + 16);
		job->end_sec = (int64_t)get64(d, p + 24);
		job->end_nsec = (int64_t)get64(d, p + 32);
		job->nprocs = (int64_t)get64(d, p + 40);
		job->jobid = (int64_t)get64(d, p + 48);
	} else {
		job->start_sec = (int64_t)get64(d, p + 8);
		job->end_sec = (int64_t)get64(d, p + 16);
		job->nprocs = (int64_t)get64(d, p + 24);
		job->jobid = (int64_t)get64(d, p + 32);
	}
	/* Times a log can hold: seconds of the epoch that fit nanoseconds in 63 bits. */
	if (job->start_sec < 0 || job->start_sec > INT64_MAX / 1000000000 - 1 || job->end_sec < 0 ||
	    job->end_sec > INT64_MAX / 1000000000 - 1 || job->start_nsec < 0 ||
	    job->start_nsec >= 1000000000 || job->end_nsec < 0 || job->end_nsec >= 1000000000)
		return fail(d, -EINVAL, "job region: a start or end time out of range");
	text = (const char *)p + fixed;
	job->metadata = text;
	job->metadata_len = strnlen(text, METADATA_LEN);
	text += METADATA_LEN;
	rest = raw->len - fixed - METADATA_LEN;
	end = text + strnlen(text, rest);
	nl = memchr(text, '\n', (size_t)(end - text));
	job->exe = text;
	job->exe_len = (size_t)((nl ? nl : end) - text);
	if (nl) {
		job->mounts = nl + 1;
		job->mounts_len = (size_t)(end - job->mounts);
	}
	return 0;
}

int ioa_darshan_each_name(struct ioa_darshan *d, const struct ioa_buf *raw,
			  int (*fn)(uint64_t id, const unsigned char *name, uint32_t len,
				    void *arg),
			  void *arg)
{
	const unsigned char *p = (const unsigned char *)raw->data;
	size_t left = raw->len;
	int rc = 0;

	while (left && !rc) {
		uint64_t id;
		size_t len;

		if (left < 8)
			return fail(d, -EINVAL, "name table: %zu stray bytes", left);
		id = get64(d, p);
		p += 8;
		left -= 8;
		if (d->format < 310) {
			if (left < 4)
				return fail(d, -EINVAL, "name table: truncated name length");
			len = get32(d, p);
			p += 4;
			left -= 4;
			if (len > left)
				return fail(d, -EINVAL, "name table: a name of %zu bytes, %zu left",
					    len, left);
		} else {
			const unsigned char *nul = memchr(p, '\0', left);

			if (!nul)
				return fail(d, -EINVAL, "name table: a name without its end");
			len = (size_t)(nul - p);
		}
		if (len > UINT32_MAX)
			return fail(d, -EINVAL, "name table: a name of %zu bytes", len);
		rc = fn(id, p, (uint32_t)len, arg);
		if (d->format >= 310)
			len++;
		p += len;
		left -= len;
	}
	return rc;
}

/* ------------------------------------------------------------ counter records */

/*
 * A record layout: the raw counters of one module version in order, as
 * runs of ioatlas counters (first, count) or of dropped values (first < 0).
 * A run marked ADD adds its value to the counter instead of setting it.
 */
struct run {
	int first;
	unsigned count;
	int add;
};

struct layout {
	enum ioa_darshan_kind kind;
	uint32_t version;
	enum ioa_module module;
	const struct run *ints;
	unsigned nint_runs;
	const struct run *floats;
	unsigned nfloat_runs;
	int skip_slot; /* raw int slot whose being > 0 leaves the record out, or -1 */
};

#define DROP (-1)
#define SPAN(a, b)                    \
	{                             \
		(a), (b) - (a) + 1, 0 \
	}
#define ONE(a) SPAN(a, a)
#define ADD(a)            \
	{                 \
		(a), 1, 1 \
	}

/* POSIX 1 kept STDIO counts (FOPENS, FREADS, FWRITES, FSEEKS) after MMAPS; 2 dropped them. */
static const struct run posix_ints_1[] = {
	ONE(POSIX_OPENS),
	SPAN(POSIX_READS, POSIX_MMAPS),
	{DROP, 4, 0},
	SPAN(POSIX_FSYNCS, POSIX_FDSYNCS),
	SPAN(POSIX_MODE, POSIX_SLOWEST_RANK_BYTES),
};
static const struct run posix_ints_2[] = {
	ONE(POSIX_OPENS),
	SPAN(POSIX_READS, POSIX_MMAPS),
	SPAN(POSIX_FSYNCS, POSIX_FDSYNCS),
	SPAN(POSIX_MODE, POSIX_SLOWEST_RANK_BYTES),
};
/* 4 added FILENOS, DUPS and the rename counters. */
static const struct run posix_ints_4[] = {SPAN(POSIX_OPENS, POSIX_SLOWEST_RANK_BYTES)};
/* Before 3 the open and close timestamps were one each: first open, last close. */
static const struct run posix_floats_1[] = {
	SPAN(POSIX_F_OPEN_START_TIMESTAMP, POSIX_F_WRITE_START_TIMESTAMP),
	SPAN(POSIX_F_READ_END_TIMESTAMP, POSIX_F_CLOSE_END_TIMESTAMP),
	SPAN(POSIX_F_READ_TIME, POSIX_F_VARIANCE_RANK_BYTES),
};
static const struct run posix_floats_3[] = {
	SPAN(POSIX_F_OPEN_START_TIMESTAMP, POSIX_F_VARIANCE_RANK_BYTES),
};
static const struct run mpiio_ints[] = {SPAN(MPIIO_INDEP_OPENS, MPIIO_SLOWEST_RANK_BYTES)};
static const struct run mpiio_floats_1[] = {
	SPAN(MPIIO_F_OPEN_START_TIMESTAMP, MPIIO_F_WRITE_START_TIMESTAMP),
	SPAN(MPIIO_F_READ_END_TIMESTAMP, MPIIO_F_CLOSE_END_TIMESTAMP),
	SPAN(MPIIO_F_READ_TIME, MPIIO_F_VARIANCE_RANK_BYTES),
};
static const struct run mpiio_floats_3[] = {
	SPAN(MPIIO_F_OPEN_START_TIMESTAMP, MPIIO_F_VARIANCE_RANK_BYTES),
};
/* STDIO 2 added FDOPENS. */
static const struct run stdio_ints_1[] = {
	ONE(STDIO_OPENS),
	SPAN(STDIO_READS, STDIO_SLOWEST_RANK_BYTES),
};
static const struct run stdio_ints_2[] = {SPAN(STDIO_OPENS, STDIO_SLOWEST_RANK_BYTES)};
/* STDIO's times come first, and its timestamps in another order than POSIX's. */
static const struct run stdio_floats[] = {
	SPAN(STDIO_F_META_TIME, STDIO_F_READ_TIME),
	ONE(STDIO_F_OPEN_START_TIMESTAMP),
	ONE(STDIO_F_CLOSE_START_TIMESTAMP),
	ONE(STDIO_F_WRITE_START_TIMESTAMP),
	ONE(STDIO_F_READ_START_TIMESTAMP),
	ONE(STDIO_F_OPEN_END_TIMESTAMP),
	ONE(STDIO_F_CLOSE_END_TIMESTAMP),
	ONE(STDIO_F_WRITE_END_TIMESTAMP),
	ONE(STDIO_F_READ_END_TIMESTAMP),
	SPAN(STDIO_F_FASTEST_RANK_TIME, STDIO_F_VARIANCE_RANK_BYTES),
};
/* H5F (and 3.0's HDF5) 1: opens, first open, last close; 2: four timestamps; 3: all. */
static const struct run h5f_ints_1[] = {ONE(H5F_OPENS)};
static const struct run h5f_ints_3[] = {SPAN(H5F_OPENS, H5F_USE_MPIIO)};
static const struct run h5f_floats_1[] = {
	ONE(H5F_F_OPEN_START_TIMESTAMP),
	ONE(H5F_F_CLOSE_END_TIMESTAMP),
};
static const struct run h5f_floats_2[] = {
	SPAN(H5F_F_OPEN_START_TIMESTAMP, H5F_F_CLOSE_END_TIMESTAMP),
};
static const struct run h5f_floats_3[] = {SPAN(H5F_F_OPEN_START_TIMESTAMP, H5F_F_META_TIME)};
/* H5D 2 put the file's record id before the counters. */
static const struct run h5d_ints_1[] = {SPAN(H5D_OPENS, H5D_SLOWEST_RANK_BYTES)};
static const struct run h5d_ints_2[] = {
	ONE(H5D_FILE_REC_ID),
	SPAN(H5D_OPENS, H5D_SLOWEST_RANK_BYTES),
};
static const struct run h5d_floats[] = {
	SPAN(H5D_F_OPEN_START_TIMESTAMP, H5D_F_VARIANCE_RANK_BYTES),
};
/*
 * PnetCDF files (and before 3.4, PNETCDF) 1 and 2 counted independent and
 * collective opens apart: together they are 3's opens.
 */
static const struct run pnetcdf_file_ints_1[] = {
	ONE(PNETCDF_FILE_OPENS),
	ADD(PNETCDF_FILE_OPENS),
};
static const struct run pnetcdf_file_ints_3[] = {
	SPAN(PNETCDF_FILE_CREATES, PNETCDF_FILE_WAIT_FAILURES),
};
static const struct run pnetcdf_file_floats_1[] = {
	ONE(PNETCDF_FILE_F_OPEN_START_TIMESTAMP),
	ONE(PNETCDF_FILE_F_CLOSE_END_TIMESTAMP),
};
static const struct run pnetcdf_file_floats_2[] = {
	SPAN(PNETCDF_FILE_F_OPEN_START_TIMESTAMP, PNETCDF_FILE_F_CLOSE_START_TIMESTAMP),
	SPAN(PNETCDF_FILE_F_OPEN_END_TIMESTAMP, PNETCDF_FILE_F_CLOSE_END_TIMESTAMP),
};
static const struct run pnetcdf_file_floats_3[] = {
	SPAN(PNETCDF_FILE_F_OPEN_START_TIMESTAMP, PNETCDF_FILE_F_WAIT_TIME),
};
static const struct run pnetcdf_var_ints[] = {
	ONE(PNETCDF_VAR_FILE_REC_ID),
	SPAN(PNETCDF_VAR_OPENS, PNETCDF_VAR_SLOWEST_RANK_BYTES),
};
static const struct run pnetcdf_var_floats[] = {
	SPAN(PNETCDF_VAR_F_OPEN_START_TIMESTAMP, PNETCDF_VAR_F_VARIANCE_RANK_BYTES),
};

#define LAYOUT(kind, ver, mod, ints, floats, skip)                                       \
	{                                                                                \
		kind, ver, IOA_MOD_##mod, ints, COUNT(ints), floats, COUNT(floats), skip \
	}

static const struct layout layouts[] = {
	/* POSIX 1: darshan-parser leaves out the records with stdio counts. */
	LAYOUT(IOA_DK_POSIX, 1, POSIX, posix_ints_1, posix_floats_1, 6),
	LAYOUT(IOA_DK_POSIX, 2, POSIX, posix_ints_2, posix_floats_1, -1),
	LAYOUT(IOA_DK_POSIX, 3, POSIX, posix_ints_2, posix_floats_3, -1),
	LAYOUT(IOA_DK_POSIX, 4, POSIX, posix_ints_4, posix_floats_3, -1),
	LAYOUT(IOA_DK_MPIIO, 1, MPIIO, mpiio_ints, mpiio_floats_1, -1),
	LAYOUT(IOA_DK_MPIIO, 2, MPIIO, mpiio_ints, mpiio_floats_1, -1),
	LAYOUT(IOA_DK_MPIIO, 3, MPIIO, mpiio_ints, mpiio_floats_3, -1),
	LAYOUT(IOA_DK_STDIO, 1, STDIO, stdio_ints_1, stdio_floats, -1),
	LAYOUT(IOA_DK_STDIO, 2, STDIO, stdio_ints_2, stdio_floats, -1),
	LAYOUT(IOA_DK_HDF5, 1, H5F, h5f_ints_1, h5f_floats_1, -1),
	LAYOUT(IOA_DK_H5F, 1, H5F, h5f_ints_1, h5f_floats_1, -1),
	LAYOUT(IOA_DK_H5F, 2, H5F, h5f_ints_1, h5f_floats_2, -1),
	LAYOUT(IOA_DK_H5F, 3, H5F, h5f_ints_3, h5f_floats_3, -1),
	LAYOUT(IOA_DK_H5D, 1, H5D, h5d_ints_1, h5d_floats, -1),
	LAYOUT(IOA_DK_H5D, 2, H5D, h5d_ints_2, h5d_floats, -1),
	LAYOUT(IOA_DK_PNETCDF, 1, PNETCDF_FILE, pnetcdf_file_ints_1, pnetcdf_file_floats_1, -1),
	LAYOUT(IOA_DK_PNETCDF, 2, PNETCDF_FILE, pnetcdf_file_ints_1, pnetcdf_file_floats_2, -1),
	LAYOUT(IOA_DK_PNETCDF_FILE, 1, PNETCDF_FILE, pnetcdf_file_ints_1, pnetcdf_file_floats_1,
	       -1),
	LAYOUT(IOA_DK_PNETCDF_FILE, 2, PNETCDF_FILE, pnetcdf_file_ints_1, pnetcdf_file_floats_2,
	       -1),
	LAYOUT(IOA_DK_PNETCDF_FILE, 3, PNETCDF_FILE, pnetcdf_file_ints_3, pnetcdf_file_floats_3,
	       -1),
	LAYOUT(IOA_DK_PNETCDF_VAR, 1, PNETCDF_VAR, pnetcdf_var_ints, pnetcdf_var_floats, -1),
};

static const struct layout *layout_of(enum ioa_darshan_kind kind, uint32_t version)
{
	for (size_t i = 0; i < COUNT(layouts); i++)
		if (layouts[i].kind == kind && layouts[i].version == version)
			return &layouts[i];
	return NULL;
}

/* Whether the reader reads a module's records (at the versions layouts[] knows). */
static int reads_kind(enum ioa_darshan_kind kind)
{
	for (size_t i = 0; i < COUNT(layouts); i++)
		if (layouts[i].kind == kind)
			return 1;
	return kind == IOA_DK_LUSTRE;
}

int ioa_darshan_order(enum ioa_module module, int floats, int *order, unsigned max)
{
	static const struct {
		enum ioa_module module;
		enum ioa_darshan_kind kind;
		uint32_t version;
	} current[] = {
		{IOA_MOD_POSIX, IOA_DK_POSIX, 4},
		{IOA_MOD_MPIIO, IOA_DK_MPIIO, 3},
		{IOA_MOD_STDIO, IOA_DK_STDIO, 2},
		{IOA_MOD_H5F, IOA_DK_H5F, 3},
		{IOA_MOD_H5D, IOA_DK_H5D, 2},
		{IOA_MOD_PNETCDF_FILE, IOA_DK_PNETCDF_FILE, 3},
		{IOA_MOD_PNETCDF_VAR, IOA_DK_PNETCDF_VAR, 1},
	};
	unsigned n = 0;

	for (size_t i = 0; i < COUNT(current); i++) {
		const struct layout *l = layout_of(current[i].kind, current[i].version);
		const struct run *runs = floats ? l->floats : l->ints;
		unsigned nruns = floats ? l->nfloat_runs : l->nint_runs;

		if (current[i].module != module)
			continue;
		for (unsigned r = 0; r < nruns; r++)
			for (unsigned k = 0; k < runs[r].count && n < max; k++)
				order[n++] = runs[r].first + (int)k;
	}
	return (int)n;
}

static unsigned run_total(const struct run *runs, unsigned n)
{
	unsigned total = 0;

	for (unsigned i = 0; i < n; i++)
		total += runs[i].count;
	return total;
}

/*
 * A module's blank record, made once per region: counters a version does
 * not have read -1, as darshan-parser shows them; record ids 0.
 */
static void record_defaults(struct ioa_log_record *rec, enum ioa_module module)
{
	const struct ioa_module_desc *m = &ioa_modules[module];

	memset(rec, 0, sizeof(*rec));
	rec->module = module;
	for (unsigned i = 0; i < m->counter_count; i++)
		rec->counters[i] = ioa_counter_is_record_id(m->counter_names[i]) ? 0 : -1;
	for (unsigned i = 0; i < m->fcounter_count; i++)
		rec->fcounters[i] = -1.0;
}

/* The base record every module's starts with: id and rank. */
static int record_base(struct ioa_darshan *d, enum ioa_darshan_kind kind, const unsigned char *p,
		       const struct ioa_log_record *blank, struct ioa_log_record *rec)
{
	*rec = *blank;
	rec->id = get64(d, p);
	rec->rank = (int32_t)(int64_t)get64(d, p + 8);
	if ((int64_t)get64(d, p + 8) != rec->rank || rec->rank < -1)
		return fail(d, -EINVAL, "%s record with rank %lld", ioa_darshan_kind_name(kind),
			    (long long)get64(d, p + 8));
	if (rec->rank < 0)
		rec->flags |= IOA_REC_SHARED;
	return 0;
}

/*
 * Lustre records are of variable size.  Version 1: base, OSTs, MDTs,
 * stripe offset, stripe size, stripe width, then width OST ids: one
 * component.  Version 2: base, components, stripes, the components (seven
 * counters and a 16-byte pool name each), then the OST ids; a component of
 * stripe size -1 and those after it were never filled in, and the stripes
 * that count are those of the components before it.
 */
#define LUSTRE_COMP_SIZE (7 * 8 + 16)

static int lustre_record(struct ioa_darshan *d, uint32_t version, const unsigned char *p,
			 size_t left, size_t *used, const struct ioa_log_record *blank,
			 struct ioa_log_record *rec)
{
	uint64_t ncomps, nstripes, kept_stripes = 0, comps_end;
	unsigned kept_comps = 0, osts = 0;
	const unsigned char *ost;
	int64_t *comp;
	int rc;

	if (left < 16 + 16)
		return fail(d, -EINVAL, "LUSTRE region: a record cut short");
	rc = record_base(d, IOA_DK_LUSTRE, p, blank, rec);
	if (rc)
		return rc;
	if (version == 1) {
		uint64_t width = get64(d, p + 16 + 32);

		if (left < 56 || width > (left - 56) / 8)
			return fail(d, -EINVAL, "LUSTRE region: a record cut short");
		*used = 56 + 8 * width;
		rec->counters[LUSTRE_NUM_COMPONENTS] = 1;
		rec->counters[LUSTRE_NUM_STRIPES] = (int64_t)width;
		rec->counters[LUSTRE_COMP1_STRIPE_SIZE] = (int64_t)get64(d, p + 16 + 24);
		rec->counters[LUSTRE_COMP1_STRIPE_COUNT] = (int64_t)width;
		rec->counters[LUSTRE_COMP1_EXT_START] = 0;
		rec->counters[LUSTRE_COMP1_POOL_NAME_A] = rec->counters[LUSTRE_COMP1_POOL_NAME_B] =
			0;
		ost = p + 56;
		kept_comps = 1;
		nstripes = kept_stripes = width;
	} else {
		ncomps = get64(d, p + 16);
		nstripes = get64(d, p + 24);
		if (ncomps > (left - 32) / LUSTRE_COMP_SIZE)
			return fail(d, -EINVAL, "LUSTRE region: a record cut short");
		comps_end = 32 + ncomps * LUSTRE_COMP_SIZE;
		if (nstripes > (left - comps_end) / 8)
			return fail(d, -EINVAL, "LUSTRE region: a record cut short");
		*used = comps_end + 8 * nstripes;
		for (uint64_t c = 0; c < ncomps; c++) {
			const unsigned char *cp = p + 32 + c * LUSTRE_COMP_SIZE;
			int64_t count = (int64_t)get64(d, cp + 8);

			if ((int64_t)get64(d, cp) == -1)
				break;
			if (count < 0 || (uint64_t)count > nstripes - kept_stripes)
				return fail(d, -EINVAL,
					    "LUSTRE record with %lld stripes in a "
					    "component, past the record's %llu",
					    (long long)count, (unsigned long long)nstripes);
			kept_stripes += (uint64_t)count;
			if (++kept_comps > IOA_LUSTRE_COMPS)
				continue;
			comp = rec->counters + LUSTRE_COMP1_STRIPE_SIZE +
			       (kept_comps - 1) * IOA_LUSTRE_COMP_STRIDE;
			for (unsigned k = 0; k < 7; k++)
				comp[k] = (int64_t)get64(d, cp + 8 * k);
			IOA_LUSTRE_POOL_PUT(comp + 7, cp + 56);
		}
		rec->counters[LUSTRE_NUM_COMPONENTS] = kept_comps;
		rec->counters[LUSTRE_NUM_STRIPES] = (int64_t)kept_stripes;
		ost = p + comps_end;
	}
	for (uint64_t i = 0; i < kept_stripes && osts < IOA_LUSTRE_OSTS; i++)
		rec->counters[LUSTRE_OST_ID_0 + osts++] = (int64_t)get64(d, ost + 8 * i);
	if (kept_comps > IOA_LUSTRE_COMPS || kept_stripes > IOA_LUSTRE_OSTS)
		d->trimmed++;
	return 0;
}

static int each_lustre(struct ioa_darshan *d, unsigned id, const struct ioa_buf *raw,
		       int (*fn)(const struct ioa_log_record *rec, void *arg), void *arg)
{
	const unsigned char *p = (const unsigned char *)raw->data;
	size_t left = raw->len, used = 0;
	struct ioa_log_record rec, blank;
	int rc = 0;

	if (d->mod_ver[id] < 1 || d->mod_ver[id] > 2)
		return fail(d, -ENOTSUP, "LUSTRE module version %u is not one this reader knows",
			    d->mod_ver[id]);
	record_defaults(&blank, IOA_MOD_LUSTRE);
	while (left && !rc) {
		rc = lustre_record(d, d->mod_ver[id], p, left, &used, &blank, &rec);
		rc = rc ? rc : fn(&rec, arg);
		p += used;
		left -= used;
	}
	return rc;
}

int ioa_darshan_each_record(struct ioa_darshan *d, unsigned id, const struct ioa_buf *raw,
			    int (*fn)(const struct ioa_log_record *rec, void *arg), void *arg)
{
	enum ioa_darshan_kind kind = ioa_darshan_kind(d, id);
	const struct layout *l = layout_of(kind, d->mod_ver[id]);
	const unsigned char *p = (const unsigned char *)raw->data;
	struct ioa_log_record rec, blank;
	unsigned nints, nfloats;
	size_t size, left = raw->len;
	int rc = 0;

	if (kind == IOA_DK_LUSTRE)
		return each_lustre(d, id, raw, fn, arg);
	if (!l)
		return fail(d, -ENOTSUP, "%s module version %u is not one this reader knows",
			    ioa_darshan_kind_name(kind), d->mod_ver[id]);
	nints = run_total(l->ints, l->nint_runs);
	nfloats = run_total(l->floats, l->nfloat_runs);
	size = 16 + 8 * (size_t)(nints + nfloats);
	if (left % size)
		return fail(d, -EINVAL, "%s region: %zu bytes are not whole records of %zu",
			    ioa_darshan_kind_name(kind), left, size);
	record_defaults(&blank, l->module);
	for (; left && !rc; p += size, left -= size) {
		const unsigned char *v = p + 16;
		unsigned slot = 0;

		if (l->skip_slot >= 0 && (int64_t)get64(d, v + 8 * l->skip_slot) > 0) {
			d->skipped++;
			continue;
		}
		rc = record_base(d, kind, p, &blank, &rec);
		for (unsigned r = 0; r < l->nint_runs && !rc; r++)
			for (unsigned k = 0; k < l->ints[r].count; k++, slot++) {
				int64_t v64 = (int64_t)get64(d, v + 8 * slot), *c;

				if (l->ints[r].first < 0)
					continue;
				c = &rec.counters[l->ints[r].first + (int)k];
				/* A sum with a part not recorded is not recorded. */
				if (!l->ints[r].add)
					*c = v64;
				else if (*c != IOA_NOT_RECORDED)
					*c = v64 == IOA_NOT_RECORDED ? v64
								     : ioa_counter_sat_add(*c, v64);
			}
		for (unsigned r = 0; r < l->nfloat_runs && !rc; r++)
			for (unsigned k = 0; k < l->floats[r].count; k++, slot++)
				if (l->floats[r].first >= 0)
					rec.fcounters[l->floats[r].first + (int)k] =
						ioa_bits_f64(get64(d, v + 8 * slot));
		rc = rc ? rc : fn(&rec, arg);
	}
	return rc;
}

/* ------------------------------------------------------------ DXT */

/* A DXT file record: base record, shared flag, hostname, write and read counts. */
#define DXT_HOSTNAME 64
#define DXT_HEAD     (16 + 8 + DXT_HOSTNAME + 16)
#define DXT_SEGMENT  32

int ioa_darshan_each_segment(struct ioa_darshan *d, unsigned id, const struct ioa_buf *raw,
			     int (*fn)(const struct ioa_darshan_segment *s, void *arg), void *arg)
{
	enum ioa_darshan_kind kind = ioa_darshan_kind(d, id);
	const unsigned char *p = (const unsigned char *)raw->data;
	size_t left = raw->len;
	int rc = 0;

	if (kind != IOA_DK_DXT_POSIX && kind != IOA_DK_DXT_MPIIO)
		return fail(d, -ENOTSUP, "%s is not a DXT module", ioa_darshan_kind_name(kind));
	/* DXT_MPIIO 2 only began to record offsets: 1's read -1. */
	if (d->mod_ver[id] != 1 && !(kind == IOA_DK_DXT_MPIIO && d->mod_ver[id] == 2))
		return fail(d, -ENOTSUP, "%s module version %u is not one this reader knows",
			    ioa_darshan_kind_name(kind), d->mod_ver[id]);
	while (left && !rc) {
		struct ioa_darshan_segment s;
		uint64_t writes, reads;
		char *host;

		if (left < DXT_HEAD)
			return fail(d, -EINVAL, "%s region: a truncated file record",
				    ioa_darshan_kind_name(kind));
		memset(&s, 0, sizeof(s));
		s.record_id = get64(d, p);
		s.rank = (int64_t)get64(d, p + 8);
		writes = get64(d, p + 88);
		reads = get64(d, p + 96);
		if (writes > (left - DXT_HEAD) / DXT_SEGMENT ||
		    reads > (left - DXT_HEAD) / DXT_SEGMENT - writes)
			return fail(d, -EINVAL,
				    "%s region: %llu writes and %llu reads in %zu bytes",
				    ioa_darshan_kind_name(kind), (unsigned long long)writes,
				    (unsigned long long)reads, left - DXT_HEAD);
		/* The hostname is the log's, NUL-terminated in place (the last byte, if need be).
		 */
		host = (char *)p + 24;
		host[DXT_HOSTNAME - 1] = '\0';
		s.hostname = host;
		p += DXT_HEAD;
		left -= DXT_HEAD;
		for (uint64_t i = 0; i < writes + reads && !rc; i++) {
			s.write = i < writes;
			s.offset = kind == IOA_DK_DXT_MPIIO && d->mod_ver[id] == 1
					   ? -1
					   : (int64_t)get64(d, p);
			s.length = (int64_t)get64(d, p + 8);
			s.start = ioa_bits_f64(get64(d, p + 16));
			s.end = ioa_bits_f64(get64(d, p + 24));
			p += DXT_SEGMENT;
			left -= DXT_SEGMENT;
			rc = fn(&s, arg);
		}
	}
	return rc;
}

/* ------------------------------------------------------------ import */

/* A module's records, as imported. */
struct recs {
	struct ioa_log_record *v;
	size_t n;
	size_t alloc;
};

struct import {
	struct ioa_darshan *d;
	struct ioa_log_writer w;
	struct recs recs[IOA_MOD_COUNT];
	struct ioa_buf b;
	/* DXT: the segments region's hosts and segments, as they are encoded. */
	struct ioa_buf hosts, segments;
	uint32_t nhosts;
	size_t *host_at;      /* per host: where its entry starts in hosts */
	uint32_t *host_slots; /* open addressing on the name's hash: host index + 1, 0 empty */
	size_t host_cap;      /* slots, a power of 2 */
	uint64_t nsegments;
	enum ioa_module segment_module;
	uint64_t inflated; /* bytes of the regions inflated so far (IMPORT_BUDGET) */
};

static int recs_add(struct recs *r, const struct ioa_log_record *rec)
{
	if (r->n == r->alloc) {
		size_t alloc = r->alloc ? 2 * r->alloc : 64;
		void *v;

		if (r->n >= IMPORT_RECORDS_MAX)
			return -EFBIG;
		if (alloc > IMPORT_RECORDS_MAX)
			alloc = IMPORT_RECORDS_MAX;
		v = realloc(r->v, alloc * sizeof(*r->v));
		if (!v)
			return -ENOMEM;
		r->v = v;
		r->alloc = alloc;
	}
	r->v[r->n++] = *rec;
	return 0;
}

static int keep_record(const struct ioa_log_record *rec, void *arg)
{
	struct import *im = arg;
	size_t total = 0;

	for (unsigned m = 0; m < IOA_MOD_COUNT; m++)
		total += im->recs[m].n;
	if (total >= IMPORT_RECORDS_MAX)
		return fail(im->d, -EFBIG, "more than %zu records: more than an import holds",
			    IMPORT_RECORDS_MAX);
	return recs_add(&im->recs[rec->module], rec);
}

static int entry(struct ioa_buf *b, uint16_t key, const void *value, size_t len)
{
	int rc = ioa_enc_u16(b, key);

	return rc ? rc : ioa_enc_bytes(b, value, len);
}

static int entry_i64(struct ioa_buf *b, uint16_t key, long long v)
{
	char text[32];

	return entry(b, key, text, (size_t)snprintf(text, sizeof(text), "%lld", v));
}

static const char *comp_name(unsigned comp)
{
	return comp == IOA_DARSHAN_ZLIB ? "zlib" : comp == IOA_DARSHAN_BZIP2 ? "bzip2" : "none";
}

/* metadata "k=v" lines: library= from lib_ver, each as a metadata= line of the source. */
static int add_metadata(struct ioa_buf *src, const char *text, size_t len, const char **lib,
			size_t *lib_len)
{
	const char *end = text + len;
	int rc = 0;

	while (text < end && !rc) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		size_t n = (size_t)((nl ? nl : end) - text);

		if (n > 8 && !memcmp(text, "lib_ver=", 8)) {
			*lib = text + 8;
			*lib_len = n - 8;
		} else if (n && memchr(text, '=', n)) {
			rc = ioa_buf_addstr(src, "metadata=");
			rc = rc ? rc : ioa_buf_add(src, text, n);
			rc = rc ? rc : ioa_buf_addstr(src, "\n");
		}
		text += n + (nl != NULL);
	}
	return rc;
}

/* The job region: Darshan's job, its command line, and where it came from. */
static int import_job(struct import *im, const struct ioa_darshan_job *job, const char *left_out,
		      const char *incomplete)
{
	struct ioa_darshan *d = im->d;
	struct ioa_buf src = IOA_BUF_INIT(64 * 1024);
	const char *lib = NULL, *space;
	size_t lib_len = 0;
	int rc;

	ioa_buf_reset(&im->b);
	rc = entry_i64(&im->b, IOA_JOB_UID, (long long)job->uid);
	/* Darshan keeps no user name, and this host's for the uid may be another person's. */
	if (!rc) {
		char user[32];

		rc = entry(&im->b, IOA_JOB_USER, user,
			   (size_t)snprintf(user, sizeof(user), "uid %lld", (long long)job->uid));
	}
	rc = rc ? rc : entry_i64(&im->b, IOA_JOB_JOBID, (long long)job->jobid);
	rc = rc ? rc : entry(&im->b, IOA_JOB_SCHEDULER, "none", 4);
	rc = rc ? rc
		: entry_i64(&im->b, IOA_JOB_START_NS,
			    (long long)job->start_sec * 1000000000LL + job->start_nsec);
	rc = rc ? rc
		: entry_i64(&im->b, IOA_JOB_END_NS,
			    (long long)job->end_sec * 1000000000LL + job->end_nsec);
	rc = rc ? rc : entry_i64(&im->b, IOA_JOB_NPROCS, (long long)job->nprocs);
	space = memchr(job->exe, ' ', job->exe_len);
	rc = rc ? rc
		: entry(&im->b, IOA_JOB_EXE, job->exe,
			space ? (size_t)(space - job->exe) : job->exe_len);
	/* The arguments, NUL-separated as ours (Darshan joined them with blanks). */
	if (!rc) {
		size_t at = im->b.len + 6;

		rc = entry(&im->b, IOA_JOB_ARGS, job->exe, job->exe_len);
		for (size_t i = 0; !rc && i < job->exe_len; i++)
			if (im->b.data[at + i] == ' ')
				im->b.data[at + i] = '\0';
	}
	rc = rc ? rc
		: ioa_buf_addf(&src, "tool=darshan\nformat=%s\ncompression=%s\n", d->version,
			       comp_name(d->comp));
	rc = rc ? rc : add_metadata(&src, job->metadata, job->metadata_len, &lib, &lib_len);
	if (!rc && lib) {
		rc = ioa_buf_addstr(&src, "library=");
		rc = rc ? rc : ioa_buf_add(&src, lib, lib_len);
		rc = rc ? rc : ioa_buf_addstr(&src, "\n");
	}
	if (!rc && *incomplete)
		rc = ioa_buf_addf(&src, "incomplete=%s\n", incomplete);
	if (!rc && *left_out)
		rc = ioa_buf_addf(&src, "left_out=%s\n", left_out);
	if (!rc && d->skipped)
		rc = ioa_buf_addf(&src, "skipped=%llu\n", (unsigned long long)d->skipped);
	if (!rc && d->trimmed)
		rc = ioa_buf_addf(&src, "lustre_trimmed=%llu\n", (unsigned long long)d->trimmed);
	rc = rc ? rc : entry(&im->b, IOA_JOB_SOURCE, src.data, src.len);
	rc = rc ? rc : ioa_logw_add(&im->w, IOA_REGION_JOB, im->b.data, im->b.len);
	ioa_buf_release(&src);
	return rc;
}

/* The name table's entries, one per id (a log may hold an id once per rank). */
struct name_ref {
	uint64_t id;
	const unsigned char *name;
	uint32_t len;
	size_t order;
};

struct names {
	struct name_ref *v;
	size_t n, alloc;
};

static int collect_name(uint64_t id, const unsigned char *name, uint32_t len, void *arg)
{
	struct names *ns = arg;

	if (ns->n == ns->alloc) {
		size_t alloc = ns->alloc ? 2 * ns->alloc : 256;
		void *v = realloc(ns->v, alloc * sizeof(*ns->v));

		if (!v)
			return -ENOMEM;
		ns->v = v;
		ns->alloc = alloc;
	}
	ns->v[ns->n] = (struct name_ref){id, name, len, ns->n};
	ns->n++;
	return 0;
}

static int by_id(const void *a, const void *b)
{
	const struct name_ref *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The names region: the first name of each id, or its first that is not empty, as darshan-parser
 * keeps. */
static int import_names(struct import *im, const struct ioa_buf *raw)
{
	struct names ns = {0};
	size_t i, j, kept = 0;
	int rc = ioa_darshan_each_name(im->d, raw, collect_name, &ns);

	if (!rc) {
		if (ns.n)
			qsort(ns.v, ns.n, sizeof(*ns.v), by_id);
		for (i = 0; i < ns.n; i = j) {
			ns.v[kept] = ns.v[i];
			for (j = i + 1; j < ns.n && ns.v[j].id == ns.v[i].id; j++)
				if (!ns.v[kept].len && ns.v[j].len)
					ns.v[kept] = ns.v[j];
			kept++;
		}
		ioa_buf_reset(&im->b);
		rc = kept > UINT32_MAX ? fail(im->d, -EINVAL, "too many names")
				       : ioa_enc_names_header(&im->b, (uint32_t)kept);
	}
	for (i = 0; i < kept && !rc; i++)
		rc = ioa_enc_name(&im->b, ns.v[i].id, ns.v[i].name, ns.v[i].len);
	rc = rc ? rc : ioa_logw_add(&im->w, IOA_REGION_NAMES, im->b.data, im->b.len);
	free(ns.v);
	return rc;
}

/* The mount table: "type\tpath" lines, in darshan-parser's order (the longest path first). */
struct mount_ref {
	const char *path, *type;
	size_t path_len, type_len, order;
};

static int by_path_length(const void *a, const void *b)
{
	const struct mount_ref *x = a, *y = b;

	if (x->path_len != y->path_len)
		return x->path_len > y->path_len ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int import_mounts(struct import *im, const char *text, size_t len)
{
	const char *end = text + len;
	struct mount_ref *v = NULL;
	size_t n = 0, alloc = 0;
	int rc = 0;

	while (text < end && !rc) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		const char *line_end = nl ? nl : end;
		const char *tab = memchr(text, '\t', (size_t)(line_end - text));

		if (tab && tab > text && line_end > tab + 1) {
			if (n >= JOB_RECORD_SIZE) {
				rc = fail(im->d, -EINVAL,
					  "job region: more mounts than it can hold");
				break;
			}
			if (n == alloc) {
				void *grown =
					realloc(v, (alloc = alloc ? 2 * alloc : 32) * sizeof(*v));

				if (!grown) {
					rc = -ENOMEM;
					break;
				}
				v = grown;
			}
			v[n] = (struct mount_ref){tab + 1, text, (size_t)(line_end - tab - 1),
						  (size_t)(tab - text), n};
			n++;
		}
		text = line_end + (nl != NULL);
	}
	if (!rc) {
		if (n)
			qsort(v, n, sizeof(*v), by_path_length);
		ioa_buf_reset(&im->b);
		rc = n > UINT32_MAX ? -EINVAL : ioa_enc_u32(&im->b, (uint32_t)n);
	}
	for (size_t i = 0; i < n && !rc; i++) {
		rc = ioa_enc_bytes(&im->b, v[i].path, v[i].path_len);
		rc = rc ? rc : ioa_enc_bytes(&im->b, v[i].type, v[i].type_len);
	}
	free(v);
	return rc ? rc : ioa_logw_add(&im->w, IOA_REGION_MOUNTS, im->b.data, im->b.len);
}

static uint64_t host_hash(const char *host, size_t len)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)host[i]) * 1099511628211ull;
	return h;
}

/* The index of a host in the segments region's table, added when new (a hash table). */
static int segment_host(struct import *im, const char *host, uint32_t *index)
{
	size_t len = strlen(host), mask, i;
	int rc;

	if (im->nhosts + 1 > im->host_cap / 2) {
		size_t cap = im->host_cap ? 2 * im->host_cap : 64;
		uint32_t *slots = calloc(cap, sizeof(*slots));
		size_t *at = realloc(im->host_at, cap / 2 * sizeof(*at));

		if (!slots || !at) {
			free(slots);
			if (at)
				im->host_at = at;
			return -ENOMEM;
		}
		im->host_at = at;
		for (uint32_t h = 0; h < im->nhosts; h++) {
			const unsigned char *e = (const unsigned char *)im->hosts.data + at[h];

			for (i = host_hash((const char *)e + 4, ioa_get_u32(e)) & (cap - 1);
			     slots[i]; i = (i + 1) & (cap - 1))
				;
			slots[i] = h + 1;
		}
		free(im->host_slots);
		im->host_slots = slots;
		im->host_cap = cap;
	}
	mask = im->host_cap - 1;
	for (i = host_hash(host, len) & mask; im->host_slots[i]; i = (i + 1) & mask) {
		uint32_t h = im->host_slots[i] - 1;
		const unsigned char *e = (const unsigned char *)im->hosts.data + im->host_at[h];

		if (ioa_get_u32(e) == len && !memcmp(e + 4, host, len)) {
			*index = h;
			return 0;
		}
	}
	im->host_at[im->nhosts] = im->hosts.len;
	rc = ioa_enc_bytes(&im->hosts, host, len);
	if (rc)
		return rc;
	im->host_slots[i] = im->nhosts + 1;
	*index = im->nhosts++;
	return 0;
}

static int keep_segment(const struct ioa_darshan_segment *sg, void *arg)
{
	struct import *im = arg;
	unsigned char head[2] = {(unsigned char)im->segment_module, (unsigned char)sg->write};
	uint32_t host;
	int rc = segment_host(im, sg->hostname, &host);

	if (!rc &&
	    (sg->rank < -1 || sg->rank > INT32_MAX || !isfinite(sg->start) || !isfinite(sg->end)))
		rc = fail(im->d, -EINVAL, "DXT segment of rank %lld is malformed",
			  (long long)sg->rank);
	rc = rc ? rc : ioa_buf_add(&im->segments, head, 2);
	rc = rc ? rc : ioa_enc_u32(&im->segments, host);
	rc = rc ? rc : ioa_enc_u32(&im->segments, (uint32_t)(int32_t)sg->rank);
	rc = rc ? rc : ioa_enc_u64(&im->segments, sg->record_id);
	rc = rc ? rc : ioa_enc_u64(&im->segments, (uint64_t)sg->offset);
	rc = rc ? rc : ioa_enc_u64(&im->segments, (uint64_t)sg->length);
	rc = rc ? rc : ioa_enc_u64(&im->segments, ioa_f64_bits(sg->start));
	rc = rc ? rc : ioa_enc_u64(&im->segments, ioa_f64_bits(sg->end));
	if (rc == -ENOBUFS)
		return fail(im->d, -EFBIG,
			    "more DXT segments than an import holds (%zu MiB of them)",
			    im->segments.cap >> 20);
	if (!rc)
		im->nsegments++;
	return rc;
}

/* The segments region: hosts, then segments (ioa_logr_each_segment). */
static int import_segments(struct import *im)
{
	int rc;

	if (!im->nsegments)
		return 0;
	ioa_buf_reset(&im->b);
	rc = ioa_enc_u32(&im->b, im->nhosts);
	rc = rc ? rc : ioa_buf_add(&im->b, im->hosts.data, im->hosts.len);
	rc = rc ? rc : ioa_enc_u64(&im->b, im->nsegments);
	rc = rc ? rc : ioa_buf_add(&im->b, im->segments.data, im->segments.len);
	return rc ? rc : ioa_logw_add(&im->w, IOA_REGION_SEGMENTS, im->b.data, im->b.len);
}

static int import_records(struct import *im)
{
	int rc = 0;

	for (unsigned m = 0; m < IOA_MOD_COUNT && !rc; m++) {
		struct recs *r = &im->recs[m];
		struct ioa_rec_ref *refs;

		if (!r->n)
			continue;
		refs = calloc(r->n, sizeof(*refs));
		if (!refs)
			return -ENOMEM;
		for (size_t i = 0; i < r->n; i++) {
			refs[i].id = r->v[i].id;
			refs[i].rank = r->v[i].rank;
			refs[i].flags = r->v[i].flags;
			refs[i].counters = r->v[i].counters;
			refs[i].fcounters = r->v[i].fcounters;
		}
		ioa_buf_reset(&im->b);
		rc = ioa_enc_module_region(&im->b, (enum ioa_module)m, refs, (uint32_t)r->n, 0,
					   NULL, NULL);
		rc = rc ? rc
			: ioa_logw_add(&im->w, ioa_modules[m].region_type, im->b.data, im->b.len);
		free(refs);
	}
	return rc;
}

/* Appends a module's name to a comma-separated list. */
static void list_add(char *list, size_t size, const char *name)
{
	size_t used = strlen(list);

	snprintf(list + used, size - used, "%s%s", used ? "," : "", name);
}

/* A region inflated within what is left of the import's budget. */
static int import_region(struct import *im, const struct ioa_darshan_map *m, struct ioa_buf *raw)
{
	uint64_t left = IMPORT_BUDGET - im->inflated;
	int rc;

	raw->cap = left < REGION_CAP ? (size_t)left : REGION_CAP;
	rc = ioa_darshan_region(im->d, m, raw);
	if (rc == -EFBIG)
		return fail(im->d, rc, "its regions inflate to more than %llu bytes in all",
			    (unsigned long long)IMPORT_BUDGET);
	im->inflated += raw->len;
	return rc;
}

static int import(struct import *im, int out_fd)
{
	struct ioa_darshan *d = im->d;
	struct ioa_buf raw = IOA_BUF_INIT(REGION_CAP), job_raw = IOA_BUF_INIT(JOB_RECORD_SIZE);
	struct ioa_darshan_job job;
	char left_out[512] = "", incomplete[512] = "";
	int rc;

	rc = ioa_darshan_region(d, &d->job, &job_raw);
	if (rc == -EFBIG)
		rc = fail(d, rc, "the job region inflates past Darshan's %d bytes",
			  JOB_RECORD_SIZE);
	rc = rc ? rc : ioa_darshan_job(d, &job_raw, &job);
	for (unsigned id = 0; id < d->nmods && !rc; id++) {
		enum ioa_darshan_kind kind = ioa_darshan_kind(d, id);

		if (d->partial & ((uint64_t)1 << id))
			list_add(incomplete, sizeof(incomplete), ioa_darshan_kind_name(kind));
		if (!d->mods[id].len)
			continue;
		if (kind == IOA_DK_DXT_POSIX || kind == IOA_DK_DXT_MPIIO) {
			im->segment_module =
				kind == IOA_DK_DXT_POSIX ? IOA_MOD_POSIX : IOA_MOD_MPIIO;
			rc = import_region(im, &d->mods[id], &raw);
			rc = rc ? rc : ioa_darshan_each_segment(d, id, &raw, keep_segment, im);
			continue;
		}
		if (!reads_kind(kind)) {
			list_add(left_out, sizeof(left_out), ioa_darshan_kind_name(kind));
			continue;
		}
		rc = import_region(im, &d->mods[id], &raw);
		rc = rc ? rc : ioa_darshan_each_record(d, id, &raw, keep_record, im);
	}
	rc = rc ? rc : import_job(im, &job, left_out, incomplete);
	rc = rc ? rc : import_mounts(im, job.mounts ? job.mounts : "", job.mounts_len);
	rc = rc ? rc : import_region(im, &d->names, &raw);
	rc = rc ? rc : import_names(im, &raw);
	rc = rc ? rc : import_records(im);
	rc = rc ? rc : import_segments(im);
	rc = rc ? rc : ioa_logw_write_fd(&im->w, out_fd, 0);
	ioa_buf_release(&raw);
	ioa_buf_release(&job_raw);
	return rc;
}

int ioa_darshan_import(int fd, int out_fd, char *error, size_t len)
{
	struct ioa_darshan d;
	struct import im;
	int rc;

	memset(&im, 0, sizeof(im));
	im.d = &d;
	ioa_buf_init(&im.b, REGION_CAP);
	ioa_buf_init(&im.hosts, (size_t)64 << 20);
	ioa_buf_init(&im.segments, (size_t)256 << 20);
	ioa_logw_init(&im.w, (size_t)1 << 30);
	rc = ioa_darshan_open(&d, fd);
	if (!rc)
		rc = import(&im, out_fd);
	if (rc && !d.error[0])
		fail(&d, rc, "%s", strerror(-rc));
	snprintf(error, len, "%s", rc ? d.error : "");
	for (unsigned m = 0; m < IOA_MOD_COUNT; m++)
		free(im.recs[m].v);
	ioa_buf_release(&im.b);
	ioa_buf_release(&im.hosts);
	ioa_buf_release(&im.segments);
	free(im.host_at);
	free(im.host_slots);
	ioa_logw_release(&im.w);
	return rc;
}

int ioa_logr_open_any(struct ioa_log_reader *r, const char *path)
{
	unsigned char head[16];
	char error[sizeof(r->error) - sizeof("Darshan log: ")];
	ssize_t n;
	int fd, mem, rc;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(r->error, sizeof(r->error), "%s", strerror(errno));
		return -errno;
	}
	do
		n = pread(fd, head, sizeof(head), 0);
	while (n < 0 && errno == EINTR);
	if (n < 0 || !ioa_darshan_sniff(head, (size_t)n))
		return ioa_logr_open_fd(r, fd);
	mem = memfd_create("ioatlas-darshan-import", MFD_CLOEXEC);
	if (mem < 0) {
		rc = -errno;
		close(fd);
		snprintf(r->error, sizeof(r->error), "cannot import the Darshan log: %s",
			 strerror(-rc));
		return rc;
	}
	rc = ioa_darshan_import(fd, mem, error, sizeof(error));
	close(fd);
	if (rc) {
		close(mem);
		snprintf(r->error, sizeof(r->error), "Darshan log: %s", error);
		return rc;
	}
	return ioa_logr_open_fd(r, mem);
}

/* ------------------------------------------------------------ export */

#define JOB_FIXED_341 (7 * 8)
#define EXE_MAX	      (JOB_RECORD_SIZE - JOB_FIXED_341 - METADATA_LEN - 1)
/* What an export writes: each module at the version and id of Darshan 3.5's format 3.41. */
static const struct {
	enum ioa_module module;
	unsigned id;
	enum ioa_darshan_kind kind;
	uint32_t version;
} export_mods[] = {
	{IOA_MOD_POSIX, 1, IOA_DK_POSIX, 4},
	{IOA_MOD_MPIIO, 2, IOA_DK_MPIIO, 3},
	{IOA_MOD_H5F, 3, IOA_DK_H5F, 3},
	{IOA_MOD_H5D, 4, IOA_DK_H5D, 2},
	{IOA_MOD_PNETCDF_FILE, 5, IOA_DK_PNETCDF_FILE, 3},
	{IOA_MOD_PNETCDF_VAR, 6, IOA_DK_PNETCDF_VAR, 1},
	{IOA_MOD_LUSTRE, 8, IOA_DK_LUSTRE, 2},
	{IOA_MOD_STDIO, 9, IOA_DK_STDIO, 2},
};

struct export_name {
	uint64_t id;	 /* the log's */
	uint64_t new_id; /* the export's: the anonymized name's own id */
	struct ioa_buf name;
	int used; /* a record of the export names it */
};

struct export_mount {
	size_t off, len; /* the entry in mounts */
	size_t path_off; /* its mount point there, as written (anonymized or not) */
	uint32_t path_len;
	size_t index; /* the log's order */
	int holds;    /* a file of the log is under it */
	int kept;     /* it fits in Darshan's room */
};

struct export
{
	struct ioa_log_reader *r;
	const struct ioa_anon *anon;
	/* The job's entries, as the log has them (NUL-terminated copies). */
	struct ioa_buf uid, user, jobid, start, end, nprocs, exe, args, version;
	struct export_name *names;
	size_t nnames, names_alloc;
	struct ioa_buf mounts;	    /* "\n<type>\t<path>" entries, as Darshan writes them */
	struct export_mount *ments; /* each entry of mounts, to choose those that fit */
	size_t nments, ments_alloc;
	struct recs recs[IOA_MOD_COUNT];
	uint64_t partial; /* bits of the modules whose folded records were left out */
};

static struct ioa_buf *job_field(struct export *e, uint16_t key)
{
	switch (key) {
	case IOA_JOB_UID:
		return &e->uid;
	case IOA_JOB_USER:
		return &e->user;
	case IOA_JOB_JOBID:
		return &e->jobid;
	case IOA_JOB_START_NS:
		return &e->start;
	case IOA_JOB_END_NS:
		return &e->end;
	case IOA_JOB_NPROCS:
		return &e->nprocs;
	case IOA_JOB_EXE:
		return &e->exe;
	case IOA_JOB_ARGS:
		return &e->args;
	case IOA_JOB_VERSION:
		return &e->version;
	default:
		return NULL;
	}
}

static int export_job_entry(uint16_t key, const unsigned char *value, uint32_t len, void *arg)
{
	struct ioa_buf *b = job_field(arg, key);

	if (!b)
		return 0;
	ioa_buf_reset(b);
	return ioa_buf_add(b, value, len);
}

static int export_name(uint64_t id, const unsigned char *name, uint32_t len, void *arg)
{
	struct export *e = arg;
	struct export_name *n;
	int rc;

	if (e->nnames == e->names_alloc) {
		size_t alloc = e->names_alloc ? 2 * e->names_alloc : 256;
		void *v = realloc(e->names, alloc * sizeof(*e->names));

		if (!v)
			return -ENOMEM;
		e->names = v;
		e->names_alloc = alloc;
	}
	n = &e->names[e->nnames];
	n->id = n->new_id = id;
	ioa_buf_init(&n->name, (size_t)1 << 20);
	/* Darshan's names end at a NUL: a name cannot hold one (a path cannot either). */
	if (memchr(name, '\0', len))
		len = (uint32_t)strnlen((const char *)name, len);
	rc = e->anon ? ioa_anon_path(e->anon, name, len, &n->name)
		     : ioa_buf_add(&n->name, name, len);
	if (rc) {
		ioa_buf_release(&n->name);
		return rc;
	}
	if (e->anon)
		n->new_id = ioa_name_id(n->name.data, n->name.len);
	e->nnames++;
	return 0;
}

static int export_mount(const unsigned char *path, uint32_t path_len, const unsigned char *type,
			uint32_t type_len, void *arg)
{
	struct export *e = arg;
	int rc = ioa_buf_addstr(&e->mounts, "\n");

	/* A mount entry is two words for darshan-parser: no blanks in either. */
	if (memchr(type, ' ', type_len) || memchr(type, '\t', type_len) ||
	    memchr(type, '\n', type_len) || memchr(type, '\0', type_len) ||
	    memchr(path, ' ', path_len) || memchr(path, '\t', path_len) ||
	    memchr(path, '\n', path_len) || memchr(path, '\0', path_len)) {
		e->mounts.len--;
		return 0;
	}
	if (!rc && e->nments == e->ments_alloc) {
		size_t alloc = e->ments_alloc ? 2 * e->ments_alloc : 32;
		struct export_mount *grown = realloc(e->ments, alloc * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		e->ments = grown;
		e->ments_alloc = alloc;
	}
	rc = rc ? rc : ioa_buf_add(&e->mounts, type, type_len);
	rc = rc ? rc : ioa_buf_addstr(&e->mounts, "\t");
	if (!rc) {
		struct export_mount *m = &e->ments[e->nments++];

		m->off = e->mounts.len - type_len - 2;
		m->path_off = e->mounts.len;
		m->index = e->nments - 1;
		m->holds = m->kept = 0;
	}
	rc = rc	       ? rc
	     : e->anon ? ioa_anon_path(e->anon, path, path_len, &e->mounts)
		       : ioa_buf_add(&e->mounts, path, path_len);
	if (!rc) {
		struct export_mount *m = &e->ments[e->nments - 1];

		m->len = e->mounts.len - m->off;
		m->path_len = (uint32_t)(e->mounts.len - m->path_off);
	}
	return rc;
}

/*
 * Which mounts go into Darshan's room when not all fit: those that hold a
 * file of the log first (darshan-parser finds each file's there), the
 * longest first, then in the log's order.
 */
static int mount_priority(const void *a, const void *b)
{
	const struct export_mount *x = a, *y = b;

	if (x->holds != y->holds)
		return y->holds - x->holds;
	if (x->path_len != y->path_len)
		return x->path_len > y->path_len ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* The order they are written in, as Darshan writes them: the longest first, then the log's order.
 */
static int mount_order(const void *a, const void *b)
{
	const struct export_mount *x = a, *y = b;

	if (x->kept != y->kept)
		return y->kept - x->kept;
	if (x->path_len != y->path_len)
		return x->path_len > y->path_len ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Chooses the mounts that fit in room bytes, and puts them first in writing order. */
static void choose_mounts(struct export *e, size_t room)
{
	for (size_t i = 0; i < e->nments; i++)
		for (size_t k = 0; k < e->nnames && !e->ments[i].holds; k++)
			e->ments[i].holds = ioa_mount_holds(
				(const unsigned char *)e->mounts.data + e->ments[i].path_off,
				e->ments[i].path_len, (const unsigned char *)e->names[k].name.data,
				(uint32_t)e->names[k].name.len);
	if (!e->nments)
		return;
	qsort(e->ments, e->nments, sizeof(*e->ments), mount_priority);
	for (size_t i = 0; i < e->nments; i++) {
		struct export_mount *m = &e->ments[i];
		int again = 0;

		/* A file system mounted twice at one place is one entry. */
		for (size_t k = 0; k < i && !again; k++)
			again = e->ments[k].kept && e->ments[k].len == m->len &&
				!memcmp(e->mounts.data + e->ments[k].off, e->mounts.data + m->off,
					m->len);
		if (!again && m->len <= room) {
			m->kept = 1;
			room -= m->len;
		}
	}
	qsort(e->ments, e->nments, sizeof(*e->ments), mount_order);
}

static int export_record(const struct ioa_log_record *rec, void *arg)
{
	struct export *e = arg;

	/* The overflow record names no file: Darshan's way to say so is "incomplete data". */
	if (rec->flags & IOA_REC_FOLDED) {
		for (size_t i = 0; i < COUNT(export_mods); i++)
			if (export_mods[i].module == rec->module)
				e->partial |= (uint64_t)1 << export_mods[i].id;
		return 0;
	}
	return recs_add(&e->recs[rec->module], rec);
}

static int name_cmp(const void *a, const void *b)
{
	const struct export_name *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The name of a record id (names sorted by id once read), or NULL. */
static struct export_name *name_by_id(const struct export *e, uint64_t id)
{
	struct export_name key = {.id = id};

	return e->nnames ? bsearch(&key, e->names, e->nnames, sizeof(*e->names), name_cmp) : NULL;
}

static int64_t number_of(const struct ioa_buf *b)
{
	return b->len ? strtoll(b->data, NULL, 10) : 0;
}

/* Compresses raw into out as one zlib stream; its place in the file goes to *m. */
static int put_region(struct ioa_buf *out, const struct ioa_buf *raw, struct ioa_darshan_map *m)
{
	uLongf len = compressBound((uLong)raw->len);
	int rc = ioa_buf_grow(out, (size_t)len);

	if (rc)
		return rc;
	if (compress2((Bytef *)out->data + out->len, &len, (const Bytef *)raw->data,
		      (uLong)raw->len, Z_DEFAULT_COMPRESSION) != Z_OK)
		return -ENOMEM;
	m->off = out->len;
	m->len = len;
	out->len += len;
	out->data[out->len] = '\0';
	return 0;
}

static int put64(struct ioa_buf *b, uint64_t v)
{
	unsigned char bytes[8];

	ioa_put_u64(bytes, v);
	return ioa_buf_add(b, bytes, 8);
}

/* The job region: the job, metadata, then the command line and mounts, NUL-terminated. */
static int export_job(struct export *e, struct ioa_buf *raw)
{
	int64_t start = number_of(&e->start), end = number_of(&e->end), uid = number_of(&e->uid);
	char meta[METADATA_LEN];
	size_t cmd_start;
	int rc;

	if (e->anon)
		uid = (int64_t)(ioa_anon_u64(e->anon, "uid", e->uid.data, e->uid.len) >> 33);
	ioa_buf_reset(raw);
	rc = put64(raw, (uint64_t)uid);
	rc = rc ? rc : put64(raw, (uint64_t)(start / 1000000000));
	rc = rc ? rc : put64(raw, (uint64_t)(start % 1000000000));
	rc = rc ? rc : put64(raw, (uint64_t)(end / 1000000000));
	rc = rc ? rc : put64(raw, (uint64_t)(end % 1000000000));
	rc = rc ? rc : put64(raw, (uint64_t)number_of(&e->nprocs));
	/* A job id that is not a number (no scheduler, a step "12.3") keeps its number part. */
	rc = rc ? rc
		: put64(raw,
			e->anon ? ioa_anon_u64(e->anon, "jobid", e->jobid.data, e->jobid.len) >> 33
				: (uint64_t)number_of(&e->jobid));
	memset(meta, 0, sizeof(meta));
	snprintf(meta, sizeof(meta), "lib_ver=ioatlas %.64s\n",
		 e->version.len ? e->version.data : "");
	rc = rc ? rc : ioa_buf_add(raw, meta, sizeof(meta));
	cmd_start = raw->len;
	if (!rc && e->args.len) {
		const char *p = e->args.data, *end_args = p + e->args.len;
		int first = 1;

		/* The arguments, NUL-separated in ours, space-separated in Darshan's. */
		while (p < end_args && !rc) {
			const char *nul = memchr(p, '\0', (size_t)(end_args - p));
			size_t n = (size_t)((nul ? nul : end_args) - p);

			if (n) {
				if (!first)
					rc = ioa_buf_addstr(raw, " ");
				if (!rc && e->anon && first)
					rc = ioa_anon_path(e->anon, p, n, raw);
				else if (!rc && e->anon) {
					char token[IOA_ANON_TOKEN + 1];

					ioa_anon_token(e->anon, "arg", p, n, token);
					rc = ioa_buf_addstr(raw, token);
				} else if (!rc) {
					/* A line break would end Darshan's command line: a blank
					 * instead. */
					size_t at = raw->len;

					rc = ioa_buf_add(raw, p, n);
					for (size_t c = at; !rc && c < raw->len; c++)
						if (raw->data[c] == '\n' || raw->data[c] == '\0')
							raw->data[c] = ' ';
				}
				first = 0;
			}
			if (!nul)
				break;
			p = nul + 1;
		}
	} else if (!rc) {
		size_t at = raw->len;

		rc = e->anon ? ioa_anon_path(e->anon, e->exe.data, e->exe.len, raw)
			     : ioa_buf_add(raw, e->exe.data, e->exe.len);
		for (size_t c = at; !rc && c < raw->len; c++)
			if (raw->data[c] == '\n' || raw->data[c] == '\0')
				raw->data[c] = ' ';
	}
	/* Darshan's room: the command line cut first, then the mounts that do not fit. */
	if (!rc && raw->len - cmd_start > EXE_MAX / 2)
		raw->len = cmd_start + EXE_MAX / 2;
	if (!rc)
		choose_mounts(e, EXE_MAX - (raw->len - cmd_start));
	for (size_t i = 0; !rc && i < e->nments && e->ments[i].kept; i++)
		rc = ioa_buf_add(raw, e->mounts.data + e->ments[i].off, e->ments[i].len);
	return rc ? rc : ioa_buf_add(raw, "", 1);
}

/* The names of the records, once each. */
static int export_names(struct export *e, struct ioa_buf *raw)
{
	int rc = 0;

	ioa_buf_reset(raw);
	for (unsigned m = 0; m < IOA_MOD_COUNT; m++)
		for (size_t i = 0; i < e->recs[m].n; i++) {
			struct export_name *n = name_by_id(e, e->recs[m].v[i].id);

			if (n)
				n->used = 1;
		}
	for (size_t i = 0; i < e->nnames && !rc; i++) {
		if (!e->names[i].used)
			continue;
		rc = put64(raw, e->names[i].new_id);
		rc = rc ? rc : ioa_buf_add(raw, e->names[i].name.data, e->names[i].name.len);
		rc = rc ? rc : ioa_buf_add(raw, "", 1);
	}
	return rc;
}

/* A record id as the export writes it: renumbered with its name, keyed when anonymized. */
static uint64_t export_id(const struct export *e, uint64_t id)
{
	const struct export_name *n = name_by_id(e, id);

	/* An id that no name stands for is a hash of one: keyed too when anonymized. */
	return n ? n->new_id : e->anon ? ioa_anon_u64(e->anon, "id", &id, sizeof(id)) : id;
}

/*
 * A Lustre record at version 2: the components kept, then the OSTs of
 * their stripes (-1 for those an import left out).
 */
static int export_lustre(const struct ioa_log_record *rec, struct ioa_buf *raw)
{
	const int64_t *c = rec->counters;
	int64_t ncomps = c[LUSTRE_NUM_COMPONENTS], nstripes = 0;
	int rc = 0;

	if (ncomps < 0)
		ncomps = 0;
	if (ncomps > IOA_LUSTRE_COMPS)
		ncomps = IOA_LUSTRE_COMPS;
	for (int64_t n = 0; n < ncomps; n++) {
		int64_t count = c[LUSTRE_COMP1_STRIPE_COUNT + n * IOA_LUSTRE_COMP_STRIDE];

		if (count < 0 || count > 65535) /* Lustre's own bound on a stripe count */
			return -EINVAL;
		nstripes += count;
	}
	rc = put64(raw, (uint64_t)ncomps);
	rc = rc ? rc : put64(raw, (uint64_t)nstripes);
	for (int64_t n = 0; n < ncomps && !rc; n++) {
		const int64_t *comp = c + LUSTRE_COMP1_STRIPE_SIZE + n * IOA_LUSTRE_COMP_STRIDE;
		unsigned char pool[16];

		for (unsigned k = 0; k < 7 && !rc; k++)
			rc = put64(raw, (uint64_t)comp[k]);
		IOA_LUSTRE_POOL_GET(comp + 7, pool);
		rc = rc ? rc : ioa_buf_add(raw, pool, sizeof(pool));
	}
	for (int64_t i = 0; i < nstripes && !rc; i++)
		rc = put64(raw,
			   i < IOA_LUSTRE_OSTS ? (uint64_t)c[LUSTRE_OST_ID_0 + i] : UINT64_MAX);
	return rc;
}

/* A module's records in Darshan's layout of its current version. */
static int export_module(struct export *e, enum ioa_module module, const struct layout *l,
			 struct ioa_buf *raw)
{
	int rc = 0;

	ioa_buf_reset(raw);
	for (size_t i = 0; i < e->recs[module].n && !rc; i++) {
		const struct ioa_log_record *rec = &e->recs[module].v[i];

		rc = put64(raw, export_id(e, rec->id));
		rc = rc ? rc : put64(raw, (uint64_t)(int64_t)rec->rank);
		if (module == IOA_MOD_LUSTRE) {
			rc = rc ? rc : export_lustre(rec, raw);
			continue;
		}
		for (unsigned r = 0; r < l->nint_runs && !rc; r++)
			for (unsigned k = 0; k < l->ints[r].count && !rc; k++) {
				int c = l->ints[r].first + (int)k;
				int64_t v = rec->counters[c];

				if (ioa_counter_is_record_id(
					    ioa_modules[module].counter_names[c]) &&
				    v)
					v = (int64_t)export_id(e, (uint64_t)v);
				rc = put64(raw, (uint64_t)v);
			}
		for (unsigned r = 0; r < l->nfloat_runs && !rc; r++)
			for (unsigned k = 0; k < l->floats[r].count && !rc; k++)
				rc = put64(
					raw,
					ioa_f64_bits(rec->fcounters[l->floats[r].first + (int)k]));
	}
	return rc;
}

static int export_read(struct export *e)
{
	struct ioa_log_reader *r = e->r;
	struct ioa_buf raw = IOA_BUF_INIT(REGION_CAP);
	int rc = 0;

	for (uint32_t i = 0; i < r->region_count && !rc; i++) {
		uint32_t type = r->regions[i].type;
		const struct ioa_module_desc *mod = ioa_module_by_region(type);

		if (type != IOA_REGION_JOB && type != IOA_REGION_NAMES &&
		    type != IOA_REGION_MOUNTS && !mod)
			continue;
		rc = ioa_logr_read_region(r, i, &raw);
		if (rc)
			break;
		if (type == IOA_REGION_JOB)
			rc = ioa_logr_each_job_entry(r, &raw, export_job_entry, e);
		else if (type == IOA_REGION_NAMES)
			rc = ioa_logr_each_name(r, &raw, export_name, e);
		else if (type == IOA_REGION_MOUNTS)
			rc = ioa_logr_each_mount(r, &raw, export_mount, e);
		else
			rc = ioa_logr_each_record(r, i, &raw, export_record, e);
	}
	ioa_buf_release(&raw);
	return rc;
}

int ioa_darshan_export(struct ioa_log_reader *r, const struct ioa_anon *anon, struct ioa_buf *out,
		       char *error, size_t len)
{
	struct ioa_darshan_map names, map[IOA_DARSHAN_MAX_MODS];
	uint32_t ver[IOA_DARSHAN_MAX_MODS];
	struct ioa_buf raw = IOA_BUF_INIT(REGION_CAP);
	struct export e;
	unsigned char *h;
	int rc;

	memset(&e, 0, sizeof(e));
	memset(map, 0, sizeof(map));
	memset(ver, 0, sizeof(ver));
	e.r = r;
	e.anon = anon;
	ioa_buf_init(&e.mounts, (size_t)1 << 20);
	for (struct ioa_buf *b = &e.uid; b <= &e.version; b++)
		ioa_buf_init(b, (size_t)1 << 20);
	ioa_buf_reset(out);
	rc = export_read(&e);
	if (rc == -EFBIG)
		snprintf(error, len, "more than %zu records in a module: more than an export holds",
			 IMPORT_RECORDS_MAX);
	else if (rc)
		snprintf(error, len, "%s", r->error[0] ? r->error : strerror(-rc));
	else
		error[0] = '\0';
	if (!rc && e.nnames)
		qsort(e.names, e.nnames, sizeof(*e.names), name_cmp);
	/* Header first, filled in at the end. */
	rc = rc ? rc : ioa_buf_grow(out, 1328);
	if (!rc) {
		memset(out->data, 0, 1328);
		out->len = 1328;
	}
	rc = rc ? rc : export_job(&e, &raw);
	if (!rc) {
		struct ioa_darshan_map job;

		rc = put_region(out, &raw, &job);
	}
	rc = rc ? rc : export_names(&e, &raw);
	rc = rc ? rc : put_region(out, &raw, &names);
	for (size_t i = 0; i < COUNT(export_mods) && !rc; i++) {
		if (!e.recs[export_mods[i].module].n)
			continue;
		rc = export_module(&e, export_mods[i].module,
				   layout_of(export_mods[i].kind, export_mods[i].version), &raw);
		rc = rc ? rc : put_region(out, &raw, &map[export_mods[i].id]);
		ver[export_mods[i].id] = export_mods[i].version;
	}
	if (!rc) {
		h = (unsigned char *)out->data;
		memcpy(h, "3.41", 4);
		ioa_put_u64(h + 8, DARSHAN_MAGIC);
		h[16] = IOA_DARSHAN_ZLIB;
		ioa_put_u64(h + 24, e.partial);
		ioa_put_u64(h + 32, names.off);
		ioa_put_u64(h + 40, names.len);
		for (unsigned i = 0; i < IOA_DARSHAN_MAX_MODS; i++) {
			ioa_put_u64(h + 48 + 16 * i, map[i].off);
			ioa_put_u64(h + 56 + 16 * i, map[i].len);
			ioa_put_u32(h + 48 + 16 * IOA_DARSHAN_MAX_MODS + 4 * i, ver[i]);
		}
	}
	if (rc && !error[0])
		snprintf(error, len, "%s", strerror(-rc));
	ioa_buf_release(&raw);
	ioa_buf_release(&e.mounts);
	free(e.ments);
	for (struct ioa_buf *b = &e.uid; b <= &e.version; b++)
		ioa_buf_release(b);
	for (size_t i = 0; i < e.nnames; i++)
		ioa_buf_release(&e.names[i].name);
	free(e.names);
	for (unsigned m = 0; m < IOA_MOD_COUNT; m++)
		free(e.recs[m].v);
	return rc;
}
