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
 *	posix-ops every DIR      calls every intercepted POSIX and STDIO function once
 *	                         (see every_call() for what each does to which file)
 *	posix-ops signals DIR N  N fwrite+fflush and write calls while a timer's
 *	                         signal handler write()s one byte every 50 us; the
 *	                         files must hold exactly what was written
 *	posix-ops append DIR     DIR/log opened O_APPEND (created): 1000 bytes; closed,
 *	                         opened O_APPEND again: 2 x 1000; a second O_APPEND
 *	                         descriptor writes 100, then the first 100 more: every
 *	                         write lands at the end (0, 1000, 2000, 3000, 3100);
 *	                         then opened without O_APPEND and dup'ed, the
 *	                         description set to append (fcntl F_SETFL) through
 *	                         one number: 200 through the other, 100 through the
 *	                         first (at 3200, 3400); set back, a seek to 0 and 100
 *	                         more through the dup rewrite the start (3500 bytes)
 *	posix-ops reuse DIR      descriptor numbers closed where the POSIX layer does
 *	                         not see it, then reused: fopen DIR/r1 "w", fileno,
 *	                         fclose; open DIR/r2, fdopen, fclose; open DIR/r3,
 *	                         close it by syscall; after each, the number is
 *	                         taken again (a pipe, a pipe, /proc/self/stat) and
 *	                         100 bytes written to and read from it: DIR/r1, r2
 *	                         and r3 are read and written nothing
 *	posix-ops runs DIR [1]   runs of alike calls on DIR/runs, as the runtime's
 *	                         queue applies them together: 20 writes of 512
 *	                         bytes, a seek to 0 and 24 more (20 rewrite, 4
 *	                         extend), 8 pwrites of 100 at 20000 on, 4 writes
 *	                         of 300 from an unaligned buffer at the position,
 *	                         16 preads of 64 from 0 on, a seek to 0, 16 reads
 *	                         of 64 and 4 of 128; with 1, an fstat of DIR/other
 *	                         after each call, so that each is applied alone
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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

static void append(void)
{
	int fd = open(in_dir("log"), O_CREAT | O_WRONLY | O_APPEND, 0644), fd2;

	CHECK(fd >= 0 && write(fd, block, 1000) == 1000 && close(fd) == 0);
	fd = open(in_dir("log"), O_WRONLY | O_APPEND);
	CHECK(fd >= 0 && write(fd, block, 1000) == 1000 && write(fd, block, 1000) == 1000);
	fd2 = open(in_dir("log"), O_WRONLY | O_APPEND);
	CHECK(fd2 >= 0 && write(fd2, block, 100) == 100 && write(fd, block, 100) == 100);
	CHECK(close(fd2) == 0 && close(fd) == 0);
	fd = open(in_dir("log"), O_WRONLY);
	CHECK(fd >= 0 && (fd2 = dup(fd)) >= 0 && fcntl(fd, F_SETFL, O_APPEND) == 0);
	CHECK(write(fd2, block, 200) == 200 && write(fd, block, 100) == 100);
	CHECK(fcntl(fd2, F_SETFL, 0) == 0 && lseek(fd, 0, SEEK_SET) == 0);
	CHECK(write(fd2, block, 100) == 100 && lseek(fd, 0, SEEK_END) == 3500);
	CHECK(close(fd2) == 0 && close(fd) == 0);
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
	struct itimerval every = {{0, 50}, {0, 50}}, off = {{0, 0}, {0, 0}};
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

/* The legacy stat entry points, which glibc 2.33 stopped declaring. */
int __xstat(int ver, const char *path, struct stat *st);
int __lxstat(int ver, const char *path, struct stat *st);
int __fxstat(int ver, int fd, struct stat *st);
int __xstat64(int ver, const char *path, struct stat64 *st);
int __lxstat64(int ver, const char *path, struct stat64 *st);
int __fxstat64(int ver, int fd, struct stat64 *st);
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);
ssize_t __read_chk(int fd, void *buf, size_t count, size_t buflen);
ssize_t __pread_chk(int fd, void *buf, size_t count, off_t offset, size_t buflen);
ssize_t __pread64_chk(int fd, void *buf, size_t count, off64_t offset, size_t buflen);
size_t __fread_chk(void *ptr, size_t ptrlen, size_t size, size_t n, FILE *stream);
char *__fgets_chk(char *s, size_t slen, int size, FILE *stream);
int __fprintf_chk(FILE *stream, int flag, const char *fmt, ...);
int __vfprintf_chk(FILE *stream, int flag, const char *fmt, va_list ap);
int __printf_chk(int flag, const char *fmt, ...);
int __vprintf_chk(int flag, const char *fmt, va_list ap);
int __isoc99_fscanf(FILE *stream, const char *fmt, ...);
int __isoc99_vfscanf(FILE *stream, const char *fmt, va_list ap);
/* In C99 modes the headers turn fscanf into __isoc99_fscanf: reach the plain symbols by name. */
int plain_fscanf(FILE *stream, const char *fmt, ...) __asm__("fscanf");
int plain_vfscanf(FILE *stream, const char *fmt, va_list ap) __asm__("vfscanf");

/*
 * Every intercepted call once, on DIR/e (POSIX) and DIR/s (STDIO), so that
 * t1009 can check each call's effect on the counters.  On DIR/e:
 *   opens: open, open64, openat, openat64, __open_2, __open64_2,
 *          __openat_2, __openat64_2, creat, creat64 (10), then dup, dup2,
 *          dup3, fcntl(F_DUPFD), fcntl64(F_DUPFD) (5 dups) and fileno of a
 *          stream on it (1): POSIX_OPENS 16
 *   writes: write, pwrite, pwrite64, writev, pwritev, 10 bytes each (5)
 *   reads: read, pread, pread64, readv, preadv, __read_chk, __pread_chk,
 *          __pread64_chk, 10 bytes each (8)
 *   seeks: lseek, lseek64 (2); syncs: fsync, fdatasync; truncates:
 *   ftruncate, ftruncate64 (2); mmaps: mmap, mmap64 (2); access (1);
 *   stats: stat, lstat, fstat, fstatat, stat64, lstat64, fstat64, statx,
 *   __xstat, __lxstat, __fxstat, __xstat64, __lxstat64, __fxstat64 (14)
 * DIR/d: mkdir, rmdir; DIR/d2: mkdir, unlinkat(AT_REMOVEDIR);
 * DIR/u: creat, unlink; DIR/u2: creat, unlinkat;
 * DIR/r1 renamed to DIR/r2 (rename), DIR/r2 to DIR/r3 (renameat).
 * On DIR/s: fopen, fopen64, freopen, freopen64 (4 opens); fdopen (1);
 *   writes: fwrite, fputs, fputc, putc, vfprintf, fprintf, __fprintf_chk,
 *   __vfprintf_chk (8; 3+3+1+1+3+9+2+2 = 24 bytes); reads: fread, fgets,
 *   fgetc, getc, fscanf, vfscanf, __isoc99_fscanf, __isoc99_vfscanf,
 *   __fgets_chk, __fread_chk (10; 3+3+1+1+5+2+2+2+1+4 = 24 bytes); then
 *   fsetpos, putw (4 bytes), fsetpos64 back, getw (4 bytes).
 * On stdout: printf, vprintf, __printf_chk, __vprintf_chk (2 bytes each).
 *   seeks: fseek, fseeko, fseeko64, ftell, rewind (5); fflush (1).
 */
static int vprint(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(f, fmt, ap);
	va_end(ap);
	return n;
}

/* __vfprintf_chk, as fortified builds call vfprintf. */
static int vprint_chk(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = __vfprintf_chk(f, 1, fmt, ap);
	va_end(ap);
	return n;
}

/* vprintf, or with chk set __vprintf_chk, through a variadic front. */
static int vprint_out(int chk, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = chk ? __vprintf_chk(1, fmt, ap) : vprintf(fmt, ap);
	va_end(ap);
	return n;
}

/* vfscanf, or with iso99 set __isoc99_vfscanf, through a variadic front. */
static int vscan(int iso99, FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = iso99 ? __isoc99_vfscanf(f, fmt, ap) : plain_vfscanf(f, fmt, ap);
	va_end(ap);
	return n;
}

static void every_call(void)
{
	const char *e = in_dir("e");
	struct iovec iov = {block, 10};
	struct stat st;
	struct stat64 st64;
	struct statx stx;
	fpos_t pos;
	fpos64_t pos64;
	char line[64], templates[8][PATH_MAX];
	int fd, fds[16], n = 0, i, value;
	void *map;
	FILE *f;

	CHECK((fds[n++] = open(e, O_CREAT | O_RDWR, 0644)) >= 0);
	CHECK((fds[n++] = open64(e, O_RDWR)) >= 0);
	CHECK((fds[n++] = openat(AT_FDCWD, e, O_RDWR)) >= 0);
	CHECK((fds[n++] = openat64(AT_FDCWD, e, O_RDWR)) >= 0);
	CHECK((fds[n++] = __open_2(e, O_RDWR)) >= 0);
	CHECK((fds[n++] = __open64_2(e, O_RDWR)) >= 0);
	CHECK((fds[n++] = __openat_2(AT_FDCWD, e, O_RDWR)) >= 0);
	CHECK((fds[n++] = __openat64_2(AT_FDCWD, e, O_RDWR)) >= 0);
	CHECK((fds[n++] = creat(e, 0644)) >= 0);
	CHECK((fds[n++] = creat64(e, 0644)) >= 0);
	fd = fds[0];
	CHECK((fds[n++] = dup(fd)) >= 0);
	CHECK((fds[n++] = dup2(fd, 100)) == 100);
	CHECK((fds[n++] = dup3(fd, 101, O_CLOEXEC)) == 101);
	CHECK((fds[n++] = fcntl(fd, F_DUPFD, 102)) >= 102);
	CHECK((fds[n++] = fcntl64(fd, F_DUPFD, 110)) >= 110);

	CHECK(write(fd, block, 10) == 10);
	CHECK(pwrite(fd, block, 10, 100) == 10);
	CHECK(pwrite64(fd, block, 10, 200) == 10);
	CHECK(writev(fd, &iov, 1) == 10);
	CHECK(pwritev(fd, &iov, 1, 300) == 10);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(lseek64(fd, 0, SEEK_SET) == 0);
	CHECK(read(fd, block, 10) == 10);
	CHECK(pread(fd, block, 10, 100) == 10);
	CHECK(pread64(fd, block, 10, 200) == 10);
	CHECK(readv(fd, &iov, 1) == 10);
	CHECK(preadv(fd, &iov, 1, 300) == 10);
	CHECK(__read_chk(fd, block, 10, sizeof(block)) == 10);
	CHECK(__pread_chk(fd, block, 10, 100, sizeof(block)) == 10);
	CHECK(__pread64_chk(fd, block, 10, 200, sizeof(block)) == 10);
	CHECK(fsync(fd) == 0 && fdatasync(fd) == 0);
	CHECK(ftruncate(fd, 4096) == 0 && ftruncate64(fd, 4096) == 0);
	CHECK((map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0)) != MAP_FAILED);
	CHECK(munmap(map, 4096) == 0);
	CHECK((map = mmap64(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0)) != MAP_FAILED);
	CHECK(munmap(map, 4096) == 0);
	CHECK(access(e, R_OK) == 0);
	CHECK(stat(e, &st) == 0 && lstat(e, &st) == 0 && fstat(fd, &st) == 0);
	CHECK(fstatat(AT_FDCWD, e, &st, 0) == 0);
	CHECK(stat64(e, &st64) == 0 && lstat64(e, &st64) == 0 && fstat64(fd, &st64) == 0);
	CHECK(statx(AT_FDCWD, e, 0, STATX_SIZE, &stx) == 0);
	CHECK(__xstat(1, e, &st) == 0 && __lxstat(1, e, &st) == 0 && __fxstat(1, fd, &st) == 0);
	CHECK(__xstat64(1, e, &st64) == 0 && __lxstat64(1, e, &st64) == 0 &&
	      __fxstat64(1, fd, &st64) == 0);
	f = fdopen(fds[1], "r");
	CHECK(f && fileno(f) == fds[1]);
	for (i = 0; i < n; i++)
		if (i != 1)
			CHECK(close(fds[i]) == 0);
	CHECK(fclose(f) == 0);

	CHECK(mkdir(in_dir("d"), 0755) == 0 && rmdir(in_dir("d")) == 0);
	CHECK(mkdir(in_dir("d2"), 0755) == 0 &&
	      unlinkat(AT_FDCWD, in_dir("d2"), AT_REMOVEDIR) == 0);
	CHECK((fd = creat(in_dir("u"), 0644)) >= 0 && close(fd) == 0 && unlink(in_dir("u")) == 0);
	CHECK((fd = creat(in_dir("u2"), 0644)) >= 0 && close(fd) == 0 &&
	      unlinkat(AT_FDCWD, in_dir("u2"), 0) == 0);
	CHECK((fd = creat(in_dir("r1"), 0644)) >= 0 && close(fd) == 0);
	CHECK(rename(in_dir("r1"), in_dir("r2")) == 0);
	CHECK(renameat(AT_FDCWD, in_dir("r2"), AT_FDCWD, in_dir("r3")) == 0);
	CHECK(renameat2(AT_FDCWD, in_dir("r3"), AT_FDCWD, in_dir("r4"), 0) == 0);
	CHECK((fd = creat(in_dir("t"), 0644)) >= 0 && close(fd) == 0);
	CHECK(truncate(in_dir("t"), 10) == 0 && truncate64(in_dir("t"), 0) == 0);
	CHECK(remove(in_dir("t")) == 0);
	CHECK(mkdir(in_dir("d3"), 0755) == 0 && remove(in_dir("d3")) == 0);
	for (i = 0; i < 8; i++)
		snprintf(templates[i], sizeof(templates[i]), "%s/m%dXXXXXX%s", dir, i,
			 i >= 4 ? ".s" : "");
	CHECK((fds[0] = mkstemp(templates[0])) >= 0 && (fds[1] = mkstemp64(templates[1])) >= 0);
	CHECK((fds[2] = mkostemp(templates[2], 0)) >= 0 &&
	      (fds[3] = mkostemp64(templates[3], 0)) >= 0);
	CHECK((fds[4] = mkstemps(templates[4], 2)) >= 0 &&
	      (fds[5] = mkstemps64(templates[5], 2)) >= 0);
	CHECK((fds[6] = mkostemps(templates[6], 2, 0)) >= 0 &&
	      (fds[7] = mkostemps64(templates[7], 2, 0)) >= 0);
	for (i = 0; i < 8; i++)
		CHECK(close(fds[i]) == 0);
	snprintf(templates[0], sizeof(templates[0]), "%s/dtXXXXXX", dir);
	CHECK(mkdtemp(templates[0]) && rmdir(templates[0]) == 0);
	CHECK((f = tmpfile()) && fclose(f) == 0 && (f = tmpfile64()) && fclose(f) == 0);

	CHECK((f = fopen(in_dir("s"), "w+")) && fclose(f) == 0);
	CHECK((f = fopen64(in_dir("s"), "w+")));
	CHECK((f = freopen(in_dir("s"), "w+", f)));
	CHECK((f = freopen64(in_dir("s"), "w+", f)));
	CHECK(fwrite("abc", 1, 3, f) == 3 && fputs("def", f) >= 0);
	CHECK(fputc('g', f) == 'g' && putc('h', f) == 'h');
	CHECK(vprint(f, "%s", "ijk") == 3 && fprintf(f, "%d %d %d %d\n", 42, 7, 8, 9) == 9);
	CHECK(__fprintf_chk(f, 1, "%s", "lm") == 2 && vprint_chk(f, "%s", "no") == 2);
	CHECK(fflush(f) == 0);
	CHECK(fseek(f, 0, SEEK_SET) == 0 && fseeko(f, 0, SEEK_SET) == 0);
	CHECK(fseeko64(f, 0, SEEK_SET) == 0 && ftell(f) == 0);
	rewind(f);
	CHECK(fread(line, 1, 3, f) == 3 && fgets(line, 4, f) && fgetc(f) == 'g');
	CHECK(getc(f) == 'h' && plain_fscanf(f, "ijk%d", &value) == 1 && value == 42);
	CHECK(vscan(0, f, " %d", &value) == 1 && value == 7);
	CHECK(__isoc99_fscanf(f, " %d", &value) == 1 && value == 8);
	CHECK(vscan(1, f, " %d", &value) == 1 && value == 9);
	CHECK(__fgets_chk(line, sizeof(line), sizeof(line), f) && !strcmp(line, "\n"));
	CHECK(__fread_chk(line, sizeof(line), 1, 4, f) == 4 && !memcmp(line, "lmno", 4));
	CHECK(fgetpos(f, &pos) == 0 && fgetpos64(f, &pos64) == 0);
	CHECK(fsetpos(f, &pos) == 0 && putw(0x41424344, f) == 0);
	CHECK(fsetpos64(f, &pos64) == 0 && getw(f) == 0x41424344);
	CHECK(fclose(f) == 0);
	CHECK(printf("p\n") == 2 && vprint_out(0, "%s\n", "q") == 2);
	CHECK(__printf_chk(1, "r\n") == 2 && vprint_out(1, "%s\n", "s") == 2);
	CHECK(fflush(stdout) == 0);
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

/* Takes number fd again with a pipe (not a file the runtime records), 100 bytes through it. */
static void pipe_on(int fd)
{
	int p[2];

	CHECK(pipe(p) == 0 && p[0] == fd);
	CHECK(write(p[1], block, 100) == 100 && read(p[0], block, 100) == 100);
	CHECK(close(p[0]) == 0 && close(p[1]) == 0);
}

static void reuse(void)
{
	FILE *f = fopen(in_dir("r1"), "w");
	int fd;

	CHECK(f && (fd = fileno(f)) >= 0 && fclose(f) == 0);
	pipe_on(fd);
	CHECK((fd = open(in_dir("r2"), O_RDWR | O_CREAT, 0644)) >= 0);
	CHECK((f = fdopen(fd, "r+")) && fclose(f) == 0);
	pipe_on(fd);
	CHECK((fd = open(in_dir("r3"), O_RDWR | O_CREAT, 0644)) >= 0);
	CHECK(syscall(SYS_close, fd) == 0);
	CHECK(open("/proc/self/stat", O_RDONLY) == fd && read(fd, block, 100) == 100);
	CHECK(close(fd) == 0);
}

static void runs(int apart)
{
	struct stat st;
	char buf[512];
	int fd, other, i;

#define APART() CHECK(!apart || fstat(other, &st) == 0)
	CHECK((other = open(in_dir("other"), O_CREAT | O_RDWR, 0644)) >= 0);
	CHECK((fd = open(in_dir("runs"), O_CREAT | O_RDWR | O_TRUNC, 0644)) >= 0);
	for (i = 0; i < 20; i++) {
		CHECK(write(fd, block, 512) == 512);
		APART();
	}
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	APART();
	for (i = 0; i < 24; i++) {
		CHECK(write(fd, block, 512) == 512);
		APART();
	}
	for (i = 0; i < 8; i++) {
		CHECK(pwrite(fd, block, 100, 20000 + 100 * i) == 100);
		APART();
	}
	for (i = 0; i < 4; i++) {
		CHECK(write(fd, block + 1, 300) == 300);
		APART();
	}
	for (i = 0; i < 16; i++) {
		CHECK(pread(fd, buf, 64, 64 * i) == 64);
		APART();
	}
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	APART();
	for (i = 0; i < 16; i++) {
		CHECK(read(fd, buf, 64) == 64);
		APART();
	}
	for (i = 0; i < 4; i++) {
		CHECK(read(fd, buf, 128) == 128);
		APART();
	}
#undef APART
	CHECK(close(fd) == 0 && close(other) == 0);
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
	else if (!strcmp(mode, "every"))
		every_call();
	else if (!strcmp(mode, "append"))
		append();
	else if (!strcmp(mode, "reuse"))
		reuse();
	else if (!strcmp(mode, "runs"))
		runs(n == 1);
	else {
		fprintf(stderr,
			"usage: posix-ops basic|failures|vectors|stdio|threads|fork|many|errno|"
			"append|reuse|runs DIR [N]\n");
		return 2;
	}
	return 0;
}
