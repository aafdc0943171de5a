/*
 * ioa_logfmt — constants of the ioatlas log format and the little-endian
 * encoding shared by the writer (ioa_logw) and the reader (ioa_logr).
 * docs/log-format.md is the specification; this header must agree with it.
 *
 * A log is a 64-byte header, a region table, and regions.  Everything is
 * little-endian.  Each region is typed, optionally zlib-compressed and
 * CRC32-checked; readers skip types they do not know.
 */
#ifndef IOA_LOGFMT_H
#define IOA_LOGFMT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define IOA_LOG_MAGIC		  "IOATLAS\n"
#define IOA_LOG_MAGIC_LEN	  8
#define IOA_LOG_VERSION_MAJOR	  1
#define IOA_LOG_VERSION_MINOR	  1
#define IOA_LOG_BYTE_ORDER	  0x01020304u
#define IOA_LOG_HEADER_SIZE	  64
#define IOA_LOG_REGION_ENTRY_SIZE 40
/* Limits that a reader enforces whatever the log claims. */
#define IOA_LOG_MAX_REGIONS    1048576u
#define IOA_LOG_MAX_REGION_RAW ((uint64_t)1 << 31)

/* Header flags. */
#define IOA_LOG_FLAG_FOLDED 0x1u /* some records were folded (memory budget) */

/* Region compression. */
#define IOA_LOG_COMPRESS_NONE 0u
#define IOA_LOG_COMPRESS_ZLIB 1u

/* Region types; the module regions (16..31) come from ioa_counters.h. */
#define IOA_REGION_JOB	    1u
#define IOA_REGION_NAMES    2u
#define IOA_REGION_MOUNTS   3u
#define IOA_REGION_ERRORS   4u
#define IOA_REGION_HINTS    5u
#define IOA_REGION_FOLDED   6u
#define IOA_REGION_MPILIB   7u /* the MPI library's own I/O, not the application's */
#define IOA_REGION_BINS	    32u
#define IOA_REGION_TRACE    33u
#define IOA_REGION_SEGMENTS 34u /* operations with exact times, from another tool's trace (DXT) */

/*
 * The first u32 of a module, names or bins region in the column encoding
 * (format 1.1): readers of 1.0 take it for a count out of range and refuse
 * the region rather than misread it.  Regions without it are 1.0's layout,
 * which readers keep reading.
 */
#define IOA_REGION_COLUMNS 0xffffff02u

/* Column predictors: the code of each value is its difference from ... */
#define IOA_COL_PLAIN	 0u /* 0 (the value itself) */
#define IOA_COL_PREV	 1u /* the column's value in the previous record */
#define IOA_COL_TERMS	 2u /* float columns: a + c - b - d, four earlier columns of the record */
#define IOA_COL_MAX_TICK ((int64_t)1 << 53) /* float columns: |ticks| at most this */

/* Keys of the job region's key/value entries. */
#define IOA_JOB_KEYS(X)                   \
	X(UID, 1, "uid")                  \
	X(USER, 2, "user")                \
	X(JOBID, 3, "jobid")              \
	X(START_NS, 4, "start_time_ns")   \
	X(END_NS, 5, "end_time_ns")       \
	X(NPROCS, 6, "nprocs")            \
	X(NNODES, 7, "nnodes")            \
	X(EXE, 8, "exe")                  \
	X(ARGS, 9, "args")                \
	X(VERSION, 10, "runtime_version") \
	X(SETTINGS, 11, "settings")       \
	X(HOSTNAMES, 12, "hostnames")     \
	X(RANK_NODES, 13, "rank_nodes")   \
	X(FOLDED, 14, "folded")           \
	X(SCHEDULER, 15, "scheduler")     \
	X(LOST, 16, "untracked")          \
	X(RANKS, 17, "ranks")             \
	X(TREE, 18, "tree")               \
	X(PROCS, 19, "procs")             \
	X(PID, 20, "pid")                 \
	X(MPI, 21, "mpi")                 \
	X(STEP, 24, "step")               \
	X(ARRAY_JOB, 25, "array_job")     \
	X(ARRAY_TASK, 26, "array_task")   \
	X(PARTITION, 27, "partition")     \
	X(ACCOUNT, 28, "account")         \
	X(JOB_NAME, 29, "job_name")       \
	X(NODELIST, 30, "nodelist")       \
	X(PARTIAL, 31, "partial")         \
	X(SOURCE, 32, "source")           \
	X(CLOCK, 33, "clock")             \
	X(LIBRARIES, 34, "io_libraries")  \
	X(BUILD, 35, "build_id")

/*
 * IOA_JOB_LIBRARIES: the I/O libraries the program used (runtime/rt_libs.h),
 * their names space-separated in this order.  Readers ignore names they do
 * not know.
 */
#define IOA_IO_LIBRARIES(X)      \
	X(HDF5, 0, "hdf5")       \
	X(NETCDF, 1, "netcdf")   \
	X(PNETCDF, 2, "pnetcdf") \
	X(ADIOS, 3, "adios")     \
	X(ADIOS2, 4, "adios2")

#define IOA_LIB_BIT(id, bit, name) IOA_LIB_##id = 1u << (bit),
enum { IOA_IO_LIBRARIES(IOA_LIB_BIT) };
#undef IOA_LIB_BIT

/*
 * IOA_JOB_PARTIAL: the log was recovered from what a job's processes left
 * behind (`ioatlas recover`, docs/recovery.md), not written at their end.
 * Its value is "name=value" lines, in this order, each present only when
 * known:
 *	how=signal|killed|exit|abort	how the processes ended: a signal the
 *			runtime saw (signal=), killed without a word (SIGKILL,
 *			the OOM killer, a crash), exit() without MPI_Finalize,
 *			MPI_Abort (abort_code=)
 *	signal=N	the signal's number (how=signal)
 *	abort_code=N	MPI_Abort's error code (how=abort)
 *	reason=TEXT	the scheduler's word on the job's end (TIMEOUT, CANCELLED ...)
 *	ranks=LIST	the ranks recovered, "0-3,5"
 *	missing=LIST	the job's ranks that left nothing to recover
 *	until_first_ns=N, until_last_ns=N
 *			wall-clock ns (as start_time_ns) up to which the
 *			least and the most current recovered rank recorded
 */
/*
 * IOA_JOB_SOURCE: the log was imported from another tool's (ioatlas
 * import, docs/darshan.md); absent in the runtime's own logs.  Its value
 * is "name=value" lines:
 *	tool=darshan	the tool that wrote the original
 *	format=3.41	its log format
 *	library=3.5.0	the library version that wrote it
 *	compression=zlib|bzip2|none
 *	incomplete=LIST	modules that ran out of memory, so that some of
 *			their records are missing ("POSIX,STDIO")
 *	left_out=LIST	modules in the log that were not imported
 *	skipped=N	records left out (POSIX version 1's with stdio counts)
 *	metadata=K=V	each of the job's metadata entries, as the tool kept it
 * Counters the original does not have read -1 ("not recorded").
 */
/*
 * IOA_JOB_CLOCK: how the ranks' times were put on one clock, the job's
 * (every time in the log counts from start_time_ns on it); absent in
 * logs written before 2026-11-28, whose ranks each count from their own
 * start.  Its value is "name=value" words on one line:
 *	base=rank0	MPI: each rank's clock measured against the log
 *			writer's (ping-pong at MPI_Finalize, the best of a
 *			few round trips)
 *	base=wall	a process tree or a recovered job: each process's
 *			wall clock at its start
 *	uncertainty_ns=N	the worst rank's: half its best round trip
 *	drift_ns=N	the most a rank's clock moved against its wall clock,
 *			relative to the writer's, over the run (times early in
 *			the run may be off by up to this much more)
 *	ranks=N		the ranks on the clock
 *	unmeasured=N	ranks whose rounds failed: on their wall clocks
 */
/*
 * IOA_JOB_BUILD: the program's GNU build id (the linker's build-id note),
 * lowercase hex, at most IOA_BUILD_ID_MAX digits; absent when the program
 * has none, and in recovered and imported logs.  Readers take anything
 * else for absent.
 */
#define IOA_BUILD_ID_MAX		  128
#define IOA_JOB_KEY_ENUM(id, value, name) IOA_JOB_##id = value,
enum ioa_job_key { IOA_JOB_KEYS(IOA_JOB_KEY_ENUM) };
#undef IOA_JOB_KEY_ENUM

/* Record flags, per module record. */
#define IOA_REC_SHARED	0x1u  /* reduced over ranks: rank is -1 */
#define IOA_REC_CREATED 0x2u  /* created by the job */
#define IOA_REC_REMOVED 0x4u  /* removed by the job */
#define IOA_REC_FOLDED	0x8u  /* the overflow record: files past the budget */
#define IOA_REC_PARTIAL 0x10u /* a shared file that some of its ranks folded */

static inline void ioa_put_u16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static inline void ioa_put_u32(unsigned char *p, uint32_t v)
{
	ioa_put_u16(p, (uint16_t)v);
	ioa_put_u16(p + 2, (uint16_t)(v >> 16));
}

static inline void ioa_put_u64(unsigned char *p, uint64_t v)
{
	ioa_put_u32(p, (uint32_t)v);
	ioa_put_u32(p + 4, (uint32_t)(v >> 32));
}

static inline uint16_t ioa_get_u16(const unsigned char *p)
{
	return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}

static inline uint32_t ioa_get_u32(const unsigned char *p)
{
	return ioa_get_u16(p) | (uint32_t)ioa_get_u16(p + 2) << 16;
}

static inline uint64_t ioa_get_u64(const unsigned char *p)
{
	return ioa_get_u32(p) | (uint64_t)ioa_get_u32(p + 4) << 32;
}

static inline uint64_t ioa_f64_bits(double d)
{
	uint64_t v;

	memcpy(&v, &d, sizeof(v));
	return v;
}

static inline double ioa_bits_f64(uint64_t v)
{
	double d;

	memcpy(&d, &v, sizeof(d));
	return d;
}

/*
 * A bounds-checked reading position in a decoded region.  Reads past the end
 * set `overrun` and return zeros; callers check once at the end.
 */
struct ioa_cursor {
	const unsigned char *pos;
	size_t left;
	int overrun;
};

static inline const unsigned char *ioa_cursor_take(struct ioa_cursor *c, size_t n)
{
	const unsigned char *p = c->pos;

	if (c->overrun || n > c->left) {
		c->overrun = 1;
		c->left = 0;
		return NULL;
	}
	c->pos += n;
	c->left -= n;
	return p;
}

static inline uint16_t ioa_cursor_u16(struct ioa_cursor *c)
{
	const unsigned char *p = ioa_cursor_take(c, 2);

	return p ? ioa_get_u16(p) : 0;
}

static inline uint32_t ioa_cursor_u32(struct ioa_cursor *c)
{
	const unsigned char *p = ioa_cursor_take(c, 4);

	return p ? ioa_get_u32(p) : 0;
}

static inline uint64_t ioa_cursor_u64(struct ioa_cursor *c)
{
	const unsigned char *p = ioa_cursor_take(c, 8);

	return p ? ioa_get_u64(p) : 0;
}

#endif
