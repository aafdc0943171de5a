/*
 * mpi-ring — passes a token around all ranks ROUNDS times, then checks an
 * allreduce.  Each rank prints one line, rank 0 a summary, so a test can see
 * that every rank ran and that messages really crossed between them.
 *
 *	mpiexec -n 4 mpi-ring [ROUNDS]
 */
#include <mpi.h>
#include <stdio.h>

#include "ioa_log.h"
#include "ioa_parse.h"

int main(int argc, char **argv)
{
	int rank, size, rounds = 3, round, token = 0, sum = 0, rc;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	ioa_log_set_progname("mpi-ring");

	if (argc > 1 && (rc = ioa_parse_int(argv[1], 1, 1000000, &rounds))) {
		if (!rank)
			ioa_error_rc(rc, "invalid round count '%s' (expected 1 to 1000000)",
				     argv[1]);
		MPI_Finalize();
		return 2;
	}

	/* Each rank adds one to the token as it passes, so after the rounds it
	 * comes back to rank 0 as rounds * size. */
	for (round = 0; round < rounds; round++) {
		if (size == 1) {
			token++;
			continue;
		}
		if (rank == 0) {
			token++;
			MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
			MPI_Recv(&token, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(&token, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			token++;
			MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
		}
	}
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

	printf("rank %d of %d\n", rank, size);
	fflush(stdout);
	MPI_Barrier(MPI_COMM_WORLD);
	if (!rank)
		printf("ranks=%d rounds=%d token=%d ranksum=%d\n", size, rounds, token, sum);
	MPI_Finalize();
	return 0;
}
