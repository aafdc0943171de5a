/*
 * bench-floor — the least a tool that times every call can cost: an
 * LD_PRELOAD library whose read, write, pread, lseek and fwrite read the
 * CPU's counter before and after the real call and store the call (its
 * descriptor, result and two times) in a ring of 64, and do nothing else:
 * no records, no lock, no reentrancy guard, no errno kept.  run-bench-trace
 * runs bench-patterns under it beside ioatlas and Darshan (the "floor"
 * configuration), so a target such as "half of Darshan's cost" can be set
 * against what the clock reads alone cost on the machine.  Its clock is
 * the runtime's (rt_ticks()).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "rt_core.h" /* rt_ticks(), the runtime's clock */

#define EXPORT __attribute__((visibility("default")))

struct call {
	int64_t ret;
	uint64_t t0, t1;
	int fd;
};

/* Not static, so that the stores stay: nothing here reads them.  One thread. */
struct call bench_floor_ring[64];
static unsigned next;

static inline void keep(int fd, int64_t ret, uint64_t t0, uint64_t t1)
{
	bench_floor_ring[next++ & 63] = (struct call){ret, t0, t1, fd};
}

/* The real function, found at the first call. */
#define REAL(ret, name, params)                      \
	static ret(*real) params;                    \
	if (!real) {                                 \
		void *sym = dlsym(RTLD_NEXT, #name); \
		memcpy(&real, &sym, sizeof(sym));    \
	}

#define TIMED(fd, call)                       \
	uint64_t t0 = rt_ticks();             \
	__typeof__(call) r = call;            \
	keep(fd, (int64_t)r, t0, rt_ticks()); \
	return r;

EXPORT ssize_t read(int fd, void *buf, size_t n){REAL(ssize_t, read, (int, void *, size_t))
							 TIMED(fd, real(fd, buf, n))}

EXPORT ssize_t write(int fd, const void *buf, size_t n){
	REAL(ssize_t, write, (int, const void *, size_t)) TIMED(fd, real(fd, buf, n))}

EXPORT ssize_t pread(int fd, void *buf, size_t n, off_t off){
	REAL(ssize_t, pread, (int, void *, size_t, off_t)) TIMED(fd, real(fd, buf, n, off))}

EXPORT ssize_t pread64(int fd, void *buf, size_t n, off_t off){
	REAL(ssize_t, pread64, (int, void *, size_t, off_t)) TIMED(fd, real(fd, buf, n, off))}

EXPORT off_t lseek(int fd, off_t off, int whence){REAL(off_t, lseek, (int, off_t, int))
							  TIMED(fd, real(fd, off, whence))}

EXPORT off_t lseek64(int fd, off_t off, int whence){REAL(off_t, lseek64, (int, off_t, int))
							    TIMED(fd, real(fd, off, whence))}

EXPORT size_t fwrite(const void *buf, size_t size, size_t n, FILE *stream)
{
	REAL(size_t, fwrite, (const void *, size_t, size_t, FILE *))
	TIMED(-1, real(buf, size, n, stream))
}
