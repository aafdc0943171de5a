/*
 * bench-util — what the benchmark programs share: a nanosecond clock and a
 * comparison for sorting samples to take their median.
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <time.h>

static inline double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#endif
