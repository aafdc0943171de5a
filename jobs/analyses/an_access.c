/*
 * an_access — the access pattern and transfer sizes (sequential,
 * consecutive or random; size distributions per rank and per checkpoint;
 * misalignment; small requests), and the insights: severity-ranked
 * findings, each with a plain recommendation, weighed by how much of the
 * job's I/O they touch.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "ioa_trace.h"

#define MAX_LISTED_RANKS 1024

/* What the counters say about the job's POSIX, STDIO and MPI-IO traffic. */
struct totals {
	double reads, writes, bytes_read, bytes_written;
	double consec_reads, consec_writes, seq_reads, seq_writes;
	double read_streams, write_streams; /* records that read or wrote: first accesses */
	double file_not_aligned, mem_not_aligned;
	int64_t alignment;
	double read_hist[10], write_hist[10];
	struct an_io_time time; /* in every layer (an_io_time()) */
	/* Files written through MPI-IO: bytes asked for, and what reached the file system. */
	double mpiio_asked, posix_written, posix_read;
	double stdio_bytes, stdio_ops;
	double mpiio_indep, mpiio_coll, mpiio_nb;
	double sync;	  /* seconds in fsync, fdatasync, MPI_File_sync (from the trace; else 0) */
	double small_ops; /* requests under small_bytes (exact from the trace, else from bins) */
	double ops;	  /* POSIX reads and writes */
};

static const int64_t bin_upper[10] = {100,     1024,	 10240,	    102400,	1048576,
				      4194304, 10485760, 104857600, 1073741824, INT64_MAX};

/*
 * What the files written through MPI-IO cost below it: the bytes their
 * MPI-IO calls wrote, and the bytes POSIX wrote and read on them (ROMIO's
 * read-modify-write of data sieving writes back the holes between a
 * rank's pieces, and reads them first).
 */
static int amplification(const struct an_job *job, struct totals *t)
{
	double(*f)[3] = calloc(job->nfiles + 1, sizeof(*f));
	size_t i;

	if (!f)
		return -ENOMEM;
	for (i = 0; i < job->nrecs; i++) {
		const struct an_record *r = &job->recs[i];

		if (r->file < 0 || (size_t)r->file >= job->nfiles)
			continue;
		if (r->module == IOA_MOD_MPIIO && r->c[MPIIO_BYTES_WRITTEN] > 0)
			f[r->file][0] += (double)r->c[MPIIO_BYTES_WRITTEN];
		else if (r->module == IOA_MOD_POSIX) {
			f[r->file][1] += r->c[POSIX_BYTES_WRITTEN] > 0
						 ? (double)r->c[POSIX_BYTES_WRITTEN]
						 : 0;
			f[r->file][2] +=
				r->c[POSIX_BYTES_READ] > 0 ? (double)r->c[POSIX_BYTES_READ] : 0;
		}
	}
	for (i = 0; i < job->nfiles; i++)
		if (f[i][0] > 0) {
			t->mpiio_asked += f[i][0];
			t->posix_written += f[i][1];
			t->posix_read += f[i][2];
		}
	free(f);
	return 0;
}

static int totals(const struct an_job *job, const struct an_settings *set, struct totals *t)
{
	size_t i;
	unsigned b;
	int from_trace = job->traced_ranks == job->nprocs && !job->trace_partial;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < job->nrecs; i++) {
		const struct an_record *r = &job->recs[i];
		const int64_t *c = r->c;

		if (r->module == IOA_MOD_POSIX) {
			t->reads += (double)c[POSIX_READS];
			t->writes += (double)c[POSIX_WRITES];
			t->bytes_read += (double)c[POSIX_BYTES_READ];
			t->bytes_written += (double)c[POSIX_BYTES_WRITTEN];
			t->consec_reads += (double)c[POSIX_CONSEC_READS];
			t->consec_writes += (double)c[POSIX_CONSEC_WRITES];
			t->seq_reads += (double)c[POSIX_SEQ_READS];
			t->seq_writes += (double)c[POSIX_SEQ_WRITES];
			t->read_streams += c[POSIX_READS] > 0;
			t->write_streams += c[POSIX_WRITES] > 0;
			t->file_not_aligned += (double)c[POSIX_FILE_NOT_ALIGNED];
			t->mem_not_aligned += (double)c[POSIX_MEM_NOT_ALIGNED];
			if (c[POSIX_FILE_ALIGNMENT] > t->alignment)
				t->alignment = c[POSIX_FILE_ALIGNMENT];
			for (b = 0; b < 10; b++) {
				t->read_hist[b] += (double)c[POSIX_SIZE_READ_0_100 + b];
				t->write_hist[b] += (double)c[POSIX_SIZE_WRITE_0_100 + b];
			}
		} else if (r->module == IOA_MOD_STDIO) {
			t->stdio_bytes +=
				((double)c[STDIO_BYTES_READ] + (double)c[STDIO_BYTES_WRITTEN]);
			t->stdio_ops += ((double)c[STDIO_READS] + (double)c[STDIO_WRITES]);
		} else if (r->module == IOA_MOD_MPIIO) {
			t->mpiio_nb += ((double)c[MPIIO_NB_READS] + (double)c[MPIIO_NB_WRITES]);
			t->mpiio_indep +=
				((double)c[MPIIO_INDEP_READS] + (double)c[MPIIO_INDEP_WRITES]);
			t->mpiio_coll +=
				((double)c[MPIIO_COLL_READS] + (double)c[MPIIO_COLL_WRITES] +
				 (double)c[MPIIO_SPLIT_READS] + (double)c[MPIIO_SPLIT_WRITES]);
		}
	}
	t->ops = t->reads + t->writes;
	if (an_io_time(job, &t->time) || amplification(job, t))
		return -ENOMEM;
	if (from_trace) {
		double posix_sync = 0, mpiio_sync = 0;

		for (i = 0; i < job->nev; i++) {
			const struct an_sig *s = &job->sigs[job->ev[i].sig];

			if (!strcmp(s->name, "fsync") || !strcmp(s->name, "fdatasync"))
				posix_sync += job->ev[i].dur;
			else if (!strcmp(s->name, "MPI_File_sync"))
				mpiio_sync += job->ev[i].dur;

			if (s->module == IOA_MOD_POSIX &&
			    (s->flags & (IOA_TR_READ | IOA_TR_WRITE)) &&
			    !(s->flags & IOA_TR_FAILED) && job->ev[i].length < set->small_bytes)
				t->small_ops++;
		}
		/* MPI_File_sync's time covers the fsyncs it makes: count the larger once. */
		t->sync = posix_sync > mpiio_sync ? posix_sync : mpiio_sync;
	} else {
		for (b = 0; b < 10; b++)
			if (bin_upper[b] < set->small_bytes)
				t->small_ops += t->read_hist[b] + t->write_hist[b];
	}
	return 0;
}

/* Of the accesses that could follow another, the share that did (seq) and right after (consec). */
static const char *pattern(double ops, double streams, double seq, double consec, double *random,
			   double random_share)
{
	double could = ops - streams;

	*random = could > 0 ? 1 - seq / could : 0;
	*random = *random < 0 ? 0 : *random;
	if (ops <= 0)
		return "none";
	if (could <= 0)
		return "single access per file";
	if (consec / could >= 0.8)
		return "consecutive";
	if (seq / could >= 0.8)
		return "sequential";
	return *random >= random_share ? "random" : "mixed";
}

static json_object *hist_json(const double *h)
{
	json_object *o = json_object_new_object();
	unsigned b;

	for (b = 0; b < 10; b++)
		if (h[b] > 0)
			json_object_object_add(o, an_size_bin_names[b],
					       json_object_new_int64((int64_t)h[b]));
	return o;
}

/* The most common access sizes over the job's POSIX records. */
static json_object *common_sizes(const struct an_job *job)
{
	int64_t size[256], count[256];
	size_t n = 0, i, k;
	unsigned j;
	json_object *a = json_object_new_array();

	for (i = 0; i < job->nrecs; i++) {
		const struct an_record *r = &job->recs[i];

		if (r->module != IOA_MOD_POSIX)
			continue;
		for (j = 0; j < 4; j++) {
			int64_t s = r->c[POSIX_ACCESS1_ACCESS + j],
				c = r->c[POSIX_ACCESS1_COUNT + j];

			if (c <= 0)
				continue;
			for (k = 0; k < n && size[k] != s; k++)
				;
			if (k == n && n < 256) {
				size[n] = s;
				count[n++] = 0;
			}
			if (k < n)
				count[k] += c;
		}
	}
	for (j = 0; j < 4 && n; j++) {
		size_t best = 0;
		json_object *o;

		for (k = 1; k < n; k++)
			if (count[k] > count[best])
				best = k;
		if (count[best] <= 0)
			break;
		o = json_object_new_object();
		json_object_object_add(o, "size", json_object_new_int64(size[best]));
		json_object_object_add(o, "count", json_object_new_int64(count[best]));
		json_object_array_add(a, o);
		count[best] = -1;
	}
	return a;
}

int an_access(const struct an_job *job, const struct an_settings *set, json_object *res,
	      double *confidence)
{
	json_object *findings, *ev;
	struct totals t;
	double rnd_r, rnd_w;
	const char *pr, *pw;
	char text[512];

	if (totals(job, set, &t))
		return -ENOMEM;
	findings = json_object_new_array();
	pr = pattern(t.reads, t.read_streams, t.seq_reads, t.consec_reads, &rnd_r,
		     set->random_share);
	pw = pattern(t.writes, t.write_streams, t.seq_writes, t.consec_writes, &rnd_w,
		     set->random_share);
	json_object_object_add(res, "findings", findings);
	json_object_object_add(res, "reads", json_object_new_int64((int64_t)t.reads));
	json_object_object_add(res, "writes", json_object_new_int64((int64_t)t.writes));
	json_object_object_add(res, "read_pattern", json_object_new_string(pr));
	json_object_object_add(res, "write_pattern", json_object_new_string(pw));
	json_object_object_add(res, "random_read_share", an_num(rnd_r));
	json_object_object_add(res, "random_write_share", an_num(rnd_w));
	json_object_object_add(res, "consecutive_reads",
			       json_object_new_int64((int64_t)t.consec_reads));
	json_object_object_add(res, "consecutive_writes",
			       json_object_new_int64((int64_t)t.consec_writes));
	json_object_object_add(res, "sequential_reads",
			       json_object_new_int64((int64_t)t.seq_reads));
	json_object_object_add(res, "sequential_writes",
			       json_object_new_int64((int64_t)t.seq_writes));
	json_object_object_add(res, "read_sizes", hist_json(t.read_hist));
	json_object_object_add(res, "write_sizes", hist_json(t.write_hist));
	json_object_object_add(res, "common_sizes", common_sizes(job));
	json_object_object_add(res, "file_alignment", json_object_new_int64(t.alignment));
	json_object_object_add(res, "misaligned_share",
			       an_num(t.ops ? t.file_not_aligned / t.ops : 0));
	json_object_object_add(res, "small_requests", json_object_new_int64((int64_t)t.small_ops));
	json_object_object_add(res, "small_share", an_num(t.ops ? t.small_ops / t.ops : 0));
	json_object_object_add(res, "small_threshold", json_object_new_int64(set->small_bytes));
	/* Per rank, from the trace: requests, their mean size and their size distribution. */
	if (job->traced_ranks && job->nprocs <= MAX_LISTED_RANKS) {
		double *ops = calloc((size_t)job->nprocs + 1, sizeof(*ops));
		double *bytes = calloc((size_t)job->nprocs + 1, sizeof(*bytes));
		double *hist = calloc((size_t)job->nprocs * 10 + 1, sizeof(*hist));
		json_object *per = json_object_new_array();
		size_t i;
		int32_t r;

		for (i = 0; ops && bytes && hist && i < job->nev; i++) {
			const struct an_event *e = &job->ev[i];
			const struct an_sig *s = &job->sigs[e->sig];

			if (s->module == IOA_MOD_POSIX &&
			    (s->flags & (IOA_TR_READ | IOA_TR_WRITE)) &&
			    !(s->flags & IOA_TR_FAILED) && e->rank >= 0 && e->rank < job->nprocs) {
				ops[e->rank]++;
				bytes[e->rank] += (double)e->length;
				hist[(size_t)e->rank * 10 + an_size_bin(e->length)]++;
			}
		}
		for (r = 0; ops && bytes && hist && r < job->nprocs; r++) {
			json_object *o = json_object_new_object();

			json_object_object_add(o, "requests",
					       json_object_new_int64((int64_t)ops[r]));
			json_object_object_add(o, "mean_size",
					       an_num(ops[r] ? bytes[r] / ops[r] : 0));
			json_object_object_add(o, "sizes", hist_json(hist + (size_t)r * 10));
			json_object_array_add(per, o);
		}
		json_object_object_add(res, "per_rank", per);
		free(ops);
		free(bytes);
		free(hist);
	}
	ev = json_object_new_object();
	json_object_object_add(ev, "read_pattern", json_object_new_string(pr));
	json_object_object_add(ev, "write_pattern", json_object_new_string(pw));
	json_object_object_add(ev, "random_read_share", an_num(rnd_r));
	json_object_object_add(ev, "random_write_share", an_num(rnd_w));
	snprintf(text, sizeof(text), "reads: %s (%.0f), writes: %s (%.0f)", pr, t.reads, pw,
		 t.writes);
	json_object_array_add(findings, an_finding(job, AN_F_ACCESS_PATTERN, text, ev));
	*confidence = 0.9;
	return 0;
}

/* ------------------------------------------------------------ insights */

/* At most one of each insight of the table. */
#define MAX_INSIGHTS AN_NFINDINGS

struct insight {
	const char *code;
	double score; /* affected share, weighed by how much of the run is I/O */
	json_object *finding;
};

static const char *severity(double score)
{
	return score >= 0.5 ? "high" : score >= 0.2 ? "medium" : "low";
}

static void add_insight(struct insight *list, size_t *n, const struct an_job *job,
			enum an_finding_id id, double affected, double weight, const char *text,
			json_object *ev)
{
	json_object *f;
	double score = affected * weight;

	if (*n >= MAX_INSIGHTS) {
		json_object_put(ev);
		return;
	}
	score = score > 1 ? 1 : score;
	f = an_finding(job, id, text, ev);
	json_object_object_add(f, "severity", json_object_new_string(severity(score)));
	json_object_object_add(f, "score", an_num(score));
	json_object_object_add(f, "affected_share", an_num(affected));
	list[(*n)++] = (struct insight){an_findings[id].code, score, f};
}

static int by_score(const void *a, const void *b)
{
	double x = ((const struct insight *)a)->score, y = ((const struct insight *)b)->score;

	return (x < y) - (x > y);
}

static json_object *ev2(const char *k1, double v1, const char *k2, double v2)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, k1, an_num(v1));
	json_object_object_add(o, k2, an_num(v2));
	return o;
}

/* Reads (writes) that jump backwards, when there are enough of them to matter. */
static void random_insight(struct insight *list, size_t *n, const struct an_job *job,
			   const struct totals *t, const struct an_settings *set, double weight,
			   int writes)
{
	double ops = writes ? t->writes : t->reads;
	double streams = writes ? t->write_streams : t->read_streams, rnd;
	char text[256];

	pattern(ops, streams, writes ? t->seq_writes : t->seq_reads,
		writes ? t->consec_writes : t->consec_reads, &rnd, set->random_share);
	if (ops <= 0 || rnd < set->random_share || ops - streams < 16)
		return;
	snprintf(text, sizeof(text), "%.0f%% of the %s jump to a position before the last one",
		 100 * rnd, writes ? "writes" : "reads");
	add_insight(list, n, job, writes ? AN_F_RANDOM_WRITES : AN_F_RANDOM_READS,
		    t->ops ? rnd * ops / t->ops : rnd, weight, text,
		    ev2("random_share", rnd, writes ? "writes" : "reads", ops));
}

static const char *file_name(const struct an_job *job, int32_t file)
{
	return file >= 0 && (size_t)file < job->nfiles ? job->files[file].name : "";
}

/* Whether a file was written or read through collective MPI-IO (its aggregators carry it). */
static int collective_file(const struct an_job *job, int32_t file)
{
	size_t k;

	for (k = 0; k < job->nrecs; k++)
		if (job->recs[k].file == file && job->recs[k].module == IOA_MOD_MPIIO &&
		    (job->recs[k].c[MPIIO_COLL_READS] > 0 || job->recs[k].c[MPIIO_COLL_WRITES] > 0))
			return 1;
	return 0;
}

/*
 * Uneven ranks on shared files (MPI jobs only), in time (a straggler) and
 * in bytes; not on files of collective MPI-IO, whose aggregators carry the
 * POSIX time and bytes by design.  A time difference counts only above the
 * noise: a tenth of min_io_seconds and 2% of the run, so that a balanced
 * job's jitter of milliseconds is not called a straggler.
 */
static void imbalance_insights(struct insight *list, size_t *n, const struct an_job *job,
			       const struct an_settings *set, double io_time, double weight)
{
	double noise = set->min_io_seconds / 10;
	int time_done = 0, bytes_done = 0;
	char text[768];
	size_t i;

	if (0.02 * an_run_seconds(job) > noise)
		noise = 0.02 * an_run_seconds(job);
	for (i = 0; i < job->nrecs && (!time_done || !bytes_done); i++) {
		const struct an_record *r = &job->recs[i];
		double slow, fast, sb, fb, all, mean, cv;
		json_object *ev;

		if (r->rank >= 0 || r->module != IOA_MOD_POSIX || collective_file(job, r->file))
			continue;
		slow = r->f[POSIX_F_SLOWEST_RANK_TIME];
		fast = r->f[POSIX_F_FASTEST_RANK_TIME];
		sb = (double)r->c[POSIX_SLOWEST_RANK_BYTES];
		fb = (double)r->c[POSIX_FASTEST_RANK_BYTES];
		if (!time_done && slow - fast >= noise && (slow - fast) / slow >= set->imbalance) {
			ev = ev2("slowest_time", slow, "fastest_time", fast);
			json_object_object_add(ev, "file",
					       json_object_new_string(file_name(job, r->file)));
			json_object_object_add(ev, "slowest_rank",
					       json_object_new_int64(r->c[POSIX_SLOWEST_RANK]));
			json_object_object_add(ev, "fastest_rank",
					       json_object_new_int64(r->c[POSIX_FASTEST_RANK]));
			json_object_object_add(ev, "noise_floor", an_num(noise));
			snprintf(text, sizeof(text),
				 "rank %lld spends %.3g s on shared file '%s', rank %lld %.3g s: a "
				 "straggler",
				 (long long)r->c[POSIX_SLOWEST_RANK], slow, file_name(job, r->file),
				 (long long)r->c[POSIX_FASTEST_RANK], fast);
			add_insight(list, n, job, AN_F_RANK_IMBALANCE,
				    io_time > 0 ? (slow - fast) / io_time * job->nprocs : 1, weight,
				    text, ev);
			time_done = 1;
		}
		/*
		 * Bytes: the ranks' spread (the population variance the shared record
		 * keeps, over the job's ranks as Darshan's), 64 KiB a rank at least.
		 */
		all = (double)r->c[POSIX_BYTES_READ] + (double)r->c[POSIX_BYTES_WRITTEN];
		mean = job->nprocs > 0 ? all / job->nprocs : 0;
		cv = mean > 0 && r->f[POSIX_F_VARIANCE_RANK_BYTES] > 0
			     ? sqrt(r->f[POSIX_F_VARIANCE_RANK_BYTES]) / mean
			     : 0;
		if (!bytes_done && mean >= 65536 && cv >= set->imbalance) {
			ev = ev2("bytes_cv", cv, "mean_rank_bytes", mean);
			json_object_object_add(ev, "file",
					       json_object_new_string(file_name(job, r->file)));
			json_object_object_add(ev, "slowest_rank",
					       json_object_new_int64(r->c[POSIX_SLOWEST_RANK]));
			json_object_object_add(ev, "slowest_rank_bytes", an_num(sb));
			json_object_object_add(ev, "fastest_rank",
					       json_object_new_int64(r->c[POSIX_FASTEST_RANK]));
			json_object_object_add(ev, "fastest_rank_bytes", an_num(fb));
			snprintf(text, sizeof(text),
				 "ranks move uneven amounts of shared file '%s': %.4g MiB each on "
				 "average, spread %.0f%% (rank %lld %.4g MiB, rank %lld %.4g MiB)",
				 file_name(job, r->file), mean / 1048576, 100 * cv,
				 (long long)r->c[POSIX_SLOWEST_RANK], sb / 1048576,
				 (long long)r->c[POSIX_FASTEST_RANK], fb / 1048576);
			add_insight(list, n, job, AN_F_DATA_IMBALANCE, cv > 1 ? 1 : cv, weight,
				    text, ev);
			bytes_done = 1;
		}
	}
}

/*
 * The independent calls of a dataset or variable: an H5D record's reads
 * and writes when it used no collective transfer, a PNETCDF_VAR record's
 * independent ones; and in *parent the file holding it, or -1.
 */
static double independent_calls(const struct an_job *job, const struct an_record *r,
				int32_t *parent)
{
	const int64_t *c = r->c;

	*parent = -1;
	if (r->module == IOA_MOD_H5D && !c[H5D_USE_MPIIO_COLLECTIVE]) {
		*parent = an_file_of(job, (uint64_t)c[H5D_FILE_REC_ID]);
		return (double)(c[H5D_READS] + c[H5D_WRITES]);
	}
	if (r->module == IOA_MOD_PNETCDF_VAR) {
		*parent = an_file_of(job, (uint64_t)c[PNETCDF_VAR_FILE_REC_ID]);
		return (double)(c[PNETCDF_VAR_INDEP_READS] + c[PNETCDF_VAR_INDEP_WRITES]);
	}
	return 0;
}

/* Text naming the first of n things, then: ", and N more THINGs". */
static void and_more(char *text, size_t size, size_t n, const char *thing)
{
	size_t len = strlen(text);

	if (n > 1 && len < size)
		snprintf(text + len, size - len, ", and %zu more %s%s", n - 1, thing,
			 n == 2 ? "" : "s");
}

/*
 * The datasets and variables behind each flagged file (objs[file], its
 * evidence) that were read or written independently, in one pass over the
 * records: a dataset's ranks' records summed into one entry named as in
 * the file ("<file>:<dataset>" less the file's part).  The first flagged
 * file's first few into text (len bytes), said as datasets, variables or
 * both.  0, or -ENOMEM.
 */
static int independent_datasets(const struct an_job *job, json_object **objs, size_t first,
				char *text, size_t len)
{
	static const char *const said[] = {"", ", by its datasets ", ", by its variables ",
					   ", by its datasets and variables "};
	double *calls = calloc(job->nfiles + 1, sizeof(*calls));
	int32_t *parent = calloc(job->nfiles + 1, sizeof(*parent));
	unsigned char *layer = calloc(job->nfiles + 1, 1);
	size_t k, shown = 0, used = 0;
	unsigned kinds = 0;
	char names[256] = "";

	if (!calls || !parent || !layer) {
		free(calls);
		free(parent);
		free(layer);
		return -ENOMEM;
	}
	for (k = 0; k < job->nrecs; k++) {
		const struct an_record *r = &job->recs[k];
		int32_t p;
		double n = independent_calls(job, r, &p);

		if (n <= 0 || p < 0 || !objs[p] || r->file < 0 || (size_t)r->file >= job->nfiles)
			continue;
		calls[r->file] += n;
		parent[r->file] = p;
		layer[r->file] = (unsigned char)r->module;
	}
	for (k = 0; k < job->nfiles; k++) {
		const char *name = job->files[k].name, *in = job->files[parent[k]].name;
		json_object *o, *list;

		if (calls[k] <= 0)
			continue;
		if (!strncmp(name, in, strlen(in)) && name[strlen(in)] == ':')
			name += strlen(in) + 1;
		o = json_object_new_object();
		json_object_object_add(o, "name", json_object_new_string(name));
		json_object_object_add(o, "layer",
				       json_object_new_string(ioa_modules[layer[k]].name));
		json_object_object_add(o, "independent", an_num(calls[k]));
		if (!json_object_object_get_ex(objs[parent[k]], "datasets", &list)) {
			list = json_object_new_array();
			json_object_object_add(objs[parent[k]], "datasets", list);
		}
		json_object_array_add(list, o);
		if ((size_t)parent[k] != first)
			continue;
		kinds |= layer[k] == IOA_MOD_H5D ? 1 : 2;
		if (shown < 4 && used < sizeof(names)) {
			int w = snprintf(names + used, sizeof(names) - used, "%s'%s'",
					 shown ? ", " : "", name);

			used += w > 0 ? (size_t)w : 0;
		} else if (shown == 4 && used < sizeof(names)) {
			int w = snprintf(names + used, sizeof(names) - used, " ...");

			used += w > 0 ? (size_t)w : 0;
		}
		shown++;
	}
	snprintf(text, len, "%s%s", said[kinds], names);
	free(calls);
	free(parent);
	free(layer);
	return 0;
}

/*
 * Shared files that MPI-IO reached only through its independent calls
 * (16 or more), where the collective ones would let aggregators combine
 * the ranks' requests.  Per file, as one collective file does not excuse
 * another written independently.
 */
static int independent_insight(struct insight *list, size_t *n, const struct an_job *job,
			       double weight)
{
	double(*f)[3] = calloc(job->nfiles + 1, sizeof(*f)); /* independent, collective, ranks */
	int32_t *last = calloc(job->nfiles + 1, sizeof(*last));
	json_object *files, **objs;
	double indep = 0, all = 0;
	size_t i, nf = 0, first = 0;
	char text[1024] = "", datasets[320] = "";
	int rc;

	if (!f || !last) {
		free(f);
		free(last);
		return -ENOMEM;
	}
	for (i = 0; i < job->nrecs; i++) {
		const struct an_record *r = &job->recs[i];
		const int64_t *c = r->c;

		if (r->module != IOA_MOD_MPIIO || r->file < 0 || (size_t)r->file >= job->nfiles)
			continue;
		f[r->file][0] += (double)(c[MPIIO_INDEP_READS] + c[MPIIO_INDEP_WRITES]);
		f[r->file][1] += (double)(c[MPIIO_COLL_READS] + c[MPIIO_COLL_WRITES] +
					  c[MPIIO_SPLIT_READS] + c[MPIIO_SPLIT_WRITES]);
		/* A shared record (rank -1) stands for several ranks. */
		if (r->rank < 0)
			f[r->file][2] += 2;
		else if (last[r->file] != r->rank + 1)
			f[r->file][2] += 1;
		last[r->file] = r->rank + 1;
		all += (double)(c[MPIIO_INDEP_READS] + c[MPIIO_INDEP_WRITES] + c[MPIIO_COLL_READS] +
				c[MPIIO_COLL_WRITES]);
	}
	objs = calloc(job->nfiles + 1, sizeof(*objs));
	if (!objs) {
		free(f);
		free(last);
		return -ENOMEM;
	}
	files = json_object_new_array();
	for (i = 0; i < job->nfiles; i++) {
		if (f[i][0] < 16 || f[i][1] > 0 || f[i][2] < 2)
			continue;
		objs[i] = json_object_new_object();
		json_object_object_add(objs[i], "file", json_object_new_string(job->files[i].name));
		json_object_object_add(objs[i], "independent", an_num(f[i][0]));
		json_object_array_add(files, objs[i]);
		if (!nf)
			first = i;
		indep += f[i][0];
		nf++;
	}
	rc = nf ? independent_datasets(job, objs, first, datasets, sizeof(datasets)) : 0;
	if (nf)
		snprintf(text, sizeof(text),
			 "'%s' is read and written only through independent MPI-IO calls "
			 "(%.0f of them, no collective one)%s",
			 job->files[first].name, f[first][0], datasets);
	free(f);
	free(last);
	free(objs);
	if (!nf || rc) {
		json_object_put(files);
		return rc;
	}
	and_more(text, sizeof(text), nf, "shared file");
	{
		json_object *ev = ev2("independent", indep, "mpiio_calls", all);

		json_object_object_add(ev, "files", files);
		add_insight(list, n, job, AN_F_NO_COLLECTIVE_IO, all > 0 ? indep / all : 1, weight,
			    text, ev);
	}
	return 0;
}

/*
 * HDF5 files opened through MPI-IO by many ranks without collective
 * metadata (the H5F records say what the file-access list asked at open;
 * an imported log's do not, so imported jobs get none): every rank reads
 * each metadata block itself.  What is at stake is the file's and its
 * datasets' metadata time.  One pass over the records.  0, or -ENOMEM.
 */
static int metadata_insight(struct insight *list, size_t *n, const struct an_job *job,
			    const struct an_settings *set, double io_time, double weight)
{
	struct {
		double meta, ranks;
		int any, coll, mpiio;
	} * m;
	json_object *files = NULL;
	double meta_all = 0;
	size_t i, k, nf = 0;
	char text[768] = "";

	if (job->imported || !(m = calloc(job->nfiles + 1, sizeof(*m))))
		return job->imported ? 0 : -ENOMEM;
	for (k = 0; k < job->nrecs; k++) {
		const struct an_record *r = &job->recs[k];
		int32_t p;

		if (r->module == IOA_MOD_H5F && r->file >= 0 && (size_t)r->file < job->nfiles) {
			m[r->file].any = 1;
			m[r->file].coll |= r->c[H5F_USE_COLL_METADATA_OPS] ||
					   r->c[H5F_USE_COLL_METADATA_WRITE];
			m[r->file].mpiio |= r->c[H5F_USE_MPIIO] != 0;
			m[r->file].ranks += r->rank < 0 ? job->nprocs : 1;
			m[r->file].meta += r->f[H5F_F_META_TIME];
		} else if (r->module == IOA_MOD_H5D &&
			   (p = an_file_of(job, (uint64_t)r->c[H5D_FILE_REC_ID])) >= 0) {
			m[p].meta += r->f[H5D_F_META_TIME];
		}
	}
	for (i = 0; i < job->nfiles; i++) {
		json_object *o;

		if (!m[i].any || m[i].coll || !m[i].mpiio ||
		    m[i].ranks < (double)set->coll_metadata_ranks)
			continue;
		if (!files)
			files = json_object_new_array();
		o = ev2("ranks", m[i].ranks, "metadata_time", m[i].meta);
		json_object_object_add(o, "file", json_object_new_string(job->files[i].name));
		json_object_array_add(files, o);
		if (!nf)
			snprintf(text, sizeof(text),
				 "'%s' is opened by %.0f ranks without collective metadata (%.3g s "
				 "in "
				 "HDF5 file and dataset metadata calls)",
				 job->files[i].name, m[i].ranks, m[i].meta);
		meta_all += m[i].meta;
		nf++;
	}
	free(m);
	if (!nf)
		return 0;
	and_more(text, sizeof(text), nf, "HDF5 file");
	{
		json_object *ev = ev2("metadata_time", meta_all, "io_time", io_time);
		double share = io_time > 0 ? meta_all / io_time : 0;

		json_object_object_add(ev, "files", files);
		/* At least a tenth: the cost grows with the ranks, which this run may not show. */
		add_insight(list, n, job, AN_F_INDEPENDENT_METADATA, share > 0.1 ? share : 0.1,
			    weight, text, ev);
	}
	return 0;
}

/* A shape, slowest dimension first, from counters D1 (the fastest) on: "64x48". */
static void shape_text(const int64_t *d1, int ndims, char *out, size_t len)
{
	size_t used = 0;
	int d;

	out[0] = '\0';
	for (d = ndims - 1; d >= 0 && used < len; d--) {
		int w = snprintf(out + used, len - used, "%s%lld", d == ndims - 1 ? "" : "x",
				 (long long)d1[d]);

		used += w > 0 ? (size_t)w : 0;
	}
}

/*
 * Chunked HDF5 datasets read or written in pieces that are not whole
 * chunks: the most common access (ACCESS1, its length per dimension) is,
 * in some dimension, not a multiple of the chunk's, so each such access
 * moves part of chunks, which HDF5 reads, fills and writes whole.  Per
 * dataset, its records summed (a shared one stands for its ranks); it
 * counts when those accesses are half its reads and writes or more.  At
 * stake: the datasets' read and write time.  0, or -ENOMEM.
 */
static int chunk_insight(struct insight *list, size_t *n, const struct an_job *job, double io_time,
			 double weight)
{
	struct {
		double cut, calls, time;
		const int64_t *c; /* the first record's counters: its chunks and access */
	} *m = calloc(job->nfiles + 1, sizeof(*m));
	json_object *sets = NULL;
	double cut_all = 0, time_all = 0;
	size_t i, k, nd = 0;
	char text[768] = "", chunk[96], access[96];

	if (!m)
		return -ENOMEM;
	for (k = 0; k < job->nrecs; k++) {
		const struct an_record *r = &job->recs[k];
		const int64_t *c = r->c;
		int d, ndims = (int)c[H5D_DATASPACE_NDIMS], cut = 0;

		if (r->module != IOA_MOD_H5D || r->file < 0 || (size_t)r->file >= job->nfiles ||
		    c[H5D_CHUNK_SIZE_D1] <= 0 || c[H5D_ACCESS1_COUNT] <= 0 || ndims < 1)
			continue;
		ndims = ndims > 5 ? 5 : ndims;
		for (d = 0; d < ndims; d++)
			cut |= c[H5D_CHUNK_SIZE_D1 + d] > 0 && c[H5D_ACCESS1_LENGTH_D1 + d] > 0 &&
			       c[H5D_ACCESS1_LENGTH_D1 + d] % c[H5D_CHUNK_SIZE_D1 + d] != 0;
		m[r->file].calls += (double)(c[H5D_READS] + c[H5D_WRITES]);
		m[r->file].time += r->f[H5D_F_READ_TIME] + r->f[H5D_F_WRITE_TIME];
		if (!cut)
			continue;
		m[r->file].cut += (double)c[H5D_ACCESS1_COUNT];
		if (!m[r->file].c)
			m[r->file].c = c;
	}
	for (i = 0; i < job->nfiles; i++) {
		const int64_t *c = m[i].c;
		int ndims;
		json_object *o;

		if (!c || m[i].cut < 0.5 * m[i].calls)
			continue;
		ndims = c[H5D_DATASPACE_NDIMS] > 5 ? 5 : (int)c[H5D_DATASPACE_NDIMS];
		shape_text(&c[H5D_CHUNK_SIZE_D1], ndims, chunk, sizeof(chunk));
		shape_text(&c[H5D_ACCESS1_LENGTH_D1], ndims, access, sizeof(access));
		if (!sets)
			sets = json_object_new_array();
		o = ev2("accesses", m[i].cut, "reads_writes", m[i].calls);
		json_object_object_add(o, "dataset", json_object_new_string(job->files[i].name));
		json_object_object_add(o, "chunk", json_object_new_string(chunk));
		json_object_object_add(o, "access", json_object_new_string(access));
		json_object_array_add(sets, o);
		if (!nd)
			snprintf(text, sizeof(text),
				 "'%s' is chunked %s and read or written in pieces of %s (%.0f of "
				 "its "
				 "%.0f reads and writes): each moves part of chunks",
				 job->files[i].name, chunk, access, m[i].cut, m[i].calls);
		cut_all += m[i].cut;
		time_all += m[i].time;
		nd++;
	}
	free(m);
	if (!nd)
		return 0;
	and_more(text, sizeof(text), nd, "dataset");
	{
		json_object *ev = ev2("dataset_time", time_all, "io_time", io_time);
		double share = io_time > 0 ? time_all / io_time : 0;

		json_object_object_add(ev, "accesses", an_num(cut_all));
		json_object_object_add(ev, "datasets", sets);
		add_insight(list, n, job, AN_F_CHUNK_MISMATCH, share > 0.1 ? share : 0.1, weight,
			    text, ev);
	}
	return 0;
}

/* A file read (written) several times over: its bytes moved against its size. */
static void redundant_insight(struct insight *list, size_t *n, const struct an_job *job,
			      const struct totals *t, const struct an_settings *set, double weight,
			      int writes)
{
	char text[512];
	size_t i;

	for (i = 0; i < job->nrecs; i++) {
		const struct an_record *r = &job->recs[i];
		double moved, size;
		json_object *ev;

		if (r->module != IOA_MOD_POSIX)
			continue;
		moved = (double)r->c[writes ? POSIX_BYTES_WRITTEN : POSIX_BYTES_READ];
		size = (double)r->c[writes ? POSIX_MAX_BYTE_WRITTEN : POSIX_MAX_BYTE_READ] + 1;
		if (moved - size < 65536 || moved <= set->redundant_read_factor * size)
			continue;
		ev = ev2(writes ? "bytes_written" : "bytes_read", moved, "file_size", size);
		json_object_object_add(ev, "file", json_object_new_string(file_name(job, r->file)));
		snprintf(text, sizeof(text), "'%s' is %s %.1f times over", file_name(job, r->file),
			 writes ? "written" : "read", moved / size);
		moved /= writes ? t->bytes_written : t->bytes_read;
		add_insight(list, n, job, writes ? AN_F_REDUNDANT_WRITES : AN_F_REDUNDANT_READS,
			    moved > 0 && moved <= 1 ? moved : 1, weight, text, ev);
		return;
	}
}

int an_insights(const struct an_job *job, const struct an_settings *set, json_object *res,
		double *confidence)
{
	struct insight list[MAX_INSIGHTS];
	struct totals t;
	json_object *findings, *layers;
	double io_time, run, weight, meta;
	size_t n = 0, i, k;
	int mpi = job->nprocs > 1;
	char text[768];

	if (totals(job, set, &t))
		return -ENOMEM;
	findings = json_object_new_array();
	io_time = t.time.total;
	/* Rank-seconds after MPI start-up: the launch and MPI_Init are neither I/O nor compute. */
	run = an_run_seconds(job) * (job->nprocs > 0 ? job->nprocs : 1);
	/* I/O that is a tenth of the run or more counts fully; less, proportionally. */
	weight = run > 0 ? (io_time / run) / 0.1 : 1;
	weight = weight > 1 ? 1 : weight;
	if (io_time < set->min_io_seconds)
		weight *= 0.25;
	json_object_object_add(res, "io_time", an_num(io_time));
	json_object_object_add(res, "io_share_of_run", an_num(run > 0 ? io_time / run : 0));
	json_object_object_add(res, "mpi_startup", an_num(job->startup));
	layers = json_object_new_object();
	json_object_object_add(layers, "posix", an_num(t.time.layer_total[AN_POSIX]));
	json_object_object_add(layers, "stdio", an_num(t.time.layer_total[AN_STDIO]));
	json_object_object_add(layers, "mpiio", an_num(t.time.layer_total[AN_MPIIO]));
	json_object_object_add(res, "io_time_by_layer", layers);
	json_object_object_add(res, "advice_for",
			       json_object_new_string(an_user_layer_names[an_user_layer(job)]));

	if (t.ops && t.small_ops / t.ops >= set->small_share) {
		snprintf(text, sizeof(text),
			 "%.0f%% of the %.0f read and write requests are under %lld bytes",
			 100 * t.small_ops / t.ops, t.ops, set->small_bytes);
		add_insight(list, &n, job, AN_F_SMALL_REQUESTS, t.small_ops / t.ops, weight, text,
			    ev2("small_requests", t.small_ops, "requests", t.ops));
	}
	if (t.ops && t.alignment > 0 && t.file_not_aligned / t.ops >= set->misaligned_share) {
		snprintf(text, sizeof(text),
			 "%.0f%% of the requests are not aligned to the file system's %lld-byte "
			 "blocks",
			 100 * t.file_not_aligned / t.ops, (long long)t.alignment);
		add_insight(
			list, &n, job, AN_F_MISALIGNED_REQUESTS, t.file_not_aligned / t.ops, weight,
			text,
			ev2("misaligned", t.file_not_aligned, "alignment", (double)t.alignment));
	}
	if (t.ops >= 16 && t.mem_not_aligned / t.ops >= set->misaligned_share) {
		snprintf(text, sizeof(text),
			 "%.0f%% of the requests use buffers not aligned in memory",
			 100 * t.mem_not_aligned / t.ops);
		add_insight(list, &n, job, AN_F_MISALIGNED_MEMORY, 0.5 * t.mem_not_aligned / t.ops,
			    weight, text, ev2("misaligned", t.mem_not_aligned, "requests", t.ops));
	}
	random_insight(list, &n, job, &t, set, weight, 0);
	random_insight(list, &n, job, &t, set, weight, 1);
	if (mpi)
		imbalance_insights(list, &n, job, set, io_time, weight);
	if (mpi && independent_insight(list, &n, job, weight))
		return -ENOMEM;
	if (mpi && metadata_insight(list, &n, job, set, io_time, weight))
		return -ENOMEM;
	if (chunk_insight(list, &n, job, io_time, weight))
		return -ENOMEM;
	/* Blocking MPI-IO only, while MPI-IO is a good part of the run: room to overlap. */
	if (t.mpiio_indep + t.mpiio_coll >= 16 && t.mpiio_nb == 0 && run > 0 &&
	    t.time.layer_total[AN_MPIIO] >= 0.1 * run &&
	    t.time.layer_total[AN_MPIIO] >= set->min_io_seconds) {
		snprintf(text, sizeof(text),
			 "all %.0f MPI-IO reads and writes block, and MPI-IO takes %.0f%% of the "
			 "run",
			 t.mpiio_indep + t.mpiio_coll, 100 * t.time.layer_total[AN_MPIIO] / run);
		add_insight(list, &n, job, AN_F_BLOCKING_IO,
			    0.5 * t.time.layer_total[AN_MPIIO] / run, weight, text,
			    ev2("blocking", t.mpiio_indep + t.mpiio_coll, "mpiio_time",
				t.time.layer_total[AN_MPIIO]));
	}
	/* More bytes reached the file system than MPI-IO was asked to write. */
	if (t.mpiio_asked > 0 && t.posix_written >= set->amplification * t.mpiio_asked &&
	    t.posix_written - t.mpiio_asked >= 1048576) {
		json_object *ev = ev2("mpiio_bytes_written", t.mpiio_asked, "posix_bytes_written",
				      t.posix_written);

		json_object_object_add(ev, "posix_bytes_read", an_num(t.posix_read));
		json_object_object_add(ev, "amplification",
				       an_num(t.posix_written / t.mpiio_asked));
		snprintf(text, sizeof(text),
			 "%.2gx write amplification: %.4g MiB reached the file system for the "
			 "%.4g MiB written through MPI-IO%s",
			 t.posix_written / t.mpiio_asked, t.posix_written / 1048576,
			 t.mpiio_asked / 1048576,
			 t.posix_read > 0 ? ", with bytes read back first (read-modify-write)"
					  : "");
		add_insight(list, &n, job, AN_F_WRITE_AMPLIFICATION,
			    1 - t.mpiio_asked / t.posix_written, weight, text, ev);
	}
	/*
	 * Metadata means metadata operations: the counters hold a sync's time
	 * in the write time, as Darshan's do; the trace's sync time is judged
	 * on its own below.
	 */
	meta = t.time.kind[AN_META];
	if (io_time > 0 && meta / io_time >= set->metadata_share &&
	    meta >= set->min_io_seconds / 10) {
		snprintf(text, sizeof(text),
			 "metadata (open, stat, seek, close ...) takes %.0f%% of the I/O time",
			 100 * meta / io_time);
		add_insight(list, &n, job, AN_F_METADATA_HEAVY, meta / io_time, weight, text,
			    ev2("metadata_time", meta, "io_time", io_time));
	}
	if (io_time > 0 && t.sync / io_time >= set->metadata_share &&
	    t.sync >= set->min_io_seconds / 10) {
		snprintf(text, sizeof(text),
			 "waiting for data to reach storage (fsync, MPI_File_sync) takes %.0f%% "
			 "of the I/O time",
			 100 * t.sync / io_time);
		add_insight(list, &n, job, AN_F_SYNC_HEAVY, t.sync / io_time, weight, text,
			    ev2("sync_time", t.sync, "io_time", io_time));
	}
	{
		double all = t.bytes_read + t.bytes_written + t.stdio_bytes;

		if (all > 0 && t.stdio_bytes / all >= set->stdio_share &&
		    t.stdio_bytes >= 1 << 20) {
			snprintf(text, sizeof(text), "STDIO moves %.0f%% of the bytes (%.4g MiB)",
				 100 * t.stdio_bytes / all, t.stdio_bytes / 1048576);
			add_insight(list, &n, job, AN_F_HEAVY_STDIO, t.stdio_bytes / all, weight,
				    text, ev2("stdio_bytes", t.stdio_bytes, "bytes", all));
		}
	}
	/* File-per-process: many files, each written by one rank. */
	if (mpi) {
		size_t files = 0;

		for (i = 0; i < job->nfiles; i++) {
			int32_t writer = -2;
			int solo = 1;

			for (k = 0; k < job->nrecs && solo; k++) {
				const struct an_record *r = &job->recs[k];

				if (r->file != (int32_t)i || r->module != IOA_MOD_POSIX ||
				    !r->c[POSIX_WRITES])
					continue;
				solo = r->rank >= 0 && (writer == -2 || writer == r->rank);
				writer = r->rank;
			}
			files += solo && writer >= 0;
		}
		if ((long long)files >= set->fpp_min_files && files >= (size_t)job->nprocs) {
			snprintf(text, sizeof(text),
				 "file per process: %zu files written by one rank each (%d ranks)",
				 files, job->nprocs);
			add_insight(list, &n, job, AN_F_FILE_PER_PROCESS, 0.5, weight, text,
				    ev2("files", (double)files, "ranks", job->nprocs));
		}
	}
	redundant_insight(list, &n, job, &t, set, weight, 0);
	redundant_insight(list, &n, job, &t, set, weight, 1);
	qsort(list, n, sizeof(*list), by_score);
	for (i = 0; i < n; i++)
		json_object_array_add(findings, list[i].finding);
	json_object_object_add(res, "findings", findings);
	*confidence = 0.8;
	return 0;
}
