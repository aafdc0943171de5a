/*
 * collector — settings and discovery shared by ioatlasd and `ioatlas ingest`
 * (see collector.h).
 */
#define _GNU_SOURCE
#include "collector.h"

#include <dirent.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ioa_conf.h"
#include "ioa_db.h"
#include "ioa_fault.h"
#include "ioa_log.h"

#ifndef IOATLAS_LOGDIR
#define IOATLAS_LOGDIR "/var/log/ioatlas"
#endif

#define SETTINGS_TABLE(s)                                                                          \
	{                                                                                          \
		{"logdir", IOA_SET_TEXT, &(s)->logdir, IOATLAS_LOGDIR,                             \
		 "root of the log tree (LOGDIR/YYYY/MM/DD/*.ioa)"},                                \
			IOA_DB_SETTINGS(&(s)->db),                                                 \
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
			{"collector.unreadable_wait", IOA_SET_SECONDS, &(s)->unreadable_wait,      \
			 "15m",                                                                    \
			 "how long a log that cannot be opened or read (permissions not set "      \
			 "yet) is tried again before it is quarantined"},                          \
			{"collector.region_cap_mib", IOA_SET_COUNT, &(s)->region_cap_mib, "32",    \
			 "largest log region read into memory, MiB (bounds the collector's "       \
			 "memory)"},                                                               \
			{"collector.recover_after", IOA_SET_SECONDS, &(s)->recover_after, "1h",    \
			 "ioatlasd recovers the jobs whose processes left spills untouched this "  \
			 "long into partial logs (0: never; the Slurm epilog does it at once)"},   \
			{"collector.log_level", IOA_SET_TEXT, &(s)->log_level, "info",             \
			 "error, warning, info or debug"},                                         \
	}

/* ------------------------------------------------------------ settings */

int collector_settings_load(struct collector_settings *s, struct ioa_buf *err)
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
	s->ingest.quarantine_fd = -1;
	if (!rc && !s->logdir[0]) {
		ioa_buf_addf(err, "logdir is empty");
		rc = -EINVAL;
	}
	return rc;
}

void collector_settings_free(struct collector_settings *s)
{
	const struct ioa_setting table[] = SETTINGS_TABLE(s);

	if (s->ingest.quarantine_fd >= 0)
		close(s->ingest.quarantine_fd);
	s->ingest.quarantine_fd = -1;
	ioa_conf_free(table, sizeof(table) / sizeof(table[0]));
}

int collector_quarantine_check(struct collector_settings *s, struct ioa_buf *err)
{
	int fd;

	if (s->ingest.quarantine_fd >= 0)
		close(s->ingest.quarantine_fd);
	s->ingest.quarantine_fd = -1;
	fd = ingest_quarantine_open(s->quarantine_dir, s->logdir, err);
	if (fd == -ENOENT) {
		/* No log tree yet: the folder is made and checked when a log first needs it. */
		ioa_buf_reset(err);
		return 0;
	}
	if (fd < 0)
		return fd;
	s->ingest.quarantine_fd = fd;
	return 0;
}

int collector_settings_apply(struct collector_settings *s, struct ioa_buf *err)
{
	struct passwd *pw;
	enum ioa_log_level level = IOA_LOG_INFO;

	ioa_log_level_parse(s->log_level, &level);
	ioa_log_set_level(level);
	if (s->quarantine[0])
		snprintf(s->quarantine_dir, sizeof(s->quarantine_dir), "%s", s->quarantine);
	else
		snprintf(s->quarantine_dir, sizeof(s->quarantine_dir), "%s/quarantine", s->logdir);
	s->ingest.quarantine = s->quarantine_dir;
	s->ingest.logdir = s->logdir;
	s->ingest.region_cap = (uint64_t)s->region_cap_mib << 20;
	s->ingest.trusted_uid = (uid_t)-1;
	s->ingest.recover_uid = (uid_t)-1;
	if (s->trusted_user[0]) {
		pw = getpwnam(s->trusted_user);
		if (!pw) {
			ioa_buf_addf(err, "collector.trusted_user: no such user '%s'",
				     s->trusted_user);
			return -EINVAL;
		}
		s->ingest.trusted_uid = pw->pw_uid;
	}
	return 0;
}

/* ------------------------------------------------------------ discovery */

static int discover_add(struct discover *d, const char *path);

int discover_push(struct discover *d, const char *path)
{
	return discover_add(d, path);
}

static int discover_add(struct discover *d, const char *path)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 256;
		char **paths =
			IOA_FAULT("col-alloc") ? NULL : realloc(d->paths, cap * sizeof(*paths));

		if (!paths)
			return -ENOMEM;
		d->paths = paths;
		d->cap = cap;
	}
	if (!(d->paths[d->n] = IOA_FAULT("col-alloc") ? NULL : strdup(path)))
		return -ENOMEM;
	d->n++;
	d->untidy = 1;
	return 0;
}

/* Descending, so that the next log (the least path: the oldest day) is the last entry. */
static int path_desc(const void *a, const void *b)
{
	return strcmp(*(char *const *)b, *(char *const *)a);
}

/* Sorts what was added since the last time and drops repeats: n log n, whatever the backlog. */
static void discover_tidy(struct discover *d)
{
	size_t i, j;

	if (!d->untidy)
		return;
	qsort(d->paths, d->n, sizeof(*d->paths), path_desc);
	for (i = j = 0; i < d->n; i++) {
		if (j && !strcmp(d->paths[j - 1], d->paths[i]))
			free(d->paths[i]);
		else
			d->paths[j++] = d->paths[i];
	}
	d->n = j;
	d->untidy = 0;
}

const char *discover_first(const struct discover *d)
{
	return d->n ? d->paths[d->n - 1] : NULL;
}

void discover_drop_first(struct discover *d)
{
	if (d->n)
		free(d->paths[--d->n]);
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
static void watch_dir(struct discover *d, const char *dir)
{
	int wd;

	if (d->inotify < 0)
		return;
	wd = inotify_add_watch(d->inotify, dir,
			       IN_MOVED_TO | IN_CLOSE_WRITE | IN_CREATE | IN_ONLYDIR);
	if (wd < 0) {
		if (errno != ENOENT)
			ioa_debug("cannot watch '%s': %s", dir, strerror(errno));
		return;
	}
	if ((size_t)wd >= d->nwatch) {
		size_t n = (size_t)wd * 2 + 16;
		char **watch =
			IOA_FAULT("col-alloc") ? NULL : realloc(d->watch, n * sizeof(*watch));

		if (!watch)
			return;
		memset(watch + d->nwatch, 0, (n - d->nwatch) * sizeof(*watch));
		d->watch = watch;
		d->nwatch = n;
	}
	if (!d->watch[wd])
		d->watch[wd] = IOA_FAULT("col-alloc") ? NULL : strdup(dir);
}

/*
 * Walks the tree's day folders (LOGDIR/YYYY/MM/DD) from dir, depth levels
 * below LOGDIR, queueing complete logs and watching the folders.
 */
static void walk(struct discover *d, const char *dir, int depth)
{
	static const size_t widths[] = {4, 2, 2};
	struct dirent **entries;
	int n, i;

	watch_dir(d, dir);
	n = IOA_FAULT("col-alloc") ? (errno = ENOMEM, -1) : scandir(dir, &entries, NULL, alphasort);
	if (n < 0) {
		if (errno != ENOENT) {
			ioa_warning("cannot read the folder '%s': %s", dir, strerror(errno));
			d->unqueued++; /* its logs, if any, are a later scan's */
		}
		return;
	}
	for (i = 0; i < n; i++) {
		const char *name = entries[i]->d_name;
		char path[PATH_MAX];
		struct stat st;

		if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
			continue;
		/* Never into a symbolic link: a user's folder could point at others' files. */
		if (depth < 3 && all_digits(name, widths[depth]) && entries[i]->d_type != DT_LNK &&
		    !lstat(path, &st) && S_ISDIR(st.st_mode))
			walk(d, path, depth + 1);
		else if (depth == 3 && is_log_name(name) && discover_add(d, path)) {
			ioa_error("out of memory queueing '%s'", path);
			d->unqueued++;
		}
	}
	for (i = 0; i < n; i++)
		free(entries[i]);
	free(entries);
}

void discover_scan(struct discover *d, long long days)
{
	char dir[PATH_MAX];
	time_t t = time(NULL);
	long long k;

	if (days <= 0) {
		walk(d, d->logdir, 0);
		discover_tidy(d);
		return;
	}
	watch_dir(d, d->logdir);
	for (k = 0; k < days; k++) {
		time_t day = t - (time_t)k * 86400;
		struct tm tm;

		gmtime_r(&day, &tm);
		snprintf(dir, sizeof(dir), "%s/%04d", d->logdir, tm.tm_year + 1900);
		watch_dir(d, dir);
		snprintf(dir, sizeof(dir), "%s/%04d/%02d", d->logdir, tm.tm_year + 1900,
			 tm.tm_mon + 1);
		watch_dir(d, dir);
		snprintf(dir, sizeof(dir), "%s/%04d/%02d/%02d", d->logdir, tm.tm_year + 1900,
			 tm.tm_mon + 1, tm.tm_mday);
		walk(d, dir, 3);
	}
	discover_tidy(d);
}

void discover_read_events(struct discover *d)
{
	char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;
	char *p;

	while ((n = read(d->inotify, buf, sizeof(buf))) > 0) {
		for (p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;
			const char *dir =
				ev->wd >= 0 && (size_t)ev->wd < d->nwatch ? d->watch[ev->wd] : NULL;
			char path[PATH_MAX];

			p += sizeof(*ev) + ev->len;
			if (ev->mask & IN_Q_OVERFLOW) {
				/* Events were lost: the recent days are looked at again now. */
				d->rescan_now = 1;
				continue;
			}
			if (!ev->len || !dir ||
			    snprintf(path, sizeof(path), "%s/%s", dir, ev->name) >=
				    (int)sizeof(path))
				continue;
			if (ev->mask & IN_ISDIR)
				d->rescan_now = 1; /* a new year, month or day folder */
			else if (is_log_name(ev->name) && discover_add(d, path)) {
				ioa_error("out of memory queueing '%s'", path);
				d->unqueued++;
			}
		}
	}
	discover_tidy(d);
}

/* Drops logs the ledger already knows, in one query per batch. */
void discover_drop_known(struct discover *d, PGconn *conn)
{
	struct ioa_buf array = IOA_BUF_INIT((size_t)1 << 30), err = IOA_BUF_INIT(1024);
	unsigned char known[1000];
	size_t i, j, batch;

	discover_tidy(d);
	for (i = 0; conn && i < d->n; i += batch) {
		const char *param;
		PGresult *res;
		int k, rows;

		batch = d->n - i < sizeof(known) ? d->n - i : sizeof(known);
		ioa_buf_reset(&array);
		ioa_buf_addstr(&array, "{");
		for (j = i; j < i + batch; j++) {
			const char *s;

			ioa_buf_addstr(&array, j > i ? ",\"" : "\"");
			for (s = d->paths[j]; *s; s++) {
				if (*s == '"' || *s == '\\')
					ioa_buf_addstr(&array, "\\");
				ioa_buf_add(&array, s, 1);
			}
			ioa_buf_addstr(&array, "\"");
		}
		if (ioa_buf_addstr(&array, "}"))
			break;
		param = array.data;
		res = ioa_db_query(conn,
				   "SELECT path FROM ingest_ledger WHERE path = ANY($1::text[]) "
				   "AND (status <> 'quarantined' OR quarantine_path IS NULL)",
				   1, &param, &err, NULL, NULL);
		if (!res)
			break;
		/* The batch is sorted: each known path is found by bisection, marked, then dropped.
		 */
		memset(known, 0, sizeof(known));
		rows = PQntuples(res);
		for (k = 0; k < rows; k++) {
			const char *path = PQgetvalue(res, k, 0);
			char **hit =
				bsearch(&path, d->paths + i, batch, sizeof(*d->paths), path_desc);

			if (hit)
				known[hit - (d->paths + i)] = 1;
		}
		for (j = 0; j < batch; j++)
			if (known[j])
				d->paths[i + j][0] = '\0';
		PQclear(res);
	}
	for (i = j = 0; i < d->n; i++) {
		if (d->paths[i][0])
			d->paths[j++] = d->paths[i];
		else
			free(d->paths[i]);
	}
	d->n = j;
	ioa_buf_release(&array);
	ioa_buf_release(&err);
}

void discover_free(struct discover *d)
{
	size_t i;

	while (d->n)
		discover_drop_first(d);
	free(d->paths);
	for (i = 0; i < d->nwatch; i++)
		free(d->watch[i]);
	free(d->watch);
	if (d->inotify >= 0)
		close(d->inotify);
	memset(d, 0, sizeof(*d));
	d->inotify = -1;
}

/* ------------------------------------------------------------ unreadable logs */

struct unreadable *unreadable_find(struct unreadable_list *u, const char *path)
{
	size_t i;

	for (i = 0; i < u->n; i++)
		if (!strcmp(u->v[i].path, path))
			return &u->v[i];
	return NULL;
}

int unreadable_note(struct unreadable_list *u, const char *path, double now, double wait,
		    double *delay)
{
	struct unreadable *e = unreadable_find(u, path);
	double step;

	if (!e) {
		if (u->n == UNREADABLE_MAX)
			return -ENOSPC;
		if (u->n == u->cap) {
			size_t cap = u->cap ? u->cap * 2 : 16;
			struct unreadable *v =
				IOA_FAULT("col-alloc") ? NULL : realloc(u->v, cap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			u->v = v;
			u->cap = cap;
		}
		e = &u->v[u->n];
		e->path = IOA_FAULT("col-alloc") ? NULL : strdup(path);
		if (!e->path)
			return -ENOMEM;
		e->tries = 0;
		e->first = now;
		u->n++;
	}
	e->tries++;
	e->queued = 0;
	step = e->tries >= 9 ? 300 : (double)(1u << (e->tries - 1));
	step = step > 300 ? 300 : step;
	/* The last try is when the wait is over, not later. */
	if (now + step > e->first + wait)
		step = e->first + wait - now;
	e->next = now + (step > 0 ? step : 0);
	*delay = e->next - now;
	return 0;
}

int unreadable_last(const struct unreadable *e, double now, double wait)
{
	return now >= e->first + wait;
}

void unreadable_forget(struct unreadable_list *u, const char *path)
{
	struct unreadable *e = unreadable_find(u, path);

	if (!e)
		return;
	free(e->path);
	*e = u->v[--u->n];
}

double unreadable_due(struct unreadable_list *u, double now, struct discover *d)
{
	double later = 0;
	size_t i;

	for (i = 0; i < u->n; i++) {
		struct unreadable *e = &u->v[i];

		if (e->queued)
			continue;
		if (e->next <= now)
			e->queued = !discover_push(d, e->path);
		else if (!later || e->next < later)
			later = e->next;
	}
	if (d->untidy)
		discover_tidy(d);
	return later;
}

void unreadable_free(struct unreadable_list *u)
{
	size_t i;

	for (i = 0; i < u->n; i++)
		free(u->v[i].path);
	free(u->v);
	memset(u, 0, sizeof(*u));
}
