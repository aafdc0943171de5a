/*
 * posix-ops — POSIX and STDIO patterns with exactly known counts, for the
 * runtime's tests (tests/runtime/).  Each pattern works in DIR and exits 0
 * when every call behaved as expected, so the test can tell "the program
 * broke" from "the counters are wrong".
 *
 *	posix-ops basic DIR      open(O_CREAT) DIR/data, 10 write()s of 1000 bytes,
 *	                         lseek(0), write 100 bytes (an in-place rewrite),
 *	                         fsync, close; open it read-only, pread 500 bytes at
 *	                         0, 2000, 4000, 6000, read 10 at the position (still
 *	                         0: pread does not move it),
 *	                         fstat, close; stat DIR/data; unlink DIR/tmp after
 *	                         creating it with creat() (a temporary file)
 *	posix-ops failures DIR   open DIR/missing (ENOENT); creat DIR/notadir;
 *	                         rmdir DIR/notadir (ENOTDIR); unlink DIR/notadir
 *	posix-ops vectors DIR    writev 3 x 100 bytes, pwritev 2 x 50 at 1000,
 *	                         dup the descriptor and write 7 bytes through the dup
 *	posix-ops stdio DIR      fopen DIR/s.txt "w": fprintf "%d\n" 12345 (6 bytes),
 *	                         fputs "hello" (5), fputc 'x' (1), fwrite 4 x 1000;
 *	                         fflush; fclose; fopen "r": fstat(fileno), fgets 64 (6),
 *	                         fread 100 x 1,
 *	                         fgetc, fseek 0, ftell, rewind, fclose; fprintf 3
 *	                         bytes "ok\n" to stdout
 *	posix-ops threads DIR N  N threads each open DIR/t-<i>, write 100 x 4096 bytes
 *	posix-ops fork DIR       write 100 bytes to DIR/parent; fork; the child writes
 *	                         DIR/child and exits; the parent writes 100 more bytes
 *	posix-ops many DIR N     create N files DIR/m-<i>, one 10-byte write each
 *	posix-ops errno DIR      checks that failing and succeeding calls leave errno
 *	                         and results exactly as without the runtime
 *	posix-ops paced DIR N    writes 1000 bytes to DIR/paced N times, 200 ms apart
 *	posix-ops signals DIR N  N fwrite+fflush and write calls while a timer's
 *	                         signal handler write()s one byte every 50 us; the
 *	                         files must hold exactly what was written
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char block[4096];
static const char *dir;

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond)) {                                                             \
			fprintf(stderr, "posix-ops: %s:%d: check failed: %s (errno %d)\n", \
				__FILE__, __LINE__, #cond, errno);                         \
			exit(1);                                                           \
		}                                                                          \
	} while (0)

static const char *in_dir(const char *name)
{
	/* Per thread: the threads pattern builds names concurrently. */
	static _Thread_local char path[4][4096];
	static _Thread_local int next;
	char *p = path[next++ % 4];

	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	return p;
}

static void basic(void)
{
	struct stat st;
	int fd, i;

	fd = open(in_dir("data"), O_CREAT | O_WRONLY | O_TRUNC, 0644);
	CHECK(fd >= 0);
	for (i = 0; i < 10; i++)
		CHECK(write(fd, block, 1000) == 1000);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(write(fd, block, 100) == 100);
	CHECK(fsync(fd) == 0);
	CHECK(close(fd) == 0);

	fd = open(in_dir("data"), O_RDONLY);
	CHECK(fd >= 0);
	for (i = 0; i < 4; i++)
		CHECK(pread(fd, block, 500, i * 2000) == 500);
	CHECK(read(fd, block, 10) == 10);
	CHECK(fstat(fd, &st) == 0 && st.st_size == 10000);
	CHECK(close(fd) == 0);
	CHECK(stat(in_dir("data"), &st) == 0);

	fd = creat(in_dir("tmp"), 0600);
	CHECK(fd >= 0 && close(fd) == 0);
	CHECK(unlink(in_dir("tmp")) == 0);
}

static void failures(void)
{
	int fd;

	errno = 0;
	CHECK(open(in_dir("missing"), O_RDONLY) == -1 && errno == ENOENT);
	fd = creat(in_dir("notadir"), 0600);
	CHECK(fd >= 0 && close(fd) == 0);
	CHECK(rmdir(in_dir("notadir")) == -1 && errno == ENOTDIR);
	CHECK(unlink(in_dir("notadir")) == 0);
}

static void vectors(void)
{
	struct iovec iov[3] = {{block, 100}, {block, 100}, {block, 100}};
	int fd = open(in_dir("vec"), O_CREAT | O_WRONLY | O_TRUNC, 0644), copy;

	CHECK(fd >= 0);
	CHECK(writev(fd, iov, 3) == 300);
	iov[0].iov_len = iov[1].iov_len = 50;
	CHECK(pwritev(fd, iov, 2, 1000) == 100);
	copy = dup(fd);
	CHECK(copy >= 0);
	CHECK(write(copy, block, 7) == 7);
	CHECK(close(copy) == 0 && close(fd) == 0);
}

static void stdio(void)
{
	struct stat st;
	char line[64];
	FILE *f = fopen(in_dir("s.txt"), "w");
	int i;

	CHECK(f);
	CHECK(fprintf(f, "%d\n", 12345) == 6);
	CHECK(fputs("hello", f) >= 0);
	CHECK(fputc('x', f) == 'x');
	for (i = 0; i < 4; i++)
		CHECK(fwrite(block, 1000, 1, f) == 1);
	CHECK(fflush(f) == 0);
	CHECK(fclose(f) == 0);

	f = fopen(in_dir("s.txt"), "r");
	CHECK(f);
	CHECK(fstat(fileno(f), &st) == 0 && st.st_size == 4012);
	CHECK(fgets(line, sizeof(line), f) && strlen(line) == 6);
	CHECK(fread(block, 1, 100, f) == 100);
	CHECK(fgetc(f) != EOF);
	CHECK(fseek(f, 0, SEEK_SET) == 0);
	CHECK(ftell(f) == 0);
	rewind(f);
	CHECK(fclose(f) == 0);
	CHECK(fprintf(stdout, "ok\n") == 3);
}

static void *thread_main(void *arg)
{
	char name[32];
	int fd, i;

	snprintf(name, sizeof(name), "t-%ld", (long)(intptr_t)arg);
	fd = open(in_dir(name), O_CREAT | O_WRONLY | O_TRUNC, 0644);
	CHECK(fd >= 0);
	for (i = 0; i < 100; i++)
		CHECK(write(fd, block, sizeof(block)) == (ssize_t)sizeof(block));
	CHECK(close(fd) == 0);
	return NULL;
}

static void threads(int n)
{
	pthread_t t[64];
	long i;

	CHECK(n > 0 && n <= 64);
	for (i = 0; i < n; i++)
		CHECK(pthread_create(&t[i], NULL, thread_main, (void *)(intptr_t)i) == 0);
	for (i = 0; i < n; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
}

static void forked(void)
{
	int fd = open(in_dir("parent"), O_CREAT | O_WRONLY | O_TRUNC, 0644), status;
	pid_t child;

	CHECK(fd >= 0 && write(fd, block, 100) == 100);
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		int cfd = open(in_dir("child"), O_CREAT | O_WRONLY | O_TRUNC, 0644);

		_exit(cfd >= 0 && write(cfd, block, 50) == 50 && close(cfd) == 0 ? 0 : 1);
	}
	CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && !WEXITSTATUS(status));
	CHECK(write(fd, block, 100) == 100 && close(fd) == 0);
}

static void many(int n)
{
	char name[32];
	int i, fd;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "m-%d", i);
		fd = open(in_dir(name), O_CREAT | O_WRONLY | O_TRUNC, 0644);
		CHECK(fd >= 0 && write(fd, block, 10) == 10 && close(fd) == 0);
	}
}

static void paced(int n)
{
	struct timespec gap = {0, 200 * 1000 * 1000};
	int fd = open(in_dir("paced"), O_CREAT | O_WRONLY | O_TRUNC, 0644), i;

	CHECK(fd >= 0);
	for (i = 0; i < n; i++) {
		if (i)
			nanosleep(&gap, NULL);
		CHECK(write(fd, block, 1000) == 1000);
	}
	CHECK(close(fd) == 0);
}

static int signal_fd = -1;
static volatile sig_atomic_t signal_writes;

static void on_alarm(int sig)
{
	int saved = errno;

	(void)sig;
	if (write(signal_fd, "s", 1) == 1)
		signal_writes++;
	errno = saved;
}

static void signals(int n)
{
	struct itimerval every = { { 0, 50 }, { 0, 50 } }, off = { { 0, 0 }, { 0, 0 } };
	struct sigaction sa;
	struct stat st;
	FILE *f = fopen(in_dir("main-stdio"), "w");
	int fd = open(in_dir("main-posix"), O_CREAT | O_WRONLY | O_TRUNC, 0644), i;

	signal_fd = open(in_dir("handler"), O_CREAT | O_WRONLY | O_TRUNC, 0644);
	CHECK(f && fd >= 0 && signal_fd >= 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	CHECK(sigaction(SIGALRM, &sa, NULL) == 0);
	CHECK(setitimer(ITIMER_REAL, &every, NULL) == 0);
	for (i = 0; i < n; i++) {
		CHECK(fwrite(block, 1, 10, f) == 10 && fflush(f) == 0);
		CHECK(write(fd, block, 10) == 10);
	}
	CHECK(setitimer(ITIMER_REAL, &off, NULL) == 0);
	CHECK(fclose(f) == 0 && close(fd) == 0 && close(signal_fd) == 0);
	CHECK(stat(in_dir("main-stdio"), &st) == 0 && st.st_size == 10L * n);
	CHECK(stat(in_dir("main-posix"), &st) == 0 && st.st_size == 10L * n);
	CHECK(stat(in_dir("handler"), &st) == 0 && st.st_size == signal_writes);
}

/* Results and errno must be those of the real calls, success or failure. */
static void errno_kept(void)
{
	int fd;

	errno = 1234;
	fd = open(in_dir("e"), O_CREAT | O_WRONLY, 0644);
	CHECK(fd >= 0 && errno == 1234);
	CHECK(write(fd, block, 10) == 10 && errno == 1234);
	CHECK(close(fd) == 0 && errno == 1234);
	CHECK(read(-1, block, 1) == -1 && errno == EBADF);
	CHECK(open(in_dir("nope/x"), O_RDONLY) == -1 && errno == ENOENT);
	CHECK(lseek(0x7fff, 0, SEEK_SET) == -1 && errno == EBADF);
	CHECK(fopen(in_dir("nope/y"), "r") == NULL && errno == ENOENT);
	CHECK(unlink(in_dir("e")) == 0);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 2 ? argv[1] : "";
	int n = argc > 3 ? (int)strtol(argv[3], NULL, 10) : 0;

	dir = argc > 2 ? argv[2] : ".";
	memset(block, 'z', sizeof(block));
	if (!strcmp(mode, "basic"))
		basic();
	else if (!strcmp(mode, "failures"))
		failures();
	else if (!strcmp(mode, "vectors"))
		vectors();
	else if (!strcmp(mode, "stdio"))
		stdio();
	else if (!strcmp(mode, "threads"))
		threads(n);
	else if (!strcmp(mode, "fork"))
		forked();
	else if (!strcmp(mode, "many"))
		many(n);
	else if (!strcmp(mode, "errno"))
		errno_kept();
	else if (!strcmp(mode, "paced"))
		paced(n);
	else if (!strcmp(mode, "signals"))
		signals(n);
	else {
		fprintf(stderr,
			"usage: posix-ops basic|failures|vectors|stdio|threads|fork|many|errno "
			"DIR [N]\n");
		return 2;
	}
	return 0;
}
