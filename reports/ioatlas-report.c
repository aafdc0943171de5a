/*
 * ioatlas report — a job's I/O report as one self-contained HTML page (or
 * its content as JSON), from the warehouse (a job id) or straight from a
 * log file (no database needed).  docs/reports.md.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "ioa_db.h"
#include "ioa_file.h"
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
		     "It replaces only a regular file, and follows a symbolic link only when\n"
		     "the running user or root owns it.\n"
		     "Settings (ioatlas.conf(5)): warehouse.conninfo, analyze.*.\n");
}

int main(int argc, char **argv)
{
	struct an_settings set = {0};
	struct an_job job;
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	const char *what = NULL, *out = NULL;
	char out_buf[PATH_MAX], source[PATH_MAX + 16];
	PGconn *conn = NULL;
	json_object *all = NULL, *model = NULL, *kernels = NULL;
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
	all = report_analyses(conn, &job, &set);
	kernels = conn ? report_kernels(conn, &job) : NULL;
	model = report_model(&job, all, kernels, source);
	if (!model) {
		ioa_error("out of memory");
		goto out;
	}
	out = out ? out : out_buf;
	rc = strcmp(out, "-") ? ioa_file_write(out, 0600, (uid_t)-1, (gid_t)-1,
					       as_json ? report_json : report_page, model)
	     : as_json	      ? report_json(stdout, model)
			      : report_page(stdout, model);
	if (rc == IOA_ENOTREG || rc == IOA_EFOREIGNLINK) {
		/* Never through another user's link, never over a device (-o /dev/null as root). */
		ioa_error("cannot write report '%s': %s; name a new or regular file, or '-' for "
			  "standard output",
			  out, ioa_strerror(rc));
		goto out;
	} else if (rc) {
		ioa_error("cannot write report '%s': %s", out, ioa_strerror(rc));
		goto out;
	}
	if (strcmp(out, "-"))
		printf("%s\n", out);
	status = 0;
out:
	json_object_put(model);
	json_object_put(all);
	json_object_put(kernels);
	if (loaded)
		an_free(&job);
	PQfinish(conn);
	an_settings_free(&set);
	ioa_buf_release(&err);
	return status;
}
