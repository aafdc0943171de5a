/*
 * kgen_int — what the generator's files share, for them only: a rank's
 * trace as walked (its nodes), the state of one generation (struct gen), a
 * part's function being written (struct gfun), and the functions one file
 * gives the others.  kgen.c reads the log and writes the program;
 * kgen_parts.c walks the groups' traces and merges them into parts;
 * kgen_calls.c writes one call; kgen_rank.c writes a number as an
 * expression of the rank; kgen_text.c holds the helpers every kernel
 * carries.
 */
#ifndef KGEN_INT_H
#define KGEN_INT_H

#include <stdint.h>
#include <stdio.h>

#include "ioa_buf.h"
#include "ioa_trace.h"
#include "kgen.h"
#include "kmerge.h"

#define REGION_CAP	 ((size_t)1 << 30)
#define MAX_DEPTH	 IOA_TRACE_MAX_DEPTH
#define KGEN_ORDER_FLOOR 1e-4 /* seconds: gaps in order closer than this replay as their mean */

/* One node of a rank's tree, as walked. */
struct node {
	int kind; /* 0 loop, 1 end of loop, 2 call */
	unsigned depth;
	uint64_t count;
	const struct ioa_trace_sig *sig;
	struct ioa_trace_model model[IOA_TRACE_NVALUES];
	double gap, dur;	      /* mean seconds */
	struct ioa_trace_order order; /* of the gaps (the rank's trace stays open) */
};

struct walked {
	struct node *n;
	size_t len, cap;
	double spt; /* seconds per tick */
	int hdf5;   /* the kernel calls HDF5 (kgen_options.level) */
};

/* The kernel's file numbers: record id -> f<number>, in the order ranks first use them. */
struct files {
	uint64_t *id;
	size_t n, cap;
};

struct gen {
	FILE *out;
	const struct kgen_options *o;
	struct kgen_summary *sum;
	struct ioa_trace t;
	struct files files;
	uint32_t *file_ranks; /* per kernel file: the ranks that use it */
	uint64_t *file_mark;  /* per kernel file: the last rank counted, + 1 */
	/*
	 * per kernel file: a rank's first call on it removed it (an old output
	 * deleted first: it was there before the job)
	 */
	unsigned char *removed_first;
	size_t cap_file_ranks; /* of the three above */
	/* per rank (NULL until it has a call on a file): its file slots that had a call */
	unsigned char **touched;
	uint32_t nprocs;
	/*
	 * files the job read, record id -> size, and those a record says the
	 * job created (size K_MADE): inputs are the files read and never made
	 */
	uint64_t *input_id;
	int64_t *input_size;
	size_t ninputs;
	/* the kernel calls HDF5; its files' access properties and datasets' files */
	int hdf5;
	struct h5rec {
		uint64_t id;
		int module;
		int64_t v[4]; /* H5F: MPI-IO driver, collective metadata, alignment; H5D: file id */
	} * h5;
	size_t nh5;
	/* names of the log (record id -> name), for --keep-names */
	uint64_t *name_id;
	char **name;
	size_t nnames;
	/* why the kernel's numbers hold for its rank count only (NULL: any count) */
	const char *tied;
	/* the ranks' compute before their first call (their traces' start), summed */
	double start_sum;
	uint32_t start_n;
	/* the longest transfer (I/O or MPI bytes), the buffer made before the run */
	int64_t max_transfer;
	/* the file tables written so far (their rows and dimensions), for parts to share */
	char **ftab;
	size_t nftab;
	int failed;
};

/*
 * Emits the expression of one number of a call (value pos of node k) over
 * the group's ranks: base and strides, each fitted, or tables.  out gets
 * text; tables go to the file before the function (prelude).
 */
struct gfun {
	struct gen *g;
	unsigned id;
	struct walked *w; /* per rank in the group */
	const uint32_t *ranks;
	uint32_t m;
	struct ioa_buf pre, body;
	unsigned ntables;
	int files_shared;  /* every rank's slots name the same kernel files: one row */
	unsigned files_id; /* the table FILE_OF reads: files<files_id> */
	double carry;	   /* gap of calls not replayed, for the next call */
	/* the counts of the loops open at the node being written, by depth */
	uint64_t loops[IOA_TRACE_MAX_DEPTH];
	struct ioa_trace_rank *const *tr; /* per rank in the group: its trace (its files) */
};

/* One function of the kernel: a run of items that the same ranks make together. */
struct part {
	uint32_t *ranks; /* ascending */
	uint32_t m;
};

/* kgen.c */
void kgen_put(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The file's kernel number (added in order of first use), or -1 out of memory. */
int kgen_file_number(struct files *f, uint64_t id);

/* kgen_parts.c */
/* A zeroed node at the end of w, or NULL out of memory. */
struct node *kgen_push_node(struct walked *w);
/* FNV-1a of n bytes, on from h (0xcbf29ce484222325 to start). */
uint64_t kgen_fnv(uint64_t h, const void *p, size_t n);
/* Writes the groups' parts (their functions); the parts' ranks in *parts, for run(). */
int kgen_emit_parts(struct gen *g, struct part **parts, size_t *nparts);
/* The step between ranks (ascending) when they are evenly spaced, else 0. */
uint32_t kgen_rank_step(const uint32_t *ranks, uint32_t m);
/* Numbers the files in the order the ranks first use them, and counts each file's ranks. */
int kgen_count_files(struct gen *g, const uint32_t *ranks, const struct ioa_trace_rank *tr,
		     uint32_t n);
/*
 * Per rank of the part: its slots' kernel file numbers, as a table
 * files<p>[G][slot] (one row when they are the same for every rank).
 */
int kgen_file_table(struct gfun *f, struct ioa_trace_rank *const *tr);

/* What a traced call becomes in a kernel (kgen_calls.c). */
enum callkind {
	K_SKIP,
	K_SELF, /* made by the kernel itself, in its place (MPI_Init) */
	K_OPEN,
	K_CREAT,
	K_CLOSE,
	K_WRITE,
	K_PWRITE,
	K_READ,
	K_PREAD,
	K_LSEEK,
	K_FSYNC,
	K_FDATASYNC,
	K_STAT,
	K_FSTAT,
	K_UNLINK,
	K_REMOVE,
	K_RMDIR,
	K_MKDIR,
	K_ACCESS,
	K_FTRUNCATE,
	K_FOPEN,
	K_FCLOSE,
	K_FWRITE,
	K_FREAD,
	K_FSEEK,
	K_FFLUSH,
	K_FTELL,
	K_FILENO, /* a stream's descriptor asked: an open in POSIX's counters, as Darshan's */
	K_DUP,	  /* another descriptor on a file's open description */
	K_FCNTL,  /* fcntl: a duplicate, or the file set to append or not (F_SETFL) */
	K_MOPEN,
	K_MCLOSE,
	K_MSYNC,
	K_MSETSIZE,
	K_MSEEK,
	K_MGETSIZE,
	K_MRW,
	K_BARRIER,
	K_BCAST,
	K_ALLREDUCE,
	K_REDUCE,
	K_SEND,
	K_RECV,
	K_SENDRECV,
	K_ALLGATHER,
	K_ALLTOALL,
	K_GATHER,
	K_GATHERV,
	K_SCATTER,
	K_SCATTERV,
	K_ALLGATHERV,
	K_SCAN,
	K_EXSCAN,
	K_ISEND,
	K_IRECV,
	K_WAIT,
	K_WAITALL,
	K_COMM_SPLIT,
	K_COMM_DUP,
	K_COMM_CREATE,
	K_VIEW_TYPE,
	K_VIEW_DIM,
	K_VIEW_RUN,
	K_MSETVIEW,
	K_H5FCREATE,
	K_H5FOPEN,
	K_H5DIM,
	K_H5DCREATE,
	K_H5DOPEN,
	K_H5SEL,
	K_H5BLOCK,
	K_H5RW,
	K_H5FLUSH,
	K_H5CLOSE,
};

/* kgen_calls.c */
/* What the kernel makes of a traced call: an enum callkind. */
int kgen_call_kind(const struct ioa_trace_sig *sig);
/* One more place a call (layer, name) is left out in. */
int kgen_note_skip(struct kgen_summary *sum, const char *layer, const char *name);

/* kgen_compact.c */
/*
 * Writes the kernel as epochs (at most epochs of them): its ranks' texts,
 * one part per text; -ENOTSUP for a job a compact kernel cannot replay
 * (MPI-IO or HDF5 calls, ranks without common collectives to end epochs
 * at), -E2BIG past its events' bound.
 */
int kgen_emit_compact(struct gen *g, unsigned epochs, struct part **parts, size_t *nparts);
/* Writes node k of the part's walk (a call) at indent, or notes it left out. */
int kgen_emit_call(struct gfun *f, size_t k, const char *indent);
/* The one way text from a log enters a kernel: len bytes as a C string literal. */
int kgen_literal(struct ioa_buf *b, const unsigned char *s, size_t len);

/* kgen_rank.c */
/* Value pos of node k over the part's ranks, as a C expression into out (tables to f->pre). */
int kgen_number(struct gfun *f, size_t k, unsigned pos, struct ioa_buf *out);
/* The executions node k's lists hold: its loops' passes, or a rank's longer list. */
uint64_t kgen_list_len(const struct gfun *f, size_t k);
/* The least and greatest values pos of node k takes at the part's ranks. */
void kgen_value_bounds(const struct gfun *f, size_t k, unsigned pos, int64_t *lo, int64_t *hi);
/*
 * Calls fn with each value pos of node k takes at the part's i-th rank,
 * each once or more, none of them dropped (a loop whose stride is 0 for pos
 * is not walked); stops at the first fn that does not return 0.
 */
int kgen_each_value(const struct gfun *f, size_t k, uint32_t i, unsigned pos,
		    int (*fn)(void *arg, int64_t v), void *arg);
/* The greatest value pos of node k takes at the part's ranks (0 at least). */
int64_t kgen_max_value(const struct gfun *f, size_t k, unsigned pos);

/* kgen_text.c: the kernel's headers, helpers (HDF5's too; NULL-ended) and main(). */
extern const char kgen_includes[];
extern const char *const kgen_prologue[];
extern const char *const kgen_prologue_h5[];
extern const char kgen_epilogue[];
/*
 * Writes the tables (head) and helpers that the kernel's other text
 * (nused strings) uses, and those they use; the others are left out.
 */
int kgen_put_helpers(struct gen *g, const char *head, const char *const *used, size_t nused);

#endif
