/*
 * rt_pnetcdf — the PnetCDF layer: Darshan's PNETCDF_FILE counters per file
 * and PNETCDF_VAR counters per variable (named "<file's absolute
 * path>:<variable>"), plus what Darshan leaves out: failed calls (with
 * PnetCDF's error code) and the MPI-IO and POSIX calls each file's and
 * variable's PnetCDF calls issued underneath (rt_core.h, rt_self()->above).
 *
 * No build-time dependency on PnetCDF: the wrappers (rt_pnetcdf_calls.h)
 * use the ABI's types below and find the real functions at the first call
 * (the next definition: PnetCDF linked to the program, as Debian's
 * libpnetcdf is, or loaded into its global scope); a variable's name,
 * type and shape are asked of the same library.  A program without
 * PnetCDF never calls them and pays nothing.  Static links are not
 * wrapped (the layer is LD_PRELOAD only, as HDF5's).
 */
#ifndef RT_PNETCDF_H
#define RT_PNETCDF_H

#include <stdint.h>

/*
 * An MPI handle (MPI_Comm, MPI_Info, MPI_Datatype), passed through and
 * never read: an int in MPICH's ABI, a pointer in Open MPI's.  Either
 * travels in one integer register or stack slot of the 64-bit calling
 * conventions the runtime is built for, so one wrapper serves both.
 */
typedef uintptr_t rt_nc_handle;

#endif
