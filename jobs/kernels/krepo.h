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
 * (libcurl): what the repository gives checked by kpkg (sizes, counts,
 * names) before it is believed, checksums verified, a pull landing whole
 * or not at all, a stalled transfer abandoned; push sends a published
 * kernel to a central repository that takes uploads (HTTP PUT, credentials
 * from a netrc file) or into a local tree.
 */
#ifndef KREPO_H
#define KREPO_H

#include <stdio.h>

#include "ioa_anon.h"
#include "ioa_buf.h"
#include "kpkg.h"
#include "kvalidate.h"

/* A transfer moving fewer bytes a second than this for stall_timeout_s has stalled. */
#define KREPO_STALL_BYTES_PER_S 1024

/*
 * How the transfers of one command may go: each is abandoned when it
 * stalls or does not connect in time, and all of them together end by
 * timeout_s.  KREPO_TRANSFER_INIT: the defaults.
 */
struct krepo_transfer {
	double stall_timeout_s;	  /* kernel.stall_timeout (>= 1) */
	double connect_timeout_s; /* a connection, made or not */
	double timeout_s;	  /* the command's transfers, all together */
	double _deadline;	  /* private: CLOCK_MONOTONIC, set by the first transfer */
};

#define KREPO_TRANSFER_INIT                                                                      \
	{                                                                                        \
		.stall_timeout_s = 30, .connect_timeout_s = 20, .timeout_s = 600, ._deadline = 0 \
	}

/*
 * Validates the kernel in dir against log (kvalidate) and, if identical,
 * adds it to the repository at repo as name@version.  0, or -errno with err
 * set (-EEXIST: that version is there; -EPROTO: the kernel differs).
 */
int krepo_publish(const char *dir, const char *log, const char *repo, const char *name,
		  const char *version, const struct kvalidate_options *vo, FILE *report,
		  struct ioa_buf *err);

/*
 * Prints the repository's kernels (those whose name holds term, if given),
 * their text escaped for a terminal.  t: NULL for the defaults.
 */
int krepo_list(const char *url, const char *term, struct krepo_transfer *t, FILE *out,
	       struct ioa_buf *err);

/*
 * Fetches name[@version] (the newest when none) into dir, which must not
 * exist: within kpkg's limits, checksums verified, or nothing is left.
 */
int krepo_pull(const char *url, const char *spec, const char *dir, struct krepo_transfer *t,
	       struct ioa_buf *err);

/*
 * Sends the published kernel in dir (a repository's kernels/NAME/VERSION,
 * or a pull of it) to the repository at url: PUT over http(s) with
 * credentials from netrc (NULL: ~/.netrc), or copied into a file:// tree.
 * With anon (the site's key), what is sent is anonymized for leaving the
 * site: the kernel's file names (those of a --keep-names kernel) become the
 * path tokens an anonymized export gives the same names, and meta.json's
 * name and the job log it came from become keyed tokens; the checksums are
 * made again.  dir itself is not changed.
 */
int krepo_push(const char *dir, const char *url, const char *netrc, const struct ioa_anon *anon,
	       struct krepo_transfer *t, struct ioa_buf *err);

#endif
