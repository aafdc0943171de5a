/*
 * an_logload — a job straight from its log file, for a user without a
 * warehouse (`ioatlas report LOG`): the same struct an_job that an_load()
 * reads from the warehouse, through the common reader (see analyze.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze.h"
#include "ioa_logfmt.h"
#include "ioa_darshan.h"
#include "ioa_logr.h"
#include "ioa_parse.h"
#include "ioa_trace.h"

/* Largest region read: the collector's default (collector.region_cap_mib). */
#define REGION_CAP ((size_t)32 << 20)

struct mount {
	unsigned char *path;
	uint32_t len;
	char *display, *type;
};

struct logload {
	struct an_job *job;
	struct ioa_log_reader r;
	struct ioa_buf raw, text;
	uint64_t start_ns, end_ns;
	struct mount *mounts;
	size_t nmounts;
	size_t cap_mounts, cap_files, cap_recs, cap_fails, cap_hints, cap_bins, cap_pool;
	int traced;
	size_t map_len; /* entries of the rank-to-node map */
};

/* Each record's counters in the job's pool: pointed at once the pool stops moving. */
#define PER_RECORD (IOA_MAX_COUNTERS * sizeof(int64_t) + IOA_MAX_FCOUNTERS * sizeof(double))

/* Room for one more of an array (doubling). */
static int grow(void **a, size_t n, size_t *cap, size_t size)
{
	void *more;

	if (n < *cap)
		return 0;
	more = realloc(*a, (*cap ? *cap * 2 : 64) * size);
	if (!more)
		return -ENOMEM;
	*a = more;
	*cap = *cap ? *cap * 2 : 64;
	return 0;
}

static char *escaped(struct logload *l, const void *bytes, size_t len)
{
	ioa_buf_reset(&l->text);
	return ioa_buf_add_escaped(&l->text, bytes, len) ? NULL : strdup(ioa_buf_str(&l->text));
}

static uint64_t number(const unsigned char *v, uint32_t len)
{
	char digits[32];

	if (!len || len >= sizeof(digits))
		return 0;
	memcpy(digits, v, len);
	digits[len] = '\0';
	return strtoull(digits, NULL, 10);
}

static int on_job(uint16_t key, const unsigned char *v, uint32_t len, void *arg)
{
	struct logload *l = arg;
	struct an_job *job = l->job;
	uint32_t i, start = 0;

	switch (key) {
	case IOA_JOB_USER:
		free(job->user);
		return (job->user = escaped(l, v, len)) ? 0 : -ENOMEM;
	case IOA_JOB_EXE:
		free(job->exe);
		return (job->exe = escaped(l, v, len)) ? 0 : -ENOMEM;
	case IOA_JOB_JOBID:
		free(job->jobid);
		return (job->jobid = escaped(l, v, len)) ? 0 : -ENOMEM;
	case IOA_JOB_VERSION:
		free(job->version);
		return (job->version = escaped(l, v, len)) ? 0 : -ENOMEM;
	case IOA_JOB_SETTINGS:
		free(job->settings);
		return (job->settings = escaped(l, v, len)) ? 0 : -ENOMEM;
	case IOA_JOB_LOST:
		free(job->untracked);
		return (job->untracked = escaped(l, v, len)) ? 0 : -ENOMEM;
	case IOA_JOB_FOLDED:
		job->folded = number(v, len) != 0;
		return 0;
	case IOA_JOB_ARGS:
		/* NUL-separated: shown separated by spaces. */
		ioa_buf_reset(&l->text);
		for (i = 0; i < len; i++)
			if (v[i]	  ? ioa_buf_add_escaped(&l->text, v + i, 1)
			    : i + 1 < len ? ioa_buf_addstr(&l->text, " ")
					  : 0)
				return -ENOMEM;
		free(job->args);
		return (job->args = strdup(ioa_buf_str(&l->text))) ? 0 : -ENOMEM;
	case IOA_JOB_START_NS:
		l->start_ns = number(v, len);
		return 0;
	case IOA_JOB_END_NS:
		l->end_ns = number(v, len);
		return 0;
	case IOA_JOB_NPROCS:
		job->nprocs = (int32_t)(number(v, len) > INT32_MAX ? 0 : number(v, len));
		return 0;
	case IOA_JOB_NNODES:
		job->nnodes = (int32_t)(number(v, len) > INT32_MAX ? 0 : number(v, len));
		return 0;
	case IOA_JOB_HOSTNAMES:
		for (i = 0; i <= len; i++)
			if (i == len || !v[i]) {
				char **hosts;

				if (i > start) {
					hosts = realloc(job->hosts,
							(job->nhosts + 2) * sizeof(*hosts));
					if (!hosts)
						return -ENOMEM;
					job->hosts = hosts;
					if (!(hosts[job->nhosts] =
						      escaped(l, v + start, i - start)))
						return -ENOMEM;
					job->nhosts++;
				}
				start = i + 1;
			}
		return 0;
	case IOA_JOB_PARTIAL:
		/* Untrusted text: what is malformed is dropped (common/ioa_partial.h). */
		job->partial = 1;
		ioa_partial_release(&job->ended);
		return ioa_partial_parse(&job->ended, v, len);
	case IOA_JOB_CLOCK:
		/* A malformed key is no clock: the times are each rank's own. */
		(void)ioa_parse_clock((const char *)v, len, &job->clock);
		return 0;
	case IOA_JOB_LIBRARIES:
		job->io_libs = ioa_parse_io_libraries((const char *)v, len);
		return 0;
	case IOA_JOB_SOURCE:
		job->imported = 1;
		return ioa_source_parse(&job->source, v, len);
	case IOA_JOB_RANK_NODES:
		free(job->rank_node);
		job->rank_node = calloc(len / 4 + 1, sizeof(*job->rank_node));
		if (!job->rank_node)
			return -ENOMEM;
		for (i = 0; i + 4 <= len; i += 4)
			job->rank_node[i / 4] = (int32_t)ioa_get_u32(v + i);
		l->map_len = len / 4;
		return 0;
	default:
		return 0;
	}
}

static int on_mount(const unsigned char *path, uint32_t path_len, const unsigned char *type,
		    uint32_t type_len, void *arg)
{
	struct logload *l = arg;
	struct mount *m;

	if (grow((void **)&l->mounts, l->nmounts, &l->cap_mounts, sizeof(*l->mounts)))
		return -ENOMEM;
	m = &l->mounts[l->nmounts];
	m->path = malloc(path_len + 1);
	m->display = escaped(l, path, path_len);
	m->type = escaped(l, type, type_len);
	if (!m->path || !m->display || !m->type) {
		free(m->path);
		free(m->display);
		free(m->type);
		return -ENOMEM;
	}
	memcpy(m->path, path, path_len);
	m->len = path_len;
	l->nmounts++;
	return 0;
}

static int on_name(uint64_t id, const unsigned char *name, uint32_t len, void *arg)
{
	struct logload *l = arg;
	struct an_file *f;
	const struct mount *best = NULL;
	size_t i;

	if (grow((void **)&l->job->files, l->job->nfiles, &l->cap_files, sizeof(*f)))
		return -ENOMEM;
	for (i = 0; i < l->nmounts; i++)
		if (ioa_mount_holds(l->mounts[i].path, l->mounts[i].len, name, len) &&
		    (!best || l->mounts[i].len > best->len))
			best = &l->mounts[i];
	f = &l->job->files[l->job->nfiles];
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->name = escaped(l, name, len);
	f->mount = best ? strdup(best->display) : NULL;
	f->fs_type = best ? strdup(best->type) : NULL;
	l->job->nfiles++;
	return f->name ? 0 : -ENOMEM;
}

static int on_record(const struct ioa_log_record *rec, void *arg)
{
	struct logload *l = arg;
	struct an_job *job = l->job;
	struct an_record *r;
	char *slot;

	if (grow((void **)&job->recs, job->nrecs, &l->cap_recs, sizeof(*r)) ||
	    grow(&job->pool, job->nrecs, &l->cap_pool, PER_RECORD))
		return -ENOMEM;
	slot = (char *)job->pool + job->nrecs * PER_RECORD;
	memcpy(slot, rec->counters, IOA_MAX_COUNTERS * sizeof(int64_t));
	memcpy(slot + IOA_MAX_COUNTERS * sizeof(int64_t), rec->fcounters,
	       IOA_MAX_FCOUNTERS * sizeof(double));
	r = &job->recs[job->nrecs++];
	r->module = rec->module;
	r->rank = rec->rank;
	r->file = an_file_of(job, rec->id);
	r->flags = rec->flags;
	r->c = NULL;
	r->f = NULL;
	return 0;
}

static int on_failure(const struct ioa_log_failure *f, void *arg)
{
	struct logload *l = arg;
	struct an_failure *out;

	if (grow((void **)&l->job->fails, l->job->nfails, &l->cap_fails, sizeof(*out)))
		return -ENOMEM;
	out = &l->job->fails[l->job->nfails++];
	out->module = f->module;
	out->rank = f->rank;
	out->file = -1;
	snprintf(out->op, sizeof(out->op), "%.*s", (int)f->op_len, (const char *)f->op);
	out->err = f->err;
	out->count = (int64_t)f->count;
	out->file = f->record_id ? an_file_of(l->job, f->record_id) : -1;
	return 0;
}

static int on_hints(uint64_t id, int32_t rank, const unsigned char *text, uint32_t len, void *arg)
{
	struct logload *l = arg;
	struct an_hint *h;

	if (grow((void **)&l->job->hints, l->job->nhints, &l->cap_hints, sizeof(*h)))
		return -ENOMEM;
	h = &l->job->hints[l->job->nhints];
	h->rank = rank;
	h->file = an_file_of(l->job, id);
	if (!(h->text = strndup((const char *)text, len)))
		return -ENOMEM;
	l->job->nhints++;
	return 0;
}

static int on_bins(const struct ioa_log_bins *b, void *arg)
{
	struct logload *l = arg;
	struct an_job *job = l->job;
	double start = b->start_ns > l->start_ns ? (double)(b->start_ns - l->start_ns) * 1e-9 : 0;
	uint32_t k;

	if (!(b->width_s > 0))
		return 0;
	for (k = 0; k < b->nbins; k++) {
		if (!b->write_bytes[k])
			continue;
		if (grow((void **)&job->wbins, job->nwbins, &l->cap_bins, sizeof(*job->wbins)))
			return -ENOMEM;
		job->wbins[job->nwbins++] = (struct an_wbin){start + k * b->width_s,
							     start + (k + 1) * b->width_s,
							     b->rank,
							     an_file_of(job, b->record_id),
							     b->write_bytes[k],
							     b->write_ops[k] ? b->write_ops[k] : 1,
							     b->module == IOA_MOD_MPIIO};
	}
	return 0;
}

static int read_regions(struct logload *l, struct ioa_trace *t)
{
	struct an_job *job = l->job;
	uint32_t i, pass;
	int rc = 0;

	/*
	 * The job and mounts first, then the names (which need the mounts),
	 * then what refers to the names.
	 */
	for (pass = 0; pass < 3 && !rc; pass++) {
		if (pass == 2)
			an_sort_files(job);
		for (i = 0; i < l->r.region_count && !rc; i++) {
			uint32_t type = l->r.regions[i].type;
			int want = pass == 0 ? type == IOA_REGION_MOUNTS || type == IOA_REGION_JOB
				   : pass == 1
					   ? type == IOA_REGION_NAMES
					   : type != IOA_REGION_MOUNTS && type != IOA_REGION_JOB &&
						     type != IOA_REGION_NAMES;

			if (!want)
				continue;
			rc = ioa_logr_read_region(&l->r, i, &l->raw);
			if (rc)
				break;
			if (type == IOA_REGION_JOB)
				rc = ioa_logr_each_job_entry(&l->r, &l->raw, on_job, l);
			else if (type == IOA_REGION_MOUNTS)
				rc = ioa_logr_each_mount(&l->r, &l->raw, on_mount, l);
			else if (type == IOA_REGION_NAMES)
				rc = ioa_logr_each_name(&l->r, &l->raw, on_name, l);
			else if (type == IOA_REGION_ERRORS)
				rc = ioa_logr_each_failure(&l->r, &l->raw, on_failure, l);
			else if (type == IOA_REGION_HINTS)
				rc = ioa_logr_each_hints(&l->r, &l->raw, on_hints, l);
			else if (type == IOA_REGION_BINS)
				rc = ioa_logr_each_bins(&l->r, &l->raw, on_bins, l);
			else if (type == IOA_REGION_TRACE)
				l->traced |= !ioa_trace_decode(t, l->raw.data, l->raw.len);
			else if (type >= 16 && type < 32)
				rc = ioa_logr_each_record(&l->r, i, &l->raw, on_record, l);
		}
	}
	for (i = 0; !rc && i < job->nrecs; i++) {
		job->recs[i].c = (int64_t *)(void *)((char *)job->pool + i * PER_RECORD);
		job->recs[i].f = (double *)(void *)((char *)job->pool + i * PER_RECORD +
						    IOA_MAX_COUNTERS * sizeof(int64_t));
	}
	return rc;
}

int an_load_log(const char *path, const struct an_settings *set, struct an_job *job,
		struct ioa_buf *err)
{
	struct logload l = {.job = job, .r = {.fd = -1}};
	struct ioa_trace t = {0};
	size_t i;
	int rc;

	memset(job, 0, sizeof(*job));
	ioa_buf_init(&l.raw, REGION_CAP);
	ioa_buf_init(&l.text, (size_t)1 << 24);
	rc = ioa_logr_open_any(&l.r, path);
	rc = rc ? rc : read_regions(&l, &t);
	if (rc) {
		ioa_buf_reset(err);
		ioa_buf_addf(err, "%s: %s", path,
			     l.r.error[0]    ? l.r.error
			     : rc == -ENOMEM ? "out of memory"
					     : "not a log ioatlas reads");
	}
	if (!rc) {
		struct tm tm;
		time_t s = (time_t)(l.start_ns / 1000000000u);

		gmtime_r(&s, &tm);
		strftime(job->start_time, sizeof(job->start_time), "%Y-%m-%d %H:%M:%S+00", &tm);
		job->start_ns = l.start_ns;
		job->seconds = l.end_ns > l.start_ns ? (double)(l.end_ns - l.start_ns) * 1e-9 : 0;
		char **text[] = {&job->user, &job->exe,	    &job->jobid,
				 &job->args, &job->version, &job->settings};

		for (i = 0; i < sizeof(text) / sizeof(text[0]); i++)
			if (!*text[i] && !(*text[i] = strdup("")))
				rc = -ENOMEM;
		job->folded |= (l.r.flags & IOA_LOG_FLAG_FOLDED) != 0;
		if (!rc && l.traced)
			rc = an_expand_trace(job, set, &t);
		/* Without a trace the time bins stand in for it (as an_load() does). */
		if (job->traced_ranks) {
			free(job->wbins);
			job->wbins = NULL;
			job->nwbins = 0;
		}
		/* A node index the host list does not hold is the log's inconsistency: no node. */
		for (i = 0; job->rank_node && i < l.map_len; i++)
			if (job->rank_node[i] < 0 || (size_t)job->rank_node[i] >= job->nhosts)
				job->rank_node[i] = -1;
		rc = rc ? rc : an_bound_ranks(job, l.map_len);
		if (!rc)
			an_unknown_counters(job);
		if (!rc && !(job->phases = calloc(1, sizeof(*job->phases)))) {
			ioa_buf_reset(err);
			ioa_buf_addf(err, "%s: out of memory", path);
			rc = -ENOMEM;
		}
	}
	ioa_trace_free(&t);
	for (i = 0; i < l.nmounts; i++) {
		free(l.mounts[i].path);
		free(l.mounts[i].display);
		free(l.mounts[i].type);
	}
	free(l.mounts);
	ioa_logr_close(&l.r);
	ioa_buf_release(&l.raw);
	ioa_buf_release(&l.text);
	return rc;
}
