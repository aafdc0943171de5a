/*
 * ioa_file — files the tools write whole or not at all (reports, pages,
 * kernels, repository files): written to a temporary file beside the
 * target, renamed over it once complete, so a reader never sees half a
 * file and a full disk leaves nothing behind; and the folders they write
 * in (the dashboard's).
 *
 *	rc = ioa_file_write(path, 0600, (uid_t)-1, (gid_t)-1, write_page, model);
 *
 * The tools may run as root over paths other users can write in (/tmp, a
 * web root, users' folders), so the paths are walked one name at a time:
 * a symbolic link is followed only when the running user or root owns it
 * (IOA_EFOREIGNLINK otherwise, whether the link is the target or a folder
 * on its way), and only a regular file is ever replaced (IOA_ENOTREG: a
 * report aimed at /dev/null must not replace the device).  The codes are
 * described by ioa_strerror().
 */
#ifndef IOA_FILE_H
#define IOA_FILE_H

#include <stdio.h>
#include <sys/types.h>

#include "ioa_log.h"

/*
 * fn writes the content to out and returns 0 or -errno; the temporary file
 * has this mode (and this owner, unless uid and gid are -1) before anything
 * is written.  0, -errno, IOA_ENOTREG (the target is there and is not a
 * regular file) or IOA_EFOREIGNLINK.  Not thread-safe against other
 * writers of the same path (the last rename wins).
 */
int ioa_file_write(const char *path, mode_t mode, uid_t uid, gid_t gid,
		   int (*fn)(FILE *out, void *arg), void *arg);

/* ioa_file_dir: give the folder its owner and mode (see below). */
#define IOA_FILE_DIR_SET 1

/*
 * Makes the folder at path with mode when it is missing (the last name
 * only), or checks the one that is there.  Without IOA_FILE_DIR_SET the
 * folder must belong to the running user or root and be writable by
 * neither its group nor others unless sticky: a service's output folder
 * (IOA_EFOREIGN, IOA_EOPENDIR).  With it, the folder may also belong to
 * uid, and is given uid and gid (unless -1) and mode through its
 * descriptor: a user's folder that the user owns.  0, -errno (-ENOTDIR
 * when something else is there), IOA_EFOREIGNLINK, IOA_EFOREIGN or
 * IOA_EOPENDIR; *owner (when not NULL) is the owner found.
 */
int ioa_file_dir(const char *path, mode_t mode, uid_t uid, gid_t gid, int flags, uid_t *owner);

/*
 * The folder of the running program (/proc/self/exe), where the programs
 * find each other: bin/ beside libexec/ioatlas/, installed or in the build
 * tree.  0, or -errno (-ENAMETOOLONG when dir is too small).
 */
int ioa_file_exe_dir(char *dir, size_t len);

#endif
