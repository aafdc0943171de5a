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
	double mpiio_indep, mpiio_coll;
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
		} else {
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
		for (i = 0; i < job->nev; i++) {
			const struct an_sig *s = &job->sigs[job->ev[i].sig];

			if (s->module == IOA_MOD_POSIX &&
			    (s->flags & (IOA_TR_READ | IOA_TR_WRITE)) &&
			    !(s->flags & IOA_TR_FAILED) && job->ev[i].length < set->small_bytes)
				t->small_ops++;
		}
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
	json_object_array_add(findings, an_finding("access_pattern", text, ev));
	*confidence = 0.9;
	return 0;
}

/* ------------------------------------------------------------ insights */

struct insight {
	const char *code;
	double score; /* affected share, weighed by how much of the run is I/O */
	json_object *finding;
};

static const char *severity(double score)
{
	return score >= 0.5 ? "high" : score >= 0.2 ? "medium" : "low";
}

static int add_insight(struct insight *list, size_t *n, const char *code, double affected,
		       double weight, const char *text, const char *advice, json_object *ev)
{
	json_object *f;
	double score = affected * weight;

	if (*n >= 16) {
		json_object_put(ev);
		return 0;
	}
	score = score > 1 ? 1 : score;
	f = an_finding(code, text, ev);
	json_object_object_add(f, "severity", json_object_new_string(severity(score)));
	json_object_object_add(f, "score", an_num(score));
	json_object_object_add(f, "affected_share", an_num(affected));
	json_object_object_add(f, "recommendation", json_object_new_string(advice));
	list[(*n)++] = (struct insight){code, score, f};
	return 0;
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
static void random_insight(struct insight *list, size_t *n, const struct totals *t,
			   const struct an_settings *set, double weight, int writes)
{
	static const char *const advice[2] = {
		"Read in file order where possible; otherwise gather the scattered reads "
		"(collective MPI-IO with a file view, or read larger blocks and pick from "
		"memory).",
		"Write in file order, or stage the data and write it in order; collective MPI-IO "
		"turns scattered writes into large ordered ones."};
	double ops = writes ? t->writes : t->reads;
	double streams = writes ? t->write_streams : t->read_streams, rnd;
	char text[256];

	pattern(ops, streams, writes ? t->seq_writes : t->seq_reads,
		writes ? t->consec_writes : t->consec_reads, &rnd, set->random_share);
	if (ops <= 0 || rnd < set->random_share || ops - streams < 16)
		return;
	snprintf(text, sizeof(text), "%.0f%% of the %s jump to a position before the last one",
		 100 * rnd, writes ? "writes" : "reads");
	add_insight(list, n, writes ? "random_writes" : "random_reads",
		    t->ops ? rnd * ops / t->ops : rnd, weight, text, advice[writes],
		    ev2("random_share", rnd, writes ? "writes" : "reads", ops));
}

int an_insights(const struct an_job *job, const struct an_settings *set, json_object *res,
		double *confidence)
{
	struct insight list[16];
	struct totals t;
	json_object *findings, *layers;
	double io_time, run, weight;
	size_t n = 0, i, k;
	int mpi = job->nprocs > 1;
	char text[768];

	if (totals(job, set, &t))
		return -ENOMEM;
	findings = json_object_new_array();
	io_time = t.time.total;
	run = job->seconds * (job->nprocs > 0 ? job->nprocs : 1);
	/* I/O that is a tenth of the run or more counts fully; less, proportionally. */
	weight = run > 0 ? (io_time / run) / 0.1 : 1;
	weight = weight > 1 ? 1 : weight;
	if (io_time < set->min_io_seconds)
		weight *= 0.25;
	json_object_object_add(res, "io_time", an_num(io_time));
	json_object_object_add(res, "io_share_of_run", an_num(run > 0 ? io_time / run : 0));
	layers = json_object_new_object();
	json_object_object_add(layers, "posix", an_num(t.time.layer_total[AN_POSIX]));
	json_object_object_add(layers, "stdio", an_num(t.time.layer_total[AN_STDIO]));
	json_object_object_add(layers, "mpiio", an_num(t.time.layer_total[AN_MPIIO]));
	json_object_object_add(res, "io_time_by_layer", layers);

	if (t.ops && t.small_ops / t.ops >= set->small_share) {
		snprintf(text, sizeof(text),
			 "%.0f%% of the %.0f read and write requests are under %lld bytes",
			 100 * t.small_ops / t.ops, t.ops, set->small_bytes);
		add_insight(
			list, &n, "small_requests", t.small_ops / t.ops, weight, text,
			"Gather small requests into large ones: buffer in memory and write whole "
			"blocks, or let collective MPI-IO (or HDF5, PnetCDF) aggregate them.",
			ev2("small_requests", t.small_ops, "requests", t.ops));
	}
	if (t.ops && t.alignment > 0 && t.file_not_aligned / t.ops >= set->misaligned_share) {
		snprintf(text, sizeof(text),
			 "%.0f%% of the requests are not aligned to the file system's %lld-byte "
			 "blocks",
			 100 * t.file_not_aligned / t.ops, (long long)t.alignment);
		add_insight(
			list, &n, "misaligned_requests", t.file_not_aligned / t.ops, weight, text,
			"Align requests and each rank's part of a shared file to the block or "
			"stripe size (pad headers and records, or set the stripe size to match).",
			ev2("misaligned", t.file_not_aligned, "alignment", (double)t.alignment));
	}
	random_insight(list, &n, &t, set, weight, 0);
	random_insight(list, &n, &t, set, weight, 1);
	/*
	 * Stragglers on shared files (MPI jobs only); not on files written
	 * through collective MPI-IO, whose aggregators carry the POSIX time by
	 * design.
	 */
	for (i = 0; mpi && i < job->nrecs; i++) {
		const struct an_record *r = &job->recs[i];
		double slow, fast;
		int collective = 0;

		if (r->rank >= 0 || r->module != IOA_MOD_POSIX)
			continue;
		for (k = 0; k < job->nrecs && !collective; k++)
			collective = job->recs[k].file == r->file &&
				     job->recs[k].module == IOA_MOD_MPIIO &&
				     (job->recs[k].c[MPIIO_COLL_READS] > 0 ||
				      job->recs[k].c[MPIIO_COLL_WRITES] > 0);
		slow = r->f[POSIX_F_SLOWEST_RANK_TIME];
		fast = r->f[POSIX_F_FASTEST_RANK_TIME];
		if (!collective && slow >= 0.1 * set->min_io_seconds &&
		    (slow - fast) / slow >= set->imbalance) {
			json_object *ev = ev2("slowest_time", slow, "fastest_time", fast);

			json_object_object_add(
				ev, "file",
				json_object_new_string(r->file >= 0 ? job->files[r->file].name
								    : ""));
			json_object_object_add(ev, "slowest_rank",
					       json_object_new_int64(r->c[POSIX_SLOWEST_RANK]));
			snprintf(text, sizeof(text),
				 "rank %lld spends %.3g s on shared file '%s', rank %lld %.3g s: a "
				 "straggler",
				 (long long)r->c[POSIX_SLOWEST_RANK], slow,
				 r->file >= 0 ? job->files[r->file].name : "",
				 (long long)r->c[POSIX_FASTEST_RANK], fast);
			add_insight(list, &n, "rank_imbalance",
				    io_time > 0 ? (slow - fast) / io_time * job->nprocs : 1, weight,
				    text,
				    "Even out the data per rank on shared files, or use collective "
				    "MPI-IO so aggregators balance it; check the slow rank's node.",
				    ev);
			break;
		}
	}
	/* Independent MPI-IO on a shared file where collective calls would help. */
	if (mpi && t.mpiio_indep > 0 && t.mpiio_coll == 0 && t.mpiio_indep >= 16) {
		snprintf(text, sizeof(text),
			 "%.0f independent MPI-IO reads and writes, no collective ones",
			 t.mpiio_indep);
		add_insight(
			list, &n, "no_collective_io", 1, weight, text,
			"Use the collective forms (MPI_File_write_all, MPI_File_read_at_all) so "
			"ROMIO can aggregate requests across ranks (two-phase I/O).",
			ev2("independent", t.mpiio_indep, "collective", t.mpiio_coll));
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
		add_insight(list, &n, "write_amplification", 1 - t.mpiio_asked / t.posix_written,
			    weight, text,
			    "Independent noncontiguous writes make ROMIO's data sieving read and "
			    "rewrite the holes between a rank's pieces: write with the collective "
			    "calls (MPI_File_write_all), whose aggregators write contiguous "
			    "blocks, or disable data sieving (hint romio_ds_write=disable).",
			    ev);
	}
	if (io_time > 0 && t.time.kind[AN_META] / io_time >= set->metadata_share &&
	    t.time.kind[AN_META] >= set->min_io_seconds / 10) {
		snprintf(text, sizeof(text),
			 "metadata (open, stat, seek, sync ...) takes %.0f%% of the I/O time",
			 100 * t.time.kind[AN_META] / io_time);
		add_insight(list, &n, "metadata_heavy", t.time.kind[AN_META] / io_time, weight,
			    text,
			    "Open files once and keep them open, stat less often, and spread "
			    "files over directories; fewer, larger files help the metadata "
			    "server.",
			    ev2("metadata_time", t.time.kind[AN_META], "io_time", io_time));
	}
	{
		double all = t.bytes_read + t.bytes_written + t.stdio_bytes;

		if (all > 0 && t.stdio_bytes / all >= set->stdio_share &&
		    t.stdio_bytes >= 1 << 20) {
			snprintf(text, sizeof(text), "STDIO moves %.0f%% of the bytes (%.4g MB)",
				 100 * t.stdio_bytes / all, t.stdio_bytes / 1e6);
			add_insight(list, &n, "heavy_stdio", t.stdio_bytes / all, weight, text,
				    "Move bulk data through POSIX read/write with large buffers, "
				    "MPI-IO or HDF5; keep STDIO for text and logs.",
				    ev2("stdio_bytes", t.stdio_bytes, "bytes", all));
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
			add_insight(list, &n, "file_per_process", 0.5, weight, text,
				    "Write shared files (MPI-IO, HDF5, PnetCDF) or fewer files "
				    "(one per node, subfiling): thousands of files load the "
				    "metadata servers at every checkpoint.",
				    ev2("files", (double)files, "ranks", job->nprocs));
		}
	}
	/* Redundant reads: a file read several times over. */
	for (i = 0; i < job->nrecs; i++) {
		const struct an_record *r = &job->recs[i];
		double read = r->module == IOA_MOD_POSIX ? (double)r->c[POSIX_BYTES_READ] : 0;
		double size =
			r->module == IOA_MOD_POSIX ? (double)r->c[POSIX_MAX_BYTE_READ] + 1 : 0;

		if (read >= 1 << 20 && read > set->redundant_read_factor * size) {
			json_object *ev = ev2("bytes_read", read, "file_size", size);

			json_object_object_add(
				ev, "file",
				json_object_new_string(r->file >= 0 ? job->files[r->file].name
								    : ""));
			snprintf(text, sizeof(text), "'%s' is read %.1f times over",
				 r->file >= 0 ? job->files[r->file].name : "", read / size);
			add_insight(
				list, &n, "redundant_reads",
				t.bytes_read > 0 ? read / t.bytes_read : 1, weight, text,
				"Read shared input once and broadcast it (MPI_Bcast), or keep it "
				"in memory instead of reading it again.",
				ev);
			break;
		}
	}
	qsort(list, n, sizeof(*list), by_score);
	for (i = 0; i < n; i++)
		json_object_array_add(findings, list[i].finding);
	json_object_object_add(res, "findings", findings);
	*confidence = 0.8;
	return 0;
}
