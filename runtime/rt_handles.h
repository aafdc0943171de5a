/*
 * rt_handles — a layer's open handles by identifier (HDF5's identifiers,
 * PnetCDF's file and variable ids): each with its record and its file's.
 * Linear probing over a table from the arena, made at the first
 * rt_handle_set() (a program that never uses the layer pays nothing) with
 * 256 slots and doubled when three quarters are taken, up to 65,536 (a
 * file of thousands of variables); the smaller table it leaves stays in
 * the arena.  Removal shifts the entries that follow back, so the table
 * never fills with the marks of removed ones.  Identifiers past its room
 * (or the arena's) go unrecorded.  Under the lock.
 */
#ifndef RT_HANDLES_H
#define RT_HANDLES_H

#include <stdint.h>

struct rt_record;

struct rt_handle {
	int64_t id; /* 0: empty (a layer keys its handles so that none is 0) */
	struct rt_record *rec, *file;
};

struct rt_handles {
	struct rt_handle *slot;
	uint32_t bits; /* 2^bits slots */
	uint32_t used;
};

/* The entry of id in table t (NULL: no table yet), or NULL. */
struct rt_handle *rt_handle_find(const struct rt_handles *t, int64_t id);

/* Enters or replaces id in *t, making the table first when there is none. */
void rt_handle_set(struct rt_handles **t, int64_t id, struct rt_record *rec,
		   struct rt_record *file);

/* Removes the entry h of table t. */
void rt_handle_drop(struct rt_handles *t, struct rt_handle *h);

/* Removes every entry of t (NULL: none) whose id lies in [lo, hi]. */
void rt_handle_drop_range(struct rt_handles *t, int64_t lo, int64_t hi);

#endif
