/*
 * krepo — kernel repositories (see krepo.h).
 */
#define _GNU_SOURCE
#include "krepo.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ioa_file.h"

#define FETCH_MAX ((size_t)64 << 20) /* the largest file a pull takes */

/* Paths and URLs: names are bounded, a cut one is an error (never a different path). */
static int pathf(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int pathf(char *out, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static const char *const kernel_files[] = {"kernel.c", "Makefile"};

int krepo_safe_name(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-");

	return s[0] && !s[n] && n <= 128 && strcmp(s, ".") && strcmp(s, "..");
}

static void sha256_hex(const void *data, size_t len, char out[65])
{
	unsigned char d[32];
	unsigned i;

	EVP_Digest(data, len, d, NULL, EVP_sha256(), NULL);
	for (i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static int read_file(const char *path, struct ioa_buf *b)
{
	FILE *f = fopen(path, "rb");
	char chunk[65536];
	size_t n;
	int rc = 0;

	ioa_buf_reset(b);
	if (!f)
		return -errno;
	while (!rc && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		rc = ioa_buf_add(b, chunk, n);
	if (ferror(f))
		rc = -EIO;
	fclose(f);
	return rc;
}

struct whole {
	const void *data;
	size_t len;
};

static int put_whole(FILE *out, void *arg)
{
	const struct whole *w = arg;

	if (fwrite(w->data, 1, w->len, out) != w->len || fflush(out))
		return -EIO;
	return fsync(fileno(out)) ? -errno : 0;
}

/* A repository's file: readable by all, on disk before it is renamed in. */
static int write_whole(const char *path, const void *data, size_t len)
{
	struct whole w = {data, len};

	return ioa_file_write(path, 0644, (uid_t)-1, (gid_t)-1, put_whole, &w);
}

/* ------------------------------------------------------------ transfers */

struct sink {
	struct ioa_buf *b;
	int over;
};

static size_t on_data(char *p, size_t size, size_t n, void *arg)
{
	struct sink *s = arg;

	if (ioa_buf_add(s->b, p, size * n)) {
		s->over = 1;
		return 0;
	}
	return size * n;
}

static void url_join(const char *base, const char *rel, char *out, size_t len)
{
	size_t n = strlen(base);

	pathf(out, len, "%s%s%s", base, n && base[n - 1] == '/' ? "" : "/", rel);
}

static CURL *easy(const char *url, struct ioa_buf *err)
{
	CURL *c = curl_easy_init();

	if (!c) {
		ioa_buf_addstr(err, "cannot start a transfer (libcurl)");
		return NULL;
	}
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "file,http,https");
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 20L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 600L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	return c;
}

static int fetch(const char *url, struct ioa_buf *out, struct ioa_buf *err)
{
	struct sink s = {out, 0};
	CURL *c = easy(url, err);
	CURLcode code;
	long status = 0;

	ioa_buf_reset(out);
	if (!c)
		return -ENOMEM;
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &s);
	code = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_cleanup(c);
	if (code == CURLE_OK)
		return 0;
	ioa_buf_reset(err);
	if (status >= 400)
		ioa_buf_addf(err, "%s: the server answered HTTP %ld", url, status);
	else
		ioa_buf_addf(err, "%s: %s", url,
			     s.over ? "larger than a kernel's files may be"
				    : curl_easy_strerror(code));
	return code == CURLE_HTTP_RETURNED_ERROR || code == CURLE_FILE_COULDNT_READ_FILE ? -ENOENT
											 : -EIO;
}

struct source {
	const char *p;
	size_t left;
};

static size_t on_send(char *p, size_t size, size_t n, void *arg)
{
	struct source *s = arg;
	size_t k = size * n < s->left ? size * n : s->left;

	memcpy(p, s->p, k);
	s->p += k;
	s->left -= k;
	return k;
}

static int put(const char *url, const void *data, size_t len, const char *netrc,
	       struct ioa_buf *err)
{
	struct source s = {data, len};
	CURL *c = easy(url, err);
	CURLcode code;
	long status = 0;

	if (!c)
		return -ENOMEM;
	curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(c, CURLOPT_READFUNCTION, on_send);
	curl_easy_setopt(c, CURLOPT_READDATA, &s);
	curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)len);
	curl_easy_setopt(c, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
	if (netrc)
		curl_easy_setopt(c, CURLOPT_NETRC_FILE, netrc);
	code = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_cleanup(c);
	if (code == CURLE_OK)
		return 0;
	ioa_buf_reset(err);
	if (status >= 400)
		ioa_buf_addf(err, "%s: the server answered HTTP %ld%s", url, status,
			     status == 401 || status == 403 ? " (credentials: the netrc file)"
							    : "");
	else
		ioa_buf_addf(err, "%s: %s", url, curl_easy_strerror(code));
	return -EIO;
}

/* ------------------------------------------------------------ the index */

static json_object *index_parse(const struct ioa_buf *b, const char *where, struct ioa_buf *err)
{
	json_object *idx = b->len ? json_tokener_parse(ioa_buf_str((struct ioa_buf *)b)) : NULL;

	if (!idx || !json_object_is_type(json_object_object_get(idx, "kernels"), json_type_array)) {
		json_object_put(idx);
		ioa_buf_reset(err);
		ioa_buf_addf(err, "%s: not a kernel repository's index", where);
		return NULL;
	}
	return idx;
}

static const char *jstr(json_object *o, const char *key)
{
	const char *s = json_object_get_string(json_object_object_get(o, key));

	return s ? s : "";
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

/* The index's entry for name[@version] (the newest version when none). */
static json_object *index_find(json_object *idx, const char *name, const char *version)
{
	json_object *list = json_object_object_get(idx, "kernels"), *best = NULL;
	size_t i;

	for (i = 0; i < json_object_array_length(list); i++) {
		json_object *k = json_object_array_get_idx(list, i);

		if (strcmp(jstr(k, "name"), name))
			continue;
		if (version ? !strcmp(jstr(k, "version"), version)
			    : !best || version_cmp(jstr(k, "version"), jstr(best, "version")) > 0)
			best = k;
	}
	return best;
}

/* Replaces name@version's entry of the index with entry (or adds it). */
static void index_put(json_object *idx, json_object *entry)
{
	json_object *list = json_object_object_get(idx, "kernels");
	size_t i;

	for (i = 0; i < json_object_array_length(list); i++) {
		json_object *k = json_object_array_get_idx(list, i);

		if (!strcmp(jstr(k, "name"), jstr(entry, "name")) &&
		    !strcmp(jstr(k, "version"), jstr(entry, "version"))) {
			json_object_array_put_idx(list, i, entry);
			return;
		}
	}
	json_object_array_add(list, entry);
}

static json_object *index_entry(json_object *meta)
{
	json_object *e = json_object_new_object();
	char path[600];

	pathf(path, sizeof(path), "kernels/%s/%s/", jstr(meta, "name"), jstr(meta, "version"));
	json_object_object_add(e, "name", json_object_new_string(jstr(meta, "name")));
	json_object_object_add(e, "version", json_object_new_string(jstr(meta, "version")));
	json_object_object_add(e, "path", json_object_new_string(path));
	json_object_object_add(e, "ranks",
			       json_object_get(json_object_object_get(
				       json_object_object_get(meta, "provenance"), "ranks")));
	json_object_object_add(e, "published", json_object_new_string(jstr(meta, "published")));
	json_object_object_add(e, "io", json_object_get(json_object_object_get(meta, "io")));
	return e;
}

/* Adds meta's kernel to the local repository's index, under the repository's lock. */
static int index_add_local(const char *repo, json_object *meta, struct ioa_buf *err)
{
	char lock[PATH_MAX], path[PATH_MAX];
	struct ioa_buf b = IOA_BUF_INIT(FETCH_MAX);
	json_object *idx;
	const char *text;
	int fd, rc;

	pathf(lock, sizeof(lock), "%s/.lock", repo);
	pathf(path, sizeof(path), "%s/index.json", repo);
	if ((fd = open(lock, O_CREAT | O_RDWR | O_CLOEXEC, 0644)) < 0 || flock(fd, LOCK_EX)) {
		ioa_buf_addf(err, "%s: cannot lock: %s", lock, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	rc = read_file(path, &b);
	idx = rc == -ENOENT ? json_tokener_parse("{\"format\": 1, \"kernels\": []}")
	      : rc	    ? NULL
			    : index_parse(&b, path, err);
	rc = idx ? 0 : rc ? rc : -EINVAL;
	if (!rc) {
		index_put(idx, index_entry(meta));
		text = json_object_to_json_string_ext(idx, JSON_C_TO_STRING_PRETTY |
								   JSON_C_TO_STRING_NOSLASHESCAPE);
		rc = write_whole(path, text, strlen(text));
		if (rc)
			ioa_buf_addf(err, "%s: %s", path, strerror(-rc));
	}
	json_object_put(idx);
	ioa_buf_release(&b);
	close(fd);
	return rc;
}

/* ------------------------------------------------------------ publish */

static int copy_kernel(const char *from, const char *to_dir, json_object *files, char *sums,
		       size_t sums_len, struct ioa_buf *err)
{
	struct ioa_buf b = IOA_BUF_INIT(FETCH_MAX);
	char src[PATH_MAX], dst[PATH_MAX], hex[65];
	size_t i, used = 0;
	int rc = 0;

	for (i = 0; i < sizeof(kernel_files) / sizeof(kernel_files[0]) && !rc; i++) {
		json_object *f = json_object_new_object();

		pathf(src, sizeof(src), "%s/%s", from, kernel_files[i]);
		pathf(dst, sizeof(dst), "%s/%s", to_dir, kernel_files[i]);
		rc = read_file(src, &b);
		rc = rc ? rc : write_whole(dst, b.data, b.len);
		if (rc) {
			ioa_buf_addf(err, "%s: %s", src, strerror(-rc));
			json_object_put(f);
			break;
		}
		sha256_hex(b.data, b.len, hex);
		if (!pathf(sums + used, sums_len - used, "%s  %s\n", hex, kernel_files[i]))
			used += strlen(sums + used);
		json_object_object_add(f, "name", json_object_new_string(kernel_files[i]));
		json_object_object_add(f, "sha256", json_object_new_string(hex));
		json_object_object_add(f, "size", json_object_new_int64((int64_t)b.len));
		json_object_array_add(files, f);
	}
	ioa_buf_release(&b);
	return rc;
}

int krepo_publish(const char *dir, const char *log, const char *repo, const char *name,
		  const char *version, const struct kvalidate_options *vo, FILE *report,
		  struct ioa_buf *err)
{
	struct kvalidate_result res;
	char path[PATH_MAX], tmp[PATH_MAX], final[PATH_MAX], sums[1024] = "", when[64];
	json_object *meta, *files = json_object_new_array(), *prov, *val, *io;
	const char *text;
	time_t now = time(NULL);
	struct tm tm;
	int rc;

	if (!krepo_safe_name(name) || !krepo_safe_name(version)) {
		ioa_buf_addf(err, "'%s@%s': a name and version are letters, digits, '.', '-', '_'",
			     name, version);
		json_object_put(files);
		return -EINVAL;
	}
	pathf(final, sizeof(final), "%s/kernels/%s/%s", repo, name, version);
	if (!access(final, F_OK)) {
		ioa_buf_addf(err, "%s@%s is in %s already", name, version, repo);
		json_object_put(files);
		return -EEXIST;
	}
	rc = kvalidate(dir, log, vo, report, &res, err);
	if (!rc && res.differ) {
		ioa_buf_addf(err, "the kernel does not match its job: not published");
		rc = -EPROTO;
	}
	if (rc) {
		json_object_put(files);
		return rc;
	}
	/* The kernel's folder, made aside and renamed into place whole. */
	pathf(path, sizeof(path), "%s/kernels/%s", repo, name);
	if ((mkdir(repo, 0755) && errno != EEXIST) ||
	    (pathf(tmp, sizeof(tmp), "%s/kernels", repo), mkdir(tmp, 0755) && errno != EEXIST) ||
	    (mkdir(path, 0755) && errno != EEXIST)) {
		ioa_buf_addf(err, "cannot make %s: %s", path, strerror(errno));
		json_object_put(files);
		return -errno;
	}
	pathf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", path, version);
	if (!mkdtemp(tmp)) {
		ioa_buf_addf(err, "cannot make a folder in %s: %s", path, strerror(errno));
		json_object_put(files);
		return -errno;
	}
	chmod(tmp, 0755);
	rc = copy_kernel(dir, tmp, files, sums, sizeof(sums), err);
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	meta = json_object_new_object();
	prov = json_object_new_object();
	val = json_object_new_object();
	io = json_object_new_object();
	json_object_object_add(meta, "name", json_object_new_string(name));
	json_object_object_add(meta, "version", json_object_new_string(version));
	json_object_object_add(meta, "published", json_object_new_string(when));
	json_object_object_add(
		prov, "job_log",
		json_object_new_string(strrchr(log, '/') ? strrchr(log, '/') + 1 : log));
	json_object_object_add(prov, "ranks", json_object_new_int((int)res.ranks));
	json_object_object_add(prov, "runtime_version", json_object_new_string(IOATLAS_VERSION));
	json_object_object_add(meta, "provenance", prov);
	json_object_object_add(val, "identical", json_object_new_boolean(!res.differ));
	json_object_object_add(val, "records", json_object_new_int((int)res.records));
	json_object_object_add(val, "counters", json_object_new_int((int)res.counters));
	json_object_object_add(val, "job_seconds", json_object_new_double(res.job_seconds));
	json_object_object_add(val, "kernel_seconds", json_object_new_double(res.kernel_seconds));
	json_object_object_add(val, "time_error", json_object_new_double(res.time_error));
	json_object_object_add(meta, "validation", val);
	json_object_object_add(io, "bytes_read", json_object_new_int64(res.bytes_read));
	json_object_object_add(io, "bytes_written", json_object_new_int64(res.bytes_written));
	json_object_object_add(io, "files", json_object_new_int((int)res.files));
	json_object_object_add(meta, "io", io);
	json_object_object_add(meta, "files", files);
	text = json_object_to_json_string_ext(meta, JSON_C_TO_STRING_PRETTY |
							    JSON_C_TO_STRING_NOSLASHESCAPE);
	pathf(path, sizeof(path), "%s/meta.json", tmp);
	rc = rc ? rc : write_whole(path, text, strlen(text));
	pathf(path, sizeof(path), "%s/SHA256SUMS", tmp);
	rc = rc ? rc : write_whole(path, sums, strlen(sums));
	if (!rc && rename(tmp, final))
		rc = -errno;
	if (rc) {
		if (!err->len)
			ioa_buf_addf(err, "cannot publish into %s: %s", final, strerror(-rc));
		static const char *const all[] = {"kernel.c", "Makefile", "meta.json",
						  "SHA256SUMS"};
		size_t i;

		for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
			pathf(path, sizeof(path), "%s/%s", tmp, all[i]);
			unlink(path);
		}
		rmdir(tmp);
	}
	rc = rc ? rc : index_add_local(repo, meta, err);
	json_object_put(meta);
	return rc;
}

/* ------------------------------------------------------------ list, pull, push */

int krepo_list(const char *url, const char *term, FILE *out, struct ioa_buf *err)
{
	struct ioa_buf b = IOA_BUF_INIT(FETCH_MAX);
	char where[4096];
	json_object *idx, *list;
	size_t i;
	int rc;

	url_join(url, "index.json", where, sizeof(where));
	rc = fetch(where, &b, err);
	idx = rc ? NULL : index_parse(&b, where, err);
	if (!rc && !idx)
		rc = -EINVAL;
	list = idx ? json_object_object_get(idx, "kernels") : NULL;
	for (i = 0; list && i < json_object_array_length(list); i++) {
		json_object *k = json_object_array_get_idx(list, i);

		if (term && !strstr(jstr(k, "name"), term))
			continue;
		fprintf(out, "%s@%s\t%d ranks\t%s\n", jstr(k, "name"), jstr(k, "version"),
			json_object_get_int(json_object_object_get(k, "ranks")),
			jstr(k, "published"));
	}
	json_object_put(idx);
	ioa_buf_release(&b);
	return rc;
}

/* A file name a repository may give: a plain name in the kernel's folder. */
static int safe_file(const char *s)
{
	return krepo_safe_name(s) && s[0] != '.';
}

int krepo_pull(const char *url, const char *spec, const char *dir, struct ioa_buf *err)
{
	struct ioa_buf b = IOA_BUF_INIT(FETCH_MAX);
	char name[256], *at, where[4096], rel[1024], tmp[PATH_MAX], path[PATH_MAX], hex[65];
	const char *version = NULL;
	json_object *idx = NULL, *k, *meta = NULL, *files;
	size_t i;
	int rc;

	pathf(name, sizeof(name), "%s", spec);
	if ((at = strchr(name, '@'))) {
		*at = '\0';
		version = at + 1;
	}
	if (!krepo_safe_name(name) || (version && !krepo_safe_name(version))) {
		ioa_buf_addf(err, "'%s': not a kernel name[@version]", spec);
		return -EINVAL;
	}
	if (!access(dir, F_OK)) {
		ioa_buf_addf(err, "%s exists: a pull goes into a new folder", dir);
		return -EEXIST;
	}
	url_join(url, "index.json", where, sizeof(where));
	rc = fetch(where, &b, err);
	idx = rc ? NULL : index_parse(&b, where, err);
	if (!rc && !idx)
		rc = -EINVAL;
	k = idx ? index_find(idx, name, version) : NULL;
	if (!rc && !k) {
		ioa_buf_addf(err, "no kernel %s%s%s in %s", name, version ? "@" : "",
			     version ? version : "", url);
		rc = -ENOENT;
	}
	/* The kernel's folder is where the index says, if that is where it must be. */
	if (!rc) {
		pathf(rel, sizeof(rel), "kernels/%s/%s/", name, jstr(k, "version"));
		if (strcmp(jstr(k, "path"), rel) || !krepo_safe_name(jstr(k, "version"))) {
			ioa_buf_addf(err, "%s: the index puts %s outside its place", url, name);
			rc = -EINVAL;
		}
	}
	if (!rc) {
		url_join(url, rel, where, sizeof(where));
		strncat(where, "meta.json", sizeof(where) - strlen(where) - 1);
		rc = fetch(where, &b, err);
		meta = rc ? NULL : json_tokener_parse(ioa_buf_str(&b));
		if (!rc && !meta) {
			ioa_buf_addf(err, "%s: not a kernel's metadata", where);
			rc = -EINVAL;
		}
	}
	files = meta ? json_object_object_get(meta, "files") : NULL;
	for (i = 0; !rc && i < json_object_array_length(files); i++)
		if (!safe_file(jstr(json_object_array_get_idx(files, i), "name"))) {
			ioa_buf_addf(err, "%s: refused: the file name '%s' would leave the folder",
				     url, jstr(json_object_array_get_idx(files, i), "name"));
			rc = -EACCES;
		}
	/* Everything into a folder beside the target, renamed into place once checked. */
	if (!rc) {
		pathf(tmp, sizeof(tmp), "%s.XXXXXX", dir);
		if (!mkdtemp(tmp)) {
			ioa_buf_addf(err, "cannot make a folder beside %s: %s", dir,
				     strerror(errno));
			rc = -errno;
		}
		for (i = 0; !rc && i < json_object_array_length(files); i++) {
			json_object *f = json_object_array_get_idx(files, i);

			pathf(path, sizeof(path), "%s%s", rel, jstr(f, "name"));
			url_join(url, path, where, sizeof(where));
			rc = fetch(where, &b, err);
			if (!rc) {
				sha256_hex(b.data, b.len, hex);
				if (strcmp(hex, jstr(f, "sha256"))) {
					ioa_buf_addf(err,
						     "%s: checksum mismatch (SHA-256 %s, the "
						     "repository says %s)",
						     where, hex, jstr(f, "sha256"));
					rc = -EBADMSG;
				}
			}
			pathf(path, sizeof(path), "%s/%s", tmp, jstr(f, "name"));
			rc = rc ? rc : write_whole(path, b.data, b.len);
		}
		if (!rc) {
			const char *text = json_object_to_json_string_ext(
				meta, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);

			pathf(path, sizeof(path), "%s/meta.json", tmp);
			rc = write_whole(path, text, strlen(text));
		}
		if (!rc && (chmod(tmp, 0755) || rename(tmp, dir))) {
			ioa_buf_addf(err, "cannot move the kernel into %s: %s", dir,
				     strerror(errno));
			rc = -errno;
		}
		if (rc && tmp[0]) {
			for (i = 0; i < json_object_array_length(files); i++) {
				pathf(path, sizeof(path), "%s/%s", tmp,
				      jstr(json_object_array_get_idx(files, i), "name"));
				unlink(path);
			}
			pathf(path, sizeof(path), "%s/meta.json", tmp);
			unlink(path);
			rmdir(tmp);
		}
	}
	json_object_put(meta);
	json_object_put(idx);
	ioa_buf_release(&b);
	return rc;
}

int krepo_push(const char *dir, const char *url, const char *netrc, struct ioa_buf *err)
{
	struct ioa_buf b = IOA_BUF_INIT(FETCH_MAX), idxb = IOA_BUF_INIT(FETCH_MAX);
	char path[PATH_MAX], where[4096], rel[1024];
	json_object *meta, *files, *idx = NULL;
	const char *text;
	size_t i;
	int rc = 0, local = !strncmp(url, "file://", 7);

	pathf(path, sizeof(path), "%s/meta.json", dir);
	rc = read_file(path, &b);
	meta = rc ? NULL : json_tokener_parse(ioa_buf_str(&b));
	if (!meta || !krepo_safe_name(jstr(meta, "name")) ||
	    !krepo_safe_name(jstr(meta, "version"))) {
		ioa_buf_addf(err, "%s: not a published kernel (meta.json)", dir);
		json_object_put(meta);
		ioa_buf_release(&b);
		return -EINVAL;
	}
	pathf(rel, sizeof(rel), "kernels/%s/%s/", jstr(meta, "name"), jstr(meta, "version"));
	files = json_object_object_get(meta, "files");
	if (local) {
		char root[PATH_MAX], final[PATH_MAX];

		pathf(root, sizeof(root), "%s", url + 7);
		pathf(final, sizeof(final), "%s/%s", root, rel);
		pathf(path, sizeof(path), "%s/kernels", root);
		if ((mkdir(root, 0755) && errno != EEXIST) ||
		    (mkdir(path, 0755) && errno != EEXIST))
			rc = -errno;
		pathf(path, sizeof(path), "%s/kernels/%s", root, jstr(meta, "name"));
		if (!rc && mkdir(path, 0755) && errno != EEXIST)
			rc = -errno;
		if (!rc && mkdir(final, 0755) && errno != EEXIST)
			rc = -errno;
		for (i = 0; !rc && i < json_object_array_length(files) + 1; i++) {
			const char *f = i < json_object_array_length(files)
						? jstr(json_object_array_get_idx(files, i), "name")
						: "meta.json";
			char src[PATH_MAX], dst[PATH_MAX];

			if (!safe_file(f)) {
				rc = -EACCES;
				break;
			}
			pathf(src, sizeof(src), "%s/%s", dir, f);
			pathf(dst, sizeof(dst), "%s%s", final, f);
			rc = read_file(src, &b);
			rc = rc ? rc : write_whole(dst, b.data, b.len);
		}
		if (rc)
			ioa_buf_addf(err, "cannot copy the kernel into %s: %s", final,
				     strerror(-rc));
		rc = rc ? rc : index_add_local(root, meta, err);
		json_object_put(meta);
		ioa_buf_release(&b);
		return rc;
	}
	/* A web repository: the files, then the index with the kernel added. */
	for (i = 0; !rc && i < json_object_array_length(files) + 1; i++) {
		const char *f = i < json_object_array_length(files)
					? jstr(json_object_array_get_idx(files, i), "name")
					: "meta.json";
		char rel_file[1200];

		if (!safe_file(f)) {
			ioa_buf_addf(err, "%s: refused: the file name '%s'", dir, f);
			rc = -EACCES;
			break;
		}
		pathf(path, sizeof(path), "%s/%s", dir, f);
		rc = read_file(path, &b);
		if (rc) {
			ioa_buf_addf(err, "%s: %s", path, strerror(-rc));
			break;
		}
		pathf(rel_file, sizeof(rel_file), "%s%s", rel, f);
		url_join(url, rel_file, where, sizeof(where));
		rc = put(where, b.data, b.len, netrc, err);
	}
	if (!rc) {
		url_join(url, "index.json", where, sizeof(where));
		rc = fetch(where, &idxb, err);
		if (rc == -ENOENT) {
			ioa_buf_reset(err);
			idx = json_tokener_parse("{\"format\": 1, \"kernels\": []}");
			rc = 0;
		} else if (!rc) {
			idx = index_parse(&idxb, where, err);
			rc = idx ? 0 : -EINVAL;
		}
	}
	if (!rc) {
		index_put(idx, index_entry(meta));
		text = json_object_to_json_string_ext(idx, JSON_C_TO_STRING_PRETTY |
								   JSON_C_TO_STRING_NOSLASHESCAPE);
		rc = put(where, text, strlen(text), netrc, err);
	}
	json_object_put(idx);
	json_object_put(meta);
	ioa_buf_release(&b);
	ioa_buf_release(&idxb);
	return rc;
}
