/*
 * rt_mpilog — the MPI side of the runtime's life: at MPI_Init it learns
 * its rank and the MPI library's entry points; at MPI_Finalize the ranks
 * that record find each other (rt_mpijoin), reduce the records of files
 * that several of them share, and write one log for the job: gathered on
 * the lowest recording rank, or with one collective MPI-IO write.
 */
#ifndef RT_MPILOG_H
#define RT_MPILOG_H

#include "rt_mpi_abi.h" /* mpi.h, and the part's names in this MPI family */

/* The PMPI functions the runtime itself calls, found at MPI_Init. */
#define RT_PMPI_FUNCTIONS(X)                                                                    \
	X(Comm_rank, (MPI_Comm, int *))                                                         \
	X(Comm_size, (MPI_Comm, int *))                                                         \
	X(Gather, (const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm))  \
	X(Gatherv, (const void *, int, MPI_Datatype, void *, const int *, const int *,          \
		    MPI_Datatype, int, MPI_Comm))                                               \
	X(Bcast, (void *, int, MPI_Datatype, int, MPI_Comm))                                    \
	X(Scatter, (const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm)) \
	X(Allgather, (const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm))    \
	X(Reduce, (const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm))             \
	X(File_open, (MPI_Comm, const char *, int, MPI_Info, MPI_File *))                       \
	X(File_write_at_all,                                                                    \
	  (MPI_File, MPI_Offset, const void *, int, MPI_Datatype, MPI_Status *))                \
	X(File_close, (MPI_File *))                                                             \
	X(Type_size, (MPI_Datatype, int *))                                                     \
	X(Type_get_envelope, (MPI_Datatype, int *, int *, int *, int *))                        \
	X(Type_get_contents, (MPI_Datatype, int, int, int, int *, MPI_Aint *, MPI_Datatype *))  \
	X(Type_free, (MPI_Datatype *))                                                          \
	X(Type_get_extent, (MPI_Datatype, MPI_Aint *, MPI_Aint *))                              \
	X(Type_get_true_extent, (MPI_Datatype, MPI_Aint *, MPI_Aint *))                         \
	X(Info_get_nkeys, (MPI_Info, int *))                                                    \
	X(Info_get_nthkey, (MPI_Info, int, char *))                                             \
	X(Info_get, (MPI_Info, const char *, int, char *, int *))                               \
	X(Comm_get_errhandler, (MPI_Comm, MPI_Errhandler *))                                    \
	X(Comm_set_errhandler, (MPI_Comm, MPI_Errhandler))                                      \
	X(Errhandler_free, (MPI_Errhandler *))                                                  \
	X(Error_class, (int, int *))                                                            \
	X(Issend, (const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *))         \
	X(Isend, (const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *))          \
	X(Iprobe, (int, int, MPI_Comm, int *, MPI_Status *))                                    \
	X(Recv, (void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *))                  \
	X(Send, (const void *, int, MPI_Datatype, int, int, MPI_Comm))                          \
	X(Get_count, (const MPI_Status *, MPI_Datatype, int *))                                 \
	X(Test, (MPI_Request *, int *, MPI_Status *))                                           \
	X(Testsome, (int, MPI_Request[], int *, int[], MPI_Status[]))                           \
	X(Cancel, (MPI_Request *))                                                              \
	X(Test_cancelled, (const MPI_Status *, int *))                                          \
	X(Request_free, (MPI_Request *))                                                        \
	X(Comm_group, (MPI_Comm, MPI_Group *))                                                  \
	X(Group_incl, (MPI_Group, int, const int[], MPI_Group *))                               \
	X(Group_free, (MPI_Group *))                                                            \
	X(Group_translate_ranks, (MPI_Group, int, const int[], MPI_Group, int[]))               \
	X(Comm_create_group, (MPI_Comm, MPI_Group, int, MPI_Comm *))                            \
	X(Comm_free, (MPI_Comm *))

#define RT_PMPI_FIELD(name, params) int(*name) params;
struct rt_pmpi_api {
	RT_PMPI_FUNCTIONS(RT_PMPI_FIELD)
};
#undef RT_PMPI_FIELD

/* Filled at MPI_Init; every field is set, or the runtime is off. */
extern struct rt_pmpi_api rt_pmpi;

/* After a successful MPI_Init: resolves rt_pmpi, records rank and size. */
void rt_mpilog_init(void);

/*
 * At MPI_Finalize, on every rank, recording or not (a rank whose runtime
 * is off still answers rank 0, so that nobody waits for it): writes the
 * job's log over the ranks that record.  Never blocks without a bound on
 * ranks that do not take part.
 */
void rt_mpilog_write(void);

#endif
