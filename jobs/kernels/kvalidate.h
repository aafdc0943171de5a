/*
 * kvalidate — proves a kernel faithful: builds it (make, MPICC), makes its
 * inputs (--prepare), runs it under the runtime with the job's rank count,
 * and compares its log with the job's, file by file (the kernel's f<i>
 * against the job's file it stands for) and counter by counter: operation
 * counts, bytes, access-size histograms, sequential and consecutive counts,
 * offsets.  Also the replay time error, (job time - kernel time) / job time.
 */
#ifndef KVALIDATE_H
#define KVALIDATE_H

#include <stdint.h>
#include <stdio.h>

#include "ioa_buf.h"

struct kvalidate_options {
	const char *runtime; /* libioatlas.so to preload */
	const char *mpiexec; /* NULL: mpiexec.mpich, else mpiexec */
	int timeout;	     /* seconds for each step */
	const char *mode;    /* the kernel's --mode (NULL: causal) */
	int progress;	     /* the kernel's run on the progress line (no other one drawn) */
	/*
	 * The kernel's --bytes-scale (0 or 1: none).  Scaled, a replay's counts
	 * of calls must still be the job's, its bytes (and furthest offsets)
	 * the job's times the scale within a byte a call; the access sizes and
	 * the counters of order that rounding moves are not compared.
	 */
	double bytes_scale;
};

struct kvalidate_result {
	int differ;	   /* a counter differs (each said on the report) */
	unsigned skipped;  /* places of the kernel where a call is not replayed */
	unsigned records;  /* the job's records compared */
	unsigned counters; /* counters compared */
	unsigned ranks, files;
	int64_t bytes_read, bytes_written; /* the job's (POSIX and STDIO) */
	double job_seconds, kernel_seconds, time_error;
};

/*
 * Validates the kernel in dir (from `ioatlas kernel gen`) against log; runs
 * in dir/run.  0 (see res->differ), or -errno with err set when a step
 * failed (the kernel does not build, run, or leave a log).
 */
int kvalidate(const char *dir, const char *log, const struct kvalidate_options *o, FILE *report,
	      struct kvalidate_result *res, struct ioa_buf *err);

/* A what-if replay: the change, as the kernel's own options. */
#define KVALIDATE_WHATIF_RUNS 15
struct kvalidate_whatif {
	char *const *change; /* e.g. {"--hint", "cb_buffer_size=4096", NULL} */
	int runs;	     /* of each, alternating (at most KVALIDATE_WHATIF_RUNS) */
};

struct kvalidate_whatif_result {
	double base[KVALIDATE_WHATIF_RUNS], changed[KVALIDATE_WHATIF_RUNS]; /* seconds */
	double base_median, changed_median;
	int runs;
};

/*
 * What-if: builds the kernel in dir afresh, then runs it alternately as the
 * job ran and with w->change, w->runs times each (o->mode, o->mpiexec,
 * o->timeout a step; not under the runtime), each run in a fresh data
 * folder under dir/whatif made by the kernel's --prepare first; the seconds
 * of each run (the kernel's --time-file: all ranks' start to their end)
 * and their medians in res.  0, or -errno with err set.
 */
int kvalidate_whatif(const char *dir, const struct kvalidate_options *o,
		     const struct kvalidate_whatif *w, FILE *report,
		     struct kvalidate_whatif_result *res, struct ioa_buf *err);

#endif
