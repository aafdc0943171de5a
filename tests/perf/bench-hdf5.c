/*
 * bench-hdf5 — times single HDF5 calls in a tight loop, on one MPI rank
 * with HDF5's default (POSIX) driver on a tmpfs file: H5Dwrite and H5Dread
 * of 64 bytes (16 ints, a 16-element hyperslab of a contiguous 1-D
 * dataset, moved along it), each after its H5Sselect_hyperslab, and
 * H5Dopen2+H5Dclose of that dataset.  Prints one line per call: name and
 * median nanoseconds per call over many batches.  Built by
 * tests/perf/run-bench-hdf5 with h5pcc.mpich -shlib (the runtime sees HDF5
 * calls through a shared libhdf5), which runs it plainly and under
 * libioatlas to see the HDF5 layer's added cost per call.
 *
 *	bench-hdf5 DIR [CALLS_PER_BATCH] [BATCHES]
 */
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench-util.h"

#define ELEMS 16

enum op { OP_WRITE, OP_READ, OP_OPEN, OP_COUNT };
static const char *const op_names[] = {"h5dwrite", "h5dread", "h5dopen_close"};

int main(int argc, char **argv)
{
	long per_batch = argc > 2 ? strtol(argv[2], NULL, 10) : 2000;
	long batches = argc > 3 ? strtol(argv[3], NULL, 10) : 31;
	double *samples = calloc((size_t)batches, sizeof(double));
	int data[ELEMS] = {0};
	char path[4096];
	hsize_t dims, count = ELEMS, start;
	hid_t file, space, mem, dset;
	long b, i;
	int op;

	MPI_Init(&argc, &argv);
	if (argc < 2 || !samples || per_batch <= 0 || batches <= 0) {
		fprintf(stderr, "usage: bench-hdf5 DIR [CALLS_PER_BATCH] [BATCHES]\n");
		return 2;
	}
	dims = (hsize_t)per_batch * ELEMS;
	snprintf(path, sizeof(path), "%s/bench-hdf5.h5", argv[1]);
	file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
	space = H5Screate_simple(1, &dims, NULL);
	mem = H5Screate_simple(1, &count, NULL);
	dset = H5Dcreate2(file, "d", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	if (file < 0 || space < 0 || mem < 0 || dset < 0)
		return 1;
	for (op = 0; op < OP_COUNT; op++) {
		for (b = 0; b < batches; b++) {
			double t0 = now_ns();

			for (i = 0; i < per_batch; i++) {
				start = (hsize_t)i * ELEMS;
				if (op != OP_OPEN && H5Sselect_hyperslab(space, H5S_SELECT_SET, &start,
									 NULL, &count, NULL) < 0)
					return 1;
				if (op == OP_WRITE && H5Dwrite(dset, H5T_NATIVE_INT, mem, space,
							       H5P_DEFAULT, data) < 0)
					return 1;
				if (op == OP_READ &&
				    H5Dread(dset, H5T_NATIVE_INT, mem, space, H5P_DEFAULT, data) < 0)
					return 1;
				if (op == OP_OPEN) {
					hid_t again = H5Dopen2(file, "d", H5P_DEFAULT);

					if (again < 0 || H5Dclose(again) < 0)
						return 1;
				}
			}
			samples[b] = (now_ns() - t0) / per_batch;
		}
		qsort(samples, (size_t)batches, sizeof(double), cmp_double);
		printf("%s %.1f\n", op_names[op], samples[batches / 2]);
	}
	H5Dclose(dset);
	H5Sclose(mem);
	H5Sclose(space);
	H5Fclose(file);
	remove(path);
	free(samples);
	MPI_Finalize();
	return 0;
}
