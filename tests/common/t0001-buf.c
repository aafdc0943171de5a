/*
 * t0001-buf — the capped growable buffer: content, growth, the cap, and
 * all-or-nothing appends when memory runs out; varints written into it
 * read back, and stop whole at the cap.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_buf.h"
#include "ioa_fault.h"
#include "ioa_logfmt.h"
#include "ioa_trace.h"
#include "tap.h"

static void test_empty(void)
{
	struct ioa_buf b = IOA_BUF_INIT(16);

	is_str(ioa_buf_str(&b), "", "a new buffer reads as the empty string");
	is_int(b.len, 0, "a new buffer holds no bytes");
	ioa_buf_release(&b);
	ok(b.data == NULL && b.cap == 16, "releasing an unused buffer keeps its cap");
}

static void test_appends(void)
{
	struct ioa_buf b;
	static const char binary[] = {'a', '\0', 'b', '\0'};

	ioa_buf_init(&b, 1024);
	is_int(ioa_buf_addstr(&b, "rank "), 0, "addstr succeeds");
	is_int(ioa_buf_addf(&b, "%d of %d", 3, 4), 0, "addf succeeds");
	is_int(ioa_buf_add(&b, "!", 1), 0, "add succeeds");
	is_str(ioa_buf_str(&b), "rank 3 of 4!", "appends concatenate");
	is_int(b.len, 12, "len counts the bytes, not the NUL");

	ioa_buf_reset(&b);
	is_str(ioa_buf_str(&b), "", "reset empties the content");
	ok(b.alloc > 0, "reset keeps the memory");

	is_int(ioa_buf_add(&b, binary, sizeof(binary)), 0, "binary bytes append");
	is_mem(b.data, b.len, binary, sizeof(binary), "embedded NULs are kept");
	is_int(b.data[b.len], 0, "binary content is followed by a NUL too");
	ioa_buf_release(&b);
}

static void test_growth(void)
{
	struct ioa_buf b = IOA_BUF_INIT(1 << 20);
	int i, all_ok = 1, content_ok = 1;

	for (i = 0; i < 50000; i++)
		all_ok &= ioa_buf_add(&b, "ab", 2) == 0;
	ok(all_ok, "50000 appends all succeed");
	is_int(b.len, 100000, "the length is the sum of the appends");
	for (i = 0; i < 100000; i++)
		content_ok &= b.data[i] == (i % 2 ? 'b' : 'a');
	ok(content_ok, "the content survives reallocation");
	ok(b.alloc <= 2 * (b.len + 1), "growth wastes at most half (alloc %zu for %zu bytes)",
	   b.alloc, b.len);
	ioa_buf_release(&b);
}

static void test_cap(void)
{
	struct ioa_buf b = IOA_BUF_INIT(8);

	is_int(ioa_buf_addstr(&b, "12345678"), 0, "filling up to the cap succeeds");
	is_int(b.alloc, 9, "the allocation stops at cap + NUL");
	is_int(ioa_buf_add(&b, "9", 1), -ENOBUFS, "one byte past the cap is refused");
	is_int(ioa_buf_addf(&b, "%d", 9), -ENOBUFS, "addf past the cap is refused");
	is_str(ioa_buf_str(&b), "12345678", "a refused append leaves the content alone");
	is_int(ioa_buf_grow(&b, SIZE_MAX), -ENOBUFS, "a size that would overflow is refused");
	ioa_buf_release(&b);

	ioa_buf_init(&b, SIZE_MAX);
	is_int(ioa_buf_grow(&b, SIZE_MAX - 1), -ENOBUFS,
	       "an uncapped buffer still refuses an impossible size");
	is_int(ioa_buf_addstr(&b, "x"), 0, "an uncapped buffer takes ordinary appends");
	ioa_buf_release(&b);
}

static void test_out_of_memory(void)
{
	struct ioa_buf b = IOA_BUF_INIT(1 << 20);
	char big[256];

	memset(big, 'x', sizeof(big));
	ioa_fault_arm("buf-alloc", 0);
	is_int(ioa_buf_addstr(&b, "a"), -ENOMEM, "the first allocation failing gives -ENOMEM");
	ok(b.data == NULL && b.len == 0, "and the buffer stays empty");
	ioa_fault_disarm();

	is_int(ioa_buf_addstr(&b, "kept"), 0, "appends work again once memory is back");
	ioa_fault_arm("buf-alloc", 0);
	is_int(ioa_buf_add(&b, big, sizeof(big)), -ENOMEM, "a failed regrowth gives -ENOMEM");
	is_str(ioa_buf_str(&b), "kept", "and keeps what the buffer held");
	is_int(ioa_buf_addf(&b, "%s", "also"), 0, "appends that fit need no allocation");
	ioa_fault_disarm();
	ioa_buf_release(&b);
}

static void test_detach(void)
{
	struct ioa_buf b = IOA_BUF_INIT(64);
	size_t len = 0;
	char *text;

	ok(ioa_buf_detach(&b, &len) == NULL && len == 0, "detaching an unused buffer gives NULL");
	ioa_buf_addstr(&b, "mine now");
	text = ioa_buf_detach(&b, &len);
	is_str(text, "mine now", "detach hands over the content");
	is_int(len, 8, "with its length");
	ok(b.data == NULL && b.len == 0 && b.cap == 64, "and leaves the buffer empty, cap kept");
	free(text);
}

/* Display form: what a terminal shows as text, never as a command. */
static void test_escaped(void)
{
	static const struct {
		const char *in, *out, *what;
	} cases[] = {
		{"a b/c", "a b/c", "printable text as it is"},
		{"\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9", "valid UTF-8 as it is"},
		{"l1\nl2\tx\\", "l1\\nl2\\tx\\\\", "newline, tab, backslash"},
		{"\x1b[2J\x07\r\x7f", "\\x1b[2J\\x07\\x0d\\x7f", "ESC, BEL, CR, DEL"},
		{"\xc2\x9b"
		 "2J\xc2\x85",
		 "\\xc2\\x9b"
		 "2J\\xc2\\x85",
		 "C1 controls in UTF-8 (CSI, NEL)"},
		{"\xc2\xa0", "\xc2\xa0", "the first character past them as it is"},
		{"\xff\xfe\xc0\xaf", "\\xff\\xfe\\xc0\\xaf",
		 "bytes that are not UTF-8, overlong forms"},
		{"\xe0\x80\xaf\xf0\x80\x80\xaf", "\\xe0\\x80\\xaf\\xf0\\x80\\x80\\xaf",
		 "overlong three- and four-byte forms"},
		{"\xed\xa0\x80\xed\xbf\xbf", "\\xed\\xa0\\x80\\xed\\xbf\\xbf", "UTF-16 surrogates"},
		{"\xf4\x90\x80\x80\xf5\x80\x80\x80", "\\xf4\\x90\\x80\\x80\\xf5\\x80\\x80\\x80",
		 "past U+10FFFF"},
		{"\xed\x9f\xbf\xef\xbf\xbd\xf0\x90\x80\x80\xf4\x8f\xbf\xbf",
		 "\xed\x9f\xbf\xef\xbf\xbd\xf0\x90\x80\x80\xf4\x8f\xbf\xbf",
		 "their valid neighbours as they are"},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ioa_buf b = IOA_BUF_INIT(256);

		ioa_buf_add_escaped(&b, cases[i].in, strlen(cases[i].in));
		is_str(ioa_buf_str(&b), cases[i].out, "display form: %s", cases[i].what);
		ioa_buf_release(&b);
	}
}

/* Varints of every length, signed and not, in place or grown into; at a cap, whole or not at all.
 */
static void test_varints(void)
{
	static const int64_t values[] = {0,	    1,	       -1,	  63,	    -64,
					 64,	    127,       128,	  16383,    16384,
					 INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN};
	const size_t n = sizeof(values) / sizeof(values[0]);
	struct ioa_buf b = IOA_BUF_INIT(4096), capped = IOA_BUF_INIT(20);
	struct ioa_cursor c;
	size_t i, whole = 0, last = 0;
	int rc = 0, same = 1;

	for (i = 0; i < n && !rc; i++) {
		rc = ioa_enc_uvar(&b, (uint64_t)values[i]);
		rc = rc ? rc : ioa_enc_svar(&b, values[i]);
	}
	is_int(rc, 0, "varints of 1 to 10 bytes are written");
	c = (struct ioa_cursor){(const unsigned char *)b.data, b.len, 0};
	for (i = 0; i < n; i++) {
		same &= ioa_cursor_uvar(&c) == (uint64_t)values[i];
		same &= ioa_cursor_svar(&c) == values[i];
	}
	ok(same && !c.overrun && c.left == 0, "and read back as they were, nothing after them");
	is_int(b.data[b.len], '\0', "the buffer stays terminated");
	/* 10-byte varints into a 20-byte cap: two fit, the third is refused and leaves nothing. */
	for (i = 0; i < 3; i++) {
		last = capped.len;
		rc = ioa_enc_uvar(&capped, UINT64_MAX);
		whole += rc == 0;
	}
	ok(whole == 2 && rc == -ENOBUFS && capped.len == last && last == 20,
	   "at the cap a varint is refused whole: %zu of 3 fit, %zu bytes held", whole, capped.len);
	ioa_buf_release(&b);
	ioa_buf_release(&capped);
}

int main(void)
{
	test_empty();
	test_appends();
	test_growth();
	test_cap();
	test_out_of_memory();
	test_detach();
	test_escaped();
	test_varints();
	return tap_done();
}
