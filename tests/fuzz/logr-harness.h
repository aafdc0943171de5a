/*
 * logr-harness — one function that reads and decodes a whole log (see
 * logr-harness.c).  Returns 0 for a good log, a negative errno otherwise;
 * *items counts the entries decoded.
 */
#ifndef LOGR_HARNESS_H
#define LOGR_HARNESS_H

int logr_harness_read(const char *path, unsigned long *items);

#endif
