/*
 * mpi-io-abi — the MPI-IO job of mpi-io-abi.py, in C, for the runtime's
 * tests across MPI families (t1012 builds it with each family's mpicc):
 *
 *	mpi-io-abi PATH...  for each PATH in turn, the ranks open it
 *	                    collectively; each writes BLOCK bytes at rank*BLOCK
 *	                    with one MPI_File_write_at_all, reads it back with
 *	                    MPI_File_read_at, and closes
 *
 * Each rank prints what it did with each file, in the words of the counters:
 *	rank R: coll_opens 1 coll_writes 1 bytes_written 4096 indep_reads 1 bytes_read 4096 first C
 * (C: the first byte it read back, 'A' + its rank).
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define BLOCK 4096

int main(int argc, char **argv)
{
	static char data[BLOCK], back[BLOCK];
	int rank, i;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (argc < 2)
		MPI_Abort(MPI_COMM_WORLD, 2);
	memset(data, 'A' + rank, sizeof(data));
	for (i = 1; i < argc; i++) {
		int written = 0, read = 0;
		MPI_File fh;
		MPI_Status st;

		if (MPI_File_open(MPI_COMM_WORLD, argv[i], MPI_MODE_CREATE | MPI_MODE_RDWR,
				  MPI_INFO_NULL, &fh) != MPI_SUCCESS)
			MPI_Abort(MPI_COMM_WORLD, 2);
		MPI_File_write_at_all(fh, (MPI_Offset)rank * BLOCK, data, BLOCK, MPI_BYTE, &st);
		MPI_Get_count(&st, MPI_BYTE, &written);
		MPI_File_read_at(fh, (MPI_Offset)rank * BLOCK, back, BLOCK, MPI_BYTE, &st);
		MPI_Get_count(&st, MPI_BYTE, &read);
		MPI_File_close(&fh);
		printf("rank %d: coll_opens 1 coll_writes 1 bytes_written %d indep_reads 1 "
		       "bytes_read %d first %c\n",
		       rank, written, read, back[0]);
	}
	MPI_Finalize();
	return 0;
}
