/*
 * report_model — everything a job's report shows, as JSON (see report.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ioa_trace.h"
#include "report.h"

static json_object *str(const char *s)
{
	return json_object_new_string(s ? s : "");
}

static json_object *num(double v)
{
	return an_num(v);
}

/* ns since the epoch as "2026-11-28 10:00:01 UTC". */
static json_object *utc(uint64_t ns)
{
	time_t s = (time_t)(ns / 1000000000u);
	struct tm tm;
	char text[64];

	if (!gmtime_r(&s, &tm) || !strftime(text, sizeof(text), "%Y-%m-%d %H:%M:%S UTC", &tm))
		return str("");
	return str(text);
}

/*
 * A partial job (its log recovered from a killed job): how it ended and
 * until when its ranks recorded, field by field, and the sentence the
 * page opens with.  NULL when out of memory.
 */
static json_object *partial_json(const struct an_job *job)
{
	const struct ioa_partial *p = &job->ended;
	json_object *o = json_object_new_object();
	struct ioa_buf sentence = IOA_BUF_INIT(1 << 16);
	uint64_t end_ns = job->start_ns && job->seconds > 0
				  ? job->start_ns + (uint64_t)llround(job->seconds * 1e9)
				  : 0;

	if (ioa_partial_how_name(p->how))
		json_object_object_add(o, "how", str(ioa_partial_how_name(p->how)));
	if (p->signal)
		json_object_object_add(o, "signal", json_object_new_int(p->signal));
	if (p->signal && ioa_signal_name(p->signal))
		json_object_object_add(o, "signal_name", str(ioa_signal_name(p->signal)));
	if (p->has_abort_code)
		json_object_object_add(o, "abort_code", json_object_new_int(p->abort_code));
	if (p->reason)
		json_object_object_add(o, "reason", str(p->reason));
	if (p->ranks)
		json_object_object_add(o, "ranks", str(p->ranks));
	if (p->missing)
		json_object_object_add(o, "missing", str(p->missing));
	if (p->until_first_ns)
		json_object_object_add(o, "until_first", utc(p->until_first_ns));
	if (p->until_last_ns)
		json_object_object_add(o, "until_last", utc(p->until_last_ns));
	if (ioa_partial_describe(p, IOA_PARTIAL_SENTENCE, job->start_ns, end_ns, &sentence)) {
		ioa_buf_release(&sentence);
		json_object_put(o);
		return NULL;
	}
	json_object_object_add(o, "sentence", str(ioa_buf_str(&sentence)));
	ioa_buf_release(&sentence);
	return o;
}

/*
 * How the job's times were put on one clock (job key 33): its base, and
 * the worst rank's uncertainty and drift; a sentence for the report.
 */
static json_object *clock_json(const struct an_job *job)
{
	json_object *o = json_object_new_object();
	const struct ioa_clock *c = &job->clock;
	char text[256];

	json_object_object_add(o, "base", str(ioa_clock_base_name(c->base)));
	if (c->base == IOA_CLOCK_RANK0) {
		json_object_object_add(o, "uncertainty_ns", num((double)c->uncertainty_ns));
		json_object_object_add(o, "drift_ns", num((double)c->drift_ns));
		snprintf(text, sizeof(text),
			 "every rank measured against the log writer at MPI_Finalize: within "
			 "%.3g ms, and %.3g ms more early in the run (drift)",
			 (double)c->uncertainty_ns / 1e6, (double)c->drift_ns / 1e6);
	} else if (c->base == IOA_CLOCK_WALL) {
		snprintf(text, sizeof(text),
			 "each process placed by its wall clock at its start (the hosts' clock "
			 "sync decides how well)");
	} else if (job->imported) {
		snprintf(text, sizeof(text), "the imported log's times, as its tool kept them");
	} else {
		snprintf(text, sizeof(text),
			 "each rank counted from its own start (a log from before one clock per "
			 "job): ranks launched apart are shifted by that much");
	}
	json_object_object_add(o, "sentence", str(text));
	return o;
}

static json_object *job_json(const struct an_job *job, const char *source)
{
	json_object *o = json_object_new_object(), *hosts = json_object_new_array();
	size_t i;

	json_object_object_add(o, "id", json_object_new_int64(job->id));
	json_object_object_add(o, "source", str(source));
	json_object_object_add(o, "jobid", str(job->jobid));
	json_object_object_add(o, "user", str(job->user));
	json_object_object_add(o, "executable", str(job->exe));
	json_object_object_add(o, "args", str(job->args));
	json_object_object_add(o, "ranks", json_object_new_int(job->nprocs));
	json_object_object_add(o, "nodes", json_object_new_int(job->nnodes));
	for (i = 0; i < job->nhosts && i < 4096; i++)
		json_object_array_add(hosts, str(job->hosts[i]));
	json_object_object_add(o, "hosts", hosts);
	json_object_object_add(o, "start", str(job->start_time));
	json_object_object_add(o, "seconds", num(job->seconds));
	json_object_object_add(o, "runtime_version", str(job->version));
	json_object_object_add(o, "settings", str(job->settings));
	json_object_object_add(o, "clock", clock_json(job));
	if (job->partial)
		json_object_object_add(o, "partial", partial_json(job));
	return o;
}

/*
 * What the report lacks: an imported log's views, folded records, a
 * partial or missing trace, calls not followed.
 */
static json_object *completeness(const struct an_job *job)
{
	json_object *o = json_object_new_object(), *notes = json_object_new_array();
	const char *trace = !job->traced_ranks		      ? "none"
			    : job->trace_partial	      ? "partial"
			    : job->traced_ranks < job->nprocs ? "partial"
							      : "complete";

	json_object_object_add(o, "folded", json_object_new_boolean(job->folded));
	json_object_object_add(o, "trace", str(trace));
	if (job->partial)
		json_object_array_add(
			notes, str("the job did not end normally: its log was recovered from "
				   "what its ranks left (see the top of the page), and each "
				   "rank's counters stop where its recording stopped"));
	if (job->imported) {
		struct ioa_buf text = IOA_BUF_INIT(4096);

		if (!ioa_source_describe(&job->source, &text))
			json_object_array_add(notes, str(ioa_buf_str(&text)));
		ioa_buf_release(&text);
	}
	if (job->folded)
		json_object_array_add(notes,
				      str("some files were folded into overflow records "
					  "(the runtime's memory budget): their counters are "
					  "summed under one name"));
	if (!strcmp(trace, "partial"))
		json_object_array_add(notes, str("the operation trace is partial (its budget ran "
						 "out, or some ranks have none): time plots and "
						 "trace-based findings cover part of the run"));
	if (!strcmp(trace, "none") && !job->imported)
		json_object_array_add(notes, str("no operation trace: time plots come from the "
						 "coarser time bins"));
	if (job->nprocs_claimed > job->nprocs) {
		char text[256];

		snprintf(text, sizeof(text),
			 "the log claims %d ranks but holds data for %d: the report shows those",
			 job->nprocs_claimed, job->nprocs);
		json_object_array_add(notes, str(text));
		json_object_object_add(o, "ranks_claimed",
				       json_object_new_int(job->nprocs_claimed));
	}
	/* "descriptors=0 streams=0 ...": worth saying when a count is not 0. */
	if (job->untracked && strpbrk(job->untracked, "123456789")) {
		char text[512];

		snprintf(text, sizeof(text), "calls the runtime could not follow: %s",
			 job->untracked);
		json_object_array_add(notes, str(text));
	}
	json_object_object_add(o, "notes", notes);
	json_object_object_add(o, "complete", json_object_new_boolean(!report_len(notes)));
	return o;
}

/*
 * Findings first: insights by score, then the other analyses' findings in
 * their order.  A result without a list of findings (a stored row of
 * another shape) adds none.
 */
static json_object *findings(json_object *analyses)
{
	json_object *out = json_object_new_array();
	size_t pass, i, k;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < report_len(analyses); i++) {
			json_object *a = json_object_array_get_idx(analyses, i);
			const char *name =
				json_object_get_string(json_object_object_get(a, "analysis"));
			json_object *list = json_object_object_get(
				json_object_object_get(a, "result"), "findings");

			if (!name || (pass == 0) != !strcmp(name, "insights"))
				continue;
			for (k = 0; k < report_len(list); k++) {
				json_object *f = json_object_array_get_idx(list, k);
				json_object *copy = NULL;

				if (!json_object_is_type(f, json_type_object) ||
				    json_object_deep_copy(f, &copy, NULL) || !copy)
					continue;
				json_object_object_add(copy, "analysis", str(name));
				json_object_object_add(
					copy, "confidence",
					json_object_get(json_object_object_get(a, "confidence")));
				json_object_array_add(out, copy);
			}
		}
	return out;
}

static json_object *result_of(json_object *analyses, const char *name)
{
	size_t i;

	for (i = 0; i < report_len(analyses); i++) {
		json_object *a = json_object_array_get_idx(analyses, i);
		const char *n = json_object_get_string(json_object_object_get(a, "analysis"));

		if (n && !strcmp(n, name))
			return json_object_object_get(a, "result");
	}
	return NULL;
}

/* Time per layer, and operation counts per module. */
static void layers_and_ops(const struct an_job *job, json_object *model)
{
	static const struct {
		enum ioa_module m;
		int counter;
		const char *name;
	} ops[] = {
		{IOA_MOD_POSIX, POSIX_OPENS, "POSIX opens"},
		{IOA_MOD_POSIX, POSIX_READS, "POSIX reads"},
		{IOA_MOD_POSIX, POSIX_WRITES, "POSIX writes"},
		{IOA_MOD_POSIX, POSIX_SEEKS, "POSIX seeks"},
		{IOA_MOD_POSIX, POSIX_STATS, "POSIX stats"},
		{IOA_MOD_POSIX, POSIX_FSYNCS, "POSIX fsyncs"},
		{IOA_MOD_POSIX, POSIX_UNLINKS, "POSIX unlinks"},
		{IOA_MOD_POSIX, POSIX_FAILED_CALLS, "POSIX failed calls"},
		{IOA_MOD_STDIO, STDIO_OPENS, "STDIO opens"},
		{IOA_MOD_STDIO, STDIO_READS, "STDIO reads"},
		{IOA_MOD_STDIO, STDIO_WRITES, "STDIO writes"},
		{IOA_MOD_STDIO, STDIO_SEEKS, "STDIO seeks"},
		{IOA_MOD_STDIO, STDIO_FLUSHES, "STDIO flushes"},
		{IOA_MOD_MPIIO, MPIIO_COLL_OPENS, "MPI-IO collective opens"},
		{IOA_MOD_MPIIO, MPIIO_INDEP_OPENS, "MPI-IO independent opens"},
		{IOA_MOD_MPIIO, MPIIO_COLL_READS, "MPI-IO collective reads"},
		{IOA_MOD_MPIIO, MPIIO_COLL_WRITES, "MPI-IO collective writes"},
		{IOA_MOD_MPIIO, MPIIO_INDEP_READS, "MPI-IO independent reads"},
		{IOA_MOD_MPIIO, MPIIO_INDEP_WRITES, "MPI-IO independent writes"},
	};
	double sync = 0, startup = 0, count[sizeof(ops) / sizeof(ops[0])] = {0};
	json_object *layers = json_object_new_object(), *o = json_object_new_array();
	struct an_io_time io;
	size_t i, k;

	/* Without memory for the union, each layer's own time is still right. */
	(void)an_io_time(job, &io);
	for (i = 0; i < job->nrecs; i++) {
		const struct an_record *r = &job->recs[i];

		for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
			if (ops[k].m == r->module)
				count[k] += (double)r->c[ops[k].counter];
	}
	/* MPI_Init is start-up, not synchronization: each rank's wait until it returned. */
	for (i = 0; i < job->nev; i++) {
		const struct an_sig *s = &job->sigs[job->ev[i].sig];

		if (s->module != IOA_TRACE_MPI)
			continue;
		if (!strcmp(s->name, "Init") || !strcmp(s->name, "Init_thread"))
			startup += job->ev[i].start + job->ev[i].dur;
		else
			sync += job->ev[i].dur;
	}
	json_object_object_add(layers, "read", num(io.kind[AN_READ]));
	json_object_object_add(layers, "write", num(io.kind[AN_WRITE]));
	json_object_object_add(layers, "metadata", num(io.kind[AN_META]));
	json_object_object_add(layers, "posix", num(io.layer_total[AN_POSIX]));
	json_object_object_add(layers, "stdio", num(io.layer_total[AN_STDIO]));
	json_object_object_add(layers, "mpiio", num(io.layer_total[AN_MPIIO]));
	json_object_object_add(layers, "mpi_sync", num(sync));
	json_object_object_add(layers, "mpi_startup", num(startup));
	json_object_object_add(layers, "rank_seconds", num(job->seconds * job->nprocs));
	json_object_object_add(model, "time", layers);
	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
		if (count[k] > 0) {
			json_object *e = json_object_new_object();

			json_object_object_add(e, "operation", str(ops[k].name));
			json_object_object_add(e, "count", num(count[k]));
			json_object_array_add(o, e);
		}
	json_object_object_add(model, "operations", o);
}

/* Bytes per file system (POSIX and STDIO records: MPI-IO's bytes are in POSIX's). */
static json_object *filesystems(const struct an_job *job)
{
	json_object *out = json_object_new_array();
	const char **mounts = calloc(job->nrecs + 1, sizeof(*mounts));
	double *rd = calloc(job->nrecs + 1, sizeof(*rd)), *wr = calloc(job->nrecs + 1, sizeof(*wr));
	const char **types = calloc(job->nrecs + 1, sizeof(*types));
	size_t n = 0, i, k;

	for (i = 0; mounts && rd && wr && types && i < job->nrecs; i++) {
		const struct an_record *r = &job->recs[i];
		const char *m = r->file >= 0 && job->files[r->file].mount
					? job->files[r->file].mount
					: "(unknown)";

		if (!an_fs_record(r))
			continue;
		for (k = 0; k < n && strcmp(mounts[k], m); k++)
			;
		if (k == n) {
			mounts[n] = m;
			types[n++] = r->file >= 0 && job->files[r->file].fs_type
					     ? job->files[r->file].fs_type
					     : "";
		}
		rd[k] += (double)(r->module == IOA_MOD_POSIX ? r->c[POSIX_BYTES_READ]
							     : r->c[STDIO_BYTES_READ]);
		wr[k] += (double)(r->module == IOA_MOD_POSIX ? r->c[POSIX_BYTES_WRITTEN]
							     : r->c[STDIO_BYTES_WRITTEN]);
	}
	for (k = 0; k < n; k++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "mount", str(mounts[k]));
		json_object_object_add(e, "type", str(types[k]));
		json_object_object_add(e, "bytes_read", num(rd[k]));
		json_object_object_add(e, "bytes_written", num(wr[k]));
		json_object_array_add(out, e);
	}
	free(mounts);
	free(types);
	free(rd);
	free(wr);
	return out;
}

/*
 * Bytes moved over time: per rank and column (a rank x time heatmap with
 * its marginal sums), reads and writes per column, from the trace (the
 * calls reaching the file system) or else the time bins (writes only).
 */
static json_object *timeline(const struct an_job *job, json_object *checkpoints)
{
	json_object *o = json_object_new_object(), *cells = json_object_new_array(),
		    *rows = json_object_new_array(), *reads = json_object_new_array(),
		    *writes = json_object_new_array(), *marks = json_object_new_array();
	size_t nrows = job->nprocs > REPORT_HEAT_ROWS ? REPORT_HEAT_ROWS
						      : (size_t)(job->nprocs > 0 ? job->nprocs : 1);
	size_t per_row = job->nprocs > 0 ? ((size_t)job->nprocs + nrows - 1) / nrows : 1;
	double span = job->seconds > 0 ? job->seconds : 1, dt, *heat, rd[REPORT_TIME_COLUMNS] = {0},
	       wr[REPORT_TIME_COLUMNS] = {0};
	size_t i, c;

	for (i = 0; i < job->nev; i++)
		if (job->ev[i].start + job->ev[i].dur > span)
			span = job->ev[i].start + job->ev[i].dur;
	for (i = 0; i < job->nwbins; i++)
		span = job->wbins[i].end > span ? job->wbins[i].end : span;
	dt = span / REPORT_TIME_COLUMNS;
	heat = calloc(nrows * REPORT_TIME_COLUMNS + 1, sizeof(*heat));
	if (!heat)
		return o;
	for (i = 0; i < job->nev; i++) {
		const struct an_event *e = &job->ev[i];
		const struct an_sig *s = &job->sigs[e->sig];
		size_t row;

		if ((s->module != IOA_MOD_POSIX && s->module != IOA_MOD_STDIO) ||
		    !(s->flags & (IOA_TR_READ | IOA_TR_WRITE)) || (s->flags & IOA_TR_FAILED) ||
		    e->length <= 0 || e->rank < 0)
			continue;
		c = (size_t)(e->start / dt);
		c = c >= REPORT_TIME_COLUMNS ? REPORT_TIME_COLUMNS - 1 : c;
		row = (size_t)e->rank / per_row;
		row = row >= nrows ? nrows - 1 : row;
		heat[row * REPORT_TIME_COLUMNS + c] += (double)e->length;
		if (s->flags & IOA_TR_READ)
			rd[c] += (double)e->length;
		else
			wr[c] += (double)e->length;
	}
	for (i = 0; !job->nev && i < job->nwbins; i++) {
		const struct an_wbin *b = &job->wbins[i];
		size_t row = b->rank >= 0 ? (size_t)b->rank / per_row : 0;

		/* Bytes that reached the file system, as the trace's map shows them. */
		if (b->mpiio)
			continue;
		c = (size_t)(b->start / dt);
		c = c >= REPORT_TIME_COLUMNS ? REPORT_TIME_COLUMNS - 1 : c;
		row = row >= nrows ? nrows - 1 : row;
		heat[row * REPORT_TIME_COLUMNS + c] += (double)b->bytes;
		wr[c] += (double)b->bytes;
	}
	for (i = 0; i < nrows; i++) {
		json_object *row = json_object_new_array();
		double sum = 0;

		for (c = 0; c < REPORT_TIME_COLUMNS; c++) {
			json_object_array_add(row, num(heat[i * REPORT_TIME_COLUMNS + c]));
			sum += heat[i * REPORT_TIME_COLUMNS + c];
		}
		json_object_array_add(cells, row);
		json_object_array_add(rows, num(sum));
	}
	for (c = 0; c < REPORT_TIME_COLUMNS; c++) {
		json_object_array_add(reads, num(rd[c]));
		json_object_array_add(writes, num(wr[c]));
	}
	for (i = 0; i < report_len(json_object_object_get(checkpoints, "phases")); i++) {
		json_object *p =
			json_object_array_get_idx(json_object_object_get(checkpoints, "phases"), i);
		json_object *m;

		if (!json_object_get_boolean(json_object_object_get(p, "checkpoint")))
			continue;
		m = json_object_new_object();
		json_object_object_add(m, "start",
				       json_object_get(json_object_object_get(p, "start")));
		json_object_object_add(m, "end", json_object_get(json_object_object_get(p, "end")));
		json_object_object_add(m, "bytes",
				       json_object_get(json_object_object_get(p, "bytes")));
		json_object_object_add(m, "per_rank",
				       json_object_get(json_object_object_get(p, "per_rank")));
		json_object_array_add(marks, m);
	}
	json_object_object_add(o, "source",
			       str(job->nev	 ? "trace"
				   : job->nwbins ? "time bins"
						 : "none"));
	json_object_object_add(o, "seconds", num(span));
	json_object_object_add(o, "column_seconds", num(dt));
	json_object_object_add(o, "ranks_per_row", json_object_new_int64((int64_t)per_row));
	json_object_object_add(o, "heatmap", cells);
	json_object_object_add(o, "row_bytes", rows);
	json_object_object_add(o, "read_bytes", reads);
	json_object_object_add(o, "write_bytes", writes);
	json_object_object_add(o, "checkpoints", marks);
	free(heat);
	return o;
}

/* Per rank: bytes read and written, and calls reaching the file system. */
static json_object *ranks(const struct an_job *job)
{
	json_object *o = json_object_new_object(), *rb = json_object_new_array(),
		    *wb = json_object_new_array(), *calls = json_object_new_array();
	size_t n = job->nprocs > 0 ? (size_t)job->nprocs : 0, i;
	double *r = calloc(n + 1, sizeof(*r)), *w = calloc(n + 1, sizeof(*w)),
	       *k = calloc(n + 1, sizeof(*k));
	int from_trace = job->traced_ranks == job->nprocs && !job->trace_partial;

	for (i = 0; r && w && k && from_trace && i < job->nev; i++) {
		const struct an_event *e = &job->ev[i];
		const struct an_sig *s = &job->sigs[e->sig];

		if (s->module == IOA_TRACE_MPI || s->module == IOA_MOD_MPIIO || e->rank < 0 ||
		    (size_t)e->rank >= n)
			continue;
		k[e->rank]++;
		if ((s->flags & IOA_TR_READ) && !(s->flags & IOA_TR_FAILED))
			r[e->rank] += (double)e->length;
		if ((s->flags & IOA_TR_WRITE) && !(s->flags & IOA_TR_FAILED))
			w[e->rank] += (double)e->length;
	}
	for (i = 0; r && w && k && !from_trace && i < job->nrecs; i++) {
		const struct an_record *rec = &job->recs[i];
		double br, bw, ops;
		size_t j;

		if (!an_fs_record(rec))
			continue;
		br = (double)(rec->module == IOA_MOD_POSIX ? rec->c[POSIX_BYTES_READ]
							   : rec->c[STDIO_BYTES_READ]);
		bw = (double)(rec->module == IOA_MOD_POSIX ? rec->c[POSIX_BYTES_WRITTEN]
							   : rec->c[STDIO_BYTES_WRITTEN]);
		ops = (double)(rec->module == IOA_MOD_POSIX
				       ? (double)rec->c[POSIX_OPENS] + (double)rec->c[POSIX_READS] +
						 (double)rec->c[POSIX_WRITES] +
						 (double)rec->c[POSIX_SEEKS] +
						 (double)rec->c[POSIX_STATS]
				       : (double)rec->c[STDIO_OPENS] + (double)rec->c[STDIO_READS] +
						 (double)rec->c[STDIO_WRITES] +
						 (double)rec->c[STDIO_SEEKS]);
		if (rec->rank >= 0 && (size_t)rec->rank < n) {
			r[rec->rank] += br;
			w[rec->rank] += bw;
			k[rec->rank] += ops;
		} else if (rec->rank < 0) {
			for (j = 0; j < n; j++) {
				r[j] += br / (double)n;
				w[j] += bw / (double)n;
				k[j] += ops / (double)n;
			}
		}
	}
	for (i = 0; r && w && k && i < n; i++) {
		json_object_array_add(rb, num(r[i]));
		json_object_array_add(wb, num(w[i]));
		json_object_array_add(calls, num(k[i]));
	}
	json_object_object_add(o, "source", str(from_trace ? "trace" : "counters"));
	json_object_object_add(o, "bytes_read", rb);
	json_object_object_add(o, "bytes_written", wb);
	json_object_object_add(o, "calls", calls);
	free(r);
	free(w);
	free(k);
	return o;
}

/* One row per record: the files table (an HDF5 dataset's or PnetCDF variable's record too). */
static json_object *files(const struct an_job *job)
{
	json_object *out = json_object_new_array();
	size_t i;

	for (i = 0; i < job->nrecs; i++) {
		const struct an_record *r = &job->recs[i];
		json_object *e = json_object_new_object();
		int posix = r->module == IOA_MOD_POSIX;
		int64_t rw[4];

		an_record_rw(r, rw);
		json_object_object_add(e, "file",
				       str(r->file >= 0 ? job->files[r->file].name : ""));
		json_object_object_add(e, "module", str(ioa_modules[r->module].name));
		json_object_object_add(e, "rank", json_object_new_int(r->rank));
		json_object_object_add(e, "reads", json_object_new_int64(rw[0]));
		json_object_object_add(e, "writes", json_object_new_int64(rw[1]));
		json_object_object_add(e, "bytes_read", json_object_new_int64(rw[2]));
		json_object_object_add(e, "bytes_written", json_object_new_int64(rw[3]));
		json_object_object_add(e, "io_time", num(an_record_io_time(r)));
		if (r->rank < 0 && posix) {
			json_object_object_add(e, "fastest_rank",
					       json_object_new_int64(r->c[POSIX_FASTEST_RANK]));
			json_object_object_add(e, "fastest_time",
					       num(r->f[POSIX_F_FASTEST_RANK_TIME]));
			json_object_object_add(e, "slowest_rank",
					       json_object_new_int64(r->c[POSIX_SLOWEST_RANK]));
			json_object_object_add(e, "slowest_time",
					       num(r->f[POSIX_F_SLOWEST_RANK_TIME]));
		}
		json_object_array_add(out, e);
	}
	return out;
}

json_object *report_model(const struct an_job *job, json_object *analyses, json_object *kernels,
			  const char *source)
{
	json_object *m = json_object_new_object(), *access = result_of(analyses, "access");

	if (!m)
		return NULL;
	json_object_object_add(m, "job", job_json(job, source));
	json_object_object_add(m, "completeness", completeness(job));
	json_object_object_add(m, "findings", findings(analyses));
	json_object_object_add(m, "kernels",
			       kernels ? json_object_get(kernels) : json_object_new_array());
	layers_and_ops(job, m);
	json_object_object_add(m, "filesystems", filesystems(job));
	json_object_object_add(m, "access",
			       access ? json_object_get(access) : json_object_new_object());
	json_object_object_add(m, "timeline", timeline(job, result_of(analyses, "checkpoints")));
	json_object_object_add(m, "amr", json_object_get(result_of(analyses, "amr")));
	json_object_object_add(m, "ranks", ranks(job));
	json_object_object_add(m, "files", files(job));
	json_object_object_add(m, "file_ranks", report_file_ranks(job));
	json_object_object_add(m, "rank_files",
			       report_rank_files(job, json_object_object_get(m, "findings")));
	json_object_object_add(m, "analyses", json_object_get(analyses));
	return m;
}
