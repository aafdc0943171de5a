/*
 * mpi-io-bw — IOR's shape on a shared file: every rank writes COUNT blocks
 * of BLOCK bytes with MPI_File_write_at_all, then reads them back with
 * MPI_File_read_at_all, each phase timed as IOR times it (a barrier, open
 * to close, a barrier).  Rank 0 prints each phase's bandwidth (MiB/s of
 * all ranks' bytes over the phase's time); every rank prints the seconds
 * it spent inside MPI-IO calls, so that a test can hold a log's times and
 * bandwidths against the program's own.
 *
 *	mpiexec -n 4 mpi-io-bw FILE [COUNT [BLOCK]]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double inside; /* seconds inside MPI-IO calls */

#define TIMED(call)                                   \
	do {                                          \
		double t0_ = MPI_Wtime();             \
		if ((call) != MPI_SUCCESS)            \
			MPI_Abort(MPI_COMM_WORLD, 1); \
		inside += MPI_Wtime() - t0_;          \
	} while (0)

static double phase(const char *path, int writing, int count, int block, char *buf)
{
	int rank, size, i;
	double t0, t1;
	MPI_File fh;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	TIMED(MPI_File_open(MPI_COMM_WORLD, path,
			    writing ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY,
			    MPI_INFO_NULL, &fh));
	for (i = 0; i < count; i++) {
		MPI_Offset at = ((MPI_Offset)i * size + rank) * block;

		if (writing)
			TIMED(MPI_File_write_at_all(fh, at, buf, block, MPI_BYTE,
						    MPI_STATUS_IGNORE));
		else
			TIMED(MPI_File_read_at_all(fh, at, buf, block, MPI_BYTE,
						   MPI_STATUS_IGNORE));
	}
	TIMED(MPI_File_close(&fh));
	MPI_Barrier(MPI_COMM_WORLD);
	t1 = MPI_Wtime();
	return (double)count * size * block / (1 << 20) / (t1 - t0);
}

int main(int argc, char **argv)
{
	int rank, count, block;
	double wr, rd;
	char *buf;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	count = argc > 2 ? atoi(argv[2]) : 32;
	block = argc > 3 ? atoi(argv[3]) : 1 << 20;
	buf = malloc(block > 0 ? (size_t)block : 1);
	if (argc < 2 || count <= 0 || block <= 0 || !buf) {
		fprintf(stderr, "usage: mpi-io-bw FILE [COUNT [BLOCK]]\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	memset(buf, 'a' + rank % 26, (size_t)block);
	wr = phase(argv[1], 1, count, block, buf);
	rd = phase(argv[1], 0, count, block, buf);
	printf("rank %d mpiio_seconds %.6f\n", rank, inside);
	if (!rank)
		printf("write_mib_s %.3f read_mib_s %.3f\n", wr, rd);
	free(buf);
	MPI_Finalize();
	return 0;
}
