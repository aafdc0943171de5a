/*
 * fuzz-conf — libFuzzer entry point for the site settings parser: each
 * input is written to a memory file and loaded as the settings file through
 * conf_harness_read().  Built and run by tests/fuzz/run-fuzz --conf (clang).
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "conf-harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char path[64];
	unsigned long items;

	if (fd < 0)
		fd = memfd_create("fuzz-conf", 0);
	if (fd < 0 || ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	conf_harness_read(path, &items);
	return 0;
}
