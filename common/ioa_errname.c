/*
 * ioa_errname — names of recorded errors (see ioa_errname.h), shared by
 * every reader that shows a failure: `ioatlas parse`, `ioatlas trace`, the
 * analyses and the reports.
 */
#define _GNU_SOURCE
#include "ioa_errname.h"

#include <stdio.h>
#include <string.h>

static const char *const mpi_class_names[IOA_MPI_CLASS_COUNT] = {
#define IOA_MPI_CLASS_NAME(name, code) [code] = #name,
	IOA_MPI_CLASSES(IOA_MPI_CLASS_NAME)
#undef IOA_MPI_CLASS_NAME
};

static const char *nc_error_name(int32_t err)
{
	switch (-err) {
#define IOA_NC_ERROR_CASE(name, code) \
	case code:                    \
		return #name;
		IOA_NC_ERRORS(IOA_NC_ERROR_CASE)
#undef IOA_NC_ERROR_CASE
	}
	return NULL;
}

const char *ioa_errname(int32_t err, int mpi, char *buf, size_t len)
{
	const char *name;

	if (err >= IOA_ERR_MPI) {
		int32_t code = err - IOA_ERR_MPI;

		if (code < IOA_MPI_CLASS_COUNT && mpi_class_names[code])
			return mpi_class_names[code];
		if (code >= IOA_ERR_MPI_UNLISTED)
			snprintf(buf, len, "unknown MPI error class %d",
				 code - IOA_ERR_MPI_UNLISTED);
		else
			snprintf(buf, len, "unknown MPI error code %d", code);
		return buf;
	}
	if (mpi) {
		snprintf(buf, len, "MPI error class %d", err);
		return buf;
	}
	name = err > 0 ? strerrorname_np(err) : nc_error_name(err);
	if (name)
		return name;
	snprintf(buf, len, err < 0 ? "netCDF error %d" : "errno %d", err);
	return buf;
}
