/*
 * rt_mpi_abi — what lets the MPI part of the runtime (rt_mpi.c, rt_mpilog.c)
 * be compiled once per MPI ABI family into the one shared library.
 *
 * MPI's handles and constants are compile-time values of one library's
 * mpi.h: MPI_COMM_WORLD is an int in MPICH's ABI (MPICH, MVAPICH, Intel
 * MPI) and the address of a global object of libmpi in Open MPI's.  So the
 * shared library holds the MPI part twice, built with -DRT_MPI_FAMILY=mpich
 * against MPICH's headers and -DRT_MPI_FAMILY=openmpi against Open MPI's;
 * every global name of the part gets the family in it (rt_mpich_MPI_Init,
 * rt_openmpi_pmpi, ...), nothing of it is exported, and rt_mpi_bind.c picks
 * one family at the first MPI call.  The static library (RT_STATIC) is built
 * once, for MPICH, with the plain names.
 *
 * In Open MPI's ABI, a predefined handle would be a reference to a symbol of
 * libmpi (ompi_mpi_comm_world): a runtime that linked them would fail to
 * load into every program without Open MPI.  Here they are read from
 * rt_openmpi_globals instead, which rt_openmpi_abi_ready() fills with dlsym
 * when the family is chosen.  A handle missing from RT_OMPI_GLOBALS is a
 * compile error, never a link to libmpi.
 */
#ifndef RT_MPI_ABI_H
#define RT_MPI_ABI_H

#include <mpi.h>

/* A part built against the other family's mpi.h would call MPI with the wrong values. */
#if defined(RT_MPI_FAMILY_OPENMPI) && !defined(OPEN_MPI)
#error "the runtime's Open MPI part needs Open MPI's mpi.h (IOATLAS_OPENMPI_INCLUDE_DIRS)"
#endif
#if defined(RT_MPI_FAMILY_MPICH) && (!defined(MPICH_VERSION) || defined(OPEN_MPI))
#error "the runtime's MPICH part needs an MPICH-ABI mpi.h (IOATLAS_MPICH_INCLUDE_DIRS)"
#endif

#define RT_MPI_CAT_(a, b, c) a##b##c
#define RT_MPI_CAT(a, b, c)  RT_MPI_CAT_(a, b, c)

#ifdef RT_MPI_FAMILY
/* A global name of the MPI part, with the family in it. */
#define RT_MPI_SYM(name) RT_MPI_CAT(rt_, RT_MPI_FAMILY, _##name)
#else
#define RT_MPI_SYM(name) name
#endif

#ifdef RT_MPI_FAMILY
/*
 * Called by rt_mpi_bind.c once the family is known, before any wrapper of
 * the family runs: 0 when the part can work with the MPI library loaded.
 */
int RT_MPI_SYM(abi_ready)(void);

/* The MPI library's own definition of name (rt_mpi_bind.h). */
void *rt_mpi_real(const char *name);

/* The part's names that other modules of the part call. */
#define rt_pmpi		RT_MPI_SYM(pmpi)
#define rt_mpilog_init	RT_MPI_SYM(mpilog_init)
#define rt_mpilog_write RT_MPI_SYM(mpilog_write)
#endif

#if defined(RT_MPI_FAMILY) && defined(OPEN_MPI)
#define RT_OMPI_GLOBALS(X)        \
	X(ompi_mpi_comm_world)    \
	X(ompi_mpi_comm_null)     \
	X(ompi_mpi_comm_self)     \
	X(ompi_request_null)      \
	X(ompi_mpi_datatype_null) \
	X(ompi_mpi_byte)          \
	X(ompi_mpi_int)           \
	X(ompi_mpi_int64_t)       \
	X(ompi_mpi_info_null)     \
	X(ompi_mpi_op_max)        \
	X(ompi_mpi_errors_return)

#define RT_OMPI_FIELD(global) void *global;
struct rt_ompi_globals {
	RT_OMPI_GLOBALS(RT_OMPI_FIELD)
};
#undef RT_OMPI_FIELD

extern struct rt_ompi_globals RT_MPI_SYM(globals);

#undef OMPI_PREDEFINED_GLOBAL
#define OMPI_PREDEFINED_GLOBAL(type, global) ((type)RT_MPI_SYM(globals).global)
#endif

#endif
