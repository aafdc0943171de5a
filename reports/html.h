/*
 * html — what the reports' pages share: output that remembers a failed
 * write, escaping, the page's head (styles, and a Content-Security-Policy
 * that forbids any network request) and foot, byte counts for people,
 * horizontal bar charts in SVG.
 */
#ifndef HTML_H
#define HTML_H

#include <stddef.h>
#include <stdio.h>

struct html {
	FILE *out;
	int failed; /* a write failed (a full disk): the page is not whole */
};

void html_put(struct html *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Text for HTML content and attribute values alike. */
void html_esc(struct html *p, const char *s);

/* The head, up to and with <body>; title is text (escaped here). */
void html_begin(struct html *p, const char *title);

/* The foot, with the page's script (our own, or NULL); 0, or -EIO if a write failed. */
int html_end(struct html *p, const char *script);

/*
 * An <svg> of width x height user units, with its viewBox: it shrinks with
 * its container (a laptop's narrow window, a printed page) rather than
 * being cut.  cls: its class, or NULL.
 */
void html_svg(struct html *p, double width, double height, const char *cls);

/* 1536 -> "1.5 KiB" */
const char *html_bytes(double v, char *buf, size_t len);

/* Horizontal bars: labels (text) and values, the longest bar the widest. */
void html_hbars(struct html *p, const char *const *labels, const double *v, size_t n, int as_bytes,
		const char *color);

#endif
