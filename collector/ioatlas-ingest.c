/*
 * ioatlas ingest — the collector's work by hand, and its state.
 *
 *	ioatlas ingest LOG...     ingest these logs now, exactly as ioatlasd would
 *	ioatlas ingest --status   the ledger (logs by status, the last day, the
 *	                          newest), the quarantined, and the tree's backlog
 *
 * Settings as for ioatlasd (ioatlas.conf(5)).  Exit status: 0 when every
 * log named is in the warehouse (ingested now, before, or as a duplicate),
 * 1 when one was quarantined or could not be ingested, 2 on usage errors.
 */
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collector.h"
#include "ingest.h"
#include "ioa_db.h"
#include "ioa_log.h"
#include "ioa_opts.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: ioatlas ingest LOG... | --status\n"
		     "\n"
		     "  LOG...      ingest these logs now, exactly once, as ioatlasd would\n"
		     "  --status    the warehouse's ledger and the log tree's backlog\n"
		     "  -h, --help  this help\n"
		     "\n"
		     "Settings: logdir, warehouse.conninfo, collector.* (ioatlas.conf(5)).\n");
}

static void sleep_s(double s)
{
	struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};

	nanosleep(&ts, NULL);
}

/* One log, waiting out a database that is away (up to collector.retry_max). */
static int ingest_one(struct ingest_db *db, const struct collector_settings *set, const char *path)
{
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	double start = ingest_now(), backoff = 0.5;
	struct ingest_stats st;
	enum ingest_result r = INGEST_RETRY;
	double first = 0, step;
	unsigned tries = 0;
	int busy = 0;

	for (;;) {
		if (!ingest_connected(db) &&
		    ingest_connect(db, set->db.conninfo, "ioatlas ingest", &err) == -EPERM) {
			ioa_error("%s", ioa_buf_str(&err));
			break;
		}
		if (ingest_connected(db)) {
			if (tries && ingest_now() - first >= set->unreadable_wait)
				r = ingest_log_last_try(db, &set->ingest, path, tries,
							ingest_now() - first, &st);
			else
				r = ingest_log(db, &set->ingest, path, &st);
			/* Not readable yet (permissions set later): tried again, with backoff. */
			if (r == INGEST_UNREADABLE) {
				if (!tries++)
					first = ingest_now();
				step = tries >= 9 ? 300 : (double)(1u << (tries - 1));
				if (ingest_now() + step > first + set->unreadable_wait)
					step = first + set->unreadable_wait - ingest_now();
				step = step > 0 ? step : 0;
				ioa_warning("'%s' not readable now (%s): trying again in %.0f s",
					    path, st.reason, step);
				sleep_s(step);
				continue;
			}
			/* Another collector has it: wait for it to finish, then it is known. */
			if (r == INGEST_BUSY && busy++ < 600) {
				sleep_s(0.1);
				continue;
			}
			if (r != INGEST_RETRY)
				break;
			ioa_buf_reset(&err);
			ioa_buf_addstr(&err, st.reason);
			if (!ingest_connected(db))
				ingest_disconnect(db);
		}
		if (ingest_now() - start > set->retry_max) {
			ioa_error("'%s' not ingested: %s", path, ioa_buf_str(&err));
			break;
		}
		sleep_s(backoff);
		backoff = backoff * 2 > 60 ? 60 : backoff * 2;
	}
	ioa_buf_release(&err);
	ioa_progress_clear();
	switch (r) {
	case INGEST_DONE:
		printf("ingested %s: job %" PRId64 ", %" PRIu64 " records\n", path, st.job,
		       st.records);
		return 0;
	case INGEST_DUPLICATE:
		printf("duplicate %s: the same log is in the warehouse already\n", path);
		return 0;
	case INGEST_KNOWN:
		printf("known %s: in the ledger already\n", path);
		return 0;
	case INGEST_QUARANTINED:
		printf("quarantined %s: %s\n", path, st.reason);
		return 1;
	case INGEST_GONE:
		printf("gone %s: no such log\n", path);
		return 1;
	default:
		return 1;
	}
}

static int print_query(PGconn *conn, const char *title, const char *sql, int n,
		       const char *const *params)
{
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	PGresult *res = ioa_db_query(conn, sql, n, params, &err, NULL, NULL);
	int row, col;

	if (!res) {
		ioa_error("%s", ioa_buf_str(&err));
		ioa_buf_release(&err);
		return 1;
	}
	if (title)
		printf("%s\n", title);
	for (row = 0; row < PQntuples(res); row++) {
		for (col = 0; col < PQnfields(res); col++)
			printf("%s%s", col ? "  " : "  ", PQgetvalue(res, row, col));
		printf("\n");
	}
	PQclear(res);
	ioa_buf_release(&err);
	return 0;
}

static int status(const struct collector_settings *set)
{
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	struct discover d = {.logdir = set->logdir, .inotify = -1};
	PGconn *conn = ioa_db_connect(set->db.conninfo, "ioatlas ingest", &err);
	size_t found;
	int rc = 0;

	if (!conn) {
		ioa_error("%s", ioa_buf_str(&err));
		ioa_buf_release(&err);
		return 1;
	}
	rc |= print_query(conn, "ledger (all time, last 24 hours):",
			  "SELECT s.status || ':', count(l.id), count(l.id) FILTER (WHERE "
			  "l.finished_at > now() - interval '1 day') FROM (VALUES ('ingested'), "
			  "('duplicate'), ('quarantined')) s(status) LEFT JOIN ingest_ledger l "
			  "ON l.status = s.status GROUP BY s.status ORDER BY s.status",
			  0, NULL);
	rc |= print_query(conn, "newest:",
			  "SELECT coalesce(max(finished_at)::text, 'none') FROM ingest_ledger", 0,
			  NULL);
	rc |= print_query(conn, "last quarantined:",
			  "SELECT finished_at, path, error FROM ingest_ledger "
			  "WHERE status = 'quarantined' ORDER BY finished_at DESC LIMIT 5",
			  0, NULL);
	discover_scan(&d, 0);
	found = d.n;
	discover_drop_known(&d, conn);
	printf("log tree %s: %zu logs, backlog %zu\n", set->logdir, found, d.n);
	discover_free(&d);
	PQfinish(conn);
	ioa_buf_release(&err);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct collector_settings set = {0};
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	struct ingest_db db = {0};
	int a, c, rc = 0, want_status = 0;
	static const struct option longs[] = {
		{"status", no_argument, NULL, 'S'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};

	ioa_log_set_progname("ioatlas ingest");
	while ((c = ioa_getopt(argc, argv, "h", longs)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return IOA_EXIT_OK;
		}
		if (c != 'S') {
			usage(stderr);
			return IOA_EXIT_USAGE;
		}
		want_status = 1;
	}
	if (want_status ? optind != argc : optind == argc) {
		usage(stderr);
		return IOA_EXIT_USAGE;
	}
	if (collector_settings_load(&set, &err) || collector_settings_apply(&set, &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		collector_settings_free(&set);
		ioa_buf_release(&err);
		return 1;
	}
	if (want_status) {
		rc = status(&set);
	} else if (collector_quarantine_check(&set, &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		rc = 1;
	} else {
		if (argc - optind > 1)
			ioa_progress_begin("ingesting logs", (unsigned long long)(argc - optind));
		for (a = optind; a < argc; a++) {
			/* The ledger holds absolute paths, as ioatlasd finds them. */
			struct ioa_buf path = IOA_BUF_INIT(2 * PATH_MAX);
			char cwd[PATH_MAX];

			if (argv[a][0] != '/' && getcwd(cwd, sizeof(cwd)))
				ioa_buf_addf(&path, "%s/%s", cwd, argv[a]);
			else
				ioa_buf_addstr(&path, argv[a]);
			rc |= ingest_one(&db, &set, ioa_buf_str(&path));
			ioa_buf_release(&path);
			ioa_progress_step((unsigned long long)(a - optind + 1));
		}
		ioa_progress_end();
	}
	ingest_disconnect(&db);
	collector_settings_free(&set);
	ioa_buf_release(&err);
	return rc;
}
