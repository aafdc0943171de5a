/*
 * ioatlas history — an application's or a user's jobs over time (I/O time
 * share, time per layer, bytes, files, bandwidth, insight codes) and the
 * changes found in them; with --update, the nightly's step that finds those
 * changes (hist_detect.h) and tells the site's hook of each new one.
 * docs/history.md.
 *
 * What a user may see is what the warehouse's row-level security shows the
 * connection's role: a user's own role sees that user's applications only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hist_settings.h"
#include "history.h"
#include "ioa_db.h"
#include "ioa_log.h"
#include "ioa_opts.h"
#include "ioa_parse.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ioatlas history APP|USER [-u USER] [-s TIME] [-t TIME] [-n COUNT] [-j]\n"
		"       ioatlas history -u USER [...]\n"
		"       ioatlas history --changes [-d DAYS] [-j]\n"
		"       ioatlas history --update [--all]\n"
		"\n"
		"An application's jobs (APP: its name, as `ioatlas history --apps` lists them,\n"
		"or its id), or all of a user's, oldest first: when, ranks, run time, the\n"
		"share of it in I/O, I/O time per layer, bytes, files, bandwidth and the\n"
		"insight codes; each change found in the application's runs is shown under\n"
		"the first job after it.\n"
		"  -u, --user USER    USER's applications of that name, or all USER's jobs\n"
		"  -s, --since TIME   jobs that started at TIME or later (PostgreSQL's forms)\n"
		"  -t, --until TIME   and before TIME\n"
		"  -n, --limit COUNT  the latest COUNT jobs (default 50)\n"
		"  -j, --json         as JSON\n"
		"      --apps         list the applications (name, user, runs, last run)\n"
		"      --changes      the changes found in the last days\n"
		"  -d, --days DAYS    with --changes: that many days (default 30)\n"
		"      --update       find the changes in the applications with new runs and\n"
		"                     run the history.hook for each change not yet told (the\n"
		"                     nightly's history step); --all: every application\n"
		"  -h, --help         this help\n"
		"\n"
		"Settings (ioatlas.conf(5)): warehouse.conninfo, history.*.\n");
}

/* ------------------------------------------------------------ printing */

/* "2026-11-30 04:05" of the warehouse's "2026-11-30 04:05:06.123+00". */
static const char *minute(const char *ts, char *buf, size_t len)
{
	snprintf(buf, len, "%.16s", ts);
	return buf;
}

static void print_change_line(PGresult *res, int i, const char *indent)
{
	char a[32], b[32], t[32];
	const char *metric = PQgetvalue(res, i, 1);
	double before = strtod(PQgetvalue(res, i, 3), NULL);
	double after = strtod(PQgetvalue(res, i, 4), NULL);
	double p = strtod(PQgetvalue(res, i, 5), NULL);

	printf("%s%s %s (%s): %s %s -> %s (x%.3g) from job %s (%s) on; %s runs before, %s "
	       "after; p = %.2g, confidence %.2f%%; compare: ioatlas diff %s %s\n",
	       indent, !strcmp(PQgetvalue(res, i, 2), "regression") ? "REGRESSION" : "IMPROVEMENT",
	       PQgetvalue(res, i, 10), PQgetvalue(res, i, 11), history_metric_title(metric),
	       history_metric_format(metric, before, a, sizeof(a)),
	       history_metric_format(metric, after, b, sizeof(b)), before > 0 ? after / before : 0,
	       PQgetvalue(res, i, 0), minute(PQgetvalue(res, i, 7), t, sizeof(t)),
	       PQgetvalue(res, i, 8), PQgetvalue(res, i, 9), p, 100 * (1 - p),
	       PQgetvalue(res, i, 6), PQgetvalue(res, i, 0));
}

/*
 * The columns print_change_line(), change_json() and the hook read, of
 * history_changes c, applications a, users u: history_change_json()'s,
 * then these.
 */
#define CHANGE_COLUMNS                                                                \
	"c." HISTORY_CHANGE_COLUMNS ", c.runs_before, c.runs_after, a.name, u.name, " \
	"c.found_at, c.app_id "

static json_object *change_json(PGresult *res, int i)
{
	json_object *o = history_change_json(res, i, 0);

	json_object_object_add(o, "application", json_object_new_string(PQgetvalue(res, i, 10)));
	json_object_object_add(o, "user", json_object_new_string(PQgetvalue(res, i, 11)));
	json_object_object_add(o, "runs_before", json_object_new_int(atoi(PQgetvalue(res, i, 8))));
	json_object_object_add(o, "runs_after", json_object_new_int(atoi(PQgetvalue(res, i, 9))));
	json_object_object_add(o, "p_value",
			       json_object_new_double(strtod(PQgetvalue(res, i, 5), NULL)));
	json_object_object_add(o, "found_at", json_object_new_string(PQgetvalue(res, i, 12)));
	return o;
}

/* ------------------------------------------------------------ a history */

struct query {
	PGconn *conn;
	const char *target, *user, *since, *until, *limit;
	int json;
};

/* The applications target names (a name or an id, of user when given), as "{1,2}"; "" none. */
static int resolve_apps(struct query *q, struct ioa_buf *ids, struct ioa_buf *err)
{
	static const char sql[] =
		"SELECT coalesce('{' || string_agg(a.id::text, ',' ORDER BY a.id) || '}', '') "
		"FROM applications a JOIN users u ON u.id = a.user_id "
		"WHERE (a.name = $1 OR a.id::text = $1) AND ($2::text IS NULL OR u.name = $2)";
	const char *p[] = {q->target, q->user};
	int rc;
	PGresult *res = ioa_db_query(q->conn, sql, 2, p, err, &rc, NULL);

	if (res)
		rc = ioa_buf_addstr(ids, PQgetvalue(res, 0, 0));
	PQclear(res);
	return rc;
}

static void print_rows(PGresult *rows, PGresult *changes, int by_user)
{
	int i, k, n = PQntuples(rows);

	printf("%-16s %8s %-8s %5s %8s %5s %8s %8s %8s %8s %9s %9s %6s %10s  %s\n", "start", "job",
	       by_user ? "app" : "build", "ranks", "run s", "I/O%", "I/O s", "POSIX s", "STDIO s",
	       "MPI-IO s", "read", "written", "files", "bandwidth", "insights");
	for (i = n - 1; i >= 0; i--) {
		char t[32], rd[16], wr[16], bw[24], app[9];
		double share = strtod(PQgetvalue(rows, i, 6), NULL);
		double layer[3] = {0, 0, 0};
		const char *codes = PQgetvalue(rows, i, 14);

		sscanf(PQgetvalue(rows, i, 11), "{%lf,%lf,%lf}", &layer[0], &layer[1], &layer[2]);
		ioa_format_bytes(strtod(PQgetvalue(rows, i, 8), NULL), rd, sizeof(rd));
		ioa_format_bytes(strtod(PQgetvalue(rows, i, 9), NULL), wr, sizeof(wr));
		history_metric_format("bandwidth", strtod(PQgetvalue(rows, i, 13), NULL), bw,
				      sizeof(bw));
		snprintf(app, sizeof(app), "%s", PQgetvalue(rows, i, by_user ? 2 : 3));
		printf("%-16s %8s %-8s %5s %8.2f %5.1f %8.3f %8.3f %8.3f %8.3f %9s %9s %6s %10s  "
		       "%.*s\n",
		       minute(PQgetvalue(rows, i, 1), t, sizeof(t)), PQgetvalue(rows, i, 0), app,
		       PQgetvalue(rows, i, 4), strtod(PQgetvalue(rows, i, 5), NULL),
		       PQgetisnull(rows, i, 6) ? 0 : 100 * share,
		       strtod(PQgetvalue(rows, i, 7), NULL), layer[0], layer[1], layer[2], rd, wr,
		       PQgetvalue(rows, i, 10), PQgetisnull(rows, i, 13) ? "-" : bw,
		       (int)strlen(codes) - 2, codes + 1);
		for (k = 0; changes && k < PQntuples(changes); k++)
			if (!strcmp(PQgetvalue(changes, k, 0), PQgetvalue(rows, i, 0)))
				print_change_line(changes, k, "  ^ ");
	}
}

static json_object *rows_json(PGresult *rows, PGresult *changes)
{
	json_object *out = json_object_new_object(), *jobs = json_object_new_array();
	json_object *found = json_object_new_array();
	int i, n = PQntuples(rows);

	for (i = n - 1; i >= 0; i--) {
		json_object *o = json_object_new_object();
		const char *c;

		json_object_object_add(
			o, "job", json_object_new_int64(strtoll(PQgetvalue(rows, i, 0), NULL, 10)));
		json_object_object_add(o, "start_time",
				       json_object_new_string(PQgetvalue(rows, i, 1)));
		json_object_object_add(o, "application",
				       json_object_new_string(PQgetvalue(rows, i, 2)));
		json_object_object_add(o, "build_id",
				       PQgetisnull(rows, i, 3)
					       ? NULL
					       : json_object_new_string(PQgetvalue(rows, i, 3)));
		json_object_object_add(o, "user", json_object_new_string(PQgetvalue(rows, i, 15)));
		json_object_object_add(o, "nprocs",
				       json_object_new_int(atoi(PQgetvalue(rows, i, 4))));
		json_object_object_add(
			o, "seconds", json_object_new_double(strtod(PQgetvalue(rows, i, 5), NULL)));
		json_object_object_add(
			o, "io_share",
			PQgetisnull(rows, i, 6)
				? NULL
				: json_object_new_double(strtod(PQgetvalue(rows, i, 6), NULL)));
		json_object_object_add(
			o, "io_seconds",
			json_object_new_double(strtod(PQgetvalue(rows, i, 7), NULL)));
		json_object_object_add(
			o, "bytes_read",
			json_object_new_int64(strtoll(PQgetvalue(rows, i, 8), NULL, 10)));
		json_object_object_add(
			o, "bytes_written",
			json_object_new_int64(strtoll(PQgetvalue(rows, i, 9), NULL, 10)));
		json_object_object_add(o, "files",
				       json_object_new_int(atoi(PQgetvalue(rows, i, 10))));
		json_object_object_add(o, "layer_seconds",
				       json_tokener_parse(PQgetvalue(rows, i, 16)));
		json_object_object_add(o, "layer_bytes",
				       json_tokener_parse(PQgetvalue(rows, i, 12)));
		json_object_object_add(o, "layer_bandwidth",
				       json_tokener_parse(PQgetvalue(rows, i, 19)));
		json_object_object_add(
			o, "bandwidth",
			PQgetisnull(rows, i, 13)
				? NULL
				: json_object_new_double(strtod(PQgetvalue(rows, i, 13), NULL)));
		json_object_object_add(
			o, "meta_seconds",
			json_object_new_double(strtod(PQgetvalue(rows, i, 17), NULL)));
		c = PQgetvalue(rows, i, 18);
		json_object_object_add(o, "insights", json_tokener_parse(c));
		json_object_array_add(jobs, o);
	}
	for (i = 0; changes && i < PQntuples(changes); i++)
		json_object_array_add(found, change_json(changes, i));
	json_object_object_add(out, "jobs", jobs);
	json_object_object_add(out, "changes", found);
	return out;
}

/*
 * The jobs: rows of application_history (its latest first), the
 * applications' changes beside them.  Every filter is a parameter; the
 * index on (app_id, start_time) or (user_id, start_time) serves it.
 */
static int show(struct query *q, struct ioa_buf *err)
{
	static const char rows_sql[] =
		"SELECT h.job, h.start_time, h.application, h.build_id, h.nprocs, h.seconds, "
		"h.io_share, h.io_seconds, h.bytes_read, h.bytes_written, h.files, "
		"h.layer_seconds, "
		"array_to_json(ARRAY[h.layer_bytes_read, h.layer_bytes_written]), h.bandwidth, "
		"'{' || array_to_string(h.codes, ',') || '}', h.user_name, "
		"array_to_json(h.layer_seconds), h.meta_seconds, array_to_json(h.codes), "
		"array_to_json(h.layer_bandwidth) "
		"FROM application_history h "
		"WHERE (h.app_id = ANY ($1::integer[]) OR ($1::integer[] IS NULL AND h.user_name = "
		"$2)) "
		"AND h.start_time >= coalesce($3::timestamptz, '-infinity') "
		"AND h.start_time < coalesce($4::timestamptz, 'infinity') "
		"ORDER BY h.start_time DESC, h.job DESC LIMIT $5::bigint";
	static const char changes_sql[] =
		"SELECT " CHANGE_COLUMNS "FROM history_changes c "
		"JOIN applications a ON a.id = c.app_id JOIN users u ON u.id = a.user_id "
		"WHERE c.job = ANY ($1::bigint[]) ORDER BY c.job, c.metric";
	struct ioa_buf ids = IOA_BUF_INIT(1 << 20), jobs = IOA_BUF_INIT(1 << 24);
	PGresult *rows = NULL, *changes = NULL;
	int rc = 0, i;

	if (q->target)
		rc = resolve_apps(q, &ids, err);
	if (!rc && q->target && !ids.len && !q->user) {
		/* No application of that name: a user's name, then. */
		q->user = q->target;
		q->target = NULL;
	} else if (!rc && q->target && !ids.len) {
		ioa_buf_addf(err, "no application '%s' of user '%s' that you may see", q->target,
			     q->user);
		rc = -ENOENT;
	}
	if (!rc) {
		const char *p[] = {ids.len ? ids.data : NULL, q->user, q->since, q->until,
				   q->limit};

		rows = ioa_db_query(q->conn, rows_sql, 5, p, err, &rc, NULL);
	}
	if (!rc && !PQntuples(rows)) {
		ioa_buf_addf(err, "no jobs of %s '%s' that you may see%s",
			     q->target ? "application" : "user", q->target ? q->target : q->user,
			     q->since || q->until ? " in that period" : "");
		rc = -ENOENT;
	}
	for (i = 0; !rc && i < PQntuples(rows); i++)
		rc = ioa_buf_addf(&jobs, "%s%s", i ? "," : "{", PQgetvalue(rows, i, 0));
	if (!rc && !(rc = ioa_buf_addstr(&jobs, "}"))) {
		const char *p[] = {jobs.data};

		changes = ioa_db_query(q->conn, changes_sql, 1, p, err, &rc, NULL);
	}
	if (!rc && q->json) {
		json_object *o = rows_json(rows, changes);

		puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY));
		json_object_put(o);
	} else if (!rc) {
		print_rows(rows, changes, !q->target);
	}
	PQclear(rows);
	PQclear(changes);
	ioa_buf_release(&ids);
	ioa_buf_release(&jobs);
	return rc;
}

static int list_apps(PGconn *conn, int json, struct ioa_buf *err)
{
	static const char sql[] =
		"SELECT a.id, a.name, u.name, count(h.job), max(h.start_time), "
		"(SELECT count(*) FROM history_changes c WHERE c.app_id = a.id) "
		"FROM applications a JOIN users u ON u.id = a.user_id "
		"LEFT JOIN job_history h ON h.app_id = a.id "
		"GROUP BY a.id, a.name, u.name ORDER BY max(h.start_time) DESC NULLS LAST, a.id";
	int rc, i;
	PGresult *res = ioa_db_query(conn, sql, 0, NULL, err, &rc, NULL);
	json_object *arr = json ? json_object_new_array() : NULL;

	if (rc)
		return rc;
	if (!json)
		printf("%6s  %-24s %-12s %6s  %-16s  %s\n", "id", "application", "user", "runs",
		       "last run", "changes");
	for (i = 0; i < PQntuples(res); i++) {
		char t[32];

		if (json) {
			json_object *o = json_object_new_object();

			json_object_object_add(o, "id",
					       json_object_new_int(atoi(PQgetvalue(res, i, 0))));
			json_object_object_add(o, "name",
					       json_object_new_string(PQgetvalue(res, i, 1)));
			json_object_object_add(o, "user",
					       json_object_new_string(PQgetvalue(res, i, 2)));
			json_object_object_add(o, "runs",
					       json_object_new_int(atoi(PQgetvalue(res, i, 3))));
			json_object_object_add(
				o, "last_run",
				PQgetisnull(res, i, 4)
					? NULL
					: json_object_new_string(PQgetvalue(res, i, 4)));
			json_object_object_add(o, "changes",
					       json_object_new_int(atoi(PQgetvalue(res, i, 5))));
			json_object_array_add(arr, o);
		} else {
			printf("%6s  %-24s %-12s %6s  %-16s  %s\n", PQgetvalue(res, i, 0),
			       PQgetvalue(res, i, 1), PQgetvalue(res, i, 2), PQgetvalue(res, i, 3),
			       minute(PQgetvalue(res, i, 4), t, sizeof(t)), PQgetvalue(res, i, 5));
		}
	}
	if (json) {
		puts(json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PRETTY));
		json_object_put(arr);
	}
	PQclear(res);
	return 0;
}

static int list_changes(PGconn *conn, const char *days, int json, struct ioa_buf *err)
{
	static const char sql[] =
		"SELECT " CHANGE_COLUMNS "FROM history_changes c "
		"JOIN applications a ON a.id = c.app_id JOIN users u ON u.id = a.user_id "
		"WHERE c.found_at >= now() - make_interval(days => $1::integer) "
		"ORDER BY c.found_at, c.id";
	int rc, i;
	PGresult *res = ioa_db_query(conn, sql, 1, &days, err, &rc, NULL);
	json_object *arr = json ? json_object_new_array() : NULL;

	if (rc)
		return rc;
	for (i = 0; i < PQntuples(res); i++)
		if (json)
			json_object_array_add(arr, change_json(res, i));
		else
			print_change_line(res, i, "");
	if (json) {
		puts(json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PRETTY));
		json_object_put(arr);
	} else if (!PQntuples(res)) {
		printf("no changes found in the last %s days\n", days);
	}
	PQclear(res);
	return 0;
}

/* ------------------------------------------------------------ --update */

struct tally {
	unsigned apps, regressions, improvements, hooks, hook_failures;
};

/* Finds the changes in one application's latest runs; stores the new ones. */
static int update_app(PGconn *conn, const struct hist_site *site, const char *app, struct tally *t,
		      struct ioa_buf *err)
{
	static const char runs_sql[] =
		"SELECT job, start_time, io_seconds, meta_seconds, bytes_read + bytes_written, "
		"files FROM job_history WHERE app_id = $1::integer "
		"ORDER BY start_time DESC, job DESC LIMIT $2::bigint";
	static const char insert_sql[] =
		"INSERT INTO history_changes (app_id, metric, job, start_time, kind, before, "
		"after, "
		"runs_before, runs_after, p_value, previous_job) "
		"VALUES ($1::integer, $2, $3::bigint, $4::timestamptz, $5, $6::float8, $7::float8, "
		"$8::integer, $9::integer, $10::float8, $11::bigint) "
		"ON CONFLICT (app_id, metric, job) DO NOTHING RETURNING id";
	static const char checked_sql[] =
		"INSERT INTO history_checked (app_id, through) VALUES ($1::integer, "
		"$2::timestamptz) "
		"ON CONFLICT (app_id) DO UPDATE SET through = greatest(history_checked.through, "
		"EXCLUDED.through)";
	char limit[24];
	const char *p[11];
	PGresult *res;
	double *x = NULL;
	int rc, n, i;
	size_t m;
	struct ioa_buf ignore = IOA_BUF_INIT(1024);

	snprintf(limit, sizeof(limit), "%lld", site->runs);
	p[0] = app;
	p[1] = limit;
	res = ioa_db_query(conn, runs_sql, 2, p, err, &rc, NULL);
	if (rc)
		return rc;
	n = PQntuples(res);
	x = malloc((size_t)(n ? n : 1) * sizeof(*x));
	rc = x ? ioa_db_exec(conn, "BEGIN", 0, NULL, err) : -ENOMEM;
	for (m = 0; m < HISTORY_METRICS && !rc; m++) {
		struct hist_change *c = NULL;
		size_t nc = 0, k;

		/* Oldest first. */
		for (i = 0; i < n; i++) {
			int r = n - 1 - i;

			x[i] = history_metric_value(
				history_metrics[m].name, strtod(PQgetvalue(res, r, 2), NULL),
				strtod(PQgetvalue(res, r, 3), NULL),
				strtod(PQgetvalue(res, r, 4), NULL),
				strtod(PQgetvalue(res, r, 5), NULL), site->min_seconds);
		}
		rc = hist_detect(x, (size_t)n, &site->detect, &c, &nc);
		for (k = 0; k < nc && !rc; k++) {
			int r = n - 1 - (int)c[k].at, prev = n - 1 - (int)c[k].prev;
			int regression = c[k].up == history_metrics[m].up_is_worse;
			char before[32], after[32], nb[16], na[16], pv[32];
			PGresult *ins;

			snprintf(before, sizeof(before), "%.17g", c[k].before);
			snprintf(after, sizeof(after), "%.17g", c[k].after);
			snprintf(nb, sizeof(nb), "%zu", c[k].nbefore);
			snprintf(na, sizeof(na), "%zu", c[k].nafter);
			snprintf(pv, sizeof(pv), "%.17g", c[k].p);
			p[1] = history_metrics[m].name;
			p[2] = PQgetvalue(res, r, 0);
			p[3] = PQgetvalue(res, r, 1);
			p[4] = regression ? "regression" : "improvement";
			p[5] = before;
			p[6] = after;
			p[7] = nb;
			p[8] = na;
			p[9] = pv;
			p[10] = PQgetvalue(res, prev, 0);
			ins = ioa_db_query(conn, insert_sql, 11, p, err, &rc, NULL);
			if (!rc && PQntuples(ins))
				regression ? t->regressions++ : t->improvements++;
			PQclear(ins);
		}
		free(c);
	}
	if (!rc && n) {
		p[1] = PQgetvalue(res, 0, 1);
		rc = ioa_db_exec(conn, checked_sql, 2, p, err);
	}
	if (!rc)
		rc = ioa_db_exec(conn, "COMMIT", 0, NULL, err);
	else if (x)
		ioa_db_exec(conn, "ROLLBACK", 0, NULL, &ignore);
	t->apps++;
	ioa_buf_release(&ignore);
	free(x);
	PQclear(res);
	return rc;
}

/* Runs the hook with the change in its environment; 0 when it exits 0 in time. */
static int run_hook(const struct hist_site *site, PGresult *res, int i)
{
	static const char *const names[] = {
		"IOATLAS_CHANGE_JOB",	       "IOATLAS_CHANGE_METRIC",
		"IOATLAS_CHANGE_KIND",	       "IOATLAS_CHANGE_BEFORE",
		"IOATLAS_CHANGE_AFTER",	       "IOATLAS_CHANGE_P_VALUE",
		"IOATLAS_CHANGE_PREVIOUS_JOB", "IOATLAS_CHANGE_START_TIME",
		"IOATLAS_CHANGE_RUNS_BEFORE",  "IOATLAS_CHANGE_RUNS_AFTER",
		"IOATLAS_CHANGE_APPLICATION",  "IOATLAS_CHANGE_USER",
	};
	double waited = 0;
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		size_t k;

		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			setenv(names[k], PQgetvalue(res, i, (int)k), 1);
		execl("/bin/sh", "sh", "-c", site->hook, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (waited >= site->hook_timeout) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -ETIMEDOUT;
		}
		nanosleep(&(struct timespec){0, 50000000}, NULL);
		waited += 0.05;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ECHILD;
}

/* The hook, once per change it has not been told of. */
static int tell_hook(PGconn *conn, const struct hist_site *site, struct tally *t,
		     struct ioa_buf *err)
{
	static const char sql[] =
		"SELECT " CHANGE_COLUMNS ", c.id FROM history_changes c "
		"JOIN applications a ON a.id = c.app_id JOIN users u ON u.id = a.user_id "
		"WHERE c.notified_at IS NULL ORDER BY c.id";
	int rc, i;
	PGresult *res = ioa_db_query(conn, sql, 0, NULL, err, &rc, NULL);

	for (i = 0; !rc && i < PQntuples(res); i++) {
		const char *id = PQgetvalue(res, i, 14);
		int hook = run_hook(site, res, i);

		if (hook) {
			ioa_warning("history.hook failed for change %s (%s): told again next time",
				    id, hook == -ETIMEDOUT ? "timed out" : "did not exit 0");
			t->hook_failures++;
			continue;
		}
		t->hooks++;
		rc = ioa_db_exec(conn,
				 "UPDATE history_changes SET notified_at = now() WHERE id = $1", 1,
				 &id, err);
	}
	PQclear(res);
	return rc;
}

static int update(PGconn *conn, const struct hist_site *site, int all, struct ioa_buf *err)
{
	static const char apps_sql[] =
		"SELECT a.id FROM applications a "
		"LEFT JOIN history_checked c ON c.app_id = a.id "
		"WHERE $1 OR EXISTS (SELECT 1 FROM job_history h WHERE h.app_id = a.id "
		"AND h.start_time > coalesce(c.through, '-infinity')) ORDER BY a.id";
	static const char new_sql[] =
		"SELECT " CHANGE_COLUMNS "FROM history_changes c "
		"JOIN applications a ON a.id = c.app_id JOIN users u ON u.id = a.user_id "
		"WHERE c.found_at >= $1::timestamptz ORDER BY c.id";
	struct tally t = {0};
	const char *p[] = {all ? "t" : "f"};
	PGresult *apps, *found = NULL, *now;
	int rc, i;

	now = ioa_db_query(conn, "SELECT now()", 0, NULL, err, &rc, NULL);
	if (rc)
		return rc;
	apps = ioa_db_query(conn, apps_sql, 1, p, err, &rc, NULL);
	for (i = 0; !rc && i < PQntuples(apps); i++)
		rc = update_app(conn, site, PQgetvalue(apps, i, 0), &t, err);
	if (!rc) {
		p[0] = PQgetvalue(now, 0, 0);
		found = ioa_db_query(conn, new_sql, 1, p, err, &rc, NULL);
	}
	for (i = 0; !rc && i < PQntuples(found); i++)
		print_change_line(found, i, "");
	if (!rc && site->hook[0])
		rc = tell_hook(conn, site, &t, err);
	if (!rc)
		printf("history: %u application%s looked at, %u regression%s and %u improvement%s "
		       "found, %u hook run%s%s\n",
		       t.apps, t.apps == 1 ? "" : "s", t.regressions, t.regressions == 1 ? "" : "s",
		       t.improvements, t.improvements == 1 ? "" : "s", t.hooks,
		       t.hooks == 1 ? "" : "s", t.hook_failures ? " (some failed)" : "");
	PQclear(apps);
	PQclear(found);
	PQclear(now);
	return rc ? rc : t.hook_failures ? -ECHILD : 0;
}

int main(int argc, char **argv)
{
	enum { OPT_UPDATE = 256, OPT_ALL, OPT_CHANGES, OPT_APPS };
	static const struct option longs[] = {
		{"user", required_argument, NULL, 'u'},
		{"since", required_argument, NULL, 's'},
		{"until", required_argument, NULL, 't'},
		{"limit", required_argument, NULL, 'n'},
		{"days", required_argument, NULL, 'd'},
		{"json", no_argument, NULL, 'j'},
		{"update", no_argument, NULL, OPT_UPDATE},
		{"all", no_argument, NULL, OPT_ALL},
		{"changes", no_argument, NULL, OPT_CHANGES},
		{"apps", no_argument, NULL, OPT_APPS},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct query q = {.limit = "50"};
	struct hist_site site = {0};
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	int c, n, rc, mode = 0, all = 0, status = IOA_EXIT_FAIL;
	char limit[24], days[24] = "30";

	ioa_log_set_progname("ioatlas history");
	while ((c = ioa_getopt(argc, argv, "u:s:t:n:d:jh", longs)) != -1) {
		switch (c) {
		case 'u':
			q.user = optarg;
			break;
		case 's':
			q.since = optarg;
			break;
		case 't':
			q.until = optarg;
			break;
		case 'n':
			if (ioa_parse_int(optarg, 1, 1000000, &n)) {
				ioa_error("--limit takes 1 to 1000000, not '%s'", optarg);
				return IOA_EXIT_USAGE;
			}
			snprintf(limit, sizeof(limit), "%d", n);
			q.limit = limit;
			break;
		case 'd':
			if (ioa_parse_int(optarg, 1, 3660, &n)) {
				ioa_error("--days takes 1 to 3660, not '%s'", optarg);
				return IOA_EXIT_USAGE;
			}
			snprintf(days, sizeof(days), "%d", n);
			break;
		case 'j':
			q.json = 1;
			break;
		case OPT_UPDATE:
		case OPT_CHANGES:
		case OPT_APPS:
			if (mode && mode != c) {
				ioa_error("--update, --changes and --apps do not go together");
				return IOA_EXIT_USAGE;
			}
			mode = c;
			break;
		case OPT_ALL:
			all = 1;
			break;
		case 'h':
			usage(stdout);
			return IOA_EXIT_OK;
		default:
			usage(stderr);
			return IOA_EXIT_USAGE;
		}
	}
	if (optind < argc)
		q.target = argv[optind++];
	if (optind < argc || (mode && q.target) || (!mode && !q.target && !q.user) ||
	    (all && mode != OPT_UPDATE)) {
		ioa_error("%s", optind < argc	   ? "one application or user, no more"
				: mode && q.target ? "--update, --changes and --apps take no "
						     "application"
				: all		   ? "--all goes with --update only"
						   : "which application or user?");
		usage(stderr);
		return IOA_EXIT_USAGE;
	}
	if (hist_site_load(&site, &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		goto out;
	}
	/* Showing reads from the read replica, if any; --update writes to the primary. */
	q.conn = mode == OPT_UPDATE ? ioa_db_connect(site.db.conninfo, "ioatlas history", &err)
				    : ioa_db_connect_read(&site.db, "ioatlas history", 10, &err);
	if (!q.conn) {
		ioa_error("%s", ioa_buf_str(&err));
		goto out;
	}
	rc = mode == OPT_UPDATE	   ? update(q.conn, &site, all, &err)
	     : mode == OPT_CHANGES ? list_changes(q.conn, days, q.json, &err)
	     : mode == OPT_APPS	   ? list_apps(q.conn, q.json, &err)
				   : show(&q, &err);
	if (rc && err.len)
		ioa_error("%s", ioa_buf_str(&err));
	else if (rc == -ECHILD)
		ioa_error("the history.hook failed for some changes");
	status = rc || fflush(stdout) ? IOA_EXIT_FAIL : IOA_EXIT_OK;
out:
	PQfinish(q.conn);
	hist_site_free(&site);
	ioa_buf_release(&err);
	return status;
}
