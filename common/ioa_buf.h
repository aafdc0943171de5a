/*
 * ioa_buf — a growable byte buffer with a hard cap.
 *
 * Input never decides alone how much memory a tool takes: every buffer is
 * given a cap when it is set up, and an append that would pass it fails with
 * -ENOBUFS.  A failed append (cap, or -ENOMEM) leaves the buffer exactly as it
 * was, so the caller can report and carry on.
 *
 * The bytes are always followed by a NUL that is not counted in len, so text
 * can be read with ioa_buf_str(); binary content may hold NULs of its own.
 *
 *	struct ioa_buf b = IOA_BUF_INIT(64 * 1024);
 *	rc = ioa_buf_addf(&b, "rank %d", rank);
 *	...
 *	ioa_buf_release(&b);
 *
 * Not thread-safe: a buffer belongs to one thread at a time.
 */
#ifndef IOA_BUF_H
#define IOA_BUF_H

#include <stddef.h>

#include "ioa_compiler.h"

struct ioa_buf {
	char *data;   /* NULL until the first append */
	size_t len;   /* bytes held, not counting the trailing NUL */
	size_t alloc; /* bytes allocated for data, trailing NUL included */
	size_t cap;   /* most bytes len may reach */
};

#define IOA_BUF_INIT(cap_bytes)                                        \
	{                                                              \
		.data = NULL, .len = 0, .alloc = 0, .cap = (cap_bytes) \
	}

void ioa_buf_init(struct ioa_buf *b, size_t cap);

/* Frees the memory; the buffer is empty again and may be reused. */
void ioa_buf_release(struct ioa_buf *b);

/* Forgets the content but keeps the memory for reuse. */
void ioa_buf_reset(struct ioa_buf *b);

/* Makes room for extra more bytes.  0, -ENOBUFS (cap) or -ENOMEM. */
int ioa_buf_grow(struct ioa_buf *b, size_t extra);

/* Appends; each returns 0, -ENOBUFS or -ENOMEM and is all-or-nothing. */
int ioa_buf_add(struct ioa_buf *b, const void *bytes, size_t n);
int ioa_buf_addstr(struct ioa_buf *b, const char *s);
int ioa_buf_addf(struct ioa_buf *b, const char *fmt, ...) IOA_PRINTF(2, 3);

/*
 * Appends bytes (a file name, say) in display form: newline, tab and
 * backslash as \n, \t, \\; other control bytes, C1 controls (U+0080 to
 * U+009F, as their two bytes) and bytes that are not valid UTF-8 as \xNN.
 * The result is one line of valid UTF-8 that no terminal takes as a command.
 */
int ioa_buf_add_escaped(struct ioa_buf *b, const void *bytes, size_t len);

/* The content as a C string; "" for a buffer never written. */
const char *ioa_buf_str(const struct ioa_buf *b);

/*
 * Hands the content to the caller, who frees it with free(); *len (if not
 * NULL) receives its length.  The buffer is left empty.  Returns NULL for a
 * buffer that never allocated.
 */
char *ioa_buf_detach(struct ioa_buf *b, size_t *len);

#endif
