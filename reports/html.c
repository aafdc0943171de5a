/*
 * html — the reports' shared page parts (see html.h).
 */
#include "html.h"

#include "ioa_parse.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

static const char style[] =
	"body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1180px;padding:0 16px "
	"40px;color:#1d2330}"
	"h1{font-size:22px;margin:18px 0 4px}h2{font-size:18px;border-bottom:1px solid "
	"#ccd;padding-bottom:3px;margin-top:30px}"
	"table{border-collapse:collapse;margin:8px 0}td,th{padding:2px 8px;text-align:left;"
	"vertical-align:top}"
	"th{background:#eef;cursor:default}table.facts td:first-child{color:#556}"
	"td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
	"table.files{font-size:12px}table.files th{cursor:pointer}"
	"tr:nth-child(even) td{background:#f7f7fb}"
	".banner{background:#fff3cd;border:1px solid #e0c060;padding:8px 12px;margin:12px 0}"
	".partial{background:#fdecea;border-color:#c0392b}"
	".tag{font-size:11px;padding:0 4px;border:1px solid #c0392b;color:#c0392b;"
	"border-radius:3px;margin-left:6px}"
	".finding{border-left:4px solid #99a;padding:4px 10px;margin:8px 0}"
	".high{border-color:#c0392b}.medium{border-color:#e67e22}.low{border-color:#7f8c8d}"
	".sev{font-weight:600;text-transform:uppercase;font-size:11px;margin-right:6px}"
	".advice{color:#245;margin-top:2px}.whatif{color:#353;margin-top:2px}.muted{color:#667;"
	"font-size:12px}"
	"pre{background:#f4f4f8;padding:6px;overflow:auto;max-height:240px;font-size:12px}"
	"svg{display:block;margin:6px 0;max-width:100%;height:auto}svg text{font:11px "
	"system-ui,sans-serif;fill:#333}svg "
	"text.axis{font-style:italic;fill:#556}table.evidence{margin:4px 0;font-size:13px}"
	"table.evidence "
	"th{text-align:left;font-weight:normal;color:#556}"
	"tr:target,details.drill:target{background:#fde9c8}"
	"@media print{nav{display:none}pre{max-height:none}}"
	".name{word-break:break-all}.name "
	"table{word-break:normal;white-space:nowrap}.settings{white-space:pre-line;font-size:12px}"
	"nav a{margin-right:12px}"
	".bad{color:#c0392b}.good{color:#1e8449}";

void html_put(struct html *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vfprintf(p->out, fmt, ap) < 0)
		p->failed = 1;
	va_end(ap);
}

void html_esc(struct html *p, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&':
			html_put(p, "&amp;");
			break;
		case '<':
			html_put(p, "&lt;");
			break;
		case '>':
			html_put(p, "&gt;");
			break;
		case '"':
			html_put(p, "&quot;");
			break;
		case '\'':
			html_put(p, "&#39;");
			break;
		default:
			if (fputc(*s, p->out) == EOF)
				p->failed = 1;
		}
}

void html_begin(struct html *p, const char *title)
{
	html_put(p, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		    "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width\">\n<title>");
	html_esc(p, title);
	html_put(p, "</title>\n<style>%s</style></head><body>\n", style);
}

int html_end(struct html *p, const char *script)
{
	html_put(p, "<p class=\"muted\">Made by ioatlas.</p>\n");
	if (script)
		html_put(p, "<script>%s</script>\n", script);
	html_put(p, "</body></html>\n");
	if (fflush(p->out) || ferror(p->out))
		p->failed = 1;
	return p->failed ? -EIO : 0;
}

void html_svg(struct html *p, double width, double height, const char *cls)
{
	html_put(p, "<svg width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\"",
		 width, height, width, height);
	if (cls)
		html_put(p, " class=\"%s\"", cls);
	html_put(p, ">");
}

const char *html_bytes(double v, char *buf, size_t len)
{
	return ioa_format_bytes(v, buf, len);
}

/*
 * A label that fits before the bars: its last characters after an ellipsis
 * when it is long (the end of a path says most), cut at a character's start.
 */
static const char *label_tail(const char *label, char *buf, size_t len)
{
	size_t n = strlen(label);
	const char *from;

	if (n <= 34)
		return label;
	from = label + n - 32;
	while (*from && ((unsigned char)*from & 0xc0) == 0x80)
		from++;
	snprintf(buf, len, "\u2026%s", from);
	return buf;
}

void html_hbars(struct html *p, const char *const *labels, const double *v, size_t n, int as_bytes,
		const char *color)
{
	double max = 0;
	size_t i;
	char buf[64], tail[64];

	for (i = 0; i < n; i++)
		max = v[i] > max ? v[i] : max;
	html_svg(p, 760, (double)(n * 20 + 4), NULL);
	for (i = 0; i < n; i++) {
		double w = max > 0 ? v[i] / max * 420 : 0;

		html_put(p, "<text x=\"0\" y=\"%zu\"><title>", i * 20 + 14);
		html_esc(p, labels[i]);
		html_put(p, "</title>");
		html_esc(p, label_tail(labels[i], tail, sizeof(tail)));
		html_put(p,
			 "</text><rect x=\"220\" y=\"%zu\" width=\"%.1f\" height=\"14\" "
			 "fill=\"%s\"/>",
			 i * 20 + 3, w, color);
		if (as_bytes)
			html_bytes(v[i], buf, sizeof(buf));
		else
			snprintf(buf, sizeof(buf), "%.4g", v[i]);
		html_put(p, "<text x=\"%.1f\" y=\"%zu\">%s</text>", 226 + w, i * 20 + 14, buf);
	}
	html_put(p, "</svg>\n");
}
