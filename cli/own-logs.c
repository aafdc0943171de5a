/*
 * own-logs — the logs of the user who runs it, from the log tree's day
 * folders, which users may not list (mode 3773: a user's log names are no
 * one else's business).  `ioatlas jobs` runs it when the warehouse is out
 * of reach.  Installed set-group-ID to the log tree's group (the
 * collector's), it lists those folders, and prints only the names of
 * regular files whose owner is the real user: nothing the user does not
 * own, so any folder it is pointed at shows them nothing new.
 *
 *	own-logs DAYS LOGDIR
 *
 * prints LOGDIR/YYYY/MM/DD/NAME, each followed by a NUL byte (a name may
 * hold a newline), for the last DAYS days (1 to 3660), newest day first.
 * Exit status 0, 1 when the tree's root or a day folder could not be read
 * (a missing day is no error), 2 for bad arguments.
 *
 * Day folders are named by the UTC date, as the runtime names them.
 * Set-group-ID, it trusts nothing of its caller's but the two arguments:
 * it reads no environment, follows no symbolic link (each folder is opened
 * with O_NOFOLLOW below the one before), opens no file, and stats names
 * without following them.  libc only.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_DAYS 3660

static int open_below(int dirfd, const char *name)
{
	return openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* Prints the user's regular files of the day folder; 0, or -errno when it could not be read. */
static int list_day(int rootfd, const char *root, const struct tm *tm, uid_t uid)
{
	char part[3][16];
	int fd = rootfd, next, i, rc = 0;
	DIR *dir;
	struct dirent *e;

	snprintf(part[0], sizeof(part[0]), "%04d", tm->tm_year + 1900);
	snprintf(part[1], sizeof(part[1]), "%02d", tm->tm_mon + 1);
	snprintf(part[2], sizeof(part[2]), "%02d", tm->tm_mday);
	for (i = 0; i < 3; i++) {
		next = open_below(fd, part[i]);
		if (fd != rootfd)
			close(fd);
		if (next < 0)
			return errno == ENOENT ? 0 : -errno;
		fd = next;
	}
	dir = fdopendir(fd);
	if (!dir) {
		rc = -errno;
		close(fd);
		return rc;
	}
	while ((errno = 0, e = readdir(dir))) {
		struct stat st;

		if (e->d_name[0] == '.' ||
		    fstatat(dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode) || st.st_uid != uid)
			continue;
		printf("%s/%s/%s/%s/%s%c", root, part[0], part[1], part[2], e->d_name, '\0');
	}
	rc = errno ? -errno : 0;
	closedir(dir);
	return rc;
}

int main(int argc, char **argv)
{
	char *end;
	long days;
	int rootfd, status = 0;
	time_t now = time(NULL);
	uid_t uid = getuid();

	if (argc != 3 || (days = strtol(argv[1], &end, 10), *end || end == argv[1]) || days < 1 ||
	    days > MAX_DAYS || argv[2][0] != '/') {
		fputs("usage: own-logs DAYS LOGDIR (DAYS 1 to 3660, LOGDIR absolute)\n", stderr);
		return 2;
	}
	rootfd = open(argv[2], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (rootfd < 0) {
		fprintf(stderr, "own-logs: cannot open the log tree '%s': %s\n", argv[2],
			strerror(errno));
		return 1;
	}
	for (; days > 0; days--, now -= 86400) {
		struct tm tm;
		int rc;

		if (!gmtime_r(&now, &tm))
			break;
		rc = list_day(rootfd, argv[2], &tm, uid);
		if (rc) {
			fprintf(stderr, "own-logs: cannot read the day folder %04d/%02d/%02d: %s\n",
				tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, strerror(-rc));
			status = 1;
		}
	}
	close(rootfd);
	return fflush(stdout) || ferror(stdout) ? 1 : status;
}
