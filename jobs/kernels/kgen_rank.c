/*
 * kgen_rank — one number of a call over a part's ranks, as an
 * expression of the rank: affine, affine in the rank's block of a 2-D or
 * 3-D decomposition, or a table per rank.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_counters.h"
#include "ioa_logfmt.h"
#include "ioa_logr.h"
#include "kgen_int.h"

/* A rank's row (1, x, y, z) in a px x py x pz decomposition. */
static void block_row(uint32_t r, uint32_t px, uint32_t py, long double row[4])
{
	row[0] = 1;
	row[1] = r % px;
	row[2] = r / px % py;
	row[3] = r / (px * py);
}

/*
 * Solves v = c0 + cx x + cy y + cz z over the group's ranks: Gaussian
 * elimination on the first ranks whose rows are independent, coefficients
 * of coordinates that never change left 0; then every rank checked.
 */
static int solve_blocks(const int64_t *v, const uint32_t *ranks, uint32_t m, uint32_t px,
			uint32_t py, int64_t coef[4])
{
	long double a[4][5], row[4], sol[4] = {0, 0, 0, 0};
	int used[4] = {0, 0, 0, 0}, n = 0, piv[4];
	uint32_t i;
	int k, j, c;

	for (i = 0; i < m && n < 4; i++) {
		long double r[5];

		block_row(ranks[i], px, py, row);
		for (j = 0; j < 4; j++)
			r[j] = row[j];
		r[4] = (long double)v[i];
		/* Reduce against the rows kept; keep it if something is left. */
		for (k = 0; k < n; k++) {
			long double f = r[piv[k]] / a[k][piv[k]];

			for (j = 0; j < 5; j++)
				r[j] -= f * a[k][j];
		}
		for (c = 0; c < 4 && (used[c] || (r[c] > -1e-9L && r[c] < 1e-9L)); c++)
			;
		if (c == 4)
			continue;
		memcpy(a[n], r, sizeof(r));
		piv[n] = c;
		used[c] = 1;
		n++;
	}
	for (k = n - 1; k >= 0; k--) {
		long double s = a[k][4];

		for (j = 0; j < 4; j++)
			if (j != piv[k])
				s -= a[k][j] * sol[j];
		sol[piv[k]] = s / a[k][piv[k]];
	}
	for (j = 0; j < 4; j++)
		coef[j] = (int64_t)(sol[j] < 0 ? sol[j] - 0.5L : sol[j] + 0.5L);
	for (i = 0; i < m; i++) {
		block_row(ranks[i], px, py, row);
		if (v[i] != coef[0] + coef[1] * (int64_t)row[1] + coef[2] * (int64_t)row[2] +
				    coef[3] * (int64_t)row[3])
			return 0;
	}
	return 1;
}

/* c0 + cx x + cy y + cz z for R's block (x, y, z), terms with a zero coefficient left out. */
static const char *block_text(const int64_t coef[4], uint32_t px, uint32_t py, char *buf,
			      size_t len)
{
	char term[3][64];
	size_t used;

	snprintf(term[0], sizeof(term[0]), " + %" PRId64 " * (R %% %u)", coef[1], px);
	snprintf(term[1], sizeof(term[1]), " + %" PRId64 " * (R / %u %% %u)", coef[2], px, py);
	snprintf(term[2], sizeof(term[2]), " + %" PRId64 " * (R / %u)", coef[3], px * py);
	used = (size_t)snprintf(buf, len, "(%" PRId64 "%s%s%s)", coef[0], coef[1] ? term[0] : "",
				coef[2] ? term[1] : "", coef[3] ? term[2] : "");
	return used < len ? buf : NULL;
}

/*
 * A number's value at each of the group's ranks, as an expression of the
 * rank R: a constant, a*R + b, or linear in R's block (x, y, z) of a 2-D
 * or 3-D decomposition of the ranks; else NULL (a table is needed).
 */
static const char *fit(const int64_t *v, const uint32_t *ranks, uint32_t m, uint32_t nprocs,
		       char *buf, size_t len)
{
	uint32_t i, px, py;
	int64_t a, b;

	for (i = 1; i < m && v[i] == v[0]; i++)
		;
	if (i == m) {
		snprintf(buf, len, "%" PRId64, v[0]);
		return buf;
	}
	if (m >= 2 && ranks[1] != ranks[0] && (v[1] - v[0]) % (int64_t)(ranks[1] - ranks[0]) == 0) {
		a = (v[1] - v[0]) / (int64_t)(ranks[1] - ranks[0]);
		b = v[0] - a * (int64_t)ranks[0];
		for (i = 0; i < m && v[i] == a * (int64_t)ranks[i] + b; i++)
			;
		if (i == m) {
			snprintf(buf, len, "(%" PRId64 " * R + %" PRId64 ")", a, b);
			return buf;
		}
	}
	/*
	 * Blocks of a 2-D or 3-D decomposition, px * py * pz = nprocs, rank R at
	 * (R % px, R / px % py, R / (px * py)): v = c0 + cx x + cy y + cz z solved
	 * from ranks of the group with independent coordinates, rounded, and
	 * checked at every rank.
	 */
	for (px = 2; px < nprocs; px++) {
		if (nprocs % px)
			continue;
		for (py = 1; py <= nprocs / px; py++) {
			uint32_t pz = nprocs / px / py;
			int64_t coef[4];

			if (nprocs % (px * py) || (py == 1 && pz == 1) ||
			    !solve_blocks(v, ranks, m, px, py, coef))
				continue;
			return block_text(coef, px, py, buf, len);
		}
	}
	return NULL;
}

static int table(struct gfun *f, const int64_t *v, char *name, size_t len)
{
	uint32_t i;
	int rc;

	f->g->tied = "a number is a table per rank";
	snprintf(name, len, "t%u_%u[G]", f->id, f->ntables);
	rc = ioa_buf_addf(&f->pre, "static const int64_t t%u_%u[%u] = {", f->id, f->ntables, f->m);
	for (i = 0; i < f->m && !rc; i++)
		rc = ioa_buf_addf(&f->pre, "%s%" PRId64, i ? ", " : "", v[i]);
	rc = rc ? rc : ioa_buf_addstr(&f->pre, "};\n");
	f->ntables++;
	f->g->sum->tables++;
	return rc;
}

/* a when v is a * R + b at every rank with a != 0, else 0. */
static int64_t rank_coef(const int64_t *v, const uint32_t *ranks, uint32_t m)
{
	int64_t a, b;
	uint32_t i;

	if (m < 2 || ranks[1] == ranks[0] || (v[1] - v[0]) % (int64_t)(ranks[1] - ranks[0]))
		return 0;
	a = (v[1] - v[0]) / (int64_t)(ranks[1] - ranks[0]);
	b = v[0] - a * (int64_t)ranks[0];
	for (i = 0; i < m; i++)
		if (v[i] != a * (int64_t)ranks[i] + b)
			return 0;
	return a;
}

/*
 * The counts of the loops around node k, the node being written (outermost
 * first, at most IOA_TRACE_MAX_DEPTH), the same at every rank of the part
 * (one shape); returns how many.
 */
static unsigned enclosing_loops(const struct gfun *f, size_t k, uint64_t *count)
{
	unsigned d =
		f->w[0].n[k].depth < IOA_TRACE_MAX_DEPTH ? f->w[0].n[k].depth : IOA_TRACE_MAX_DEPTH;

	memcpy(count, f->loops, d * sizeof(*count));
	return d;
}

uint64_t kgen_list_len(const struct gfun *f, size_t k)
{
	uint64_t count[IOA_TRACE_MAX_DEPTH], n = 1;
	unsigned d = enclosing_loops(f, k, count), pos;
	uint32_t i;

	while (d > 0)
		n *= count[--d];
	for (i = 0; i < f->m; i++)
		for (pos = 0; pos < IOA_TRACE_NVALUES; pos++)
			if (f->w[i].n[k].model[pos].explicit_list && f->w[i].n[k].model[pos].n > n)
				n = f->w[i].n[k].model[pos].n;
	return n;
}

/*
 * A model's value at execution j inside d loops of count[] passes (their
 * indices in row-major order, the innermost fastest): a rank whose value
 * follows its loops, in a list beside ranks whose values do not.
 */
static int64_t value_at(const struct ioa_trace_model *m, const uint64_t *count, unsigned d,
			uint64_t j)
{
	uint64_t idx;
	unsigned s;
	int64_t v = m->base;

	if (m->explicit_list)
		return m->n ? m->list[j % m->n] : 0;
	for (s = 0; s < d && count[d - 1 - s] > 0; s++) {
		idx = j % count[d - 1 - s];
		j /= count[d - 1 - s];
		if (s < m->nstrides)
			v += m->stride[s] * (int64_t)idx;
	}
	return v;
}

int kgen_each_value(const struct gfun *f, size_t k, uint32_t i, unsigned pos,
		    int (*fn)(void *arg, int64_t v), void *arg)
{
	const struct ioa_trace_model *m = &f->w[i].n[k].model[pos];
	uint64_t count[IOA_TRACE_MAX_DEPTH], idx[IOA_TRACE_MAX_DEPTH] = {0}, j;
	unsigned d = enclosing_loops(f, k, count), s;
	int rc = 0;

	if (m->explicit_list) {
		for (j = 0; j < m->n && !rc; j++)
			rc = fn(arg, m->list[j]);
		return rc;
	}
	/* The loops (innermost first) whose index moves the value, walked like an odometer. */
	for (;;) {
		int64_t v = m->base;

		for (s = 0; s < d && s < m->nstrides; s++)
			v += m->stride[s] * (int64_t)idx[s];
		if ((rc = fn(arg, v)))
			return rc;
		for (s = 0; s < d && s < m->nstrides; s++) {
			if (!m->stride[s] || count[d - 1 - s] < 2)
				continue;
			if (++idx[s] < count[d - 1 - s])
				break;
			idx[s] = 0;
		}
		if (s == d || s == m->nstrides)
			return 0;
	}
}

void kgen_value_bounds(const struct gfun *f, size_t k, unsigned pos, int64_t *lo, int64_t *hi)
{
	uint64_t count[IOA_TRACE_MAX_DEPTH], j;
	unsigned d = enclosing_loops(f, k, count), s;
	int64_t low, high;
	uint32_t i;

	*lo = INT64_MAX;
	*hi = INT64_MIN;
	for (i = 0; i < f->m; i++) {
		const struct ioa_trace_model *m = &f->w[i].n[k].model[pos];

		if (m->explicit_list) {
			for (j = 0; j < m->n; j++) {
				*lo = m->list[j] < *lo ? m->list[j] : *lo;
				*hi = m->list[j] > *hi ? m->list[j] : *hi;
			}
			continue;
		}
		low = high = m->base;
		for (s = 0; s < d && s < m->nstrides; s++)
			if (count[d - 1 - s] > 1) {
				int64_t step = m->stride[s] * (int64_t)(count[d - 1 - s] - 1);

				*(step > 0 ? &high : &low) += step;
			}
		*lo = low < *lo ? low : *lo;
		*hi = high > *hi ? high : *hi;
	}
}

int64_t kgen_max_value(const struct gfun *f, size_t k, unsigned pos)
{
	int64_t lo, hi;

	kgen_value_bounds(f, k, pos, &lo, &hi);
	return hi > 0 ? hi : 0;
}

int kgen_number(struct gfun *f, size_t k, unsigned pos, struct ioa_buf *out)
{
	int64_t *v = malloc((f->m + 1) * sizeof(*v));
	const struct ioa_trace_model *m0 = &f->w[0].n[k].model[pos];
	char buf[256], name[64];
	int64_t per_rank;
	unsigned s;
	uint32_t i;
	int rc = v ? 0 : -ENOMEM;

	/* A list per execution (no stride fits): a table per rank of lists. */
	for (i = 0; i < f->m && !rc; i++)
		if (f->w[i].n[k].model[pos].explicit_list ||
		    f->w[i].n[k].model[pos].nstrides != m0->nstrides)
			break;
	if (!rc && i < f->m) {
		/* Every rank's row holds every execution, a rank whose value is affine too. */
		uint64_t n = kgen_list_len(f, k), j, count[IOA_TRACE_MAX_DEPTH];
		unsigned d = enclosing_loops(f, k, count);

		f->g->tied = "a number is a list per rank";
		rc = ioa_buf_addf(&f->pre, "static const int64_t l%u_%zu_%u[%u][%" PRIu64 "] = {",
				  f->id, k, pos, f->m, n);
		for (i = 0; i < f->m && !rc; i++) {
			const struct ioa_trace_model *mi = &f->w[i].n[k].model[pos];

			rc = ioa_buf_addstr(&f->pre, i ? ",\n\t{" : "\n\t{");
			for (j = 0; j < n && !rc; j++)
				rc = ioa_buf_addf(&f->pre, "%s%" PRId64, j ? ", " : "",
						  value_at(mi, count, d, j));
			rc = rc ? rc : ioa_buf_addstr(&f->pre, "}");
		}
		rc = rc ? rc : ioa_buf_addstr(&f->pre, "};\n");
		rc = rc ? rc : ioa_buf_addf(out, "l%u_%zu_%u[G][X%u_%zu]", f->id, k, pos, f->id, k);
		f->g->sum->tables++;
		free(v);
		return rc;
	}
	for (i = 0; i < f->m; i++)
		v[i] = f->w[i].n[k].model[pos].base;
	per_rank = rank_coef(v, f->ranks, f->m);
	rc = rc ? rc
		: ioa_buf_addstr(out, fit(v, f->ranks, f->m, f->g->nprocs, buf, sizeof(buf))
					      ? buf
					      : (table(f, v, name, sizeof(name)), name));
	for (s = 0; s < m0->nstrides && !rc; s++) {
		for (i = 0; i < f->m; i++)
			v[i] = f->w[i].n[k].model[pos].stride[s];
		if (!fit(v, f->ranks, f->m, f->g->nprocs, buf, sizeof(buf)) || strcmp(buf, "0")) {
			const char *e = fit(v, f->ranks, f->m, f->g->nprocs, buf, sizeof(buf));

			/* A step over all the ranks' blocks (interleaved by rank): in terms of
			 * the rank count, so that --ranks keeps the pattern. */
			if (e && per_rank && f->g->nprocs > 1 && !strchr(e, 'R') &&
			    v[0] == per_rank * (int64_t)f->g->nprocs) {
				snprintf(buf, sizeof(buf), "(%" PRId64 " * (int64_t)size)",
					 per_rank);
				e = buf;
			}
			if (!e) {
				rc = table(f, v, name, sizeof(name));
				e = name;
			}
			/* Strides go innermost first: stride s belongs to loop depth - 1 - s. */
			rc = rc ? rc
				: ioa_buf_addf(out, " + %s * i%u", e, f->w[0].n[k].depth - 1 - s);
		}
	}
	if (!rc && (strstr(ioa_buf_str(out), "(R %") || strstr(ioa_buf_str(out), "(R /")))
		f->g->tied = "a number follows the rank's block in a decomposition of the ranks";
	free(v);
	return rc;
}
