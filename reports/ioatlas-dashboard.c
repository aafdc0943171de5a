/*
 * ioatlas dashboard — the site's static pages, for a web root, nightly:
 * top users, executables and file systems by bytes and by jobs over the
 * last day, week, month and year; insight prevalence over time; the jobs,
 * linked to their reports, partial ones (killed jobs' recovered logs)
 * marked; coverage (jobs, partial ones, quarantined logs).  Reports go
 * into a folder per user that only that user may read, unless the site
 * says otherwise.  docs/reports.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "history.h"
#include "html.h"
#include "ioa_conf.h"
#include "ioa_db.h"
#include "ioa_file.h"
#include "ioa_log.h"
#include "ioa_opts.h"
#include "ioa_parse.h"
#include "report.h"

struct settings {
	char *report_group;    /* group that may read every user's reports ("": none) */
	char *site_group;      /* group that may read the site pages ("": the report group) */
	int private_reports;   /* each user's folder readable by that user only */
	long long reports_max; /* reports written per run */
	long long jobs_listed; /* jobs listed per page */
};

static const struct period {
	const char *file, *label, *bucket;
	int days;
} periods[] = {{"1d.html", "last day", "hour", 1},
	       {"7d.html", "last 7 days", "day", 7},
	       {"30d.html", "last 30 days", "day", 30},
	       {"365d.html", "last year", "week", 365}};

struct dash {
	PGconn *conn;
	struct an_settings an;
	struct settings set;
	const char *out;
	gid_t group;	  /* the report group, or -1 */
	gid_t site_group; /* the site pages' group, or -1 */
	long long reports_written;
	int failed;
};

static PGresult *query(struct dash *d, const char *sql, int n, const char *const *params)
{
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	PGresult *res = ioa_db_query(d->conn, sql, n, params, &err, NULL, NULL);

	if (!res) {
		ioa_error("%s", ioa_buf_str(&err));
		d->failed = 1;
	}
	ioa_buf_release(&err);
	return res;
}

/* A user's folder name: the name when it is plain, else "u" and the uid. */
static void user_dir(const char *name, const char *uid, char *out, size_t len)
{
	size_t n =
		strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-");

	if (name[0] && name[0] != '.' && !name[n] && n < 64)
		snprintf(out, len, "%s", name);
	else
		snprintf(out, len, "u%s", uid);
}

/* The modes of a user's folder and files: theirs only, or the report group's too, or everyone's. */
static void user_modes(const struct dash *d, mode_t *dmode, mode_t *fmode)
{
	int group = d->group != (gid_t)-1;

	*dmode = !d->set.private_reports ? 0755 : group ? 0750 : 0700;
	*fmode = !d->set.private_reports ? 0644 : group ? 0640 : 0600;
}

/* The user's uid (when run as root: the folder and files become theirs), else -1. */
static uid_t user_uid(const char *uid_text)
{
	int64_t uid_num = -1;

	if (!ioa_parse_i64(uid_text, &uid_num) && uid_num >= 0 && geteuid() == 0)
		return (uid_t)uid_num;
	return (uid_t)-1;
}

/*
 * Makes users/DIR, the user's (when run as root) with the site's mode,
 * given through its descriptor: a link the user put in its place is
 * refused.  0, or -1 (said).
 */
static int user_folder(struct dash *d, const char *dir, const char *uid_text)
{
	char path[PATH_MAX];
	mode_t dmode, fmode;
	int rc;

	user_modes(d, &dmode, &fmode);
	snprintf(path, sizeof(path), "%s/users/%s", d->out, dir);
	rc = ioa_file_dir(path, dmode, user_uid(uid_text), d->group, IOA_FILE_DIR_SET, NULL);
	if (rc) {
		ioa_warning("cannot give '%s' to uid %s with its mode: %s", path, uid_text,
			    ioa_strerror(rc));
		return -1;
	}
	return 0;
}

/*
 * Writes job's report into users/DIR/job-ID.html, unless it is there: the
 * folder and file belong to the user (when run as root) and are readable
 * by the user only, or also by the report group, or by all when the site
 * turned private reports off.  1 when the report is there, 0 when not.
 */
static int user_report(struct dash *d, const char *id, const char *start, const char *dir,
		       const char *uid_text, char *link, size_t link_len)
{
	char path[PATH_MAX];
	struct an_job job;
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	struct stat st;
	int64_t id_num = 0;
	mode_t dmode, fmode;
	json_object *all, *model, *kernels;
	int rc;

	ioa_parse_i64(id, &id_num);
	user_modes(d, &dmode, &fmode);
	snprintf(link, link_len, "users/%s/job-%s.html", dir, id);
	if (user_folder(d, dir, uid_text))
		return 0;
	if (snprintf(path, sizeof(path), "%s/%s", d->out, link) >= (int)sizeof(path))
		return 0;
	if (!stat(path, &st))
		return 1;
	if (d->reports_written >= d->set.reports_max)
		return 0;
	rc = an_load(d->conn, &d->an, id_num, start, &job, &err);
	if (rc) {
		ioa_warning("job %s: no report: %s", id, ioa_buf_str(&err));
		ioa_buf_release(&err);
		return 0;
	}
	all = report_analyses(d->conn, &job, &d->an);
	kernels = report_kernels(d->conn, &job);
	model = report_model(&job, all, kernels, "warehouse");
	if (model) {
		json_object_object_add(model, "history", report_history(d->conn, &job));
		json_object_object_add(model, "whatif", report_whatif(d->conn, &job));
	}
	rc = model ? ioa_file_write(path, fmode, user_uid(uid_text), d->group, report_page, model)
		   : -ENOMEM;
	if (rc)
		ioa_warning("cannot write '%s': %s", path, ioa_strerror(rc));
	json_object_put(model);
	json_object_put(all);
	json_object_put(kernels);
	an_free(&job);
	ioa_buf_release(&err);
	d->reports_written += !rc;
	return !rc;
}

static void nav(struct html *p, const struct period *current)
{
	size_t i;

	html_put(p, "<nav>");
	for (i = 0; i < sizeof(periods) / sizeof(periods[0]); i++)
		if (&periods[i] == current)
			html_put(p, "<b>%s</b> ", periods[i].label);
		else
			html_put(p, "<a href=\"%s\">%s</a> ", periods[i].file, periods[i].label);
	html_put(p, "</nav>\n");
}

/* Two bar charts of a query's rows (name, jobs, bytes): by bytes, then by jobs. */
static void tops(struct dash *d, struct html *p, const char *what, const char *by_bytes,
		 const char *by_jobs, const char *days)
{
	const char *sql[2] = {by_bytes, by_jobs};
	unsigned k;
	int i;

	for (k = 0; k < 2; k++) {
		PGresult *res = query(d, sql[k], 1, (const char *const[]){days});
		const char *labels[20];
		double v[20];
		int n = res ? PQntuples(res) : 0;

		html_put(p, "<h3>%s by %s</h3>\n", what, k ? "jobs" : "bytes");
		for (i = 0; i < n && i < 20; i++) {
			labels[i] = PQgetvalue(res, i, 0);
			v[i] = strtod(PQgetvalue(res, i, k ? 1 : 2), NULL);
		}
		if (n)
			html_hbars(p, labels, v, (size_t)(n < 20 ? n : 20), !k,
				   k ? "#889" : "#4a78b5");
		else
			html_put(p, "<p class=\"muted\">None in this period.</p>\n");
		PQclear(res);
	}
}

/*
 * SQL: the period's bucket of job j ($2: hour, day or week) as people read
 * it, in UTC: "2026-11-29 14:00", "2026-11-29", "week of 2026-11-23".
 * Sorted as text, they sort in time.
 */
#define DASH_SQL_BUCKET                                                                      \
	"to_char(date_trunc($2, j.start_time AT TIME ZONE 'UTC'), CASE $2 WHEN 'hour' THEN " \
	"'YYYY-MM-DD HH24:00' WHEN 'day' THEN 'YYYY-MM-DD' ELSE '\"week of\" YYYY-MM-DD' END)"

/* What a finding's code means, in words (the code itself when unknown). */
static const char *finding_words(const char *code)
{
	size_t i;

	for (i = 0; i < AN_NFINDINGS; i++)
		if (!strcmp(an_findings[i].code, code))
			return an_findings[i].meaning;
	return code;
}

static void insight_prevalence(struct dash *d, struct html *p, const struct period *per,
			       const char *days)
{
	static const char sql_jobs[] =
		"SELECT " DASH_SQL_BUCKET ", count(*) FROM analysis_results a "
		"JOIN jobs j ON j.id = a.job AND j.start_time = a.start_time "
		"WHERE a.analysis = 'insights' AND a.version = $3 "
		"AND j.start_time >= now() - make_interval(days => $1::integer) GROUP BY 1 ORDER "
		"BY 1";
	static const char sql_codes[] =
		"SELECT " DASH_SQL_BUCKET ", f->>'code', count(DISTINCT j.id) "
		"FROM analysis_results a JOIN jobs j ON j.id = a.job AND j.start_time = "
		"a.start_time, "
		"jsonb_array_elements(a.result->'findings') f "
		"WHERE a.analysis = 'insights' AND a.version = $3 "
		"AND j.start_time >= now() - make_interval(days => $1::integer) GROUP BY 1, 2 "
		"ORDER BY 2, 1";
	char version[16];
	size_t i;
	const char *params[] = {days, per->bucket, version};
	PGresult *jobs, *codes;
	int b, r;

	for (i = 0; i < an_nanalyses && strcmp(an_analyses[i].name, "insights"); i++)
		;
	snprintf(version, sizeof(version), "%d", i < an_nanalyses ? an_analyses[i].version : 0);
	jobs = query(d, sql_jobs, 3, params);
	codes = jobs ? query(d, sql_codes, 3, params) : NULL;
	html_put(p,
		 "<h2>Insights over time</h2>\n<p class=\"muted\">Share of the analysed jobs "
		 "with each insight, per %s.</p>\n",
		 per->bucket);
	if (!jobs || !codes || !PQntuples(jobs)) {
		html_put(p, "<p class=\"muted\">No analysed jobs in this period.</p>\n");
		PQclear(jobs);
		PQclear(codes);
		return;
	}
	html_put(p, "<table><tr><th>insight</th>");
	for (b = 0; b < PQntuples(jobs); b++) {
		html_put(p, "<th class=\"n\">");
		html_esc(p, PQgetvalue(jobs, b, 0));
		html_put(p, "</th>");
	}
	html_put(p, "</tr>\n");
	for (r = 0; r < PQntuples(codes);) {
		const char *code = PQgetvalue(codes, r, 1);

		html_put(p, "<tr><td title=\"");
		html_esc(p, code);
		html_put(p, "\">");
		html_esc(p, finding_words(code));
		html_put(p, "</td>");
		for (b = 0; b < PQntuples(jobs); b++) {
			double share = 0;

			if (r < PQntuples(codes) && !strcmp(PQgetvalue(codes, r, 1), code) &&
			    !strcmp(PQgetvalue(codes, r, 0), PQgetvalue(jobs, b, 0))) {
				share = strtod(PQgetvalue(codes, r, 2), NULL) /
					strtod(PQgetvalue(jobs, b, 1), NULL);
				r++;
			}
			html_put(p,
				 "<td class=\"n\" "
				 "style=\"background:rgba(192,57,43,%.2f)\">%.0f%%</td>",
				 share * 0.8, share * 100);
		}
		html_put(p, "</tr>\n");
		while (r < PQntuples(codes) && !strcmp(PQgetvalue(codes, r, 1), code))
			r++; /* a bucket the jobs query does not know: skipped */
	}
	html_put(p, "</table>\n");
	PQclear(jobs);
	PQclear(codes);
}

/*
 * The changes the nightly found in applications' runs over the period
 * (docs/history.md), the latest first; each application's runs plotted
 * around its latest change.
 */
static void changes(struct dash *d, struct html *p, const char *days)
{
	static const char sql[] =
		"SELECT a.id, a.name, u.name, c." HISTORY_CHANGE_COLUMNS "FROM history_changes c "
		"JOIN applications a ON a.id = c.app_id JOIN users u ON u.id = a.user_id "
		"WHERE c.found_at >= now() - make_interval(days => $1::integer) "
		"ORDER BY c.found_at DESC, c.id DESC LIMIT 50";
	PGresult *res = query(d, sql, 1, (const char *const[]){days});
	int i, k, plots = 0;

	html_put(p, "<h2>Regressions and improvements</h2>\n<p class=\"muted\">Changes the "
		    "nightly found in applications' runs: a metric that moved and stayed there "
		    "(docs/history.md); each application's I/O time per byte, run by run, around "
		    "its latest change.</p>\n");
	if (res && !PQntuples(res))
		html_put(p, "<p>None found.</p>\n");
	for (i = 0; res && i < PQntuples(res); i++) {
		json_object *c = history_change_json(res, i, 3), *h;

		html_put(p, "<p><b>");
		html_esc(p, PQgetvalue(res, i, 1));
		html_put(p, "</b> (");
		html_esc(p, PQgetvalue(res, i, 2));
		html_put(p, "): ");
		report_history_change(p, c);
		html_put(p, "</p>\n");
		json_object_put(c);
		/* One plot per application, at its latest change; 20 at most. */
		for (k = 0; k < i && strcmp(PQgetvalue(res, k, 0), PQgetvalue(res, i, 0)); k++)
			;
		if (k < i || plots >= 20)
			continue;
		h = report_history_app(d->conn, PQgetvalue(res, i, 0), PQgetvalue(res, i, 10));
		if (h)
			report_history_plot(p, h, strtoll(PQgetvalue(res, i, 3), NULL, 10));
		json_object_put(h);
		plots++;
	}
	PQclear(res);
}

static void jobs_list(struct dash *d, struct html *p, const char *days)
{
	static const char sql[] =
		"SELECT j.id, j.start_time::text, u.name, u.uid, e.display, j.nprocs, "
		"j.bytes_read + j.bytes_written, (SELECT count(*) FROM analysis_results a, "
		"jsonb_array_elements(a.result->'findings') f WHERE a.job = j.id "
		"AND a.start_time = j.start_time AND a.analysis = 'insights' "
		"AND f->>'severity' = 'high'), j.partial, "
		"to_char(j.start_time AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') "
		"FROM jobs j JOIN users u ON u.id = j.user_id JOIN executables e ON e.id = "
		"j.exe_id "
		"WHERE j.start_time >= now() - make_interval(days => $1::integer) "
		"ORDER BY j.start_time DESC, j.id DESC LIMIT $2";
	char limit[24], buf[64], dir[80], link[PATH_MAX];
	PGresult *res;
	int i;

	snprintf(limit, sizeof(limit), "%lld", d->set.jobs_listed);
	res = query(d, sql, 2, (const char *const[]){days, limit});
	html_put(p,
		 "<h2>Jobs</h2>\n<p class=\"muted\">The latest %lld; a job's report is readable by "
		 "its user; <i>partial</i>: the job was killed, its log recovered from what its "
		 "ranks left.</p>\n<table class=\"files\"><thead><tr><th>job</th><th>start "
		 "(UTC)</th>"
		 "<th>user</th><th>executable</th><th class=\"n\">ranks</th><th "
		 "class=\"n\">bytes</th><th class=\"n\">high insights</th></tr></thead><tbody>\n",
		 d->set.jobs_listed);
	for (i = 0; res && i < PQntuples(res); i++) {
		user_dir(PQgetvalue(res, i, 2), PQgetvalue(res, i, 3), dir, sizeof(dir));
		html_put(p, "<tr><td>");
		if (user_report(d, PQgetvalue(res, i, 0), PQgetvalue(res, i, 1), dir,
				PQgetvalue(res, i, 3), link, sizeof(link))) {
			html_put(p, "<a href=\"");
			html_esc(p, link);
			html_put(p, "\">%s</a>", PQgetvalue(res, i, 0));
		} else {
			html_esc(p, PQgetvalue(res, i, 0));
		}
		/* A partial log: the job was killed; its report says how. */
		if (!strcmp(PQgetvalue(res, i, 8), "t"))
			html_put(p, "<span class=\"tag\" title=\"partial log: recovered from a "
				    "killed job\">partial</span>");
		html_put(p, "</td><td>");
		html_esc(p, PQgetvalue(res, i, 9));
		html_put(p, "</td><td><a href=\"users/");
		html_esc(p, dir);
		html_put(p, "/index.html\">");
		html_esc(p, PQgetvalue(res, i, 2));
		html_put(p, "</a></td><td class=\"name\">");
		html_esc(p, PQgetvalue(res, i, 4));
		html_put(p,
			 "</td><td class=\"n\">%s</td><td class=\"n\" data-v=\"%s\">%s</td><td "
			 "class=\"n\">%s</td></tr>\n",
			 PQgetvalue(res, i, 5), PQgetvalue(res, i, 6),
			 html_bytes(strtod(PQgetvalue(res, i, 6), NULL), buf, sizeof(buf)),
			 PQgetvalue(res, i, 7));
	}
	html_put(p, "</tbody></table>\n");
	PQclear(res);
}

static void coverage(struct dash *d, struct html *p, const char *days)
{
	static const char sql_ledger[] = "SELECT status, count(*) FROM ingest_ledger "
					 "WHERE finished_at >= now() - make_interval(days => "
					 "$1::integer) GROUP BY 1 ORDER BY 1";
	static const char sql_reasons[] =
		"SELECT error, count(*) FROM ingest_ledger WHERE status = 'quarantined' "
		"AND finished_at >= now() - make_interval(days => $1::integer) "
		"GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10";
	static const char sql_partial[] =
		"SELECT count(*), count(*) FILTER (WHERE folded), count(*) FILTER (WHERE NOT "
		"EXISTS "
		"(SELECT 1 FROM traces t WHERE t.job = j.id AND t.start_time = j.start_time)), "
		"count(*) FILTER (WHERE partial) "
		"FROM jobs j WHERE j.start_time >= now() - make_interval(days => $1::integer)";
	PGresult *res;
	int i;

	html_put(p, "<h2>Coverage</h2>\n<table><tr><th>logs</th><th class=\"n\">count</th></tr>\n");
	res = query(d, sql_ledger, 1, (const char *const[]){days});
	for (i = 0; res && i < PQntuples(res); i++) {
		html_put(p, "<tr><td>");
		html_esc(p, PQgetvalue(res, i, 0));
		html_put(p, "</td><td class=\"n\">%s</td></tr>\n", PQgetvalue(res, i, 1));
	}
	PQclear(res);
	res = query(d, sql_partial, 1, (const char *const[]){days});
	if (res && PQntuples(res) == 1)
		html_put(p,
			 "<tr><td>jobs</td><td class=\"n\">%s</td></tr>\n<tr><td>partial: records "
			 "folded</td><td class=\"n\">%s</td></tr>\n<tr><td>partial: no operation "
			 "trace</td><td class=\"n\">%s</td></tr>\n<tr><td>partial: log recovered "
			 "from a killed job</td><td class=\"n\">%s</td></tr>\n",
			 PQgetvalue(res, 0, 0), PQgetvalue(res, 0, 1), PQgetvalue(res, 0, 2),
			 PQgetvalue(res, 0, 3));
	PQclear(res);
	html_put(p, "</table>\n<table><tr><th>why logs were quarantined</th><th "
		    "class=\"n\">logs</th></tr>\n");
	res = query(d, sql_reasons, 1, (const char *const[]){days});
	for (i = 0; res && i < PQntuples(res); i++) {
		html_put(p, "<tr><td class=\"name\">");
		html_esc(p, PQgetvalue(res, i, 0));
		html_put(p, "</td><td class=\"n\">%s</td></tr>\n", PQgetvalue(res, i, 1));
	}
	html_put(p, "</table>\n");
	PQclear(res);
}

/* One user's page: their jobs of the last 30 days, with links to their reports. */
struct user_arg {
	struct dash *d;
	const char *name;
	PGresult *jobs;
	const unsigned char *linked; /* per job: its report is there */
};

static int write_user_page(FILE *out, void *arg)
{
	const struct user_arg *a = arg;
	struct html p = {out, 0};
	char title[160], buf[64];
	int i;

	snprintf(title, sizeof(title), "I/O of %.64s's jobs", a->name);
	html_begin(&p, title);
	html_put(&p, "<h1>I/O of ");
	html_esc(&p, a->name);
	html_put(&p,
		 "'s jobs</h1>\n<p class=\"muted\">The last 30 days, the latest first (at "
		 "most %lld); this page and the reports are readable by you (and the site's "
		 "staff) only. <i>partial</i>: the job was killed, its log recovered from what "
		 "its ranks left.</p>\n<table class=\"files\"><thead><tr><th>job</th>"
		 "<th>start (UTC)</th><th>executable</th><th class=\"n\">ranks</th><th "
		 "class=\"n\">bytes</th><th class=\"n\">time in I/O</th><th>top "
		 "finding</th></tr></thead><tbody>\n",
		 a->d->set.jobs_listed);
	for (i = 0; i < PQntuples(a->jobs); i++) {
		const char *id = PQgetvalue(a->jobs, i, 0);

		html_put(&p, "<tr><td>");
		if (a->linked[i])
			html_put(&p, "<a href=\"job-%s.html\">%s</a>", id, id);
		else
			html_esc(&p, id);
		if (!strcmp(PQgetvalue(a->jobs, i, 8), "t"))
			html_put(&p, "<span class=\"tag\" title=\"partial log: recovered from a "
				     "killed job\">partial</span>");
		html_put(&p, "</td><td>");
		html_esc(&p, PQgetvalue(a->jobs, i, 2));
		html_put(&p, "</td><td class=\"name\">");
		html_esc(&p, PQgetvalue(a->jobs, i, 3));
		html_put(&p, "</td><td class=\"n\">%s</td><td class=\"n\" data-v=\"%s\">%s</td>",
			 PQgetvalue(a->jobs, i, 4), PQgetvalue(a->jobs, i, 5),
			 html_bytes(strtod(PQgetvalue(a->jobs, i, 5), NULL), buf, sizeof(buf)));
		if (PQgetisnull(a->jobs, i, 6))
			html_put(&p, "<td class=\"n\">not analysed yet</td>");
		else
			html_put(&p, "<td class=\"n\">%.0f%%</td>",
				 100 * strtod(PQgetvalue(a->jobs, i, 6), NULL));
		html_put(&p, "<td>");
		if (!PQgetisnull(a->jobs, i, 7)) {
			html_put(&p, "<b>");
			html_esc(&p, PQgetvalue(a->jobs, i, 7));
			html_put(&p, "</b>: ");
			html_esc(&p, PQgetvalue(a->jobs, i, 9));
		}
		html_put(&p, "</td></tr>\n");
	}
	html_put(&p, "</tbody></table>\n");
	return html_end(&p, NULL);
}

/* Writes users/DIR/index.html for the user (name, uid), their own like their reports. */
static void user_page(struct dash *d, const char *name, const char *uid_text)
{
	static const char sql[] =
		"SELECT j.id, j.start_time::text, "
		"to_char(j.start_time AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI'), e.display, "
		"j.nprocs, j.bytes_read + j.bytes_written, a.result->>'io_share_of_run', "
		"a.result->'findings'->0->>'code', j.partial, "
		"a.result->'findings'->0->>'text' "
		"FROM jobs j JOIN users u ON u.id = j.user_id "
		"JOIN executables e ON e.id = j.exe_id " REPORT_SQL_JOIN_INSIGHTS
		"WHERE u.name = $1 AND u.uid = $2::bigint "
		"AND j.start_time >= now() - make_interval(days => 30) "
		"ORDER BY j.start_time DESC, j.id DESC LIMIT $3::integer";
	char dir[80], limit[24], link[PATH_MAX], path[PATH_MAX];
	struct user_arg a = {d, name, NULL, NULL};
	unsigned char *linked;
	mode_t dmode, fmode;
	int i, rc;

	user_dir(name, uid_text, dir, sizeof(dir));
	snprintf(limit, sizeof(limit), "%lld", d->set.jobs_listed);
	if (user_folder(d, dir, uid_text))
		return;
	a.jobs = query(d, sql, 3, (const char *const[]){name, uid_text, limit});
	if (!a.jobs)
		return;
	linked = calloc((size_t)PQntuples(a.jobs) + 1, 1);
	for (i = 0; linked && i < PQntuples(a.jobs); i++)
		linked[i] = (unsigned char)user_report(d, PQgetvalue(a.jobs, i, 0),
						       PQgetvalue(a.jobs, i, 1), dir, uid_text,
						       link, sizeof(link));
	a.linked = linked;
	user_modes(d, &dmode, &fmode);
	snprintf(path, sizeof(path), "%s/users/%s/index.html", d->out, dir);
	rc = linked ? ioa_file_write(path, fmode, user_uid(uid_text), d->group, write_user_page, &a)
		    : -ENOMEM;
	if (rc)
		ioa_warning("cannot write '%s': %s", path, ioa_strerror(rc));
	free(linked);
	PQclear(a.jobs);
}

/* The users with jobs in the last 30 days, each their page. */
static void user_pages(struct dash *d)
{
	static const char sql[] =
		"SELECT DISTINCT u.name, u.uid FROM jobs j JOIN users u ON u.id = j.user_id "
		"WHERE j.start_time >= now() - make_interval(days => 30) ORDER BY 1, 2";
	PGresult *res = query(d, sql, 0, NULL);
	int i;

	for (i = 0; res && i < PQntuples(res); i++)
		user_page(d, PQgetvalue(res, i, 0), PQgetvalue(res, i, 1));
	PQclear(res);
}

struct page_arg {
	struct dash *d;
	const struct period *per;
};

static int write_page(FILE *out, void *arg)
{
	static const char sql_users_bytes[] =
		"SELECT u.name, count(*), coalesce(sum(j.bytes_read + j.bytes_written), 0) FROM "
		"jobs j "
		"JOIN users u ON u.id = j.user_id "
		"WHERE j.start_time >= now() - make_interval(days => $1::integer) "
		"GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT 20";
	static const char sql_users_jobs[] =
		"SELECT u.name, count(*), coalesce(sum(j.bytes_read + j.bytes_written), 0) FROM "
		"jobs j "
		"JOIN users u ON u.id = j.user_id "
		"WHERE j.start_time >= now() - make_interval(days => $1::integer) "
		"GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 20";
	static const char sql_exes_bytes[] =
		"SELECT e.display, count(*), coalesce(sum(j.bytes_read + j.bytes_written), 0) "
		"FROM jobs j JOIN executables e ON e.id = j.exe_id "
		"WHERE j.start_time >= now() - make_interval(days => $1::integer) "
		"GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT 20";
	static const char sql_exes_jobs[] =
		"SELECT e.display, count(*), coalesce(sum(j.bytes_read + j.bytes_written), 0) "
		"FROM jobs j JOIN executables e ON e.id = j.exe_id "
		"WHERE j.start_time >= now() - make_interval(days => $1::integer) "
		"GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 20";
	/* The period's jobs, then their records by job (indexes on both). */
	static const char sql_fs_bytes[] =
		"SELECT coalesce(fs.display, '(unknown)'), count(DISTINCT r.job), "
		"coalesce(sum(r.bytes_read + r.bytes_written), 0) FROM jobs j "
		"JOIN records r ON r.job = j.id AND r.start_time = j.start_time "
		"LEFT JOIN file_systems fs ON fs.id = r.fs WHERE r.module IN (0, 1) "
		"AND j.start_time >= now() - make_interval(days => $1::integer) "
		"GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT 20";
	static const char sql_fs_jobs[] =
		"SELECT coalesce(fs.display, '(unknown)'), count(DISTINCT r.job), "
		"coalesce(sum(r.bytes_read + r.bytes_written), 0) FROM jobs j "
		"JOIN records r ON r.job = j.id AND r.start_time = j.start_time "
		"LEFT JOIN file_systems fs ON fs.id = r.fs WHERE r.module IN (0, 1) "
		"AND j.start_time >= now() - make_interval(days => $1::integer) "
		"GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 20";
	struct page_arg *a = arg;
	struct html p = {out, 0};
	char days[16], title[64];

	snprintf(days, sizeof(days), "%d", a->per->days);
	snprintf(title, sizeof(title), "I/O dashboard: %s", a->per->label);
	html_begin(&p, title);
	html_put(&p, "<h1>I/O dashboard: %s</h1>\n", a->per->label);
	nav(&p, a->per);
	html_put(&p, "<h2>Top users</h2>\n");
	tops(a->d, &p, "users", sql_users_bytes, sql_users_jobs, days);
	html_put(&p, "<h2>Top executables</h2>\n");
	tops(a->d, &p, "executables", sql_exes_bytes, sql_exes_jobs, days);
	html_put(&p, "<h2>Top file systems</h2>\n");
	tops(a->d, &p, "file systems", sql_fs_bytes, sql_fs_jobs, days);
	insight_prevalence(a->d, &p, a->per, days);
	changes(a->d, &p, days);
	coverage(a->d, &p, days);
	jobs_list(a->d, &p, days);
	return html_end(&p, NULL);
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ioatlas dashboard -o DIR\n"
		"\n"
		"  -o, --out DIR  the web root to write\n"
		"  -h, --help     this help\n"
		"\n"
		"Writes the site's static pages into DIR (a web root): index.html (the last 7\n"
		"days), 1d.html, 7d.html, 30d.html, 365d.html (every user's jobs: readable by\n"
		"the site group), and in DIR/users/USER/ each user's page (index.html: their\n"
		"jobs of the last 30 days) and their jobs' reports (readable by that user only,\n"
		"when run as root; see dashboard.private_reports, dashboard.site_group and\n"
		"dashboard.report_group).\n"
		"\n"
		"Settings (ioatlas.conf(5)): warehouse.conninfo, dashboard.*, analyze.*.\n");
}

/* path = folder/name; path. */
static const char *path_of(char *path, size_t len, const char *folder, const char *name)
{
	snprintf(path, len, "%s/%s", folder, name);
	return path;
}

/*
 * Makes an output folder (the running user's, mode 755) or checks that the
 * one there is the running user's or root's and that others cannot write
 * in it: a folder another user made (in /tmp, say) would let that user
 * replace the pages and the users' reports.  0, or 1 with the reason said.
 */
static int out_folder(const char *path)
{
	uid_t owner = 0;
	int rc = ioa_file_dir(path, 0755, (uid_t)-1, (gid_t)-1, 0, &owner);

	if (rc == IOA_EFOREIGN)
		ioa_error("cannot use output folder '%s': %s (uid %u); remove it, or give it to "
			  "the user running the dashboard, then run again",
			  path, ioa_strerror(rc), (unsigned)owner);
	else if (rc == IOA_EOPENDIR)
		ioa_error("cannot use output folder '%s': %s; remove it, or take their write "
			  "permission away (chmod go-w), then run again",
			  path, ioa_strerror(rc));
	else if (rc == IOA_EFOREIGNLINK)
		ioa_error("cannot use output folder '%s': %s; remove it, or name the folder "
			  "itself, then run again",
			  path, ioa_strerror(rc));
	else if (rc)
		ioa_error("cannot use output folder '%s': %s", path, ioa_strerror(rc));
	return rc ? 1 : 0;
}

/* The group a setting names into *gid (unchanged when empty); 0, or -1 (said). */
static int setting_group(const char *key, const char *name, gid_t *gid)
{
	struct group *g;

	if (!name[0])
		return 0;
	if (!(g = getgrnam(name))) {
		ioa_error("%s: no group '%s'", key, name);
		return -1;
	}
	*gid = g->gr_gid;
	return 0;
}

int main(int argc, char **argv)
{
	struct dash d = {.group = (gid_t)-1, .site_group = (gid_t)-1};
	const struct ioa_setting table[] = {
		{"dashboard.report_group", IOA_SET_TEXT, &d.set.report_group, "",
		 "group that may read every user's reports (a web server's), or empty"},
		{"dashboard.site_group", IOA_SET_TEXT, &d.set.site_group, "",
		 "group that may read the site pages (every user's jobs): the staff's, or a web "
		 "server's that serves them to staff only; empty: the report group"},
		{"dashboard.private_reports", IOA_SET_BOOL, &d.set.private_reports, "yes",
		 "each user's reports and page readable by that user only, the site pages by "
		 "the site group only"},
		{"dashboard.reports_max", IOA_SET_COUNT, &d.set.reports_max, "500",
		 "job reports written per run"},
		{"dashboard.jobs_listed", IOA_SET_COUNT, &d.set.jobs_listed, "200",
		 "jobs listed per page"},
	};
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	char path[PATH_MAX];
	size_t i;
	int c, status = IOA_EXIT_FAIL;
	mode_t site_mode;
	static const struct option longs[] = {
		{"out", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};

	ioa_log_set_progname("ioatlas dashboard");
	while ((c = ioa_getopt(argc, argv, "o:h", longs)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return IOA_EXIT_OK;
		case 'o':
			d.out = optarg;
			break;
		default:
			usage(stderr);
			return IOA_EXIT_USAGE;
		}
	}
	if (!d.out || optind != argc) {
		usage(stderr);
		return IOA_EXIT_USAGE;
	}
	if (ioa_conf_load(table, sizeof(table) / sizeof(table[0]), &err) ||
	    an_settings_load(&d.an, &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		goto out;
	}
	if (setting_group("dashboard.report_group", d.set.report_group, &d.group))
		goto out;
	d.site_group = d.group;
	if (setting_group("dashboard.site_group", d.set.site_group, &d.site_group))
		goto out;
	/* The site pages hold every user's jobs: the site group's, or the running account's. */
	site_mode = !d.set.private_reports ? 0644 : d.site_group != (gid_t)-1 ? 0640 : 0600;
	if (out_folder(d.out) || out_folder(path_of(path, sizeof(path), d.out, "users")))
		goto out;
	d.conn = ioa_db_connect_read(&d.an.db, "ioatlas dashboard", 60, &err);
	if (!d.conn) {
		ioa_error("%s", ioa_buf_str(&err));
		goto out;
	}
	for (i = 0; i < sizeof(periods) / sizeof(periods[0]) && !d.failed; i++) {
		struct page_arg arg = {&d, &periods[i]};
		int rc;

		snprintf(path, sizeof(path), "%s/%s", d.out, periods[i].file);
		rc = ioa_file_write(path, site_mode, (uid_t)-1, d.site_group, write_page, &arg);
		if (!rc && periods[i].days == 7) {
			snprintf(path, sizeof(path), "%s/index.html", d.out);
			rc = ioa_file_write(path, site_mode, (uid_t)-1, d.site_group, write_page,
					    &arg);
		}
		if (rc) {
			ioa_error("cannot write '%s': %s", path, ioa_strerror(rc));
			d.failed = 1;
		}
	}
	if (!d.failed)
		user_pages(&d);
	if (!d.failed) {
		printf("%s/index.html\n", d.out);
		fprintf(stderr, "ioatlas dashboard: %lld job reports written\n", d.reports_written);
		status = IOA_EXIT_OK;
	}
out:
	PQfinish(d.conn);
	ioa_conf_free(table, sizeof(table) / sizeof(table[0]));
	an_settings_free(&d.an);
	ioa_buf_release(&err);
	return status;
}
