/*
 * kmerge — merges per-rank call sequences into one SPMD sequence, the
 * first step of an I/O kernel (papers/io-kernel-generation, Algorithm 1).
 *
 * Each rank's calls arrive as signatures (a hash of what must match for
 * two calls to be "the same call": its name and significant arguments).
 * The merger walks all ranks at once, looking a window of `window` calls
 * ahead in each: when every rank's next call has the same signature they
 * merge into one record; otherwise the next call whose matches elsewhere
 * are farthest away (or missing) goes out first, with every rank whose
 * next call is the same, so that calls with near matches wait to merge.
 * Every rank's calls come out in that rank's order, each exactly once.
 *
 * Cost: linear in the number of calls when ranks mostly agree (each step
 * looks at every rank's next call and, per distinct next signature, asks
 * each rank's window index where that signature next appears); each rank's
 * window is indexed by a hash table, so the look-ahead costs no scan.
 */
#ifndef KMERGE_H
#define KMERGE_H

#include <stddef.h>
#include <stdint.h>

/* One rank's calls: signatures in order. */
struct kmerge_rank {
	const uint64_t *sig;
	size_t n;
};

/* One merged call: its signature and the ranks that make it. */
struct kmerge_record {
	uint64_t sig;
	uint32_t nranks;   /* how many ranks share it */
	uint32_t first;	   /* into kmerge.members: those ranks, ascending; UINT32_MAX
			      when every rank makes it (no list is kept) */
	uint64_t position; /* where the call stands in the first of them */
};

struct kmerge {
	struct kmerge_record *rec;
	size_t nrec;
	uint32_t *members; /* rank lists of the records, back to back */
	size_t nmembers;
};

/*
 * Merges nranks sequences with a look-ahead of window calls per rank (the
 * paper used 200).  0, or -ENOMEM (out is then empty).
 */
int kmerge_run(const struct kmerge_rank *ranks, uint32_t nranks, uint32_t window,
	       struct kmerge *out);
void kmerge_free(struct kmerge *m);

#endif
