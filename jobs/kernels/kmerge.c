/*
 * kmerge — the per-rank call sequences merged into one (see kmerge.h).
 */
#include "kmerge.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT64_MAX
#define FAR  UINT64_MAX /* no match in the window */

/* A signature's calls inside a rank's window: the first and last, chained by next[]. */
struct slot {
	uint64_t sig;
	uint64_t first, last;
	int used;
};

struct rank {
	const uint64_t *sig;
	uint64_t n, p, end; /* calls [p, end) are in the window */
	uint64_t *next;	    /* per window position: the next call with its signature */
	struct slot *table; /* open addressing, linear probing */
	uint32_t mask;
};

static uint32_t slot_of(const struct rank *r, uint64_t sig)
{
	uint32_t i = (uint32_t)((sig * 0x9e3779b97f4a7c15ull) >> 40) & r->mask;

	while (r->table[i].used && r->table[i].sig != sig)
		i = (i + 1) & r->mask;
	return i;
}

static void window_add(struct rank *r, uint32_t window)
{
	uint64_t pos = r->end++, sig = r->sig[pos];
	struct slot *s = &r->table[slot_of(r, sig)];

	r->next[pos % window] = NONE;
	if (s->used) {
		r->next[s->last % window] = pos;
		s->last = pos;
	} else {
		*s = (struct slot){sig, pos, pos, 1};
	}
}

/* Takes the rank's next call out of its window (backward-shift deletion when it was the last). */
static void window_drop(struct rank *r, uint32_t window)
{
	uint64_t pos = r->p++;
	uint32_t i = slot_of(r, r->sig[pos]), j, home;

	if (r->table[i].last != pos) {
		r->table[i].first = r->next[pos % window];
		return;
	}
	r->table[i].used = 0;
	for (j = (i + 1) & r->mask; r->table[j].used; j = (j + 1) & r->mask) {
		home = (uint32_t)((r->table[j].sig * 0x9e3779b97f4a7c15ull) >> 40) & r->mask;
		/* Move j back to i unless its home lies cyclically in (i, j]. */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			r->table[i] = r->table[j];
			r->table[j].used = 0;
			i = j;
		}
	}
}

/* How far ahead in the rank's window the signature comes next. */
static uint64_t distance(const struct rank *r, uint64_t sig)
{
	const struct slot *s = &r->table[slot_of(r, sig)];

	return s->used ? s->first - r->p : FAR;
}

static int emit(struct kmerge *out, size_t *cap_rec, size_t *cap_mem, uint64_t sig,
		const uint32_t *ranks, uint32_t n, uint32_t nranks, uint64_t position)
{
	struct kmerge_record *rec;

	if (out->nrec == *cap_rec) {
		size_t cap = *cap_rec ? *cap_rec * 2 : 1024;

		if (!(rec = realloc(out->rec, cap * sizeof(*rec))))
			return -ENOMEM;
		out->rec = rec;
		*cap_rec = cap;
	}
	rec = &out->rec[out->nrec++];
	rec->sig = sig;
	rec->nranks = n;
	rec->position = position;
	/* A call of every rank keeps no list: the common case costs no memory per rank. */
	if (n == nranks) {
		rec->first = UINT32_MAX;
		return 0;
	}
	if (out->nmembers + n > *cap_mem) {
		size_t cap = *cap_mem ? *cap_mem * 2 : 4096;
		uint32_t *m;

		while (cap < out->nmembers + n)
			cap *= 2;
		if (!(m = realloc(out->members, cap * sizeof(*m))))
			return -ENOMEM;
		out->members = m;
		*cap_mem = cap;
	}
	rec->first = (uint32_t)out->nmembers;
	memcpy(out->members + out->nmembers, ranks, n * sizeof(*ranks));
	out->nmembers += n;
	return 0;
}

/*
 * A map from signature to a number, growing: the ranks whose window holds
 * a signature (counts), and the bucket of ranks whose next call has it.
 */
struct map {
	uint64_t *key;
	uint32_t *val;
	unsigned char *used;
	uint32_t mask, n;
};

static int map_init(struct map *m, uint32_t size)
{
	m->mask = size - 1;
	m->n = 0;
	m->key = calloc(size, sizeof(*m->key));
	m->val = calloc(size, sizeof(*m->val));
	m->used = calloc(size, 1);
	return m->key && m->val && m->used ? 0 : -ENOMEM;
}

static void map_free(struct map *m)
{
	free(m->key);
	free(m->val);
	free(m->used);
}

/* The value of key, created as 0 when missing (NULL: out of memory). */
static uint32_t *map_at(struct map *m, uint64_t key)
{
	uint32_t i;

	if (2 * (m->n + 1) > m->mask + 1) {
		struct map bigger;
		uint32_t j;

		if (map_init(&bigger, 2 * (m->mask + 1))) {
			map_free(&bigger);
			return NULL;
		}
		for (j = 0; j <= m->mask; j++)
			if (m->used[j])
				*map_at(&bigger, m->key[j]) = m->val[j];
		map_free(m);
		*m = bigger;
	}
	for (i = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 40) & m->mask;
	     m->used[i] && m->key[i] != key; i = (i + 1) & m->mask)
		;
	if (!m->used[i]) {
		m->used[i] = 1;
		m->key[i] = key;
		m->val[i] = 0;
		m->n++;
	}
	return &m->val[i];
}

/* Ranks whose next call has one signature. */
struct bucket {
	uint64_t sig;
	uint32_t *ranks, n, cap;
};

struct state {
	struct rank *r;
	uint32_t nranks, window;
	struct map counts; /* signature -> ranks whose window holds it */
	struct map index;  /* signature -> 1 + its bucket */
	struct bucket *b;  /* every bucket ever made (reused when empty) */
	uint32_t nb, cap_b;
	uint32_t *live; /* the non-empty buckets */
	uint32_t nlive;
};

/* Puts rank i into the bucket of its next call's signature. */
static int to_bucket(struct state *st, uint32_t i)
{
	uint64_t sig = st->r[i].sig[st->r[i].p];
	uint32_t *at = map_at(&st->index, sig);
	struct bucket *b;

	if (!at)
		return -ENOMEM;
	if (!*at) {
		if (st->nb == st->cap_b) {
			uint32_t cap = st->cap_b ? st->cap_b * 2 : 64;
			struct bucket *more = realloc(st->b, cap * sizeof(*more));

			if (!more)
				return -ENOMEM;
			st->b = more;
			st->cap_b = cap;
		}
		st->b[st->nb] = (struct bucket){sig, NULL, 0, 0};
		*at = ++st->nb;
	}
	b = &st->b[*at - 1];
	if (b->n == b->cap) {
		uint32_t cap = b->cap ? b->cap * 2 : 4,
			 *more = realloc(b->ranks, cap * sizeof(*more));

		if (!more)
			return -ENOMEM;
		b->ranks = more;
		b->cap = cap;
	}
	if (!b->n)
		st->live[st->nlive++] = *at - 1;
	b->ranks[b->n++] = i;
	return 0;
}

/* Window changes, kept in the counts of ranks holding each signature. */
static int slide(struct state *st, uint32_t i, int fill)
{
	struct rank *x = &st->r[i];
	uint32_t *c;

	if (!fill) {
		uint64_t sig = x->sig[x->p];
		int last = x->table[slot_of(x, sig)].last == x->p;

		window_drop(x, st->window);
		if (last && (c = map_at(&st->counts, sig)))
			--*c;
	}
	while (x->end < x->n && x->end - x->p < st->window) {
		uint64_t sig = x->sig[x->end];
		int fresh = !x->table[slot_of(x, sig)].used;

		window_add(x, st->window);
		if (fresh) {
			if (!(c = map_at(&st->counts, sig)))
				return -ENOMEM;
			++*c;
		}
	}
	return 0;
}

static int by_rank(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * The bucket to emit: the one whose signature no other rank holds in its
 * window (it cannot merge further), else the one whose nearest match in
 * another rank is farthest.
 */
static uint32_t choose(struct state *st)
{
	uint32_t k, j, best = 0;
	uint64_t best_d = 0;

	for (k = 0; k < st->nlive; k++) {
		struct bucket *b = &st->b[st->live[k]];
		uint32_t *held = map_at(&st->counts, b->sig);
		uint64_t d = FAR;

		if (held && *held <= b->n)
			return k;
		/* Ranks holding it elsewhere: the nearest, unless it cannot beat the best. */
		for (j = 0; j < st->nlive && d > best_d; j++) {
			struct bucket *o = &st->b[st->live[j]];
			uint32_t i;

			for (i = 0; j != k && i < o->n && d > best_d; i++) {
				uint64_t di = distance(&st->r[o->ranks[i]], b->sig);

				d = di < d ? di : d;
			}
		}
		if (k == 0 || d > best_d) {
			best = k;
			best_d = d;
		}
	}
	return best;
}

int kmerge_run(const struct kmerge_rank *in, uint32_t nranks, uint32_t window, struct kmerge *out)
{
	struct state st = {.nranks = nranks, .window = window ? window : 1};
	size_t cap_rec = 0, cap_mem = 0;
	uint32_t i, size = 1;
	int rc;

	memset(out, 0, sizeof(*out));
	while (size < 2 * st.window)
		size *= 2;
	st.r = calloc(nranks + 1, sizeof(*st.r));
	st.live = calloc(nranks + 1, sizeof(*st.live));
	rc = st.r && st.live ? 0 : -ENOMEM;
	rc = rc ? rc : map_init(&st.counts, 1024);
	rc = rc ? rc : map_init(&st.index, 1024);
	for (i = 0; i < nranks && !rc; i++) {
		st.r[i].sig = in[i].sig;
		st.r[i].n = in[i].n;
		st.r[i].mask = size - 1;
		st.r[i].next = malloc(st.window * sizeof(*st.r[i].next));
		st.r[i].table = calloc(size, sizeof(*st.r[i].table));
		if (!st.r[i].next || !st.r[i].table)
			rc = -ENOMEM;
		rc = rc ? rc : slide(&st, i, 1);
		if (!rc && st.r[i].n)
			rc = to_bucket(&st, i);
	}
	while (st.nlive && !rc) {
		uint32_t k = st.nlive == 1 ? 0 : choose(&st);
		struct bucket *b = &st.b[st.live[k]];
		uint32_t n = b->n, *ranks = b->ranks;

		/* The bucket leaves the live list; its ranks move on to their next calls. */
		st.live[k] = st.live[--st.nlive];
		b->ranks = NULL;
		b->n = b->cap = 0;
		if (n < nranks)
			qsort(ranks, n, sizeof(*ranks), by_rank);
		rc = emit(out, &cap_rec, &cap_mem, b->sig, ranks, n, nranks, st.r[ranks[0]].p);
		for (i = 0; i < n && !rc; i++) {
			rc = slide(&st, ranks[i], 0);
			if (!rc && st.r[ranks[i]].p < st.r[ranks[i]].n)
				rc = to_bucket(&st, ranks[i]);
		}
		free(ranks);
	}
	for (i = 0; st.r && i < nranks; i++) {
		free(st.r[i].next);
		free(st.r[i].table);
	}
	for (i = 0; i < st.nb; i++)
		free(st.b[i].ranks);
	free(st.b);
	free(st.r);
	free(st.live);
	map_free(&st.counts);
	map_free(&st.index);
	if (rc)
		kmerge_free(out);
	return rc;
}

void kmerge_free(struct kmerge *m)
{
	free(m->rec);
	free(m->members);
	memset(m, 0, sizeof(*m));
}
