/*
 * report — a job's report (docs/reports.md): first a model of everything
 * it shows, as JSON (`ioatlas report --json` prints it), then one
 * self-contained HTML page drawn from that model, plots as inline SVG.
 *
 * Everything in the model that came from the job (file names, program,
 * arguments, hosts, settings) is user-controlled text: the HTML writer
 * escapes every string it prints, and the page forbids itself any network
 * access (Content-Security-Policy), so a hostile name stays text.
 */
#ifndef REPORT_H
#define REPORT_H

#include <json-c/json.h>
#include <libpq-fe.h>
#include <stdio.h>

#include "analyze.h"

/*
 * SQL: a job j's insights (the latest version stored) as a.result, NULL
 * when not analysed yet; its top finding is a.result->'findings'->0 (they
 * are ranked) and the share of its time in I/O a.result->>'io_share_of_run'.
 */
#define REPORT_SQL_JOIN_INSIGHTS                                                       \
	"LEFT JOIN LATERAL (SELECT result FROM analysis_results r WHERE r.job = j.id " \
	"AND r.start_time = j.start_time AND r.analysis = 'insights' "                 \
	"ORDER BY r.version DESC LIMIT 1) a ON true "

/*
 * An array's length, 0 for anything else: the model holds analyses'
 * results as the warehouse stored them, and json-c asserts on the length
 * of what is not an array.
 */
static inline size_t report_len(json_object *a)
{
	return json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

/* Columns of the time plots; rows of the heatmap at most (ranks grouped beyond). */
#define REPORT_TIME_COLUMNS 96
#define REPORT_HEAT_ROWS    128

/*
 * The model of job's report.  analyses: an array of {analysis, version,
 * confidence, result}, as `ioatlas analyze` stores them.  kernels: the
 * job's published I/O kernels, {name, version, url} (NULL: none).  source
 * says where the job came from ("warehouse", or the log's path).  NULL
 * when out of memory.
 */
json_object *report_model(const struct an_job *job, json_object *analyses, json_object *kernels,
			  const char *source);

/*
 * The drill-downs (report_drill.c).  A file to its ranks: per file (the 64
 * moving the most bytes, in jobs of up to 4,096 ranks), keyed by its name,
 * {source ("trace" or "counters"), ranks: the 32 ranks moving the most
 * bytes, each {rank, reads, writes, bytes_read, bytes_written, sequential
 * (the share of its calls that began where its previous one ended; null
 * when the counters cannot tell)}, ranks_with_calls; or, from the
 * counters for a file whose record is combined over its ranks, combined
 * (true: the log keeps only their sum) and no ranks}.
 */
json_object *report_file_ranks(const struct an_job *job);

/*
 * A rank that findings' evidence names (report_names_rank(): single ranks
 * first, then those rank lists write out) to its files: per rank (at most
 * 32), keyed by its number, {source, files: the 64 moving the most bytes,
 * each {file, reads, writes, bytes_read, bytes_written, sequential},
 * files_with_calls, bytes (over all its files), shared_files (counters:
 * files whose records are combined over ranks, this rank's share unknown),
 * extremes (counters: those of them it was the fastest or slowest rank
 * of, {file, as, bytes, io_time})}.
 */
json_object *report_rank_files(const struct an_job *job, json_object *findings);

/*
 * A warehouse job's place in its application's history (report_history.c,
 * docs/history.md): {application, user, job, runs: the application's runs
 * around it (up to 40 before, it included, 10 after), each {job,
 * start_time, io_seconds, bytes, io_time_per_byte (null without bytes)},
 * changes: those that began at or before it, the latest first, each {job
 * (the first run after it), previous_job, metric, kind, before, after
 * (medians), confidence, start_time}}.  NULL when the job has no history
 * row (a log's report) or it cannot be read (said).
 */
json_object *report_history(PGconn *conn, const struct an_job *job);

/* The same runs and changes of application app (its id) around start. */
json_object *report_history_app(PGconn *conn, const char *app, const char *start);

struct html;

/* The plot of such a history's runs (I/O time per byte), job's point larger, changes dashed. */
void report_history_plot(struct html *p, json_object *h, int64_t job);

/* One of its changes, in a sentence. */
void report_history_change(struct html *p, json_object *c);

/* The report's "Across runs" section, from the model's history (nothing without one). */
void report_history_html(struct html *p, json_object *m);

/* The evidence key names ranks: "rank", "rank_list" ("0,3-5") or a name ending in "_rank". */
int report_names_rank(const char *key);

/* The page, to out; 0 or -errno (a write that failed: a full disk). */
int report_html(json_object *model, FILE *out);

/*
 * The job's analyses, as report_model() takes them: from conn (the stored
 * results of the current versions) when given, the others run now.
 */
json_object *report_analyses(PGconn *conn, const struct an_job *job, const struct an_settings *set);

/* The job's published kernels (job_kernels), as report_model() takes them. */
json_object *report_kernels(PGconn *conn, const struct an_job *job);

/*
 * The what-if replays of the job's kernel (job_whatif), the model's
 * "whatif": each change, the finding it answers, the medians as the job ran
 * and with the change.  An empty array when none, or when unreadable (said).
 */
json_object *report_whatif(PGconn *conn, const struct an_job *job);

/* Writers for ioa_file_write(): the model (a json_object *) as the page, or as JSON. */
int report_page(FILE *out, void *model);
int report_json(FILE *out, void *model);

#endif
