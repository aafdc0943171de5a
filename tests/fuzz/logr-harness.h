/*
 * logr-harness — one function that reads and decodes a whole log (see
 * logr-harness.c).  Returns 0 for a good log, a negative errno otherwise;
 * *items counts the entries decoded.
 */
#ifndef LOGR_HARNESS_H
#define LOGR_HARNESS_H

#include <stddef.h>

int logr_harness_read(const char *path, unsigned long *items);

/*
 * Decodes a trace region's raw bytes, regroups them as rank 0 does, and
 * walks and expands (up to 100000 calls) the first ranks of each group;
 * of trees past IOA_TRACE_EXACT_SCALING calls, the first 100000, as the
 * analyses do.
 */
int logr_harness_trace(const void *raw, size_t len, unsigned long *items);

#endif
