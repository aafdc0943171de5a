/*
 * bench-patterns — the access patterns of issue 20's table, each timed over
 * all its calls (warm-up included: a trace that changes its mind after the
 * first thousands of calls pays for them here), on a file in DIR:
 *
 *	seqwrite   write() of 64 B at consecutive offsets
 *	randread   lseek() to a xorshift64 offset (4 KiB-aligned, 64 MiB file),
 *	           then read() of 64 B: one pair is one "call"
 *	seqpread   pread() of 64 B at consecutive offsets
 *	fwrite     fwrite() of 64 B to a buffered stream
 *
 * Prints one line per pattern: name and nanoseconds per call (per pair for
 * randread), the mean over N calls.  Run it plainly and under each runtime
 * (tests/perf/run-bench-trace alternates them) to get the added cost.
 * PATTERN runs that one only (for callgrind: instructions per call).
 *
 *	bench-patterns DIR [N [PATTERN]]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench-util.h"

#define FILE_BYTES (64L << 20)

int main(int argc, char **argv)
{
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : 1000000, i;
	const char *only = argc > 3 ? argv[3] : NULL;
	static char buf[4096];
	uint64_t x = 88172645463325292ull;
	char path[4096];
	double t0;
	FILE *f;
	int fd;

	if (argc < 2 || n <= 0 || n * 64 > FILE_BYTES) {
		fprintf(stderr, "usage: bench-patterns DIR [N <= %ld [PATTERN]]\n",
			FILE_BYTES / 64);
		return 2;
	}
	snprintf(path, sizeof(path), "%s/bench-patterns.dat", argv[1]);
	fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, FILE_BYTES) != 0)
		return 1;

	t0 = now_ns();
	for (i = 0; (!only || !strcmp(only, "seqwrite")) && i < n; i++)
		if (write(fd, buf, 64) != 64)
			return 1;
	printf("seqwrite %.1f\n", (now_ns() - t0) / (double)n);

	t0 = now_ns();
	for (i = 0; (!only || !strcmp(only, "randread")) && i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (lseek(fd, (off_t)(x % (FILE_BYTES / 4096)) * 4096, SEEK_SET) < 0 ||
		    read(fd, buf, 64) != 64)
			return 1;
	}
	printf("randread %.1f\n", (now_ns() - t0) / (double)n);

	t0 = now_ns();
	for (i = 0; (!only || !strcmp(only, "seqpread")) && i < n; i++)
		if (pread(fd, buf, 64, (off_t)i * 64) != 64)
			return 1;
	printf("seqpread %.1f\n", (now_ns() - t0) / (double)n);

	f = fdopen(fd, "r+");
	if (!f)
		return 1;
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	rewind(f);
	t0 = now_ns();
	for (i = 0; (!only || !strcmp(only, "fwrite")) && i < n; i++)
		if (fwrite(buf, 64, 1, f) != 1)
			return 1;
	printf("fwrite %.1f\n", (now_ns() - t0) / (double)n);
	return fclose(f) != 0;
}
