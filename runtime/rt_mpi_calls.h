/*
 * rt_mpi_calls — the MPI calls the runtime intercepts, one line each:
 *
 *	X(name, (parameters), (arguments), KIND, kind arguments...)
 *
 * Every one returns int.  rt_mpi.c expands the table into MPI_<name> (and,
 * in the shared library, PMPI_<name>, so that calls entering through the
 * profiling interface — Fortran bindings, mpi4py — are seen too); each calls
 * the MPI library's PMPI_<name>.  In the shared library, rt_mpi.c is built
 * once per MPI ABI family, and rt_mpi_tramp.S and rt_mpi_bind.c expand the
 * same tables into the exported symbols and their binding (rt_mpi_bind.h).
 *
 * Kinds:
 *	INIT                      MPI_Init, MPI_Init_thread: the runtime learns its rank
 *	FINALIZE                  the job's log is written, collectively, first
 *	ABORT                     MPI_Abort: the spill says so before the job ends
 *	OPEN comm, path, amode, info, fh
 *	CLOSE fh                  (a pointer to the handle)
 *	META fh, counter          sync, set_size, set_info, get_size (counter -1: none, as
 *	                          in Darshan)
 *	SEEK fh, offset, whence   the individual file pointer moved: no counter (Darshan
 *	                          has none), traced for the kernels
 *	VIEW fh, disp, etype, ftype, info  set_view: the view kept for the kernels
 *	IO op, is_write, class, fh, offset, count, datatype
 *	                          op: the call's name in the trace (the int form's)
 *	                          offset: explicit (the _at forms), -1 at the file pointer
 *	                          class: INDEP, COLL, SPLIT or NB
 *	END fh                    end of a split collective: timed as I/O, no bytes
 */
#ifndef RT_MPI_CALLS_H
#define RT_MPI_CALLS_H

/*
 * The reads or writes of one direction: COUNT is the type of their count
 * (int; MPI_Count for MPI-4's large-count forms) and C the suffix of their
 * names (empty; _c).  OP names the call in the trace either way, so that a
 * large-count call is the same operation as its int form.
 */
#define RT_MPI_IO_COUNTED(X, RW, BUF, IS_WRITE, COUNT, C)                                          \
	X(File_##RW##C, (MPI_File fh, BUF buf, COUNT count, MPI_Datatype dt, MPI_Status * st),     \
	  (fh, buf, count, dt, st), IO, "File_" #RW, IS_WRITE, INDEP, fh, -1, count, dt)           \
	X(File_##RW##_all##C,                                                                      \
	  (MPI_File fh, BUF buf, COUNT count, MPI_Datatype dt, MPI_Status * st),                   \
	  (fh, buf, count, dt, st), IO, "File_" #RW "_all", IS_WRITE, COLL, fh, -1, count, dt)     \
	X(File_##RW##_at##C,                                                                       \
	  (MPI_File fh, MPI_Offset off, BUF buf, COUNT count, MPI_Datatype dt, MPI_Status * st),   \
	  (fh, off, buf, count, dt, st), IO, "File_" #RW "_at", IS_WRITE, INDEP, fh, off, count,   \
	  dt)                                                                                      \
	X(File_##RW##_at_all##C,                                                                   \
	  (MPI_File fh, MPI_Offset off, BUF buf, COUNT count, MPI_Datatype dt, MPI_Status * st),   \
	  (fh, off, buf, count, dt, st), IO, "File_" #RW "_at_all", IS_WRITE, COLL, fh, off,       \
	  count, dt)                                                                               \
	X(File_##RW##_shared##C,                                                                   \
	  (MPI_File fh, BUF buf, COUNT count, MPI_Datatype dt, MPI_Status * st),                   \
	  (fh, buf, count, dt, st), IO, "File_" #RW "_shared", IS_WRITE, INDEP, fh, -1, count, dt) \
	X(File_##RW##_ordered##C,                                                                  \
	  (MPI_File fh, BUF buf, COUNT count, MPI_Datatype dt, MPI_Status * st),                   \
	  (fh, buf, count, dt, st), IO, "File_" #RW "_ordered", IS_WRITE, COLL, fh, -1, count, dt) \
	X(File_i##RW##C, (MPI_File fh, BUF buf, COUNT count, MPI_Datatype dt, MPI_Request * req),  \
	  (fh, buf, count, dt, req), IO, "File_i" #RW, IS_WRITE, NB, fh, -1, count, dt)            \
	X(File_i##RW##_all##C,                                                                     \
	  (MPI_File fh, BUF buf, COUNT count, MPI_Datatype dt, MPI_Request * req),                 \
	  (fh, buf, count, dt, req), IO, "File_i" #RW "_all", IS_WRITE, NB, fh, -1, count, dt)     \
	X(File_i##RW##_at##C,                                                                      \
	  (MPI_File fh, MPI_Offset off, BUF buf, COUNT count, MPI_Datatype dt, MPI_Request * req), \
	  (fh, off, buf, count, dt, req), IO, "File_i" #RW "_at", IS_WRITE, NB, fh, off, count,    \
	  dt)                                                                                      \
	X(File_i##RW##_at_all##C,                                                                  \
	  (MPI_File fh, MPI_Offset off, BUF buf, COUNT count, MPI_Datatype dt, MPI_Request * req), \
	  (fh, off, buf, count, dt, req), IO, "File_i" #RW "_at_all", IS_WRITE, NB, fh, off,       \
	  count, dt)                                                                               \
	X(File_i##RW##_shared##C,                                                                  \
	  (MPI_File fh, BUF buf, COUNT count, MPI_Datatype dt, MPI_Request * req),                 \
	  (fh, buf, count, dt, req), IO, "File_i" #RW "_shared", IS_WRITE, NB, fh, -1, count, dt)  \
	X(File_##RW##_all_begin##C, (MPI_File fh, BUF buf, COUNT count, MPI_Datatype dt),          \
	  (fh, buf, count, dt), IO, "File_" #RW "_all_begin", IS_WRITE, SPLIT, fh, -1, count, dt)  \
	X(File_##RW##_at_all_begin##C,                                                             \
	  (MPI_File fh, MPI_Offset off, BUF buf, COUNT count, MPI_Datatype dt),                    \
	  (fh, off, buf, count, dt), IO, "File_" #RW "_at_all_begin", IS_WRITE, SPLIT, fh, off,    \
	  count, dt)                                                                               \
	X(File_##RW##_ordered_begin##C, (MPI_File fh, BUF buf, COUNT count, MPI_Datatype dt),      \
	  (fh, buf, count, dt), IO, "File_" #RW "_ordered_begin", IS_WRITE, SPLIT, fh, -1, count,  \
	  dt)

#define RT_MPI_IO_VARIANTS(X, RW, BUF, IS_WRITE)                                                \
	RT_MPI_IO_COUNTED(X, RW, BUF, IS_WRITE, int, )                                          \
	X(File_##RW##_all_end, (MPI_File fh, BUF buf, MPI_Status * st), (fh, buf, st), END,     \
	  IS_WRITE, fh)                                                                         \
	X(File_##RW##_at_all_end, (MPI_File fh, BUF buf, MPI_Status * st), (fh, buf, st), END,  \
	  IS_WRITE, fh)                                                                         \
	X(File_##RW##_ordered_end, (MPI_File fh, BUF buf, MPI_Status * st), (fh, buf, st), END, \
	  IS_WRITE, fh)

#define RT_MPI_CALLS(X)                                                                         \
	X(Init, (int *argc, char ***argv), (argc, argv), INIT, 0)                               \
	X(Init_thread, (int *argc, char ***argv, int required, int *provided),                  \
	  (argc, argv, required, provided), INIT, 0)                                            \
	X(Finalize, (void), (), FINALIZE, 0)                                                    \
	X(Abort, (MPI_Comm comm, int code), (comm, code), ABORT, code)                          \
	X(File_open, (MPI_Comm comm, const char *path, int amode, MPI_Info info, MPI_File *fh), \
	  (comm, path, amode, info, fh), OPEN, comm, path, amode, info, fh)                     \
	X(File_close, (MPI_File * fh), (fh), CLOSE, fh)                                         \
	X(File_sync, (MPI_File fh), (fh), META, fh, MPIIO_SYNCS)                                \
	X(File_set_size, (MPI_File fh, MPI_Offset size), (fh, size), META, fh, MPIIO_SET_SIZES) \
	X(File_set_view,                                                                        \
	  (MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype ftype,                \
	   const char *datarep, MPI_Info info),                                                 \
	  (fh, disp, etype, ftype, datarep, info), VIEW, fh, disp, etype, ftype, info)          \
	X(File_set_info, (MPI_File fh, MPI_Info info), (fh, info), META, fh, -1)                \
	X(File_get_size, (MPI_File fh, MPI_Offset *size), (fh, size), META, fh, -1)             \
	X(File_seek, (MPI_File fh, MPI_Offset offset, int whence), (fh, offset, whence), SEEK,  \
	  fh, offset, whence)                                                                   \
	RT_MPI_IO_VARIANTS(X, read, void *, 0)                                                  \
	RT_MPI_IO_VARIANTS(X, write, const void *, 1)

/*
 * MPI-4's large-count forms of the calls above that take a count (MPI_Count
 * counts), counted in the same counters.  MPICH 4 has them, Open MPI 4 does
 * not: the shared library binds those the MPI library defines.
 */
#define RT_MPI_LARGE_CALLS(X)                                \
	RT_MPI_IO_COUNTED(X, read, void *, 0, MPI_Count, _c) \
	RT_MPI_IO_COUNTED(X, write, const void *, 1, MPI_Count, _c)

/*
 * The calls that communicate or synchronize, traced (not counted) so that
 * the time between two I/O calls splits into compute and synchronization:
 *
 *	X(name, (parameters), (arguments), KIND, kind arguments...)
 *
 *	COLL comm, root, count, datatype       root -1 for rootless collectives
 *	P2P comm, peer, count, datatype, tag   blocking send or receive
 *	P2P_NB comm, peer, count, datatype, request
 *	SENDRECV comm, dest, count, datatype, source
 *	WAIT request                           (a pointer to it)
 *	TEST request, flag                     traced when it completes
 *	WAITALL count, requests, flag          flag NULL for waitall
 *	WAITANY count, requests, index
 *	COMM_NEW comm, color, key, newcomm     split, dup, create
 */
#define RT_MPI_COMM_CALLS(X)                                                                       \
	X(Barrier, (MPI_Comm comm), (comm), COLL, comm, -1, 0, MPI_BYTE)                           \
	X(Bcast, (void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm),                 \
	  (buf, count, dt, root, comm), COLL, comm, root, count, dt)                               \
	X(Reduce,                                                                                  \
	  (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root,          \
	   MPI_Comm comm),                                                                         \
	  (sbuf, rbuf, count, dt, op, root, comm), COLL, comm, root, count, dt)                    \
	X(Allreduce,                                                                               \
	  (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm),    \
	  (sbuf, rbuf, count, dt, op, comm), COLL, comm, -1, count, dt)                            \
	X(Reduce_scatter_block,                                                                    \
	  (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm),    \
	  (sbuf, rbuf, count, dt, op, comm), COLL, comm, -1, count, dt)                            \
	X(Reduce_scatter,                                                                          \
	  (const void *sbuf, void *rbuf, const int *counts, MPI_Datatype dt, MPI_Op op,            \
	   MPI_Comm comm),                                                                         \
	  (sbuf, rbuf, counts, dt, op, comm), COLL, comm, -1, 0, dt)                               \
	X(Scan,                                                                                    \
	  (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm),    \
	  (sbuf, rbuf, count, dt, op, comm), COLL, comm, -1, count, dt)                            \
	X(Exscan,                                                                                  \
	  (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm),    \
	  (sbuf, rbuf, count, dt, op, comm), COLL, comm, -1, count, dt)                            \
	X(Gather,                                                                                  \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,               \
	   MPI_Datatype rtype, int root, MPI_Comm comm),                                           \
	  (sbuf, scount, stype, rbuf, rcount, rtype, root, comm), COLL, comm, root, scount, stype) \
	X(Gatherv,                                                                                 \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int *rcounts,       \
	   const int *displs, MPI_Datatype rtype, int root, MPI_Comm comm),                        \
	  (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm), COLL, comm, root,       \
	  scount, stype)                                                                           \
	X(Allgather,                                                                               \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,               \
	   MPI_Datatype rtype, MPI_Comm comm),                                                     \
	  (sbuf, scount, stype, rbuf, rcount, rtype, comm), COLL, comm, -1, scount, stype)         \
	X(Allgatherv,                                                                              \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int *rcounts,       \
	   const int *displs, MPI_Datatype rtype, MPI_Comm comm),                                  \
	  (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm), COLL, comm, -1, scount,       \
	  stype)                                                                                   \
	X(Scatter,                                                                                 \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,               \
	   MPI_Datatype rtype, int root, MPI_Comm comm),                                           \
	  (sbuf, scount, stype, rbuf, rcount, rtype, root, comm), COLL, comm, root, rcount, rtype) \
	X(Scatterv,                                                                                \
	  (const void *sbuf, const int *scounts, const int *displs, MPI_Datatype stype,            \
	   void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm),                   \
	  (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm), COLL, comm, root,       \
	  rcount, rtype)                                                                           \
	X(Alltoall,                                                                                \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,               \
	   MPI_Datatype rtype, MPI_Comm comm),                                                     \
	  (sbuf, scount, stype, rbuf, rcount, rtype, comm), COLL, comm, -1, scount, stype)         \
	X(Alltoallv,                                                                               \
	  (const void *sbuf, const int *scounts, const int *sdispls, MPI_Datatype stype,           \
	   void *rbuf, const int *rcounts, const int *rdispls, MPI_Datatype rtype, MPI_Comm comm), \
	  (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm), COLL, comm, -1, 0, \
	  stype)                                                                                   \
	X(Send, (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm),   \
	  (buf, count, dt, dest, tag, comm), P2P, comm, dest, count, dt, tag)                      \
	X(Ssend, (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm),  \
	  (buf, count, dt, dest, tag, comm), P2P, comm, dest, count, dt, tag)                      \
	X(Rsend, (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm),  \
	  (buf, count, dt, dest, tag, comm), P2P, comm, dest, count, dt, tag)                      \
	X(Bsend, (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm),  \
	  (buf, count, dt, dest, tag, comm), P2P, comm, dest, count, dt, tag)                      \
	X(Recv,                                                                                    \
	  (void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,              \
	   MPI_Status *st),                                                                        \
	  (buf, count, dt, source, tag, comm, st), P2P, comm, source, count, dt, tag)              \
	X(Isend,                                                                                   \
	  (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,          \
	   MPI_Request *req),                                                                      \
	  (buf, count, dt, dest, tag, comm, req), P2P_NB, comm, dest, count, dt, req)              \
	X(Issend,                                                                                  \
	  (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,          \
	   MPI_Request *req),                                                                      \
	  (buf, count, dt, dest, tag, comm, req), P2P_NB, comm, dest, count, dt, req)              \
	X(Irecv,                                                                                   \
	  (void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,              \
	   MPI_Request *req),                                                                      \
	  (buf, count, dt, source, tag, comm, req), P2P_NB, comm, source, count, dt, req)          \
	X(Sendrecv,                                                                                \
	  (const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag, void *rbuf,       \
	   int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm, MPI_Status *st),   \
	  (sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, st),          \
	  SENDRECV, comm, dest, scount, stype, source)                                             \
	X(Sendrecv_replace,                                                                        \
	  (void *buf, int count, MPI_Datatype dt, int dest, int stag, int source, int rtag,        \
	   MPI_Comm comm, MPI_Status *st),                                                         \
	  (buf, count, dt, dest, stag, source, rtag, comm, st), SENDRECV, comm, dest, count, dt,   \
	  source)                                                                                  \
	X(Wait, (MPI_Request * req, MPI_Status * st), (req, st), WAIT, req)                        \
	X(Test, (MPI_Request * req, int *flag, MPI_Status *st), (req, flag, st), TEST, req, flag)  \
	X(Waitall, (int n, MPI_Request *reqs, MPI_Status *sts), (n, reqs, sts), WAITALL, n, reqs,  \
	  NULL)                                                                                    \
	X(Testall, (int n, MPI_Request *reqs, int *flag, MPI_Status *sts), (n, reqs, flag, sts),   \
	  WAITALL, n, reqs, flag)                                                                  \
	X(Waitany, (int n, MPI_Request *reqs, int *index, MPI_Status *st), (n, reqs, index, st),   \
	  WAITANY, n, reqs, index)                                                                 \
	X(Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm),                      \
	  (comm, color, key, newcomm), COMM_NEW, comm, color, key, newcomm)                        \
	X(Comm_dup, (MPI_Comm comm, MPI_Comm * newcomm), (comm, newcomm), COMM_NEW, comm, 0, 0,    \
	  newcomm)                                                                                 \
	X(Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm * newcomm),                       \
	  (comm, group, newcomm), COMM_NEW, comm, 0, 0, newcomm)

#endif
