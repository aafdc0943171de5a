/*
 * kgen_parts — the groups' traces walked into nodes and merged (kmerge)
 * into parts: runs of items the same ranks make together, each written as
 * one function of the kernel.
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

/* A rank's trace, walked into nodes. */

struct node *kgen_push_node(struct walked *w)
{
	if (w->len == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 64;
		struct node *more = realloc(w->n, cap * sizeof(*more));

		if (!more)
			return NULL;
		w->n = more;
		w->cap = cap;
	}
	memset(&w->n[w->len], 0, sizeof(w->n[0]));
	return &w->n[w->len++];
}

static int on_loop_begin(void *arg, unsigned depth, uint64_t count)
{
	struct node *n = kgen_push_node(arg);

	if (!n)
		return -ENOMEM;
	n->kind = 0;
	n->depth = depth;
	n->count = count;
	return 0;
}

static int on_loop_end(void *arg, unsigned depth)
{
	struct node *n = kgen_push_node(arg);

	if (!n)
		return -ENOMEM;
	n->kind = 1;
	n->depth = depth;
	return 0;
}

static int on_leaf(void *arg, unsigned depth, const struct ioa_trace_leaf *leaf)
{
	struct walked *w = arg;
	struct node *n;

	/* ROMIO's own POSIX calls inside an MPI-IO call: the MPI-IO call makes them again. */
	if (leaf->sig->flags & IOA_TR_SUB)
		return 0;
	/* HDF5's calls, or those it made underneath: one level is replayed, not both. */
	if (w->hdf5 ? (leaf->sig->flags & IOA_TR_UNDER) != 0 : ioa_trace_layer_call(leaf->sig))
		return 0;
	if (!(n = kgen_push_node(w)))
		return -ENOMEM;
	n->kind = 2;
	n->depth = depth;
	n->sig = leaf->sig;
	memcpy(n->model, leaf->model, sizeof(n->model));
	n->gap = ioa_trace_hist_mean(&leaf->gap) * w->spt;
	n->dur = ioa_trace_hist_mean(&leaf->dur) * w->spt;
	n->order = leaf->order;
	return 0;
}

/* Removes the loops left empty by the calls not walked (sub-calls only). */
static void prune_loops(struct walked *w)
{
	size_t k, out = 0;

	for (k = 0; k < w->len; k++) {
		if (w->n[k].kind == 1 && out && w->n[out - 1].kind == 0 &&
		    w->n[out - 1].depth == w->n[k].depth) {
			out--; /* the loop's begin, just kept, goes with its end */
			continue;
		}
		w->n[out++] = w->n[k];
	}
	w->len = out;
}

/* ------------------------------------------------------------ groups */

static int same_shape(const struct walked *a, const struct walked *b)
{
	size_t k;

	if (a->len != b->len)
		return 0;
	for (k = 0; k < a->len; k++)
		if (a->n[k].kind != b->n[k].kind || a->n[k].count != b->n[k].count ||
		    (a->n[k].kind == 2 && strcmp(a->n[k].sig->name, b->n[k].sig->name)))
			return 0;
	return 1;
}

/*
 * Per rank of the part: its slots' kernel file numbers (numbered before,
 * count_files()), as a table files<p>[G][slot]; one row when they are the
 * same for every rank.
 */
int kgen_file_table(struct gfun *f, struct ioa_trace_rank *const *tr)
{
	struct ioa_buf rows = IOA_BUF_INIT((size_t)1 << 30), row = IOA_BUF_INIT((size_t)1 << 20);
	uint32_t i, j, nslots = 0;
	size_t first_len = 0;
	int rc = 0;

	f->files_shared = 1;
	for (i = 0; i < f->m; i++)
		nslots = tr[i]->nfiles > nslots ? tr[i]->nfiles : nslots;
	for (i = 0; i < f->m && !rc; i++) {
		ioa_buf_reset(&row);
		rc = ioa_buf_addstr(&row, "\n\t{");
		for (j = 0; j < nslots && !rc; j++) {
			int num = j < tr[i]->nfiles
					  ? kgen_file_number(&f->g->files, tr[i]->files[j])
					  : -1;

			if (num < 0 && j < tr[i]->nfiles)
				rc = -ENOMEM;
			else
				rc = ioa_buf_addf(&row, "%s%d", j ? ", " : "", num);
		}
		rc = rc ? rc : ioa_buf_addstr(&row, nslots ? "}" : "-1}");
		if (!rc && i &&
		    (row.len != first_len || memcmp(rows.data + 1, row.data + 1, row.len - 1)))
			f->files_shared = 0;
		if (!rc && !i)
			first_len = row.len;
		rc = rc ? rc : ioa_buf_addstr(&rows, i ? "," : "");
		rc = rc ? rc : ioa_buf_add(&rows, row.data, row.len);
	}
	/* The table's text after its name; a part whose ranks have the same rows shares it. */
	ioa_buf_reset(&row);
	if (!rc && f->files_shared)
		rc = ioa_buf_addf(&row, "[1][%u] = {%.*s};\n", nslots ? nslots : 1, (int)first_len,
				  rows.data);
	else if (!rc)
		rc = ioa_buf_addf(&row, "[%u][%u] = {%s};\n", f->m, nslots ? nslots : 1,
				  ioa_buf_str(&rows));
	for (j = 0; !rc && j < f->g->nftab && strcmp(f->g->ftab[j], ioa_buf_str(&row)); j++)
		;
	f->files_id = !rc && j < f->g->nftab ? j : f->id;
	if (!rc && j == f->g->nftab) {
		char **more = realloc(f->g->ftab, (j + 1) * sizeof(*more));

		if (!more || !(more[j] = strdup(ioa_buf_str(&row)))) {
			if (more)
				f->g->ftab = more;
			rc = -ENOMEM;
		} else {
			f->g->ftab = more;
			f->files_id = (unsigned)j;
			f->g->nftab++;
			rc = ioa_buf_addf(&f->pre, "static const int files%u%s", f->files_id,
					  ioa_buf_str(&row));
		}
	}
	ioa_buf_release(&rows);
	ioa_buf_release(&row);
	return rc;
}

/* The step between ranks (ascending) when they are evenly spaced, else 0. */
uint32_t kgen_rank_step(const uint32_t *ranks, uint32_t m)
{
	uint32_t i, step = m > 1 ? ranks[1] - ranks[0] : 1;

	for (i = 2; i < m; i++)
		if (ranks[i] - ranks[i - 1] != step)
			return 0;
	return step;
}

/* A size in the units people read. */
static const char *human(double bytes, char *buf, size_t len)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	unsigned u = 0;

	while (bytes >= 1024 && u < 4)
		bytes /= 1024, u++;
	snprintf(buf, len, u ? "%.3g %s" : "%.0f %s", bytes, units[u]);
	return buf;
}

/*
 * The phase a loop reproduces, for the comment above it: what one pass
 * does on the group's first rank (writes and reads with their bytes,
 * metadata and sync calls, MPI calls, compute).
 */
static int describe_loop(struct gfun *f, size_t k, const char *indent)
{
	const struct node *n = f->w[0].n;
	uint64_t mult[MAX_DEPTH + 2] = {1}, writes = 0, reads = 0, meta = 0, mpi = 0;
	double wbytes = 0, rbytes = 0, compute = 0;
	unsigned base = n[k].depth, d;
	size_t j;
	char b1[32], b2[32];
	struct ioa_buf t = IOA_BUF_INIT(1024);
	int rc;

	for (j = k + 1; j < f->w[0].len && !(n[j].kind == 1 && n[j].depth == base); j++) {
		d = n[j].depth - base;
		if (d < 1 || d > MAX_DEPTH)
			continue;
		if (n[j].kind == 0) {
			mult[d] = mult[d - 1] * n[j].count;
		} else if (n[j].kind == 2) {
			const struct ioa_trace_model *len = &n[j].model[1];
			uint64_t times = mult[d - 1];
			double bytes = len->explicit_list ? 0 : (double)len->base;

			compute += n[j].gap * (double)times;
			if (n[j].sig->module == IOA_TRACE_MPI)
				mpi += times;
			else if (n[j].sig->flags & IOA_TR_WRITE)
				writes += times, wbytes += bytes * (double)times;
			else if (n[j].sig->flags & IOA_TR_READ)
				reads += times, rbytes += bytes * (double)times;
			else
				meta += times;
		}
	}
#define S(x) ((x) == 1 ? "" : "s")
	rc = ioa_buf_addf(&t, "%" PRIu64 " passes, each:", n[k].count);
	if (!rc && writes)
		rc = ioa_buf_addf(&t, " %" PRIu64 " write%s (%s)", writes, S(writes),
				  human(wbytes, b1, sizeof(b1)));
	if (!rc && reads)
		rc = ioa_buf_addf(&t, "%s %" PRIu64 " read%s (%s)", writes ? "," : "", reads,
				  S(reads), human(rbytes, b2, sizeof(b2)));
	if (!rc && meta)
		rc = ioa_buf_addf(&t, "%s %" PRIu64 " metadata or sync call%s",
				  writes || reads ? "," : "", meta, S(meta));
	if (!rc && mpi)
		rc = ioa_buf_addf(&t, "%s %" PRIu64 " MPI call%s",
				  writes || reads || meta ? "," : "", mpi, S(mpi));
#undef S
	if (!rc && compute > 1e-3)
		rc = ioa_buf_addf(&t, "%s %.3g s of compute",
				  writes || reads || meta || mpi ? "," : "", compute);
	if (!rc && !writes && !reads && !meta && !mpi && compute <= 1e-3)
		rc = ioa_buf_addstr(&t, " nothing replayed");
	rc = rc ? rc : ioa_buf_addf(&f->body, "%s/* Phase: %s. */\n", indent, ioa_buf_str(&t));
	ioa_buf_release(&t);
	return rc;
}

/* Compute left by calls not replayed: before a loop, at the end of a loop body or function. */
static int emit_carry(struct gfun *f, const char *indent)
{
	double gap = f->carry;

	f->carry = 0;
	return gap > 1e-6 ? ioa_buf_addf(&f->body, "%s\tk_gap(%.6f);\n", indent, gap) : 0;
}

/* The ranks of one shape, walked: per rank its trace and its nodes; its top-level items. */
struct shape {
	struct ioa_trace_rank *tr;
	struct walked *w;
	uint32_t nranks, opened;
	const uint32_t *ranks;
	size_t *item; /* first node of each top-level item (a call or a whole loop), then the end */
	uint64_t *sig; /* per item: what must match for two groups to share it */
	size_t nitems, next;
};

uint64_t kgen_fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 0x100000001b3ull;
	return h;
}

/* An item's signature: its calls, loops and their counts, as same_shape() compares them. */
static uint64_t item_sig(const struct node *n, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t k;

	for (k = 0; k < len; k++) {
		h = kgen_fnv(h, &n[k].kind, sizeof(n[k].kind));
		h = kgen_fnv(h, &n[k].count, sizeof(n[k].count));
		if (n[k].kind == 2) {
			h = kgen_fnv(h, n[k].sig->name, strlen(n[k].sig->name));
			h = kgen_fnv(h, &n[k].sig->module, sizeof(n[k].sig->module));
			h = kgen_fnv(h, &n[k].sig->flags, sizeof(n[k].sig->flags));
			h = kgen_fnv(h, &n[k].sig->err, sizeof(n[k].sig->err));
		}
	}
	return h;
}

/*
 * Bytes the ranks of one group may take open at once, roughly: a group of
 * 2^24 ranks takes a few bytes to claim, and every rank of it stays open
 * while its kernel is made.
 */
#define OPEN_RANKS_BYTES ((uint64_t)1 << 30)

static int walk_shape(struct gen *g, const struct ioa_trace_group *grp, struct shape *sh)
{
	static const struct ioa_trace_visitor visitor = {on_loop_begin, on_loop_end, on_leaf};
	uint64_t per_rank = sizeof(*sh->tr) + sizeof(*sh->w) + 64 * (uint64_t)grp->shape_len +
			    8 * (uint64_t)grp->nvalues + 16 * (uint64_t)grp->times_len;
	size_t k, cap = 0;
	uint32_t i;
	int rc = 0;

	if (per_rank * grp->nranks > OPEN_RANKS_BYTES)
		return -E2BIG;
	sh->nranks = grp->nranks;
	sh->ranks = grp->ranks;
	sh->tr = calloc(grp->nranks + 1, sizeof(*sh->tr));
	sh->w = calloc(grp->nranks + 1, sizeof(*sh->w));
	if (!sh->tr || !sh->w)
		return -ENOMEM;
	for (i = 0; i < grp->nranks && !rc; i++) {
		rc = ioa_trace_rank_open(&g->t, grp->ranks[i], &sh->tr[i]);
		sh->opened += !rc;
		if (!rc) {
			g->sum->calls_exact += (uint64_t)sh->tr[i].header[IOA_TRH_EVENTS_TRACED];
			g->sum->calls_total += (uint64_t)sh->tr[i].header[IOA_TRH_EVENTS_TOTAL];
			g->start_sum += (double)sh->tr[i].header[IOA_TRH_START_TICKS] *
					grp->ns_per_tick * 1e-9;
			g->start_n++;
		}
		if (rc == -EINVAL) /* a malformed tree, not ranks that differ */
			rc = -EBADMSG;
		sh->w[i].spt = grp->ns_per_tick * 1e-9;
		sh->w[i].hdf5 = g->hdf5;
		rc = rc ? rc : ioa_trace_walk(&sh->tr[i], &visitor, &sh->w[i]);
		if (!rc)
			prune_loops(&sh->w[i]);
		if (!rc && i && !same_shape(&sh->w[0], &sh->w[i]))
			rc = -EINVAL;
	}
	for (k = 0; !rc && k <= sh->w[0].len; k++) {
		if (k < sh->w[0].len && (sh->w[0].n[k].depth != 0 || sh->w[0].n[k].kind == 1))
			continue;
		if (sh->nitems + 1 >= cap) {
			size_t *more = realloc(sh->item, (cap = cap * 2 + 16) * sizeof(*more));
			uint64_t *sigs = more ? realloc(sh->sig, cap * sizeof(*sigs)) : NULL;

			if (more)
				sh->item = more;
			if (!sigs)
				return -ENOMEM;
			sh->sig = sigs;
		}
		sh->item[sh->nitems] = k;
		if (k == sh->w[0].len)
			break;
		sh->nitems++;
	}
	for (k = 0; !rc && k < sh->nitems; k++)
		sh->sig[k] = item_sig(sh->w[0].n + sh->item[k], sh->item[k + 1] - sh->item[k]);
	return rc;
}

static void shape_free(struct shape *sh)
{
	uint32_t i;

	for (i = 0; i < sh->opened; i++)
		ioa_trace_rank_close(&sh->tr[i]);
	for (i = 0; sh->w && i < sh->nranks; i++)
		free(sh->w[i].n);
	free(sh->w);
	free(sh->tr);
	free(sh->item);
	free(sh->sig);
}

int kgen_count_files(struct gen *g, const uint32_t *ranks, const struct ioa_trace_rank *tr,
		     uint32_t n)
{
	uint32_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < tr[i].nfiles; j++) {
			int num = kgen_file_number(&g->files, tr[i].files[j]);

			if (num < 0)
				return -ENOMEM;
			if ((size_t)num >= g->cap_file_ranks) {
				size_t cap = ((size_t)num + 1) * 2;
				uint32_t *more = realloc(g->file_ranks, cap * sizeof(*more));
				uint64_t *marks;
				unsigned char *removed;

				if (!more)
					return -ENOMEM;
				g->file_ranks = more;
				if (!(marks = realloc(g->file_mark, cap * sizeof(*marks))))
					return -ENOMEM;
				g->file_mark = marks;
				if (!(removed = realloc(g->removed_first, cap)))
					return -ENOMEM;
				g->removed_first = removed;
				memset(more + g->cap_file_ranks, 0,
				       (cap - g->cap_file_ranks) * sizeof(*more));
				memset(marks + g->cap_file_ranks, 0,
				       (cap - g->cap_file_ranks) * sizeof(*marks));
				memset(removed + g->cap_file_ranks, 0, cap - g->cap_file_ranks);
				g->cap_file_ranks = cap;
			}
			/* A rank counts once per file (its POSIX and MPI-IO slots name the same
			 * file). */
			if (g->file_mark[num] != (uint64_t)ranks[i] + 1) {
				g->file_mark[num] = (uint64_t)ranks[i] + 1;
				g->file_ranks[num]++;
			}
		}
	return 0;
}

/* A part's member: a rank, its nodes from the part's first, its trace. */
struct member {
	uint32_t rank;
	struct walked view;
	struct ioa_trace_rank *tr;
};

static int member_cmp(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* Writes a list of ranks as ranges ("0-3, 8, 10-11"), the first 12 of them. */
static void put_ranks(struct gen *g, const uint32_t *r, uint32_t m)
{
	uint32_t i, j, shown = 0;

	for (i = 0; i < m && shown < 12; i = j + 1, shown++) {
		for (j = i; j + 1 < m && r[j + 1] == r[j] + 1; j++)
			;
		kgen_put(g, j > i ? "%s%u-%u" : "%s%u", i ? ", " : "", r[i], r[j]);
	}
	if (i < m)
		kgen_put(g, ", ...");
}

/*
 * Emits one part: the items [from[s], to[s]) of each of its member shapes,
 * as the function part<id>(R, G), G the rank's index among the part's.
 */
static int emit_part(struct gen *g, unsigned id, struct shape *const *sh, const size_t *from,
		     const size_t *to, size_t nsh, struct part *out)
{
	struct gfun f = {.g = g, .id = id};
	struct member *mem;
	struct ioa_trace_rank **tr;
	uint32_t *ranks;
	char indent[2 * MAX_DEPTH + 8];
	uint32_t i, m = 0;
	size_t k, s, depths = 0;
	int rc = 0;

	for (s = 0; s < nsh; s++)
		m += sh[s]->nranks;
	mem = calloc(m + 1, sizeof(*mem));
	tr = calloc(m + 1, sizeof(*tr));
	ranks = calloc(m + 1, sizeof(*ranks));
	f.w = calloc(m + 1, sizeof(*f.w));
	ioa_buf_init(&f.pre, (size_t)1 << 30);
	ioa_buf_init(&f.body, (size_t)1 << 30);
	if (!mem || !tr || !ranks || !f.w)
		rc = -ENOMEM;
	for (s = 0, m = 0; s < nsh && !rc; s++) {
		size_t a = sh[s]->item[from[s]], b = sh[s]->item[to[s]];

		for (i = 0; i < sh[s]->nranks; i++) {
			mem[m].rank = sh[s]->ranks[i];
			mem[m].view = (struct walked){sh[s]->w[i].n + a, b - a, 0, sh[s]->w[i].spt,
						      sh[s]->w[i].hdf5};
			mem[m++].tr = &sh[s]->tr[i];
		}
	}
	if (!rc)
		qsort(mem, m, sizeof(*mem), member_cmp);
	for (i = 0; i < m && !rc; i++) {
		ranks[i] = mem[i].rank;
		f.w[i] = mem[i].view;
		tr[i] = mem[i].tr;
		if (i && !same_shape(&f.w[0], &f.w[i]))
			rc = -EINVAL; /* two items' signatures collided */
	}
	f.ranks = ranks;
	f.tr = tr;
	f.m = m;
	rc = rc ? rc : kgen_file_table(&f, tr);
	if (!rc && m != g->nprocs && !(m == 1 && ranks[0] == 0))
		g->tied = "some ranks make calls that the others do not";
	if (!rc && !f.files_shared)
		g->tied = "ranks use files of their own";
	for (k = 0; k < (f.w && m ? f.w[0].len : 0) && !rc; k++) {
		const struct node *n = &f.w[0].n[k];
		unsigned d = n->depth;

		memset(indent, '\t', sizeof(indent));
		indent[d + 1 < sizeof(indent) ? d + 1 : sizeof(indent) - 1] = '\0';
		if (n->kind == 0) {
			/*
			 * Compute left by calls not replayed before the loop is spent once,
			 * before it (in its body it would be spent on every pass).
			 */
			rc = emit_carry(&f, indent + 1);
			if (n->depth < IOA_TRACE_MAX_DEPTH)
				f.loops[n->depth] = n->count;
			/* Phases and their steps; deeper loops say what they are themselves. */
			rc = rc ? rc : n->depth <= 1 ? describe_loop(&f, k, indent) : 0;
			rc = rc ? rc
				: ioa_buf_addf(&f.body,
					       "%sfor (i%u = 0; i%u < %" PRIu64 "; i%u++) {\n",
					       indent, n->depth, n->depth, n->count, n->depth);
			depths = n->depth + 1 > depths ? n->depth + 1 : depths;
			g->sum->loops++;
		} else if (n->kind == 1) {
			rc = emit_carry(&f, indent);
			rc = rc ? rc : ioa_buf_addf(&f.body, "%s}\n", indent);
		} else {
			rc = kgen_emit_call(&f, k, indent);
		}
	}
	rc = rc ? rc : emit_carry(&f, "");
	if (!rc) {
		kgen_put(g, "\n/* Part %u: ranks ", id);
		put_ranks(g, ranks, m);
		kgen_put(g, " (%u); R a rank, G its index among them. */\n", m);
		if (!kgen_rank_step(ranks, m)) {
			kgen_put(g, "static const uint32_t ranks%u[%u] = {", id, m);
			for (i = 0; i < m; i++)
				kgen_put(g, "%s%u", i ? ", " : "", ranks[i]);
			kgen_put(g, "};\n");
		}
		kgen_put(g, "%s#undef FILE_OF\n#define FILE_OF(slot) files%u[%s][(slot)]\n",
			 ioa_buf_str(&f.pre), f.files_id, f.files_shared ? "0" : "G");
		kgen_put(g, "static void part%u(int64_t R, int64_t G)\n{\n", id);
		for (k = 0; k < depths; k++)
			kgen_put(g, "%si%zu%s", k ? ", " : "\tint64_t ", k,
				 k + 1 == depths ? ";\n" : "");
		kgen_put(g, "\t(void)R;\n\t(void)G;\n");
		/* A part whose calls are none of them replayed still names its table. */
		if (!strstr(ioa_buf_str(&f.body), "FILE_OF("))
			kgen_put(g, "\t(void)files%u;\n", f.files_id);
		kgen_put(g, "%s}\n", ioa_buf_str(&f.body));
		out->ranks = ranks;
		out->m = m;
		ranks = NULL;
	}
	free(ranks);
	free(mem);
	free(tr);
	free(f.w);
	ioa_buf_release(&f.pre);
	ioa_buf_release(&f.body);
	return rc;
}

/* The s-th group making a merged record (a record of every group keeps no list). */
static size_t member_of(const struct kmerge *km, const struct kmerge_record *x, size_t s, size_t ng)
{
	return x->nranks == ng ? s : km->members[x->first + s];
}

static int same_members(const struct kmerge *km, const struct kmerge_record *x,
			const struct kmerge_record *y, size_t ng)
{
	size_t s;

	if (x->nranks != y->nranks)
		return 0;
	for (s = 0; s < x->nranks; s++)
		if (member_of(km, x, s, ng) != member_of(km, y, s, ng))
			return 0;
	return 1;
}

/*
 * The groups' top-level items merged into one SPMD sequence (kmerge.c,
 * the paper's greedy merge): an item the groups make together is emitted
 * once for all their ranks; consecutive items made by the same groups form
 * one part.  Each rank runs the parts it is in, in order: its own calls in
 * its own order, whatever the merge decided.
 */
int kgen_emit_parts(struct gen *g, struct part **parts, size_t *nparts)
{
	size_t ng = g->t.ngroups, r, j, np = 0;
	struct shape *sh = calloc(ng + 1, sizeof(*sh));
	struct kmerge_rank *seq = calloc(ng + 1, sizeof(*seq));
	struct shape **who = calloc(ng + 1, sizeof(*who));
	size_t *from = calloc(ng + 1, sizeof(*from)), *to = calloc(ng + 1, sizeof(*to));
	struct kmerge km = {0};
	int rc = sh && seq && who && from && to ? 0 : -ENOMEM;

	*parts = NULL;
	for (j = 0; j < ng && !rc; j++) {
		rc = walk_shape(g, &g->t.groups[j], &sh[j]);
		rc = rc ? rc : kgen_count_files(g, sh[j].ranks, sh[j].tr, sh[j].nranks);
		seq[j] = (struct kmerge_rank){sh[j].sig, sh[j].nitems};
	}
	g->sum->groups = (unsigned)ng;
	rc = rc ? rc : kmerge_run(seq, (uint32_t)ng, 200, &km);
	if (!rc && !(*parts = calloc(km.nrec + 1, sizeof(**parts))))
		rc = -ENOMEM;
	for (r = 0; r < km.nrec && !rc; r = j) {
		const struct kmerge_record *x = &km.rec[r];
		size_t s;

		/* The run of records made by the same groups. */
		for (j = r + 1; j < km.nrec && same_members(&km, x, &km.rec[j], ng); j++)
			;
		for (s = 0; s < x->nranks; s++) {
			struct shape *m = &sh[member_of(&km, x, s, ng)];

			who[s] = m;
			from[s] = m->next;
			m->next += j - r;
			to[s] = m->next;
		}
		rc = emit_part(g, (unsigned)np, who, from, to, x->nranks, &(*parts)[np]);
		np += !rc;
	}
	*nparts = np;
	g->sum->parts = (unsigned)np;
	kmerge_free(&km);
	for (j = 0; sh && j < ng; j++)
		shape_free(&sh[j]);
	free(sh);
	free(seq);
	free(who);
	free(from);
	free(to);
	return rc;
}
