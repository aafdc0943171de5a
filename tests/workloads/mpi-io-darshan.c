/*
 * mpi-io-darshan — the I/O whose counters Darshan defines in ways easy to
 * get wrong, each on files of its own so that a test can work out every
 * counter from the pattern (usage: mpi-io-darshan DIR; prints
 * "ranks=N blocks=K block=B amode=M" from rank 0):
 *
 * - coll.dat: shaped like Darshan's collective test, every rank opens it
 *   collectively with an info of two hints, makes K collective writes of B
 *   bytes strided by the rank count (block i x N + rank), a sync, 4
 *   independent reads and 2 collective reads of its own blocks;
 * - hints-null.R, hints-empty.R, hints-view.R (MPI_COMM_SELF): an open
 *   with MPI_INFO_NULL; with an empty info; with MPI_INFO_NULL then two
 *   MPI_File_set_info, a set_view with an info and one with MPI_INFO_NULL;
 * - strided.dat (POSIX): rank R writes K blocks of B bytes at blocks
 *   i x N + R, then reads its first block back;
 * - merge.dat (POSIX): rank R, in a region of its own, writes 10 bytes,
 *   then 3 times 10 bytes 100 bytes past the previous end, then R + 1 times
 *   10 bytes 200 + R bytes past it: strides 100 (3) and 200 + R (R + 1);
 * - seq.R (POSIX): 20 sequential writes of 10 bytes and 20 reads back;
 * - gaps.R (POSIX): 10-byte writes at 0, 10, 30, 60, 5, 100, 130: strides
 *   10, 20, 85, 20 (the write at 5 goes back: no stride).
 */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define K 8
#define B 4096

static char buf[B];

static int pwrite_all(int fd, size_t n, off_t at)
{
	return pwrite(fd, buf, n, at) == (ssize_t)n ? 0 : 1;
}

static int collective(const char *dir, int rank, int n)
{
	char path[4096];
	MPI_File fh;
	MPI_Info info;
	int i, rc = 0;

	snprintf(path, sizeof(path), "%s/coll.dat", dir);
	MPI_Info_create(&info);
	MPI_Info_set(info, "cb_nodes", "1");
	MPI_Info_set(info, "romio_cb_write", "enable");
	rc |= MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
	MPI_Info_free(&info);
	for (i = 0; i < K; i++)
		rc |= MPI_File_write_at_all(fh, ((MPI_Offset)i * n + rank) * B, buf, B, MPI_BYTE,
					    MPI_STATUS_IGNORE);
	rc |= MPI_File_sync(fh);
	for (i = 0; i < 4; i++)
		rc |= MPI_File_read_at(fh, ((MPI_Offset)i * n + rank) * B, buf, B, MPI_BYTE,
				       MPI_STATUS_IGNORE);
	for (i = 0; i < 2; i++)
		rc |= MPI_File_read_at_all(fh, ((MPI_Offset)i * n + rank) * B, buf, B, MPI_BYTE,
					   MPI_STATUS_IGNORE);
	return rc | MPI_File_close(&fh);
}

static int hints(const char *dir, int rank)
{
	char path[4096];
	MPI_File fh;
	MPI_Info info, empty;
	int rc = 0;

	MPI_Info_create(&info);
	MPI_Info_create(&empty);
	MPI_Info_set(info, "cb_buffer_size", "1048576");
	snprintf(path, sizeof(path), "%s/hints-null.%d", dir, rank);
	rc |= MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
			    &fh);
	rc |= MPI_File_close(&fh);
	snprintf(path, sizeof(path), "%s/hints-empty.%d", dir, rank);
	rc |= MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, empty, &fh);
	rc |= MPI_File_close(&fh);
	snprintf(path, sizeof(path), "%s/hints-view.%d", dir, rank);
	rc |= MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
			    &fh);
	rc |= MPI_File_set_info(fh, info);
	rc |= MPI_File_set_info(fh, empty);
	rc |= MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", info);
	rc |= MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
	rc |= MPI_File_close(&fh);
	MPI_Info_free(&info);
	MPI_Info_free(&empty);
	return rc;
}

static int posix(const char *dir, int rank, int n)
{
	static const off_t gaps[] = {0, 10, 30, 60, 5, 100, 130};
	char path[4096];
	off_t at;
	int fd, i, rc = 0;

	snprintf(path, sizeof(path), "%s/strided.dat", dir);
	if ((fd = open(path, O_CREAT | O_RDWR, 0644)) < 0)
		return 1;
	for (i = 0; i < K; i++)
		rc |= pwrite_all(fd, B, ((off_t)i * n + rank) * B);
	rc |= pread(fd, buf, B, (off_t)rank * B) != B;
	close(fd);

	snprintf(path, sizeof(path), "%s/merge.dat", dir);
	if ((fd = open(path, O_CREAT | O_RDWR, 0644)) < 0)
		return 1;
	at = (off_t)rank * 100000 + 1;
	rc |= pwrite_all(fd, 10, at);
	for (i = 0; i < 3; i++)
		rc |= pwrite_all(fd, 10, at += 10 + 100);
	for (i = 0; i <= rank; i++)
		rc |= pwrite_all(fd, 10, at += 10 + 200 + rank);
	close(fd);

	snprintf(path, sizeof(path), "%s/seq.%d", dir, rank);
	if ((fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644)) < 0)
		return 1;
	for (i = 0; i < 20; i++)
		rc |= write(fd, buf, 10) != 10;
	lseek(fd, 0, SEEK_SET);
	for (i = 0; i < 20; i++)
		rc |= read(fd, buf, 10) != 10;
	close(fd);

	snprintf(path, sizeof(path), "%s/gaps.%d", dir, rank);
	if ((fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644)) < 0)
		return 1;
	for (i = 0; i < (int)(sizeof(gaps) / sizeof(gaps[0])); i++)
		rc |= pwrite_all(fd, 10, gaps[i]);
	close(fd);
	return rc;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	int rank, n, rc;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	memset(buf, 'd', sizeof(buf));
	rc = collective(dir, rank, n) | hints(dir, rank) | posix(dir, rank, n);
	if (rank == 0)
		printf("ranks=%d blocks=%d block=%d amode=%d\n", n, K, B,
		       MPI_MODE_CREATE | MPI_MODE_RDWR);
	MPI_Finalize();
	return rc ? 1 : 0;
}
