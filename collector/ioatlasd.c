/*
 * ioatlasd — the collector: moves every complete log of the log tree into
 * the warehouse, exactly once (ingest.h), as a service or, with --once, as
 * the nightly cron job that ingests the backlog and exits.
 *
 * New logs are found by inotify on the tree's day folders (a log appears
 * when the runtime renames its .part file) and by a periodic rescan of the
 * last days, which is what finds them on NFS and Lustre, where inotify sees
 * nothing of other clients.  Logs the ledger knows are skipped; several
 * collectors may share a tree (each log's transaction holds a lock on its
 * path).  When the database is away the collector waits and tries again,
 * backing off to a minute; logs stay where they are until committed.
 * SIGTERM and SIGINT stop it after the log in hand; SIGHUP reloads the
 * settings (a bad file keeps the old ones).
 *
 * Built twice: as ioatlasd, and as `ioatlas ingest` (INGEST_VERB), which
 * ingests the logs named on its command line, or with --status describes
 * the warehouse's ledger and the tree's backlog.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ingest.h"
#include "ioa_conf.h"
#include "ioa_db.h"
#include "ioa_log.h"

#ifndef IOATLAS_LOGDIR
#define IOATLAS_LOGDIR "/var/log/ioatlas"
#endif

struct settings {
	char *logdir, *conninfo, *quarantine, *trusted_user, *log_level;
	double rescan, summary, retry_max;
	long long rescan_days, region_cap_mib;
};

#define SETTINGS_TABLE(s)                                                                          \
	{                                                                                          \
		{"logdir", IOA_SET_TEXT, &(s)->logdir, IOATLAS_LOGDIR,                             \
		 "root of the log tree (LOGDIR/YYYY/MM/DD/*.ioa)"},                                \
			{"warehouse.conninfo", IOA_SET_TEXT, &(s)->conninfo, "",                   \
			 "libpq connection string (secrets in .pgpass or a service file)"},        \
			{"collector.quarantine", IOA_SET_TEXT, &(s)->quarantine, "",               \
			 "folder for logs that fail validation (empty: LOGDIR/quarantine)"},       \
			{"collector.trusted_user", IOA_SET_TEXT, &(s)->trusted_user, "",           \
			 "account that may own any user's log (a service that copies logs)"},      \
			{"collector.rescan", IOA_SET_SECONDS, &(s)->rescan, "10m",                 \
			 "how often the last days of the tree are scanned again"},                 \
			{"collector.rescan_days", IOA_SET_COUNT, &(s)->rescan_days, "3",           \
			 "how many days back a rescan looks (--once: the whole tree)"},            \
			{"collector.summary", IOA_SET_SECONDS, &(s)->summary, "10m",               \
			 "how often a summary line is logged"},                                    \
			{"collector.retry_max", IOA_SET_SECONDS, &(s)->retry_max, "1h",            \
			 "--once and ingest: how long to wait for the database before giving up"}, \
			{"collector.region_cap_mib", IOA_SET_COUNT, &(s)->region_cap_mib, "32",    \
			 "largest log region read into memory, MiB (bounds the collector's "       \
			 "memory)"},                                                               \
			{"collector.log_level", IOA_SET_TEXT, &(s)->log_level, "info",             \
			 "error, warning, info or debug"},                                         \
	}

struct queue {
	char **paths;
	size_t n, cap;
};

struct collector {
	struct settings set;
	struct ingest_settings ingest;
	char quarantine[PATH_MAX];
	PGconn *conn;
	int once, stop, inotify, sigfd;
	int db_down;  /* the last try to reach the warehouse failed */
	int fatal;    /* stopped by an error no retry mends */
	char **watch; /* watch descriptor -> folder */
	size_t nwatch;
	struct queue queue;
	/* the summary */
	uint64_t done, duplicates, quarantined, known, failed_tries;
	uint64_t period_done;
	double period_start, next_rescan, next_summary, backoff, retry_since;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------ settings */

static int load_settings(struct settings *s, struct ioa_buf *err)
{
	const struct ioa_setting table[] = SETTINGS_TABLE(s);
	enum ioa_log_level level;
	int rc = ioa_conf_load(table, sizeof(table) / sizeof(table[0]), err);

	if (!rc && ioa_log_level_parse(s->log_level, &level)) {
		ioa_buf_addf(err, "bad value for collector.log_level: '%s'", s->log_level);
		rc = -EINVAL;
	}
	if (!rc && (s->region_cap_mib < 1 || s->region_cap_mib > 4096)) {
		ioa_buf_addf(err, "collector.region_cap_mib must be 1 to 4096");
		rc = -EINVAL;
	}
	if (!rc && !s->logdir[0]) {
		ioa_buf_addf(err, "logdir is empty");
		rc = -EINVAL;
	}
	return rc;
}

static void free_settings(struct settings *s)
{
	const struct ioa_setting table[] = SETTINGS_TABLE(s);

	ioa_conf_free(table, sizeof(table) / sizeof(table[0]));
}

/* Applies loaded settings: the log level, the quarantine folder, the trusted uid. */
static int apply_settings(struct collector *c, struct ioa_buf *err)
{
	struct passwd *pw;
	enum ioa_log_level level = IOA_LOG_INFO;

	ioa_log_level_parse(c->set.log_level, &level);
	ioa_log_set_level(level);
	if (c->set.quarantine[0])
		snprintf(c->quarantine, sizeof(c->quarantine), "%s", c->set.quarantine);
	else
		snprintf(c->quarantine, sizeof(c->quarantine), "%s/quarantine", c->set.logdir);
	c->ingest.quarantine = c->quarantine;
	c->ingest.region_cap = (uint64_t)c->set.region_cap_mib << 20;
	c->ingest.trusted_uid = (uid_t)-1;
	if (c->set.trusted_user[0]) {
		pw = getpwnam(c->set.trusted_user);
		if (!pw) {
			ioa_buf_addf(err, "collector.trusted_user: no such user '%s'",
				     c->set.trusted_user);
			return -EINVAL;
		}
		c->ingest.trusted_uid = pw->pw_uid;
	}
	return 0;
}

/* ------------------------------------------------------------ discovery */

static int queue_add(struct queue *q, const char *path)
{
	size_t i;

	for (i = 0; i < q->n; i++)
		if (!strcmp(q->paths[i], path))
			return 0;
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 256;
		char **paths = realloc(q->paths, cap * sizeof(*paths));

		if (!paths)
			return -ENOMEM;
		q->paths = paths;
		q->cap = cap;
	}
	if (!(q->paths[q->n] = strdup(path)))
		return -ENOMEM;
	q->n++;
	return 0;
}

static void queue_drop_first(struct queue *q)
{
	free(q->paths[0]);
	memmove(q->paths, q->paths + 1, (q->n - 1) * sizeof(*q->paths));
	q->n--;
}

/* A complete log: *.ioa, not hidden, not the runtime's *.ioa.part. */
static int is_log_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 4 && !strcmp(name + n - 4, ".ioa");
}

static int all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return strlen(s) == n;
}

/* Watches a folder of the tree; watch descriptors are small integers: a table maps them back. */
static void watch_dir(struct collector *c, const char *dir)
{
	int wd;

	if (c->inotify < 0)
		return;
	wd = inotify_add_watch(c->inotify, dir,
			       IN_MOVED_TO | IN_CLOSE_WRITE | IN_CREATE | IN_ONLYDIR);
	if (wd < 0) {
		if (errno != ENOENT)
			ioa_debug("cannot watch '%s': %s", dir, strerror(errno));
		return;
	}
	if ((size_t)wd >= c->nwatch) {
		size_t n = (size_t)wd * 2 + 16;
		char **watch = realloc(c->watch, n * sizeof(*watch));

		if (!watch)
			return;
		memset(watch + c->nwatch, 0, (n - c->nwatch) * sizeof(*watch));
		c->watch = watch;
		c->nwatch = n;
	}
	if (!c->watch[wd])
		c->watch[wd] = strdup(dir);
}

/*
 * Walks the tree's day folders (LOGDIR/YYYY/MM/DD) from dir, depth levels
 * below LOGDIR, queueing complete logs and watching the folders.
 */
static void walk(struct collector *c, const char *dir, int depth)
{
	static const size_t widths[] = {4, 2, 2};
	struct dirent **entries;
	int n, i;

	watch_dir(c, dir);
	n = scandir(dir, &entries, NULL, alphasort);
	if (n < 0) {
		if (errno != ENOENT)
			ioa_warning("cannot read the folder '%s': %s", dir, strerror(errno));
		return;
	}
	for (i = 0; i < n; i++) {
		const char *name = entries[i]->d_name;
		char path[PATH_MAX];

		if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
			continue;
		if (depth < 3 && all_digits(name, widths[depth]))
			walk(c, path, depth + 1);
		else if (depth == 3 && is_log_name(name) && queue_add(&c->queue, path))
			ioa_error("out of memory queueing '%s'", path);
	}
	for (i = 0; i < n; i++)
		free(entries[i]);
	free(entries);
}

/* Scans the whole tree, or the last days' folders. */
static void scan(struct collector *c, long long days)
{
	char dir[PATH_MAX];
	time_t t = time(NULL);
	long long d;

	if (days <= 0) {
		walk(c, c->set.logdir, 0);
		return;
	}
	watch_dir(c, c->set.logdir);
	for (d = 0; d < days; d++) {
		time_t day = t - (time_t)d * 86400;
		struct tm tm;

		gmtime_r(&day, &tm);
		snprintf(dir, sizeof(dir), "%s/%04d", c->set.logdir, tm.tm_year + 1900);
		watch_dir(c, dir);
		snprintf(dir, sizeof(dir), "%s/%04d/%02d", c->set.logdir, tm.tm_year + 1900,
			 tm.tm_mon + 1);
		watch_dir(c, dir);
		snprintf(dir, sizeof(dir), "%s/%04d/%02d/%02d", c->set.logdir, tm.tm_year + 1900,
			 tm.tm_mon + 1, tm.tm_mday);
		walk(c, dir, 3);
	}
}

/* What inotify saw: a log renamed into place (queued), or a new folder (walked). */
static void read_inotify(struct collector *c)
{
	char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;
	char *p;

	while ((n = read(c->inotify, buf, sizeof(buf))) > 0) {
		for (p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;
			const char *dir =
				ev->wd >= 0 && (size_t)ev->wd < c->nwatch ? c->watch[ev->wd] : NULL;
			char path[PATH_MAX];

			p += sizeof(*ev) + ev->len;
			if (ev->mask & IN_Q_OVERFLOW) {
				/* Events were lost: the recent days are looked at again now. */
				c->next_rescan = 0;
				continue;
			}
			if (!ev->len || !dir ||
			    snprintf(path, sizeof(path), "%s/%s", dir, ev->name) >=
				    (int)sizeof(path))
				continue;
			if (ev->mask & IN_ISDIR)
				c->next_rescan = 0; /* a new year, month or day folder */
			else if (is_log_name(ev->name) && queue_add(&c->queue, path))
				ioa_error("out of memory queueing '%s'", path);
		}
	}
}

/* ------------------------------------------------------------ the database */

static int connect_db(struct collector *c)
{
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);

	if (c->conn && PQstatus(c->conn) == CONNECTION_OK) {
		ioa_buf_release(&err);
		return 0;
	}
	PQfinish(c->conn);
	c->conn = ioa_db_connect(c->set.conninfo, "ioatlasd", &err);
	if (c->conn && ingest_check_role(c->conn, &err) == -EPERM) {
		/* Not something waiting mends: the collector stops and says what to do. */
		ioa_error("%s", ioa_buf_str(&err));
		c->stop = c->fatal = 1;
		PQfinish(c->conn);
		c->conn = NULL;
		ioa_buf_release(&err);
		return -EPERM;
	}
	if (c->conn && ingest_register_counters(c->conn, &err)) {
		PQfinish(c->conn);
		c->conn = NULL;
	}
	/* Said once when the warehouse goes away and once when it is back, not at every try. */
	if (!c->conn && !c->db_down)
		ioa_warning("%s (trying again, with backoff)", ioa_buf_str(&err));
	else if (!c->conn)
		ioa_debug("%s", ioa_buf_str(&err));
	else if (c->db_down)
		ioa_warning("the warehouse is reachable again");
	c->db_down = !c->conn;
	ioa_buf_release(&err);
	return c->conn ? 0 : -ECONNREFUSED;
}

/* Drops logs the ledger already knows, in one query per batch. */
static void drop_known(struct collector *c)
{
	struct ioa_buf array = IOA_BUF_INIT((size_t)1 << 30), err = IOA_BUF_INIT(1024);
	size_t i, j, batch;

	for (i = 0; c->conn && i < c->queue.n; i += batch) {
		const char *param;
		PGresult *res;
		int k, rows;

		batch = c->queue.n - i < 1000 ? c->queue.n - i : 1000;
		ioa_buf_reset(&array);
		ioa_buf_addstr(&array, "{");
		for (j = i; j < i + batch; j++) {
			const char *s;

			ioa_buf_addstr(&array, j > i ? ",\"" : "\"");
			for (s = c->queue.paths[j]; *s; s++) {
				if (*s == '"' || *s == '\\')
					ioa_buf_addstr(&array, "\\");
				ioa_buf_add(&array, s, 1);
			}
			ioa_buf_addstr(&array, "\"");
		}
		if (ioa_buf_addstr(&array, "}"))
			break;
		param = array.data;
		res = ioa_db_query(c->conn,
				   "SELECT path FROM ingest_ledger WHERE path = ANY($1::text[]) "
				   "AND (status <> 'quarantined' OR quarantine_path IS NULL)",
				   1, &param, &err, NULL, NULL);
		if (!res)
			break;
		rows = PQntuples(res);
		for (k = 0; k < rows; k++)
			for (j = i; j < i + batch; j++)
				if (c->queue.paths[j][0] &&
				    !strcmp(c->queue.paths[j], PQgetvalue(res, k, 0)))
					c->queue.paths[j][0] = '\0';
		PQclear(res);
	}
	for (i = j = 0; i < c->queue.n; i++) {
		if (c->queue.paths[i][0])
			c->queue.paths[j++] = c->queue.paths[i];
		else
			free(c->queue.paths[i]);
	}
	c->queue.n = j;
	ioa_buf_release(&array);
	ioa_buf_release(&err);
}

/* ------------------------------------------------------------ the loop */

static void summary(struct collector *c)
{
	double now = now_s(), span = now - c->period_start;

	ioa_info("summary: %" PRIu64 " logs in %.0f s (%.1f logs/s), backlog %zu, ingested %" PRIu64
		 ", duplicates %" PRIu64 ", quarantined %" PRIu64,
		 c->period_done, span, span > 0 ? (double)c->period_done / span : 0, c->queue.n,
		 c->done, c->duplicates, c->quarantined);
	c->period_done = 0;
	c->period_start = now;
}

/* Ingests the first queued log; 0, or -EAGAIN when the database failed. */
static int ingest_next(struct collector *c)
{
	struct ingest_stats st;
	const char *path = c->queue.paths[0];
	enum ingest_result r;

	if (connect_db(c))
		return -EAGAIN;
	r = ingest_log(c->conn, &c->ingest, path, &st);
	switch (r) {
	case INGEST_DONE:
		c->done++;
		c->period_done++;
		ioa_info("ingested '%s': job %" PRId64 ", %" PRIu64 " records, %" PRIu64
			 " bytes in %.3f s",
			 path, st.job, st.records, st.bytes, st.seconds);
		break;
	case INGEST_DUPLICATE:
		c->duplicates++;
		c->period_done++;
		ioa_info("duplicate '%s': the same log is in the warehouse already", path);
		break;
	case INGEST_QUARANTINED:
		c->quarantined++;
		c->period_done++;
		ioa_warning("quarantined '%s': %s", path, st.reason);
		break;
	case INGEST_KNOWN:
		c->known++;
		break;
	case INGEST_BUSY:
		ioa_debug("'%s' is being ingested by another collector", path);
		break;
	case INGEST_GONE:
		ioa_info("'%s' went away before it was read", path);
		break;
	case INGEST_RETRY:
		if (PQstatus(c->conn) != CONNECTION_OK) {
			ioa_warning(
				"the warehouse went away while ingesting '%s': %s (trying again, "
				"with backoff)",
				path, st.reason);
			PQfinish(c->conn);
			c->conn = NULL;
			c->db_down = 1;
		} else {
			ioa_warning("'%s' not ingested, will try again: %s", path, st.reason);
		}
		return -EAGAIN;
	}
	queue_drop_first(&c->queue);
	return 0;
}

static void handle_signals(struct collector *c)
{
	struct signalfd_siginfo si;

	while (read(c->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGHUP) {
			struct settings fresh = {0};
			struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);

			if (load_settings(&fresh, &err)) {
				ioa_error("settings not reloaded: %s", ioa_buf_str(&err));
				free_settings(&fresh);
			} else {
				struct settings old = c->set;

				c->set = fresh;
				if (apply_settings(c, &err)) {
					ioa_error("settings not reloaded: %s", ioa_buf_str(&err));
					c->set = old;
					apply_settings(c, &err);
					free_settings(&fresh);
				} else {
					free_settings(&old);
					PQfinish(c->conn);
					c->conn = NULL;
					c->next_rescan = 0;
					ioa_info("settings reloaded");
				}
			}
			ioa_buf_release(&err);
		} else {
			ioa_info("stopping on signal %u", si.ssi_signo);
			c->stop = 1;
		}
	}
}

/* Waits up to seconds for a signal or a file event. */
static void wait_events(struct collector *c, double seconds)
{
	struct pollfd fds[2] = {{c->sigfd, POLLIN, 0}, {c->inotify, POLLIN, 0}};
	int ms = seconds <= 0 ? 0 : seconds > 3600 ? 3600000 : (int)(seconds * 1000) + 1;

	if (poll(fds, c->inotify >= 0 ? 2 : 1, ms) <= 0)
		return;
	if (fds[0].revents & POLLIN)
		handle_signals(c);
	if (c->inotify >= 0 && (fds[1].revents & POLLIN))
		read_inotify(c);
}

static int run(struct collector *c)
{
	double now;

	c->period_start = now_s();
	c->next_summary = c->period_start + c->set.summary;
	scan(c, c->once ? 0 : c->set.rescan_days);
	c->next_rescan = c->once ? 1e300 : now_s() + c->set.rescan;
	if (!connect_db(c))
		drop_known(c);
	while (!c->stop) {
		now = now_s();
		if (now >= c->next_rescan) {
			scan(c, c->set.rescan_days);
			if (c->conn)
				drop_known(c);
			c->next_rescan = now + c->set.rescan;
		}
		if (now >= c->next_summary) {
			summary(c);
			c->next_summary = now + c->set.summary;
		}
		if (!c->queue.n) {
			if (c->once)
				break;
			wait_events(c, (c->next_rescan < c->next_summary ? c->next_rescan
									 : c->next_summary) -
					       now);
			continue;
		}
		if (ingest_next(c) && !c->fatal) {
			/* The database is away: wait, longer each time, up to a minute. */
			if (!c->retry_since)
				c->retry_since = now;
			if (c->once && now - c->retry_since > c->set.retry_max) {
				ioa_error("the warehouse stayed unavailable for %.0f s: giving up "
					  "with "
					  "%zu logs not ingested",
					  now - c->retry_since, c->queue.n);
				return 1;
			}
			c->backoff = c->backoff ? (c->backoff * 2 > 60 ? 60 : c->backoff * 2) : 0.5;
			wait_events(c, c->backoff);
			continue;
		}
		c->backoff = 0;
		c->retry_since = 0;
		/* Signals are looked at between logs. */
		wait_events(c, 0);
	}
	if (c->once || c->stop)
		summary(c);
	return c->fatal ? 1 : 0;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ioatlasd [--once]\n"
		"\n"
		"Moves every complete log of the log tree into the warehouse, exactly once.\n"
		"  --once   ingest the backlog (the whole tree) and exit: the nightly cron mode\n"
		"\n"
		"Settings (ioatlas.conf(5)): logdir, warehouse.conninfo, collector.*.\n"
		"Signals: TERM/INT stop after the current log, HUP reloads the settings.\n");
}

int main(int argc, char **argv)
{
	struct collector c = {.inotify = -1, .sigfd = -1};
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	sigset_t mask;
	int a, status = 1;

	ioa_log_set_progname("ioatlasd");
	ioa_log_set_level(IOA_LOG_INFO);
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--once")) {
			c.once = 1;
		} else if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (load_settings(&c.set, &err) || apply_settings(&c, &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		goto out;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	c.sigfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (!c.once) {
		c.inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
		if (c.inotify < 0)
			ioa_warning("no inotify (%s): new logs are found by rescans only",
				    strerror(errno));
	}
	ioa_info("collecting '%s' into the warehouse%s", c.set.logdir, c.once ? " (once)" : "");
	status = run(&c);
out:
	PQfinish(c.conn);
	while (c.queue.n)
		queue_drop_first(&c.queue);
	free(c.queue.paths);
	if (c.inotify >= 0)
		close(c.inotify);
	for (a = 0; (size_t)a < c.nwatch; a++)
		free(c.watch[a]);
	free(c.watch);
	if (c.sigfd >= 0)
		close(c.sigfd);
	free_settings(&c.set);
	ioa_buf_release(&err);
	return status;
}
