/*
 * analyze — the batch analyses of `ioatlas analyze` (docs/analyses.md).
 *
 * A job is loaded from the warehouse once (an_load.c): its facts, where
 * each rank ran, its module records with their counters in this build's
 * layout, failed calls, MPI-IO hints, time bins, and its operation trace
 * expanded into events.  Each analysis reads that job and writes one JSON
 * result with a confidence; the results go back to the warehouse keyed by
 * (job, analysis, version), so a new version runs beside the old one.
 * Every finding carries its evidence: the numbers, files and ranks that
 * made it.
 */
#ifndef ANALYZE_H
#define ANALYZE_H

#include <json-c/json.h>
#include <libpq-fe.h>
#include <stddef.h>
#include <stdint.h>

#include "ioa_buf.h"
#include "ioa_counters.h"
#include "ioa_db.h"
#include "an_findings.h"
#include "ioa_parse.h"
#include "ioa_partial.h"
#include "ioa_source.h"

/* The site's thresholds (settings analyze.*, documented in docs/analyses.md). */
struct an_settings {
	struct ioa_db_settings db;  /* the warehouse.* settings */
	long long max_events;	    /* trace events expanded per job */
	double phase_min_gap;	    /* seconds of quiet that can separate write phases, at most */
	double phase_min_gap_share; /* ... at least this share of the run (and 1 ms) */
	double phase_gap_ratio;	    /* how much longer than the gaps inside a phase */
	double amr_size_change;	    /* checkpoint sizes that vary by more: changing */
	double amr_rank_cv;	    /* per-rank bytes within a checkpoint spread more: uneven */
	double class_tolerance;	    /* ranks within this fraction of calls share a class */
	long long header_max_bytes; /* a rewrite this small counts as a header update */
	long long small_bytes;	    /* a request smaller than this is small */
	double small_share;	    /* of the requests, to be worth saying */
	double misaligned_share;
	double random_share;
	double imbalance;	 /* (slowest - fastest) / slowest rank time on a shared file */
	double metadata_share;	 /* of the I/O time */
	double stdio_share;	 /* of the bytes */
	double amplification;	 /* POSIX bytes written / MPI-IO bytes written worth an insight */
	long long fpp_min_files; /* files written each by one rank, for a storm */
	long long coll_metadata_ranks; /* ranks on an HDF5 file that want collective metadata */
	double redundant_read_factor;  /* bytes read over the file's size */
	double min_io_seconds;	       /* jobs with less I/O time get no performance advice */
};

int an_settings_load(struct an_settings *s, struct ioa_buf *err);
void an_settings_free(struct an_settings *s);

struct an_file {
	uint64_t id;   /* the log's record id */
	char *name;    /* display form; "" when the log names none */
	char *mount;   /* display form of its file system's mount point, or NULL */
	char *fs_type; /* or NULL */
};

struct an_record {
	enum ioa_module module;
	int32_t rank;	/* -1: shared by all ranks */
	int32_t file;	/* index into files */
	uint32_t flags; /* IOA_REC_* */
	int64_t *c;	/* this build's counter layout (ioa_modules) */
	double *f;
};

/* A call signature, shared by the job's events. */
struct an_sig {
	char name[32];
	unsigned module; /* enum ioa_module, or IOA_TRACE_MPI */
	unsigned flags;	 /* IOA_TR_* */
	int err;
};

/* One traced call, times in seconds from the job's start (its clock: docs/runtime.md). */
struct an_event {
	double start, dur;
	int64_t offset, length;
	int32_t rank;
	int32_t file; /* index into files, -1: none */
	uint32_t sig;
};

struct an_failure {
	enum ioa_module module;
	int32_t rank;
	int32_t file; /* -1: none recorded */
	char op[32];
	int err;
	int64_t count;
};

struct an_hint {
	int32_t rank;
	int32_t file;
	char *text; /* "key=value" lines */
};

/* A time bin with writes (when the job has no trace): seconds from the job's start. */
struct an_wbin {
	double start, end;
	int32_t rank; /* -1: a file shared by all ranks */
	int32_t file;
	uint64_t bytes, ops;
	int mpiio; /* bytes an MPI-IO call was asked to write (else POSIX's or STDIO's) */
};

struct an_job {
	int64_t id;
	char start_time[64]; /* as the warehouse prints it */
	double seconds;	     /* run time */
	int32_t nprocs, nnodes;
	char *user, *exe;
	char *jobid, *args, *version, *settings; /* display forms ("" when unknown) */
	char *untracked;			 /* what the runtime could not follow, or NULL */
	int folded;				 /* records were folded (the memory budget) */
	unsigned io_libs; /* IOA_LIB_* bits: the I/O libraries the program used (job key 34) */
	struct ioa_clock clock; /* job key 33: how its times were put on one clock */
	double startup; /* MPI start-up: the median rank's end of MPI_Init (trace), else 0 */
	size_t nhosts;
	char **hosts;
	int32_t *rank_node;	/* per rank (nprocs of them), or NULL */
	int32_t nprocs_claimed; /* what the log says, when more than the ranks it holds */
	uint64_t start_ns;	/* start_time, ns since the epoch */
	/*
	 * A partial log, recovered from a killed job's leftovers (job key 31,
	 * jobs.partial): how the job ended and until when its ranks recorded,
	 * the fields that were well formed (common/ioa_partial.h).
	 */
	int partial;
	struct ioa_partial ended;
	/*
	 * A log imported from another tool's (job key 32, jobs.source): where
	 * it came from (common/ioa_source.h).  Such a job has no time bins,
	 * operation trace or ioatlas counters: what needs them says unknown.
	 */
	int imported;
	struct ioa_source source;

	struct an_file *files;
	size_t nfiles;
	struct an_record *recs;
	size_t nrecs;
	struct an_failure *fails;
	size_t nfails;
	struct an_hint *hints;
	size_t nhints;

	struct an_sig *sigs;
	size_t nsigs;
	struct an_event *ev; /* by rank, then in each rank's order */
	size_t nev;
	int32_t traced_ranks;
	int trace_partial;     /* truncated by the runtime, or by max_events here */
	struct an_wbin *wbins; /* POSIX, STDIO and MPI-IO write bins, loaded only without a trace */
	size_t nwbins;

	void *pool;		       /* counters of every record */
	struct an_phases_memo *phases; /* an_job_phases()'s, made by the loaders */
};

/* Loads job (id, start_time as the warehouse prints it) through conn. */
int an_load(PGconn *conn, const struct an_settings *set, int64_t id, const char *start_time,
	    struct an_job *job, struct ioa_buf *err);
void an_free(struct an_job *job);

/*
 * Loads the job of a log file (a user's report without a warehouse): the
 * same job as an_load() gives, read through the common reader.  Its id is
 * 0.  0, or -errno with err set (a log the reader refuses: its message).
 */
int an_load_log(const char *path, const struct an_settings *set, struct an_job *job,
		struct ioa_buf *err);

/* The file index of a record id, or -1 (files sorted by an_sort_files()). */
int32_t an_file_of(const struct an_job *job, uint64_t id);
void an_sort_files(struct an_job *job);

/*
 * An imported job's counters that were not recorded (-1, IOA_NOT_RECORDED;
 * float counters below 0) as 0, the analyses' "none": sums stay sums.  What
 * rests on ioatlas's own counters checks job->imported and says unknown.
 */
void an_unknown_counters(struct an_job *job);

/*
 * Bounds job->nprocs by the ranks the job's data holds (a log can claim
 * 2^31 - 1 ranks in a few bytes, and every per-rank table is sized by
 * nprocs): the entries of its rank-to-node map (map_len of them, in
 * job->rank_node; the runtime writes one per rank), or without a map the
 * ranks its records, failures, hints, time bins and trace events name, no
 * more than the items that name them.  A claim above that is kept in
 * nprocs_claimed.  Leaves rank_node NULL or nprocs entries long (-1: node
 * unknown).  0 or -ENOMEM.
 */
int an_bound_ranks(struct an_job *job, size_t map_len);

/* Expands a decoded trace into job's events (every rank it holds). */
struct ioa_trace;
int an_expand_trace(struct an_job *job, const struct an_settings *set, const struct ioa_trace *t);

/* One analysis: its result (an object) and a confidence in [0, 1]. */
struct an_analysis {
	const char *name;
	int version;
	const char *what;
	int (*run)(const struct an_job *job, const struct an_settings *set, json_object *result,
		   double *confidence);
};

extern const struct an_analysis an_analyses[];
extern const size_t an_nanalyses;

/* An analysis's result as stored and read back: {analysis, version, confidence, result}. */
json_object *an_result_entry(const struct an_analysis *a, double confidence, json_object *result);

/* The analyses (an_phases.c, an_files.c, an_ranks.c, an_insights.c). */
#define AN_ANALYSIS(fn)                                                                      \
	int fn(const struct an_job *job, const struct an_settings *set, json_object *result, \
	       double *confidence)
AN_ANALYSIS(an_checkpoints);
AN_ANALYSIS(an_amr);
AN_ANALYSIS(an_clients);
AN_ANALYSIS(an_aggregation);
AN_ANALYSIS(an_tempfiles);
AN_ANALYSIS(an_header_updates);
AN_ANALYSIS(an_access);
AN_ANALYSIS(an_insights);

/* ------------------------------------------------------------ helpers shared by the analyses */

/* Write phases: bursts of writes separated by quiet (shared by checkpoints and AMR). */
struct an_phase {
	double start, end;
	uint64_t bytes, ops;
	uint64_t *rank_bytes; /* per rank */
	uint64_t size_hist[10];
	size_t nfiles;
	int32_t *files; /* written in the phase */
};

struct an_phases {
	const char *source; /* "trace", "time bins" or "none" */
	size_t n;
	struct an_phase *p;
	double gap; /* the quiet that separated them */
	/*
	 * From time bins: their width, and whether they are too coarse to
	 * say which phase a tenth of the bytes or more belong to (bins that
	 * overlap two phases or none; or a phase over three bins or more (one
	 * and a half when the quiet between phases is under two), which may
	 * hide phases closer than that).
	 */
	double bin_width;
	int coarse;
};

int an_write_phases(const struct an_job *job, const struct an_settings *set, struct an_phases *out);
void an_phases_free(struct an_phases *ph);

/* A job's write phases, found at the first ask (an_job_phases()). */
struct an_phases_memo {
	int made, rc;
	double min_gap, min_gap_share, gap_ratio; /* the settings they were found with */
	struct an_phases ph;
};

/*
 * The job's write phases as an_write_phases() finds them, found once per
 * job and settings: the analyses that need them (checkpoints, amr,
 * header_updates) share them, and on a long trace finding them is most of
 * the analyses' time.  The job keeps them (an_free() frees them).  NULL
 * with *rc set (-ENOMEM; -EINVAL for a job no loader made).
 */
const struct an_phases *an_job_phases(const struct an_job *job, const struct an_settings *set,
				      int *rc);

/*
 * The job's I/O time, seconds summed over ranks: each layer's own
 * (POSIX, STDIO, MPI-IO; [read, write, metadata]) and their union, the
 * time the program spent in I/O whatever the layer.  An MPI-IO call's time
 * covers the POSIX calls it made on its file, so a file opened through
 * MPI-IO counts its MPI-IO time, and of its POSIX time only what exceeds
 * that (POSIX calls outside MPI-IO); STDIO and POSIX calls do not cover
 * each other.  From the counters, so it holds for every log, Darshan's
 * too; a time not recorded (negative) counts as none.
 */
enum { AN_READ, AN_WRITE, AN_META, AN_KINDS };
enum { AN_POSIX, AN_STDIO, AN_MPIIO, AN_LAYERS };
struct an_io_time {
	double layer[AN_LAYERS][AN_KINDS];
	double layer_total[AN_LAYERS]; /* each layer's own, all kinds */
	double kind[AN_KINDS];	       /* the union, by kind */
	double total;		       /* the union */
};

int an_io_time(const struct an_job *job, struct an_io_time *t);

/*
 * MPI start-up, seconds from the job's start: when the median rank's
 * MPI_Init (or MPI_Init_thread) returned, from the trace; 0 without it.
 * The launch and MPI_Init are neither I/O nor the program's compute: the
 * time scales the analyses judge by (an_run_seconds()) start after them.
 */
double an_mpi_startup(const struct an_job *job);

/* The job's run time after MPI start-up (at least a millisecond). */
double an_run_seconds(const struct an_job *job);

/* One record's seconds in its layer (an HDF5 dataset's too; 0 for a module without times). */
double an_record_io_time(const struct an_record *r);

/*
 * Whether a record's calls reached the file system themselves (POSIX and
 * STDIO): the layers above (MPI-IO, HDF5, PnetCDF) are counted again
 * beneath, and Lustre records hold no calls.
 */
static inline int an_fs_record(const struct an_record *r)
{
	return r->module == IOA_MOD_POSIX || r->module == IOA_MOD_STDIO;
}

/*
 * A record's reads, writes, bytes read and bytes written as its module
 * counts them (an HDF5 dataset's, a PnetCDF variable's too); zeros for a
 * module without them (H5F, PnetCDF files, Lustre).
 */
void an_record_rw(const struct an_record *r, int64_t rw[4]);

/*
 * Each event's epoch: the synchronizing collectives (Barrier, Allreduce,
 * Allgather(v), Alltoall(v,w), Reduce_scatter) its rank made before it,
 * when every rank that has events made as many of them; else all 0 (one
 * epoch: time alone orders the events).  An event of a later epoch
 * happened after every event of an earlier one, whatever the trace's
 * times say.  Events come rank by rank, in order.  malloc'd (nev + 1
 * entries), NULL without memory.
 */
uint32_t *an_epochs(const struct an_job *job);

/*
 * The trace rebuilds each rank's times from binned gaps and durations
 * (docs/log-format.md), which drift apart over a run, while a
 * synchronizing collective ends at one moment on every rank.  With the
 * ranks' epochs alike, each rank's events after its k-th such collective
 * move by (the median rank's end of it) - (its own end), and the
 * collective ends there: the ranks agree at every collective.  0 or
 * -ENOMEM.
 */
int an_align_at_collectives(struct an_job *job);

/* Darshan's ten size bins: the bin of a request of n bytes. */
unsigned an_size_bin(int64_t n);
extern const char *const an_size_bin_names[10];

/* Mean and coefficient of variation of n numbers (0 when n < 2 or the mean is 0). */
double an_cv(const double *v, size_t n, double *mean);

/* The median of n values (sorts v); 0 for none. */
double an_median(double *v, size_t n);

/* A number for JSON: non-finite values (which JSON cannot hold) as 0. */
json_object *an_num(double v);

/* "0-3,7,9-12" */
json_object *an_rank_list(const int32_t *ranks, size_t n);

/*
 * A finding (an_findings.h): its code, text, evidence object (NULL: an
 * empty one) and meaning, and the table's advice for the layer the job's
 * user writes to ("recommendation", and that layer as "advice_for").
 */
json_object *an_finding(const struct an_job *job, enum an_finding_id id, const char *text,
			json_object *evidence);

/* The layer the job's user writes to: the I/O library on top, else MPI-IO or POSIX. */
enum an_user_layer an_user_layer(const struct an_job *job);
extern const char *const an_user_layer_names[AN_USER_LAYERS];

#endif
