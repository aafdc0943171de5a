/*
 * hist_detect — changes in a series of runs (hist_detect.h).
 */
#include "hist_detect.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int hist_settings_check(const struct hist_settings *s)
{
	if (s->after < 1 || s->after > HIST_AFTER_MAX || s->min_before < 1 ||
	    s->max_before > HIST_BEFORE_MAX || s->min_before > s->max_before || !(s->alpha > 0) ||
	    s->alpha >= 1 || !(s->min_change >= 0) || !(s->min_z >= 0))
		return -EINVAL;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n) (n <= HIST_BEFORE_MAX), v untouched. */
static double median(const double *v, size_t n)
{
	double s[HIST_BEFORE_MAX];

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static double mad(const double *v, size_t n, double med)
{
	double d[HIST_BEFORE_MAX];
	size_t i;

	for (i = 0; i < n; i++)
		d[i] = fabs(v[i] - med);
	return median(d, n);
}

double hist_rank_p(const double *before, size_t nb, const double *after, size_t na, int up)
{
	enum { N = HIST_AFTER_MAX + HIST_BEFORE_MAX, SUM = 2 * N * HIST_AFTER_MAX + 1 };
	struct item {
		double v;
		int after;
	} all[N];
	unsigned rank2[N]; /* twice the mid-rank: an integer */
	double ways[HIST_AFTER_MAX + 1][SUM];
	double hits = 0, total = 0;
	size_t n = na + nb, i, j, k;
	unsigned observed = 0;

	for (i = 0; i < n; i++) {
		all[i].v = i < nb ? before[i] : after[i - nb];
		all[i].v = up ? all[i].v : -all[i].v;
		all[i].after = i >= nb;
	}
	/* Insertion sort: n is small, and it keeps ties together. */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && all[j - 1].v > all[j].v; j--) {
			struct item t = all[j];

			all[j] = all[j - 1];
			all[j - 1] = t;
		}
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && all[j].v == all[i].v; j++)
			;
		for (k = i; k < j; k++) {
			rank2[k] = (unsigned)(i + j + 1); /* 2 * ((i + 1) + j) / 2 */
			if (all[k].after)
				observed += rank2[k];
		}
	}
	/* ways[c][s]: the ways of choosing c of the items seen so far with twice-rank sum s. */
	memset(ways, 0, sizeof(ways));
	ways[0][0] = 1;
	for (i = 0; i < n; i++)
		for (k = na; k > 0; k--)
			for (j = SUM - 1; j >= rank2[i]; j--)
				ways[k][j] += ways[k - 1][j - rank2[i]];
	for (j = 0; j < SUM; j++) {
		total += ways[na][j];
		if (j >= observed)
			hits += ways[na][j];
	}
	return total > 0 ? hits / total : 1;
}

/*
 * How far the after run nearest to the runs before is from their median,
 * in their robust standard deviations (up: the lowest after run): of the
 * logarithms when every value is positive (times and rates vary by
 * factors), else of the values.  Every run after a change stands out of
 * the noise, not only their median.
 */
static double robust_z(const double *y, size_t b0, size_t a0, size_t a1, int up)
{
	double b[HIST_BEFORE_MAX] = {0}, a[HIST_AFTER_MAX] = {0}, mb, spread, near = INFINITY;
	size_t i, nb = a0 - b0, na = a1 - a0;
	int logs = 1;

	for (i = b0; i < a1; i++)
		logs &= y[i] > 0;
	for (i = 0; i < nb; i++)
		b[i] = logs ? log(y[b0 + i]) : y[b0 + i];
	for (i = 0; i < na; i++)
		a[i] = logs ? log(y[a0 + i]) : y[a0 + i];
	mb = median(b, nb);
	spread = 1.4826 * mad(b, nb, mb);
	for (i = 0; i < na; i++)
		near = fmin(near, up ? a[i] - mb : mb - a[i]);
	if (near <= 0)
		return 0;
	return spread > 0 ? near / spread : INFINITY;
}

/*
 * Whether the runs y[a0..a1) moved from the runs y[b0..a0) as s asks, in
 * direction up; fills c (but at, prev).
 */
static int moved(const double *y, size_t b0, size_t a0, size_t a1, const struct hist_settings *s,
		 int up, struct hist_change *c)
{
	size_t nb = a0 - b0, na = a1 - a0;
	double mb = median(y + b0, nb), ma = median(y + a0, na), diff = ma - mb;
	double rel = mb != 0 ? fabs(diff / mb) : (diff != 0 ? INFINITY : 0);

	if ((up ? diff <= 0 : diff >= 0) || rel < s->min_change ||
	    robust_z(y, b0, a0, a1, up) < s->min_z)
		return 0;
	c->p = hist_rank_p(y + b0, nb, y + a0, na, up);
	if (c->p > s->alpha)
		return 0;
	c->up = up;
	c->before = mb;
	c->after = ma;
	c->nbefore = nb;
	c->nafter = na;
	return 1;
}

/* The sum of |v - median| over v[0..n), v reordered. */
static double deviation(double *v, size_t n)
{
	double med, sum = 0;
	size_t i;

	qsort(v, n, sizeof(*v), cmp_double);
	med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	for (i = 0; i < n; i++)
		sum += fabs(v[i] - med);
	return sum;
}

/*
 * The split of y[seg..end) that leaves the two parts most level: the least
 * sum of absolute deviations from each part's median (of the logarithms
 * when every value is positive).  A median, not a rank statistic: rank
 * statistics favour balanced splits and place a change near the latest
 * runs too early.  -1 when out of memory.
 */
static long best_split(const double *y, size_t seg, size_t end)
{
	size_t n = end - seg, t, i;
	double *v = malloc(2 * n * sizeof(*v)), *w, best_cost = INFINITY;
	long best = (long)seg + 1;
	int logs = 1;

	if (!v)
		return -1;
	w = v + n;
	for (i = seg; i < end; i++)
		logs &= y[i] > 0;
	for (i = seg; i < end; i++)
		w[i - seg] = logs ? log(y[i]) : y[i];
	for (t = seg + 1; t < end; t++) {
		double cost;

		memcpy(v, w, n * sizeof(*v));
		cost = deviation(v, t - seg) + deviation(v + (t - seg), end - t);
		if (cost < best_cost) {
			best_cost = cost;
			best = (long)t;
		}
	}
	free(v);
	return best;
}

int hist_detect(const double *x, size_t n, const struct hist_settings *s, struct hist_change **out,
		size_t *nout)
{
	double *y = malloc((n ? n : 1) * sizeof(*y));
	size_t *at = malloc((n ? n : 1) * sizeof(*at));
	struct hist_change *list = NULL, c;
	size_t m = 0, i, seg = 0, count = 0, cap = 0;
	int rc = hist_settings_check(s);

	*out = NULL;
	*nout = 0;
	if (!y || !at)
		rc = -ENOMEM;
	for (i = 0; i < n && !rc; i++)
		if (isfinite(x[i])) {
			y[m] = x[i];
			at[m++] = i;
		}
	for (i = s->after - 1; i < m && !rc; i++) {
		size_t a0 = i + 1 - s->after, b0, t;
		long split;
		int up;

		if (a0 < seg + s->min_before)
			continue;
		b0 = a0 - seg > s->max_before ? a0 - s->max_before : seg;
		for (up = 1; up >= 0; up--)
			if (moved(y, b0, a0, i + 1, s, up, &c))
				break;
		if (up < 0)
			continue;
		/*
		 * The latest runs moved.  Where the change began: the best split
		 * since the last change.  A level that held for fewer than
		 * min_before runs was never known: it is the new start, no change.
		 */
		split = best_split(y, seg, i + 1);
		if (split < 0) {
			rc = -ENOMEM;
			break;
		}
		t = (size_t)split;
		if (t > a0 || t < seg + s->min_before) {
			if (t < seg + s->min_before)
				seg = t;
			continue;
		}
		b0 = t - seg > s->max_before ? t - s->max_before : seg;
		if (!moved(y, b0, t, t + s->after, s, up, &c))
			continue;
		c.at = at[t];
		c.prev = at[t - 1];
		if (count == cap) {
			struct hist_change *grown;

			cap = cap ? 2 * cap : 4;
			grown = realloc(list, cap * sizeof(*list));
			if (!grown) {
				rc = -ENOMEM;
				break;
			}
			list = grown;
		}
		list[count++] = c;
		seg = t;
	}
	free(y);
	free(at);
	if (rc) {
		free(list);
		return rc;
	}
	*out = list;
	*nout = count;
	return 0;
}
