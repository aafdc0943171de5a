/*
 * count-shim — a stand-in for another tool preloaded beside libioatlas: it
 * wraps write() the same way (dlsym RTLD_NEXT), counts the calls, and at
 * exit prints "count-shim: N writes" on stderr.  Tests preload it before and
 * after the runtime to show that both see every call.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static unsigned long writes;

ssize_t write(int fd, const void *buf, size_t count)
{
	static ssize_t (*real)(int, const void *, size_t);

	if (!real) {
		void *sym = dlsym(RTLD_NEXT, "write");

		memcpy(&real, &sym, sizeof(sym));
	}
	__atomic_add_fetch(&writes, 1, __ATOMIC_RELAXED);
	return real(fd, buf, count);
}

__attribute__((destructor)) static void report(void)
{
	char line[64];
	int n = snprintf(line, sizeof(line), "count-shim: %lu writes\n", writes);
	ssize_t (*real)(int, const void *, size_t);
	void *sym = dlsym(RTLD_NEXT, "write");

	memcpy(&real, &sym, sizeof(sym));
	if (real && n > 0)
		real(2, line, (size_t)n);
}
