/*
 * kgen_calls — the calls a kernel replays (the table of what each traced
 * call becomes) and one call written: its file, offset, length and peers
 * as expressions, its compute gap before it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_counters.h"
#include "ioa_logfmt.h"
#include "ioa_logr.h"
#include "kgen_int.h"

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
	{IOA_MOD_POSIX, "fileno", K_FILENO, NULL},
	{IOA_MOD_POSIX, "dup", K_DUP, NULL},
	{IOA_MOD_POSIX, "dup2", K_DUP, NULL},
	{IOA_MOD_POSIX, "dup3", K_DUP, NULL},
	/* fcntl is traced when it duplicates (F_DUPFD, F_DUPFD_CLOEXEC) and at F_SETFL. */
	{IOA_MOD_POSIX, "fcntl", K_FCNTL, NULL},
	{IOA_MOD_POSIX, "fcntl64", K_FCNTL, NULL},
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
	/* Its members are the ranks it gave a communicator to (the others got MPI_COMM_NULL). */
	{IOA_TRACE_MPI, "Comm_create", K_COMM_CREATE, NULL},
	/* A file view: its filetype's shape as the runtime recorded it, then the view. */
	{IOA_TRACE_MPI, "File_view_type", K_VIEW_TYPE, NULL},
	{IOA_TRACE_MPI, "File_view_dim0", K_VIEW_DIM, NULL},
	{IOA_TRACE_MPI, "File_view_dim1", K_VIEW_DIM, NULL},
	{IOA_TRACE_MPI, "File_view_dim2", K_VIEW_DIM, NULL},
	{IOA_TRACE_MPI, "File_view_run", K_VIEW_RUN, NULL},
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

int kgen_call_kind(const struct ioa_trace_sig *sig)
{
	const struct call *call = call_of(sig);

	return call ? (int)call->kind : K_SKIP;
}

/*
 * The one way text from a log enters a kernel: as a C string literal of
 * its len bytes.  Every byte outside printable ASCII, and '"', '\\' and '?'
 * (which could start a trigraph), becomes a three-digit octal escape, so
 * the literal holds the bytes exactly and nothing in them can end it.
 */
int kgen_literal(struct ioa_buf *b, const unsigned char *s, size_t len)
{
	int rc = ioa_buf_addstr(b, "\"");
	size_t i;

	for (i = 0; i < len && !rc; i++)
		rc = s[i] < 0x20 || s[i] > 0x7e || s[i] == '"' || s[i] == '\\' || s[i] == '?'
			     ? ioa_buf_addf(b, "\\%03o", s[i])
			     : ioa_buf_addf(b, "%c", s[i]);
	return rc ? rc : ioa_buf_addstr(b, "\"");
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

/* Whether a number reads an explicit list (kgen_number()): at its execution counter. */
static int uses_list(const struct ioa_buf *v)
{
	return v->data && strstr(v->data, "][X") != NULL;
}

/* One more place where the call (layer, name) is not replayed. */
int kgen_note_skip(struct kgen_summary *sum, const char *layer, const char *name)
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

/* A call's file slots at one rank: marked as having had a call, its kernel file if first removed.
 */
struct first_call {
	struct gen *g;
	const struct ioa_trace_rank *tr;
	unsigned char *touched; /* the rank's slots */
	int removes;		/* the call removed its file */
};

static int mark_first(void *arg, int64_t slot)
{
	struct first_call *c = arg;
	struct gen *g = c->g;
	int num;

	if (slot < 0 || slot >= (int64_t)c->tr->nfiles || c->touched[slot])
		return 0;
	c->touched[slot] = 1;
	if (!c->removes)
		return 0;
	/* Every rank's files are numbered before the parts (count_files()). */
	num = kgen_file_number(&g->files, c->tr->files[slot]);
	if (num < 0 || (size_t)num >= g->cap_file_ranks)
		return -ENOMEM;
	g->removed_first[num] = 1;
	return 0;
}

/*
 * The files a rank's first call on removed were there before the job (an
 * old output deleted before it is written again): marked for --prepare.
 * Per rank, in its own order (the parts' merged order is not the order of
 * calls between ranks that only point-to-point messages order).
 */
static int note_first_calls(struct gfun *f, size_t k)
{
	const struct ioa_trace_sig *sig = f->w[0].n[k].sig;
	const struct call *call = call_of(sig);
	/* An unlink or remove that worked (an rmdir's folder, a rename's source: not files to
	 * make). */
	struct first_call c = {f->g, NULL, NULL,
			       call && (call->kind == K_UNLINK || call->kind == K_REMOVE) &&
				       !(sig->flags & IOA_TR_FAILED)};
	uint32_t i;
	int rc = 0;

	if (sig->module == IOA_TRACE_MPI)
		return 0;
	if (!f->g->touched && !(f->g->touched = calloc(f->g->nprocs + 1, sizeof(*f->g->touched))))
		return -ENOMEM;
	for (i = 0; i < f->m && !rc; i++) {
		unsigned char **t;

		c.tr = f->tr[i];
		if (f->ranks[i] >= f->g->nprocs || !c.tr->nfiles)
			continue;
		t = &f->g->touched[f->ranks[i]];
		if (!*t && !(*t = calloc(c.tr->nfiles, 1)))
			return -ENOMEM;
		c.touched = *t;
		rc = kgen_each_value(f, k, i, IOA_TRACE_SLOT, mark_first, &c);
	}
	return rc;
}

int kgen_emit_call(struct gfun *f, size_t k, const char *indent)
{
	const struct node *n = &f->w[0].n[k];
	const struct call *call = call_of(n->sig);
	enum callkind kind = call ? call->kind : K_SKIP;
	struct ioa_buf *b = &f->body;
	struct ioa_buf off = IOA_BUF_INIT(1 << 16), len = IOA_BUF_INIT(1 << 16),
		       file = IOA_BUF_INIT(1 << 16), aux = IOA_BUF_INIT(1 << 16),
		       order = IOA_BUF_INIT(1 << 16);
	double gap = 0, carry;
	size_t at;
	uint32_t i;
	int rc = 0, listed, named;

	if ((rc = note_first_calls(f, k)))
		return rc;
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
		rc = kgen_note_skip(f->g->sum, layer, n->sig->name);
		return rc ? rc
			  : ioa_buf_addf(b, "%s/* a call not replayed (%s) */\n", indent, layer);
	}
	f->g->sum->calls++;
	/* A filetype the runtime could not keep (kind -1): the view is set from its displacement.
	 */
	if (kind == K_VIEW_TYPE) {
		int64_t lo, hi;

		kgen_value_bounds(f, k, 0, &lo, &hi);
		if (lo < 0) {
			f->g->sum->skipped++;
			rc = kgen_note_skip(f->g->sum, ioa_modules[IOA_MOD_MPIIO].name,
					    "File_set_view's filetype");
			rc = rc ? rc
				: ioa_buf_addf(b,
					       "%s/* a filetype not kept: the view from its "
					       "displacement only */\n",
					       indent);
		}
	}
	/* A view's shape is no transfer (its extent, a run's length): not the buffer's size. */
	if ((n->sig->module == IOA_TRACE_MPI || (n->sig->flags & (IOA_TR_READ | IOA_TR_WRITE))) &&
	    kind != K_VIEW_TYPE && kind != K_VIEW_DIM && kind != K_VIEW_RUN) {
		int64_t longest = kgen_max_value(f, k, 1);

		if (longest > f->g->max_transfer)
			f->g->max_transfer = longest;
	}
	carry = f->carry;
	f->carry = 0;
	rc = rc ? rc : gap_order(f, k, gap, &order);
	rc = rc ? rc : kgen_number(f, k, 0, &off);
	rc = rc ? rc : kgen_number(f, k, 1, &len);
	/* The file's slot, or an MPI call's communicator slot (and aux: request, new slot). */
	rc = rc ? rc : kgen_number(f, k, IOA_TRACE_SLOT, &file);
	if (!rc && (n->sig->module == IOA_TRACE_MPI || ioa_trace_layer_call(n->sig)))
		rc = kgen_number(f, k, 2, &aux);
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
	at = b->len;
#define F ioa_buf_str(&file)
#define O ioa_buf_str(&off)
#define L ioa_buf_str(&len)
	switch (kind) {
	case K_OPEN:
		/* An open that worked creates the file if need be (another rank's open may
		 * come later in the kernel); one that failed fails again. */
		rc = kgen_number(f, k, 2, &aux); /* | 1: opened to append, | 2: emptied (O_TRUNC) */
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
		/* One that failed fails again: the file is not made.  aux: the job's mode. */
		rc = kgen_number(f, k, 2, &aux);
		rc = rc ? rc
			: ioa_buf_addf(b, "k_fopen(FILE_OF(%s), %d, %s);", F,
				       !(n->sig->flags & IOA_TR_FAILED), ioa_buf_str(&aux));
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
	case K_FILENO:
		rc = ioa_buf_addf(b, "k_fileno(FILE_OF(%s));", F);
		break;
	case K_DUP:
		rc = ioa_buf_addf(b, "k_dup(FILE_OF(%s), %d);", F,
				  !(n->sig->flags & IOA_TR_FAILED));
		break;
	case K_FCNTL:
		/* offset: F_SETFL (then length: appends), else a duplicate (docs/log-format.md). */
		rc = ioa_buf_addf(b, "k_fcntl(FILE_OF(%s), %d, %s, %s);", F,
				  !(n->sig->flags & IOA_TR_FAILED), O, L);
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
			rc = rc ? rc : kgen_literal(b, (const unsigned char *)hints, strlen(hints));
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
	case K_COMM_CREATE:
		rc = ioa_buf_addf(b, "k_comm_create(%s, %s);", F, ioa_buf_str(&aux));
		break;
	case K_VIEW_TYPE:
	case K_VIEW_DIM:
		rc = ioa_buf_addf(b, "k_view_%s(%s, %s, %s);", kind == K_VIEW_TYPE ? "type" : "dim",
				  O, L, ioa_buf_str(&aux));
		break;
	case K_VIEW_RUN:
		rc = ioa_buf_addf(b, "k_view_run(%s, %s);", O, L);
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
	/* The job's call named where the helper's name does not say it (k_reduce: Allreduce). */
	named = !rc && b->len > at + 2 + strlen(call->name) &&
		!strncmp(b->data + at + 2, call->name, strlen(call->name)) &&
		b->data[at + 2 + strlen(call->name)] == '(';
	if (!rc)
		rc = named ? ioa_buf_addstr(b, "\n") : ioa_buf_addf(b, " /* %s */\n", call->name);
	if (!rc && listed)
		rc = ioa_buf_addf(b, "%sX%u_%zu = (X%u_%zu + 1) %% %" PRIu64 ";\n", indent, f->id,
				  k, f->id, k, kgen_list_len(f, k));
out:
	ioa_buf_release(&off);
	ioa_buf_release(&len);
	ioa_buf_release(&file);
	ioa_buf_release(&aux);
	ioa_buf_release(&order);
	return rc;
}
