/*
 * mpi-killed — an MPI job that ends badly, for the recovery tests (t1080,
 * t1081, t1082).  Each rank appends 4 KiB blocks to DIR/out.<rank> and,
 * after each write returned, says how many it wrote in DIR/done.<rank>
 * (8 bytes, with raw system calls the runtime does not see), so a test
 * knows what was done before the end:
 *
 *	mpi-killed DIR MODE [N]
 *
 * MODE: run (write until killed), handler (the same, with a SIGTERM
 * handler of its own that notes the signal in DIR/handled.<rank>, checks
 * that sigaction shows it its own handler, and exits 3 once the other
 * rank noted it too (10 s at most), since the launcher kills the
 * ranks left when one exits, which could take a rank whose SIGTERM was
 * still pending on a busy machine), exit (N writes,
 * a barrier, then exit(0) without MPI_Finalize), abort (N writes, then rank 0 calls
 * MPI_Abort with code 7), clean (N writes and MPI_Finalize).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static char handled_path[4096], peer_path[4096];

static void on_term(int sig)
{
	int fd = (int)syscall(SYS_openat, AT_FDCWD, handled_path, O_WRONLY | O_CREAT | O_TRUNC,
			      0600);
	const struct timespec tick = {0, 10000000};
	int i;

	(void)sig;
	if (fd >= 0) {
		(void)!syscall(SYS_write, fd, "handled\n", 8);
		syscall(SYS_close, fd);
	}
	for (i = 0; i < 1000 && syscall(SYS_faccessat, AT_FDCWD, peer_path, F_OK, 0); i++)
		nanosleep(&tick, NULL);
	_exit(3);
}

int main(int argc, char **argv)
{
	char path[4096], done_path[4096], block[4096];
	const char *mode = argc > 2 ? argv[2] : "run";
	long n = argc > 3 ? atol(argv[3]) : 0, i;
	int rank, fd, done;

	if (argc < 3) {
		fprintf(stderr, "usage: mpi-killed DIR MODE [N]\n");
		return 2;
	}
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	snprintf(path, sizeof(path), "%s/out.%d", argv[1], rank);
	snprintf(done_path, sizeof(done_path), "%s/done.%d", argv[1], rank);
	snprintf(handled_path, sizeof(handled_path), "%s/handled.%d", argv[1], rank);
	snprintf(peer_path, sizeof(peer_path), "%s/handled.%d", argv[1], !rank);
	if (!strcmp(mode, "handler")) {
		struct sigaction act = {.sa_handler = on_term}, old;

		sigemptyset(&act.sa_mask);
		sigaction(SIGTERM, &act, NULL);
		/* The program sees its own handler, whatever the runtime does. */
		if (sigaction(SIGTERM, NULL, &old) || old.sa_handler != on_term) {
			fprintf(stderr, "mpi-killed: sigaction shows another handler\n");
			return 4;
		}
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	done = (int)syscall(SYS_openat, AT_FDCWD, done_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || done < 0) {
		perror("mpi-killed: open");
		return 1;
	}
	memset(block, 'a' + rank % 26, sizeof(block));
	for (i = 0; !n || i < n; i++) {
		long count = i + 1;

		if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block)) {
			perror("mpi-killed: write");
			return 1;
		}
		(void)!syscall(SYS_pwrite64, done, &count, sizeof(count), 0);
		if (!n)
			usleep(2000);
	}
	if (!strcmp(mode, "exit")) {
		/* Both ranks wrote all theirs before either leaves (the launcher may kill the
		 * other). */
		MPI_Barrier(MPI_COMM_WORLD);
		exit(0);
	}
	if (!strcmp(mode, "abort")) {
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0)
			MPI_Abort(MPI_COMM_WORLD, 7);
		for (;;)
			pause();
	}
	close(fd);
	MPI_Finalize();
	return 0;
}
