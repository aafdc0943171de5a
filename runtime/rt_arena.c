/*
 * rt_arena — fixed-budget bump allocator for the runtime (see rt_arena.h).
 * The mapping is made with the raw system call so that the runtime's own
 * mmap wrapper never sees it.
 */
#define _GNU_SOURCE
#include "rt_arena.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int rt_arena_init(struct rt_arena *a, size_t size)
{
	long p = syscall(SYS_mmap, NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);

	memset(a, 0, sizeof(*a));
	if (p == -1 || (void *)p == MAP_FAILED)
		return -ENOMEM;
	a->base = (char *)p;
	a->size = size;
	return 0;
}

void rt_arena_release(struct rt_arena *a)
{
	if (a->base)
		syscall(SYS_munmap, a->base, a->size);
	memset(a, 0, sizeof(*a));
}

void *rt_arena_alloc(struct rt_arena *a, size_t size)
{
	return rt_arena_alloc_aligned(a, size, 16);
}

void *rt_arena_alloc_aligned(struct rt_arena *a, size_t size, size_t align)
{
	size_t start = (a->used + align - 1) & ~(align - 1);

	if (!a->base || size > a->size || start > a->size - size) {
		a->refused += size;
		return NULL;
	}
	a->used = start + size;
	/* Fresh anonymous pages are already zero; nothing is ever reused. */
	return a->base + start;
}

char *rt_arena_strndup(struct rt_arena *a, const char *s, size_t len)
{
	char *copy = rt_arena_alloc(a, len + 1);

	if (copy)
		memcpy(copy, s, len);
	return copy;
}
