/*
 * kgen — an I/O kernel from a job's operation trace: a compact C program
 * (MPI, POSIX, STDIO, MPI-IO) that makes the job's I/O calls with its
 * compute gaps and synchronization, and none of its science
 * (papers/io-kernel-generation, papers/parallel-trace-replay).
 *
 * The runtime already folds each rank's calls into loops and gathers
 * ranks of one shape into groups.  The groups' top-level calls and loops
 * are merged into one sequence (kmerge, the paper's greedy merge): what
 * several groups do alike is written once for all their ranks, and each
 * run of items made by the same ranks becomes a function (a part): its
 * loops as loops, its calls as calls, each number (offset, length, peer,
 * file) an expression of the loop indices and of the rank: affine in rank,
 * or affine in the rank's (i, j, k) block of a 2-D or 3-D decomposition
 * found by trying the factorizations of the rank count, or else a table
 * per rank.  Calls MPI-IO makes on its own (ROMIO's POSIX sub-calls) are
 * left to MPI-IO.  Files get anonymous names (f0, f1, ... in the order the
 * ranks first use them) unless the names are asked for.
 */
#ifndef KGEN_H
#define KGEN_H

#include <stdint.h>
#include <stdio.h>

#include "ioa_buf.h"

/* The level a kernel replays a job that called HDF5 at. */
enum kgen_level {
	KGEN_AUTO,  /* HDF5's when the trace holds HDF5 calls, else MPI-IO's */
	KGEN_MPIIO, /* the MPI-IO and POSIX calls HDF5 made */
	KGEN_HDF5,  /* HDF5's calls: files, datasets, selections, transfer modes */
};

struct kgen_options {
	int keep_names; /* the job's file names instead of f0, f1, ... */
	int level;	/* enum kgen_level */
	/*
	 * A kernel longer than this (bytes of C; 0: no bound) is written as
	 * epochs instead (kgen_compact.c), as many as fit, when the job allows
	 * it and that is shorter.
	 */
	size_t max_size;
	unsigned epochs; /* > 0: as that many epochs, whatever its size */
};

/* The longest kernel ioatlas kernel gen and the nightly write before compacting it. */
#define KGEN_MAX_SIZE 40000
/* The most epochs a compact kernel is tried with. */
#define KGEN_EPOCHS_MAX 64
/* The line that says a kernel.c is compact, and in how many epochs. */
#define KGEN_EPOCHS_LINE "#define K_EPOCHS "

/* What kgen_log() made, for the caller to say. */
struct kgen_summary {
	unsigned ranks, groups, parts, calls, loops, tables, files, skipped;
	/*
	 * Over the ranks: the calls their traces kept exactly, and all they
	 * made.  A degraded or truncated trace keeps a prefix of each rank's
	 * calls; the kernel replays that prefix only (the summary of the rest
	 * has no order to replay).
	 */
	uint64_t calls_exact, calls_total;
	/*
	 * A compact kernel: its epochs (0: an exact kernel), the MPI calls it
	 * replays as the time they took, the stream calls it replays as totals
	 * and how many totals.
	 */
	unsigned epochs;
	uint64_t mpi_as_time, stdio_summed, stdio_totals;
	int hdf5;	    /* the kernel calls HDF5 (its Makefile must link it) */
	uint64_t *file_ids; /* the log's record id of each kernel file f<i> */
	/*
	 * The calls not replayed, by layer and name (as the log gives it, cut
	 * to 63 bytes): in how many places of the kernel each was left out.
	 */
	struct kgen_skip {
		const char *layer;
		char name[64];
		unsigned places;
	} * skips;
	unsigned nskips;
};

/* Frees what a summary holds. */
void kgen_summary_release(struct kgen_summary *sum);

/*
 * Writes the kernel of the log at path to out (C source).  0, or -errno
 * with err set (a log without a trace: -ENOENT).
 */
int kgen_log(const char *path, const struct kgen_options *o, FILE *out, struct kgen_summary *sum,
	     struct ioa_buf *err);

/*
 * The table of file names a kernel.c holds, as kgen_log() writes it: this
 * line, then one line per file i, a tab and a C string literal (octal
 * escapes only) and a comma, then the "unused" entry closing the table.
 */
#define KGEN_NAMES_HEAD "static const char *const names[NFILES + 1] = {\n"

/*
 * Calls fn for each file of the names table in src (len bytes of a
 * kernel.c): its index, the name's bytes, and where its line is in src.
 * 0, fn's non-zero return, or -EINVAL when src holds no table kgen wrote.
 */
int kgen_each_name(const char *src, size_t len,
		   int (*fn)(size_t index, const struct ioa_buf *name, size_t line_off,
			     size_t line_len, void *arg),
		   void *arg);

#endif
