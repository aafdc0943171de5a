/*
 * rt_mpi — MPI wrappers (table: rt_mpi_calls.h): MPI_Init tells the runtime
 * its rank, MPI-IO calls feed the MPI-IO module, and MPI_Finalize turns all
 * ranks' records into one log per job (rt_mpilog.c) before MPI goes away.
 *
 * The runtime never links MPI: the shared library finds the PMPI entry
 * points with dlsym(RTLD_NEXT) when the application (which does link MPI)
 * first calls a wrapper, so `module load ioatlas` costs non-MPI programs
 * nothing.  The static library calls PMPI_* directly.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "rt_core.h"
#include "rt_mpi_calls.h"
#include "rt_mpiio.h"
#include "rt_mpilog.h"

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
	void *sym = dlsym(RTLD_NEXT, name);

	memcpy(slot, &sym, sizeof(sym));
	return sym != NULL;
}
#endif

#define RT_EXPORT __attribute__((visibility("default")))

/* Room for the hints given at one open. */
#define RT_HINTS_MAX 1024

/* The MPI error class of a failed call, which the failure table keeps. */
static int rt_mpi_err(int rc)
{
	int cls = rc;

	if (rt_pmpi.Error_class)
		rt_pmpi.Error_class(rc, &cls);
	return cls;
}

/*
 * Writes info's hints into out as "key=value" lines (cut at out_len) and
 * returns how many hints there are.  Runs before the real open, outside the
 * lock: it calls MPI.
 */
static int rt_mpi_hints(MPI_Info info, char *out, size_t out_len)
{
	char key[MPI_MAX_INFO_KEY + 1], value[256];
	size_t used = 0;
	int n = 0, i, flag;

	out[0] = '\0';
	if (info == MPI_INFO_NULL || rt_pmpi.Info_get_nkeys(info, &n) != MPI_SUCCESS)
		return 0;
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
	return n;
}

#define RT_MPI_WRAP(name, args, pre, handler)              \
	int r;                                             \
	double t0, t1;                                     \
	if (!RT_PMPI_RESOLVED(name))                       \
		return MPI_ERR_INTERN;                     \
	if (!rt.mpi_initialized || !rt_begin(RT_IN_MPIIO)) \
		return RT_PMPI(name) args;                 \
	pre;                                               \
	t0 = rt_now();                                     \
	r = RT_PMPI(name) args;                            \
	t1 = rt_now();                                     \
	rt_mpiio_current = NULL;                           \
	rt_lock();                                         \
	handler;                                           \
	rt_unlock();                                       \
	rt_end(RT_IN_MPIIO);                               \
	return r;

#define RT_MPI_BODY_INIT(name, args, unused) \
	int r;                               \
	if (!RT_PMPI_RESOLVED(name))         \
		return MPI_ERR_INTERN;       \
	r = RT_PMPI(name) args;              \
	if (r == MPI_SUCCESS)                \
		rt_mpilog_init();            \
	return r;

#define RT_MPI_BODY_FINALIZE(name, args, unused) \
	if (!RT_PMPI_RESOLVED(name))             \
		return MPI_ERR_INTERN;           \
	rt_mpilog_write();                       \
	return RT_PMPI(name) args;

/* Hints are counted as the number of keys in the info given at open. */
/* Hints given at open: their count, and "key=value" lines for the log. */
#define RT_MPI_BODY_OPEN(name, args, comm_e, path_e, amode_e, info_e, fh_e)             \
	char hints[RT_HINTS_MAX];                                                       \
	int nhints = 0, comm_size = 1;                                                  \
	RT_MPI_WRAP(name, args, nhints = rt_mpi_hints(info_e, hints, sizeof(hints));    \
		    rt_pmpi.Comm_size(comm_e, &comm_size),                              \
		    rt_mpiio_open(#name, comm_size > 1, path_e, amode_e, nhints, hints, \
				  r == MPI_SUCCESS ? (const void *)*(fh_e) : NULL,      \
				  r != MPI_SUCCESS, rt_mpi_err(r), t0, t1))

#define RT_MPI_BODY_CLOSE(name, args, fh_e)                              \
	struct rt_record *closing = NULL;                                \
	RT_MPI_WRAP(name, args, closing = rt_mpiio_close_begin(*(fh_e)); \
		    rt_mpiio_current = closing,                          \
		    rt_mpiio_close(#name, closing, r != MPI_SUCCESS, rt_mpi_err(r), t0, t1))

#define RT_MPI_BODY_META(name, args, fh_e, counter)                          \
	RT_MPI_WRAP(name, args, rt_mpiio_current = rt_mpiio_record_of(fh_e), \
		    rt_mpiio_meta(#name, fh_e, counter, r != MPI_SUCCESS, rt_mpi_err(r), t0, t1))

#define RT_MPI_BODY_IO(name, args, is_write, cls, fh_e, count_e, dt_e)                             \
	int type_size = 0;                                                                         \
	RT_MPI_WRAP(name, args, rt_pmpi.Type_size(dt_e, &type_size);                               \
		    rt_mpiio_current = rt_mpiio_record_of(fh_e),                                   \
		    rt_mpiio_io(#name, is_write, RT_MPIIO_##cls, fh_e,                             \
				(int64_t)(count_e)*type_size, r != MPI_SUCCESS, rt_mpi_err(r), t0, \
				t1))

#define RT_MPI_BODY_END(name, args, is_write, fh_e)                          \
	RT_MPI_WRAP(name, args, rt_mpiio_current = rt_mpiio_record_of(fh_e), \
		    rt_mpiio_end(#name, is_write, fh_e, t0, t1))

#define RT_MPI_DEFINE(name, params, args, kind, ...)        \
	RT_PMPI_DECL(name, params)                          \
	RT_EXPORT int MPI_##name params                     \
	{                                                   \
		RT_MPI_BODY_##kind(name, args, __VA_ARGS__) \
	}

/* In the shared library, calls entering through PMPI_* are caught too. */
#ifdef RT_STATIC
#define RT_MPI_DEFINE_P(name, params, args, kind, ...)
#else
#define RT_MPI_DEFINE_P(name, params, args, kind, ...) \
	RT_EXPORT int PMPI_##name params               \
	{                                              \
		return MPI_##name args;                \
	}
#endif

#define RT_MPI_EXPAND(name, params, args, kind, ...)         \
	RT_MPI_DEFINE(name, params, args, kind, __VA_ARGS__) \
	RT_MPI_DEFINE_P(name, params, args, kind, __VA_ARGS__)

RT_MPI_CALLS(RT_MPI_EXPAND)
