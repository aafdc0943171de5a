/*
 * report_drill — the report's drill-downs (see report.h): a file to its
 * ranks' calls on it, and a rank that a finding names to its files.
 *
 * Both count the calls the program made, at the layer it called: from the
 * trace when every rank's is whole (events, less the POSIX calls an MPI-IO
 * call made), else from the counters (per file, the records of its highest
 * layer: MPI-IO over STDIO over POSIX).  A file whose record at that layer
 * is combined over ranks keeps only the sum: the drill-downs say so rather
 * than split it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_trace.h"
#include "report.h"

/* The file drill-down covers this many files (the most bytes), this many ranks each. */
#define DRILL_FILES 64
#define DRILL_RANKS 32
/* ... and jobs of at most this many ranks (its tables are files x ranks). */
#define DRILL_MAX_NPROCS 4096
/* The rank drill-down covers this many ranks of the findings, this many files each. */
#define DRILL_NAMED_RANKS 32
#define DRILL_RANK_FILES  64

/* One rank's calls on one file. */
struct rep_drill {
	double reads, writes, bytes_read, bytes_written;
	double calls;	   /* reads and writes */
	double sequential; /* calls that began where the previous one ended; < 0: unknown */
	double after;	   /* calls that had a previous one to follow (the share's base) */
	int64_t next;	   /* trace: where the rank's last call on the file ended */
};

/* The files' layers (file_layers()), and the trace or the counters as the source. */
struct rep_drill_src {
	const struct an_job *job;
	int trace;
	int *top;		 /* per file: the layer of its highest record, 0: none */
	unsigned char *combined; /* per file: a record at that layer is combined over ranks */
};

/* A module's place in the stack: the program calls the highest it has a record of. */
static int layer(enum ioa_module m)
{
	return m == IOA_MOD_MPIIO ? 3 : m == IOA_MOD_STDIO ? 2 : m == IOA_MOD_POSIX ? 1 : 0;
}

/* The event is a read or write the program called that moved bytes, of a file and rank. */
static int counted(const struct an_job *job, const struct an_event *e)
{
	unsigned flags = job->sigs[e->sig].flags;

	return e->file >= 0 && (size_t)e->file < job->nfiles && e->rank >= 0 &&
	       e->rank < job->nprocs && e->length > 0 && (flags & (IOA_TR_READ | IOA_TR_WRITE)) &&
	       !(flags & (IOA_TR_SUB | IOA_TR_FAILED));
}

/* The record is of its file's highest layer: the one the drill-downs count. */
static int at_top(const struct rep_drill_src *s, const struct an_record *r)
{
	return r->file >= 0 && (size_t)r->file < s->job->nfiles && layer(r->module) &&
	       layer(r->module) == s->top[r->file];
}

static void add_event(struct rep_drill *x, const struct an_job *job, const struct an_event *e)
{
	x->sequential += x->calls > 0 && e->offset == x->next;
	x->after += x->calls > 0;
	x->calls++;
	x->next = (int64_t)((uint64_t)e->offset + (uint64_t)e->length);
	if (job->sigs[e->sig].flags & IOA_TR_WRITE) {
		x->writes++;
		x->bytes_written += (double)e->length;
	} else {
		x->reads++;
		x->bytes_read += (double)e->length;
	}
}

/*
 * A record's counts into its cell.  POSIX counts a read right after the
 * previous read and a write right after the previous write (Darshan's
 * CONSEC counters): the share is of the reads and writes that had one of
 * their kind before them.  MPI-IO's calls of every kind: independent,
 * collective, split and non-blocking.
 */
static void add_record(struct rep_drill *x, const struct an_record *r)
{
	const int64_t *c = r->c;
	double reads, writes;

	switch (r->module) {
	case IOA_MOD_POSIX:
		reads = (double)c[POSIX_READS];
		writes = (double)c[POSIX_WRITES];
		x->bytes_read += (double)c[POSIX_BYTES_READ];
		x->bytes_written += (double)c[POSIX_BYTES_WRITTEN];
		x->sequential += (double)c[POSIX_CONSEC_READS] + (double)c[POSIX_CONSEC_WRITES];
		x->after += (reads > 0 ? reads - 1 : 0) + (writes > 0 ? writes - 1 : 0);
		break;
	case IOA_MOD_STDIO:
		reads = (double)c[STDIO_READS];
		writes = (double)c[STDIO_WRITES];
		x->bytes_read += (double)c[STDIO_BYTES_READ];
		x->bytes_written += (double)c[STDIO_BYTES_WRITTEN];
		x->sequential = -1;
		break;
	case IOA_MOD_MPIIO:
		reads = (double)c[MPIIO_INDEP_READS] + (double)c[MPIIO_COLL_READS] +
			(double)c[MPIIO_SPLIT_READS] + (double)c[MPIIO_NB_READS];
		writes = (double)c[MPIIO_INDEP_WRITES] + (double)c[MPIIO_COLL_WRITES] +
			 (double)c[MPIIO_SPLIT_WRITES] + (double)c[MPIIO_NB_WRITES];
		x->bytes_read += (double)c[MPIIO_BYTES_READ];
		x->bytes_written += (double)c[MPIIO_BYTES_WRITTEN];
		x->sequential = -1;
		break;
	default:
		return;
	}
	x->reads += reads;
	x->writes += writes;
	x->calls = x->reads + x->writes;
}

/* The source of the job's drill-downs; -ENOMEM when out of memory. */
static int src_init(struct rep_drill_src *s, const struct an_job *job)
{
	size_t i;

	s->job = job;
	s->trace = job->traced_ranks > 0 && job->traced_ranks == job->nprocs && !job->trace_partial;
	s->top = calloc(job->nfiles + 1, sizeof(*s->top));
	s->combined = calloc(job->nfiles + 1, 1);
	if (!s->top || !s->combined)
		return -ENOMEM;
	for (i = 0; i < job->nrecs; i++) {
		const struct an_record *r = &job->recs[i];
		int l = layer(r->module);

		if (!l || r->file < 0 || (size_t)r->file >= job->nfiles || l < s->top[r->file])
			continue;
		if (l > s->top[r->file])
			s->combined[r->file] = 0;
		s->top[r->file] = l;
		s->combined[r->file] |= r->rank < 0;
	}
	return 0;
}

static void src_release(struct rep_drill_src *s)
{
	free(s->top);
	free(s->combined);
}

static json_object *cell_json(const struct rep_drill *x)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "reads", an_num(x->reads));
	json_object_object_add(o, "writes", an_num(x->writes));
	json_object_object_add(o, "bytes_read", an_num(x->bytes_read));
	json_object_object_add(o, "bytes_written", an_num(x->bytes_written));
	json_object_object_add(o, "sequential",
			       x->sequential < 0 ? NULL
			       : x->after > 0	 ? an_num(fmin(1, x->sequential / x->after))
						 : an_num(1));
	return o;
}

static int by_bytes_desc(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (x[0] < y[0]) - (x[0] > y[0]);
}

/*
 * The n cells of row (a file's ranks, or a rank's files) that moved the
 * most bytes, at most keep of them, as an array; each with its index
 * under key ("rank", or "file": its name).  *with: how many had calls,
 * *bytes: what they all moved.
 */
static json_object *top_cells(const struct rep_drill *row, size_t n, size_t keep, const char *key,
			      const struct an_job *job, size_t *with, double *bytes)
{
	json_object *out = json_object_new_array();
	double(*by)[2] = calloc(n + 1, sizeof(*by));
	size_t i, m = 0;

	*with = 0;
	*bytes = 0;
	if (!by)
		return out;
	for (i = 0; i < n; i++)
		if (row[i].calls > 0) {
			by[m][0] = row[i].bytes_read + row[i].bytes_written;
			*bytes += by[m][0];
			by[m++][1] = (double)i;
		}
	qsort(by, m, sizeof(*by), by_bytes_desc);
	for (i = 0; i < m && i < keep; i++) {
		size_t k = (size_t)by[i][1];
		json_object *c = cell_json(&row[k]);

		json_object_object_add(c, key,
				       strcmp(key, "file")
					       ? json_object_new_int((int)k)
					       : json_object_new_string(job->files[k].name));
		json_object_array_add(out, c);
	}
	*with = m;
	free(by);
	return out;
}

/* Bytes per file at the layer the program called. */
static double *file_bytes(const struct rep_drill_src *s)
{
	const struct an_job *job = s->job;
	double *total = calloc(job->nfiles + 1, sizeof(*total));
	size_t i;

	for (i = 0; total && s->trace && i < job->nev; i++)
		if (counted(job, &job->ev[i]))
			total[job->ev[i].file] += (double)job->ev[i].length;
	for (i = 0; total && !s->trace && i < job->nrecs; i++) {
		struct rep_drill x = {0};

		if (!at_top(s, &job->recs[i]))
			continue;
		add_record(&x, &job->recs[i]);
		total[job->recs[i].file] += x.bytes_read + x.bytes_written;
	}
	return total;
}

json_object *report_file_ranks(const struct an_job *job)
{
	json_object *out = json_object_new_object();
	double(*order)[2] = NULL, *total = NULL, bytes;
	struct rep_drill_src s = {0};
	struct rep_drill *d = NULL;
	int *slot = NULL;
	size_t i, nslots = 0, with, np = job->nprocs > 0 ? (size_t)job->nprocs : 0;

	if (!np || !job->nfiles || np > DRILL_MAX_NPROCS || src_init(&s, job))
		goto out;
	total = file_bytes(&s);
	order = calloc(job->nfiles, sizeof(*order));
	slot = malloc(job->nfiles * sizeof(*slot));
	if (!total || !order || !slot)
		goto out;
	for (i = 0; i < job->nfiles; i++) {
		order[i][0] = total[i];
		order[i][1] = (double)i;
		slot[i] = -1;
	}
	qsort(order, job->nfiles, sizeof(*order), by_bytes_desc);
	for (i = 0; i < job->nfiles && nslots < DRILL_FILES && order[i][0] > 0; i++)
		slot[(size_t)order[i][1]] = (int)nslots++;
	d = nslots ? calloc(nslots * np, sizeof(*d)) : NULL;
	if (!d)
		goto out;
	for (i = 0; s.trace && i < job->nev; i++) {
		const struct an_event *e = &job->ev[i];

		if (counted(job, e) && slot[e->file] >= 0)
			add_event(&d[(size_t)slot[e->file] * np + (size_t)e->rank], job, e);
	}
	for (i = 0; !s.trace && i < job->nrecs; i++) {
		const struct an_record *r = &job->recs[i];

		if (at_top(&s, r) && slot[r->file] >= 0 && r->rank >= 0 && (size_t)r->rank < np)
			add_record(&d[(size_t)slot[r->file] * np + (size_t)r->rank], r);
	}
	for (i = 0; i < job->nfiles; i++) {
		json_object *f;

		if (slot[i] < 0 || !(f = json_object_new_object()))
			continue;
		json_object_object_add(f, "source",
				       json_object_new_string(s.trace ? "trace" : "counters"));
		if (!s.trace && s.combined[i]) {
			json_object_object_add(f, "combined", json_object_new_boolean(1));
			json_object_object_add(f, "ranks", json_object_new_array());
		} else {
			json_object_object_add(f, "ranks",
					       top_cells(&d[(size_t)slot[i] * np], np, DRILL_RANKS,
							 "rank", job, &with, &bytes));
			json_object_object_add(f, "ranks_with_calls",
					       json_object_new_int64((int64_t)with));
		}
		json_object_object_add(out, job->files[i].name, f);
	}
out:
	src_release(&s);
	free(total);
	free(order);
	free(slot);
	free(d);
	return out;
}

/* Add a rank to the set (ranks[] of *n, at most DRILL_NAMED_RANKS), once. */
static void name_rank(long long rank, const struct an_job *job, int *ranks, size_t *n)
{
	size_t i;

	if (rank < 0 || rank >= job->nprocs || *n >= DRILL_NAMED_RANKS)
		return;
	for (i = 0; i < *n; i++)
		if (ranks[i] == rank)
			return;
	ranks[(*n)++] = (int)rank;
}

/*
 * The ranks a rank list names as the page shows them (an_rank_list()'s
 * "0,3-5": 0, 3 and 5, the numbers written).
 */
static void name_rank_list(const char *s, const struct an_job *job, int *ranks, size_t *n)
{
	while (*s && *n < DRILL_NAMED_RANKS) {
		char *end;
		long long r = strtoll(s, &end, 10);

		if (end == s)
			return;
		name_rank(r, job, ranks, n);
		if (*end != ',' && *end != '-')
			return;
		s = end + 1;
	}
}

/*
 * The ranks an evidence object names (report_names_rank()'s keys), depth
 * first: single ranks when lists is 0, rank lists when it is 1.
 */
static void evidence_ranks(json_object *o, int lists, const struct an_job *job, int *ranks,
			   size_t *n)
{
	size_t i;

	if (json_object_is_type(o, json_type_array)) {
		for (i = 0; i < json_object_array_length(o); i++)
			evidence_ranks(json_object_array_get_idx(o, i), lists, job, ranks, n);
		return;
	}
	if (!json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, key, v)
	{
		if (!report_names_rank(key))
			evidence_ranks(v, lists, job, ranks, n);
		else if (!lists && json_object_is_type(v, json_type_int))
			name_rank(json_object_get_int64(v), job, ranks, n);
		else if (lists && json_object_is_type(v, json_type_string))
			name_rank_list(json_object_get_string(v), job, ranks, n);
	}
}

int report_names_rank(const char *key)
{
	size_t n = strlen(key);

	return !strcmp(key, "rank") || !strcmp(key, "rank_list") ||
	       (n > 5 && !strcmp(key + n - 5, "_rank"));
}

/*
 * The shared files (records combined over ranks) whose POSIX record names
 * rank its fastest or slowest: what the counters keep of its share, {file,
 * as ("fastest" or "slowest"), bytes (read and written), io_time}.
 */
static json_object *extremes(const struct rep_drill_src *s, int rank)
{
	const struct an_job *job = s->job;
	json_object *out = json_object_new_array();
	size_t i;

	for (i = 0; i < job->nrecs && json_object_array_length(out) < DRILL_RANK_FILES; i++) {
		const struct an_record *r = &job->recs[i];
		int slowest;
		json_object *e;

		if (r->module != IOA_MOD_POSIX || r->rank >= 0 || r->file < 0 ||
		    (size_t)r->file >= job->nfiles || !s->combined[r->file] ||
		    (r->c[POSIX_SLOWEST_RANK] != rank && r->c[POSIX_FASTEST_RANK] != rank))
			continue;
		slowest = r->c[POSIX_SLOWEST_RANK] == rank;
		e = json_object_new_object();
		json_object_object_add(e, "file", json_object_new_string(job->files[r->file].name));
		json_object_object_add(e, "as",
				       json_object_new_string(slowest ? "slowest" : "fastest"));
		json_object_object_add(e, "bytes",
				       an_num((double)r->c[slowest ? POSIX_SLOWEST_RANK_BYTES
								   : POSIX_FASTEST_RANK_BYTES]));
		json_object_object_add(e, "io_time",
				       an_num(r->f[slowest ? POSIX_F_SLOWEST_RANK_TIME
							   : POSIX_F_FASTEST_RANK_TIME]));
		json_object_array_add(out, e);
	}
	return out;
}

json_object *report_rank_files(const struct an_job *job, json_object *findings)
{
	json_object *out = json_object_new_object();
	struct rep_drill_src s = {0};
	struct rep_drill *row = NULL;
	int ranks[DRILL_NAMED_RANKS], lists;
	size_t n = 0, i, k, shared = 0;

	/* Single ranks first: a long list of idle ranks takes the room last. */
	for (lists = 0; lists < 2; lists++)
		for (i = 0; json_object_is_type(findings, json_type_array) &&
			    i < json_object_array_length(findings);
		     i++)
			evidence_ranks(json_object_object_get(
					       json_object_array_get_idx(findings, i), "evidence"),
				       lists, job, ranks, &n);
	if (!n || !job->nfiles || src_init(&s, job) || !(row = malloc(job->nfiles * sizeof(*row))))
		goto out;
	for (i = 0; !s.trace && i < job->nfiles; i++)
		shared += s.combined[i] != 0;
	for (k = 0; k < n; k++) {
		json_object *o = json_object_new_object();
		size_t with;
		double bytes;
		char name[16];

		memset(row, 0, job->nfiles * sizeof(*row));
		for (i = 0; s.trace && i < job->nev; i++)
			if (job->ev[i].rank == ranks[k] && counted(job, &job->ev[i]))
				add_event(&row[job->ev[i].file], job, &job->ev[i]);
		for (i = 0; !s.trace && i < job->nrecs; i++) {
			const struct an_record *r = &job->recs[i];

			if (r->rank == ranks[k] && at_top(&s, r) && !s.combined[r->file])
				add_record(&row[r->file], r);
		}
		json_object_object_add(o, "source",
				       json_object_new_string(s.trace ? "trace" : "counters"));
		json_object_object_add(
			o, "files",
			top_cells(row, job->nfiles, DRILL_RANK_FILES, "file", job, &with, &bytes));
		json_object_object_add(o, "files_with_calls", json_object_new_int64((int64_t)with));
		json_object_object_add(o, "bytes", an_num(bytes));
		json_object_object_add(o, "shared_files", json_object_new_int64((int64_t)shared));
		if (!s.trace)
			json_object_object_add(o, "extremes", extremes(&s, ranks[k]));
		snprintf(name, sizeof(name), "%d", ranks[k]);
		json_object_object_add(out, name, o);
	}
out:
	src_release(&s);
	free(row);
	return out;
}
