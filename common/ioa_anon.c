/*
 * ioa_anon — keyed anonymization (see ioa_anon.h): HMAC-SHA256 of the
 * domain, a NUL and the bytes, under the site's key (libcrypto).
 */
#include "ioa_anon.h"

#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void mac(const struct ioa_anon *a, const char *domain, const void *bytes, size_t len,
		unsigned char digest[32])
{
	size_t dlen = strlen(domain) + 1;
	unsigned char *msg = malloc(dlen + len);
	unsigned int out = 32;

	/* Out of memory: all zeros, so that no input shows through. */
	memset(digest, 0, 32);
	if (!msg)
		return;
	memcpy(msg, domain, dlen);
	memcpy(msg + dlen, bytes, len);
	if (!HMAC(EVP_sha256(), a->key, (int)a->key_len, msg, dlen + len, digest, &out))
		memset(digest, 0, 32);
	OPENSSL_cleanse(msg, dlen + len);
	free(msg);
}

void ioa_anon_token(const struct ioa_anon *a, const char *domain, const void *bytes, size_t len,
		    char *out)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char digest[32];

	mac(a, domain, bytes, len, digest);
	out[0] = 't';
	for (int i = 0; i < 8; i++) {
		out[1 + 2 * i] = hex[digest[i] >> 4];
		out[2 + 2 * i] = hex[digest[i] & 15];
	}
	out[IOA_ANON_TOKEN] = '\0';
}

uint64_t ioa_anon_u64(const struct ioa_anon *a, const char *domain, const void *bytes, size_t len)
{
	unsigned char digest[32];
	uint64_t v = 0;

	mac(a, domain, bytes, len, digest);
	for (int i = 0; i < 8; i++)
		v = v << 8 | digest[i];
	return v;
}

int ioa_anon_path(const struct ioa_anon *a, const void *path, size_t len, struct ioa_buf *out)
{
	const char *p = path, *end = p + len;
	char token[IOA_ANON_TOKEN + 1];
	int rc = 0;

	while (p < end && !rc) {
		const char *slash = memchr(p, '/', (size_t)(end - p));
		const char *stop = slash ? slash : end;

		if (stop > p) {
			ioa_anon_token(a, "path", p, (size_t)(stop - p), token);
			rc = ioa_buf_add(out, token, IOA_ANON_TOKEN);
		}
		if (!rc && slash)
			rc = ioa_buf_add(out, "/", 1);
		p = stop + (slash != NULL);
	}
	return rc;
}

int ioa_anon_load_key(struct ioa_anon *a, const char *path, struct ioa_buf *err)
{
	struct stat st;
	ssize_t n;
	int fd;

	memset(a, 0, sizeof(*a));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		ioa_buf_addf(err, "cannot open the key file '%s': %s", path, strerror(errno));
		return -errno;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		ioa_buf_addf(err, "the key file '%s' is not a regular file", path);
		return -EINVAL;
	}
	if (st.st_mode & 077) {
		close(fd);
		ioa_buf_addf(err, "the key file '%s' is readable or writable by others (mode %03o): "
				  "the key is the site's secret (chmod 600)",
			     path, (unsigned)(st.st_mode & 0777));
		return -EPERM;
	}
	do
		n = read(fd, a->key, sizeof(a->key));
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(a->key)) {
		char more;

		if (read(fd, &more, 1) > 0)
			n = -2;
	}
	close(fd);
	if (n < IOA_ANON_KEY_MIN) {
		ioa_anon_clear(a);
		ioa_buf_addf(err, "the key file '%s' must hold %d to %d bytes", path,
			     IOA_ANON_KEY_MIN, IOA_ANON_KEY_MAX);
		return -EINVAL;
	}
	a->key_len = (size_t)n;
	return 0;
}

void ioa_anon_clear(struct ioa_anon *a)
{
	OPENSSL_cleanse(a, sizeof(*a));
}
