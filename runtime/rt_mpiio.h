/*
 * rt_mpiio — the MPI-IO module: Darshan's MPIIO counters per file, found by
 * file handle, plus the MPI-IO call in progress on each thread, so that the
 * POSIX calls it makes underneath are counted on its record
 * (MPIIO_POSIX_SUBCALLS).  Handlers run under the runtime lock.
 */
#ifndef RT_MPIIO_H
#define RT_MPIIO_H

#include <stdint.h>

#include "rt_records.h"

enum rt_mpiio_class { RT_MPIIO_INDEP, RT_MPIIO_COLL, RT_MPIIO_SPLIT, RT_MPIIO_NB };

int rt_mpiio_init(void);

/* handle is the MPI_File value (a pointer in MPICH's ABI). */
struct rt_record *rt_mpiio_record_of(const void *handle);

/*
 * info_given: an info other than MPI_INFO_NULL was given (MPIIO_HINTS, as
 * Darshan counts it); hint_lines: its hints as "key=value" lines (kept per
 * file); comm_slot: the communicator's trace slot (RT_TRACE_NO_COMM when
 * not traced).  err (here and below): the failed call's MPI error class as
 * ioa_errname.h codes it.
 */
void rt_mpiio_open(const char *op, int collective, const char *path, int amode, int info_given,
		   const char *hint_lines, const void *handle, uint32_t comm_slot, int failed,
		   int err, double t0, double t1);
/* As rt_posix_close_begin(): the handle is forgotten before the real close. */
struct rt_record *rt_mpiio_close_begin(const void *handle);
void rt_mpiio_close(const char *op, struct rt_record *rec, int failed, int err, double t0,
		    double t1);
/*
 * counter: the one the call adds to, or -1 (traced only); offset and
 * length as the trace keeps them (MPI_File_seek: its offset, and whence
 * as the length, 0 set, 1 current, 2 end; else 0).
 */
void rt_mpiio_meta(const char *op, const void *handle, int counter, int64_t offset, int64_t length,
		   int failed, int err, double t0, double t1);
/*
 * A file view as the kernels replay it: its displacement and etype size,
 * and the filetype's shape over a predefined base type (kind 0: the base
 * type itself; 1: a vector, dim[0] = count, block length, stride; 2: a
 * subarray, per dimension in C order size, subsize, start; 3: any other
 * type, flattened: dim[0] = lower bound, extent, number of runs, and its
 * bytes as runs of (offset, length) in its type map's order; -1: a
 * filetype not kept, one that cannot be flattened or has more than
 * RT_VIEW_MAX_RUNS runs).
 */
#define RT_VIEW_MAX_DIMS 3
#define RT_VIEW_MAX_RUNS 4096
struct rt_view {
	int kind, ndims;
	int64_t disp, etype_size, base_size;
	int64_t dim[RT_VIEW_MAX_DIMS][3];
	int64_t (*runs)[2]; /* kind 3: dim[0][2] of them, the caller's to free */
};
/* info_given: as at open. */
void rt_mpiio_view(const char *op, const void *handle, const struct rt_view *v, int info_given,
		   int failed, int err, double t0, double t1);
/* offset: explicit offset of the _at forms, -1 at the file pointer. */
void rt_mpiio_io(const char *op, int is_write, enum rt_mpiio_class cls, const void *handle,
		 int64_t offset, int64_t bytes, int failed, int err, double t0, double t1);
void rt_mpiio_end(const char *op, int is_write, const void *handle, double t0, double t1);

#endif
