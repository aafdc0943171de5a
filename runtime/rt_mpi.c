/*
 * rt_mpi — MPI wrappers (table: rt_mpi_calls.h): MPI_Init tells the runtime
 * its rank, MPI-IO calls feed the MPI-IO module, and MPI_Finalize turns all
 * ranks' records into one log per job (rt_mpilog.c) before MPI goes away.
 *
 * The runtime never links MPI: the shared library holds this file once per
 * MPI ABI family (rt_mpi_abi.h), reached through the slots rt_mpi_bind.c
 * fills at the program's first MPI call, and finds the PMPI entry points
 * when a wrapper first needs one (rt_mpi_real), so `module load ioatlas`
 * costs non-MPI programs nothing.  The static library calls PMPI_* directly.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_errname.h"
#include "rt_core.h"
#include "rt_spill.h"
#include "rt_mpi_abi.h"
#include "rt_mpi_calls.h"
#include "rt_mpiio.h"
#include "rt_mpilog.h"
#include "rt_trace.h"

#ifdef RT_STATIC
#define RT_PMPI_DECL(name, params)
#define RT_PMPI_RESOLVED(name) 1
#define RT_PMPI(name)	       PMPI_##name
#else
#define RT_PMPI_DECL(name, params) static int(*rt_pmpi_##name) params;
#define RT_PMPI_RESOLVED(name)	   (rt_pmpi_##name || rt_pmpi_resolve("PMPI_" #name, &rt_pmpi_##name))
#define RT_PMPI(name)		   rt_pmpi_##name

static int rt_pmpi_resolve(const char *name, void *slot)
{
	void *sym = rt_mpi_real(name);

	memcpy(slot, &sym, sizeof(sym));
	return sym != NULL;
}
#endif

/*
 * The shared library holds this file once per MPI ABI family (rt_mpi_abi.h):
 * there the wrappers are the family's, hidden, and rt_mpi_bind.c points the
 * exported MPI_ and PMPI_ symbols (rt_mpi_tramp.S) at them.  The static
 * library defines MPI_ itself.
 */
#ifdef RT_MPI_FAMILY
#define RT_EXPORT
#define RT_MPI_NAME(name)  RT_MPI_SYM(MPI_##name)
#define RT_PMPI_NAME(name) RT_MPI_SYM(PMPI_##name)
#else
#define RT_EXPORT	   __attribute__((visibility("default")))
#define RT_MPI_NAME(name)  MPI_##name
#define RT_PMPI_NAME(name) PMPI_##name
#endif

#if defined(RT_MPI_FAMILY) && defined(OPEN_MPI)
struct rt_ompi_globals RT_MPI_SYM(globals);

/*
 * Open MPI's predefined handles, as the program uses them: the first
 * definition in the global scope, which is the program's own copy when it
 * refers to one (a copy relocation: libmpi uses that copy, not its own),
 * else libmpi's, wherever it was loaded (rt_mpi_real).
 */
int RT_MPI_SYM(abi_ready)(void)
{
	void *sym;
	int ok = 1;

#define RT_OMPI_RESOLVE(global)                                 \
	sym = dlsym(RTLD_DEFAULT, #global);                     \
	if (!sym)                                               \
		sym = rt_mpi_real(#global);                     \
	memcpy(&RT_MPI_SYM(globals).global, &sym, sizeof(sym)); \
	ok &= sym != NULL;
	RT_OMPI_GLOBALS(RT_OMPI_RESOLVE)
#undef RT_OMPI_RESOLVE
	return ok ? 0 : -ENOENT;
}
#elif defined(RT_MPI_FAMILY)
/* MPICH's handles are constants of its ABI. */
int RT_MPI_SYM(abi_ready)(void)
{
	return 0;
}
#endif

/* Room for the hints given at one open. */
#define RT_HINTS_MAX 1024

/* Classes of MPI 4 that an older mpi.h (Open MPI 4) lacks: never returned there. */
#ifndef MPI_ERR_SESSION
#define MPI_ERR_SESSION (-1)
#endif
#ifndef MPI_ERR_PROC_ABORTED
#define MPI_ERR_PROC_ABORTED (-1)
#endif
#ifndef MPI_ERR_VALUE_TOO_LARGE
#define MPI_ERR_VALUE_TOO_LARGE (-1)
#endif

/*
 * The error of a failed call as the failure table and the trace keep it:
 * its MPI error class in the code every MPI library shares (ioa_errname.h),
 * this family's number of a class the table does not list.
 */
static int rt_mpi_err(int rc)
{
	static const int family_class[IOA_MPI_CLASS_COUNT] = {
#define RT_MPI_CLASS(name, code) [code] = name,
		IOA_MPI_CLASSES(RT_MPI_CLASS)
#undef RT_MPI_CLASS
	};
	int cls = -1, i;

	if (rt_pmpi.Error_class && rt_pmpi.Error_class(rc, &cls) != MPI_SUCCESS)
		cls = -1;
	for (i = 0; cls >= 0 && i < IOA_MPI_CLASS_COUNT; i++)
		if (family_class[i] == cls)
			return IOA_ERR_MPI + i;
	return IOA_ERR_MPI + IOA_ERR_MPI_UNLISTED +
	       (cls >= 0 && cls < IOA_ERR_MPI_UNLISTED ? cls : IOA_ERR_MPI_UNLISTED - 1);
}

/*
 * Writes info's hints into out as "key=value" lines (cut at out_len).
 * Runs before the real open, outside the lock: it calls MPI.
 */
static void rt_mpi_hints(MPI_Info info, char *out, size_t out_len)
{
	char key[MPI_MAX_INFO_KEY + 1], value[256];
	size_t used = 0;
	int n = 0, i, flag;

	out[0] = '\0';
	if (info == MPI_INFO_NULL || rt_pmpi.Info_get_nkeys(info, &n) != MPI_SUCCESS)
		return;
	for (i = 0; i < n; i++) {
		int w;

		if (rt_pmpi.Info_get_nthkey(info, i, key) != MPI_SUCCESS ||
		    rt_pmpi.Info_get(info, key, (int)sizeof(value) - 1, value, &flag) !=
			    MPI_SUCCESS ||
		    !flag)
			continue;
		w = snprintf(out + used, out_len - used, "%s=%s\n", key, value);
		if (w < 0 || (size_t)w >= out_len - used) {
			out[used] = '\0';
			break;
		}
		used += (size_t)w;
	}
}

/* The size of a predefined datatype, or 0 for a derived one. */
static int64_t rt_named_size(MPI_Datatype t)
{
	int ni, na, nd, comb, size = 0;

	if (rt_pmpi.Type_get_envelope(t, &ni, &na, &nd, &comb) != MPI_SUCCESS ||
	    comb != MPI_COMBINER_NAMED || rt_pmpi.Type_size(t, &size) != MPI_SUCCESS)
		return 0;
	return size;
}

/* A type Type_get_contents gave: the caller's to free when derived (never a named one). */
static void rt_mpi_type_done(MPI_Datatype *t)
{
	int ni, na, nd, comb;

	/* The Fortran 90 parametrized types are predefined too: Open MPI aborts freeing one. */
	if (rt_pmpi.Type_get_envelope(*t, &ni, &na, &nd, &comb) == MPI_SUCCESS &&
	    comb != MPI_COMBINER_NAMED && comb != MPI_COMBINER_F90_REAL &&
	    comb != MPI_COMBINER_F90_COMPLEX && comb != MPI_COMBINER_F90_INTEGER)
		rt_pmpi.Type_free(t);
}

/*
 * A filetype flattened into the byte runs of its type map (rt_view kind
 * 3): adjacent runs join, and the walk gives up (kind -1) past
 * RT_VIEW_MAX_RUNS runs, RT_FLAT_MAX_STEPS types and blocks walked (runs
 * that keep joining, as a subarray of whole planes, still end the walk),
 * RT_FLAT_MAX_DEPTH nested types, a type of more arguments than
 * RT_FLAT_MAX_ARGS, a combiner it does not know (darray) or an offset that
 * overflows.  A block of elements whose type has no holes is one run.
 * Only when the trace is on: the runs are for it.
 */
#define RT_FLAT_MAX_STEPS (1L << 20)
#define RT_FLAT_MAX_ARGS  (8 * RT_VIEW_MAX_RUNS) /* a type's arguments: more make too many runs */
#define RT_FLAT_MAX_DEPTH 16
struct rt_flat {
	int64_t (*run)[2];
	int n, failed;
	long steps;
};

static void rt_flat_add(struct rt_flat *fl, int64_t off, int64_t len)
{
	int64_t *last = fl->n ? fl->run[fl->n - 1] : NULL;

	if (len <= 0 || fl->failed)
		return;
	if (last && last[0] + last[1] == off && last[1] + len <= INT32_MAX) {
		last[1] += len;
	} else if (fl->n == RT_VIEW_MAX_RUNS || len > INT32_MAX) {
		fl->failed = 1;
	} else {
		fl->run[fl->n][0] = off;
		fl->run[fl->n++][1] = len;
	}
}

/* base + i * unit, or 0 with the walk failed when it overflows. */
static int64_t rt_flat_at(struct rt_flat *fl, int64_t base, int64_t i, int64_t unit)
{
	int64_t r;

	if (__builtin_mul_overflow(i, unit, &r) || __builtin_add_overflow(base, r, &r)) {
		fl->failed = 1;
		return 0;
	}
	return r;
}

static void rt_flat_type(struct rt_flat *fl, MPI_Datatype t, int64_t off, int depth);

/* count elements of type t from off, one extent apart. */
static void rt_flat_block(struct rt_flat *fl, MPI_Datatype t, int64_t off, int64_t count, int depth)
{
	MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
	int size = 0;
	int64_t i;

	if (++fl->steps > RT_FLAT_MAX_STEPS ||
	    rt_pmpi.Type_get_extent(t, &lb, &extent) != MPI_SUCCESS ||
	    rt_pmpi.Type_get_true_extent(t, &true_lb, &true_extent) != MPI_SUCCESS ||
	    rt_pmpi.Type_size(t, &size) != MPI_SUCCESS) {
		fl->failed = 1;
		return;
	}
	/* No holes, no bounds moved: the elements are one run (a filetype's map never goes back).
	 */
	if (size == extent && lb == true_lb && extent == true_extent) {
		rt_flat_add(fl, rt_flat_at(fl, off, 1, lb), rt_flat_at(fl, 0, count, size));
		return;
	}
	for (i = 0; i < count && !fl->failed; i++)
		rt_flat_type(fl, t, rt_flat_at(fl, off, i, extent), depth + 1);
}

static void rt_flat_subarray(struct rt_flat *fl, const int *ints, MPI_Datatype t, int64_t off,
			     int depth)
{
	int n = ints[0], i;
	const int *sizes = ints + 1, *subs = ints + 1 + n, *starts = ints + 1 + 2 * n;
	int fortran = ints[1 + 3 * n] == MPI_ORDER_FORTRAN;
	int64_t idx[RT_FLAT_MAX_DEPTH] = {0};
	MPI_Aint lb, extent;

	if (n < 1 || n > RT_FLAT_MAX_DEPTH ||
	    rt_pmpi.Type_get_extent(t, &lb, &extent) != MPI_SUCCESS) {
		fl->failed = 1;
		return;
	}
	for (i = 0; i < n; i++)
		if (subs[i] <= 0)
			return;
	/* Rows along the fastest dimension, each a block; the others counted like an odometer. */
	while (!fl->failed) {
		int64_t linear = 0;

		for (i = 0; i < n; i++) {
			int d = fortran ? n - 1 - i : i;

			linear = rt_flat_at(fl, starts[d] + idx[d], linear, sizes[d]);
		}
		rt_flat_block(fl, t, rt_flat_at(fl, off, linear, extent), subs[fortran ? 0 : n - 1],
			      depth);
		for (i = n - 2; i >= 0; i--) {
			int d = fortran ? n - 1 - i : i;

			if (++idx[d] < subs[d])
				break;
			idx[d] = 0;
		}
		if (i < 0)
			break;
	}
}

static void rt_flat_type(struct rt_flat *fl, MPI_Datatype t, int64_t off, int depth)
{
	int ni, na, nd, comb, i, j, *ints = NULL;
	MPI_Aint *a = NULL;
	MPI_Datatype *types = NULL;
	MPI_Aint lb, extent = 0;

	if (fl->failed || ++fl->steps > RT_FLAT_MAX_STEPS || depth > RT_FLAT_MAX_DEPTH ||
	    rt_pmpi.Type_get_envelope(t, &ni, &na, &nd, &comb) != MPI_SUCCESS ||
	    ni > RT_FLAT_MAX_ARGS || na > RT_FLAT_MAX_ARGS || nd > RT_FLAT_MAX_ARGS) {
		fl->failed = 1;
		return;
	}
	if (comb == MPI_COMBINER_NAMED) {
		int size = 0;

		/* One run; a predefined pair type with a hole (MPI_DOUBLE_INT) is not flattened. */
		if (rt_pmpi.Type_size(t, &size) != MPI_SUCCESS ||
		    rt_pmpi.Type_get_extent(t, &lb, &extent) != MPI_SUCCESS || size != extent)
			fl->failed = 1;
		else
			rt_flat_add(fl, rt_flat_at(fl, off, 1, lb), size);
		return;
	}
	ints = malloc(((size_t)ni + 1) * sizeof(*ints));
	a = malloc(((size_t)na + 1) * sizeof(*a));
	types = malloc(((size_t)nd + 1) * sizeof(*types));
	if (!ints || !a || !types || nd < 1 ||
	    rt_pmpi.Type_get_contents(t, ni, na, nd, ints, a, types) != MPI_SUCCESS) {
		fl->failed = 1;
		goto out;
	}
	if (rt_pmpi.Type_get_extent(types[0], &lb, &extent) != MPI_SUCCESS)
		fl->failed = 1;
	switch (comb) {
	case MPI_COMBINER_DUP:
	case MPI_COMBINER_RESIZED: /* its bounds only place the next tile */
		rt_flat_type(fl, types[0], off, depth + 1);
		break;
	case MPI_COMBINER_CONTIGUOUS:
		rt_flat_block(fl, types[0], off, ints[0], depth);
		break;
	case MPI_COMBINER_VECTOR:
	case MPI_COMBINER_HVECTOR:
		for (i = 0; i < ints[0] && !fl->failed; i++)
			rt_flat_block(fl, types[0],
				      comb == MPI_COMBINER_VECTOR
					      ? rt_flat_at(fl, off, (int64_t)i * ints[2], extent)
					      : rt_flat_at(fl, off, i, a[0]),
				      ints[1], depth);
		break;
	case MPI_COMBINER_INDEXED:
	case MPI_COMBINER_HINDEXED:
		for (i = 0; i < ints[0] && !fl->failed; i++)
			rt_flat_block(fl, types[0],
				      comb == MPI_COMBINER_INDEXED
					      ? rt_flat_at(fl, off, ints[1 + ints[0] + i], extent)
					      : rt_flat_at(fl, off, 1, a[i]),
				      ints[1 + i], depth);
		break;
	case MPI_COMBINER_INDEXED_BLOCK:
	case MPI_COMBINER_HINDEXED_BLOCK:
		for (i = 0; i < ints[0] && !fl->failed; i++)
			rt_flat_block(fl, types[0],
				      comb == MPI_COMBINER_INDEXED_BLOCK
					      ? rt_flat_at(fl, off, ints[2 + i], extent)
					      : rt_flat_at(fl, off, 1, a[i]),
				      ints[1], depth);
		break;
	case MPI_COMBINER_STRUCT:
		for (i = 0; i < ints[0] && i < nd && !fl->failed; i++)
			rt_flat_block(fl, types[i], rt_flat_at(fl, off, 1, a[i]), ints[1 + i],
				      depth);
		break;
	case MPI_COMBINER_SUBARRAY:
		rt_flat_subarray(fl, ints, types[0], off, depth);
		break;
	default: /* darray and the Fortran types: not flattened */
		fl->failed = 1;
		break;
	}
	/* The derived types get_contents gave back are the caller's to free. */
	for (j = 0; j < nd; j++)
		rt_mpi_type_done(&types[j]);
out:
	free(ints);
	free(a);
	free(types);
}

/* Frees what rt_mpi_view() took. */
static void rt_mpi_view_done(struct rt_view *v)
{
	free(v->runs);
	v->runs = NULL;
}

/* Kind 3: the filetype as runs, or kind -1 left. */
static void rt_mpi_view_flat(struct rt_view *v, MPI_Datatype ftype)
{
	struct rt_flat fl = {.run = rt_tracing ? malloc(RT_VIEW_MAX_RUNS * sizeof(*fl.run)) : NULL};
	MPI_Aint lb, extent;

	if (fl.run && rt_pmpi.Type_get_extent(ftype, &lb, &extent) == MPI_SUCCESS) {
		rt_flat_type(&fl, ftype, 0, 0);
		if (!fl.failed && fl.n > 0 && extent > 0) {
			v->kind = 3;
			v->base_size = 1;
			v->ndims = 1;
			v->dim[0][0] = lb;
			v->dim[0][1] = extent;
			v->dim[0][2] = fl.n;
			v->runs = fl.run;
			return;
		}
	}
	free(fl.run);
}

/* A view's shape, for the kernels (rt_mpiio.h): outside the lock, before the call. */
static void rt_mpi_view_shape(struct rt_view *v, MPI_Offset disp, MPI_Datatype etype,
			      MPI_Datatype ftype)
{
	int ints[3 * RT_VIEW_MAX_DIMS + 2], ni, na, nd, comb, size = 0, n, i;
	MPI_Aint addrs[1];
	MPI_Datatype base[1];

	memset(v, 0, sizeof(*v));
	v->kind = -1;
	v->disp = disp;
	if (rt_pmpi.Type_size(etype, &size) == MPI_SUCCESS)
		v->etype_size = size;
	if (rt_pmpi.Type_get_envelope(ftype, &ni, &na, &nd, &comb) != MPI_SUCCESS)
		return;
	if (comb == MPI_COMBINER_NAMED) {
		v->base_size = rt_named_size(ftype);
		v->kind = v->base_size ? 0 : -1;
		return;
	}
	if ((comb != MPI_COMBINER_VECTOR && comb != MPI_COMBINER_SUBARRAY) || nd != 1 || na > 1 ||
	    ni > (int)(sizeof(ints) / sizeof(ints[0])) ||
	    rt_pmpi.Type_get_contents(ftype, ni, na, nd, ints, addrs, base) != MPI_SUCCESS) {
		rt_mpi_view_flat(v, ftype);
		return;
	}
	v->base_size = rt_named_size(base[0]);
	if (!v->base_size) {
		rt_mpi_type_done(&base[0]);
		rt_mpi_view_flat(v, ftype);
		return;
	}
	n = ints[0];
	if (comb == MPI_COMBINER_VECTOR && ni == 3) {
		v->kind = 1;
		v->ndims = 1;
		for (i = 0; i < 3; i++)
			v->dim[0][i] = ints[i];
	} else if (comb == MPI_COMBINER_SUBARRAY && n >= 1 && n <= RT_VIEW_MAX_DIMS &&
		   ni == 3 * n + 2) {
		v->kind = 2;
		v->ndims = n;
		for (i = 0; i < n; i++) {
			int d = ints[3 * n + 1] == MPI_ORDER_FORTRAN ? n - 1 - i : i;

			v->dim[i][0] = ints[1 + d];
			v->dim[i][1] = ints[1 + n + d];
			v->dim[i][2] = ints[1 + 2 * n + d];
		}
	}
}

/* The same, the program's errno kept whatever malloc and the MPI library leave. */
static void rt_mpi_view(struct rt_view *v, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype ftype)
{
	int saved_errno = errno;

	rt_mpi_view_shape(v, disp, etype, ftype);
	errno = saved_errno;
}

/* An MPI-IO call inside an HDF5 call counts there too, and says the file goes through MPI-IO. */
static inline void rt_note_above(void)
{
	if (rt_self()->above.mpiio_subcalls)
		++*rt_self()->above.mpiio_subcalls;
	if (rt_self()->above.use_mpiio)
		*rt_self()->above.use_mpiio = 1;
}

#define RT_MPI_WRAP(name, args, pre, handler)              \
	int r;                                             \
	double t0, t1;                                     \
	if (!RT_PMPI_RESOLVED(name))                       \
		return MPI_ERR_INTERN;                     \
	if (!rt.mpi_initialized || !rt_begin(RT_IN_MPIIO)) \
		return RT_PMPI(name) args;                 \
	pre;                                               \
	rt_self()->trace_parent = rt_trace_next_id();      \
	t0 = rt_now();                                     \
	r = RT_PMPI(name) args;                            \
	t1 = rt_now();                                     \
	rt_self()->mpiio_current = NULL;                   \
	rt_lock();                                         \
	handler;                                           \
	rt_note_above();                                   \
	rt_unlock();                                       \
	rt_self()->trace_parent = 0;                       \
	rt_end(RT_IN_MPIIO);                               \
	return r;

/*
 * The I/O the MPI library makes while it starts and stops (shared-memory
 * segments, session folders, hardware probes, its own settings files) is
 * the library's, not the application's: the calling thread is marked
 * inside MPI for the real call (RT_IN_MPI, rt_core.h), so its calls are
 * counted as the library's instead of recorded.  The trace shows MPI_Init
 * itself, as one synchronizing call.  MPI_Finalize writes the log first;
 * what the library does after that is no log's.
 */
#define RT_MPI_LIBRARY_CALL(r, call)                                                  \
	do {                                                                          \
		unsigned rt_was_inside = rt_self()->inside & RT_IN_MPI;               \
		rt_self()->inside |= RT_IN_MPI;                                       \
		r = call;                                                             \
		rt_self()->inside = (rt_self()->inside & ~RT_IN_MPI) | rt_was_inside; \
	} while (0)

#define RT_MPI_BODY_INIT(name, args, unused)                                \
	int r;                                                              \
	double t0, t1;                                                      \
	if (!RT_PMPI_RESOLVED(name))                                        \
		return MPI_ERR_INTERN;                                      \
	rt_init(); /* (from a library's constructor run before ours) */     \
	t0 = rt_now();                                                      \
	RT_MPI_LIBRARY_CALL(r, RT_PMPI(name) args);                         \
	if (r == MPI_SUCCESS) {                                             \
		rt_mpilog_init();                                           \
		/* The runtime's own start-up is the program's wait too. */ \
		t1 = rt_now();                                              \
		if (rt.enabled) {                                           \
			uint32_t world = rt_comm_slot(MPI_COMM_WORLD, 0);   \
			rt_lock();                                          \
			rt_trace_mpi(#name, world, 0, 0, -1, 0, 0, t0, t1); \
			rt_unlock();                                        \
		}                                                           \
	}                                                                   \
	return r;

#define RT_MPI_BODY_FINALIZE(name, args, unused)    \
	int r;                                      \
	if (!RT_PMPI_RESOLVED(name))                \
		return MPI_ERR_INTERN;              \
	rt_mpilog_write();                          \
	RT_MPI_LIBRARY_CALL(r, RT_PMPI(name) args); \
	return r;

#define RT_MPI_BODY_ABORT(name, args, code_e)       \
	int r;                                      \
	if (!RT_PMPI_RESOLVED(name))                \
		return MPI_ERR_INTERN;              \
	rt_spill_end(RT_END_ABORT, code_e);         \
	RT_MPI_LIBRARY_CALL(r, RT_PMPI(name) args); \
	return r;

/*
 * Whether an info was given at open (MPIIO_HINTS), and its "key=value"
 * lines for the log; traced, the communicator's slot (asked afresh: HDF5
 * opens on copies it makes and frees).
 */
#define RT_MPI_BODY_OPEN(name, args, comm_e, path_e, amode_e, info_e, fh_e)                   \
	char hints[RT_HINTS_MAX];                                                             \
	int comm_size = 1;                                                                    \
	uint32_t comm_slot = RT_TRACE_NO_COMM;                                                \
	RT_MPI_WRAP(name, args, rt_mpi_hints(info_e, hints, sizeof(hints));                   \
		    rt_pmpi.Comm_size(comm_e, &comm_size);                                    \
		    if (rt_tracing) comm_slot = rt_comm_slot(comm_e, 1),                      \
		    rt_mpiio_open(#name, comm_size > 1, path_e, amode_e,                      \
				  (info_e) != MPI_INFO_NULL, hints,                           \
				  r == MPI_SUCCESS ? (const void *)*(fh_e) : NULL, comm_slot, \
				  r != MPI_SUCCESS, rt_mpi_err(r), t0, t1))

#define RT_MPI_BODY_CLOSE(name, args, fh_e)                              \
	struct rt_record *closing = NULL;                                \
	RT_MPI_WRAP(name, args, closing = rt_mpiio_close_begin(*(fh_e)); \
		    rt_self()->mpiio_current = closing,                  \
		    rt_mpiio_close(#name, closing, r != MPI_SUCCESS, rt_mpi_err(r), t0, t1))

#define RT_MPI_BODY_META(name, args, fh_e, counter)                                                \
	RT_MPI_WRAP(name, args, rt_self()->mpiio_current = rt_mpiio_record_of(fh_e),               \
		    rt_mpiio_meta(#name, fh_e, counter, 0, 0, r != MPI_SUCCESS, rt_mpi_err(r), t0, \
				  t1))

/* whence as the trace keeps it, the same in every MPI: 0 set, 1 current, 2 end, -1 other. */
#define RT_MPI_WHENCE(w) \
	((w) == MPI_SEEK_SET ? 0 : (w) == MPI_SEEK_CUR ? 1 : (w) == MPI_SEEK_END ? 2 : -1)

/* No counter (Darshan has none): traced, whence as its length. */
#define RT_MPI_BODY_SEEK(name, args, fh_e, offset_e, whence_e)                                   \
	RT_MPI_WRAP(name, args, rt_self()->mpiio_current = rt_mpiio_record_of(fh_e),             \
		    rt_mpiio_meta(#name, fh_e, -1, (int64_t)(offset_e), RT_MPI_WHENCE(whence_e), \
				  r != MPI_SUCCESS, rt_mpi_err(r), t0, t1))

#define RT_MPI_BODY_VIEW(name, args, fh_e, disp_e, etype_e, ftype_e, info_e)                       \
	struct rt_view view;                                                                       \
	RT_MPI_WRAP(name, args, rt_mpi_view(&view, disp_e, etype_e, ftype_e);                      \
		    rt_self()->mpiio_current = rt_mpiio_record_of(fh_e),                           \
		    rt_mpiio_view(#name, fh_e, &view, (info_e) != MPI_INFO_NULL, r != MPI_SUCCESS, \
				  rt_mpi_err(r), t0, t1);                                          \
		    rt_mpi_view_done(&view))

#define RT_MPI_BODY_IO(name, args, op, is_write, cls, fh_e, offset_e, count_e, dt_e)               \
	int type_size = 0;                                                                         \
	RT_MPI_WRAP(name, args, rt_pmpi.Type_size(dt_e, &type_size);                               \
		    rt_self()->mpiio_current = rt_mpiio_record_of(fh_e),                           \
		    rt_mpiio_io(op, is_write, RT_MPIIO_##cls, fh_e, (int64_t)(offset_e),           \
				(int64_t)(count_e)*type_size, r != MPI_SUCCESS, rt_mpi_err(r), t0, \
				t1))

#define RT_MPI_BODY_END(name, args, is_write, fh_e)                                  \
	RT_MPI_WRAP(name, args, rt_self()->mpiio_current = rt_mpiio_record_of(fh_e), \
		    rt_mpiio_end(#name, is_write, fh_e, t0, t1))

#define RT_MPI_DEFINE(name, params, args, kind, ...)        \
	RT_PMPI_DECL(name, params)                          \
	RT_EXPORT int RT_MPI_NAME(name) params              \
	{                                                   \
		RT_MPI_BODY_##kind(name, args, __VA_ARGS__) \
	}

/* In the shared library, calls entering through PMPI_* are caught too. */
#ifdef RT_STATIC
#define RT_MPI_DEFINE_P(name, params, args, kind, ...)
#else
#define RT_MPI_DEFINE_P(name, params, args, kind, ...) \
	RT_EXPORT int RT_PMPI_NAME(name) params        \
	{                                              \
		return RT_MPI_NAME(name) args;         \
	}
#endif

#define RT_MPI_EXPAND(name, params, args, kind, ...)         \
	RT_MPI_DEFINE(name, params, args, kind, __VA_ARGS__) \
	RT_MPI_DEFINE_P(name, params, args, kind, __VA_ARGS__)

/* ------------------------------------------------ communication, traced */

/* An MPI handle (an int in MPICH, a pointer elsewhere) as a number. */
#define RT_HANDLE(h) rt_handle_value(&(h), sizeof(h))
static int64_t rt_handle_value(const void *h, size_t n)
{
	int64_t v = 0;

	memcpy(&v, h, n < sizeof(v) ? n : sizeof(v));
	return v;
}

/* The world rank of a communicator's rank 0, or -1. */
static int rt_comm_leader(MPI_Comm comm)
{
	MPI_Group group, world;
	int zero = 0, leader = -1;

	if (rt_pmpi.Comm_group(comm, &group) != MPI_SUCCESS)
		return -1;
	if (rt_pmpi.Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS) {
		if (rt_pmpi.Group_translate_ranks(group, 1, &zero, world, &leader) != MPI_SUCCESS ||
		    leader < 0)
			leader = -1;
		rt_pmpi.Group_free(&world);
	}
	rt_pmpi.Group_free(&group);
	return leader;
}

/*
 * The trace slot of a communicator, registered on first sight with its
 * size, rank and leader (outside the lock).  fresh: asked again, for a
 * communicator that may have a freed one's handle (one just made, or a
 * file's: HDF5 and ROMIO make and free their own copies).
 */
static uint32_t rt_comm_slot(MPI_Comm comm, int fresh)
{
	uint32_t slot;
	int size = 1, rank = 0;

	rt_lock();
	slot = rt_trace_comm_find(RT_HANDLE(comm));
	rt_unlock();
	if ((slot != RT_TRACE_NO_COMM && !fresh) || comm == MPI_COMM_NULL)
		return slot;
	if (rt_pmpi.Comm_size(comm, &size) != MPI_SUCCESS ||
	    rt_pmpi.Comm_rank(comm, &rank) != MPI_SUCCESS)
		return RT_TRACE_NO_COMM;
	rt_lock();
	slot = rt_trace_comm(RT_HANDLE(comm), size, rank, rt_comm_leader(comm), fresh);
	rt_unlock();
	return slot;
}

/* A peer relative to this rank (modulo the communicator's size); wildcards stay. */
static int64_t rt_relative(uint32_t slot, int peer)
{
	int size, me = rt_trace_comm_rank(slot, &size);

	if (peer < 0 || size <= 0)
		return peer;
	return ((int64_t)peer - me + size) % size;
}

static int64_t rt_bytes(int count, MPI_Datatype dt)
{
	int size = 0;

	if (dt == MPI_DATATYPE_NULL || rt_pmpi.Type_size(dt, &size) != MPI_SUCCESS)
		return 0;
	return (int64_t)count * size;
}

/* Requests saved before a wait (the call overwrites them), at most this many. */
#define RT_SAVED_REQUESTS 64

/*
 * Communication calls are traced only when the application makes them:
 * not from inside MPI-IO (ROMIO's own), the runtime or another wrapper.
 */
#define RT_MPI_SYNC(name, args, pre, post, handler)                                           \
	int r;                                                                                \
	double t0, t1;                                                                        \
	if (!RT_PMPI_RESOLVED(name))                                                          \
		return MPI_ERR_INTERN;                                                        \
	if (!rt.mpi_initialized || (rt_self()->inside & RT_IN_MPIIO) || !rt_begin(RT_IN_MPI)) \
		return RT_PMPI(name) args;                                                    \
	pre;                                                                                  \
	t0 = rt_now();                                                                        \
	r = RT_PMPI(name) args;                                                               \
	t1 = rt_now();                                                                        \
	post;                                                                                 \
	rt_lock();                                                                            \
	handler;                                                                              \
	rt_unlock();                                                                          \
	rt_end(RT_IN_MPI);                                                                    \
	return r;

/* A call's flags and error class, as rt_trace_mpi() takes them. */
#define RT_TRACE_FAILED(r) \
	((r) != MPI_SUCCESS ? IOA_TR_FAILED : 0), ((r) != MPI_SUCCESS ? rt_mpi_err(r) : 0)

#define RT_MPI_BODY_COLL(name, args, comm_e, root_e, count_e, dt_e) \
	uint32_t slot;                                              \
	int64_t bytes;                                              \
	RT_MPI_SYNC(name, args, slot = rt_comm_slot(comm_e, 0);     \
		    bytes = rt_bytes(count_e, dt_e), (void)0,       \
		    rt_trace_mpi(#name, slot, RT_TRACE_FAILED(r), root_e, bytes, 0, t0, t1))

#define RT_MPI_BODY_P2P(name, args, comm_e, peer_e, count_e, dt_e, tag_e)                    \
	uint32_t slot;                                                                       \
	int64_t bytes;                                                                       \
	RT_MPI_SYNC(name, args, slot = rt_comm_slot(comm_e, 0);                              \
		    bytes = rt_bytes(count_e, dt_e), (void)0,                                \
		    rt_trace_mpi(#name, slot, RT_TRACE_FAILED(r), rt_relative(slot, peer_e), \
				 bytes, tag_e, t0, t1))

#define RT_MPI_BODY_P2P_NB(name, args, comm_e, peer_e, count_e, dt_e, req_e)                    \
	uint32_t slot;                                                                          \
	int64_t bytes;                                                                          \
	RT_MPI_SYNC(                                                                            \
		name, args, slot = rt_comm_slot(comm_e, 0);                                     \
		bytes = rt_bytes(count_e, dt_e), (void)0,                                       \
		rt_trace_mpi(#name, slot, RT_TRACE_FAILED(r), rt_relative(slot, peer_e), bytes, \
			     r == MPI_SUCCESS ? rt_trace_request_new(RT_HANDLE(*(req_e))) : -1, \
			     t0, t1))

/* The source goes in aux, relative like the destination. */
#define RT_MPI_BODY_SENDRECV(name, args, comm_e, dest_e, count_e, dt_e, source_e)            \
	uint32_t slot;                                                                       \
	int64_t bytes;                                                                       \
	RT_MPI_SYNC(name, args, slot = rt_comm_slot(comm_e, 0);                              \
		    bytes = rt_bytes(count_e, dt_e), (void)0,                                \
		    rt_trace_mpi(#name, slot, RT_TRACE_FAILED(r), rt_relative(slot, dest_e), \
				 bytes, rt_relative(slot, source_e), t0, t1))

#define RT_MPI_BODY_WAIT(name, args, req_e)                                          \
	int64_t saved = 0;                                                           \
	RT_MPI_SYNC(name, args, saved = RT_HANDLE(*(req_e)), (void)0,                \
		    rt_trace_mpi(#name, RT_TRACE_NO_COMM, RT_TRACE_FAILED(r), -1, 0, \
				 rt_trace_request_done(saved), t0, t1))

/* A test that finds the request unfinished is polling, not an event: its time is a gap. */
#define RT_MPI_BODY_TEST(name, args, req_e, flag_e)                                          \
	int64_t saved = 0;                                                                   \
	RT_MPI_SYNC(name, args, saved = RT_HANDLE(*(req_e)), (void)0,                        \
		    if (r != MPI_SUCCESS || *(flag_e))                                       \
			    rt_trace_mpi(#name, RT_TRACE_NO_COMM, RT_TRACE_FAILED(r), -1, 0, \
					 rt_trace_request_done(saved), t0, t1))

#define RT_MPI_BODY_WAITALL(name, args, n_e, reqs_e, flag_e)                                       \
	int64_t saved[RT_SAVED_REQUESTS];                                                          \
	int i, nsaved = 0;                                                                         \
	RT_MPI_SYNC(                                                                               \
		name, args,                                                                        \
		for (nsaved = 0; reqs_e && nsaved < (n_e) && nsaved < RT_SAVED_REQUESTS; nsaved++) \
			saved[nsaved] = RT_HANDLE((reqs_e)[nsaved]),                               \
		(void)0, if (r != MPI_SUCCESS || !(flag_e) || *(int *)(flag_e)) {                  \
			for (i = 0; i < nsaved; i++)                                               \
				rt_trace_request_done(saved[i]);                                   \
			rt_trace_mpi(#name, RT_TRACE_NO_COMM, RT_TRACE_FAILED(r), -1, n_e, 0, t0,  \
				     t1);                                                          \
		})

#define RT_MPI_BODY_WAITANY(name, args, n_e, reqs_e, index_e)                                  \
	int64_t saved[RT_SAVED_REQUESTS];                                                      \
	int nsaved = 0;                                                                        \
	RT_MPI_SYNC(name, args,                                                                \
		    for (nsaved = 0; reqs_e && nsaved < (n_e) && nsaved < RT_SAVED_REQUESTS;   \
			 nsaved++) saved[nsaved] = RT_HANDLE((reqs_e)[nsaved]),                \
		    (void)0,                                                                   \
		    rt_trace_mpi(#name, RT_TRACE_NO_COMM, RT_TRACE_FAILED(r), *(index_e), n_e, \
				 *(index_e) >= 0 && *(index_e) < nsaved                        \
					 ? rt_trace_request_done(saved[*(index_e)])            \
					 : -1,                                                 \
				 t0, t1))

/* The new communicator is registered after the call, outside the lock. */
#define RT_MPI_BODY_COMM_NEW(name, args, comm_e, color_e, key_e, newcomm_e)                     \
	uint32_t slot, made = RT_TRACE_NO_COMM;                                                 \
	RT_MPI_SYNC(name, args, slot = rt_comm_slot(comm_e, 0),                                 \
		    made = r == MPI_SUCCESS ? rt_comm_slot(*(newcomm_e), 1) : RT_TRACE_NO_COMM, \
		    rt_trace_mpi(#name, slot, RT_TRACE_FAILED(r), color_e, key_e,               \
				 made == RT_TRACE_NO_COMM ? -1 : (int64_t)made, t0, t1))

#define RT_MPI_COMM_EXPAND(name, params, args, kind, ...)          \
	RT_PMPI_DECL(name, params)                                 \
	RT_EXPORT int RT_MPI_NAME(name) params{RT_MPI_BODY_##kind( \
		name, args, __VA_ARGS__)} RT_MPI_DEFINE_P(name, params, args, kind, __VA_ARGS__)

RT_MPI_CALLS(RT_MPI_EXPAND)
RT_MPI_COMM_CALLS(RT_MPI_COMM_EXPAND)
/*
 * The large-count forms: in the shared library for every family (bound
 * only where the MPI library defines them), in the static one where MPICH's
 * headers declare them.
 */
#if defined(RT_MPI_FAMILY) || MPI_VERSION >= 4
RT_MPI_LARGE_CALLS(RT_MPI_EXPAND)
#endif
