/*
 * rt_handles — a layer's open handles by identifier (see rt_handles.h).
 */
#include "rt_handles.h"

#include "rt_core.h"

#define MIN_BITS 8
#define MAX_BITS 16

static size_t slots(const struct rt_handles *t)
{
	return (size_t)1 << t->bits;
}

static size_t home_slot(const struct rt_handles *t, int64_t id)
{
	return (size_t)(((uint64_t)id * 0x9E3779B97F4A7C15ull) >> (64 - t->bits));
}

struct rt_handle *rt_handle_find(const struct rt_handles *t, int64_t id)
{
	size_t i, at, n;

	if (!t || !id)
		return NULL;
	n = slots(t);
	for (i = 0, at = home_slot(t, id); i < n && t->slot[at].id; i++, at = (at + 1) & (n - 1))
		if (t->slot[at].id == id)
			return &t->slot[at];
	return NULL;
}

/* Enters id into t's slots: 1 when it was new, 0 replaced, -1 no room. */
static int put(struct rt_handles *t, int64_t id, struct rt_record *rec, struct rt_record *file)
{
	size_t i, at, n = slots(t);

	for (i = 0, at = home_slot(t, id); i < n; i++, at = (at + 1) & (n - 1))
		if (!t->slot[at].id || t->slot[at].id == id) {
			int fresh = !t->slot[at].id;

			t->slot[at] = (struct rt_handle){id, rec, file};
			return fresh;
		}
	return -1;
}

/* Doubles t's slots when the arena has the room; the old ones stay behind. */
static void grow(struct rt_handles *t)
{
	struct rt_handles bigger = {NULL, t->bits + 1, 0};
	size_t i, n = slots(t);

	bigger.slot = rt_arena_alloc(&rt.arena, slots(&bigger) * sizeof(*bigger.slot));
	if (!bigger.slot)
		return;
	for (i = 0; i < n; i++)
		if (t->slot[i].id)
			bigger.used +=
				put(&bigger, t->slot[i].id, t->slot[i].rec, t->slot[i].file) > 0;
	*t = bigger;
}

void rt_handle_set(struct rt_handles **tp, int64_t id, struct rt_record *rec,
		   struct rt_record *file)
{
	struct rt_handles *t = *tp;
	int fresh;

	if (!id)
		return;
	if (!t) {
		t = rt_arena_alloc(&rt.arena, sizeof(*t));
		if (!t)
			return;
		t->bits = MIN_BITS;
		t->slot = rt_arena_alloc(&rt.arena, slots(t) * sizeof(*t->slot));
		if (!t->slot)
			return;
		*tp = t;
	}
	if ((t->used + 1) * 4 > slots(t) * 3 && t->bits < MAX_BITS)
		grow(t);
	fresh = put(t, id, rec, file);
	t->used += fresh > 0;
}

void rt_handle_drop(struct rt_handles *t, struct rt_handle *h)
{
	size_t n = slots(t), hole = (size_t)(h - t->slot), at = hole, i;

	for (i = 1; i < n; i++) {
		size_t home;

		at = (at + 1) & (n - 1);
		if (!t->slot[at].id)
			break;
		home = home_slot(t, t->slot[at].id);
		/* The entry may move into the hole when its home is not after the hole on its way.
		 */
		if ((at > hole && (home <= hole || home > at)) ||
		    (at < hole && home <= hole && home > at)) {
			t->slot[hole] = t->slot[at];
			hole = at;
		}
	}
	t->slot[hole] = (struct rt_handle){0, NULL, NULL};
	t->used--;
}

/*
 * A removal moves later entries of a probe run into the hole only: one
 * not yet looked at can land on the slot just emptied, so that slot is
 * looked at again; one already looked at is outside the range.
 */
void rt_handle_drop_range(struct rt_handles *t, int64_t lo, int64_t hi)
{
	size_t i;

	for (i = 0; t && i < slots(t); i++)
		while (t->slot[i].id && t->slot[i].id >= lo && t->slot[i].id <= hi)
			rt_handle_drop(t, &t->slot[i]);
}
