/*
 * summary — darshan-parser's --total, --file and --perf (see summary.h).
 * The rules are Darshan's documented ones; where darshan-parser's own
 * merge of the most common access sizes and strides departs from "the four
 * most common" (it can keep a less common value ahead of a more common
 * one), this keeps the four most common (docs/darshan.md).
 */
#include "summary.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct summary_file {
	uint64_t id;
	int64_t read, written, max_offset;
	int64_t nprocs; /* -1: shared by all ranks; else records seen */
};

/* ------------------------------------------------------------ --total */

enum rule { SUM, MAX, MIN_POSITIVE, LAST, COMMON, RANK, ZERO, WITH_MAX_TIME };

static enum rule rule_of(const char *name, int is_float)
{
	if (strstr(name, "_FASTEST_RANK") || strstr(name, "_SLOWEST_RANK"))
		return RANK;
	if (strstr(name, "_VARIANCE_"))
		return ZERO;
	if (strstr(name, "_ACCESS") || strstr(name, "_STRIDE"))
		return COMMON;
	if (strstr(name, "_START_TIMESTAMP"))
		return MIN_POSITIVE;
	if (strstr(name, "_END_TIMESTAMP") || strstr(name, "_MAX_BYTE_"))
		return MAX;
	if (strstr(name, "_MAX_READ_TIME_SIZE") || strstr(name, "_MAX_WRITE_TIME_SIZE"))
		return WITH_MAX_TIME;
	if (is_float && strstr(name, "_F_MAX_"))
		return MAX;
	if (strstr(name, "_MODE") || strstr(name, "ALIGNMENT") || strstr(name, "RENAMED_FROM"))
		return LAST;
	if (!is_float && ioa_counter_agg(name) != IOA_AGG_SUM)
		return ioa_counter_agg(name) == IOA_AGG_MAX ? MAX : LAST;
	return SUM;
}

/* The four most common values of two top-4 lists: by count, then the larger value first. */
static void common_merge(int64_t *values, int64_t *counts, const int64_t *in_values,
			 const int64_t *in_counts)
{
	int64_t v[8], c[8];
	int n = 0, i, k;

	for (i = 0; i < 4; i++)
		if (counts[i] > 0) {
			v[n] = values[i];
			c[n++] = counts[i];
		}
	for (i = 0; i < 4; i++) {
		if (in_counts[i] <= 0)
			continue;
		for (k = 0; k < n && v[k] != in_values[i]; k++)
			;
		if (k < n) {
			c[k] = ioa_counter_sat_add(c[k], in_counts[i]);
		} else {
			v[n] = in_values[i];
			c[n++] = in_counts[i];
		}
	}
	for (i = 0; i < 4; i++) {
		int best = -1;

		for (k = 0; k < n; k++)
			if (c[k] > 0 && (best < 0 || c[k] > c[best] || (c[k] == c[best] && v[k] > v[best])))
				best = k;
		values[i] = best < 0 ? 0 : v[best];
		counts[i] = best < 0 ? 0 : c[best];
		if (best >= 0)
			c[best] = 0;
	}
}

/* The index of the counter whose name ends in suffix ("_BYTES_READ"), or -1. */
static int by_suffix(const char *const *names, unsigned n, const char *suffix)
{
	size_t len = strlen(suffix);

	for (unsigned i = 0; i < n; i++) {
		size_t l = strlen(names[i]);

		if (l >= len && !strcmp(names[i] + l - len, suffix))
			return (int)i;
	}
	return -1;
}

static int64_t ic(const struct ioa_log_record *rec, const char *suffix)
{
	const struct ioa_module_desc *m = &ioa_modules[rec->module];
	int i = by_suffix(m->counter_names, m->counter_count, suffix);

	return i < 0 ? 0 : rec->counters[i];
}

static double fc(const struct ioa_log_record *rec, const char *suffix)
{
	const struct ioa_module_desc *m = &ioa_modules[rec->module];
	int i = by_suffix(m->fcounter_names, m->fcounter_count, suffix);

	return i < 0 ? 0 : rec->fcounters[i];
}

/* The I/O time, rank and bytes a record stands for as the fastest (or slowest) one. */
static void record_speed(const struct ioa_log_record *rec, int slowest, double *time,
			 int64_t *rank, int64_t *bytes)
{
	if (rec->rank < 0) {
		*rank = ic(rec, slowest ? "_SLOWEST_RANK" : "_FASTEST_RANK");
		*bytes = ic(rec, slowest ? "_SLOWEST_RANK_BYTES" : "_FASTEST_RANK_BYTES");
		*time = fc(rec, slowest ? "_F_SLOWEST_RANK_TIME" : "_F_FASTEST_RANK_TIME");
		return;
	}
	*rank = rec->rank;
	*bytes = ioa_counter_sat_add(ic(rec, "_BYTES_READ"), ic(rec, "_BYTES_WRITTEN"));
	*time = fc(rec, "_F_READ_TIME") + fc(rec, "_F_WRITE_TIME") + fc(rec, "_F_META_TIME");
}

static void set_rank_fields(struct ioa_log_record *agg, int slowest, double time, int64_t rank,
			    int64_t bytes)
{
	const struct ioa_module_desc *m = &ioa_modules[agg->module];
	int r = by_suffix(m->counter_names, m->counter_count,
			  slowest ? "_SLOWEST_RANK" : "_FASTEST_RANK");
	int b = by_suffix(m->counter_names, m->counter_count,
			  slowest ? "_SLOWEST_RANK_BYTES" : "_FASTEST_RANK_BYTES");
	int t = by_suffix(m->fcounter_names, m->fcounter_count,
			  slowest ? "_F_SLOWEST_RANK_TIME" : "_F_FASTEST_RANK_TIME");

	if (r >= 0)
		agg->counters[r] = rank;
	if (b >= 0)
		agg->counters[b] = bytes;
	if (t >= 0)
		agg->fcounters[t] = time;
}

static void total_add(struct summary *s, const struct ioa_log_record *rec)
{
	const struct ioa_module_desc *m = &ioa_modules[rec->module];
	struct ioa_log_record *agg = &s->agg;
	double t_fast, t_slow;
	int64_t r_fast, r_slow, b_fast, b_slow;
	unsigned i;

	if (!s->records) {
		memset(agg, 0, sizeof(*agg));
		agg->module = rec->module;
		s->agg_id = rec->id;
		s->agg_one_file = 1;
		/* The rules, worked out from the names once. */
		for (i = 0; i < m->counter_count; i++)
			s->irule[i] = (unsigned char)rule_of(m->counter_names[i], 0);
		for (i = 0; i < m->fcounter_count; i++) {
			const char *n = m->fcounter_names[i];

			s->frule[i] = (unsigned char)rule_of(n, 1);
			/* The slowest call carries its size along. */
			s->fsize[i] = (int16_t)by_suffix(m->counter_names, m->counter_count,
							 strstr(n, "_F_MAX_READ_TIME")    ? "_MAX_READ_TIME_SIZE"
							 : strstr(n, "_F_MAX_WRITE_TIME") ? "_MAX_WRITE_TIME_SIZE"
											   : "-");
		}
	}
	s->agg_one_file &= rec->id == s->agg_id;
	for (i = 0; i < m->fcounter_count; i++) {
		double v = rec->fcounters[i], *a = &agg->fcounters[i];

		switch ((enum rule)s->frule[i]) {
		case SUM: *a += v; break;
		case MIN_POSITIVE:
			if (v > 0 && (*a <= 0 || v < *a))
				*a = v;
			break;
		case MAX:
			/* From 0: a counter not recorded (-1) in every record totals 0, as Darshan's. */
			if (v > *a) {
				*a = v;
				if (s->fsize[i] >= 0)
					agg->counters[s->fsize[i]] = rec->counters[s->fsize[i]];
			}
			break;
		default: break;
		}
	}
	for (i = 0; i < m->counter_count; i++) {
		int64_t v = rec->counters[i], *a = &agg->counters[i];

		switch ((enum rule)s->irule[i]) {
		case SUM:
			*a = ioa_counter_sat_add(*a, v);
			/* Unknown in a record stays unknown in the sum, as Darshan keeps -1. */
			if (*a < 0)
				*a = IOA_NOT_RECORDED;
			break;
		case MAX:
			if (v > *a)
				*a = v;
			break;
		case LAST: *a = v; break;
		case COMMON:
			/* The block's first value: four values, then their four counts. */
			if (strstr(m->counter_names[i], "1_ACCESS") ||
			    strstr(m->counter_names[i], "1_STRIDE"))
				common_merge(&agg->counters[i], &agg->counters[i + 4], &rec->counters[i],
					     &rec->counters[i + 4]);
			break;
		default: break;
		}
	}
	record_speed(rec, 0, &t_fast, &r_fast, &b_fast);
	record_speed(rec, 1, &t_slow, &r_slow, &b_slow);
	if (!s->records || t_fast < s->fastest) {
		s->fastest = t_fast;
		set_rank_fields(agg, 0, t_fast, r_fast, b_fast);
	}
	if (!s->records || t_slow > s->slowest) {
		s->slowest = t_slow;
		set_rank_fields(agg, 1, t_slow, r_slow, b_slow);
	}
}

void summary_print_total(struct summary *s, const int *order, unsigned n, const int *forder,
			 unsigned fn)
{
	const struct ioa_module_desc *m = &ioa_modules[s->agg.module];

	/* Records of several files have no one fastest or slowest rank. */
	if (!s->agg_one_file) {
		set_rank_fields(&s->agg, 0, 0, -1, -1);
		set_rank_fields(&s->agg, 1, 0, -1, -1);
	}
	for (unsigned k = 0; k < n; k++)
		printf("total_%s: %lld\n", m->counter_names[order[k]],
		       (long long)s->agg.counters[order[k]]);
	for (unsigned k = 0; k < fn; k++)
		printf("total_%s: %f\n", m->fcounter_names[forder[k]], s->agg.fcounters[forder[k]]);
}

/* ------------------------------------------------------------ --file */

static int file_cmp(const void *a, const void *b)
{
	const struct summary_file *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int files_add(struct summary *s, const struct ioa_log_record *rec, int64_t read,
		     int64_t written, int64_t max_offset)
{
	struct summary_file *f;

	if (s->nfiles == s->files_alloc) {
		size_t alloc = s->files_alloc ? 2 * s->files_alloc : 256;
		void *v = realloc(s->files, alloc * sizeof(*s->files));

		if (!v)
			return -ENOMEM;
		s->files = v;
		s->files_alloc = alloc;
	}
	f = &s->files[s->nfiles++];
	f->id = rec->id;
	f->read = read;
	f->written = written;
	f->max_offset = max_offset;
	f->nprocs = rec->rank < 0 ? -1 : 1;
	return 0;
}

void summary_print_files(struct summary *s, enum ioa_module module)
{
	/* total, read_only, write_only, read_write, unique, shared: count, bytes, max offset */
	int64_t kind[6][3] = {{0}};
	size_t i, j;

	if (s->nfiles)
		qsort(s->files, s->nfiles, sizeof(*s->files), file_cmp);
	for (i = 0; i < s->nfiles; i = j) {
		struct summary_file f = s->files[i];
		int rows[3], n = 0;

		/* One file's records: bytes summed, the highest offset, shared or by how many. */
		for (j = i + 1; j < s->nfiles && s->files[j].id == f.id; j++) {
			f.read = ioa_counter_sat_add(f.read, s->files[j].read);
			f.written = ioa_counter_sat_add(f.written, s->files[j].written);
			if (s->files[j].max_offset > f.max_offset)
				f.max_offset = s->files[j].max_offset;
			f.nprocs = f.nprocs < 0 || s->files[j].nprocs < 0 ? -1 : f.nprocs + 1;
		}
		rows[n++] = 0;
		if (f.read > 0 && f.written == 0)
			rows[n++] = 1;
		else if (f.written > 0 && f.read == 0)
			rows[n++] = 2;
		else if (f.read > 0 && f.written > 0)
			rows[n++] = 3;
		if (f.nprocs == 1)
			rows[n++] = 4;
		else
			rows[n++] = 5;
		for (int k = 0; k < n; k++) {
			int64_t *row = kind[rows[k]];

			row[0]++;
			row[1] = ioa_counter_sat_add(row[1], ioa_counter_sat_add(f.read, f.written));
			/* MPI-IO knows no offsets (-1): its column says so. */
			if (f.max_offset < 0 || row[2] < 0)
				row[2] = row[2] < 0 && f.max_offset >= 0 ? f.max_offset : -1;
			else if (f.max_offset > row[2])
				row[2] = f.max_offset;
		}
	}
	(void)module;
	printf("\n# Total file counts\n"
	       "# -----\n"
	       "# <file_type>: type of file access:\n"
	       "#    *read_only: file was only read\n"
	       "#    *write_only: file was only written\n"
	       "#    *read_write: file was read and written\n"
	       "#    *unique: file was opened by a single process only\n"
	       "#    *shared: file was accessed by a group of processes (maybe all processes)\n"
	       "# <file_count> total number of files of this type\n"
	       "# <total_bytes> total number of bytes moved to/from files of this type\n"
	       "# <max_byte_offset> maximum byte offset accessed for a file of this type\n"
	       "\n# <file_type> <file_count> <total_bytes> <max_byte_offset>\n");
	static const char *const names[] = {"total", "read_only", "write_only", "read_write",
					    "unique", "shared"};
	for (i = 0; i < 6; i++)
		printf("# %s: %lld %lld %lld\n", names[i], (long long)kind[i][0],
		       (long long)kind[i][1], (long long)kind[i][2]);
}

/* ------------------------------------------------------------ --perf */

static int perf_add(struct summary *s, const struct ioa_log_record *rec, double read_time,
		    double write_time, double meta_time, double slowest_time, int64_t bytes)
{
	struct summary_rank *r;

	s->total_bytes = ioa_counter_sat_add(s->total_bytes, bytes);
	if (rec->rank < 0) {
		s->shared_time += slowest_time;
		return 0;
	}
	/* One entry per record, summed by rank when printed: memory follows the records. */
	if (s->nranks == s->ranks_alloc) {
		size_t alloc = s->ranks_alloc ? 2 * s->ranks_alloc : 64;
		void *v = realloc(s->ranks, alloc * sizeof(*s->ranks));

		if (!v)
			return -ENOMEM;
		s->ranks = v;
		s->ranks_alloc = alloc;
	}
	r = &s->ranks[s->nranks++];
	r->rank = rec->rank;
	r->io = meta_time + read_time + write_time;
	r->meta = meta_time;
	r->rw = read_time + write_time;
	return 0;
}

static int rank_cmp(const void *a, const void *b)
{
	const struct summary_rank *x = a, *y = b;

	return (x->rank > y->rank) - (x->rank < y->rank);
}

void summary_print_perf(struct summary *s)
{
	double io = 0, meta = 0, rw = 0, agg;
	int32_t slowest = 0;
	size_t i, j;

	/* The slowest rank: the first whose summed time is the largest. */
	if (s->nranks)
		qsort(s->ranks, s->nranks, sizeof(*s->ranks), rank_cmp);
	for (i = 0; i < s->nranks; i = j) {
		struct summary_rank sum = s->ranks[i];

		for (j = i + 1; j < s->nranks && s->ranks[j].rank == sum.rank; j++) {
			sum.io += s->ranks[j].io;
			sum.meta += s->ranks[j].meta;
			sum.rw += s->ranks[j].rw;
		}
		if (sum.io > io) {
			io = sum.io;
			meta = sum.meta;
			rw = sum.rw;
			slowest = sum.rank;
		}
	}
	agg = io + s->shared_time;
	printf("\n# performance\n# -----------\n# total_bytes: %lld\n#\n",
	       (long long)s->total_bytes);
	printf("# I/O timing for unique files (seconds):\n# ...........................\n");
	printf("# unique files: slowest_rank_io_time: %f\n", io);
	printf("# unique files: slowest_rank_meta_only_time: %f\n", meta);
	printf("# unique files: slowest_rank_rw_only_time: %f\n", rw);
	printf("# unique files: slowest_rank: %d\n#\n", slowest);
	printf("# I/O timing for shared files (seconds):\n# ...........................\n");
	printf("# shared files: time_by_slowest: %f\n#\n", s->shared_time);
	printf("# Aggregate performance, including both shared and unique files:\n"
	       "# ...........................\n");
	printf("# agg_time_by_slowest: %f # seconds\n", agg);
	printf("# agg_perf_by_slowest: %f # MiB/s\n",
	       agg > 0 ? (double)s->total_bytes / 1048576.0 / agg : 0.0);
}

/* ------------------------------------------------------------ records */

int summary_add(struct summary *s, const struct ioa_log_record *rec)
{
	int64_t read = ic(rec, "_BYTES_READ"), written = ic(rec, "_BYTES_WRITTEN");
	int64_t max_offset = -1;
	int rc;

	/* MPI-IO records no offsets. */
	if (rec->module != IOA_MOD_MPIIO) {
		max_offset = ic(rec, "_MAX_BYTE_READ");
		if (ic(rec, "_MAX_BYTE_WRITTEN") > max_offset)
			max_offset = ic(rec, "_MAX_BYTE_WRITTEN");
	}
	total_add(s, rec);
	rc = files_add(s, rec, read, written, max_offset);
	rc = rc ? rc
		: perf_add(s, rec, fc(rec, "_F_READ_TIME"), fc(rec, "_F_WRITE_TIME"),
			   fc(rec, "_F_META_TIME"), fc(rec, "_F_SLOWEST_RANK_TIME"),
			   ioa_counter_sat_add(read, written));
	s->records++;
	return rc;
}

void summary_release(struct summary *s)
{
	free(s->files);
	free(s->ranks);
	memset(s, 0, sizeof(*s));
}
