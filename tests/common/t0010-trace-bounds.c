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
 * A version 2 region (seed-5) still opens, without a summary.
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
