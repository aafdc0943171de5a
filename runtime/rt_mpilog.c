/*
 * rt_mpilog — one log per MPI job, written at MPI_Finalize (see rt_mpilog.h).
 *
 *  1. Every rank sends the (module, record id) keys it holds to rank 0,
 *     which finds the keys held by more than one rank and broadcasts them.
 *  2. Ranks send their records of shared files (with names) to rank 0,
 *     which combines them into one record per file (rank -1): counters by
 *     their rule (ioa_counters_combine), plus the fastest and slowest rank
 *     and the variance of I/O time and bytes across the ranks that shared it.
 *  3. Every rank packs the rest of its records (and rank 0 the job, the
 *     mount table and the combined records) into compressed regions; rank 0
 *     gathers the region sizes, lays out the header and region table, and
 *     tells each rank where its bytes go.
 *  4. All ranks write their bytes with one MPI_File_write_at_all to
 *     "<log>.part"; rank 0 renames it when every rank succeeded.
 *
 * Everything runs on a private duplicate of MPI_COMM_WORLD and through
 * PMPI, so the application's messages and our own wrappers are untouched.
 * A failure anywhere leaves no log and is reported under IOATLAS_DEBUG.
 */
#define _GNU_SOURCE
#include "rt_mpilog.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ioa_logw.h"
#include "rt_core.h"
#include "rt_log.h"
#include "rt_records.h"

struct rt_pmpi_api rt_pmpi;

#define RT_HOST_LEN 64

void rt_mpilog_init(void)
{
	int ok = 1;

	rt_inside |= RT_IN_RUNTIME;
#ifdef RT_STATIC
#define RT_PMPI_SET(name, params) rt_pmpi.name = PMPI_##name;
#else
#define RT_PMPI_SET(name, params)                            \
	{                                                    \
		void *sym = dlsym(RTLD_NEXT, "PMPI_" #name); \
		memcpy(&rt_pmpi.name, &sym, sizeof(sym));    \
		ok &= sym != NULL;                           \
	}
#endif
	RT_PMPI_FUNCTIONS(RT_PMPI_SET)
#undef RT_PMPI_SET
	(void)ok;
	if (ok) {
		rt_pmpi.Comm_rank(MPI_COMM_WORLD, &rt.rank);
		rt_pmpi.Comm_size(MPI_COMM_WORLD, &rt.nprocs);
		rt.mpi_initialized = true;
	} else if (rt.enabled) {
		rt_disable("the MPI library lacks PMPI entry points");
	}
	rt_inside &= ~RT_IN_RUNTIME;
}

/* --------------------------------------------------------- shared files */

struct rt_key {
	uint64_t id;
	uint64_t module;
};

static int key_cmp(const void *a, const void *b)
{
	const struct rt_key *x = a, *y = b;

	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static size_t local_keys(struct rt_key **out)
{
	struct rt_record *rec;
	size_t n = 0, m;

	for (m = 0; m < IOA_MOD_COUNT; m++)
		n += rt_modules[m].count;
	*out = malloc((n ? n : 1) * sizeof(**out));
	if (!*out)
		return 0;
	n = 0;
	for (m = 0; m < IOA_MOD_COUNT; m++)
		for (rec = rt_modules[m].first; rec; rec = rec->next_in_module)
			(*out)[n++] = (struct rt_key){rec->id, m};
	return n;
}

/*
 * Gathers variable-size byte buffers at rank 0.  On rank 0 *all receives
 * the concatenation (caller frees) and displs/counts each rank's share.
 */
static int gather_bytes(MPI_Comm comm, const void *mine, int len, char **all, int **counts,
			int **displs)
{
	int rank, size, i, total = 0;

	rt_pmpi.Comm_rank(comm, &rank);
	rt_pmpi.Comm_size(comm, &size);
	*all = NULL;
	*counts = *displs = NULL;
	if (!rank) {
		*counts = calloc((size_t)size, sizeof(int));
		*displs = calloc((size_t)size, sizeof(int));
		if (!*counts || !*displs)
			return -ENOMEM;
	}
	rt_pmpi.Gather(&len, 1, MPI_INT, *counts, 1, MPI_INT, 0, comm);
	if (!rank) {
		for (i = 0; i < size; i++) {
			(*displs)[i] = total;
			if ((*counts)[i] > INT_MAX - total)
				return -EOVERFLOW;
			total += (*counts)[i];
		}
		*all = malloc(total ? (size_t)total : 1);
		if (!*all)
			return -ENOMEM;
	}
	rt_pmpi.Gatherv(mine, len, MPI_BYTE, *all, *counts, *displs, MPI_BYTE, 0, comm);
	return 0;
}

/* Rank 0 finds the keys held by two or more ranks; every rank gets them. */
static size_t shared_keys(MPI_Comm comm, struct rt_key **shared)
{
	struct rt_key *mine, *all_keys;
	size_t n = local_keys(&mine), total = 0, i, nshared = 0;
	int *counts = NULL, *displs = NULL, nshared_int = 0;
	char *all = NULL;

	*shared = NULL;
	gather_bytes(comm, mine, (int)(n * sizeof(*mine)), &all, &counts, &displs);
	free(mine);
	if (rt.rank == 0 && all) {
		for (i = 0; i < (size_t)rt.nprocs; i++)
			total += (size_t)counts[i] / sizeof(struct rt_key);
		all_keys = (struct rt_key *)all;
		qsort(all_keys, total, sizeof(*all_keys), key_cmp);
		for (i = 0; i < total; i++) {
			size_t run = i;

			while (run + 1 < total && !key_cmp(&all_keys[i], &all_keys[run + 1]))
				run++;
			if (run > i)
				all_keys[nshared++] = all_keys[i];
			i = run;
		}
		nshared_int = (int)nshared;
	}
	rt_pmpi.Bcast(&nshared_int, 1, MPI_INT, 0, comm);
	nshared = (size_t)nshared_int;
	if (rt.rank == 0) {
		*shared = (struct rt_key *)all;
		all = NULL;
	} else {
		*shared = malloc((nshared ? nshared : 1) * sizeof(**shared));
	}
	if (*shared)
		rt_pmpi.Bcast(*shared, (int)(nshared * sizeof(**shared)), MPI_BYTE, 0, comm);
	free(all);
	free(counts);
	free(displs);
	return *shared ? nshared : 0;
}

/* Per shared file on rank 0: the combined record and per-rank statistics. */
struct rt_combined {
	struct rt_record rec;
	int64_t counters[IOA_MAX_COUNTERS];
	double fcounters[IOA_MAX_FCOUNTERS];
	int ranks;
	double time_sum, time_sq, bytes_sum, bytes_sq;
	double fastest_time, slowest_time;
	int64_t fastest_bytes, slowest_bytes;
	int fastest_rank, slowest_rank;
	char *name;
};

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
	int access1, access1_count;
};

static const struct rt_rank_counters rank_counters[IOA_MOD_COUNT] = {
	[IOA_MOD_POSIX] = {POSIX_FASTEST_RANK, POSIX_FASTEST_RANK_BYTES, POSIX_SLOWEST_RANK,
			   POSIX_SLOWEST_RANK_BYTES, POSIX_F_FASTEST_RANK_TIME,
			   POSIX_F_SLOWEST_RANK_TIME, POSIX_F_VARIANCE_RANK_TIME,
			   POSIX_F_VARIANCE_RANK_BYTES, POSIX_ACCESS1_ACCESS, POSIX_ACCESS1_COUNT},
	[IOA_MOD_STDIO] = {STDIO_FASTEST_RANK, STDIO_FASTEST_RANK_BYTES, STDIO_SLOWEST_RANK,
			   STDIO_SLOWEST_RANK_BYTES, STDIO_F_FASTEST_RANK_TIME,
			   STDIO_F_SLOWEST_RANK_TIME, STDIO_F_VARIANCE_RANK_TIME,
			   STDIO_F_VARIANCE_RANK_BYTES, -1, -1},
	[IOA_MOD_MPIIO] = {MPIIO_FASTEST_RANK, MPIIO_FASTEST_RANK_BYTES, MPIIO_SLOWEST_RANK,
			   MPIIO_SLOWEST_RANK_BYTES, MPIIO_F_FASTEST_RANK_TIME,
			   MPIIO_F_SLOWEST_RANK_TIME, MPIIO_F_VARIANCE_RANK_TIME,
			   MPIIO_F_VARIANCE_RANK_BYTES, MPIIO_ACCESS1_ACCESS, MPIIO_ACCESS1_COUNT},
};

/* Adds one rank's record of a shared file to its combination. */
static void combine(struct rt_combined *cmb, enum ioa_module m, int rank, const int64_t *c,
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
		ioa_counters_combine(m, cmb->counters, cmb->fcounters, c, f);
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
	/* The common access sizes merge as value/count pairs. */
	if (rc->access1 >= 0)
		for (k = 0; k < 4; k++) {
			int64_t value = c[rc->access1 + k], count = c[rc->access1_count + k], n;

			for (n = 0; n < count; n++)
				rt_values_add(&cmb->rec.access_sizes, value);
		}
	cmb->ranks++;
	cmb->time_sum += time;
	cmb->time_sq += time * time;
	cmb->bytes_sum += (double)bytes;
	cmb->bytes_sq += (double)bytes * (double)bytes;
}

static void finish_combined(struct rt_combined *cmb, enum ioa_module m)
{
	const struct rt_rank_counters *rc = &rank_counters[m];
	double n = cmb->ranks, mean_t = cmb->time_sum / n, mean_b = cmb->bytes_sum / n;

	cmb->counters[rc->fastest] = cmb->fastest_rank;
	cmb->counters[rc->fastest_bytes] = cmb->fastest_bytes;
	cmb->counters[rc->slowest] = cmb->slowest_rank;
	cmb->counters[rc->slowest_bytes] = cmb->slowest_bytes;
	cmb->fcounters[rc->ffastest_time] = cmb->fastest_time;
	cmb->fcounters[rc->fslowest_time] = cmb->slowest_time;
	cmb->fcounters[rc->fvar_time] = cmb->time_sq / n - mean_t * mean_t;
	cmb->fcounters[rc->fvar_bytes] = cmb->bytes_sq / n - mean_b * mean_b;
	if (rc->access1 >= 0)
		rt_values_top4(&cmb->rec.access_sizes, &cmb->counters[rc->access1],
			       &cmb->counters[rc->access1_count]);
	cmb->rec.counters = cmb->counters;
	cmb->rec.fcounters = cmb->fcounters;
	cmb->rec.name = cmb->name;
	cmb->rec.flags |= IOA_REC_SHARED;
}

/*
 * Sends this rank's records of shared files to rank 0 and takes them out of
 * its own log; rank 0 links the combined records into rt_modules[].combined.
 */
static int reduce_shared(MPI_Comm comm, struct rt_combined **combined_out, size_t *ncombined)
{
	struct rt_key *shared;
	size_t nshared = shared_keys(comm, &shared), i;
	struct ioa_buf mine = IOA_BUF_INIT((size_t)INT_MAX);
	struct rt_combined *combined = NULL;
	int *counts = NULL, *displs = NULL, rc = 0;
	char *all = NULL;

	*combined_out = NULL;
	*ncombined = 0;
	for (i = 0; i < nshared && !rc; i++) {
		struct rt_record *rec =
			rt_record_find((enum ioa_module)shared[i].module, shared[i].id);

		if (!rec)
			continue;
		rt_log_finish_record(rec);
		rc = ioa_enc_u32(&mine, (uint32_t)i);
		if (!rc)
			rc = ioa_enc_bytes(&mine, rec->name, strlen(rec->name));
		if (!rc)
			rc = ioa_enc_module_record(&mine, rec->module, rec->id, rt.rank, rec->flags,
						   rec->counters, rec->fcounters);
		rec->flags |= RT_REC_ELSEWHERE;
	}
	if (!rc)
		rc = gather_bytes(comm, mine.data, (int)mine.len, &all, &counts, &displs);
	if (!rc && rt.rank == 0 && nshared) {
		struct ioa_cursor cur = {(const unsigned char *)all, 0, 0};
		int r;

		combined = calloc(nshared, sizeof(*combined));
		rc = combined ? 0 : -ENOMEM;
		for (r = 0; r < rt.nprocs && !rc; r++) {
			cur.left += (size_t)counts[r];
			while (cur.left && !cur.overrun && !rc) {
				uint32_t k = ioa_cursor_u32(&cur), len = ioa_cursor_u32(&cur);
				const unsigned char *name = ioa_cursor_take(&cur, len);
				enum ioa_module m;
				const struct ioa_module_desc *mod;
				int64_t c[IOA_MAX_COUNTERS];
				double f[IOA_MAX_FCOUNTERS];
				unsigned j;

				if (k >= nshared || !name) {
					rc = -EINVAL;
					break;
				}
				m = (enum ioa_module)shared[k].module;
				mod = &ioa_modules[m];
				(void)ioa_cursor_u64(&cur);
				(void)ioa_cursor_u32(&cur);
				combined[k].rec.flags |= ioa_cursor_u32(&cur) & ~RT_REC_ELSEWHERE;
				for (j = 0; j < mod->counter_count; j++)
					c[j] = (int64_t)ioa_cursor_u64(&cur);
				for (j = 0; j < mod->fcounter_count; j++)
					f[j] = ioa_bits_f64(ioa_cursor_u64(&cur));
				if (!combined[k].name)
					combined[k].name = strndup((const char *)name, len);
				combined[k].rec.id = shared[k].id;
				combined[k].rec.module = m;
				combine(&combined[k], m, r, c, f);
			}
		}
		for (i = 0; i < nshared && !rc; i++) {
			finish_combined(&combined[i], combined[i].rec.module);
			combined[i].rec.next_in_module =
				rt_modules[combined[i].rec.module].combined;
			rt_modules[combined[i].rec.module].combined = &combined[i].rec;
		}
		*combined_out = combined;
		*ncombined = nshared;
	}
	free(shared);
	free(all);
	free(counts);
	free(displs);
	ioa_buf_release(&mine);
	return rc;
}

/* --------------------------------------------------------- nodes */

/* Gathers host names; rank 0 gets the distinct names and each rank's node. */
static int gather_hosts(MPI_Comm comm, struct ioa_buf *names, uint32_t **rank_nodes,
			uint32_t *nnodes)
{
	char host[RT_HOST_LEN] = "", *all = NULL;
	int r, k;

	gethostname(host, sizeof(host) - 1);
	*rank_nodes = NULL;
	*nnodes = 0;
	if (rt.rank == 0) {
		all = calloc((size_t)rt.nprocs, RT_HOST_LEN);
		*rank_nodes = calloc((size_t)rt.nprocs, sizeof(uint32_t));
		if (!all || !*rank_nodes) {
			free(all);
			return -ENOMEM;
		}
	}
	rt_pmpi.Gather(host, RT_HOST_LEN, MPI_CHAR, all, RT_HOST_LEN, MPI_CHAR, 0, comm);
	if (rt.rank != 0)
		return 0;
	for (r = 0; r < rt.nprocs; r++) {
		const char *name = all + (size_t)r * RT_HOST_LEN;

		for (k = 0; k < r; k++)
			if (!strncmp(name, all + (size_t)k * RT_HOST_LEN, RT_HOST_LEN))
				break;
		if (k == r) {
			(*rank_nodes)[r] = (*nnodes)++;
			ioa_buf_add(names, name, strnlen(name, RT_HOST_LEN - 1) + 1);
		} else {
			(*rank_nodes)[r] = (*rank_nodes)[k];
		}
	}
	free(all);
	return 0;
}

/* --------------------------------------------------------- the write */

/* A region table entry as sent to rank 0. */
struct rt_wire_region {
	uint64_t type, compression, stored_size, raw_size, crc32;
};

static int write_log(MPI_Comm comm, struct ioa_log_writer *w)
{
	struct rt_wire_region *mine = calloc(w->region_count + 1, sizeof(*mine));
	struct ioa_buf head = IOA_BUF_INIT((size_t)INT_MAX);
	int *counts = NULL, *displs = NULL, failed = 0, any_failed = 0, r;
	char *all = NULL, path[PATH_MAX] = "", part[PATH_MAX + 8];
	long long my_offset = 0, *offsets = NULL;
	MPI_File fh;
	uint32_t i;
	int rc;

	if (!mine)
		return -ENOMEM;
	for (i = 0; i < w->region_count; i++)
		mine[i] = (struct rt_wire_region){w->regions[i].type, w->regions[i].compression,
						  w->regions[i].stored_size, w->regions[i].raw_size,
						  w->regions[i].crc32};
	rc = gather_bytes(comm, mine, (int)(w->region_count * sizeof(*mine)), &all, &counts,
			  &displs);
	free(mine);

	if (rt.rank == 0) {
		size_t total = 0, at = 0;
		struct ioa_log_region *regions;
		uint64_t data_offset;

		for (r = 0; !rc && r < rt.nprocs; r++)
			total += (size_t)counts[r] / sizeof(struct rt_wire_region);
		regions = calloc(total + 1, sizeof(*regions));
		offsets = calloc((size_t)rt.nprocs, sizeof(*offsets));
		if (!rc && (!regions || !offsets))
			rc = -ENOMEM;
		for (i = 0; !rc && i < total; i++) {
			const struct rt_wire_region *wr = (const struct rt_wire_region *)all + i;

			regions[i] = (struct ioa_log_region){
				(uint32_t)wr->type, (uint32_t)wr->compression, 0, wr->stored_size,
				wr->raw_size,	    (uint32_t)wr->crc32};
		}
		if (!rc)
			rc = ioa_logw_header(&head, regions, (uint32_t)total, rt_log_flags());
		/* Each rank's regions follow its predecessors', after rank 0's header. */
		data_offset = head.len;
		for (r = 0; !rc && r < rt.nprocs; r++) {
			size_t n = (size_t)counts[r] / sizeof(struct rt_wire_region), k;

			offsets[r] = (long long)data_offset;
			for (k = 0; k < n; k++, at++)
				data_offset += regions[at].stored_size;
		}
		/* Rank 0 writes the header in front of its own regions. */
		if (!rc)
			offsets[0] = 0;
		if (!rc)
			rc = rt_log_path(path, sizeof(path));
		free(regions);
		if (rc)
			path[0] = '\0';
	}
	rt_pmpi.Bcast(path, sizeof(path), MPI_CHAR, 0, comm);
	if (!path[0]) {
		free(all);
		free(counts);
		free(displs);
		free(offsets);
		ioa_buf_release(&head);
		return rc ? rc : -EIO;
	}
	rt_pmpi.Scatter(offsets, 1, MPI_LONG_LONG, &my_offset, 1, MPI_LONG_LONG, 0, comm);
	snprintf(part, sizeof(part), "%s.part", path);

	if (rt.rank == 0) {
		/* Rank 0's bytes: the header and table, then its regions. */
		failed = ioa_buf_add(&head, w->stored.data, w->stored.len) != 0;
	}
	rc = rt_pmpi.File_open(comm, part, MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL,
			       MPI_INFO_NULL, &fh);
	if (rc == MPI_SUCCESS) {
		const char *bytes = rt.rank == 0 ? head.data : w->stored.data;
		size_t len = rt.rank == 0 ? head.len : w->stored.len;

		if (len > INT_MAX)
			failed = 1;
		if (rt_pmpi.File_write_at_all(fh, (MPI_Offset)my_offset, bytes,
					      failed ? 0 : (int)len, MPI_BYTE,
					      MPI_STATUS_IGNORE) != MPI_SUCCESS)
			failed = 1;
		if (rt_pmpi.File_close(&fh) != MPI_SUCCESS)
			failed = 1;
	} else {
		failed = 1;
	}
	rt_pmpi.Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, comm);
	rc = 0;
	if (rt.rank == 0) {
		if (any_failed || chmod(part, 0440) || rename(part, path)) {
			rc = any_failed ? -EIO : -errno;
			unlink(part);
		} else {
			rt_give_log_group(path);
		}
	}
	free(all);
	free(counts);
	free(displs);
	free(offsets);
	ioa_buf_release(&head);
	return rc ? rc : (any_failed ? -EIO : 0);
}

void rt_mpilog_write(void)
{
	struct ioa_log_writer w;
	struct ioa_buf hosts = IOA_BUF_INIT(1 << 24);
	struct rt_combined *combined = NULL;
	size_t ncombined = 0, i;
	uint32_t *rank_nodes = NULL, nnodes = 0;
	MPI_Comm comm;
	int rc;

	if (!rt.mpi_initialized || !rt.arena.base || rt.log_written)
		return;
	rt.log_written = true;
	rt_inside |= RT_IN_RUNTIME;
	rt_stop_recording();
	if (rt_pmpi.Comm_dup(MPI_COMM_WORLD, &comm) != MPI_SUCCESS) {
		rt_inside &= ~RT_IN_RUNTIME;
		return;
	}
	ioa_logw_init(&w, (size_t)INT_MAX);
	rc = reduce_shared(comm, &combined, &ncombined);
	if (!rc)
		rc = gather_hosts(comm, &hosts, &rank_nodes, &nnodes);
	if (!rc)
		rc = rt_log_pack_records(&w);
	if (!rc && rt.rank == 0)
		rc = rt_log_pack_job(&w, hosts.data, hosts.len, rank_nodes, nnodes);
	/* Every rank takes part in the write, even one whose packing failed. */
	if (rc)
		w.region_count = 0, w.stored.len = 0;
	rc = write_log(comm, &w) ? -EIO : rc;
	if (rc && rt.config.debug && rt.rank == 0)
		fprintf(stderr, "ioatlas: no log written for this job under '%s'\n",
			rt.config.logdir);
	rt_pmpi.Comm_free(&comm);
	for (i = 0; i < ncombined; i++)
		free(combined[i].name);
	free(combined);
	free(rank_nodes);
	ioa_buf_release(&hosts);
	ioa_logw_release(&w);
	rt_inside &= ~RT_IN_RUNTIME;
}
