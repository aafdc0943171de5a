/*
 * rt_trace — the operation trace (see rt_trace.h).
 *
 * The folding works on a stack of nodes, newest last, with polynomial
 * prefix hashes over their structural hashes (a leaf: its signature; a
 * loop: its count and body), so that "do the last L nodes repeat the L
 * before them" and "do they repeat the body of the loop before them" cost
 * O(1) each.  After every node pushed, the smallest L (up to the window)
 * that folds is folded, and again, until nothing folds: a fresh repeat
 * becomes a loop of 2, a further one extends the loop.  Folding never
 * changes what the trace expands to: matching is structural (signatures
 * and loop counts) and the numbers of the two copies are merged into one
 * model (ioa_trace_model) or, where no stride fits, an explicit list.
 *
 * Memory is a private pool with power-of-two size classes and free lists,
 * carved from the arena once.  A fold first computes what it would need
 * and is skipped when the pool cannot give it, so a fold never fails half
 * done; the trace degrades (window, then summary) before the pool runs dry.
 */
#define _GNU_SOURCE
#include "rt_trace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_logw.h"
#include "ioa_trace.h"
#include "rt_core.h"
#include "rt_records.h"
#include "rt_spill.h"

#define TR_W	       RT_TRACE_WINDOW /* longest loop body, in nodes */
#define TR_STACK       (3 * TR_W)      /* nodes kept before the oldest are written out */
#define TR_HEADROOM    (64 * 1024)     /* the trace stops with this much of the pool left */
#define TR_CLASSES     17	       /* size classes: 32 B << 0..16 */
#define TR_CHUNK       4096	       /* rope chunk size */
#define TR_WINDOW_BINS 64	       /* a histogram's window, in bins (4 octaves) */
#define TR_WINDOW_MIN  8	       /* sorted bins that make a histogram want one */
#define TR_MAX_COMMS   256
#define TR_MAX_REQS    1024
#define TR_MAX_HINTS   64
#define TR_MAX_NESTING 64
#define TR_HASH_BASE   0x9e3779b97f4a7c15ull
#define TR_CHECK_CALLS 8192	   /* calls between two looks at how well the grammar compresses */
#define TR_MAX_GROWTH  4	   /* pool bytes per call above which it does not */
#define TR_RESERVE     (32 * 1024) /* kept free once the window is carved (tables still grow) */
#define TR_TIME_BINS   976	   /* ioa_trace_bin() of any 64-bit time is below */
#define TR_LOG2_BINS   65	   /* ioa_trace_log2_bin() of any 64-bit number is below */

/*
 * A call kept exactly once the grammar stopped: 24 bytes.  A call whose
 * numbers do not fit closes the window (the exact calls stay a prefix).
 */
struct tr_wop {
	int64_t offset;
	uint32_t length;
	int32_t aux;
	uint16_t sig, slot; /* slot: 1 + the slot, 0 for none */
	uint16_t dur, gap;  /* bins */
};

#define TR_SIG_CACHE 16 /* signatures cached by call name (a power of two) */
#define TR_PENDING   32 /* the fast path's calls not yet added to their leaves (>= TR_W) */

struct tr_sig_cache {
	const char *op; /* NULL: empty */
	uint64_t key;	/* module, flags and errno */
	uint32_t sig;
};

/* What the summary keeps per file: the calls after the exact prefix. */
struct tr_fsum {
	uint64_t reads, writes, others, bytes_read, bytes_written;
};

struct tr_raw {
	const char *op;
	uint8_t module;
	uint16_t flags;
	int32_t err;
	int64_t v[IOA_TRACE_NVALUES];
	uint64_t dur, gap; /* ticks */
};

struct tr_sig {
	const char *op;	  /* the caller's literal: a key, compared as a pointer */
	const char *name; /* its copy in the pool, which the trace writes */
	uint8_t module;
	uint16_t flags;
	int32_t err;
};

struct tr_hbin {
	uint64_t count;
	uint16_t bin;
};

/*
 * A histogram of times: its bins in ascending order, inline while there are
 * at most two, else in a sorted array.  Once a call repeated in a loop has
 * spread over TR_WINDOW_MIN bins, the bins around its most frequent one move
 * into a window of TR_WINDOW_BINS counts indexed by bin, so that adding a
 * time is one index; the rare times outside it stay sorted.
 */
struct tr_hist {
	uint32_t n;	     /* bins with a count */
	uint32_t nsort, cap; /* sorted entries; cap 0: inline */
	uint32_t last;	     /* the sorted entry the previous time went to */
	uint32_t lo;	     /* the window's first bin */
	uint64_t *window;    /* TR_WINDOW_BINS counts, or NULL */
	struct tr_hbin *ext;
	struct tr_hbin inl[2];
};

/* A run of a call's executions, in order: how many, and their gaps summed (ticks). */
struct tr_seg {
	uint64_t n, sum;
};

/*
 * The order of a call's gaps (ioa_trace.h): its executions in segments,
 * oldest first, a segment closing after unit executions.  At
 * IOA_TRACE_ORDER_SEGS segments neighbours merge pairwise and unit doubles.
 * An order the pool has no room for is dropped to one segment that takes
 * every execution (unit TR_ORDER_LOST): the histograms stay exact without.
 */
struct tr_order {
	struct tr_seg *open; /* the last segment, which takes the next executions */
	uint64_t unit;
	struct tr_seg *seg; /* cap entries; cap 0: the one inline */
	uint32_t nseg, cap;
	struct tr_seg inl;
};

#define TR_ORDER_LOST  UINT64_MAX
#define TR_ORDER_FLOOR 1e-5 /* seconds: gaps closer than this keep no order */

struct tr_val {
	uint8_t explicit_list;
	uint8_t nstrides;
	int64_t base;
	int64_t stride[IOA_TRACE_MAX_DEPTH];
	int64_t *list;
	uint64_t n, cap;
};

struct tr_node {
	uint64_t hash;	/* structural */
	uint64_t count; /* loop: iterations; 0: a leaf */
	uint64_t body_hash;
	struct tr_node **body;
	uint32_t nbody;
	uint32_t sig;
	struct tr_val v[IOA_TRACE_NVALUES];
	struct tr_hist dur, gap;
	struct tr_order order; /* of the gaps */
};

struct tr_chunk {
	struct tr_chunk *next;
	uint32_t used;
	unsigned char data[TR_CHUNK - 16];
};

struct tr_rope {
	struct tr_chunk *first, *last;
	uint64_t len;
};

/* A rope's end, to go back to when a node cannot be written out whole. */
struct tr_mark {
	struct tr_chunk *last;
	uint32_t used;
	uint64_t len;
};

struct tr_comm {
	int64_t handle;
	int32_t size, rank, leader;
};

/*
 * What a call reads and writes (the scalars, the signature cache, the fast
 * path's next values) comes first: on one page of the pool.
 */
struct tr_state {
	int on, stopped, lost;
	/*
	 * The grammar stopped compressing (or its pool ran low): calls go to
	 * the window while it has room and they fit, then to the summary.
	 */
	int degraded, window_closed;
	uint64_t check_at; /* events_total at which the growth is next measured */
	size_t check_used; /* the pool's high-water mark then */
	size_t low_water;  /* past this high-water mark the pool runs low */
	struct tr_wop *window;
	uint64_t nwindow, window_cap;
	uint64_t prev_start;	  /* the previous call's start, ticks */
	uint64_t *sig_calls;	  /* per signature: calls summarised */
	struct tr_fsum *fsum;	  /* per file slot, sized as files */
	struct tr_fsum fsum_none; /* I/O calls summarised without a file slot */
	uint64_t sum_calls, sum_unnamed;
	uint64_t *sum_off, *sum_size; /* ioa_trace_log2_bin() of offsets and lengths (I/O calls) */
	uint64_t *sum_arrival, *sum_gap; /* the same of start-to-start times and gaps, in ticks */
	int cut;			 /* a node could not be written out: nothing after it is */
	int fold_pending;		 /* the top loop grew in place; folds it enables wait */
	char *base;
	size_t size, used;
	void *free[TR_CLASSES];
	uint64_t events_total, events_traced;
	uint64_t first_start, last_end;
	uint64_t top_end;	    /* end of the last call that is not a sub-call */
	uint64_t compute, sync, io; /* ticks: gaps, MPI durations, I/O durations */
	int have_start;
	unsigned nstash; /* calls in stash */
	struct tr_sig_cache sig_cache[TR_SIG_CACHE];
	/*
	 * What the next iteration of the top loop must be, when its body is
	 * calls whose values each step by one stride (fast_loop set): per body
	 * call its signature, values and strides.  Kept by continue_top, dropped
	 * whenever the tree changes some other way.
	 */
	struct tr_node *fast_loop;
	int fast_tried; /* the top loop was looked at and cannot be continued fast */
	/*
	 * Its iterations completed since the loop was last updated, and their
	 * calls' durations and gaps, in order: added to the loop and its
	 * leaves (fast_apply()) when TR_PENDING fill and before anything else
	 * looks at them, so that a call touches this page only.
	 */
	uint32_t fast_nbody; /* the loop's body, in calls */
	uint32_t npending, pending_iters;
	struct tr_pending {
		uint64_t dur, gap;
	} pending[TR_PENDING];
	uint32_t fast_sig[RT_TRACE_WINDOW];
	int64_t fast_next[RT_TRACE_WINDOW][IOA_TRACE_NVALUES];
	int64_t fast_stride[RT_TRACE_WINDOW][IOA_TRACE_NVALUES];
	struct tr_raw stash[RT_TRACE_WINDOW]; /* the top loop's iteration in progress */
	struct tr_sig *sigs;
	uint32_t nsigs, sig_cap;
	uint32_t *sig_table; /* open addressing: index + 1, 0 empty */
	uint32_t sig_mask;
	uint64_t *files;
	uint32_t nfiles, file_cap;
	struct tr_comm comms[TR_MAX_COMMS];
	uint32_t ncomms;
	int64_t requests[TR_MAX_REQS];
	unsigned char request_used[TR_MAX_REQS];
	unsigned nreqs; /* slots ever used: the lowest free one is below or at it */
	const char *hints[TR_MAX_HINTS];
	uint32_t nhints;
	struct tr_node *stack[TR_STACK + 1];
	uint64_t prefix[TR_STACK + 2];
	uint64_t pow[TR_W + 1];
	size_t len;
	struct tr_rope shape, values, times, orders;
	uint64_t ntop;	  /* nodes written out at the top level */
	uint64_t nleaves; /* calls (leaves) written out */
	uint64_t norders; /* orders of gaps written out */
	uint64_t next_id;
};

/* In the arena (rt_live->trace), so that a spill holds it. */
static struct tr_state *tr;
int rt_tracing;

/* ------------------------------------------------------------ pool */

static unsigned size_class(size_t n)
{
	unsigned c = 0;

	while (((size_t)32 << c) < n)
		c++;
	return c;
}

static size_t class_bytes(size_t n)
{
	return (size_t)32 << size_class(n);
}

static void *tr_alloc(size_t n)
{
	unsigned c = size_class(n);
	size_t bytes = (size_t)32 << c;
	void *p;

	if (c >= TR_CLASSES)
		return NULL;
	p = tr->free[c];
	if (p) {
		memcpy(&tr->free[c], p, sizeof(void *));
		memset(p, 0, bytes);
		return p;
	}
	if (bytes > tr->size - tr->used)
		return NULL;
	p = tr->base + tr->used;
	tr->used += bytes;
	return p; /* fresh arena memory is zero */
}

static void tr_free(void *p, size_t n)
{
	unsigned c = size_class(n);

	if (!p)
		return;
	memcpy(p, &tr->free[c], sizeof(void *));
	tr->free[c] = p;
}

static size_t tr_room(void)
{
	return tr->size - tr->used;
}

/* The trace can no longer be kept consistent: it is dropped, counters go on. */
static void tr_lose(void)
{
	tr->lost = 1;
	tr->stopped = 1;
}

int rt_trace_init(uint64_t budget)
{
	unsigned i;

	rt_tracing = 0;
	/* Its first page holds what a call touches (struct tr_state). */
	tr = rt_arena_alloc_aligned(&rt.arena, sizeof(*tr), 4096);
	if (!tr)
		return -ENOMEM;
	rt_live->trace = tr;
	rt_live->trace_bytes = sizeof(*tr);
	if (!budget)
		return 0;
	tr->base = rt_arena_alloc(&rt.arena, (size_t)budget);
	if (!tr->base)
		return -ENOMEM;
	tr->size = (size_t)budget;
	/* The summary's histograms, so that a trace that degrades always has them. */
	tr->sum_off = tr_alloc(TR_LOG2_BINS * sizeof(uint64_t));
	tr->sum_size = tr_alloc(TR_LOG2_BINS * sizeof(uint64_t));
	tr->sum_arrival = tr_alloc(TR_LOG2_BINS * sizeof(uint64_t));
	tr->sum_gap = tr_alloc(TR_LOG2_BINS * sizeof(uint64_t));
	if (!tr->sum_off || !tr->sum_size || !tr->sum_arrival || !tr->sum_gap) {
		memset(tr, 0, sizeof(*tr));
		return 0;
	}
	tr->check_at = TR_CHECK_CALLS;
	tr->check_used = tr->used;
	tr->low_water = tr->size > 2 * TR_HEADROOM ? tr->size - 2 * TR_HEADROOM : 0;
	tr->pow[0] = 1;
	for (i = 1; i <= TR_W; i++)
		tr->pow[i] = tr->pow[i - 1] * TR_HASH_BASE;
	tr->on = rt_tracing = 1;
	return 0;
}

void rt_trace_adopt(void)
{
	tr = rt_live->trace;
	rt_tracing = tr && tr->on;
}

uint64_t rt_trace_next_id(void)
{
	return __atomic_add_fetch(&tr->next_id, 1, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------ ropes */

static int rope_add(struct tr_rope *r, const void *bytes, size_t n)
{
	const unsigned char *p = bytes;

	while (n) {
		size_t take;

		if (!r->last || r->last->used == sizeof(r->last->data)) {
			struct tr_chunk *c = tr_alloc(sizeof(*c));

			if (!c)
				return -ENOMEM;
			if (r->last)
				r->last->next = c;
			else
				r->first = c;
			r->last = c;
		}
		take = sizeof(r->last->data) - r->last->used;
		if (take > n)
			take = n;
		memcpy(r->last->data + r->last->used, p, take);
		r->last->used += (uint32_t)take;
		r->len += take;
		p += take;
		n -= take;
	}
	return 0;
}

static int rope_uvar(struct tr_rope *r, uint64_t v)
{
	unsigned char tmp[10];

	return rope_add(r, tmp, ioa_uvar_put(tmp, v));
}

static int rope_svar(struct tr_rope *r, int64_t v)
{
	return rope_uvar(r, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static void rope_mark(const struct tr_rope *r, struct tr_mark *m)
{
	m->last = r->last;
	m->used = r->last ? r->last->used : 0;
	m->len = r->len;
}

static void rope_rewind(struct tr_rope *r, const struct tr_mark *m)
{
	struct tr_chunk *c = m->last ? m->last->next : r->first, *next;

	for (; c; c = next) {
		next = c->next;
		tr_free(c, sizeof(*c));
	}
	if (m->last) {
		m->last->next = NULL;
		m->last->used = m->used;
	} else {
		r->first = NULL;
	}
	r->last = m->last;
	r->len = m->len;
}

/* Copies the rope into malloc'd memory between prefix and suffix, with room for one byte more. */
static unsigned char *rope_join(const struct tr_rope *r, const struct ioa_buf *prefix,
				const struct ioa_buf *suffix, size_t *len)
{
	unsigned char *out = malloc(prefix->len + r->len + suffix->len + 1);
	const struct tr_chunk *c;
	size_t at = prefix->len;

	if (!out)
		return NULL;
	if (prefix->len)
		memcpy(out, prefix->data, prefix->len);
	for (c = r->first; c; c = c->next) {
		memcpy(out + at, c->data, c->used);
		at += c->used;
	}
	if (suffix->len)
		memcpy(out + at, suffix->data, suffix->len);
	*len = at + suffix->len;
	return out;
}

/* ------------------------------------------------------------ histograms */

static struct tr_hbin *hist_sorted(struct tr_hist *h)
{
	return h->cap ? h->ext : h->inl;
}

static void hist_free(struct tr_hist *h)
{
	if (h->cap)
		tr_free(h->ext, h->cap * sizeof(*h->ext));
	if (h->window)
		tr_free(h->window, TR_WINDOW_BINS * sizeof(*h->window));
}

struct hist_cursor {
	uint32_t sorted, window;
};

/* The next bin with a count, ascending; 0 after the last. */
static int hist_next(const struct tr_hist *h, struct hist_cursor *c, struct tr_hbin *out)
{
	const struct tr_hbin *e = h->cap ? h->ext : h->inl;
	int below = c->sorted < h->nsort && (!h->window || e[c->sorted].bin < h->lo);

	if (h->window && !below) {
		while (c->window < TR_WINDOW_BINS && !h->window[c->window])
			c->window++;
		if (c->window < TR_WINDOW_BINS) {
			out->bin = (uint16_t)(h->lo + c->window);
			out->count = h->window[c->window++];
			return 1;
		}
	}
	if (c->sorted >= h->nsort)
		return 0;
	*out = e[c->sorted++];
	return 1;
}

/* At most the bytes adding extra bins can take from the pool (windows aside). */
static size_t hist_cost(const struct tr_hist *h, uint32_t extra)
{
	uint32_t cap = h->cap ? h->cap : 2;

	return h->nsort + extra > cap
		       ? class_bytes((size_t)(h->nsort + extra) * sizeof(struct tr_hbin))
		       : 0;
}

/* Adds a bin to the sorted entries, at i. */
static int hist_insert(struct tr_hist *h, uint32_t i, unsigned bin, uint64_t count)
{
	struct tr_hbin *e = hist_sorted(h);
	uint32_t cap = h->cap ? h->cap : 2;

	if (h->nsort == cap) {
		uint32_t want = cap * 2 < 8 ? 8 : cap * 2;
		struct tr_hbin *ext = tr_alloc(want * sizeof(*ext));

		if (!ext)
			return -ENOMEM;
		memcpy(ext, e, h->nsort * sizeof(*ext));
		if (h->cap)
			tr_free(h->ext, h->cap * sizeof(*ext));
		h->ext = ext;
		h->cap = want;
		e = ext;
	}
	memmove(e + i + 1, e + i, (h->nsort - i) * sizeof(*e));
	e[i].bin = (uint16_t)bin;
	e[i].count = count;
	h->nsort++;
	h->n++;
	return 0;
}

/*
 * Opens the window around the most frequent sorted bin and moves the bins
 * it covers into it.  Only while the pool has room to spare: a histogram
 * without a window is as exact, only slower to add to.
 */
static void hist_open_window(struct tr_hist *h)
{
	struct tr_hbin *e = hist_sorted(h);
	uint32_t i, k = 0, top = 0;

	if (tr_room() < 2 * TR_HEADROOM)
		return;
	h->window = tr_alloc(TR_WINDOW_BINS * sizeof(*h->window));
	if (!h->window)
		return;
	for (i = 1; i < h->nsort; i++)
		if (e[i].count > e[top].count)
			top = i;
	h->lo = e[top].bin > TR_WINDOW_BINS / 4 ? e[top].bin - TR_WINDOW_BINS / 4 : 0;
	for (i = 0; i < h->nsort; i++) {
		if (e[i].bin - h->lo < TR_WINDOW_BINS && e[i].bin >= h->lo)
			h->window[e[i].bin - h->lo] = e[i].count;
		else
			e[k++] = e[i];
	}
	h->nsort = k;
	h->last = 0;
}

static int hist_add_slow(struct tr_hist *h, unsigned bin, uint64_t count, int may_window);

/*
 * Adds count times to bin: in the window, one index; in the bin the
 * previous time went to (a loop's steady times, before any window), one
 * comparison.
 */
static inline int hist_add(struct tr_hist *h, unsigned bin, uint64_t count, int may_window)
{
	uint32_t i = bin - h->lo;

	if (h->window && i < TR_WINDOW_BINS) {
		h->n += !h->window[i];
		h->window[i] += count;
		return 0;
	}
	if (h->last < h->nsort && hist_sorted(h)[h->last].bin == bin) {
		hist_sorted(h)[h->last].count += count;
		return 0;
	}
	return hist_add_slow(h, bin, count, may_window);
}

static int hist_add_slow(struct tr_hist *h, unsigned bin, uint64_t count, int may_window)
{
	struct tr_hbin *e = hist_sorted(h);
	uint32_t i = h->last < h->nsort ? h->last : 0;
	int rc;

	/* Consecutive times fall in the same or nearby bins: the search starts where the last one
	 * went. */
	while (i > 0 && e[i - 1].bin >= bin)
		i--;
	while (i < h->nsort && e[i].bin < bin)
		i++;
	h->last = i;
	if (i < h->nsort && e[i].bin == bin) {
		e[i].count += count;
		return 0;
	}
	rc = hist_insert(h, i, bin, count);
	if (!rc && may_window && !h->window && h->nsort >= TR_WINDOW_MIN)
		hist_open_window(h);
	return rc;
}

/* Merges y's times into x (never opens a window: the merge's cost was counted without). */
static int hist_merge(struct tr_hist *x, const struct tr_hist *y)
{
	struct hist_cursor c = {0, 0};
	struct tr_hbin b;
	int rc = 0;

	while (!rc && hist_next(y, &c, &b))
		rc = hist_add(x, b.bin, b.count, 0);
	return rc;
}

/* ------------------------------------------------------------ orders of gaps */

static struct tr_seg *order_segs(struct tr_order *o)
{
	return o->cap ? o->seg : &o->inl;
}

/* After the segments changed: the last one takes the next executions. */
static void order_reopen(struct tr_order *o)
{
	o->open = order_segs(o) + o->nseg - 1;
}

/* Merges neighbouring segments pairwise: half as many, each twice as long. */
static void segs_halve(struct tr_seg *s, uint32_t *n, uint64_t *unit)
{
	uint32_t i, k = 0;

	for (i = 0; i < *n; i += 2, k++) {
		s[k] = s[i];
		if (i + 1 < *n) {
			s[k].n += s[i + 1].n;
			s[k].sum += s[i + 1].sum;
		}
	}
	*n = k;
	*unit *= 2;
}

/*
 * Adds an execution's gap to segments with room for IOA_TRACE_ORDER_SEGS
 * (a pool order: reserved by the caller).
 */
static void segs_add(struct tr_seg *s, uint32_t *n, uint64_t *unit, uint64_t gap)
{
	if (*n && s[*n - 1].n < *unit) {
		s[*n - 1].n++;
		s[*n - 1].sum += gap;
		return;
	}
	if (*n == IOA_TRACE_ORDER_SEGS) {
		segs_halve(s, n, unit);
		segs_add(s, n, unit, gap);
		return;
	}
	s[(*n)++] = (struct tr_seg){1, gap};
}

/* The order starts with one execution. */
static void order_init(struct tr_order *o, uint64_t gap)
{
	o->inl = (struct tr_seg){1, gap};
	o->nseg = 1;
	o->unit = 1;
	order_reopen(o);
}

/* Drops the order: one segment of every execution, which takes all that come. */
static void order_lose(struct tr_order *o)
{
	struct tr_seg all = {0, 0}, *s = order_segs(o);
	uint32_t i;

	for (i = 0; i < o->nseg; i++) {
		all.n += s[i].n;
		all.sum += s[i].sum;
	}
	if (o->cap)
		tr_free(o->seg, o->cap * sizeof(*o->seg));
	o->seg = NULL;
	o->cap = 0;
	o->inl = all;
	o->nseg = 1;
	o->unit = TR_ORDER_LOST;
	order_reopen(o);
}

/* Room for one segment more (up to the bound), while the pool has room to spare. */
static int order_reserve(struct tr_order *o)
{
	uint32_t cap = o->cap ? o->cap : 1, want;
	struct tr_seg *seg;

	if (o->nseg < cap || o->nseg == IOA_TRACE_ORDER_SEGS)
		return 0;
	if (tr_room() < 2 * TR_HEADROOM)
		return -ENOMEM;
	want = cap * 2 < 4 ? 4 : cap * 2;
	seg = tr_alloc(want * sizeof(*seg));
	if (!seg)
		return -ENOMEM;
	memcpy(seg, order_segs(o), o->nseg * sizeof(*seg));
	if (o->cap)
		tr_free(o->seg, o->cap * sizeof(*seg));
	o->seg = seg;
	o->cap = want;
	return 0;
}

static void order_add_slow(struct tr_order *o, uint64_t gap);

/* Adds the gap of the call's next execution: most often, to the open segment. */
static inline void order_add(struct tr_order *o, uint64_t gap)
{
	struct tr_seg *s = o->open;

	if (__builtin_expect(s->n < o->unit, 1)) {
		s->n++;
		s->sum += gap;
		return;
	}
	order_add_slow(o, gap);
}

static __attribute__((noinline, cold)) void order_add_slow(struct tr_order *o, uint64_t gap)
{
	if (order_reserve(o))
		order_lose(o);
	segs_add(order_segs(o), &o->nseg, &o->unit, gap);
	order_reopen(o);
}

/* Appends y's executions (the later ones) to x's. */
static void order_merge(struct tr_order *x, struct tr_order *y)
{
	struct tr_seg *ys = order_segs(y);
	uint32_t i;

	if (y->unit == TR_ORDER_LOST)
		order_lose(x);
	if (x->unit == TR_ORDER_LOST) {
		for (i = 0; i < y->nseg; i++) {
			x->inl.n += ys[i].n;
			x->inl.sum += ys[i].sum;
		}
		return;
	}
	if (y->unit > x->unit)
		x->unit = y->unit;
	for (i = 0; i < y->nseg; i++) {
		struct tr_seg *xs;

		if (x->nseg == IOA_TRACE_ORDER_SEGS)
			segs_halve(order_segs(x), &x->nseg, &x->unit);
		if (order_reserve(x)) {
			order_lose(x);
			for (; i < y->nseg; i++) {
				x->inl.n += ys[i].n;
				x->inl.sum += ys[i].sum;
			}
			return;
		}
		xs = order_segs(x);
		xs[x->nseg++] = ys[i];
	}
	order_reopen(x);
}

/* ------------------------------------------------------------ nodes */

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static uint64_t loop_hash(uint64_t body_hash, uint64_t count)
{
	return mix64(body_hash ^ mix64(count + 0x51ed27ull));
}

static void node_free(struct tr_node *n)
{
	unsigned v;
	uint32_t i;

	if (n->count) {
		for (i = 0; i < n->nbody; i++)
			node_free(n->body[i]);
		tr_free(n->body, n->nbody * sizeof(*n->body));
	} else {
		for (v = 0; v < IOA_TRACE_NVALUES; v++)
			if (n->v[v].list)
				tr_free(n->v[v].list, n->v[v].cap * sizeof(int64_t));
		hist_free(&n->dur);
		hist_free(&n->gap);
		if (n->order.cap)
			tr_free(n->order.seg, n->order.cap * sizeof(*n->order.seg));
	}
	tr_free(n, sizeof(*n));
}

static int node_eq(const struct tr_node *a, const struct tr_node *b)
{
	uint32_t i;

	if (a->hash != b->hash || a->count != b->count)
		return 0;
	if (!a->count)
		return a->sig == b->sig;
	if (a->nbody != b->nbody)
		return 0;
	for (i = 0; i < a->nbody; i++)
		if (!node_eq(a->body[i], b->body[i]))
			return 0;
	return 1;
}

static int seq_eq(struct tr_node *const *a, struct tr_node *const *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!node_eq(a[i], b[i]))
			return 0;
	return 1;
}

/* ------------------------------------------------------------ merging */

enum tr_mode { TR_NEW, TR_EXTEND };

/* Product of dims, saturating (a huge product can never be afforded anyway). */
static uint64_t product(const uint64_t *dims, unsigned n)
{
	uint64_t p = 1;
	unsigned i;

	for (i = 0; i < n; i++)
		if (__builtin_mul_overflow(p, dims[i], &p))
			return UINT64_MAX / 16;
	return p;
}

static int list_reserve(struct tr_val *x, uint64_t n)
{
	uint64_t cap;
	int64_t *list;

	if (n <= x->cap)
		return 0;
	cap = class_bytes((size_t)n * sizeof(int64_t)) / sizeof(int64_t);
	list = tr_alloc((size_t)cap * sizeof(int64_t));
	if (!list)
		return -ENOMEM;
	if (x->n)
		memcpy(list, x->list, (size_t)x->n * sizeof(int64_t));
	if (x->list)
		tr_free(x->list, (size_t)x->cap * sizeof(int64_t));
	x->list = list;
	x->cap = cap;
	return 0;
}

/* Appends the executions of affine model v over dims (innermost first) to x's list. */
static void append_affine(struct tr_val *x, const struct tr_val *v, const uint64_t *dims,
			  unsigned nd)
{
	uint64_t idx[TR_MAX_NESTING + 1] = {0}, total = product(dims, nd), t;
	unsigned j;

	for (t = 0; t < total; t++) {
		uint64_t value = (uint64_t)v->base;

		for (j = 0; j < v->nstrides; j++)
			value += (uint64_t)v->stride[j] * idx[j];
		x->list[x->n++] = (int64_t)value;
		for (j = 0; j < nd && ++idx[j] == dims[j]; j++)
			idx[j] = 0;
	}
}

/*
 * Merges y's model into x's: mode TR_NEW makes the first loop of two
 * copies, TR_EXTEND adds iteration k (x then has the loop's dimension
 * outermost).  counts: the enclosing loops inside the copies, innermost
 * first.  Without apply, only adds the bytes it would need to *cost.
 */
static int merge_val(struct tr_val *x, const struct tr_val *y, enum tr_mode mode, uint64_t k,
		     const uint64_t *counts, unsigned depth, int apply, size_t *cost)
{
	uint64_t dims[TR_MAX_NESTING + 2], e = product(counts, depth), have, want;
	unsigned xd = depth + (mode == TR_EXTEND);

	if (!x->explicit_list && !y->explicit_list && y->nstrides == depth &&
	    memcmp(x->stride, y->stride, depth * sizeof(*x->stride)) == 0) {
		if (mode == TR_NEW && x->nstrides == depth && depth < IOA_TRACE_MAX_DEPTH) {
			if (apply) {
				x->stride[depth] = (int64_t)((uint64_t)y->base - (uint64_t)x->base);
				x->nstrides = (uint8_t)(depth + 1);
			}
			return 0;
		}
		if (mode == TR_EXTEND && x->nstrides == depth + 1 &&
		    (uint64_t)y->base == (uint64_t)x->base + (uint64_t)x->stride[depth] * k)
			return 0;
	}
	/*
	 * A stride that held for three iterations or more is kept: the call
	 * that breaks it starts a new loop (a loop of loops, when the pattern
	 * repeats), rather than the whole loop turning into a list.
	 */
	if (mode == TR_EXTEND && !x->explicit_list && k >= 3) {
		*cost = SIZE_MAX / 2;
		return 0;
	}
	have = x->explicit_list ? x->n : product(counts, depth) * (mode == TR_EXTEND ? k : 1);
	if (__builtin_add_overflow(have, e, &want) || want > (uint64_t)tr->size / sizeof(int64_t)) {
		*cost = SIZE_MAX / 2;
		return 0;
	}
	if (!apply) {
		if (want > x->cap)
			*cost += class_bytes((size_t)want * sizeof(int64_t));
		return 0;
	}
	if (depth)
		memcpy(dims, counts, depth * sizeof(*dims));
	dims[depth] = k;
	if (!x->explicit_list) {
		struct tr_val affine = *x;

		if (list_reserve(x, want))
			return -ENOMEM;
		x->n = 0;
		append_affine(x, &affine, dims, xd);
		x->explicit_list = 1;
		x->nstrides = 0;
	} else if (list_reserve(x, want)) {
		return -ENOMEM;
	}
	if (y->explicit_list) {
		memcpy(x->list + x->n, y->list, (size_t)y->n * sizeof(int64_t));
		x->n += y->n;
	} else {
		append_affine(x, y, counts, depth);
	}
	return 0;
}

static int merge_node(struct tr_node *x, struct tr_node *y, enum tr_mode mode, uint64_t k,
		      const uint64_t *counts, unsigned depth, int apply, size_t *cost)
{
	unsigned v;
	uint32_t i;
	int rc = 0;

	if (x->count) {
		uint64_t inner[TR_MAX_NESTING + 2];

		if (depth >= TR_MAX_NESTING) {
			*cost = SIZE_MAX / 2;
			return 0;
		}
		inner[0] = x->count;
		if (depth)
			memcpy(inner + 1, counts, depth * sizeof(*inner));
		for (i = 0; i < x->nbody && !rc; i++)
			rc = merge_node(x->body[i], y->body[i], mode, k, inner, depth + 1, apply,
					cost);
		return rc;
	}
	for (v = 0; v < IOA_TRACE_NVALUES && !rc; v++)
		rc = merge_val(&x->v[v], &y->v[v], mode, k, counts, depth, apply, cost);
	if (!apply) {
		*cost += hist_cost(&x->dur, y->dur.n) + hist_cost(&x->gap, y->gap.n);
		return 0;
	}
	rc = rc ? rc : hist_merge(&x->dur, &y->dur);
	rc = rc ? rc : hist_merge(&x->gap, &y->gap);
	if (!rc)
		order_merge(&x->order, &y->order);
	return rc;
}

/* Merges the sequence y into x (both n nodes) if the pool can afford it; 1 when done. */
static int merge_seq(struct tr_node **x, struct tr_node **y, size_t n, enum tr_mode mode,
		     uint64_t k, size_t extra)
{
	size_t i, cost = extra;

	for (i = 0; i < n; i++)
		merge_node(x[i], y[i], mode, k, NULL, 0, 0, &cost);
	if (cost >= tr_room() || tr_room() - cost < TR_HEADROOM / 2)
		return 0;
	for (i = 0; i < n; i++) {
		if (merge_node(x[i], y[i], mode, k, NULL, 0, 1, &cost)) {
			tr_lose();
			return 0;
		}
		node_free(y[i]);
	}
	return 1;
}

/* ------------------------------------------------------------ the stack */

static uint64_t range_hash(size_t i, size_t j)
{
	return tr->prefix[j] - tr->prefix[i] * tr->pow[j - i];
}

static void set_top(size_t at, struct tr_node *n)
{
	tr->stack[at] = n;
	tr->prefix[at + 1] = tr->prefix[at] * TR_HASH_BASE + n->hash;
	tr->len = at + 1;
}

/* Folds the newest nodes once; 1 when something folded. */
static int fold_once(void)
{
	size_t n = tr->len, L, max = n < TR_W ? n : TR_W;

	for (L = 1; L <= max; L++) {
		uint64_t tail = range_hash(n - L, n);

		if (n >= L + 1) {
			struct tr_node *loop = tr->stack[n - L - 1];

			if (loop->count && loop->nbody == L && loop->body_hash == tail &&
			    seq_eq(loop->body, tr->stack + n - L, L) &&
			    merge_seq(loop->body, tr->stack + n - L, L, TR_EXTEND, loop->count,
				      0)) {
				loop->count++;
				loop->hash = loop_hash(loop->body_hash, loop->count);
				set_top(n - L - 1, loop);
				return 1;
			}
		}
		if (n >= 2 * L && range_hash(n - 2 * L, n - L) == tail &&
		    seq_eq(tr->stack + n - 2 * L, tr->stack + n - L, L)) {
			size_t extra = class_bytes(sizeof(struct tr_node)) +
				       class_bytes(L * sizeof(struct tr_node *));
			struct tr_node *loop, **body;

			if (!merge_seq(tr->stack + n - 2 * L, tr->stack + n - L, L, TR_NEW, 1,
				       extra))
				continue;
			loop = tr_alloc(sizeof(*loop));
			body = tr_alloc(L * sizeof(*body));
			if (!loop || !body) {
				tr_lose();
				return 0;
			}
			memcpy(body, tr->stack + n - 2 * L, L * sizeof(*body));
			loop->body = body;
			loop->nbody = (uint32_t)L;
			loop->count = 2;
			loop->body_hash = range_hash(n - 2 * L, n - L);
			loop->hash = loop_hash(loop->body_hash, 2);
			set_top(n - 2 * L, loop);
			return 1;
		}
	}
	return 0;
}

static int emit_hist(struct tr_hist *h)
{
	struct hist_cursor c = {0, 0};
	struct tr_hbin b;
	unsigned prev = 0;
	int rc = rope_uvar(&tr->times, h->n);

	while (!rc && hist_next(h, &c, &b)) {
		rc = rope_uvar(&tr->times, b.bin - prev);
		rc = rc ? rc : rope_uvar(&tr->times, b.count);
		prev = b.bin;
	}
	return rc;
}

/*
 * Whether segments' means say more than their histogram: they spread by
 * at least a tenth of the largest and by TR_ORDER_FLOOR seconds (a call
 * whose gaps only jitter, or run to microseconds, keeps none).
 */
static int order_says(const struct tr_seg *seg, uint32_t n)
{
	double lo = 0, hi = 0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		double mean = (double)seg[i].sum / (double)seg[i].n;

		lo = i == 0 || mean < lo ? mean : lo;
		hi = mean > hi ? mean : hi;
	}
	return n > 1 && hi - lo >= 0.1 * hi && (hi - lo) * rt_seconds_per_tick() >= TR_ORDER_FLOOR;
}

/* The order of a call's gaps, when it says something (order_says). */
static int emit_order(struct tr_order *o, uint64_t leaf)
{
	const struct tr_seg *seg = order_segs(o);
	int64_t prev = 0;
	uint32_t i;
	int rc;

	if (o->unit == TR_ORDER_LOST || !order_says(seg, o->nseg))
		return 0;
	rc = rope_uvar(&tr->orders, 0); /* the group's: the only rank so far */
	rc = rc ? rc : rope_uvar(&tr->orders, leaf);
	rc = rc ? rc : rope_uvar(&tr->orders, o->nseg);
	for (i = 0; i < o->nseg && !rc; i++) {
		int64_t mean = (int64_t)((seg[i].sum + seg[i].n / 2) / seg[i].n);

		rc = rope_uvar(&tr->orders, seg[i].n);
		rc = rc ? rc : rope_svar(&tr->orders, mean - prev);
		prev = mean;
	}
	tr->norders += !rc;
	return rc;
}

/* Writes a node out to the shape, values and times ropes. */
static int emit_node(struct tr_node *n)
{
	unsigned v, j;
	uint32_t i;
	int rc;

	if (n->count) {
		rc = rope_uvar(&tr->shape, 1);
		rc = rc ? rc : rope_uvar(&tr->shape, n->count);
		rc = rc ? rc : rope_uvar(&tr->shape, n->nbody);
		for (i = 0; i < n->nbody && !rc; i++)
			rc = emit_node(n->body[i]);
		return rc;
	}
	tr->nleaves++;
	rc = rope_uvar(&tr->shape, 0);
	rc = rc ? rc : rope_uvar(&tr->shape, n->sig);
	for (v = 0; v < IOA_TRACE_NVALUES && !rc; v++) {
		const struct tr_val *x = &n->v[v];

		rc = rope_uvar(&tr->shape, x->explicit_list);
		if (x->explicit_list) {
			uint64_t k;

			rc = rc ? rc : rope_uvar(&tr->shape, x->n);
			for (k = 0; k < x->n && !rc; k++)
				rc = rope_svar(&tr->values, x->list[k]);
		} else {
			rc = rc ? rc : rope_uvar(&tr->shape, x->nstrides);
			rc = rc ? rc : rope_svar(&tr->values, x->base);
			for (j = 0; j < x->nstrides && !rc; j++)
				rc = rope_svar(&tr->values, x->stride[j]);
		}
	}
	rc = rc ? rc : emit_hist(&n->dur);
	rc = rc ? rc : emit_hist(&n->gap);
	return rc ? rc : emit_order(&n->order, tr->nleaves - 1);
}

/* The calls a node stands for. */
static uint64_t node_events(const struct tr_node *n)
{
	uint64_t sum = 0;
	uint32_t i;

	if (!n->count)
		return 1;
	for (i = 0; i < n->nbody; i++)
		sum += node_events(n->body[i]);
	return sum * n->count;
}

/*
 * Writes out the oldest n nodes of the stack.  A node the pool has no room
 * to write is taken back whole, and the trace ends before it: what was
 * written stays a consistent prefix of the calls.
 */
static void flush(size_t n)
{
	struct tr_mark shape, values, times, orders;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!tr->cut) {
			uint64_t nleaves = tr->nleaves, norders = tr->norders;

			rope_mark(&tr->shape, &shape);
			rope_mark(&tr->values, &values);
			rope_mark(&tr->times, &times);
			rope_mark(&tr->orders, &orders);
			if (emit_node(tr->stack[i])) {
				rope_rewind(&tr->shape, &shape);
				rope_rewind(&tr->values, &values);
				rope_rewind(&tr->times, &times);
				rope_rewind(&tr->orders, &orders);
				tr->nleaves = nleaves;
				tr->norders = norders;
				tr->cut = 1;
				tr->check_at = 0;
			} else {
				tr->events_traced += node_events(tr->stack[i]);
				tr->ntop++;
			}
		}
		node_free(tr->stack[i]);
	}
	memmove(tr->stack, tr->stack + n, (tr->len - n) * sizeof(*tr->stack));
	memmove(tr->prefix, tr->prefix + n, (tr->len - n + 1) * sizeof(*tr->prefix));
	tr->len -= n;
}

static uint64_t sig_hash(const char *op, unsigned module, unsigned flags, int err)
{
	return mix64((uint64_t)(uintptr_t)op ^ ((uint64_t)module << 52) ^ ((uint64_t)flags << 44) ^
		     ((uint64_t)(uint32_t)err << 8));
}

/* Doubles the signature table. */
static int sig_grow(void)
{
	uint32_t cap = tr->sig_mask ? (tr->sig_mask + 1) * 2 : 256, k, i;
	uint32_t *table = tr_alloc(cap * sizeof(*table));
	struct tr_sig *sigs = tr_alloc(cap / 2 * sizeof(*sigs));
	uint64_t *calls = tr_alloc(cap / 2 * sizeof(*calls));

	if (!table || !sigs || !calls) {
		tr_free(table, cap * sizeof(*table));
		tr_free(sigs, cap / 2 * sizeof(*sigs));
		tr_free(calls, cap / 2 * sizeof(*calls));
		return -ENOMEM;
	}
	if (tr->nsigs) {
		memcpy(sigs, tr->sigs, tr->nsigs * sizeof(*sigs));
		memcpy(calls, tr->sig_calls, tr->nsigs * sizeof(*calls));
	}
	tr_free(tr->sigs, tr->sig_cap * sizeof(*sigs));
	tr_free(tr->sig_calls, tr->sig_cap * sizeof(*calls));
	tr->sig_calls = calls;
	if (tr->sig_mask)
		tr_free(tr->sig_table, (tr->sig_mask + 1) * sizeof(*table));
	tr->sigs = sigs;
	tr->sig_cap = cap / 2;
	tr->sig_table = table;
	tr->sig_mask = cap - 1;
	for (k = 0; k < tr->nsigs; k++) {
		const struct tr_sig *s = &sigs[k];

		i = (uint32_t)sig_hash(s->op, s->module, s->flags, s->err) & tr->sig_mask;
		while (table[i])
			i = (i + 1) & tr->sig_mask;
		table[i] = k + 1;
	}
	return 0;
}

/* The signature table entry of an event, added if new; UINT32_MAX when out of memory. */
static uint32_t sig_of(const struct tr_raw *e)
{
	uint32_t i;
	size_t len;
	char *name;

	if (tr->nsigs * 2 >= tr->sig_mask && sig_grow())
		return UINT32_MAX;
	i = (uint32_t)sig_hash(e->op, e->module, e->flags, e->err) & tr->sig_mask;
	for (; tr->sig_table[i]; i = (i + 1) & tr->sig_mask) {
		const struct tr_sig *s = &tr->sigs[tr->sig_table[i] - 1];

		if (s->op == e->op && s->module == e->module && s->flags == e->flags &&
		    s->err == e->err)
			return tr->sig_table[i] - 1;
	}
	len = strlen(e->op);
	name = tr_alloc(len + 1);
	if (!name)
		return UINT32_MAX;
	memcpy(name, e->op, len + 1);
	tr->sigs[tr->nsigs] = (struct tr_sig){e->op, name, e->module, e->flags, e->err};
	tr->sig_table[i] = ++tr->nsigs;
	return tr->nsigs - 1;
}

/* Sets up the fast path for the loop on top of the stack; 0 when it has none. */
static int fast_setup(void)
{
	struct tr_node *loop = tr->len ? tr->stack[tr->len - 1] : NULL;
	unsigned p, v;

	tr->fast_tried = 1;
	if (!loop || !loop->count || loop->nbody > TR_W)
		return 0;
	for (p = 0; p < loop->nbody; p++) {
		const struct tr_node *leaf = loop->body[p];

		if (leaf->count)
			return 0;
		for (v = 0; v < IOA_TRACE_NVALUES; v++) {
			const struct tr_val *x = &leaf->v[v];

			if (x->explicit_list || x->nstrides != 1)
				return 0;
			tr->fast_next[p][v] =
				(int64_t)((uint64_t)x->base + (uint64_t)x->stride[0] * loop->count);
			tr->fast_stride[p][v] = x->stride[0];
		}
		tr->fast_sig[p] = leaf->sig;
	}
	tr->fast_loop = loop;
	tr->fast_nbody = loop->nbody;
	return 1;
}

/* The fast path's pending iterations, added to the loop and its leaves. */
static void fast_apply(void)
{
	struct tr_node *loop = tr->fast_loop;
	uint32_t j, k = 0;

	for (j = 0; j < tr->npending && !tr->stopped; j++) {
		const struct tr_pending *x = &tr->pending[j];
		struct tr_node *l = loop->body[k];

		if (hist_add(&l->dur, ioa_trace_bin(x->dur), 1, 1) ||
		    hist_add(&l->gap, ioa_trace_bin(x->gap), 1, 1)) {
			tr_lose();
			break;
		}
		order_add(&l->order, x->gap);
		if (++k == loop->nbody)
			k = 0;
	}
	loop->count += tr->pending_iters;
	tr->npending = tr->pending_iters = 0;
}

/* The tree changed other than through continue_top. */
static void fast_drop(void)
{
	if (tr->fast_loop)
		fast_apply();
	tr->fast_loop = NULL;
	tr->fast_tried = 0;
}

/* Room for an iteration's calls among the pending ones; 0 when applying them lost the trace. */
static inline int fast_room(void)
{
	if (tr->npending + tr->fast_nbody > TR_PENDING)
		fast_apply();
	return !tr->stopped;
}

/* Call k of an iteration of the fast loop: its times wait, its next values step. */
static inline __attribute__((always_inline)) void fast_push(unsigned k, uint64_t dur, uint64_t gap)
{
	unsigned v;

	tr->pending[tr->npending++] = (struct tr_pending){dur, gap};
	for (v = 0; v < IOA_TRACE_NVALUES; v++)
		tr->fast_next[k][v] =
			(int64_t)((uint64_t)tr->fast_next[k][v] + (uint64_t)tr->fast_stride[k][v]);
}

/* An iteration of the fast loop complete: the loop grew by one. */
static inline void fast_iterated(void)
{
	tr->nstash = 0;
	tr->pending_iters++;
	/* Its hash and the stack's prefix hash are brought up to date when the folding resumes. */
	tr->fold_pending = 1;
}

/*
 * The common case: a call that continues the loop on top of the stack (its
 * body made of calls, its strides kept).  The calls of the iteration in
 * progress wait in the stash; when the iteration is complete, the loop grows
 * by one in place, as the general folding would make it, without nodes of
 * their own.  1 when the call was taken.
 */
static int continue_top(const struct tr_raw *e, uint32_t sig)
{
	unsigned p = tr->nstash, k;

	if (!tr->fast_loop && (tr->fast_tried || !fast_setup()))
		return 0;
	/* One test for the four numbers. */
	if (sig != tr->fast_sig[p] ||
	    ((e->v[0] ^ tr->fast_next[p][0]) | (e->v[1] ^ tr->fast_next[p][1]) |
	     (e->v[2] ^ tr->fast_next[p][2]) | (e->v[3] ^ tr->fast_next[p][3])))
		return 0;
	if (p + 1 < tr->fast_nbody) {
		tr->stash[tr->nstash++] = *e;
		return 1;
	}
	if (!fast_room())
		return 1;
	for (k = 0; k <= p; k++) {
		const struct tr_raw *x = k < p ? &tr->stash[k] : e;

		fast_push(k, x->dur, x->gap);
	}
	fast_iterated();
	return 1;
}

/* The top loop stopped growing: what it enables folds now. */
static void resume_folding(void)
{
	struct tr_node *top;

	if (!tr->fold_pending)
		return;
	tr->fold_pending = 0;
	top = tr->stack[tr->len - 1];
	top->hash = loop_hash(top->body_hash, top->count);
	set_top(tr->len - 1, top);
	while (!tr->stopped && fold_once())
		;
}

static void push_event(const struct tr_raw *e, uint32_t sig);

/* The stashed calls of an iteration that did not complete, folded one by one. */
static void unstash(void)
{
	struct tr_raw ev[TR_W];
	unsigned n = tr->nstash, i;

	memcpy(ev, tr->stash, n * sizeof(*ev));
	tr->nstash = 0;
	resume_folding();
	for (i = 0; i < n && !tr->stopped; i++)
		push_event(&ev[i], tr->fast_sig[i]);
}

/*
 * The grammar stopped: what it holds is written out, and the pool left
 * (but a reserve for the tables) becomes the window.  After a cut (a node
 * the pool had no room to write) the exact calls end there: no window.
 */
static void degrade(void)
{
	uint64_t room;

	fast_drop();
	unstash();
	resume_folding();
	if (!tr->lost)
		flush(tr->len);
	tr->degraded = 1;
	room = tr_room();
	if (tr->cut || tr->lost || room < TR_RESERVE + sizeof(struct tr_wop)) {
		tr->window_closed = 1;
		return;
	}
	tr->window_cap = (room - TR_RESERVE) / sizeof(struct tr_wop);
	tr->window = (struct tr_wop *)(void *)(tr->base + tr->used);
	tr->used += (size_t)(tr->window_cap * sizeof(struct tr_wop));
}

/* A call after the exact ones: a few increments. */
static inline __attribute__((always_inline)) void summarise(uint32_t sig, unsigned module,
							    unsigned flags, int64_t slot,
							    int64_t offset, int64_t length,
							    uint64_t arrival, uint64_t gap)
{
	struct tr_fsum *f;
	uint64_t bytes;

	tr->sum_calls++;
	if (sig == UINT32_MAX)
		tr->sum_unnamed++;
	else
		tr->sig_calls[sig]++;
	tr->sum_arrival[ioa_trace_log2_bin((int64_t)arrival)]++;
	tr->sum_gap[ioa_trace_log2_bin((int64_t)gap)]++;
	if (module == IOA_TRACE_MPI)
		return;
	tr->sum_off[ioa_trace_log2_bin(offset)]++;
	tr->sum_size[ioa_trace_log2_bin(length)]++;
	f = slot < 0 ? &tr->fsum_none : &tr->fsum[slot];
	bytes = length > 0 && !(flags & IOA_TR_FAILED) ? (uint64_t)length : 0;
	if (flags & IOA_TR_READ) {
		f->reads++;
		f->bytes_read += bytes;
	} else if (flags & IOA_TR_WRITE) {
		f->writes++;
		f->bytes_written += bytes;
	} else {
		f->others++;
	}
}

/* A call once degraded, the window open: 1 when it was kept, 0 when it closed the window. */
static int window_add(const struct tr_raw *e, uint32_t sig, uint64_t arrival)
{
	int64_t slot = e->v[IOA_TRACE_SLOT];
	struct tr_wop *w;

	if (tr->nwindow == tr->window_cap || sig >= UINT16_MAX || slot >= UINT16_MAX - 1 ||
	    e->v[1] < 0 || e->v[1] > UINT32_MAX || e->v[2] < INT32_MIN || e->v[2] > INT32_MAX) {
		tr->window_closed = 1;
		summarise(sig, e->module, e->flags, slot, e->v[0], e->v[1], arrival, e->gap);
		return 0;
	}
	w = &tr->window[tr->nwindow++];
	w->offset = e->v[0];
	w->length = (uint32_t)e->v[1];
	w->aux = (int32_t)e->v[2];
	w->sig = (uint16_t)sig;
	w->slot = (uint16_t)(slot + 1);
	w->dur = (uint16_t)ioa_trace_bin(e->dur);
	w->gap = (uint16_t)ioa_trace_bin(e->gap);
	tr->events_traced++;
	return 1;
}

/*
 * Whether the grammar still pays: over the last TR_CHECK_CALLS calls the
 * pool grew by at most TR_MAX_GROWTH bytes a call (at that rate the default
 * budget lasts half a million calls), its pool is not running low, and no
 * node was cut.
 */
static int grammar_pays(void)
{
	/* Between two looks, one test: a cut sets check_at back, and the pool only grows on the
	 * slow paths. */
	if (tr->events_total < tr->check_at && tr->used <= tr->low_water)
		return 1;
	if (tr->cut || tr_room() < 2 * TR_HEADROOM)
		return 0;
	if (tr->events_total < tr->check_at)
		return 1;
	if (tr->used - tr->check_used > (size_t)TR_CHECK_CALLS * TR_MAX_GROWTH)
		return 0;
	tr->check_used = tr->used;
	tr->check_at = tr->events_total + TR_CHECK_CALLS;
	return 1;
}

/*
 * The signature of a call: most calls find it in a small cache indexed by
 * the call's name (a program's few calls, interleaved, each keep a slot),
 * the others in the table.  UINT32_MAX when the table cannot grow.
 */
/* The cache entry a call's name picks, and the key its other fields make. */
static inline __attribute__((always_inline)) struct tr_sig_cache *
sig_slot(const char *op, unsigned module, unsigned flags, int err, uint64_t *key)
{
	*key = (uint64_t)module | (uint64_t)flags << 8 | (uint64_t)(uint32_t)err << 32;
	return &tr->sig_cache[((uintptr_t)op >> 3) & (TR_SIG_CACHE - 1)];
}

static inline __attribute__((always_inline)) uint32_t sig_find(const char *op, unsigned module,
							       unsigned flags, int err)
{
	uint64_t key;
	struct tr_sig_cache *c = sig_slot(op, module, flags, err, &key);
	struct tr_raw e;

	if (c->op == op && c->key == key)
		return c->sig;
	e.op = op;
	e.module = (uint8_t)module;
	e.flags = (uint16_t)flags;
	e.err = err;
	c->sig = sig_of(&e);
	c->op = c->sig == UINT32_MAX ? NULL : op;
	c->key = key;
	return c->sig;
}

/* Folds one raw event into the tree (or the window); 1 when the call was kept exactly. */
static int feed(const struct tr_raw *e, uint64_t arrival)
{
	uint32_t sig = sig_find(e->op, e->module, e->flags, e->err);

	if (!tr->degraded && !grammar_pays())
		degrade();
	if (tr->degraded) {
		if (tr->window_closed) {
			summarise(sig, e->module, e->flags, e->v[IOA_TRACE_SLOT], e->v[0], e->v[1],
				  arrival, e->gap);
			return 0;
		}
		return window_add(e, sig, arrival);
	}
	/*
	 * A loop growing in place cannot fold with what is before it until it
	 * stops growing: the folding waits for the first call that does not
	 * continue it.
	 */
	if (sig != UINT32_MAX && continue_top(e, sig))
		return 1;
	fast_drop();
	unstash();
	resume_folding();
	if (!tr->stopped)
		push_event(e, sig);
	return 1;
}

/* A call as a node of its own, pushed and folded. */
static void push_event(const struct tr_raw *e, uint32_t sig)
{
	struct tr_node *n;
	unsigned v;

	n = sig == UINT32_MAX ? NULL : tr_alloc(sizeof(*n));
	if (!n || hist_add(&n->dur, ioa_trace_bin(e->dur), 1, 1) ||
	    hist_add(&n->gap, ioa_trace_bin(e->gap), 1, 1)) {
		tr_lose();
		return;
	}
	order_init(&n->order, e->gap);
	n->sig = sig;
	n->hash = mix64(sig + 1);
	for (v = 0; v < IOA_TRACE_NVALUES; v++)
		n->v[v].base = e->v[v];
	set_top(tr->len, n);
	while (!tr->stopped && fold_once())
		;
	if (tr->len >= TR_STACK)
		flush(tr->len - 2 * TR_W);
}

/* ------------------------------------------------------------ recording */

/*
 * Inlined into its callers: this is most of what a traced call costs.
 * mark: for a layer's call (rt_trace_layer()), the end of the program's
 * last own call before it; else TR_NO_MARK.
 */
#define TR_NO_MARK UINT64_MAX

/* Ticks since start-up: far below 2^63, so a signed conversion (one instruction) is exact. */
static inline uint64_t ticks_of(double t)
{
	return t > 0 ? (uint64_t)(int64_t)t : 0;
}

/*
 * The trace's clocks moved by a call from s to f (ticks): its gap, and the
 * time since the previous call's start in arrival.
 */
static inline __attribute__((always_inline)) uint64_t
clock_step(uint64_t s, uint64_t f, unsigned flags, uint64_t mark, uint64_t *arrival)
{
	int own = mark == TR_NO_MARK && !(flags & IOA_TR_SUB);
	uint64_t gap;

	*arrival = s > tr->prev_start ? s - tr->prev_start : 0;
	tr->prev_start = s;
	if (!tr->have_start) {
		tr->have_start = 1;
		tr->first_start = s;
		gap = 0;
	} else if (flags & IOA_TR_SUB) {
		/* Inside an MPI-IO call: the time since the call's last step. */
		gap = s > tr->last_end ? s - tr->last_end : 0;
	} else if (mark != TR_NO_MARK) {
		/* A layer's call, traced after its calls underneath: the compute before it. */
		gap = s > mark ? s - mark : 0;
	} else {
		/* Since the last call the program made itself: its compute. */
		gap = s > tr->top_end ? s - tr->top_end : 0;
	}
	if (f > tr->last_end)
		tr->last_end = f;
	/* A layer's call ends after its calls underneath: the next call's compute starts there. */
	if ((own || mark != TR_NO_MARK) && f > tr->top_end)
		tr->top_end = f;
	return gap;
}

/* A call kept exactly in the totals (expanded, the exact calls' times are scaled to them). */
static inline void count_times(unsigned module, int own, uint64_t gap, uint64_t dur)
{
	if (own)
		tr->compute += gap;
	if (module == IOA_TRACE_MPI)
		tr->sync += dur;
	else if (own)
		tr->io += dur;
}

static inline __attribute__((always_inline)) void
append(const char *op, uint32_t slot, unsigned module, unsigned flags, int err, int64_t offset,
       int64_t length, int64_t aux, double t0, double t1, uint64_t mark)
{
	int own = mark == TR_NO_MARK && !(flags & IOA_TR_SUB);

	struct tr_raw ev, *e = &ev;
	uint64_t s = ticks_of(t0), f = ticks_of(t1);
	uint64_t arrival, gap;

	tr->events_total++;
	if (tr->stopped)
		return;
	gap = clock_step(s, f, flags, mark, &arrival);
	/* Summarising: no grammar, no window, a few increments. */
	if (tr->window_closed) {
		summarise(sig_find(op, module, flags, err), module, flags,
			  slot == UINT32_MAX ? -1 : (int64_t)slot, offset, length, arrival, gap);
		return;
	}
	e->op = op;
	e->v[IOA_TRACE_SLOT] = slot == UINT32_MAX ? -1 : (int64_t)slot;
	e->module = (uint8_t)module;
	e->flags = (uint16_t)flags;
	e->err = err;
	e->v[0] = offset;
	e->v[1] = length;
	e->v[2] = aux;
	e->dur = f > s ? f - s : 0;
	e->gap = gap;
	if (feed(e, arrival))
		count_times(module, own, gap, e->dur);
}

/* A call on rec's file, in its slot (given one at its first call). */
static inline __attribute__((always_inline)) void
io_event(const char *op, enum ioa_module module, struct rt_record *rec, unsigned flags,
	 int64_t offset, int64_t length, int64_t aux, int err, double t0, double t1, uint64_t mark)
{
	if (!rec->trace_slot && !tr->stopped) {
		if (tr->nfiles == tr->file_cap) {
			uint32_t cap = tr->file_cap ? tr->file_cap * 2 : 64;
			uint64_t *files = tr_alloc(cap * sizeof(*files));
			struct tr_fsum *fsum = tr_alloc(cap * sizeof(*fsum));

			if (!files || !fsum) {
				/* The call is traced without its file (the summary says so). */
				tr_free(files, cap * sizeof(*files));
				tr_free(fsum, cap * sizeof(*fsum));
				if (!tr->degraded)
					degrade();
				append(op, UINT32_MAX, module, flags, err, offset, length, aux, t0,
				       t1, mark);
				return;
			}
			if (tr->nfiles) {
				memcpy(files, tr->files, tr->nfiles * sizeof(*files));
				memcpy(fsum, tr->fsum, tr->nfiles * sizeof(*fsum));
			}
			tr_free(tr->files, tr->file_cap * sizeof(*files));
			tr_free(tr->fsum, tr->file_cap * sizeof(*fsum));
			tr->files = files;
			tr->fsum = fsum;
			tr->file_cap = cap;
		}
		tr->files[tr->nfiles] = rec->id;
		rec->trace_slot = ++tr->nfiles;
	}
	append(op, rec->trace_slot - 1, module, flags, err, offset, length, aux, t0, t1, mark);
}

/* The top one-call loop's next iteration: a call continue_fast() took. */
static inline __attribute__((always_inline)) void fast_take(unsigned module, unsigned flags,
							    double t0, double t1)
{
	uint64_t s, f, gap, arrival;

	tr->events_total++;
	if (!fast_room())
		return;
	s = ticks_of(t0);
	f = ticks_of(t1);
	gap = clock_step(s, f, flags, TR_NO_MARK, &arrival);
	fast_push(0, f > s ? f - s : 0, gap);
	fast_iterated();
	count_times(module, !(flags & IOA_TR_SUB), gap, f > s ? f - s : 0);
}

/* Call i's time in a run's times, step bytes apart (rt_trace_run_on()). */
static inline const double *run_at(const double *t, uint32_t i, size_t step)
{
	return (const double *)(const void *)((const char *)t + (size_t)i * step);
}

/*
 * Up to m calls of a run, the next iterations of the top one-call loop
 * (rt_trace_run_on()): what fast_take() would do with each, the clocks
 * and totals kept in registers, the times added to the loop's call at once
 * rather than waiting among the pending ones, the loop's count and next
 * values moved once.  A run's calls are the program's own (a queue holds
 * no MPI-IO call's sub-calls), after its first call.  Stops early when the
 * pool runs low (the general path takes the rest).  The calls taken.
 */
static uint32_t fast_take_run(unsigned flags, uint32_t m, const double *t0, const double *t1,
			      size_t step)
{
	struct tr_node *loop = tr->fast_loop, *leaf = loop->body[0];
	uint64_t prev = tr->prev_start, top = tr->top_end, last = tr->last_end, compute = 0, io = 0;
	uint32_t i;
	unsigned v;
	int lost = 0;

	if ((flags & IOA_TR_SUB) || !tr->have_start)
		return 0;
	/* Times waiting for the loop's call go first: the order of the gaps is kept. */
	fast_apply();
	if (tr->stopped)
		return 0;
	for (i = 0; i < m && !lost && tr->used <= tr->low_water; i++) {
		uint64_t s = ticks_of(*run_at(t0, i, step)), f = ticks_of(*run_at(t1, i, step));
		uint64_t gap = s > top ? s - top : 0, dur = f > s ? f - s : 0;

		prev = s;
		last = f > last ? f : last;
		top = f > top ? f : top;
		compute += gap;
		io += dur;
		if (hist_add(&leaf->dur, ioa_trace_bin(dur), 1, 1) ||
		    hist_add(&leaf->gap, ioa_trace_bin(gap), 1, 1))
			lost = 1;
		else
			order_add(&leaf->order, gap);
	}
	tr->prev_start = prev;
	tr->top_end = top;
	tr->last_end = last;
	tr->compute += compute;
	tr->io += io;
	tr->events_total += i;
	loop->count += i;
	for (v = 0; v < IOA_TRACE_NVALUES; v++)
		tr->fast_next[0][v] = (int64_t)((uint64_t)tr->fast_next[0][v] +
						(uint64_t)tr->fast_stride[0][v] * i);
	tr->nstash = 0;
	tr->fold_pending = 1;
	if (lost)
		tr_lose();
	return i;
}

/*
 * A call that continues the top loop when its body is one call: what
 * append(), feed() and continue_top() would do with it, without building
 * its event.  That is most calls of a program in a loop.  0 when it is not
 * such a call, or when anything (the grammar's periodic look, a signature
 * not in the cache) needs the general path, which then takes the call as
 * if this had not looked.
 */
static inline __attribute__((always_inline)) int
continue_fast(const char *op, unsigned module, const struct rt_record *rec, unsigned flags,
	      int64_t offset, int64_t length, int64_t aux, int err, double t0, double t1)
{
	const int64_t *next = tr->fast_next[0];
	const struct tr_sig_cache *c;
	uint64_t key;

	/* Most calls that are not for it leave at the first test. */
	if (!tr->fast_loop)
		return 0;
	if (tr->fast_nbody != 1 || tr->stopped || tr->degraded || !rec->trace_slot ||
	    module == IOA_TRACE_MPI || tr->events_total + 1 >= tr->check_at ||
	    tr->used > tr->low_water)
		return 0;
	if (((int64_t)(rec->trace_slot - 1) ^ next[IOA_TRACE_SLOT]) | (offset ^ next[0]) |
	    (length ^ next[1]) | (aux ^ next[2]))
		return 0;
	c = sig_slot(op, module, flags, err, &key);
	if (c->op != op || c->key != key || c->sig != tr->fast_sig[0])
		return 0;
	fast_take(module, flags, t0, t1);
	return 1;
}

/* Only through rt_trace_io(), whose test of rt_tracing is the trace's on. */
void rt_trace_io_on(const char *op, enum ioa_module module, struct rt_record *rec, unsigned flags,
		    int64_t offset, int64_t length, int64_t aux, int err, double t0, double t1)
{
	/* The MPI-IO call in progress: its own id, or its sub-calls' parent. */
	if (rt_self()->trace_parent) {
		flags |= module == IOA_MOD_MPIIO ? IOA_TR_ID : IOA_TR_SUB;
		aux = (int64_t)rt_self()->trace_parent - 1;
	}
	flags |= rt_self()->trace_under;
	if (continue_fast(op, module, rec, flags, offset, length, aux, err, t0, t1))
		return;
	io_event(op, module, rec, flags, offset, length, aux, err, t0, t1, TR_NO_MARK);
}

/* Only through rt_trace_run(): rt_trace_io_on() without its look at the thread's state. */
void rt_trace_run_on(const char *op, struct rt_record *rec, unsigned flags, int64_t offset,
		     int64_t length, uint32_t n, const double *t0, const double *t1, size_t step)
{
	uint32_t i = 0;

	while (i < n) {
		double s = *run_at(t0, i, step), f = *run_at(t1, i, step);
		int fast = continue_fast(op, IOA_MOD_POSIX, rec, flags, offset, length, 0, 0, s, f);

		if (!fast)
			io_event(op, IOA_MOD_POSIX, rec, flags, offset, length, 0, 0, s, f,
				 TR_NO_MARK);
		i++, offset += length;
		/*
		 * A one-call loop took it.  If the loop steps by the run's length
		 * and keeps its other numbers, the run's next calls are its next
		 * iterations (what continue_fast() would find, without its look at
		 * each), until the grammar's periodic look or a pool that grew
		 * needs the general path.
		 */
		if (!fast || tr->fast_nbody != 1 || tr->fast_stride[0][0] != length ||
		    tr->fast_stride[0][1] || tr->fast_stride[0][2] ||
		    tr->fast_stride[0][IOA_TRACE_SLOT])
			continue;
		if (i < n && tr->fast_loop && !tr->stopped && tr->events_total + 1 < tr->check_at) {
			uint64_t room = tr->check_at - 1 - tr->events_total;
			uint32_t m = fast_take_run(flags, n - i < room ? n - i : (uint32_t)room,
						   run_at(t0, i, step), run_at(t1, i, step), step);

			i += m, offset += (int64_t)m * length;
		}
	}
}

uint64_t rt_trace_mark(void)
{
	return rt_tracing ? tr->top_end : 0;
}

void rt_trace_layer(const char *op, enum ioa_module module, struct rt_record *rec, unsigned flags,
		    int64_t offset, int64_t length, int64_t aux, int err, double t0, double t1,
		    uint64_t mark)
{
	if (rt_tracing && rec)
		io_event(op, module, rec, flags, offset, length, aux, err, t0, t1, mark);
}

void rt_trace_mpi(const char *op, uint32_t comm, unsigned flags, int err, int64_t offset,
		  int64_t length, int64_t aux, double t0, double t1)
{
	if (tr->on)
		append(op, comm, IOA_TRACE_MPI, flags | rt_self()->trace_under, err, offset, length,
		       aux, t0, t1, TR_NO_MARK);
}

int64_t rt_trace_hints(const char *hints)
{
	uint32_t i;

	if (!tr->on || !hints || !*hints)
		return 0;
	for (i = 0; i < tr->nhints; i++)
		if (strcmp(tr->hints[i], hints) == 0)
			return i + 1;
	if (tr->nhints == TR_MAX_HINTS)
		return 0;
	tr->hints[tr->nhints++] = hints;
	return tr->nhints;
}

uint32_t rt_trace_comm_find(int64_t handle)
{
	uint32_t i;

	for (i = 0; i < tr->ncomms; i++)
		if (tr->comms[i].handle == handle)
			return i;
	return RT_TRACE_NO_COMM;
}

/* No handle: a slot whose handle went to another communicator. */
#define TR_COMM_GONE INT64_MIN

uint32_t rt_trace_comm(int64_t handle, int size, int rank, int leader, int fresh)
{
	uint32_t i = rt_trace_comm_find(handle);

	if (i != RT_TRACE_NO_COMM) {
		struct tr_comm *c = &tr->comms[i];

		if (!fresh || (c->size == size && c->rank == rank && c->leader == leader))
			return i;
		if (tr->ncomms == TR_MAX_COMMS)
			return RT_TRACE_NO_COMM;
		c->handle = TR_COMM_GONE;
	}
	if (tr->ncomms == TR_MAX_COMMS)
		return RT_TRACE_NO_COMM;
	tr->comms[tr->ncomms] = (struct tr_comm){handle, size, rank, leader};
	return tr->ncomms++;
}

int rt_trace_comm_rank(uint32_t comm, int *size)
{
	if (comm >= tr->ncomms) {
		*size = 1;
		return 0;
	}
	*size = tr->comms[comm].size;
	return tr->comms[comm].rank;
}

int64_t rt_trace_request_new(int64_t handle)
{
	int64_t i;

	for (i = 0; i < TR_MAX_REQS; i++) {
		if (!tr->request_used[i]) {
			tr->request_used[i] = 1;
			tr->requests[i] = handle;
			if ((unsigned)i >= tr->nreqs)
				tr->nreqs = (unsigned)i + 1;
			return i;
		}
	}
	return -1;
}

int64_t rt_trace_request_done(int64_t handle)
{
	int64_t i;

	/* Requests the trace never handed out (MPI-IO's) find nothing quickly. */
	for (i = 0; i < tr->nreqs; i++) {
		if (tr->request_used[i] && tr->requests[i] == handle) {
			tr->request_used[i] = 0;
			return i;
		}
	}
	return -1;
}

/* ------------------------------------------------------------ shutdown */

static int add_string(const char **strings, uint32_t *n, const char *s)
{
	uint32_t i;

	for (i = 0; i < *n; i++)
		if (strings[i] == s || strcmp(strings[i], s) == 0)
			return (int)i;
	strings[*n] = s;
	return (int)(*n)++;
}

/* The tables that open the shape: strings (hints first), signatures, counts. */
static int shape_head(struct ioa_buf *b, uint64_t ntop)
{
	const char **strings = calloc(tr->nhints + tr->nsigs + 1, sizeof(*strings));
	uint32_t nstrings = 0, i;
	int *name = calloc(tr->nsigs + 1, sizeof(*name));
	int rc = strings && name ? 0 : -ENOMEM;

	for (i = 0; i < tr->nhints && !rc; i++)
		strings[nstrings++] = tr->hints[i];
	for (i = 0; i < tr->nsigs && !rc; i++)
		name[i] = add_string(strings, &nstrings, tr->sigs[i].name);
	rc = rc ? rc : ioa_enc_uvar(b, nstrings);
	for (i = 0; i < nstrings && !rc; i++) {
		size_t len = strlen(strings[i]);

		rc = ioa_enc_uvar(b, len);
		rc = rc ? rc : ioa_buf_add(b, strings[i], len);
	}
	rc = rc ? rc : ioa_enc_uvar(b, tr->nsigs);
	for (i = 0; i < tr->nsigs && !rc; i++) {
		rc = ioa_enc_uvar(b, (uint64_t)name[i]);
		rc = rc ? rc : ioa_enc_uvar(b, tr->sigs[i].module);
		rc = rc ? rc : ioa_enc_uvar(b, tr->sigs[i].flags);
		rc = rc ? rc : ioa_enc_svar(b, tr->sigs[i].err);
	}
	rc = rc ? rc : ioa_enc_uvar(b, tr->nfiles);
	rc = rc ? rc : ioa_enc_uvar(b, tr->ncomms);
	rc = rc ? rc : ioa_enc_uvar(b, ntop);
	free(strings);
	free(name);
	return rc;
}

/* Number v (offset, length, aux, slot) of a window call. */
static int64_t wop_value(const struct tr_wop *w, unsigned v)
{
	switch (v) {
	case 0:
		return w->offset;
	case 1:
		return w->length;
	case 2:
		return w->aux;
	default:
		return (int64_t)w->slot - 1;
	}
}

static int bin_cmp(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* The histogram of the dur (else gap) bins of n window calls, as emit_hist writes it. */
static int window_hist(struct ioa_buf *out, const struct tr_wop *w, uint64_t n, int dur,
		       uint64_t *count, uint16_t *touched)
{
	uint64_t i, nt = 0;
	unsigned prev = 0;
	int rc;

	for (i = 0; i < n; i++) {
		uint16_t b = dur ? w[i].dur : w[i].gap;

		if (!count[b]++)
			touched[nt++] = b;
	}
	qsort(touched, (size_t)nt, sizeof(*touched), bin_cmp);
	rc = ioa_enc_uvar(out, nt);
	for (i = 0; i < nt && !rc; i++) {
		rc = ioa_enc_uvar(out, touched[i] - prev);
		rc = rc ? rc : ioa_enc_uvar(out, count[touched[i]]);
		prev = touched[i];
		count[touched[i]] = 0;
	}
	return rc;
}

/*
 * The order of the gaps of a run of n window calls (leaf: its call index),
 * as emit_order writes a tree call's; 1 when written, 0 when it says
 * nothing.
 */
static int window_order(struct ioa_buf *out, const struct tr_wop *w, uint64_t n, uint64_t leaf)
{
	struct tr_seg seg[IOA_TRACE_ORDER_SEGS];
	uint64_t unit = 1, k;
	uint32_t nseg = 0, i;
	int64_t prev = 0;
	int rc;

	for (k = 0; k < n; k++)
		segs_add(seg, &nseg, &unit, (uint64_t)ioa_trace_bin_ticks(w[k].gap));
	if (!order_says(seg, nseg))
		return 0;
	rc = ioa_enc_uvar(out, 0);
	rc = rc ? rc : ioa_enc_uvar(out, leaf);
	rc = rc ? rc : ioa_enc_uvar(out, nseg);
	for (i = 0; i < nseg && !rc; i++) {
		int64_t mean = (int64_t)((seg[i].sum + seg[i].n / 2) / seg[i].n);

		rc = ioa_enc_uvar(out, seg[i].n);
		rc = rc ? rc : ioa_enc_svar(out, mean - prev);
		prev = mean;
	}
	return rc ? rc : 1;
}

/*
 * The window as nodes after the tree's: each run of calls of one signature
 * a loop around one call (a lone call: the call), each number affine when
 * constant over the run, else its explicit list.  Appends to shape, times,
 * orders (tr->norders counts them) and vals; *nodes and *leaves count what
 * it wrote.
 */
static int window_emit(struct ioa_buf *shape, struct ioa_buf *times, struct ioa_buf *orders,
		       int64_t *vals, size_t *nvals, uint64_t *nodes, uint64_t *leaves)
{
	uint64_t *count = calloc(TR_TIME_BINS, sizeof(*count));
	uint16_t *touched = calloc(TR_TIME_BINS, sizeof(*touched));
	uint64_t i = 0, j, k;
	int rc = count && touched ? 0 : -ENOMEM;

	while (i < tr->nwindow && !rc) {
		const struct tr_wop *w = &tr->window[i];
		unsigned v, depth;

		for (j = i + 1; j < tr->nwindow && tr->window[j].sig == w->sig; j++)
			;
		depth = j - i > 1;
		if (depth) {
			rc = ioa_enc_uvar(shape, 1);
			rc = rc ? rc : ioa_enc_uvar(shape, j - i);
			rc = rc ? rc : ioa_enc_uvar(shape, 1);
		}
		rc = rc ? rc : ioa_enc_uvar(shape, 0);
		rc = rc ? rc : ioa_enc_uvar(shape, w->sig);
		for (v = 0; v < IOA_TRACE_NVALUES && !rc; v++) {
			int64_t first = wop_value(w, v);

			for (k = i + 1; k < j && wop_value(&tr->window[k], v) == first; k++)
				;
			if (k == j) {
				rc = ioa_enc_uvar(shape, 0);
				rc = rc ? rc : ioa_enc_uvar(shape, depth);
				vals[(*nvals)++] = first;
				if (depth)
					vals[(*nvals)++] = 0;
			} else {
				rc = ioa_enc_uvar(shape, 1);
				rc = rc ? rc : ioa_enc_uvar(shape, j - i);
				for (k = i; k < j; k++)
					vals[(*nvals)++] = wop_value(&tr->window[k], v);
			}
		}
		rc = rc ? rc : window_hist(times, w, j - i, 1, count, touched);
		rc = rc ? rc : window_hist(times, w, j - i, 0, count, touched);
		if (!rc) {
			rc = window_order(orders, w, j - i, *leaves);
			tr->norders += rc > 0;
			rc = rc > 0 ? 0 : rc;
		}
		++*nodes;
		++*leaves;
		i = j;
	}
	free(count);
	free(touched);
	return rc;
}

static int summary_file(int64_t *vals, size_t *nvals, int64_t slot, const struct tr_fsum *f)
{
	if (!f->reads && !f->writes && !f->others)
		return 0;
	vals[(*nvals)++] = slot;
	vals[(*nvals)++] = (int64_t)f->reads;
	vals[(*nvals)++] = (int64_t)f->writes;
	vals[(*nvals)++] = (int64_t)f->others;
	vals[(*nvals)++] = (int64_t)f->bytes_read;
	vals[(*nvals)++] = (int64_t)f->bytes_written;
	return 1;
}

static uint64_t summary_hist(int64_t *vals, size_t *nvals, const uint64_t *h, unsigned nbins)
{
	uint64_t n = 0;
	unsigned b;

	for (b = 0; b < nbins; b++) {
		if (h[b]) {
			vals[(*nvals)++] = b;
			vals[(*nvals)++] = (int64_t)h[b];
			n++;
		}
	}
	return n;
}

/*
 * The shape's last part (version 3): 0, or 1 and the summary's layout; its
 * numbers go to vals (docs/log-format.md).
 */
static int summary_emit(struct ioa_buf *shape, int64_t *vals, size_t *nvals)
{
	uint64_t nsig = 0, nfile = 0, n[4];
	uint32_t i;
	int rc;

	if (!tr->degraded)
		return ioa_enc_uvar(shape, 0);
	for (i = 0; i < tr->nsigs; i++) {
		if (tr->sig_calls[i]) {
			vals[(*nvals)++] = i;
			vals[(*nvals)++] = (int64_t)tr->sig_calls[i];
			nsig++;
		}
	}
	if (tr->sum_unnamed) {
		vals[(*nvals)++] = -1;
		vals[(*nvals)++] = (int64_t)tr->sum_unnamed;
		nsig++;
	}
	for (i = 0; i < tr->nfiles; i++)
		nfile += summary_file(vals, nvals, i, &tr->fsum[i]);
	nfile += summary_file(vals, nvals, -1, &tr->fsum_none);
	n[0] = summary_hist(vals, nvals, tr->sum_off, TR_LOG2_BINS);
	n[1] = summary_hist(vals, nvals, tr->sum_size, TR_LOG2_BINS);
	n[2] = summary_hist(vals, nvals, tr->sum_arrival, TR_LOG2_BINS);
	n[3] = summary_hist(vals, nvals, tr->sum_gap, TR_LOG2_BINS);
	rc = ioa_enc_uvar(shape, 1);
	rc = rc ? rc : ioa_enc_uvar(shape, nsig);
	rc = rc ? rc : ioa_enc_uvar(shape, nfile);
	for (i = 0; i < 4 && !rc; i++)
		rc = ioa_enc_uvar(shape, n[i]);
	return rc;
}

/* Finishes the tree: the stashed calls folded, every node written out (or dropped after a cut). */
static void finish(void)
{
	fast_drop();
	if (!tr->stopped)
		unstash();
	if (!tr->stopped)
		resume_folding();
	if (!tr->lost)
		flush(tr->len);
	if (tr->lost) {
		/* Nothing of it can be trusted: an empty trace that says so. */
		tr->nsigs = tr->nfiles = tr->ncomms = tr->nhints = 0;
		tr->ntop = 0;
		tr->nleaves = 0;
		tr->events_traced = 0;
		tr->nwindow = 0;
		tr->degraded = 0;
		memset(&tr->shape, 0, sizeof(tr->shape));
		memset(&tr->values, 0, sizeof(tr->values));
		memset(&tr->times, 0, sizeof(tr->times));
		memset(&tr->orders, 0, sizeof(tr->orders));
		tr->norders = 0;
	}
	tr->on = rt_tracing = 0;
}

int rt_trace_group(struct ioa_trace *t, double ns_per_tick)
{
	struct ioa_buf head = IOA_BUF_INIT((size_t)1 << 30), tail = IOA_BUF_INIT((size_t)1 << 30);
	struct ioa_buf wtimes = IOA_BUF_INIT((size_t)1 << 30);
	struct ioa_buf worders = IOA_BUF_INIT((size_t)1 << 30);
	unsigned char *orders = NULL;
	size_t orders_len = 0;
	struct ioa_trace_group *g, *groups;
	unsigned char *vbytes = NULL;
	size_t vlen = 0, nvalues, i, nextra = 0;
	uint64_t ntop, nleaves;
	int64_t *extra = NULL;
	struct ioa_cursor c;
	int rc;

	if (!tr->base)
		return 0;
	if (tr->on)
		finish();
	groups = realloc(t->groups, (t->ngroups + 1) * sizeof(*groups));
	if (!groups)
		return -ENOMEM;
	t->groups = groups;
	g = &groups[t->ngroups];
	memset(g, 0, sizeof(*g));
	g->nranks = 1;
	g->ns_per_tick = ns_per_tick > 0 ? ns_per_tick : 1;
	g->ranks = calloc(1, sizeof(*g->ranks));
	/* The window's numbers (at most four a call) and the summary's. */
	extra = calloc(4 * tr->nwindow + 2 * (tr->nsigs + 1) + 6 * ((size_t)tr->nfiles + 1) +
			       8 * TR_LOG2_BINS + 1,
		       sizeof(*extra));
	ntop = tr->ntop;
	nleaves = tr->nleaves;
	rc = g->ranks && extra ? 0 : -ENOMEM;
	rc = rc ? rc : window_emit(&tail, &wtimes, &worders, extra, &nextra, &ntop, &nleaves);
	rc = rc ? rc : summary_emit(&tail, extra, &nextra);
	rc = rc ? rc : shape_head(&head, ntop);
	if (!rc) {
		g->ranks[0] = (uint32_t)rt.rank;
		g->shape = rope_join(&tr->shape, &head, &tail, &g->shape_len);
		/*
		 * The times: the calls' histograms, no rank's own yet, then the
		 * calls' orders of gaps (ioa_trace.h).
		 */
		ioa_buf_reset(&head);
		rc = ioa_enc_uvar(&head, nleaves);
		rc = rc ? rc : ioa_enc_uvar(&wtimes, 0);
		rc = rc ? rc : ioa_enc_uvar(&wtimes, tr->norders);
		ioa_buf_reset(&tail);
		orders = rc ? NULL : rope_join(&tr->orders, &tail, &worders, &orders_len);
		g->times = orders ? rope_join(&tr->times, &head, &wtimes, &g->times_len) : NULL;
		if (g->times) {
			unsigned char *all = realloc(g->times, g->times_len + orders_len + 1);

			if (all) {
				memcpy(all + g->times_len, orders, orders_len);
				g->times_len += orders_len;
			} else {
				free(g->times);
			}
			g->times = all;
		}
		ioa_buf_reset(&head);
		ioa_buf_reset(&tail);
		vbytes = rope_join(&tr->values, &head, &tail, &vlen);
		if (!g->shape || !g->times || !vbytes)
			rc = -ENOMEM;
	}
	/* Each value is one varint at least: vlen bounds their number. */
	nvalues = IOA_TRH_COUNT + tr->nfiles + IOA_TRACE_COMM_VALUES * (size_t)tr->ncomms + vlen +
		  nextra;
	if (!rc) {
		g->kind = calloc(nvalues + 1, 1);
		g->a = calloc(nvalues + 1, sizeof(*g->a));
		g->b = calloc(nvalues + 1, sizeof(*g->b));
		if (!g->kind || !g->a || !g->b)
			rc = -ENOMEM;
	}
	if (!rc) {
		int64_t *b = g->b;
		size_t n = 0;

		b[n++] = (int64_t)tr->events_total;
		b[n++] = (int64_t)tr->events_traced;
		b[n++] = (int64_t)tr->first_start;
		b[n++] = (tr->lost ? IOA_TRF_LOST : 0) |
			 (!tr->lost && tr->events_traced < tr->events_total ? IOA_TRF_TRUNCATED
									    : 0) |
			 (tr->degraded ? IOA_TRF_SUMMARY : 0);
		b[n++] = (int64_t)tr->compute;
		b[n++] = (int64_t)tr->sync;
		b[n++] = (int64_t)tr->io;
		for (i = 0; i < tr->nfiles; i++)
			b[n++] = (int64_t)tr->files[i];
		for (i = 0; i < tr->ncomms; i++) {
			b[n++] = tr->comms[i].size;
			b[n++] = tr->comms[i].rank;
			b[n++] = tr->comms[i].leader;
		}
		c = (struct ioa_cursor){vbytes, vlen, 0};
		while (c.left)
			b[n++] = ioa_cursor_svar(&c);
		memcpy(b + n, extra, nextra * sizeof(*b));
		g->nvalues = n + nextra;
	}
	free(vbytes);
	free(extra);
	free(orders);
	ioa_buf_release(&head);
	ioa_buf_release(&tail);
	ioa_buf_release(&wtimes);
	ioa_buf_release(&worders);
	t->ngroups++;
	return rc;
}

void rt_trace_shift(uint64_t ticks)
{
	if (tr && tr->have_start) {
		tr->first_start += ticks;
		tr->last_end += ticks;
		tr->top_end += ticks;
	}
}

int rt_trace_pack(struct ioa_log_writer *w, double ns_per_tick)
{
	struct ioa_trace t = {0};
	struct ioa_buf raw = IOA_BUF_INIT((size_t)1 << 30);
	int rc;

	if (!tr->base)
		return 0;
	rc = rt_trace_group(&t, ns_per_tick);
	rc = rc ? rc : ioa_trace_encode(&t, &raw);
	rc = rc ? rc : ioa_logw_add(w, IOA_REGION_TRACE, raw.data, raw.len);
	ioa_buf_release(&raw);
	ioa_trace_free(&t);
	return rc;
}
