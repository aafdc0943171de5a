/*
 * rt_combine — the combination of a shared file's per-rank records (see
 * rt_combine.h).  The variances are population variances over the ranks
 * that held the file, and the four most common access sizes and strides
 * merge as Darshan merges them: each rank's four value/count pairs into
 * the four the combination holds so far, counts of equal values added.
 */
#include "rt_combine.h"
#include "rt_spill.h"

#include <string.h>

static void rank_io(enum ioa_module m, const int64_t *c, const double *f, double *time,
		    int64_t *bytes)
{
	switch (m) {
	case IOA_MOD_POSIX:
		*time = f[POSIX_F_READ_TIME] + f[POSIX_F_WRITE_TIME] + f[POSIX_F_META_TIME];
		*bytes = c[POSIX_BYTES_READ] + c[POSIX_BYTES_WRITTEN];
		break;
	case IOA_MOD_STDIO:
		*time = f[STDIO_F_READ_TIME] + f[STDIO_F_WRITE_TIME] + f[STDIO_F_META_TIME];
		*bytes = c[STDIO_BYTES_READ] + c[STDIO_BYTES_WRITTEN];
		break;
	case IOA_MOD_H5D:
		*time = f[H5D_F_READ_TIME] + f[H5D_F_WRITE_TIME] + f[H5D_F_META_TIME];
		*bytes = c[H5D_BYTES_READ] + c[H5D_BYTES_WRITTEN];
		break;
	case IOA_MOD_H5F:
		*time = f[H5F_F_META_TIME];
		*bytes = 0;
		break;
	case IOA_MOD_PNETCDF_VAR:
		*time = f[PNETCDF_VAR_F_READ_TIME] + f[PNETCDF_VAR_F_WRITE_TIME] +
			f[PNETCDF_VAR_F_META_TIME];
		*bytes = c[PNETCDF_VAR_BYTES_READ] + c[PNETCDF_VAR_BYTES_WRITTEN];
		break;
	case IOA_MOD_PNETCDF_FILE:
		*time = f[PNETCDF_FILE_F_META_TIME] + f[PNETCDF_FILE_F_WAIT_TIME];
		*bytes = c[PNETCDF_FILE_BYTES_READ] + c[PNETCDF_FILE_BYTES_WRITTEN];
		break;
	default:
		*time = f[MPIIO_F_READ_TIME] + f[MPIIO_F_WRITE_TIME] + f[MPIIO_F_META_TIME];
		*bytes = c[MPIIO_BYTES_READ] + c[MPIIO_BYTES_WRITTEN];
		break;
	}
}

/* The counter indices of the rank statistics, per module. */
struct rt_rank_counters {
	int fastest, fastest_bytes, slowest, slowest_bytes;
	int ffastest_time, fslowest_time, fvar_time, fvar_bytes;
	int access1, access1_count, stride1, stride1_count; /* -1: none */
	/* H5D, PNETCDF_VAR: accesses of RT_ACCESS_KEY values each (rt_records.h); 0: none */
	int tuple1, tuple1_count;
};

static const struct rt_rank_counters rank_counters[IOA_MOD_COUNT] = {
	[IOA_MOD_POSIX] = {POSIX_FASTEST_RANK, POSIX_FASTEST_RANK_BYTES, POSIX_SLOWEST_RANK,
			   POSIX_SLOWEST_RANK_BYTES, POSIX_F_FASTEST_RANK_TIME,
			   POSIX_F_SLOWEST_RANK_TIME, POSIX_F_VARIANCE_RANK_TIME,
			   POSIX_F_VARIANCE_RANK_BYTES, POSIX_ACCESS1_ACCESS, POSIX_ACCESS1_COUNT,
			   POSIX_STRIDE1_STRIDE, POSIX_STRIDE1_COUNT},
	[IOA_MOD_STDIO] = {STDIO_FASTEST_RANK, STDIO_FASTEST_RANK_BYTES, STDIO_SLOWEST_RANK,
			   STDIO_SLOWEST_RANK_BYTES, STDIO_F_FASTEST_RANK_TIME,
			   STDIO_F_SLOWEST_RANK_TIME, STDIO_F_VARIANCE_RANK_TIME,
			   STDIO_F_VARIANCE_RANK_BYTES, -1, -1, -1, -1},
	[IOA_MOD_MPIIO] = {MPIIO_FASTEST_RANK, MPIIO_FASTEST_RANK_BYTES, MPIIO_SLOWEST_RANK,
			   MPIIO_SLOWEST_RANK_BYTES, MPIIO_F_FASTEST_RANK_TIME,
			   MPIIO_F_SLOWEST_RANK_TIME, MPIIO_F_VARIANCE_RANK_TIME,
			   MPIIO_F_VARIANCE_RANK_BYTES, MPIIO_ACCESS1_ACCESS, MPIIO_ACCESS1_COUNT,
			   -1, -1},
	[IOA_MOD_H5D] = {H5D_FASTEST_RANK, H5D_FASTEST_RANK_BYTES, H5D_SLOWEST_RANK,
			 H5D_SLOWEST_RANK_BYTES, H5D_F_FASTEST_RANK_TIME, H5D_F_SLOWEST_RANK_TIME,
			 H5D_F_VARIANCE_RANK_TIME, H5D_F_VARIANCE_RANK_BYTES, -1, -1, -1, -1,
			 H5D_ACCESS1_ACCESS, H5D_ACCESS1_COUNT},
	[IOA_MOD_PNETCDF_VAR] = {PNETCDF_VAR_FASTEST_RANK, PNETCDF_VAR_FASTEST_RANK_BYTES,
				 PNETCDF_VAR_SLOWEST_RANK, PNETCDF_VAR_SLOWEST_RANK_BYTES,
				 PNETCDF_VAR_F_FASTEST_RANK_TIME, PNETCDF_VAR_F_SLOWEST_RANK_TIME,
				 PNETCDF_VAR_F_VARIANCE_RANK_TIME,
				 PNETCDF_VAR_F_VARIANCE_RANK_BYTES, -1, -1, -1, -1,
				 PNETCDF_VAR_ACCESS1_ACCESS, PNETCDF_VAR_ACCESS1_COUNT},
	/* Darshan keeps no rank statistics of an HDF5 or PnetCDF file. */
	[IOA_MOD_H5F] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0},
	[IOA_MOD_PNETCDF_FILE] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0},
};

/*
 * Merges the four value/count pairs of one rank (src_values, src_counts)
 * into the combination's four (values, counts; kept: the previous pairs,
 * read before the counters combined): the four largest counts of their
 * union, a larger value first among equal counts.
 */
static void common_values_merge(int64_t *values, int64_t *counts, const int64_t *kept_values,
				const int64_t *kept_counts, const int64_t *src_values,
				const int64_t *src_counts)
{
	struct rt_values all = {0};
	int i;

	for (i = 0; i < 4; i++) {
		if (kept_counts[i] > 0)
			rt_values_add_n(&all, kept_values[i], kept_counts[i]);
		if (src_counts[i] > 0)
			rt_values_add_n(&all, src_values[i], src_counts[i]);
	}
	rt_values_top4(&all, values, counts);
}

/*
 * The same for a dataset's or variable's four most common accesses: one
 * rank's (src, src_counts) into the combination's (into, into_counts;
 * kept: its accesses and counts, read before the counters combined).
 */
static void common_accesses_merge(int64_t *into, int64_t *into_counts, const int64_t *kept,
				  const int64_t *kept_counts, const int64_t *src,
				  const int64_t *src_counts)
{
	struct rt_accesses all = {0};
	int k;

	for (k = 0; k < 4; k++) {
		if (kept_counts[k] > 0)
			rt_accesses_add(&all, &kept[k * RT_ACCESS_KEY], kept_counts[k]);
		if (src_counts[k] > 0)
			rt_accesses_add(&all, &src[k * RT_ACCESS_KEY], src_counts[k]);
	}
	memset(into, 0, 4 * RT_ACCESS_KEY * sizeof(*into));
	memset(into_counts, 0, 4 * sizeof(*into_counts));
	rt_accesses_top4(&all, into, into_counts);
}

/* Adds one rank's record of a shared file to its combination. */
void rt_combine_add(struct rt_combined *cmb, enum ioa_module m, int rank, const int64_t *c,
		    const double *f)
{
	const struct rt_rank_counters *rc = &rank_counters[m];
	double time;
	int64_t bytes;
	int k;

	rank_io(m, c, f, &time, &bytes);
	if (!cmb->ranks) {
		memcpy(cmb->counters, c, ioa_modules[m].counter_count * sizeof(*c));
		memcpy(cmb->fcounters, f, ioa_modules[m].fcounter_count * sizeof(*f));
		cmb->fastest_time = cmb->slowest_time = time;
		cmb->fastest_rank = cmb->slowest_rank = rank;
		cmb->fastest_bytes = cmb->slowest_bytes = bytes;
	} else {
		int64_t kept[2][2][4]; /* access sizes, strides: values, counts */
		int64_t kept_tuples[4 * RT_ACCESS_KEY], kept_tuple_counts[4];

		if (rc->tuple1) {
			memcpy(kept_tuples, &cmb->counters[rc->tuple1], sizeof(kept_tuples));
			memcpy(kept_tuple_counts, &cmb->counters[rc->tuple1_count],
			       sizeof(kept_tuple_counts));
		}

		for (k = 0; k < 2; k++) {
			int at = k ? rc->stride1 : rc->access1,
			    at_count = k ? rc->stride1_count : rc->access1_count;

			if (at >= 0) {
				memcpy(kept[k][0], &cmb->counters[at], sizeof(kept[k][0]));
				memcpy(kept[k][1], &cmb->counters[at_count], sizeof(kept[k][1]));
			}
		}
		ioa_counters_combine(m, cmb->counters, cmb->fcounters, c, f);
		for (k = 0; k < 2; k++) {
			int at = k ? rc->stride1 : rc->access1,
			    at_count = k ? rc->stride1_count : rc->access1_count;

			if (at >= 0)
				common_values_merge(&cmb->counters[at], &cmb->counters[at_count],
						    kept[k][0], kept[k][1], &c[at], &c[at_count]);
		}
		if (rc->tuple1)
			common_accesses_merge(&cmb->counters[rc->tuple1],
					      &cmb->counters[rc->tuple1_count], kept_tuples,
					      kept_tuple_counts, &c[rc->tuple1],
					      &c[rc->tuple1_count]);
		if (time < cmb->fastest_time) {
			cmb->fastest_time = time;
			cmb->fastest_rank = rank;
			cmb->fastest_bytes = bytes;
		}
		if (time > cmb->slowest_time) {
			cmb->slowest_time = time;
			cmb->slowest_rank = rank;
			cmb->slowest_bytes = bytes;
		}
	}
	cmb->ranks++;
	cmb->time_sum += time;
	cmb->time_sq += time * time;
	cmb->bytes_sum += (double)bytes;
	cmb->bytes_sq += (double)bytes * (double)bytes;
}

/* Sets the record's value set to the four pairs, which packing reads back in the same order. */
static void common_values_keep(struct rt_values *set, const int64_t *values, const int64_t *counts)
{
	int k;

	*set = (struct rt_values){0};
	for (k = 0; k < 4; k++)
		if (counts[k] > 0)
			rt_values_add_n(set, values[k], counts[k]);
}

void rt_combine_finish(struct rt_combined *cmb)
{
	enum ioa_module m = cmb->rec.module;
	const struct rt_rank_counters *rc = &rank_counters[m];
	double n = cmb->ranks, mean_t = cmb->time_sum / n, mean_b = cmb->bytes_sum / n;

	/* Rank statistics and common values, for the modules that keep them. */
	if (rc->fastest >= 0) {
		cmb->counters[rc->fastest] = cmb->fastest_rank;
		cmb->counters[rc->fastest_bytes] = cmb->fastest_bytes;
		cmb->counters[rc->slowest] = cmb->slowest_rank;
		cmb->counters[rc->slowest_bytes] = cmb->slowest_bytes;
		cmb->fcounters[rc->ffastest_time] = cmb->fastest_time;
		cmb->fcounters[rc->fslowest_time] = cmb->slowest_time;
		cmb->fcounters[rc->fvar_time] = cmb->time_sq / n - mean_t * mean_t;
		cmb->fcounters[rc->fvar_bytes] = cmb->bytes_sq / n - mean_b * mean_b;
		/* Packing takes the four most common values from the record's sets: these four. */
		if (rc->access1 >= 0)
			common_values_keep(&cmb->rec.access_sizes, &cmb->counters[rc->access1],
					   &cmb->counters[rc->access1_count]);
		if (rc->stride1 >= 0)
			common_values_keep(&cmb->rec.strides, &cmb->counters[rc->stride1],
					   &cmb->counters[rc->stride1_count]);
	}
	cmb->rec.counters = cmb->counters;
	cmb->rec.fcounters = cmb->fcounters;
	cmb->rec.name = cmb->name;
	cmb->rec.flags |= IOA_REC_SHARED;
	cmb->rec.next_in_module = rt_live->modules[m].combined;
	rt_live->modules[m].combined = &cmb->rec;
}
