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
