/*
 * sync-time — writes 16 MiB to FILE, then fsync()s and fdatasync()s it,
 * and prints how long the writes and the syncs took by its own clock, so
 * that a test can tell where a tool counts a sync's time:
 *
 *	sync-time FILE      prints "write_s W" and "sync_s S" (seconds)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	double t0, t1, t2;
	int fd, i;

	if (argc != 2) {
		fprintf(stderr, "usage: sync-time FILE\n");
		return 2;
	}
	memset(buf, 'x', sizeof(buf));
	fd = open(argv[1], O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0)
		return 1;
	t0 = now();
	for (i = 0; i < 16; i++)
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			return 1;
	t1 = now();
	if (fsync(fd) || pwrite(fd, buf, 4096, 0) != 4096 || fdatasync(fd))
		return 1;
	t2 = now();
	close(fd);
	printf("write_s %.6f\nsync_s %.6f\n", t1 - t0, t2 - t1);
	return 0;
}
