/*
 * an_files — analyses of what happens to files: temporary files and
 * erroneous calls (with the patterns they form, such as rmdir failing with
 * ENOTDIR then unlink of the same name), in-place updates (small rewrites
 * of bytes already written: header updates, at offsets common to all ranks
 * or particular to one), and the access pattern and transfer sizes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "ioa_errname.h"
#include "ioa_logfmt.h"
#include "ioa_trace.h"

#define MAX_LISTED 64

static int64_t posix_sum(const struct an_job *job, int32_t file, int counter)
{
	int64_t sum = 0;
	size_t i;

	for (i = 0; i < job->nrecs; i++)
		if (job->recs[i].file == file && job->recs[i].module == IOA_MOD_POSIX)
			sum += job->recs[i].c[counter];
	return sum;
}

/* How many of the file's records of module carry flag. */
static int64_t flagged(const struct an_job *job, int32_t file, enum ioa_module module,
		       uint32_t flag)
{
	int64_t n = 0;
	size_t i;

	for (i = 0; i < job->nrecs; i++)
		n += job->recs[i].file == file && job->recs[i].module == module &&
		     (job->recs[i].flags & flag);
	return n;
}

static int64_t failed(const struct an_job *job, int32_t file, const char *op, int err)
{
	int64_t sum = 0;
	size_t i;

	for (i = 0; i < job->nfails; i++)
		if (job->fails[i].file == file && !strcmp(job->fails[i].op, op) &&
		    (err < 0 || job->fails[i].err == err))
			sum += job->fails[i].count;
	return sum;
}

/* The first time a rank's call on file matched: flags all set, none of unless; -1: never. */
static double first_event(const struct an_job *job, int32_t file, const char *op, unsigned flags,
			  unsigned unless)
{
	double t = -1;
	size_t i;

	for (i = 0; i < job->nev; i++) {
		const struct an_event *e = &job->ev[i];
		const struct an_sig *s = &job->sigs[e->sig];

		if (e->file == file && (s->flags & flags) == flags && !(s->flags & unless) &&
		    (!op || !strcmp(s->name, op)) && (t < 0 || e->start < t))
			t = e->start;
	}
	return t;
}

int an_tempfiles(const struct an_job *job, const struct an_settings *set, json_object *res,
		 double *confidence)
{
	json_object *findings = json_object_new_array(), *temps = json_object_new_array(),
		    *errors = json_object_new_array(), *patterns = json_object_new_array();
	size_t i, k, ntemp = 0, nrmdir_unlink = 0;
	char text[768], ebuf[IOA_ERRNAME_MAX];

	(void)set;
	json_object_object_add(res, "findings", findings);
	if (job->imported) {
		/* Darshan records neither creates and removals nor failed calls. */
		json_object_array_add(
			findings, an_finding(job, AN_F_IMPORTED,
					     "the log was imported from another tool's, which does "
					     "not record files created and removed nor failed "
					     "calls: temporary files and failed calls are unknown",
					     NULL));
		json_object_put(temps);
		json_object_put(errors);
		json_object_put(patterns);
		*confidence = 0;
		return 0;
	}
	json_object_object_add(res, "temporary_files", temps);
	json_object_object_add(res, "errors", errors);
	json_object_object_add(res, "patterns", patterns);
	/*
	 * Temporary files: created and removed in the job.  Created by an open
	 * (POSIX_CREATES) or by stdio (fopen "w", tmpfile: the STDIO record's
	 * flag); removed by unlink or remove, or never named (tmpfile,
	 * O_TMPFILE: marked removed with no unlink, rename or rmdir).
	 */
	for (i = 0; i < job->nfiles; i++) {
		int32_t f = (int32_t)i;
		int64_t created = posix_sum(job, f, POSIX_CREATES) +
				  flagged(job, f, IOA_MOD_STDIO, IOA_REC_CREATED);
		int64_t unlinks = posix_sum(job, f, POSIX_UNLINKS); /* successful ones only */
		int64_t rmdir_notdir = failed(job, f, "rmdir", ENOTDIR);
		int unnamed = unlinks <= 0 && !posix_sum(job, f, POSIX_RENAME_SOURCES) &&
			      !posix_sum(job, f, POSIX_RMDIRS) &&
			      (flagged(job, f, IOA_MOD_POSIX, IOA_REC_REMOVED) ||
			       flagged(job, f, IOA_MOD_STDIO, IOA_REC_REMOVED));
		json_object *o;

		if (!created || (unlinks <= 0 && !unnamed))
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "file", json_object_new_string(job->files[i].name));
		json_object_object_add(o, "creates", json_object_new_int64(created));
		json_object_object_add(o, "unlinks", json_object_new_int64(unlinks));
		json_object_object_add(
			o, "bytes_written",
			json_object_new_int64(posix_sum(job, f, POSIX_BYTES_WRITTEN)));
		if (job->nev) {
			double born = first_event(job, f, NULL, IOA_TR_CREATE, IOA_TR_FAILED);
			double gone = first_event(job, f, NULL, IOA_TR_REMOVE, IOA_TR_FAILED);

			if (born >= 0 && gone >= born)
				json_object_object_add(o, "lifetime", an_num(gone - born));
		}
		/* rmdir that fails with ENOTDIR, then unlink of the same name (in that order). */
		if (rmdir_notdir) {
			double tried = first_event(job, f, "rmdir", IOA_TR_FAILED, 0);
			double removed =
				first_event(job, f, "unlink", IOA_TR_REMOVE, IOA_TR_FAILED);
			int ordered = job->nev ? tried >= 0 && removed >= tried : 1;
			json_object *ev = json_object_new_object();

			json_object_object_add(
				o, "removed_by",
				json_object_new_string("rmdir (ENOTDIR), then unlink"));
			json_object_object_add(ev, "file",
					       json_object_new_string(job->files[i].name));
			json_object_object_add(ev, "rmdir_enotdir",
					       json_object_new_int64(rmdir_notdir));
			json_object_object_add(ev, "unlinks", json_object_new_int64(unlinks));
			json_object_object_add(ev, "order_seen_in_trace",
					       json_object_new_boolean(job->nev && ordered));
			if (ordered) {
				json_object_array_add(patterns, json_object_get(ev));
				nrmdir_unlink++;
			}
			json_object_put(ev);
		} else {
			json_object_object_add(
				o, "removed_by",
				json_object_new_string(unnamed ? "never named (tmpfile, O_TMPFILE)"
							       : "unlink"));
		}
		if (ntemp++ < MAX_LISTED)
			json_object_array_add(temps, o);
		else
			json_object_put(o);
	}
	json_object_object_add(res, "temporary_file_count", json_object_new_int64((int64_t)ntemp));
	if (ntemp) {
		json_object *ev = json_object_new_object();

		json_object_object_add(ev, "files", json_object_get(temps));
		snprintf(text, sizeof(text), "%zu temporary file%s: created and removed in the job",
			 ntemp, ntemp == 1 ? "" : "s");
		json_object_array_add(findings, an_finding(job, AN_F_TEMPORARY_FILES, text, ev));
	}
	if (nrmdir_unlink) {
		json_object *ev = json_object_new_object();

		json_object_object_add(ev, "cases", json_object_get(patterns));
		snprintf(text, sizeof(text),
			 "%zu name%s removed by trying rmdir first (failing with ENOTDIR: a file, "
			 "not a directory), then unlink",
			 nrmdir_unlink, nrmdir_unlink == 1 ? " is" : "s are");
		json_object_array_add(findings, an_finding(job, AN_F_RMDIR_THEN_UNLINK, text, ev));
	}
	/* Failed calls by operation and errno (MPI-IO calls: MPI error class). */
	for (i = 0; i < job->nfails; i++) {
		const struct an_failure *f = &job->fails[i];
		int64_t count = 0;
		int32_t *ranks = malloc(((size_t)job->nfails + 1) * sizeof(*ranks));
		size_t nranks = 0, nfiles = 0;
		json_object *o, *files;
		int seen = 0;

		for (k = 0; k < i && !seen; k++)
			seen = !strcmp(job->fails[k].op, f->op) && job->fails[k].err == f->err &&
			       job->fails[k].module == f->module;
		if (seen || !ranks) {
			free(ranks);
			continue;
		}
		files = json_object_new_array();
		for (k = i; k < job->nfails; k++) {
			const struct an_failure *g = &job->fails[k];
			size_t r;
			int dup = 0;

			if (strcmp(g->op, f->op) || g->err != f->err || g->module != f->module)
				continue;
			count += g->count;
			for (r = 0; r < nranks && !dup; r++)
				dup = ranks[r] == g->rank;
			if (!dup)
				ranks[nranks++] = g->rank;
			if (g->file >= 0 && nfiles++ < 16)
				json_object_array_add(
					files, json_object_new_string(job->files[g->file].name));
		}
		o = json_object_new_object();
		json_object_object_add(o, "op", json_object_new_string(f->op));
		json_object_object_add(
			o, f->module == IOA_MOD_MPIIO ? "mpi_error_class" : "errno",
			json_object_new_string(ioa_errname(f->err, f->module == IOA_MOD_MPIIO, ebuf,
							   sizeof(ebuf))));
		json_object_object_add(o, "count", json_object_new_int64(count));
		json_object_object_add(o, "ranks", json_object_new_int64((int64_t)nranks));
		json_object_object_add(o, "files", files);
		json_object_array_add(errors, o);
		snprintf(text, sizeof(text), "%s failed %lld time%s with %s on %zu rank%s", f->op,
			 (long long)count, count == 1 ? "" : "s",
			 ioa_errname(f->err, f->module == IOA_MOD_MPIIO, ebuf, sizeof(ebuf)),
			 nranks, nranks == 1 ? "" : "s");
		json_object_array_add(findings,
				      an_finding(job, AN_F_FAILED_CALLS, text, json_object_get(o)));
		free(ranks);
	}
	*confidence = 0.95;
	return 0;
}

/* ------------------------------------------------------------ in-place updates */

/* What a rank wrote to one file so far: merged extents, sorted. */
struct extents {
	int64_t (*x)[2];
	size_t n, cap;
};

static int covered(const struct extents *e, int64_t lo, int64_t hi)
{
	size_t a = 0, b = e->n;

	while (a < b) {
		size_t m = (a + b) / 2;

		if (e->x[m][1] < hi)
			a = m + 1;
		else
			b = m;
	}
	return a < e->n && e->x[a][0] <= lo && e->x[a][1] >= hi;
}

static int extend(struct extents *e, int64_t lo, int64_t hi)
{
	size_t i = e->n, j;

	/* Mostly appends: the new extent joins the last one or goes after it. */
	if (e->n && e->x[e->n - 1][0] <= lo && lo <= e->x[e->n - 1][1]) {
		e->x[e->n - 1][1] = hi > e->x[e->n - 1][1] ? hi : e->x[e->n - 1][1];
		return 0;
	}
	if (e->n == e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 8;
		int64_t(*x)[2] = realloc(e->x, cap * sizeof(*x));

		if (!x)
			return -ENOMEM;
		e->x = x;
		e->cap = cap;
	}
	while (i > 0 && e->x[i - 1][0] > lo)
		i--;
	memmove(&e->x[i + 1], &e->x[i], (e->n - i) * sizeof(*e->x));
	e->x[i][0] = lo;
	e->x[i][1] = hi;
	e->n++;
	/* Merge with what it now touches. */
	i = i ? i - 1 : 0;
	for (j = i + 1; j < e->n;) {
		if (e->x[j][0] <= e->x[i][1]) {
			e->x[i][1] = e->x[j][1] > e->x[i][1] ? e->x[j][1] : e->x[i][1];
			memmove(&e->x[j], &e->x[j + 1], (e->n - j - 1) * sizeof(*e->x));
			e->n--;
		} else {
			i = j++;
		}
	}
	return 0;
}

static json_object *ints3(const char *k1, int64_t v1, const char *k2, int64_t v2, const char *k3,
			  int64_t v3)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, k1, json_object_new_int64(v1));
	json_object_object_add(o, k2, json_object_new_int64(v2));
	json_object_object_add(o, k3, json_object_new_int64(v3));
	return o;
}

struct update {
	int32_t rank, file;
	int64_t offset, length;
	double start;
};

static int by_offset(const void *a, const void *b)
{
	const struct update *x = a, *y = b;

	if (x->offset != y->offset)
		return (x->offset > y->offset) - (x->offset < y->offset);
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* A write of data that reached a file: POSIX or STDIO, not failed, with its place. */
static int is_plain_write(const struct an_job *job, const struct an_event *e)
{
	const struct an_sig *s = &job->sigs[e->sig];

	return e->file >= 0 && (size_t)e->file < job->nfiles && (s->flags & IOA_TR_WRITE) &&
	       !(s->flags & IOA_TR_FAILED) && s->module != IOA_MOD_MPIIO &&
	       s->module != IOA_TRACE_MPI && e->length > 0 && e->offset >= 0;
}

struct event_order {
	const struct an_job *job;
	const uint32_t *epoch;
};

/* Events (indices into job's) in the order they happened: by epoch, then start. */
static int by_event_start(const void *a, const void *b, void *arg)
{
	const struct event_order *o = arg;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct an_event *x = &o->job->ev[i], *y = &o->job->ev[j];

	if (o->epoch[i] != o->epoch[j])
		return (o->epoch[i] > o->epoch[j]) - (o->epoch[i] < o->epoch[j]);
	if (x->start != y->start)
		return (x->start > y->start) - (x->start < y->start);
	return (*(const size_t *)a > *(const size_t *)b) -
	       (*(const size_t *)a < *(const size_t *)b);
}

int an_header_updates(const struct an_job *job, const struct an_settings *set, json_object *res,
		      double *confidence)
{
	json_object *findings = json_object_new_array(), *common, *specific, *sizes, *ev;
	struct extents *ext = NULL;
	struct update *up = NULL;
	size_t nup = 0, capup = 0, i, k, ncommon = 0, nspecific = 0, nw = 0, *order = NULL;
	uint32_t *epoch = NULL;
	int32_t *updaters = NULL;
	size_t nupdaters = 0;
	char text[512];
	int rc = 0;

	json_object_object_add(res, "findings", findings);
	if (job->imported && !job->traced_ranks) {
		json_object_array_add(
			findings, an_finding(job, AN_F_IMPORTED,
					     "the log was imported from another tool's, which does "
					     "not record rewrites in place: header updates are "
					     "unknown",
					     NULL));
		*confidence = 0;
		return 0;
	}
	if (!job->traced_ranks) {
		int64_t n = 0, bytes = 0, untracked = 0;

		for (i = 0; i < job->nrecs; i++)
			if (job->recs[i].module == IOA_MOD_POSIX) {
				n += job->recs[i].c[POSIX_OVERWRITES];
				bytes += job->recs[i].c[POSIX_OVERWRITE_BYTES];
				untracked += job->recs[i].c[POSIX_OVERWRITE_UNTRACKED_BYTES];
			}
		json_object_object_add(res, "updates", json_object_new_int64(n));
		json_object_object_add(res, "bytes", json_object_new_int64(bytes));
		/* The runtime could not keep every written range: at least these. */
		json_object_object_add(res, "lower_bound", json_object_new_boolean(untracked > 0));
		json_object_object_add(res, "source", json_object_new_string("counters"));
		*confidence = 0.5;
		return 0;
	}
	/* The result holds these from the start, so that no way out leaks them. */
	json_object_object_add(res, "sizes", sizes = json_object_new_object());
	json_object_object_add(res, "common_offsets", common = json_object_new_array());
	json_object_object_add(res, "rank_specific", specific = json_object_new_array());
	/*
	 * The writes of every rank in the order they happened (epochs, then
	 * the job's clock): a write of bytes that any rank wrote before is an
	 * update.
	 */
	for (i = 0; i < job->nev; i++)
		nw += is_plain_write(job, &job->ev[i]);
	order = calloc(nw + 1, sizeof(*order));
	ext = calloc(job->nfiles + 1, sizeof(*ext));
	epoch = an_epochs(job);
	if (!order || !ext || !epoch)
		rc = -ENOMEM;
	for (i = 0, nw = 0; !rc && i < job->nev; i++)
		if (is_plain_write(job, &job->ev[i]))
			order[nw++] = i;
	if (!rc) {
		struct event_order o = {job, epoch};

		qsort_r(order, nw, sizeof(*order), by_event_start, &o);
	}
	for (i = 0; i < nw && !rc; i++) {
		const struct an_event *e = &job->ev[order[i]];

		if (e->length <= set->header_max_bytes &&
		    covered(&ext[e->file], e->offset, e->offset + e->length)) {
			if (nup == capup) {
				struct update *more =
					realloc(up, (capup = capup ? capup * 2 : 64) * sizeof(*up));

				if (!more) {
					rc = -ENOMEM;
					break;
				}
				up = more;
			}
			up[nup++] =
				(struct update){e->rank, e->file, e->offset, e->length, e->start};
			continue;
		}
		rc = extend(&ext[e->file], e->offset, e->offset + e->length);
	}
	for (k = 0; ext && k < job->nfiles; k++)
		free(ext[k].x);
	free(ext);
	free(order);
	free(epoch);
	if (!rc && !(updaters = calloc((size_t)job->nprocs + 1, sizeof(*updaters))))
		rc = -ENOMEM;
	if (rc) {
		free(up);
		return rc;
	}
	/* The ranks that update anything; an offset all of them update is common to the ranks. */
	for (i = 0; i < nup; i++)
		if (up[i].rank >= 0 && up[i].rank < job->nprocs && !updaters[up[i].rank]++)
			nupdaters++;
	if (nup)
		qsort(up, nup, sizeof(*up), by_offset);
	for (i = 0; i < nup; i = k) {
		size_t ranks = 0;
		int32_t last = -1;

		for (k = i; k < nup && up[k].offset == up[i].offset; k++) {
			ranks += up[k].rank != last;
			last = up[k].rank;
		}
		if (nupdaters >= 2 && ranks == nupdaters) {
			if (ncommon++ < MAX_LISTED)
				json_object_array_add(common, ints3("offset", up[i].offset,
								    "length", up[i].length,
								    "updates", (int64_t)(k - i)));
		} else {
			size_t j;

			for (j = i; j < k; j++)
				if (nspecific++ < MAX_LISTED)
					json_object_array_add(specific,
							      ints3("rank", up[j].rank, "offset",
								    up[j].offset, "length",
								    up[j].length));
		}
	}
	for (i = 0; i < nup; i++) {
		char len[24];
		json_object *v;

		snprintf(len, sizeof(len), "%lld", (long long)up[i].length);
		v = json_object_object_get(sizes, len);
		json_object_object_add(sizes, len,
				       json_object_new_int64(v ? json_object_get_int64(v) + 1 : 1));
	}
	json_object_object_add(res, "source", json_object_new_string("trace"));
	json_object_object_add(res, "updates", json_object_new_int64((int64_t)nup));
	json_object_object_add(res, "ranks_updating", json_object_new_int64((int64_t)nupdaters));
	json_object_object_add(res, "common_offset_count", json_object_new_int64((int64_t)ncommon));
	json_object_object_add(res, "rank_specific_count",
			       json_object_new_int64((int64_t)nspecific));
	/* Per checkpoint: how many updates follow each write phase. */
	{
		int prc;
		const struct an_phases *ph = an_job_phases(job, set, &prc);

		if (ph) {
			json_object *per = json_object_new_array();

			for (k = 0; k < ph->n; k++) {
				double from = ph->p[k].start,
				       to = k + 1 < ph->n ? ph->p[k + 1].start : 1e300;
				int64_t n = 0;

				for (i = 0; i < nup; i++)
					n += up[i].start >= from && up[i].start < to;
				json_object_array_add(per, json_object_new_int64(n));
			}
			json_object_object_add(res, "per_phase", per);
		}
	}
	if (nup) {
		ev = json_object_new_object();
		json_object_object_add(ev, "updates", json_object_new_int64((int64_t)nup));
		json_object_object_add(ev, "sizes", json_object_get(sizes));
		json_object_object_add(ev, "common_offsets", json_object_get(common));
		json_object_object_add(ev, "rank_specific_count",
				       json_object_new_int64((int64_t)nspecific));
		snprintf(text, sizeof(text),
			 "%zu in-place update%s of bytes already written (header updates) by %zu "
			 "rank%s: %zu offset%s common to all of them, %zu rank-specific",
			 nup, nup == 1 ? "" : "s", nupdaters, nupdaters == 1 ? "" : "s", ncommon,
			 ncommon == 1 ? "" : "s", nspecific);
		json_object_array_add(findings, an_finding(job, AN_F_HEADER_UPDATES, text, ev));
	}
	*confidence = job->trace_partial ? 0.6 : 0.9;
	free(up);
	free(updaters);
	return 0;
}
