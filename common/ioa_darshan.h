/*
 * ioa_darshan — reads Darshan logs, and turns one into an ioatlas log, so
 * that every tool that takes a log takes a Darshan log as well
 * (docs/darshan.md).
 *
 * Formats 3.00 to 3.41 (Darshan 3.0 to 3.5), written on either byte order,
 * with zlib, bzip2 or no compression.  The counter modules (POSIX, MPI-IO,
 * STDIO) of every module version those releases wrote are brought up to
 * the current version's counters the way darshan-parser does (counters an
 * old version lacks read -1), and land in ioatlas's tables by name.
 *
 * Darshan logs are untrusted input like ours: every offset and length is
 * checked against the file, decompression stops at a cap, and a malformed
 * log gets an error that names the problem (d->error), never a crash.
 *
 * Not part of the runtime (it links bzip2); programs that read logs open
 * them with ioa_logr_open_any().
 */
#ifndef IOA_DARSHAN_H
#define IOA_DARSHAN_H

#include <stddef.h>
#include <stdint.h>

#include "ioa_buf.h"
#include "ioa_logr.h"

#define IOA_DARSHAN_MAX_MODS 64

/* Darshan's modules, whatever id a format gave them. */
enum ioa_darshan_kind {
	IOA_DK_UNKNOWN,
	IOA_DK_POSIX,
	IOA_DK_MPIIO,
	IOA_DK_STDIO,
	IOA_DK_HDF5, /* 3.0 and 3.1's single HDF5 module */
	IOA_DK_H5F,
	IOA_DK_H5D,
	IOA_DK_PNETCDF, /* before 3.4: files only */
	IOA_DK_PNETCDF_FILE,
	IOA_DK_PNETCDF_VAR,
	IOA_DK_BGQ,
	IOA_DK_LUSTRE,
	IOA_DK_DXT_POSIX,
	IOA_DK_DXT_MPIIO,
	IOA_DK_MDHIM,
	IOA_DK_APXC,
	IOA_DK_APMPI,
	IOA_DK_HEATMAP,
	IOA_DK_DFS,
	IOA_DK_DAOS,
};

struct ioa_darshan_map {
	uint64_t off;
	uint64_t len;
};

struct ioa_darshan {
	int fd;
	uint64_t file_size;
	char version[9];  /* "3.41" */
	int format;	  /* 300, 310, 320, 321 or 341 */
	int swap;	  /* written on the other byte order */
	unsigned comp;	  /* IOA_DARSHAN_ZLIB, _BZIP2, _NONE */
	uint64_t partial; /* bit per module id: the module ran out of memory */
	unsigned nmods;
	struct ioa_darshan_map job;
	struct ioa_darshan_map names;
	struct ioa_darshan_map mods[IOA_DARSHAN_MAX_MODS];
	uint32_t mod_ver[IOA_DARSHAN_MAX_MODS];
	uint64_t skipped; /* POSIX version 1 records with stdio counters, left out */
	uint64_t trimmed; /* LUSTRE records with more components or OSTs than kept */
	char error[256];
};

#define IOA_DARSHAN_ZLIB  0u
#define IOA_DARSHAN_BZIP2 1u
#define IOA_DARSHAN_NONE  2u

/* Whether the first len bytes of a file are a Darshan log's (its version and magic number). */
int ioa_darshan_sniff(const unsigned char *head, size_t len);

/*
 * Reads and checks the header of the Darshan log open on fd (not taken
 * over: the caller closes it).  0, or a negative errno with d->error set
 * (-EINVAL: not a Darshan log this reader knows, or a malformed one).
 */
int ioa_darshan_open(struct ioa_darshan *d, int fd);

/* The module behind an id of this log's format, and its name as darshan-parser prints it. */
enum ioa_darshan_kind ioa_darshan_kind(const struct ioa_darshan *d, unsigned id);
const char *ioa_darshan_kind_name(enum ioa_darshan_kind kind);

/*
 * A region's bytes, decompressed into raw (reset first); raw's cap bounds
 * the memory (-EFBIG past it).  0, -EINVAL (corrupt), -EIO, -ENOMEM.
 */
int ioa_darshan_region(struct ioa_darshan *d, const struct ioa_darshan_map *m, struct ioa_buf *raw);

/* The job region, decoded.  Text fields point into the raw region and are not NUL-terminated. */
struct ioa_darshan_job {
	int64_t uid;
	int64_t nprocs;
	int64_t jobid;
	int64_t start_sec, start_nsec; /* nsec: 0 before format 3.41 */
	int64_t end_sec, end_nsec;
	const char *metadata; /* "key=value\n" lines */
	size_t metadata_len;
	const char *exe; /* the command line */
	size_t exe_len;
	const char *mounts; /* "type\tmount point\n" lines */
	size_t mounts_len;
};

int ioa_darshan_job(struct ioa_darshan *d, const struct ioa_buf *raw, struct ioa_darshan_job *job);

/* The names region: record id and name, for each record Darshan named. */
int ioa_darshan_each_name(struct ioa_darshan *d, const struct ioa_buf *raw,
			  int (*fn)(uint64_t id, const unsigned char *name, uint32_t len,
				    void *arg),
			  void *arg);

/*
 * The records of a counter module (POSIX, MPI-IO, STDIO) in id's region,
 * as ioatlas records: each Darshan counter in ioatlas's counter of the same
 * name, counters the module version lacks at -1 (POSIX_RENAMED_FROM at 0,
 * as darshan-parser shows them), ioatlas's own counters at -1: not
 * recorded.  -ENOTSUP for other modules and for versions this reader does
 * not know.
 */
int ioa_darshan_each_record(struct ioa_darshan *d, unsigned id, const struct ioa_buf *raw,
			    int (*fn)(const struct ioa_log_record *rec, void *arg), void *arg);

/*
 * Darshan's order of a module's counters (floats: its float counters), as
 * indexes into ioatlas's table, into order (max entries): the order
 * darshan-parser prints them in.  Returns how many (0: a module Darshan
 * lacks); ioatlas's own counters are not among them.
 */
int ioa_darshan_order(enum ioa_module module, int floats, int *order, unsigned max);

/* One DXT segment: an operation on a file, times from the job's start. */
struct ioa_darshan_segment {
	uint64_t record_id;
	int64_t rank;
	const char *hostname; /* NUL-terminated, in the region */
	int write;
	int64_t offset;
	int64_t length;
	double start;
	double end;
};

/* The segments of a DXT_POSIX or DXT_MPIIO region, file by file, in the log's order. */
int ioa_darshan_each_segment(struct ioa_darshan *d, unsigned id, const struct ioa_buf *raw,
			     int (*fn)(const struct ioa_darshan_segment *s, void *arg), void *arg);

/*
 * Turns the Darshan log open on fd into an ioatlas log written to out_fd
 * (docs/darshan.md says what lands where).  0, or a negative errno with
 * error (size len) saying why.
 */
int ioa_darshan_import(int fd, int out_fd, char *error, size_t len);

/*
 * Writes the log open in r as a Darshan log of format 3.41 (zlib) into out
 * (reset first): its job, command line, mounts, names and POSIX, MPI-IO and
 * STDIO records (POSIX version 4, MPI-IO 3, STDIO 2), which darshan-parser
 * and PyDarshan read.  ioatlas's own counters have no place there; the
 * overflow record of files past the runtime's budget is left out and its
 * module marked "incomplete data".  With anon, every path component, the
 * uid, the executable and each argument are replaced by keyed tokens
 * (ioa_anon.h) and record ids by the anonymized names' own.  0, or a
 * negative errno with error (size len) saying why.
 */
struct ioa_anon;
int ioa_darshan_export(struct ioa_log_reader *r, const struct ioa_anon *anon, struct ioa_buf *out,
		       char *error, size_t len);

/*
 * Opens a log of either format for reading: an ioatlas log as
 * ioa_logr_open() does, a Darshan log through ioa_darshan_import() into an
 * anonymous memory file.
 */
int ioa_logr_open_any(struct ioa_log_reader *r, const char *path);

#endif
