/*
 * trace-random — an MPI program whose I/O the trace cannot fold: N pread
 * and pwrite calls of 4 KiB at offsets from a xorshift64 generator, on one
 * file per rank (DIR/d-random.RANK, 64 MiB).  The tests regenerate the same
 * sequence; the program writes what it did to DIR/count.RANK:
 *
 *	calls N reads R writes W
 *
 * Call k (from 0) takes x = the generator's k+1-th number (state seeded with
 * 88172645463325292 + rank; x ^= x << 13, x ^= x >> 7, x ^= x << 17): its
 * offset is (x mod 16384) x 4096, and it is a pwrite when bit 40 of x is
 * set, else a pread.
 *
 * Usage: trace-random N DIR
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define BLOCK  4096
#define BLOCKS 16384

#define CHECK(cond)                                                                           \
	do {                                                                                  \
		if (!(cond)) {                                                                \
			fprintf(stderr, "trace-random: %s:%d: check failed: %s (errno %d)\n", \
				__FILE__, __LINE__, #cond, errno);                            \
			MPI_Abort(MPI_COMM_WORLD, 1);                                         \
		}                                                                             \
	} while (0)

int main(int argc, char **argv)
{
	static char block[BLOCK];
	uint64_t x, reads = 0, writes = 0;
	char path[4096];
	long n, k;
	int rank, fd;
	FILE *f;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	n = argc == 3 ? atol(argv[1]) : 0;
	if (n <= 0) {
		fprintf(stderr, "usage: trace-random N DIR\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	snprintf(path, sizeof(path), "%s/d-random.%d", argv[2], rank);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	CHECK(ftruncate(fd, (off_t)BLOCK * BLOCKS) == 0);
	x = UINT64_C(88172645463325292) + (uint64_t)rank;
	for (k = 0; k < n; k++) {
		off_t off;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		off = (off_t)(x % BLOCKS) * BLOCK;
		if (x >> 40 & 1) {
			CHECK(pwrite(fd, block, BLOCK, off) == BLOCK);
			writes++;
		} else {
			CHECK(pread(fd, block, BLOCK, off) == BLOCK);
			reads++;
		}
	}
	CHECK(close(fd) == 0);
	snprintf(path, sizeof(path), "%s/count.%d", argv[2], rank);
	f = fopen(path, "w");
	CHECK(f != NULL);
	fprintf(f, "calls %ld reads %llu writes %llu\n", n, (unsigned long long)reads,
		(unsigned long long)writes);
	CHECK(fclose(f) == 0);
	MPI_Finalize();
	return 0;
}
