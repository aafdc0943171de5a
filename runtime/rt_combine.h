/*
 * rt_combine — combines the records that several ranks hold of one shared
 * file into one record (rank -1), on rank 0 at MPI shutdown: counters by
 * their rule (ioa_counters_combine), the common access sizes merged, and
 * the statistics only a combination has: fastest and slowest rank with
 * their bytes and times, and the variances of I/O time and bytes across
 * the ranks that shared the file.
 */
#ifndef RT_COMBINE_H
#define RT_COMBINE_H

#include "rt_records.h"

struct rt_combined {
	struct rt_record rec; /* linked into rt_live->modules[].combined when finished */
	int64_t counters[IOA_MAX_COUNTERS];
	double fcounters[IOA_MAX_FCOUNTERS];
	int ranks;
	double time_sum, time_sq, bytes_sum, bytes_sq;
	double fastest_time, slowest_time;
	int64_t fastest_bytes, slowest_bytes;
	int fastest_rank, slowest_rank;
	char *name; /* malloc'ed; freed by the caller */
};

/* Adds one rank's record (counters in table order) to the combination. */
void rt_combine_add(struct rt_combined *cmb, enum ioa_module m, int rank, const int64_t *c,
		    const double *f);

/* Fills the rank statistics and links the combined record for packing. */
void rt_combine_finish(struct rt_combined *cmb);

#endif
