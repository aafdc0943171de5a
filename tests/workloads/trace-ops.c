/*
 * trace-ops — an MPI program whose I/O and communication patterns the trace
 * tests know exactly: each rank keeps its own list of the calls it makes
 * and writes it to DIR/expect.RANK at the end, one line per call:
 *
 *	module op target offset length
 *
 * target is the data file's name (files are DIR/d-*) or the communicator
 * as `ioatlas trace` names it; for MPI calls offset is the peer relative
 * to the caller (or the root), as the trace stores it, and MPI_File_open's
 * length 1 + its communicator's slot.  Modes:
 *
 *	strided     a loop of writes with a fixed stride
 *	nested      loops in loops (strides at two levels, an fsync per row)
 *	files       a file per step: open, two writes, close, 20 times
 *	irregular   writes at shuffled offsets
 *	rankdep     offsets that depend on the rank (DIR/d-shared must exist)
 *	collective  collective MPI-IO with two aggregators (cb_nodes=2, two per node);
 *	            the ranks but 0 come 60, 30 and 0 ms late to its three writes
 *	mixed       STDIO and POSIX on the same file, interleaved
 *	phases      compute, barrier, write; a communicator split
 *	token       a token passed around the ranks, blocking and non-blocking
 *	threads     four threads per rank, each on its own file
 *	paced       writes after 5 ms of compute each (DIR/gaps.RANK: measured)
 *	growing N   N writes, the time before them (sleeping, so that ranks
 *	            above the cores keep it) growing from 2 to 8 ms
 *	            (DIR/gaps.RANK: measured, in order)
 *	loop N      N writes of 4 KiB at consecutive offsets (the benchmark)
 *	random N    N writes at random 4 KiB-aligned offsets (the benchmark)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond)) {                                                             \
			fprintf(stderr, "trace-ops: %s:%d: check failed: %s (errno %d)\n", \
				__FILE__, __LINE__, #cond, errno);                         \
			MPI_Abort(MPI_COMM_WORLD, 1);                                      \
		}                                                                          \
	} while (0)

static const char *dir;
static int rank, size;
static char block[65536];

/* The list of calls this rank made, in order. */
static char *journal;
static size_t journal_len, journal_cap;
static pthread_mutex_t journal_lock = PTHREAD_MUTEX_INITIALIZER;

static void note(const char *module, const char *op, const char *target, long long offset,
		 long long length)
{
	char line[512];
	int n = snprintf(line, sizeof(line), "%s %s %s %lld %lld\n", module, op, target, offset,
			 length);

	pthread_mutex_lock(&journal_lock);
	if (journal_len + (size_t)n + 1 > journal_cap) {
		journal_cap = (journal_cap + (size_t)n + 1) * 2;
		journal = realloc(journal, journal_cap);
		CHECK(journal != NULL);
	}
	memcpy(journal + journal_len, line, (size_t)n + 1);
	journal_len += (size_t)n;
	pthread_mutex_unlock(&journal_lock);
}

static const char *path_of(const char *name)
{
	static _Thread_local char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static int open_data(const char *name, int flags)
{
	int fd = open(path_of(name), flags, 0644);

	CHECK(fd >= 0);
	note("POSIX", "open", name, 0, 0);
	return fd;
}

static void close_data(int fd, const char *name)
{
	CHECK(close(fd) == 0);
	note("POSIX", "close", name, 0, 0);
}

static void pwrite_data(int fd, const char *name, size_t len, long long offset)
{
	CHECK(pwrite(fd, block, len, (off_t)offset) == (ssize_t)len);
	note("POSIX", "pwrite", name, offset, (long long)len);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Computes (spins) until `seconds` have passed since `from`. */
static void compute_until(double from, double seconds)
{
	volatile unsigned long x = 0;

	while (now() - from < seconds)
		x++;
}

/* Waits (sleeps) until `seconds` have passed since `from`: exact with ranks above the cores. */
static void wait_until(double from, double seconds)
{
	double t = from + seconds;
	struct timespec ts = {(time_t)t, (long)((t - (double)(time_t)t) * 1e9)};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void strided(void)
{
	char name[64];
	int fd, i;

	snprintf(name, sizeof(name), "d-strided.%d", rank);
	fd = open_data(name, O_CREAT | O_WRONLY | O_TRUNC);
	for (i = 0; i < 100; i++)
		pwrite_data(fd, name, 1000, (long long)i * 8192);
	close_data(fd, name);
}

static void nested(void)
{
	char name[64];
	int fd, i, j;

	snprintf(name, sizeof(name), "d-nested.%d", rank);
	fd = open_data(name, O_CREAT | O_WRONLY | O_TRUNC);
	for (i = 0; i < 6; i++) {
		for (j = 0; j < 8; j++)
			pwrite_data(fd, name, 512, (long long)i * 1048576 + (long long)j * 4096);
		CHECK(fsync(fd) == 0);
		note("POSIX", "fsync", name, 0, 0);
	}
	close_data(fd, name);
}

/* A file per step, as checkpoints often are: the loop runs over files. */
static void files(void)
{
	char name[64];
	int fd, i;

	for (i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "d-files.%d.%d", rank, i);
		fd = open_data(name, O_CREAT | O_WRONLY | O_TRUNC);
		pwrite_data(fd, name, 4096, 0);
		pwrite_data(fd, name, 512, 4096);
		close_data(fd, name);
	}
}

static void irregular(void)
{
	int order[64], i, fd;
	char name[64];

	for (i = 0; i < 64; i++)
		order[i] = i;
	srand(7 + (unsigned)rank);
	for (i = 63; i > 0; i--) {
		int k = rand() % (i + 1), t = order[i];

		order[i] = order[k];
		order[k] = t;
	}
	snprintf(name, sizeof(name), "d-irregular.%d", rank);
	fd = open_data(name, O_CREAT | O_WRONLY | O_TRUNC);
	for (i = 0; i < 64; i++)
		pwrite_data(fd, name, 100 + (size_t)(order[i] % 3) * 100,
			    (long long)order[i] * 1000);
	close_data(fd, name);
}

static void rankdep(void)
{
	int fd, i;

	fd = open_data("d-shared", O_WRONLY);
	for (i = 0; i < 50; i++)
		pwrite_data(fd, "d-shared", 2048, (long long)rank * 1048576 + (long long)i * 2048);
	close_data(fd, "d-shared");
}

static void collective(void)
{
	const int amode = MPI_MODE_CREATE | MPI_MODE_WRONLY;
	const int n = 16384;
	MPI_Info info;
	MPI_File fh;
	int i;

	MPI_Info_create(&info);
	MPI_Info_set(info, "cb_nodes", "2");
	MPI_Info_set(info, "cb_config_list", "*:2");
	MPI_Info_set(info, "romio_cb_write", "enable");
	CHECK(MPI_File_open(MPI_COMM_WORLD, path_of("d-coll"), amode, info, &fh) == MPI_SUCCESS);
	/* Its length: 1 + its communicator's slot, MPI_COMM_WORLD's 0 (the first seen, at
	 * MPI_Init). */
	note("MPI-IO", "File_open", "d-coll", amode, 1);
	for (i = 0; i < 3; i++) {
		long long offset = ((long long)i * size + rank) * n;

		/* Rank 0 waits in each write, less each time: the trace keeps the order of its
		 * sub-calls' gaps, not of the writes' durations. */
		if (rank)
			wait_until(now(), (2 - i) * 0.030);
		CHECK(MPI_File_write_at_all(fh, offset, block, n, MPI_BYTE, MPI_STATUS_IGNORE) ==
		      MPI_SUCCESS);
		note("MPI-IO", "File_write_at_all", "d-coll", offset, n);
	}
	CHECK(MPI_File_close(&fh) == MPI_SUCCESS);
	note("MPI-IO", "File_close", "d-coll", 0, 0);
	MPI_Info_free(&info);
}

static void mixed(void)
{
	char name[64];
	FILE *f;
	int fd, i;

	snprintf(name, sizeof(name), "d-mixed.%d", rank);
	f = fopen(path_of(name), "w+");
	CHECK(f != NULL);
	note("STDIO", "fopen", name, 0, 0);
	fd = open_data(name, O_WRONLY);
	for (i = 0; i < 10; i++) {
		long pos = ftell(f);

		note("STDIO", "ftell", name, pos, 0);
		CHECK(fwrite(block, 1, 300, f) == 300);
		note("STDIO", "fwrite", name, pos, 300);
		pwrite_data(fd, name, 100, 100000 + (long long)i * 100);
	}
	CHECK(fseek(f, 0, SEEK_SET) == 0);
	note("STDIO", "fseek", name, 0, 0);
	CHECK(fread(block, 1, 600, f) == 600);
	note("STDIO", "fread", name, 0, 600);
	CHECK(fclose(f) == 0);
	note("STDIO", "fclose", name, 0, 0);
	close_data(fd, name);
}

static void barrier(MPI_Comm comm, const char *target)
{
	CHECK(MPI_Barrier(comm) == MPI_SUCCESS);
	note("MPI", "Barrier", target, -1, 0);
}

static void phases(void)
{
	char name[64], world[32], half[32];
	MPI_Comm sub;
	int fd, phase, i;

	snprintf(world, sizeof(world), "comm0(size=%d)", size);
	snprintf(name, sizeof(name), "d-phase.%d", rank);
	fd = open_data(name, O_CREAT | O_WRONLY | O_TRUNC);
	barrier(MPI_COMM_WORLD, world);
	for (phase = 0; phase < 3; phase++) {
		/* Rank r computes (r + 1) * 10 ms: the others wait for the last at the barrier. */
		compute_until(now(), (rank + 1) * 0.010);
		barrier(MPI_COMM_WORLD, world);
		for (i = 0; i < 4; i++)
			pwrite_data(fd, name, 4096, ((long long)phase * 4 + i) * 4096);
	}
	close_data(fd, name);
	CHECK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &sub) == MPI_SUCCESS);
	note("MPI", "Comm_split", world, rank % 2, rank);
	snprintf(half, sizeof(half), "comm1(size=%d)", (size - rank % 2 + 1) / 2);
	barrier(sub, half);
	MPI_Comm_free(&sub);
}

static void token(void)
{
	char world[32];
	int right = (rank + 1) % size, left = (rank + size - 1) % size, value = 0, round, fd;
	MPI_Request reqs[2];
	MPI_Status st[2];

	snprintf(world, sizeof(world), "comm0(size=%d)", size);
	fd = open_data("d-token", O_CREAT | O_WRONLY);
	for (round = 0; round < 3; round++) {
		if (rank != 0) {
			CHECK(MPI_Recv(&value, 1, MPI_INT, left, 5, MPI_COMM_WORLD,
				       MPI_STATUS_IGNORE) == MPI_SUCCESS);
			note("MPI", "Recv", world, size - 1, 4);
		}
		pwrite_data(fd, "d-token", 512, ((long long)round * size + rank) * 512);
		value++;
		CHECK(MPI_Send(&value, 1, MPI_INT, right, 5, MPI_COMM_WORLD) == MPI_SUCCESS);
		note("MPI", "Send", world, 1, 4);
		if (rank == 0) {
			CHECK(MPI_Recv(&value, 1, MPI_INT, left, 5, MPI_COMM_WORLD,
				       MPI_STATUS_IGNORE) == MPI_SUCCESS);
			note("MPI", "Recv", world, size - 1, 4);
		}
	}
	close_data(fd, "d-token");
	/* Neighbours exchange without blocking, then wait for both. */
	CHECK(MPI_Irecv(&value, 1, MPI_INT, left, 6, MPI_COMM_WORLD, &reqs[0]) == MPI_SUCCESS);
	note("MPI", "Irecv", world, size - 1, 4);
	CHECK(MPI_Isend(&rank, 1, MPI_INT, right, 6, MPI_COMM_WORLD, &reqs[1]) == MPI_SUCCESS);
	note("MPI", "Isend", world, 1, 4);
	CHECK(MPI_Waitall(2, reqs, st) == MPI_SUCCESS);
	note("MPI", "Waitall", "-", -1, 2);
	CHECK(value == left);
}

static void *thread_main(void *arg)
{
	int t = (int)(long)arg, fd, i;
	char name[64];

	snprintf(name, sizeof(name), "d-thread.%d.%d", rank, t);
	fd = open_data(name, O_CREAT | O_WRONLY | O_TRUNC);
	for (i = 0; i < 200; i++)
		pwrite_data(fd, name, 256, (long long)i * 1024 + t);
	close_data(fd, name);
	return NULL;
}

static void threads(void)
{
	pthread_t th[4];
	long t;

	for (t = 0; t < 4; t++)
		CHECK(pthread_create(&th[t], NULL, thread_main, (void *)t) == 0);
	for (t = 0; t < 4; t++)
		CHECK(pthread_join(th[t], NULL) == 0);
}

/*
 * The program's clock is read right around each call, and its own
 * bookkeeping happens inside the compute, so the gaps it measures are the
 * gaps the runtime sees.
 */
static void paced(const char *file, long n, double from, double to, void (*think)(double, double))
{
	char name[64];
	double end, *gaps = calloc((size_t)n, sizeof(*gaps));
	FILE *f;
	long i;
	int fd;

	CHECK(gaps != NULL);
	snprintf(name, sizeof(name), "%s.%d", file, rank);
	fd = open(path_of(name), O_CREAT | O_WRONLY | O_TRUNC, 0644);
	end = now();
	CHECK(fd >= 0);
	note("POSIX", "open", name, 0, 0);
	for (i = 0; i < n; i++) {
		double start;

		think(end, n > 1 ? from + (to - from) * (double)i / (double)(n - 1) : from);
		start = now();
		CHECK(pwrite(fd, block, 4096, (off_t)i * 4096) == 4096);
		gaps[i] = start - end;
		end = now();
		note("POSIX", "pwrite", name, (long long)i * 4096, 4096);
	}
	close_data(fd, name);
	snprintf(name, sizeof(name), "gaps.%d", rank);
	f = fopen(path_of(name), "w");
	CHECK(f != NULL);
	for (i = 0; i < n; i++)
		CHECK(fprintf(f, "%.9f\n", gaps[i]) > 0);
	CHECK(fclose(f) == 0);
	free(gaps);
}

static void loop(long n)
{
	char name[64];
	long i;
	int fd;

	snprintf(name, sizeof(name), "d-loop.%d", rank);
	fd = open(path_of(name), O_CREAT | O_WRONLY | O_TRUNC, 0644);
	CHECK(fd >= 0);
	for (i = 0; i < n; i++)
		CHECK(pwrite(fd, block, 4096, (off_t)(i % 1024) * 4096) == 4096);
	CHECK(close(fd) == 0);
}

static void random_offsets(long n)
{
	char name[64];
	long i;
	int fd;

	snprintf(name, sizeof(name), "d-random.%d", rank);
	fd = open_data(name, O_CREAT | O_WRONLY | O_TRUNC);
	srand(11 + (unsigned)rank);
	for (i = 0; i < n; i++)
		pwrite_data(fd, name, 4096, (long long)(rand() % 65536) * 4096);
	close_data(fd, name);
}

static void write_journal(void)
{
	char name[64];
	FILE *f;

	snprintf(name, sizeof(name), "expect.%d", rank);
	f = fopen(path_of(name), "w");
	CHECK(f != NULL);
	CHECK(!journal_len || fwrite(journal, 1, journal_len, f) == journal_len);
	CHECK(fclose(f) == 0);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 2 ? argv[1] : "";
	int provided;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	{
		char world[32];

		snprintf(world, sizeof(world), "comm0(size=%d)", size);
		note("MPI", "Init_thread", world, -1, 0);
	}
	dir = argv[argc - 1];
	if (!strcmp(mode, "strided"))
		strided();
	else if (!strcmp(mode, "nested"))
		nested();
	else if (!strcmp(mode, "files"))
		files();
	else if (!strcmp(mode, "irregular"))
		irregular();
	else if (!strcmp(mode, "rankdep"))
		rankdep();
	else if (!strcmp(mode, "collective"))
		collective();
	else if (!strcmp(mode, "mixed"))
		mixed();
	else if (!strcmp(mode, "phases"))
		phases();
	else if (!strcmp(mode, "token"))
		token();
	else if (!strcmp(mode, "threads"))
		threads();
	else if (!strcmp(mode, "paced"))
		paced("d-paced", 20, 0.005, 0.005, compute_until);
	else if (!strcmp(mode, "growing") && argc > 3)
		paced("d-growing", atol(argv[2]), 0.002, 0.008, wait_until);
	else if (!strcmp(mode, "loop") && argc > 3)
		loop(atol(argv[2]));
	else if (!strcmp(mode, "random") && argc > 3)
		random_offsets(atol(argv[2]));
	else {
		if (rank == 0)
			fprintf(stderr, "usage: trace-ops strided|nested|irregular|rankdep|"
					"collective|mixed|phases|token|threads|paced|growing N|"
					"loop N|random N DIR\n");
		MPI_Finalize();
		return 2;
	}
	write_journal();
	MPI_Finalize();
	return 0;
}
