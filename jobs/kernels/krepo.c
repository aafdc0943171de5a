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
#include <math.h>
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
#include "kgen.h"

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

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A transfer of url within t's times, or NULL with err set (libcurl
 * failing, or the command's time spent); *budget_s: the time it may take.
 */
static CURL *easy(const char *url, struct krepo_transfer *t, double *budget_s, struct ioa_buf *err)
{
	static const struct krepo_transfer defaults = KREPO_TRANSFER_INIT;
	CURL *c;

	if (!t->_deadline)
		t->_deadline = now_s() + t->timeout_s;
	*budget_s = t->_deadline - now_s();
	if (*budget_s <= 0) {
		ioa_buf_reset(err);
		ioa_buf_addf(err, "%s: not fetched: the transfers took their %g s", url,
			     t->timeout_s);
		return NULL;
	}
	if (!(c = curl_easy_init())) {
		ioa_buf_addstr(err, "cannot start a transfer (libcurl)");
		return NULL;
	}
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "file,http,https");
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
	curl_easy_setopt(c, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
			 (long)(1000 * (t->connect_timeout_s > 0 ? t->connect_timeout_s
								 : defaults.connect_timeout_s)));
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)ceil(1000 * *budget_s));
	/* A server that sends its headers and then nothing is not waited for. */
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, (long)KREPO_STALL_BYTES_PER_S);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME,
			 (long)ceil(t->stall_timeout_s >= 1 ? t->stall_timeout_s : 1));
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	return c;
}

/* err = why transfer c of url failed with code; the server's own words are never quoted. */
static void transfer_error(CURL *c, CURLcode code, const char *url, const struct krepo_transfer *t,
			   double budget_s, struct ioa_buf *err)
{
	double connected = 0, took = 0;
	long status = 0;

	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_getinfo(c, CURLINFO_CONNECT_TIME, &connected);
	curl_easy_getinfo(c, CURLINFO_TOTAL_TIME, &took);
	ioa_buf_reset(err);
	if (status >= 400)
		ioa_buf_addf(err, "%s: the server answered HTTP %ld%s", url, status,
			     status == 401 || status == 403 ? " (credentials: the netrc file)"
							    : "");
	else if (code == CURLE_OPERATION_TIMEDOUT && connected <= 0)
		ioa_buf_addf(err, "%s: no connection within %g s", url, t->connect_timeout_s);
	else if (code == CURLE_OPERATION_TIMEDOUT && took + 0.5 < budget_s)
		ioa_buf_addf(err,
			     "%s: the transfer stalled (under %d bytes/s for %g s: "
			     "kernel.stall_timeout)",
			     url, KREPO_STALL_BYTES_PER_S,
			     ceil(t->stall_timeout_s >= 1 ? t->stall_timeout_s : 1));
	else if (code == CURLE_OPERATION_TIMEDOUT)
		ioa_buf_addf(err, "%s: the transfers took longer than %g s", url, t->timeout_s);
	else
		ioa_buf_addf(err, "%s: %s", url, curl_easy_strerror(code));
}

/*
 * Fetches url into out, at most cap bytes: a longer answer is cut off and
 * refused ("URL: refused: <too_big> (CAP bytes)").  0, or -ENOENT (not
 * there), -EFBIG (too big), -EIO, with err set.
 */
static int fetch(const char *url, struct ioa_buf *out, size_t cap, const char *too_big,
		 struct krepo_transfer *t, struct ioa_buf *err)
{
	struct sink s = {out, 0};
	double budget_s;
	CURL *c = easy(url, t, &budget_s, err);
	CURLcode code;

	ioa_buf_release(out);
	ioa_buf_init(out, cap);
	if (!c)
		return -EIO;
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &s);
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)cap);
	code = curl_easy_perform(c);
	if (code != CURLE_OK && (s.over || code == CURLE_FILESIZE_EXCEEDED)) {
		ioa_buf_reset(err);
		ioa_buf_addf(err, "%s: refused: %s (%zu bytes)", url, too_big, cap);
	} else if (code != CURLE_OK) {
		transfer_error(c, code, url, t, budget_s, err);
	}
	curl_easy_cleanup(c);
	if (code == CURLE_OK)
		return 0;
	if (s.over || code == CURLE_FILESIZE_EXCEEDED)
		return -EFBIG;
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
	       struct krepo_transfer *t, struct ioa_buf *err)
{
	struct source s = {data, len};
	double budget_s;
	CURL *c = easy(url, t, &budget_s, err);
	CURLcode code;

	if (!c)
		return -EIO;
	curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(c, CURLOPT_READFUNCTION, on_send);
	curl_easy_setopt(c, CURLOPT_READDATA, &s);
	curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)len);
	curl_easy_setopt(c, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
	if (netrc)
		curl_easy_setopt(c, CURLOPT_NETRC_FILE, netrc);
	code = curl_easy_perform(c);
	if (code != CURLE_OK)
		transfer_error(c, code, url, t, budget_s, err);
	curl_easy_cleanup(c);
	return code == CURLE_OK ? 0 : -EIO;
}

/* ------------------------------------------------------------ the index */

/* Replaces name@version's entry of the index with entry (or adds it). */
static void index_put(json_object *idx, json_object *entry)
{
	json_object *list = json_object_object_get(idx, "kernels");
	size_t i;

	for (i = 0; i < json_object_array_length(list); i++) {
		json_object *k = json_object_array_get_idx(list, i);

		if (!strcmp(kpkg_str(k, "name"), kpkg_str(entry, "name")) &&
		    !strcmp(kpkg_str(k, "version"), kpkg_str(entry, "version"))) {
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

	pathf(path, sizeof(path), "kernels/%s/%s/", kpkg_str(meta, "name"),
	      kpkg_str(meta, "version"));
	json_object_object_add(e, "name", json_object_new_string(kpkg_str(meta, "name")));
	json_object_object_add(e, "version", json_object_new_string(kpkg_str(meta, "version")));
	json_object_object_add(e, "path", json_object_new_string(path));
	json_object_object_add(e, "ranks",
			       json_object_get(json_object_object_get(
				       json_object_object_get(meta, "provenance"), "ranks")));
	json_object_object_add(e, "published", json_object_new_string(kpkg_str(meta, "published")));
	json_object_object_add(e, "io", json_object_get(json_object_object_get(meta, "io")));
	return e;
}

/* Adds meta's kernel to the local repository's index, under the repository's lock. */
static int index_add_local(const char *repo, json_object *meta, struct ioa_buf *err)
{
	char lock[PATH_MAX], path[PATH_MAX];
	struct ioa_buf b = IOA_BUF_INIT(KPKG_INDEX_MAX);
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
	if (rc && rc != -ENOENT)
		ioa_buf_addf(err, "%s: %s", path,
			     rc == -ENOBUFS ? "larger than an index may be" : strerror(-rc));
	idx = rc == -ENOENT ? json_tokener_parse("{\"format\": 1, \"kernels\": []}")
	      : rc	    ? NULL
			    : kpkg_index_parse(b.data, b.len, path, err);
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
	struct ioa_buf b = IOA_BUF_INIT(KPKG_BYTES_MAX);
	char src[PATH_MAX], dst[PATH_MAX], hex[65];
	size_t i, used = 0, bytes = 0;
	int rc = 0;

	for (i = 0; i < sizeof(kernel_files) / sizeof(kernel_files[0]) && !rc; i++) {
		json_object *f = json_object_new_object();

		pathf(src, sizeof(src), "%s/%s", from, kernel_files[i]);
		pathf(dst, sizeof(dst), "%s/%s", to_dir, kernel_files[i]);
		/* No larger than a pull takes: what is published can be pulled. */
		ioa_buf_release(&b);
		ioa_buf_init(&b, KPKG_BYTES_MAX - bytes);
		rc = read_file(src, &b);
		bytes += b.len;
		rc = rc ? rc : write_whole(dst, b.data, b.len);
		if (rc) {
			if (rc == -ENOBUFS)
				ioa_buf_addf(err,
					     "%s: the kernel's files are larger than a package "
					     "may be (%zu bytes)",
					     src, KPKG_BYTES_MAX);
			else
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

	if (!kpkg_safe_name(name) || !kpkg_safe_name(version)) {
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
	} else if (!rc && res.skipped) {
		ioa_buf_addf(err, "the kernel leaves calls of its job out: not published");
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
	json_object_object_add(val, "bytes_scale",
			       json_object_new_double(vo->bytes_scale > 0 ? vo->bytes_scale : 1));
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

int krepo_list(const char *url, const char *term, struct krepo_transfer *t, FILE *out,
	       struct ioa_buf *err)
{
	struct krepo_transfer defaults = KREPO_TRANSFER_INIT;
	/* A line is at most the index, each byte shown as \xNN. */
	struct ioa_buf b = IOA_BUF_INIT(KPKG_INDEX_MAX), line = IOA_BUF_INIT(4 * KPKG_INDEX_MAX);
	char where[4096];
	json_object *idx, *list;
	size_t i;
	int rc;

	url_join(url, "index.json", where, sizeof(where));
	rc = fetch(where, &b, KPKG_INDEX_MAX, "larger than an index may be", t ? t : &defaults,
		   err);
	idx = rc ? NULL : kpkg_index_parse(b.data, b.len, where, err);
	if (!rc && !idx)
		rc = -EINVAL;
	list = idx ? json_object_object_get(idx, "kernels") : NULL;
	for (i = 0; list && i < json_object_array_length(list) && !rc; i++) {
		json_object *k = json_object_array_get_idx(list, i);

		if (term && !strstr(kpkg_str(k, "name"), term))
			continue;
		ioa_buf_reset(&line);
		rc = kpkg_entry_line(k, &line);
		if (!rc && fwrite(line.data, 1, line.len, out) != line.len)
			rc = -EIO;
		if (rc)
			ioa_buf_addf(err, "cannot show %s: %s", where, strerror(-rc));
	}
	json_object_put(idx);
	ioa_buf_release(&line);
	ioa_buf_release(&b);
	return rc;
}

/* Removes the pull's folder aside and what p says may be in it. */
static void pull_undo(const char *tmp, const struct kpkg *p)
{
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < p->nfiles; i++)
		if (!pathf(path, sizeof(path), "%s/%s", tmp, p->files[i].name))
			unlink(path);
	if (!pathf(path, sizeof(path), "%s/meta.json", tmp))
		unlink(path);
	rmdir(tmp);
}

/* Fetches file f of the package at rel into the folder tmp, checked against f. */
static int pull_file(const char *url, const char *rel, const struct kpkg_file *f, const char *tmp,
		     struct krepo_transfer *t, struct ioa_buf *b, struct ioa_buf *err)
{
	char path[PATH_MAX], where[4096], hex[65];
	int rc;

	if (pathf(path, sizeof(path), "%s%s", rel, f->name))
		return -ENAMETOOLONG;
	url_join(url, path, where, sizeof(where));
	/* Never more than meta.json said (and kpkg bounded what it may say). */
	rc = fetch(where, b, f->size, "larger than meta.json says", t, err);
	if (rc)
		return rc;
	if (b->len != f->size) {
		ioa_buf_addf(err, "%s: refused: %zu bytes, meta.json says %zu", where, b->len,
			     f->size);
		return -EBADMSG;
	}
	sha256_hex(b->data, b->len, hex);
	if (strcmp(hex, f->sha256)) {
		ioa_buf_addf(err, "%s: checksum mismatch (SHA-256 %s, the repository says %s)",
			     where, hex, f->sha256);
		return -EBADMSG;
	}
	if (pathf(path, sizeof(path), "%s/%s", tmp, f->name))
		return -ENAMETOOLONG;
	rc = write_whole(path, b->data, b->len);
	if (rc)
		ioa_buf_addf(err, "%s: %s", path, strerror(-rc));
	return rc;
}

int krepo_pull(const char *url, const char *spec, const char *dir, struct krepo_transfer *t,
	       struct ioa_buf *err)
{
	struct krepo_transfer defaults = KREPO_TRANSFER_INIT;
	struct ioa_buf b = IOA_BUF_INIT(KPKG_INDEX_MAX);
	struct kpkg pkg = KPKG_INIT;
	char name[256], *at, where[4096], rel[1024], tmp[PATH_MAX], path[PATH_MAX];
	const char *version = NULL;
	json_object *idx = NULL, *k = NULL;
	size_t i;
	int rc, made = 0;

	t = t ? t : &defaults;
	pathf(name, sizeof(name), "%s", spec);
	if ((at = strchr(name, '@'))) {
		*at = '\0';
		version = at + 1;
	}
	if (!kpkg_safe_name(name) || (version && !kpkg_safe_name(version))) {
		ioa_buf_addf(err, "'%s': not a kernel name[@version]", spec);
		return -EINVAL;
	}
	if (!access(dir, F_OK)) {
		ioa_buf_addf(err, "%s exists: a pull goes into a new folder", dir);
		return -EEXIST;
	}
	url_join(url, "index.json", where, sizeof(where));
	rc = fetch(where, &b, KPKG_INDEX_MAX, "larger than an index may be", t, err);
	idx = rc ? NULL : kpkg_index_parse(b.data, b.len, where, err);
	if (!rc && !idx)
		rc = -EINVAL;
	k = idx ? kpkg_index_find(idx, name, version) : NULL;
	if (!rc && !k) {
		ioa_buf_addf(err, "no kernel %s%s%s in %s", name, version ? "@" : "",
			     version ? version : "", url);
		rc = -ENOENT;
	}
	/* The kernel's folder is where the index says, if that is where it must be. */
	rc = rc ? rc : kpkg_entry_folder(k, name, rel, sizeof(rel), url, err);
	if (!rc) {
		url_join(url, rel, where, sizeof(where));
		strncat(where, "meta.json", sizeof(where) - strlen(where) - 1);
		rc = fetch(where, &b, KPKG_META_MAX, "larger than a meta.json may be", t, err);
		rc = rc ? rc
			: kpkg_parse(&pkg, b.data, b.len, name, kpkg_str(k, "version"), where, err);
	}
	/* Everything into a folder beside the target, renamed into place once checked. */
	if (!rc) {
		rc = pathf(tmp, sizeof(tmp), "%s.XXXXXX", dir);
		rc = rc ? rc : mkdtemp(tmp) ? 0 : -errno;
		made = !rc;
		if (rc)
			ioa_buf_addf(err, "cannot make a folder beside %s: %s", dir, strerror(-rc));
	}
	for (i = 0; !rc && i < pkg.nfiles; i++)
		rc = pull_file(url, rel, &pkg.files[i], tmp, t, &b, err);
	if (!rc) {
		const char *text = json_object_to_json_string_ext(
			pkg.meta, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);

		pathf(path, sizeof(path), "%s/meta.json", tmp);
		rc = write_whole(path, text, strlen(text));
		if (rc)
			ioa_buf_addf(err, "%s: %s", path, strerror(-rc));
	}
	if (!rc && (chmod(tmp, 0755) || rename(tmp, dir))) {
		rc = -errno;
		ioa_buf_addf(err, "cannot move the kernel into %s: %s", dir, strerror(-rc));
	}
	if (rc && made)
		pull_undo(tmp, &pkg);
	kpkg_release(&pkg);
	json_object_put(idx);
	ioa_buf_release(&b);
	return rc;
}

/* Copies the package p of dir into the repository tree root (file://). */
static int push_local(const char *dir, const char *root, const struct kpkg *p, const char *rel,
		      struct ioa_buf *b, struct ioa_buf *err)
{
	char path[PATH_MAX], final[PATH_MAX], src[PATH_MAX], dst[PATH_MAX];
	size_t i;
	int rc = 0;

	pathf(final, sizeof(final), "%s/%s", root, rel);
	pathf(path, sizeof(path), "%s/kernels", root);
	if ((mkdir(root, 0755) && errno != EEXIST) || (mkdir(path, 0755) && errno != EEXIST))
		rc = -errno;
	pathf(path, sizeof(path), "%s/kernels/%s", root, kpkg_str(p->meta, "name"));
	if (!rc && mkdir(path, 0755) && errno != EEXIST)
		rc = -errno;
	if (!rc && mkdir(final, 0755) && errno != EEXIST)
		rc = -errno;
	for (i = 0; !rc && i < p->nfiles + 1; i++) {
		const char *f = i < p->nfiles ? p->files[i].name : "meta.json";

		pathf(src, sizeof(src), "%s/%s", dir, f);
		pathf(dst, sizeof(dst), "%s%s", final, f);
		rc = read_file(src, b);
		rc = rc ? rc : write_whole(dst, b->data, b->len);
	}
	if (rc)
		ioa_buf_addf(err, "cannot copy the kernel into %s: %s", final, strerror(-rc));
	return rc;
}

/* What anonymize_name() needs: the source, what is copied of it so far, the output. */
struct anon_src {
	const char *src;
	size_t done;
	const struct ioa_anon *anon;
	struct ioa_buf *out;
};

/* f<N> and the standard streams say nothing of the job: they stay. */
static int telling_name(const struct ioa_buf *name)
{
	const char *t = ioa_buf_str(name);

	return !(name->len > 1 && t[0] == 'f' && strspn(t + 1, "0123456789") == name->len - 1) &&
	       strcmp(t, "<STDOUT>") && strcmp(t, "<STDERR>") && strcmp(t, "<STDIN>");
}

static int anonymize_name(size_t index, const struct ioa_buf *name, size_t line_off,
			  size_t line_len, void *arg)
{
	struct anon_src *a = arg;
	int rc;

	(void)index;
	if (!telling_name(name))
		return 0;
	rc = ioa_buf_add(a->out, a->src + a->done, line_off - a->done);
	rc = rc ? rc : ioa_buf_addstr(a->out, "\t\"");
	rc = rc ? rc : ioa_anon_path(a->anon, name->data, name->len, a->out);
	rc = rc ? rc : ioa_buf_addstr(a->out, "\",");
	a->done = line_off + line_len;
	return rc;
}

/*
 * kernel.c with the names of its files anonymized: a name of the job's
 * (--keep-names) becomes its path token, as an anonymized export gives it.
 */
static int anonymize_source(const struct ioa_buf *in, const struct ioa_anon *anon,
			    struct ioa_buf *out)
{
	struct anon_src a = {in->data, 0, anon, out};
	int rc;

	ioa_buf_reset(out);
	rc = kgen_each_name(in->data, in->len, anonymize_name, &a);
	return rc ? rc : ioa_buf_add(out, in->data + a.done, in->len - a.done);
}

/*
 * The published kernel in dir, anonymized into a new folder tmp (made
 * here, mode 0700): kernel.c's names, meta.json's name and job log, the
 * files' checksums and sizes made again.
 */
static int anonymized_copy(const char *dir, const struct kpkg *p, const struct ioa_anon *anon,
			   char *tmp, size_t tmp_len, struct ioa_buf *err)
{
	const char *tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	struct ioa_buf in = IOA_BUF_INIT(KPKG_BYTES_MAX), out = IOA_BUF_INIT(KPKG_BYTES_MAX);
	json_object *meta = NULL, *files = json_object_new_array(), *prov;
	char path[PATH_MAX], hex[65], token[IOA_ANON_TOKEN + 1];
	const char *name = kpkg_str(p->meta, "name"), *text;
	int rc = 0;

	pathf(tmp, tmp_len, "%s/ioatlas-push.XXXXXX", tmpdir);
	if (!mkdtemp(tmp)) {
		ioa_buf_addf(err, "cannot make a folder in %s: %s", tmpdir, strerror(errno));
		json_object_put(files);
		return -errno;
	}
	for (size_t i = 0; !rc && i < p->nfiles; i++) {
		const char *f = p->files[i].name;
		const struct ioa_buf *b = &in;
		json_object *entry = json_object_new_object();

		pathf(path, sizeof(path), "%s/%s", dir, f);
		rc = read_file(path, &in);
		if (!rc && !strcmp(f, "kernel.c")) {
			rc = anonymize_source(&in, anon, &out);
			if (rc == -EINVAL)
				ioa_buf_addf(err, "%s: not a kernel ioatlas made (no names table)",
					     path);
			b = &out;
		}
		pathf(path, sizeof(path), "%s/%s", tmp, f);
		rc = rc ? rc : write_whole(path, b->data, b->len);
		sha256_hex(b->data, b->len, hex);
		json_object_object_add(entry, "name", json_object_new_string(f));
		json_object_object_add(entry, "sha256", json_object_new_string(hex));
		json_object_object_add(entry, "size", json_object_new_int64((int64_t)b->len));
		json_object_array_add(files, entry);
	}
	if (!rc) {
		meta = json_tokener_parse(json_object_to_json_string(p->meta));
		rc = meta ? 0 : -ENOMEM;
	}
	if (!rc) {
		ioa_anon_token(anon, "kernel", name, strlen(name), token);
		json_object_object_add(meta, "name", json_object_new_string(token));
		prov = json_object_object_get(meta, "provenance");
		if (json_object_is_type(prov, json_type_object) &&
		    json_object_object_get(prov, "job_log")) {
			const char *log = kpkg_str(prov, "job_log");

			ioa_anon_token(anon, "log", log, strlen(log), token);
			json_object_object_add(prov, "job_log", json_object_new_string(token));
		}
		json_object_object_add(meta, "files", files);
		files = NULL;
		text = json_object_to_json_string_ext(meta, JSON_C_TO_STRING_PRETTY |
								    JSON_C_TO_STRING_NOSLASHESCAPE);
		pathf(path, sizeof(path), "%s/meta.json", tmp);
		rc = write_whole(path, text, strlen(text));
	}
	if (rc && !err->len)
		ioa_buf_addf(err, "cannot anonymize %s: %s", dir, strerror(-rc));
	json_object_put(files);
	json_object_put(meta);
	ioa_buf_release(&in);
	ioa_buf_release(&out);
	return rc;
}

/* A folder anonymized_copy() made, and what is in it. */
static void remove_copy(const char *tmp, const struct kpkg *p)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < p->nfiles; i++) {
		pathf(path, sizeof(path), "%s/%s", tmp, p->files[i].name);
		unlink(path);
	}
	pathf(path, sizeof(path), "%s/meta.json", tmp);
	unlink(path);
	rmdir(tmp);
}

int krepo_push(const char *dir, const char *url, const char *netrc, const struct ioa_anon *anon,
	       struct krepo_transfer *t, struct ioa_buf *err)
{
	struct krepo_transfer defaults = KREPO_TRANSFER_INIT;
	struct ioa_buf b = IOA_BUF_INIT(KPKG_META_MAX), idxb = IOA_BUF_INIT(KPKG_INDEX_MAX);
	struct kpkg pkg = KPKG_INIT;
	char path[PATH_MAX], where[4096], rel[1024];
	json_object *idx = NULL;
	const char *text;
	size_t i;
	int rc = 0;

	t = t ? t : &defaults;
	pathf(path, sizeof(path), "%s/meta.json", dir);
	rc = read_file(path, &b);
	if (rc)
		ioa_buf_addf(err, "%s: %s", path,
			     rc == -ENOBUFS ? "larger than a meta.json may be" : strerror(-rc));
	rc = rc ? rc : kpkg_parse(&pkg, b.data, b.len, NULL, NULL, path, err);
	if (!rc && (!kpkg_safe_name(kpkg_str(pkg.meta, "name")) ||
		    !kpkg_safe_name(kpkg_str(pkg.meta, "version")))) {
		ioa_buf_addf(err, "%s: not a published kernel (meta.json)", dir);
		rc = -EINVAL;
	}
	if (rc) {
		kpkg_release(&pkg);
		ioa_buf_release(&b);
		return rc;
	}
	if (anon) {
		char tmp[PATH_MAX];

		ioa_buf_release(&b);
		rc = anonymized_copy(dir, &pkg, anon, tmp, sizeof(tmp), err);
		rc = rc ? rc : krepo_push(tmp, url, netrc, NULL, t, err);
		remove_copy(tmp, &pkg);
		kpkg_release(&pkg);
		return rc;
	}
	pathf(rel, sizeof(rel), "kernels/%s/%s/", kpkg_str(pkg.meta, "name"),
	      kpkg_str(pkg.meta, "version"));
	ioa_buf_release(&b);
	ioa_buf_init(&b, KPKG_BYTES_MAX);
	if (!strncmp(url, "file://", 7)) {
		char root[PATH_MAX];

		pathf(root, sizeof(root), "%s", url + 7);
		rc = push_local(dir, root, &pkg, rel, &b, err);
		rc = rc ? rc : index_add_local(root, pkg.meta, err);
		kpkg_release(&pkg);
		ioa_buf_release(&b);
		return rc;
	}
	/* A web repository: the files, then the index with the kernel added. */
	for (i = 0; !rc && i < pkg.nfiles + 1; i++) {
		const char *f = i < pkg.nfiles ? pkg.files[i].name : "meta.json";
		char rel_file[1200];

		pathf(path, sizeof(path), "%s/%s", dir, f);
		rc = read_file(path, &b);
		if (rc) {
			ioa_buf_addf(err, "%s: %s", path, strerror(-rc));
			break;
		}
		pathf(rel_file, sizeof(rel_file), "%s%s", rel, f);
		url_join(url, rel_file, where, sizeof(where));
		rc = put(where, b.data, b.len, netrc, t, err);
	}
	if (!rc) {
		url_join(url, "index.json", where, sizeof(where));
		rc = fetch(where, &idxb, KPKG_INDEX_MAX, "larger than an index may be", t, err);
		if (rc == -ENOENT) {
			ioa_buf_reset(err);
			idx = json_tokener_parse("{\"format\": 1, \"kernels\": []}");
			rc = 0;
		} else if (!rc) {
			idx = kpkg_index_parse(idxb.data, idxb.len, where, err);
			rc = idx ? 0 : -EINVAL;
		}
	}
	if (!rc) {
		index_put(idx, index_entry(pkg.meta));
		text = json_object_to_json_string_ext(idx, JSON_C_TO_STRING_PRETTY |
								   JSON_C_TO_STRING_NOSLASHESCAPE);
		rc = put(where, text, strlen(text), netrc, t, err);
	}
	json_object_put(idx);
	kpkg_release(&pkg);
	ioa_buf_release(&b);
	ioa_buf_release(&idxb);
	return rc;
}
