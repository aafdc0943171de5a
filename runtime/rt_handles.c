/*
 * rt_handles — a layer's open handles by identifier (see rt_handles.h).
 */
#include "rt_handles.h"

#include "rt_core.h"

static size_t home_slot(int64_t id)
{
	return (size_t)(((uint64_t)id * 0x9E3779B97F4A7C15ull) >> 54); /* 10 bits: the slots */
}

struct rt_handle *rt_handle_find(struct rt_handle *t, int64_t id)
{
	size_t i, at = home_slot(id);

	for (i = 0; t && id && i < RT_HANDLE_SLOTS && t[at].id;
	     i++, at = (at + 1) % RT_HANDLE_SLOTS)
		if (t[at].id == id)
			return &t[at];
	return NULL;
}

void rt_handle_set(struct rt_handle **t, int64_t id, struct rt_record *rec, struct rt_record *file)
{
	size_t i, at = home_slot(id);

	if (!*t && !(*t = rt_arena_alloc(&rt.arena, RT_HANDLE_SLOTS * sizeof(**t))))
		return;
	for (i = 0; id && i < RT_HANDLE_SLOTS; i++, at = (at + 1) % RT_HANDLE_SLOTS)
		if (!(*t)[at].id || (*t)[at].id == id) {
			(*t)[at] = (struct rt_handle){id, rec, file};
			return;
		}
}

void rt_handle_drop(struct rt_handle *t, struct rt_handle *h)
{
	size_t hole = (size_t)(h - t), at = hole, i;

	for (i = 1; i < RT_HANDLE_SLOTS; i++) {
		size_t home;

		at = (at + 1) % RT_HANDLE_SLOTS;
		if (!t[at].id)
			break;
		home = home_slot(t[at].id);
		/* The entry may move into the hole when its home is not after the hole on its way.
		 */
		if ((at > hole && (home <= hole || home > at)) ||
		    (at < hole && home <= hole && home > at)) {
			t[hole] = t[at];
			hole = at;
		}
	}
	t[hole] = (struct rt_handle){0, NULL, NULL};
}

/*
 * A removal moves later entries of a probe run into the hole only: one
 * not yet looked at can land on the slot just emptied, so that slot is
 * looked at again; one already looked at is outside the range.
 */
void rt_handle_drop_range(struct rt_handle *t, int64_t lo, int64_t hi)
{
	size_t i;

	for (i = 0; t && i < RT_HANDLE_SLOTS; i++)
		while (t[i].id && t[i].id >= lo && t[i].id <= hi)
			rt_handle_drop(t, &t[i]);
}
