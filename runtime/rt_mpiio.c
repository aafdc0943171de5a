/*
 * rt_mpiio — MPI-IO module handlers (see rt_mpiio.h).  MPI-IO counters
 * describe the application's requests (count x datatype size), not what
 * ROMIO turns them into; the POSIX module sees the latter.
 */
#define _GNU_SOURCE
#include "rt_mpiio.h"

#include <fcntl.h>
#include <limits.h>
#include <string.h>

#include "rt_core.h"
#include "rt_posix.h"
#include "rt_records.h"
#include "rt_trace.h"

#define RT_HANDLE_SLOTS	    256
#define RT_HANDLE_TOMBSTONE ((const void *)1)

struct rt_handle {
	const void *handle;
	struct rt_record *rec;
};

static struct rt_handle *handles;

int rt_mpiio_init(void)
{
	handles = rt_arena_alloc(&rt.arena, RT_HANDLE_SLOTS * sizeof(*handles));
	return handles ? 0 : -1;
}

static size_t slot_of(const void *handle)
{
	return ((uintptr_t)handle >> 4) % RT_HANDLE_SLOTS;
}

struct rt_record *rt_mpiio_record_of(const void *handle)
{
	size_t i, slot = slot_of(handle);

	for (i = 0; handles && i < RT_HANDLE_SLOTS; i++) {
		struct rt_handle *h = &handles[(slot + i) % RT_HANDLE_SLOTS];

		if (h->handle == handle)
			return h->rec;
		if (!h->handle)
			break;
	}
	return NULL;
}

static void handle_set(const void *handle, struct rt_record *rec)
{
	size_t i, slot = slot_of(handle);

	for (i = 0; handles && i < RT_HANDLE_SLOTS; i++) {
		struct rt_handle *h = &handles[(slot + i) % RT_HANDLE_SLOTS];

		if (!h->handle || h->handle == RT_HANDLE_TOMBSTONE || h->handle == handle) {
			h->handle = rec ? handle : RT_HANDLE_TOMBSTONE;
			h->rec = rec;
			return;
		}
	}
}

void rt_mpiio_open(const char *op, int collective, const char *path, int amode, int info_given,
		   const char *hint_lines, const void *handle, uint32_t comm_slot, int failed,
		   int err, double t0, double t1)
{
	char abs[PATH_MAX];
	size_t len;
	struct rt_record *rec;
	int64_t hint_index;

	len = rt_mpi_file_path(path, abs, sizeof(abs));
	if (!len || !rt_config_path_recorded(&rt.config, abs))
		return;
	rec = rt_record_get(IOA_MOD_MPIIO, abs, len);
	if (failed) {
		rt_record_failure(rec, IOA_MOD_MPIIO, op, err);
		rt_trace_io(op, IOA_MOD_MPIIO, rec, IOA_TR_FAILED, 0, 0, 0, err, t0, t1);
		return;
	}
	rec->counters[collective ? MPIIO_COLL_OPENS : MPIIO_INDEP_OPENS]++;
	rec->counters[MPIIO_MODE] = amode;
	rec->counters[MPIIO_HINTS] += info_given;
	if (hint_lines[0] && (!rec->hints || strcmp(rec->hints, hint_lines)))
		rec->hints = rt_arena_strndup(&rt.arena, hint_lines, strlen(hint_lines));
	rt_set_first(&rec->fcounters[MPIIO_F_OPEN_START_TIMESTAMP], t0);
	rt_set_last(&rec->fcounters[MPIIO_F_OPEN_END_TIMESTAMP], t1);
	rt_add_time(&rec->fcounters[MPIIO_F_META_TIME], &rec->meta_end, t0, t1);
	handle_set(handle, rec);
	/* The hints' string index rides in the signature's err field: the call succeeded. */
	hint_index = hint_lines[0] ? rt_trace_hints(rec->hints) : 0;
	/* The communicator in the length (the aux is the call's id, IOA_TR_ID). */
	rt_trace_io(op, IOA_MOD_MPIIO, rec, hint_index ? IOA_TR_HINTS : 0, amode,
		    comm_slot == RT_TRACE_NO_COMM ? 0 : (int64_t)comm_slot + 1, 0,
		    hint_index ? (int)hint_index - 1 : 0, t0, t1);
}

struct rt_record *rt_mpiio_close_begin(const void *handle)
{
	struct rt_record *rec;

	rt_lock();
	rec = rt_mpiio_record_of(handle);
	handle_set(handle, NULL);
	rt_unlock();
	return rec;
}

void rt_mpiio_close(const char *op, struct rt_record *rec, int failed, int err, double t0,
		    double t1)
{
	if (!rec)
		return;
	rt_trace_io(op, IOA_MOD_MPIIO, rec, failed ? IOA_TR_FAILED : 0, 0, 0, 0, failed ? err : 0,
		    t0, t1);
	if (failed)
		rt_record_failure(rec, IOA_MOD_MPIIO, op, err);
	rt_set_first(&rec->fcounters[MPIIO_F_CLOSE_START_TIMESTAMP], t0);
	rt_set_last(&rec->fcounters[MPIIO_F_CLOSE_END_TIMESTAMP], t1);
	rt_add_time(&rec->fcounters[MPIIO_F_META_TIME], &rec->meta_end, t0, t1);
}

void rt_mpiio_meta(const char *op, const void *handle, int counter, int64_t offset, int64_t length,
		   int failed, int err, double t0, double t1)
{
	struct rt_record *rec = rt_mpiio_record_of(handle);

	if (!rec)
		return;
	rt_trace_io(op, IOA_MOD_MPIIO, rec, failed ? IOA_TR_FAILED : 0, offset, length, 0,
		    failed ? err : 0, t0, t1);
	if (failed) {
		rt_record_failure(rec, IOA_MOD_MPIIO, op, err);
		return;
	}
	if (counter < 0) /* Darshan does not see MPI_File_set_info: neither count nor time */
		return;
	rec->counters[counter]++;
	/* MPI_File_sync waits for written data to reach storage: write time, as Darshan counts it.
	 */
	if (counter == MPIIO_SYNCS)
		rt_add_time(&rec->fcounters[MPIIO_F_WRITE_TIME], &rec->write_end, t0, t1);
	else
		rt_add_time(&rec->fcounters[MPIIO_F_META_TIME], &rec->meta_end, t0, t1);
}

/*
 * The trace gets the view's shape as calls of its own before the set_view
 * (File_view_type: kind, base type size, dimensions; File_view_dim0, 1, 2:
 * one per dimension, each a call of its own so that they do not fold into a
 * loop), so that the numbers that differ between ranks (a subarray's
 * starts) fit in the rank like offsets.  A flattened filetype's runs follow
 * as File_view_run calls (offset, length), which fold into loops like
 * other calls: a regular pattern costs the trace a few nodes.
 */
void rt_mpiio_view(const char *op, const void *handle, const struct rt_view *v, int info_given,
		   int failed, int err, double t0, double t1)
{
	static const char *const dim_call[RT_VIEW_MAX_DIMS] = {"File_view_dim0", "File_view_dim1",
							       "File_view_dim2"};
	struct rt_record *rec = rt_mpiio_record_of(handle);
	int i;

	if (!rec)
		return;
	if (!failed) {
		rt_trace_mpi("File_view_type", RT_TRACE_NO_COMM, 0, 0, v->kind, v->base_size,
			     v->ndims, t0, t0);
		for (i = 0; i < v->ndims && i < RT_VIEW_MAX_DIMS; i++)
			rt_trace_mpi(dim_call[i], RT_TRACE_NO_COMM, 0, 0, v->dim[i][0],
				     v->dim[i][1], v->dim[i][2], t0, t0);
		for (i = 0; v->kind == 3 && i < v->dim[0][2]; i++)
			rt_trace_mpi("File_view_run", RT_TRACE_NO_COMM, 0, 0, v->runs[i][0],
				     v->runs[i][1], 0, t0, t0);
	}
	rt_trace_io(op, IOA_MOD_MPIIO, rec, failed ? IOA_TR_FAILED : 0, v->disp, v->etype_size, 0,
		    failed ? err : 0, t0, t1);
	if (failed) {
		rt_record_failure(rec, IOA_MOD_MPIIO, op, err);
		return;
	}
	rec->counters[MPIIO_VIEWS]++;
	rec->counters[MPIIO_HINTS] += info_given;
	rt_add_time(&rec->fcounters[MPIIO_F_META_TIME], &rec->meta_end, t0, t1);
}

void rt_mpiio_io(const char *op, int is_write, enum rt_mpiio_class cls, const void *handle,
		 int64_t offset, int64_t bytes, int failed, int err, double t0, double t1)
{
	static const int reads[] = {MPIIO_INDEP_READS, MPIIO_COLL_READS, MPIIO_SPLIT_READS,
				    MPIIO_NB_READS};
	static const int writes[] = {MPIIO_INDEP_WRITES, MPIIO_COLL_WRITES, MPIIO_SPLIT_WRITES,
				     MPIIO_NB_WRITES};
	struct rt_record *rec = rt_mpiio_record_of(handle);
	int64_t *c;
	double elapsed = t1 - t0;

	if (!rec)
		return;
	rt_trace_io(op, IOA_MOD_MPIIO, rec,
		    (is_write ? IOA_TR_WRITE : IOA_TR_READ) | (failed ? IOA_TR_FAILED : 0), offset,
		    failed ? 0 : bytes, 0, failed ? err : 0, t0, t1);
	if (failed) {
		rt_record_failure(rec, IOA_MOD_MPIIO, op, err);
		return;
	}
	c = rec->counters;
	c[is_write ? writes[cls] : reads[cls]]++;
	c[is_write ? MPIIO_BYTES_WRITTEN : MPIIO_BYTES_READ] += bytes;
	rt_size_bin(c, is_write ? MPIIO_SIZE_WRITE_AGG_0_100 : MPIIO_SIZE_READ_AGG_0_100, bytes);
	rt_values_add(&rec->access_sizes, bytes);
	/*
	 * Binned when the call returns: a collective's data reaches the file
	 * (its aggregators' writes) by then, while its start is only when this
	 * rank arrived, perhaps long before the others.
	 */
	rt_bins_add(rec, t1, is_write, bytes);
	if (rec->last_io == (is_write ? 1 : 2))
		c[MPIIO_RW_SWITCHES]++;
	rec->last_io = is_write ? 2 : 1;
	if (is_write) {
		rt_set_first(&rec->fcounters[MPIIO_F_WRITE_START_TIMESTAMP], t0);
		rt_set_last(&rec->fcounters[MPIIO_F_WRITE_END_TIMESTAMP], t1);
		rt_add_time(&rec->fcounters[MPIIO_F_WRITE_TIME], &rec->write_end, t0, t1);
		if (rec->fcounters[MPIIO_F_MAX_WRITE_TIME] < elapsed) {
			rec->fcounters[MPIIO_F_MAX_WRITE_TIME] = elapsed;
			c[MPIIO_MAX_WRITE_TIME_SIZE] = bytes;
		}
	} else {
		rt_set_first(&rec->fcounters[MPIIO_F_READ_START_TIMESTAMP], t0);
		rt_set_last(&rec->fcounters[MPIIO_F_READ_END_TIMESTAMP], t1);
		rt_add_time(&rec->fcounters[MPIIO_F_READ_TIME], &rec->read_end, t0, t1);
		if (rec->fcounters[MPIIO_F_MAX_READ_TIME] < elapsed) {
			rec->fcounters[MPIIO_F_MAX_READ_TIME] = elapsed;
			c[MPIIO_MAX_READ_TIME_SIZE] = bytes;
		}
	}
}

void rt_mpiio_end(const char *op, int is_write, const void *handle, double t0, double t1)
{
	struct rt_record *rec = rt_mpiio_record_of(handle);

	if (!rec)
		return;
	rt_trace_io(op, IOA_MOD_MPIIO, rec, is_write ? IOA_TR_WRITE : IOA_TR_READ, -1, 0, 0, 0, t0,
		    t1);
	if (is_write)
		rt_add_time(&rec->fcounters[MPIIO_F_WRITE_TIME], &rec->write_end, t0, t1);
	else
		rt_add_time(&rec->fcounters[MPIIO_F_READ_TIME], &rec->read_end, t0, t1);
}
