/*
 * wh_log — a warehouse job as an ioatlas log (wh_log.h).
 */
#define _GNU_SOURCE
#include "wh_log.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_counters.h"
#include "ioa_db.h"
#include "ioa_logfmt.h"
#include "ioa_logw.h"
#include "ioa_parse.h"

/* Where each warehouse array position lands in this build's table (-1: nowhere). */
struct layout {
	int pos[IOA_MOD_COUNT][2][IOA_MAX_COUNTERS];
	unsigned n[IOA_MOD_COUNT][2];
};

struct wh {
	PGconn *conn;
	const char *params[2]; /* job id, start time */
	struct ioa_buf *err;
	struct ioa_log_writer w;
	struct ioa_buf b, text;
	struct layout layout;
};

static PGresult *query(struct wh *h, const char *sql, int n, const char *const *params, int *rc)
{
	PGresult *res = ioa_db_query(h->conn, sql, n, params, h->err, rc, NULL);

	if (rc && !*rc && !res)
		*rc = -EIO;
	return res;
}

/* bytea sent as encode(..., 'hex'): its bytes into out (reset first). */
static int unhex(const char *hex, struct ioa_buf *out)
{
	size_t len = strlen(hex);
	int rc = 0;

	ioa_buf_reset(out);
	if (len % 2)
		return -EINVAL;
	for (size_t i = 0; i < len && !rc; i += 2) {
		unsigned char byte;

		if (sscanf(hex + i, "%2hhx", &byte) != 1)
			return -EINVAL;
		rc = ioa_buf_add(out, &byte, 1);
	}
	return rc;
}

static int entry(struct ioa_buf *b, enum ioa_job_key key, const void *value, size_t len)
{
	int rc = ioa_enc_u16(b, (uint16_t)key);

	return rc ? rc : ioa_enc_bytes(b, value, len);
}

static int entry_text(struct ioa_buf *b, enum ioa_job_key key, const char *text)
{
	return entry(b, key, text, strlen(text));
}

/* The job region; h->params gets the job's start time as the warehouse prints it. */
static int job_region(struct wh *h, PGresult **job, uint32_t *flags)
{
	static const char sql[] =
		"SELECT j.start_time::text, u.uid::text, coalesce(j.recorded_user, u.name), "
		"j.job_id, j.scheduler, "
		"(extract(epoch FROM j.start_time) * 1000000000)::bigint::text, "
		"(extract(epoch FROM j.end_time) * 1000000000)::bigint::text, j.nprocs::text, "
		"encode(e.path, 'hex'), encode(j.args, 'hex'), j.runtime_version, j.source, "
		"j.log_flags FROM jobs j JOIN users u ON u.id = j.user_id "
		"JOIN executables e ON e.id = j.exe_id WHERE j.id = $1";
	int rc = 0;
	PGresult *res = query(h, sql, 1, h->params, &rc);

	if (rc)
		return rc;
	if (PQntuples(res) != 1) {
		PQclear(res);
		ioa_buf_reset(h->err);
		ioa_buf_addf(h->err, "no job %s in the warehouse (or none you may read)",
			     h->params[0]);
		return -ENOENT;
	}
	*job = res;
	h->params[1] = PQgetvalue(res, 0, 0);
	*flags = (uint32_t)strtoul(PQgetvalue(res, 0, 12), NULL, 10) & IOA_LOG_FLAG_FOLDED;
	ioa_buf_reset(&h->b);
	rc = entry_text(&h->b, IOA_JOB_UID, PQgetvalue(res, 0, 1));
	rc = rc ? rc : entry_text(&h->b, IOA_JOB_USER, PQgetvalue(res, 0, 2));
	rc = rc ? rc : entry_text(&h->b, IOA_JOB_JOBID, PQgetvalue(res, 0, 3));
	rc = rc ? rc : entry_text(&h->b, IOA_JOB_SCHEDULER, PQgetvalue(res, 0, 4));
	rc = rc ? rc : entry_text(&h->b, IOA_JOB_START_NS, PQgetvalue(res, 0, 5));
	rc = rc ? rc : entry_text(&h->b, IOA_JOB_END_NS, PQgetvalue(res, 0, 6));
	rc = rc ? rc : entry_text(&h->b, IOA_JOB_NPROCS, PQgetvalue(res, 0, 7));
	rc = rc ? rc : unhex(PQgetvalue(res, 0, 8), &h->text);
	rc = rc ? rc : entry(&h->b, IOA_JOB_EXE, h->text.data, h->text.len);
	if (!rc && !PQgetisnull(res, 0, 9)) {
		rc = unhex(PQgetvalue(res, 0, 9), &h->text);
		rc = rc ? rc : entry(&h->b, IOA_JOB_ARGS, h->text.data, h->text.len);
	}
	rc = rc ? rc : entry_text(&h->b, IOA_JOB_VERSION, PQgetvalue(res, 0, 10));
	if (!rc && !PQgetisnull(res, 0, 11))
		rc = entry_text(&h->b, IOA_JOB_SOURCE, PQgetvalue(res, 0, 11));
	return rc ? rc : ioa_logw_add(&h->w, IOA_REGION_JOB, h->b.data, h->b.len);
}

static int names_region(struct wh *h)
{
	static const char sql[] =
		"SELECT DISTINCT r.record_id, encode(f.name, 'hex') FROM records r "
		"JOIN file_names f ON f.sha256 = r.file "
		"WHERE r.job = $1 AND r.start_time = $2 ORDER BY 1";
	int rc = 0, n;
	PGresult *res = query(h, sql, 2, h->params, &rc);

	if (rc)
		return rc;
	n = PQntuples(res);
	ioa_buf_reset(&h->b);
	rc = ioa_enc_names_header(&h->b, (uint32_t)n);
	for (int i = 0; i < n && !rc; i++) {
		int64_t id;

		rc = ioa_parse_i64(PQgetvalue(res, i, 0), &id) ? -EINVAL : 0;
		rc = rc ? rc : unhex(PQgetvalue(res, i, 1), &h->text);
		rc = rc ? rc : ioa_enc_name(&h->b, (uint64_t)id, h->text.data, h->text.len);
	}
	PQclear(res);
	return rc ? rc : ioa_logw_add(&h->w, IOA_REGION_NAMES, h->b.data, h->b.len);
}

static int mounts_region(struct wh *h)
{
	static const char sql[] =
		"SELECT encode(fs.mount_point, 'hex'), fs.fs_type FROM job_mounts m "
		"JOIN file_systems fs ON fs.id = m.fs WHERE m.job = $1 AND m.start_time = $2 "
		"ORDER BY octet_length(fs.mount_point) DESC, fs.mount_point";
	int rc = 0, n;
	PGresult *res = query(h, sql, 2, h->params, &rc);

	if (rc)
		return rc;
	n = PQntuples(res);
	ioa_buf_reset(&h->b);
	rc = ioa_enc_u32(&h->b, (uint32_t)n);
	for (int i = 0; i < n && !rc; i++) {
		rc = unhex(PQgetvalue(res, i, 0), &h->text);
		rc = rc ? rc : ioa_enc_bytes(&h->b, h->text.data, h->text.len);
		rc = rc ? rc
			: ioa_enc_bytes(&h->b, PQgetvalue(res, i, 1),
					(size_t)PQgetlength(res, i, 1));
	}
	PQclear(res);
	return rc ? rc : ioa_logw_add(&h->w, IOA_REGION_MOUNTS, h->b.data, h->b.len);
}

/* Which counter of this build each warehouse array position holds, by name. */
static int load_layout(struct wh *h)
{
	static const char sql[] = "SELECT module, kind, position, name FROM counter_names";
	struct layout *l = &h->layout;
	int rc = 0;
	PGresult *res = query(h, sql, 0, NULL, &rc);

	if (rc)
		return rc;
	memset(l->n, 0, sizeof(l->n));
	for (int i = 0; i < PQntuples(res); i++) {
		long m = strtol(PQgetvalue(res, i, 0), NULL, 10);
		int f = !strcmp(PQgetvalue(res, i, 1), "fcounter");
		long pos = strtol(PQgetvalue(res, i, 2), NULL, 10) - 1;
		const char *name = PQgetvalue(res, i, 3);
		const struct ioa_module_desc *mod;
		unsigned count;

		if (m < 0 || m >= IOA_MOD_COUNT || pos < 0 || pos >= IOA_MAX_COUNTERS)
			continue;
		mod = &ioa_modules[m];
		count = f ? mod->fcounter_count : mod->counter_count;
		while (l->n[m][f] <= (unsigned)pos)
			l->pos[m][f][l->n[m][f]++] = -1;
		for (unsigned k = 0; k < count; k++)
			if (!strcmp((f ? mod->fcounter_names : mod->counter_names)[k], name))
				l->pos[m][f][pos] = (int)k;
	}
	PQclear(res);
	return 0;
}

/* One record's counters from "v1,v2,..." in the warehouse's order. */
static int fill(const struct layout *l, unsigned m, const char *ints, const char *floats,
		int64_t *c, double *f)
{
	const char *p = ints;

	for (unsigned i = 0; i < ioa_modules[m].counter_count; i++)
		c[i] = IOA_NOT_RECORDED;
	for (unsigned i = 0; i < ioa_modules[m].fcounter_count; i++)
		f[i] = IOA_NOT_RECORDED;
	for (unsigned pos = 0; *p && pos < l->n[m][0]; pos++) {
		char *end;
		long long v = strtoll(p, &end, 10);

		if (end == p)
			return -EINVAL;
		if (l->pos[m][0][pos] >= 0)
			c[l->pos[m][0][pos]] = v;
		p = *end == ',' ? end + 1 : end;
	}
	p = floats;
	for (unsigned pos = 0; *p && pos < l->n[m][1]; pos++) {
		char *end;
		double v = strtod(p, &end);

		if (end == p)
			return -EINVAL;
		if (l->pos[m][1][pos] >= 0)
			f[l->pos[m][1][pos]] = v;
		p = *end == ',' ? end + 1 : end;
	}
	return 0;
}

/* A module's records, one query and one region per module. */
static int module_region(struct wh *h, unsigned m)
{
	static const char sql[] =
		"SELECT rank, record_id, flags, array_to_string(counters, ','), "
		"array_to_string(fcounters, ',') FROM records "
		"WHERE job = $1 AND start_time = $2 AND module = $3 ORDER BY rank, record_id";
	const struct ioa_module_desc *mod = &ioa_modules[m];
	char module[16];
	const char *params[3] = {h->params[0], h->params[1], module};
	struct ioa_rec_ref *refs = NULL;
	int64_t *c = NULL;
	double *f = NULL;
	int rc = 0, n;
	PGresult *res;

	snprintf(module, sizeof(module), "%u", m);
	res = query(h, sql, 3, params, &rc);
	if (rc)
		return rc;
	n = PQntuples(res);
	if (!n) {
		PQclear(res);
		return 0;
	}
	refs = calloc((size_t)n, sizeof(*refs));
	c = calloc((size_t)n * mod->counter_count, sizeof(*c));
	f = calloc((size_t)n * (mod->fcounter_count ? mod->fcounter_count : 1), sizeof(*f));
	if (!refs || !c || !f)
		rc = -ENOMEM;
	for (int i = 0; i < n && !rc; i++) {
		int64_t id, rank, flags;

		if (ioa_parse_i64(PQgetvalue(res, i, 0), &rank) ||
		    ioa_parse_i64(PQgetvalue(res, i, 1), &id) ||
		    ioa_parse_i64(PQgetvalue(res, i, 2), &flags)) {
			rc = -EINVAL;
			break;
		}
		refs[i].id = (uint64_t)id;
		refs[i].rank = (int32_t)rank;
		refs[i].flags = (uint32_t)flags;
		refs[i].counters = c + (size_t)i * mod->counter_count;
		refs[i].fcounters = f + (size_t)i * mod->fcounter_count;
		rc = fill(&h->layout, m, PQgetvalue(res, i, 3), PQgetvalue(res, i, 4),
			  c + (size_t)i * mod->counter_count, f + (size_t)i * mod->fcounter_count);
	}
	if (rc == -EINVAL) {
		ioa_buf_reset(h->err);
		ioa_buf_addf(h->err, "a %s record of job %s is not as the warehouse keeps them",
			     mod->name, h->params[0]);
	}
	PQclear(res);
	ioa_buf_reset(&h->b);
	rc = rc ? rc
		: ioa_enc_module_region(&h->b, (enum ioa_module)m, refs, (uint32_t)n, 0, NULL,
					NULL);
	rc = rc ? rc : ioa_logw_add(&h->w, mod->region_type, h->b.data, h->b.len);
	free(refs);
	free(c);
	free(f);
	return rc;
}

int wh_job_log(PGconn *conn, int64_t id, int out_fd, struct ioa_buf *err)
{
	char job_id[32];
	struct wh *h = calloc(1, sizeof(*h));
	PGresult *job = NULL;
	uint32_t flags = 0;
	int rc;

	if (!h)
		return -ENOMEM;
	snprintf(job_id, sizeof(job_id), "%" PRId64, id);
	h->conn = conn;
	h->params[0] = job_id;
	h->err = err;
	ioa_logw_init(&h->w, (size_t)2 << 30);
	ioa_buf_init(&h->b, (size_t)2 << 30);
	ioa_buf_init(&h->text, (size_t)1 << 30);
	rc = job_region(h, &job, &flags);
	rc = rc ? rc : names_region(h);
	rc = rc ? rc : mounts_region(h);
	rc = rc ? rc : load_layout(h);
	for (unsigned m = 0; m < IOA_MOD_COUNT && !rc; m++)
		rc = module_region(h, m);
	rc = rc ? rc : ioa_logw_write_fd(&h->w, out_fd, flags);
	if (rc && rc != -ENOENT && !err->len)
		ioa_buf_addf(err, "cannot write job %s as a log: %s", job_id, strerror(-rc));
	PQclear(job);
	ioa_logw_release(&h->w);
	ioa_buf_release(&h->b);
	ioa_buf_release(&h->text);
	free(h);
	return rc;
}
