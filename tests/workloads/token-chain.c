/*
 * token-chain — the ranks take turns: rank r waits for rank r - 1's token,
 * reads the file rank r - 1 wrote, writes its own and passes the token
 * on.  Each rank prints when, on its wall clock (ns since the epoch), its
 * MPI_Init returned, its read began and its write ended, so that a test
 * can hold the log's times against them: every read comes after the write
 * it reads.
 *
 *	mpiexec -n 4 token-chain DIR [BYTES]
 */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long read_start = 0, write_end, init_end;
	int rank, size, token = 0, fd, rc = 0;
	size_t bytes = argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 65536;
	char path[4096], *buf;

	MPI_Init(&argc, &argv);
	init_end = wall_ns();
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	buf = malloc(bytes ? bytes : 1);
	if (argc < 2 || !buf || !bytes) {
		fprintf(stderr, "usage: token-chain DIR [BYTES]\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	if (rank > 0) {
		MPI_Recv(&token, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		snprintf(path, sizeof(path), "%s/chain.%d", argv[1], rank - 1);
		fd = open(path, O_RDONLY);
		read_start = wall_ns();
		if (fd < 0 || read(fd, buf, bytes) != (ssize_t)bytes)
			rc = 1;
		if (fd >= 0)
			close(fd);
	}
	memset(buf, 'a' + rank % 26, bytes);
	snprintf(path, sizeof(path), "%s/chain.%d", argv[1], rank);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, buf, bytes) != (ssize_t)bytes)
		rc = 1;
	write_end = wall_ns();
	if (fd >= 0)
		close(fd);
	if (rank + 1 < size)
		MPI_Send(&token, 1, MPI_INT, rank + 1, 0, MPI_COMM_WORLD);
	printf("rank %d read_start_ns %lld write_end_ns %lld init_end_ns %lld\n", rank, read_start,
	       write_end, init_end);
	free(buf);
	MPI_Finalize();
	return rc;
}
