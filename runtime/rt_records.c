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
#include "rt_spill.h"

#define RT_FAILURE_SLOTS 256

/* A first width of about 0.1 s at common counter rates; it grows as needed. */
#if defined(__x86_64__) || defined(__i386__)
#define rt_bin_width_initial ((double)(1u << 28))
#elif defined(__aarch64__)
#define rt_bin_width_initial ((double)(1u << 22))
#else
#define rt_bin_width_initial ((double)(1u << 27))
#endif

/*
 * Extent arrays come in power-of-two sizes, RT_EXTENTS_FIRST ranges and up;
 * the array a file outgrew waits on a list by size for the next file that
 * grows to it (its first bytes link the list), so the arena pays at most
 * about twice what the files hold, within a quarter of the budget.
 */
#define RT_EXTENTS_FIRST 16

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

int rt_records_init(void)
{
	size_t nbuckets = 256, i;

	rt_live->bin_width = rt_bin_width_initial;
	rt_live->bin_per_tick = 1 / rt_bin_width_initial;

	/* About one bucket per 1 KiB of budget: a record takes about that much. */
	while (nbuckets < rt.config.memory_bytes / 1024 && nbuckets < (1u << 20))
		nbuckets *= 2;
	rt_live->buckets = rt_arena_alloc(&rt.arena, nbuckets * sizeof(*rt_live->buckets));
	/* Room to name one folded file per KiB of budget (1% of it). */
	rt_live->folded.mask = nbuckets - 1;
	rt_live->folded.ids = rt_arena_alloc(&rt.arena, (rt_live->folded.mask + 1) *
								sizeof(*rt_live->folded.ids));
	rt_live->folded.modules = rt_arena_alloc(
		&rt.arena, (rt_live->folded.mask + 1) * sizeof(*rt_live->folded.modules));
	if (!rt_live->folded.ids || !rt_live->folded.modules)
		return -1;
	rt_live->failures =
		rt_arena_alloc(&rt.arena, RT_FAILURE_SLOTS * sizeof(*rt_live->failures));
	if (!rt_live->buckets || !rt_live->failures)
		return -1;
	rt_live->bucket_mask = nbuckets - 1;
	for (i = 0; i < IOA_MOD_COUNT; i++) {
		static const char folded[] = "<folded: files past the memory budget>";

		rt_live->modules[i].overflow =
			record_new((enum ioa_module)i, 0, folded, sizeof(folded) - 1);
		if (!rt_live->modules[i].overflow)
			return -1;
		rt_live->modules[i].overflow->flags = IOA_REC_FOLDED;
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

	if (!rt_live->buckets)
		return NULL;
	for (rec = rt_live->buckets[(id ^ (uint64_t)module) & rt_live->bucket_mask]; rec;
	     rec = rec->next_in_bucket)
		if (rec->id == id && rec->module == module)
			return rec;
	return NULL;
}

/* Notes a folded file; 1 when it is new to the table (or the table is full). */
static int folded_note(enum ioa_module module, uint64_t id)
{
	size_t i, n;

	for (i = id & rt_live->folded.mask, n = 0; n <= rt_live->folded.mask;
	     i = (i + 1) & rt_live->folded.mask, n++) {
		if (!rt_live->folded.ids[i]) {
			rt_live->folded.ids[i] = id;
			rt_live->folded.modules[i] = (uint16_t)module;
			rt_live->folded.count++;
			return 1;
		}
		if (rt_live->folded.ids[i] == id && rt_live->folded.modules[i] == module)
			return 0;
	}
	/* Full: every further lookup of a folded file counts (an overcount, said so). */
	rt_live->folded.dropped++;
	return 1;
}

struct rt_record *rt_record_get(enum ioa_module module, const char *path, size_t len)
{
	uint64_t id = rt_record_id(path, len);
	struct rt_record *rec = rt_record_find(module, id);
	struct rt_module_records *m = &rt_live->modules[module];
	size_t bucket;

	if (rec || !rt_live->buckets)
		return rec;
	rec = record_new(module, id, path, len);
	if (!rec) {
		if (folded_note(module, id))
			m->folded_files++;
		return m->overflow;
	}
	bucket = (id ^ (uint64_t)module) & rt_live->bucket_mask;
	rec->next_in_bucket = rt_live->buckets[bucket];
	rt_live->buckets[bucket] = rec;
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
		for (rec = rt_live->modules[m].first; rec; rec = rec->next_in_module) {
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
	rt_live->bin_width *= 2;
	rt_spill_calibrate();
	rt_live->bin_per_tick = 1 / rt_live->bin_width;
}

/* The bin of time t (ticks) in rec's bins, widening them to reach it; NULL when none. */
static struct rt_bin *bin_at(struct rt_record *rec, double t)
{
	uint64_t index;

	if (!rec->bins && !(rec->flags & IOA_REC_FOLDED))
		rec->bins = rt_arena_alloc(&rt.arena, RT_BINS * sizeof(*rec->bins));
	if (!rec->bins || t < 0)
		return NULL;
	/*
	 * A multiplication, not a division, on every access, compared as an
	 * integer (a floating constant would be one more page read): a bin is
	 * at least a tick wide, so the product is at most t, ticks since
	 * start-up, far below 2^63.
	 */
	while ((index = (uint64_t)(int64_t)(t * rt_live->bin_per_tick)) >= RT_BINS)
		bins_widen();
	return &rec->bins[index];
}

static void bin_add(struct rt_bin *bin, int is_write, int64_t bytes, int64_t n)
{
	if (is_write) {
		bin->write_bytes += (uint64_t)bytes;
		bin->write_ops += (uint32_t)n;
	} else {
		bin->read_bytes += (uint64_t)bytes;
		bin->read_ops += (uint32_t)n;
	}
}

void rt_bins_add(struct rt_record *rec, double t, int is_write, int64_t bytes)
{
	struct rt_bin *bin = bin_at(rec, t);

	if (bin)
		bin_add(bin, is_write, bytes, 1);
}

int rt_bins_add_n(struct rt_record *rec, double t_lo, double t_hi, int is_write, int64_t bytes,
		  int64_t n)
{
	/* The later first: widening for it can only bring the earlier one closer. */
	struct rt_bin *hi = bin_at(rec, t_hi), *lo = bin_at(rec, t_lo);

	if (lo != hi || !lo)
		return !rec->bins;
	bin_add(lo, is_write, bytes * n, n);
	return 1;
}

void rt_values_add_n(struct rt_values *v, int64_t value, int64_t n)
{
	unsigned i, h = (unsigned)(((uint64_t)value * 0x9e3779b97f4a7c15u) >> 57);
	uint64_t bit = (uint64_t)1 << (h & 63);

	if (!(v->seen[h >> 6] & bit)) {
		if (v->used == RT_VALUE_SLOTS)
			return;
		v->seen[h >> 6] |= bit;
		v->value[v->used] = value;
		v->count[v->used++] = n;
		return;
	}
	for (i = 0; i < v->used; i++) {
		if (v->value[i] == value) {
			v->count[i] = ioa_counter_sat_add(v->count[i], n);
			return;
		}
	}
	if (v->used == RT_VALUE_SLOTS)
		return;
	v->value[v->used] = value;
	v->count[v->used++] = n;
}

void rt_values_top4(const struct rt_values *v, int64_t *values, int64_t *counts)
{
	int taken[RT_VALUE_SLOTS] = {0};
	unsigned k, i;

	for (k = 0; k < 4; k++) {
		int best = -1;

		for (i = 0; i < v->used; i++)
			if (!taken[i] && v->value[i] != 0 &&
			    (best < 0 || v->count[i] > v->count[best] ||
			     (v->count[i] == v->count[best] && v->value[i] > v->value[best])))
				best = (int)i;
		values[k] = best < 0 ? 0 : v->value[best];
		counts[k] = best < 0 ? 0 : v->count[best];
		if (best >= 0)
			taken[best] = 1;
	}
}

static unsigned extents_size_class(uint32_t room)
{
	unsigned k = 0;

	while (((uint32_t)RT_EXTENTS_FIRST << k) < room)
		k++;
	return k;
}

/* Doubles e's room; -1 when the file's cap or the budget's quarter is reached. */
static int extents_grow(struct rt_extents *e)
{
	uint32_t room = e->room ? e->room * 2 : RT_EXTENTS_FIRST;
	unsigned k = extents_size_class(room);
	struct rt_extent *x;

	if (room > RT_EXTENTS_MAX || k >= RT_EXTENT_SIZES)
		return -1;
	x = rt_live->extents_free[k];
	if (x) {
		memcpy(&rt_live->extents_free[k], x, sizeof(x));
	} else {
		size_t bytes = room * sizeof(*x);

		if (rt_live->extents_bytes + bytes > rt.config.memory_bytes / 4)
			return -1;
		x = rt_arena_alloc(&rt.arena, bytes);
		if (!x)
			return -1;
		rt_live->extents_bytes += bytes;
	}
	if (e->x) {
		unsigned old = extents_size_class(e->room);

		memcpy(x, e->x, e->used * sizeof(*x));
		memcpy(e->x, &rt_live->extents_free[old], sizeof(e->x));
		rt_live->extents_free[old] = e->x;
	}
	e->x = x;
	e->room = room;
	return 0;
}

int64_t rt_extents_add_any(struct rt_extents *e, int64_t start, int64_t end, int64_t *untracked)
{
	uint32_t first, last, lo, hi;
	int64_t overlap = 0;

	if (end <= start)
		return 0;
	/* The first range that ends at or after start (touching counts): mostly the last. */
	if (e->used && e->x[e->used - 1].start <= start) {
		first = e->x[e->used - 1].end >= start ? e->used - 1 : e->used;
	} else {
		for (lo = 0, hi = e->used; lo < hi;) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (e->x[mid].end < start)
				lo = mid + 1;
			else
				hi = mid;
		}
		first = lo;
	}
	for (last = first; last < e->used && e->x[last].start <= end; last++) {
		int64_t from = e->x[last].start > start ? e->x[last].start : start;
		int64_t to = e->x[last].end < end ? e->x[last].end : end;

		if (to > from)
			overlap += to - from;
	}
	if (last > first) {
		/* The write joins the ranges it touches into one. */
		if (e->x[first].start > start)
			e->x[first].start = start;
		if (e->x[last - 1].end > end)
			end = e->x[last - 1].end;
		if (e->x[first].end < end)
			e->x[first].end = end;
		if (last > first + 1) {
			memmove(&e->x[first + 1], &e->x[last], (e->used - last) * sizeof(*e->x));
			e->used -= last - first - 1;
		}
		return overlap;
	}
	if (e->used == e->room && extents_grow(e)) {
		*untracked += end - start;
		return 0;
	}
	memmove(&e->x[first + 1], &e->x[first], (e->used - first) * sizeof(*e->x));
	e->x[first] = (struct rt_extent){start, end};
	e->used++;
	return 0;
}

void rt_extents_cut(struct rt_extents *e, int64_t length)
{
	while (e->used && e->x[e->used - 1].start >= length)
		e->used--;
	if (e->used && e->x[e->used - 1].end > length)
		e->x[e->used - 1].end = length;
}

void rt_record_failure(struct rt_record *rec, enum ioa_module module, const char *op, int err)
{
	uint64_t id = rec ? rec->id : 0;
	int library = module != IOA_MOD_MPIIO && (rt_self()->inside & (RT_IN_MPI | RT_IN_MPIIO));
	size_t i;

	if (library && (rt_self()->inside & RT_IN_MPIIO))
		rt_live->mpi_library.failed_mpiio++;
	if (rec && !library) {
		static const int failed_counter[IOA_MOD_COUNT] = {
			[IOA_MOD_POSIX] = POSIX_FAILED_CALLS,
			[IOA_MOD_STDIO] = STDIO_FAILED_CALLS,
			[IOA_MOD_MPIIO] = MPIIO_FAILED_CALLS,
			[IOA_MOD_H5F] = H5F_FAILED_CALLS,
			[IOA_MOD_H5D] = H5D_FAILED_CALLS,
			[IOA_MOD_PNETCDF_FILE] = PNETCDF_FILE_FAILED_CALLS,
			[IOA_MOD_PNETCDF_VAR] = PNETCDF_VAR_FAILED_CALLS,
		};
		rec->counters[failed_counter[module]]++;
	}
	for (i = 0; i < rt_live->failure_count; i++) {
		struct rt_failure *f = &rt_live->failures[i];

		if (f->record_id == id && f->module == module && f->err == err &&
		    !strcmp(f->op, op) && f->mpi_library == library) {
			f->count++;
			return;
		}
	}
	/* The name is copied: a literal of this process means nothing to recover. */
	if (!rt_live->failures || rt_live->failure_count == RT_FAILURE_SLOTS ||
	    !(op = rt_arena_strndup(&rt.arena, op, strlen(op)))) {
		rt_live->failures_dropped++;
		return;
	}
	rt_live->failures[rt_live->failure_count++] =
		(struct rt_failure){id, module, op, err, library, 1};
}

size_t rt_failures(const struct rt_failure **table)
{
	*table = rt_live->failures;
	return rt_live->failure_count;
}

/* The bounds as immediates, not a table: a call reads no page of constants. */
void rt_size_bin_n(int64_t *counters, int first_bin, int64_t len, int64_t n)
{
	int bin = len <= 100	      ? 0
		  : len <= 1024	      ? 1
		  : len <= 10240      ? 2
		  : len <= 102400     ? 3
		  : len <= 1048576    ? 4
		  : len <= 4194304    ? 5
		  : len <= 10485760   ? 6
		  : len <= 104857600  ? 7
		  : len <= 1073741824 ? 8
				      : 9;

	counters[first_bin + bin] += n;
}

void rt_records_to_seconds(double seconds_per_tick)
{
	struct rt_record *rec;
	unsigned m, i;

	rt_live->seconds_per_tick = seconds_per_tick;
	for (m = 0; m < IOA_MOD_COUNT; m++) {
		const struct ioa_module_desc *mod = &ioa_modules[m];

		for (rec = rt_live->modules[m].first; rec; rec = rec->next_in_module)
			for (i = 0; i < mod->fcounter_count; i++)
				rec->fcounters[i] *= seconds_per_tick;
		for (i = 0; i < mod->fcounter_count; i++)
			rt_live->modules[m].overflow->fcounters[i] *= seconds_per_tick;
	}
}

/*
 * A timestamp taken (> 0) moved by ticks, still a whole number of ticks
 * times seconds per tick: the log stores such a value in a few bytes.
 */
static void shift_time(double *t, uint64_t ticks, double spt)
{
	if (*t > 0)
		*t = (double)((long long)(*t / spt + 0.5) + (long long)ticks) * spt;
}

void rt_records_shift(uint64_t ticks)
{
	double spt = rt_live->seconds_per_tick;
	struct rt_record *rec;
	unsigned m, i;

	if (!ticks || !(spt > 0))
		return;
	for (m = 0; m < IOA_MOD_COUNT; m++) {
		const struct ioa_module_desc *mod = &ioa_modules[m];

		for (i = 0; i < mod->fcounter_count; i++) {
			if (!strstr(mod->fcounter_names[i], "_TIMESTAMP"))
				continue;
			for (rec = rt_live->modules[m].first; rec; rec = rec->next_in_module)
				shift_time(&rec->fcounters[i], ticks, spt);
			shift_time(&rt_live->modules[m].overflow->fcounters[i], ticks, spt);
		}
	}
}

void rt_accesses_add(struct rt_accesses *t, const int64_t *key, int64_t n)
{
	unsigned i;

	for (i = 0; i < t->used; i++)
		if (!memcmp(t->key[i], key, sizeof(t->key[i]))) {
			t->count[i] = ioa_counter_sat_add(t->count[i], n);
			return;
		}
	if (t->used < RT_ACCESS_SLOTS) {
		memcpy(t->key[t->used], key, sizeof(t->key[0]));
		t->count[t->used++] = n;
	}
}

/* The counters rt_layer_io() updates, per module. */
struct rt_layer_io_counters {
	int bytes[2], switches, max_time_size[2], bin0[2];
	int f_start[2], f_end[2], f_time[2], f_max_time[2];
};

#define RT_LAYER_IO_COUNTERS(P)                                                    \
	{                                                                          \
		{P##_BYTES_READ, P##_BYTES_WRITTEN}, P##_RW_SWITCHES,              \
			{P##_MAX_READ_TIME_SIZE, P##_MAX_WRITE_TIME_SIZE},         \
			{P##_SIZE_READ_AGG_0_100, P##_SIZE_WRITE_AGG_0_100},       \
			{P##_F_READ_START_TIMESTAMP, P##_F_WRITE_START_TIMESTAMP}, \
			{P##_F_READ_END_TIMESTAMP, P##_F_WRITE_END_TIMESTAMP},     \
			{P##_F_READ_TIME, P##_F_WRITE_TIME},                       \
		{                                                                  \
			P##_F_MAX_READ_TIME, P##_F_MAX_WRITE_TIME                  \
		}                                                                  \
	}

void rt_layer_io(struct rt_record *rec, int is_write, int64_t bytes, const int64_t *key, double t0,
		 double t1)
{
	static const struct rt_layer_io_counters h5d = RT_LAYER_IO_COUNTERS(H5D),
						 nc = RT_LAYER_IO_COUNTERS(PNETCDF_VAR);
	const struct rt_layer_io_counters *x = rec->module == IOA_MOD_H5D ? &h5d : &nc;
	int64_t *c = rec->counters;
	double *f = rec->fcounters;
	int w = !!is_write;

	c[x->bytes[w]] += bytes;
	rt_size_bin(c, x->bin0[w], bytes);
	if (!rec->accesses)
		rec->accesses = rt_arena_alloc(&rt.arena, sizeof(*rec->accesses));
	if (rec->accesses)
		rt_accesses_add(rec->accesses, key, 1);
	if (rec->last_io == (w ? 1 : 2))
		c[x->switches]++;
	rec->last_io = w ? 2 : 1;
	rt_set_first(&f[x->f_start[w]], t0);
	rt_set_last(&f[x->f_end[w]], t1);
	rt_add_time(&f[x->f_time[w]], w ? &rec->write_end : &rec->read_end, t0, t1);
	if (f[x->f_max_time[w]] < t1 - t0) {
		f[x->f_max_time[w]] = t1 - t0;
		c[x->max_time_size[w]] = bytes;
	}
}

void rt_accesses_top4(const struct rt_accesses *t, int64_t *access1, int64_t *count1)
{
	unsigned taken = 0, i, k, best;

	for (k = 0; t && k < 4 && k < t->used; k++) {
		/* The k-th largest count; among equal counts the first seen. */
		for (i = 0, best = RT_ACCESS_SLOTS; i < t->used; i++)
			if (!(taken & (1u << i)) &&
			    (best == RT_ACCESS_SLOTS || t->count[i] > t->count[best]))
				best = i;
		taken |= 1u << best;
		memcpy(&access1[k * RT_ACCESS_KEY], t->key[best], sizeof(t->key[best]));
		count1[k] = t->count[best];
	}
}
