/*
 * fuzz-logr — libFuzzer entry point for the log reader: each input is
 * written to a memory file and read through logr_harness_read().  Built and
 * run by tests/fuzz/run-fuzz (clang), never by the normal build.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "logr-harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char path[64];
	unsigned long items;

	if (fd < 0)
		fd = memfd_create("fuzz-log", 0);
	if (fd < 0 || ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	logr_harness_read(path, &items);
	return 0;
}
