/*
 * an_common — what several analyses share: write phases, size bins,
 * statistics, rank lists, findings, errno names (see analyze.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "ioa_logfmt.h"
#include "ioa_trace.h"

const char *const an_size_bin_names[10] = {"0-100", "100-1K", "1K-10K",	  "10K-100K", "100K-1M",
					   "1M-4M", "4M-10M", "10M-100M", "100M-1G",  "1G+"};

unsigned an_size_bin(int64_t n)
{
	static const int64_t upper[9] = {100,	  1024,	    10240,     102400,	  1048576,
					 4194304, 10485760, 104857600, 1073741824};
	unsigned b;

	for (b = 0; b < 9; b++)
		if (n <= upper[b])
			return b;
	return 9;
}

double an_cv(const double *v, size_t n, double *mean)
{
	double sum = 0, sq = 0, m;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	m = n ? sum / (double)n : 0;
	if (mean)
		*mean = m;
	if (n < 2 || m == 0)
		return 0;
	for (i = 0; i < n; i++)
		sq += (v[i] - m) * (v[i] - m);
	return sqrt(sq / (double)n) / fabs(m);
}

json_object *an_result_entry(const struct an_analysis *a, double confidence, json_object *result)
{
	json_object *one = json_object_new_object();

	json_object_object_add(one, "analysis", json_object_new_string(a->name));
	json_object_object_add(one, "version", json_object_new_int(a->version));
	json_object_object_add(one, "confidence", an_num(confidence));
	json_object_object_add(one, "result", result);
	return one;
}

json_object *an_num(double v)
{
	return json_object_new_double(isfinite(v) ? v : 0);
}

json_object *an_rank_list(const int32_t *ranks, size_t n)
{
	struct ioa_buf b = IOA_BUF_INIT(1 << 20);
	json_object *s;
	size_t i = 0, j;

	while (i < n) {
		for (j = i; j + 1 < n && ranks[j + 1] == ranks[j] + 1; j++)
			;
		if (j > i)
			ioa_buf_addf(&b, "%s%d-%d", b.len ? "," : "", ranks[i], ranks[j]);
		else
			ioa_buf_addf(&b, "%s%d", b.len ? "," : "", ranks[i]);
		i = j + 1;
	}
	s = json_object_new_string(ioa_buf_str(&b));
	ioa_buf_release(&b);
	return s;
}

double an_mpi_startup(const struct an_job *job)
{
	double *ends = malloc(((size_t)job->traced_ranks + 1) * sizeof(*ends)), med;
	size_t i, n = 0;
	int32_t last = -1;

	if (!ends)
		return 0;
	/* Events come rank by rank: each rank's first MPI_Init counts. */
	for (i = 0; i < job->nev && n < (size_t)job->traced_ranks; i++) {
		const struct an_sig *s = &job->sigs[job->ev[i].sig];

		if (job->ev[i].rank == last || s->module != IOA_TRACE_MPI ||
		    (strcmp(s->name, "Init") && strcmp(s->name, "Init_thread")))
			continue;
		last = job->ev[i].rank;
		ends[n++] = job->ev[i].start + job->ev[i].dur;
	}
	med = an_median(ends, n);
	free(ends);
	return med > 0 && med < job->seconds ? med : 0;
}

double an_run_seconds(const struct an_job *job)
{
	double run = job->seconds - job->startup;

	return run > 1e-3 ? run : job->seconds > 1e-3 ? job->seconds : 1e-3;
}

const struct an_finding_def an_findings[AN_NFINDINGS] = {
#define X(id, code, kind, setting, meaning, advice, hdf5, netcdf, adios) \
	[AN_F_##id] = {code, kind, setting, meaning, {advice, advice, hdf5, netcdf, adios}},
	AN_FINDINGS(X)
#undef X
};

const char *const an_user_layer_names[AN_USER_LAYERS] = {"posix", "mpiio", "hdf5", "netcdf",
							 "adios"};

enum an_user_layer an_user_layer(const struct an_job *job)
{
	unsigned libs = job->io_libs;
	int mpiio = 0;
	size_t i;

	/* A Darshan log says it with its records of the layers above MPI-IO. */
	for (i = 0; i < job->nrecs; i++) {
		enum ioa_module m = job->recs[i].module;

		libs |= m == IOA_MOD_H5F || m == IOA_MOD_H5D ? IOA_LIB_HDF5 : 0;
		libs |= m == IOA_MOD_PNETCDF_FILE || m == IOA_MOD_PNETCDF_VAR ? IOA_LIB_PNETCDF : 0;
		mpiio |= m == IOA_MOD_MPIIO;
	}
	/* ADIOS and NetCDF-4 load HDF5 beneath them: the library on top is the user's. */
	if (libs & (IOA_LIB_ADIOS | IOA_LIB_ADIOS2))
		return AN_USER_ADIOS;
	if (libs & (IOA_LIB_NETCDF | IOA_LIB_PNETCDF))
		return AN_USER_NETCDF;
	if (libs & IOA_LIB_HDF5)
		return AN_USER_HDF5;
	return mpiio ? AN_USER_MPIIO : AN_USER_POSIX;
}

json_object *an_finding(const struct an_job *job, enum an_finding_id id, const char *text,
			json_object *evidence)
{
	const struct an_finding_def *d = &an_findings[id];
	enum an_user_layer layer = an_user_layer(job);
	json_object *f = json_object_new_object();
	const char *advice = d->advice[layer];

	/* A layer without advice of its own gets the one for the calls beneath it. */
	if (!advice && layer > AN_USER_MPIIO) {
		advice = d->advice[AN_USER_MPIIO];
		layer = AN_USER_MPIIO;
	}
	json_object_object_add(f, "code", json_object_new_string(d->code));
	json_object_object_add(f, "text", json_object_new_string(text));
	json_object_object_add(f, "evidence", evidence ? evidence : json_object_new_object());
	json_object_object_add(f, "meaning", json_object_new_string(d->meaning));
	if (advice) {
		json_object_object_add(f, "recommendation", json_object_new_string(advice));
		json_object_object_add(f, "advice_for",
				       json_object_new_string(an_user_layer_names[layer]));
	}
	return f;
}

/* ------------------------------------------------------------ write phases */

struct interval {
	double start, end;
	size_t ev;
};

static int by_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y) - (x > y);
}

/*
 * Whether event e is a write the application asked for: at the layer it
 * called (an MPI-IO write, or a POSIX or STDIO one not made inside an
 * MPI-IO call), so that bytes count once, for the rank that wrote them.
 */
static int app_write(const struct an_job *job, const struct an_event *e)
{
	const struct an_sig *s = &job->sigs[e->sig];

	return (s->flags & IOA_TR_WRITE) && !(s->flags & (IOA_TR_SUB | IOA_TR_FAILED)) &&
	       s->module != IOA_TRACE_MPI && e->length > 0;
}

/*
 * Whether event e is a write reaching the file system (POSIX or STDIO,
 * inside MPI-IO calls too).  With the application's own writes, they time
 * each rank's bursts: an aggregator's, and the others' collective calls.
 */
static int fs_write(const struct an_job *job, const struct an_event *e)
{
	const struct an_sig *s = &job->sigs[e->sig];

	return (s->flags & IOA_TR_WRITE) && !(s->flags & IOA_TR_FAILED) &&
	       (s->module == IOA_MOD_POSIX || s->module == IOA_MOD_STDIO) && e->length > 0;
}

/*
 * Whether file is a standard stream: what a program prints is never a
 * checkpoint, however much of it there is.
 */
static int is_stream(const struct an_job *job, int32_t file)
{
	const char *name = file >= 0 && (size_t)file < job->nfiles ? job->files[file].name : NULL;

	return name &&
	       (!strcmp(name, "<STDOUT>") || !strcmp(name, "<STDERR>") || !strcmp(name, "<STDIN>"));
}

static int phase_add_file(struct an_phase *p, int32_t file)
{
	size_t i;
	int32_t *files;

	if (file < 0)
		return 0;
	for (i = 0; i < p->nfiles; i++)
		if (p->files[i] == file)
			return 0;
	if (!(p->nfiles & (p->nfiles - 1)) || !p->nfiles) {
		files = realloc(p->files, (p->nfiles ? p->nfiles * 2 : 4) * sizeof(*files));
		if (!files)
			return -ENOMEM;
		p->files = files;
	}
	p->files[p->nfiles++] = file;
	return 0;
}

/*
 * The quiet that separates phases: of the gaps between write activity
 * (each rank's), the largest break between consecutive sizes, as long as
 * the gap is at least the shortest quiet that counts and phase_gap_ratio
 * times longer than the next smaller gap (gaps inside a phase).  The
 * shortest quiet is the job's own time scale: phase_min_gap_share of its
 * run, at least a millisecond, at most phase_min_gap.  0: one phase.
 */
static double separating_gap(double *gaps, size_t n, const struct an_settings *set, double run)
{
	double min_gap = set->phase_min_gap_share * run, best = 0, best_ratio = 0, floor_gap;
	size_t k;

	min_gap = min_gap < 0.001 ? 0.001 : min_gap;
	min_gap = min_gap > set->phase_min_gap ? set->phase_min_gap : min_gap;
	floor_gap = min_gap / set->phase_gap_ratio;
	qsort(gaps, n, sizeof(*gaps), by_desc);
	for (k = 0; k < n; k++) {
		double next = k + 1 < n && gaps[k + 1] > floor_gap ? gaps[k + 1] : floor_gap;
		double ratio = next > 0 ? gaps[k] / next : 0;

		if (gaps[k] >= min_gap && ratio >= set->phase_gap_ratio && ratio > best_ratio) {
			best_ratio = ratio;
			best = gaps[k];
		}
	}
	return best;
}

static double distance(const struct an_phase *p, double start, double end)
{
	return p->start > end ? p->start - end : start > p->end ? start - p->end : 0;
}

/*
 * The phase an application write belongs to: the nearest in time.  Ranks'
 * times are read back from distributions and drift apart a little; the
 * quiet between phases is far longer than that.
 */
static struct an_phase *phase_of(struct an_phases *ph, double start, double end)
{
	size_t a = 0, b = ph->n;

	while (a < b) {
		size_t m = (a + b) / 2;

		if (ph->p[m].start <= end)
			a = m + 1;
		else
			b = m;
	}
	if (a == 0)
		return &ph->p[0];
	if (a < ph->n && distance(&ph->p[a], start, end) < distance(&ph->p[a - 1], start, end))
		return &ph->p[a];
	return &ph->p[a - 1];
}

/*
 * A write as the phases see it: an event of the trace, or a time bin of a
 * record when the job has no trace.  timing: it marks when the file system
 * was written; content: it is data the application wrote (bytes, ranks).
 */
struct witem {
	double start, end;
	int32_t rank, file;
	uint64_t bytes, ops;
	unsigned char timing, content;
};

static size_t write_items(const struct an_job *job, struct witem *w)
{
	unsigned char *through;
	size_t i, n = 0;

	if (job->traced_ranks) {
		for (i = 0; i < job->nev; i++) {
			const struct an_event *e = &job->ev[i];
			int c = app_write(job, e), t = c || fs_write(job, e);

			if ((t || c) && !is_stream(job, e->file))
				w[n++] = (struct witem){
					e->start,	  e->start + e->dur,   e->rank,
					e->file,	  (uint64_t)e->length, 1,
					(unsigned char)t, (unsigned char)c};
		}
		return n;
	}
	/*
	 * As with the trace: on a file written through MPI-IO, its MPI-IO bins
	 * say what each rank asked to write and its POSIX bins time the
	 * aggregators' bursts; other files' bins do both.
	 */
	through = calloc(job->nfiles + 1, 1);
	for (i = 0; through && i < job->nwbins; i++)
		if (job->wbins[i].mpiio && job->wbins[i].file >= 0 &&
		    (size_t)job->wbins[i].file < job->nfiles)
			through[job->wbins[i].file] = 1;
	for (i = 0; i < job->nwbins; i++) {
		const struct an_wbin *b = &job->wbins[i];
		int below = through && b->file >= 0 && (size_t)b->file < job->nfiles &&
			    through[b->file];

		if (is_stream(job, b->file) || (b->mpiio && !through))
			continue;
		w[n++] = (struct witem){b->start,
					b->end,
					b->rank,
					b->file,
					b->bytes,
					b->ops,
					(unsigned char)!b->mpiio,
					(unsigned char)(b->mpiio || !below)};
	}
	free(through);
	return n;
}

/* A rank's burst of writes: its k-th, and its span. */
struct burst {
	int32_t rank;
	uint32_t k;
	double start, end;
	size_t phase;
};

static int by_rank_start(const void *a, const void *b)
{
	const struct interval *x = a, *y = b;

	if (x->ev != y->ev) /* ev holds the rank here */
		return (x->ev > y->ev) - (x->ev < y->ev);
	return (x->start > y->start) - (x->start < y->start);
}

static struct an_phase *new_phase(const struct an_job *job, struct an_phases *out, double start,
				  double end)
{
	struct an_phase *more = realloc(out->p, (out->n + 1) * sizeof(*more)), *p;

	if (!more)
		return NULL;
	out->p = more;
	p = &out->p[out->n];
	memset(p, 0, sizeof(*p));
	p->start = start;
	p->end = end;
	p->rank_bytes = calloc((size_t)job->nprocs + 1, sizeof(*p->rank_bytes));
	if (!p->rank_bytes)
		return NULL;
	out->n++;
	return p;
}

/*
 * Each rank's bursts of writes: its own writes separated by a quiet of at
 * least gap.  A rank's times hold together where ranks' do not (ranks
 * start, compute and get the processor at different moments), so bursts
 * are found per rank.  iv: the timing intervals, sorted by rank then start
 * (ev: the rank).
 */
static void rank_bursts(const struct interval *iv, size_t n, double gap, struct burst *b,
			size_t *nb)
{
	size_t i;

	*nb = 0;
	for (i = 0; i < n; i++) {
		int fresh = !i || iv[i].ev != iv[i - 1].ev;

		if (fresh || (gap > 0 && iv[i].start - b[*nb - 1].end >= gap)) {
			b[*nb] = (struct burst){(int32_t)iv[i].ev, fresh ? 0 : b[*nb - 1].k + 1,
						iv[i].start, iv[i].end, 0};
			++*nb;
		} else if (iv[i].end > b[*nb - 1].end) {
			b[*nb - 1].end = iv[i].end;
		}
	}
}

/* The last burst of the rank whose bursts include b[i] (bursts sorted by rank). */
static size_t last_of_rank(const struct burst *b, size_t nb, size_t i)
{
	while (i + 1 < nb && b[i + 1].rank == b[i].rank)
		i++;
	return i;
}

/*
 * The number of bursts most ranks have (the larger on a tie), 0 when out of
 * memory.  Counted in one pass: a trace can name hundreds of thousands of
 * ranks, and comparing every rank's count with every other's took hours.
 */
static uint32_t modal_count(const struct burst *b, size_t nb)
{
	uint32_t best = 0, *ranks = calloc(nb + 1, sizeof(*ranks));
	size_t i, c;

	if (!ranks)
		return 0;
	for (i = 0; i < nb; i = last_of_rank(b, nb, i) + 1) {
		c = (size_t)b[last_of_rank(b, nb, i)].k + 1; /* a rank's bursts: at most nb */
		if (c <= nb)
			ranks[c]++;
	}
	for (c = 1; c <= nb; c++)
		if (ranks[c] && ranks[c] >= ranks[best])
			best = (uint32_t)c;
	free(ranks);
	return best;
}

static int by_phase_start(const void *a, const void *b)
{
	double x = ((const struct an_phase *)a)->start, y = ((const struct an_phase *)b)->start;

	return (x > y) - (x < y);
}

static void widen(struct an_phase *p, const struct burst *b)
{
	p->start = b->start < p->start ? b->start : p->start;
	p->end = b->end > p->end ? b->end : p->end;
}

/*
 * The phases from the bursts: the k-th bursts of the ranks with the usual
 * number of them make phase k (SPMD: ranks checkpoint together, whatever
 * their skew); another rank's burst joins the nearest phase within half
 * the separating quiet, or stands as a phase of its own (an input deck,
 * a log a single rank writes).  Each burst learns its phase.
 */
static int phases_of_bursts(const struct an_job *job, struct burst *b, size_t nb, double gap,
			    struct an_phases *out)
{
	uint32_t m = modal_count(b, nb);
	size_t i, k, last, *order;

	for (k = 0; k < m; k++)
		if (!new_phase(job, out, 1e300, -1e300))
			return -ENOMEM;
	for (i = 0; i < nb; i = last + 1) {
		last = last_of_rank(b, nb, i);
		if (b[last].k + 1 != m)
			continue;
		for (k = i; k <= last; k++) {
			widen(&out->p[b[k].k], &b[k]);
			b[k].phase = b[k].k;
		}
	}
	for (i = 0; i < nb; i = last + 1) {
		last = last_of_rank(b, nb, i);
		if (b[last].k + 1 == m)
			continue;
		for (; i <= last; i++) {
			size_t best = out->n;
			double best_d = 0;

			for (k = 0; k < out->n; k++) {
				double d = distance(&out->p[k], b[i].start, b[i].end);

				if (best == out->n || d < best_d) {
					best = k;
					best_d = d;
				}
			}
			if (best == out->n || best_d > gap / 2) {
				if (!new_phase(job, out, b[i].start, b[i].end))
					return -ENOMEM;
				best = out->n - 1;
			}
			widen(&out->p[best], &b[i]);
			b[i].phase = best;
		}
	}
	/* In time order, the bursts following their phases. */
	if (!out->n)
		return 0;
	order = malloc((out->n + 1) * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (k = 0; k < out->n; k++)
		out->p[k].ops = k; /* the old index, until the sort */
	qsort(out->p, out->n, sizeof(*out->p), by_phase_start);
	for (k = 0; k < out->n; k++) {
		order[out->p[k].ops] = k;
		out->p[k].ops = 0;
	}
	for (i = 0; i < nb; i++)
		b[i].phase = order[b[i].phase];
	free(order);
	return 0;
}

/*
 * The burst of rank (sorted bursts) nearest to [start, end] and closer to
 * it than quiet (the gap that separates bursts: one that far is another
 * burst), its distance in *dist, or NULL when the rank has none so near (in
 * that phase its data was written by others: aggregators).
 */
static const struct burst *rank_burst(const struct burst *b, size_t nb, int32_t rank, double start,
				      double end, double quiet, double *dist)
{
	const struct burst *best = NULL;
	double best_d = 0;
	size_t lo = 0, hi = nb;

	while (lo < hi) {
		size_t m = (lo + hi) / 2;

		if (b[m].rank < rank)
			lo = m + 1;
		else
			hi = m;
	}
	for (; lo < nb && b[lo].rank == rank; lo++) {
		double d = b[lo].start > end   ? b[lo].start - end
			   : start > b[lo].end ? start - b[lo].end
					       : 0;

		if (!best || d < best_d) {
			best = &b[lo];
			best_d = d;
		}
	}
	*dist = best_d;
	return best && best_d < quiet ? best : NULL;
}

/*
 * From time bins: the phases a bin [start, end] overlaps (its bytes may
 * have been written anywhere in it).  Other than one: which phase the
 * bytes belong to is a guess.
 */
static size_t near_phases(const struct an_phases *ph, double start, double end)
{
	size_t k, n = 0;

	for (k = 0; k < ph->n; k++)
		n += ph->p[k].start < end && start < ph->p[k].end;
	return n;
}

int an_write_phases(const struct an_job *job, const struct an_settings *set, struct an_phases *out)
{
	struct interval *iv;
	struct burst *bursts;
	struct witem *w;
	double *gaps, end, gap, content = 0, unsure = 0;
	size_t nw, n = 0, ngaps = 0, nb = 0, i,
		   cap = (job->traced_ranks ? job->nev : job->nwbins) + 1;
	struct an_phase *p = NULL;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->source = job->traced_ranks ? "trace" : job->nwbins ? "time bins" : "none";
	iv = malloc(cap * sizeof(*iv));
	gaps = malloc(cap * sizeof(*gaps));
	bursts = malloc(cap * sizeof(*bursts));
	w = malloc(cap * sizeof(*w));
	if (!iv || !gaps || !bursts || !w) {
		rc = -ENOMEM;
		goto out;
	}
	nw = write_items(job, w);
	/* The quiet that separates phases, from the gaps inside each rank's writes. */
	for (i = 0; i < nw; i++)
		if (w[i].timing)
			iv[n++] =
				(struct interval){w[i].start, w[i].end, (size_t)(int64_t)w[i].rank};
	qsort(iv, n, sizeof(*iv), by_rank_start);
	for (i = 1, end = n ? iv[0].end : 0; i < n; i++) {
		if (iv[i].ev != iv[i - 1].ev)
			end = iv[i].end;
		else if (iv[i].start > end)
			gaps[ngaps++] = iv[i].start - end;
		end = end > iv[i].end ? end : iv[i].end;
	}
	gap = separating_gap(gaps, ngaps, set, an_run_seconds(job));
	out->gap = gap;
	for (i = 0; !job->traced_ranks && i < job->nwbins; i++)
		if (!i || job->wbins[i].end - job->wbins[i].start < out->bin_width)
			out->bin_width = job->wbins[i].end - job->wbins[i].start;
	rank_bursts(iv, n, gap, bursts, &nb);
	rc = phases_of_bursts(job, bursts, nb, gap, out);
	/*
	 * A phase over several bins may be phases closer than a bin or two; over
	 * two bins already when the quiet that separates phases is one bin: two
	 * phases in adjacent bins then look like one.
	 */
	for (i = 0; !rc && out->bin_width > 0 && i < out->n; i++)
		if (out->p[i].end - out->p[i].start >=
		    (gap < 2 * out->bin_width ? 1.5 : 3) * out->bin_width)
			out->coarse = 1;
	/*
	 * Their contents, from the application's writes: in the phase of the
	 * rank's own burst nearest to the write, or, for a rank without a
	 * burst there (its data written by aggregators), in the nearest phase;
	 * also when another phase is nearer than the rank's burst (time bins
	 * put a rank's burst and a later aggregated write just about the
	 * separating quiet apart).  A time bin that lies within one phase
	 * alone is that phase's: the rank's own bins may run two steps into
	 * one burst when the quiet between them is shorter than a bin.
	 */
	for (i = 0; i < nw && out->n && !rc; i++) {
		double d = 0;
		const struct burst *b =
			rank_burst(bursts, nb, w[i].rank, w[i].start, w[i].end, gap, &d);
		int within_one;

		if (!w[i].content)
			continue;
		within_one = out->bin_width > 0 && near_phases(out, w[i].start, w[i].end) == 1;
		p = phase_of(out, w[i].start, w[i].end);
		if (b && !within_one && d <= distance(p, w[i].start, w[i].end))
			p = &out->p[b->phase];
		content += (double)w[i].bytes;
		if (out->bin_width > 0 && !within_one)
			unsure += (double)w[i].bytes;
		p->bytes += w[i].bytes;
		p->ops += w[i].ops;
		p->size_hist[an_size_bin((int64_t)(w[i].bytes / (w[i].ops ? w[i].ops : 1)))] +=
			w[i].ops;
		if (w[i].rank >= 0 && w[i].rank < job->nprocs)
			p->rank_bytes[w[i].rank] += w[i].bytes;
		rc = phase_add_file(p, w[i].file);
	}
	if (unsure > 0.1 * content)
		out->coarse = 1;
out:
	free(iv);
	free(gaps);
	free(bursts);
	free(w);
	if (rc)
		an_phases_free(out);
	return rc;
}

const struct an_phases *an_job_phases(const struct an_job *job, const struct an_settings *set,
				      int *rc)
{
	struct an_phases_memo *m = job->phases;

	if (!m) {
		*rc = -EINVAL;
		return NULL;
	}
	if (m->made &&
	    (m->min_gap != set->phase_min_gap || m->min_gap_share != set->phase_min_gap_share ||
	     m->gap_ratio != set->phase_gap_ratio)) {
		an_phases_free(&m->ph);
		m->made = 0;
	}
	if (!m->made) {
		m->rc = an_write_phases(job, set, &m->ph);
		m->min_gap = set->phase_min_gap;
		m->min_gap_share = set->phase_min_gap_share;
		m->gap_ratio = set->phase_gap_ratio;
		m->made = 1;
	}
	*rc = m->rc;
	return m->rc ? NULL : &m->ph;
}

void an_phases_free(struct an_phases *ph)
{
	size_t i;

	for (i = 0; i < ph->n; i++) {
		free(ph->p[i].rank_bytes);
		free(ph->p[i].files);
	}
	free(ph->p);
	memset(ph, 0, sizeof(*ph));
}

/* A record's seconds of one layer, by kind (negative: not recorded, none). */
static void layer_times(const struct an_record *r, int *layer, double v[AN_KINDS])
{
	static const struct {
		enum ioa_module module;
		int layer, fc[AN_KINDS];
	} map[] = {
		{IOA_MOD_POSIX,
		 AN_POSIX,
		 {POSIX_F_READ_TIME, POSIX_F_WRITE_TIME, POSIX_F_META_TIME}},
		{IOA_MOD_STDIO,
		 AN_STDIO,
		 {STDIO_F_READ_TIME, STDIO_F_WRITE_TIME, STDIO_F_META_TIME}},
		{IOA_MOD_MPIIO,
		 AN_MPIIO,
		 {MPIIO_F_READ_TIME, MPIIO_F_WRITE_TIME, MPIIO_F_META_TIME}},
	};
	size_t i;
	int k;

	*layer = -1;
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (map[i].module != r->module)
			continue;
		*layer = map[i].layer;
		for (k = 0; k < AN_KINDS; k++)
			v[k] = r->f[map[i].fc[k]] > 0 ? r->f[map[i].fc[k]] : 0;
	}
}

void an_record_rw(const struct an_record *r, int64_t rw[4])
{
	const int64_t *c = r->c;

	memset(rw, 0, 4 * sizeof(*rw));
	switch (r->module) {
	case IOA_MOD_POSIX:
		rw[0] = c[POSIX_READS];
		rw[1] = c[POSIX_WRITES];
		rw[2] = c[POSIX_BYTES_READ];
		rw[3] = c[POSIX_BYTES_WRITTEN];
		break;
	case IOA_MOD_STDIO:
		rw[0] = c[STDIO_READS];
		rw[1] = c[STDIO_WRITES];
		rw[2] = c[STDIO_BYTES_READ];
		rw[3] = c[STDIO_BYTES_WRITTEN];
		break;
	case IOA_MOD_MPIIO:
		rw[0] = ioa_counter_sat_add(c[MPIIO_INDEP_READS], c[MPIIO_COLL_READS]);
		rw[1] = ioa_counter_sat_add(c[MPIIO_INDEP_WRITES], c[MPIIO_COLL_WRITES]);
		rw[2] = c[MPIIO_BYTES_READ];
		rw[3] = c[MPIIO_BYTES_WRITTEN];
		break;
	case IOA_MOD_H5D:
		rw[0] = c[H5D_READS];
		rw[1] = c[H5D_WRITES];
		rw[2] = c[H5D_BYTES_READ];
		rw[3] = c[H5D_BYTES_WRITTEN];
		break;
	case IOA_MOD_PNETCDF_VAR:
		rw[0] = ioa_counter_sat_add(
			ioa_counter_sat_add(c[PNETCDF_VAR_INDEP_READS], c[PNETCDF_VAR_COLL_READS]),
			c[PNETCDF_VAR_NB_READS]);
		rw[1] = ioa_counter_sat_add(ioa_counter_sat_add(c[PNETCDF_VAR_INDEP_WRITES],
								c[PNETCDF_VAR_COLL_WRITES]),
					    c[PNETCDF_VAR_NB_WRITES]);
		rw[2] = c[PNETCDF_VAR_BYTES_READ];
		rw[3] = c[PNETCDF_VAR_BYTES_WRITTEN];
		break;
	default:
		break;
	}
}

double an_record_io_time(const struct an_record *r)
{
	double v[AN_KINDS];
	int layer;

	if (r->module == IOA_MOD_H5F)
		return r->f[H5F_F_META_TIME] > 0 ? r->f[H5F_F_META_TIME] : 0;
	if (r->module == IOA_MOD_H5D) /* the time of the MPI-IO and POSIX calls beneath included */
		return (r->f[H5D_F_READ_TIME] > 0 ? r->f[H5D_F_READ_TIME] : 0) +
		       (r->f[H5D_F_WRITE_TIME] > 0 ? r->f[H5D_F_WRITE_TIME] : 0) +
		       (r->f[H5D_F_META_TIME] > 0 ? r->f[H5D_F_META_TIME] : 0);
	layer_times(r, &layer, v);
	return layer < 0 ? 0 : v[AN_READ] + v[AN_WRITE] + v[AN_META];
}

int an_io_time(const struct an_job *job, struct an_io_time *t)
{
	/* Per file (and one slot for records without a file): each layer's kinds. */
	double(*f)[AN_LAYERS][AN_KINDS] = calloc(job->nfiles + 1, sizeof(*f));
	double v[AN_KINDS];
	size_t i;
	int layer, k;

	memset(t, 0, sizeof(*t));
	if (!f)
		return -ENOMEM;
	for (i = 0; i < job->nrecs; i++) {
		const struct an_record *r = &job->recs[i];
		size_t slot = r->file >= 0 && (size_t)r->file < job->nfiles ? (size_t)r->file
									    : job->nfiles;

		layer_times(r, &layer, v);
		for (k = 0; layer >= 0 && k < AN_KINDS; k++) {
			f[slot][layer][k] += v[k];
			t->layer[layer][k] += v[k];
			t->layer_total[layer] += v[k];
		}
	}
	for (i = 0; i <= job->nfiles; i++) {
		double posix = 0, mpiio = 0, excess;

		for (k = 0; k < AN_KINDS; k++) {
			posix += f[i][AN_POSIX][k];
			mpiio += f[i][AN_MPIIO][k];
		}
		/* The POSIX time MPI-IO's calls do not cover, shared out by kind. */
		excess = mpiio > 0 ? (posix > mpiio ? (posix - mpiio) / posix : 0) : 1;
		for (k = 0; k < AN_KINDS; k++)
			t->kind[k] +=
				f[i][AN_MPIIO][k] + f[i][AN_POSIX][k] * excess + f[i][AN_STDIO][k];
	}
	for (k = 0; k < AN_KINDS; k++)
		t->total += t->kind[k];
	free(f);
	return 0;
}

/* Collectives after which no rank goes on before every rank arrived. */
static int synchronizes(const struct an_sig *s)
{
	static const char *const names[] = {"Barrier",	"Allreduce", "Allgather", "Allgatherv",
					    "Alltoall", "Alltoallv", "Alltoallw", "Reduce_scatter"};
	size_t i;

	if (s->module != IOA_TRACE_MPI)
		return 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s->name, names[i]))
			return 1;
	return 0;
}

uint32_t *an_epochs(const struct an_job *job)
{
	uint32_t *epoch = calloc(job->nev + 1, sizeof(*epoch)), n = 0, first = 0;
	int32_t rank = -1;
	int alike = 1, seen = 0;
	size_t i;

	for (i = 0; epoch && i <= job->nev; i++) {
		if (i == job->nev || job->ev[i].rank != rank) {
			if (seen && n != first)
				alike = 0;
			if (!seen)
				first = n;
			seen |= rank >= 0;
			if (i == job->nev)
				break;
			rank = job->ev[i].rank;
			n = 0;
		}
		epoch[i] = n;
		n += synchronizes(&job->sigs[job->ev[i].sig]);
	}
	if (epoch && !alike)
		memset(epoch, 0, (job->nev + 1) * sizeof(*epoch));
	return epoch;
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double an_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), by_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* At most this many collective ends (ranks x collectives) are aligned. */
#define ALIGN_MAX_ENDS ((size_t)1 << 24)

int an_align_at_collectives(struct an_job *job)
{
	uint32_t *epoch = an_epochs(job), count = 0;
	double *ends = NULL, *ref = NULL, *column = NULL;
	size_t i, n = (size_t)(job->nprocs > 0 ? job->nprocs : 0), e;
	int rc = 0;

	if (!epoch)
		return -ENOMEM;
	for (i = 0; i < job->nev; i++)
		if (epoch[i] + 1 > count && synchronizes(&job->sigs[job->ev[i].sig]))
			count = epoch[i] + 1;
	if (!count || !n || n > ALIGN_MAX_ENDS / count)
		goto out;
	ends = malloc(n * count * sizeof(*ends));
	ref = calloc(count, sizeof(*ref));
	column = malloc(n * sizeof(*column));
	if (!ends || !ref || !column) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n * count; i++)
		ends[i] = NAN;
	for (i = 0; i < job->nev; i++) {
		const struct an_event *ev = &job->ev[i];

		if (synchronizes(&job->sigs[ev->sig]) && ev->rank >= 0 && (size_t)ev->rank < n)
			ends[(size_t)ev->rank * count + epoch[i]] = ev->start + ev->dur;
	}
	/* Each collective's end: the median of the ranks' (those that made it). */
	for (e = 0; e < count; e++) {
		size_t m = 0, r;

		for (r = 0; r < n; r++)
			if (!isnan(ends[r * count + e]))
				column[m++] = ends[r * count + e];
		qsort(column, m, sizeof(*column), by_double);
		ref[e] = m ? column[m / 2] : NAN;
	}
	for (i = 0; i < job->nev; i++) {
		struct an_event *ev = &job->ev[i];
		size_t r = (size_t)ev->rank;
		double end, delta;

		if (ev->rank < 0 || r >= n || !epoch[i])
			continue;
		delta = ref[epoch[i] - 1] - ends[r * count + epoch[i] - 1];
		if (isnan(delta))
			continue;
		ev->start += delta;
		/* A collective lasts until the last rank arrived: it ends where the others' do. */
		if (synchronizes(&job->sigs[ev->sig]) && !isnan(ref[epoch[i]])) {
			end = ref[epoch[i]];
			ev->dur = end > ev->start ? end - ev->start : 0;
		}
	}
out:
	free(column);
	free(ref);
	free(ends);
	free(epoch);
	return rc;
}
