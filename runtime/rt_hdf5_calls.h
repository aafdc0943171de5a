/*
 * rt_hdf5_calls — the table of the HDF5 calls the runtime intercepts.
 *
 *	X(return type, name, (parameters), (arguments), op, KIND, kind arguments...)
 *
 * rt_hdf5.c expands it into one wrapper per line (the call's own name for
 * LD_PRELOAD, __wrap_<name> for static links) and rt_wraplist into the
 * -Wl,--wrap list.  The types are HDF5's since 1.10 as the ABI sees them
 * (rt_hdf5.h): no HDF5 header is needed to build the runtime, and a program
 * without HDF5 never reaches these.  op is the call the trace names (1.14's
 * asynchronous forms are traced as the calls they run as: with HDF5's own
 * connector they run before they return).  KIND names the body macro
 * RT_H5_BODY_<KIND>:
 *
 *	FOPEN path, flags, fapl         H5Fcreate, H5Fopen (both count as opens)
 *	FAPL fapl, communicator         H5Pset_fapl_mpio: the communicator files
 *	                                opened with the list are opened on
 *	FFLUSH object                   any object of the file
 *	FCLOSE file
 *	DOPEN loc, name, created, deprecated, any
 *	                                the 1 forms are deprecated; H5Oopen opens
 *	                                any object (any): recorded when a dataset
 *	DIO is_write, dataset, memory type, memory space, file space, transfer list
 *	MIO is_write, count, datasets, memory types, memory spaces, file spaces,
 *	    transfer list               1.14's multi-dataset reads and writes
 *	DFLUSH dataset
 *	DCLOSE dataset
 *	OCLOSE object, last             an object's identifier that goes away:
 *	                                H5Oclose, H5Idec_ref when last is 0
 *
 * RT_HDF5_CALLS_1_10 holds the calls of every HDF5 from 1.10 on,
 * RT_HDF5_CALLS_1_14 those since 1.13 (a static link may lack them): the
 * multi-dataset calls and the asynchronous forms, whose first parameters
 * are the caller's file, function and line and whose event set goes last.
 */
#ifndef RT_HDF5_CALLS_H
#define RT_HDF5_CALLS_H

/* The caller's place, which 1.14's asynchronous calls take first. */
#define RT_H5_AT   const char *app_file, const char *app_func, unsigned app_line,
#define RT_H5_AT_A app_file, app_func, app_line,

#define RT_HDF5_CALLS_1_10(X)                                                                      \
	X(rt_hid_t, H5Fcreate, (const char *name, unsigned flags, rt_hid_t fcpl, rt_hid_t fapl),   \
	  (name, flags, fcpl, fapl), H5Fcreate, FOPEN, name, flags, fapl)                          \
	X(rt_hid_t, H5Fopen, (const char *name, unsigned flags, rt_hid_t fapl),                    \
	  (name, flags, fapl), H5Fopen, FOPEN, name, flags, fapl)                                  \
	X(rt_herr_t, H5Pset_fapl_mpio,                                                             \
	  (rt_hid_t fapl, rt_h5_mpi_handle comm, rt_h5_mpi_handle info), (fapl, comm, info),       \
	  H5Pset_fapl_mpio, FAPL, fapl, comm)                                                      \
	X(rt_herr_t, H5Fflush, (rt_hid_t object, int scope), (object, scope), H5Fflush, FFLUSH,    \
	  object)                                                                                  \
	X(rt_herr_t, H5Fclose, (rt_hid_t file), (file), H5Fclose, FCLOSE, file)                    \
	X(rt_hid_t, H5Dcreate1,                                                                    \
	  (rt_hid_t loc, const char *name, rt_hid_t type, rt_hid_t space, rt_hid_t dcpl),          \
	  (loc, name, type, space, dcpl), H5Dcreate1, DOPEN, loc, name, 1, 1, 0)                   \
	X(rt_hid_t, H5Dcreate2,                                                                    \
	  (rt_hid_t loc, const char *name, rt_hid_t type, rt_hid_t space, rt_hid_t lcpl,           \
	   rt_hid_t dcpl, rt_hid_t dapl),                                                          \
	  (loc, name, type, space, lcpl, dcpl, dapl), H5Dcreate2, DOPEN, loc, name, 1, 0, 0)       \
	X(rt_hid_t, H5Dopen1, (rt_hid_t loc, const char *name), (loc, name), H5Dopen1, DOPEN, loc, \
	  name, 0, 1, 0)                                                                           \
	X(rt_hid_t, H5Dopen2, (rt_hid_t loc, const char *name, rt_hid_t dapl), (loc, name, dapl),  \
	  H5Dopen2, DOPEN, loc, name, 0, 0, 0)                                                     \
	X(rt_hid_t, H5Oopen, (rt_hid_t loc, const char *name, rt_hid_t lapl), (loc, name, lapl),   \
	  H5Oopen, DOPEN, loc, name, 0, 0, 1)                                                      \
	X(rt_herr_t, H5Dread,                                                                      \
	  (rt_hid_t dset, rt_hid_t mtype, rt_hid_t mspace, rt_hid_t fspace, rt_hid_t dxpl,         \
	   void *buf),                                                                             \
	  (dset, mtype, mspace, fspace, dxpl, buf), H5Dread, DIO, 0, dset, mtype, mspace, fspace,  \
	  dxpl)                                                                                    \
	X(rt_herr_t, H5Dwrite,                                                                     \
	  (rt_hid_t dset, rt_hid_t mtype, rt_hid_t mspace, rt_hid_t fspace, rt_hid_t dxpl,         \
	   const void *buf),                                                                       \
	  (dset, mtype, mspace, fspace, dxpl, buf), H5Dwrite, DIO, 1, dset, mtype, mspace, fspace, \
	  dxpl)                                                                                    \
	X(rt_herr_t, H5Dflush, (rt_hid_t dset), (dset), H5Dflush, DFLUSH, dset)                    \
	X(rt_herr_t, H5Dclose, (rt_hid_t dset), (dset), H5Dclose, DCLOSE, dset)                    \
	X(rt_herr_t, H5Oclose, (rt_hid_t object), (object), H5Oclose, OCLOSE, object, 0)           \
	X(int, H5Idec_ref, (rt_hid_t object), (object), H5Idec_ref, OCLOSE, object, r)

/* Since HDF5 1.13: the multi-dataset and asynchronous calls. */
#define RT_HDF5_CALLS_1_14(X)                                                                      \
	X(rt_hid_t, H5Fcreate_async,                                                               \
	  (RT_H5_AT const char *name, unsigned flags, rt_hid_t fcpl, rt_hid_t fapl, rt_hid_t es),  \
	  (RT_H5_AT_A name, flags, fcpl, fapl, es), H5Fcreate, FOPEN, name, flags, fapl)           \
	X(rt_hid_t, H5Fopen_async,                                                                 \
	  (RT_H5_AT const char *name, unsigned flags, rt_hid_t fapl, rt_hid_t es),                 \
	  (RT_H5_AT_A name, flags, fapl, es), H5Fopen, FOPEN, name, flags, fapl)                   \
	X(rt_herr_t, H5Fflush_async, (RT_H5_AT rt_hid_t object, int scope, rt_hid_t es),           \
	  (RT_H5_AT_A object, scope, es), H5Fflush, FFLUSH, object)                                \
	X(rt_herr_t, H5Fclose_async, (RT_H5_AT rt_hid_t file, rt_hid_t es), (RT_H5_AT_A file, es), \
	  H5Fclose, FCLOSE, file)                                                                  \
	X(rt_hid_t, H5Dcreate_async,                                                               \
	  (RT_H5_AT rt_hid_t loc, const char *name, rt_hid_t type, rt_hid_t space, rt_hid_t lcpl,  \
	   rt_hid_t dcpl, rt_hid_t dapl, rt_hid_t es),                                             \
	  (RT_H5_AT_A loc, name, type, space, lcpl, dcpl, dapl, es), H5Dcreate2, DOPEN, loc, name, \
	  1, 0, 0)                                                                                 \
	X(rt_hid_t, H5Dopen_async,                                                                 \
	  (RT_H5_AT rt_hid_t loc, const char *name, rt_hid_t dapl, rt_hid_t es),                   \
	  (RT_H5_AT_A loc, name, dapl, es), H5Dopen2, DOPEN, loc, name, 0, 0, 0)                   \
	X(rt_hid_t, H5Oopen_async,                                                                 \
	  (RT_H5_AT rt_hid_t loc, const char *name, rt_hid_t lapl, rt_hid_t es),                   \
	  (RT_H5_AT_A loc, name, lapl, es), H5Oopen, DOPEN, loc, name, 0, 0, 1)                    \
	X(rt_herr_t, H5Dread_async,                                                                \
	  (RT_H5_AT rt_hid_t dset, rt_hid_t mtype, rt_hid_t mspace, rt_hid_t fspace,               \
	   rt_hid_t dxpl, void *buf, rt_hid_t es),                                                 \
	  (RT_H5_AT_A dset, mtype, mspace, fspace, dxpl, buf, es), H5Dread, DIO, 0, dset, mtype,   \
	  mspace, fspace, dxpl)                                                                    \
	X(rt_herr_t, H5Dread_multi,                                                                \
	  (size_t count, rt_hid_t * dset, rt_hid_t * mtype, rt_hid_t * mspace, rt_hid_t * fspace,  \
	   rt_hid_t dxpl, void **buf),                                                             \
	  (count, dset, mtype, mspace, fspace, dxpl, buf), H5Dread, MIO, 0, count, dset, mtype,    \
	  mspace, fspace, dxpl)                                                                    \
	X(rt_herr_t, H5Dread_multi_async,                                                          \
	  (RT_H5_AT size_t count, rt_hid_t * dset, rt_hid_t * mtype, rt_hid_t * mspace,            \
	   rt_hid_t * fspace, rt_hid_t dxpl, void **buf, rt_hid_t es),                             \
	  (RT_H5_AT_A count, dset, mtype, mspace, fspace, dxpl, buf, es), H5Dread, MIO, 0, count,  \
	  dset, mtype, mspace, fspace, dxpl)                                                       \
	X(rt_herr_t, H5Dwrite_async,                                                               \
	  (RT_H5_AT rt_hid_t dset, rt_hid_t mtype, rt_hid_t mspace, rt_hid_t fspace,               \
	   rt_hid_t dxpl, const void *buf, rt_hid_t es),                                           \
	  (RT_H5_AT_A dset, mtype, mspace, fspace, dxpl, buf, es), H5Dwrite, DIO, 1, dset, mtype,  \
	  mspace, fspace, dxpl)                                                                    \
	X(rt_herr_t, H5Dwrite_multi,                                                               \
	  (size_t count, rt_hid_t * dset, rt_hid_t * mtype, rt_hid_t * mspace, rt_hid_t * fspace,  \
	   rt_hid_t dxpl, const void **buf),                                                       \
	  (count, dset, mtype, mspace, fspace, dxpl, buf), H5Dwrite, MIO, 1, count, dset, mtype,   \
	  mspace, fspace, dxpl)                                                                    \
	X(rt_herr_t, H5Dwrite_multi_async,                                                         \
	  (RT_H5_AT size_t count, rt_hid_t * dset, rt_hid_t * mtype, rt_hid_t * mspace,            \
	   rt_hid_t * fspace, rt_hid_t dxpl, const void **buf, rt_hid_t es),                       \
	  (RT_H5_AT_A count, dset, mtype, mspace, fspace, dxpl, buf, es), H5Dwrite, MIO, 1, count, \
	  dset, mtype, mspace, fspace, dxpl)                                                       \
	X(rt_herr_t, H5Dclose_async, (RT_H5_AT rt_hid_t dset, rt_hid_t es), (RT_H5_AT_A dset, es), \
	  H5Dclose, DCLOSE, dset)                                                                  \
	X(rt_herr_t, H5Oclose_async, (RT_H5_AT rt_hid_t object, rt_hid_t es),                      \
	  (RT_H5_AT_A object, es), H5Oclose, OCLOSE, object, 0)

#define RT_HDF5_CALLS(X) RT_HDF5_CALLS_1_10(X) RT_HDF5_CALLS_1_14(X)

#endif
