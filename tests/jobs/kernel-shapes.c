/*
 * kernel-shapes — MPI jobs of the shapes the I/O kernels must reproduce
 * (tests/jobs/t6001-kernels.sh):
 *
 *	kernel-shapes interleaved DIR  3 checkpoints into DIR/ck.dat: rank r writes
 *	                               block i at (i * ranks + r) * 32 KiB (interleaved),
 *	                               a barrier, then reads its blocks back
 *	kernel-shapes barriers DIR     8 writes of 16 KiB each into DIR/b.R, 10 ms of
 *	                               compute before and a barrier after every write
 *	kernel-shapes compute DIR      writes 8 x 16 KiB to DIR/c.R, then reads them back
 *	                               with 20 ms of compute between the reads
 *	kernel-shapes token DIR        token passing: rank r waits for rank r - 1's
 *	                               message, computes 10 ms and appends 4 KiB to
 *	                               DIR/log.dat at its turn, and passes the token
 *	                               on, 3 rounds
 *	kernel-shapes block3d DIR      a 3-D array of 16 x 16 x 16 doubles in blocks,
 *	                               2 x (ranks / 2) x 1 ranks: after 50 ms of compute,
 *	                               each rank writes its block's rows with
 *	                               MPI_File_write_at into DIR/a.dat
 *	kernel-shapes fpp DIR          file per process: 4 checkpoints of 4 x 64 KiB
 *	                               into DIR/fpp.R.C, 50 ms of compute before each
 *	kernel-shapes mpiio DIR        MPI-IO on the individual file pointer and non-
 *	                               blocking: 3 x (20 ms of compute, write_all of
 *	                               16 KiB, iwrite_at of 16 KiB + wait), read_all
 *	                               16 KiB, into DIR/m.dat
 *	kernel-shapes view3d DIR       the same 3-D array through a file view: a
 *	                               subarray of MPI_DOUBLE per rank, 2 checkpoints
 *	                               each its own displacement, write_all of the
 *	                               block into DIR/v.dat
 *	kernel-shapes halo DIR         a communicator per half of the ranks (Comm_split);
 *	                               4 steps of 10 ms of compute, a ring exchange of
 *	                               8 KiB (Irecv, Isend, Waitall), an Allreduce in
 *	                               the half, a 16 KiB write to DIR/h.R, and an
 *	                               exchange the other way (Irecv, Isend, two Waits);
 *	                               rank 0 prints each step on stdout
 *	kernel-shapes self DIR         files on communicators of their own: after 10 ms
 *	                               of compute every rank opens DIR/s.dat alone
 *	                               (MPI_COMM_SELF) and writes its 16 KiB block;
 *	                               each half of the ranks (Comm_split) opens
 *	                               DIR/half.H on the half and writes its blocks
 *	                               collectively; rank 0 opens DIR/s.dat alone
 *	                               again and reads every block
 *
 *	kernel-shapes gather DIR       ADIOS 1's shape: 3 steps of 10 ms of compute,
 *	                               then each rank's block of (r + 1) KiB placed by
 *	                               an Exscan of the sizes, the sizes gathered
 *	                               (Gather) and each rank's index of 64 + 16 r bytes
 *	                               (Gatherv) at rank 0, which scatters 8 bytes back
 *	                               (Scatter) and 32 + 8 r to each (Scatterv); every
 *	                               rank opens DIR/g.dat (on all ranks), asks its size,
 *	                               seeks to its offset (MPI_File_seek) and writes its
 *	                               block at the file pointer, then a Scan and an
 *	                               Allgatherv of the index end the step
 *
 *	kernel-shapes stdio DIR        a Fortran-style scratch file per rank, as NWChem
 *	                               keeps its integrals: DIR/scr.R written in 8 records
 *	                               of 4 KiB with fwrite, each record's place asked
 *	                               with ftell first (opened "w+"), closed and opened
 *	                               "r+" to rewrite the third and fourth in place (ftell
 *	                               between); then 4 passes of 10 ms of
 *	                               compute and reads of every other record (fseek,
 *	                               fread), a rewind and a read of the first; a
 *	                               remove at the end.  First, rank 0 fopens
 *	                               DIR/missing.in, which is not there (the call
 *	                               fails), and appends a 1 KiB record to
 *	                               DIR/there.log, which must be there before the
 *	                               job (opened without O_CREAT); each rank asks its
 *	                               scratch stream's descriptor (fileno: an open in
 *	                               POSIX's counters) and stats the file on it
 *	                               (fstat).  Before all that, as Python starts:
 *	                               100 ms of compute, a stat of DIR/lib (a folder
 *	                               there before the job), 200 ms of compute, then
 *	                               MPI_Init, then 3 stats of DIR/lib
 *
 *	kernel-shapes handoff DIR      rank 0 writes DIR/h.dat (4 fwrites of 1 KiB) and
 *	                               flushes it, then a Bcast; the other ranks fopen
 *	                               it, read 64 bytes, rewind, fstat it on fileno's
 *	                               descriptor and read its 4 KiB; a barrier, fclose
 *
 *	kernel-shapes lists DIR        3 writes into DIR/l.R: rank 0's of 4, 4 and 8 KiB,
 *	                               the others' of 4 KiB each; then ftruncate to 4 KiB
 *	                               and a rewrite of those 4 KiB in place, through a
 *	                               duplicate of the descriptor (dup, lseek to 0,
 *	                               write), closed first; 1 KiB more through the
 *	                               first descriptor lands after them (the position
 *	                               is shared); then set to append (fcntl F_SETFL),
 *	                               a seek to 0 and 1 KiB more, at the end
 *
 *	kernel-shapes types DIR        file views of derived types other than a vector or
 *	                               a subarray, into DIR/t.dat, 2 writes through each
 *	                               (the second in the filetype's next tile): an
 *	                               indexed type of MPI_INT, blocks of 1, 3 and 2 at
 *	                               rank-dependent places, written independently
 *	                               with data sieving off (ROMIO writes each block);
 *	                               a 2-D column block (hvector of a vector of
 *	                               MPI_DOUBLE) resized to leave a gap after it,
 *	                               written collectively; a struct of an MPI_INT and
 *	                               2 MPI_DOUBLEs at byte places, independently
 *
 *	kernel-shapes darray DIR       a view of a distributed array (MPI_Type_create_darray,
 *	                               block-cyclic 2-D ints), one collective write into
 *	                               DIR/d.dat: a filetype the runtime does not flatten;
 *	                               then a view of a 4-D subarray of 2^36 bytes, all of
 *	                               it, 2^30 rows that flatten into one run: too long a
 *	                               walk to flatten either
 *
 *	kernel-shapes MODE DIR SCALE [sync]
 *	                               the same SCALE times over (checkpoints, rounds,
 *	                               writes); with "sync", each write phase ends with
 *	                               fsync (MPI_File_sync), so that the storage's
 *	                               speed shows (tests/perf/run-bench-replay)
 *
 * Prints nothing (but halo); exits non-zero if an I/O call fails.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define KIB 1024

static char buf[64 * KIB];
static int rank, nprocs;
static int scale = 1, sync_writes;

/* The end of a write phase: to the disk when asked. */
static int phase_end(int fd)
{
	return sync_writes ? fsync(fd) : 0;
}

/* Compute on the clock alone (before MPI_Init). */
static void spin(double seconds)
{
	struct timespec t0, t;
	volatile double x = 1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		x = x * 1.0000001 + 1e-9;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) * 1e-9 <
		 seconds);
}

static void compute(double seconds)
{
	double end = MPI_Wtime() + seconds;
	volatile double x = 1;

	while (MPI_Wtime() < end)
		x = x * 1.0000001 + 1e-9;
}

static int interleaved(const char *dir)
{
	char path[4096];
	int fd, c, i;

	snprintf(path, sizeof(path), "%s/ck.dat", dir);
	for (c = 0; c < 3 * scale; c++) {
		compute(0.05);
		fd = open(path, O_CREAT | O_RDWR, 0644);
		if (fd < 0)
			return 1;
		for (i = 0; i < 4; i++)
			if (pwrite(fd, buf, 32 * KIB,
				   ((off_t)(c * 4 + i) * nprocs + rank) * 32 * KIB) != 32 * KIB)
				return 1;
		if (phase_end(fd))
			return 1;
		MPI_Barrier(MPI_COMM_WORLD);
		for (i = 0; i < 4; i++)
			if (pread(fd, buf, 32 * KIB,
				  ((off_t)(c * 4 + i) * nprocs + rank) * 32 * KIB) != 32 * KIB)
				return 1;
		close(fd);
	}
	return 0;
}

static int barriers(const char *dir)
{
	char path[4096];
	int fd, i;

	snprintf(path, sizeof(path), "%s/b.%d", dir, rank);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0)
		return 1;
	for (i = 0; i < 8 * scale; i++) {
		compute(0.01);
		if (write(fd, buf, 16 * KIB) != 16 * KIB || phase_end(fd))
			return 1;
		MPI_Barrier(MPI_COMM_WORLD);
	}
	return close(fd) != 0;
}

static int compute_reads(const char *dir)
{
	char path[4096];
	int fd, i;

	snprintf(path, sizeof(path), "%s/c.%d", dir, rank);
	fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
	if (fd < 0)
		return 1;
	for (i = 0; i < 8 * scale; i++)
		if (write(fd, buf, 16 * KIB) != 16 * KIB)
			return 1;
	if (phase_end(fd))
		return 1;
	for (i = 0; i < 8 * scale; i++) {
		compute(0.02);
		if (pread(fd, buf, 16 * KIB, (off_t)i * 16 * KIB) != 16 * KIB)
			return 1;
	}
	return close(fd) != 0;
}

static int token(const char *dir)
{
	char path[4096];
	int round, fd, t = 0;

	snprintf(path, sizeof(path), "%s/log.dat", dir);
	for (round = 0; round < 3 * scale; round++) {
		if (rank > 0)
			MPI_Recv(&t, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		compute(0.01);
		fd = open(path, O_CREAT | O_WRONLY | O_APPEND, 0644);
		if (fd < 0 || write(fd, buf, 4 * KIB) != 4 * KIB || phase_end(fd))
			return 1;
		close(fd);
		if (rank + 1 < nprocs)
			MPI_Send(&t, 1, MPI_INT, rank + 1, 0, MPI_COMM_WORLD);
		MPI_Barrier(MPI_COMM_WORLD);
	}
	return 0;
}

static int block3d(const char *dir)
{
	enum { N = 16, PX = 2, PZ = 1 };
	const int py = nprocs / PX, bx = N / PX, by = N / py, bz = N / PZ;
	int x = rank % PX, y = rank / PX % py, z = rank / (PX * py), c, k, j;
	char path[4096];
	MPI_File fh;

	if (nprocs % PX || N % py)
		return 1;
	snprintf(path, sizeof(path), "%s/a.dat", dir);
	if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
			  &fh))
		return 1;
	for (c = 0; c < scale; c++) {
		compute(0.05);
		for (k = 0; k < bz; k++)
			for (j = 0; j < by; j++) {
				MPI_Offset row =
					(((MPI_Offset)c * N + z * bz + k) * N + (y * by + j)) * N +
					x * bx;

				if (MPI_File_write_at(fh, row * (MPI_Offset)sizeof(double), buf,
						      bx * 8, MPI_BYTE, MPI_STATUS_IGNORE))
					return 1;
			}
		if (sync_writes && MPI_File_sync(fh))
			return 1;
	}
	return MPI_File_close(&fh) != 0;
}

static int mpiio(const char *dir)
{
	char path[4096];
	MPI_File fh;
	MPI_Request req;
	int c, rc = 0;

	snprintf(path, sizeof(path), "%s/m.dat", dir);
	if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
			  &fh))
		return 1;
	for (c = 0; c < 3 * scale && !rc; c++) {
		compute(0.02);
		rc = MPI_File_write_all(fh, buf, 16 * KIB, MPI_BYTE, MPI_STATUS_IGNORE) ||
		     MPI_File_iwrite_at(fh, ((MPI_Offset)c * nprocs + rank) * 16 * KIB + 1024 * KIB,
					buf, 16 * KIB, MPI_BYTE, &req) ||
		     MPI_Wait(&req, MPI_STATUS_IGNORE);
	}
	rc = rc || MPI_File_read_all(fh, buf, 16 * KIB, MPI_BYTE, MPI_STATUS_IGNORE);
	return MPI_File_close(&fh) || rc;
}

static int view3d(const char *dir)
{
	enum { N = 16, PX = 2 };
	const int py = nprocs / PX;
	int sizes[3] = {N, N, N}, subs[3] = {N, N / py, N / PX};
	int starts[3] = {0, rank / PX % py * (N / py), rank % PX * (N / PX)}, c, rc = 0;
	char path[4096];
	MPI_Datatype block;
	MPI_File fh;

	if (nprocs % PX || N % py)
		return 1;
	snprintf(path, sizeof(path), "%s/v.dat", dir);
	if (MPI_Type_create_subarray(3, sizes, subs, starts, MPI_ORDER_C, MPI_DOUBLE, &block) ||
	    MPI_Type_commit(&block) ||
	    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
			  &fh))
		return 1;
	for (c = 0; c < 2 * scale && !rc; c++) {
		compute(0.02);
		rc = MPI_File_set_view(fh, (MPI_Offset)c * N * N * N * sizeof(double), MPI_DOUBLE,
				       block, "native", MPI_INFO_NULL) ||
		     MPI_File_write_all(fh, buf, N * (N / py) * (N / PX), MPI_DOUBLE,
					MPI_STATUS_IGNORE);
	}
	MPI_Type_free(&block);
	return MPI_File_close(&fh) || rc;
}

/* One view of filetype t from disp, then two writes of count elements of etype e. */
static int view_writes(MPI_File fh, MPI_Offset disp, MPI_Datatype e, MPI_Datatype t, int count,
		       int collective)
{
	int i, rc = MPI_Type_commit(&t) ||
		    MPI_File_set_view(fh, disp, e, t, "native", MPI_INFO_NULL);

	for (i = 0; i < 2 * scale && !rc; i++)
		rc = collective ? MPI_File_write_all(fh, buf, count, e, MPI_STATUS_IGNORE)
				: MPI_File_write(fh, buf, count, e, MPI_STATUS_IGNORE);
	return MPI_Type_free(&t) || rc;
}

static int types(const char *dir)
{
	int lens[3] = {1, 3, 2}, displs[3] = {rank, 8 + 2 * rank, 24 + 3 * rank};
	int slens[2] = {1, 2};
	MPI_Aint sdispls[2] = {16 * rank, 16 * rank + 64 * nprocs};
	MPI_Datatype indexed, column, columns, cols, parts, stypes[2] = {MPI_INT, MPI_DOUBLE};
	MPI_Info info;
	MPI_File fh;
	char path[4096];
	int rc;

	snprintf(path, sizeof(path), "%s/t.dat", dir);
	MPI_Info_create(&info);
	MPI_Info_set(info, "romio_ds_write", "disable");
	if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh))
		return 1;
	MPI_Info_free(&info);
	/* Blocks of 1, 3 and 2 ints; the type's extent is its last block's end (tiles follow). */
	rc = MPI_Type_indexed(3, lens, displs, MPI_INT, &indexed) ||
	     view_writes(fh, 0, MPI_INT, indexed, 6, 0);
	/* Rank r's 2 columns of an 8 x (2 * ranks) matrix of doubles: 8 rows of 2, a gap after. */
	rc = rc || MPI_Type_vector(2, 1, 1, MPI_DOUBLE, &column) ||
	     MPI_Type_create_hvector(8, 1, (MPI_Aint)(2 * nprocs * sizeof(double)), column,
				     &columns) ||
	     MPI_Type_create_resized(columns, 0, (MPI_Aint)(8 * 2 * nprocs + 4) * sizeof(double),
				     &cols) ||
	     MPI_Type_free(&column) || MPI_Type_free(&columns) ||
	     view_writes(fh, 4096 + 2 * rank * (MPI_Offset)sizeof(double), MPI_DOUBLE, cols, 16, 1);
	/* An int and 2 doubles at byte places of their own. */
	rc = rc || MPI_Type_create_struct(2, slens, sdispls, stypes, &parts) ||
	     view_writes(fh, 65536, MPI_BYTE, parts, 20, 0);
	return MPI_File_close(&fh) || rc;
}

static int darray(const char *dir)
{
	int gsizes[2] = {8, 8 * nprocs},
	    distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
	int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, psizes[2] = {1, nprocs};
	MPI_Datatype t;
	MPI_File fh;
	char path[4096];

	snprintf(path, sizeof(path), "%s/d.dat", dir);
	if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
			  &fh) ||
	    MPI_Type_create_darray(nprocs, rank, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
				   MPI_INT, &t))
		return 1;
	int sizes[4] = {1024, 1024, 1024, 64}, starts[4] = {0};
	MPI_Datatype whole;

	return view_writes(fh, 0, MPI_INT, t, 64, 1) ||
	       MPI_Type_create_subarray(4, sizes, sizes, starts, MPI_ORDER_C, MPI_BYTE, &whole) ||
	       MPI_Type_commit(&whole) ||
	       MPI_File_set_view(fh, 0, MPI_BYTE, whole, "native", MPI_INFO_NULL) ||
	       MPI_Type_free(&whole) || MPI_File_close(&fh);
}

static int halo(const char *dir)
{
	static char in[8 * KIB];
	char path[4096];
	MPI_Comm half;
	MPI_Request r[2];
	MPI_Status st[2];
	double x = rank, y;
	int fd, step, next = (rank + 1) % nprocs, prev = (rank + nprocs - 1) % nprocs, rc = 0;

	if (MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half))
		return 1;
	snprintf(path, sizeof(path), "%s/h.%d", dir, rank);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	for (step = 0; step < 4 * scale && fd >= 0 && !rc; step++) {
		if (!rank)
			rc = printf("halo: step %d\n", step) < 0 || fflush(stdout);
		compute(0.01);
		rc = MPI_Irecv(in, 8 * KIB, MPI_BYTE, prev, 0, MPI_COMM_WORLD, &r[0]) ||
		     MPI_Isend(buf, 8 * KIB, MPI_BYTE, next, 0, MPI_COMM_WORLD, &r[1]) ||
		     MPI_Waitall(2, r, st) || MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, half) ||
		     write(fd, buf, 16 * KIB) != 16 * KIB ||
		     MPI_Irecv(in, 8 * KIB, MPI_BYTE, next, 1, MPI_COMM_WORLD, &r[0]) ||
		     MPI_Isend(buf, 8 * KIB, MPI_BYTE, prev, 1, MPI_COMM_WORLD, &r[1]) ||
		     MPI_Wait(&r[1], MPI_STATUS_IGNORE) || MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	}
	MPI_Comm_free(&half);
	return fd < 0 || close(fd) || rc;
}

static int self_opens(const char *dir)
{
	const int wr = MPI_MODE_CREATE | MPI_MODE_WRONLY;
	const MPI_Offset at = (MPI_Offset)rank * 16 * KIB;
	char path[4096], half_path[4096];
	MPI_Comm half;
	MPI_File fh;
	int rc;

	snprintf(path, sizeof(path), "%s/s.dat", dir);
	snprintf(half_path, sizeof(half_path), "%s/half.%d", dir, rank % 2);
	compute(0.01);
	rc = MPI_File_open(MPI_COMM_SELF, path, wr, MPI_INFO_NULL, &fh) ||
	     MPI_File_write_at(fh, at, buf, 16 * KIB, MPI_BYTE, MPI_STATUS_IGNORE) ||
	     MPI_File_close(&fh);
	if (rc || MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half))
		return 1;
	rc = MPI_File_open(half, half_path, wr, MPI_INFO_NULL, &fh) ||
	     MPI_File_write_at_all(fh, at, buf, 16 * KIB, MPI_BYTE, MPI_STATUS_IGNORE) ||
	     MPI_File_close(&fh);
	MPI_Comm_free(&half);
	if (!rc && !rank && nprocs * 16 * KIB <= (int)sizeof(buf))
		rc = MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh) ||
		     MPI_File_read_at(fh, 0, buf, nprocs * 16 * KIB, MPI_BYTE, MPI_STATUS_IGNORE) ||
		     MPI_File_close(&fh);
	return rc;
}

static int gather_steps(const char *dir)
{
	int me = (rank + 1) * KIB, index = 64 + 16 * rank, step, i, rc = 0;
	int *sizes = calloc((size_t)nprocs, sizeof(int)),
	    *counts = calloc((size_t)nprocs, sizeof(int));
	int *displs = calloc((size_t)nprocs, sizeof(int));
	static char in[64 * KIB];
	long long mine = me, offset = 0, sum;
	MPI_Offset size;
	char path[4096];
	MPI_File fh;

	if (!sizes || !counts || !displs || nprocs * (64 + 16 * nprocs) > (int)sizeof(in))
		return 1;
	for (i = 0; i < nprocs; i++) {
		counts[i] = 64 + 16 * i;
		displs[i] = i ? displs[i - 1] + counts[i - 1] : 0;
	}
	snprintf(path, sizeof(path), "%s/g.dat", dir);
	for (step = 0; step < 3 * scale && !rc; step++) {
		compute(0.01);
		rc = MPI_Exscan(&mine, &offset, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD) ||
		     MPI_Gather(&me, 1, MPI_INT, sizes, 1, MPI_INT, 0, MPI_COMM_WORLD) ||
		     MPI_Gatherv(buf, index, MPI_BYTE, in, counts, displs, MPI_BYTE, 0,
				 MPI_COMM_WORLD);
		if (!rank)
			offset = 0; /* Exscan leaves rank 0's result undefined */
		for (i = 0; i < nprocs; i++)
			counts[i] = 32 + 8 * i;
		for (i = 1; i < nprocs; i++)
			displs[i] = displs[i - 1] + counts[i - 1];
		rc = rc || MPI_Scatter(buf, 8, MPI_BYTE, in, 8, MPI_BYTE, 0, MPI_COMM_WORLD) ||
		     MPI_Scatterv(buf, counts, displs, MPI_BYTE, in, counts[rank], MPI_BYTE, 0,
				  MPI_COMM_WORLD);
		rc = rc ||
		     MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
				   MPI_INFO_NULL, &fh) ||
		     MPI_File_get_size(fh, &size) ||
		     MPI_File_seek(fh,
				   (MPI_Offset)(step * nprocs * (nprocs + 1) / 2 * KIB + offset),
				   MPI_SEEK_SET) ||
		     MPI_File_write(fh, buf, me, MPI_BYTE, MPI_STATUS_IGNORE) ||
		     MPI_File_close(&fh);
		for (i = 0; i < nprocs; i++)
			counts[i] = 64 + 16 * i;
		for (i = 1; i < nprocs; i++)
			displs[i] = displs[i - 1] + counts[i - 1];
		rc = rc || MPI_Scan(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD) ||
		     MPI_Allgatherv(buf, index, MPI_BYTE, in, counts, displs, MPI_BYTE,
				    MPI_COMM_WORLD);
	}
	free(sizes);
	free(counts);
	free(displs);
	return rc;
}

static int stdio_scratch(const char *dir)
{
	long where[8];
	char path[4096];
	struct stat st;
	FILE *f;
	int i, pass, rc = 0, fd;

	snprintf(path, sizeof(path), "%s/lib", dir);
	for (i = 0; i < 3; i++)
		if (stat(path, &st))
			return 1;
	if (!rank) {
		snprintf(path, sizeof(path), "%s/missing.in", dir);
		if ((f = fopen(path, "r")))
			return 1;
		snprintf(path, sizeof(path), "%s/there.log", dir);
		if ((fd = open(path, O_WRONLY | O_APPEND)) < 0 || write(fd, buf, KIB) != KIB ||
		    close(fd))
			return 1;
	}
	snprintf(path, sizeof(path), "%s/scr.%d", dir, rank);
	if (!(f = fopen(path, "w+")) || fstat(fileno(f), &st))
		return 1;
	for (i = 0; i < 8 && !rc; i++)
		rc = (where[i] = ftell(f)) < 0 || fwrite(buf, 1, 4 * KIB, f) != 4 * KIB;
	/* Reopened to update records in place ("r+": no append, no emptying). */
	if (rc || fclose(f) || !(f = fopen(path, "r+")) || fseek(f, where[2], SEEK_SET) ||
	    fwrite(buf, 1, 4 * KIB, f) != 4 * KIB || ftell(f) != where[3] ||
	    fwrite(buf, 1, 4 * KIB, f) != 4 * KIB)
		return 1;
	for (pass = 0; pass < 4 * scale && !rc; pass++) {
		compute(0.01);
		for (i = pass % 2; i < 8 && !rc; i += 2)
			rc = fseek(f, where[i], SEEK_SET) || fread(buf, 1, 4 * KIB, f) != 4 * KIB;
		rewind(f);
		rc = rc || fread(buf, 1, 4 * KIB, f) != 4 * KIB;
	}
	return fclose(f) || remove(path) || rc;
}

/*
 * A file handed over by a Bcast: rank 0 writes it with fwrite and flushes
 * it; after the Bcast the other ranks read it, rewind, ask its size on the
 * stream's descriptor and read it whole again.
 */
static int handoff(const char *dir)
{
	char path[4096];
	struct stat st;
	int i, go = 0, rc = 0;
	FILE *f = NULL;

	snprintf(path, sizeof(path), "%s/h.dat", dir);
	if (!rank) {
		rc = !(f = fopen(path, "w"));
		for (i = 0; i < 4 && !rc; i++)
			rc = fwrite(buf, 1, KIB, f) != KIB;
		rc = rc || fflush(f);
		go = !rc;
	}
	MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
	compute(0.01);
	if (rank && go && (f = fopen(path, "r"))) {
		rc = fread(buf, 1, 64, f) != 64;
		rewind(f);
		rc = rc || fstat(fileno(f), &st) || st.st_size != 4 * KIB ||
		     fread(buf, 1, 4 * KIB, f) != 4 * KIB;
	}
	MPI_Barrier(MPI_COMM_WORLD);
	return !f || fclose(f) || rc;
}

/* Rank 0's sizes follow no stride (a list); the other ranks' are one size (a constant). */
static int lists(const char *dir)
{
	static const int kib[3] = {4, 4, 8};
	char path[4096];
	int fd, copy, fl, i;

	snprintf(path, sizeof(path), "%s/l.%d", dir, rank);
	if ((fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644)) < 0)
		return 1;
	for (i = 0; i < 3; i++)
		if (write(fd, buf, (size_t)(rank ? 4 : kib[i]) * KIB) != (rank ? 4 : kib[i]) * KIB)
			return 1;
	/* Cut to its first 4 KiB, which are then rewritten in place (NWChem's runtime database). */
	if (ftruncate(fd, 4 * KIB) || (copy = dup(fd)) < 0 || lseek(copy, 0, SEEK_SET) != 0 ||
	    write(copy, buf, 4 * KIB) != 4 * KIB || close(copy))
		return 1;
	if (write(fd, buf, KIB) != KIB || lseek(fd, 0, SEEK_CUR) != 5 * KIB)
		return 1;
	/* Set to append after its open: the write lands at the end, not at the position. */
	return (fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl | O_APPEND) ||
	       lseek(fd, 0, SEEK_SET) != 0 || write(fd, buf, KIB) != KIB ||
	       lseek(fd, 0, SEEK_CUR) != 6 * KIB || close(fd);
}

static int fpp(const char *dir)
{
	char path[4096];
	int fd, c, i;

	for (c = 0; c < 4 * scale; c++) {
		compute(0.05);
		snprintf(path, sizeof(path), "%s/fpp.%d.%d", dir, rank, c);
		fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		if (fd < 0)
			return 1;
		for (i = 0; i < 4; i++)
			if (write(fd, buf, 64 * KIB) != 64 * KIB)
				return 1;
		if (phase_end(fd) || close(fd))
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(const char *dir);
	} modes[] = {
		{"interleaved", interleaved},
		{"barriers", barriers},
		{"compute", compute_reads},
		{"token", token},
		{"block3d", block3d},
		{"fpp", fpp},
		{"mpiio", mpiio},
		{"halo", halo},
		{"view3d", view3d},
		{"self", self_opens},
		{"gather", gather_steps},
		{"stdio", stdio_scratch},
		{"lists", lists},
		{"handoff", handoff},
		{"types", types},
		{"darray", darray},
	};
	size_t m;
	int rc = 2;

	/* stdio: a program that computes and looks around before MPI_Init (Python starting). */
	if (argc >= 3 && !strcmp(argv[1], "stdio")) {
		struct stat st;

		spin(0.1);
		snprintf(buf, sizeof(buf), "%s/lib", argv[2]);
		if (stat(buf, &st))
			return 1;
		spin(0.2);
	}
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
	memset(buf, 'k', sizeof(buf));
	if (argc >= 4)
		scale = atoi(argv[3]);
	sync_writes = argc == 5 && !strcmp(argv[4], "sync");
	for (m = 0; argc >= 3 && argc <= 5 && scale > 0 && m < sizeof(modes) / sizeof(modes[0]);
	     m++)
		if (!strcmp(argv[1], modes[m].name))
			rc = modes[m].fn(argv[2]);
	if (rc == 2 && !rank)
		fprintf(stderr, "usage: kernel-shapes MODE DIR [SCALE [sync]] (see the source)\n");
	MPI_Finalize();
	return rc;
}
