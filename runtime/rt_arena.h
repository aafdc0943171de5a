/*
 * rt_arena — the runtime's only memory: one mapping of a fixed byte budget,
 * handed out by a bump pointer.  Nothing is ever returned to it (records
 * live until shutdown); small objects that come and go (open file
 * descriptions) recycle through their own free lists.  When the budget is
 * spent, allocation returns NULL and the caller folds what it cannot keep.
 *
 * Callers hold the runtime lock; the arena itself does no locking.
 */
#ifndef RT_ARENA_H
#define RT_ARENA_H

#include <stddef.h>

struct rt_arena {
	char *base;
	size_t size;
	size_t used;
	size_t refused; /* bytes asked for and not given */
};

/* Maps `size` bytes (real mmap, anonymous, private).  0 or -ENOMEM. */
int rt_arena_init(struct rt_arena *a, size_t size);
void rt_arena_release(struct rt_arena *a);

/* Zeroed, 16-byte aligned memory, or NULL when the budget is spent. */
void *rt_arena_alloc(struct rt_arena *a, size_t size);

/* The same aligned to align (a power of two, at most a page). */
void *rt_arena_alloc_aligned(struct rt_arena *a, size_t size, size_t align);

/* A copy of the first len bytes of s, NUL-terminated, or NULL. */
char *rt_arena_strndup(struct rt_arena *a, const char *s, size_t len);

#endif
