/*
 * krepo — kernel repositories (docs/kernels.md): a plain directory tree
 * that any web server can serve as it is,
 *
 *	index.json                         every kernel: name, version, path, summary
 *	kernels/NAME/VERSION/kernel.c      the kernel
 *	kernels/NAME/VERSION/Makefile
 *	kernels/NAME/VERSION/meta.json     provenance, validation, I/O summary, files
 *	kernels/NAME/VERSION/SHA256SUMS    the files' SHA-256, as sha256sum -c reads them
 *
 * publish adds a validated kernel to a site tree (under a lock, index last);
 * list, search and pull read a repository over file://, http:// or https://
 * (libcurl): checksums verified, a pull lands whole or not at all, names
 * that would leave the target folder refused; push sends a published
 * kernel to a central repository that takes uploads (HTTP PUT, credentials
 * from a netrc file) or into a local tree.
 */
#ifndef KREPO_H
#define KREPO_H

#include <stdio.h>

#include "ioa_buf.h"
#include "kvalidate.h"

/* Whether a kernel name or version is safe in a path: [A-Za-z0-9._-]+, not . or .. */
int krepo_safe_name(const char *s);

/*
 * Validates the kernel in dir against log (kvalidate) and, if identical,
 * adds it to the repository at repo as name@version.  0, or -errno with err
 * set (-EEXIST: that version is there; -EPROTO: the kernel differs).
 */
int krepo_publish(const char *dir, const char *log, const char *repo, const char *name,
		  const char *version, const struct kvalidate_options *vo, FILE *report,
		  struct ioa_buf *err);

/* Prints the repository's kernels (those whose name holds term, if given). */
int krepo_list(const char *url, const char *term, FILE *out, struct ioa_buf *err);

/* Fetches name[@version] (the newest when none) into dir, which must not exist. */
int krepo_pull(const char *url, const char *spec, const char *dir, struct ioa_buf *err);

/*
 * Sends the published kernel in dir (a repository's kernels/NAME/VERSION,
 * or a pull of it) to the repository at url: PUT over http(s) with
 * credentials from netrc (NULL: ~/.netrc), or copied into a file:// tree.
 */
int krepo_push(const char *dir, const char *url, const char *netrc, struct ioa_buf *err);

#endif
