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
	X(P##_ACCESS1_ACCESS, "most common access size")                    \
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
	X(POSIX_CONSEC_READS, "reads that start right after the previous read ends")               \
	X(POSIX_CONSEC_WRITES, "writes that start right after the previous write ends")            \
	X(POSIX_SEQ_READS, "reads that start past the previous read's end")                        \
	X(POSIX_SEQ_WRITES, "writes that start past the previous write's end")                     \
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
	  "start of this one, when it is after it, not right after it, and not the first")         \
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

#define IOA_POSIX_FCOUNTERS(X)                                                               \
	IOA_TIMESTAMPS(X, POSIX)                                                             \
	X(POSIX_F_READ_TIME, "cumulative read time")                                         \
	X(POSIX_F_WRITE_TIME, "cumulative write time")                                       \
	X(POSIX_F_META_TIME, "cumulative metadata time (open, close, stat, seek, sync ...)") \
	X(POSIX_F_MAX_READ_TIME, "duration of the slowest read")                             \
	X(POSIX_F_MAX_WRITE_TIME, "duration of the slowest write")                           \
	IOA_RANK_FVARIANCE(X, POSIX)

#define IOA_STDIO_COUNTERS(X)                                                                     \
	X(STDIO_OPENS, "fopen and freopen calls")                                                 \
	X(STDIO_FDOPENS, "fdopen calls")                                                          \
	X(STDIO_READS, "read calls that returned data (fread, fgets, fgetc, getc, getw, fscanf)") \
	X(STDIO_WRITES, "write calls that wrote data (fwrite, fputs, fputc, putc, putw, printf)") \
	X(STDIO_SEEKS, "fseek, fseeko, fsetpos, ftell and rewind calls")                          \
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

#define IOA_MPIIO_FCOUNTERS(X)                                     \
	IOA_TIMESTAMPS(X, MPIIO)                                   \
	X(MPIIO_F_READ_TIME, "cumulative read time")               \
	X(MPIIO_F_WRITE_TIME, "cumulative write time")             \
	X(MPIIO_F_META_TIME, "cumulative metadata time")           \
	X(MPIIO_F_MAX_READ_TIME, "duration of the slowest read")   \
	X(MPIIO_F_MAX_WRITE_TIME, "duration of the slowest write") \
	IOA_RANK_FVARIANCE(X, MPIIO)

/*
 * The modules: X(ID, name, log region type, counters, float counters).
 * Region types are part of the log format (docs/log-format.md) and never
 * reused.
 */
#define IOA_MODULES(X)                                                 \
	X(POSIX, "POSIX", 16, IOA_POSIX_COUNTERS, IOA_POSIX_FCOUNTERS) \
	X(STDIO, "STDIO", 17, IOA_STDIO_COUNTERS, IOA_STDIO_FCOUNTERS) \
	X(MPIIO, "MPI-IO", 18, IOA_MPIIO_COUNTERS, IOA_MPIIO_FCOUNTERS)

#define IOA_COUNTER_ENUM(name, desc) name,
enum ioa_posix_counter { IOA_POSIX_COUNTERS(IOA_COUNTER_ENUM) POSIX_NUM_INDICES };
enum ioa_posix_fcounter { IOA_POSIX_FCOUNTERS(IOA_COUNTER_ENUM) POSIX_F_NUM_INDICES };
enum ioa_stdio_counter { IOA_STDIO_COUNTERS(IOA_COUNTER_ENUM) STDIO_NUM_INDICES };
enum ioa_stdio_fcounter { IOA_STDIO_FCOUNTERS(IOA_COUNTER_ENUM) STDIO_F_NUM_INDICES };
enum ioa_mpiio_counter { IOA_MPIIO_COUNTERS(IOA_COUNTER_ENUM) MPIIO_NUM_INDICES };
enum ioa_mpiio_fcounter { IOA_MPIIO_FCOUNTERS(IOA_COUNTER_ENUM) MPIIO_F_NUM_INDICES };
#undef IOA_COUNTER_ENUM

#define IOA_MODULE_ENUM(id, name, region, counters, fcounters) IOA_MOD_##id,
enum ioa_module { IOA_MODULES(IOA_MODULE_ENUM) IOA_MOD_COUNT };
#undef IOA_MODULE_ENUM

/* Room for any module's counters (checked at compile time in ioa_counters.c). */
#define IOA_MAX_COUNTERS  96
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

/* Whether a counter holds a record id (printed unsigned, as Darshan prints it). */
static inline int ioa_counter_is_record_id(const char *name)
{
	return !strcmp(name, "POSIX_RENAMED_FROM");
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
