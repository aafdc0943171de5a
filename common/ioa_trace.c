/*
 * ioa_trace — trace region codec, cross-rank grouping and the tree walker
 * (see ioa_trace.h; the bytes are described in docs/log-format.md).
 */
#include "ioa_trace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_logfmt.h"
#include "ioa_logw.h"

/* Bounds on what a reader accepts. */
#define TR_MAX_RANKS   (1u << 24)
#define TR_MAX_NESTING 64u
#define TR_MAX_BIN     (32u + 58u * 16u + 15u)

/* ------------------------------------------------------------ varints */

size_t ioa_uvar_put(unsigned char *out, uint64_t v)
{
	size_t n = 0;

	do {
		out[n] = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v)
			out[n] |= 0x80;
		n++;
	} while (v);
	return n;
}

int ioa_enc_uvar(struct ioa_buf *b, uint64_t v)
{
	unsigned char tmp[10];

	/* Room for the longest varint and the NUL, within the cap: written in place. */
	if (b->data && b->alloc - b->len > 10 && b->cap - b->len >= 10) {
		b->len += ioa_uvar_put((unsigned char *)b->data + b->len, v);
		b->data[b->len] = '\0';
		return 0;
	}
	return ioa_buf_add(b, tmp, ioa_uvar_put(tmp, v));
}

int ioa_enc_svar(struct ioa_buf *b, int64_t v)
{
	return ioa_enc_uvar(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

uint64_t ioa_cursor_uvar(struct ioa_cursor *c)
{
	uint64_t v = 0;
	unsigned shift = 0;

	for (;;) {
		const unsigned char *p = ioa_cursor_take(c, 1);

		if (!p)
			return 0;
		if (shift == 63 && (*p & 0x7e)) {
			c->overrun = 1;
			return 0;
		}
		v |= (uint64_t)(*p & 0x7f) << shift;
		if (!(*p & 0x80))
			return v;
		shift += 7;
		if (shift > 63) {
			c->overrun = 1;
			return 0;
		}
	}
}

int64_t ioa_cursor_svar(struct ioa_cursor *c)
{
	uint64_t v = ioa_cursor_uvar(c);

	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

double ioa_trace_bin_ticks(unsigned bin)
{
	unsigned msb, sub;
	double lo, width;

	if (bin < 32)
		return bin;
	msb = (bin - 32) / 16 + 5;
	sub = (bin - 32) % 16;
	width = (double)((uint64_t)1 << (msb - 4));
	lo = (16 + sub) * width;
	return lo + width / 2;
}

/* ------------------------------------------------------------ groups */

static void group_free(struct ioa_trace_group *g)
{
	free(g->ranks);
	free(g->shape);
	free(g->kind);
	free(g->a);
	free(g->b);
	free(g->table);
	free(g->times);
	memset(g, 0, sizeof(*g));
}

void ioa_trace_free(struct ioa_trace *t)
{
	size_t i;

	for (i = 0; i < t->ngroups; i++)
		group_free(&t->groups[i]);
	free(t->groups);
	t->groups = NULL;
	t->ngroups = 0;
}

static int group_alloc_values(struct ioa_trace_group *g, size_t nvalues)
{
	g->nvalues = nvalues;
	g->kind = calloc(nvalues + 1, 1);
	g->a = calloc(nvalues + 1, sizeof(*g->a));
	g->b = calloc(nvalues + 1, sizeof(*g->b));
	return g->kind && g->a && g->b ? 0 : -ENOMEM;
}

static void *dup_bytes(const void *p, size_t n)
{
	void *copy = malloc(n + 1);

	if (copy && n)
		memcpy(copy, p, n);
	return copy;
}

static int decode_group(struct ioa_cursor *c, struct ioa_trace_group *g, uint64_t version)
{
	uint64_t nranks = ioa_cursor_uvar(c), nruns, r, i, k, len, next = 0, ntab = 0;
	const unsigned char *p;
	int64_t prev = 0;

	if (c->overrun || nranks == 0 || nranks > TR_MAX_RANKS || nranks > c->left)
		return -EINVAL;
	g->version = (uint32_t)version;
	g->nranks = (uint32_t)nranks;
	if (!(g->ranks = calloc(nranks, sizeof(*g->ranks))))
		return -ENOMEM;
	nruns = ioa_cursor_uvar(c);
	for (r = 0, k = 0; r < nruns && !c->overrun; r++) {
		uint64_t start, run;

		/*
		 * Ranks ascend strictly (lookups bisect them): a gap that wraps
		 * around would put a run before the last and send a lookup
		 * past the group's tables.
		 */
		if (__builtin_add_overflow(next, ioa_cursor_uvar(c), &start))
			return -EINVAL;
		run = ioa_cursor_uvar(c);
		if (run == 0 || run > nranks - k || start > UINT32_MAX || run > UINT32_MAX - start)
			return -EINVAL;
		for (i = 0; i < run; i++)
			g->ranks[k++] = (uint32_t)(start + i);
		next = start + run;
	}
	if (k != nranks)
		return -EINVAL;
	g->ns_per_tick = ioa_bits_f64(ioa_cursor_u64(c));
	if (!(g->ns_per_tick > 0 && g->ns_per_tick < 1e9))
		return -EINVAL;
	len = ioa_cursor_uvar(c);
	if (len > c->left || !(p = ioa_cursor_take(c, (size_t)len)))
		return -EINVAL;
	/* Version 2 knew no summary: its shape ends as a version 3 one without. */
	if (!(g->shape = malloc((size_t)len + 1)))
		return -ENOMEM;
	if (len)
		memcpy(g->shape, p, (size_t)len);
	g->shape_len = (size_t)len;
	if (version == 2)
		g->shape[g->shape_len++] = 0;
	len = ioa_cursor_uvar(c);
	if (len > c->left)
		return -EINVAL;
	if (group_alloc_values(g, (size_t)len))
		return -ENOMEM;
	for (i = 0; i < g->nvalues && !c->overrun; i++) {
		g->kind[i] = (unsigned char)ioa_cursor_uvar(c);
		if (g->kind[i] == 0) {
			g->a[i] = ioa_cursor_svar(c);
			g->b[i] = (int64_t)((uint64_t)prev + (uint64_t)ioa_cursor_svar(c));
			prev = g->b[i];
		} else if (g->kind[i] == 1) {
			if (nranks > c->left)
				return -EINVAL;
			if (!g->table || g->table_len + nranks > ntab) {
				uint64_t want = (ntab + nranks) * 2;
				int64_t *t = realloc(g->table, want * sizeof(*t));

				if (!t)
					return -ENOMEM;
				g->table = t;
				ntab = want;
			}
			g->b[i] = (int64_t)g->table_len;
			for (k = 0; k < nranks; k++) {
				prev = (int64_t)((uint64_t)prev + (uint64_t)ioa_cursor_svar(c));
				g->table[g->table_len++] = prev;
			}
		} else {
			return -EINVAL;
		}
	}
	len = ioa_cursor_uvar(c);
	if (len > c->left || !(p = ioa_cursor_take(c, (size_t)len)))
		return -EINVAL;
	/* Before version 4 the times ended with the overrides: no call's order of gaps. */
	if (!(g->times = malloc((size_t)len + 1)))
		return -ENOMEM;
	if (len)
		memcpy(g->times, p, (size_t)len);
	g->times_len = (size_t)len;
	if (version < 4)
		g->times[g->times_len++] = 0;
	return c->overrun ? -EINVAL : 0;
}

int ioa_trace_decode(struct ioa_trace *t, const void *raw, size_t len)
{
	struct ioa_cursor c = {raw, len, 0};
	uint64_t version = ioa_cursor_uvar(&c), n = ioa_cursor_uvar(&c), i;
	struct ioa_trace_group *groups;
	int rc = 0;

	if (c.overrun || version < 2 || version > IOA_TRACE_VERSION || n > c.left)
		return -EINVAL;
	groups = realloc(t->groups, (t->ngroups + n + 1) * sizeof(*groups));
	if (!groups)
		return -ENOMEM;
	t->groups = groups;
	memset(groups + t->ngroups, 0, (n + 1) * sizeof(*groups));
	for (i = 0; i < n && !rc; i++)
		rc = decode_group(&c, &groups[t->ngroups + i], version);
	if (!rc && (c.overrun || c.left))
		rc = -EINVAL;
	if (rc) {
		for (i = 0; i <= n; i++)
			group_free(&groups[t->ngroups + i]);
		return rc;
	}
	t->ngroups += n;
	return 0;
}

static int encode_group(const struct ioa_trace_group *g, struct ioa_buf *out)
{
	uint32_t i, runs = 0, next = 0;
	int64_t prev = 0;
	size_t k;
	int rc = ioa_enc_uvar(out, g->nranks);

	for (i = 0; i < g->nranks; i++)
		runs += i == 0 || g->ranks[i] != g->ranks[i - 1] + 1;
	rc = rc ? rc : ioa_enc_uvar(out, runs);
	for (i = 0; i < g->nranks && !rc;) {
		uint32_t j = i + 1;

		while (j < g->nranks && g->ranks[j] == g->ranks[j - 1] + 1)
			j++;
		rc = ioa_enc_uvar(out, g->ranks[i] - next);
		rc = rc ? rc : ioa_enc_uvar(out, j - i);
		next = g->ranks[j - 1] + 1;
		i = j;
	}
	rc = rc ? rc : ioa_enc_u64(out, ioa_f64_bits(g->ns_per_tick));
	rc = rc ? rc : ioa_enc_uvar(out, g->shape_len);
	rc = rc ? rc : ioa_buf_add(out, g->shape, g->shape_len);
	rc = rc ? rc : ioa_enc_uvar(out, g->nvalues);
	for (k = 0; k < g->nvalues && !rc; k++) {
		rc = ioa_enc_uvar(out, g->kind[k]);
		if (g->kind[k] == 0) {
			rc = rc ? rc : ioa_enc_svar(out, g->a[k]);
			rc = rc ? rc
				: ioa_enc_svar(out, (int64_t)((uint64_t)g->b[k] - (uint64_t)prev));
			prev = g->b[k];
		} else {
			for (i = 0; i < g->nranks && !rc; i++) {
				int64_t v = g->table[(size_t)g->b[k] + i];

				rc = ioa_enc_svar(out, (int64_t)((uint64_t)v - (uint64_t)prev));
				prev = v;
			}
		}
	}
	rc = rc ? rc : ioa_enc_uvar(out, g->times_len);
	return rc ? rc : ioa_buf_add(out, g->times, g->times_len);
}

int ioa_trace_encode(const struct ioa_trace *t, struct ioa_buf *out)
{
	size_t i;
	int rc = ioa_enc_uvar(out, IOA_TRACE_VERSION);

	rc = rc ? rc : ioa_enc_uvar(out, t->ngroups);
	for (i = 0; i < t->ngroups && !rc; i++)
		rc = encode_group(&t->groups[i], out);
	return rc;
}

/* Where rank is (or would be) in the group's ascending ranks. */
static uint32_t rank_index(const struct ioa_trace_group *g, uint32_t rank)
{
	uint32_t lo = 0, hi = g->nranks;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (g->ranks[mid] < rank)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct ioa_trace_group *ioa_trace_find(const struct ioa_trace *t, uint32_t rank)
{
	size_t i;

	for (i = 0; i < t->ngroups; i++) {
		const struct ioa_trace_group *g = &t->groups[i];
		uint32_t k = rank_index(g, rank);

		if (k < g->nranks && g->ranks[k] == rank)
			return g;
	}
	return NULL;
}

int64_t ioa_trace_value(const struct ioa_trace_group *g, uint32_t rank, size_t pos)
{
	if (g->kind[pos] == 0)
		return (int64_t)((uint64_t)g->a[pos] * rank + (uint64_t)g->b[pos]);
	return g->table[(size_t)g->b[pos] + rank_index(g, rank)];
}

/* ------------------------------------------------------------ regrouping */

/* Reads one histogram of a times stream into (bins, counts); returns its size or -1. */
static int read_hist(struct ioa_cursor *c, uint16_t *bins, uint64_t *counts)
{
	uint64_t n = ioa_cursor_uvar(c), i, bin = 0;

	if (n > TR_MAX_BIN + 1)
		return -1;
	for (i = 0; i < n; i++) {
		uint64_t d = ioa_cursor_uvar(c);

		bin = i == 0 ? d : bin + d;
		if ((i > 0 && d == 0) || bin > TR_MAX_BIN)
			return -1;
		bins[i] = (uint16_t)bin;
		counts[i] = ioa_cursor_uvar(c);
	}
	return c->overrun ? -1 : (int)n;
}

/* Encodes a histogram given as n (bin, count) pairs, bins ascending. */
static int write_hist(struct ioa_buf *out, const uint16_t *bins, const uint64_t *counts, size_t n)
{
	size_t i;
	int rc = ioa_enc_uvar(out, n);

	for (i = 0; i < n && !rc; i++) {
		rc = ioa_enc_uvar(out, i ? (uint64_t)(bins[i] - bins[i - 1]) : bins[i]);
		rc = rc ? rc : ioa_enc_uvar(out, counts[i]);
	}
	return rc;
}

/*
 * The order of calls' gaps (version 4): entries naming their owner (0 the
 * group's, 1 + i the group's rank i's own) and call (leaf), each with its
 * segments in the order the call was made: executions and mean gap.
 */
struct tr_order_ent {
	uint32_t owner, leaf;
	size_t first; /* its segments, [first, first + n) */
	uint32_t n;
	uint64_t execs; /* their executions, summed */
};

struct tr_orders {
	struct tr_order_ent *ent;
	size_t nent, ecap;
	uint64_t *seg_n;   /* executions */
	int64_t *seg_mean; /* mean gap, ticks */
	size_t nseg, scap;
};

static void orders_free(struct tr_orders *o)
{
	free(o->ent);
	free(o->seg_n);
	free(o->seg_mean);
	memset(o, 0, sizeof(*o));
}

static int orders_seg(struct tr_orders *o, uint64_t n, int64_t mean)
{
	if (o->nseg == o->scap) {
		size_t want = o->scap * 2 + 64;
		uint64_t *sn = realloc(o->seg_n, want * sizeof(*sn));
		int64_t *sm;

		if (sn)
			o->seg_n = sn;
		sm = sn ? realloc(o->seg_mean, want * sizeof(*sm)) : NULL;
		if (!sm)
			return -ENOMEM;
		o->seg_mean = sm;
		o->scap = want;
	}
	o->seg_n[o->nseg] = n;
	o->seg_mean[o->nseg++] = mean;
	return 0;
}

static int orders_ent(struct tr_orders *o, uint32_t owner, uint32_t leaf)
{
	if (o->nent == o->ecap) {
		size_t want = o->ecap * 2 + 16;
		struct tr_order_ent *e = realloc(o->ent, want * sizeof(*e));

		if (!e)
			return -ENOMEM;
		o->ent = e;
		o->ecap = want;
	}
	o->ent[o->nent++] = (struct tr_order_ent){owner, leaf, o->nseg, 0, 0};
	return 0;
}

static int order_ent_cmp(const void *a, const void *b)
{
	const struct tr_order_ent *x = a, *y = b;

	if (x->owner != y->owner)
		return x->owner < y->owner ? -1 : 1;
	return x->leaf < y->leaf ? -1 : x->leaf > y->leaf;
}

/*
 * Reads the orders that end a times stream: owners up to nranks, calls
 * below nleaves, at least one segment of at least one execution each,
 * means >= 0, and one entry per owner and call.  Entries come back sorted
 * by owner, then call.
 */
static int orders_read(struct tr_orders *o, struct ioa_cursor *c, uint32_t nranks, uint64_t nleaves)
{
	uint64_t n = ioa_cursor_uvar(c), i, k;
	int rc = 0;

	if (c->overrun || n > c->left)
		return -EINVAL;
	for (i = 0; i < n && !rc; i++) {
		uint64_t owner = ioa_cursor_uvar(c), leaf = ioa_cursor_uvar(c);
		uint64_t nseg = ioa_cursor_uvar(c);
		struct tr_order_ent *e;
		int64_t mean = 0;

		if (c->overrun || owner > nranks || leaf >= nleaves || nseg == 0 || nseg > c->left)
			return -EINVAL;
		rc = orders_ent(o, (uint32_t)owner, (uint32_t)leaf);
		e = rc ? NULL : &o->ent[o->nent - 1];
		for (k = 0; k < nseg && !rc; k++) {
			uint64_t execs = ioa_cursor_uvar(c);

			if (execs == 0 || __builtin_add_overflow(e->execs, execs, &e->execs) ||
			    __builtin_add_overflow(mean, ioa_cursor_svar(c), &mean) || mean < 0)
				return -EINVAL;
			rc = orders_seg(o, execs, mean);
		}
		if (e)
			e->n = (uint32_t)nseg;
	}
	if (rc || c->overrun)
		return rc ? rc : -EINVAL;
	if (o->nent > 1)
		qsort(o->ent, o->nent, sizeof(*o->ent), order_ent_cmp);
	for (i = 1; i < o->nent; i++)
		if (!order_ent_cmp(&o->ent[i - 1], &o->ent[i]))
			return -EINVAL;
	return 0;
}

/* Writes entry e's segments (its owner given) as orders_read reads them. */
static int order_write(struct ioa_buf *out, uint64_t owner, uint64_t leaf, const uint64_t *seg_n,
		       const int64_t *seg_mean, size_t n)
{
	int64_t prev = 0;
	size_t k;
	int rc = ioa_enc_uvar(out, owner);

	rc = rc ? rc : ioa_enc_uvar(out, leaf);
	rc = rc ? rc : ioa_enc_uvar(out, n);
	for (k = 0; k < n && !rc; k++) {
		rc = ioa_enc_uvar(out, seg_n[k]);
		rc = rc ? rc : ioa_enc_svar(out, seg_mean[k] - prev);
		prev = seg_mean[k];
	}
	return rc;
}

/*
 * A group's times, parsed: per call (leaf, in shape order) the shared
 * histograms of durations and gaps, then the ranks' own where they differ
 * from the shared ones (overrides).  Histogram h is entries [at[h], at[h+1]).
 */
struct tr_over {
	uint32_t rank; /* index in the group */
	uint32_t leaf;
	size_t hist; /* its durations are histogram hist, its gaps hist + 1 */
};

struct tr_hists {
	uint32_t nleaves;
	size_t nhists, hcap, *at;
	uint16_t *bins;
	uint64_t *counts;
	size_t n, cap;
	struct tr_over *over;
	size_t nover;
	struct tr_orders orders;
};

static void hists_free(struct tr_hists *hs)
{
	free(hs->at);
	free(hs->bins);
	free(hs->counts);
	free(hs->over);
	orders_free(&hs->orders);
	memset(hs, 0, sizeof(*hs));
}

static int hists_push(struct tr_hists *hs, const uint16_t *bins, const uint64_t *counts, size_t n)
{
	if (hs->nhists + 2 > hs->hcap) {
		size_t want = hs->hcap * 2 + 16;
		size_t *at = realloc(hs->at, want * sizeof(*at));

		if (!at)
			return -ENOMEM;
		hs->at = at;
		hs->hcap = want;
	}
	if (hs->n + n > hs->cap || !hs->bins) {
		size_t want = (hs->cap + n) * 2 + 16;
		uint16_t *b = realloc(hs->bins, want * sizeof(*b));
		uint64_t *c;

		if (b)
			hs->bins = b;
		c = b ? realloc(hs->counts, want * sizeof(*c)) : NULL;
		if (!c)
			return -ENOMEM;
		hs->counts = c;
		hs->cap = want;
	}
	if (n) {
		memcpy(hs->bins + hs->n, bins, n * sizeof(*bins));
		memcpy(hs->counts + hs->n, counts, n * sizeof(*counts));
	}
	hs->at[hs->nhists] = hs->n;
	hs->n += n;
	hs->at[++hs->nhists] = hs->n;
	return 0;
}

static int hists_read_one(struct tr_hists *hs, struct ioa_cursor *c)
{
	uint16_t bins[TR_MAX_BIN + 1];
	uint64_t counts[TR_MAX_BIN + 1];
	int n = read_hist(c, bins, counts);

	return n < 0 ? -EINVAL : hists_push(hs, bins, counts, (size_t)n);
}

/* By rank, then call, then the order read (the last of a rank's call wins). */
static int over_cmp(const void *a, const void *b)
{
	const struct tr_over *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->leaf != y->leaf)
		return x->leaf < y->leaf ? -1 : 1;
	return x->hist < y->hist ? -1 : x->hist > y->hist;
}

/* Parses a times blob; overrides must name ranks below nranks. */
static int hists_read(struct tr_hists *hs, const unsigned char *p, size_t len, uint32_t nranks)
{
	struct ioa_cursor c = {p, len, 0};
	uint64_t nleaves = ioa_cursor_uvar(&c), nover, i;
	int rc = 0;

	if (c.overrun || nleaves > len)
		return -EINVAL;
	hs->nleaves = (uint32_t)nleaves;
	for (i = 0; i < 2 * nleaves && !rc; i++)
		rc = hists_read_one(hs, &c);
	nover = rc ? 0 : ioa_cursor_uvar(&c);
	if (nover > c.left)
		return -EINVAL;
	if (nover && !(hs->over = calloc(nover, sizeof(*hs->over))))
		return -ENOMEM;
	for (i = 0; i < nover && !rc; i++) {
		uint64_t rank = ioa_cursor_uvar(&c), leaf = ioa_cursor_uvar(&c);

		if (rank >= nranks || leaf >= nleaves)
			return -EINVAL;
		hs->over[i] = (struct tr_over){(uint32_t)rank, (uint32_t)leaf, hs->nhists};
		rc = hists_read_one(hs, &c);
		rc = rc ? rc : hists_read_one(hs, &c);
		hs->nover++;
	}
	if (!rc && hs->nover)
		qsort(hs->over, hs->nover, sizeof(*hs->over), over_cmp);
	rc = rc ? rc : orders_read(&hs->orders, &c, nranks, nleaves);
	return rc ? rc : (c.overrun || c.left) ? -EINVAL : 0;
}

/* The value below which a fraction q of a histogram's counts lie. */
static double hist_quantile(const uint16_t *bins, const uint64_t *counts, size_t n, double q)
{
	uint64_t total = 0, seen = 0;
	size_t i;

	for (i = 0; i < n; i++)
		total += counts[i];
	for (i = 0; i < n; i++) {
		seen += counts[i];
		if ((double)seen >= q * (double)total)
			return ioa_trace_bin_ticks(bins[i]);
	}
	return n ? ioa_trace_bin_ticks(bins[n - 1]) : 0;
}

/*
 * A rank keeps its own times for a call when a quantile of them moves by
 * more than 25% from the group's and the time they account for differs
 * from the rank's share of the group's by more than 5% of the rank's total:
 * a rank that really behaves differently (a straggler, a rank that waits)
 * keeps its own times; the noise between ranks doing the same thing does
 * not cost a histogram per rank.
 */
#define TR_OWN_TIMES	  0.05
#define TR_OWN_TIME_SHARE 0.05

/* Sum and count of a histogram (ticks). */
static double hist_sum(const struct tr_hists *a, size_t h, uint64_t *count)
{
	double sum = 0;
	size_t k;

	*count = 0;
	for (k = a->at[h]; k < a->at[h + 1]; k++) {
		sum += ioa_trace_bin_ticks(a->bins[k]) * (double)a->counts[k];
		*count += a->counts[k];
	}
	return sum;
}

/* How far a rank's own time for a call is from its share of the group's. */
static double share_gap(const struct tr_hists *a, size_t ha, const struct tr_hists *b, size_t hb)
{
	uint64_t own_n, all_n;
	double own = hist_sum(a, ha, &own_n), all = hist_sum(b, hb, &all_n);
	double share = all_n ? all * (double)own_n / (double)all_n : 0;

	return own > share ? own - share : share - own;
}

static int hist_differs(const struct tr_hists *a, size_t ha, const struct tr_hists *b, size_t hb)
{
	int i;

	for (i = 0; i <= 16; i++) {
		double q = i == 0 ? 0 : i == 16 ? 1 : (i - 0.5) / 15.0;
		double x = hist_quantile(a->bins + a->at[ha], a->counts + a->at[ha],
					 a->at[ha + 1] - a->at[ha], q);
		double y = hist_quantile(b->bins + b->at[hb], b->counts + b->at[hb],
					 b->at[hb + 1] - b->at[hb], q);

		if (x > y * (1 + TR_OWN_TIMES) + 1 || y > x * (1 + TR_OWN_TIMES) + 1)
			return 1;
	}
	return 0;
}

static int bin_cmp(const void *a, const void *b)
{
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;

	return x < y ? -1 : x > y;
}

/* An order's entry for owner and call, or NULL. */
static const struct tr_order_ent *order_find(const struct tr_orders *o, uint32_t owner,
					     uint32_t leaf)
{
	struct tr_order_ent key = {owner, leaf, 0, 0, 0};

	return o->nent ? bsearch(&key, o->ent, o->nent, sizeof(*o->ent), order_ent_cmp) : NULL;
}

/* The order rank j (index in its group) follows for a call: its own, else its group's. */
static const struct tr_order_ent *order_of(const struct tr_orders *o, uint32_t j, uint32_t leaf)
{
	const struct tr_order_ent *e = order_find(o, j + 1, leaf);

	return e ? e : order_find(o, 0, leaf);
}

/* A step function over a call's executions: segments of n executions, each of value v. */
struct tr_steps {
	uint64_t *n;
	double *v;
	size_t len;
};

static void steps_free(struct tr_steps *s)
{
	free(s->n);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* Merges neighbours pairwise (their values weighted) until at most IOA_TRACE_ORDER_SEGS. */
static void steps_reduce(struct tr_steps *s)
{
	while (s->len > IOA_TRACE_ORDER_SEGS) {
		size_t i, k = 0;

		for (i = 0; i < s->len; i += 2, k++) {
			if (i + 1 == s->len) {
				s->n[k] = s->n[i];
				s->v[k] = s->v[i];
				continue;
			}
			s->v[k] = (s->v[i] * (double)s->n[i] + s->v[i + 1] * (double)s->n[i + 1]) /
				  (double)(s->n[i] + s->n[i + 1]);
			s->n[k] = s->n[i] + s->n[i + 1];
		}
		s->len = k;
	}
}

/*
 * Adds an order's segments to the sum s: the segments split where either
 * does, values added.  Both must cover the same executions.
 */
static int steps_add(struct tr_steps *s, const struct tr_orders *o, const struct tr_order_ent *e)
{
	size_t cap = s->len + e->n, a = 0, b = 0, k = 0;
	uint64_t *n = malloc(cap * sizeof(*n)), used_a = 0, used_b = 0;
	double *v = malloc(cap * sizeof(*v));

	if (!n || !v) {
		free(n);
		free(v);
		return -ENOMEM;
	}
	while (b < e->n) {
		uint64_t left_b = o->seg_n[e->first + b] - used_b, take = left_b;
		double mean = (double)o->seg_mean[e->first + b];

		if (s->len) {
			uint64_t left_a;

			if (a == s->len)
				break;
			left_a = s->n[a] - used_a;
			take = left_a < left_b ? left_a : left_b;
			mean += s->v[a];
			used_a += take;
			if (used_a == s->n[a]) {
				a++;
				used_a = 0;
			}
		}
		n[k] = take;
		v[k++] = mean;
		used_b += take;
		if (used_b == o->seg_n[e->first + b]) {
			b++;
			used_b = 0;
		}
	}
	if (b < e->n || a < s->len) {
		free(n);
		free(v);
		return -EINVAL;
	}
	free(s->n);
	free(s->v);
	s->n = n;
	s->v = v;
	s->len = k;
	steps_reduce(s);
	return 0;
}

/*
 * The group's order for a call: the mean over the ranks that keep one of
 * the order each keeps (ranks of one shape make a call equally often).
 * Written when it says something (two segments or more); *written counts.
 */
static int merge_order(struct ioa_trace_group **src, const struct tr_hists *hs, size_t m,
		       uint32_t leaf, struct ioa_buf *out, uint64_t *written)
{
	struct tr_steps sum = {0};
	uint64_t ranks = 0;
	size_t i, k;
	int rc = 0;

	for (i = 0; i < m && !rc; i++) {
		uint32_t j;

		for (j = 0; j < src[i]->nranks && !rc; j++) {
			const struct tr_order_ent *e = order_of(&hs[i].orders, j, leaf);

			if (e) {
				rc = steps_add(&sum, &hs[i].orders, e);
				ranks++;
			}
		}
	}
	if (!rc && sum.len > 1) {
		int64_t *mean = malloc(sum.len * sizeof(*mean));

		for (k = 0; mean && k < sum.len; k++)
			mean[k] = (int64_t)(sum.v[k] / (double)ranks + 0.5);
		rc = mean ? order_write(out, 0, leaf, sum.n, mean, sum.len) : -ENOMEM;
		*written += !rc;
		free(mean);
	}
	steps_free(&sum);
	return rc;
}

/*
 * The times of groups src[0..m) as one group's (whose ranks g->ranks are
 * the union): the shared histograms summed call by call, and an override
 * for each rank and call whose own times the sum no longer describes.
 */
static int merge_times(struct ioa_trace_group **src, size_t m, const struct ioa_trace_group *g,
		       struct ioa_buf *out)
{
	struct tr_hists *hs = calloc(m, sizeof(*hs)), merged = {0};
	uint64_t *dense = calloc(TR_MAX_BIN + 1, sizeof(*dense));
	struct ioa_buf over = IOA_BUF_INIT(SIZE_MAX / 2), ords = IOA_BUF_INIT(SIZE_MAX / 2);
	uint64_t nover = 0, nords = 0, counts[TR_MAX_BIN + 1];
	uint16_t bins[TR_MAX_BIN + 1];
	size_t i, h;
	int rc = hs && dense ? 0 : -ENOMEM;

	for (i = 0; i < m && !rc; i++) {
		rc = hists_read(&hs[i], src[i]->times, src[i]->times_len, src[i]->nranks);
		if (!rc && hs[i].nleaves != hs[0].nleaves)
			rc = -EINVAL;
	}
	/*
	 * The shared histograms: sums over the groups, through a dense array
	 * whose touched bins alone are read back and cleared (a job's calls
	 * are many, their histograms small).
	 */
	for (h = 0; !rc && h < 2 * (size_t)hs[0].nleaves; h++) {
		size_t n = 0, k, t;

		for (i = 0; i < m; i++)
			for (k = hs[i].at[h]; k < hs[i].at[h + 1]; k++) {
				if (!hs[i].counts[k])
					continue;
				if (!dense[hs[i].bins[k]])
					bins[n++] = hs[i].bins[k];
				/* Saturated: a count that wrapped to 0 would list its bin twice. */
				if (__builtin_add_overflow(dense[hs[i].bins[k]], hs[i].counts[k],
							   &dense[hs[i].bins[k]]))
					dense[hs[i].bins[k]] = UINT64_MAX;
			}
		if (n > 16) {
			qsort(bins, n, sizeof(*bins), bin_cmp);
		} else {
			/* A call's bins are few: sorted in place. */
			for (t = 1; t < n; t++) {
				uint16_t b = bins[t];
				size_t u = t;

				for (; u > 0 && bins[u - 1] > b; u--)
					bins[u] = bins[u - 1];
				bins[u] = b;
			}
		}
		for (t = 0; t < n; t++) {
			counts[t] = dense[bins[t]];
			dense[bins[t]] = 0;
		}
		rc = hists_push(&merged, bins, counts, n);
	}
	for (h = 0; !rc && h < hs[0].nleaves; h++)
		rc = merge_order(src, hs, m, (uint32_t)h, &ords, &nords);
	/* Each rank's own times, where the shared ones no longer describe them. */
	for (i = 0; i < m && !rc; i++) {
		uint32_t j, leaf;
		size_t o = 0;

		for (j = 0; j < src[i]->nranks && !rc; j++) {
			uint32_t index = rank_index(g, src[i]->ranks[j]);
			double total = 0;
			int t;

			/* The rank's compute, synchronization and I/O time (header values). */
			for (t = IOA_TRH_COMPUTE_TICKS; t <= IOA_TRH_IO_TICKS; t++)
				if ((size_t)t < src[i]->nvalues)
					total += (double)ioa_trace_value(src[i], src[i]->ranks[j],
									 (size_t)t);

			for (leaf = 0; leaf < hs[i].nleaves && !rc; leaf++) {
				const struct tr_over *ov = hs[i].over;
				const struct tr_order_ent *e;
				size_t own = 2 * (size_t)leaf, k;

				/* Overrides are sorted by rank and call: a cursor walks them. */
				while (o < hs[i].nover &&
				       (ov[o].rank < j || (ov[o].rank == j && ov[o].leaf < leaf)))
					o++;
				while (o < hs[i].nover && ov[o].rank == j && ov[o].leaf == leaf)
					own = ov[o++].hist;
				/* The cheap test first: most calls are a small part of a rank's
				 * time. */
				if (share_gap(&hs[i], own, &merged, 2 * (size_t)leaf) +
					    share_gap(&hs[i], own + 1, &merged,
						      2 * (size_t)leaf + 1) <=
				    TR_OWN_TIME_SHARE * total)
					continue;
				if (!hist_differs(&hs[i], own, &merged, 2 * (size_t)leaf) &&
				    !hist_differs(&hs[i], own + 1, &merged, 2 * (size_t)leaf + 1))
					continue;
				rc = ioa_enc_uvar(&over, index);
				rc = rc ? rc : ioa_enc_uvar(&over, leaf);
				for (k = own; k < own + 2 && !rc; k++)
					rc = write_hist(&over, hs[i].bins + hs[i].at[k],
							hs[i].counts + hs[i].at[k],
							hs[i].at[k + 1] - hs[i].at[k]);
				nover++;
				/* Its own times come with its own order of gaps. */
				e = rc ? NULL : order_of(&hs[i].orders, j, leaf);
				if (e) {
					rc = order_write(&ords, (uint64_t)index + 1, leaf,
							 hs[i].orders.seg_n + e->first,
							 hs[i].orders.seg_mean + e->first, e->n);
					nords++;
				}
			}
		}
	}
	rc = rc ? rc : ioa_enc_uvar(out, hs[0].nleaves);
	for (h = 0; !rc && h < merged.nhists; h++)
		rc = write_hist(out, merged.bins + merged.at[h], merged.counts + merged.at[h],
				merged.at[h + 1] - merged.at[h]);
	rc = rc ? rc : ioa_enc_uvar(out, nover);
	rc = rc ? rc : ioa_buf_add(out, over.data, over.len);
	rc = rc ? rc : ioa_enc_uvar(out, nords);
	rc = rc ? rc : ioa_buf_add(out, ords.data, ords.len);
	for (i = 0; hs && i < m; i++)
		hists_free(&hs[i]);
	hists_free(&merged);
	ioa_buf_release(&over);
	ioa_buf_release(&ords);
	free(hs);
	free(dense);
	return rc;
}

/* Fits values v[0..n) of ranks r[0..n) as a*rank + b; 1 when they fit. */
static int fit_affine(const uint32_t *r, const int64_t *v, uint32_t n, int64_t *a, int64_t *b)
{
	int64_t dv, dr, ar, bb;
	uint32_t i;

	*a = 0;
	*b = v[0];
	if (n == 1)
		return 1;
	if (__builtin_sub_overflow(v[1], v[0], &dv))
		return 0;
	dr = (int64_t)r[1] - r[0];
	if (dv % dr)
		return 0;
	*a = dv / dr;
	if (__builtin_mul_overflow(*a, (int64_t)r[0], &ar) || __builtin_sub_overflow(v[0], ar, &bb))
		return 0;
	*b = bb;
	for (i = 2; i < n; i++) {
		int64_t x;

		if (__builtin_mul_overflow(*a, (int64_t)r[i], &x) ||
		    __builtin_add_overflow(x, bb, &x) || x != v[i])
			return 0;
	}
	return 1;
}

struct tr_member {
	uint32_t rank;
	const struct ioa_trace_group *g;
};

static int member_cmp(const void *x, const void *y)
{
	const struct tr_member *a = x, *b = y;

	return a->rank < b->rank ? -1 : a->rank > b->rank;
}

/* One group from src[0..m), which share a shape. */
static int merge_groups(struct ioa_trace_group **src, size_t m, struct ioa_trace_group *g)
{
	struct tr_member *mem;
	struct ioa_buf times = IOA_BUF_INIT(SIZE_MAX / 2);
	uint32_t total = 0, k;
	size_t i, p, ntab = 0;
	int64_t *v = NULL;
	int rc = 0;

	/* The merged group must decode again: its ranks are bounded as a decoded group's. */
	for (i = 0; i < m; i++)
		if (src[i]->nranks > TR_MAX_RANKS - total)
			return -EINVAL;
		else
			total += src[i]->nranks;
	mem = calloc(total, sizeof(*mem));
	g->ranks = calloc(total, sizeof(*g->ranks));
	v = calloc(total, sizeof(*v));
	if (!mem || !g->ranks || !v || group_alloc_values(g, src[0]->nvalues)) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0, k = 0; i < m; i++) {
		uint32_t j;

		for (j = 0; j < src[i]->nranks; j++)
			mem[k++] = (struct tr_member){src[i]->ranks[j], src[i]};
	}
	qsort(mem, total, sizeof(*mem), member_cmp);
	for (k = 0; k < total; k++) {
		if (k && mem[k].rank == mem[k - 1].rank) {
			rc = -EINVAL;
			goto out;
		}
		g->ranks[k] = mem[k].rank;
	}
	g->nranks = total;
	g->ns_per_tick = src[0]->ns_per_tick;
	g->shape_len = src[0]->shape_len;
	if (!(g->shape = dup_bytes(src[0]->shape, g->shape_len))) {
		rc = -ENOMEM;
		goto out;
	}
	for (p = 0; p < g->nvalues; p++) {
		for (k = 0; k < total; k++)
			v[k] = ioa_trace_value(mem[k].g, mem[k].rank, p);
		if (fit_affine(g->ranks, v, total, &g->a[p], &g->b[p]))
			continue;
		g->kind[p] = 1;
		if (g->table_len + total > ntab) {
			size_t want = (ntab + total) * 2;
			int64_t *t = realloc(g->table, want * sizeof(*t));

			if (!t) {
				rc = -ENOMEM;
				goto out;
			}
			g->table = t;
			ntab = want;
		}
		g->b[p] = (int64_t)g->table_len;
		memcpy(g->table + g->table_len, v, total * sizeof(*v));
		g->table_len += total;
	}
	rc = merge_times(src, m, g, &times);
	if (!rc) {
		g->times = (unsigned char *)ioa_buf_detach(&times, &g->times_len);
		if (!g->times)
			g->times = calloc(1, 1);
		rc = g->times ? 0 : -ENOMEM;
	}
out:
	ioa_buf_release(&times);
	free(mem);
	free(v);
	return rc;
}

static uint64_t shape_hash(const struct ioa_trace_group *g)
{
	uint64_t h = 1469598103934665603ull ^ g->nvalues;
	size_t i;

	for (i = 0; i < g->shape_len; i++)
		h = (h ^ g->shape[i]) * 1099511628211ull;
	return h;
}

struct tr_keyed {
	uint64_t hash;
	struct ioa_trace_group *g;
};

static int keyed_cmp(const void *x, const void *y)
{
	const struct tr_keyed *a = x, *b = y;

	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	if (a->g->shape_len != b->g->shape_len)
		return a->g->shape_len < b->g->shape_len ? -1 : 1;
	if (a->g->nvalues != b->g->nvalues)
		return a->g->nvalues < b->g->nvalues ? -1 : 1;
	return memcmp(a->g->shape, b->g->shape, a->g->shape_len);
}

static int group_first_rank_cmp(const void *x, const void *y)
{
	const struct ioa_trace_group *a = x, *b = y;

	return a->ranks[0] < b->ranks[0] ? -1 : a->ranks[0] > b->ranks[0];
}

int ioa_trace_regroup(struct ioa_trace *t)
{
	struct tr_keyed *keys = calloc(t->ngroups + 1, sizeof(*keys));
	struct ioa_trace_group **run = calloc(t->ngroups + 1, sizeof(*run));
	struct ioa_trace_group *out = calloc(t->ngroups + 1, sizeof(*out));
	size_t i, j, nout = 0;
	int rc = keys && run && out ? 0 : -ENOMEM;

	for (i = 0; i < t->ngroups && !rc; i++)
		keys[i] = (struct tr_keyed){shape_hash(&t->groups[i]), &t->groups[i]};
	if (!rc)
		qsort(keys, t->ngroups, sizeof(*keys), keyed_cmp);
	for (i = 0; i < t->ngroups && !rc; i = j) {
		size_t m = 0;

		for (j = i; j < t->ngroups && keyed_cmp(&keys[i], &keys[j]) == 0; j++)
			run[m++] = keys[j].g;
		rc = merge_groups(run, m, &out[nout++]);
	}
	if (rc) {
		for (i = 0; i < nout; i++)
			group_free(&out[i]);
		free(out);
	} else {
		qsort(out, nout, sizeof(*out), group_first_rank_cmp);
		ioa_trace_free(t);
		t->groups = out;
		t->ngroups = nout;
	}
	free(keys);
	free(run);
	return rc;
}

/* ------------------------------------------------------------ one rank */

struct ioa_trace_tnode {
	int is_loop;
	uint64_t count; /* loop */
	size_t end;	/* index past this node's subtree */
	struct ioa_trace_leaf leaf;
	int own_times;	/* a call: the histograms are this rank's own, not the group's */
	uint64_t execs; /* a call: how often the rank made it */
	uint64_t step;	/* a call: coprime with execs, about 0.618 x execs (see golden_pos) */
	size_t ord;	/* a call with an order of gaps: its first segment in the rank's */
};

/* 128-bit products for the permutation below (a GCC and Clang extension). */
__extension__ typedef unsigned __int128 tr_u128;

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* A step coprime with n, about 0.618 x n: k -> k x step mod n visits 0..n-1 spread out. */
static uint64_t golden_step(uint64_t n)
{
	uint64_t step = (uint64_t)((double)n * 0.6180339887498949);

	while (step > 0 && gcd(step, n) != 1)
		step--;
	return step ? step : 1;
}

struct tr_parse {
	struct ioa_cursor shape, times;
	struct ioa_trace_rank *r;
	size_t *leaf_node; /* call (leaf) index -> node index */
	uint64_t nleaves, leaves_seen;
	size_t cap, nvals, vcap, next_val;
	struct tr_hists hs; /* every histogram read, handed to the rank at the end */
};

static int next_value(struct tr_parse *p, int64_t *out)
{
	if (p->next_val >= p->r->group->nvalues)
		return -EINVAL;
	*out = ioa_trace_value(p->r->group, p->r->rank, p->next_val++);
	return 0;
}

static int parse_hist(struct tr_parse *p, struct ioa_trace_hist *h)
{
	int rc = hists_read_one(&p->hs, &p->times);

	/* Pointers are fixed up once all histograms are in place (an offset for now). */
	if (!rc) {
		h->bin = (const uint16_t *)(uintptr_t)p->hs.at[p->hs.nhists - 1];
		h->n = (uint32_t)(p->hs.at[p->hs.nhists] - p->hs.at[p->hs.nhists - 1]);
	}
	return rc;
}

/* Whether slot (-1: none) names one of the rank's files, or communicators for MPI calls. */
static int slot_ok(const struct ioa_trace_rank *r, const struct ioa_trace_sig *sig, int64_t slot)
{
	return slot == -1 ||
	       (slot >= 0 && slot < (sig->module == IOA_TRACE_MPI ? r->ncomms : r->nfiles));
}

int ioa_trace_model_span(const struct ioa_trace_model *m, const uint64_t *counts,
			 struct ioa_trace_span *out)
{
	int64_t span;
	uint64_t i;
	unsigned k;

	memset(out, 0, sizeof(*out));
	if (m->explicit_list) {
		if (!m->n)
			return 0;
		out->first = out->lo = out->hi = m->list[0];
		out->last = m->list[m->n - 1];
		for (i = 1; i < m->n; i++) {
			out->lo = m->list[i] < out->lo ? m->list[i] : out->lo;
			out->hi = m->list[i] > out->hi ? m->list[i] : out->hi;
			out->step = gcd(out->step,
					m->list[i] > m->list[0]
						? (uint64_t)m->list[i] - (uint64_t)m->list[0]
						: (uint64_t)m->list[0] - (uint64_t)m->list[i]);
		}
		return 0;
	}
	out->first = out->last = out->lo = out->hi = m->base;
	for (k = 0; k < m->nstrides; k++) {
		if (counts[k] - 1 > INT64_MAX ||
		    __builtin_mul_overflow(m->stride[k], (int64_t)(counts[k] - 1), &span) ||
		    __builtin_add_overflow(span < 0 ? out->lo : out->hi, span,
					   span < 0 ? &out->lo : &out->hi) ||
		    __builtin_add_overflow(out->last, span, &out->last))
			return -ERANGE;
		out->step = gcd(out->step, m->stride[k] < 0 ? -(uint64_t)m->stride[k]
							    : (uint64_t)m->stride[k]);
	}
	return 0;
}

/*
 * Whether every slot an affine model yields within its loops (counts,
 * innermost first) is valid: its least and greatest values are.  Explicit
 * lists are checked once their values are in place.
 */
static int slot_model_ok(const struct ioa_trace_rank *r, const struct ioa_trace_leaf *leaf,
			 const uint64_t *counts)
{
	struct ioa_trace_span sp;

	if (leaf->model[IOA_TRACE_SLOT].explicit_list)
		return 1;
	if (ioa_trace_model_span(&leaf->model[IOA_TRACE_SLOT], counts, &sp))
		return 0;
	if (sp.lo == -1 && sp.hi == -1)
		return 1;
	return sp.lo >= 0 && slot_ok(r, leaf->sig, sp.hi);
}

/* Parses nodes at depth with the enclosing loop counts (innermost first). */
static int parse_nodes(struct tr_parse *p, uint64_t n, unsigned depth, const uint64_t *counts)
{
	struct ioa_trace_rank *r = p->r;
	uint64_t i;
	int rc = 0;

	if (depth > TR_MAX_NESTING)
		return -EINVAL;
	for (i = 0; i < n && !rc; i++) {
		uint64_t tag = ioa_cursor_uvar(&p->shape);
		struct ioa_trace_tnode *node;
		uint64_t before;
		size_t self;

		if (p->shape.overrun)
			return -EINVAL;
		if (r->nnodes == p->cap) {
			size_t want = p->cap * 2 + 64;
			struct ioa_trace_tnode *nn = realloc(r->nodes, want * sizeof(*nn));

			if (!nn)
				return -ENOMEM;
			r->nodes = nn;
			p->cap = want;
		}
		self = r->nnodes++;
		node = &r->nodes[self];
		memset(node, 0, sizeof(*node));
		if (tag == 1) {
			uint64_t inner[TR_MAX_NESTING + 2];

			node->is_loop = 1;
			node->count = ioa_cursor_uvar(&p->shape);
			if (node->count < 2)
				return -EINVAL;
			inner[0] = node->count;
			if (depth)
				memcpy(inner + 1, counts, depth * sizeof(*counts));
			before = p->leaves_seen;
			rc = parse_nodes(p, ioa_cursor_uvar(&p->shape), depth + 1, inner);
			/*
			 * A loop around no call repeats nothing: the runtime never
			 * writes one, and walking its iterations would cost time
			 * the bytes do not account for.
			 */
			if (!rc && p->leaves_seen == before)
				return -EINVAL;
		} else if (tag == 0) {
			uint64_t sig = ioa_cursor_uvar(&p->shape), execs = 1;
			unsigned v, d;

			if (sig >= r->nsigs)
				return -EINVAL;
			node->leaf.sig = &r->sigs[sig];
			for (d = 0; d < depth; d++)
				if (__builtin_mul_overflow(execs, counts[d], &execs))
					return -EINVAL;
			node->execs = execs;
			if (__builtin_add_overflow(r->calls, execs, &r->calls))
				return -EINVAL;
			node->step = golden_step(execs);
			for (v = 0; v < IOA_TRACE_NVALUES && !rc; v++) {
				struct ioa_trace_model *mo = &node->leaf.model[v];
				uint64_t mode = ioa_cursor_uvar(&p->shape), k;

				if (mode == 0) {
					mo->nstrides = (unsigned)ioa_cursor_uvar(&p->shape);
					if (mo->nstrides != depth || depth > IOA_TRACE_MAX_DEPTH)
						return -EINVAL;
					rc = next_value(p, &mo->base);
					for (k = 0; k < mo->nstrides && !rc; k++)
						rc = next_value(p, &mo->stride[k]);
				} else if (mode == 1) {
					mo->explicit_list = 1;
					mo->n = ioa_cursor_uvar(&p->shape);
					if (mo->n != execs ||
					    mo->n > r->group->nvalues - p->next_val)
						return -EINVAL;
					/* Pointer fixed up once vals is complete. */
					mo->list = (const int64_t *)(uintptr_t)p->next_val;
					p->next_val += (size_t)mo->n;
				} else {
					return -EINVAL;
				}
			}
			if (!rc && !slot_model_ok(r, &node->leaf, counts))
				return -EINVAL;
			if (p->leaves_seen >= p->nleaves)
				return -EINVAL;
			p->leaf_node[p->leaves_seen++] = self;
			rc = rc ? rc : parse_hist(p, &node->leaf.dur);
			rc = rc ? rc : parse_hist(p, &node->leaf.gap);
		} else {
			return -EINVAL;
		}
		r->nodes[self].end = r->nnodes;
	}
	return rc;
}

static int parse_tables(struct tr_parse *p)
{
	struct ioa_trace_rank *r = p->r;
	struct ioa_cursor *c = &p->shape;
	unsigned per_comm = r->group->version >= 6 ? IOA_TRACE_COMM_VALUES : 2;
	uint64_t n, i;
	int rc = 0;

	n = ioa_cursor_uvar(c);
	if (n > c->left || !(r->strings = calloc(n + 1, sizeof(*r->strings))))
		return c->overrun || n > c->left ? -EINVAL : -ENOMEM;
	r->nstrings = (uint32_t)n;
	for (i = 0; i < n; i++) {
		uint64_t len = ioa_cursor_uvar(c);
		const unsigned char *s = len <= c->left ? ioa_cursor_take(c, (size_t)len) : NULL;
		char *copy;

		if (!s || memchr(s, 0, (size_t)len))
			return -EINVAL;
		if (!(copy = malloc((size_t)len + 1)))
			return -ENOMEM;
		memcpy(copy, s, (size_t)len);
		copy[len] = '\0';
		r->strings[i] = copy;
	}
	n = ioa_cursor_uvar(c);
	if (n > c->left || !(r->sigs = calloc(n + 1, sizeof(*r->sigs))))
		return c->overrun || n > c->left ? -EINVAL : -ENOMEM;
	r->nsigs = (uint32_t)n;
	for (i = 0; i < n; i++) {
		uint64_t name = ioa_cursor_uvar(c);

		if (name >= r->nstrings)
			return -EINVAL;
		r->sigs[i].name = r->strings[name];
		r->sigs[i].module = (unsigned)ioa_cursor_uvar(c);
		r->sigs[i].flags = (unsigned)ioa_cursor_uvar(c);
		r->sigs[i].err = (int)ioa_cursor_svar(c);
	}
	r->nfiles = (uint32_t)ioa_cursor_uvar(c);
	r->ncomms = (uint32_t)ioa_cursor_uvar(c);
	if (c->overrun || IOA_TRH_COUNT + (uint64_t)r->nfiles + (uint64_t)per_comm * r->ncomms >
				  r->group->nvalues)
		return -EINVAL;
	for (i = 0; i < IOA_TRH_COUNT; i++)
		rc = rc ? rc : next_value(p, &r->header[i]);
	r->files = calloc(r->nfiles + 1, sizeof(*r->files));
	r->comms = calloc(r->ncomms + 1, sizeof(*r->comms));
	if (!r->files || !r->comms)
		return -ENOMEM;
	for (i = 0; i < r->nfiles && !rc; i++) {
		int64_t id = 0;

		rc = next_value(p, &id);
		r->files[i] = (uint64_t)id;
	}
	for (i = 0; i < r->ncomms && !rc; i++) {
		r->comms[i].leader = -1;
		rc = next_value(p, &r->comms[i].size);
		rc = rc ? rc : next_value(p, &r->comms[i].rank);
		if (per_comm > 2)
			rc = rc ? rc : next_value(p, &r->comms[i].leader);
	}
	return rc;
}

static int next_count(struct tr_parse *p, uint64_t *out)
{
	int64_t v = 0;
	int rc = next_value(p, &v);

	if (!rc && v < 0)
		rc = -EINVAL;
	*out = (uint64_t)v;
	return rc;
}

/* A summary histogram of n bins, ascending and below nbins. */
static int parse_sum_hist(struct tr_parse *p, uint64_t n, uint64_t nbins,
			  struct ioa_trace_sum_bin **out)
{
	uint64_t i;
	int rc = 0;

	if (n > nbins)
		return -EINVAL;
	if (!(*out = calloc(n + 1, sizeof(**out))))
		return -ENOMEM;
	for (i = 0; i < n && !rc; i++) {
		rc = next_count(p, &(*out)[i].bin);
		rc = rc ? rc : next_count(p, &(*out)[i].count);
		if (!rc && ((*out)[i].bin >= nbins || (i && (*out)[i].bin <= (*out)[i - 1].bin)))
			rc = -EINVAL;
	}
	return rc;
}

/*
 * The shape's last part: 0, or 1 and the summary's layout, its numbers
 * after the tree's.  The summary must agree with the header: flagged, and
 * no more calls than the exact ones leave.
 */
static int parse_summary(struct tr_parse *p)
{
	struct ioa_trace_rank *r = p->r;
	struct ioa_trace_summary *s = &r->summary;
	uint64_t tag = ioa_cursor_uvar(&p->shape), n[6], i, left;
	int rc = 0;

	if (p->shape.overrun || tag > 1 ||
	    !tag != !((uint64_t)r->header[IOA_TRH_FLAGS] & IOA_TRF_SUMMARY))
		return -EINVAL;
	if (!tag)
		return 0;
	r->summarised = 1;
	for (i = 0; i < 6; i++)
		n[i] = ioa_cursor_uvar(&p->shape);
	left = r->group->nvalues - p->next_val;
	if (p->shape.overrun || n[0] > left / 2 || n[1] > left / 6)
		return -EINVAL;
	s->sigs = calloc(n[0] + 1, sizeof(*s->sigs));
	s->files = calloc(n[1] + 1, sizeof(*s->files));
	if (!s->sigs || !s->files)
		return -ENOMEM;
	s->nsigs = (uint32_t)n[0];
	s->nfiles = (uint32_t)n[1];
	for (i = 0; i < n[0] && !rc; i++) {
		struct ioa_trace_sum_sig *e = &s->sigs[i];

		rc = next_value(p, &e->sig);
		rc = rc ? rc : next_count(p, &e->calls);
		if (!rc && (e->sig < -1 || e->sig >= (int64_t)r->nsigs ||
			    __builtin_add_overflow(s->calls, e->calls, &s->calls)))
			rc = -EINVAL;
	}
	for (i = 0; i < n[1] && !rc; i++) {
		struct ioa_trace_sum_file *f = &s->files[i];

		rc = next_value(p, &f->slot);
		rc = rc ? rc : next_count(p, &f->reads);
		rc = rc ? rc : next_count(p, &f->writes);
		rc = rc ? rc : next_count(p, &f->others);
		rc = rc ? rc : next_count(p, &f->bytes_read);
		rc = rc ? rc : next_count(p, &f->bytes_written);
		if (!rc && (f->slot < -1 || f->slot >= (int64_t)r->nfiles))
			rc = -EINVAL;
	}
	rc = rc ? rc : parse_sum_hist(p, n[2], 65, &s->offsets);
	rc = rc ? rc : parse_sum_hist(p, n[3], 65, &s->sizes);
	rc = rc ? rc : parse_sum_hist(p, n[4], 65, &s->arrivals);
	rc = rc ? rc : parse_sum_hist(p, n[5], 65, &s->gaps);
	s->noffsets = (uint32_t)n[2];
	s->nsizes = (uint32_t)n[3];
	s->narrivals = (uint32_t)n[4];
	s->ngaps = (uint32_t)n[5];
	if (!rc && (r->header[IOA_TRH_EVENTS_TRACED] < 0 ||
		    s->calls > (uint64_t)r->header[IOA_TRH_EVENTS_TOTAL] -
				       (uint64_t)r->header[IOA_TRH_EVENTS_TRACED] ||
		    r->header[IOA_TRH_EVENTS_TOTAL] < r->header[IOA_TRH_EVENTS_TRACED]))
		rc = -EINVAL;
	return rc;
}

/* The ranks' own times: this rank's replace the group's for their calls. */
static int parse_overrides(struct tr_parse *p)
{
	uint32_t me = rank_index(p->r->group, p->r->rank);
	uint64_t n = ioa_cursor_uvar(&p->times), i;
	int rc = 0;

	if (n > p->times.left)
		return -EINVAL;
	for (i = 0; i < n && !rc; i++) {
		uint64_t rank = ioa_cursor_uvar(&p->times), leaf = ioa_cursor_uvar(&p->times);
		struct ioa_trace_tnode *node;
		struct ioa_trace_hist dur, gap;

		if (rank >= p->r->group->nranks || leaf >= p->nleaves)
			return -EINVAL;
		rc = parse_hist(p, &dur);
		rc = rc ? rc : parse_hist(p, &gap);
		if (rc || rank != me)
			continue;
		node = &p->r->nodes[p->leaf_node[leaf]];
		node->leaf.dur = dur;
		node->leaf.gap = gap;
		node->own_times = 1;
	}
	return rc;
}

struct tr_rank_seg {
	double mean;
	uint32_t i;
};

static int rank_seg_cmp(const void *a, const void *b)
{
	const struct tr_rank_seg *x = a, *y = b;

	if (x->mean != y->mean)
		return x->mean < y->mean ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * Where each segment of a call's order starts among its executions sorted
 * by gap: segments ranked by mean (ties in the order made), so that the
 * sorted gaps of the histogram go to the segments that took them.
 */
static int order_positions(struct ioa_trace_rank *r, size_t first, uint32_t n)
{
	struct tr_rank_seg *rs = calloc(n, sizeof(*rs));
	uint64_t pos = 0;
	uint32_t k;

	if (!rs)
		return -ENOMEM;
	for (k = 0; k < n; k++)
		rs[k] = (struct tr_rank_seg){r->ord_mean[first + k], k};
	qsort(rs, n, sizeof(*rs), rank_seg_cmp);
	for (k = 0; k < n; k++) {
		size_t at = first + rs[k].i;

		r->ord_pos[at] = pos;
		r->ord_step[at] = golden_step(r->ord_execs[at]);
		pos += r->ord_execs[at];
	}
	free(rs);
	return 0;
}

/*
 * The orders of gaps: the group's for every call it kept one for, this
 * rank's own where it keeps one.  Each covers its call's executions.
 */
static int parse_orders(struct tr_parse *p)
{
	struct ioa_trace_rank *r = p->r;
	uint32_t me = rank_index(r->group, r->rank) + 1;
	struct tr_orders o = {0};
	size_t i, k, nseg = 0;
	int rc = orders_read(&o, &p->times, r->group->nranks, p->nleaves);

	for (i = 0; !rc && i < o.nent; i++) {
		const struct tr_order_ent *e = &o.ent[i];

		if (e->execs != r->nodes[p->leaf_node[e->leaf]].execs)
			rc = -EINVAL;
		else if (e->owner == 0 || e->owner == me)
			nseg += e->n;
	}
	if (!rc && nseg) {
		r->ord_execs = calloc(nseg, sizeof(*r->ord_execs));
		r->ord_pos = calloc(nseg, sizeof(*r->ord_pos));
		r->ord_step = calloc(nseg, sizeof(*r->ord_step));
		r->ord_mean = calloc(nseg, sizeof(*r->ord_mean));
		if (!r->ord_execs || !r->ord_pos || !r->ord_step || !r->ord_mean)
			rc = -ENOMEM;
	}
	/* Sorted by owner: the rank's own order comes after the group's and replaces it. */
	for (i = 0, k = 0; !rc && nseg && i < o.nent; i++) {
		const struct tr_order_ent *e = &o.ent[i];
		struct ioa_trace_tnode *node = &r->nodes[p->leaf_node[e->leaf]];
		uint32_t j;

		if (e->owner != 0 && e->owner != me)
			continue;
		for (j = 0; j < e->n; j++) {
			r->ord_execs[k + j] = o.seg_n[e->first + j];
			r->ord_mean[k + j] = (double)o.seg_mean[e->first + j];
		}
		node->ord = k;
		node->leaf.order =
			(struct ioa_trace_order){e->n, r->ord_execs + k, r->ord_mean + k};
		rc = order_positions(r, k, e->n);
		k += e->n;
	}
	orders_free(&o);
	return rc;
}

void ioa_trace_rank_close(struct ioa_trace_rank *r)
{
	uint32_t i;

	for (i = 0; r->strings && i < r->nstrings; i++)
		free((char *)r->strings[i]);
	free(r->strings);
	free(r->sigs);
	free(r->files);
	free(r->comms);
	free(r->nodes);
	free(r->vals);
	free(r->hist_bins);
	free(r->hist_counts);
	free(r->ord_execs);
	free(r->ord_pos);
	free(r->ord_step);
	free(r->ord_mean);
	free(r->summary.sigs);
	free(r->summary.files);
	free(r->summary.offsets);
	free(r->summary.sizes);
	free(r->summary.arrivals);
	free(r->summary.gaps);
	memset(r, 0, sizeof(*r));
}

int ioa_trace_rank_open(const struct ioa_trace *t, uint32_t rank, struct ioa_trace_rank *r)
{
	struct tr_parse p = {0};
	size_t i, v;
	int rc;

	memset(r, 0, sizeof(*r));
	r->group = ioa_trace_find(t, rank);
	if (!r->group)
		return -ENOENT;
	r->rank = rank;
	p.r = r;
	p.shape = (struct ioa_cursor){r->group->shape, r->group->shape_len, 0};
	p.times = (struct ioa_cursor){r->group->times, r->group->times_len, 0};
	rc = parse_tables(&p);
	if (!rc) {
		uint64_t ntop = ioa_cursor_uvar(&p.shape);

		p.nleaves = ioa_cursor_uvar(&p.times);
		if (p.shape.overrun || p.times.overrun || p.nleaves > p.times.left)
			rc = -EINVAL;
		else if (!(p.leaf_node = calloc(p.nleaves + 1, sizeof(*p.leaf_node))))
			rc = -ENOMEM;
		rc = rc ? rc : parse_nodes(&p, ntop, 0, NULL);
		if (!rc && p.leaves_seen != p.nleaves)
			rc = -EINVAL;
		rc = rc ? rc : parse_summary(&p);
	}
	rc = rc ? rc : parse_overrides(&p);
	rc = rc ? rc : parse_orders(&p);
	free(p.leaf_node);
	r->hist_bins = p.hs.bins;
	r->hist_counts = p.hs.counts;
	p.hs.bins = NULL;
	p.hs.counts = NULL;
	hists_free(&p.hs);
	if (!rc && (p.shape.left || p.shape.overrun || p.times.left || p.times.overrun ||
		    p.next_val != r->group->nvalues))
		rc = -EINVAL;
	/* Every value, evaluated for this rank, so explicit lists can point into it. */
	if (!rc && !(r->vals = calloc(r->group->nvalues + 1, sizeof(*r->vals))))
		rc = -ENOMEM;
	for (v = 0; !rc && v < r->group->nvalues; v++)
		r->vals[v] = ioa_trace_value(r->group, rank, v);
	for (i = 0; !rc && i < r->nnodes; i++) {
		struct ioa_trace_leaf *l = &r->nodes[i].leaf;
		uint64_t j;
		unsigned k;

		if (r->nodes[i].is_loop)
			continue;
		for (k = 0; k < IOA_TRACE_NVALUES; k++)
			if (l->model[k].explicit_list)
				l->model[k].list = r->vals + (uintptr_t)l->model[k].list;
		if (l->model[IOA_TRACE_SLOT].explicit_list)
			for (j = 0; j < l->model[IOA_TRACE_SLOT].n && !rc; j++)
				if (!slot_ok(r, l->sig, l->model[IOA_TRACE_SLOT].list[j]))
					rc = -EINVAL;
		l->dur.count = r->hist_counts + (uintptr_t)l->dur.bin;
		l->dur.bin = r->hist_bins + (uintptr_t)l->dur.bin;
		l->gap.count = r->hist_counts + (uintptr_t)l->gap.bin;
		l->gap.bin = r->hist_bins + (uintptr_t)l->gap.bin;
	}
	if (rc)
		ioa_trace_rank_close(r);
	return rc;
}

/* ------------------------------------------------------------ walking */

static int walk_range(const struct ioa_trace_rank *r, size_t from, size_t to, unsigned depth,
		      const struct ioa_trace_visitor *v, void *arg)
{
	size_t i = from;
	int rc = 0;

	while (i < to && !rc) {
		const struct ioa_trace_tnode *n = &r->nodes[i];

		if (n->is_loop) {
			rc = v->loop_begin ? v->loop_begin(arg, depth, n->count) : 0;
			rc = rc ? rc : walk_range(r, i + 1, n->end, depth + 1, v, arg);
			rc = rc ? rc : (v->loop_end ? v->loop_end(arg, depth) : 0);
		} else if (v->leaf) {
			rc = v->leaf(arg, depth, &n->leaf);
		}
		i = n->end;
	}
	return rc;
}

int ioa_trace_walk(const struct ioa_trace_rank *r, const struct ioa_trace_visitor *v, void *arg)
{
	return walk_range(r, 0, r->nnodes, 0, v, arg);
}

/* Classes of time, each scaled to the rank's own total. */
enum { TR_COMPUTE, TR_SYNC, TR_IO, TR_CLASSES };

struct tr_expand {
	const struct ioa_trace_rank *r;
	int (*fn)(void *arg, const struct ioa_trace_event *e);
	void *arg;
	uint64_t *execs;		  /* per node: executions so far */
	uint32_t *seg;			  /* per node with an order: its segment now */
	uint64_t *seg_start;		  /* and that segment's first execution */
	uint64_t idx[TR_MAX_NESTING + 1]; /* loop indices, innermost at [depth-1] */
	uint64_t seq, limit;
	double now, sec_per_tick;
	double top;		   /* end of the last call that is not a sub-call */
	double sub_first;	   /* start of the first sub-call since then */
	int64_t sub_parent;	   /* and the id of the MPI-IO call it was made in */
	int subs;		   /* whether a sub-call came since then */
	uint32_t index;		   /* the rank's index in its group */
	double picked[TR_CLASSES]; /* first pass: the distributions' times, summed */
	double scale[TR_CLASSES];  /* second pass: the rank's totals over those */
};

static int duration_class(const struct ioa_trace_sig *sig)
{
	if (sig->module == IOA_TRACE_MPI)
		return TR_SYNC;
	return sig->flags & IOA_TR_SUB || ioa_trace_layer_call(sig) ? -1 : TR_IO;
}

/*
 * The time at position pos (< execs) of a call's times sorted: exactly the
 * histogram when it holds this rank's times alone; when the group's ranks
 * share it, rank `index` takes every group_size-th position of it.
 */
static double hist_at(const struct ioa_trace_hist *h, uint64_t pos, uint64_t execs,
		      uint32_t group_size, uint32_t index)
{
	uint64_t total = 0, target, seen = 0;
	uint32_t i;

	for (i = 0; i < h->n; i++)
		total += h->count[i];
	if (!total || !execs)
		return 0;
	target = (uint64_t)((((tr_u128)pos * group_size + index) * total + total / 2) /
			    ((tr_u128)execs * group_size));
	if (target >= total)
		target = total - 1;
	for (i = 0; i < h->n; i++) {
		seen += h->count[i];
		if (target < seen)
			return ioa_trace_bin_ticks(h->bin[i]);
	}
	return ioa_trace_bin_ticks(h->bin[h->n - 1]);
}

/* k x step mod n: with step from golden_step(n), every position once, spread out. */
static uint64_t golden_pos(uint64_t k, uint64_t n, uint64_t step)
{
	return n ? (uint64_t)(((tr_u128)(k % n) * step) % n) : 0;
}

/*
 * The position among a call's gaps sorted that execution exec takes:
 * without an order, spread out over the run (golden_pos); with one, the
 * block of sorted gaps of its segment, spread out within it.  seg and
 * seg_start walk the segments as the executions come (the call's first
 * segment and execution to begin with).
 */
static uint64_t gap_pos(const struct ioa_trace_rank *r, const struct ioa_trace_tnode *n,
			uint64_t exec, uint32_t *seg, uint64_t *seg_start)
{
	size_t at;

	if (!n->leaf.order.n)
		return golden_pos(exec, n->execs, n->step);
	while (*seg + 1 < n->leaf.order.n && exec - *seg_start >= n->leaf.order.execs[*seg])
		*seg_start += n->leaf.order.execs[(*seg)++];
	at = n->ord + *seg;
	return r->ord_pos[at] + golden_pos(exec - *seg_start, r->ord_execs[at], r->ord_step[at]);
}

static int64_t model_value(const struct ioa_trace_model *m, const uint64_t *idx, unsigned depth,
			   uint64_t exec)
{
	uint64_t v;
	unsigned k;

	if (m->explicit_list)
		return m->list[exec];
	v = (uint64_t)m->base;
	/* stride[0] belongs to the innermost enclosing loop (index depth-1). */
	for (k = 0; k < m->nstrides; k++)
		v += (uint64_t)m->stride[k] * idx[depth - 1 - k];
	return (int64_t)v;
}

static int expand_range(struct tr_expand *x, size_t from, size_t to, unsigned depth)
{
	size_t i = from;
	int rc = 0;

	while (i < to && !rc) {
		const struct ioa_trace_tnode *n = &x->r->nodes[i];

		if (n->is_loop) {
			uint64_t it;

			for (it = 0; it < n->count && !rc; it++) {
				x->idx[depth] = it;
				rc = expand_range(x, i + 1, n->end, depth + 1);
			}
		} else {
			struct ioa_trace_event e = {0};
			uint64_t exec = x->execs[i]++;

			if (x->seq >= x->limit)
				return -EINVAL;
			e.seq = x->seq++;
			e.sig = n->leaf.sig;
			e.offset = model_value(&n->leaf.model[0], x->idx, depth, exec);
			e.length = model_value(&n->leaf.model[1], x->idx, depth, exec);
			e.aux = model_value(&n->leaf.model[2], x->idx, depth, exec);
			e.slot = model_value(&n->leaf.model[IOA_TRACE_SLOT], x->idx, depth, exec);
			int cls = duration_class(n->leaf.sig);

			uint32_t size = n->own_times ? 1 : x->r->group->nranks;
			uint32_t index = n->own_times ? 0 : x->index;

			e.gap = e.seq ? hist_at(&n->leaf.gap,
						gap_pos(x->r, n, exec, &x->seg[i],
							&x->seg_start[i]),
						n->execs, size, index)
				      : 0;
			e.duration = hist_at(&n->leaf.dur, golden_pos(exec, n->execs, n->step),
					     n->execs, size, index);
			if (x->fn && ioa_trace_layer_call(n->leaf.sig)) {
				/* It ended with the last of its calls underneath. */
				e.gap *= x->sec_per_tick;
				e.duration *= x->sec_per_tick;
				e.start = x->now > e.duration ? x->now - e.duration : 0;
				rc = x->fn(x->arg, &e);
			} else if (x->fn && cls < 0) {
				/* A sub-call: its gap is from its MPI-IO call's last step. */
				e.gap *= x->sec_per_tick;
				e.duration *= x->sec_per_tick;
				e.start = x->now + e.gap;
				x->now = e.start + e.duration;
				if (!x->subs || e.aux != x->sub_parent) {
					x->sub_first = e.start;
					x->sub_parent = e.aux;
					x->subs = 1;
				}
				rc = x->fn(x->arg, &e);
			} else if (x->fn) {
				/* Gaps of the program's own calls run from the last of them. */
				e.gap *= x->scale[TR_COMPUTE] * x->sec_per_tick;
				e.duration *= x->scale[cls] * x->sec_per_tick;
				e.start = x->top + e.gap;
				/*
				 * An MPI-IO call spans the calls it made underneath, whose
				 * times its own do not order (each is spread apart).
				 */
				if (x->subs && e.sig->flags & IOA_TR_ID && e.aux == x->sub_parent) {
					double end = e.start + e.duration;

					end = end > x->now ? end : x->now;
					e.start = e.start < x->sub_first ? e.start : x->sub_first;
					e.duration = end - e.start;
				}
				x->subs = 0;
				x->top = e.start + e.duration;
				x->now = x->top > x->now ? x->top : x->now;
				rc = x->fn(x->arg, &e);
			} else if (cls >= 0) {
				x->picked[TR_COMPUTE] += e.gap;
				x->picked[cls] += e.duration;
			}
		}
		i = n->end;
	}
	return rc;
}

double ioa_trace_hist_mean(const struct ioa_trace_hist *h)
{
	double sum = 0, n = 0;
	uint32_t i;

	for (i = 0; i < h->n; i++) {
		sum += ioa_trace_bin_ticks(h->bin[i]) * (double)h->count[i];
		n += (double)h->count[i];
	}
	return n > 0 ? sum / n : 0;
}

/*
 * The first pass summarized, for trees too large to walk twice: each
 * call's times add up to its executions times its distributions' means
 * (what the exact pass gives, within rounding), and the first call has no
 * gap.  Costs the nodes, not the calls.
 */
static void expand_summary(struct tr_expand *x)
{
	const struct ioa_trace_rank *r = x->r;
	int first = 1;
	size_t i;

	for (i = 0; i < r->nnodes; i++) {
		const struct ioa_trace_tnode *n = &r->nodes[i];
		int cls;

		if (n->is_loop)
			continue;
		cls = duration_class(n->leaf.sig);
		if (cls >= 0) {
			uint32_t size = n->own_times ? 1 : r->group->nranks;
			uint32_t index = n->own_times ? 0 : x->index;

			x->picked[TR_COMPUTE] +=
				(double)n->execs * ioa_trace_hist_mean(&n->leaf.gap);
			x->picked[cls] += (double)n->execs * ioa_trace_hist_mean(&n->leaf.dur);
			if (first) {
				uint32_t seg = 0;
				uint64_t seg_start = 0;

				x->picked[TR_COMPUTE] -=
					hist_at(&n->leaf.gap, gap_pos(r, n, 0, &seg, &seg_start),
						n->execs, size, index);
			}
		}
		first = 0;
	}
}

int ioa_trace_expand(const struct ioa_trace_rank *r, uint64_t max_calls,
		     int (*fn)(void *arg, const struct ioa_trace_event *e), void *arg)
{
	struct tr_expand x = {0};
	int rc = 0, k;

	if (r->header[IOA_TRH_EVENTS_TRACED] < 0 ||
	    r->calls > (uint64_t)r->header[IOA_TRH_EVENTS_TRACED])
		return -EINVAL;
	if (r->calls > max_calls)
		return -E2BIG;
	x.r = r;
	x.index = rank_index(r->group, r->rank);
	x.arg = arg;
	x.limit = r->calls;
	x.sec_per_tick = r->group->ns_per_tick * 1e-9;
	x.now = (double)r->header[IOA_TRH_START_TICKS] * x.sec_per_tick;
	x.top = x.now;
	x.execs = calloc(r->nnodes + 1, sizeof(*x.execs));
	x.seg = calloc(r->nnodes + 1, sizeof(*x.seg));
	x.seg_start = calloc(r->nnodes + 1, sizeof(*x.seg_start));
	if (!x.execs || !x.seg || !x.seg_start) {
		free(x.execs);
		free(x.seg);
		free(x.seg_start);
		return -ENOMEM;
	}
	/* First pass: what the distributions add up to, to scale to the rank's totals. */
	if (r->calls > IOA_TRACE_EXACT_SCALING)
		expand_summary(&x);
	else
		rc = expand_range(&x, 0, r->nnodes, 0);
	for (k = 0; k < TR_CLASSES; k++) {
		double total = (double)r->header[IOA_TRH_COMPUTE_TICKS + k];

		x.scale[k] = x.picked[k] > 0 && total > 0 ? total / x.picked[k] : 1;
	}
	memset(x.execs, 0, (r->nnodes + 1) * sizeof(*x.execs));
	memset(x.seg, 0, (r->nnodes + 1) * sizeof(*x.seg));
	memset(x.seg_start, 0, (r->nnodes + 1) * sizeof(*x.seg_start));
	x.seq = 0;
	x.fn = fn;
	rc = rc ? rc : expand_range(&x, 0, r->nnodes, 0);
	free(x.execs);
	free(x.seg);
	free(x.seg_start);
	return rc;
}
