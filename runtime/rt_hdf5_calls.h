/*
 * rt_hdf5_calls — the table of the HDF5 calls the runtime intercepts.
 *
 *	X(return type, name, (parameters), (arguments), KIND, kind arguments...)
 *
 * rt_hdf5.c expands it into one wrapper per line (the call's own name for
 * LD_PRELOAD, __wrap_<name> for static links) and rt_wraplist into the
 * -Wl,--wrap list.  The types are HDF5's since 1.10 as the ABI sees them
 * (rt_hdf5.h): no HDF5 header is needed to build the runtime, and a program
 * without HDF5 never reaches these.  KIND names the body macro RT_H5_BODY_<KIND>:
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
 *	DFLUSH dataset
 *	DCLOSE dataset
 *	OCLOSE object, last             an object's identifier that goes away:
 *	                                H5Oclose, H5Idec_ref when last is 0
 */
#ifndef RT_HDF5_CALLS_H
#define RT_HDF5_CALLS_H

#define RT_HDF5_CALLS(X)                                                                           \
	X(rt_hid_t, H5Fcreate, (const char *name, unsigned flags, rt_hid_t fcpl, rt_hid_t fapl),   \
	  (name, flags, fcpl, fapl), FOPEN, name, flags, fapl)                                     \
	X(rt_hid_t, H5Fopen, (const char *name, unsigned flags, rt_hid_t fapl),                    \
	  (name, flags, fapl), FOPEN, name, flags, fapl)                                           \
	X(rt_herr_t, H5Pset_fapl_mpio,                                                             \
	  (rt_hid_t fapl, rt_h5_mpi_handle comm, rt_h5_mpi_handle info), (fapl, comm, info), FAPL, \
	  fapl, comm)                                                                              \
	X(rt_herr_t, H5Fflush, (rt_hid_t object, int scope), (object, scope), FFLUSH, object)      \
	X(rt_herr_t, H5Fclose, (rt_hid_t file), (file), FCLOSE, file)                              \
	X(rt_hid_t, H5Dcreate1,                                                                    \
	  (rt_hid_t loc, const char *name, rt_hid_t type, rt_hid_t space, rt_hid_t dcpl),          \
	  (loc, name, type, space, dcpl), DOPEN, loc, name, 1, 1, 0)                               \
	X(rt_hid_t, H5Dcreate2,                                                                    \
	  (rt_hid_t loc, const char *name, rt_hid_t type, rt_hid_t space, rt_hid_t lcpl,           \
	   rt_hid_t dcpl, rt_hid_t dapl),                                                          \
	  (loc, name, type, space, lcpl, dcpl, dapl), DOPEN, loc, name, 1, 0, 0)                   \
	X(rt_hid_t, H5Dopen1, (rt_hid_t loc, const char *name), (loc, name), DOPEN, loc, name, 0,  \
	  1, 0)                                                                                    \
	X(rt_hid_t, H5Dopen2, (rt_hid_t loc, const char *name, rt_hid_t dapl), (loc, name, dapl),  \
	  DOPEN, loc, name, 0, 0, 0)                                                               \
	X(rt_hid_t, H5Oopen, (rt_hid_t loc, const char *name, rt_hid_t lapl), (loc, name, lapl),   \
	  DOPEN, loc, name, 0, 0, 1)                                                               \
	X(rt_herr_t, H5Dread,                                                                      \
	  (rt_hid_t dset, rt_hid_t mtype, rt_hid_t mspace, rt_hid_t fspace, rt_hid_t dxpl,         \
	   void *buf),                                                                             \
	  (dset, mtype, mspace, fspace, dxpl, buf), DIO, 0, dset, mtype, mspace, fspace, dxpl)     \
	X(rt_herr_t, H5Dwrite,                                                                     \
	  (rt_hid_t dset, rt_hid_t mtype, rt_hid_t mspace, rt_hid_t fspace, rt_hid_t dxpl,         \
	   const void *buf),                                                                       \
	  (dset, mtype, mspace, fspace, dxpl, buf), DIO, 1, dset, mtype, mspace, fspace, dxpl)     \
	X(rt_herr_t, H5Dflush, (rt_hid_t dset), (dset), DFLUSH, dset)                              \
	X(rt_herr_t, H5Dclose, (rt_hid_t dset), (dset), DCLOSE, dset)                              \
	X(rt_herr_t, H5Oclose, (rt_hid_t object), (object), OCLOSE, object, 0)                     \
	X(int, H5Idec_ref, (rt_hid_t object), (object), OCLOSE, object, r)

#endif
