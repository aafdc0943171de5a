/*
 * ioa_trace — the operation trace as stored in a log's trace region
 * (IOA_REGION_TRACE): its encoding, shared by the runtime that writes it
 * and the tools that read it.  docs/log-format.md describes the bytes.
 *
 * A rank's trace is a tree: leaves are calls, loops repeat a body of nodes
 * a number of times.  It is kept as three streams so that ranks doing the
 * same thing can share one copy:
 *
 *   shape   what does not vary between such ranks: the call names, the
 *           signature table (call, module, flags, errno), the tree of loops
 *           and leaves, and how each leaf's numbers are modelled;
 *   values  the numbers: per leaf and per number (offset, length, aux,
 *           slot) a base and one stride per enclosing loop (affine) or,
 *           where no stride fits, the explicit list; the file ids and
 *           communicators the slots refer to; the rank's event counts and
 *           start time;
 *   times   per leaf, the distribution of its durations and of the gaps
 *           before it, in log-spaced bins (IOA_TRACE_BIN_ERROR), and the
 *           order of its gaps: which executions took the long ones.
 *
 * A group is a set of ranks with one shape: each value position is either
 * a*rank + b for all of them or a per-rank table.  The ranks of a group
 * share their time distributions; each keeps its own totals of compute,
 * synchronization and I/O time (header values), to which its expanded
 * times are scaled.  A rank's trace region
 * holds one group of one rank; at MPI shutdown rank 0 merges them
 * (ioa_trace_regroup()) so that identical ranks are stored once.
 *
 * Readers never trust the bytes: every count is checked against what is
 * left, nesting is bounded, loops must hold calls, the calls a tree
 * expands to are counted (checked) before any is given back, and
 * expansion refuses trees larger than the rank's recorded event count or
 * the caller's bound.
 */
#ifndef IOA_TRACE_H
#define IOA_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "ioa_buf.h"
#include "ioa_counters.h" /* enum ioa_module */

/*
 * Written: 6 (communicators' leaders; MPI_File_open's communicator).  Read:
 * 2 to 6.
 */
#define IOA_TRACE_VERSION 6u
/* The numbers kept per communicator since version 6 (size, rank, leader); 2 before. */
#define IOA_TRACE_COMM_VALUES 3

/*
 * Numbers kept per call: file offset (MPI: peer or root), length in bytes,
 * aux, and the slot: the index of the call's file (MPI: communicator), -1
 * for none.  The slot is a number like the others so that a loop over
 * files (a file per step, per rank, per checkpoint) folds like a loop over
 * offsets.
 */
#define IOA_TRACE_NVALUES 4
#define IOA_TRACE_SLOT	  3

/* Leaf numbers stay affine through this many nested loops; deeper, explicit. */
#define IOA_TRACE_MAX_DEPTH 8

/* Signature flags. */
#define IOA_TR_FAILED 0x01u /* the call failed: err is its errno (MPI: error class) */
#define IOA_TR_SUB    0x02u /* POSIX call made inside an MPI-IO call: aux is that call's id */
#define IOA_TR_CREATE 0x04u /* the call created the file */
#define IOA_TR_REMOVE 0x08u /* the call removed the file (unlink, rmdir, rename source) */
#define IOA_TR_READ   0x10u
#define IOA_TR_WRITE  0x20u
#define IOA_TR_HINTS  0x40u /* MPI_File_open: err is the string index of its hints */
#define IOA_TR_ID     0x80u /* MPI-IO call: aux is its id, which sub-calls refer to */
/*
 * Made inside an HDF5 call, which is traced after it (version 5): a kernel
 * at HDF5's level leaves these to the library, one at MPI-IO's replays
 * them and leaves out the HDF5 calls.
 */
#define IOA_TR_UNDER 0x100u

/* The module of MPI communication and synchronization calls (their slot: a communicator). */
#define IOA_TRACE_MPI 255u

/* Trace flags (a rank's header value). */
#define IOA_TRF_TRUNCATED 0x1u /* the budget ran out: the trace stops at events_traced */
#define IOA_TRF_LOST	  0x2u /* the trace could not be kept at all */
#define IOA_TRF_SUMMARY \
	0x4u /* the grammar stopped: the calls after the exact ones are summarised */

/* The largest relative error of a time read back from its bin (16 bins per octave). */
#define IOA_TRACE_BIN_ERROR 0.03125

/*
 * A call's gaps keep their order in at most this many segments of its
 * executions (each with its mean gap): exactly, execution by execution, for
 * a call made up to this many times; in runs of executions beyond.
 */
#define IOA_TRACE_ORDER_SEGS 64

/* Header values, in this order, at the start of every rank's values. */
enum ioa_trace_header {
	IOA_TRH_EVENTS_TOTAL, /* calls seen while the trace ran */
	IOA_TRH_EVENTS_TRACED,
	IOA_TRH_START_TICKS, /* start of the first event, ticks from start-up */
	IOA_TRH_FLAGS,
	IOA_TRH_COMPUTE_TICKS, /* sum of the gaps before traced calls that are not sub-calls */
	IOA_TRH_SYNC_TICKS,    /* sum of the durations of MPI calls */
	IOA_TRH_IO_TICKS,      /* sum of the durations of I/O calls (sub-calls aside) */
	IOA_TRH_COUNT
};

/* The bin of a time in ticks, and the time a bin stands for. */
static inline unsigned ioa_trace_bin(uint64_t ticks)
{
	int msb;

	if (ticks < 32)
		return (unsigned)ticks;
	msb = 63 - __builtin_clzll(ticks);
	return 32u + (unsigned)(msb - 5) * 16u + (unsigned)((ticks >> (msb - 4)) & 15u);
}

double ioa_trace_bin_ticks(unsigned bin);

/* The summary's bin of an offset or a size: 0 for v <= 0, else k for 2^(k-1) <= v < 2^k. */
static inline unsigned ioa_trace_log2_bin(int64_t v)
{
	return v <= 0 ? 0u : 64u - (unsigned)__builtin_clzll((uint64_t)v);
}

/* Varints: LEB128, zig-zag for signed numbers.  ioa_uvar_put writes at most 10 bytes. */
size_t ioa_uvar_put(unsigned char *out, uint64_t v);
int ioa_enc_uvar(struct ioa_buf *b, uint64_t v);
int ioa_enc_svar(struct ioa_buf *b, int64_t v);

struct ioa_cursor;
uint64_t ioa_cursor_uvar(struct ioa_cursor *c);
int64_t ioa_cursor_svar(struct ioa_cursor *c);

/* One group of ranks sharing a shape. */
struct ioa_trace_group {
	uint32_t nranks;
	uint32_t *ranks; /* ascending */
	double ns_per_tick;
	unsigned char *shape;
	size_t shape_len;
	size_t nvalues;
	unsigned char *kind; /* per value position: 0 a*rank+b, 1 per-rank table */
	int64_t *a, *b;	     /* kind 1: b is the position's first entry in table */
	int64_t *table;
	size_t table_len;
	unsigned char *times;
	size_t times_len;
	uint32_t version; /* the trace's */
};

struct ioa_trace {
	size_t ngroups;
	struct ioa_trace_group *groups;
};

/*
 * Decodes a trace region's bytes, appending its groups to t.  0, -EINVAL
 * (malformed: nothing appended) or -ENOMEM.
 */
int ioa_trace_decode(struct ioa_trace *t, const void *raw, size_t len);

/* Encodes t as a trace region's bytes. */
int ioa_trace_encode(const struct ioa_trace *t, struct ioa_buf *out);

/* Merges the groups of t that share a shape (ranks must be distinct). */
int ioa_trace_regroup(struct ioa_trace *t);

void ioa_trace_free(struct ioa_trace *t);

/* The group holding rank, or NULL. */
const struct ioa_trace_group *ioa_trace_find(const struct ioa_trace *t, uint32_t rank);

/* Value position pos for rank in group g. */
int64_t ioa_trace_value(const struct ioa_trace_group *g, uint32_t rank, size_t pos);

struct ioa_trace_sig {
	const char *name; /* the call, NUL-terminated */
	unsigned module;  /* enum ioa_module, or IOA_TRACE_MPI */
	unsigned flags;	  /* IOA_TR_* */
	int err;
};

/* An HDF5 call (version 5): traced after the calls it made underneath (IOA_TR_UNDER). */
static inline int ioa_trace_layer_call(const struct ioa_trace_sig *sig)
{
	return sig->module == IOA_MOD_H5F || sig->module == IOA_MOD_H5D;
}

/* How one of a leaf's numbers is modelled. */
struct ioa_trace_model {
	int explicit_list;
	unsigned nstrides;		     /* affine: one per enclosing loop, innermost first */
	int64_t base;			     /* affine */
	int64_t stride[IOA_TRACE_MAX_DEPTH]; /* affine */
	const int64_t *list;		     /* explicit: one per execution */
	uint64_t n;			     /* explicit */
};

/*
 * The values a model takes inside loops of counts (innermost first, one per
 * stride): the first and last (every index at its start, at its end), the
 * least and greatest, and the gcd of the steps between them (0: one value).
 */
struct ioa_trace_span {
	int64_t first, last, lo, hi;
	uint64_t step;
};

/* 0, or -ERANGE when a value would overflow (a corrupt model). */
int ioa_trace_model_span(const struct ioa_trace_model *m, const uint64_t *counts,
			 struct ioa_trace_span *out);

/* A histogram of times: bins (ioa_trace_bin) and their counts, bins ascending. */
struct ioa_trace_hist {
	uint32_t n;
	const uint16_t *bin;
	const uint64_t *count;
};

/* The mean time of a histogram, in ticks (0 when empty). */
double ioa_trace_hist_mean(const struct ioa_trace_hist *h);

/*
 * The order of a call's gaps: its executions in segments, in the order it
 * made them, each with the mean gap before them (ticks).  n is 0 when the
 * trace kept no order (the gaps are spread over the executions evenly).
 */
struct ioa_trace_order {
	uint32_t n;
	const uint64_t *execs;
	const double *mean;
};

struct ioa_trace_leaf {
	const struct ioa_trace_sig *sig;
	struct ioa_trace_model model[IOA_TRACE_NVALUES];
	struct ioa_trace_hist dur, gap;
	struct ioa_trace_order order;
};

struct ioa_trace_comm {
	int64_t size, rank; /* the communicator's size and this rank's rank in it */
	int64_t leader;	    /* the world rank of its rank 0 (version 6), else -1 */
};

/* One expanded call. */
struct ioa_trace_event {
	uint64_t seq; /* 0, 1, ... in the rank's order */
	const struct ioa_trace_sig *sig;
	int64_t offset, length, aux;
	int64_t slot;	 /* index into files (I/O) or comms (MPI), -1 for none */
	double start;	 /* seconds from the runtime's start-up */
	double duration; /* seconds */
	double gap;	 /* seconds since the previous call ended: compute time */
};

/*
 * What a degraded trace (IOA_TRF_SUMMARY) keeps of the calls after its
 * exact ones (header EVENTS_TRACED up to EVENTS_TOTAL): counts, not order.
 */
struct ioa_trace_sum_sig {
	int64_t sig; /* index into the rank's signatures; -1: calls it had no room to name */
	uint64_t calls;
};

struct ioa_trace_sum_file {
	int64_t slot; /* index into the rank's files; -1: I/O calls without one */
	uint64_t reads, writes, others, bytes_read, bytes_written;
};

struct ioa_trace_sum_bin {
	uint64_t bin, count;
};

struct ioa_trace_summary {
	uint64_t calls; /* the sum of the signatures' counts */
	uint32_t nsigs, nfiles;
	struct ioa_trace_sum_sig *sigs;
	struct ioa_trace_sum_file *files;
	/*
	 * Histograms, bins ascending, all ioa_trace_log2_bin(): offsets and
	 * sizes of I/O calls, times from one call's start to the next's and
	 * gaps before calls (in ticks).
	 */
	uint32_t noffsets, nsizes, narrivals, ngaps;
	struct ioa_trace_sum_bin *offsets, *sizes, *arrivals, *gaps;
};

/* One rank's trace, opened for walking. */
struct ioa_trace_rank {
	uint32_t rank;
	const struct ioa_trace_group *group;
	int64_t header[IOA_TRH_COUNT];
	uint32_t nsigs;
	struct ioa_trace_sig *sigs;
	uint32_t nfiles;
	uint64_t *files; /* record ids */
	uint32_t ncomms;
	struct ioa_trace_comm *comms;
	uint32_t nstrings;
	const char **strings;
	uint64_t calls; /* the calls the tree expands to: the sum of its calls' executions */
	int summarised; /* the summary below is present (IOA_TRF_SUMMARY) */
	struct ioa_trace_summary summary;
	/* private: the parsed tree */
	struct ioa_trace_tnode *nodes;
	size_t nnodes;
	int64_t *vals;
	uint64_t *hist_counts;
	uint16_t *hist_bins;
	uint64_t *ord_execs, *ord_pos, *ord_step; /* per segment of the calls' orders */
	double *ord_mean;
};

/*
 * Opens rank's trace (0, -ENOENT when not traced, -EINVAL, -ENOMEM).  A
 * tree whose loops hold no call, or whose call count overflows 64 bits, is
 * malformed (-EINVAL): every loop iteration then makes at least one call,
 * so walking and expanding cost no more than the calls they give back.
 */
int ioa_trace_rank_open(const struct ioa_trace *t, uint32_t rank, struct ioa_trace_rank *r);
void ioa_trace_rank_close(struct ioa_trace_rank *r);

/* The compressed view: loops as loops. */
struct ioa_trace_visitor {
	int (*loop_begin)(void *arg, unsigned depth, uint64_t count);
	int (*loop_end)(void *arg, unsigned depth);
	int (*leaf)(void *arg, unsigned depth, const struct ioa_trace_leaf *leaf);
};

/* Walks the tree; a callback's non-zero return stops the walk and is returned. */
int ioa_trace_walk(const struct ioa_trace_rank *r, const struct ioa_trace_visitor *v, void *arg);

/*
 * Trees that expand to more calls than this have their times scaled from
 * the distributions' means rather than by a first pass over every call:
 * expansion then costs the calls actually given back, however many the
 * tree holds (a callback that returns non-zero stops it).
 */
#define IOA_TRACE_EXACT_SCALING (1u << 22)

/*
 * The expanded view: every call in order.  Numbers are exact; times come
 * from the distributions (each within IOA_TRACE_BIN_ERROR of a time the
 * call's loop body took; gaps in the order the call's order keeps, the
 * long ones where they were long), scaled so that the rank's compute,
 * synchronization and I/O totals are its own.  Refuses before any call,
 * with -EINVAL when the tree expands to more calls than the rank's traced
 * event count (a malformed trace), and with -E2BIG when it expands to more
 * than max_calls (r->calls says how many): a caller that keeps every call
 * bounds what it keeps; one whose callback stops early may pass
 * UINT64_MAX.  A callback's non-zero return stops and is returned.
 */
int ioa_trace_expand(const struct ioa_trace_rank *r, uint64_t max_calls,
		     int (*fn)(void *arg, const struct ioa_trace_event *e), void *arg);

#endif
