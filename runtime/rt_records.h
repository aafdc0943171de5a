/*
 * rt_records — per-file records of every module, found by record id (a
 * 64-bit hash of the file's absolute path, as Darshan does), plus the
 * per-record state that Darshan-style counters need between calls: last
 * bytes read and written, the last kind of access, the most common access
 * sizes and strides, and the extents written (to recognise in-place
 * rewrites).
 *
 * Records live in the arena until shutdown.  When the arena is full a new
 * file folds into its module's overflow record (flag IOA_REC_FOLDED), so
 * job totals stay exact.  Failed calls are counted per (record, operation,
 * errno) in a table of their own.  All functions expect the runtime lock.
 */
#ifndef RT_RECORDS_H
#define RT_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "ioa_counters.h"
#include "ioa_logfmt.h"

/*
 * A small exact counter of distinct values (access sizes, strides), as
 * Darshan keeps them: the first 32 distinct values a file shows, 0
 * included, each counted exactly; later values are not counted.  The four
 * most common are then the four largest counts of those, a larger value
 * first among equal counts, never the value 0.
 */
#define RT_VALUE_SLOTS 32
struct rt_values {
	int64_t value[RT_VALUE_SLOTS];
	int64_t count[RT_VALUE_SLOTS];
	/*
	 * A filter of the values kept: the bit of each value's hash
	 * (rt_values_add_n()).  A value whose bit is clear is not among them,
	 * which a file of random strides, its 32 slots full, learns without
	 * looking at them.
	 */
	uint64_t seen[2];
	unsigned used;
};

/*
 * The byte ranges a record's writes covered, to recognise in-place rewrites
 * exactly: disjoint [start, end) ranges that do not touch, sorted by start,
 * in an array from the arena that doubles as it fills (rt_extents_add).  A
 * file keeps at most RT_EXTENTS_MAX ranges, and all files together at most
 * a quarter of the memory budget; a write that would need one more is not
 * remembered, its bytes are counted as untracked, and a later rewrite of
 * them goes unseen: the rewrite counts are then lower bounds, never more
 * than the truth.
 */
#define RT_EXTENTS_MAX	8192
#define RT_EXTENT_SIZES 16 /* power-of-two array sizes, 16 ranges and up */
struct rt_extent {
	int64_t start, end;
};
struct rt_extents {
	struct rt_extent *x;
	uint32_t used, room;
};

/*
 * The time-resolved view: each record's reads and writes in RT_BINS equal
 * time bins from start-up.  All records share one bin width, which doubles
 * (adjacent bins merging) whenever the run outgrows the bins, so the view
 * always spans the whole run at a fixed memory cost per record.
 */
#define RT_BINS 16
struct rt_bin {
	uint64_t read_bytes;
	uint64_t write_bytes;
	uint32_t read_ops;
	uint32_t write_ops;
};

/*
 * A dataset's or variable's most common accesses (H5D's and PNETCDF_VAR's
 * ACCESS1..4): the bytes and, per
 * dimension from the fastest-varying one (D1..D5), length and stride of a
 * regular selection; the first RT_ACCESS_SLOTS distinct ones are counted
 * exactly, later new ones not at all.
 */
#define RT_ACCESS_KEY	11
#define RT_ACCESS_SLOTS 8
struct rt_accesses {
	int64_t key[RT_ACCESS_SLOTS][RT_ACCESS_KEY];
	int64_t count[RT_ACCESS_SLOTS];
	unsigned used;
};

struct rt_record {
	struct rt_record *next_in_bucket;
	struct rt_record *next_in_module; /* for shutdown's walk */
	uint64_t id;
	const char *name;
	enum ioa_module module;
	uint32_t flags;
	int64_t last_byte_read;	   /* 0 before the first read, as in Darshan */
	int64_t last_byte_written; /* 0 before the first write */
	int last_io;		   /* 0 none, 1 read, 2 write */
	double meta_end, read_end, write_end;
	struct rt_values access_sizes;
	struct rt_values strides;
	struct rt_extents written;
	struct rt_bin *bins;	      /* RT_BINS, from the first read or write on */
	const char *hints;	      /* MPI-IO: hints given at the last open, "key=value" lines */
	struct rt_accesses *accesses; /* H5D, PNETCDF_VAR: most common accesses, from the first */
	uint32_t trace_slot;	      /* 1 + the file's slot in the operation trace, 0 before */
	int64_t *counters;
	double *fcounters;
};

/* Internal record flag, never written: the record goes in another rank's log. */
#define RT_REC_ELSEWHERE 0x80000000u

struct rt_module_records {
	struct rt_record *first;
	struct rt_record *combined; /* rank 0 at MPI shutdown: shared files, combined */
	struct rt_record *overflow; /* where files past the budget fold */
	uint64_t folded_files;	    /* distinct files that went to the overflow record */
};

/* Allocates the lookup tables from the arena.  0 or -ENOMEM. */
int rt_records_init(void);

/*
 * The record for (module, absolute path), created if need be; the overflow
 * record when the arena is full.  NULL only before rt_records_init().
 */
struct rt_record *rt_record_get(enum ioa_module module, const char *path, size_t len);

/* The record with this id, or NULL. */
struct rt_record *rt_record_find(enum ioa_module module, uint64_t id);

/* The record id of a path: XXH3 64-bit of its bytes. */
uint64_t rt_record_id(const char *path, size_t len);

/* Adds an access at time t (ticks) to rec's bins. */
void rt_bins_add(struct rt_record *rec, double t, int is_write, int64_t bytes);
/*
 * Adds n accesses of bytes each, made from t_lo to t_hi, when one bin
 * takes them all: 1 when added, 0 when they span bins (add each).
 */
int rt_bins_add_n(struct rt_record *rec, double t_lo, double t_hi, int is_write, int64_t bytes,
		  int64_t n);

/*
 * The files that folded into an overflow record, by (module, record id):
 * kept in a table of their own, sized from the budget when the runtime
 * starts, so the log can say exactly which files lost their records (and a
 * shared file held by other ranks is marked incomplete, never silently
 * short).  Ids past the table's room are only counted.
 */
struct rt_folded {
	uint64_t *ids; /* open addressing; 0 is empty */
	uint16_t *modules;
	size_t mask;
	uint64_t count;
	uint64_t dropped;
};

/* Counts n occurrences of value at once (saturating). */
void rt_values_add_n(struct rt_values *v, int64_t value, int64_t n);

/* Counts one occurrence of value: inline when it is the first value seen (a file's usual). */
static inline void rt_values_add(struct rt_values *v, int64_t value)
{
	if (v->used && v->value[0] == value && v->count[0] < INT64_MAX)
		v->count[0]++;
	else
		rt_values_add_n(v, value, 1);
}

/* Counts n occurrences of an access (key: RT_ACCESS_KEY values). */
void rt_accesses_add(struct rt_accesses *t, const int64_t *key, int64_t n);

/*
 * Writes the four most common accesses of t (NULL: none) into a dataset's
 * or variable's counters: ACCESS1..4 from access1, their counts from count1.
 */
void rt_accesses_top4(const struct rt_accesses *t, int64_t *access1, int64_t *count1);

/* Writes the four most common values but 0 and their counts (Darshan's ACCESS1..4 layout). */
void rt_values_top4(const struct rt_values *v, int64_t *values, int64_t *counts);

/*
 * Adds [start, end) to the written extents; returns the bytes already
 * written in it.  Adds to *untracked the bytes it could not remember.
 */
int64_t rt_extents_add_any(struct rt_extents *e, int64_t start, int64_t end, int64_t *untracked);

/* The same, a write right after the last range (a file written in order) inline. */
static inline int64_t rt_extents_add(struct rt_extents *e, int64_t start, int64_t end,
				     int64_t *untracked)
{
	if (e->used && e->x[e->used - 1].end == start && end > start) {
		e->x[e->used - 1].end = end;
		return 0;
	}
	return rt_extents_add_any(e, start, end, untracked);
}

/* Forgets what was written at length and beyond (a truncation; 0: the file is new). */
void rt_extents_cut(struct rt_extents *e, int64_t length);

/*
 * Records a failed call on rec (may be NULL: no file); op is a string
 * literal.  A POSIX or STDIO call that failed inside MPI (the MPI library's
 * own: rt_core.h, RT_IN_MPI) or inside an MPI-IO call (ROMIO's probes) is
 * the MPI library's: its entry is marked so, and the record's FAILED_CALLS,
 * the application's failures, stays as it was.
 */
void rt_record_failure(struct rt_record *rec, enum ioa_module module, const char *op, int err);

struct rt_failure {
	uint64_t record_id; /* 0 when the call named no recorded file */
	enum ioa_module module;
	const char *op;
	int err;
	int mpi_library; /* made by the MPI library, not the application */
	uint64_t count;
};

/*
 * At shutdown, once: turns every record's times from ticks (rt_now()) into
 * seconds.  Every floating-point counter is a time or a timestamp until the
 * shutdown computes the rank variances.
 */
void rt_records_to_seconds(double seconds_per_tick);

/*
 * Then, on the job's clock (rt_clock.h): moves every timestamp that was
 * taken (> 0) by ticks, from this process's start to the job's.
 */
void rt_records_shift(uint64_t ticks);

/* Failed calls not kept because the failure table was full. */

/* Walks the failure table; returns the number of entries. */
size_t rt_failures(const struct rt_failure **table);

/*
 * Adds the time t1 - t0 to *total, counting time that overlaps the previous
 * call (from another thread) only once, as Darshan does.
 */
static inline void rt_add_time(double *total, double *last_end, double t0, double t1)
{
	if (t0 < *last_end)
		t0 = *last_end;
	if (t1 > t0)
		*total += t1 - t0;
	if (t1 > *last_end)
		*last_end = t1;
}

/* Keeps the earliest (first) or latest (last) of a timestamp's values. */
static inline void rt_set_first(double *stamp, double t)
{
	if (*stamp == 0 || t < *stamp)
		*stamp = t;
}

static inline void rt_set_last(double *stamp, double t)
{
	if (t > *stamp)
		*stamp = t;
}

/* Counts n accesses of len bytes in their size bin, of counters[first_bin..first_bin+9]. */
void rt_size_bin_n(int64_t *counters, int first_bin, int64_t len, int64_t n);
static inline void rt_size_bin(int64_t *counters, int first_bin, int64_t len)
{
	rt_size_bin_n(counters, first_bin, len, 1);
}

/*
 * A read or write of a dataset or variable (H5D, PNETCDF_VAR) that moved
 * bytes in [t0, t1], its access key (RT_ACCESS_KEY values, rt_accesses):
 * bytes, size bins, most common accesses, read/write switches, times and
 * the slowest access.  The module's own operation counters are the
 * caller's.  Under the lock.
 */
void rt_layer_io(struct rt_record *rec, int is_write, int64_t bytes, const int64_t *key, double t0,
		 double t1);

#endif
