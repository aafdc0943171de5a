/*
 * mpi-io-errors — MPI-IO calls that fail, each rank on files of its own
 * (MPI_COMM_SELF), and what MPI said of each: one line per failed call,
 *
 *	failed <rank> <call> <class name> <MPI_Error_string of the class>
 *
 * the class name from this program's own mpi.h, so that a test can hold a
 * log's failure table against what the MPI library really returned.
 * usage: mpi-io-errors DIR   (DIR: an empty folder of the test's)
 *
 * The failures: an open of a missing file without MPI_MODE_CREATE, an open
 * of a folder for writing, an open with MPI_MODE_RDONLY | MPI_MODE_CREATE
 * (an amode MPI forbids), and a write to a file opened read-only.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The I/O error classes and a few general ones, as this mpi.h numbers them. */
#define CLASSES(X)                       \
	X(MPI_SUCCESS)                   \
	X(MPI_ERR_ARG)                   \
	X(MPI_ERR_OTHER)                 \
	X(MPI_ERR_INTERN)                \
	X(MPI_ERR_UNKNOWN)               \
	X(MPI_ERR_TYPE)                  \
	X(MPI_ERR_COUNT)                 \
	X(MPI_ERR_FILE)                  \
	X(MPI_ERR_NOT_SAME)              \
	X(MPI_ERR_AMODE)                 \
	X(MPI_ERR_UNSUPPORTED_DATAREP)   \
	X(MPI_ERR_UNSUPPORTED_OPERATION) \
	X(MPI_ERR_NO_SUCH_FILE)          \
	X(MPI_ERR_FILE_EXISTS)           \
	X(MPI_ERR_BAD_FILE)              \
	X(MPI_ERR_ACCESS)                \
	X(MPI_ERR_NO_SPACE)              \
	X(MPI_ERR_QUOTA)                 \
	X(MPI_ERR_READ_ONLY)             \
	X(MPI_ERR_FILE_IN_USE)           \
	X(MPI_ERR_DUP_DATAREP)           \
	X(MPI_ERR_CONVERSION)            \
	X(MPI_ERR_IO)                    \
	X(MPI_ERR_INFO)                  \
	X(MPI_ERR_NO_MEM)

static const char *class_name(int cls)
{
#define NAME(c)         \
	if (cls == (c)) \
		return #c;
	CLASSES(NAME)
#undef NAME
	return "unlisted";
}

static int rank;

/* Prints what MPI returned when it is a failure; returns whether it is. */
static int report(const char *call, int rc)
{
	char text[MPI_MAX_ERROR_STRING];
	int cls = -1, len = 0;

	if (rc == MPI_SUCCESS)
		return 0;
	MPI_Error_class(rc, &cls);
	MPI_Error_string(cls, text, &len);
	printf("failed %d %s %s %s\n", rank, call, class_name(cls), text);
	return 1;
}

int main(int argc, char **argv)
{
	char path[4096];
	const char *dir = argc > 1 ? argv[1] : ".";
	MPI_File fh;
	int failures = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);

	snprintf(path, sizeof(path), "%s/missing.%d", dir, rank);
	failures += report("File_open",
			   MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));

	snprintf(path, sizeof(path), "%s/folder.%d", dir, rank);
	if (mkdir(path, 0755))
		return 2;
	failures += report("File_open",
			   MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_WRONLY | MPI_MODE_CREATE,
					 MPI_INFO_NULL, &fh));

	snprintf(path, sizeof(path), "%s/amode.%d", dir, rank);
	failures += report("File_open",
			   MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY | MPI_MODE_CREATE,
					 MPI_INFO_NULL, &fh));

	snprintf(path, sizeof(path), "%s/readonly.%d", dir, rank);
	if (report("File_open",
		   MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_WRONLY | MPI_MODE_CREATE,
				 MPI_INFO_NULL, &fh)) ||
	    report("File_close", MPI_File_close(&fh)))
		return 3;
	if (!report("File_open",
		    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh))) {
		char byte = 'x';

		failures += report("File_write",
				   MPI_File_write(fh, &byte, 1, MPI_BYTE, MPI_STATUS_IGNORE));
		MPI_File_close(&fh);
	}
	fflush(stdout);
	MPI_Finalize();
	return failures == 4 ? 0 : 1;
}
