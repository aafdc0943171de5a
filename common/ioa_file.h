/*
 * ioa_file — files the tools write whole or not at all (reports, pages,
 * kernels, repository files): written to a temporary file beside the
 * target, renamed over it once complete, so a reader never sees half a
 * file and a full disk leaves nothing behind.
 *
 *	rc = ioa_file_write(path, 0600, (uid_t)-1, (gid_t)-1, write_page, model);
 */
#ifndef IOA_FILE_H
#define IOA_FILE_H

#include <stdio.h>
#include <sys/types.h>

/*
 * fn writes the content to out and returns 0 or -errno; the temporary file
 * has this mode (and this owner, unless uid and gid are -1) before anything
 * is written.  0 or -errno.
 */
int ioa_file_write(const char *path, mode_t mode, uid_t uid, gid_t gid,
		   int (*fn)(FILE *out, void *arg), void *arg);

#endif
