/*
 * ioa_file — files written whole or not at all, and the folders they go
 * in (see ioa_file.h).  Paths are walked one name at a time from an open
 * folder (openat with O_NOFOLLOW), so that a symbolic link another user
 * planted, as the target or as a folder on its way, is never followed, and
 * the checks and the writes are made on the same folders.
 */
#define _GNU_SOURCE
#include "ioa_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Links followed in one path at most, as the kernel's own limit. */
#define IOA_FILE_LINKS_MAX 40

/* A link the running user or root owns is theirs to point anywhere. */
static int link_trusted(const struct stat *st)
{
	return st->st_uid == geteuid() || st->st_uid == 0;
}

/* Opens the folder a walk starts from: the root for an absolute path. */
static int start_folder(const char *path)
{
	int fd = open(path[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/*
 * Walks path to the folder that holds its last name: *folder is that
 * folder (O_PATH, the caller closes it) and name the last name, after the
 * links that the running user or root owns, the last one's included.  The
 * last name may be missing.  0, or a negative code (IOA_EFOREIGNLINK).
 */
static int walk(const char *path, int *folder, char *name, size_t name_len)
{
	char todo[PATH_MAX], target[PATH_MAX], spliced[PATH_MAX];
	size_t at = 0, len;
	int fd, links = 0, rc = 0;

	if (!path[0])
		return -ENOENT;
	if (snprintf(todo, sizeof(todo), "%s", path) >= (int)sizeof(todo))
		return -ENAMETOOLONG;
	/* "dir/" names dir. */
	for (len = strlen(todo); len > 1 && todo[len - 1] == '/'; len--)
		todo[len - 1] = '\0';
	fd = start_folder(todo);
	if (fd < 0)
		return fd;
	for (;;) {
		struct stat st;
		const char *next;
		size_t n;
		ssize_t got;
		int last, sub;

		while (todo[at] == '/')
			at++;
		if (!todo[at]) { /* the path was "/" */
			snprintf(name, name_len, ".");
			break;
		}
		n = strcspn(todo + at, "/");
		if (n >= name_len) {
			rc = -ENAMETOOLONG;
			break;
		}
		memcpy(name, todo + at, n);
		name[n] = '\0';
		next = todo + at + n;
		next += strspn(next, "/");
		last = !*next;
		if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW)) {
			rc = errno == ENOENT && last ? 0 : -errno;
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			if (!link_trusted(&st)) {
				rc = IOA_EFOREIGNLINK;
				break;
			}
			if (++links > IOA_FILE_LINKS_MAX) {
				rc = -ELOOP;
				break;
			}
			got = readlinkat(fd, name, target, sizeof(target));
			if (got < 0 || (size_t)got >= sizeof(target)) {
				rc = got < 0 ? -errno : -ENAMETOOLONG;
				break;
			}
			target[got] = '\0';
			if (snprintf(spliced, sizeof(spliced), "%s%s%s", target, *next ? "/" : "",
				     next) >= (int)sizeof(spliced)) {
				rc = -ENAMETOOLONG;
				break;
			}
			memcpy(todo, spliced, strlen(spliced) + 1);
			at = 0;
			if (todo[0] == '/') {
				close(fd);
				fd = start_folder(todo);
				if (fd < 0)
					return fd;
			}
			continue;
		}
		if (last)
			break;
		sub = openat(fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0) {
			rc = -errno;
			break;
		}
		close(fd);
		fd = sub;
		at = (size_t)(next - todo);
	}
	if (rc) {
		close(fd);
		return rc;
	}
	*folder = fd;
	return 0;
}

/* Opens a temporary file NAME.XXXXXX beside name in folder; fd or -errno. */
static int open_temporary(int folder, const char *name, char *tmp, size_t tmp_len)
{
	static const char letters[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	int tries, i, fd;

	for (tries = 0; tries < 100; tries++) {
		unsigned char random[6];
		char *x;

		if (getrandom(random, sizeof(random), GRND_NONBLOCK) != (ssize_t)sizeof(random)) {
			/* No entropy yet (early boot): the name only has to be new. */
			unsigned long seed = (unsigned long)time(NULL) ^
					     (unsigned long)getpid() * 2654435761u ^
					     (unsigned long)tries * 40503u;

			for (i = 0; i < 6; i++, seed >>= 5)
				random[i] = (unsigned char)seed;
		}
		if (snprintf(tmp, tmp_len, "%s.XXXXXX", name) >= (int)tmp_len)
			return -ENAMETOOLONG;
		x = tmp + strlen(tmp) - 6;
		for (i = 0; i < 6; i++)
			x[i] = letters[random[i] % (sizeof(letters) - 1)];
		fd = openat(folder, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
		if (fd >= 0 || errno != EEXIST)
			return fd < 0 ? -errno : fd;
	}
	return -EEXIST;
}

/* 0 when name in folder is missing or a regular file (*exists says which). */
static int replaceable(int folder, const char *name, int *exists)
{
	struct stat st;

	*exists = 0;
	if (fstatat(folder, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -errno;
	*exists = 1;
	if (S_ISLNK(st.st_mode))
		return IOA_EFOREIGNLINK; /* planted since the walk */
	return S_ISREG(st.st_mode) ? 0 : IOA_ENOTREG;
}

int ioa_file_write(const char *path, mode_t mode, uid_t uid, gid_t gid,
		   int (*fn)(FILE *out, void *arg), void *arg)
{
	char name[NAME_MAX + 1], tmp[NAME_MAX + 16];
	FILE *f = NULL;
	int folder, fd = -1, exists, renamed = 0, rc;

	rc = walk(path, &folder, name, sizeof(name));
	if (rc)
		return rc;
	rc = replaceable(folder, name, &exists);
	if (!rc) {
		fd = open_temporary(folder, name, tmp, sizeof(tmp));
		rc = fd < 0 ? fd : 0;
	}
	if (rc)
		goto out;
	rc = fchmod(fd, mode) ? -errno : 0;
	if (!rc && (uid != (uid_t)-1 || gid != (gid_t)-1) && fchown(fd, uid, gid))
		rc = -errno;
	f = rc ? NULL : fdopen(fd, "w");
	if (!f) {
		close(fd);
		rc = rc ? rc : -ENOMEM;
		goto drop_tmp;
	}
	rc = fn(f, arg);
	if (fclose(f) && !rc)
		rc = -EIO;
	if (rc)
		goto drop_tmp;
	/*
	 * A new name must still be free (nothing planted meanwhile); an old
	 * regular file is replaced, never written through.
	 */
	if (!exists) {
		if (!renameat2(folder, tmp, folder, name, RENAME_NOREPLACE))
			renamed = 1;
		else if (errno == EEXIST)
			rc = replaceable(folder, name, &exists);
		else if (errno != EINVAL) /* EINVAL: no RENAME_NOREPLACE on this file system */
			rc = -errno;
	}
	if (!rc && !renamed && renameat(folder, tmp, folder, name))
		rc = -errno;
	if (!rc)
		goto out;
drop_tmp:
	unlinkat(folder, tmp, 0);
out:
	close(folder);
	return rc;
}

int ioa_file_dir(const char *path, mode_t mode, uid_t uid, gid_t gid, int flags, uid_t *owner)
{
	char name[NAME_MAX + 1];
	struct stat st;
	int folder, fd, rc;

	rc = walk(path, &folder, name, sizeof(name));
	if (rc)
		return rc;
	if (mkdirat(folder, name, mode) && errno != EEXIST)
		rc = -errno;
	fd = rc ? -1 : openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (!rc && fd < 0) {
		rc = -errno;
		if (!fstatat(folder, name, &st, AT_SYMLINK_NOFOLLOW))
			rc = S_ISLNK(st.st_mode)   ? IOA_EFOREIGNLINK
			     : S_ISDIR(st.st_mode) ? rc
						   : -ENOTDIR;
	}
	close(folder);
	if (rc)
		return rc;
	if (fstat(fd, &st)) {
		rc = -errno;
		goto out;
	}
	if (owner)
		*owner = st.st_uid;
	if (st.st_uid != geteuid() && st.st_uid != 0 &&
	    !((flags & IOA_FILE_DIR_SET) && uid != (uid_t)-1 && st.st_uid == uid)) {
		rc = IOA_EFOREIGN;
		goto out;
	}
	if (!(flags & IOA_FILE_DIR_SET)) {
		if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
			rc = IOA_EOPENDIR;
		goto out;
	}
	if ((uid != (uid_t)-1 || gid != (gid_t)-1) && fchown(fd, uid, gid))
		rc = -errno;
	else if (fchmod(fd, mode))
		rc = -errno;
out:
	close(fd);
	return rc;
}

int ioa_file_exe_dir(char *dir, size_t len)
{
	ssize_t n = len > 1 ? readlink("/proc/self/exe", dir, len - 1) : -1;
	char *slash;

	if (n < 0)
		return len > 1 ? -errno : -ENAMETOOLONG;
	if ((size_t)n >= len - 1)
		return -ENAMETOOLONG;
	dir[n] = '\0';
	if (!(slash = strrchr(dir, '/')))
		return -ENOENT;
	*slash = '\0';
	return 0;
}
