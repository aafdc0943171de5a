/*
 * kgen_compact — a job's kernel as epochs, for a job whose exact kernel
 * is too long to read or keep (NWChem's: 1.25 MB of C for 2 ranks).
 *
 * What validation compares stays exact: every counter of every I/O layer.
 * What it does not compare is modelled:
 * - A stream's reads, writes, seeks, tells and flushes between two of its
 *   other calls become their totals (k_fagg()): the calls, the bytes and
 *   the highest byte reached, which is all STDIO counts of them; they take
 *   the time the job's calls took at least (fewer calls take less).  The
 *   reads and writes are made as evenly as can be, in runs back to back
 *   that end at that highest byte, writes first (so the reads find the
 *   bytes the job's found); each run but one starts with a seek, and the
 *   job's other seeks stay where the stream is.  Where the job made too
 *   few seeks for that, its calls are made one by one.
 * - MPI calls become the time they took, compute as the rank saw it,
 *   except those that end an epoch.  The k-th collective each rank makes
 *   on a communicator of all the ranks is one moment of the job in every
 *   rank; the epochs end at such moments spread evenly over the job's
 *   time, with a barrier, and at the first after a rank's call on a file
 *   other ranks use (what they do with it after that collective comes
 *   after it in the kernel too).  So every rank keeps its compute and its
 *   waits where they were, to within an epoch.
 * - Compute shorter than COMPACT_GAP waits for the next call's.
 * Every other call (POSIX's, fopen, fclose, a failed call, the standard
 * streams' reads, writes and seeks) is made as the exact kernel makes it (kgen_emit_call()).  A
 * job with MPI-IO or HDF5 calls keeps its exact kernel (-ENOTSUP).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_counters.h"
#include "kgen_int.h"

#define COMPACT_GAP 1e-3 /* seconds */
/* Events a compact kernel expands at most over all ranks (~330 MiB). */
#define COMPACT_MAX_EVENTS ((uint64_t)1 << 22)

enum { C_SUB, C_SYNC, C_MPI, C_AGG, C_EXACT };

struct crank {
	struct ioa_trace_rank tr;
	int opened;
	struct ioa_trace_event *e;
	size_t n, cap;
	int *kind;	    /* per signature: kgen_call_kind() */
	unsigned char *std; /* per file slot: a standard stream */
	signed char *cls;   /* per event: classify(), once */
};

static int on_event(void *arg, const struct ioa_trace_event *e)
{
	struct crank *c = arg;

	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;
		struct ioa_trace_event *more = realloc(c->e, cap * sizeof(*more));

		if (!more)
			return -ENOMEM;
		c->e = more;
		c->cap = cap;
	}
	c->e[c->n++] = *e;
	return 0;
}

static int is_std_stream(const struct gen *g, uint64_t id)
{
	size_t j;

	for (j = 0; j < g->nnames; j++)
		if (g->name_id[j] == id)
			return !strcmp(g->name[j], "<STDOUT>") || !strcmp(g->name[j], "<STDERR>") ||
			       !strcmp(g->name[j], "<STDIN>");
	return 0;
}

static int collective(int kind)
{
	switch (kind) {
	case K_BARRIER:
	case K_BCAST:
	case K_ALLREDUCE:
	case K_REDUCE:
	case K_ALLGATHER:
	case K_ALLTOALL:
	case K_GATHER:
	case K_GATHERV:
	case K_SCATTER:
	case K_SCATTERV:
	case K_ALLGATHERV:
	case K_SCAN:
	case K_EXSCAN:
	case K_COMM_SPLIT:
	case K_COMM_DUP:
	case K_COMM_CREATE:
		return 1;
	default:
		return 0;
	}
}

/* What one call becomes; -ENOTSUP for a call of a layer compact kernels leave to exact ones. */
static int kind_of(const struct crank *c, const struct ioa_trace_sig *sig)
{
	return sig >= c->tr.sigs && sig < c->tr.sigs + c->tr.nsigs ? c->kind[sig - c->tr.sigs]
								   : kgen_call_kind(sig);
}

static int classify(const struct crank *c, const struct ioa_trace_event *e, uint32_t nprocs)
{
	const struct ioa_trace_sig *sig = e->sig;
	int kind = kind_of(c, sig);

	if (sig->flags & IOA_TR_SUB)
		return C_SUB;
	if (sig->module == IOA_TRACE_MPI) {
		if (collective(kind) && e->slot >= 0 && (uint64_t)e->slot < c->tr.ncomms &&
		    c->tr.comms[e->slot].size == (int64_t)nprocs)
			return C_SYNC;
		return C_MPI;
	}
	if (sig->module != IOA_MOD_POSIX && sig->module != IOA_MOD_STDIO)
		return -ENOTSUP;
	/* A standard stream's flushes and tells only: where its bytes go is not the kernel's. */
	if (sig->module == IOA_MOD_STDIO && !(sig->flags & IOA_TR_FAILED) && e->slot >= 0 &&
	    (uint64_t)e->slot < c->tr.nfiles &&
	    (kind == K_FTELL || kind == K_FFLUSH ||
	     (!c->std[e->slot] &&
	      (kind == K_FSEEK || ((kind == K_FREAD || kind == K_FWRITE) && e->length > 0)))))
		return C_AGG;
	return C_EXACT;
}

/* Each event's class, through each signature's kind and each file's being a standard stream. */
static int classify_all(const struct gen *g, struct crank *c)
{
	size_t i;

	c->kind = calloc(c->tr.nsigs + 1, sizeof(*c->kind));
	c->std = calloc(c->tr.nfiles + 1, 1);
	c->cls = calloc(c->n + 1, 1);
	if (!c->kind || !c->std || !c->cls)
		return -ENOMEM;
	for (i = 0; i < c->tr.nsigs; i++)
		c->kind[i] = kgen_call_kind(&c->tr.sigs[i]);
	for (i = 0; i < c->tr.nfiles; i++)
		c->std[i] = (unsigned char)is_std_stream(g, c->tr.files[i]);
	for (i = 0; i < c->n; i++)
		c->cls[i] = (signed char)classify(c, &c->e[i], g->nprocs);
	return 0;
}

/* A stream's calls since its last other call, as totals. */
struct seg {
	int open;
	size_t first, last; /* events */
	int64_t seeks, tells, flushes, nw, bw, ew, nr, br, er;
	int64_t from, to; /* where the job's stream was before and after them, -1 not known */
	double took;	  /* the calls' time in the job */
};

/*
 * The runs k_fruns() makes n calls of bytes in, back to back and ending at
 * end: how many, and where the first starts.
 */
static uint64_t runs(int64_t n, int64_t bytes, int64_t end, int64_t *first)
{
	int64_t q = bytes / n, r = bytes % n, i = 0, j, t;
	uint64_t count = 0;

	while (i < n) {
		for (t = 0, j = i; j < n && t + q + (j < r) <= end; j++)
			t += q + (j < r);
		if (j == i)
			t = q + (j++ < r);
		if (!count++)
			*first = end - t;
		i = j;
	}
	return count;
}

/* One rank's kernel text, and what it took to write it. */
struct emit {
	struct gen *g;
	struct crank *c;
	struct gfun f;
	struct walked w;
	const unsigned char *boundary; /* per collective of all ranks: an epoch ends there */
	uint64_t nsync;
	struct seg *seg;       /* per file slot */
	int64_t *pos;	       /* per file slot: where the kernel's stream is, -1 not known */
	int64_t *jpos;	       /* per file slot: where the job's stream was, -1 not known */
	unsigned char *append; /* per file slot: a stream opened to append (writes at its end) */
	double carry;
	uint64_t folded, summed, totals, barriers;
};

static int put_gap(struct emit *x, double least)
{
	double gap = x->carry;

	if (gap < least)
		return 0;
	x->carry = 0;
	return ioa_buf_addf(&x->f.body, "\tk_gap(%.6f);\n", gap);
}

/*
 * Where the job's stream is after a call of its: after the bytes it read
 * or wrote, where it sought or told, at the start of a stream opened to
 * read or write in place (at its end, not known here, when to append).
 */
static void job_moved(struct emit *x, const struct ioa_trace_event *e, int kind)
{
	int64_t *at = &x->jpos[e->slot];

	if (e->sig->flags & IOA_TR_FAILED) {
		if (kind == K_FOPEN || kind == K_FREAD || kind == K_FWRITE || kind == K_FSEEK)
			*at = -1;
		return;
	}
	switch (kind) {
	case K_FOPEN:
		x->append[e->slot] = e->aux == 1 || e->aux == 0; /* 0: not known, opened "a+" */
		*at = x->append[e->slot] ? -1 : 0;
		break;
	case K_FCLOSE:
		x->append[e->slot] = 0;
		*at = -1;
		break;
	case K_FREAD:
	case K_FWRITE:
		*at = x->append[e->slot] && kind == K_FWRITE ? -1 : e->offset + e->length;
		break;
	case K_FSEEK:
	case K_FTELL:
		*at = e->offset;
		break;
	default:
		break;
	}
}

/* Event i as the exact kernel makes it. */
static int exact_call(struct emit *x, size_t i)
{
	const struct ioa_trace_event *e = &x->c->e[i];
	struct node *n = kgen_push_node(&x->w);
	int kind = kind_of(x->c, e->sig), rc;

	if (!n)
		return -ENOMEM;
	n->kind = 2;
	n->count = 1;
	n->sig = e->sig;
	n->model[0].base = e->offset;
	n->model[1].base = e->length;
	n->model[2].base = e->aux;
	n->model[IOA_TRACE_SLOT].base = e->slot;
	n->dur = e->duration;
	rc = put_gap(x, COMPACT_GAP);
	rc = rc ? rc : kgen_emit_call(&x->f, x->w.len - 1, "\t");
	/*
	 * Where the stream is after it: at the start when opened to read or
	 * write in place; as the job's after a call that moved it from where
	 * the job's was; else not known.
	 */
	if (!rc && e->sig->module == IOA_MOD_STDIO && e->slot >= 0 &&
	    (uint64_t)e->slot < x->c->tr.nfiles && kind != K_FTELL && kind != K_FFLUSH) {
		int64_t was = x->jpos[e->slot];

		job_moved(x, e, kind);
		x->pos[e->slot] = kind == K_FOPEN ? x->jpos[e->slot]
				  : x->pos[e->slot] >= 0 && x->pos[e->slot] == was
					  ? x->jpos[e->slot]
					  : -1;
	}
	return rc;
}

/* The stream's calls since its last other call: as totals, or one by one where they must. */
static int flush_seg(struct emit *x, int64_t slot)
{
	struct seg *s = &x->seg[slot];
	int64_t at = x->pos[slot], first = 0, needed = 0;
	int seek = 0, rc = 0;
	size_t i;

	if (!s->open)
		return 0;
	s->open = 0;
	if (s->nw) {
		needed += (int64_t)runs(s->nw, s->bw, s->ew, &first);
		if (at == first)
			needed--;
		else
			seek |= 1;
		at = s->ew;
	}
	if (s->nr) {
		needed += (int64_t)runs(s->nr, s->br, s->er, &first);
		if (at == first)
			needed--;
		else
			seek |= 2;
		at = s->er;
	}
	if (needed > s->seeks) {
		/* One by one, from where the job's stream was (exact_call() follows it). */
		x->jpos[slot] = s->from;
		for (i = s->first; i <= s->last && !rc; i++)
			if (x->c->e[i].slot == slot && x->c->cls[i] == C_AGG) {
				rc = exact_call(x, i);
				x->summed--;
			}
		return rc;
	}
	rc = put_gap(x, COMPACT_GAP);
	rc = rc ? rc
		: ioa_buf_addf(&x->f.body,
			       "\tk_fagg(FILE_OF(%" PRId64 "), %" PRId64 ", %" PRId64 ", %" PRId64
			       ", %" PRId64 ", %" PRId64 ", %" PRId64 ", %d, %" PRId64 ", %" PRId64
			       ", %" PRId64 ", %" PRId64 ", %.6f);\n",
			       slot, s->nw, s->bw, s->ew, s->nr, s->br, s->er, seek,
			       s->seeks - needed, s->flushes, s->tells, s->to, s->took);
	/*
	 * The last seek left over (after one between writes and reads, when
	 * no flush is there for it) goes where the job's stream was after them.
	 */
	if (s->seeks - needed -
			    (s->nw && s->nr && !(seek & 2) && !s->flushes && s->seeks > needed) >
		    0 &&
	    s->to >= 0)
		x->pos[slot] = s->to;
	else if (s->nw || s->nr)
		x->pos[slot] = at;
	/* The longest call of the totals: the even share, rounded up. */
	if (s->nw && (s->bw + s->nw - 1) / s->nw > x->g->max_transfer)
		x->g->max_transfer = (s->bw + s->nw - 1) / s->nw;
	if (s->nr && (s->br + s->nr - 1) / s->nr > x->g->max_transfer)
		x->g->max_transfer = (s->br + s->nr - 1) / s->nr;
	x->totals++;
	return rc;
}

static int flush_all(struct emit *x)
{
	uint32_t s;
	int rc = 0;

	for (s = 0; s < x->c->tr.nfiles && !rc; s++)
		rc = flush_seg(x, s);
	return rc;
}

static int emit_rank(struct emit *x)
{
	uint64_t sync = 0;
	size_t i;
	int rc = 0;

	for (i = 0; i < x->c->n && !rc; i++) {
		const struct ioa_trace_event *e = &x->c->e[i];
		int cls = x->c->cls[i];

		x->carry += e->gap;
		if (cls == C_SUB)
			continue;
		if (cls == C_SYNC && sync < x->nsync && x->boundary[sync++]) {
			rc = flush_all(x);
			rc = rc ? rc : put_gap(x, 1e-6);
			rc = rc ? rc : ioa_buf_addstr(&x->f.body, "\tk_barrier(0);\n");
			x->barriers++;
		} else if (cls == C_SYNC || cls == C_MPI) {
			/* Not MPI_Init's: the kernel makes its own, before its time starts. */
			if (kind_of(x->c, e->sig) != K_SELF)
				x->carry += e->duration;
			x->folded++;
		} else if (cls == C_AGG && !x->append[e->slot]) {
			struct seg *s = &x->seg[e->slot];
			int kind = kind_of(x->c, e->sig);
			int64_t end = e->offset + e->length;

			if (!s->open)
				*s = (struct seg){.open = 1, .first = i, .from = x->jpos[e->slot]};
			s->last = i;
			job_moved(x, e, kind);
			s->to = x->jpos[e->slot];
			s->took += e->duration;
			s->seeks += kind == K_FSEEK;
			s->tells += kind == K_FTELL;
			s->flushes += kind == K_FFLUSH;
			if (kind == K_FWRITE)
				s->nw++, s->bw += e->length, s->ew = end > s->ew ? end : s->ew;
			if (kind == K_FREAD)
				s->nr++, s->br += e->length, s->er = end > s->er ? end : s->er;
			x->summed++;
		} else {
			/* A stream opened to append: where its bytes land is not the kernel's. */
			rc = e->slot >= 0 && (uint64_t)e->slot < x->c->tr.nfiles &&
					     e->sig->module != IOA_TRACE_MPI
				     ? flush_seg(x, e->slot)
				     : 0;
			rc = rc ? rc : exact_call(x, i);
		}
	}
	rc = rc ? rc : flush_all(x);
	return rc ? rc : put_gap(x, 1e-6);
}

/* Whether more than one rank uses the file of a record. */
static int shared_file(const struct gen *g, uint64_t id)
{
	size_t j;

	for (j = 0; j < g->files.n && j < g->cap_file_ranks; j++)
		if (g->files.id[j] == id)
			return g->file_ranks[j] > 1;
	return 0;
}

/*
 * The epochs' ends: of the collectives of all ranks (as rank 0 made them),
 * the first at or after each of epochs - 1 moments spread evenly over the
 * job's time.
 */
static int pick_boundaries(struct gen *g, struct crank *c, unsigned epochs,
			   unsigned char **boundary, uint64_t *nsync)
{
	const struct crank *r0 = &c[0];
	double end = 0, *at;
	uint64_t k = 0, n = 0, j;
	size_t i;
	uint32_t r;

	for (r = 0; r < g->nprocs; r++) {
		uint64_t m = 0;

		for (i = 0; i < c[r].n; i++) {
			const struct ioa_trace_event *e = &c[r].e[i];
			int cls = c[r].cls[i];

			if (cls < 0)
				return cls;
			m += cls == C_SYNC;
			end = e->start + e->duration > end ? e->start + e->duration : end;
		}
		/* Ranks that made different numbers of them: no common moments. */
		if (r && m != n)
			return -ENOTSUP;
		n = m;
	}
	*nsync = n;
	*boundary = calloc(n + 1, 1);
	at = calloc(n + 1, sizeof(*at));
	if (!*boundary || !at) {
		free(at);
		return -ENOMEM;
	}
	/*
	 * A file of several ranks: the first collective after a rank's call on
	 * it ends an epoch, so that what another rank does with it after that
	 * collective comes after it in the kernel too (the MPI calls between
	 * are only time).
	 */
	for (r = 0; r < g->nprocs; r++) {
		unsigned char *shared = calloc(c[r].tr.nfiles + 1, 1);
		int pending = 0;

		if (!shared) {
			free(at);
			return -ENOMEM;
		}
		for (i = 0; i < c[r].tr.nfiles; i++)
			shared[i] = (unsigned char)shared_file(g, c[r].tr.files[i]);
		for (i = 0, k = 0; i < c[r].n; i++) {
			const struct ioa_trace_event *e = &c[r].e[i];
			int cls = c[r].cls[i];

			if ((cls == C_AGG || cls == C_EXACT) && e->slot >= 0 &&
			    (uint64_t)e->slot < c[r].tr.nfiles && e->sig->module != IOA_TRACE_MPI)
				pending |= shared[e->slot];
			if (cls == C_SYNC) {
				(*boundary)[k++] |= (unsigned char)pending;
				pending = 0;
			}
		}
		free(shared);
	}
	k = 0;
	for (i = 0; i < r0->n; i++)
		if (r0->cls[i] == C_SYNC)
			at[k++] = r0->e[i].start;
	for (j = 1, k = 0; j < epochs && k < n; j++) {
		double moment = end * (double)j / epochs;

		while (k < n && at[k] < moment)
			k++;
		if (k < n)
			(*boundary)[k++] = 1;
	}
	free(at);
	return 0;
}

/* A rank's text, and the ranks that have the same. */
struct klass {
	char *text;
	uint64_t hash;
	uint32_t *ranks, m;
	struct ioa_trace_rank **tr;
};

/* The skips and counts of one rank's text, added to the kernel's. */
static int add_summary(struct kgen_summary *to, const struct kgen_summary *from)
{
	unsigned i, p;
	int rc = 0;

	to->calls += from->calls;
	to->skipped += from->skipped;
	for (i = 0; i < from->nskips && !rc; i++)
		for (p = 0; p < from->skips[i].places && !rc; p++)
			rc = kgen_note_skip(to, from->skips[i].layer, from->skips[i].name);
	return rc;
}

static int put_class(struct gen *g, unsigned id, struct klass *k, struct part *out)
{
	struct gfun f = {.g = g, .id = id, .ranks = k->ranks, .m = k->m};
	int rc;

	ioa_buf_init(&f.pre, (size_t)1 << 30);
	rc = kgen_file_table(&f, k->tr);
	if (!rc) {
		kgen_put(g, "\n/* Ranks %u", k->ranks[0]);
		if (k->m > 1)
			kgen_put(g, " and %u more", k->m - 1);
		kgen_put(g, "; R a rank, G its index among them. */\n");
		if (!kgen_rank_step(k->ranks, k->m)) {
			uint32_t i;

			kgen_put(g, "static const uint32_t ranks%u[%u] = {", id, k->m);
			for (i = 0; i < k->m; i++)
				kgen_put(g, "%s%u", i ? ", " : "", k->ranks[i]);
			kgen_put(g, "};\n");
		}
		kgen_put(g,
			 "%s#undef FILE_OF\n#define FILE_OF(slot) files%u[%s][(slot)]\n"
			 "static void part%u(int64_t R, int64_t G)\n{\n\t(void)R;\n\t(void)G;\n"
			 "\t(void)files%u;\n%s}\n",
			 ioa_buf_str(&f.pre), f.files_id, f.files_shared ? "0" : "G", id,
			 f.files_id, k->text);
		if (!f.files_shared)
			g->tied = "ranks use files of their own";
		out->ranks = k->ranks;
		out->m = k->m;
		k->ranks = NULL;
	}
	ioa_buf_release(&f.pre);
	return rc;
}

int kgen_emit_compact(struct gen *g, unsigned epochs, struct part **parts, size_t *nparts)
{
	struct crank *c = calloc(g->nprocs + 1, sizeof(*c));
	struct klass *k = calloc(g->nprocs + 1, sizeof(*k));
	uint32_t *all = calloc(g->nprocs + 1, sizeof(*all));
	unsigned char *boundary = NULL;
	uint64_t nsync = 0, events = 0, folded = 0, summed = 0, totals = 0;
	size_t nk = 0, i;
	uint32_t r;
	int rc = c && k && all ? 0 : -ENOMEM;

	*parts = NULL;
	*nparts = 0;
	for (r = 0; r < g->nprocs && !rc; r++) {
		all[r] = r;
		rc = ioa_trace_rank_open(&g->t, r, &c[r].tr);
		c[r].opened = !rc;
		rc = rc ? rc
			: ioa_trace_expand(&c[r].tr, COMPACT_MAX_EVENTS - events, on_event, &c[r]);
		if (rc == -EINVAL) /* a malformed tree, not ranks that differ */
			rc = -EBADMSG;
		events += c[r].n;
		rc = rc ? rc : classify_all(g, &c[r]);
		if (!rc) {
			g->sum->calls_exact += (uint64_t)c[r].tr.header[IOA_TRH_EVENTS_TRACED];
			g->sum->calls_total += (uint64_t)c[r].tr.header[IOA_TRH_EVENTS_TOTAL];
			g->start_sum += (double)c[r].tr.header[IOA_TRH_START_TICKS] *
					c[r].tr.group->ns_per_tick * 1e-9;
			g->start_n++;
			rc = kgen_count_files(g, &all[r], &c[r].tr, 1);
		}
	}
	rc = rc ? rc : pick_boundaries(g, c, epochs, &boundary, &nsync);
	for (r = 0; r < g->nprocs && !rc; r++) {
		struct kgen_summary mine = {0}, *real = g->sum;
		struct ioa_trace_rank *trp = &c[r].tr;
		struct emit x = {.g = g, .c = &c[r], .boundary = boundary, .nsync = nsync};
		uint64_t h;

		x.seg = calloc(c[r].tr.nfiles + 1, sizeof(*x.seg));
		x.pos = malloc((c[r].tr.nfiles + 1) * sizeof(*x.pos));
		x.jpos = malloc((c[r].tr.nfiles + 1) * sizeof(*x.jpos));
		x.append = calloc(c[r].tr.nfiles + 1, 1);
		if (!x.seg || !x.pos || !x.jpos || !x.append)
			rc = -ENOMEM;
		for (i = 0; !rc && i < c[r].tr.nfiles; i++)
			x.pos[i] = x.jpos[i] = -1;
		x.f = (struct gfun){.g = g,
				    .id = (unsigned)nk,
				    .w = &x.w,
				    .ranks = &all[r],
				    .m = 1,
				    .tr = &trp};
		x.w.spt = c[r].tr.group->ns_per_tick * 1e-9;
		ioa_buf_init(&x.f.pre, (size_t)1 << 30);
		ioa_buf_init(&x.f.body, (size_t)1 << 30);
		/* The rank's calls counted once however many ranks share its text. */
		g->sum = &mine;
		rc = rc ? rc : emit_rank(&x);
		g->sum = real;
		rc = rc ? rc : ioa_buf_add(&x.f.pre, x.f.body.data, x.f.body.len);
		h = rc ? 0 : kgen_fnv(0xcbf29ce484222325ull, x.f.pre.data, x.f.pre.len);
		for (i = 0; !rc && i < nk; i++)
			if (k[i].hash == h && !strcmp(k[i].text, ioa_buf_str(&x.f.pre)))
				break;
		if (!rc && i == nk) {
			k[nk].hash = h;
			k[nk].ranks = calloc(g->nprocs + 1, sizeof(*k[nk].ranks));
			k[nk].tr = calloc(g->nprocs + 1, sizeof(*k[nk].tr));
			if (!k[nk].ranks || !k[nk].tr ||
			    !(k[nk].text = strdup(ioa_buf_str(&x.f.pre))))
				rc = -ENOMEM;
			nk++;
			rc = rc ? rc : add_summary(g->sum, &mine);
			folded += x.folded, summed += x.summed, totals += x.totals;
		}
		if (!rc) {
			k[i].ranks[k[i].m] = r;
			k[i].tr[k[i].m++] = &c[r].tr;
		}
		kgen_summary_release(&mine);
		free(x.seg);
		free(x.pos);
		free(x.jpos);
		free(x.append);
		free(x.w.n);
		ioa_buf_release(&x.f.pre);
		ioa_buf_release(&x.f.body);
	}
	if (!rc && !(*parts = calloc(nk + 1, sizeof(**parts))))
		rc = -ENOMEM;
	for (i = 0; i < nk && !rc; i++) {
		rc = put_class(g, (unsigned)i, &k[i], &(*parts)[i]);
		*nparts += !rc;
	}
	if (!rc && nk > 1)
		g->tied = "some ranks make calls that the others do not";
	if (!rc) {
		for (i = 0, g->sum->epochs = 1; i < nsync; i++)
			g->sum->epochs += boundary[i];
		g->sum->parts = (unsigned)nk;
		g->sum->groups = (unsigned)g->t.ngroups;
		g->sum->mpi_as_time = folded;
		g->sum->stdio_summed = summed;
		g->sum->stdio_totals = totals;
	}
	for (i = 0; i < nk; i++) {
		free(k[i].text);
		free(k[i].ranks);
		free(k[i].tr);
	}
	free(k);
	for (r = 0; c && r < g->nprocs; r++) {
		if (c[r].opened)
			ioa_trace_rank_close(&c[r].tr);
		free(c[r].e);
		free(c[r].kind);
		free(c[r].std);
		free(c[r].cls);
	}
	free(c);
	free(all);
	free(boundary);
	return rc;
}
