/*
 * rt_mpilog — one log per MPI job, written at MPI_Finalize (see rt_mpilog.h).
 *
 *  0. The ranks that record find each other (rt_mpijoin): all of them
 *     share MPI_COMM_WORLD, some share a communicator of their own, a rank
 *     that could not join is alone.  "Rank 0" below is rank 0 of that
 *     communicator, the lowest recording rank; records keep world ranks.
 *  1. Every rank sends its host name and the (module, record id) keys it
 *     holds to rank 0, which maps ranks to nodes, finds the keys held by
 *     more than one rank, and broadcasts those.
 *  2. Every rank packs the records only it holds into compressed regions
 *     and serialises its records of shared files; all ranks learn the sizes.
 *  3. Small logs (the packed regions of all ranks within gather_cap):
 *     ranks send everything to rank 0, which combines the shared records
 *     (rt_combine), packs them with the job and mount table, and writes the
 *     log alone.  Larger logs: ranks send only their shared records and
 *     region tables; rank 0 lays out the file and scatters each rank's
 *     offset, and all ranks write with one collective MPI_File_write_at_all.
 *     Either way the log is "<log>.part" until complete, then named
 *     without ever replacing a log (rt_log_publish()).
 *
 * That is three rounds of point-to-point messages and five collective
 * steps for a small log; each costs a network round trip, which is what
 * MPI_Finalize's added time is made of.  All of it runs through PMPI, on
 * MPI_COMM_WORLD (which the MPI standard requires to be quiet by the time
 * MPI_Finalize is called) or a communicator made from it.  The log says
 * which world ranks it holds (job key "ranks").  A failure anywhere
 * leaves no log and is reported under IOATLAS_DEBUG.
 */
#define _GNU_SOURCE
#include "rt_mpilog.h"
#include "rt_spill.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "ioa_logw.h"
#include "ioa_trace.h"
#include "rt_clock.h"
#include "rt_combine.h"
#include "rt_core.h"
#include "rt_log.h"
#include "rt_mpijoin.h"
#include "rt_records.h"
#include "rt_trace.h"

struct rt_pmpi_api rt_pmpi;

#define RT_HOST_LEN 64

/* Shared-file keys that travel in the first broadcast. */
#define RT_BCAST_KEYS 255

void rt_mpilog_init(void)
{
	int ok = 1;

	rt_self()->inside |= RT_IN_RUNTIME;
#ifdef RT_STATIC
#define RT_PMPI_SET(name, params) rt_pmpi.name = PMPI_##name;
#else
#define RT_PMPI_SET(name, params)                         \
	{                                                 \
		void *sym = rt_mpi_real("PMPI_" #name);   \
		memcpy(&rt_pmpi.name, &sym, sizeof(sym)); \
		ok &= sym != NULL;                        \
	}
#endif
	RT_PMPI_FUNCTIONS(RT_PMPI_SET)
#undef RT_PMPI_SET
	(void)ok;
	if (ok) {
		rt_pmpi.Comm_rank(MPI_COMM_WORLD, &rt.rank);
		rt_pmpi.Comm_size(MPI_COMM_WORLD, &rt.nprocs);
		rt.mpi_initialized = true;
		rt_spill_note_state();
		rt_spill_start();
	} else if (rt.enabled) {
		rt_disable("the MPI library lacks PMPI entry points");
	}
	rt_self()->inside &= ~RT_IN_RUNTIME;
}

/* --------------------------------------------------------- helpers */

struct rt_key {
	uint64_t id;
	uint64_t module; /* enum ioa_module, with the marks below */
};

/* A rank folded this file (sent to rank 0); some rank folded it (sent back). */
#define RT_KEY_FOLDED	 0x100u
#define RT_KEY_PARTIAL	 0x200u
#define RT_KEY_MODULE(k) ((k)->module & 0xffu)

static int key_cmp(const void *a, const void *b)
{
	const struct rt_key *x = a, *y = b;

	if (RT_KEY_MODULE(x) != RT_KEY_MODULE(y))
		return RT_KEY_MODULE(x) < RT_KEY_MODULE(y) ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

struct rt_job {
	struct rt_mpijoin group; /* the ranks writing this log */
	struct rt_key *shared;	 /* every rank */
	size_t nshared;
	struct ioa_buf hosts; /* rank 0: distinct host names, NUL-separated */
	uint32_t *rank_nodes; /* rank 0 */
	uint32_t nnodes;
	double ns_per_tick;
	struct rt_clock clock;
	struct ioa_trace trace; /* rank 0, small logs: every rank's trace, to be grouped */
};

/*
 * Gathers variable-size byte buffers at rank 0.  When rank 0 already knows
 * every rank's length (known_counts, e.g. from an earlier allgather) this
 * is one collective step, else two.  On rank 0 *all receives the
 * concatenation and *counts each rank's share; the caller frees both.
 */
static int gather_bytes(const struct rt_mpijoin *g, const void *mine, size_t len,
			const int *known_counts, char **all, int **counts)
{
	int *displs = NULL, i, total = 0, my_len = (int)len, rc = 0;

	*all = NULL;
	*counts = NULL;
	if (len > INT_MAX)
		my_len = 0, rc = -EOVERFLOW;
	if (g->rank == 0) {
		*counts = calloc((size_t)g->size, sizeof(int));
		displs = calloc((size_t)g->size, sizeof(int));
		if (*counts && known_counts)
			memcpy(*counts, known_counts, (size_t)g->size * sizeof(int));
	}
	if (!known_counts)
		rt_pmpi.Gather(&my_len, 1, MPI_INT, *counts, 1, MPI_INT, 0, g->comm);
	if (g->rank == 0 && *counts && displs) {
		for (i = 0; i < g->size; i++) {
			displs[i] = total;
			total = (*counts)[i] > INT_MAX - total ? INT_MAX : total + (*counts)[i];
		}
		*all = malloc(total ? (size_t)total : 1);
	}
	/*
	 * Rank 0 without memory still takes part, receiving nothing: with
	 * MPI_ERRORS_RETURN in force (rt_mpilog_write) that is an error for
	 * rank 0 alone, never an abort of the job.
	 */
	if (g->rank == 0 && (!*all || total == INT_MAX)) {
		for (i = 0; *counts && i < g->size; i++)
			(*counts)[i] = 0;
		rc = -ENOMEM;
	}
	if (rt_pmpi.Gatherv(mine, my_len, MPI_BYTE, *all, *counts, displs, MPI_BYTE, 0, g->comm) !=
	    MPI_SUCCESS)
		rc = -EIO;
	free(displs);
	return rc;
}

/* --------------------------------------------------------- step 1 */

/* Rank 0: maps a rank's host name to a node number. */
static void add_host(struct rt_job *job, char **names, int rank, const char *host)
{
	uint32_t k;

	for (k = 0; k < job->nnodes; k++)
		if (!strcmp(names[k], host))
			break;
	if (k == job->nnodes) {
		names[job->nnodes++] = (char *)host;
		ioa_buf_add(&job->hosts, host, strlen(host) + 1);
	}
	job->rank_nodes[rank] = k;
}

/*
 * Rank 0: the keys that appear more than once, sorted, in place.  A file
 * that some rank folded counts as appearing there too, and is marked
 * partial: its combined record lacks that rank's share.  A file that every
 * rank holding it folded has no record anywhere to combine (its counts are
 * all in overflow records): it is not shared, or its combined record would
 * have no name and no counters.
 */
static size_t keep_shared(struct rt_key *keys, size_t n)
{
	size_t i, k, run, kept = 0;

	qsort(keys, n, sizeof(*keys), key_cmp);
	for (i = 0; i < n; i = run + 1) {
		uint64_t partial = 0;
		size_t held = 0;

		run = i;
		while (run + 1 < n && !key_cmp(&keys[i], &keys[run + 1]))
			run++;
		for (k = i; k <= run; k++) {
			partial |= keys[k].module & RT_KEY_FOLDED ? RT_KEY_PARTIAL : 0;
			held += !(keys[k].module & RT_KEY_FOLDED);
		}
		if (run > i && held)
			keys[kept++] =
				(struct rt_key){keys[i].id, RT_KEY_MODULE(&keys[i]) | partial};
	}
	return kept;
}

static int find_shared(struct rt_job *job)
{
	struct ioa_buf mine = IOA_BUF_INIT((size_t)INT_MAX);
	char host[RT_HOST_LEN] = "", *all = NULL, **names = NULL;
	struct rt_key *keys = NULL;
	int *counts = NULL, nshared = 0, r, rc;
	size_t nkeys = 0, m;
	struct rt_record *rec;

	gethostname(host, sizeof(host) - 1);
	rc = ioa_buf_add(&mine, host, sizeof(host));
	for (m = 0; m < IOA_MOD_COUNT && !rc; m++)
		for (rec = rt_live->modules[m].first; rec && !rc; rec = rec->next_in_module) {
			struct rt_key key = {rec->id, m};

			rc = ioa_buf_add(&mine, &key, sizeof(key));
		}
	/* The files this rank folded go too, marked: a file shared with them is partial. */
	for (m = 0; m <= rt_live->folded.mask && !rc; m++) {
		struct rt_key key = {rt_live->folded.ids[m],
				     rt_live->folded.modules[m] | RT_KEY_FOLDED};

		if (key.id)
			rc = ioa_buf_add(&mine, &key, sizeof(key));
	}
	if (rc)
		mine.len = sizeof(host) <= mine.len ? sizeof(host) : 0;
	rc = gather_bytes(&job->group, mine.data, mine.len, NULL, &all, &counts) || rc;

	if (job->group.rank == 0 && all) {
		size_t at = 0;

		for (r = 0; r < job->group.size; r++)
			nkeys += (size_t)counts[r] >= RT_HOST_LEN
					 ? ((size_t)counts[r] - RT_HOST_LEN) / sizeof(*keys)
					 : 0;
		keys = malloc((nkeys + 1) * sizeof(*keys));
		names = calloc((size_t)job->group.size, sizeof(*names));
		job->rank_nodes = calloc((size_t)rt.nprocs, sizeof(uint32_t));
		nkeys = 0;
		for (r = 0; keys && names && job->rank_nodes && r < job->group.size; r++) {
			size_t n = (size_t)counts[r] >= RT_HOST_LEN
					   ? ((size_t)counts[r] - RT_HOST_LEN) / sizeof(*keys)
					   : 0;

			if ((size_t)counts[r] >= RT_HOST_LEN) {
				all[at + RT_HOST_LEN - 1] = '\0';
				add_host(job, names, job->group.world[r], all + at);
			}
			memcpy(keys + nkeys, all + at + RT_HOST_LEN, n * sizeof(*keys));
			nkeys += n;
			at += (size_t)counts[r];
		}
		nshared = keys ? (int)keep_shared(keys, nkeys) : 0;
	}
	/* One broadcast carries the count and the first keys; most jobs need no second. */
	{
		struct rt_key first[RT_BCAST_KEYS + 1];
		size_t n;

		memset(first, 0, sizeof(first));
		if (job->group.rank == 0) {
			first[0].id = (uint64_t)nshared;
			memcpy(first + 1, keys,
			       (nshared < RT_BCAST_KEYS ? (size_t)nshared : RT_BCAST_KEYS) *
				       sizeof(*keys));
		}
		rt_pmpi.Bcast(first, sizeof(first), MPI_BYTE, 0, job->group.comm);
		nshared = (int)first[0].id;
		job->nshared = (size_t)nshared;
		n = job->nshared < RT_BCAST_KEYS ? job->nshared : RT_BCAST_KEYS;
		if (job->group.rank != 0) {
			keys = malloc((job->nshared + 1) * sizeof(*keys));
			if (keys)
				memcpy(keys, first + 1, n * sizeof(*keys));
		}
		/* Everyone joins the rest of the broadcast, memory or not. */
		if (job->nshared > RT_BCAST_KEYS) {
			struct rt_key *rest = keys ? keys + RT_BCAST_KEYS : NULL;
			int rest_bytes = (int)((job->nshared - RT_BCAST_KEYS) * sizeof(*keys));

			if (!rest)
				rest = malloc((size_t)rest_bytes);
			rt_pmpi.Bcast(rest, rest ? rest_bytes : 0, MPI_BYTE, 0, job->group.comm);
			if (!keys)
				free(rest);
		}
		if (!keys)
			rc = -ENOMEM;
	}
	job->shared = keys;
	free(all);
	free(counts);
	free(names);
	ioa_buf_release(&mine);
	return rc;
}

/* --------------------------------------------------------- steps 2 and 3 */

/* A region table entry as sent to rank 0. */
struct rt_wire_region {
	uint64_t type, compression, offset, stored_size, raw_size, crc32;
};

/*
 * This rank's message to rank 0: its records of shared files (name and
 * counters each, which it then leaves out of its own regions), its region
 * table, and, for small logs, its packed regions themselves.
 */
static int pack_message(struct rt_job *job, struct ioa_log_writer *w, struct ioa_buf *msg)
{
	size_t i;
	int rc = 0;

	rc = ioa_enc_u32(msg, 0);
	for (i = 0; i < job->nshared && !rc; i++) {
		struct rt_record *rec = rt_record_find(
			(enum ioa_module)RT_KEY_MODULE(&job->shared[i]), job->shared[i].id);

		if (!rec)
			continue;
		rt_log_finish_record(rec);
		rc = ioa_enc_u32(msg, (uint32_t)i);
		if (!rc)
			rc = ioa_enc_bytes(msg, rec->name, strlen(rec->name));
		if (!rc)
			rc = ioa_enc_module_record(msg, rec->module, rec->id, rt.rank, rec->flags,
						   rec->counters, rec->fcounters);
		rec->flags |= RT_REC_ELSEWHERE;
		ioa_put_u32((unsigned char *)msg->data,
			    ioa_get_u32((unsigned char *)msg->data) + 1);
	}
	/* Rank 0 packs its own records after combining; the others now. */
	if (!rc && job->group.rank != 0)
		rc = rt_log_pack_records(w);
	if (!rc && job->group.rank != 0 && rt_trace_pack(w, job->ns_per_tick) && rt.config.debug)
		fprintf(stderr, "ioatlas: rank %d's operation trace is left out of the log\n",
			rt.rank);
	return rc;
}

static int add_regions(struct ioa_buf *msg, const struct ioa_log_writer *w)
{
	uint32_t i;
	int rc = ioa_enc_u32(msg, w->region_count);

	for (i = 0; i < w->region_count && !rc; i++) {
		struct rt_wire_region wr = {w->regions[i].type,	    w->regions[i].compression,
					    w->regions[i].offset,   w->regions[i].stored_size,
					    w->regions[i].raw_size, w->regions[i].crc32};

		rc = ioa_buf_add(msg, &wr, sizeof(wr));
	}
	return rc;
}

/* Rank 0: one rank's shared records into the combinations. */
static int take_shared(struct rt_job *job, struct rt_combined *combined, int rank,
		       struct ioa_cursor *cur)
{
	uint32_t n = ioa_cursor_u32(cur), k;

	for (k = 0; k < n && !cur->overrun; k++) {
		uint32_t index = ioa_cursor_u32(cur), len = ioa_cursor_u32(cur), j;
		const unsigned char *name = ioa_cursor_take(cur, len);
		int64_t c[IOA_MAX_COUNTERS];
		double f[IOA_MAX_FCOUNTERS];
		const struct ioa_module_desc *mod;
		enum ioa_module m;

		if (index >= job->nshared || !name)
			return -EINVAL;
		m = (enum ioa_module)RT_KEY_MODULE(&job->shared[index]);
		mod = &ioa_modules[m];
		(void)ioa_cursor_u64(cur);
		(void)ioa_cursor_u32(cur);
		combined[index].rec.flags |= ioa_cursor_u32(cur) & ~RT_REC_ELSEWHERE;
		if (job->shared[index].module & RT_KEY_PARTIAL)
			combined[index].rec.flags |= IOA_REC_PARTIAL;
		for (j = 0; j < mod->counter_count; j++)
			c[j] = (int64_t)ioa_cursor_u64(cur);
		for (j = 0; j < mod->fcounter_count; j++)
			f[j] = ioa_bits_f64(ioa_cursor_u64(cur));
		if (!combined[index].name &&
		    !(combined[index].name = strndup((const char *)name, len)))
			return -ENOMEM;
		combined[index].rec.id = job->shared[index].id;
		combined[index].rec.module = m;
		rt_combine_add(&combined[index], m, rank, c, f);
	}
	return cur->overrun ? -EINVAL : 0;
}

/*
 * Rank 0, small logs: a rank's trace region joins the job's trace, to be
 * grouped with the others'.  One that does not decode is kept as it came
 * (a reader takes any number of trace regions).
 */
static int take_trace(struct rt_job *job, struct ioa_log_writer *all,
		      const struct ioa_log_region *reg, const unsigned char *bytes)
{
	struct ioa_log_region alone = *reg;
	unsigned char *raw = NULL;
	uLongf len = (uLongf)reg->raw_size;
	int rc = -EINVAL;

	if (reg->raw_size <= rt.config.gather_cap_bytes && (raw = malloc(reg->raw_size + 1))) {
		if (reg->compression == IOA_LOG_COMPRESS_NONE && reg->stored_size == reg->raw_size)
			memcpy(raw, bytes, (size_t)reg->raw_size);
		else if (uncompress(raw, &len, bytes, (uLong)reg->stored_size) != Z_OK ||
			 len != reg->raw_size)
			len = 0;
		if (len == reg->raw_size)
			rc = ioa_trace_decode(&job->trace, raw, (size_t)len);
		free(raw);
	}
	if (!rc)
		return 0;
	alone.offset = 0;
	return ioa_logw_append(all, &alone, 1, bytes, (size_t)reg->stored_size);
}

/* Rank 0: one rank's regions into w (small logs), or its region table into table. */
static int take_regions(struct rt_job *job, struct ioa_log_writer *all, struct ioa_cursor *cur,
			int with_bytes, struct ioa_log_region *table, uint32_t *table_count)
{
	uint32_t n = ioa_cursor_u32(cur), k;
	uint64_t stored = 0;
	struct ioa_log_region *regions = calloc(n + 1, sizeof(*regions));
	int rc = 0;

	if (!regions || cur->overrun)
		rc = -ENOMEM;
	for (k = 0; k < n && !rc; k++) {
		const unsigned char *p = ioa_cursor_take(cur, sizeof(struct rt_wire_region));
		struct rt_wire_region wr;

		if (!p) {
			rc = -EINVAL;
			break;
		}
		memcpy(&wr, p, sizeof(wr));
		regions[k] = (struct ioa_log_region){(uint32_t)wr.type, (uint32_t)wr.compression,
						     wr.offset,		wr.stored_size,
						     wr.raw_size,	(uint32_t)wr.crc32};
		stored += wr.stored_size;
	}
	if (!rc && with_bytes) {
		const unsigned char *bytes = ioa_cursor_take(cur, (size_t)stored);

		for (k = 0; k < n && !rc; k++) {
			struct ioa_log_region one = regions[k];

			if (!bytes || one.offset > stored ||
			    one.stored_size > stored - one.offset) {
				rc = -EINVAL;
			} else if (one.type == IOA_REGION_TRACE) {
				rc = take_trace(job, all, &one, bytes + one.offset);
			} else {
				one.offset = 0;
				rc = ioa_logw_append(all, &one, 1, bytes + regions[k].offset,
						     (size_t)one.stored_size);
			}
		}
	} else if (!rc && table) {
		memcpy(table + *table_count, regions, n * sizeof(*regions));
		*table_count += n;
	}
	free(regions);
	return rc;
}

/*
 * Rank 0, small logs: its own trace joins the others', ranks with the same
 * shape become one group, and the job's trace is one region.
 */
static int pack_job_trace(struct rt_job *job, struct ioa_log_writer *w)
{
	struct ioa_buf raw = IOA_BUF_INIT((size_t)INT_MAX);
	int rc = rt_trace_group(&job->trace, job->ns_per_tick);

	if (!rc && job->trace.ngroups) {
		rc = ioa_trace_regroup(&job->trace);
		rc = rc ? rc : ioa_trace_encode(&job->trace, &raw);
		rc = rc ? rc : ioa_logw_add(w, IOA_REGION_TRACE, raw.data, raw.len);
	}
	ioa_buf_release(&raw);
	return rc;
}

/* --------------------------------------------------------- step 3, large logs */

struct rt_placement {
	long long offset;
	char path[PATH_MAX];
};

static int write_collective(const struct rt_mpijoin *g, struct ioa_log_writer *w,
			    struct ioa_buf *head, struct rt_placement *placements)
{
	struct rt_placement mine;
	int failed = 0, any_failed = 0, rc;
	char part[PATH_MAX + 8];
	MPI_File fh;

	rt_pmpi.Scatter(placements, sizeof(mine), MPI_BYTE, &mine, sizeof(mine), MPI_BYTE, 0,
			g->comm);
	if (!mine.path[0])
		return -EIO;
	snprintf(part, sizeof(part), "%s.part", mine.path);
	if (g->rank == 0)
		failed = ioa_buf_add(head, w->stored.data, w->stored.len) != 0;
	rc = rt_pmpi.File_open(g->comm, part, MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL,
			       MPI_INFO_NULL, &fh);
	if (rc == MPI_SUCCESS) {
		const char *bytes = g->rank == 0 ? head->data : w->stored.data;
		size_t len = g->rank == 0 ? head->len : w->stored.len;

		failed |= len > INT_MAX;
		failed |= rt_pmpi.File_write_at_all(fh, (MPI_Offset)mine.offset, bytes,
						    failed ? 0 : (int)len, MPI_BYTE,
						    MPI_STATUS_IGNORE) != MPI_SUCCESS;
		failed |= rt_pmpi.File_close(&fh) != MPI_SUCCESS;
	} else {
		failed = 1;
	}
	rt_pmpi.Reduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, 0, g->comm);
	if (g->rank != 0)
		return 0;
	if (any_failed || chmod(part, 0440) || rt_log_publish(part, mine.path, sizeof(mine.path))) {
		unlink(part);
		return -EIO;
	}
	rt_give_log_group(mine.path);
	return 0;
}

/* --------------------------------------------------------- the whole */

/* Rank 0: the world ranks this log holds, for the job region (rt_log_ranks). */
static char *log_ranks;

static int set_log_ranks(const struct rt_mpijoin *g)
{
	/* "a-b," takes at most 24 characters per range. */
	size_t len = 24 * (size_t)g->size + 1;

	free(log_ranks);
	log_ranks = malloc(len);
	if (!log_ranks)
		return -ENOMEM;
	rt_log_ranks = rt_mpijoin_ranks(g, log_ranks, len);
	return 0;
}

static int write_job_log(struct rt_job *job)
{
	const struct rt_mpijoin *g = &job->group;
	struct ioa_log_writer w;
	struct ioa_buf msg = IOA_BUF_INIT((size_t)INT_MAX), head = IOA_BUF_INIT((size_t)INT_MAX);
	struct rt_combined *combined = NULL;
	struct rt_placement *placements = NULL;
	struct ioa_log_region *table = NULL;
	int64_t sizes[3], *all_sizes = NULL, total_stored = 0;
	int *counts = NULL, *msg_sizes = NULL, small, r, rc;
	uint32_t table_count = 0;
	char *gathered = NULL;
	size_t i;

	ioa_logw_init(&w, (size_t)INT_MAX);
	rc = pack_message(job, &w, &msg);

	/*
	 * Everyone learns how big the log is, so that all pick the same way,
	 * and rank 0 learns the size of each message it is about to receive.
	 */
	if (!rc)
		rc = add_regions(&msg, &w);
	sizes[0] = rc ? 0 : (int64_t)w.stored.len;
	sizes[1] = rc ? 0 : (int64_t)msg.len;
	sizes[2] = rc;
	all_sizes = calloc((size_t)g->size * 3, sizeof(*all_sizes));
	msg_sizes = calloc((size_t)g->size, sizeof(*msg_sizes));
	if (!all_sizes || !msg_sizes) {
		free(all_sizes);
		free(msg_sizes);
		return -ENOMEM;
	}
	rt_pmpi.Allgather(sizes, 3, MPI_INT64_T, all_sizes, 3, MPI_INT64_T, g->comm);
	for (r = 0; r < g->size; r++)
		total_stored += all_sizes[3 * r];
	small = total_stored <= (int64_t)rt.config.gather_cap_bytes;
	for (r = 0; r < g->size; r++) {
		int64_t n = all_sizes[3 * r + 1] + (small ? all_sizes[3 * r] : 0);

		msg_sizes[r] = n > INT_MAX ? 0 : (int)n;
	}
	if (!rc && small)
		rc = ioa_buf_add(&msg, w.stored.data, w.stored.len);
	/* Send exactly what the others were told, or nothing. */
	if (rc || msg.len != (size_t)msg_sizes[g->rank])
		msg.len = 0;
	if (!msg.len)
		msg_sizes[g->rank] = 0;
	rc = gather_bytes(g, msg.data, msg.len, msg_sizes, &gathered, &counts) || rc;

	if (g->rank == 0) {
		struct ioa_cursor cur = {(const unsigned char *)gathered, 0, 0};
		size_t total_regions = 0;

		combined = calloc(job->nshared + 1, sizeof(*combined));
		for (r = 0; r < g->size; r++)
			total_regions += (size_t)counts[r] / sizeof(struct rt_wire_region) + 1;
		table = calloc(total_regions + 8 * IOA_MOD_COUNT, sizeof(*table));
		if (!combined || !table)
			rc = -ENOMEM;
		/* Rank 0's own message carries its shared records only. */
		for (r = 0; !rc && r < g->size; r++) {
			cur.left += (size_t)counts[r];
			rc = take_shared(job, combined, g->world[r], &cur);
			if (!rc && r > 0)
				rc = take_regions(job, &w, &cur, small, table, &table_count);
			else if (!rc)
				(void)ioa_cursor_take(&cur, cur.left);
			/* Whatever this rank sent beyond what was read is skipped. */
			(void)ioa_cursor_take(&cur, cur.left);
		}
		/* The other ranks' bytes are in w now (small logs): let them go. */
		free(gathered);
		gathered = NULL;
		/*
		 * A combination no rank sent (its rank's message was lost) has
		 * neither name nor counters: it is left out, never written empty.
		 */
		for (i = 0; !rc && i < job->nshared; i++)
			if (combined[i].ranks && combined[i].name)
				rt_combine_finish(&combined[i]);
		/* Rank 0's regions follow the others' (small logs) or lead (large). */
		if (!rc)
			rc = rt_log_pack_records(&w);
		/* A trace that cannot be packed is left out; the log goes on without it. */
		if (!rc &&
		    (small ? pack_job_trace(job, &w) : rt_trace_pack(&w, job->ns_per_tick)) &&
		    rt.config.debug)
			fprintf(stderr,
				"ioatlas: the job's operation trace is left out of its log\n");
		if (!rc)
			rc = set_log_ranks(g);
		if (!rc)
			rc = rt_log_pack_job(&w, job->hosts.data, job->hosts.len, job->rank_nodes,
					     job->nnodes);
	}

	if (small) {
		if (g->rank == 0 && !rc)
			rc = rt_log_write(&w);
	} else {
		if (g->rank == 0) {
			struct ioa_log_region *regions =
				calloc(w.region_count + table_count + 1, sizeof(*regions));
			uint64_t offset;

			placements = calloc((size_t)g->size, sizeof(*placements));
			if (!rc && (!regions || !placements))
				rc = -ENOMEM;
			if (!rc) {
				memcpy(regions, w.regions, w.region_count * sizeof(*regions));
				memcpy(regions + w.region_count, table,
				       table_count * sizeof(*regions));
				rc = ioa_logw_header(&head, regions, w.region_count + table_count,
						     rt_log_flags());
			}
			/* Rank 0 writes the header and its regions; each rank then its own. */
			offset = head.len + w.stored.len;
			for (r = 1; !rc && r < g->size; r++) {
				placements[r].offset = (long long)offset;
				offset += (uint64_t)all_sizes[3 * r];
			}
			if (!rc)
				rc = rt_log_path(placements[0].path, sizeof(placements[0].path));
			for (r = 1; !rc && r < g->size; r++)
				memcpy(placements[r].path, placements[0].path,
				       sizeof(placements[r].path));
			if (rc && placements)
				for (r = 0; r < g->size; r++)
					placements[r].path[0] = '\0';
			free(regions);
		}
		rc = write_collective(g, &w, &head, placements) || rc ? -EIO : 0;
	}

	rt_log_ranks = NULL;
	free(log_ranks);
	log_ranks = NULL;
	for (i = 0; combined && i < job->nshared; i++)
		free(combined[i].name);
	free(combined);
	free(placements);
	free(table);
	free(gathered);
	free(counts);
	free(all_sizes);
	free(msg_sizes);
	ioa_buf_release(&msg);
	ioa_buf_release(&head);
	ioa_logw_release(&w);
	return rc;
}

/* The job key "clock" (IOA_JOB_CLOCK), on the log writer. */
static void say_clock(const struct rt_job *job)
{
	static char text[160];

	if (job->group.rank != 0)
		return;
	snprintf(text, sizeof(text),
		 "base=rank0 uncertainty_ns=%llu drift_ns=%llu ranks=%d unmeasured=%llu",
		 (unsigned long long)job->clock.uncertainty_ns,
		 (unsigned long long)job->clock.drift_ns, job->group.size,
		 (unsigned long long)job->clock.unmeasured);
	rt_log_clock = text;
}

/* Our collectives must return errors, never abort the application. */
static void errors_return(MPI_Comm comm, MPI_Errhandler *saved)
{
	rt_pmpi.Comm_get_errhandler(comm, saved);
	rt_pmpi.Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
}

static void errors_restore(MPI_Comm comm, MPI_Errhandler *saved)
{
	rt_pmpi.Comm_set_errhandler(comm, *saved);
	rt_pmpi.Errhandler_free(saved);
}

void rt_mpilog_write(void)
{
	struct rt_job job = {0};
	MPI_Errhandler saved, saved_self;
	int rc, recording = rt.started, saved_errno = errno;

	if (!rt.mpi_initialized || rt.log_written)
		return;
	rt.log_written = true;
	rt_self()->inside |= RT_IN_RUNTIME;
	if (recording) {
		rt_stop_recording();
		job.ns_per_tick = rt_seconds_per_tick() * 1e9;
		rt_log_tick_s = job.ns_per_tick * 1e-9;
		rt_records_to_seconds(rt_log_tick_s);
	}
	ioa_buf_init(&job.hosts, 1 << 24);

	errors_return(MPI_COMM_WORLD, &saved);
	/* A rank that does not record still answers: nobody waits for it in vain. */
	rc = rt_mpijoin(&job.group, recording);
	if (rc == 0) {
		if (job.group.comm == MPI_COMM_SELF)
			errors_return(MPI_COMM_SELF, &saved_self);
		if (!rt_clock_sync(&job.group, job.ns_per_tick, &job.clock))
			say_clock(&job);
		rc = find_shared(&job);
		rc = write_job_log(&job) || rc;
		/*
		 * Written.  The rank that published the log removes the job's
		 * spills; the others only say they handed their records over:
		 * killed before it published, the log writer leaves them all to
		 * recover.
		 */
		if (!rc)
			rt_spill_end(job.group.rank == 0 ? RT_END_CLEAN : RT_END_HANDED, 0);
		if (job.group.comm == MPI_COMM_SELF)
			errors_restore(MPI_COMM_SELF, &saved_self);
		if (rc && rt.config.debug && job.group.rank == 0)
			fprintf(stderr, "ioatlas: no log written for this job under '%s'\n",
				rt.config.logdir);
	} else if (rc < 0 && rt.config.debug) {
		fprintf(stderr, "ioatlas: rank %d has no memory to join the job's log\n", rt.rank);
	}
	rt_mpijoin_release(&job.group);
	errors_restore(MPI_COMM_WORLD, &saved);
	free(job.shared);
	free(job.rank_nodes);
	ioa_trace_free(&job.trace);
	ioa_buf_release(&job.hosts);
	rt_self()->inside &= ~RT_IN_RUNTIME;
	/* The program's MPI_Finalize returns with the errno it had. */
	errno = saved_errno;
}
