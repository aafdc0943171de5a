/*
 * ioa_errname — the names of the errors a log records (failure entries,
 * trace signatures): errno values for POSIX and STDIO calls, MPI error
 * classes for MPI calls, netCDF's error codes (negative) for PnetCDF calls.
 *
 * MPI error classes have different numbers in each MPI library (MPICH's
 * MPI_ERR_NO_SUCH_FILE is 37, Open MPI's 42), so the runtime stores an MPI
 * class as a code of its own, the same for every library: IOA_ERR_MPI plus
 * the class's code in IOA_MPI_CLASSES below, or plus IOA_ERR_MPI_UNLISTED
 * and the library's own number for a class the table does not list (one
 * added by MPI_Add_error_class, or a newer standard's).  The codes are
 * part of the log format (docs/log-format.md): a class keeps its code
 * forever, new classes take new codes.
 *
 * Logs written before carry the library's own number without IOA_ERR_MPI;
 * a reader tells them apart by the flag and names them by number.
 */
#ifndef IOA_ERRNAME_H
#define IOA_ERRNAME_H

#include <stddef.h>
#include <stdint.h>

/* Set in a recorded error that is an MPI error class: no errno comes near it. */
#define IOA_ERR_MPI 0x40000000
/* Added to a class the table does not list, with the library's number (below 0x8000). */
#define IOA_ERR_MPI_UNLISTED 0x8000

/* The MPI standard's error classes (MPI 4.1, section 9.4) and their codes in logs. */
#define IOA_MPI_CLASSES(X)                   \
	X(MPI_SUCCESS, 0)                    \
	X(MPI_ERR_BUFFER, 1)                 \
	X(MPI_ERR_COUNT, 2)                  \
	X(MPI_ERR_TYPE, 3)                   \
	X(MPI_ERR_TAG, 4)                    \
	X(MPI_ERR_COMM, 5)                   \
	X(MPI_ERR_RANK, 6)                   \
	X(MPI_ERR_REQUEST, 7)                \
	X(MPI_ERR_ROOT, 8)                   \
	X(MPI_ERR_GROUP, 9)                  \
	X(MPI_ERR_OP, 10)                    \
	X(MPI_ERR_TOPOLOGY, 11)              \
	X(MPI_ERR_DIMS, 12)                  \
	X(MPI_ERR_ARG, 13)                   \
	X(MPI_ERR_UNKNOWN, 14)               \
	X(MPI_ERR_TRUNCATE, 15)              \
	X(MPI_ERR_OTHER, 16)                 \
	X(MPI_ERR_INTERN, 17)                \
	X(MPI_ERR_IN_STATUS, 18)             \
	X(MPI_ERR_PENDING, 19)               \
	X(MPI_ERR_KEYVAL, 20)                \
	X(MPI_ERR_NO_MEM, 21)                \
	X(MPI_ERR_BASE, 22)                  \
	X(MPI_ERR_INFO_KEY, 23)              \
	X(MPI_ERR_INFO_VALUE, 24)            \
	X(MPI_ERR_INFO_NOKEY, 25)            \
	X(MPI_ERR_SPAWN, 26)                 \
	X(MPI_ERR_PORT, 27)                  \
	X(MPI_ERR_SERVICE, 28)               \
	X(MPI_ERR_NAME, 29)                  \
	X(MPI_ERR_WIN, 30)                   \
	X(MPI_ERR_SIZE, 31)                  \
	X(MPI_ERR_DISP, 32)                  \
	X(MPI_ERR_INFO, 33)                  \
	X(MPI_ERR_LOCKTYPE, 34)              \
	X(MPI_ERR_ASSERT, 35)                \
	X(MPI_ERR_RMA_CONFLICT, 36)          \
	X(MPI_ERR_RMA_SYNC, 37)              \
	X(MPI_ERR_RMA_RANGE, 38)             \
	X(MPI_ERR_RMA_ATTACH, 39)            \
	X(MPI_ERR_RMA_SHARED, 40)            \
	X(MPI_ERR_RMA_FLAVOR, 41)            \
	X(MPI_ERR_FILE, 42)                  \
	X(MPI_ERR_NOT_SAME, 43)              \
	X(MPI_ERR_AMODE, 44)                 \
	X(MPI_ERR_UNSUPPORTED_DATAREP, 45)   \
	X(MPI_ERR_UNSUPPORTED_OPERATION, 46) \
	X(MPI_ERR_NO_SUCH_FILE, 47)          \
	X(MPI_ERR_FILE_EXISTS, 48)           \
	X(MPI_ERR_BAD_FILE, 49)              \
	X(MPI_ERR_ACCESS, 50)                \
	X(MPI_ERR_NO_SPACE, 51)              \
	X(MPI_ERR_QUOTA, 52)                 \
	X(MPI_ERR_READ_ONLY, 53)             \
	X(MPI_ERR_FILE_IN_USE, 54)           \
	X(MPI_ERR_DUP_DATAREP, 55)           \
	X(MPI_ERR_CONVERSION, 56)            \
	X(MPI_ERR_IO, 57)                    \
	X(MPI_ERR_SESSION, 58)               \
	X(MPI_ERR_PROC_ABORTED, 59)          \
	X(MPI_ERR_VALUE_TOO_LARGE, 60)

#define IOA_MPI_CLASS_ENUM(name, code) IOA_##name = code,
enum ioa_mpi_class { IOA_MPI_CLASSES(IOA_MPI_CLASS_ENUM) IOA_MPI_CLASS_COUNT };
#undef IOA_MPI_CLASS_ENUM

/*
 * netCDF's and PnetCDF's error codes a PnetCDF call returns (its own,
 * recorded as they are: negative, so apart from every errno), as the
 * libraries' headers name them, by the code negated.
 */
#define IOA_NC_ERRORS(X)              \
	X(NC_EBADID, 33)              \
	X(NC_ENFILE, 34)              \
	X(NC_EEXIST, 35)              \
	X(NC_EINVAL, 36)              \
	X(NC_EPERM, 37)               \
	X(NC_ENOTINDEFINE, 38)        \
	X(NC_EINDEFINE, 39)           \
	X(NC_EINVALCOORDS, 40)        \
	X(NC_EMAXDIMS, 41)            \
	X(NC_ENAMEINUSE, 42)          \
	X(NC_ENOTATT, 43)             \
	X(NC_EMAXATTS, 44)            \
	X(NC_EBADTYPE, 45)            \
	X(NC_EBADDIM, 46)             \
	X(NC_EUNLIMPOS, 47)           \
	X(NC_EMAXVARS, 48)            \
	X(NC_ENOTVAR, 49)             \
	X(NC_EGLOBAL, 50)             \
	X(NC_ENOTNC, 51)              \
	X(NC_ESTS, 52)                \
	X(NC_EMAXNAME, 53)            \
	X(NC_EUNLIMIT, 54)            \
	X(NC_ENORECVARS, 55)          \
	X(NC_ECHAR, 56)               \
	X(NC_EEDGE, 57)               \
	X(NC_ESTRIDE, 58)             \
	X(NC_EBADNAME, 59)            \
	X(NC_ERANGE, 60)              \
	X(NC_ENOMEM, 61)              \
	X(NC_EVARSIZE, 62)            \
	X(NC_EDIMSIZE, 63)            \
	X(NC_ETRUNC, 64)              \
	X(NC_EIO, 68)                 \
	X(NC_EINTERNAL, 92)           \
	X(NC_EPNETCDF, 93)            \
	X(NC_ESMALL, 201)             \
	X(NC_ENOTINDEP, 202)          \
	X(NC_EINDEP, 203)             \
	X(NC_EFILE, 204)              \
	X(NC_EREAD, 205)              \
	X(NC_EWRITE, 206)             \
	X(NC_EOFILE, 207)             \
	X(NC_EMULTITYPES, 208)        \
	X(NC_EIOMISMATCH, 209)        \
	X(NC_ENEGATIVECNT, 210)       \
	X(NC_EUNSPTETYPE, 211)        \
	X(NC_EINVAL_REQUEST, 212)     \
	X(NC_EAINT_TOO_SMALL, 213)    \
	X(NC_ENOTSUPPORT, 214)        \
	X(NC_ENULLBUF, 215)           \
	X(NC_EPREVATTACHBUF, 216)     \
	X(NC_ENULLABUF, 217)          \
	X(NC_EPENDINGBPUT, 218)       \
	X(NC_EINSUFFBUF, 219)         \
	X(NC_ENOENT, 220)             \
	X(NC_EINTOVERFLOW, 221)       \
	X(NC_ENOTENABLED, 222)        \
	X(NC_EBAD_FILE, 223)          \
	X(NC_ENO_SPACE, 224)          \
	X(NC_EQUOTA, 225)             \
	X(NC_ENULLSTART, 226)         \
	X(NC_ENULLCOUNT, 227)         \
	X(NC_EINVAL_CMODE, 228)       \
	X(NC_ETYPESIZE, 229)          \
	X(NC_ETYPE_MISMATCH, 230)     \
	X(NC_ETYPESIZE_MISMATCH, 231) \
	X(NC_ESTRICTCDF2, 232)        \
	X(NC_ENOTRECVAR, 233)         \
	X(NC_ENOTFILL, 234)           \
	X(NC_EINVAL_OMODE, 235)       \
	X(NC_EPENDING, 236)           \
	X(NC_EMAX_REQ, 237)           \
	X(NC_EBADLOG, 238)            \
	X(NC_EFLUSHED, 239)           \
	X(NC_EADIOS, 240)

/*
 * The name of a recorded error into buf (len bytes), returned: an MPI class
 * by its standard name ("MPI_ERR_NO_SUCH_FILE"), one the table does not
 * list as "unknown MPI error class N", an errno by its name ("ENOENT"), a
 * netCDF error code by its ("NC_ENOENT"; one the table does not list as
 * "netCDF error -N").
 * mpi: the error comes from an MPI call (module MPI-IO or MPI), which tells
 * a class in a log written before the codes (named "MPI error class N":
 * the job's MPI library's number) from an errno.  Thread-safe.
 */
const char *ioa_errname(int32_t err, int mpi, char *buf, size_t len);

/* Room for any name ioa_errname() gives. */
#define IOA_ERRNAME_MAX 48

#endif
