/*
 * mpi-io-romio — MPI-IO shapes whose cost lies in what ROMIO does below
 * the calls:
 *
 *	mpi-io-romio sieve FILE      each rank writes every size-th int of the
 *	                             file (65536 of them, 256 KiB) with one
 *	                             independent MPI_File_write through a strided
 *	                             view, hint romio_ds_write=enable: data
 *	                             sieving reads and rewrites the holes
 *	mpi-io-romio cb_nodes FILE N 4 collective MPI_File_write_at_all of 1 MiB per
 *	                             rank, hints cb_nodes=N, romio_cb_write=enable
 *
 * Exits non-zero if an MPI-IO call fails.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sieve(const char *path, int rank, int size)
{
	enum { N = 65536 };
	static int buf[N];
	MPI_Datatype vec;
	MPI_File fh;
	MPI_Info info;
	int i, rc;

	for (i = 0; i < N; i++)
		buf[i] = rank;
	MPI_Type_vector(N, 1, size, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	MPI_Info_create(&info);
	MPI_Info_set(info, "romio_ds_write", "enable");
	rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh);
	MPI_Info_free(&info);
	if (rc)
		return 1;
	rc = MPI_File_set_view(fh, (MPI_Offset)rank * (MPI_Offset)sizeof(int), MPI_INT, vec,
			       "native", MPI_INFO_NULL);
	rc = rc || MPI_File_write(fh, buf, N, MPI_INT, MPI_STATUS_IGNORE);
	rc = MPI_File_close(&fh) || rc;
	MPI_Type_free(&vec);
	return rc != 0;
}

static int cb_nodes(const char *path, const char *n, int rank)
{
	static char buf[1 << 20];
	MPI_File fh;
	MPI_Info info;
	int i, rc;

	MPI_Info_create(&info);
	MPI_Info_set(info, "cb_nodes", n);
	MPI_Info_set(info, "romio_cb_write", "enable");
	rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh);
	MPI_Info_free(&info);
	if (rc)
		return 1;
	for (i = 0; i < 4 && !rc; i++)
		rc = MPI_File_write_at_all(fh, ((MPI_Offset)i * 4 + rank) * (MPI_Offset)sizeof(buf),
					   buf, (int)sizeof(buf), MPI_BYTE, MPI_STATUS_IGNORE);
	return (MPI_File_close(&fh) || rc) != 0;
}

int main(int argc, char **argv)
{
	int rank, size, rc = 2;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc == 3 && !strcmp(argv[1], "sieve"))
		rc = sieve(argv[2], rank, size);
	else if (argc == 4 && !strcmp(argv[1], "cb_nodes"))
		rc = cb_nodes(argv[2], argv[3], rank);
	else if (!rank)
		fprintf(stderr, "usage: mpi-io-romio sieve FILE | cb_nodes FILE N\n");
	MPI_Finalize();
	return rc;
}
