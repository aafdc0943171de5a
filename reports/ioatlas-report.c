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
#include "ioa_opts.h"
#include "ioa_parse.h"
#include "report.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: ioatlas report [-o FILE] [-j] JOB_ID|LOG\n"
		     "\n"
		     "Writes a job's I/O report: one HTML page that opens from disk, with no\n"
		     "network (or, with --json, the same content as data).\n"
		     "  JOB_ID     a job of the warehouse (its stored analyses are used)\n"
		     "  LOG        a log file (the analyses run now; no database needed)\n"
		     "  -o, --output FILE  where to write (default: job-ID.html, or the log's\n"
		     "             name with .html, in the current folder; - for standard output)\n"
		     "  -j, --json         the report's content as JSON\n"
		     "  -h, --help         this help\n"
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
	int c, as_json = 0, status = IOA_EXIT_FAIL, loaded = 0, rc;
	int64_t id = 0;
	static const struct option longs[] = {
		{"output", required_argument, NULL, 'o'},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};

	ioa_log_set_progname("ioatlas report");
	while ((c = ioa_getopt(argc, argv, "o:jh", longs)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return IOA_EXIT_OK;
		case 'j':
			as_json = 1;
			break;
		case 'o':
			out = optarg;
			break;
		default:
			usage(stderr);
			return IOA_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return IOA_EXIT_USAGE;
	}
	what = argv[optind];
	if (an_settings_load(&set, &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		goto out;
	}
	if (!ioa_parse_i64(what, &id) && id > 0) {
		PGresult *res;

		conn = ioa_db_connect_read(&set.db, "ioatlas report", 10, &err);
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
	if (conn) {
		json_object_object_add(model, "history", report_history(conn, &job));
		json_object_object_add(model, "whatif", report_whatif(conn, &job));
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
	status = IOA_EXIT_OK;
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
