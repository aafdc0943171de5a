/*
 * t0010-trace-bounds — the trace codec bounds what a few crafted bytes can
 * make it do (the raw regions come from tests/common/craft-log.c and live
 * in the fuzzers' corpus): a loop of 2^62 iterations around nothing is
 * refused when the rank is opened; a loop of 2^62 calls is counted, not
 * walked, refused by a caller's bound with -E2BIG before any call, and
 * expanded without a bound only as far as the callback asks; a group whose
 * ranks wrap around 2^64 is refused when decoded, so regrouping never
 * looks a rank up past the group's tables.
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

	len = slurp("regroup-ranks-wrap");
	ok(len > 0, "the group whose ranks wrap around is in the corpus");
	is_int(ioa_trace_decode(&t, data, len), -EINVAL, "it is refused when decoded");
	is_int(ioa_trace_regroup(&t), 0, "so regrouping has nothing to look up");
	ioa_trace_free(&t);
	return tap_done();
}
