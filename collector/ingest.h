/*
 * ingest — moves one log into the warehouse, exactly once.
 *
 * One transaction per log: an advisory lock on the log's path (a second
 * collector skips a log the first is busy with), the ledger checked for the
 * path (done already) and the content hash (the same log under another
 * name: recorded as a duplicate), then the job and everything the log holds
 * streamed in with COPY, and the ledger row last.  The log is read through
 * the common reader region by region, so memory stays bounded whatever its
 * size.  A log that fails validation (unreadable, corrupt, truncated, its
 * file owner not the uid it records) is rolled back and recorded as
 * quarantined with the reason, then moved to the quarantine folder.  A
 * database problem (connection lost, server out of space, a statement of
 * ours refused) leaves the log untouched for a later try.
 *
 * The log's file names go in on a second connection, in a transaction of
 * their own that runs while the first loads the records (both cores
 * work), and that commits before the log's does: file_names is a
 * dictionary, so names a failed log left there only wait for its next try
 * or another job.
 */
#ifndef INGEST_H
#define INGEST_H

#include <libpq-fe.h>
#include <stdint.h>
#include <sys/types.h>

#include "ioa_buf.h"

enum ingest_result {
	INGEST_DONE,	    /* the job is in the warehouse */
	INGEST_DUPLICATE,   /* the same content is in already: recorded as such */
	INGEST_QUARANTINED, /* invalid: recorded, moved aside */
	INGEST_KNOWN,	    /* the ledger has this path already */
	INGEST_BUSY,	    /* another collector has it now */
	INGEST_GONE,	    /* the file vanished before it was read */
	INGEST_RETRY,	    /* the database failed: try again later */
	INGEST_UNREADABLE,  /* cannot be opened or read now (permissions not set yet): later */
};

struct ingest_settings {
	const char *quarantine; /* folder for invalid logs */
	int quarantine_fd;	/* that folder, checked (ingest_quarantine_open); -1: not yet */
	const char *logdir;	/* the log tree (its owner may own the quarantine folder) */
	uid_t trusted_uid;	/* may own any log ((uid_t)-1: nobody) */
	/*
	 * ioatlasd's own account, when not root: may own the logs it recovered
	 * for other users (job key "partial"), whose uid recover took from the
	 * spills' owner ((uid_t)-1: nobody; root recovers as each owner).
	 */
	uid_t recover_uid;
	uint64_t region_cap; /* largest region read into memory */
};

struct ingest_stats {
	int64_t job;	  /* jobs.id when done */
	uint64_t records; /* module records loaded */
	uint64_t bytes;	  /* the log's size */
	double seconds;	  /* wall time of the whole log */
	char reason[512]; /* why it was quarantined, or what failed (RETRY) */
};

/* Seconds on a monotonic clock (stats->seconds, and the callers' own timing). */
double ingest_now(void);

/* The collector's connections to the warehouse: the log's, and its names'. */
struct ingest_db {
	PGconn *conn;
	PGconn *names;
};

/*
 * Connects (conninfo as ioa_db_connect() takes it; app names the
 * connections) and prepares the connections: their staging tables, and
 * the collector's counter layout in counter_names.  0, or a database error
 * with err set; -EPERM when the role may not load the warehouse (COPY
 * cannot load tables under row-level security, so the collector's login
 * role needs BYPASSRLS; its privileges still allow only adding), with the
 * fix in err: waiting does not mend that.
 */
int ingest_connect(struct ingest_db *db, const char *conninfo, const char *app,
		   struct ioa_buf *err);

/*
 * Opens the quarantine folder dir, making it (mode 0750) if missing, and
 * checks that a user cannot have taken it over: a folder, not a symbolic
 * link (O_NOFOLLOW), owned by the collector's account, root or the owner
 * of the log tree logdir (the service account), and writable by neither
 * its group nor others.  Logs are moved into the folder through the
 * descriptor, so a name made to point elsewhere later changes nothing.
 * The descriptor (close-on-exec, the caller's to close), or a negative
 * errno with what is wrong and what to do in err (-ENOENT: dir's parent
 * is missing, as when the log tree is not made yet).
 */
int ingest_quarantine_open(const char *dir, const char *logdir, struct ioa_buf *err);

/* Whether both connections are up (a lost one: disconnect, connect again). */
int ingest_connected(const struct ingest_db *db);

void ingest_disconnect(struct ingest_db *db);

/*
 * Ingests the log at path (a complete *.ioa) through db, connected and
 * with no transaction open.
 */
enum ingest_result ingest_log(struct ingest_db *db, const struct ingest_settings *set,
			      const char *path, struct ingest_stats *stats);

/*
 * The last try of a log that was UNREADABLE (tries times since
 * `waited` seconds): ingested as ingest_log() would if it can be read now,
 * else quarantined, the reason saying how often it was tried.
 */
enum ingest_result ingest_log_last_try(struct ingest_db *db, const struct ingest_settings *set,
				       const char *path, unsigned tries, double waited,
				       struct ingest_stats *stats);

#endif
