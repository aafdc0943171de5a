/*
 * kgen — an I/O kernel from a job's operation trace (see kgen.h).
 */
#define _GNU_SOURCE
#include "kgen.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_counters.h"
#include "ioa_logfmt.h"
#include "ioa_logr.h"
#include "ioa_trace.h"
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
	size_t cap_file_ranks;
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
	/* the file tables written so far (their rows and dimensions), for parts to share */
	char **ftab;
	size_t nftab;
	int failed;
};

static void put(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct gen *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vfprintf(g->out, fmt, ap) < 0)
		g->failed = 1;
	va_end(ap);
}

static int file_number(struct files *f, uint64_t id)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->id[i] == id)
			return (int)i;
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 64;
		uint64_t *more = realloc(f->id, cap * sizeof(*more));

		if (!more)
			return -1;
		f->id = more;
		f->cap = cap;
	}
	f->id[f->n] = id;
	return (int)f->n++;
}

/* ------------------------------------------------------------ walking */

static struct node *push(struct walked *w)
{
	if (w->len == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 64;
		struct node *more = realloc(w->n, cap * sizeof(*more));

		if (!more)
			return NULL;
		w->n = more;
		w->cap = cap;
	}
	memset(&w->n[w->len], 0, sizeof(w->n[0]));
	return &w->n[w->len++];
}

static int on_loop_begin(void *arg, unsigned depth, uint64_t count)
{
	struct node *n = push(arg);

	if (!n)
		return -ENOMEM;
	n->kind = 0;
	n->depth = depth;
	n->count = count;
	return 0;
}

static int on_loop_end(void *arg, unsigned depth)
{
	struct node *n = push(arg);

	if (!n)
		return -ENOMEM;
	n->kind = 1;
	n->depth = depth;
	return 0;
}

static int on_leaf(void *arg, unsigned depth, const struct ioa_trace_leaf *leaf)
{
	struct walked *w = arg;
	struct node *n;

	/* ROMIO's own POSIX calls inside an MPI-IO call: the MPI-IO call makes them again. */
	if (leaf->sig->flags & IOA_TR_SUB)
		return 0;
	/* HDF5's calls, or those it made underneath: one level is replayed, not both. */
	if (w->hdf5 ? (leaf->sig->flags & IOA_TR_UNDER) != 0 : ioa_trace_layer_call(leaf->sig))
		return 0;
	if (!(n = push(w)))
		return -ENOMEM;
	n->kind = 2;
	n->depth = depth;
	n->sig = leaf->sig;
	memcpy(n->model, leaf->model, sizeof(n->model));
	n->gap = ioa_trace_hist_mean(&leaf->gap) * w->spt;
	n->dur = ioa_trace_hist_mean(&leaf->dur) * w->spt;
	n->order = leaf->order;
	return 0;
}

/* Removes the loops left empty by the calls not walked (sub-calls only). */
static void prune_loops(struct walked *w)
{
	size_t k, out = 0;

	for (k = 0; k < w->len; k++) {
		if (w->n[k].kind == 1 && out && w->n[out - 1].kind == 0 &&
		    w->n[out - 1].depth == w->n[k].depth) {
			out--; /* the loop's begin, just kept, goes with its end */
			continue;
		}
		w->n[out++] = w->n[k];
	}
	w->len = out;
}

/* ------------------------------------------------------------ numbers across ranks */

/* A rank's row (1, x, y, z) in a px x py x pz decomposition. */
static void block_row(uint32_t r, uint32_t px, uint32_t py, long double row[4])
{
	row[0] = 1;
	row[1] = r % px;
	row[2] = r / px % py;
	row[3] = r / (px * py);
}

/*
 * Solves v = c0 + cx x + cy y + cz z over the group's ranks: Gaussian
 * elimination on the first ranks whose rows are independent, coefficients
 * of coordinates that never change left 0; then every rank checked.
 */
static int solve_blocks(const int64_t *v, const uint32_t *ranks, uint32_t m, uint32_t px,
			uint32_t py, int64_t coef[4])
{
	long double a[4][5], row[4], sol[4] = {0, 0, 0, 0};
	int used[4] = {0, 0, 0, 0}, n = 0, piv[4];
	uint32_t i;
	int k, j, c;

	for (i = 0; i < m && n < 4; i++) {
		long double r[5];

		block_row(ranks[i], px, py, row);
		for (j = 0; j < 4; j++)
			r[j] = row[j];
		r[4] = (long double)v[i];
		/* Reduce against the rows kept; keep it if something is left. */
		for (k = 0; k < n; k++) {
			long double f = r[piv[k]] / a[k][piv[k]];

			for (j = 0; j < 5; j++)
				r[j] -= f * a[k][j];
		}
		for (c = 0; c < 4 && (used[c] || (r[c] > -1e-9L && r[c] < 1e-9L)); c++)
			;
		if (c == 4)
			continue;
		memcpy(a[n], r, sizeof(r));
		piv[n] = c;
		used[c] = 1;
		n++;
	}
	for (k = n - 1; k >= 0; k--) {
		long double s = a[k][4];

		for (j = 0; j < 4; j++)
			if (j != piv[k])
				s -= a[k][j] * sol[j];
		sol[piv[k]] = s / a[k][piv[k]];
	}
	for (j = 0; j < 4; j++)
		coef[j] = (int64_t)(sol[j] < 0 ? sol[j] - 0.5L : sol[j] + 0.5L);
	for (i = 0; i < m; i++) {
		block_row(ranks[i], px, py, row);
		if (v[i] != coef[0] + coef[1] * (int64_t)row[1] + coef[2] * (int64_t)row[2] +
				    coef[3] * (int64_t)row[3])
			return 0;
	}
	return 1;
}

/* c0 + cx x + cy y + cz z for R's block (x, y, z), terms with a zero coefficient left out. */
static const char *block_text(const int64_t coef[4], uint32_t px, uint32_t py, char *buf,
			      size_t len)
{
	char term[3][64];
	size_t used;

	snprintf(term[0], sizeof(term[0]), " + %" PRId64 " * (R %% %u)", coef[1], px);
	snprintf(term[1], sizeof(term[1]), " + %" PRId64 " * (R / %u %% %u)", coef[2], px, py);
	snprintf(term[2], sizeof(term[2]), " + %" PRId64 " * (R / %u)", coef[3], px * py);
	used = (size_t)snprintf(buf, len, "(%" PRId64 "%s%s%s)", coef[0], coef[1] ? term[0] : "",
				coef[2] ? term[1] : "", coef[3] ? term[2] : "");
	return used < len ? buf : NULL;
}

/*
 * A number's value at each of the group's ranks, as an expression of the
 * rank R: a constant, a*R + b, or linear in R's block (x, y, z) of a 2-D
 * or 3-D decomposition of the ranks; else NULL (a table is needed).
 */
static const char *fit(const int64_t *v, const uint32_t *ranks, uint32_t m, uint32_t nprocs,
		       char *buf, size_t len)
{
	uint32_t i, px, py;
	int64_t a, b;

	for (i = 1; i < m && v[i] == v[0]; i++)
		;
	if (i == m) {
		snprintf(buf, len, "%" PRId64, v[0]);
		return buf;
	}
	if (m >= 2 && ranks[1] != ranks[0] && (v[1] - v[0]) % (int64_t)(ranks[1] - ranks[0]) == 0) {
		a = (v[1] - v[0]) / (int64_t)(ranks[1] - ranks[0]);
		b = v[0] - a * (int64_t)ranks[0];
		for (i = 0; i < m && v[i] == a * (int64_t)ranks[i] + b; i++)
			;
		if (i == m) {
			snprintf(buf, len, "(%" PRId64 " * R + %" PRId64 ")", a, b);
			return buf;
		}
	}
	/*
	 * Blocks of a 2-D or 3-D decomposition, px * py * pz = nprocs, rank R at
	 * (R % px, R / px % py, R / (px * py)): v = c0 + cx x + cy y + cz z solved
	 * from ranks of the group with independent coordinates, rounded, and
	 * checked at every rank.
	 */
	for (px = 2; px < nprocs; px++) {
		if (nprocs % px)
			continue;
		for (py = 1; py <= nprocs / px; py++) {
			uint32_t pz = nprocs / px / py;
			int64_t coef[4];

			if (nprocs % (px * py) || (py == 1 && pz == 1) ||
			    !solve_blocks(v, ranks, m, px, py, coef))
				continue;
			return block_text(coef, px, py, buf, len);
		}
	}
	return NULL;
}

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
};

static int table(struct gfun *f, const int64_t *v, char *name, size_t len)
{
	uint32_t i;
	int rc;

	f->g->tied = "a number is a table per rank";
	snprintf(name, len, "t%u_%u[G]", f->id, f->ntables);
	rc = ioa_buf_addf(&f->pre, "static const int64_t t%u_%u[%u] = {", f->id, f->ntables, f->m);
	for (i = 0; i < f->m && !rc; i++)
		rc = ioa_buf_addf(&f->pre, "%s%" PRId64, i ? ", " : "", v[i]);
	rc = rc ? rc : ioa_buf_addstr(&f->pre, "};\n");
	f->ntables++;
	f->g->sum->tables++;
	return rc;
}

/* a when v is a * R + b at every rank with a != 0, else 0. */
static int64_t rank_coef(const int64_t *v, const uint32_t *ranks, uint32_t m)
{
	int64_t a, b;
	uint32_t i;

	if (m < 2 || ranks[1] == ranks[0] || (v[1] - v[0]) % (int64_t)(ranks[1] - ranks[0]))
		return 0;
	a = (v[1] - v[0]) / (int64_t)(ranks[1] - ranks[0]);
	b = v[0] - a * (int64_t)ranks[0];
	for (i = 0; i < m; i++)
		if (v[i] != a * (int64_t)ranks[i] + b)
			return 0;
	return a;
}

static int number(struct gfun *f, size_t k, unsigned pos, struct ioa_buf *out)
{
	int64_t *v = malloc((f->m + 1) * sizeof(*v));
	const struct ioa_trace_model *m0 = &f->w[0].n[k].model[pos];
	char buf[256], name[64];
	int64_t per_rank;
	unsigned s;
	uint32_t i;
	int rc = v ? 0 : -ENOMEM;

	/* A list per execution (no stride fits): a table per rank of lists. */
	for (i = 0; i < f->m && !rc; i++)
		if (f->w[i].n[k].model[pos].explicit_list ||
		    f->w[i].n[k].model[pos].nstrides != m0->nstrides)
			break;
	if (!rc && i < f->m) {
		uint64_t n = 0, j;

		for (i = 0; i < f->m; i++)
			n = f->w[i].n[k].model[pos].n > n ? f->w[i].n[k].model[pos].n : n;
		f->g->tied = "a number is a list per rank";
		rc = ioa_buf_addf(&f->pre, "static const int64_t l%u_%zu_%u[%u][%" PRIu64 "] = {",
				  f->id, k, pos, f->m, n ? n : 1);
		for (i = 0; i < f->m && !rc; i++) {
			const struct ioa_trace_model *mi = &f->w[i].n[k].model[pos];

			rc = ioa_buf_addstr(&f->pre, i ? ",\n\t{" : "\n\t{");
			for (j = 0; j < mi->n && !rc; j++)
				rc = ioa_buf_addf(&f->pre, "%s%" PRId64, j ? ", " : "",
						  mi->explicit_list ? mi->list[j] : mi->base);
			rc = rc ? rc : ioa_buf_addstr(&f->pre, mi->n ? "}" : "0}");
		}
		rc = rc ? rc : ioa_buf_addstr(&f->pre, "};\n");
		rc = rc ? rc : ioa_buf_addf(out, "l%u_%zu_%u[G][X%u_%zu]", f->id, k, pos, f->id, k);
		f->g->sum->tables++;
		free(v);
		return rc;
	}
	for (i = 0; i < f->m; i++)
		v[i] = f->w[i].n[k].model[pos].base;
	per_rank = rank_coef(v, f->ranks, f->m);
	rc = rc ? rc
		: ioa_buf_addstr(out, fit(v, f->ranks, f->m, f->g->nprocs, buf, sizeof(buf))
					      ? buf
					      : (table(f, v, name, sizeof(name)), name));
	for (s = 0; s < m0->nstrides && !rc; s++) {
		for (i = 0; i < f->m; i++)
			v[i] = f->w[i].n[k].model[pos].stride[s];
		if (!fit(v, f->ranks, f->m, f->g->nprocs, buf, sizeof(buf)) || strcmp(buf, "0")) {
			const char *e = fit(v, f->ranks, f->m, f->g->nprocs, buf, sizeof(buf));

			/* A step over all the ranks' blocks (interleaved by rank): in terms of
			 * the rank count, so that --ranks keeps the pattern. */
			if (e && per_rank && f->g->nprocs > 1 && !strchr(e, 'R') &&
			    v[0] == per_rank * (int64_t)f->g->nprocs) {
				snprintf(buf, sizeof(buf), "(%" PRId64 " * (int64_t)size)",
					 per_rank);
				e = buf;
			}
			if (!e) {
				rc = table(f, v, name, sizeof(name));
				e = name;
			}
			/* Strides go innermost first: stride s belongs to loop depth - 1 - s. */
			rc = rc ? rc
				: ioa_buf_addf(out, " + %s * i%u", e, f->w[0].n[k].depth - 1 - s);
		}
	}
	if (!rc && (strstr(ioa_buf_str(out), "(R %") || strstr(ioa_buf_str(out), "(R /")))
		f->g->tied = "a number follows the rank's block in a decomposition of the ranks";
	free(v);
	return rc;
}

/* ------------------------------------------------------------ calls */

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
	K_VIEW_TYPE,
	K_VIEW_DIM,
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

/*
 * The calls a kernel replays, by module and name.  Only these names are
 * ever written into a kernel (in the comment after each call): the log's
 * own text never is, so a crafted call name cannot end a comment.
 */
struct call {
	unsigned module;
	const char *name;
	enum callkind kind;
	const char *how; /* K_MRW: how the kernel makes it (k_mpi_rw's last argument) */
};

/*
 * An MPI-IO read and write, and how they are made: at an offset or, for
 * offset -1, at the file pointer; non-blocking calls are waited for at
 * once; split collectives end at once (their _end calls are not replayed).
 */
#define MRW(pre, suffix, how)                                         \
	{IOA_MOD_MPIIO, "File_" pre "read" suffix, K_MRW, how},       \
	{                                                             \
		IOA_MOD_MPIIO, "File_" pre "write" suffix, K_MRW, how \
	}

static const struct call calls[] = {
	{IOA_MOD_POSIX, "open", K_OPEN, NULL},
	{IOA_MOD_POSIX, "open64", K_OPEN, NULL},
	{IOA_MOD_POSIX, "openat", K_OPEN, NULL},
	{IOA_MOD_POSIX, "openat64", K_OPEN, NULL},
	/* Programs built with _FORTIFY_SOURCE (Debian's packages) call these: the same calls. */
	{IOA_MOD_POSIX, "__open_2", K_OPEN, NULL},
	{IOA_MOD_POSIX, "__open64_2", K_OPEN, NULL},
	{IOA_MOD_POSIX, "__openat_2", K_OPEN, NULL},
	{IOA_MOD_POSIX, "__openat64_2", K_OPEN, NULL},
	{IOA_MOD_POSIX, "__read_chk", K_READ, NULL},
	{IOA_MOD_POSIX, "__pread_chk", K_PREAD, NULL},
	{IOA_MOD_POSIX, "__pread64_chk", K_PREAD, NULL},
	{IOA_MOD_POSIX, "__xstat", K_STAT, NULL},
	{IOA_MOD_POSIX, "__xstat64", K_STAT, NULL},
	{IOA_MOD_POSIX, "__lxstat", K_STAT, NULL},
	{IOA_MOD_POSIX, "__lxstat64", K_STAT, NULL},
	{IOA_MOD_POSIX, "__fxstat", K_FSTAT, NULL},
	{IOA_MOD_POSIX, "__fxstat64", K_FSTAT, NULL},
	{IOA_MOD_POSIX, "fstatat", K_STAT, NULL},
	{IOA_MOD_POSIX, "statx", K_STAT, NULL},
	{IOA_MOD_POSIX, "unlinkat", K_UNLINK, NULL},
	{IOA_MOD_POSIX, "ftruncate64", K_FTRUNCATE, NULL},
	{IOA_MOD_POSIX, "creat", K_CREAT, NULL},
	{IOA_MOD_POSIX, "creat64", K_CREAT, NULL},
	{IOA_MOD_POSIX, "close", K_CLOSE, NULL},
	{IOA_MOD_POSIX, "write", K_WRITE, NULL},
	{IOA_MOD_POSIX, "writev", K_WRITE, NULL},
	{IOA_MOD_POSIX, "pwrite", K_PWRITE, NULL},
	{IOA_MOD_POSIX, "pwrite64", K_PWRITE, NULL},
	{IOA_MOD_POSIX, "pwritev", K_PWRITE, NULL},
	{IOA_MOD_POSIX, "read", K_READ, NULL},
	{IOA_MOD_POSIX, "readv", K_READ, NULL},
	{IOA_MOD_POSIX, "pread", K_PREAD, NULL},
	{IOA_MOD_POSIX, "pread64", K_PREAD, NULL},
	{IOA_MOD_POSIX, "preadv", K_PREAD, NULL},
	{IOA_MOD_POSIX, "lseek", K_LSEEK, NULL},
	{IOA_MOD_POSIX, "lseek64", K_LSEEK, NULL},
	{IOA_MOD_POSIX, "fsync", K_FSYNC, NULL},
	{IOA_MOD_POSIX, "fdatasync", K_FDATASYNC, NULL},
	{IOA_MOD_POSIX, "stat", K_STAT, NULL},
	{IOA_MOD_POSIX, "stat64", K_STAT, NULL},
	{IOA_MOD_POSIX, "lstat", K_STAT, NULL},
	{IOA_MOD_POSIX, "lstat64", K_STAT, NULL},
	{IOA_MOD_POSIX, "fstat", K_FSTAT, NULL},
	{IOA_MOD_POSIX, "fstat64", K_FSTAT, NULL},
	{IOA_MOD_POSIX, "unlink", K_UNLINK, NULL},
	{IOA_MOD_POSIX, "remove", K_REMOVE, NULL},
	{IOA_MOD_POSIX, "rmdir", K_RMDIR, NULL},
	{IOA_MOD_POSIX, "mkdir", K_MKDIR, NULL},
	{IOA_MOD_POSIX, "access", K_ACCESS, NULL},
	{IOA_MOD_POSIX, "ftruncate", K_FTRUNCATE, NULL},
	{IOA_MOD_STDIO, "fopen", K_FOPEN, NULL},
	{IOA_MOD_STDIO, "fopen64", K_FOPEN, NULL},
	{IOA_MOD_STDIO, "fclose", K_FCLOSE, NULL},
	/* Every way of writing, reading and seeking a stream, as one of each. */
	{IOA_MOD_STDIO, "fwrite", K_FWRITE, NULL},
	{IOA_MOD_STDIO, "fputs", K_FWRITE, NULL},
	{IOA_MOD_STDIO, "fputc", K_FWRITE, NULL},
	{IOA_MOD_STDIO, "putc", K_FWRITE, NULL},
	{IOA_MOD_STDIO, "putw", K_FWRITE, NULL},
	{IOA_MOD_STDIO, "fprintf", K_FWRITE, NULL},
	{IOA_MOD_STDIO, "vfprintf", K_FWRITE, NULL},
	{IOA_MOD_STDIO, "printf", K_FWRITE, NULL},
	{IOA_MOD_STDIO, "vprintf", K_FWRITE, NULL},
	{IOA_MOD_STDIO, "__fprintf_chk", K_FWRITE, NULL},
	{IOA_MOD_STDIO, "__vfprintf_chk", K_FWRITE, NULL},
	{IOA_MOD_STDIO, "__printf_chk", K_FWRITE, NULL},
	{IOA_MOD_STDIO, "__vprintf_chk", K_FWRITE, NULL},
	{IOA_MOD_STDIO, "fread", K_FREAD, NULL},
	{IOA_MOD_STDIO, "__fread_chk", K_FREAD, NULL},
	{IOA_MOD_STDIO, "__fgets_chk", K_FREAD, NULL},
	{IOA_MOD_STDIO, "fgets", K_FREAD, NULL},
	{IOA_MOD_STDIO, "fgetc", K_FREAD, NULL},
	{IOA_MOD_STDIO, "getc", K_FREAD, NULL},
	{IOA_MOD_STDIO, "getw", K_FREAD, NULL},
	{IOA_MOD_STDIO, "fscanf", K_FREAD, NULL},
	{IOA_MOD_STDIO, "vfscanf", K_FREAD, NULL},
	{IOA_MOD_STDIO, "__isoc99_fscanf", K_FREAD, NULL},
	{IOA_MOD_STDIO, "__isoc99_vfscanf", K_FREAD, NULL},
	{IOA_MOD_STDIO, "fseek", K_FSEEK, NULL},
	{IOA_MOD_STDIO, "fseeko", K_FSEEK, NULL},
	{IOA_MOD_STDIO, "fseeko64", K_FSEEK, NULL},
	{IOA_MOD_STDIO, "fsetpos", K_FSEEK, NULL},
	{IOA_MOD_STDIO, "fsetpos64", K_FSEEK, NULL},
	{IOA_MOD_STDIO, "rewind", K_FSEEK, NULL},
	{IOA_MOD_STDIO, "ftell", K_FTELL, NULL},
	{IOA_MOD_STDIO, "fflush", K_FFLUSH, NULL},
	{IOA_MOD_MPIIO, "File_open", K_MOPEN, NULL},
	{IOA_MOD_MPIIO, "File_close", K_MCLOSE, NULL},
	{IOA_MOD_MPIIO, "File_sync", K_MSYNC, NULL},
	{IOA_MOD_MPIIO, "File_set_size", K_MSETSIZE, NULL},
	{IOA_MOD_MPIIO, "File_seek", K_MSEEK, NULL},
	{IOA_MOD_MPIIO, "File_get_size", K_MGETSIZE, NULL},
	{IOA_TRACE_MPI, "Init", K_SELF, NULL},
	{IOA_TRACE_MPI, "Init_thread", K_SELF, NULL},
	{IOA_TRACE_MPI, "Barrier", K_BARRIER, NULL},
	{IOA_TRACE_MPI, "Bcast", K_BCAST, NULL},
	{IOA_TRACE_MPI, "Allreduce", K_ALLREDUCE, NULL},
	{IOA_TRACE_MPI, "Reduce", K_REDUCE, NULL},
	{IOA_TRACE_MPI, "Send", K_SEND, NULL},
	{IOA_TRACE_MPI, "Ssend", K_SEND, NULL},
	{IOA_TRACE_MPI, "Rsend", K_SEND, NULL},
	{IOA_TRACE_MPI, "Bsend", K_SEND, NULL},
	{IOA_TRACE_MPI, "Recv", K_RECV, NULL},
	{IOA_TRACE_MPI, "Sendrecv", K_SENDRECV, NULL},
	{IOA_TRACE_MPI, "Sendrecv_replace", K_SENDRECV, NULL},
	{IOA_TRACE_MPI, "Allgather", K_ALLGATHER, NULL},
	{IOA_TRACE_MPI, "Alltoall", K_ALLTOALL, NULL},
	/* Its bytes are not in the trace (length 0): one byte to each rank. */
	{IOA_TRACE_MPI, "Alltoallv", K_ALLTOALL, NULL},
	/* A reduction every rank takes part in, rootless: as an Allreduce of its bytes. */
	{IOA_TRACE_MPI, "Reduce_scatter", K_ALLREDUCE, NULL},
	{IOA_TRACE_MPI, "Reduce_scatter_block", K_ALLREDUCE, NULL},
	{IOA_TRACE_MPI, "Gather", K_GATHER, NULL},
	{IOA_TRACE_MPI, "Gatherv", K_GATHERV, NULL},
	{IOA_TRACE_MPI, "Scatter", K_SCATTER, NULL},
	{IOA_TRACE_MPI, "Scatterv", K_SCATTERV, NULL},
	{IOA_TRACE_MPI, "Allgatherv", K_ALLGATHERV, NULL},
	{IOA_TRACE_MPI, "Scan", K_SCAN, NULL},
	{IOA_TRACE_MPI, "Exscan", K_EXSCAN, NULL},
	{IOA_TRACE_MPI, "Isend", K_ISEND, NULL},
	{IOA_TRACE_MPI, "Issend", K_ISEND, NULL},
	{IOA_TRACE_MPI, "Irecv", K_IRECV, NULL},
	{IOA_TRACE_MPI, "Wait", K_WAIT, NULL},
	{IOA_TRACE_MPI, "Test", K_WAIT, NULL},
	{IOA_TRACE_MPI, "Waitany", K_WAIT, NULL},
	{IOA_TRACE_MPI, "Waitall", K_WAITALL, NULL},
	{IOA_TRACE_MPI, "Testall", K_WAITALL, NULL},
	{IOA_TRACE_MPI, "Comm_split", K_COMM_SPLIT, NULL},
	{IOA_TRACE_MPI, "Comm_dup", K_COMM_DUP, NULL},
	/* A file view: its filetype's shape as the runtime recorded it, then the view. */
	{IOA_TRACE_MPI, "File_view_type", K_VIEW_TYPE, NULL},
	{IOA_TRACE_MPI, "File_view_dim0", K_VIEW_DIM, NULL},
	{IOA_TRACE_MPI, "File_view_dim1", K_VIEW_DIM, NULL},
	{IOA_TRACE_MPI, "File_view_dim2", K_VIEW_DIM, NULL},
	{IOA_MOD_MPIIO, "File_set_view", K_MSETVIEW, NULL},
	MRW("", "", "K_INDEP"),
	MRW("", "_at", "K_INDEP"),
	MRW("", "_all", "K_COLL"),
	MRW("", "_at_all", "K_COLL"),
	MRW("", "_shared", "K_SHARED"),
	MRW("", "_ordered", "K_ORDERED"),
	MRW("", "_all_begin", "K_SPLIT"),
	MRW("", "_at_all_begin", "K_SPLIT"),
	MRW("", "_ordered_begin", "K_SPLIT_ORDERED"),
	MRW("i", "", "K_NB"),
	MRW("i", "_at", "K_NB"),
	MRW("i", "_all", "K_NB_COLL"),
	MRW("i", "_at_all", "K_NB_COLL"),
	MRW("i", "_shared", "K_NB_SHARED"),
	{IOA_MOD_H5F, "H5Fcreate", K_H5FCREATE, NULL},
	{IOA_MOD_H5F, "H5Fopen", K_H5FOPEN, NULL},
	{IOA_MOD_H5F, "H5Fflush", K_H5FLUSH, NULL},
	{IOA_MOD_H5F, "H5Fclose", K_H5CLOSE, NULL},
	{IOA_MOD_H5F, "H5Oclose", K_H5CLOSE, NULL},
	{IOA_MOD_H5F, "H5Idec_ref", K_H5CLOSE, NULL},
	{IOA_MOD_H5D, "H5S_extent", K_H5DIM, NULL},
	{IOA_MOD_H5D, "H5Dcreate1", K_H5DCREATE, NULL},
	{IOA_MOD_H5D, "H5Dcreate2", K_H5DCREATE, NULL},
	{IOA_MOD_H5D, "H5Dopen1", K_H5DOPEN, NULL},
	{IOA_MOD_H5D, "H5Dopen2", K_H5DOPEN, NULL},
	{IOA_MOD_H5D, "H5Oopen", K_H5DOPEN, NULL},
	{IOA_MOD_H5D, "H5S_hyperslab", K_H5SEL, NULL},
	{IOA_MOD_H5D, "H5S_block", K_H5BLOCK, NULL},
	{IOA_MOD_H5D, "H5Dread", K_H5RW, NULL},
	{IOA_MOD_H5D, "H5Dwrite", K_H5RW, NULL},
	{IOA_MOD_H5D, "H5Dflush", K_H5FLUSH, NULL},
	{IOA_MOD_H5D, "H5Dclose", K_H5CLOSE, NULL},
	{IOA_MOD_H5D, "H5Oclose", K_H5CLOSE, NULL},
	{IOA_MOD_H5D, "H5Idec_ref", K_H5CLOSE, NULL},
};
#undef MRW

/* The table's entry for a call, or NULL: a call the kernel does not replay. */
static const struct call *call_of(const struct ioa_trace_sig *sig)
{
	size_t i;

	/* An HDF5 call that failed is not replayed (its cause is not in the trace). */
	if (ioa_trace_layer_call(sig) && (sig->flags & IOA_TR_FAILED))
		return NULL;
	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (calls[i].module == sig->module && !strcmp(calls[i].name, sig->name))
			return &calls[i];
	return NULL;
}

/*
 * The one way text from a log enters a kernel: as a C string literal of
 * its len bytes.  Every byte outside printable ASCII, and '"', '\\' and '?'
 * (which could start a trigraph), becomes a three-digit octal escape, so
 * the literal holds the bytes exactly and nothing in them can end it.
 */
static int literal(struct ioa_buf *b, const unsigned char *s, size_t len)
{
	int rc = ioa_buf_addstr(b, "\"");
	size_t i;

	for (i = 0; i < len && !rc; i++)
		rc = s[i] < 0x20 || s[i] > 0x7e || s[i] == '"' || s[i] == '\\' || s[i] == '?'
			     ? ioa_buf_addf(b, "\\%03o", s[i])
			     : ioa_buf_addf(b, "%c", s[i]);
	return rc ? rc : ioa_buf_addstr(b, "\"");
}

/* The executions a call's lists hold (the same for the group's ranks: one shape). */
static uint64_t list_len(const struct gfun *f, size_t k)
{
	uint64_t n = 1;
	unsigned pos;

	for (pos = 0; pos < IOA_TRACE_NVALUES; pos++)
		if (f->w[0].n[k].model[pos].explicit_list && f->w[0].n[k].model[pos].n > n)
			n = f->w[0].n[k].model[pos].n;
	return n;
}

/*
 * The gap before call k when its gaps changed in order (the trace kept an
 * order): a table of the order's segments, each its mean gap over the
 * group's ranks (when every rank's segments are the first rank's; else
 * none), scaled to the group's mean gap, which k_order() walks as the call
 * comes again; none when they differ by less than KGEN_ORDER_FLOOR.  Appends the expression to out;
 * 0 with nothing appended when the call has no order.
 */
static int gap_order(struct gfun *f, size_t k, double gap, struct ioa_buf *out)
{
	const struct ioa_trace_order *o = &f->w[0].n[k].order;
	double *v = o->n > 1 ? calloc(o->n, sizeof(*v)) : NULL, sum = 0, lo = 0, hi = 0;
	uint64_t end = 0, execs = 0;
	uint32_t i, s;
	int rc = 0;

	if (!v)
		return o->n > 1 ? -ENOMEM : 0;
	for (i = 0; i < f->m; i++) {
		const struct ioa_trace_order *r = &f->w[i].n[k].order;

		for (s = 0; s < o->n; s++) {
			if (r->n != o->n || r->execs[s] != o->execs[s]) {
				free(v);
				return 0;
			}
			v[s] += r->mean[s] * f->w[i].spt / f->m;
		}
	}
	for (s = 0; s < o->n; s++) {
		sum += v[s] * (double)o->execs[s];
		execs += o->execs[s];
		lo = s == 0 || v[s] < lo ? v[s] : lo;
		hi = v[s] > hi ? v[s] : hi;
	}
	/* Gaps that differ by less than a spinning kernel replays: the mean does. */
	if (hi - lo < KGEN_ORDER_FLOOR) {
		free(v);
		return 0;
	}
	rc = ioa_buf_addf(&f->pre, "static const double og%u_%zu[%u] = {", f->id, k, o->n);
	for (s = 0; s < o->n && !rc; s++)
		rc = ioa_buf_addf(&f->pre, "%s%.6f", s ? ", " : "",
				  sum > 0 ? v[s] * gap * (double)execs / sum : 0);
	rc = rc ? rc
		: ioa_buf_addf(&f->pre, "};\nstatic const uint64_t oe%u_%zu[%u] = {", f->id, k,
			       o->n);
	for (s = 0; s < o->n && !rc; s++) {
		end += o->execs[s];
		rc = ioa_buf_addf(&f->pre, "%s%" PRIu64, s ? ", " : "", end);
	}
	rc = rc ? rc
		: ioa_buf_addf(&f->pre,
			       "};\nstatic uint64_t ox%u_%zu;\nstatic unsigned os%u_%zu;\n", f->id,
			       k, f->id, k);
	rc = rc ? rc
		: ioa_buf_addf(out, "k_order(og%u_%zu, oe%u_%zu, %u, &ox%u_%zu, &os%u_%zu)", f->id,
			       k, f->id, k, o->n, f->id, k, f->id, k);
	free(v);
	return rc;
}

/* Whether a number reads an explicit list (number()): at its execution counter. */
static int uses_list(const struct ioa_buf *v)
{
	return v->data && strstr(v->data, "][X") != NULL;
}

/* One more place where the call (layer, name) is not replayed. */
static int note_skip(struct kgen_summary *sum, const char *layer, const char *name)
{
	struct kgen_skip *more;
	unsigned i;

	for (i = 0; i < sum->nskips; i++)
		if (sum->skips[i].layer == layer && !strncmp(sum->skips[i].name, name, 63)) {
			sum->skips[i].places++;
			return 0;
		}
	if (!(more = realloc(sum->skips, (sum->nskips + 1) * sizeof(*more))))
		return -ENOMEM;
	sum->skips = more;
	more = &sum->skips[sum->nskips++];
	more->layer = layer;
	snprintf(more->name, sizeof(more->name), "%s", name);
	more->places = 1;
	return 0;
}

void kgen_summary_release(struct kgen_summary *sum)
{
	free(sum->file_ids);
	free(sum->skips);
	sum->file_ids = NULL;
	sum->skips = NULL;
	sum->nskips = 0;
}

static int emit_call(struct gfun *f, size_t k, const char *indent)
{
	const struct node *n = &f->w[0].n[k];
	const struct call *call = call_of(n->sig);
	enum callkind kind = call ? call->kind : K_SKIP;
	struct ioa_buf *b = &f->body;
	struct ioa_buf off = IOA_BUF_INIT(1 << 16), len = IOA_BUF_INIT(1 << 16),
		       file = IOA_BUF_INIT(1 << 16), aux = IOA_BUF_INIT(1 << 16),
		       order = IOA_BUF_INIT(1 << 16);
	double gap = 0, carry;
	uint32_t i;
	int rc = 0, listed;

	for (i = 0; i < f->m; i++)
		gap += f->w[i].n[k].gap / f->m;
	if (kind == K_SELF) {
		f->carry += gap;
		return 0;
	}
	if (kind == K_SKIP) {
		const char *layer = n->sig->module == IOA_TRACE_MPI ? "MPI"
				    : n->sig->module < IOA_MOD_COUNT
					    ? ioa_modules[n->sig->module].name
					    : "?";

		/* Compute before a call not replayed goes before the next one. */
		f->carry += gap;
		f->g->sum->skipped++;
		rc = note_skip(f->g->sum, layer, n->sig->name);
		return rc ? rc
			  : ioa_buf_addf(b, "%s/* a call not replayed (%s) */\n", indent, layer);
	}
	f->g->sum->calls++;
	carry = f->carry;
	f->carry = 0;
	rc = gap_order(f, k, gap, &order);
	rc = rc ? rc : number(f, k, 0, &off);
	rc = rc ? rc : number(f, k, 1, &len);
	/* The file's slot, or an MPI call's communicator slot (and aux: request, new slot). */
	rc = rc ? rc : number(f, k, IOA_TRACE_SLOT, &file);
	if (!rc && (n->sig->module == IOA_TRACE_MPI || ioa_trace_layer_call(n->sig)))
		rc = number(f, k, 2, &aux);
	/* The explicit lists' execution counter, when a number needs it. */
	listed = !rc && (uses_list(&off) || uses_list(&len) || uses_list(&file) || uses_list(&aux));
	if (listed)
		rc = ioa_buf_addf(&f->pre, "static uint64_t X%u_%zu;\n", f->id, k);
	if (rc)
		goto out;
	if (order.len && carry > 1e-6)
		rc = ioa_buf_addf(b, "%sk_gap(%.6f + %s);\n", indent, carry, ioa_buf_str(&order));
	else if (order.len)
		rc = ioa_buf_addf(b, "%sk_gap(%s);\n", indent, ioa_buf_str(&order));
	else if (gap + carry > 1e-6)
		rc = ioa_buf_addf(b, "%sk_gap(%.6f);\n", indent, gap + carry);
	rc = rc ? rc : ioa_buf_addstr(b, indent);
#define F ioa_buf_str(&file)
#define O ioa_buf_str(&off)
#define L ioa_buf_str(&len)
	switch (kind) {
	case K_OPEN:
		/* An open that worked creates the file if need be (another rank's open may
		 * come later in the kernel); one that failed fails again. */
		rc = number(f, k, 2, &aux); /* | 1: opened to append, | 2: emptied (O_TRUNC) */
		if (!rc && !strcmp(ioa_buf_str(&aux), "0"))
			rc = ioa_buf_addf(b, "k_open(FILE_OF(%s), %d);", F,
					  !(n->sig->flags & IOA_TR_FAILED));
		else if (!rc && !strcmp(ioa_buf_str(&aux), "1"))
			rc = ioa_buf_addf(b, "k_open(FILE_OF(%s), %d | K_APPEND);", F,
					  !(n->sig->flags & IOA_TR_FAILED));
		else if (!rc && !strcmp(ioa_buf_str(&aux), "2"))
			rc = ioa_buf_addf(b, "k_open(FILE_OF(%s), %d | K_TRUNC);", F,
					  !(n->sig->flags & IOA_TR_FAILED));
		else if (!rc)
			rc = ioa_buf_addf(b,
					  "k_open(FILE_OF(%s), %d | (((%s) & 1) ? K_APPEND : 0) | "
					  "(((%s) & 2) ? K_TRUNC : 0));",
					  F, !(n->sig->flags & IOA_TR_FAILED), ioa_buf_str(&aux),
					  ioa_buf_str(&aux));
		break;
	case K_CREAT:
		rc = ioa_buf_addf(b, "k_open(FILE_OF(%s), 2);", F);
		break;
	case K_CLOSE:
		rc = ioa_buf_addf(b, "k_close(FILE_OF(%s));", F);
		break;
	case K_WRITE:
		rc = ioa_buf_addf(b, "k_write(FILE_OF(%s), %s);", F, L);
		break;
	case K_PWRITE:
		rc = ioa_buf_addf(b, "k_pwrite(FILE_OF(%s), %s, %s);", F, L, O);
		break;
	case K_READ:
		rc = ioa_buf_addf(b, "k_read(FILE_OF(%s), %s);", F, L);
		break;
	case K_PREAD:
		rc = ioa_buf_addf(b, "k_pread(FILE_OF(%s), %s, %s);", F, L, O);
		break;
	case K_LSEEK:
		rc = ioa_buf_addf(b, "k_lseek(FILE_OF(%s), %s);", F, O);
		break;
	case K_FSYNC:
	case K_FDATASYNC:
		rc = ioa_buf_addf(b, "k_fsync(FILE_OF(%s), %d);", F, kind == K_FDATASYNC);
		break;
	case K_STAT:
		rc = ioa_buf_addf(b, "k_stat(FILE_OF(%s));", F);
		break;
	case K_FSTAT:
		rc = ioa_buf_addf(b, "k_fstat(FILE_OF(%s));", F);
		break;
	case K_UNLINK:
		rc = ioa_buf_addf(b, "k_unlink(FILE_OF(%s));", F);
		break;
	case K_REMOVE:
		rc = ioa_buf_addf(b, "k_remove(FILE_OF(%s));", F);
		break;
	case K_RMDIR:
		rc = ioa_buf_addf(b, "k_rmdir(FILE_OF(%s));", F);
		break;
	case K_MKDIR:
		rc = ioa_buf_addf(b, "k_mkdir(FILE_OF(%s));", F);
		break;
	case K_ACCESS:
		rc = ioa_buf_addf(b, "k_access(FILE_OF(%s));", F);
		break;
	case K_FTRUNCATE:
		rc = ioa_buf_addf(b, "k_ftruncate(FILE_OF(%s), %s);", F, L);
		break;
	case K_FOPEN:
		rc = ioa_buf_addf(b, "k_fopen(FILE_OF(%s));", F);
		break;
	case K_FCLOSE:
		rc = ioa_buf_addf(b, "k_fclose(FILE_OF(%s));", F);
		break;
	case K_FWRITE:
		rc = ioa_buf_addf(b, "k_fwrite(FILE_OF(%s), %s);", F, L);
		break;
	case K_FREAD:
		rc = ioa_buf_addf(b, "k_fread(FILE_OF(%s), %s);", F, L);
		break;
	case K_FSEEK:
		rc = ioa_buf_addf(b, "k_fseek(FILE_OF(%s), %s);", F, O);
		break;
	case K_FFLUSH:
		rc = ioa_buf_addf(b, "k_fflush(FILE_OF(%s));", F);
		break;
	case K_FTELL:
		rc = ioa_buf_addf(b, "k_ftell(FILE_OF(%s));", F);
		break;
	case K_MOPEN: {
		uint32_t r = f->ranks[0];
		struct ioa_trace_rank tr;
		const char *hints = "";

		/* The hints given at open (their text is the same for the group's ranks). */
		if (!ioa_trace_rank_open(&f->g->t, r, &tr)) {
			if ((n->sig->flags & IOA_TR_HINTS) && n->sig->err >= 0 &&
			    (uint32_t)n->sig->err < tr.nstrings)
				hints = tr.strings[n->sig->err];
			/* The communicator: its slot + 1 in the length. */
			rc = ioa_buf_addf(b, "k_mpi_open(FILE_OF(%s), %s, %s, ", F, O, L);
			rc = rc ? rc : literal(b, (const unsigned char *)hints, strlen(hints));
			rc = rc ? rc : ioa_buf_addstr(b, ");");
			ioa_trace_rank_close(&tr);
		}
		break;
	}
	case K_MCLOSE:
		rc = ioa_buf_addf(b, "k_mpi_close(FILE_OF(%s));", F);
		break;
	case K_MSYNC:
		rc = ioa_buf_addf(b, "k_mpi_sync(FILE_OF(%s));", F);
		break;
	case K_MSETSIZE:
		rc = ioa_buf_addf(b, "k_mpi_set_size(FILE_OF(%s), %s);", F, L);
		break;
	case K_MSEEK: /* whence in the length */
		rc = ioa_buf_addf(b, "k_mpi_seek(FILE_OF(%s), %s, %s);", F, O, L);
		break;
	case K_MGETSIZE:
		rc = ioa_buf_addf(b, "k_mpi_get_size(FILE_OF(%s));", F);
		break;
	case K_MRW:
		rc = ioa_buf_addf(b, "k_mpi_rw(FILE_OF(%s), %s, %s, %d, %s);", F, O, L,
				  !!strstr(call->name, "write"), call->how);
		break;
	case K_BARRIER:
		rc = ioa_buf_addf(b, "k_barrier(%s);", F);
		break;
	case K_BCAST:
		rc = ioa_buf_addf(b, "k_bcast(%s, %s, %s);", L, O, F);
		break;
	case K_ALLREDUCE:
	case K_REDUCE:
		rc = ioa_buf_addf(b, "k_reduce(%s, %d, %s, %s);", L, kind == K_ALLREDUCE, O, F);
		break;
	case K_SEND:
		rc = ioa_buf_addf(b, "k_send(%s, %s, %s);", L, O, F);
		break;
	case K_RECV:
		rc = ioa_buf_addf(b, "k_recv(%s, %s, %s);", L, O, F);
		break;
	case K_SENDRECV:
		rc = ioa_buf_addf(b, "k_sendrecv(%s, %s, %s);", L, O, F);
		break;
	case K_ALLGATHER:
	case K_ALLTOALL:
		rc = ioa_buf_addf(b, "k_all(%s, %d, %s);", L, kind == K_ALLTOALL, F);
		break;
	case K_GATHER:
	case K_GATHERV:
		rc = ioa_buf_addf(b, "k_gather(%s, %d, %s, %s);", L, kind == K_GATHERV, O, F);
		break;
	case K_SCATTER:
	case K_SCATTERV:
		rc = ioa_buf_addf(b, "k_scatter(%s, %d, %s, %s);", L, kind == K_SCATTERV, O, F);
		break;
	case K_ALLGATHERV:
		rc = ioa_buf_addf(b, "k_allgatherv(%s, %s);", L, F);
		break;
	case K_SCAN:
	case K_EXSCAN:
		rc = ioa_buf_addf(b, "k_scan(%s, %d, %s);", L, kind == K_EXSCAN, F);
		break;
	case K_ISEND:
	case K_IRECV:
		rc = ioa_buf_addf(b, "k_%s(%s, %s, %s, %s);", kind == K_ISEND ? "isend" : "irecv",
				  L, O, ioa_buf_str(&aux), F);
		break;
	case K_WAIT:
		rc = ioa_buf_addf(b, "k_wait(%s);", ioa_buf_str(&aux));
		break;
	case K_WAITALL:
		rc = ioa_buf_addstr(b, "k_waitall();");
		break;
	case K_COMM_SPLIT:
		rc = ioa_buf_addf(b, "k_comm_split(%s, %s, %s, %s);", F, O, L, ioa_buf_str(&aux));
		break;
	case K_COMM_DUP:
		rc = ioa_buf_addf(b, "k_comm_dup(%s, %s);", F, ioa_buf_str(&aux));
		break;
	case K_VIEW_TYPE:
	case K_VIEW_DIM:
		rc = ioa_buf_addf(b, "k_view_%s(%s, %s, %s);", kind == K_VIEW_TYPE ? "type" : "dim",
				  O, L, ioa_buf_str(&aux));
		break;
	case K_MSETVIEW:
		rc = ioa_buf_addf(b, "k_mpi_set_view(FILE_OF(%s), %s, %s);", F, O, L);
		break;
	case K_H5FCREATE:
	case K_H5FOPEN:
		rc = ioa_buf_addf(b, "k_h5_fopen(FILE_OF(%s), %d, %s, %s);", F, kind == K_H5FCREATE,
				  O, ioa_buf_str(&aux));
		break;
	case K_H5DIM:
		rc = ioa_buf_addf(b, "k_h5_dim(%s, %s, %s);", O, L, ioa_buf_str(&aux));
		break;
	case K_H5DCREATE:
		rc = ioa_buf_addf(b, "k_h5_dcreate(FILE_OF(%s), %s, %s);", F, O, L);
		break;
	case K_H5DOPEN:
		rc = ioa_buf_addf(b, "k_h5_dopen(FILE_OF(%s));", F);
		break;
	case K_H5SEL:
		rc = ioa_buf_addf(b, "k_h5_sel(%s, %s, %s);", O, L, ioa_buf_str(&aux));
		break;
	case K_H5BLOCK:
		rc = ioa_buf_addf(b, "k_h5_block(%s);", O);
		break;
	case K_H5RW:
		rc = ioa_buf_addf(b, "k_h5_rw(FILE_OF(%s), %s, %s, %d);", F, L, ioa_buf_str(&aux),
				  !strcmp(call->name, "H5Dwrite"));
		break;
	case K_H5FLUSH:
		rc = ioa_buf_addf(b, "k_h5_flush(FILE_OF(%s));", F);
		break;
	case K_H5CLOSE:
		rc = ioa_buf_addf(b, "k_h5_close(FILE_OF(%s));", F);
		break;
	default:
		break;
	}
#undef F
#undef O
#undef L
	rc = rc ? rc : ioa_buf_addf(b, " /* %s */\n", call->name);
	if (!rc && listed)
		rc = ioa_buf_addf(b, "%sX%u_%zu = (X%u_%zu + 1) %% %" PRIu64 ";\n", indent, f->id,
				  k, f->id, k, list_len(f, k));
out:
	ioa_buf_release(&off);
	ioa_buf_release(&len);
	ioa_buf_release(&file);
	ioa_buf_release(&aux);
	ioa_buf_release(&order);
	return rc;
}

/* ------------------------------------------------------------ groups */

static int same_shape(const struct walked *a, const struct walked *b)
{
	size_t k;

	if (a->len != b->len)
		return 0;
	for (k = 0; k < a->len; k++)
		if (a->n[k].kind != b->n[k].kind || a->n[k].count != b->n[k].count ||
		    (a->n[k].kind == 2 && strcmp(a->n[k].sig->name, b->n[k].sig->name)))
			return 0;
	return 1;
}

/*
 * Per rank of the part: its slots' kernel file numbers (numbered before,
 * count_files()), as a table files<p>[G][slot]; one row when they are the
 * same for every rank.
 */
static int file_table(struct gfun *f, struct ioa_trace_rank *const *tr)
{
	struct ioa_buf rows = IOA_BUF_INIT((size_t)1 << 30), row = IOA_BUF_INIT((size_t)1 << 20);
	uint32_t i, j, nslots = 0;
	size_t first_len = 0;
	int rc = 0;

	f->files_shared = 1;
	for (i = 0; i < f->m; i++)
		nslots = tr[i]->nfiles > nslots ? tr[i]->nfiles : nslots;
	for (i = 0; i < f->m && !rc; i++) {
		ioa_buf_reset(&row);
		rc = ioa_buf_addstr(&row, "\n\t{");
		for (j = 0; j < nslots && !rc; j++) {
			int num =
				j < tr[i]->nfiles ? file_number(&f->g->files, tr[i]->files[j]) : -1;

			if (num < 0 && j < tr[i]->nfiles)
				rc = -ENOMEM;
			else
				rc = ioa_buf_addf(&row, "%s%d", j ? ", " : "", num);
		}
		rc = rc ? rc : ioa_buf_addstr(&row, nslots ? "}" : "-1}");
		if (!rc && i &&
		    (row.len != first_len || memcmp(rows.data + 1, row.data + 1, row.len - 1)))
			f->files_shared = 0;
		if (!rc && !i)
			first_len = row.len;
		rc = rc ? rc : ioa_buf_addstr(&rows, i ? "," : "");
		rc = rc ? rc : ioa_buf_add(&rows, row.data, row.len);
	}
	/* The table's text after its name; a part whose ranks have the same rows shares it. */
	ioa_buf_reset(&row);
	if (!rc && f->files_shared)
		rc = ioa_buf_addf(&row, "[1][%u] = {%.*s};\n", nslots ? nslots : 1, (int)first_len,
				  rows.data);
	else if (!rc)
		rc = ioa_buf_addf(&row, "[%u][%u] = {%s};\n", f->m, nslots ? nslots : 1,
				  ioa_buf_str(&rows));
	for (j = 0; !rc && j < f->g->nftab && strcmp(f->g->ftab[j], ioa_buf_str(&row)); j++)
		;
	f->files_id = !rc && j < f->g->nftab ? j : f->id;
	if (!rc && j == f->g->nftab) {
		char **more = realloc(f->g->ftab, (j + 1) * sizeof(*more));

		if (!more || !(more[j] = strdup(ioa_buf_str(&row)))) {
			if (more)
				f->g->ftab = more;
			rc = -ENOMEM;
		} else {
			f->g->ftab = more;
			f->files_id = (unsigned)j;
			f->g->nftab++;
			rc = ioa_buf_addf(&f->pre, "static const int files%u%s", f->files_id,
					  ioa_buf_str(&row));
		}
	}
	ioa_buf_release(&rows);
	ioa_buf_release(&row);
	return rc;
}

/* The step between ranks (ascending) when they are evenly spaced, else 0. */
static uint32_t rank_step(const uint32_t *ranks, uint32_t m)
{
	uint32_t i, step = m > 1 ? ranks[1] - ranks[0] : 1;

	for (i = 2; i < m; i++)
		if (ranks[i] - ranks[i - 1] != step)
			return 0;
	return step;
}

/* A size in the units people read. */
static const char *human(double bytes, char *buf, size_t len)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	unsigned u = 0;

	while (bytes >= 1024 && u < 4)
		bytes /= 1024, u++;
	snprintf(buf, len, u ? "%.3g %s" : "%.0f %s", bytes, units[u]);
	return buf;
}

/*
 * The phase a loop reproduces, for the comment above it: what one pass
 * does on the group's first rank (writes and reads with their bytes,
 * metadata and sync calls, MPI calls, compute).
 */
static int describe_loop(struct gfun *f, size_t k, const char *indent)
{
	const struct node *n = f->w[0].n;
	uint64_t mult[MAX_DEPTH + 2] = {1}, writes = 0, reads = 0, meta = 0, mpi = 0;
	double wbytes = 0, rbytes = 0, compute = 0;
	unsigned base = n[k].depth, d;
	size_t j;
	char b1[32], b2[32];
	struct ioa_buf t = IOA_BUF_INIT(1024);
	int rc;

	for (j = k + 1; j < f->w[0].len && !(n[j].kind == 1 && n[j].depth == base); j++) {
		d = n[j].depth - base;
		if (d < 1 || d > MAX_DEPTH)
			continue;
		if (n[j].kind == 0) {
			mult[d] = mult[d - 1] * n[j].count;
		} else if (n[j].kind == 2) {
			const struct ioa_trace_model *len = &n[j].model[1];
			uint64_t times = mult[d - 1];
			double bytes = len->explicit_list ? 0 : (double)len->base;

			compute += n[j].gap * (double)times;
			if (n[j].sig->module == IOA_TRACE_MPI)
				mpi += times;
			else if (n[j].sig->flags & IOA_TR_WRITE)
				writes += times, wbytes += bytes * (double)times;
			else if (n[j].sig->flags & IOA_TR_READ)
				reads += times, rbytes += bytes * (double)times;
			else
				meta += times;
		}
	}
#define S(x) ((x) == 1 ? "" : "s")
	rc = ioa_buf_addf(&t, "%" PRIu64 " passes, each:", n[k].count);
	if (!rc && writes)
		rc = ioa_buf_addf(&t, " %" PRIu64 " write%s (%s)", writes, S(writes),
				  human(wbytes, b1, sizeof(b1)));
	if (!rc && reads)
		rc = ioa_buf_addf(&t, "%s %" PRIu64 " read%s (%s)", writes ? "," : "", reads,
				  S(reads), human(rbytes, b2, sizeof(b2)));
	if (!rc && meta)
		rc = ioa_buf_addf(&t, "%s %" PRIu64 " metadata or sync call%s",
				  writes || reads ? "," : "", meta, S(meta));
	if (!rc && mpi)
		rc = ioa_buf_addf(&t, "%s %" PRIu64 " MPI call%s",
				  writes || reads || meta ? "," : "", mpi, S(mpi));
#undef S
	if (!rc && compute > 1e-3)
		rc = ioa_buf_addf(&t, "%s %.3g s of compute",
				  writes || reads || meta || mpi ? "," : "", compute);
	if (!rc && !writes && !reads && !meta && !mpi && compute <= 1e-3)
		rc = ioa_buf_addstr(&t, " nothing replayed");
	rc = rc ? rc : ioa_buf_addf(&f->body, "%s/* Phase: %s. */\n", indent, ioa_buf_str(&t));
	ioa_buf_release(&t);
	return rc;
}

/* Compute left by calls not replayed at the end of a loop body or function. */
static int emit_carry(struct gfun *f, const char *indent)
{
	double gap = f->carry;

	f->carry = 0;
	return gap > 1e-6 ? ioa_buf_addf(&f->body, "%s\tk_gap(%.6f);\n", indent, gap) : 0;
}

/* The ranks of one shape, walked: per rank its trace and its nodes; its top-level items. */
struct shape {
	struct ioa_trace_rank *tr;
	struct walked *w;
	uint32_t nranks, opened;
	const uint32_t *ranks;
	size_t *item; /* first node of each top-level item (a call or a whole loop), then the end */
	uint64_t *sig; /* per item: what must match for two groups to share it */
	size_t nitems, next;
};

/* One function of the kernel: a run of items that the same ranks make together. */
struct part {
	uint32_t *ranks; /* ascending */
	uint32_t m;
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 0x100000001b3ull;
	return h;
}

/* An item's signature: its calls, loops and their counts, as same_shape() compares them. */
static uint64_t item_sig(const struct node *n, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t k;

	for (k = 0; k < len; k++) {
		h = fnv(h, &n[k].kind, sizeof(n[k].kind));
		h = fnv(h, &n[k].count, sizeof(n[k].count));
		if (n[k].kind == 2) {
			h = fnv(h, n[k].sig->name, strlen(n[k].sig->name));
			h = fnv(h, &n[k].sig->module, sizeof(n[k].sig->module));
			h = fnv(h, &n[k].sig->flags, sizeof(n[k].sig->flags));
			h = fnv(h, &n[k].sig->err, sizeof(n[k].sig->err));
		}
	}
	return h;
}

/*
 * Bytes the ranks of one group may take open at once, roughly: a group of
 * 2^24 ranks takes a few bytes to claim, and every rank of it stays open
 * while its kernel is made.
 */
#define OPEN_RANKS_BYTES ((uint64_t)1 << 30)

static int walk_shape(struct gen *g, const struct ioa_trace_group *grp, struct shape *sh)
{
	static const struct ioa_trace_visitor visitor = {on_loop_begin, on_loop_end, on_leaf};
	uint64_t per_rank = sizeof(*sh->tr) + sizeof(*sh->w) + 64 * (uint64_t)grp->shape_len +
			    8 * (uint64_t)grp->nvalues + 16 * (uint64_t)grp->times_len;
	size_t k, cap = 0;
	uint32_t i;
	int rc = 0;

	if (per_rank * grp->nranks > OPEN_RANKS_BYTES)
		return -E2BIG;
	sh->nranks = grp->nranks;
	sh->ranks = grp->ranks;
	sh->tr = calloc(grp->nranks + 1, sizeof(*sh->tr));
	sh->w = calloc(grp->nranks + 1, sizeof(*sh->w));
	if (!sh->tr || !sh->w)
		return -ENOMEM;
	for (i = 0; i < grp->nranks && !rc; i++) {
		rc = ioa_trace_rank_open(&g->t, grp->ranks[i], &sh->tr[i]);
		sh->opened += !rc;
		if (!rc) {
			g->sum->calls_exact += (uint64_t)sh->tr[i].header[IOA_TRH_EVENTS_TRACED];
			g->sum->calls_total += (uint64_t)sh->tr[i].header[IOA_TRH_EVENTS_TOTAL];
		}
		if (rc == -EINVAL) /* a malformed tree, not ranks that differ */
			rc = -EBADMSG;
		sh->w[i].spt = grp->ns_per_tick * 1e-9;
		sh->w[i].hdf5 = g->hdf5;
		rc = rc ? rc : ioa_trace_walk(&sh->tr[i], &visitor, &sh->w[i]);
		if (!rc)
			prune_loops(&sh->w[i]);
		if (!rc && i && !same_shape(&sh->w[0], &sh->w[i]))
			rc = -EINVAL;
	}
	for (k = 0; !rc && k <= sh->w[0].len; k++) {
		if (k < sh->w[0].len && (sh->w[0].n[k].depth != 0 || sh->w[0].n[k].kind == 1))
			continue;
		if (sh->nitems + 1 >= cap) {
			size_t *more = realloc(sh->item, (cap = cap * 2 + 16) * sizeof(*more));
			uint64_t *sigs = more ? realloc(sh->sig, cap * sizeof(*sigs)) : NULL;

			if (more)
				sh->item = more;
			if (!sigs)
				return -ENOMEM;
			sh->sig = sigs;
		}
		sh->item[sh->nitems] = k;
		if (k == sh->w[0].len)
			break;
		sh->nitems++;
	}
	for (k = 0; !rc && k < sh->nitems; k++)
		sh->sig[k] = item_sig(sh->w[0].n + sh->item[k], sh->item[k + 1] - sh->item[k]);
	return rc;
}

static void shape_free(struct shape *sh)
{
	uint32_t i;

	for (i = 0; i < sh->opened; i++)
		ioa_trace_rank_close(&sh->tr[i]);
	for (i = 0; sh->w && i < sh->nranks; i++)
		free(sh->w[i].n);
	free(sh->w);
	free(sh->tr);
	free(sh->item);
	free(sh->sig);
}

/* Numbers the files in the order the ranks first use them, and counts each file's ranks. */
static int count_files(struct gen *g, const struct shape *sh)
{
	uint32_t i, j;

	for (i = 0; i < sh->nranks; i++)
		for (j = 0; j < sh->tr[i].nfiles; j++) {
			int num = file_number(&g->files, sh->tr[i].files[j]);

			if (num < 0)
				return -ENOMEM;
			if ((size_t)num >= g->cap_file_ranks) {
				size_t cap = ((size_t)num + 1) * 2;
				uint32_t *more = realloc(g->file_ranks, cap * sizeof(*more));
				uint64_t *marks;

				if (!more)
					return -ENOMEM;
				g->file_ranks = more;
				if (!(marks = realloc(g->file_mark, cap * sizeof(*marks))))
					return -ENOMEM;
				g->file_mark = marks;
				memset(more + g->cap_file_ranks, 0,
				       (cap - g->cap_file_ranks) * sizeof(*more));
				memset(marks + g->cap_file_ranks, 0,
				       (cap - g->cap_file_ranks) * sizeof(*marks));
				g->cap_file_ranks = cap;
			}
			/* A rank counts once per file (its POSIX and MPI-IO slots name the same
			 * file). */
			if (g->file_mark[num] != (uint64_t)sh->ranks[i] + 1) {
				g->file_mark[num] = (uint64_t)sh->ranks[i] + 1;
				g->file_ranks[num]++;
			}
		}
	return 0;
}

/* A part's member: a rank, its nodes from the part's first, its trace. */
struct member {
	uint32_t rank;
	struct walked view;
	struct ioa_trace_rank *tr;
};

static int member_cmp(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* Writes a list of ranks as ranges ("0-3, 8, 10-11"), the first 12 of them. */
static void put_ranks(struct gen *g, const uint32_t *r, uint32_t m)
{
	uint32_t i, j, shown = 0;

	for (i = 0; i < m && shown < 12; i = j + 1, shown++) {
		for (j = i; j + 1 < m && r[j + 1] == r[j] + 1; j++)
			;
		put(g, j > i ? "%s%u-%u" : "%s%u", i ? ", " : "", r[i], r[j]);
	}
	if (i < m)
		put(g, ", ...");
}

/*
 * Emits one part: the items [from[s], to[s]) of each of its member shapes,
 * as the function part<id>(R, G), G the rank's index among the part's.
 */
static int emit_part(struct gen *g, unsigned id, struct shape *const *sh, const size_t *from,
		     const size_t *to, size_t nsh, struct part *out)
{
	struct gfun f = {.g = g, .id = id};
	struct member *mem;
	struct ioa_trace_rank **tr;
	uint32_t *ranks;
	char indent[2 * MAX_DEPTH + 8];
	uint32_t i, m = 0;
	size_t k, s, depths = 0;
	int rc = 0;

	for (s = 0; s < nsh; s++)
		m += sh[s]->nranks;
	mem = calloc(m + 1, sizeof(*mem));
	tr = calloc(m + 1, sizeof(*tr));
	ranks = calloc(m + 1, sizeof(*ranks));
	f.w = calloc(m + 1, sizeof(*f.w));
	ioa_buf_init(&f.pre, (size_t)1 << 30);
	ioa_buf_init(&f.body, (size_t)1 << 30);
	if (!mem || !tr || !ranks || !f.w)
		rc = -ENOMEM;
	for (s = 0, m = 0; s < nsh && !rc; s++) {
		size_t a = sh[s]->item[from[s]], b = sh[s]->item[to[s]];

		for (i = 0; i < sh[s]->nranks; i++) {
			mem[m].rank = sh[s]->ranks[i];
			mem[m].view = (struct walked){sh[s]->w[i].n + a, b - a, 0, sh[s]->w[i].spt,
						      sh[s]->w[i].hdf5};
			mem[m++].tr = &sh[s]->tr[i];
		}
	}
	if (!rc)
		qsort(mem, m, sizeof(*mem), member_cmp);
	for (i = 0; i < m && !rc; i++) {
		ranks[i] = mem[i].rank;
		f.w[i] = mem[i].view;
		tr[i] = mem[i].tr;
		if (i && !same_shape(&f.w[0], &f.w[i]))
			rc = -EINVAL; /* two items' signatures collided */
	}
	f.ranks = ranks;
	f.m = m;
	rc = rc ? rc : file_table(&f, tr);
	if (!rc && m != g->nprocs && !(m == 1 && ranks[0] == 0))
		g->tied = "some ranks make calls that the others do not";
	if (!rc && !f.files_shared)
		g->tied = "ranks use files of their own";
	for (k = 0; k < (f.w && m ? f.w[0].len : 0) && !rc; k++) {
		const struct node *n = &f.w[0].n[k];
		unsigned d = n->depth;

		memset(indent, '\t', sizeof(indent));
		indent[d + 1 < sizeof(indent) ? d + 1 : sizeof(indent) - 1] = '\0';
		if (n->kind == 0) {
			/* Phases and their steps; deeper loops say what they are themselves. */
			rc = n->depth <= 1 ? describe_loop(&f, k, indent) : 0;
			rc = rc ? rc
				: ioa_buf_addf(&f.body,
					       "%sfor (i%u = 0; i%u < %" PRIu64 "; i%u++) {\n",
					       indent, n->depth, n->depth, n->count, n->depth);
			depths = n->depth + 1 > depths ? n->depth + 1 : depths;
			g->sum->loops++;
		} else if (n->kind == 1) {
			rc = emit_carry(&f, indent);
			rc = rc ? rc : ioa_buf_addf(&f.body, "%s}\n", indent);
		} else {
			rc = emit_call(&f, k, indent);
		}
	}
	rc = rc ? rc : emit_carry(&f, "");
	if (!rc) {
		put(g, "\n/* Part %u: ranks ", id);
		put_ranks(g, ranks, m);
		put(g, " (%u); R a rank, G its index among them. */\n", m);
		if (!rank_step(ranks, m)) {
			put(g, "static const uint32_t ranks%u[%u] = {", id, m);
			for (i = 0; i < m; i++)
				put(g, "%s%u", i ? ", " : "", ranks[i]);
			put(g, "};\n");
		}
		put(g, "%s#undef FILE_OF\n#define FILE_OF(slot) files%u[%s][(slot)]\n",
		    ioa_buf_str(&f.pre), f.files_id, f.files_shared ? "0" : "G");
		put(g, "static void part%u(int64_t R, int64_t G)\n{\n", id);
		for (k = 0; k < depths; k++)
			put(g, "%si%zu%s", k ? ", " : "\tint64_t ", k,
			    k + 1 == depths ? ";\n" : "");
		put(g, "\t(void)R;\n\t(void)G;\n");
		/* A part whose calls are none of them replayed still names its table. */
		if (!strstr(ioa_buf_str(&f.body), "FILE_OF("))
			put(g, "\t(void)files%u;\n", f.files_id);
		put(g, "%s}\n", ioa_buf_str(&f.body));
		out->ranks = ranks;
		out->m = m;
		ranks = NULL;
	}
	free(ranks);
	free(mem);
	free(tr);
	free(f.w);
	ioa_buf_release(&f.pre);
	ioa_buf_release(&f.body);
	return rc;
}

/* The s-th group making a merged record (a record of every group keeps no list). */
static size_t member_of(const struct kmerge *km, const struct kmerge_record *x, size_t s, size_t ng)
{
	return x->nranks == ng ? s : km->members[x->first + s];
}

static int same_members(const struct kmerge *km, const struct kmerge_record *x,
			const struct kmerge_record *y, size_t ng)
{
	size_t s;

	if (x->nranks != y->nranks)
		return 0;
	for (s = 0; s < x->nranks; s++)
		if (member_of(km, x, s, ng) != member_of(km, y, s, ng))
			return 0;
	return 1;
}

/*
 * The groups' top-level items merged into one SPMD sequence (jobs/kmerge.c,
 * the paper's greedy merge): an item the groups make together is emitted
 * once for all their ranks; consecutive items made by the same groups form
 * one part.  Each rank runs the parts it is in, in order: its own calls in
 * its own order, whatever the merge decided.
 */
static int emit_parts(struct gen *g, struct part **parts, size_t *nparts)
{
	size_t ng = g->t.ngroups, r, j, np = 0;
	struct shape *sh = calloc(ng + 1, sizeof(*sh));
	struct kmerge_rank *seq = calloc(ng + 1, sizeof(*seq));
	struct shape **who = calloc(ng + 1, sizeof(*who));
	size_t *from = calloc(ng + 1, sizeof(*from)), *to = calloc(ng + 1, sizeof(*to));
	struct kmerge km = {0};
	int rc = sh && seq && who && from && to ? 0 : -ENOMEM;

	*parts = NULL;
	for (j = 0; j < ng && !rc; j++) {
		rc = walk_shape(g, &g->t.groups[j], &sh[j]);
		rc = rc ? rc : count_files(g, &sh[j]);
		seq[j] = (struct kmerge_rank){sh[j].sig, sh[j].nitems};
	}
	g->sum->groups = (unsigned)ng;
	rc = rc ? rc : kmerge_run(seq, (uint32_t)ng, 200, &km);
	if (!rc && !(*parts = calloc(km.nrec + 1, sizeof(**parts))))
		rc = -ENOMEM;
	for (r = 0; r < km.nrec && !rc; r = j) {
		const struct kmerge_record *x = &km.rec[r];
		size_t s;

		/* The run of records made by the same groups. */
		for (j = r + 1; j < km.nrec && same_members(&km, x, &km.rec[j], ng); j++)
			;
		for (s = 0; s < x->nranks; s++) {
			struct shape *m = &sh[member_of(&km, x, s, ng)];

			who[s] = m;
			from[s] = m->next;
			m->next += j - r;
			to[s] = m->next;
		}
		rc = emit_part(g, (unsigned)np, who, from, to, x->nranks, &(*parts)[np]);
		np += !rc;
	}
	*nparts = np;
	g->sum->parts = (unsigned)np;
	kmerge_free(&km);
	for (j = 0; sh && j < ng; j++)
		shape_free(&sh[j]);
	free(sh);
	free(seq);
	free(who);
	free(from);
	free(to);
	return rc;
}

/* ------------------------------------------------------------ the program */

/* The headers every kernel includes. */
static const char includes[] =
	"#define _GNU_SOURCE\n"
	"#include <errno.h>\n#include <fcntl.h>\n#include <mpi.h>\n#include <stdint.h>\n"
	"#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <sys/stat.h>\n"
	"#include <time.h>\n#include <unistd.h>\n\n";

/*
 * The helpers every kernel carries (in pieces: C compilers bound a literal's
 * length); inline, so that those a kernel does not call cost no warning.
 */
static const char *const prologue[] = {
	"static const char *data_dir = \".\";\n"
	"static double compute_scale = 1;\n"
	"static int mode; /* 0 causal, 1 think-limited, 2 as fast as possible */\n"
	"static int fds[NFILES];\nstatic FILE *fps[NFILES];\nstatic MPI_File fhs[NFILES];\n"
	"static int64_t unit[NFILES]; /* an MPI-IO file's etype size, under its view */\n"
	"static char *buf;\nstatic size_t buf_len;\nstatic int rank, size;\n\n"
	"static void *kbuf(int64_t n)\n{\n"
	"\tif (n > (int64_t)buf_len) {\n\t\tfree(buf);\n\t\tbuf_len = (size_t)n;\n"
	"\t\tbuf = calloc(1, buf_len);\n\t\tif (!buf)\n\t\t\tMPI_Abort(MPI_COMM_WORLD, 1);\n\t}\n"
	"\treturn buf;\n}\n\n"
	"/* Compute: spinning, so that a faster machine does not shorten it. */\n"
	"static inline void k_gap(double s)\n{\n\tstruct timespec t0, t;\n\n"
	"\tif (mode == 2)\n\t\treturn;\n\tclock_gettime(CLOCK_MONOTONIC, &t0);\n"
	"\tdo\n\t\tclock_gettime(CLOCK_MONOTONIC, &t);\n"
	"\twhile ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9 < s * "
	"compute_scale);\n}\n\n"
	"/* The gap before a call's next execution when its gaps changed in order: the table of\n"
	" * its runs of executions (each ending at end[]) and their gaps, walked as it comes. */\n"
	"static inline double k_order(const double *gap, const uint64_t *end, unsigned n,\n"
	"\t\t\t     uint64_t *x, unsigned *s)\n{\n"
	"\tuint64_t i = (*x)++ % end[n - 1];\n\n"
	"\tif (i == 0)\n\t\t*s = 0;\n"
	"\twhile (*s + 1 < n && i >= end[*s])\n\t\t++*s;\n"
	"\treturn gap[*s];\n}\n\n"
	"static const char *path(int f)\n{\n\tstatic char p[4096];\n\n"
	"\tif (f < 0 || f >= NFILES)\n\t\treturn \"/nonexistent\";\n"
	"\tsnprintf(p, sizeof(p), \"%s/%s\", data_dir, names[f]);\n\treturn p;\n}\n\n"
	"/* create: 0 an existing file, 1 created if need be, 2 created empty; | K_APPEND, "
	"K_TRUNC */\n"
	"#define K_APPEND 4\n"
	"#define K_TRUNC 8\n"
	"static inline void k_open(int f, int create)\n{\n"
	"\tint flags = (create & 3) == 2 ? O_WRONLY | O_CREAT | O_TRUNC\n"
	"\t\t    : (create & 3)    ? O_RDWR | O_CREAT\n"
	"\t\t\t\t      : O_RDWR;\n\n"
	"\tif (create & K_APPEND)\n\t\tflags |= O_APPEND;\n"
	"\tif (create & K_TRUNC)\n\t\tflags |= O_TRUNC;\n"
	"\tif (f < 0 || f >= NFILES)\n\t\treturn;\n",
	"\tif (fds[f] > 0)\n\t\tclose(fds[f]);\n"
	"\tfds[f] = open(path(f), flags, 0644);\n"
	"\tif (fds[f] < 0 && errno == EISDIR)\n\t\tfds[f] = open(path(f), O_RDONLY);\n}\n\n"
	"#define FD(f) ((f) >= 0 && (f) < NFILES ? fds[f] : -1)\n"
	"static inline void k_close(int f)\n{\n\tif (FD(f) > 0)\n\t\tclose(fds[f]);\n"
	"\tif (f >= 0 && f < NFILES)\n\t\tfds[f] = -1;\n}\n"
	"static inline void k_write(int f, int64_t n)\n{\n\tif (write(FD(f), kbuf(n), (size_t)n) < "
	"0)\n"
	"\t\treturn;\n}\n"
	"static inline void k_pwrite(int f, int64_t n, int64_t o)\n{\n"
	"\tif (pwrite(FD(f), kbuf(n), (size_t)n, (off_t)o) < 0)\n\t\treturn;\n}\n"
	"static inline void k_read(int f, int64_t n)\n{\n\tif (read(FD(f), kbuf(n), (size_t)n) < "
	"0)\n"
	"\t\treturn;\n}\n"
	"static inline void k_pread(int f, int64_t n, int64_t o)\n{\n"
	"\tif (pread(FD(f), kbuf(n), (size_t)n, (off_t)o) < 0)\n\t\treturn;\n}\n"
	"static inline void k_lseek(int f, int64_t o)\n{\n\tlseek(FD(f), (off_t)o, SEEK_SET);\n}\n"
	"static inline void k_fsync(int f, int data)\n{\n\tif (data)\n\t\tfdatasync(FD(f));\n"
	"\telse\n\t\tfsync(FD(f));\n}\n"
	"static inline void k_stat(int f)\n{\n\tstruct stat st;\n\n\tstat(path(f), &st);\n}\n"
	"static inline void k_fstat(int f)\n{\n\tstruct stat st;\n\n\tfstat(FD(f), &st);\n}\n"
	"static inline void k_unlink(int f)\n{\n\tunlink(path(f));\n}\n"
	"static inline void k_remove(int f)\n{\n\tremove(path(f));\n}\n"
	"static inline void k_rmdir(int f)\n{\n\trmdir(path(f));\n}\n"
	"static inline void k_mkdir(int f)\n{\n\tmkdir(path(f), 0755);\n}\n"
	"static inline void k_access(int f)\n{\n\taccess(path(f), F_OK);\n}\n"
	"static inline void k_ftruncate(int f, int64_t n)\n{\n"
	"\tif (ftruncate(FD(f), (off_t)n))\n\t\treturn;\n}\n",
	"#define FP(f) ((f) >= 0 && (f) < NFILES ? fps[f] : NULL)\n"
	"static inline void k_fopen(int f)\n{\n\tif (f >= 0 && f < NFILES && !fps[f])\n"
	"\t\tfps[f] = fopen(path(f), \"a+\");\n}\n"
	"static inline void k_fclose(int f)\n{\n\tif (FP(f)) {\n\t\tfclose(fps[f]);\n\t\tfps[f] = "
	"NULL;\n"
	"\t}\n}\n"
	"/* The job's standard streams are the kernel's; it writes dots to them. */\n"
	"static FILE *std_stream(int f)\n{\n"
	"\treturn !strcmp(names[f], \"<STDOUT>\") ? stdout\n"
	"\t       : !strcmp(names[f], \"<STDERR>\") ? stderr\n"
	"\t       : !strcmp(names[f], \"<STDIN>\")  ? stdin\n"
	"\t\t\t\t\t\t   : NULL;\n}\n"
	"static inline void k_fwrite(int f, int64_t n)\n{\n\tchar *b = kbuf(n);\n\n"
	"\tif (!FP(f))\n\t\treturn;\n"
	"\tif (n > 0 && (fps[f] == stdout || fps[f] == stderr)) {\n"
	"\t\tmemset(b, '.', (size_t)n);\n\t\tb[n - 1] = '\\n';\n\t}\n"
	"\tfwrite(b, 1, (size_t)n, fps[f]);\n}\n"
	"static inline void k_fread(int f, int64_t n)\n{\n\tif (FP(f) && fread(kbuf(n), 1, "
	"(size_t)n, "
	"fps[f]) == 0)\n\t\tclearerr(fps[f]);\n}\n"
	"static inline void k_fseek(int f, int64_t o)\n{\n\tif (FP(f))\n"
	"\t\tfseeko(fps[f], (off_t)o, SEEK_SET);\n}\n"
	"static inline void k_fflush(int f)\n{\n\tif (FP(f))\n\t\tfflush(fps[f]);\n}\n"
	"static inline void k_ftell(int f)\n{\n\tif (FP(f) && ftell(fps[f]) < 0)\n\t\treturn;\n}\n"
	"static MPI_Comm k_comm_of(int64_t comm, int f);\n"
	"static inline void k_mpi_open(int f, int64_t amode, int64_t comm, const char *hints)\n{\n"
	"\tMPI_Info info;\n\tchar kv[4096], *line, *save = NULL, *eq;\n\n"
	"\tif (f < 0 || f >= NFILES)\n\t\treturn;\n\tMPI_Info_create(&info);\n"
	"\tsnprintf(kv, sizeof(kv), \"%s\", hints);\n"
	"\tfor (line = strtok_r(kv, \";\\n\", &save); line; line = strtok_r(NULL, \";\\n\", "
	"&save))\n"
	"\t\tif ((eq = strchr(line, '='))) {\n\t\t\t*eq = '\\0';\n"
	"\t\t\tMPI_Info_set(info, line, eq + 1);\n\t\t}\n"
	"\tMPI_File_open(k_comm_of(comm, f), path(f), (int)amode, info, &fhs[f]);\n\tunit[f] = 1;\n"
	"\tMPI_Info_free(&info);\n}\n"
	"static inline void k_mpi_close(int f)\n{\n\tif (f >= 0 && f < NFILES && fhs[f] != "
	"MPI_FILE_NULL)\n"
	"\t\tMPI_File_close(&fhs[f]);\n}\n"
	"static inline void k_mpi_sync(int f)\n{\n\tif (f >= 0 && f < NFILES && fhs[f] != "
	"MPI_FILE_NULL)\n"
	"\t\tMPI_File_sync(fhs[f]);\n}\n",
	"static inline void k_mpi_set_size(int f, int64_t n)\n{\n"
	"\tif (f >= 0 && f < NFILES && fhs[f] != MPI_FILE_NULL)\n"
	"\t\tMPI_File_set_size(fhs[f], (MPI_Offset)n);\n}\n"
	"/* The individual file pointer moved (whence 0 set, 1 current, 2 end), in etypes. */\n"
	"static inline void k_mpi_seek(int f, int64_t o, int64_t whence)\n{\n"
	"\tif (f < 0 || f >= NFILES || fhs[f] == MPI_FILE_NULL || whence < 0 || whence > 2)\n"
	"\t\treturn;\n\tif (unit[f] > 1)\n\t\to *= unit[f];\n"
	"\tMPI_File_seek(fhs[f], (MPI_Offset)o,\n"
	"\t\t      whence == 0 ? MPI_SEEK_SET : whence == 1 ? MPI_SEEK_CUR : MPI_SEEK_END);\n}\n"
	"static inline void k_mpi_get_size(int f)\n{\n\tMPI_Offset size;\n\n"
	"\tif (f >= 0 && f < NFILES && fhs[f] != MPI_FILE_NULL)\n"
	"\t\tMPI_File_get_size(fhs[f], &size);\n}\n",
	"/*\n * File views: the filetype's shape (k_view_type, k_view_dim), then the view,\n"
	" * made of bytes: offsets given in etypes are scaled by the etype's size.\n */\n"
	"static struct {\n\tint64_t kind, base, ndims, n, dim[3][3];\n} view = {-1, 1, 0, 0, "
	"{{0}}};\n"
	"static inline void k_view_type(int64_t kind, int64_t base, int64_t ndims)\n{\n"
	"\tview.kind = kind;\n\tview.base = base > 0 ? base : 1;\n\tview.ndims = ndims;\n"
	"\tview.n = 0;\n}\n"
	"static inline void k_view_dim(int64_t a, int64_t b, int64_t c)\n{\n"
	"\tif (view.n < 3) {\n\t\tview.dim[view.n][0] = a;\n\t\tview.dim[view.n][1] = b;\n"
	"\t\tview.dim[view.n++][2] = c;\n\t}\n}\n"
	"static inline void k_mpi_set_view(int f, int64_t disp, int64_t etype)\n{\n"
	"\tMPI_Datatype ft = MPI_BYTE;\n\tint sizes[3], subs[3], starts[3], i, n = (int)view.n;\n\n"
	"\tif (f < 0 || f >= NFILES || fhs[f] == MPI_FILE_NULL)\n\t\treturn;\n"
	"\tunit[f] = etype > 0 ? etype : 1;\n"
	"\tif (view.kind == 1 && n == 1)\n"
	"\t\tMPI_Type_vector((int)view.dim[0][0], (int)(view.dim[0][1] * view.base),\n"
	"\t\t\t\t(int)(view.dim[0][2] * view.base), MPI_BYTE, &ft);\n"
	"\telse if (view.kind == 2 && n >= 1 && n == view.ndims) {\n"
	"\t\tfor (i = 0; i < n; i++) {\n"
	"\t\t\tint64_t scale = i == n - 1 ? view.base : 1;\n\n"
	"\t\t\tsizes[i] = (int)(view.dim[i][0] * scale);\n"
	"\t\t\tsubs[i] = (int)(view.dim[i][1] * scale);\n"
	"\t\t\tstarts[i] = (int)(view.dim[i][2] * scale);\n\t\t}\n"
	"\t\tMPI_Type_create_subarray(n, sizes, subs, starts, MPI_ORDER_C, MPI_BYTE, &ft);\n"
	"\t}\n"
	"\tif (ft != MPI_BYTE)\n\t\tMPI_Type_commit(&ft);\n"
	"\tMPI_File_set_view(fhs[f], (MPI_Offset)disp, MPI_BYTE, ft, \"native\", MPI_INFO_NULL);\n"
	"\tif (ft != MPI_BYTE)\n\t\tMPI_Type_free(&ft);\n"
	"\tview.kind = -1;\n\tview.n = 0;\n}\n",
	"/* How an MPI-IO call reads or writes (an offset < 0: at the file pointer). */\n"
	"enum { K_INDEP, K_COLL, K_SHARED, K_ORDERED, K_NB, K_NB_COLL, K_NB_SHARED, K_SPLIT,\n"
	"       K_SPLIT_ORDERED };\n"
	"#define K_IO(how, ...) (write ? MPI_File_write##how(__VA_ARGS__) : "
	"MPI_File_read##how(__VA_ARGS__))\n"
	"#define K_IIO(how, ...) (write ? MPI_File_iwrite##how(__VA_ARGS__) : "
	"MPI_File_iread##how(__VA_ARGS__))\n"
	"static inline void k_mpi_rw(int f, int64_t o, int64_t n, int write, int how)\n{\n"
	"\tMPI_File fh = f >= 0 && f < NFILES ? fhs[f] : MPI_FILE_NULL;\n"
	"\tMPI_Request req = MPI_REQUEST_NULL;\n\tMPI_Status st;\n"
	"\tvoid *b = kbuf(n);\n\tint c = (int)n;\n\n"
	"\tif (fh == MPI_FILE_NULL)\n\t\treturn;\n"
	"\tif (o > 0 && unit[f] > 1)\n\t\to *= unit[f];\n"
	"\tswitch (how) {\n"
	"\tcase K_COLL:\n"
	"\t\to < 0 ? K_IO(_all, fh, b, c, MPI_BYTE, &st) : K_IO(_at_all, fh, o, b, c, "
	"MPI_BYTE, &st);\n\t\tbreak;\n"
	"\tcase K_SHARED:\n\t\tK_IO(_shared, fh, b, c, MPI_BYTE, &st);\n\t\tbreak;\n"
	"\tcase K_ORDERED:\n\t\tK_IO(_ordered, fh, b, c, MPI_BYTE, &st);\n\t\tbreak;\n"
	"\tcase K_NB:\n"
	"\t\to < 0 ? K_IIO(, fh, b, c, MPI_BYTE, &req) : K_IIO(_at, fh, o, b, c, MPI_BYTE, "
	"&req);\n\t\tbreak;\n"
	"\tcase K_NB_COLL:\n"
	"\t\to < 0 ? K_IIO(_all, fh, b, c, MPI_BYTE, &req)\n"
	"\t\t      : K_IIO(_at_all, fh, o, b, c, MPI_BYTE, &req);\n\t\tbreak;\n"
	"\tcase K_NB_SHARED:\n\t\tK_IIO(_shared, fh, b, c, MPI_BYTE, &req);\n\t\tbreak;\n"
	"\tcase K_SPLIT:\n"
	"\t\tif (o < 0) {\n\t\t\tK_IO(_all_begin, fh, b, c, MPI_BYTE);\n"
	"\t\t\tK_IO(_all_end, fh, b, &st);\n\t\t} else {\n"
	"\t\t\tK_IO(_at_all_begin, fh, o, b, c, MPI_BYTE);\n"
	"\t\t\tK_IO(_at_all_end, fh, b, &st);\n\t\t}\n\t\tbreak;\n"
	"\tcase K_SPLIT_ORDERED:\n\t\tK_IO(_ordered_begin, fh, b, c, MPI_BYTE);\n"
	"\t\tK_IO(_ordered_end, fh, b, &st);\n\t\tbreak;\n"
	"\tdefault:\n"
	"\t\to < 0 ? K_IO(, fh, b, c, MPI_BYTE, &st) : K_IO(_at, fh, o, b, c, MPI_BYTE, "
	"&st);\n\t}\n"
	"\tif (req != MPI_REQUEST_NULL)\n\t\tMPI_Wait(&req, &st);\n}\n",
	"/*\n * Synchronization as the job did it; think-limited mode leaves it out.\n"
	" * Communicators are the rank's slots in the trace: 0 is MPI_COMM_WORLD, the\n"
	" * others made by the Comm_split and Comm_dup calls replayed; a call on one\n"
	" * the kernel could not make (created otherwise) is left out.  Peers are\n"
	" * relative to the rank in the communicator, as the trace keeps them.\n */\n"
	"#define KCOMMS 256\n#define KREQS 4096\n"
	"static MPI_Comm comms[KCOMMS];\nstatic MPI_Request reqs[KREQS];\n"
	"static char posted[KREQS];\nstatic void *req_bufs[KREQS];\n\n"
	"static MPI_Comm kcomm(int64_t slot, int *me, int *n)\n{\n"
	"\tMPI_Comm c = slot == 0 ? MPI_COMM_WORLD\n"
	"\t\t    : slot > 0 && slot < KCOMMS && comms[slot] ? comms[slot]\n"
	"\t\t\t\t\t\t\t\t : MPI_COMM_NULL;\n\n"
	"\tif (mode == 1 || c == MPI_COMM_NULL)\n\t\treturn MPI_COMM_NULL;\n"
	"\tMPI_Comm_rank(c, me);\n\tMPI_Comm_size(c, n);\n\treturn c;\n}\n"
	"#define KCOMM(slot)                                    \\\n"
	"\tint me, n_;                                    \\\n"
	"\tMPI_Comm c = kcomm(slot, &me, &n_);            \\\n"
	"\tif (c == MPI_COMM_NULL)                        \\\n"
	"\t\treturn\n"
	"#define PEER(p) ((int)((me + (p)) % n_))\n"
	"static inline void k_barrier(int64_t slot)\n{\n\tKCOMM(slot);\n\tMPI_Barrier(c);\n}\n"
	"static inline void k_bcast(int64_t n, int64_t root, int64_t slot)\n{\n\tKCOMM(slot);\n"
	"\tMPI_Bcast(kbuf(n), (int)n, MPI_BYTE, (int)(root >= 0 ? root : 0), c);\n}\n"
	"static inline void k_reduce(int64_t n, int all, int64_t root, int64_t slot)\n{\n"
	"\tvoid *out;\n\tKCOMM(slot);\n\tout = calloc(1, (size_t)(n > 0 ? n : 1));\n"
	"\tif (all)\n\t\tMPI_Allreduce(kbuf(n), out, (int)n, MPI_BYTE, MPI_BOR, c);\n"
	"\telse\n\t\tMPI_Reduce(kbuf(n), out, (int)n, MPI_BYTE, MPI_BOR, (int)(root >= 0 ? "
	"root : 0), c);\n"
	"\tfree(out);\n}\n",
	"static inline void k_send(int64_t n, int64_t peer, int64_t slot)\n{\n\tKCOMM(slot);\n"
	"\tif (peer >= 0)\n\t\tMPI_Send(kbuf(n), (int)n, MPI_BYTE, PEER(peer), 0, c);\n}\n"
	"static inline void k_recv(int64_t n, int64_t peer, int64_t slot)\n{\n\tKCOMM(slot);\n"
	"\tMPI_Recv(kbuf(n), (int)n, MPI_BYTE, peer >= 0 ? PEER(peer) : MPI_ANY_SOURCE, 0, c, "
	"MPI_STATUS_IGNORE);\n}\n"
	"static inline void k_sendrecv(int64_t n, int64_t peer, int64_t slot)\n{\n\tvoid *in;\n"
	"\tKCOMM(slot);\n\tif (peer < 0)\n\t\treturn;\n"
	"\tin = malloc((size_t)(n > 0 ? n : 1));\n"
	"\tMPI_Sendrecv(kbuf(n), (int)n, MPI_BYTE, PEER(peer), 0, in, (int)n, MPI_BYTE,\n"
	"\t\t     (int)((me - peer % n_ + n_) % n_), 0, c, MPI_STATUS_IGNORE);\n"
	"\tfree(in);\n}\n"
	"static inline void k_all(int64_t n, int to_all, int64_t slot)\n{\n\tint64_t each;\n"
	"\tvoid *out;\n\tKCOMM(slot);\n\teach = n / n_ > 0 ? n / n_ : 1;\n"
	"\tout = malloc((size_t)(each * n_));\n"
	"\tif (to_all)\n\t\tMPI_Alltoall(kbuf(each * n_), (int)each, MPI_BYTE, out, (int)each, "
	"MPI_BYTE, c);\n"
	"\telse\n\t\tMPI_Allgather(kbuf(each), (int)each, MPI_BYTE, out, (int)each, MPI_BYTE, "
	"c);\n\tfree(out);\n}\n",
	"/*\n"
	" * Rooted collectives with this rank's bytes: a gather of what each rank\n"
	" * sends, a scatter of what each receives.  Their v forms, where the counts\n"
	" * differ between ranks, first gather the counts at the root (an int a\n"
	" * rank), as the job's root knew them.\n"
	" */\n"
	"static int *k_counts(int64_t n, int v, int root, int me, int n_, MPI_Comm c, int "
	"**displs)\n{\n"
	"\tint mine = (int)(n > 0 ? n : 0), *counts = calloc((size_t)n_, sizeof(int)), i;\n\n"
	"\t*displs = calloc((size_t)n_, sizeof(int));\n"
	"\tif (v)\n\t\tMPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, root, c);\n"
	"\telse\n\t\tfor (i = 0; i < n_; i++)\n\t\t\tcounts[i] = mine;\n"
	"\tfor (i = 1; i < n_ && me == root; i++)\n"
	"\t\t(*displs)[i] = (*displs)[i - 1] + counts[i - 1];\n"
	"\treturn counts;\n}\n"
	"static inline void k_gather(int64_t n, int v, int64_t root, int64_t slot)\n{\n"
	"\tint *counts, *displs, r, total;\n\tvoid *out;\n\tKCOMM(slot);\n"
	"\tr = (int)(root >= 0 && root < n_ ? root : 0);\n"
	"\tcounts = k_counts(n, v, r, me, n_, c, &displs);\n"
	"\ttotal = me == r ? displs[n_ - 1] + counts[n_ - 1] : 0;\n"
	"\tout = malloc((size_t)(total > 0 ? total : 1));\n"
	"\tMPI_Gatherv(kbuf(n), (int)(n > 0 ? n : 0), MPI_BYTE, out, counts, displs, MPI_BYTE, r, "
	"c);\n"
	"\tfree(out);\n\tfree(counts);\n\tfree(displs);\n}\n"
	"static inline void k_scatter(int64_t n, int v, int64_t root, int64_t slot)\n{\n"
	"\tint *counts, *displs, r, total;\n\tvoid *out;\n\tKCOMM(slot);\n"
	"\tr = (int)(root >= 0 && root < n_ ? root : 0);\n"
	"\tcounts = k_counts(n, v, r, me, n_, c, &displs);\n"
	"\ttotal = me == r ? displs[n_ - 1] + counts[n_ - 1] : 0;\n"
	"\tout = malloc((size_t)(n > 0 ? n : 1));\n"
	"\tMPI_Scatterv(kbuf(total), counts, displs, MPI_BYTE, out, (int)(n > 0 ? n : 0), "
	"MPI_BYTE, r, c);\n"
	"\tfree(out);\n\tfree(counts);\n\tfree(displs);\n}\n"
	"static inline void k_allgatherv(int64_t n, int64_t slot)\n{\n"
	"\tint mine = (int)(n > 0 ? n : 0), *counts, *displs, i;\n\tvoid *out;\n\tKCOMM(slot);\n"
	"\tcounts = calloc((size_t)n_, sizeof(int));\n\tdispls = calloc((size_t)n_, sizeof(int));\n"
	"\tMPI_Allgather(&mine, 1, MPI_INT, counts, 1, MPI_INT, c);\n"
	"\tfor (i = 1; i < n_; i++)\n\t\tdispls[i] = displs[i - 1] + counts[i - 1];\n"
	"\tout = malloc((size_t)(displs[n_ - 1] + counts[n_ - 1] + 1));\n"
	"\tMPI_Allgatherv(kbuf(n), mine, MPI_BYTE, out, counts, displs, MPI_BYTE, c);\n"
	"\tfree(out);\n\tfree(counts);\n\tfree(displs);\n}\n"
	"static inline void k_scan(int64_t n, int ex, int64_t slot)\n{\n"
	"\tvoid *out;\n\tKCOMM(slot);\n\tout = calloc(1, (size_t)(n > 0 ? n : 1));\n"
	"\tif (ex)\n\t\tMPI_Exscan(kbuf(n), out, (int)n, MPI_BYTE, MPI_BOR, c);\n"
	"\telse\n\t\tMPI_Scan(kbuf(n), out, (int)n, MPI_BYTE, MPI_BOR, c);\n"
	"\tfree(out);\n}\n",
	"/* Non-blocking: each request in its slot, with a buffer of its own to receive in. */\n"
	"static inline void k_isend(int64_t n, int64_t peer, int64_t req, int64_t slot)\n{\n"
	"\tKCOMM(slot);\n\tif (peer < 0 || req < 0 || req >= KREQS)\n\t\treturn;\n"
	"\tposted[req] = !MPI_Isend(kbuf(n), (int)n, MPI_BYTE, PEER(peer), 0, c, &reqs[req]);\n}\n"
	"static inline void k_irecv(int64_t n, int64_t peer, int64_t req, int64_t slot)\n{\n"
	"\tKCOMM(slot);\n\tif (req < 0 || req >= KREQS)\n\t\treturn;\n"
	"\treq_bufs[req] = malloc((size_t)(n > 0 ? n : 1));\n"
	"\tposted[req] = !MPI_Irecv(req_bufs[req], (int)n, MPI_BYTE,\n"
	"\t\t\t\t  peer >= 0 ? PEER(peer) : MPI_ANY_SOURCE, 0, c, &reqs[req]);\n}\n"
	"static inline void k_wait(int64_t req)\n{\n"
	"\tif (req < 0 || req >= KREQS || !posted[req])\n\t\treturn;\n"
	"\tMPI_Wait(&reqs[req], MPI_STATUS_IGNORE);\n\tposted[req] = 0;\n"
	"\tfree(req_bufs[req]);\n\treq_bufs[req] = NULL;\n}\n"
	"/* The trace does not say which requests a Waitall named: all those pending. */\n"
	"static inline void k_waitall(void)\n{\n\tint64_t r;\n\n"
	"\tfor (r = 0; r < KREQS; r++)\n\t\tk_wait(r);\n}\n"
	"static inline void k_comm_split(int64_t slot, int64_t color, int64_t key, int64_t "
	"made)\n{\n"
	"\tMPI_Comm out = MPI_COMM_NULL;\n\tKCOMM(slot);\n"
	"\tMPI_Comm_split(c, color < 0 ? MPI_UNDEFINED : (int)color, (int)key, &out);\n"
	"\tif (made > 0 && made < KCOMMS)\n\t\tcomms[made] = out;\n}\n"
	"static inline void k_comm_dup(int64_t slot, int64_t made)\n{\n"
	"\tMPI_Comm out = MPI_COMM_NULL;\n\tKCOMM(slot);\n\tMPI_Comm_dup(c, &out);\n"
	"\tif (made > 0 && made < KCOMMS)\n\t\tcomms[made] = out;\n}\n"
	"/*\n"
	" * The communicator a file is opened on (comm: its trace slot + 1; 0: not\n"
	" * known, then all ranks or one, COMM_OF): the world, one the kernel made\n"
	" * as the job did (k_comm_split, k_comm_dup), else the one slotmap names\n"
	" * for this rank: the world, the rank alone, or the members of a group,\n"
	" * made at its first use (only the members call MPI_Comm_create_group).\n"
	" */\n"
	"static MPI_Comm k_comm_of(int64_t comm, int f)\n{\n"
	"\tint64_t slot = comm - 1;\n\tint i;\n\n"
	"\tif (comm <= 0)\n\t\treturn COMM_OF(f);\n"
	"\tif (slot == 0)\n\t\treturn MPI_COMM_WORLD;\n"
	"\tif (slot < KCOMMS && comms[slot])\n\t\treturn comms[slot];\n"
	"\tfor (i = 0; i < NSLOTMAP; i++) {\n"
	"\t\tint64_t g = slotmap[i][2];\n\n"
	"\t\tif (slotmap[i][0] != rank || slotmap[i][1] != slot)\n\t\t\tcontinue;\n"
	"\t\tif (g < 0)\n\t\t\treturn g == -1 ? MPI_COMM_WORLD : MPI_COMM_SELF;\n"
	"\t\t/* Run on fewer ranks (--ranks): the group is not all there. */\n"
	"\t\tif (members[member_at[g + 1] - 1] >= size)\n\t\t\treturn COMM_OF(f);\n"
	"\t\tif (!mmade[g]) {\n"
	"\t\t\tMPI_Group world, group;\n\n"
	"\t\t\tMPI_Comm_group(MPI_COMM_WORLD, &world);\n"
	"\t\t\tMPI_Group_incl(world, member_at[g + 1] - member_at[g], members + member_at[g],\n"
	"\t\t\t\t       &group);\n"
	"\t\t\tMPI_Comm_create_group(MPI_COMM_WORLD, group, (int)g, &mcomms[g]);\n"
	"\t\t\tMPI_Group_free(&group);\n\t\t\tMPI_Group_free(&world);\n"
	"\t\t\tmmade[g] = 1;\n\t\t}\n"
	"\t\treturn mcomms[g];\n\t}\n"
	"\treturn COMM_OF(f);\n}\n",
	NULL};

static const char *const prologue_h5[] = {
	"/*\n"
	" * HDF5, as the job called it: files with the access properties the job's\n"
	" * records hold, datasets of the extent, maximum, chunks and element size\n"
	" * the trace keeps (k_h5_dim before each create), files opened on the\n"
	" * communicator the job's file-access list named (comm: its trace slot + 1;\n"
	" * 0: not known, then all ranks or one, COMM_OF), reads and writes of the\n"
	" * regular hyperslab the trace keeps (k_h5_sel, k_h5_block before each),\n"
	" * collective where the job's were.  A dataset is \"/\" and its name.  A\n"
	" * file or dataset opened again while open gets another identifier, as in\n"
	" * the job: the last opened is the one used, and closed first.\n"
	" */\n"
	"#define K_H5_MAX 32\n"
	"#define K_H5_COLLECTIVE 1\n"
	"#define K_H5_ALL 2\n"
	"#define K_H5_IRREGULAR 4\n"
	"#define K_H5_OPENS 8\n"
	"static hid_t h5ids[NFILES][K_H5_OPENS];\n"
	"static int h5n[NFILES];\n"
	"#define H5ID(f) ((f) >= 0 && (f) < NFILES && h5n[f] ? h5ids[f][h5n[f] - 1] : -1)\n"
	"static void h5_close_id(hid_t id)\n"
	"{\n"
	"\tif (H5Iget_type(id) == H5I_DATASET)\n"
	"\t\tH5Dclose(id);\n"
	"\telse\n"
	"\t\tH5Fclose(id);\n"
	"}\n"
	"static void h5_opened(int f, hid_t id)\n"
	"{\n"
	"\tif (id < 0)\n"
	"\t\treturn;\n"
	"\tif (h5n[f] == K_H5_OPENS)\n"
	"\t\th5_close_id(id);\n"
	"\telse\n"
	"\t\th5ids[f][h5n[f]++] = id;\n"
	"}\n"
	"static struct {\n"
	"\tint ndims, nsel, nblock;\n"
	"\thsize_t dim[K_H5_MAX], max[K_H5_MAX], chunk[K_H5_MAX];\n"
	"\thsize_t start[K_H5_MAX], count[K_H5_MAX], stride[K_H5_MAX], block[K_H5_MAX];\n"
	"} h5;\n"
	"\n"
	"static inline void k_h5_dim(int64_t dim, int64_t max, int64_t chunk)\n"
	"{\n"
	"\tif (h5.ndims < K_H5_MAX) {\n"
	"\t\th5.dim[h5.ndims] = (hsize_t)dim;\n"
	"\t\th5.max[h5.ndims] = max < 0 ? H5S_UNLIMITED : (hsize_t)max;\n"
	"\t\th5.chunk[h5.ndims++] = (hsize_t)chunk;\n"
	"\t}\n"
	"}\n"
	"static inline void k_h5_sel(int64_t start, int64_t count, int64_t stride)\n"
	"{\n"
	"\tif (h5.nsel < K_H5_MAX) {\n"
	"\t\th5.start[h5.nsel] = (hsize_t)start;\n"
	"\t\th5.count[h5.nsel] = (hsize_t)count;\n"
	"\t\th5.stride[h5.nsel++] = (hsize_t)(stride > 0 ? stride : 1);\n"
	"\t}\n"
	"}\n"
	"static inline void k_h5_block(int64_t block)\n"
	"{\n"
	"\tif (h5.nblock < K_H5_MAX)\n"
	"\t\th5.block[h5.nblock++] = (hsize_t)(block > 0 ? block : 1);\n"
	"}\n"
	"static inline void k_h5_fopen(int f, int create, int64_t flags, int64_t comm)\n"
	"{\n"
	"\thid_t fapl = H5Pcreate(H5P_FILE_ACCESS);\n"
	"\n"
	"\tif (f < 0 || f >= NFILES)\n"
	"\t\treturn;\n"
	"\tif (h5fapl[f][0])\n"
	"\t\tH5Pset_fapl_mpio(fapl, k_comm_of(comm, f), MPI_INFO_NULL);\n"
	"\tif (h5fapl[f][1] & 1)\n"
	"\t\tH5Pset_all_coll_metadata_ops(fapl, 1);\n"
	"\tif (h5fapl[f][1] & 2)\n"
	"\t\tH5Pset_coll_metadata_write(fapl, 1);\n"
	"\tif (h5fapl[f][3] > 1)\n"
	"\t\tH5Pset_alignment(fapl, (hsize_t)h5fapl[f][2], (hsize_t)h5fapl[f][3]);\n"
	"\th5_opened(f, create ? H5Fcreate(path(f), (unsigned)flags, H5P_DEFAULT, fapl)\n"
	"\t\t\t    : H5Fopen(path(f), (unsigned)flags, fapl));\n"
	"\tH5Pclose(fapl);\n"
	"}\n"
	"static const char *h5name(int d)\n"
	"{\n"
	"\tstatic char p[4200];\n"
	"\n"
	"\tsnprintf(p, sizeof(p), \"/%s\", names[d]);\n"
	"\treturn p;\n"
	"}\n"
	"static hid_t k_h5_type(int64_t size)\n"
	"{\n"
	"\tstatic hid_t other;\n"
	"\n"
	"\tswitch (size) {\n"
	"\tcase 1:\n"
	"\t\treturn H5T_NATIVE_UCHAR;\n"
	"\tcase 2:\n"
	"\t\treturn H5T_NATIVE_USHORT;\n"
	"\tcase 4:\n"
	"\t\treturn H5T_NATIVE_UINT;\n"
	"\tcase 8:\n"
	"\t\treturn H5T_NATIVE_ULLONG;\n"
	"\t}\n"
	"\tif (other > 0)\n"
	"\t\tH5Tclose(other);\n"
	"\tother = H5Tcreate(H5T_OPAQUE, (size_t)(size > 0 ? size : 1));\n"
	"\treturn other;\n"
	"}\n"
	"#define H5F_OF(d) ((d) >= 0 && (d) < NFILES && h5file[d] >= 0 ? H5ID(h5file[d]) : -1)\n",
	"static inline void k_h5_dcreate(int d, int64_t ndims, int64_t size)\n"
	"{\n"
	"\thid_t space, dcpl = H5Pcreate(H5P_DATASET_CREATE);\n"
	"\tint i, chunked = 0;\n"
	"\n"
	"\t(void)ndims;\n"
	"\tfor (i = 0; i < h5.ndims; i++)\n"
	"\t\tchunked |= h5.chunk[i] > 0 || h5.max[i] == H5S_UNLIMITED;\n"
	"\tfor (i = 0; chunked && i < h5.ndims; i++)\n"
	"\t\tif (!h5.chunk[i])\n"
	"\t\t\th5.chunk[i] = h5.dim[i] ? h5.dim[i] : 1;\n"
	"\tif (chunked)\n"
	"\t\tH5Pset_chunk(dcpl, h5.ndims, h5.chunk);\n"
	"\tspace = h5.ndims ? H5Screate_simple(h5.ndims, h5.dim, h5.max) : H5Screate(H5S_SCALAR);\n"
	"\tif (d >= 0 && d < NFILES)\n"
	"\t\th5_opened(d, H5Dcreate2(H5F_OF(d), h5name(d), k_h5_type(size), space,\n"
	"\t\t\t\t\tH5P_DEFAULT, dcpl, H5P_DEFAULT));\n"
	"\tH5Sclose(space);\n"
	"\tH5Pclose(dcpl);\n"
	"\th5.ndims = 0;\n"
	"}\n"
	"static inline void k_h5_dopen(int d)\n"
	"{\n"
	"\tif (d >= 0 && d < NFILES)\n"
	"\t\th5_opened(d, H5Dopen2(H5F_OF(d), h5name(d), H5P_DEFAULT));\n"
	"\th5.ndims = 0;\n"
	"}\n"
	"static inline void k_h5_rw(int d, int64_t n, int64_t how, int write)\n"
	"{\n"
	"\thid_t ds = H5ID(d), type, fs = H5S_ALL, ms = H5S_ALL;\n"
	"\thid_t dxpl = H5Pcreate(H5P_DATASET_XFER);\n"
	"\thsize_t points;\n"
	"\tsize_t elem;\n"
	"\n"
	"\tif (ds < 0 || (type = H5Dget_type(ds)) < 0) {\n"
	"\t\tH5Pclose(dxpl);\n"
	"\t\th5.nsel = h5.nblock = 0;\n"
	"\t\treturn;\n"
	"\t}\n"
	"\telem = H5Tget_size(type);\n"
	"\tpoints = elem ? (hsize_t)n / elem : 0;\n"
	"\tif (how & K_H5_COLLECTIVE)\n"
	"\t\tH5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);\n"
	"\t/* A selection the trace does not hold (points, irregular) moves nothing: validate "
	"says. */\n"
	"\tif (!(how & K_H5_ALL)) {\n"
	"\t\thsize_t one = 1;\n"
	"\t\tint sel;\n"
	"\n"
	"\t\tfs = H5Dget_space(ds);\n"
	"\t\tsel = points && h5.nsel && h5.nsel == H5Sget_simple_extent_ndims(fs);\n"
	"\t\tif (sel)\n"
	"\t\t\tH5Sselect_hyperslab(fs, H5S_SELECT_SET, h5.start, h5.stride, h5.count,\n"
	"\t\t\t\t\t    h5.nblock == h5.nsel ? h5.block : NULL);\n"
	"\t\telse\n"
	"\t\t\tH5Sselect_none(fs);\n"
	"\t\tms = H5Screate_simple(1, sel ? &points : &one, NULL);\n"
	"\t\tif (!sel)\n"
	"\t\t\tH5Sselect_none(ms);\n"
	"\t}\n"
	"\tif (write)\n"
	"\t\tH5Dwrite(ds, type, ms, fs, dxpl, kbuf(n));\n"
	"\telse\n"
	"\t\tH5Dread(ds, type, ms, fs, dxpl, kbuf(n));\n"
	"\tif (fs != H5S_ALL)\n"
	"\t\tH5Sclose(fs);\n"
	"\tif (ms != H5S_ALL)\n"
	"\t\tH5Sclose(ms);\n"
	"\tH5Tclose(type);\n"
	"\tH5Pclose(dxpl);\n"
	"\th5.nsel = h5.nblock = 0;\n"
	"}\n"
	"static inline void k_h5_close(int f)\n"
	"{\n"
	"\thid_t id = H5ID(f);\n"
	"\n"
	"\tif (id < 0)\n"
	"\t\treturn;\n"
	"\th5_close_id(id);\n"
	"\th5n[f]--;\n"
	"}\n"
	"static inline void k_h5_flush(int f)\n"
	"{\n"
	"\thid_t id = H5ID(f);\n"
	"\n"
	"\tif (id < 0)\n"
	"\t\treturn;\n"
	"\tif (H5Iget_type(id) == H5I_DATASET)\n"
	"\t\tH5Dflush(id);\n"
	"\telse\n"
	"\t\tH5Fflush(id, H5F_SCOPE_LOCAL);\n"
	"}\n",
	NULL};

static const char epilogue[] =
	"\nstatic void usage(void)\n{\n"
	"\tif (!rank)\n\t\tfprintf(stderr, \"usage: %s [--iterations N] [--compute-scale X] "
	"[--data-dir DIR] [--mode causal|think|fast] [--ranks N] [--prepare]\\n\", "
	"\"kernel\");\n}\n\n"
	"int main(int argc, char **argv)\n{\n\tlong iterations = 1, it, ranks = NPROCS;\n"
	"\tint a, f, prepare = 0;\n\n"
	"\tMPI_Init(&argc, &argv);\n\tMPI_Comm_rank(MPI_COMM_WORLD, &rank);\n"
	"\tMPI_Comm_size(MPI_COMM_WORLD, &size);\n"
	"\tfor (a = 1; a < argc; a++) {\n"
	"\t\tif (!strcmp(argv[a], \"--iterations\") && a + 1 < argc)\n"
	"\t\t\titerations = strtol(argv[++a], NULL, 10);\n"
	"\t\telse if (!strcmp(argv[a], \"--compute-scale\") && a + 1 < argc)\n"
	"\t\t\tcompute_scale = strtod(argv[++a], NULL);\n"
	"\t\telse if (!strcmp(argv[a], \"--data-dir\") && a + 1 < argc)\n"
	"\t\t\tdata_dir = argv[++a];\n"
	"\t\telse if (!strcmp(argv[a], \"--ranks\") && a + 1 < argc)\n"
	"\t\t\tranks = strtol(argv[++a], NULL, 10);\n"
	"\t\telse if (!strcmp(argv[a], \"--prepare\"))\n"
	"\t\t\tprepare = 1;\n"
	"\t\telse if (!strcmp(argv[a], \"--mode\") && a + 1 < argc) {\n"
	"\t\t\ta++;\n\t\t\tmode = !strcmp(argv[a], \"think\") ? 1 : !strcmp(argv[a], \"fast\") ? 2 "
	": 0;\n"
	"\t\t} else {\n\t\t\tusage();\n\t\t\tMPI_Finalize();\n\t\t\treturn 2;\n\t\t}\n\t}\n"
	"\t/* --ranks N: the job as if it had N ranks, where its numbers allow it. */\n"
	"\tif (ranks != NPROCS && tied) {\n\t\tif (!rank)\n"
	"\t\t\tfprintf(stderr, \"kernel: made for %d ranks and cannot change: %s\\n\", NPROCS, "
	"tied);\n"
	"\t\tMPI_Finalize();\n\t\treturn 2;\n\t}\n"
	"\tif (size != ranks) {\n\t\tif (!rank)\n\t\t\tfprintf(stderr, \"kernel: made for %ld "
	"ranks, run with %d\\n\", ranks, size);\n\t\tMPI_Finalize();\n\t\treturn 2;\n\t}\n"
	"\tfor (f = 0; f < NFILES; f++) {\n\t\tfds[f] = -1;\n\t\tfhs[f] = MPI_FILE_NULL;\n"
	"\t\tfps[f] = std_stream(f);\n\t}\n"
	"\t/* --prepare: the inputs, made before the run (and outside what is measured). */\n"
	"\tif (prepare) {\n\t\tfor (f = 0; !rank && f < NFILES; f++)\n"
	"\t\t\tif (input_size[f] >= 0 && !std_stream(f)) {\n"
	"\t\t\t\tint fd = open(path(f), O_WRONLY | O_CREAT, 0644);\n\n"
	"\t\t\t\tif (fd < 0 || ftruncate(fd, (off_t)input_size[f]))\n"
	"\t\t\t\t\tfprintf(stderr, \"kernel: cannot make %s\\n\", path(f));\n"
	"\t\t\t\tif (fd >= 0)\n\t\t\t\t\tclose(fd);\n\t\t\t}\n"
	"\t\tMPI_Finalize();\n\t\treturn 0;\n\t}\n"
	"\tfor (it = 0; it < iterations; it++)\n\t\trun();\n"
	"\tfree(buf);\n\tMPI_Finalize();\n\treturn 0;\n}\n";

/* An HDF5 file's access properties (any rank's say them), a dataset's file. */
static int h5_record(struct gen *g, const struct ioa_log_record *rec)
{
	const int64_t *c = rec->counters;
	struct h5rec *x = NULL, *more;
	size_t i;

	for (i = 0; i < g->nh5 && !x; i++)
		if (g->h5[i].id == rec->id && g->h5[i].module == (int)rec->module)
			x = &g->h5[i];
	if (!x) {
		if (!(more = realloc(g->h5, (g->nh5 + 1) * sizeof(*more))))
			return -ENOMEM;
		g->h5 = more;
		x = &g->h5[g->nh5++];
		*x = (struct h5rec){.id = rec->id, .module = (int)rec->module};
	}
	if (rec->module == IOA_MOD_H5D) {
		x->v[0] = c[H5D_FILE_REC_ID];
		return 0;
	}
	x->v[0] |= c[H5F_USE_MPIIO] > 0;
	x->v[1] |= (c[H5F_USE_COLL_METADATA_OPS] > 0) | (c[H5F_USE_COLL_METADATA_WRITE] > 0) << 1;
	if (c[H5F_ALIGNMENT] > x->v[3]) {
		x->v[2] = c[H5F_ALIGNMENT_THRESHOLD];
		x->v[3] = c[H5F_ALIGNMENT];
	}
	return 0;
}

/*
 * Files read but not created by the job: the kernel's --prepare makes them,
 * of this size.  A file is made by the job when any of its records says so
 * (MPI-IO's records do not: the POSIX open under it does).
 */
#define K_MADE (-2)
static int on_record(const struct ioa_log_record *rec, void *arg)
{
	struct gen *g = arg;
	int64_t read, last;
	uint64_t *ids;
	int64_t *sizes;

	if (rec->module == IOA_MOD_H5F || rec->module == IOA_MOD_H5D)
		return h5_record(g, rec);
	if (rec->module == IOA_MOD_POSIX) {
		read = rec->counters[POSIX_BYTES_READ];
		last = rec->counters[POSIX_MAX_BYTE_READ];
	} else if (rec->module == IOA_MOD_STDIO) {
		read = rec->counters[STDIO_BYTES_READ];
		last = rec->counters[STDIO_MAX_BYTE_READ];
	} else if (rec->module == IOA_MOD_MPIIO) {
		read = rec->counters[MPIIO_BYTES_READ];
		last = 0;
	} else {
		return 0; /* HDF5, PnetCDF: their files' POSIX or MPI-IO records say it */
	}
	if (read <= 0 && !(rec->flags & IOA_REC_CREATED))
		return 0;
	if (!(ids = realloc(g->input_id, (g->ninputs + 1) * sizeof(*ids))))
		return -ENOMEM;
	g->input_id = ids;
	if (!(sizes = realloc(g->input_size, (g->ninputs + 1) * sizeof(*sizes))))
		return -ENOMEM;
	g->input_size = sizes;
	g->input_id[g->ninputs] = rec->id;
	g->input_size[g->ninputs++] = rec->flags & IOA_REC_CREATED ? K_MADE
				      : last + 1 > read		   ? last + 1
								   : read;
	return 0;
}

static int read_log(struct gen *g, const char *path, struct ioa_buf *err)
{
	struct ioa_log_reader r = {.fd = -1};
	struct ioa_buf raw = IOA_BUF_INIT(REGION_CAP);
	uint32_t i;
	int rc = ioa_logr_open(&r, path), traced = 0;

	for (i = 0; !rc && i < r.region_count; i++) {
		uint32_t type = r.regions[i].type;

		if (type != IOA_REGION_TRACE && (type < 16 || type >= 32))
			continue;
		rc = ioa_logr_read_region(&r, i, &raw);
		if (type == IOA_REGION_TRACE) {
			rc = rc ? rc : ioa_trace_decode(&g->t, raw.data, raw.len);
			traced |= !rc;
		} else {
			rc = rc ? rc : ioa_logr_each_record(&r, i, &raw, on_record, g);
		}
	}
	if (rc)
		ioa_buf_addf(err, "%s: %s", path,
			     r.error[0] ? r.error : "the trace does not decode");
	else if (!traced) {
		ioa_buf_addf(err, "%s: the log holds no operation trace", path);
		rc = -ENOENT;
	}
	ioa_logr_close(&r);
	ioa_buf_release(&raw);
	return rc;
}

/* A name as the program used it (bytes, no NUL inside: a path cannot hold one). */
static int on_name(uint64_t id, const unsigned char *name, uint32_t len, void *arg)
{
	struct gen *g = arg;
	uint64_t *ids;
	char **names;

	if (memchr(name, 0, len))
		return 0; /* not a path: the file stays anonymous */
	ids = realloc(g->name_id, (g->nnames + 1) * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	g->name_id = ids;
	names = realloc(g->name, (g->nnames + 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	g->name = names;
	g->name_id[g->nnames] = id;
	g->name[g->nnames] = strndup((const char *)name, len);
	return g->name[g->nnames++] ? 0 : -ENOMEM;
}

static int read_names(struct gen *g, const char *path)
{
	struct ioa_log_reader r = {.fd = -1};
	struct ioa_buf raw = IOA_BUF_INIT(REGION_CAP);
	uint32_t i;
	int rc = ioa_logr_open(&r, path);

	for (i = 0; !rc && i < r.region_count; i++)
		if (r.regions[i].type == IOA_REGION_NAMES) {
			rc = ioa_logr_read_region(&r, i, &raw);
			rc = rc ? rc : ioa_logr_each_name(&r, &raw, on_name, g);
		}
	ioa_logr_close(&r);
	ioa_buf_release(&raw);
	return rc;
}

/* The file names: anonymous (f<number>), or the job's basenames when asked. */
static void emit_names(struct gen *g)
{
	size_t i, j;

	put(g, "#define NFILES %zu\n" KGEN_NAMES_HEAD, g->files.n ? g->files.n : 1);
	for (i = 0; i < g->files.n; i++) {
		const char *name = NULL;

		for (j = 0; j < g->nnames && !name; j++)
			if (g->name_id[j] == g->files.id[i] &&
			    (g->o->keep_names || !strcmp(g->name[j], "<STDOUT>") ||
			     !strcmp(g->name[j], "<STDERR>") || !strcmp(g->name[j], "<STDIN>")))
				name = g->name[j];
		if (name && strrchr(name, '/'))
			name = strrchr(name, '/') + 1;
		/* A basename that names no file of the data folder stays anonymous. */
		if (name && (!*name || !strcmp(name, ".") || !strcmp(name, "..")))
			name = NULL;
		if (name) {
			struct ioa_buf b = IOA_BUF_INIT(1 << 16);

			if (literal(&b, (const unsigned char *)name, strlen(name)))
				g->failed = 1;
			put(g, "\t%s,\n", ioa_buf_str(&b));
			ioa_buf_release(&b);
		} else {
			put(g, "\t\"f%zu\",\n", i);
		}
	}
	put(g, "\t\"unused\"};\n");
}

/* The kernel file of a log's record id (of any module), or -1. */
static int kernel_file(const struct gen *g, uint64_t id)
{
	size_t i;

	for (i = 0; i < g->files.n; i++)
		if (g->files.id[i] == id)
			return (int)i;
	return -1;
}

/* Per HDF5 file its access properties, per dataset its file. */
static void emit_h5_files(struct gen *g)
{
	size_t i, j;

	put(g, "/* Per HDF5 file: MPI-IO driver, collective metadata (1 reads, 2 writes), "
	       "alignment threshold and alignment. */\n"
	       "static const int64_t h5fapl[NFILES + 1][4] = {");
	for (i = 0; i < g->files.n; i++) {
		const int64_t *v = NULL;

		for (j = 0; j < g->nh5 && !v; j++)
			if (g->h5[j].id == g->files.id[i] && g->h5[j].module == IOA_MOD_H5F)
				v = g->h5[j].v;
		put(g, "%s{%" PRId64 ", %" PRId64 ", %" PRId64 ", %" PRId64 "}", i ? ", " : "",
		    v ? v[0] : 0, v ? v[1] : 0, v ? v[2] : 0, v ? v[3] : 0);
	}
	put(g,
	    "%s{0}};\n/* Per dataset: its file (-1: not a dataset). */\n"
	    "static const int h5file[NFILES + 1] = {",
	    g->files.n ? ", " : "");
	for (i = 0; i < g->files.n; i++) {
		int file = -1;

		for (j = 0; j < g->nh5 && file < 0; j++)
			if (g->h5[j].id == g->files.id[i] && g->h5[j].module == IOA_MOD_H5D)
				file = kernel_file(g, (uint64_t)g->h5[j].v[0]);
		put(g, "%s%d", i ? ", " : "", file);
	}
	put(g, "%s-1};\n", g->files.n ? ", " : "");
}

/* A communicator the trace knows by its members only: its leader and size, the ranks in it. */
struct mcomm {
	int64_t leader, size, last; /* last: the last rank counted in it */
	uint32_t *ranks, n;
};

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Per rank and communicator slot the job made no traced call for (HDF5's
 * and ROMIO's copies, MPI_COMM_SELF), what k_comm_of() opens files on: the
 * world (-1) or the rank alone (-2) by size, else the group of the ranks
 * whose slot has the same leader and size (version 6 traces), when that
 * many ranks do (else the rank is left to COMM_OF).
 */
/*
 * What rank r opens files on when its trace names communicator c: -1 the
 * world, -2 the rank alone, else the index in *m of the group with c's
 * leader and size, to which r is added; -3 when it cannot be told.
 */
static int64_t comm_code(struct gen *g, struct mcomm **m, size_t *nm,
			 const struct ioa_trace_comm *c, uint32_t r)
{
	struct mcomm *x;
	size_t j;

	if (c->size == 1 || c->size == g->nprocs)
		return c->size == 1 ? -2 : -1;
	if (c->leader < 0 || c->size < 1)
		return -3;
	for (j = 0; j < *nm; j++)
		if ((*m)[j].leader == c->leader && (*m)[j].size == c->size)
			break;
	if (j == *nm) {
		struct mcomm *more = realloc(*m, (*nm + 1) * sizeof(**m));

		if (!more)
			return g->failed = 1, -3;
		*m = more;
		more[(*nm)++] = (struct mcomm){c->leader, c->size, -1, NULL, 0};
	}
	x = &(*m)[j];
	/* A rank with two copies of one communicator is in it once; past its size, none is kept. */
	if (x->last != r && x->n <= (uint32_t)c->size) {
		uint32_t *more = realloc(x->ranks, (x->n + 1) * sizeof(*more));

		if (!more)
			return g->failed = 1, -3;
		x->ranks = more;
		x->ranks[x->n++] = r;
	}
	x->last = r;
	return (int64_t)j;
}

static void emit_comms(struct gen *g)
{
	struct mcomm *m = NULL;
	int64_t(*map)[3] = NULL;
	size_t nm = 0, nmap = 0, capmap = 0, i, k, j;
	uint32_t at = 0;

	for (i = 0; i < g->t.ngroups && !g->failed; i++)
		for (k = 0; k < g->t.groups[i].nranks && !g->failed; k++) {
			uint32_t r = g->t.groups[i].ranks[k], s;
			struct ioa_trace_rank tr;

			if (ioa_trace_rank_open(&g->t, r, &tr))
				continue;
			for (s = 1; s < tr.ncomms && !g->failed; s++) {
				int64_t code = comm_code(g, &m, &nm, &tr.comms[s], r);

				if (code == -3)
					continue;
				if (nmap == capmap) {
					size_t cap = capmap ? 2 * capmap : 64;
					int64_t(*more)[3] = realloc(map, cap * sizeof(*map));

					if (!more) {
						g->failed = 1;
						break;
					}
					map = more;
					capmap = cap;
				}
				map[nmap][0] = r;
				map[nmap][1] = s;
				map[nmap++][2] = code;
			}
			ioa_trace_rank_close(&tr);
		}
	put(g, "/* Communicators by membership (k_comm_of): rank, slot, -1 the world, -2 the rank "
	       "alone,\n * or the group whose ranks are members[member_at[g]] to "
	       "members[member_at[g + 1]]. */\n"
	       "static const int64_t slotmap[][3] = {");
	for (i = 0, j = 0; i < nmap; i++) {
		int64_t code = map[i][2];

		/* Two communicators with one leader and size: neither can be told. */
		if (code >= 0 && m[code].n != (uint32_t)m[code].size)
			continue;
		put(g, "%s{%" PRId64 ", %" PRId64 ", %" PRId64 "}", j++ ? ", " : "", map[i][0],
		    map[i][1], code);
	}
	put(g, "%s{-1, -1, -1}};\n#define NSLOTMAP %zu\nstatic const int members[] = {",
	    j ? ", " : "", j);
	for (i = 0; i < nm; i++) {
		if (m[i].n == (uint32_t)m[i].size)
			qsort(m[i].ranks, m[i].n, sizeof(*m[i].ranks), cmp_u32);
		for (k = 0; m[i].n == (uint32_t)m[i].size && k < m[i].n; k++)
			put(g, "%" PRIu32 ", ", m[i].ranks[k]);
	}
	put(g, "0};\nstatic const int member_at[] = {0");
	for (i = 0; i < nm; i++) {
		at += m[i].n == (uint32_t)m[i].size ? m[i].n : 0;
		put(g, ", %" PRIu32, at);
	}
	put(g, "};\nstatic MPI_Comm mcomms[%zu];\nstatic char mmade[%zu];\n", nm + 1, nm + 1);
	for (i = 0; i < nm; i++)
		free(m[i].ranks);
	free(m);
	free(map);
}

/* Per file: opened by all ranks together (MPI-IO), and its size when it is an input. */
static void emit_files(struct gen *g)
{
	size_t i, j;

	put(g, "/* MPI-IO files every rank opens are opened collectively. */\n"
	       "static const int collective[NFILES + 1] = {");
	for (i = 0; i < g->files.n; i++)
		put(g, "%s%d", i ? ", " : "",
		    g->nprocs > 1 && i < g->cap_file_ranks && g->file_ranks[i] == g->nprocs);
	put(g, "%s0};\n#define COMM_OF(f) (collective[f] ? MPI_COMM_WORLD : MPI_COMM_SELF)\n",
	    g->files.n ? ", " : "");
	put(g, "/* Inputs: files the job read without making them (--prepare makes them). */\n"
	       "static const int64_t input_size[NFILES + 1] = {");
	for (i = 0; i < g->files.n; i++) {
		int64_t size = -1;
		int made = 0;

		for (j = 0; j < g->ninputs; j++)
			if (g->input_id[j] == g->files.id[i]) {
				made |= g->input_size[j] == K_MADE;
				if (g->input_size[j] > size)
					size = g->input_size[j];
			}
		put(g, "%s%" PRId64, i ? ", " : "", made ? -1 : size);
	}
	put(g, "%s-1};\n", g->files.n ? ", " : "");
	emit_comms(g);
	if (g->hdf5)
		emit_h5_files(g);
}

/* Whether the trace holds HDF5 calls (a runtime from before they were traced kept none). */
static int traced_hdf5(struct gen *g)
{
	size_t i;
	uint32_t k;
	int yes = 0;

	for (i = 0; i < g->t.ngroups && !yes; i++) {
		struct ioa_trace_rank tr;

		if (ioa_trace_rank_open(&g->t, g->t.groups[i].ranks[0], &tr))
			continue;
		for (k = 0; k < tr.nsigs && !yes; k++)
			yes = ioa_trace_layer_call(&tr.sigs[k]);
		ioa_trace_rank_close(&tr);
	}
	return yes;
}

int kgen_log(const char *path, const struct kgen_options *o, FILE *out, struct kgen_summary *sum,
	     struct ioa_buf *err)
{
	struct gen g = {.out = out, .o = o, .sum = sum};
	struct part *parts = NULL;
	size_t nparts = 0;
	FILE *body = NULL;
	char *text = NULL;
	size_t text_len = 0, i;
	int rc;

	memset(sum, 0, sizeof(*sum));
	rc = read_log(&g, path, err);
	/* The names: the standard streams are the kernel's, other files named if asked. */
	rc = rc ? rc : read_names(&g, path);
	for (i = 0; !rc && i < g.t.ngroups; i++)
		g.nprocs += g.t.groups[i].nranks;
	g.hdf5 = !rc && o->level != KGEN_MPIIO && traced_hdf5(&g);
	if (!rc && o->level == KGEN_HDF5 && !g.hdf5) {
		ioa_buf_addf(err, "%s: its trace holds no HDF5 calls", path);
		rc = -ENOENT;
	}
	sum->hdf5 = g.hdf5;
	/* The parts first (they number the files), then the program around them. */
	body = rc ? NULL : open_memstream(&text, &text_len);
	if (!rc && !body)
		rc = -ENOMEM;
	g.out = body;
	rc = rc ? rc : emit_parts(&g, &parts, &nparts);
	if (body && fclose(body))
		rc = rc ? rc : -ENOMEM;
	g.out = out;
	if (!rc) {
		sum->ranks = g.nprocs;
		sum->files = (unsigned)g.files.n;
		put(&g,
		    "/*\n * I/O kernel generated by ioatlas from a job's operation trace: the "
		    "job's "
		    "I/O calls,\n * with its compute gaps (spinning) and synchronization, for %u "
		    "ranks.\n * Build: make (mpicc); run: mpiexec -n %u ./kernel [--iterations N] "
		    "[--compute-scale X]\n * [--data-dir DIR] [--mode causal|think|fast] [--ranks "
		    "N]\n */\n",
		    g.nprocs, g.nprocs);
		if (sum->calls_exact < sum->calls_total)
			put(&g,
			    "/*\n * The trace kept %" PRIu64 " of the job's %" PRIu64
			    " calls exactly (the first of each\n * rank; the rest it "
			    "summarised or dropped): the kernel replays those only.\n */\n",
			    sum->calls_exact, sum->calls_total);
		put(&g, "%s%s#define NPROCS %u\n", includes, g.hdf5 ? "#include <hdf5.h>\n\n" : "",
		    g.nprocs);
		put(&g, "/* Why the kernel runs with NPROCS ranks only (NULL: --ranks may change "
			"it). */\n"
			"static const char *const tied = ");
		if (g.tied)
			put(&g, "\"%s\";\n", g.tied);
		else
			put(&g, "NULL;\n");
		emit_names(&g);
		emit_files(&g);
		for (i = 0; prologue[i]; i++)
			put(&g, "%s", prologue[i]);
		for (i = 0; g.hdf5 && prologue_h5[i]; i++)
			put(&g, "%s", prologue_h5[i]);
		put(&g, "%s", text ? text : "");
		put(&g, "\n/* The job: each rank runs the parts it is in, in order. */\n"
			"static void run(void)\n{\n");
		for (i = 0; i < nparts; i++)
			if (!rank_step(parts[i].ranks, parts[i].m))
				break;
		if (i < nparts)
			put(&g, "\tuint32_t i;\n\n");
		for (i = 0; i < nparts; i++) {
			uint32_t m = parts[i].m, step = rank_step(parts[i].ranks, m);
			uint32_t first = parts[i].ranks[0];

			if (!step)
				put(&g,
				    "\tfor (i = 0; i < %u; i++)\n\t\tif (ranks%zu[i] == "
				    "(uint32_t)rank)\n\t\t\tpart%zu(rank, i);\n",
				    m, i, i);
			else if (step == 1 && first == 0 && m == g.nprocs)
				put(&g, "\tpart%zu(rank, rank);\n", i);
			else if (step == 1 && first == 0)
				put(&g, "\tif (rank < %u)\n\t\tpart%zu(rank, rank);\n", m, i);
			else if (step == 1)
				put(&g,
				    "\tif (rank >= %u && rank < %u)\n\t\tpart%zu(rank, rank - "
				    "%u);\n",
				    first, first + m, i, first);
			else
				put(&g,
				    "\tif (rank >= %u && (rank - %u) %% %u == 0 && (rank - %u) / "
				    "%u < %u)\n"
				    "\t\tpart%zu(rank, (rank - %u) / %u);\n",
				    first, first, step, first, step, m, i, first, step);
		}
		put(&g, "}\n%s", epilogue);
		if (g.failed || fflush(out))
			rc = -EIO;
	} else if (!err->len) {
		ioa_buf_addf(err, "%s: %s", path,
			     rc == -EINVAL    ? "ranks of one group differ in shape"
			     : rc == -EBADMSG ? "its operation trace is malformed"
			     : rc == -E2BIG
				     ? "its trace claims more ranks than a kernel can be made "
				       "from (their traces would take over 1 GiB)"
				     : strerror(-rc));
	}
	free(text);
	for (i = 0; i < nparts; i++)
		free(parts[i].ranks);
	free(parts);
	if (!rc) {
		sum->file_ids = g.files.id;
		g.files.id = NULL;
	}
	free(g.files.id);
	free(g.file_ranks);
	free(g.file_mark);
	free(g.input_id);
	free(g.input_size);
	free(g.h5);
	for (i = 0; i < g.nftab; i++)
		free(g.ftab[i]);
	free(g.ftab);
	for (i = 0; i < g.nnames; i++)
		free(g.name[i]);
	free(g.name);
	free(g.name_id);
	ioa_trace_free(&g.t);
	return rc;
}

/* The bytes of a C string literal as literal() writes it: "...", octal escapes only. */
static int unliteral(const char *s, size_t len, struct ioa_buf *out)
{
	ioa_buf_reset(out);
	if (len < 2 || s[0] != '"' || s[len - 1] != '"')
		return -EINVAL;
	for (size_t i = 1; i + 1 < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\\') {
			if (i + 4 >= len || s[i + 1] < '0' || s[i + 1] > '3' || s[i + 2] < '0' ||
			    s[i + 2] > '7' || s[i + 3] < '0' || s[i + 3] > '7')
				return -EINVAL;
			c = (unsigned char)((s[i + 1] - '0') << 6 | (s[i + 2] - '0') << 3 |
					    (s[i + 3] - '0'));
			i += 3;
		}
		if (ioa_buf_add(out, &c, 1))
			return -ENOMEM;
	}
	return 0;
}

int kgen_each_name(const char *src, size_t len,
		   int (*fn)(size_t index, const struct ioa_buf *name, size_t line_off,
			     size_t line_len, void *arg),
		   void *arg)
{
	static const char head[] = KGEN_NAMES_HEAD, end_line[] = "\t\"unused\"};";
	const char *start = memmem(src, len, head, sizeof(head) - 1), *p, *end = src + len;
	struct ioa_buf name = IOA_BUF_INIT(1 << 16);
	size_t index = 0;
	int rc = 0;

	if (!start)
		return -EINVAL;
	for (p = start + sizeof(head) - 1; p < end && !rc; index++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n == sizeof(end_line) - 1 && !memcmp(p, end_line, n))
			break;
		if (n < 4 || p[0] != '\t' || p[n - 1] != ',' || !nl) {
			rc = -EINVAL;
			break;
		}
		rc = unliteral(p + 1, n - 2, &name);
		rc = rc ? rc : fn(index, &name, (size_t)(p - src), n, arg);
		p = nl + 1;
	}
	if (!rc && p >= end)
		rc = -EINVAL;
	ioa_buf_release(&name);
	return rc;
}
