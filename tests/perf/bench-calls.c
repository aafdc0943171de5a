/*
 * bench-calls — times single I/O calls in a tight loop: write, read and
 * lseek on a tmpfs file, stat, and fwrite to a stream; 1-byte writes
 * scattered over 4,096 places 64 bytes apart, in a shuffled order (the
 * runtime's rewrite tracking then holds 4,096 ranges); then open+close of
 * that file (plain, and with O_CREAT on the file that is there), and ftell
 * and fseek on the stream.  Prints one line per
 * call: name and median nanoseconds per call over many batches.  Run it
 * plainly and under libioatlas (tests/perf/run-bench does both) to see the
 * runtime's added cost per call.
 *
 *	bench-calls DIR [CALLS_PER_BATCH] [BATCHES]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench-util.h"

enum op {
	OP_WRITE,
	OP_READ,
	OP_LSEEK,
	OP_STAT,
	OP_FWRITE,
	OP_WRITE_SCATTERED,
	OP_OPEN,
	OP_OPEN_CREAT,
	OP_FTELL,
	OP_FSEEK,
	OP_COUNT
};
static const char *const op_names[] = {
	"write",	   "read",	 "lseek",	"stat",	 "fwrite",
	"write_scattered", "open_close", "creat_close", "ftell", "fseek"};

int main(int argc, char **argv)
{
	long per_batch = argc > 2 ? strtol(argv[2], NULL, 10) : 20000;
	long batches = argc > 3 ? strtol(argv[3], NULL, 10) : 51;
	char path[4096], byte = 'x';
	double *samples = calloc((size_t)batches, sizeof(double));
	struct stat st;
	FILE *f;
	int fd, op;
	long b, i;

	if (argc < 2 || !samples || per_batch <= 0 || batches <= 0) {
		fprintf(stderr, "usage: bench-calls DIR [CALLS_PER_BATCH] [BATCHES]\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/bench-calls.dat", argv[1]);
	fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
	f = fopen(path, "r+");
	if (fd < 0 || !f)
		return 1;
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	for (op = 0; op < OP_COUNT; op++) {
		for (b = 0; b < batches; b++) {
			double t0;

			lseek(fd, 0, SEEK_SET);
			rewind(f);
			t0 = now_ns();
			for (i = 0; i < per_batch; i++) {
				switch (op) {
				case OP_WRITE:
					if (pwrite(fd, &byte, 1, i & 4095) != 1)
						return 1;
					break;
				case OP_READ:
					if (pread(fd, &byte, 1, i & 4095) != 1)
						return 1;
					break;
				case OP_LSEEK:
					if (lseek(fd, i & 4095, SEEK_SET) < 0)
						return 1;
					break;
				case OP_STAT:
					if (stat(path, &st))
						return 1;
					break;
				case OP_WRITE_SCATTERED:
					/* An odd factor: i -> slot shuffles the 4,096 slots. */
					if (pwrite(fd, &byte, 1,
						   (1 << 20) + ((i * 2654435761u) & 4095) * 64) !=
					    1)
						return 1;
					break;
				case OP_OPEN:
				case OP_OPEN_CREAT: {
					int other = op == OP_OPEN
							    ? open(path, O_RDONLY)
							    : open(path, O_RDWR | O_CREAT, 0644);

					if (other < 0 || close(other))
						return 1;
					break;
				}
				case OP_FTELL:
					if (ftell(f) < 0)
						return 1;
					break;
				case OP_FSEEK:
					if (fseek(f, i & 4095, SEEK_SET))
						return 1;
					break;
				case OP_FWRITE:
					if (fwrite(&byte, 1, 1, f) != 1)
						return 1;
					if ((i & 4095) == 4095)
						rewind(f);
					break;
				}
			}
			samples[b] = (now_ns() - t0) / per_batch;
		}
		qsort(samples, (size_t)batches, sizeof(double), cmp_double);
		printf("%s %.1f\n", op_names[op], samples[batches / 2]);
	}
	fclose(f);
	close(fd);
	unlink(path);
	free(samples);
	return 0;
}
