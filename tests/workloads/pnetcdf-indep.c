/*
 * pnetcdf-indep — a PnetCDF job in independent data mode, for the
 * runtime's tests: the ranks create PATH together, define a 2-D int
 * variable "temp" (ROWS x ranks*COLS) and a 1-D double "pressure"
 * (ROWS*ranks), leave define mode, switch to independent mode and each
 * rank writes its own columns of temp row by row and its own stretch of
 * pressure, with blocking independent calls (ncmpi_put_vara_int,
 * ncmpi_put_vara_double).  Then calls that fail: a put to a variable id
 * the file does not have, a get of NC_GLOBAL, a wait for a request that
 * does not exist.  Then, in a second file PATH-vard (the first stays
 * without a collective call), a collective vard write of a COLS-int
 * variable "row" by rank 0, the other ranks taking part with
 * MPI_DATATYPE_NULL (a request for nothing, which PnetCDF accepts).  Each
 * rank prints what it asked for and what the failing calls returned, with
 * errno as it stood before and after:
 *
 *	rank R: temp puts N bytes B pressure puts N bytes B
 *	rank R: bad varid returns E errno before X after Y
 *	rank R: global get returns E bad wait returns E
 *	rank R: vard bytes B
 *
 *	mpiexec.openmpi -n 2 pnetcdf-indep PATH
 */
#include <errno.h>
#include <mpi.h>
#include <pnetcdf.h>
#include <stdio.h>

#define ROWS 20
#define COLS 8

#define CHECK(call)                                                                      \
	do {                                                                             \
		int err_ = (call);                                                       \
		if (err_ != NC_NOERR) {                                                  \
			fprintf(stderr, "pnetcdf-indep: %s: %s\n", #call,                 \
				ncmpi_strerror(err_));                                   \
			MPI_Abort(MPI_COMM_WORLD, 1);                                    \
		}                                                                        \
	} while (0)

int main(int argc, char **argv)
{
	int rank, size, ncid, dims[2], temp, pressure, row[COLS], bad, before, after, r, g, w;
	int request = 12345, status;
	MPI_Datatype first_row;
	char vard_path[4096];
	double p[ROWS];
	MPI_Offset start[2], count[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc != 2) {
		if (!rank)
			fprintf(stderr, "usage: pnetcdf-indep PATH\n");
		MPI_Finalize();
		return 2;
	}
	CHECK(ncmpi_create(MPI_COMM_WORLD, argv[1], NC_CLOBBER, MPI_INFO_NULL, &ncid));
	CHECK(ncmpi_def_dim(ncid, "y", ROWS, &dims[0]));
	CHECK(ncmpi_def_dim(ncid, "x", (MPI_Offset)size * COLS, &dims[1]));
	CHECK(ncmpi_def_var(ncid, "temp", NC_INT, 2, dims, &temp));
	CHECK(ncmpi_def_dim(ncid, "n", (MPI_Offset)size * ROWS, &dims[0]));
	CHECK(ncmpi_def_var(ncid, "pressure", NC_DOUBLE, 1, dims, &pressure));
	CHECK(ncmpi_enddef(ncid));
	CHECK(ncmpi_begin_indep_data(ncid));
	for (r = 0; r < ROWS; r++) {
		for (int c = 0; c < COLS; c++)
			row[c] = rank * 1000 + r * COLS + c;
		start[0] = r;
		start[1] = (MPI_Offset)rank * COLS;
		count[0] = 1;
		count[1] = COLS;
		CHECK(ncmpi_put_vara_int(ncid, temp, start, count, row));
		p[r] = rank + r / 100.0;
	}
	start[0] = (MPI_Offset)rank * ROWS;
	count[0] = ROWS;
	CHECK(ncmpi_put_vara_double(ncid, pressure, start, count, p));
	printf("rank %d: temp puts %d bytes %d pressure puts 1 bytes %d\n", rank, ROWS,
	       ROWS * COLS * 4, ROWS * 8);
	bad = temp + pressure + 7;
	errno = before = 0;
	start[0] = 0;
	count[0] = 1;
	r = ncmpi_put_vara_int(ncid, bad, start, count, row);
	after = errno;
	printf("rank %d: bad varid returns %d errno before %d after %d\n", rank, r, before, after);
	g = ncmpi_get_var_int(ncid, NC_GLOBAL, row);
	w = ncmpi_wait(ncid, 1, &request, &status);
	printf("rank %d: global get returns %d bad wait returns %d\n", rank, g, w);
	CHECK(ncmpi_end_indep_data(ncid));
	CHECK(ncmpi_close(ncid));

	snprintf(vard_path, sizeof(vard_path), "%s-vard", argv[1]);
	CHECK(ncmpi_create(MPI_COMM_WORLD, vard_path, NC_CLOBBER, MPI_INFO_NULL, &ncid));
	CHECK(ncmpi_def_dim(ncid, "x", COLS, &dims[0]));
	CHECK(ncmpi_def_var(ncid, "row", NC_INT, 1, dims, &temp));
	CHECK(ncmpi_enddef(ncid));
	MPI_Type_contiguous(COLS, MPI_INT, &first_row);
	MPI_Type_commit(&first_row);
	CHECK(ncmpi_put_vard_all(ncid, temp, rank ? MPI_DATATYPE_NULL : first_row, row,
				 rank ? 0 : COLS, MPI_INT));
	MPI_Type_free(&first_row);
	printf("rank %d: vard bytes %d\n", rank, rank ? 0 : COLS * 4);
	CHECK(ncmpi_close(ncid));
	MPI_Finalize();
	return 0;
}
