/*
 * history — the metrics of an application's history in which the nightly
 * looks for changes (docs/history.md), shared by `ioatlas history`, the
 * dashboard and the job report.  Each is computed from a job's
 * job_history row (warehouse/migrations/0012_history.sql).
 */
#ifndef HISTORY_H
#define HISTORY_H

#include <json-c/json.h>
#include <libpq-fe.h>
#include <stddef.h>

struct history_metric {
	const char *name;  /* history_changes.metric */
	const char *title; /* for people */
	int up_is_worse;   /* a rise is a regression (else a fall is) */
};

#define HISTORY_METRICS 4
extern const struct history_metric history_metrics[HISTORY_METRICS];

/*
 * The metric name's value for a job that spent io_seconds in I/O per rank
 * (meta_seconds of it in metadata), moved bytes and touched files; NAN
 * when the job has none (no bytes: no time per byte).  Times below
 * min_seconds are noise, not a level: a job with less I/O time has no time
 * per byte or bandwidth (NAN), metadata time below it counts as it.
 */
double history_metric_value(const char *name, double io_seconds, double meta_seconds, double bytes,
			    double files, double min_seconds);

/* The metric's title, or name when unknown. */
const char *history_metric_title(const char *name);

/* v in the metric's unit ("3.2 s/GiB", "410 MB/s"); returns buf. */
const char *history_metric_format(const char *name, double v, char *buf, size_t len);

/*
 * A change found (a row of history_changes) as JSON: {job (its first run),
 * metric, kind, before, after (medians), confidence, previous_job,
 * start_time}, from the columns HISTORY_CHANGE_COLUMNS, which start at
 * column col of res's row.
 */
#define HISTORY_CHANGE_COLUMNS \
	"job, metric, kind, before, after, p_value, previous_job, start_time::text "
json_object *history_change_json(PGresult *res, int row, int col);

#endif
