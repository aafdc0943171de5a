/*
 * an_load — a job from the warehouse into memory (see analyze.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "ioa_db.h"
#include "ioa_logr.h"
#include "ioa_parse.h"
#include "ioa_trace.h"

/* Largest trace region the analyses decompress (the runtime's are far smaller). */
#define TRACE_REGION_CAP ((size_t)1 << 30)

/*
 * The warehouse's counter layout, per module and kind: its array position
 * (0-based) of each counter of this build's table, or -1.
 */
static int layout[IOA_MOD_COUNT][2][IOA_MAX_COUNTERS];
static const PGconn *layout_conn;

static PGresult *query(PGconn *conn, const char *sql, const char *id, const char *start,
		       struct ioa_buf *err, int *rc)
{
	const char *p[] = {id, start};

	return ioa_db_query_prepared(conn, sql, start ? 2 : (id ? 1 : 0), p, err, rc, NULL);
}

static int load_layout(PGconn *conn, struct ioa_buf *err)
{
	static const char sql[] = "SELECT module, kind, position, name FROM counter_names";
	PGresult *res;
	unsigned m, k, kind;
	int i, rc;

	if (layout_conn == conn)
		return 0;
	res = query(conn, sql, NULL, NULL, err, &rc);
	if (!res)
		return rc;
	memset(layout, 0xff, sizeof(layout));
	for (i = 0; i < PQntuples(res); i++) {
		int pos = atoi(PQgetvalue(res, i, 2)) - 1;
		const char *name = PQgetvalue(res, i, 3);

		m = (unsigned)atoi(PQgetvalue(res, i, 0));
		kind = strcmp(PQgetvalue(res, i, 1), "counter") != 0;
		if (m >= IOA_MOD_COUNT || pos < 0)
			continue;
		for (k = 0;
		     k < (kind ? ioa_modules[m].fcounter_count : ioa_modules[m].counter_count); k++)
			if (!strcmp(kind ? ioa_modules[m].fcounter_names[k]
					 : ioa_modules[m].counter_names[k],
				    name))
				layout[m][kind][k] = pos;
	}
	PQclear(res);
	layout_conn = conn;
	return 0;
}

/* "{1,2,3}" (or doubles) into this build's layout; a missing value reads as 0. */
static void parse_array(const char *text, unsigned module, int kind, int64_t *c, double *f)
{
	unsigned n = kind ? ioa_modules[module].fcounter_count : ioa_modules[module].counter_count;
	double vals_f[256];
	int64_t vals_i[256];
	size_t nv = 0;
	const char *p = text[0] == '{' ? text + 1 : text;
	char *end;
	unsigned k;

	while (*p && *p != '}' && nv < 256) {
		if (kind)
			vals_f[nv++] = strtod(p, &end);
		else
			vals_i[nv++] = strtoll(p, &end, 10);
		if (end == p)
			break;
		p = *end == ',' ? end + 1 : end;
	}
	for (k = 0; k < n; k++) {
		int pos = layout[module][kind][k];

		if (kind)
			f[k] = pos >= 0 && (size_t)pos < nv ? vals_f[pos] : 0;
		else
			c[k] = pos >= 0 && (size_t)pos < nv ? vals_i[pos] : 0;
	}
}

static int file_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct an_file *)a)->id, y = ((const struct an_file *)b)->id;

	return (x > y) - (x < y);
}

void an_sort_files(struct an_job *job)
{
	/* A job may touch no file at all (its table is then NULL). */
	if (job->nfiles)
		qsort(job->files, job->nfiles, sizeof(*job->files), file_cmp);
}

void an_unknown_counters(struct an_job *job)
{
	for (size_t i = 0; job->imported && i < job->nrecs; i++) {
		const struct ioa_module_desc *m = &ioa_modules[job->recs[i].module];

		for (unsigned k = 0; k < m->counter_count; k++)
			if (job->recs[i].c[k] == IOA_NOT_RECORDED)
				job->recs[i].c[k] = 0;
		for (unsigned k = 0; k < m->fcounter_count; k++)
			if (job->recs[i].f[k] < 0)
				job->recs[i].f[k] = 0;
	}
}

int32_t an_file_of(const struct an_job *job, uint64_t id)
{
	const struct an_file key = {.id = id};
	const struct an_file *f =
		job->nfiles ? bsearch(&key, job->files, job->nfiles, sizeof(key), file_cmp) : NULL;

	return f ? (int32_t)(f - job->files) : -1;
}

static char *dup_or_null(PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NULL : strdup(PQgetvalue(res, row, col));
}

static int load_facts(PGconn *conn, struct an_job *job, const char *id, size_t *map_len,
		      struct ioa_buf *err)
{
	static const char sql[] =
		"SELECT extract(epoch FROM j.end_time - j.start_time), j.nprocs, j.nnodes, "
		"u.name, e.display, array_to_string(j.rank_nodes, ','), j.job_id, "
		"coalesce(j.args_display, ''), j.runtime_version, j.settings, j.folded "
		"FROM jobs j JOIN users u ON u.id = j.user_id JOIN executables e ON e.id = "
		"j.exe_id "
		"WHERE j.id = $1 AND j.start_time = $2";
	static const char sql_hosts[] =
		"SELECT h FROM jobs j, unnest(j.hostnames) WITH ORDINALITY AS u(h, n) "
		"WHERE j.id = $1 AND j.start_time = $2 ORDER BY n";
	int i, rc;
	PGresult *res = query(conn, sql, id, job->start_time, err, &rc);

	if (!res)
		return rc;
	if (PQntuples(res) != 1) {
		PQclear(res);
		ioa_buf_reset(err);
		ioa_buf_addf(err, "no job %s starting %s", id, job->start_time);
		return -ENOENT;
	}
	job->seconds = strtod(PQgetvalue(res, 0, 0), NULL);
	job->nprocs = atoi(PQgetvalue(res, 0, 1));
	job->nnodes = atoi(PQgetvalue(res, 0, 2));
	job->user = strdup(PQgetvalue(res, 0, 3));
	job->exe = strdup(PQgetvalue(res, 0, 4));
	job->jobid = strdup(PQgetvalue(res, 0, 6));
	job->args = strdup(PQgetvalue(res, 0, 7));
	job->version = strdup(PQgetvalue(res, 0, 8));
	job->settings = strdup(PQgetvalue(res, 0, 9));
	job->folded = !strcmp(PQgetvalue(res, 0, 10), "t");
	/* The map as long as it is (its text bounds it), not as long as nprocs claims. */
	if (job->nprocs > 0 && !PQgetisnull(res, 0, 5) &&
	    (job->rank_node =
		     calloc((size_t)PQgetlength(res, 0, 5) / 2 + 1, sizeof(*job->rank_node)))) {
		const char *p = PQgetvalue(res, 0, 5);
		char *end;

		for (i = 0; i < job->nprocs && *p; i++) {
			job->rank_node[i] = (int32_t)strtol(p, &end, 10);
			if (end == p)
				break;
			p = *end == ',' ? end + 1 : end;
		}
		*map_len = (size_t)i;
	}
	PQclear(res);
	if (!job->user || !job->exe || !job->jobid || !job->args || !job->version || !job->settings)
		return -ENOMEM;
	res = query(conn, sql_hosts, id, job->start_time, err, &rc);
	if (!res)
		return rc;
	job->nhosts = (size_t)PQntuples(res);
	job->hosts = calloc(job->nhosts + 1, sizeof(*job->hosts));
	for (i = 0; job->hosts && i < PQntuples(res); i++)
		job->hosts[i] = strdup(PQgetvalue(res, i, 0));
	PQclear(res);
	if (!job->hosts)
		return -ENOMEM;
	/* A node index the host list does not hold is the log's inconsistency: no node. */
	for (i = 0; job->rank_node && (size_t)i < *map_len; i++)
		if (job->rank_node[i] < 0 || (size_t)job->rank_node[i] >= job->nhosts)
			job->rank_node[i] = -1;
	return 0;
}

/* ns from microseconds since the epoch (as load_partial() selects them), or 0. */
static uint64_t ns_of_us(PGresult *res, int col)
{
	int64_t us = 0;

	if (PQgetisnull(res, 0, col) || ioa_parse_i64(PQgetvalue(res, 0, col), &us) || us <= 0 ||
	    (uint64_t)us > UINT64_MAX / 1000u)
		return 0;
	return (uint64_t)us * 1000u;
}

/*
 * The job's start in ns, whether it is partial and how it ended
 * (migration 0007), and where an imported log came from (0008).  The columns hold what the
 * collector checked; they go through ioa_partial_set() again all the same, and the reason, stored
 * in display form, is taken as it is.
 */
static int load_partial(PGconn *conn, struct an_job *job, const char *id, struct ioa_buf *err)
{
	static const char sql[] =
		"SELECT (extract(epoch FROM start_time) * 1000000)::bigint, partial, partial_how, "
		"partial_signal, partial_abort_code, partial_reason, partial_ranks, "
		"partial_missing, (extract(epoch FROM partial_until_first) * 1000000)::bigint, "
		"(extract(epoch FROM partial_until_last) * 1000000)::bigint, source, "
		"array_to_string(io_libraries, ' '), clock_base, clock_uncertainty_ns, "
		"clock_drift_ns "
		"FROM jobs WHERE id = $1 AND start_time = $2";
	static const char *const fields[] = {"how", "signal", "abort_code"};
	static const char *const lists[] = {"ranks", "missing"};
	struct ioa_partial *p = &job->ended;
	char ns[24];
	size_t i;
	int rc;
	PGresult *res = query(conn, sql, id, job->start_time, err, &rc);

	if (!res)
		return rc;
	if (PQntuples(res) != 1) {
		PQclear(res);
		return 0;
	}
	rc = 0;
	job->start_ns = ns_of_us(res, 0);
	job->partial = !strcmp(PQgetvalue(res, 0, 1), "t");
	for (i = 0; i < 3 && rc >= 0; i++)
		if (!PQgetisnull(res, 0, 2 + (int)i))
			rc = ioa_partial_set(p, fields[i], PQgetvalue(res, 0, 2 + (int)i),
					     (size_t)PQgetlength(res, 0, 2 + (int)i));
	if (rc >= 0 && !PQgetisnull(res, 0, 5) && !(p->reason = strdup(PQgetvalue(res, 0, 5))))
		rc = -ENOMEM;
	for (i = 0; i < 2 && rc >= 0; i++)
		if (!PQgetisnull(res, 0, 6 + (int)i))
			rc = ioa_partial_set(p, lists[i], PQgetvalue(res, 0, 6 + (int)i),
					     (size_t)PQgetlength(res, 0, 6 + (int)i));
	for (i = 0; i < 2 && rc >= 0; i++) {
		snprintf(ns, sizeof(ns), "%" PRIu64, ns_of_us(res, 8 + (int)i));
		rc = ioa_partial_set(p, i ? "until_last_ns" : "until_first_ns", ns, strlen(ns));
	}
	/* An imported job (migration 0008): its source's fields, as the collector kept them. */
	if (rc >= 0 && !PQgetisnull(res, 0, 10)) {
		job->imported = 1;
		rc = ioa_source_parse(&job->source, PQgetvalue(res, 0, 10),
				      (size_t)PQgetlength(res, 0, 10));
	}
	/* The I/O libraries the program used (migration 0010), NULL when not recorded. */
	job->io_libs =
		ioa_parse_io_libraries(PQgetvalue(res, 0, 11), (size_t)PQgetlength(res, 0, 11));
	PQclear(res);
	return rc < 0 ? rc : 0;
}

static int load_files(PGconn *conn, struct an_job *job, const char *id, struct ioa_buf *err)
{
	/* Every record id the job's tables name, with its name and file system. */
	static const char sql[] =
		"SELECT f.id, n.display, fs.display, fs.fs_type FROM ("
		"SELECT DISTINCT ON (record_id) record_id AS id, file, fs FROM records "
		"WHERE job = $1 AND start_time = $2 ORDER BY record_id, file NULLS LAST) f "
		"LEFT JOIN file_names n ON n.sha256 = f.file "
		"LEFT JOIN file_systems fs ON fs.id = f.fs "
		"UNION ALL SELECT DISTINCT record_id, NULL, NULL, NULL FROM ("
		"SELECT record_id FROM failures WHERE job = $1 AND start_time = $2 "
		"UNION SELECT record_id FROM hints WHERE job = $1 AND start_time = $2) x "
		"WHERE record_id NOT IN (SELECT record_id FROM records "
		"WHERE job = $1 AND start_time = $2)";
	int i, rc;
	PGresult *res = query(conn, sql, id, job->start_time, err, &rc);

	if (!res)
		return rc;
	job->files = calloc((size_t)PQntuples(res) + 1, sizeof(*job->files));
	for (i = 0; job->files && i < PQntuples(res); i++) {
		struct an_file *f = &job->files[job->nfiles++];
		int64_t v = 0;

		ioa_parse_i64(PQgetvalue(res, i, 0), &v);
		f->id = (uint64_t)v;
		f->name = PQgetisnull(res, i, 1) ? strdup("") : strdup(PQgetvalue(res, i, 1));
		f->mount = dup_or_null(res, i, 2);
		f->fs_type = dup_or_null(res, i, 3);
		if (!f->name)
			rc = -ENOMEM;
	}
	PQclear(res);
	if (!job->files)
		return -ENOMEM;
	an_sort_files(job);
	return rc;
}

/*
 * Rows in a stated order, like every loader here: a partition read through
 * postgres_fdw or a replica returns them in its own order, and sums over
 * them, ties in rankings and the report's lists must not depend on that.
 */
static int load_records(PGconn *conn, struct an_job *job, const char *id, struct ioa_buf *err)
{
	static const char sql[] =
		"SELECT module, rank, record_id, counters, fcounters, flags FROM records "
		"WHERE job = $1 AND start_time = $2 ORDER BY module, rank, record_id";
	int i, rc;
	PGresult *res = query(conn, sql, id, job->start_time, err, &rc);
	size_t n, per = (IOA_MAX_COUNTERS * sizeof(int64_t) + IOA_MAX_FCOUNTERS * sizeof(double));
	char *pool;

	if (!res)
		return rc;
	n = (size_t)PQntuples(res);
	job->recs = calloc(n + 1, sizeof(*job->recs));
	pool = job->pool = malloc(n * per + 1);
	for (i = 0; job->recs && pool && i < PQntuples(res); i++) {
		struct an_record *r = &job->recs[job->nrecs];
		int64_t v = 0;
		unsigned m = (unsigned)atoi(PQgetvalue(res, i, 0));

		if (m >= IOA_MOD_COUNT)
			continue;
		r->module = (enum ioa_module)m;
		r->rank = (int32_t)atoi(PQgetvalue(res, i, 1));
		ioa_parse_i64(PQgetvalue(res, i, 2), &v);
		r->file = an_file_of(job, (uint64_t)v);
		r->flags = (uint32_t)strtoul(PQgetvalue(res, i, 5), NULL, 10);
		r->c = (int64_t *)(void *)(pool + job->nrecs * per);
		r->f = (double *)(void *)(pool + job->nrecs * per +
					  IOA_MAX_COUNTERS * sizeof(int64_t));
		parse_array(PQgetvalue(res, i, 3), m, 0, r->c, NULL);
		parse_array(PQgetvalue(res, i, 4), m, 1, NULL, r->f);
		job->nrecs++;
	}
	PQclear(res);
	return job->recs && pool ? 0 : -ENOMEM;
}

static int load_failures(PGconn *conn, struct an_job *job, const char *id, struct ioa_buf *err)
{
	static const char sql[] = "SELECT module, rank, record_id, op, errno, count FROM failures "
				  "WHERE job = $1 AND start_time = $2 "
				  "ORDER BY module, rank, record_id, op, errno";
	static const char sql_hints[] = "SELECT rank, record_id, hints FROM hints "
					"WHERE job = $1 AND start_time = $2 "
					"ORDER BY rank, record_id, hints";
	int i, rc;
	PGresult *res = query(conn, sql, id, job->start_time, err, &rc);

	if (!res)
		return rc;
	job->fails = calloc((size_t)PQntuples(res) + 1, sizeof(*job->fails));
	for (i = 0; job->fails && i < PQntuples(res); i++) {
		struct an_failure *f = &job->fails[job->nfails++];
		int64_t v = 0;

		f->module = (enum ioa_module)(atoi(PQgetvalue(res, i, 0)) % IOA_MOD_COUNT);
		f->rank = (int32_t)atoi(PQgetvalue(res, i, 1));
		ioa_parse_i64(PQgetvalue(res, i, 2), &v);
		f->file = v ? an_file_of(job, (uint64_t)v) : -1;
		snprintf(f->op, sizeof(f->op), "%s", PQgetvalue(res, i, 3));
		f->err = atoi(PQgetvalue(res, i, 4));
		ioa_parse_i64(PQgetvalue(res, i, 5), &f->count);
	}
	PQclear(res);
	if (!job->fails)
		return -ENOMEM;
	res = query(conn, sql_hints, id, job->start_time, err, &rc);
	if (!res)
		return rc;
	job->hints = calloc((size_t)PQntuples(res) + 1, sizeof(*job->hints));
	for (i = 0; job->hints && i < PQntuples(res); i++) {
		struct an_hint *h = &job->hints[job->nhints++];
		int64_t v = 0;

		h->rank = (int32_t)atoi(PQgetvalue(res, i, 0));
		ioa_parse_i64(PQgetvalue(res, i, 1), &v);
		h->file = an_file_of(job, (uint64_t)v);
		if (!(h->text = strdup(PQgetvalue(res, i, 2))))
			rc = -ENOMEM;
	}
	PQclear(res);
	return job->hints ? rc : -ENOMEM;
}

/* ------------------------------------------------------------ the trace */

struct expand {
	struct an_job *job;
	const struct an_settings *set;
	struct ioa_trace_rank *r;
	uint32_t *sig_map; /* the rank's signature -> the job's */
	int32_t *file_map; /* the rank's file slot -> the job's file */
	size_t cap;
};

static uint32_t job_sig(struct an_job *job, const struct ioa_trace_sig *s)
{
	size_t i;
	struct an_sig *sigs;

	for (i = 0; i < job->nsigs; i++)
		if (job->sigs[i].module == s->module && job->sigs[i].flags == s->flags &&
		    job->sigs[i].err == s->err && !strncmp(job->sigs[i].name, s->name, 31))
			return (uint32_t)i;
	sigs = realloc(job->sigs, (job->nsigs + 1) * sizeof(*sigs));
	if (!sigs)
		return UINT32_MAX;
	job->sigs = sigs;
	memset(&sigs[job->nsigs], 0, sizeof(*sigs));
	snprintf(sigs[job->nsigs].name, sizeof(sigs[job->nsigs].name), "%s", s->name);
	sigs[job->nsigs].module = s->module;
	sigs[job->nsigs].flags = s->flags;
	sigs[job->nsigs].err = s->err;
	return (uint32_t)job->nsigs++;
}

static int on_event(void *arg, const struct ioa_trace_event *e)
{
	struct expand *x = arg;
	struct an_job *job = x->job;
	struct an_event *ev;
	uint32_t sig = (uint32_t)(e->sig - x->r->sigs);

	if ((long long)job->nev >= x->set->max_events) {
		job->trace_partial = 1;
		return 1; /* enough: the rest of the trace is left out, and said so */
	}
	if (job->nev == x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 4096;
		struct an_event *evs = realloc(job->ev, cap * sizeof(*evs));

		if (!evs)
			return -ENOMEM;
		job->ev = evs;
		x->cap = cap;
	}
	ev = &job->ev[job->nev++];
	ev->start = e->start;
	ev->dur = e->duration;
	ev->offset = e->offset;
	ev->length = e->length;
	ev->rank = (int32_t)x->r->rank;
	ev->sig = sig < x->r->nsigs ? x->sig_map[sig] : 0;
	ev->file = e->sig->module != 255u && e->slot >= 0 && (uint64_t)e->slot < x->r->nfiles
			   ? x->file_map[e->slot]
			   : -1;
	return 0;
}

static int expand_rank(struct expand *x, const struct ioa_trace *t, uint32_t rank)
{
	struct ioa_trace_rank r;
	uint32_t i;
	int rc = ioa_trace_rank_open(t, rank, &r);

	if (rc)
		return rc == -ENOMEM ? rc : 0; /* a rank the trace cannot give is not traced */
	x->r = &r;
	x->sig_map = calloc(r.nsigs + 1, sizeof(*x->sig_map));
	x->file_map = calloc(r.nfiles + 1, sizeof(*x->file_map));
	if (!x->sig_map || !x->file_map)
		rc = -ENOMEM;
	for (i = 0; !rc && i < r.nsigs; i++)
		if ((x->sig_map[i] = job_sig(x->job, &r.sigs[i])) == UINT32_MAX)
			rc = -ENOMEM;
	for (i = 0; !rc && i < r.nfiles; i++)
		x->file_map[i] = an_file_of(x->job, r.files[i]);
	if (!rc) {
		if (r.header[IOA_TRH_FLAGS] & (IOA_TRF_TRUNCATED | IOA_TRF_LOST))
			x->job->trace_partial = 1;
		/* on_event stops at max_events: the tree's size needs no bound of its own here. */
		rc = ioa_trace_expand(&r, UINT64_MAX, on_event, x);
		/* A malformed tree: the rank's calls are left out, and the trace said partial. */
		if (rc == -EINVAL)
			x->job->trace_partial = 1;
		rc = rc == 1 || rc == -EINVAL ? 0 : rc;
		x->job->traced_ranks++;
	}
	free(x->sig_map);
	free(x->file_map);
	ioa_trace_rank_close(&r);
	return rc;
}

/*
 * The rank past the greatest of n items' (rank at offset `at`; -1: none),
 * and in *named how many name a rank.
 */
static int64_t ranks_named(const void *items, size_t n, size_t size, size_t at, uint64_t *named)
{
	int64_t past = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		int32_t rank;

		memcpy(&rank, (const char *)items + i * size + at, sizeof(rank));
		if (rank < 0)
			continue;
		++*named;
		if (rank >= past)
			past = (int64_t)rank + 1;
	}
	return past;
}

int an_bound_ranks(struct an_job *job, size_t map_len)
{
	int64_t held = 0, h;
	uint64_t named = 0;
	int32_t *map;
	size_t i;

#define HELD(items, n, type)                                                   \
	h = ranks_named(items, n, sizeof(type), offsetof(type, rank), &named); \
	held = h > held ? h : held
	HELD(job->recs, job->nrecs, struct an_record);
	HELD(job->fails, job->nfails, struct an_failure);
	HELD(job->hints, job->nhints, struct an_hint);
	HELD(job->wbins, job->nwbins, struct an_wbin);
	HELD(job->ev, job->nev, struct an_event);
#undef HELD
	/*
	 * The runtime writes the map with an entry per rank, 4 bytes each: the
	 * ranks the log holds.  Without one, the ranks the data names, but no
	 * more than the items naming them (one record naming rank 2^31 - 2 does
	 * not make a table of 2^31 - 1 ranks).
	 */
	if (map_len)
		held = map_len < INT32_MAX ? (int64_t)map_len : INT32_MAX;
	else if ((uint64_t)held > named)
		held = (int64_t)named;
	held = held > 0 ? held : 1; /* a job with no data at all: one rank's worth of tables */
	if (job->nprocs > held) {
		job->nprocs_claimed = job->nprocs;
		job->nprocs = (int32_t)held;
	}
	if (!job->rank_node || job->nprocs < 1 || (size_t)job->nprocs <= map_len)
		return 0;
	map = realloc(job->rank_node, (size_t)job->nprocs * sizeof(*map));
	if (!map)
		return -ENOMEM;
	for (i = map_len; i < (size_t)job->nprocs; i++)
		map[i] = -1;
	job->rank_node = map;
	return 0;
}

/*
 * Bytes of shape, values and times parsed per event kept, at most: a
 * group's ranks share one copy of those bytes but each rank opens its own,
 * so a trace claiming millions of ranks stops here, said partial, rather
 * than parsing its shape millions of times.
 */
#define OPEN_BYTES_PER_EVENT 64

int an_expand_trace(struct an_job *job, const struct an_settings *set, const struct ioa_trace *t)
{
	struct expand x = {.job = job, .set = set};
	uint64_t opened = 0, budget = 0;
	size_t g, k;
	int rc = 0;

	if (set->max_events > 0 &&
	    __builtin_mul_overflow((uint64_t)set->max_events, OPEN_BYTES_PER_EVENT, &budget))
		budget = UINT64_MAX;
	for (g = 0; !rc && g < t->ngroups; g++) {
		const struct ioa_trace_group *grp = &t->groups[g];
		uint64_t cost = 1 + grp->shape_len + grp->times_len + grp->nvalues;

		for (k = 0; !rc && k < grp->nranks; k++) {
			if ((long long)job->nev >= set->max_events || cost > budget ||
			    opened > budget - cost) {
				job->trace_partial = 1;
				return 0;
			}
			opened += cost;
			rc = expand_rank(&x, t, grp->ranks[k]);
		}
	}
	rc = rc ? rc : an_align_at_collectives(job);
	if (!rc)
		job->startup = an_mpi_startup(job);
	return rc;
}

static int load_trace(PGconn *conn, const struct an_settings *set, struct an_job *job,
		      const char *id, struct ioa_buf *err)
{
	static const char sql[] = "SELECT compression, raw_size, data FROM traces "
				  "WHERE job = $1 AND start_time = $2 ORDER BY seq";
	struct ioa_trace t = {0};
	struct ioa_buf raw = IOA_BUF_INIT(TRACE_REGION_CAP);
	int i, rc;
	PGresult *res = query(conn, sql, id, job->start_time, err, &rc);

	if (!res)
		return rc;
	for (i = 0; !rc && i < PQntuples(res); i++) {
		size_t len;
		int64_t raw_size = 0;
		unsigned char *stored =
			PQunescapeBytea((const unsigned char *)PQgetvalue(res, i, 2), &len);

		ioa_parse_i64(PQgetvalue(res, i, 1), &raw_size);
		if (!stored) {
			rc = -ENOMEM;
			break;
		}
		/* A region that does not decode is left out: the analyses say the trace is partial.
		 */
		if (raw_size < 0 ||
		    ioa_region_inflate((uint32_t)atoi(PQgetvalue(res, i, 0)), stored, len,
				       (uint64_t)raw_size, &raw) ||
		    ioa_trace_decode(&t, raw.data, raw.len))
			job->trace_partial = 1;
		PQfreemem(stored);
	}
	PQclear(res);
	ioa_buf_release(&raw);
	rc = rc ? rc : an_expand_trace(job, set, &t);
	ioa_trace_free(&t);
	return rc;
}

/* Without a trace, the writes' time bins stand in for it in the phases. */
static int load_bins(PGconn *conn, struct an_job *job, const char *id, struct ioa_buf *err)
{
	static const char sql[] =
		"SELECT rank, record_id, extract(epoch FROM bin_start - start_time), bin_seconds, "
		"array_to_string(write_bytes, ','), array_to_string(write_ops, ','), module "
		"FROM time_bins WHERE job = $1 AND start_time = $2 "
		"ORDER BY module, rank, record_id, bin_start";
	size_t cap = 0;
	int i, rc;
	PGresult *res = query(conn, sql, id, job->start_time, err, &rc);

	if (!res)
		return rc;
	for (i = 0; !rc && i < PQntuples(res); i++) {
		double start = strtod(PQgetvalue(res, i, 2), NULL);
		double width = strtod(PQgetvalue(res, i, 3), NULL);
		const char *bytes = PQgetvalue(res, i, 4), *ops = PQgetvalue(res, i, 5);
		int32_t rank = (int32_t)atoi(PQgetvalue(res, i, 0));
		int mpiio = atoi(PQgetvalue(res, i, 6)) == IOA_MOD_MPIIO;
		int64_t rid = 0;
		unsigned k;
		char *end;

		ioa_parse_i64(PQgetvalue(res, i, 1), &rid);
		for (k = 0; *bytes && *ops && k < IOA_LOG_MAX_BINS; k++) {
			uint64_t b = strtoull(bytes, &end, 10), n;

			bytes = *end == ',' ? end + 1 : end;
			n = strtoull(ops, &end, 10);
			ops = *end == ',' ? end + 1 : end;
			if (!b || !(width > 0))
				continue;
			if (job->nwbins == cap) {
				struct an_wbin *more;

				cap = cap ? cap * 2 : 1024;
				if (!(more = realloc(job->wbins, cap * sizeof(*more)))) {
					rc = -ENOMEM;
					break;
				}
				job->wbins = more;
			}
			job->wbins[job->nwbins++] = (struct an_wbin){start + k * width,
								     start + (k + 1) * width,
								     rank,
								     an_file_of(job, (uint64_t)rid),
								     b,
								     n ? n : 1,
								     mpiio};
		}
	}
	PQclear(res);
	return rc;
}

int an_load(PGconn *conn, const struct an_settings *set, int64_t id, const char *start_time,
	    struct an_job *job, struct ioa_buf *err)
{
	char ids[24];
	size_t map_len = 0;
	int rc;

	memset(job, 0, sizeof(*job));
	job->id = id;
	snprintf(job->start_time, sizeof(job->start_time), "%s", start_time);
	snprintf(ids, sizeof(ids), "%" PRId64, id);
	rc = load_layout(conn, err);
	rc = rc ? rc : load_facts(conn, job, ids, &map_len, err);
	rc = rc ? rc : load_partial(conn, job, ids, err);
	rc = rc ? rc : load_files(conn, job, ids, err);
	rc = rc ? rc : load_records(conn, job, ids, err);
	rc = rc ? rc : load_failures(conn, job, ids, err);
	rc = rc ? rc : load_trace(conn, set, job, ids, err);
	if (!rc && !job->traced_ranks)
		rc = load_bins(conn, job, ids, err);
	rc = rc ? rc : an_bound_ranks(job, map_len);
	if (!rc)
		an_unknown_counters(job);
	if (!rc && !(job->phases = calloc(1, sizeof(*job->phases))))
		rc = -ENOMEM;
	if (rc == -ENOMEM) {
		ioa_buf_reset(err);
		ioa_buf_addstr(err, "out of memory");
	}
	return rc;
}

void an_free(struct an_job *job)
{
	size_t i;

	free(job->user);
	free(job->exe);
	free(job->jobid);
	free(job->args);
	free(job->version);
	free(job->settings);
	free(job->untracked);
	ioa_partial_release(&job->ended);
	ioa_source_release(&job->source);
	for (i = 0; job->hosts && i < job->nhosts; i++)
		free(job->hosts[i]);
	free(job->hosts);
	free(job->rank_node);
	for (i = 0; i < job->nfiles; i++) {
		free(job->files[i].name);
		free(job->files[i].mount);
		free(job->files[i].fs_type);
	}
	free(job->files);
	free(job->recs);
	free(job->pool);
	free(job->fails);
	for (i = 0; i < job->nhints; i++)
		free(job->hints[i].text);
	free(job->hints);
	free(job->sigs);
	free(job->ev);
	free(job->wbins);
	if (job->phases)
		an_phases_free(&job->phases->ph);
	free(job->phases);
	memset(job, 0, sizeof(*job));
}
