/*
 * kpkg — what a kernel repository gives a pull to read, checked before it is
 * believed (docs/kernels.md): the index (index.json), a kernel's entry in
 * it, and the package's metadata (meta.json) with its list of files.  Every
 * function takes bytes already in memory, so that the fuzzer
 * (tests/fuzz/fuzz-krepo.c) and the corpus replay (t6006) reach exactly the
 * code that `kernel list`, `search` and `pull` run; krepo fetches the bytes.
 *
 * The limits bound what a repository makes us allocate and fetch: a
 * transfer is cut off when it passes its limit, and meta.json's declared
 * sizes are checked before any file is fetched.  Text from a repository
 * goes to a terminal only through kpkg_add_display().
 *
 * Not thread-safe per object; no global state.
 */
#ifndef KPKG_H
#define KPKG_H

#include <json-c/json.h>
#include <stddef.h>

#include "ioa_buf.h"

#define KPKG_INDEX_MAX ((size_t)16 << 20) /* index.json: about 50,000 kernels */
#define KPKG_META_MAX  ((size_t)1 << 20)  /* meta.json: a published one is ~1 KB */
#define KPKG_FILES_MAX 16		  /* files a package lists (publish makes 2) */
#define KPKG_BYTES_MAX ((size_t)64 << 20) /* a package's files together (and each) */

/* One file of a package, as meta.json declares it; the strings belong to the meta. */
struct kpkg_file {
	const char *name;   /* a plain name: [A-Za-z0-9._-], not starting with '.' */
	const char *sha256; /* 64 lowercase hex digits */
	size_t size;	    /* bytes, <= KPKG_BYTES_MAX */
};

/* A package's metadata, checked. */
struct kpkg {
	json_object *meta;
	struct kpkg_file files[KPKG_FILES_MAX];
	size_t nfiles;
	size_t bytes; /* the files' declared sizes added up */
};

#define KPKG_INIT                                     \
	{                                             \
		.meta = NULL, .nfiles = 0, .bytes = 0 \
	}

/* Whether a kernel name or version is safe in a path: [A-Za-z0-9._-]+, not . or .., <= 128. */
int kpkg_safe_name(const char *s);

/* The string member key of o, or "" (a number or an object is not a name); borrowed. */
const char *kpkg_str(json_object *o, const char *key);

/*
 * Parses len bytes of a repository's index.  Returns the index (the caller
 * puts it with json_object_put()), or NULL with err set (where: the URL or
 * path named in the message).  Input longer than KPKG_INDEX_MAX is refused.
 */
json_object *kpkg_index_parse(const char *text, size_t len, const char *where, struct ioa_buf *err);

/* The index's entry for name[@version] (version NULL: the newest); borrowed, or NULL. */
json_object *kpkg_index_find(json_object *idx, const char *name, const char *version);

/*
 * The folder of index entry k, relative to the repository, into rel
 * ("kernels/NAME/VERSION/"): 0, or -EINVAL with err set when the entry
 * puts the kernel anywhere else or its version is not a safe name.
 */
int kpkg_entry_folder(json_object *k, const char *name, char *rel, size_t len, const char *where,
		      struct ioa_buf *err);

/* Appends index entry k as `kernel list` shows it (one line, escaped for a terminal). */
int kpkg_entry_line(json_object *k, struct ioa_buf *out);

/*
 * Parses and checks len bytes of a package's meta.json into p (set up with
 * KPKG_INIT): an object naming name@version (when not NULL), with a list of
 * at most KPKG_FILES_MAX files of safe, distinct names (not meta.json),
 * each with a SHA-256 and a size, adding up to at most KPKG_BYTES_MAX.
 * 0, or -EINVAL (not metadata), -EACCES (a name that would leave the
 * folder), -EFBIG (over a limit) with err set.  kpkg_release() frees p
 * either way.
 */
int kpkg_parse(struct kpkg *p, const char *text, size_t len, const char *name, const char *version,
	       const char *where, struct ioa_buf *err);

void kpkg_release(struct kpkg *p);

/*
 * Appends s for a terminal: as ioa_buf_add_escaped() (C0 bytes, DEL and
 * bytes that are not UTF-8 as \xNN, so an ESC sequence is text), and the C1
 * controls U+0080..U+009F, which UTF-8 terminals obey, as \xc2\xNN.
 */
int kpkg_add_display(struct ioa_buf *b, const char *s);

#endif
