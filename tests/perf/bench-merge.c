/*
 * bench-merge — the kernel merger's scaling: 64 to 4,096 synthetic rank
 * traces of 10^4 calls each, merged with a window of 200 (the paper's),
 * beside the baseline of reading every call once (summing the signatures):
 * the time per call should stay flat (linear), and 4,096 ranks take <= 10 s.
 *
 * The traces are SPMD with the irregularities of real jobs: a body of
 * open, writes, a barrier and close repeated; rank 0 first reads an input
 * deck (100 calls nobody else makes); every 16th rank does an extra call of
 * its own every 500 calls.
 *
 *	bench-merge [MAX_RANKS] [CALLS]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "kmerge.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t *trace(uint32_t rank, size_t calls, size_t *n)
{
	static const uint64_t body[10] = {11, 12, 13, 13, 13, 13, 13, 14, 15, 16};
	uint64_t *s = malloc((calls + 200) * sizeof(*s));
	size_t i = 0, k = 0;

	if (!s)
		return NULL;
	if (rank == 0)
		for (; i < 100; i++)
			s[i] = 900 + i % 4;
	while (i < calls + (rank == 0 ? 100 : 0)) {
		if (rank % 16 == 15 && k % 500 == 499)
			s[i++] = 5000 + rank;
		s[i++] = body[k++ % 10];
	}
	*n = i;
	return s;
}

int main(int argc, char **argv)
{
	uint32_t max = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 4096, nranks, r;
	size_t calls = argc > 2 ? strtoul(argv[2], NULL, 10) : 10000;
	double first_ns = 0;

	printf("bench-merge: %zu calls per rank, window 200\n\n", calls);
	printf("%8s %12s %10s %10s %12s %10s %8s\n", "ranks", "calls", "read s", "merge s",
	       "records", "ns/call", "vs 64");
	for (nranks = 64; nranks <= max; nranks *= 2) {
		struct kmerge_rank *ranks = calloc(nranks, sizeof(*ranks));
		struct kmerge m;
		size_t total = 0, i;
		uint64_t sum = 0;
		double t0, t1, t2, ns;

		for (r = 0; ranks && r < nranks; r++) {
			ranks[r].sig = trace(r, calls, &ranks[r].n);
			if (!ranks[r].sig)
				return 1;
			total += ranks[r].n;
		}
		if (!ranks)
			return 1;
		t0 = now();
		for (r = 0; r < nranks; r++)
			for (i = 0; i < ranks[r].n; i++)
				sum += ranks[r].sig[i];
		t1 = now();
		if (kmerge_run(ranks, nranks, 200, &m)) {
			fprintf(stderr, "bench-merge: out of memory\n");
			return 1;
		}
		t2 = now();
		ns = (t2 - t1) / (double)total * 1e9;
		first_ns = first_ns ? first_ns : ns;
		printf("%8u %12zu %10.3f %10.3f %12zu %10.1f %8.2f%s\n", nranks, total, t1 - t0,
		       t2 - t1, m.nrec, ns, ns / first_ns, sum == 42 ? " " : "");
		kmerge_free(&m);
		for (r = 0; r < nranks; r++)
			free((void *)ranks[r].sig);
		free(ranks);
	}
	printf("\ntarget: linear (ns/call flat), 4096 ranks merged in <= 10 s\n");
	return 0;
}
