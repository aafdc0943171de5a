/*
 * mpi-io-large — MPI-4's large-count MPI-IO calls (MPI_Count counts), for
 * the runtime's tests (t1013; MPICH 4 has them):
 *
 *	mpi-io-large PATH   the ranks open PATH collectively; each writes its
 *	                    block of COUNT ints at rank*BLOCK (BLOCK = COUNT*4
 *	                    bytes) with MPI_File_write_at_all_c, the next block
 *	                    of the file's second half with MPI_File_write_at_c,
 *	                    MPI_File_iwrite_at_c (and a wait) and the split
 *	                    MPI_File_write_at_all_begin_c (and its end), reads
 *	                    its block back with MPI_File_read_at_all_c,
 *	                    MPI_File_read_at_c and MPI_File_iread_at_c, and
 *	                    through its file pointer (MPI_File_seek) with
 *	                    MPI_File_read_c and MPI_File_write_c; then closes.
 *
 * Each rank counts what the calls report (MPI_Get_count_c) and prints it in
 * the words of the MPI-IO counters:
 *	rank R: coll_writes 1 indep_writes 2 nb_writes 1 split_writes 1 coll_reads 1 ...
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define COUNT 1024
#define BLOCK (COUNT * (MPI_Offset)sizeof(int))

struct tally {
	long long coll, indep, nb, split, bytes;
};

static void add(struct tally *t, long long *kind, MPI_Status *st)
{
	MPI_Count n = 0;

	MPI_Get_count_c(st, MPI_BYTE, &n);
	(*kind)++;
	t->bytes += n;
}

int main(int argc, char **argv)
{
	static int data[COUNT], back[COUNT];
	struct tally w = {0}, r = {0};
	int rank, size, i;
	MPI_File fh;
	MPI_Status st;
	MPI_Request req;
	MPI_Offset mine, spare;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc != 2 || MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR,
				       MPI_INFO_NULL, &fh) != MPI_SUCCESS)
		MPI_Abort(MPI_COMM_WORLD, 2);
	for (i = 0; i < COUNT; i++)
		data[i] = rank * COUNT + i;
	mine = rank * BLOCK;
	spare = (size + rank) * BLOCK;

	MPI_File_write_at_all_c(fh, mine, data, (MPI_Count)COUNT, MPI_INT, &st);
	add(&w, &w.coll, &st);
	MPI_File_write_at_c(fh, spare, data, (MPI_Count)COUNT, MPI_INT, &st);
	add(&w, &w.indep, &st);
	MPI_File_iwrite_at_c(fh, spare, data, (MPI_Count)COUNT, MPI_INT, &req);
	MPI_Wait(&req, &st);
	add(&w, &w.nb, &st);
	MPI_File_write_at_all_begin_c(fh, spare, data, (MPI_Count)COUNT, MPI_INT);
	MPI_File_write_at_all_end(fh, data, &st);
	add(&w, &w.split, &st);

	MPI_File_read_at_all_c(fh, mine, back, (MPI_Count)COUNT, MPI_INT, &st);
	add(&r, &r.coll, &st);
	MPI_File_read_at_c(fh, mine, back, (MPI_Count)COUNT, MPI_INT, &st);
	add(&r, &r.indep, &st);
	MPI_File_iread_at_c(fh, mine, back, (MPI_Count)COUNT, MPI_INT, &req);
	MPI_Wait(&req, &st);
	add(&r, &r.nb, &st);
	MPI_File_seek(fh, mine, MPI_SEEK_SET);
	MPI_File_read_c(fh, back, (MPI_Count)COUNT, MPI_INT, &st);
	add(&r, &r.indep, &st);
	MPI_File_seek(fh, spare, MPI_SEEK_SET);
	MPI_File_write_c(fh, data, (MPI_Count)COUNT, MPI_INT, &st);
	add(&w, &w.indep, &st);
	MPI_File_close(&fh);

	printf("rank %d: coll_writes %lld indep_writes %lld nb_writes %lld split_writes %lld "
	       "bytes_written %lld coll_reads %lld indep_reads %lld nb_reads %lld bytes_read %lld "
	       "check %s\n",
	       rank, w.coll, w.indep, w.nb, w.split, w.bytes, r.coll, r.indep, r.nb, r.bytes,
	       memcmp(data, back, sizeof(back)) ? "bad" : "good");
	MPI_Finalize();
	return 0;
}
