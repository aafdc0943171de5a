/*
 * t4101-merge — the kernel's trace merger on sequences of known shape:
 * identical ranks merge into one record per call; a head rank's extra
 * calls (an input deck) stand alone and the rest still merges; a rank
 * whose calls come in another order (token passing) is kept in its order;
 * calls without a match anywhere go out at once; every rank's calls come
 * out exactly once, in its order, whatever the window.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kmerge.h"
#include "tap.h"

#define RANKS 8
#define CALLS 300

static uint64_t seq[RANKS][CALLS + 64];
static struct kmerge_rank ranks[RANKS];

static const uint32_t *members(const struct kmerge *m, const struct kmerge_record *r, uint32_t *all)
{
	uint32_t i;

	if (r->first != UINT32_MAX)
		return m->members + r->first;
	for (i = 0; i < RANKS; i++)
		all[i] = i;
	return all;
}

/* Every rank's calls come out once each and in order: replaying the records gives the input. */
static int faithful(const struct kmerge *m)
{
	size_t pos[RANKS] = {0}, i;
	uint32_t all[RANKS], k;

	for (i = 0; i < m->nrec; i++) {
		const uint32_t *who = members(m, &m->rec[i], all);

		for (k = 0; k < m->rec[i].nranks; k++) {
			uint32_t r = who[k];

			if (r >= RANKS || pos[r] >= ranks[r].n ||
			    ranks[r].sig[pos[r]] != m->rec[i].sig)
				return 0;
			pos[r]++;
		}
	}
	for (k = 0; k < RANKS; k++)
		if (pos[k] != ranks[k].n)
			return 0;
	return 1;
}

static size_t whole(const struct kmerge *m)
{
	size_t i, n = 0;

	for (i = 0; i < m->nrec; i++)
		n += m->rec[i].nranks == RANKS;
	return n;
}

int main(void)
{
	struct kmerge m;
	uint32_t r, i, windows[] = {1, 4, 200}, w;

	tap_plan(17);

	/* SPMD: open, 100 x (write, barrier), close; every rank alike. */
	for (r = 0; r < RANKS; r++) {
		for (i = 0; i < CALLS; i++)
			seq[r][i] = i == 0 ? 1 : i == CALLS - 1 ? 4 : i % 2 ? 2 : 3;
		ranks[r] = (struct kmerge_rank){seq[r], CALLS};
	}
	is_int(kmerge_run(ranks, RANKS, 200, &m), 0, "identical ranks merge");
	is_int((long long)m.nrec, CALLS, "into one record per call");
	is_int((long long)whole(&m), CALLS, "each made by every rank");
	is_int((long long)m.nmembers, 0, "with no rank lists kept");
	kmerge_free(&m);

	/* Rank 0 reads an input deck first: 50 calls nobody else makes. */
	for (i = CALLS + 49; i >= 50; i--)
		seq[0][i] = seq[0][i - 50];
	for (i = 0; i < 50; i++)
		seq[0][i] = 100 + i % 3;
	ranks[0].n = CALLS + 50;
	is_int(kmerge_run(ranks, RANKS, 200, &m), 0, "a head rank's extra calls");
	is_int((long long)m.nrec, CALLS + 50, "stand alone, the rest still merges");
	is_int((long long)whole(&m), CALLS, "every common call made by all ranks together");
	ok(faithful(&m), "and every rank's calls are there, in order");
	kmerge_free(&m);

	/* Token passing: rank r writes at its turn r among barriers (write r, then barrier). */
	for (r = 0; r < RANKS; r++) {
		uint32_t n = 0, t;

		for (t = 0; t < RANKS; t++) {
			if (t == r)
				seq[r][n++] = 1000 + t; /* its write in the token's turn */
			seq[r][n++] = 7;		/* the barrier that passes the token */
		}
		ranks[r] = (struct kmerge_rank){seq[r], n};
	}
	is_int(kmerge_run(ranks, RANKS, 200, &m), 0, "token passing");
	is_int((long long)whole(&m), RANKS, "the barriers merge");
	is_int((long long)m.nrec, 2 * RANKS, "the writes stand alone, one record each");
	ok(faithful(&m), "each rank's order kept");
	kmerge_free(&m);

	/* Nothing matches: every call goes out on its own, every rank's order kept. */
	for (w = 0; w < sizeof(windows) / sizeof(windows[0]); w++) {
		for (r = 0; r < RANKS; r++) {
			for (i = 0; i < CALLS; i++)
				seq[r][i] = (uint64_t)r << 32 | (uint64_t)(rand() % 5);
			ranks[r] = (struct kmerge_rank){seq[r], CALLS};
		}
		if (kmerge_run(ranks, RANKS, windows[w], &m)) {
			ok(0, "window %u: merge failed", windows[w]);
			continue;
		}
		ok(faithful(&m) && m.nrec == (size_t)RANKS * CALLS,
		   "window %u: unmatched calls each alone, in order", windows[w]);
		kmerge_free(&m);
	}
	/* No ranks, empty ranks. */
	ranks[0].n = 0;
	is_int(kmerge_run(ranks, 1, 200, &m), 0, "a rank without calls merges to nothing");
	is_int((long long)m.nrec, 0, "no record");
	kmerge_free(&m);
	return tap_done();
}
