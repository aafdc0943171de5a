/*
 * ground-truth — MPI jobs whose I/O the analyses' tests know exactly
 * (tests/jobs/t4001-analyses.sh asserts what `ioatlas analyze` finds):
 *
 *	ground-truth fixed DIR      rank 0 writes an input deck and reads it in 1 KiB
 *	                            pieces (the head rank); then 4 checkpoints, each
 *	                            rank writing 4 x 64 KiB at its place in
 *	                            DIR/fixed.N, 0.3 s of spinning between them
 *	ground-truth amr DIR        5 checkpoints into DIR/amr.N whose total grows
 *	                            1, 2, 3, 3, 3 and whose ranks carry 1, 4, 2, 8
 *	                            parts (uneven)
 *	ground-truth amr-moving DIR 5 checkpoints into DIR/amr-moving.N of the same total
 *	                            (15 parts of 16 KiB at 4 ranks), which moves between
 *	                            ranks: rank R carries 1, 4, 2, 8 parts shifted by
 *	                            the checkpoint's number (a mesh rebalanced)
 *	ground-truth collective DIR 3 checkpoints: MPI_File_write_at_all of 256 KiB per
 *	                            rank into DIR/coll.dat, hints cb_config_list=*:1,
 *	                            romio_cb_write=enable, romio_no_indep_rw=true
 *	ground-truth mixed DIR      3 checkpoints into DIR/mixed.dat, 256 KiB per rank
 *	                            each: the first by MPI_File_write_at (every rank
 *	                            writes its own), the others by
 *	                            MPI_File_write_at_all through one aggregator (the
 *	                            hints of `collective`)
 *	ground-truth fpp DIR        each rank writes 1 MiB in 64 KiB writes to its own
 *	                            DIR/fpp.R (file per process)
 *	ground-truth temp DIR       rank 0 creates DIR/tmp.a and DIR/tmp.b, writes, then
 *	                            removes each with rmdir (ENOTDIR) and unlink
 *	ground-truth header DIR     3 checkpoints: each rank writes 256 KiB to its own
 *	                            DIR/hdr.R, then rewrites 4 bytes at offset 0 (all
 *	                            ranks) and 4 bytes at 1024 * (rank + 1) (its own)
 *	ground-truth shared-header DIR
 *	                            3 checkpoints into one shared DIR/shdr.N: rank 0
 *	                            writes a 4 KiB header, each rank 64 KiB at
 *	                            4 KiB + 64 KiB x rank; after a barrier each rank
 *	                            rewrites 8 bytes of the header (at 64 x rank,
 *	                            bytes rank 0 wrote) and 4 bytes of its own block
 *	ground-truth small DIR      each rank writes 4000 x 100 bytes to DIR/small.R
 *	ground-truth random DIR     each rank writes 8 MiB to DIR/random.R in 1 MiB
 *	                            writes, then reads 2000 x 4 KiB at random places
 *	ground-truth streams DIR    read-only: 3 rounds, each rank reading the 64 KiB
 *	                            DIR/streams.in (made before the job) and printing
 *	                            2000 lines to stdout and 200 to stderr, spinning
 *	                            between rounds
 *
 * Run with one rank, `small` and `fpp` are the serial jobs of the tests.
 * GROUND_TRUTH_COMPUTE sets those seconds (0.3): longer gaps for a job whose
 * phases must show in the coarse time bins (no trace).
 * Prints nothing (but `streams`); exits non-zero if an I/O call fails
 * unexpectedly.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define KIB 1024
static double compute_s = 0.3; /* seconds of compute between checkpoints */
static char buf[1 << 20];
static int rank, nprocs;

/* Compute: spin, so the trace shows a gap the CPU was busy in. */
static void compute(double seconds)
{
	double end = MPI_Wtime() + seconds;
	volatile double x = 1;

	while (MPI_Wtime() < end)
		x = x * 1.0000001 + 1e-9;
}

static int write_all_at(int fd, size_t len, off_t off, size_t piece)
{
	size_t done = 0;

	while (done < len) {
		size_t n = len - done < piece ? len - done : piece;

		if (pwrite(fd, buf, n, off + (off_t)done) != (ssize_t)n)
			return 1;
		done += n;
	}
	return 0;
}

static int checkpoint_shared(const char *dir, const char *stem, int n, size_t bytes, off_t at)
{
	char path[4096];
	int fd, rc;

	snprintf(path, sizeof(path), "%s/%s.%d", dir, stem, n);
	MPI_Barrier(MPI_COMM_WORLD);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	if (fd < 0)
		return 1;
	rc = write_all_at(fd, bytes, at, 64 * KIB);
	return close(fd) || rc;
}

static int fixed(const char *dir)
{
	char path[4096];
	int c, i, fd, rc = 0;

	if (!rank) {
		snprintf(path, sizeof(path), "%s/input.deck", dir);
		fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
		if (fd < 0 || write_all_at(fd, 64 * KIB, 0, 64 * KIB))
			return 1;
		for (i = 0; i < 64; i++)
			if (pread(fd, buf, KIB, (off_t)i * KIB) != KIB)
				return 1;
		close(fd);
	}
	for (c = 0; c < 4 && !rc; c++) {
		compute(compute_s);
		rc = checkpoint_shared(dir, "fixed", c, 256 * KIB, (off_t)rank * 256 * KIB);
	}
	return rc;
}

static int amr(const char *dir)
{
	static const int growth[5] = {1, 2, 3, 3, 3};
	static const int parts[4] = {1, 4, 2, 8};
	int c, before = 0, r, rc = 0;

	for (r = 0; r < rank; r++)
		before += parts[r % 4];
	for (c = 0; c < 5 && !rc; c++) {
		size_t unit = (size_t)growth[c] * 16 * KIB;

		compute(compute_s);
		rc = checkpoint_shared(dir, "amr", c, unit * (size_t)parts[rank % 4],
				       (off_t)(unit * (size_t)before));
	}
	return rc;
}

static int amr_moving(const char *dir)
{
	static const int parts[4] = {1, 4, 2, 8};
	int c, before, r, rc = 0;

	for (c = 0; c < 5 && !rc; c++) {
		for (before = 0, r = 0; r < rank; r++)
			before += parts[(r + c) % 4];
		compute(compute_s);
		rc = checkpoint_shared(dir, "amr-moving", c,
				       16 * KIB * (size_t)parts[(rank + c) % 4],
				       (off_t)(16 * KIB * (size_t)before));
	}
	return rc;
}

/* 3 checkpoints of 256 KiB a rank into DIR/NAME, the first independent unless all are collective.
 */
static int shared_checkpoints(const char *dir, const char *name, int all_collective)
{
	char path[4096];
	MPI_Info info;
	MPI_File fh;
	int c, rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	MPI_Info_create(&info);
	MPI_Info_set(info, "cb_config_list", "*:1");
	MPI_Info_set(info, "romio_cb_write", "enable");
	if (all_collective)
		MPI_Info_set(info, "romio_no_indep_rw", "true");
	if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh))
		return 1;
	MPI_Info_free(&info);
	for (c = 0; c < 3 && !rc; c++) {
		MPI_Offset off = (MPI_Offset)(c * nprocs + rank) * 256 * KIB;

		compute(compute_s);
		if (c || all_collective)
			rc = MPI_File_write_at_all(fh, off, buf, 256 * KIB, MPI_BYTE,
						   MPI_STATUS_IGNORE) != MPI_SUCCESS;
		else
			rc = MPI_File_write_at(fh, off, buf, 256 * KIB, MPI_BYTE,
					       MPI_STATUS_IGNORE) != MPI_SUCCESS;
	}
	return MPI_File_close(&fh) || rc;
}

static int collective(const char *dir)
{
	return shared_checkpoints(dir, "coll.dat", 1);
}

static int mixed(const char *dir)
{
	return shared_checkpoints(dir, "mixed.dat", 0);
}

static int fpp(const char *dir)
{
	char path[4096];
	int fd, rc;

	snprintf(path, sizeof(path), "%s/fpp.%d", dir, rank);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0)
		return 1;
	rc = write_all_at(fd, 1 << 20, 0, 64 * KIB);
	return close(fd) || rc;
}

static int temp(const char *dir)
{
	static const char *const names[] = {"tmp.a", "tmp.b"};
	char path[4096];
	int i, fd;

	if (rank)
		return 0;
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);
		if (fd < 0 || write_all_at(fd, 16 * KIB, 0, 4 * KIB) || close(fd))
			return 1;
	}
	compute(0.05);
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		/* As the paper's application: rmdir first (a file: ENOTDIR), then unlink. */
		if (rmdir(path) == 0 || errno != ENOTDIR || unlink(path))
			return 1;
	}
	return 0;
}

static int header(const char *dir)
{
	char path[4096];
	int c, fd, rc = 0;

	snprintf(path, sizeof(path), "%s/hdr.%d", dir, rank);
	for (c = 0; c < 3 && !rc; c++) {
		compute(compute_s);
		MPI_Barrier(MPI_COMM_WORLD);
		fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		if (fd < 0)
			return 1;
		rc = write_all_at(fd, 256 * KIB, 0, 64 * KIB);
		rc = rc || pwrite(fd, buf, 4, 0) != 4;
		rc = rc || pwrite(fd, buf, 4, (off_t)KIB * (rank + 1)) != 4;
		rc = close(fd) || rc;
	}
	return rc;
}

static int shared_header(const char *dir)
{
	int c, fd, rc = 0;
	off_t mine = 4 * KIB + (off_t)rank * 64 * KIB;

	for (c = 0; c < 3 && !rc; c++) {
		char path[4096];

		compute(compute_s);
		snprintf(path, sizeof(path), "%s/shdr.%d", dir, c);
		MPI_Barrier(MPI_COMM_WORLD);
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd < 0)
			return 1;
		rc = !rank && write_all_at(fd, 4 * KIB, 0, 4 * KIB);
		rc = rc || write_all_at(fd, 64 * KIB, mine, 64 * KIB);
		MPI_Barrier(MPI_COMM_WORLD);
		rc = rc || pwrite(fd, buf, 8, (off_t)64 * rank) != 8;
		rc = rc || pwrite(fd, buf, 4, mine) != 4;
		rc = close(fd) || rc;
	}
	return rc;
}

static int small(const char *dir)
{
	char path[4096];
	int fd, i;

	snprintf(path, sizeof(path), "%s/small.%d", dir, rank);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0)
		return 1;
	for (i = 0; i < 4000; i++)
		if (write(fd, buf, 100) != 100)
			return 1;
	return close(fd) != 0;
}

static int random_reads(const char *dir)
{
	char path[4096];
	unsigned seed = 12345u + (unsigned)rank;
	int fd, i;

	snprintf(path, sizeof(path), "%s/random.%d", dir, rank);
	fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
	if (fd < 0 || write_all_at(fd, 8u << 20, 0, 1u << 20))
		return 1;
	for (i = 0; i < 2000; i++) {
		off_t at = (off_t)(rand_r(&seed) % 2048) * 4 * KIB;

		if (pread(fd, buf, 4 * KIB, at) != 4 * KIB)
			return 1;
	}
	return close(fd) != 0;
}

static int streams(const char *dir)
{
	char path[4096];
	int round, i, fd;

	snprintf(path, sizeof(path), "%s/streams.in", dir);
	for (round = 0; round < 3; round++) {
		compute(compute_s);
		fd = open(path, O_RDONLY);
		if (fd < 0 || pread(fd, buf, 64 * KIB, 0) != 64 * KIB || close(fd))
			return 1;
		for (i = 0; i < 2000; i++)
			printf("rank %d round %d line %d of the program's progress report\n", rank,
			       round, i);
		for (i = 0; i < 200; i++)
			fprintf(stderr, "rank %d round %d warning %d\n", rank, round, i);
		fflush(stdout);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(const char *dir);
	} modes[] = {{"fixed", fixed},
		     {"amr", amr},
		     {"amr-moving", amr_moving},
		     {"collective", collective},
		     {"mixed", mixed},
		     {"fpp", fpp},
		     {"temp", temp},
		     {"header", header},
		     {"shared-header", shared_header},
		     {"small", small},
		     {"random", random_reads},
		     {"streams", streams}};
	size_t m;
	int rc = 2;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
	memset(buf, 'x', sizeof(buf));
	if (getenv("GROUND_TRUTH_COMPUTE"))
		compute_s = strtod(getenv("GROUND_TRUTH_COMPUTE"), NULL);
	for (m = 0; argc == 3 && m < sizeof(modes) / sizeof(modes[0]); m++)
		if (!strcmp(argv[1], modes[m].name))
			rc = modes[m].fn(argv[2]);
	if (rc == 2 && !rank)
		fprintf(stderr, "usage: ground-truth MODE DIR (see the source)\n");
	MPI_Finalize();
	return rc;
}
