/*
 * rt_mpi_calls — the MPI calls the runtime intercepts, one line each:
 *
 *	X(name, (parameters), (arguments), KIND, kind arguments...)
 *
 * Every one returns int.  rt_mpi.c expands the table into MPI_<name> (and,
 * in the shared library, PMPI_<name>, so that calls entering through the
 * profiling interface — Fortran bindings, mpi4py — are seen too); each calls
 * the MPI library's PMPI_<name>.
 *
 * Kinds:
 *	INIT                      MPI_Init, MPI_Init_thread: the runtime learns its rank
 *	FINALIZE                  the job's log is written, collectively, first
 *	OPEN comm, path, amode, info, fh
 *	CLOSE fh                  (a pointer to the handle)
 *	META fh, counter          sync, set_size, set_view, set_info
 *	IO is_write, class, fh, count, datatype
 *	                          class: INDEP, COLL, SPLIT or NB
 *	END fh                    end of a split collective: timed as I/O, no bytes
 */
#ifndef RT_MPI_CALLS_H
#define RT_MPI_CALLS_H

#define RT_MPI_IO_VARIANTS(X, RW, BUF, IS_WRITE)                                                   \
	X(File_##RW, (MPI_File fh, BUF buf, int count, MPI_Datatype dt, MPI_Status *st),           \
	  (fh, buf, count, dt, st), IO, IS_WRITE, INDEP, fh, count, dt)                            \
	X(File_##RW##_all, (MPI_File fh, BUF buf, int count, MPI_Datatype dt, MPI_Status *st),     \
	  (fh, buf, count, dt, st), IO, IS_WRITE, COLL, fh, count, dt)                             \
	X(File_##RW##_at,                                                                          \
	  (MPI_File fh, MPI_Offset off, BUF buf, int count, MPI_Datatype dt, MPI_Status *st),      \
	  (fh, off, buf, count, dt, st), IO, IS_WRITE, INDEP, fh, count, dt)                       \
	X(File_##RW##_at_all,                                                                      \
	  (MPI_File fh, MPI_Offset off, BUF buf, int count, MPI_Datatype dt, MPI_Status *st),      \
	  (fh, off, buf, count, dt, st), IO, IS_WRITE, COLL, fh, count, dt)                        \
	X(File_##RW##_shared, (MPI_File fh, BUF buf, int count, MPI_Datatype dt, MPI_Status *st),  \
	  (fh, buf, count, dt, st), IO, IS_WRITE, INDEP, fh, count, dt)                            \
	X(File_##RW##_ordered, (MPI_File fh, BUF buf, int count, MPI_Datatype dt, MPI_Status *st), \
	  (fh, buf, count, dt, st), IO, IS_WRITE, COLL, fh, count, dt)                             \
	X(File_i##RW, (MPI_File fh, BUF buf, int count, MPI_Datatype dt, MPI_Request *req),        \
	  (fh, buf, count, dt, req), IO, IS_WRITE, NB, fh, count, dt)                              \
	X(File_i##RW##_all, (MPI_File fh, BUF buf, int count, MPI_Datatype dt, MPI_Request *req),  \
	  (fh, buf, count, dt, req), IO, IS_WRITE, NB, fh, count, dt)                              \
	X(File_i##RW##_at,                                                                         \
	  (MPI_File fh, MPI_Offset off, BUF buf, int count, MPI_Datatype dt, MPI_Request *req),    \
	  (fh, off, buf, count, dt, req), IO, IS_WRITE, NB, fh, count, dt)                         \
	X(File_i##RW##_at_all,                                                                     \
	  (MPI_File fh, MPI_Offset off, BUF buf, int count, MPI_Datatype dt, MPI_Request *req),    \
	  (fh, off, buf, count, dt, req), IO, IS_WRITE, NB, fh, count, dt)                         \
	X(File_i##RW##_shared,                                                                     \
	  (MPI_File fh, BUF buf, int count, MPI_Datatype dt, MPI_Request *req),                    \
	  (fh, buf, count, dt, req), IO, IS_WRITE, NB, fh, count, dt)                              \
	X(File_##RW##_all_begin, (MPI_File fh, BUF buf, int count, MPI_Datatype dt),               \
	  (fh, buf, count, dt), IO, IS_WRITE, SPLIT, fh, count, dt)                                \
	X(File_##RW##_at_all_begin,                                                                \
	  (MPI_File fh, MPI_Offset off, BUF buf, int count, MPI_Datatype dt),                      \
	  (fh, off, buf, count, dt), IO, IS_WRITE, SPLIT, fh, count, dt)                           \
	X(File_##RW##_ordered_begin, (MPI_File fh, BUF buf, int count, MPI_Datatype dt),           \
	  (fh, buf, count, dt), IO, IS_WRITE, SPLIT, fh, count, dt)                                \
	X(File_##RW##_all_end, (MPI_File fh, BUF buf, MPI_Status * st), (fh, buf, st), END,        \
	  IS_WRITE, fh)                                                                            \
	X(File_##RW##_at_all_end, (MPI_File fh, BUF buf, MPI_Status * st), (fh, buf, st), END,     \
	  IS_WRITE, fh)                                                                            \
	X(File_##RW##_ordered_end, (MPI_File fh, BUF buf, MPI_Status * st), (fh, buf, st), END,    \
	  IS_WRITE, fh)

#define RT_MPI_CALLS(X)                                                                         \
	X(Init, (int *argc, char ***argv), (argc, argv), INIT, 0)                               \
	X(Init_thread, (int *argc, char ***argv, int required, int *provided),                  \
	  (argc, argv, required, provided), INIT, 0)                                            \
	X(Finalize, (void), (), FINALIZE, 0)                                                    \
	X(File_open, (MPI_Comm comm, const char *path, int amode, MPI_Info info, MPI_File *fh), \
	  (comm, path, amode, info, fh), OPEN, comm, path, amode, info, fh)                     \
	X(File_close, (MPI_File * fh), (fh), CLOSE, fh)                                         \
	X(File_sync, (MPI_File fh), (fh), META, fh, MPIIO_SYNCS)                                \
	X(File_set_size, (MPI_File fh, MPI_Offset size), (fh, size), META, fh, MPIIO_SET_SIZES) \
	X(File_set_view,                                                                        \
	  (MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype ftype,                \
	   const char *datarep, MPI_Info info),                                                 \
	  (fh, disp, etype, ftype, datarep, info), META, fh, MPIIO_VIEWS)                       \
	X(File_set_info, (MPI_File fh, MPI_Info info), (fh, info), META, fh, MPIIO_HINTS)       \
	RT_MPI_IO_VARIANTS(X, read, void *, 0)                                                  \
	RT_MPI_IO_VARIANTS(X, write, const void *, 1)

#endif
