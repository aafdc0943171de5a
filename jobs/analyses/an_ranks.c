/*
 * an_ranks — analyses of what each rank does: client classes (ranks grouped
 * by their number of I/O calls and bytes, the head rank that reads the
 * inputs, ranks without I/O) and MPI-IO aggregation (which ranks carry the
 * POSIX I/O beneath collective MPI-IO calls, per node, against the hints).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "ioa_trace.h"

#define MAX_LISTED 64

struct rank_io {
	int32_t rank;
	double calls, bytes_read, bytes_written;
};

/* Calls that reach the file system, as a record counts them. */
static double record_calls(const struct an_record *r)
{
	const int64_t *c = r->c;

	switch (r->module) {
	case IOA_MOD_POSIX:
		return ((double)c[POSIX_OPENS] + (double)c[POSIX_READS] + (double)c[POSIX_WRITES] +
			(double)c[POSIX_SEEKS] + (double)c[POSIX_STATS] + (double)c[POSIX_MMAPS] +
			(double)c[POSIX_FSYNCS] + (double)c[POSIX_FDSYNCS] +
			(double)c[POSIX_UNLINKS] + (double)c[POSIX_MKDIRS] +
			(double)c[POSIX_RMDIRS] + (double)c[POSIX_ACCESS_CHECKS] +
			(double)c[POSIX_TRUNCATES] + (double)c[POSIX_RENAME_SOURCES]);
	case IOA_MOD_STDIO:
		return ((double)c[STDIO_OPENS] + (double)c[STDIO_FDOPENS] + (double)c[STDIO_READS] +
			(double)c[STDIO_WRITES] + (double)c[STDIO_SEEKS] +
			(double)c[STDIO_FLUSHES]);
	default:
		return 0; /* MPI-IO calls reach the file system as POSIX calls, counted there */
	}
}

/*
 * Per rank: calls and bytes at the file system (POSIX and STDIO).  From the
 * trace when every rank has one; else from the records, a file shared by
 * all ranks split evenly among them (*approx set).
 */
static int rank_io(const struct an_job *job, struct rank_io *io, int *approx)
{
	size_t i;
	int32_t r;

	for (r = 0; r < job->nprocs; r++)
		io[r] = (struct rank_io){.rank = r};
	*approx = 0;
	if (job->traced_ranks == job->nprocs && !job->trace_partial) {
		for (i = 0; i < job->nev; i++) {
			const struct an_event *e = &job->ev[i];
			const struct an_sig *s = &job->sigs[e->sig];

			if (s->module == IOA_TRACE_MPI || s->module == IOA_MOD_MPIIO ||
			    e->rank < 0 || e->rank >= job->nprocs)
				continue;
			io[e->rank].calls++;
			if ((s->flags & IOA_TR_READ) && !(s->flags & IOA_TR_FAILED))
				io[e->rank].bytes_read += (double)e->length;
			if ((s->flags & IOA_TR_WRITE) && !(s->flags & IOA_TR_FAILED))
				io[e->rank].bytes_written += (double)e->length;
		}
		return 0;
	}
	for (i = 0; i < job->nrecs; i++) {
		const struct an_record *rec = &job->recs[i];
		double calls = record_calls(rec), rd = 0, wr = 0;

		if (rec->module == IOA_MOD_POSIX) {
			rd = (double)rec->c[POSIX_BYTES_READ];
			wr = (double)rec->c[POSIX_BYTES_WRITTEN];
		} else if (rec->module == IOA_MOD_STDIO) {
			rd = (double)rec->c[STDIO_BYTES_READ];
			wr = (double)rec->c[STDIO_BYTES_WRITTEN];
		}
		if (rec->rank >= 0 && rec->rank < job->nprocs) {
			io[rec->rank].calls += calls;
			io[rec->rank].bytes_read += rd;
			io[rec->rank].bytes_written += wr;
		} else if (rec->rank < 0 && job->nprocs > 0) {
			*approx = 1;
			for (r = 0; r < job->nprocs; r++) {
				io[r].calls += calls / job->nprocs;
				io[r].bytes_read += rd / job->nprocs;
				io[r].bytes_written += wr / job->nprocs;
			}
		}
	}
	return 0;
}

static int by_calls(const void *a, const void *b)
{
	const struct rank_io *x = a, *y = b;

	if (x->calls != y->calls)
		return (x->calls > y->calls) - (x->calls < y->calls);
	return (x->rank > y->rank) - (x->rank < y->rank);
}

static double io_bytes(const struct rank_io *r)
{
	return r->bytes_read + r->bytes_written;
}

static int by_bytes(const void *a, const void *b)
{
	double x = io_bytes(a), y = io_bytes(b);

	return (x > y) - (x < y);
}

static int by_int(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

static json_object *class_json(const struct rank_io *c, size_t n, int32_t *tmp)
{
	json_object *o = json_object_new_object();
	double bytes = 0, lo = c[0].calls, hi = c[0].calls, blo = io_bytes(c), bhi = io_bytes(c);
	size_t i;

	for (i = 0; i < n; i++) {
		tmp[i] = c[i].rank;
		bytes += io_bytes(&c[i]);
		lo = c[i].calls < lo ? c[i].calls : lo;
		hi = c[i].calls > hi ? c[i].calls : hi;
		blo = io_bytes(&c[i]) < blo ? io_bytes(&c[i]) : blo;
		bhi = io_bytes(&c[i]) > bhi ? io_bytes(&c[i]) : bhi;
	}
	qsort(tmp, n, sizeof(*tmp), by_int);
	json_object_object_add(o, "calls_min", an_num(lo));
	json_object_object_add(o, "calls_max", an_num(hi));
	json_object_object_add(o, "bytes_min", an_num(blo));
	json_object_object_add(o, "bytes_max", an_num(bhi));
	json_object_object_add(o, "ranks", json_object_new_int64((int64_t)n));
	json_object_object_add(o, "rank_list", an_rank_list(tmp, n));
	json_object_object_add(o, "bytes_mean", an_num(bytes / (double)n));
	return o;
}

/* Files the rank reads that no other rank reads: the inputs it reads for everyone. */
static json_object *own_inputs(const struct an_job *job, int32_t rank, size_t *count)
{
	json_object *a = json_object_new_array();
	size_t i, k;

	*count = 0;
	for (i = 0; i < job->nrecs; i++) {
		const struct an_record *r = &job->recs[i];
		int alone = 1;

		if (r->rank != rank || !an_fs_record(r) ||
		    !(r->module == IOA_MOD_POSIX ? r->c[POSIX_READS] : r->c[STDIO_READS]))
			continue;
		for (k = 0; k < job->nrecs && alone; k++) {
			const struct an_record *o = &job->recs[k];

			alone = !(o->file == r->file && o->rank != rank && an_fs_record(o) &&
				  (o->module == IOA_MOD_POSIX ? o->c[POSIX_READS]
							      : o->c[STDIO_READS]));
		}
		if (alone && r->file >= 0) {
			if (*count < MAX_LISTED)
				json_object_array_add(
					a, json_object_new_string(job->files[r->file].name));
			++*count;
		}
	}
	return a;
}

int an_clients(const struct an_job *job, const struct an_settings *set, json_object *res,
	       double *confidence)
{
	json_object *findings = json_object_new_array(), *classes = json_object_new_array(), *ev;
	struct rank_io *io = calloc((size_t)job->nprocs + 1, sizeof(*io));
	struct rank_io *byb = calloc((size_t)job->nprocs + 1, sizeof(*byb));
	int32_t *tmp = calloc((size_t)job->nprocs + 1, sizeof(*tmp));
	double *calls = calloc((size_t)job->nprocs + 1, sizeof(*calls)), cv = 0, others_med = 0;
	size_t i, start, nclasses = 0, idle = 0, active;
	char text[512];
	int approx = 0, collective = 0;

	json_object_object_add(res, "findings", findings);
	json_object_object_add(res, "classes", classes);
	if (!io || !byb || !tmp || !calls || job->nprocs < 1) {
		free(io);
		free(byb);
		free(tmp);
		free(calls);
		return job->nprocs < 1 ? 0 : -ENOMEM;
	}
	rank_io(job, io, &approx);
	qsort(io, (size_t)job->nprocs, sizeof(*io), by_calls);
	while (idle < (size_t)job->nprocs && io[idle].calls < 0.5)
		idle++;
	active = (size_t)job->nprocs - idle;
	for (i = 0; i < active; i++)
		calls[i] = io[idle + i].calls;
	cv = an_cv(calls, active, NULL);
	/*
	 * Classes: ranks whose calls stay within the tolerance of the smallest
	 * of them, split again by bytes the same way (on a copy: io stays in
	 * order of calls for the head rank below).
	 */
	memcpy(byb, io, (size_t)job->nprocs * sizeof(*byb));
	for (start = idle; start < (size_t)job->nprocs; start = i) {
		size_t from, j;

		for (i = start; i < (size_t)job->nprocs &&
				byb[i].calls <= byb[start].calls * (1 + set->class_tolerance);
		     i++)
			;
		qsort(byb + start, i - start, sizeof(*byb), by_bytes);
		for (from = start; from < i; from = j) {
			for (j = from;
			     j < i &&
			     io_bytes(&byb[j]) <= io_bytes(&byb[from]) * (1 + set->class_tolerance);
			     j++)
				;
			if (nclasses++ < MAX_LISTED)
				json_object_array_add(classes,
						      class_json(byb + from, j - from, tmp));
		}
	}
	json_object_object_add(res, "class_count", json_object_new_int64((int64_t)nclasses));
	json_object_object_add(res, "approximate", json_object_new_boolean(approx));
	if (idle) {
		for (i = 0; i < idle; i++)
			tmp[i] = io[i].rank;
		qsort(tmp, idle, sizeof(*tmp), by_int);
		ev = json_object_new_object();
		json_object_object_add(ev, "ranks", json_object_new_int64((int64_t)idle));
		json_object_object_add(ev, "rank_list", an_rank_list(tmp, idle));
		json_object_object_add(res, "no_io", json_object_get(ev));
		snprintf(text, sizeof(text), "%zu of %d ranks do no I/O", idle, job->nprocs);
		json_object_array_add(findings, an_finding(job, AN_F_NO_IO_RANKS, text, ev));
	}
	/*
	 * The head rank: far more calls than the others (twice their median,
	 * half again the next rank's: at 2 ranks, the other one), reading
	 * inputs they do not.
	 */
	if (active >= 2)
		others_med = calls[(active - 1) / 2];
	if (active >= 2 && io[job->nprocs - 1].calls >= 2 * others_med &&
	    io[job->nprocs - 1].calls >= 1.5 * io[job->nprocs - 2].calls) {
		const struct rank_io *h = &io[job->nprocs - 1];
		size_t ninputs;
		json_object *inputs = own_inputs(job, h->rank, &ninputs);

		if (!ninputs) {
			json_object_put(inputs);
			goto spread;
		}
		/* The others' spread, without it. */
		cv = an_cv(calls, active - 1, NULL);
		ev = json_object_new_object();
		json_object_object_add(ev, "rank", json_object_new_int64(h->rank));
		json_object_object_add(ev, "calls", an_num(h->calls));
		json_object_object_add(ev, "median_calls", an_num(others_med));
		json_object_object_add(ev, "bytes_read", an_num(h->bytes_read));
		json_object_object_add(ev, "inputs_read_alone",
				       json_object_new_int64((int64_t)ninputs));
		json_object_object_add(ev, "inputs", inputs);
		json_object_object_add(res, "head_rank", json_object_new_int64(h->rank));
		snprintf(text, sizeof(text),
			 "rank %d is the head rank: %.0f calls against the other ranks' median of "
			 "%.0f, reading "
			 "%zu files no other rank reads",
			 h->rank, h->calls, others_med, ninputs);
		json_object_array_add(findings, an_finding(job, AN_F_HEAD_RANK, text, ev));
	}
spread:
	json_object_object_add(res, "calls_cv", an_num(cv));
	ev = json_object_new_object();
	json_object_object_add(ev, "classes", json_object_new_int64((int64_t)nclasses));
	json_object_object_add(ev, "calls_cv", an_num(cv));
	for (i = 0; i < job->nrecs && !collective; i++)
		collective = job->recs[i].module == IOA_MOD_MPIIO &&
			     (job->recs[i].c[MPIIO_COLL_READS] > 0 ||
			      job->recs[i].c[MPIIO_COLL_WRITES] > 0);
	json_object_object_add(ev, "collective_mpiio", json_object_new_boolean(collective));
	if (cv > 0.5)
		snprintf(text, sizeof(text),
			 "the ranks' I/O calls vary widely (cv %.2f, %zu classes): %s", cv,
			 nclasses,
			 collective ? "collective MPI-IO leaves the file system calls to its "
				      "aggregators (see aggregation)"
				    : "work or data is distributed unevenly, or redistributed as "
				      "the run goes");
	else
		snprintf(text, sizeof(text), "%zu class%s of ranks by I/O calls (cv %.2f)",
			 nclasses, nclasses == 1 ? "" : "es", cv);
	json_object_array_add(
		findings, an_finding(job, cv > 0.5 ? AN_F_WIDE_CLIENT_SPREAD : AN_F_CLIENT_CLASSES,
				     text, ev));
	*confidence = approx ? 0.6 : 0.9;
	free(io);
	free(byb);
	free(tmp);
	free(calls);
	return 0;
}

/* ------------------------------------------------------------ MPI-IO aggregation */

struct agg_file {
	int32_t file;
	unsigned char *mpi, *data, *open; /* per rank: MPI-IO calls, POSIX data sub-calls, opens */
	uint64_t coll, indep;
};

/*
 * A hint's value in the hints text of a file: "key=value" entries, one per
 * line as the runtime keeps them (lines may reach the warehouse escaped as
 * a backslash and n).
 */
static const char *hint_value(const char *text, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (*p) {
		size_t n = 0;

		while (p[n] && p[n] != '\n' && !(p[n] == '\\' && p[n + 1] == 'n'))
			n++;
		if (n > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			snprintf(out, len, "%.*s", (int)(n - klen - 1), p + klen + 1);
			return out;
		}
		p += n;
		p += *p == '\n' ? 1 : *p ? 2 : 0;
	}
	return NULL;
}

static const char *const agg_hints[] = {"cb_nodes",	 "cb_config_list",    "romio_cb_write",
					"romio_cb_read", "romio_no_indep_rw", "cb_buffer_size"};

static json_object *agg_json(const struct an_job *job, const struct agg_file *a, int32_t *tmp,
			     json_object *findings)
{
	json_object *o = json_object_new_object(), *hints = json_object_new_object(),
		    *nodes = json_object_new_array();
	const char *text = NULL;
	char value[256], msg[768];
	size_t i, n = 0, nmpi = 0, nagg = 0, nopen = 0, h;
	long want_per_node = -1, want_total = -1;
	int matches = 1;
	int32_t r;

	for (i = 0; i < job->nhints; i++)
		if (job->hints[i].file == a->file && (!text || job->hints[i].rank == 0))
			text = job->hints[i].text;
	for (i = 0; text && i < sizeof(agg_hints) / sizeof(agg_hints[0]); i++)
		if (hint_value(text, agg_hints[i], value, sizeof(value)))
			json_object_object_add(hints, agg_hints[i], json_object_new_string(value));
	if (text && hint_value(text, "cb_config_list", value, sizeof(value)) &&
	    !strncmp(value, "*:", 2))
		want_per_node = strtol(value + 2, NULL, 10);
	if (text && hint_value(text, "cb_nodes", value, sizeof(value)))
		want_total = strtol(value, NULL, 10);
	for (r = 0; r < job->nprocs; r++) {
		nmpi += a->mpi[r];
		nopen += a->open[r];
		if (a->data[r])
			tmp[nagg++] = r;
	}
	json_object_object_add(o, "file", json_object_new_string(job->files[a->file].name));
	json_object_object_add(o, "mpi_ranks", json_object_new_int64((int64_t)nmpi));
	json_object_object_add(o, "collective_calls", json_object_new_int64((int64_t)a->coll));
	json_object_object_add(o, "independent_calls", json_object_new_int64((int64_t)a->indep));
	json_object_object_add(o, "aggregator_count", json_object_new_int64((int64_t)nagg));
	json_object_object_add(o, "aggregators", an_rank_list(tmp, nagg));
	json_object_object_add(o, "posix_openers", json_object_new_int64((int64_t)nopen));
	for (r = 0, n = 0; r < job->nprocs; r++)
		if (a->mpi[r] && !a->data[r])
			tmp[n++] = r;
	json_object_object_add(o, "non_aggregators", an_rank_list(tmp, n));
	/* Per node: its ranks in the file's MPI-IO and its aggregators. */
	for (h = 0; job->rank_node && h < job->nhosts; h++) {
		size_t ranks = 0, aggs = 0;
		json_object *node;

		for (r = 0; r < job->nprocs; r++)
			if (job->rank_node[r] == (int32_t)h) {
				ranks += a->mpi[r];
				aggs += a->data[r];
			}
		if (!ranks)
			continue;
		node = json_object_new_object();
		json_object_object_add(node, "node", json_object_new_string(job->hosts[h]));
		json_object_object_add(node, "ranks", json_object_new_int64((int64_t)ranks));
		json_object_object_add(node, "aggregators", json_object_new_int64((int64_t)aggs));
		json_object_array_add(nodes, node);
		if (want_per_node >= 0 &&
		    (long)aggs != (want_per_node < (long)ranks ? want_per_node : (long)ranks))
			matches = 0;
	}
	json_object_object_add(o, "per_node", nodes);
	json_object_object_add(o, "hints", hints);
	if (want_per_node >= 0)
		json_object_object_add(o, "expected_per_node",
				       json_object_new_int64(want_per_node));
	/* cb_nodes asks for that many aggregators in all (no more than the ranks). */
	if (want_total > 0 && a->coll) {
		long expect = want_total < (long)nmpi ? want_total : (long)nmpi;

		json_object_object_add(o, "expected_aggregators", json_object_new_int64(expect));
		if ((long)nagg != expect)
			matches = 0;
	} else {
		want_total = -1;
	}
	if (want_per_node >= 0 || want_total > 0)
		json_object_object_add(o, "matches_hints", json_object_new_boolean(matches));
	snprintf(msg, sizeof(msg),
		 "'%s': MPI-IO from %zu ranks reaches the file system through %zu aggregator%s "
		 "(%.2g per node)%s",
		 job->files[a->file].name, nmpi, nagg, nagg == 1 ? "" : "s",
		 job->nhosts ? (double)nagg / (double)job->nhosts : (double)nagg,
		 want_per_node < 0 && want_total < 0 ? ""
		 : matches			     ? ", as the hints ask"
						     : ", not as the hints ask");
	json_object_array_add(findings, an_finding(job, AN_F_AGGREGATION, msg, json_object_get(o)));
	if ((want_per_node >= 0 || want_total > 0) && !matches) {
		snprintf(msg, sizeof(msg),
			 "'%s': %zu aggregator%s where the hints ask for %ld%s: the hints were "
			 "not honoured",
			 job->files[a->file].name, nagg, nagg == 1 ? "" : "s",
			 want_total > 0 ? want_total : want_per_node,
			 want_total > 0 ? "" : " per node");
		json_object_array_add(findings, an_finding(job, AN_F_AGGREGATOR_PLACEMENT, msg,
							   json_object_get(o)));
	}
	return o;
}

static int is_collective(const char *name)
{
	return strstr(name, "_all") || strstr(name, "_ordered") || strstr(name, "_shared");
}

int an_aggregation(const struct an_job *job, const struct an_settings *set, json_object *res,
		   double *confidence)
{
	json_object *findings = json_object_new_array(), *files = json_object_new_array();
	struct agg_file *agg = NULL;
	size_t nagg = 0, i, k, mpiio_records = 0;
	int32_t *tmp = calloc((size_t)job->nprocs + 1, sizeof(*tmp));
	int rc = 0;

	(void)set;
	json_object_object_add(res, "findings", findings);
	json_object_object_add(res, "files", files);
	if (!tmp)
		return -ENOMEM;
	for (i = 0; i < job->nrecs; i++)
		mpiio_records += job->recs[i].module == IOA_MOD_MPIIO;
	/* The files the trace shows MPI-IO on, first. */
	for (i = 0; i < job->nev && !rc; i++) {
		const struct an_event *e = &job->ev[i];

		if (job->sigs[e->sig].module != IOA_MOD_MPIIO || e->file < 0)
			continue;
		for (k = 0; k < nagg && agg[k].file != e->file; k++)
			;
		if (k == nagg) {
			struct agg_file *more = realloc(agg, (nagg + 1) * sizeof(*more));

			if (!more) {
				rc = -ENOMEM;
				break;
			}
			agg = more;
			agg[nagg] = (struct agg_file){.file = e->file};
			agg[nagg].mpi = calloc((size_t)job->nprocs + 1, 1);
			agg[nagg].data = calloc((size_t)job->nprocs + 1, 1);
			agg[nagg].open = calloc((size_t)job->nprocs + 1, 1);
			nagg++;
			if (!agg[k].mpi || !agg[k].data || !agg[k].open)
				rc = -ENOMEM;
		}
	}
	for (i = 0; i < job->nev && !rc; i++) {
		const struct an_event *e = &job->ev[i];
		const struct an_sig *s = &job->sigs[e->sig];

		if (e->file < 0 || e->rank < 0 || e->rank >= job->nprocs)
			continue;
		for (k = 0; k < nagg && agg[k].file != e->file; k++)
			;
		if (k == nagg)
			continue;
		if (s->module == IOA_MOD_MPIIO) {
			agg[k].mpi[e->rank] = 1;
			if (s->flags & (IOA_TR_READ | IOA_TR_WRITE)) {
				if (is_collective(s->name))
					agg[k].coll++;
				else
					agg[k].indep++;
			}
		} else if (s->module == IOA_MOD_POSIX && (s->flags & IOA_TR_SUB)) {
			if (s->flags & (IOA_TR_READ | IOA_TR_WRITE))
				agg[k].data[e->rank] = 1;
			if (!strncmp(s->name, "open", 4))
				agg[k].open[e->rank] = 1;
		}
	}
	for (k = 0; k < nagg && !rc; k++)
		json_object_array_add(files, agg_json(job, &agg[k], tmp, findings));
	if (!rc && !nagg && mpiio_records && !job->traced_ranks)
		json_object_array_add(findings, an_finding(job, AN_F_NO_TRACE,
							   "MPI-IO without an operation trace: "
							   "aggregators are unknown",
							   NULL));
	else if (!rc && !nagg && !mpiio_records)
		json_object_array_add(findings, an_finding(job, AN_F_NO_MPIIO, "no MPI-IO", NULL));
	*confidence = !nagg ? (mpiio_records ? 0 : 1) : job->trace_partial ? 0.6 : 0.9;
	for (k = 0; k < nagg; k++) {
		free(agg[k].mpi);
		free(agg[k].data);
		free(agg[k].open);
	}
	free(agg);
	free(tmp);
	return rc;
}
