/*
 * ioa_anon — keyed, irreversible anonymization of what a log says about
 * people and their files, for what leaves the site (ioatlas export
 * --anonymize; docs/darshan.md).
 *
 * Each path component, user name, uid, executable and argument becomes a
 * token made from HMAC-SHA256 under the site's key: the same input gives
 * the same token in every job (so that patterns stay comparable across
 * jobs), and without the key no input can be told from its token, nor
 * guessed and checked (a plain hash could be).  Path structure is kept:
 * "/scratch/alice/run.h5" becomes "/t3f0c.../t91a2.../t0be4...", so that a
 * file still lies under its folder and its mount point.
 */
#ifndef IOA_ANON_H
#define IOA_ANON_H

#include <stddef.h>
#include <stdint.h>

#include "ioa_buf.h"

#define IOA_ANON_KEY_MIN 16  /* bytes of key at the least */
#define IOA_ANON_KEY_MAX 256
#define IOA_ANON_TOKEN	 17  /* "t" and 16 hex digits */

struct ioa_anon {
	unsigned char key[IOA_ANON_KEY_MAX];
	size_t key_len;
};

/*
 * Loads the site key from path: a regular file of IOA_ANON_KEY_MIN to
 * IOA_ANON_KEY_MAX bytes that only its owner may read or write (it is the
 * site's secret).  0, or a negative errno with the reason in err.
 */
int ioa_anon_load_key(struct ioa_anon *a, const char *path, struct ioa_buf *err);

/* The token of bytes in a domain ("path", "user", "arg"): out holds IOA_ANON_TOKEN + 1 bytes. */
void ioa_anon_token(const struct ioa_anon *a, const char *domain, const void *bytes, size_t len,
		    char *out);

/* A number from bytes in a domain (uids: 31 bits, so that it stays a valid uid). */
uint64_t ioa_anon_u64(const struct ioa_anon *a, const char *domain, const void *bytes, size_t len);

/* Appends the path with each component replaced by its token; '/' kept.  0, -ENOBUFS, -ENOMEM. */
int ioa_anon_path(const struct ioa_anon *a, const void *path, size_t len, struct ioa_buf *out);

/* Forgets the key. */
void ioa_anon_clear(struct ioa_anon *a);

#endif
