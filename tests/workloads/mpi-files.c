/*
 * mpi-files — many files per rank, some shared by subsets of ranks and
 * touched in a different order on each rank, so that ranks with a small
 * memory budget fold different files (the runtime's MPI shutdown tests).
 *
 *	mpi-files DIR NSHARED NOWN BYTES
 *
 * DIR/s-I (I < NSHARED) is touched by rank R when (I + R) % 3 != 0, rank R
 * starting at I = R * NSHARED / size and wrapping around; then DIR/o-R-J
 * (J < NOWN) are rank R's own.  A touch is open(O_CREAT), BYTES bytes
 * written with one write() when BYTES > 0, and close().  Rank 0 prints
 * the job's totals, which the tests compare with the log's:
 *
 *	opens=N writes=N bytes=N
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char buf[4096];

static int touch(const char *path, long bytes, long long *counts)
{
	int fd = open(path, O_CREAT | O_WRONLY, 0644);

	if (fd < 0)
		return 1;
	counts[0]++;
	if (bytes > 0) {
		if (write(fd, buf, (size_t)bytes) != bytes)
			return 1;
		counts[1]++;
		counts[2] += bytes;
	}
	return close(fd) != 0;
}

int main(int argc, char **argv)
{
	long long mine[3] = {0, 0, 0}, all[3] = {0, 0, 0};
	long nshared, nown, bytes, i, k;
	int rank, size, failed = 0, any_failed = 0;
	char path[4096];

	if (argc != 5) {
		fprintf(stderr, "usage: mpi-files DIR NSHARED NOWN BYTES\n");
		return 2;
	}
	nshared = strtol(argv[2], NULL, 10);
	nown = strtol(argv[3], NULL, 10);
	bytes = strtol(argv[4], NULL, 10);
	if (bytes < 0 || bytes > (long)sizeof(buf))
		bytes = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (k = 0; k < nshared && !failed; k++) {
		i = (k + (long)rank * nshared / size) % nshared;
		if ((i + rank) % 3 == 0)
			continue;
		snprintf(path, sizeof(path), "%s/s-%ld", argv[1], i);
		failed = touch(path, bytes, mine);
	}
	for (k = 0; k < nown && !failed; k++) {
		snprintf(path, sizeof(path), "%s/o-%d-%ld", argv[1], rank, k);
		failed = touch(path, bytes, mine);
	}
	MPI_Reduce(mine, all, 3, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Reduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("opens=%lld writes=%lld bytes=%lld\n", all[0], all[1], all[2]);
	MPI_Finalize();
	return any_failed;
}
