/*
 * mpi-noise — an MPI program whose own I/O is known, for the tests of what
 * belongs to the MPI library (t1048, t1049): built by the tests with each
 * family's mpicc (mpicc.mpich, mpicc.openmpi).
 *
 *	mpi-noise none              MPI_Init, MPI_Barrier, MPI_Finalize: no I/O of its own
 *	mpi-noise scratch SHM DIR   each rank writes SHM.<rank> and DIR/scratch.<rank>
 *	                            (4096 bytes each, with open/write/close) and keeps them
 *	mpi-noise create FILE       MPI_File_open(CREATE | WRONLY) of a new FILE, a
 *	                            collective write of 4096 bytes per rank, close
 *	mpi-noise missing FILE      each rank fopen()s FILE, which does not exist
 *
 * Each rank prints what it did: "rank R: <what> <result>", the errno of a
 * failed call by name (ENOENT), so that tests compare the log with it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int write_file(const char *path, int rank)
{
	char block[4096];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n;

	if (fd < 0)
		return -1;
	memset(block, 'a' + rank % 26, sizeof(block));
	n = write(fd, block, sizeof(block));
	close(fd);
	return n == (ssize_t)sizeof(block) ? 0 : -1;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "none";
	char path[4096];
	int rank = 0, rc = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (!strcmp(mode, "scratch") && argc == 4) {
		snprintf(path, sizeof(path), "%s.%d", argv[2], rank);
		rc |= write_file(path, rank);
		printf("rank %d: wrote %s %d\n", rank, path, rc);
		snprintf(path, sizeof(path), "%s/scratch.%d", argv[3], rank);
		rc |= write_file(path, rank);
		printf("rank %d: wrote %s %d\n", rank, path, rc);
	} else if (!strcmp(mode, "create") && argc == 3) {
		char block[4096];
		MPI_File fh;
		MPI_Status st;

		memset(block, 'A' + rank % 26, sizeof(block));
		rc = MPI_File_open(MPI_COMM_WORLD, argv[2], MPI_MODE_CREATE | MPI_MODE_WRONLY,
				   MPI_INFO_NULL, &fh);
		if (rc == MPI_SUCCESS) {
			rc = MPI_File_write_at_all(fh, (MPI_Offset)rank * sizeof(block), block,
						   (int)sizeof(block), MPI_BYTE, &st);
			rc |= MPI_File_close(&fh);
		}
		printf("rank %d: created %s %d\n", rank, argv[2], rc);
	} else if (!strcmp(mode, "missing") && argc == 3) {
		FILE *f = fopen(argv[2], "r");
		int err = errno;

		if (f)
			fclose(f);
		printf("rank %d: fopen %s %s\n", rank, argv[2], f ? "0" : strerrorname_np(err));
	} else if (strcmp(mode, "none")) {
		fprintf(stderr,
			"usage: mpi-noise none | scratch SHM DIR | create FILE | missing FILE\n");
		rc = 1;
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return rc ? 1 : 0;
}
