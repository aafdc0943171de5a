/*
 * report_history — a job's place in its application's history, for its
 * report and the dashboard (report.h): the application's runs around it
 * with their I/O time per byte, and the changes the nightly found in them
 * (docs/history.md), as JSON; the section and the plot drawn from it.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "html.h"
#include "ioa_db.h"
#include "ioa_log.h"
#include "report.h"

/* Runs shown before the job (it included) and after it. */
#define RUNS_BEFORE 40
#define RUNS_AFTER  10

static json_object *str_or_null(PGresult *res, int i, int k)
{
	return PQgetisnull(res, i, k) ? NULL : json_object_new_string(PQgetvalue(res, i, k));
}

static json_object *app_runs(PGconn *conn, const char *app, const char *start, struct ioa_buf *err)
{
	static const char sql[] =
		"SELECT * FROM ((SELECT job, start_time, io_seconds, meta_seconds, "
		"bytes_read + bytes_written, files FROM job_history WHERE app_id = $1::integer "
		"AND start_time <= $2::timestamptz ORDER BY start_time DESC, job DESC LIMIT $3) "
		"UNION ALL (SELECT job, start_time, io_seconds, meta_seconds, "
		"bytes_read + bytes_written, files FROM job_history WHERE app_id = $1::integer "
		"AND start_time > $2::timestamptz ORDER BY start_time, job LIMIT $4)) r "
		"ORDER BY start_time, job";
	char before[16], after[16];
	const char *p[] = {app, start, before, after};
	json_object *runs;
	PGresult *res;
	int rc, i;

	snprintf(before, sizeof(before), "%d", RUNS_BEFORE);
	snprintf(after, sizeof(after), "%d", RUNS_AFTER);
	res = ioa_db_query(conn, sql, 4, p, err, &rc, NULL);
	if (rc)
		return NULL;
	runs = json_object_new_array();
	for (i = 0; i < PQntuples(res); i++) {
		json_object *r = json_object_new_object();
		double io = strtod(PQgetvalue(res, i, 2), NULL);
		double meta = strtod(PQgetvalue(res, i, 3), NULL);
		double bytes = strtod(PQgetvalue(res, i, 4), NULL);
		double per_byte = history_metric_value("io_time_per_byte", io, meta, bytes, 0, 0);

		json_object_object_add(
			r, "job", json_object_new_int64(strtoll(PQgetvalue(res, i, 0), NULL, 10)));
		json_object_object_add(r, "start_time",
				       json_object_new_string(PQgetvalue(res, i, 1)));
		json_object_object_add(r, "io_seconds", json_object_new_double(io));
		json_object_object_add(r, "bytes", json_object_new_double(bytes));
		json_object_object_add(r, "io_time_per_byte",
				       isfinite(per_byte) ? json_object_new_double(per_byte)
							  : NULL);
		json_object_array_add(runs, r);
	}
	PQclear(res);
	return runs;
}

/* The application's changes that began at or before start, the latest first. */
static json_object *app_changes(PGconn *conn, const char *app, const char *start,
				struct ioa_buf *err)
{
	static const char sql[] =
		"SELECT " HISTORY_CHANGE_COLUMNS "FROM history_changes WHERE app_id = $1::integer "
		"AND start_time <= $2::timestamptz ORDER BY start_time DESC, metric LIMIT 8";
	const char *p[] = {app, start};
	json_object *list;
	PGresult *res;
	int rc, i;

	res = ioa_db_query(conn, sql, 2, p, err, &rc, NULL);
	if (rc)
		return NULL;
	list = json_object_new_array();
	for (i = 0; i < PQntuples(res); i++)
		json_object_array_add(list, history_change_json(res, i, 0));
	PQclear(res);
	return list;
}

json_object *report_history_app(PGconn *conn, const char *app, const char *start)
{
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	json_object *h = json_object_new_object();
	json_object *runs = app_runs(conn, app, start, &err);
	json_object *changes = runs ? app_changes(conn, app, start, &err) : NULL;

	if (!runs || !changes) {
		ioa_warning("application %s: its history not read: %s", app, ioa_buf_str(&err));
		json_object_put(runs);
		json_object_put(h);
		ioa_buf_release(&err);
		return NULL;
	}
	json_object_object_add(h, "runs", runs);
	json_object_object_add(h, "changes", changes);
	ioa_buf_release(&err);
	return h;
}

json_object *report_history(PGconn *conn, const struct an_job *job)
{
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	json_object *h = NULL;
	PGresult *res;
	char id[24];
	int rc;

	snprintf(id, sizeof(id), "%" PRId64, job->id);
	res = ioa_db_query(
		conn,
		"SELECT a.id, a.name, u.name FROM job_history h "
		"JOIN applications a ON a.id = h.app_id JOIN users u ON u.id = a.user_id "
		"WHERE h.job = $1 AND h.start_time = $2",
		2, (const char *const[]){id, job->start_time}, &err, &rc, NULL);
	if (rc)
		ioa_warning("job %" PRId64 ": its history not read: %s", job->id,
			    ioa_buf_str(&err));
	if (!rc && PQntuples(res) == 1 &&
	    (h = report_history_app(conn, PQgetvalue(res, 0, 0), job->start_time))) {
		json_object_object_add(h, "application", str_or_null(res, 0, 1));
		json_object_object_add(h, "user", str_or_null(res, 0, 2));
		json_object_object_add(h, "job", json_object_new_int64(job->id));
	}
	PQclear(res);
	ioa_buf_release(&err);
	return h;
}

/* ------------------------------------------------------------ drawing */

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

void report_history_plot(struct html *p, json_object *h, int64_t job)
{
	json_object *runs = get(h, "runs"), *changes = get(h, "changes");
	size_t n = report_len(runs), i, k;
	double lo = INFINITY, hi = 0, w = 760, ht = 150, x0 = 70, y0 = 10, pw = w - x0 - 10;
	double ph = ht - y0 - 30;
	char a[32], b[32];

	for (i = 0; i < n; i++) {
		json_object *v = get(json_object_array_get_idx(runs, i), "io_time_per_byte");

		if (v) {
			lo = fmin(lo, json_object_get_double(v));
			hi = fmax(hi, json_object_get_double(v));
		}
	}
	if (n < 2 || !(hi > 0)) {
		html_put(p, "<p class=\"muted\">Too few runs with I/O to plot.</p>\n");
		return;
	}
	lo = lo > 0 && hi / lo > 20 ? lo : 0; /* a wide range on a log scale */
	html_svg(p, w, ht, "history");
	html_put(p, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%s</text>", x0 - 4, y0 + 8,
		 history_metric_format("io_time_per_byte", hi, a, sizeof(a)));
	html_put(p, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%s</text>", x0 - 4, y0 + ph,
		 history_metric_format("io_time_per_byte", lo, b, sizeof(b)));
	html_put(p, "<text x=\"%.0f\" y=\"%.0f\">I/O time per byte, run by run%s</text>", x0,
		 ht - 4, lo > 0 ? " (log scale)" : "");
	/* The changes: a dashed line before the first run after each. */
	for (k = 0; k < report_len(changes); k++) {
		int64_t first =
			json_object_get_int64(get(json_object_array_get_idx(changes, k), "job"));

		for (i = 0; i < n; i++)
			if (json_object_get_int64(get(json_object_array_get_idx(runs, i), "job")) ==
			    first)
				html_put(p,
					 "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" "
					 "stroke=\"#c0392b\" stroke-dasharray=\"4 3\"/>",
					 x0 + pw * ((double)i - 0.5) / (double)(n - 1), y0,
					 x0 + pw * ((double)i - 0.5) / (double)(n - 1), y0 + ph);
	}
	html_put(p, "<polyline fill=\"none\" stroke=\"#2c7fb8\" stroke-width=\"1.5\" points=\"");
	for (i = 0; i < n; i++) {
		json_object *v = get(json_object_array_get_idx(runs, i), "io_time_per_byte");
		double y, x = x0 + pw * (double)i / (double)(n - 1);

		if (!v)
			continue;
		y = lo > 0 ? (log(json_object_get_double(v)) - log(lo)) / (log(hi) - log(lo))
			   : json_object_get_double(v) / hi;
		html_put(p, "%.1f,%.1f ", x, y0 + ph * (1 - y));
	}
	html_put(p, "\"/>");
	for (i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(runs, i),
			    *v = get(r, "io_time_per_byte");
		double y, x = x0 + pw * (double)i / (double)(n - 1);
		int self = json_object_get_int64(get(r, "job")) == job;

		if (!v)
			continue;
		y = lo > 0 ? (log(json_object_get_double(v)) - log(lo)) / (log(hi) - log(lo))
			   : json_object_get_double(v) / hi;
		html_put(p,
			 "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\"><title>job %lld: "
			 "%s</title></circle>",
			 x, y0 + ph * (1 - y), self ? 5 : 2, self ? "#e6550d" : "#2c7fb8",
			 (long long)json_object_get_int64(get(r, "job")),
			 history_metric_format("io_time_per_byte", json_object_get_double(v), a,
					       sizeof(a)));
	}
	html_put(p, "</svg>\n");
}

/* One change in words: "REGRESSION: I/O time per byte 0.5 s/GiB -> 4.2 s/GiB ...". */
void report_history_change(struct html *p, json_object *c)
{
	const char *metric = json_object_get_string(get(c, "metric"));
	const char *kind = json_object_get_string(get(c, "kind"));
	double before = json_object_get_double(get(c, "before"));
	double after = json_object_get_double(get(c, "after"));
	char a[32], b[32];

	html_put(p,
		 "<b class=\"%s\">%s</b>: ", kind && !strcmp(kind, "regression") ? "bad" : "good",
		 kind && !strcmp(kind, "regression") ? "Regression" : "Improvement");
	html_esc(p, history_metric_title(metric ? metric : ""));
	html_put(p,
		 " %s &rarr; %s (&times;%.3g) from job %lld on, confidence %.2f%%; compare "
		 "<code>ioatlas diff %lld %lld</code>",
		 history_metric_format(metric ? metric : "", before, a, sizeof(a)),
		 history_metric_format(metric ? metric : "", after, b, sizeof(b)),
		 before > 0 ? after / before : 0, (long long)json_object_get_int64(get(c, "job")),
		 100 * json_object_get_double(get(c, "confidence")),
		 (long long)json_object_get_int64(get(c, "previous_job")),
		 (long long)json_object_get_int64(get(c, "job")));
}

void report_history_html(struct html *p, json_object *m)
{
	json_object *h = get(m, "history"), *changes = get(h, "changes");
	int64_t job = json_object_get_int64(get(h, "job"));
	size_t i;

	if (!h)
		return;
	html_put(p, "<h2>Across runs</h2>\n<p class=\"muted\">This job among the runs of ");
	html_esc(p, json_object_get_string(get(h, "application")));
	html_put(p, " (");
	html_esc(p, json_object_get_string(get(h, "user")));
	html_put(
		p,
		"), its point larger; dashed: a change the nightly found (docs/history.md).</p>\n");
	report_history_plot(p, h, job);
	if (!report_len(changes)) {
		html_put(p, "<p>No change found in this application's runs up to this job.</p>\n");
		return;
	}
	html_put(p, "<ul class=\"changes\">\n");
	for (i = 0; i < report_len(changes); i++) {
		json_object *c = json_object_array_get_idx(changes, i);

		html_put(p, "<li>%s",
			 json_object_get_int64(get(c, "job")) == job
				 ? "<b>This run is the first after the change.</b> "
				 : "");
		report_history_change(p, c);
		html_put(p, "</li>\n");
	}
	html_put(p, "</ul>\n");
}
