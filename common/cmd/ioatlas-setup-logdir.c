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
 * it changes nothing the second time.
 */
#define _GNU_SOURCE
#include <errno.h>
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

#ifndef IOATLAS_LOGDIR
#define IOATLAS_LOGDIR "/var/log/ioatlas"
#endif

#define TREE_MODE 03773

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ioatlas setup-logdir [--days N] [--group GROUP] [--owner USER] [--logdir "
		"DIR]\n"
		"\n"
		"Makes the log tree's date folders for today and the next days (N in all,\n"
		"default 7; UTC dates, LOGDIR/YYYY/MM/DD) owned by USER (default: who runs it),\n"
		"in GROUP (the collector's; default: the log_group setting), mode 3773: jobs\n"
		"write their logs, only the owner and the group list them, new logs take the\n"
		"folder's group.  Existing folders are set right; the root is made if\n"
		"missing.  Meant for a daily cron entry.\n"
		"\n"
		"Settings (ioatlas.conf(5)): logdir, log_group.\n");
}

struct tree {
	uid_t uid;
	gid_t gid;
	int changed, made;
};

/* A folder of the tree: made if missing, then given its owner, group and mode. */
static int folder(struct tree *t, const char *path)
{
	struct stat st;
	int made = 0, fix = 0;

	if (mkdir(path, 0700) == 0)
		made = 1;
	else if (errno != EEXIST) {
		ioa_error("cannot make '%s': %s", path, strerror(errno));
		return -1;
	}
	if (lstat(path, &st)) {
		ioa_error("cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		ioa_error("'%s' is in the way: not a folder", path);
		return -1;
	}
	/* Made here: ours, as mkdir left it (set-group-ID comes from a parent). */
	made = st.st_uid == getuid() && (st.st_mode & 05777) == 0700 && made;
	if (st.st_uid != t->uid || st.st_gid != t->gid) {
		if (lchown(path, t->uid, t->gid)) {
			ioa_error("cannot give '%s' its owner and group: %s", path,
				  strerror(errno));
			return -1;
		}
		fix = 1;
	}
	/* chown clears the sticky and set-id bits on some systems: the mode comes last. */
	if (fix || (st.st_mode & 07777) != TREE_MODE) {
		if (chmod(path, TREE_MODE)) {
			ioa_error("cannot set the mode of '%s': %s", path, strerror(errno));
			return -1;
		}
		fix = 1;
	}
	t->made += made;
	t->changed += fix && !made;
	return 0;
}

int main(int argc, char **argv)
{
	static char *logdir, *log_group;
	static const struct ioa_setting settings[] = {
		{"logdir", IOA_SET_TEXT, &logdir, IOATLAS_LOGDIR, "root of the log tree"},
		{"log_group", IOA_SET_TEXT, &log_group, "", "the group of the logs and the tree"},
	};
	const size_t nsettings = sizeof(settings) / sizeof(settings[0]);
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	struct tree t = {.uid = getuid()};
	const char *group = NULL, *owner = NULL, *root;
	char path[PATH_MAX], *end;
	long days = 7, d;
	time_t now = time(NULL);
	int a, status = 2;

	ioa_log_set_progname("ioatlas setup-logdir");
	if (ioa_conf_load(settings, nsettings, &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		ioa_buf_release(&err);
		return 1;
	}
	root = logdir;
	for (a = 1; a < argc; a++) {
		const char *v = a + 1 < argc ? argv[a + 1] : NULL;

		if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			usage(stdout);
			status = 0;
			goto out;
		} else if (!strcmp(argv[a], "--days") && v) {
			errno = 0;
			days = strtol(v, &end, 10);
			if (errno || *end || days < 1 || days > 3660) {
				ioa_error("--days: '%s' is not a number of days from 1 to 3660", v);
				goto out;
			}
		} else if (!strcmp(argv[a], "--group") && v) {
			group = v;
		} else if (!strcmp(argv[a], "--owner") && v) {
			owner = v;
		} else if (!strcmp(argv[a], "--logdir") && v) {
			root = v;
		} else {
			usage(stderr);
			goto out;
		}
		a++;
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
	status = 1;
	if (folder(&t, root))
		goto out;
	for (d = 0; d < days; d++) {
		time_t day = now + (time_t)d * 86400;
		struct tm tm;
		int n;

		gmtime_r(&day, &tm);
		n = snprintf(path, sizeof(path), "%s/%04d", root, tm.tm_year + 1900);
		if (n < 0 || (size_t)n >= sizeof(path) || folder(&t, path))
			goto out;
		snprintf(path + n, sizeof(path) - (size_t)n, "/%02d", tm.tm_mon + 1);
		if (folder(&t, path))
			goto out;
		n = (int)strlen(path);
		snprintf(path + n, sizeof(path) - (size_t)n, "/%02d", tm.tm_mday);
		if (folder(&t, path))
			goto out;
	}
	printf("ioatlas setup-logdir: %s: %ld days ready, %d folders made, %d set right\n", root,
	       days, t.made, t.changed);
	status = 0;
out:
	ioa_conf_free(settings, nsettings);
	ioa_buf_release(&err);
	return status;
}
