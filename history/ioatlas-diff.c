/*
 * ioatlas diff — what changed between two runs of a program: each job a
 * warehouse job id or a log file, compared by hist_diff() (hist_diff.h),
 * printed as a table, the largest share of the change in I/O time first,
 * or as JSON.  docs/history.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "hist_diff.h"
#include "ioa_db.h"
#include "ioa_log.h"
#include "ioa_opts.h"
#include "ioa_parse.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: ioatlas diff [-j] JOB_A JOB_B\n"
		     "\n"
		     "What changed from run A to run B of a program (each a warehouse job id or\n"
		     "a log file): their I/O time per rank and layer, then each difference that\n"
		     "may explain it, the largest share of the change first: transfer sizes,\n"
		     "access pattern, bytes moved, files and their sizes, opens and metadata\n"
		     "time, MPI-IO hints, file systems, ranks.\n"
		     "  -j, --json   as JSON\n"
		     "  -h, --help   this help\n"
		     "\n"
		     "Settings (ioatlas.conf(5)): warehouse.conninfo, analyze.*.\n");
}

/* Loads what (a job id, or a log); conn is opened on the first id. */
static int load(const char *what, PGconn **conn, const struct an_settings *set, struct an_job *job,
		struct ioa_buf *err)
{
	int64_t id;
	PGresult *res;
	int rc;

	if (ioa_parse_i64(what, &id) || id <= 0) {
		rc = an_load_log(what, set, job, err);
		if (!rc)
			an_unknown_counters(job);
		return rc;
	}
	if (!*conn && !(*conn = ioa_db_connect_read(&set->db, "ioatlas diff", 10, err)))
		return -EIO;
	res = ioa_db_query(*conn, "SELECT start_time::text FROM jobs WHERE id = $1", 1,
			   (const char *const[]){what}, err, &rc, NULL);
	if (!rc && PQntuples(res) != 1) {
		ioa_buf_addf(err, "no job %s in the warehouse that you may see", what);
		rc = -ENOENT;
	}
	if (!rc)
		rc = an_load(*conn, set, id, PQgetvalue(res, 0, 0), job, err);
	if (!rc)
		an_unknown_counters(job);
	PQclear(res);
	return rc;
}

static const char *str(json_object *o, const char *key)
{
	const char *s = json_object_get_string(json_object_object_get(o, key));

	return s ? s : "";
}

static double num(json_object *o, const char *key)
{
	return json_object_get_double(json_object_object_get(o, key));
}

static void print_side(const char *name, json_object *s)
{
	static const char *const layers[] = {"POSIX", "STDIO", "MPI-IO"};
	size_t i;

	printf("%s: job %s (%s), %s, %d ranks, %.2f s, I/O %.3f s per rank", name, str(s, "job"),
	       str(s, "start_time"), str(s, "program"), (int)num(s, "ranks"), num(s, "seconds"),
	       num(s, "io_seconds"));
	for (i = 0; i < 3; i++) {
		json_object *l =
			json_object_object_get(json_object_object_get(s, "layers"), layers[i]);
		double t =
			num(l, "read_seconds") + num(l, "write_seconds") + num(l, "meta_seconds");

		if (t >= 0.0005)
			printf("; %s %.3f s", layers[i], t);
	}
	printf("\n");
}

static void print_table(json_object *d)
{
	json_object *findings = json_object_object_get(d, "findings");
	json_object *files = json_object_object_get(d, "files");
	size_t i, n = json_object_array_length(findings);
	double change = num(d, "io_seconds_change");

	print_side("A", json_object_object_get(d, "a"));
	print_side("B", json_object_object_get(d, "b"));
	printf("I/O time per rank: %+.3f s from A to B\n\n", change);
	if (!n) {
		printf("no difference found in what the counters hold\n");
		return;
	}
	printf("%10s  %-7s  %-38s  %-28s  %-28s  %s\n", "impact s", "layer", "what", "A", "B",
	       "explains");
	for (i = 0; i < n; i++) {
		json_object *f = json_object_array_get_idx(findings, i);
		const char *layer = str(f, "layer");

		printf("%+10.3f  %-7s  %-38s  %-28s  %-28s  %s\n", num(f, "impact_seconds"),
		       layer[0] ? layer : "-", str(f, "what"), str(f, "a"), str(f, "b"),
		       str(f, "explains"));
	}
	for (i = 0; i < json_object_array_length(json_object_object_get(files, "only_b")); i++)
		printf("%s  new in B: %s\n", i ? "" : "\n",
		       json_object_get_string(json_object_array_get_idx(
			       json_object_object_get(files, "only_b"), i)));
	for (i = 0; i < json_object_array_length(json_object_object_get(files, "only_a")); i++)
		printf("  gone in B: %s\n", json_object_get_string(json_object_array_get_idx(
						    json_object_object_get(files, "only_a"), i)));
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct an_settings set = {0};
	struct an_job a = {0}, b = {0};
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	PGconn *conn = NULL;
	json_object *d = NULL;
	int c, json = 0, loaded = 0, status = IOA_EXIT_FAIL;

	ioa_log_set_progname("ioatlas diff");
	while ((c = ioa_getopt(argc, argv, "jh", longs)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'h':
			usage(stdout);
			return IOA_EXIT_OK;
		default:
			usage(stderr);
			return IOA_EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		ioa_error("two jobs to compare");
		usage(stderr);
		return IOA_EXIT_USAGE;
	}
	if (an_settings_load(&set, &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		goto out;
	}
	if (load(argv[optind], &conn, &set, &a, &err)) {
		ioa_error("%s: %s", argv[optind], ioa_buf_str(&err));
		goto out;
	}
	loaded = 1;
	if (load(argv[optind + 1], &conn, &set, &b, &err)) {
		ioa_error("%s: %s", argv[optind + 1], ioa_buf_str(&err));
		goto out;
	}
	loaded = 2;
	d = hist_diff(&a, &b);
	if (!d) {
		ioa_error("out of memory");
		goto out;
	}
	if (json)
		puts(json_object_to_json_string_ext(d, JSON_C_TO_STRING_PRETTY));
	else
		print_table(d);
	status = fflush(stdout) ? IOA_EXIT_FAIL : IOA_EXIT_OK;
out:
	json_object_put(d);
	if (loaded > 0)
		an_free(&a);
	if (loaded > 1)
		an_free(&b);
	PQfinish(conn);
	an_settings_free(&set);
	ioa_buf_release(&err);
	return status;
}
