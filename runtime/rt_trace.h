/*
 * rt_trace — the per-rank operation trace: every intercepted I/O call and
 * every MPI call that communicates or synchronizes, compressed online into
 * loops as it is recorded (what it holds and how it is stored:
 * common/ioa_trace.h; how it is built: docs/runtime.md).
 *
 * Calls are appended to a small buffer of raw events under the runtime
 * lock; when it fills, the events are folded into a tree of loops:
 * identical call signatures share a table entry, a repeated sequence of up
 * to RT_TRACE_WINDOW nodes becomes a loop, a leaf's offset, length and aux
 * become base + stride per loop level (or an explicit list where no stride
 * fits), and its durations and the gaps before it become histograms.
 * Nodes that left the window can no longer fold and are serialised out.
 *
 * All of it lives in a pool carved from the runtime's arena (setting
 * `trace`, 2 MiB by default).  When the folding stops paying (the pool
 * grows by more than a few bytes a call, or runs low) the trace degrades:
 * the tree is written out, the rest of the pool keeps the next calls
 * exactly (a window, 24 bytes a call), and every call after that only
 * adds to a summary (IOA_TRF_SUMMARY): counts per call and file,
 * histograms of offsets, sizes and times.  Counters go on, exact.
 * Functions expect the runtime lock unless said otherwise.
 */
#ifndef RT_TRACE_H
#define RT_TRACE_H

#include <stdint.h>

#include "ioa_counters.h"
#include "ioa_trace.h" /* IOA_TR_* flags */

struct rt_record;
struct ioa_log_writer;

/* The longest loop body the folding looks for, in nodes. */
#define RT_TRACE_WINDOW 32

/* Carves the trace's pool from the arena (budget 0: no trace).  0 or -ENOMEM. */
int rt_trace_init(uint64_t budget);

/* An id for an MPI-IO call (struct rt_thread's trace_parent); needs no lock. */
uint64_t rt_trace_next_id(void);

/* Takes the trace's state from rt_live (a spill mapped to be recovered). */
void rt_trace_adopt(void);

/*
 * An I/O call on rec (NULL: nothing is traced); flags IOA_TR_*, times from
 * rt_now().  Inside an MPI-IO call (rt_self()->trace_parent set) aux becomes the
 * call's id: an MPI-IO event's own, a POSIX event's parent.
 */
void rt_trace_io_on(const char *op, enum ioa_module module, struct rt_record *rec, unsigned flags,
		    int64_t offset, int64_t length, int64_t aux, int err, double t0, double t1);

/* The trace takes calls (it is on, and not finished): the calls' test, inline. */
extern int rt_tracing;

static inline void rt_trace_io(const char *op, enum ioa_module module, struct rt_record *rec,
			       unsigned flags, int64_t offset, int64_t length, int64_t aux, int err,
			       double t0, double t1)
{
	if (rt_tracing && rec)
		rt_trace_io_on(op, module, rec, flags, offset, length, aux, err, t0, t1);
}

/*
 * A run of n POSIX calls op on rec (rt_posix's queue), made outside any
 * MPI-IO or HDF5 call: the i-th at offset + i * length, its times at
 * t0 + i * step and t1 + i * step bytes.
 */
void rt_trace_run_on(const char *op, struct rt_record *rec, unsigned flags, int64_t offset,
		     int64_t length, uint32_t n, const double *t0, const double *t1, size_t step);

static inline void rt_trace_run(const char *op, struct rt_record *rec, unsigned flags,
				int64_t offset, int64_t length, uint32_t n, const double *t0,
				const double *t1, size_t step)
{
	if (rt_tracing && rec)
		rt_trace_run_on(op, rec, flags, offset, length, n, t0, t1, step);
}

/*
 * A layer's call (HDF5: module IOA_MOD_H5F or IOA_MOD_H5D), traced after
 * it returned, so after the calls it made underneath; mark is
 * rt_trace_mark() taken before it began: its gap is the compute from the
 * program's last own call.  It counts in none of the rank's totals (the
 * calls underneath do).  The trace's on is tested here.
 */
uint64_t rt_trace_mark(void);
void rt_trace_layer(const char *op, enum ioa_module module, struct rt_record *rec, unsigned flags,
		    int64_t offset, int64_t length, int64_t aux, int err, double t0, double t1,
		    uint64_t mark);

/* The hints given at an MPI_File_open, as an aux value (0 when none fit). */
int64_t rt_trace_hints(const char *hints);

/*
 * An MPI call on communicator slot comm (RT_TRACE_NO_COMM for none): peer
 * or root in offset, bytes in length, tag, request slot or new
 * communicator in aux.
 */
#define RT_TRACE_NO_COMM UINT32_MAX
void rt_trace_mpi(const char *op, uint32_t comm, unsigned flags, int err, int64_t offset,
		  int64_t length, int64_t aux, double t0, double t1);

/*
 * The slot of a communicator (handle as an integer), registered with its
 * size, this rank's rank and its leader (the world rank of its rank 0, -1
 * when not known).  fresh: a communicator already registered under the
 * handle with another size, rank or leader is a new one (MPI hands a freed
 * communicator's handle out again) and gets a slot of its own.
 */
uint32_t rt_trace_comm(int64_t handle, int size, int rank, int leader, int fresh);
/* The slot of a known communicator, or RT_TRACE_NO_COMM. */
uint32_t rt_trace_comm_find(int64_t handle);
/* This rank's rank in communicator slot comm (0 when unknown). */
int rt_trace_comm_rank(uint32_t comm, int *size);

/* Request slots tie non-blocking calls to their waits: the lowest free slot. */
int64_t rt_trace_request_new(int64_t handle);
/* The slot of a request, which is released; -1 when unknown. */
int64_t rt_trace_request_done(int64_t handle);

/*
 * At shutdown, recording stopped: folds what is buffered and appends this
 * rank's group to t (malloc'd; the pool is left as it was).
 */
int rt_trace_group(struct ioa_trace *t, double ns_per_tick);

/*
 * At shutdown, before rt_trace_group() or rt_trace_pack(): the trace's
 * calls move by ticks, from this process's start to the job's (rt_clock.h).
 */
void rt_trace_shift(uint64_t ticks);

/* At shutdown: this rank's trace as a trace region of w. */
int rt_trace_pack(struct ioa_log_writer *w, double ns_per_tick);

#endif
