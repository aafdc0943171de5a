/*
 * kpkg — a repository's index and a package's meta.json, parsed from bytes
 * and checked against the limits before a pull believes them (see kpkg.h).
 * krepo fetches; this module decides what the fetched bytes may make us do.
 */
#include "kpkg.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int kpkg_safe_name(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-");

	return s[0] && !s[n] && n <= 128 && strcmp(s, ".") && strcmp(s, "..");
}

/* A file name a package may list: a plain name in the kernel's folder. */
static int safe_file(const char *s)
{
	return kpkg_safe_name(s) && s[0] != '.';
}

const char *kpkg_str(json_object *o, const char *key)
{
	json_object *v = json_object_object_get(o, key);

	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

int kpkg_add_display(struct ioa_buf *b, const char *s)
{
	const char *from = s;
	int rc = 0;

	while (*s && !rc) {
		unsigned char c1 = (unsigned char)s[1];

		if ((unsigned char)s[0] == 0xc2 && c1 >= 0x80 && c1 <= 0x9f) {
			rc = ioa_buf_add_escaped(b, from, (size_t)(s - from));
			rc = rc ? rc : ioa_buf_addf(b, "\\xc2\\x%02x", c1);
			s += 2;
			from = s;
		} else {
			s++;
		}
	}
	return rc ? rc : ioa_buf_add_escaped(b, from, (size_t)(s - from));
}

/* Parses exactly len bytes of JSON (blanks may follow it); NULL if they are not. */
static json_object *parse(const char *text, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *o;
	size_t end;

	if (!tok)
		return NULL;
	o = json_tokener_parse_ex(tok, text, (int)len);
	end = json_tokener_get_parse_end(tok);
	if (o && json_tokener_get_error(tok) == json_tokener_success)
		while (end < len && strchr(" \t\r\n", text[end]) && text[end])
			end++;
	if (o && (json_tokener_get_error(tok) != json_tokener_success || end < len)) {
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}

json_object *kpkg_index_parse(const char *text, size_t len, const char *where, struct ioa_buf *err)
{
	json_object *idx;

	if (len > KPKG_INDEX_MAX) {
		ioa_buf_reset(err);
		ioa_buf_addf(err, "%s: refused: larger than an index may be (%zu bytes)", where,
			     KPKG_INDEX_MAX);
		return NULL;
	}
	idx = len ? parse(text, len) : NULL;
	if (!idx || !json_object_is_type(json_object_object_get(idx, "kernels"), json_type_array)) {
		json_object_put(idx);
		ioa_buf_reset(err);
		ioa_buf_addf(err, "%s: not a kernel repository's index", where);
		return NULL;
	}
	return idx;
}

/* Versions compare as numbers where they are ("10" after "9"), else as text. */
static int version_cmp(const char *a, const char *b)
{
	char *ea, *eb;
	long x = strtol(a, &ea, 10), y = strtol(b, &eb, 10);

	if (!*ea && !*eb && ea != a && eb != b)
		return (x > y) - (x < y);
	return strcmp(a, b);
}

json_object *kpkg_index_find(json_object *idx, const char *name, const char *version)
{
	json_object *list = json_object_object_get(idx, "kernels"), *best = NULL;
	size_t i,
		n = json_object_is_type(list, json_type_array) ? json_object_array_length(list) : 0;

	for (i = 0; i < n; i++) {
		json_object *k = json_object_array_get_idx(list, i);

		if (strcmp(kpkg_str(k, "name"), name))
			continue;
		if (version ? !strcmp(kpkg_str(k, "version"), version)
			    : !best || version_cmp(kpkg_str(k, "version"),
						   kpkg_str(best, "version")) > 0)
			best = k;
	}
	return best;
}

int kpkg_entry_folder(json_object *k, const char *name, char *rel, size_t len, const char *where,
		      struct ioa_buf *err)
{
	const char *version = kpkg_str(k, "version");
	int n = snprintf(rel, len, "kernels/%s/%s/", name, version);

	if (n < 0 || (size_t)n >= len || !kpkg_safe_name(name) || !kpkg_safe_name(version) ||
	    strcmp(kpkg_str(k, "path"), rel)) {
		ioa_buf_reset(err);
		ioa_buf_addf(err, "%s: the index puts ", where);
		kpkg_add_display(err, name);
		ioa_buf_addstr(err, " outside its place");
		return -EINVAL;
	}
	return 0;
}

int kpkg_entry_line(json_object *k, struct ioa_buf *out)
{
	int rc = kpkg_add_display(out, kpkg_str(k, "name"));

	rc = rc ? rc : ioa_buf_addstr(out, "@");
	rc = rc ? rc : kpkg_add_display(out, kpkg_str(k, "version"));
	rc = rc ? rc
		: ioa_buf_addf(out, "\t%d ranks\t",
			       json_object_get_int(json_object_object_get(k, "ranks")));
	rc = rc ? rc : kpkg_add_display(out, kpkg_str(k, "published"));
	return rc ? rc : ioa_buf_addstr(out, "\n");
}

void kpkg_release(struct kpkg *p)
{
	json_object_put(p->meta);
	p->meta = NULL;
	p->nfiles = 0;
	p->bytes = 0;
}

/* err = "where: refused: " + what, with the file name f shown for a terminal. */
static int refuse(struct ioa_buf *err, int rc, const char *where, const char *before, const char *f,
		  const char *after)
{
	ioa_buf_reset(err);
	ioa_buf_addf(err, "%s: %s", where, before);
	if (f)
		kpkg_add_display(err, f);
	ioa_buf_addstr(err, after);
	return rc;
}

/* Checks file i of the list into p->files[i]. */
static int check_file(struct kpkg *p, json_object *f, size_t i, const char *where,
		      struct ioa_buf *err)
{
	struct kpkg_file *out = &p->files[i];
	json_object *size = json_object_object_get(f, "size");
	int64_t bytes;
	size_t j;

	out->name = kpkg_str(f, "name");
	out->sha256 = kpkg_str(f, "sha256");
	if (!safe_file(out->name))
		return refuse(err, -EACCES, where, "refused: the file name '", out->name,
			      "' would leave the folder");
	if (!strcmp(out->name, "meta.json"))
		return refuse(err, -EACCES, where, "refused: a package's file is named '",
			      out->name, "', as its metadata");
	for (j = 0; j < i; j++)
		if (!strcmp(p->files[j].name, out->name))
			return refuse(err, -EINVAL, where, "refused: '", out->name,
				      "' is listed twice");
	if (strlen(out->sha256) != 64 || strspn(out->sha256, "0123456789abcdef") != 64)
		return refuse(err, -EINVAL, where, "'", out->name,
			      "' has no SHA-256 (64 hex digits): not a kernel's metadata");
	if (!json_object_is_type(size, json_type_int) || (bytes = json_object_get_int64(size)) < 0)
		return refuse(err, -EINVAL, where, "'", out->name,
			      "' has no size: not a kernel's metadata");
	if ((uint64_t)bytes > KPKG_BYTES_MAX) {
		refuse(err, -EFBIG, where, "refused: '", out->name, "' is larger than a package");
		ioa_buf_addf(err, " may be (%lld bytes, at most %zu)", (long long)bytes,
			     KPKG_BYTES_MAX);
		return -EFBIG;
	}
	out->size = (size_t)bytes;
	p->bytes += out->size;
	return 0;
}

int kpkg_parse(struct kpkg *p, const char *text, size_t len, const char *name, const char *version,
	       const char *where, struct ioa_buf *err)
{
	json_object *files;
	size_t i, n;
	int rc = 0;

	kpkg_release(p);
	if (len > KPKG_META_MAX) {
		ioa_buf_reset(err);
		ioa_buf_addf(err, "%s: refused: larger than a meta.json may be (%zu bytes)", where,
			     KPKG_META_MAX);
		return -EFBIG;
	}
	p->meta = len ? parse(text, len) : NULL;
	files = json_object_object_get(p->meta, "files");
	if (!json_object_is_type(p->meta, json_type_object) ||
	    !json_object_is_type(files, json_type_array))
		return refuse(err, -EINVAL, where, "not a kernel's metadata", NULL, "");
	if ((name && strcmp(kpkg_str(p->meta, "name"), name)) ||
	    (version && strcmp(kpkg_str(p->meta, "version"), version))) {
		refuse(err, -EINVAL, where, "refused: the metadata of ", kpkg_str(p->meta, "name"),
		       "@");
		kpkg_add_display(err, kpkg_str(p->meta, "version"));
		ioa_buf_addstr(err, ", not of the kernel asked for");
		return -EINVAL;
	}
	n = json_object_array_length(files);
	if (n > KPKG_FILES_MAX) {
		ioa_buf_reset(err);
		ioa_buf_addf(err, "%s: refused: %zu files (a package holds at most %d)", where, n,
			     KPKG_FILES_MAX);
		return -EFBIG;
	}
	for (i = 0; i < n && !rc; i++)
		rc = check_file(p, json_object_array_get_idx(files, i), i, where, err);
	if (rc)
		return rc;
	p->nfiles = n;
	if (p->bytes > KPKG_BYTES_MAX) {
		ioa_buf_reset(err);
		ioa_buf_addf(err,
			     "%s: refused: the files add up to more than a package may be (%zu "
			     "bytes, at most %zu)",
			     where, p->bytes, KPKG_BYTES_MAX);
		return -EFBIG;
	}
	return 0;
}
