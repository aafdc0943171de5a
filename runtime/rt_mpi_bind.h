/*
 * rt_mpi_bind — which MPI the program runs with, decided at its first MPI
 * call (shared library only).
 *
 * libioatlas.so exports every intercepted MPI_ and PMPI_ symbol as a jump
 * through a slot (rt_mpi_tramp.S).  The first call through any of them
 * lands in rt_mpi_bind(), which asks the MPI library the program loaded
 * for its version string (MPI_Get_library_version: the same prototype in
 * every ABI, callable before MPI_Init), and fills every slot:
 *
 *  - MPICH's ABI (MPICH, MVAPICH, Intel MPI, Cray MPICH) or Open MPI's, with
 *    the runtime on: the wrappers built for that family (rt_mpi_abi.h),
 *    for each call whose PMPI_ entry point the library has; the others
 *    (MPI-4's large-count calls in Open MPI 4) with the library's own;
 *  - the runtime not started (IOATLAS_DISABLE, an excluded program, a failed
 *    start), an MPI it does not know, or no MPI at all: the MPI library's
 *    own function, so the program runs as without the runtime; a symbol
 *    the library lacks gets a function that returns an error (non-zero).
 *
 * Binding is lazy because MPI may arrive late (mpi4py dlopens libmpi when
 * Python imports it) and never happens in programs that make no MPI call.
 * Thread-safe: the first callers wait for one binding; a call that MPI
 * makes from inside the binding goes straight to MPI.
 */
#ifndef RT_MPI_BIND_H
#define RT_MPI_BIND_H

/*
 * The MPI library's own definition of name (RTLD_NEXT, or the library
 * found at binding outside the global scope), or NULL.  Thread-safe.
 */
void *rt_mpi_real(const char *name);

/*
 * The first call through a slot: binds every slot and returns where this
 * call goes (errno is kept).  Before any MPI is loaded (a program probing
 * for MPI symbols) nothing is bound and the call fails: a later call binds.
 */
void *rt_mpi_bind(void **slot);

/* What the binding found goes to rt.mpi_note (rt_core.h), and the log. */

#endif
