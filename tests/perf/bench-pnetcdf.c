/*
 * bench-pnetcdf — times single PnetCDF calls in a tight loop, on one MPI
 * rank on a tmpfs file: ncmpi_put_vara_int_all and ncmpi_get_vara_int_all
 * of 64 bytes (16 ints of a 1-D variable, moved along it), the same write
 * in independent mode (ncmpi_put_vara_int), and ncmpi_inq_varid.  Prints
 * one line per call: name and median nanoseconds per call over many
 * batches.  Built by tests/perf/run-bench-pnetcdf with mpicc.openmpi
 * against Debian's libpnetcdf (built on Open MPI), which runs it plainly
 * and under libioatlas to see the PnetCDF layer's added cost per call.
 *
 *	bench-pnetcdf DIR [CALLS_PER_BATCH] [BATCHES]
 */
#include <mpi.h>
#include <pnetcdf.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench-util.h"

#define ELEMS 16

enum op { OP_PUT_ALL, OP_GET_ALL, OP_PUT_INDEP, OP_INQ_VARID, OP_COUNT };
static const char *const op_names[] = {"put_vara_int_all", "get_vara_int_all", "put_vara_int",
				       "inq_varid"};

/* One call of op at element offset at; 0 when it succeeded. */
static int call(int op, int ncid, int varid, MPI_Offset at, int *data)
{
	MPI_Offset start = at, count = ELEMS;
	int id;

	switch (op) {
	case OP_PUT_ALL:
		return ncmpi_put_vara_int_all(ncid, varid, &start, &count, data);
	case OP_GET_ALL:
		return ncmpi_get_vara_int_all(ncid, varid, &start, &count, data);
	case OP_PUT_INDEP:
		return ncmpi_put_vara_int(ncid, varid, &start, &count, data);
	default:
		return ncmpi_inq_varid(ncid, "v", &id);
	}
}

int main(int argc, char **argv)
{
	long per_batch = argc > 2 ? strtol(argv[2], NULL, 10) : 2000;
	long batches = argc > 3 ? strtol(argv[3], NULL, 10) : 31;
	double *samples = calloc((size_t)batches, sizeof(double));
	int data[ELEMS] = {0}, ncid, dim, varid, op;
	char path[4096];
	long b, i;

	MPI_Init(&argc, &argv);
	if (argc < 2 || !samples || per_batch <= 0 || batches <= 0) {
		fprintf(stderr, "usage: bench-pnetcdf DIR [CALLS_PER_BATCH] [BATCHES]\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/bench-pnetcdf.nc", argv[1]);
	if (ncmpi_create(MPI_COMM_SELF, path, NC_CLOBBER | NC_64BIT_DATA, MPI_INFO_NULL, &ncid) ||
	    ncmpi_def_dim(ncid, "x", (MPI_Offset)per_batch * ELEMS, &dim) ||
	    ncmpi_def_var(ncid, "v", NC_INT, 1, &dim, &varid) || ncmpi_enddef(ncid))
		return 1;
	for (op = 0; op < OP_COUNT; op++) {
		if (op == OP_PUT_INDEP && ncmpi_begin_indep_data(ncid))
			return 1;
		for (b = 0; b < batches; b++) {
			double t0 = now_ns();

			for (i = 0; i < per_batch; i++)
				if (call(op, ncid, varid, (MPI_Offset)i * ELEMS, data))
					return 1;
			samples[b] = (now_ns() - t0) / per_batch;
		}
		if (op == OP_PUT_INDEP && ncmpi_end_indep_data(ncid))
			return 1;
		qsort(samples, (size_t)batches, sizeof(double), cmp_double);
		printf("%s %.1f\n", op_names[op], samples[batches / 2]);
	}
	if (ncmpi_close(ncid))
		return 1;
	remove(path);
	free(samples);
	MPI_Finalize();
	return 0;
}
