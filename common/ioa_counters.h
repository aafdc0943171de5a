/*
 * ioa_counters — the one table of every counter ioatlas records.
 *
 * Each module (POSIX, STDIO, MPI-IO) lists its integer and floating-point
 * counters once, as X-macros: X(NAME, "description").  The names and
 * meanings are Darshan's wherever Darshan has the counter, so that a Darshan
 * user reads ours without a glossary; counters Darshan lacks are marked
 * "(ioatlas)" at the start of their description.  The runtime's records, the
 * log writer and reader, `ioatlas parse`, the warehouse column list and
 * docs/counters.md all expand these tables; adding a counter here is the
 * whole change (the log stores counter names, so old readers keep working).
 *
 * Size histograms use Darshan's ten bins: 0-100, 100-1K, 1K-10K, 10K-100K,
 * 100K-1M, 1M-4M, 4M-10M, 10M-100M, 100M-1G, 1G+ bytes (upper bounds
 * inclusive).  Timestamps are seconds since the job started; times are
 * cumulative seconds.
 */
#ifndef IOA_COUNTERS_H
#define IOA_COUNTERS_H

#include <stdint.h>
#include <string.h>

#define IOA_SIZE_BINS(X, P, WHAT)                                          \
	X(P##_SIZE_##WHAT##_0_100, "accesses of 0 to 100 bytes")           \
	X(P##_SIZE_##WHAT##_100_1K, "accesses of 101 bytes to 1 KiB")      \
	X(P##_SIZE_##WHAT##_1K_10K, "accesses of 1 KiB + 1 to 10 KiB")     \
	X(P##_SIZE_##WHAT##_10K_100K, "accesses of 10 KiB + 1 to 100 KiB") \
	X(P##_SIZE_##WHAT##_100K_1M, "accesses of 100 KiB + 1 to 1 MiB")   \
	X(P##_SIZE_##WHAT##_1M_4M, "accesses of 1 MiB + 1 to 4 MiB")       \
	X(P##_SIZE_##WHAT##_4M_10M, "accesses of 4 MiB + 1 to 10 MiB")     \
	X(P##_SIZE_##WHAT##_10M_100M, "accesses of 10 MiB + 1 to 100 MiB") \
	X(P##_SIZE_##WHAT##_100M_1G, "accesses of 100 MiB + 1 to 1 GiB")   \
	X(P##_SIZE_##WHAT##_1G_PLUS, "accesses of more than 1 GiB")

#define IOA_COMMON_VALUES(X, P)                                             \
	X(P##_ACCESS1_ACCESS, "most common access size (never 0)")          \
	X(P##_ACCESS2_ACCESS, "second most common access size")             \
	X(P##_ACCESS3_ACCESS, "third most common access size")              \
	X(P##_ACCESS4_ACCESS, "fourth most common access size")             \
	X(P##_ACCESS1_COUNT, "count of the most common access size")        \
	X(P##_ACCESS2_COUNT, "count of the second most common access size") \
	X(P##_ACCESS3_COUNT, "count of the third most common access size")  \
	X(P##_ACCESS4_COUNT, "count of the fourth most common access size")

#define IOA_RANK_VARIANCE(X, P)                                                       \
	X(P##_FASTEST_RANK, "rank that spent the least time in I/O on a shared file") \
	X(P##_FASTEST_RANK_BYTES, "bytes moved by the fastest rank")                  \
	X(P##_SLOWEST_RANK, "rank that spent the most time in I/O on a shared file")  \
	X(P##_SLOWEST_RANK_BYTES, "bytes moved by the slowest rank")

#define IOA_RANK_FVARIANCE(X, P)                                                          \
	X(P##_F_FASTEST_RANK_TIME, "I/O time of the fastest rank on a shared file")       \
	X(P##_F_SLOWEST_RANK_TIME, "I/O time of the slowest rank on a shared file")       \
	X(P##_F_VARIANCE_RANK_TIME, "variance of I/O time across ranks on a shared file") \
	X(P##_F_VARIANCE_RANK_BYTES, "variance of bytes moved across ranks on a shared file")

#define IOA_TIMESTAMPS(X, P)                                       \
	X(P##_F_OPEN_START_TIMESTAMP, "start of the first open")   \
	X(P##_F_READ_START_TIMESTAMP, "start of the first read")   \
	X(P##_F_WRITE_START_TIMESTAMP, "start of the first write") \
	X(P##_F_CLOSE_START_TIMESTAMP, "start of the first close") \
	X(P##_F_OPEN_END_TIMESTAMP, "end of the last open")        \
	X(P##_F_READ_END_TIMESTAMP, "end of the last read")        \
	X(P##_F_WRITE_END_TIMESTAMP, "end of the last write")      \
	X(P##_F_CLOSE_END_TIMESTAMP, "end of the last close")

#define IOA_POSIX_COUNTERS(X)                                                                      \
	X(POSIX_OPENS, "opens, including dup and fileno")                                          \
	X(POSIX_FILENOS, "fileno calls")                                                           \
	X(POSIX_DUPS, "dup, dup2, dup3 and fcntl(F_DUPFD) calls")                                  \
	X(POSIX_READS, "read calls (read, pread, readv, preadv)")                                  \
	X(POSIX_WRITES, "write calls (write, pwrite, writev, pwritev)")                            \
	X(POSIX_SEEKS, "lseek calls")                                                              \
	X(POSIX_STATS, "stat, lstat, fstat, fstatat and statx calls")                              \
	X(POSIX_MMAPS, "mmap calls")                                                               \
	X(POSIX_FSYNCS, "fsync calls")                                                             \
	X(POSIX_FDSYNCS, "fdatasync calls")                                                        \
	X(POSIX_RENAME_SOURCES, "renames with this file as the source")                            \
	X(POSIX_RENAME_TARGETS, "renames with this file as the target")                            \
	X(POSIX_RENAMED_FROM, "record id (as signed 64-bit) of the last file renamed to this one") \
	X(POSIX_MODE, "mode argument of the last open that created or could create (O_CREAT)")     \
	X(POSIX_BYTES_READ, "bytes read")                                                          \
	X(POSIX_BYTES_WRITTEN, "bytes written")                                                    \
	X(POSIX_MAX_BYTE_READ, "highest offset read (last byte)")                                  \
	X(POSIX_MAX_BYTE_WRITTEN, "highest offset written (last byte)")                            \
	X(POSIX_CONSEC_READS, "reads right after the previous read, since the last open")          \
	X(POSIX_CONSEC_WRITES, "writes right after the previous write, since the last open")       \
	X(POSIX_SEQ_READS, "reads past the previous read's end, since the last open")              \
	X(POSIX_SEQ_WRITES, "writes past the previous write's end, since the last open")           \
	X(POSIX_RW_SWITCHES, "switches between reading and writing")                               \
	X(POSIX_MEM_NOT_ALIGNED, "accesses with a buffer not aligned to POSIX_MEM_ALIGNMENT")      \
	X(POSIX_MEM_ALIGNMENT, "memory alignment in bytes")                                        \
	X(POSIX_FILE_NOT_ALIGNED, "accesses not aligned to POSIX_FILE_ALIGNMENT")                  \
	X(POSIX_FILE_ALIGNMENT,                                                                    \
	  "file alignment in bytes (the file system's preferred block size)")                      \
	X(POSIX_MAX_READ_TIME_SIZE, "size of the slowest read")                                    \
	X(POSIX_MAX_WRITE_TIME_SIZE, "size of the slowest write")                                  \
	IOA_SIZE_BINS(X, POSIX, READ)                                                              \
	IOA_SIZE_BINS(X, POSIX, WRITE)                                                             \
	X(POSIX_STRIDE1_STRIDE,                                                                    \
	  "most common stride: the gap between the end of the previous read (write) and the "      \
	  "start of this one, when it is after it, not right after it, and not the first since "   \
	  "the last open")                                                                         \
	X(POSIX_STRIDE2_STRIDE, "second most common stride")                                       \
	X(POSIX_STRIDE3_STRIDE, "third most common stride")                                        \
	X(POSIX_STRIDE4_STRIDE, "fourth most common stride")                                       \
	X(POSIX_STRIDE1_COUNT, "count of the most common stride")                                  \
	X(POSIX_STRIDE2_COUNT, "count of the second most common stride")                           \
	X(POSIX_STRIDE3_COUNT, "count of the third most common stride")                            \
	X(POSIX_STRIDE4_COUNT, "count of the fourth most common stride")                           \
	IOA_COMMON_VALUES(X, POSIX)                                                                \
	IOA_RANK_VARIANCE(X, POSIX)                                                                \
	X(POSIX_UNLINKS, "(ioatlas) unlink, unlinkat and remove calls that removed this file")     \
	X(POSIX_MKDIRS, "(ioatlas) mkdir and mkdtemp calls that made this folder")                 \
	X(POSIX_RMDIRS, "(ioatlas) rmdir, unlinkat and remove calls that removed this folder")     \
	X(POSIX_ACCESS_CHECKS, "(ioatlas) access calls on this path")                              \
	X(POSIX_TRUNCATES, "(ioatlas) ftruncate and truncate calls")                               \
	X(POSIX_CREATES,                                                                           \
	  "(ioatlas) opens that created the file (O_CREAT on a missing file, mkstemp, O_TMPFILE)") \
	X(POSIX_FAILED_CALLS, "(ioatlas) calls on this path that failed (see the errors region)")  \
	X(POSIX_OVERWRITES,                                                                        \
	  "(ioatlas) writes that rewrote bytes this rank wrote before in the file now under this " \
	  "name (not those a truncation, O_TRUNC, unlink or rename dropped)")                      \
	X(POSIX_OVERWRITE_BYTES, "(ioatlas) bytes rewritten in place")                             \
	X(POSIX_OVERWRITE_FIRST_OFFSET, "(ioatlas) offset of the first in-place rewrite, or -1")   \
	X(POSIX_OVERWRITE_UNTRACKED_BYTES,                                                         \
	  "(ioatlas) bytes written whose later rewrites could not be tracked; when not 0, "        \
	  "POSIX_OVERWRITES and POSIX_OVERWRITE_BYTES are lower bounds")

#define IOA_POSIX_FCOUNTERS(X)                                                         \
	IOA_TIMESTAMPS(X, POSIX)                                                       \
	X(POSIX_F_READ_TIME, "cumulative read time")                                   \
	X(POSIX_F_WRITE_TIME, "cumulative write time (write, fsync, fdatasync ...)")   \
	X(POSIX_F_META_TIME, "cumulative metadata time (open, close, stat, seek ...)") \
	X(POSIX_F_MAX_READ_TIME, "duration of the slowest read")                       \
	X(POSIX_F_MAX_WRITE_TIME, "duration of the slowest write")                     \
	IOA_RANK_FVARIANCE(X, POSIX)

#define IOA_STDIO_COUNTERS(X)                                                                     \
	X(STDIO_OPENS, "fopen and freopen calls")                                                 \
	X(STDIO_FDOPENS, "fdopen calls")                                                          \
	X(STDIO_READS, "read calls that returned data (fread, fgets, fgetc, getc, getw, fscanf)") \
	X(STDIO_WRITES, "write calls that wrote data (fwrite, fputs, fputc, putc, putw, printf)") \
	X(STDIO_SEEKS, "fseek, fseeko, fsetpos and rewind calls")                                 \
	X(STDIO_FLUSHES, "fflush calls")                                                          \
	X(STDIO_BYTES_WRITTEN, "bytes written")                                                   \
	X(STDIO_BYTES_READ, "bytes read")                                                         \
	X(STDIO_MAX_BYTE_READ, "highest offset read (last byte)")                                 \
	X(STDIO_MAX_BYTE_WRITTEN, "highest offset written (last byte)")                           \
	IOA_RANK_VARIANCE(X, STDIO)                                                               \
	X(STDIO_FAILED_CALLS, "(ioatlas) calls on this stream that failed")

#define IOA_STDIO_FCOUNTERS(X)                           \
	X(STDIO_F_META_TIME, "cumulative metadata time") \
	X(STDIO_F_WRITE_TIME, "cumulative write time")   \
	X(STDIO_F_READ_TIME, "cumulative read time")     \
	IOA_TIMESTAMPS(X, STDIO)                         \
	IOA_RANK_FVARIANCE(X, STDIO)

#define IOA_MPIIO_COUNTERS(X)                                             \
	X(MPIIO_INDEP_OPENS, "independent opens (MPI_COMM_SELF)")         \
	X(MPIIO_COLL_OPENS, "collective opens")                           \
	X(MPIIO_INDEP_READS, "independent reads")                         \
	X(MPIIO_INDEP_WRITES, "independent writes")                       \
	X(MPIIO_COLL_READS, "collective reads")                           \
	X(MPIIO_COLL_WRITES, "collective writes")                         \
	X(MPIIO_SPLIT_READS, "split collective reads")                    \
	X(MPIIO_SPLIT_WRITES, "split collective writes")                  \
	X(MPIIO_NB_READS, "non-blocking reads")                           \
	X(MPIIO_NB_WRITES, "non-blocking writes")                         \
	X(MPIIO_SYNCS, "MPI_File_sync calls")                             \
	X(MPIIO_HINTS, "opens and set_views given an info, not "          \
		       "MPI_INFO_NULL (as Darshan: set_info uncounted)")  \
	X(MPIIO_VIEWS, "MPI_File_set_view calls")                         \
	X(MPIIO_MODE, "amode of the last open")                           \
	X(MPIIO_BYTES_READ, "bytes read")                                 \
	X(MPIIO_BYTES_WRITTEN, "bytes written")                           \
	X(MPIIO_RW_SWITCHES, "switches between reading and writing")      \
	X(MPIIO_MAX_READ_TIME_SIZE, "size of the slowest read")           \
	X(MPIIO_MAX_WRITE_TIME_SIZE, "size of the slowest write")         \
	IOA_SIZE_BINS(X, MPIIO, READ_AGG)                                 \
	IOA_SIZE_BINS(X, MPIIO, WRITE_AGG)                                \
	IOA_COMMON_VALUES(X, MPIIO)                                       \
	IOA_RANK_VARIANCE(X, MPIIO)                                       \
	X(MPIIO_SET_SIZES, "(ioatlas) MPI_File_set_size calls")           \
	X(MPIIO_FAILED_CALLS, "(ioatlas) calls on this file that failed") \
	X(MPIIO_POSIX_SUBCALLS, "(ioatlas) POSIX calls issued inside MPI-IO calls on this file")

#define IOA_MPIIO_FCOUNTERS(X)                                             \
	IOA_TIMESTAMPS(X, MPIIO)                                           \
	X(MPIIO_F_READ_TIME, "cumulative read time")                       \
	X(MPIIO_F_WRITE_TIME, "cumulative write time (MPI_File_sync too)") \
	X(MPIIO_F_META_TIME, "cumulative metadata time")                   \
	X(MPIIO_F_MAX_READ_TIME, "duration of the slowest read")           \
	X(MPIIO_F_MAX_WRITE_TIME, "duration of the slowest write")         \
	IOA_RANK_FVARIANCE(X, MPIIO)

/*
 * The layers above MPI-IO, as Darshan records them (H5F, H5D, PNETCDF_FILE,
 * PNETCDF_VAR): for logs imported from Darshan.  D1 is a dataset's last
 * (fastest-varying) dimension.
 */
#define IOA_OPEN_CLOSE_TIMESTAMPS(X, P)                            \
	X(P##_F_OPEN_START_TIMESTAMP, "start of the first open")   \
	X(P##_F_CLOSE_START_TIMESTAMP, "start of the first close") \
	X(P##_F_OPEN_END_TIMESTAMP, "end of the last open")        \
	X(P##_F_CLOSE_END_TIMESTAMP, "end of the last close")

#define IOA_ACCESS_ND(X, P, N)                                                             \
	X(P##_ACCESS##N##_ACCESS, "access size (bytes) of the " #N ". most common access") \
	X(P##_ACCESS##N##_LENGTH_D1, "its length (count x block) in dimension 1")          \
	X(P##_ACCESS##N##_LENGTH_D2, "its length in dimension 2")                          \
	X(P##_ACCESS##N##_LENGTH_D3, "its length in dimension 3")                          \
	X(P##_ACCESS##N##_LENGTH_D4, "its length in dimension 4")                          \
	X(P##_ACCESS##N##_LENGTH_D5, "its length in dimension 5")                          \
	X(P##_ACCESS##N##_STRIDE_D1, "its stride in dimension 1")                          \
	X(P##_ACCESS##N##_STRIDE_D2, "its stride in dimension 2")                          \
	X(P##_ACCESS##N##_STRIDE_D3, "its stride in dimension 3")                          \
	X(P##_ACCESS##N##_STRIDE_D4, "its stride in dimension 4")                          \
	X(P##_ACCESS##N##_STRIDE_D5, "its stride in dimension 5")

#define IOA_ACCESSES_ND(X, P)                                          \
	IOA_ACCESS_ND(X, P, 1)                                         \
	IOA_ACCESS_ND(X, P, 2)                                         \
	IOA_ACCESS_ND(X, P, 3)                                         \
	IOA_ACCESS_ND(X, P, 4)                                         \
	X(P##_ACCESS1_COUNT, "count of the most common access")        \
	X(P##_ACCESS2_COUNT, "count of the second most common access") \
	X(P##_ACCESS3_COUNT, "count of the third most common access")  \
	X(P##_ACCESS4_COUNT, "count of the fourth most common access")

#define IOA_LAYER_FTIMES(X, P)                                                        \
	IOA_TIMESTAMPS(X, P)                                                          \
	X(P##_F_READ_TIME, "cumulative read time")                                    \
	X(P##_F_WRITE_TIME, "cumulative write time")                                  \
	X(P##_F_META_TIME, "cumulative metadata time")                                \
	X(P##_F_MAX_READ_TIME, "duration of the slowest read")                        \
	X(P##_F_MAX_WRITE_TIME, "duration of the slowest write")                      \
	X(P##_F_FASTEST_RANK_TIME, "I/O time of the fastest rank on a shared record") \
	X(P##_F_SLOWEST_RANK_TIME, "I/O time of the slowest rank on a shared record") \
	X(P##_F_VARIANCE_RANK_TIME, "variance of I/O time across ranks")              \
	X(P##_F_VARIANCE_RANK_BYTES, "variance of bytes moved across ranks")

#define IOA_H5F_COUNTERS(X)                                                                   \
	X(H5F_OPENS, "HDF5 file opens and creates")                                           \
	X(H5F_FLUSHES, "HDF5 file flushes")                                                   \
	X(H5F_USE_MPIIO, "1 when the file was accessed through MPI-IO")                       \
	X(H5F_USE_COLL_METADATA_OPS,                                                          \
	  "(ioatlas) 1 when its file-access list asked for collective metadata reads")        \
	X(H5F_USE_COLL_METADATA_WRITE,                                                        \
	  "(ioatlas) 1 when its file-access list asked for collective metadata writes")       \
	X(H5F_ALIGNMENT, "(ioatlas) the alignment of objects in the file (H5Pset_alignment)") \
	X(H5F_ALIGNMENT_THRESHOLD, "(ioatlas) objects this large or larger are aligned")      \
	X(H5F_CHUNK_CACHE_SLOTS, "(ioatlas) the raw-data chunk cache's hash slots")           \
	X(H5F_CHUNK_CACHE_BYTES, "(ioatlas) the raw-data chunk cache's size in bytes")        \
	X(H5F_MPIIO_SUBCALLS, "(ioatlas) MPI-IO calls issued inside HDF5 file calls")         \
	X(H5F_POSIX_SUBCALLS, "(ioatlas) POSIX calls issued inside HDF5 file calls")          \
	X(H5F_FAILED_CALLS, "(ioatlas) HDF5 file calls on this file that failed")

#define IOA_H5F_FCOUNTERS(X)              \
	IOA_OPEN_CLOSE_TIMESTAMPS(X, H5F) \
	X(H5F_F_META_TIME, "cumulative time in HDF5 file metadata operations")

#define IOA_H5D_COUNTERS(X)                                                                     \
	X(H5D_OPENS, "dataset opens and creates")                                               \
	X(H5D_READS, "dataset reads")                                                           \
	X(H5D_WRITES, "dataset writes")                                                         \
	X(H5D_FLUSHES, "dataset flushes")                                                       \
	X(H5D_BYTES_READ, "bytes read")                                                         \
	X(H5D_BYTES_WRITTEN, "bytes written")                                                   \
	X(H5D_RW_SWITCHES, "switches between reading and writing")                              \
	X(H5D_REGULAR_HYPERSLAB_SELECTS, "reads and writes with a regular hyperslab selection") \
	X(H5D_IRREGULAR_HYPERSLAB_SELECTS,                                                      \
	  "reads and writes with an irregular hyperslab selection")                             \
	X(H5D_POINT_SELECTS, "reads and writes with a point selection")                         \
	X(H5D_MAX_READ_TIME_SIZE, "size of the slowest read")                                   \
	X(H5D_MAX_WRITE_TIME_SIZE, "size of the slowest write")                                 \
	IOA_SIZE_BINS(X, H5D, READ_AGG)                                                         \
	IOA_SIZE_BINS(X, H5D, WRITE_AGG)                                                        \
	IOA_ACCESSES_ND(X, H5D)                                                                 \
	X(H5D_DATASPACE_NDIMS, "dimensions of the dataset's dataspace")                         \
	X(H5D_DATASPACE_NPOINTS, "points in the dataset's dataspace")                           \
	X(H5D_DATATYPE_SIZE, "size of one element in bytes")                                    \
	X(H5D_CHUNK_SIZE_D1, "chunk size in dimension 1")                                       \
	X(H5D_CHUNK_SIZE_D2, "chunk size in dimension 2")                                       \
	X(H5D_CHUNK_SIZE_D3, "chunk size in dimension 3")                                       \
	X(H5D_CHUNK_SIZE_D4, "chunk size in dimension 4")                                       \
	X(H5D_CHUNK_SIZE_D5, "chunk size in dimension 5")                                       \
	X(H5D_USE_MPIIO_COLLECTIVE, "1 when MPI-IO collective transfers were used")             \
	X(H5D_USE_DEPRECATED, "1 when deprecated H5D calls were used")                          \
	IOA_RANK_VARIANCE(X, H5D)                                                               \
	X(H5D_FILE_REC_ID, "record id of the HDF5 file holding the dataset")                    \
	X(H5D_MPIIO_SUBCALLS, "(ioatlas) MPI-IO calls issued inside this dataset's HDF5 calls") \
	X(H5D_POSIX_SUBCALLS, "(ioatlas) POSIX calls issued inside this dataset's HDF5 calls")  \
	X(H5D_FAILED_CALLS, "(ioatlas) HDF5 calls on this dataset that failed")

#define IOA_H5D_FCOUNTERS(X) IOA_LAYER_FTIMES(X, H5D)

#define IOA_PNETCDF_FILE_COUNTERS(X)                                                              \
	X(PNETCDF_FILE_CREATES, "file creates")                                                   \
	X(PNETCDF_FILE_OPENS, "file opens")                                                       \
	X(PNETCDF_FILE_REDEFS, "redef calls")                                                     \
	X(PNETCDF_FILE_INDEP_WAITS, "independent waits")                                          \
	X(PNETCDF_FILE_COLL_WAITS, "collective waits")                                            \
	X(PNETCDF_FILE_SYNCS, "file syncs")                                                       \
	X(PNETCDF_FILE_BYTES_READ, "bytes read, the library's own header I/O included")           \
	X(PNETCDF_FILE_BYTES_WRITTEN, "bytes written, the library's own header I/O included")     \
	X(PNETCDF_FILE_WAIT_FAILURES, "waits that failed")                                        \
	X(PNETCDF_FILE_MPIIO_SUBCALLS, "(ioatlas) MPI-IO calls issued inside PnetCDF file calls") \
	X(PNETCDF_FILE_POSIX_SUBCALLS, "(ioatlas) POSIX calls issued inside PnetCDF file calls")  \
	X(PNETCDF_FILE_FAILED_CALLS, "(ioatlas) PnetCDF file calls on this file that failed")

#define IOA_PNETCDF_FILE_FCOUNTERS(X)                                               \
	X(PNETCDF_FILE_F_OPEN_START_TIMESTAMP, "start of the first open or create") \
	X(PNETCDF_FILE_F_CLOSE_START_TIMESTAMP, "start of the first close")         \
	X(PNETCDF_FILE_F_WAIT_START_TIMESTAMP, "start of the first wait")           \
	X(PNETCDF_FILE_F_OPEN_END_TIMESTAMP, "end of the last open or create")      \
	X(PNETCDF_FILE_F_CLOSE_END_TIMESTAMP, "end of the last close")              \
	X(PNETCDF_FILE_F_WAIT_END_TIMESTAMP, "end of the last wait")                \
	X(PNETCDF_FILE_F_META_TIME, "cumulative metadata time")                     \
	X(PNETCDF_FILE_F_WAIT_TIME, "cumulative wait time")

#define IOA_PNETCDF_CALLS(X, KIND, WHAT)                                         \
	X(PNETCDF_VAR_##KIND##_VAR, WHAT " calls on the whole variable")         \
	X(PNETCDF_VAR_##KIND##_VAR1, WHAT " calls on one element")               \
	X(PNETCDF_VAR_##KIND##_VARA, WHAT " calls on a subarray")                \
	X(PNETCDF_VAR_##KIND##_VARS, WHAT " calls on a strided subarray")        \
	X(PNETCDF_VAR_##KIND##_VARM, WHAT " calls on a mapped strided subarray") \
	X(PNETCDF_VAR_##KIND##_VARN, WHAT " calls on several subarrays")

#define IOA_PNETCDF_VAR_COUNTERS(X)                                                          \
	X(PNETCDF_VAR_OPENS, "variable defines and inquiries")                               \
	X(PNETCDF_VAR_INDEP_READS, "independent reads")                                      \
	X(PNETCDF_VAR_INDEP_WRITES, "independent writes")                                    \
	X(PNETCDF_VAR_COLL_READS, "collective reads")                                        \
	X(PNETCDF_VAR_COLL_WRITES, "collective writes")                                      \
	X(PNETCDF_VAR_NB_READS, "non-blocking reads")                                        \
	X(PNETCDF_VAR_NB_WRITES, "non-blocking writes")                                      \
	X(PNETCDF_VAR_BYTES_READ, "bytes read, the library's header I/O not included")       \
	X(PNETCDF_VAR_BYTES_WRITTEN, "bytes written, the library's header I/O not included") \
	X(PNETCDF_VAR_RW_SWITCHES, "switches between reading and writing")                   \
	IOA_PNETCDF_CALLS(X, PUT, "put")                                                     \
	X(PNETCDF_VAR_PUT_VARD, "put calls with a derived datatype")                         \
	IOA_PNETCDF_CALLS(X, GET, "get")                                                     \
	X(PNETCDF_VAR_GET_VARD, "get calls with a derived datatype")                         \
	IOA_PNETCDF_CALLS(X, IPUT, "non-blocking put")                                       \
	IOA_PNETCDF_CALLS(X, IGET, "non-blocking get")                                       \
	IOA_PNETCDF_CALLS(X, BPUT, "buffered non-blocking put")                              \
	X(PNETCDF_VAR_MAX_READ_TIME_SIZE, "size of the slowest read")                        \
	X(PNETCDF_VAR_MAX_WRITE_TIME_SIZE, "size of the slowest write")                      \
	IOA_SIZE_BINS(X, PNETCDF_VAR, READ_AGG)                                              \
	IOA_SIZE_BINS(X, PNETCDF_VAR, WRITE_AGG)                                             \
	IOA_ACCESSES_ND(X, PNETCDF_VAR)                                                      \
	X(PNETCDF_VAR_NDIMS, "dimensions of the variable")                                   \
	X(PNETCDF_VAR_NPOINTS, "elements of the variable")                                   \
	X(PNETCDF_VAR_DATATYPE_SIZE, "size of one element in bytes")                         \
	X(PNETCDF_VAR_IS_RECORD_VAR, "1 for a record variable")                              \
	IOA_RANK_VARIANCE(X, PNETCDF_VAR)                                                    \
	X(PNETCDF_VAR_FILE_REC_ID, "record id of the file holding the variable")             \
	X(PNETCDF_VAR_MPIIO_SUBCALLS,                                                        \
	  "(ioatlas) MPI-IO calls issued inside this variable's PnetCDF calls")              \
	X(PNETCDF_VAR_POSIX_SUBCALLS,                                                        \
	  "(ioatlas) POSIX calls issued inside this variable's PnetCDF calls")               \
	X(PNETCDF_VAR_FAILED_CALLS, "(ioatlas) PnetCDF calls on this variable that failed")

#define IOA_PNETCDF_VAR_FCOUNTERS(X) IOA_LAYER_FTIMES(X, PNETCDF_VAR)

/*
 * Lustre layouts, as Darshan records them per file: up to IOA_LUSTRE_COMPS
 * layout components and IOA_LUSTRE_OSTS OST indices of all components in
 * order (an import notes the rest it leaves out).  A pool name of up to 16
 * bytes is kept in two counters, its bytes in order.
 */
#define IOA_LUSTRE_COMPS 4
#define IOA_LUSTRE_OSTS	 64

/* Counters between one layout component's and the next's. */
#define IOA_LUSTRE_COMP_STRIDE (LUSTRE_COMP2_STRIPE_SIZE - LUSTRE_COMP1_STRIPE_SIZE)

/* A component's 16-byte pool name into its two counters, the first byte the lowest. */
#define IOA_LUSTRE_POOL_PUT(counters, bytes)                                              \
	do {                                                                              \
		(counters)[0] = (counters)[1] = 0;                                        \
		for (unsigned ioa_b_ = 0; ioa_b_ < 16; ioa_b_++)                          \
			(counters)[ioa_b_ / 8] |=                                         \
				(int64_t)((uint64_t)(bytes)[ioa_b_] << 8 * (ioa_b_ % 8)); \
	} while (0)

/* And back: the 16 bytes of a pool name from its two counters. */
#define IOA_LUSTRE_POOL_GET(counters, bytes)                                                  \
	do {                                                                                  \
		for (unsigned ioa_b_ = 0; ioa_b_ < 16; ioa_b_++)                              \
			(bytes)[ioa_b_] = (unsigned char)((uint64_t)(counters)[ioa_b_ / 8] >> \
							  8 * (ioa_b_ % 8));                  \
	} while (0)

#define IOA_LUSTRE_COMP(X, N)                                                                \
	X(LUSTRE_COMP##N##_STRIPE_SIZE, "stripe size of layout component " #N " in bytes")   \
	X(LUSTRE_COMP##N##_STRIPE_COUNT, "OSTs component " #N " is striped over")            \
	X(LUSTRE_COMP##N##_STRIPE_PATTERN,                                                   \
	  "Lustre's pattern of component " #N " (0 raid0, 2 mdt, 4 overstriped, 8 foreign)") \
	X(LUSTRE_COMP##N##_FLAGS, "Lustre's flags of component " #N)                         \
	X(LUSTRE_COMP##N##_EXT_START, "first byte of the file component " #N " holds")       \
	X(LUSTRE_COMP##N##_EXT_END,                                                          \
	  "end of the extent of component " #N " (-1: the end of the file)")                 \
	X(LUSTRE_COMP##N##_MIRROR_ID, "mirror id of component " #N)                          \
	X(LUSTRE_COMP##N##_POOL_NAME_A, "bytes 1 to 8 of component " #N "'s OST pool name")  \
	X(LUSTRE_COMP##N##_POOL_NAME_B, "bytes 9 to 16 of component " #N "'s OST pool name")

#define IOA_LUSTRE_OST(X, N) \
	X(LUSTRE_OST_ID_##N, "index of the OST of stripe " #N ", in layout order")

#define IOA_LUSTRE_COUNTERS(X)                                                                                            \
	X(LUSTRE_NUM_COMPONENTS, "layout components of the file")                                                         \
	X(LUSTRE_NUM_STRIPES, "stripes of all its components")                                                            \
	IOA_LUSTRE_COMP(X, 1)                                                                                             \
	IOA_LUSTRE_COMP(X, 2)                                                                                             \
	IOA_LUSTRE_COMP(X, 3)                                                                                             \
	IOA_LUSTRE_COMP(X, 4)                                                                                             \
	IOA_LUSTRE_OST(X, 0)                                                                                              \
	IOA_LUSTRE_OST(X, 1)                                                                                              \
	IOA_LUSTRE_OST(X, 2)                                                                                              \
	IOA_LUSTRE_OST(X, 3)                                                                                              \
	IOA_LUSTRE_OST(X, 4)                                                                                              \
	IOA_LUSTRE_OST(X, 5)                                                                                              \
	IOA_LUSTRE_OST(X, 6) IOA_LUSTRE_OST(X, 7) IOA_LUSTRE_OST(X, 8) IOA_LUSTRE_OST(X, 9) IOA_LUSTRE_OST(               \
		X, 10) IOA_LUSTRE_OST(X,                                                                                  \
				      11) IOA_LUSTRE_OST(X,                                                               \
							 12) IOA_LUSTRE_OST(X,                                            \
									    13) IOA_LUSTRE_OST(X,                         \
											       14)                        \
		IOA_LUSTRE_OST(X, 15) IOA_LUSTRE_OST(X, 16) IOA_LUSTRE_OST(X, 17) IOA_LUSTRE_OST(X, 18) IOA_LUSTRE_OST(   \
			X,                                                                                                \
			19) IOA_LUSTRE_OST(X,                                                                             \
					   20) IOA_LUSTRE_OST(X,                                                          \
							      21) IOA_LUSTRE_OST(X,                                       \
										 22) IOA_LUSTRE_OST(X,                    \
												    23)                   \
			IOA_LUSTRE_OST(X, 24) IOA_LUSTRE_OST(X, 25) IOA_LUSTRE_OST(X, 26) IOA_LUSTRE_OST(                 \
				X, 27) IOA_LUSTRE_OST(X, 28) IOA_LUSTRE_OST(X,                                            \
									    29) IOA_LUSTRE_OST(X,                         \
											       30)                        \
				IOA_LUSTRE_OST(X, 31) IOA_LUSTRE_OST(X, 32) IOA_LUSTRE_OST(X, 33) IOA_LUSTRE_OST(         \
					X,                                                                                \
					34) IOA_LUSTRE_OST(X,                                                             \
							   35) IOA_LUSTRE_OST(X,                                          \
									      36) IOA_LUSTRE_OST(X,                       \
												 37)                      \
					IOA_LUSTRE_OST(X, 38) IOA_LUSTRE_OST(X, 39) IOA_LUSTRE_OST(X, 40) IOA_LUSTRE_OST( \
						X, 41) IOA_LUSTRE_OST(X, 42) IOA_LUSTRE_OST(X, 43)                        \
						IOA_LUSTRE_OST(X, 44) IOA_LUSTRE_OST(X, 45) IOA_LUSTRE_OST(               \
							X, 46) IOA_LUSTRE_OST(X,                                          \
									      47) IOA_LUSTRE_OST(X,                       \
												 48)                      \
							IOA_LUSTRE_OST(X, 49) IOA_LUSTRE_OST(X, 50) IOA_LUSTRE_OST(       \
								X, 51) IOA_LUSTRE_OST(X,                                  \
										      52) IOA_LUSTRE_OST(X,               \
													 53)              \
								IOA_LUSTRE_OST(X, 54) IOA_LUSTRE_OST(                     \
									X, 55) IOA_LUSTRE_OST(X,                          \
											      56)                         \
									IOA_LUSTRE_OST(X, 57) IOA_LUSTRE_OST(             \
										X,                                        \
										58) IOA_LUSTRE_OST(X, 59)                 \
										IOA_LUSTRE_OST(X, 60) IOA_LUSTRE_OST(     \
											X, 61)                            \
											IOA_LUSTRE_OST(                   \
												X,                        \
												62)                       \
												IOA_LUSTRE_OST(           \
													X,                \
													63)

#define IOA_LUSTRE_FCOUNTERS(X)

/*
 * The modules: X(ID, name, log region type, counters, float counters).
 * Region types are part of the log format (docs/log-format.md) and never
 * reused.
 */
#define IOA_MODULES(X)                                                                             \
	X(POSIX, "POSIX", 16, IOA_POSIX_COUNTERS, IOA_POSIX_FCOUNTERS)                             \
	X(STDIO, "STDIO", 17, IOA_STDIO_COUNTERS, IOA_STDIO_FCOUNTERS)                             \
	X(MPIIO, "MPI-IO", 18, IOA_MPIIO_COUNTERS, IOA_MPIIO_FCOUNTERS)                            \
	X(H5F, "H5F", 19, IOA_H5F_COUNTERS, IOA_H5F_FCOUNTERS)                                     \
	X(H5D, "H5D", 20, IOA_H5D_COUNTERS, IOA_H5D_FCOUNTERS)                                     \
	X(PNETCDF_FILE, "PNETCDF_FILE", 21, IOA_PNETCDF_FILE_COUNTERS, IOA_PNETCDF_FILE_FCOUNTERS) \
	X(PNETCDF_VAR, "PNETCDF_VAR", 22, IOA_PNETCDF_VAR_COUNTERS, IOA_PNETCDF_VAR_FCOUNTERS)     \
	X(LUSTRE, "LUSTRE", 23, IOA_LUSTRE_COUNTERS, IOA_LUSTRE_FCOUNTERS)

#define IOA_COUNTER_ENUM(name, desc) name,
enum ioa_posix_counter { IOA_POSIX_COUNTERS(IOA_COUNTER_ENUM) POSIX_NUM_INDICES };
enum ioa_posix_fcounter { IOA_POSIX_FCOUNTERS(IOA_COUNTER_ENUM) POSIX_F_NUM_INDICES };
enum ioa_stdio_counter { IOA_STDIO_COUNTERS(IOA_COUNTER_ENUM) STDIO_NUM_INDICES };
enum ioa_stdio_fcounter { IOA_STDIO_FCOUNTERS(IOA_COUNTER_ENUM) STDIO_F_NUM_INDICES };
enum ioa_mpiio_counter { IOA_MPIIO_COUNTERS(IOA_COUNTER_ENUM) MPIIO_NUM_INDICES };
enum ioa_mpiio_fcounter { IOA_MPIIO_FCOUNTERS(IOA_COUNTER_ENUM) MPIIO_F_NUM_INDICES };
enum ioa_h5f_counter { IOA_H5F_COUNTERS(IOA_COUNTER_ENUM) H5F_NUM_INDICES };
enum ioa_h5f_fcounter { IOA_H5F_FCOUNTERS(IOA_COUNTER_ENUM) H5F_F_NUM_INDICES };
enum ioa_h5d_counter { IOA_H5D_COUNTERS(IOA_COUNTER_ENUM) H5D_NUM_INDICES };
enum ioa_h5d_fcounter { IOA_H5D_FCOUNTERS(IOA_COUNTER_ENUM) H5D_F_NUM_INDICES };
enum ioa_pnetcdf_file_counter {
	IOA_PNETCDF_FILE_COUNTERS(IOA_COUNTER_ENUM) PNETCDF_FILE_NUM_INDICES
};
enum ioa_pnetcdf_file_fcounter {
	IOA_PNETCDF_FILE_FCOUNTERS(IOA_COUNTER_ENUM) PNETCDF_FILE_F_NUM_INDICES
};
enum ioa_pnetcdf_var_counter { IOA_PNETCDF_VAR_COUNTERS(IOA_COUNTER_ENUM) PNETCDF_VAR_NUM_INDICES };
enum ioa_pnetcdf_var_fcounter {
	IOA_PNETCDF_VAR_FCOUNTERS(IOA_COUNTER_ENUM) PNETCDF_VAR_F_NUM_INDICES
};
enum ioa_lustre_counter { IOA_LUSTRE_COUNTERS(IOA_COUNTER_ENUM) LUSTRE_NUM_INDICES };
#undef IOA_COUNTER_ENUM

#define IOA_MODULE_ENUM(id, name, region, counters, fcounters) IOA_MOD_##id,
enum ioa_module { IOA_MODULES(IOA_MODULE_ENUM) IOA_MOD_COUNT };
#undef IOA_MODULE_ENUM

/* Room for any module's counters (checked at compile time in ioa_counters.c). */
#define IOA_MAX_COUNTERS  128
#define IOA_MAX_FCOUNTERS 32

/* What the code needs to know of a module without naming it. */
struct ioa_module_desc {
	const char *name;	 /* as printed: "POSIX", "STDIO", "MPI-IO" */
	unsigned region_type;	 /* the module's region in the log */
	unsigned counter_count;	 /* integer counters */
	unsigned fcounter_count; /* floating-point counters */
	const char *const *counter_names;
	const char *const *counter_descs;
	const char *const *fcounter_names;
	const char *const *fcounter_descs;
};

/*
 * A counter whose value was not recorded: Darshan's -1 ("could not
 * monitor"), in logs imported from Darshan (ioa_darshan.h) for counters its
 * version lacks and for ioatlas's own.  The only negative value a count
 * may take; combining keeps it (a sum with an unknown part is unknown).
 */
#define IOA_NOT_RECORDED (-1)

/* Whether a counter is ioatlas's own, not Darshan's: its description says so. */
static inline int ioa_counter_is_ours(const char *desc)
{
	return !strncmp(desc, "(ioatlas)", 9);
}

/* Whether darshan-parser prints a counter after the float counters (the file of a dataset). */
static inline int ioa_counter_prints_last(const char *name)
{
	size_t len = strlen(name);

	return len > 12 && !strcmp(name + len - 12, "_FILE_REC_ID");
}

/* Whether a counter holds a record id (printed unsigned, as Darshan prints it). */
static inline int ioa_counter_is_record_id(const char *name)
{
	return !strcmp(name, "POSIX_RENAMED_FROM") || ioa_counter_prints_last(name);
}

/* How a counter combines over records (ranks sharing a file, --total). */
enum ioa_agg {
	IOA_AGG_SUM,  /* counts, bytes, times */
	IOA_AGG_MAX,  /* highest offsets, slowest calls, last timestamps */
	IOA_AGG_MIN,  /* first timestamps (ignoring 0: never happened) */
	IOA_AGG_NONE, /* per-record facts: ranks, alignments, common values */
	IOA_AGG_LAST, /* the last record's (the highest rank's), as Darshan keeps modes */
};

/* The combination rule of a counter, from its name. */
enum ioa_agg ioa_counter_agg(const char *name);

/* a + b, saturated at the int64 limits: counters from a log can be as large as it says. */
static inline int64_t ioa_counter_sat_add(int64_t a, int64_t b)
{
	int64_t sum;

	return __builtin_add_overflow(a, b, &sum) ? (b < 0 ? INT64_MIN : INT64_MAX) : sum;
}

/*
 * Combines src into dst (both one module's counters in table order) by each
 * counter's rule; IOA_AGG_NONE counters keep dst's value unless it is 0,
 * IOA_AGG_LAST ones take src's.
 */
void ioa_counters_combine(enum ioa_module module, int64_t *dst, double *fdst, const int64_t *src,
			  const double *fsrc);

/* The modules, indexed by enum ioa_module. */
extern const struct ioa_module_desc ioa_modules[IOA_MOD_COUNT];

/* The module whose region type this is, or NULL. */
const struct ioa_module_desc *ioa_module_by_region(unsigned region_type);

#endif
