/*
 * summary — what `ioatlas parse --total`, `--file` and `--perf` print for
 * each module, in darshan-parser's words and by its rules, so that scripts
 * written for darshan-parser read ours (docs/darshan.md):
 *
 *   --total  one aggregate record: counts summed, highest offsets and last
 *            timestamps the largest, first timestamps the earliest, modes
 *            the last record's, the four most common access sizes and
 *            strides over all records, the fastest and slowest rank when
 *            every record is of one file;
 *   --file   the files by kind (read only, write only, both; opened by one
 *            process or shared), with their bytes and highest offset;
 *   --perf   the slowest rank's I/O time on unique files, the shared files'
 *            time by their slowest rank, and the bandwidth they give.
 *
 * Records are added one at a time; memory is a few numbers per file and
 * per rank.
 */
#ifndef SUMMARY_H
#define SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "ioa_counters.h"
#include "ioa_logr.h"

struct summary_file;

/* A record's share of its rank's time on unique files (--perf). */
struct summary_rank {
	int32_t rank;
	double io, meta, rw;
};

struct summary {
	uint64_t records;
	struct ioa_log_record agg; /* --total */
	unsigned char irule[IOA_MAX_COUNTERS], frule[IOA_MAX_FCOUNTERS]; /* by counter */
	int16_t fsize[IOA_MAX_FCOUNTERS]; /* the size counter a slowest-call time carries, or -1 */
	uint64_t agg_id;	   /* every record's file, while they share one */
	int agg_one_file;
	double fastest, slowest; /* per-record I/O time, while agg_one_file */
	struct summary_file *files; /* --file: by record id */
	size_t nfiles, files_alloc;
	int64_t total_bytes; /* --perf */
	double shared_time;
	struct summary_rank *ranks; /* per record of a rank, unique files */
	size_t nranks, ranks_alloc;
};

/* Adds a record of module (all of one summary's records are of one module).  0 or -ENOMEM. */
int summary_add(struct summary *s, const struct ioa_log_record *rec);

/* Prints each part, darshan-parser's lines; --total the counters (floats) order lists, in that order. */
void summary_print_total(struct summary *s, const int *order, unsigned n, const int *forder,
			 unsigned fn);
void summary_print_files(struct summary *s, enum ioa_module module);
void summary_print_perf(struct summary *s);

void summary_release(struct summary *s);

#endif
