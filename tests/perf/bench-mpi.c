/*
 * bench-mpi — the MPI side of the runtime's cost: the time of one
 * MPI_File_write_at (counted and traced) and of one MPI_Barrier on
 * MPI_COMM_SELF (a traced communication call that costs MPI next to
 * nothing), the time MPI_Finalize takes after each rank has written FILES
 * files of its own, and the process's peak memory.  Rank 0 prints "name
 * value" lines for tests/perf/run-bench and run-bench-mpi.  Plain MPI: it
 * builds with either family's mpicc.
 *
 *	mpiexec -n 4 bench-mpi DIR [FILES] [WRITES]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench-util.h"

static long peak_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmHWM:", 6))
			kib = strtol(line + 6, NULL, 10);
	if (f)
		fclose(f);
	return kib;
}

int main(int argc, char **argv)
{
	long files = argc > 2 ? strtol(argv[2], NULL, 10) : 1000;
	long writes = argc > 3 ? strtol(argv[3], NULL, 10) : 2000;
	double samples[21], barrier[21], t0, finalize_ms;
	char path[4096], byte = 'x';
	int rank, fd, b;
	long i;
	MPI_File fh;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (argc < 2) {
		MPI_Finalize();
		return 2;
	}
	snprintf(path, sizeof(path), "%s/bench-mpi-%d.dat", argv[1], rank);
	if (MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
			  &fh) != MPI_SUCCESS)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (b = 0; b < 21; b++) {
		t0 = now_ns();
		for (i = 0; i < writes; i++)
			MPI_File_write_at(fh, i & 4095, &byte, 1, MPI_BYTE, MPI_STATUS_IGNORE);
		samples[b] = (now_ns() - t0) / writes;
	}
	MPI_File_close(&fh);
	unlink(path);
	qsort(samples, 21, sizeof(double), cmp_double);
	for (b = 0; b < 21; b++) {
		t0 = now_ns();
		for (i = 0; i < writes; i++)
			MPI_Barrier(MPI_COMM_SELF);
		barrier[b] = (now_ns() - t0) / writes;
	}
	qsort(barrier, 21, sizeof(double), cmp_double);

	for (i = 0; i < files; i++) {
		snprintf(path, sizeof(path), "%s/bench-%d-%ld.dat", argv[1], rank, i);
		fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		if (fd < 0 || write(fd, &byte, 1) != 1 || close(fd))
			MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = now_ns();
	MPI_Finalize();
	finalize_ms = (now_ns() - t0) / 1e6;
	if (rank == 0)
		printf("mpi_file_write_at_ns %.1f\nmpi_barrier_self_ns %.1f\nfinalize_ms %.2f\n"
		       "peak_kib %ld\n",
		       samples[10], barrier[10], finalize_ms, peak_kib());
	for (i = 0; i < files; i++) {
		snprintf(path, sizeof(path), "%s/bench-%d-%ld.dat", argv[1], rank, i);
		unlink(path);
	}
	return 0;
}
