/*
 * history — the metrics of an application's history (history.h).
 */
#include "history.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "ioa_parse.h"

const struct history_metric history_metrics[HISTORY_METRICS] = {
	{"io_time_per_byte", "I/O time per byte", 1},
	{"meta_seconds", "metadata time", 1},
	{"files", "files", 1},
	{"bandwidth", "bandwidth", 0},
};

double history_metric_value(const char *name, double io_seconds, double meta_seconds, double bytes,
			    double files, double min_seconds)
{
	int timed = io_seconds >= min_seconds;

	if (!strcmp(name, "io_time_per_byte"))
		return bytes > 0 && timed ? io_seconds / bytes : NAN;
	if (!strcmp(name, "meta_seconds"))
		return meta_seconds > min_seconds ? meta_seconds : min_seconds;
	if (!strcmp(name, "files"))
		return files;
	if (!strcmp(name, "bandwidth"))
		return io_seconds - meta_seconds > 0 && timed ? bytes / (io_seconds - meta_seconds)
							      : NAN;
	return NAN;
}

const char *history_metric_title(const char *name)
{
	size_t i;

	for (i = 0; i < HISTORY_METRICS; i++)
		if (!strcmp(history_metrics[i].name, name))
			return history_metrics[i].title;
	return name;
}

const char *history_metric_format(const char *name, double v, char *buf, size_t len)
{
	char b[24];

	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (!strcmp(name, "io_time_per_byte"))
		snprintf(buf, len, "%.3g s/GiB", v * 1073741824.0);
	else if (!strcmp(name, "meta_seconds"))
		snprintf(buf, len, "%.3g s", v);
	else if (!strcmp(name, "bandwidth"))
		snprintf(buf, len, "%s/s", ioa_format_bytes(v, b, sizeof(b)));
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

json_object *history_change_json(PGresult *res, int row, int col)
{
	json_object *c = json_object_new_object();
	double pv = strtod(PQgetvalue(res, row, col + 5), NULL);

	json_object_object_add(c, "job",
			       json_object_new_int64(strtoll(PQgetvalue(res, row, col), NULL, 10)));
	json_object_object_add(c, "metric", json_object_new_string(PQgetvalue(res, row, col + 1)));
	json_object_object_add(c, "kind", json_object_new_string(PQgetvalue(res, row, col + 2)));
	json_object_object_add(c, "before",
			       json_object_new_double(strtod(PQgetvalue(res, row, col + 3), NULL)));
	json_object_object_add(c, "after",
			       json_object_new_double(strtod(PQgetvalue(res, row, col + 4), NULL)));
	json_object_object_add(c, "confidence", json_object_new_double(1 - pv));
	json_object_object_add(
		c, "previous_job",
		json_object_new_int64(strtoll(PQgetvalue(res, row, col + 6), NULL, 10)));
	json_object_object_add(c, "start_time",
			       json_object_new_string(PQgetvalue(res, row, col + 7)));
	return c;
}
