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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "collector.h"
#include "ingest.h"
#include "ioa_conf.h"
#include "ioa_db.h"
#include "ioa_file.h"
#include "ioa_log.h"
#include "ioa_opts.h"

#ifndef IOATLAS_LOGDIR
#define IOATLAS_LOGDIR "/var/log/ioatlas"
#endif

struct collector {
	struct collector_settings set;
	struct ingest_db db;
	int once, stop, inotify, sigfd;
	int db_down; /* the last try to reach the warehouse failed */
	int fatal;   /* stopped by an error no retry mends */
	struct discover found;
	struct unreadable_list late; /* logs that could not be read yet, tried again */
	/* the summary */
	uint64_t done, duplicates, quarantined;
	uint64_t period_done;
	double period_start, next_rescan, next_summary, backoff, retry_since;
	pid_t recover_pid; /* the recovery running beside the ingest, 0 none */
	double recover_deadline;
	int recovered; /* --once: its one recovery ran */
};

/*
 * The logs this daemon's recoveries wrote for other users are its own
 * files: trusted as such, when it is not root (root recovers as each
 * owner).  The `ioatlas ingest` a user runs trusts no such thing.
 */
static void trust_own_recoveries(struct collector *c)
{
	c->set.ingest.recover_uid = geteuid() ? geteuid() : (uid_t)-1;
}

/* ------------------------------------------------------------ the database */

static int connect_db(struct collector *c)
{
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);

	int rc;

	if (ingest_connected(&c->db)) {
		ioa_buf_release(&err);
		return 0;
	}
	rc = ingest_connect(&c->db, c->set.db.conninfo, "ioatlasd", &err);
	if (rc == -EPERM) {
		/* Not something waiting mends: the collector stops and says what to do. */
		ioa_error("%s", ioa_buf_str(&err));
		c->stop = c->fatal = 1;
		ioa_buf_release(&err);
		return rc;
	}
	/* Said once when the warehouse goes away and once when it is back, not at every try. */
	if (rc && !c->db_down)
		ioa_warning("%s (trying again, with backoff)", ioa_buf_str(&err));
	else if (rc)
		ioa_debug("%s", ioa_buf_str(&err));
	else if (c->db_down)
		ioa_warning("the warehouse is reachable again");
	c->db_down = rc != 0;
	ioa_buf_release(&err);
	return rc ? -ECONNREFUSED : 0;
}

/* ------------------------------------------------------------ the loop */

static void summary(struct collector *c)
{
	double now = ingest_now(), span = now - c->period_start;

	ioa_info("summary: %" PRIu64 " logs in %.0f s (%.1f logs/s), backlog %zu, ingested %" PRIu64
		 ", duplicates %" PRIu64 ", quarantined %" PRIu64,
		 c->period_done, span, span > 0 ? (double)c->period_done / span : 0, c->found.n,
		 c->done, c->duplicates, c->quarantined);
	c->period_done = 0;
	c->period_start = now;
}

/* Ingests the first queued log; 0, or -EAGAIN when the database failed. */
static int ingest_next(struct collector *c)
{
	struct ingest_stats st;
	const char *path = discover_first(&c->found);
	struct unreadable *late = unreadable_find(&c->late, path);
	double now = ingest_now(), delay;
	enum ingest_result r;
	int rc;

	/* Refused before and not due yet: it comes back when it is (unreadable_due()). */
	if (late && now < late->next) {
		discover_drop_first(&c->found);
		return 0;
	}
	if (connect_db(c))
		return -EAGAIN;
	if (late && unreadable_last(late, now, c->set.unreadable_wait))
		r = ingest_log_last_try(&c->db, &c->set.ingest, path, late->tries,
					now - late->first, &st);
	else
		r = ingest_log(&c->db, &c->set.ingest, path, &st);
	if (r != INGEST_UNREADABLE && r != INGEST_RETRY && late)
		unreadable_forget(&c->late, path);
	switch (r) {
	case INGEST_UNREADABLE:
		rc = unreadable_note(&c->late, path, now, c->set.unreadable_wait, &delay);
		if (rc)
			c->found.unqueued++;
		if (rc)
			ioa_warning("'%s' not readable now (%s): left for a later scan (%s)", path,
				    st.reason,
				    rc == -ENOSPC ? "too many unreadable logs to keep track of"
						  : "out of memory");
		else
			ioa_warning("'%s' not readable now (%s): trying again in %.0f s "
				    "(quarantined if still unreadable %.0f s after the first try)",
				    path, st.reason, delay, c->set.unreadable_wait);
		break;
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
		break;
	case INGEST_BUSY:
		ioa_debug("'%s' is being ingested by another collector", path);
		break;
	case INGEST_GONE:
		ioa_info("'%s' went away before it was read", path);
		break;
	case INGEST_RETRY:
		if (!ingest_connected(&c->db)) {
			ioa_warning(
				"the warehouse went away while ingesting '%s': %s (trying again, "
				"with backoff)",
				path, st.reason);
			ingest_disconnect(&c->db);
			c->db_down = 1;
		} else {
			ioa_warning("'%s' not ingested, will try again: %s", path, st.reason);
		}
		return -EAGAIN;
	}
	discover_drop_first(&c->found);
	return 0;
}

static void handle_signals(struct collector *c)
{
	struct signalfd_siginfo si;

	while (read(c->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGHUP) {
			struct collector_settings fresh = {0};
			struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);

			if (collector_settings_load(&fresh, &err)) {
				ioa_error("settings not reloaded: %s", ioa_buf_str(&err));
				collector_settings_free(&fresh);
			} else {
				struct collector_settings old = c->set;

				c->set = fresh;
				if (collector_settings_apply(&c->set, &err) ||
				    collector_quarantine_check(&c->set, &err)) {
					ioa_error("settings not reloaded: %s", ioa_buf_str(&err));
					c->set = old;
					collector_settings_apply(&c->set, &err);
					collector_settings_free(&fresh);
				} else {
					trust_own_recoveries(c);
					collector_settings_free(&old);
					ingest_disconnect(&c->db);
					c->found.logdir = c->set.logdir;
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
	struct pollfd fds[2] = {{c->sigfd, POLLIN, 0}, {c->found.inotify, POLLIN, 0}};
	int ms = seconds <= 0 ? 0 : seconds > 3600 ? 3600000 : (int)(seconds * 1000) + 1;

	if (poll(fds, c->found.inotify >= 0 ? 2 : 1, ms) <= 0)
		return;
	if (fds[0].revents & POLLIN)
		handle_signals(c);
	if (c->found.inotify >= 0 && (fds[1].revents & POLLIN))
		discover_read_events(&c->found);
}

#ifndef INGEST_VERB
/* How long one recovery may take before it is stopped (a spill is read in milliseconds). */
#define RECOVER_TIMEOUT_S 600

/* Reaps the recovery started last, if it ended; stops it past its time.  1 while it runs. */
static int recovery_running(struct collector *c, int wait)
{
	int status;
	pid_t got;

	if (c->recover_pid <= 0)
		return 0;
	while ((got = waitpid(c->recover_pid, &status, WNOHANG)) == 0 && wait &&
	       ingest_now() < c->recover_deadline)
		poll(NULL, 0, 50);
	if (got == 0) {
		if (ingest_now() < c->recover_deadline)
			return 1;
		kill(c->recover_pid, SIGKILL);
		waitpid(c->recover_pid, &status, 0);
		ioa_warning("ioatlas recover took more than %d s: stopped", RECOVER_TIMEOUT_S);
	} else if (got > 0 && (!WIFEXITED(status) || WEXITSTATUS(status))) {
		ioa_warning("ioatlas recover ended with status %d: see its lines above",
			    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	}
	c->recover_pid = 0;
	/* What it made is found at once (inotify may not see it on a network file system). */
	c->found.rescan_now = 1;
	return 0;
}

/*
 * Jobs whose processes are gone without a log (killed with no epilog, or
 * on a node that failed): `ioatlas recover` of the last rescan_days days,
 * for the job folders whose spills were untouched for recover_after
 * seconds (docs/recovery.md), run as this account, its lines in this
 * log.  It runs beside the ingest, one at a time, stopped past its time;
 * --once runs it once and waits for it, so that what it makes is ingested
 * in this run (the rescan that follows a recovery must not start another:
 * a log that stays, such as one whose move to the quarantine failed, would
 * make --once rescan and recover for ever).  The logs it makes are found
 * like any other.
 */
static void recover_dead_jobs(struct collector *c)
{
	char self[PATH_MAX], prog[PATH_MAX + 64], older[32], days[32];
	pid_t pid;

	if (!(c->set.recover_after > 0) || recovery_running(c, 0) || (c->once && c->recovered) ||
	    ioa_file_exe_dir(self, sizeof(self)))
		return;
	c->recovered = 1;
	snprintf(prog, sizeof(prog), "%s/../libexec/ioatlas/ioatlas-recover", self);
	snprintf(older, sizeof(older), "%.0f", c->set.recover_after);
	snprintf(days, sizeof(days), "%lld", c->once ? 36500LL : c->set.rescan_days);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		ioa_warning("cannot start ioatlas recover: %s", strerror(errno));
		return;
	}
	if (pid == 0) {
		sigset_t none;

		/* This daemon blocks the signals it reads from a signalfd: not its child. */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		/* Its report goes where this daemon's goes. */
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execl(prog, "ioatlas-recover", "--older-than", older, "--days", days, c->set.logdir,
		      (char *)NULL);
		_exit(127);
	}
	c->recover_pid = pid;
	c->recover_deadline = ingest_now() + RECOVER_TIMEOUT_S;
	if (c->once)
		recovery_running(c, 1);
}
#endif

static int run(struct collector *c)
{
	double now;

	c->period_start = ingest_now();
	c->next_summary = c->period_start + c->set.summary;
#ifndef INGEST_VERB
	recover_dead_jobs(c);
#endif
	discover_scan(&c->found, c->once ? 0 : c->set.rescan_days);
	c->next_rescan = c->once ? 1e300 : ingest_now() + c->set.rescan;
	if (!connect_db(c))
		discover_drop_known(&c->found, c->db.conn);
	/* The backlog, on a terminal (the nightly run by hand). */
	if (c->once)
		ioa_progress_begin("ingesting the backlog", c->found.n);
	while (!c->stop) {
		double next_late;

#ifndef INGEST_VERB
		recovery_running(c, 0);
#endif
		now = ingest_now();
		next_late = unreadable_due(&c->late, now, &c->found);
		if (c->found.rescan_now) {
			c->found.rescan_now = 0;
			c->next_rescan = now;
		}
		if (now >= c->next_rescan) {
#ifndef INGEST_VERB
			recover_dead_jobs(c);
#endif
			discover_scan(&c->found, c->set.rescan_days);
			if (c->db.conn)
				discover_drop_known(&c->found, c->db.conn);
			c->next_rescan = now + c->set.rescan;
		}
		if (now >= c->next_summary) {
			summary(c);
			c->next_summary = now + c->set.summary;
		}
		if (!c->found.n) {
			double until =
				c->next_rescan < c->next_summary ? c->next_rescan : c->next_summary;

			if (c->once && !c->late.n)
				break;
			if (next_late && next_late < until)
				until = next_late;
			wait_events(c, until - now);
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
					  now - c->retry_since, c->found.n);
				return 1;
			}
			c->backoff = c->backoff ? (c->backoff * 2 > 60 ? 60 : c->backoff * 2) : 0.5;
			wait_events(c, c->backoff);
			continue;
		}
		c->backoff = 0;
		c->retry_since = 0;
		if (c->once)
			ioa_progress_step(c->done + c->duplicates + c->quarantined);
		/* Signals are looked at between logs. */
		wait_events(c, 0);
	}
	ioa_progress_end();
	if (c->once || c->stop)
		summary(c);
	/* --once says it is done only when it saw the whole backlog. */
	if (c->once && c->found.unqueued) {
		ioa_error("%lu logs or folders could not be taken (see above): the next run takes "
			  "them",
			  c->found.unqueued);
		return 1;
	}
	return c->fatal ? 1 : 0;
}

static void usage(FILE *out)
{
	fprintf(out, "usage: ioatlasd [--once]\n"
		     "\n"
		     "Moves every complete log of the log tree into the warehouse, exactly once.\n"
		     "  --once      ingest the backlog (the whole tree) and exit: the nightly cron "
		     "mode\n"
		     "  -h, --help  this help\n"
		     "\n"
		     "Settings (ioatlas.conf(5)): logdir, warehouse.conninfo, collector.*.\n"
		     "Signals: TERM/INT stop after the current log, HUP reloads the settings.\n");
}

int main(int argc, char **argv)
{
	struct collector c = {.sigfd = -1, .found = {.inotify = -1}};
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	sigset_t mask;
	int opt, status = IOA_EXIT_FAIL;
	static const struct option longs[] = {
		{"once", no_argument, NULL, 'O'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};

	ioa_log_set_progname("ioatlasd");
	ioa_log_set_level(IOA_LOG_INFO);
	while ((opt = ioa_getopt(argc, argv, "h", longs)) != -1) {
		if (opt == 'O') {
			c.once = 1;
		} else if (opt == 'h') {
			usage(stdout);
			return IOA_EXIT_OK;
		} else {
			usage(stderr);
			return IOA_EXIT_USAGE;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return IOA_EXIT_USAGE;
	}
	if (collector_settings_load(&c.set, &err) || collector_settings_apply(&c.set, &err) ||
	    collector_quarantine_check(&c.set, &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		goto out;
	}
	trust_own_recoveries(&c);
	c.found.logdir = c.set.logdir;
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	c.sigfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (!c.once) {
		c.found.inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
		if (c.found.inotify < 0)
			ioa_warning("no inotify (%s): new logs are found by rescans only",
				    strerror(errno));
	}
	ioa_info("collecting '%s' into the warehouse%s", c.set.logdir, c.once ? " (once)" : "");
	status = run(&c);
out:
	ingest_disconnect(&c.db);
	discover_free(&c.found);
	unreadable_free(&c.late);
	if (c.sigfd >= 0)
		close(c.sigfd);
	collector_settings_free(&c.set);
	ioa_buf_release(&err);
	return status;
}
