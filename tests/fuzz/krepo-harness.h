/*
 * krepo-harness — one function that reads bytes as everything a kernel
 * repository gives a pull (see krepo-harness.c).  Returns 0 when they are
 * accepted as an index or as a package's meta.json, a negative errno
 * otherwise; *items counts the index entries and package files read.
 * Aborts when a check kpkg promises is broken (a displayed text with a
 * control byte, a package over its limits).
 */
#ifndef KREPO_HARNESS_H
#define KREPO_HARNESS_H

#include <stddef.h>

int krepo_harness_read(const void *data, size_t len, unsigned long *items);

#endif
