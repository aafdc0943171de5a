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

#endif
