/*
 * collector — what ioatlasd and `ioatlas ingest` share: their settings
 * (ioatlas.conf(5): logdir, warehouse.conninfo, collector.*) and the
 * discovery of logs in the tree (LOGDIR/YYYY/MM/DD/NAME.ioa, never NAME.ioa.part or
 * the quarantine folder), with inotify watches on the folders walked.
 */
#ifndef COLLECTOR_H
#define COLLECTOR_H

#include <libpq-fe.h>
#include <limits.h>
#include <stddef.h>

#include "ingest.h"
#include "ioa_buf.h"
#include "ioa_db.h"

struct collector_settings {
	char *logdir, *quarantine, *trusted_user, *log_level;
	struct ioa_db_settings db; /* the warehouse.* settings */
	double rescan, summary, retry_max, unreadable_wait, recover_after;
	long long rescan_days, region_cap_mib;
	/* derived by collector_settings_apply() */
	char quarantine_dir[PATH_MAX];
	struct ingest_settings ingest;
};

/* Loads and checks the settings; 0, or -EINVAL with the reason in err. */
int collector_settings_load(struct collector_settings *s, struct ioa_buf *err);
void collector_settings_free(struct collector_settings *s);

/* Sets the log level and derives the ingest settings (quarantine folder, trusted uid). */
int collector_settings_apply(struct collector_settings *s, struct ioa_buf *err);

/*
 * Makes or checks the quarantine folder and keeps it open for the moves
 * (ingest_quarantine_open()): 0, or a negative errno with what is wrong and
 * what to do in err; the collector then refuses to start.  A log tree not
 * made yet is no error (the folder is checked when a log first needs it).
 */
int collector_quarantine_check(struct collector_settings *s, struct ioa_buf *err);

/*
 * Logs found and not yet known to be done, without repeats, taken least
 * path first (the oldest day first).
 */
struct discover {
	const char *logdir;
	int inotify;  /* -1: no watches */
	char **watch; /* watch descriptor -> folder */
	size_t nwatch;
	char **paths; /* sorted descending: the next log is the last */
	size_t n, cap;
	int untidy;		/* added to since last sorted */
	int rescan_now;		/* inotify saw a new folder, or lost events */
	unsigned long unqueued; /* logs or folders seen but not queued: a later scan's */
};

/* The next log (NULL when none), and dropping it once done. */
const char *discover_first(const struct discover *d);
void discover_drop_first(struct discover *d);

/* Walks the whole tree (days <= 0) or the last days' folders, adding logs and watching folders. */
void discover_scan(struct discover *d, long long days);

/* Reads pending inotify events: new logs are added, new folders set rescan_now. */
void discover_read_events(struct discover *d);

/* Drops the paths the warehouse's ledger knows (one query per 1,000). */
void discover_drop_known(struct discover *d, PGconn *conn);

void discover_free(struct discover *d);

/* Queues path (a log found by other means: one due for another try); 0 or -ENOMEM. */
int discover_push(struct discover *d, const char *path);

/*
 * Logs that could not be opened or read (INGEST_UNREADABLE), each tried
 * again with backoff (1 s, doubling, at most 5 min) until
 * collector.unreadable_wait has passed since the first refusal; then its
 * last try ingests it or quarantines it.  Kept in memory: a restarted
 * collector starts counting again (the ledger is untouched until the end,
 * so exactly-once holds either way).  At most UNREADABLE_MAX logs.
 */
#define UNREADABLE_MAX 65536
struct unreadable {
	char *path;
	unsigned tries;
	double first, next; /* ingest_now() of the first refusal, of the next try */
	int queued;	    /* pushed back into discovery, due */
};
struct unreadable_list {
	struct unreadable *v;
	size_t n, cap;
};

struct unreadable *unreadable_find(struct unreadable_list *u, const char *path);

/*
 * Notes one more refusal of path at now: its next try is returned in
 * *delay seconds.  0, or -ENOMEM / -ENOSPC (the list is full: the log is
 * only found again by a later scan).
 */
int unreadable_note(struct unreadable_list *u, const char *path, double now, double wait,
		    double *delay);

/* Whether the log's waiting is over: the next try is its last. */
int unreadable_last(const struct unreadable *e, double now, double wait);

void unreadable_forget(struct unreadable_list *u, const char *path);

/* Pushes the logs due at now into d; the time of the next one due later (0: none). */
double unreadable_due(struct unreadable_list *u, double now, struct discover *d);

void unreadable_free(struct unreadable_list *u);

#endif
