/*
 * ioa_buf — capped growable buffer used by the tools to assemble messages,
 * SQL parameters, HTML and decompressed regions.  Growth doubles the
 * allocation up to the cap, so appends are amortised O(1) and a buffer never
 * holds more than twice what it needs.
 */
#include "ioa_buf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_fault.h"

void ioa_buf_init(struct ioa_buf *b, size_t cap)
{
	struct ioa_buf empty = IOA_BUF_INIT(cap);

	*b = empty;
}

void ioa_buf_release(struct ioa_buf *b)
{
	free(b->data);
	ioa_buf_init(b, b->cap);
}

void ioa_buf_reset(struct ioa_buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

int ioa_buf_grow(struct ioa_buf *b, size_t extra)
{
	size_t want, alloc;
	char *data;

	/* Past SIZE_MAX / 4 no allocation could succeed anyway; stopping there
	 * keeps the doubling below free of overflow. */
	if (extra > b->cap || b->len > b->cap - extra || b->len + extra > SIZE_MAX / 4)
		return -ENOBUFS;
	want = b->len + extra + 1;
	if (want <= b->alloc)
		return 0;

	alloc = b->alloc ? b->alloc : 64;
	while (alloc < want)
		alloc *= 2;
	if (alloc > b->cap + 1 && b->cap < SIZE_MAX / 4)
		alloc = b->cap + 1;

	data = IOA_FAULT("buf-alloc") ? NULL : realloc(b->data, alloc);
	if (!data)
		return -ENOMEM;
	if (!b->data)
		data[0] = '\0';
	b->data = data;
	b->alloc = alloc;
	return 0;
}

int ioa_buf_add(struct ioa_buf *b, const void *bytes, size_t n)
{
	int rc = ioa_buf_grow(b, n);

	if (rc)
		return rc;
	if (n)
		memcpy(b->data + b->len, bytes, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

int ioa_buf_addstr(struct ioa_buf *b, const char *s)
{
	return ioa_buf_add(b, s, strlen(s));
}

int ioa_buf_addf(struct ioa_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n, rc;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;

	rc = ioa_buf_grow(b, (size_t)n);
	if (rc)
		return rc;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

const char *ioa_buf_str(const struct ioa_buf *b)
{
	return b->data ? b->data : "";
}

char *ioa_buf_detach(struct ioa_buf *b, size_t *len)
{
	char *data = b->data;

	if (len)
		*len = b->len;
	ioa_buf_init(b, b->cap);
	return data;
}

int ioa_buf_add_escaped(struct ioa_buf *b, const void *bytes, size_t len)
{
	const unsigned char *s = bytes;
	size_t i = 0;
	int rc = 0;

	while (i < len && !rc) {
		unsigned char ch = s[i];
		size_t seq = ch < 0x80		   ? 1
			     : (ch & 0xe0) == 0xc0 ? 2
			     : (ch & 0xf0) == 0xe0 ? 3
			     : (ch & 0xf8) == 0xf0 ? 4
						   : 0;
		size_t k;

		if (ch == '\n')
			rc = ioa_buf_addstr(b, "\\n");
		else if (ch == '\t')
			rc = ioa_buf_addstr(b, "\\t");
		else if (ch == '\\')
			rc = ioa_buf_addstr(b, "\\\\");
		else if (ch < 0x20 || ch == 0x7f)
			rc = ioa_buf_addf(b, "\\x%02x", ch);
		if (ch < 0x80 &&
		    (ch == '\n' || ch == '\t' || ch == '\\' || ch < 0x20 || ch == 0x7f)) {
			i++;
			continue;
		}
		for (k = 1; seq > 1 && k < seq; k++)
			if (i + k >= len || (s[i + k] & 0xc0) != 0x80)
				seq = 0;
		if (seq == 2 && ch < 0xc2)
			seq = 0; /* overlong */
		/*
		 * Overlong three- and four-byte forms, UTF-16 surrogates and code
		 * points past U+10FFFF are no UTF-8 either (PostgreSQL refuses
		 * them in text, which would fail a log's ingest).
		 */
		if ((seq == 3 &&
		     ((ch == 0xe0 && s[i + 1] < 0xa0) || (ch == 0xed && s[i + 1] > 0x9f))) ||
		    (seq == 4 && ((ch == 0xf0 && s[i + 1] < 0x90) ||
				  (ch == 0xf4 && s[i + 1] > 0x8f) || ch > 0xf4)))
			seq = 0;
		if (!seq) {
			rc = ioa_buf_addf(b, "\\x%02x", ch);
			i++;
			continue;
		}
		/* C1 controls (U+0080 to U+009F): some terminals take U+009B as ESC [. */
		if (seq == 2 && ch == 0xc2 && s[i + 1] < 0xa0) {
			rc = ioa_buf_addf(b, "\\x%02x\\x%02x", ch, s[i + 1]);
			i += 2;
			continue;
		}
		rc = ioa_buf_add(b, s + i, seq);
		i += seq;
	}
	return rc;
}
