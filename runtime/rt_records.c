/*
 * rt_records — record lookup and the small per-record trackers (see
 * rt_records.h).  Lookups hash the record id into a bucket array sized from
 * the memory budget; chains stay short for the file counts a budget can
 * hold, and nothing ever needs rehashing.
 */
#define XXH_INLINE_ALL
#include "rt_records.h"

#include <string.h>
#include <xxhash.h>

#include "rt_core.h"

#define RT_FAILURE_SLOTS 256

struct rt_module_records rt_modules[IOA_MOD_COUNT];
struct rt_folded rt_folded;

/* A first width of about 0.1 s at common counter rates; it grows as needed. */
#if defined(__x86_64__) || defined(__i386__)
#define rt_bin_width_initial ((double)(1u << 28))
#elif defined(__aarch64__)
#define rt_bin_width_initial ((double)(1u << 22))
#else
#define rt_bin_width_initial ((double)(1u << 27))
#endif
double rt_bin_width = rt_bin_width_initial;

static double rt_bin_per_tick = 1 / rt_bin_width_initial;

static struct rt_record **buckets;
static size_t bucket_mask;
static struct rt_failure *failures;
static size_t failure_count;
uint64_t rt_failures_dropped;

static struct rt_record *record_new(enum ioa_module module, uint64_t id, const char *path,
				    size_t len)
{
	const struct ioa_module_desc *mod = &ioa_modules[module];
	size_t size = sizeof(struct rt_record) + mod->counter_count * sizeof(int64_t) +
		      mod->fcounter_count * sizeof(double);
	struct rt_record *rec = rt_arena_alloc(&rt.arena, size + len + 1);

	if (!rec)
		return NULL;
	rec->counters = (int64_t *)(rec + 1);
	rec->fcounters = (double *)(rec->counters + mod->counter_count);
	rec->name = memcpy((char *)(rec->fcounters + mod->fcounter_count), path, len);
	rec->id = id;
	rec->module = module;
	/* Darshan's conventions: unknown alignments and ranks are -1. */
	if (module == IOA_MOD_POSIX) {
		rec->counters[POSIX_MEM_ALIGNMENT] = 8;
		rec->counters[POSIX_FILE_ALIGNMENT] = 4096;
		rec->counters[POSIX_OVERWRITE_FIRST_OFFSET] = -1;
		rec->counters[POSIX_RENAMED_FROM] = 0;
	}
	return rec;
}

void rt_records_forget(void)
{
	memset(rt_modules, 0, sizeof(rt_modules));
	memset(&rt_folded, 0, sizeof(rt_folded));
	buckets = NULL;
	bucket_mask = 0;
	failures = NULL;
	failure_count = 0;
	rt_failures_dropped = 0;
	rt_bin_width = rt_bin_width_initial;
	rt_bin_per_tick = 1 / rt_bin_width_initial;
}

int rt_records_init(void)
{
	size_t nbuckets = 256, i;

	/* About one bucket per 1 KiB of budget: a record takes about that much. */
	while (nbuckets < rt.config.memory_bytes / 1024 && nbuckets < (1u << 20))
		nbuckets *= 2;
	buckets = rt_arena_alloc(&rt.arena, nbuckets * sizeof(*buckets));
	/* Room to name one folded file per KiB of budget (1% of it). */
	rt_folded.mask = nbuckets - 1;
	rt_folded.ids = rt_arena_alloc(&rt.arena, (rt_folded.mask + 1) * sizeof(*rt_folded.ids));
	rt_folded.modules =
		rt_arena_alloc(&rt.arena, (rt_folded.mask + 1) * sizeof(*rt_folded.modules));
	if (!rt_folded.ids || !rt_folded.modules)
		return -1;
	failures = rt_arena_alloc(&rt.arena, RT_FAILURE_SLOTS * sizeof(*failures));
	if (!buckets || !failures)
		return -1;
	bucket_mask = nbuckets - 1;
	for (i = 0; i < IOA_MOD_COUNT; i++) {
		static const char folded[] = "<folded: files past the memory budget>";

		rt_modules[i].overflow =
			record_new((enum ioa_module)i, 0, folded, sizeof(folded) - 1);
		if (!rt_modules[i].overflow)
			return -1;
		rt_modules[i].overflow->flags = IOA_REC_FOLDED;
	}
	return 0;
}

uint64_t rt_record_id(const char *path, size_t len)
{
	uint64_t id = XXH3_64bits(path, len);

	/* 0 is reserved for "no record" (and the overflow record). */
	return id ? id : 1;
}

struct rt_record *rt_record_find(enum ioa_module module, uint64_t id)
{
	struct rt_record *rec;

	if (!buckets)
		return NULL;
	for (rec = buckets[(id ^ (uint64_t)module) & bucket_mask]; rec; rec = rec->next_in_bucket)
		if (rec->id == id && rec->module == module)
			return rec;
	return NULL;
}

/* Notes a folded file; 1 when it is new to the table (or the table is full). */
static int folded_note(enum ioa_module module, uint64_t id)
{
	size_t i, n;

	for (i = id & rt_folded.mask, n = 0; n <= rt_folded.mask;
	     i = (i + 1) & rt_folded.mask, n++) {
		if (!rt_folded.ids[i]) {
			rt_folded.ids[i] = id;
			rt_folded.modules[i] = (uint16_t)module;
			rt_folded.count++;
			return 1;
		}
		if (rt_folded.ids[i] == id && rt_folded.modules[i] == module)
			return 0;
	}
	/* Full: every further lookup of a folded file counts (an overcount, said so). */
	rt_folded.dropped++;
	return 1;
}

struct rt_record *rt_record_get(enum ioa_module module, const char *path, size_t len)
{
	uint64_t id = rt_record_id(path, len);
	struct rt_record *rec = rt_record_find(module, id);
	struct rt_module_records *m = &rt_modules[module];
	size_t bucket;

	if (rec || !buckets)
		return rec;
	rec = record_new(module, id, path, len);
	if (!rec) {
		if (folded_note(module, id))
			m->folded_files++;
		return m->overflow;
	}
	bucket = (id ^ (uint64_t)module) & bucket_mask;
	rec->next_in_bucket = buckets[bucket];
	buckets[bucket] = rec;
	rec->next_in_module = m->first;
	m->first = rec;
	return rec;
}

/* Doubles the bin width: every record's bins merge in pairs. */
static void bins_widen(void)
{
	struct rt_record *rec;
	unsigned m, i;

	for (m = 0; m < IOA_MOD_COUNT; m++) {
		for (rec = rt_modules[m].first; rec; rec = rec->next_in_module) {
			if (!rec->bins)
				continue;
			for (i = 0; i < RT_BINS / 2; i++) {
				struct rt_bin *a = &rec->bins[2 * i], *b = &rec->bins[2 * i + 1];

				rec->bins[i] = (struct rt_bin){a->read_bytes + b->read_bytes,
							       a->write_bytes + b->write_bytes,
							       a->read_ops + b->read_ops,
							       a->write_ops + b->write_ops};
			}
			memset(&rec->bins[RT_BINS / 2], 0, RT_BINS / 2 * sizeof(*rec->bins));
		}
	}
	rt_bin_width *= 2;
	rt_bin_per_tick = 1 / rt_bin_width;
}

void rt_bins_add(struct rt_record *rec, double t, int is_write, int64_t bytes)
{
	struct rt_bin *bin;
	double index;

	if (!rec->bins && !(rec->flags & IOA_REC_FOLDED)) {
		rec->bins = rt_arena_alloc(&rt.arena, RT_BINS * sizeof(*rec->bins));
		if (!rec->bins)
			return;
	}
	if (!rec->bins || t < 0)
		return;
	/* A multiplication, not a division, on every access. */
	while ((index = t * rt_bin_per_tick) >= RT_BINS)
		bins_widen();
	bin = &rec->bins[(unsigned)index];
	if (is_write) {
		bin->write_bytes += (uint64_t)bytes;
		bin->write_ops++;
	} else {
		bin->read_bytes += (uint64_t)bytes;
		bin->read_ops++;
	}
}

void rt_values_add(struct rt_values *v, int64_t value)
{
	unsigned i;

	for (i = 0; i < v->used; i++) {
		if (v->value[i] == value) {
			v->count[i]++;
			return;
		}
	}
	if (v->used == RT_VALUE_SLOTS) {
		v->dropped++;
		return;
	}
	v->value[v->used] = value;
	v->count[v->used++] = 1;
}

void rt_values_top4(const struct rt_values *v, int64_t *values, int64_t *counts)
{
	int taken[RT_VALUE_SLOTS] = {0};
	unsigned k, i;

	for (k = 0; k < 4; k++) {
		int best = -1;

		for (i = 0; i < v->used; i++)
			if (!taken[i] &&
			    (best < 0 || v->count[i] > v->count[best] ||
			     (v->count[i] == v->count[best] && v->value[i] > v->value[best])))
				best = (int)i;
		values[k] = best < 0 ? 0 : v->value[best];
		counts[k] = best < 0 ? 0 : v->count[best];
		if (best >= 0)
			taken[best] = 1;
	}
}

int64_t rt_extents_add(struct rt_extents *e, int64_t start, int64_t end)
{
	int64_t overlap = 0, new_start = start, new_end = end;
	unsigned i, kept = 0;

	if (end <= start)
		return 0;
	/* Measure the overlap with, and absorb, every extent that touches. */
	for (i = 0; i < e->used; i++) {
		if (e->end[i] < start || e->start[i] > end) {
			e->start[kept] = e->start[i];
			e->end[kept++] = e->end[i];
			continue;
		}
		if (e->end[i] > start && e->start[i] < end)
			overlap += (e->end[i] < end ? e->end[i] : end) -
				   (e->start[i] > start ? e->start[i] : start);
		if (e->start[i] < new_start)
			new_start = e->start[i];
		if (e->end[i] > new_end)
			new_end = e->end[i];
	}
	e->used = kept;
	if (e->used == RT_EXTENT_SLOTS) {
		/* Out of slots: merge the two closest neighbours. */
		unsigned a, b, best_a = 0, best_b = 1;
		int64_t best_gap = INT64_MAX;

		for (a = 0; a < e->used; a++)
			for (b = 0; b < e->used; b++) {
				int64_t gap = e->start[b] - e->end[a];

				if (a != b && gap >= 0 && gap < best_gap) {
					best_gap = gap;
					best_a = a;
					best_b = b;
				}
			}
		if (e->start[best_b] < e->start[best_a])
			e->start[best_a] = e->start[best_b];
		if (e->end[best_b] > e->end[best_a])
			e->end[best_a] = e->end[best_b];
		e->start[best_b] = e->start[e->used - 1];
		e->end[best_b] = e->end[e->used - 1];
		e->used--;
		e->coarse = 1;
	}
	e->start[e->used] = new_start;
	e->end[e->used++] = new_end;
	return overlap;
}

void rt_record_failure(struct rt_record *rec, enum ioa_module module, const char *op, int err)
{
	uint64_t id = rec ? rec->id : 0;
	int library = module != IOA_MOD_MPIIO && (rt_inside & (RT_IN_MPI | RT_IN_MPIIO));
	size_t i;

	if (library && (rt_inside & RT_IN_MPIIO))
		rt_mpi_library.failed_mpiio++;
	if (rec && !library) {
		static const int failed_counter[IOA_MOD_COUNT] = {
			[IOA_MOD_POSIX] = POSIX_FAILED_CALLS,
			[IOA_MOD_STDIO] = STDIO_FAILED_CALLS,
			[IOA_MOD_MPIIO] = MPIIO_FAILED_CALLS,
		};
		rec->counters[failed_counter[module]]++;
	}
	for (i = 0; i < failure_count; i++) {
		struct rt_failure *f = &failures[i];

		if (f->record_id == id && f->module == module && f->err == err && f->op == op &&
		    f->mpi_library == library) {
			f->count++;
			return;
		}
	}
	if (!failures || failure_count == RT_FAILURE_SLOTS) {
		rt_failures_dropped++;
		return;
	}
	failures[failure_count++] = (struct rt_failure){id, module, op, err, library, 1};
}

size_t rt_failures(const struct rt_failure **table)
{
	*table = failures;
	return failure_count;
}

void rt_size_bin(int64_t *counters, int first_bin, int64_t len)
{
	static const int64_t upper[] = {100,	 1024,	   10240,     102400,	 1048576,
					4194304, 10485760, 104857600, 1073741824};
	int bin = 0;

	while (bin < 9 && len > upper[bin])
		bin++;
	counters[first_bin + bin]++;
}

void rt_records_to_seconds(double seconds_per_tick)
{
	struct rt_record *rec;
	unsigned m, i;

	for (m = 0; m < IOA_MOD_COUNT; m++) {
		const struct ioa_module_desc *mod = &ioa_modules[m];

		for (rec = rt_modules[m].first; rec; rec = rec->next_in_module)
			for (i = 0; i < mod->fcounter_count; i++)
				rec->fcounters[i] *= seconds_per_tick;
		for (i = 0; i < mod->fcounter_count; i++)
			rt_modules[m].overflow->fcounters[i] *= seconds_per_tick;
	}
}
