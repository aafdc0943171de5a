/*
 * an_phases — the analyses of write phases: checkpoints (bursts of writes
 * that recur, their period and size, in total and per rank, and their
 * files) and the adaptive mesh refinement signature (checkpoint sizes that
 * change, per-rank data that varies widely within a checkpoint).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "ioa_parse.h"

/* Phases smaller than this share of the largest are minor (a log line, a small output). */
#define MINOR_SHARE 0.05
/* Results list this many phases and ranks at most (the counts say what was left out). */
#define MAX_LISTED_PHASES 256
#define MAX_LISTED_RANKS  1024

static size_t writers(const struct an_job *job, const struct an_phase *p)
{
	size_t n = 0;
	int32_t r;

	for (r = 0; r < job->nprocs; r++)
		n += p->rank_bytes[r] > 0;
	return n;
}

/*
 * The checkpoints: phases that are not minor, by size or by writers (an
 * input deck or a log that one rank writes, where the checkpoints have all
 * ranks writing).
 */
static size_t major_phases(const struct an_job *job, const struct an_phases *ph, size_t *idx)
{
	uint64_t largest = 0;
	size_t i, n = 0, most = 0;

	for (i = 0; i < ph->n; i++) {
		size_t w = writers(job, &ph->p[i]);

		largest = ph->p[i].bytes > largest ? ph->p[i].bytes : largest;
		most = w > most ? w : most;
	}
	for (i = 0; i < ph->n; i++)
		if ((double)ph->p[i].bytes >= MINOR_SHARE * (double)largest &&
		    2 * writers(job, &ph->p[i]) >= most)
			idx[n++] = i;
	return n;
}

/* Per-rank bytes of a phase over the ranks that wrote in it: count, min, median, max, cv. */
/* The ranks' bytes in a phase: their spread (cv), leaving out rank skip (-1: none). */
static json_object *rank_spread(const struct an_job *job, const struct an_phase *p, int32_t skip,
				double *cv)
{
	json_object *o = json_object_new_object();
	double *v = malloc(((size_t)job->nprocs + 1) * sizeof(*v)), mean = 0;
	size_t n = 0;
	int32_t r;

	*cv = 0;
	if (!v)
		return o;
	for (r = 0; r < job->nprocs; r++)
		if (p->rank_bytes[r] && r != skip)
			v[n++] = (double)p->rank_bytes[r];
	*cv = an_cv(v, n, &mean);
	json_object_object_add(o, "ranks_writing", json_object_new_int64((int64_t)n));
	json_object_object_add(o, "mean", an_num(mean));
	json_object_object_add(o, "cv", an_num(*cv));
	if (n) {
		double med = an_median(v, n);

		json_object_object_add(o, "min", an_num(v[0]));
		json_object_object_add(o, "median", an_num(med));
		json_object_object_add(o, "max", an_num(v[n - 1]));
	}
	free(v);
	return o;
}

static json_object *file_names(const struct an_job *job, const int32_t *files, size_t n)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n && i < 32; i++)
		json_object_array_add(a, json_object_new_string(job->files[files[i]].name));
	return a;
}

static json_object *phase_json(const struct an_job *job, const struct an_phase *p, int major)
{
	json_object *o = json_object_new_object(), *sizes = json_object_new_object();
	double cv;
	unsigned b;

	json_object_object_add(o, "start", an_num(p->start));
	json_object_object_add(o, "end", an_num(p->end));
	json_object_object_add(o, "bytes", json_object_new_int64((int64_t)p->bytes));
	json_object_object_add(o, "ops", json_object_new_int64((int64_t)p->ops));
	json_object_object_add(o, "checkpoint", json_object_new_boolean(major));
	json_object_object_add(o, "per_rank", rank_spread(job, p, -1, &cv));
	if (job->nprocs <= MAX_LISTED_RANKS) {
		json_object *rb = json_object_new_array();
		int32_t r;

		for (r = 0; r < job->nprocs; r++)
			json_object_array_add(rb, json_object_new_int64((int64_t)p->rank_bytes[r]));
		json_object_object_add(o, "rank_bytes", rb);
	}
	json_object_object_add(o, "files_written", json_object_new_int64((int64_t)p->nfiles));
	json_object_object_add(o, "files", file_names(job, p->files, p->nfiles));
	for (b = 0; b < 10; b++)
		if (p->size_hist[b])
			json_object_object_add(sizes, an_size_bin_names[b],
					       json_object_new_int64((int64_t)p->size_hist[b]));
	json_object_object_add(o, "sizes", sizes);
	return o;
}

/* Phases from time bins too coarse to tell them apart (an_phases.coarse). */
static json_object *coarse_finding(const struct an_job *job, const struct an_phases *ph)
{
	json_object *ev = json_object_new_object();
	char text[512];

	json_object_object_add(ev, "bin_width", an_num(ph->bin_width));
	json_object_object_add(ev, "separating_gap", an_num(ph->gap));
	snprintf(text, sizeof(text),
		 "the time bins (%.3g s wide) are too coarse to tell these write phases "
		 "apart for sure (phases closer than a bin or two look like one, and bytes "
		 "between phases could be either's); the operation trace tells them apart",
		 ph->bin_width);
	return an_finding(job, AN_F_COARSE_TIME_BINS, text, ev);
}

int an_checkpoints(const struct an_job *job, const struct an_settings *set, json_object *res,
		   double *confidence)
{
	json_object *phases = json_object_new_array(), *findings = json_object_new_array();
	size_t *idx, n, i;
	char text[512], size[32];
	int rc;
	const struct an_phases *ph = an_job_phases(job, set, &rc);

	json_object_object_add(res, "findings", findings);
	json_object_object_add(res, "phases", phases);
	if (rc)
		return rc;
	json_object_object_add(res, "source", json_object_new_string(ph->source));
	json_object_object_add(res, "separating_gap", an_num(ph->gap));
	json_object_object_add(res, "trace_partial", json_object_new_boolean(job->trace_partial));
	idx = malloc((ph->n + 1) * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	n = major_phases(job, ph, idx);
	for (i = 0; i < ph->n && i < MAX_LISTED_PHASES; i++) {
		size_t k;
		int major = 0;

		for (k = 0; k < n; k++)
			major |= idx[k] == i;
		json_object_array_add(phases, phase_json(job, &ph->p[i], major));
	}
	json_object_object_add(res, "phases_total", json_object_new_int64((int64_t)ph->n));
	json_object_object_add(res, "checkpoints", json_object_new_int64((int64_t)n));
	if (!job->traced_ranks && !job->nwbins) {
		json_object_array_add(
			findings,
			an_finding(job, AN_F_NO_TRACE,
				   "no operation trace and no time bins: write phases are "
				   "unknown",
				   NULL));
		*confidence = 0;
	} else if (n >= 2) {
		double *iv = malloc(n * sizeof(*iv)), mean_bytes = 0, period = 0, cv = 0;
		json_object *ev = json_object_new_object(), *bytes = json_object_new_array();

		for (i = 0; i < n; i++) {
			mean_bytes += (double)ph->p[idx[i]].bytes / (double)n;
			json_object_array_add(bytes,
					      json_object_new_int64((int64_t)ph->p[idx[i]].bytes));
			if (iv && i + 1 < n)
				iv[i] = ph->p[idx[i + 1]].start - ph->p[idx[i]].start;
		}
		if (iv) {
			cv = an_cv(iv, n - 1, NULL);
			period = an_median(iv, n - 1);
		}
		free(iv);
		json_object_object_add(res, "period", an_num(period));
		json_object_object_add(res, "interval_cv", an_num(cv));
		json_object_object_add(ev, "count", json_object_new_int64((int64_t)n));
		json_object_object_add(ev, "period", an_num(period));
		json_object_object_add(ev, "interval_cv", an_num(cv));
		json_object_object_add(ev, "bytes", bytes);
		snprintf(text, sizeof(text),
			 "%zu checkpoints, one every %.3g s, %s each on average", n, period,
			 ioa_format_bytes(mean_bytes, size, sizeof(size)));
		json_object_array_add(findings, an_finding(job, AN_F_CHECKPOINTS, text, ev));
		*confidence = n >= 3 ? (cv < 0.25 ? 0.9 : 0.7) : 0.6;
	} else if (n == 1) {
		json_object *ev = json_object_new_object();

		json_object_object_add(ev, "bytes",
				       json_object_new_int64((int64_t)ph->p[idx[0]].bytes));
		snprintf(text, sizeof(text), "one write phase (%s): no recurring checkpoint",
			 ioa_format_bytes((double)ph->p[idx[0]].bytes, size, sizeof(size)));
		json_object_array_add(findings, an_finding(job, AN_F_SINGLE_WRITE_PHASE, text, ev));
		*confidence = 0.7;
	} else {
		json_object_array_add(
			findings, an_finding(job, AN_F_NO_WRITES, "the job wrote nothing", NULL));
		*confidence = 0.9;
	}
	/* Time bins are coarse (16 per record over the run) and see the file system's writers. */
	if (job->trace_partial || !job->traced_ranks)
		*confidence *= 0.7;
	if (ph->coarse) {
		json_object_array_add(findings, coarse_finding(job, ph));
		*confidence *= 0.3;
	}
	free(idx);
	return 0;
}

/* ------------------------------------------------------------ AMR */

/* How checkpoint sizes move: constant, growing, growing then settling, shrinking, varying. */
static const char *size_shape(const double *s, size_t n, double change)
{
	double lo = s[0], hi = s[0], step = change / 4;
	size_t i, rises = 0, falls = 0;

	for (i = 0; i < n; i++) {
		lo = s[i] < lo ? s[i] : lo;
		hi = s[i] > hi ? s[i] : hi;
	}
	if (hi <= 0 || (hi - lo) / hi < change)
		return "constant";
	for (i = 0; i + 1 < n; i++) {
		rises += s[i + 1] > s[i] * (1 + step);
		falls += s[i + 1] < s[i] * (1 - step);
	}
	if (!falls && n >= 3 && fabs(s[n - 1] - s[n - 2]) <= step * s[n - 1] && rises)
		return "growing then settling";
	if (!falls)
		return "growing";
	if (!rises)
		return "shrinking";
	return "varying";
}

/*
 * The head writer of the checkpoints: one rank writing more than twice
 * the median rank over them all, of three or more writers.  Its extra
 * bytes are a library's metadata, index or header (ADIOS's index grows
 * with every step it appends, HDF5's and NetCDF's metadata sit on rank 0),
 * not the mesh: the AMR signature is read on the other ranks.  -1: none.
 */
static int32_t head_writer(const struct an_job *job, const struct an_phases *ph, const size_t *idx,
			   size_t n)
{
	double *tot = calloc(2 * ((size_t)job->nprocs + 1), sizeof(*tot)), *v;
	int32_t r, head = -1;
	size_t i, writers = 0;

	if (!tot)
		return -1;
	v = tot + job->nprocs + 1;
	for (i = 0; i < n; i++)
		for (r = 0; r < job->nprocs; r++)
			tot[r] += (double)ph->p[idx[i]].rank_bytes[r];
	for (r = 0; r < job->nprocs; r++)
		if (tot[r] > 0) {
			v[writers++] = tot[r];
			if (head < 0 || tot[r] > tot[head])
				head = r;
		}
	if (writers < 3 || tot[head] <= 2 * an_median(v, writers))
		head = -1;
	free(tot);
	return head;
}

/*
 * How far the data moved between ranks from one checkpoint to the next:
 * the largest, over consecutive checkpoints, of the share of the bytes
 * that changed rank (half the sum of the ranks' share differences, 0 to
 * 1), rank skip left out.  An AMR code that rebalances its mesh moves
 * data between ranks even when the total stays the same.
 */
static double redistribution(const struct an_job *job, const struct an_phases *ph,
			     const size_t *idx, size_t n, int32_t skip)
{
	double most = 0;
	size_t i;
	int32_t r;

	for (i = 1; i < n; i++) {
		const struct an_phase *a = &ph->p[idx[i - 1]], *b = &ph->p[idx[i]];
		double ta = 0, tb = 0, d = 0;

		for (r = 0; r < job->nprocs; r++)
			if (r != skip) {
				ta += (double)a->rank_bytes[r];
				tb += (double)b->rank_bytes[r];
			}
		if (ta <= 0 || tb <= 0)
			continue;
		for (r = 0; r < job->nprocs; r++)
			if (r != skip)
				d += fabs((double)a->rank_bytes[r] / ta -
					  (double)b->rank_bytes[r] / tb);
		most = d / 2 > most ? d / 2 : most;
	}
	return most;
}

int an_amr(const struct an_job *job, const struct an_settings *set, json_object *res,
	   double *confidence)
{
	json_object *findings = json_object_new_array(), *sizes = json_object_new_array(),
		    *cvs = json_object_new_array(), *ev;
	size_t *idx = NULL, n = 0, i;
	double *s = NULL, *c = NULL, lo = 0, hi = 0, change = 0, cv_med = 0;
	enum an_finding_id cls;
	const char *shape = "unknown";
	char text[512];
	int varying, uneven, rc;
	const struct an_phases *ph = an_job_phases(job, set, &rc);
	int32_t head = -1;
	double moved;

	/* The result holds these from the start, so that no way out leaks them. */
	json_object_object_add(res, "findings", findings);
	json_object_object_add(res, "sizes", sizes);
	json_object_object_add(res, "rank_cv", cvs);
	if (rc)
		return rc;
	idx = malloc((ph->n + 1) * sizeof(*idx));
	s = malloc((ph->n + 1) * sizeof(*s));
	c = malloc((ph->n + 1) * sizeof(*c));
	if (!idx || !s || !c) {
		rc = -ENOMEM;
		goto out;
	}
	n = major_phases(job, ph, idx);
	head = head_writer(job, ph, idx, n);
	for (i = 0; i < n; i++) {
		json_object *spread = rank_spread(job, &ph->p[idx[i]], head, &c[i]);

		json_object_put(spread);
		s[i] = (double)ph->p[idx[i]].bytes -
		       (head >= 0 ? (double)ph->p[idx[i]].rank_bytes[head] : 0);
		lo = !i || s[i] < lo ? s[i] : lo;
		hi = !i || s[i] > hi ? s[i] : hi;
		json_object_array_add(sizes, json_object_new_int64((int64_t)ph->p[idx[i]].bytes));
		json_object_array_add(cvs, an_num(c[i]));
	}
	json_object_object_add(res, "checkpoints", json_object_new_int64((int64_t)n));
	if (ph->coarse) {
		json_object_object_add(res, "classification", json_object_new_string("unknown"));
		json_object_array_add(findings, coarse_finding(job, ph));
		*confidence = 0.1;
		goto out;
	}
	if (n < 2) {
		json_object_object_add(res, "classification", json_object_new_string("unknown"));
		json_object_array_add(
			findings,
			an_finding(job, AN_F_TOO_FEW_CHECKPOINTS,
				   "fewer than two checkpoints: no AMR signature to read", NULL));
		*confidence = job->traced_ranks || job->nwbins ? 0.3 : 0;
		goto out;
	}
	change = hi > 0 ? (hi - lo) / hi : 0;
	shape = size_shape(s, n, set->amr_size_change);
	cv_med = an_median(c, n);
	moved = redistribution(job, ph, idx, n, head);
	varying = change >= set->amr_size_change || moved >= set->amr_size_change;
	uneven = job->nprocs > 1 && cv_med >= set->amr_rank_cv;
	/* One rank has no per-rank spread: its sizes alone cannot say AMR. */
	if (job->nprocs == 1)
		cls = varying ? AN_F_AMR_INCONCLUSIVE : AN_F_NOT_AMR;
	else if (varying && uneven)
		cls = AN_F_AMR;
	else if (!varying && !uneven)
		cls = AN_F_NOT_AMR;
	else
		cls = AN_F_AMR_INCONCLUSIVE;
	json_object_object_add(res, "classification",
			       json_object_new_string(an_findings[cls].code));
	json_object_object_add(res, "size_change", an_num(change));
	json_object_object_add(res, "shape", json_object_new_string(shape));
	json_object_object_add(res, "rank_cv_median", an_num(cv_med));
	json_object_object_add(res, "redistribution", an_num(moved));
	json_object_object_add(res, "head_writer", json_object_new_int64(head));
	ev = json_object_new_object();
	json_object_object_add(ev, "checkpoint_bytes", json_object_get(sizes));
	json_object_object_add(ev, "size_change", an_num(change));
	json_object_object_add(ev, "shape", json_object_new_string(shape));
	json_object_object_add(ev, "rank_cv_median", an_num(cv_med));
	json_object_object_add(ev, "redistribution", an_num(moved));
	json_object_object_add(ev, "head_rank", json_object_new_int64(head));
	json_object_object_add(ev, "thresholds", json_object_new_object());
	json_object_object_add(json_object_object_get(ev, "thresholds"), "size_change",
			       an_num(set->amr_size_change));
	json_object_object_add(json_object_object_get(ev, "thresholds"), "rank_cv",
			       an_num(set->amr_rank_cv));
	if (cls == AN_F_AMR)
		snprintf(text, sizeof(text),
			 "adaptive mesh refinement likely: checkpoint sizes %s (by %.0f%%), "
			 "%.0f%% of the data moving between ranks, and per-rank data spreads "
			 "widely (cv %.2f)",
			 shape, change * 100, moved * 100, cv_med);
	else if (cls == AN_F_NOT_AMR)
		snprintf(text, sizeof(text),
			 "no adaptive mesh refinement: checkpoints keep their size (within "
			 "%.0f%%)%s%s",
			 change * 100, job->nprocs > 1 ? " and ranks write alike" : "",
			 head >= 0 ? " (but for the head writer's metadata)" : "");
	else
		snprintf(text, sizeof(text),
			 "inconclusive: checkpoint sizes %s (by %.0f%%), per-rank spread cv %.2f",
			 shape, change * 100, cv_med);
	json_object_array_add(findings, an_finding(job, cls, text, ev));
	/* More checkpoints and clearer margins from the thresholds: more confidence. */
	*confidence = n >= 4 ? 0.9 : n == 3 ? 0.75 : 0.5;
	if (cls == AN_F_AMR_INCONCLUSIVE)
		*confidence = 0.4;
	else if (fabs(change - set->amr_size_change) < 0.2 * set->amr_size_change ||
		 (job->nprocs > 1 && fabs(cv_med - set->amr_rank_cv) < 0.2 * set->amr_rank_cv))
		*confidence *= 0.8;
	if (job->trace_partial || !job->traced_ranks)
		*confidence *= 0.7;
out:
	free(idx);
	free(s);
	free(c);
	return rc;
}
