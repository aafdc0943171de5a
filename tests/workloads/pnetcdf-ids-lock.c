/*
 * pnetcdf-ids-lock — what PnetCDF's --enable-thread-safe adds, for a build
 * without it (Debian's): its table of open files, from which ncmpi_create
 * and ncmpi_open hand out the first free id and ncmpi_close and
 * ncmpi_abort take it back, is then shared by threads unguarded, and two
 * threads creating files at once can be handed the same id (PnetCDF's own
 * pthread.c example then crashes or writes one file twice).  Preloaded
 * after libioatlas, it holds one mutex over each of those four calls, and
 * nothing else: the runtime's own wrappers, before it, still run
 * concurrently.  Over the whole call (PnetCDF's thread-safe build locks
 * only the table), MPI_File_open and MPI_File_close included: collective
 * calls, which a lock across threads could deadlock but on MPI_COMM_SELF,
 * the only communicator pthread.c opens its files on.
 *
 * Built by the test that preloads it, with mpicc.openmpi -shared.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pnetcdf.h>
#include <pthread.h>
#include <string.h>

static pthread_mutex_t table = PTHREAD_MUTEX_INITIALIZER;

/* The next definition of name (PnetCDF's). */
static void *next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

#define LOCKED(type, name, params, args)                  \
	int name params                                   \
	{                                                 \
		static type real;                         \
		void *sym;                                \
		int r;                                    \
		pthread_mutex_lock(&table);               \
		if (!real) {                              \
			sym = next(#name);                \
			memcpy(&real, &sym, sizeof(sym)); \
		}                                         \
		r = real ? real args : NC_EINTERNAL;      \
		pthread_mutex_unlock(&table);             \
		return r;                                 \
	}

typedef int (*open_fn)(MPI_Comm, const char *, int, MPI_Info, int *);
typedef int (*close_fn)(int);

LOCKED(open_fn, ncmpi_create,
       (MPI_Comm comm, const char *path, int cmode, MPI_Info info, int *ncidp),
       (comm, path, cmode, info, ncidp))
LOCKED(open_fn, ncmpi_open, (MPI_Comm comm, const char *path, int omode, MPI_Info info, int *ncidp),
       (comm, path, omode, info, ncidp))
LOCKED(close_fn, ncmpi_close, (int ncid), (ncid))
LOCKED(close_fn, ncmpi_abort, (int ncid), (ncid))
