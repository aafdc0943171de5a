/*
 * t0010-trace-bounds — the trace codec bounds what a few crafted bytes can
 * make it do (the raw regions come from tests/common/craft-log.c and live
 * in the fuzzers' corpus): a loop of 2^62 iterations around nothing is
 * refused when the rank is opened; a loop of 2^62 calls is counted, not
 * walked, refused by a caller's bound with -E2BIG before any call, and
 * expanded without a bound only as far as the callback asks; a group whose
 * ranks wrap around 2^64 is refused when decoded, so regrouping never
 * looks a rank up past the group's tables.  A degraded trace (seed-6, from
 * the runtime: 1,407 calls of which the first 1,024 kept exactly) opens with
 * its summary, whose counts must agree with the header: a summary without
 * the flag, or claiming more calls than the exact ones leave, is refused.
 * A version 2 region (seed-5) still opens, without a summary.  The order
 * of a call's gaps (version 4) puts the short gaps where the order says,
 * and an order that does not cover the call's executions exactly, names a
 * rank or call the trace lacks, or repeats itself is refused; regrouped,
 * ranks share the mean of their orders, and a rank with times of its own
 * keeps its own order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "ioa_trace.h"
#include "tap.h"

#ifndef IOA_FUZZ_TRACE_CORPUS
#error "IOA_FUZZ_TRACE_CORPUS must name the trace corpus"
#endif

static unsigned char data[1 << 16];

static size_t slurp(const char *name)
{
	char path[4096];
	FILE *f;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", IOA_FUZZ_TRACE_CORPUS, name);
	if (!(f = fopen(path, "rb")))
		return 0;
	len = fread(data, 1, sizeof(data), f);
	fclose(f);
	return len;
}

static int stop_after_ten(void *arg, const struct ioa_trace_event *e)
{
	unsigned long *n = arg;

	(void)e;
	return ++*n == 10;
}

/* One gap the first calls were given back, at most ten of them. */
struct gaps {
	double gap[10];
	unsigned n;
};

static int keep_gap(void *arg, const struct ioa_trace_event *e)
{
	struct gaps *g = arg;

	g->gap[g->n++] = e->gap;
	return g->n == 10;
}

/*
 * The times of crafted-loop-calls' one call (2^62 writes), rewritten: the
 * gaps of its first `low` writes in bin 40, of the others in bin 60, and
 * the order that says so: `low` writes with a short mean, then the rest.
 * bad names one thing to get wrong.
 */
enum bad { GOOD, SUM, OWNER, LEAF, NO_SEGS, EMPTY_SEG, NEGATIVE, TWICE, TRAILING };

static int set_times(struct ioa_trace_group *g, uint64_t low, int64_t short_mean, enum bad bad)
{
	struct ioa_buf b = IOA_BUF_INIT(1 << 16);
	uint64_t all = (uint64_t)1 << 62;
	unsigned k, entries = bad == TWICE ? 2 : 1;
	int rc = ioa_enc_uvar(&b, 1);

	rc = rc ? rc : ioa_enc_uvar(&b, 1); /* durations: one bin */
	rc = rc ? rc : ioa_enc_uvar(&b, 40);
	rc = rc ? rc : ioa_enc_uvar(&b, all);
	rc = rc ? rc : ioa_enc_uvar(&b, 2); /* gaps: two bins */
	rc = rc ? rc : ioa_enc_uvar(&b, 40);
	rc = rc ? rc : ioa_enc_uvar(&b, low);
	rc = rc ? rc : ioa_enc_uvar(&b, 20);
	rc = rc ? rc : ioa_enc_uvar(&b, all - low);
	rc = rc ? rc : ioa_enc_uvar(&b, 0); /* overrides */
	rc = rc ? rc : ioa_enc_uvar(&b, entries);
	for (k = 0; k < entries && !rc; k++) {
		rc = ioa_enc_uvar(&b, bad == OWNER ? 2 : 0);
		rc = rc ? rc : ioa_enc_uvar(&b, bad == LEAF ? 1 : 0);
		rc = rc ? rc : ioa_enc_uvar(&b, bad == NO_SEGS ? 0 : 2);
		if (bad == NO_SEGS)
			continue;
		rc = rc ? rc : ioa_enc_uvar(&b, bad == EMPTY_SEG ? 0 : low);
		rc = rc ? rc : ioa_enc_svar(&b, bad == NEGATIVE ? -5 : short_mean);
		rc = rc ? rc : ioa_enc_uvar(&b, all - low + (bad == SUM));
		rc = rc ? rc : ioa_enc_svar(&b, 1000 - short_mean);
	}
	if (bad == TRAILING)
		rc = rc ? rc : ioa_enc_uvar(&b, 0);
	free(g->times);
	g->times = (unsigned char *)ioa_buf_detach(&b, &g->times_len);
	return rc;
}

/* What a rank's first call with an order of gaps keeps of it (n 0: none). */
struct order_seen {
	uint32_t n;
	uint64_t execs0;
	double mean0, mean1;
};

static int see_order(void *arg, unsigned depth, const struct ioa_trace_leaf *leaf)
{
	struct order_seen *o = arg;

	(void)depth;
	if (o->n || leaf->order.n < 2)
		return 0;
	*o = (struct order_seen){leaf->order.n, leaf->order.execs[0], leaf->order.mean[0],
				 leaf->order.mean[1]};
	return 0;
}

static struct order_seen first_order(const struct ioa_trace *t, uint32_t rank)
{
	struct ioa_trace_visitor v = {NULL, NULL, see_order};
	struct order_seen o = {0, 0, 0, 0};
	struct ioa_trace_rank r;

	if (ioa_trace_rank_open(t, rank, &r) == 0) {
		ioa_trace_walk(&r, &v, &o);
		ioa_trace_rank_close(&r);
	}
	return o;
}

/* Opens rank 0 with its times crafted as set_times makes them; the result. */
static int open_crafted(struct ioa_trace *t, enum bad bad)
{
	struct ioa_trace_rank r;
	int rc = set_times(&t->groups[0], 5, 100, bad);

	rc = rc ? rc : ioa_trace_rank_open(t, 0, &r);
	if (!rc)
		ioa_trace_rank_close(&r);
	return rc;
}

int main(void)
{
	struct ioa_trace t = {0};
	struct ioa_trace_rank r;
	unsigned long n = 0;
	size_t len;

	len = slurp("crafted-loop-empty");
	ok(len > 0, "the loop around nothing is in the corpus");
	is_int(ioa_trace_decode(&t, data, len), 0, "it decodes (the bytes are well formed)");
	is_int(ioa_trace_rank_open(&t, 0, &r), -EINVAL, "but a loop around no call is refused");
	ioa_trace_free(&t);

	len = slurp("crafted-loop-calls");
	ok(len > 0, "the loop of 2^62 writes is in the corpus");
	is_int(ioa_trace_decode(&t, data, len), 0, "it decodes");
	is_int(ioa_trace_rank_open(&t, 0, &r), 0, "its rank opens");
	ok(r.calls == (uint64_t)1 << 62, "its calls are counted, not walked");
	is_int(ioa_trace_expand(&r, 1000000, stop_after_ten, &n), -E2BIG,
	       "a bound of a million calls refuses it");
	is_int((int)n, 0, "before any call");
	is_int(ioa_trace_expand(&r, UINT64_MAX, stop_after_ten, &n), 1,
	       "without a bound it expands as far as the callback asks");
	is_int((int)n, 10, "ten calls");
	ioa_trace_rank_close(&r);
	ioa_trace_free(&t);

	/*
	 * The order of gaps (version 4): the first 5 of 2^62 writes took short
	 * gaps.  Expanded, those five come first, then long ones; a hostile
	 * order is refused.
	 */
	len = slurp("crafted-loop-calls");
	is_int(ioa_trace_decode(&t, data, len), 0, "orders: the loop of 2^62 writes decodes");
	ok(set_times(&t.groups[0], 5, 100, GOOD) == 0 && ioa_trace_rank_open(&t, 0, &r) == 0,
	   "orders: with an order of its gaps, its rank opens");
	{
		struct gaps g = {{0}, 0};
		double lo = ioa_trace_bin_ticks(40), hi = ioa_trace_bin_ticks(60);
		unsigned k, good = 0;

		ok(r.calls == (uint64_t)1 << 62, "orders: 2^62 calls");
		is_int(ioa_trace_expand(&r, UINT64_MAX, keep_gap, &g), 1, "orders: it expands");
		/* Call 0 has no gap; the times are scaled alike (the ratio stays). */
		for (k = 2; k < 10; k++)
			good += k < 5 ? g.gap[k] == g.gap[1]
				      : g.gap[k] > g.gap[1] * (hi / lo) * 0.99 &&
						g.gap[k] < g.gap[1] * (hi / lo) * 1.01;
		is_int((int)good, 8,
		       "orders: calls 1-4 take the short gaps, calls 5-9 the long ones");
		ioa_trace_rank_close(&r);
	}
	is_int(open_crafted(&t, SUM), -EINVAL,
	       "orders: one covering more executions than the call made is refused");
	is_int(open_crafted(&t, OWNER), -EINVAL,
	       "orders: one of a rank the group lacks is refused");
	is_int(open_crafted(&t, LEAF), -EINVAL, "orders: one of a call the trace lacks is refused");
	is_int(open_crafted(&t, NO_SEGS), -EINVAL, "orders: one without segments is refused");
	is_int(open_crafted(&t, EMPTY_SEG), -EINVAL, "orders: an empty segment is refused");
	is_int(open_crafted(&t, NEGATIVE), -EINVAL, "orders: a negative mean is refused");
	is_int(open_crafted(&t, TWICE), -EINVAL, "orders: two for one call and owner are refused");
	is_int(open_crafted(&t, TRAILING), -EINVAL, "orders: bytes after them are refused");
	ioa_trace_free(&t);

	/*
	 * Two ranks of one shape, regrouped: the group keeps the mean of their
	 * orders; a rank whose gaps differ keeps its own times and order.
	 */
	{
		struct order_seen o;

		len = slurp("crafted-loop-calls");
		ok(ioa_trace_decode(&t, data, len) == 0 && ioa_trace_decode(&t, data, len) == 0,
		   "regroup orders: two ranks decode");
		t.groups[1].ranks[0] = 1;
		set_times(&t.groups[0], 5, 100, GOOD);
		set_times(&t.groups[1], 5, 300, GOOD);
		ok(ioa_trace_regroup(&t) == 0 && t.ngroups == 1 && t.groups[0].nranks == 2,
		   "regroup orders: into one group");
		o = first_order(&t, 1);
		ok(o.n == 2 && o.execs0 == 5 && o.mean0 == 200 && o.mean1 == 1000,
		   "regroup orders: the group's order is the ranks' mean (5 at 200, then 1000: "
		   "%u %llu %g %g)",
		   o.n, (unsigned long long)o.execs0, o.mean0, o.mean1);
		ioa_trace_free(&t);

		ok(ioa_trace_decode(&t, data, len) == 0 && ioa_trace_decode(&t, data, len) == 0,
		   "own orders: two ranks decode");
		t.groups[1].ranks[0] = 1;
		set_times(&t.groups[0], 5, 100, GOOD);
		set_times(&t.groups[1], (uint64_t)1 << 61, 100, GOOD);
		ok(ioa_trace_regroup(&t) == 0 && t.ngroups == 1, "own orders: into one group");
		o = first_order(&t, 1);
		ok(o.n == 2 && o.execs0 == (uint64_t)1 << 61,
		   "own orders: rank 1, whose gaps differ, keeps its own (half short, then long)");
		o = first_order(&t, 0);
		ok(o.n == 2 && o.execs0 == 5,
		   "own orders: and so does rank 0 (5 short, then long)");
		ioa_trace_free(&t);
	}

	len = slurp("seed-6");
	ok(len > 0, "a degraded trace is in the corpus");
	is_int(ioa_trace_decode(&t, data, len), 0, "it decodes");
	is_int(ioa_trace_rank_open(&t, 0, &r), 0, "its rank opens");
	ok(r.summarised && (r.header[IOA_TRH_FLAGS] & IOA_TRF_SUMMARY), "with its summary");
	ok(r.calls == (uint64_t)r.header[IOA_TRH_EVENTS_TRACED] && r.calls == 1024,
	   "the exact calls expand to the 1,024 calls traced");
	ok(r.calls + r.summary.calls == (uint64_t)r.header[IOA_TRH_EVENTS_TOTAL] &&
		   r.summary.calls == 383,
	   "and the summary holds the other 383 of the 1,407 calls");
	ioa_trace_rank_close(&r);
	t.groups[0].b[IOA_TRH_FLAGS] &= ~(int64_t)IOA_TRF_SUMMARY;
	is_int(ioa_trace_rank_open(&t, 0, &r), -EINVAL, "a summary without the flag is refused");
	t.groups[0].b[IOA_TRH_FLAGS] |= IOA_TRF_SUMMARY;
	t.groups[0].b[IOA_TRH_EVENTS_TOTAL] = t.groups[0].b[IOA_TRH_EVENTS_TRACED] + 382;
	is_int(ioa_trace_rank_open(&t, 0, &r), -EINVAL,
	       "as is one claiming more calls than the exact ones leave");
	ioa_trace_free(&t);

	len = slurp("seed-5");
	ok(len > 0 && data[0] == 2, "a version 2 trace is in the corpus");
	is_int(ioa_trace_decode(&t, data, len), 0, "it decodes");
	is_int(ioa_trace_rank_open(&t, t.groups[0].ranks[0], &r), 0, "its rank opens");
	ok(!r.summarised, "without a summary");
	ioa_trace_rank_close(&r);
	ioa_trace_free(&t);

	len = slurp("regroup-ranks-wrap");
	ok(len > 0, "the group whose ranks wrap around is in the corpus");
	is_int(ioa_trace_decode(&t, data, len), -EINVAL, "it is refused when decoded");
	is_int(ioa_trace_regroup(&t), 0, "so regrouping has nothing to look up");
	ioa_trace_free(&t);
	return tap_done();
}
