/*
 * ioatlas analyze — the batch analyses over the warehouse (docs/analyses.md).
 *
 * Nightly, with no arguments: the jobs ingested over the last days
 * (--days, 7 by default) that lack a result of the current version of an
 * analysis.  On demand: --job ID (again and again), or the jobs that
 * started in a period (--since, --until), whose results are replaced.
 * Each job's results are written in one statement, keyed by (job,
 * analysis, version): running twice replaces, a new version sits beside
 * the old one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze.h"
#include "ioa_db.h"
#include "ioa_log.h"
#include "ioa_opts.h"
#include "ioa_parse.h"

struct run {
	struct an_settings set;
	PGconn *conn;
	unsigned char only[64]; /* per analysis: run it (all when none named) */
	int print;
	uint64_t jobs, failed;
	int listed; /* jobs the last query listed */
};

/* The finding table (an_findings.h), one line each, tab-separated. */
static void list_findings(void)
{
	const char *sep;
	size_t i, l;

	for (i = 0; i < AN_NFINDINGS; i++) {
		const struct an_finding_def *d = &an_findings[i];

		printf("%s\t%s\t%s\t%s\t", d->code,
		       d->kind == AN_INSIGHT ? "insight" : "observation",
		       d->setting ? d->setting : "-", d->meaning);
		/* POSIX and MPI-IO share one advice: named once, as "posix,mpiio". */
		for (l = AN_USER_MPIIO, sep = ""; l < AN_USER_LAYERS; l++)
			if (d->advice[l]) {
				printf("%s%s", sep,
				       l == AN_USER_MPIIO ? "posix,mpiio" : an_user_layer_names[l]);
				sep = ",";
			}
		printf("%s\n", *sep ? "" : "-");
	}
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ioatlas analyze [--job ID]... [--since TIME [--until TIME]] [-d N]\n"
		"                       [--only NAME,...] [-p]\n"
		"       ioatlas analyze --list | --findings\n"
		"\n"
		"Runs the analyses on jobs in the warehouse and stores their results.\n"
		"  (no job)        the jobs ingested in the last -d, --days N days (7) that lack "
		"a\n"
		"                  result of an analysis's current version: the nightly run\n"
		"  --job ID        this job (results replaced)\n"
		"  --since, --until TIME   jobs that started in [since, until) (results replaced)\n"
		"  --only NAMES    these analyses only (comma-separated; see --list)\n"
		"  -p, --print     print each job's findings\n"
		"  --list          list the analyses and their versions\n"
		"  --findings      list every finding: code, kind, setting, meaning, and\n"
		"                  the layers it has advice for\n"
		"  -h, --help      this help\n"
		"\n"
		"Settings (ioatlas.conf(5)): warehouse.conninfo, analyze.*.\n");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * The results of one job, as the JSON array that the storing statements
 * unpack: those of the same analyses and versions replaced (deleted, then
 * inserted, in one transaction: the table is keyed per month, not on the
 * parent a statement's ON CONFLICT would need; warehouse 0012).
 */
static int store(struct run *run, const struct an_job *job, json_object *all)
{
	static const char del[] =
		"DELETE FROM analysis_results r USING jsonb_array_elements($3::jsonb) AS e "
		"WHERE r.job = $1 AND r.start_time = $2 AND r.analysis = e->>'analysis' "
		"AND r.version = (e->>'version')::integer";
	static const char ins[] =
		"INSERT INTO analysis_results (job, start_time, analysis, version, confidence, "
		"result) "
		"SELECT $1, $2, e->>'analysis', (e->>'version')::integer, "
		"(e->>'confidence')::double precision, e->'result' "
		"FROM jsonb_array_elements($3::jsonb) AS e";
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX), ignore = IOA_BUF_INIT(1024);
	char id[24];
	const char *p[] = {id, job->start_time,
			   json_object_to_json_string_ext(all, JSON_C_TO_STRING_PLAIN)};
	int rc;

	snprintf(id, sizeof(id), "%" PRId64, job->id);
	rc = ioa_db_exec(run->conn, "BEGIN", 0, NULL, &err);
	rc = rc ? rc : ioa_db_exec(run->conn, del, 3, p, &err);
	rc = rc ? rc : ioa_db_exec(run->conn, ins, 3, p, &err);
	rc = rc ? rc : ioa_db_exec(run->conn, "COMMIT", 0, NULL, &err);
	if (rc)
		ioa_db_exec(run->conn, "ROLLBACK", 0, NULL, &ignore);
	ioa_buf_release(&ignore);
	if (rc)
		ioa_error("job %" PRId64 ": results not stored: %s", job->id, ioa_buf_str(&err));
	ioa_buf_release(&err);
	return rc;
}

static void print_findings(const struct an_job *job, json_object *all)
{
	size_t i, k;

	ioa_progress_clear();
	printf("job %" PRId64 " (%s, %d rank%s, %s):\n", job->id, job->exe, job->nprocs,
	       job->nprocs == 1 ? "" : "s", job->user);
	for (i = 0; i < json_object_array_length(all); i++) {
		json_object *a = json_object_array_get_idx(all, i);
		const char *name = json_object_get_string(json_object_object_get(a, "analysis"));
		json_object *findings =
			json_object_object_get(json_object_object_get(a, "result"), "findings");

		for (k = 0; k < json_object_array_length(findings); k++) {
			json_object *f = json_object_array_get_idx(findings, k);
			json_object *sev = json_object_object_get(f, "severity");
			json_object *advice = json_object_object_get(f, "recommendation");

			printf("  %-15s %s%s%s%s\n", k ? "" : name, sev ? "[" : "",
			       sev ? json_object_get_string(sev) : "", sev ? "] " : "",
			       json_object_get_string(json_object_object_get(f, "text")));
			if (advice)
				printf("  %-15s   -> %s\n", "", json_object_get_string(advice));
		}
	}
}

static int analyze_job(struct run *run, int64_t id, const char *start)
{
	struct an_job job;
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	json_object *all = json_object_new_array();
	size_t i;
	int rc = an_load(run->conn, &run->set, id, start, &job, &err);

	if (rc) {
		ioa_error("job %" PRId64 ": cannot load it: %s", id, ioa_buf_str(&err));
		goto out;
	}
	for (i = 0; i < an_nanalyses; i++) {
		json_object *result;
		double confidence = 0;
		int arc;

		if (!run->only[i])
			continue;
		result = json_object_new_object();
		arc = an_analyses[i].run(&job, &run->set, result, &confidence);
		if (arc) {
			/* One analysis failing (memory) leaves the others' results standing. */
			ioa_error("job %" PRId64 ": analysis %s failed: %s", id,
				  an_analyses[i].name, ioa_strerror(arc));
			json_object_put(result);
			run->failed++;
			continue;
		}
		json_object_array_add(all, an_result_entry(&an_analyses[i], confidence, result));
	}
	rc = store(run, &job, all);
	if (!rc && run->print)
		print_findings(&job, all);
	an_free(&job);
out:
	json_object_put(all);
	ioa_buf_release(&err);
	if (rc == -ECONNRESET)
		return rc; /* the warehouse is gone: no point in the next job */
	run->jobs += !rc;
	run->failed += rc != 0;
	return 0;
}

/* Runs every job a query lists (id, start_time as text). */
static int analyze_listed(struct run *run, const char *sql, int n, const char *const *params)
{
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	PGresult *res = ioa_db_query(run->conn, sql, n, params, &err, NULL, NULL);
	int i, rc = 0;

	if (!res) {
		ioa_error("cannot list the jobs: %s", ioa_buf_str(&err));
		ioa_buf_release(&err);
		return -EIO;
	}
	run->listed = PQntuples(res);
	if (PQntuples(res) > 1)
		ioa_progress_begin("analysing jobs", (unsigned long long)PQntuples(res));
	for (i = 0; i < PQntuples(res) && !rc; i++) {
		int64_t id = 0;

		ioa_parse_i64(PQgetvalue(res, i, 0), &id);
		rc = analyze_job(run, id, PQgetvalue(res, i, 1));
		ioa_progress_step((unsigned long long)i + 1);
	}
	ioa_progress_end();
	PQclear(res);
	ioa_buf_release(&err);
	return rc;
}

/* The nightly selection: recent jobs missing a result of a selected analysis's version. */
static int analyze_new(struct run *run, long days)
{
	static const char sql[] =
		"SELECT j.id, j.start_time::text FROM ingest_ledger l "
		"JOIN jobs j ON j.ledger = l.id "
		"WHERE l.status = 'ingested' AND l.finished_at >= now() - make_interval(days => "
		"$1) "
		"AND EXISTS (SELECT 1 FROM unnest($2::text[], $3::integer[]) AS a(name, version) "
		"WHERE NOT EXISTS (SELECT 1 FROM analysis_results r WHERE r.job = j.id "
		"AND r.start_time = j.start_time AND r.analysis = a.name AND r.version = "
		"a.version)) "
		"ORDER BY j.start_time, j.id";
	struct ioa_buf names = IOA_BUF_INIT(4096), versions = IOA_BUF_INIT(4096);
	char d[24];
	size_t i;
	int rc;

	for (i = 0; i < an_nanalyses; i++)
		if (run->only[i]) {
			ioa_buf_addf(&names, "%s%s", names.len ? "," : "{", an_analyses[i].name);
			ioa_buf_addf(&versions, "%s%d", versions.len ? "," : "{",
				     an_analyses[i].version);
		}
	ioa_buf_addstr(&names, "}");
	ioa_buf_addstr(&versions, "}");
	snprintf(d, sizeof(d), "%ld", days);
	rc = analyze_listed(run, sql, 3, (const char *const[]){d, names.data, versions.data});
	ioa_buf_release(&names);
	ioa_buf_release(&versions);
	return rc;
}

static int select_only(struct run *run, const char *list)
{
	char *copy = strdup(list), *name, *save = NULL;
	size_t i;
	int rc = copy ? 0 : -ENOMEM;

	for (name = copy ? strtok_r(copy, ",", &save) : NULL; name && !rc;
	     name = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < an_nanalyses && strcmp(an_analyses[i].name, name); i++)
			;
		if (i == an_nanalyses) {
			ioa_error("no analysis '%s' (see --list)", name);
			rc = -EINVAL;
		} else {
			run->only[i] = 1;
		}
	}
	free(copy);
	return rc;
}

int main(int argc, char **argv)
{
	struct run run = {0};
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	const char *since = NULL, *until = "infinity";
	int64_t *ids = calloc((size_t)argc + 1, sizeof(*ids));
	size_t nids = 0, i;
	long days = 7;
	int c, rc = 0, status = IOA_EXIT_FAIL;
	double t0 = now();
	/* Long options without a short one take a capital letter for their value. */
	static const struct option longs[] = {
		{"job", required_argument, NULL, 'J'},	 {"since", required_argument, NULL, 'S'},
		{"until", required_argument, NULL, 'U'}, {"days", required_argument, NULL, 'd'},
		{"only", required_argument, NULL, 'O'},	 {"print", no_argument, NULL, 'p'},
		{"list", no_argument, NULL, 'L'},	 {"findings", no_argument, NULL, 'F'},
		{"help", no_argument, NULL, 'h'},	 {NULL, 0, NULL, 0},
	};

	ioa_log_set_progname("ioatlas analyze");
	while (ids && (c = ioa_getopt(argc, argv, "d:ph", longs)) != -1) {
		int64_t v;

		switch (c) {
		case 'h':
			usage(stdout);
			free(ids);
			return IOA_EXIT_OK;
		case 'L':
			for (i = 0; i < an_nanalyses; i++)
				printf("%-15s v%d  %s\n", an_analyses[i].name,
				       an_analyses[i].version, an_analyses[i].what);
			free(ids);
			return IOA_EXIT_OK;
		case 'F':
			list_findings();
			free(ids);
			return IOA_EXIT_OK;
		case 'p':
			run.print = 1;
			break;
		case 'J':
			if (ioa_parse_i64(optarg, &v) || v <= 0) {
				ioa_error("--job: not a job id: '%s'", optarg);
				status = IOA_EXIT_USAGE;
				goto out;
			}
			ids[nids++] = v;
			break;
		case 'S':
			since = optarg;
			break;
		case 'U':
			until = optarg;
			break;
		case 'd':
			if (ioa_parse_i64(optarg, &v) || v <= 0 || v >= 100000) {
				ioa_error("--days: not a number of days from 1 to 99999: '%s'",
					  optarg);
				status = IOA_EXIT_USAGE;
				goto out;
			}
			days = (long)v;
			break;
		case 'O':
			if (select_only(&run, optarg))
				goto out;
			break;
		default:
			usage(stderr);
			status = IOA_EXIT_USAGE;
			goto out;
		}
	}
	if (ids && optind != argc) {
		ioa_error("no operand expected: '%s'", argv[optind]);
		usage(stderr);
		status = IOA_EXIT_USAGE;
		goto out;
	}
	if (!ids)
		goto out;
	for (i = 0; i < an_nanalyses && !memchr(run.only, 1, an_nanalyses); i++)
		;
	if (i == an_nanalyses)
		memset(run.only, 1, an_nanalyses);
	if (an_settings_load(&run.set, &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		goto out;
	}
	run.conn = ioa_db_connect(run.set.db.conninfo, "ioatlas analyze", &err);
	if (!run.conn) {
		ioa_error("%s", ioa_buf_str(&err));
		goto out;
	}
	for (i = 0; i < nids && !rc; i++) {
		char id[24];

		snprintf(id, sizeof(id), "%" PRId64, ids[i]);
		rc = analyze_listed(&run, "SELECT id, start_time::text FROM jobs WHERE id = $1", 1,
				    (const char *const[]){id});
		if (!rc && !run.listed) {
			ioa_error("no job %s in the warehouse", id);
			run.failed++;
		}
	}
	if (!rc && since)
		rc = analyze_listed(&run,
				    "SELECT id, start_time::text FROM jobs WHERE start_time >= $1 "
				    "AND start_time < $2 ORDER BY start_time, id",
				    2, (const char *const[]){since, until});
	if (!rc && !nids && !since)
		rc = analyze_new(&run, days);
	{
		double s = now() - t0;

		fprintf(stderr,
			"ioatlas analyze: %" PRIu64 " jobs analysed in %.2f s (%.1f jobs/s)%s\n",
			run.jobs, s, s > 0 ? (double)run.jobs / s : 0,
			run.failed ? ", with failures (see above)" : "");
	}
	status = rc || run.failed ? IOA_EXIT_FAIL : IOA_EXIT_OK;
out:
	PQfinish(run.conn);
	an_settings_free(&run.set);
	ioa_buf_release(&err);
	free(ids);
	return status;
}
