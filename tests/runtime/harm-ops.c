/*
 * harm-ops — programs that the runtime must not harm (tests t1020 to t1026):
 * each pattern works in DIR, prints what the calls returned where a test
 * compares a run with and without the runtime, and exits 0 when every call
 * behaved as it must.
 *
 *	harm-ops locks DIR N     one thread holds DIR/locked's stream lock
 *	                         (flockfile) while it does POSIX and STDIO I/O;
 *	                         two others ftell, ftello, fseek and fprintf on that
 *	                         stream and pwrite: N rounds each (counts below)
 *	harm-ops create DIR      open(O_CREAT, 0444), creat(0444), openat(O_CREAT|
 *	                         O_TRUNC, 0444) of new files, then the same on the
 *	                         files now there, and a create in a folder the user
 *	                         cannot write: prints each result, errno and mode
 *	harm-ops exit-signal DIR USEC SIG   a busy POSIX and STDIO loop; after USEC
 *	                         microseconds SIG (ALRM or TERM) arrives and its
 *	                         handler calls exit(0)
 *	harm-ops vfork DIR       DIR/parent and DIR/other opened, 100 bytes each;
 *	                         a vfork child dup2s, closes and opens, then _exit;
 *	                         another does the same and execs true; posix_spawn
 *	                         with dup2 and close actions; after each the parent
 *	                         writes 100 bytes to both (4 writes each in all)
 *	harm-ops errno DIR       fscanf, fgets, fread, fgetc on stdin, a pipe, a FIFO
 *	                         and a regular file, errno set to a marker before
 *	                         each: prints each result and the errno after it
 *	harm-ops sleep DIR MS    writes DIR/slept-<pid> and sleeps MS milliseconds
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static const char *dir;

#define CHECK(cond)                                                                       \
	do {                                                                              \
		if (!(cond)) {                                                            \
			fprintf(stderr, "harm-ops: %s:%d: check failed: %s (errno %d)\n", \
				__FILE__, __LINE__, #cond, errno);                        \
			exit(1);                                                          \
		}                                                                         \
	} while (0)

static const char *in_dir(const char *name)
{
	static _Thread_local char path[4][4096];
	static _Thread_local int next;
	char *p = path[next++ % 4];

	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	return p;
}

/* --- locks: the stream's lock and the runtime's, taken in both orders */

static FILE *locked;
static int posix_fd;
static int rounds;

static void *holder(void *arg)
{
	FILE *other = fopen(in_dir("other"), "w");
	char byte;
	int i;

	(void)arg;
	CHECK(other);
	for (i = 0; i < rounds; i++) {
		flockfile(locked);
		/* POSIX and STDIO I/O while the stream's lock is held. */
		CHECK(pwrite(posix_fd, "h", 1, i % 4096) == 1);
		CHECK(pread(posix_fd, &byte, 1, 0) == 1);
		CHECK(fprintf(other, "%d\n", i % 10) == 2);
		CHECK(fwrite("h", 1, 1, locked) == 1);
		CHECK(ftell(locked) >= 0);
		funlockfile(locked);
	}
	CHECK(fclose(other) == 0);
	return NULL;
}

static void *seeker(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < rounds; i++) {
		CHECK(ftell(locked) >= 0);
		CHECK(ftello(locked) >= 0);
		CHECK(fseek(locked, 0, SEEK_END) == 0);
		CHECK(fprintf(locked, "s") == 1);
		CHECK(pwrite(posix_fd, "s", 1, i % 4096) == 1);
	}
	return NULL;
}

/*
 * Counts: DIR/locked STDIO_SEEKS 2 x N (fseek), ftell in the trace N
 * (holder's) + 2 x N (ftello is not intercepted), STDIO_WRITES N + 2N; DIR/posix
 * POSIX_WRITES N + 2N, POSIX_READS N; DIR/other STDIO_WRITES N.
 */
static void locks(int n)
{
	pthread_t threads[3];
	int i;

	rounds = n;
	locked = fopen(in_dir("locked"), "w+");
	posix_fd = open(in_dir("posix"), O_CREAT | O_RDWR | O_TRUNC, 0644);
	CHECK(locked && posix_fd >= 0);
	CHECK(pwrite(posix_fd, "x", 1, 0) == 1);
	CHECK(pthread_create(&threads[0], NULL, holder, NULL) == 0);
	for (i = 1; i < 3; i++)
		CHECK(pthread_create(&threads[i], NULL, seeker, NULL) == 0);
	for (i = 0; i < 3; i++)
		CHECK(pthread_join(threads[i], NULL) == 0);
	CHECK(fclose(locked) == 0 && close(posix_fd) == 0);
}

/* --- create: files made read-only by the call that creates them */

static void report_open(const char *what, int fd)
{
	int err = errno;
	struct stat st;

	if (fd >= 0) {
		CHECK(fstat(fd, &st) == 0);
		printf("%s: ok mode %04o size %lld\n", what, (unsigned)(st.st_mode & 07777),
		       (long long)st.st_size);
		CHECK(close(fd) == 0);
	} else {
		printf("%s: -1 %s\n", what, strerrorname_np(err));
	}
}

static void report_path(const char *name)
{
	struct stat st;

	if (stat(in_dir(name), &st))
		printf("%s: %s\n", name, strerrorname_np(errno));
	else
		printf("%s: mode %04o size %lld\n", name, (unsigned)(st.st_mode & 07777),
		       (long long)st.st_size);
}

static void create(void)
{
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY), fd;

	CHECK(dirfd >= 0);
	umask(022);
	fd = open(in_dir("ro-open"), O_CREAT | O_WRONLY, 0444);
	if (fd >= 0)
		CHECK(write(fd, "data\n", 5) == 5);
	report_open("open O_CREAT|O_WRONLY 0444, new", fd);
	report_open("creat 0444, new", creat(in_dir("ro-creat"), 0444));
	report_open("openat O_CREAT|O_RDWR|O_TRUNC 0444, new",
		    openat(dirfd, "ro-openat", O_CREAT | O_RDWR | O_TRUNC, 0444));
	report_open("open O_CREAT|O_RDONLY 0444, new",
		    open(in_dir("ro-rdonly"), O_CREAT | O_RDONLY, 0444));
	report_open("open O_CREAT|O_WRONLY 0444, there",
		    open(in_dir("ro-open"), O_CREAT | O_WRONLY, 0444));
	report_open("creat 0444, there", creat(in_dir("ro-creat"), 0444));
	report_open("open O_CREAT|O_RDONLY 0444, there",
		    open(in_dir("ro-open"), O_CREAT | O_RDONLY, 0444));
	report_open("open O_CREAT|O_WRONLY 0644, in a read-only folder",
		    open(in_dir("closed/new"), O_CREAT | O_WRONLY, 0644));
	report_open("open O_CREAT|O_RDONLY 0644, a folder",
		    open(in_dir("closed"), O_CREAT | O_RDONLY, 0644));
	report_path("ro-open");
	report_path("ro-creat");
	report_path("ro-openat");
	report_path("ro-rdonly");
	report_path("closed/new");
	CHECK(close(dirfd) == 0);
}

/* --- exit-signal: exit() from a signal handler in the middle of I/O */

static void exit_now(int sig)
{
	(void)sig;
	exit(0);
}

static void exit_signal(long usec, const char *sig_name)
{
	int sig = !strcmp(sig_name, "TERM") ? SIGTERM : SIGALRM;
	struct sigevent ev;
	struct itimerspec when = {{0, 0}, {usec / 1000000, (usec % 1000000) * 1000}};
	struct sigaction sa;
	timer_t timer;
	FILE *f = fopen(in_dir("busy-stdio"), "w");
	int fd = open(in_dir("busy-posix"), O_CREAT | O_RDWR | O_TRUNC, 0644);
	char buf[64] = {0};
	long i;

	CHECK(f && fd >= 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = exit_now;
	CHECK(sigaction(sig, &sa, NULL) == 0);
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = sig;
	CHECK(timer_create(CLOCK_MONOTONIC, &ev, &timer) == 0);
	CHECK(timer_settime(timer, 0, &when, NULL) == 0);
	/* Mostly buffered writes: user time, where the signal lands anywhere. */
	for (i = 0;; i++) {
		CHECK(fwrite(buf, 1, 8, f) == 8);
		if (i % 256 == 0) {
			CHECK(write(fd, buf, sizeof(buf)) == sizeof(buf));
			CHECK(pread(fd, buf, sizeof(buf), 0) == sizeof(buf));
		}
		if (i % 4096 == 0) {
			CHECK(lseek(fd, 0, SEEK_SET) == 0);
			CHECK(fflush(f) == 0 && ftell(f) >= 0);
			CHECK(fseek(f, 0, SEEK_SET) == 0);
		}
	}
}

/* --- vfork: a child sharing the parent's memory changes its descriptors */

static void write_both(int a, int b)
{
	char block[100];

	memset(block, 'p', sizeof(block));
	CHECK(write(a, block, sizeof(block)) == sizeof(block));
	CHECK(write(b, block, sizeof(block)) == sizeof(block));
}

static void wait_ok(pid_t pid)
{
	int status;

	CHECK(pid > 0);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void vforked(void)
{
	char *const argv[] = {"true", NULL};
	posix_spawn_file_actions_t actions;
	const char *child_path = in_dir("child");
	int parent = open(in_dir("parent"), O_CREAT | O_WRONLY | O_TRUNC, 0644);
	int other = open(in_dir("other"), O_CREAT | O_WRONLY | O_TRUNC, 0644);
	pid_t pid;

	CHECK(parent >= 0 && other >= 0);
	write_both(parent, other);

	/* The child's descriptor table is its own; the memory is the parent's. */
	pid = vfork();
	if (pid == 0) {
		int fd;

		if (dup2(other, parent) < 0 || close(other))
			_exit(1);
		fd = open(child_path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		if (fd < 0 || write(fd, "c", 1) != 1 || dup2(fd, 1) < 0 || close(fd))
			_exit(1);
		_exit(0);
	}
	wait_ok(pid);
	write_both(parent, other);

	pid = vfork();
	if (pid == 0) {
		if (dup2(parent, other) < 0 || close(parent))
			_exit(1);
		execvp("true", argv);
		_exit(1);
	}
	wait_ok(pid);
	write_both(parent, other);

	CHECK(posix_spawn_file_actions_init(&actions) == 0);
	CHECK(posix_spawn_file_actions_adddup2(&actions, other, parent) == 0);
	CHECK(posix_spawn_file_actions_addclose(&actions, other) == 0);
	CHECK(posix_spawn_file_actions_addopen(&actions, 5, child_path, O_WRONLY, 0) == 0);
	CHECK(posix_spawnp(&pid, "true", &actions, NULL, argv, environ) == 0);
	CHECK(posix_spawn_file_actions_destroy(&actions) == 0);
	wait_ok(pid);
	write_both(parent, other);
	CHECK(close(parent) == 0 && close(other) == 0);
}

/* --- errno: the runtime's own calls leave the program's errno alone */

#define MARK 4242

static void scan_stream(const char *what, FILE *f)
{
	char line[64];
	int x = 0, r;

	errno = MARK;
	r = fscanf(f, "%d", &x);
	printf("%s fscanf: %d %d errno %d\n", what, r, x, errno);
	errno = MARK;
	r = fgetc(f);
	printf("%s fgetc: %d errno %d\n", what, r, errno);
	errno = MARK;
	r = fgets(line, sizeof(line), f) != NULL;
	printf("%s fgets: %d '%.*s' errno %d\n", what, r, (int)strcspn(line, "\n"), line, errno);
	errno = MARK;
	r = (int)fread(line, 1, 4, f);
	printf("%s fread: %d errno %d\n", what, r, errno);
	errno = 0;
	r = fscanf(f, "%d", &x);
	printf("%s fscanf: %d %d errno %d\n", what, r, x, errno);
	errno = MARK;
	r = fscanf(f, "%d", &x);
	printf("%s fscanf at the end: %d errno %d\n", what, r, errno);
}

static const char errno_text[] = "12 hello\nworld\n34\n";

static void errno_kept(void)
{
	int fds[2];
	FILE *f;
	pid_t pid;

	scan_stream("stdin", stdin);

	CHECK(pipe(fds) == 0);
	CHECK(write(fds[1], errno_text, strlen(errno_text)) == (ssize_t)strlen(errno_text));
	CHECK(close(fds[1]) == 0);
	f = fdopen(fds[0], "r");
	CHECK(f);
	scan_stream("pipe", f);
	CHECK(fclose(f) == 0);

	CHECK(mkfifo(in_dir("fifo"), 0600) == 0);
	pid = fork();
	if (pid == 0) {
		int fd = open(in_dir("fifo"), O_WRONLY);

		_exit(fd < 0 || write(fd, errno_text, strlen(errno_text)) < 0);
	}
	f = fopen(in_dir("fifo"), "r");
	CHECK(f);
	scan_stream("fifo", f);
	CHECK(fclose(f) == 0);
	wait_ok(pid);

	f = fopen(in_dir("regular"), "w+");
	CHECK(f && fputs(errno_text, f) >= 0 && fseek(f, 0, SEEK_SET) == 0);
	scan_stream("file", f);
	CHECK(fclose(f) == 0);
}

static void sleep_ms(long ms)
{
	char name[64];
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
	int fd;

	snprintf(name, sizeof(name), "slept-%d", (int)getpid());
	fd = open(in_dir(name), O_CREAT | O_WRONLY | O_TRUNC, 0644);
	CHECK(fd >= 0 && write(fd, "z", 1) == 1 && close(fd) == 0);
	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 2 ? argv[1] : "";
	long n = argc > 3 ? strtol(argv[3], NULL, 10) : 0;

	dir = argc > 2 ? argv[2] : ".";
	if (!strcmp(mode, "locks"))
		locks((int)n);
	else if (!strcmp(mode, "create"))
		create();
	else if (!strcmp(mode, "exit-signal") && argc > 4)
		exit_signal(n, argv[4]);
	else if (!strcmp(mode, "vfork"))
		vforked();
	else if (!strcmp(mode, "errno"))
		errno_kept();
	else if (!strcmp(mode, "sleep"))
		sleep_ms(n);
	else {
		fprintf(stderr, "usage: harm-ops locks|create|exit-signal|vfork|errno|sleep DIR "
				"[N] [SIG]\n");
		return 2;
	}
	return 0;
}
