/*
 * ioa_file — files written whole or not at all (see ioa_file.h).
 */
#define _GNU_SOURCE
#include "ioa_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int ioa_file_write(const char *path, mode_t mode, uid_t uid, gid_t gid,
		   int (*fn)(FILE *out, void *arg), void *arg)
{
	char tmp[PATH_MAX];
	FILE *f;
	int fd, rc;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = fchmod(fd, mode) ? -errno : 0;
	if (!rc && (uid != (uid_t)-1 || gid != (gid_t)-1) && fchown(fd, uid, gid))
		rc = -errno;
	f = rc ? NULL : fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return rc ? rc : -ENOMEM;
	}
	rc = fn(f, arg);
	if (fclose(f) && !rc)
		rc = -EIO;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}
