/*
 * mpi-io — MPI-IO and POSIX access patterns with known counts, for the
 * runtime's tests.  Every rank prints nothing; the test knows what each
 * pattern does:
 *
 *	mpi-io shared DIR   each rank writes BLOCK bytes at rank*BLOCK of DIR/shared.dat
 *	                    with one MPI_File_write_at_all, then reads it back with
 *	                    MPI_File_read_at; and pwrite()s BLOCK bytes at rank*BLOCK
 *	                    of DIR/posix-shared.dat
 *	mpi-io fpp DIR      each rank writes 3 x BLOCK to DIR/rank-R.dat with write()
 *	mpi-io subset DIR   ranks 0,1 pwrite BLOCK at rank*BLOCK of DIR/pair-0.dat,
 *	                    ranks 2,3 the same into DIR/pair-1.dat
 *	mpi-io pmpi DIR     as the MPI-IO part of shared, into DIR/pmpi.dat, but
 *	                    calling PMPI_File_* directly, as tools and bindings do
 *	mpi-io fold DIR     each rank writes 10 bytes to each of 300 files of its own
 *	                    (DIR/fold-R-I.dat), then BLOCK bytes at rank*BLOCK of
 *	                    DIR/fold-shared.dat: a rank with a small memory budget
 *	                    folds the shared file
 *	mpi-io every DIR    every MPI-IO call of the runtime's table once per rank
 *	                    on DIR/every.dat (see every_call())
 *
 * BLOCK is 4096 bytes.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define BLOCK 4096

static char buf[3 * BLOCK];

static int posix_block(const char *path, int block_index, int count)
{
	int fd = open(path, O_CREAT | O_WRONLY, 0644), i;

	if (fd < 0)
		return 1;
	for (i = 0; i < count; i++)
		if (pwrite(fd, buf, BLOCK, (off_t)(block_index + i) * BLOCK) != BLOCK)
			return 1;
	return close(fd) != 0;
}

/*
 * Opens DIR/every.dat collectively with 2 hints (cb_nodes, romio_cb_write),
 * then per rank: set_size, get_size, set_view, set_info (1 hint), sync; and
 * before each direction a seek of each file pointer; 14 writes of
 * SMALL bytes (3 independent: write, write_at, write_shared; 3 collective:
 * write_all, write_at_all, write_ordered; 5 non-blocking: iwrite, iwrite_all,
 * iwrite_at, iwrite_at_all, iwrite_shared; 3 split: write_all_begin,
 * write_at_all_begin, write_ordered_begin, each with its _end), then the
 * same 14 reads; close.
 */
#define SMALL 16

static int every_call(const char *dir, int rank)
{
	char path[4096], data[SMALL];
	MPI_Offset mine = (MPI_Offset)rank * 4096;
	MPI_Offset size;
	MPI_Request req;
	MPI_Info info;
	MPI_File fh;
	int rw, failed = 0;

	snprintf(path, sizeof(path), "%s/every.dat", dir);
	memset(data, 'e', sizeof(data));
	MPI_Info_create(&info);
	MPI_Info_set(info, "cb_nodes", "1");
	MPI_Info_set(info, "romio_cb_write", "enable");
	failed |= MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
	MPI_Info_free(&info);
	if (failed)
		return 1;
	MPI_Info_create(&info);
	MPI_Info_set(info, "romio_ds_write", "disable");
	failed |= MPI_File_set_size(fh, 1 << 20);
	failed |= MPI_File_get_size(fh, &size) || size != 1 << 20;
	failed |= MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
	failed |= MPI_File_set_info(fh, info);
	failed |= MPI_File_sync(fh);
	MPI_Info_free(&info);
	for (rw = 0; rw < 2 && !failed; rw++) {
		MPI_Offset at = mine;

		failed |= MPI_File_seek(fh, mine, MPI_SEEK_SET);
		failed |= MPI_File_seek_shared(fh, 65536, MPI_SEEK_SET);
		if (!rw) {
			failed |= MPI_File_write(fh, data, SMALL, MPI_BYTE, MPI_STATUS_IGNORE);
			failed |= MPI_File_write_at(fh, at + 100, data, SMALL, MPI_BYTE,
						    MPI_STATUS_IGNORE);
			failed |=
				MPI_File_write_shared(fh, data, SMALL, MPI_BYTE, MPI_STATUS_IGNORE);
			failed |= MPI_File_write_all(fh, data, SMALL, MPI_BYTE, MPI_STATUS_IGNORE);
			failed |= MPI_File_write_at_all(fh, at + 200, data, SMALL, MPI_BYTE,
							MPI_STATUS_IGNORE);
			failed |= MPI_File_write_ordered(fh, data, SMALL, MPI_BYTE,
							 MPI_STATUS_IGNORE);
			failed |= MPI_File_iwrite(fh, data, SMALL, MPI_BYTE, &req) ||
				  MPI_Wait(&req, MPI_STATUS_IGNORE);
			failed |= MPI_File_iwrite_all(fh, data, SMALL, MPI_BYTE, &req) ||
				  MPI_Wait(&req, MPI_STATUS_IGNORE);
			failed |= MPI_File_iwrite_at(fh, at + 300, data, SMALL, MPI_BYTE, &req) ||
				  MPI_Wait(&req, MPI_STATUS_IGNORE);
			failed |=
				MPI_File_iwrite_at_all(fh, at + 400, data, SMALL, MPI_BYTE, &req) ||
				MPI_Wait(&req, MPI_STATUS_IGNORE);
			failed |= MPI_File_iwrite_shared(fh, data, SMALL, MPI_BYTE, &req) ||
				  MPI_Wait(&req, MPI_STATUS_IGNORE);
			failed |= MPI_File_write_all_begin(fh, data, SMALL, MPI_BYTE) ||
				  MPI_File_write_all_end(fh, data, MPI_STATUS_IGNORE);
			failed |=
				MPI_File_write_at_all_begin(fh, at + 500, data, SMALL, MPI_BYTE) ||
				MPI_File_write_at_all_end(fh, data, MPI_STATUS_IGNORE);
			failed |= MPI_File_write_ordered_begin(fh, data, SMALL, MPI_BYTE) ||
				  MPI_File_write_ordered_end(fh, data, MPI_STATUS_IGNORE);
		} else {
			failed |= MPI_File_read(fh, data, SMALL, MPI_BYTE, MPI_STATUS_IGNORE);
			failed |= MPI_File_read_at(fh, at + 100, data, SMALL, MPI_BYTE,
						   MPI_STATUS_IGNORE);
			failed |=
				MPI_File_read_shared(fh, data, SMALL, MPI_BYTE, MPI_STATUS_IGNORE);
			failed |= MPI_File_read_all(fh, data, SMALL, MPI_BYTE, MPI_STATUS_IGNORE);
			failed |= MPI_File_read_at_all(fh, at + 200, data, SMALL, MPI_BYTE,
						       MPI_STATUS_IGNORE);
			failed |=
				MPI_File_read_ordered(fh, data, SMALL, MPI_BYTE, MPI_STATUS_IGNORE);
			failed |= MPI_File_iread(fh, data, SMALL, MPI_BYTE, &req) ||
				  MPI_Wait(&req, MPI_STATUS_IGNORE);
			failed |= MPI_File_iread_all(fh, data, SMALL, MPI_BYTE, &req) ||
				  MPI_Wait(&req, MPI_STATUS_IGNORE);
			failed |= MPI_File_iread_at(fh, at + 300, data, SMALL, MPI_BYTE, &req) ||
				  MPI_Wait(&req, MPI_STATUS_IGNORE);
			failed |=
				MPI_File_iread_at_all(fh, at + 400, data, SMALL, MPI_BYTE, &req) ||
				MPI_Wait(&req, MPI_STATUS_IGNORE);
			failed |= MPI_File_iread_shared(fh, data, SMALL, MPI_BYTE, &req) ||
				  MPI_Wait(&req, MPI_STATUS_IGNORE);
			failed |= MPI_File_read_all_begin(fh, data, SMALL, MPI_BYTE) ||
				  MPI_File_read_all_end(fh, data, MPI_STATUS_IGNORE);
			failed |= MPI_File_read_at_all_begin(fh, at + 500, data, SMALL, MPI_BYTE) ||
				  MPI_File_read_at_all_end(fh, data, MPI_STATUS_IGNORE);
			failed |= MPI_File_read_ordered_begin(fh, data, SMALL, MPI_BYTE) ||
				  MPI_File_read_ordered_end(fh, data, MPI_STATUS_IGNORE);
		}
	}
	failed |= MPI_File_close(&fh);
	return failed != 0;
}

int main(int argc, char **argv)
{
	char path[4096];
	int rank, size, failed = 0, any = 0;
	MPI_File fh;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	memset(buf, 'a' + rank % 26, sizeof(buf));
	if (argc != 3) {
		if (!rank)
			fprintf(stderr, "usage: mpi-io shared|fpp|subset|pmpi|fold|every DIR\n");
		MPI_Finalize();
		return 2;
	}
	if (!strcmp(argv[1], "shared")) {
		snprintf(path, sizeof(path), "%s/shared.dat", argv[2]);
		failed |= MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
					MPI_INFO_NULL, &fh) != MPI_SUCCESS;
		if (!failed) {
			failed |= MPI_File_write_at_all(fh, (MPI_Offset)rank * BLOCK, buf, BLOCK,
							MPI_BYTE, MPI_STATUS_IGNORE) != MPI_SUCCESS;
			failed |= MPI_File_read_at(fh, (MPI_Offset)rank * BLOCK, buf, BLOCK,
						   MPI_BYTE, MPI_STATUS_IGNORE) != MPI_SUCCESS;
			failed |= MPI_File_close(&fh) != MPI_SUCCESS;
		}
		snprintf(path, sizeof(path), "%s/posix-shared.dat", argv[2]);
		failed |= posix_block(path, rank, 1);
	} else if (!strcmp(argv[1], "fpp")) {
		int fd;

		snprintf(path, sizeof(path), "%s/rank-%d.dat", argv[2], rank);
		fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		failed |= fd < 0 || write(fd, buf, BLOCK) != BLOCK ||
			  write(fd, buf, BLOCK) != BLOCK || write(fd, buf, BLOCK) != BLOCK ||
			  close(fd);
	} else if (!strcmp(argv[1], "pmpi")) {
		snprintf(path, sizeof(path), "%s/pmpi.dat", argv[2]);
		failed |= PMPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
					 MPI_INFO_NULL, &fh) != MPI_SUCCESS;
		if (!failed) {
			failed |=
				PMPI_File_write_at_all(fh, (MPI_Offset)rank * BLOCK, buf, BLOCK,
						       MPI_BYTE, MPI_STATUS_IGNORE) != MPI_SUCCESS;
			failed |= PMPI_File_close(&fh) != MPI_SUCCESS;
		}
	} else if (!strcmp(argv[1], "fold")) {
		int i, fd;

		for (i = 0; i < 300 && !failed; i++) {
			snprintf(path, sizeof(path), "%s/fold-%d-%d.dat", argv[2], rank, i);
			fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
			failed |= fd < 0 || write(fd, buf, 10) != 10 || close(fd);
		}
		snprintf(path, sizeof(path), "%s/fold-shared.dat", argv[2]);
		failed |= posix_block(path, rank, 1);
	} else if (!strcmp(argv[1], "every")) {
		failed |= every_call(argv[2], rank);
	} else if (!strcmp(argv[1], "subset")) {
		snprintf(path, sizeof(path), "%s/pair-%d.dat", argv[2], rank / 2);
		failed |= posix_block(path, rank, 1);
	} else {
		failed = 1;
	}
	MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	MPI_Finalize();
	return any;
}
