/*
 * ioatlas report — a job's I/O report as one self-contained HTML page (or
 * its content as JSON), from the warehouse (a job id) or straight from a
 * log file (no database needed).  docs/reports.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "ioa_db.h"
#include "ioa_log.h"
#include "ioa_parse.h"
#include "report.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: ioatlas report JOB_ID|LOG [-o FILE] [--json]\n"
		     "\n"
		     "Writes a job's I/O report: one HTML page that opens from disk, with no\n"
		     "network (or, with --json, the same content as data).\n"
		     "  JOB_ID     a job of the warehouse (its stored analyses are used)\n"
		     "  LOG        a log file (the analyses run now; no database needed)\n"
		     "  -o FILE    where to write (default: job-ID.html, or the log's name with\n"
		     "             .html, in the current folder; - for standard output)\n"
		     "  --json     the report's content as JSON\n"
		     "\n"
		     "The file is created readable by its owner only: it holds the job's paths.\n"
		     "Settings (ioatlas.conf(5)): warehouse.conninfo, analyze.*.\n");
}

/* The analyses' results: stored ones of the current versions, the others computed now. */
static json_object *analyses(PGconn *conn, const struct an_job *job, const struct an_settings *set)
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

/*
 * Writes the report to path through a temporary file renamed into place:
 * a full disk leaves no half report.  The file is the owner's alone.
 */
static int write_out(json_object *model, const char *path, int as_json)
{
	char tmp[PATH_MAX];
	FILE *f;
	int fd, rc;

	if (!strcmp(path, "-")) {
		if (as_json)
			return fputs(json_object_to_json_string_ext(
					     model, JSON_C_TO_STRING_PRETTY |
							    JSON_C_TO_STRING_NOSLASHESCAPE),
				     stdout) < 0 ||
					       putchar('\n') == EOF || fflush(stdout)
				       ? -EIO
				       : 0;
		return report_html(model, stdout);
	}
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return -ENOMEM;
	}
	if (as_json)
		rc = fputs(json_object_to_json_string_ext(
				   model, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE),
			   f) < 0
			     ? -EIO
			     : 0;
	else
		rc = report_html(model, f);
	if (fclose(f) && !rc)
		rc = -EIO;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

int main(int argc, char **argv)
{
	struct an_settings set = {0};
	struct an_job job;
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	const char *what = NULL, *out = NULL;
	char out_buf[PATH_MAX], source[PATH_MAX + 16];
	PGconn *conn = NULL;
	json_object *all = NULL, *model = NULL;
	int a, as_json = 0, status = 1, loaded = 0, rc;
	int64_t id = 0;

	ioa_log_set_progname("ioatlas report");
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[a], "--json")) {
			as_json = 1;
		} else if (!strcmp(argv[a], "-o") && a + 1 < argc) {
			out = argv[++a];
		} else if (!what && argv[a][0] != '-') {
			what = argv[a];
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (!what) {
		usage(stderr);
		return 2;
	}
	if (an_settings_load(&set, &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		goto out;
	}
	if (!ioa_parse_i64(what, &id) && id > 0) {
		PGresult *res;

		conn = ioa_db_connect(set.conninfo, "ioatlas report", &err);
		if (!conn) {
			ioa_error("%s", ioa_buf_str(&err));
			goto out;
		}
		res = ioa_db_query(conn, "SELECT start_time::text FROM jobs WHERE id = $1", 1,
				   (const char *const[]){what}, &err, NULL, NULL);
		if (!res || PQntuples(res) != 1) {
			ioa_error("%s", res ? "no such job in the warehouse" : ioa_buf_str(&err));
			PQclear(res);
			goto out;
		}
		rc = an_load(conn, &set, id, PQgetvalue(res, 0, 0), &job, &err);
		PQclear(res);
		snprintf(source, sizeof(source), "warehouse");
		snprintf(out_buf, sizeof(out_buf), "job-%" PRId64 ".%s", id,
			 as_json ? "json" : "html");
	} else {
		char copy[PATH_MAX];

		rc = an_load_log(what, &set, &job, &err);
		snprintf(source, sizeof(source), "log %s", what);
		snprintf(copy, sizeof(copy), "%s", what);
		snprintf(out_buf, sizeof(out_buf), "%.*s.%s", (int)(sizeof(out_buf) - 8),
			 basename(copy), as_json ? "json" : "html");
	}
	if (rc) {
		ioa_error("%s", ioa_buf_str(&err));
		goto out;
	}
	loaded = 1;
	all = analyses(conn, &job, &set);
	model = report_model(&job, all, source);
	if (!model) {
		ioa_error("out of memory");
		goto out;
	}
	out = out ? out : out_buf;
	rc = write_out(model, out, as_json);
	if (rc) {
		ioa_error("cannot write '%s': %s", out, ioa_strerror(rc));
		goto out;
	}
	if (strcmp(out, "-"))
		printf("%s\n", out);
	status = 0;
out:
	json_object_put(model);
	json_object_put(all);
	if (loaded)
		an_free(&job);
	PQfinish(conn);
	an_settings_free(&set);
	ioa_buf_release(&err);
	return status;
}
