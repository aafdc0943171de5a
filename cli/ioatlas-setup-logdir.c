/*
 * ioatlas setup-logdir — makes the log tree's date folders ahead of the
 * jobs (LOGDIR/YYYY/MM/DD, UTC dates as the runtime names them), meant for
 * a daily cron entry: owned by the site's account, in the collector's
 * group, mode 3773: every user's job may create its log there (write and
 * search), the sticky bit keeps users from removing each other's logs,
 * only the owner and the group may list the folder, so that users do not
 * see each other's log names (they carry user and program names), and the
 * set-group-ID bit gives every new log (and folder) the folder's group, so
 * that the collector reads the logs of users who are not in its group
 * (the runtime cannot give a file a group its user is not in).
 * Folders that exist are brought to that owner, group and mode; run twice,
 * it changes nothing the second time.  It runs as root over folders every
 * user may write in, so it works on descriptors opened without following
 * symbolic links: a link, a file, or a folder another user made in a
 * folder's place is reported and left as it is (a job's folder, set as the
 * runtime makes it, is taken over), the other days are still made, and the
 * exit status says that something needs a look.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ioa_conf.h"
#include "ioa_log.h"
#include "ioa_opts.h"

#ifndef IOATLAS_LOGDIR
#define IOATLAS_LOGDIR "/var/log/ioatlas"
#endif

#define TREE_MODE 03773

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ioatlas setup-logdir [-d N] [-g GROUP] [-o USER] [-l DIR]\n"
		"\n"
		"  -d, --days N        today and the next days, N in all (default 7)\n"
		"  -g, --group GROUP   the tree's group (default: the log_group setting)\n"
		"  -o, --owner USER    the folders' owner (default: who runs it)\n"
		"  -l, --logdir DIR    the tree's root (default: the logdir setting)\n"
		"  -h, --help          this help\n"
		"\n"
		"Makes the log tree's date folders for today and the next days (N in all,\n"
		"default 7; UTC dates, LOGDIR/YYYY/MM/DD) owned by USER (default: who runs it),\n"
		"in GROUP (the collector's; default: the log_group setting), mode 3773: jobs\n"
		"write their logs, only the owner and the group list them, new logs take the\n"
		"folder's group.  Existing folders are set right; the root is made if\n"
		"missing.  Meant for a daily cron entry.  Symbolic links, files and other\n"
		"users' folders in a folder's place are reported and left alone (a job's\n"
		"folder with the tree's group and mode is taken over); the other days are\n"
		"still made and the exit status is 1.\n"
		"\n"
		"Settings (ioatlas.conf(5)): logdir, log_group.\n");
}

struct tree {
	uid_t uid;
	gid_t gid;
	int changed, made, taken, skipped;
};

/* Says why NAME in PARENT cannot be opened as a folder (path: its full name). */
static void report_unopened(int parent, const char *name, const char *path, int err)
{
	struct stat st;

	if (!fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
		ioa_error("'%s' is a symbolic link (uid %u made it): left as it is, nothing done "
			  "through it; remove it, then run again",
			  path, (unsigned)st.st_uid);
	else if (err == ENOTDIR || err == ELOOP)
		ioa_error("'%s' is in the way: not a folder; remove it, then run again", path);
	else
		ioa_error("cannot open '%s': %s", path, strerror(err));
}

/*
 * A folder of the tree, NAME in the folder PARENT (path: its full name, for
 * messages): made if missing, then given its owner, group and mode through
 * a descriptor opened without following a symbolic link (unless follow:
 * the tree's root, which the site names), so that nothing a user planted
 * can turn a chown or chmod onto another file.  A folder made by another
 * user is taken over when it is set as a job makes it (the runtime's day
 * folders: the tree's group through set-group-ID, mode 3773), else it is
 * reported and left as it is.  Returns the open folder, or -1 when it was
 * reported and skipped: the caller goes on with the other days.
 */
static int folder(struct tree *t, int parent, const char *name, const char *path, int follow)
{
	struct stat st;
	int made = 0, fix = 0, taken = 0, fd;

	if (mkdirat(parent, name, 0700) == 0)
		made = 1;
	else if (errno != EEXIST) {
		ioa_error("cannot make '%s': %s", path, strerror(errno));
		goto skip;
	}
	fd = openat(parent, name,
		    O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
	if (fd < 0) {
		report_unopened(parent, name, path, errno);
		goto skip;
	}
	if (fstat(fd, &st)) {
		ioa_error("cannot read '%s': %s", path, strerror(errno));
		goto close_skip;
	}
	/* Made here: ours, as mkdir left it (set-group-ID comes from a parent). */
	made = made && st.st_uid == geteuid() && (st.st_mode & 05777) == 0700;
	if (st.st_uid != t->uid && st.st_uid != geteuid() && st.st_uid != 0) {
		if (st.st_gid != t->gid || (st.st_mode & 07777) != TREE_MODE) {
			ioa_error("'%s' was made by uid %u, not as a job makes it (mode %04o, gid "
				  "%u): left as it is; look at it, move it away, then run again",
				  path, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777),
				  (unsigned)st.st_gid);
			goto close_skip;
		}
		taken = 1;
	}
	if (st.st_uid != t->uid || st.st_gid != t->gid) {
		if (fchown(fd, t->uid, t->gid)) {
			ioa_error("cannot give '%s' its owner and group: %s", path,
				  strerror(errno));
			goto close_skip;
		}
		fix = 1;
	}
	/* chown clears the sticky and set-id bits on some systems: the mode comes last. */
	if (fix || (st.st_mode & 07777) != TREE_MODE) {
		if (fchmod(fd, TREE_MODE)) {
			ioa_error("cannot set the mode of '%s': %s", path, strerror(errno));
			goto close_skip;
		}
		fix = 1;
	}
	t->made += made;
	t->taken += taken;
	t->changed += fix && !made && !taken;
	return fd;
close_skip:
	close(fd);
skip:
	t->skipped++;
	return -1;
}

/* Closes *fd when open and marks it closed. */
static void close_folder(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

int main(int argc, char **argv)
{
	static char *logdir, *log_group;
	static const struct ioa_setting settings[] = {
		{"logdir", IOA_SET_TEXT, &logdir, IOATLAS_LOGDIR, "root of the log tree"},
		{"log_group", IOA_SET_TEXT, &log_group, "", "the group of the logs and the tree"},
	};
	const size_t nsettings = sizeof(settings) / sizeof(settings[0]);
	static const struct option longs[] = {
		{"days", required_argument, NULL, 'd'},	 {"group", required_argument, NULL, 'g'},
		{"owner", required_argument, NULL, 'o'}, {"logdir", required_argument, NULL, 'l'},
		{"help", no_argument, NULL, 'h'},	 {NULL, 0, NULL, 0},
	};
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	struct tree t = {.uid = getuid()};
	const char *group = NULL, *owner = NULL, *root;
	char path[PATH_MAX], *end;
	long days = 7, d, ready = 0;
	int root_fd = -1, year_fd = -1, month_fd = -1, year = -1, month = -1;
	time_t now = time(NULL);
	int c, status = IOA_EXIT_USAGE;

	ioa_log_set_progname("ioatlas setup-logdir");
	if (ioa_conf_load(settings, nsettings, &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		ioa_buf_release(&err);
		return 1;
	}
	root = logdir;
	while ((c = ioa_getopt(argc, argv, "d:g:o:l:h", longs)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			status = IOA_EXIT_OK;
			goto out;
		case 'd':
			errno = 0;
			days = strtol(optarg, &end, 10);
			if (errno || *end || days < 1 || days > 3660) {
				ioa_error("--days: '%s' is not a number of days from 1 to 3660",
					  optarg);
				goto out;
			}
			break;
		case 'g':
			group = optarg;
			break;
		case 'o':
			owner = optarg;
			break;
		case 'l':
			root = optarg;
			break;
		default:
			usage(stderr);
			goto out;
		}
	}
	if (optind != argc) {
		ioa_error("no operand expected: '%s'", argv[optind]);
		usage(stderr);
		goto out;
	}
	if (!group)
		group = log_group;
	if (!*group) {
		ioa_error("no group for the tree: --group or the log_group setting (the "
			  "collector's)");
		goto out;
	}
	if (!*root || root[0] != '/') {
		ioa_error("the log tree must be an absolute path, not '%s'", root);
		goto out;
	}
	{
		struct group *g = getgrnam(group);
		struct passwd *p = owner ? getpwnam(owner) : NULL;

		if (!g) {
			ioa_error("no group '%s'", group);
			goto out;
		}
		if (owner && !p) {
			ioa_error("no user '%s'", owner);
			goto out;
		}
		t.gid = g->gr_gid;
		if (p)
			t.uid = p->pw_uid;
	}
	status = IOA_EXIT_FAIL;
	if (strlen(root) > sizeof(path) - 16) {
		ioa_error("the log tree's name is too long: '%s'", root);
		goto out;
	}
	root_fd = folder(&t, AT_FDCWD, root, root, 1);
	if (root_fd < 0)
		goto out;
	/* The year and month folders stay open while their days are made. */
	for (d = 0; d < days; d++) {
		time_t day = now + (time_t)d * 86400;
		struct tm tm;
		char name[16];
		int day_fd;

		gmtime_r(&day, &tm);
		if (tm.tm_year != year) {
			year = tm.tm_year;
			month = -1;
			close_folder(&month_fd);
			close_folder(&year_fd);
			snprintf(name, sizeof(name), "%04d", tm.tm_year + 1900);
			snprintf(path, sizeof(path), "%s/%s", root, name);
			year_fd = folder(&t, root_fd, name, path, 0);
		}
		if (tm.tm_mon != month) {
			month = tm.tm_mon;
			close_folder(&month_fd);
			snprintf(name, sizeof(name), "%02d", tm.tm_mon + 1);
			snprintf(path, sizeof(path), "%s/%04d/%s", root, tm.tm_year + 1900, name);
			if (year_fd >= 0)
				month_fd = folder(&t, year_fd, name, path, 0);
		}
		if (month_fd < 0)
			continue;
		snprintf(name, sizeof(name), "%02d", tm.tm_mday);
		snprintf(path, sizeof(path), "%s/%04d/%02d/%s", root, tm.tm_year + 1900,
			 tm.tm_mon + 1, name);
		day_fd = folder(&t, month_fd, name, path, 0);
		ready += day_fd >= 0;
		close_folder(&day_fd);
	}
	printf("ioatlas setup-logdir: %s: %ld days ready, %d folders made, %d set right", root,
	       ready, t.made, t.changed);
	if (t.taken)
		printf(", %d taken over from jobs", t.taken);
	if (t.skipped)
		printf(", %d left as they are", t.skipped);
	printf("\n");
	/* Something a user made is in the way: say so to cron, having made the rest. */
	status = t.skipped ? IOA_EXIT_FAIL : IOA_EXIT_OK;
out:
	close_folder(&month_fd);
	close_folder(&year_fd);
	close_folder(&root_fd);
	ioa_conf_free(settings, nsettings);
	ioa_buf_release(&err);
	return status;
}
