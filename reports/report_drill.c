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
struct drill {
	double reads, writes, bytes_read, bytes_written;
	double calls;	   /* reads and writes */
	double sequential; /* calls that began where the previous one ended; < 0: unknown */
	int64_t next;	   /* trace: where the rank's last call on the file ended */
	int layer;	   /* counters: the layer its counts are of (layer()), 0: none */
};

/* A module's place in the stack: the program calls the highest it has a record of. */
static int layer(enum ioa_module m)
{
	return m == IOA_MOD_MPIIO ? 3 : m == IOA_MOD_STDIO ? 2 : m == IOA_MOD_POSIX ? 1 : 0;
}

static int from_trace(const struct an_job *job)
{
	return job->traced_ranks > 0 && job->traced_ranks == job->nprocs && !job->trace_partial;
}

/* The event is a read or write the program called that moved bytes, of a file and rank. */
static int counted(const struct an_job *job, const struct an_event *e)
{
	unsigned flags = job->sigs[e->sig].flags;

	return e->file >= 0 && (size_t)e->file < job->nfiles && e->rank >= 0 &&
	       e->rank < job->nprocs && e->length > 0 && (flags & (IOA_TR_READ | IOA_TR_WRITE)) &&
	       !(flags & (IOA_TR_SUB | IOA_TR_FAILED));
}

static void add_event(struct drill *x, const struct an_job *job, const struct an_event *e)
{
	x->sequential += x->calls > 0 && e->offset == x->next;
	x->calls++;
	x->next = e->offset + e->length;
	if (job->sigs[e->sig].flags & IOA_TR_WRITE) {
		x->writes++;
		x->bytes_written += (double)e->length;
	} else {
		x->reads++;
		x->bytes_read += (double)e->length;
	}
}

/* A record's counts into its cell, when of the highest layer the cell has seen. */
static void add_record(struct drill *x, const struct an_record *r)
{
	const int64_t *c = r->c;
	int l = layer(r->module);

	if (l < x->layer)
		return;
	if (l > x->layer)
		*x = (struct drill){.layer = l};
	switch (r->module) {
	case IOA_MOD_POSIX:
		x->reads += (double)c[POSIX_READS];
		x->writes += (double)c[POSIX_WRITES];
		x->bytes_read += (double)c[POSIX_BYTES_READ];
		x->bytes_written += (double)c[POSIX_BYTES_WRITTEN];
		x->sequential += (double)c[POSIX_CONSEC_READS] + (double)c[POSIX_CONSEC_WRITES];
		break;
	case IOA_MOD_STDIO:
		x->reads += (double)c[STDIO_READS];
		x->writes += (double)c[STDIO_WRITES];
		x->bytes_read += (double)c[STDIO_BYTES_READ];
		x->bytes_written += (double)c[STDIO_BYTES_WRITTEN];
		x->sequential = -1;
		break;
	default:
		x->reads += (double)c[MPIIO_INDEP_READS] + (double)c[MPIIO_COLL_READS];
		x->writes += (double)c[MPIIO_INDEP_WRITES] + (double)c[MPIIO_COLL_WRITES];
		x->bytes_read += (double)c[MPIIO_BYTES_READ];
		x->bytes_written += (double)c[MPIIO_BYTES_WRITTEN];
		x->sequential = -1;
	}
	x->calls = x->reads + x->writes;
}

/*
 * Per file, the layer of its highest record (0: none) and whether a record
 * there is combined over ranks.  NULL when out of memory.
 */
static int *file_layers(const struct an_job *job, unsigned char **combined)
{
	int *top = calloc(job->nfiles + 1, sizeof(*top));
	size_t i;

	*combined = calloc(job->nfiles + 1, 1);
	if (!top || !*combined) {
		free(top);
		free(*combined);
		*combined = NULL;
		return NULL;
	}
	for (i = 0; i < job->nrecs; i++) {
		const struct an_record *r = &job->recs[i];
		int l = layer(r->module);

		if (r->file < 0 || (size_t)r->file >= job->nfiles || l < top[r->file])
			continue;
		if (l > top[r->file])
			(*combined)[r->file] = 0;
		top[r->file] = l;
		(*combined)[r->file] |= r->rank < 0;
	}
	return top;
}

static json_object *cell_json(const struct drill *x)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "reads", an_num(x->reads));
	json_object_object_add(o, "writes", an_num(x->writes));
	json_object_object_add(o, "bytes_read", an_num(x->bytes_read));
	json_object_object_add(o, "bytes_written", an_num(x->bytes_written));
	json_object_object_add(o, "sequential",
			       x->sequential < 0 ? NULL
			       : x->calls > 1	 ? an_num(x->sequential / (x->calls - 1))
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
 * under key.  *with: how many had calls.
 */
static json_object *top_cells(const struct drill *row, size_t n, size_t keep, const char *key,
			      const struct an_job *job, size_t *with)
{
	json_object *out = json_object_new_array();
	double(*by)[2] = calloc(n + 1, sizeof(*by));
	size_t i, m = 0;

	*with = 0;
	if (!by)
		return out;
	for (i = 0; i < n; i++)
		if (row[i].calls > 0) {
			by[m][0] = row[i].bytes_read + row[i].bytes_written;
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

/* Bytes per file at the layer the program called, from the trace or the counters. */
static double *file_bytes(const struct an_job *job, const int *top, int trace)
{
	double *total = calloc(job->nfiles + 1, sizeof(*total));
	size_t i;

	for (i = 0; total && trace && i < job->nev; i++)
		if (counted(job, &job->ev[i]))
			total[job->ev[i].file] += (double)job->ev[i].length;
	for (i = 0; total && !trace && i < job->nrecs; i++) {
		const struct an_record *r = &job->recs[i];
		struct drill x = {0};

		if (r->file < 0 || (size_t)r->file >= job->nfiles ||
		    layer(r->module) < top[r->file])
			continue;
		add_record(&x, r);
		total[r->file] += x.bytes_read + x.bytes_written;
	}
	return total;
}

json_object *report_file_ranks(const struct an_job *job)
{
	json_object *out = json_object_new_object();
	double(*order)[2] = NULL, *total = NULL;
	int *slot = NULL, *top = NULL, trace = from_trace(job);
	unsigned char *combined = NULL;
	struct drill *d = NULL;
	size_t i, nslots = 0, np = job->nprocs > 0 ? (size_t)job->nprocs : 0;

	if (!np || !job->nfiles || np > DRILL_MAX_NPROCS || !(top = file_layers(job, &combined)))
		goto out;
	total = file_bytes(job, top, trace);
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
	for (i = 0; trace && i < job->nev; i++) {
		const struct an_event *e = &job->ev[i];

		if (counted(job, e) && slot[e->file] >= 0)
			add_event(&d[(size_t)slot[e->file] * np + (size_t)e->rank], job, e);
	}
	for (i = 0; !trace && i < job->nrecs; i++) {
		const struct an_record *r = &job->recs[i];

		if (r->file >= 0 && (size_t)r->file < job->nfiles && slot[r->file] >= 0 &&
		    r->rank >= 0 && (size_t)r->rank < np)
			add_record(&d[(size_t)slot[r->file] * np + (size_t)r->rank], r);
	}
	for (i = 0; i < job->nfiles; i++) {
		json_object *f;
		size_t with;

		if (slot[i] < 0 || !(f = json_object_new_object()))
			continue;
		json_object_object_add(f, "source",
				       json_object_new_string(trace ? "trace" : "counters"));
		if (!trace && combined[i]) {
			json_object_object_add(f, "combined", json_object_new_boolean(1));
			json_object_object_add(f, "ranks", json_object_new_array());
			json_object_object_add(f, "ranks_with_calls",
					       json_object_new_int64((int64_t)np));
		} else {
			json_object_object_add(f, "ranks",
					       top_cells(&d[(size_t)slot[i] * np], np, DRILL_RANKS,
							 "rank", job, &with));
			json_object_object_add(f, "ranks_with_calls",
					       json_object_new_int64((int64_t)with));
		}
		json_object_object_add(out, job->files[i].name, f);
	}
out:
	free(top);
	free(combined);
	free(total);
	free(order);
	free(slot);
	free(d);
	return out;
}

/* Add a rank to the set (ranks[] of *n, at most DRILL_NAMED_RANKS), once. */
static void name_rank(int64_t rank, const struct an_job *job, int *ranks, size_t *n)
{
	size_t i;

	if (rank < 0 || rank >= job->nprocs || *n >= DRILL_NAMED_RANKS)
		return;
	for (i = 0; i < *n; i++)
		if (ranks[i] == rank)
			return;
	ranks[(*n)++] = (int)rank;
}

/* A rank list as an_rank_list() writes it: "0,3-5". */
static void name_rank_list(const char *s, const struct an_job *job, int *ranks, size_t *n)
{
	while (*s && *n < DRILL_NAMED_RANKS) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			return;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (a = a < 0 ? 0 : a; a <= b && a < job->nprocs && *n < DRILL_NAMED_RANKS; a++)
			name_rank(a, job, ranks, n);
		if (*end != ',')
			return;
		s = end + 1;
	}
}

/* The ranks an evidence object names, by report_names_rank()'s keys, depth first. */
static void evidence_ranks(json_object *o, const struct an_job *job, int *ranks, size_t *n)
{
	size_t i;

	if (json_object_is_type(o, json_type_array)) {
		for (i = 0; i < json_object_array_length(o); i++)
			evidence_ranks(json_object_array_get_idx(o, i), job, ranks, n);
		return;
	}
	if (!json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, key, v)
	{
		if (report_names_rank(key) && json_object_is_type(v, json_type_int))
			name_rank(json_object_get_int64(v), job, ranks, n);
		else if (report_names_rank(key) && json_object_is_type(v, json_type_string))
			name_rank_list(json_object_get_string(v), job, ranks, n);
		else
			evidence_ranks(v, job, ranks, n);
	}
}

int report_names_rank(const char *key)
{
	size_t n = strlen(key);

	return !strcmp(key, "rank") || !strcmp(key, "rank_list") ||
	       (n > 5 && !strcmp(key + n - 5, "_rank"));
}

/*
 * The shared files (POSIX records combined over ranks) whose fastest or
 * slowest rank is rank: what the counters keep of its share, {file, as
 * ("fastest" or "slowest"), bytes (read and written), io_time}.
 */
static json_object *extremes(const struct an_job *job, int rank)
{
	json_object *out = json_object_new_array();
	size_t i;

	for (i = 0; i < job->nrecs && json_object_array_length(out) < DRILL_RANK_FILES; i++) {
		const struct an_record *r = &job->recs[i];
		int slowest;
		json_object *e;

		if (r->module != IOA_MOD_POSIX || r->rank >= 0 || r->file < 0 ||
		    (size_t)r->file >= job->nfiles ||
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
	int ranks[DRILL_NAMED_RANKS], *top = NULL, trace = from_trace(job);
	unsigned char *combined = NULL;
	struct drill *row = NULL;
	size_t n = 0, i, k;

	for (i = 0; i < json_object_array_length(findings); i++)
		evidence_ranks(
			json_object_object_get(json_object_array_get_idx(findings, i), "evidence"),
			job, ranks, &n);
	if (!n || !job->nfiles || !(top = file_layers(job, &combined)) ||
	    !(row = malloc(job->nfiles * sizeof(*row))))
		goto out;
	for (k = 0; k < n; k++) {
		json_object *o = json_object_new_object();
		size_t with, shared = 0;
		char name[16];

		memset(row, 0, job->nfiles * sizeof(*row));
		for (i = 0; trace && i < job->nev; i++)
			if (job->ev[i].rank == ranks[k] && counted(job, &job->ev[i]))
				add_event(&row[job->ev[i].file], job, &job->ev[i]);
		for (i = 0; !trace && i < job->nrecs; i++) {
			const struct an_record *r = &job->recs[i];

			if (r->rank == ranks[k] && r->file >= 0 && (size_t)r->file < job->nfiles &&
			    !combined[r->file])
				add_record(&row[r->file], r);
		}
		for (i = 0; !trace && i < job->nfiles; i++)
			shared += combined[i] != 0;
		if (!trace)
			json_object_object_add(o, "extremes", extremes(job, ranks[k]));
		json_object_object_add(o, "source",
				       json_object_new_string(trace ? "trace" : "counters"));
		json_object_object_add(
			o, "files",
			top_cells(row, job->nfiles, DRILL_RANK_FILES, "file", job, &with));
		json_object_object_add(o, "files_with_calls", json_object_new_int64((int64_t)with));
		json_object_object_add(o, "shared_files", json_object_new_int64((int64_t)shared));
		snprintf(name, sizeof(name), "%d", ranks[k]);
		json_object_object_add(out, name, o);
	}
out:
	free(top);
	free(combined);
	free(row);
	return out;
}
