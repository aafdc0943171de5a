/*
 * rt_hdf5 — the HDF5 layer: Darshan's H5F counters per file and H5D
 * counters per dataset (named "<file's absolute path>:<dataset's path>"),
 * plus what Darshan leaves out: the file-access properties in force
 * (collective metadata, alignment, chunk cache), failed calls, and the
 * MPI-IO and POSIX calls each file's and dataset's HDF5 calls issued
 * underneath (rt_core.h, rt_self()->above).
 *
 * No build-time dependency on HDF5: the wrappers (rt_hdf5_calls.h) use the
 * ABI's types of HDF5 1.10 to 1.14 below, find the real functions at the
 * first call (the next definition, or the loaded libhdf5 a dlopen'ed
 * module such as h5py's links), and ask the same library what a call
 * did (selections, dimensions, properties) with HDF5's error printing off.
 * A program without HDF5 never calls them and pays nothing.
 */
#ifndef RT_HDF5_H
#define RT_HDF5_H

#include <stdint.h>

typedef int64_t rt_hid_t; /* hid_t since HDF5 1.10 */
typedef int rt_herr_t;	  /* herr_t */
typedef unsigned long long rt_hsize_t;
/* An MPI handle as a call passes it: an int in MPICH's ABI, a pointer in Open MPI's. */
typedef uintptr_t rt_h5_mpi_handle;

#endif
