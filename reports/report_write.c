/*
 * report_write — what `ioatlas report` and the dashboard share: a job's
 * analyses (stored or run now), its kernels, and the writers of its page
 * and JSON for ioa_file_write().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_db.h"
#include "ioa_log.h"
#include "report.h"

json_object *report_analyses(PGconn *conn, const struct an_job *job, const struct an_settings *set)
{
	json_object *all = json_object_new_array();
	PGresult *res = NULL;
	size_t i;
	int k;

	if (conn) {
		struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
		char id[24];

		snprintf(id, sizeof(id), "%" PRId64, job->id);
		res = ioa_db_query(
			conn,
			"SELECT analysis, version, confidence, result FROM analysis_results "
			"WHERE job = $1 AND start_time = $2",
			2, (const char *const[]){id, job->start_time}, &err, NULL, NULL);
		if (!res)
			ioa_warning("job %" PRId64
				    ": stored analyses not read (%s): running them now",
				    job->id, ioa_buf_str(&err));
		ioa_buf_release(&err);
	}
	for (i = 0; i < an_nanalyses; i++) {
		json_object *result = NULL;
		double confidence = 0;

		for (k = 0; res && k < PQntuples(res) && !result; k++)
			if (!strcmp(PQgetvalue(res, k, 0), an_analyses[i].name) &&
			    atoi(PQgetvalue(res, k, 1)) == an_analyses[i].version) {
				result = json_tokener_parse(PQgetvalue(res, k, 3));
				confidence = strtod(PQgetvalue(res, k, 2), NULL);
			}
		if (!result) {
			result = json_object_new_object();
			if (an_analyses[i].run(job, set, result, &confidence)) {
				json_object_put(result);
				continue;
			}
		}
		json_object_array_add(all, an_result_entry(&an_analyses[i], confidence, result));
	}
	PQclear(res);
	return all;
}

json_object *report_kernels(PGconn *conn, const struct an_job *job)
{
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	json_object *all = json_object_new_array();
	PGresult *res;
	char id[24];
	int i;

	snprintf(id, sizeof(id), "%" PRId64, job->id);
	res = ioa_db_query(conn,
			   "SELECT name, version, url FROM job_kernels WHERE job = $1 "
			   "AND start_time = $2 ORDER BY published_at DESC",
			   2, (const char *const[]){id, job->start_time}, &err, NULL, NULL);
	if (!res)
		ioa_warning("job %" PRId64 ": its kernels not read: %s", job->id,
			    ioa_buf_str(&err));
	for (i = 0; res && i < PQntuples(res); i++) {
		json_object *k = json_object_new_object();

		json_object_object_add(k, "name", json_object_new_string(PQgetvalue(res, i, 0)));
		json_object_object_add(k, "version", json_object_new_string(PQgetvalue(res, i, 1)));
		json_object_object_add(k, "url", json_object_new_string(PQgetvalue(res, i, 2)));
		json_object_array_add(all, k);
	}
	PQclear(res);
	ioa_buf_release(&err);
	return all;
}

json_object *report_whatif(PGconn *conn, const struct an_job *job)
{
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	json_object *all = json_object_new_array();
	PGresult *res;
	char id[24];
	int i;

	snprintf(id, sizeof(id), "%" PRId64, job->id);
	res = ioa_db_query(conn,
			   "SELECT change, coalesce(finding, ''), kernel, runs, base_seconds, "
			   "changed_seconds FROM job_whatif WHERE job = $1 AND start_time = $2 "
			   "ORDER BY run_at, change",
			   2, (const char *const[]){id, job->start_time}, &err, NULL, NULL);
	if (!res)
		ioa_warning("job %" PRId64 ": its what-if replays not read: %s", job->id,
			    ioa_buf_str(&err));
	for (i = 0; res && i < PQntuples(res); i++) {
		json_object *w = json_object_new_object();

		json_object_object_add(w, "change", json_object_new_string(PQgetvalue(res, i, 0)));
		json_object_object_add(w, "finding", json_object_new_string(PQgetvalue(res, i, 1)));
		json_object_object_add(w, "kernel", json_object_new_string(PQgetvalue(res, i, 2)));
		json_object_object_add(w, "runs", json_object_new_int(atoi(PQgetvalue(res, i, 3))));
		json_object_object_add(w, "base_seconds",
				       json_object_new_double(atof(PQgetvalue(res, i, 4))));
		json_object_object_add(w, "changed_seconds",
				       json_object_new_double(atof(PQgetvalue(res, i, 5))));
		json_object_array_add(all, w);
	}
	PQclear(res);
	ioa_buf_release(&err);
	return all;
}

int report_page(FILE *out, void *model)
{
	return report_html(model, out);
}

int report_json(FILE *out, void *model)
{
	const char *text = json_object_to_json_string_ext(
		model, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);

	return fputs(text, out) < 0 || fputc('\n', out) == EOF || fflush(out) ? -EIO : 0;
}
